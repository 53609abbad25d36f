//! End to end: `fuda simulate` and `fuda compare` rotate different agents over the
//! seats (or keep them, with `--seating fixed`), report each agent's numbers, and leave
//! the reports of one-agent runs exactly as they were before seating existed.

mod common;

use common::{fuda, sangohana, untimed_text, without_timing};
use serde_json::Value;

fn strict() -> String {
    sangohana().replace("sangohana.fuda", "sangohana-strict.fuda")
}

fn ukishima() -> String {
    sangohana().replace("sangohana.fuda", "ukishima.fuda")
}

/// A report kept in `tests/golden/`, written by `fuda` at commit eb969fe, before agents
/// could rotate.
fn golden(name: &str) -> String {
    let path = format!("{}/tests/golden/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Runs `fuda` and expects it to finish cleanly.
fn ok(args: &[&str]) -> String {
    let r = fuda(args);
    assert_eq!(r.code, 0, "{args:?}: {}", r.all());
    r.stdout
}

/// Greedy against two random players, 30 games of 珊瑚花 (`s`): the strongest agent
/// against the weakest, so that whose seat is whose shows plainly.
fn mixed_args(s: &str) -> Vec<&str> {
    vec![
        "simulate",
        s,
        "--games",
        "30",
        "--seed",
        "5",
        "--set",
        "deals=2",
        "--agents",
        "greedy,random,random",
    ]
}

/// [`mixed_args`] with `--seating` and `--threads`, as JSON.
fn mixed(seating: &str, threads: &str) -> Value {
    let s = sangohana();
    let mut args = mixed_args(&s);
    args.extend(["--seating", seating, "--threads", threads, "--json"]);
    without_timing(&ok(&args))
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("a number: {v}"))
}

/// Runs with one agent at every seat print, number for number and line for line, what
/// they printed before: rotating one agent moves nobody, and the agents' seeds belong
/// to the seats.
#[test]
fn one_agent_reports_are_unchanged() {
    let (s, u) = (sangohana(), ukishima());
    let runs: [(&str, Vec<&str>); 2] = [
        (
            "simulate-random",
            vec![
                "simulate", &s, "--games", "60", "--seed", "11", "--set", "deals=2", "--agents",
                "random",
            ],
        ),
        (
            "simulate-ukishima",
            vec![
                "simulate", &u, "--games", "12", "--seed", "3", "--set", "rounds=1",
            ],
        ),
    ];
    for (name, args) in runs {
        assert_eq!(
            untimed_text(&ok(&args)),
            golden(&format!("{name}.txt")),
            "{name}"
        );
        let json = without_timing(&ok(&[&args[..], &["--json"]].concat()));
        let before: Value =
            serde_json::from_str(&golden(&format!("{name}.json"))).expect("golden JSON");
        assert_eq!(json, before, "{name}");
    }
    let b = strict();
    let args = [
        "compare", &s, &b, "--games", "40", "--seed", "11", "--set", "deals=2", "--agents", "eager",
    ];
    let text = golden("compare-eager.txt")
        .replace("{A}", &s)
        .replace("{B}", &b);
    assert_eq!(untimed_text(&ok(&args)), text);
    let json = without_timing(&ok(&[&args[..], &["--json"]].concat()));
    let before: Value = serde_json::from_str(&golden("compare-eager.json")).expect("JSON");
    assert_eq!(json, before);
}

/// `--seating fixed` seats different agents as they always were: every number of the
/// old report is still there, with the agent rows and the seating added.
#[test]
fn fixed_seating_plays_the_old_games() {
    let s = sangohana();
    let out = ok(&[
        "simulate",
        &s,
        "--games",
        "60",
        "--seed",
        "11",
        "--set",
        "deals=2",
        "--agents",
        "greedy,random",
        "--players",
        "4",
        "--seating",
        "fixed",
        "--json",
    ]);
    let now = without_timing(&out);
    let before: Value =
        serde_json::from_str(&golden("simulate-mixed-before.json")).expect("golden JSON");
    for (k, v) in before.as_object().expect("an object") {
        assert_eq!(&now[k], v, "`{k}`");
    }
    assert_eq!(now["seating"], "fixed");
    assert_eq!(now["by_agent"].as_array().map(Vec::len), Some(2));
}

/// Rotating, each agent sits at each seat equally often (30 games over 3 seats: 10 at
/// each, once per seat it holds), and the seats stop carrying greedy's strength: kept
/// at seat 0, greedy makes that seat win many times what the others do.
#[test]
fn rotation_seats_each_agent_at_each_seat_equally_often() {
    let rotated = mixed("rotate", "2");
    assert_eq!(
        rotated["seating"], "rotate",
        "rotation is the default's name"
    );
    let agents = rotated["by_agent"].as_array().expect("agent rows");
    let held: Vec<(&str, u64, Vec<u64>)> = agents
        .iter()
        .map(|a| {
            let games = a["seat_games"].as_array().expect("seat games");
            (
                a["agent"].as_str().expect("a name"),
                a["seats"].as_u64().expect("seats held"),
                games.iter().filter_map(Value::as_u64).collect(),
            )
        })
        .collect();
    assert_eq!(
        held,
        [
            ("greedy", 1, vec![10, 10, 10]),
            ("random", 2, vec![20, 20, 20])
        ]
    );
    let fixed = mixed("fixed", "2");
    let fixed_games: Vec<&Value> = fixed["by_agent"]
        .as_array()
        .expect("agent rows")
        .iter()
        .map(|a| &a["seat_games"])
        .collect();
    assert_eq!(
        fixed_games,
        [
            &serde_json::json!([30, 0, 0]),
            &serde_json::json!([0, 30, 30])
        ]
    );

    let seat_rates = |v: &Value| -> Vec<f64> {
        let seats = v["seats"].as_array().expect("seats");
        seats.iter().map(|s| f(&s["win_rate"]["mean"])).collect()
    };
    let (fixed_rates, rotated_rates) = (seat_rates(&fixed), seat_rates(&rotated));
    assert!(
        fixed_rates[0] > 5.0 * fixed_rates[1].max(fixed_rates[2]),
        "fixed: seat 0 is greedy's: {fixed_rates:?}"
    );
    let (lo, hi) = rotated_rates
        .iter()
        .fold((1.0f64, 0.0f64), |(lo, hi), x| (lo.min(*x), hi.max(*x)));
    assert!(
        hi < 2.0 * lo,
        "rotated: no seat is greedy's: {rotated_rates:?}"
    );
    assert!(
        rotated["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .all(|s| s["agent"].is_null()),
        "a rotated seat has no agent of its own: {}",
        rotated["seats"]
    );
    // Greedy still beats random, now at every seat in turn.
    assert!(f(&agents[0]["win_rate"]["low"]) > f(&agents[1]["win_rate"]["high"]));
}

/// The agent rows are the seat rows regrouped: an agent's win rate is per seat held,
/// so weighted by the seats each agent holds they add up to the seats' win rates, and
/// its chips likewise add up to the seats' chips (zero: the chips only change hands).
#[test]
fn agent_rows_add_up_to_the_seat_rows() {
    let v = mixed("rotate", "1");
    let seats = v["seats"].as_array().expect("seats");
    let agents = v["by_agent"].as_array().expect("agent rows");
    let sum_seats = |k: &str| seats.iter().map(|s| f(&s[k]["mean"])).sum::<f64>();
    let sum_agents = |k: &str| {
        agents
            .iter()
            .map(|a| f(&a["seats"]) * f(&a[k]["mean"]))
            .sum::<f64>()
    };
    assert!(
        (sum_seats("win_rate") - sum_agents("win_rate")).abs() < 1e-5,
        "{seats:?} {agents:?}"
    );
    assert!((sum_seats("chips") - sum_agents("chips")).abs() < 1e-5);
    assert!(sum_agents("chips").abs() < 1e-5, "zero-sum: {agents:?}");
    // A win rate is a share of the deals at the agent's seats; chips count once a game.
    let deals = f(&v["deals"]);
    for a in agents {
        assert_eq!(f(&a["win_rate"]["n"]), deals * f(&a["seats"]), "{a}");
        assert_eq!(a["chips"]["n"], v["games"], "{a}");
        let (lo, m, hi) = (
            f(&a["win_rate"]["low"]),
            f(&a["win_rate"]["mean"]),
            f(&a["win_rate"]["high"]),
        );
        assert!(lo <= m && m <= hi, "{a}");
    }

    // The text has the same rows, under the line that says how the agents sat.
    let s = sangohana();
    let text = ok(&mixed_args(&s));
    assert!(
        text.contains("agents greedy,random,random rotated over the seats"),
        "{text}"
    );
    let rows: Vec<Vec<&str>> = text
        .split("\nagents ")
        .nth(2)
        .unwrap_or_else(|| panic!("an agents section: {text}"))
        .lines()
        .take(3)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows[0][..2], ["seats", "win"], "{text}");
    let greedy = &agents[0]["win_rate"];
    let percent = format!("{:.2}%", 100.0 * f(&greedy["mean"]));
    assert_eq!(rows[1][..3], ["greedy", "1", percent.as_str()], "{text}");
    assert_eq!(rows[2][..2], ["random", "2"], "{text}");
    assert!(text.contains("  0     rotated "), "{text}");
}

/// Rotation depends on the game's number alone: the same seed gives the same report on
/// one thread and on two.
#[test]
fn mixed_agents_give_the_same_report_on_any_thread_count() {
    assert_eq!(mixed("rotate", "1"), mixed("rotate", "2"));
    assert_ne!(
        mixed("rotate", "1")["by_agent"],
        mixed("fixed", "1")["by_agent"],
        "rotation changes who plays where"
    );
}

/// `fuda compare` seats both sides alike and compares each agent's numbers too, paired
/// game by game: a ruleset against itself differs by nothing, agents included.
#[test]
fn compare_pairs_agent_rows() {
    let s = sangohana();
    let run = |b: &str| {
        let out = ok(&[
            "compare",
            &s,
            b,
            "--games",
            "20",
            "--set",
            "deals=2",
            "--agents",
            "greedy,random",
            "--json",
        ]);
        without_timing(&out)
    };
    let v = run(&s);
    let d = &v["difference"];
    for section in ["agent_win_rate", "agent_chips"] {
        let rows = d[section].as_array().expect("agent rows");
        let names: Vec<&str> = rows.iter().filter_map(|r| r["name"].as_str()).collect();
        assert_eq!(names, ["greedy", "random"], "{section}");
        for r in rows {
            let diff = &r["difference"];
            assert_eq!((f(&diff["low"]), f(&diff["high"])), (0.0, 0.0), "{r}");
            assert_eq!(diff["n"], 20, "{r}");
        }
    }
    assert_eq!(v["a"]["seating"], "rotate");
    let b = strict();
    let v = run(&b);
    let row = &v["difference"]["agent_win_rate"][0];
    let a_greedy = f(&v["a"]["by_agent"][0]["win_rate"]["mean"]);
    let b_greedy = f(&v["b"]["by_agent"][0]["win_rate"]["mean"]);
    assert_eq!((f(&row["a"]), f(&row["b"])), (a_greedy, b_greedy), "{row}");
    assert!((f(&row["difference"]["mean"]) - (b_greedy - a_greedy)).abs() < 1e-5);

    let text = ok(&[
        "compare",
        &s,
        &b,
        "--games",
        "6",
        "--set",
        "deals=1",
        "--agents",
        "greedy,random",
    ]);
    for part in [
        "agents greedy,random,greedy rotated over the seats;",
        "agents: win rate (per seat held)",
        "agents: final chips (per seat held)",
    ] {
        assert!(text.contains(part), "`{part}` in {text}");
    }
    // A side with fewer seats may seat one agent only: it still has that agent's
    // numbers to compare, though it shows no agent rows of its own.
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("sangohana.fuda"),
        std::fs::read_to_string(&s).expect("read"),
    )
    .expect("write");
    let two = common::rule_file(
        dir.path(),
        "two.fuda",
        "ruleset \"珊瑚花 二人\"\nextends \"sangohana.fuda\"\nparam players: int = 2 in 2..4 \"two\"\n",
    );
    let out = ok(&[
        "compare",
        &s,
        &two,
        "--games",
        "6",
        "--set",
        "deals=1",
        "--agents",
        "random,random,greedy",
        "--json",
    ]);
    let v = without_timing(&out);
    assert!(v["b"].get("by_agent").is_none(), "{}", v["b"]);
    let random = &v["difference"]["agent_win_rate"][0];
    assert_eq!(random["name"], "random");
    // B seats random twice: its rate is the two seats' mean.
    let seat = |i: usize| f(&v["b"]["seats"][i]["win_rate"]["mean"]);
    let both = (seat(0) + seat(1)) / 2.0;
    assert!((f(&random["b"]) - both).abs() < 1e-5, "{random}");
    assert!(random["difference"]["low"].is_number(), "{random}");
    let greedy = &v["difference"]["agent_win_rate"][1];
    assert!(
        greedy["b"].is_null() && greedy["difference"].is_null(),
        "{greedy}"
    );

    // One agent: no agent rows, in text or JSON (the golden reports check the rest).
    let one = ok(&[
        "compare", &s, &b, "--games", "2", "--set", "deals=1", "--agents", "random",
    ]);
    assert!(
        !one.contains("agents:") && !one.contains("rotated"),
        "{one}"
    );
}

/// `--seating` takes `rotate` or `fixed`; anything else is a usage error that lists
/// both.
#[test]
fn seating_takes_rotate_or_fixed() {
    let s = sangohana();
    let r = fuda(&["simulate", &s, "--games", "1", "--seating", "shuffle"]);
    assert_eq!(r.code, 2, "{}", r.all());
    assert!(
        r.stderr.contains("rotate") && r.stderr.contains("fixed"),
        "{}",
        r.stderr
    );
    let r = fuda(&["simulate", "--help"]);
    assert!(r.stdout.contains("--seating"), "{}", r.stdout);
}
