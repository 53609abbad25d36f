//! End to end: `fuda score`, human and JSON, single hands and batches.

mod common;

use common::{fuda, rule_file, sangohana};
use serde_json::Value;

const AKA_GOKO: &str = "1-ribbon 2-ribbon 3-ribbon 1-crane 3-curtain 8-moon 11-rainman 12-phoenix";
const SUYAKU_PAIRS: &str =
    "4-cuckoo 5-bridge 6-butterflies 1-kasu-a 1-kasu-b 2-kasu-a 2-kasu-b 5-kasu-a";
const NO_YAKU: &str =
    "4-cuckoo 5-bridge 6-butterflies 1-kasu-a 2-kasu-a 3-kasu-a 4-kasu-a 5-kasu-a";

fn json(out: &str) -> Value {
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

#[test]
fn aka_goko_is_40() {
    let r = fuda(&["score", &sangohana(), "--hand", AKA_GOKO]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.stdout.contains("赤五光: 40"), "{}", r.stdout);
    assert!(
        r.stdout.contains("赤五光   40"),
        "the yaku line: {}",
        r.stdout
    );
    assert!(r.stdout.contains("× factor 2"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("each other player pays 40 (the winner receives 40×2 = 80"),
        "{}",
        r.stdout
    );

    let r = fuda(&["score", &sangohana(), "--hand", AKA_GOKO, "--json"]);
    assert_eq!(r.code, 0, "{}", r.all());
    let v = json(&r.stdout);
    assert_eq!(v["total"], 40);
    assert_eq!(v["name"], "赤五光");
    assert_eq!(v["factor"], 2);
    // Lines add up to the total: the multiplied yaku under its final name and value.
    assert_eq!(v["yaku"][0]["name"], "赤五光");
    assert_eq!(v["yaku"][0]["value"], 40);
    assert_eq!(v["base_yaku"][0]["name"], "上五光");
    // No bonus held: the list is there, empty.
    assert_eq!(v["bonuses"], Value::Array(vec![]));
    assert_eq!(v["hand"][0], "1-ribbon");
    assert_eq!(v["groups"]["三"].as_array().map(Vec::len), Some(3));
    assert_eq!(v["groups"]["五"].as_array().map(Vec::len), Some(5));
    assert_eq!(v["payments"]["each_other_pays"], 40);
}

#[test]
fn first_turn_tsumo_adds_after_doubling() {
    let r = fuda(&[
        "score",
        &sangohana(),
        "--hand",
        SUYAKU_PAIRS,
        "--set",
        "win=tsumo",
        "--set",
        "first_turn=true",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    let v = json(&r.stdout);
    assert_eq!(v["total"], 17);
    assert_eq!(v["name"], "素役の2倍付け");
    let names: Vec<&str> = v["yaku"]
        .as_array()
        .expect("yaku")
        .iter()
        .filter_map(|y| y["name"].as_str())
        .collect();
    assert_eq!(names, ["素役の2倍付け", "福上がり"]);
    let values: Vec<i64> = v["yaku"]
        .as_array()
        .expect("yaku")
        .iter()
        .filter_map(|y| y["value"].as_i64())
        .collect();
    assert_eq!(values, [2, 15]);
    // The bonus row on its own, at its value, beside the yaku row it was added to.
    assert_eq!(
        v["bonuses"],
        serde_json::json!([{"name": "福上がり", "value": 15}])
    );
    assert_eq!(
        v["base_yaku"],
        serde_json::json!([{"name": "素役", "value": 1}])
    );
    // The Japanese name works as well as the ASCII alias.
    let r = fuda(&[
        "score",
        &sangohana(),
        "--hand",
        SUYAKU_PAIRS,
        "--set",
        "win=上がり",
        "--set",
        "first_turn=true",
    ]);
    assert!(r.stdout.contains(": 17"), "{}", r.all());
}

#[test]
fn no_yaku_is_total_zero() {
    let r = fuda(&["score", &sangohana(), "--hand", NO_YAKU, "--json"]);
    assert_eq!(r.code, 0, "{}", r.all());
    let v = json(&r.stdout);
    assert_eq!(v["total"], 0);
    assert_eq!(v["yaku"], Value::Array(vec![]));
    let r = fuda(&["score", &sangohana(), "--hand", NO_YAKU]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("no yaku: total 0"), "{}", r.stdout);
}

#[test]
fn malformed_hands_are_errors() {
    let seven = "4-cuckoo 5-bridge 6-butterflies 1-kasu-a 1-kasu-b 2-kasu-a 2-kasu-b";
    let r = fuda(&["score", &sangohana(), "--hand", seven]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("a 珊瑚花 hand has 8 cards, got 7")
            && r.stderr
                .contains("help: list every card of the hand: 8 ids"),
        "{}",
        r.stderr
    );

    let r = fuda(&[
        "score",
        &sangohana(),
        "--hand",
        "1-ribbon 2-ribbon 3-ribbon 1-cran 3-curtain 8-moon 11-rainman 12-phoenix",
    ]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("`1-cran`") && r.stderr.contains("did you mean `1-crane`?"),
        "{}",
        r.stderr
    );

    let r = fuda(&[
        "score",
        &sangohana(),
        "--hand",
        "1-crane 1-crane 3-ribbon 1-ribbon 3-curtain 8-moon 11-rainman 12-phoenix",
    ]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("`1-crane` is given more often than the deck holds it (once)"),
        "{}",
        r.stderr
    );

    // In compact notation, the tile that ran out is named, with the deck's copies.
    let dir = tempfile::tempdir().expect("temp dir");
    let tiles = common::rule_file(
        dir.path(),
        "tiles.fuda",
        "ruleset \"tiles\"\nimport \"std/mahjong\"\nimport \"std/mahjong-shapes\"\n\
         seats 2 { 2: a b }\nzone z shared pile public\nproc match { }\n\
         score 和了(hand: cards) { yaku all { 和了 1 when 一般形(hand) } }\n",
    );
    let r = fuda(&["score", &tiles, "--hand", "11111m23456789p"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr
            .contains("`11111m23456789p` gives `1m` more often than the deck holds it (4 copies)"),
        "{}",
        r.stderr
    );

    let r = fuda(&[
        "score",
        &sangohana(),
        "--hand",
        AKA_GOKO,
        "--set",
        "wim=tsumo",
    ]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("did you mean `win`?"), "{}", r.stderr);

    let r = fuda(&[
        "score",
        &sangohana(),
        "--hand",
        AKA_GOKO,
        "--set",
        "win=tsum",
    ]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("did you mean `tsumo`?"), "{}", r.stderr);

    let r = fuda(&["score", &sangohana(), "--hand", AKA_GOKO, "--table", "役台"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("did you mean `役代`?"), "{}", r.stderr);
    assert!(!r.all().contains("panicked"));
}

#[test]
fn batch_scores_each_line_and_reports_bad_ones() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("hands.jsonl");
    let lines = [
        format!("{{\"hand\": \"{AKA_GOKO}\"}}"),
        format!(
            "{{\"hand\": {:?}, \"win\": \"tsumo\", \"first_turn\": true}}",
            SUYAKU_PAIRS.split(' ').collect::<Vec<_>>()
        ),
        String::new(),
        "{\"hand\": \"1-crane\"}".to_string(),
        format!("{{\"hand\": \"{NO_YAKU}\", \"win\": \"ron\"}}"),
        "not json".to_string(),
    ];
    std::fs::write(&path, lines.join("\n")).expect("write");
    let r = fuda(&[
        "score",
        &sangohana(),
        "--batch",
        path.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(r.code, 1, "a bad line fails the run: {}", r.all());
    let out: Vec<Value> = r.stdout.lines().map(json).collect();
    assert_eq!(out.len(), 5, "one result per non-blank line: {}", r.stdout);
    assert_eq!(out[0]["total"], 40);
    assert_eq!(out[0]["line"], 1);
    assert_eq!(out[1]["total"], 17);
    assert_eq!(out[1]["line"], 2);
    assert_eq!(out[2]["line"], 4);
    assert!(
        out[2]["error"]
            .as_str()
            .unwrap_or_default()
            .contains("8 cards, got 1"),
        "{}",
        out[2]
    );
    assert_eq!(out[3]["total"], 0);
    assert_eq!(out[3]["line"], 5, "the blank line 3 is counted");
    assert_eq!(out[4]["line"], 6);
}

#[test]
fn batch_lines_that_are_not_text_or_too_long_are_errors_not_a_hang() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("odd.jsonl");
    // CRLF line ends are fine; a line that is not UTF-8, or over the cap, is an error
    // and the batch goes on (the long line is skipped, not kept in memory).
    let mut bytes = format!("{{\"hand\": \"{AKA_GOKO}\"}}\r\n").into_bytes();
    bytes.extend_from_slice(b"\xff\xfe\n");
    bytes.extend(format!("{{\"hand\": \"{AKA_GOKO}\"}}\n").bytes());
    bytes.extend(std::iter::repeat_n(b'x', (1 << 20) + 10));
    bytes.extend(format!("\n{{\"hand\": \"{AKA_GOKO}\"}}\n").bytes());
    std::fs::write(&path, bytes).expect("write");
    let r = fuda(&[
        "score",
        &sangohana(),
        "--batch",
        path.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(r.code, 1, "{}", r.all());
    let out: Vec<Value> = r.stdout.lines().map(json).collect();
    assert_eq!(out.len(), 5, "{}", r.stdout);
    assert_eq!(out[0]["total"], 40);
    assert_eq!(out[1]["line"], 2);
    assert!(out[1]["error"]
        .as_str()
        .unwrap_or_default()
        .contains("UTF-8"));
    assert_eq!(out[2]["total"], 40);
    assert_eq!(out[3]["line"], 4);
    assert!(out[3]["error"]
        .as_str()
        .unwrap_or_default()
        .contains("too long"));
    assert_eq!((&out[4]["line"], &out[4]["total"]), (&5.into(), &40.into()));
    // A missing batch file is a diagnostic.
    let r = fuda(&["score", &sangohana(), "--batch", "no-such.jsonl"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr
            .contains("cannot read `no-such.jsonl`: no such file"),
        "{}",
        r.stderr
    );
}

#[test]
fn settle_runs_a_procedure_on_a_described_table() {
    let r = fuda(&[
        "score",
        &sangohana(),
        "--settle",
        "流れ",
        "--dealer",
        "1",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    let v = json(&r.stdout);
    assert_eq!(v["seats"][1]["chips"], -2, "the dealer puts 2 in the pot");
    assert_eq!(v["seats"][0]["chips"], -1);
    assert_eq!(v["seats"][1]["role"], "親");
    assert_eq!(v["outcomes"][0], "流れ");
    // A card given twice, an unknown procedure and an unknown zone are errors.
    let r = fuda(&[
        "score",
        &sangohana(),
        "--settle",
        "流れ",
        "--zone",
        "手札[0]=1-crane",
        "--zone",
        "捨て札=1-crane",
    ]);
    assert_ne!(r.code, 0);
    assert!(r.all().contains("given twice"), "{}", r.all());
    let r = fuda(&["score", &sangohana(), "--settle", "勝つ"]);
    assert_ne!(r.code, 0);
    assert!(r.all().contains("no procedure"), "{}", r.all());
    let r = fuda(&[
        "score",
        &sangohana(),
        "--settle",
        "流れ",
        "--zone",
        "手礼[0]=1-crane",
    ]);
    assert_ne!(r.code, 0);
    assert!(r.all().contains("did you mean `手札`"), "{}", r.all());
}

/// A settlement that records a result with a bonus (a `plus` stage's row): the text
/// shows how the total is made, as `fuda score` does for a hand, and the JSON lists the
/// bonus under `bonuses` as well as among the lines of `yaku`, as `fuda score --json`
/// does. (珊瑚花 settles no round itself: a variant adds the procedure.)
#[test]
fn settle_shows_the_bonuses_of_what_it_records() {
    let dir = tempfile::tempdir().expect("temp dir");
    let base = std::fs::read_to_string(sangohana()).expect("read sangohana.fuda");
    rule_file(dir.path(), "sangohana.fuda", &base);
    let path = rule_file(
        dir.path(),
        "fuku.fuda",
        "ruleset \"福\"\nextends \"sangohana.fuda\"\n\
         proc 福清算 {\n  let r = 役代(手札[0], win: 上がり, first_turn: true)\n  \
         record r for 0\n  pay r.total from each others(0) to chips[0]\n}\n",
    );
    let hand = format!("手札[0]={AKA_GOKO}");
    let args = ["score", &path, "--settle", "福清算", "--zone", &hand];
    let r = fuda(&args);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        r.stdout
            .contains("福上がり   15\n      base 20 × factor 2 + bonus 15 = total 55\n"),
        "{}",
        r.stdout
    );
    let r = fuda(&[&args[..], &["--json"]].concat());
    assert_eq!(r.code, 0, "{}", r.all());
    let v = json(&r.stdout);
    let fuku = serde_json::json!([{"name": "福上がり", "value": 15}]);
    assert_eq!(v["seats"][0]["bonuses"], fuku, "{}", r.stdout);
    assert_eq!(v["seats"][0]["yaku"][1], fuku[0], "{}", r.stdout);
    assert_eq!(v["seats"][0]["yaku_total"], 55);
    assert_eq!(v["seats"][1]["bonuses"], serde_json::json!([]));
}

fn ukishima() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets/ukishima.fuda").to_string()
}

const WORKED: [&str; 10] = [
    "--zone",
    "取り札[0]=10a 10b 1a 1b 1c 1d 5a 5b 8a 8b",
    "--zone",
    "取り札[1]=2c 2d 3c 3d 4c 4d 6c 6d 8c 8d",
    "--zone",
    "取り札[2]=10c 10d 2a 2b 3a 3b 4a 4b 5c 5d 6a 6b 7a 7b 7c 7d 9a 9b",
    "--zone",
    "伏せ札=9c",
    "--zone",
    "場=9d",
];

#[test]
fn ukishima_worked_example_settles_to_the_seed_figures() {
    let u = ukishima();
    let mut args = vec!["score", u.as_str(), "--settle", "清算", "--json"];
    args.extend(WORKED);
    let r = fuda(&args);
    assert_eq!(r.code, 0, "{}", r.all());
    let v = json(&r.stdout);
    let chips: Vec<i64> = (0..3)
        .map(|s| v["seats"][s]["chips"].as_i64().expect("chips"))
        .collect();
    assert_eq!(chips, [20, 2, -22]);
    // Its table has no `plus` stage: no seat has bonuses.
    for s in 0..3 {
        assert_eq!(
            v["seats"][s]["bonuses"],
            serde_json::json!([]),
            "{}",
            r.stdout
        );
    }
    // An end state that cannot arise is refused, in a batch too, and the batch goes on.
    let dir = tempfile::tempdir().expect("tempdir");
    let batch = dir.path().join("ends.jsonl");
    std::fs::write(
        &batch,
        "{\"zones\": {\"伏せ札\": \"9c\"}}\n{\"zones\": {\"取り札[0]\": \"9a 9b\", \"伏せ札\": \"9c\", \"場\": \"9d\"}}\n{\"zones\": {\"取り札[0]\": \"10a 10b 1a 1b 1c 1d 5a 5b 8a 8b\", \"取り札[1]\": \"2c 2d 3c 3d 4c 4d 6c 6d 8c 8d\", \"取り札[2]\": \"10c 10d 2a 2b 3a 3b 4a 4b 5c 5d 6a 6b 7a 7b 7c 7d 9a 9b\", \"伏せ札\": \"9c\", \"場\": \"9d\"}}\n",
    )
    .expect("write");
    let r = fuda(&[
        "score",
        &u,
        "--settle",
        "清算",
        "--batch",
        batch.to_str().expect("path"),
    ]);
    assert_eq!(r.code, 1, "{}", r.all());
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", r.stdout);
    assert!(lines[0].contains("cannot arise"), "{}", lines[0]);
    // Most cards in no pile: refused, not settled to chips that do not sum to zero.
    assert!(lines[1].contains("cannot arise"), "{}", lines[1]);
    assert_eq!(json(lines[2])["seats"][2]["chips"], -22, "{}", lines[2]);
}

fn strict() -> String {
    sangohana().replace("sangohana.fuda", "sangohana-strict.fuda")
}

/// Three 桐 kasu and a 松 pair: ×3 in the strict variant, or ×4 by its parameter.
const KIRI_AND_PAIR: &str =
    "2-warbler 4-cuckoo 5-bridge 12-kasu-a 12-kasu-b 12-kasu-yellow 1-kasu-a 1-kasu-b";

#[test]
fn set_reaches_the_ruleset_s_parameters() {
    let s = strict();
    let score = |sets: &[&str]| {
        let mut args = vec!["score", s.as_str(), "--hand", KIRI_AND_PAIR, "--json"];
        for x in sets {
            args.extend(["--set", x]);
        }
        let r = fuda(&args);
        assert_eq!(r.code, 0, "{sets:?}: {}", r.all());
        json(&r.stdout)
    };
    assert_eq!(score(&[])["total"], 3);
    let v = score(&["桐素と対の倍=4"]);
    assert_eq!(
        v["total"], 4,
        "the table reads the ruleset's parameter: {v}"
    );
    // `players` is the ruleset's too: the payment line counts it.
    let v = score(&["players=4", "win=tsumo"]);
    assert_eq!(v["payments"]["players"], 4, "{v}");
    assert_eq!(v["payments"]["winner_receives"], 9, "{v}");
    let r = fuda(&["score", &s, "--hand", KIRI_AND_PAIR, "--set", "players=4"]);
    assert!(r.stdout.contains("with 4 players"), "{}", r.all());

    // Range and name are still checked, against both lists.
    let r = fuda(&[
        "score",
        &s,
        "--hand",
        KIRI_AND_PAIR,
        "--set",
        "桐素と対の倍=5",
    ]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("must be in 3..4"), "{}", r.stderr);
    let r = fuda(&["score", &s, "--hand", KIRI_AND_PAIR, "--set", "player=4"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("did you mean `players`?"), "{}", r.stderr);
    let r = fuda(&[
        "score",
        &s,
        "--hand",
        KIRI_AND_PAIR,
        "--set",
        "players=4",
        "--set",
        "players=3",
    ]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("`players` is set twice"), "{}", r.stderr);

    // The same in a batch line, which overrides `--set`.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("hands.jsonl");
    std::fs::write(
        &path,
        format!(
            "{{\"hand\": \"{KIRI_AND_PAIR}\", \"桐素と対の倍\": 4, \"players\": 2}}\n{{\"hand\": \"{KIRI_AND_PAIR}\"}}\n"
        ),
    )
    .expect("write");
    let r = fuda(&[
        "score",
        &s,
        "--set",
        "players=4",
        "--batch",
        path.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    let out: Vec<Value> = r.stdout.lines().map(json).collect();
    assert_eq!(out[0]["total"], 4, "{}", out[0]);
    assert_eq!(out[0]["payments"]["players"], 2, "{}", out[0]);
    assert_eq!(out[1]["total"], 3, "{}", out[1]);
    assert_eq!(out[1]["payments"]["players"], 4, "{}", out[1]);
}

/// A name that is both an argument of the table and a parameter of the ruleset sets the
/// table's argument, which is what the table reads (it hides the parameter).
#[test]
fn a_name_both_declare_is_the_table_s() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("both.fuda");
    std::fs::write(
        &file,
        r#"ruleset "both"
import "std/hanafuda"
seats 2 { 2: 親 子 }
param bonus: int = 1 in 0..9 "a ruleset parameter"
pattern 一枚 { group 一: 1 same kind }
score 点(hand: cards, bonus: int = 0) over 一枚(hand) {
  yaku first { 札 1 when true }
  plus first { 足し bonus when bonus > 0 }
}
"#,
    )
    .expect("write");
    let f = file.to_str().expect("utf-8 path");
    let r = fuda(&[
        "score", f, "--hand", "1-crane", "--set", "bonus=5", "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(json(&r.stdout)["total"], 6, "{}", r.stdout);
}

#[test]
fn batch_results_carry_their_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("hands.jsonl");
    let lines = [
        String::new(),
        format!("{{\"hand\": \"{AKA_GOKO}\"}}"),
        "   ".to_string(),
        format!("{{\"hand\": \"{NO_YAKU}\"}}"),
    ];
    std::fs::write(&path, lines.join("\n")).expect("write");
    let r = fuda(&[
        "score",
        &sangohana(),
        "--batch",
        path.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    let out: Vec<Value> = r.stdout.lines().map(json).collect();
    assert_eq!(out.len(), 2, "blank lines are skipped: {}", r.stdout);
    assert_eq!((&out[0]["line"], &out[0]["total"]), (&2.into(), &40.into()));
    assert_eq!((&out[1]["line"], &out[1]["total"]), (&4.into(), &0.into()));
    // The line number comes last, after the documented fields.
    assert!(r
        .stdout
        .lines()
        .next()
        .unwrap_or_default()
        .ends_with(",\"line\":2}"));

    // A settlement line in a batch is numbered too.
    let batch = dir.path().join("ends.jsonl");
    std::fs::write(
        &batch,
        "\n{\"zones\": {\"取り札[0]\": \"10a 10b 1a 1b 1c 1d 5a 5b 8a 8b\", \"取り札[1]\": \"2c 2d 3c 3d 4c 4d 6c 6d 8c 8d\", \"取り札[2]\": \"10c 10d 2a 2b 3a 3b 4a 4b 5c 5d 6a 6b 7a 7b 7c 7d 9a 9b\", \"伏せ札\": \"9c\", \"場\": \"9d\"}}\n",
    )
    .expect("write");
    let u = ukishima();
    let r = fuda(&[
        "score",
        &u,
        "--settle",
        "清算",
        "--batch",
        batch.to_str().expect("path"),
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(json(&r.stdout)["line"], 2, "{}", r.stdout);
}

#[test]
fn json_errors_are_json_too() {
    let r = fuda(&["score", &sangohana(), "--hand", "1-crane", "--json"]);
    assert_eq!(r.code, 1, "{}", r.all());
    let v = json(&r.stdout);
    assert!(
        v["error"]
            .as_str()
            .unwrap_or_default()
            .contains("8 cards, got 1"),
        "{v}"
    );
    assert!(
        r.stderr.contains("8 cards, got 1"),
        "still on stderr: {}",
        r.stderr
    );
    // An option error too, and a settlement's.
    let r = fuda(&[
        "score",
        &sangohana(),
        "--hand",
        AKA_GOKO,
        "--set",
        "wim=1",
        "--json",
    ]);
    assert_eq!(r.code, 1);
    assert!(json(&r.stdout)["error"]
        .as_str()
        .unwrap_or_default()
        .contains("did you mean `win`?"));
    let r = fuda(&["score", &sangohana(), "--settle", "勝つ", "--json"]);
    assert_eq!(r.code, 1);
    assert!(json(&r.stdout)["error"].is_string(), "{}", r.stdout);
}

#[test]
fn booleans_are_true_or_false_everywhere() {
    let with = |value: &str| {
        fuda(&[
            "score",
            &sangohana(),
            "--hand",
            SUYAKU_PAIRS,
            "--set",
            "win=tsumo",
            "--set",
            &format!("first_turn={value}"),
            "--json",
        ])
    };
    for yes in ["true", "True", "TRUE"] {
        let r = with(yes);
        assert_eq!(r.code, 0, "{yes}: {}", r.all());
        assert_eq!(json(&r.stdout)["total"], 17, "{yes}");
    }
    for odd in ["yes", "no", "on", "off", "1", "0"] {
        let r = with(odd);
        assert_eq!(r.code, 1, "`{odd}` is refused: {}", r.all());
        assert!(
            r.stderr.contains("`first_turn` is true or false")
                && r.stderr.contains("help: write `true` or `false`"),
            "{}",
            r.stderr
        );
    }
    // A batch line: JSON booleans, and the same words as on the command line.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("hands.jsonl");
    let line = |v: &str| {
        format!("{{\"hand\": \"{SUYAKU_PAIRS}\", \"win\": \"tsumo\", \"first_turn\": {v}}}")
    };
    let lines = [line("true"), line("\"True\""), line("1"), line("\"yes\"")];
    std::fs::write(&path, lines.join("\n")).expect("write");
    let r = fuda(&[
        "score",
        &sangohana(),
        "--batch",
        path.to_str().expect("path"),
    ]);
    let out: Vec<Value> = r.stdout.lines().map(json).collect();
    assert_eq!(out[0]["total"], 17);
    assert_eq!(out[1]["total"], 17);
    for bad in &out[2..] {
        assert!(
            bad["error"]
                .as_str()
                .unwrap_or_default()
                .contains("true or false"),
            "{bad}"
        );
    }
}

#[test]
fn card_suggestions_rank_the_likely_card_first() {
    for (typed, meant) in [
        ("11-kasu-a", "11-kasu"),
        ("1-RIBBON", "1-ribbon"),
        ("松に靏", "松に鶴"),
        ("1-cran", "1-crane"),
    ] {
        let r = fuda(&["score", &sangohana(), "--hand", typed]);
        assert_eq!(r.code, 1);
        assert!(
            r.stderr.contains(&format!("did you mean `{meant}`?")),
            "{typed}: {}",
            r.stderr
        );
    }
}

#[test]
fn the_documented_state_file_settles() {
    // README and `fuda score --help` show `"params": {"減算": false}` for 浮島.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("end.json");
    std::fs::write(
        &path,
        r#"{"settle": "清算", "dealer": 0, "params": {"減算": false},
 "zones": {"取り札[0]": "10a 10b 1a 1b 1c 1d 5a 5b 8a 8b", "取り札[1]": "2c 2d 3c 3d 4c 4d 6c 6d 8c 8d",
 "取り札[2]": "10c 10d 2a 2b 3a 3b 4a 4b 5c 5d 6a 6b 7a 7b 7c 7d 9a 9b", "伏せ札": "9c", "場": "9d"}}"#,
    )
    .expect("write");
    let r = fuda(&[
        "score",
        &ukishima(),
        "--state",
        path.to_str().expect("path"),
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        json(&r.stdout)["seats"][0]["chips"].is_i64(),
        "{}",
        r.stdout
    );
}

#[test]
fn help_shows_what_works() {
    // The `--state` example is ukishima's, which has no `players` parameter.
    let r = fuda(&["score", "--help"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        r.stdout.contains(r#""params": {"減算": false}"#) && !r.stdout.contains(r#""players": 3"#),
        "{}",
        r.stdout
    );
    // The one-line summary names every command.
    let r = fuda(&["--help"]);
    let summary = r.stdout.lines().next().unwrap_or_default();
    for command in [
        "check", "test", "score", "simulate", "compare", "play", "replay",
    ] {
        assert!(summary.contains(command), "{command} in {summary}");
    }
}

/// A pair and three melds of mahjong tiles: `面子` is a repeated group.
const SANMEN: &str = r#"ruleset "三面子"
import "std/mahjong"
seats 3 { 3: 親 南 西 }
zone 山 shared stack hidden
zone 手 per seat pile owner
enum 結果: 流局(draw)
pattern 和了形 {
  group 頭: 2 same face
  group 面子*3: 3 same face | run number by suit
}
score 点(h: cards) over 和了形(h) best {
  yaku all { 和了 1 when true }
}
proc match { outcome 流局 }
"#;

/// A repeated group (`group 面子*3`) is one key of `groups` whose value lists each
/// copy's ids, in the split's order, and a single group a list of ids (a key written
/// once per copy would leave a JSON parser only one). The text report names the copies
/// as a table reads them.
#[test]
fn a_repeated_group_is_one_key_with_a_list_per_copy() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("sanmen.fuda");
    std::fs::write(&file, SANMEN).expect("write");
    let file = file.to_string_lossy();
    let r = fuda(&["score", &file, "--hand", "111222333m55s", "--json"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(r.stdout.matches("\"面子\"").count(), 1, "{}", r.stdout);
    let v = json(&r.stdout);
    assert_eq!(v["groups"]["頭"], serde_json::json!(["5s", "5s"]));
    assert_eq!(
        v["groups"]["面子"],
        serde_json::json!([["1m", "1m", "1m"], ["2m", "2m", "2m"], ["3m", "3m", "3m"]])
    );
    let r = fuda(&["score", &file, "--hand", "111222333m55s"]);
    assert_eq!(r.code, 0, "{}", r.all());
    for line in [
        "  頭: ",
        "  面子[0]: 一萬(1m)",
        "  面子[1]: 二萬(2m)",
        "  面子[2]: 三萬(3m)",
    ] {
        assert!(r.stdout.contains(line), "{line}: {}", r.stdout);
    }
}

#[test]
fn an_unknown_seat_name_lists_the_roles() {
    let u = ukishima();
    let r = fuda(&["score", &u, "--settle", "清算", "--zone", "取り札[胴に]=1a"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stderr.contains("no seat `胴に`"), "{}", r.stderr);
    assert!(r.stderr.contains("did you mean `胴二`?"), "{}", r.stderr);
    assert!(r.stderr.contains("親, 胴二, ビキ"), "{}", r.stderr);
}

/// Called melds (`over 和了形(h, 副)`, `副: list of cards`) are given with `--set 副=…`
/// (melds parted by `/`) or as a JSON array; the hand then holds the rest of the tiles,
/// and a meld named with the hand's tiles takes other copies of them.
#[test]
fn melds_already_formed_are_given_as_a_list() {
    let taigi = common::bundled("taigi.fuda");
    let r = fuda(&[
        "score",
        &taigi,
        "--hand",
        "456m789p111s77z",
        "--set",
        "副=123m",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.stdout.contains("\"name\":\"副露和了\""), "{}", r.stdout);
    assert!(r.stdout.contains("\"total\":1"), "{}", r.stdout);
    // Two melds; the hand holds tiles of the same faces as the first.
    let r = fuda(&[
        "score",
        &taigi,
        "--hand",
        "123m789p77z",
        "--set",
        "副=123m/999s",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.stdout.contains("副露和了: 1"), "{}", r.stdout);
    // The hand's size counts the melds' tiles.
    let r = fuda(&[
        "score",
        &taigi,
        "--hand",
        "456m789p111s7z",
        "--set",
        "副=123m",
    ]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("hand has 11 cards besides the 3 cards of its melds, got 10"),
        "{}",
        r.stderr
    );
    // In a batch, a JSON array.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("hands.jsonl");
    std::fs::write(
        &path,
        "{\"hand\": \"789p111s77z\", \"副\": [\"123m\", \"456m\"]}\n",
    )
    .unwrap();
    let r = fuda(&["score", &taigi, "--batch", path.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.stdout.contains("\"shape\":\"一般形\""), "{}", r.stdout);
}

/// A table that takes no cards (富戯's score: how the round was won) is scored from
/// `--set` alone; giving it a hand is refused, and a table that takes one asks for it.
#[test]
fn a_table_without_cards_scores_from_its_settings() {
    let fugi = common::bundled("fugi.fuda");
    let r = common::fuda(&[
        "score",
        &fugi,
        "--set",
        "地頭=true",
        "--set",
        "刻子=true",
        "--set",
        "牌底=true",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.stdout.starts_with("上がり: 8\n"), "{}", r.stdout);
    assert!(!r.stdout.contains("hand:"), "{}", r.stdout);
    assert!(
        r.stdout.contains("the winner scores 8 (recorded, not paid"),
        "{}",
        r.stdout
    );
    let r = common::fuda(&[
        "score",
        &fugi,
        "--json",
        "--set",
        "特殊=true",
        "--set",
        "配牌=true",
    ]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON");
    assert_eq!(v["total"], 16, "{}", r.stdout);
    let r = common::fuda(&["score", &fugi, "--hand", "1m"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.all().contains("takes no cards, so it scores no hand"),
        "{}",
        r.all()
    );
    let r = common::fuda(&["score", &common::sangohana()]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.all().contains("scores a hand: give it with `--hand`"),
        "{}",
        r.all()
    );
}
