//! fuda's core: a generic interpreter for card and tile games written as `.fuda` rule
//! files. It checks and compiles a ruleset into a [`ir::Program`], runs games on compiled
//! forms, scores hands with patterns and score tables, and provides computer players.
//!
//! The core does no I/O, starts no threads and draws nothing: the CLI does those.

pub mod agents;
pub mod compile;
pub mod diagnostic;
pub mod engine;
pub mod ir;
pub mod loader;
pub mod model;
pub mod pattern;
pub mod play;
pub mod score;
pub mod suggest;
pub mod value;
pub mod vm;

pub use compile::{compile, Compiled, Failed};
pub use diagnostic::Diagnostic;
pub use engine::{RuntimeError, State};
pub use ir::Program;
