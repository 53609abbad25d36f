//! Rules that break the ledger are caught where they break it (in play, after the
//! decision whose move did it; in a settlement, as an error rather than a result), a
//! bundled settlement refuses an end of hand play cannot reach, and a zone turned into
//! text reads as its cards.

use fuda_core::agents::{by_name, Agent};
use fuda_core::loader::NoFiles;
use fuda_core::play::{
    play_game, settle, Described, GameError, PlayOptions, SettleError, ZoneCards,
};

const RULES: &str = r#"
ruleset "ledger"
import "std/kabufuda"
seats 2 { 2: a b }
zone 山 shared stack hidden
zone 場 shared pile public
var chips: int per seat = 0
ledger chips
proc match {
  repeat 3 {
    choose dealer {
      move 足す { chips[0] += 1 }
      move 同じ { chips[0] += 1 }
    }
  }
}
proc 払う { pay 3 from chips[1] to chips[0] }
proc 作る { chips[0] += 5 }
proc 見せる { say "場: " + 場 }
"#;

fn program() -> fuda_core::Program {
    match fuda_core::compile("t.fuda", RULES, &NoFiles) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    }
}

#[test]
fn a_broken_ledger_is_blamed_on_the_decision_whose_move_broke_it() {
    let p = program();
    for agent in ["random", "eager", "greedy"] {
        let mut agents: Vec<Box<dyn Agent>> =
            (0..2).map(|s| by_name(agent, s).expect("agent")).collect();
        let opts = PlayOptions {
            check_invariants: true,
            ..PlayOptions::default()
        };
        match play_game(&p, &[], 1, &mut agents, &opts) {
            Err(GameError::Invariant(e)) => {
                assert_eq!(e.decision, 1, "{agent}: {}", e.message);
                assert!(e.message.contains("sums to 1, not 0"), "{}", e.message);
            }
            other => panic!("{agent}: {:?}", other.map(|r| r.decisions)),
        }
    }
}

/// A rule that lends itself chips and gives them back before anything is recorded
/// leaves the ledger as it was wherever it is read: no player of the game calls that a
/// break (the register machine reads the ledger only there, the engine follows it at
/// every decision but judges it there too).
const LENDS: &str = r#"
ruleset "lends"
import "std/kabufuda"
seats 2 { 2: a b }
zone 山 shared stack hidden
var chips: int per seat = 0
ledger chips
proc match {
  repeat 3 {
    choose dealer {
      move 借りる { chips[0] += 1 }
      move 待つ { }
    }
    chips[0] = 0
    outcome "返した"
  }
}
"#;

#[test]
fn a_ledger_put_right_before_it_is_read_is_not_broken() {
    let p = match fuda_core::compile("t.fuda", LENDS, &NoFiles) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    };
    for agent in ["random", "eager", "greedy"] {
        for seed in 0..8 {
            let mut agents: Vec<Box<dyn Agent>> =
                (0..2).map(|s| by_name(agent, s).expect("agent")).collect();
            let opts = PlayOptions {
                check_invariants: true,
                ..PlayOptions::default()
            };
            let r = play_game(&p, &[], seed, &mut agents, &opts);
            assert!(r.is_ok(), "{agent}, seed {seed}: {:?}", r.err());
        }
    }
}

#[test]
fn a_settlement_that_makes_chips_is_an_error() {
    let p = program();
    let balanced = settle(&p, &[], &Described::proc("払う")).expect("pay balances");
    assert_eq!(balanced.chips, vec![3, -3]);
    match settle(&p, &[], &Described::proc("作る")) {
        Err(SettleError::Runtime(e)) => {
            assert!(e.message.contains("does not balance"), "{}", e.message);
            assert!(e.message.contains("sums to 5, not 0"), "{}", e.message);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_zone_in_text_reads_as_its_cards() {
    let p = program();
    let ids = ["1a", "2b"];
    let cards = ids
        .iter()
        .map(|id| p.deck.ids.iter().position(|d| d == id).expect("a card") as u16)
        .collect();
    let zones = [ZoneCards {
        zone: "場".into(),
        seat: None,
        cards,
    }];
    let s = settle(
        &p,
        &[],
        &Described {
            zones: zones.to_vec(),
            ..Described::proc("見せる")
        },
    )
    .expect("settles");
    assert_eq!(s.log.len(), 1);
    assert!(
        s.log[0].contains("(1a)") && s.log[0].contains("(2b)"),
        "{}",
        s.log[0]
    );
    assert!(!s.log[0].contains("zone"), "{}", s.log[0]);
}

#[test]
fn naras_settlement_refuses_an_end_of_hand_with_cards_left_out() {
    let text = include_str!("../../../rulesets/nara-hanaawase.fuda");
    let p = fuda_core::compile("nara-hanaawase.fuda", text, &NoFiles)
        .expect("compiles")
        .program;
    let pile = |seat: u8, range: std::ops::Range<usize>| ZoneCards {
        zone: "取り札".into(),
        seat: Some(seat),
        cards: range.map(|c| c as u16).collect(),
    };
    // Three cards captured, 46 nowhere: refused.
    match settle(
        &p,
        &[],
        &Described {
            zones: vec![pile(0, 0..3)],
            ..Described::proc("清算")
        },
    ) {
        Err(SettleError::Runtime(e)) => {
            assert!(e.message.contains("cannot arise"), "{}", e.message)
        }
        other => panic!("{other:?}"),
    }
    // Every card in some pile: settled, and the four results sum to zero.
    let n = p.deck.ids.len();
    let all = [
        pile(0, 0..12),
        pile(1, 12..24),
        pile(2, 24..36),
        pile(3, 36..n),
    ];
    let s = settle(
        &p,
        &[],
        &Described {
            zones: all.to_vec(),
            ..Described::proc("清算")
        },
    )
    .expect("settles");
    assert_eq!(s.chips.iter().sum::<i64>(), 0, "{:?}", s.chips);
}
