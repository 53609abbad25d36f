//! A game's state: the board (zones, variables, dealer, generator) and the call stack
//! that says where in the rules play stands. Cloning it is cheap enough for search.

use std::sync::Arc;

use super::decision::Pending;
use super::error::RuntimeError;
pub use super::frame::Frame;
use super::zones::Zones;
use crate::ir::{Loc, Owner, Program};
use crate::model::{CardIx, CardSet, GameRng};
use crate::pattern::FitTable;
use crate::value::{ScoreResult, Value};

/// Where each zone and variable lives for a given seat count.
#[derive(Clone, Debug)]
pub struct Layout {
    /// First instance index of each declared zone.
    pub zone_base: Vec<u16>,
    /// Declared zone of each instance, and its seat for per-seat zones.
    pub zone_of: Vec<(u16, Option<u8>)>,
    /// First slot of each declared variable.
    pub var_base: Vec<u16>,
    /// The fit tables of [`Program::fit_tracks`], whose sums the board keeps.
    pub fit: Vec<Arc<FitTable>>,
    /// The variable slots of the `ledger`, every seat's: what
    /// [`Board::ledger_sum`] adds up at each decision of an audited game.
    pub ledger_slots: Vec<u16>,
}

impl Layout {
    pub(crate) fn new(p: &Program, seats: u8) -> Layout {
        let mut zone_base = Vec::new();
        let mut zone_of = Vec::new();
        for (i, z) in p.zones.iter().enumerate() {
            zone_base.push(zone_of.len() as u16);
            match z.owner {
                Owner::Shared => zone_of.push((i as u16, None)),
                Owner::PerSeat => (0..seats).for_each(|s| zone_of.push((i as u16, Some(s)))),
            }
        }
        let mut var_base = Vec::new();
        let mut n = 0u16;
        for v in &p.vars {
            var_base.push(n);
            n += if v.per_seat { seats as u16 } else { 1 };
        }
        let fit = p
            .fit_tracks
            .iter()
            .filter_map(|&t| {
                p.patterns
                    .get(t as usize)?
                    .prefilter
                    .as_ref()?
                    .table
                    .clone()
            })
            .collect::<Vec<_>>();
        // Tracks are found by place: a missing table would shift the others.
        let fit = if fit.len() == p.fit_tracks.len() {
            fit
        } else {
            Vec::new()
        };
        let ledger_slots = p
            .ledger
            .iter()
            .flat_map(|&v| {
                let n = if p.vars[v as usize].per_seat {
                    seats as u16
                } else {
                    1
                };
                let base = var_base[v as usize];
                base..base + n
            })
            .collect();
        Layout {
            zone_base,
            zone_of,
            var_base,
            fit,
            ledger_slots,
        }
    }
}

/// Everything on the table: what expressions read.
#[derive(Debug)]
pub struct Board {
    /// Number of seats.
    pub seats: u8,
    /// The dealer's seat.
    pub dealer: u8,
    /// Parameter values.
    pub params: Vec<Value>,
    /// Variable values (per-seat variables take one slot per seat).
    pub vars: Vec<Value>,
    /// Cards in each zone instance, bottom first (the top is last).
    pub zones: Zones,
    /// The same as sets, for fast tests.
    pub sets: Vec<CardSet>,
    /// Zone instance of each card.
    pub card_zone: Vec<u16>,
    /// For each zone instance and each of the layout's fit tables (`layout.fit`), the
    /// sum of the instance's cards' weights, at `instance * tables + table`: kept as
    /// cards move, so a hand guard reads its hand's entry without adding it up.
    pub fit_sums: Vec<u32>,
    /// Zone instances revealed to everyone.
    pub revealed: Vec<bool>,
    /// Cards shown to everyone wherever they lie (`reveal CARDS`, さらす), until the next
    /// `gather`: what was shown is known.
    pub shown: CardSet,
    /// The last claim window taken: each seat that claimed, with its move's name (an
    /// index into `Program::move_names`), in the window's order; read by `claimed(…)`.
    pub claims: Vec<(u8, u32)>,
    /// The seats a person plays (bit `s` for seat `s`), read by `person(s)`: set by
    /// whoever seats the players (`fuda play`, a replay); none in a simulation.
    pub people: u32,
    /// The game's generator.
    pub rng: GameRng,
    /// Zone and variable placement.
    pub layout: Arc<Layout>,
    /// Whether the common op and operand shapes take their fast paths (the default).
    /// Off, every op goes through the full evaluation: only to check that both give
    /// the same game.
    pub quicken: bool,
}

