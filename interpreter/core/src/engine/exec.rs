//! Running procedure code: `advance` executes until a decision or the end of the game
//! (decisions themselves, and `apply`, are in `offer.rs`).

use std::sync::Arc;

use super::error::RuntimeError;
use super::eval::{Cx, EVAL_BUDGET};
use super::pick::{Picker, Waits};
use super::quicken::Ran;
use super::state::{Board, CodeRef, Event, State, MAX_EVENTS};
use crate::ir::{Expr, Loc, Op, PayFrom, ProcDef, Program, Target};
use crate::model::{CardIx, CardSet};
use crate::value::Value;
use fuda_grammar::ast::AssignOp;

/// Ops one `advance` may run without reaching a decision before it is stopped as a loop.
pub const OP_LIMIT: u64 = 5_000_000;
/// Work one round (from the game's start or an `outcome` to the next) may do: the
/// evaluation steps of all its evaluations, and the ops run between its decisions. A
/// budget per round, not per decision, so that a round that never ends, or a heavy
/// evaluation repeated at every decision, stops in well under a second whatever the
/// players: the costliest bundled or sketched round does under 50,000.
pub const ROUND_BUDGET: u64 = 5_000_000;
/// Work a whole game (or a test) may do, over all its rounds, besides what its decisions
/// earn ([`WORK_PER_DECISION`]): without it, a game whose every round works hard and
/// ends in an `outcome` would run for hours, each `outcome` starting a fresh round.
/// Fifty times what the costliest fishing match of 120 rounds does (under 200,000), and
/// under half a second of a release build's engine.
pub const GAME_BUDGET: u64 = 10_000_000;
/// Work each decision of a round earns the game when the round ends: a long match of
/// honest rounds (a match to 40 points, a thousand deals whose win checks cost some
/// hundreds of steps a decision) plays to its end, while a game whose rounds each work
/// hard for a few decisions still runs out within about the same time as without it.
pub const WORK_PER_DECISION: u64 = 2_000;
/// Deepest procedure nesting.
const MAX_DEPTH: usize = 200;

/// The code and source locations of a frame's body.
pub(super) fn body(p: &Program, c: CodeRef) -> (&[Op], &[Loc]) {
    let def = proc_def(p, c);
    (&def.code, &def.locs)
}

/// The procedure (or test body) a frame runs.
fn proc_def(p: &Program, c: CodeRef) -> &ProcDef {
    match c {
        CodeRef::Proc(i) => &p.procs[i as usize],
        CodeRef::Test(i) => &p.tests[i as usize].body,
    }
}

