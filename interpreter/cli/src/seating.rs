//! Who sits where in game *i* of a batch: the table of agents (`--agents`, reused in
//! turn over the seats), kept at its seats or moved one seat on per game (`--seating`).

use serde::{Deserialize, Serialize};

/// How the agents are seated over a batch of games.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Game i moves each agent i seats on: each sits at each seat equally often
    /// (exactly so when the games are a multiple of the seats), so that a seat's
    /// advantage (the first dealer's, the first player's) does not pass for an agent's.
    Rotate,
    /// Each agent keeps the seat `--agents` gives it in every game; its numbers include
    /// that seat's advantage.
    Fixed,
}

/// The agents of a batch and the seat each one takes in each game.
#[derive(Clone, Debug)]
pub struct Seating {
    /// The agent of each seat in game 0: `--agents` reused in turn over the seats.
    table: Vec<String>,
    /// The distinct agent names, in the order they first appear in the table.
    names: Vec<String>,
    /// For each entry of the table, its name's index in `names`.
    name_of: Vec<usize>,
    mode: Mode,
}

impl Seating {
    /// The seating of `agents` (at least one name) over `seats` seats.
    pub fn new(agents: &[String], seats: u8, mode: Mode) -> Seating {
        let table: Vec<String> = (0..seats as usize)
            .map(|s| agents[s % agents.len()].clone())
            .collect();
        let mut names: Vec<String> = Vec::new();
        let name_of = table
            .iter()
            .map(|a| match names.iter().position(|n| n == a) {
                Some(i) => i,
                None => {
                    names.push(a.clone());
                    names.len() - 1
                }
            })
            .collect();
        Seating {
            table,
            names,
            name_of,
            mode,
        }
    }

    /// The agent of each seat in game 0 (in every game when the seating is fixed).
    pub fn table(&self) -> &[String] {
        &self.table
    }

    /// The distinct agent names, in the order they first sit in game 0.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Whether more than one agent name is in play: only then does the seating change
    /// anything, and only then are there per-agent numbers to report.
    pub fn mixed(&self) -> bool {
        self.names.len() > 1
    }

    /// How the agents are seated: `None` when every seat has the same agent, where
    /// rotating and keeping are the same games.
    pub fn mode(&self) -> Option<Mode> {
        self.mixed().then_some(self.mode)
    }

    /// The table entry at `seat` in game `game`. Rotating, entry *k* sits at seat
    /// (*k* + *i*) mod seats in game *i*: over any `seats` games in a row, each entry
    /// sits at each seat once.
    fn entry(&self, game: u64, seat: usize) -> usize {
        let n = self.table.len().max(1);
        match self.mode {
            Mode::Fixed => seat % n,
            Mode::Rotate => (seat + n - (game % n as u64) as usize) % n,
        }
    }

    /// The agent at `seat` in game `game`.
    pub fn agent(&self, game: u64, seat: usize) -> &str {
        &self.table[self.entry(game, seat)]
    }

    /// For each seat of game `game`, the index in [`Seating::names`] of its agent.
    pub fn seated(&self, game: u64) -> Vec<usize> {
        (0..self.table.len())
            .map(|s| self.name_of[self.entry(game, s)])
            .collect()
    }

    /// How many seats the agent `names()[name]` holds in every game: its count in the
    /// table, which rotation moves but does not change.
    pub fn seats_held(&self, name: usize) -> usize {
        self.name_of.iter().filter(|n| **n == name).count()
    }

    /// The agent that plays `seat` in every game, if one does: always with one agent
    /// name or a fixed seating, never when different agents rotate over it.
    pub fn fixed_agent(&self, seat: usize) -> Option<&str> {
        match self.mode() {
            Some(Mode::Rotate) => None,
            _ => self.table.get(seat).map(String::as_str),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &str) -> Vec<String> {
        list.split(',').map(String::from).collect()
    }

    #[test]
    fn rotation_seats_each_entry_at_each_seat_once_per_round_of_games() {
        // A short list is reused in turn first (g, r, g), then the table rotates: the
        // composition of every game stays two greedy and one random.
        let s = Seating::new(&names("greedy,random"), 3, Mode::Rotate);
        assert_eq!(s.table(), ["greedy", "random", "greedy"]);
        let games: Vec<Vec<&str>> = (0..3)
            .map(|g| (0..3).map(|seat| s.agent(g, seat)).collect())
            .collect();
        assert_eq!(
            games,
            [
                ["greedy", "random", "greedy"],
                ["greedy", "greedy", "random"],
                ["random", "greedy", "greedy"],
            ]
        );
        assert_eq!(s.agent(3, 1), s.agent(0, 1), "period of the seat count");
        assert_eq!(s.seated(1), [0, 0, 1]);
        assert_eq!((s.seats_held(0), s.seats_held(1)), (2, 1));
        assert_eq!(s.fixed_agent(0), None);
        assert_eq!(s.mode(), Some(Mode::Rotate));
    }

    #[test]
    fn fixed_and_single_agent_seatings_do_not_move() {
        let fixed = Seating::new(&names("greedy,random"), 4, Mode::Fixed);
        for g in 0..5 {
            assert_eq!(fixed.seated(g), [0, 1, 0, 1]);
        }
        assert_eq!(fixed.fixed_agent(1), Some("random"));
        // One name: rotating moves nobody, so it is the same as fixed (no mode shown).
        let one = Seating::new(&names("eager"), 3, Mode::Rotate);
        assert!(!one.mixed());
        assert_eq!(one.mode(), None);
        assert_eq!(one.fixed_agent(2), Some("eager"));
        assert_eq!(one.seated(7), [0, 0, 0]);
    }
}
