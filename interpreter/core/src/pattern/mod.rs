//! Pattern matching: every way to split a set of cards exactly into a pattern's groups.
//!
//! The search fills groups in order, generating only candidates that fit a group's
//! shape (a `same` group draws from one attribute class, read off precomputed class
//! bitsets; a `run` steps through consecutive values), so a typical hand is settled in a
//! handful of steps. Copies of a `*N` group are kept in increasing order of their lowest
//! card, so each split is found once. When every group is `same` on one attribute (the
//! pattern has a [`Prefilter`]), whether the cards left over can still be cut into the
//! groups left depends only on how many cards of each class remain, so a class is
//! tried for a group only when taking the group's size from it leaves counts that fit:
//! a class whose count equals the group's size is settled in one step, without
//! enumerating subsets that could never be completed. Candidates are enumerated in
//! place (no list per search node), in the same order as a plain search would list
//! them, so the first split found — and with it the split a score table keeps on a tie —
//! does not depend on the pruning. When the counts leave a single way to deal whole
//! classes to the groups (each class one group, no two groups of a size), that split is
//! placed directly, with the steps charged as the search would charge them. A group
//! with wild cards lists its candidates in `wild.rs`, and its pattern has no prefilter.

mod alternatives;
mod assign;
mod by_counts;
#[cfg(test)]
mod counts_tests;
mod distance;
mod fit_table;
mod formed;
mod prefilter;
#[cfg(test)]
mod reference;
mod subsets;
#[cfg(test)]
mod tests;
mod wild;

pub(crate) use prefilter::may_fit;
pub use prefilter::prefilter_passes;
use prefilter::{may_fit_by_classes, ClassCounts};

use alternatives::each_alternative;
pub use alternatives::shape_of;
pub(crate) use by_counts::plan as counts_plan;
pub use by_counts::CountsPlan;
pub use distance::{distance, distance_in, Distance, DistanceScratch};
pub use fit_table::FitTable;
pub use formed::{any_match_formed, for_each_match_formed, together};

use crate::engine::{Cx, RuntimeError};
use crate::ir::{PatternDef, Prefilter, ShapeDef, SlotDef};
use crate::model::{CardIx, CardSet};
use crate::value::Value;
#[cfg(test)]
use subsets::combos_listed;
use subsets::Subsets;
pub(crate) use subsets::{binomial, combos};

/// What a search calls with each split: returns whether to go on.
pub type OnMatch<'f> = dyn FnMut(&mut Cx<'_>, &[CardSet]) -> Result<bool, RuntimeError> + 'f;

/// The largest number of slots a pattern may have.
pub(crate) const MAX_SLOTS: usize = 32;

/// Local slots kept on the stack; larger frames are allocated.
const STACK_LOCALS: usize = 64;

/// A frame small enough to set up and drop in a few instructions.
const SMALL_FRAME: usize = 6;

/// A table's usual frame (parameters, `yaku`, `factor`, a few temporaries).
const MID_FRAME: usize = 24;

/// Groups most patterns have at most.
pub(crate) const FEW_SLOTS: usize = 8;

/// Calls `f` with each complete split (groups in slot order) until it returns false.
/// Returns whether the search was stopped by `f`.
pub fn for_each_match(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    cards: CardSet,
    f: &mut OnMatch<'_>,
) -> Result<bool, RuntimeError> {
    match prepare(pat, cards) {
        Some(pre) => for_each_prepared(cx, pat, &pre, f),
        None => Ok(false),
    }
}

