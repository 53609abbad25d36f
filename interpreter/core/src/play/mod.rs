//! Playing whole games with agents, recording what the statistics need, and checking
//! the invariants after every decision when asked.

mod settle;

pub use settle::{settle, signature, Described, SettleError, Settlement, VarValue, ZoneCards};

use std::sync::Arc;

use crate::agents::{Agent, AutoPlayers};
use crate::engine::{Board, Event, Move, RuntimeError, State};
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
    /// Parallel to `records`: how many outcomes came before each (its deal's index, or
    /// the number of deals for one recorded after the last outcome).
    pub record_deals: Vec<usize>,
    /// Tallied values: label and value.
    pub tallies: Vec<(Arc<str>, String)>,
    /// Values tallied for a seat (`tally … for SEAT`): label, value and seat.
    pub seat_tallies: Vec<(Arc<str>, String, u8)>,
    /// The dealer of each round, parallel to `outcomes`.
    pub dealers: Vec<u8>,
    /// Final values of the first per-seat int ledger variable (e.g. chips), per seat.
    pub chips: Vec<i64>,
    /// Each deal's dealer and each seat's change of `chips` in that deal, parallel to
    /// `outcomes`, so the statistics can say what a role (親, 胴二…) wins per deal.
    ///
    /// Chips can only be read between decisions, so a deal's change is the change
    /// from the decision boundary at which the previous deal's outcome had appeared
    /// (or the start) to the one at which its own has: payments made after a deal's
    /// outcome and before the next decision count for that deal, and so do payments
    /// made after the last outcome (a match-end pot split). When several deals end
    /// without a decision between them, the whole change goes to the last of them and
    /// the others get zeros. The changes therefore sum to the final chips minus the
    /// starting chips whenever at least one deal ended.
    pub deal_chips: Vec<(u8, Vec<i64>)>,
    /// Decisions taken.
    pub decisions: u64,
    /// The choices made, for a replay: per decision, one index per asked seat.
    pub moves: Vec<Vec<usize>>,
}

impl GameRecord {
    /// Keeps what a game's events say: its outcomes (with their dealers), recorded
    /// results and tallies.
    pub(crate) fn take_events(&mut self, events: impl ExactSizeIterator<Item = Event>) {
        // Each event lands in one list: room for all of them in the two a deal always
        // has, instead of growing them one push at a time.
        self.outcomes.reserve(events.len());
        self.dealers.reserve(events.len());
        for e in events {
            match e {
                Event::Outcome(o, d) => {
                    self.outcomes.push(o);
                    self.dealers.push(d);
                }
                Event::Record(s, r, d) => {
                    self.records.push((s, r, d));
                    self.record_deals.push(self.outcomes.len());
                }
                Event::Tally(l, v, None) => self.tallies.push((l, v)),
                Event::Tally(l, v, Some(s)) => self.seat_tallies.push((l, v, s)),
                Event::Say(_) => {}
            }
        }
    }
}

impl GameRecord {
    /// In a game without a ledger, what the rules recorded is the measure: each seat's
    /// "chips" become the totals recorded for it (a game's points, a solo performance's
    /// task scores), and each deal's change the totals recorded in that deal, so that
    /// the statistics and the greedy player's playouts read the same number.
    fn points_without_ledger(&mut self, p: &Program) {
        if !p.ledger.is_empty() {
            return;
        }
        let seats = self.seats as usize;
        self.chips = vec![0; seats];
        for (s, r, _) in &self.records {
            if let Some(c) = self.chips.get_mut(*s as usize) {
                *c = c.saturating_add(r.total);
            }
        }
        // A record belongs to the deal whose outcome follows it; one after the last
        // outcome (a match-end bonus), to the last deal.
        let deals = self.outcomes.len();
        let mut per_deal = vec![vec![0i64; seats]; deals];
        for ((s, r, _), d) in self.records.iter().zip(&self.record_deals) {
            let d = (*d).min(deals.saturating_sub(1));
            if let Some(c) = per_deal.get_mut(d).and_then(|v| v.get_mut(*s as usize)) {
                *c = c.saturating_add(r.total);
            }
        }
        self.deal_chips = self.dealers.iter().copied().zip(per_deal).collect();
    }
}

