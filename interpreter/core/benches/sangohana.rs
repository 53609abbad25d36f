//! Benchmarks for 珊瑚花: deals per second with eager and random agents on one thread, and scored
//! hands per second through the generic pattern and score-table engine (whole results, and
//! totals alone as a move's guard asks). Next to them, the same measures of the hand-written
//! yardstick (`common/yardstick.rs`), so that the engine's rates can be set against it on
//! the same machine: `-- deals` and `-- yardstick` select the two deal rates.
//!
//! Run with `cargo bench -p fuda-core --bench sangohana`.

mod common;
#[path = "common/hands.rs"]
mod hands;
#[path = "common/yardstick.rs"]
mod yardstick;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fuda_core::loader::NoFiles;
use fuda_core::model::{CardSet, GameRng};
use fuda_core::value::Value;

const RULESET: &str = include_str!("../../../rulesets/sangohana.fuda");

fn program() -> fuda_core::Program {
    fuda_core::compile("sangohana.fuda", RULESET, &NoFiles)
        .expect("sangohana compiles")
        .program
}

fn deals(c: &mut Criterion) {
    let p = program();
    // `eager` declares every win it is offered and otherwise plays at random: the
    // hand-written yardstick's players. `random` also declines wins half the time.
    for agent in ["eager", "random"] {
        common::bench_games(c, "sangohana", "deals", &p, 32, agent);
    }
}

/// The hand-written simulator's deal rate with its eager players: whole 12-deal matches,
/// throughput counted in deals like the engine's `deals` group.
fn yardstick_deals(c: &mut Criterion) {
    const MATCHES: u64 = 1000;
    let mut g = c.benchmark_group("sangohana");
    g.throughput(Throughput::Elements(MATCHES * yardstick::DEALS as u64));
    g.bench_function(BenchmarkId::new("yardstick", "eager-3p"), |b| {
        let mut y = yardstick::Yardstick::new(1);
        let mut st = yardstick::Stats::default();
        b.iter(|| {
            for _ in 0..MATCHES {
                criterion::black_box(y.play_match(&mut st));
            }
        })
    });
    g.finish();
}

fn scoring(c: &mut Criterion) {
    let p = program();
    let table = p.score_named("役代").expect("役代");
    // Random 8-card hands; a fixed seed keeps the mix the same between runs.
    let mut rng = GameRng::new(7);
    let hands: Vec<CardSet> = (0..1000).map(|_| hands::random_hand(&mut rng)).collect();
    let mut g = c.benchmark_group("sangohana");
    g.throughput(Throughput::Elements(hands.len() as u64));
    g.bench_function(BenchmarkId::new("score", "random-8-card-hands"), |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for h in &hands {
                let r = fuda_core::score::score_with(&p, table, vec![Some(Value::Cards(*h))])
                    .expect("score");
                sum += r.total;
            }
            criterion::black_box(sum)
        })
    });
    // Hands that do form a yaku: the full split search and every stage run.
    let wins_yaku = |h: CardSet| {
        fuda_core::score::score_with(&p, table, vec![Some(Value::Cards(h))])
            .expect("score")
            .total
            > 0
    };
    let mut wins: Vec<CardSet> = Vec::new();
    while wins.len() < 1000 {
        let h = hands::random_hand(&mut rng);
        if wins_yaku(h) {
            wins.push(h);
        }
        if let Some(h) = hands::shaped_hand(&p, &mut rng).filter(|h| wins_yaku(*h)) {
            wins.push(h);
        }
    }
    wins.truncate(1000);
    g.bench_function(BenchmarkId::new("score", "winning-8-card-hands"), |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for h in &wins {
                let r = fuda_core::score::score_with(&p, table, vec![Some(Value::Cards(*h))])
                    .expect("score");
                sum += r.total;
            }
            criterion::black_box(sum)
        })
    });
    // The same hands asked only for their total, as a move's guard asks
    // (`役代(手札[s]).total > 0`): the search and the stages without the result's text.
    let defaults: Vec<Value> = hands::default_args(&p, table);
    g.bench_function(BenchmarkId::new("total", "winning-8-card-hands"), |b| {
        let mut args = defaults.clone();
        let mut locals = Vec::new();
        b.iter(|| {
            let mut cx = fuda_core::engine::Cx {
                p: &p,
                b: None,
                locals: &mut locals,
                groups: &[],
                budget: fuda_core::engine::EVAL_BUDGET,
                at: Default::default(),
            };
            let mut sum = 0i64;
            for h in &wins {
                args[0] = Value::Cards(*h);
                sum += fuda_core::score::evaluate_total(&mut cx, table, &args).expect("total");
            }
            criterion::black_box(sum)
        })
    });
    // The yardstick's scorer on the same random hands, in every timing context the
    // engine's default arguments stand for (上がり, not the first turn).
    let masks: Vec<u64> = hands
        .iter()
        .map(|h| {
            h.iter().fold(0u64, |m, c| {
                let id = p.deck.ids[c as usize].as_str();
                let bit = yardstick::IDS.iter().position(|i| *i == id).expect("card");
                m | 1 << bit
            })
        })
        .collect();
    g.bench_function(
        BenchmarkId::new("yardstick-score", "random-8-card-hands"),
        |b| {
            b.iter(|| {
                let mut sum = 0i64;
                for &m in criterion::black_box(&masks) {
                    sum += yardstick::total(m, yardstick::Win::Agari, false, false) as i64;
                }
                criterion::black_box(sum)
            })
        },
    );
    g.finish();
}

criterion_group!(benches, deals, yardstick_deals, scoring);
criterion_main!(benches);
