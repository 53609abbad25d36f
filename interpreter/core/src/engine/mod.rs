//! The engine: game state, expression evaluation, running procedure code to the next
//! decision, and applying the players' choices. It names no game.

mod builtins;
mod by_class;
mod claim_window;
mod deal;
mod decision;
mod error;
mod eval;
mod exec;
mod frame;
mod invariants;
mod offer;
mod pick;
mod quicken;
pub mod show;
mod state;
mod test_run;
mod typed;
mod why_not;
mod zones;

pub(crate) use by_class::class_shaped;
pub use decision::{Move, Pending, SeatMoves, LATE_OPTIONS, PASS};
pub use error::{ErrorInfo, RuntimeError};
pub(crate) use eval::nothing;
pub use eval::{
    attr_value, const_eval, const_eval_result, const_eval_with, eval_with_defaults, param_values,
    seat_count, seat_count_given, seat_counts, Cx, EVAL_BUDGET,
};
pub use exec::{GAME_BUDGET, OP_LIMIT, ROUND_BUDGET, WORK_PER_DECISION};
pub use pick::{Picker, Waits};
pub use state::{
    event_text, Board, CodeRef, Event, Frame, Layout, State, DEFAULT_DECISION_LIMIT, MAX_EVENTS,
    MAX_EVENT_TEXT, ROUND_DECISION_LIMIT,
};
pub(crate) use typed::{scalar_of, STACK_ARGS};
pub use why_not::WhyNot;
pub use zones::Zones;
