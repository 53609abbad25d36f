//! Groups with wild cards (`group 面子*4: 3 same face | run number by suit wild 鬼`).
//!
//! A wild card stands for any value in a group's `same` and `run` shapes: a `same A`
//! group is its natural cards, all of one value of A, and wild cards for the rest; a
//! `run A by B` group is its natural cards, of one value of B and distinct values of A
//! inside one window of consecutive values that cards of the deck with that value of B
//! hold (so a wild card never stands for a 10 of a suit that stops at 9, nor makes a
//! run of honours, whose numbers are all 0), and wild cards for the values missing. At
//! least one card must be natural: a group of wild cards alone stands for nothing. In
//! a `distinct` shape a wild card is just a card. A group with wild cards may mix the
//! classes of its shape's attribute, so the search lists its candidates here, sorted
//! (every subset that fits, once), and the shortcuts that assume a group lies in one
//! class are not taken for its pattern (`compile/score.rs` gives it no prefilter).

use crate::engine::{Cx, RuntimeError};
use crate::ir::{ShapeDef, SlotDef};
use crate::model::{CardIx, CardSet, Deck};

use super::subsets::{binomial, Subsets};

/// Every subset of `pool` of the slot's size that fits one of its shapes, wild cards
/// standing in as the module says, sorted and each once. Every candidate is charged
/// before it is made, so a huge group stops at the budget.
pub(super) fn candidates(
    cx: &mut Cx<'_>,
    slot: &SlotDef,
    pool: CardSet,
    out: &mut Vec<CardSet>,
) -> Result<(), RuntimeError> {
    let k = slot.size;
    let deck = &cx.p.deck;
    let wild = pool.inter(slot.wild);
    let natural = pool.minus(slot.wild);
    if slot.shapes.is_empty() {
        cx.charge(binomial(pool.len(), k))?;
        out.extend(Subsets::new(pool, k));
    }
    for shape in &slot.shapes {
        match shape {
            ShapeDef::Same(a) => {
                for class in deck.classes(*a) {
                    let mine = natural.inter(*class);
                    for j in 1..=k.min(mine.len()) {
                        with_wild(cx, mine, j, wild, k - j, out)?;
                    }
                }
            }
            ShapeDef::Run(a, by) => {
                let mut windows = Vec::new();
                run_windows(deck, *a, *by, natural, k, &mut windows);
                let mut cells = vec![CardSet::EMPTY; k];
                for (line, start) in windows {
                    for (d, cell) in cells.iter_mut().enumerate() {
                        *cell = natural
                            .inter(line)
                            .inter(deck.class_of(*a, start + d as i64));
                    }
                    pick_cells(cx, &cells, CardSet::EMPTY, wild, k, out)?;
                }
            }
            ShapeDef::Distinct(a) => {
                cx.charge(binomial(pool.len(), k))?;
                out.extend(Subsets::new(pool, k).filter(|g| distinct(deck, *a, *g)));
            }
        }
        cx.charge(1)?;
    }
    out.sort_unstable();
    out.dedup();
    Ok(())
}

/// Each set of `j` cards of `mine` with `m` cards of `wild`, into `out`.
fn with_wild(
    cx: &mut Cx<'_>,
    mine: CardSet,
    j: usize,
    wild: CardSet,
    m: usize,
    out: &mut Vec<CardSet>,
) -> Result<(), RuntimeError> {
    if m > wild.len() {
        return Ok(());
    }
    cx.charge(binomial(mine.len(), j).saturating_mul(binomial(wild.len(), m).max(1)))?;
    for x in Subsets::new(mine, j) {
        if m == 0 {
            out.push(x);
        } else {
            out.extend(Subsets::new(wild, m).map(|y| x.union(y)));
        }
    }
    Ok(())
}

