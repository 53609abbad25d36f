//! The usual turn, recognised whole: draw or take, declare or discard, the window on
//! the discard, the stock's test with the next seat, and the next turn's draw or take
//! (the loop of a draw-and-discard game that wins on a discard, and of any game played
//! the same way). `shapes.rs` resolves each of these pieces on its own; when they
//! follow one another exactly so, a run of such turns is played here, in one function
//! that keeps the deciding seat and the count of instructions in locals, instead of
//! going back to the machine's loop between pieces.
//! Every piece is asked, counted and checked exactly as the loop asks, counts and checks
//! it, so the game is the same either way.

use crate::agents::AutoPlayers;

use crate::model::{CardIx, CardSet};

use super::held::{Held, Places};
use super::image::{HandFit, Image};
use super::ins::{Cmp, Ins, Num, Reg, Within};
use super::machine::{Machine, Stop, STEP_LIMIT};
use super::quick::Ends;
use super::shapes::TakeWhen;

/// A take pick whose options lead through a usual turn back to itself.
#[derive(Clone, Debug)]
pub struct UsualTurn {
    /// Where the turn's zones are, and which of them each piece reads.
    places: Places,
    /// When the take pick offers its second option, read off the held words.
    offer: Offer,
    /// The slot of the stock (see [`Places::other`]).
    stock_slot: u8,
    /// The register holding the deciding seat, which every piece reads and the turn's
    /// end moves on.
    who: Reg,
    /// The take pick (entry of [`Image::take_picks`]).
    take: u16,
    /// For each option of the take pick: the draw it starts with.
    draws: [Draw; 2],
    /// The claim window on the discard (entry of [`Image::claims`]), which goes on at
    /// the turn's end ([`Ins::CountNextOfDealer`]) when nobody claims.
    claim: u16,
    /// Whether the window asks the others after the deciding seat (`others(s)`, the
    /// usual window on a discard), so that its seats are known without a look.
    others: bool,
    /// When the stock's count ends the deal.
    ends: Within,
    /// The test of the next seat against the dealer.
    at: Cmp,
    /// What follows the turn's end when the test holds, and when it does not: a count
    /// to add to (`巡 += 1`) before the next take pick, or none.
    next: [Option<(u16, i64)>; 2],
}

/// When a usual turn's take pick offers its second option (its [`TakeWhen`], with a
/// zone's count read off the held words by slot).
#[derive(Clone, Copy, Debug)]
enum Offer {
    /// The count of the zone in this slot (see [`Places::other`]) passes the test.
    Count(u8, Within),
    /// The comparison holds (it reads no zone's count).
    Cond(super::ins::Cond),
}

/// A draw into the decider's hand ([`Ins::DrawOwn`]) and the discard after it.
#[derive(Clone, Copy, Debug)]
struct Draw {
    /// The register the drawn card is put in.
    dst: Reg,
    /// The slot drawn from (see [`Places::other`]).
    from: u8,
    /// The declare-or-discard pick (entry of [`Image::own_picks`]).
    own: u16,
    /// The pile the discard goes onto, and whose top the window asks about.
    pile: u16,
    /// The pile's slot.
    pile_slot: u8,
    /// The register the pile's top is put in.
    top: Reg,
    /// All ones when the pick leaves out the card just drawn (its `but` is `dst`, the
    /// take of the pile's top), none otherwise: the card is then masked out of the
    /// hand's offer without a branch on which option the player took, which is as
    /// random as the player.
    drawn_out: u64,
    /// The register of a card left out that is not the one drawn, if any.
    other_but: Option<Reg>,
}

