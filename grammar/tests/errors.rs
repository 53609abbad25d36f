//! Typical mistakes give a plain-words message, a label on the right text, and help.

mod common;

use common::{err, label_text, render};
use fuda_grammar::{SyntaxErrorKind, MAX_NESTING, MAX_SOURCE_BYTES};
use miette::Diagnostic;

/// Message, labelled text and help of the error `src` gives.
fn check(src: &str) -> (String, String, Option<String>) {
    let e = err(src);
    (
        e.message.clone(),
        label_text(&e, src).to_string(),
        e.help.clone(),
    )
}

#[test]
fn missing_expression() {
    let (msg, at, _) = check("proc a { let x = }");
    assert_eq!(
        (msg.as_str(), at.as_str()),
        ("expected an expression, found `}`", "}")
    );
}

#[test]
fn missing_token() {
    assert_eq!(check("proc a { let x 3 }").0, "expected `=`, found `3`");
    assert_eq!(check("var x int = 0").0, "expected `:`, found `int`");
    assert_eq!(
        check("proc a { move x foo }").0,
        "expected `to`, found `foo`"
    );
    assert_eq!(
        check("proc a { record r x }").0,
        "expected `for`, found `x`"
    );
    assert_eq!(
        check("proc a { let x = if a then b }").0,
        "expected `else`, found `}`"
    );
    assert_eq!(
        check("proc a { expect (1 + 2 }").0,
        "expected `)`, found `}`"
    );
    assert_eq!(
        check("zone 山札 shared stack").0,
        "expected `hidden`, `owner`, `public` or `top`, found the end of the file"
    );
    assert_eq!(
        check("score s() { yaku first { a 1 } }").0,
        "expected `when`, found `}`"
    );
    assert_eq!(
        check("proc a { if x == 1 then { } }").0,
        "expected `{`, found the keyword `then`"
    );
}

#[test]
fn statement_and_declaration_positions() {
    let (msg, at, _) = check("proc a { 3 }");
    assert_eq!(
        (msg.as_str(), at.as_str()),
        ("expected a statement or `}`, found `3`", "3")
    );
    let (msg, at, help) = check("move x to y");
    assert!(msg.starts_with("expected a declaration"), "{msg}");
    assert_eq!(at, "move");
    assert_eq!(
        help.as_deref(),
        Some("statements belong inside a `proc` or `test` block")
    );
}

#[test]
fn unclosed_brace_points_at_the_opener() {
    // The `}` on line 4 is indented like the proc, so it closes the proc's block: the
    // `if`'s `{` is the one left open.
    let src = "proc a {\n  if x {\n    let y = 1\n}\n";
    let e = err(src);
    assert_eq!(
        e.message,
        "missing `}`: the `{` of `if` on line 2 is never closed"
    );
    assert_eq!(label_text(&e, src), "{");
    let labels: Vec<_> = e.labels().expect("labels").collect();
    assert_eq!(labels.len(), 2);
    assert_eq!(
        labels[0].offset(),
        src.rfind('{').unwrap(),
        "the `if`'s `{{` is the one left open"
    );
    assert_eq!(labels[0].label(), Some("this `{` is never closed"));
    // The end of the file is where the parser noticed: the label sits on the last text.
    assert_eq!(labels[1].offset(), src.rfind('}').unwrap());
    assert_eq!(labels[1].label(), Some("the file ends with it still open"));
    assert_eq!(
        e.help.as_deref(),
        Some(
            "add the missing `}` after line 3: by the indentation, the block of line 2 ends there"
        )
    );
}

/// Without indentation to go by, the innermost `{` still open is the one reported.
#[test]
fn unclosed_brace_without_indentation() {
    let src = "proc a {\nif x {\nlet y = 1\n}\n";
    let e = err(src);
    assert_eq!(
        e.message,
        "missing `}`: the `{` of `proc` on line 1 is never closed"
    );
    assert_eq!(
        e.help.as_deref(),
        Some("add the missing `}` at the end of its block")
    );
}

