//! End to end: `-` reads standard input wherever a command takes a file, under the
//! name `<stdin>`, its imports from the current folder; two `-` at once is refused.

mod common;

use std::path::Path;

use common::{fuda_in, fuda_with_input, sangohana};
use serde_json::Value;

const AKA_GOKO: &str = "1-ribbon 2-ribbon 3-ribbon 1-crane 3-curtain 8-moon 11-rainman 12-phoenix";

const BROKEN: &str = "ruleset \"broken\"\nimport \"std/hanafuda\"\nzone 山札 shared stack hiddn\n";

fn strict_text() -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulesets/sangohana-strict.fuda");
    std::fs::read_to_string(p).expect("the bundled strict ruleset")
}

fn json(out: &str) -> Value {
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

#[test]
fn check_reads_a_ruleset_from_stdin_and_names_it_stdin() {
    let r = fuda_with_input(&["check", "-"], BROKEN);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stderr.contains("[<stdin>:3:"), "{}", r.stderr);
    assert_eq!(r.stdout, "<stdin>: 1 error\n");
    // A file and standard input together: each is checked.
    let r = fuda_with_input(&["check", &sangohana(), "-"], BROKEN);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stdout.contains("sangohana.fuda: ok"), "{}", r.stdout);
    assert!(r.stdout.contains("<stdin>: 1 error"), "{}", r.stdout);
}

/// A ruleset from standard input extends and imports from the current folder, and
/// from nowhere else: a link there that points outside is refused.
#[test]
fn stdin_imports_from_the_current_folder_only() {
    let here = tempfile::tempdir().expect("temp dir");
    std::fs::copy(sangohana(), here.path().join("sangohana.fuda")).expect("copy");
    let r = fuda_in(Some(here.path()), &["check", "-"], &strict_text());
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        r.stdout.starts_with("<stdin>: ok — 珊瑚花 厳しい素役"),
        "{}",
        r.stdout
    );

    let empty = tempfile::tempdir().expect("temp dir");
    let r = fuda_in(Some(empty.path()), &["check", "-"], &strict_text());
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr.contains("cannot extend `sangohana.fuda`"),
        "{}",
        r.stderr
    );

    #[cfg(unix)]
    {
        let linked = tempfile::tempdir().expect("temp dir");
        std::os::unix::fs::symlink(
            here.path().join("sangohana.fuda"),
            linked.path().join("sangohana.fuda"),
        )
        .expect("symlink");
        let r = fuda_in(Some(linked.path()), &["check", "-"], &strict_text());
        assert_eq!(r.code, 1, "{}", r.all());
        assert!(
            r.stderr.contains("outside the ruleset's folder"),
            "{}",
            r.stderr
        );
    }
}

#[test]
fn test_score_and_simulate_take_the_ruleset_from_stdin() {
    let text = std::fs::read_to_string(sangohana()).expect("read");
    let r = fuda_with_input(&["test", "-", "--filter", "五光"], &text);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.stdout.contains("<stdin>: 5/5 ok"), "{}", r.stdout);

    let r = fuda_with_input(&["score", "-", "--hand", AKA_GOKO, "--json"], &text);
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(json(&r.stdout)["total"], 40);

    let args = ["--games", "4", "--set", "deals=1", "--seed", "3", "--json"];
    let piped = fuda_with_input(&[&["simulate", "-"][..], &args].concat(), &text);
    let named = fuda_with_input(&[&["simulate", &sangohana()][..], &args].concat(), "");
    assert_eq!(piped.code, 0, "{}", piped.all());
    assert_eq!(
        common::without_timing(&piped.stdout),
        common::without_timing(&named.stdout)
    );

    // A ruleset with errors from stdin is refused under its name.
    let r = fuda_with_input(&["score", "-", "--hand", AKA_GOKO], BROKEN);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr.contains("`<stdin>` does not compile"),
        "{}",
        r.stderr
    );
}

#[test]
fn compare_names_the_side_read_from_stdin() {
    let strict = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulesets/sangohana-strict.fuda");
    let r = fuda_with_input(
        &[
            "compare",
            &sangohana(),
            "-",
            "--games",
            "4",
            "--set",
            "deals=1",
        ],
        &std::fs::read_to_string(&strict).expect("read"),
    );
    // The piped variant extends `sangohana.fuda`, which is not in this folder.
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr.contains("`<stdin>` does not compile"),
        "{}",
        r.stderr
    );

    let here = tempfile::tempdir().expect("temp dir");
    std::fs::copy(sangohana(), here.path().join("sangohana.fuda")).expect("copy");
    let r = fuda_in(
        Some(here.path()),
        &[
            "compare",
            "sangohana.fuda",
            "-",
            "--games",
            "4",
            "--set",
            "deals=1",
        ],
        &strict_text(),
    );
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        r.stdout
            .contains("B: 珊瑚花 厳しい素役 (strict 素役) (<stdin>): 4 games"),
        "{}",
        r.stdout
    );
}

