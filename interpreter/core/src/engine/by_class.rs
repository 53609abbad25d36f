//! Quantifiers answered by attribute classes instead of card by card: a body that only
//! asks the bound card's attribute, tag or identity against values that do not depend on
//! it (`count(c in h: c.number == n)`, `not 鬼(c)`), or that compares a count of the
//! cards sharing the bound card's class with a number (`count(月札(h, c.month)) == 4`),
//! is the same for every card of one class, so a set operation per class answers it.
//! Which quantifiers qualify is decided once by the compiler (`compile/classes.rs`, with
//! [`class_shaped`]); every other form, and any unset or failing part, takes the
//! card-by-card path with exactly its meaning.

use super::error::RuntimeError;
use super::eval::Cx;
use super::typed::overflow;
use crate::ir::{BinderKind, Builtin, Expr, Op2};
use crate::model::CardSet;
use crate::value::Value;

impl Cx<'_> {
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
            // The compared value was unset: test each card on the plain path below
            // (charged again, as that path charges; this is rare).
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
    /// slot (see [`Bound::new`]), so the whole array is compared, without a loop (and
    /// without `contains`, which LLVM sometimes leaves a call).
    #[inline(always)]
    fn binds(&self, s: u16) -> bool {
        let [a, b, c, d] = self.slots;
        (a == s) | (b == s) | (c == s) | (d == s)
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