/// Runs `f` on an evaluation context over the board and a frame's locals. Each
/// evaluation has its own budget, and all of a round's evaluations share a larger one
/// ([`ROUND_BUDGET`]), so a loop of heavy evaluations is bounded too.
#[inline]
pub(super) fn with_cx<T>(
    p: &Program,
    b: &Board,
    locals: &mut [Value],
    at: Loc,
    left: &mut u64,
    f: impl FnOnce(&mut Cx<'_>) -> Result<T, RuntimeError>,
) -> Result<T, RuntimeError> {
    if *left == 0 {
        return Err(over_budget(at));
    }
    let start = EVAL_BUDGET.min(*left);
    let mut cx = Cx {
        p,
        b: Some(b),
        locals,
        groups: &[],
        budget: start,
        at,
    };
    let r = f(&mut cx);
    *left -= start - cx.budget;
    // Out of the round's budget (an evaluation stopped by it, not by its own, says so).
    if *left == 0 {
        return Err(over_budget(at));
    }
    r
}

/// Evaluates `e` with the board and a frame's locals.
#[inline]
fn eval(
    p: &Program,
    b: &Board,
    locals: &mut [Value],
    e: &Expr,
    at: Loc,
    left: &mut u64,
) -> Result<Value, RuntimeError> {
    with_cx(p, b, locals, at, left, |cx| cx.eval(e))
}

/// Evaluates a condition with the board and a frame's locals.
#[inline]
fn eval_bool(
    p: &Program,
    b: &Board,
    locals: &mut [Value],
    e: &Expr,
    at: Loc,
    left: &mut u64,
) -> Result<bool, RuntimeError> {
    with_cx(p, b, locals, at, left, |cx| cx.eval_bool(e))
}

/// The error of a round whose work passed [`ROUND_BUDGET`], or of a game whose work
/// passed [`GAME_BUDGET`].
pub(super) fn over_budget(at: Loc) -> RuntimeError {
    RuntimeError::new(
        format!(
            "the rules did more steps of work than a round ({ROUND_BUDGET}) or a whole game \
             ({GAME_BUDGET}) may do"
        ),
        at,
    )
    .with_help(
        "each round should end in `outcome`; look for a loop that never ends, or a heavy \
         evaluation repeated at every decision or in every round",
    )
}

fn cards_of(b: &Board, v: &Value, at: Loc) -> Result<Vec<CardIx>, RuntimeError> {
    Ok(match v {
        Value::Card(c) => vec![*c],
        Value::Cards(s) => s.iter().collect(),
        Value::Zone(z) => b.zones[*z as usize].to_vec(),
        Value::ZoneFamily(z) => {
            let base = b.layout.zone_base[*z as usize] as usize;
            (0..b.seats as usize)
                .flat_map(|s| b.zones[base + s].iter().copied())
                .collect()
        }
        other => {
            return Err(RuntimeError::new(
                format!("expected cards, found {other:?}"),
                at,
            ))
        }
    })
}

fn zone_of(v: &Value, at: Loc) -> Result<u16, RuntimeError> {
    match v {
        Value::Zone(z) => Ok(*z),
        other => Err(RuntimeError::new(
            format!("expected a zone, found {other:?}"),
            at,
        )),
    }
}

pub(super) fn seat_list(v: &Value, n: u8, at: Loc) -> Result<Vec<u8>, RuntimeError> {
    match v {
        Value::List(l) => l.iter().map(|x| seat_of(x, n, at)).collect(),
        other => Err(RuntimeError::new(
            format!("expected a list of seats, found {other:?}"),
            at,
        )),
    }
}

pub(super) fn seat_of(v: &Value, n: u8, at: Loc) -> Result<u8, RuntimeError> {
    let s = match v {
        Value::Seat(s) => *s as i64,
        Value::Int(i) => *i,
        _ => -1,
    };
    if s < 0 || s >= n as i64 {
        return Err(RuntimeError::new(format!("seat {s} does not exist"), at));
    }
    Ok(s as u8)
}

impl State {
    /// Runs until a decision is waiting (returns false) or the game ends (true).
    pub fn advance(&mut self, p: &Program) -> Result<bool, RuntimeError> {
        self.advance_with(p, &mut Waits)
    }

    /// [`State::advance`] with a player inside the engine: a decision `pk` can settle
    /// without a move list (see [`Picker`]) is taken at once, and the call either goes
    /// on (when [`Picker::goes_on`] says so) or returns false with no decision waiting,
    /// so that a caller that wants to can see every decision a player made. Any other
    /// decision waits as with `advance` (with a picker that shows forced moves,
    /// [`Picker::SHOWS_FORCED`], a `choose` with a single move too).
    pub fn advance_with<P: Picker>(
        &mut self,
        p: &Program,
        pk: &mut P,
    ) -> Result<bool, RuntimeError> {
        let mut steps: u64 = 0;
        while self.pending.is_none() {
            let Some(frame) = self.frames.last() else {
                return Ok(true);
            };
            let def = proc_def(p, frame.code);
            let (code, locs) = (&def.code[..], &def.locs[..]);
            // With `Board::quicken` off every op runs in full.
            let quick = if self.board.quicken {
                &def.quick[..]
            } else {
                &[]
            };
            let base = frame.base as usize;
            let depth = self.frames.len();
            // Run this frame's ops until it calls, returns or waits: the body is looked
            // up once per stretch, not once per op. An op either pushes a frame or pops
            // one, never both, so an unchanged depth means the same frame. Fast forms
            // move the frame's `pc` kept here; a full op reads and writes the frame's.
            let mut pc = self.frames[depth - 1].pc as usize;
            loop {
                let Some(op) = code.get(pc) else {
                    self.pop_frame();
                    break;
                };
                if P::WATCHES_OPS {
                    pk.before_op(p, self, depth, pc, op);
                }
                steps += 1;
                if steps > OP_LIMIT {
                    let at = locs.get(pc).copied().unwrap_or_default();
                    return Err(RuntimeError::new(format!("the rules ran {OP_LIMIT} steps without a decision: this looks like an endless loop"), at)
                        .with_help("make sure every loop ends or offers a decision"));
                }
                // A fast form that ran neither called, returned nor waited.
                match quick.get(pc).map(|q| self.step_quick(p, op, q, base)) {
                    Some(Ran::Next) => {
                        pc += 1;
                        continue;
                    }
                    Some(Ran::Jump(to)) => {
                        pc = to as usize;
                        continue;
                    }
                    Some(Ran::Declined) | None => {}
                }
                let at = locs.get(pc).copied().unwrap_or_default();
                self.frames[depth - 1].pc = pc as u32 + 1;
                if self.step(p, op, base, at, pk)? {
                    // The ops run go to the round's budget, checked as the next move
                    // is picked (see `State::count_decision`).
                    self.steps_left = self.steps_left.saturating_sub(steps);
                    if !pk.goes_on(self) {
                        return Ok(false);
                    }
                    // Going on past a player's move: the op limit starts again, as it
                    // would on returning to the caller and being called again.
                    steps = 0;
                }
                if self.pending.is_some() || self.frames.len() != depth {
                    break;
                }
                pc = self.frames[depth - 1].pc as usize;
            }
        }
        self.steps_left = self.steps_left.saturating_sub(steps);
        Ok(false)
    }

    fn pop_frame(&mut self) {
        if let Some(f) = self.frames.pop() {
            self.locals.truncate(f.base as usize);
        }
    }

    pub(super) fn jump(&mut self, to: u32) {
        if let Some(f) = self.frames.last_mut() {
            f.pc = to;
        }
    }

    // Always inlined: as a call (LLVM keeps it one when merely asked to inline) it costs
    // about 30 instructions, more than the store itself.
    #[inline(always)]
    pub(super) fn set_local(&mut self, base: usize, slot: u16, v: Value) {
        if let Some(s) = self.locals.get_mut(base + slot as usize) {
            *s = v;
        }
    }

    /// Evaluates `e` in the frame whose locals start at `base`.
    pub(super) fn value_of(
        &mut self,
        p: &Program,
        base: usize,
        e: &Expr,
        at: Loc,
    ) -> Result<Value, RuntimeError> {
        if let Some(v) = self.value_here(e, base) {
            return Ok(v);
        }
        eval(
            p,
            &self.board,
            &mut self.locals[base..],
            e,
            at,
            &mut self.steps_left,
        )
    }

    /// `e`'s value read straight off the board when it is a constant, a local, the
    /// dealer, a parameter, a variable (of a seat read by [`State::seat_here`]), a zone
    /// (see [`State::zone_here`]) or a zone family: most operands of the
    /// ops each deal runs once (`gather 山札`, `deal 4, 3 from 山札 to 手札`,
    /// `配牌[s] = 手札[s]`), which then skip setting up a full evaluation. `None` for
    /// any other form, and with `Board::quicken` off.
    #[inline]
    fn value_here(&self, e: &Expr, base: usize) -> Option<Value> {
        if !self.board.quicken {
            return None;
        }
        match e {
            Expr::Const(v) => Some(v.clone()),
            // As the full evaluation reads a slot past the frame's end: no value.
            Expr::Local(s) => Some(
                self.locals
                    .get(base + *s as usize)
                    .cloned()
                    .unwrap_or(Value::Unit),
            ),
            Expr::Dealer => Some(Value::Seat(self.board.dealer)),
            Expr::Param(i) => self.board.params.get(*i as usize).cloned(),
            Expr::Var(v) => self.var_here(*v, 0),
            Expr::SeatVar(v, s) => self.var_here(*v, self.seat_here(s, base)?),
            Expr::Zone(_) | Expr::SeatZone(..) => self.zone_here(e, base).map(Value::Zone),
            Expr::ZoneFamily(z) => Some(Value::ZoneFamily(*z)),
            _ => None,
        }
    }

    /// A variable's value (at a seat, for a per-seat one); `None` when the board has no
    /// such slot, which the full evaluation then reports.
    #[inline]
    fn var_here(&self, v: u16, seat: u8) -> Option<Value> {
        let b = &self.board;
        let slot = *b.layout.var_base.get(v as usize)? as usize + seat as usize;
        b.vars.get(slot).cloned()
    }

    /// Evaluates condition `e` in the frame whose locals start at `base`.
    pub(super) fn holds(
        &mut self,
        p: &Program,
        base: usize,
        e: &Expr,
        at: Loc,
    ) -> Result<bool, RuntimeError> {
        eval_bool(
            p,
            &self.board,
            &mut self.locals[base..],
            e,
            at,
            &mut self.steps_left,
        )
    }

    /// Every op's full meaning (see [`State::step`]).
    #[inline(never)]
    pub(super) fn step_cold(
        &mut self,
        p: &Program,
        op: &Op,
        base: usize,
        at: Loc,
    ) -> Result<(), RuntimeError> {
        macro_rules! ev {
            ($e:expr) => {
                self.value_of(p, base, $e, at)?
            };
        }
        match op {
            Op::Let(slot, e) => {
                let v = ev!(e);
                self.set_local(base, *slot, v);
            }
            Op::Assign(t, aop, e, _) => {
                let v = ev!(e);
                self.assign(p, base, t, *aop, v, at)?;
            }
            // Wholly handled by `step`.
            Op::Jump(_) | Op::JumpIfNot(..) | Op::Decide(_) | Op::OptionDone { .. } => {
                return self.step(p, op, base, at, &mut Waits).map(|_| ())
            }
            Op::Decline { decide } => self.decline(p, *decide, base, at)?,
            Op::ForStart {
                list,
                index,
                domain,
            } => {
                let d = ev!(domain);
                let items = match d {
                    Value::List(l) => Value::List(l),
                    // A range is walked where it lies, not listed: a loop over a million
                    // numbers holds two, however deep the loops and calls nest.
                    Value::Range(a, b) => {
                        if b.saturating_sub(a) > 1_000_000 {
                            return Err(RuntimeError::new(
                                format!("a loop over {a}..{b} is too long"),
                                at,
                            ));
                        }
                        Value::Range(a, b)
                    }
                    other => Value::List(
                        cards_of(&self.board, &other, at)?
                            .into_iter()
                            .map(Value::Card)
                            .collect::<Vec<_>>()
                            .into(),
                    ),
                };
                self.set_local(base, *list, items);
                self.set_local(base, *index, Value::Int(0));
            }
            Op::ForNext {
                list,
                index,
                var,
                exit,
            } => {
                let i = self.locals[base + *index as usize].int() as usize;
                let next = match &self.locals[base + *list as usize] {
                    Value::List(l) => l.get(i).cloned(),
                    Value::Range(a, b) => {
                        a.checked_add(i as i64).filter(|v| v <= b).map(Value::Int)
                    }
                    _ => None,
                };
                match next {
                    Some(v) => {
                        self.set_local(base, *var, v);
                        self.set_local(base, *index, Value::Int(i as i64 + 1));
                    }
                    None => self.jump(*exit),
                }
            }
            Op::Move(what, to, _) => {
                let w = ev!(what);
                let z = zone_of(&ev!(to), at)?;
                match w {
                    // One card or a set moves without listing the cards first.
                    Value::Card(c) => self.board.move_card(c, z),
                    Value::Cards(set) => set.iter().for_each(|c| self.board.move_card(c, z)),
                    w => {
                        for c in cards_of(&self.board, &w, at)? {
                            self.board.move_card(c, z);
                        }
                    }
                }
            }
            Op::Shuffle(z, _) => {
                let z = zone_of(&ev!(z), at)? as usize;
                let b = &mut self.board;
                b.rng.shuffle(&mut b.zones[z]);
            }
            Op::Cut(z, aside, _) => {
                let z = zone_of(&ev!(z), at)?;
                let aside = match aside {
                    Some(a) => Some(zone_of(&ev!(a), at)?),
                    None => None,
                };
                self.board.cut(z, aside);
            }
            Op::Deal {
                counts,
                from,
                to,
                start,
                ..
            } => {
                let mut ns = Vec::new();
                for c in counts {
                    ns.push(ev!(c).int());
                }
                let from = zone_of(&ev!(from), at)?;
                let to = ev!(to);
                let start = match start {
                    Some(s) => seat_of(&ev!(s), self.board.seats, at)?,
                    None => (self.board.dealer + 1) % self.board.seats,
                };
                self.deal(p, &ns, from, &to, start, at)?;
            }
            Op::Gather(z, _) => {
                let z = zone_of(&ev!(z), at)?;
                self.board.gather(z);
                self.board.revealed.iter_mut().for_each(|r| *r = false);
                self.board.shown = CardSet::EMPTY;
            }
            Op::Pay {
                amount, from, to, ..
            } => {
                let n = ev!(amount).int();
                match from {
                    PayFrom::One(t) => {
                        self.assign(p, base, t, AssignOp::Sub, Value::Int(n), at)?;
                        self.assign(p, base, to, AssignOp::Add, Value::Int(n), at)?;
                    }
                    PayFrom::Each(v, seats) => {
                        let seats = seat_list(&ev!(seats), self.board.seats, at)?;
                        for s in seats {
                            let slot = self.board.var_slot(*v, Some(s));
                            let cur = self.board.vars[slot].int();
                            let left = cur
                                .checked_sub(n)
                                .ok_or_else(|| super::typed::overflow(at))?;
                            self.board.vars[slot] = Value::Int(left);
                            self.assign(p, base, to, AssignOp::Add, Value::Int(n), at)?;
                        }
                    }
                }
            }
            Op::Outcome(e) => {
                let v = ev!(e);
                let text: Arc<str> = match &v {
                    Value::Sym(s) => p.sym(*s).into(),
                    Value::Str(s) => super::state::event_text(s).into(),
                    other => super::state::event_text(&super::show::value_on(
                        p,
                        Some(&self.board),
                        other,
                    ))
                    .into(),
                };
                self.push_event(Event::Outcome(text, self.board.dealer), at)?;
                // A new round begins: its limits start again, its work from what the
                // game has left, and what the round's decisions earned it.
                let earned = self.round_decisions.saturating_mul(WORK_PER_DECISION);
                self.round_decisions = 0;
                let pool = self
                    .game_steps_left
                    .saturating_add(self.steps_left)
                    .saturating_add(earned);
                self.steps_left = ROUND_BUDGET.min(pool);
                self.game_steps_left = pool - self.steps_left;
            }
            Op::Record(r, s) => {
                let r = ev!(r);
                let s = seat_of(&ev!(s), self.board.seats, at)?;
                if let Value::Score(r) = r {
                    self.push_event(Event::Record(s, r, self.board.dealer), at)?;
                }
            }
            Op::DealerByDraw { keys } => self.board.dealer_by_draw(&p.deck, keys),
            Op::Reveal(z) => {
                let z = zone_of(&ev!(z), at)?;
                self.board.revealed[z as usize] = true;
            }
            Op::Show(cs) => {
                let v = ev!(cs);
                let cards = match v {
                    Value::Card(c) => CardSet::single(c),
                    Value::Cards(s) => s,
                    _ => {
                        return Err(RuntimeError::new(
                            "`reveal` shows a zone, a card or cards",
                            at,
                        ))
                    }
                };
                self.board.shown = self.board.shown.union(cards);
            }
            Op::Say(e) => {
                if self.keep_log {
                    let v = ev!(e);
                    let text = super::show::value_on(p, Some(&self.board), &v);
                    let text = super::state::event_text(&text).into_owned();
                    self.push_event(Event::Say(text), at)?;
                }
            }
            Op::Expect(e, loc) => {
                if !ev!(e).truthy() {
                    // Say what the two sides of a failed comparison were.
                    let detail = match e {
                        Expr::Bin(op, a, b) if !matches!(op, crate::ir::Op2::In) => {
                            let a = ev!(a);
                            let b = ev!(b);
                            format!(
                                ": the left side is {}, the right side {}",
                                super::show::value_on(p, Some(&self.board), &a),
                                super::show::value_on(p, Some(&self.board), &b)
                            )
                        }
                        _ => String::new(),
                    };
                    return Err(RuntimeError::new(
                        format!("expectation failed{detail}"),
                        *loc,
                    ));
                }
            }
            Op::Require(e, message, loc) => {
                if !ev!(e).truthy() {
                    let m = message
                        .clone()
                        .unwrap_or_else(|| "a rule's `require` failed".into());
                    return Err(RuntimeError::new(m, *loc));
                }
            }
            Op::Answer(name, arg) => {
                let v = match arg {
                    Some(a) => ev!(a),
                    None => Value::Unit,
                };
                self.answers.push_back((name.clone(), v, at));
            }
            Op::Tally(label, e, seat) => {
                let v = ev!(e);
                let text = super::show::value_on(p, Some(&self.board), &v);
                let text = super::state::event_text(&text).into_owned();
                let seat = match seat {
                    Some(s) => Some(seat_of(&ev!(s), self.board.seats, at)?),
                    None => None,
                };
                self.push_event(Event::Tally(label.as_str().into(), text, seat), at)?;
            }
            // A valued call enters its frame alike; `Op::ReturnValue` writes the value.
            Op::Call(q, args, _) | Op::CallValue(q, args, _, _) => {
                if self.frames.len() >= MAX_DEPTH {
                    return Err(RuntimeError::new(
                        format!("procedures nest deeper than {MAX_DEPTH}: endless recursion?"),
                        at,
                    ));
                }
                // The arguments go straight into the new frame's first slots (no list
                // of them is built); a failing one leaves the locals as they were.
                let new_base = self.locals.len();
                for a in args {
                    match self.value_of(p, base, a, at) {
                        Ok(v) => self.locals.push(v),
                        Err(e) => {
                            self.locals.truncate(new_base);
                            return Err(e);
                        }
                    }
                }
                self.enter_frame(p, CodeRef::Proc(*q), new_base);
            }
            Op::Return => self.pop_frame(),
            Op::ReturnValue(e) => {
                let v = self.value_of(p, base, e, at)?;
                self.pop_frame();
                // The caller stopped just past its call (a call always runs in full):
                // a `CallValue` there names the slot the value goes to.
                if let Some(f) = self.frames.last() {
                    let call = body(p, f.code).0.get(f.pc.wrapping_sub(1) as usize);
                    if let Some(Op::CallValue(_, _, dst, _)) = call {
                        let (fb, dst) = (f.base as usize, *dst);
                        self.set_local(fb, dst, v);
                    }
                }
            }
        }
        Ok(())
    }

    fn assign(
        &mut self,
        p: &Program,
        base: usize,
        t: &Target,
        op: AssignOp,
        v: Value,
        at: Loc,
    ) -> Result<(), RuntimeError> {
        let slot: &mut Value = match t {
            Target::Local(s) => &mut self.locals[base + *s as usize],
            Target::Var(v) => {
                let i = self.board.var_slot(*v, None);
                &mut self.board.vars[i]
            }
            Target::SeatVar(v, s) => {
                let seat = self.value_of(p, base, s, at)?;
                let seat = seat_of(&seat, self.board.seats, at)?;
                let i = self.board.var_slot(*v, Some(seat));
                &mut self.board.vars[i]
            }
            Target::Dealer => {
                self.board.dealer = seat_of(&v, self.board.seats, at)?;
                return Ok(());
            }
            Target::Item(var, i) => {
                let i = match self.value_of(p, base, i, at)? {
                    Value::Card(c) => c as i64,
                    x => x.int(),
                };
                let slot = self.board.var_slot(*var, None);
                let Value::List(items) = &self.board.vars[slot] else {
                    return Err(RuntimeError::new("this variable holds no list", at));
                };
                let Some(k) = usize::try_from(i).ok().filter(|k| *k < items.len()) else {
                    return Err(RuntimeError::new(
                        format!("index {i} is outside a list of {}", items.len()),
                        at,
                    ));
                };
                let mut items: Vec<Value> = items.to_vec();
                items[k] = match op {
                    AssignOp::Set => v,
                    AssignOp::Add => Value::Int(
                        items[k]
                            .int()
                            .checked_add(v.int())
                            .ok_or_else(|| super::typed::overflow(at))?,
                    ),
                    AssignOp::Sub => Value::Int(
                        items[k]
                            .int()
                            .checked_sub(v.int())
                            .ok_or_else(|| super::typed::overflow(at))?,
                    ),
                };
                self.board.vars[slot] = Value::List(items.into());
                return Ok(());
            }
        };
        *slot = match op {
            AssignOp::Set => match (&*slot, v) {
                // Keep the declared type when a zone's contents are stored.
                (_, Value::Zone(z)) => Value::Cards(self.board.sets[z as usize]),
                (_, v) => v,
            },
            AssignOp::Add => Value::Int(
                slot.int()
                    .checked_add(v.int())
                    .ok_or_else(|| super::typed::overflow(at))?,
            ),
            AssignOp::Sub => Value::Int(
                slot.int()
                    .checked_sub(v.int())
                    .ok_or_else(|| super::typed::overflow(at))?,
            ),
        };
        Ok(())
    }

    fn deal(
        &mut self,
        p: &Program,
        counts: &[i64],
        from: u16,
        to: &Value,
        start: u8,
        at: Loc,
    ) -> Result<(), RuntimeError> {
        // Checked before any card moves, so a failed deal leaves the zones as they were.
        // The checker refuses a negative count known in advance; this one was computed.
        if let Some(k) = counts.iter().find(|k| **k < 0) {
            return Err(RuntimeError::new(
                format!("a deal count cannot be negative, and this one is {k}"),
                at,
            )
            .with_help("the count is computed in play: keep it at 0 or more (`max(0, …)`)"));
        }
        let n = self.board.seats;
        // A deal too large for its zone is said with its numbers, as the checker's
        // deck-too-small says them (a count it could not know: a parameter set at run
        // time, or one computed in play). Checked before any card moves; a deal into the
        // zone it deals from is left to the check per pass below.
        let (dests, into_self) = match to {
            Value::ZoneFamily(z) => (
                n as i64,
                (0..n).any(|i| self.board.zone_instance(*z, Some(i)) == from),
            ),
            Value::Zone(d) => (1, *d == from),
            _ => (1, true),
        };
        let per = counts.iter().fold(0i64, |a, k| a.saturating_add(*k));
        let needed = per.saturating_mul(dests);
        let held = self.board.zones[from as usize].len() as i64;
        if !into_self && needed > held {
            return Err(deal_short(
                p,
                &self.board,
                counts,
                from,
                to,
                needed,
                held,
                at,
            ));
        }
        let take = |b: &mut Board, k: i64, dest: u16| -> Result<(), RuntimeError> {
            if b.deal_top(from, dest, k.max(0) as usize) {
                Ok(())
            } else {
                Err(RuntimeError::new("the deal runs out of cards", at)
                    .with_help("deal fewer cards or use a larger deck"))
            }
        };
        match to {
            // Into each seat's instance of a family, from another zone that holds them
            // all: round by round in one pass (each seat's instance is the family's
            // first plus the seat).
            Value::ZoneFamily(z) if !into_self && counts.len() <= 16 => {
                let first = self.board.zone_instance(*z, Some(0));
                let mut ks = [0usize; 16];
                for (k, c) in ks.iter_mut().zip(counts) {
                    *k = (*c).max(0) as usize;
                }
                self.board
                    .deal_rounds(from, first, start, n, &ks[..counts.len()]);
            }
            Value::ZoneFamily(z) => {
                for &k in counts {
                    for i in 0..n {
                        let seat = (start + i) % n;
                        let dest = self.board.zone_instance(*z, Some(seat));
                        take(&mut self.board, k, dest)?;
                    }
                }
            }
            Value::Zone(dest) => {
                for &k in counts {
                    take(&mut self.board, k, *dest)?;
                }
            }
            other => return Err(RuntimeError::new(format!("cannot deal to {other:?}"), at)),
        }
        Ok(())
    }

    /// Keeps an event, unless the game has made [`MAX_EVENTS`] already.
    fn push_event(&mut self, e: Event, at: Loc) -> Result<(), RuntimeError> {
        if self.events.len() >= MAX_EVENTS {
            return Err(RuntimeError::new(
                format!(
                    "the game made more than {MAX_EVENTS} outcomes, results, tallies and \
                     messages"
                ),
                at,
            )
            .with_help("a game keeps every event until it ends: look for a `tally`, `record` or `say` in a loop"));
        }
        self.events.push(e);
        Ok(())
    }

    /// Cards a seat can see: its own zones, public zones, revealed zones, stack tops.
    pub fn visible_to(&self, p: &Program, seat: u8) -> CardSet {
        use crate::ir::Visibility;
        let b = &self.board;
        // Cards shown with `reveal CARDS` are seen wherever they lie.
        let mut out = b.shown;
        for (i, (z, owner)) in b.layout.zone_of.iter().enumerate() {
            let vis = p.zones[*z as usize].visibility;
            let seen = b.revealed[i]
                || match vis {
                    Visibility::Public => true,
                    Visibility::Owner => *owner == Some(seat),
                    Visibility::Hidden => false,
                    Visibility::Top => {
                        if let Some(c) = b.zones[i].last() {
                            out.insert(*c);
                        }
                        false
                    }
                };
            if seen {
                out = out.union(b.sets[i]);
            }
        }
        out
    }
}

/// The error for a deal that needs more cards than its zone holds, with both numbers:
/// "the deal needs 52 cards (13 to each of 4 seats), but `山` holds 48".
#[allow(clippy::too_many_arguments)]
fn deal_short(
    p: &Program,
    b: &Board,
    counts: &[i64],
    from: u16,
    to: &Value,
    needed: i64,
    held: i64,
    at: Loc,
) -> RuntimeError {
    let zone_name = |instance: u16| -> String {
        match b.layout.zone_of.get(instance as usize) {
            Some(&(z, seat)) => {
                let name = p.zones.get(z as usize).map_or("?", |d| d.name.as_str());
                match seat {
                    Some(s) => format!("{name}[{s}]"),
                    None => name.to_string(),
                }
            }
            None => "?".to_string(),
        }
    };
    let each = counts
        .iter()
        .map(|k| k.to_string())
        .collect::<Vec<_>>()
        .join(" + ");
    let how = match to {
        Value::ZoneFamily(z) => {
            let name = p.zones.get(*z as usize).map_or("?", |d| d.name.as_str());
            format!("{each} to `{name}` of each of {} seats", b.seats)
        }
        Value::Zone(d) => format!("{each} to `{}`", zone_name(*d)),
        _ => each,
    };
    let seats_help = match (to, &p.seats.count) {
        (Value::ZoneFamily(_), Expr::Param(i)) => {
            let name = p
                .params
                .get(*i as usize)
                .map_or("players", |d| d.name.as_str());
            format!(", or play with fewer seats (`{name}`)")
        }
        (Value::ZoneFamily(_), _) => ", or play with fewer seats".to_string(),
        _ => String::new(),
    };
    RuntimeError::new(
        format!(
            "the deal needs {needed} cards ({how}), but `{}` holds {held}",
            zone_name(from)
        ),
        at,
    )
    .with_help(format!(
        "deal fewer cards (check the parameters the count reads){seats_help}; `fuda check` counts only the deals it can see in advance"
    ))
}
