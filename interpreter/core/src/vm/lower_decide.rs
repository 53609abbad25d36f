//! Lowering decisions: a `choose` to a table of options whose moves are counted (a
//! guard worked out just before, a hand guard, or guard code), a claim window or a
//! `choose each` to a table of options asked of every seat.

use crate::ir::Decide;

use super::image::{
    CardGuard, ClaimArg, ClaimDef, ClaimOption, Count, Declined, Guard, HandDef, PickDef,
    PickOption, Plus, SlotReg,
};
use super::ins::{Ins, NumKind};
use super::lower::Lower;
use super::lower_expr::Kind;

type Res<T> = Result<T, Declined>;

impl Lower<'_> {
    /// A guard: a comparison worked out before the decision, a hand guard, or code.
    /// `inline`: the guard reads nothing the decision binds, so its comparison may be
    /// worked out just before it.
    pub(super) fn guard(&mut self, o: &crate::ir::OptionDef, inline: bool) -> Res<Option<Guard>> {
        let Some(g) = &o.guard else {
            return Ok(None);
        };
        if let Some(h) = o.hand_guard {
            let seat = match self.slots.get(h.seat as usize) {
                Some(SlotReg::Num(r, NumKind::Seat)) => *r,
                _ => return Err(Declined::new("a hand guard's seat")),
            };
            let plus = match h.plus.map(|c| self.slots.get(c as usize).copied()) {
                None => None,
                Some(Some(SlotReg::Num(r, NumKind::Card))) => Some(Plus::Card(r)),
                Some(Some(SlotReg::Set(r))) => Some(Plus::Set(r)),
                Some(_) => return Err(Declined::new("a hand guard's card")),
            };
            let fit = match (h.track, plus) {
                (Some(t), None | Some(Plus::Card(_))) => self
                    .layout
                    .fit
                    .get(t as usize)
                    .map(|table| (table.clone(), t as usize, self.layout.fit.len())),
                _ => None,
            };
            self.im.hands.push(HandDef {
                first: self.layout.zone_base[h.zone as usize],
                seat,
                plus,
                fit,
                pattern: h.pattern,
                table: h.table,
                exact: h.exact,
            });
            let hand = (self.im.hands.len() - 1) as u16;
            let full = self.snippet(g);
            return Ok(Some(Guard::Hand(hand, full)));
        }
        if inline {
            return Ok(Some(Guard::Cond(self.cond(g)?)));
        }
        Ok(Some(Guard::Code(self.snippet(g))))
    }

    /// A `choose`.
    pub(super) fn pick(&mut self, d: &Decide) -> Res<()> {
        let card_options = d.options.iter().filter(|o| o.param.is_some()).count();
        if d.options.len() > super::decide::MOST_OPTIONS
            || card_options > super::decide::CARD_OPTIONS
        {
            return Err(Declined::new("a decision of many options"));
        }
        let who = self.num(&d.who)?;
        let seat_reg = match d.seat_slot.map(|s| self.slots.get(s as usize).copied()) {
            None => None,
            Some(Some(SlotReg::Num(r, NumKind::Seat))) => Some(r),
            Some(_) => return Err(Declined::new("a decision's seat")),
        };
        let mut options = Vec::with_capacity(d.options.len());
        for o in &d.options {
            let count = match &o.param {
                None => Count::One(self.guard(o, seat_reg.is_none())?),
                Some((slot, dom))
                    if seat_reg.is_none()
                        && !matches!(
                            self.slots.get(*slot as usize),
                            Some(SlotReg::Num(_, NumKind::Card))
                        )
                        && self.kind(dom)? == Kind::Obj =>
                {
                    // A move over the values of a list or range: the domain worked
                    // out (by the engine's evaluator) just before the decision.
                    let param = match self.slots.get(*slot as usize).copied() {
                        Some(p @ (SlotReg::Num(..) | SlotReg::Set(_) | SlotReg::Obj(_))) => p,
                        _ => return Err(Declined::new("a move's value with no register")),
                    };
                    let of = self.obj(dom)?;
                    let guard = o.guard.as_ref().map(|g| Guard::Code(self.snippet(g)));
                    Count::Values { of, param, guard }
                }
                Some((slot, dom)) => {
                    let param = match self.slots.get(*slot as usize) {
                        Some(SlotReg::Num(r, NumKind::Card)) => *r,
                        _ => return Err(Declined::new("a move over values that are not cards")),
                    };
                    let of = match self.kind(dom)? {
                        Kind::Num(NumKind::Zone) | Kind::Set if seat_reg.is_none() => {
                            self.set(dom)?
                        }
                        _ => return Err(Declined::new("a move over another domain")),
                    };
                    let guard = match (&o.guard, o.left_out) {
                        (None, _) => CardGuard::All,
                        (Some(g), Some(t)) if g.leaves_out(*slot) == Some(t) => {
                            match self.slots.get(t as usize) {
                                Some(SlotReg::Num(r, NumKind::Card)) => CardGuard::AllBut(*r),
                                _ => CardGuard::Each(Guard::Code(self.snippet(g))),
                            }
                        }
                        // A guard that asks only about the card's class is one set,
                        // worked out right before the decision's instruction.
                        (Some(g), _) => match self.card_pred(*slot, g)? {
                            Some(s) => CardGuard::In(s),
                            None => CardGuard::Each(Guard::Code(self.snippet(g))),
                        },
                    };
                    Count::Cards { of, param, guard }
                }
            };
            options.push(PickOption {
                count,
                ends: o.ends_round,
                body: o.body,
            });
        }
        self.im.picks.push(PickDef {
            who,
            seat_reg,
            options: options.into_boxed_slice(),
            quick: None,
        });
        let k = (self.im.picks.len() - 1) as u16;
        self.fix_picks.push(k);
        self.emit(Ins::Pick(k));
        Ok(())
    }

    /// A claim window, or a `choose each` (`each`): every asked seat's moves.
    pub(super) fn window(&mut self, d: &Decide, each: bool) -> Res<()> {
        if d.options.len() > super::decide::MOST_OPTIONS {
            return Err(Declined::new("a claim window of many options"));
        }
        let who = self.seats_of(&d.who)?;
        let seat_reg = match d.seat_slot.map(|s| self.slots.get(s as usize).copied()) {
            Some(Some(SlotReg::Num(r, NumKind::Seat))) => r,
            _ => return Err(Declined::new("a claim window's seat")),
        };
        let mut options = Vec::with_capacity(d.options.len());
        for o in &d.options {
            let arg = match &o.param {
                None => None,
                Some((slot, dom)) => {
                    let param = match self.slots.get(*slot as usize).copied() {
                        Some(p @ (SlotReg::Num(..) | SlotReg::Set(_) | SlotReg::Obj(_))) => p,
                        _ => return Err(Declined::new("a claim's value with no register")),
                    };
                    let of = self.obj_temp();
                    let dom = self.cold_def(dom, SlotReg::Obj(of));
                    Some(ClaimArg { dom, of, param })
                }
            };
            options.push(ClaimOption {
                arg,
                name: o.name_id,
                guard: self.guard(o, false)?,
                ends: o.ends_round,
                priority: o.priority,
                body: o.body,
            });
        }
        self.im.claims.push(ClaimDef {
            who,
            seat_reg,
            options: options.into_boxed_slice(),
            after: d.after,
            declines: d.declines,
            quick: None,
        });
        let k = (self.im.claims.len() - 1) as u16;
        self.fix_claims.push(k);
        let at = self.op_pc.len() as u32 - 1;
        self.windows.push((at, k));
        if each {
            self.emit(Ins::Each(k));
        } else {
            self.emit(Ins::Claim(k));
        }
        Ok(())
    }
}
