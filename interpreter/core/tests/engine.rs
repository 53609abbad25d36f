//! Engine behaviour on small rulesets: decisions inside simultaneous choices, arithmetic
//! corners, compact tile notation, variables compared by value, `waits`, rounds that never
//! end, derived decks' defaults and computed parameter defaults, dealers by draw. The fast
//! paths against the full evaluation are in `fast_paths.rs`.

mod common;

use common::{program, run_tests};
use fuda_core::agents::{by_name, Agent};
use fuda_core::loader::NoFiles;
use fuda_core::play::{play_game, PlayOptions};

#[test]
fn a_decision_nested_in_a_simultaneous_choice_keeps_the_queue() {
    let p = program(
        r#"
ruleset "x"
import "std/kabufuda"
seats 2 { 2: A B }
zone 山 shared stack hidden
zone 手 per seat pile owner
var n: int per seat = 0
proc match {
  repeat 5 {
    gather 山
    shuffle 山
    deal 2 from 山 to 手
    choose each x in seats() {
      move a { choose x { move p(c in 手[x]) { move c to 山  n[x] += 1 } } }
      move b { n[x] += 10 }
    }
  }
}
"#,
    );
    for seed in 0..40 {
        let mut agents: Vec<Box<dyn Agent>> = (0..2)
            .map(|s| by_name("random", seed * 7 + s).expect("agent"))
            .collect();
        let opts = PlayOptions {
            check_invariants: true,
            keep_moves: false,
            ..PlayOptions::default()
        };
        play_game(&p, &[], seed, &mut agents, &opts).expect("plays to the end");
    }
}

#[test]
fn arithmetic_corners() {
    run_tests(&program(
        r#"
ruleset "x"
import "std/kabufuda"
seats 2 { 2: A B }
zone 山 shared stack hidden
test "ceil_div rounds up for either sign" {
  expect ceil_div(7, 2) == 4
  expect ceil_div(-7, 2) == -3
  expect ceil_div(7, -2) == -3
  expect ceil_div(-7, -2) == 4
  expect ceil_div(6, 3) == 2
}
test "deck is every card" {
  expect count(deck) == 40
  expect sum(c in deck: c.number) == 220
}
test "division floors" {
  expect -7 / 2 == -4
  expect 7 % 3 == 1
}
test "lists of seats compare with ints" {
  dealer = 0
  expect others(1) == [0]
  expect seats() == [0, 1]
}
"#,
    ));
}

/// A variable holding a card, a seat or an enum's value compares by that value (an
/// older reading took every variable as a number, and each such value as 0).
#[test]
fn variables_of_every_scalar_type_compare_by_value() {
    run_tests(&program(
        r#"
ruleset "x"
import "std/hanafuda"
enum 和了: 上がり | 当たり
seats 2 { 2: A B }
zone 山 shared stack hidden
var h: 和了 = 当たり
var hs: 和了 per seat = 上がり
var k: kind = 短
var c: card = card(1-crane)
test "as set" {
  expect h == 当たり
  expect h != 上がり
  expect k == 短
  expect k != 光
  expect c == card(1-crane)
  expect hs[1] == 上がり
}
test "after assigning" {
  h = 上がり
  hs[0] = 当たり
  c = card(3-curtain)
  expect h == 上がり
  expect hs[0] == 当たり and hs[1] != 当たり
  expect c == card(3-curtain) and c != card(1-crane)
  expect card(3-curtain) == c
  expect c.month == 3
}
test "in a condition" {
  let n = 0
  if h == 当たり { n = 1 } else { n = 2 }
  expect n == 1
}
"#,
    ));
}

#[test]
fn compact_tile_notation() {
    let p = program(
        r#"
ruleset "x"
import "std/mahjong"
seats 2 { 2: A B }
zone 山 shared stack hidden
test "compact notation names tiles" {
  expect count(cards("123m456p789s11z")) == 11
  expect count(cards("1m 1m 1m 1m")) == 4
}
"#,
    );
    run_tests(&p);
    assert!(
        p.deck.parse_card_list("1m1m1m1m1m").is_err(),
        "only four copies exist"
    );
    assert!(p.deck.parse_card_list("12q").is_err());
}

