//! The engine's fast paths play exactly as its full evaluation: class quantifiers, card
//! guards and card-only quantifiers against card-by-card tests, quickened ops and copied
//! states against whole games, players lent to the engine against players asked from
//! outside.

mod common;

use common::{program, run_tests};
use fuda_core::agents::{by_name, Agent};
use fuda_core::play::{play_game, PlayOptions};

/// Quantifiers whose body only asks for the bound card's attribute or tag are answered
/// from the deck's attribute classes; they must agree with testing card by card (the
/// `if … then 1 else 0` forms below take the card-by-card path).
#[test]
fn class_quantifiers_agree_with_card_by_card_tests() {
    let p = program(
        r#"
ruleset "q"
import "std/hanafuda"
seats 2 { 2: A B }
zone 山 shared stack hidden
zone 手 per seat pile owner
def 赤(c: card) = c is 赤短
def 同月(a: card, b: card) = a.month == b.month and not 赤(a) and not 赤(b)
test "classes" {
  shuffle 山
  repeat 30 {
    deal 7 from 山 to 手
    let h = 手[0]
    repeat 13 as m {
      expect count(c in h: c.month == m) == sum(c in h: if c.month == m then 1 else 0)
      expect count(c in h: c.month != m) == sum(c in h: if c.month == m then 0 else 1)
      expect count(filter(c in h: m == c.month and not (c is 赤短))) == sum(c in h: if c.month == m and not (c is 赤短) then 1 else 0)
      expect any(c in h: c.month == m or c.kind == 光) == (sum(c in h: if c.month == m or c.kind == 光 then 1 else 0) > 0)
      expect all(c in h: c.month != m) == (sum(c in h: if c.month == m then 1 else 0) == 0)
      expect count(c in h: c.month < m) == sum(c in h: if c.month < m then 1 else 0)
      expect count(c in h: m <= c.month and c.points >= 10) == sum(c in h: if m <= c.month and c.points >= 10 then 1 else 0)
      expect count(c in h: c.month > m or 赤(c)) == sum(c in h: if c.month > m or 赤(c) then 1 else 0)
      expect count(filter(c in h: not 赤(c) and c.month >= m)) == sum(c in h: if not 赤(c) and c.month >= m then 1 else 0)
    }
    let flag = count(c in h: c.kind == 光) > 0
    expect count(c in h: flag and c.month > 6) == sum(c in h: if flag and c.month > 6 then 1 else 0)
    expect count(c in h: not flag or c.kind == 光) == sum(c in h: if not flag or c.kind == 光 then 1 else 0)
    expect count(c in cards(): 赤(top(山)) or c.month == 1) == 0
    for x in h {
      expect count(c in 山: 同月(x, c)) == sum(c in 山: if 同月(x, c) then 1 else 0)
      expect count(c in h: 赤(x) and c.month == x.month) == sum(c in h: if 赤(x) and c.month == x.month then 1 else 0)
      expect any(c in 山: 同月(c, x)) == (sum(c in 山: if 同月(c, x) then 1 else 0) > 0)
    }
    expect sum(c in h: c.points) == sum(c in h: c.points + 0)
    expect sum(c in h: c.month) == sum(c in h: 0 + c.month)
    expect count(c in cards(): c.month == 1) == 0
    expect all(c in cards(): c.month == 1)
    gather 山
    shuffle 山
  }
}
"#,
    );
    run_tests(&p);
}