/// The runs of one window: a card of `cells[d]` or a wild card for each value, at
/// least one natural card, with the wild cards any of `wild`. Each step is charged, so
/// a long window of many copies stops at the budget.
fn pick_cells(
    cx: &mut Cx<'_>,
    cells: &[CardSet],
    picked: CardSet,
    wild: CardSet,
    k: usize,
    out: &mut Vec<CardSet>,
) -> Result<(), RuntimeError> {
    cx.charge(1)?;
    // The values so far that no natural card took: each needs a wild card.
    let m = k - cells.len() - picked.len();
    if m > wild.len() {
        return Ok(());
    }
    let Some((cell, rest)) = cells.split_first() else {
        if picked.is_empty() {
            return Ok(());
        }
        if m == 0 {
            out.push(picked);
        } else {
            cx.charge(binomial(wild.len(), m))?;
            out.extend(Subsets::new(wild, m).map(|y| picked.union(y)));
        }
        return Ok(());
    };
    for c in cell.iter() {
        let mut next = picked;
        next.insert(c);
        pick_cells(cx, rest, next, wild, k, out)?;
    }
    // This value left to a wild card.
    pick_cells(cx, rest, picked, wild, k, out)
}

/// The windows a run of `k` values of attribute `a` may stand in, with their natural
/// cards among `natural`: each as the deck's cards of one value of `by` (every card
/// without `by`) and the window's first value. A window must hold a natural card, and
/// each of its values must be held by some card of the deck of that value of `by`.
pub(super) fn run_windows(
    deck: &Deck,
    a: u16,
    by: Option<u16>,
    natural: CardSet,
    k: usize,
    out: &mut Vec<(CardSet, i64)>,
) {
    let lines: Vec<CardSet> = match by {
        Some(b) => deck
            .classes(b)
            .iter()
            .filter(|l| !l.inter(natural).is_empty())
            .copied()
            .collect(),
        None => vec![deck.all()],
    };
    let Ok(span) = i64::try_from(k) else {
        return;
    };
    for line in lines {
        let mut values: Vec<i64> = line.iter().map(|c| deck.attr(a, c)).collect();
        values.sort_unstable();
        values.dedup();
        let mine: Vec<i64> = line
            .inter(natural)
            .iter()
            .map(|c| deck.attr(a, c))
            .collect();
        for (i, &v) in values.iter().enumerate() {
            // Consecutive values v, v+1, …, v+k−1, all held by the line's cards.
            let whole = values
                .get(i + k - 1)
                .is_some_and(|&last| Some(last) == v.checked_add(span - 1));
            if whole && mine.iter().any(|&x| x >= v && x - v < span) {
                out.push((line, v));
            }
        }
    }
}

/// Whether every card of `s` has a different value of attribute `a`.
fn distinct(deck: &Deck, a: u16, s: CardSet) -> bool {
    let mut seen: Vec<i64> = Vec::with_capacity(s.len());
    for c in s.iter() {
        let v = deck.attr(a, c);
        if seen.contains(&v) {
            return false;
        }
        seen.push(v);
    }
    true
}

/// Whether `g` (of the slot's size) fits one of the slot's shapes with its wild cards
/// standing in: the definition [`candidates`] lists, asked of one set (for the
/// reference search and tests).
#[cfg(test)]
pub(super) fn fits(deck: &Deck, slot: &SlotDef, g: CardSet) -> bool {
    if g.len() != slot.size {
        return false;
    }
    if slot.shapes.is_empty() {
        return true;
    }
    let natural = g.minus(slot.wild);
    slot.shapes.iter().any(|shape| match shape {
        ShapeDef::Same(a) => {
            let mut vs = natural.iter().map(|c| deck.attr(*a, c));
            vs.next().is_some_and(|first| vs.all(|v| v == first))
        }
        ShapeDef::Run(a, by) => {
            if natural.is_empty() || !distinct(deck, *a, natural) {
                return false;
            }
            let mut windows = Vec::new();
            run_windows(deck, *a, *by, natural, slot.size, &mut windows);
            windows.iter().any(|(line, v)| {
                natural.is_subset(line)
                    && natural
                        .iter()
                        .all(|c| (0..slot.size as i64).any(|d| deck.attr(*a, c) == v + d))
            })
        }
        ShapeDef::Distinct(a) => distinct(deck, *a, g),
    })
}

/// The most natural choices [`partials`] tries per class or window, and wild choices
/// per count; past these it takes the first cards.
const MOST_CHOICES: u64 = 64;

