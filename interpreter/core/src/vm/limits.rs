//! A game's limits and decision boundaries in the machine: the decisions and the work a
//! round may take, counted so that the machine stops no later than the engine would,
//! and the moments (a move a player chose) where chips are read and, when asked, the
//! invariants checked, as the engine does at the same moments.

use crate::engine::ROUND_BUDGET;

use super::machine::{Machine, Stop};

/// Work charged per instruction run. The engine charges one step per op and one per
/// expression node it evaluates in full; an instruction stands for at most a few ops
/// and nodes, so charging this many keeps the machine's count of a round's work above
/// the engine's, and the machine stops first.
const WORK_PER_INSTRUCTION: u64 = 16;

impl Machine<'_> {
    /// The round's work so far, against [`ROUND_BUDGET`]: the evaluator's steps and
    /// [`WORK_PER_INSTRUCTION`] for each instruction. (The engine charges the ops run
    /// before an outcome since its last decision to the new round; so does this, as
    /// `steps` runs on past an outcome.)
    pub(super) fn work(&self) -> u64 {
        let run = self.round_steps.saturating_add(self.steps);
        self.evals
            .saturating_add(run.saturating_mul(WORK_PER_INSTRUCTION))
    }

    /// A decision a player chose: the count of instructions without one starts again.
    pub(super) fn chosen(&mut self) {
        self.round_steps = self.round_steps.saturating_add(self.steps);
        self.steps = 0;
    }

    /// A round begins: its count of decisions starts again.
    pub(super) fn new_round(&mut self) {
        let round = self
            .decisions
            .saturating_add(crate::engine::ROUND_DECISION_LIMIT);
        self.decision_stop = self.decision_limit.min(round);
    }

    /// Counts a decision taken; a game past its limits stops.
    #[inline(always)]
    pub(super) fn count_decision(&mut self) -> Result<(), Stop> {
        self.decisions += 1;
        if self.decisions > self.decision_stop || self.work() >= ROUND_BUDGET {
            return Err(Stop::Limit);
        }
        Ok(())
    }

    /// A decision boundary (a move a player chose among several): chips are read for
    /// deals that ended since the last one.
    /// With invariants checked, the board is checked here as the engine checks it at
    /// the same moments (a broken one stops the game: the engine then reports it).
    #[inline(always)]
    pub(super) fn boundary(&mut self) -> Result<(), Stop> {
        // Mostly nothing happened since the last one and nothing is checked.
        if self.events.len() == self.seen_events && self.ledger.is_none() {
            return Ok(());
        }
        self.boundary_work()
    }

    /// [`Machine::boundary`] when a deal ended since the last one or invariants are
    /// checked.
    #[cold]
    #[inline(never)]
    fn boundary_work(&mut self) -> Result<(), Stop> {
        // Only a deal's end (an outcome: an event) is read at a boundary.
        if self.events.len() != self.seen_events {
            self.seen_events = self.events.len();
            self.deal_chips
                .boundary(&self.board, &self.events, &mut self.deal_rows);
        }
        if let Some(ledger) = self.ledger {
            if self.board.check_cards().is_err() || self.board.ledger_sum(self.p) != ledger {
                return Err(Stop::Failed);
            }
        }
        Ok(())
    }
}
