//! Playing whole games with agents, recording what the statistics need, and checking
//! the invariants after every decision when asked.

mod settle;

pub use settle::{settle, SettleError, Settlement, ZoneCards};

use std::sync::Arc;

use crate::agents::Agent;
use crate::engine::{Event, RuntimeError, State};
use crate::ir::Program;
use crate::model::GameRng;
use crate::value::{ScoreResult, Value};

/// What one finished game produced.
#[derive(Clone, Debug, Default)]
pub struct GameRecord {
    /// The game's seed.
    pub seed: u64,
    /// Seats.
    pub seats: u8,
    /// Round outcomes in order (上がり, 当たり, 流れ…).
    pub outcomes: Vec<Arc<str>>,
    /// Recorded results: seat, result, and the dealer at the time.
    pub records: Vec<(u8, Arc<ScoreResult>, u8)>,
    /// Tallied values: label and value.
    pub tallies: Vec<(Arc<str>, String)>,
    /// The dealer of each round, parallel to `outcomes`.
    pub dealers: Vec<u8>,
    /// Final values of the first per-seat int ledger variable (e.g. chips), per seat.
    pub chips: Vec<i64>,
    /// Decisions taken.
    pub decisions: u64,
    /// The choices made, for a replay: per decision, one index per asked seat.
    pub moves: Vec<Vec<usize>>,
}

/// Options for playing a game.
#[derive(Clone, Debug, Default)]
pub struct PlayOptions {
    /// Check every card is in one zone and the ledger balances after each decision.
    pub check_invariants: bool,
    /// Keep the list of choices (for replays).
    pub keep_moves: bool,
}

/// A broken invariant, with the decision count where it broke.
#[derive(Clone, Debug)]
pub struct InvariantError {
    /// What broke.
    pub message: String,
    /// After how many decisions.
    pub decision: u64,
}

/// Why a game did not finish.
#[derive(Clone, Debug)]
pub enum GameError {
    /// The rules failed at run time.
    Runtime(RuntimeError),
    /// An invariant broke.
    Invariant(InvariantError),
}

impl From<RuntimeError> for GameError {
    fn from(e: RuntimeError) -> Self {
        GameError::Runtime(e)
    }
}

/// The agents' seeds for a game seed: distinct per seat, independent of the deal.
pub fn agent_seed(game_seed: u64, seat: usize) -> u64 {
    crate::model::splitmix64(game_seed ^ (0xA5A5_0000_0000_0000u64.wrapping_add(seat as u64)))
}

/// Plays one game to the end with one agent per seat (agents are reused cyclically if
/// fewer are given).
pub fn play_game(
    p: &Program,
    params: &[Option<Value>],
    seed: u64,
    agents: &mut [Box<dyn Agent>],
    opts: &PlayOptions,
) -> Result<GameRecord, GameError> {
    let mut st = State::new(p, params, seed)?;
    let ledger0 = st.ledger_sum(p);
    let mut rec = GameRecord {
        seed,
        seats: st.board.seats,
        ..GameRecord::default()
    };
    let mut choices = Vec::new();
    loop {
        if st.advance(p)? {
            break;
        }
        let pending = st.pending().expect("a decision waits");
        choices.clear();
        for sm in &pending.seats {
            let agent = &mut agents[sm.seat as usize % agents.len().max(1)];
            let c = agent.choose(p, &st, sm.seat, &sm.moves);
            choices.push(c.min(sm.moves.len() - 1));
        }
        if opts.keep_moves {
            rec.moves.push(choices.clone());
        }
        st.apply(p, &choices)?;
        if opts.check_invariants {
            check(p, &st, ledger0)?;
        }
    }
    if opts.check_invariants {
        check(p, &st, ledger0)?;
    }
    rec.decisions = st.decisions;
    for e in st.events.drain(..) {
        match e {
            Event::Outcome(o, d) => {
                rec.outcomes.push(o);
                rec.dealers.push(d);
            }
            Event::Record(s, r, d) => rec.records.push((s, r, d)),
            Event::Tally(l, v) => rec.tallies.push((l, v)),
            Event::Say(_) => {}
        }
    }
    rec.chips = chips_of(p, &st);
    Ok(rec)
}

fn check(p: &Program, st: &State, ledger0: i64) -> Result<(), GameError> {
    if let Err(m) = st.check_cards() {
        return Err(GameError::Invariant(InvariantError {
            message: m,
            decision: st.decisions,
        }));
    }
    let now = st.ledger_sum(p);
    if now != ledger0 {
        return Err(GameError::Invariant(InvariantError {
            message: format!(
                "the ledger ({}) sums to {now}, not {ledger0}",
                p.ledger
                    .iter()
                    .map(|v| p.vars[*v as usize].name.as_str())
                    .collect::<Vec<_>>()
                    .join(" + ")
            ),
            decision: st.decisions,
        }));
    }
    Ok(())
}

/// Per-seat values of the first per-seat ledger variable (the players' chips).
pub fn chips_of(p: &Program, st: &State) -> Vec<i64> {
    match p.ledger.iter().find(|v| p.vars[**v as usize].per_seat) {
        Some(v) => st
            .seat_ints(p, &p.vars[*v as usize].name)
            .unwrap_or_default(),
        None => vec![0; st.board.seats as usize],
    }
}

/// The seed of game `index` of a run with master seed `master`.
pub fn game_seed(master: u64, index: u64) -> u64 {
    GameRng::game_seed(master, index)
}
