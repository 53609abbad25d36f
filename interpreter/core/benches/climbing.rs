//! Benchmarks for 富戯 (`rulesets/fugi.fuda`), a climbing game: the legal plays of a
//! 14-tile hand listed at its decision (each n-of-a-kind over `sets(…, face)`, the
//! special plays over one suit or a number, the pass), against the same round with a
//! decision of two plain moves, so that the difference is the listing alone.
//!
//! Run with `cargo bench -p fuda-core --bench climbing`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fuda_core::loader::MemoryFiles;
use fuda_core::{Program, State};

const FUGI: &str = include_str!("../../../rulesets/fugi.fuda");

/// 富戯 whose match deals seat 0 fourteen tiles from a fresh shuffle and asks its play
/// on a clear table, again and again.
const LISTING: &str = "ruleset \"listing\" extends \"fugi.fuda\"\n\
    proc match { loop { gather 壁  shuffle 壁  repeat 14 { move top(壁) to 手牌[0] }  打牌(0) } }\n";

/// The same rounds with a decision of two moves instead of the plays.
const BASELINE: &str = "ruleset \"baseline\" extends \"fugi.fuda\"\n\
    proc match { loop { gather 壁  shuffle 壁  repeat 14 { move top(壁) to 手牌[0] }\n\
    choose 0 { move 一 { }  move 二 { } } } }\n";

fn program(text: &str) -> Program {
    let files = MemoryFiles(vec![("fugi.fuda".to_string(), FUGI.to_string())]);
    fuda_core::compile("bench.fuda", text, &files)
        .unwrap_or_else(|f| panic!("{:?}", f.diagnostics))
        .program
}

/// Runs `n` decisions of `p`'s match, each answered with its last move (the pass);
/// the moves listed, summed.
fn decisions(p: &Program, n: usize) -> usize {
    let mut st = State::new(p, &[], 7).expect("starts");
    let mut listed = 0;
    for _ in 0..n {
        st.advance(p).expect("advances");
        let moves = st.pending().expect("a decision").seats[0].moves.len();
        listed += moves;
        st.apply(p, &[moves - 1]).expect("applies");
    }
    listed
}

fn climbing(c: &mut Criterion) {
    let mut g = c.benchmark_group("fugi");
    const N: usize = 1000;
    g.throughput(Throughput::Elements(N as u64));
    g.sample_size(10);
    for (id, text) in [("14-tile-plays", LISTING), ("14-tile-baseline", BASELINE)] {
        let p = program(text);
        g.bench_function(BenchmarkId::new("decisions", id), |b| {
            b.iter(|| decisions(&p, N))
        });
    }
    g.finish();
}

criterion_group!(benches, climbing);
criterion_main!(benches);
