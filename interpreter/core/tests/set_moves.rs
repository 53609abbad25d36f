//! Moves whose parameter is a set of cards (`move 出す(p in sets(手[s], 1, 3))`): one
//! move per multiset of faces (the lowest copies held), in a fixed order, under a cap,
//! with guards and patterns, named by `answer`, and played by every computer player.

use fuda_core::agents::{by_name, Agent};
use fuda_core::engine::show;
use fuda_core::loader::NoFiles;
use fuda_core::play::{agent_seed, play_game, PlayOptions};
use fuda_core::value::Value;
use fuda_core::{Program, State};

fn program(text: &str) -> Program {
    match fuda_core::compile("t.fuda", text, &NoFiles) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    }
}

/// Runs every test of a program, failing with the first test's error.
fn run_tests(p: &Program) {
    for i in 0..p.tests.len() {
        if let Err(e) = State::run_test(p, i) {
            panic!("test \"{}\": {} ({:?})", p.tests[i].name, e.message, e.help);
        }
    }
}

/// A game whose `match` sets a hand, then asks one decision: `OPTIONS` are its moves.
fn one_decision(hand: &str, options: &str) -> Program {
    program(&format!(
        r#"
ruleset "x"
import "std/mahjong"
seats 2 {{ 2: 親 子 }}
zone 山 shared stack hidden
zone 手 per seat pile owner
zone 場 shared pile public
pattern 面子 {{ group m: 3 same face | run number by suit }}
def 同じ(p: cards) = all(c in p: c.face == p.face)
proc match {{
  move cards("{hand}") to 手[0]
  choose 0 {{
    {options}
  }}
}}
"#
    ))
}

/// The moves the first decision offers, as `fuda play` lists them.
fn offered(p: &Program) -> Vec<String> {
    let mut st = State::new(p, &[], 1).expect("starts");
    assert!(!st.advance(p).expect("runs"), "a decision waits");
    let pending = st.pending().expect("pending");
    let code = st.pending_code(p);
    pending.seats[0]
        .moves
        .iter()
        .map(|m| pending.describe(p, code, m))
        .collect()
}

#[test]
fn copies_of_a_face_make_one_move() {
    // 2m 2m 3m 4m: six pairs of cards, four pairs of faces.
    let p = one_decision(
        "2m 2m 3m 4m",
        "move 出す(p in sets(手[0], 2)) { move p to 場 }",
    );
    assert_eq!(
        offered(&p),
        ["出す 22m", "出す 23m", "出す 24m", "出す 34m"]
    );
    // Each holds the lowest copies the hand holds.
    let mut st = State::new(&p, &[], 1).expect("starts");
    st.advance(&p).expect("runs");
    let held: Vec<u16> = p.deck.parse_card_list("2m 2m 3m 4m").expect("cards");
    let Value::Cards(first) = st.pending().expect("pending").seats[0].moves[0].arg else {
        panic!("a set");
    };
    assert_eq!(first.iter().collect::<Vec<_>>(), held[..2]);
}

#[test]
fn a_hand_of_other_copies_takes_its_own_lowest() {
    // The hand holds the 3rd and 4th copies of 5p: the move is over those.
    let p = program(
        r#"
ruleset "x"
import "std/mahjong"
seats 1 { 1: A }
zone 山 shared stack hidden
zone 手 per seat pile owner
zone 場 shared pile public
proc match {
  move cards("5p 5p") to 場
  move filter(c in 山: c.face == 五筒) + card(1z) to 手[0]
  choose 0 { move 出す(p in sets(手[0], 2)) { move p to 場 } }
}
"#,
    );
    let mut st = State::new(&p, &[], 1).expect("starts");
    st.advance(&p).expect("runs");
    let moves = &st.pending().expect("pending").seats[0].moves;
    assert_eq!(moves.len(), 2, "55p and 5p1z");
    let all5p: Vec<u16> = p.deck.parse_card_list("5p 5p 5p 5p").expect("cards");
    assert_eq!(
        moves[0].arg,
        Value::Cards(all5p[2..].iter().copied().collect())
    );
}

#[test]
fn moves_are_ordered_by_size_then_cards() {
    let p = one_decision(
        "3m 1m 2m",
        "move 出す(p in sets(手[0], 1, 3)) { move p to 場 }",
    );
    assert_eq!(
        offered(&p),
        [
            "出す 1m",
            "出す 2m",
            "出す 3m",
            "出す 12m",
            "出す 13m",
            "出す 23m",
            "出す 123m"
        ]
    );
    // The same on every run, whatever the seed.
    let again: Vec<Vec<String>> = (0..3).map(|_| offered(&p)).collect();
    assert!(again.iter().all(|o| *o == again[0]));
}

