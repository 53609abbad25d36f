//! The greedy player: one move of lookahead on a copy of the game in which every card
//! it cannot see is reshuffled (so it never peeks). A move that wins is taken, the
//! bigger win first; otherwise the move that leaves its own cards closest to one of the
//! ruleset's patterns, by the pattern distance.

use super::Agent;
use crate::engine::{Cx, Event, Move, State, EVAL_BUDGET};
use crate::ir::{Loc, Program};
use crate::model::{CardSet, GameRng};
use crate::value::Value;

/// Wins when it can; otherwise plays towards the patterns.
pub struct Greedy {
    rng: GameRng,
}

impl Greedy {
    /// A greedy player with its own seed (for tie-breaks and reshuffles).
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: GameRng::new(seed),
        }
    }
}

impl Agent for Greedy {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn choose(&mut self, p: &Program, st: &State, seat: u8, moves: &[Move]) -> usize {
        if moves.len() <= 1 {
            return 0;
        }
        let Some(pending) = st.pending() else {
            return 0;
        };
        let Some(me) = pending.seats.iter().position(|s| s.seat == seat) else {
            return 0;
        };
        let mut world = st.clone();
        determinize(p, &mut world, seat, &mut self.rng);
        let mut best: Vec<usize> = Vec::new();
        let mut best_score = i64::MIN;
        for i in 0..moves.len() {
            let mut w = world.clone();
            // Other seats asked at the same time are assumed to pass or take their first move.
            let choices: Vec<usize> = (0..pending.seats.len())
                .map(|k| if k == me { i } else { 0 })
                .collect();
            let before = w.events.len();
            if w.apply(p, &choices).is_err() {
                continue;
            }
            let _ = w.advance(p);
            let score = evaluate(p, &w, seat, before);
            if score > best_score {
                best_score = score;
                best.clear();
            }
            if score == best_score {
                best.push(i);
            }
        }
        if best.is_empty() {
            return 0;
        }
        best[self.rng.below(best.len() as u32) as usize]
    }
}

/// How good a position is for `seat`: a win recorded since `from` beats everything;
/// otherwise fewer missing cards towards the nearest pattern is better.
fn evaluate(p: &Program, st: &State, seat: u8, from: usize) -> i64 {
    for e in &st.events[from.min(st.events.len())..] {
        if let Event::Record(s, r) = e {
            return if *s == seat {
                1_000_000 + r.total
            } else {
                -1_000_000
            };
        }
    }
    let own = owned_cards(st, seat);
    let mut locals = vec![Value::Unit; 8];
    let mut cx = Cx {
        p,
        b: Some(&st.board),
        locals: &mut locals,
        groups: &[],
        budget: EVAL_BUDGET / 100,
        at: Loc::default(),
    };
    let mut best = i64::MIN;
    for pat in &p.patterns {
        if pat.size == 0 {
            continue;
        }
        if let Ok(d) = crate::pattern::distance(&mut cx, pat, own) {
            best = best.max(-(d.missing as i64));
        }
    }
    if best == i64::MIN {
        0
    } else {
        best
    }
}

/// The cards in zones the seat owns (its hand, its captures…).
fn owned_cards(st: &State, seat: u8) -> CardSet {
    let b = &st.board;
    b.layout
        .zone_of
        .iter()
        .enumerate()
        .filter(|(_, (_, owner))| *owner == Some(seat))
        .fold(CardSet::EMPTY, |acc, (i, _)| acc.union(b.sets[i]))
}

/// Reshuffles every card `seat` cannot see among the places such cards occupy.
pub fn determinize(p: &Program, st: &mut State, seat: u8, rng: &mut GameRng) {
    let visible = st.visible_to(p, seat);
    let b = &mut st.board;
    let mut places = Vec::new();
    let mut cards = Vec::new();
    for (zi, z) in b.zones.iter().enumerate() {
        for (k, c) in z.iter().enumerate() {
            if !visible.contains(*c) {
                places.push((zi, k));
                cards.push(*c);
            }
        }
    }
    rng.shuffle(&mut cards);
    for ((zi, k), c) in places.into_iter().zip(cards) {
        b.zones[zi][k] = c;
        b.card_zone[c as usize] = zi as u16;
    }
    for (zi, z) in b.zones.iter().enumerate() {
        b.sets[zi] = z.iter().copied().collect();
    }
}
