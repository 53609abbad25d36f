//! What lowering asks of a called procedure as a whole: whether it, and all it calls,
//! leaves the cards where they are (so a zone handed to it may be handed as its cards).

use crate::ir::Op;

/// Whether procedure `q`, and every procedure it calls, moves no card (no `move`,
/// `deal`, `gather`, `shuffle`, `cut` or draw for the dealer). The calls are followed
/// with a list, not recursion, so that a long chain of procedures cannot exhaust the
/// stack, each procedure once.
pub(super) fn moves_no_cards(p: &crate::ir::Program, q: u16) -> bool {
    let mut seen = vec![false; p.procs.len()];
    let mut todo = vec![q];
    while let Some(q) = todo.pop() {
        match seen.get_mut(q as usize) {
            Some(s) if !*s => *s = true,
            Some(_) => continue,
            None => return false,
        }
        let Some(proc) = p.procs.get(q as usize) else {
            return false;
        };
        for op in &proc.code {
            match op {
                Op::Move(..)
                | Op::Shuffle(..)
                | Op::Cut(..)
                | Op::Deal { .. }
                | Op::Gather(..)
                | Op::DealerByDraw { .. } => return false,
                Op::Call(c, ..) | Op::CallValue(c, ..) => todo.push(*c),
                _ => {}
            }
        }
    }
    true
}
