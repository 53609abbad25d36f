//! Computer players: `random`; `eager`, random but always declaring a win it is
//! offered; and `greedy`, which declares every win it can and otherwise plays towards
//! the ruleset's patterns. All see only what their seat may see.

mod eager;
mod greedy;
mod random;

pub use eager::Eager;
pub use greedy::Greedy;
pub use random::Random;

use crate::engine::{Move, State};
use crate::ir::Program;

/// A player that picks one of the legal moves.
pub trait Agent: Send {
    /// The agent's name.
    fn name(&self) -> &'static str;
    /// Picks the index of a move in `moves` for `seat`.
    fn choose(&mut self, p: &Program, st: &State, seat: u8, moves: &[Move]) -> usize;
}

/// Agent names the CLI accepts.
pub const AGENT_NAMES: &[&str] = &["random", "eager", "greedy"];

/// An agent by name, seeded.
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn Agent>> {
    match name {
        "random" => Some(Box::new(Random::new(seed))),
        "eager" => Some(Box::new(Eager::new(seed))),
        "greedy" => Some(Box::new(Greedy::new(seed))),
        _ => None,
    }
}
