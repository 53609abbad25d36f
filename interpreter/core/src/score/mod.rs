//! Score tables: yaku rows, factors, names and bonuses, evaluated over each split of a
//! pattern (keeping the most valuable) or once over the arguments.

mod by_counts;
mod names;
mod pays;
mod plan;
mod quick;
mod residual;
mod result;
mod rewrite;
mod stages;
mod tally;

pub use by_counts::ByCounts;
pub use names::Names;
pub(crate) use pays::sign_by_yaku;
pub use pays::{pays, pays_at};
pub use plan::{Answer, Plan, SplitClasses, Stage};
pub use residual::Residual;
pub use rewrite::{simplify, slots_used};

#[cfg(test)]
mod tests;

#[cfg(test)]
thread_local! {
    /// Set by tests to compile patterns and tables as written (no rewrites, no plans),
    /// to compare the optimized forms against.
    pub(crate) static PLAIN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the compiler rewrites and tabulates patterns and tables (always, outside
/// tests that compare against the plain forms).
pub(crate) fn optimizing() -> bool {
    #[cfg(test)]
    {
        !PLAIN.with(|p| p.get())
    }
    #[cfg(not(test))]
    {
        true
    }
}

use crate::engine::{Cx, RuntimeError};
use crate::ir::{Expr, ScoreDef};
use crate::model::CardSet;
use crate::pattern::Prepared;
use crate::value::{ScoreResult, Value};
use result::nothing;
use stages::stages;
use tally::Tally;

/// Whether table `s` certainly scores nothing for these arguments: its pattern splits a
/// parameter that is too small, too large, or fails the pattern's prefilter. Checked
/// before anything is allocated, since most hands offered to a table are no win.
pub fn surely_nothing(p: &crate::ir::Program, s: u16, args: &[Value]) -> bool {
    let def = &p.scores[s as usize];
    let Some((_, crate::ir::Expr::Local(i), _)) = &def.over else {
        return false;
    };
    args.get(*i as usize)
        .is_some_and(|hand| surely_nothing_hand(p, s, hand))
}

/// Whether table `s` certainly scores nothing when `hand` is the argument its pattern
/// splits (see [`surely_nothing`]); the other arguments need not be known yet.
pub fn surely_nothing_hand(p: &crate::ir::Program, s: u16, hand: &Value) -> bool {
    let def = &p.scores[s as usize];
    // With groups already formed, the hand is only part of what is split.
    if def.formed.is_some() {
        return false;
    }
    let (Some((pat, _, _)), Value::Cards(cards)) = (&def.over, hand) else {
        return false;
    };
    !crate::pattern::may_fit(&p.patterns[*pat as usize], *cards)
}

/// Evaluates score table `s` with argument values `args` (every parameter, in order).
pub fn evaluate(cx: &mut Cx<'_>, s: u16, args: Vec<Value>) -> Result<ScoreResult, RuntimeError> {
    let mut locals = args;
    // Unset slots are written, not cloned.
    let frame = cx.p.scores[s as usize].frame as usize;
    locals.extend((locals.len()..frame).map(|_| Value::Unit));
    evaluate_in(cx, s, &mut locals, None)
}

/// [`evaluate`] with the table's frame given, its parameters first.
fn evaluate_in(
    cx: &mut Cx<'_>,
    s: u16,
    locals: &mut [Value],
    pre: Option<&Prepared>,
) -> Result<ScoreResult, RuntimeError> {
    let p = cx.p;
    let def = &p.scores[s as usize];
    let mut kept = Kept::new();
    if !run(cx, def, locals, &mut kept, pre)? {
        return Ok(nothing());
    }
    let pat = def
        .over
        .as_ref()
        .map(|(pat, ..)| &p.patterns[*pat as usize]);
    let names = Names::namer(def.plan.as_ref().map(Plan::names), p, pat);
    let groups = pat.map(|pat| (pat, kept.groups()));
    Ok(result::build(names, kept.tally(), groups))
}

/// Evaluates score table `s` for its total only (what a move's guard compares): the same
/// search and stages as [`evaluate`], without building the result's text.
pub fn evaluate_total(cx: &mut Cx<'_>, s: u16, args: &[Value]) -> Result<i64, RuntimeError> {
    let def = &cx.p.scores[s as usize];
    // A hand with no split scores 0 before anything is set up.
    let mut checked = Prepared::EMPTY;
    let Ok(pre) = prepare(cx.p, def, args, &mut checked) else {
        return Ok(0);
    };
    let frame = (def.frame as usize).max(args.len());
    crate::pattern::with_frame(frame, |locals| {
        locals[..args.len()].clone_from_slice(args);
        let mut kept = Kept::new();
        Ok(if run(cx, def, locals, &mut kept, pre)? {
            kept.tally().total()
        } else {
            0
        })
    })
}

/// The table's hand checked against its pattern (into `checked`, not copied: the
/// counts are a hundred bytes), when the hand is a parameter given as cards: `Err`
/// when it certainly has no split, `Ok(None)` when not checked here.
#[inline]
fn prepare<'c>(
    p: &crate::ir::Program,
    def: &ScoreDef,
    args: &[Value],
    checked: &'c mut Prepared,
) -> Result<Option<&'c Prepared>, ()> {
    if def.formed.is_some() {
        return Ok(None);
    }
    match &def.over {
        Some((pat, Expr::Local(i), _)) => match args.get(*i as usize) {
            Some(Value::Cards(cards)) => {
                if checked.check(&p.patterns[*pat as usize], *cards) {
                    Ok(Some(checked))
                } else {
                    Err(())
                }
            }
            _ => Ok(None),
        },
        _ => Ok(None),
    }
}

