//! Unboxed evaluation: conditions, ints, card sets, cards and seats evaluated straight
//! to machine values for the expression forms the compiler typed, so the hot paths
//! (guards, comparisons, zone reads, score guards) build no [`Value`] at all. Every
//! other form falls back to [`Cx::eval`] with exactly its meaning.

use super::error::RuntimeError;
use super::eval::{read_var, zone_at, Cx};
use crate::ir::{BinderKind, Builtin, Expr, Loc, Op2, ScoreField};
use crate::model::{CardIx, CardSet};
use crate::value::Value;

/// Most score-table arguments evaluated on the stack before the table is known to
/// score something.
pub(crate) const STACK_ARGS: usize = 8;

impl Cx<'_> {
    /// Evaluates a condition.
    pub fn eval_bool(&mut self, e: &Expr) -> Result<bool, RuntimeError> {
        Ok(match e {
            Expr::Const(v) => v.truthy(),
            Expr::Local(s) => self.locals.get(*s as usize).is_some_and(Value::truthy),
            Expr::Not(x) => !self.eval_bool(x)?,
            Expr::And(a, b) => self.eval_bool(a)? && self.eval_bool(b)?,
            Expr::Or(a, b) => self.eval_bool(a)? || self.eval_bool(b)?,
            Expr::Bin(op @ (Op2::EqScalar | Op2::NeScalar), a, b) => {
                let eq = match (self.scalar(a)?, self.scalar(b)?) {
                    (Some(x), Some(y)) => x == y,
                    // An unset value or an odd one: compare as values.
                    _ => {
                        let x = self.eval(a)?;
                        let y = self.eval(b)?;
                        self.equal(&x, &y)?
                    }
                };
                eq == (*op == Op2::EqScalar)
            }
            Expr::Bin(op @ (Op2::Lt | Op2::Le | Op2::Gt | Op2::Ge), a, b) => {
                let x = self.eval_int(a)?;
                let y = self.eval_int(b)?;
                match op {
                    Op2::Lt => x < y,
                    Op2::Le => x <= y,
                    Op2::Gt => x > y,
                    _ => x >= y,
                }
            }
            Expr::Bin(Op2::InCards, a, b) => match self.eval(a)? {
                Value::Card(c) => self.eval_cards(b)?.contains(c),
                Value::Unit => false,
                _ => {
                    return Err(RuntimeError::new(
                        "`in` needs a card and cards, or a value and a list",
                        self.at,
                    ))
                }
            },
            Expr::HasTag(t, c) => match self.local_card(c) {
                Some(card) => self.p.deck.tags[*t as usize].contains(card),
                None => match self.eval(c)? {
                    Value::Card(c) => self.p.deck.tags[*t as usize].contains(c),
                    _ => false,
                },
            },
            Expr::Call(Builtin::Empty, args, loc) if args.len() == 1 => {
                let saved = std::mem::replace(&mut self.at, *loc);
                let r = self.eval_cards(&args[0]);
                self.at = saved;
                r?.is_empty()
            }
            Expr::Binder(k @ (BinderKind::All | BinderKind::Any), slot, dom, body, by_class) => {
                self.quantify(*k, *slot, dom, body, *by_class)?.truthy()
            }
            Expr::LetIn(slot, v, body) => {
                self.bind(*slot, v)?;
                self.eval_bool(body)?
            }
            _ => self.eval(e)?.truthy(),
        })
    }

    /// The card a local holds, read in place; `None` for any other expression or value.
    #[inline]
    fn local_card(&self, e: &Expr) -> Option<CardIx> {
        match e {
            Expr::Local(s) => match self.locals.get(*s as usize) {
                Some(Value::Card(c)) => Some(*c),
                _ => None,
            },
            _ => None,
        }
    }

    /// Evaluates an int (a seat or a boolean reads as its number, anything else as 0,
    /// as [`Value::int`] does).
    pub fn eval_int(&mut self, e: &Expr) -> Result<i64, RuntimeError> {
        Ok(match e {
            Expr::Const(v) => v.int(),
            Expr::Local(s) => self.locals.get(*s as usize).map_or(0, Value::int),
            Expr::Var(v) => read_var(self.board("a variable")?, *v, None, self.at)?.int(),
            Expr::SeatVar(v, s) => {
                let seat = self.eval_seat(s)?;
                read_var(self.board("a variable")?, *v, Some(seat), self.at)?.int()
            }
            Expr::Dealer => self.board("the dealer")?.dealer as i64,
            Expr::Neg(x) => {
                let v = self.eval_int(x)?;
                v.checked_neg().ok_or_else(|| overflow(self.at))?
            }
            Expr::Bin(op @ (Op2::Add | Op2::Sub | Op2::Mul), a, b) => {
                let x = self.eval_int(a)?;
                let y = self.eval_int(b)?;
                match op {
                    Op2::Add => x.checked_add(y),
                    Op2::Sub => x.checked_sub(y),
                    _ => x.checked_mul(y),
                }
                .ok_or_else(|| overflow(self.at))?
            }
            Expr::Call(Builtin::Count, args, loc)
                if args.len() == 1 && !matches!(args[0], Expr::List(_)) =>
            {
                let saved = std::mem::replace(&mut self.at, *loc);
                let r = self.count(&args[0]);
                self.at = saved;
                r?
            }
            Expr::ScoreField(ScoreField::Total, r) => match &**r {
                Expr::Score(s, args, loc) => self.score_total(*s, args, *loc)?,
                _ => self.eval(e)?.int(),
            },
            Expr::Binder(k @ (BinderKind::Count | BinderKind::Sum), slot, dom, body, by_class) => {
                self.quantify(*k, *slot, dom, body, *by_class)?.int()
            }
            Expr::LetIn(slot, v, body) => {
                self.bind(*slot, v)?;
                self.eval_int(body)?
            }
            _ => self.eval(e)?.int(),
        })
    }

    /// `count(x)`: the cards of a zone or set, or the items of a list.
    fn count(&mut self, x: &Expr) -> Result<i64, RuntimeError> {
        Ok(match x {
            // `count(h - 札)` (as the rewritten sums of points read): no value is built.
            Expr::Zone(_)
            | Expr::SeatZone(..)
            | Expr::Cards(_)
            | Expr::Group(_)
            | Expr::Bin(Op2::Union | Op2::Minus, ..) => self.eval_cards(x)?.len() as i64,
            Expr::Local(s)
                if matches!(
                    self.locals.get(*s as usize),
                    Some(Value::Cards(_) | Value::Card(_))
                ) =>
            {
                self.eval_cards(x)?.len() as i64
            }
            // `count(月札(h, m))`: an inlined def's `let`s, then a filter, counted
            // without building a value for the set.
            Expr::LetIn(slot, v, body) => {
                self.bind(*slot, v)?;
                self.count(body)?
            }
            Expr::Binder(BinderKind::Filter, slot, dom, body, by_class) => {
                match self.quantify(BinderKind::Filter, *slot, dom, body, *by_class)? {
                    Value::Cards(s) => s.len() as i64,
                    Value::List(l) => l.len() as i64,
                    v => self.cards(&v)?.len() as i64,
                }
            }
            _ => match self.eval(x)? {
                Value::List(l) => l.len() as i64,
                v => self.cards(&v)?.len() as i64,
            },
        })
    }

    /// Evaluates a card set (a card, a set, or a zone's contents).
    pub fn eval_cards(&mut self, e: &Expr) -> Result<CardSet, RuntimeError> {
        Ok(match e {
            Expr::Cards(s) => *s,
            Expr::Zone(z) => {
                let b = self.board("a zone")?;
                b.sets[zone_at(b, *z, None, self.at)? as usize]
            }
            Expr::SeatZone(z, s) => match self.cards_here(e) {
                Some(set) => set,
                None => {
                    let seat = self.eval_seat(s)?;
                    let b = self.board("a zone")?;
                    b.sets[zone_at(b, *z, Some(seat), self.at)? as usize]
                }
            },
            Expr::Group(g) => self
                .groups
                .get(*g as usize)
                .copied()
                .unwrap_or(CardSet::EMPTY),
            Expr::Local(s) => match self.locals.get(*s as usize) {
                Some(Value::Cards(s)) => *s,
                Some(Value::Card(c)) => CardSet::single(*c),
                Some(v) => {
                    let v = v.clone();
                    self.cards(&v)?
                }
                None => self.cards(&Value::Unit)?,
            },
            Expr::Bin(op @ (Op2::Union | Op2::Minus), a, b) => {
                if let Some(set) = self.cards_here(e) {
                    return Ok(set);
                }
                let x = self.eval_cards(a)?;
                let y = self.eval_cards(b)?;
                if *op == Op2::Union {
                    x.union(y)
                } else {
                    x.minus(y)
                }
            }
            Expr::Binder(BinderKind::Filter, slot, dom, body, by_class) => {
                match self.quantify(BinderKind::Filter, *slot, dom, body, *by_class)? {
                    Value::Cards(s) => s,
                    v => self.cards(&v)?,
                }
            }
            Expr::LetIn(slot, v, body) => {
                self.bind(*slot, v)?;
                self.eval_cards(body)?
            }
            _ => {
                let v = self.eval(e)?;
                self.cards(&v)?
            }
        })
    }

    /// The cards `e` names when they can be read straight off the board (see
    /// [`super::quicken::cards_on`]); `None` for any other form or value, which
    /// [`Cx::eval_cards`] then evaluates in full (with its errors).
    #[inline]
    fn cards_here(&self, e: &Expr) -> Option<CardSet> {
        super::quicken::cards_on(self.b?, self.locals, e, 0)
    }

    /// `let slot = v` of an inlined def.
    fn bind(&mut self, slot: u16, v: &Expr) -> Result<(), RuntimeError> {
        let v = self.eval(v)?;
        if let Some(s) = self.locals.get_mut(slot as usize) {
            *s = v;
        }
        Ok(())
    }

    /// The deck's cards outside `hand` that, added to it, make pattern `pi` match (none
    /// unless the hand is one card short of the pattern's size). Copies the pattern
    /// cannot tell apart (`PatternDef::told_apart`) complete a hand alike, so one copy
    /// of each face outside the hand is tried, and answers for them all. Each
    /// candidate is charged as a step; most fail the pattern's prefilter at once.
    pub(super) fn waits(
        &mut self,
        pi: u16,
        hand: CardSet,
        formed: &[CardSet],
    ) -> Result<CardSet, RuntimeError> {
        let p = self.p;
        let Some(pat) = p.patterns.get(pi as usize) else {
            return Ok(CardSet::EMPTY);
        };
        let mut out = CardSet::EMPTY;
        // The formed groups' cards are the hand's too, and not candidates.
        let Some(all) = crate::pattern::together(hand, formed) else {
            return Ok(out);
        };
        if all.len() + 1 != pat.size && !pat.is_union() {
            return Ok(out);
        }
        let candidates = p.deck.all().minus(all);
        self.charge(candidates.len() as u64)?;
        let mut answered = CardSet::EMPTY;
        for c in candidates.iter() {
            if answered.contains(c) {
                continue;
            }
            let alike = if pat.told_apart.contains(c) {
                CardSet::single(c)
            } else {
                p.deck.face_set(c).inter(candidates)
            };
            answered = answered.union(alike);
            let mut with = hand;
            with.insert(c);
            if crate::pattern::any_match_formed(self, pat, with, formed)? {
                out = out.union(alike);
            }
        }
        Ok(out)
    }

    /// Evaluates a seat, checking it exists.
    pub fn eval_seat(&mut self, e: &Expr) -> Result<u8, RuntimeError> {
        let n = self.b.map(|b| b.seats).unwrap_or(u8::MAX);
        let s = match e {
            Expr::Dealer => return Ok(self.board("the dealer")?.dealer),
            Expr::Local(s) => match self.locals.get(*s as usize) {
                Some(Value::Seat(s)) => *s as i64,
                Some(Value::Int(i)) => *i,
                _ => -1,
            },
            Expr::Const(Value::Seat(s)) => *s as i64,
            Expr::Const(Value::Int(i)) => *i,
            Expr::Call(b @ (Builtin::Next | Builtin::Prev), args, loc) if args.len() == 1 => {
                let saved = std::mem::replace(&mut self.at, *loc);
                let r = self.next_seat(*b == Builtin::Next, &args[0]);
                self.at = saved;
                return r;
            }
            _ => {
                let v = self.eval(e)?;
                return self.seat(&v);
            }
        };
        if s < 0 || s >= n as i64 {
            return self.seat(&Value::Int(s));
        }
        Ok(s as u8)
    }

    /// The seat after (or before) a seat.
    fn next_seat(&mut self, next: bool, x: &Expr) -> Result<u8, RuntimeError> {
        let s = self.eval_seat(x)?;
        let n = self.board("seats")?.seats;
        Ok(if next { (s + 1) % n } else { (s + n - 1) % n })
    }

    /// A scalar (int, seat, card, bool or symbol) as one number, or `None` for any
    /// other value (an unset local, an empty group's attribute).
    pub(super) fn scalar(&mut self, e: &Expr) -> Result<Option<i64>, RuntimeError> {
        Ok(match e {
            Expr::Dealer => Some(self.board("the dealer")?.dealer as i64),
            Expr::Local(s) => self.locals.get(*s as usize).and_then(scalar_of),
            Expr::Const(v) => scalar_of(v),
            // A quantifier's or a def's card: read in place (no value is cloned).
            Expr::Attr(a, c) if matches!(**c, Expr::Local(_)) => match self.local_card(c) {
                Some(card) => Some(self.p.deck.attr(*a, card)),
                None => scalar_of(&self.eval(e)?),
            },
            Expr::Attr(a, c) => match self.eval(c)? {
                Value::Card(c) => Some(self.p.deck.attr(*a, c)),
                _ => {
                    // The same error as the boxed path.
                    return Ok(scalar_of(&self.eval(e)?));
                }
            },
            Expr::GroupAttr(a, g) => {
                let s = self.eval_cards(g)?;
                super::eval::natural_first(self.p, s).map(|c| self.p.deck.attr(*a, c))
            }
            Expr::Bin(Op2::Add | Op2::Sub | Op2::Mul, ..) | Expr::Neg(_) => Some(self.eval_int(e)?),
            // A variable may hold any scalar (a card, a seat, an enum's value), not
            // only a number: read as it is, never as `eval_int`'s 0 for a non-number.
            Expr::Var(v) => scalar_of(&read_var(self.board("a variable")?, *v, None, self.at)?),
            Expr::SeatVar(v, s) => {
                let seat = self.eval_seat(s)?;
                scalar_of(&read_var(
                    self.board("a variable")?,
                    *v,
                    Some(seat),
                    self.at,
                )?)
            }
            // `count(山札) == 0`: the same test `eval` makes before `eval_int`.
            Expr::Call(Builtin::Count, args, _)
                if args.len() == 1 && !matches!(args[0], Expr::List(_)) =>
            {
                Some(self.eval_int(e)?)
            }
            Expr::Call(Builtin::Top, args, loc) if args.len() == 1 => {
                let saved = std::mem::replace(&mut self.at, *loc);
                let c = self.top(&args[0]);
                self.at = saved;
                Some(c? as i64)
            }
            _ => scalar_of(&self.eval(e)?),
        })
    }

    /// The top card of a zone.
    pub(super) fn top(&mut self, z: &Expr) -> Result<CardIx, RuntimeError> {
        let zone = match z {
            Expr::Zone(z) => zone_at(self.board("a zone")?, *z, None, self.at)?,
            Expr::SeatZone(z, s) => {
                let seat = self.eval_seat(s)?;
                zone_at(self.board("a zone")?, *z, Some(seat), self.at)?
            }
            _ => match self.eval(z)? {
                Value::Zone(z) => z,
                _ => return Err(RuntimeError::new("`top` needs a zone", self.at)),
            },
        };
        match self.board("a zone")?.zones[zone as usize].last() {
            Some(c) => Ok(*c),
            None => Err(RuntimeError::new("`top` of an empty zone", self.at)
                .with_help("check `count(zone) > 0` first")),
        }
    }

    /// A score table's total, without building its result: the hand is tested against
    /// the table's prefilter before any other argument is evaluated.
    fn score_total(&mut self, s: u16, args: &[Expr], loc: Loc) -> Result<i64, RuntimeError> {
        let saved = std::mem::replace(&mut self.at, loc);
        let r = self.score_total_at(s, args);
        self.at = saved;
        r
    }

    fn score_total_at(&mut self, s: u16, args: &[Expr]) -> Result<i64, RuntimeError> {
        if args.len() > STACK_ARGS {
            let mut vals = Vec::with_capacity(args.len());
            for a in args {
                vals.push(self.score_arg(a)?);
            }
            if crate::score::surely_nothing(self.p, s, &vals) {
                return Ok(0);
            }
            return crate::score::evaluate_total(self, s, &vals);
        }
        // The table's hand first: most hands offered to a table score nothing.
        let over = match &self.p.scores[s as usize].over {
            Some((_, Expr::Local(i), _)) if (*i as usize) < args.len() => Some(*i as usize),
            _ => None,
        };
        let hand = match over {
            Some(i) => {
                let hand = self.score_arg(&args[i])?;
                if crate::score::surely_nothing_hand(self.p, s, &hand) {
                    return Ok(0);
                }
                hand
            }
            None => Value::Unit,
        };
        let mut vals: [Value; STACK_ARGS] = std::array::from_fn(|_| Value::Unit);
        for (k, a) in args.iter().enumerate() {
            vals[k] = if Some(k) == over {
                hand.clone()
            } else {
                self.score_arg(a)?
            };
        }
        crate::score::evaluate_total(self, s, &vals[..args.len()])
    }

    /// A score-table argument: zones are read now (a table sees only values).
    fn score_arg(&mut self, a: &Expr) -> Result<Value, RuntimeError> {
        // A constant (most defaults: `win: 和了 = 上がり`) is its value.
        if let Expr::Const(v) = a {
            if !matches!(v, Value::Zone(_)) {
                return Ok(v.clone());
            }
        }
        // A bare local keeps its value as it is (a card stays a card).
        if !matches!(a, Expr::Local(_)) {
            if let Some(set) = self.cards_here(a) {
                return Ok(Value::Cards(set));
            }
        }
        Ok(match a {
            Expr::Zone(_) | Expr::SeatZone(..) | Expr::Bin(Op2::Union | Op2::Minus, ..) => {
                Value::Cards(self.eval_cards(a)?)
            }
            _ => match self.eval(a)? {
                Value::Zone(z) => Value::Cards(self.cards(&Value::Zone(z))?),
                v => v,
            },
        })
    }
}

/// The error for int arithmetic whose result does not fit in 64 bits: a rule that
/// counts chips or points never gets there, so this is a runaway rule, not a game.
pub(crate) fn overflow(at: Loc) -> RuntimeError {
    RuntimeError::new(
        "integer overflow: the result is outside the 64-bit range",
        at,
    )
    .with_help("a value this large usually means a loop adds or multiplies without end")
}

/// A scalar value as one number (see [`Cx::scalar`]).
#[inline]
pub(crate) fn scalar_of(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Seat(s) => Some(*s as i64),
        Value::Card(c) => Some(*c as i64),
        Value::Bool(b) => Some(*b as i64),
        Value::Sym(s) => Some(*s as i64),
        _ => None,
    }
}
