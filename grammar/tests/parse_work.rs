//! Parsing stays linear in the input: counted in the parser's own calls, not timed.
//!
//! pest counts the calls it makes for one declaration, and the parser refuses a
//! declaration that takes more than [`CALLS`]: 珊瑚花's whole ruleset parses in about 10
//! calls a byte, so every input here (under 1 KiB) has ample room if parsing is linear,
//! and none if a failed alternative makes the parser read a level twice (2^60 calls for
//! 60 levels).

use fuda_grammar::{parse, SyntaxErrorKind, MAX_PARSER_STEPS};

/// The calls one declaration may take.
const CALLS: usize = MAX_PARSER_STEPS;

/// Parses `src` under the call limit; the error it must end in.
fn parse_within_calls(name: &str, src: &str) -> fuda_grammar::SyntaxError {
    match parse("work.fuda", src) {
        Ok(_) => panic!("{name}: parsed, but is not fuda"),
        Err(e) => e,
    }
}

#[test]
fn failing_nested_alternatives_stay_linear() {
    // Inputs that make a backtracking grammar re-read each level twice (2^60 work):
    // binder-or-call, `else if` arms, and statements that re-read a failed expression.
    let cases = [
        format!("def f() = {}1 +{}", "g(c in ".repeat(60), ")".repeat(60)),
        format!(
            "def f() = {}BAD }}",
            "if a then b else if c then (".repeat(30)
        ),
        format!("proc p {{ dealer = {}}}", "f(".repeat(60)),
        format!("proc p {{ return {}}}", "f(".repeat(60)),
        format!(
            "def f() = {}x{}",
            "count(c in ".repeat(60),
            ": c)".repeat(59)
        ),
    ];
    for (i, src) in cases.iter().enumerate() {
        let e = parse_within_calls(&format!("case {i}"), src);
        // Passing the call limit is reported as a declaration too large to read.
        assert_ne!(
            e.kind,
            SyntaxErrorKind::TooLarge,
            "case {i} ({} bytes) made more than {CALLS} parser calls: {}",
            src.len(),
            e.message
        );
        assert_eq!(
            e.kind,
            SyntaxErrorKind::Unexpected,
            "case {i}: {}",
            e.message
        );
    }
}

/// The limit is real: an input that needs more calls than [`CALLS`] is stopped by it,
/// so the test above would see a parser that went exponential.
#[test]
fn the_call_limit_stops_a_parse_that_passes_it() {
    // Each `a + ` takes some fifty calls.
    let long = format!("def f() = {}BAD", "a + ".repeat(CALLS / 20));
    let e = parse_within_calls("long", &long);
    assert_eq!(e.kind, SyntaxErrorKind::TooLarge, "{}", e.message);
    assert!(e.message.contains("too large to read"), "{}", e.message);
    // Pointing at the declaration's first word.
    assert_eq!((e.span.start, e.span.end), (0, 3));
}
