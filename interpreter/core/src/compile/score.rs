//! Compiling score tables (yaku, factors, names, bonuses, voids), and the order in
//! which patterns and tables are compiled (patterns themselves: `pattern.rs`).

use std::collections::BTreeSet;

use fuda_grammar::ast::{self, Item, NameOrTemplate, Stage};

use super::expr::Scope;
use super::{Compiler, Global};
use crate::diagnostic::Diagnostic;
use crate::ir::{Loc, NameDef, ScoreDef, SlotDef, StageDef};
use crate::value::{SymDomain, Type};

pub(super) fn compile_patterns_and_scores(c: &mut Compiler, items: &[(u16, Item)]) {
    for (file, item) in items {
        if let Item::Pattern(p) = item {
            if p.alternatives.is_empty() {
                super::pattern::pattern(c, *file, p);
            }
        }
    }
    // `pattern NAME = A | B`: once the patterns it names have their groups.
    let unions: Vec<&str> = items
        .iter()
        .filter_map(|(_, i)| match i {
            Item::Pattern(p) if !p.alternatives.is_empty() => Some(p.name.node.as_str()),
            _ => None,
        })
        .collect();
    for (file, item) in items {
        if let Item::Pattern(p) = item {
            if !p.alternatives.is_empty() {
                super::alternatives::union(c, *file, p, &unions);
            }
        }
    }
    // Yaku names become symbols before any table is compiled, so `yaku == 上五光`
    // resolves in every table.
    for (_, item) in items {
        if let Item::Score(s) = item {
            for st in &s.stages {
                let rows: Vec<&ast::Ident> = match st {
                    Stage::Yaku(_, rows, _) | Stage::Plus(_, rows, _) => {
                        rows.iter().map(|r| &r.name).collect()
                    }
                    Stage::Name(rows, _) => rows
                        .iter()
                        .filter_map(|r| {
                            if let NameOrTemplate::Name(n) = &r.name {
                                Some(n)
                            } else {
                                None
                            }
                        })
                        .collect(),
                    _ => vec![],
                };
                let paid = matches!(st, Stage::Yaku(..) | Stage::Plus(..));
                for n in rows {
                    let s = c.intern(&n.node);
                    c.sym_type.entry(s).or_insert(Type::Sym(SymDomain::Yaku));
                    if paid {
                        c.row_names.insert(n.node.clone(), s);
                    }
                }
            }
        }
    }
    for (file, item) in items {
        if let Item::Score(s) = item {
            score(c, *file, s);
        }
    }
}

/// The scope of expressions over a pattern's groups: each group's name bound to its
/// slots (a group of several copies, `面子*4`, to all of them).
pub(super) fn group_scope(file: u16, slots: &[SlotDef], context: &'static str) -> Scope {
    let mut sc = Scope::pure(file, context);
    let mut i = 0;
    while i < slots.len() {
        let n = slots[i..]
            .iter()
            .take_while(|s| s.name == slots[i].name)
            .count();
        sc.groups.push((slots[i].name.clone(), i as u16, n as u16));
        i += n;
    }
    sc
}

