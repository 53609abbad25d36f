//! Declarations nothing uses: a pattern no score table splits by, no guard or rule
//! asks and no `waits` reads. In a ruleset's own files such a pattern is a leftover or
//! a mistake, and is warned about; a library's (`std/mahjong-shapes`) is one the
//! ruleset leaves aside. Either way it is marked unused, and the greedy player, which
//! aims at the patterns a ruleset uses, leaves it aside too.

use super::classes::{each_op, op_exprs};
use crate::diagnostic::Diagnostic;
use crate::ir::{Builtin, Expr, Program};

/// Marks the patterns that no procedure, test, score table or other pattern uses
/// (after defs are expanded: a pattern only an unused def names is unused too), with a
/// warning for each one declared outside the stdlib.
pub(super) fn patterns(p: &mut Program) -> Vec<Diagnostic> {
    let mut used = vec![false; p.patterns.len()];
    let mut mark = |e: &mut Expr| note(e, &mut used);
    each_op(p, |_, op| op_exprs(op, &mut mark));
    for t in &mut p.scores {
        if let Some((pat, over, _)) = &mut t.over {
            mark_one(*pat, &mut used);
            note(over, &mut used);
        }
        if let Some(f) = &mut t.formed {
            note(f, &mut used);
        }
        for st in &mut t.stages {
            super::score::stage_exprs(st)
                .into_iter()
                .for_each(|e| note(e, &mut used));
        }
    }
    for pat in &mut p.patterns {
        for slot in &mut pat.slots {
            slot.condition.iter_mut().for_each(|e| note(e, &mut used));
        }
        pat.requires.iter_mut().for_each(|e| note(e, &mut used));
    }
    // A pattern of alternatives uses them (they are never alternatives themselves).
    for i in 0..p.patterns.len() {
        if used[i] {
            for alt in &p.patterns[i].alternatives {
                mark_one(alt.pattern, &mut used);
            }
        }
    }
    for (pat, u) in p.patterns.iter_mut().zip(&used) {
        pat.used = *u;
    }
    let sources = &p.sources;
    let in_stdlib = |pat: &crate::ir::PatternDef| {
        sources
            .get(pat.loc.file as usize)
            .is_some_and(|s| s.name.starts_with("std/"))
    };
    p.patterns
        .iter()
        .filter(|pat| !pat.used && !in_stdlib(pat))
        .map(|pat| {
            Diagnostic::error(
                "fuda::unused-pattern",
                format!("pattern `{}` is never used", pat.name),
                pat.loc,
                "never used",
            )
            .with_help(format!(
                "use it (`score … over {0}(hand)`, or a guard `when {0}(手札[s])`) or remove it: the greedy player plays towards the patterns a ruleset uses",
                pat.name
            ))
            .warning()
        })
        .collect()
}

fn mark_one(pat: u16, used: &mut [bool]) {
    if let Some(u) = used.get_mut(pat as usize) {
        *u = true;
    }
}

/// Marks the patterns `e` asks: `P(cards)` and `waits(P, cards)`.
fn note(e: &mut Expr, used: &mut Vec<bool>) {
    match e {
        Expr::PatternTest(pat, _)
        | Expr::Call(Builtin::Waits(pat) | Builtin::Formed(pat), _, _) => mark_one(*pat, used),
        _ => {}
    }
    e.children_mut(|x| note(x, used));
}
