//! End to end: `fuda check`, `fuda test` and the top-level flags.

mod common;

use common::{fuda, rule_file, sangohana};

#[test]
fn version_and_help() {
    let r = fuda(&["--version"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.starts_with("fuda "), "{}", r.stdout);
    for cmd in ["check", "test", "score", "simulate", "play"] {
        let r = fuda(&[cmd, "--help"]);
        assert_eq!(r.code, 0, "{cmd} --help");
        assert!(r.stdout.contains("Examples:"), "{cmd} --help has examples");
    }
    // Usage errors exit with 2, as clap does.
    assert_eq!(fuda(&["check"]).code, 2);
    assert_eq!(fuda(&["nonsense"]).code, 2);
}

#[test]
fn check_sangohana_is_ok() {
    let r = fuda(&["check", &sangohana()]);
    assert_eq!(r.code, 0, "{}", r.all());
    let line = r.stdout.lines().next().unwrap_or_default();
    assert!(
        line.ends_with(")")
            && line.contains("sangohana.fuda: ok — 珊瑚花 Sangohana (48 cards, 3 seats, 10 yaku,"),
        "{line}"
    );
}

#[test]
fn check_reports_errors_with_their_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("broken.fuda");
    std::fs::write(
        &path,
        "ruleset \"broken\"\nimport \"std/hanafuda\"\nzone 山札 shared stack hiddn\n",
    )
    .expect("write");
    let r = fuda(&["check", path.to_str().expect("utf-8 path")]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr.contains("broken.fuda:3:"),
        "the diagnostic shows the line: {}",
        r.stderr
    );
    assert!(r.stdout.contains("broken.fuda: 1 error"), "{}", r.stdout);
    assert!(!r.all().contains("panicked"), "{}", r.all());
}

/// A misspelt `extends` path gets the nearest rule file of the folder as a did-you-mean
/// (the folder loader lists it only after the file is not found).
#[test]
fn a_misspelt_base_gets_the_nearest_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("sangohana.fuda"),
        "ruleset \"base\"\nimport \"std/hanafuda\"\n",
    )
    .expect("write");
    let path = dir.path().join("house.fuda");
    std::fs::write(&path, "ruleset \"house\"\nextends \"sangohanna.fuda\"\n").expect("write");
    let r = fuda(&["check", path.to_str().expect("utf-8 path")]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr.contains("cannot extend `sangohanna.fuda`"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("did you mean `sangohana.fuda`?"),
        "{}",
        r.stderr
    );
}

#[test]
fn check_refuses_a_missing_file() {
    let r = fuda(&["check", "no/such/file.fuda"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("cannot read `no/such/file.fuda`: no such file"),
        "{}",
        r.stderr
    );
}

/// A file one byte over the parser's 4 MiB cap is refused before it is read whole, by
/// every command that loads a ruleset, with a help line.
#[test]
fn an_oversized_file_is_refused_with_help() {
    const CAP: usize = 4 * 1024 * 1024;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("big.fuda");
    let mut text = String::from("ruleset \"big\"\nimport \"std/hanafuda\"\n");
    text.push_str(&" ".repeat(CAP + 1 - text.len()));
    std::fs::write(&path, &text).expect("write");
    let file = path.to_str().expect("utf-8 path");
    for args in [vec!["check", file], vec!["simulate", file, "--games", "1"]] {
        let r = fuda(&args);
        assert_eq!(r.code, 1, "{args:?}: {}", r.all());
        // miette may wrap long lines: compare with the whitespace squeezed out.
        let err: String = r.stderr.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            err.contains(&format!("{} bytes", CAP + 1)) && err.contains("too large"),
            "{args:?}: {}",
            r.stderr
        );
        assert!(
            err.contains("help: split the ruleset"),
            "{args:?}: {}",
            r.stderr
        );
        assert!(!r.all().contains("panicked"), "{}", r.all());
    }
    // Exactly at the cap is not refused for its size.
    text.truncate(CAP);
    std::fs::write(&path, &text).expect("write");
    let r = fuda(&["check", file]);
    assert!(!r.stderr.contains("too large"), "{}", r.stderr);
}

