//! Compile-time rewrites of the expressions a pattern or score table evaluates for every
//! split, into forms the typed evaluator runs without a loop.
//!
//! - A quantifier over a card set whose body reads nothing but its card (attributes,
//!   tags, constants) is a fixed property of each card, and the deck is finite: the
//!   cards that have it are tabulated once, and `count(c in X: P)`, `all`, `any` and
//!   `filter` become set arithmetic on `X` (`count(X - not-P)`, `empty(X - P)`, …);
//!   `sum(c in X: f(c))` becomes a few counts (the cards grouped by value).
//! - `let` bindings of a group, a constant set, a constant or another local (what an
//!   inlined `def` called with a group or a quantifier's card makes) are substituted
//!   into their body, so `桐素(五)` reads the group directly, `GROUP.attr` inside a def
//!   is visible to [`super::Plan`], and `sum(c in h: 点(c))` reads the card.
//!
//! Both give the same values as the forms they replace; only the evaluation steps
//! charged to the budget differ (fewer).

use crate::engine::{Cx, EVAL_BUDGET};
use crate::ir::{BinderKind, Builtin, Expr, Loc, Op2, Program};
use crate::model::CardSet;
use crate::value::Value;

/// Rewrites `e` in place; `card_slots` are the local slots known to hold card sets
/// throughout (a table's `cards` parameters).
pub fn simplify(p: &Program, e: &mut Expr, card_slots: &[u16]) {
    let mut rw = Rewriter {
        p,
        cards: Vec::new(),
    };
    for s in card_slots {
        rw.set(*s, true);
    }
    rw.walk(e);
}

struct Rewriter<'p> {
    p: &'p Program,
    /// Per local slot: holds a card set in the expression being walked.
    cards: Vec<bool>,
}

impl Rewriter<'_> {
    /// Marks slot `s`; returns its previous mark.
    fn set(&mut self, s: u16, cards: bool) -> bool {
        let s = s as usize;
        if self.cards.len() <= s {
            self.cards.resize(s + 1, false);
        }
        std::mem::replace(&mut self.cards[s], cards)
    }

    /// Whether `e` certainly evaluates to a card set.
    fn is_cards(&self, e: &Expr) -> bool {
        match e {
            Expr::Group(_)
            | Expr::Cards(_)
            | Expr::Zone(_)
            | Expr::SeatZone(..)
            | Expr::Binder(BinderKind::Filter, ..) => true,
            Expr::Local(s) => self.cards.get(*s as usize).copied().unwrap_or(false),
            Expr::Bin(Op2::Union | Op2::Minus, a, _) => self.is_cards(a),
            _ => false,
        }
    }

    fn walk(&mut self, e: &mut Expr) {
        match e {
            Expr::LetIn(s, v, body) => {
                self.walk(v);
                let slot = *s;
                // A copy of another local (an inlined def's parameter bound to the
                // quantifier's card) is substituted too, when neither slot is bound again
                // inside, so the def's body reads the card directly.
                let alias = matches!(**v, Expr::Local(src) if !binds(body, src));
                if (alias || matches!(**v, Expr::Group(_) | Expr::Cards(_) | Expr::Const(_)))
                    && !binds(body, slot)
                {
                    // Substituted first, so the body's own lets and loops see the group.
                    let v = (**v).clone();
                    let mut body = std::mem::replace(&mut **body, Expr::Const(Value::Unit));
                    substitute(&mut body, slot, &v);
                    self.walk(&mut body);
                    *e = body;
                } else {
                    let prev = self.set(slot, self.is_cards(v));
                    self.walk(body);
                    self.set(slot, prev);
                }
            }
            Expr::Binder(kind, s, dom, body, _) => {
                self.walk(dom);
                // Inside the body the slot holds one element, whatever it held outside.
                let prev = self.set(*s, false);
                self.walk(body);
                self.set(*s, prev);
                if let Some(r) = self.tabulate(*kind, *s, dom, body) {
                    *e = r;
                }
            }
            _ => e.children_mut(|c| self.walk(c)),
        }
    }

    /// The set form of a quantifier over a card set whose body is a property of the
    /// card alone.
    fn tabulate(&self, kind: BinderKind, slot: u16, dom: &Expr, body: &Expr) -> Option<Expr> {
        if !matches!(
            kind,
            BinderKind::Count
                | BinderKind::All
                | BinderKind::Any
                | BinderKind::Filter
                | BinderKind::Sum
        ) || !self.is_cards(dom)
            || !card_only(body, slot)
        {
            return None;
        }
        if kind == BinderKind::Sum {
            return self.tabulate_sum(slot, dom, body);
        }
        // A body that fails on some card keeps its loop, to fail as written.
        let holds = self.each_card(slot, |cx| cx.eval_bool(body).ok().map(i64::from))?;
        let has: CardSet = (0..holds.len() as u16)
            .filter(|c| holds[*c as usize] != 0)
            .collect();
        let lacks = self.p.deck.all().minus(has);
        let minus =
            |s: CardSet| Expr::Bin(Op2::Minus, Box::new(dom.clone()), Box::new(Expr::Cards(s)));
        let call = |b: Builtin, x: Expr| Expr::Call(b, vec![x], Loc::default());
        Some(match kind {
            BinderKind::Filter => minus(lacks),
            BinderKind::Count => call(Builtin::Count, minus(lacks)),
            BinderKind::All => call(Builtin::Empty, minus(has)),
            _ => Expr::Not(Box::new(call(Builtin::Empty, minus(lacks)))),
        })
    }
}

