//! Whole-program checks after compiling: an entry point, reachable procedures, a place
//! for the cards to start, and deck arithmetic (no deal needs more cards than exist).

use fuda_grammar::ast::{Item, Owner, StmtKind};

use super::Compiler;
use crate::diagnostic::Diagnostic;
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
        c.error(
            Diagnostic::error("fuda::no-shared-zone", "the ruleset declares no shared zone for the cards to start in", Loc::default(), "")
                .with_help("declare one, e.g. `zone 山札 shared stack hidden`: every card starts in the first shared zone"),
        );
    }
    // Procedures nobody calls never run: most likely a typo in a call or a leftover.
    if let Some(entry) = c.program.entry {
        let reach = reachable(&c.program.procs, entry, &c.program.tests);
        for (i, p) in c.program.procs.iter().enumerate() {
            if !reach[i] {
                c.diags.push(
                    Diagnostic::error("fuda::unreachable-proc", format!("procedure `{}` is never called", p.name), p.loc, "unreachable")
                        .with_help("call it from `match` (directly or through another procedure), or remove it")
                        .warning(),
                );
            }
        }
    }
    deck_arithmetic(c, items);
}

fn reachable(procs: &[crate::ir::ProcDef], entry: u16, tests: &[crate::ir::TestDef]) -> Vec<bool> {
    let mut seen = vec![false; procs.len()];
    let mut stack = vec![entry as usize];
    let _ = tests;
    while let Some(p) = stack.pop() {
        if p >= seen.len() || seen[p] {
            continue;
        }
        seen[p] = true;
        for op in &procs[p].code {
            if let Op::Call(q, ..) = op {
                stack.push(*q as usize);
            }
        }
    }
    seen
}

/// For every allowed seat count: the cards dealt by each procedure (between gathers)
/// must fit in the deck.
fn deck_arithmetic(c: &mut Compiler, items: &[(u16, Item)]) {
    let deck = c.program.deck.len() as i64;
    let counts = c.seat_counts.clone();
    for (file, item) in items {
        let Item::Proc(p) = item else { continue };
        for &n in &counts {
            let mut total = 0i64;
            let mut first_loc = None;
            for s in &p.body.stmts {
                match &s.node {
                    StmtKind::Gather(_) => total = 0,
                    StmtKind::Deal(d) => {
                        let mut per = 0i64;
                        let mut known = true;
                        for e in &d.counts {
                            match literal_int(c, e, n) {
                                Some(v) => per += v,
                                None => known = false,
                            }
                        }
                        if !known {
                            continue;
                        }
                        let family = matches!(&d.to.node, fuda_grammar::ast::ExprKind::Name(z) if c.program.zones.iter().any(|zd| zd.name == *z && zd.owner == Owner::PerSeat));
                        total += if family { per * n as i64 } else { per };
                        first_loc.get_or_insert(Loc {
                            file: *file,
                            span: s.span,
                        });
                        if total > deck {
                            c.error(
                                Diagnostic::error(
                                    "fuda::deck-too-small",
                                    format!("with {n} seats this deals {total} cards, but the deck holds {deck}"),
                                    Loc { file: *file, span: s.span },
                                    "runs out of cards here",
                                )
                                .with_help("deal fewer cards, or limit the seat count"),
                            );
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
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