/// Whether take pick `take` leads through a usual turn back to itself, and its parts.
pub(super) fn recognise(im: &Image, take: u16) -> Option<UsualTurn> {
    let t = im.take_picks.get(take as usize)?;
    let who = t.who;
    let mut claim_of = None;
    let mut hands = None;
    let mut places = Places::default();
    let mut draws = [None; 2];
    for (i, &body) in t.body.iter().enumerate() {
        let Some(&Ins::DrawOwn {
            dst,
            from,
            first,
            seat,
            k,
        }) = im.code.get(body as usize)
        else {
            return None;
        };
        let own = im.own_picks.get(k as usize)?;
        if seat != who || own.who != who || dst == who {
            return None;
        }
        let Some(&Ins::DiscardClaim {
            c,
            to,
            dst: top,
            z,
            k: claim,
        }) = im.code.get(own.body[1] as usize)
        else {
            return None;
        };
        // The discard is the card the pick bound, onto the pile the window reads.
        if c != own.param || to != z || own.param == who || top == who {
            return None;
        }
        if *claim_of.get_or_insert(claim) != claim {
            return None;
        }
        // One family of hands, whose one fit table's sums the board keeps: each
        // drawn into, judged and discarded from.
        if *hands.get_or_insert(first) != first || !one_table(&own.fit, first) {
            return None;
        }
        let drawn = own.but == Some(dst);
        draws[i] = Some(Draw {
            dst,
            from: places.other(from)?,
            own: k,
            pile: z,
            pile_slot: places.other(z)?,
            top,
            drawn_out: if drawn { !0 } else { 0 },
            other_but: if drawn { None } else { own.but },
        });
    }
    let claim = claim_of?;
    let q = im.claims.get(claim as usize)?.quick.as_ref()?;
    let tops = draws.map(|d| d.map(|d| d.top));
    if tops.iter().any(|t| *t != Some(q.card)) || q.bind == who || !one_table(&q.fit, hands?) {
        return None;
    }
    let Some(&Ins::CountNextOfDealer {
        z: stock,
        holds: ends,
        dst,
        s,
        r,
        at,
        then,
        to,
    }) = im.code.get(q.after as usize)
    else {
        return None;
    };
    if dst != who || s != who || r != who {
        return None;
    }
    // The take pick's offer reads no zone the run holds in words but through its slot
    // (a zone of its own is held too: one of the hands would keep the run from words).
    let offer = match t.when {
        TakeWhen::Count(z, holds) => Offer::Count(places.other(z)?, holds),
        TakeWhen::Cond(c) => {
            if [c.a, c.b].iter().any(|n| matches!(n, Num::Count(_))) {
                return None;
            }
            Offer::Cond(c)
        }
    };
    // Each way on reaches this take pick again, through `巡 += 1` or straight.
    let next_of = |pc: u32| -> Option<Option<(u16, i64)>> {
        match im.code.get(pc as usize)? {
            Ins::PickTake(k) if *k == take => Some(None),
            Ins::AddVar { slot, k } => match im.code.get(pc as usize + 1)? {
                Ins::PickTake(n) if *n == take => Some(Some((*slot, *k))),
                _ => None,
            },
            _ => None,
        }
    };
    let others = matches!(q.others_of, Some(Num::R(r)) if r == who);
    let stock_slot = places.other(stock)?;
    places.hands = hands?;
    Some(UsualTurn {
        places,
        offer,
        stock_slot,
        others,
        who,
        take,
        draws: [draws[0]?, draws[1]?],
        claim,
        ends,
        at,
        next: [next_of(then)?, next_of(to)?],
    })
}

/// Whether `fit` is the hands' at `first`, with the board's only fit table.
fn one_table(fit: &HandFit, first: u16) -> bool {
    fit.first == first && fit.tracks == 1 && fit.track == 0
}

