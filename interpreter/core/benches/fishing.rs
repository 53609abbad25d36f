//! Benchmarks for the fishing games: rounds per second of 浮島 and 奈良 hana-awase with
//! random agents on one thread.
//!
//! Run with `cargo bench -p fuda-core --bench fishing`.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
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

fn nara(c: &mut Criterion) {
    bench_game(
        c,
        "nara-hanaawase.fuda",
        include_str!("../../../rulesets/nara-hanaawase.fuda"),
    );
}

criterion_group!(benches, ukishima, nara);
criterion_main!(benches);