fn score(c: &mut Compiler, file: u16, s: &ast::ScoreDecl) {
    let Some((Global::Score(ix), _)) = c.globals.get(&s.name.node).cloned() else {
        return;
    };
    let at = |span| Loc { file, span };
    if s.params.is_empty() && s.over.is_none() {
        c.error(
            Diagnostic::error("fuda::score-edit-without-base", format!("score `{}` has no parameters and no base table to edit", s.name.node), at(s.name.span), "no parameter list")
                .with_help(format!("declare it with parameters, e.g. `score {}(hand: cards) {{ … }}`; a variant may edit a base table with `score NAME {{ … }}`", s.name.node)),
        );
    }
    let sig = c.score_sigs[ix as usize].clone();
    let mut over = None;
    let mut formed = None;
    let mut shape_slot = None;
    let mut sc = Scope::pure(file, "a score table");
    for (n, t, ..) in &sig {
        sc.bind(n, t.clone());
    }
    if let Some(o) = &s.over {
        match c.globals.get(&o.pattern.node).cloned() {
            Some((Global::Pattern(p), _)) => {
                let arg = c.expr_of(&mut sc, &o.arg, &Type::Cards);
                formed = o
                    .exposed
                    .as_ref()
                    .map(|f| c.formed_arg(&mut sc, &o.pattern.node, f));
                over = Some((p, arg, o.best));
                let pd = &c.program.patterns[p as usize];
                let slots = pd.slots.clone();
                let gs = group_scope(file, &slots, "a score table");
                sc.groups = gs.groups;
                // Over alternatives, `shape` names the one that held; each reads as text.
                let shapes: Vec<String> = pd
                    .alternatives
                    .iter()
                    .filter_map(|a| c.program.patterns.get(a.pattern as usize))
                    .map(|q| q.name.clone())
                    .collect();
                if pd.is_union() && sc.local("shape").is_none() {
                    shape_slot = Some(sc.bind("shape", Type::Str));
                    sc.shapes = shapes;
                }
            }
            _ => {
                c.unknown_name(&sc, &o.pattern.node, o.pattern.span, "pattern");
                // The rows name the pattern's groups: without it they would all be
                // reported as unknown too.
                sc.quiet_unknown = true;
            }
        }
    }
    let yaku_slot = sc.bind("", Type::Error);
    let factor_slot = sc.bind("", Type::Error);
    let base_slot = sc.bind("", Type::Error);
    sc.score = Some((yaku_slot, factor_slot, base_slot));
    let mut stages = Vec::new();
    let mut seen_yaku = false;
    // A variant's `score NAME { … }` puts its stages into the base's table: each stage
    // is compiled in the file it was written in.
    let files = c
        .stage_files
        .get(&s.name.node)
        .filter(|f| f.len() == s.stages.len())
        .cloned()
        .unwrap_or_else(|| vec![file; s.stages.len()]);
    for (st, &sfile) in s.stages.iter().zip(&files) {
        sc.file = sfile;
        let at = |span| Loc { file: sfile, span };
        match st {
            Stage::Yaku(mode, rows, _) | Stage::Plus(mode, rows, _) => {
                let mut out = Vec::new();
                for r in rows {
                    let sym = c.intern(&r.name.node);
                    let v = c.expr_of(&mut sc, &r.value, &Type::Int);
                    let w = c.expr_of(&mut sc, &r.when, &Type::Bool);
                    push_row(&mut out, sym, v, w);
                }
                if matches!(st, Stage::Yaku(..)) {
                    seen_yaku = true;
                    stages.push(StageDef::Yaku(*mode, out));
                } else {
                    stages.push(StageDef::Plus(*mode, out));
                }
            }
            Stage::Times(mode, rows, _) => {
                let mut out = Vec::new();
                for r in rows {
                    let f = c.expr_of(&mut sc, &r.factor, &Type::Int);
                    let w = c.expr_of(&mut sc, &r.when, &Type::Bool);
                    out.push((f, w));
                }
                stages.push(StageDef::Times(*mode, out));
            }
            Stage::Name(rows, _) => {
                let mut out = Vec::new();
                for r in rows {
                    let n = match &r.name {
                        NameOrTemplate::Name(n) => NameDef::Fixed(c.intern(&n.node)),
                        NameOrTemplate::Template(t) => {
                            check_template(c, sfile, t);
                            NameDef::Template(t.node.clone())
                        }
                    };
                    let w = c.expr_of(&mut sc, &r.when, &Type::Bool);
                    out.push((n, w));
                }
                stages.push(StageDef::Name(out));
            }
            Stage::Void(rows, span) => {
                if !seen_yaku {
                    let start = span.start as usize;
                    c.error(
                        Diagnostic::error(
                            "fuda::void-before-yaku",
                            "a `void` stage must come after a `yaku` stage",
                            at(fuda_grammar::Span::new(start, start + "void".len())),
                            "nothing to void yet",
                        )
                        .with_help("move this stage below the `yaku` stage whose rows it cancels"),
                    );
                }
                let mut out = Vec::new();
                for r in rows {
                    let sym = c.intern(&r.name.node);
                    let w = c.expr_of(&mut sc, &r.when, &Type::Bool);
                    out.push((sym, w));
                }
                stages.push(StageDef::Void(out));
            }
        }
    }
    sc.file = file;
    // The yaku and their cancellations are settled before any factor, name or bonus
    // (each kind in the order written): a `times` stage multiplies every yaku of the
    // table, also one from a `yaku` stage written after it, as a variant's added stage
    // is. Run in the order written, a factor would be skipped or not depending on whether
    // an earlier stage's yaku happened to hold.
    warn_factor_before_yaku(c, &stages, (factor_slot, base_slot), s, &files);
    warn_duplicate_yaku(c, &stages, (yaku_slot, factor_slot), s, &files);
    let (mut first, rest): (Vec<StageDef>, Vec<StageDef>) = stages
        .into_iter()
        .partition(|st| matches!(st, StageDef::Yaku(..) | StageDef::Void(..)));
    first.extend(rest);
    let mut stages = first;
    if !seen_yaku {
        c.error(
            Diagnostic::error(
                "fuda::no-yaku",
                format!("score `{}` has no `yaku` stage", s.name.node),
                at(s.name.span),
                "nothing to score",
            )
            .with_help("add `yaku first { NAME VALUE when CONDITION }`"),
        );
    }
    let params = sig.iter().map(|(n, t, d, f)| {
        let def = d.as_ref().map(|d| {
            let mut dsc = Scope::pure(*f, "a default value");
            c.expr_of(&mut dsc, d, t)
        });
        (n.clone(), t.clone(), def)
    });
    let params: Vec<_> = params.collect();
    c.check_slots(
        &sc,
        Loc {
            file,
            span: s.name.span,
        },
    );
    // Evaluated for every split: rewritten into loop-free forms (score/rewrite.rs), and
    // the rows settled by the pattern's groups' classes, the few-valued parameters and
    // `yaku` tabulated (score/plan.rs).
    let optimize = crate::score::optimizing();
    let card_params: Vec<u16> = (0..params.len() as u16)
        .filter(|i| params[*i as usize].1 == Type::Cards)
        .collect();
    for st in stages.iter_mut().filter(|_| optimize) {
        for e in stage_exprs(st) {
            crate::score::simplify(&c.program, e, &card_params);
        }
    }
    // A table over alternatives reads groups that are empty in all shapes but one: it
    // is evaluated as written.
    let union = over
        .as_ref()
        .is_some_and(|(p, ..)| c.program.patterns[*p as usize].is_union());
    // So is one whose splits must keep formed groups whole: its hand alone says little.
    let plan = (optimize && !union && formed.is_none())
        .then(|| {
            let conds: Vec<&crate::ir::Expr> = stages.iter().flat_map(stage_conditions).collect();
            // A table without a pattern has no groups; its parameters may still settle.
            let slots = match &over {
                Some((pat, ..)) => c.program.patterns[*pat as usize].slots.as_slice(),
                None => &[],
            };
            let locals = few_valued(c, &params, &stages, (yaku_slot, factor_slot));
            let runs: Vec<usize> = stages.iter().map(|st| stage_conditions(st).len()).collect();
            crate::score::Plan::build(&c.program, slots, &locals, &conds, &runs)
        })
        .flatten();
    // As for patterns: only the slots still in use after the rewrites, with the
    // parameters, `yaku` and `factor`.
    let used = stages
        .iter_mut()
        .flat_map(stage_exprs)
        .map(|e| crate::score::slots_used(e))
        .chain([
            params.len(),
            yaku_slot as usize + 1,
            factor_slot as usize + 1,
            shape_slot.map_or(0, |s| s as usize + 1),
        ])
        .max()
        .filter(|_| optimize)
        .unwrap_or(sc.max as usize);
    let def = ScoreDef {
        name: s.name.node.clone(),
        params,
        over,
        formed,
        stages,
        frame: sc.max.min(used as u16),
        yaku_slot,
        factor_slot,
        shape_slot,
        base_slot,
        plan,
        by_counts: None,
        loc: at(s.name.span),
    };
    while c.program.scores.len() <= ix as usize {
        c.program.scores.push(ScoreDef {
            name: String::new(),
            params: vec![],
            over: None,
            formed: None,
            stages: vec![],
            frame: 0,
            yaku_slot: 0,
            factor_slot: 0,
            shape_slot: None,
            base_slot: 0,
            plan: None,
            by_counts: None,
            loc: Loc::default(),
        });
    }
    c.program.scores[ix as usize] = def;
}

