//! The register machine (`vm/`) against the engine: every bundled ruleset it lowers
//! plays exactly the engine's games (outcomes, dealers, recorded results, chips, chips
//! per deal, decisions), and a game it stops is played again by the engine, so what a
//! caller gets never depends on which of the two ran it.

use std::path::{Path, PathBuf};

use fuda_core::agents::{by_name, Agent};
use fuda_core::loader::{Loader, NoFiles};
use fuda_core::play::{agent_seed, game_seed, play_game, PlayOptions};

/// Reads files below the bundled rulesets' folder.
struct Folder(PathBuf);

impl Loader for Folder {
    fn load(&self, path: &str) -> Result<String, String> {
        std::fs::read_to_string(self.0.join(path)).map_err(|e| e.to_string())
    }
}

fn bundled(name: &str) -> fuda_core::Program {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulesets");
    let text = std::fs::read_to_string(dir.join(name)).expect("a bundled ruleset");
    match fuda_core::compile(name, &text, &Folder(dir)) {
        Ok(c) => c.program,
        Err(f) => panic!("{name}: {:#?}", f.diagnostics),
    }
}

fn program(text: &str) -> fuda_core::Program {
    match fuda_core::compile("t.fuda", text, &NoFiles) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    }
}

fn seats(p: &fuda_core::Program) -> u8 {
    fuda_core::State::new(p, &[], 0)
        .expect("starts")
        .board
        .seats
}

/// One game's whole record (or its error), as text, played by the engine or by
/// whichever of the two `play_game` picks, with the invariants checked after every
/// decision (as `fuda simulate` plays) or not.
fn game(p: &fuda_core::Program, agent: &str, seed: u64, engine_only: bool) -> String {
    game_checked(p, agent, seed, engine_only, false)
}

/// [`game`], checking the invariants when `check`.
fn game_checked(
    p: &fuda_core::Program,
    agent: &str,
    seed: u64,
    engine_only: bool,
    check: bool,
) -> String {
    let mut agents: Vec<Box<dyn Agent>> = (0..seats(p) as usize)
        .map(|s| by_name(agent, agent_seed(seed, s)).expect("agent"))
        .collect();
    let opts = PlayOptions {
        engine_only,
        check_invariants: check,
        ..PlayOptions::default()
    };
    match play_game(p, &[], seed, &mut agents, &opts) {
        Ok(r) => format!("{r:?}"),
        Err(e) => format!("{e:?}"),
    }
}

/// Whether the machine itself plays a game to its end (without the engine's help).
fn machine_finishes(p: &fuda_core::Program, agent: &str, seed: u64) -> bool {
    let Ok(image) = p.vm.image(p, seats(p)) else {
        return false;
    };
    let mut agents: Vec<Box<dyn Agent>> = (0..seats(p) as usize)
        .map(|s| by_name(agent, agent_seed(seed, s)).expect("agent"))
        .collect();
    let mut lent = fuda_core::agents::AutoPlayers::of(&mut agents).expect("lent players");
    let board = fuda_core::State::blank(p, &[], seed).expect("starts").board;
    fuda_core::vm::play(p, &image, board, &mut lent, Default::default(), false).is_ok()
}

/// Plays `games` games each way with each lent agent and says where they differ;
/// how many of them the machine played itself.
fn same_games(p: &fuda_core::Program, games: u64) -> u64 {
    let mut by_machine = 0;
    for agent in ["eager", "random"] {
        for g in 0..games {
            let seed = game_seed(7, g);
            let check = g % 2 == 1;
            let engine = game_checked(p, agent, seed, true, check);
            let either = game_checked(p, agent, seed, false, check);
            assert_eq!(
                engine, either,
                "{agent} game {g} differs (checked: {check})"
            );
            by_machine += u64::from(machine_finishes(p, agent, seed));
        }
    }
    by_machine
}

/// Each bundled ruleset named is lowered (or the test would compare the engine with
/// itself) and plays `games` games of each lent agent as the engine does, the machine
/// finishing every one.
fn lowered_and_same(names: &[&str], games: u64) {
    for name in names {
        let p = bundled(name);
        let image = p.vm.image(&p, seats(&p));
        assert!(image.is_ok(), "{name}: {:?}", image.err());
        assert_eq!(
            same_games(&p, games),
            2 * games,
            "{name}: the machine played every game"
        );
    }
}

