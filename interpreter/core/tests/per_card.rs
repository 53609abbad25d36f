//! `var NAME: T per card` (one value per card of the deck, read and assigned by card),
//! `var NAME: T per ENUM` (one per value of an enum: a map by key) and assigning one item
//! of a list variable (`点[2] = 7`, `点[0] += 3`).

use fuda_core::loader::MemoryFiles;
use fuda_core::State;

const RULES: &str = r#"ruleset "per card"
import "std/hanafuda"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
zone 場 shared pile public
var 出し手: seat per card = 0
var 回数: int per card = 0
var 点: list of int = [0, 0, 0]
proc 出す(s: seat, c: card) { move c to 場; 出し手[c] = s; 回数[c] += 1 }
proc match { }
test "who played a card" {
  出す(1, card(1-crane))
  出す(0, card(3-curtain))
  expect 出し手[card(1-crane)] == 1 and 出し手[card(3-curtain)] == 0
  expect 回数[card(1-crane)] == 1 and 回数[card(8-moon)] == 0
  expect count(c in 場: 出し手[c] == 1) == 1
  点[2] = 7
  点[0] += 3
  expect 点 == [3, 0, 7]
}
"#;

#[test]
fn per_card_values_and_list_items() {
    let p = match fuda_core::compile("per_card.fuda", RULES, &MemoryFiles::default()) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    };
    assert_eq!(p.tests.len(), 1);
    State::run_test(&p, 0).unwrap_or_else(|e| panic!("{}", e.message));
}

/// Out of range: a list's item past its end is an error at run time, not a panic.
#[test]
fn an_item_past_the_end_is_an_error() {
    let text = RULES.replace("点[2] = 7", "点[5] = 7");
    let p = fuda_core::compile("per_card.fuda", &text, &MemoryFiles::default())
        .map(|c| c.program)
        .unwrap_or_else(|f| panic!("{:#?}", f.diagnostics));
    let e = State::run_test(&p, 0).expect_err("index 5 of 3");
    assert!(e.message.contains("outside a list of 3"), "{}", e.message);
}

const PER_KEY: &str = r#"ruleset "per key"
import "std/hanafuda"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
enum 項目: 光点 | 種点 | 短点
var 目標: int per 項目 = -1
var 実: int per 項目 = 0
proc match { }
test "a value per enum value" {
  目標[種点] = 5
  実[光点] += 3
  実[光点] += 4
  expect 目標[種点] == 5 and 目標[光点] == -1
  expect 実[光点] == 7 and 実[短点] == 0
  expect 目標 == [-1, 5, -1]
  expect sum(v in 実: v) == 7
}
"#;

#[test]
fn per_enum_values() {
    let p = match fuda_core::compile("per_key.fuda", PER_KEY, &MemoryFiles::default()) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    };
    State::run_test(&p, 0).unwrap_or_else(|e| panic!("{}", e.message));
}
