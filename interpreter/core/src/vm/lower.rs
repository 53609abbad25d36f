//! Lowering a program: each procedure's ops to instructions, its locals to typed
//! registers, its decisions to tables the machine counts moves from. A construct with
//! no instruction declines the whole program (its games then run in the engine).

use fuda_grammar::ast::AssignOp;

use crate::engine::Layout;
use crate::ir::{Builtin, DecideKind, Expr, Loc, Op, PayFrom, Program, Target};
use crate::value::{Type, Value};

use super::image::{DealDef, DealTo, Declined, Image, ProcImage, SlotReg};
use super::ins::{Arg, Ins, Loop, NumKind, Place, Reg, Seats};
use super::lower_expr::{kind_of_type, Kind};

type Res<T> = Result<T, Declined>;

/// A loop's registers: its base, length, place, list value and cards left, and what
/// it walks.
type LoopRegs = (Reg, Reg, Reg, Reg, Reg, Walk);

/// What a `for` loop walks.
#[derive(Clone, Copy, Debug)]
enum Walk {
    /// Seats or a range.
    Seats(Loop),
    /// A list value's items (a zone's cards are listed in its order).
    List,
    /// A card set's cards, in card order.
    Cards,
}

/// Lowers every procedure of `p` for `seats` seats.
pub(super) fn lower(p: &Program, seats: u8) -> Res<Image> {
    let entry = p.entry.ok_or_else(|| Declined::new("no `proc match`"))?;
    if p.vars.iter().any(|v| v.per_card || v.per_key.is_some()) {
        return Err(Declined::new("a `per card` or `per ENUM` variable"));
    }
    let layout = Layout::new(p, seats);
    let mut im = Image {
        entry,
        names: p.symbols.iter().map(|s| s.as_str().into()).collect(),
        ..Image::default()
    };
    for (i, pd) in p.procs.iter().enumerate() {
        let proc_image = {
            let mut l = Lower::new(p, &layout, seats, &mut im, &pd.slots, pd.frame)?;
            l.proc(pd).map_err(|d| {
                let at = l.at.map(|a| a.span.start).unwrap_or(0);
                Declined::new(format!("proc {} (byte {at}): {}", pd.name, d.reason))
            })?;
            l.finish()?
        };
        debug_assert_eq!(im.procs.len(), i);
        im.procs.push(proc_image);
    }
    thread_jumps(&mut im);
    super::shapes::resolve(&mut im);
    Ok(im)
}

/// Points every jump (and every decision's way on) past the plain jumps it would land
/// on, and makes a jump to a return a return: at most `OPS_PER_INSTRUCTION - 1` ops
/// are skipped this way, which the machine's step limit allows for.
fn thread_jumps(im: &mut Image) {
    use super::machine::OPS_PER_INSTRUCTION;
    let hops = OPS_PER_INSTRUCTION as usize - 1;
    let code = im.code.clone();
    // Where a jump to `t` ends up after at most `most` plain jumps, and how many.
    let follow = |mut t: u32, most: usize| -> (u32, usize) {
        let mut n = 0;
        while n < most {
            match code.get(t as usize) {
                Some(Ins::Jump(next)) if *next != t => {
                    t = *next;
                    n += 1;
                }
                _ => break,
            }
        }
        (t, n)
    };
    for ins in im.code.iter_mut() {
        *ins = match *ins {
            Ins::Jump(t) => {
                let (to, n) = follow(t, hops);
                match code.get(to as usize) {
                    Some(Ins::Ret) if n < hops => Ins::Ret,
                    _ => Ins::Jump(to),
                }
            }
            Ins::JumpUnless(c, t) => Ins::JumpUnless(c, follow(t, hops).0),
            other => other,
        };
    }
    for pick in im.picks.iter_mut() {
        for o in pick.options.iter_mut() {
            o.body = follow(o.body, hops).0;
        }
    }
    for claim in im.claims.iter_mut() {
        for o in claim.options.iter_mut() {
            o.body = follow(o.body, hops).0;
        }
        claim.after = follow(claim.after, hops).0;
    }
}

