//! The last pass over a compiled program. Procedure code gets the rewrites score tables
//! get as they are compiled (`score/rewrite.rs`: quantifiers whose body reads only the
//! card become set arithmetic), then each quantifier whose body only asks the bound
//! card's class is marked, so the engine answers it with set operations without
//! re-examining the body at every evaluation. Marks are made on the expressions as they
//! will run; a quantifier the pass does not reach keeps its mark off and is evaluated
//! card by card, with the same result.

use crate::ir::{Decide, Expr, Op, PayFrom, Program, Target};

/// Rewrites procedure code, then marks every quantifier of `p`'s procedures, tests,
/// patterns and score tables (and the parts of conditions their plans keep).
pub fn finish(p: &mut Program) {
    rewrite_procedures(p);
    for proc in &mut p.procs {
        proc.code.iter_mut().for_each(|op| op_exprs(op, &mut mark));
    }
    for test in &mut p.tests {
        test.body
            .code
            .iter_mut()
            .for_each(|op| op_exprs(op, &mut mark));
    }
    for pat in &mut p.patterns {
        for slot in &mut pat.slots {
            slot.condition.iter_mut().for_each(mark);
        }
        pat.requires.iter_mut().for_each(mark);
        if let Some(plan) = pat.prefilter.as_mut().and_then(|pf| pf.requires.as_mut()) {
            plan.exprs_mut(&mut mark);
        }
    }
    for table in &mut p.scores {
        for (_, _, default) in &mut table.params {
            default.iter_mut().for_each(mark);
        }
        if let Some((_, over, _)) = &mut table.over {
            mark(over);
        }
        for stage in &mut table.stages {
            super::score::stage_exprs(stage).into_iter().for_each(mark);
        }
        if let Some(plan) = &mut table.plan {
            plan.exprs_mut(&mut mark);
        }
    }
}

/// Applies the score tables' rewrites to every procedure's and test's code.
fn rewrite_procedures(p: &mut Program) {
    each_op(p, |p, op| {
        op_exprs(op, &mut |e| crate::score::simplify(p, e, &[]));
    });
}

/// Calls `f` on every op of every procedure and test, with the rest of the program
/// readable (the code is taken out while it is changed).
pub(super) fn each_op(p: &mut Program, mut f: impl FnMut(&Program, &mut Op)) {
    let mut procs = std::mem::take(&mut p.procs);
    let mut tests = std::mem::take(&mut p.tests);
    let bodies = procs
        .iter_mut()
        .chain(tests.iter_mut().map(|t| &mut t.body));
    for body in bodies {
        for op in &mut body.code {
            f(p, op);
        }
    }
    p.procs = procs;
    p.tests = tests;
}

/// Sets the flag of every quantifier in `e`.
fn mark(e: &mut Expr) {
    if let Expr::Binder(_, slot, _, body, by_class) = e {
        *by_class = crate::engine::class_shaped(body, *slot);
    }
    e.children_mut(mark);
}

