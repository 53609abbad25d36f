//! The eager player: declares a win whenever one is offered, otherwise plays a
//! uniformly random legal move. It is the benchmark's player (the hand-written
//! yardstick's agents "always win when they can and otherwise discard at random").

use super::Agent;
use crate::engine::{Move, State, PASS};
use crate::ir::{Op, Program};
use crate::model::GameRng;

/// Takes a move that ends the round when there is one; otherwise random.
pub struct Eager {
    rng: GameRng,
}

impl Eager {
    /// An eager player with its own seed.
    pub fn new(seed: u64) -> Eager {
        Eager {
            rng: GameRng::new(seed),
        }
    }
}

impl Agent for Eager {
    fn name(&self) -> &'static str {
        "eager"
    }

    fn choose(&mut self, p: &Program, st: &State, _seat: u8, moves: &[Move]) -> usize {
        // A move ends the round when the compiler found `outcome`/`record` in its body.
        let decide =
            st.pending().and_then(
                |pending| match st.pending_code(p).get(pending.at as usize) {
                    Some(Op::Decide(d)) => Some(d),
                    _ => None,
                },
            );
        if let Some(d) = decide {
            let ends = |m: &Move| {
                m.option != PASS
                    && d.options
                        .get(m.option as usize)
                        .is_some_and(|o| o.ends_round)
            };
            if let Some(i) = moves.iter().position(ends) {
                return i;
            }
        }
        self.rng.below(moves.len().max(1) as u32) as usize
    }
}
