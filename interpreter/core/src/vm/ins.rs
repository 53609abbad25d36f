//! The register machine's instructions and their operands: what `lower` emits and
//! `machine` runs. Operands name registers of the running frame, board slots and zone
//! instances directly, so most rule statements are one instruction.

use crate::ir::Loc;

/// A register of the running frame, in one of its three files (numbers, card sets,
/// other values). A byte: a frame has 256 number registers, 256 card-set registers
/// and as many other-value registers as its procedure needs.
pub type Reg = u8;

/// A number read without an instruction of its own. Ints, bools, seats, cards and
/// symbols are all numbers in this machine (the checker has settled which is which).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    /// A constant.
    K(i64),
    /// A number register.
    R(Reg),
    /// A board variable's slot (`Board::vars`) holding a number.
    V(u16),
    /// A per-seat variable: its first slot, and the register holding the seat.
    SV(u16, Reg),
    /// The dealer's seat.
    Dealer,
    /// How many cards a zone instance holds.
    Count(Zr),
    /// A parameter's value (`Board::params`), a number.
    P(u16),
}

/// A zone instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zr {
    /// A fixed instance (a shared zone).
    I(u16),
    /// A per-seat zone: its first instance, and the register holding the seat.
    S(u16, Reg),
    /// The instance in a number register (a local holding a zone).
    R(Reg),
}

/// A card set read without an instruction of its own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Set {
    /// A constant set, by index into [`super::Image::sets`].
    K(u16),
    /// A zone instance's cards.
    Zone(Zr),
    /// A card-set register.
    R(Reg),
    /// A board variable's slot holding cards.
    V(u16),
    /// A per-seat card variable: its first slot, and the register holding the seat.
    SV(u16, Reg),
    /// The one card in a number register.
    Card(Reg),
}

/// A comparison of two numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cond {
    /// Left.
    pub a: Num,
    /// Which comparison.
    pub cmp: Cmp,
    /// Right.
    pub b: Num,
}

/// The comparisons of a [`Cond`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
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

impl Cmp {
    /// Whether `a <op> b`.
    #[inline(always)]
    pub fn test(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }

    /// The comparison that holds exactly when this one does not.
    pub fn negated(self) -> Cmp {
        match self {
            Cmp::Eq => Cmp::Ne,
            Cmp::Ne => Cmp::Eq,
            Cmp::Lt => Cmp::Ge,
            Cmp::Le => Cmp::Gt,
            Cmp::Gt => Cmp::Le,
            Cmp::Ge => Cmp::Lt,
        }
    }
}

/// A comparison with a constant (`count(山札) == 0`, `count(捨て札) > 0`) as a test of
/// one interval: whether `x - lo`, read unsigned, is at most `span`, or (`out`) whether
/// it is not. Every comparison with a constant is one of these, so it is tested in a
/// few instructions without a jump on its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Within {
    /// The interval's least value.
    lo: i64,
    /// How far above `lo` the interval reaches.
    span: u64,
    /// Whether the test holds outside the interval instead.
    out: bool,
}

impl Within {
    /// The test of `x <cmp> k`.
    pub fn of(cmp: Cmp, k: i64) -> Within {
        // `x >= k`: `x - k` is in `0..=MAX - k`, which an unsigned difference reads
        // exactly, and any `x < k` wraps past it.
        let at_least = |k: i64| Within {
            lo: k,
            span: i64::MAX.wrapping_sub(k) as u64,
            out: false,
        };
        // Every number: nothing is past the widest interval.
        let every = Within {
            lo: 0,
            span: u64::MAX,
            out: false,
        };
        match cmp {
            Cmp::Eq => Within {
                lo: k,
                span: 0,
                out: false,
            },
            Cmp::Ne => Within {
                lo: k,
                span: 0,
                out: true,
            },
            Cmp::Ge => at_least(k),
            Cmp::Lt => Within {
                out: true,
                ..at_least(k)
            },
            Cmp::Gt => match k.checked_add(1) {
                Some(k) => at_least(k),
                None => Within { out: true, ..every },
            },
            Cmp::Le => match k.checked_add(1) {
                Some(k) => Within {
                    out: true,
                    ..at_least(k)
                },
                None => every,
            },
        }
    }