/// Whether `cards` split into the pattern at all. Copies the pattern cannot tell apart
/// (`PatternDef::told_apart`) are interchangeable in any split, so the search places
/// only the lowest copies left of each such face: a split with other copies of the same
/// faces is the same split with copies traded, which passes or fails alike (the proof
/// is in `compile/copies.rs`). A hand holding copies then has one candidate where it
/// had one per choice of copies. Only "is there a split" may be asked this way: a
/// score table, which sees the splits' cards, gets them all from [`for_each_match`].
pub fn any_match(cx: &mut Cx<'_>, pat: &PatternDef, cards: CardSet) -> Result<bool, RuntimeError> {
    if let Some(found) = by_counts_or_alternatives(cx, pat, cards, &[])? {
        return Ok(found);
    }
    let Some(pre) = prepare(pat, cards) else {
        return Ok(false);
    };
    let mut found = false;
    // A deck without copies has nothing to trade: no group is asked about them.
    let lowest_copies = cx.p.deck.has_copies();
    for_each_prepared_as(
        cx,
        pat,
        &pre,
        &mut |_, _| {
            found = true;
            Ok(false)
        },
        lowest_copies,
    )?;
    Ok(found)
}

/// Whether `cards` (with the `formed` sets as whole groups) split into the pattern,
/// when its counts decide (`by_counts::matches`), or, for alternatives of which some
/// are so decided, as the first alternative that matches; `None` when the search must
/// decide.
fn by_counts_or_alternatives(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    cards: CardSet,
    formed: &[CardSet],
) -> Result<Option<bool>, RuntimeError> {
    let p = cx.p;
    if pat.is_union() {
        let alternative = |i: u16| p.patterns.get(i as usize);
        if !pat
            .alternatives
            .iter()
            .any(|a| alternative(a.pattern).is_some_and(|q| q.counts.is_some()))
        {
            return Ok(None);
        }
        // A split of the union is a split of one of its alternatives.
        for a in &pat.alternatives {
            if let Some(q) = alternative(a.pattern) {
                if formed::any_match_formed(cx, q, cards, formed)? {
                    return Ok(Some(true));
                }
            }
        }
        return Ok(Some(false));
    }
    let Some(plan) = &pat.counts else {
        return Ok(None);
    };
    let all = match formed::together(cards, formed) {
        Some(all) => all,
        None => return Ok(Some(false)),
    };
    if size(all) != pat.size {
        return Ok(Some(false));
    }
    let mut steps = 0;
    let found = by_counts::matches(&p.deck, plan, cards, formed, &mut steps);
    cx.charge(steps)?;
    Ok(found)
}

/// A set of cards that passed a pattern's cheap checks (its size, its prefilter), with
/// what they found, ready to search.
#[derive(Clone, Copy)]
pub(crate) struct Prepared {
    cards: CardSet,
    counts: ClassCounts,
}

impl Prepared {
    /// Nothing checked yet.
    pub(crate) const EMPTY: Prepared = Prepared {
        cards: CardSet::EMPTY,
        counts: ClassCounts::EMPTY,
    };

    /// The cards.
    pub(crate) fn cards(&self) -> CardSet {
        self.cards
    }

    /// Makes the checks [`for_each_match`] makes before searching on `cards`, in place
    /// of an [`Prepared::EMPTY`] (a caller keeps it where it is, instead of copying a
    /// hundred bytes of counts out of a function): false when `cards` certainly has no
    /// split (a table can stop before setting anything up).
    pub(crate) fn check(&mut self, pat: &PatternDef, cards: CardSet) -> bool {
        if pat.is_union() {
            // Each alternative checks the cards itself (see `each_alternative`).
            self.cards = cards;
            self.counts.len = 0;
            return true;
        }
        if size(cards) != pat.size || pat.slots.is_empty() || pat.slots.len() > MAX_SLOTS {
            return false;
        }
        self.cards = cards;
        self.counts.len = 0;
        if let Some(pf) = &pat.prefilter {
            if !self.counts.count(pf, cards) || !self.counts.fit(&pf.sizes) {
                return false;
            }
            // Only a class holding several groups makes the search enumerate subsets.
            if self.counts.len < pat.slots.len() && !assign::classes_allow(pat, pf, cards) {
                return false;
            }
        }
        true
    }
}

/// [`Prepared::check`] of `cards`, as a value: `None` when `cards` certainly has no
/// split.
pub(crate) fn prepare(pat: &PatternDef, cards: CardSet) -> Option<Prepared> {
    let mut pre = Prepared::EMPTY;
    pre.check(pat, cards).then_some(pre)
}