#[test]
fn tests_script_decisions_with_answers() {
    let base = r#"
ruleset "x"
import "std/kabufuda"
seats 2 { 2: A B }
zone 山 shared stack hidden
zone 場 shared pile public
var n: int = 0
proc match { pick() }
proc pick {
  choose 0 { move a { n = 1 } move b { n = 2 } }
  claim x in [1] { move take { n += 10 } }
}
"#;
    let ok = program(&format!("{base}\ntest \"b then take\" {{ answer b\n answer take\n pick()\n expect n == 12 }}\ntest \"a then pass\" {{ answer a\n answer pass\n pick()\n expect n == 1 }}"));
    run_tests(&ok);
    let missing = program(&format!("{base}\ntest \"no answer\" {{ pick() }}"));
    let e = fuda_core::State::run_test(&missing, 0).expect_err("no answer");
    assert!(
        e.message.contains("has no `answer`") && e.message.contains("a, b"),
        "{}",
        e.message
    );
    let wrong = program(&format!("{base}\ntest \"wrong\" {{ answer c\n pick() }}"));
    let e = fuda_core::State::run_test(&wrong, 0).expect_err("not legal");
    assert!(e.message.contains("not a legal move"), "{}", e.message);
    let unused = program(&format!("{base}\ntest \"unused\" {{ answer a }}"));
    let e = fuda_core::State::run_test(&unused, 0).expect_err("unused");
    assert!(e.message.contains("never used"), "{}", e.message);
}

/// The compiler marks the moves whose bodies end the round (through a called proc, not
/// through a nested decision), and the eager player takes such a move when offered.
#[test]
fn moves_that_end_the_round_are_marked_and_taken() {
    let p = program(
        r#"
ruleset "ends"
import "std/kabufuda"
zone pile shared stack hidden
zone hand per seat pile owner
seats 2 { 2: A B }
enum 結果: 上がり
proc win(s: seat) { outcome 上がり }
proc match {
  deal 1 from pile to hand
  choose dealer {
    move draw "draw" {
      choose dealer {
        move declare "declare" { win(dealer) }
        move keep "keep" { }
      }
    }
    move stop "stop" { }
  }
}
"#,
    );
    let ends: Vec<(String, bool)> = p
        .procs
        .iter()
        .flat_map(|q| q.code.iter())
        .filter_map(|op| match op {
            fuda_core::ir::Op::Decide(d) => Some(d.options.clone()),
            _ => None,
        })
        .flatten()
        .map(|o| (o.name, o.ends_round))
        .collect();
    let mut ends = ends;
    ends.sort();
    assert_eq!(
        ends,
        vec![
            ("declare".to_string(), true),
            ("draw".to_string(), false),
            ("keep".to_string(), false),
            ("stop".to_string(), false),
        ]
    );
    // Whatever it draws, the eager player declares.
    for seed in 0..20 {
        let mut agents: Vec<Box<dyn Agent>> = (0..2)
            .map(|s| by_name("eager", seed * 2 + s).expect("agent"))
            .collect();
        let rec = play_game(&p, &[], seed, &mut agents, &PlayOptions::default()).expect("game");
        assert!(rec.outcomes.len() <= 1);
        if rec.decisions >= 2 {
            assert_eq!(
                rec.outcomes.len(),
                1,
                "seed {seed}: drew but did not declare"
            );
        }
    }
}

/// A small two-seat game whose match is `body`.
fn toy(body: &str) -> fuda_core::Program {
    program(&format!(
        "ruleset \"toy\"\nimport \"std/hanafuda\"\nseats 2 {{ 2: A B }}\n\
         zone 山 shared stack hidden\nenum R: done\n{body}\n"
    ))
}

/// Plays one game of `p` with random players; the error's message if it fails.
fn runaway_message(p: &fuda_core::Program) -> Option<String> {
    let mut agents: Vec<Box<dyn Agent>> = (0..2)
        .map(|s| by_name("random", s).expect("agent"))
        .collect();
    match play_game(p, &[], 1, &mut agents, &PlayOptions::default()) {
        Ok(_) => None,
        Err(fuda_core::play::GameError::Runtime(e)) => Some(e.message.clone()),
        Err(e) => panic!("not a run-time error: {e:?}"),
    }
}

