//! Reading and writing the machine's operands: numbers, seats, cards, zones and card
//! sets from registers, variables, parameters and the board, each checked, and a
//! number written to a register, a variable or the dealer.

use crate::engine::scalar_of;
use crate::model::{CardIx, CardSet};
use crate::value::Value;

use super::ins::{Cond, Num, NumKind, Place, Set, Zr};
use super::lower::value_of_num;
use super::machine::{Machine, Stop, SET_MASK};

impl Machine<'_> {
    /// A number operand's value.
    #[inline(always)]
    pub(super) fn num(&self, x: Num) -> Result<i64, Stop> {
        Ok(match x {
            Num::K(k) => k,
            Num::R(r) => self.n[r as usize],
            Num::V(v) => var_num(&self.board.vars[v as usize])?,
            Num::SV(v, r) => var_num(&self.board.vars[v as usize + self.seat_in(r)?])?,
            Num::Dealer => self.board.dealer as i64,
            Num::Count(z) => self.board.zones[self.zone(z)?].len() as i64,
            Num::P(i) => var_num(&self.board.params[i as usize])?,
        })
    }

    /// The seat in a number register, checked.
    #[inline(always)]
    pub(super) fn seat_in(&self, r: super::ins::Reg) -> Result<usize, Stop> {
        self.seat_of(self.n[r as usize])
    }

    /// A number as a seat, checked.
    #[inline(always)]
    pub(super) fn seat_of(&self, s: i64) -> Result<usize, Stop> {
        // One unsigned comparison: a negative number is then past every seat.
        if (s as u64) < self.board.seats as u64 {
            Ok(s as usize)
        } else {
            Err(Stop::Value)
        }
    }

    /// A zone operand's instance.
    #[inline(always)]
    pub(super) fn zone(&self, z: Zr) -> Result<usize, Stop> {
        match z {
            Zr::I(i) => Ok(i as usize),
            Zr::S(first, r) => Ok(first as usize + self.seat_in(r)?),
            Zr::R(r) => {
                let i = self.n[r as usize];
                if (0..self.board.zones.instances() as i64).contains(&i) {
                    Ok(i as usize)
                } else {
                    Err(Stop::Value)
                }
            }
        }
    }

    /// A card-set operand's cards.
    #[inline(always)]
    pub(super) fn set(&self, x: Set) -> Result<CardSet, Stop> {
        Ok(match x {
            Set::K(i) => self.im.sets[i as usize],
            Set::Zone(z) => self.board.sets[self.zone(z)?],
            Set::R(r) => self.s[(r & SET_MASK) as usize],
            Set::V(v) => var_set(&self.board.vars[v as usize])?,
            Set::SV(v, r) => var_set(&self.board.vars[v as usize + self.seat_in(r)?])?,
            Set::Card(r) => CardSet::single(self.card(self.n[r as usize])?),
        })
    }

    /// The card in a number register, checked.
    #[inline(always)]
    pub(super) fn card_in(&self, r: super::ins::Reg) -> Result<CardIx, Stop> {
        self.card(self.n[r as usize])
    }

    /// A number as a card of the deck, checked.
    #[inline(always)]
    pub(super) fn card(&self, c: i64) -> Result<CardIx, Stop> {
        // One unsigned comparison, as for a seat.
        if (c as u64) < self.board.card_zone.len() as u64 {
            Ok(c as CardIx)
        } else {
            Err(Stop::Value)
        }
    }

    /// Whether a comparison holds.
    #[inline(always)]
    pub(super) fn holds(&self, c: Cond) -> Result<bool, Stop> {
        Ok(c.cmp.test(self.num(c.a)?, self.num(c.b)?))
    }

    /// Writes a number to a place, as a value of `kind` (`None`: an int, as a sum is).
    #[inline(always)]
    pub(super) fn put(&mut self, to: Place, v: i64, kind: Option<NumKind>) -> Result<(), Stop> {
        match to {
            Place::R(r) => self.n[r as usize] = v,
            Place::V(slot) => put_num(&mut self.board.vars[slot as usize], v, kind),
            Place::SV(first, r) => {
                let slot = first as usize + self.seat_in(r)?;
                put_num(&mut self.board.vars[slot], v, kind);
            }
            Place::Dealer => self.board.dealer = self.seat_of(v)? as u8,
        }
        Ok(())
    }

    /// A place's number now.
    #[inline(always)]
    pub(super) fn get(&self, at: Place) -> Result<i64, Stop> {
        match at {
            Place::R(r) => Ok(self.n[r as usize]),
            Place::V(slot) => var_num(&self.board.vars[slot as usize]),
            Place::SV(first, r) => var_num(&self.board.vars[first as usize + self.seat_in(r)?]),
            Place::Dealer => Ok(self.board.dealer as i64),
        }
    }

    /// `to += v` (or `-=`), checked, stored as an int (as the engine's `assign`).
    #[inline(always)]
    pub(super) fn add(&mut self, to: Place, v: i64, sub: bool) -> Result<(), Stop> {
        let cur = self.get(to)?;
        let r = if sub {
            cur.checked_sub(v)
        } else {
            cur.checked_add(v)
        };
        self.put(to, r.ok_or(Stop::Arithmetic)?, None)
    }
}

/// Writes number `v` to a variable as a value of `kind` (`None`: an int). A variable
/// that already holds that kind is written in place: building the value apart and
/// moving it in costs a drop call and a copy read back through narrower stores.
#[inline(always)]
fn put_num(slot: &mut Value, v: i64, kind: Option<NumKind>) {
    match (slot, kind) {
        (Value::Int(x), None | Some(NumKind::Int)) => *x = v,
        (Value::Seat(x), Some(NumKind::Seat)) => *x = v as u8,
        (Value::Card(x), Some(NumKind::Card)) => *x = v as u16,
        (Value::Bool(x), Some(NumKind::Bool)) => *x = v != 0,
        (slot, Some(k)) => *slot = value_of_num(k, v),
        (slot, None) => *slot = Value::Int(v),
    }
}

/// A number held in a variable or parameter.
#[inline(always)]
fn var_num(v: &Value) -> Result<i64, Stop> {
    match v {
        Value::Int(i) => Ok(*i),
        other => scalar_of(other).ok_or(Stop::Value),
    }
}

/// Cards held in a variable.
#[inline(always)]
fn var_set(v: &Value) -> Result<CardSet, Stop> {
    match v {
        Value::Cards(s) => Ok(*s),
        _ => Err(Stop::Value),
    }
}
