//! Plays a fixed batch of games on one thread and prints the deal rate: a fixed amount
//! of work, so instruction counts (callgrind) compare runs. 珊瑚花 unless a ruleset
//! without file imports is named.
//!
//! `cargo run --profile dist -p fuda-core --example simspeed -- 2000 [eager|random|greedy] [FILE]`

use fuda_core::agents::{by_name, Agent};
use fuda_core::loader::NoFiles;
use fuda_core::play::{agent_seed, game_seed, PlayOptions, Table};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(500);
    let agent = std::env::args().nth(2).unwrap_or_else(|| "eager".into());
    let (name, text) = match std::env::args().nth(3) {
        Some(path) => {
            let text = std::fs::read_to_string(&path).expect("a readable ruleset");
            (path, text)
        }
        None => (
            "sangohana.fuda".to_string(),
            include_str!("../../../rulesets/sangohana.fuda").to_string(),
        ),
    };
    let p = fuda_core::compile(&name, &text, &NoFiles)
        .expect("compiles")
        .program;
    let seats = fuda_core::State::new(&p, &[], 0)
        .expect("starts")
        .board
        .seats as usize;
    // One table for the batch, as `fuda simulate` keeps one a thread.
    let mut table = Table::new(&p, &[]);
    let start = std::time::Instant::now();
    let (mut deals, mut decisions) = (0usize, 0u64);
    for g in 0..games {
        let seed = game_seed(1, g);
        let mut agents: Vec<Box<dyn Agent>> = (0..seats)
            .map(|s| by_name(&agent, agent_seed(seed, s)).expect("agent"))
            .collect();
        let rec = table
            .play(seed, &mut agents, &PlayOptions::default())
            .expect("game");
        deals += rec.outcomes.len();
        decisions += rec.decisions;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{agent}: {games} games, {deals} deals, {:.1} decisions/deal: {:.0} deals/s, {:.0} decisions/s",
        decisions as f64 / deals as f64,
        deals as f64 / secs,
        decisions as f64 / secs
    );
}