/// Warns at each `yaku` or `void` row that reads `factor` or `base`: those stages run
/// before every `times` stage and before the base is summed, so `factor` is 1 and
/// `base` 0 there, wherever the stage is written.
fn warn_factor_before_yaku(
    c: &mut Compiler,
    stages: &[StageDef],
    (factor_slot, base_slot): (u16, u16),
    s: &ast::ScoreDecl,
    files: &[u16],
) {
    fn reads(e: &crate::ir::Expr, slot: u16) -> bool {
        if matches!(e, crate::ir::Expr::Local(l) if *l == slot) {
            return true;
        }
        let mut found = false;
        e.children(|x| found = found || reads(x, slot));
        found
    }
    for (slot, name, value) in [(factor_slot, "factor", 1), (base_slot, "base", 0)] {
        for ((st, ast_st), &file) in stages.iter().zip(&s.stages).zip(files) {
            let rows: Vec<(fuda_grammar::Span, bool)> = match (st, ast_st) {
                (StageDef::Yaku(_, rows), Stage::Yaku(_, ast_rows, _)) => rows
                    .iter()
                    .zip(ast_rows)
                    .map(|(r, a)| (a.span, reads(&r.1, slot) || reads(&r.2, slot)))
                    .collect(),
                (StageDef::Void(rows), Stage::Void(ast_rows, _)) => rows
                    .iter()
                    .zip(ast_rows)
                    .map(|(r, a)| (a.span, reads(&r.1, slot)))
                    .collect(),
                _ => continue,
            };
            for (span, _) in rows.into_iter().filter(|r| r.1) {
                c.error(
                    Diagnostic::error(
                        if name == "factor" {
                            "fuda::factor-in-yaku"
                        } else {
                            "fuda::base-in-yaku"
                        },
                        format!("`{name}` is always {value} in a `yaku` or `void` stage"),
                        Loc { file, span },
                        format!("reads `{name}`"),
                    )
                    .with_help(format!(
                        "yaku and void stages run before every `times` stage; test the {name} in a `times`, `name` or `plus` stage"
                    ))
                    .warning(),
                );
            }
        }
    }
}

