//! What a top-level name can stand for, and the builtin names no ruleset may redeclare.

use crate::ir::Builtin;
use crate::model::CardSet;

/// A top-level name's meaning.
#[derive(Clone, Debug, PartialEq)]
pub enum Global {
    /// A parameter.
    Param(u16),
    /// A game variable.
    Var(u16),
    /// A zone.
    Zone(u16),
    /// A named card set.
    CardSet(CardSet),
    /// A `def`.
    Def(u16),
    /// A pattern.
    Pattern(u16),
    /// A score table.
    Score(u16),
    /// A procedure.
    Proc(u16),
    /// An enum type.
    Enum(u16),
    /// A deck.
    Deck,
    /// A word list (`words 熟語 { … }`), for `word(…)`.
    Words(u16),
}

impl Global {
    /// "a zone", "a procedure"… for messages.
    pub fn describe(&self) -> &'static str {
        match self {
            Global::Param(_) => "a parameter",
            Global::Var(_) => "a variable",
            Global::Zone(_) => "a zone",
            Global::CardSet(_) => "a card set",
            Global::Def(_) => "a def",
            Global::Pattern(_) => "a pattern",
            Global::Score(_) => "a score table",
            Global::Proc(_) => "a procedure",
            Global::Enum(_) => "an enum",
            Global::Deck => "a deck",
            Global::Words(_) => "a word list",
        }
    }
}

/// Builtin functions by name, with their arity range.
pub const BUILTINS: &[(&str, Builtin, usize, usize)] = &[
    ("count", Builtin::Count, 1, 1),
    ("len", Builtin::Len, 1, 1),
    ("top", Builtin::Top, 1, 1),
    ("empty", Builtin::Empty, 1, 1),
    ("next", Builtin::Next, 1, 1),
    ("prev", Builtin::Prev, 1, 1),
    ("others", Builtin::Others, 1, 1),
    ("seats", Builtin::Seats, 0, 0),
    ("players", Builtin::Players, 0, 0),
    ("leaders", Builtin::Leaders, 1, 1),
    ("role", Builtin::Role, 1, 1),
    ("pairs", Builtin::Pairs, 2, 2),
    ("min", Builtin::Min, 2, 2),
    ("max", Builtin::Max, 2, 2),
    ("abs", Builtin::Abs, 1, 1),
    ("ceil_div", Builtin::CeilDiv, 2, 2),
    ("matches", Builtin::Matches, 2, 2),
    ("waits", Builtin::Waits(0), 2, 3),
    ("tagged", Builtin::Tagged, 2, 2),
    ("sets", Builtin::Sets, 2, 4),
    ("claimed", Builtin::Claimed, 1, 1),
    ("person", Builtin::Person, 1, 1),
];

/// Quantifier names usable as `name(x in D: body)`.
pub const BINDERS: &[&str] = &["count", "sum", "all", "any", "filter", "max", "min"];

/// Names with a fixed meaning in expressions.
pub const CONSTANTS: &[&str] = &["dealer", "deck"];

/// Whether a name is reserved by the language. Function names are not: they are only
/// looked up in calls, after the ruleset's own defs, patterns and score tables.
pub fn is_builtin(name: &str) -> bool {
    CONSTANTS.contains(&name)
}
