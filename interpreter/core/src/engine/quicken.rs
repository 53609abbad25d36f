//! Quickened ops: the fast forms the compiler found for the op shapes every turn runs
//! ([`QuickOp`]: jumps, `if s == dealer`, `let c = top(Z)`, `move c to 手札[s]`,
//! `s = next(s)`, `v += k`, a claim window nobody can claim in), and the guards and
//! conditions every turn asks (`count(山札) == 0`, and a [`HandGuard`]'s hand against
//! its table's pattern), read straight off the board. Each fast path only reads, and leaves any other value to
//! [`State::step_cold`] (`exec.rs`) or the full evaluation, which have every op's and
//! expression's meaning; `Board::quicken` turns them off.

use super::error::RuntimeError;
use super::pick::Picker;
use super::state::{Board, State};
use crate::ir::{
    Expr, HandGuard, Loc, Op, Op2, Program, QuickCmp, QuickCond, QuickNum, QuickOp, QuickZone,
};
use crate::model::CardSet;
use crate::value::Value;

impl State {
    /// Runs one op in full: the control ops here, every other op in
    /// [`State::step_cold`]. (The shapes every turn runs have fast forms, tried first;
    /// see [`State::step_quick`].)
    /// Returns true when `pk` took a player's move (the caller then returns).
    #[inline(always)]
    pub(super) fn step<P: Picker>(
        &mut self,
        p: &Program,
        op: &Op,
        base: usize,
        at: Loc,
        pk: &mut P,
    ) -> Result<bool, RuntimeError> {
        match op {
            Op::Jump(t) => self.jump(*t),
            Op::JumpIfNot(c, t) => {
                if !self.holds(p, base, c, at)? {
                    self.jump(*t);
                }
            }
            Op::Decide(d) => return self.decide(p, d, base, at, pk),
            Op::OptionDone { decide } => self.option_done(p, *decide, base, at)?,
            _ => self.step_cold(p, op, base, at)?,
        }
        Ok(false)
    }

    /// Runs an op's fast form ([`QuickOp`]) when the values it reads are the usual
    /// ones (a seat where a seat is read, a card where a card moves…), and says
    /// where play goes on. Nothing changes when it declines: the op then runs in full.
    /// Always inlined into [`State::advance`]'s loop, for the reason `step` is.
    #[inline(always)]
    pub(super) fn step_quick(&mut self, p: &Program, op: &Op, q: &QuickOp, base: usize) -> Ran {
        match *q {
            QuickOp::Full => Ran::Declined,
            QuickOp::Jump(t) => Ran::Jump(t),
            QuickOp::JumpUnless(c, t) => match self.quick_holds(&c, base) {
                Some(true) => Ran::Next,
                Some(false) => Ran::Jump(t),
                None => Ran::Declined,
            },
            QuickOp::LetTop { slot, zone } => {
                let top = self
                    .quick_zone(zone, base)
                    .and_then(|z| self.board.zones.get(z as usize)?.last().copied());
                let Some(c) = top else {
                    return Ran::Declined;
                };
                self.set_local(base, slot, Value::Card(c));
                Ran::Next
            }
            QuickOp::LetLocal { slot, from } => {
                let Some(v) = self.locals.get(base + from as usize).cloned() else {
                    return Ran::Declined;
                };
                self.set_local(base, slot, v);
                Ran::Next
            }
            QuickOp::MoveCard { card, to } => {
                let Some(Value::Card(c)) = self.locals.get(base + card as usize) else {
                    return Ran::Declined;
                };
                let c = *c;
                let Some(z) = self.quick_zone(to, base) else {
                    return Ran::Declined;
                };
                self.board.move_card(c, z);
                Ran::Next
            }
            QuickOp::NextSeat { slot, from } => {
                let n = self.board.seats;
                let next = match self.locals.get(base + from as usize) {
                    // `s < n`: one wrap at most, without a division.
                    Some(Value::Seat(s)) if *s < n => {
                        if *s + 1 == n {
                            0
                        } else {
                            *s + 1
                        }
                    }
                    _ => return Ran::Declined,
                };
                match self.locals.get_mut(base + slot as usize) {
                    Some(v) => *v = Value::Seat(next),
                    None => return Ran::Declined,
                }
                Ran::Next
            }
            QuickOp::AddVar { var, by } => {
                let b = &mut self.board;
                let Some(&i) = b.layout.var_base.get(var as usize) else {
                    return Ran::Declined;
                };
                match b.vars.get_mut(i as usize) {
                    Some(Value::Int(x)) if x.checked_add(by).is_some() => *x += by,
                    _ => return Ran::Declined,
                }
                Ran::Next
            }
            // No move chosen at once by this decision (`choose each`) waits: the rules
            // go on after the decision. A waiting one is started in full.
            QuickOp::OptionDone { decide, after } => match self.frames.last() {
                Some(f) if f.queue.last().is_none_or(|e| e.3 != decide) => Ran::Jump(after),
                _ => Ran::Declined,
            },
            // Most discards: no other seat can claim, and nothing is offered.
            QuickOp::NoClaim { from, after } => match op {
                Op::Decide(d) if self.nobody_claims(p, d, from, base) => {
                    self.board.claims.clear();
                    Ran::Jump(after)
                }
                _ => Ran::Declined,
            },
        }
    }