/// Most rows one written row becomes when its value is split by [`push_row`].
const MOST_SPLIT_ROWS: usize = 16;

/// Adds a yaku or bonus row to a stage, splitting a value that depends on the case
/// (`福当たり (if as_dealt then 12 else 10) when …`) into one row per case, each with a
/// constant value: `12 when … and as_dealt`, then `10 when … and not as_dealt`. The
/// cases exclude each other and keep their order, so every stage mode pays what the one
/// row did; the tables' fast paths (guards answered from card counts, the register
/// machine) then see constant values, as they would in rows written one per case. A
/// value with more than [`MOST_SPLIT_ROWS`] cases stays one row.
fn push_row(
    out: &mut Vec<(u32, crate::ir::Expr, crate::ir::Expr)>,
    sym: u32,
    v: crate::ir::Expr,
    w: crate::ir::Expr,
) {
    use crate::ir::Expr;
    fn cases(v: &Expr) -> usize {
        match v {
            Expr::If(_, a, b) => cases(a) + cases(b),
            _ => 1,
        }
    }
    fn split(out: &mut Vec<(u32, Expr, Expr)>, sym: u32, v: Expr, w: Expr) {
        match v {
            Expr::If(c, a, b) => {
                let not_c = Expr::Not(c.clone());
                split(out, sym, *a, Expr::And(Box::new(w.clone()), c));
                split(out, sym, *b, Expr::And(Box::new(w), Box::new(not_c)));
            }
            v => out.push((sym, v, w)),
        }
    }
    if cases(&v) <= MOST_SPLIT_ROWS {
        split(out, sym, v, w);
    } else {
        out.push((sym, v, w));
    }
}