#[test]
fn sangohana_and_its_variants_are_lowered_and_play_the_engines_games() {
    lowered_and_same(
        &[
            "sangohana.fuda",
            "sangohana-strict.fuda",
            "sangohana-strict-kasu3.fuda",
        ],
        60,
    );
}

#[test]
fn every_seat_count_of_sangohana_plays_the_engines_games() {
    let p = bundled("sangohana.fuda");
    for players in [2, 4] {
        let params = fuda_core::engine::seat_count_given(&p, players);
        for g in 0..30 {
            let seed = game_seed(3, g);
            let run = |engine_only| {
                let mut agents: Vec<Box<dyn Agent>> = (0..players)
                    .map(|s| by_name("random", agent_seed(seed, s)).expect("agent"))
                    .collect();
                let opts = PlayOptions {
                    engine_only,
                    ..PlayOptions::default()
                };
                format!("{:?}", play_game(&p, &params, seed, &mut agents, &opts))
            };
            assert_eq!(run(true), run(false), "{players} players, game {g}");
        }
    }
}

#[test]
fn ukishima_and_its_variants_are_lowered_and_play_the_engines_games() {
    lowered_and_same(
        &[
            "ukishima.fuda",
            "ukishima-no-subtraction.fuda",
            "ukishima-2p.fuda",
            "ukishima-2p-te9ba3.fuda",
            "ukishima-2p-no-subtraction.fuda",
        ],
        20,
    );
}

#[test]
fn nara_is_lowered_and_plays_the_engines_games() {
    // 奈良 chooses with `choose each` and loops over cards.
    lowered_and_same(&["nara-hanaawase.fuda"], 20);
}

#[test]
fn fugi_is_lowered_and_plays_the_engines_games() {
    // 富戯 plays sets of tiles (`p in sets(手牌[s], 3, 3, face)`), a number for 三色同順
    // and a tile given in the exchange: moves over values, not cards.
    lowered_and_same(&["fugi.fuda"], 3);
}

#[test]
fn jukugo_is_lowered_and_plays_the_engines_games() {
    // 熟語麻雀 hands a hand zone to a procedure's `cards` parameter (one that moves no
    // card) and walks a list of called melds.
    lowered_and_same(&["jukugo-mahjong.fuda", "jukugo-mahjong-all-words.fuda"], 4);
}

#[test]
fn teigi_is_lowered_and_plays_the_engines_games() {
    // 帝戯's composition: moves over numbers and items, a list's items assigned.
    lowered_and_same(&["teigi.fuda"], 3);
}

#[test]
fn taigi_is_lowered_and_plays_the_engines_games() {
    // 対戯's simultaneous discards are a `choose each` over each hand's tiles, and 副露 a
    // claim over the two tiles it exposes: windows whose moves take values. Matches to
    // 2 points (a default match is hundreds of deals), as `benches/taigi.rs` plays them.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulesets");
    let text = std::fs::read_to_string(dir.join("taigi.fuda")).expect("taigi.fuda");
    let text = text.replacen("param 目標: int = 15", "param 目標: int = 2", 1);
    let text = text.replacen("param 戻り: int = 13", "param 戻り: int = 0", 1);
    let p = match fuda_core::compile("taigi.fuda", &text, &Folder(dir)) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    };
    assert!(p.vm.image(&p, 2).is_ok(), "{:?}", p.vm.image(&p, 2).err());
    assert_eq!(same_games(&p, 4), 8, "the machine played every game");
}

#[test]
fn a_program_the_machine_declines_plays_as_before() {
    // A zone handed to a `cards` parameter stays the zone in the engine (the callee sees
    // its cards as they move), which no register holds: the program is declined whole
    // and its games run in the engine.
    let p = program(
        r#"
ruleset "x"
import "std/kabufuda"
seats 2 { 2: A B }
zone 山 shared stack hidden
zone 手 per seat pile owner
var n: int = 0
proc 数える(h: cards) {
  n = count(h)
  # A procedure that may move a card sees the zone as it is then, not as it was handed.
  if n > 99 { move top(山) to 手[0] }
}
proc match {
  gather 山
  shuffle 山
  deal 3 from 山 to 手
  let s = dealer
  repeat 4 {
    choose s {
      move 出す(c in 手[s]) "出す" { move c to 山 }
    }
    数える(手[s])
    s = next(s)
  }
}
"#,
    );
    let declined = p.vm.image(&p, 2).expect_err("declined");
    assert!(declined.reason.contains("argument"), "{}", declined.reason);
    assert_eq!(same_games(&p, 10), 0, "the engine played every game");
}