/// The split a table keeps and what its stages found.
struct Kept<'d> {
    /// The kept split's tally (the first split's, until a later one pays more).
    best: Tally<'d>,
    /// The tally a later split fills: made at the second split (most hands that score
    /// have one), and swapped with `best` when its split is kept.
    spare: Option<Tally<'d>>,
    /// Whether a split was tallied.
    found: bool,
    /// The groups, when there are few.
    few: [CardSet; FEW_GROUPS],
    /// The groups, when there are more.
    more: Vec<CardSet>,
    /// How many groups the kept split has (over alternatives, one set more: the shape).
    len: usize,
}

/// Groups a kept split holds without allocating.
const FEW_GROUPS: usize = 8;

impl<'d> Kept<'d> {
    fn new() -> Self {
        Kept {
            best: Tally::new(),
            spare: None,
            found: false,
            few: [CardSet::EMPTY; FEW_GROUPS],
            more: Vec::new(),
            len: 0,
        }
    }

    /// The kept split's tally.
    fn tally(&self) -> &Tally<'d> {
        &self.best
    }

    /// The tally the next split fills: the kept one until there is one.
    fn next(&mut self) -> &mut Tally<'d> {
        if self.found {
            self.spare.get_or_insert_with(Tally::new)
        } else {
            &mut self.best
        }
    }

    /// After the split `gs` was tallied (into [`Kept::next`]): keeps it if it is the
    /// first, or pays more than the kept one (the first most valuable split wins).
    fn offer(&mut self, gs: &[CardSet]) {
        if self.found {
            match &mut self.spare {
                Some(t) if t.total() > self.best.total() => std::mem::swap(t, &mut self.best),
                _ => return,
            }
        }
        self.found = true;
        self.len = gs.len();
        if gs.len() <= FEW_GROUPS {
            self.few[..gs.len()].copy_from_slice(gs);
        } else {
            self.more.clear();
            self.more.extend_from_slice(gs);
        }
    }

    fn groups(&self) -> &[CardSet] {
        if self.len <= FEW_GROUPS {
            &self.few[..self.len]
        } else {
            &self.more
        }
    }
}

