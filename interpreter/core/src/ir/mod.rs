//! The compiled forms the engine runs: interned names, card indices, slot-resolved
//! expressions and flat procedure code. Nothing here refers back to the syntax tree.

use std::sync::Arc;

use crate::model::{CardSet, Deck};
use crate::value::{Type, Value};
use fuda_grammar::Span;

mod decide;
mod expr;
mod quick;

pub use decide::*;
pub use expr::*;
pub use quick::*;

/// A place in a source file: which file of the program, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Loc {
    /// Index into [`Program::sources`].
    pub file: u16,
    /// Byte span.
    pub span: Span,
}

/// One source file that went into a program (the ruleset, its bases, its imports).
#[derive(Clone, Debug)]
pub struct Source {
    /// The name shown in diagnostics.
    pub name: String,
    /// The text.
    pub text: Arc<str>,
    /// The byte offset where each line starts, so a diagnostic finds its line without
    /// reading the file from the top (thousands of diagnostics stay linear).
    pub line_starts: Arc<[u32]>,
}

impl Source {
    /// A source file and its line index.
    pub fn new(name: impl Into<String>, text: Arc<str>) -> Source {
        let line_starts = std::iter::once(0)
            .chain(
                text.bytes()
                    .enumerate()
                    .filter(|(_, b)| *b == b'\n')
                    .map(|(i, _)| i as u32 + 1),
            )
            .collect();
        Source {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// The 0-based line of a byte offset (the offset is clamped to the text).
    pub fn line_index(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len()) as u32;
        self.line_starts.partition_point(|s| *s <= offset) - 1
    }

    /// The 1-based line and column of byte `offset`, the column in characters as an
    /// editor shows it.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let line = self.line_index(offset);
        let start = self.line_start(line);
        let mut end = offset.clamp(start, self.text.len());
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        (line + 1, self.text[start..end].chars().count() + 1)
    }

    /// Where 0-based line `line` starts (the text's end past the last line).
    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts
            .get(line)
            .map_or(self.text.len(), |s| *s as usize)
    }
}

/// A compiled ruleset, ready to run.
#[derive(Clone, Debug)]
pub struct Program {
    /// Title from `ruleset "…"`.
    pub title: String,
    /// Every source file, for diagnostics.
    pub sources: Vec<Source>,
    /// The cards.
    pub deck: Deck,
    /// Interned symbols (enum values, attribute symbols, yaku names).
    pub symbols: Vec<String>,
    /// Enums: name and their symbols (with ASCII aliases).
    pub enums: Vec<EnumDef>,
    /// Parameters with defaults.
    pub params: Vec<ParamDef>,
    /// Seat count expression (over params) and role names per seat count.
    pub seats: SeatsDef,
    /// Zones; a per-seat zone takes `seats` consecutive indices at run time.
    pub zones: Vec<ZoneDef>,
    /// Game variables (global or per seat).
    pub vars: Vec<VarDef>,
    /// Variables whose sum is conserved (`ledger`).
    pub ledger: Vec<u16>,
    /// Variables `fuda play` shows on the table after the ledger (`display`).
    pub display: Vec<u16>,
    /// Every move's name, once each: what `claimed(NAME)` and an option's `name_id` index.
    pub move_names: Vec<String>,
    /// Patterns.
    pub patterns: Vec<PatternDef>,
    /// Score tables.
    pub scores: Vec<ScoreDef>,
    /// Procedures; `entry` is `match`.
    pub procs: Vec<ProcDef>,
    /// Index of `proc match`.
    pub entry: Option<u16>,
    /// In-file tests.
    pub tests: Vec<TestDef>,
    /// Named outcome labels seen in `outcome` statements, for statistics.
    pub outcomes: Vec<String>,
    /// Word lists, each compiled for an attribute it is spelled with
    /// (`word(熟語, g, kanji)` reads `words[i]`).
    pub words: Vec<WordIndex>,
    /// The patterns whose fit tables the board keeps a running sum for, zone by zone
    /// (those of the [`HandGuard`]s, at most [`MAX_FIT_TRACKS`]): a guard then reads
    /// its hand's table entry instead of adding up the hand's cards.
    pub fit_tracks: Vec<u16>,
    /// The program's register-machine code, lowered on first use (see [`crate::vm`]).
    pub vm: crate::vm::Cache,
    /// The cards some pattern's group counts as wild: `.attr` of a set of cards reads
    /// its first card outside these (the value a group with wild cards stands for),
    /// when it has one.
    pub wild: CardSet,
}