impl Clone for Board {
    fn clone(&self) -> Board {
        let Board {
            seats,
            dealer,
            params,
            vars,
            zones,
            sets,
            card_zone,
            fit_sums,
            revealed,
            shown,
            claims,
            people,
            rng,
            layout,
            quicken,
        } = self;
        Board {
            seats: *seats,
            dealer: *dealer,
            params: params.clone(),
            vars: vars.clone(),
            zones: zones.clone(),
            sets: sets.clone(),
            card_zone: card_zone.clone(),
            fit_sums: fit_sums.clone(),
            revealed: revealed.clone(),
            shown: *shown,
            claims: claims.clone(),
            people: *people,
            rng: rng.clone(),
            layout: layout.clone(),
            quicken: *quicken,
        }
    }

    /// Copies `src` into this board's own lists, allocating nothing when they are
    /// already large enough: a player looking ahead resets one scratch copy per move.
    fn clone_from(&mut self, src: &Board) {
        let Board {
            seats,
            dealer,
            params,
            vars,
            zones,
            sets,
            card_zone,
            fit_sums,
            revealed,
            shown,
            claims,
            people,
            rng,
            layout,
            quicken,
        } = src;
        self.seats = *seats;
        self.dealer = *dealer;
        crate::value::copy_values(&mut self.params, params);
        crate::value::copy_values(&mut self.vars, vars);
        self.zones.clone_from(zones);
        self.sets.clone_from(sets);
        self.card_zone.clone_from(card_zone);
        self.fit_sums.clone_from(fit_sums);
        self.revealed.clone_from(revealed);
        self.shown = *shown;
        self.claims.clone_from(claims);
        self.people = *people;
        self.rng.clone_from(rng);
        // The same layout as a rule (a lookahead copy reset to its game): counting an
        // `Arc` up and the old one down would be two atomic operations for nothing.
        if !Arc::ptr_eq(&self.layout, layout) {
            self.layout.clone_from(layout);
        }
        self.quicken = *quicken;
    }
}

impl Board {
    /// The seats from the dealer on, round the table: the order `seats()` lists them.
    pub fn seats_from_dealer(&self) -> impl Iterator<Item = u8> {
        let (n, dealer) = (self.seats, self.dealer);
        (0..n).map(move |k| (dealer + k) % n)
    }

    /// Moves one card to the top of a zone instance.
    #[inline(always)]
    pub fn move_card(&mut self, c: CardIx, to: u16) {
        self.move_card_from(c, to);
    }

    /// [`Board::move_card`], answering where the card was: `to` itself when it was
    /// there already (and did not move, so it need not be the top).
    #[inline(always)]
    pub fn move_card_from(&mut self, c: CardIx, to: u16) -> u16 {
        let from = self.card_zone[c as usize];
        if from == to {
            return from;
        }
        self.zones.take_out(from as usize, c);
        self.sets[from as usize].remove(c);
        self.zones.push(to as usize, c);
        self.sets[to as usize].insert(c);
        self.card_zone[c as usize] = to;
        self.fit_move(c, from, to);
        from
    }

    /// Moves the top card of `from` to the top of `to` (a draw): which card, or `None`
    /// when `from` is empty or `to` is no instance. The same as `move_card` of the top
    /// card, without looking up where the card is or for its place in the list.
    #[inline(always)]
    pub fn draw_top(&mut self, from: u16, to: u16) -> Option<CardIx> {
        if to as usize >= self.zones.instances() {
            return None;
        }
        if from == to {
            return self.zones.top(from as usize);
        }
        let c = self.zones.pop(from as usize)?;
        self.sets[from as usize].remove(c);
        self.zones.push(to as usize, c);
        self.sets[to as usize].insert(c);
        self.card_zone[c as usize] = to;
        self.fit_move(c, from, to);
        Some(c)
    }

    /// Moves card `c`'s weights from instance `from`'s fit sums to `to`'s (see
    /// [`Board::fit_sums`]). (`deal_top` moves the weights of all the cards it deals
    /// at once.)
    #[inline(always)]
    fn fit_move(&mut self, c: CardIx, from: u16, to: u16) {
        let n = self.layout.fit.len();
        // Mostly one table (a game's one win pattern): its sums are one per instance,
        // without a loop.
        if let [table] = &self.layout.fit[..] {
            let w = table.weight(c as usize);
            if let Some(s) = self.fit_sums.get_mut(from as usize) {
                *s = s.wrapping_sub(w);
            }
            if let Some(s) = self.fit_sums.get_mut(to as usize) {
                *s = s.wrapping_add(w);
            }
            return;
        }
        for (t, table) in self.layout.fit.iter().enumerate() {
            let w = table.weight(c as usize);
            if let Some(s) = self.fit_sums.get_mut(from as usize * n + t) {
                *s = s.wrapping_sub(w);
            }
            if let Some(s) = self.fit_sums.get_mut(to as usize * n + t) {
                *s = s.wrapping_add(w);
            }
        }
    }

