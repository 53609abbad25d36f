//! What `fuda simulate` keeps of a `tally`: a value unique to every deal does not grow
//! the report without bound.

mod common;

use common::{fuda, rule_file};

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
    let r = fuda(&[
        "simulate",
        &file,
        "--games",
        "5",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    let json: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
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
    let r = fuda(&[
        "simulate",
        &file,
        "--games",
        "2",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    let json: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
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
