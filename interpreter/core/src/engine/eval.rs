//! Evaluating compiled expressions against a board, under a step budget.

use std::sync::Arc;

use super::error::RuntimeError;
use super::state::{Board, Layout};
use crate::ir::{BinderKind, Builtin, Expr, Loc, Op2, Program, ScoreField};
use crate::model::{CardSet, GameRng};
use crate::value::Value;

/// Steps one top-level evaluation may take (quantifier iterations, pattern search nodes).
pub const EVAL_BUDGET: u64 = 20_000_000;

/// The context of one evaluation.
pub struct Cx<'a> {
    /// The program.
    pub p: &'a Program,
    /// The table (absent for parameter-only evaluation).
    pub b: Option<&'a Board>,
    /// Local slots of the running frame.
    pub locals: &'a mut [Value],
    /// Groups of the pattern match in view.
    pub groups: &'a [CardSet],
    /// Steps left.
    pub budget: u64,
    /// The location charged when the budget runs out.
    pub at: Loc,
}

impl Cx<'_> {
    /// Charges `n` steps.
    #[inline]
    pub fn charge(&mut self, n: u64) -> Result<(), RuntimeError> {
        if self.budget < n {
            // The evaluation stops here, having spent its budget: a round or game that
            // lent it less than a whole evaluation's budget then knows it ran out.
            self.budget = 0;
            return Err(RuntimeError::new("this rule takes too many steps to evaluate", self.at)
                .with_help(format!("an evaluation may take at most {EVAL_BUDGET} steps: simplify the pattern or quantifier")));
        }
        self.budget -= n;
        Ok(())
    }

    pub(super) fn board(&self, what: &str) -> Result<&Board, RuntimeError> {
        self.b
            .ok_or_else(|| RuntimeError::new(format!("{what} needs a game in progress"), self.at))
    }

    /// The card set a value stands for (a card, a set, or a zone's contents).
    #[inline]
    pub fn cards(&self, v: &Value) -> Result<CardSet, RuntimeError> {
        match v {
            Value::Cards(s) => Ok(*s),
            Value::Card(c) => Ok(CardSet::single(*c)),
            Value::Zone(z) => Ok(self.board("a zone")?.sets[*z as usize]),
            // A per-seat zone read as cards is every seat's zone together.
            Value::ZoneFamily(z) => {
                let b = self.board("a zone")?;
                let base = b.layout.zone_base[*z as usize] as usize;
                Ok(
                    (0..b.seats as usize)
                        .fold(CardSet::EMPTY, |acc, s| acc.union(b.sets[base + s])),
                )
            }
            _ => Err(RuntimeError::new(
                format!("expected cards, found {v:?}"),
                self.at,
            )),
        }
    }

    pub(super) fn seat(&self, v: &Value) -> Result<u8, RuntimeError> {
        let n = self.b.map(|b| b.seats).unwrap_or(u8::MAX);
        let s = match v {
            Value::Seat(s) => *s as i64,
            Value::Int(i) => *i,
            _ => -1,
        };
        if s < 0 || s >= n as i64 {
            return Err(RuntimeError::new(
                format!(
                    "seat {s} does not exist (seats are 0..{})",
                    n.saturating_sub(1)
                ),
                self.at,
            ));
        }
        Ok(s as u8)
    }

    /// Evaluates an expression.
    pub fn eval(&mut self, e: &Expr) -> Result<Value, RuntimeError> {
        Ok(match e {
            Expr::Const(v) => v.clone(),
            Expr::Local(s) => self.locals.get(*s as usize).cloned().unwrap_or(Value::Unit),
            Expr::Param(i) => match self.b {
                Some(b) => b.params[*i as usize].clone(),
                None => self.p.params[*i as usize].default.clone(),
            },
            Expr::Var(v) => {
                let b = self.board("a variable")?;
                read_var(b, *v, None, self.at)?
            }
            Expr::SeatVar(v, s) => {
                let seat = self.eval_seat(s)?;
                let b = self.board("a variable")?;
                read_var(b, *v, Some(seat), self.at)?
            }
            Expr::Dealer => Value::Seat(self.board("the dealer")?.dealer),
            Expr::Zone(z) => Value::Zone(zone_at(self.board("a zone")?, *z, None, self.at)?),
            Expr::SeatZone(z, s) => {
                let seat = self.eval_seat(s)?;
                Value::Zone(zone_at(self.board("a zone")?, *z, Some(seat), self.at)?)
            }
            Expr::ZoneFamily(z) => Value::ZoneFamily(*z),
            Expr::Cards(s) => Value::Cards(*s),
            Expr::Group(g) => Value::Cards(
                self.groups
                    .get(*g as usize)
                    .copied()
                    .unwrap_or(CardSet::EMPTY),
            ),
            // Typed forms go straight to the unboxed evaluators (engine/typed.rs).
            Expr::Not(_)
            | Expr::And(..)
            | Expr::Or(..)
            | Expr::HasTag(..)
            | Expr::Bin(
                Op2::EqScalar
                | Op2::NeScalar
                | Op2::InCards
                | Op2::Lt
                | Op2::Le
                | Op2::Gt
                | Op2::Ge,
                ..,
            ) => Value::Bool(self.eval_bool(e)?),
            Expr::Neg(_) | Expr::Bin(Op2::Add | Op2::Sub | Op2::Mul, ..) => {
                Value::Int(self.eval_int(e)?)
            }
            Expr::Bin(Op2::Union | Op2::Minus, ..) => Value::Cards(self.eval_cards(e)?),
            Expr::Call(Builtin::Top, args, loc) if args.len() == 1 => {
                let saved = std::mem::replace(&mut self.at, *loc);
                let c = self.top(&args[0]);
                self.at = saved;
                Value::Card(c?)
            }
            // The same condition as `eval_int`'s, which would come back here otherwise.
            Expr::Call(Builtin::Count, args, _)
                if args.len() == 1 && !matches!(args[0], Expr::List(_)) =>
            {
                Value::Int(self.eval_int(e)?)
            }
            Expr::Call(Builtin::Next | Builtin::Prev, args, _) if args.len() == 1 => {
                Value::Seat(self.eval_seat(e)?)
            }
            Expr::ScoreField(ScoreField::Total, r) if matches!(**r, Expr::Score(..)) => {
                Value::Int(self.eval_int(e)?)
            }
            // `x in [a, b]` compares item by item instead of building the list.
            Expr::Bin(Op2::In, a, b) if matches!(**b, Expr::List(_)) => {
                let x = self.eval(a)?;
                let Expr::List(items) = &**b else {
                    unreachable!("matched above")
                };
                let mut found = false;
                for it in items {
                    let y = self.eval(it)?;
                    if self.equal(&x, &y)? {
                        found = true;
                        break;
                    }
                }
                Value::Bool(found)
            }
            Expr::Bin(op, a, b) => {
                let x = self.eval(a)?;
                let y = self.eval(b)?;
                self.binary(*op, x, y)?
            }
            Expr::Attr(a, c) => match self.eval(c)? {
                Value::Card(c) => attr_value(self.p, *a, self.p.deck.attr(*a, c)),
                other => {
                    return Err(RuntimeError::new(
                        format!("expected a card, found {other:?}"),
                        self.at,
                    ))
                }
            },
            Expr::GroupAttr(a, g) => {
                let v = self.eval(g)?;
                let s = self.cards(&v)?;
                match natural_first(self.p, s) {
                    Some(c) => attr_value(self.p, *a, self.p.deck.attr(*a, c)),
                    None => Value::Unit,
                }
            }
            _ => return self.eval_cold(e),
        })
    }

    /// The less frequent expression forms, kept out of `eval` so its stack frame stays
    /// small (every nested evaluation pays for it).
    #[inline(never)]
    fn eval_cold(&mut self, e: &Expr) -> Result<Value, RuntimeError> {
        Ok(match e {
            Expr::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    out.push(self.eval(i)?);
                }
                Value::List(out.into())
            }
            Expr::Range(a, b) => {
                let a = self.eval(a)?.int();
                let b = self.eval(b)?.int();
                Value::Range(a, b)
            }
            Expr::ScoreField(f, r) => match self.eval(r)? {
                Value::Score(r) => match f {
                    ScoreField::Total => Value::Int(r.total),
                    ScoreField::Name => Value::Str(r.name.as_str().into()),
                    ScoreField::Shape => Value::Str(r.shape.as_deref().unwrap_or("").into()),
                    ScoreField::Factor => Value::Int(r.factor),
                    ScoreField::Base => Value::Int(r.base),
                    ScoreField::Count => Value::Int(r.yaku.len() as i64),
                    ScoreField::Has(y) => {
                        let y = self.p.symbols.get(*y as usize).map_or("", |s| s.as_str());
                        let mut rows = r.base_yaku.iter().chain(r.bonuses.iter());
                        Value::Bool(rows.any(|l| l.name.as_str() == y))
                    }
                    ScoreField::Held(y) => {
                        let y = self.p.symbols.get(*y as usize).map_or("", |s| s.as_str());
                        let rows = r.base_yaku.iter().chain(r.bonuses.iter());
                        let held = rows.filter(|l| l.name.as_str() == y);
                        Value::Int(held.fold(0i64, |a, l| a.saturating_add(l.value)))
                    }
                },
                other => {
                    return Err(RuntimeError::new(
                        format!("expected a score result, found {other:?}"),
                        self.at,
                    ))
                }
            },
            Expr::Index(l, i) => {
                let l = self.eval(l)?;
                // A `per card` variable's list is indexed by the card.
                let i = match self.eval(i)? {
                    Value::Card(c) => c as i64,
                    v => v.int(),
                };
                match l {
                    Value::List(items) => {
                        match usize::try_from(i).ok().and_then(|i| items.get(i)) {
                            Some(v) => v.clone(),
                            None => {
                                return Err(RuntimeError::new(
                                    format!("index {i} is outside a list of {}", items.len()),
                                    self.at,
                                ))
                            }
                        }
                    }
                    other => {
                        return Err(RuntimeError::new(
                            format!("expected a list, found {other:?}"),
                            self.at,
                        ))
                    }
                }
            }
            Expr::Call(b, args, loc) => {
                let saved = self.at;
                self.at = *loc;
                let v = self.builtin(*b, args);
                self.at = saved;
                v?
            }
            Expr::PatternTest(p, x) => {
                let v = self.eval(x)?;
                let cards = self.cards(&v)?;
                let pat = &self.p.patterns[*p as usize];
                Value::Bool(crate::pattern::any_match(self, pat, cards)?)
            }
            Expr::Score(s, args, loc) => {
                let saved = self.at;
                self.at = *loc;
                let mut vals = Vec::with_capacity(args.len() + 4);
                for a in args {
                    let v = self.eval(a)?;
                    // Zones are read now: the table sees only values.
                    vals.push(if let Value::Zone(z) = v {
                        Value::Cards(self.cards(&Value::Zone(z))?)
                    } else {
                        v
                    });
                }
                if crate::score::surely_nothing(self.p, *s, &vals) {
                    self.at = saved;
                    return Ok(Value::Score(nothing()));
                }
                let r = crate::score::evaluate(self, *s, vals);
                self.at = saved;
                Value::Score(Arc::new(r?))
            }
            Expr::Binder(kind, slot, dom, body, by_class) => {
                self.quantify(*kind, *slot, dom, body, *by_class)?
            }
            Expr::LetIn(slot, v, body) => {
                let v = self.eval(v)?;
                self.set_local(*slot, v);
                self.eval(body)?
            }
            Expr::If(c, a, b) => {
                if self.eval(c)?.truthy() {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            _ => unreachable!("hot forms are handled in eval"),
        })
    }

    fn set_local(&mut self, slot: u16, v: Value) {
        if let Some(s) = self.locals.get_mut(slot as usize) {
            *s = v;
        }
    }

    fn binary(&mut self, op: Op2, x: Value, y: Value) -> Result<Value, RuntimeError> {
        Ok(match op {
            Op2::Add | Op2::Sub | Op2::Mul => {
                let (a, b) = (x.int(), y.int());
                let r = match op {
                    Op2::Add => a.checked_add(b),
                    Op2::Sub => a.checked_sub(b),
                    _ => a.checked_mul(b),
                };
                Value::Int(r.ok_or_else(|| super::typed::overflow(self.at))?)
            }
            Op2::Div | Op2::Rem => {
                let (a, b) = (x.int(), y.int());
                if b == 0 {
                    return Err(RuntimeError::new("division by zero", self.at));
                }
                let r = if op == Op2::Div {
                    a.checked_div_euclid(b)
                } else {
                    a.checked_rem_euclid(b)
                };
                Value::Int(r.ok_or_else(|| super::typed::overflow(self.at))?)
            }
            Op2::Eq | Op2::Ne | Op2::EqScalar | Op2::NeScalar => {
                let eq = self.equal(&x, &y)?;
                Value::Bool(eq == matches!(op, Op2::Eq | Op2::EqScalar))
            }
            Op2::Lt => Value::Bool(x.int() < y.int()),
            Op2::Le => Value::Bool(x.int() <= y.int()),
            Op2::Gt => Value::Bool(x.int() > y.int()),
            Op2::Ge => Value::Bool(x.int() >= y.int()),
            Op2::In | Op2::InCards => match (&x, &y) {
                (_, Value::List(items)) => {
                    let mut found = false;
                    for i in items.iter() {
                        if self.equal(&x, i)? {
                            found = true;
                            break;
                        }
                    }
                    Value::Bool(found)
                }
                (Value::Int(i), Value::Range(a, b)) => Value::Bool(a <= i && i <= b),
                (Value::Card(c), s) => Value::Bool(self.cards(s)?.contains(*c)),
                (Value::Unit, _) => Value::Bool(false),
                _ => {
                    return Err(RuntimeError::new(
                        "`in` needs a card and cards, or a value and a list",
                        self.at,
                    ))
                }
            },
            Op2::Union => Value::Cards(self.cards(&x)?.union(self.cards(&y)?)),
            Op2::Minus => Value::Cards(self.cards(&x)?.minus(self.cards(&y)?)),
            Op2::Concat if matches!((&x, &y), (Value::List(_), Value::List(_))) => {
                join_lists(&x, &y, self.at)?
            }
            Op2::Concat if matches!((&x, &y), (Value::Str(a), _) | (_, Value::Str(a)) if a.len() > MAX_TEXT) =>
            {
                return Err(RuntimeError::new(
                    format!("text longer than {MAX_TEXT} bytes"),
                    self.at,
                ));
            }
            Op2::Concat => Value::Str(
                format!(
                    "{}{}",
                    super::show::value_on(self.p, self.b, &x),
                    super::show::value_on(self.p, self.b, &y)
                )
                .into(),
            ),
        })
    }

    /// Groups already formed (a list of card sets), as sets.
    pub(crate) fn formed(&self, v: &Value) -> Result<Vec<CardSet>, RuntimeError> {
        match v {
            Value::List(items) => items.iter().map(|x| self.cards(x)).collect(),
            Value::Unit => Ok(Vec::new()),
            _ => Err(RuntimeError::new(
                "the groups already formed are a list of card sets",
                self.at,
            )),
        }
    }

    pub(super) fn equal(&self, x: &Value, y: &Value) -> Result<bool, RuntimeError> {
        let setlike = |v: &Value| matches!(v, Value::Cards(_) | Value::Zone(_));
        Ok(match (x, y) {
            (a, b) if setlike(a) || setlike(b) => self.cards(a)? == self.cards(b)?,
            (Value::Str(a), Value::Sym(s)) | (Value::Sym(s), Value::Str(a)) => {
                **a == *self.p.sym(*s)
            }
            (Value::Seat(a), Value::Int(b)) | (Value::Int(b), Value::Seat(a)) => *a as i64 == *b,
            (Value::List(a), Value::List(b)) => {
                if a.len() != b.len() {
                    return Ok(false);
                }
                for (x, y) in a.iter().zip(b.iter()) {
                    if !self.equal(x, y)? {
                        return Ok(false);
                    }
                }
                true
            }
            (a, b) => a == b,
        })
    }

    pub(super) fn binder(
        &mut self,
        kind: BinderKind,
        slot: u16,
        dom: &Expr,
        body: &Expr,
    ) -> Result<Value, RuntimeError> {
        let mut acc = Acc {
            kind,
            sum: 0,
            best: None,
            set: CardSet::EMPTY,
            done: None,
        };
        // `x in seats()`: the seats from the dealer on, as `seats()` lists them, without
        // building the list (without a game, the full evaluation reports it).
        if let (Expr::Call(Builtin::Seats, args, _), Some(b)) = (dom, self.b) {
            if args.is_empty() {
                self.charge(b.seats as u64)?;
                for s in b.seats_from_dealer() {
                    if self.binder_step(&mut acc, slot, body, Value::Seat(s))? {
                        break;
                    }
                }
                return Ok(acc.finish());
            }
        }
        let d = self.eval(dom)?;
        // Walk the domain in place (no list of items is built).
        match &d {
            Value::List(l) => {
                self.charge(l.len() as u64)?;
                for it in l.iter() {
                    if self.binder_step(&mut acc, slot, body, it.clone())? {
                        break;
                    }
                }
            }
            Value::Range(a, b) => {
                self.charge(b.saturating_sub(*a).saturating_add(1).max(0) as u64)?;
                for n in *a..=*b {
                    if self.binder_step(&mut acc, slot, body, Value::Int(n))? {
                        break;
                    }
                }
            }
            other => {
                let cards = self.cards(other)?;
                self.charge(cards.len() as u64)?;
                for c in cards.iter() {
                    if self.binder_step(&mut acc, slot, body, Value::Card(c))? {
                        break;
                    }
                }
            }
        }
        Ok(acc.finish())
    }

    /// Binds one element, evaluates the body and folds it in; true when the answer is
    /// already known (`all` met a false, `any` a true).
    #[inline]
    fn binder_step(
        &mut self,
        acc: &mut Acc,
        slot: u16,
        body: &Expr,
        it: Value,
    ) -> Result<bool, RuntimeError> {
        let card = if let Value::Card(c) = it {
            Some(c)
        } else {
            None
        };
        self.set_local(slot, it);
        // The body is a condition or an int: evaluated unboxed.
        match acc.kind {
            BinderKind::Count => acc.sum += self.eval_bool(body)? as i64,
            BinderKind::Sum => {
                let v = self.eval_int(body)?;
                acc.sum = acc
                    .sum
                    .checked_add(v)
                    .ok_or_else(|| super::typed::overflow(self.at))?;
            }
            BinderKind::All => {
                if !self.eval_bool(body)? {
                    acc.done = Some(false);
                    return Ok(true);
                }
            }
            BinderKind::Any => {
                if self.eval_bool(body)? {
                    acc.done = Some(true);
                    return Ok(true);
                }
            }
            BinderKind::Filter => {
                if let (true, Some(c)) = (self.eval_bool(body)?, card) {
                    acc.set.insert(c);
                }
            }
            BinderKind::Max => {
                let v = self.eval_int(body)?;
                acc.best = Some(acc.best.map_or(v, |b| b.max(v)));
            }
            BinderKind::Min => {
                let v = self.eval_int(body)?;
                acc.best = Some(acc.best.map_or(v, |b| b.min(v)));
            }
        }
        Ok(false)
    }
}