    /// Works every fit sum out afresh from the zones' cards (after the cards were
    /// placed other than by moving them).
    pub fn recount_fit(&mut self) {
        let n = self.layout.fit.len();
        self.fit_sums.clear();
        self.fit_sums.resize(self.zones.instances() * n, 0);
        for (i, z) in self.zones.iter().enumerate() {
            for (t, table) in self.layout.fit.iter().enumerate() {
                self.fit_sums[i * n + t] = table.weight_of(z);
            }
        }
    }

    /// The fit sum of zone instance `zi` for tracked table `t`.
    #[inline(always)]
    pub fn fit_sum(&self, zi: u16, t: u8) -> Option<u32> {
        let n = self.layout.fit.len();
        self.fit_sums.get(zi as usize * n + t as usize).copied()
    }

    /// Moves the cards of every other zone instance onto `to`: instance by instance in
    /// order, each one's cards bottom first, just as moving them one at a time would,
    /// but a whole list at once instead of one search and removal per card.
    pub fn gather(&mut self, to: u16) {
        let Board {
            zones,
            sets,
            card_zone,
            fit_sums,
            layout,
            ..
        } = self;
        // Every card ends in `to`: its sums are all the others' added to its own.
        let n = layout.fit.len();
        for t in 0..n {
            let all = fit_sums
                .iter()
                .skip(t)
                .step_by(n)
                .fold(0u32, |a, s| a.wrapping_add(*s));
            for (i, s) in fit_sums.iter_mut().skip(t).step_by(n).enumerate() {
                *s = if i == to as usize { all } else { 0 };
            }
        }
        // Every card ends in `to`, so each card's place is written at once.
        card_zone.fill(to);
        let mut pile_set = sets[to as usize];
        for (i, set) in sets.iter_mut().enumerate() {
            if i == to as usize {
                continue;
            }
            zones.append(to as usize, i);
            pile_set = pile_set.union(std::mem::replace(set, CardSet::EMPTY));
        }
        sets[to as usize] = pile_set;
    }

    /// `cut z`: lifts a random number of the top cards (at least one, not all) and puts
    /// them under the rest; with `aside`, the lower part's top card is first set aside
    /// there. The engine and the register machine both cut here, so both draw alike.
    pub fn cut(&mut self, z: u16, aside: Option<u16>) {
        let n = self.zones.held(z as usize);
        if n < 2 {
            return;
        }
        // The top `k` cards are lifted; the lower half's top card may be set aside.
        let k = 1 + self.rng.below(n as u32 - 1) as usize;
        if let Some(a) = aside {
            let c = self.zones[z as usize][n - k - 1];
            self.move_card(c, a);
        }
        let zone = &mut self.zones[z as usize];
        let len = zone.len();
        zone.rotate_right(k.min(len));
    }

    /// `dealer by draw`: each seat still in contention draws from a shuffled deck; the
    /// lowest (or highest) value of the first key's attribute deals, each further key
    /// breaks the ties the keys before it leave, and seats tied on every key draw again.
    /// `keys` holds `(lowest, attribute)` pairs; a symbol attribute's values rank in the
    /// order they are declared, the first lowest.
    pub fn dealer_by_draw(&mut self, deck: &crate::model::Deck, keys: &[(bool, u16)]) {
        let mut order: Vec<CardIx> = (0..deck.len() as CardIx).collect();
        self.rng.shuffle(&mut order);
        let mut contenders: Vec<u8> = (0..self.seats).collect();
        let mut next = order.into_iter();
        while contenders.len() > 1 {
            let mut draws = Vec::new();
            for s in &contenders {
                match next.next() {
                    Some(c) => draws.push((*s, c)),
                    None => break,
                }
            }
            if draws.len() < contenders.len() {
                break;
            }
            // Each key in turn keeps the draws with its best value.
            for &(lowest, attr) in keys {
                let rank = |c: CardIx| draw_rank(deck, attr, c);
                let values = draws.iter().map(|d| rank(d.1));
                let best = if lowest { values.min() } else { values.max() }.unwrap_or(0);
                draws.retain(|d| rank(d.1) == best);
            }
            contenders = draws.into_iter().map(|d| d.0).collect();
        }
        self.dealer = contenders.first().copied().unwrap_or(0);
    }