/// Options for playing a game.
#[derive(Clone, Debug, Default)]
pub struct PlayOptions {
    /// Check every card is in one zone and the ledger balances after each decision.
    pub check_invariants: bool,
    /// Keep the list of choices (for replays).
    pub keep_moves: bool,
    /// Most decisions the game may take before it stops as runaway (default: the
    /// engine's `DEFAULT_DECISION_LIMIT`); a small one keeps a test or a fuzzer short.
    pub decision_limit: Option<u64>,
    /// Most steps of work the whole game may do (default: the engine's `GAME_BUDGET`);
    /// a small one keeps a test or a fuzzer of a heavy rule file short.
    pub work_limit: Option<u64>,
    /// Play in the engine even when the register machine could (`crate::vm`): to
    /// compare the two, which must give the same games.
    pub engine_only: bool,
}

impl PlayOptions {
    /// The limits a game is played under, the defaults where none is given.
    pub fn limits(&self) -> crate::vm::GameLimits {
        let default = crate::vm::GameLimits::default();
        crate::vm::GameLimits {
            decisions: self.decision_limit.unwrap_or(default.decisions),
            work: self.work_limit.unwrap_or(default.work),
        }
    }
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
    Table::new(p, params).play(seed, agents, opts)
}

/// One program with one set of parameters, for game after game (a batch of
/// simulated games, a benchmark): the board every game starts from is built once, and
/// the last game's board is written over for the next one instead of a new one being
/// built and dropped. A game played here is the game `play_game` plays.
pub struct Table<'p> {
    /// The program.
    p: &'p Program,
    /// The parameters' values as given.
    params: Vec<Option<Value>>,
    /// The board before any game (its generator unseeded), once built.
    blank: Option<Board>,
    /// A finished game's board, to be reset for the next.
    spare: Option<Board>,
    /// Whether a game has been started here.
    played: bool,
}

