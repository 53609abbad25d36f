//! Decisions in the machine: a `choose` counts each option's moves and asks its
//! player for an index (as `engine::State::pick_one` does), and a claim window asks each
//! seat that can claim, in order, exactly as a listed decision asks the same players.
//! Guards are read off the board where they can be (hand guards through the fit sums
//! and the table's plans) and run as code otherwise.

use crate::agents::AutoPlayers;
use crate::model::CardSet;
use crate::value::Value;

use super::image::{CardGuard, Count, Guard, PickOption, Plus};
use super::machine::{Exit, Machine, Stop};

/// The most options a decision the machine takes may have.
pub(super) const MOST_OPTIONS: usize = 16;

/// The most options over cards or values a `choose` the machine takes may have (the
/// bundled climbing game's plays have seven).
pub(super) const CARD_OPTIONS: usize = 8;

impl Machine<'_> {
    /// A `choose`: where the rules go on (the taken option's body). (One of the usual
    /// shape is taken by [`Machine::pick_quick`] instead.)
    #[inline(never)]
    pub(super) fn pick(&mut self, k: u16, players: &mut AutoPlayers<'_>) -> Result<u32, Stop> {
        let im = self.im;
        let d = &im.picks[k as usize];
        let seat = self.seat_of(self.num(d.who)?)? as u8;
        if let Some(r) = d.seat_reg {
            self.n[r as usize] = seat as i64;
        }
        // Each option's moves, counted in option order as the engine asks its guards
        // (two options of the usual kinds are `quick.rs`'s).
        let mut counts = [0u16; MOST_OPTIONS];
        // The allowed cards of each card option, and the allowed values (their places
        // in the domain) of each option over values: at most `CARD_OPTIONS` of them.
        let mut cards = [CardSet::EMPTY; CARD_OPTIONS];
        let mut values: [Vec<u32>; CARD_OPTIONS] = Default::default();
        let mut card_options = 0;
        let (mut n, mut ending) = (0usize, None);
        for (i, o) in d.options.iter().enumerate() {
            let count = match &o.count {
                Count::Values { of, param, guard } => {
                    let list = values.get_mut(card_options).ok_or(Stop::Internal)?;
                    self.allowed_values(*of, *param, guard.as_ref(), players, list)?;
                    card_options += 1;
                    list.len()
                }
                _ => {
                    let (count, allowed) = self.count(o, players)?;
                    if matches!(o.count, Count::Cards { .. }) {
                        *cards.get_mut(card_options).ok_or(Stop::Internal)? = allowed;
                        card_options += 1;
                    }
                    count
                }
            };
            if o.ends && ending.is_none() && count > 0 {
                ending = Some(n);
            }
            counts[i] = count as u16;
            n += count;
        }
        let k = self.choose_among(seat, n, ending, players)?;
        let (mut option, mut rest, mut card_option) = (0, k, 0);
        while rest >= counts[option] as usize {
            rest -= counts[option] as usize;
            if !matches!(d.options[option].count, Count::One(_)) {
                card_option += 1;
            }
            option += 1;
        }
        let o = &d.options[option];
        match o.count {
            Count::Cards { .. } => self.take(o, cards[card_option], rest),
            Count::One(_) => self.take(o, CardSet::EMPTY, rest),
            Count::Values { of, param, .. } => {
                let place = values[card_option].get(rest).ok_or(Stop::Internal)?;
                let v = self.domain_value(of, *place as usize)?;
                self.bind_value(param, &v)?;
                Ok(o.body)
            }
        }
    }

    /// The places in the domain (a list or a range, in register `of`) of the values
    /// whose guard holds, each bound to `param` in turn as the engine offers them.
    fn allowed_values(
        &mut self,
        of: super::ins::Reg,
        param: super::image::SlotReg,
        guard: Option<&Guard>,
        players: &mut AutoPlayers<'_>,
        out: &mut Vec<u32>,
    ) -> Result<(), Stop> {
        out.clear();
        let len = match self.o.get(self.ob + of as usize).ok_or(Stop::Internal)? {
            Value::List(items) => items.len(),
            Value::Cards(s) => s.len(),
            Value::Zone(z) => self.board.sets.get(*z as usize).ok_or(Stop::Value)?.len(),
            // As the engine: a range of more than 10,000 numbers is an error (which
            // the engine, playing the game again, reports).
            Value::Range(a, b) if b.saturating_sub(*a) <= 10_000 => (b - a + 1).max(0) as usize,
            _ => return Err(Stop::Value),
        };
        for i in 0..len {
            let v = self.domain_value(of, i)?;
            self.bind_value(param, &v)?;
            let holds = match guard {
                None => true,
                Some(g) => self.guard(g, players)?,
            };
            if holds {
                out.push(i as u32);
            }
        }
        Ok(())
    }

    /// The value at place `i` of the domain in register `of`.
    fn domain_value(&self, of: super::ins::Reg, i: usize) -> Result<Value, Stop> {
        match self.o.get(self.ob + of as usize).ok_or(Stop::Internal)? {
            Value::List(items) => items.get(i).cloned().ok_or(Stop::Internal),
            Value::Range(a, _) => Ok(Value::Int(a + i as i64)),
            // Cards in card order, as the engine offers a set's or a zone's.
            Value::Cards(s) => s.nth(i).map(Value::Card).ok_or(Stop::Internal),
            Value::Zone(z) => {
                let s = self.board.sets.get(*z as usize).ok_or(Stop::Value)?;
                s.nth(i).map(Value::Card).ok_or(Stop::Internal)
            }
            _ => Err(Stop::Value),
        }
    }

    /// Binds a move's value to its register.
    fn bind_value(&mut self, param: super::image::SlotReg, v: &Value) -> Result<(), Stop> {
        use super::image::SlotReg;
        match param {
            SlotReg::Num(r, _) => {
                self.n[r as usize] = crate::engine::scalar_of(v).ok_or(Stop::Value)?;
            }
            SlotReg::Set(r) => {
                self.s[(r & super::machine::SET_MASK) as usize] = match v {
                    Value::Cards(s) => *s,
                    Value::Card(c) => CardSet::single(*c),
                    _ => return Err(Stop::Value),
                }
            }
            SlotReg::Obj(r) => {
                *self.o.get_mut(self.ob + r as usize).ok_or(Stop::Internal)? = v.clone();
            }
            SlotReg::Hidden => return Err(Stop::Internal),
        }
        Ok(())
    }

    /// How many moves an option offers, and for an option over cards, which cards.
    #[inline(always)]
    fn count(
        &mut self,
        o: &PickOption,
        players: &mut AutoPlayers<'_>,
    ) -> Result<(usize, CardSet), Stop> {
        Ok(match &o.count {
            Count::One(None) => (1, CardSet::EMPTY),
            // A comparison is a few instructions: answered here, not through a call.
            Count::One(Some(Guard::Cond(c))) => (usize::from(self.holds(*c)?), CardSet::EMPTY),
            Count::One(Some(g)) => (usize::from(self.guard(g, players)?), CardSet::EMPTY),
            Count::Values { .. } => return Err(Stop::Internal),
            Count::Cards { of, param, guard } => {
                let set = self.set(*of)?;
                let allowed = match guard {
                    CardGuard::All => set,
                    CardGuard::AllBut(t) => set.minus(CardSet::single(self.card_in(*t)?)),
                    CardGuard::In(s) => set.inter(self.set(*s)?),
                    CardGuard::Each(g) => {
                        let mut ok = CardSet::EMPTY;
                        for c in set.iter() {
                            self.n[*param as usize] = c as i64;
                            if self.guard(g, players)? {
                                ok.insert(c);
                            }
                        }
                        ok
                    }
                };
                (allowed.len(), allowed)
            }
        })
    }

    /// The index of the move `seat` takes among `n` (the first that may end the round
    /// being `ending`): none to take stops the game, one is taken, and among several
    /// the player chooses. Either way the decision is counted.
    #[inline(always)]
    pub(super) fn choose_among(
        &mut self,
        seat: u8,
        n: usize,
        ending: impl crate::agents::Ending,
        players: &mut AutoPlayers<'_>,
    ) -> Result<usize, Stop> {
        let mut steps = self.steps;
        let k = self.choose_counted(&mut steps, seat, n, ending, players);
        self.steps = steps;
        k
    }

    /// [`Machine::choose_among`] with the instructions since the last decision in
    /// `steps` (a caller's local) rather than in the machine: reset when a player
    /// chooses, and counted against the round's budget as [`Machine::chosen`] and
    /// [`Machine::count_decision`] count them.
    #[inline(always)]
    pub(super) fn choose_counted(
        &mut self,
        steps: &mut u64,
        seat: u8,
        n: usize,
        ending: impl crate::agents::Ending,
        players: &mut AutoPlayers<'_>,
    ) -> Result<usize, Stop> {
        let k = match n {
            0 => return Err(Stop::NoMove),
            1 => 0,
            n => {
                // A move chosen among several: the engine returns to its caller here,
                // which reads the chips.
                self.boundary()?;
                // The player itself: `last`, which the engine reads back from a
                // pick, means nothing here.
                let k = players.seat(seat).pick_with(n, ending).min(n - 1);
                self.round_steps += *steps;
                *steps = 0;
                k
            }
        };
        self.decisions += 1;
        if self.decisions > self.decision_stop || self.round_steps + *steps >= self.run_stop {
            return Err(Stop::Limit);
        }
        Ok(k)
    }

    /// Takes move `rest` of option `o` (its card, the `rest`-th of `allowed`): binds
    /// the card; where the option's body starts.
    #[inline(always)]
    fn take(&mut self, o: &PickOption, allowed: CardSet, rest: usize) -> Result<u32, Stop> {
        if let Count::Cards { param, .. } = o.count {
            let c = allowed.nth(rest).ok_or(Stop::Internal)?;
            self.n[param as usize] = c as i64;
        }
        Ok(o.body)
    }

    /// A claim window: the taken claim's body, or where the rules go on when nobody
    /// claims (`None`: the same place, the window's end). (One of the usual shape is
    /// taken by [`Machine::claim_quick`] instead.)
    #[inline(never)]
    pub(super) fn claim(
        &mut self,
        k: u16,
        players: &mut AutoPlayers<'_>,
    ) -> Result<Option<u32>, Stop> {
        let im = self.im;
        let d = &im.claims[k as usize];
        let n = self.board.seats;
        let bind = d.seat_reg as usize;
        // The seats asked: round the table from one, or a list the rules made.
        let (first, asked, list) = self.seat_run(d.who)?;
        let mut claimants = std::mem::take(&mut self.claimants);
        claimants.clear();
        self.claim_moves.clear();
        for i in 0..asked {
            let seat = match &list {
                Some(l) => l[i as usize],
                None => {
                    let k = first + i;
                    if k >= n {
                        k - n
                    } else {
                        k
                    }
                }
            };
            self.n[bind] = seat as i64;
            // The seat's moves: a pass first, then each option's whose guard holds.
            let (moves, first_ending, start) = self.seat_moves(d, 1, players)?;
            if moves > 1 {
                claimants.push((seat, moves, first_ending, start));
            } else {
                self.claim_moves.truncate(start as usize);
            }
        }
        self.settle_claim(k, d, claimants, players)
    }

    /// The end of a claim window once every asked seat's claims are known: nobody can
    /// claim (the rules go on after it), or each claimant chooses and the highest
    /// claim, the first asked among equals, is taken.
    fn settle_claim(
        &mut self,
        k: u16,
        d: &super::image::ClaimDef,
        claimants: Vec<(u8, usize, Option<usize>, u32)>,
        players: &mut AutoPlayers<'_>,
    ) -> Result<Option<u32>, Stop> {
        let bind = d.seat_reg as usize;
        if claimants.is_empty() {
            // A window nobody could claim in is the last one taken, with no claims.
            if self.im.reads_claims {
                self.board.claims.clear();
            }
            self.claimants = claimants;
            return Ok(Some(d.after));
        }
        // The engine lists this decision and returns to its caller, which reads the
        // chips and asks each claimant in turn.
        self.boundary()?;
        self.chosen()?;
        let mut best: Option<(i64, u8, usize)> = None;
        // Every claim made, in the order asked: the priority and seat of each, and its
        // move's place in `claim_moves`.
        let mut made: Vec<(i64, u8, usize)> = Vec::new();
        if self.im.reads_claims {
            self.board.claims.clear();
        }
        for &(seat, moves, first_ending, start) in &claimants {
            let k = players.seat(seat).pick(moves, first_ending).min(moves - 1);
            if k == 0 {
                continue;
            }
            // The k-th move after the pass.
            let m = start as usize + k - 1;
            let option = self.claim_moves.get(m).ok_or(Stop::Internal)?.0 as usize;
            let pr = d.options[option].priority;
            if self.im.reads_claims {
                self.board.claims.push((seat, d.options[option].name));
            }
            if d.declines {
                made.push((pr, seat, m));
            }
            if best.is_none_or(|(bp, ..)| pr > bp) {
                best = Some((pr, seat, m));
            }
        }
        self.claimants = claimants;
        if d.declines {
            // The claims in the order they win, priority then the order asked; those
            // after the first wait for a `decline` in its body.
            made.sort_by_key(|(pr, ..)| std::cmp::Reverse(*pr));
            let depth = self.depth();
            self.declined.retain(|e| !(e.0 == depth && e.1 == k));
            for &(_, seat, m) in made.iter().skip(1).rev() {
                let (option, v) = self.claim_moves.get(m).ok_or(Stop::Internal)?.clone();
                self.declined.push((depth, k, seat, option, v));
            }
        }
        Ok(Some(match best {
            Some((_, seat, m)) => {
                self.n[bind] = seat as i64;
                let (option, v) = self.claim_moves.get(m).ok_or(Stop::Internal)?.clone();
                let o = &d.options[option as usize];
                if let Some(arg) = o.arg {
                    self.bind_value(arg.param, &v)?;
                }
                o.body
            }
            None => d.after,
        }))
    }

    /// `decline` in a claim's body of window `k`: the next claim it kept starts (its
    /// seat and value bound), or the rules go on after the window.
    pub(super) fn decline(&mut self, k: u16) -> Result<u32, Stop> {
        let im = self.im;
        let d = im.claims.get(k as usize).ok_or(Stop::Internal)?;
        let depth = self.depth();
        let next = self
            .declined
            .iter()
            .rposition(|e| e.0 == depth && e.1 == k)
            .map(|i| self.declined.remove(i));
        match next {
            Some((_, _, seat, option, v)) => {
                self.n[d.seat_reg as usize] = seat as i64;
                let o = d.options.get(option as usize).ok_or(Stop::Internal)?;
                if let Some(arg) = o.arg {
                    self.bind_value(arg.param, &v)?;
                }
                Ok(o.body)
            }
            None => Ok(d.after),
        }
    }

    /// A `choose each`: every asked seat's moves, each seat's choice (none asked when
    /// every seat has one move, as the engine takes such a decision at once), and the
    /// first seat's move started; the others wait, in seat order, for
    /// [`Machine::each_done`]. Where the rules go on.
    pub(super) fn each(&mut self, k: u16, players: &mut AutoPlayers<'_>) -> Result<u32, Stop> {
        let im = self.im;
        let d = &im.claims[k as usize];
        let bind = d.seat_reg as usize;
        let seats = self.seat_list(d.who)?;
        let mut asked = std::mem::take(&mut self.claimants);
        asked.clear();
        self.claim_moves.clear();
        for &seat in &seats {
            self.n[bind] = seat as i64;
            let (moves, first_ending, start) = self.seat_moves(d, 0, players)?;
            if moves == 0 {
                self.claimants = asked;
                return Err(Stop::NoMove);
            }
            asked.push((seat, moves, first_ending, start));
        }
        let forced = asked.iter().all(|a| a.1 == 1);
        if forced {
            self.count_decision()?;
        } else {
            // The engine lists this decision and returns to its caller.
            self.boundary()?;
            self.chosen()?;
        }
        let depth = self.depth();
        // Waiting moves of an earlier run of this decision (left by a `break`) are stale.
        self.queue.retain(|e| !(e.0 == depth && e.1 == k));
        let mut first = None;
        let mut waiting = Vec::with_capacity(asked.len());
        for &(seat, moves, first_ending, start) in &asked {
            let pick = match forced {
                true => 0,
                false => players.seat(seat).pick(moves, first_ending).min(moves - 1),
            };
            let (option, v) = self
                .claim_moves
                .get(start as usize + pick)
                .ok_or(Stop::Internal)?
                .clone();
            match first {
                None => first = Some((seat, option, v)),
                Some(_) => waiting.push((depth, k, seat, option, v)),
            }
        }
        self.claimants = asked;
        // The next to start is the last entry.
        self.queue.extend(waiting.into_iter().rev());
        let (seat, option, v) = first.ok_or(Stop::NoMove)?;
        self.n[bind] = seat as i64;
        self.start_each_move(d, option, &v)
    }

    /// Binds a `choose each` move's value, if its option takes one: where its body
    /// starts.
    fn start_each_move(
        &mut self,
        d: &super::image::ClaimDef,
        option: u16,
        v: &Value,
    ) -> Result<u32, Stop> {
        let o = d.options.get(option as usize).ok_or(Stop::Internal)?;
        if let Some(arg) = o.arg {
            self.bind_value(arg.param, v)?;
        }
        Ok(o.body)
    }

    /// The end of a `choose each` option's body: the next waiting move of window `k`
    /// starts (its seat bound), or the rules go on after the decision.
    pub(super) fn each_done(&mut self, k: u16) -> Result<u32, Stop> {
        let im = self.im;
        let d = &im.claims[k as usize];
        let depth = self.depth();
        match self.queue.last() {
            Some(&(at, w, ..)) if at == depth && w == k => {
                let (_, _, seat, option, v) = self.queue.pop().ok_or(Stop::Internal)?;
                self.n[d.seat_reg as usize] = seat as i64;
                self.start_each_move(d, option, &v)
            }
            _ => Ok(d.after),
        }
    }

    /// The moves the seat bound to a window's register has: how many (counting from
    /// `pass`, 1 when a pass comes first), the first that may end the round, and which
    /// options' guards hold (bit per option).
    fn seat_moves(
        &mut self,
        d: &super::image::ClaimDef,
        pass: usize,
        players: &mut AutoPlayers<'_>,
    ) -> Result<(usize, Option<usize>, u32), Stop> {
        let start = self.claim_moves.len() as u32;
        let (mut moves, mut first_ending) = (pass, None);
        for (j, o) in d.options.iter().enumerate() {
            let before = moves;
            match o.arg {
                None => {
                    let ok = match &o.guard {
                        None => true,
                        Some(g) => self.guard(g, players)?,
                    };
                    if ok {
                        self.claim_moves.push((j as u16, Value::Unit));
                        moves += 1;
                    }
                }
                // One move per value of the domain (worked out for this seat) whose
                // guard holds, in the domain's order, as the engine offers them.
                Some(arg) => {
                    self.cold(arg.dom)?;
                    let mut places = std::mem::take(&mut self.value_places);
                    let listed = self.allowed_values(
                        arg.of,
                        arg.param,
                        o.guard.as_ref(),
                        players,
                        &mut places,
                    );
                    let pushed = listed.and_then(|()| {
                        for &i in &places {
                            let v = self.domain_value(arg.of, i as usize)?;
                            self.claim_moves.push((j as u16, v));
                        }
                        Ok(())
                    });
                    moves += places.len();
                    self.value_places = places;
                    pushed?;
                }
            }
            if o.ends && first_ending.is_none() && moves > before {
                first_ending = Some(before);
            }
        }
        Ok((moves, first_ending, start))
    }

    /// Whether a guard holds.
    #[inline(never)]
    fn guard(&mut self, g: &Guard, players: &mut AutoPlayers<'_>) -> Result<bool, Stop> {
        match *g {
            Guard::Cond(c) => self.holds(c),
            Guard::Code(id) => self.snippet(id, players),
            Guard::Hand(h, full) => match self.hand(h)? {
                Some(b) => Ok(b),
                None => self.snippet(full, players),
            },
        }
    }

    /// Runs a guard's code.
    pub(super) fn snippet(&mut self, id: u16, players: &mut AutoPlayers<'_>) -> Result<bool, Stop> {
        let pc = self.im.snippets[id as usize];
        match self.exec(pc, players)? {
            Exit::Yield(b) => Ok(b),
            Exit::End => Err(Stop::Internal),
        }
    }

    /// A hand guard read off the board, as the engine's `State::hand_guard`: false for
    /// a hand that cannot fit, the plans' answer for one that may when the guard is
    /// exact; `None`: evaluate the guard.
    #[inline(always)]
    pub(super) fn hand(&self, hi: u16) -> Result<Option<bool>, Stop> {
        let h = &self.im.hands[hi as usize];
        let b = &self.board;
        let zi = h.first as usize + self.seat_in(h.seat)?;
        let held = *b.sets.get(zi).ok_or(Stop::Value)?;
        let card = match h.plus {
            Some(Plus::Card(r)) => Some(self.card_in(r)?),
            _ => None,
        };
        let may_fit = match &h.fit {
            // The zone's running sum, plus the added card's weight when it is not
            // already in the hand.
            Some((table, track, tracks)) => {
                let mut sum = *b.fit_sums.get(zi * tracks + track).ok_or(Stop::Internal)?;
                let mut count = b.zones.held(zi);
                if let Some(c) = card.filter(|c| !held.contains(*c)) {
                    count += 1;
                    sum = sum.wrapping_add(table.weight(c as usize));
                }
                table.answer(sum, count)
            }
            None => match self.p.patterns.get(h.pattern as usize) {
                Some(pat) => crate::pattern::may_fit(pat, self.guard_hand(h, held, card)),
                None => return Ok(None),
            },
        };
        Ok(match may_fit {
            false => Some(false),
            true if h.exact => crate::score::pays(self.p, h.table, self.guard_hand(h, held, card)),
            true => None,
        })
    }

    /// The cards a hand guard asks about: the zone's, with what it adds.
    fn guard_hand(&self, h: &super::image::HandDef, held: CardSet, card: Option<u16>) -> CardSet {
        match (h.plus, card) {
            (Some(Plus::Set(r)), _) => held.union(self.s[(r & super::machine::SET_MASK) as usize]),
            (_, Some(c)) => held.union(CardSet::single(c)),
            _ => held,
        }
    }
}