/// [`for_each_match`] for cards already [`prepare`]d.
pub(crate) fn for_each_prepared(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    pre: &Prepared,
    f: &mut OnMatch<'_>,
) -> Result<bool, RuntimeError> {
    for_each_prepared_as(cx, pat, pre, f, false)
}

/// [`for_each_prepared`], placing only the lowest copies left when `lowest_copies`
/// (see [`any_match`]).
fn for_each_prepared_as(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    pre: &Prepared,
    f: &mut OnMatch<'_>,
    lowest_copies: bool,
) -> Result<bool, RuntimeError> {
    if pat.is_union() {
        return each_alternative(cx, pat, pre.cards, f, lowest_copies);
    }
    let n = pat.slots.len();
    // Most patterns have a few groups: only a small array is cleared for them.
    if n <= FEW_SLOTS {
        let mut groups = [CardSet::EMPTY; FEW_SLOTS];
        if only_split(pat, pre, &mut groups[..n]) {
            return one_split(cx, pat, f, &groups[..n]);
        }
        let groups = &mut [CardSet::EMPTY; FEW_SLOTS][..n];
        search_as(cx, pat, pre, f, groups, lowest_copies)
    } else {
        let groups = &mut [CardSet::EMPTY; MAX_SLOTS][..n];
        search_as(cx, pat, pre, f, groups, lowest_copies)
    }
}

/// The one split of `cards` when [`only_split`] finds it (the split the search visits
/// alone, its conditions and requires not yet asked): for tables worked out by count
/// vector (`score/by_counts.rs`).
pub(crate) fn one_way(pat: &PatternDef, cards: CardSet) -> Option<Vec<CardSet>> {
    let pre = prepare(pat, cards)?;
    let n = pat.slots.len();
    let mut groups = [CardSet::EMPTY; FEW_SLOTS];
    (n <= FEW_SLOTS && only_split(pat, &pre, groups.get_mut(..n)?)).then(|| groups[..n].to_vec())
}

/// Fills `groups` with the only split `pre`'s classes allow, when there is exactly one
/// way to deal whole classes to the groups: every class the cards touch is one group
/// (as many classes as groups), and no two groups have the same size. That is a
/// winning hand of most `same`-group patterns (3 + 5 cards of two kinds, say), whose
/// search would try each class for each group only to take the one of the right size.
/// False when the search must run (the groups' conditions and requires not yet asked).
fn only_split(pat: &PatternDef, pre: &Prepared, groups: &mut [CardSet]) -> bool {
    let Some(pf) = &pat.prefilter else {
        return false;
    };
    let c = &pre.counts;
    if c.len != groups.len() {
        return false;
    }
    let mut placed = CardSet::EMPTY;
    for (slot, g) in pat.slots.iter().zip(groups.iter_mut()) {
        // The one class of this group's size: two would be two splits (or copies).
        let mut of_size = c.count[..c.len]
            .iter()
            .zip(&c.class[..c.len])
            .filter(|(k, _)| **k as usize == slot.size);
        let (Some((_, ci)), None) = (of_size.next(), of_size.next()) else {
            return false;
        };
        *g = pre.cards.inter(pf.classes[*ci as usize]);
        placed = placed.union(*g);
    }
    // Cards in no class leave the split incomplete (the search finds no split).
    placed == pre.cards
}

