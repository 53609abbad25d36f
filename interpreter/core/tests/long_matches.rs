//! A match of many honest rounds plays to its end: the work a game may do grows with
//! the decisions its rounds take (`WORK_PER_DECISION`), so that a long match (対戯 to
//! 40 points, a thousand deals) is not stopped as a runaway, in the engine or the
//! register machine, while a game whose rounds work hard without deciding still is.

use fuda_core::agents::{by_name, Agent};
use fuda_core::engine::{GAME_BUDGET, ROUND_BUDGET};
use fuda_core::loader::NoFiles;
use fuda_core::play::{play_game, GameError, PlayOptions};

/// 2,500 rounds of 8 decisions, each decision weighing a guard of some hundreds of
/// steps: more work in all than a game's budget without what the decisions earn.
const LONG: &str = r#"
ruleset "long"
import "std/kabufuda"
seats 2 { 2: a b }
zone 山 shared stack hidden
proc match {
  repeat 2500 {
    repeat 8 {
      choose dealer {
        move 数える "数える" when count(i in 1..800: i > 0) > 0 { }
        move 待つ "待つ" { }
      }
    }
    outcome "局"
  }
}
"#;

/// Rounds that each count to 100,000 without a decision: nothing earned.
const HEAVY: &str = r#"
ruleset "heavy"
import "std/kabufuda"
seats 2 { 2: a b }
zone 山 shared stack hidden
var n: int = 0
proc match {
  loop {
    n = count(i in 1..100000: i > 0)
    outcome "局"
  }
}
"#;

fn play(text: &str, engine_only: bool) -> Result<u64, GameError> {
    let p = match fuda_core::compile("t.fuda", text, &NoFiles) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    };
    let mut agents: Vec<Box<dyn Agent>> = (0..2)
        .map(|s| by_name("random", s).expect("agent"))
        .collect();
    let opts = PlayOptions {
        engine_only,
        ..PlayOptions::default()
    };
    play_game(&p, &[], 7, &mut agents, &opts).map(|r| r.outcomes.len() as u64)
}

#[test]
fn a_long_match_of_honest_rounds_plays_to_its_end() {
    // The guards alone do more than the game's own budget over the match.
    const GUARDS: u64 = 2500 * 8 * 800;
    const _: () = assert!(GUARDS > GAME_BUDGET + ROUND_BUDGET);
    for engine_only in [true, false] {
        match play(LONG, engine_only) {
            Ok(rounds) => assert_eq!(rounds, 2500, "engine only: {engine_only}"),
            Err(e) => panic!("engine only: {engine_only}: {e:?}"),
        }
    }
}

#[test]
fn rounds_that_work_hard_without_deciding_still_run_out() {
    for engine_only in [true, false] {
        match play(HEAVY, engine_only) {
            Err(GameError::Runtime(e)) => {
                assert!(e.message.contains("steps of work"), "{}", e.message)
            }
            other => panic!("engine only: {engine_only}: {:?}", other.map(|_| ())),
        }
    }
}
