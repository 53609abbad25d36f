//! Why a move a player named is not one of the decision's moves: the cards are not
//! where the move takes them from, the value is not one its domain offers, or a part of
//! its guard is false — so that `fuda play` and a test's `answer` can say which.

use super::exec::body;
use super::State;
use crate::ir::{Builtin, Expr, Loc, Op, Program};
use crate::model::{same_faces, CardSet};
use crate::value::Value;

/// What is wrong with a move, as [`State::why_not`] finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WhyNot {
    /// Cards the move names that are not among those it draws from (the hand), with
    /// where its domain is written.
    NotHeld(CardSet, Option<Loc>),
    /// The value is not one the domain offers (a set of the wrong size or shape), with
    /// where the domain is written.
    NotOffered(Option<Loc>),
    /// The guard's part written here is false.
    Guard(Loc),
    /// Nothing: the move is legal (or the question did not fit the decision).
    Nothing,
}

impl State {
    /// Why option `option` of the waiting decision, for `seat` with argument `arg`, is
    /// not a legal move. The board is left as it was: only the decision's locals (the
    /// seat and the parameter, which the engine sets afresh for every move it offers)
    /// are written.
    pub fn why_not(&mut self, p: &Program, seat: u8, option: usize, arg: &Value) -> WhyNot {
        let (Some(pending), Some(frame)) = (&self.pending, self.frames.last()) else {
            return WhyNot::Nothing;
        };
        let base = frame.base as usize;
        let (code, _) = body(p, frame.code);
        let Some(Op::Decide(d)) = code.get(pending.at as usize) else {
            return WhyNot::Nothing;
        };
        let Some(o) = d.options.get(option) else {
            return WhyNot::Nothing;
        };
        let at = d.loc;
        if let Some(s) = d.seat_slot {
            self.set_local(base, s, Value::Seat(seat));
        }
        let written = &o.written;
        if let Some((slot, dom)) = &o.param {
            // The cards a set move draws from: the first argument of `sets(…)`, or the
            // zone or cards a card move ranges over.
            let source = match dom {
                Expr::Call(Builtin::Sets, args, _) => args.first(),
                other => Some(other),
            };
            let named = match arg {
                Value::Cards(s) => Some(*s),
                Value::Card(c) => Some(CardSet::single(*c)),
                _ => None,
            };
            if let (Some(src), Some(named)) = (source, named) {
                if let Ok(v) = self.value_of(p, base, src, at) {
                    let held = match v {
                        Value::Zone(z) => self.board.sets.get(z as usize).copied(),
                        Value::Cards(s) => Some(s),
                        Value::Card(c) => Some(CardSet::single(c)),
                        _ => None,
                    };
                    if let Some(held) = held {
                        let missing = missing_faces(p, named, held);
                        if !missing.is_empty() {
                            return WhyNot::NotHeld(missing, written.domain);
                        }
                    }
                }
            }
            let offered = match self.value_of(p, base, dom, at) {
                Ok(Value::List(l)) => l.iter().any(|x| same_value(p, x, arg)),
                Ok(Value::Range(a, b)) => matches!(arg, Value::Int(n) if (a..=b).contains(n)),
                Ok(Value::Zone(z)) => match arg {
                    Value::Card(c) => self
                        .board
                        .sets
                        .get(z as usize)
                        .is_some_and(|s| s.contains(*c)),
                    _ => false,
                },
                Ok(Value::Cards(s)) => matches!(arg, Value::Card(c) if s.contains(*c)),
                _ => true,
            };
            if !offered {
                return WhyNot::NotOffered(written.domain);
            }
            self.set_local(base, *slot, arg.clone());
        }
        let Some(g) = &o.guard else {
            return WhyNot::Nothing;
        };
        let mut parts = g.and_leaves();
        // The compiled guard is the written parts' `and` chain; should a later pass have
        // reshaped it, the guard is told as one.
        if parts.len() != written.guard.len() {
            parts = vec![g];
        }
        for (i, part) in parts.iter().enumerate() {
            if !self.holds(p, base, part, at).unwrap_or(true) {
                let loc = match written.guard.len() {
                    n if n == parts.len() => written.guard[i],
                    _ => written.guard.first().copied().unwrap_or(at),
                };
                return WhyNot::Guard(loc);
            }
        }
        WhyNot::Nothing
    }
}

/// The cards of `named` whose faces `held` does not have as many copies of.
fn missing_faces(p: &Program, named: CardSet, held: CardSet) -> CardSet {
    let mut out = CardSet::EMPTY;
    let mut left = held;
    for c in named.iter() {
        let face = p.deck.faces.get(c as usize);
        match left.iter().find(|h| p.deck.faces.get(*h as usize) == face) {
            Some(h) => left.remove(h),
            None => out.insert(c),
        }
    }
    out
}

/// Whether a domain's item is the value a person named: sets by their faces (copies
/// alike), anything else by equality.
fn same_value(p: &Program, item: &Value, named: &Value) -> bool {
    match (item, named) {
        (Value::Cards(a), Value::Cards(b)) => same_faces(&p.deck, *a, *b),
        (a, b) => a == b,
    }
}

impl WhyNot {
    /// The reason in words, quoting the rule as written (`` `出せる(刻, p, 場, 強さ, 色,
    /// 逆転)` is false (line 205) ``); `None` for [`WhyNot::Nothing`].
    pub fn reason(&self, p: &Program) -> Option<String> {
        Some(match self {
            WhyNot::NotHeld(missing, dom) => format!(
                "{} not among the cards it takes from{}",
                match missing.len() {
                    1 => format!("{} is", super::show::cards_word(p, *missing)),
                    _ => format!("{} are", super::show::cards_word(p, *missing)),
                },
                quoted(p, *dom)
                    .map(|q| format!(", {q}"))
                    .unwrap_or_default()
            ),
            WhyNot::NotOffered(dom) => match quoted(p, *dom) {
                Some(q) => format!("it is not one of those it offers, {q}"),
                None => "it is not one of those it offers".to_string(),
            },
            WhyNot::Guard(at) => match quoted(p, Some(*at)) {
                Some(q) => format!("{q} is false"),
                None => "its condition is false".to_string(),
            },
            WhyNot::Nothing => return None,
        })
    }
}

/// The rule text at `at`, quoted with its line: `` `sets(手牌[s], 3, 3, face)` (line
/// 205) `` (a long text is cut, on one line).
fn quoted(p: &Program, at: Option<Loc>) -> Option<String> {
    let at = at?;
    let src = p.sources.get(at.file as usize)?;
    let text = src.text.get(at.span.start as usize..at.span.end as usize)?;
    let mut one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() > 60 {
        one = one.chars().take(59).collect::<String>() + "…";
    }
    let line = src.line_index(at.span.start as usize) + 1;
    Some(format!("`{one}` (line {line})"))
}