/// A move guard that only asks about the offered card is worked out for the whole set
/// at once; the moves must be exactly those a card-by-card test offers.
#[test]
fn card_guards_offer_the_same_moves_as_testing_each_card() {
    let p = program(
        r#"
ruleset "g"
import "std/hanafuda"
seats 2 { 2: A B }
zone 山 shared stack hidden
zone 手 per seat pile owner
proc match {
  repeat 30 {
    gather 山
    shuffle 山
    deal 8 from 山 to 手
    let t = top(手[0])
    choose 0 {
      move a(c in 手[0]) when c != t and c.month > 3 and not (c is 赤短) { }
      move b(c in deck) when c in 手[1] or c == t { }
      move d(c in 手[0]) when c != t { }
      move e(c in 手[1]) when t != c { }
      move z { }
    }
  }
}
"#,
    );
    let month = p.deck.attr_named("month").expect("month");
    let red = p.deck.tag_named("赤短").expect("赤短");
    let mut st = fuda_core::State::new(&p, &[], 11).expect("starts");
    let mut decisions = 0;
    while !st.advance(&p).expect("runs") {
        let b = &st.board;
        let hand0 = &b.zones[b.zone_instance(1, Some(0)) as usize];
        let hand1 = b.sets[b.zone_instance(1, Some(1)) as usize];
        let t = *hand0.last().expect("a card");
        let mut want_a: Vec<u16> = hand0
            .iter()
            .copied()
            .filter(|&c| {
                c != t && p.deck.attr(month, c) > 3 && !p.deck.tags[red as usize].contains(c)
            })
            .collect();
        want_a.sort_unstable();
        let pending = st.pending().expect("a decision");
        let offered = |option: u16| -> Vec<u16> {
            pending.seats[0]
                .moves
                .iter()
                .filter(|m| m.option == option)
                .map(|m| match m.arg {
                    fuda_core::value::Value::Card(c) => c,
                    _ => panic!("a card"),
                })
                .collect()
        };
        assert_eq!(offered(0), want_a);
        let mut want_b: Vec<u16> = hand1.iter().chain([t]).collect();
        want_b.sort_unstable();
        assert_eq!(offered(1), want_b);
        let mut want_d: Vec<u16> = hand0.iter().copied().filter(|&c| c != t).collect();
        want_d.sort_unstable();
        assert_eq!(offered(2), want_d);
        assert_eq!(offered(3), hand1.iter().collect::<Vec<_>>());
        let n = pending.seats[0].moves.len();
        st.apply(&p, &[n - 1]).expect("applies");
        decisions += 1;
    }
    assert_eq!(decisions, 30);
}

/// Plays one game driving the state by hand, with the op fast paths on or off, and
/// returns everything a player or the statistics could see: each decision's offered
/// moves and the choice, the events, the variables, and how it ended.
fn transcript(p: &fuda_core::Program, seed: u64, agent: &str, quicken: bool) -> Vec<String> {
    let mut st = fuda_core::State::new(p, &[], seed).expect("starts");
    st.board.quicken = quicken;
    let seats = st.board.seats as usize;
    let mut agents: Vec<Box<dyn Agent>> = (0..seats)
        .map(|s| by_name(agent, fuda_core::play::agent_seed(seed, s)).expect("agent"))
        .collect();
    let mut out = Vec::new();
    loop {
        match st.advance(p) {
            Ok(true) => break,
            Ok(false) => {}
            Err(e) => {
                out.push(format!("error: {} at {:?}", e.message, e.loc));
                break;
            }
        }
        let pending = st.pending().expect("a decision waits");
        // The first move that may end the round, as noted when the moves were offered,
        // is the one a look at each move finds.
        let code = st.pending_code(p);
        for sm in &pending.seats {
            let scan = sm.moves.iter().position(|m| pending.ends_round(code, m));
            assert_eq!(sm.first_ending, scan, "{} seat {}", p.title, sm.seat);
        }
        let mut choices = Vec::new();
        for sm in &pending.seats {
            let c = agents[sm.seat as usize].choose(p, &st, sm.seat, &sm.moves);
            out.push(format!("{} {:?} -> {c}", sm.seat, sm.moves));
            choices.push(c);
        }
        if let Err(e) = st.apply(p, &choices) {
            out.push(format!("error: {}", e.message));
            break;
        }
    }
    out.push(format!("{:?}", st.events));
    out.push(format!("{:?} dealer {}", st.board.vars, st.board.dealer));
    out
}

