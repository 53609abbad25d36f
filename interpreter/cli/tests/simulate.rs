//! End to end: `fuda simulate` is deterministic across thread counts and checks its
//! options.

mod common;

use common::{fuda, sangohana, without_timing};
use serde_json::Value;

/// `fuda simulate` of 珊瑚花 with `args`, as JSON without its timings (it must succeed).
fn sangohana_report(args: &[&str]) -> Value {
    let file = sangohana();
    let mut all = vec!["simulate", file.as_str(), "--json"];
    all.extend_from_slice(args);
    let r = fuda(&all);
    assert_eq!(r.code, 0, "{}", r.all());
    without_timing(&r.stdout)
}

#[test]
fn runs_of_games_added_up_apart_give_the_numbers_of_games_added_one_by_one() {
    // Each worker adds a run of games to sums of its own (600 games: runs of 9 games on
    // one thread, 4 on two, 3 on three, 1 on ten), merged in game order: the report is
    // the same whatever the runs.
    let run = |threads: &str| {
        sangohana_report(&[
            "--games",
            "600",
            "--seed",
            "11",
            "--set",
            "deals=1",
            "--agents",
            "eager,random",
            "--threads",
            threads,
        ])
    };
    let one = run("1");
    assert_eq!(one["games"], 600);
    for threads in ["2", "3", "10"] {
        assert_eq!(one, run(threads), "{threads} threads");
    }
}