/// A block whose `}` is forgotten before the next declaration: the error points at the
/// `{` left open (the `times` stage's, by the indentation of the `}` that follows it),
/// with the declaration's keyword, where parsing failed, as the second label.
#[test]
fn unclosed_block_before_the_next_declaration() {
    let src =
        "score 役 {\n  times 短三 largest {\n    3 when true\n}\n\ntest \"x\" { expect true }\n";
    let e = err(src);
    assert_eq!(
        e.message,
        "missing `}`: the `{` of `times` on line 2 is never closed"
    );
    assert_eq!(
        e.help.as_deref(),
        Some(
            "add the missing `}` after line 3: by the indentation, the block of line 2 ends there"
        )
    );
    let labels: Vec<_> = e.labels().expect("labels").collect();
    assert_eq!(labels.len(), 2);
    assert_eq!(
        labels[0].offset(),
        src.find("largest {").unwrap() + "largest ".len(),
        "the stage's `{{` is the one left open"
    );
    assert_eq!(labels[0].label(), Some("this `{` is never closed"));
    assert_eq!(labels[1].offset(), src.find("test").unwrap());
    assert_eq!(
        labels[1].label(),
        Some("the parser noticed here, at the keyword `test`")
    );
}

/// Brackets of other kinds mixed up: the `{` left open is the `(`'s fault, so the
/// message is the parser's own.
#[test]
fn a_paren_left_open_is_not_called_a_missing_brace() {
    assert_eq!(
        check("proc a { expect (1 + 2 }").0,
        "expected `)`, found `}`"
    );
}

#[test]
fn a_range_after_another_operator() {
    let (msg, at, help) = check("proc a { let x = 3 == 1..5 }");
    assert_eq!(msg, "a range `lo..hi` cannot follow `==`");
    assert_eq!(at, "1..5");
    assert!(help.unwrap().contains("`x in 1..5`"));
}

#[test]
fn stray_closer() {
    let (msg, at, help) = check("proc a { }\n}");
    assert!(msg.ends_with("found `}`"), "{msg}");
    assert_eq!(at, "}");
    assert!(help.unwrap().contains("no matching opening bracket"));
}

#[test]
fn card_id_outside_cards() {
    for src in [
        "proc a { let c = 1a }",
        "proc a { move 1m to 手札[s] }",
        "def f() = 12m + 1",
    ] {
        let (msg, at, help) = check(src);
        assert!(msg.starts_with("expected an expression, found `1"), "{msg}");
        assert!(at.starts_with('1') && at.len() >= 2, "{at}");
        assert_eq!(
            help.as_deref(),
            Some("write card ids inside `cards(…)` or `card(…)`, e.g. `card(1-crane)`")
        );
    }
}

#[test]
fn keyword_as_name() {
    let (msg, at, help) = check("proc a { let name = 3 }");
    assert_eq!(
        (msg.as_str(), at.as_str()),
        ("expected a name, found the keyword `name`", "name")
    );
    assert_eq!(
        help.as_deref(),
        Some("`name` is a reserved word and cannot be a name; choose another name")
    );
    let (_, at, help) = check("var to: int = 0");
    assert_eq!(at, "to");
    assert!(help.unwrap().starts_with("`to` is a reserved word"));
}

#[test]
fn single_equals_in_a_condition() {
    let (msg, at, help) = check("proc a { if x = 1 { } }");
    assert_eq!(
        (msg.as_str(), at.as_str()),
        ("expected `{`, found `=`", "=")
    );
    assert_eq!(help.as_deref(), Some("to compare two values, write `==`"));
}

#[test]
fn unclosed_string() {
    let src = "proc a {\n  say \"hello\n}";
    let e = err(src);
    assert_eq!(e.message, "this string is never closed");
    assert_eq!(label_text(&e, src), "\"hello");
    assert!(e.help.unwrap().contains("same line"));
}

#[test]
fn bad_escape() {
    let src = r#"proc a { say "tab\there" }"#;
    let e = err(src);
    assert_eq!(e.kind, SyntaxErrorKind::BadEscape);
    assert_eq!(e.message, "unknown escape `\\t` in a string");
    assert_eq!(label_text(&e, src), "\\t");
}