#[test]
fn test_command_runs_the_in_file_tests() {
    let r = fuda(&["test", &sangohana()]);
    assert_eq!(r.code, 0, "{}", r.all());
    let last = r.stdout.lines().last().unwrap_or_default();
    assert!(
        last.ends_with(" passed, 0 failed") && !last.starts_with("0 "),
        "{last}"
    );

    let r = fuda(&["test", &sangohana(), "--filter", "五光"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r
        .stdout
        .lines()
        .last()
        .unwrap_or_default()
        .ends_with(" passed, 0 failed"));
    assert!(r.stdout.contains("filtered out"), "{}", r.stdout);
}

#[test]
fn test_command_reports_a_failure_by_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("failing.fuda");
    let text = "ruleset \"failing\"\nimport \"std/hanafuda\"\nseats 2 { 2: 親 子 }\nzone 山札 shared stack hidden\n\ntest \"one is one\" {\n  expect 1 == 1\n}\n\ntest \"one is two\" {\n  expect 1 == 2\n}\n";
    std::fs::write(&path, text).expect("write");
    let r = fuda(&["test", path.to_str().expect("utf-8 path")]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stdout.contains("FAIL") && r.stdout.contains("one is two"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("failing.fuda:11:"),
        "the failure points at the rule: {}",
        r.stdout
    );
    assert_eq!(r.stdout.lines().last(), Some("1 passed, 1 failed"));
}

/// A procedure that fails when a test calls it: the failure points at the failing rule,
/// and a note below it at the test's line that called the procedure (the base file's
/// procedure, the variant's test: the note is drawn from the variant's own file).
#[test]
fn test_command_shows_the_test_line_that_called_a_failing_procedure() {
    let dir = tempfile::tempdir().expect("temp dir");
    rule_file(
        dir.path(),
        "base.fuda",
        "ruleset \"base\"\nimport \"std/hanafuda\"\nseats 2 { 2: 親 子 }\n\
         zone 山札 shared stack hidden\nzone 手札 per seat pile owner\n\
         proc 配る(n: int) {\n  deal n from 山札 to 手札\n}\nproc match { 配る(8) }\n",
    );
    let path = rule_file(
        dir.path(),
        "variant.fuda",
        "ruleset \"variant\"\nextends \"base.fuda\"\n\ntest \"deals too many\" {\n  配る(30)\n}\n",
    );
    let r = fuda(&["test", &path]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stdout.contains("base.fuda:7:"), "{}", r.stdout);
    assert!(
        r.stdout.contains("called from test `deals too many`")
            && r.stdout.contains("variant.fuda:5:"),
        "the note names the test and points at its line: {}",
        r.stdout
    );
}

/// A FIFO named on the command line is refused at once, as an imported one is: opening
/// it would wait for a writer forever.
#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_blocking() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("fifo.fuda");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let out = common::fuda_beside_fifos(
        dir.path(),
        &["check", fifo.to_str().expect("utf-8 path")],
        &[(&fifo, common::FifoEnd::Read)],
    );
    let stderr = out.stderr;
    assert_eq!(out.code, 1, "{stderr}");
    assert!(stderr.contains("not a regular file"), "{stderr}");
}

/// Control characters in a rule file never reach the terminal: the file is refused with
/// a diagnostic that points at the character and shows it masked.
#[test]
fn terminal_escapes_in_a_file_are_refused_and_not_printed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("escapes.fuda");
    let text = "ruleset \"\u{1b}[31mred\u{1b}[0m\"\nimport \"std/hanafuda\"\n\
                # \u{1b}]0;PWNED\u{7} \u{1b}[2J\nzone 山札 shared stack hiddn\n";
    std::fs::write(&path, text).expect("write");
    let r = fuda(&["check", path.to_str().expect("utf-8 path")]);
    assert_eq!(r.code, 1, "{}", r.all());
    let all = r.all();
    assert!(all.contains("control character, U+001B (escape)"), "{all}");
    assert!(all.contains("escapes.fuda:1:10"), "{all}");
    for raw in ["\u{1b}[31m", "\u{1b}]0;", "\u{7}", "\u{1b}[2J"] {
        assert!(!all.contains(raw), "{raw:?} printed: {all:?}");
    }
}