/// Lowering one procedure.
pub(super) struct Lower<'a> {
    /// The program.
    pub p: &'a Program,
    /// Where zones and variables live for this seat count.
    pub layout: &'a Layout,
    /// The seat count.
    pub seats: u8,
    /// The image being built.
    pub im: &'a mut Image,
    /// Each local slot's register.
    pub slots: Vec<SlotReg>,
    /// Each local slot's checked type.
    pub slot_types: &'a [Type],
    /// Number registers taken.
    pub nums: u16,
    /// Card-set registers taken.
    pub sets: u16,
    /// Other-value registers taken.
    pub objs: u16,
    /// The op being lowered's place in the source.
    pub at: Option<Loc>,
    /// Whether an expression lowered read `claimed(…)` (see [`Image::reads_claims`]).
    pub reads_claims: std::cell::Cell<bool>,
    /// The procedure's first instruction.
    start: u32,
    /// Instructions whose jump target is still an op index.
    fix: Vec<usize>,
    /// `choose` tables whose bodies are still op indices.
    pub(super) fix_picks: Vec<u16>,
    /// Claim and `choose each` tables whose bodies are still op indices.
    pub(super) fix_claims: Vec<u16>,
    /// Guards whose code is emitted after the procedure's: snippet and expression.
    jobs: Vec<(u16, Expr)>,
    /// Each claim window and `choose each` lowered so far: its op index and its window.
    pub(super) windows: Vec<(u32, u16)>,
    /// Slots an expression being lowered bound to registers of their own (`let … in`,
    /// a quantifier's element), innermost last.
    pub overlay: Vec<(u16, SlotReg)>,
    /// Each loop's registers, by its list slot.
    loops: Vec<Option<LoopRegs>>,
    /// The first instruction of each op.
    pub(super) op_pc: Vec<u32>,
}