/// The most fit tables the board keeps running sums for (each card move updates each).
pub const MAX_FIT_TRACKS: usize = 2;

impl Program {
    /// The `ledger`'s variables as messages name them: `chips + pot`.
    pub fn ledger_names(&self) -> String {
        self.ledger
            .iter()
            .filter_map(|v| self.vars.get(*v as usize).map(|d| d.name.as_str()))
            .collect::<Vec<_>>()
            .join(" + ")
    }

    /// The text of a symbol.
    pub fn sym(&self, s: u32) -> &str {
        self.symbols
            .get(s as usize)
            .map(|s| s.as_str())
            .unwrap_or("?")
    }

    /// The index of a proc by name.
    pub fn proc_named(&self, name: &str) -> Option<u16> {
        self.procs
            .iter()
            .position(|p| p.name == name)
            .map(|i| i as u16)
    }

    /// The index of a score table by name.
    pub fn score_named(&self, name: &str) -> Option<u16> {
        self.scores
            .iter()
            .position(|p| p.name == name)
            .map(|i| i as u16)
    }
}

/// An enum type.
#[derive(Clone, Debug)]
pub struct EnumDef {
    /// Name.
    pub name: String,
    /// Its values as symbols, with their aliases.
    pub values: Vec<(u32, Vec<String>)>,
}

/// A parameter.
#[derive(Clone, Debug)]
pub struct ParamDef {
    /// Name.
    pub name: String,
    /// Type.
    pub ty: Type,
    /// Default value.
    pub default: Value,
    /// The default's expression when it reads other parameters (`param 倍: int = 人 * 2`):
    /// each game computes it from the values it is given (see
    /// [`crate::engine::param_values`]); `default` holds its value for their defaults.
    pub default_expr: Option<Expr>,
    /// Allowed range.
    pub range: Option<(i64, i64)>,
    /// Documentation.
    pub doc: String,
    /// Where declared.
    pub loc: Loc,
}

/// The most seats a game may have (the checker refuses more): the engine and the
/// register machine size per-seat tables by it.
pub const MOST_SEATS: usize = 16;

/// Seats: how many and their role names.
#[derive(Clone, Debug)]
pub struct SeatsDef {
    /// Seat count (evaluated with parameters only).
    pub count: Expr,
    /// Role names from the dealer on, per seat count.
    pub roles: Vec<(usize, Vec<String>)>,
}

pub use fuda_grammar::ast::{Order, Owner, Visibility};

/// A zone (or a family of per-seat zones).
#[derive(Clone, Debug)]
pub struct ZoneDef {
    /// Name.
    pub name: String,
    /// Shared or per seat.
    pub owner: Owner,
    /// Stack or pile.
    pub order: Order,
    /// Who sees it.
    pub visibility: Visibility,
}

/// A game variable.
#[derive(Clone, Debug)]
pub struct VarDef {
    /// Name.
    pub name: String,
    /// Type.
    pub ty: Type,
    /// One per seat?
    pub per_seat: bool,
    /// One per card of the deck (`per card`): then `ty` is a list with an item for each
    /// card, read and assigned by card (`v[c]`).
    pub per_card: bool,
    /// One per value of this enum (`per 構成`, by the enum's index): then `ty` is a list
    /// with an item for each value, in the enum's order, read and assigned by value.
    pub per_key: Option<u16>,
    /// Initial value (evaluated at game start).
    pub init: Expr,
    /// The initial value's expression, where an error in it is reported.
    pub loc: Loc,
}

