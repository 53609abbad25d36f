//! The usual shapes of decisions, recognised once the code is final: a `choose` of two
//! options (draw or take, win or discard) and a claim window of one hand-guarded claim
//! on a card (`当たり when 役代(手札[x] + d).total > 0`). Each is resolved into a form
//! whose operands are already of one kind, so that taking it (`quick.rs`) reads no
//! operand through a table of kinds. Every other decision, and every decision here
//! whose parts are of another kind, runs as `decide.rs` runs it; both ask the same
//! players the same questions in the same order. The same pass gives the usual
//! instructions of a turn whose operands are of the usual kinds (`if count(山札) ==
//! 0`, `if s == dealer`, a draw into a hand, a discard, `top(捨て札)`, `next(s)`,
//! `巡 += 1`) instructions of their own, in place; takes a window of the usual shape
//! together with the top card just before it (and in place of a jump to the two); and
//! makes each pair of instructions a usual turn runs back to back one instruction.

use super::image::{CardGuard, ClaimDef, Count, Guard, HandFit, Image, PickDef, Plus};
use super::ins::{Cmp, Cond, Ins, Num, Place, Reg, Seats, Set, Within, Zr};

/// A `choose` of two options, resolved.
#[derive(Clone, Debug)]
pub struct QuickPick {
    /// The number register holding the deciding seat.
    pub who: Reg,
    /// A register bound to the deciding seat, if the decision names one.
    pub seat_reg: Option<Reg>,
    /// How each option's moves are counted.
    pub count: [QuickCount; 2],
    /// Whether each option may end the round.
    pub ends: [bool; 2],
    /// Each option's body.
    pub body: [u32; 2],
}

/// How a [`QuickPick`] option's moves are counted.
#[derive(Clone, Debug)]
pub enum QuickCount {
    /// One move, always.
    Always,
    /// One move when a comparison holds.
    Cond(Cond),
    /// One move when a shared zone's count compares so with a constant (`when
    /// count(捨て札) > 0`): the comparison with its operands' kinds settled.
    Count(u16, Cmp, i64),
    /// One move when a hand guard holds ([`super::image::HandDef`] by index, whose
    /// table's sums the board keeps, and the guard's code for when no plan answers).
    Hand(u16, u16),
    /// One move per card of a zone instance (`first`, plus the seat in a register for a
    /// per-seat zone), every card or all but the one in a register, the card bound to
    /// `param`.
    Cards {
        /// The zone's (first) instance.
        first: u16,
        /// The register holding the seat, for a per-seat zone.
        seat: Option<Reg>,
        /// The register the card is bound to.
        param: Reg,
        /// The register holding the card left out, if one is.
        but: Option<Reg>,
    },
}

/// A [`QuickPick`] of one move always, or another when a count or comparison holds
/// (draw from the stock, or take the discard): [`super::ins::Ins::PickTake`].
#[derive(Clone, Debug)]
pub struct TakePick {
    /// The number register holding the deciding seat.
    pub who: Reg,
    /// A register bound to the deciding seat, if the decision names one.
    pub seat_reg: Option<Reg>,
    /// When the second option offers its move.
    pub when: TakeWhen,
    /// Whether each option may end the round.
    pub ends: [bool; 2],
    /// Each option's body.
    pub body: [u32; 2],
}

/// When a [`TakePick`]'s second option offers its move.
#[derive(Clone, Copy, Debug)]
pub enum TakeWhen {
    /// A comparison holds.
    Cond(Cond),
    /// A shared zone's count compares so with a constant.
    Count(u16, Within),
}

/// A [`QuickPick`] of a win guard on the decider's own hand or a card of that hand
/// (declare, or discard): [`super::ins::Ins::PickOwn`].
#[derive(Clone, Debug)]
pub struct OwnPick {
    /// The number register holding the deciding seat.
    pub who: Reg,
    /// A register bound to the deciding seat, if the decision names one.
    pub seat_reg: Option<Reg>,
    /// The hand guard ([`super::image::HandDef`] by index).
    pub hand: u16,
    /// The hand guard's zone and table.
    pub fit: HandFit,
    /// The guard's code, for when the hand may fit and no plan answers.
    pub full: u16,
    /// The register the card is bound to.
    pub param: Reg,
    /// The register holding the card left out, if one is.
    pub but: Option<Reg>,
    /// Whether each option may end the round.
    pub ends: [bool; 2],
    /// Each option's body.
    pub body: [u32; 2],
}

