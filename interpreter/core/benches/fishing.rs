//! Benchmarks for the fishing games: rounds per second of 浮島 and 奈良 hana-awase with
//! random agents on one thread.
//!
//! Run with `cargo bench -p fuda-core --bench fishing`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fuda_core::agents::{by_name, Agent};
use fuda_core::loader::NoFiles;
use fuda_core::play::{agent_seed, game_seed, play_game, PlayOptions};

fn bench_game(c: &mut Criterion, name: &str, text: &str, seats: usize) {
    let p = fuda_core::compile(name, text, &NoFiles)
        .expect("compiles")
        .program;
    let seeds: Vec<u64> = (0..16).map(|i| game_seed(1, i)).collect();
    let agents_for = |seed: u64| -> Vec<Box<dyn Agent>> {
        (0..seats)
            .map(|s| by_name("random", agent_seed(seed, s)).expect("agent"))
            .collect()
    };
    let opts = PlayOptions::default();
    let total: usize = seeds
        .iter()
        .map(|s| {
            play_game(&p, &[], *s, &mut agents_for(*s), &opts)
                .expect("game")
                .outcomes
                .len()
        })
        .sum();
    let mut g = c.benchmark_group(name.trim_end_matches(".fuda"));
    g.throughput(Throughput::Elements(total as u64));
    g.bench_function(BenchmarkId::new("rounds", "random"), |b| {
        b.iter(|| {
            for s in &seeds {
                let r = play_game(&p, &[], *s, &mut agents_for(*s), &opts).expect("game");
                criterion::black_box(r.outcomes.len());
            }
        })
    });
    g.finish();
}

fn ukishima(c: &mut Criterion) {
    bench_game(
        c,
        "ukishima.fuda",
        include_str!("../../../rulesets/ukishima.fuda"),
        3,
    );
}

fn nara(c: &mut Criterion) {
    bench_game(
        c,
        "nara-hanaawase.fuda",
        include_str!("../../../rulesets/nara-hanaawase.fuda"),
        4,
    );
}

criterion_group!(benches, ukishima, nara);
criterion_main!(benches);
