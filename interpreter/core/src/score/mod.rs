//! Score tables: yaku rows, factors, names and bonuses, evaluated over each split of a
//! pattern (keeping the most valuable) or once over the arguments.

mod plan;
mod rewrite;

pub use plan::{Plan, SplitClasses, Stage};
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
    pre: Option<&crate::pattern::Prepared>,
) -> Result<ScoreResult, RuntimeError> {
    let p = cx.p;
    let def = &p.scores[s as usize];
    let mut kept = Kept::new();
    let found = run(cx, def, locals, &mut kept, pre)?;
    Ok(match (found, &def.over) {
        (false, _) => nothing(),
        (true, None) => kept.tally.into_result(p),
        (true, Some((pat, ..))) => {
            let pat = &p.patterns[*pat as usize];
            let groups = group_list(pat, kept.groups(pat.slots.len()));
            let mut r = kept.tally.into_result(p);
            r.groups = groups;
            r
        }
    })
}

/// Evaluates score table `s` for its total only (what a move's guard compares): the same
/// search and stages as [`evaluate`], without building the result's text.
pub fn evaluate_total(cx: &mut Cx<'_>, s: u16, args: &[Value]) -> Result<i64, RuntimeError> {
    let def = &cx.p.scores[s as usize];
    // A hand with no split scores 0 before anything is set up.
    let Ok(pre) = prepare(cx.p, def, args) else {
        return Ok(0);
    };
    let pre = pre.as_ref();
    let frame = (def.frame as usize).max(args.len());
    crate::pattern::with_frame(frame, |locals| {
        locals[..args.len()].clone_from_slice(args);
        let mut kept = Kept::new();
        Ok(if run(cx, def, locals, &mut kept, pre)? {
            kept.tally.total()
        } else {
            0
        })
    })
}

/// The table's hand checked against its pattern, when the hand is a parameter given
/// as cards: `Err` when it certainly has no split, `Ok(None)` when not checked here.
fn prepare(
    p: &crate::ir::Program,
    def: &ScoreDef,
    args: &[Value],
) -> Result<Option<crate::pattern::Prepared>, ()> {
    match &def.over {
        Some((pat, Expr::Local(i), _)) => match args.get(*i as usize) {
            Some(Value::Cards(cards)) => {
                crate::pattern::prepare(&p.patterns[*pat as usize], *cards)
                    .map(Some)
                    .ok_or(())
            }
            _ => Ok(None),
        },
        _ => Ok(None),
    }
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
    /// The groups, when there are few.
    few: [CardSet; FEW_GROUPS],
    /// The groups, when there are more.
    more: Vec<CardSet>,
}

/// Groups a kept split holds without allocating.
const FEW_GROUPS: usize = 8;

impl Kept<'_> {
    fn new() -> Self {
        Kept {
            tally: Tally::new(),
            few: [CardSet::EMPTY; FEW_GROUPS],
            more: Vec::new(),
        }
    }

    fn keep_groups(&mut self, gs: &[CardSet]) {
        if gs.len() <= FEW_GROUPS {
            self.few[..gs.len()].copy_from_slice(gs);
        } else {
            self.more.clear();
            self.more.extend_from_slice(gs);
        }
    }

    fn groups(&self, n: usize) -> &[CardSet] {
        if n <= FEW_GROUPS {
            &self.few[..n]
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
    pre: Option<&crate::pattern::Prepared>,
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
            let mut each = |cx2: &mut Cx<'_>, gs: &[CardSet]| {
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
                    kept.keep_groups(gs);
                    found = true;
                }
                Ok(*best)
            };
            // The hand may have been checked already (not again).
            match pre.filter(|pre| pre.cards() == cards) {
                Some(pre) => crate::pattern::for_each_prepared(&mut inner, pattern, pre, &mut each),
                None => crate::pattern::for_each_match(&mut inner, pattern, cards, &mut each),
            }
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
        .map(|(s, g)| {
            let mut cards = Vec::with_capacity(g.len());
            // Word by word: cheaper than the general iterator for a handful of cards.
            for (w, word) in g.0.iter().enumerate() {
                let mut x = *word;
                while x != 0 {
                    cards.push((w as u16) * 64 + x.trailing_zeros() as u16);
                    x &= x - 1;
                }
            }
            (s.name.clone(), cards)
        })
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
    // Each stage's answers, under the key its inputs give as it starts (the split's
    // classes, parameters, `yaku` and `factor` so far).
    let classes = def.plan.as_ref().map(|pl| pl.classes(cx.groups));
    let settled = |cx: &Cx<'_>, si: usize| {
        let st = def.plan.as_ref()?.stage(si)?;
        let k = st.key(classes.as_ref()?, cx.locals)?;
        Some((st, k))
    };
    for (si, st) in def.stages.iter().enumerate() {
        match st {
            StageDef::Yaku(mode, rows) => {
                let holding = Holding::new(settled(cx, si));
                rows_that_hold(cx, holding, *mode, rows, &mut t.yaku)?;
                let first = t
                    .yaku
                    .first()
                    .map(|(s, _)| Value::Sym(s))
                    .unwrap_or(Value::Unit);
                set(cx, def.yaku_slot, first);
            }
            StageDef::Void(rows) => {
                // A row's condition is asked only while its yaku holds.
                let part = settled(cx, si);
                for (j, (sym, cond)) in rows.iter().enumerate() {
                    if t.yaku.as_slice().iter().any(|(s, _)| s == sym) && holds(cx, part, j, cond)?
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
            }
            StageDef::Times(mode, rows) => {
                if t.yaku.is_empty() {
                    continue;
                }
                // `all`: the product of the factors that hold; `first`: the first;
                // `largest`: the largest; none: 1.
                let mut f: Option<i64> = None;
                let mut holding = Holding::new(settled(cx, si));
                while let Some(j) = holding.next(cx, |j| rows.get(j).map(|r| &r.1))? {
                    let v = cx.eval_int(&rows[j].0)?;
                    f = Some(match (mode, f) {
                        (_, None) => v,
                        (StageMode::All, Some(a)) => a.saturating_mul(v),
                        (_, Some(a)) => a.max(v),
                    });
                    if *mode == StageMode::First {
                        break;
                    }
                }
                let factor = t.factor.saturating_mul(f.unwrap_or(1));
                // The slot already holds the factor when it does not change.
                if factor != t.factor {
                    t.factor = factor;
                    set(cx, def.factor_slot, Value::Int(factor));
                }
            }
            StageDef::Name(rows) => {
                if t.yaku.is_empty() || t.name.is_some() {
                    continue;
                }
                let mut holding = Holding::new(settled(cx, si));
                if let Some(j) = holding.next(cx, |j| rows.get(j).map(|r| &r.1))? {
                    t.name = Some(&rows[j].0);
                }
            }
            StageDef::Plus(mode, rows) => {
                if t.yaku.is_empty() {
                    continue;
                }
                let holding = Holding::new(settled(cx, si));
                rows_that_hold(cx, holding, *mode, rows, &mut t.bonus)?;
            }
        }
    }
    Ok(())
}