/// The search's visit of the one split `groups` (see [`only_split`]): the same steps
/// charged, the same conditions and requires asked in the same order, and `f` called
/// if they hold; without enumerating the classes that cannot take a group.
fn one_split(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    f: &mut OnMatch<'_>,
    groups: &[CardSet],
) -> Result<bool, RuntimeError> {
    let n = groups.len();
    let mut stopped = false;
    // Whether every group's condition holds and the requires too, stopping at the first
    // that fails as the search would.
    let fits = |cx: &mut Cx<'_>, locals: &mut [Value]| -> Result<bool, RuntimeError> {
        for (i, slot) in pat.slots.iter().enumerate() {
            // The group's one subset of its class, then the group placed.
            cx.charge(1)?;
            cx.charge(1)?;
            if let Some(cond) = &slot.condition {
                if !group_holds(cx, locals, &groups[..=i], cond)? {
                    // The slots before it finish their class loops.
                    cx.charge(i as u64 + 1)?;
                    return Ok(false);
                }
            }
        }
        Ok(true)
    };
    // The requires: answered by `settled` when that is given, evaluated otherwise.
    let held = |cx: &mut Cx<'_>, locals: &mut [Value], settled: Option<bool>| {
        if !fits(cx, locals)? {
            return Ok(false);
        }
        let hold = match settled {
            Some(b) => b,
            None => requires_hold(cx, pat, locals, groups)?,
        };
        if !hold {
            // Every slot's class loop ends with a step.
            cx.charge(n as u64)?;
        }
        Ok::<bool, RuntimeError>(hold)
    };
    // A frame only for conditions and requires that evaluate something: the plan and
    // the card sets answer most requires without one.
    let conditions = pat.slots.iter().any(|s| s.condition.is_some());
    let settled = match conditions {
        false => requires_settled(pat, groups),
        true => None,
    };
    let held = match settled {
        Some(_) => held(cx, &mut [], settled)?,
        None => with_frame(pat.frame as usize, |locals| held(cx, locals, None))?,
    };
    if !held {
        return Ok(false);
    }
    if !f(cx, groups)? {
        stopped = true;
    }
    // Each slot's class loop ends with a step.
    cx.charge(n as u64)?;
    Ok(stopped)
}

/// Whether a group's condition holds, with the groups placed so far in view.
fn group_holds(
    cx: &mut Cx<'_>,
    locals: &mut [Value],
    groups: &[CardSet],
    cond: &crate::ir::Expr,
) -> Result<bool, RuntimeError> {
    let mut inner = Cx {
        p: cx.p,
        b: cx.b,
        locals,
        groups,
        budget: cx.budget,
        at: cx.at,
    };
    let r = inner.eval_bool(cond);
    cx.budget = inner.budget;
    r
}

/// [`for_each_prepared_as`] with room for the groups.
fn search_as(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    pre: &Prepared,
    f: &mut OnMatch<'_>,
    groups: &mut [CardSet],
    lowest_copies: bool,
) -> Result<bool, RuntimeError> {
    let Prepared { cards, counts } = *pre;
    with_frame(pat.frame as usize, |locals| {
        let mut search = Search {
            pat,
            f,
            stopped: false,
            locals,
            scratch: Vec::new(),
            counts,
            lowest_copies,
        };
        search.fill(cx, 0, cards, groups)?;
        Ok(search.stopped)
    })
}

/// Runs `f` with `frame` local slots, all unset: on the stack when there are few (a
/// search or a table's evaluation allocates nothing for them).
pub(crate) fn with_frame<R>(frame: usize, f: impl FnOnce(&mut [Value]) -> R) -> R {
    if frame == 0 {
        f(&mut [])
    } else if frame <= SMALL_FRAME {
        let mut stack: [Value; SMALL_FRAME] = std::array::from_fn(|_| Value::Unit);
        f(&mut stack[..frame])
    } else if frame <= MID_FRAME {
        let mut stack: [Value; MID_FRAME] = std::array::from_fn(|_| Value::Unit);
        f(&mut stack[..frame])
    } else if frame <= STACK_LOCALS {
        let mut stack: [Value; STACK_LOCALS] = std::array::from_fn(|_| Value::Unit);
        f(&mut stack[..frame])
    } else {
        f(&mut vec![Value::Unit; frame])
    }
}