#[test]
fn numbers_too_large() {
    let src = "proc a { let x = 9223372036854775808 }";
    let e = err(src);
    assert_eq!(e.kind, SyntaxErrorKind::NumberTooLarge);
    assert_eq!(label_text(&e, src), "9223372036854775808");
    let src = "def f() = -9223372036854775809";
    assert_eq!(label_text(&err(src), src), "-9223372036854775809");
    let src = "param p: int = 1 in 0..99999999999999999999999";
    assert_eq!(err(src).kind, SyntaxErrorKind::NumberTooLarge);
    let src = "deck d { card a \"a\" x99999999999999999999 }";
    assert_eq!(err(src).kind, SyntaxErrorKind::NumberTooLarge);
}

#[test]
fn binder_needs_name_in() {
    let src = "def f() = count(c + 1: c)";
    let e = err(src);
    assert_eq!(e.kind, SyntaxErrorKind::BadBinder);
    assert_eq!(label_text(&e, src), "c + 1");
    assert!(e.help.unwrap().contains("count(c in 手札[s]"));
    for bad in [
        "def f() = count((c in h): c)",
        "def f() = count(x: c in h: c)",
        "def f() = count(c in h or g: c)",
    ] {
        assert_eq!(err(bad).kind, SyntaxErrorKind::BadBinder, "{bad}");
    }
}

#[test]
fn too_deeply_nested() {
    let depth = MAX_NESTING + 1;
    let src = format!("def f() = {}1{}", "(".repeat(depth), ")".repeat(depth));
    let e = err(&src);
    assert_eq!(e.kind, SyntaxErrorKind::TooDeep);
    assert_eq!(
        e.span.start as usize,
        "def f() = ".len() + MAX_NESTING,
        "labels the first bracket too deep"
    );
    assert_eq!(label_text(&e, &src), "(");
    // Exactly at the limit is fine.
    common::ok(&format!(
        "def f() = {}1{}",
        "(".repeat(MAX_NESTING),
        ")".repeat(MAX_NESTING)
    ));
    // Unbracketed `if … then if …` counts too.
    let src = format!(
        "def f() = {}1{}",
        "if a then ".repeat(depth),
        " else 2".repeat(depth)
    );
    assert_eq!(err(&src).kind, SyntaxErrorKind::TooDeep);
    // Long operator chains make deep trees even without brackets.
    let src = format!("def f() = 1{}", " + 1".repeat(2000));
    let e = err(&src);
    assert_eq!(e.kind, SyntaxErrorKind::TooDeep);
    assert!(e.message.contains("nested too deeply"));
}

#[test]
fn too_large() {
    let src = "#".repeat(MAX_SOURCE_BYTES + 1);
    let e = err(&src);
    assert_eq!(e.kind, SyntaxErrorKind::TooLarge);
    assert!(e.message.contains("too large"));
    assert!(e.span.end as usize <= MAX_SOURCE_BYTES);
}

#[test]
fn diagnostics_carry_code_file_name_and_labels() {
    let e = fuda_grammar::parse("rules/mine.fuda", "proc a {").unwrap_err();
    assert_eq!(
        e.code().map(|c| c.to_string()).as_deref(),
        Some("fuda::syntax")
    );
    assert_eq!(e.file_name(), "rules/mine.fuda");
    assert_eq!(e.to_string(), e.message);
    let first = e.labels().and_then(|mut l| l.next()).expect("a label");
    assert!(first.primary());
    // At the end of the file the label sits on the last character (miette would hide
    // a label at the very end).
    assert_eq!((first.offset(), first.len()), (7, 1));
    assert_eq!(first.label(), Some("this `{` is never closed"));
    assert!(render(&e).contains("rules/mine.fuda"));
    let z = fuda_grammar::parse("x", "zone z shared stack  # no visibility\n\n").unwrap_err();
    assert_eq!(
        z.span,
        fuda_grammar::Span::new(18, 19),
        "skips blanks and comments"
    );
}