/// Partial groups of a `same` or `run` shape with wild cards, for the distance
/// (`pattern/distance.rs`): natural cards that could grow into the shape (any of a
/// class's, or of a window's values, one card each), each with any number of the wild
/// cards up to the group's size. Appended to `out`, each once.
pub(super) fn partials(
    deck: &Deck,
    slot: &SlotDef,
    shape: &ShapeDef,
    pool: CardSet,
    out: &mut Vec<CardSet>,
) {
    let k = slot.size;
    let wild = pool.inter(slot.wild);
    let natural = pool.minus(slot.wild);
    let from = out.len();
    let mut naturals: Vec<CardSet> = Vec::new();
    match shape {
        ShapeDef::Same(a) => {
            let mut seen = CardSet::EMPTY;
            for c in natural.iter() {
                if seen.contains(c) {
                    continue;
                }
                let cs = natural.inter(deck.class_of(*a, deck.attr(*a, c)));
                seen = seen.union(cs);
                some_of(cs, k, &mut naturals);
            }
        }
        ShapeDef::Run(a, by) => {
            let mut windows = Vec::new();
            run_windows(deck, *a, *by, natural, k, &mut windows);
            for (line, start) in windows {
                // One card of each value the window's natural cards hold. A value may
                // have cards of several kinds (a 5 of two suits, in a run without
                // `by`): which one the run takes decides what the other groups can
                // have, so each choice is tried while they are few.
                let per_value: Vec<Vec<CardIx>> = (0..k as i64)
                    .map(|d| {
                        kinds(
                            deck,
                            natural.inter(line).inter(deck.class_of(*a, start + d)),
                        )
                    })
                    .collect();
                let ways = per_value
                    .iter()
                    .fold(1u64, |w, v| w.saturating_mul(v.len().max(1) as u64));
                if ways <= RUN_KIND_CHOICES {
                    let mut pick = vec![0usize; per_value.len()];
                    loop {
                        let x: CardSet = per_value
                            .iter()
                            .zip(&pick)
                            .filter_map(|(v, &i)| v.get(i).copied())
                            .collect();
                        some_of(x, k, &mut naturals);
                        // The next choice, as an odometer over the values' kinds.
                        let mut j = 0;
                        while j < pick.len() {
                            pick[j] += 1;
                            if pick[j] < per_value[j].len() {
                                break;
                            }
                            pick[j] = 0;
                            j += 1;
                        }
                        if j == pick.len() {
                            break;
                        }
                    }
                } else {
                    let x0: CardSet = per_value
                        .iter()
                        .filter_map(|v| v.first().copied())
                        .collect();
                    some_of(x0, k, &mut naturals);
                }
            }
        }
        ShapeDef::Distinct(_) => return,
    }
    for x in naturals {
        for m in 0..=(k - x.len()).min(wild.len()) {
            if binomial(wild.len(), m) <= MOST_CHOICES {
                out.extend(Subsets::new(wild, m).map(|y| x.union(y)));
                if m == 0 {
                    out.push(x);
                }
            } else {
                out.push(x.union(wild.iter().take(m).collect()));
            }
        }
    }
    out[from..].sort_unstable();
    let mut kept = from;
    for j in from..out.len() {
        if kept == from || out[j] != out[kept - 1] {
            out[kept] = out[j];
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// Nonempty subsets of `cs` of at most `k` cards into `out`: all of them when they are
/// few, else the first `k` cards alone.
/// Most ways a wild run's window may pick one card of each value among kinds of cards
/// (see [`partials`]); past it, the first card of each value is taken.
const RUN_KIND_CHOICES: u64 = 8;

/// One card of each kind among `cs`: cards alike in every attribute serve a group alike.
fn kinds(deck: &Deck, cs: CardSet) -> Vec<CardIx> {
    let mut out: Vec<CardIx> = Vec::new();
    for c in cs.iter() {
        let alike =
            |o: &CardIx| (0..deck.attrs.len() as u16).all(|a| deck.attr(a, *o) == deck.attr(a, c));
        if !out.iter().any(alike) {
            out.push(c);
        }
    }
    out
}

fn some_of(cs: CardSet, k: usize, out: &mut Vec<CardSet>) {
    let most = k.min(cs.len());
    let ways = (1..=most).fold(0u64, |w, j| w.saturating_add(binomial(cs.len(), j)));
    if ways <= MOST_CHOICES {
        for j in 1..=most {
            out.extend(Subsets::new(cs, j));
        }
    } else {
        out.push(cs.iter().take(most).collect());
    }
}