impl<'p> Table<'p> {
    /// A table for games of `p` with `params`.
    pub fn new(p: &'p Program, params: &[Option<Value>]) -> Table<'p> {
        Table {
            p,
            params: params.to_vec(),
            blank: None,
            spare: None,
            played: false,
        }
    }

    /// Plays game `seed` to the end with one agent per seat, as [`play_game`].
    pub fn play(
        &mut self,
        seed: u64,
        agents: &mut [Box<dyn Agent>],
        opts: &PlayOptions,
    ) -> Result<GameRecord, GameError> {
        let p = self.p;
        // The register machine plays the same game in fewer steps; a game it stops
        // (anything unusual) is played again by the engine, from the same start.
        if !(opts.keep_moves || opts.engine_only) {
            if let Some(rec) = self.by_machine(seed, agents, opts)? {
                return Ok(rec);
            }
        }
        let mut st = State::new(p, &self.params, seed)?;
        let limits = opts.limits();
        st.decision_limit = limits.decisions;
        (st.steps_left, st.game_steps_left) = limits.first_round();
        let ledger0 = st.ledger_sum();
        let mut rec = GameRecord {
            seed,
            seats: st.board.seats,
            ..GameRecord::default()
        };
        let mut deals = DealChips::new(p, &st.board, &st.events);
        // Random and eager players are asked from inside the engine, which then lists no
        // moves for most decisions; the same moves are taken either way.
        match AutoPlayers::of(agents) {
            Some(mut lent) => {
                // A move nobody records or checks, after which nothing happened, needs no
                // return: the chips are read at a boundary only when a deal has ended.
                lent.through = !(opts.keep_moves || opts.check_invariants);
                play_to_end(p, &mut st, &mut lent, opts, ledger0, &mut deals, &mut rec)?
            }
            None => play_to_end(
                p,
                &mut st,
                &mut Agents(agents),
                opts,
                ledger0,
                &mut deals,
                &mut rec,
            )?,
        }
        deals.finish(&st.board, &mut rec.deal_chips);
        rec.decisions = st.decisions;
        rec.take_events(st.events.drain(..));
        rec.chips = chips_of(p, &st);
        rec.points_without_ledger(p);
        Ok(rec)
    }

    /// The board game `seed` starts from: the engine's own start (`State::new` begins
    /// with the same board), whose generator is the only part a seed changes. The
    /// first game's is built for it alone (a table often plays one game); from the
    /// second on, the blank board is kept and the last game's board reset to it.
    fn start(&mut self, seed: u64) -> Result<Board, RuntimeError> {
        if !self.played {
            self.played = true;
            return Ok(State::blank(self.p, &self.params, seed)?.board);
        }
        let blank = match &self.blank {
            Some(b) => b,
            None => self
                .blank
                .insert(State::blank(self.p, &self.params, 0)?.board),
        };
        let mut board = match self.spare.take() {
            Some(mut b) => {
                b.clone_from(blank);
                b
            }
            None => blank.clone(),
        };
        board.rng = GameRng::new(seed);
        Ok(board)
    }

    /// The game played by the register machine (`crate::vm`): `None` when it cannot
    /// play it (the program is not lowered or the players cannot be lent) or it stopped
    /// the game, the players' generators then put back as they were.
    fn by_machine(
        &mut self,
        seed: u64,
        agents: &mut [Box<dyn Agent>],
        opts: &PlayOptions,
    ) -> Result<Option<GameRecord>, GameError> {
        let p = self.p;
        let Some(mut lent) = AutoPlayers::of(agents) else {
            return Ok(None);
        };
        let start = self.start(seed)?;
        let Ok(image) = p.vm.image(p, start.seats) else {
            return Ok(None);
        };
        let kept = lent.generators();
        match crate::vm::play(
            p,
            &image,
            start,
            &mut lent,
            opts.limits(),
            opts.check_invariants,
        ) {
            Ok((mut rec, board)) => {
                rec.seed = seed;
                rec.chips = chips_on(p, &board);
                rec.points_without_ledger(p);
                self.spare = Some(board);
                Ok(Some(rec))
            }
            Err(_) => {
                lent.restore(kept);
                Ok(None)
            }
        }
    }
}

/// Who chooses the moves of a game: agents outside the engine, or players lent to it.
trait Players {
    /// Runs the game to its next decision boundary (see [`State::advance_with`]).
    fn advance(&mut self, p: &Program, st: &mut State) -> Result<bool, RuntimeError>;
    /// The move `seat` takes among a waiting decision's `moves`.
    fn choose(&mut self, p: &Program, st: &State, seat: u8, moves: &[Move]) -> usize;
    /// The move the engine took for a player at the last boundary, if it took one.
    fn picked(&mut self) -> Option<usize>;
}

/// Agents asked at every decision, outside the engine.
struct Agents<'a>(&'a mut [Box<dyn Agent>]);

impl Players for Agents<'_> {
    fn advance(&mut self, p: &Program, st: &mut State) -> Result<bool, RuntimeError> {
        st.advance(p)
    }

    fn choose(&mut self, p: &Program, st: &State, seat: u8, moves: &[Move]) -> usize {
        let n = self.0.len().max(1);
        self.0[seat as usize % n].choose(p, st, seat, moves)
    }

    fn picked(&mut self) -> Option<usize> {
        None
    }
}

impl Players for AutoPlayers<'_> {
    fn advance(&mut self, p: &Program, st: &mut State) -> Result<bool, RuntimeError> {
        st.advance_with(p, self)
    }

    fn choose(&mut self, p: &Program, st: &State, seat: u8, moves: &[Move]) -> usize {
        self.seat(seat).choose(p, st, moves)
    }

    fn picked(&mut self) -> Option<usize> {
        self.last.take()
    }
}