    /// The slot of a variable for a seat (or the variable itself).
    #[inline]
    pub fn var_slot(&self, v: u16, seat: Option<u8>) -> usize {
        self.layout.var_base[v as usize] as usize + seat.unwrap_or(0) as usize
    }

    /// The zone instance of a declared zone (for a seat, if per seat).
    #[inline]
    pub fn zone_instance(&self, z: u16, seat: Option<u8>) -> u16 {
        self.layout.zone_base[z as usize] + seat.unwrap_or(0) as u16
    }
}

/// A card's value of `attr` as `dealer by draw` compares it: an int as it is, a symbol
/// by its place in the attribute's declared values (the first is the lowest).
fn draw_rank(deck: &crate::model::Deck, attr: u16, c: CardIx) -> i64 {
    let v = deck.attr(attr, c);
    match deck.attrs.get(attr as usize).map(|a| &a.kind) {
        Some(crate::model::AttrKind::Symbols(syms)) => syms
            .iter()
            .position(|s| i64::from(*s) == v)
            .map_or(-1, |i| i as i64),
        _ => v,
    }
}

/// Something that happened, for statistics and logs.
#[derive(Clone, Debug)]
pub enum Event {
    /// A round ended this way; the dealer of that round follows.
    Outcome(Arc<str>, u8),
    /// A scored result was recorded for a seat; the dealer at the time follows.
    Record(u8, Arc<ScoreResult>, u8),
    /// A message.
    Say(String),
    /// A value counted under a label.
    Tally(Arc<str>, String, Option<u8>),
}

/// Which body a frame runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CodeRef {
    /// A procedure.
    Proc(u16),
    /// An in-file test.
    Test(u16),
}

/// A whole game in progress.
#[derive(Debug)]
pub struct State {
    /// The table.
    pub board: Board,
    /// The call stack.
    pub frames: Vec<Frame>,
    /// Local slots of every frame.
    pub locals: Vec<Value>,
    /// The decision waiting for players, if any.
    pub pending: Option<Pending>,
    /// What happened (outcomes, recorded results, messages).
    pub events: Vec<Event>,
    /// Whether `say` messages are kept.
    pub keep_log: bool,
    /// Decisions taken so far.
    pub decisions: u64,
    /// Most decisions a game may take before it is stopped as runaway.
    pub decision_limit: u64,
    /// Decisions taken since the round in progress began (at the game's start or its
    /// last `outcome`); see [`ROUND_DECISION_LIMIT`].
    pub round_decisions: u64,
    /// Which declared zones are public (for agents' evaluations).
    pub public_zones: Arc<[bool]>,
    /// Work left in the round in progress: evaluation steps, and ops run between
    /// decisions (see `ROUND_BUDGET`).
    pub steps_left: u64,
    /// Work the game may still give to the rounds after this one (see `GAME_BUDGET`):
    /// an `outcome` gives the next round what the last one left, and at most
    /// `ROUND_BUDGET` of it, so a game whose every round works hard still ends.
    pub game_steps_left: u64,
    /// A test's queued answers: move name, argument, and where written.
    pub answers: std::collections::VecDeque<(String, Value, Loc)>,
    /// Move and seat lists of decisions already taken, kept for the next decisions so
    /// offering moves allocates nothing.
    pub(crate) spare: Spare,
}

impl Clone for State {
    fn clone(&self) -> State {
        let mut s = self.clone_without_events();
        s.events = self.events.clone();
        s
    }

    /// Copies `src` reusing this state's lists (see [`Board::clone_from`]); the spare
    /// move lists stay this state's own.
    fn clone_from(&mut self, src: &State) {
        self.events.clone_from(&src.events);
        self.copy_but_events(src);
    }
}

/// Emptied lists from decisions already taken (see [`State::spare`]).
#[derive(Debug, Default)]
pub(crate) struct Spare {
    /// Move lists.
    pub moves: Vec<Vec<super::decision::Move>>,
    /// Seat lists.
    pub seats: Vec<Vec<super::decision::SeatMoves>>,
}