#[test]
fn declined_claims_and_claimed_play_the_engines_games() {
    // A claim's body may `decline`: the next claim, by priority then the order asked,
    // takes the window, its seat and card bound. `claimed(…)` reads who claimed what in
    // the last window, which the machine then keeps on the board as the engine does.
    let p = program(
        r#"
ruleset "x"
import "std/kabufuda"
seats 4 { 4: A B C D }
zone 山 shared stack hidden
zone 場 shared pile public
zone 手 per seat pile owner
var chips: int per seat = 0
ledger chips
proc match {
  gather 山
  shuffle 山
  deal 4 from 山 to 手
  let s = dealer
  repeat 8 {
    claim x in others(s) {
      move 取る(c in 手[x]) "取る" when c.number > 2 priority 2 {
        if c.number > 7 { decline }
        move c to 場
        pay len(claimed(取る)) from chips[s] to chips[x]
      }
      move 鳴く "鳴く" priority 1 {
        if count(手[x]) < 3 { decline }
        pay 1 from chips[s] to chips[x]
      }
    }
    if len(claimed(鳴く)) > 1 { pay 1 from chips[next(s)] to chips[s] }
    s = next(s)
  }
}
"#,
    );
    assert!(p.vm.image(&p, 4).is_ok(), "{:?}", p.vm.image(&p, 4).err());
    assert_eq!(same_games(&p, 30), 60, "the machine played every game");
}

#[test]
fn a_claim_whose_move_takes_a_card_plays_the_engines_games() {
    // Each asked seat's moves over its own hand, its domain worked out once the seat
    // is bound, the card of the winning claim bound for its body.
    let p = program(
        r#"
ruleset "x"
import "std/kabufuda"
seats 3 { 3: A B C }
zone 山 shared stack hidden
zone 場 shared pile public
zone 手 per seat pile owner
var chips: int per seat = 0
ledger chips
proc match {
  gather 山
  shuffle 山
  deal 4 from 山 to 手
  let s = dealer
  repeat 6 {
    claim x in others(s) {
      move 出す(c in 手[x]) "出す" when c.number > 3 priority 1 {
        move c to 場
        pay 1 from chips[s] to chips[x]
      }
      move 組(m in sets(手[x], 2, 2, number)) "組" priority 2 { move m to 場 }
    }
    choose each y in seats() {
      move 捨てる(d in 手[y]) "捨てる" { move d to 山 }
      move 待つ "待つ" when count(手[y]) < 2 { }
    }
    s = next(s)
  }
}
"#,
    );
    assert!(p.vm.image(&p, 3).is_ok(), "{:?}", p.vm.image(&p, 3).err());
    assert_eq!(same_games(&p, 30), 60, "the machine played every game");
}

#[test]
fn a_game_the_machine_stops_is_the_engines_to_report() {
    // `top` of an empty zone: the machine stops, and the engine, playing the game again
    // from its start, reports the rule with its message.
    let p = program(
        r#"
ruleset "x"
import "std/kabufuda"
seats 2 { 2: A B }
zone 山 shared stack hidden
zone 手 per seat pile owner
proc match {
  gather 山
  shuffle 山
  let s = dealer
  loop {
    choose s {
      move 引く "引く" { let c = top(山)  move c to 手[s] }
      move 待つ "待つ" { }
    }
    s = next(s)
  }
}
"#,
    );
    assert!(p.vm.image(&p, 2).is_ok(), "lowered");
    for g in 0..10 {
        let seed = game_seed(1, g);
        let engine = game(&p, "random", seed, true);
        assert!(engine.contains("top"), "{engine}");
        assert!(!machine_finishes(&p, "random", seed), "the machine stops");
        assert_eq!(engine, game(&p, "random", seed, false), "game {g}");
    }
}