/// Plays `st` to the end of the game, recording into `rec` and checking after every
/// decision as `opts` asks.
fn play_to_end(
    p: &Program,
    st: &mut State,
    players: &mut impl Players,
    opts: &PlayOptions,
    ledger0: i64,
    deals: &mut DealChips,
    rec: &mut GameRecord,
) -> Result<(), GameError> {
    let mut choices = Vec::new();
    // Events already seen by the audit (see [`check`]), and the decision after which
    // the ledger's sum last went off, while it is off.
    let mut checked_events = st.events.len();
    let mut off_since = None;
    loop {
        let finished = players.advance(p, st)?;
        // Every return of `advance` is a decision boundary (or the end): the only
        // moments the chips can be read. The invariants are checked here, once the
        // rules after the last decision have run: checked after taking a move, they
        // would see the board before its body ran and blame the next decision.
        deals.boundary(&st.board, &st.events, &mut rec.deal_chips);
        if opts.check_invariants {
            // A lent player's move is counted as it is picked, before its body runs:
            // the board is then as it was after one decision fewer.
            let picked = !finished && st.pending().is_none();
            let decision = st.decisions - u64::from(picked);
            // The sum is followed at every boundary so that a break is blamed on the
            // decision after which it happened; it is judged where the machine judges
            // it, so that both players of a game agree on whether it broke.
            let sum = st.ledger_sum();
            match sum == ledger0 {
                true => off_since = None,
                false => off_since = off_since.or(Some((decision, sum))),
            }
            if finished || st.events.len() != checked_events {
                checked_events = st.events.len();
                check(p, st, ledger0, decision, off_since)?;
            }
        }
        if finished {
            return Ok(());
        }
        choices.clear();
        match st.pending() {
            Some(pending) => {
                for sm in &pending.seats {
                    let c = players.choose(p, st, sm.seat, &sm.moves);
                    choices.push(c.min(sm.moves.len() - 1));
                }
            }
            // The engine took a lent player's move.
            None => choices.extend(players.picked()),
        }
        if opts.keep_moves {
            rec.moves.push(choices.clone());
        }
        if st.pending().is_some() {
            st.apply(p, &choices)?;
        }
    }
}

/// Attributes chip changes to deals while a game is played (see
/// [`GameRecord::deal_chips`]); the engine and the register machine (`vm/`) both keep
/// one, read at their decision boundaries.
pub(crate) struct DealChips {
    /// The chips variable's first slot on the board; `None` without a per-seat ledger
    /// variable (every change is then zero).
    slot: Option<usize>,
    /// Events already looked at: only new ones are scanned for outcomes.
    scanned: usize,
    /// The chips at the last deal boundary.
    at_boundary: Vec<i64>,
    /// The chips now, read into a list kept between deals (it and `at_boundary` swap
    /// at each deal's end, so a game reads its chips without allocating).
    now: Vec<i64>,
}

impl DealChips {
    pub(crate) fn new(p: &Program, board: &Board, events: &[Event]) -> DealChips {
        let slot = chips_var(p).map(|v| board.layout.var_base[v] as usize);
        let mut d = DealChips {
            slot,
            scanned: events.len(),
            at_boundary: Vec::new(),
            now: Vec::new(),
        };
        d.read(board);
        std::mem::swap(&mut d.at_boundary, &mut d.now);
        d
    }

    /// Reads each seat's chips into `now`.
    fn read(&mut self, board: &Board) {
        let seats = board.seats as usize;
        self.now.clear();
        match self.slot {
            Some(base) => self
                .now
                .extend((0..seats).map(|i| board.vars[base + i].int())),
            None => self.now.resize(seats, 0),
        }
    }

    /// Adds what changed since the last deal boundary to `into`, and makes now the
    /// boundary.
    fn close_deal(&mut self, into: &mut [i64]) {
        for ((d, n), b) in into.iter_mut().zip(&self.now).zip(&self.at_boundary) {
            *d = d.saturating_add(n.saturating_sub(*b));
        }
        std::mem::swap(&mut self.at_boundary, &mut self.now);
    }

