//! The compiled forms the engine runs: interned names, card indices, slot-resolved
//! expressions and flat procedure code. Nothing here refers back to the syntax tree.

use std::sync::Arc;

use crate::model::{CardIx, CardSet, Deck};
use crate::value::{Type, Value};
use fuda_grammar::Span;

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
}

/// The most fit tables the board keeps running sums for (each card move updates each).
pub const MAX_FIT_TRACKS: usize = 2;

impl Program {
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
    /// Allowed range.
    pub range: Option<(i64, i64)>,
    /// Documentation.
    pub doc: String,
    /// Where declared.
    pub loc: Loc,
}

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
    /// Initial value (evaluated at game start).
    pub init: Expr,
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
    /// Where declared.
    pub loc: Loc,
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
    /// Stages in order.
    pub stages: Vec<StageDef>,
    /// Local slots: params first, then `yaku`, `factor`, then binders.
    pub frame: u16,
    /// Slot holding the current yaku name (a symbol) during later stages.
    pub yaku_slot: u16,
    /// Slot holding the running factor.
    pub factor_slot: u16,
    /// The rows' conditions (stage by stage, row by row) as far as the classes of the
    /// pattern's groups settle them.
    pub plan: Option<crate::score::Plan>,
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
    /// Total local slots.
    pub frame: u16,
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

/// An op's fast form: the shapes every turn runs (`if s == dealer`, `let c = top(山札)`,
/// `move c to 手札[s]`, `s = next(s)`, `巡 += 1`, jumps) with their operands resolved once,
/// when the program is built, to local slots and zones. The engine runs the form
/// straight off the board when the values are the usual ones, and the op in full
/// otherwise, so a fast form never changes what an op means.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum QuickOp {
    /// No fast form: the op runs in full.
    Full,
    /// Jump.
    Jump(u32),
    /// Jump when the comparison is false.
    JumpUnless(QuickCond, u32),
    /// `let slot = top(zone)`.
    LetTop { slot: u16, zone: QuickZone },
    /// `let slot = other local`.
    LetLocal { slot: u16, from: u16 },
    /// `move card to zone`, the card held in a local.
    MoveCard { card: u16, to: QuickZone },
    /// `slot = next(from)`, both locals holding seats.
    NextSeat { slot: u16, from: u16 },
    /// `var += by` on a shared int variable.
    AddVar { var: u16, by: i64 },
    /// The end of an option body of the decision at `decide`, which goes on at `after`
    /// when no move chosen at once by the same decision waits to run.
    OptionDone { decide: u32, after: u32 },
    /// A claim window over `others(from)` (`from` a local holding a seat) whose every
    /// option takes no argument and is guarded by a score table on the asked seat's
    /// hand ([`HandGuard`]): when no asked seat's hand can fit, nobody can claim, and
    /// the rules go on at `after` without offering anything.
    NoClaim { from: u16, after: u32 },
}

/// A zone a fast op names: a shared zone, or a per-seat zone at the seat in a local.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuickZone {
    /// A shared zone (declared index).
    Shared(u16),
    /// A per-seat zone (declared index) at the seat held in a local slot.
    Seat(u16, u16),
}

/// A comparison of two numbers a fast op reads off the board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuickCond {
    /// Which comparison.
    pub cmp: QuickCmp,
    /// Left operand.
    pub a: QuickNum,
    /// Right operand.
    pub b: QuickNum,
}

/// The comparisons of a [`QuickCond`]: `==` and `!=` compare any two scalars of one kind
/// by their numbers (seats, cards, bools, symbols, ints); the others only ints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuickCmp {
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
}

/// An operand of a [`QuickCond`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuickNum {
    /// A constant's number.
    Const(i64),
    /// A local slot's value.
    Local(u16),
    /// The dealer's seat.
    Dealer,
    /// A shared variable holding an int.
    Var(u16),
    /// How many cards a zone holds.
    Count(QuickZone),
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
    /// Choose the dealer by drawing cards.
    DealerByDraw { lowest: bool, attr: u16 },
    /// Reveal a zone to everyone.
    Reveal(Expr),
    /// A message for the game log.
    Say(Expr),
    /// A test assertion.
    Expect(Expr, Loc),
    /// A rule's own check: stop with the message when the condition fails.
    Require(Expr, Option<String>, Loc),
    /// Count a value under a label in statistics.
    Tally(String, Expr),
    /// Queue a test's answer for the next decision: move name and argument.
    Answer(String, Option<Expr>),
    /// Call a procedure with arguments.
    Call(u16, Vec<Expr>, Loc),
    /// Return from the procedure.
    Return,
}