/// A round that never reaches `outcome` stops at the round's decision limit, long
/// before the game's, and one that does starts its count again.
#[test]
fn a_round_without_an_outcome_stops_as_runaway() {
    let endless = toy("proc match { loop { choose 0 { move a { } move b { } } } }");
    let msg = runaway_message(&endless).expect("stopped");
    assert!(
        msg.contains(&format!(
            "the round passed {} decisions without an outcome",
            fuda_core::engine::ROUND_DECISION_LIMIT
        )),
        "{msg}"
    );
    let rounds =
        toy("proc match { repeat 15000 { choose 0 { move a { } move b { } }\n outcome done } }");
    assert_eq!(runaway_message(&rounds), None);
}

/// A round whose work passes the round's budget stops, naming the rule it was running,
/// and a round that ends starts with the whole budget again.
#[test]
fn a_round_doing_too_much_work_stops_as_runaway() {
    let p = toy("proc match { loop { choose 0 { move a { } move b { } }\n let n = count(山) } }");
    let mut st = fuda_core::State::new(&p, &[], 1).expect("starts");
    assert!(!st.advance(&p).expect("runs"));
    st.apply(&p, &[0]).expect("a legal move");
    assert!(!st.advance(&p).expect("within the budget"));
    assert!(st.steps_left < fuda_core::engine::ROUND_BUDGET);
    // One step left: the ops to the next decision use it, and the engine stops at an
    // evaluation, or else as the next move is taken.
    st.steps_left = 1;
    st.apply(&p, &[1]).expect("a legal move");
    let e = match st.advance(&p) {
        Err(e) => e,
        Ok(_) => st.apply(&p, &[0]).expect_err("over the budget"),
    };
    assert!(
        e.message.contains("steps of work than a round"),
        "{}",
        e.message
    );
    let line = p.sources[0].line_index(e.loc.span.start as usize);
    assert!(
        line == 5 || line == 6,
        "a rule of the loop, not line {line}"
    );

    let rounds =
        toy("proc match { repeat 3 { choose 0 { move a { } move b { } }\n outcome done } }");
    let mut st = fuda_core::State::new(&rounds, &[], 1).expect("starts");
    assert!(!st.advance(&rounds).expect("runs"));
    st.steps_left = 1;
    st.apply(&rounds, &[0]).expect("a legal move");
    assert!(!st.advance(&rounds).expect("a new round"));
    assert!(
        st.steps_left > fuda_core::engine::ROUND_BUDGET - 100,
        "{}",
        st.steps_left
    );
}

/// A card a derived deck adds takes the base deck's attribute defaults, as the base's
/// own cards do.
#[test]
fn added_cards_take_the_base_decks_defaults() {
    run_tests(&program(
        r#"
deck base "base" {
  attribute month: 1..12
  attribute lucky: int = 3
  card a "A" month=1
  card b "B" month=2 lucky=5
}
deck more extends base "more" {
  attribute extra: int = 7
  card c "C" month=3
}
seats 2 { 2: A B }
zone 山 shared stack hidden
test "defaults" {
  expect card(a).lucky == 3 and card(b).lucky == 5
  expect card(c).lucky == 3 and card(c).extra == 7 and card(a).extra == 7
}
"#,
    ));
}

/// A default written over other parameters follows their values in each game (`test …
/// with`, `--set`), and one that leaves its range then is an error at its declaration.
#[test]
fn computed_defaults_follow_the_parameters_they_read() {
    let text = r#"
ruleset "pd"
import "std/hanafuda"
param 人: int = 3 in 3..4
param 倍: int = 人 * 2 in 5..8
param 枚: int = 倍 + 1
seats 人 { 3: a b c
 4: a b c d }
zone 山 shared stack hidden
enum R: done
proc match { outcome done }
test "defaults" { expect 倍 == 6 and 枚 == 7 }
test "follows" with 人 = 4 { expect 倍 == 8 and 枚 == 9 }
test "set" with 人 = 4, 倍 = 5 { expect 倍 == 5 and 枚 == 6 }
"#;
    let p = program(text);
    run_tests(&p);
    // Past the checks the CLI and `test … with` make (人 is in 3..4), as a library
    // caller may pass it: the computed default is still checked.
    let two = Some(fuda_core::value::Value::Int(2));
    let e = fuda_core::State::new(&p, &[two], 1).expect_err("倍 would be 4");
    assert!(
        e.message
            .contains("default of `倍` is 4, outside its range 5..8"),
        "{}",
        e.message
    );
    assert_eq!(p.sources[0].line_index(e.loc.span.start as usize), 4);
}