#[test]
fn quickened_ops_play_the_same_games_as_the_full_evaluation() {
    let rulesets = [
        include_str!("../../../rulesets/sangohana.fuda"),
        include_str!("../../../rulesets/ukishima.fuda"),
        include_str!("../../../rulesets/nara-hanaawase.fuda"),
        // The quickened shapes up to their errors: `+=` up to overflow, and `top` of an
        // empty zone.
        r#"
ruleset "q"
import "std/hanafuda"
seats 2 { 2: A B }
zone 山 shared stack hidden
zone 手 per seat pile owner
var n: int = 9223372036854775800
proc match {
  let s = dealer
  repeat 3 {
    s = next(s)
    let c = top(山)
    move c to 手[s]
    choose s { move a(d in 手[s]) { move d to 山 } }
  }
  repeat 10 { n += 1 }
}
"#,
        r#"
ruleset "q2"
import "std/hanafuda"
seats 2 { 2: A B }
zone 山 shared stack hidden
zone 場 shared pile public
proc match {
  let c = top(場)
}
"#,
    ];
    for text in rulesets {
        let p = program(text);
        for agent in ["random", "eager", "greedy"] {
            for seed in 0..3 {
                let fast = transcript(&p, seed, agent, true);
                let full = transcript(&p, seed, agent, false);
                assert_eq!(fast, full, "{} seed {seed} {agent}", p.title);
            }
        }
    }
}

/// `clone_from` (what the greedy player resets its scratch world with) gives the same
/// state as `clone`, whatever the target held before.
#[test]
fn clone_from_copies_a_state_like_clone() {
    let p = program(include_str!("../../../rulesets/sangohana.fuda"));
    let mut agents: Vec<Box<dyn Agent>> = (0..3)
        .map(|s| by_name("random", s as u64).expect("agent"))
        .collect();
    let play = |seed: u64, decisions: usize, agents: &mut Vec<Box<dyn Agent>>| {
        let mut st = fuda_core::State::new(&p, &[], seed).expect("starts");
        for _ in 0..decisions {
            if st.advance(&p).expect("runs") {
                break;
            }
            let pending = st.pending().expect("a decision");
            let choices: Vec<usize> = pending
                .seats
                .iter()
                .map(|sm| agents[sm.seat as usize].choose(&p, &st, sm.seat, &sm.moves))
                .collect();
            st.apply(&p, &choices).expect("applies");
        }
        st
    };
    let show = |st: &fuda_core::State| {
        format!(
            "{:?} {:?} {:?} {:?} {:?} {} {}",
            st.board, st.frames, st.locals, st.pending, st.events, st.decisions, st.steps_left
        )
    };
    let source = play(3, 40, &mut agents);
    // Targets further on, at the start, and of another game.
    for (seed, decisions) in [(3, 200), (9, 0), (5, 17)] {
        let mut target = play(seed, decisions, &mut agents);
        target.clone_from(&source);
        assert_eq!(show(&target), show(&source.clone()), "seed {seed}");
    }
}

/// Quantifiers whose body reads only the card (through defs too) are rewritten to set
/// arithmetic in procedure code; on many random hands they agree with the same sums
/// and counts taken by a plain loop over the cards.
#[test]
fn card_only_quantifiers_in_procedures_agree_with_loops() {
    let p = program(
        r#"
ruleset "sums"
import "std/hanafuda"
seats 2 { 2: A B }
zone 山 shared stack hidden
zone 手 per seat pile owner
def 点(c: card) = if c is 赤短 then 15 else if c.kind == 光 then 20 else c.month
def 素(c: card) = c.kind == 素 and c.month != 11
proc match {
  repeat 300 {
    gather 山
    shuffle 山
    deal 9 from 山 to 手
    let h = 手[0]
    let total = 0
    let kasu = 0
    let found = false
    let every = true
    for c in h {
      total += 点(c)
      if 素(c) { kasu += 1  found = true } else { every = false }
    }
    require sum(c in 手[0]: 点(c)) == total else "sum"
    require sum(c in h: 点(c)) == total else "sum of a set"
    require count(c in 手[0]: 素(c)) == kasu else "count"
    require any(c in 手[0]: 素(c)) == found else "any"
    require all(c in 手[0]: 素(c)) == every else "all"
    require count(filter(c in 手[0]: 素(c))) == kasu else "filter"
  }
}
"#,
    );
    // The quantifiers over the zone are gone from the compiled code.
    let entry = p.entry.expect("match") as usize;
    let text = format!("{:?}", p.procs[entry].code);
    assert_eq!(
        text.matches("Binder(").count(),
        1,
        "only `sum(c in h…)` over a local stays a loop"
    );
    let mut st = fuda_core::State::new(&p, &[], 4).expect("starts");
    assert!(st.advance(&p).expect("every require holds"));
}