impl Rewriter<'_> {
    /// `f` for each card of the deck bound to `slot` (with no game), in card order;
    /// `None` when it fails on some card.
    fn each_card(
        &self,
        slot: u16,
        mut f: impl FnMut(&mut Cx<'_>) -> Option<i64>,
    ) -> Option<Vec<i64>> {
        let mut locals = vec![Value::Unit; (slot as usize + 1).max(16)];
        (0..self.p.deck.len() as u16)
            .map(|c| {
                locals[slot as usize] = Value::Card(c);
                f(&mut Cx {
                    p: self.p,
                    b: None,
                    locals: &mut locals,
                    groups: &[],
                    budget: EVAL_BUDGET,
                    at: Loc::default(),
                })
            })
            .collect()
    }

    /// `sum(c in X: f(c))` with `f` a property of the card alone: the deck's cards are
    /// grouped by their value, and the sum is each value times how many of `X` have it
    /// (`let s = X in v1 * count(s - not-v1) + …`, the domain evaluated once, in the
    /// quantifier's own slot). Left as a loop when a card's value fails or there are
    /// more than [`MAX_SUM_VALUES`] values.
    fn tabulate_sum(&self, slot: u16, dom: &Expr, body: &Expr) -> Option<Expr> {
        let values = self.each_card(slot, |cx| cx.eval_int(body).ok())?;
        let mut by_value: Vec<(i64, CardSet)> = Vec::new();
        for (c, v) in values.into_iter().enumerate() {
            let c = c as u16;
            if v == 0 {
                continue;
            }
            // Small enough that no sum over the deck overflows, in any order: the loop
            // and the counts then fail or succeed alike.
            if v.unsigned_abs() > MAX_SUM_VALUE {
                return None;
            }
            let full = by_value.len() == MAX_SUM_VALUES;
            match by_value.iter_mut().find(|(x, _)| *x == v) {
                Some((_, set)) => set.insert(c),
                None if !full => by_value.push((v, CardSet::single(c))),
                None => return None,
            }
        }
        let all = self.p.deck.all();
        let bx = Box::new;
        let sum = by_value
            .into_iter()
            .map(|(v, set)| {
                let count = Expr::Call(
                    Builtin::Count,
                    vec![Expr::Bin(
                        Op2::Minus,
                        bx(Expr::Local(slot)),
                        bx(Expr::Cards(all.minus(set))),
                    )],
                    Loc::default(),
                );
                Expr::Bin(Op2::Mul, bx(Expr::Const(Value::Int(v))), bx(count))
            })
            .reduce(|a, b| Expr::Bin(Op2::Add, bx(a), bx(b)))
            .unwrap_or(Expr::Const(Value::Int(0)));
        Some(Expr::LetIn(slot, bx(dom.clone()), bx(sum)))
    }
}

/// Most distinct card values a tabulated `sum` keeps (a term each).
const MAX_SUM_VALUES: usize = 16;

/// Largest card value a tabulated `sum` takes: a deck has at most 256 cards, so no sum
/// of such values overflows.
const MAX_SUM_VALUE: u64 = (i64::MAX as u64) >> 9;

/// How many local slots evaluating `e` may touch (one past the highest it reads or
/// binds): after the rewrites, often fewer than the frame compiling it reserved.
pub fn slots_used(e: &Expr) -> usize {
    let mut n = 0;
    visit(e, &mut |x| {
        if let Expr::Local(s) | Expr::LetIn(s, ..) | Expr::Binder(_, s, ..) = x {
            n = n.max(*s as usize + 1);
        }
    });
    n
}

/// Whether `e` reads nothing but the card in `slot` and constants.
fn card_only(e: &Expr, slot: u16) -> bool {
    match e {
        Expr::Const(_) | Expr::Cards(_) => true,
        Expr::Local(s) => *s == slot,
        Expr::Attr(_, x) | Expr::HasTag(_, x) | Expr::Not(x) | Expr::Neg(x) => card_only(x, slot),
        Expr::And(a, b) | Expr::Or(a, b) | Expr::Bin(_, a, b) | Expr::Range(a, b) => {
            card_only(a, slot) && card_only(b, slot)
        }
        Expr::If(c, a, b) => card_only(c, slot) && card_only(a, slot) && card_only(b, slot),
        Expr::List(items) => items.iter().all(|i| card_only(i, slot)),
        _ => false,
    }
}

/// Whether some `let` or quantifier inside `e` binds `slot`.
fn binds(e: &Expr, slot: u16) -> bool {
    let mut found = false;
    visit(e, &mut |x| {
        if let Expr::LetIn(s, ..) | Expr::Binder(_, s, ..) = x {
            found |= *s == slot;
        }
    });
    found
}

/// Replaces every read of `slot` in `e` by `v`.
fn substitute(e: &mut Expr, slot: u16, v: &Expr) {
    if matches!(e, Expr::Local(s) if *s == slot) {
        *e = v.clone();
        return;
    }
    e.children_mut(|c| substitute(c, slot, v));
}

/// Calls `f` on `e` and every expression inside it.
fn visit(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    e.children(|c| visit(c, f));
}
