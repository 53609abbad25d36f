//! What a move that ends the deal would score for the person, shown beside it in the
//! list of moves (`当たり — 下短冊 2 + 福当たり 10 = 12`). The move is tried on a copy of
//! the game, up to the next decision, and the scores the rules record for the person
//! there are read: exactly what taking it records, whatever the rules compute (timing
//! bonuses, a hand as dealt). The copy holds every card, hidden ones too; so that what
//! is shown tells nothing of them, the move is tried again on copies in which the cards
//! the person cannot see are shuffled among their places, and a score that changes
//! with them is not given.

use std::sync::Arc;

use fuda_core::engine::{Event, Move};
use fuda_core::model::{CardIx, GameRng};
use fuda_core::value::ScoreResult;
use fuda_core::{Program, State};

/// How many shuffled copies a score must agree with to be shown.
const SHUFFLES: usize = 3;

/// Said of a move whose score would tell something of hidden cards.
const HIDDEN: &str = "its score depends on cards you cannot see";

/// For each of `moves` (those of seat `me` at the waiting decision), the text to show
/// beside it: what it would score, for a move that may end the round (a declared win)
/// and after which the rules record a score for `me` before the deal's `outcome`.
pub fn scores(p: &Program, st: &State, me: u8, moves: &[Move]) -> Vec<Option<String>> {
    let Some(pending) = st.pending() else {
        return vec![None; moves.len()];
    };
    let code = st.pending_code(p);
    (0..moves.len())
        .map(|i| {
            if !pending.ends_round(code, &moves[i]) {
                return None;
            }
            let scored = try_move(p, st.clone_without_events(), me, i)?;
            // Seeded from the game's progress: the same game shows the same lines.
            let mut rng = GameRng::new(st.decisions.wrapping_mul(0x9e37_79b9) ^ i as u64);
            for _ in 0..SHUFFLES {
                let mut w = st.clone_without_events();
                shuffle_hidden(p, &mut w, me, &mut rng);
                if try_move(p, w, me, i).as_ref() != Some(&scored) {
                    return Some(HIDDEN.to_string());
                }
            }
            Some(scored.iter().map(|r| sum(r)).collect::<Vec<_>>().join("; "))
        })
        .collect()
}

/// The scores recorded for `me` when it takes its move `i` in `w` (the other seats
/// asked at once pass, or take their first move) until the deal's `outcome` or the
/// next decision; `None` when there are none or the rules stop.
fn try_move(p: &Program, mut w: State, me: u8, i: usize) -> Option<Vec<Arc<ScoreResult>>> {
    w.keep_log = false;
    let pending = w.pending()?;
    let choices: Vec<usize> = pending
        .seats
        .iter()
        .map(|s| if s.seat == me { i } else { 0 })
        .collect();
    w.apply(p, &choices).ok()?;
    w.advance(p).ok()?;
    let scored: Vec<Arc<ScoreResult>> = w
        .events
        .iter()
        .take_while(|e| !matches!(e, Event::Outcome(..)))
        .filter_map(|e| match e {
            Event::Record(s, r, _) if *s == me => Some(r.clone()),
            _ => None,
        })
        .collect();
    (!scored.is_empty()).then_some(scored)
}

/// A score as its lines add up: `下短冊 2 + 福当たり 10 = 12`, or `素役 1` alone.
fn sum(r: &ScoreResult) -> String {
    let parts: Vec<String> = r
        .yaku
        .iter()
        .map(|y| format!("{} {}", y.name, y.value))
        .collect();
    match parts.as_slice() {
        [] => format!("{} {}", r.name, r.total),
        [one] if r.yaku[0].value == r.total => one.clone(),
        _ => format!("{} = {}", parts.join(" + "), r.total),
    }
}

/// Shuffles every card seat `me` cannot see among the places such cards lie (as a
/// player that never peeks imagines the table).
fn shuffle_hidden(p: &Program, st: &mut State, me: u8, rng: &mut GameRng) {
    let visible = st.visible_to(p, me);
    let b = &mut st.board;
    let mut places: Vec<(usize, usize)> = Vec::new();
    let mut cards: Vec<CardIx> = Vec::new();
    for (zi, z) in b.zones.iter().enumerate() {
        for (k, c) in z.iter().enumerate() {
            if !visible.contains(*c) {
                places.push((zi, k));
                cards.push(*c);
            }
        }
    }
    rng.shuffle(&mut cards);
    for (&(zi, k), &c) in places.iter().zip(&cards) {
        b.zones[zi][k] = c;
        b.card_zone[c as usize] = zi as u16;
    }
    for (zi, set) in b.sets.iter_mut().enumerate() {
        *set = b.zones[zi].iter().copied().collect();
    }
    b.recount_fit();
}