struct Search<'p, 'f, 'l> {
    pat: &'p PatternDef,
    f: &'f mut OnMatch<'f>,
    stopped: bool,
    /// Local slots for `where` and `require` (one frame per search).
    locals: &'l mut [Value],
    /// Candidate lists for the shapes that are collected rather than enumerated in
    /// place (runs, several shapes), one per slot, reused across search nodes.
    scratch: Vec<Vec<CardSet>>,
    /// With a prefilter: the class counts of the cards not yet placed.
    counts: ClassCounts,
    /// Whether a group may take a copy only when the lower copies left of its face are
    /// in the group too (for faces the pattern cannot tell apart; see [`any_match`]).
    lowest_copies: bool,
}

impl Search<'_, '_, '_> {
    fn fill(
        &mut self,
        cx: &mut Cx<'_>,
        i: usize,
        rest: CardSet,
        groups: &mut [CardSet],
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
        let pat = self.pat;
        // A branch whose cards left cannot split into the groups left is left at once,
        // where the counts can tell: the splits found, and their order, are the same.
        if let (true, Some(plan)) = (i > 0, &pat.counts) {
            let mut steps = 0;
            let can = by_counts::splits_into(&cx.p.deck, plan, rest, i, &mut steps);
            cx.charge(steps)?;
            if can == Some(false) {
                return Ok(());
            }
        }
        let slot = &pat.slots[i];
        // Copies of one group are ordered by their lowest card.
        let pool = match slot.copy_of {
            Some(_) => above(rest, groups[i - 1].first().unwrap_or(0)),
            None => rest,
        };
        if let Some(pf) = &pat.prefilter {
            self.fill_by_class(cx, pf, i, rest, pool, groups)?;
        } else if size(pool) >= slot.size {
            self.fill_by_shape(cx, slot, i, rest, pool, groups)?;
        }
        groups[i] = CardSet::EMPTY;
        Ok(())
    }

    /// Every group is `same` on the prefilter's attribute and `rest`'s class counts
    /// fit the sizes from slot `i` on: try only the classes that leave counts the
    /// later groups can still fit.
    fn fill_by_class(
        &mut self,
        cx: &mut Cx<'_>,
        pf: &Prefilter,
        i: usize,
        rest: CardSet,
        pool: CardSet,
        groups: &mut [CardSet],
    ) -> Result<(), RuntimeError> {
        let k = self.pat.slots[i].size;
        let later: &[usize] = pf.suffix.get(i + 1).map(|s| s.as_slice()).unwrap_or(&[]);
        // `self.counts` holds the classes `rest` touches; each is tried with this group
        // taken from it, and put back after.
        for t in 0..self.counts.len {
            if self.stopped {
                break;
            }
            let (ci, c) = (self.counts.class[t] as usize, self.counts.count[t] as usize);
            let within = pool.inter(pf.classes[ci]);
            // Below a copy's floor the pool is smaller than the rest.
            let w = if pool == rest { c } else { size(within) };
            if w < k {
                continue;
            }
            self.counts.count[t] -= k as u8;
            let r = if self.counts.fit(later) {
                self.take_from_class(cx, i, within, w, rest, groups)
            } else {
                Ok(())
            };
            self.counts.count[t] += k as u8;
            r?;
        }
        cx.charge(1)
    }

    /// Tries each group of slot `i`'s size drawn from `within` (`w` cards of one class).
    fn take_from_class(
        &mut self,
        cx: &mut Cx<'_>,
        i: usize,
        within: CardSet,
        w: usize,
        rest: CardSet,
        groups: &mut [CardSet],
    ) -> Result<(), RuntimeError> {
        let k = self.pat.slots[i].size;
        // Charged before the subsets are made, so a huge group stops at the budget.
        cx.charge(binomial(w, k))?;
        if w == k {
            // The class is exactly this group (the usual case).
            return self.try_group(cx, i, within, rest, groups);
        }
        for g in Subsets::new(within, k) {
            if self.stopped {
                break;
            }
            self.try_group(cx, i, g, rest, groups)?;
        }
        Ok(())
    }

    /// The general case: candidates per shape, in the order the shapes list them.
    fn fill_by_shape(
        &mut self,
        cx: &mut Cx<'_>,
        slot: &SlotDef,
        i: usize,
        rest: CardSet,
        pool: CardSet,
        groups: &mut [CardSet],
    ) -> Result<(), RuntimeError> {
        let k = slot.size;
        let deck = &cx.p.deck;
        if !slot.wild.is_empty() {
            return self.fill_listed(cx, slot, i, rest, pool, groups);
        }
        match slot.shapes.as_slice() {
            // The usual shapes are enumerated in place.
            [] => {
                cx.charge(binomial(pool.len(), k))?;
                for g in Subsets::new(pool, k) {
                    if self.stopped {
                        break;
                    }
                    self.try_group(cx, i, g, rest, groups)?;
                }
            }
            [ShapeDef::Same(a)] => {
                for class in deck.classes(*a) {
                    if self.stopped {
                        break;
                    }
                    let within = pool.inter(*class);
                    if within.len() >= k {
                        cx.charge(binomial(within.len(), k))?;
                        for g in Subsets::new(within, k) {
                            if self.stopped {
                                break;
                            }
                            self.try_group(cx, i, g, rest, groups)?;
                        }
                    }
                }
            }
            [ShapeDef::Distinct(a)] => {
                cx.charge(binomial(pool.len(), k))?;
                for g in Subsets::new(pool, k) {
                    if self.stopped {
                        break;
                    }
                    if distinct(cx, *a, g) {
                        self.try_group(cx, i, g, rest, groups)?;
                    }
                }
            }
            // Runs, and several shapes (whose candidates are merged and de-duplicated),
            // are collected first.
            _ => return self.fill_listed(cx, slot, i, rest, pool, groups),
        }
        cx.charge(1)
    }

    /// Tries the candidates [`candidates`] lists for slot `i`, in its order.
    fn fill_listed(
        &mut self,
        cx: &mut Cx<'_>,
        slot: &SlotDef,
        i: usize,
        rest: CardSet,
        pool: CardSet,
        groups: &mut [CardSet],
    ) -> Result<(), RuntimeError> {
        if self.scratch.len() <= i {
            self.scratch.resize_with(i + 1, Vec::new);
        }
        let mut cands = std::mem::take(&mut self.scratch[i]);
        cands.clear();
        let r = candidates(cx, slot, pool, &mut cands).and_then(|()| {
            for g in &cands {
                if self.stopped {
                    break;
                }
                self.try_group(cx, i, *g, rest, groups)?;
            }
            Ok(())
        });
        self.scratch[i] = cands;
        r
    }

    /// Places `g` as group `i` if its condition holds, and fills the rest.
    #[inline]
    fn try_group(
        &mut self,
        cx: &mut Cx<'_>,
        i: usize,
        g: CardSet,
        rest: CardSet,
        groups: &mut [CardSet],
    ) -> Result<(), RuntimeError> {
        cx.charge(1)?;
        if self.lowest_copies && !lowest_copies(cx, self.pat, g, rest) {
            return Ok(());
        }
        groups[i] = g;
        if let Some(cond) = &self.pat.slots[i].condition {
            // A group's condition sees the groups placed so far.
            if !group_holds(cx, self.locals, &groups[..=i], cond)? {
                return Ok(());
            }
        }
        self.fill(cx, i + 1, rest.minus(g), groups)
    }

    fn requires_hold(&mut self, cx: &mut Cx<'_>, gs: &[CardSet]) -> Result<bool, RuntimeError> {
        requires_hold(cx, self.pat, self.locals, gs)
    }
}

