//! The game-loop benchmark both bench files run: whole games with one kind of agent
//! on one thread, with throughput counted in the deals (rounds) those games play.

use criterion::{BenchmarkId, Criterion, Throughput};
use fuda_core::agents::{by_name, Agent};
use fuda_core::play::{agent_seed, game_seed, play_game, PlayOptions, Table};
use fuda_core::Program;

/// Benchmarks `games` games of `p` (seeds from master seed 1) with `agent` in every
/// seat, played on one [`Table`] as `fuda simulate` plays them, as
/// `group/what/agent-Np`; the throughput is the deals those games play.
// `benches/taigi.rs` asks for parameters and so uses only `bench_games_with`.
#[allow(dead_code)]
pub fn bench_games(
    c: &mut Criterion,
    group: &str,
    what: &str,
    p: &Program,
    games: u64,
    agent: &str,
) {
    bench_games_with(c, group, what, p, &[], games, agent, None);
}

/// [`bench_games`] with the games' parameters (`params`, by the program's parameter
/// order) and, for games long enough that criterion's default 100 samples would take
/// minutes, fewer samples.
#[allow(clippy::too_many_arguments)]
pub fn bench_games_with(
    c: &mut Criterion,
    group: &str,
    what: &str,
    p: &Program,
    params: &[Option<fuda_core::value::Value>],
    games: u64,
    agent: &str,
    samples: Option<usize>,
) {
    let seeds: Vec<u64> = (0..games).map(|i| game_seed(1, i)).collect();
    let seats = fuda_core::State::new(p, params, 0)
        .expect("the game starts")
        .board
        .seats as usize;
    let agents_for = |seed: u64| -> Vec<Box<dyn Agent>> {
        (0..seats)
            .map(|s| by_name(agent, agent_seed(seed, s)).expect("agent"))
            .collect()
    };
    let opts = PlayOptions::default();
    // Count the deals these games play once, so throughput is in deals.
    let total: usize = seeds
        .iter()
        .map(|s| {
            play_game(p, params, *s, &mut agents_for(*s), &opts)
                .expect("game")
                .outcomes
                .len()
        })
        .sum();
    let mut g = c.benchmark_group(group);
    if let Some(n) = samples {
        g.sample_size(n);
    }
    g.throughput(Throughput::Elements(total as u64));
    g.bench_function(BenchmarkId::new(what, format!("{agent}-{seats}p")), |b| {
        // One table for the games, as `fuda simulate` keeps one a worker thread.
        let mut table = Table::new(p, params);
        b.iter(|| {
            for s in &seeds {
                let r = table.play(*s, &mut agents_for(*s), &opts).expect("game");
                criterion::black_box(r.outcomes.len());
            }
        })
    });
    g.finish();
}