/// Most lists of each kind [`Spare`] keeps. A state a player copies the game into gets
/// its waiting decision by copy, not from the spare lists, and gives its lists back when
/// the move is applied: kept without bound, a lookahead copy reused all game long would
/// hold one more list per decision it tried. Decisions take one seat list at a time,
/// and a seat list's entries take their move lists with them.
const SPARE_MOST: usize = 8;

impl Spare {
    /// Keeps an emptied seat list for a later decision, if fewer than [`SPARE_MOST`] are kept.
    pub fn keep_seats(&mut self, seats: Vec<super::decision::SeatMoves>) {
        if self.seats.len() < SPARE_MOST {
            self.seats.push(seats);
        }
    }

    /// Keeps an emptied move list for a later decision, if fewer than [`SPARE_MOST`] are kept.
    pub fn keep_moves(&mut self, moves: Vec<super::decision::Move>) {
        if self.moves.len() < SPARE_MOST {
            self.moves.push(moves);
        }
    }
}

impl Clone for Spare {
    /// A copy of a game starts with no spare lists: copying them would cost what they save.
    fn clone(&self) -> Spare {
        Spare::default()
    }
}

/// Most decisions one round may take without an `outcome` (the game then stops as
/// runaway). The longest bundled or sketched round takes under 250; a round of a rules file
/// that forgets its `outcome` would otherwise run to the game's whole limit, which a
/// player that looks ahead takes hours to reach.
pub const ROUND_DECISION_LIMIT: u64 = 5_000;

/// Default decision limit per game.
pub const DEFAULT_DECISION_LIMIT: u64 = 1_000_000;

/// Most events (outcomes, recorded results, tallies and kept messages) one game may
/// make: what a game records is kept until it ends, so a rule that tallies in a loop
/// would otherwise hold memory without bound. A match of 120 bundled rounds makes a
/// few hundred.
pub const MAX_EVENTS: usize = 20_000;

/// Most characters of an event's text (an outcome's name, a tally's value, a message):
/// longer text is cut to this many, the last one `…`. With [`MAX_EVENTS`], a game's events hold a few
/// tens of megabytes at most.
pub const MAX_EVENT_TEXT: usize = 1_000;

/// `text` cut to [`MAX_EVENT_TEXT`] characters, the last one `…`, where longer.
pub fn event_text(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(MAX_EVENT_TEXT) {
        None => std::borrow::Cow::Borrowed(text),
        Some((cut, _)) => {
            let keep = text[..cut].char_indices().last().map_or(0, |(i, _)| i);
            std::borrow::Cow::Owned(format!("{}…", &text[..keep]))
        }
    }
}

impl State {
    /// A new game of `program` with parameter values `params` (defaults where `None`)
    /// and generator seed `seed`, positioned at the start of `proc match`.
    pub fn new(p: &Program, params: &[Option<Value>], seed: u64) -> Result<State, RuntimeError> {
        let mut st = State::blank(p, params, seed)?;
        let entry = p.entry.ok_or_else(|| {
            RuntimeError::new(
                "the ruleset has no `proc match` to start from",
                Loc::default(),
            )
        })?;
        st.push_frame(p, CodeRef::Proc(entry), Vec::new());
        Ok(st)
    }

    /// A board with every card in the first shared zone and no frame running.
    pub fn blank(p: &Program, params: &[Option<Value>], seed: u64) -> Result<State, RuntimeError> {
        let param_values = super::eval::param_values(p, params)?;
        let seats = super::eval::seat_count(p, &param_values)?;
        let layout = Arc::new(Layout::new(p, seats));
        let n_inst = layout.zone_of.len();
        let start = p
            .zones
            .iter()
            .position(|z| z.owner == Owner::Shared)
            .map(|z| layout.zone_base[z])
            .unwrap_or(0);
        let deck_len = p.deck.len();
        let mut zones = Zones::new(n_inst.max(1), deck_len);
        let mut sets = vec![CardSet::EMPTY; n_inst.max(1)];
        zones.set(start as usize, &(0..deck_len as CardIx).collect::<Vec<_>>());
        sets[start as usize] = p.deck.all();
        let mut board = Board {
            seats,
            dealer: 0,
            params: param_values,
            vars: Vec::new(),
            zones,
            sets,
            card_zone: vec![start; deck_len],
            fit_sums: Vec::new(),
            revealed: vec![false; n_inst.max(1)],
            shown: CardSet::EMPTY,
            claims: Vec::new(),
            people: 0,
            rng: GameRng::new(seed),
            layout,
            quicken: true,
        };
        board.recount_fit();
        // Initial values may depend on parameters only.
        let mut vars = Vec::new();
        for v in &p.vars {
            let val = super::eval::eval_pure_at(p, &board, &v.init, v.loc)?;
            let n = if v.per_seat { seats as usize } else { 1 };
            vars.extend(std::iter::repeat_n(val, n));
        }
        board.vars = vars;
        let public = p
            .zones
            .iter()
            .map(|z| z.visibility == crate::ir::Visibility::Public)
            .collect();
        Ok(State::around(board, public))
    }

