//! Scores fixed sets of 珊瑚花 hands through the generic pattern and score-table engine a
//! given number of times: a fixed amount of work, so instruction counts (callgrind)
//! compare runs; `check` prints every result instead, to compare builds.
//!
//! `cargo run --profile dist -p fuda-core --example scorespeed -- MODE [REPS]`, MODE one of
//! `score` (whole results of winning hands), `total` (totals of winning hands), `zero`
//! (totals of hands that pass the class-count prefilter but score nothing), `pays` and
//! `nopay` (whether the table pays, as a win guard asks, on those two sets), `surely`
//! (the prefilter on random hands), `check`. Instructions per hand: the difference
//! between REPS and 0 repetitions, divided by REPS × 1000 hands.

use fuda_core::engine::{Cx, EVAL_BUDGET};
use fuda_core::loader::NoFiles;
use fuda_core::model::{CardSet, GameRng};
use fuda_core::score;
use fuda_core::value::{ScoreResult, Value};
use fuda_core::Program;

#[path = "../benches/common/hands.rs"]
mod hands;

/// Hands in each set.
const HANDS: usize = 1000;

/// The hand sets, built the same way every run.
struct Hands {
    /// Random 8-card hands.
    random: Vec<CardSet>,
    /// Hands that score (mostly three of one kind and five of another).
    wins: Vec<CardSet>,
    /// Hands that pass the prefilter but score nothing.
    zeros: Vec<CardSet>,
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "score".into());
    let reps: usize = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let p = fuda_core::compile(
        "sangohana.fuda",
        include_str!("../../../rulesets/sangohana.fuda"),
        &NoFiles,
    )
    .expect("compiles")
    .program;
    let table = p.score_named("役代").expect("役代");
    let hands = hands(&p, table);
    let mut sum = 0i64;
    match mode.as_str() {
        "score" => sum = scores(&p, table, &hands.wins, reps),
        "total" => sum = totals(&p, table, &hands.wins, reps),
        "zero" => sum = totals(&p, table, &hands.zeros, reps),
        "pays" => sum = pays(&p, table, &hands.wins, reps),
        "nopay" => sum = pays(&p, table, &hands.zeros, reps),
        "surely" => sum = surely(&p, table, &hands.random, reps),
        "check" => {
            for (set, hs) in [
                ("random", &hands.random),
                ("win", &hands.wins),
                ("zero", &hands.zeros),
            ] {
                for h in hs {
                    for first in [false, true] {
                        println!(
                            "{set} {} {}",
                            show(h),
                            describe(&full(&p, table, *h, first))
                        );
                    }
                    let t = totals(&p, table, std::slice::from_ref(h), 1);
                    let sure = score::surely_nothing_hand(&p, table, &Value::Cards(*h));
                    let pays = score::pays(&p, table, *h);
                    println!("{set} {} total {t} surely {sure} pays {pays:?}", show(h));
                }
            }
        }
        other => panic!("unknown mode {other}"),
    }
    println!("{mode} ×{reps}: {sum}");
}

/// The whole result of `h`, won on the first turn or not.
fn full(p: &Program, table: u16, h: CardSet, first: bool) -> ScoreResult {
    score::score_with(
        p,
        table,
        vec![Some(Value::Cards(h)), None, Some(Value::Bool(first))],
    )
    .expect("score")
}

/// The sum of the whole results' totals of `hs`, `reps` times over (a function of its
/// own, so `--toggle-collect=scorespeed::scores` counts it alone).
#[inline(never)]
fn scores(p: &Program, table: u16, hs: &[CardSet], reps: usize) -> i64 {
    let mut sum = 0;
    for _ in 0..reps {
        for h in hs {
            sum += full(p, table, *h, false).total;
        }
    }
    sum
}

/// How many of `hs` the prefilter lets through, `reps` times over.
#[inline(never)]
fn surely(p: &Program, table: u16, hs: &[CardSet], reps: usize) -> i64 {
    let hand: Vec<Value> = hs.iter().map(|h| Value::Cards(*h)).collect();
    let mut sum = 0;
    for _ in 0..reps {
        for h in &hand {
            sum += score::surely_nothing_hand(p, table, h) as i64;
        }
    }
    sum
}

/// The sum of the totals of `hs`, `reps` times over, as a move's guard asks.
#[inline(never)]
fn totals(p: &Program, table: u16, hs: &[CardSet], reps: usize) -> i64 {
    let mut args: Vec<Value> = hands::default_args(p, table);
    let mut locals = Vec::new();
    let mut cx = Cx {
        p,
        b: None,
        locals: &mut locals,
        groups: &[],
        budget: EVAL_BUDGET,
        at: Default::default(),
    };
    let mut sum = 0;
    for _ in 0..reps {
        for h in hs {
            args[0] = Value::Cards(*h);
            sum += score::evaluate_total(&mut cx, table, &args).expect("total");
        }
    }
    sum
}

/// How many of `hs` the table pays on, read off its plans as a win guard asks
/// (`score::pays`), `reps` times over.
#[inline(never)]
fn pays(p: &Program, table: u16, hs: &[CardSet], reps: usize) -> i64 {
    let mut sum = 0;
    for _ in 0..reps {
        for h in hs {
            sum += score::pays(p, table, *h).expect("answered") as i64;
        }
    }
    sum
}

/// The hand sets: random hands, then winning and prefilter-passing hands drawn with a
/// bias towards three of one kind and five of another (as the benchmark does).
fn hands(p: &Program, table: u16) -> Hands {
    let mut rng = GameRng::new(7);
    let random: Vec<CardSet> = (0..HANDS).map(|_| hands::random_hand(&mut rng)).collect();
    let (mut wins, mut zeros) = (Vec::new(), Vec::new());
    let sort = |h: CardSet, wins: &mut Vec<CardSet>, zeros: &mut Vec<CardSet>| {
        if full(p, table, h, false).total > 0 {
            wins.push(h);
        } else if !score::surely_nothing_hand(p, table, &Value::Cards(h)) {
            zeros.push(h);
        }
    };
    while wins.len() < HANDS || zeros.len() < HANDS {
        sort(hands::random_hand(&mut rng), &mut wins, &mut zeros);
        if let Some(h) = hands::shaped_hand(p, &mut rng) {
            sort(h, &mut wins, &mut zeros);
        }
    }
    wins.truncate(HANDS);
    zeros.truncate(HANDS);
    Hands {
        random,
        wins,
        zeros,
    }
}

/// A hand's cards, by index.
fn show(h: &CardSet) -> String {
    h.iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// Every field of a result, on one line.
fn describe(r: &ScoreResult) -> String {
    let lines = |ls: &[fuda_core::value::YakuLine]| {
        ls.iter()
            .map(|y| format!("{} {}", y.name, y.value))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let groups: Vec<String> = r
        .groups
        .iter()
        .map(|(g, cs)| format!("{g}={:?}", cs.iter().collect::<Vec<_>>()))
        .collect();
    format!(
        "{} | {} | {} | base {} factor {} bonus {} total {} | {}",
        r.name,
        lines(&r.yaku),
        lines(&r.base_yaku),
        r.base,
        r.factor,
        r.bonus,
        r.total,
        groups.join(" ")
    )
}