#[test]
fn a_guard_and_a_pattern_choose_among_the_sets() {
    // The two tiles that make a meld with a discard 4m: 23m, 35m, 44m (not 2m5m, 3m3m…).
    // The hand holds the first two copies of 4m, the discard another.
    let p = program(
        r#"
ruleset "x"
import "std/mahjong"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
zone 手 per seat pile owner
zone 河 shared pile public
zone 場 shared pile public
pattern 面子 { group m: 3 same face | run number by suit }
proc match {
  move cards("2m 3m 3m 4m 4m 5m 9p") to 手[0]
  move filter(c in 山: c.face == 四萬) to 河
  let d = top(河)
  choose 0 {
    move 副露(m in sets(手[0], 2)) when 面子(m + d) { move m to 場 }
    move 見送り { }
  }
}
"#,
    );
    assert_eq!(offered(&p), ["副露 23m", "副露 35m", "副露 44m", "見送り"]);
    // A guard that holds for none leaves only the other moves.
    let p3 = one_decision(
        "1z 3z 5z",
        r#"move 出す(p in sets(手[0], 2)) when 同じ(p) { move p to 場 }
    move 見送り { }
    move 待つ { }"#,
    );
    assert_eq!(offered(&p3), ["見送り", "待つ"]);
}

#[test]
fn a_quantifier_ranges_over_sets_too() {
    let p = program(
        r#"
ruleset "x"
import "std/mahjong"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
pattern 面子 { group m: 3 same face | run number by suit }
def 鳴ける(h: cards, d: card) = any(m in sets(h, 2): 面子(m + d))
test "sets in a quantifier" {
  expect count(sets(cards("2m 2m 3m 4m"), 2)) == 4
  expect count(sets(cards("1m 2m 3m"), 0, 3)) == 8
  expect count(sets(cards("1m 1m 1m 1m"), 1, 4)) == 4
  expect count(sets(cards("1m 2m"), 3)) == 0
  expect sets(cards("1m 2m"), 1) == [cards("1m"), cards("2m")]
  expect 鳴ける(cards("3m 5m 9p"), card(4m))
  expect not 鳴ける(cards("3m 6m 9p"), card(4m))
}
"#,
    );
    run_tests(&p);
}

#[test]
fn past_ten_thousand_sets_is_an_error_that_says_so() {
    // The whole deck, 34 faces of four: far more than 10,000 sets of 1 to 14.
    let p = program(
        r#"
ruleset "x"
import "std/mahjong"
seats 1 { 1: A }
zone 山 shared stack hidden
zone 場 shared pile public
proc match {
  choose 0 { move 出す(p in sets(山, 1, 14)) { move p to 場 } }
}
test "too many" { expect count(sets(山, 7)) > 0 }
test "under the cap" { expect count(sets(cards("123456789m1234p"), 6)) == 1716 }
"#,
    );
    let mut st = State::new(&p, &[], 1).expect("starts");
    let e = st.advance(&p).expect_err("too many sets");
    assert!(e.message.contains("more than 10000 sets"), "{}", e.message);
    assert!(e.help.as_deref().is_some_and(|h| h.contains("narrow")));
    let e = State::run_test(&p, 0).expect_err("too many sets");
    assert!(
        e.message.contains("136 cards, 7 at a time"),
        "{}",
        e.message
    );
    State::run_test(&p, 1).expect("13 faces, 6 at a time: C(13, 6)");
}

const CALLS: &str = r#"
ruleset "x"
import "std/mahjong"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
zone 手 per seat pile owner
zone 河 per seat pile public
zone 晒し per seat pile public
pattern 面子 { group m: 3 same face | run number by suit }
proc match { }
proc 鳴き(x: seat) {
  let d = top(河[next(x)])
  choose x {
    move 副露(m in sets(手[x], 2)) "副露" when 面子(m + d) { move m to 晒し[x]; move d to 晒し[x] }
    move 見送り { }
  }
}
"#;

