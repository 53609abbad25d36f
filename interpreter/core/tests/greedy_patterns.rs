//! The greedy player aims at the patterns a hand can form: one smaller than the cards
//! it holds (a helper pattern, or one for a hand after calls) is not a target, so
//! declaring one does not change how it plays.

use fuda_core::agents::{by_name, Agent};
use fuda_core::loader::NoFiles;
use fuda_core::play::{agent_seed, game_seed, play_game, PlayOptions};

const RULES: &str = r#"
ruleset "三面子"
import "std/mahjong"
seats 3 { 3: 親 南 西 }
zone 山 shared stack hidden
zone 河 shared stack public
zone 手 per seat pile owner
enum 結果: 流局(draw) | 和了(win)
var chips: int per seat = 0
ledger chips
pattern 和了形 {
  group 頭: 2 same face
  group 面子*3: 3 same face | run number by suit
}
score 点(h: cards) over 和了形(h) best { yaku all { 和了 1 when true } }
proc match { repeat 2 { 一局() } }
proc 一局 {
  gather 山
  shuffle 山
  deal 10 from 山 to 手
  let s = dealer
  loop {
    if empty(山) { outcome 流局; return }
    move top(山) to 手[s]
    choose s {
      move ツモ when 点(手[s]).total > 0 {
        record 点(手[s]) for s
        outcome 和了
        pay 1 from each others(s) to chips[s]
        return
      }
      move 捨てる(d in 手[s]) { move d to 河 }
    }
    s = next(s)
  }
}
"#;

fn games(text: &str) -> Vec<Vec<i64>> {
    let p = fuda_core::compile("t.fuda", text, &NoFiles)
        .expect("compiles")
        .program;
    (0..6)
        .map(|g| {
            let seed = game_seed(5, g);
            let mut agents: Vec<Box<dyn Agent>> = (0..3)
                .map(|s| {
                    let name = if s == 0 { "greedy" } else { "random" };
                    by_name(name, agent_seed(seed, s)).expect("agent")
                })
                .collect();
            play_game(&p, &[], seed, &mut agents, &PlayOptions::default())
                .expect("plays")
                .chips
        })
        .collect()
}

#[test]
fn a_pattern_smaller_than_the_hand_is_no_target() {
    let helper = RULES.replace(
        "score 点",
        "pattern 小形 { group 頭: 2 same face  group 面子: 3 same face | run number by suit }\nscore 点",
    );
    let (plain, with_helper) = (games(RULES), games(&helper));
    assert_eq!(plain, with_helper);
    // Not a vacuous comparison: greedy wins chips against two random players.
    let greedy: i64 = plain.iter().map(|c| c[0]).sum();
    assert!(greedy > 0, "{plain:?}");
}

/// A player renewed for the next game (`Agent::new_game`, as a batch does) plays the
/// very game a new one would: what it keeps (the pattern distances it worked out) holds
/// for every game and changes no choice.
#[test]
fn a_renewed_player_plays_as_a_new_one() {
    let p = fuda_core::compile("t.fuda", RULES, &NoFiles)
        .expect("compiles")
        .program;
    let names = ["greedy", "random", "eager"];
    let mut kept: Vec<Box<dyn Agent>> = names
        .iter()
        .map(|n| by_name(n, 0).expect("agent"))
        .collect();
    for g in 0..6 {
        let seed = game_seed(9, g);
        let mut fresh: Vec<Box<dyn Agent>> = names
            .iter()
            .enumerate()
            .map(|(s, n)| by_name(n, agent_seed(seed, s)).expect("agent"))
            .collect();
        for (s, a) in kept.iter_mut().enumerate() {
            assert!(a.new_game(agent_seed(seed, s)));
        }
        let opts = PlayOptions {
            keep_moves: true,
            ..PlayOptions::default()
        };
        let one = play_game(&p, &[], seed, &mut fresh, &opts).expect("plays");
        let two = play_game(&p, &[], seed, &mut kept, &opts).expect("plays");
        assert_eq!(one.chips, two.chips, "game {g}");
        assert_eq!(one.decisions, two.decisions, "game {g}");
        assert_eq!(
            format!("{:?}", one.moves),
            format!("{:?}", two.moves),
            "game {g}"
        );
    }
}