    /// A game not yet begun on `board`: no frames, decisions or events.
    fn around(board: Board, public_zones: Arc<[bool]>) -> State {
        State {
            board,
            frames: Vec::new(),
            locals: Vec::new(),
            pending: None,
            events: Vec::new(),
            keep_log: false,
            decisions: 0,
            decision_limit: DEFAULT_DECISION_LIMIT,
            round_decisions: 0,
            public_zones,
            steps_left: super::exec::ROUND_BUDGET.min(super::exec::GAME_BUDGET),
            game_steps_left: super::exec::GAME_BUDGET
                .saturating_sub(super::exec::ROUND_BUDGET.min(super::exec::GAME_BUDGET)),
            answers: Default::default(),
            spare: Spare::default(),
        }
    }

    /// Pushes a call frame with its arguments in the first slots.
    pub fn push_frame(&mut self, p: &Program, code: CodeRef, args: Vec<Value>) {
        let base = self.locals.len();
        self.locals.extend(args);
        self.enter_frame(p, code, base);
    }

    /// Pushes a call frame whose locals start at `base`, the arguments already there.
    pub(super) fn enter_frame(&mut self, p: &Program, code: CodeRef, base: usize) {
        let frame_size = match code {
            CodeRef::Proc(i) => p.procs[i as usize].frame,
            CodeRef::Test(i) => p.tests[i as usize].body.frame,
        } as usize;
        // Each new slot is made, not cloned: `resize` clones its value once per slot,
        // and a `Value`'s clone looks at its variant each time (about 5× the cost).
        let more = (base + frame_size).saturating_sub(self.locals.len());
        self.locals
            .extend(std::iter::repeat_with(|| Value::Unit).take(more));
        self.frames.push(Frame {
            code,
            pc: 0,
            base: base as u32,
            queue: Vec::new(),
            declined: Vec::new(),
        });
    }

    /// Whether the game is over.
    pub fn finished(&self) -> bool {
        self.frames.is_empty() && self.pending.is_none()
    }

    /// The sum of the ledger variables (constant over a game when payments balance).
    pub fn ledger_sum(&self) -> i64 {
        self.board.ledger_sum()
    }

    /// Checks that every card is in exactly one zone and the zone tables agree (see
    /// [`Board::check_cards`]).
    pub fn check_cards(&self) -> Result<(), String> {
        self.board.check_cards()
    }

    /// Whether a declared zone is seen by everyone (its visibility is `public`).
    pub fn zone_public(&self, z: u16) -> bool {
        self.public_zones.get(z as usize).copied().unwrap_or(false)
    }

    /// Makes this state a copy of `src` with an empty event list, reusing this state's
    /// lists (a player looking ahead copies the game once per decision or playout).
    pub fn copy_without_events(&mut self, src: &State) {
        self.events.clear();
        self.copy_but_events(src);
    }

    /// [`Clone::clone_from`] for every field but the events.
    fn copy_but_events(&mut self, src: &State) {
        let State {
            board,
            frames,
            locals,
            pending,
            events: _,
            keep_log,
            decisions,
            decision_limit,
            round_decisions,
            public_zones,
            steps_left,
            game_steps_left,
            answers,
            spare: _,
        } = src;
        self.board.clone_from(board);
        self.frames.clone_from(frames);
        crate::value::copy_values(&mut self.locals, locals);
        self.pending.clone_from(pending);
        self.keep_log = *keep_log;
        self.decisions = *decisions;
        self.decision_limit = *decision_limit;
        self.round_decisions = *round_decisions;
        if !Arc::ptr_eq(&self.public_zones, public_zones) {
            self.public_zones.clone_from(public_zones);
        }
        self.steps_left = *steps_left;
        self.game_steps_left = *game_steps_left;
        // A test's queue: empty in every game played, where copying it cost more than
        // any other list.
        if !(self.answers.is_empty() && answers.is_empty()) {
            self.answers.clone_from(answers);
        }
    }