/// Who pays in a `pay`.
#[derive(Clone, Debug)]
pub enum PayFrom {
    /// One target.
    One(Target),
    /// Each seat of a list pays from per-seat variable `var`.
    Each(u16, Expr),
}

/// The kind of decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecideKind {
    /// One seat chooses.
    One,
    /// Every listed seat chooses at once; bodies run in list order.
    Each,
    /// Listed seats may claim or pass; the highest priority, then list order, wins.
    Claim,
}

/// A compiled decision point.
#[derive(Clone, Debug)]
pub struct Decide {
    /// One, each, or claim.
    pub kind: DecideKind,
    /// The deciding seat (`One`) or the seat list (`Each`, `Claim`).
    pub who: Expr,
    /// Slot bound to the deciding seat (`Each`, `Claim`).
    pub seat_slot: Option<u16>,
    /// The moves on offer.
    pub options: Vec<OptionDef>,
    /// Code index after the whole decision.
    pub after: u32,
    /// Where written.
    pub loc: Loc,
    /// Bit `i` set when option `i` may end the round, bit 63 for any option from the
    /// 63rd on (set with the options' `ends_round` by `compile/ends.rs`; see
    /// `engine::Pending::ends`).
    pub ends: u64,
    /// How a player lent to the engine has this `choose` counted and picked without
    /// listing its moves (set by `compile/quick_ops.rs`); `None` for any other decision.
    pub pick: Option<PickPlan>,
}

/// The most options a [`PickPlan`] has (the engine keeps a count per option on its
/// stack).
pub const PICK_OPTIONS: usize = 8;

/// A `choose` whose moves the engine can count without listing them: the deciding
/// seat read off a local or the dealer, and each option either without an argument or
/// over a zone's cards (see `engine::State::pick_one`).
#[derive(Clone, Debug, PartialEq)]
pub struct PickPlan {
    /// The deciding seat.
    pub who: QuickSeat,
    /// One entry per option, in option order.
    pub options: Box<[PickOption]>,
}

/// A seat a fast form reads: a local holding a seat, or the dealer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuickSeat {
    /// The seat in a local slot.
    Local(u16),
    /// The dealer.
    Dealer,
}

/// One option of a [`PickPlan`]: how its moves are counted, and whether it may end
/// the round (the option's `ends_round`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PickOption {
    /// How its moves are counted.
    pub count: PickCount,
    /// The option may end the round.
    pub ends: bool,
}

/// How a [`PickOption`]'s moves are counted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PickCount {
    /// No argument and no guard: one move.
    One,
    /// No argument and a [`HandGuard`]: none when the hand cannot fit, else the guard
    /// decides.
    Hand(HandGuard),
    /// No argument and a guard that compares numbers read off the board.
    Quick(QuickCond),
    /// No argument and any other guard, asked in full.
    Guard,
    /// One move per card of a zone, or per card but the one held in local `left_out`
    /// (a `d != t` guard).
    Cards {
        /// The zone.
        zone: QuickZone,
        /// The local holding the card the guard leaves out.
        left_out: Option<u16>,
    },
}

/// One move of a decision.
#[derive(Clone, Debug)]
pub struct OptionDef {
    /// Name.
    pub name: String,
    /// Display label.
    pub label: Option<String>,
    /// Parameter slot and domain (a card set/zone, a list or an int range).
    pub param: Option<(u16, Expr)>,
    /// Guard.
    pub guard: Option<Expr>,
    /// Claim priority.
    pub priority: i64,
    /// Code index of the body.
    pub body: u32,
    /// The body may reach `outcome` or `record` before the next decision: taking the
    /// move ends the round (a declared win, for agents).
    pub ends_round: bool,
    /// The guard's hand, when the guard asks whether a score table pays on it (set by
    /// the last compile pass, `compile/guards.rs`).
    pub hand_guard: Option<HandGuard>,
    /// The guard as a comparison of numbers read off the board (`count(捨て札) > 0`),
    /// when it is one (set by `compile/quick_ops.rs`).
    pub quick_guard: Option<QuickCond>,
    /// The local `t` when the guard is `d != t` on the move's card `d`, the card it
    /// leaves out of the move's zone (set by `compile/quick_ops.rs`).
    pub left_out: Option<u16>,
}