#[test]
fn a_broken_invariant_is_the_engines_to_report() {
    // `pay` from a variable outside the ledger breaks the ledger's sum: the machine
    // stops at its next check, and the engine reports where the sum broke.
    let p = program(
        r#"
ruleset "x"
import "std/kabufuda"
seats 2 { 2: A B }
zone 山 shared stack hidden
zone 手 per seat pile owner
var chips: int per seat = 0
var 外: int = 0
ledger chips
proc match {
  gather 山
  shuffle 山
  let s = dealer
  repeat 6 {
    choose s {
      move 引く "引く" { let c = top(山)  move c to 手[s] }
      move 払う "払う" { pay 1 from 外 to chips[s] }
    }
    s = next(s)
  }
}
"#,
    );
    assert!(p.vm.image(&p, 2).is_ok(), "lowered");
    let mut broke = 0;
    for g in 0..20 {
        let seed = game_seed(2, g);
        let engine = game_checked(&p, "random", seed, true, true);
        broke += usize::from(engine.contains("Invariant"));
        assert_eq!(
            engine,
            game_checked(&p, "random", seed, false, true),
            "game {g}"
        );
        // Unchecked, the machine plays the same game to its end.
        assert!(machine_finishes(&p, "random", seed), "game {g}");
    }
    assert!(broke > 10, "most games break the ledger ({broke} did)");
}

#[test]
fn payments_loops_and_calls_play_the_engines_games() {
    // Per-seat variables, loops over seats and ranges, calls with arguments, claim
    // windows with priorities and a guard on a card option, each as the engine runs them.
    let p = program(
        r#"
ruleset "x"
import "std/kabufuda"
seats 3 { 3: A B C }
enum 結果: 終わり
zone 山 shared stack hidden
zone 場 shared pile public
zone 手 per seat pile owner
var chips: int per seat = 0
var pot: int = 0
var 回: int = 0
ledger chips, pot
proc 払う(x: seat, k: int) {
  pay k from chips[x] to pot
  if pot > 6 {
    for s in others(x) { pay 1 from pot to chips[s] }
  }
}
proc match {
  repeat 4 as r {
    gather 山
    shuffle 山
    cut 山
    deal 2, 1 from 山 to 手 from next(dealer)
    let s = dealer
    loop {
      回 += 1
      choose s {
        move 出す(c in 手[s]) "出す" when c != top(山) { move c to 場 }
        move 引く "引く" when count(山) > 0 { let t = top(山)  move t to 手[s] }
      }
      claim x in others(s) {
        move 取る "取る" when count(手[x]) < 4 priority 1 { 払う(x, 1) }
        move 鳴く "鳴く" when count(場) > 2 priority 2 { 払う(x, 2) }
      }
      if count(手[s]) == 0 or 回 > 30 { outcome 終わり  return }
      s = next(s)
    }
  }
}
"#,
    );
    assert!(p.vm.image(&p, 3).is_ok(), "{:?}", p.vm.image(&p, 3).err());
    assert_eq!(same_games(&p, 40), 80, "the machine played every game");
}

#[test]
fn procedures_that_return_values_play_the_engines_games() {
    // A procedure's value comes back as a number, a card set or another value, one
    // of them from inside a decision; lists are kept in variables, one per seat too;
    // `role` is worked out by the engine's evaluator.
    let p = program(
        r#"
ruleset "x"
import "std/kabufuda"
seats 3 { 3: 親 子 末 }
enum 結果: 終わり
zone 山 shared stack hidden
zone 場 shared pile public
zone 手 per seat pile owner
var chips: int per seat = 0
var 相手: list of seat = []
var 出した: list of cards per seat = []
ledger chips
proc 数える(s: seat) -> int { return count(手[s]) + 1 }
proc 選ぶ(s: seat) -> card {
  choose s {
    move 出す(c in 手[s]) "出す" { return c }
  }
  return top(山)
}
proc 残り(s: seat) -> cards { return 手[s] - 場 }
proc 他(s: seat) -> list of seat { return others(s) }
proc 多い(s: seat) -> bool {
  if count(手[s]) > 2 { return true }
  return false
}
proc match {
  repeat 3 {
    gather 山
    shuffle 山
    deal 4 from 山 to 手
    let s = dealer
    repeat 5 {
      let k = 数える(s)
      let c = 選ぶ(s)
      move c to 場
      let m = false
      m = 多い(s)
      if m { pay k from chips[next(s)] to chips[s] }
      let r = 残り(s)
      if count(r) == 0 { pay 1 from chips[s] to chips[next(s)] }
      let o = 他(s)
      if count(r) == 1 { pay 1 from chips[o[0]] to chips[s] }
      相手 = 他(next(s))
      出した[s] = 出した[s] + [r]
      if len(出した[s]) > 2 { pay 1 from chips[相手[1]] to chips[s] }
      tally 手番 role(s)
      s = next(s)
    }
    outcome 終わり
  }
}
"#,
    );
    assert!(p.vm.image(&p, 3).is_ok(), "{:?}", p.vm.image(&p, 3).err());
    assert_eq!(same_games(&p, 30), 60, "the machine played every game");
}

