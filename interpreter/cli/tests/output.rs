//! End to end: the caps on what the command line draws. At most 100 diagnostics per
//! command (then one line, or `--json`'s `more`, counts the others by severity), and a
//! long source line shown cut to about 200 characters around its labels. The golden
//! files under `tests/golden/check/` are written anew with `UPDATE_GOLDEN=1`.

mod common;

use std::path::Path;

use common::{fuda_in, rule_file};

/// The most diagnostics a command draws (`limits.rs`).
const MAX_DIAGNOSTICS: usize = 100;

/// A ruleset whose fourth line lists `n` card ids no deck has, 7 bytes each.
fn unknown_names(n: usize) -> String {
    let names: Vec<String> = (0..n).map(|i| format!("nm{i:04}")).collect();
    format!(
        "ruleset \"x\"\nimport \"std/hanafuda\"\nseats 2 {{ 2: 親 子 }}\ndef big(h: cards) = count(cards({}))\n",
        names.join(" ")
    )
}

/// Compares `text` with `tests/golden/check/NAME`, or writes it there with
/// `UPDATE_GOLDEN` set.
fn golden(name: &str, text: &str) {
    let path = format!("{}/tests/golden/check/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(Path::new(&path).parent().expect("folder")).expect("mkdir");
        std::fs::write(&path, text).expect("write the golden file");
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e} (UPDATE_GOLDEN=1 writes it)"));
    assert!(
        want == text,
        "the output differs from {path} (if the change is meant, run with UPDATE_GOLDEN=1 and review the diff):\n{text}"
    );
}

/// A mistake in the middle of a line of some 1,000 characters, after wide characters,
/// and one at the start of a long line: each line is drawn cut around its label, the
/// heading's column is the mistake's in the file, and the underline is under it.
#[test]
fn golden_a_long_line_is_cut_around_its_label() {
    let dir = tempfile::tempdir().expect("temp dir");
    let terms = "山札 + ".repeat(100);
    let text = format!(
        "ruleset \"x\"\nimport \"std/hanafuda\"\nseats 2 {{ 2: 親 子 }}\n\
         def 数(山札: int) = {terms}hiddn + {terms}1\n\
         def 初(h: cards) = count(cards(nm0000)) + 0 # {}\n",
        "長い注釈 ".repeat(200)
    );
    rule_file(dir.path(), "long.fuda", &text);
    let r = fuda_in(Some(dir.path()), &["check", "long.fuda"], "");
    assert_eq!(r.code, 1, "{}", r.all());
    for line in r.stderr.lines() {
        assert!(line.chars().count() < 260, "a line not cut: {line}");
    }
    golden("long-line.txt", &r.stderr);
}

/// Past 100 diagnostics one line says how many more there were, by severity: the
/// golden file is the last diagnostic drawn and that line.
#[test]
fn golden_past_the_cap_diagnostics_are_counted() {
    let dir = tempfile::tempdir().expect("temp dir");
    rule_file(dir.path(), "many.fuda", &unknown_names(130));
    let r = fuda_in(Some(dir.path()), &["check", "many.fuda"], "");
    assert_eq!(r.code, 1, "{}", r.all());
    assert_eq!(r.stdout, "many.fuda: 130 errors\n");
    assert_eq!(
        r.stderr.matches("fuda::unknown-card").count(),
        MAX_DIAGNOSTICS,
        "{}",
        r.stderr
    );
    let last = r.stderr.rfind("fuda::unknown-card").expect("drawn");
    golden("many-tail.txt", &r.stderr[last..]);
}

/// The cap is per command: two files share it, and the count line adds up both.
#[test]
fn the_cap_is_shared_by_the_files_of_a_command() {
    let dir = tempfile::tempdir().expect("temp dir");
    rule_file(dir.path(), "a.fuda", &unknown_names(70));
    rule_file(dir.path(), "b.fuda", &unknown_names(60));
    let r = fuda_in(Some(dir.path()), &["check", "a.fuda", "b.fuda"], "");
    assert_eq!(r.code, 1, "{}", r.all());
    assert_eq!(r.stdout, "a.fuda: 70 errors\nb.fuda: 60 errors\n");
    assert_eq!(r.stderr.matches("  x no card").count(), MAX_DIAGNOSTICS);
    assert!(
        r.stderr
            .ends_with("… and 30 more diagnostics not shown (30 errors, 0 warnings): at most 100 are drawn per command; fix the first ones and run it again\n"),
        "{}",
        r.stderr
    );
}

/// 8,000 unknown names on one 56 KB line: each diagnostic used to reprint the whole
/// line, some 900 MB in all. Now 100 are drawn, each a few cut lines.
#[test]
fn eight_thousand_mistakes_on_one_line_print_little() {
    let dir = tempfile::tempdir().expect("temp dir");
    rule_file(dir.path(), "names.fuda", &unknown_names(8000));
    let r = fuda_in(Some(dir.path()), &["check", "names.fuda"], "");
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stderr.len() < 100_000, "{} bytes", r.stderr.len());
    assert!(
        r.stderr
            .contains("… and 7900 more diagnostics not shown (7900 errors, 0 warnings)"),
        "{}",
        &r.stderr[r.stderr.len().saturating_sub(500)..]
    );
    let r = fuda_in(Some(dir.path()), &["check", "--json", "names.fuda"], "");
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stdout.len() < 100_000, "{} bytes", r.stdout.len());
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
    let file = &v["files"][0];
    assert_eq!(file["errors"], 8000);
    assert_eq!(
        file["diagnostics"].as_array().map(Vec::len),
        Some(MAX_DIAGNOSTICS)
    );
    assert_eq!(
        file["more"],
        serde_json::json!({"errors": 7900, "warnings": 0})
    );
    // `test --json` lists a broken file's errors under the same cap.
    let r = fuda_in(Some(dir.path()), &["test", "--json", "names.fuda"], "");
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stdout.len() < 100_000, "{} bytes", r.stdout.len());
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
    let file = &v["files"][0];
    assert_eq!(
        file["diagnostics"].as_array().map(Vec::len),
        Some(MAX_DIAGNOSTICS)
    );
    assert_eq!(
        file["more"],
        serde_json::json!({"errors": 7900, "warnings": 0})
    );
}

/// Forty unknown names of 20,000 characters each: every message used to quote its name
/// whole, printing the file again. A quoted name is cut to 64 characters.
#[test]
fn long_names_are_quoted_cut() {
    let dir = tempfile::tempdir().expect("temp dir");
    let lets: String = (0..40)
        .map(|i| format!(" let v{i} = n{i}{}\n", "a".repeat(20_000)))
        .collect();
    rule_file(
        dir.path(),
        "long.fuda",
        &format!(
            "ruleset \"x\"\nimport \"std/hanafuda\"\nseats 2 {{ 2: a b }}\n\
             zone z shared pile public\nproc match {{\n{lets}}}\n"
        ),
    );
    let r = fuda_in(Some(dir.path()), &["check", "long.fuda"], "");
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stderr.len() < 40 * 1_000, "{} bytes", r.stderr.len());
    assert!(
        r.stderr
            .contains(&format!("unknown name `n0{}…`", "a".repeat(62))),
        "{}",
        &r.stderr[..r.stderr.len().min(2_000)]
    );
    let r = fuda_in(Some(dir.path()), &["check", "--json", "long.fuda"], "");
    assert!(r.stdout.len() < 40 * 1_000, "{} bytes", r.stdout.len());
}