/// A variable's value; an error (not a panic) when the board has no such variable, as
/// when the checker evaluates a deal count that reads game state.
pub(super) fn read_var(
    b: &Board,
    v: u16,
    seat: Option<u8>,
    at: Loc,
) -> Result<Value, RuntimeError> {
    b.layout
        .var_base
        .get(v as usize)
        .and_then(|base| b.vars.get(*base as usize + seat.unwrap_or(0) as usize))
        .cloned()
        .ok_or_else(|| RuntimeError::new("this value needs a game in progress", at))
}

/// A zone instance; an error when the board has no such zone.
pub(super) fn zone_at(b: &Board, z: u16, seat: Option<u8>, at: Loc) -> Result<u16, RuntimeError> {
    match b.layout.zone_base.get(z as usize) {
        Some(base) if (*base as usize + seat.unwrap_or(0) as usize) < b.sets.len() => {
            Ok(base + seat.unwrap_or(0) as u16)
        }
        _ => Err(RuntimeError::new("this zone needs a game in progress", at)),
    }
}

/// The longest text `+` may build (messages and labels are short; this stops a loop
/// that doubles a text from filling memory).
const MAX_TEXT: usize = 64 * 1024;

/// Two lists as one, `x`'s items first.
fn join_lists(x: &Value, y: &Value, at: Loc) -> Result<Value, RuntimeError> {
    match (x, y) {
        (Value::List(a), Value::List(b)) if a.len() + b.len() <= MAX_LIST => Ok(Value::List(
            a.iter().chain(b.iter()).cloned().collect::<Vec<_>>().into(),
        )),
        (Value::List(_), Value::List(_)) => Err(RuntimeError::new(
            format!("a list longer than {MAX_LIST} items"),
            at,
        )),
        _ => Err(RuntimeError::new("`+` joins two lists", at)),
    }
}

