//! Fast op forms: the op shapes every turn runs are recognised once, when the program
//! is built, and their operands resolved to local slots and zones ([`QuickOp`]), so the
//! engine need not look through an op's expressions each time it runs it. Runs on the
//! finished program, after the rewrites.

use crate::ir::{
    Builtin, Decide, DecideKind, Expr, Op, Op2, PickCount, PickOption, PickPlan, ProcDef, Program,
    QuickCmp, QuickCond, QuickNum, QuickOp, QuickSeat, QuickZone, Target, PICK_OPTIONS,
};
use fuda_grammar::ast::{AssignOp, Owner};

/// Fills [`ProcDef::quick`] for every procedure and test body of `p`, and each
/// decision option's [`OptionDef::quick_guard`](crate::ir::OptionDef::quick_guard).
pub fn compile_quick_ops(p: &mut Program) {
    let zones: Vec<Owner> = p.zones.iter().map(|z| z.owner).collect();
    let bodies = p
        .procs
        .iter_mut()
        .chain(p.tests.iter_mut().map(|t| &mut t.body));
    for body in bodies {
        fill(body, &zones);
    }
}

fn fill(body: &mut ProcDef, zones: &[Owner]) {
    for op in &mut body.code {
        if let Op::Decide(d) = op {
            for o in &mut d.options {
                o.quick_guard = o.guard.as_ref().and_then(|g| cond(g, zones));
                o.left_out = match (&o.param, &o.guard) {
                    (Some((slot, _)), Some(g)) => g.leaves_out(*slot),
                    _ => None,
                };
            }
            d.pick = pick_plan(d, zones);
        }
    }
    body.quick = body
        .code
        .iter()
        .map(|op| quick(op, &body.code, zones))
        .collect();
}

/// The fast form of one op of `code`, or [`QuickOp::Full`].
fn quick(op: &Op, code: &[Op], zones: &[Owner]) -> QuickOp {
    let found = match op {
        Op::Jump(t) => Some(QuickOp::Jump(*t)),
        Op::OptionDone { decide } => match code.get(*decide as usize) {
            Some(Op::Decide(d)) => Some(QuickOp::OptionDone {
                decide: *decide,
                after: d.after,
            }),
            _ => None,
        },
        Op::Decide(d) => no_claim(d),
        Op::JumpIfNot(c, t) => cond(c, zones).map(|c| QuickOp::JumpUnless(c, *t)),
        Op::Let(slot, Expr::Local(from)) => Some(QuickOp::LetLocal {
            slot: *slot,
            from: *from,
        }),
        Op::Let(slot, Expr::Call(Builtin::Top, args, _)) if args.len() == 1 => {
            zone(&args[0], zones).map(|zone| QuickOp::LetTop { slot: *slot, zone })
        }
        Op::Move(Expr::Local(card), to, _) => {
            zone(to, zones).map(|to| QuickOp::MoveCard { card: *card, to })
        }
        Op::Assign(Target::Local(slot), AssignOp::Set, Expr::Call(Builtin::Next, args, _), _)
            if args.len() == 1 =>
        {
            match &args[0] {
                Expr::Local(from) => Some(QuickOp::NextSeat {
                    slot: *slot,
                    from: *from,
                }),
                _ => None,
            }
        }
        Op::Assign(
            Target::Var(var),
            AssignOp::Add,
            Expr::Const(crate::value::Value::Int(by)),
            _,
        ) => Some(QuickOp::AddVar { var: *var, by: *by }),
        _ => None,
    };
    found.unwrap_or(QuickOp::Full)
}

/// The pre-check of a claim window nobody may claim in ([`QuickOp::NoClaim`]): the
/// window asks `others(s)` of a local `s` and binds the asked seat, and every option is
/// argumentless with a [`HandGuard`](crate::ir::HandGuard), so a hand that cannot fit
/// settles its seat without the general offer.
fn no_claim(d: &Decide) -> Option<QuickOp> {
    let shaped = d.kind == DecideKind::Claim
        && d.seat_slot.is_some()
        && d.options
            .iter()
            .all(|o| o.param.is_none() && o.hand_guard.is_some());
    match &d.who {
        Expr::Call(Builtin::Others, args, _) if shaped && args.len() == 1 => match args[0] {
            Expr::Local(from) => Some(QuickOp::NoClaim {
                from,
                after: d.after,
            }),
            _ => None,
        },
        _ => None,
    }
}