    /// At a decision boundary: one entry per deal that ended since the last one, the
    /// whole change since the last deal boundary going to the last of them.
    pub(crate) fn boundary(
        &mut self,
        board: &Board,
        events: &[Event],
        out: &mut Vec<(u8, Vec<i64>)>,
    ) {
        let first_new = out.len();
        for e in &events[self.scanned..] {
            if let Event::Outcome(_, dealer) = e {
                out.push((*dealer, vec![0; board.seats as usize]));
            }
        }
        self.scanned = events.len();
        let ended = out.len() > first_new;
        if let Some((_, last)) = out.last_mut().filter(|_| ended) {
            self.read(board);
            self.close_deal(last);
        }
    }

    /// At the end of the game: what moved after the last deal boundary (a match-end
    /// pot split) belongs to the last deal.
    pub(crate) fn finish(&mut self, board: &Board, out: &mut [(u8, Vec<i64>)]) {
        if let Some((_, last)) = out.last_mut() {
            self.read(board);
            self.close_deal(last);
        }
    }
}

/// The invariants on a board reached after `decisions` decisions: every card in
/// exactly one zone, and the ledger's sum as at the start (`off_since`: the decision
/// after which it went off, and its sum then, while it is off).
///
/// They are checked where something was recorded — an outcome, a result, a tally: a
/// deal's end, mostly — and at the game's end, where chips are read; not after every
/// decision, where walking every zone would cost more than many games' turns (the
/// register machine's turns are a few dozen instructions). Every game is still checked
/// throughout: rules cannot break the cards' bookkeeping (every statement moves a card
/// from one zone to another; only a fault of the engine could leave one in two zones or
/// none), and a rule that makes or loses chips (`chips[0] += 5`) leaves the sum off
/// until it is read. The engine follows the sum at every decision to blame the one
/// after which it went off; a sum off for a while and put right before anything was
/// recorded is not a broken ledger, in either player of the game.
fn check(
    p: &Program,
    st: &State,
    ledger0: i64,
    decisions: u64,
    off_since: Option<(u64, i64)>,
) -> Result<(), GameError> {
    if let Err(m) = st.check_cards() {
        return Err(GameError::Invariant(InvariantError {
            message: m,
            decision: decisions,
        }));
    }
    let now = st.ledger_sum();
    if now != ledger0 {
        let (decision, then) = off_since.unwrap_or((decisions, now));
        let mut message = format!(
            "the ledger ({}) sums to {then}, not {ledger0}",
            p.ledger_names()
        );
        if decision != decisions {
            message.push_str(&format!(
                " (found after decision {decisions}, where it sums to {now})"
            ));
        }
        return Err(GameError::Invariant(InvariantError { message, decision }));
    }
    Ok(())
}

/// Per-seat values of the first per-seat ledger variable (the players' chips).
pub fn chips_of(p: &Program, st: &State) -> Vec<i64> {
    chips_on(p, &st.board)
}

/// [`chips_of`] read off a board.
pub(crate) fn chips_on(p: &Program, board: &Board) -> Vec<i64> {
    match chips_var(p) {
        Some(v) => {
            let base = board.layout.var_base[v] as usize;
            (0..board.seats as usize)
                .map(|i| board.vars[base + i].int())
                .collect()
        }
        None => vec![0; board.seats as usize],
    }
}

/// The index of the first per-seat ledger variable: the one reported as chips.
fn chips_var(p: &Program) -> Option<usize> {
    p.ledger
        .iter()
        .map(|v| *v as usize)
        .find(|v| p.vars[*v].per_seat)
}

