//! The eager player: declares a win whenever one is offered, otherwise plays a
//! uniformly random legal move. It is the benchmark's player (the hand-written
//! yardstick's agents "always win when they can and otherwise discard at random").

use super::{Agent, AutoPlayer};
use crate::engine::{Move, State};
use crate::ir::Program;
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
        AutoPlayer::new(true, &mut self.rng).choose(p, st, moves)
    }

    fn new_game(&mut self, seed: u64) -> bool {
        self.rng = GameRng::new(seed);
        true
    }

    fn autoplay(&mut self) -> Option<AutoPlayer<'_>> {
        Some(AutoPlayer::new(true, &mut self.rng))
    }
}
