//! Whole-program checks after compiling: an entry point, reachable procedures, a place
//! for the cards to start, and deck arithmetic (no deal needs more cards than exist).

use fuda_grammar::ast::{ExprKind, Item, Owner, StmtKind};
use fuda_grammar::Span;

use super::{Compiler, Global};
use crate::diagnostic::{Diagnostic, Severity};
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
        super::chains::check(c);
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
            if let Op::Call(q, ..) | Op::CallValue(q, ..) = op {
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
    // Each procedure's top-level gathers and deals, the deals' sizes lowered once.
    let mut procs: Vec<(u16, Vec<Step>)> = Vec::new();
    for (file, item) in items {
        let Item::Proc(p) = item else { continue };
        let mut steps = Vec::new();
        for s in &p.body.stmts {
            match &s.node {
                StmtKind::Gather(_) => steps.push(Step::Gather),
                StmtKind::Deal(d) => {
                    let sizes = d.counts.iter().map(|e| deal_size(c, e)).collect();
                    let family = matches!(&d.to.node, ExprKind::Name(z)
                        if matches!(c.globals.get(z), Some((Global::Zone(i), _))
                            if c.program.zones[*i as usize].owner == Owner::PerSeat));
                    steps.push(Step::Deal {
                        sizes,
                        family,
                        at: s.span,
                    });
                }
                _ => {}
            }
        }
        procs.push((*file, steps));
    }
    // Each deal's size for each seat count (`None`: not known before play).
    let mut values: Vec<Vec<Vec<Option<i64>>>> = vec![Vec::new(); counts.len()];
    for (k, &n) in counts.iter().enumerate() {
        values[k] = c
            .at_seats(n, |p| {
                let mut locals = Vec::new();
                procs
                    .iter()
                    .flat_map(|(_, steps)| steps)
                    .filter_map(|st| match st {
                        Step::Deal { sizes, .. } => Some(
                            sizes
                                .iter()
                                .map(|x| {
                                    match x
                                        .as_ref()
                                        .map(|x| super::constants::const_at(p, x, n, &mut locals))
                                    {
                                        Some(Some(Value::Int(v))) => Some(v),
                                        _ => None,
                                    }
                                })
                                .collect(),
                        ),
                        Step::Gather => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
    }
    let mut deal_ix = 0;
    for (file, steps) in &procs {
        // For each seat count, where the deck first runs out: (total, first deal, deal).
        let mut short: Vec<(usize, i64, Span, Span)> = Vec::new();
        let first_deal = deal_ix;
        for (k, &n) in counts.iter().enumerate() {
            let mut total = 0i64;
            let mut first: Option<Span> = None;
            let mut ix = first_deal;
            for st in steps {
                let (family, at) = match st {
                    Step::Gather => {
                        total = 0;
                        first = None;
                        continue;
                    }
                    Step::Deal { family, at, .. } => (*family, *at),
                };
                let sizes = values[k].get(ix);
                ix += 1;
                let mut per = 0i64;
                let mut known = true;
                for v in sizes.into_iter().flatten() {
                    match v {
                        Some(v) => per = per.saturating_add(*v),
                        None => known = false,
                    }
                }
                if !known || sizes.is_none() {
                    continue;
                }
                total = total.saturating_add(if family {
                    per.saturating_mul(n as i64)
                } else {
                    per
                });
                let f = *first.get_or_insert(at);
                if total > deck {
                    short.push((n, total, f, at));
                    break;
                }
            }
        }
        deal_ix += steps
            .iter()
            .filter(|st| matches!(st, Step::Deal { .. }))
            .count();
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

/// A gather or a deal among a procedure's top-level statements.
enum Step {
    Gather,
    Deal {
        /// The sizes dealt (`None`: read from a local, so known only in play).
        sizes: Vec<Option<Expr>>,
        /// Whether it deals to every seat's zone of a family.
        family: bool,
        at: Span,
    },
}

/// A deal's size lowered, to be worked out for each seat count when it reads only
/// constants and parameters; `None` when it reads a local.
fn deal_size(c: &mut Compiler, e: &fuda_grammar::ast::Expr) -> Option<Expr> {
    let mut sc = super::expr::Scope::pure(0, "a deal count");
    // Its problems are the statement's, reported where the procedure is compiled.
    let quiet = std::mem::replace(&mut c.quiet, true);
    let x = c.expr(&mut sc, e).0;
    c.quiet = quiet;
    (!matches!(x, Expr::Local(_))).then_some(x)
}
