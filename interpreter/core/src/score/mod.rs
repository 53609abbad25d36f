//! Score tables: yaku rows, factors, names and bonuses, evaluated over each split of a
//! pattern (keeping the most valuable) or once over the arguments.

mod plan;
mod rewrite;

pub use plan::Plan;
pub use rewrite::simplify;

use crate::engine::{Cx, RuntimeError};
use crate::ir::{Expr, NameDef, ScoreDef, StageDef, StageMode};
use crate::model::CardSet;
use crate::value::{ScoreResult, Value, YakuLine};

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
    let (Some((pat, _, _)), Value::Cards(cards)) = (&def.over, hand) else {
        return false;
    };
    let pat = &p.patterns[*pat as usize];
    cards.len() != pat.size
        || pat
            .prefilter
            .as_ref()
            .map(|pf| !crate::pattern::prefilter_passes(pf, *cards))
            .unwrap_or(false)
}

/// Local slots a table evaluated for its total keeps on the stack; larger frames are
/// allocated.
const STACK_LOCALS: usize = 24;

/// The most slots a pattern may have (as in the matcher).
const MAX_SLOTS: usize = 32;

/// Evaluates score table `s` with argument values `args` (every parameter, in order).
pub fn evaluate(cx: &mut Cx<'_>, s: u16, args: Vec<Value>) -> Result<ScoreResult, RuntimeError> {
    let p = cx.p;
    let def = &p.scores[s as usize];
    let mut locals = args;
    locals.resize((def.frame as usize).max(locals.len()), Value::Unit);
    let mut kept = Kept::new();
    let found = run(cx, def, &mut locals, &mut kept)?;
    Ok(match (found, &def.over) {
        (false, _) => nothing(),
        (true, None) => kept.tally.into_result(p),
        (true, Some((pat, ..))) => {
            let mut r = kept.tally.into_result(p);
            r.groups = group_list(&p.patterns[*pat as usize], &kept.groups);
            r
        }
    })
}

/// Evaluates score table `s` for its total only (what a move's guard compares): the same
/// search and stages as [`evaluate`], without building the result's text.
pub fn evaluate_total(cx: &mut Cx<'_>, s: u16, args: &[Value]) -> Result<i64, RuntimeError> {
    let def = &cx.p.scores[s as usize];
    let frame = (def.frame as usize).max(args.len());
    let mut stack: [Value; STACK_LOCALS];
    let mut heap: Vec<Value>;
    let locals: &mut [Value] = if frame <= STACK_LOCALS {
        stack = std::array::from_fn(|_| Value::Unit);
        &mut stack[..frame]
    } else {
        heap = vec![Value::Unit; frame];
        &mut heap
    };
    locals[..args.len()].clone_from_slice(args);
    let mut kept = Kept::new();
    Ok(if run(cx, def, locals, &mut kept)? {
        kept.tally.total()
    } else {
        0
    })
}

/// A table's result when nothing scores.
fn nothing() -> ScoreResult {
    ScoreResult {
        factor: 1,
        ..ScoreResult::default()
    }
}

/// The split a table keeps and what its stages found.
struct Kept<'d> {
    tally: Tally<'d>,
    groups: [CardSet; MAX_SLOTS],
    n: usize,
}

impl Kept<'_> {
    fn new() -> Self {
        Kept {
            tally: Tally::new(),
            groups: [CardSet::EMPTY; MAX_SLOTS],
            n: 0,
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
        None => stages(&mut inner, def, &mut kept.tally).map(|()| true),
        Some((pat, arg, best)) => inner.eval_cards(arg).and_then(|cards| {
            let pattern = &p.patterns[*pat as usize];
            let mut cur = Tally::new();
            let mut found = false;
            crate::pattern::for_each_match(&mut inner, pattern, cards, &mut |cx2, gs| {
                let mut m = Cx {
                    p: cx2.p,
                    b: cx2.b,
                    locals: &mut *cx2.locals,
                    groups: gs,
                    budget: cx2.budget,
                    at: cx2.at,
                };
                let r = stages(&mut m, def, &mut cur);
                cx2.budget = m.budget;
                r?;
                // The first most valuable split wins; its text is built only once.
                if !found || cur.total() > kept.tally.total() {
                    std::mem::swap(&mut cur, &mut kept.tally);
                    kept.groups[..gs.len()].copy_from_slice(gs);
                    kept.n = gs.len();
                    found = true;
                }
                Ok(*best)
            })
            .map(|_| found)
        }),
    };
    cx.budget = inner.budget;
    r
}

