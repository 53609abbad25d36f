//! Class assignments: when every group of a pattern is `same` on one attribute, each
//! group of a split lies in one class, and the `require`s that only compare the groups'
//! classes (`require 三.kind != 五.kind`) hold or fail with the classes alone. So a hand
//! none of whose ways of filling the classes with whole groups satisfies those requires
//! has no split at all, and is answered without enumerating a single group (eight kasu
//! for a pattern of 3 + 5 of different kinds: 56 subsets tried, and every split refused).

use crate::ir::{PatternDef, Prefilter};
use crate::model::CardSet;
use crate::score::Answer;

/// Patterns of more groups are not checked here (the ways to assign them grow fast;
/// the search settles them).
const ASSIGN_SLOTS: usize = 6;

/// Whether some assignment of the pattern's groups to the classes `cards` holds, each
/// class filled exactly by whole groups, passes the requires its classes settle.
/// False means certainly no split. True for a pattern without such requires, of more
/// than [`ASSIGN_SLOTS`] groups, or when a require needs more than the classes. Callers
/// ask only about hands with fewer classes than groups: with a class per group, the
/// search takes each group whole in one step and checks the requires once, so there is
/// nothing to save (a winning 3 + 5 hand).
pub(super) fn classes_allow(pat: &PatternDef, pf: &Prefilter, cards: CardSet) -> bool {
    let Some(plan) = &pf.requires else {
        return true;
    };
    let Some(stage) = plan.stage(0) else {
        return true;
    };
    let n = pat.slots.len();
    if n > ASSIGN_SLOTS || pat.requires.is_empty() {
        return true;
    }
    // The classes the hand touches: at most one per group, or the counts would not
    // have fitted (callers check those first).
    let mut held = [(CardSet::EMPTY, 0usize); ASSIGN_SLOTS];
    let mut touched = 0;
    for class in &pf.classes {
        let x = cards.inter(*class);
        if x.is_empty() {
            continue;
        }
        if touched == n {
            return false;
        }
        held[touched] = (x, x.len());
        touched += 1;
    }
    let mut a = Assign {
        pat,
        plan,
        stage,
        held: &mut held[..touched],
        groups: [CardSet::EMPTY; ASSIGN_SLOTS],
    };
    a.fill(0)
}

/// One search over assignments: slot `i` takes a class with room for its size.
struct Assign<'a> {
    pat: &'a PatternDef,
    plan: &'a crate::score::Plan,
    stage: &'a crate::score::Stage,
    /// Each touched class's cards in the hand, and how many of them are not yet taken.
    held: &'a mut [(CardSet, usize)],
    /// For each slot so far, the hand's cards of the class it took (the plan reads a
    /// group's class off its first card).
    groups: [CardSet; ASSIGN_SLOTS],
}

impl Assign<'_> {
    fn fill(&mut self, i: usize) -> bool {
        let n = self.pat.slots.len();
        if i == n {
            // The sizes add up to the hand, so every class is now exactly filled.
            let classes = self.plan.classes(&self.groups[..n]);
            let Some(key) = self.stage.key(&classes, &[]) else {
                return true;
            };
            if let Some(m) = self.stage.rows(key) {
                return m.count_ones() as usize == self.pat.requires.len();
            }
            // Some require needs more than the classes (the search decides it); one
            // the classes settle as false is enough to refuse.
            return !(0..self.pat.requires.len())
                .any(|j| matches!(self.stage.answer(j, key), Some(Answer::Is(false))));
        }
        let size = self.pat.slots[i].size;
        for t in 0..self.held.len() {
            let (cards, left) = self.held[t];
            if left < size {
                continue;
            }
            self.held[t].1 -= size;
            self.groups[i] = cards;
            let ok = self.fill(i + 1);
            self.held[t].1 += size;
            if ok {
                return true;
            }
        }
        false
    }
}