/// Whether the pattern's requires hold for the split `gs`, when its plan answers them
/// without evaluating anything (settled, or left to the card sets) as far as they are
/// asked; `None` when one must be evaluated (the search's frame is needed).
fn requires_settled(pat: &PatternDef, gs: &[CardSet]) -> Option<bool> {
    if pat.requires.is_empty() {
        return Some(true);
    }
    let pl = pat.prefilter.as_ref()?.requires.as_ref()?;
    let st = pl.stage(0)?;
    let key = st.key(&pl.classes(gs), &[])?;
    if let Some(m) = st.rows(key) {
        return Some(m.count_ones() as usize == pat.requires.len());
    }
    for j in 0..pat.requires.len() {
        if !st.holds_on(j, key, gs)? {
            return Some(false);
        }
    }
    Some(true)
}

/// Whether the pattern's requires hold for the split `gs`, in order, with the pattern's
/// local slots `locals`.
fn requires_hold(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    locals: &mut [Value],
    gs: &[CardSet],
) -> Result<bool, RuntimeError> {
    if pat.requires.is_empty() {
        return Ok(true);
    }
    // Requires settled by the groups' classes are looked up (score/plan.rs).
    let plan = pat
        .prefilter
        .as_ref()
        .and_then(|pf| pf.requires.as_ref())
        .and_then(|pl| {
            let st = pl.stage(0)?;
            Some((st, st.key(&pl.classes(gs), &[])?))
        });
    // All settled: they hold when every one does.
    if let Some(m) = plan.and_then(|(st, key)| st.rows(key)) {
        return Ok(m.count_ones() as usize == pat.requires.len());
    }
    let mut inner = Cx {
        p: cx.p,
        b: cx.b,
        locals,
        groups: gs,
        budget: cx.budget,
        at: cx.at,
    };
    let mut r = Ok(true);
    for (j, req) in pat.requires.iter().enumerate() {
        let holds = match plan {
            Some((st, key)) => st.holds(&mut inner, j, key, req),
            None => inner.eval_bool(req),
        };
        match holds {
            Ok(true) => {}
            other => {
                r = other;
                break;
            }
        }
    }
    cx.budget = inner.budget;
    r
}

