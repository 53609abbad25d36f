//! Decisions: offering each asked seat its legal moves (guards, move domains, claim
//! windows with a pass), and taking the players' choices to resume the rules.

use super::decision::{Move, Pending, SeatMoves, PASS};
use super::error::RuntimeError;
use super::exec::{body, seat_list, with_cx};
use super::pick::Picker;
use super::state::{Board, State, ROUND_DECISION_LIMIT};
use crate::ir::{Builtin, Decide, DecideKind, Expr, Loc, Op, PickCount, Program, QuickSeat};
use crate::model::{CardIx, CardSet};
use crate::value::Value;

/// Seats asked by one decision: the seats from one on (without allocating), or any
/// list the rules computed.
enum SeatList {
    /// `n` seats from `first` on, round the table.
    Ring { first: u8, count: u8, n: u8 },
    /// An explicit list.
    List(Vec<u8>),
}

impl SeatList {
    fn len(&self) -> usize {
        match self {
            SeatList::Ring { count, .. } => *count as usize,
            SeatList::List(l) => l.len(),
        }
    }

    fn at(&self, i: usize) -> u8 {
        match self {
            // `first < n` and `i < n`: one wrap at most, without a division.
            SeatList::Ring { first, n, .. } => {
                let (k, n) = (*first as usize + i, *n as usize);
                (if k >= n { k - n } else { k }) as u8
            }
            SeatList::List(l) => l[i],
        }
    }
}

impl State {
    /// Fills `sm.moves` with its seat's legal moves for a decision, in option order,
    /// and notes the first that may end the round (see [`SeatMoves::first_ending`]).
    fn moves_for(
        &mut self,
        p: &Program,
        d: &Decide,
        base: usize,
        at: Loc,
        sm: &mut SeatMoves,
    ) -> Result<(), RuntimeError> {
        if let Some(s) = d.seat_slot {
            self.set_local(base, s, Value::Seat(sm.seat));
        }
        for (i, o) in d.options.iter().enumerate() {
            let before = sm.moves.len();
            self.option_moves(p, o, i, base, at, &mut sm.moves)?;
            if o.ends_round && sm.first_ending.is_none() && sm.moves.len() > before {
                sm.first_ending = Some(before);
            }
        }
        Ok(())
    }

    /// The moves of option `i`: one when it takes no argument and its guard holds, else
    /// one per value of its domain the guard allows.
    fn option_moves(
        &mut self,
        p: &Program,
        o: &crate::ir::OptionDef,
        i: usize,
        base: usize,
        at: Loc,
        out: &mut Vec<Move>,
    ) -> Result<(), RuntimeError> {
        let Some((slot, dom)) = &o.param else {
            if self.guard_holds(p, o, base, at)? {
                out.push(Move {
                    option: i as u16,
                    arg: Value::Unit,
                });
            }
            return Ok(());
        };
        // `d in 手札[s]`: the zone's cards are read without evaluating (or building a
        // value for) the domain.
        let set = match self.zone_here(dom, base) {
            Some(z) => self.board.sets[z as usize],
            None => match self.value_of(p, base, dom, at)? {
                Value::List(l) => {
                    for it in l.iter() {
                        self.offer(p, o, i, *slot, it.clone(), base, at, out)?;
                    }
                    return Ok(());
                }
                Value::Range(a, b) if b.saturating_sub(a) <= 10_000 => {
                    for n in a..=b {
                        self.offer(p, o, i, *slot, Value::Int(n), base, at, out)?;
                    }
                    return Ok(());
                }
                Value::Range(..) => {
                    return Err(RuntimeError::new(
                        "a move's range is too large (over 10,000)",
                        at,
                    ))
                }
                Value::Zone(z) => self.board.sets[z as usize],
                Value::Cards(s) => s,
                Value::Card(c) => CardSet::single(c),
                other => {
                    return Err(RuntimeError::new(
                        format!("a move cannot range over {other:?}"),
                        at,
                    ))
                }
            },
        };
        self.card_moves(p, o, i, *slot, set, base, at, out)
    }

