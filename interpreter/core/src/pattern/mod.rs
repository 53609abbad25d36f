//! Pattern matching: every way to split a set of cards exactly into a pattern's groups.
//!
//! The search fills groups in order, generating only candidates that fit a group's
//! shape (a `same` group draws from one attribute class; a `run` steps through
//! consecutive values), so a typical hand is settled in a handful of steps. Copies of
//! a `*N` group are kept in increasing order of their lowest card, so each split is
//! found once.

mod distance;

pub use distance::{distance, Distance};

use crate::engine::{Cx, RuntimeError};
use crate::ir::{PatternDef, ShapeDef, SlotDef};
use crate::model::{CardIx, CardSet};

/// The largest number of slots a pattern may have.
const MAX_SLOTS: usize = 32;

/// Calls `f` with each complete split (groups in slot order) until it returns false.
/// Returns whether the search was stopped by `f`.
pub fn for_each_match(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    cards: CardSet,
    f: &mut dyn FnMut(&mut Cx<'_>, &[CardSet]) -> Result<bool, RuntimeError>,
) -> Result<bool, RuntimeError> {
    if cards.len() != pat.size || pat.slots.is_empty() || pat.slots.len() > MAX_SLOTS {
        return Ok(false);
    }
    if let Some(pf) = &pat.prefilter {
        if !prefilter_passes(pf, cards) {
            return Ok(false);
        }
    }
    let mut groups = [CardSet::EMPTY; MAX_SLOTS];
    let mut search = Search {
        pat,
        f,
        stopped: false,
    };
    search.fill(cx, 0, cards, &mut groups)?;
    Ok(search.stopped)
}

/// Whether the class counts of `cards` can be split into the group sizes (each class
/// filled by whole groups). Counts are small, so a tiny search suffices.
pub fn prefilter_passes(pf: &crate::ir::Prefilter, cards: CardSet) -> bool {
    let mut counts = [0usize; 64];
    let mut n = 0;
    for class in &pf.classes {
        let k = cards.inter(*class).len();
        if k > 0 {
            if n == counts.len() {
                return true;
            }
            counts[n] = k;
            n += 1;
        }
    }
    if n > pf.sizes.len() {
        return false;
    }
    fn place(sizes: &[usize], counts: &mut [usize]) -> bool {
        let Some((&s, rest)) = sizes.split_first() else {
            return counts.iter().all(|c| *c == 0);
        };
        for i in 0..counts.len() {
            if counts[i] >= s {
                counts[i] -= s;
                let ok = place(rest, counts);
                counts[i] += s;
                if ok {
                    return true;
                }
            }
        }
        false
    }
    place(&pf.sizes, &mut counts[..n])
}

struct Search<'p, 'f> {
    pat: &'p PatternDef,
    f: &'f mut dyn FnMut(&mut Cx<'_>, &[CardSet]) -> Result<bool, RuntimeError>,
    stopped: bool,
}

impl Search<'_, '_> {
    fn fill(
        &mut self,
        cx: &mut Cx<'_>,
        i: usize,
        rest: CardSet,
        groups: &mut [CardSet; MAX_SLOTS],
    ) -> Result<(), RuntimeError> {
        let n = self.pat.slots.len();
        if i == n {
            if !rest.is_empty() {
                return Ok(());
            }
            let gs = &groups[..n];
            if !self.requires_hold(cx, gs)? {
                return Ok(());
            }
            if !(self.f)(cx, gs)? {
                self.stopped = true;
            }
            return Ok(());
        }
        let slot = &self.pat.slots[i];
        // Copies of one group are ordered by their lowest card.
        let floor = slot.copy_of.map(|_| groups[i - 1].first().unwrap_or(0));
        let mut cands: Vec<CardSet> = Vec::new();
        candidates(cx, slot, rest, floor, &mut cands)?;
        for g in cands {
            if self.stopped {
                break;
            }
            cx.charge(1)?;
            groups[i] = g;
            if let Some(cond) = &slot.condition {
                // Conditions see the groups placed so far.
                let snapshot: Vec<CardSet> = groups[..=i].to_vec();
                let mut locals = vec![crate::value::Value::Unit; self.pat.frame as usize];
                let ok = {
                    let mut inner = Cx {
                        p: cx.p,
                        b: cx.b,
                        locals: &mut locals,
                        groups: &snapshot,
                        budget: cx.budget,
                        at: cx.at,
                    };
                    let r = inner.eval(cond);
                    cx.budget = inner.budget;
                    r?.truthy()
                };
                if !ok {
                    continue;
                }
            }
            self.fill(cx, i + 1, rest.minus(g), groups)?;
        }
        groups[i] = CardSet::EMPTY;
        Ok(())
    }