/// Two rows of one name that can both hold pay the yaku twice (`株シマ・株シマ`): most
/// often a variant's added stage meant to re-value a base's row. Rows of one `first` or
/// `largest` stage are alternatives (one value or another, by condition), never both;
/// nor are rows whose conditions plainly exclude each other ([`exclusive`]), such as
/// `count(h) == 3` and `count(h) == 4`. Other pairs may both hold, as far as the
/// checker can tell: the warning says they may be paid twice.
fn warn_duplicate_yaku(
    c: &mut Compiler,
    stages: &[StageDef],
    slots: (u16, u16),
    s: &ast::ScoreDecl,
    files: &[u16],
) {
    let mut seen: Vec<(&str, usize, Loc, Option<&crate::ir::Expr>)> = Vec::new();
    // (stage, name) pairs already warned of as paid twice: not warned of again.
    let mut paid_twice: BTreeSet<(usize, &str)> = BTreeSet::new();
    for (i, (st, &file)) in s.stages.iter().zip(files).enumerate() {
        let Stage::Yaku(mode, rows, _) = st else {
            continue;
        };
        // The compiled conditions, row by row (none if the stage did not compile as
        // one of yaku rows).
        let conds: Vec<Option<&crate::ir::Expr>> = match stages.get(i) {
            Some(StageDef::Yaku(_, compiled)) if compiled.len() == rows.len() => {
                compiled.iter().map(|r| Some(&r.2)).collect()
            }
            _ => vec![None; rows.len()],
        };
        for (r, &cond) in rows.iter().zip(&conds) {
            let at = Loc {
                file,
                span: r.name.span,
            };
            let earlier = seen.iter().find(|(n, j, _, other)| {
                *n == r.name.node
                    && (*j != i || *mode == ast::StageMode::All)
                    && !matches!((cond, other), (Some(a), Some(b)) if exclusive(a, b, slots))
            });
            if let Some(&(_, j, first, _)) = earlier {
                let table = &s.name.node;
                let help = match (&s.stage_names[j], first.file != file) {
                    (Some(name), true) => format!(
                        "to change its value, replace that stage by its name, with the row edited: `score {table} {{ yaku {} {} {{ … }} }}`",
                        name.node,
                        match &s.stages[j] {
                            Stage::Yaku(ast::StageMode::First, ..) => "first",
                            Stage::Yaku(ast::StageMode::Largest, ..) => "largest",
                            _ => "all",
                        }
                    ),
                    (None, true) => format!(
                        "that stage is unnamed, so a variant cannot replace it: to change the row, redeclare the whole table (`score {table}(…) {{ … }}`)"
                    ),
                    _ => "give one of them another name, or put both in one `first` or `largest` stage so that only one is paid".to_string(),
                };
                c.error(
                    Diagnostic::error(
                        "fuda::duplicate-yaku",
                        format!(
                            "`{}` is already a yaku of score `{table}`: it may be paid twice, when both rows hold",
                            r.name.node
                        ),
                        at,
                        "again here",
                    )
                    .with_label(first, "a yaku here already")
                    .with_help(help)
                    .warning(),
                );
                paid_twice.insert((i, &r.name.node));
            }
            seen.push((&r.name.node, i, at, cond));
        }
    }
    for (i, (st, &file)) in s.stages.iter().zip(files).enumerate() {
        // Bonus rows are never paid twice as yaku are, but one name with two values
        // hides the cases just as well.
        let (Stage::Yaku(_, rows, _) | Stage::Plus(_, rows, _)) = st else {
            continue;
        };
        let mut names: Vec<&str> = rows.iter().map(|r| r.name.node.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        for name in names {
            if !paid_twice.contains(&(i, name)) {
                let same: Vec<&ast::YakuRow> =
                    rows.iter().filter(|r| r.name.node == name).collect();
                warn_values(c, s, file, &same);
            }
        }
    }
}

/// Rows of one stage that give one yaku different values (`福当たり 12 when …` and
/// `福当たり 10 when …`): whichever holds, the report shows one yaku, so a reader cannot
/// tell the cases apart, and a copied row left with its old value goes unseen. One row
/// whose value depends on the case says both plainly. `rows` are the stage's rows of one
/// name; one warning, at the first row with another value, labels each.
fn warn_values(c: &mut Compiler, s: &ast::ScoreDecl, file: u16, rows: &[&ast::YakuRow]) {
    let values: Vec<String> = rows
        .iter()
        .map(|r| c.source_text(file, r.value.span).unwrap_or_default())
        .collect();
    let Some(second) = values.iter().position(|v| *v != values[0]) else {
        return;
    };
    let mut distinct: Vec<&str> = Vec::new();
    for v in &values {
        if !distinct.contains(&v.as_str()) {
            distinct.push(v);
        }
    }
    let listed = match distinct.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => distinct.join(""),
    };
    let name = &rows[0].name.node;
    let at = |r: &ast::YakuRow| Loc {
        file,
        span: r.name.span,
    };
    let mut d = Diagnostic::error(
        "fuda::yaku-two-values",
        format!(
            "`{name}` has {} values in one stage of score `{}`: {listed}",
            distinct.len(),
            s.name.node
        ),
        at(rows[second]),
        format!("worth {} here", values[second]),
    );
    for (k, r) in rows.iter().enumerate() {
        if k != second {
            d = d.with_label(at(r), format!("worth {} here", values[k]));
        }
    }
    let (last, rest) = distinct.split_last().expect("two values at least");
    let cases: String = rest
        .iter()
        .map(|v| format!("if … then {v} else "))
        .collect();
    c.error(
        d.with_help(format!(
            "to let a yaku's value depend on the case, write one row: \
             `{name} ({cases}{last}) when …`; if they are different yaku, give each its own name"
        ))
        .warning(),
    );
}

