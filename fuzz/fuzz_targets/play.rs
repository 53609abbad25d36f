//! A fixed program (珊瑚花) played with the fuzzer's bytes as the moves: the first byte
//! picks the player count, the next eight the seed, then one byte per asked seat per
//! decision (its index among the legal moves; 0xFF asks the greedy agent instead, and
//! 0xFE first tries an illegal choice, which must be refused without changing anything;
//! 0xFD plays the rest of the game twice from there, once with random and eager players
//! lent to the engine and once asking them from outside, and requires the same game).
//! After every decision, every card is in exactly one zone and the ledger balances.
#![no_main]

use std::sync::OnceLock;

use fuda_core::agents::{Agent, AutoPlayers, Eager, Greedy, Random};
use fuda_core::engine::Move;
use fuda_core::loader::MemoryFiles;
use fuda_core::value::Value;
use fuda_core::{Program, State};
use libfuzzer_sys::fuzz_target;

fn program() -> &'static Program {
    static P: OnceLock<Program> = OnceLock::new();
    P.get_or_init(|| {
        let text = include_str!("../../rulesets/sangohana.fuda");
        fuda_core::compile("sangohana.fuda", text, &MemoryFiles::default())
            .expect("sangohana compiles")
            .program
    })
}

fuzz_target!(|data: &[u8]| {
    let p = program();
    if data.len() < 9 {
        return;
    }
    let players = 2 + (data[0] % 3) as i64;
    let seed = u64::from_le_bytes(data[1..9].try_into().expect("8 bytes"));
    let mut params: Vec<Option<Value>> = vec![None; p.params.len()];
    if let Some(i) = p.params.iter().position(|d| d.name == "players") {
        params[i] = Some(Value::Int(players));
    }
    // Short matches, so the bytes reach the end of a game.
    if let Some(i) = p.params.iter().position(|d| d.name == "deals") {
        params[i] = Some(Value::Int(1 + (data[0] / 3 % 3) as i64));
    }
    let mut st = State::new(p, &params, seed).expect("a new game");
    let ledger0 = st.ledger_sum();
    let mut greedy = Greedy::new(seed);
    let mut bytes = data[9..].iter().copied();
    loop {
        match st.advance(p) {
            Ok(true) => break,
            Ok(false) => {}
            Err(e) => panic!("sangohana failed at run time: {}", e.message),
        }
        let pending = st.pending().expect("a decision waits").clone();
        let mut choices = Vec::with_capacity(pending.seats.len());
        let mut bad = false;
        for sm in &pending.seats {
            assert!(!sm.moves.is_empty(), "seat {} has no moves", sm.seat);
            let Some(b) = bytes.next() else {
                return; // out of moves: the game so far was checked
            };
            if b == 0xFD {
                return finish_both_ways(p, &st, seed, ledger0);
            }
            choices.push(match b {
                0xFF => greedy
                    .choose(p, &st, sm.seat, &sm.moves)
                    .min(sm.moves.len() - 1),
                0xFE => {
                    bad = true;
                    0
                }
                b => b as usize % sm.moves.len(),
            });
        }
        if bad {
            let print = st.fingerprint();
            let mut wrong = choices.clone();
            wrong[0] = pending.seats[0].moves.len();
            assert!(st.apply(p, &wrong).is_err(), "an illegal choice was taken");
            assert!(
                st.pending().is_some(),
                "a refused choice dropped the decision"
            );
            assert!(st.fingerprint() == print, "a refused choice changed the game");
            assert!(
                st.take_move(p, &choices[1..]).is_err(),
                "too few choices were taken"
            );
            assert!(st.fingerprint() == print, "a refused move changed the game");
        }
        st.apply(p, &choices).expect("a legal choice is taken");
        st.check_cards().expect("every card in one zone");
        assert_eq!(st.ledger_sum(), ledger0, "the ledger balances");
    }
    st.check_cards().expect("every card in one zone at the end");
    assert_eq!(st.ledger_sum(), ledger0, "the ledger balances at the end");
});

/// Even seats random, odd seats eager, seeded from the game.
fn players(seed: u64, seats: u8) -> Vec<Box<dyn Agent>> {
    (0..seats as u64)
        .map(|s| -> Box<dyn Agent> {
            if s % 2 == 0 {
                Box::new(Random::new(seed ^ s))
            } else {
                Box::new(Eager::new(seed ^ s))
            }
        })
        .collect()
}

/// Plays the rest of the game from `st` (a decision waiting) with the players lent to
/// the engine, and again asking them from outside, and requires the same game: the
/// same events, variables, cards and number of decisions.
fn finish_both_ways(p: &Program, st: &State, seed: u64, ledger0: i64) {
    let seats = st.board.seats;
    let mut lent_agents = players(seed, seats);
    let mut lent = AutoPlayers::of(&mut lent_agents).expect("random and eager lend");
    lent.through = seed % 2 == 0;
    let mut a = st.clone();
    let mut outside = players(seed, seats);
    let mut b = st.clone();
    // The lent players, the engine taking what moves it can count.
    loop {
        if let Some(pd) = a.pending() {
            let choices: Vec<usize> = pd
                .seats
                .iter()
                .map(|sm| lent.seat(sm.seat).choose(p, &a, &sm.moves))
                .collect();
            a.apply(p, &choices).expect("a legal choice is taken");
        }
        a.check_cards().expect("every card in one zone");
        assert_eq!(a.ledger_sum(), ledger0, "the ledger balances");
        match a.advance_with(p, &mut lent) {
            Ok(true) => break,
            Ok(false) => {}
            Err(e) => panic!("sangohana failed at run time: {}", e.message),
        }
    }
    // The same players asked at every decision.
    loop {
        if let Some(pd) = b.pending() {
            let choices: Vec<usize> = pd
                .seats
                .iter()
                .map(|sm| ask(&mut outside, p, &b, sm.seat, &sm.moves))
                .collect();
            b.apply(p, &choices).expect("a legal choice is taken");
        }
        match b.advance(p) {
            Ok(true) => break,
            Ok(false) => {}
            Err(e) => panic!("sangohana failed at run time: {}", e.message),
        }
    }
    assert_eq!(
        format!("{:?}", a.events),
        format!("{:?}", b.events),
        "the same events"
    );
    assert_eq!(
        format!("{:?}", a.board.vars),
        format!("{:?}", b.board.vars),
        "the same variables"
    );
    assert_eq!(
        a.board.zones.to_lists(),
        b.board.zones.to_lists(),
        "the same cards"
    );
    assert_eq!(a.decisions, b.decisions, "the same number of decisions");
}

/// Seat `seat`'s player's choice among `moves`.
fn ask(agents: &mut [Box<dyn Agent>], p: &Program, st: &State, seat: u8, moves: &[Move]) -> usize {
    agents[seat as usize].choose(p, st, seat, moves)
}