impl<'a> Lower<'a> {
    /// A procedure's lowering, its locals given registers by their types.
    fn new(
        p: &'a Program,
        layout: &'a Layout,
        seats: u8,
        im: &'a mut Image,
        slot_types: &'a [Type],
        frame: u16,
    ) -> Res<Lower<'a>> {
        let start = im.code.len() as u32;
        let mut l = Lower {
            p,
            layout,
            seats,
            im,
            slots: Vec::new(),
            slot_types,
            nums: 0,
            sets: 0,
            objs: 0,
            at: None,
            start,
            fix: Vec::new(),
            fix_picks: Vec::new(),
            fix_claims: Vec::new(),
            jobs: Vec::new(),
            windows: Vec::new(),
            reads_claims: std::cell::Cell::new(false),
            overlay: Vec::new(),
            loops: vec![None; frame as usize],
            op_pc: Vec::new(),
        };
        for s in 0..frame as usize {
            let reg = match slot_types.get(s).and_then(kind_of_type) {
                Some(Kind::Num(k)) => SlotReg::Num(l.num_temp(), k),
                Some(Kind::Set) => SlotReg::Set(l.set_temp()),
                Some(Kind::Obj) => SlotReg::Obj(l.obj_temp()),
                Some(Kind::Family) => return Err(Declined::new("a local holding a per-seat zone")),
                None => SlotReg::Hidden,
            };
            l.slots.push(reg);
        }
        Ok(l)
    }

    /// The procedure's frame, once its code is lowered (declined when its registers
    /// do not fit a frame's files).
    fn finish(self) -> Res<ProcImage> {
        use super::machine::{NUM_REGS, SET_REGS};
        if self.reads_claims.get() {
            self.im.reads_claims = true;
        }
        if self.nums as usize > NUM_REGS
            || self.sets as usize > SET_REGS
            || self.objs as usize > NUM_REGS
        {
            return Err(Declined::new("a procedure with too many values"));
        }
        Ok(ProcImage {
            start: self.start,
            nums: self.nums,
            sets: self.sets,
            objs: self.objs,
            slots: self.slots,
        })
    }

    /// Emits an instruction.
    pub(super) fn emit(&mut self, i: Ins) {
        self.im.code.push(i);
    }

    /// The next instruction's index.
    pub(super) fn here(&self) -> u32 {
        self.im.code.len() as u32
    }

    /// Points the jump at instruction `at` to `to`.
    pub(super) fn patch_jump(&mut self, at: u32, to: u32) {
        let ins = &mut self.im.code[at as usize];
        *ins = match *ins {
            Ins::Jump(_) => Ins::Jump(to),
            Ins::JumpUnless(c, _) => Ins::JumpUnless(c, to),
            Ins::LoopNext {
                over,
                base,
                len,
                idx,
                var,
                ..
            } => Ins::LoopNext {
                over,
                base,
                len,
                idx,
                var,
                exit: to,
            },
            Ins::ListNext { list, idx, var, .. } => Ins::ListNext {
                list,
                idx,
                var,
                exit: to,
            },
            Ins::ListNextSet { list, idx, var, .. } => Ins::ListNextSet {
                list,
                idx,
                var,
                exit: to,
            },
            Ins::SetPop { rest, var, .. } => Ins::SetPop {
                rest,
                var,
                exit: to,
            },
            other => {
                debug_assert!(false, "not a jump: {other:?}");
                other
            }
        };
    }

    /// Emits a jump whose target is an op index (settled in [`Lower::proc`]).
    fn jump_op(&mut self, i: Ins) {
        self.fix.push(self.im.code.len());
        self.emit(i);
    }

    /// A guard's code, emitted after the procedure's; its snippet number.
    pub(super) fn snippet(&mut self, e: &Expr) -> u16 {
        let id = self.im.snippets.len() as u16;
        self.im.snippets.push(u32::MAX);
        self.jobs.push((id, e.clone()));
        id
    }

    /// Lowers a procedure's ops, then its guards' code, and settles its jumps.
    fn proc(&mut self, pd: &crate::ir::ProcDef) -> Res<()> {
        let targets = jump_targets(&pd.code);
        let mut i = 0;
        while i < pd.code.len() {
            self.op_pc.push(self.here());
            self.at = pd.locs.get(i).copied();
            // A draw, `let c = top(Z)` then `move c to W`, is one instruction (when
            // nothing jumps between the two).
            if let Some(ins) = self.draw(&pd.code, i, &targets)? {
                self.emit(ins);
                self.op_pc.push(self.here() - 1);
                i += 2;
                continue;
            }
            let before = self.here();
            self.op(&pd.code, &pd.code[i])?;
            // Every op is at least one step, as the engine counts it (see `machine`).
            if self.here() == before {
                self.emit(Ins::Nop);
            }
            i += 1;
        }
        // An op index one past the end is the procedure's end: a return.
        self.op_pc.push(self.here());
        self.emit(Ins::Ret);
        for (id, e) in std::mem::take(&mut self.jobs) {
            self.im.snippets[id as usize] = self.here();
            let r = self.num_temp();
            self.bool_into(&e, r)?;
            self.emit(Ins::Yield(r));
        }
        let pc = |l: &Lower, op: u32| -> Res<u32> {
            l.op_pc
                .get(op as usize)
                .copied()
                .ok_or_else(|| Declined::new("a jump past the procedure"))
        };
        for at in std::mem::take(&mut self.fix) {
            let target = match self.im.code[at] {
                Ins::Jump(t) | Ins::JumpUnless(_, t) => t,
                Ins::LoopNext { exit, .. }
                | Ins::ListNext { exit, .. }
                | Ins::ListNextSet { exit, .. } => exit,
                Ins::SetPop { exit, .. } => exit,
                _ => continue,
            };
            let to = pc(self, target)?;
            self.patch_jump(at as u32, to);
        }
        for k in std::mem::take(&mut self.fix_picks) {
            let mut opts = std::mem::take(&mut self.im.picks[k as usize].options).into_vec();
            for o in &mut opts {
                o.body = pc(self, o.body)?;
            }
            self.im.picks[k as usize].options = opts.into_boxed_slice();
        }
        for k in std::mem::take(&mut self.fix_claims) {
            let mut c = self.im.claims[k as usize].clone();
            for o in c.options.iter_mut() {
                o.body = pc(self, o.body)?;
            }
            c.after = pc(self, c.after)?;
            self.im.claims[k as usize] = c;
        }
        Ok(())
    }

    /// `let c = top(Z)` at op `i` and `move c to W` after it, as one [`Ins::MoveTop`].
    fn draw(&mut self, code: &[Op], i: usize, targets: &[bool]) -> Res<Option<Ins>> {
        let (Some(Op::Let(slot, Expr::Call(Builtin::Top, args, _))), Some(Op::Move(what, to, _))) =
            (code.get(i), code.get(i + 1))
        else {
            return Ok(None);
        };
        let dst = match (self.slots.get(*slot as usize), what) {
            (Some(SlotReg::Num(r, NumKind::Card)), Expr::Local(s)) if s == slot => *r,
            _ => return Ok(None),
        };
        if args.len() != 1 || targets.get(i + 1).copied().unwrap_or(true) {
            return Ok(None);
        }
        let from = self.zone(&args[0])?;
        let to = self.zone(to)?;
        Ok(Some(Ins::MoveTop { dst, from, to }))
    }

    /// Lowers one op.
    fn op(&mut self, code: &[Op], op: &Op) -> Res<()> {
        match op {
            Op::Let(slot, e) => self.store_slot(*slot, e),
            Op::Assign(t, aop, e, _) => self.assign(t, *aop, e),
            Op::Jump(t) => {
                self.jump_op(Ins::Jump(*t));
                Ok(())
            }
            Op::JumpIfNot(e, t) => {
                let c = self.cond(e)?;
                self.jump_op(Ins::JumpUnless(c, *t));
                Ok(())
            }
            Op::ForStart { list, domain, .. } => self.for_start(*list, domain),
            Op::ForNext {
                list, var, exit, ..
            } => self.for_next(*list, *var, *exit),
            Op::Move(what, to, _) => {
                let ins = match self.kind(what)? {
                    Kind::Num(NumKind::Card) => {
                        let c = self.num(what)?;
                        Ins::MoveCard {
                            c,
                            to: self.zone(to)?,
                        }
                    }
                    // A zone's cards move in the zone's order (bottom first), as listed.
                    Kind::Num(NumKind::Zone) => {
                        let from = self.zone(what)?;
                        Ins::MoveZone {
                            from,
                            to: self.zone(to)?,
                        }
                    }
                    Kind::Set => {
                        let v = self.set(what)?;
                        Ins::MoveSet {
                            v,
                            to: self.zone(to)?,
                        }
                    }
                    _ => return Err(Declined::new("a move of another kind")),
                };
                self.emit(ins);
                Ok(())
            }
            Op::Shuffle(z, _) => {
                let z = self.zone(z)?;
                self.emit(Ins::Shuffle(z));
                Ok(())
            }
            Op::Cut(z, aside, _) => {
                let z = self.zone(z)?;
                let aside = match aside {
                    Some(a) => Some(self.zone(a)?),
                    None => None,
                };
                self.emit(Ins::Cut(z, aside));
                Ok(())
            }
            Op::Deal {
                counts,
                from,
                to,
                start,
                ..
            } => self.deal(counts, from, to, start.as_ref()),
            Op::Gather(z, _) => {
                let z = self.zone(z)?;
                self.emit(Ins::Gather(z));
                Ok(())
            }
            Op::Decide(d) => match d.kind {
                DecideKind::One => self.pick(d),
                DecideKind::Claim => self.window(d, false),
                DecideKind::Each => self.window(d, true),
            },
            Op::Decline { decide } => {
                let k = self
                    .windows
                    .iter()
                    .find(|(at, _)| at == decide)
                    .map(|(_, k)| *k)
                    .ok_or_else(|| Declined::new("a `decline` before its window"))?;
                self.emit(Ins::Decline(k));
                Ok(())
            }
            Op::OptionDone { decide } => match code.get(*decide as usize) {
                // A `choose each` may have moves waiting to start.
                Some(Op::Decide(d)) if d.kind == DecideKind::Each => {
                    let k = self
                        .windows
                        .iter()
                        .find(|(at, _)| at == decide)
                        .map(|(_, k)| *k)
                        .ok_or_else(|| Declined::new("an option before its decision"))?;
                    self.emit(Ins::EachDone(k));
                    Ok(())
                }
                // Any other decision took one move: the rules go on after it.
                Some(Op::Decide(d)) => {
                    self.jump_op(Ins::Jump(d.after));
                    Ok(())
                }
                _ => Err(Declined::new("an option without its decision")),
            },
            Op::Pay {
                amount, from, to, ..
            } => {
                let n = self.num(amount)?;
                match from {
                    PayFrom::One(t) => {
                        let from = self.place(t)?;
                        let to = self.place(to)?;
                        self.emit(Ins::Pay { n, from, to });
                    }
                    PayFrom::Each(v, seats) => {
                        let seats = self.seats_of(seats)?;
                        let to = self.place(to)?;
                        self.emit(Ins::PayEach {
                            n,
                            var: self.layout.var_base[*v as usize],
                            seats,
                            to,
                        });
                    }
                }
                Ok(())
            }
            Op::Outcome(e) => match self.kind(e)? {
                Kind::Num(NumKind::Sym) => {
                    let v = self.num(e)?;
                    self.emit(Ins::Outcome(v));
                    Ok(())
                }
                Kind::Obj => {
                    let r = self.obj(e)?;
                    self.emit(Ins::OutcomeValue(r));
                    Ok(())
                }
                Kind::Num(_) => {
                    // Shown as the engine shows the value.
                    let r = self.obj_temp();
                    self.cold(e, SlotReg::Obj(r));
                    self.emit(Ins::OutcomeValue(r));
                    Ok(())
                }
                _ => Err(Declined::new("an outcome of another kind")),
            },
            Op::Record(r, s) => {
                let r = self.obj(r)?;
                let seat = self.num(s)?;
                self.emit(Ins::Record { r, seat });
                Ok(())
            }
            Op::DealerByDraw { keys } => {
                let i = u16::try_from(self.im.draws.len())
                    .map_err(|_| Declined::new("too many `dealer by draw` statements"))?;
                self.im.draws.push(keys.clone());
                self.emit(Ins::DealerByDraw(i));
                Ok(())
            }
            Op::Reveal(z) => {
                let z = self.zone(z)?;
                self.emit(Ins::Reveal(z));
                Ok(())
            }
            Op::Show(_) => Err(Declined::new("`reveal` of cards (the engine plays it)")),
            // A game the machine plays keeps no log: the engine does not evaluate it.
            Op::Say(_) => Ok(()),
            Op::Expect(e, _) | Op::Require(e, _, _) => {
                let c = self.cond(e)?;
                self.emit(Ins::Require(c));
                Ok(())
            }
            Op::Tally(label, e, seat) => {
                let seat = match seat {
                    Some(s) => {
                        let n = self.num(s)?;
                        Some(self.num_reg(n))
                    }
                    None => None,
                };
                let v = match self.kind(e)? {
                    Kind::Num(k) => Arg::Num(self.num(e)?, k),
                    Kind::Set => Arg::Set(self.set(e)?),
                    Kind::Obj => Arg::Obj(self.obj(e)?),
                    Kind::Family => return Err(Declined::new("a per-seat zone tallied")),
                };
                self.im.labels.push(label.as_str().into());
                let label = (self.im.labels.len() - 1) as u16;
                self.emit(Ins::Tally { label, v, seat });
                Ok(())
            }
            Op::Answer(..) => Err(Declined::new("a test's answer")),
            Op::Call(q, args, _) => self.call(*q, args),
            Op::Return => {
                self.emit(Ins::Ret);
                Ok(())
            }
            // The value goes back through the machine (`Returned`) and into the
            // caller's register by the instruction after the call.
            Op::CallValue(q, args, dst, _) => {
                self.call(*q, args)?;
                let take = match self.slot(*dst) {
                    Some(SlotReg::Num(r, k)) if *k != NumKind::Zone => Ins::TakeNum(*r),
                    Some(SlotReg::Set(r)) => Ins::TakeSet(*r),
                    Some(SlotReg::Obj(r)) => Ins::TakeObj(*r),
                    _ => return Err(Declined::new("a value returned into another kind")),
                };
                self.emit(take);
                Ok(())
            }
            Op::ReturnValue(e) => {
                let ret = match self.kind(e)? {
                    Kind::Num(NumKind::Zone) => {
                        return Err(Declined::new("a zone returned as a value"))
                    }
                    Kind::Num(_) => Ins::RetNum(self.num(e)?),
                    Kind::Set => Ins::RetSet(self.set(e)?),
                    Kind::Obj => Ins::RetObj(self.obj(e)?),
                    _ => return Err(Declined::new("a value of another kind returned")),
                };
                self.emit(ret);
                Ok(())
            }
        }
    }

    /// `let slot = e`.
    pub(super) fn store_slot(&mut self, slot: u16, e: &Expr) -> Res<()> {
        match self.slots.get(slot as usize).copied() {
            Some(SlotReg::Num(r, k)) => {
                // A zone held in a local stays the zone (not its cards), as the engine's.
                if k != NumKind::Zone && self.kind(e)? == Kind::Num(NumKind::Zone) {
                    return Err(Declined::new("a zone stored as another kind"));
                }
                self.num_into(e, r, k)
            }
            Some(SlotReg::Set(r)) => {
                // The engine keeps a zone bound this way as the zone, read later.
                if self.kind(e)? != Kind::Set {
                    return Err(Declined::new("cards bound from another kind"));
                }
                let v = self.set(e)?;
                self.emit(Ins::SetCards { dst: r, v });
                Ok(())
            }
            Some(SlotReg::Obj(r)) => self.obj_into(e, r),
            _ => Err(Declined::new("a local with no register")),
        }
    }

    /// `target op= e`.
    fn assign(&mut self, t: &Target, aop: AssignOp, e: &Expr) -> Res<()> {
        if let Target::Item(var, i) = t {
            return self.assign_item(*var, i, aop, e);
        }
        let kind = match t {
            Target::Local(s) => match self.slots.get(*s as usize) {
                Some(SlotReg::Num(_, k)) => Kind::Num(*k),
                Some(SlotReg::Set(_)) => Kind::Set,
                Some(SlotReg::Obj(_)) => Kind::Obj,
                _ => return Err(Declined::new("a local with no register")),
            },
            Target::Var(v) | Target::SeatVar(v, _) => kind_of_type(&self.p.vars[*v as usize].ty)
                .ok_or_else(|| Declined::new("a variable of unknown type"))?,
            Target::Dealer => Kind::Num(NumKind::Seat),
            Target::Item(..) => return Err(Declined::new("an item of a list assigned")),
        };
        match kind {
            Kind::Num(NumKind::Zone) => Err(Declined::new("a zone assigned")),
            Kind::Num(k) => {
                if self.kind(e)? == Kind::Num(NumKind::Zone) {
                    return Err(Declined::new("a zone assigned as a number"));
                }
                if let (Target::Local(s), AssignOp::Set) = (t, aop) {
                    if let Some(SlotReg::Num(r, _)) = self.slots.get(*s as usize).copied() {
                        return self.num_into(e, r, k);
                    }
                }
                let v = self.num(e)?;
                let to = self.place(t)?;
                self.emit(match aop {
                    AssignOp::Set => Ins::Store { to, v, kind: k },
                    AssignOp::Add => Ins::Add { to, v },
                    AssignOp::Sub => Ins::Sub { to, v },
                });
                Ok(())
            }
            Kind::Set if aop == AssignOp::Set => {
                // A zone's cards are stored, not the zone (as the engine's `assign`).
                let v = self.set(e)?;
                match t {
                    Target::Local(s) => match self.slots[*s as usize] {
                        SlotReg::Set(dst) => self.emit(Ins::SetCards { dst, v }),
                        _ => return Err(Declined::new("a local with no register")),
                    },
                    Target::Var(var) if !self.p.vars[*var as usize].per_seat => {
                        self.emit(Ins::StoreCards {
                            slot: self.layout.var_base[*var as usize],
                            seat: None,
                            v,
                        })
                    }
                    Target::SeatVar(var, s) => {
                        let seat = self.num(s)?;
                        let seat = self.num_reg(seat);
                        self.emit(Ins::StoreCards {
                            slot: self.layout.var_base[*var as usize],
                            seat: Some(seat),
                            v,
                        })
                    }
                    _ => return Err(Declined::new("cards assigned to another place")),
                }
                Ok(())
            }
            Kind::Obj if aop == AssignOp::Set => match t {
                Target::Local(s) => match self.slots[*s as usize] {
                    SlotReg::Obj(r) => self.obj_into(e, r),
                    _ => Err(Declined::new("a local with no register")),
                },
                // A list or a result kept in a variable: read back by the engine's
                // evaluator, as any other value is.
                Target::Var(var) if !self.p.vars[*var as usize].per_seat => {
                    let r = self.obj(e)?;
                    let slot = self.layout.var_base[*var as usize];
                    self.emit(Ins::StoreObj {
                        slot,
                        seat: None,
                        r,
                    });
                    Ok(())
                }
                Target::SeatVar(var, s) => {
                    let r = self.obj(e)?;
                    let seat = self.num(s)?;
                    let seat = Some(self.num_reg(seat));
                    let slot = self.layout.var_base[*var as usize];
                    self.emit(Ins::StoreObj { slot, seat, r });
                    Ok(())
                }
                _ => Err(Declined::new("a variable holding a list or result")),
            },
            _ => Err(Declined::new("an assignment of another kind")),
        }
    }

    /// `v[i] op= e` on a list variable: the value as the engine hands it over (a zone
    /// would be stored as the zone there, not its cards: such a program is declined).
    fn assign_item(&mut self, var: u16, i: &Expr, aop: AssignOp, e: &Expr) -> Res<()> {
        let arg = match self.kind(e)? {
            Kind::Num(NumKind::Zone) | Kind::Family => {
                return Err(Declined::new("a zone stored in a list"))
            }
            Kind::Num(k) => Arg::Num(self.num(e)?, k),
            Kind::Set => Arg::Set(self.set(e)?),
            Kind::Obj => Arg::Obj(self.obj(e)?),
        };
        let index = match self.kind(i)? {
            // (The engine reads a symbol as index 0: such a program is declined.)
            Kind::Num(k) if k != NumKind::Zone && k != NumKind::Sym => self.num(i)?,
            _ => return Err(Declined::new("a list's index of another kind")),
        };
        let slot = self
            .layout
            .var_base
            .get(var as usize)
            .copied()
            .ok_or_else(|| Declined::new("an unknown variable"))?;
        self.emit(Ins::SetItem {
            slot,
            index,
            arg,
            op: aop,
        });
        Ok(())
    }

    /// Where a number target is stored.
    fn place(&mut self, t: &Target) -> Res<Place> {
        Ok(match t {
            Target::Local(s) => match self.slots.get(*s as usize) {
                Some(SlotReg::Num(r, _)) => Place::R(*r),
                _ => return Err(Declined::new("a local that holds no number")),
            },
            Target::Var(v) if !self.p.vars[*v as usize].per_seat => {
                Place::V(self.layout.var_base[*v as usize])
            }
            Target::SeatVar(v, s) => {
                let seat = self.num(s)?;
                Place::SV(self.layout.var_base[*v as usize], self.num_reg(seat))
            }
            Target::Dealer => Place::Dealer,
            Target::Var(_) => return Err(Declined::new("a per-seat variable without a seat")),
            Target::Item(..) => return Err(Declined::new("an item of a list assigned")),
        })
    }

    /// A seat list walked by a payment or a claim window.
    pub(super) fn seats_of(&mut self, e: &Expr) -> Res<Seats> {
        Ok(match e {
            Expr::Call(Builtin::Seats, args, _) if args.is_empty() => Seats::All,
            Expr::Call(Builtin::Others, args, _) if args.len() == 1 => {
                Seats::Others(self.num(&args[0])?)
            }
            _ if self.kind(e)? == Kind::Obj => Seats::List(self.obj(e)?),
            _ => return Err(Declined::new("seats of another kind")),
        })
    }

    /// `for var in domain`: seats, a range, or a list of numbers.
    fn for_start(&mut self, list: u16, domain: &Expr) -> Res<()> {
        let over = match domain {
            Expr::Call(Builtin::Seats, args, _) if args.is_empty() => Some(Loop::All),
            Expr::Call(Builtin::Others, args, _) if args.len() == 1 => {
                Some(Loop::Others(self.num(&args[0])?))
            }
            Expr::Range(a, b) => Some(Loop::Range(self.num(a)?, self.num(b)?)),
            _ => None,
        };
        let (base, len, idx) = (self.num_temp(), self.num_temp(), self.num_temp());
        let (obj, rest) = (self.obj_temp(), self.set_temp());
        // The engine lists the domain when the loop starts: the loop walks that list.
        let walk = match over {
            Some(over) => {
                self.emit(Ins::LoopStart {
                    over,
                    base,
                    len,
                    idx,
                });
                Walk::Seats(over)
            }
            None => match self.kind(domain)? {
                Kind::Obj => {
                    let from = self.obj(domain)?;
                    self.emit(Ins::ListStart {
                        list: obj,
                        from,
                        idx,
                    });
                    Walk::List
                }
                // A zone's cards in its order, bottom first.
                Kind::Num(NumKind::Zone) => {
                    let z = self.zone(domain)?;
                    self.emit(Ins::ZoneList { dst: obj, z });
                    self.emit(Ins::ListStart {
                        list: obj,
                        from: obj,
                        idx,
                    });
                    Walk::List
                }
                Kind::Set | Kind::Num(NumKind::Card) => {
                    let v = self.set(domain)?;
                    self.emit(Ins::SetCards { dst: rest, v });
                    Walk::Cards
                }
                _ => return Err(Declined::new("a loop over another kind")),
            },
        };
        let slot = self
            .loops
            .get_mut(list as usize)
            .ok_or_else(|| Declined::new("a loop's slot outside its frame"))?;
        *slot = Some((base, len, idx, obj, rest, walk));
        Ok(())
    }

    /// The next round of the loop started at `list`'s slot.
    fn for_next(&mut self, list: u16, var: u16, exit: u32) -> Res<()> {
        let Some(Some((base, len, idx, obj, rest, walk))) = self.loops.get(list as usize).copied()
        else {
            return Err(Declined::new("a loop without its start"));
        };
        // A list of card sets (a player's called melds) is walked into a set register.
        if let (Walk::List, Some(SlotReg::Set(r))) = (walk, self.slots.get(var as usize)) {
            let var = *r;
            self.jump_op(Ins::ListNextSet {
                list: obj,
                idx,
                var,
                exit,
            });
            return Ok(());
        }
        let var = match self.slots.get(var as usize) {
            Some(SlotReg::Num(r, _)) => *r,
            // A loop whose value has no name (`repeat 6`): a register nothing reads.
            Some(SlotReg::Hidden) => self.num_temp(),
            _ => return Err(Declined::new("a loop over values that are not numbers")),
        };
        match walk {
            Walk::Cards => self.jump_op(Ins::SetPop { rest, var, exit }),
            Walk::Seats(over) => self.jump_op(Ins::LoopNext {
                over,
                base,
                len,
                idx,
                var,
                exit,
            }),
            Walk::List => self.jump_op(Ins::ListNext {
                list: obj,
                idx,
                var,
                exit,
            }),
        }
        Ok(())
    }

    /// `deal k… from z to family`.
    fn deal(&mut self, counts: &[Expr], from: &Expr, to: &Expr, start: Option<&Expr>) -> Res<()> {
        let mut ks = Vec::with_capacity(counts.len());
        for k in counts {
            ks.push(self.num(k)?);
        }
        let from = self.zone(from)?;
        let to = match to {
            Expr::ZoneFamily(z) => DealTo::Family(self.layout.zone_base[*z as usize]),
            _ => DealTo::Zone(self.zone(to)?),
        };
        let start = match start {
            Some(s) => Some(self.num(s)?),
            None => None,
        };
        self.im.deals.push(DealDef {
            counts: ks.into_boxed_slice(),
            from,
            to,
            start,
        });
        self.emit(Ins::Deal((self.im.deals.len() - 1) as u16));
        Ok(())
    }

    /// Calls a procedure, its arguments in its parameters' registers.
    fn call(&mut self, q: u16, args: &[Expr]) -> Res<()> {
        let callee = self
            .p
            .procs
            .get(q as usize)
            .ok_or_else(|| Declined::new("a call of an unknown procedure"))?;
        let mut out = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            let want = callee
                .slots
                .get(i)
                .and_then(kind_of_type)
                .ok_or_else(|| Declined::new("a parameter of unknown type"))?;
            let got = self.kind(a)?;
            out.push(match want {
                Kind::Num(NumKind::Zone) if got == Kind::Num(NumKind::Zone) => {
                    Arg::Num(self.num(a)?, NumKind::Zone)
                }
                Kind::Num(k) if matches!(got, Kind::Num(g) if g != NumKind::Zone) => {
                    Arg::Num(self.num(a)?, k)
                }
                // A zone handed to a `cards` parameter stays the zone in the engine: the
                // machine hands its cards over as they are at the call, which is the
                // same while the callee moves no card.
                Kind::Set if got == Kind::Set => Arg::Set(self.set(a)?),
                Kind::Set
                    if got == Kind::Num(NumKind::Zone)
                        && super::lower_calls::moves_no_cards(self.p, q) =>
                {
                    Arg::Set(self.set(a)?)
                }
                Kind::Obj if got == Kind::Obj => Arg::Obj(self.obj(a)?),
                _ => return Err(Declined::new("an argument of another kind")),
            });
        }
        let args = self.arg_list(out)?;
        self.emit(Ins::Call { proc: q, args });
        Ok(())
    }
}

/// Which ops of a procedure something jumps to (or a decision goes on at).
fn jump_targets(code: &[Op]) -> Vec<bool> {
    let mut t = vec![false; code.len() + 1];
    let mut mark = |i: u32| {
        if let Some(x) = t.get_mut(i as usize) {
            *x = true;
        }
    };
    for op in code {
        match op {
            Op::Jump(j) | Op::JumpIfNot(_, j) => mark(*j),
            Op::ForNext { exit, .. } => mark(*exit),
            Op::Decide(d) => {
                mark(d.after);
                d.options.iter().for_each(|o| mark(o.body));
            }
            _ => {}
        }
    }
    t
}

/// A value's kind as a number, for giving it back as a [`Value`].
pub(super) fn value_of_num(k: NumKind, n: i64) -> Value {
    match k {
        NumKind::Int => Value::Int(n),
        NumKind::Bool => Value::Bool(n != 0),
        NumKind::Seat => Value::Seat(n as u8),
        NumKind::Card => Value::Card(n as u16),
        NumKind::Sym => Value::Sym(n as u32),
        NumKind::Zone => Value::Zone(n as u16),
    }
}