/// Whether two conditions plainly cannot both hold: each condition's conjuncts (the
/// whole condition, or the parts of its `and`s) that test one expression against
/// constants — `==`, `in [..]` of constants, and the int comparisons `<`, `<=`, `>`,
/// `>=` — say which values they allow it, and for some expression tested in both the
/// two allow nothing in common (`count(h) == 3` and `count(h) == 4`, `x >= 5` and
/// `x == 3`, `x < 2` and `x > 4`, `x in [1, 2]` and `x in [3, 4]`). An expression
/// reading the table's `yaku` or `factor` (`slots`) is left out: those change from stage
/// to stage.
fn exclusive(a: &crate::ir::Expr, b: &crate::ir::Expr, slots: (u16, u16)) -> bool {
    use crate::ir::Expr;
    fn reads(e: &Expr, (yaku, factor): (u16, u16)) -> bool {
        if matches!(e, Expr::Local(l) if *l == yaku || *l == factor) {
            return true;
        }
        let mut found = false;
        e.children(|x| found = found || reads(x, (yaku, factor)));
        found
    }
    let (xs, ys) = (allowed(a), allowed(b));
    xs.iter().any(|(x, ax)| {
        ys.iter()
            .any(|(y, ay)| x.same_as(y) && ax.meet(ay).is_empty() && !reads(x, slots))
    })
}

/// The values a row's conjuncts allow an expression, as far as [`exclusive`] reads them.
#[derive(Clone, Debug, PartialEq)]
enum Allowed {
    /// One of these values (`==` a constant, `in` a list of constants).
    Values(Vec<crate::value::Value>),
    /// An int from the first to the second, both included (`<`, `<=`, `>`, `>=` a
    /// constant; the unbounded side at `i64`'s end).
    Ints(i64, i64),
}

impl Allowed {
    /// What both allow. Values of different kinds are never compared (a seat and an
    /// int may print alike): such a value is kept, so that nothing is called
    /// exclusive that the checker cannot tell apart.
    fn meet(&self, other: &Allowed) -> Allowed {
        use crate::value::Value;
        let kept = |v: &Value, vs: &[Value]| {
            vs.iter()
                .any(|w| v == w || std::mem::discriminant(v) != std::mem::discriminant(w))
        };
        match (self, other) {
            (Allowed::Ints(a, b), Allowed::Ints(c, d)) => Allowed::Ints(*a.max(c), *b.min(d)),
            (Allowed::Values(vs), Allowed::Ints(lo, hi))
            | (Allowed::Ints(lo, hi), Allowed::Values(vs)) => Allowed::Values(
                vs.iter()
                    .filter(|v| !matches!(v, Value::Int(k) if !(lo..=hi).contains(&k)))
                    .cloned()
                    .collect(),
            ),
            (Allowed::Values(a), Allowed::Values(b)) => {
                Allowed::Values(a.iter().filter(|v| kept(v, b)).cloned().collect())
            }
        }
    }

    fn is_empty(&self) -> bool {
        match self {
            Allowed::Values(vs) => vs.is_empty(),
            Allowed::Ints(lo, hi) => lo > hi,
        }
    }
}