    fn requires_hold(&self, cx: &mut Cx<'_>, gs: &[CardSet]) -> Result<bool, RuntimeError> {
        if self.pat.requires.is_empty() {
            return Ok(true);
        }
        let mut locals = vec![crate::value::Value::Unit; self.pat.frame as usize];
        let mut inner = Cx {
            p: cx.p,
            b: cx.b,
            locals: &mut locals,
            groups: gs,
            budget: cx.budget,
            at: cx.at,
        };
        let mut ok = true;
        for r in &self.pat.requires {
            if !inner.eval(r)?.truthy() {
                ok = false;
                break;
            }
        }
        cx.budget = inner.budget;
        Ok(ok)
    }
}

/// Every subset of `rest` that fits the slot's size and one of its shapes, with its
/// lowest card above `floor` (for ordered copies).
fn candidates(
    cx: &mut Cx<'_>,
    slot: &SlotDef,
    rest: CardSet,
    floor: Option<CardIx>,
    out: &mut Vec<CardSet>,
) -> Result<(), RuntimeError> {
    let pool: Vec<CardIx> = rest
        .iter()
        .filter(|c| floor.map(|f| *c > f).unwrap_or(true))
        .collect();
    let k = slot.size;
    if pool.len() < k {
        return Ok(());
    }
    let deck = &cx.p.deck;
    let before = out.len();
    if slot.shapes.is_empty() {
        combos(&pool, k, out);
    }
    for shape in &slot.shapes {
        match shape {
            ShapeDef::Same(a) => {
                let mut classes: Vec<(i64, Vec<CardIx>)> = Vec::new();
                for c in &pool {
                    let v = deck.attr(*a, *c);
                    match classes.iter_mut().find(|(x, _)| *x == v) {
                        Some((_, cs)) => cs.push(*c),
                        None => classes.push((v, vec![*c])),
                    }
                }
                for (_, cs) in classes {
                    if cs.len() >= k {
                        combos(&cs, k, out);
                    }
                }
            }
            ShapeDef::Distinct(a) => {
                let mut all = Vec::new();
                combos(&pool, k, &mut all);
                out.extend(all.into_iter().filter(|s| {
                    let mut vals: Vec<i64> = s.iter().map(|c| deck.attr(*a, c)).collect();
                    vals.sort_unstable();
                    vals.windows(2).all(|w| w[0] != w[1])
                }));
            }
            ShapeDef::Run(a, by) => {
                // Each card may start a run; pick one card per consecutive value.
                for &start in &pool {
                    let v0 = deck.attr(*a, start);
                    let suit = by.map(|b| deck.attr(b, start));
                    let mut picked = vec![start];
                    run_from(cx, &pool, *a, *by, suit, v0, k, &mut picked, out);
                }
            }
        }
        cx.charge(1)?;
    }
    // Shapes may overlap (e.g. a pair that is also a run of one): keep each set once.
    if slot.shapes.len() > 1 {
        let tail = &mut out[before..];
        tail.sort_unstable();
        let mut seen: Vec<CardSet> = Vec::new();
        for s in tail.iter() {
            if seen.last() != Some(s) {
                seen.push(*s);
            }
        }
        out.truncate(before);
        out.extend(seen);
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn run_from(
    cx: &Cx<'_>,
    pool: &[CardIx],
    a: u16,
    by: Option<u16>,
    suit: Option<i64>,
    v0: i64,
    k: usize,
    picked: &mut Vec<CardIx>,
    out: &mut Vec<CardSet>,
) {
    if picked.len() == k {
        out.push(picked.iter().copied().collect());
        return;
    }
    let want = v0 + picked.len() as i64;
    let deck = &cx.p.deck;
    for &c in pool {
        if deck.attr(a, c) == want && by.map(|b| Some(deck.attr(b, c)) == suit).unwrap_or(true) {
            picked.push(c);
            run_from(cx, pool, a, by, suit, v0, k, picked, out);
            picked.pop();
        }
    }
}

/// All k-subsets of `items`.
pub(crate) fn combos(items: &[CardIx], k: usize, out: &mut Vec<CardSet>) {
    fn go(
        items: &[CardIx],
        k: usize,
        start: usize,
        cur: &mut CardSet,
        left: usize,
        out: &mut Vec<CardSet>,
    ) {
        if left == 0 {
            out.push(*cur);
            return;
        }
        for i in start..=items.len() - left {
            cur.insert(items[i]);
            go(items, k, i + 1, cur, left - 1, out);
            cur.remove(items[i]);
        }
    }
    if k == 0 || k > items.len() {
        return;
    }
    let mut cur = CardSet::EMPTY;
    go(items, k, 0, &mut cur, k, out);
}