fn group_list(pat: &crate::ir::PatternDef, gs: &[CardSet]) -> Vec<(String, Vec<u16>)> {
    pat.slots
        .iter()
        .zip(gs)
        .map(|(s, g)| (s.name.clone(), g.iter().collect()))
        .collect()
}

/// Lines kept inline before a list is allocated (a table rarely finds more).
const INLINE_LINES: usize = 8;

/// The (symbol, value) lines a stage found, kept inline while they are few, so scoring a
/// split allocates nothing.
struct Lines {
    inline: [(u32, i64); INLINE_LINES],
    len: usize,
    spilled: bool,
    more: Vec<(u32, i64)>,
}

impl Lines {
    fn new() -> Self {
        Lines {
            inline: [(0, 0); INLINE_LINES],
            len: 0,
            spilled: false,
            more: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.len = 0;
        self.spilled = false;
        self.more.clear();
    }

    fn as_slice(&self) -> &[(u32, i64)] {
        if self.spilled {
            &self.more
        } else {
            &self.inline[..self.len]
        }
    }

    fn push(&mut self, line: (u32, i64)) {
        if !self.spilled && self.len < INLINE_LINES {
            self.inline[self.len] = line;
            self.len += 1;
        } else {
            if !self.spilled {
                self.more.extend_from_slice(&self.inline[..self.len]);
                self.spilled = true;
            }
            self.more.push(line);
        }
    }

    fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }

    fn first(&self) -> Option<(u32, i64)> {
        self.as_slice().first().copied()
    }

    /// Drops the lines of symbol `sym`.
    fn remove(&mut self, sym: u32) {
        if self.spilled {
            self.more.retain(|(s, _)| *s != sym);
        } else {
            let mut k = 0;
            for j in 0..self.len {
                if self.inline[j].0 != sym {
                    self.inline[k] = self.inline[j];
                    k += 1;
                }
            }
            self.len = k;
        }
    }
}

/// What the stages found for one split, as symbols and numbers: cheap to compare
/// across splits; turned into text only for the split that is kept.
struct Tally<'d> {
    yaku: Lines,
    bonus: Lines,
    factor: i64,
    name: Option<&'d NameDef>,
}

impl<'d> Tally<'d> {
    fn new() -> Self {
        Tally {
            yaku: Lines::new(),
            bonus: Lines::new(),
            factor: 1,
            name: None,
        }
    }

    fn total(&self) -> i64 {
        if self.yaku.is_empty() {
            return 0;
        }
        let base = saturating_sum(self.yaku.as_slice());
        let extra = saturating_sum(self.bonus.as_slice());
        base.saturating_mul(self.factor).saturating_add(extra)
    }

    fn into_result(self, p: &crate::ir::Program) -> ScoreResult {
        let yaku = self.yaku.as_slice();
        let name = self.name.map(|n| match n {
            NameDef::Fixed(s) => p.sym(*s).to_string(),
            NameDef::Template(t) => {
                let y = yaku.first().map(|(s, _)| p.sym(*s)).unwrap_or("");
                t.replace("{yaku}", y)
                    .replace("{factor}", &self.factor.to_string())
            }
        });
        finish(p, yaku, self.bonus.as_slice(), self.factor, name)
    }
}

