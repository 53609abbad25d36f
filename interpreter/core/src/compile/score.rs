//! Compiling patterns (groups, shapes, constraints) and score tables (yaku, factors,
//! names, bonuses, voids).

use std::collections::BTreeSet;

use fuda_grammar::ast::{self, Item, NameOrTemplate, Shape, Stage};

use super::expr::Scope;
use super::{Compiler, Global};
use crate::diagnostic::Diagnostic;
use crate::ir::{Loc, NameDef, ScoreDef, ShapeDef, SlotDef, StageDef};
use crate::model::CardSet;
use crate::value::{SymDomain, Type};

/// Most cards a pattern may split (bounds the matcher's search).
const MAX_PATTERN_CARDS: i64 = 32;

pub(super) fn compile_patterns_and_scores(c: &mut Compiler, items: &[(u16, Item)]) {
    for (file, item) in items {
        if let Item::Pattern(p) = item {
            if p.alternatives.is_empty() {
                pattern(c, *file, p);
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

fn group_scope(file: u16, slots: &[SlotDef], context: &'static str) -> Scope {
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

fn pattern(c: &mut Compiler, file: u16, p: &ast::PatternDecl) {
    let Some((Global::Pattern(ix), _)) = c.globals.get(&p.name.node).cloned() else {
        return;
    };
    let at = |span| Loc { file, span };
    let mut slots = Vec::new();
    let mut total = 0i64;
    for g in &p.groups {
        let count = g.count.as_ref().map(|c| c.node).unwrap_or(1);
        if !(1..=MAX_PATTERN_CARDS).contains(&g.size.node) {
            c.error(
                Diagnostic::error(
                    "fuda::bad-group",
                    format!(
                        "a group takes 1 to {MAX_PATTERN_CARDS} cards, not {}",
                        g.size.node
                    ),
                    at(g.size.span),
                    "group size",
                )
                .with_help("split the cards into several groups"),
            );
            continue;
        }
        if !(1..=16).contains(&count) {
            c.error(Diagnostic::error(
                "fuda::bad-group",
                format!("a group repeats 1 to 16 times, not {count}"),
                at(g.count.as_ref().map(|c| c.span).unwrap_or(g.span)),
                "repeat count",
            ));
            continue;
        }
        if let Some(first) = p
            .groups
            .iter()
            .take_while(|o| !std::ptr::eq(*o, g))
            .find(|o| o.name.node == g.name.node)
        {
            c.error(
                Diagnostic::error(
                    "fuda::duplicate-name",
                    format!("group `{}` is declared twice", g.name.node),
                    at(g.name.span),
                    "again here",
                )
                .with_label(at(first.name.span), "first declared here")
                .with_help("give each group its own name; `group NAME *2: …` repeats one"),
            );
            continue;
        }
        let mut shapes = Vec::new();
        for s in &g.shapes {
            let attr = |c: &mut Compiler, id: &ast::Ident| -> Option<u16> {
                let a = c.program.deck.attr_named(&id.node);
                if a.is_none() {
                    c.unknown_attribute(&id.node, at(id.span), "unknown attribute");
                }
                a
            };
            match &s.node {
                Shape::Same(a) => {
                    if let Some(a) = attr(c, a) {
                        shapes.push(ShapeDef::Same(a));
                    }
                }
                Shape::Distinct(a) => {
                    if let Some(a) = attr(c, a) {
                        shapes.push(ShapeDef::Distinct(a));
                    }
                }
                Shape::Run(a, by) => {
                    let a2 = attr(c, a);
                    let b2 = by.as_ref().map(|b| attr(c, b));
                    if let Some(a2) = a2 {
                        if matches!(
                            c.program.deck.attrs[a2 as usize].kind,
                            crate::model::AttrKind::Symbols(_)
                        ) {
                            let numbers: Vec<String> = c
                                .program
                                .deck
                                .attrs
                                .iter()
                                .filter(|x| matches!(x.kind, crate::model::AttrKind::Int(_)))
                                .map(|x| x.name.clone())
                                .collect();
                            c.error(
                                Diagnostic::error(
                                    "fuda::bad-shape",
                                    format!(
                                        "`run` needs a number attribute; `{}` holds symbols",
                                        a.node
                                    ),
                                    at(a.span),
                                    "not a number",
                                )
                                .with_help(format!(
                                    "number attributes: {}; for symbols use `same {}` or `distinct {}`",
                                    numbers.join(", "),
                                    a.node,
                                    a.node
                                )),
                            );
                        } else if !matches!(b2, Some(None)) {
                            shapes.push(ShapeDef::Run(a2, b2.flatten()));
                        }
                    }
                }
                Shape::Word(w) => {
                    c.error(
                        Diagnostic::error("fuda::unsupported", format!("the `word {}` group shape is not supported", w.node), at(s.span), "not a shape")
                            .with_help(format!("test the group in its `where` instead: `group G: 2 where word({}, G, ATTR)` (docs/language.md § words)", w.node)),
                    );
                }
            }
        }
        let wild = match &g.wild {
            Some(w) => wild_cards(c, file, w, &shapes, g.shapes.is_empty()),
            None => CardSet::EMPTY,
        };
        c.program.wild = c.program.wild.union(wild);
        total += g.size.node * count;
        for k in 0..count {
            slots.push(SlotDef {
                name: g.name.node.clone(),
                size: g.size.node as usize,
                shapes: shapes.clone(),
                condition: None,
                copy_of: if k > 0 {
                    Some(slots.len() - k as usize)
                } else {
                    None
                },
                allowed: c.program.deck.all(),
                wild,
            });
        }
    }
    if total > MAX_PATTERN_CARDS {
        c.error(Diagnostic::error(
            "fuda::bad-group",
            format!("a pattern takes at most {MAX_PATTERN_CARDS} cards; this one takes {total}"),
            at(p.name.span),
            format!("{total} cards"),
        ));
    }
    // Conditions: a group's `where` sees the group by its own name.
    let mut sc = group_scope(file, &slots, "a pattern");
    let mut gi = 0;
    for g in &p.groups {
        let count = g.count.as_ref().map(|c| c.node).unwrap_or(1).clamp(1, 16) as usize;
        if let Some(cond) = &g.condition {
            for k in 0..count {
                // Each copy checks its own cards: the group's name means this slot.
                let mut gsc = group_scope(file, &slots, "a pattern");
                for entry in gsc.groups.iter_mut().filter(|e| e.0 == g.name.node) {
                    *entry = (g.name.node.clone(), (gi + k) as u16, 1);
                }
                let e = c.expr_of(&mut gsc, cond, &Type::Bool);
                sc.max = sc.max.max(gsc.max);
                // Read before the rewrites, which may turn `all(…)` into set arithmetic.
                let allowed = super::allowed::allowed(&c.program, &e, (gi + k) as u16);
                if let Some(s) = slots.get_mut(gi + k) {
                    s.condition = Some(e);
                    s.allowed = allowed;
                }
            }
        }
        gi += count;
    }
    let mut requires: Vec<_> = p
        .requires
        .iter()
        .map(|r| c.expr_of(&mut sc, r, &Type::Bool))
        .collect();
    // Evaluated for every candidate and split: rewritten into loop-free forms, and the
    // requires settled by the groups' classes tabulated (score/rewrite.rs, score/plan.rs).
    let optimize = crate::score::optimizing();
    for e in slots
        .iter_mut()
        .filter_map(|s| s.condition.as_mut())
        .chain(requires.iter_mut())
        .filter(|_| optimize)
    {
        crate::score::simplify(&c.program, e, &[]);
    }
    let mut prefilter = prefilter(c, &slots);
    if let Some(pf) = prefilter.as_mut().filter(|_| optimize) {
        let conds: Vec<&crate::ir::Expr> = requires.iter().collect();
        pf.requires = crate::score::Plan::build(&c.program, &slots, &[], &conds, &[conds.len()]);
    }
    c.check_slots(
        &sc,
        Loc {
            file,
            span: p.name.span,
        },
    );
    // The rewrites may leave fewer local slots in use: a smaller frame is cheaper to
    // set up for every search.
    let used = slots
        .iter()
        .filter_map(|s| s.condition.as_ref())
        .chain(&requires)
        .map(crate::score::slots_used)
        .max()
        .filter(|_| optimize)
        .unwrap_or(sc.max as usize);
    let pd = &mut c.program.patterns[ix as usize];
    pd.prefilter = prefilter;
    pd.slots = slots;
    pd.requires = requires;
    pd.size = total.max(0) as usize;
    pd.frame = sc.max.min(used as u16);
    // The table answers from the finished pattern's own prefilter and requires.
    if optimize {
        let deck_len = c.program.deck.len();
        let pd = &mut c.program.patterns[ix as usize];
        let table = pd
            .prefilter
            .as_ref()
            .and_then(|pf| crate::pattern::FitTable::build(pd, pf, deck_len))
            .map(std::sync::Arc::new);
        if let Some(pf) = pd.prefilter.as_mut() {
            pf.table = table;
        }
    }
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
    fn conjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
        match e {
            Expr::And(x, y) => {
                conjuncts(x, out);
                conjuncts(y, out);
            }
            _ => out.push(e),
        }
    }
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
    let mut parts = Vec::new();
    conjuncts(cond, &mut parts);
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

/// The cards a group's `wild NAME` names: a deck tag's cards, or a named card set.
/// Empty (with a diagnostic) when NAME is neither, or the group has no `same` or `run`
/// shape for them to stand in (in `distinct`, or with no shape, a card is just itself).
fn wild_cards(
    c: &mut Compiler,
    file: u16,
    w: &ast::Ident,
    shapes: &[ShapeDef],
    shapeless: bool,
) -> CardSet {
    let at = Loc { file, span: w.span };
    let named = match c.program.deck.tag_named(&w.node) {
        Some(t) => Some(c.program.deck.tags[t as usize]),
        None => match c.globals.get(&w.node) {
            Some((Global::CardSet(s), _)) => Some(*s),
            _ => None,
        },
    };
    let Some(set) = named else {
        let mut names: Vec<String> = c.program.deck.tag_names.clone();
        names.extend(
            c.globals
                .iter()
                .filter(|(_, (g, _))| matches!(g, Global::CardSet(_)))
                .map(|(n, _)| n.clone()),
        );
        let mut d = Diagnostic::error(
            "fuda::unknown-wild",
            format!("no tag or card set is called `{}`", w.node),
            at,
            "not a tag or card set",
        );
        d = match super::closest_within(
            &mut c.suggest_budget,
            &w.node,
            names.iter().map(|s| s.as_str()),
        ) {
            Some(s) => d.with_help(format!("did you mean `{s}`?")),
            None if names.is_empty() => d.with_help(
                "declare a tag in the deck (`tags 鬼`, `+鬼` on the jokers) or a card set (`cards 鬼札 = …`)",
            ),
            None => d.with_help(format!("the tags and card sets: {}", names.join(", "))),
        };
        c.error(d);
        return CardSet::EMPTY;
    };
    let stands_in = shapes
        .iter()
        .any(|s| matches!(s, ShapeDef::Same(_) | ShapeDef::Run(..)));
    // A shape that failed to compile was reported already.
    if !stands_in && (shapeless || !shapes.is_empty()) {
        c.error(
            Diagnostic::error(
                "fuda::bad-wild",
                "a wild card stands in for a value of a `same` or `run` shape; this group has none",
                at,
                "nothing to stand in for",
            )
            .with_help(
                "give the group a `same A` or `run A by B` shape, or drop `wild`: in a `distinct` group or one with no shape, a wild card is just a card",
            ),
        );
        return CardSet::EMPTY;
    }
    set
}

/// Derives the class-count prefilter when every group is `same` on one attribute.
/// A group with wild cards may mix classes: no prefilter then.
fn prefilter(c: &Compiler, slots: &[SlotDef]) -> Option<crate::ir::Prefilter> {
    if slots.iter().any(|s| !s.wild.is_empty()) {
        return None;
    }
    let attr = match slots.first()?.shapes.as_slice() {
        [ShapeDef::Same(a)] => *a,
        _ => return None,
    };
    if !slots
        .iter()
        .all(|s| s.shapes.as_slice() == [ShapeDef::Same(attr)])
    {
        return None;
    }
    let deck = &c.program.deck;
    let mut values: Vec<i64> = deck.attrs[attr as usize].values.clone();
    values.sort_unstable();
    values.dedup();
    let classes = values
        .iter()
        .map(|v| {
            (0..deck.len() as u16)
                .filter(|card| deck.attr(attr, *card) == *v)
                .collect()
        })
        .collect();
    let mut sizes: Vec<usize> = slots.iter().map(|s| s.size).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let suffix = (0..slots.len())
        .map(|i| {
            let mut s: Vec<usize> = slots[i..].iter().map(|s| s.size).collect();
            s.sort_unstable_by(|a, b| b.cmp(a));
            s
        })
        .collect();
    Some(crate::ir::Prefilter {
        classes,
        sizes,
        suffix,
        requires: None,
        table: None,
    })
}
