//! End to end: `fuda check --json` and `fuda test --json`, read as JSON values.

mod common;

use common::{fuda, rule_file, sangohana, Run};
use serde_json::{json, Value};

fn parsed(r: &Run) -> Value {
    serde_json::from_str(r.stdout.trim())
        .unwrap_or_else(|e| panic!("not one JSON document ({e}): {}", r.all()))
}

/// The wording of messages and labels belongs to the checker: the tests here take it
/// out (after checking it is there) and compare the rest exactly.
fn without_wording(mut v: Value) -> Value {
    if let Some(files) = v["files"].as_array_mut() {
        for f in files {
            for d in f["diagnostics"].as_array_mut().into_iter().flatten() {
                let message = d["message"].take();
                assert!(message.as_str().is_some_and(|m| !m.is_empty()), "{d}");
                for l in d["labels"].as_array_mut().into_iter().flatten() {
                    assert!(l["text"].take().is_string(), "{l}");
                }
            }
        }
    }
    v
}

/// The error sits after `山札` on its line: its column counts characters (22), not
/// bytes (26), and the label ends after the five letters of `hiddn`.
#[test]
fn check_json_gives_character_columns() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = rule_file(
        dir.path(),
        "bad.fuda",
        "ruleset \"broken\"\nimport \"std/hanafuda\"\nzone 山札 shared stack hiddn\n",
    );
    let r = fuda(&["check", "--json", &bad]);
    assert_eq!(r.code, 1, "the exit code is the text mode's: {}", r.all());
    assert_eq!(r.stderr, "", "nothing is drawn besides the JSON");
    let v = parsed(&r);
    assert!(
        v["files"][0]["diagnostics"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("hiddn")),
        "{v}"
    );
    assert_eq!(
        without_wording(v),
        json!({
            "ok": false,
            "files": [{
                "file": bad, "ok": false, "summary": null, "errors": 1, "warnings": 0,
                "more": {"errors": 0, "warnings": 0},
                "diagnostics": [{
                    "file": bad, "line": 3, "column": 22, "code": "fuda::syntax",
                    "severity": "error", "message": null, "help": null, "notes": [],
                    "labels": [{"text": null, "file": bad, "line": 3, "column": 22,
                                "end_line": 3, "end_column": 27}],
                }],
            }],
        })
    );
}

/// Several files: a clean one (with its summary), one with a warning, one that cannot
/// be read, and one whose error is in the file it extends (the diagnostic names that
/// file; the entry, the one given).
#[test]
fn check_json_reports_each_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let warned = rule_file(
        dir.path(),
        "warned.fuda",
        "ruleset \"w\"\nimport \"std/hanafuda\"\nseats 2 { 2: 親 子 }\n\
         zone 山札 shared stack hidden\npattern 組 {\n  group 三: 3 same kind\n}\n",
    );
    rule_file(
        dir.path(),
        "base.fuda",
        "ruleset \"base\"\nimport \"std/hanafuda\"\nzone 山札 shared stack hiddn\n",
    );
    let house = rule_file(
        dir.path(),
        "house.fuda",
        "ruleset \"house\"\nextends \"base.fuda\"\n",
    );
    let missing = dir.path().join("missing.fuda");
    let missing = missing.to_str().expect("utf-8 path");
    let r = fuda(&["check", "--json", &sangohana(), &warned, missing, &house]);
    assert_eq!(r.code, 1, "{}", r.all());
    let v = parsed(&r);
    assert_eq!(v["ok"], false);
    let files = v["files"].as_array().expect("files");
    assert_eq!(files.len(), 4, "{v}");

    let clean = &files[0];
    assert_eq!((&clean["ok"], &clean["errors"]), (&json!(true), &json!(0)));
    assert!(
        clean["summary"]
            .as_str()
            .is_some_and(|s| s.starts_with("珊瑚花 Sangohana (48 cards, 3 seats")),
        "{clean}"
    );
    assert_eq!(clean["diagnostics"], json!([]));

    let w = &files[1];
    assert_eq!((&w["ok"], &w["warnings"]), (&json!(true), &json!(1)), "{w}");
    let d = &w["diagnostics"][0];
    assert_eq!(
        (&d["severity"], &d["code"], &d["line"], &d["column"]),
        (
            &json!("warning"),
            &json!("fuda::unused-pattern"),
            &json!(5),
            &json!(9)
        ),
        "{d}"
    );
    assert!(d["help"].is_string(), "{d}");

    let m = &files[2];
    assert_eq!((&m["file"], &m["ok"]), (&json!(missing), &json!(false)));
    let d = &m["diagnostics"][0];
    assert_eq!(
        (&d["code"], &d["line"], &d["labels"]),
        (&json!("fuda::cli::read"), &Value::Null, &json!([]))
    );
    assert!(
        d["message"]
            .as_str()
            .is_some_and(|s| s.contains("no such file")),
        "{d}"
    );

    let h = &files[3];
    assert_eq!((&h["file"], &h["ok"]), (&json!(house), &json!(false)));
    let d = &h["diagnostics"][0];
    assert_eq!(
        (&d["file"], &d["line"]),
        (&json!("base.fuda"), &json!(3)),
        "{d}"
    );

    // All clean: ok, exit code 0.
    let r = fuda(&["check", "--json", &sangohana()]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(parsed(&r)["ok"], true);
}

