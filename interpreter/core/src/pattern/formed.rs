//! Groups already formed: melds called and laid out (副露, ポン, チー) count as groups of
//! the pattern. `一般形(手牌, 副露)` splits the hand and the formed sets together, and
//! keeps only the splits in which every formed set is one whole group: so a hand with
//! 0–4 called melds matches pair + four melds with one pattern, and a formed set is
//! never broken up or mixed with the hand's cards.

use super::{for_each_match, for_each_prepared_as, prepare, OnMatch};
use crate::engine::{Cx, RuntimeError};
use crate::ir::PatternDef;
use crate::model::CardSet;

/// The hand and the formed sets together, when the sets are disjoint from each other
/// and from the hand; `None` otherwise (a card cannot be in two places: no split).
pub fn together(hand: CardSet, formed: &[CardSet]) -> Option<CardSet> {
    let mut all = hand;
    for f in formed {
        if f.is_empty() || !all.inter(*f).is_empty() {
            return None;
        }
        all = all.union(*f);
    }
    Some(all)
}

/// Calls `f` with each split of `hand` and the `formed` sets together in which each
/// formed set is a whole group (see [`for_each_match`]). Returns whether `f` stopped it.
pub fn for_each_match_formed(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    hand: CardSet,
    formed: &[CardSet],
    f: &mut OnMatch<'_>,
) -> Result<bool, RuntimeError> {
    if formed.is_empty() {
        return for_each_match(cx, pat, hand, f);
    }
    let Some(all) = together(hand, formed) else {
        return Ok(false);
    };
    // A union's splits carry its shape after the groups: only the groups are compared.
    let n = pat.slots.len();
    let mut each = |cx2: &mut Cx<'_>, gs: &[CardSet]| {
        let groups = &gs[..n.min(gs.len())];
        if formed.iter().all(|s| groups.contains(s)) {
            f(cx2, gs)
        } else {
            Ok(true)
        }
    };
    for_each_match(cx, pat, all, &mut each)
}

/// Whether `hand` with the `formed` sets has a split in which each formed set is a
/// whole group. Every copy is placed as the search finds it: the formed sets tell
/// copies apart, so the lowest-copies search of [`super::any_match`] does not apply.
pub fn any_match_formed(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    hand: CardSet,
    formed: &[CardSet],
) -> Result<bool, RuntimeError> {
    if formed.is_empty() {
        return super::any_match(cx, pat, hand);
    }
    if let Some(found) = super::by_counts_or_alternatives(cx, pat, hand, formed)? {
        return Ok(found);
    }
    let Some(all) = together(hand, formed) else {
        return Ok(false);
    };
    let Some(pre) = prepare(pat, all) else {
        return Ok(false);
    };
    let n = pat.slots.len();
    let mut found = false;
    let mut each = |_: &mut Cx<'_>, gs: &[CardSet]| {
        let groups = &gs[..n.min(gs.len())];
        found = formed.iter().all(|s| groups.contains(s));
        Ok(!found)
    };
    for_each_prepared_as(cx, pat, &pre, &mut each, false)?;
    Ok(found)
}