/// A compiled pattern: an exact split of a multiset into groups.
#[derive(Clone, Debug)]
pub struct PatternDef {
    /// Name.
    pub name: String,
    /// Groups; a `*N` group appears as N consecutive slots with `copy_of` set.
    pub slots: Vec<SlotDef>,
    /// Whole-match constraints (see groups through [`Expr::Group`]).
    pub requires: Vec<Expr>,
    /// Total cards a match takes.
    pub size: usize,
    /// A cheap necessary condition checked before searching, when the shapes allow one.
    pub prefilter: Option<Prefilter>,
    /// Local slots the constraints need.
    pub frame: u16,
    /// The cards the pattern can tell from their copies (it names some copies of their
    /// face and not others): `waits` asks about each of these, and about one copy of
    /// every other face (`compile/copies.rs`). Every card until the program is final.
    pub told_apart: CardSet,
    /// Whether anything uses it (a score table, a guard or rule, a `waits`, another
    /// pattern): the greedy player aims only at used patterns, so that a library's
    /// patterns a ruleset leaves aside do not steer it (`compile/unused.rs`).
    pub used: bool,
    /// For `pattern NAME = A | B | …`: the patterns it stands for, each with where its
    /// groups go among `slots` (then the union of their groups by name, with no shapes
    /// of its own). Empty for a pattern with groups.
    pub alternatives: Vec<Alternative>,
    /// How a hand is decided by its counts, when it can be (`pattern/by_counts.rs`):
    /// set when the program is final.
    pub counts: Option<std::sync::Arc<crate::pattern::CountsPlan>>,
    /// Where declared.
    pub loc: Loc,
}

/// One pattern of a `pattern NAME = A | B | …`, and where each of its groups goes in
/// the union's groups.
#[derive(Clone, Debug)]
pub struct Alternative {
    /// The pattern.
    pub pattern: u16,
    /// For each of its slots, the union's slot.
    pub slots: Vec<u16>,
}

impl PatternDef {
    /// Whether this is a `pattern NAME = A | B | …`.
    pub fn is_union(&self) -> bool {
        !self.alternatives.is_empty()
    }
}

/// When every group is `same ATTR` on one attribute: the cards of each attribute value,
/// and the group sizes. A hand can only match if its count in every class is a sum of
/// some of the sizes, each size used once overall.
#[derive(Clone, Debug)]
pub struct Prefilter {
    /// Cards with each value of the attribute.
    pub classes: Vec<CardSet>,
    /// Group sizes, largest first.
    pub sizes: Vec<usize>,
    /// For each slot, the sizes of it and the slots after it, largest first.
    pub suffix: Vec<Vec<usize>>,
    /// The pattern's `require`s as far as the groups' classes settle them.
    pub requires: Option<crate::score::Plan>,
    /// Whether a hand may fit, by its class counts, when the classes are few enough
    /// to list every count (set once the pattern is complete).
    pub table: Option<std::sync::Arc<crate::pattern::FitTable>>,
}

/// One group slot of a pattern.
#[derive(Clone, Debug)]
pub struct SlotDef {
    /// Group name.
    pub name: String,
    /// Cards in the group.
    pub size: usize,
    /// Alternative shapes (empty: any).
    pub shapes: Vec<ShapeDef>,
    /// Extra condition.
    pub condition: Option<Expr>,
    /// For the 2nd.. copies of a `*N` group: the first slot's index (copies are unordered).
    pub copy_of: Option<usize>,
    /// The cards its condition lets it hold at all (`where all(c in G: c is 幺九)`), as
    /// far as a per-card part of it says; every card otherwise (`compile/allowed.rs`).
    pub allowed: CardSet,
    /// `wild NAME`: the cards that stand for any value in its `same` and `run` shapes
    /// (empty: none). A group with wild cards is searched by `pattern/wild.rs`, and no
    /// shortcut that assumes a group lies in one class is taken for its pattern.
    pub wild: CardSet,
}

/// A compiled group shape.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeDef {
    /// All cards share attribute `attr`.
    Same(u16),
    /// Consecutive values of `attr`, all sharing `by` (if any).
    Run(u16, Option<u16>),
    /// All values of `attr` differ.
    Distinct(u16),
}

/// A compiled score table.
#[derive(Clone, Debug)]
pub struct ScoreDef {
    /// Name.
    pub name: String,
    /// Parameters: name, type and default (the first is usually the cards).
    pub params: Vec<(String, Type, Option<Expr>)>,
    /// `over PATTERN(arg) best`.
    pub over: Option<(u16, Expr, bool)>,
    /// `over PATTERN(arg, formed)`: the groups already formed (a list of card sets).
    pub formed: Option<Expr>,
    /// Stages in order.
    pub stages: Vec<StageDef>,
    /// Local slots: params first, then `yaku`, `factor`, then binders.
    pub frame: u16,
    /// Slot holding the current yaku name (a symbol) during later stages.
    pub yaku_slot: u16,
    /// Slot holding the running factor.
    pub factor_slot: u16,
    /// Over a pattern of alternatives: the slot holding the name of the one whose split
    /// is being scored (`shape`).
    pub shape_slot: Option<u16>,
    /// Slot holding `base`, the sum of the yaku values, from the first stage after
    /// the yaku and void stages on (0 before).
    pub base_slot: u16,
    /// The rows' conditions (stage by stage, row by row) as far as the classes of the
    /// pattern's groups settle them.
    pub plan: Option<crate::score::Plan>,
    /// Whether the table pays, by a hand's class counts, for the tables a win guard
    /// asks exactly (set once the program is complete: `compile/guards.rs`).
    pub by_counts: Option<std::sync::Arc<crate::score::ByCounts>>,
    /// Where declared.
    pub loc: Loc,
}

