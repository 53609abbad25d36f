//! What `fuda simulate` keeps of a `tally`: a value unique to every deal does not grow
//! the report without bound.

mod common;

use common::{fuda, rule_file};

/// `fuda simulate FILE ARGS --json`'s report (the run must succeed).
fn simulate(file: &str, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["simulate", file, "--json"];
    all.extend_from_slice(args);
    let r = fuda(&all);
    assert_eq!(r.code, 0, "{}", r.all());
    serde_json::from_str(&r.stdout).expect("json")
}

/// Each deal tallies its own number: past 1,000 distinct values, the rest are counted
/// together, and every tally is still counted once. The values kept are the 1,000
/// smallest in text order, whatever order they came in (so that shards of a batch
/// keep the same ones).
#[test]
fn a_value_unique_to_each_deal_is_counted_in_a_bounded_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = rule_file(
        dir.path(),
        "unique.fuda",
        "ruleset \"unique\"\nimport \"std/hanafuda\"\nseats 2 { 2: a b }\n\
         zone z shared pile public\nvar k: int = 0\n\
         proc match { repeat 300 { k += 1\n tally 番号 k\n\
         choose 0 { move x { } move y { } }\n outcome \"x\" } }\n",
    );
    let json = simulate(&file, &["--games", "5", "--threads", "1"]);
    let values = json["tallies"][0]["values"].as_array().expect("values");
    // 300 values a game, the same in every game: all 300 fit.
    assert_eq!(values.len(), 300);

    // 1,200 distinct values in one game: the 1,000 smallest as text ("1", "10", "100",
    // "1000", … "818") are kept, the rest counted together.
    let file = rule_file(
        dir.path(),
        "unique2.fuda",
        "ruleset \"unique\"\nimport \"std/hanafuda\"\nseats 2 { 2: a b }\n\
         zone z shared pile public\nvar k: int = 0\n\
         proc match { repeat 1200 { k += 1\n tally 番号 k\n\
         choose 0 { move x { } move y { } }\n outcome \"x\" } }\n",
    );
    let json = simulate(&file, &["--games", "2", "--threads", "1"]);
    let values = json["tallies"][0]["values"].as_array().expect("values");
    assert_eq!(values.len(), 1_001, "1,000 values and the others");
    let other = values
        .iter()
        .find(|v| v[0] == "(other values)")
        .expect("the others' row");
    assert_eq!(other[1], 2 * 200);
    let kept = |v: &str| values.iter().any(|x| x[0] == v);
    assert!(kept("1000") && kept("818") && kept("80"), "{values:?}");
    assert!(!kept("819") && !kept("99"), "{values:?}");
    let counted: u64 = values.iter().map(|v| v[1].as_u64().expect("count")).sum();
    assert_eq!(counted, 2 * 1_200, "every tally counted once");
}

/// A value tallied for a seat (`tally … for SEAT`) is counted under its label and the
/// agent in that seat, wherever the agents are rotated to: here each seat tallies its
/// own agent's mark, so every row under an agent's label is that agent's.
#[test]
fn a_value_tallied_for_a_seat_is_counted_under_its_agent() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = rule_file(
        dir.path(),
        "seats.fuda",
        "ruleset \"seats\"\nimport \"std/hanafuda\"\nseats 3 { 3: a b c }\n\
         zone z shared pile public\n\
         proc match { repeat 4 {\n for x in seats() { tally 席 x for x }\n\
         choose 0 { move x { } move y { } }\n outcome \"x\" } }\n",
    );
    let json = simulate(
        &file,
        &[
            "--games",
            "6",
            "--threads",
            "1",
            "--agents",
            "greedy,random,random",
        ],
    );
    let tallies = json["tallies"].as_array().expect("tallies");
    let counted = |label: &str| -> Vec<(String, u64)> {
        let t = tallies
            .iter()
            .find(|t| t["label"] == label)
            .unwrap_or_else(|| panic!("no tally {label}: {tallies:?}"));
        t["values"]
            .as_array()
            .expect("values")
            .iter()
            .map(|v| {
                (
                    v[0].as_str().expect("value").to_string(),
                    v[1].as_u64().expect("count"),
                )
            })
            .collect()
    };
    // Six games of four deals: greedy's seat moves round the table game by game (two
    // games in each seat), random holds the other two seats.
    let greedy = counted("席 (greedy)");
    let random = counted("席 (random)");
    assert_eq!(greedy.iter().map(|v| v.1).sum::<u64>(), 24, "{greedy:?}");
    assert_eq!(random.iter().map(|v| v.1).sum::<u64>(), 48, "{random:?}");
    assert_eq!(greedy.len(), 3, "greedy sat in every seat: {greedy:?}");
}