#[test]
fn answer_names_a_set_by_its_tiles() {
    let p = program(&format!(
        r#"{CALLS}
test "the hand's own copies are taken" {{
  move cards("4m") to 河[1]
  move cards("2m 2m 3m 3m 5m") to 手[0]
  move cards("2m 3m") to 晒し[1]
  answer 副露(cards("23m"))
  鳴き(0)
  expect 手[0] == cards("5m")
  expect count(晒し[0]) == 3 and not (card(2m) in 晒し[0])
}}
test "compact or spelt out, in any order" {{
  move cards("4m") to 河[1]
  move cards("3m 5m 6m") to 手[0]
  answer 副露(cards("5m 3m"))
  鳴き(0)
  expect count(晒し[0]) == 3 and count(手[0]) == 1
}}
"#
    ));
    run_tests(&p);
    let wrong = program(&format!(
        r#"{CALLS}
test "not a meld" {{
  move cards("4m") to 河[1]
  move cards("2m 3m 5m 9p") to 手[0]
  answer 副露(cards("2m 9p"))
  鳴き(0)
}}
"#
    ));
    let e = State::run_test(&wrong, 0).expect_err("not a legal set");
    assert!(
        e.message
            .contains(r#"`answer 副露(cards("2m9p"))` is not a legal move"#)
            && e.message
                .contains(r#"副露(cards("23m")), 副露(cards("35m")), 見送り"#),
        "{}",
        e.message
    );
}

/// A climbing game: play one to three tiles of a face, or pass; the first to empty
/// their hand wins.
const CLIMB: &str = r#"
ruleset "climb"
import "std/mahjong"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
zone 手 per seat pile owner
zone 場 shared pile public
enum 結果: 上がり(win) | 流局(draw)
var chips: int per seat = 0
ledger chips
def 同じ(p: cards) = all(c in p: c.face == p.face)
proc match {
  gather 山
  shuffle 山
  deal 8 from 山 to 手
  let s = dealer
  let n = 0
  while n < 40 {
    choose s {
      move 出す(p in sets(手[s], 1, 3)) "出す" when 同じ(p) { move p to 場 }
      move 見送り when count(手[s]) > 2 { }
    }
    if empty(手[s]) {
      outcome 上がり
      pay 1 from chips[next(s)] to chips[s]
      return
    }
    s = next(s)
    n += 1
  }
  outcome 流局
}
"#;

#[test]
fn every_computer_player_plays_set_moves() {
    let p = program(CLIMB);
    for agent in ["random", "eager", "greedy"] {
        for seed in 0..6 {
            let mut agents: Vec<Box<dyn Agent>> = (0..2)
                .map(|s| by_name(agent, agent_seed(seed, s)).expect("agent"))
                .collect();
            let opts = PlayOptions {
                check_invariants: true,
                ..PlayOptions::default()
            };
            let r = play_game(&p, &[], seed, &mut agents, &opts)
                .unwrap_or_else(|e| panic!("{agent} game {seed}: {e:?}"));
            assert_eq!(r.outcomes.len(), 1, "{agent} game {seed}");
        }
    }
}

#[test]
fn the_machine_plays_set_moves_as_the_engine_does() {
    let p = program(CLIMB);
    // The register machine lowers a `choose` over sets of cards (each set bound in
    // turn, its guard asked) and plays the engine's games.
    assert!(p.vm.image(&p, 2).is_ok(), "{:?}", p.vm.image(&p, 2).err());
    for seed in 0..4 {
        let game = |engine_only: bool| {
            let mut agents: Vec<Box<dyn Agent>> = (0..2)
                .map(|s| by_name("random", agent_seed(seed, s)).expect("agent"))
                .collect();
            let opts = PlayOptions {
                engine_only,
                ..PlayOptions::default()
            };
            format!("{:?}", play_game(&p, &[], seed, &mut agents, &opts))
        };
        assert_eq!(game(true), game(false), "game {seed}");
    }
}

#[test]
fn a_set_reads_back_from_its_word() {
    let p = program(CLIMB);
    for text in ["1m 1m 2m 9p 7z", "5s", "1m 2m 3m 1p 2p 1z 1z"] {
        let set = p
            .deck
            .parse_card_list(text)
            .expect("cards")
            .into_iter()
            .collect();
        let word = show::cards_word(&p, set);
        let back = p.deck.parse_card_list(&word).expect("reads back");
        assert_eq!(
            back.into_iter().collect::<fuda_core::model::CardSet>(),
            set,
            "{word}"
        );
    }
    assert_eq!(
        show::cards_word(
            &p,
            p.deck
                .parse_card_list("1m 1m 2m 9p 7z")
                .unwrap()
                .into_iter()
                .collect()
        ),
        "112m9p7z"
    );
}

/// `sets` inside a guard's quantifier: the register machine declines it too, and the
/// games are the engine's whichever way they are asked for.
#[test]
fn sets_in_a_quantifier_play_the_engines_games() {
    let p = program(
        r#"
ruleset "x"
import "std/mahjong"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
zone 手 per seat pile owner
zone 河 shared stack public
enum 結果: 終(end)
var 鳴き: int per seat = 0
pattern 面子 { group m: 3 same face | run number by suit }
proc match {
  gather 山
  shuffle 山
  deal 10 from 山 to 手
  let s = dealer
  repeat 30 {
    move top(山) to 手[s]
    choose s { move 捨てる(d in 手[s]) { move d to 河 } }
    let d = top(河)
    choose next(s) {
      move 鳴く when any(m in sets(手[next(s)], 2): 面子(m + d)) { 鳴き[next(s)] += 1 }
      move 見送り { }
    }
    s = next(s)
  }
  outcome 終
}
"#,
    );
    for seed in 0..6 {
        let game = |engine_only: bool| {
            let mut agents: Vec<Box<dyn Agent>> = (0..2)
                .map(|s| by_name("random", agent_seed(seed, s)).expect("agent"))
                .collect();
            let opts = PlayOptions {
                engine_only,
                ..PlayOptions::default()
            };
            format!("{:?}", play_game(&p, &[], seed, &mut agents, &opts))
        };
        assert_eq!(game(true), game(false), "game {seed}");
    }
    // `sets` in a guard is worked out by the engine's evaluator from inside the
    // machine, which plays these games itself.
    assert!(p.vm.image(&p, 2).is_ok(), "{:?}", p.vm.image(&p, 2).err());
}
