//! Lowering expressions: each to an operand read in place (a register, a variable's
//! slot, a zone's count) or to instructions that leave it in a fresh register. What has
//! no instruction goes to the engine's evaluator ([`Ins::Cold`]) when its kind is
//! known, and declines the program when it is not.

use crate::ir::{Builtin, Expr, Op2, ScoreField};
use crate::model::CardSet;
use crate::value::{Type, Value};

use super::image::{ColdDef, Declined, SlotReg};
use super::ins::{Arg, Arith, Cmp, Cond, Field, Ins, Num, NumKind, Reg, SeatsOf, Set, Zr};
use super::lower::Lower;

/// What a lowered expression is held as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A number of a kind.
    Num(NumKind),
    /// A card set.
    Set,
    /// A per-seat zone family (only dealt to, or read whole by the evaluator).
    Family,
    /// Any other value (lists, score results, text, ranges).
    Obj,
}

/// The kind a checked type is held as; `None` for a type the machine has no place for.
pub(super) fn kind_of_type(t: &Type) -> Option<Kind> {
    Some(match t {
        Type::Int => Kind::Num(NumKind::Int),
        Type::Bool => Kind::Num(NumKind::Bool),
        Type::Seat => Kind::Num(NumKind::Seat),
        Type::Card => Kind::Num(NumKind::Card),
        Type::Sym(_) => Kind::Num(NumKind::Sym),
        Type::Zone => Kind::Num(NumKind::Zone),
        Type::Cards => Kind::Set,
        Type::ZoneFamily => Kind::Family,
        Type::Str | Type::List(_) | Type::Score | Type::Range => Kind::Obj,
        Type::Error => return None,
    })
}

/// The kind of a constant.
fn kind_of_value(v: &Value) -> Kind {
    match v {
        Value::Int(_) => Kind::Num(NumKind::Int),
        Value::Bool(_) => Kind::Num(NumKind::Bool),
        Value::Seat(_) => Kind::Num(NumKind::Seat),
        Value::Card(_) => Kind::Num(NumKind::Card),
        Value::Sym(_) => Kind::Num(NumKind::Sym),
        Value::Zone(_) => Kind::Num(NumKind::Zone),
        Value::Cards(_) => Kind::Set,
        Value::ZoneFamily(_) => Kind::Family,
        _ => Kind::Obj,
    }
}

type Res<T> = Result<T, Declined>;

