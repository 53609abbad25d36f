//! Which moves end a round: an option whose body may reach `outcome` or `record`
//! before the next decision. Agents use it to recognise a declared win without
//! trying the move (the `eager` player, and the greedy player's tie-breaks).

use crate::engine::LATE_OPTIONS;
use crate::ir::{Op, Program};

/// Marks every decision option whose body may end a round.
pub(crate) fn mark_round_enders(p: &mut Program) {
    // Which procs may reach `outcome`/`record` before a decision of their own, computed
    // to a fixed point so calls through several procs count.
    let n = p.procs.len();
    let mut proc_ends = vec![false; n];
    loop {
        let mut changed = false;
        for i in 0..n {
            if !proc_ends[i] && range_ends(&p.procs[i].code, 0, usize::MAX, &proc_ends) {
                proc_ends[i] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mark = |code: &mut Vec<Op>, proc_ends: &[bool]| {
        let mut flags = Vec::new();
        for (at, op) in code.iter().enumerate() {
            if let Op::Decide(d) = op {
                for o in &d.options {
                    flags.push((at, range_ends(code, o.body as usize, at, proc_ends)));
                }
            }
        }
        let mut k = 0;
        for op in code.iter_mut() {
            if let Op::Decide(d) = op {
                d.ends = 0;
                for (i, o) in d.options.iter_mut().enumerate() {
                    o.ends_round = flags[k].1;
                    d.ends |= u64::from(o.ends_round) << i.min(LATE_OPTIONS as usize);
                    k += 1;
                }
            }
        }
    };
    for i in 0..n {
        mark(&mut p.procs[i].code, &proc_ends);
    }
    for t in 0..p.tests.len() {
        mark(&mut p.tests[t].body.code, &proc_ends);
    }
}

/// Whether code from `start` may reach `outcome`/`record` before a decision: scans to
/// the end of the option body of the decision at `owner` (or to the end of the code),
/// skipping nested decisions, whose bodies run only after another choice.
fn range_ends(code: &[Op], start: usize, owner: usize, proc_ends: &[bool]) -> bool {
    let mut pc = start;
    // Jumps may skip around; a linear scan over the body is a safe over-approximation.
    while let Some(op) = code.get(pc) {
        match op {
            Op::Outcome(_) | Op::Record(..) => return true,
            Op::Call(q, ..) | Op::CallValue(q, ..)
                if proc_ends.get(*q as usize).copied().unwrap_or(false) =>
            {
                return true
            }
            Op::OptionDone { decide } if *decide as usize == owner => return false,
            Op::Decide(d) => {
                // A nested decision: its options run after another choice.
                let after = d.after as usize;
                if after <= pc {
                    return false;
                }
                pc = after;
                continue;
            }
            _ => {}
        }
        pc += 1;
    }
    false
}
