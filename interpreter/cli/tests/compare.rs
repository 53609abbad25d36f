//! End to end: `fuda compare` plays the same games under two rulesets and reports
//! B − A, the same for any thread count.

mod common;

use common::{fuda, sangohana, without_timing};
use serde_json::Value;

fn strict() -> String {
    sangohana().replace("sangohana.fuda", "sangohana-strict.fuda")
}

/// The compared rows of one section of `difference`: a list of rows, one row, or (for
/// `tallies`) a list of labels each holding its rows under `values`.
fn section_rows(section: &Value) -> Vec<Value> {
    match section {
        Value::Array(rows) => rows
            .iter()
            .flat_map(|r| match &r["values"] {
                Value::Array(values) => values.clone(),
                _ => vec![r.clone()],
            })
            .collect(),
        row => vec![row.clone()],
    }
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
        let list = section_rows(list);
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

/// A ruleset whose round never ends: every game of it fails at the decision limit.
const NO_OUTCOME: &str = r#"ruleset "no outcome"
import "std/hanafuda"
seats 2 { 2: 親 子 }
zone 山札 shared stack hidden
zone 手札 per seat pile owner
enum 結果: 終(done)
proc match {
  loop {
    for s in seats() {
      choose s { move 引く "引く" { move top(山札) to 手札[s] } move 戻す "戻す" when count(手札[s]) > 0 { move top(手札[s]) to 山札 } }
    }
    if count(山札) == 0 { gather 山札 }
  }
}
"#;

/// Every difference section of a comparison's JSON, row by row.
fn rows(v: &Value) -> Vec<Value> {
    let d = v["difference"].as_object().expect("differences");
    d.values().flat_map(section_rows).collect()
}

/// When one side finishes no game, nothing pairs: no difference has an interval or a
/// mark, and the text says which side stopped and what each finished.
#[test]
fn a_side_that_finishes_nothing_gives_no_intervals() {
    let dir = tempfile::tempdir().expect("tempdir");
    let b = dir.path().join("noout.fuda");
    std::fs::write(&b, NO_OUTCOME).expect("write");
    let b = b.to_str().expect("utf-8 path");
    let args = [
        "compare",
        &sangohana(),
        b,
        "--agents",
        "random",
        "--games",
        "40",
    ];
    let r = fuda(&[&args[..], &["--json"]].concat());
    assert_eq!(r.code, 1, "{}", r.stderr);
    let v: Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
    assert_eq!(v["b"]["stopped"], true);
    for row in rows(&v).iter().filter(|r| !r["difference"].is_null()) {
        let d = &row["difference"];
        assert_eq!(d["n"], 0, "{row}");
        assert!(d["low"].is_null() && d["high"].is_null(), "{row}");
    }
    let t = fuda(&args);
    assert_eq!(t.code, 1, "{}", t.stderr);
    assert!(!t.stdout.contains("the same 40 games"), "{}", t.stdout);
    assert!(t.stdout.contains("A finished 40"), "{}", t.stdout);
    assert!(
        t.stdout.contains("B finished 0 (it stopped"),
        "{}",
        t.stdout
    );
    assert!(t.stdout.contains("no games to pair"), "{}", t.stdout);
    assert!(!t.stdout.contains(" *\n"), "{}", t.stdout);
    assert!(!t.stdout.contains('['), "{}", t.stdout);
}

/// With few games a share difference's interval stops at ±100 points, the most a
/// difference of two shares can be.
#[test]
fn share_intervals_stay_within_their_range() {
    let ukishima = sangohana().replace("sangohana.fuda", "ukishima-2p.fuda");
    let r = fuda(&["compare", &sangohana(), &ukishima, "--games", "2", "--json"]);
    assert_eq!(r.code, 0, "{}", r.all());
    let v: Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
    let mut checked = 0;
    for section in ["outcomes", "role_win_rate", "seat_win_rate"] {
        // Seat 2 only A has: no difference at all.
        for row in v["difference"][section].as_array().expect("rows") {
            let d = &row["difference"];
            if d.is_null() {
                continue;
            }
            let (lo, hi) = (d["low"].as_f64().unwrap(), d["high"].as_f64().unwrap());
            assert!(
                (-1.0..=1.0).contains(&lo) && (-1.0..=1.0).contains(&hi),
                "{row}"
            );
            checked += 1;
        }
    }
    assert!(checked > 0);
}

/// A seat or role only one side has shows `—` on the other side, with no difference,
/// interval or mark (null in `--json`), and the header names each side's agents: a
/// missing side is not 0.00%, and no difference is marked against it.
#[test]
fn a_seat_one_side_lacks_has_no_difference() {
    let dir = tempfile::tempdir().expect("tempdir");
    let base = std::fs::read_to_string(sangohana()).expect("read");
    std::fs::write(dir.path().join("sangohana.fuda"), base).expect("write");
    let four = dir.path().join("four.fuda");
    std::fs::write(
        &four,
        "ruleset \"珊瑚花 四人\"\nextends \"sangohana.fuda\"\nparam players: int = 4 in 2..4 \"four\"\n",
    )
    .expect("write");
    let args = [
        "compare",
        &sangohana(),
        four.to_str().expect("utf-8 path"),
        "--games",
        "20",
        "--set",
        "deals=2",
        "--agents",
        "random",
    ];
    let r = fuda(&[&args[..], &["--json"]].concat());
    assert_eq!(r.code, 0, "{}", r.all());
    let v: Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
    let d = &v["difference"];
    let lacking = [("seat_win_rate", "seat 3"), ("seat_chips", "seat 3")]
        .into_iter()
        .chain([("role_win_rate", "三番"), ("role_chips_per_deal", "三番")]);
    for (section, name) in lacking {
        let row = d[section]
            .as_array()
            .expect("rows")
            .iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("{section} has {name}: {d}"));
        assert!(row["a"].is_null(), "{row}");
        assert!(row["b"].is_number(), "{row}");
        assert!(row["difference"].is_null(), "{row}");
    }
    // What both have is compared as before.
    assert!(
        d["seat_win_rate"][0]["difference"]["low"].is_number(),
        "{d}"
    );

    let t = fuda(&args);
    assert_eq!(t.code, 0, "{}", t.all());
    assert!(
        t.stdout
            .contains("agents A random,random,random and B random,random,random,random;"),
        "{}",
        t.stdout
    );
    let lines: Vec<&str> = t
        .stdout
        .lines()
        .filter(|l| l.starts_with("  seat 3 ") || l.starts_with("  三番 "))
        .collect();
    assert_eq!(lines.len(), 4, "{}", t.stdout);
    for l in lines {
        assert!(l.contains('—'), "{l}");
        assert!(
            !l.contains("0.00%") && !l.contains('[') && !l.ends_with('*'),
            "{l}"
        );
    }
}