pub use fuda_grammar::ast::StageMode;

/// A compiled score stage.
#[derive(Clone, Debug)]
pub enum StageDef {
    /// Yaku rows: name symbol, value, condition.
    Yaku(StageMode, Vec<(u32, Expr, Expr)>),
    /// Factor rows: factor, condition.
    Times(StageMode, Vec<(Expr, Expr)>),
    /// Additions after multiplying: name symbol, value, condition.
    Plus(StageMode, Vec<(u32, Expr, Expr)>),
    /// Naming rows: a fixed name symbol or a template, and a condition.
    Name(Vec<(NameDef, Expr)>),
    /// Cancellations: yaku symbol, condition.
    Void(Vec<(u32, Expr)>),
}

/// A result name: fixed, or a template with `{yaku}` and `{factor}`.
#[derive(Clone, Debug)]
pub enum NameDef {
    /// A symbol.
    Fixed(u32),
    /// A template string.
    Template(String),
}

/// A compiled procedure.
#[derive(Clone, Debug)]
pub struct ProcDef {
    /// Name.
    pub name: String,
    /// Parameter count (they take the first local slots).
    pub arity: u16,
    /// The parameters' names, in order: what `fuda score --settle` asks for by name.
    pub params: Vec<String>,
    /// Total local slots.
    pub frame: u16,
    /// The type each local slot is bound with (parameters first; a hidden slot, such as
    /// a loop's counter, is `Type::Error`): what `vm/` keeps each local as.
    pub slots: Vec<crate::value::Type>,
    /// Flat code.
    pub code: Vec<Op>,
    /// The source statement of each op, for run-time errors.
    pub locs: Vec<Loc>,
    /// Each op's fast form, parallel to `code` (filled by the last compile pass,
    /// `compile/quick_ops.rs`; an op past its end runs in full).
    pub quick: Vec<QuickOp>,
    /// Where declared.
    pub loc: Loc,
}

/// A compiled in-file test.
#[derive(Clone, Debug)]
pub struct TestDef {
    /// Its name.
    pub name: String,
    /// Parameter overrides.
    pub with: Vec<(u16, Value)>,
    /// Its body, run like a proc.
    pub body: ProcDef,
    /// Where declared.
    pub loc: Loc,
}

/// A seat-indexed or plain variable target.
#[derive(Clone, Debug)]
pub enum Target {
    /// A local slot.
    Local(u16),
    /// A global variable.
    Var(u16),
    /// A per-seat variable at a seat.
    SeatVar(u16, Box<Expr>),
    /// One item of a shared list variable, by its position or, for a `per card`
    /// variable, by the card (`v[i] = …`, `出し手[c] = s`).
    Item(u16, Box<Expr>),
    /// The dealer.
    Dealer,
}