/// A deal count computed in play that comes out negative is a run-time error at the
/// deal, not a deal of nothing; no card has moved when it is raised.
#[test]
fn a_negative_computed_deal_count_is_an_error() {
    let p = program(
        r#"
ruleset "x"
import "std/kabufuda"
seats 2 { 2: A B }
zone 山 shared stack hidden
zone 手 per seat pile owner
test "deals a computed count" {
  gather 山
  let n = count(手[0]) - 3
  deal 2, n from 山 to 手
}
"#,
    );
    let e = fuda_core::State::run_test(&p, 0).expect_err("a negative count is refused");
    assert!(
        e.message.contains("cannot be negative, and this one is -3"),
        "{}",
        e.message
    );
    let line = fuda_core::diagnostic::line_of(&p.sources[0].text, e.loc.span.start as usize);
    assert_eq!(line, 10, "the deal's line");
}

/// An initial value that fails when the game starts (a parameter set past the 64-bit
/// range) is reported at the variable's line, not the file's first.
#[test]
fn a_failing_initial_value_points_at_its_variable() {
    let p = program(
        r#"
ruleset "x"
import "std/kabufuda"
param big: int = 1 in 0..9223372036854775807
seats 2 { 2: A B }
zone 山 shared stack hidden
var ok: int = 0
var v: int = big * 2
"#,
    );
    let set = [Some(fuda_core::value::Value::Int(i64::MAX))];
    let e = match fuda_core::State::new(&p, &set, 0) {
        Err(e) => e,
        Ok(_) => panic!("the game starts"),
    };
    assert!(e.message.contains("overflow"), "{}", e.message);
    let line = fuda_core::diagnostic::line_of(&p.sources[0].text, e.loc.span.start as usize);
    assert_eq!(line, 8, "the variable's line");
}

/// One game of `p` with random players under `opts`: its record, or its error's message.
fn game_under(
    p: &fuda_core::Program,
    opts: &PlayOptions,
) -> Result<fuda_core::play::GameRecord, String> {
    let mut agents: Vec<Box<dyn Agent>> = (0..2)
        .map(|s| by_name("random", s).expect("agent"))
        .collect();
    play_game(p, &[], 1, &mut agents, opts).map_err(|e| match e {
        fuda_core::play::GameError::Runtime(e) => e.message.clone(),
        e => panic!("not a run-time error: {e:?}"),
    })
}

/// Every round of this game does 100,000 steps of work and ends in an `outcome`, which
/// starts a fresh round: only the game's own budget of work stops it. Played by the
/// register machine (and the engine after it) and by the engine alone, it stops the
/// same way; with room for its rounds, both finish it alike.
#[test]
fn a_game_whose_every_round_works_hard_stops_at_the_games_budget() {
    let p = toy("var n: int = 0\n\
         proc match { repeat 12 { n = count(i in 1..100000: i > 0)\n\
         choose 0 { move a { } move b { } }\n outcome done } }");
    for engine_only in [false, true] {
        let tight = PlayOptions {
            work_limit: Some(500_000),
            engine_only,
            ..PlayOptions::default()
        };
        let msg = game_under(&p, &tight).expect_err("over the game's budget");
        assert!(msg.contains("steps of work than a round"), "{msg}");
        let roomy = PlayOptions {
            work_limit: Some(2_000_000),
            engine_only,
            ..PlayOptions::default()
        };
        let rec = game_under(&p, &roomy).expect("twelve rounds fit");
        assert_eq!(rec.outcomes.len(), 12);
    }
}