/// A claim window of one option guarded by a hand guard on the asked seat's hand plus
/// a card, resolved.
#[derive(Clone, Debug)]
pub struct QuickClaim {
    /// The seats asked: everyone from the dealer, or the others after a seat.
    pub others_of: Option<Num>,
    /// The number register bound to the asked seat.
    pub bind: Reg,
    /// The hand guard ([`super::image::HandDef`] by index) and the guard's code.
    pub hand: u16,
    /// The hand guard's zone and table.
    pub fit: HandFit,
    /// The number register holding the card added to the hand.
    pub card: Reg,
    /// The guard's code, for when the hand may fit and no plan answers.
    pub full: u16,
    /// Whether the claim may end the round.
    pub ends: bool,
    /// The claim's body.
    pub body: u32,
    /// Where the rules go on when nobody claims.
    pub after: u32,
}

/// Resolves every decision of the usual shapes in `im` (after its jumps are final). A
/// `choose each` shares the claim windows' table but is always taken by `decide.rs`
/// (its seats have no pass), so a quick form made for one is never read.
pub(super) fn resolve(im: &mut Image) {
    // Instructions whose operands are of the usual kinds, in place (so no jump target
    // moves): each reads its operands without asking their kinds.
    for ins in im.code.iter_mut() {
        *ins = match *ins {
            Ins::JumpUnless(
                Cond {
                    a: Num::Count(Zr::I(z)),
                    cmp,
                    b: Num::K(k),
                },
                to,
            ) => Ins::JumpUnlessCount {
                z,
                holds: Within::of(cmp, k),
                to,
            },
            Ins::JumpUnless(
                Cond {
                    a: Num::R(r),
                    cmp,
                    b: Num::Dealer,
                },
                to,
            ) => Ins::JumpUnlessDealer { r, cmp, to },
            Ins::MoveCard {
                c: Num::R(c),
                to: Zr::I(to),
            } => Ins::MoveCardTo { c, to },
            Ins::MoveTop {
                dst,
                from: Zr::I(from),
                to: Zr::S(first, seat),
            } => Ins::DrawTo {
                dst,
                from,
                first,
                seat,
            },
            Ins::Top { dst, z: Zr::I(z) } => Ins::TopOf { dst, z },
            Ins::Add {
                to: Place::V(slot),
                v: Num::K(k),
            } => Ins::AddVar { slot, k },
            Ins::Sub {
                to: Place::V(slot),
                v: Num::K(k),
            } if k != i64::MIN => Ins::AddVar { slot, k: -k },
            Ins::NextSeat {
                dst,
                s: Num::R(s),
                back: false,
            } => Ins::NextOf { dst, s },
            other => other,
        };
    }
    for k in 0..im.picks.len() {
        let quick = pick(im, &im.picks[k]);
        im.picks[k].quick = quick;
    }
    for k in 0..im.claims.len() {
        let quick = claim(im, &im.claims[k]);
        im.claims[k].quick = quick;
    }
    // The two commonest pairs get instructions of their own, which go straight to
    // their parts without asking the pair's kinds.
    for i in 0..im.code.len() {
        let Ins::Pick(k) = im.code[i] else {
            continue;
        };
        let Some(q) = im.picks.get(k as usize).and_then(|d| d.quick.as_ref()) else {
            continue;
        };
        if let Some(t) = take_pick(q) {
            im.code[i] = Ins::PickTake(im.take_picks.len() as u16);
            im.take_picks.push(t);
        } else if let Some(o) = own_pick(im, q) {
            im.code[i] = Ins::PickOwn(im.own_picks.len() as u16);
            im.own_picks.push(o);
        }
    }
    // A window of the usual shape right after the top card it asks about is taken with
    // it. The window's instruction stays where it was, so a jump to it still lands on it.
    for i in 1..im.code.len() {
        if let (Ins::TopOf { dst, z }, Ins::Claim(k)) = (im.code[i - 1], im.code[i]) {
            if im.claims.get(k as usize).is_some_and(|d| d.quick.is_some()) {
                im.code[i - 1] = Ins::TopClaim { dst, z, k };
            }
        }
    }
    // A jump to a window taken with its top card becomes a copy of it (the window
    // always says where the rules go on, so nothing follows it): one instruction fewer
    // to run where a discard's `if` ends and the window begins. A threaded jump stands
    // for at most `OPS_PER_INSTRUCTION` ops and the copy is counted as two steps, as
    // the original, so the copy stands for at most six ops over two steps, within the
    // machine's step limit. (A copied decision would be counted as one step, which a
    // jump of four ops and the decision's own would pass; decisions are not copied.)
    for i in 0..im.code.len() {
        if let Ins::Jump(t) = im.code[i] {
            if let Some(&to @ Ins::TopClaim { .. }) = im.code.get(t as usize) {
                im.code[i] = to;
            }
        }
    }
    fuse_turn_pairs(&mut im.code);
    fuse_turn_ends(&mut im.code);
}