/// A guard `TABLE(ZONE[s]).total > k` or `TABLE(ZONE[s] + c).total > k` (`k >= 0`, the
/// table's other arguments left to their defaults or given) compiled to where its hand
/// lies: the guard is false whenever that hand cannot fit the table's pattern, which
/// the engine tests on the board before evaluating anything (most hands a guard is
/// asked about, every turn, fail this test).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandGuard {
    /// The pattern the table splits its hand with.
    pub pattern: u16,
    /// The per-seat zone holding the hand.
    pub zone: u16,
    /// The local slot holding the seat.
    pub seat: u16,
    /// The local slot holding a card (or cards) added to the zone's, if any.
    pub plus: Option<u16>,
    /// The pattern's place in [`Program::fit_tracks`], when the board keeps its fit
    /// table's sums.
    pub track: Option<u8>,
    /// The score table.
    pub table: u16,
    /// Whether the guard is exactly "the table pays on the hand" (`total > 0` or
    /// `total >= 1`, every other argument a constant) and the table answers that off
    /// its plans ([`crate::score::pays`]), so a hand that may fit needs no evaluation.
    pub exact: bool,
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

/// Builtin functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// Number of cards / elements.
    Count,
    /// Same as count, for lists.
    Len,
    /// Top card of a zone.
    Top,
    /// Whether a zone or set is empty.
    Empty,
    /// The seat after.
    Next,
    /// The seat before.
    Prev,
    /// All seats except one, from the next on.
    Others,
    /// All seats from the dealer on.
    Seats,
    /// Number of seats.
    Players,
    /// Seats with the highest value of a per-seat int variable, from the dealer on.
    Leaders,
    /// The role name of a seat.
    Role,
    /// Same-attribute pairs in a set: Σ ⌊n/2⌋ over attribute values.
    Pairs,
    /// Smaller of two ints.
    Min,
    /// Larger of two ints.
    Max,
    /// Absolute value.
    Abs,
    /// Integer division rounding up.
    CeilDiv,
    /// Whether a pattern matches a set.
    Matches,
    /// Cards of a set with a tag.
    Tagged,
    /// Whether the cards' values spell a word of [`Program::words`]`[i]` in some order.
    Word(u16),
    /// The cards of the deck that, added to a set, make pattern `i` match: a hand's
    /// waits ("one card from a win").
    Waits(u16),
}

/// Quantifier/comprehension kinds (`count(x in D: P)` …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinderKind {
    /// How many elements satisfy.
    Count,
    /// Sum of the body.
    Sum,
    /// Every element satisfies.
    All,
    /// Some element satisfies.
    Any,
    /// The cards that satisfy (domain must be cards).
    Filter,
    /// Largest body value (0 when empty).
    Max,
    /// Smallest body value (0 when empty).
    Min,
}

/// Typed operators, chosen by the compiler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op2 {
    /// Integer arithmetic.
    Add,
    /// Integer arithmetic.
    Sub,
    /// Integer arithmetic.
    Mul,
    /// Floor division (error on zero).
    Div,
    /// Euclidean remainder (error on zero).
    Rem,
    /// Equality of any two values of one type.
    Eq,
    /// Inequality.
    Ne,
    /// Equality of two scalars of one kind (ints and seats, cards, bools, symbols),
    /// compared unboxed.
    EqScalar,
    /// Inequality of two scalars of one kind.
    NeScalar,
    /// Int comparison.
    Lt,
    /// Int comparison.
    Le,
    /// Int comparison.
    Gt,
    /// Int comparison.
    Ge,
    /// Card in a set, value in a list.
    In,
    /// A card in a card set (the compiler knows both types).
    InCards,
    /// Card set union (or adding a card).
    Union,
    /// Card set difference (or removing a card).
    Minus,
    /// String or symbol concatenation for `say`.
    Concat,
}

