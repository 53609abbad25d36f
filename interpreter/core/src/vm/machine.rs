//! The machine: typed register files, a call stack of frames, and the loop that runs
//! instructions on the engine's board until the game ends, counting its work so that it
//! stops no later than the engine would (see the module's documentation).

use std::sync::Arc;

use crate::agents::AutoPlayers;
use crate::engine::{scalar_of, Board, Event, OP_LIMIT};
use crate::ir::Program;
use crate::model::CardSet;
use crate::play::{DealChips, GameRecord};
use crate::value::Value;

use super::image::Image;
use super::ins::{Arith, Field, Ins, Loop, Place};

/// Why the machine stopped a game before its end. The game is then played again by
/// the engine, which reports what happened in the rules' words. (A byte, so that every
/// result the machine passes around stays in registers.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A value of an unexpected kind or out of range (a seat, a card, a zone, an item).
    Value,
    /// `top` of an empty zone.
    Empty,
    /// Arithmetic outside 64 bits, or a division by zero.
    Arithmetic,
    /// A deal the zone cannot give, or of a count that is not one.
    Deal,
    /// A limit: steps or decisions without an end, or calls nested too deep.
    Limit,
    /// A `require` or `expect` that failed.
    Failed,
    /// A decision with no legal move.
    NoMove,
    /// The engine's evaluator reported an error.
    Evaluator,
    /// Something the machine's own code should never meet.
    Internal,
}

/// The most engine ops one instruction stands for: a jump that goes straight to where a
/// chain of jumps ends, or a draw (`let c = top(Z)` and `move c to …`) in one. The
/// machine stops after [`OP_LIMIT`] / this many instructions without a decision, so it
/// stops no later than the engine would.
pub(super) const OPS_PER_INSTRUCTION: u64 = 4;

/// Instructions the machine runs without a decision before it stops.
pub(super) const STEP_LIMIT: u64 = OP_LIMIT / OPS_PER_INSTRUCTION;

/// Deepest procedure nesting (the engine's limit).
pub(super) const MAX_DEPTH: usize = 200;

/// Number registers a frame has: a [`Reg`](super::ins::Reg) is a byte, so reading one
/// needs no bounds check.
pub(super) const NUM_REGS: usize = 256;

/// Card-set registers a frame has (a register is read masked to this many).
pub(super) const SET_REGS: usize = 256;

/// The mask that keeps a set register in its file.
pub(super) const SET_MASK: u8 = (SET_REGS - 1) as u8;

/// A frame's number registers.
pub(super) type Nums = Box<[i64; NUM_REGS]>;

/// A frame's card-set registers.
pub(super) type Sets = Box<[CardSet; SET_REGS]>;

/// One active call: where to go on in the caller, and the caller's registers.
#[derive(Debug)]
pub(super) struct Frame {
    /// Where the caller goes on.
    pub ret: u32,
    /// The caller's number registers.
    pub n: Nums,
    /// The caller's card-set registers.
    pub s: Sets,
    /// The caller's first other-value register.
    pub ob: usize,
    /// The caller's procedure.
    pub proc: u16,
}

/// How a run of instructions ended.
pub(super) enum Exit {
    /// The game's entry procedure returned.
    End,
    /// A guard's code yielded its answer.
    Yield(bool),
}