impl Lower<'_> {
    /// A local slot's register: an expression's own binding (`let … in`, a quantifier's
    /// element) first, then the procedure's.
    pub(super) fn slot(&self, s: u16) -> Option<&SlotReg> {
        match self.overlay.iter().rev().find(|(x, _)| *x == s) {
            Some((_, r)) => Some(r),
            None => self.slots.get(s as usize),
        }
    }

    /// Binds `slot` to `v` for an expression (a def's argument bound once): a fresh
    /// register of `v`'s own kind, seen by the expression's body until the overlay is
    /// cut back to the length returned.
    fn let_in(&mut self, slot: u16, v: &Expr) -> Res<usize> {
        let before = self.overlay.len();
        let reg = match self.kind(v)? {
            Kind::Num(k) => {
                let r = self.num_temp();
                self.num_into(v, r, k)?;
                SlotReg::Num(r, k)
            }
            Kind::Set => {
                let x = self.set(v)?;
                let r = self.set_temp();
                self.emit(Ins::SetCards { dst: r, v: x });
                SlotReg::Set(r)
            }
            Kind::Obj => {
                let r = self.obj_temp();
                self.obj_into(v, r)?;
                SlotReg::Obj(r)
            }
            Kind::Family => return Err(Declined::new("a per-seat zone bound in an expression")),
        };
        self.overlay.push((slot, reg));
        Ok(before)
    }

    /// The kind an expression's value is held as, from the checker's types.
    pub(super) fn kind(&self, e: &Expr) -> Res<Kind> {
        use crate::ir::BinderKind as B;
        let num = |k| Ok(Kind::Num(k));
        match e {
            Expr::Const(v) => Ok(kind_of_value(v)),
            Expr::Local(s) => match self.slot(*s) {
                Some(SlotReg::Num(_, k)) => num(*k),
                Some(SlotReg::Set(_)) => Ok(Kind::Set),
                Some(SlotReg::Obj(_)) => Ok(Kind::Obj),
                _ => Err(Declined::new("a local the checker gave no type")),
            },
            Expr::Param(i) => self.typed(&self.p.params[*i as usize].ty),
            Expr::Var(v) | Expr::SeatVar(v, _) => self.typed(&self.p.vars[*v as usize].ty),
            Expr::Dealer => num(NumKind::Seat),
            Expr::Zone(_) | Expr::SeatZone(..) => num(NumKind::Zone),
            Expr::ZoneFamily(_) => Ok(Kind::Family),
            Expr::Cards(_) => Ok(Kind::Set),
            Expr::Group(_) => Err(Declined::new("a pattern group outside a score table")),
            // The common value of an attribute over a set of cards (`p.number` of a set
            // move's tiles), worked out by the engine's evaluator.
            Expr::GroupAttr(a, _) => match self.p.deck.attrs[*a as usize].kind {
                crate::model::AttrKind::Int(_) => num(NumKind::Int),
                crate::model::AttrKind::Symbols(_) => num(NumKind::Sym),
            },
            Expr::List(_) | Expr::Range(..) => Ok(Kind::Obj),
            Expr::Neg(_) => num(NumKind::Int),
            Expr::Not(_) | Expr::And(..) | Expr::Or(..) | Expr::HasTag(..) => num(NumKind::Bool),
            Expr::PatternTest(..) => num(NumKind::Bool),
            Expr::Bin(op, ..) => match op {
                Op2::Add | Op2::Sub | Op2::Mul | Op2::Div | Op2::Rem => num(NumKind::Int),
                Op2::Union | Op2::Minus => Ok(Kind::Set),
                Op2::Concat => Ok(Kind::Obj),
                _ => num(NumKind::Bool),
            },
            Expr::Attr(a, _) => match self.p.deck.attrs[*a as usize].kind {
                crate::model::AttrKind::Int(_) => num(NumKind::Int),
                crate::model::AttrKind::Symbols(_) => num(NumKind::Sym),
            },
            Expr::ScoreField(ScoreField::Name | ScoreField::Shape, _) => Ok(Kind::Obj),
            Expr::ScoreField(ScoreField::Has(_), _) => num(NumKind::Bool),
            Expr::ScoreField(..) => num(NumKind::Int),
            Expr::Index(l, _) => match self.item_kind(l) {
                Some(k) => Ok(k),
                None => Err(Declined::new("an item of a list of unknown kind")),
            },
            Expr::Call(b, ..) => match b {
                Builtin::Count
                | Builtin::Len
                | Builtin::Players
                | Builtin::Pairs
                | Builtin::Min
                | Builtin::Max
                | Builtin::Abs
                | Builtin::CeilDiv => num(NumKind::Int),
                Builtin::Top => num(NumKind::Card),
                Builtin::Empty | Builtin::Matches | Builtin::Word(_) => num(NumKind::Bool),
                Builtin::Next | Builtin::Prev => num(NumKind::Seat),
                Builtin::Others | Builtin::Seats | Builtin::Leaders => Ok(Kind::Obj),
                // Worked out by the engine's evaluator (`cold`), from the cards, seats
                // and dealer the machine keeps on the board as the engine does, and
                // from their arguments.
                Builtin::Role | Builtin::Sets => Ok(Kind::Obj),
                Builtin::Person | Builtin::Formed(_) => num(NumKind::Bool),
                Builtin::Ordinal(_) => num(NumKind::Int),
                Builtin::Tagged | Builtin::Waits(_) => Ok(Kind::Set),
                // The last claim window's claims, which the machine's windows keep on
                // the board once a program reads them.
                Builtin::Claimed => {
                    self.reads_claims.set(true);
                    Ok(Kind::Obj)
                }
            },
            Expr::Score(..) => Ok(Kind::Obj),
            Expr::Binder(k, ..) => match k {
                B::Count | B::Sum | B::Max | B::Min => num(NumKind::Int),
                B::All | B::Any => num(NumKind::Bool),
                B::Filter => Ok(Kind::Set),
            },
            Expr::LetIn(_, _, body) => self.kind(body),
            Expr::If(_, a, _) => self.kind(a),
        }
    }

    /// The kind a type is held as.
    fn typed(&self, t: &Type) -> Res<Kind> {
        kind_of_type(t).ok_or_else(|| Declined::new("a value of unknown type"))
    }

    /// The kind of a list's items, when known.
    fn item_kind(&self, l: &Expr) -> Option<Kind> {
        match l {
            Expr::Call(Builtin::Others | Builtin::Seats | Builtin::Leaders, ..) => {
                Some(Kind::Num(NumKind::Seat))
            }
            Expr::Local(s) => match self.slot_types.get(*s as usize)? {
                Type::List(t) => kind_of_type(t),
                _ => None,
            },
            Expr::Var(v) | Expr::SeatVar(v, _) => match &self.p.vars[*v as usize].ty {
                Type::List(t) => kind_of_type(t),
                _ => None,
            },
            Expr::Call(Builtin::Sets, ..) => Some(Kind::Set),
            Expr::List(items) => items.first().and_then(|i| self.kind(i).ok()),
            _ => None,
        }
    }

    /// A fresh number register.
    /// (Registers past a file's size wrap here; `Lower::finish` then declines.)
    pub(super) fn num_temp(&mut self) -> Reg {
        self.nums += 1;
        (self.nums - 1) as Reg
    }

    /// A fresh card-set register.
    pub(super) fn set_temp(&mut self) -> Reg {
        self.sets += 1;
        (self.sets - 1) as Reg
    }

    /// A fresh other-values register.
    pub(super) fn obj_temp(&mut self) -> Reg {
        self.objs += 1;
        (self.objs - 1) as Reg
    }

    /// A number operand in a register (copied into a fresh one unless it is one).
    pub(super) fn num_reg(&mut self, n: Num) -> Reg {
        match n {
            Num::R(r) => r,
            other => {
                let r = self.num_temp();
                self.emit(Ins::Store {
                    to: super::ins::Place::R(r),
                    v: other,
                    kind: NumKind::Int,
                });
                r
            }
        }
    }

    /// A number: an int, bool, seat, card, symbol or zone instance.
    pub(super) fn num(&mut self, e: &Expr) -> Res<Num> {
        use crate::ir::BinderKind as B;
        Ok(match e {
            Expr::Const(v) => match v {
                Value::Zone(z) => Num::K(*z as i64),
                v => match crate::engine::scalar_of(v) {
                    Some(k) => Num::K(k),
                    None => return Err(Declined::new("a constant that is not a number")),
                },
            },
            Expr::Local(s) => match self.slot(*s) {
                Some(SlotReg::Num(r, _)) => Num::R(*r),
                _ => return Err(Declined::new("a local that holds no number")),
            },
            Expr::Param(i) => match self.kind(e)? {
                Kind::Num(_) => Num::P(*i),
                _ => return Err(Declined::new("a parameter that is not a number")),
            },
            Expr::Var(v) if !self.p.vars[*v as usize].per_seat => {
                Num::V(self.layout.var_base[*v as usize])
            }
            Expr::SeatVar(v, s) => {
                let seat = self.num(s)?;
                Num::SV(self.layout.var_base[*v as usize], self.num_reg(seat))
            }
            Expr::Dealer => Num::Dealer,
            Expr::Zone(_) | Expr::SeatZone(..) => match self.zone(e)? {
                Zr::I(i) => Num::K(i as i64),
                Zr::R(r) => Num::R(r),
                Zr::S(first, seat) => {
                    let dst = self.num_temp();
                    self.emit(Ins::Arith {
                        dst,
                        op: Arith::Add,
                        a: Num::K(first as i64),
                        b: Num::R(seat),
                    });
                    Num::R(dst)
                }
            },
            Expr::Neg(a) => {
                let a = self.num(a)?;
                let dst = self.num_temp();
                self.emit(Ins::Neg { dst, a });
                Num::R(dst)
            }
            Expr::Bin(op @ (Op2::Add | Op2::Sub | Op2::Mul | Op2::Div | Op2::Rem), a, b) => {
                let op = match op {
                    Op2::Add => Arith::Add,
                    Op2::Sub => Arith::Sub,
                    Op2::Mul => Arith::Mul,
                    Op2::Div => Arith::Div,
                    _ => Arith::Rem,
                };
                let (a, b) = (self.num(a)?, self.num(b)?);
                let dst = self.num_temp();
                self.emit(Ins::Arith { dst, op, a, b });
                Num::R(dst)
            }
            Expr::Not(_)
            | Expr::And(..)
            | Expr::Or(..)
            | Expr::Bin(..)
            | Expr::HasTag(..)
            | Expr::Binder(B::All | B::Any, ..) => {
                let dst = self.num_temp();
                self.bool_into(e, dst)?;
                Num::R(dst)
            }
            Expr::Call(Builtin::Count, args, _) if args.len() == 1 => match self.kind(&args[0])? {
                Kind::Num(NumKind::Zone) => Num::Count(self.zone(&args[0])?),
                Kind::Set => {
                    let v = self.set(&args[0])?;
                    let dst = self.num_temp();
                    self.emit(Ins::SetCount { dst, v });
                    Num::R(dst)
                }
                _ => self.cold_num(e)?,
            },
            Expr::Call(Builtin::Len, args, _)
                if args.len() == 1 && self.kind(&args[0])? == Kind::Obj =>
            {
                let r = self.obj(&args[0])?;
                let dst = self.num_temp();
                self.emit(Ins::Len { dst, r });
                Num::R(dst)
            }
            Expr::Attr(a, c) => {
                let c = self.num(c)?;
                let dst = self.num_temp();
                self.emit(Ins::Attr { dst, attr: *a, c });
                Num::R(dst)
            }
            Expr::LetIn(slot, v, body) => {
                let bound = self.let_in(*slot, v)?;
                let r = self.num(body);
                self.overlay.truncate(bound);
                return r;
            }
            Expr::Binder(k, slot, dom, body, _)
                if matches!(k, B::Count | B::Sum | B::Max | B::Min) && self.card_domain(dom)? =>
            {
                Num::R(self.binder_num(*k, *slot, dom, body)?)
            }
            Expr::Call(Builtin::Top, args, _) if args.len() == 1 => {
                let z = self.zone(&args[0])?;
                let dst = self.num_temp();
                self.emit(Ins::Top { dst, z });
                Num::R(dst)
            }
            Expr::Call(b @ (Builtin::Next | Builtin::Prev), args, _) if args.len() == 1 => {
                let s = self.num(&args[0])?;
                let dst = self.num_temp();
                self.emit(Ins::NextSeat {
                    dst,
                    s,
                    back: *b == Builtin::Prev,
                });
                Num::R(dst)
            }
            Expr::Call(Builtin::Players, args, _) if args.is_empty() => Num::K(self.seats as i64),
            // `has` and `r[Y]` compare names: the engine's evaluator answers them.
            Expr::ScoreField(
                f @ (ScoreField::Total | ScoreField::Factor | ScoreField::Base | ScoreField::Count),
                r,
            ) => {
                let field = match f {
                    ScoreField::Total => Field::Total,
                    ScoreField::Factor => Field::Factor,
                    ScoreField::Base => Field::Base,
                    _ => Field::Count,
                };
                let dst = self.num_temp();
                match (&**r, field) {
                    (Expr::Score(t, args, at), Field::Total) => {
                        let args = self.score_args(args)?;
                        self.emit(Ins::ScoreTotal {
                            dst,
                            table: *t,
                            args,
                            at: *at,
                        });
                    }
                    _ => {
                        let r = self.obj(r)?;
                        self.emit(Ins::Field { dst, r, field });
                    }
                }
                Num::R(dst)
            }
            Expr::Index(l, i) if matches!(self.item_kind(l), Some(Kind::Num(_))) => {
                let r = self.obj(l)?;
                let i = self.num(i)?;
                let dst = self.num_temp();
                self.emit(Ins::Index { dst, r, i });
                Num::R(dst)
            }
            _ => self.cold_num(e)?,
        })
    }

    /// `dst = e` for a number of kind `k`: the instruction that works `e` out writes
    /// `dst` itself when it is the only one of them to write the fresh register it was
    /// given (else a copy follows).
    pub(super) fn num_into(&mut self, e: &Expr, dst: Reg, k: NumKind) -> Res<()> {
        let (start, fresh) = (self.here() as usize, self.nums);
        let v = self.num(e)?;
        if let Num::R(t) = v {
            let code = &self.im.code[start..];
            let writers = code.iter().filter(|i| writes(i) == Some(t)).count();
            if t as u16 >= fresh && writers == 1 && code.last().and_then(writes) == Some(t) {
                let last = self.im.code.len() - 1;
                retarget(&mut self.im.code[last], dst);
                return Ok(());
            }
        }
        self.emit(Ins::Store {
            to: super::ins::Place::R(dst),
            v,
            kind: k,
        });
        Ok(())
    }

    /// A number the engine's evaluator works out.
    fn cold_num(&mut self, e: &Expr) -> Res<Num> {
        match self.kind(e)? {
            Kind::Num(k) => {
                let r = self.num_temp();
                self.cold(e, SlotReg::Num(r, k));
                Ok(Num::R(r))
            }
            other => Err(Declined::new(format!(
                "a number of another kind ({other:?}: {e:?})"
            ))),
        }
    }

    /// `dst = e`, a bool (0 or 1), with `and` and `or` taken as the engine takes them:
    /// the right side only when the left does not settle it.
    pub(super) fn bool_into(&mut self, e: &Expr, dst: Reg) -> Res<()> {
        use super::ins::Place;
        match e {
            Expr::And(a, b) | Expr::Or(a, b) => {
                let is_and = matches!(e, Expr::And(..));
                // dst = a; when a settles it, skip b.
                self.bool_into(a, dst)?;
                let skip = self.here();
                self.emit(Ins::JumpUnless(
                    Cond {
                        a: Num::R(dst),
                        cmp: if is_and { Cmp::Ne } else { Cmp::Eq },
                        b: Num::K(0),
                    },
                    u32::MAX,
                ));
                self.bool_into(b, dst)?;
                let end = self.here();
                self.patch_jump(skip, end);
                Ok(())
            }
            Expr::Const(Value::Bool(b)) => {
                self.emit(Ins::Store {
                    to: Place::R(dst),
                    v: Num::K(*b as i64),
                    kind: NumKind::Bool,
                });
                Ok(())
            }
            _ => {
                let c = self.cond(e)?;
                self.emit(Ins::Test { dst, c });
                Ok(())
            }
        }
    }

    /// A bool expression as one comparison of numbers (a bool value `v` as `v != 0`).
    pub(super) fn cond(&mut self, e: &Expr) -> Res<Cond> {
        use crate::ir::BinderKind as BK;
        let cmp_of = |op: &Op2| match op {
            Op2::Eq | Op2::EqScalar => Some(Cmp::Eq),
            Op2::Ne | Op2::NeScalar => Some(Cmp::Ne),
            Op2::Lt => Some(Cmp::Lt),
            Op2::Le => Some(Cmp::Le),
            Op2::Gt => Some(Cmp::Gt),
            Op2::Ge => Some(Cmp::Ge),
            _ => None,
        };
        match e {
            Expr::Not(x) => {
                let c = self.cond(x)?;
                Ok(Cond {
                    cmp: c.cmp.negated(),
                    ..c
                })
            }
            Expr::Bin(op @ (Op2::Eq | Op2::Ne | Op2::EqScalar | Op2::NeScalar), a, b)
                if self.setlike(a)? || self.setlike(b)? =>
            {
                // Sets (and zones, read as their cards) compare by their cards.
                let (a, b) = (self.set(a)?, self.set(b)?);
                let dst = self.num_temp();
                self.emit(Ins::SetEq {
                    dst,
                    a,
                    b,
                    ne: matches!(op, Op2::Ne | Op2::NeScalar),
                });
                Ok(truthy(dst))
            }
            Expr::Bin(op, a, b) if cmp_of(op).is_some() && self.scalar_pair(a, b)? => {
                let (a, b) = (self.num(a)?, self.num(b)?);
                Ok(Cond {
                    a,
                    cmp: cmp_of(op).expect("a comparison"),
                    b,
                })
            }
            Expr::Bin(Op2::In | Op2::InCards, x, y)
                if self.kind(x)? == Kind::Num(NumKind::Card)
                    && matches!(self.kind(y)?, Kind::Set | Kind::Num(NumKind::Zone)) =>
            {
                let c = self.num(x)?;
                let v = self.set(y)?;
                let dst = self.num_temp();
                self.emit(Ins::CardIn { dst, c, v });
                Ok(truthy(dst))
            }
            Expr::Call(Builtin::Empty, args, _)
                if args.len() == 1
                    && matches!(self.kind(&args[0])?, Kind::Set | Kind::Num(NumKind::Zone)) =>
            {
                let count = match self.kind(&args[0])? {
                    Kind::Num(NumKind::Zone) => Num::Count(self.zone(&args[0])?),
                    _ => {
                        let v = self.set(&args[0])?;
                        let dst = self.num_temp();
                        self.emit(Ins::SetCount { dst, v });
                        Num::R(dst)
                    }
                };
                Ok(Cond {
                    a: count,
                    cmp: Cmp::Eq,
                    b: Num::K(0),
                })
            }
            Expr::HasTag(t, c) if self.kind(c)? == Kind::Num(NumKind::Card) => {
                let tagged = self
                    .p
                    .deck
                    .tags
                    .get(*t as usize)
                    .copied()
                    .unwrap_or_default();
                let v = Set::K(self.set_const(tagged));
                let c = self.num(c)?;
                let dst = self.num_temp();
                self.emit(Ins::CardIn { dst, c, v });
                Ok(truthy(dst))
            }
            Expr::LetIn(slot, v, body) => {
                let bound = self.let_in(*slot, v)?;
                let c = self.cond(body);
                self.overlay.truncate(bound);
                c
            }
            Expr::Binder(k @ (BK::All | BK::Any), slot, dom, body, _)
                if self.card_domain(dom)? =>
            {
                Ok(truthy(self.binder_num(*k, *slot, dom, body)?))
            }
            Expr::Bin(Op2::In, x, y) if matches!(**y, Expr::List(_)) => {
                let Expr::List(items) = &**y else {
                    unreachable!("matched above")
                };
                self.in_list(x, items)
            }
            Expr::And(..) | Expr::Or(..) | Expr::Const(Value::Bool(_)) => {
                let dst = self.num_temp();
                self.bool_into(e, dst)?;
                Ok(truthy(dst))
            }
            _ => match self.kind(e)? {
                Kind::Num(NumKind::Bool) => {
                    let v = self.num_or_cold(e)?;
                    Ok(Cond {
                        a: v,
                        cmp: Cmp::Ne,
                        b: Num::K(0),
                    })
                }
                _ => Err(Declined::new("a condition that is not a bool")),
            },
        }
    }

    /// A bool read as a number, through the evaluator for what has no instruction.
    fn num_or_cold(&mut self, e: &Expr) -> Res<Num> {
        match e {
            Expr::Local(_) | Expr::Var(_) | Expr::SeatVar(..) | Expr::Param(_) => self.num(e),
            _ => self.cold_num(e),
        }
    }

    /// `x in [a, b, …]` for a number `x`: item by item, as the engine compares them.
    fn in_list(&mut self, x: &Expr, items: &[Expr]) -> Res<Cond> {
        if !matches!(self.kind(x)?, Kind::Num(_)) {
            return Err(Declined::new("`in` a list of values that are not numbers"));
        }
        for it in items {
            if !self.scalar_pair(x, it)? {
                return Err(Declined::new("`in` a list of values of another kind"));
            }
        }
        let x = self.num(x)?;
        let dst = self.num_temp();
        let mut hits = Vec::new();
        for it in items {
            let y = self.num(it)?;
            self.emit(Ins::Test {
                dst,
                c: Cond {
                    a: x,
                    cmp: Cmp::Eq,
                    b: y,
                },
            });
            // Found: the rest are not compared.
            hits.push(self.here());
            self.emit(Ins::JumpUnless(truthy_not(dst), u32::MAX));
        }
        if items.is_empty() {
            self.emit(Ins::Store {
                to: super::ins::Place::R(dst),
                v: Num::K(0),
                kind: NumKind::Bool,
            });
        }
        let end = self.here();
        for h in hits {
            self.patch_jump(h, end);
        }
        Ok(truthy(dst))
    }

    /// Whether two operands compare as numbers of one kind (seats and ints mix).
    fn scalar_pair(&self, a: &Expr, b: &Expr) -> Res<bool> {
        Ok(match (self.kind(a)?, self.kind(b)?) {
            (Kind::Num(x), Kind::Num(y)) => {
                let seatint = |k| matches!(k, NumKind::Int | NumKind::Seat);
                x == y && x != NumKind::Zone || seatint(x) && seatint(y)
            }
            _ => false,
        })
    }

    /// Whether a comparison operand is compared by its cards (a set or a zone).
    fn setlike(&self, e: &Expr) -> Res<bool> {
        Ok(matches!(
            self.kind(e)?,
            Kind::Set | Kind::Num(NumKind::Zone)
        ))
    }

    /// A zone instance.
    pub(super) fn zone(&mut self, e: &Expr) -> Res<Zr> {
        match e {
            Expr::Zone(z) => match self.p.zones[*z as usize].owner {
                crate::ir::Owner::Shared => Ok(Zr::I(self.layout.zone_base[*z as usize])),
                crate::ir::Owner::PerSeat => Err(Declined::new("a per-seat zone without a seat")),
            },
            Expr::SeatZone(z, s) => {
                let seat = self.num(s)?;
                Ok(Zr::S(
                    self.layout.zone_base[*z as usize],
                    self.num_reg(seat),
                ))
            }
            Expr::Const(Value::Zone(z)) => Ok(Zr::I(*z)),
            Expr::Local(s) => match self.slot(*s) {
                Some(SlotReg::Num(r, NumKind::Zone)) => Ok(Zr::R(*r)),
                _ => Err(Declined::new("a local that holds no zone")),
            },
            _ if self.kind(e)? == Kind::Num(NumKind::Zone) => {
                let r = self.num_temp();
                self.cold(e, SlotReg::Num(r, NumKind::Zone));
                Ok(Zr::R(r))
            }
            _ => Err(Declined::new("a zone of another kind")),
        }
    }

    /// A card set (a zone, read as its cards; a card, as a set of one).
    pub(super) fn set(&mut self, e: &Expr) -> Res<Set> {
        Ok(match e {
            Expr::Cards(s) | Expr::Const(Value::Cards(s)) => Set::K(self.set_const(*s)),
            Expr::Local(s) => match self.slot(*s) {
                Some(SlotReg::Set(r)) => Set::R(*r),
                Some(SlotReg::Num(r, NumKind::Card)) => Set::Card(*r),
                Some(SlotReg::Num(r, NumKind::Zone)) => Set::Zone(Zr::R(*r)),
                _ => return Err(Declined::new("a local that holds no cards")),
            },
            Expr::Var(v) if !self.p.vars[*v as usize].per_seat && self.kind(e)? == Kind::Set => {
                Set::V(self.layout.var_base[*v as usize])
            }
            Expr::SeatVar(v, s) if self.kind(e)? == Kind::Set => {
                let seat = self.num(s)?;
                Set::SV(self.layout.var_base[*v as usize], self.num_reg(seat))
            }
            Expr::LetIn(slot, v, body) => {
                let bound = self.let_in(*slot, v)?;
                let r = self.set(body);
                self.overlay.truncate(bound);
                return r;
            }
            Expr::Binder(crate::ir::BinderKind::Filter, slot, dom, body, _)
                if self.card_domain(dom)? =>
            {
                Set::R(self.binder_filter(*slot, dom, body)?)
            }
            Expr::Bin(op @ (Op2::Union | Op2::Minus), a, b) => {
                let (a, b) = (self.set(a)?, self.set(b)?);
                let dst = self.set_temp();
                self.emit(match op {
                    Op2::Union => Ins::Union { dst, a, b },
                    _ => Ins::Minus { dst, a, b },
                });
                Set::R(dst)
            }
            _ => match self.kind(e)? {
                Kind::Num(NumKind::Zone) => Set::Zone(self.zone(e)?),
                Kind::Num(NumKind::Card) => {
                    let c = self.num(e)?;
                    Set::Card(self.num_reg(c))
                }
                Kind::Set => {
                    let r = self.set_temp();
                    self.cold(e, SlotReg::Set(r));
                    Set::R(r)
                }
                _ => return Err(Declined::new("cards of another kind")),
            },
        })
    }

    /// Another value (a list, a score result, text), in a register.
    pub(super) fn obj(&mut self, e: &Expr) -> Res<Reg> {
        if let Expr::Local(s) = e {
            if let Some(SlotReg::Obj(r)) = self.slot(*s) {
                return Ok(*r);
            }
        }
        let dst = self.obj_temp();
        self.obj_into(e, dst)?;
        Ok(dst)
    }

    /// `dst = e` for another value.
    pub(super) fn obj_into(&mut self, e: &Expr, dst: Reg) -> Res<()> {
        let of = match e {
            Expr::Call(Builtin::Seats, args, _) if args.is_empty() => Some(SeatsOf::All),
            Expr::Call(Builtin::Others, args, _) if args.len() == 1 => {
                Some(SeatsOf::Others(self.num(&args[0])?))
            }
            Expr::Call(Builtin::Leaders, args, _) => match args.as_slice() {
                [Expr::Const(Value::Int(v))] if (*v as usize) < self.p.vars.len() => {
                    Some(SeatsOf::Leaders(self.layout.var_base[*v as usize]))
                }
                _ => None,
            },
            _ => None,
        };
        if let Some(of) = of {
            self.emit(Ins::SeatList { dst, of });
            return Ok(());
        }
        match e {
            Expr::Score(t, args, at) => {
                let args = self.score_args(args)?;
                self.emit(Ins::Score {
                    dst,
                    table: *t,
                    args,
                    at: *at,
                });
                Ok(())
            }
            Expr::Local(s) => match self.slot(*s) {
                Some(SlotReg::Obj(_)) => {
                    self.cold(e, SlotReg::Obj(dst));
                    Ok(())
                }
                _ => Err(Declined::new("a local of another kind")),
            },
            _ if self.kind(e)? == Kind::Obj => {
                self.cold(e, SlotReg::Obj(dst));
                Ok(())
            }
            _ => Err(Declined::new("a value of another kind")),
        }
    }

    /// A score table's arguments, as the engine hands them over: zones and card
    /// expressions as their cards, anything else as its value.
    fn score_args(&mut self, args: &[Expr]) -> Res<u16> {
        let mut out = Vec::with_capacity(args.len());
        for a in args {
            out.push(match self.kind(a)? {
                Kind::Num(NumKind::Zone) | Kind::Set => Arg::Set(self.set(a)?),
                Kind::Num(k) => Arg::Num(self.num(a)?, k),
                Kind::Obj => Arg::Obj(self.obj(a)?),
                Kind::Family => return Err(Declined::new("a per-seat zone as a table's argument")),
            });
        }
        self.arg_list(out)
    }

    /// Keeps an argument list.
    pub(super) fn arg_list(&mut self, args: Vec<Arg>) -> Res<u16> {
        let i = self.im.arg_lists.len();
        self.im.arg_lists.push(args.into_boxed_slice());
        u16::try_from(i).map_err(|_| Declined::new("too many argument lists"))
    }

    /// Keeps a constant card set.
    pub(super) fn set_const(&mut self, s: CardSet) -> u16 {
        match self.im.sets.iter().position(|k| *k == s) {
            Some(i) => i as u16,
            None => {
                self.im.sets.push(s);
                (self.im.sets.len() - 1) as u16
            }
        }
    }

    /// `dst = e`, worked out by the engine's evaluator.
    pub(super) fn cold(&mut self, e: &Expr, dst: SlotReg) {
        let i = self.cold_def(e, dst);
        self.emit(Ins::Cold(i));
    }

    /// Keeps `dst = e` for the engine's evaluator, to be run where the machine asks
    /// for it: its index in [`super::Image::cold`].
    pub(super) fn cold_def(&mut self, e: &Expr, dst: SlotReg) -> u16 {
        let i = self.im.cold.len() as u16;
        let mut reads = Vec::new();
        local_reads(e, &mut reads);
        reads.sort_unstable();
        reads.dedup();
        self.im.cold.push(ColdDef {
            expr: e.clone(),
            overlay: self.overlay.clone(),
            dst,
            at: self.at.unwrap_or_default(),
            reads: reads.into_boxed_slice(),
        });
        i
    }
}

