//! The class-count prefilter: whether a hand may have a split of a pattern at all, by
//! how many of its cards fall in each class of the attribute every group is `same` on —
//! asked before any search, and tabled by [`super::FitTable`].

use super::{assign, size, FEW_SLOTS, MAX_SLOTS};
use crate::ir::{PatternDef, Prefilter};
use crate::model::CardSet;

/// Whether `cards` may have a split of `pat`: the pattern's size, and class counts that
/// pass its prefilter (if any) in a way its class-settled requires allow. False means
/// certainly no split. Read off the pattern's [`FitTable`] when it has one.
pub(crate) fn may_fit(pat: &PatternDef, cards: CardSet) -> bool {
    if pat.is_union() {
        // Its alternatives answer when searched.
        return true;
    }
    match &pat.prefilter {
        Some(pf) => match &pf.table {
            Some(t) => t.may_fit(cards),
            None => size(cards) == pat.size && may_fit_by_classes(pat, pf, cards),
        },
        None => size(cards) == pat.size,
    }
}

/// Whether cards of the pattern's size have class counts that pass its prefilter in a
/// way its class-settled requires allow: a question of the counts alone.
pub(super) fn may_fit_by_classes(pat: &PatternDef, pf: &Prefilter, cards: CardSet) -> bool {
    // Only a class holding several groups can break a require the classes settle in
    // more than the search's one step.
    prefilter_classes(pf, cards)
        .is_some_and(|touched| touched == pat.slots.len() || assign::classes_allow(pat, pf, cards))
}

/// Whether the class counts of `cards` can be split into the group sizes (each class
/// filled by whole groups). Counts are small, so a tiny search suffices.
pub fn prefilter_passes(pf: &Prefilter, cards: CardSet) -> bool {
    prefilter_classes(pf, cards).is_some()
}

/// [`prefilter_passes`], with how many classes the cards touch when they pass.
fn prefilter_classes(pf: &Prefilter, cards: CardSet) -> Option<usize> {
    if cards.0[1..] == [0; 3] && pf.sizes.len() <= FEW_SLOTS {
        return low_prefilter_classes(pf, cards.0[0]);
    }
    counted_prefilter_classes(pf, cards)
}

/// [`prefilter_classes`] for any cards and pattern, by their class counts (kept out of
/// line: the usual hand takes the path above, which must stay small).
#[inline(never)]
fn counted_prefilter_classes(pf: &Prefilter, cards: CardSet) -> Option<usize> {
    let mut c = ClassCounts::EMPTY;
    (c.count(pf, cards) && c.fit(&pf.sizes)).then_some(c.len)
}

/// [`prefilter_classes`] for cards all in the deck's first 64 (every card of a small
/// deck) and a pattern of few groups: one word per class, and counts on the stack (it
/// runs for most hands a guard offers a table, nearly all of which fail).
fn low_prefilter_classes(pf: &Prefilter, cards: u64) -> Option<usize> {
    // The cards of each class touched; counted only once they are few enough, as most
    // hands touch more classes than there are groups.
    let mut held = [0u64; FEW_SLOTS];
    let mut touched = 0;
    let mut left = cards;
    for class in &pf.classes {
        let x = left & class.0[0];
        if x == 0 {
            continue;
        }
        // More classes than groups: no split.
        if touched == pf.sizes.len() {
            return None;
        }
        held[touched] = x;
        touched += 1;
        // Every card counted: the later classes (of other values) hold none.
        left &= !x;
        if left == 0 {
            break;
        }
    }
    let mut counts = [0u8; FEW_SLOTS];
    for (n, x) in counts.iter_mut().zip(&held[..touched]) {
        *n = x.count_ones() as u8;
    }
    fits(&counts[..touched], &pf.sizes).then_some(touched)
}

/// The classes a set of cards touches, with how many cards it has in each, in class
/// order. Each group lies within one class, so a set that can still be cut into the
/// groups touches at most one class per group.
#[derive(Clone, Copy)]
pub(super) struct ClassCounts {
    /// The classes touched, in class order.
    pub(super) class: [u16; MAX_SLOTS],
    /// How many cards in each.
    pub(super) count: [u8; MAX_SLOTS],
    /// How many classes.
    pub(super) len: usize,
}

impl ClassCounts {
    pub(super) const EMPTY: ClassCounts = ClassCounts {
        class: [0; MAX_SLOTS],
        count: [0; MAX_SLOTS],
        len: 0,
    };

    /// Counts `cards` into these (empty) counts; false when it touches more classes than
    /// the pattern has groups, or has more cards in one class than a pattern takes (it
    /// cannot fit).
    #[inline]
    pub(super) fn count(&mut self, pf: &Prefilter, cards: CardSet) -> bool {
        let c = self;
        let most = pf.sizes.len().min(MAX_SLOTS);
        // Cards in the first 64 of the deck (every card of a small deck): one word each.
        let low = cards.0[1..] == [0; 3];
        let mut left = size(cards);
        for (ci, class) in pf.classes.iter().enumerate() {
            let k = if low {
                (cards.0[0] & class.0[0]).count_ones() as usize
            } else {
                size(cards.inter(*class))
            };
            if k > 0 {
                if c.len == most || k > u8::MAX as usize {
                    return false;
                }
                c.class[c.len] = ci as u16;
                c.count[c.len] = k as u8;
                c.len += 1;
                // Every card counted: the later classes (of other values) hold none.
                left = left.saturating_sub(k);
                if left == 0 {
                    break;
                }
            }
        }
        true
    }

    /// Whether `sizes` (largest first) can be dealt into the counts exactly.
    pub(super) fn fit(&self, sizes: &[usize]) -> bool {
        fits(&self.count[..self.len], sizes)
    }
}

/// Whether `sizes` (largest first) can be dealt into `counts` (one per class, some
/// perhaps 0) exactly.
fn fits(counts: &[u8], sizes: &[usize]) -> bool {
    // No group left (the search's last slot), or one (the one before): no search.
    match sizes {
        [] => return counts.iter().all(|c| *c == 0),
        [s] => {
            let mut held = counts.iter().filter(|c| **c > 0);
            return held.next().is_some_and(|c| *c as usize == *s) && held.next().is_none();
        }
        _ => {}
    }
    let mut buf = [0u8; MAX_SLOTS];
    let mut touched = 0;
    for &c in counts {
        if c > 0 {
            buf[touched] = c;
            touched += 1;
        }
    }
    if touched > sizes.len() {
        return false;
    }
    let counts = &mut buf[..touched];
    if touched == sizes.len() {
        // One group per class: the counts, largest first, are the sizes (a few
        // numbers, sorted by insertion).
        for i in 1..touched {
            let x = counts[i];
            let mut j = i;
            while j > 0 && counts[j - 1] < x {
                counts[j] = counts[j - 1];
                j -= 1;
            }
            counts[j] = x;
        }
        return counts.iter().zip(sizes).all(|(c, s)| *c as usize == *s);
    }
    place(sizes, counts)
}

/// Whether the sizes (largest first) can be dealt into the counts exactly.
fn place(sizes: &[usize], counts: &mut [u8]) -> bool {
    let Some((&s, rest)) = sizes.split_first() else {
        return counts.iter().all(|c| *c == 0);
    };
    for i in 0..counts.len() {
        if counts[i] as usize >= s {
            counts[i] -= s as u8;
            let ok = place(rest, counts);
            counts[i] += s as u8;
            if ok {
                return true;
            }
        }
    }
    false
}
