//! How far a set of cards is from matching a pattern: the fewest cards still missing
//! when the cards are spread over the pattern's groups as far as their shapes allow.
//! Computer players use it as a generic measure of closeness to a win.

use crate::engine::{Cx, RuntimeError};
use crate::ir::{PatternDef, ShapeDef, SlotDef};
use crate::model::{CardIx, CardSet};

/// The result of a distance search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Distance {
    /// Cards still missing from the best partial split.
    pub missing: usize,
}

/// The fewest cards missing for `cards` to fill the pattern (0 when a subset of the cards
/// fits every group's shape; whole-match constraints are not considered).
pub fn distance(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    cards: CardSet,
) -> Result<Distance, RuntimeError> {
    let mut best = pat.size;
    let mut groups = vec![CardSet::EMPTY; pat.slots.len()];
    // One candidate list per depth, reused by every branch at that depth.
    let mut lists = vec![Vec::new(); pat.slots.len()];
    go(cx, pat, 0, cards, 0, &mut groups, &mut lists, &mut best)?;
    Ok(Distance { missing: best })
}

#[allow(clippy::too_many_arguments)]
fn go(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    i: usize,
    rest: CardSet,
    missing: usize,
    groups: &mut [CardSet],
    lists: &mut [Vec<CardSet>],
    best: &mut usize,
) -> Result<(), RuntimeError> {
    if missing >= *best {
        return Ok(());
    }
    if i == pat.slots.len() {
        *best = missing;
        return Ok(());
    }
    cx.charge(1)?;
    let slot = &pat.slots[i];
    let floor = slot.copy_of.map(|_| groups[i - 1].first().unwrap_or(0));
    let mut subsets = std::mem::take(&mut lists[i]);
    subsets.clear();
    partial_fits(cx, slot, rest, floor, &mut subsets);
    // Larger partial groups first, so good bounds come early.
    subsets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    let mut result = Ok(());
    for s in &subsets {
        groups[i] = *s;
        result = go(
            cx,
            pat,
            i + 1,
            rest.minus(*s),
            missing + slot.size - s.len(),
            groups,
            lists,
            best,
        );
        if result.is_err() || *best == 0 {
            break;
        }
    }
    lists[i] = subsets;
    groups[i] = CardSet::EMPTY;
    result
}

/// Maximal-ish subsets of `rest` that could grow into the slot: within one class for
/// `same`, distinct and close for `run`, distinct for `distinct`. Includes the empty set.
fn partial_fits(
    cx: &Cx<'_>,
    slot: &SlotDef,
    rest: CardSet,
    floor: Option<CardIx>,
    out: &mut Vec<CardSet>,
) {
    let deck = &cx.p.deck;
    // The cards the slot may take (above the floor), in card order.
    let pool = match floor {
        Some(f) => super::above(rest, f),
        None => rest,
    };
    out.push(CardSet::EMPTY);
    let k = slot.size;
    if slot.shapes.is_empty() {
        out.push(pool.iter().take(k).collect());
        return;
    }
    for shape in &slot.shapes {
        match shape {
            ShapeDef::Same(a) => {
                let pool_set = pool;
                for class in deck.classes(*a) {
                    let cs = pool_set.inter(*class);
                    // Any k of a class serve alike for the bound; when the class is larger,
                    // which ones stay out matters for the other groups, so try each choice.
                    if cs.len() <= k {
                        if !cs.is_empty() {
                            out.push(cs);
                        }
                    } else if super::binomial(cs.len(), k) <= 256 {
                        super::combos(cs, k, out);
                    } else {
                        // Too many choices to try each: any k of the class bound the
                        // distance equally well for this group.
                        out.push(cs.iter().take(k).collect());
                    }
                }
            }
            ShapeDef::Distinct(a) => {
                // The pool's cards by value, values in order of their first card.
                let mut by_value: Vec<(i64, CardSet)> = Vec::new();
                for c in pool.iter() {
                    let v = deck.attr(*a, c);
                    match by_value.iter_mut().find(|(x, _)| *x == v) {
                        Some((_, set)) => set.insert(c),
                        None => by_value.push((v, CardSet::single(c))),
                    }
                }
                let m = k.min(by_value.len());
                if distinct_choices(&by_value, m) <= 256 {
                    // Which card stands for a value matters to the other groups: try
                    // every choice of m values and one card of each.
                    pick_distinct(&by_value, m, CardSet::EMPTY, out);
                } else {
                    // Too many to try: the first card of each of the first m values.
                    out.push(
                        by_value[..m]
                            .iter()
                            .map(|(_, set)| set.first().unwrap_or(0))
                            .collect(),
                    );
                }
            }
            ShapeDef::Run(a, by) => {
                for start in pool.iter() {
                    let v0 = deck.attr(*a, start);
                    let suit = by.map(|b| deck.attr(b, start));
                    let mut s = CardSet::EMPTY;
                    for d in 0..k as i64 {
                        if let Some(c) = pool.iter().find(|c| {
                            Some(deck.attr(*a, *c)) == v0.checked_add(d)
                                && by.map(|b| Some(deck.attr(b, *c)) == suit).unwrap_or(true)
                        }) {
                            s.insert(c);
                        }
                    }
                    out.push(s);
                }
            }
        }
    }
}

/// How many ways there are to take `m` cards of distinct values from `by_value`
/// (saturating).
fn distinct_choices(by_value: &[(i64, CardSet)], m: usize) -> u64 {
    // ways[j]: ways to take j cards from the values seen so far.
    let mut ways = vec![0u64; m + 1];
    ways[0] = 1;
    for (_, set) in by_value {
        let n = set.len() as u64;
        for j in (1..=m).rev() {
            ways[j] = ways[j].saturating_add(ways[j - 1].saturating_mul(n));
        }
    }
    ways[m]
}

/// Every set of `m` cards of distinct values from `by_value`, added to `acc`.
fn pick_distinct(by_value: &[(i64, CardSet)], m: usize, acc: CardSet, out: &mut Vec<CardSet>) {
    if m == 0 {
        out.push(acc);
        return;
    }
    for i in 0..by_value.len().saturating_sub(m - 1) {
        for c in by_value[i].1.iter() {
            let mut next = acc;
            next.insert(c);
            pick_distinct(&by_value[i + 1..], m - 1, next, out);
        }
    }
}