/// A turn's last test (`if count(山札) == 0`) whose jump lands on the fused next seat
/// and loop head ([`Ins::NextOfDealer`]) becomes one instruction with it, in the
/// test's place (after [`fuse_turn_pairs`], which made the second): one dispatch
/// fewer a turn. As there, the second stays where it was.
fn fuse_turn_ends(code: &mut [Ins]) {
    for i in 0..code.len() {
        let Ins::JumpUnlessCount { z, holds, to: t } = code[i] else {
            continue;
        };
        if let Some(&Ins::NextOfDealer {
            dst,
            s,
            r,
            cmp: at,
            then,
            to,
        }) = code.get(t as usize)
        {
            code[i] = Ins::CountNextOfDealer {
                z,
                holds,
                dst,
                s,
                r,
                at,
                then,
                to,
            };
        }
    }
}

/// The pairs a usual turn runs one after the other (a draw then declare or discard, a
/// discard then the window on it, the next seat then the jump back to the loop's head,
/// with the head's test of the dealer when it has one) become one instruction each, in
/// the first one's place: one dispatch fewer for each.
/// The second stays where it was, so a jump that lands on it still finds it; the
/// fused one goes on where the second would have gone on, so nothing else changes.
fn fuse_turn_pairs(code: &mut [Ins]) {
    for i in 1..code.len() {
        code[i - 1] = match (code[i - 1], code[i]) {
            (
                Ins::DrawTo {
                    dst,
                    from,
                    first,
                    seat,
                },
                Ins::PickOwn(k),
            ) => Ins::DrawOwn {
                dst,
                from,
                first,
                seat,
                k,
            },
            (Ins::MoveCardTo { c, to }, Ins::TopClaim { dst, z, k }) => {
                Ins::DiscardClaim { c, to, dst, z, k }
            }
            (Ins::NextOf { dst, s }, Ins::Jump(t)) => match code.get(t as usize) {
                // The loop's head is a test of the dealer: taken here too.
                Some(&Ins::JumpUnlessDealer { r, cmp, to }) => Ins::NextOfDealer {
                    dst,
                    s,
                    r,
                    cmp,
                    then: t + 1,
                    to,
                },
                _ => Ins::NextOfJump { dst, s, to: t },
            },
            (first, _) => first,
        };
    }
}

/// The quick form of a `choose`, if it has the usual shape.
fn pick(im: &Image, d: &PickDef) -> Option<QuickPick> {
    let Num::R(who) = d.who else {
        return None;
    };
    let [a, b] = &d.options[..] else {
        return None;
    };
    let count = [count(im, &a.count)?, count(im, &b.count)?];
    Some(QuickPick {
        who,
        seat_reg: d.seat_reg,
        count,
        ends: [a.ends, b.ends],
        body: [a.body, b.body],
    })
}

