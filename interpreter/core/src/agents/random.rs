//! The random player: a uniformly random legal move.

use super::{Agent, AutoPlayer};
use crate::engine::{Move, State};
use crate::ir::Program;
use crate::model::GameRng;

/// Picks uniformly among the legal moves.
pub struct Random {
    rng: GameRng,
}

impl Random {
    /// A random player with its own seed.
    pub fn new(seed: u64) -> Random {
        Random {
            rng: GameRng::new(seed),
        }
    }
}

impl Agent for Random {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, _p: &Program, _st: &State, _seat: u8, moves: &[Move]) -> usize {
        self.rng.below(moves.len().max(1) as u32) as usize
    }

    fn new_game(&mut self, seed: u64) -> bool {
        self.rng = GameRng::new(seed);
        true
    }

    fn autoplay(&mut self) -> Option<AutoPlayer<'_>> {
        Some(AutoPlayer::new(false, &mut self.rng))
    }
}
