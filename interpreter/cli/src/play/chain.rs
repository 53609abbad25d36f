//! A line that answers several of the person's decisions in a row, as players say a
//! play made in steps: `刻子 222m 帯 99m`, or glued as written on paper, `222m帯99m` (a
//! 刻子 of 2m carrying a pair of 9m: the triplet, then what it carries, each a decision
//! of the rules). The line is tried on a copy of the game, decision after decision, and
//! accepted only when every part answers the decision it meets, each the person's own
//! with nobody else deciding in between: a line that fails changes nothing.

use fuda_core::engine::Pending;
use fuda_core::ir::{DecideKind, Op};
use fuda_core::{Program, State};

use crate::input::{self, Reply};

/// The most decisions one line may answer (a chain of carried plays is a few).
const MOST_PARTS: usize = 12;

/// The parts of `line` that answer the person's decisions from the waiting one on, one
/// text each, when the line answers two or more of them; `None` otherwise.
pub fn split(p: &Program, st: &State, me: u8, line: &str) -> Option<Vec<String>> {
    let words = words(p, line);
    if words.len() < 2 || words.len() > 4 * MOST_PARTS {
        return None;
    }
    let parts = answer(p, st, me, &words, 0)?;
    (parts.len() >= 2).then_some(parts)
}

/// Answers the waiting decision with the longest run of `words` it takes, then the
/// next decisions with the rest; the texts of the parts, or `None` when some part
/// fits nothing.
fn answer(p: &Program, st: &State, me: u8, words: &[String], depth: usize) -> Option<Vec<String>> {
    if depth >= MOST_PARTS {
        return None;
    }
    let pending = own_decision(st, me)?;
    let code = st.pending_code(p);
    let moves = &pending.seats[0].moves;
    for k in (1..=words.len()).rev() {
        let text = words[..k].join(" ");
        let Reply::Move(i) = input::parse(p, pending, code, moves, &text) else {
            continue;
        };
        if k == words.len() {
            return Some(vec![text]);
        }
        let mut next = st.clone();
        if next.apply(p, &[i]).is_err() || !reach_own_decision(p, &mut next, me) {
            continue;
        }
        if let Some(mut rest) = answer(p, &next, me, &words[k..], depth + 1) {
            rest.insert(0, text);
            return Some(rest);
        }
    }
    None
}

/// The waiting decision when it is the person's alone (a `choose` for their seat).
fn own_decision(st: &State, me: u8) -> Option<&Pending> {
    let pending = st.pending()?;
    (pending.kind == DecideKind::One && pending.seats.len() == 1 && pending.seats[0].seat == me)
        .then_some(pending)
}

/// Runs the copy on to its next decision, taking those nobody has a choice in; whether
/// that decision is the person's own.
fn reach_own_decision(p: &Program, st: &mut State, me: u8) -> bool {
    for _ in 0..MOST_PARTS {
        match st.advance(p) {
            Ok(false) => {}
            _ => return false,
        }
        let Some(pending) = st.pending() else {
            return false;
        };
        if !pending.is_forced() {
            return own_decision(st, me).is_some();
        }
        let choices = vec![0; pending.seats.len()];
        if st.apply(p, &choices).is_err() {
            return false;
        }
    }
    false
}

/// The line's words: split at white space, and before a move's name written straight
/// after a card (`222m帯99m` is `222m`, `帯`, `99m`). Only names that start with a
/// letter outside ASCII are split off so, as ids are ASCII: `222m` itself never splits.
fn words(p: &Program, line: &str) -> Vec<String> {
    let names = option_names(p);
    let mut out = Vec::new();
    for w in line.split_whitespace() {
        let mut rest = w;
        'cut: while !rest.is_empty() {
            for (i, _) in rest.char_indices().skip(1) {
                let after = &rest[i..];
                if let Some(n) = names.iter().find(|n| after.starts_with(n.as_str())) {
                    out.push(rest[..i].to_string());
                    out.push(n.clone());
                    rest = &after[n.len()..];
                    continue 'cut;
                }
            }
            out.push(rest.to_string());
            break;
        }
    }
    out.retain(|w| !w.is_empty());
    out
}

/// The names of every move of the program that start with a letter outside ASCII,
/// longest first (so that a name is not cut short by another it starts with).
fn option_names(p: &Program) -> Vec<String> {
    let mut names: Vec<String> = p
        .procs
        .iter()
        .flat_map(|d| d.code.iter())
        .filter_map(|op| match op {
            Op::Decide(d) => Some(d.options.iter().map(|o| o.name.clone())),
            _ => None,
        })
        .flatten()
        .filter(|n| n.chars().next().is_some_and(|c| !c.is_ascii()))
        .collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    names.dedup();
    names
}