/// An agent asked from outside the engine only: it forwards `choose` and keeps the
/// default `autoplay` (none), so `play_game` offers it every decision in full.
struct Outside(Box<dyn Agent>);

impl Agent for Outside {
    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn choose(
        &mut self,
        p: &fuda_core::Program,
        st: &fuda_core::State,
        seat: u8,
        moves: &[fuda_core::engine::Move],
    ) -> usize {
        self.0.choose(p, st, seat, moves)
    }

    fn new_game(&mut self, seed: u64) -> bool {
        self.0.new_game(seed)
    }
}

/// A game's whole record, or its error, as text.
fn record(
    p: &fuda_core::Program,
    seed: u64,
    agent: &str,
    lent: bool,
    watched: bool,
    limit: Option<u64>,
) -> String {
    let seats = fuda_core::State::new(p, &[], seed)
        .expect("starts")
        .board
        .seats as usize;
    let mut agents: Vec<Box<dyn Agent>> = (0..seats)
        .map(|s| {
            let a = by_name(agent, fuda_core::play::agent_seed(seed, s)).expect("agent");
            if lent {
                a
            } else {
                Box::new(Outside(a)) as Box<dyn Agent>
            }
        })
        .collect();
    let opts = PlayOptions {
        check_invariants: watched,
        keep_moves: watched,
        decision_limit: limit,
        ..PlayOptions::default()
    };
    match play_game(p, &[], seed, &mut agents, &opts) {
        Ok(r) => format!("{r:?}"),
        Err(e) => format!("{e:?}"),
    }
}

/// Random and eager players lent to the engine (which then settles most decisions
/// without listing their moves) play exactly the games they play when every decision
/// is offered to them in full: the same moves, outcomes, chips per deal and errors,
/// whether the engine returns after each move it takes or goes on.
#[test]
fn lent_players_play_the_same_games_as_players_asked_outside() {
    let rulesets = [
        include_str!("../../../rulesets/sangohana.fuda"),
        include_str!("../../../rulesets/ukishima.fuda"),
        include_str!("../../../rulesets/nara-hanaawase.fuda"),
        // Every shape the engine counts itself: options without an argument, with and
        // without guards, over a zone with no guard and with `d != t`, a move that ends
        // the round after others, a single move; and a seat with no move at all.
        r#"
ruleset "shapes"
import "std/hanafuda"
seats 2 { 2: A B }
zone 山 shared stack hidden
zone 場 shared pile public
zone 手 per seat pile owner
enum 結: 終(end)
proc match {
  deal 3 from 山 to 手 from dealer
  let s = dealer
  repeat 30 {
    let t = top(山)
    move t to 手[s]
    choose s {
      move 待つ "待つ" { }
      move 出す(d in 手[s]) when d != t { move d to 場 }
      move 終える when count(場) > 4 { outcome 終 return }
      move 取る(d in 場) { move d to 手[s] }
    }
    choose s { move ひとつ(d in 山) when d != d { } move 只 { } }
    s = next(s)
  }
  choose s { move 無理 when count(山) < 0 { } }
}
"#,
    ];
    for text in rulesets {
        let p = program(text);
        for agent in ["random", "eager"] {
            for seed in 0..4 {
                // Watched (every decision recorded and checked), the engine returns
                // after each move it takes; unwatched, it goes on past them.
                for (limit, watched) in [
                    (None, true),
                    (None, false),
                    (Some(7), true),
                    (Some(7), false),
                ] {
                    let lent = record(&p, seed, agent, true, watched, limit);
                    let outside = record(&p, seed, agent, false, watched, limit);
                    assert_eq!(
                        lent, outside,
                        "{} seed {seed} {agent} {limit:?} watched {watched}",
                        p.title
                    );
                }
            }
        }
    }
}