/// A game in the machine.
pub(super) struct Machine<'a> {
    pub p: &'a Program,
    pub im: &'a Image,
    /// The board (the engine's: zones, variables, dealer, generator).
    pub board: Board,
    /// The running frame's number registers.
    pub n: Nums,
    /// The running frame's card-set registers.
    pub s: Sets,
    /// Other-value registers of every frame.
    pub o: Vec<Value>,
    /// The running frame's first other-value register.
    pub ob: usize,
    /// Register files of frames that returned, for the next calls.
    pub(super) spare: Vec<(Nums, Sets)>,
    /// The running procedure.
    pub proc: u16,
    /// The callers' frames.
    pub(super) frames: Vec<Frame>,
    /// What happened (outcomes and records), as the engine's events.
    pub events: Vec<Event>,
    /// Decisions taken in the game.
    pub decisions: u64,
    /// Most decisions the game may take.
    pub decision_limit: u64,
    /// Past this count of the game's decisions the game stops: the game's limit, or
    /// the round's ([`crate::engine::ROUND_DECISION_LIMIT`] past its first), whichever
    /// comes first; one comparison for both on every decision.
    pub(super) decision_stop: u64,
    /// Steps the engine's evaluator took in the round (see [`Machine::work`]).
    pub(super) evals: u64,
    /// How many of the round's instructions (`round_steps + steps`) bring its work to
    /// `round_budget`, given `evals`: set with it ([`Machine::set_evals`]), so that a
    /// decision compares two counts.
    pub(super) run_stop: u64,
    /// Work the round in progress may do: [`crate::engine::ROUND_BUDGET`], or less
    /// when the game has less left ([`crate::engine::GAME_BUDGET`]).
    pub(super) round_budget: u64,
    /// Work the game may still give to the rounds after this one, as the engine's
    /// `State::game_steps_left`.
    pub(super) game_left: u64,
    /// The count of decisions when the running round began.
    pub(super) round_first_decision: u64,
    /// Instructions run in the round before the last decision a player chose.
    pub round_steps: u64,
    /// Instructions run since the last decision a player chose, against [`STEP_LIMIT`]
    /// (as the engine counts ops since it last asked a player or returned).
    pub steps: u64,
    /// Chip changes per deal, read at decision boundaries.
    pub deal_chips: DealChips,
    pub deal_rows: Vec<(u8, Vec<i64>)>,
    /// A claim window's claimants (seat, moves, first ending move, where its moves
    /// start in `claim_moves`), kept between windows so that asking allocates nothing.
    pub claimants: Vec<(u8, usize, Option<usize>, u32)>,
    /// Every claimant's moves but its pass, one after the other: the option and the
    /// value its argument is bound to (nothing for an option without one).
    pub(super) claim_moves: Vec<(u16, Value)>,
    /// The places of the values an option over values allowed, kept between decisions.
    pub(super) value_places: Vec<u32>,
    /// How many events there were at the last decision boundary: a boundary with as
    /// many has nothing to read.
    pub(super) seen_events: usize,
    /// Moves a `choose each` chose that wait to start: the frame depth, the window,
    /// the seat, the option and the value its argument takes (the next to start last).
    pub queue: Vec<(usize, u16, u8, u16, Value)>,
    /// Claims a window kept after the one taken, for a `decline` in its body: the frame
    /// depth, the window, the seat, the option and its value (the next last).
    pub(super) declined: Vec<(usize, u16, u8, u16, Value)>,
    /// The ledger's sum, when invariants are checked at each boundary.
    pub(super) ledger: Option<i64>,
    /// What the last valued return gave back, until the caller takes it.
    pub(super) returned: Returned,
    /// The locals a cold expression is evaluated with, kept for the next one.
    pub(super) cold_locals: Vec<Value>,
}

/// A value a procedure returned, on its way to the caller's register.
#[derive(Debug, Default)]
pub(super) enum Returned {
    /// Nothing (taken, or no valued return since).
    #[default]
    None,
    /// A number.
    Num(i64),
    /// A card set.
    Set(CardSet),
    /// Another value.
    Obj(Value),
}

/// Plays one game of `p` (lowered as `im`) from its start on `board`, with players lent
/// by the caller: the record the engine would make (but the seed and the chips, which
/// the caller reads off the final board returned with it), or [`Stop`]. With `check`,
/// the invariants are checked where the engine checks them (every card in one zone, the
/// ledger's sum unchanged), and a broken one stops the game.
pub fn play(
    p: &Program,
    im: &Image,
    board: Board,
    players: &mut AutoPlayers<'_>,
    limits: super::GameLimits,
    check: bool,
) -> Result<(GameRecord, Board), Stop> {
    let decision_limit = limits.decisions;
    let (round_budget, game_left) = limits.first_round();
    let deal_chips = DealChips::new(p, &board, &[]);
    let board_ledger = board.ledger_sum();
    let mut spare = im.files.take();
    let (n, s) = spare.pop().unwrap_or_else(new_files);
    let mut m = Machine {
        p,
        im,
        board,
        n,
        s,
        o: Vec::with_capacity(8),
        ob: 0,
        spare,
        proc: im.entry,
        frames: Vec::with_capacity(8),
        // Room for a usual match's events and deals (a deal's outcome and a few
        // records each), so that they are not grown again and again each game.
        events: Vec::with_capacity(64),
        decisions: 0,
        decision_limit,
        decision_stop: decision_limit.min(crate::engine::ROUND_DECISION_LIMIT),
        evals: 0,
        run_stop: super::limits::run_stop(round_budget, 0),
        round_budget,
        game_left,
        round_first_decision: 0,
        round_steps: 0,
        steps: 0,
        deal_chips,
        deal_rows: Vec::with_capacity(16),
        claimants: Vec::new(),
        claim_moves: Vec::new(),
        value_places: Vec::new(),
        seen_events: 0,
        queue: Vec::new(),
        declined: Vec::new(),
        ledger: check.then_some(board_ledger),
        returned: Returned::None,
        cold_locals: Vec::new(),
    };
    let played = m.run(players);
    // The register files go back for the next game, however this one ended.
    let mut files = std::mem::take(&mut m.spare);
    files.extend(m.frames.drain(..).map(|f| (f.n, f.s)));
    files.push((m.n, m.s));
    im.files.give(files);
    played.map(|rec| (rec, m.board))
}

