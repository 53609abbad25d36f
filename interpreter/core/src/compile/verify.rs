//! Whole-program checks after compiling: an entry point, reachable procedures, a place
//! for the cards to start, and deck arithmetic (no deal needs more cards than exist).

use fuda_grammar::ast::{ExprKind, Item, Owner, StmtKind};
use fuda_grammar::Span;

use super::Compiler;
use crate::diagnostic::{Diagnostic, Severity};
use crate::engine::const_eval_with;
use crate::ir::{Expr, Loc, Op};
use crate::value::Value;

pub(super) fn check_program(c: &mut Compiler, items: &[(u16, Item)]) {
    if c.program.entry.is_none() && !c.program.procs.is_empty() {
        c.error(
            Diagnostic::error(
                "fuda::no-entry",
                "the ruleset has procedures but no `proc match`",
                c.program.procs[0].loc,
                "where would a game start?",
            )
            .with_help("add `proc match { … }`: a game runs it from the top"),
        );
    }
    if !c.program.zones.iter().any(|z| z.owner == Owner::Shared) && !c.program.procs.is_empty() {
        // Point at the first zone declared (a per-seat one), else at the ruleset.
        let first_zone = c
            .globals
            .values()
            .filter(|(g, _)| matches!(g, super::Global::Zone(_)))
            .map(|(_, l)| *l)
            .min_by_key(|l| (l.file, l.span.start));
        let (loc, label) = match first_zone {
            Some(l) => (l, "only per-seat zones are declared"),
            None => (c.anchor, "no zones are declared"),
        };
        c.error(
            Diagnostic::error("fuda::no-shared-zone", "the ruleset declares no shared zone for the cards to start in", loc, label)
                .with_help("declare one, e.g. `zone 山札 shared stack hidden`: every card starts in the first shared zone"),
        );
    }
    computed_defaults(c);
    if !c.program.deck.is_empty() {
        deck_arithmetic(c, items);
        table_cycles(c);
    }
    unreachable_procs(c);
}

/// Procedures nobody calls never run: most likely a typo in a call or a leftover.
/// Calls that failed to compile are missing from the code, so this is only said of a
/// ruleset without errors, and so it runs after every other check that can find one.
fn unreachable_procs(c: &mut Compiler) {
    let has_errors = c.diags.iter().any(|d| d.severity == Severity::Error);
    let Some(entry) = c.program.entry.filter(|_| !has_errors) else {
        return;
    };
    // A base's procedure that only the base's own tests call (variants do not inherit
    // tests) is there to be tested.
    let tested: Vec<u16> = c
        .base_test_calls
        .iter()
        .filter_map(|n| match c.globals.get(n) {
            Some((super::Global::Proc(p), _)) => Some(*p),
            _ => None,
        })
        .collect();
    let reach = reachable(&c.program.procs, entry, &c.program.tests, &tested);
    for (i, p) in c.program.procs.iter().enumerate() {
        if !reach[i] {
            c.diags.push(
                Diagnostic::error("fuda::unreachable-proc", format!("procedure `{}` is never called", p.name), p.loc, "never called")
                    .with_help("call it from `match` (directly or through another procedure) or from a test, or remove it")
                    .warning(),
            );
        }
    }
}

/// For every allowed seat count: the parameter defaults computed from other parameters
/// (`param 倍: int = 人 * 3 in 1..10`) must come out as a game with that count computes
/// them, within their ranges; one that does not would stop every such game as it starts.
fn computed_defaults(c: &mut Compiler) {
    let p = &c.program;
    if p.params.iter().all(|d| d.default_expr.is_none())
        || p.params.iter().any(|d| matches!(d.default, Value::Unit))
    {
        return;
    }
    let seat_param = match p.seats.count {
        Expr::Param(j) => Some(j as usize),
        _ => None,
    };
    for &n in &c.seat_counts.clone() {
        let given = crate::engine::seat_count_given(&c.program, n);
        if let Err(e) = crate::engine::param_values(&c.program, &given) {
            let message = match (seat_param, e.message.strip_prefix("with these parameters ")) {
                (Some(_), Some(rest)) => format!("with {n} seats {rest}"),
                _ => e.message.clone(),
            };
            let mut d = Diagnostic::error(
                "fuda::out-of-range",
                message,
                e.loc,
                "computed from other parameters",
            );
            if let Some(h) = &e.help {
                d = d.with_help(h.clone());
            }
            c.error(d);
            return;
        }
    }
}

