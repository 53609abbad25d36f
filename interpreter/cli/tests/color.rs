//! End to end: colour follows `--color auto|always|never` and `NO_COLOR`, on a pipe and
//! on a terminal.

mod common;

use std::path::Path;

use common::{fuda_env, fuda_on_terminal, rule_file, Run};

const BROKEN: &str = "ruleset \"broken\"\nimport \"std/hanafuda\"\nzone 山札 shared stack hiddn\n";

/// The start of an ANSI colour sequence.
const ESC: &str = "\u{1b}[";

/// `fuda check` of a broken file with piped streams, `NO_COLOR` as given.
fn check(dir: &Path, no_color: Option<&str>, flags: &[&str]) -> Run {
    let file = rule_file(dir, "bad.fuda", BROKEN);
    let args = [&["check", file.as_str()][..], flags].concat();
    fuda_env(None, &[("NO_COLOR", no_color)], &args, b"")
}

#[test]
fn a_pipe_is_plain_unless_colour_is_asked_for() {
    let dir = tempfile::tempdir().expect("temp dir");
    let r = check(dir.path(), None, &[]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stderr.contains("bad.fuda:3:"), "{}", r.stderr);
    assert!(!r.stderr.contains(ESC), "{}", r.stderr);

    for flags in [&["--color", "always"][..], &["--color=always"]] {
        let r = check(dir.path(), None, flags);
        assert_eq!(r.code, 1, "{}", r.all());
        assert!(r.stderr.contains(ESC), "{flags:?}: {}", r.stderr);
    }
    // `always` wins over NO_COLOR; `never` stays plain.
    let r = check(dir.path(), Some("1"), &["--color", "always"]);
    assert!(r.stderr.contains(ESC), "{}", r.stderr);
    let r = check(dir.path(), None, &["--color", "never"]);
    assert!(!r.stderr.contains(ESC), "{}", r.stderr);
    assert!(r.stderr.contains("hiddn"), "{}", r.stderr);
}

#[test]
fn the_flag_goes_before_or_after_the_command_and_is_checked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = rule_file(dir.path(), "bad.fuda", BROKEN);
    let r = fuda_env(
        None,
        &[("NO_COLOR", None)],
        &["--color", "always", "check", &file],
        b"",
    );
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stderr.contains(ESC), "{}", r.stderr);
    let r = fuda_env(None, &[], &["check", &file, "--color", "sometimes"], b"");
    assert_eq!(r.code, 2, "{}", r.all());
    assert!(
        r.stderr.contains("possible values: auto, always, never"),
        "{}",
        r.stderr
    );
}

/// An error `main` reports (through miette's hook) follows the flag too.
#[test]
fn a_user_error_follows_the_choice() {
    let missing = ["score", "no-such.fuda", "--hand", "1-crane"];
    let r = fuda_env(
        None,
        &[("NO_COLOR", None)],
        &[&missing[..], &["--color", "always"]].concat(),
        b"",
    );
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stderr.contains("no such file"), "{}", r.stderr);
    assert!(r.stderr.contains(ESC), "{}", r.stderr);
    let r = fuda_env(None, &[("NO_COLOR", None)], &missing, b"");
    assert!(!r.stderr.contains(ESC), "{}", r.stderr);
}

/// On a terminal, `auto` colours unless NO_COLOR has a value; `never` does not.
#[test]
fn a_terminal_is_coloured_unless_no_color_is_set() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = rule_file(dir.path(), "bad.fuda", BROKEN);
    let run = |no_color: Option<&str>, flags: &[&str]| {
        fuda_on_terminal(
            &[("NO_COLOR", no_color)],
            &[&["check", file.as_str()][..], flags].concat(),
        )
    };
    let plain = run(None, &[]).expect(common::NEEDS_SCRIPT);
    assert!(plain.contains("bad.fuda:3:"), "{plain}");
    assert!(plain.contains(ESC), "{plain}");
    let off = run(Some("1"), &[]).expect("script ran before");
    assert!(off.contains("bad.fuda:3:"), "{off}");
    assert!(!off.contains(ESC), "{off}");
    let empty = run(Some(""), &[]).expect("script ran before");
    assert!(
        empty.contains(ESC),
        "an empty NO_COLOR does not count: {empty}"
    );
    let never = run(None, &["--color", "never"]).expect("script ran before");
    assert!(never.contains("bad.fuda:3:"), "{never}");
    assert!(!never.contains(ESC), "{never}");
}
