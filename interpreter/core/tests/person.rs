//! `person(s)`: whether a person plays the seat. A rule only people can break — a
//! declaration checked after it is made (熟語麻雀's チョンボ) — is offered to people
//! whatever their hand, and to computer players only when it holds: simulations never
//! see it broken; a file's tests, whose answers stand for people, do.

use fuda_core::agents::{by_name, Agent};
use fuda_core::loader::NoFiles;
use fuda_core::play::{agent_seed, game_seed, play_game, PlayOptions};
use fuda_core::{Program, State};

const RULES: &str = r#"
ruleset "declare"
import "std/kabufuda"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
zone 手 per seat pile owner
var chips: int per seat = 10
ledger chips
enum 結果: 上がり | チョンボ | 流れ
def 役(h: cards) = count(h) == 2 and all(c in h: c.number == h.number)
proc match {
  gather 山
  shuffle 山
  deal 2 from 山 to 手
  for x in seats() {
    if 手番(x) { return }
  }
  outcome 流れ
}
proc 手番(x: seat) -> bool {
  choose x {
    move 宣言 "上がり宣言" when 役(手[x]) or person(x) {
      if 役(手[x]) {
        outcome 上がり
      } else {
        pay 1 from chips[x] to chips[next(x)]
        outcome チョンボ
      }
      return true
    }
    move 見送り { }
  }
  return false
}
test "a declaration on a hand that is no 役 is チョンボ" {
  move cards(1a 2a) to 手[0]
  answer 宣言
  expect 手番(0)
  expect chips[0] == 9 and chips[1] == 11
}
"#;

fn program() -> Program {
    fuda_core::compile("declare.fuda", RULES, &NoFiles)
        .unwrap_or_else(|f| panic!("{:#?}", f.diagnostics))
        .program
}

#[test]
fn a_test_answers_as_a_person() {
    let p = program();
    State::run_test(&p, 0).unwrap_or_else(|e| panic!("{}", e.message));
}

#[test]
fn computer_players_never_break_a_rule_only_people_can() {
    let p = program();
    let mut wins = 0;
    for g in 0..300 {
        let seed = game_seed(8, g);
        let mut agents: Vec<Box<dyn Agent>> = (0..2)
            .map(|s| by_name("random", agent_seed(seed, s)).expect("agent"))
            .collect();
        let opts = PlayOptions {
            check_invariants: true,
            ..PlayOptions::default()
        };
        let rec = play_game(&p, &[], seed, &mut agents, &opts).expect("plays");
        assert!(rec.outcomes.iter().all(|o| &**o != "チョンボ"), "game {g}");
        wins += rec.outcomes.iter().filter(|o| &***o == "上がり").count();
    }
    assert!(wins > 0, "the declaration is still made when it holds");
}

#[test]
fn a_seat_marked_as_a_person_may_declare_any_hand() {
    let p = program();
    let mut st = State::new(&p, &[], 1).expect("starts");
    st.board.people = 1; // seat 0
    assert!(!st.advance(&p).expect("advances"));
    let pending = st.pending().expect("seat 0 decides");
    assert_eq!(pending.seats[0].seat, 0);
    // Both moves are offered to the person, whatever the hand (seed 1 deals seat 0
    // a 1 and an 8, no 役).
    assert_eq!(pending.seats[0].moves.len(), 2);
    // To computer players the same deal offers only 見送り (neither hand is a 役),
    // taken by itself: the game ends without a decision asked.
    let mut st = State::new(&p, &[], 1).expect("starts");
    assert!(st.advance(&p).expect("advances"), "no decision is asked");
}