/// The longest list `+` may build (a hand's called melds are a few; this stops a loop
/// that doubles a list from filling memory).
const MAX_LIST: usize = 4096;

/// A quantifier's running answer.
struct Acc {
    kind: BinderKind,
    sum: i64,
    best: Option<i64>,
    set: CardSet,
    done: Option<bool>,
}

impl Acc {
    fn finish(self) -> Value {
        match self.kind {
            BinderKind::Count | BinderKind::Sum => Value::Int(self.sum),
            BinderKind::All => Value::Bool(self.done.unwrap_or(true)),
            BinderKind::Any => Value::Bool(self.done.unwrap_or(false)),
            BinderKind::Filter => Value::Cards(self.set),
            BinderKind::Max | BinderKind::Min => Value::Int(self.best.unwrap_or(0)),
        }
    }
}

/// The shared result of a table that scores nothing.
pub(crate) fn nothing() -> Arc<crate::value::ScoreResult> {
    static NOTHING: std::sync::OnceLock<Arc<crate::value::ScoreResult>> =
        std::sync::OnceLock::new();
    NOTHING
        .get_or_init(|| {
            Arc::new(crate::value::ScoreResult {
                factor: 1,
                ..Default::default()
            })
        })
        .clone()
}

/// The card `.attr` of a set reads: its first card (in deck order) that no pattern
/// counts as wild, so that a group with wild cards reads the value it stands for (its
/// natural cards' value); its first card when all are wild; `None` for no cards.
pub(crate) fn natural_first(p: &Program, s: CardSet) -> Option<crate::model::CardIx> {
    match s.minus(p.wild).first() {
        Some(c) => Some(c),
        None => s.first(),
    }
}