#[test]
fn choose_each_loops_and_quantifiers_play_the_engines_games() {
    // `choose each` with a guard (some seats forced), loops over a zone (its order)
    // and over a set (card order), and quantifiers the machine answers with sets
    // (attributes compared every way, tags, `in`, `and`/`or`/`not`, sums) or walks.
    let p = program(
        r#"
ruleset "x"
import "std/kabufuda"
seats 3 { 3: A B C }
enum 結果: 終わり
zone 山 shared stack hidden
zone 場 shared pile public
zone 手 per seat pile owner
zone 取 per seat pile public
var 点: int per seat = 0
var n: int = 0
def 同(h: cards, k: int) = count(c in h: c.number == k)
proc match {
  repeat 3 {
    gather 山
    shuffle 山
    deal 4 from 山 to 手
    deal 3 from 山 to 場
    repeat 4 {
      choose each x in seats() {
        move 出す "出す" when count(手[x]) > 0 { let c = top(手[x])  move c to 場 }
        move 待つ "待つ" when count(手[x]) < 3 { n += 1 }
      }
      for x in seats() {
        for c in 場 { if c.number == 3 or c is 赤ピン { move c to 取[x] } }
      }
      for c in filter(c in 山: c.number > 8 and not (c is 玉四)) { move c to 場 }
    }
    for x in seats() {
      点[x] = 点[x] + 同(取[x], 3) + count(c in 手[x]: c.number < 4 or c in 場)
        + sum(c in 取[x]: c.number) + count(c in 取[x]: n % 9 >= c.number)
      if all(c in 手[x]: c.number != 7) and any(y in seats(): count(取[y]) > 0) { n += 2 }
      tally 点数 点[x]
      tally 取り 取[x]
    }
    tally 場札 場
    tally 回数 n
    outcome 終わり
  }
}
"#,
    );
    assert!(p.vm.image(&p, 3).is_ok(), "{:?}", p.vm.image(&p, 3).err());
    assert_eq!(same_games(&p, 30), 60, "the machine played every game");
    // The record holds what the rules did: tallies of every seat's points and piles.
    let g = game(&p, "random", game_seed(7, 0), false);
    assert!(
        g.contains("点数") && g.contains("場札") && g.contains("終わり"),
        "{g}"
    );
}

/// A game in the shapes `vm/shapes.rs` resolves, in forms the bundled rulesets do not
/// use: a window asking every seat from the dealer (`seats()`, the decider included), a
/// card option over a shared zone, and a comparison written constant first. A deal
/// ends at a win or when the stock runs out; the winner is paid by each other seat.
const QUICK_SHAPES: &str = r#"
ruleset "x"
import "std/hanafuda"
seats 3 { 3: A B C }
enum 結果: 和 | 流
zone 山 shared stack hidden
zone 場 shared stack public
zone 手 per seat pile owner
var chips: int per seat = 0
ledger chips
pattern 揃 {
  group 甲: 3 same kind
  group 乙: 3 same kind
}
score 点(hand: cards) over 揃(hand) {
  yaku first {
    揃い 2 when 甲.kind == 乙.kind
    揃い 1 when 甲.kind != 乙.kind
  }
}
proc 勝ち(x: seat) {
  let r = 点(手[x])
  record r for x
  outcome 和
  pay r.total from each others(x) to chips[x]
}
proc match {
  repeat 3 {
    gather 山
    shuffle 山
    deal 3, 2 from 山 to 手 from next(dealer)
    let s = dealer
    loop {
      choose s {
        move 引く "引く" when 0 < count(山) { let c = top(山)  move c to 手[s] }
        move 拾う(t in 場) "拾う" { move t to 手[s] }
      }
      if count(手[s]) == 6 {
        choose s {
          move 和 "和" when 点(手[s]).total > 0 {
            勝ち(s)
            break
          }
          move 捨てる(d in 手[s]) "捨てる" { move d to 場 }
        }
      }
      let d = top(場)
      claim x in seats() {
        move 和 "和" when 点(手[x] + d).total > 0 {
          move d to 手[x]
          勝ち(x)
          break
        }
      }
      if count(山) == 0 {
        outcome 流
        break
      }
      s = next(s)
    }
  }
}
"#;

