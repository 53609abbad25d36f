//! The builtins of expressions (`count`, `top`, `sets`, `waits`, `claimed`, …): each
//! worked out from its evaluated arguments on the board, charging its work to the
//! evaluation's budget.

use super::error::RuntimeError;
use super::eval::Cx;
use crate::ir::{Builtin, Expr};
use crate::value::Value;

impl Cx<'_> {
    /// Builtin `b` of arguments `args`.
    pub(super) fn builtin(&mut self, b: Builtin, args: &[Expr]) -> Result<Value, RuntimeError> {
        // Builtins take at most four arguments (`sets(h, lo, hi, ATTR)`): keep them on
        // the stack.
        let mut vals = [Value::Unit, Value::Unit, Value::Unit, Value::Unit];
        for (slot, a) in vals.iter_mut().zip(args) {
            *slot = self.eval(a)?;
        }
        let arg = |i: usize| vals.get(i).cloned().unwrap_or(Value::Unit);
        Ok(match b {
            Builtin::Count | Builtin::Len => match arg(0) {
                Value::List(l) => Value::Int(l.len() as i64),
                v => Value::Int(self.cards(&v)?.len() as i64),
            },
            Builtin::Top => {
                let Value::Zone(z) = arg(0) else {
                    return Err(RuntimeError::new("`top` needs a zone", self.at));
                };
                match self.board("a zone")?.zones[z as usize].last() {
                    Some(c) => Value::Card(*c),
                    None => {
                        return Err(RuntimeError::new("`top` of an empty zone", self.at)
                            .with_help("check `count(zone) > 0` first"))
                    }
                }
            }
            Builtin::Empty => Value::Bool(self.cards(&arg(0))?.is_empty()),
            Builtin::Next | Builtin::Prev => {
                let s = self.seat(&arg(0))?;
                let n = self.board("seats")?.seats;
                Value::Seat(if b == Builtin::Next {
                    (s + 1) % n
                } else {
                    (s + n - 1) % n
                })
            }
            Builtin::Others => {
                let s = self.seat(&arg(0))?;
                let n = self.board("seats")?.seats;
                Value::List(
                    (1..n)
                        .map(|k| Value::Seat((s + k) % n))
                        .collect::<Vec<_>>()
                        .into(),
                )
            }
            Builtin::Seats => {
                let b = self.board("seats")?;
                Value::List(
                    b.seats_from_dealer()
                        .map(Value::Seat)
                        .collect::<Vec<_>>()
                        .into(),
                )
            }
            Builtin::Players => Value::Int(self.board("seats")?.seats as i64),
            Builtin::Leaders => {
                let v = arg(0).int() as u16;
                let b = self.board("a variable")?;
                let order: Vec<u8> = b.seats_from_dealer().collect();
                let val = |s: u8| {
                    b.vars
                        .get(b.var_slot(v, Some(s)))
                        .map(|x| x.int())
                        .unwrap_or(0)
                };
                let top = order.iter().map(|s| val(*s)).max().unwrap_or(0);
                Value::List(
                    order
                        .into_iter()
                        .filter(|s| val(*s) == top)
                        .map(Value::Seat)
                        .collect::<Vec<_>>()
                        .into(),
                )
            }
            Builtin::Role => {
                let s = self.seat(&arg(0))?;
                let b = self.board("seats")?;
                let rel = ((s as i64 - b.dealer as i64).rem_euclid(b.seats as i64)) as usize;
                let name = self
                    .p
                    .seats
                    .roles
                    .iter()
                    .find(|(n, _)| *n == b.seats as usize)
                    .and_then(|(_, r)| r.get(rel).cloned())
                    .unwrap_or_else(|| format!("seat {s}"));
                Value::Str(name.into())
            }
            Builtin::Pairs => {
                let set = self.cards(&arg(0))?;
                let a = arg(1).int() as u16;
                // ⌊n/2⌋ per value: one intersection with each of the attribute's classes.
                let pairs: usize = self
                    .p
                    .deck
                    .classes(a)
                    .iter()
                    .map(|class| set.inter(*class).len() / 2)
                    .sum();
                Value::Int(pairs as i64)
            }
            Builtin::Min => Value::Int(arg(0).int().min(arg(1).int())),
            Builtin::Max => Value::Int(arg(0).int().max(arg(1).int())),
            Builtin::Abs => Value::Int(
                arg(0)
                    .int()
                    .checked_abs()
                    .ok_or_else(|| super::typed::overflow(self.at))?,
            ),
            Builtin::CeilDiv => {
                let (a, d) = (arg(0).int(), arg(1).int());
                if d == 0 {
                    return Err(RuntimeError::new("division by zero", self.at));
                }
                // Rounds towards positive infinity for either sign of divisor.
                let Some(q) = a.checked_div(d) else {
                    return Err(RuntimeError::new("ceil_div overflows", self.at));
                };
                let up = (a % d != 0) && ((a < 0) == (d < 0));
                Value::Int(q.saturating_add(i64::from(up)))
            }
            Builtin::Tagged => {
                let s = self.cards(&arg(0))?;
                Value::Cards(s.inter(self.p.deck.tags[arg(1).int() as usize]))
            }
            Builtin::Matches => Value::Bool(false),
            Builtin::Waits(pi) => {
                let hand = self.cards(&arg(0))?;
                let formed = match args.get(1) {
                    Some(_) => self.formed(&arg(1))?,
                    None => Vec::new(),
                };
                Value::Cards(self.waits(pi, hand, &formed)?)
            }
            Builtin::Ordinal(e) => {
                let v = arg(0);
                let Value::Sym(s) = v else {
                    return Err(RuntimeError::new(
                        "a value of the enum is needed here",
                        self.at,
                    ));
                };
                match self
                    .p
                    .enums
                    .get(e as usize)
                    .and_then(|d| d.values.iter().position(|(x, _)| *x == s))
                {
                    Some(i) => Value::Int(i as i64),
                    None => {
                        return Err(RuntimeError::new(
                            format!("`{}` is not a value of this enum", self.p.sym(s)),
                            self.at,
                        ))
                    }
                }
            }
            Builtin::Formed(pi) => {
                let hand = self.cards(&arg(0))?;
                let formed = self.formed(&arg(1))?;
                let pat = &self.p.patterns[pi as usize];
                Value::Bool(crate::pattern::any_match_formed(self, pat, hand, &formed)?)
            }
            Builtin::Sets => {
                let set = self.cards(&arg(0))?;
                let (lo, hi) = (arg(1).int(), arg(2).int());
                let cap = crate::model::MAX_FACE_SETS;
                let alike = u16::try_from(arg(3).int()).ok();
                match crate::model::face_sets_alike(&self.p.deck, set, lo, hi, alike, cap) {
                    Ok((sets, steps)) => {
                        self.charge(steps)?;
                        Value::List(sets.into_iter().map(Value::Cards).collect())
                    }
                    Err(crate::model::TooManySets) => {
                        let sizes = match lo == hi {
                            true => format!("{lo}"),
                            false => format!("{lo} to {hi}"),
                        };
                        return Err(RuntimeError::new(
                            format!(
                                "`sets` of {} cards, {sizes} at a time, gives more than {cap} sets",
                                set.len()
                            ),
                            self.at,
                        )
                        .with_help("narrow the cards or the sizes (copies of a card count once), or choose in steps: one decision per card"));
                    }
                }
            }
            Builtin::Person => {
                let s = self.seat(&arg(0))?;
                Value::Bool(self.board("who plays")?.people & (1u32 << (s % 32)) != 0)
            }
            Builtin::Claimed => {
                let name = arg(0).int();
                let seats = self
                    .board("the claims")?
                    .claims
                    .iter()
                    .filter(|(_, n)| *n as i64 == name)
                    .map(|(s, _)| Value::Seat(*s))
                    .collect();
                Value::List(seats)
            }
            Builtin::Word(w) => {
                let set = self.cards(&arg(0))?;
                match self.p.words.get(w as usize) {
                    Some(list) => Value::Bool(list.spells(&self.p.deck, set)),
                    None => {
                        return Err(RuntimeError::new(
                            "this word list was not compiled into the program",
                            self.at,
                        ))
                    }
                }
            }
        })
    }
}
