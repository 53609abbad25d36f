//! Untrusted input: `parse` never panics, hangs or overflows the stack, and every
//! diagnostic it returns renders with labels inside the source.

mod common;

use fuda_grammar::{parse, SyntaxErrorKind};
use miette::Diagnostic;
use proptest::prelude::*;

/// Parses and checks the result is well-formed either way.
fn parse_checked(src: &str) {
    match parse("fuzz.fuda", src) {
        Ok(file) => {
            for item in &file.items {
                let s = item.span();
                assert!(
                    s.start <= s.end && s.end as usize <= src.len(),
                    "item span {s:?} outside the source"
                );
            }
        }
        Err(e) => {
            assert!(
                e.span.end as usize <= src.len() && e.span.start <= e.span.end,
                "{:?} outside the source",
                e.span
            );
            for l in e.labels().into_iter().flatten() {
                assert!(
                    l.offset() + l.len() <= src.len(),
                    "label outside the source"
                );
            }
            assert!(!e.message.is_empty());
            common::render(&e);
        }
    }
}

fn sangohana() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../rulesets/sangohana.fuda"
    ))
    .expect("ruleset")
}

/// Cases for the slower properties; `PROPTEST_CASES` raises it for a longer soak.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Pieces of fuda text, so random sequences reach deep into the grammar.
const PIECES: &[&str] = &[
    "proc",
    "p",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "let",
    "x",
    "=",
    "==",
    "+=",
    "if",
    "then",
    "else",
    "not",
    "and",
    "or",
    "in",
    "is",
    "move",
    "to",
    "from",
    "deal",
    "choose",
    "each",
    "claim",
    "pay",
    "dealer",
    "by",
    "draw",
    "lowest",
    "score",
    "yaku",
    "times",
    "first",
    "largest",
    "when",
    "name",
    "void",
    "plus",
    "pattern",
    "group",
    "same",
    "run",
    "require",
    "deck",
    "card",
    "cards",
    "1-crane",
    "12m",
    "x4",
    "+",
    "-",
    "*",
    "/",
    "%",
    ".",
    "..",
    ":",
    ",",
    "|",
    "1",
    "0",
    "99999999999999999999",
    "\"s\"",
    "\"",
    "\\",
    "#c\n",
    "\n",
    " ",
    ";",
    "上がり",
    "手札",
    "count",
    "c",
    "test",
    "with",
    "var",
    "zone",
    "shared",
    "per seat",
    "stack",
    "hidden",
    "enum",
    "return",
    "break",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(256)))]

    #[test]
    fn arbitrary_strings(src in any::<String>()) {
        parse_checked(&src);
    }

    #[test]
    fn token_soup(pieces in prop::collection::vec(prop::sample::select(PIECES), 0..120), glue in any::<bool>()) {
        let src = pieces.join(if glue { "" } else { " " });
        parse_checked(&src);
    }
}

/// One edit of a text: insert, delete or replace the character at a position.
#[derive(Clone, Debug)]
enum Edit {
    Insert(prop::sample::Index, char),
    Delete(prop::sample::Index),
    Replace(prop::sample::Index, char),
}

fn edit() -> impl Strategy<Value = Edit> {
    // Mostly characters that matter to the grammar, sometimes anything at all.
    let ch = prop_oneof![
        4 => prop::sample::select(vec!['{', '}', '(', ')', '[', ']', '"', '#', '\n', ' ', '=', ':', ',', '.', '-', '\\', 'x', '1', 'て']),
        1 => any::<char>(),
    ];
    prop_oneof![
        (any::<prop::sample::Index>(), ch.clone()).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<prop::sample::Index>().prop_map(Edit::Delete),
        (any::<prop::sample::Index>(), ch).prop_map(|(i, c)| Edit::Replace(i, c)),
    ]
}

