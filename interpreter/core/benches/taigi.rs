//! Benchmarks for 対戯: deals per second with random agents on one thread, and next to it
//! the same rate of the hand-written yardstick (`common/yardstick_taigi.rs`), so that the
//! engine's rate can be set against a direct program's in the same run. Both play
//! matches to 1 point (`目標 = 1`, `戻り = 0`): a deal is played the same whatever the
//! target, and a default match (to 15) is hundreds of deals, too long for one sample.
//!
//! Run with `cargo bench -p fuda-core --bench taigi`.

mod common;
#[path = "common/yardstick_taigi.rs"]
mod yardstick_taigi;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fuda_core::loader::NoFiles;
use fuda_core::value::Value;

/// The target and the return both sides play to.
const TARGET: u32 = 1;
const BACK: u32 = 0;

fn deals(c: &mut Criterion) {
    let p = fuda_core::compile(
        "taigi.fuda",
        include_str!("../../../rulesets/taigi.fuda"),
        &NoFiles,
    )
    .expect("compiles")
    .program;
    let params: Vec<Option<Value>> = p
        .params
        .iter()
        .map(|d| match d.name.as_str() {
            "目標" => Some(Value::Int(TARGET.into())),
            "戻り" => Some(Value::Int(BACK.into())),
            _ => None,
        })
        .collect();
    common::bench_games_with(c, "taigi", "deals", &p, &params, 8, "random", Some(10));
}

/// The yardstick's deal rate with its random players: whole matches to the same
/// target, throughput counted in the deals they play.
fn yardstick_deals(c: &mut Criterion) {
    const MATCHES: u64 = 200;
    let play = |y: &mut yardstick_taigi::Yardstick, st: &mut yardstick_taigi::Stats| {
        for _ in 0..MATCHES {
            criterion::black_box(y.play_match(st));
        }
    };
    let new = || {
        let mut y = yardstick_taigi::Yardstick::new(1);
        y.target = TARGET;
        y.back = BACK;
        y
    };
    // Every iteration plays the same matches (a match's length varies), so the deals
    // counted once beforehand are each iteration's.
    let mut st = yardstick_taigi::Stats::default();
    play(&mut new(), &mut st);
    let mut g = c.benchmark_group("taigi");
    g.throughput(Throughput::Elements(st.deals));
    g.bench_function(BenchmarkId::new("yardstick", "random-2p"), |b| {
        let mut st = yardstick_taigi::Stats::default();
        b.iter(|| play(&mut new(), &mut st))
    });
    g.finish();
}

criterion_group!(benches, deals, yardstick_deals);
criterion_main!(benches);