/// An attribute value as a run-time value (symbols for symbol attributes).
#[inline]
pub fn attr_value(p: &Program, a: u16, v: i64) -> Value {
    match p.deck.attrs[a as usize].kind {
        crate::model::AttrKind::Int(_) => Value::Int(v),
        crate::model::AttrKind::Symbols(_) => Value::Sym(v as u32),
    }
}

/// Evaluates with the board but no locals (variable initial values).
pub fn eval_pure(p: &Program, b: &Board, e: &Expr) -> Result<Value, RuntimeError> {
    eval_pure_at(p, b, e, Loc::default())
}

/// [`eval_pure`], with errors reported at `at` (the declaration being evaluated: a
/// variable's initial value), since the expression itself carries no location.
pub fn eval_pure_at(p: &Program, b: &Board, e: &Expr, at: Loc) -> Result<Value, RuntimeError> {
    // Most of these (a variable's initial value, the seat count) use no local at all:
    // their few slots live on the stack, where a 64-slot list cost more than the
    // evaluation itself, once per variable per game.
    const FEW: usize = 8;
    let mut few = [const { Value::Unit }; FEW];
    let mut many = Vec::new();
    let locals: &mut [Value] = if crate::score::slots_used(e) <= FEW {
        &mut few
    } else {
        many.resize(crate::score::slots_used(e).max(64), Value::Unit);
        &mut many
    };
    let mut cx = Cx {
        p,
        b: Some(b),
        locals,
        groups: &[],
        budget: EVAL_BUDGET,
        at,
    };
    cx.eval(e)
}

