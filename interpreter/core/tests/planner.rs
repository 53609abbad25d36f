//! The planner judges a choice made before the deal by playing the round on as the
//! greedy player would; the greedy player, whose pattern distance says nothing of such a
//! choice, takes one of them at random.

use fuda_core::agents::{by_name, Agent};
use fuda_core::loader::NoFiles;
use fuda_core::play::{agent_seed, game_seed, play_game, PlayOptions};

/// A solo round: declare 1 to 5 before the deal, keep the best four of seven tiles.
/// The declaration scores itself up to 3 and costs itself above; a hand of two pairs
/// adds 1.
const RULES: &str = r#"
ruleset "宣言"
import "std/mahjong"
seats 1 { 1: 帝 }
zone 壁 shared stack hidden
zone 手 per seat pile owner
zone 河 shared stack public
enum 結果: 終(end)
var 宣言: int = 0
pattern 対々 { group 対*2: 2 same face }
score 得点(n: int) { yaku first { 点 n when true } }
def 値(n: int) = if n <= 3 then n else 0 - n
proc match {
  choose 0 { move 宣言する(n in 1..5) "宣言" { 宣言 = n } }
  shuffle 壁
  deal 4 from 壁 to 手
  repeat 3 {
    choose 0 { move 捨てる(c in 手[0]) { move c to 河 } }
    move top(壁) to 手[0]
  }
  record 得点(値(宣言) + (if 対々(手[0]) then 1 else 0)) for 0
  outcome 終
}
"#;

/// The score each of eight games recorded for the seat, played by `agent`.
fn scores(agent: &str) -> Vec<i64> {
    let p = fuda_core::compile("t.fuda", RULES, &NoFiles)
        .expect("compiles")
        .program;
    (0..8)
        .map(|g| {
            let seed = game_seed(3, g);
            let mut agents: Vec<Box<dyn Agent>> =
                vec![by_name(agent, agent_seed(seed, 0)).expect("agent")];
            let rec =
                play_game(&p, &[], seed, &mut agents, &PlayOptions::default()).expect("plays");
            rec.records.iter().map(|(_, r, _)| r.total).sum()
        })
        .collect()
}

#[test]
fn the_planner_declares_what_pays_most() {
    let planned = scores("planner");
    assert!(planned.iter().all(|&s| s >= 3), "{planned:?}");
    // Not a choice any player gets right: the greedy player's declarations vary.
    let greedy = scores("greedy");
    assert!(greedy.iter().any(|&s| s < 3), "{greedy:?}");
}

#[test]
fn a_renewed_planner_is_still_a_planner() {
    let mut a = by_name("planner", 1).expect("agent");
    assert!(a.new_game(2));
    assert_eq!(a.name(), "planner");
}
