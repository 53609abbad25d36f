//! A fixed program (珊瑚花) played with the fuzzer's bytes as the moves: the first byte
//! picks the player count, the next eight the seed, then one byte per asked seat per
//! decision (its index among the legal moves; 0xFF asks the greedy agent instead, and
//! 0xFE first tries an illegal choice, which must be refused without changing anything).
//! After every decision, every card is in exactly one zone and the ledger balances.
#![no_main]

use std::sync::OnceLock;

use fuda_core::agents::{Agent, Greedy};
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
    let ledger0 = st.ledger_sum(p);
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
            let before = st.decisions;
            let mut wrong = choices.clone();
            wrong[0] = pending.seats[0].moves.len();
            assert!(st.apply(p, &wrong).is_err(), "an illegal choice was taken");
            assert!(
                st.pending().is_some(),
                "a refused choice dropped the decision"
            );
            assert_eq!(st.decisions, before);
            assert!(
                st.apply(p, &choices[1..]).is_err(),
                "too few choices were taken"
            );
        }
        st.apply(p, &choices).expect("a legal choice is taken");
        st.check_cards().expect("every card in one zone");
        assert_eq!(st.ledger_sum(p), ledger0, "the ledger balances");
    }
    st.check_cards().expect("every card in one zone at the end");
    assert_eq!(st.ledger_sum(p), ledger0, "the ledger balances at the end");
});