#[test]
fn same_numbers_for_any_thread_count() {
    // Two deals per game keep the debug-build run short.
    let run = |threads: &str| {
        sangohana_report(&[
            "--games",
            "50",
            "--seed",
            "7",
            "--set",
            "deals=2",
            "--threads",
            threads,
        ])
    };
    let one = run("1");
    let two = run("2");
    assert_eq!(one, two);
    assert_eq!(one["games"], 50);
    assert_eq!(one["deals"], 100);
    assert_eq!(one["failed"], 0);
    let shares: f64 = one["outcomes"]
        .as_array()
        .expect("outcomes")
        .iter()
        .filter_map(|o| o["percent"].as_f64())
        .sum();
    assert!(
        (shares - 100.0).abs() < 1e-3,
        "outcome shares add up: {shares}"
    );
    assert_eq!(one["seats"].as_array().map(Vec::len), Some(3));
    let chips: f64 = one["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .filter_map(|s| s["chips"]["mean"].as_f64())
        .sum();
    assert!(
        chips.abs() < 1e-3,
        "chips are zero-sum once the pot is shared out: {chips}"
    );
    // Per role, chips per deal: every deal counts once for each role, and the roles'
    // means add up to zero too (what goes into the pot comes out by the match's end).
    let roles = one["roles"].as_array().expect("roles");
    assert_eq!(
        roles.iter().map(|r| r["role"].clone()).collect::<Vec<_>>(),
        ["親", "胴二", "ビキ"]
    );
    let mut per_deal = 0.0;
    for r in roles {
        let c = &r["chips_per_deal"];
        assert_eq!(c["n"], 100, "{r}");
        let (mean, low, high) = (c["mean"].as_f64(), c["low"].as_f64(), c["high"].as_f64());
        let (mean, low, high) = (mean.expect("mean"), low.expect("low"), high.expect("high"));
        assert!(low <= mean && mean <= high, "{r}");
        per_deal += mean;
    }
    assert!(per_deal.abs() < 1e-3, "roles' chips add up: {per_deal}");
}

#[test]
fn human_report_and_options() {
    let r = fuda(&[
        "simulate",
        &sangohana(),
        "--games",
        "4",
        "--set",
        "deals=1",
        "--players",
        "4",
        "--agents",
        "greedy,random",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.stdout.contains("4 games, 4 deals"), "{}", r.stdout);
    assert!(r.stdout.contains("4 players"), "{}", r.stdout);
    assert!(
        r.stdout.contains("random") && r.stdout.contains("win rate"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("chips per deal (95%)"), "{}", r.stdout);
    let dealer_line = r
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("親 "))
        .unwrap_or_else(|| panic!("a line for the dealer's role: {}", r.stdout));
    assert_eq!(
        dealer_line.matches('[').count(),
        2,
        "win rate and chips, each with an interval: {dealer_line}"
    );

    let r = fuda(&["simulate", &sangohana(), "--games", "1", "--players", "9"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("must be in 2..4"), "{}", r.stderr);

    let r = fuda(&[
        "simulate",
        &sangohana(),
        "--games",
        "1",
        "--agents",
        "greedy,grredy",
    ]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("did you mean `greedy`?"), "{}", r.stderr);

    let r = fuda(&["simulate", &sangohana(), "--games", "1", "--set", "deals=x"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("whole number"), "{}", r.stderr);

    // No games would be an empty report that looks like a result.
    let r = fuda(&["simulate", &sangohana(), "--games", "0"]);
    assert_eq!(r.code, 2, "{}", r.all());
    assert!(r.stderr.contains("must be at least 1"), "{}", r.stderr);
    let r = fuda(&["simulate", &sangohana(), "--threads", "0"]);
    assert_eq!(r.code, 2, "{}", r.all());
    assert!(r.stderr.contains("must be at least 1"), "{}", r.stderr);
}

fn ukishima() -> String {
    sangohana().replace("sangohana.fuda", "ukishima.fuda")
}

/// 珊瑚花's timing bonuses (its `plus` stage) are counted by row, at their own values:
/// they are neither yaku rows nor results of their own.
#[test]
fn bonus_rows_are_counted() {
    let args = [
        "simulate",
        &sangohana(),
        "--games",
        "100",
        "--set",
        "deals=2",
        "--agents",
        "eager",
    ];
    let r = fuda(&[&args[..], &["--json"]].concat());
    assert_eq!(r.code, 0, "{}", r.all());
    let v = without_timing(&r.stdout);
    let deals = v["deals"].as_f64().expect("deals");
    let bonuses = v["bonuses"].as_array().expect("bonuses");
    let names: Vec<&str> = bonuses.iter().filter_map(|b| b["name"].as_str()).collect();
    assert_eq!(
        names,
        ["福当たり", "福上がり"],
        "most frequent first: {bonuses:?}"
    );
    for b in bonuses {
        let count = b["count"].as_f64().expect("count");
        let per_deal = b["per_deal"].as_f64().expect("per deal");
        assert!((per_deal - count / deals).abs() < 1e-6, "{b}");
    }
    // What a bonus adds is its row's value (福当たり: 12 or 10), not the result's total.
    assert_eq!(bonuses[1]["mean_value"], 15.0);
    let ron = bonuses[0]["mean_value"].as_f64().expect("mean value");
    assert!((10.0..=12.0).contains(&ron), "{ron}");
    let yaku = v["yaku"].as_array().expect("yaku");
    assert!(
        yaku.iter()
            .all(|y| !y["name"].as_str().unwrap_or("").starts_with('福')),
        "bonuses are not yaku: {yaku:?}"
    );

    let r = fuda(&args);
    assert_eq!(r.code, 0, "{}", r.all());
    let section = r
        .stdout
        .split("\nbonuses ")
        .nth(1)
        .unwrap_or_else(|| panic!("a bonuses section: {}", r.stdout));
    let rows: Vec<Vec<&str>> = section
        .lines()
        .take(3)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows[0], ["per", "deal", "mean", "value"], "{}", r.stdout);
    assert_eq!(rows[1][0], "福当たり", "{}", r.stdout);
    assert_eq!(rows[2], ["福上がり", "0.0100", "15.00"], "{}", r.stdout);

    // A ruleset without bonuses has no such section, and an empty list in JSON.
    let r = fuda(&[
        "simulate",
        &ukishima(),
        "--games",
        "2",
        "--agents",
        "random",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(!r.stdout.contains("bonuses"), "{}", r.stdout);
    let r = fuda(&[
        "simulate",
        &ukishima(),
        "--games",
        "2",
        "--agents",
        "random",
        "--json",
    ]);
    assert_eq!(without_timing(&r.stdout)["bonuses"], Value::Array(vec![]));
}

/// Options that contradict each other, or that would be half ignored, are refused
/// before any game is played.
#[test]
fn conflicting_or_malformed_options_are_errors() {
    let refused = |args: &[&str], says: &str| {
        let mut all = vec!["simulate", "--games", "1"];
        all.extend(args);
        let r = fuda(&all);
        assert_eq!(r.code, 1, "{args:?}: {}", r.all());
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{}", r.stdout);
    };
    let s = sangohana();
    refused(
        &[&s, "--agents", "greedy,random,eager,random,greedy"],
        "names 5 agents, but `珊瑚花 Sangohana` has 3 seats",
    );
    refused(&[&s, "--agents", "greedy,,random"], "has an empty name");
    refused(&[&s, "--agents", "greedy,"], "has an empty name");
    refused(
        &[&s, "--set", "players=4", "--players", "2"],
        "both set the number of players",
    );
    refused(
        &[&s, "--set", "deals=1", "--set", "deals=2"],
        "`deals` is set twice",
    );
    let u = ukishima();
    refused(&[&u, "--players", "2"], "is played by 3 players, not 2");
    refused(&[&u, "--set", "減算=yes"], "`減算` is true or false");

    // Four agents for four seats, and ukishima's own seat count, are fine.
    let r = fuda(&[
        "simulate",
        &s,
        "--games",
        "1",
        "--set",
        "deals=1",
        "--players",
        "4",
        "--agents",
        "greedy,random,eager,random",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    let r = fuda(&[
        "simulate",
        &u,
        "--games",
        "1",
        "--set",
        "rounds=1",
        "--players",
        "3",
        "--agents",
        "random",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.stdout.contains("3 players"), "{}", r.stdout);
}

/// A ruleset whose every game fails (here a round that never reaches `outcome`) stops
/// after the first games instead of failing a thousand of them one runaway at a time.
#[test]
fn a_ruleset_that_fails_every_game_stops_early() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("endless.fuda");
    std::fs::write(
        &file,
        "ruleset \"endless\"\nimport \"std/hanafuda\"\nseats 2 { 2: A B }\n\
         zone 山 shared stack hidden\n\
         proc match { loop { choose 0 { move a { } move b { } } } }\n",
    )
    .expect("written");
    let r = fuda(&[
        "simulate",
        file.to_str().expect("utf-8"),
        "--agents",
        "random",
        "--json",
    ]);
    assert_eq!(r.code, 1, "{}", r.all());
    let v = without_timing(&r.stdout);
    assert_eq!(v["games_requested"], 1000);
    assert_eq!(v["failed"], 16);
    assert_eq!(v["stopped"], true);
    assert!(
        r.stderr.contains("decisions without an outcome"),
        "{}",
        r.stderr
    );
    // A run whose first games finish plays every game.
    let r = fuda(&[
        "simulate",
        &sangohana(),
        "--games",
        "20",
        "--set",
        "deals=1",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(without_timing(&r.stdout)["stopped"], false);
}

/// With `--json`, an error that stops `simulate` or `compare` is JSON on stdout too.
#[test]
fn json_errors_are_json_too() {
    for args in [
        vec!["simulate", "no-such-file.fuda", "--json"],
        vec![
            "compare",
            "no-such-file.fuda",
            "no-such-file.fuda",
            "--json",
        ],
    ] {
        let r = fuda(&args);
        assert_eq!(r.code, 1, "{}", r.all());
        let v: Value = serde_json::from_str(r.stdout.trim())
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", r.stdout));
        assert!(
            v["error"]
                .as_str()
                .is_some_and(|m| m.contains("no-such-file.fuda")),
            "{v}"
        );
    }
}

/// A value outside a parameter's range is refused with a help line, whether or not the
/// parameter has a doc string (an empty one left the help blank).
#[test]
fn out_of_range_values_have_a_help_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("p.fuda");
    std::fs::write(
        &file,
        "ruleset \"p\"\nimport \"std/hanafuda\"\nparam n: int = 2 in 1..3\n\
         seats 2 { 2: A B }\nzone 山 shared stack hidden\nenum R: done\n\
         proc match { outcome done }\n",
    )
    .expect("written");
    let r = fuda(&["simulate", file.to_str().expect("utf-8"), "--set", "n=5"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr
            .contains("give a value from 1 to 3, or widen the range of `n`"),
        "{}",
        r.stderr
    );
}