/// How the engine counts a `choose`'s moves itself ([`PickPlan`]): the seat is a local
/// or the dealer, and every option takes no argument or ranges over a zone's cards
/// with no guard or a `d != t` guard. `None` for any other decision.
fn pick_plan(d: &Decide, zones: &[Owner]) -> Option<PickPlan> {
    if d.kind != DecideKind::One || d.options.len() > PICK_OPTIONS {
        return None;
    }
    let who = match d.who {
        Expr::Local(i) => QuickSeat::Local(i),
        Expr::Dealer => QuickSeat::Dealer,
        _ => return None,
    };
    let options = d
        .options
        .iter()
        .map(|o| {
            let count = match (&o.param, &o.guard) {
                (None, None) => PickCount::One,
                (None, Some(_)) => match (o.hand_guard, o.quick_guard) {
                    (Some(h), _) => PickCount::Hand(h),
                    (None, Some(c)) => PickCount::Quick(c),
                    (None, None) => PickCount::Guard,
                },
                (Some((_, dom)), guard) => PickCount::Cards {
                    zone: zone(dom, zones)?,
                    left_out: match guard {
                        None => None,
                        Some(_) => Some(o.left_out?),
                    },
                },
            };
            Some(PickOption {
                count,
                ends: o.ends_round,
            })
        })
        .collect::<Option<Box<[_]>>>()?;
    Some(PickPlan { who, options })
}

/// A comparison of two operands [`num`] reads.
fn cond(e: &Expr, zones: &[Owner]) -> Option<QuickCond> {
    let Expr::Bin(op, a, b) = e else {
        return None;
    };
    let cmp = match op {
        Op2::EqScalar => QuickCmp::Eq,
        Op2::NeScalar => QuickCmp::Ne,
        Op2::Lt => QuickCmp::Lt,
        Op2::Le => QuickCmp::Le,
        Op2::Gt => QuickCmp::Gt,
        Op2::Ge => QuickCmp::Ge,
        _ => return None,
    };
    let scalar = matches!(cmp, QuickCmp::Eq | QuickCmp::Ne);
    Some(QuickCond {
        cmp,
        a: num(a, scalar, zones)?,
        b: num(b, scalar, zones)?,
    })
}

/// An operand read as one number: ints always; with `scalar` (for `==` and `!=`), any
/// scalar constant and the dealer too, as the engine compares scalars by number.
fn num(e: &Expr, scalar: bool, zones: &[Owner]) -> Option<QuickNum> {
    Some(match e {
        Expr::Const(crate::value::Value::Int(k)) => QuickNum::Const(*k),
        Expr::Const(v) if scalar => QuickNum::Const(crate::engine::scalar_of(v)?),
        Expr::Local(i) => QuickNum::Local(*i),
        Expr::Dealer if scalar => QuickNum::Dealer,
        Expr::Var(v) => QuickNum::Var(*v),
        Expr::Call(Builtin::Count, args, _) if args.len() == 1 => {
            QuickNum::Count(zone(&args[0], zones)?)
        }
        _ => return None,
    })
}