/// A compiled expression.
#[derive(Clone, Debug)]
pub enum Expr {
    /// A constant.
    Const(Value),
    /// A local slot.
    Local(u16),
    /// A parameter's value.
    Param(u16),
    /// A global variable.
    Var(u16),
    /// A per-seat variable at a seat.
    SeatVar(u16, Box<Expr>),
    /// The dealer seat.
    Dealer,
    /// A shared zone.
    Zone(u16),
    /// A per-seat zone at a seat.
    SeatZone(u16, Box<Expr>),
    /// A per-seat zone family (for `deal … to 手札`).
    ZoneFamily(u16),
    /// A named card set.
    Cards(CardSet),
    /// A group of the pattern match being scored.
    Group(u16),
    /// A list.
    List(Vec<Expr>),
    /// `lo..hi`.
    Range(Box<Expr>, Box<Expr>),
    /// Unary minus.
    Neg(Box<Expr>),
    /// `not`.
    Not(Box<Expr>),
    /// Short-circuit `and`.
    And(Box<Expr>, Box<Expr>),
    /// Short-circuit `or`.
    Or(Box<Expr>, Box<Expr>),
    /// Binary typed op.
    Bin(Op2, Box<Expr>, Box<Expr>),
    /// `card.attr`.
    Attr(u16, Box<Expr>),
    /// The common value of `attr` over a group (for `same attr` groups).
    GroupAttr(u16, Box<Expr>),
    /// `card is tag`.
    HasTag(u16, Box<Expr>),
    /// A score result's field.
    ScoreField(ScoreField, Box<Expr>),
    /// `list[i]`.
    Index(Box<Expr>, Box<Expr>),
    /// A builtin call.
    Call(Builtin, Vec<Expr>, Loc),
    /// A pattern test: `matches(P, cards)`.
    PatternTest(u16, Box<Expr>),
    /// A score table call: table index and arguments (all params, defaults filled in).
    Score(u16, Vec<Expr>, Loc),
    /// A quantifier over a domain with the element bound to a local slot; the flag says
    /// the body only asks the card's class (attribute, tag or identity tests against
    /// values that do not depend on it), so a card-set domain is answered with set
    /// operations. It is set once the program is final (`compile/classes.rs`).
    Binder(BinderKind, u16, Box<Expr>, Box<Expr>, bool),
    /// `let slot = value in body` (from inlined `def` calls).
    LetIn(u16, Box<Expr>, Box<Expr>),
    /// `if c then a else b`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// As a move's guard on its card `d` (in `slot`): the local `t` when the guard is
    /// `d != t` (either way round), the card the guard leaves out of the move's zone.
    #[inline]
    pub fn leaves_out(&self, slot: u16) -> Option<u16> {
        let Expr::Bin(Op2::NeScalar, x, y) = self else {
            return None;
        };
        match (&**x, &**y) {
            (Expr::Local(a), Expr::Local(t)) | (Expr::Local(t), Expr::Local(a))
                if *a == slot && *t != slot =>
            {
                Some(*t)
            }
            _ => None,
        }
    }

    /// Calls `f` on each direct child expression (every tree walk goes through here).
    pub fn children(&self, mut f: impl FnMut(&Expr)) {
        match self {
            Expr::SeatVar(_, x)
            | Expr::SeatZone(_, x)
            | Expr::Neg(x)
            | Expr::Not(x)
            | Expr::Attr(_, x)
            | Expr::GroupAttr(_, x)
            | Expr::HasTag(_, x)
            | Expr::ScoreField(_, x)
            | Expr::PatternTest(_, x) => f(x),
            Expr::Range(a, b)
            | Expr::And(a, b)
            | Expr::Or(a, b)
            | Expr::Bin(_, a, b)
            | Expr::Index(a, b)
            | Expr::Binder(_, _, a, b, _)
            | Expr::LetIn(_, a, b) => {
                f(a);
                f(b);
            }
            Expr::If(c, a, b) => {
                f(c);
                f(a);
                f(b);
            }
            Expr::List(items) | Expr::Call(_, items, _) | Expr::Score(_, items, _) => {
                items.iter().for_each(f)
            }
            Expr::Const(_)
            | Expr::Local(_)
            | Expr::Param(_)
            | Expr::Var(_)
            | Expr::Dealer
            | Expr::Zone(_)
            | Expr::ZoneFamily(_)
            | Expr::Cards(_)
            | Expr::Group(_) => {}
        }
    }

    /// Calls `f` on each direct child expression, for rewriting in place.
    pub fn children_mut(&mut self, mut f: impl FnMut(&mut Expr)) {
        match self {
            Expr::SeatVar(_, x)
            | Expr::SeatZone(_, x)
            | Expr::Neg(x)
            | Expr::Not(x)
            | Expr::Attr(_, x)
            | Expr::GroupAttr(_, x)
            | Expr::HasTag(_, x)
            | Expr::ScoreField(_, x)
            | Expr::PatternTest(_, x) => f(x),
            Expr::Range(a, b)
            | Expr::And(a, b)
            | Expr::Or(a, b)
            | Expr::Bin(_, a, b)
            | Expr::Index(a, b)
            | Expr::Binder(_, _, a, b, _)
            | Expr::LetIn(_, a, b) => {
                f(a);
                f(b);
            }
            Expr::If(c, a, b) => {
                f(c);
                f(a);
                f(b);
            }
            Expr::List(items) | Expr::Call(_, items, _) | Expr::Score(_, items, _) => {
                items.iter_mut().for_each(f)
            }
            Expr::Const(_)
            | Expr::Local(_)
            | Expr::Param(_)
            | Expr::Var(_)
            | Expr::Dealer
            | Expr::Zone(_)
            | Expr::ZoneFamily(_)
            | Expr::Cards(_)
            | Expr::Group(_) => {}
        }
    }
}

/// Fields of a score result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreField {
    /// The amount.
    Total,
    /// The display name.
    Name,
    /// The factor applied.
    Factor,
    /// The base value before factors.
    Base,
    /// Number of yaku.
    Count,
}

/// A card id resolved to a card index, kept for messages.
pub type CardRef = (CardIx, String);
