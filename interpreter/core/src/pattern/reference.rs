//! The plain pattern search, without the class-count pruning and in-place candidates
//! (for tests only): the fast search must give the same splits in the same order. A
//! group with wild cards asks every subset of its size whether it fits
//! (`wild::fits`), in sorted order, as the search lists them.

use crate::engine::{Cx, RuntimeError};
use crate::ir::{PatternDef, Prefilter, ShapeDef, SlotDef};
use crate::model::{CardIx, CardSet};
use crate::value::Value;

/// What a search calls with each split: returns whether to go on.
type OnMatch<'f> = dyn FnMut(&mut Cx<'_>, &[CardSet]) -> Result<bool, RuntimeError> + 'f;

/// The largest number of slots a pattern may have.
const MAX_SLOTS: usize = 32;

/// Calls `f` with each complete split (groups in slot order) until it returns false.
/// Returns whether the search was stopped by `f`.
pub fn for_each_match(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    cards: CardSet,
    f: &mut OnMatch<'_>,
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
        locals: vec![Value::Unit; pat.frame as usize],
    };
    search.fill(cx, 0, cards, &mut groups)?;
    Ok(search.stopped)
}

/// Whether the class counts of `cards` can be split into the group sizes (each class
/// filled by whole groups). Counts are small, so a tiny search suffices.
fn prefilter_passes(pf: &Prefilter, cards: CardSet) -> bool {
    counts_fit(&pf.classes, &pf.sizes, cards)
}

fn counts_fit(classes: &[CardSet], sizes: &[usize], cards: CardSet) -> bool {
    let mut counts = [0usize; 64];
    let mut n = 0;
    for class in classes {
        let k = cards.inter(*class).len();
        if k > 0 {
            if n == counts.len() || n == sizes.len() {
                return n == counts.len();
            }
            counts[n] = k;
            n += 1;
        }
    }
    place(sizes, &mut counts[..n])
}

/// Whether the sizes (largest first) can be dealt into the counts exactly.
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