/// A shared zone, or a per-seat zone at a seat held in a local.
fn zone(e: &Expr, zones: &[Owner]) -> Option<QuickZone> {
    match e {
        Expr::Zone(z) if zones.get(*z as usize) == Some(&Owner::Shared) => {
            Some(QuickZone::Shared(*z))
        }
        Expr::SeatZone(z, s) if zones.get(*z as usize) == Some(&Owner::PerSeat) => match &**s {
            Expr::Local(i) => Some(QuickZone::Seat(*z, *i)),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::{
        DecideKind, Op, PickCount, PickOption, PickPlan, QuickCmp, QuickNum, QuickOp, QuickSeat,
        QuickZone,
    };

    #[test]
    fn sangohanas_turn_runs_on_fast_forms() {
        let text = include_str!("../../../../rulesets/sangohana.fuda");
        let p = crate::compile("sangohana.fuda", text, &crate::loader::NoFiles)
            .expect("compiles")
            .program;
        let deal = &p.procs[p.proc_named("一月").expect("一月") as usize];
        assert_eq!(deal.quick.len(), deal.code.len());
        let has = |f: &dyn Fn(&QuickOp) -> bool| deal.quick.iter().any(f);
        // `if s == dealer`, `let c = top(山札)`, `move c to 手札[s]`, `s = next(s)`, `巡 += 1`.
        assert!(has(&|q| matches!(q, QuickOp::JumpUnless(c, _)
            if c.cmp == QuickCmp::Eq && c.b == QuickNum::Dealer)));
        assert!(has(&|q| matches!(
            q,
            QuickOp::LetTop {
                zone: QuickZone::Shared(_),
                ..
            }
        )));
        assert!(has(&|q| matches!(
            q,
            QuickOp::MoveCard {
                to: QuickZone::Seat(..),
                ..
            }
        )));
        assert!(has(&|q| matches!(q, QuickOp::NextSeat { .. })));
        assert!(has(&|q| matches!(q, QuickOp::AddVar { by: 1, .. })));
        // The draw's `count(捨て札) > 0` is read off the board.
        let Some(Op::Decide(draw)) = deal
            .code
            .iter()
            .find(|op| matches!(op, Op::Decide(d) if d.options.iter().any(|o| o.name == "捨て札")))
        else {
            panic!("the draw")
        };
        let take = draw
            .options
            .iter()
            .find(|o| o.name == "捨て札")
            .expect("捨て札");
        assert!(matches!(take.quick_guard, Some(c) if c.cmp == QuickCmp::Gt
            && matches!(c.a, QuickNum::Count(QuickZone::Shared(_)))));
        // Every `choose` of a turn is counted by the engine's own picks: the draw's
        // options as one move and a comparison, the discards as a zone's cards (all of
        // them, or all but the card taken), a win as a hand guard.
        let chooses: Vec<&PickPlan> = deal
            .code
            .iter()
            .filter_map(|op| match op {
                Op::Decide(d) if d.kind == DecideKind::One => d.pick.as_ref(),
                _ => None,
            })
            .collect();
        assert_eq!(chooses.len(), 3);
        // `choose s`: the seat in a local, the same one each time.
        assert!(matches!(chooses[0].who, QuickSeat::Local(_)));
        assert!(chooses.iter().all(|c| c.who == chooses[0].who));
        assert!(matches!(
            &chooses[0].options[..],
            [
                PickOption {
                    count: PickCount::One,
                    ends: false
                },
                PickOption {
                    count: PickCount::Quick(_),
                    ends: false
                }
            ]
        ));
        for (c, left_out) in [(chooses[1], false), (chooses[2], true)] {
            assert!(matches!(
                &c.options[..],
                [
                    PickOption { count: PickCount::Hand(_), ends: true },
                    PickOption { count: PickCount::Cards { zone: QuickZone::Seat(..), left_out: l }, ends: false }
                ] if l.is_some() == left_out
            ));
        }
        // An option's end knows where its decision goes on.
        for (op, q) in deal.code.iter().zip(&deal.quick) {
            if let Op::OptionDone { decide } = op {
                let Op::Decide(d) = &deal.code[*decide as usize] else {
                    panic!("an option's decision")
                };
                assert_eq!(
                    *q,
                    QuickOp::OptionDone {
                        decide: *decide,
                        after: d.after
                    }
                );
            }
        }
        // The claim window after a discard is pre-checked; choices, calls and deals
        // run in full.
        for (op, q) in deal.code.iter().zip(&deal.quick) {
            match op {
                Op::Decide(d) if d.kind == DecideKind::Claim => {
                    assert!(matches!(q, QuickOp::NoClaim { after, .. } if *after == d.after));
                }
                Op::Decide(_) | Op::Call(..) | Op::Deal { .. } | Op::Shuffle(..) => {
                    assert_eq!(*q, QuickOp::Full, "{op:?}");
                }
                _ => {}
            }
        }
    }
}
