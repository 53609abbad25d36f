//! End to end: `fuda compare` plays the same games under two rulesets and reports
//! B − A, the same for any thread count.

mod common;

use common::{fuda, sangohana};
use serde_json::Value;

fn strict() -> String {
    sangohana().replace("sangohana.fuda", "sangohana-strict.fuda")
}

/// A comparison's JSON without the wall-clock fields of its two reports.
fn without_timing(out: &str) -> Value {
    let mut v: Value =
        serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"));
    for side in ["a", "b"] {
        let obj = v[side].as_object_mut().expect("a report per side");
        for k in ["seconds", "deals_per_second", "games_per_second"] {
            assert!(obj.remove(k).is_some(), "the report has `{k}`");
        }
    }
    v
}

fn compare_json(threads: &str) -> Value {
    let r = fuda(&[
        "compare",
        &sangohana(),
        &strict(),
        "--games",
        "40",
        "--set",
        "deals=2",
        "--agents",
        "eager",
        "--threads",
        threads,
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    without_timing(&r.stdout)
}

#[test]
fn the_strict_variant_against_the_original() {
    let v = compare_json("1");
    assert_eq!(v, compare_json("2"), "the same for any thread count");
    assert_eq!(v["a"]["ruleset"], "珊瑚花 Sangohana");
    assert_eq!(v["a"]["deals"], 80);
    let d = &v["difference"];
    // Every outcome of either side is compared, and B − A is B's share less A's.
    let outcomes = d["outcomes"].as_array().expect("outcomes");
    assert!(!outcomes.is_empty());
    for o in outcomes {
        let (a, b) = (o["a"].as_f64().unwrap(), o["b"].as_f64().unwrap());
        let diff = &o["difference"];
        let (m, lo, hi) = (
            diff["mean"].as_f64().unwrap(),
            diff["low"].as_f64().unwrap(),
            diff["high"].as_f64().unwrap(),
        );
        assert!((m - (b - a)).abs() < 1e-5, "{o}");
        assert!(lo <= m && m <= hi, "{o}");
    }
    // The strict 素役 makes 素役 rarer: its own rule is what changed.
    let soyaku = d["yaku"]
        .as_array()
        .expect("yaku")
        .iter()
        .find(|y| y["name"] == "素役")
        .expect("素役 is compared");
    assert!(
        soyaku["difference"]["high"].as_f64().unwrap() < 0.0,
        "{soyaku}"
    );
    assert_eq!(d["role_win_rate"].as_array().map(Vec::len), Some(3));
    assert_eq!(d["seat_chips"].as_array().map(Vec::len), Some(3));
}

/// Every difference is paired game by game: a ruleset against itself plays the same
/// games, so each difference is exactly 0 with no spread at all (two independent
/// batches would give an interval around 0), and `n` counts the games paired.
#[test]
fn a_ruleset_against_itself_differs_by_nothing() {
    let r = fuda(&[
        "compare",
        &sangohana(),
        &sangohana(),
        "--games",
        "30",
        "--set",
        "deals=2",
        "--agents",
        "random",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    let v = without_timing(&r.stdout);
    let d = v["difference"].as_object().expect("differences");
    let mut rows = 0;
    for (section, list) in d {
        let list = match list {
            Value::Array(l) => l.clone(),
            one => vec![one.clone()],
        };
        for row in list {
            let diff = &row["difference"];
            assert_eq!(
                (
                    diff["mean"].as_f64(),
                    diff["low"].as_f64(),
                    diff["high"].as_f64()
                ),
                (Some(0.0), Some(0.0), Some(0.0)),
                "{section}: {row}"
            );
            assert_eq!(diff["n"], 30, "{section}: {row}");
            rows += 1;
        }
    }
    assert!(rows > 10, "{rows} rows");

    let r = fuda(&[
        "compare",
        &sangohana(),
        &sangohana(),
        "--games",
        "10",
        "--set",
        "deals=1",
        "--agents",
        "random",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        !r.stdout.lines().any(|l| l.ends_with(" *")),
        "nothing differs: {}",
        r.stdout
    );
    assert!(!r.stdout.contains("-0.0"), "no negative zero: {}", r.stdout);
    assert!(r.stdout.contains("[  +0.00,   +0.00]"), "{}", r.stdout);
}

/// A `--set` applies to each side that declares it; only a name neither declares is an
/// error.
#[test]
fn set_applies_to_the_side_that_has_it() {
    let run = |set: &str| {
        fuda(&[
            "compare",
            &sangohana(),
            &strict(),
            "--games",
            "2",
            "--set",
            "deals=1",
            "--set",
            set,
            "--agents",
            "random",
        ])
    };
    let r = run("桐素と対の倍=4");
    assert_eq!(r.code, 0, "only B has it: {}", r.all());
    let r = run("桐素と対の倍=5");
    assert_eq!(r.code, 1, "B checks its range: {}", r.all());
    assert!(r.stderr.contains("must be in 3..4"), "{}", r.stderr);
    let r = run("桐素と対の=4");
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr.contains("no parameter in either ruleset")
            && r.stderr.contains("did you mean `桐素と対の倍`?"),
        "{}",
        r.stderr
    );
    // More agents than either side seats is refused too.
    let r = fuda(&[
        "compare",
        &sangohana(),
        &strict(),
        "--games",
        "1",
        "--agents",
        "random,random,random,random",
    ]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stderr.contains("names 4 agents"), "{}", r.stderr);
}

#[test]
fn text_report_and_mistakes() {
    let r = fuda(&[
        "compare",
        &sangohana(),
        &strict(),
        "--games",
        "10",
        "--set",
        "deals=1",
        "--agents",
        "random",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    for part in [
        "A: 珊瑚花 Sangohana",
        "B: 珊瑚花 厳しい素役",
        "outcomes (share of deals)",
        "B − A (95%)",
        "roles: chips per deal",
        "decisions",
    ] {
        assert!(r.stdout.contains(part), "`{part}` in {}", r.stdout);
    }

    // A file that does not compile is reported as `check` would, and nothing is played.
    let missing = sangohana().replace("sangohana.fuda", "no-such-file.fuda");
    let r = fuda(&["compare", &sangohana(), &missing, "--games", "1"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stdout.is_empty(), "{}", r.stdout);

    let r = fuda(&["compare", &sangohana()]);
    assert_eq!(r.code, 2, "B is required: {}", r.all());
}