/// Every local slot `e` reads (`Expr::Local`), anywhere in it.
fn local_reads(e: &Expr, out: &mut Vec<u16>) {
    if let Expr::Local(s) = e {
        out.push(*s);
    }
    e.children(|c| local_reads(c, out));
}

/// The number register an instruction writes, if it writes one (and nothing else).
fn writes(i: &Ins) -> Option<Reg> {
    match *i {
        Ins::Arith { dst, .. }
        | Ins::Neg { dst, .. }
        | Ins::Test { dst, .. }
        | Ins::NextSeat { dst, .. }
        | Ins::SetEq { dst, .. }
        | Ins::SetCount { dst, .. }
        | Ins::CardIn { dst, .. }
        | Ins::Top { dst, .. }
        | Ins::ScoreTotal { dst, .. }
        | Ins::Field { dst, .. }
        | Ins::Len { dst, .. }
        | Ins::Index { dst, .. } => Some(dst),
        Ins::Store {
            to: super::ins::Place::R(r),
            ..
        } => Some(r),
        _ => None,
    }
}

/// Points an instruction that [`writes`] a number register at `dst` instead.
fn retarget(i: &mut Ins, dst: Reg) {
    match i {
        Ins::Arith { dst: d, .. }
        | Ins::Neg { dst: d, .. }
        | Ins::Test { dst: d, .. }
        | Ins::NextSeat { dst: d, .. }
        | Ins::SetEq { dst: d, .. }
        | Ins::SetCount { dst: d, .. }
        | Ins::CardIn { dst: d, .. }
        | Ins::Top { dst: d, .. }
        | Ins::ScoreTotal { dst: d, .. }
        | Ins::Field { dst: d, .. }
        | Ins::Len { dst: d, .. }
        | Ins::Index { dst: d, .. } => *d = dst,
        Ins::Store {
            to: super::ins::Place::R(r),
            ..
        } => *r = dst,
        _ => {}
    }
}

/// The condition "the bool in `r` is true".
fn truthy(r: Reg) -> Cond {
    Cond {
        a: Num::R(r),
        cmp: Cmp::Ne,
        b: Num::K(0),
    }
}

/// The condition "the bool in `r` is false": jumping unless it holds jumps on true.
fn truthy_not(r: Reg) -> Cond {
    Cond {
        a: Num::R(r),
        cmp: Cmp::Eq,
        b: Num::K(0),
    }
}