    /// A copy of the game with an empty event list (for lookahead).
    pub fn clone_without_events(&self) -> State {
        // Every field named, so a new one cannot be forgotten here.
        let State {
            board: _,
            frames: _,
            locals: _,
            pending: _,
            events: _,
            keep_log: _,
            decisions: _,
            decision_limit: _,
            round_decisions: _,
            public_zones: _,
            steps_left: _,
            game_steps_left: _,
            answers: _,
            spare: _,
        } = self;
        State {
            board: self.board.clone(),
            frames: self.frames.clone(),
            locals: self.locals.clone(),
            pending: self.pending.clone(),
            events: Vec::new(),
            keep_log: self.keep_log,
            decisions: self.decisions,
            decision_limit: self.decision_limit,
            round_decisions: self.round_decisions,
            public_zones: self.public_zones.clone(),
            steps_left: self.steps_left,
            game_steps_left: self.game_steps_left,
            answers: self.answers.clone(),
            spare: Spare::default(),
        }
    }

    /// Per-seat values of an int variable by name.
    pub fn seat_ints(&self, p: &Program, name: &str) -> Option<Vec<i64>> {
        let v = p.vars.iter().position(|v| v.name == name && v.per_seat)?;
        let base = self.board.layout.var_base[v] as usize;
        Some(
            (0..self.board.seats as usize)
                .map(|i| self.board.vars[base + i].int())
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A board of `zones` shared zone instances holding the given lists, nothing else.
    fn board_of(lists: Vec<Vec<CardIx>>) -> Board {
        let n_cards = lists.iter().map(Vec::len).sum::<usize>();
        let mut zones = Zones::new(lists.len(), n_cards);
        for (i, l) in lists.iter().enumerate() {
            zones.set(i, l);
        }
        let mut card_zone = vec![0; n_cards];
        for (i, z) in lists.iter().enumerate() {
            z.iter().for_each(|c| card_zone[*c as usize] = i as u16);
        }
        Board {
            seats: 1,
            dealer: 0,
            params: Vec::new(),
            vars: Vec::new(),
            sets: lists.iter().map(|z| z.iter().copied().collect()).collect(),
            revealed: vec![false; lists.len()],
            shown: CardSet::EMPTY,
            claims: Vec::new(),
            people: 0,
            layout: Arc::new(Layout {
                zone_base: (0..lists.len() as u16).collect(),
                zone_of: (0..lists.len() as u16).map(|i| (i, None)).collect(),
                var_base: Vec::new(),
                fit: Vec::new(),
                ledger_slots: Vec::new(),
            }),
            zones,
            card_zone,
            fit_sums: Vec::new(),
            rng: GameRng::new(0),
            quicken: true,
        }
    }

    /// The lists a sequence of moves gives, one card at a time by plain list edits.
    fn reference(lists: &mut [Vec<CardIx>], c: CardIx, to: usize) {
        let from = lists.iter().position(|z| z.contains(&c)).expect("placed");
        if from != to {
            let pos = lists[from].iter().rposition(|x| *x == c).expect("there");
            lists[from].remove(pos);
            lists[to].push(c);
        }
    }

    /// Whether the lists, sets and card places of a board agree with each other.
    fn consistent(b: &Board) -> bool {
        b.zones.iter().enumerate().all(|(i, z)| {
            z.iter().copied().collect::<CardSet>() == b.sets[i]
                && z.iter().all(|c| b.card_zone[*c as usize] as usize == i)
        })
    }

    /// Zone lists, and ops as (kind: move, deal, draw or gather; a card or source; a count
    /// whose remainder by 4 is the destination).
    type Setup = (Vec<Vec<CardIx>>, Vec<(u8, usize, usize)>);

    /// Up to 160 cards dealt at random into 4 zones, and a list of ops.
    fn setup() -> impl Strategy<Value = Setup> {
        // Decks of up to 64 cards (one word of a set) and wider ones: the card check
        // reads the two differently.
        (1usize..160, any::<u64>()).prop_flat_map(|(n, seed)| {
            let mut cards: Vec<CardIx> = (0..n as CardIx).collect();
            GameRng::new(seed).shuffle(&mut cards);
            let mut lists = vec![Vec::new(); 4];
            for (k, c) in cards.into_iter().enumerate() {
                lists[(k * 7 + seed as usize) % 4].push(c);
            }
            let ops = prop::collection::vec((0u8..4, 0usize..40, 0usize..12), 0..30);
            (Just(lists), ops)
        })
    }

    #[test]
    fn taking_out_a_missing_card_leaves_the_list_as_it_was() {
        let mut b = board_of(vec![vec![3, 1, 4, 5, 0, 2], (6..46).collect()]);
        let mut take = |zone: usize, c| {
            b.zones.take_out(zone, c);
            b.zones.to_lists()
        };
        assert_eq!(take(0, 9)[0], [3, 1, 4, 5, 0, 2]);
        assert_eq!(take(0, 3)[0], [1, 4, 5, 0, 2]);
        assert_eq!(take(0, 4)[0], [1, 5, 0, 2]);
        // A long list (searched, not shifted over a fixed stretch) keeps the same order.
        take(1, 17);
        take(1, 45);
        let want: Vec<CardIx> = (6..45).filter(|&c| c != 17).collect();
        assert_eq!(take(1, 99)[1], want);
    }

    proptest! {
        /// Moving a card, dealing or drawing from the top and gathering keep each
        /// zone's order exactly as moving one card at a time does.
        #[test]
        fn bulk_moves_match_one_card_at_a_time((lists, ops) in setup()) {
            let n = lists.iter().map(Vec::len).sum::<usize>();
            let mut b = board_of(lists.clone());
            let mut r = lists;
            for (kind, a, k) in ops {
                let to = k % 4;
                match kind {
                    0 => {
                        let c = (a % n) as CardIx;
                        b.move_card(c, to as u16);
                        reference(&mut r, c, to);
                    }
                    1 => {
                        let from = a % 4;
                        let all = b.deal_top(from as u16, to as u16, k);
                        prop_assert_eq!(all, k == 0 || (from == to && !r[from].is_empty()) || r[from].len() >= k);
                        for _ in 0..k {
                            let Some(&c) = r[from].last() else { break };
                            reference(&mut r, c, to);
                            if from == to { break; }
                        }
                    }
                    2 => {
                        // A draw: the top card, moved as `move_card` moves it.
                        let from = a % 4;
                        let drawn = b.draw_top(from as u16, to as u16);
                        prop_assert_eq!(drawn, r[from].last().copied());
                        if let Some(c) = drawn {
                            reference(&mut r, c, to);
                        }
                    }
                    _ => {
                        b.gather(to as u16);
                        for i in 0..4 {
                            if i != to {
                                for c in r[i].clone() {
                                    reference(&mut r, c, to);
                                }
                            }
                        }
                    }
                }
                prop_assert_eq!(&b.zones.to_lists(), &r);
                prop_assert!(consistent(&b));
            }
        }

        /// The one-pass card check finds a board wrong exactly when the card-by-card
        /// one does, whatever was broken: a card listed twice (in one zone or two), a
        /// card whose recorded zone is another, a set that is not its list, a lost card.
        #[test]
        fn the_quick_card_check_agrees_with_the_card_by_card_one(
            (lists, _) in setup(),
            fault in 0u8..6,
            a in any::<usize>(),
            b in any::<usize>(),
        ) {
            let mut board = board_of(lists);
            let z = a % 4;
            let other = (z + 1 + b % 3) % 4;
            let c = super::super::invariants::break_cards(&mut board, fault, z, other, b);
            let st = State::around(board, Arc::from(Vec::new()));
            prop_assert_eq!(st.board.cards_consistent(), st.board.cards_fault().is_ok());
            prop_assert_eq!(st.check_cards().is_ok(), fault == 0 || c.is_none());
        }
    }

    /// A copy reused for lookahead all game long (as `greedy` keeps one) gives its
    /// waiting decision's lists back at each move, and takes a new copy of the game's
    /// waiting decision when nothing waits in it: the spare lists stay few.
    #[test]
    fn a_reused_copy_keeps_few_spare_lists() {
        let text = "ruleset \"x\"\nimport \"std/hanafuda\"\nseats 2 { 2: A B }\n\
                    zone 山 shared stack hidden\n\
                    proc match { loop { choose 0 { move a { } move b { } } } }\n";
        let p = crate::compile("t.fuda", text, &crate::loader::NoFiles)
            .expect("compiles")
            .program;
        let mut st = State::new(&p, &[], 1).expect("starts");
        assert!(!st.advance(&p).expect("runs"));
        let mut w = st.clone_without_events();
        for _ in 0..100 {
            w.copy_without_events(&st);
            assert!(!w.advance(&p).expect("runs"));
            // A playout cut short just after a move: nothing waits in the copy.
            w.apply(&p, &[1]).expect("a legal move");
        }
        assert!(w.spare.seats.len() <= SPARE_MOST && w.spare.moves.len() <= SPARE_MOST);
    }
}