/// A board with parameters and a seat count only (no zones or variables), for
/// evaluating what depends on parameters alone.
fn bare_board(seats: u8, params: Vec<Value>) -> Board {
    Board {
        seats,
        dealer: 0,
        params,
        vars: vec![],
        zones: super::Zones::new(0, 0),
        sets: vec![],
        card_zone: vec![],
        fit_sums: vec![],
        revealed: vec![],
        shown: CardSet::EMPTY,
        claims: Vec::new(),
        people: 0,
        rng: GameRng::new(0),
        layout: Arc::new(Layout {
            zone_base: vec![],
            zone_of: vec![],
            var_base: vec![],
            fit: vec![],
            ledger_slots: vec![],
        }),
        quicken: true,
    }
}

/// The number of seats for these parameter values.
pub fn seat_count(p: &Program, params: &[Value]) -> Result<u8, RuntimeError> {
    // `seats players`: read the parameter (every game starts here).
    let n = match &p.seats.count {
        Expr::Param(i) if params.len() == p.params.len() && (*i as usize) < params.len() => {
            params[*i as usize].int()
        }
        count => eval_pure(p, &bare_board(0, params.to_vec()), count)?.int(),
    };
    if !(1..=16).contains(&n) {
        return Err(RuntimeError::new(
            format!("{n} seats: a game has 1 to 16"),
            Loc::default(),
        ));
    }
    Ok(n as u8)
}

