//! A game's limits and decision boundaries in the machine: the decisions and the work a
//! round may take, counted so that the machine stops no later than the engine would,
//! and the moments (a move a player chose) where chips are read and, when asked, the
//! invariants checked, as the engine does at the same moments.

use crate::engine::{GAME_BUDGET, ROUND_BUDGET};

use super::machine::{Machine, Stop};

/// Work charged per instruction run. The engine charges one step per op and one per
/// expression node it evaluates in full; an instruction stands for at most a few ops
/// and nodes, so charging this many keeps the machine's count of a round's work above
/// the engine's, and the machine stops first.
const WORK_PER_INSTRUCTION: u64 = 16;

/// The limits a game is played under: the engine's defaults, or smaller ones (a test's,
/// a fuzzer's), the same for the machine and the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameLimits {
    /// Most decisions the game may take.
    pub decisions: u64,
    /// Most steps of work the whole game may do (the engine's `GAME_BUDGET` by default).
    pub work: u64,
}

impl Default for GameLimits {
    fn default() -> GameLimits {
        GameLimits {
            decisions: crate::engine::DEFAULT_DECISION_LIMIT,
            work: GAME_BUDGET,
        }
    }
}

impl GameLimits {
    /// The work the first round may do, and what the game keeps for the rounds after
    /// it, as the engine allots them.
    pub fn first_round(self) -> (u64, u64) {
        let round = ROUND_BUDGET.min(self.work);
        (round, self.work - round)
    }
}

impl Machine<'_> {
    /// The round's work so far, against its budget: the evaluator's steps and
    /// [`WORK_PER_INSTRUCTION`] for each instruction. (The engine charges the ops run
    /// before an outcome since its last decision to the new round; so does this, as
    /// `steps` runs on past an outcome.)
    pub(super) fn work(&self) -> u64 {
        let run = self.round_steps.saturating_add(self.steps);
        self.evals
            .saturating_add(run.saturating_mul(WORK_PER_INSTRUCTION))
    }

    /// Sets the evaluator's steps in the round, and with them how many instructions
    /// the round may run ([`Machine::run_stop`]).
    pub(super) fn set_evals(&mut self, evals: u64) {
        self.evals = evals;
        self.run_stop = run_stop(self.round_budget, evals);
    }

    /// A decision a player chooses (among several moves): the count of instructions
    /// without one starts again, and the decision is counted ([`Machine::count_decision`]).
    /// Counted before the player is asked rather than after: a game that stops here is
    /// played again by the engine, with the players' generators as they were, so
    /// nothing the player would have drawn is lost.
    #[inline(always)]
    pub(super) fn chosen(&mut self) -> Result<(), Stop> {
        // Plain sums: a round stops before its instructions reach `run_stop` (below
        // 2^23), and `steps` never passes `STEP_LIMIT` by more than an instruction's.
        self.round_steps += self.steps;
        self.steps = 0;
        self.count_decision()
    }

    /// Keeps an event; a game past [`crate::engine::MAX_EVENTS`] stops (the engine then
    /// says so).
    pub(super) fn push_event(&mut self, e: crate::engine::Event) -> Result<(), Stop> {
        if self.events.len() >= crate::engine::MAX_EVENTS {
            return Err(Stop::Limit);
        }
        self.events.push(e);
        Ok(())
    }

    /// A round begins (an outcome): its count of decisions starts again, and its work,
    /// from what the game has left, as the engine allots it. The machine's count of the
    /// last round's work is at least the engine's, so what it leaves the game is at
    /// most the engine's, and the machine stops first.
    pub(super) fn new_round(&mut self) {
        // What the round's decisions earned the game, as the engine counts it.
        let earned = (self.decisions - self.round_first_decision)
            .saturating_mul(crate::engine::WORK_PER_DECISION);
        self.round_first_decision = self.decisions;
        let round = self
            .decisions
            .saturating_add(crate::engine::ROUND_DECISION_LIMIT);
        self.decision_stop = self.decision_limit.min(round);
        let pool = self
            .game_left
            .saturating_add(self.round_budget.saturating_sub(self.work()))
            .saturating_add(earned);
        self.round_budget = ROUND_BUDGET.min(pool);
        self.game_left = pool - self.round_budget;
        self.round_steps = 0;
        self.set_evals(0);
    }

    /// Counts a decision taken; a game past its limits stops.
    #[inline(always)]
    pub(super) fn count_decision(&mut self) -> Result<(), Stop> {
        self.decisions += 1;
        // `work() >= ROUND_BUDGET`, with the budget's division done when `evals` was set.
        let run = self.round_steps + self.steps;
        if self.decisions > self.decision_stop || run >= self.run_stop {
            return Err(Stop::Limit);
        }
        Ok(())
    }

    /// A decision boundary (a move a player chose among several): chips are read for
    /// deals that ended since the last one.
    /// With invariants checked, the board is checked where something was recorded, as
    /// the engine checks it (see `play::check`); a broken one stops the game, and the
    /// engine then plays it again to report it.
    #[inline(always)]
    pub(super) fn boundary(&mut self) -> Result<(), Stop> {
        // Mostly nothing was recorded since the last one.
        if self.events.len() == self.seen_events {
            return Ok(());
        }
        self.boundary_work()
    }

    /// [`Machine::boundary`] when something was recorded since the last one (a deal's
    /// end, mostly).
    #[cold]
    #[inline(never)]
    fn boundary_work(&mut self) -> Result<(), Stop> {
        self.seen_events = self.events.len();
        self.deal_chips
            .boundary(&self.board, &self.events, &mut self.deal_rows);
        self.audit()
    }

    /// The invariants, when they are checked: the ledger's sum as at the start, every
    /// card in exactly one zone.
    pub(super) fn audit(&self) -> Result<(), Stop> {
        if let Some(ledger) = self.ledger {
            if self.board.ledger_sum() != ledger || self.board.check_cards().is_err() {
                return Err(Stop::Failed);
            }
        }
        Ok(())
    }
}

/// The least count of a round's instructions whose work, with `evals` steps of the
/// evaluator, reaches `budget` (see [`Machine::work`]): 0 when `evals` alone does.
pub(super) fn run_stop(budget: u64, evals: u64) -> u64 {
    budget.saturating_sub(evals).div_ceil(WORK_PER_INSTRUCTION)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The work a round's instructions and evaluator steps come to, as `work` counts.
    fn work(evals: u64, run: u64) -> u64 {
        evals.saturating_add(run.saturating_mul(WORK_PER_INSTRUCTION))
    }

    #[test]
    fn the_run_stop_is_where_the_work_reaches_the_budget() {
        let b = ROUND_BUDGET;
        for evals in [
            0,
            1,
            15,
            16,
            17,
            b / 2,
            b - 17,
            b - 16,
            b - 1,
            b,
            b + 1,
            u64::MAX,
        ] {
            let stop = run_stop(b, evals);
            for run in [
                0,
                1,
                stop.saturating_sub(1),
                stop,
                stop + 1,
                u64::MAX / 2,
                u64::MAX,
            ] {
                assert_eq!(
                    run >= stop,
                    work(evals, run) >= b,
                    "evals {evals}, run {run}, stop {stop}"
                );
            }
        }
    }
}