/// The seed of game `index` of a run with master seed `master`.
pub fn game_seed(master: u64, index: u64) -> u64 {
    GameRng::game_seed(master, index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::by_name;

    fn sangohana() -> Program {
        let text = include_str!("../../../../rulesets/sangohana.fuda");
        match crate::compile("sangohana.fuda", text, &crate::loader::NoFiles) {
            Ok(c) => c.program,
            Err(f) => panic!("{:#?}", f.diagnostics),
        }
    }

    fn agents(kind: &str, seed: u64, seats: usize) -> Vec<Box<dyn Agent>> {
        (0..seats)
            .map(|s| by_name(kind, agent_seed(seed, s)).expect("agent"))
            .collect()
    }

    /// What a game's record says, as text (records hold no `PartialEq`).
    fn said(rec: &GameRecord) -> String {
        format!(
            "{} {:?} {:?} {:?} {:?} {} {:?}",
            rec.seed,
            rec.outcomes,
            rec.dealers,
            rec.chips,
            rec.deal_chips,
            rec.decisions,
            rec.records.len()
        )
    }

    /// Games played one after another on one table, with 2 to 4 players, random and
    /// eager, audited and not, are the games `play_game` plays: the kept blank board
    /// and the reset one change nothing.
    #[test]
    fn a_table_plays_the_games_play_game_plays() {
        let p = sangohana();
        for players in 2..=4i64 {
            let params = [Some(Value::Int(players))];
            for (kind, check) in [("random", false), ("eager", true), ("random", true)] {
                let opts = PlayOptions {
                    check_invariants: check,
                    ..PlayOptions::default()
                };
                let mut table = Table::new(&p, &params);
                for i in 0..4 {
                    let seed = game_seed(5, i);
                    let n = players as usize;
                    let one = play_game(&p, &params, seed, &mut agents(kind, seed, n), &opts);
                    let kept = table.play(seed, &mut agents(kind, seed, n), &opts);
                    let (one, kept) = (one.expect("a game"), kept.expect("a game"));
                    assert_eq!(
                        said(&one),
                        said(&kept),
                        "{players} players, {kind}, game {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn deal_chips_sum_to_the_final_chips() {
        let p = sangohana();
        let mut ended_in_nagare = false;
        for i in 0..4 {
            let seed = game_seed(11, i);
            let rec = play_game(
                &p,
                &[],
                seed,
                &mut agents("random", seed, 3),
                &PlayOptions::default(),
            )
            .expect("the game finishes");
            assert_eq!(
                rec.deal_chips.len(),
                rec.outcomes.len(),
                "one entry per deal"
            );
            for ((dealer, delta), d) in rec.deal_chips.iter().zip(&rec.dealers) {
                assert_eq!(dealer, d, "each deal carries its own dealer");
                assert_eq!(delta.len(), 3);
            }
            let mut sum = vec![0i64; 3];
            for (_, delta) in &rec.deal_chips {
                sum.iter_mut().zip(delta).for_each(|(s, d)| *s += d);
            }
            assert_eq!(sum, rec.chips, "seed {seed}: {:?}", rec.deal_chips);
            // A 流れ before the last deal costs its dealer 2 and the others 1 each.
            for (k, o) in rec.outcomes.iter().enumerate() {
                if &**o == "流れ" && k + 1 < rec.outcomes.len() {
                    let (dealer, delta) = &rec.deal_chips[k];
                    let mut want = vec![-1i64; 3];
                    want[*dealer as usize] = -2;
                    assert_eq!(delta, &want, "seed {seed}, deal {k}");
                    ended_in_nagare = true;
                }
            }
        }
        assert!(ended_in_nagare, "some deal ended in 流れ: pick other seeds");
    }

    #[test]
    fn a_decision_limit_stops_the_game_as_runaway() {
        let p = sangohana();
        let seed = game_seed(1, 0);
        let opts = PlayOptions {
            decision_limit: Some(3),
            ..PlayOptions::default()
        };
        match play_game(&p, &[], seed, &mut agents("random", seed, 3), &opts) {
            Err(GameError::Runtime(e)) => {
                assert!(e.message.contains("passed 3 decisions"), "{}", e.message)
            }
            Err(GameError::Invariant(i)) => panic!("{}", i.message),
            Ok(rec) => panic!("finished after {} decisions", rec.decisions),
        }
        // Without the limit the same game ends.
        play_game(
            &p,
            &[],
            seed,
            &mut agents("random", seed, 3),
            &PlayOptions::default(),
        )
        .expect("the game finishes");
    }
}