/// A game keeps every outcome, result, tally and message until it ends: past
/// `MAX_EVENTS` it stops, in the machine and the engine alike.
#[test]
fn a_game_that_tallies_in_a_loop_stops_at_the_events_limit() {
    let p = toy(&format!(
        "proc match {{ repeat {} {{ tally t 1 }}\n choose 0 {{ move a {{ }} move b {{ }} }}\n outcome done }}",
        fuda_core::engine::MAX_EVENTS + 1
    ));
    for engine_only in [false, true] {
        let opts = PlayOptions {
            engine_only,
            ..PlayOptions::default()
        };
        let msg = game_under(&p, &opts).expect_err("too many events");
        assert!(
            msg.contains(&format!("more than {}", fuda_core::engine::MAX_EVENTS)),
            "{msg}"
        );
    }
    // Long text is cut where it is kept.
    let long = toy("var s: int = 0\n\
         proc match { let t = \"ab\"\n repeat 10 { t = t + t }\n tally 長 t\n\
         choose 0 { move a { } move b { } }\n outcome done }");
    let rec = game_under(&long, &PlayOptions::default()).expect("plays");
    let (_, text) = &rec.tallies[0];
    assert_eq!(text.chars().count(), fuda_core::engine::MAX_EVENT_TEXT);
    assert!(text.ends_with('…'), "{text}");
}

/// The tests of a file share one budget: once spent, the tests after are not run, each
/// saying why, and none runs past what was left.
#[test]
fn tests_share_a_budget_of_work() {
    let tests: String = (0..20)
        .map(|i| format!("test \"t{i}\" {{ let n = count(i in 1..100000: i > 0) }}\n"))
        .collect();
    let p = toy(&format!("proc match {{ }}\n{tests}"));
    let mut budget = 1_000_000;
    let mut ran = 0;
    let mut refused = 0;
    for t in 0..p.tests.len() {
        let before = budget;
        match fuda_core::State::run_test_within(&p, t, &mut budget) {
            Ok(()) => ran += 1,
            Err(e) if e.message.starts_with("not run") => {
                assert_eq!(before, 0, "{}", e.message);
                refused += 1;
            }
            Err(e) => assert!(e.message.contains("steps of work"), "{}", e.message),
        }
        assert!(budget <= before);
    }
    assert!((8..=10).contains(&ran), "{ran} tests ran");
    assert!(refused >= 9, "{refused} refused");
    assert_eq!(budget, 0);
}

/// A deck of 3 ranks × 4 suits, two copies each: draws often tie on rank, and now and
/// then on rank and suit.
const DRAW: &str = r#"
ruleset "draw"
deck 札 "ranks and suits" {
  attribute rank: 1..3
  attribute suit: S | H | D | C
  card 1s "1S" rank=1 suit=S x2
  card 1h "1H" rank=1 suit=H x2
  card 1d "1D" rank=1 suit=D x2
  card 1c "1C" rank=1 suit=C x2
  card 2s "2S" rank=2 suit=S x2
  card 2h "2H" rank=2 suit=H x2
  card 2d "2D" rank=2 suit=D x2
  card 2c "2C" rank=2 suit=C x2
  card 3s "3S" rank=3 suit=S x2
  card 3h "3H" rank=3 suit=H x2
  card 3d "3D" rank=3 suit=D x2
  card 3c "3C" rank=3 suit=C x2
}
seats 4 { 4: A B C D }
zone 山 shared stack hidden
proc match { dealer by draw KEYS }
"#;

/// Who `dealer by draw` picks, worked out apart from the engine: the seats draw in
/// turn from the shuffled deck, the largest `key` of a card deals, and the seats tied
/// on it draw again.
fn drawn_dealer(p: &fuda_core::Program, seed: u64, key: impl Fn(u16) -> (i64, i64)) -> (u8, bool) {
    let mut rng = fuda_core::model::GameRng::new(seed);
    let mut order: Vec<u16> = (0..p.deck.len() as u16).collect();
    rng.shuffle(&mut order);
    let mut next = order.into_iter();
    let mut contenders: Vec<u8> = (0..4).collect();
    let mut redrew = false;
    while contenders.len() > 1 {
        let draws: Vec<(u8, (i64, i64))> = contenders
            .iter()
            .map(|s| (*s, key(next.next().expect("cards enough"))))
            .collect();
        let best = draws.iter().map(|d| d.1).max().expect("draws");
        contenders = draws.iter().filter(|d| d.1 == best).map(|d| d.0).collect();
        redrew |= contenders.len() > 1;
    }
    (contenders[0], redrew)
}

