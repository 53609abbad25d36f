//! Computer players: `random`; `eager`, random but always declaring a win it is
//! offered; and `greedy`, which declares every win it can and otherwise plays towards
//! the ruleset's patterns. All see only what their seat may see.

mod eager;
mod greedy;
mod planner;
mod random;

pub use eager::Eager;
pub use greedy::{DecisionWork, Greedy};
pub use planner::Planner;
pub use random::Random;

use crate::engine::{Move, Picker, State};
use crate::ir::Program;
use crate::model::GameRng;

/// A player that picks one of the legal moves.
pub trait Agent: Send {
    /// The agent's name.
    fn name(&self) -> &'static str;
    /// Picks the index of a move in `moves` for `seat`.
    fn choose(&mut self, p: &Program, st: &State, seat: u8, moves: &[Move]) -> usize;
    /// Makes this player the one [`by_name`] gives for `seed`, for another game of the
    /// same program, and says whether it could (by default it cannot: the caller makes
    /// a new one). A renewed player plays exactly as a new one would, but keeps what it
    /// has worked out that holds for any game (the greedy player's pattern distances),
    /// so a batch that reuses its players plays faster and the very same games.
    fn new_game(&mut self, seed: u64) -> bool {
        let _ = seed;
        false
    }
    /// This player as one the engine can ask from inside its loop, when its choice
    /// depends on nothing but the number of moves and which may end the round (see
    /// [`Picker`]): then it chooses exactly as [`Agent::choose`] would.
    fn autoplay(&mut self) -> Option<AutoPlayer<'_>> {
        None
    }
}

/// A random or eager player lent to the engine: its way of choosing and its generator.
pub struct AutoPlayer<'a> {
    /// Takes a move that may end the round when there is one (`eager`).
    eager: bool,
    /// The player's own generator.
    rng: &'a mut GameRng,
}

impl<'a> AutoPlayer<'a> {
    /// A player that takes a move ending the round when `eager`, else draws from `rng`.
    pub fn new(eager: bool, rng: &'a mut GameRng) -> AutoPlayer<'a> {
        AutoPlayer { eager, rng }
    }

    /// The move taken among `n` moves, the first that may end the round being `ending`.
    #[inline]
    pub fn pick(&mut self, n: usize, ending: Option<usize>) -> usize {
        self.pick_with(n, ending)
    }

    /// [`AutoPlayer::pick`] with the first ending move worked out only when the
    /// player is eager (a random player never reads it).
    #[inline(always)]
    pub fn pick_with(&mut self, n: usize, ending: impl Ending) -> usize {
        match self.eager {
            true => match ending.first() {
                Some(i) => i,
                None => self.rng.below(n.max(1) as u32) as usize,
            },
            false => self.rng.below(n.max(1) as u32) as usize,
        }
    }

    /// The move taken among a waiting decision's `moves`.
    pub fn choose(&mut self, p: &Program, st: &State, moves: &[Move]) -> usize {
        // A move ends the round when the compiler found `outcome`/`record` in its body;
        // most decisions offer no such option, and are settled without a look.
        let ending = match st.pending() {
            Some(pd) if self.eager && pd.ends != 0 => pd.first_ending(st.pending_code(p), moves),
            _ => None,
        };
        self.pick(moves.len(), ending)
    }
}

/// Which of a decision's moves is the first that may end the round, if one may: known
/// already, or worked out from the decision's shape only when an eager player asks
/// (a method, not a closure, so that it is always compiled in place).
pub trait Ending {
    /// The first move that may end the round.
    fn first(self) -> Option<usize>;
}

impl Ending for Option<usize> {
    #[inline(always)]
    fn first(self) -> Option<usize> {
        self
    }
}

/// The players of a game, every one lent to the engine (see [`Agent::autoplay`]), as
/// a [`Picker`]: seat `s` is played by player `s % len`, as `play_game` deals agents.
pub struct AutoPlayers<'a> {
    /// The players.
    pub players: Vec<AutoPlayer<'a>>,
    /// The index of the move last picked inside the engine, until taken.
    pub last: Option<usize>,
    /// Whether the engine may go on past a picked move instead of returning to its
    /// caller: then it returns only when something happened (an event) since it last
    /// returned. Off, every picked move returns (for callers that check or record each
    /// decision).
    pub through: bool,
    /// How many events the game had when the engine last returned from a pick.
    events: usize,
}

impl<'a> AutoPlayers<'a> {
    /// The players of `agents`, if every one can be lent to the engine.
    pub fn of(agents: &'a mut [Box<dyn Agent>]) -> Option<AutoPlayers<'a>> {
        let players = agents
            .iter_mut()
            .map(|a| a.autoplay())
            .collect::<Option<Vec<_>>>()?;
        (!players.is_empty()).then_some(AutoPlayers {
            players,
            last: None,
            through: false,
            events: 0,
        })
    }

    /// Each player's generator as it is now, to go back to with
    /// [`AutoPlayers::restore`] (a game the register machine stops is played again).
    pub(crate) fn generators(&self) -> Vec<GameRng> {
        self.players.iter().map(|p| p.rng.clone()).collect()
    }

    /// Puts back the generators [`AutoPlayers::generators`] kept.
    pub(crate) fn restore(&mut self, kept: Vec<GameRng>) {
        for (p, g) in self.players.iter_mut().zip(kept) {
            *p.rng = g;
        }
    }

    /// The player of `seat`.
    #[inline(always)]
    pub fn seat(&mut self, seat: u8) -> &mut AutoPlayer<'a> {
        // Usually one player per seat: a division (tens of cycles) only when fewer.
        let (i, n) = (seat as usize, self.players.len());
        &mut self.players[if i < n { i } else { i % n }]
    }
}

impl Picker for AutoPlayers<'_> {
    const PICKS: bool = true;

    #[inline]
    fn pick(&mut self, seat: u8, n: usize, ending: Option<usize>) -> usize {
        let k = self.seat(seat).pick(n, ending);
        self.last = Some(k);
        k
    }

    fn goes_on(&mut self, st: &State) -> bool {
        if self.through && st.events.len() == self.events {
            return true;
        }
        self.events = st.events.len();
        false
    }
}

/// Agent names the CLI accepts.
pub const AGENT_NAMES: &[&str] = &["random", "eager", "greedy", "planner"];

/// An agent by name, seeded.
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn Agent>> {
    match name {
        "random" => Some(Box::new(Random::new(seed))),
        "eager" => Some(Box::new(Eager::new(seed))),
        "greedy" => Some(Box::new(Greedy::new(seed))),
        "planner" => Some(Box::new(Planner::new(seed))),
        _ => None,
    }
}
