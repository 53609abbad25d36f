//! How far a set of cards is from matching a pattern: the fewest cards still missing
//! when the cards are spread over the pattern's groups as far as their shapes allow.
//! Computer players use it as a generic measure of closeness to a win.

use crate::engine::{Cx, RuntimeError};
use crate::ir::{PatternDef, Prefilter, ShapeDef, SlotDef};
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
    distance_in(cx, pat, cards, &mut DistanceScratch::default())
}

/// Lists a distance search works in, kept by a caller that asks many times (a computer
/// player asks once per move it weighs) so that a search allocates nothing.
#[derive(Clone, Debug, Default)]
pub struct DistanceScratch {
    /// The partial group chosen at each depth.
    groups: Vec<CardSet>,
    /// The candidates at each depth, larger first; reused by every branch there.
    lists: Vec<Vec<CardSet>>,
    /// Candidates as listed, before ordering (consumed before the search goes deeper).
    raw: Vec<CardSet>,
    /// How many candidates of each size (for the ordering).
    sizes: Vec<usize>,
}

/// [`distance`] with lists kept across calls.
pub fn distance_in(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    cards: CardSet,
    scratch: &mut DistanceScratch,
) -> Result<Distance, RuntimeError> {
    if let Some(missing) = pat
        .prefilter
        .as_ref()
        .and_then(|pf| by_class_counts(pf, &pat.slots, cards))
    {
        return Ok(Distance { missing });
    }
    search(cx, pat, cards, scratch)
}

/// The most assignments of groups to classes [`by_class_counts`] weighs; a pattern
/// with more is searched instead.
const MOST_ASSIGNMENTS: usize = 4096;

/// The distance of a pattern whose groups are all `same` on one attribute (it has a
/// [`Prefilter`]), worked out from how many cards each class holds: a group takes cards
/// of one class, and which of them it takes does not change how many the others can
/// take, so the best partial split places `min(demand, count)` cards in each class for
/// the best assignment of groups to classes. This is what the search below finds for
/// such a pattern (a test compares the two), without listing a single subset. `None`
/// when there are too many assignments to weigh.
fn by_class_counts(pf: &Prefilter, slots: &[SlotDef], cards: CardSet) -> Option<usize> {
    let mut counts = [0usize; MOST_CLASSES];
    let mut touched = 0;
    for class in &pf.classes {
        let k = cards.inter(*class).len();
        if k > 0 {
            // A class no card of the hand is in takes nothing: as good as no class.
            *counts.get_mut(touched)? = k;
            touched += 1;
        }
    }
    // Each group goes to a touched class or to none.
    let ways = (touched + 1).checked_pow(u32::try_from(slots.len()).ok()?)?;
    if ways > MOST_ASSIGNMENTS {
        return None;
    }
    let total: usize = slots.iter().map(|s| s.size).sum();
    let placed = most_placed(slots, &mut counts[..touched], total);
    Some(total - placed)
}

/// Classes [`by_class_counts`] keeps on the stack; a hand touching more is searched.
const MOST_CLASSES: usize = 16;

/// The most cards the groups `slots` can take from classes holding `left` cards, each
/// group from one class (or none); stops early once every group could be filled
/// (`want` cards).
fn most_placed(slots: &[SlotDef], left: &mut [usize], want: usize) -> usize {
    let Some((slot, rest)) = slots.split_first() else {
        return 0;
    };
    let mut best = most_placed(rest, left, want);
    for k in 0..left.len() {
        let take = slot.size.min(left[k]);
        if take == 0 {
            continue;
        }
        left[k] -= take;
        let placed = take + most_placed(rest, left, want - slot.size);
        left[k] += take;
        best = best.max(placed);
        if best == want {
            break;
        }
    }
    best
}

/// The distance by searching partial splits: each group tries the subsets of the cards
/// left that could grow into it, larger first.
pub(super) fn search(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    cards: CardSet,
    scratch: &mut DistanceScratch,
) -> Result<Distance, RuntimeError> {
    let n = pat.slots.len();
    let mut best = pat.size;
    scratch.groups.clear();
    scratch.groups.resize(n, CardSet::EMPTY);
    if scratch.lists.len() < n {
        scratch.lists.resize_with(n, Vec::new);
    }
    go(cx, pat, 0, cards, 0, scratch, &mut best)?;
    Ok(Distance { missing: best })
}

fn go(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    i: usize,
    rest: CardSet,
    missing: usize,
    scratch: &mut DistanceScratch,
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
    let floor = slot
        .copy_of
        .map(|_| scratch.groups[i - 1].first().unwrap_or(0));
    let mut subsets = std::mem::take(&mut scratch.lists[i]);
    scratch.raw.clear();
    partial_fits(cx, slot, rest, floor, &mut scratch.raw);
    // Larger partial groups first, so good bounds come early.
    by_size_descending(&scratch.raw, &mut scratch.sizes, &mut subsets);
    let mut result = Ok(());
    for s in &subsets {
        scratch.groups[i] = *s;
        result = go(
            cx,
            pat,
            i + 1,
            rest.minus(*s),
            missing + slot.size - s.len(),
            scratch,
            best,
        );
        if result.is_err() || *best == 0 {
            break;
        }
    }
    scratch.lists[i] = subsets;
    scratch.groups[i] = CardSet::EMPTY;
    result
}

/// `raw` into `out`, larger sets first and sets of one size in their order in `raw` (a
/// counting sort: the sizes are small, and a comparison sort counted each set's cards
/// over and over).
fn by_size_descending(raw: &[CardSet], counts: &mut Vec<usize>, out: &mut Vec<CardSet>) {
    out.clear();
    let largest = raw.iter().map(|s| s.len()).max().unwrap_or(0);
    counts.clear();
    counts.resize(largest + 2, 0);
    for s in raw {
        counts[largest - s.len() + 1] += 1;
    }
    // counts[r]: where the sets of rank r (size largest - r) start.
    for r in 1..counts.len() {
        counts[r] += counts[r - 1];
    }
    out.resize(raw.len(), CardSet::EMPTY);
    for s in raw {
        let r = largest - s.len();
        out[counts[r]] = *s;
        counts[r] += 1;
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_are_ordered_by_size_and_stably() {
        let mut rng = crate::model::GameRng::new(3);
        let (mut counts, mut out) = (Vec::new(), Vec::new());
        for _ in 0..200 {
            let n = rng.below(40) as usize;
            let raw: Vec<CardSet> = (0..n)
                .map(|_| {
                    let k = rng.below(6) as usize;
                    (0..k).map(|_| rng.below(48) as CardIx).collect()
                })
                .collect();
            let mut want = raw.clone();
            want.sort_by_key(|s| std::cmp::Reverse(s.len()));
            by_size_descending(&raw, &mut counts, &mut out);
            assert_eq!(out, want);
        }
    }
}
