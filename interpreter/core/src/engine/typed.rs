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

    /// A quantifier. Over cards, with a body that only asks for an attribute value or
    /// a tag of the bound card (`count(c in h: c.number == n)`), the answer is read
    /// off the deck's attribute classes with one set intersection; otherwise each
    /// element is bound and tested.
    pub(super) fn quantify(
        &mut self,
        kind: BinderKind,
        slot: u16,
        dom: &Expr,
        body: &Expr,
        by_class: bool,
    ) -> Result<Value, RuntimeError> {
        let bound = Bound::new(slot);
        // `sum(c in h: c.points)`: each class's value times its count in the domain.
        if kind == BinderKind::Sum && self.cards_domain(dom) {
            if let Expr::Attr(at, c) = body {
                if bound.has(c) && self.int_attr(*at) {
                    let d = self.eval_cards(dom)?;
                    self.charge(d.len() as u64)?;
                    let mut sum: i64 = 0;
                    let classes = self.p.deck.attr_classes(*at);
                    for (&v, class) in classes.iter().flat_map(|c| c.values.iter().zip(&c.sets)) {
                        let k = d.inter(*class).len() as i64;
                        if k > 0 {
                            sum = v
                                .checked_mul(k)
                                .and_then(|x| sum.checked_add(x))
                                .ok_or_else(|| overflow(self.at))?;
                        }
                    }
                    return Ok(Value::Int(sum));
                }
            }
        }
        if matches!(
            kind,
            BinderKind::Count | BinderKind::Filter | BinderKind::Any | BinderKind::All
        ) && by_class
            && self.cards_domain(dom)
        {
            let d = self.eval_cards(dom)?;
            // The same charge as testing each card; an empty domain evaluates no body.
            self.charge(d.len() as u64)?;
            let sat = if d.is_empty() {
                Some(CardSet::EMPTY)
            } else {
                self.satisfying(bound, body, d, 0)?
            };
            if let Some(sat) = sat {
                let hit = d.inter(sat);
                return Ok(match kind {
                    BinderKind::Count => Value::Int(hit.len() as i64),
                    BinderKind::Filter => Value::Cards(hit),
                    BinderKind::Any => Value::Bool(!hit.is_empty()),
                    _ => Value::Bool(d.minus(sat).is_empty()),
                });
            }
            // The compared value was unset: test each card as before (charged again, as
            // the plain path charges; this is rare).
        }
        if let Expr::Range(lo, hi) = dom {
            if let Some(v) = self.range_groups(kind, slot, (lo, hi), body) {
                return Ok(v);
            }
        }
        self.binder(kind, slot, dom, body)
    }

    /// Whether a quantifier's domain is a card set (a zone, a set, a group, or a local
    /// holding cards).
    fn cards_domain(&self, dom: &Expr) -> bool {
        match dom {
            Expr::Zone(_)
            | Expr::SeatZone(..)
            | Expr::Cards(_)
            | Expr::Group(_)
            | Expr::Bin(Op2::Union | Op2::Minus, ..) => true,
            Expr::Local(s) => matches!(
                self.locals.get(*s as usize),
                Some(Value::Cards(_) | Value::Card(_) | Value::Zone(_))
            ),
            _ => false,
        }
    }

    /// The deck's cards for which `body` holds when bound to `slot`, when the body
    /// only compares the bound card's attribute with a value that does not depend on
    /// it, or asks for its tag (and `not`/`and`/`or` of those); `None` otherwise.
    ///
    /// The answer need only be right for the cards of `within` (the quantifier's
    /// domain): an `and` whose left side holds for none of them leaves its right side
    /// untested, as testing card by card would.
    fn satisfying(
        &mut self,
        bound: Bound,
        body: &Expr,
        within: CardSet,
        depth: u32,
    ) -> Result<Option<CardSet>, RuntimeError> {
        if depth > 8 {
            return Ok(None);
        }
        let deck = &self.p.deck;
        // Made only where needed: most bodies never ask for the whole deck.
        let all = || deck.all();
        let fixed = |holds: bool| Some(if holds { all() } else { CardSet::EMPTY });
        Ok(match body {
            Expr::HasTag(t, c) if bound.has(c) => Some(deck.tags[*t as usize]),
            Expr::Bin(op @ (Op2::EqScalar | Op2::NeScalar), a, b)
                if card_against(a, b, bound).is_some() =>
            {
                // The bound card itself compared with a card: one card, or all but one.
                let Some(other) = card_against(a, b, bound) else {
                    return Ok(None);
                };
                let Some(v) = self.scalar(other)? else {
                    return Ok(None);
                };
                let one = match u16::try_from(v) {
                    Ok(c) if (c as usize) < deck.len() => CardSet::single(c),
                    _ => CardSet::EMPTY,
                };
                Some(if *op == Op2::EqScalar {
                    one
                } else {
                    all().minus(one)
                })
            }
            Expr::Bin(Op2::InCards, a, b) if bound.has(a) && independent(b, bound) => {
                Some(self.eval_cards(b)?)
            }
            Expr::Bin(op @ (Op2::EqScalar | Op2::NeScalar), a, b) => {
                let Some((attr, other, _)) = attr_against(a, b, bound) else {
                    return Ok(self.group_satisfying(*op, a, b, bound, depth));
                };
                let Some(v) = self.scalar(other)? else {
                    return Ok(None);
                };
                let class = class_of(self.p, attr, v);
                Some(if *op == Op2::EqScalar {
                    class
                } else {
                    all().minus(class)
                })
            }
            Expr::Bin(op @ (Op2::Lt | Op2::Le | Op2::Gt | Op2::Ge), a, b) => {
                let Some((attr, other, attr_left)) = attr_against(a, b, bound) else {
                    return Ok(self.group_satisfying(*op, a, b, bound, depth));
                };
                if !self.int_attr(attr) {
                    return Ok(None);
                }
                let v = self.eval_int(other)?;
                let mut out = CardSet::EMPTY;
                let classes = self.p.deck.attr_classes(attr);
                for (&x, class) in classes.iter().flat_map(|c| c.values.iter().zip(&c.sets)) {
                    let (l, r) = if attr_left { (x, v) } else { (v, x) };
                    let holds = match op {
                        Op2::Lt => l < r,
                        Op2::Le => l <= r,
                        Op2::Gt => l > r,
                        _ => l >= r,
                    };
                    if holds {
                        out = out.union(*class);
                    }
                }
                Some(out)
            }
            Expr::Not(x) => self
                .satisfying(bound, x, within, depth + 1)?
                .map(|s| all().minus(s)),
            Expr::And(x, y) => {
                let Some(sx) = self.satisfying(bound, x, within, depth + 1)? else {
                    return Ok(None);
                };
                let rest = within.inter(sx);
                if rest.is_empty() {
                    // `x` fails for every card: `and` tests `y` for none of them.
                    return Ok(Some(CardSet::EMPTY));
                }
                self.satisfying(bound, y, rest, depth + 1)?
                    .map(|sy| sx.inter(sy))
            }
            Expr::Or(x, y) => {
                let Some(sx) = self.satisfying(bound, x, within, depth + 1)? else {
                    return Ok(None);
                };
                let rest = within.minus(sx);
                if rest.is_empty() {
                    // `x` holds for every card: `or` tests `y` for none of them.
                    return Ok(Some(sx));
                }
                self.satisfying(bound, y, rest, depth + 1)?
                    .map(|sy| sx.union(sy))
            }
            // A condition on something else (`not 鬼(c)` for the card `c` a quantifier
            // over `f` compares with): the same for every card, so all or none. Only
            // forms that cannot fail are taken (a tag of a value, a flag), so testing it
            // once, even for an empty domain, changes no outcome.
            Expr::HasTag(_, c) if independent(c, bound) => fixed(self.eval_bool(body)?),
            Expr::Const(Value::Bool(b)) => fixed(*b),
            Expr::Local(s2) if !bound.binds(*s2) => fixed(self.eval_bool(body)?),
            Expr::LetIn(s2, v, x) => match bound.alias(*s2, v) {
                Some(b2) => self.satisfying(b2, x, within, depth + 1)?,
                // A `let` of a value that does not depend on the bound card is the same
                // for every card: bound once, as the card-by-card path would.
                None if independent(v, bound) && !bound.binds(*s2) => {
                    let val = self.eval(v)?;
                    if let Some(slot) = self.locals.get_mut(*s2 as usize) {
                        *slot = val;
                    }
                    self.satisfying(bound, x, within, depth + 1)?
                }
                None => None,
            },
            _ => None,
        })
    }

    /// `a op b` when one side is a [`GroupCount`] (see [`Cx::by_group`]); `None` for
    /// any other comparison.
    fn group_satisfying(
        &mut self,
        op: Op2,
        a: &Expr,
        b: &Expr,
        bound: Bound,
        depth: u32,
    ) -> Option<CardSet> {
        let (g, other, left) = group_against(a, b, bound)?;
        self.by_group(op, &g, other, left, depth)
    }

    /// The deck's cards `c` for which `count(c2 in D: c2.A == c.A and R(c2)) op k`
    /// holds: `D ∩ R` is worked out once and counted in each class of `A`, instead of
    /// counting the domain again for each card. `None` (the card-by-card path then
    /// decides, with its errors) when the domain is not cards, a value is unset, or any
    /// part fails.
    fn by_group(
        &mut self,
        op: Op2,
        g: &GroupCount<'_>,
        other: &Expr,
        group_left: bool,
        depth: u32,
    ) -> Option<CardSet> {
        if !self.cards_domain(g.dom) {
            return None;
        }
        let k = self.count_against(op, other)?;
        let members = self.group_members(g, depth)?;
        let classes = self.p.deck.attr_classes(g.attr)?;
        let mut out = CardSet::EMPTY;
        for class in &classes.sets {
            let n = members.inter(*class).len() as i64;
            let (l, r) = if group_left { (n, k) } else { (k, n) };
            if compare(op, l, r)? {
                out = out.union(*class);
            }
        }
        Some(out)
    }

    /// The other side of a comparison with a count, read as the plain comparison reads
    /// it: a scalar for `==`/`!=` (`None` when unset: it compares unequal to any
    /// count), an int for the orderings.
    fn count_against(&mut self, op: Op2, other: &Expr) -> Option<i64> {
        match op {
            Op2::EqScalar | Op2::NeScalar => self.scalar(other).ok()?,
            _ => self.eval_int(other).ok(),
        }
    }

    /// The cards of a group count's domain that pass its other condition (`D ∩ R`),
    /// worked out once; the class of each key is then intersected with it.
    fn group_members(&mut self, g: &GroupCount<'_>, depth: u32) -> Option<CardSet> {
        let dom = self.eval_cards(g.dom).ok()?;
        // The inner quantifier's charge, once (each key's evaluation would repeat it).
        self.charge(dom.len() as u64).ok()?;
        Some(match g.rest {
            Some(r) => dom.inter(
                self.satisfying(Bound::new(g.slot), r, dom, depth + 1)
                    .ok()??,
            ),
            None => dom,
        })
    }

    /// `all`, `any` or `count` of `n in lo..hi` whose body compares the count of the
    /// cards whose attribute is `n` (`all(n in 1..5: 枚(h, n) >= 2)`, as 五双 reads):
    /// the cards are worked out once and counted in each number's class. `None` (each
    /// number is then bound and tested) for any other shape, an unset value or a part
    /// that fails.
    fn range_groups(
        &mut self,
        kind: BinderKind,
        slot: u16,
        range: (&Expr, &Expr),
        body: &Expr,
    ) -> Option<Value> {
        if !matches!(kind, BinderKind::Count | BinderKind::Any | BinderKind::All) {
            return None;
        }
        let Expr::Bin(
            op @ (Op2::EqScalar | Op2::NeScalar | Op2::Lt | Op2::Le | Op2::Gt | Op2::Ge),
            a,
            b,
        ) = body
        else {
            return None;
        };
        let bound = Bound::new(slot);
        let (g, other, left) = [(&**a, &**b, true), (&**b, &**a, false)]
            .into_iter()
            .filter(|(_, o, _)| independent(o, bound))
            .find_map(|(x, o, l)| number_group(x, slot).map(|g| (g, o, l)))?;
        if !self.cards_domain(g.dom) {
            return None;
        }
        // The range as the plain path reads it, and its charge.
        let lo = self.eval(range.0).ok()?.int();
        let hi = self.eval(range.1).ok()?.int();
        self.charge(hi.saturating_sub(lo).saturating_add(1).max(0) as u64)
            .ok()?;
        let k = self.count_against(*op, other)?;
        let members = self.group_members(&g, 0)?;
        let mut hits: i64 = 0;
        for n in lo..=hi {
            let c = members.inter(class_of(self.p, g.attr, n)).len() as i64;
            let (l, r) = if left { (c, k) } else { (k, c) };
            let holds = compare(*op, l, r)?;
            match kind {
                BinderKind::Any if holds => return Some(Value::Bool(true)),
                BinderKind::All if !holds => return Some(Value::Bool(false)),
                _ => hits += holds as i64,
            }
        }
        Some(match kind {
            BinderKind::Count => Value::Int(hits),
            BinderKind::Any => Value::Bool(false),
            _ => Value::Bool(true),
        })
    }

    /// Whether attribute `a` holds ints (not symbols).
    fn int_attr(&self, a: u16) -> bool {
        matches!(
            self.p.deck.attrs.get(a as usize).map(|d| &d.kind),
            Some(crate::model::AttrKind::Int(_))
        )
    }

    /// The deck's cards for which `cond` holds when bound to `slot`, when `cond` only
    /// tests the card's identity, attributes, tags or membership against values that do
    /// not depend on it (a move guard like `d != t`); `None` when it must be tested card
    /// by card.
    pub(super) fn cards_where(
        &mut self,
        slot: u16,
        cond: &Expr,
    ) -> Result<Option<CardSet>, RuntimeError> {
        let bound = Bound::new(slot);
        if !shaped_by_class(cond, bound, 0) {
            return Ok(None);
        }
        self.satisfying(bound, cond, self.p.deck.all(), 0)
    }

    /// The deck's cards outside `hand` that, added to it, make pattern `pi` match (none
    /// unless the hand is one card short of the pattern's size). Each candidate is
    /// charged as a step; most fail the pattern's prefilter at once.
    pub(super) fn waits(&mut self, pi: u16, hand: CardSet) -> Result<CardSet, RuntimeError> {
        let p = self.p;
        let Some(pat) = p.patterns.get(pi as usize) else {
            return Ok(CardSet::EMPTY);
        };
        let mut out = CardSet::EMPTY;
        if hand.len() + 1 != pat.size {
            return Ok(out);
        }
        let candidates = p.deck.all().minus(hand);
        self.charge(candidates.len() as u64)?;
        for c in candidates.iter() {
            let mut with = hand;
            with.insert(c);
            let mut found = false;
            crate::pattern::for_each_match(self, pat, with, &mut |_, _| {
                found = true;
                Ok(false)
            })?;
            if found {
                out.insert(c);
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
    fn scalar(&mut self, e: &Expr) -> Result<Option<i64>, RuntimeError> {
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
                s.first().map(|c| self.p.deck.attr(*a, c))
            }
            Expr::Bin(Op2::Add | Op2::Sub | Op2::Mul, ..)
            | Expr::Neg(_)
            | Expr::Var(_)
            | Expr::SeatVar(..) => Some(self.eval_int(e)?),
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

/// Whether a quantifier over slot `slot` with this body is answered by classes (see
/// [`Expr::Binder`]'s flag, which the compiler sets with this).
pub(crate) fn class_shaped(body: &Expr, slot: u16) -> bool {
    shaped_by_class(body, Bound::new(slot), 0)
}

/// Whether a quantifier's body has the shape [`Cx::satisfying`] reads off classes
/// (checked before the domain is evaluated).
fn shaped_by_class(body: &Expr, bound: Bound, depth: u32) -> bool {
    if depth > 8 {
        return false;
    }
    match body {
        Expr::HasTag(_, c) => bound.has(c) || independent(c, bound),
        Expr::Const(Value::Bool(_)) => true,
        Expr::Local(s) => !bound.binds(*s),
        Expr::Bin(Op2::EqScalar | Op2::NeScalar, a, b) => {
            attr_against(a, b, bound).is_some()
                || card_against(a, b, bound).is_some()
                || group_against(a, b, bound).is_some()
        }
        Expr::Bin(Op2::Lt | Op2::Le | Op2::Gt | Op2::Ge, a, b) => {
            attr_against(a, b, bound).is_some() || group_against(a, b, bound).is_some()
        }
        Expr::Bin(Op2::InCards, a, b) => bound.has(a) && independent(b, bound),
        Expr::Not(x) => shaped_by_class(x, bound, depth + 1),
        Expr::And(x, y) | Expr::Or(x, y) => {
            shaped_by_class(x, bound, depth + 1) && shaped_by_class(y, bound, depth + 1)
        }
        Expr::LetIn(s2, v, x) => match bound.alias(*s2, v) {
            Some(b2) => shaped_by_class(x, b2, depth + 1),
            None => {
                independent(v, bound) && !bound.binds(*s2) && shaped_by_class(x, bound, depth + 1)
            }
        },
        _ => false,
    }
}

/// The slots that hold a quantifier's bound card: its own, and those of inlined defs
/// that took it as an argument (`def 鬼(c: card) = c is 鬼札` inlines as a `let`).
#[derive(Clone, Copy)]
struct Bound {
    slots: [u16; 4],
    n: usize,
}

impl Bound {
    /// The quantifier's own slot; every entry holds it, so unused ones match it too.
    fn new(slot: u16) -> Bound {
        Bound {
            slots: [slot; 4],
            n: 1,
        }
    }

    /// Whether `e` reads the bound card.
    fn has(&self, e: &Expr) -> bool {
        matches!(e, Expr::Local(s) if self.binds(*s))
    }

    /// The bound slots with `s2` added, when `let s2 = v` copies the bound card (and
    /// there is room); `None` when the `let` binds anything else.
    fn alias(&self, s2: u16, v: &Expr) -> Option<Bound> {
        if !self.has(v) {
            return None;
        }
        self.with(s2)
    }

    /// The bound slots with `s2` added (`None` when there is no room).
    fn with(&self, s2: u16) -> Option<Bound> {
        if self.n == self.slots.len() {
            return None;
        }
        let mut b = *self;
        b.slots[b.n] = s2;
        b.n += 1;
        Some(b)
    }

    /// Whether slot `s` holds the bound card. The unused entries repeat the first
    /// slot (see [`Bound::new`]), so the whole array is compared, without a loop.
    #[inline]
    fn binds(&self, s: u16) -> bool {
        self.slots.contains(&s)
    }
}

/// `count(c2 in D: c2.A == c.A and R(c2))` for the bound card `c` (as `月札(h, c.month)`
/// or `枚(h, c.number)` inline), where neither `D` nor `R` reads `c`: the count depends
/// on `c` only through `c.A`, so it is the same for every card of one class of `A`.
struct GroupCount<'e> {
    /// The attribute `A`.
    attr: u16,
    /// The inner domain `D`.
    dom: &'e Expr,
    /// The inner condition besides the class test (`R`), answered by classes.
    rest: Option<&'e Expr>,
    /// The inner quantifier's slot (`c2`).
    slot: u16,
}

/// A group count compared with an int that does not depend on the bound card, in either
/// order: the count, the other side, and whether the count is on the left.
fn group_against<'e>(
    a: &'e Expr,
    b: &'e Expr,
    bound: Bound,
) -> Option<(GroupCount<'e>, &'e Expr, bool)> {
    for (x, o, left) in [(a, b, true), (b, a, false)] {
        if independent(o, bound) {
            if let Some(g) = group_count(x, bound) {
                return Some((g, o, left));
            }
        }
    }
    None
}

/// `e` as a [`GroupCount`]: `count(filter(c2 in D: …))` or `count(c2 in D: …)`, under a
/// `let m = c.A` of an inlined def or comparing with `c.A` directly.
fn group_count(e: &Expr, bound: Bound) -> Option<GroupCount<'_>> {
    let (inner, kind) = match e {
        Expr::Call(Builtin::Count, args, _) if args.len() == 1 => (&args[0], BinderKind::Filter),
        _ => (e, BinderKind::Count),
    };
    // The slot that holds `c.A`, when a `let` copies it.
    let (key, binder) = match inner {
        Expr::LetIn(m, v, x) => match &**v {
            Expr::Attr(a, c) if bound.has(c) && !bound.binds(*m) => (Some((*m, *a)), &**x),
            _ => return None,
        },
        x => (None, x),
    };
    let Expr::Binder(k, slot, dom, body, _) = binder else {
        return None;
    };
    let outer = match key {
        Some((m, _)) => bound.with(m)?,
        None => bound,
    };
    if *k != kind || outer.binds(*slot) {
        return None;
    }
    let is_key = |o: &Expr, at: u16| match o {
        Expr::Local(m) => key.is_some_and(|(k, ka)| k == *m && ka == at),
        Expr::Attr(oa, c) => *oa == at && bound.has(c),
        _ => false,
    };
    inner_group(*slot, dom, body, outer, &is_key)
}

