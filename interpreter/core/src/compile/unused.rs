//! Declarations nothing uses: a pattern no score table splits by, no guard or rule
//! asks and no `waits` reads. Such a pattern is a leftover or a mistake, and not
//! harmless: the greedy player aims at every pattern the ruleset declares.

use super::classes::{each_op, op_exprs};
use crate::diagnostic::Diagnostic;
use crate::ir::{Builtin, Expr, Program};

/// A warning for each pattern that no procedure, test, score table or other pattern
/// uses (after defs are expanded: a pattern only an unused def names is unused too).
pub(super) fn patterns(p: &mut Program) -> Vec<Diagnostic> {
    let mut used = vec![false; p.patterns.len()];
    let mut mark = |e: &mut Expr| note(e, &mut used);
    each_op(p, |_, op| op_exprs(op, &mut mark));
    for t in &mut p.scores {
        if let Some((pat, over, _)) = &mut t.over {
            mark_one(*pat, &mut used);
            note(over, &mut used);
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
    p.patterns
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|(pat, _)| {
            Diagnostic::error(
                "fuda::unused-pattern",
                format!("pattern `{}` is never used", pat.name),
                pat.loc,
                "never used",
            )
            .with_help(format!(
                "use it (`score … over {0}(hand)`, or a guard `when {0}(手札[s])`) or remove it: the greedy player plays towards the patterns a ruleset declares",
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
        Expr::PatternTest(pat, _) | Expr::Call(Builtin::Waits(pat), _, _) => mark_one(*pat, used),
        _ => {}
    }
    e.children_mut(|x| note(x, used));
}