/// Runs the stages of a table in order with the groups (if any) already in view,
/// into `t` (cleared first).
fn stages<'d>(cx: &mut Cx<'_>, def: &'d ScoreDef, t: &mut Tally<'d>) -> Result<(), RuntimeError> {
    t.yaku.clear();
    t.bonus.clear();
    t.factor = 1;
    t.name = None;
    let set = |cx: &mut Cx<'_>, slot: u16, v: Value| {
        if let Some(s) = cx.locals.get_mut(slot as usize) {
            *s = v;
        }
    };
    set(cx, def.factor_slot, Value::Int(1));
    set(cx, def.yaku_slot, Value::Unit);
    // The split's classes and the parameters, for the conditions they settle; `yaku`
    // is part of the key too when the plan reads it, so the key follows it.
    let key = |cx: &Cx<'_>| {
        def.plan
            .as_ref()
            .and_then(|pl| pl.key(cx.groups, cx.locals).map(|k| (pl, k)))
    };
    let follow_yaku = def
        .plan
        .as_ref()
        .is_some_and(|pl| pl.reads_local(def.yaku_slot));
    let mut plan = key(cx);
    // Conditions are numbered stage by stage, row by row.
    let mut next_id = 0;
    for st in &def.stages {
        let id = next_id;
        next_id += row_count(st);
        match st {
            StageDef::Yaku(mode, rows) => {
                rows_that_hold(cx, plan, id, *mode, rows, &mut t.yaku)?;
                let first = t
                    .yaku
                    .first()
                    .map(|(s, _)| Value::Sym(s))
                    .unwrap_or(Value::Unit);
                set(cx, def.yaku_slot, first);
                if follow_yaku {
                    plan = key(cx);
                }
            }
            StageDef::Void(rows) => {
                for (j, (sym, cond)) in rows.iter().enumerate() {
                    if t.yaku.as_slice().iter().any(|(s, _)| s == sym)
                        && holds(cx, plan, id + j, cond)?
                    {
                        t.yaku.remove(*sym);
                    }
                }
                let first = t
                    .yaku
                    .first()
                    .map(|(s, _)| Value::Sym(s))
                    .unwrap_or(Value::Unit);
                set(cx, def.yaku_slot, first);
                if follow_yaku {
                    plan = key(cx);
                }
            }
            StageDef::Times(mode, rows) => {
                if t.yaku.is_empty() {
                    continue;
                }
                // `all`: the product of the factors that hold; `first`: the first;
                // `largest`: the largest; none: 1.
                let mut f: Option<i64> = None;
                for (j, (fe, cond)) in rows.iter().enumerate() {
                    if holds(cx, plan, id + j, cond)? {
                        let v = cx.eval_int(fe)?;
                        f = Some(match (mode, f) {
                            (_, None) => v,
                            (StageMode::All, Some(a)) => a.saturating_mul(v),
                            (_, Some(a)) => a.max(v),
                        });
                        if *mode == StageMode::First {
                            break;
                        }
                    }
                }
                t.factor = t.factor.saturating_mul(f.unwrap_or(1));
                set(cx, def.factor_slot, Value::Int(t.factor));
            }
            StageDef::Name(rows) => {
                if t.yaku.is_empty() || t.name.is_some() {
                    continue;
                }
                for (j, (n, cond)) in rows.iter().enumerate() {
                    if holds(cx, plan, id + j, cond)? {
                        t.name = Some(n);
                        break;
                    }
                }
            }
            StageDef::Plus(mode, rows) => {
                if t.yaku.is_empty() {
                    continue;
                }
                rows_that_hold(cx, plan, id, *mode, rows, &mut t.bonus)?;
            }
        }
    }
    Ok(())
}

/// How many rows (conditions) a stage has.
fn row_count(st: &StageDef) -> usize {
    match st {
        StageDef::Yaku(_, rows) | StageDef::Plus(_, rows) => rows.len(),
        StageDef::Times(_, rows) => rows.len(),
        StageDef::Name(rows) => rows.len(),
        StageDef::Void(rows) => rows.len(),
    }
}

/// Whether condition `id` holds: looked up when the split's classes settle it,
/// evaluated otherwise.
#[inline]
fn holds(
    cx: &mut Cx<'_>,
    plan: Option<(&Plan, usize)>,
    id: usize,
    cond: &Expr,
) -> Result<bool, RuntimeError> {
    if let Some(b) = plan.and_then(|(pl, key)| pl.settled(id, key)) {
        return Ok(b);
    }
    cx.eval_bool(cond)
}

/// The sum of the values, saturating (a table's values are the rule file's, untrusted).
fn saturating_sum(lines: &[(u32, i64)]) -> i64 {
    lines.iter().fold(0i64, |a, (_, v)| a.saturating_add(*v))
}