/// The count of the cards of `D` whose attribute equals a number bound by a quantifier
/// over a range, `count(c in D: c.A == n and R(c))` (as `枚(h, n)` inlines), where `D`
/// and `R` do not read `n`.
fn number_group(e: &Expr, n: u16) -> Option<GroupCount<'_>> {
    let (inner, kind) = match e {
        Expr::Call(Builtin::Count, args, _) if args.len() == 1 => (&args[0], BinderKind::Filter),
        _ => (e, BinderKind::Count),
    };
    let Expr::Binder(k, slot, dom, body, _) = inner else {
        return None;
    };
    if *k != kind || *slot == n {
        return None;
    }
    let is_key = |o: &Expr, _: u16| matches!(o, Expr::Local(m) if *m == n);
    inner_group(*slot, dom, body, Bound::new(n), &is_key)
}

/// The inner quantifier of a group count: its body is a class test against the key
/// (`is_key` says which expressions are the key for an attribute), alone or `and`ed
/// with a class condition; neither that condition nor the domain reads `outer`.
fn inner_group<'e>(
    slot: u16,
    dom: &'e Expr,
    body: &'e Expr,
    outer: Bound,
    is_key: &dyn Fn(&Expr, u16) -> bool,
) -> Option<GroupCount<'e>> {
    let inner_bound = Bound::new(slot);
    let (attr, rest) = keyed(body, inner_bound, is_key)?;
    let rest_ok = rest.is_none_or(|r| !reads(r, outer) && shaped_by_class(r, inner_bound, 0));
    (!reads(dom, outer) && rest_ok).then_some(GroupCount {
        attr,
        dom,
        rest,
        slot,
    })
}

