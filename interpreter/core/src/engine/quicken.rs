//! Quickened ops: the op shapes every turn runs (jumps, `if s == dealer`, `let c =
//! top(Z)`, `move c to 手札[s]`, `s = next(s)`, `v += k`, decisions), read straight off
//! the board. Each fast path only reads and falls back to [`State::step_cold`]
//! (`exec.rs`), which has every op's full meaning, for any other value; `Board::quicken`
//! turns them off.

use super::error::RuntimeError;
use super::state::State;
use crate::ir::{Builtin, Expr, Loc, Op, Op2, Program, Target};
use crate::value::Value;
use fuda_grammar::ast::AssignOp;

impl State {
    /// Runs one op. The ops every turn runs are here, with their common operand
    /// shapes read straight off the board; the rest, and any unusual operand, go to
    /// [`State::step_cold`], which has every op's full meaning.
    #[inline]
    pub(super) fn step(
        &mut self,
        p: &Program,
        op: &Op,
        base: usize,
        at: Loc,
    ) -> Result<(), RuntimeError> {
        match op {
            Op::Jump(t) => self.jump(*t),
            // `if s == dealer`
            Op::JumpIfNot(Expr::Bin(op @ (Op2::EqScalar | Op2::NeScalar), a, b), t)
                if self.board.quicken
                    && self.scalar_here(a, base).is_some()
                    && self.scalar_here(b, base).is_some() =>
            {
                let eq = self.scalar_here(a, base) == self.scalar_here(b, base);
                if eq != (*op == Op2::EqScalar) {
                    self.jump(*t);
                }
            }
            Op::JumpIfNot(c, t) => {
                let holds = self.holds(p, base, c, at)?;
                if !holds {
                    self.jump(*t);
                }
            }
            Op::Let(slot, e) if self.board.quicken => {
                let v = match e {
                    Expr::Local(s) => self.locals[base..].get(*s as usize).cloned(),
                    // `let c = top(山札)`
                    Expr::Call(Builtin::Top, args, _) if args.len() == 1 => self
                        .zone_here(&args[0], base)
                        .and_then(|z| self.board.zones[z as usize].last())
                        .map(|c| Value::Card(*c)),
                    _ => None,
                };
                let v = match v {
                    Some(v) => v,
                    None => self.value_of(p, base, e, at)?,
                };
                self.set_local(base, *slot, v);
            }
            Op::Move(Expr::Local(w), to, _) if self.board.quicken => match (
                self.locals.get(base + *w as usize),
                self.zone_here(to, base),
            ) {
                // A card held in a local moving to a zone named by a local seat: the
                // common `move c to 手札[s]`.
                (Some(Value::Card(c)), Some(z)) => {
                    let c = *c;
                    self.board.move_card(c, z);
                }
                _ => self.step_cold(p, op, base, at)?,
            },
            // `s = next(s)`
            Op::Assign(Target::Local(t), AssignOp::Set, Expr::Call(Builtin::Next, args, _), _)
                if args.len() == 1 && self.board.quicken =>
            {
                let n = self.board.seats;
                let next = match (&args[0], self.locals.get(base + *t as usize)) {
                    (Expr::Local(s), Some(_)) => match self.locals.get(base + *s as usize) {
                        Some(Value::Seat(s)) if *s < n => Some((*s + 1) % n),
                        _ => None,
                    },
                    _ => None,
                };
                match next {
                    Some(s) => self.locals[base + *t as usize] = Value::Seat(s),
                    None => self.step_cold(p, op, base, at)?,
                }
            }
            // `巡 += 1`
            Op::Assign(Target::Var(v), AssignOp::Add, Expr::Const(Value::Int(k)), _)
                if self.board.quicken =>
            {
                let i = self.board.var_slot(*v, None);
                match self.board.vars.get_mut(i) {
                    Some(Value::Int(x)) if x.checked_add(*k).is_some() => *x += *k,
                    _ => self.step_cold(p, op, base, at)?,
                }
            }
            Op::Decide(d) => self.decide(p, d, base, at)?,
            _ => self.step_cold(p, op, base, at)?,
        }
        Ok(())
    }

    /// A local, the dealer or a constant as the one number `==` compares (see
    /// `Cx::scalar`); `None` for any other form or an unset local.
    #[inline]
    fn scalar_here(&self, e: &Expr, base: usize) -> Option<i64> {
        match e {
            Expr::Local(i) => super::typed::scalar_of(self.locals.get(base + *i as usize)?),
            Expr::Dealer => Some(self.board.dealer as i64),
            Expr::Const(v) => super::typed::scalar_of(v),
            _ => None,
        }
    }

    /// The zone instance `to` names when it is a shared zone or a per-seat zone of a
    /// seat held in a local; `None` for any other form (evaluated in full instead).
    #[inline]
    pub(super) fn zone_here(&self, to: &Expr, base: usize) -> Option<u16> {
        let b = &self.board;
        if !b.quicken {
            return None;
        }
        let (z, seat) = match to {
            Expr::Zone(z) => (*z, 0u8),
            Expr::SeatZone(z, s) => match &**s {
                Expr::Local(i) => match self.locals.get(base + *i as usize) {
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
}