/// A quick `choose` of the draw-or-take shape, as a [`TakePick`].
fn take_pick(q: &QuickPick) -> Option<TakePick> {
    let when = match &q.count {
        [QuickCount::Always, QuickCount::Cond(c)] => TakeWhen::Cond(*c),
        [QuickCount::Always, QuickCount::Count(z, cmp, k)] => {
            TakeWhen::Count(*z, Within::of(*cmp, *k))
        }
        _ => return None,
    };
    Some(TakePick {
        who: q.who,
        seat_reg: q.seat_reg,
        when,
        ends: q.ends,
        body: q.body,
    })
}

/// A quick `choose` of the win-or-discard shape on the decider's own hand, as an
/// [`OwnPick`]: a win guard on the hand of the deciding seat, adding nothing to it,
/// and a card of that same hand (`上がり when 役代(手札[s])…`, `捨てる(d in 手札[s])`),
/// so the hand's place, cards and count are read once for both.
fn own_pick(im: &Image, q: &QuickPick) -> Option<OwnPick> {
    let [QuickCount::Hand(hand, full), QuickCount::Cards {
        first,
        seat,
        param,
        but,
    }] = &q.count
    else {
        return None;
    };
    let hd = im.hands.get(*hand as usize)?;
    let own = hd.plus.is_none() && hd.first == *first && hd.seat == q.who && *seat == Some(q.who);
    own.then_some(OwnPick {
        who: q.who,
        seat_reg: q.seat_reg,
        hand: *hand,
        fit: hd.hand_fit()?,
        full: *full,
        param: *param,
        but: *but,
        ends: q.ends,
        body: q.body,
    })
}

/// The quick form of an option's count, if it has one.
fn count(im: &Image, c: &Count) -> Option<QuickCount> {
    Some(match c {
        Count::One(None) => QuickCount::Always,
        Count::One(Some(Guard::Cond(Cond {
            a: Num::Count(Zr::I(z)),
            cmp,
            b: Num::K(k),
        }))) => QuickCount::Count(*z, *cmp, *k),
        Count::One(Some(Guard::Cond(c))) => QuickCount::Cond(*c),
        Count::One(Some(Guard::Hand(h, full))) => {
            // Only a hand whose table's running sums the board keeps.
            let hd = im.hands.get(*h as usize)?;
            match (&hd.fit, hd.plus) {
                (Some(_), None | Some(Plus::Card(_))) => QuickCount::Hand(*h, *full),
                _ => return None,
            }
        }
        Count::One(Some(Guard::Code(_))) | Count::Values { .. } => return None,
        Count::Cards { of, param, guard } => {
            let (first, seat) = match of {
                Set::Zone(Zr::I(i)) => (*i, None),
                Set::Zone(Zr::S(first, r)) => (*first, Some(*r)),
                _ => return None,
            };
            let but = match guard {
                CardGuard::All => None,
                CardGuard::AllBut(t) => Some(*t),
                CardGuard::In(_) | CardGuard::Each(_) => return None,
            };
            QuickCount::Cards {
                first,
                seat,
                param: *param,
                but,
            }
        }
    })
}

/// The quick form of a claim window, if it has the usual shape.
fn claim(im: &Image, d: &ClaimDef) -> Option<QuickClaim> {
    if im.reads_claims || d.declines {
        return None;
    }
    let others_of = match d.who {
        Seats::All => None,
        Seats::Others(s) => Some(s),
        Seats::List(_) => return None,
    };
    let [o] = &d.options[..] else {
        return None;
    };
    if o.arg.is_some() {
        return None;
    }
    let Some(Guard::Hand(hand, full)) = o.guard else {
        return None;
    };
    let h = im.hands.get(hand as usize)?;
    // The asked seat's hand plus a card, with the table's sums kept by the board.
    let (Some(fit), Some(Plus::Card(card))) = (h.hand_fit(), h.plus) else {
        return None;
    };
    if h.seat != d.seat_reg {
        return None;
    }
    Some(QuickClaim {
        others_of,
        bind: d.seat_reg,
        hand,
        fit,
        card,
        full,
        ends: o.ends,
        body: o.body,
        after: d.after,
    })
}