    /// A [`QuickCond`] read off the board; `None` when an operand is not a number
    /// there (the op then runs in full, or the guard is evaluated).
    #[inline(always)]
    pub(super) fn quick_holds(&self, c: &QuickCond, base: usize) -> Option<bool> {
        let scalar = matches!(c.cmp, QuickCmp::Eq | QuickCmp::Ne);
        let a = self.quick_num(c.a, scalar, base)?;
        let b = self.quick_num(c.b, scalar, base)?;
        Some(match c.cmp {
            QuickCmp::Eq => a == b,
            QuickCmp::Ne => a != b,
            QuickCmp::Lt => a < b,
            QuickCmp::Le => a <= b,
            QuickCmp::Gt => a > b,
            QuickCmp::Ge => a >= b,
        })
    }

    /// A [`QuickNum`]'s number: a local is read as `==` reads it (any scalar: a seat,
    /// card, bool or symbol is its number) with `scalar`, else only as an int, as the
    /// full evaluation does.
    #[inline(always)]
    fn quick_num(&self, n: QuickNum, scalar: bool, base: usize) -> Option<i64> {
        let b = &self.board;
        match n {
            QuickNum::Const(k) => Some(k),
            QuickNum::Local(i) => match self.locals.get(base + i as usize)? {
                Value::Int(k) => Some(*k),
                v if scalar => super::typed::scalar_of(v),
                _ => None,
            },
            QuickNum::Dealer => Some(b.dealer as i64),
            QuickNum::Var(v) => match b.vars.get(*b.layout.var_base.get(v as usize)? as usize)? {
                Value::Int(k) => Some(*k),
                _ => None,
            },
            // A zone's list holds exactly its set's cards: its length is the count,
            // without counting bits (no popcount instruction on the baseline target).
            QuickNum::Count(z) => {
                Some(b.zones.get(self.quick_zone(z, base)? as usize)?.len() as i64)
            }
        }
    }

    /// The zone instance a [`QuickZone`] names: a per-seat zone's needs a seat in its
    /// local (the compiler checked which zones are shared and which per seat).
    #[inline]
    pub(super) fn quick_zone(&self, z: QuickZone, base: usize) -> Option<u16> {
        let b = &self.board;
        match z {
            QuickZone::Shared(z) => b.layout.zone_base.get(z as usize).copied(),
            QuickZone::Seat(z, slot) => match self.locals.get(base + slot as usize)? {
                Value::Seat(s) if *s < b.seats => {
                    Some(*b.layout.zone_base.get(z as usize)? + *s as u16)
                }
                _ => None,
            },
        }
    }

