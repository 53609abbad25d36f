//! The steps of a usual turn that the machine's instructions share, alone and fused in
//! pairs (`Ins::DrawOwn`, `Ins::DiscardClaim`, `Ins::NextOfJump`, `Ins::NextOfDealer`):
//! a draw into a hand, a discard, the window on the pile's top, the next seat.

use crate::agents::AutoPlayers;
use crate::model::CardIx;

use super::ins::{Place, Reg};
use super::machine::{Machine, Stop};
use crate::value::Value;

impl Machine<'_> {
    /// Moves the card in register `c` to the top of instance `to` (a discard): the card,
    /// if it was put on top (`None` when it was in `to` already, and stayed where it
    /// was).
    #[inline(always)]
    pub(super) fn move_card_to(&mut self, c: Reg, to: u16) -> Result<Option<CardIx>, Stop> {
        let c = self.card_in(c)?;
        if (to as usize) >= self.board.zones.instances() {
            return Err(Stop::Internal);
        }
        Ok((self.board.move_card_from(c, to) != to).then_some(c))
    }

    /// Moves the top card of instance `from` to the seat in register `seat`'s
    /// instance of the per-seat zone starting at `first` (a draw into a hand), the
    /// card into register `dst`.
    #[inline(always)]
    pub(super) fn draw_to(
        &mut self,
        dst: Reg,
        from: u16,
        first: u16,
        seat: Reg,
    ) -> Result<(), Stop> {
        // An empty zone's `top` first, as the engine finds it.
        if self.board.zones.held(from as usize) == 0 {
            return Err(Stop::Empty);
        }
        let to = first as usize + self.seat_in(seat)?;
        let c = self.board.draw_top(from, to as u16).ok_or(Stop::Internal)?;
        self.n[dst as usize] = c as i64;
        Ok(())
    }

    /// The top card of instance `z` into register `dst`, then claim window `k` (of the
    /// usual shape) on it: where the window goes on. `top`: the card known to be on top
    /// of `z` (one just put there), if one is.
    #[inline(always)]
    pub(super) fn top_claim(
        &mut self,
        dst: Reg,
        z: u16,
        k: u16,
        top: Option<CardIx>,
        players: &mut AutoPlayers<'_>,
    ) -> Result<u32, Stop> {
        let c = match top {
            Some(c) => c,
            None => self.board.zones.top(z as usize).ok_or(Stop::Empty)?,
        };
        self.n[dst as usize] = c as i64;
        let im = self.im;
        let d = im.claims.get(k as usize).ok_or(Stop::Internal)?;
        let q = d.quick.as_ref().ok_or(Stop::Internal)?;
        self.claim_quick(q, players)
    }

    /// The seat after the one in register `s`, round the table, into register `dst`.
    #[inline(always)]
    pub(super) fn next_of(&mut self, dst: Reg, s: Reg) -> Result<(), Stop> {
        let s = self.seat_in(s)?;
        let n = self.board.seats as usize;
        self.n[dst as usize] = if s + 1 >= n { 0 } else { s + 1 } as i64;
        Ok(())
    }

    /// `巡 += 1` in place ([`super::ins::Ins::AddVar`]): a board variable's count, checked.
    #[inline(always)]
    pub(super) fn add_var(&mut self, slot: u16, k: i64) -> Result<(), Stop> {
        match self.board.vars.get_mut(slot as usize) {
            Some(Value::Int(x)) => *x = x.checked_add(k).ok_or(Stop::Arithmetic)?,
            // Any other value as `Add` takes it.
            _ => self.add(Place::V(slot), k, false)?,
        }
        Ok(())
    }
}