/// The number of cards in `s`, skipping empty words (a deck of up to 64 cards uses one
/// word of four, and a popcount may be a dozen instructions).
#[inline]
/// Whether group `g`, drawn from `rest`, holds of each face the pattern cannot tell
/// apart the lowest copies `rest` has.
fn lowest_copies(cx: &Cx<'_>, pat: &PatternDef, g: CardSet, rest: CardSet) -> bool {
    let deck = &cx.p.deck;
    g.minus(pat.told_apart)
        .iter()
        .all(|c| deck.lower_copies(c).inter(rest).is_subset(&g))
}

fn size(s: CardSet) -> usize {
    s.0.iter()
        .map(|w| if *w == 0 { 0 } else { w.count_ones() as usize })
        .sum()
}

/// The cards of `s` above card `f`.
#[inline]
fn above(s: CardSet, f: CardIx) -> CardSet {
    let mut out = s;
    let w = (f >> 6) as usize & 3;
    for word in out.0.iter_mut().take(w) {
        *word = 0;
    }
    let b = f & 63;
    out.0[w] &= if b == 63 { 0 } else { !0u64 << (b + 1) };
    out
}

/// Whether every card of `s` has a different value of attribute `a`.
fn distinct(cx: &Cx<'_>, a: u16, s: CardSet) -> bool {
    let deck = &cx.p.deck;
    let mut seen = [0i64; 32];
    let mut n = 0;
    for c in s.iter() {
        let v = deck.attr(a, c);
        if seen[..n].contains(&v) {
            return false;
        }
        if n < seen.len() {
            seen[n] = v;
            n += 1;
        }
    }
    true
}

/// Every subset of `pool` that fits the slot's size and one of its shapes (runs,
/// several shapes and groups with wild cards; the others are enumerated in place by the
/// search).
fn candidates(
    cx: &mut Cx<'_>,
    slot: &SlotDef,
    pool: CardSet,
    out: &mut Vec<CardSet>,
) -> Result<(), RuntimeError> {
    if !slot.wild.is_empty() {
        return wild::candidates(cx, slot, pool, out);
    }
    let k = slot.size;
    let deck = &cx.p.deck;
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
                for s in Subsets::new(pool, k) {
                    if distinct(cx, *a, s) {
                        out.push(s);
                    }
                }
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