    /// Whether a [`HandGuard`]'s hand may fit its pattern: `Some(false)` means the
    /// guard is false (its table pays nothing on that hand), `Some(true)` that the guard
    /// must be evaluated; `None` when the hand cannot be read here (an unusual value).
    #[inline(always)]
    pub(super) fn hand_may_fit(&self, p: &Program, h: &HandGuard, base: usize) -> Option<bool> {
        let b = &self.board;
        if !b.quicken {
            return None;
        }
        let locals = self.locals.get(base..)?;
        let seat = match locals.get(h.seat as usize)? {
            Value::Seat(s) if *s < b.seats => *s,
            _ => return None,
        };
        // The compiler made hand guards of per-seat zones only: a seat's instance is
        // the zone's first plus the seat.
        let zi = *b.layout.zone_base.get(h.zone as usize)? + seat as u16;
        // A tracked table: the hand's entry is the zone's running sum, plus the added
        // card's weight when it is not already in the zone.
        if let Some(t) = h.track {
            let table = b.layout.fit.get(t as usize)?;
            let mut sum = b.fit_sum(zi, t)?;
            let mut n = b.zones.get(zi as usize)?.len();
            match h.plus.map(|c| locals.get(c as usize)) {
                None => {}
                // A card already in the hand adds nothing.
                Some(Some(Value::Card(c))) if b.sets.get(zi as usize)?.contains(*c) => {}
                Some(Some(Value::Card(c))) => {
                    n += 1;
                    sum = sum.wrapping_add(table.weight(*c as usize));
                }
                // A set added: counted card by card below.
                Some(Some(Value::Cards(_))) => return self.hand_may_fit_counted(p, h, zi, base),
                Some(_) => return None,
            }
            return Some(table.answer(sum, n));
        }
        self.hand_may_fit_counted(p, h, zi, base)
    }

    /// A [`HandGuard`]'s answer when the board settles it: false for a hand that
    /// cannot fit, and for a hand that may, what the table's plans say when the guard
    /// is [`HandGuard::exact`] (see `score/pays.rs`). `None`: evaluate the guard.
    #[inline(always)]
    pub(super) fn hand_guard(&self, p: &Program, h: &HandGuard, base: usize) -> Option<bool> {
        match self.hand_may_fit(p, h, base)? {
            false => Some(false),
            true if h.exact => self.hand_pays(p, h, base),
            true => None,
        }
    }

    /// Whether an exact [`HandGuard`]'s table pays on its hand.
    #[inline(never)]
    fn hand_pays(&self, p: &Program, h: &HandGuard, base: usize) -> Option<bool> {
        let b = &self.board;
        let seat = match self.locals.get(base + h.seat as usize)? {
            Value::Seat(s) if *s < b.seats => *s,
            _ => return None,
        };
        let zi = *b.layout.zone_base.get(h.zone as usize)? + seat as u16;
        crate::score::pays(p, h.table, self.guard_hand(h, zi, base)?)
    }

    /// [`State::hand_may_fit`] by adding the hand up, card by card.
    #[inline(never)]
    fn hand_may_fit_counted(
        &self,
        p: &Program,
        h: &HandGuard,
        zi: u16,
        base: usize,
    ) -> Option<bool> {
        let hand = self.guard_hand(h, zi, base)?;
        Some(crate::pattern::may_fit(
            p.patterns.get(h.pattern as usize)?,
            hand,
        ))
    }

    /// The cards a [`HandGuard`] asks about: zone instance `zi`'s, with the card or
    /// cards it adds; `None` when its local holds an unusual value.
    fn guard_hand(&self, h: &HandGuard, zi: u16, base: usize) -> Option<CardSet> {
        let mut hand = *self.board.sets.get(zi as usize)?;
        if let Some(c) = h.plus {
            match self.locals.get(base + c as usize)? {
                Value::Card(c) => hand.insert(*c),
                Value::Cards(s) => hand = hand.union(*s),
                _ => return None,
            }
        }
        Some(hand)
    }