/// Whether row `j` of a stage holds: looked up when the stage's key settles it,
/// evaluated otherwise.
#[inline]
fn holds(
    cx: &mut Cx<'_>,
    part: Option<(&Stage, usize)>,
    j: usize,
    cond: &Expr,
) -> Result<bool, RuntimeError> {
    if let Some(b) = part.and_then(|(st, key)| st.settled(j, key)) {
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
    let name = name.unwrap_or_else(|| match yaku {
        [(s, _)] => p.sym(*s).to_string(),
        _ => yaku
            .iter()
            .map(|(s, _)| p.sym(*s))
            .collect::<Vec<_>>()
            .join("・"),
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

/// The rows of one stage that hold, in order: read off the plan's bits when the split
/// settles every row of the stage, tested row by row otherwise.
struct Holding<'p> {
    /// The stage's answers and its key.
    part: Option<(&'p Stage, usize)>,
    /// Every row settled: the rows that hold and are not given yet, one bit each.
    mask: Option<u64>,
    /// Otherwise: the next row to test.
    next: usize,
}

impl<'p> Holding<'p> {
    fn new(part: Option<(&'p Stage, usize)>) -> Self {
        Holding {
            part,
            mask: part.and_then(|(st, key)| st.rows(key)),
            next: 0,
        }
    }

    /// The next row that holds; `cond` gives a row's condition.
    #[inline]
    fn next<'e>(
        &mut self,
        cx: &mut Cx<'_>,
        cond: impl Fn(usize) -> Option<&'e Expr>,
    ) -> Result<Option<usize>, RuntimeError> {
        if let Some(m) = &mut self.mask {
            if *m == 0 {
                return Ok(None);
            }
            let j = m.trailing_zeros() as usize;
            *m &= *m - 1;
            return Ok(Some(j));
        }
        while let Some(c) = cond(self.next) {
            let j = self.next;
            self.next += 1;
            if holds(cx, self.part, j, c)? {
                return Ok(Some(j));
            }
        }
        Ok(None)
    }
}

/// Appends the rows of a yaku or bonus stage that hold, per the stage's mode.
fn rows_that_hold(
    cx: &mut Cx<'_>,
    mut holding: Holding<'_>,
    mode: StageMode,
    rows: &[(u32, Expr, Expr)],
    out: &mut Lines,
) -> Result<(), RuntimeError> {
    // `largest`: the first of equally valuable rows wins, as in the table's order.
    let mut best: Option<(u32, i64)> = None;
    while let Some(j) = holding.next(cx, |j| rows.get(j).map(|r| &r.2))? {
        let (sym, value, _) = &rows[j];
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
    let n = def.params.len();
    // The parameters go straight into the table's frame (no list is built).
    crate::pattern::with_frame((def.frame as usize).max(n), |locals| {
        for (i, (name, _, default)) in def.params.iter().enumerate() {
            locals[i] = match (args.get(i).cloned().flatten(), default) {
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
        let Ok(pre) = prepare(p, def, &locals[..n]) else {
            return Ok(nothing());
        };
        let pre = pre.as_ref();
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