fn ukishima() -> String {
    sangohana().replace("sangohana.fuda", "ukishima.fuda")
}

/// Each row of a section, checked against the two reports: `a` and `b` are each side's
/// count per deal, the difference is B − A inside its interval. Returns the rows.
fn per_deal_rows<'v>(
    v: &'v Value,
    rows: &'v Value,
    count: impl Fn(&Value, &str) -> f64,
) -> &'v [Value] {
    let rows = rows.as_array().expect("rows");
    for row in rows {
        let name = row["name"].as_str().expect("a name");
        for side in ["a", "b"] {
            let deals = v[side]["deals"].as_f64().expect("deals");
            let want = count(&v[side], name) / deals;
            let got = row[side].as_f64().expect("a number");
            assert!((got - want).abs() < 1e-5, "{side}: {row}");
        }
        let (a, b) = (row["a"].as_f64().unwrap(), row["b"].as_f64().unwrap());
        let d = &row["difference"];
        let (m, lo, hi) = (
            d["mean"].as_f64().unwrap(),
            d["low"].as_f64().unwrap(),
            d["high"].as_f64().unwrap(),
        );
        assert!((m - (b - a)).abs() < 1e-5, "{row}");
        assert!(lo <= m && m <= hi, "{row}");
        // A difference between two rulesets varies from game to game: its paired
        // interval has width. A zero-width one means the games were not paired by the
        // row's own counts (a wrong per-game count gives exactly that).
        if (b - a).abs() > 1e-9 {
            assert!(hi - lo > 1e-9, "a difference without spread: {row}");
        }
    }
    rows
}

