//! Score tables: yaku rows, factors, names and bonuses, evaluated over each split of a
//! pattern (keeping the most valuable) or once over the arguments.

use crate::engine::{Cx, RuntimeError};
use crate::ir::{NameDef, ScoreDef, StageDef, StageMode};
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
    let p = cx.p;
    let def = &p.scores[s as usize];
    let mut locals = args;
    locals.resize((def.frame as usize).max(locals.len()), Value::Unit);
    let mut inner = Cx {
        p,
        b: cx.b,
        locals: &mut locals,
        groups: &[],
        budget: cx.budget,
        at: cx.at,
    };
    let result = match &def.over {
        None => stages(&mut inner, def).map(|t| t.into_result(p)),
        Some((pat, arg, best)) => {
            let v = inner.eval(arg)?;
            let cards = inner.cards(&v)?;
            let pattern = &p.patterns[*pat as usize];
            let mut chosen: Option<(Tally, Vec<CardSet>)> = None;
            crate::pattern::for_each_match(&mut inner, pattern, cards, &mut |cx2, gs| {
                let mut m = Cx {
                    p: cx2.p,
                    b: cx2.b,
                    locals: &mut *cx2.locals,
                    groups: gs,
                    budget: cx2.budget,
                    at: cx2.at,
                };
                let r = stages(&mut m, def);
                cx2.budget = m.budget;
                let r = r?;
                // The first most valuable split wins; its text is built only once.
                if chosen
                    .as_ref()
                    .map(|(c, _)| r.total() > c.total())
                    .unwrap_or(true)
                {
                    chosen = Some((r, gs.to_vec()));
                }
                Ok(*best)
            })?;
            Ok(match chosen {
                Some((t, gs)) => {
                    let mut r = t.into_result(p);
                    r.groups = group_list(pattern, &gs);
                    r
                }
                None => ScoreResult {
                    factor: 1,
                    ..ScoreResult::default()
                },
            })
        }
    };
    cx.budget = inner.budget;
    result
}

fn group_list(pat: &crate::ir::PatternDef, gs: &[CardSet]) -> Vec<(String, Vec<u16>)> {
    pat.slots
        .iter()
        .zip(gs)
        .map(|(s, g)| (s.name.clone(), g.iter().collect()))
        .collect()
}

/// What the stages found for one split, as symbols and numbers: cheap to compare
/// across splits; turned into text only for the split that is kept.
struct Tally<'d> {
    yaku: Vec<(u32, i64)>,
    bonus: Vec<(u32, i64)>,
    factor: i64,
    name: Option<&'d NameDef>,
}

impl Tally<'_> {
    fn total(&self) -> i64 {
        if self.yaku.is_empty() {
            return 0;
        }
        let base = saturating_sum(&self.yaku);
        let extra = saturating_sum(&self.bonus);
        base.saturating_mul(self.factor).saturating_add(extra)
    }

    fn into_result(self, p: &crate::ir::Program) -> ScoreResult {
        let Tally {
            yaku,
            bonus,
            factor,
            name,
        } = self;
        let name = name.map(|n| match n {
            NameDef::Fixed(s) => p.sym(*s).to_string(),
            NameDef::Template(t) => {
                let y = yaku.first().map(|(s, _)| p.sym(*s)).unwrap_or("");
                t.replace("{yaku}", y)
                    .replace("{factor}", &factor.to_string())
            }
        });
        finish(p, yaku, bonus, factor, name)
    }
}

