//! A table's stages run over one split (or once, for a table without a pattern): the
//! yaku, cancellations, factors, names and bonuses that hold, into a [`Tally`].

use super::tally::{saturating_sum, Lines, Tally};
use super::Stage;
use crate::engine::{Cx, RuntimeError};
use crate::ir::{Expr, ScoreDef, StageDef, StageMode};
use crate::value::Value;

/// Runs the stages of a table in order with the groups (if any) already in view,
/// into `t` (cleared first).
pub(super) fn stages<'d>(
    cx: &mut Cx<'_>,
    def: &'d ScoreDef,
    t: &mut Tally<'d>,
) -> Result<(), RuntimeError> {
    t.clear();
    set(cx, def.factor_slot, Value::Int(1));
    set(cx, def.yaku_slot, Value::Unit);
    set(cx, def.base_slot, Value::Int(0));
    // `base` is summed once, as the first later stage starts: the yaku and void stages
    // come first (`compile/score.rs` orders them so).
    let mut summed = false;
    // Each stage's answers, under the key its inputs give as it starts (the split's
    // classes, parameters, `yaku` and `factor` so far).
    let classes = def.plan.as_ref().map(|pl| pl.classes(cx.groups));
    let settled = |cx: &Cx<'_>, si: usize| {
        let st = def.plan.as_ref()?.stage(si)?;
        let k = st.key(classes.as_ref()?, cx.locals)?;
        Some((st, k))
    };
    for (si, st) in def.stages.iter().enumerate() {
        if !summed && !matches!(st, StageDef::Yaku(..) | StageDef::Void(..)) {
            summed = true;
            set(
                cx,
                def.base_slot,
                Value::Int(saturating_sum(t.yaku.as_slice())),
            );
        }
        match st {
            StageDef::Yaku(mode, rows) => {
                let holding = Holding::new(settled(cx, si));
                rows_that_hold(cx, holding, *mode, rows, &mut t.yaku)?;
                set(cx, def.yaku_slot, first_yaku(t));
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
                set(cx, def.yaku_slot, first_yaku(t));
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

/// Sets local `slot` (if the frame has it) to `v`.
#[inline]
fn set(cx: &mut Cx<'_>, slot: u16, v: Value) {
    if let Some(s) = cx.locals.get_mut(slot as usize) {
        *s = v;
    }
}

/// The value of `yaku` in later stages: the first yaku held, or unset when none is.
fn first_yaku(t: &Tally<'_>) -> Value {
    t.yaku
        .first()
        .map(|(s, _)| Value::Sym(s))
        .unwrap_or(Value::Unit)
}

/// Whether row `j` of a stage holds: looked up when the stage's key settles it, what is
/// left of it answered otherwise.
#[inline]
fn holds(
    cx: &mut Cx<'_>,
    part: Option<(&Stage, usize)>,
    j: usize,
    cond: &Expr,
) -> Result<bool, RuntimeError> {
    match part {
        Some((st, key)) => st.holds(cx, j, key, cond),
        None => cx.eval_bool(cond),
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
