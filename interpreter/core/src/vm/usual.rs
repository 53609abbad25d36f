//! The usual turn, recognised whole: draw or take, declare or discard, the window on
//! the discard, the stock's test with the next seat, and the next turn's draw or take
//! (the loop of 珊瑚花 and of any game played the same way). `shapes.rs` resolves each
//! of these pieces on its own; when they follow one another exactly so, a run of such
//! turns is played here, in one function that keeps the deciding seat and the count of
//! instructions in locals, instead of going back to the machine's loop between pieces.
//! Every piece is asked, counted and checked exactly as the loop asks, counts and checks
//! it, so the game is the same either way.

use crate::agents::AutoPlayers;

use super::image::Image;
use super::ins::{Cmp, Ins, Reg, Within};
use super::machine::{Machine, Stop, STEP_LIMIT};

/// A take pick whose options lead through a usual turn back to itself.
#[derive(Clone, Debug)]
pub struct UsualTurn {
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
    /// The zone instance whose count ends the deal (the stock), and the comparison.
    stock: u16,
    /// When the stock's count ends the deal.
    ends: Within,
    /// The test of the next seat against the dealer.
    at: Cmp,
    /// What follows the turn's end when the test holds, and when it does not: a count
    /// to add to (`巡 += 1`) before the next take pick, or none.
    next: [Option<(u16, i64)>; 2],
}

/// A draw into the decider's hand ([`Ins::DrawOwn`]) and the discard after it.
#[derive(Clone, Copy, Debug)]
struct Draw {
    /// The register the drawn card is put in.
    dst: Reg,
    /// The zone instance drawn from.
    from: u16,
    /// The hand's first instance (the seat's is `first + seat`).
    first: u16,
    /// The declare-or-discard pick (entry of [`Image::own_picks`]).
    own: u16,
    /// The pile the discard goes onto, and whose top the window asks about.
    pile: u16,
    /// The register the pile's top is put in.
    top: Reg,
}

/// Whether take pick `take` leads through a usual turn back to itself, and its parts.
pub(super) fn recognise(im: &Image, take: u16) -> Option<UsualTurn> {
    let t = im.take_picks.get(take as usize)?;
    let who = t.who;
    let mut claim_of = None;
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
        draws[i] = Some(Draw {
            dst,
            from,
            first,
            own: k,
            pile: z,
            top,
        });
    }
    let claim = claim_of?;
    let q = im.claims.get(claim as usize)?.quick.as_ref()?;
    let tops = draws.map(|d| d.map(|d| d.top));
    if tops.iter().any(|t| *t != Some(q.card)) || q.bind == who {
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
    Some(UsualTurn {
        who,
        take,
        draws: [draws[0]?, draws[1]?],
        claim,
        stock,
        ends,
        at,
        next: [next_of(then)?, next_of(to)?],
    })
}

impl Machine<'_> {
    /// Usual turns one after another, from the take pick of `u` (whose own instruction
    /// the loop has counted): where the machine's loop goes on, once a turn leaves the
    /// usual way (a win declared or claimed, the stock run out).
    #[inline(never)]
    pub(super) fn usual_turns(
        &mut self,
        u: &UsualTurn,
        players: &mut AutoPlayers<'_>,
    ) -> Result<u32, Stop> {
        let im = self.im;
        let take = im.take_picks.get(u.take as usize).ok_or(Stop::Internal)?;
        let own = |k: u16| im.own_picks.get(k as usize).ok_or(Stop::Internal);
        let owns = [own(u.draws[0].own)?, own(u.draws[1].own)?];
        let claim = im
            .claims
            .get(u.claim as usize)
            .and_then(|d| d.quick.as_ref());
        let claim = claim.ok_or(Stop::Internal)?;
        let mut steps = self.steps;
        loop {
            // Draw or take: checked as a decision is.
            if steps > STEP_LIMIT {
                return Err(Stop::Limit);
            }
            let seat = self.decider(take.who, take.seat_reg)?;
            let i = self.take_counted(&mut steps, take, seat, players)?;
            let d = u.draws[i];
            // The draw, counted as its two instructions.
            steps += 2;
            self.draw_to(d.dst, d.from, d.first, u.who)?;
            // Declare or discard: a win goes back to the loop.
            if steps > STEP_LIMIT {
                return Err(Stop::Limit);
            }
            let q = owns[i];
            let seat = self.decider(q.who, q.seat_reg)?;
            let (pc, c) = self.own_counted(&mut steps, q, seat, players)?;
            if pc != q.body[1] {
                self.steps = steps;
                return Ok(pc);
            }
            // The discard (the card just bound) and the window on the pile's top, the
            // discard when it went onto the pile, counted as their three instructions.
            steps += 3;
            let moved = self.move_to(c, d.pile)?;
            if steps > STEP_LIMIT {
                return Err(Stop::Limit);
            }
            let (top, at) = match moved {
                Some(c) => (c, d.pile as usize),
                None => {
                    let top = self.board.zones.top(d.pile as usize).ok_or(Stop::Empty)?;
                    let at = self.board.card_zone.get(top as usize);
                    (top, *at.ok_or(Stop::Internal)? as usize)
                }
            };
            self.n[d.top as usize] = top as i64;
            self.steps = steps;
            let pc = self.claim_on(claim, top, at, players)?;
            steps = self.steps;
            if pc != claim.after {
                self.steps = steps;
                return Ok(pc);
            }
            // The turn's end: the stock's test, then the next seat and its test.
            steps += 1;
            if steps > STEP_LIMIT {
                return Err(Stop::Limit);
            }
            if u.ends.test(self.board.zones.held(u.stock as usize) as i64) {
                self.steps = steps;
                return Ok(claim.after + 1);
            }
            steps += 3;
            self.next_of(u.who, u.who)?;
            if steps > STEP_LIMIT {
                return Err(Stop::Limit);
            }
            let dealer = self.board.dealer as i64;
            let next = u.next[usize::from(!u.at.test(self.n[u.who as usize], dealer))];
            if let Some((slot, k)) = next {
                steps += 1;
                self.add_var(slot, k)?;
            }
            // The next take pick's own instruction.
            steps += 1;
        }
    }
}