    /// Whether `x` passes the test.
    #[inline(always)]
    pub fn test(self, x: i64) -> bool {
        (x.wrapping_sub(self.lo) as u64 <= self.span) != self.out
    }
}

/// Checked int arithmetic, as the rules' `+ - * / %` (division and remainder are
/// Euclidean, as the engine's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `%`.
    Rem,
}

/// Where a number is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A number register.
    R(Reg),
    /// A board variable's slot.
    V(u16),
    /// A per-seat variable: its first slot, and the register holding the seat.
    SV(u16, Reg),
    /// The dealer (a seat, checked).
    Dealer,
}

/// What kind of value a number is, to give it back to the engine's evaluator as a
/// [`crate::value::Value`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumKind {
    /// An int.
    Int,
    /// A bool (0 or 1).
    Bool,
    /// A seat.
    Seat,
    /// A card.
    Card,
    /// A symbol.
    Sym,
    /// A zone instance.
    Zone,
}

/// A value handed over whole (a procedure's or a score table's argument), by file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg {
    /// A number, of a kind.
    Num(Num, NumKind),
    /// A card set.
    Set(Set),
    /// An other-values register.
    Obj(Reg),
}

/// A seat list a loop or a payment walks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Seats {
    /// `seats()`: every seat from the dealer on.
    All,
    /// `others(s)`: every seat after `s`, round the table.
    Others(Num),
    /// A list value in an other-values register.
    List(Reg),
}

