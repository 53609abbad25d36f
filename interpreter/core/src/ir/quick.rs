//! Ops' fast forms: the op shapes every turn runs, with their operands resolved to
//! local slots and zones when the program is built (read by `engine/quicken.rs`).

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
    /// hand ([`HandGuard`](crate::ir::HandGuard)): when no asked seat's hand can fit, nobody can claim, and
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