#[test]
fn dealer_by_draw_breaks_ties_by_the_next_attribute() {
    let rank_attr =
        |p: &fuda_core::Program, name: &str| p.deck.attr_named(name).expect("attribute");
    for keys in [
        "highest rank then highest suit",
        "lowest rank then lowest suit",
        "highest rank then lowest suit",
        "highest rank",
        "highest suit then lowest rank",
    ] {
        let p = program(&DRAW.replace("KEYS", keys));
        let (rank, suit) = (rank_attr(&p, "rank"), rank_attr(&p, "suit"));
        let words: Vec<&str> = keys.split_whitespace().collect();
        // A suit ranks by its place in `S | H | D | C`: S lowest, C highest.
        let value = |attr: &str, c: u16| -> i64 {
            if attr == "rank" {
                p.deck.attr(rank, c)
            } else {
                ["S", "H", "D", "C"]
                    .iter()
                    .position(|s| p.symbols[p.deck.attr(suit, c) as usize] == *s)
                    .expect("a suit") as i64
            }
        };
        // Larger is better: a `lowest` key is negated.
        let part = |i: usize, c: u16| -> i64 {
            match words.get(i) {
                Some(&"lowest") => -value(words[i + 1], c),
                Some(_) => value(words[i + 1], c),
                None => 0,
            }
        };
        let key = |c: u16| (part(0, c), part(3, c));
        let mut redraws = 0;
        for seed in 0..300 {
            let (expected, redrew) = drawn_dealer(&p, seed, key);
            redraws += usize::from(redrew);
            let mut st = fuda_core::State::new(&p, &[], seed).expect("starts");
            st.advance(&p).expect("runs");
            assert_eq!(st.board.dealer, expected, "{keys}, seed {seed}");
        }
        // Two copies of each card: some draws tie on every key, and are drawn again.
        assert!(redraws > 0, "{keys}: no redraw in 300 games");
    }
}

#[test]
fn dealer_by_draw_names_an_unknown_attribute() {
    let text = DRAW.replace("KEYS", "highest rank then highest siut");
    let Err(f) = fuda_core::compile("t.fuda", &text, &NoFiles) else {
        panic!("an unknown attribute compiles");
    };
    let d = &f.diagnostics[0];
    assert_eq!(d.code, "fuda::unknown-attribute");
    assert_eq!(d.help.as_deref(), Some("did you mean `suit`?"));
}

/// `waits(P, hand)`: the cards that complete a pattern, for a hand one card short.
#[test]
fn waits_lists_the_cards_that_complete_a_pattern() {
    let p = program(
        r#"
ruleset "w"
import "std/hanafuda"
seats 2 { 2: A B }
zone 山 shared stack hidden
pattern 形 {
  group 三: 3 same kind
  group 五: 5 same kind
  require 三.kind != 五.kind
}
test "waits" {
  let h = cards(1-ribbon 2-ribbon 3-ribbon 1-kasu-a 1-kasu-b 2-kasu-a 5-kasu-a)
  # Any other kasu completes the 5-group; nothing else does.
  expect count(waits(形, h)) == count(filter(c in deck: c.kind == 素)) - 4
  expect all(c in waits(形, h): c.kind == 素 and not (c in h))
  # Two groups short, or already whole: no waits.
  expect empty(waits(形, cards(1-ribbon 2-ribbon 1-crane 1-kasu-a 1-kasu-b 2-kasu-a 5-kasu-a)))
  expect empty(waits(形, h + card(6-kasu-a)))
  # Four 種 and three 素: only a fifth 種 makes 5 + 3 (a fourth 素 would make 4 + 4).
  let g = cards(2-warbler 4-cuckoo 5-bridge 6-butterflies 1-kasu-a 2-kasu-a 3-kasu-a)
  expect waits(形, g) == filter(c in deck: c.kind == 種 and not (c in g))
}
"#,
    );
    run_tests(&p);
}