    /// The moves of option `i` over the cards of `set`, bound to local `slot`, in card
    /// order (a zone's cards as a set), so the numbering of moves does not depend on how
    /// a hand was shuffled.
    #[allow(clippy::too_many_arguments)]
    fn card_moves(
        &mut self,
        p: &Program,
        o: &crate::ir::OptionDef,
        i: usize,
        slot: u16,
        set: CardSet,
        base: usize,
        at: Loc,
        out: &mut Vec<Move>,
    ) -> Result<(), RuntimeError> {
        // A guard that only asks about the card is worked out for the whole set at once
        // (`d != t`: every card but one).
        let sat = match &o.guard {
            None => Some(set),
            Some(g) => match card_left_out(&self.board, o.left_out, &self.locals[base..]) {
                Some(t) => Some(set.minus(CardSet::single(t))),
                None => with_cx(
                    p,
                    &self.board,
                    &mut self.locals[base..],
                    at,
                    &mut self.steps_left,
                    |cx| cx.cards_where(slot, g),
                )?,
            },
        };
        match sat {
            Some(sat) => push_card_moves(out, i as u16, set.inter(sat)),
            None => {
                for c in set.iter() {
                    self.offer(p, o, i, slot, Value::Card(c), base, at, out)?;
                }
            }
        }
        Ok(())
    }

    /// Whether an option's guard holds (an option without one always does).
    fn guard_holds(
        &mut self,
        p: &Program,
        o: &crate::ir::OptionDef,
        base: usize,
        at: Loc,
    ) -> Result<bool, RuntimeError> {
        let Some(g) = &o.guard else {
            return Ok(true);
        };
        // `役代(手札[s]).total > 0`: false at once for a hand that cannot fit the
        // table's pattern; a hand that may fit is answered off the table's plans, or
        // evaluated in full.
        if let Some(h) = o.hand_guard {
            return match self.hand_guard(p, &h, base) {
                Some(b) => Ok(b),
                None => self.holds(p, base, g, at),
            };
        }
        let quick = o.quick_guard.filter(|_| self.board.quicken);
        Ok(match quick.and_then(|c| self.quick_holds(&c, base)) {
            Some(h) => h,
            None => self.holds(p, base, g, at)?,
        })
    }