fn apply(src: &mut String, e: &Edit) {
    let bounds: Vec<usize> = src
        .char_indices()
        .map(|(i, _)| i)
        .chain([src.len()])
        .collect();
    match e {
        Edit::Insert(i, c) => src.insert(bounds[i.index(bounds.len())], *c),
        Edit::Delete(i) | Edit::Replace(i, _) if bounds.len() > 1 => {
            let at = bounds[i.index(bounds.len() - 1)];
            src.remove(at);
            if let Edit::Replace(_, c) = e {
                src.insert(at, *c);
            }
        }
        _ => {}
    }
}

proptest! {
    // Each case parses the whole ruleset (twice when it fails), so fewer cases.
    #![proptest_config(ProptestConfig::with_cases(cases(32)))]

    #[test]
    fn mutations_of_sangohana(edits in prop::collection::vec(edit(), 1..4)) {
        let mut src = sangohana();
        for e in &edits {
            apply(&mut src, e);
        }
        parse_checked(&src);
    }
}

/// Runs `parse` on a thread with a small stack, as test runners and servers give,
/// and fails if it overflows or panics. (That parsing stays linear in the input is
/// `parse_work.rs`'s to show, by counting the parser's calls.)
fn survives(name: &str, src: String) -> Result<(), fuda_grammar::SyntaxError> {
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || parse("deep.fuda", &src).map(|_| ()))
        .expect("thread");
    let result = handle
        .join()
        .unwrap_or_else(|_| panic!("{name}: parse panicked"));
    result
}

fn too_deep(name: &str, src: String) {
    match survives(name, src) {
        Err(e) => assert_eq!(e.kind, SyntaxErrorKind::TooDeep, "{name}: {}", e.message),
        Ok(()) => panic!("{name}: parsed"),
    }
}

#[test]
fn deeply_nested_brackets() {
    too_deep("100k (", "(".repeat(100_000));
    too_deep(
        "100k ( in an expression",
        format!("def f() = {}1{}", "(".repeat(100_000), ")".repeat(100_000)),
    );
    too_deep("100k [", format!("def f() = {}", "[".repeat(100_000)));
    too_deep("100k {", format!("proc p {}", "{".repeat(100_000)));
    too_deep(
        "nested blocks",
        format!(
            "proc p {{ {}{} }}",
            "if a { ".repeat(1000),
            "}".repeat(1000)
        ),
    );
    too_deep(
        "nested calls",
        format!("def f() = {}1{}", "f(".repeat(10_000), ")".repeat(10_000)),
    );
}

#[test]
fn long_prefix_and_operator_chains() {
    too_deep("not", format!("def f() = {}a", "not ".repeat(20_000)));
    too_deep("minus", format!("def f() = {}a", "-".repeat(20_000)));
    too_deep("plus", format!("def f() = a{}", " + a".repeat(20_000)));
    too_deep("fields", format!("def f() = a{}", ".b".repeat(20_000)));
    too_deep("indexes", format!("def f() = a{}", "[0]".repeat(20_000)));
    too_deep(
        "then-if",
        format!("def f() = {}1", "if a then ".repeat(20_000)),
    );
    too_deep(
        "else-if statements",
        format!("proc p {{ if a {{ }} {} }}", "else if b { } ".repeat(2000)),
    );
    too_deep(
        "else-if expression",
        format!("def f() = {}1", "if a then b else ".repeat(2000)),
    );
    // pest's own guard catches recursion our pre-scan does not count.
    too_deep(
        "else-minus-if",
        format!("def f() = {}1", "if a then b else -".repeat(20_000)),
    );
    // Within the limits, chains are fine.
    survives(
        "short chains",
        format!(
            "def f() = a{} and {}b",
            " + a".repeat(100),
            "not ".repeat(50)
        ),
    )
    .expect("parses");
}

#[test]
fn odd_text() {
    for src in [
        "\u{0}",
        "\u{feff}proc p { }",
        "\"",
        "\\",
        "#",
        "proc p { say \"\\",
        "x4",
        "0..",
        "..",
        "\r\n\r\n",
        "　",
    ] {
        parse_checked(src);
    }
}