/// Runs the stages of a table in order with the groups (if any) already in view.
fn stages<'d>(cx: &mut Cx<'_>, def: &'d ScoreDef) -> Result<Tally<'d>, RuntimeError> {
    let mut yaku: Vec<(u32, i64)> = Vec::new();
    let mut bonus: Vec<(u32, i64)> = Vec::new();
    let mut factor: i64 = 1;
    let mut name: Option<&'d NameDef> = None;
    let set = |cx: &mut Cx<'_>, slot: u16, v: Value| {
        if let Some(s) = cx.locals.get_mut(slot as usize) {
            *s = v;
        }
    };
    set(cx, def.factor_slot, Value::Int(1));
    set(cx, def.yaku_slot, Value::Unit);
    for st in &def.stages {
        match st {
            StageDef::Yaku(mode, rows) => {
                let hits = rows_that_hold(cx, *mode, rows)?;
                yaku.extend(hits);
                let first = yaku
                    .first()
                    .map(|(s, _)| Value::Sym(*s))
                    .unwrap_or(Value::Unit);
                set(cx, def.yaku_slot, first);
            }
            StageDef::Void(rows) => {
                for (sym, cond) in rows {
                    if yaku.iter().any(|(s, _)| s == sym) && cx.eval(cond)?.truthy() {
                        yaku.retain(|(s, _)| s != sym);
                    }
                }
                let first = yaku
                    .first()
                    .map(|(s, _)| Value::Sym(*s))
                    .unwrap_or(Value::Unit);
                set(cx, def.yaku_slot, first);
            }
            StageDef::Times(mode, rows) => {
                if yaku.is_empty() {
                    continue;
                }
                let mut hits = Vec::new();
                for (f, cond) in rows {
                    if cx.eval(cond)?.truthy() {
                        hits.push(cx.eval(f)?.int());
                        if *mode == StageMode::First {
                            break;
                        }
                    }
                }
                let f = match mode {
                    StageMode::All => hits.iter().fold(1i64, |a, b| a.saturating_mul(*b)),
                    _ => hits.iter().copied().max().unwrap_or(1),
                };
                factor = factor.saturating_mul(f);
                set(cx, def.factor_slot, Value::Int(factor));
            }
            StageDef::Name(rows) => {
                if yaku.is_empty() || name.is_some() {
                    continue;
                }
                for (n, cond) in rows {
                    if cx.eval(cond)?.truthy() {
                        name = Some(n);
                        break;
                    }
                }
            }
            StageDef::Plus(mode, rows) => {
                if yaku.is_empty() {
                    continue;
                }
                let hits = rows_that_hold(cx, *mode, rows)?;
                bonus.extend(hits);
            }
        }
    }
    Ok(Tally {
        yaku,
        bonus,
        factor,
        name,
    })
}

/// The sum of the values, saturating (a table's values are the rule file's, untrusted).
fn saturating_sum(lines: &[(u32, i64)]) -> i64 {
    lines.iter().fold(0i64, |a, (_, v)| a.saturating_add(*v))
}

/// Builds the displayed result from what the stages found.
fn finish(
    p: &crate::ir::Program,
    yaku: Vec<(u32, i64)>,
    bonus: Vec<(u32, i64)>,
    factor: i64,
    name: Option<String>,
) -> ScoreResult {
    let base = saturating_sum(&yaku);
    let extra = saturating_sum(&bonus);
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

/// The rows of a yaku or bonus stage that hold, per the stage's mode.
fn rows_that_hold(
    cx: &mut Cx<'_>,
    mode: StageMode,
    rows: &[(u32, crate::ir::Expr, crate::ir::Expr)],
) -> Result<Vec<(u32, i64)>, RuntimeError> {
    let mut hits = Vec::new();
    for (sym, value, cond) in rows {
        if cx.eval(cond)?.truthy() {
            hits.push((*sym, cx.eval(value)?.int()));
            if mode == StageMode::First {
                break;
            }
        }
    }
    if mode == StageMode::Largest {
        // The first of equally valuable rows wins, as in the table's order.
        let first_best = hits
            .iter()
            .copied()
            .fold(None, |acc: Option<(u32, i64)>, h| match acc {
                Some(a) if a.1 >= h.1 => Some(a),
                _ => Some(h),
            });
        if let Some(best) = first_best {
            hits = vec![best];
        }
    }
    Ok(hits)
}

/// Scores outside a game (for `fuda score` and tests): `args` holds a value or `None`
/// (take the default) for each parameter of table `s`, in order.
pub fn score_with(
    p: &crate::ir::Program,
    s: u16,
    args: Vec<Option<Value>>,
) -> Result<ScoreResult, RuntimeError> {
    let def = &p.scores[s as usize];
    let mut vals = Vec::with_capacity(def.params.len());
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
        return Ok(ScoreResult {
            factor: 1,
            ..ScoreResult::default()
        });
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