/// Evaluates an expression that depends on parameter defaults only.
pub fn const_eval(p: &Program, e: &Expr) -> Option<Value> {
    const_eval_result(p, e).ok()
}

/// [`const_eval`], keeping the error: the checker tells an overflow from a division by
/// zero, and both from a value that needs the game (an error with no location).
pub fn const_eval_result(p: &Program, e: &Expr) -> Result<Value, RuntimeError> {
    let mut locals = vec![Value::Unit; 64];
    let mut cx = Cx {
        p,
        b: None,
        locals: &mut locals,
        groups: &[],
        budget: 100_000,
        at: Loc::default(),
    };
    cx.eval(e)
}

/// Every parameter's value for a game: the ones `given`, and the others' defaults. A
/// default written over other parameters (`param 倍: int = 人 * 2`) is computed from
/// their values, so that it follows `--set 人=4` as it follows a variant's default; a
/// computed default outside its parameter's range is an error at its declaration.
pub fn param_values(p: &Program, given: &[Option<Value>]) -> Result<Vec<Value>, RuntimeError> {
    let mut vals: Vec<Value> = p.params.iter().map(|d| d.default.clone()).collect();
    for (i, d) in p.params.iter().enumerate() {
        if let Some(v) = given.get(i).cloned().flatten() {
            vals[i] = v;
            continue;
        }
        let Some(e) = &d.default_expr else {
            continue;
        };
        // A default reads only parameters declared above it, already settled.
        let board = bare_board(0, vals.clone());
        let v = eval_pure_at(p, &board, e, d.loc).map_err(|err| {
            RuntimeError::new(
                format!(
                    "the default of `{}` cannot be computed with these parameters: {}",
                    d.name, err.message
                ),
                d.loc,
            )
        })?;
        if let (Some((lo, hi)), Value::Int(n)) = (d.range, &v) {
            if *n < lo || *n > hi {
                return Err(RuntimeError::new(
                    format!(
                        "with these parameters the default of `{}` is {n}, outside its range {lo}..{hi}",
                        d.name
                    ),
                    d.loc,
                )
                .with_help(format!("set `{}` too, or widen its range", d.name)));
            }
        }
        vals[i] = v;
    }
    Ok(vals)
}