/// Calls `f` on every expression an op evaluates.
pub(super) fn op_exprs(op: &mut Op, f: &mut dyn FnMut(&mut Expr)) {
    match op {
        Op::Let(_, e)
        | Op::JumpIfNot(e, _)
        | Op::ForStart { domain: e, .. }
        | Op::Shuffle(e, _)
        | Op::Gather(e, _)
        | Op::Outcome(e)
        | Op::Reveal(e)
        | Op::Show(e)
        | Op::Say(e)
        | Op::Expect(e, _)
        | Op::Require(e, _, _)
        | Op::Tally(_, e, None) => f(e),
        Op::Tally(_, e, Some(s)) => {
            f(e);
            f(s)
        }
        Op::Assign(t, _, e, _) => {
            target_exprs(t, f);
            f(e);
        }
        Op::Move(a, b, _) | Op::Record(a, b) => {
            f(a);
            f(b);
        }
        Op::Cut(a, b, _) => {
            f(a);
            b.iter_mut().for_each(&mut *f);
        }
        Op::Deal {
            counts,
            from,
            to,
            start,
            ..
        } => {
            counts.iter_mut().for_each(&mut *f);
            f(from);
            f(to);
            start.iter_mut().for_each(&mut *f);
        }
        Op::Decide(d) => decide_exprs(d, f),
        Op::Pay {
            amount, from, to, ..
        } => {
            f(amount);
            match from {
                PayFrom::One(t) => target_exprs(t, f),
                PayFrom::Each(_, e) => f(e),
            }
            target_exprs(to, f);
        }
        Op::Answer(_, e) => e.iter_mut().for_each(&mut *f),
        Op::Call(_, args, _) | Op::CallValue(_, args, _, _) => args.iter_mut().for_each(&mut *f),
        Op::ReturnValue(e) => f(e),
        Op::Jump(_)
        | Op::ForNext { .. }
        | Op::OptionDone { .. }
        | Op::Decline { .. }
        | Op::DealerByDraw { .. }
        | Op::Return => {}
    }
}

fn target_exprs(t: &mut Target, f: &mut dyn FnMut(&mut Expr)) {
    if let Target::SeatVar(_, e) = t {
        f(e);
    }
}

fn decide_exprs(d: &mut Decide, f: &mut dyn FnMut(&mut Expr)) {
    f(&mut d.who);
    for o in &mut d.options {
        if let Some((_, dom)) = &mut o.param {
            f(dom);
        }
        o.guard.iter_mut().for_each(&mut *f);
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::{Expr, Op};

    /// The flags of the quantifiers in `let` ops of `proc match`, in order.
    fn flags(body: &str) -> Vec<bool> {
        let text = format!(
            "ruleset \"q\"\nimport \"std/hanafuda\"\nseats 2 {{ 2: A B }}\n\
             zone 山 shared stack hidden\nzone 手 per seat pile owner\n\
             proc match {{\n{body}\n}}\n"
        );
        let p = match crate::compile("q.fuda", &text, &crate::loader::NoFiles) {
            Ok(c) => c.program,
            Err(f) => panic!("{:#?}", f.diagnostics),
        };
        let mut out = Vec::new();
        let entry = p.entry.expect("match") as usize;
        for op in &p.procs[entry].code {
            if let Op::Let(_, e) = op {
                let mut e = e.clone();
                find(&mut e, &mut out);
            }
        }
        out
    }

    fn find(e: &mut Expr, out: &mut Vec<bool>) {
        if let Expr::Binder(_, _, _, _, by_class) = e {
            out.push(*by_class);
        }
        e.children_mut(|c| find(c, out));
    }

    #[test]
    fn class_tests_are_marked_and_others_are_not() {
        let m = flags(
            "let n = 3\n\
             let a = count(c in 手[0]: c.month == n and not (c is 赤短))\n\
             let t = top(山)\n\
             let b = any(c in 山: c.kind == 光 or c == t)\n\
             let d = count(c in 手[0]: count(x in 手[0]: x.month == c.month) >= 2)\n\
             let e = count(c in 手[0]: count(x in 手[0]: x.month == c.month and x != c) >= 2)",
        );
        // `d`: the outer body counts the cards of the bound card's class (a group count,
        // the same for its whole class); the inner one compares with the outer card,
        // which does not depend on its own. `e`: the inner body reads the outer card
        // itself, so the outer count is tested card by card.
        assert_eq!(m, vec![true, true, true, true, false, true]);
    }

    #[test]
    fn conditions_on_another_card_are_class_tests() {
        // `not (t is 赤短)` is the same for every `c`: all or none of the deck.
        let m = flags(
            "let t = top(山)
             let f = true
             let a = any(c in 山: c.month == t.month and not (t is 赤短) and not (c is 赤短))
             let b = count(c in 山: f and c.month == 1)
             let d = count(c in 山: (c.month == 1) == f)",
        );
        assert_eq!(m, vec![true, true, false]);
    }
}