/// Runs table `def` with its locals (parameters first) in place, leaving the kept split's
/// tally in `kept`; false when the pattern has no split.
fn run<'d>(
    cx: &mut Cx<'_>,
    def: &'d ScoreDef,
    locals: &mut [Value],
    kept: &mut Kept<'d>,
    pre: Option<&Prepared>,
) -> Result<bool, RuntimeError> {
    let p = cx.p;
    let mut inner = Cx {
        p,
        b: cx.b,
        locals,
        groups: &[],
        budget: cx.budget,
        at: cx.at,
    };
    let r = match &def.over {
        None => stages(&mut inner, def, kept.next()).map(|()| {
            kept.offer(&[]);
            true
        }),
        Some((pat, arg, best)) => inner.eval_cards(arg).and_then(|cards| {
            let formed = match &def.formed {
                Some(f) => {
                    let v = inner.eval(f)?;
                    inner.formed(&v)?
                }
                None => Vec::new(),
            };
            let pattern = &p.patterns[*pat as usize];
            // With copies in the deck, "is there a split at all" places only the lowest
            // copies (`pattern::any_match`), a small part of the search that lists every
            // split: most hands a table is asked about have none, and stop here.
            if p.deck.has_copies() {
                let exists = if formed.is_empty() {
                    crate::pattern::any_match(&mut inner, pattern, cards)?
                } else {
                    crate::pattern::any_match_formed(&mut inner, pattern, cards, &formed)?
                };
                if !exists {
                    return Ok(false);
                }
            }
            let mut each = |cx2: &mut Cx<'_>, gs: &[CardSet]| {
                // Over alternatives: which one held, as text (`shape == 七対子`).
                if let (Some(slot), Some(k)) =
                    (def.shape_slot, crate::pattern::shape_of(pattern, gs))
                {
                    let name = pattern
                        .alternatives
                        .get(k)
                        .and_then(|a| cx2.p.patterns.get(a.pattern as usize))
                        .map_or("", |q| q.name.as_str());
                    if let Some(l) = cx2.locals.get_mut(slot as usize) {
                        *l = Value::Str(name.into());
                    }
                }
                let mut m = Cx {
                    p: cx2.p,
                    b: cx2.b,
                    locals: &mut *cx2.locals,
                    groups: gs,
                    budget: cx2.budget,
                    at: cx2.at,
                };
                let r = stages(&mut m, def, kept.next());
                cx2.budget = m.budget;
                r?;
                // The first most valuable split wins; its text is built only once.
                kept.offer(gs);
                Ok(*best)
            };
            // The hand may have been checked already (not again).
            match pre.filter(|pre| pre.cards() == cards) {
                Some(pre) => crate::pattern::for_each_prepared(&mut inner, pattern, pre, &mut each),
                None if formed.is_empty() => {
                    crate::pattern::for_each_match(&mut inner, pattern, cards, &mut each)
                }
                None => crate::pattern::for_each_match_formed(
                    &mut inner, pattern, cards, &formed, &mut each,
                ),
            }
            .map(|_| kept.found)
        }),
    };
    cx.budget = inner.budget;
    r
}

/// Scores outside a game (for `fuda score` and tests): `args` holds a value or `None`
/// (take the default) for each parameter of table `s`, in order.
pub fn score_with(
    p: &crate::ir::Program,
    s: u16,
    args: Vec<Option<Value>>,
) -> Result<ScoreResult, RuntimeError> {
    let def = &p.scores[s as usize];
    let n = def.params.len();
    let mut args = args.into_iter();
    // The parameters go straight into the table's frame (no list is built).
    crate::pattern::with_frame((def.frame as usize).max(n), |locals| {
        for (i, (name, _, default)) in def.params.iter().enumerate() {
            locals[i] = match (args.next().flatten(), default) {
                (Some(v), _) => v,
                (None, Some(crate::ir::Expr::Const(v))) => v.clone(),
                (None, Some(d)) => crate::engine::const_eval(p, d).unwrap_or(Value::Unit),
                (None, None) => {
                    return Err(RuntimeError::new(
                        format!("score `{}` needs `{name}`", def.name),
                        def.loc,
                    ))
                }
            };
        }
        let mut checked = Prepared::EMPTY;
        let Ok(pre) = prepare(p, def, &locals[..n], &mut checked) else {
            return Ok(nothing());
        };
        let mut cx = Cx {
            p,
            b: None,
            locals: &mut [],
            groups: &[],
            budget: crate::engine::EVAL_BUDGET,
            at: def.loc,
        };
        evaluate_in(&mut cx, s, locals, pre)
    })
}