/// The inner body `c2.A == c.A` (the key test), alone or `and`ed with another
/// condition: the attribute and that other condition.
fn keyed<'e>(
    body: &'e Expr,
    inner: Bound,
    is_key: &dyn Fn(&Expr, u16) -> bool,
) -> Option<(u16, Option<&'e Expr>)> {
    if let Some(a) = key_test(body, inner, is_key) {
        return Some((a, None));
    }
    let Expr::And(x, y) = body else {
        return None;
    };
    // Both sides are answered by classes and cannot fail, so the order is free.
    if let Some(a) = key_test(x, inner, is_key) {
        return Some((a, Some(&**y)));
    }
    key_test(y, inner, is_key).map(|a| (a, Some(&**x)))
}

/// `c2.A == m` with `m` the slot holding the outer card's `A`, or `c2.A == c.A`, in
/// either order: `A`.
fn key_test(e: &Expr, inner: Bound, is_key: &dyn Fn(&Expr, u16) -> bool) -> Option<u16> {
    let Expr::Bin(Op2::EqScalar, a, b) = e else {
        return None;
    };
    for (x, o) in [(a, b), (b, a)] {
        let Expr::Attr(at, c2) = &**x else { continue };
        if !inner.has(c2) {
            continue;
        }
        if is_key(o, *at) {
            return Some(*at);
        }
    }
    None
}