/// Procedures reachable from `match` or from a test (a procedure only tests call is
/// there to be tested, not a leftover).
fn reachable(
    procs: &[crate::ir::ProcDef],
    entry: u16,
    tests: &[crate::ir::TestDef],
    tested: &[u16],
) -> Vec<bool> {
    let mut seen = vec![false; procs.len()];
    let mut stack = vec![entry as usize];
    stack.extend(tested.iter().map(|&p| p as usize));
    let calls = |code: &[Op], stack: &mut Vec<usize>| {
        for op in code {
            if let Op::Call(q, ..) = op {
                stack.push(*q as usize);
            }
        }
    };
    for t in tests {
        calls(&t.body.code, &mut stack);
    }
    while let Some(p) = stack.pop() {
        if p >= seen.len() || seen[p] {
            continue;
        }
        seen[p] = true;
        calls(&procs[p].code, &mut stack);
    }
    seen
}

/// For every allowed seat count: the cards dealt by each procedure (between gathers)
/// must fit in the deck. Deals are counted in the procedure's own top-level statements,
/// in order; deals inside loops or branches, or of sizes only known in play, are not.
fn deck_arithmetic(c: &mut Compiler, items: &[(u16, Item)]) {
    let deck = c.program.deck.len() as i64;
    let counts = c.seat_counts.clone();
    for (file, item) in items {
        let Item::Proc(p) = item else { continue };
        // For each seat count, where the deck first runs out: (total, first deal, deal).
        let mut short: Vec<(usize, i64, Span, Span)> = Vec::new();
        for &n in &counts {
            let mut total = 0i64;
            let mut first: Option<Span> = None;
            for s in &p.body.stmts {
                match &s.node {
                    StmtKind::Gather(_) => {
                        total = 0;
                        first = None;
                    }
                    StmtKind::Deal(d) => {
                        let mut per = 0i64;
                        let mut known = true;
                        for e in &d.counts {
                            match literal_int(c, e, n) {
                                Some(v) => per = per.saturating_add(v),
                                None => known = false,
                            }
                        }
                        if !known {
                            continue;
                        }
                        let family = matches!(&d.to.node, ExprKind::Name(z) if c.program.zones.iter().any(|zd| zd.name == *z && zd.owner == Owner::PerSeat));
                        total = total.saturating_add(if family {
                            per.saturating_mul(n as i64)
                        } else {
                            per
                        });
                        let f = *first.get_or_insert(s.span);
                        if total > deck {
                            short.push((n, total, f, s.span));
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
        let Some(&(n, total, first, at)) = short.first() else {
            continue;
        };
        let loc = |span| Loc { file: *file, span };
        let more = if short.len() > 1 { " or more" } else { "" };
        let mut d = Diagnostic::error(
            "fuda::deck-too-small",
            format!("with {n} seats{more} this deals {total} cards, but the deck holds {deck}"),
            loc(at),
            format!("{total} cards dealt by here"),
        );
        if first != at {
            d = d.with_label(loc(first), "dealing starts here");
        }
        let fits: Vec<usize> = counts
            .iter()
            .copied()
            .filter(|m| !short.iter().any(|s| s.0 == *m))
            .collect();
        let param = match &c.program.seats.count {
            Expr::Param(i) => Some(c.program.params[*i as usize].name.clone()),
            _ => None,
        };
        d = d.with_help(match (param, fits.iter().max()) {
            (Some(p), Some(max)) => {
                format!("deal fewer cards, or let `{p}` go up to {max} at most")
            }
            // No allowed count fits: fewer seats would not help.
            (Some(_), None) => "deal fewer cards: no allowed seat count fits".to_string(),
            _ => "deal fewer cards, or use fewer seats".to_string(),
        });
        c.error(d);
    }
}

/// A deal count known at compile time (a literal, or an expression over parameters).
fn literal_int(c: &mut Compiler, e: &fuda_grammar::ast::Expr, seats: usize) -> Option<i64> {
    let mut sc = super::expr::Scope::pure(0, "a deal count");
    let before = c.diags.len();
    let x = c.expr(&mut sc, e).0;
    c.diags.truncate(before);
    match const_eval_with(&c.program, &x, seats) {
        Some(Value::Int(v)) => Some(v),
        _ => None,
    }
    .filter(|_| !matches!(x, Expr::Local(_)))
}

/// Score tables and patterns that use themselves (directly or through each other)
/// would recurse forever at run time: report each cycle once.
fn table_cycles(c: &mut Compiler) {
    // Nodes: scores first, then patterns.
    let ns = c.program.scores.len();
    let np = c.program.patterns.len();
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); ns + np];
    for (i, t) in c.program.scores.iter().enumerate() {
        let mut out = Vec::new();
        if let Some((pat, arg, _)) = &t.over {
            out.push(ns + *pat as usize);
            refs(arg, ns, &mut out);
        }
        for (_, _, d) in &t.params {
            if let Some(d) = d {
                refs(d, ns, &mut out);
            }
        }
        for st in &t.stages {
            match st {
                crate::ir::StageDef::Yaku(_, rows) | crate::ir::StageDef::Plus(_, rows) => {
                    for (_, v, w) in rows {
                        refs(v, ns, &mut out);
                        refs(w, ns, &mut out);
                    }
                }
                crate::ir::StageDef::Times(_, rows) => {
                    for (f, w) in rows {
                        refs(f, ns, &mut out);
                        refs(w, ns, &mut out);
                    }
                }
                crate::ir::StageDef::Name(rows) => {
                    rows.iter().for_each(|(_, w)| refs(w, ns, &mut out))
                }
                crate::ir::StageDef::Void(rows) => {
                    rows.iter().for_each(|(_, w)| refs(w, ns, &mut out))
                }
            }
        }
        edges[i] = out;
    }
    for (i, pd) in c.program.patterns.iter().enumerate() {
        let mut out = Vec::new();
        for r in &pd.requires {
            refs(r, ns, &mut out);
        }
        for slot in &pd.slots {
            if let Some(w) = &slot.condition {
                refs(w, ns, &mut out);
            }
        }
        edges[ns + i] = out;
    }
    // Depth-first search for a path back to the start.
    let name = |c: &Compiler, n: usize| {
        if n < ns {
            format!("score `{}`", c.program.scores[n].name)
        } else {
            format!("pattern `{}`", c.program.patterns[n - ns].name)
        }
    };
    let loc = |c: &Compiler, n: usize| {
        if n < ns {
            c.program.scores[n].loc
        } else {
            c.program.patterns[n - ns].loc
        }
    };
    let mut reported = vec![false; ns + np];
    for start in 0..ns + np {
        let mut stack = vec![(start, vec![start])];
        let mut seen = vec![false; ns + np];
        while let Some((n, path)) = stack.pop() {
            for &m in &edges[n] {
                if m == start {
                    if !path.iter().any(|x| reported[*x]) {
                        path.iter().for_each(|x| reported[*x] = true);
                        let chain: Vec<String> = path
                            .iter()
                            .chain(std::iter::once(&start))
                            .map(|x| name(c, *x))
                            .collect();
                        let d = Diagnostic::error(
                            "fuda::recursive-table",
                            format!("{} uses itself: {}", name(c, start), chain.join(" → ")),
                            loc(c, start),
                            "declared here",
                        )
                        .with_help("a score table or pattern may use others, but not itself: the evaluation would never end");
                        c.error(d);
                    }
                } else if !seen[m] {
                    seen[m] = true;
                    let mut p2 = path.clone();
                    p2.push(m);
                    stack.push((m, p2));
                }
            }
        }
    }
}

/// The score tables (as `i`) and patterns (as `ns + i`) an expression uses.
fn refs(e: &Expr, ns: usize, out: &mut Vec<usize>) {
    match e {
        Expr::Score(s, ..) => out.push(*s as usize),
        Expr::PatternTest(p, _) | Expr::Call(crate::ir::Builtin::Waits(p), ..) => {
            out.push(ns + *p as usize)
        }
        _ => {}
    }
    e.children(|c| refs(c, ns, out));
}