/// Parameter values to give [`param_values`] for a game with `seats` seats: the
/// seat-count parameter's, if `seats` names one, and no other.
pub fn seat_count_given(p: &Program, seats: usize) -> Vec<Option<Value>> {
    (0..p.params.len())
        .map(|i| {
            matches!(p.seats.count, Expr::Param(j) if j as usize == i)
                .then_some(Value::Int(seats as i64))
        })
        .collect()
}

/// Like [`const_eval`], with the seat-count parameter forced so deal sizes can be
/// checked for every allowed seat count (defaults computed from it follow it).
pub fn const_eval_with(p: &Program, e: &Expr, seats: usize) -> Option<Value> {
    let params = param_values(p, &seat_count_given(p, seats)).ok()?;
    let board = bare_board(seats as u8, params);
    let mut locals = vec![Value::Unit; 64];
    let mut cx = Cx {
        p,
        b: Some(&board),
        locals: &mut locals,
        groups: &[],
        budget: 100_000,
        at: Loc::default(),
    };
    cx.eval(e).ok()
}

/// Evaluates a variable's initial value as a game with `seats` seats and the
/// parameters' defaults would, under the same budget, so the checker can report a value
/// that cannot be computed (an overflow, a division by zero) before any game runs.
pub fn eval_with_defaults(
    p: &Program,
    e: &Expr,
    seats: usize,
    at: Loc,
) -> Result<Value, RuntimeError> {
    // Defaults computed from the seat count follow it, as in a game with that count;
    // parameters that cannot be computed are reported at their own declarations.
    let Ok(params) = param_values(p, &seat_count_given(p, seats)) else {
        return Ok(Value::Unit);
    };
    eval_pure_at(p, &bare_board(seats as u8, params), e, at)
}

/// The seat counts a `seats` expression allows: every value of the parameter it names
/// (within its range), or its constant value.
pub fn seat_counts(p: &Program, count: &Expr) -> Vec<usize> {
    match count {
        Expr::Param(i) => {
            let d = &p.params[*i as usize];
            match d.range {
                Some((lo, hi)) if hi - lo < 64 => {
                    (lo..=hi).filter(|n| *n >= 0).map(|n| n as usize).collect()
                }
                _ => vec![d.default.int().max(0) as usize],
            }
        }
        e => match const_eval(p, e) {
            Some(Value::Int(n)) if n >= 0 => vec![n as usize],
            _ => vec![],
        },
    }
}