    /// Binds a candidate argument and offers the move if its guard holds.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn offer(
        &mut self,
        p: &Program,
        o: &crate::ir::OptionDef,
        i: usize,
        slot: u16,
        arg: Value,
        base: usize,
        at: Loc,
        out: &mut Vec<Move>,
    ) -> Result<(), RuntimeError> {
        self.set_local(base, slot, arg.clone());
        if self.guard_holds(p, o, base, at)? {
            out.push(Move {
                option: i as u16,
                arg,
            });
        }
        Ok(())
    }

    /// Offers the moves of decision `d` (the op at the frame's previous pc): leaves a
    /// [`Pending`] decision, takes a `choose`'s only move at once (unless the picker
    /// shows such moves, [`Picker::SHOWS_FORCED`]), or goes on after a
    /// claim window no seat can claim in. With a picker that picks, a `choose` whose
    /// moves can be counted is taken at once (see [`State::pick_one`]); true when a
    /// player's move was taken so.
    pub(super) fn decide<P: Picker>(
        &mut self,
        p: &Program,
        d: &Decide,
        base: usize,
        at: Loc,
        pk: &mut P,
    ) -> Result<bool, RuntimeError> {
        if P::PICKS && d.kind == DecideKind::One {
            if let Some(picked) = self.pick_one(p, d, base, at, pk)? {
                return Ok(picked);
            }
        }
        let pc = self.frames.last().expect("frame").pc - 1;
        let seats = match d.kind {
            DecideKind::One => self.offer_one(p, d, base, at)?,
            DecideKind::Each | DecideKind::Claim => self.offer_each(p, d, base, at)?,
        };
        if seats.is_empty() {
            if seats.capacity() > 0 {
                self.spare.keep_seats(seats);
            }
            // A window nobody could claim in is the last one taken, with no claims.
            if d.kind == DecideKind::Claim {
                self.board.claims.clear();
            }
            self.jump(d.after);
            return Ok(false);
        }
        let pending = Pending {
            kind: d.kind,
            at: pc,
            seats,
            ends: d.ends,
        };
        // A decision with a single possible outcome is taken at once (unless the caller
        // shows every move: it then takes it itself, as here).
        let forced =
            (!P::SHOWS_FORCED && pending.is_forced()).then(|| vec![0; pending.seats.len()]);
        self.pending = Some(pending);
        if let Some(choices) = forced {
            self.apply(p, &choices)?;
        }
        Ok(false)
    }

    /// A `choose` taken by the picker without listing its moves, when the compiler
    /// found a [`PickPlan`](crate::ir::PickPlan) for it (every option takes no argument
    /// or ranges over a zone's cards with no guard or a `d != t` guard, and its seat is
    /// a local or the dealer): each option's moves are counted (the guards asked in
    /// option order, as the full offer asks them), a move's index drawn (none for a
    /// single move, which is taken as `decide` takes it), and the move started as
    /// `apply` would start it. `None`, with nothing evaluated or changed but the
    /// decision's seat bound, when there is no plan or a value is not the usual one (a
    /// local that holds no seat or card): the full offer then runs. `Some` says whether
    /// a player's move was picked (false for a single move).
    fn pick_one<P: Picker>(
        &mut self,
        p: &Program,
        d: &Decide,
        base: usize,
        at: Loc,
        pk: &mut P,
    ) -> Result<Option<bool>, RuntimeError> {
        const MOST: usize = crate::ir::PICK_OPTIONS;
        let (Some(plan), true) = (&d.pick, self.board.quicken) else {
            return Ok(None);
        };
        let seat = match plan.who {
            QuickSeat::Local(i) => match self.locals.get(base + i as usize) {
                Some(Value::Seat(s)) if *s < self.board.seats => *s,
                _ => return Ok(None),
            },
            QuickSeat::Dealer if self.board.dealer < self.board.seats => self.board.dealer,
            QuickSeat::Dealer => return Ok(None),
        };
        if let Some(s) = d.seat_slot {
            self.set_local(base, s, Value::Seat(seat));
        }
        // The values first, so that a decision left to the full offer has asked
        // nothing: each zone option's instance and the card its guard leaves out.
        let mut doms = [(0u16, None::<CardIx>); MOST];
        for (o, dom) in plan.options.iter().zip(&mut doms) {
            let PickCount::Cards { zone, left_out } = o.count else {
                continue;
            };
            let Some(z) = self.quick_zone(zone, base) else {
                return Ok(None);
            };
            let t = match left_out.map(|t| self.locals.get(base + t as usize)) {
                None => None,
                Some(Some(Value::Card(t))) => Some(*t),
                Some(_) => return Ok(None),
            };
            *dom = (z, t);
        }
        let mut counts = [0usize; MOST];
        let (mut n, mut ending) = (0, None);
        for (i, o) in plan.options.iter().enumerate() {
            let count = match o.count {
                PickCount::One => 1,
                // A zone's list holds each of its cards once: its length is the count.
                PickCount::Cards { .. } => {
                    let (z, left_out) = doms[i];
                    let held = self.board.zones[z as usize].len();
                    match left_out {
                        Some(t) if self.board.sets[z as usize].contains(t) => held - 1,
                        _ => held,
                    }
                }
                // The guard's fast forms first, as `guard_holds` asks them.
                PickCount::Hand(h) => match self.hand_guard(p, &h, base) {
                    Some(b) => usize::from(b),
                    None => usize::from(self.guard_holds(p, &d.options[i], base, at)?),
                },
                PickCount::Quick(c) => match self.quick_holds(&c, base) {
                    Some(h) => usize::from(h),
                    None => usize::from(self.guard_holds(p, &d.options[i], base, at)?),
                },
                PickCount::Guard => usize::from(self.guard_holds(p, &d.options[i], base, at)?),
            };
            if o.ends && ending.is_none() && count > 0 {
                ending = Some(n);
            }
            counts[i] = count;
            n += count;
        }
        let k = match n {
            0 => return Err(no_move(seat, d)),
            1 => 0,
            n => pk.pick(seat, n, ending).min(n - 1),
        };
        // The option holding move `k`, and its card: the moves are listed option by
        // option, a zone's cards in card order.
        let (mut option, mut rest) = (0, k);
        while rest >= counts[option] {
            rest -= counts[option];
            option += 1;
        }
        let arg = match plan.options[option].count {
            PickCount::Cards { .. } => {
                let (z, left_out) = doms[option];
                let mut set = self.board.sets[z as usize];
                if let Some(t) = left_out {
                    set.remove(t);
                }
                match set.nth(rest) {
                    Some(c) => Value::Card(c),
                    None => {
                        return Err(RuntimeError::new(
                            "internal: a counted move is missing",
                            d.loc,
                        ))
                    }
                }
            }
            _ => Value::Unit,
        };
        if self.count_decision() {
            return Err(self.runaway(d));
        }
        self.start_option(d, base, seat, option as u16, arg);
        Ok(Some(n > 1))
    }

    /// Counts a decision taken, in the game and in the round; true when the game is
    /// then past a limit: its decisions, the round's decisions, or the round's work
    /// (see [`State::runaway`]). Always inlined: both ways of taking a move ask it.
    #[inline(always)]
    fn count_decision(&mut self) -> bool {
        self.decisions += 1;
        self.round_decisions += 1;
        self.decisions > self.decision_limit
            || self.round_decisions > ROUND_DECISION_LIMIT
            || self.steps_left == 0
    }

    /// The error of a game past one of the limits [`State::count_decision`] checks.
    fn runaway(&self, d: &Decide) -> RuntimeError {
        if self.steps_left == 0 {
            return super::exec::over_budget(d.loc);
        }
        if self.round_decisions > ROUND_DECISION_LIMIT {
            return RuntimeError::new(
                format!("the round passed {ROUND_DECISION_LIMIT} decisions without an outcome"),
                d.loc,
            )
            .with_help("each round should end in `outcome`; check that this decision's loop ends");
        }
        RuntimeError::new(
            format!(
                "the game passed {} decisions without ending",
                self.decision_limit
            ),
            d.loc,
        )
        .with_help("check that rounds and the match end")
    }

    /// A `choose`: its seat with its moves, the one entry of the decision's seat list.
    fn offer_one(
        &mut self,
        p: &Program,
        d: &Decide,
        base: usize,
        at: Loc,
    ) -> Result<Vec<SeatMoves>, RuntimeError> {
        let s = match self.seat_here(&d.who, base) {
            Some(s) => s,
            None => with_cx(
                p,
                &self.board,
                &mut self.locals[base..],
                at,
                &mut self.steps_left,
                |cx| cx.eval_seat(&d.who),
            )?,
        };
        let mut seats = self.spare.seats.pop().unwrap_or_default();
        self.seat_entry(&mut seats, 0, s);
        self.moves_for(p, d, base, at, &mut seats[0])?;
        if seats[0].moves.is_empty() {
            return Err(no_move(s, d));
        }
        self.keep_entries(&mut seats, 1);
        Ok(seats)
    }

    /// A `choose each` or a claim window: every asked seat with its moves, or in a claim
    /// window only the seats with a claim, pass first. A window no seat can claim in
    /// (most turns) returns an empty list, allocated only if a seat's claim was looked
    /// at in full.
    fn offer_each(
        &mut self,
        p: &Program,
        d: &Decide,
        base: usize,
        at: Loc,
    ) -> Result<Vec<SeatMoves>, RuntimeError> {
        let claim = d.kind == DecideKind::Claim;
        let asked = self.asked_seats(p, &d.who, base, at)?;
        let mut seats = Vec::new();
        let mut n = 0;
        for k in 0..asked.len() {
            let s = asked.at(k);
            // A claim whose every move is a score guard on the seat's hand is passed
            // over at once when no hand can fit (most seats, most turns).
            if claim && self.no_claim_fits(p, d, base, s) {
                continue;
            }
            if seats.capacity() == 0 {
                seats = self.spare.seats.pop().unwrap_or_default();
            }
            self.seat_entry(&mut seats, n, s);
            let sm = &mut seats[n];
            self.moves_for(p, d, base, at, sm)?;
            if claim {
                // A seat without a claim leaves its entry to the next seat.
                if sm.moves.is_empty() {
                    continue;
                }
                sm.moves.insert(
                    0,
                    Move {
                        option: PASS,
                        arg: Value::Unit,
                    },
                );
                sm.first_ending = sm.first_ending.map(|i| i + 1);
            } else if sm.moves.is_empty() {
                return Err(no_move(s, d));
            }
            n += 1;
        }
        self.keep_entries(&mut seats, n);
        Ok(seats)
    }

    /// Makes entry `k` of a seat list being filled (`k <= seats.len()`) an empty one
    /// for seat `seat`. A seat list kept from an earlier decision keeps its entries with
    /// their emptied move lists (see [`State::recycle`]), so most decisions reuse both
    /// without taking them apart and putting them back.
    fn seat_entry(&mut self, seats: &mut Vec<SeatMoves>, k: usize, seat: u8) {
        match seats.get_mut(k) {
            Some(sm) => {
                debug_assert!(sm.moves.is_empty(), "a kept entry's moves are emptied");
                sm.seat = seat;
                sm.first_ending = None;
            }
            None => seats.push(SeatMoves {
                seat,
                moves: self.spare.moves.pop().unwrap_or_default(),
                first_ending: None,
            }),
        }
    }

    /// Cuts a filled seat list to its first `n` entries, keeping the (empty) move lists
    /// of the rest for later decisions.
    fn keep_entries(&mut self, seats: &mut Vec<SeatMoves>, n: usize) {
        while seats.len() > n {
            let sm = seats.pop().expect("an entry past n");
            self.spare.keep_moves(sm.moves);
        }
    }

    /// The seats a `choose each` or claim window asks, in order; `others(s)` and
    /// `seats()` are listed without building a list value.
    fn asked_seats(
        &mut self,
        p: &Program,
        who: &Expr,
        base: usize,
        at: Loc,
    ) -> Result<SeatList, RuntimeError> {
        let n = self.board.seats;
        let dealer = self.board.dealer;
        let ring = |first: u8, skip_first: bool| SeatList::Ring {
            first: (first + u8::from(skip_first)) % n.max(1),
            count: n - u8::from(skip_first).min(n),
            n,
        };
        match who {
            Expr::Call(Builtin::Others, args, loc) if args.len() == 1 => {
                let s = match self.seat_here(&args[0], base) {
                    Some(s) => s,
                    None => with_cx(
                        p,
                        &self.board,
                        &mut self.locals[base..],
                        *loc,
                        &mut self.steps_left,
                        |cx| cx.eval_seat(&args[0]),
                    )?,
                };
                Ok(ring(s, true))
            }
            Expr::Call(Builtin::Seats, args, _) if args.is_empty() => Ok(ring(dealer, false)),
            _ => {
                let v = self.value_of(p, base, who, at)?;
                Ok(SeatList::List(seat_list(&v, n, at)?))
            }
        }
    }

    /// Starts a taken move: binds the deciding seat and the move's argument and jumps
    /// to the option's body. Always inlined: a taken move's whole work is a binding or
    /// two, which a call's register saves cost as much as.
    #[inline(always)]
    pub(super) fn start_option(
        &mut self,
        d: &Decide,
        base: usize,
        seat: u8,
        option: u16,
        arg: Value,
    ) {
        if let Some(s) = d.seat_slot {
            self.set_local(base, s, Value::Seat(seat));
        }
        let o = &d.options[option as usize];
        if let Some((slot, _)) = &o.param {
            self.set_local(base, *slot, arg);
        }
        self.jump(o.body);
    }

    /// The end of a taken option's body: the next move queued by the same decision
    /// (`choose each`) starts, or the rules go on after the decision.
    pub(super) fn option_done(
        &mut self,
        p: &Program,
        decide: u32,
        base: usize,
        at: Loc,
    ) -> Result<(), RuntimeError> {
        let d = self.decision_at(p, decide, at)?;
        // Only moves queued by this decision run next; a decision nested in an option
        // body has its own entries above these.
        let frame = self.frames.last_mut().expect("frame");
        let next = match frame.queue.last() {
            Some((.., owner)) if *owner == decide => frame.queue.pop(),
            _ => None,
        };
        self.start_or_leave(d, base, next);
        Ok(())
    }

    /// `decline` in a claim's body: the claim window at code index `decide` goes to its
    /// next claim (priority, then the seats' order), or ends when none is left.
    pub(super) fn decline(
        &mut self,
        p: &Program,
        decide: u32,
        base: usize,
        at: Loc,
    ) -> Result<(), RuntimeError> {
        let d = self.decision_at(p, decide, at)?;
        let frame = self.frames.last_mut().expect("frame");
        let next = frame
            .declined
            .iter()
            .rposition(|e| e.3 == decide)
            .map(|i| frame.declined.remove(i));
        self.start_or_leave(d, base, next);
        Ok(())
    }

    /// The decision at code index `decide` of the running frame.
    fn decision_at<'p>(
        &self,
        p: &'p Program,
        decide: u32,
        at: Loc,
    ) -> Result<&'p Decide, RuntimeError> {
        let (code, _) = body(p, self.frames.last().expect("frame").code);
        match code.get(decide as usize) {
            Some(Op::Decide(d)) => Ok(d),
            _ => Err(RuntimeError::new(
                "internal: a move without its decision",
                at,
            )),
        }
    }

    /// Starts the move `next` of decision `d` (seat, option, argument), or goes on after
    /// the decision when there is none.
    fn start_or_leave(&mut self, d: &Decide, base: usize, next: Option<(u8, u16, Value, u32)>) {
        match next {
            Some((seat, option, arg, _)) => self.start_option(d, base, seat, option, arg),
            None => self.jump(d.after),
        }
    }

    /// Takes the players' choices for the waiting decision: one index into each asked
    /// seat's moves, in the order of `pending().seats`.
    pub fn apply(&mut self, p: &Program, choices: &[usize]) -> Result<(), RuntimeError> {
        self.apply_inner(p, choices)
    }

    /// Takes a decision and plays on to the next one, as [`State::apply`] then
    /// [`State::advance`] do, or changes nothing: when either fails (an unfitting
    /// choice, a limit, a rule's `require` or error on the way), the game is left
    /// exactly as it was, the decision still waiting, so that a person can be shown the
    /// table and the error. It costs a copy of the game, so simulations, which drop a
    /// failed game, take the two steps themselves.
    pub fn take_move(&mut self, p: &Program, choices: &[usize]) -> Result<bool, RuntimeError> {
        let before = self.clone();
        let result = self.apply_inner(p, choices).and_then(|()| self.advance(p));
        if result.is_err() {
            *self = before;
        }
        result
    }

    /// Everything of the game in progress but the lists kept for reuse, as text: two
    /// states with the same text are the same game at the same point. For tests that a
    /// refused step changed nothing.
    pub fn fingerprint(&self) -> String {
        format!(
            "{:?}",
            (
                &self.board,
                &self.frames,
                &self.locals,
                &self.pending,
                &self.events,
                (self.decisions, self.decision_limit, self.round_decisions),
                (self.steps_left, self.game_steps_left),
                &self.answers,
                self.keep_log,
            )
        )
    }

    fn apply_inner(&mut self, p: &Program, choices: &[usize]) -> Result<(), RuntimeError> {
        let Some(mut pending) = self.pending.take() else {
            return Err(RuntimeError::new("no decision is waiting", Loc::default()));
        };
        let frame = self.frames.last().expect("a decision lives in a frame");
        let base = frame.base as usize;
        let (code, _) = body(p, frame.code);
        let Some(Op::Decide(d)) = code.get(pending.at as usize) else {
            return Err(RuntimeError::new("internal: decision lost", Loc::default()));
        };
        if choices.len() != pending.seats.len()
            || choices
                .iter()
                .zip(&pending.seats)
                .any(|(c, s)| *c >= s.moves.len())
        {
            let err = RuntimeError::new("those choices do not fit the decision", d.loc);
            self.pending = Some(pending);
            return Err(err);
        }
        if self.count_decision() {
            // Refused like an unfitting choice: the decision still waits, and the
            // counts are as they were.
            let err = self.runaway(d);
            self.decisions -= 1;
            self.round_decisions -= 1;
            self.pending = Some(pending);
            return Err(err);
        }
        match pending.kind {
            DecideKind::One => {
                let sm = &mut pending.seats[0];
                let m = &mut sm.moves[choices[0]];
                // The list is emptied below: the argument is moved out, not copied.
                let arg = std::mem::replace(&mut m.arg, Value::Unit);
                self.start_option(d, base, sm.seat, m.option, arg);
            }
            DecideKind::Each => {
                let mut queue: Vec<(u8, u16, Value, u32)> = pending
                    .seats
                    .iter()
                    .zip(choices)
                    .map(|(s, c)| {
                        (
                            s.seat,
                            s.moves[*c].option,
                            s.moves[*c].arg.clone(),
                            pending.at,
                        )
                    })
                    .collect();
                queue.reverse();
                let (seat, option, arg, _) = queue.pop().expect("at least one seat");
                // Entries left by an earlier run of this decision (a `break` out of its
                // body) are stale; the new entries go on top of any outer decision's.
                let frame = self.frames.last_mut().expect("frame");
                frame.queue.retain(|e| e.3 != pending.at);
                frame.queue.extend(queue);
                self.start_option(d, base, seat, option, arg);
            }
            DecideKind::Claim => {
                // Every claim made, for `claimed(…)` in the winning claim's body and after.
                self.board.claims.clear();
                for (s, c) in pending.seats.iter().zip(choices) {
                    let m = &s.moves[*c];
                    if let Some(o) = d
                        .options
                        .get(m.option as usize)
                        .filter(|_| m.option != PASS)
                    {
                        self.board.claims.push((s.seat, o.name_id));
                    }
                }
                if !d.declines {
                    // The first claim of the highest priority wins; nothing else is kept.
                    let mut best: Option<(i64, u8, &Move)> = None;
                    for (s, c) in pending.seats.iter().zip(choices) {
                        let m = &s.moves[*c];
                        if m.option == PASS {
                            continue;
                        }
                        let pr = d.options[m.option as usize].priority;
                        if best.is_none_or(|(bp, ..)| pr > bp) {
                            best = Some((pr, s.seat, m));
                        }
                    }
                    match best {
                        Some((_, seat, m)) => {
                            self.start_option(d, base, seat, m.option, m.arg.clone())
                        }
                        None => self.jump(d.after),
                    }
                } else {
                    // The claims in the order they win, priority then the seats' order;
                    // those after the first wait in the frame for a `decline`.
                    let mut order: Vec<(i64, u8, &Move)> = pending
                        .seats
                        .iter()
                        .zip(choices)
                        .map(|(s, c)| (s.seat, &s.moves[*c]))
                        .filter(|(_, m)| m.option != PASS)
                        .map(|(seat, m)| (d.options[m.option as usize].priority, seat, m))
                        .collect();
                    order.sort_by_key(|(pr, ..)| std::cmp::Reverse(*pr));
                    let frame = self.frames.last_mut().expect("frame");
                    let at = pending.at;
                    frame.declined.retain(|e| e.3 != at);
                    frame.declined.extend(
                        order
                            .iter()
                            .skip(1)
                            .rev()
                            .map(|(_, seat, m)| (*seat, m.option, m.arg.clone(), at)),
                    );
                    match order.first() {
                        Some((_, seat, m)) => {
                            self.start_option(d, base, *seat, m.option, m.arg.clone())
                        }
                        None => self.jump(d.after),
                    }
                }
            }
        }
        self.recycle(pending);
        Ok(())
    }

    /// Keeps a taken decision's lists for the next decisions: the seat list whole, its
    /// entries' move lists emptied in place.
    fn recycle(&mut self, pending: Pending) {
        let mut seats = pending.seats;
        for sm in &mut seats {
            sm.moves.clear();
        }
        self.spare.keep_seats(seats);
    }

    /// The decision waiting, if any.
    pub fn pending(&self) -> Option<&Pending> {
        self.pending.as_ref()
    }

    /// The code of the frame a pending decision belongs to (for describing moves).
    pub fn pending_code<'p>(&self, p: &'p Program) -> &'p [Op] {
        match self.frames.last() {
            Some(f) => body(p, f.code).0,
            None => &[],
        }
    }
}

