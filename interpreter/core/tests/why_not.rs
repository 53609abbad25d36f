//! `State::why_not` agrees with the moves the engine offers: at every decision of
//! random 富戯 and 対戯 games, a move the engine lists has no reason against it, and
//! any other set of the deciding seat's cards named for a set move (or card for a card
//! move) has one — so what `fuda play` and a test's `answer` are told is never a reason
//! against a legal move, nor silence about an illegal one.

use fuda_core::agents::{by_name, Agent};
use fuda_core::engine::WhyNot;
use fuda_core::ir::{Builtin, DecideKind, Expr, Op};
use fuda_core::loader::NoFiles;
use fuda_core::model::{same_faces, splitmix64, CardSet};
use fuda_core::play::agent_seed;
use fuda_core::value::Value;
use fuda_core::{Program, State};

fn program(text: &str) -> Program {
    match fuda_core::compile("game.fuda", text, &NoFiles) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    }
}

/// Whether `arg` is the argument of a listed move of option `option`.
fn listed(p: &Program, moves: &[fuda_core::engine::Move], option: usize, arg: &Value) -> bool {
    moves.iter().any(|m| {
        m.option as usize == option
            && match (&m.arg, arg) {
                (Value::Cards(a), Value::Cards(b)) => same_faces(&p.deck, *a, *b),
                (a, b) => a == b,
            }
    })
}

/// Up to `n` sets drawn from `cards`, of one to four cards each, from seed `seed`.
fn some_sets(cards: CardSet, n: usize, seed: u64) -> Vec<CardSet> {
    let all: Vec<u16> = cards.iter().collect();
    let mut out = Vec::new();
    let mut x = seed;
    for _ in 0..n {
        if all.is_empty() {
            break;
        }
        x = splitmix64(x);
        let size = 1 + (x % 4) as usize;
        let mut s = CardSet::EMPTY;
        for _ in 0..size {
            x = splitmix64(x);
            s.insert(all[(x % all.len() as u64) as usize]);
        }
        out.push(s);
    }
    out
}

/// Plays `games` random games of `p`, checking `why_not` at each single-seat decision;
/// returns how many refusals were checked.
fn check(p: &Program, games: u64, decisions: usize) -> usize {
    let mut refused = 0;
    for g in 0..games {
        let seed = 1000 + g;
        let mut st = State::new(p, &[], seed).expect("starts");
        let seats = st.board.seats as usize;
        let mut agents: Vec<Box<dyn Agent>> = (0..seats)
            .map(|s| by_name("random", agent_seed(seed, s)).expect("agent"))
            .collect();
        for k in 0..decisions {
            if st.advance(p).expect("advances") {
                break;
            }
            let pending = st.pending().expect("a decision").clone();
            let code = st.pending_code(p);
            let Some(Op::Decide(d)) = code.get(pending.at as usize) else {
                panic!("a decision's op");
            };
            if pending.kind == DecideKind::One {
                let sm = &pending.seats[0];
                let hand = st
                    .board
                    .layout
                    .zone_of
                    .iter()
                    .enumerate()
                    .filter(|(_, (_, owner))| *owner == Some(sm.seat))
                    .fold(CardSet::EMPTY, |acc, (i, _)| acc.union(st.board.sets[i]));
                for m in &sm.moves {
                    let why = st.clone().why_not(p, sm.seat, m.option as usize, &m.arg);
                    assert_eq!(why, WhyNot::Nothing, "a listed move is refused: {m:?}");
                }
                for (o, def) in d.options.iter().enumerate() {
                    let Some((_, dom)) = &def.param else {
                        continue;
                    };
                    let set_move = matches!(dom, Expr::Call(Builtin::Sets, ..));
                    for s in some_sets(hand, 6, seed ^ (k as u64) << 8 ^ o as u64) {
                        let arg = if set_move {
                            Value::Cards(s)
                        } else {
                            match s.first() {
                                Some(c) => Value::Card(c),
                                None => continue,
                            }
                        };
                        let why = st.clone().why_not(p, sm.seat, o, &arg);
                        if listed(p, &sm.moves, o, &arg) {
                            assert_eq!(why, WhyNot::Nothing, "option {o}, {arg:?}");
                        } else {
                            assert_ne!(why, WhyNot::Nothing, "option {o}, {arg:?}: no reason");
                            assert!(why.reason(p).is_some());
                            refused += 1;
                        }
                    }
                }
            }
            let choices: Vec<usize> = pending
                .seats
                .iter()
                .map(|s| agents[s.seat as usize].choose(p, &st, s.seat, &s.moves))
                .collect();
            st.apply(p, &choices).expect("applies");
        }
    }
    refused
}

#[test]
fn fugi_reasons_agree_with_the_moves() {
    let p = program(include_str!("../../../rulesets/fugi.fuda"));
    let refused = check(&p, 3, 150);
    assert!(refused > 100, "only {refused} refusals checked");
}

#[test]
fn taigi_reasons_agree_with_the_moves() {
    let p = program(include_str!("../../../rulesets/taigi.fuda"));
    let refused = check(&p, 2, 100);
    assert!(refused > 20, "only {refused} refusals checked");
}
