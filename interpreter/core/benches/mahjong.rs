//! Benchmarks for the mahjong winning forms of `std/mahjong-shapes`: 14-tile hands
//! checked for a win by any form, and `waits` on 13-tile hands (random ones, and
//! one-suit ones, which have the most ways to split), each through a score table as
//! `fuda score` asks.
//!
//! Run with `cargo bench -p fuda-core --bench mahjong`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fuda_core::loader::NoFiles;
use fuda_core::model::{splitmix64, CardSet};
use fuda_core::value::Value;
use fuda_core::Program;

/// The shapes, and two tables: a win by any form, and how many tiles complete a hand.
const RULES: &str = "ruleset \"bench\"\nimport \"std/mahjong\"\nimport \"std/mahjong-shapes\"\n\
    seats 2 { 2: a b }\nzone z shared pile public\nproc match { }\n\
    score 和了(hand: cards) { yaku all { 和了 1 when 一般形(hand) or 七対子(hand) or 国士無双(hand) } }\n\
    score 待ち(hand: cards) { yaku all { 待ち count(waits(一般形, hand) + waits(七対子, hand) + waits(国士無双, hand)) when true } }\n";

/// A small deterministic generator.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = splitmix64(self.0);
        (self.0 % n as u64) as usize
    }
}

/// `n` different tiles among the first `pool` of the deck (tile kind k holds cards
/// 4k to 4k + 3, so the first 36 are the 萬子).
fn hand(rng: &mut Rng, n: usize, pool: usize) -> CardSet {
    let mut h = CardSet::EMPTY;
    while h.len() < n {
        h.insert(rng.below(pool) as u16);
    }
    h
}

/// Takes one free copy of kind `k`, if any is left.
fn take(h: &mut CardSet, k: usize) -> bool {
    (4 * k..4 * k + 4).any(|c| {
        let free = !h.contains(c as u16);
        if free {
            h.insert(c as u16);
        }
        free
    })
}

/// A pair and four melds (triplets and runs), copies permitting.
fn win(rng: &mut Rng) -> CardSet {
    loop {
        let mut h = CardSet::EMPTY;
        let pair = rng.below(34);
        let mut ok = take(&mut h, pair) && take(&mut h, pair);
        for _ in 0..4 {
            if rng.below(3) == 0 {
                let k = rng.below(34);
                ok &= take(&mut h, k) && take(&mut h, k) && take(&mut h, k);
            } else {
                let k = rng.below(3) * 9 + rng.below(7);
                ok &= take(&mut h, k) && take(&mut h, k + 1) && take(&mut h, k + 2);
            }
        }
        if ok {
            return h;
        }
    }
}

fn table(p: &Program, name: &str) -> u16 {
    p.scores.iter().position(|s| s.name == name).expect("table") as u16
}

fn run(c: &mut Criterion, p: &Program, group: &str, id: &str, name: &str, hands: &[CardSet]) {
    let t = table(p, name);
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(hands.len() as u64));
    g.sample_size(10);
    g.bench_function(BenchmarkId::new(name, id), |b| {
        b.iter(|| {
            hands
                .iter()
                .map(|h| {
                    fuda_core::score::score_with(p, t, vec![Some(Value::Cards(*h))])
                        .map(|r| r.total)
                        .unwrap_or(-1)
                })
                .sum::<i64>()
        })
    });
    g.finish();
}

fn mahjong(c: &mut Criterion) {
    let p = fuda_core::compile("bench.fuda", RULES, &NoFiles)
        .expect("compiles")
        .program;
    let mut rng = Rng(0x4D4A);
    let random14: Vec<CardSet> = (0..1000).map(|_| hand(&mut rng, 14, 136)).collect();
    let wins: Vec<CardSet> = (0..1000).map(|_| win(&mut rng)).collect();
    run(c, &p, "mahjong", "random-14-tile-hands", "和了", &random14);
    run(c, &p, "mahjong", "winning-14-tile-hands", "和了", &wins);
    let random13: Vec<CardSet> = (0..100).map(|_| hand(&mut rng, 13, 136)).collect();
    let suit13: Vec<CardSet> = (0..100).map(|_| hand(&mut rng, 13, 36)).collect();
    let ready: Vec<CardSet> = wins[..100]
        .iter()
        .map(|w| {
            let mut h = *w;
            h.remove(w.first().expect("a tile"));
            h
        })
        .collect();
    run(c, &p, "mahjong", "random-13-tile-hands", "待ち", &random13);
    run(c, &p, "mahjong", "ready-13-tile-hands", "待ち", &ready);
    run(c, &p, "mahjong", "one-suit-13-tile-hands", "待ち", &suit13);
}

criterion_group!(benches, mahjong);
criterion_main!(benches);
