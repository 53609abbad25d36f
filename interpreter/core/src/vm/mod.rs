//! The register machine: a second way to run a compiled [`Program`], for simulations
//! with players the engine can ask from inside its loop (random and eager). It plays
//! exactly the games the engine plays — same seed, same moves, same record — in far
//! fewer steps, and the engine stays the reference for everything else.
//!
//! How it differs from the engine (`engine/`): `lower` turns each procedure once into
//! flat instructions whose operands are registers, board slots and zone instances
//! settled in advance, with each local kept as what the checker typed it (a number, a
//! card set or another value) instead of a tagged [`Value`](crate::value::Value); decisions of the usual
//! shapes count their moves without listing them. The machine runs on the engine's own
//! [`Board`](crate::engine::Board) (zones, variables, generator), and hands score
//! tables and any expression it has no instruction for to the engine's evaluator, so
//! both share every rule's meaning.
//!
//! Nothing here ever has to be right about an error. A game in which anything unusual
//! happens (an empty zone's top, an overflow, a limit, a value of an unexpected kind)
//! stops with [`Stop`], and `play_game` plays that game again in the engine, which
//! reports it. The limits are kept so that the machine always stops no later than the
//! engine would: it counts at least one step per op the engine would count, and more
//! work per step than the engine charges (see `machine.rs`).

mod decide;
pub mod image;
pub mod ins;
mod limits;
mod lower;
mod lower_calls;
mod lower_decide;
mod lower_expr;
mod lower_quant;
mod machine;
mod operands;
mod quick;
mod runtime;
pub mod shapes;
mod turn;

pub use image::{Declined, Image};
pub use limits::GameLimits;
pub use machine::{play, Stop};

use std::sync::{Arc, OnceLock};

use crate::ir::Program;

/// The most seats a program's machine code is kept for (one lowering per seat count):
/// every seat count a game may have.
const CACHED_SEATS: usize = crate::ir::MOST_SEATS + 1;

/// A program's machine code, lowered on first use for each seat count and kept: a
/// simulation lowers once, not once per game.
#[derive(Default)]
pub struct Cache {
    by_seats: [OnceLock<Result<Arc<Image>, Declined>>; CACHED_SEATS],
}

impl Clone for Cache {
    /// A copied program lowers again (its code may since have changed).
    fn clone(&self) -> Cache {
        Cache::default()
    }
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("vm::Cache")
    }
}

impl Cache {
    /// The machine code of `p` for `seats` seats, or why it has none.
    pub fn image(&self, p: &Program, seats: u8) -> Result<Arc<Image>, Declined> {
        match self.by_seats.get(seats as usize) {
            Some(cell) => cell
                .get_or_init(|| lower::lower(p, seats).map(Arc::new))
                .clone(),
            None => lower::lower(p, seats).map(Arc::new),
        }
    }
}