/// Whether `e` reads any of the bound slots anywhere inside.
fn reads(e: &Expr, bound: Bound) -> bool {
    if let Expr::Local(s) = e {
        return bound.binds(*s);
    }
    let mut found = false;
    e.children(|c| found = found || reads(c, bound));
    found
}

/// The cards whose attribute `attr` is `v` (as [`crate::model::Deck::class_of`]); read
/// by index when the attribute's values are consecutive (months, numbers), which spares
/// the search on every class test.
#[inline]
fn class_of(p: &crate::ir::Program, attr: u16, v: i64) -> CardSet {
    let Some(c) = p.deck.attr_classes(attr) else {
        return CardSet::EMPTY;
    };
    let (Some(&lo), Some(&hi)) = (c.values.first(), c.values.last()) else {
        return CardSet::EMPTY;
    };
    if hi.checked_sub(lo) == Some(c.values.len() as i64 - 1) {
        // Consecutive: the value's offset is its index.
        return match v.checked_sub(lo).and_then(|i| usize::try_from(i).ok()) {
            Some(i) => c.sets.get(i).copied().unwrap_or(CardSet::EMPTY),
            None => CardSet::EMPTY,
        };
    }
    p.deck.class_of(attr, v)
}

/// An int comparison by its operator (`None` for an operator that is not one).
fn compare(op: Op2, l: i64, r: i64) -> Option<bool> {
    Some(match op {
        Op2::EqScalar => l == r,
        Op2::NeScalar => l != r,
        Op2::Lt => l < r,
        Op2::Le => l <= r,
        Op2::Gt => l > r,
        Op2::Ge => l >= r,
        _ => return None,
    })
}

