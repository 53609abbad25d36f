//! Claim windows nobody can take: after most discards every asked seat's hand is far
//! from its pattern, and the window is passed without offering a move, by a check that
//! reads each hand once (the full offer in `offer.rs` decides whenever it cannot).

use super::state::State;
use crate::ir::{Decide, Program};
use crate::model::CardSet;
use crate::value::Value;

impl State {
    /// Whether seat `seat` certainly has no move in claim window `d`: every option is
    /// parameterless with a [`HandGuard`](crate::ir::HandGuard) whose hand cannot fit
    /// its pattern. Binds the window's seat as `moves_for` would; `false` whenever
    /// anything is not of that shape (the full offer then decides). Always inlined:
    /// [`State::nobody_claims`] runs it for each asked seat after most discards, and as
    /// a call (LLVM keeps an `#[inline]` one out of line) it costs about 45 instructions
    /// a seat.
    #[inline(always)]
    pub(super) fn no_claim_fits(&mut self, p: &Program, d: &Decide, base: usize, seat: u8) -> bool {
        if let Some(slot) = d.seat_slot {
            self.set_local(base, slot, Value::Seat(seat));
        }
        d.options.iter().all(|o| {
            o.param.is_none()
                && o.hand_guard
                    .is_some_and(|h| self.hand_guard(p, &h, base) == Some(false))
        })
    }

    /// Whether no seat of `others(from)` can claim in window `d`
    /// ([`QuickOp::NoClaim`](crate::ir::QuickOp::NoClaim)): each asked seat, in the
    /// order [`State::asked_seats`] lists them, is bound and settled by
    /// [`State::no_claim_fits`], as the full offer would. `false` when `from` holds no
    /// seat or a seat's hand may fit (the full offer then decides). Kept out of line:
    /// `advance`'s loop inlines the fast forms, and this one loops and calls.
    #[inline(never)]
    pub(super) fn nobody_claims(
        &mut self,
        p: &Program,
        d: &Decide,
        from: u16,
        base: usize,
    ) -> bool {
        let n = self.board.seats;
        let s = match self.locals.get(base + from as usize) {
            Some(Value::Seat(s)) if *s < n => *s,
            _ => return false,
        };
        if let Some(none) = self.no_claim_tracked(p, d, base, s) {
            return none;
        }
        (1..n).all(|k| {
            // `s < n` and `k < n`: one wrap at most, without a division.
            let (k, n) = (s as usize + k as usize, n as usize);
            let seat = if k >= n { k - n } else { k };
            self.no_claim_fits(p, d, base, seat as u8)
        })
    }

    /// [`State::nobody_claims`] for the usual window, one option whose [`HandGuard`]'s
    /// table the board keeps sums for and which adds one card in a local to the asked
    /// seat's hand (`当たり when 役代(手札[x] + d).total > 0`): the card, the zone and the
    /// table are read once, and each seat's hand is one sum, one count and one bit. The
    /// window's seat is bound once, to the last seat asked, which is where the general
    /// path leaves it when nobody can claim. A hand that may fit is asked of the table's
    /// plans when its guard is exact (`Some(false)` when the seat can claim: the full
    /// offer, which binds the seats again, then runs). `None` when the window has any
    /// other shape or a value is not the usual one (the general path then decides).
    ///
    /// [`HandGuard`]: crate::ir::HandGuard
    #[inline(always)]
    fn no_claim_tracked(&mut self, p: &Program, d: &Decide, base: usize, from: u8) -> Option<bool> {
        let ([o], Some(slot)) = (&d.options[..], d.seat_slot) else {
            return None;
        };
        let h = o
            .hand_guard
            .filter(|h| o.param.is_none() && h.seat == slot)?;
        let (t, plus) = (h.track?, h.plus?);
        let b = &self.board;
        if !b.quicken {
            return None;
        }
        let Some(Value::Card(c)) = self.locals.get(base + plus as usize) else {
            return None;
        };
        let c = *c;
        let table = b.layout.fit.get(t as usize)?;
        let first = *b.layout.zone_base.get(h.zone as usize)? as usize;
        let (tracks, n) = (b.layout.fit.len(), b.seats as usize);
        // Every seat's instance and sum are checked to lie in the board's tables once,
        // not seat by seat (outside them, the general path decides).
        if first + n > b.zones.instances().min(b.sets.len())
            || (first + n) * tracks > b.fit_sums.len()
        {
            return None;
        }
        let weight = table.weight(c as usize);
        // The seats after `from`, round the table; `from < n`, so one wrap at most.
        let mut seat = from as usize;
        for _ in 1..n {
            seat = if seat + 1 == n { 0 } else { seat + 1 };
            let zi = first + seat;
            let (mut sum, mut held) = (b.fit_sums[zi * tracks + t as usize], b.zones[zi].len());
            // A card already in the hand adds nothing.
            if !b.sets[zi].contains(c) {
                sum = sum.wrapping_add(weight);
                held += 1;
            }
            // A hand that may fit: an exact guard asks the table's plans, and a seat
            // that can claim sends the window to the full offer at once.
            if table.answer(sum, held) {
                let hand = b.sets[zi].union(CardSet::single(c));
                let pays = match h.exact {
                    true => crate::score::pays(p, h.table, hand),
                    false => None,
                };
                match pays {
                    Some(false) => {}
                    Some(true) => return Some(false),
                    None => return None,
                }
            }
        }
        // The seat a window binds usually holds the last window's seat: it takes the
        // new one in place (replacing the value would call its drop glue).
        match self.locals.get_mut(base + slot as usize) {
            _ if n < 2 => {}
            Some(Value::Seat(s)) => *s = seat as u8,
            Some(v) => *v = Value::Seat(seat as u8),
            None => {}
        }
        Some(true)
    }
}
