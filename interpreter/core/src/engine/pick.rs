//! Players the engine asks from inside its loop: a `choose` whose moves can be counted
//! without listing them (options without an argument, or over a zone's cards) is
//! settled by drawing a move's index, so a simulation with random or eager players
//! builds no move list and takes no round trip through `apply` for it. A caller that
//! shows the game (`fuda play`) lends a picker that never picks but watches the ops run.

/// Picks moves for the engine while it runs ([`State::advance_with`]).
///
/// The index a picker returns is the one the same player would have chosen from the
/// decision's full move list (options in order, a zone's cards in card order), so a game
/// played with a picker is the same game as with the player outside the engine.
///
/// [`State::advance_with`]: super::State::advance_with
pub trait Picker {
    /// Whether this picker picks at all; [`Waits`] does not, and the engine then leaves
    /// every decision waiting as [`State::advance`](super::State::advance) does.
    const PICKS: bool;
    /// Whether a `choose` with a single legal move waits like any other decision
    /// instead of being taken at once: a caller that shows the game to a person
    /// (`fuda play`) sees every move. A constant, so the engine's other players pay nothing.
    const SHOWS_FORCED: bool = false;
    /// The index of the move `seat` takes among `n` (at least 2); `ending` is the index
    /// of the first move that may end the round (a declared win), if any.
    fn pick(&mut self, seat: u8, n: usize, ending: Option<usize>) -> usize;
    /// Asked once a picked move has started: whether the engine goes on to the next
    /// decision without returning to its caller (which then never sees this one).
    fn goes_on(&mut self, st: &super::State) -> bool;
    /// Whether [`Picker::before_op`] is called. A constant, so that the engine's other
    /// players pay nothing for it.
    const WATCHES_OPS: bool = false;
    /// Called before each op runs: `op`, at `pc` in the code of the frame at `depth`
    /// (the frame's own `pc` may lag behind): a caller that shows the game can see what the
    /// board was as a move's body ended, which is what a person saw of that move,
    /// before later rules reveal or hide its card.
    fn before_op(
        &mut self,
        _p: &crate::ir::Program,
        _st: &super::State,
        _depth: usize,
        _pc: usize,
        _op: &crate::ir::Op,
    ) {
    }
}

/// The picker that never picks: every decision waits for the caller.
pub struct Waits;

impl Picker for Waits {
    const PICKS: bool = false;

    fn pick(&mut self, _seat: u8, _n: usize, _ending: Option<usize>) -> usize {
        0
    }

    fn goes_on(&mut self, _st: &super::State) -> bool {
        false
    }
}