#[test]
fn quick_decisions_of_every_kind_play_the_engines_games() {
    let p = program(QUICK_SHAPES);
    let image = p.vm.image(&p, 3).expect("lowered");
    let quick_picks = image.picks.iter().filter(|d| d.quick.is_some()).count();
    let quick_windows = image.claims.iter().filter(|d| d.quick.is_some()).count();
    assert!(
        quick_picks == 2 && quick_windows == 1,
        "{quick_picks} picks, {quick_windows} windows"
    );
    // The window comes right after the top card it asks about: the two are one.
    assert!(
        image
            .code
            .iter()
            .any(|i| matches!(i, fuda_core::vm::ins::Ins::TopClaim { .. })),
        "the top card and its window taken together"
    );
    // The win-or-discard pair has its own instruction; the draw-or-pick-up pair (a
    // comparison and a card option) is taken by the general two-option form.
    use fuda_core::vm::ins::Ins;
    assert!(image.code.iter().any(|i| matches!(i, Ins::PickOwn(_))));
    assert!(image.code.iter().any(|i| matches!(i, Ins::Pick(_))));
    // The loop's head is a decision, not a test of the dealer: the next seat and the
    // jump back are one instruction without a test.
    assert!(image
        .code
        .iter()
        .any(|i| matches!(i, Ins::NextOfJump { .. })));
    assert_eq!(same_games(&p, 20), 40, "the machine played every game");
}

#[test]
fn sangohanas_turn_takes_both_pick_shapes_as_the_engine_does() {
    // Draw or take the discard, then declare or discard: each pair has an instruction
    // of its own, and the games are the engine's.
    use fuda_core::vm::ins::Ins;
    let p = bundled("sangohana.fuda");
    let image = p.vm.image(&p, seats(&p)).expect("lowered");
    let count = |f: fn(&Ins) -> bool| image.code.iter().filter(|i| f(i)).count();
    assert_eq!(count(|i| matches!(i, Ins::PickTake(_))), 1, "draw or take");
    assert_eq!(
        count(|i| matches!(i, Ins::PickOwn(_))),
        2,
        "declare or discard"
    );
    assert_eq!(
        count(|i| matches!(i, Ins::Pick(_))),
        0,
        "no general pick left"
    );
    // The discard's `if` ends in the window itself, not in a jump to it.
    let jumps_to_window = image.code.iter().filter(|i| {
        matches!(i, Ins::Jump(t) if matches!(image.code.get(*t as usize), Some(Ins::TopClaim { .. })))
    });
    assert_eq!(jumps_to_window.count(), 0, "a jump to the window");
    assert!(
        count(|i| matches!(i, Ins::TopClaim { .. })) >= 2,
        "the window copied"
    );
    assert_eq!(same_games(&p, 10), 20, "the machine played every game");
}