/// Each expression a condition's conjuncts test against constants, with what they
/// allow it together (`x >= 2 and x <= 4` allows 2 to 4): one entry per expression.
fn allowed(cond: &crate::ir::Expr) -> Vec<(&crate::ir::Expr, Allowed)> {
    use crate::ir::{Expr, Op2};
    use crate::value::Value;
    // A constant, a negative int (`-3`, if kept as a negation) included.
    fn constant(e: &Expr) -> Option<Value> {
        match e {
            Expr::Const(v) => Some(v.clone()),
            Expr::Neg(x) => match &**x {
                Expr::Const(Value::Int(k)) => k.checked_neg().map(Value::Int),
                _ => None,
            },
            _ => None,
        }
    }
    // `x OP k` (either way round) as `x` and what it allows.
    fn test(e: &Expr) -> Option<(&Expr, Allowed)> {
        let Expr::Bin(op, l, r) = e else {
            return None;
        };
        let (x, k, flipped) = match (constant(l), constant(r)) {
            (None, Some(k)) => (&**l, k, false),
            (Some(k), None) => (&**r, k, true),
            _ => {
                // `x in [k, …]`: the list is no constant as a whole when written out.
                let Expr::List(items) = &**r else {
                    return None;
                };
                if *op != Op2::In {
                    return None;
                }
                let vs: Option<Vec<Value>> = items.iter().map(constant).collect();
                return Some((&**l, Allowed::Values(vs?)));
            }
        };
        let int = |k: &Value| match k {
            Value::Int(k) => Some(*k),
            _ => None,
        };
        // `k < x` is `x > k`.
        let op = match (op, flipped) {
            (Op2::Lt, true) => Op2::Gt,
            (Op2::Le, true) => Op2::Ge,
            (Op2::Gt, true) => Op2::Lt,
            (Op2::Ge, true) => Op2::Le,
            (op, _) => *op,
        };
        let allows = match op {
            Op2::Eq | Op2::EqScalar => Allowed::Values(vec![k]),
            Op2::In if !flipped => match k {
                Value::List(vs) => Allowed::Values(vs.to_vec()),
                _ => return None,
            },
            Op2::Lt => Allowed::Ints(i64::MIN, int(&k)?.checked_sub(1)?),
            Op2::Le => Allowed::Ints(i64::MIN, int(&k)?),
            Op2::Gt => Allowed::Ints(int(&k)?.checked_add(1)?, i64::MAX),
            Op2::Ge => Allowed::Ints(int(&k)?, i64::MAX),
            _ => return None,
        };
        Some((x, allows))
    }
    let parts = cond.and_leaves();
    let mut out: Vec<(&Expr, Allowed)> = Vec::new();
    for (x, allows) in parts.into_iter().filter_map(test) {
        match out.iter_mut().find(|(y, _)| x.same_as(y)) {
            Some((_, before)) => *before = before.meet(&allows),
            None => out.push((x, allows)),
        }
    }
    out
}

/// Every expression of a stage (values, factors and conditions).
pub(super) fn stage_exprs(st: &mut StageDef) -> Vec<&mut crate::ir::Expr> {
    match st {
        StageDef::Yaku(_, rows) | StageDef::Plus(_, rows) => {
            rows.iter_mut().flat_map(|r| [&mut r.1, &mut r.2]).collect()
        }
        StageDef::Times(_, rows) => rows.iter_mut().flat_map(|r| [&mut r.0, &mut r.1]).collect(),
        StageDef::Name(rows) => rows.iter_mut().map(|r| &mut r.1).collect(),
        StageDef::Void(rows) => rows.iter_mut().map(|r| &mut r.1).collect(),
    }
}

/// The local slots of a table that hold one of a few values, with those values: `bool`
/// and enum parameters, `yaku` (none, or one of the table's yaku names), and `factor`
/// when its rows multiply by constants.
fn few_valued(
    c: &Compiler,
    params: &[(String, Type, Option<crate::ir::Expr>)],
    stages: &[StageDef],
    (yaku_slot, factor_slot): (u16, u16),
) -> Vec<(u16, Vec<crate::value::Value>)> {
    use crate::value::Value;
    let mut out = Vec::new();
    for (i, (_, t, _)) in params.iter().enumerate() {
        let values = match t {
            Type::Bool => vec![Value::Bool(false), Value::Bool(true)],
            Type::Sym(SymDomain::Enum(e)) => match c.program.enums.get(*e as usize) {
                Some(en) => en.values.iter().map(|(s, _)| Value::Sym(*s)).collect(),
                None => continue,
            },
            _ => continue,
        };
        out.push((i as u16, values));
    }
    let mut yaku = vec![Value::Unit];
    for st in stages {
        if let StageDef::Yaku(_, rows) = st {
            for (sym, ..) in rows {
                if !yaku.contains(&Value::Sym(*sym)) {
                    yaku.push(Value::Sym(*sym));
                }
            }
        }
    }
    out.push((yaku_slot, yaku));
    if let Some(f) = factors(stages) {
        out.push((factor_slot, f.into_iter().map(Value::Int).collect()));
    }
    out
}