/// `c.attr` of the bound card compared with a value that does not depend on it, in
/// either order: the attribute, the other side, and whether the attribute is on the left.
fn attr_against<'e>(a: &'e Expr, b: &'e Expr, bound: Bound) -> Option<(u16, &'e Expr, bool)> {
    // Written out for both orders: this runs on every class test.
    if let Expr::Attr(at, c) = a {
        if bound.has(c) && independent(b, bound) {
            return Some((*at, b, true));
        }
    }
    if let Expr::Attr(at, c) = b {
        if bound.has(c) && independent(a, bound) {
            return Some((*at, a, false));
        }
    }
    None
}

/// The bound card itself compared with something that does not depend on it, in
/// either order: the other side.
fn card_against<'e>(a: &'e Expr, b: &'e Expr, bound: Bound) -> Option<&'e Expr> {
    if bound.has(a) && independent(b, bound) {
        Some(b)
    } else if bound.has(b) && independent(a, bound) {
        Some(a)
    } else {
        None
    }
}

/// Whether a small expression certainly does not read the bound card (only simple
/// forms are looked at; anything else counts as dependent).
fn independent(e: &Expr, bound: Bound) -> bool {
    match e {
        Expr::Const(_)
        | Expr::Param(_)
        | Expr::Var(_)
        | Expr::Dealer
        | Expr::Group(_)
        | Expr::Zone(_)
        | Expr::Cards(_) => true,
        Expr::Local(s) => !bound.binds(*s),
        Expr::Attr(_, x) | Expr::GroupAttr(_, x) | Expr::SeatZone(_, x) => independent(x, bound),
        _ => false,
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
pub(super) fn scalar_of(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Seat(s) => Some(*s as i64),
        Value::Card(c) => Some(*c as i64),
        Value::Bool(b) => Some(*b as i64),
        Value::Sym(s) => Some(*s as i64),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    /// Runs every test of a small hanafuda ruleset with these defs and test bodies.
    fn run(defs: &str, tests: &str) {
        let text = format!(
            "ruleset \"g\"\nimport \"std/hanafuda\"\nseats 2 {{ 2: A B }}\n\
             zone 山 shared stack hidden\nzone 手 per seat pile owner\n{defs}\n{tests}\n"
        );
        let p = match crate::compile("g.fuda", &text, &crate::loader::NoFiles) {
            Ok(c) => c.program,
            Err(f) => panic!("{:#?}", f.diagnostics),
        };
        assert!(!p.tests.is_empty());
        for t in 0..p.tests.len() {
            if let Err(e) = crate::State::run_test(&p, t) {
                panic!("test \"{}\": {}", p.tests[t].name, e.message);
            }
        }
    }

    /// Quantifiers whose body compares a count of the cards sharing the bound card's
    /// class (`count(月札(h, c.month)) == 4`) are answered class by class; on random
    /// hands they agree with the card-by-card sums (`if … then 1 else 0` bodies take
    /// the plain path), in every form the fast path accepts and some it refuses.
    #[test]
    fn group_counts_agree_with_card_by_card_tests() {
        run(
            "def 赤(c: card) = c is 赤短\n\
             def 月札(z: cards, m: int) = filter(c in z: c.month == m and not 赤(c))\n\
             def 枚(h: cards, n: int) = count(c in h: c.month == n)\n\
             def 四枚(h: cards) = any(c in h: not 赤(c) and count(月札(h, c.month)) == 4)",
            r#"test "groups" {
  shuffle 山
  repeat 40 as r {
    deal 14 from 山 to 手
    let h = 手[0]
    let k = r % 5
    let unset = 0
    expect 四枚(h) == (sum(c in h: if not 赤(c) and count(月札(h, c.month)) == 4 then 1 else 0) > 0)
    expect count(c in h: 枚(h, c.month) >= k) == sum(c in h: if 枚(h, c.month) >= k then 1 else 0)
    expect count(c in h: k < 枚(h, c.month)) == sum(c in h: if k < 枚(h, c.month) then 1 else 0)
    expect count(c in h: 枚(山, c.month) != k) == sum(c in h: if 枚(山, c.month) != k then 1 else 0)
    expect count(c in 山: count(x in h: x.month == c.month) == k) == sum(c in 山: if count(x in h: x.month == c.month) == k then 1 else 0)
    expect count(c in h: count(filter(x in 山: c.month == x.month and x.points > 0)) <= k) == sum(c in h: if count(filter(x in 山: c.month == x.month and x.points > 0)) <= k then 1 else 0)
    expect all(c in h: count(月札(h, c.month)) > 0 or 赤(c)) == (sum(c in h: if count(月札(h, c.month)) > 0 or 赤(c) then 0 else 1) == 0)
    expect count(c in h: count(x in h: x.month == c.month and x != c) == 1) == sum(c in h: if count(x in h: x.month == c.month and x != c) == 1 then 1 else 0)
    expect count(c in h: count(x in h: x.kind == c.kind) == k) == sum(c in h: if count(x in h: x.kind == c.kind) == k then 1 else 0)
    expect count(c in cards(): count(x in h: x.month == c.month) == unset) == sum(c in cards(): if count(x in h: x.month == c.month) == unset then 1 else 0)
    gather 山
    shuffle 山
  }
}"#,
        );
    }

    /// Quantifiers over a range of numbers whose body compares the count of one
    /// number's cards (`all(n in 1..5: 枚(h, n) >= 2)`) agree with testing each number
    /// (the `if … then 1 else 0` bodies take the plain path).
    #[test]
    fn number_groups_agree_with_number_by_number_tests() {
        run(
            "def 枚(h: cards, n: int) = count(c in h: c.month == n)\n\
             def 赤(c: card) = c is 赤短",
            r#"test "numbers" {
  shuffle 山
  repeat 40 as r {
    deal 14 from 山 to 手
    let h = 手[0]
    let k = r % 4
    let zero = 0
    expect all(n in 1..12: 枚(h, n) >= k) == (sum(n in 1..12: if 枚(h, n) >= k then 0 else 1) == 0)
    expect any(n in 3..9: 枚(h, n) == k) == (sum(n in 3..9: if 枚(h, n) == k then 1 else 0) > 0)
    expect count(n in 0..14: k > 枚(h, n)) == sum(n in 0..14: if k > 枚(h, n) then 1 else 0)
    expect count(n in 1..12: count(filter(c in h: c.month == n and not 赤(c))) != k) == sum(n in 1..12: if count(filter(c in h: c.month == n and not 赤(c))) != k then 1 else 0)
    expect count(n in 1..12: count(c in 山: n == c.month and c.points > 0) <= k) == sum(n in 1..12: if count(c in 山: n == c.month and c.points > 0) <= k then 1 else 0)
    expect count(n in 5..2: 枚(h, n) == 0) == 0
    expect all(n in 5..2: 枚(h, n) == 1)
    expect count(n in 1..12: 枚(h, n) == zero) == sum(n in 1..12: if 枚(h, n) == zero then 1 else 0)
    gather 山
    shuffle 山
  }
}"#,
        );
    }

    /// The class read by index agrees with the deck's search, inside and around every
    /// attribute's values, for consecutive values (months) and others (points).
    #[test]
    fn classes_read_by_index_agree_with_the_search() {
        for deck in ["hanafuda", "kabufuda", "mahjong"] {
            let text = format!(
                "ruleset \"c\"\nimport \"std/{deck}\"\nseats 2 {{ 2: A B }}\n\
                 zone 山 shared stack hidden\nproc match {{ shuffle 山 }}\n"
            );
            let p = match crate::compile("c.fuda", &text, &crate::loader::NoFiles) {
                Ok(c) => c.program,
                Err(f) => panic!("{:#?}", f.diagnostics),
            };
            for a in 0..p.deck.attrs.len() as u16 {
                let values = &p.deck.attr_classes(a).expect("classes").values;
                let (lo, hi) = (values[0], values[values.len() - 1]);
                for v in lo - 3..=hi + 3 {
                    assert_eq!(
                        super::class_of(&p, a, v),
                        p.deck.class_of(a, v),
                        "{deck} {a} {v}"
                    );
                }
            }
        }
    }

    /// An `and` whose left side holds for no card of the domain leaves its right side
    /// untested, card by card and by classes alike (here the right side would name a
    /// seat that does not exist).
    #[test]
    fn class_tests_skip_what_card_by_card_tests_skip() {
        run(
            "",
            r#"test "short" {
  deal 8 from 山 to 手
  let h = 手[0]
  let x = 5
  expect count(c in h: c.month == 13 and c in 手[x]) == 0
  expect all(c in h: c.month != 13 or c in 手[x])
  expect not any(c in h: c.month > 12 and c in 手[x])
}"#,
        );
    }
}
