//! Benchmarks for the fishing games: rounds per second of 浮島 and 奈良 hana-awase with
//! random agents on one thread, and next to each the same rate of its hand-written
//! yardstick (`common/yardstick_ukishima.rs`, `common/yardstick_nara.rs`), so that the
//! engine's rate can be set against a direct program's on the same machine in the same
//! run: `-- rounds` and `-- yardstick` select the two.
//!
//! Run with `cargo bench -p fuda-core --bench fishing`.

mod common;
#[path = "common/yardstick_nara.rs"]
mod yardstick_nara;
#[path = "common/yardstick_ukishima.rs"]
mod yardstick_ukishima;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fuda_core::loader::NoFiles;

fn bench_game(c: &mut Criterion, name: &str, text: &str) {
    let p = fuda_core::compile(name, text, &NoFiles)
        .expect("compiles")
        .program;
    common::bench_games(
        c,
        name.trim_end_matches(".fuda"),
        "rounds",
        &p,
        16,
        "random",
    );
}

fn ukishima(c: &mut Criterion) {
    bench_game(
        c,
        "ukishima.fuda",
        include_str!("../../../rulesets/ukishima.fuda"),
    );
}

/// The 浮島 yardstick's round rate with its random players: whole 6-round matches,
/// throughput counted in rounds like the engine's `rounds` group.
fn ukishima_yardstick(c: &mut Criterion) {
    const MATCHES: u64 = 1000;
    let mut g = c.benchmark_group("ukishima");
    g.throughput(Throughput::Elements(
        MATCHES * yardstick_ukishima::ROUNDS as u64,
    ));
    g.bench_function(BenchmarkId::new("yardstick", "random-3p"), |b| {
        let mut y = yardstick_ukishima::Yardstick::new(1);
        let mut st = yardstick_ukishima::Stats::default();
        b.iter(|| {
            for _ in 0..MATCHES {
                criterion::black_box(y.play_match(&mut st));
            }
        })
    });
    g.finish();
}

fn nara(c: &mut Criterion) {
    bench_game(
        c,
        "nara-hanaawase.fuda",
        include_str!("../../../rulesets/nara-hanaawase.fuda"),
    );
}

/// The 奈良 yardstick's hand rate with its random players: whole 12-hand matches,
/// throughput counted in hands (rounds) like the engine's `rounds` group.
fn nara_yardstick(c: &mut Criterion) {
    const MATCHES: u64 = 500;
    let mut g = c.benchmark_group("nara-hanaawase");
    g.throughput(Throughput::Elements(MATCHES * yardstick_nara::HANDS as u64));
    g.bench_function(BenchmarkId::new("yardstick", "random-4p"), |b| {
        let mut y = yardstick_nara::Yardstick::new(1);
        let mut st = yardstick_nara::Stats::default();
        b.iter(|| {
            for _ in 0..MATCHES {
                criterion::black_box(y.play_match(&mut st));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, ukishima, ukishima_yardstick, nara, nara_yardstick);
criterion_main!(benches);