/// One instruction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ins {
    /// `to = v`, a number of kind `kind` (a seat stored as the dealer is checked).
    Store { to: Place, v: Num, kind: NumKind },
    /// `to += v`, checked.
    Add { to: Place, v: Num },
    /// `to -= v`, checked.
    Sub { to: Place, v: Num },
    /// `dst = a <op> b`, checked.
    Arith { dst: Reg, op: Arith, a: Num, b: Num },
    /// `dst = -a`, checked.
    Neg { dst: Reg, a: Num },
    /// `dst = (a <cmp> b)`.
    Test { dst: Reg, c: Cond },
    /// `dst = the seat after (or before) s`.
    NextSeat { dst: Reg, s: Num, back: bool },
    /// `dst = the cards of v`.
    SetCards { dst: Reg, v: Set },
    /// `a card variable's slot (for the seat in a register) = v`.
    StoreCards {
        slot: u16,
        seat: Option<Reg>,
        v: Set,
    },
    /// A board variable's slot (a seat's, for a per-seat variable) = another value: a
    /// list or a score result, from an other-values register.
    StoreObj {
        slot: u16,
        seat: Option<Reg>,
        r: Reg,
    },
    /// `v[index] op= arg` on a list variable's slot (`目標[番号(x)] = t`).
    SetItem {
        slot: u16,
        index: Num,
        arg: Arg,
        op: fuda_grammar::ast::AssignOp,
    },
    /// `dst = a ∪ b`.
    Union { dst: Reg, a: Set, b: Set },
    /// `dst = a − b`.
    Minus { dst: Reg, a: Set, b: Set },
    /// `dst = (a == b)` on card sets (`ne` negates it).
    SetEq { dst: Reg, a: Set, b: Set, ne: bool },
    /// `dst = how many cards v holds`.
    SetCount { dst: Reg, v: Set },
    /// `dst = (the card in c is in v)`.
    CardIn { dst: Reg, c: Num, v: Set },
    /// Jump.
    Jump(u32),
    /// Jump when the comparison is false.
    JumpUnless(Cond, u32),
    /// [`Ins::JumpUnless`] on a shared zone's count against a constant (`if count(山札)
    /// == 0`), its operands' kinds settled (`shapes.rs`).
    JumpUnlessCount { z: u16, holds: Within, to: u32 },
    /// [`Ins::JumpUnless`] on a number register against the dealer's seat (`if s ==
    /// dealer`), its operands' kinds settled (`shapes.rs`).
    JumpUnlessDealer { r: Reg, cmp: Cmp, to: u32 },
    /// [`Ins::MoveCard`] of the card in a register to a shared zone (a discard).
    MoveCardTo { c: Reg, to: u16 },
    /// [`Ins::MoveTop`] from a shared zone to a per-seat one (a draw into a hand):
    /// the per-seat zone's first instance and the register holding the seat.
    DrawTo {
        dst: Reg,
        from: u16,
        first: u16,
        seat: Reg,
    },
    /// [`Ins::Top`] of a shared zone.
    TopOf { dst: Reg, z: u16 },
    /// [`Ins::TopOf`] and the claim window of the usual shape that follows it (`let d =
    /// top(捨て札)` then `claim x in others(s) …`), in one: where the window goes on.
    /// The window's own instruction stays after it, for a jump that lands there.
    TopClaim { dst: Reg, z: u16, k: u16 },
    /// [`Ins::NextSeat`] forward from the seat in a register (`s = next(s)`).
    NextOf { dst: Reg, s: Reg },
    /// [`Ins::Add`] (or [`Ins::Sub`], `k` negated) of a constant to a board variable
    /// (`巡 += 1`): a count kept in place.
    AddVar { slot: u16, k: i64 },
    /// [`Ins::DrawTo`] and the [`Ins::PickOwn`] `k` right after it, in one (a draw,
    /// then declare or discard): where the rules go on. The decision's own instruction
    /// stays after it, for a jump that lands there (as each fused pair below).
    DrawOwn {
        dst: Reg,
        from: u16,
        first: u16,
        seat: Reg,
        k: u16,
    },
    /// [`Ins::MoveCardTo`] and the [`Ins::TopClaim`] right after it, in one (a
    /// discard, then the window on the pile's top): where the window goes on.
    DiscardClaim {
        c: Reg,
        to: u16,
        dst: Reg,
        z: u16,
        k: u16,
    },
    /// [`Ins::NextOf`] and the [`Ins::Jump`] right after it, in one (`s = next(s)` at
    /// the end of a loop's turn).
    NextOfJump { dst: Reg, s: Reg, to: u32 },
    /// [`Ins::NextOfJump`] to a [`Ins::JumpUnlessDealer`] (a loop whose turn begins
    /// with `if s == dealer`), the test taken too: on at `then` (the test's next
    /// instruction) when it holds, at `to` when not.
    NextOfDealer {
        dst: Reg,
        s: Reg,
        r: Reg,
        cmp: Cmp,
        then: u32,
        to: u32,
    },
    /// [`Ins::JumpUnlessCount`] whose jump lands on an [`Ins::NextOfDealer`], the two in
    /// one (a turn's end: `if count(山札) == 0 { … }`, then the next seat and the
    /// loop's head): on at the next instruction when the count compares so, else the
    /// next seat and on as that instruction goes on.
    CountNextOfDealer {
        z: u16,
        holds: Within,
        dst: Reg,
        s: Reg,
        r: Reg,
        at: Cmp,
        then: u32,
        to: u32,
    },
    /// `dst = the value of attribute attr of the card c` (a number or a symbol).
    Attr { dst: Reg, attr: u16, c: Num },
    /// The next card of a quantifier's domain: the lowest card of set register `rest`
    /// is taken out into `var`, or the loop is done (a jump to `exit`).
    SetPop { rest: Reg, var: Reg, exit: u32 },
    /// `dst = every card of the deck whose attribute `attr` compares so with `v`` (from
    /// the cards of each value, [`super::Image::attr_cards`]).
    AttrCards {
        dst: Reg,
        attr: u16,
        cmp: Cmp,
        v: Num,
    },
    /// `dst = a ∩ b`.
    Inter { dst: Reg, a: Set, b: Set },
    /// `dst = v` when the comparison holds, else the empty set (a part of a card's
    /// predicate that does not read the card: every card or none).
    SetIf { dst: Reg, c: Cond, v: Set },
    /// `dst = the sum of attribute attr over the cards of v`.
    AttrSum { dst: Reg, v: Set, attr: u16 },
    /// `set register dst += the card c`.
    SetInsert { dst: Reg, c: Num },
    /// A quantifier's `max` or `min` so far: `acc = v` when nothing was seen yet
    /// (`seen == 0`) or `v` is larger (smaller); `seen = 1`.
    Best {
        acc: Reg,
        seen: Reg,
        v: Num,
        max: bool,
    },
    /// `dst = top(z)` (an empty zone stops the game).
    Top { dst: Reg, z: Zr },
    /// `move c to z`, the card a number.
    MoveCard { c: Num, to: Zr },
    /// `dst = top(from)` then `move dst to to` (a draw: two ops, one instruction).
    MoveTop { dst: Reg, from: Zr, to: Zr },
    /// `move v to z`, each card of a set, in card order.
    MoveSet { v: Set, to: Zr },
    /// `move from to z`: a zone's cards, in the zone's order (bottom first).
    MoveZone { from: Zr, to: Zr },
    /// `gather z`.
    Gather(Zr),
    /// `shuffle z`.
    Shuffle(Zr),
    /// `cut z` (setting the lower half's top card aside in `aside`).
    Cut(Zr, Option<Zr>),
    /// `deal …`: entry of [`super::Image::deals`].
    Deal(u16),
    /// `dealer by draw`: entry of [`super::Image::draws`].
    DealerByDraw(u16),
    /// `reveal z`.
    Reveal(Zr),
    /// A loop over seats or a range starts: `base`, `len` and `idx` are number
    /// registers (the loop's first value, its length, the place reached).
    LoopStart {
        over: Loop,
        base: Reg,
        len: Reg,
        idx: Reg,
    },
    /// The next value of a loop into `var`, or a jump to `exit` when it is done.
    LoopNext {
        over: Loop,
        base: Reg,
        len: Reg,
        idx: Reg,
        var: Reg,
        exit: u32,
    },
    /// `dst = the cards of zone z as a list`, in the zone's order (bottom first).
    ZoneList { dst: Reg, z: Zr },
    /// A loop over the items of a list value starts.
    ListStart { list: Reg, from: Reg, idx: Reg },
    /// The next item of a list into `var` (a number register), or a jump to `exit`.
    ListNext {
        list: Reg,
        idx: Reg,
        var: Reg,
        exit: u32,
    },
    /// The next item of a list of card sets into `var` (a card-set register), or a jump
    /// to `exit`.
    ListNextSet {
        list: Reg,
        idx: Reg,
        var: Reg,
        exit: u32,
    },
    /// A `choose`: entry of [`super::Image::picks`].
    Pick(u16),
    /// A `choose` of one move or another when a count or comparison holds (draw or
    /// take): entry of [`super::Image::take_picks`] (`shapes.rs`).
    PickTake(u16),
    /// A `choose` of a win on the decider's own hand or a card of that hand (declare
    /// or discard): entry of [`super::Image::own_picks`] (`shapes.rs`).
    PickOwn(u16),
    /// A claim window: entry of [`super::Image::claims`].
    Claim(u16),
    /// A `choose each`: entry of [`super::Image::claims`] (a window without a pass).
    Each(u16),
    /// The end of a `choose each` option's body: the next seat's chosen move starts,
    /// or the rules go on after the decision.
    EachDone(u16),
    /// `decline` in a claim's body of window [`super::Image::claims`] entry: the next
    /// claim it kept starts, or the rules go on after the window.
    Decline(u16),
    /// Calls procedure `proc` with the arguments of [`super::Image::arg_lists`] entry `args`.
    Call { proc: u16, args: u16 },
    /// Returns from the running procedure.
    Ret,
    /// Returns from the running procedure with a number (`return e` in a procedure
    /// that returns a value), kept for the caller's [`Ins::TakeNum`].
    RetNum(Num),
    /// [`Ins::RetNum`] with a card set.
    RetSet(Set),
    /// [`Ins::RetNum`] with another value, from an other-values register.
    RetObj(Reg),
    /// Just after a valued call: the number the callee returned into a register (left
    /// as it was when the callee returned none, as the engine leaves the local).
    TakeNum(Reg),
    /// [`Ins::TakeNum`] for a card-set register.
    TakeSet(Reg),
    /// [`Ins::TakeNum`] for an other-values register.
    TakeObj(Reg),
    /// `pay n from a to b`.
    Pay { n: Num, from: Place, to: Place },
    /// `pay n from each <seats> (per-seat variable at `var`) to b`.
    PayEach {
        n: Num,
        var: u16,
        seats: Seats,
        to: Place,
    },
    /// `outcome`: a symbol's text.
    Outcome(Num),
    /// `outcome` of any other value (its text, as the engine shows it).
    OutcomeValue(Reg),
    /// `tally label v`: [`super::Image::labels`] entry `label`, and the value shown as
    /// the engine shows it.
    Tally {
        label: u16,
        v: Arg,
        seat: Option<Reg>,
    },
    /// `record r for seat`.
    Record { r: Reg, seat: Num },
    /// `dst = a score table's result` (args: entry of [`super::Image::arg_lists`]).
    Score {
        dst: Reg,
        table: u16,
        args: u16,
        at: Loc,
    },
    /// `dst = a score table's total`, without building its result.
    ScoreTotal {
        dst: Reg,
        table: u16,
        args: u16,
        at: Loc,
    },
    /// `dst = a field of the score result in r` (total, factor, base, count).
    Field { dst: Reg, r: Reg, field: Field },
    /// `dst = the seats of a list` (`seats()`, `others(s)`, `leaders(v)`) as a list value.
    SeatList { dst: Reg, of: SeatsOf },
    /// `dst = how many items the list in r holds`.
    Len { dst: Reg, r: Reg },
    /// `dst = the i-th item of the list in r`, a number (out of range stops the game).
    Index { dst: Reg, r: Reg, i: Num },
    /// A value the machine has no instruction for, worked out by the engine's
    /// evaluator: entry of [`super::Image::cold`].
    Cold(u16),
    /// `require` or `expect`: the game stops when the comparison is false (the engine
    /// then plays it again and reports the rule).
    Require(Cond),
    /// The end of a guard's code: its answer is in number register `r`.
    Yield(Reg),
    /// Nothing (a statement with no effect here, such as `say` in a simulation): one
    /// step, as the engine counts one for the op.
    Nop,
}