/// 珊瑚花's bonus rows (福上がり, 福当たり) are compared per deal as yaku rows are: the
/// strict variant ends fewer deals in a win, so fewer get a bonus; against itself,
/// every bonus differs by exactly 0 [0, 0], and every bonus row is shown.
#[test]
fn bonus_rows_are_compared() {
    let args = |b: &str| {
        vec![
            "compare".to_string(),
            sangohana(),
            b.to_string(),
            "--games".into(),
            "100".into(),
            "--set".into(),
            "deals=2".into(),
            "--agents".into(),
            "eager".into(),
        ]
    };
    let run = |b: &str, json: bool| {
        let mut a = args(b);
        if json {
            a.push("--json".into());
        }
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let r = fuda(&a);
        assert_eq!(r.code, 0, "{}", r.all());
        r.stdout
    };
    let v = without_timing(&run(&strict(), true));
    let count = |report: &Value, name: &str| {
        report["bonuses"]
            .as_array()
            .expect("bonuses")
            .iter()
            .find(|b| b["name"] == name)
            .map_or(0.0, |b| b["count"].as_f64().expect("count"))
    };
    let rows = per_deal_rows(&v, &v["difference"]["bonuses"], count);
    let names: Vec<&str> = rows.iter().filter_map(|r| r["name"].as_str()).collect();
    assert_eq!(names, ["福当たり", "福上がり"], "{rows:?}");

    let v = without_timing(&run(&sangohana(), true));
    let rows = per_deal_rows(&v, &v["difference"]["bonuses"], count);
    assert_eq!(rows.len(), 2, "{rows:?}");
    for row in rows {
        let d = &row["difference"];
        assert_eq!(
            (&d["mean"], &d["low"], &d["high"]),
            (&0.0.into(), &0.0.into(), &0.0.into()),
            "{row}"
        );
        assert_eq!(d["n"], 100, "{row}");
    }
    let t = run(&sangohana(), false);
    let section = t
        .split("\nbonuses (per deal) ")
        .nth(1)
        .unwrap_or_else(|| panic!("a bonuses section: {t}"));
    let line = section
        .lines()
        .find(|l| l.trim_start().starts_with("福当たり"))
        .unwrap_or_else(|| panic!("a line for 福当たり: {t}"));
    assert!(line.ends_with("+0.0000 [ +0.0000,  +0.0000]"), "{line}");
}

/// What a ruleset `tally`s is compared per deal, value by value (浮島 tallies the
/// 浮き札's number each deal): against itself every value differs by 0 [0, 0], and
/// against a variant each side's count per deal is its own report's.
#[test]
fn tallies_are_compared() {
    let no_subtraction = sangohana().replace("sangohana.fuda", "ukishima-no-subtraction.fuda");
    let run = |b: &str, json: bool| {
        let mut args = vec![
            "compare",
            &*ukishima(),
            b,
            "--games",
            "20",
            "--agents",
            "random",
        ]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
        if json {
            args.push("--json".into());
        }
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = fuda(&a);
        assert_eq!(r.code, 0, "{}", r.all());
        r.stdout
    };
    let count = |report: &Value, value: &str| {
        let t = report["tallies"]
            .as_array()
            .expect("tallies")
            .iter()
            .find(|t| t["label"] == "浮き札")
            .expect("浮き札 tallied");
        t["values"]
            .as_array()
            .expect("values")
            .iter()
            .find(|v| v[0] == value)
            .map_or(0.0, |v| v[1].as_f64().expect("a count"))
    };
    for b in [ukishima(), no_subtraction] {
        let v = without_timing(&run(&b, true));
        let tallies = v["difference"]["tallies"].as_array().expect("tallies");
        assert_eq!(tallies.len(), 1, "{tallies:?}");
        assert_eq!(tallies[0]["label"], "浮き札");
        let rows = per_deal_rows(&v, &tallies[0]["values"], count);
        // Every deal tallies one 浮き札, of 1 to 10.
        assert!(rows.len() >= 5 && rows.len() <= 10, "{rows:?}");
        let sum: f64 = rows.iter().filter_map(|r| r["a"].as_f64()).sum();
        assert!((sum - 1.0).abs() < 1e-4, "one per deal: {sum}");
        if b == ukishima() {
            for row in rows {
                let d = &row["difference"];
                assert_eq!(
                    (&d["mean"], &d["low"], &d["high"]),
                    (&0.0.into(), &0.0.into(), &0.0.into()),
                    "{row}"
                );
                assert_eq!(d["n"], 20, "{row}");
            }
        }
    }
    let t = run(&ukishima(), false);
    let section = t
        .split("\ntally 浮き札 (per deal) ")
        .nth(1)
        .unwrap_or_else(|| panic!("a tally section: {t}"));
    let lines: Vec<&str> = section
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    assert!(lines.len() >= 5, "{t}");
    for l in lines {
        assert!(l.ends_with("+0.0000 [ +0.0000,  +0.0000]"), "{l}");
    }
    assert!(
        section.contains("\ndecisions "),
        "tallies come before decisions: {t}"
    );
}