/// Builds the displayed result from what the stages found.
fn finish(
    p: &crate::ir::Program,
    yaku: &[(u32, i64)],
    bonus: &[(u32, i64)],
    factor: i64,
    name: Option<String>,
) -> ScoreResult {
    let base = saturating_sum(yaku);
    let extra = saturating_sum(bonus);
    let name = name.unwrap_or_else(|| {
        yaku.iter()
            .map(|(s, _)| p.sym(*s))
            .collect::<Vec<_>>()
            .join("・")
    });
    let base_yaku: Vec<YakuLine> = yaku
        .iter()
        .map(|(s, v)| YakuLine {
            name: p.sym(*s).to_string(),
            value: *v,
        })
        .collect();
    // The lines people read add up to the total: a single multiplied yaku is shown under
    // its final name and value (赤五光 40, 素役の2倍付け 2); several yaku keep their own
    // values, with the multiplication as a line of its own.
    let mut lines = if factor == 1 || yaku.is_empty() {
        base_yaku.clone()
    } else if yaku.len() == 1 {
        vec![YakuLine {
            name: name.clone(),
            value: base.saturating_mul(factor),
        }]
    } else {
        let mut l = base_yaku.clone();
        l.push(YakuLine {
            name: format!("×{factor}"),
            value: base.saturating_mul(factor.saturating_sub(1)),
        });
        l
    };
    lines.extend(bonus.iter().map(|(s, v)| YakuLine {
        name: p.sym(*s).to_string(),
        value: *v,
    }));
    let total = if yaku.is_empty() {
        0
    } else {
        base.saturating_mul(factor).saturating_add(extra)
    };
    ScoreResult {
        name,
        yaku: lines,
        base_yaku,
        base,
        factor: if yaku.is_empty() { 1 } else { factor },
        bonus: extra,
        total,
        groups: Vec::new(),
    }
}

/// Appends the rows of a yaku or bonus stage that hold, per the stage's mode; the
/// stage's first condition is number `id`.
fn rows_that_hold(
    cx: &mut Cx<'_>,
    plan: Option<(&Plan, usize)>,
    id: usize,
    mode: StageMode,
    rows: &[(u32, Expr, Expr)],
    out: &mut Lines,
) -> Result<(), RuntimeError> {
    // `largest`: the first of equally valuable rows wins, as in the table's order.
    let mut best: Option<(u32, i64)> = None;
    for (j, (sym, value, cond)) in rows.iter().enumerate() {
        if holds(cx, plan, id + j, cond)? {
            let v = cx.eval_int(value)?;
            match mode {
                StageMode::Largest => {
                    if best.is_none_or(|b| v > b.1) {
                        best = Some((*sym, v));
                    }
                }
                StageMode::First => {
                    out.push((*sym, v));
                    break;
                }
                StageMode::All => out.push((*sym, v)),
            }
        }
    }
    if let Some(b) = best {
        out.push(b);
    }
    Ok(())
}

/// Scores outside a game (for `fuda score` and tests): `args` holds a value or `None`
/// (take the default) for each parameter of table `s`, in order.
pub fn score_with(
    p: &crate::ir::Program,
    s: u16,
    args: Vec<Option<Value>>,
) -> Result<ScoreResult, RuntimeError> {
    let def = &p.scores[s as usize];
    // Room for the whole frame, so evaluating grows the list in place.
    let mut vals = Vec::with_capacity(def.params.len().max(def.frame as usize));
    for (i, (name, _, default)) in def.params.iter().enumerate() {
        match (args.get(i).cloned().flatten(), default) {
            (Some(v), _) => vals.push(v),
            (None, Some(crate::ir::Expr::Const(v))) => vals.push(v.clone()),
            (None, Some(d)) => vals.push(crate::engine::const_eval(p, d).unwrap_or(Value::Unit)),
            (None, None) => {
                return Err(RuntimeError::new(
                    format!("score `{}` needs `{name}`", def.name),
                    def.loc,
                ))
            }
        }
    }
    if surely_nothing(p, s, &vals) {
        return Ok(nothing());
    }
    let mut locals: Vec<Value> = Vec::new();
    let mut cx = Cx {
        p,
        b: None,
        locals: &mut locals,
        groups: &[],
        budget: crate::engine::EVAL_BUDGET,
        at: def.loc,
    };
    evaluate(&mut cx, s, vals)
}
