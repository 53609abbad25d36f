//! Lowering quantifiers (`count`, `sum`, `max`, `min`, `all`, `any`, `filter`): a body
//! that asks only about a card's attributes, tags or membership is answered with set
//! operations, as the engine answers such quantifiers by class; any other walks its
//! cards or seats, one register per element.

use crate::ir::{Builtin, Expr, Op2};
use crate::model::CardSet;
use crate::value::Value;

use super::image::{Declined, SlotReg};
use super::ins::{Cmp, Cond, Ins, Num, NumKind, Reg, Set};
use super::lower::Lower;
use super::lower_expr::Kind;

type Res<T> = Result<T, Declined>;

impl Lower<'_> {
    /// `count`, `all`, `any` or `sum` over cards answered with sets (see
    /// [`Lower::card_pred`]): the answer's register, or `None` for another body.
    fn binder_by_sets(
        &mut self,
        kind: crate::ir::BinderKind,
        slot: u16,
        dom: &Expr,
        body: &Expr,
    ) -> Res<Option<Reg>> {
        use crate::ir::BinderKind as B;
        if seats_domain(dom).is_some()
            || !matches!(self.kind(dom)?, Kind::Set | Kind::Num(NumKind::Zone))
        {
            return Ok(None);
        }
        // `sum(c in h: c.attr)`.
        if kind == B::Sum {
            let Expr::Attr(attr, c) = body else {
                return Ok(None);
            };
            if !matches!(**c, Expr::Local(s) if s == slot)
                || !matches!(
                    self.p.deck.attrs[*attr as usize].kind,
                    crate::model::AttrKind::Int(_)
                )
            {
                return Ok(None);
            }
            let v = self.set(dom)?;
            let dst = self.num_temp();
            self.emit(Ins::AttrSum {
                dst,
                v,
                attr: *attr,
            });
            return Ok(Some(dst));
        }
        let Some(pred) = self.card_pred(slot, body)? else {
            return Ok(None);
        };
        let of = self.set(dom)?;
        let dst = self.num_temp();
        let held = self.set_temp();
        match kind {
            // Every card holds: none of the domain is outside the set.
            B::All => {
                self.emit(Ins::Minus {
                    dst: held,
                    a: of,
                    b: pred,
                });
                let n = self.num_temp();
                self.emit(Ins::SetCount {
                    dst: n,
                    v: Set::R(held),
                });
                self.emit(Ins::Test {
                    dst,
                    c: Cond {
                        a: Num::R(n),
                        cmp: Cmp::Eq,
                        b: Num::K(0),
                    },
                });
            }
            _ => {
                self.emit(Ins::Inter {
                    dst: held,
                    a: of,
                    b: pred,
                });
                let n = if kind == B::Count {
                    dst
                } else {
                    self.num_temp()
                };
                self.emit(Ins::SetCount {
                    dst: n,
                    v: Set::R(held),
                });
                if kind == B::Any {
                    self.emit(Ins::Test {
                        dst,
                        c: Cond {
                            a: Num::R(n),
                            cmp: Cmp::Ne,
                            b: Num::K(0),
                        },
                    });
                }
            }
        }
        Ok(Some(dst))
    }

    /// The cards of the deck for which a quantifier's body holds, as a set, when the
    /// body asks only about the card's attributes (compared with values that do not
    /// depend on the card), its tags, its membership of sets and conditions that do not
    /// read the card at all (every card or none), joined with `and`, `or` and `not`.
    /// `None` for any other body (the quantifier then walks its cards).
    pub(super) fn card_pred(&mut self, slot: u16, body: &Expr) -> Res<Option<Set>> {
        if !self.pred_shape(slot, body)? {
            return Ok(None);
        }
        self.pred(slot, body).map(Some)
    }

    /// Whether [`Lower::pred`] can make a set of `body`.
    fn pred_shape(&mut self, slot: u16, body: &Expr) -> Res<bool> {
        let elem = |e: &Expr| matches!(e, Expr::Local(s) if *s == slot);
        if self.card_free(slot, body)? {
            return Ok(true);
        }
        Ok(match body {
            Expr::Not(x) => self.pred_shape(slot, x)?,
            Expr::And(a, b) | Expr::Or(a, b) => {
                self.pred_shape(slot, a)? && self.pred_shape(slot, b)?
            }
            Expr::Const(Value::Bool(_)) => true,
            Expr::HasTag(_, c) => elem(c),
            Expr::Bin(Op2::In | Op2::InCards, c, s) => {
                elem(c)
                    && !reads_slot(s, slot)
                    && matches!(self.kind(s)?, Kind::Set | Kind::Num(NumKind::Zone))
            }
            Expr::Bin(
                Op2::Eq
                | Op2::Ne
                | Op2::EqScalar
                | Op2::NeScalar
                | Op2::Lt
                | Op2::Le
                | Op2::Gt
                | Op2::Ge,
                a,
                b,
            ) => {
                let attr_of = |e: &Expr| match e {
                    Expr::Attr(t, c) if elem(c) => Some(*t),
                    _ => None,
                };
                let (attr, other) = match (attr_of(a), attr_of(b)) {
                    (Some(t), None) => (t, &**b),
                    (None, Some(t)) => (t, &**a),
                    _ => return Ok(false),
                };
                self.attr_cards(attr);
                // As the engine compares: symbols only for equality, with symbols;
                // ints with ints (or seats).
                let int_attr = matches!(
                    self.p.deck.attrs[attr as usize].kind,
                    crate::model::AttrKind::Int(_)
                );
                let ordered = matches!(body, Expr::Bin(Op2::Lt | Op2::Le | Op2::Gt | Op2::Ge, ..));
                let fits = match self.kind(other)? {
                    Kind::Num(NumKind::Int | NumKind::Seat) => int_attr,
                    Kind::Num(NumKind::Sym) => !int_attr && !ordered,
                    _ => false,
                };
                fits && !self.im.attr_cards[attr as usize].1.is_empty() && !reads_slot(other, slot)
            }
            _ => false,
        })
    }

    /// The set [`Lower::card_pred`] describes (its shape checked first).
    fn pred(&mut self, slot: u16, body: &Expr) -> Res<Set> {
        let all = self.set_const(self.p.deck.all());
        if self.card_free(slot, body)? && !matches!(body, Expr::Const(_)) {
            let n = self.num(body)?;
            let dst = self.set_temp();
            self.emit(Ins::SetIf {
                dst,
                c: Cond {
                    a: n,
                    cmp: Cmp::Ne,
                    b: Num::K(0),
                },
                v: Set::K(all),
            });
            return Ok(Set::R(dst));
        }
        Ok(match body {
            Expr::Not(x) => {
                let x = self.pred(slot, x)?;
                let dst = self.set_temp();
                self.emit(Ins::Minus {
                    dst,
                    a: Set::K(all),
                    b: x,
                });
                Set::R(dst)
            }
            Expr::And(a, b) | Expr::Or(a, b) => {
                let (x, y) = (self.pred(slot, a)?, self.pred(slot, b)?);
                let dst = self.set_temp();
                self.emit(match body {
                    Expr::And(..) => Ins::Inter { dst, a: x, b: y },
                    _ => Ins::Union { dst, a: x, b: y },
                });
                Set::R(dst)
            }
            Expr::Const(Value::Bool(b)) => match b {
                true => Set::K(all),
                false => Set::K(self.set_const(CardSet::EMPTY)),
            },
            Expr::HasTag(t, _) => {
                let tagged = self
                    .p
                    .deck
                    .tags
                    .get(*t as usize)
                    .copied()
                    .unwrap_or_default();
                Set::K(self.set_const(tagged))
            }
            Expr::Bin(Op2::In | Op2::InCards, _, s) => self.set(s)?,
            Expr::Bin(op, a, b) => {
                let flipped =
                    !matches!(&**a, Expr::Attr(_, c) if matches!(**c, Expr::Local(s) if s == slot));
                let (attr, other) = match (&**a, &**b) {
                    (Expr::Attr(t, _), x) if !flipped => (*t, x),
                    (x, Expr::Attr(t, _)) => (*t, x),
                    _ => return Err(Declined::new("a predicate of another shape")),
                };
                let mut cmp = match op {
                    Op2::Eq | Op2::EqScalar => Cmp::Eq,
                    Op2::Ne | Op2::NeScalar => Cmp::Ne,
                    Op2::Lt => Cmp::Lt,
                    Op2::Le => Cmp::Le,
                    Op2::Gt => Cmp::Gt,
                    _ => Cmp::Ge,
                };
                // `x < c.attr` is `c.attr > x`.
                if flipped {
                    cmp = match cmp {
                        Cmp::Lt => Cmp::Gt,
                        Cmp::Le => Cmp::Ge,
                        Cmp::Gt => Cmp::Lt,
                        Cmp::Ge => Cmp::Le,
                        other => other,
                    };
                }
                let v = self.num(other)?;
                let dst = self.set_temp();
                self.emit(Ins::AttrCards { dst, attr, cmp, v });
                Set::R(dst)
            }
            _ => return Err(Declined::new("a predicate of another shape")),
        })
    }

    /// Whether `body` is a condition that does not read the card in `slot` (so it holds
    /// for every card or for none).
    /// (A body whose kind is not known is not one: the quantifier walks its cards.)
    fn card_free(&mut self, slot: u16, body: &Expr) -> Res<bool> {
        Ok(!reads_slot(body, slot) && matches!(self.kind(body), Ok(Kind::Num(NumKind::Bool))))
    }

    /// Makes the table of attribute `attr`'s cards by value, if not made yet.
    fn attr_cards(&mut self, attr: u16) {
        let a = attr as usize;
        if self.im.attr_cards.len() <= a {
            self.im.attr_cards.resize(a + 1, (0, Vec::new()));
        }
        if !self.im.attr_cards[a].1.is_empty() {
            return;
        }
        let values = &self.p.deck.attrs[a].values;
        let (lo, hi) = match (values.iter().min(), values.iter().max()) {
            (Some(lo), Some(hi)) if hi - lo < 4096 => (*lo, *hi),
            _ => return,
        };
        let mut sets = vec![CardSet::EMPTY; (hi - lo + 1) as usize];
        for (c, v) in values.iter().enumerate() {
            sets[(v - lo) as usize].insert(c as crate::model::CardIx);
        }
        self.im.attr_cards[a] = (lo, sets);
    }

    /// Whether a quantifier walks cards into a card local (what [`Lower::binder_num`]
    /// lowers; any other domain goes to the evaluator).
    pub(super) fn card_domain(&self, dom: &Expr) -> Res<bool> {
        Ok(seats_domain(dom).is_some()
            || matches!(
                self.kind(dom)?,
                Kind::Set | Kind::Num(NumKind::Zone) | Kind::Num(NumKind::Card)
            ))
    }

    /// Starts a walk over a quantifier's cards: the domain copied into a register the
    /// walk takes cards out of, the card bound to `slot`'s register. The loop's head.
    fn walk(&mut self, slot: u16, dom: &Expr) -> Res<(Reg, Reg, u32)> {
        // Seats, from the dealer on (or after a seat), as the engine walks `seats()`.
        if let Some(others) = seats_domain(dom) {
            let over = match others {
                None => super::ins::Loop::All,
                Some(s) => super::ins::Loop::Others(self.num(s)?),
            };
            let (base, len, idx) = (self.num_temp(), self.num_temp(), self.num_temp());
            self.emit(Ins::LoopStart {
                over,
                base,
                len,
                idx,
            });
            let var = self.num_temp();
            self.overlay.push((slot, SlotReg::Num(var, NumKind::Seat)));
            let top = self.here();
            self.emit(Ins::LoopNext {
                over,
                base,
                len,
                idx,
                var,
                exit: u32::MAX,
            });
            return Ok((0, var, top));
        }
        let v = self.set(dom)?;
        // The element has its own register, bound for the body (see `Lower::slot`).
        let var = self.num_temp();
        self.overlay.push((slot, SlotReg::Num(var, NumKind::Card)));
        let rest = self.set_temp();
        self.emit(Ins::SetCards { dst: rest, v });
        let top = self.here();
        self.emit(Ins::SetPop {
            rest,
            var,
            exit: u32::MAX,
        });
        Ok((rest, var, top))
    }

    /// `count`, `sum`, `max`, `min`, `all` or `any` over cards: the answer's register.
    /// As the engine's, `all` and `any` stop at the first card that settles them, and
    /// `max` and `min` of no cards are 0.
    pub(super) fn binder_num(
        &mut self,
        kind: crate::ir::BinderKind,
        slot: u16,
        dom: &Expr,
        body: &Expr,
    ) -> Res<Reg> {
        use super::ins::Place;
        use crate::ir::BinderKind as B;
        // A body that only asks about the card's attributes, tags or membership: the
        // cards for which it holds are worked out as a set, once (as the engine answers
        // such quantifiers by class).
        if matches!(kind, B::Count | B::All | B::Any | B::Sum) {
            if let Some(r) = self.binder_by_sets(kind, slot, dom, body)? {
                return Ok(r);
            }
        }
        let acc = self.num_temp();
        let init = i32::from(kind == B::All);
        self.emit(Ins::Store {
            to: Place::R(acc),
            v: Num::K(init as i64),
            kind: NumKind::Int,
        });
        let seen = self.num_temp();
        if matches!(kind, B::Max | B::Min) {
            self.emit(Ins::Store {
                to: Place::R(seen),
                v: Num::K(0),
                kind: NumKind::Int,
            });
        }
        let (_, _, top) = self.walk(slot, dom)?;
        match kind {
            B::Count => {
                let c = self.cond(body)?;
                self.emit(Ins::JumpUnless(c, top));
                self.emit(Ins::Add {
                    to: Place::R(acc),
                    v: Num::K(1),
                });
                self.emit(Ins::Jump(top));
            }
            B::Sum => {
                let v = self.num(body)?;
                self.emit(Ins::Add {
                    to: Place::R(acc),
                    v,
                });
                self.emit(Ins::Jump(top));
            }
            B::Max | B::Min => {
                let v = self.num(body)?;
                self.emit(Ins::Best {
                    acc,
                    seen,
                    v,
                    max: kind == B::Max,
                });
                self.emit(Ins::Jump(top));
            }
            B::All | B::Any => {
                // `all`: a card that fails sets 0 and ends the walk; `any`: one that
                // holds sets 1 and ends it.
                let mut c = self.cond(body)?;
                if kind == B::All {
                    c.cmp = c.cmp.negated();
                }
                self.emit(Ins::JumpUnless(c, top));
                self.emit(Ins::Store {
                    to: Place::R(acc),
                    v: Num::K(i64::from(kind == B::Any)),
                    kind: NumKind::Int,
                });
            }
            B::Filter => return Err(Declined::new("a filter as a number")),
        }
        self.overlay.pop();
        let end = self.here();
        self.patch_jump(top, end);
        Ok(acc)
    }

    /// `filter(c in dom: body)`: the cards for which the body holds.
    pub(super) fn binder_filter(&mut self, slot: u16, dom: &Expr, body: &Expr) -> Res<Reg> {
        if let Some(pred) = self.card_pred(slot, body)? {
            let of = self.set(dom)?;
            let dst = self.set_temp();
            self.emit(Ins::Inter {
                dst,
                a: of,
                b: pred,
            });
            return Ok(dst);
        }
        let acc = self.set_temp();
        let empty = self.set_const(CardSet::EMPTY);
        self.emit(Ins::SetCards {
            dst: acc,
            v: Set::K(empty),
        });
        let (_, var, top) = self.walk(slot, dom)?;
        let c = self.cond(body)?;
        self.emit(Ins::JumpUnless(c, top));
        self.emit(Ins::SetInsert {
            dst: acc,
            c: Num::R(var),
        });
        self.emit(Ins::Jump(top));
        self.overlay.pop();
        let end = self.here();
        self.patch_jump(top, end);
        Ok(acc)
    }
}

/// Whether `e` reads local `slot`.
fn reads_slot(e: &Expr, slot: u16) -> bool {
    let mut found = matches!(e, Expr::Local(s) if *s == slot);
    if !found {
        e.children(|c| found |= reads_slot(c, slot));
    }
    found
}

/// `seats()` (`Some(None)`) or `others(s)` (`Some(Some(s))`) as a quantifier's domain.
fn seats_domain(dom: &Expr) -> Option<Option<&Expr>> {
    match dom {
        Expr::Call(Builtin::Seats, args, _) if args.is_empty() => Some(None),
        Expr::Call(Builtin::Others, args, _) if args.len() == 1 => Some(Some(&args[0])),
        _ => None,
    }
}