    /// The seat a local or the dealer names (`choose s`, `claim x in others(s)`);
    /// `None` for any other form or value (evaluated in full instead).
    #[inline]
    pub(super) fn seat_here(&self, e: &Expr, base: usize) -> Option<u8> {
        let b = &self.board;
        if !b.quicken {
            return None;
        }
        match e {
            Expr::Local(i) => match self.locals.get(base + *i as usize)? {
                Value::Seat(s) if *s < b.seats => Some(*s),
                _ => None,
            },
            Expr::Dealer if b.dealer < b.seats => Some(b.dealer),
            _ => None,
        }
    }

    /// The zone instance `to` names (see [`zone_on`]).
    #[inline]
    pub(super) fn zone_here(&self, to: &Expr, base: usize) -> Option<u16> {
        zone_on(&self.board, self.locals.get(base..)?, to)
    }
}

/// Where play goes on after [`State::step_quick`].
pub(super) enum Ran {
    /// The fast form ran: the next op.
    Next,
    /// The fast form ran and jumps.
    Jump(u32),
    /// The values are not the usual ones: the op runs in full.
    Declined,
}

/// The cards of a zone, a per-seat zone of a seat held in a local, a card or set held
/// in a local, a set literal, or unions and differences of these, read straight off
/// the board; `None` for any other form or value (evaluated in full instead). The hand
/// a score guard asks about (`手札[x] + d`) is almost always of this shape.
#[inline]
pub(super) fn cards_on(b: &Board, locals: &[Value], e: &Expr, depth: u8) -> Option<CardSet> {
    match e {
        Expr::Bin(op @ (Op2::Union | Op2::Minus), x, y) if depth < 3 => {
            // Leaves are read in place; only nested operations recurse.
            let x = match cards_leaf(b, locals, x) {
                Some(s) => s,
                None => cards_on(b, locals, x, depth + 1)?,
            };
            let y = match cards_leaf(b, locals, y) {
                Some(s) => s,
                None => cards_on(b, locals, y, depth + 1)?,
            };
            Some(if *op == Op2::Union {
                x.union(y)
            } else {
                x.minus(y)
            })
        }
        _ => cards_leaf(b, locals, e),
    }
}

/// [`cards_on`] for a set literal, a zone, a seat's zone or a local.
#[inline(always)]
fn cards_leaf(b: &Board, locals: &[Value], e: &Expr) -> Option<CardSet> {
    if !b.quicken {
        return None;
    }
    match e {
        Expr::Cards(s) => Some(*s),
        Expr::Zone(_) | Expr::SeatZone(..) => b.sets.get(zone_on(b, locals, e)? as usize).copied(),
        Expr::Local(i) => match locals.get(*i as usize)? {
            Value::Cards(s) => Some(*s),
            Value::Card(c) => Some(CardSet::single(*c)),
            _ => None,
        },
        _ => None,
    }
}

/// The zone instance `to` names when it is a shared zone or a per-seat zone of a seat
/// held in a local; `None` for any other form (evaluated in full instead).
#[inline(always)]
pub(super) fn zone_on(b: &Board, locals: &[Value], to: &Expr) -> Option<u16> {
    if !b.quicken {
        return None;
    }
    let (z, seat) = match to {
        Expr::Zone(z) => (*z, 0u8),
        Expr::SeatZone(z, s) => match &**s {
            Expr::Local(i) => match locals.get(*i as usize) {
                Some(Value::Seat(s)) if *s < b.seats => (*z, *s),
                _ => return None,
            },
            _ => return None,
        },
        _ => return None,
    };
    let zi = *b.layout.zone_base.get(z as usize)? + seat as u16;
    // A per-seat zone's instances are consecutive; a shared zone takes seat 0.
    let owner_ok = match (to, b.layout.zone_of.get(zi as usize)) {
        (Expr::Zone(_), Some((d, None))) => *d == z,
        (Expr::SeatZone(..), Some((d, Some(_)))) => *d == z,
        _ => false,
    };
    owner_ok.then_some(zi)
}