/// The error of a decision that offers `seat` no move at all.
fn no_move(seat: u8, d: &Decide) -> RuntimeError {
    RuntimeError::new(format!("seat {seat} has no legal move here"), d.loc)
        .with_help("every decision needs at least one move whose guard holds")
}

/// One move of option `option` per card of `set`, in card order. A word of the set at
/// a time, each word's moves written as one extend of known length (no capacity test
/// per card): most decisions offer a hand card by card. Empty words are skipped before
/// their cards are counted, which without a popcount instruction costs a dozen steps.
fn push_card_moves(out: &mut Vec<Move>, option: u16, set: CardSet) {
    for (k, &word) in set.0.iter().enumerate() {
        if word == 0 {
            continue;
        }
        let mut w = word;
        out.extend((0..word.count_ones()).map(|_| {
            let c = k as u16 * 64 + w.trailing_zeros() as u16;
            w &= w - 1;
            Move {
                option,
                arg: Value::Card(c),
            }
        }));
    }
}

/// The card a guard `d != t` leaves out of a move over cards `d`, when `t`
/// ([`OptionDef::left_out`](crate::ir::OptionDef::left_out)) is a local holding a card:
/// the most common guard on a discard is answered without an evaluation context (the
/// same set `Cx::cards_where` works out). `None` for any other guard, and when the fast
/// paths are off (`Board::quicken`).
fn card_left_out(b: &Board, left_out: Option<u16>, locals: &[Value]) -> Option<CardIx> {
    if !b.quicken {
        return None;
    }
    match locals.get(left_out? as usize)? {
        Value::Card(t) => Some(*t),
        _ => None,
    }
}
