//! The planner judges the choices made before the deal — a menu of a target and wagers —
//! by playing the round on in sampled deals as it would play it; the greedy player
//! judges them by random playouts, which tell little.

use fuda_core::agents::{by_name, Agent};
use fuda_core::loader::NoFiles;
use fuda_core::play::{agent_seed, game_seed, play_game, PlayOptions};

/// A solo round: before the deal, a menu — a target for the sum of five tiles' numbers
/// (met: the target is won; missed: lost twice over), a wager that the five hold an
/// honour (+30, else −10; about two deals in three do), a wager that they hold four
/// dragons of a kind (+30, else −10: never worth it) — then five tiles are dealt.
const RULES: &str = r#"
ruleset "目標"
import "std/mahjong"
seats 1 { 1: 帝 }
zone 壁 shared stack hidden
zone 手 per seat pile owner
enum 結果: 終(end)
var 目標: int = -1
var 字: bool = false
var 龍: bool = false
score 得点(n: int) { yaku first { 点 n when true } }
def 項目点(a: int, t: int) = if t < 0 then a else if a >= t then a + t else 3 * a - t
def 賭(on: bool, held: bool) = if not on then 0 else if held then 30 else -10
proc match {
  構成()
  tally 目標 目標
  tally 字 字
  tally 龍 龍
  shuffle 壁
  deal 5 from 壁 to 手
  let a = sum(c in 手[0]: c.number)
  record 得点(項目点(a, 目標) + 賭(字, any(c in 手[0]: c.suit == 字牌))
              + 賭(龍, count(c in 手[0]: c.face == 中) >= 4)) for 0
  outcome 終
}
proc 構成 {
  loop {
    choose 0 {
      move 提出 { return }
      move 目標を置く { choose 0 { move 値(t in 1..60) { 目標 = t } } }
      move 字に賭ける when not 字 { 字 = true }
      move 龍に賭ける when not 龍 { 龍 = true }
    }
  }
}
"#;

/// A player that always takes the first move: it submits an empty composition.
struct First;

impl Agent for First {
    fn name(&self) -> &'static str {
        "first"
    }
    fn choose(
        &mut self,
        _: &fuda_core::Program,
        _: &fuda_core::State,
        _: u8,
        _: &[fuda_core::engine::Move],
    ) -> usize {
        0
    }
}

/// Each of `n` games played by `agent`: the score recorded and the tallies.
fn games(agent: &str, n: u64) -> Vec<(i64, Vec<(String, String)>)> {
    let p = fuda_core::compile("t.fuda", RULES, &NoFiles)
        .expect("compiles")
        .program;
    (0..n)
        .map(|g| {
            let seed = game_seed(5, g);
            let mut agents: Vec<Box<dyn Agent>> = vec![match agent {
                "first" => Box::new(First),
                _ => by_name(agent, agent_seed(seed, 0)).expect("agent"),
            }];
            let rec =
                play_game(&p, &[], seed, &mut agents, &PlayOptions::default()).expect("plays");
            let score = rec.records.iter().map(|(_, r, _)| r.total).sum();
            let tallies = rec
                .tallies
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect();
            (score, tallies)
        })
        .collect()
}

fn tally<'a>(t: &'a [(String, String)], name: &str) -> &'a str {
    t.iter()
        .find(|(k, _)| k == name)
        .map_or("", |(_, v)| v.as_str())
}

#[test]
fn the_planner_sets_a_target_and_takes_the_wager_that_pays() {
    let planned = games("planner", 12);
    let first = games("first", 12);
    let greedy = games("greedy", 12);
    for (_, t) in &planned {
        let target: i64 = tally(t, "目標").parse().expect("a number");
        // The sum of five tiles' numbers is about 20 on the mean: a target far off it
        // loses on most deals.
        assert!((8..=30).contains(&target), "target {target}");
        assert_eq!(tally(t, "龍"), "false");
    }
    // Sixteen sampled deals may hold fewer honours than the draw does: a wager is taken
    // only when it gains clearly in them.
    let wagered = planned
        .iter()
        .filter(|(_, t)| tally(t, "字") == "true")
        .count();
    assert!(wagered >= 10, "{planned:?}");
    let total = |gs: &[(i64, Vec<(String, String)>)]| gs.iter().map(|g| g.0).sum::<i64>();
    let (a, b, c) = (total(&planned), total(&greedy), total(&first));
    // The same twelve deals (the choices draw nothing): against the empty composition
    // the target adds about 8 a deal and the wager about 17.
    assert!(
        a > c + 12 * 10 && a > b,
        "planner {a}, greedy {b}, empty {c}"
    );
}

#[test]
fn a_renewed_planner_plans_as_a_new_one() {
    let p = fuda_core::compile("t.fuda", RULES, &NoFiles)
        .expect("compiles")
        .program;
    let play = |a: &mut Box<dyn Agent>, seed: u64| {
        let mut agents = vec![std::mem::replace(a, by_name("random", 0).expect("agent"))];
        let rec = play_game(&p, &[], seed, &mut agents, &PlayOptions::default()).expect("plays");
        *a = agents.pop().expect("the agent");
        rec.tallies
    };
    let mut used = by_name("planner", 1).expect("agent");
    play(&mut used, 10);
    assert!(used.new_game(2));
    let mut fresh = by_name("planner", 2).expect("agent");
    assert_eq!(play(&mut used, 11), play(&mut fresh, 11));
}