struct Search<'p, 'f> {
    pat: &'p PatternDef,
    f: &'f mut OnMatch<'f>,
    stopped: bool,
    /// Local slots for `where` and `require` (allocated once per search).
    locals: Vec<Value>,
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
        // The rest must still fit the groups after this one.
        if i > 0 {
            if let Some(pf) = &self.pat.prefilter {
                if !counts_fit(&pf.classes, &pf.suffix[i], rest) {
                    return Ok(());
                }
            }
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
                // A group's condition sees the groups placed so far.
                let mut inner = Cx {
                    p: cx.p,
                    b: cx.b,
                    locals: &mut self.locals,
                    groups: &groups[..=i],
                    budget: cx.budget,
                    at: cx.at,
                };
                let r = inner.eval(cond);
                cx.budget = inner.budget;
                if !r?.truthy() {
                    continue;
                }
            }
            self.fill(cx, i + 1, rest.minus(g), groups)?;
        }
        groups[i] = CardSet::EMPTY;
        Ok(())
    }

    fn requires_hold(&mut self, cx: &mut Cx<'_>, gs: &[CardSet]) -> Result<bool, RuntimeError> {
        if self.pat.requires.is_empty() {
            return Ok(true);
        }
        let mut inner = Cx {
            p: cx.p,
            b: cx.b,
            locals: &mut self.locals,
            groups: gs,
            budget: cx.budget,
            at: cx.at,
        };
        let mut ok = true;
        for r in &self.pat.requires {
            match inner.eval(r) {
                Ok(v) if v.truthy() => {}
                Ok(_) => {
                    ok = false;
                    break;
                }
                Err(e) => {
                    cx.budget = inner.budget;
                    return Err(e);
                }
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
    let pool: CardSet = match floor {
        Some(f) => rest.iter().filter(|c| *c > f).collect(),
        None => rest,
    };
    let k = slot.size;
    if pool.len() < k {
        return Ok(());
    }
    let deck = &cx.p.deck;
    if !slot.wild.is_empty() {
        // Wild cards: every k-subset asked whether it fits, in sorted order.
        cx.charge(binomial(pool.len(), k))?;
        let mut all = Vec::new();
        combos(pool, k, &mut all);
        out.extend(
            all.into_iter()
                .filter(|g| super::wild::fits(deck, slot, *g)),
        );
        out.sort_unstable();
        return Ok(());
    }
    if slot.shapes.is_empty() {
        cx.charge(binomial(pool.len(), k))?;
        combos(pool, k, out);
    }
    for shape in &slot.shapes {
        match shape {
            ShapeDef::Same(a) => {
                for class in deck.classes(*a) {
                    let within = pool.inter(*class);
                    if within.len() >= k {
                        // Charged before the subsets are made, so a huge group stops
                        // at the budget instead of filling memory.
                        cx.charge(binomial(within.len(), k))?;
                        combos(within, k, out);
                    }
                }
            }
            ShapeDef::Distinct(a) => {
                cx.charge(binomial(pool.len(), k))?;
                let mut all = Vec::new();
                combos(pool, k, &mut all);
                out.extend(all.into_iter().filter(|s| {
                    let mut seen = [0i64; 32];
                    let mut n = 0;
                    for c in s.iter() {
                        let v = deck.attr(*a, c);
                        if seen[..n].contains(&v) {
                            return false;
                        }
                        if n < seen.len() {
                            seen[n] = v;
                            n += 1;
                        }
                    }
                    true
                }));
            }
            ShapeDef::Run(a, by) => {
                // Each card may start a run; pick one card per consecutive value.
                for start in pool.iter() {
                    let v0 = deck.attr(*a, start);
                    let suit = by.map(|b| deck.attr(b, start));
                    run_from(cx, pool, *a, *by, suit, v0, k, CardSet::single(start), out);
                }
            }
        }
        cx.charge(1)?;
    }
    // Shapes may overlap (a pair that is also a run of one): keep each set once.
    if slot.shapes.len() > 1 {
        out.sort_unstable();
        out.dedup();
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn run_from(
    cx: &Cx<'_>,
    pool: CardSet,
    a: u16,
    by: Option<u16>,
    suit: Option<i64>,
    v0: i64,
    k: usize,
    picked: CardSet,
    out: &mut Vec<CardSet>,
) {
    if picked.len() == k {
        out.push(picked);
        return;
    }
    // A run past the end of the integers simply stops.
    let Some(want) = v0.checked_add(picked.len() as i64) else {
        return;
    };
    let deck = &cx.p.deck;
    for c in pool.iter() {
        if deck.attr(a, c) == want && by.map(|b| Some(deck.attr(b, c)) == suit).unwrap_or(true) {
            let mut next = picked;
            next.insert(c);
            run_from(cx, pool, a, by, suit, v0, k, next, out);
        }
    }
}

/// n choose k, saturating (a size to charge before making subsets).
fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k) as u64;
    let mut r: u64 = 1;
    for i in 0..k {
        r = r.saturating_mul(n as u64 - i) / (i + 1);
        if r == u64::MAX {
            return u64::MAX;
        }
    }
    r
}

/// All k-subsets of `items`, in increasing order of their bitsets' lowest differing card.
fn combos(items: CardSet, k: usize, out: &mut Vec<CardSet>) {
    fn go(items: &[CardIx], start: usize, cur: CardSet, left: usize, out: &mut Vec<CardSet>) {
        if left == 0 {
            out.push(cur);
            return;
        }
        for i in start..=items.len() - left {
            let mut next = cur;
            next.insert(items[i]);
            go(items, i + 1, next, left - 1, out);
        }
    }
    let n = items.len();
    if k == 0 || k > n {
        return;
    }
    if k == n {
        out.push(items);
        return;
    }
    let mut buf = [0 as CardIx; crate::model::MAX_CARDS];
    for (i, c) in items.iter().enumerate() {
        buf[i] = c;
    }
    go(&buf[..n], 0, CardSet::EMPTY, k, out);
}