#[test]
fn sangohanas_turn_runs_its_pairs_as_one_instruction_each() {
    // A draw then declare or discard, a discard then the window on it, the next seat
    // then the jump back, and the stock's test then the next seat: each pair is one
    // instruction, its second part left in place, and the games are still the engine's.
    use fuda_core::vm::ins::Ins;
    let p = bundled("sangohana.fuda");
    let image = p.vm.image(&p, seats(&p)).expect("lowered");
    let code = &image.code;
    let pairs = |f: fn(&Ins, &Ins) -> bool| code.windows(2).filter(|w| f(&w[0], &w[1])).count();
    assert_eq!(
        pairs(|a, b| matches!((a, b), (Ins::DrawOwn { k, .. }, Ins::PickOwn(j)) if k == j)),
        2,
        "a draw, or the discard taken, then declare or discard"
    );
    assert_eq!(
        pairs(|a, b| matches!(
            (a, b),
            (Ins::DiscardClaim { z, k, .. }, Ins::TopClaim { z: y, k: j, .. }) if z == y && k == j
        )),
        2,
        "a discard, then the window on it"
    );
    // The loop's head is `if s == dealer`: its test is taken with the next seat.
    let heads = code.windows(2).filter(|w| match (w[0], w[1]) {
        (Ins::NextOfDealer { then, to, .. }, Ins::Jump(t)) => {
            matches!(code.get(t as usize), Some(&Ins::JumpUnlessDealer { to: e, .. }) if e == to)
                && then == t + 1
        }
        _ => false,
    });
    assert_eq!(heads.count(), 1, "the next seat, then the loop's head");
    // The turn's last test, `if count(山札) == 0`, jumps to that next seat: taken with
    // it, the pair left where it was.
    let ends = code.iter().filter(|i| match **i {
        Ins::CountNextOfDealer { then, to, .. } => code.iter().any(
            |j| matches!(*j, Ins::NextOfDealer { then: t, to: e, .. } if t == then && e == to),
        ),
        _ => false,
    });
    assert_eq!(ends.count(), 1, "the stock's test, then the next seat");
    assert!(!code
        .iter()
        .any(|i| matches!(i, Ins::JumpUnlessCount { .. })));
    assert!(!code
        .iter()
        .any(|i| matches!(i, Ins::DrawTo { .. } | Ins::MoveCardTo { .. })));
    assert_eq!(same_games(&p, 10), 20, "the machine played every game");
}

/// 珊瑚花 with the text `from` (which it must hold) written `to`.
fn sangohana_with(from: &str, to: &str) -> fuda_core::Program {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulesets");
    let text = std::fs::read_to_string(dir.join("sangohana.fuda")).expect("a bundled ruleset");
    assert!(text.contains(from), "{from}");
    program(&text.replace(from, to))
}

#[test]
fn a_count_kept_in_a_variable_is_counted_in_place_as_the_engine_counts_it() {
    // `回 += 2` and `回 -= 1` each turn, and the winner paid 回 by each other seat: the
    // two are instructions of their own, and the chips are the engine's.
    use fuda_core::vm::ins::Ins;
    let mut text = QUICK_SHAPES.to_string();
    for (from, to) in [
        (
            "var chips: int per seat = 0",
            "var chips: int per seat = 0\nvar 回: int = 0",
        ),
        (
            "      s = next(s)\n",
            "      回 += 2\n      回 -= 1\n      s = next(s)\n",
        ),
        (
            "pay r.total from each others(x) to chips[x]",
            "pay r.total + 回 from each others(x) to chips[x]",
        ),
    ] {
        assert!(text.contains(from), "{from}");
        text = text.replace(from, to);
    }
    let p = program(&text);
    let image = p.vm.image(&p, 3).expect("lowered");
    let mut counts: Vec<i64> = image
        .code
        .iter()
        .filter_map(|i| match i {
            Ins::AddVar { k, .. } => Some(*k),
            _ => None,
        })
        .collect();
    counts.sort();
    assert_eq!(counts, [-1, 2], "both counts in place");
    assert_eq!(same_games(&p, 20), 40, "the machine played every game");
}

#[test]
fn a_window_whose_card_is_in_an_asked_hand_plays_the_engines_games() {
    // The window's card is the decider's own top card, so when the decider is asked
    // the card is already in the hand the guard adds it to: the running sum and count
    // must then take it once, as the engine's set union does. Hands hold six cards
    // between turns here, the pattern's size, so only the decider's can fit.
    let mut text = QUICK_SHAPES.to_string();
    for (from, to) in [
        ("let d = top(場)", "let d = top(手[s])"),
        ("deal 3, 2", "deal 3, 3"),
        ("count(手[s]) == 6", "count(手[s]) == 7"),
    ] {
        assert!(text.contains(from), "{from}");
        text = text.replace(from, to);
    }
    let p = program(&text);
    let image = p.vm.image(&p, 3).expect("lowered");
    assert!(
        image.claims.iter().any(|d| d.quick.is_some()),
        "a quick window"
    );
    assert_eq!(same_games(&p, 20), 40, "the machine played every game");
}