/// One step of procedure code.
#[derive(Clone, Debug)]
pub enum Op {
    /// Evaluate into a local slot.
    Let(u16, Expr),
    /// Assign (`=`, `+=`, `-=`) to a target.
    Assign(Target, fuda_grammar::ast::AssignOp, Expr, Loc),
    /// Unconditional jump.
    Jump(u32),
    /// Jump when the condition is false.
    JumpIfNot(Expr, u32),
    /// Start a `for`: evaluate the domain into `list` slot and reset `index` slot.
    ForStart { list: u16, index: u16, domain: Expr },
    /// Next `for` element into `var`, or jump to `exit`.
    ForNext {
        list: u16,
        index: u16,
        var: u16,
        exit: u32,
    },
    /// Move cards (a card, a set, or a zone's contents) to a zone.
    Move(Expr, Expr, Loc),
    /// Shuffle a zone.
    Shuffle(Expr, Loc),
    /// Cut a zone at a random point, optionally setting aside the lower half's top card.
    Cut(Expr, Option<Expr>, Loc),
    /// Deal rounds of cards.
    Deal {
        counts: Vec<Expr>,
        from: Expr,
        to: Expr,
        start: Option<Expr>,
        loc: Loc,
    },
    /// Every card into one zone.
    Gather(Expr, Loc),
    /// A decision (see [`Decide`]).
    Decide(Box<Decide>),
    /// The end of an option body of the decision at code index `decide`.
    OptionDone { decide: u32 },
    /// `decline` in the body of a claim of the claim window at code index `decide`: the
    /// window goes to its next claim, or ends when none is left.
    Decline { decide: u32 },
    /// Transfer an amount between targets.
    Pay {
        amount: Expr,
        from: PayFrom,
        to: Target,
        loc: Loc,
    },
    /// Label the round's outcome.
    Outcome(Expr),
    /// Count a score result for a seat in statistics.
    Record(Expr, Expr),
    /// Choose the dealer by drawing cards: the keys, each `(lowest, attribute)`, the
    /// first deciding and each next one breaking the ties left (see
    /// `Board::dealer_by_draw`).
    DealerByDraw { keys: Box<[(bool, u16)]> },
    /// Reveal a zone to everyone.
    Reveal(Expr),
    /// `reveal CARDS` (さらす): the cards are shown to everyone, where they lie, until
    /// the next `gather`.
    Show(Expr),
    /// A message for the game log.
    Say(Expr),
    /// A test assertion.
    Expect(Expr, Loc),
    /// A rule's own check: stop with the message when the condition fails.
    Require(Expr, Option<String>, Loc),
    /// Count a value under a label in statistics.
    Tally(String, Expr, Option<Expr>),
    /// Queue a test's answer for the next decision: move name and argument.
    Answer(String, Option<Expr>),
    /// Call a procedure with arguments.
    Call(u16, Vec<Expr>, Loc),
    /// Return from the procedure.
    Return,
    /// Call a procedure that returns a value: its arguments, and the caller's local
    /// slot that [`Op::ReturnValue`] writes the value to.
    CallValue(u16, Vec<Expr>, u16, Loc),
    /// Return from the procedure with a value, written to the slot of the
    /// [`Op::CallValue`] that called it (dropped after a plain [`Op::Call`]).
    ReturnValue(Expr),
}

/// Who pays in a `pay`.
#[derive(Clone, Debug)]
pub enum PayFrom {
    /// One target.
    One(Target),
    /// Each seat of a list pays from per-seat variable `var`.
    Each(u16, Expr),
}

/// The most cards one word can take: a word has at most this many characters, and a
/// card's value spells at least one of them.
pub const MAX_WORD_CARDS: usize = 32;

/// A word list compiled for one symbol attribute: every way its words can be spelled,
/// as the sorted symbol ids of the cards' values, so testing cards is a sort of a few
/// ids and a binary search.
#[derive(Clone, Debug)]
pub struct WordIndex {
    /// The list's name.
    pub list: String,
    /// The attribute whose values spell the words.
    pub attr: u16,
    /// `keys[n]`: the spellings with n cards, each n sorted symbol ids, one after
    /// another, the runs in increasing order. Shared, so a program clones cheaply.
    pub keys: Arc<[Box<[u32]>]>,
}

impl WordIndex {
    /// Whether the values of `attr` on `cards`, in some order, spell a word of the list.
    /// Allocates nothing; the work is bounded by [`MAX_WORD_CARDS`].
    pub fn spells(&self, deck: &Deck, cards: CardSet) -> bool {
        let n = cards.len();
        if n == 0 || n >= self.keys.len() || n > MAX_WORD_CARDS {
            return false;
        }
        let mut ids = [0u32; MAX_WORD_CARDS];
        for (slot, c) in ids.iter_mut().zip(cards.iter()) {
            *slot = deck.attr(self.attr, c) as u32;
        }
        let ids = &mut ids[..n];
        ids.sort_unstable();
        self.contains(ids)
    }

    /// Whether `sorted` (symbol ids in increasing order) is a spelling of a word.
    pub fn contains(&self, sorted: &[u32]) -> bool {
        let n = sorted.len();
        let Some(runs) = self.keys.get(n) else {
            return false;
        };
        if n == 0 {
            return false;
        }
        let (mut lo, mut hi) = (0, runs.len() / n);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match runs[mid * n..(mid + 1) * n].cmp(sorted) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return true,
            }
        }
        false
    }
}