/// A loop's kind of values (see [`Ins::LoopStart`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Loop {
    /// `seats()`: from the dealer on.
    All,
    /// `others(s)`.
    Others(Num),
    /// `a..b`.
    Range(Num, Num),
}

/// Which seats a [`Ins::SeatList`] lists.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SeatsOf {
    /// `seats()`.
    All,
    /// `others(s)`.
    Others(Num),
    /// `leaders(v)`: the seats (from the dealer on) whose per-seat variable at first
    /// slot `v` is the largest.
    Leaders(u16),
}

/// A score result's number fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// `.total`.
    Total,
    /// `.factor`.
    Factor,
    /// `.base`.
    Base,
    /// `.count`.
    Count,
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const CMPS: [Cmp; 6] = [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge];

    /// Numbers near the edges of `i64` and of each other, where an interval test could
    /// wrap wrongly.
    fn edgy() -> impl Strategy<Value = i64> {
        prop_oneof![
            -3i64..=3,
            (i64::MIN..=i64::MIN + 2),
            (i64::MAX - 2..=i64::MAX),
            any::<i64>(),
        ]
    }

    proptest! {
        /// A comparison with a constant tested as an interval answers as the
        /// comparison does, for every comparison and any two numbers.
        #[test]
        fn an_interval_test_answers_as_its_comparison(x in edgy(), k in edgy(), c in 0usize..6) {
            let cmp = CMPS[c];
            prop_assert_eq!(Within::of(cmp, k).test(x), cmp.test(x, k), "{} {:?} {}", x, cmp, k);
        }
    }

    #[test]
    fn an_interval_test_at_the_edges_of_i64() {
        for cmp in CMPS {
            for k in [i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX - 1, i64::MAX] {
                for x in [
                    i64::MIN,
                    i64::MIN + 1,
                    k.saturating_sub(1),
                    k,
                    k.saturating_add(1),
                    i64::MAX,
                ] {
                    assert_eq!(
                        Within::of(cmp, k).test(x),
                        cmp.test(x, k),
                        "{x} {cmp:?} {k}"
                    );
                }
            }
        }
    }
}
