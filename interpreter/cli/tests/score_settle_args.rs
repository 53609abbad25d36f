//! End to end: `fuda score --settle` on a procedure that takes arguments and reads the
//! game's variables — 熟語麻雀's 勝ち(w, how, 放銃), told by `--set` who won, how, and
//! the table as the round left it (本場, リーチ, the dealer).

mod common;

use common::{bundled, fuda, fuda_with_input};
use serde_json::Value;

/// 先手 事実 男子: three 2-character words, 1+1+1+1+4+2 = 10 points.
const HAND: &str = "手札[1]=6S 4S 3S 10S 7D 5H";

fn jukugo() -> String {
    bundled("jukugo-mahjong.fuda")
}

fn settle(extra: &[&str]) -> common::Run {
    let j = jukugo();
    let mut args = vec!["score", j.as_str(), "--settle", "勝ち", "--zone", HAND];
    args.extend_from_slice(extra);
    fuda(&args)
}

fn chips(r: &common::Run) -> Vec<i64> {
    let v: Value = serde_json::from_str(r.stdout.trim())
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", r.all()));
    v["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .map(|s| s["chips"].as_i64().expect("chips"))
        .collect()
}

#[test]
fn a_childs_tsumo_with_riichi_splits_as_the_rulings_say() {
    // Base 10 + 3 (リーチ) = 13: the dealer pays 13 × 2/4 = 6.5 → 7, each child 13/4 → 4.
    let r = settle(&[
        "--set",
        "w=1",
        "--set",
        "how=ツモ",
        "--set",
        "放銃=1",
        "--set",
        "立直[1]=true",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(chips(&r), vec![-7, 15, -4, -4]);
}

#[test]
fn honba_adds_one_a_payer_on_tsumo_and_the_count_of_payers_on_ron() {
    let r = settle(&[
        "--set",
        "w=1",
        "--set",
        "how=tsumo",
        "--set",
        "放銃=1",
        "--set",
        "本場=2",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    // Base 10: dealer ⌈20/4⌉ = 5 + 2, children ⌈10/4⌉ = 3 + 2.
    assert_eq!(chips(&r), vec![-7, 17, -5, -5]);
    let r = settle(&[
        "--set",
        "w=1",
        "--set",
        "how=ロン",
        "--set",
        "放銃=西家",
        "--set",
        "本場=2",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    // ロン: the discarder (西家, seat 2) pays 10 + 2 × 3.
    assert_eq!(chips(&r), vec![0, 16, -16, 0]);
}

#[test]
fn the_dealers_win_is_half_again_rounded_up_and_takes_the_deposits() {
    let j = jukugo();
    let r = fuda(&[
        "score",
        &j,
        "--settle",
        "勝ち",
        "--zone",
        "手札[0]=6S 4S 3S 10S 7D 5H",
        "--set",
        "w=親",
        "--set",
        "how=ロン",
        "--set",
        "放銃=1",
        "--set",
        "立直[0]=true",
        "--set",
        "供託=1",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    // (10 + 3) × 1.5 = 19.5 → 20, and the one deposited chip.
    assert!(r.stdout.contains("seat 0 親: +21"), "{}", r.stdout);
    assert!(r.stdout.contains("seat 1 南家: -20"), "{}", r.stdout);
    assert!(r.stdout.contains("リーチ"), "{}", r.stdout);
    // The dealer kept the deal: no next dealer line.
    assert!(!r.stdout.contains("next dealer"), "{}", r.stdout);
}

#[test]
fn a_missing_argument_names_what_the_procedure_takes() {
    let r = settle(&["--set", "w=1"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr.contains("`勝ち` needs `how`, `放銃`"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("`勝ち` takes w: seat, how: 和了, 放銃: seat: add --set how=… --set 放銃=…"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_mistyped_name_value_or_seat_is_refused_with_a_reason() {
    let base = ["--set", "w=1", "--set", "how=ツモ", "--set", "放銃=1"];
    let with = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend_from_slice(extra);
        settle(&a)
    };
    let r = with(&["--set", "本番=2"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr
            .contains("there is no argument, variable or parameter called `本番`"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("did you mean `本場`?"), "{}", r.stderr);
    let r = with(&["--set", "立直=true"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr
            .contains("`立直` is one per seat: write `立直[seat]`"),
        "{}",
        r.stderr
    );
    let r = with(&["--set", "立直[7]=true"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stderr.contains("seat 7 does not exist"), "{}", r.stderr);
    let r = with(&["--set", "本場=two"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr.contains("`本場` is a whole number"),
        "{}",
        r.stderr
    );
    let r = settle(&["--set", "w=1", "--set", "how=チー", "--set", "放銃=1"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stderr.contains("how"), "{}", r.stderr);
}

#[test]
fn a_json_description_sets_arguments_and_variables() {
    let j = jukugo();
    let state = r#"{"settle": "勝ち", "dealer": 0,
        "zones": {"手札[1]": "6S 4S 3S 10S 7D 5H"},
        "args": {"w": 1, "how": "ツモ", "放銃": 1},
        "vars": {"立直[1]": true, "本場": 1}}"#;
    let r = fuda_with_input(&["score", &j, "--state", "-", "--json"], state);
    assert_eq!(r.code, 0, "{}", r.all());
    // 13: the dealer 7 + 1, each child 4 + 1.
    assert_eq!(chips(&r), vec![-8, 18, -5, -5]);
}

#[test]
fn a_hand_of_a_game_that_pays_otherwise_points_to_its_settlement() {
    // 熟語麻雀 pays a win by 勝ち (dealer ×1.5, ツモ splits), not "each other player pays
    // the total": the report says where its payments are, and JSON has no payments.
    let j = jukugo();
    let r = fuda(&[
        "score",
        &j,
        "--hand",
        "6S 4S 3S 10S 7D 5H",
        "--set",
        "立=true",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.stdout.contains("二字熟語三組: 13"), "{}", r.stdout);
    assert!(!r.stdout.contains("each other player pays"), "{}", r.stdout);
    assert!(r.stdout.contains("`--settle PROC`"), "{}", r.stdout);
    let r = fuda(&["score", &j, "--hand", "6S 4S 3S 10S 7D 5H", "--json"]);
    assert_eq!(r.code, 0, "{}", r.all());
    let v: Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
    assert_eq!(v["total"], 10);
    assert_eq!(v["payments"], Value::Null);
}
