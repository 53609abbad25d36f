//! End to end: text a user or a shared file gave reaches no terminal raw. Every message
//! that quotes it (a typed move, a `--set` value, a batch line's field, a path) shows
//! its control characters as `?`, in text and in JSON alike.

mod common;

use common::{fuda, fuda_with_input, sangohana};

/// An escape sequence that retitles a window and clears the screen, and a C1 control
/// sequence introducer (which JSON does not escape).
const ESC: &str = "\u{1b}]0;PWNED\u{7}\u{1b}[2J\u{9b}1m";

/// Panics if any control character but a line end got through.
fn assert_masked(what: &str, out: &str) {
    let raw: Vec<char> = out
        .chars()
        .filter(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
        .collect();
    assert!(raw.is_empty(), "{what}: {raw:?} printed in {out:?}");
}

#[test]
fn a_typed_move_is_quoted_masked() {
    let input = format!("{ESC}\n捨てる {ESC}\nquit\n");
    let r = fuda_with_input(&["play", &sangohana(), "--seed", "3"], &input);
    assert_eq!(r.code, 2, "{}", r.all());
    assert!(r.stdout.contains("`?]0;PWNED??[2J??1m`"), "{}", r.stdout);
    assert_masked("play", &r.all());
}

#[test]
fn set_values_and_names_are_quoted_masked() {
    let s = sangohana();
    let runs: [&[&str]; 4] = [
        &[
            "score",
            &s,
            "--set",
            &format!("deals={ESC}"),
            "--hand",
            "1-crane",
        ],
        &[
            "score",
            &s,
            "--set",
            &format!("{ESC}=1"),
            "--hand",
            "1-crane",
        ],
        &[
            "simulate",
            &s,
            "--games",
            "1",
            "--set",
            &format!("deals={ESC}"),
        ],
        &[
            "score",
            &s,
            "--json",
            "--set",
            &format!("deals={ESC}"),
            "--hand",
            "1-crane",
        ],
    ];
    for args in runs {
        let r = fuda(args);
        assert_eq!(r.code, 1, "{args:?}: {}", r.all());
        assert!(r.all().contains("?]0;PWNED"), "{args:?}: {}", r.all());
        assert_masked(&format!("{args:?}"), &r.all());
    }
}

#[test]
fn a_batch_line_s_fields_are_quoted_masked() {
    // JSON escapes C0 controls in its strings, but not DEL or the C1 range.
    let lines = "{\"hand\": \"1-crane \\u009b2J\\u007f\"}\n\
                 {\"hand\": \"1-crane\", \"win\": \"\\u009b2J\"}\n\
                 {\"hand\": \"1-crane\", \"\\u009b\": 1}\n";
    let r = fuda_with_input(&["score", &sangohana(), "--batch", "-"], lines);
    assert_eq!(r.code, 1, "{}", r.all());
    assert_eq!(r.stdout.lines().count(), 3, "{}", r.stdout);
    assert!(r.stdout.contains("?2J"), "{}", r.stdout);
    assert_masked("batch", &r.all());
}

#[test]
fn a_path_is_quoted_masked() {
    let name = format!("{ESC}.fuda");
    for args in [
        vec!["check", name.as_str()],
        vec!["check", "--json", name.as_str()],
        vec!["replay", name.as_str()],
        vec!["score", name.as_str(), "--hand", "1-crane"],
    ] {
        let r = fuda(&args);
        assert_eq!(r.code, 1, "{args:?}: {}", r.all());
        assert!(r.all().contains("?]0;PWNED"), "{args:?}: {}", r.all());
        assert_masked(&format!("{args:?}"), &r.all());
    }
}

/// clap quotes a bad value as given: on a terminal (where clap keeps escapes), one with
/// control characters is printed masked, and the usage error keeps its exit code.
#[test]
fn a_bad_command_line_value_is_quoted_masked_on_a_terminal() {
    let value = "\u{1b}]0;PWNED\u{7}";
    let screen = common::fuda_on_terminal(&[], &["check", "--color", value, "x.fuda"])
        .expect(common::NEEDS_SCRIPT);
    assert!(screen.contains("invalid value '"), "{screen:?}");
    assert!(screen.contains("?]0;PWNED?"), "{screen:?}");
    assert!(!screen.contains(value), "{screen:?}");
    let r = fuda(&["check", "--color", value, "x.fuda"]);
    assert_eq!(r.code, 2, "{}", r.all());
    assert_masked("clap", &r.all());
}
