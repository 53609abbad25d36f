//! What the machine hands its slower work to: procedure calls and their frames, deals,
//! seat lists, and the engine's evaluator (score tables, and any expression without
//! an instruction, with the frame's locals given as values).

use crate::engine::{scalar_of, Cx, EVAL_BUDGET};
use crate::model::CardSet;
use crate::value::Value;

use super::image::{DealTo, SlotReg};
use super::ins::{Arg, NumKind, Seats, SeatsOf};
use super::lower::value_of_num;
use super::machine::{Frame, Machine, Stop, MAX_DEPTH, NUM_REGS, SET_MASK, SET_REGS};

impl Machine<'_> {
    /// `deal …`: checked whole before any card moves, then pass by pass.
    pub(super) fn deal(&mut self, d: u16) -> Result<(), Stop> {
        let def = &self.im.deals[d as usize];
        let mut counts = [0i64; 16];
        if def.counts.len() > counts.len() {
            return Err(Stop::Deal);
        }
        for (k, c) in counts.iter_mut().zip(def.counts.iter()) {
            *k = self.num(*c)?;
            if *k < 0 {
                return Err(Stop::Deal);
            }
        }
        let counts = &counts[..def.counts.len()];
        let from = self.zone(def.from)? as u16;
        let n = self.board.seats;
        let start = match def.start {
            Some(s) => self.seat_of(self.num(s)?)? as u8,
            None => (self.board.dealer + 1) % n,
        };
        let per = counts.iter().fold(0i64, |a, k| a.saturating_add(*k));
        let held = self.board.zones[from as usize].len() as i64;
        match def.to {
            DealTo::Family(first) => {
                // A deal into the zone it deals from is the engine's to report.
                if (0..n).any(|s| first + s as u16 == from) || per.saturating_mul(n as i64) > held {
                    return Err(Stop::Deal);
                }
                let mut ks = [0usize; 16];
                for (k, c) in ks.iter_mut().zip(counts) {
                    *k = *c as usize;
                }
                let ks = &ks[..counts.len()];
                self.board.deal_rounds(from, first, start, n, ks);
            }
            DealTo::Zone(z) => {
                let dest = self.zone(z)? as u16;
                if dest == from || per > held {
                    return Err(Stop::Deal);
                }
                for &k in counts {
                    self.board.deal_top(from, dest, k as usize);
                }
            }
        }
        Ok(())
    }

    /// The seats a payment or a claim window walks, without a list when they go round
    /// the table: the first, how many, and the list the rules made if they did (then
    /// the first is 0). Seat `i` of a run round the table is `first + i`, less the
    /// number of seats once it passes the last.
    #[inline(always)]
    pub(super) fn seat_run(&self, seats: Seats) -> Result<(u8, u8, Option<Vec<u8>>), Stop> {
        let n = self.board.seats;
        Ok(match seats {
            Seats::All => (self.board.dealer, n, None),
            Seats::Others(s) => {
                let s = self.seat_of(self.num(s)?)? as u8;
                // The seat after `s`, without a division.
                let after = if s + 1 >= n { 0 } else { s + 1 };
                (after, n - 1, None)
            }
            Seats::List(_) => {
                let l = self.seat_list(seats)?;
                (0, l.len() as u8, Some(l))
            }
        })
    }

    /// The seats a payment or a claim window walks, in order.
    pub(super) fn seat_list(&self, seats: Seats) -> Result<Vec<u8>, Stop> {
        match seats {
            Seats::All => self.seats_of(SeatsOf::All),
            Seats::Others(s) => self.seats_of(SeatsOf::Others(s)),
            Seats::List(r) => match &self.o[self.ob + r as usize] {
                Value::List(items) => items
                    .iter()
                    .map(|v| match v {
                        Value::Seat(s) => self.seat_of(*s as i64).map(|s| s as u8),
                        Value::Int(i) => self.seat_of(*i).map(|s| s as u8),
                        _ => Err(Stop::Value),
                    })
                    .collect(),
                _ => Err(Stop::Value),
            },
        }
    }

    /// `seats()`, `others(s)` or `leaders(v)`.
    pub(super) fn seats_of(&self, of: SeatsOf) -> Result<Vec<u8>, Stop> {
        let n = self.board.seats;
        let ring = |first: u8, count: u8| (0..count).map(move |k| (first + k) % n);
        Ok(match of {
            SeatsOf::All => ring(self.board.dealer, n).collect(),
            SeatsOf::Others(s) => {
                let s = self.seat_of(self.num(s)?)? as u8;
                ring((s + 1) % n, n - 1).collect()
            }
            SeatsOf::Leaders(v) => {
                let val = |s: u8| {
                    self.board
                        .vars
                        .get(v as usize + s as usize)
                        .map(|x| x.int())
                        .unwrap_or(0)
                };
                let order: Vec<u8> = ring(self.board.dealer, n).collect();
                let top = order.iter().map(|s| val(*s)).max().unwrap_or(0);
                order.into_iter().filter(|s| val(*s) == top).collect()
            }
        })
    }

    /// Calls a procedure: its arguments into a new frame's registers.
    pub(super) fn call(&mut self, proc: u16, args: u16, ret: u32) -> Result<u32, Stop> {
        if self.frames.len() + 1 >= MAX_DEPTH {
            return Err(Stop::Limit);
        }
        let callee = &self.im.procs[proc as usize];
        // A new frame starts with every register zero, as a fresh one would.
        let (mut n, mut s) = self.spare.pop().unwrap_or_else(super::machine::new_files);
        // Only the registers the callee uses (a frame's files are fixed-size).
        n[..(callee.nums as usize).min(NUM_REGS)].fill(0);
        s[..(callee.sets as usize).min(SET_REGS)].fill(CardSet::EMPTY);
        let ob = self.o.len();
        self.o.resize(ob + callee.objs as usize, Value::Unit);
        for (i, a) in self.im.arg_lists[args as usize].iter().enumerate() {
            match (callee.slots.get(i), *a) {
                (Some(SlotReg::Num(r, _)), Arg::Num(v, _)) => n[*r as usize] = self.num(v)?,
                (Some(SlotReg::Set(r)), Arg::Set(v)) => {
                    s[(*r & SET_MASK) as usize] = self.set(v)?
                }
                (Some(SlotReg::Obj(r)), Arg::Obj(v)) => {
                    self.o[ob + *r as usize] = self.o[self.ob + v as usize].clone();
                }
                _ => return Err(Stop::Value),
            }
        }
        self.frames.push(Frame {
            ret,
            n: std::mem::replace(&mut self.n, n),
            s: std::mem::replace(&mut self.s, s),
            ob: self.ob,
            proc: self.proc,
        });
        (self.ob, self.proc) = (ob, proc);
        Ok(callee.start)
    }

    /// A score table's arguments as values.
    pub(super) fn arg_values(&self, args: u16) -> Result<Vec<Value>, Stop> {
        self.arg_values_in(args, 0)
    }

    /// [`Machine::arg_values`] in a list with room for `room` values: a score table's
    /// whole frame, which it fills out from its arguments without growing the list.
    pub(super) fn arg_values_in(&self, args: u16, room: usize) -> Result<Vec<Value>, Stop> {
        let list = &self.im.arg_lists[args as usize];
        let mut vals = Vec::with_capacity(room.max(list.len()));
        for a in list.iter() {
            vals.push(self.arg_value(*a)?);
        }
        Ok(vals)
    }

    /// A value handed over whole.
    pub(super) fn arg_value(&self, a: Arg) -> Result<Value, Stop> {
        Ok(match a {
            Arg::Num(v, k) => value_of_num(k, self.num(v)?),
            Arg::Set(v) => Value::Cards(self.set(v)?),
            Arg::Obj(r) => self.o[self.ob + r as usize].clone(),
        })
    }

    /// Runs the engine's evaluator on the board with the round's work left, charging
    /// what it used.
    pub(super) fn evaluate<T>(
        &mut self,
        at: crate::ir::Loc,
        f: impl FnOnce(&mut Cx<'_>) -> Result<T, crate::engine::RuntimeError>,
    ) -> Result<T, Stop> {
        self.evaluate_with(at, &mut [], f)
    }

    /// [`Machine::evaluate`] with the running frame's locals given.
    pub(super) fn evaluate_with<T>(
        &mut self,
        at: crate::ir::Loc,
        locals: &mut [Value],
        f: impl FnOnce(&mut Cx<'_>) -> Result<T, crate::engine::RuntimeError>,
    ) -> Result<T, Stop> {
        let left = self.round_budget.saturating_sub(self.work());
        let start = EVAL_BUDGET.min(left);
        let mut cx = Cx {
            p: self.p,
            b: Some(&self.board),
            locals,
            groups: &[],
            budget: start,
            at,
        };
        let r = f(&mut cx);
        let used = start - cx.budget;
        self.set_evals(self.evals.saturating_add(used));
        r.map_err(|_| Stop::Evaluator)
    }

    /// `v[index] op= arg` on the list in variable slot `slot`, as the engine's `assign`
    /// does it (a list that is not one, or an index outside it, stops the game for the
    /// engine to report).
    pub(super) fn set_item(
        &mut self,
        slot: u16,
        index: super::ins::Num,
        arg: super::ins::Arg,
        op: fuda_grammar::ast::AssignOp,
    ) -> Result<(), Stop> {
        use fuda_grammar::ast::AssignOp;
        let v = self.arg_value(arg)?;
        let i = self.num(index)?;
        let Some(Value::List(items)) = self.board.vars.get(slot as usize) else {
            return Err(Stop::Value);
        };
        let k = usize::try_from(i)
            .ok()
            .filter(|k| *k < items.len())
            .ok_or(Stop::Value)?;
        let mut items: Vec<Value> = items.to_vec();
        items[k] = match op {
            AssignOp::Set => v,
            AssignOp::Add => Value::Int(items[k].int().checked_add(v.int()).ok_or(Stop::Value)?),
            AssignOp::Sub => Value::Int(items[k].int().checked_sub(v.int()).ok_or(Stop::Value)?),
        };
        self.board.vars[slot as usize] = Value::List(items.into());
        Ok(())
    }

    /// A value the engine's evaluator works out, with the frame's locals as values.
    pub(super) fn cold(&mut self, k: u16) -> Result<(), Stop> {
        let def = &self.im.cold[k as usize];
        let slots = &self.im.procs[self.proc as usize].slots;
        let value = |s: &SlotReg| match *s {
            SlotReg::Num(r, k) => value_of_num(k, self.n[r as usize]),
            SlotReg::Set(r) => Value::Cards(self.s[(r & SET_MASK) as usize]),
            SlotReg::Obj(r) => self.o[self.ob + r as usize].clone(),
            SlotReg::Hidden => Value::Unit,
        };
        // Only the slots the expression reads are set: the list is kept from one cold
        // expression to the next, and what its other slots hold from before is never
        // read (a slot the expression binds, a quantifier's, it writes first). A
        // procedure with inlined defs may have hundreds of slots; a guard reads a few.
        let mut locals = std::mem::take(&mut self.cold_locals);
        if locals.len() < slots.len() {
            locals.resize(slots.len(), Value::Unit);
        }
        for &s in def.reads.iter() {
            if let (Some(l), Some(reg)) = (locals.get_mut(s as usize), slots.get(s as usize)) {
                *l = value(reg);
            }
        }
        for (slot, reg) in &def.overlay {
            if let Some(l) = locals.get_mut(*slot as usize) {
                *l = value(reg);
            }
        }
        let v = self.evaluate_with(def.at, &mut locals, |cx| cx.eval(&def.expr));
        self.cold_locals = locals;
        let v = v?;
        match def.dst {
            SlotReg::Num(r, k) => {
                let x = match (&v, k) {
                    (Value::Zone(z), NumKind::Zone) => *z as i64,
                    (v, k) if k != NumKind::Zone => scalar_of(v).ok_or(Stop::Value)?,
                    _ => return Err(Stop::Value),
                };
                self.n[r as usize] = x;
            }
            SlotReg::Set(r) => {
                let s = match v {
                    Value::Cards(s) => s,
                    Value::Card(c) => CardSet::single(c),
                    Value::Zone(z) => self.board.sets[z as usize],
                    _ => return Err(Stop::Value),
                };
                self.s[(r & SET_MASK) as usize] = s;
            }
            SlotReg::Obj(r) => self.o[self.ob + r as usize] = v,
            SlotReg::Hidden => {}
        }
        Ok(())
    }
}