/// Every value `factor` can take when each `times` row multiplies by a constant (it
/// starts at 1, and each stage multiplies by its rows' factors as its mode says); `None`
/// when a factor is computed or there are too many.
fn factors(stages: &[StageDef]) -> Option<Vec<i64>> {
    const MOST: usize = 64;
    let mut values = vec![1i64];
    for st in stages {
        let StageDef::Times(mode, rows) = st else {
            continue;
        };
        let consts: Vec<i64> = rows
            .iter()
            .map(|(f, _)| match f {
                crate::ir::Expr::Const(crate::value::Value::Int(v)) => Some(*v),
                _ => None,
            })
            .collect::<Option<_>>()?;
        // What one stage may multiply by (1 when no row holds).
        let mut by = vec![1i64];
        if *mode == crate::ir::StageMode::All {
            if consts.len() > 6 {
                return None;
            }
            for subset in 1..(1usize << consts.len()) {
                let p = (0..consts.len())
                    .filter(|j| subset & (1 << j) != 0)
                    .fold(1i64, |a, j| a.saturating_mul(consts[j]));
                by.push(p);
            }
        } else {
            by.extend(&consts);
        }
        let mut next = Vec::new();
        for a in &values {
            for b in &by {
                let v = a.saturating_mul(*b);
                if !next.contains(&v) {
                    next.push(v);
                }
            }
        }
        if next.len() > MOST {
            return None;
        }
        values = next;
    }
    Some(values)
}

/// A stage's row conditions in order: the numbering [`crate::score::Plan`] answers by.
pub(crate) fn stage_conditions(st: &StageDef) -> Vec<&crate::ir::Expr> {
    match st {
        StageDef::Yaku(_, rows) | StageDef::Plus(_, rows) => rows.iter().map(|r| &r.2).collect(),
        StageDef::Times(_, rows) => rows.iter().map(|r| &r.1).collect(),
        StageDef::Name(rows) => rows.iter().map(|r| &r.1).collect(),
        StageDef::Void(rows) => rows.iter().map(|r| &r.1).collect(),
    }
}

fn check_template(c: &mut Compiler, file: u16, t: &ast::Spanned<String>) {
    // Byte offsets in the text map onto the source when nothing was escaped; otherwise
    // the whole string is labelled.
    let exact = t.span.len() == t.node.len() + 2;
    let at = |from: usize, to: usize| Loc {
        file,
        span: if exact {
            let base = t.span.start as usize + 1;
            fuda_grammar::Span::new(base + from, base + to)
        } else {
            t.span
        },
    };
    let text = t.node.as_str();
    let mut pos = 0;
    while let Some(open) = text[pos..].find('{').map(|o| o + pos) {
        let Some(close) = text[open + 1..].find('}').map(|c| c + open + 1) else {
            c.error(
                Diagnostic::error(
                    "fuda::bad-template",
                    "unclosed `{` in a name template",
                    at(open, open + 1),
                    "never closed",
                )
                .with_help("write `{yaku}` or `{factor}`"),
            );
            return;
        };
        let hole = &text[open + 1..close];
        if hole != "yaku" && hole != "factor" {
            let mut d = Diagnostic::error(
                "fuda::bad-template",
                format!("unknown hole `{{{hole}}}` in a name template"),
                at(open, close + 1),
                "unknown hole",
            );
            d = match super::closest_within(&mut c.suggest_budget, hole, ["yaku", "factor"]) {
                Some(s) => d.with_help(format!("did you mean `{{{s}}}`?")),
                None => d.with_help("templates may use {yaku} and {factor}"),
            };
            c.error(d);
        }
        pos = close + 1;
    }
}
