//! Whether a table pays on a hand, read off its plans: the question of a win guard
//! (`役代(手札[s]).total > 0`), answered without evaluating the table.
//!
//! When a table's yaku pay positive constants, its factors are constants of at least 1,
//! its bonuses constants of at least 0, and nothing cancels a yaku, a split's total is
//! above 0 exactly when the split holds a yaku. When, besides, the plans settle every
//! condition of the pattern and of the table, or leave rests answered on the groups'
//! card sets (`score/quick.rs`), for every key, then evaluating the table can neither
//! fail nor read anything but the hand and the constant arguments. The guard's answer is
//! then whether a split the search finds (the first one, for a table without `best`)
//! holds a yaku row: one lookup in the yaku stage's plan per split, where the full
//! evaluation builds a frame of values and runs every stage. Both are checked when the
//! program is built ([`sign_by_yaku`]); at run time anything outside what the plans
//! tabulated gives up, and the guard is evaluated in full.

use super::ByCounts;
use crate::engine::{Cx, EVAL_BUDGET};
use crate::ir::{Expr, Program, ScoreDef, StageDef};
use crate::model::CardSet;
use crate::pattern::FitTable;
use crate::value::Value;

/// Whether table `def`'s total is above 0 exactly when a split holds a yaku, with
/// nothing of its evaluation left to the evaluator (see the module documentation).
pub(crate) fn sign_by_yaku(p: &Program, def: &ScoreDef) -> bool {
    let (Some((pat, Expr::Local(_), _)), Some(plan)) = (&def.over, &def.plan) else {
        return false;
    };
    let Some(pat) = p.patterns.get(*pat as usize) else {
        return false;
    };
    // The pattern: no group conditions, and requires the plan answers for every key.
    let requires = pat.requires.is_empty()
        || pat
            .prefilter
            .as_ref()
            .and_then(|pf| pf.requires.as_ref()?.stage(0))
            .is_some_and(|st| st.never_evaluates());
    if !requires || pat.slots.iter().any(|s| s.condition.is_some()) {
        return false;
    }
    let int = |e: &Expr, least: i64| matches!(e, Expr::Const(Value::Int(v)) if *v >= least);
    // The yaku first, keyed by the groups' classes alone (no arguments are at hand).
    match (def.stages.first(), plan.stage(0)) {
        (Some(StageDef::Yaku(_, rows)), Some(st)) if !st.reads_locals() => {
            if !rows.iter().all(|r| int(&r.1, 1)) {
                return false;
            }
        }
        _ => return false,
    }
    def.stages.iter().enumerate().all(|(si, st)| {
        let sign = match st {
            StageDef::Yaku(..) => si == 0,
            StageDef::Times(_, rows) => rows.iter().all(|r| int(&r.0, 1)),
            StageDef::Plus(_, rows) => rows.iter().all(|r| int(&r.1, 0)),
            StageDef::Name(_) => true,
            StageDef::Void(_) => false,
        };
        sign && plan.stage(si).is_some_and(|st| st.never_evaluates())
    })
}

/// Whether table `s` pays on `hand`; `None` when something is outside what its plans
/// tabulated (evaluate it in full then). Only for a table `sign_by_yaku` holds for
/// (a win guard's `HandGuard::exact` says so): on any other the answer means nothing,
/// which debug builds, and so the tests, check on every call.
pub fn pays(p: &Program, s: u16, hand: CardSet) -> Option<bool> {
    answered(p, s, hand, |t, def| t.answer(p, def, hand))
}

/// [`pays`] on a hand whose entry in fit table `table` is already known to be `index`
/// (a running sum the board keeps, whose entry the table says may fit): the answers
/// by count vector, when they are indexed by that table, are read at the entry
/// without adding the hand up again.
pub fn pays_at(p: &Program, s: u16, hand: CardSet, table: &FitTable, index: u32) -> Option<bool> {
    debug_assert_eq!(table.index_of(hand), Some(index), "a stale sum");
    answered(p, s, hand, |t, def| t.answer_at(p, def, hand, table, index))
}

/// [`pays`] with the answer by count vector read by `by_counts` (most hands a guard
/// asks about are answered so), else by the search.
#[inline(always)]
fn answered(
    p: &Program,
    s: u16,
    hand: CardSet,
    by_counts: impl FnOnce(&ByCounts, &ScoreDef) -> Option<bool>,
) -> Option<bool> {
    let def = p.scores.get(s as usize)?;
    debug_assert!(sign_by_yaku(p, def), "`pays` asked of table {}", def.name);
    if let Some(answer) = def.by_counts.as_ref().and_then(|t| by_counts(t, def)) {
        return Some(answer);
    }
    searched(p, def, hand)
}

/// [`pays`] by the pattern's search: each split's yaku read off the plans.
pub(super) fn searched(p: &Program, def: &ScoreDef, hand: CardSet) -> Option<bool> {
    let (pat, _, best) = def.over.as_ref()?;
    let pattern = p.patterns.get(*pat as usize)?;
    let plan = def.plan.as_ref()?;
    let Some(pre) = crate::pattern::prepare(pattern, hand) else {
        return Some(false);
    };
    let (mut found, mut open) = (false, false);
    let mut each = |_: &mut Cx<'_>, gs: &[CardSet]| {
        match holds_yaku(def, plan, gs) {
            Some(true) => found = true,
            Some(false) => return Ok(*best),
            None => open = true,
        }
        Ok(false)
    };
    // Nothing is evaluated on this context (the plans answer it all): it carries the
    // search's step count only, and an error from it gives up.
    let mut cx = Cx {
        p,
        b: None,
        locals: &mut [],
        groups: &[],
        budget: EVAL_BUDGET,
        at: def.loc,
    };
    crate::pattern::for_each_prepared(&mut cx, pattern, &pre, &mut each).ok()?;
    (!open).then_some(found)
}

/// Whether the split `gs` holds a row of the table's first stage, its yaku.
#[inline]
fn holds_yaku(def: &ScoreDef, plan: &super::Plan, gs: &[CardSet]) -> Option<bool> {
    let st = plan.stage(0)?;
    let key = st.key(&plan.classes(gs), &[])?;
    if let Some(m) = st.rows(key) {
        return Some(m != 0);
    }
    rows_hold(def, st, key, gs)
}

/// Whether one of the yaku rows (the first stage `st` of `def`) holds under `key` on
/// the split `gs`, asked row by row: `None` when a row's rest has no answer.
pub(super) fn rows_hold(
    def: &ScoreDef,
    st: &super::Stage,
    key: usize,
    gs: &[CardSet],
) -> Option<bool> {
    let Some(StageDef::Yaku(_, rows)) = def.stages.first() else {
        return None;
    };
    for j in 0..rows.len() {
        if st.holds_on(j, key, gs)? {
            return Some(true);
        }
    }
    Some(false)
}
