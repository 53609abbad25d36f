//! The splits of a `pattern NAME = A | B | …`: each alternative searched in turn, its
//! groups laid out where the union puts them, with the shape that held after them.

use super::{for_each_prepared_as, prepare, OnMatch, MAX_SLOTS};
use crate::engine::{Cx, RuntimeError};
use crate::ir::PatternDef;
use crate::model::{CardIx, CardSet};

/// The splits of a `pattern NAME = A | B | …`: each alternative's in turn, its groups
/// laid out where the union puts them (a group of another alternative is empty), and
/// one set more, after the union's groups: the shape that held, as the set holding
/// only card index `k` for the `k`th alternative (read by [`shape_of`]).
pub(super) fn each_alternative(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    cards: CardSet,
    f: &mut OnMatch<'_>,
    lowest_copies: bool,
) -> Result<bool, RuntimeError> {
    let p = cx.p;
    let n = pat.slots.len();
    // The compiler refuses more (`compile/alternatives.rs`).
    if n > MAX_SLOTS {
        return Ok(false);
    }
    let mut laid = [CardSet::EMPTY; MAX_SLOTS + 1];
    for (k, alt) in pat.alternatives.iter().enumerate() {
        // Each alternative is a step, even one its size rules out at once: a union of
        // thousands asked in a loop stays within the budget.
        cx.charge(1)?;
        let Some(q) = p.patterns.get(alt.pattern as usize) else {
            continue;
        };
        let Some(pre) = prepare(q, cards) else {
            continue;
        };
        let mut each = |cx2: &mut Cx<'_>, gs: &[CardSet]| {
            let laid = &mut laid[..=n];
            laid.fill(CardSet::EMPTY);
            for (g, to) in gs.iter().zip(&alt.slots) {
                laid[*to as usize] = *g;
            }
            laid[n] = CardSet::single(k as CardIx);
            f(cx2, laid)
        };
        if for_each_prepared_as(cx, q, &pre, &mut each, lowest_copies)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Which alternative of union `pat` a split found by [`super::for_each_match`] is of: its
/// index in `pat.alternatives`, read off the set after the groups.
pub fn shape_of(pat: &PatternDef, groups: &[CardSet]) -> Option<usize> {
    groups
        .get(pat.slots.len())
        .and_then(|s| s.first())
        .map(|k| k as usize)
        .filter(|_| pat.is_union())
}
