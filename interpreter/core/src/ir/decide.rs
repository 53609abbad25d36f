//! Decisions as compiled: who decides, the options with their guards and bodies, and
//! the plans the engine uses to count and pick moves without listing them.

use super::{Expr, Loc, QuickCond, QuickZone};

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
    /// A claim window some body of which may `decline`: the claims after the one taken
    /// are then kept for it (windows without are taken as before, listing nothing).
    pub declines: bool,
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
    /// The name's index in `Program::move_names`.
    pub name_id: u32,
    /// Display label.
    pub label: Option<String>,
    /// Parameter slot and domain (a card set/zone, a list or an int range).
    pub param: Option<(u16, Expr)>,
    /// Guard.
    pub guard: Option<Expr>,
    /// Where the domain and each part of the guard are written (a guard `a and b and c`
    /// has three parts, the compiled guard that many `and` leaves): what a refused move
    /// is told, see `engine::State::why_not`.
    pub written: Written,
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

/// Where a move's domain and guard are written, for telling why a move is refused.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// The domain (`sets(手牌[s], 3, 3, face)`).
    pub domain: Option<Loc>,
    /// Each part of the guard's top `and` chain, left to right (one for any other guard).
    pub guard: Vec<Loc>,
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
    /// The pattern's place in [`Program::fit_tracks`](crate::ir::Program::fit_tracks), when the board keeps its fit
    /// table's sums.
    pub track: Option<u8>,
    /// The score table.
    pub table: u16,
    /// Whether the guard is exactly "the table pays on the hand" (`total > 0` or
    /// `total >= 1`, every other argument a constant) and the table answers that off
    /// its plans ([`crate::score::pays`]), so a hand that may fit needs no evaluation.
    pub exact: bool,
}