#[test]
fn a_match_longer_than_one_rounds_limit_is_the_machines_to_finish() {
    // 120 deals of about 80 decisions each: more than a round may take
    // (`ROUND_DECISION_LIMIT`), though no deal comes near it. Each outcome starts the
    // round's count again, so the machine plays the match to its end.
    let text = std::fs::read_to_string(format!(
        "{}/../../rulesets/sangohana.fuda",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("bundled ruleset");
    let long = text.replace("param deals: int = 12 in", "param deals: int = 120 in");
    assert_ne!(long, text, "the number of deals is a parameter");
    let p = program(&long);
    for g in 0..2 {
        let seed = game_seed(5, g);
        let rec = game(&p, "random", seed, false);
        let decisions: u64 = rec
            .split("decisions: ")
            .nth(1)
            .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|d| d.parse().ok())
            .expect("a record with its decisions");
        assert!(
            decisions > fuda_core::engine::ROUND_DECISION_LIMIT,
            "{decisions} decisions"
        );
        assert!(machine_finishes(&p, "random", seed), "game {g}");
        assert_eq!(rec, game(&p, "random", seed, true), "game {g}");
    }
}

#[test]
fn a_win_guard_the_plans_cannot_answer_reads_the_hands_as_the_engine_does() {
    // A yaku worth 0 keeps `役代(…).total > 0` from being answered by the plans alone,
    // so each hand that may win runs the guard's code, which reads the hands off the
    // board: they must be there, as the engine has them.
    let p = sangohana_with("素役     1  when", "素役     0  when");
    let image = p.vm.image(&p, seats(&p)).expect("lowered");
    assert!(
        image.hands.iter().all(|h| !h.exact),
        "no guard answered by plans"
    );
    assert_eq!(same_games(&p, 10), 20, "the machine played every game");
}

#[test]
fn a_dealer_drawn_with_tie_breaks_is_the_engines() {
    // Two copies of each card, so draws tie on every key now and then and are drawn
    // again; the outcomes carry the dealer of each round.
    let p = program(
        r#"
ruleset "x"
deck 札 "ranks and suits" {
  attribute rank: 1..2
  attribute suit: S | H | D
  card 1s "1S" rank=1 suit=S x2
  card 1h "1H" rank=1 suit=H x2
  card 1d "1D" rank=1 suit=D x2
  card 2s "2S" rank=2 suit=S x2
  card 2h "2H" rank=2 suit=H x2
  card 2d "2D" rank=2 suit=D x2
}
seats 3 { 3: A B C }
enum 結果: 終わり
zone 山 shared stack hidden
zone 手 per seat pile owner
proc match {
  repeat 6 {
    dealer by draw highest rank then lowest suit
    gather 山
    shuffle 山
    deal 2 from 山 to 手
    choose dealer { move 出す(c in 手[dealer]) { move c to 山 } }
    outcome 終わり
  }
}
"#,
    );
    assert!(p.vm.image(&p, 3).is_ok(), "{:?}", p.vm.image(&p, 3).err());
    assert_eq!(same_games(&p, 30), 60, "the machine played every game");
}

#[test]
fn a_card_guard_on_the_cards_class_is_one_intersection_with_the_engines_games() {
    // `move 取る(f in 場) when f.number == c.number` (浮島) and `when 同月(c, f)` (奈良:
    // the months compared and a tag tested on each card, the played card's test not
    // reading f): each option's cards are the zone's cards of one set worked out just
    // before the decision, not the guard asked card by card; the games are the engine's.
    use fuda_core::vm::image::{CardGuard, Count};
    for file in ["ukishima.fuda", "nara-hanaawase.fuda"] {
        let p = bundled(file);
        let image = p.vm.image(&p, seats(&p)).expect("lowered");
        let by_class = image
            .picks
            .iter()
            .flat_map(|d| d.options.iter())
            .filter(|o| {
                matches!(
                    o.count,
                    Count::Cards {
                        guard: CardGuard::In(_),
                        ..
                    }
                )
            })
            .count();
        assert_eq!(by_class, 1, "{file}: the capture's option");
        assert_eq!(
            same_games(&p, 20),
            40,
            "{file}: the machine played every game"
        );
    }
}