impl Machine<'_> {
    /// Usual turns one after another, from the take pick of `u` (whose own instruction
    /// the loop has counted): where the machine's loop goes on, once a turn leaves the
    /// usual way (a win declared or claimed, the stock run out). The turn's zones are
    /// held in words meanwhile (`held.rs`), and written back to the board before it
    /// returns; when they cannot be, the take pick alone is played, as the loop plays
    /// a turn of another shape.
    ///
    /// Where the processor has BMI2 (and BMI1 and POPCNT, which come with it), the runs
    /// are played by a copy of this code compiled with them, in which picking a hand's
    /// `k`-th card is one deposit compiled in place instead of a call.
    #[inline(never)]
    pub(super) fn usual_turns(
        &mut self,
        u: &UsualTurn,
        players: &mut AutoPlayers<'_>,
    ) -> Result<u32, Stop> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            // SAFETY: the processor has just been found to have BMI1, BMI2 and POPCNT.
            return unsafe { self.usual_turns_bmi2(u, players) };
        }
        self.usual_turns_with::<false>(u, players)
    }

    /// [`Machine::usual_turns`] compiled with BMI1, BMI2 and POPCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,popcnt")]
    fn usual_turns_bmi2(
        &mut self,
        u: &UsualTurn,
        players: &mut AutoPlayers<'_>,
    ) -> Result<u32, Stop> {
        self.usual_turns_with::<true>(u, players)
    }

    /// [`Machine::usual_turns`], its hands' cards picked with BMI2's deposit when
    /// `BMI2` (only in [`Machine::usual_turns_bmi2`]).
    #[inline(always)]
    fn usual_turns_with<const BMI2: bool>(
        &mut self,
        u: &UsualTurn,
        players: &mut AutoPlayers<'_>,
    ) -> Result<u32, Stop> {
        let im = self.im;
        let claim = im.claims.get(u.claim as usize);
        let claim = claim.and_then(|d| d.quick.as_ref()).ok_or(Stop::Internal)?;
        // The moves are made in `held` alone, the board's zones written back when the
        // run ends. An audit at a decision inside the run reads the ledger, which
        // `held` does not hold, and the cards only where something was recorded,
        // which nothing inside the run does: the board it would read is the one the
        // run began from, consistent as it was.
        let mut held = Held::fresh();
        let table = &claim.fit.table;
        if held.load(&self.board, &u.places, table, false).is_none() {
            if self.steps > STEP_LIMIT {
                return Err(Stop::Limit);
            }
            return self.pick_take(u.take, players);
        }
        let to = self.turns_held::<false, BMI2>(u, &mut held, players);
        held.flush(&mut self.board, &u.places);
        to
    }

    /// [`Machine::usual_turns`] on zones held in `held`, their moves made on the board
    /// too when `THROUGH`.
    #[inline(always)]
    fn turns_held<const THROUGH: bool, const BMI2: bool>(
        &mut self,
        u: &UsualTurn,
        held: &mut Held,
        players: &mut AutoPlayers<'_>,
    ) -> Result<u32, Stop> {
        let im = self.im;
        let places = &u.places;
        let take = im.take_picks.get(u.take as usize).ok_or(Stop::Internal)?;
        let own = |k: u16| im.own_picks.get(k as usize).ok_or(Stop::Internal);
        let owns = [own(u.draws[0].own)?, own(u.draws[1].own)?];
        let claim = im
            .claims
            .get(u.claim as usize)
            .and_then(|d| d.quick.as_ref());
        let claim = claim.ok_or(Stop::Internal)?;
        let mut steps = self.steps;
        // The deciding seat, read once and then moved on by the turn's end, which also
        // writes it to its register (as `next` would); read again after any guard's
        // or window's code, which the run does not look into.
        let mut seat = self.seat_in(u.who)? as u8;
        loop {
            // Draw or take: checked as a decision is.
            if steps > STEP_LIMIT {
                return Err(Stop::Limit);
            }
            if let Some(r) = take.seat_reg {
                self.n[r as usize] = seat as i64;
            }
            let second = match u.offer {
                Offer::Count(slot, holds) => holds.test(held.count(slot) as i64),
                Offer::Cond(c) => self.holds(c)?,
            };
            // Both sources' slots, counts and top cards are read while the player
            // decides, and the choice (0 or 1) only selects among them by a mask: the
            // draw then waits on the decision alone, not on the option's slot, its
            // count and its top, each loaded after the one before.
            let froms = [u.draws[0].from, u.draws[1].from];
            let tops = [held.top(froms[0]), held.top(froms[1])];
            let i = self.take_counted(&mut steps, take, seat, second, players)?;
            let d = u.draws[i];
            // The draw, counted as its two instructions.
            steps += 2;
            let hand = places.hands as usize + seat as usize;
            let m = 0u32.wrapping_sub((i & 1) as u32);
            let pick = |a: u32, b: u32| a ^ ((a ^ b) & m);
            let from = pick(froms[0].into(), froms[1].into()) as u8;
            let top = (
                pick(tops[0].0.into(), tops[1].0.into()) as CardIx,
                pick(tops[0].1, tops[1].1),
            );
            let c = held.draw_top::<THROUGH>(&mut self.board, from, seat, hand, top)?;
            self.n[d.dst as usize] = c as i64;
            // Declare or discard: a win goes back to the loop.
            if steps > STEP_LIMIT {
                return Err(Stop::Limit);
            }
            // The same seat decides (the pick's register is the take's, which the draw
            // does not write: see `recognise`), bound where the pick names a register.
            let q = owns[i];
            if let Some(r) = q.seat_reg {
                self.n[r as usize] = seat as i64;
            }
            let (count, cards) = (held.count(seat), held.hand(seat));
            // The card left out when it is the one just drawn (its register holds it).
            let mut out = (1u64 << (c % 64)) & d.drawn_out;
            let wins = match q.fit.table.answer(held.sum(seat), count) {
                false => false,
                true => {
                    // The guard's code, if run, counts its instructions in the machine.
                    self.steps = steps;
                    let set = CardSet([cards, 0, 0, 0]);
                    let sum = Some(held.sum(seat));
                    let wins = self.judge(q.hand, q.full, set, sum, Some((held, places)), players);
                    steps = self.steps;
                    let wins = wins?;
                    seat = self.seat_in(u.who)? as u8;
                    // The register is read again, as the pick reads it, after code that
                    // might have written it.
                    if d.drawn_out != 0 {
                        out = 1u64 << (self.card_in(d.dst)? % 64);
                    }
                    wins
                }
            };
            // The card left out, if any, is offered only when the hand holds it. The
            // offer is counted off the hand's count, not the set's bits (which this
            // build's baseline processor counts in some twenty instructions).
            let (cards, nb) = (cards & !out, count - usize::from(cards & out != 0));
            let (cards, nb) = match d.other_but {
                None => (cards, nb),
                Some(t) => {
                    let bit = 1u64 << (self.card_in(t)? % 64);
                    (cards & !bit, nb - usize::from(cards & bit != 0))
                }
            };
            let na = usize::from(wins);
            let k =
                self.choose_counted(&mut steps, seat, na + nb, Ends(q.ends, na, nb), players)?;
            if k < na {
                self.steps = steps;
                return Ok(q.body[0]);
            }
            let c = match BMI2 {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: `BMI2` is set only in `usual_turns_bmi2`, which is called once
                // the processor was found to have BMI2.
                true => unsafe { crate::model::nth_in_word_bmi2(cards, k - na) },
                _ => CardSet([cards, 0, 0, 0]).nth(k - na),
            };
            let c = c.ok_or(Stop::Internal)?;
            self.n[q.param as usize] = c as i64;
            // The discard (the card just bound) onto the pile, and the window on the
            // pile's top, counted as their three instructions.
            steps += 3;
            held.discard::<THROUGH>(&mut self.board, seat, c, d.pile_slot, d.pile as usize)?;
            if steps > STEP_LIMIT {
                return Err(Stop::Limit);
            }
            self.n[d.top as usize] = c as i64;
            // Who may claim, off the hands' sums and counts with the card.
            let (w, n) = (held.weight(c), self.board.seats);
            let (first, asked) = match u.others {
                true => (if seat + 1 >= n { 0 } else { seat + 1 }, n - 1),
                false => self.asked(claim)?,
            };
            let mut may = 0u32;
            let mut s = first;
            for i in 0..asked {
                let fits = claim
                    .fit
                    .table
                    .answer(held.sum(s).wrapping_add(w), held.count(s) + 1);
                may |= u32::from(fits) << i;
                s = if s + 1 >= n { 0 } else { s + 1 };
            }
            if may != 0 {
                self.steps = steps;
                let pc =
                    self.claim_judged(claim, c, first, asked, may, Some((held, places)), players)?;
                steps = self.steps;
                if pc != claim.after {
                    self.steps = steps;
                    return Ok(pc);
                }
                seat = self.seat_in(u.who)? as u8;
            }
            // The turn's end: the stock's test, then the next seat and its test.
            steps += 1;
            if steps > STEP_LIMIT {
                return Err(Stop::Limit);
            }
            if u.ends.test(held.count(u.stock_slot) as i64) {
                self.steps = steps;
                return Ok(claim.after + 1);
            }
            steps += 3;
            seat = if seat + 1 >= n { 0 } else { seat + 1 };
            self.n[u.who as usize] = seat as i64;
            if steps > STEP_LIMIT {
                return Err(Stop::Limit);
            }
            let dealer = self.board.dealer as i64;
            let next = u.next[usize::from(!u.at.test(seat as i64, dealer))];
            if let Some((slot, k)) = next {
                steps += 1;
                self.add_var(slot, k)?;
            }
            // The next take pick's own instruction.
            steps += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A draw-and-discard game's usual turn holds its zones in words on a board as the
    /// game starts (so its runs take `turns_held`, not the loop's pieces), for every seat
    /// count.
    #[test]
    fn the_usual_turn_holds_its_zones_in_words() {
        let text = include_str!("../../../../rulesets/sangohana.fuda");
        let p = match crate::compile("sangohana.fuda", text, &crate::loader::NoFiles) {
            Ok(c) => c.program,
            Err(f) => panic!("{:#?}", f.diagnostics),
        };
        for players in 2..=4 {
            let params = [Some(crate::value::Value::Int(players))];
            let st = crate::engine::State::blank(&p, &params, 1).expect("a board");
            assert_eq!(st.board.seats as i64, players);
            let image = p.vm.image(&p, st.board.seats).expect("lowered");
            let u = image.usual.iter().flatten().next().expect("a usual turn");
            let claim = image.claims[u.claim as usize]
                .quick
                .as_ref()
                .expect("quick");
            let held = Held::fresh().load(&st.board, &u.places, &claim.fit.table, false);
            assert!(held.is_some(), "{players} players");
        }
    }
}
