//! The greedy player backs off playouts that tell nothing: in 富戯, whose rounds end by
//! the wall with nobody out, its playouts never score, so after four silent decisions it
//! plays out only now and then, each silent probe doubling the gap to the next.

use fuda_core::agents::{Agent, Greedy};
use fuda_core::engine::Move;
use fuda_core::loader::NoFiles;
use fuda_core::play::{agent_seed, game_seed, play_game, PlayOptions};
use fuda_core::{Program, State};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A greedy player that counts its decisions and those it played out.
struct Watched {
    greedy: Greedy,
    decisions: Arc<AtomicUsize>,
    probes: Arc<AtomicUsize>,
}

impl Agent for Watched {
    fn name(&self) -> &'static str {
        "watched"
    }
    fn choose(&mut self, p: &Program, st: &State, seat: u8, moves: &[Move]) -> usize {
        let c = self.greedy.choose(p, st, seat, moves);
        if moves.len() > 1 {
            self.decisions.fetch_add(1, Ordering::Relaxed);
            if self.greedy.last_work().decisions > 0 {
                self.probes.fetch_add(1, Ordering::Relaxed);
            }
        }
        c
    }
}

#[test]
fn silent_playouts_back_off() {
    let text = include_str!("../../../rulesets/fugi.fuda");
    let p = fuda_core::compile("fugi.fuda", text, &NoFiles)
        .expect("compiles")
        .program;
    let seed = game_seed(1, 0);
    let counts: Vec<(Arc<AtomicUsize>, Arc<AtomicUsize>)> =
        (0..4).map(|_| (Arc::default(), Arc::default())).collect();
    let mut agents: Vec<Box<dyn Agent>> = counts
        .iter()
        .enumerate()
        .map(|(s, (d, pr))| {
            Box::new(Watched {
                greedy: Greedy::new(agent_seed(seed, s)),
                decisions: d.clone(),
                probes: pr.clone(),
            }) as Box<dyn Agent>
        })
        .collect();
    let rec = play_game(&p, &[], seed, &mut agents, &PlayOptions::default()).expect("plays");
    assert!(rec.outcomes.len() >= 8, "{:?}", rec.outcomes);
    for (d, pr) in &counts {
        let (d, pr) = (d.load(Ordering::Relaxed), pr.load(Ordering::Relaxed));
        // Four probes, then gaps of 8, 16, 32 and 64 decisions: seven in a game of some
        // eighty decisions a seat (one probe in eight would make about thirteen).
        assert!(d >= 60, "{d} decisions");
        assert!((4..=9).contains(&pr), "{pr} probes in {d} decisions");
    }
}