#[test]
fn batch_and_state_read_from_stdin() {
    let lines = format!("{{\"hand\": \"{AKA_GOKO}\"}}\n\n{{\"hand\": \"1-crane\"}}\n");
    let r = fuda_with_input(&["score", &sangohana(), "--batch", "-"], &lines);
    assert_eq!(r.code, 1, "the second hand is short: {}", r.all());
    let out: Vec<Value> = r.stdout.lines().map(json).collect();
    assert_eq!(out.len(), 2, "{}", r.stdout);
    assert_eq!(
        (out[0]["total"].clone(), out[0]["line"].clone()),
        (40.into(), 1.into())
    );
    assert_eq!(out[1]["line"], 3);

    let ukishima = concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets/ukishima.fuda");
    let state = r#"{"settle": "清算", "dealer": 0, "params": {"減算": false},
 "zones": {"取り札[0]": "10a 10b 1a 1b 1c 1d 5a 5b 8a 8b", "取り札[1]": "2c 2d 3c 3d 4c 4d 6c 6d 8c 8d",
 "取り札[2]": "10c 10d 2a 2b 3a 3b 4a 4b 5c 5d 6a 6b 7a 7b 7c 7d 9a 9b", "伏せ札": "9c", "場": "9d"}}"#;
    let r = fuda_with_input(&["score", ukishima, "--state", "-", "--json"], state);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        json(&r.stdout)["seats"][0]["chips"].is_i64(),
        "{}",
        r.stdout
    );

    let r = fuda_with_input(&["score", ukishima, "--state", "-"], "not json");
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stderr.contains("`<stdin>` is not JSON"), "{}", r.stderr);
}

#[test]
fn replay_reads_the_record_or_the_ruleset_from_stdin() {
    let here = tempfile::tempdir().expect("temp dir");
    std::fs::copy(sangohana(), here.path().join("sangohana.fuda")).expect("copy");
    let played = fuda_in(
        Some(here.path()),
        &[
            "play",
            "sangohana.fuda",
            "--seed",
            "11",
            "--set",
            "deals=1",
            "--agents",
            "random",
            "--record",
            "game.toml",
        ],
        &"1\n".repeat(3000),
    );
    assert_eq!(played.code, 0, "{}", played.all());
    let record = std::fs::read_to_string(here.path().join("game.toml")).expect("record");
    let from_file = fuda_in(Some(here.path()), &["replay", "game.toml"], "");
    assert_eq!(from_file.code, 0, "{}", from_file.all());

    // The record piped in: its ruleset is found from the current folder.
    let piped = fuda_in(Some(here.path()), &["replay", "-"], &record);
    assert_eq!(piped.code, 0, "{}", piped.all());
    assert_eq!(piped.stdout, from_file.stdout);

    // The ruleset piped in, the same text: no warning that it changed.
    let ruleset = std::fs::read_to_string(sangohana()).expect("read");
    let r = fuda_in(
        Some(here.path()),
        &["replay", "game.toml", "--ruleset", "-"],
        &ruleset,
    );
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(r.stdout, from_file.stdout);
    assert!(!r.stderr.contains("hash differs"), "{}", r.stderr);

    let r = fuda_in(Some(here.path()), &["replay", "-"], "seed = \"x\"");
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr.contains("`<stdin>` is not a replay"),
        "{}",
        r.stderr
    );
}

/// Standard input can be read once: two `-` is a usage error naming both, as is `-`
/// for `fuda play`, which reads the moves from standard input.
#[test]
fn two_dashes_are_a_usage_error() {
    let cases: [(&[&str], &str); 5] = [
        (&["check", "-", "-"], "two `FILE` arguments are `-`"),
        (
            &["test", "-", "x.fuda", "-"],
            "two `FILE` arguments are `-`",
        ),
        (
            &["score", "-", "--batch", "-"],
            "`FILE` and `--batch` are both `-`",
        ),
        (&["compare", "-", "-"], "`A` and `B` are both `-`"),
        (
            &["replay", "-", "--ruleset", "-"],
            "`FILE.toml` and `--ruleset` are both `-`",
        ),
    ];
    for (args, said) in cases {
        let r = fuda_with_input(args, BROKEN);
        assert_eq!(r.code, 2, "{args:?}: {}", r.all());
        assert!(r.stderr.contains(said), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("read only once"), "{}", r.stderr);
        assert!(r.stderr.contains("Usage: fuda "), "{}", r.stderr);
        assert!(r.stdout.is_empty(), "{}", r.stdout);
    }
    let r = fuda_with_input(&["play", "-"], BROKEN);
    assert_eq!(r.code, 2, "{}", r.all());
    assert!(
        r.stderr
            .contains("`fuda play` reads your moves from standard input"),
        "{}",
        r.stderr
    );
    let r = fuda_with_input(&["play", &sangohana(), "--record", "-"], "");
    assert_eq!(r.code, 2, "{}", r.all());
    assert!(r.stderr.contains("`--record` is `-`"), "{}", r.stderr);
}

#[test]
fn stdin_that_is_empty_too_large_or_not_text_is_a_diagnostic() {
    // Empty input is a ruleset without its header, not a crash.
    let r = fuda_with_input(&["check", "-"], "");
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(!r.all().contains("panicked"), "{}", r.all());
    // `ruleset "é"` in Latin-1: not UTF-8.
    let latin1 = b"ruleset \"\xE9\"\n";
    let r = common::fuda_env(None, &[], &["check", "-"], latin1);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr
            .contains("cannot read `<stdin>`: it is not UTF-8 text"),
        "{}",
        r.stderr
    );
    // One byte over a rule file's 4 MiB, the largest cap of a file `-` can stand for:
    // refused with the cap and a help line, standard input read no further.
    let big = " ".repeat(4 * 1024 * 1024 + 1);
    let r = fuda_with_input(&["check", "-"], &big);
    assert_eq!(r.code, 1, "{}", r.all());
    let err: String = r.stderr.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        err.contains(
            "cannot read `<stdin>`: it is too large: a rule file may have at most 4194304 bytes (4 MiB)"
        ),
        "{err}"
    );
    assert!(err.contains("help: split the ruleset"), "{err}");
}