#[test]
fn test_json_lists_each_test_and_the_totals() {
    let dir = tempfile::tempdir().expect("temp dir");
    let failing = rule_file(
        dir.path(),
        "failing.fuda",
        "ruleset \"failing\"\nimport \"std/hanafuda\"\nseats 2 { 2: 親 子 }\n\
         zone 山札 shared stack hidden\n\ntest \"one is one\" {\n  expect 1 == 1\n}\n\n\
         test \"one is two\" {\n  expect 1 == 2\n}\n",
    );
    let broken = rule_file(
        dir.path(),
        "broken.fuda",
        "ruleset \"broken\"\nimport \"std/hanafuda\"\nzone 山札 shared stack hiddn\n",
    );
    let r = fuda(&["test", "--json", &failing, &broken]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert_eq!(r.stderr, "", "nothing is drawn besides the JSON");
    let mut v = parsed(&r);
    let failure = v["files"][0]["tests"][1]["message"].take();
    assert!(failure.as_str().is_some_and(|m| !m.is_empty()), "{v}");
    let diagnostic = v["files"][0]["tests"][1]["diagnostic"].take();
    assert_eq!(
        (
            &diagnostic["file"],
            &diagnostic["line"],
            &diagnostic["code"]
        ),
        (&json!(failing), &json!(11), &json!("fuda::runtime")),
        "{diagnostic}"
    );
    let compile_errors = v["files"][1]["diagnostics"].take();
    assert_eq!(compile_errors[0]["line"], 3, "{compile_errors}");
    assert_eq!(
        v,
        json!({
            "ok": false, "passed": 1, "failed": 2,
            "files": [
                {"file": failing, "compiled": true, "passed": 1, "failed": 1,
                 "filtered_out": 0, "diagnostics": [],
                 "more": {"errors": 0, "warnings": 0},
                 "tests": [
                    {"name": "one is one", "line": 6, "result": "passed",
                     "message": null, "diagnostic": null},
                    {"name": "one is two", "line": 10, "result": "failed",
                     "message": null, "diagnostic": null},
                 ]},
                {"file": broken, "compiled": false, "passed": 0, "failed": 1,
                 "filtered_out": 0, "tests": [], "diagnostics": null,
                 "more": {"errors": 0, "warnings": 0}},
            ],
        })
    );

    // A filter: the others are counted as filtered out; all pass, exit code 0.
    let r = fuda(&["test", "--json", &sangohana(), "--filter", "五光"]);
    assert_eq!(r.code, 0, "{}", r.all());
    let v = parsed(&r);
    assert_eq!(
        (&v["ok"], &v["passed"], &v["failed"]),
        (&json!(true), &json!(5), &json!(0))
    );
    let file = &v["files"][0];
    assert_eq!(file["tests"].as_array().map(Vec::len), Some(5));
    assert!(
        file["filtered_out"].as_u64().is_some_and(|n| n > 0),
        "{file}"
    );
    assert!(
        file["tests"]
            .as_array()
            .into_iter()
            .flatten()
            .all(|t| t["result"] == "passed"
                && t["name"].as_str().is_some_and(|n| n.contains("五光"))),
        "{file}"
    );
}