/// A fresh pair of register files, every register zero.
pub(super) fn new_files() -> (Nums, Sets) {
    (
        Box::new([0; NUM_REGS]),
        Box::new([CardSet::EMPTY; SET_REGS]),
    )
}

impl Machine<'_> {
    /// The next item of the list in object register `list` at the index in `idx`, the
    /// index moved past it; `None` at the list's end.
    fn list_item(
        &mut self,
        list: super::ins::Reg,
        idx: super::ins::Reg,
    ) -> Result<Option<Value>, Stop> {
        let i = self.n[idx as usize] as usize;
        let Value::List(items) = &self.o[self.ob + list as usize] else {
            return Err(Stop::Value);
        };
        let item = items.get(i).cloned();
        if item.is_some() {
            self.n[idx as usize] = i as i64 + 1;
        }
        Ok(item)
    }

    /// Plays the game from the entry procedure's start to its end: the record.
    fn run(&mut self, players: &mut AutoPlayers<'_>) -> Result<GameRecord, Stop> {
        let entry = self
            .im
            .procs
            .get(self.im.entry as usize)
            .ok_or(Stop::Internal)?;
        // Files kept from an earlier game hold its values.
        self.n[..(entry.nums as usize).min(NUM_REGS)].fill(0);
        self.s[..(entry.sets as usize).min(SET_REGS)].fill(CardSet::EMPTY);
        self.o.resize(entry.objs as usize, Value::Unit);
        match self.exec(entry.start, players)? {
            Exit::End => {}
            Exit::Yield(_) => return Err(Stop::Internal),
        }
        // The engine returns to its caller at the end too, which reads the chips once more.
        self.boundary()?;
        // And checks the board once more, whether or not the end recorded anything.
        self.audit()?;
        self.deal_chips.finish(&self.board, &mut self.deal_rows);
        let mut rec = GameRecord {
            seats: self.board.seats,
            decisions: self.decisions,
            deal_chips: std::mem::take(&mut self.deal_rows),
            ..GameRecord::default()
        };
        rec.take_events(self.events.drain(..));
        Ok(rec)
    }

    /// Runs instructions from `pc` until the game ends or a guard's code yields.
    pub(super) fn exec(
        &mut self,
        mut pc: u32,
        players: &mut AutoPlayers<'_>,
    ) -> Result<Exit, Stop> {
        let code = &self.im.code[..];
        // Instructions since the last decision, in a register: written back before
        // anything that reads it, and checked at every jump, call, return and decision
        // (a run of instructions without one is never longer than the code).
        let mut steps = self.steps;
        macro_rules! checked {
            () => {
                if steps > STEP_LIMIT {
                    return Err(Stop::Limit);
                }
            };
        }
        // A return: to the caller, or the game's end from the entry procedure.
        macro_rules! ret {
            () => {
                match self.frames.pop() {
                    None => {
                        checked!();
                        self.steps = steps;
                        return Ok(Exit::End);
                    }
                    Some(f) => {
                        checked!();
                        // Moves a `choose each` of the returning frame left waiting go
                        // with it, as the engine's frame takes its queue.
                        let depth = self.frames.len();
                        self.queue.retain(|e| e.0 <= depth);
                        self.declined.retain(|e| e.0 <= depth);
                        self.o.truncate(self.ob);
                        let n = std::mem::replace(&mut self.n, f.n);
                        let s = std::mem::replace(&mut self.s, f.s);
                        self.spare.push((n, s));
                        (self.ob, self.proc) = (f.ob, f.proc);
                        pc = f.ret;
                    }
                }
            };
        }
        // A decision (or a window): checked, with the count written back for the
        // players' side to read and reset, and read again after; where the rules go on.
        macro_rules! decision {
            ($to:expr) => {{
                checked!();
                self.steps = steps;
                pc = $to;
                steps = self.steps;
            }};
        }
        // A turn's end (`Ins::CountNextOfDealer`): on at the next instruction when the
        // count compares so, else the next seat and on as the fused next seat goes on.
        macro_rules! count_next_of_dealer {
            ($z:expr, $holds:expr, $dst:expr, $s:expr, $r:expr, $at:expr, $then:expr, $to:expr) => {{
                checked!();
                let held = self.board.zones.held($z as usize) as i64;
                if !$holds.test(held) {
                    // The jump and the instruction it lands on, counted as they are.
                    steps += 3;
                    self.next_of($dst, $s)?;
                    checked!();
                    pc = match $at.test(self.n[$r as usize], self.board.dealer as i64) {
                        true => $then,
                        false => $to,
                    };
                }
            }};
        }
        loop {
            let ins = code.get(pc as usize).ok_or(Stop::Internal)?;
            pc += 1;
            steps += 1;
            match *ins {
                Ins::Store { to, v, kind } => {
                    let v = self.num(v)?;
                    self.put(to, v, Some(kind))?;
                }
                Ins::Add { to, v } => {
                    let v = self.num(v)?;
                    self.add(to, v, false)?;
                }
                Ins::Sub { to, v } => {
                    let v = self.num(v)?;
                    self.add(to, v, true)?;
                }
                Ins::Arith { dst, op, a, b } => {
                    let (a, b) = (self.num(a)?, self.num(b)?);
                    let r = match op {
                        Arith::Add => a.checked_add(b),
                        Arith::Sub => a.checked_sub(b),
                        Arith::Mul => a.checked_mul(b),
                        Arith::Div if b != 0 => a.checked_div_euclid(b),
                        Arith::Rem if b != 0 => a.checked_rem_euclid(b),
                        _ => None,
                    };
                    self.n[dst as usize] = r.ok_or(Stop::Arithmetic)?;
                }
                Ins::Neg { dst, a } => {
                    let a = self.num(a)?;
                    self.n[dst as usize] = a.checked_neg().ok_or(Stop::Arithmetic)?;
                }
                Ins::Test { dst, c } => {
                    let h = self.holds(c)?;
                    self.n[dst as usize] = h as i64;
                }
                Ins::NextSeat { dst, s, back } => {
                    let s = self.seat_of(self.num(s)?)?;
                    let n = self.board.seats as usize;
                    // Round the table without a division (tens of cycles).
                    let next = match back {
                        true if s == 0 => n - 1,
                        true => s - 1,
                        false if s + 1 >= n => 0,
                        false => s + 1,
                    };
                    self.n[dst as usize] = next as i64;
                }
                Ins::SetCards { dst, v } => {
                    let v = self.set(v)?;
                    self.s[(dst & SET_MASK) as usize] = v;
                }
                Ins::StoreCards { slot, seat, v } => {
                    let v = self.set(v)?;
                    let i = slot as usize
                        + match seat {
                            Some(r) => self.seat_in(r)?,
                            None => 0,
                        };
                    self.board.vars[i] = Value::Cards(v);
                }
                Ins::StoreObj { slot, seat, r } => {
                    let i = slot as usize
                        + match seat {
                            Some(s) => self.seat_in(s)?,
                            None => 0,
                        };
                    let v = self.o.get(self.ob + r as usize).ok_or(Stop::Internal)?;
                    self.board.vars[i] = v.clone();
                }
                Ins::SetItem {
                    slot,
                    index,
                    arg,
                    op,
                } => self.set_item(slot, index, arg, op)?,
                Ins::Union { dst, a, b } => {
                    let v = self.set(a)?.union(self.set(b)?);
                    self.s[(dst & SET_MASK) as usize] = v;
                }
                Ins::Minus { dst, a, b } => {
                    let v = self.set(a)?.minus(self.set(b)?);
                    self.s[(dst & SET_MASK) as usize] = v;
                }
                Ins::SetEq { dst, a, b, ne } => {
                    let eq = self.set(a)? == self.set(b)?;
                    self.n[dst as usize] = (eq != ne) as i64;
                }
                Ins::SetCount { dst, v } => {
                    let v = self.set(v)?;
                    self.n[dst as usize] = v.len() as i64;
                }
                Ins::CardIn { dst, c, v } => {
                    let c = self.num(c)?;
                    let v = self.set(v)?;
                    let inside = self.card(c).is_ok_and(|c| v.contains(c));
                    self.n[dst as usize] = inside as i64;
                }
                Ins::Jump(t) => {
                    checked!();
                    pc = t
                }
                Ins::JumpUnless(c, t) => {
                    checked!();
                    if !self.holds(c)? {
                        pc = t;
                    }
                }
                Ins::JumpUnlessCount { z, holds, to } => {
                    checked!();
                    let held = self.board.zones.held(z as usize) as i64;
                    if !holds.test(held) {
                        pc = to;
                    }
                }
                Ins::MoveCardTo { c, to } => {
                    self.move_card_to(c, to)?;
                }
                Ins::DrawTo {
                    dst,
                    from,
                    first,
                    seat,
                } => self.draw_to(dst, from, first, seat)?,
                Ins::TopOf { dst, z } => {
                    let c = self.board.zones.top(z as usize).ok_or(Stop::Empty)?;
                    self.n[dst as usize] = c as i64;
                }
                Ins::TopClaim { dst, z, k } => {
                    // Counted as the two instructions it stands for, and checked where
                    // the window's own instruction is.
                    steps += 1;
                    decision!(self.top_claim(dst, z, k, None, players)?)
                }
                Ins::NextOf { dst, s } => self.next_of(dst, s)?,
                Ins::AddVar { slot, k } => self.add_var(slot, k)?,
                // Each fused pair is counted as the instructions it stands for.
                Ins::DrawOwn {
                    dst,
                    from,
                    first,
                    seat,
                    k,
                } => {
                    steps += 1;
                    self.draw_to(dst, from, first, seat)?;
                    decision!(self.pick_own(k, players)?)
                }
                Ins::DiscardClaim { c, to, dst, z, k } => {
                    steps += 2;
                    let top = self.move_card_to(c, to)?.filter(|_| to == z);
                    decision!(self.top_claim(dst, z, k, top, players)?)
                }
                Ins::NextOfJump { dst, s, to } => {
                    steps += 1;
                    self.next_of(dst, s)?;
                    checked!();
                    pc = to;
                }
                Ins::NextOfDealer {
                    dst,
                    s,
                    r,
                    cmp,
                    then,
                    to,
                } => {
                    steps += 2;
                    self.next_of(dst, s)?;
                    checked!();
                    pc = match cmp.test(self.n[r as usize], self.board.dealer as i64) {
                        true => then,
                        false => to,
                    };
                }
                Ins::CountNextOfDealer {
                    z,
                    holds,
                    dst,
                    s,
                    r,
                    at,
                    then,
                    to,
                } => count_next_of_dealer!(z, holds, dst, s, r, at, then, to),
                Ins::JumpUnlessDealer { r, cmp, to } => {
                    checked!();
                    if !cmp.test(self.n[r as usize], self.board.dealer as i64) {
                        pc = to;
                    }
                }
                Ins::Attr { dst, attr, c } => {
                    let c = self.card(self.num(c)?)?;
                    self.n[dst as usize] = self.p.deck.attr(attr, c);
                }
                Ins::SetPop { rest, var, exit } => {
                    checked!();
                    let set = &mut self.s[(rest & SET_MASK) as usize];
                    match set.first() {
                        Some(c) => {
                            set.remove(c);
                            self.n[var as usize] = c as i64;
                        }
                        None => pc = exit,
                    }
                }
                Ins::AttrCards { dst, attr, cmp, v } => {
                    let v = self.num(v)?;
                    let (lo, sets) = self
                        .im
                        .attr_cards
                        .get(attr as usize)
                        .filter(|(_, sets)| !sets.is_empty())
                        .ok_or(Stop::Internal)?;
                    let mut cards = CardSet::EMPTY;
                    for (i, set) in sets.iter().enumerate() {
                        if cmp.test(lo + i as i64, v) {
                            cards = cards.union(*set);
                        }
                    }
                    self.s[(dst & SET_MASK) as usize] = cards;
                }
                Ins::Inter { dst, a, b } => {
                    let v = self.set(a)?.inter(self.set(b)?);
                    self.s[(dst & SET_MASK) as usize] = v;
                }
                Ins::SetIf { dst, c, v } => {
                    let v = match self.holds(c)? {
                        true => self.set(v)?,
                        false => CardSet::EMPTY,
                    };
                    self.s[(dst & SET_MASK) as usize] = v;
                }
                Ins::AttrSum { dst, v, attr } => {
                    let v = self.set(v)?;
                    let values = &self.p.deck.attrs[attr as usize].values;
                    let mut sum: i64 = 0;
                    for c in v.iter() {
                        let x = *values.get(c as usize).ok_or(Stop::Value)?;
                        sum = sum.checked_add(x).ok_or(Stop::Arithmetic)?;
                    }
                    self.n[dst as usize] = sum;
                }
                Ins::SetInsert { dst, c } => {
                    let c = self.card(self.num(c)?)?;
                    self.s[(dst & SET_MASK) as usize].insert(c);
                }
                Ins::Best { acc, seen, v, max } => {
                    let v = self.num(v)?;
                    let a = self.n[acc as usize];
                    if self.n[seen as usize] == 0 || (max && v > a) || (!max && v < a) {
                        self.n[acc as usize] = v;
                    }
                    self.n[seen as usize] = 1;
                }
                Ins::Top { dst, z } => {
                    let z = self.zone(z)?;
                    let c = *self.board.zones[z].last().ok_or(Stop::Empty)?;
                    self.n[dst as usize] = c as i64;
                }
                Ins::MoveCard { c, to } => {
                    let c = self.card(self.num(c)?)?;
                    let to = self.zone(to)?;
                    self.board.move_card(c, to as u16);
                }
                Ins::MoveTop { dst, from, to } => {
                    let from = self.zone(from)?;
                    let c = *self.board.zones[from].last().ok_or(Stop::Empty)?;
                    self.n[dst as usize] = c as i64;
                    let to = self.zone(to)?;
                    self.board.move_card(c, to as u16);
                }
                Ins::MoveSet { v, to } => {
                    let v = self.set(v)?;
                    let to = self.zone(to)? as u16;
                    v.iter().for_each(|c| self.board.move_card(c, to));
                }
                Ins::MoveZone { from, to } => {
                    let cards = self.board.zones[self.zone(from)?].to_vec();
                    let to = self.zone(to)? as u16;
                    cards.into_iter().for_each(|c| self.board.move_card(c, to));
                }
                Ins::Gather(z) => {
                    let z = self.zone(z)? as u16;
                    self.board.gather(z);
                    self.board.revealed.iter_mut().for_each(|r| *r = false);
                    self.board.shown = CardSet::EMPTY;
                }
                Ins::Shuffle(z) => {
                    let z = self.zone(z)?;
                    let b = &mut self.board;
                    b.rng.shuffle(&mut b.zones[z]);
                }
                Ins::Cut(z, aside) => {
                    let z = self.zone(z)? as u16;
                    let aside = match aside {
                        Some(a) => Some(self.zone(a)? as u16),
                        None => None,
                    };
                    self.board.cut(z, aside);
                }
                Ins::Deal(d) => self.deal(d)?,
                Ins::DealerByDraw(d) => {
                    let keys = self.im.draws.get(d as usize).ok_or(Stop::Value)?;
                    self.board.dealer_by_draw(&self.p.deck, keys)
                }
                Ins::Reveal(z) => {
                    let z = self.zone(z)?;
                    self.board.revealed[z] = true;
                }
                Ins::LoopStart {
                    over,
                    base,
                    len,
                    idx,
                } => {
                    let n = self.board.seats as i64;
                    let (b, l) = match over {
                        Loop::All => (self.board.dealer as i64, n),
                        Loop::Others(s) => {
                            let s = self.seat_of(self.num(s)?)? as i64;
                            ((s + 1) % n, n - 1)
                        }
                        Loop::Range(a, b) => {
                            let (a, b) = (self.num(a)?, self.num(b)?);
                            if b.saturating_sub(a) > 1_000_000 {
                                return Err(Stop::Limit);
                            }
                            (a, b.saturating_sub(a).saturating_add(1).max(0))
                        }
                    };
                    self.n[base as usize] = b;
                    self.n[len as usize] = l;
                    self.n[idx as usize] = 0;
                }
                Ins::LoopNext {
                    over,
                    base,
                    len,
                    idx,
                    var,
                    exit,
                } => {
                    checked!();
                    let i = self.n[idx as usize];
                    if i >= self.n[len as usize] {
                        pc = exit;
                    } else {
                        let b = self.n[base as usize];
                        let v = match over {
                            Loop::Range(..) => b + i,
                            _ => (b + i) % self.board.seats as i64,
                        };
                        self.n[var as usize] = v;
                        self.n[idx as usize] = i + 1;
                    }
                }
                Ins::ZoneList { dst, z } => {
                    let z = self.zone(z)?;
                    let items: Vec<Value> = self.board.zones[z]
                        .iter()
                        .map(|c| Value::Card(*c))
                        .collect();
                    self.o[self.ob + dst as usize] = Value::List(items.into());
                }
                Ins::ListStart { list, from, idx } => {
                    let v = self.o[self.ob + from as usize].clone();
                    if !matches!(v, Value::List(_)) {
                        return Err(Stop::Value);
                    }
                    self.o[self.ob + list as usize] = v;
                    self.n[idx as usize] = 0;
                }
                Ins::ListNext {
                    list,
                    idx,
                    var,
                    exit,
                } => {
                    checked!();
                    match self.list_item(list, idx)? {
                        None => pc = exit,
                        Some(v) => self.n[var as usize] = scalar_of(&v).ok_or(Stop::Value)?,
                    }
                }
                Ins::ListNextSet {
                    list,
                    idx,
                    var,
                    exit,
                } => {
                    checked!();
                    match self.list_item(list, idx)? {
                        None => pc = exit,
                        Some(Value::Cards(c)) => self.s[(var & SET_MASK) as usize] = c,
                        Some(_) => return Err(Stop::Value),
                    }
                }
                // A decision of the usual shape goes straight to its quick form,
                // without the general one's frame.
                Ins::Pick(k) => {
                    decision!(
                        match &self.im.picks.get(k as usize).ok_or(Stop::Internal)?.quick {
                            Some(q) => self.pick_quick(q, players)?,
                            None => self.pick(k, players)?,
                        }
                    )
                }
                Ins::PickTake(k) => decision!(self.pick_take(k, players)?),
                Ins::PickOwn(k) => decision!(self.pick_own(k, players)?),
                // A window nobody claims goes on after its own instruction.
                Ins::Claim(k) => {
                    decision!(
                        match &self.im.claims.get(k as usize).ok_or(Stop::Internal)?.quick {
                            Some(q) => self.claim_quick(q, players)?,
                            None => self.claim(k, players)?.unwrap_or(pc),
                        }
                    )
                }
                Ins::Each(k) => decision!(self.each(k, players)?),
                Ins::EachDone(k) => pc = self.each_done(k)?,
                Ins::Decline(k) => pc = self.decline(k)?,
                Ins::Call { proc, args } => {
                    checked!();
                    pc = self.call(proc, args, pc)?
                }
                Ins::Ret => ret!(),
                Ins::RetNum(v) => {
                    self.returned = Returned::Num(self.num(v)?);
                    ret!()
                }
                Ins::RetSet(v) => {
                    self.returned = Returned::Set(self.set(v)?);
                    ret!()
                }
                Ins::RetObj(r) => {
                    let v = self.o.get(self.ob + r as usize).ok_or(Stop::Internal)?;
                    self.returned = Returned::Obj(v.clone());
                    ret!()
                }
                Ins::TakeNum(r) => match std::mem::take(&mut self.returned) {
                    Returned::None => {}
                    Returned::Num(x) => self.n[r as usize] = x,
                    _ => return Err(Stop::Value),
                },
                Ins::TakeSet(r) => match std::mem::take(&mut self.returned) {
                    Returned::None => {}
                    Returned::Set(x) => self.s[(r & SET_MASK) as usize] = x,
                    _ => return Err(Stop::Value),
                },
                Ins::TakeObj(r) => match std::mem::take(&mut self.returned) {
                    Returned::None => {}
                    Returned::Obj(x) => self.o[self.ob + r as usize] = x,
                    _ => return Err(Stop::Value),
                },
                Ins::Pay { n, from, to } => {
                    let n = self.num(n)?;
                    self.add(from, n, true)?;
                    self.add(to, n, false)?;
                }
                Ins::PayEach { n, var, seats, to } => {
                    let n = self.num(n)?;
                    let (first, count, list) = self.seat_run(seats)?;
                    let seats = self.board.seats;
                    for i in 0..count {
                        let s = match &list {
                            Some(l) => l[i as usize],
                            None if first + i >= seats => first + i - seats,
                            None => first + i,
                        };
                        self.add(Place::V(var + s as u16), n, true)?;
                        self.add(to, n, false)?;
                    }
                }
                Ins::Outcome(v) => {
                    let sym = self.num(v)?;
                    let text: Arc<str> = match self.im.names.get(sym as usize) {
                        Some(name) => name.clone(),
                        None => self.p.sym(sym as u32).into(),
                    };
                    self.push_event(Event::Outcome(text, self.board.dealer))?;
                    // A new round begins: its limits start again (but the count of
                    // instructions without a decision, which the engine keeps too).
                    self.new_round();
                }
                Ins::OutcomeValue(r) => {
                    let text: Arc<str> = match &self.o[self.ob + r as usize] {
                        Value::Str(s) => crate::engine::event_text(s).into(),
                        Value::Sym(s) => self.p.sym(*s).into(),
                        other => crate::engine::event_text(&crate::engine::show::value_on(
                            self.p,
                            Some(&self.board),
                            other,
                        ))
                        .into(),
                    };
                    self.push_event(Event::Outcome(text, self.board.dealer))?;
                    self.new_round();
                }
                Ins::Tally { label, v, seat } => {
                    let v = self.arg_value(v)?;
                    let shown = crate::engine::show::value_on(self.p, Some(&self.board), &v);
                    let shown = crate::engine::event_text(&shown).into_owned();
                    let label = self.im.labels[label as usize].clone();
                    let seat = match seat {
                        Some(r) => Some(self.seat_of(self.n[r as usize])? as u8),
                        None => None,
                    };
                    self.push_event(Event::Tally(label, shown, seat))?;
                }
                Ins::Record { r, seat } => {
                    let seat = self.seat_of(self.num(seat)?)? as u8;
                    if let Value::Score(r) = &self.o[self.ob + r as usize] {
                        let e = Event::Record(seat, r.clone(), self.board.dealer);
                        self.push_event(e)?;
                    }
                }
                Ins::Score {
                    dst,
                    table,
                    args,
                    at,
                } => {
                    self.steps = steps;
                    let frame = self.p.scores.get(table as usize).map_or(0, |s| s.frame);
                    let vals = self.arg_values_in(args, frame as usize)?;
                    let r = if crate::score::surely_nothing(self.p, table, &vals) {
                        crate::engine::nothing()
                    } else {
                        Arc::new(self.evaluate(at, |cx| crate::score::evaluate(cx, table, vals))?)
                    };
                    self.o[self.ob + dst as usize] = Value::Score(r);
                }
                Ins::ScoreTotal {
                    dst,
                    table,
                    args,
                    at,
                } => {
                    self.steps = steps;
                    let vals = self.arg_values(args)?;
                    let t = if crate::score::surely_nothing(self.p, table, &vals) {
                        0
                    } else {
                        self.evaluate(at, |cx| crate::score::evaluate_total(cx, table, &vals))?
                    };
                    self.n[dst as usize] = t;
                }
                Ins::Field { dst, r, field } => {
                    let Value::Score(r) = &self.o[self.ob + r as usize] else {
                        return Err(Stop::Value);
                    };
                    self.n[dst as usize] = match field {
                        Field::Total => r.total,
                        Field::Factor => r.factor,
                        Field::Base => r.base,
                        Field::Count => r.yaku.len() as i64,
                    };
                }
                Ins::SeatList { dst, of } => {
                    let list = self.seats_of(of)?;
                    self.o[self.ob + dst as usize] =
                        Value::List(list.into_iter().map(Value::Seat).collect::<Vec<_>>().into());
                }
                Ins::Len { dst, r } => {
                    let Value::List(items) = &self.o[self.ob + r as usize] else {
                        return Err(Stop::Value);
                    };
                    self.n[dst as usize] = items.len() as i64;
                }
                Ins::Index { dst, r, i } => {
                    let i = self.num(i)?;
                    let Value::List(items) = &self.o[self.ob + r as usize] else {
                        return Err(Stop::Value);
                    };
                    let item = usize::try_from(i)
                        .ok()
                        .and_then(|i| items.get(i))
                        .ok_or(Stop::Value)?;
                    self.n[dst as usize] = scalar_of(item).ok_or(Stop::Value)?;
                }
                Ins::Cold(k) => {
                    self.steps = steps;
                    self.cold(k)?
                }
                Ins::Require(c) => {
                    if !self.holds(c)? {
                        return Err(Stop::Failed);
                    }
                }
                Ins::Yield(r) => {
                    checked!();
                    self.steps = steps;
                    return Ok(Exit::Yield(self.n[r as usize] != 0));
                }
                Ins::Nop => {}
            }
        }
    }

    /// The frames active now (the depth a `choose each`'s waiting moves belong to).
    pub(super) fn depth(&self) -> usize {
        self.frames.len()
    }
}
