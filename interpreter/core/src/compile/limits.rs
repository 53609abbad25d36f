//! The compiler's size limits: how many declarations of each kind a ruleset may have,
//! and how large one deck, enum or parameter list may be.
//!
//! A rule file is untrusted input. Each compiled form indexes what it names in a narrow
//! integer (a parameter, tag or attribute is a `u16`), and a few checks look at every
//! pair of something, so each count is refused past a limit far above any real game,
//! before any index is taken: past it the file is reported as too large, never
//! compiled into an index that has wrapped around to another declaration.

use fuda_grammar::ast::Item;

use super::Compiler;
use crate::diagnostic::Diagnostic;
use crate::ir::Loc;

/// Zones a ruleset may declare: a per-seat zone takes one instance per seat, up to 16
/// seats, and instances are numbered in 16 bits.
pub const MAX_ZONES: usize = 2_000;
/// Variables a ruleset may declare (per-seat ones take a slot per seat, as zones do).
pub const MAX_VARS: usize = 2_000;
/// Procedures a ruleset may declare.
pub const MAX_PROCS: usize = 10_000;
/// Tests a ruleset may declare.
pub const MAX_TESTS: usize = 10_000;
/// Defs a ruleset may declare.
pub const MAX_DEFS: usize = 10_000;
/// Patterns a ruleset may declare.
pub const MAX_PATTERNS: usize = 10_000;
/// Score tables a ruleset may declare.
pub const MAX_SCORES: usize = 10_000;
/// Parameters a ruleset may declare. A game's parameter values are computed in order,
/// each default from the ones above it, at every game's start: a game needs a few.
pub const MAX_PARAMS: usize = 256;
/// Enums a ruleset may declare.
pub const MAX_ENUMS: usize = 1_000;
/// Word lists a ruleset may declare.
pub const MAX_WORD_LISTS: usize = 1_000;
/// Values one enum may list.
pub const MAX_ENUM_VALUES: usize = 1_000;
/// Attributes one deck may have, its base deck's included.
pub const MAX_ATTRIBUTES: usize = 256;
/// Tags one deck may have, its base deck's included.
pub const MAX_TAGS: usize = 1_000;
/// Values one symbol attribute may list (a deck holds at most 256 cards, so most of a
/// longer list could never be held by a card).
pub const MAX_ATTRIBUTE_VALUES: usize = 1_000;
/// Parameters one def, pattern, score table or procedure may take.
pub const MAX_CALL_PARAMS: usize = 256;

/// A declaration kind counted against a limit: its name in the plural and singular,
/// which items it counts, and the limit.
struct Kind {
    what: &'static str,
    one: &'static str,
    counts: fn(&Item) -> bool,
    max: usize,
}

/// Every kind counted over the whole program.
const KINDS: [Kind; 10] = [
    Kind {
        what: "zones",
        one: "zone",
        counts: |i| matches!(i, Item::Zone(_)),
        max: MAX_ZONES,
    },
    Kind {
        what: "variables",
        one: "variable",
        counts: |i| matches!(i, Item::Var(_)),
        max: MAX_VARS,
    },
    Kind {
        what: "procedures",
        one: "procedure",
        counts: |i| matches!(i, Item::Proc(_)),
        max: MAX_PROCS,
    },
    Kind {
        what: "tests",
        one: "test",
        counts: |i| matches!(i, Item::Test(_)),
        max: MAX_TESTS,
    },
    Kind {
        what: "defs",
        one: "def",
        counts: |i| matches!(i, Item::Def(_)),
        max: MAX_DEFS,
    },
    Kind {
        what: "patterns",
        one: "pattern",
        counts: |i| matches!(i, Item::Pattern(_)),
        max: MAX_PATTERNS,
    },
    Kind {
        what: "score tables",
        one: "score table",
        counts: |i| matches!(i, Item::Score(_)),
        max: MAX_SCORES,
    },
    Kind {
        what: "parameters",
        one: "parameter",
        counts: |i| matches!(i, Item::Param(_)),
        max: MAX_PARAMS,
    },
    Kind {
        what: "enums",
        one: "enum",
        counts: |i| matches!(i, Item::Enum(_)),
        max: MAX_ENUMS,
    },
    Kind {
        what: "word lists",
        one: "word list",
        counts: |i| matches!(i, Item::Words(_)),
        max: MAX_WORD_LISTS,
    },
];

impl Compiler {
    /// Refuses rulesets with more items of a kind than its limit, pointing at the first
    /// one past it. Returns whether every kind is within its limit.
    pub(super) fn within_limits(&mut self, items: &[(u16, Item)]) -> bool {
        let mut ok = true;
        for kind in &KINDS {
            let mut of_kind = items.iter().filter(|(_, i)| (kind.counts)(i));
            // The first one past the limit, then how many there are in all.
            let Some((f, first_past)) = of_kind.nth(kind.max) else {
                continue;
            };
            let n = kind.max + 1 + of_kind.count();
            ok = false;
            let at = Loc {
                file: *f,
                span: first_past.span(),
            };
            self.error(
                Diagnostic::error(
                    "fuda::too-large",
                    format!(
                        "{n} {}: a ruleset may declare at most {}",
                        kind.what, kind.max
                    ),
                    at,
                    format!("{} {} is one too many", kind.one, kind.max + 1),
                )
                .with_help("split the game into smaller rulesets"),
            );
        }
        ok
    }

    /// Reports a list longer than its limit (`what` in the plural: "values of enum
    /// `役`"), at its first entry past the limit. Returns whether it is within.
    pub(super) fn list_within(&mut self, what: &str, len: usize, max: usize, at: Loc) -> bool {
        if len <= max {
            return true;
        }
        self.error(
            Diagnostic::error(
                "fuda::too-large",
                format!("{len} {what}: at most {max} are allowed"),
                at,
                format!("number {} is one too many", max + 1),
            )
            .with_help("a game needs far fewer: split the list, or use an int attribute or parameter instead"),
        );
        false
    }
}
