//! Taking the decisions `shapes.rs` resolved: a two-option `choose` (of the draw-or-take
//! and win-or-discard shapes, or any other two options) and a one-claim
//! hand-guarded window, with every operand already of one kind. Each asks exactly
//! what `decide.rs` asks of the same decision (the same guards in the same order, the
//! same players with the same number of moves), so the game is the same either way;
//! only the reading of operands is shorter.

use crate::agents::AutoPlayers;
use crate::ir::MOST_SEATS;
use crate::model::CardSet;

use super::image::HandFit;
use super::ins::Num;
use super::machine::{Machine, Stop};
use super::shapes::{OwnPick, QuickClaim, QuickCount, QuickPick, TakePick, TakeWhen};

impl Machine<'_> {
    /// A two-option `choose`: where the rules go on (the taken option's body).
    #[inline(never)]
    pub(super) fn pick_quick(
        &mut self,
        q: &QuickPick,
        players: &mut AutoPlayers<'_>,
    ) -> Result<u32, Stop> {
        let seat = self.decider(q.who, q.seat_reg)?;
        // Each option's moves, counted in option order as the engine asks its guards.
        let na = self.quick_count(&q.count[0], players)?;
        let nb = self.quick_count(&q.count[1], players)?;
        let k = self.choose_among(seat, na + nb, Ends(q.ends, na, nb), players)?;
        let (i, rest) = if k < na { (0, k) } else { (1, k - na) };
        if let QuickCount::Cards {
            first,
            seat,
            param,
            but,
        } = q.count[i]
        {
            // The board has not changed since the moves were counted.
            let c = self
                .quick_cards(first, seat, but)?
                .0
                .nth(rest)
                .ok_or(Stop::Internal)?;
            self.n[param as usize] = c as i64;
        }
        Ok(q.body[i])
    }

    /// A `choose` of one move always or another when a count or comparison holds
    /// (draw, or take): where the rules go on.
    #[inline(never)]
    pub(super) fn pick_take(&mut self, k: u16, players: &mut AutoPlayers<'_>) -> Result<u32, Stop> {
        let im = self.im;
        let q = im.take_picks.get(k as usize).ok_or(Stop::Internal)?;
        let seat = self.decider(q.who, q.seat_reg)?;
        let second = match q.when {
            TakeWhen::Count(z, holds) => holds.test(self.board.zones.held(z as usize) as i64),
            TakeWhen::Cond(c) => self.holds(c)?,
        };
        let mut steps = self.steps;
        let option = self.take_counted(&mut steps, q, seat, second, players);
        self.steps = steps;
        Ok(q.body[option?])
    }

    /// The pick `q` of [`Machine::pick_take`] for `seat` (read, and bound where the
    /// pick names a register), whose second option offers its move when `second`, with
    /// the instructions since the last decision in `steps` (see
    /// [`Machine::choose_counted`]): the option taken, 0 (draw) or 1 (take).
    #[inline(always)]
    pub(super) fn take_counted(
        &mut self,
        steps: &mut u64,
        q: &TakePick,
        seat: u8,
        second: bool,
        players: &mut AutoPlayers<'_>,
    ) -> Result<usize, Stop> {
        let nb = usize::from(second);
        let k = self.choose_counted(steps, seat, 1 + nb, Ends(q.ends, 1, nb), players)?;
        Ok(usize::from(k > 0))
    }

    /// A `choose` of a win on the decider's own hand or a card of that hand (declare,
    /// or discard): where the rules go on, the card bound when one is discarded.
    #[inline(never)]
    pub(super) fn pick_own(&mut self, k: u16, players: &mut AutoPlayers<'_>) -> Result<u32, Stop> {
        let im = self.im;
        let q = im.own_picks.get(k as usize).ok_or(Stop::Internal)?;
        let seat = self.decider(q.who, q.seat_reg)?;
        let mut steps = self.steps;
        let to = self.own_counted(&mut steps, q, seat, players);
        self.steps = steps;
        to
    }

    /// The pick `q` of [`Machine::pick_own`] for `seat` (read, and bound where the
    /// pick names a register), with the instructions since the last decision in `steps`
    /// (see [`Machine::choose_counted`]): where the rules go on.
    #[inline(always)]
    fn own_counted(
        &mut self,
        steps: &mut u64,
        q: &OwnPick,
        seat: u8,
        players: &mut AutoPlayers<'_>,
    ) -> Result<u32, Stop> {
        let (na, zi, nb) = self.own_hand(q, seat, steps, players)?;
        let k = self.choose_counted(steps, seat, na + nb, Ends(q.ends, na, nb), players)?;
        if k < na {
            return Ok(q.body[0]);
        }
        // The hand's cards are read only now that one of them is taken (the board has
        // not changed since they were counted): a four-word set read early is kept on
        // the stack across the player's choice, and most of its reads are not needed.
        let mut cards = *self.board.sets.get(zi).ok_or(Stop::Value)?;
        if let Some(t) = q.but {
            cards = cards.minus(CardSet::single(self.card_in(t)?));
        }
        let c = cards.nth(k - na).ok_or(Stop::Internal)?;
        self.n[q.param as usize] = c as i64;
        Ok(q.body[1])
    }

    /// The deciding seat in register `who`, checked, and bound to `seat_reg` when the
    /// decision names one.
    #[inline(always)]
    pub(super) fn decider(
        &mut self,
        who: super::ins::Reg,
        seat_reg: Option<super::ins::Reg>,
    ) -> Result<u8, Stop> {
        let seat = self.seat_in(who)? as u8;
        if let Some(r) = seat_reg {
            self.n[r as usize] = seat as i64;
        }
        Ok(seat)
    }

    /// A win guard on `seat`'s own hand and a card of it (an [`OwnPick`]): the win's
    /// moves (the guard as [`Machine::hand`] answers it, or its code), the hand's zone
    /// instance, and the number of cards offered, off the hand's count and sum (its
    /// cards are read only when the guard is asked, or a card taken).
    #[inline(always)]
    fn own_hand(
        &mut self,
        q: &OwnPick,
        seat: u8,
        steps: &mut u64,
        players: &mut AutoPlayers<'_>,
    ) -> Result<(usize, usize, usize), Stop> {
        let (table, track, tracks) = (&q.fit.table, q.fit.track, q.fit.tracks);
        let b = &self.board;
        let zi = q.fit.first as usize + seat as usize;
        if zi >= b.sets.len() {
            return Err(Stop::Value);
        }
        let count = b.zones.held(zi);
        let sum = *b.fit_sums.get(zi * tracks + track).ok_or(Stop::Internal)?;
        let wins = match table.answer(sum, count) {
            false => false,
            true => {
                // The guard's code, if run, counts its instructions in the machine.
                self.steps = *steps;
                let wins = self.judge(q.hand, q.full, b.sets[zi], Some(sum), players);
                *steps = self.steps;
                wins?
            }
        };
        // The card left out, if any, is offered only when the hand holds it.
        let n = match q.but {
            None => count,
            Some(t) => {
                let t = self.card_in(t)?;
                count.saturating_sub(usize::from(self.board.sets[zi].contains(t)))
            }
        };
        Ok((usize::from(wins), zi, n))
    }

    /// Whether hand guard `hand` holds on `cards`, a hand its fit table says may fit:
    /// by the table's plans when they answer, else by the guard's code `full`, which
    /// reads the board. `sum`: the hand's entry in the guard's fit table, when the
    /// caller has it (a running sum), so that it is not added up again.
    #[inline(never)]
    pub(super) fn judge(
        &mut self,
        hand: u16,
        full: u16,
        cards: CardSet,
        sum: Option<u32>,
        players: &mut AutoPlayers<'_>,
    ) -> Result<bool, Stop> {
        let h = self.im.hands.get(hand as usize).ok_or(Stop::Internal)?;
        if h.exact {
            let pays = match (&h.fit, sum) {
                (Some((table, ..)), Some(i)) => {
                    crate::score::pays_at(self.p, h.table, cards, table, i)
                }
                _ => crate::score::pays(self.p, h.table, cards),
            };
            if let Some(pays) = pays {
                return Ok(pays);
            }
        }
        self.snippet(full, players)
    }

    /// How many moves an option offers.
    #[inline(always)]
    fn quick_count(
        &mut self,
        c: &QuickCount,
        players: &mut AutoPlayers<'_>,
    ) -> Result<usize, Stop> {
        Ok(match c {
            QuickCount::Always => 1,
            QuickCount::Cond(c) => usize::from(self.holds(*c)?),
            QuickCount::Count(z, cmp, k) => {
                usize::from(cmp.test(self.board.zones.held(*z as usize) as i64, *k))
            }
            QuickCount::Hand(h, full) => usize::from(match self.hand(*h)? {
                Some(b) => b,
                None => self.snippet(*full, players)?,
            }),
            QuickCount::Cards {
                first, seat, but, ..
            } => self.quick_cards(*first, *seat, *but)?.1,
        })
    }

    /// The cards a card option offers (a zone instance's, but one if one is left out)
    /// and their number, read off the zone's list length (the list and the set hold the
    /// same cards) rather than counted in the set.
    #[inline(always)]
    fn quick_cards(
        &self,
        first: u16,
        seat: Option<super::ins::Reg>,
        but: Option<super::ins::Reg>,
    ) -> Result<(CardSet, usize), Stop> {
        let zi = first as usize
            + match seat {
                Some(r) => self.seat_in(r)?,
                None => 0,
            };
        let set = *self.board.sets.get(zi).ok_or(Stop::Value)?;
        self.all_but(set, self.board.zones.held(zi), but)
    }

    /// A zone's cards `set` (`held` of them) with the card in register `but` left out,
    /// if one is, and their number.
    #[inline(always)]
    fn all_but(
        &self,
        set: CardSet,
        held: usize,
        but: Option<super::ins::Reg>,
    ) -> Result<(CardSet, usize), Stop> {
        Ok(match but {
            None => (set, held),
            Some(t) => {
                let t = self.card_in(t)?;
                let inside = usize::from(set.contains(t));
                (set.minus(CardSet::single(t)), held.saturating_sub(inside))
            }
        })
    }

    /// A one-claim window on a hand guard: the claim's body, or where the rules go on.
    /// Each asked seat is first a sum and a count off the board; only a seat whose hand
    /// may fit is bound and judged (by the plans or the guard's code); then each seat
    /// that can claim is asked, in order, and the first that claims takes it. The
    /// bound register is left as it was when no seat may fit: nothing reads it after
    /// the window but the claim's own body, which a claimant's seat is bound for.
    #[inline(never)]
    pub(super) fn claim_quick(
        &mut self,
        q: &QuickClaim,
        players: &mut AutoPlayers<'_>,
    ) -> Result<u32, Stop> {
        let c = self.card_in(q.card)?;
        let at = *self.board.card_zone.get(c as usize).ok_or(Stop::Internal)? as usize;
        let (first, asked) = self.asked(q)?;
        let may = self.may_claim(&q.fit, c, at, first, asked)?;
        if may == 0 {
            return Ok(q.after);
        }
        self.claim_judged(q, c, first, asked, may, players)
    }

    /// The seats window `q` asks: the first, and how many (round the table from it).
    #[inline(always)]
    pub(super) fn asked(&self, q: &QuickClaim) -> Result<(u8, u8), Stop> {
        let n = self.board.seats;
        Ok(match q.others_of {
            None => (self.board.dealer, n),
            Some(s) => {
                // The usual `others(s)` names a register: read without a match on the
                // operand's kind.
                let s = match s {
                    Num::R(r) => self.seat_in(r)?,
                    s => self.seat_of(self.num(s)?)?,
                } as u8;
                (if s + 1 >= n { 0 } else { s + 1 }, n - 1)
            }
        })
    }

    /// Which of the `asked` seats from `first` on may fit with card `c` (now in
    /// instance `at`), from the running sums alone: bit `i` for the `i`-th asked. Mostly
    /// none, and the window is over without a store.
    #[inline(always)]
    fn may_claim(
        &self,
        fit: &HandFit,
        c: crate::model::CardIx,
        at: usize,
        first: u8,
        asked: u8,
    ) -> Result<u32, Stop> {
        let (table, track, tracks) = (&fit.table, fit.track, fit.tracks);
        let weight = table.weight(c as usize);
        let b = &self.board;
        let n = b.seats;
        let mut may = 0u32;
        // The asked seat's instance, stepped round the table with the seat.
        let (base, mut seat) = (fit.first as usize, first);
        for i in 0..asked {
            let zi = base + seat as usize;
            seat = if seat + 1 >= n { 0 } else { seat + 1 };
            let sum = *b.fit_sums.get(zi * tracks + track).ok_or(Stop::Internal)?;
            // The card counts once, whether or not the hand already holds it.
            let (sum, count) = match at == zi {
                true => (sum, b.zones.held(zi)),
                false => (sum.wrapping_add(weight), b.zones.held(zi) + 1),
            };
            may |= u32::from(table.answer(sum, count)) << i;
        }
        Ok(may)
    }

    /// The rest of [`Machine::claim_quick`] once some of the `asked` seats from `first`
    /// may fit with card `c` (bit `i` of `may` for the `i`-th asked): each of them
    /// judged (their hands read off the board), and those who can claim asked in turn.
    #[inline(never)]
    pub(super) fn claim_judged(
        &mut self,
        q: &QuickClaim,
        c: crate::model::CardIx,
        first: u8,
        asked: u8,
        may: u32,
        players: &mut AutoPlayers<'_>,
    ) -> Result<u32, Stop> {
        let n = self.board.seats;
        let bind = q.bind as usize;
        let mut claimants = [0u8; MOST_SEATS];
        let mut m = 0;
        for i in 0..asked {
            if may >> i & 1 == 0 {
                continue;
            }
            let k = first + i;
            let seat = if k >= n { k - n } else { k };
            self.n[bind] = seat as i64;
            let zi = q.fit.first as usize + seat as usize;
            let hand = *self.board.sets.get(zi).ok_or(Stop::Value)?;
            let with = hand.union(CardSet::single(c));
            if self.judge(q.hand, q.full, with, None, players)? {
                *claimants.get_mut(m).ok_or(Stop::Internal)? = seat;
                m += 1;
            }
        }
        if m == 0 {
            return Ok(q.after);
        }
        // The engine lists this decision and returns to its caller, which reads the
        // chips and asks each claimant in turn (a pass, then the claim).
        self.boundary()?;
        self.chosen()?;
        let ending = q.ends.then_some(1);
        let mut taker = None;
        for &seat in &claimants[..m] {
            let k = players.seat(seat).pick(2, ending).min(1);
            if k == 1 && taker.is_none() {
                taker = Some(seat);
            }
        }
        Ok(match taker {
            Some(seat) => {
                self.n[bind] = seat as i64;
                q.body
            }
            None => q.after,
        })
    }
}

/// Two options' `na` and `nb` moves, and whether each option may end the round (its
/// first move does): the first of them that may, asked only by an eager player.
#[derive(Clone, Copy)]
pub(super) struct Ends(pub [bool; 2], pub usize, pub usize);

impl crate::agents::Ending for Ends {
    #[inline(always)]
    fn first(self) -> Option<usize> {
        let Ends(ends, na, nb) = self;
        match (ends[0] && na > 0, ends[1] && nb > 0) {
            (true, _) => Some(0),
            (false, true) => Some(na),
            _ => None,
        }
    }
}
