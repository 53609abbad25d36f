//! `claimed(MOVE)`: the seats that chose a move in the last claim window taken, in the
//! window's order, so that a rule can see every claim and not only the winning one
//! (熟語麻雀's 三家和: all three others ロン on one discard is an abortive draw); and
//! `decline`, which hands the window from the claim taken to the next one.

use fuda_core::agents::{by_name, Agent};
use fuda_core::loader::NoFiles;
use fuda_core::play::{agent_seed, game_seed, play_game, PlayOptions};
use fuda_core::{Program, State};

const RULES: &str = r#"
ruleset "三家和"
import "std/hanafuda"
seats 4 { 4: 東 南 西 北 }
zone 山 shared stack hidden
var 和了者: seat = 0
enum 結果: ロン和了 | 三家和 | 見送り
proc match { 一巡(0) }
proc 一巡(s: seat) {
  claim x in others(s) {
    move ロン priority 2 {
      if count(claimed(ロン)) == 3 { outcome 三家和; return }
      和了者 = x
      outcome ロン和了
    }
    move ポン priority 1 { }
  }
  if claimed(ロン) == [] { outcome 見送り }
}
test "three ロン on one discard: 三家和" {
  answer ロン
  answer ロン
  answer ロン
  一巡(0)
  expect claimed(ロン) == [1, 2, 3]
}
test "two ロン: the nearest after the discarder wins alone, and both are seen" {
  answer pass
  answer ロン
  answer ロン
  一巡(0)
  expect claimed(ロン) == [2, 3] and claimed(ポン) == [] and 和了者 == 2
}
test "a ポン is seen beside a ロン, from the discarder's right" {
  answer ポン
  answer ロン
  answer pass
  一巡(1)
  expect claimed(ポン) == [2] and claimed(ロン) == [3]
}
test "nobody claims: the last window has no claims" {
  answer pass
  answer pass
  answer pass
  一巡(0)
  expect claimed(ロン) == [] and claimed(ポン) == []
}
"#;

fn program() -> Program {
    fuda_core::compile("claims.fuda", RULES, &NoFiles)
        .unwrap_or_else(|f| panic!("{:#?}", f.diagnostics))
        .program
}

#[test]
fn claimed_lists_every_claim_of_the_window() {
    let p = program();
    for i in 0..p.tests.len() {
        if let Err(e) = State::run_test(&p, i) {
            panic!("test \"{}\": {}", p.tests[i].name, e.message);
        }
    }
}

#[test]
fn random_games_end_as_the_claims_say() {
    let p = program();
    let mut seen = std::collections::BTreeSet::new();
    for g in 0..200 {
        let seed = game_seed(4, g);
        let mut agents: Vec<Box<dyn Agent>> = (0..4)
            .map(|s| by_name("random", agent_seed(seed, s)).expect("agent"))
            .collect();
        let opts = PlayOptions {
            check_invariants: true,
            ..PlayOptions::default()
        };
        let rec = play_game(&p, &[], seed, &mut agents, &opts).expect("plays");
        assert_eq!(rec.outcomes.len(), 1, "game {g}");
        seen.insert(rec.outcomes[0].to_string());
    }
    // Random claims reach every ending: three ロン, some ロン, none.
    assert_eq!(seen.len(), 3, "{seen:?}");
}

const DECLINE: &str = r#"
ruleset "decline"
import "std/hanafuda"
seats 4 { 4: 東 南 西 北 }
zone 山 shared stack hidden
var 勝者: seat = 0
var 罰: int per seat = 0
var 鳴: seat = 0
enum 結果: ロン和了 | ポン | 流れ
proc match { 一巡(0) }
proc 一巡(s: seat) {
  claim x in others(s) {
    move ロン priority 2 {
      if x == 1 {                 # seat 1's ロン is invalid here: penalized, the window goes on
        罰[x] += 1
        decline
      }
      勝者 = x
      outcome ロン和了
    }
    move ポン priority 1 { 鳴 = x; outcome ポン }
  }
  if claimed(ロン) == [] and claimed(ポン) == [] { outcome 流れ }
}
test "an invalid ロン declines: the next ロン wins" {
  answer ロン
  answer ロン
  answer ポン
  一巡(0)
  expect 罰[1] == 1 and 勝者 == 2
}
test "the last ロン declines: the ポン is taken" {
  answer ロン
  answer pass
  answer ポン
  一巡(0)
  expect 罰[1] == 1 and 鳴 == 3
}
test "every claim declined: the window ends" {
  answer ロン
  answer pass
  answer pass
  一巡(0)
  expect 罰[1] == 1 and 勝者 == 0 and 鳴 == 0
}
"#;

#[test]
fn decline_hands_the_window_to_the_next_claim() {
    let p = fuda_core::compile("decline.fuda", DECLINE, &NoFiles)
        .unwrap_or_else(|f| panic!("{:#?}", f.diagnostics))
        .program;
    for i in 0..p.tests.len() {
        if let Err(e) = State::run_test(&p, i) {
            panic!("test \"{}\": {}", p.tests[i].name, e.message);
        }
    }
}
