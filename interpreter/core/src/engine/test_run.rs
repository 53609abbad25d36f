//! Running a ruleset's own tests: a test body on a fresh table, its decisions taking the
//! test's `answer`s (a refused one told why), within a budget shared by a file's tests,
//! and a failure shown with the calls that led to it.

use super::exec::body;
use super::{CodeRef, RuntimeError, State, GAME_BUDGET, ROUND_BUDGET};
use crate::ir::{Loc, Op, Program};
use crate::value::Value;

/// Calls between procedures a test failure notes (the innermost ones): an endless
/// recursion would otherwise draw `MAX_DEPTH` snippets.
const CALLS_SHOWN: usize = 3;

impl State {
    /// Runs test `t` to its end, with a game's budget of work ([`GAME_BUDGET`]);
    /// decisions inside a test take its `answer`s.
    pub fn run_test(p: &Program, t: usize) -> Result<(), RuntimeError> {
        let mut budget = GAME_BUDGET;
        Self::run_test_within(p, t, &mut budget)
    }

    /// [`State::run_test`] with at most `budget` steps of work, lowered by the work the
    /// test did: the tests of a file run with one budget between them, so that ten
    /// thousand tests that each work as hard as a game may still end in seconds. A test
    /// given none is not run.
    pub fn run_test_within(p: &Program, t: usize, budget: &mut u64) -> Result<(), RuntimeError> {
        let test = &p.tests[t];
        if *budget == 0 {
            return Err(RuntimeError::new(
                format!(
                    "not run: the tests before it did all the work the tests of one file may \
                     do ({GAME_BUDGET} steps)"
                ),
                test.loc,
            )
            .with_help("make the heavy tests lighter, or split them into another file"));
        }
        let mut params: Vec<Option<Value>> = vec![None; p.params.len()];
        for (i, v) in &test.with {
            params[*i as usize] = Some(v.clone());
        }
        let mut st = State::blank(p, &params, 0)?;
        // A test answers every decision as a person would: `person(s)` holds for all.
        st.board.people = u32::MAX;
        st.steps_left = ROUND_BUDGET.min(*budget);
        st.game_steps_left = *budget - st.steps_left;
        let result = st.run_test_body(p, t);
        *budget = st.game_steps_left.saturating_add(st.steps_left);
        result
    }

    /// The body of [`State::run_test_within`], on the test's fresh board.
    fn run_test_body(&mut self, p: &Program, t: usize) -> Result<(), RuntimeError> {
        let st = self;
        st.push_frame(p, CodeRef::Test(t as u16), Vec::new());
        // Decisions take the test's `answer`s in order, one per asked seat.
        let mut asked = 0u64;
        while !st.advance(p).map_err(|e| st.with_calls(p, e))? {
            asked += 1;
            let pending = st.pending.clone().expect("a decision waits");
            let code = st.pending_code(p);
            let loc = st
                .frames
                .last()
                .map(|f| {
                    body(p, f.code)
                        .1
                        .get(pending.at as usize)
                        .copied()
                        .unwrap_or_default()
                })
                .unwrap_or_default();
            let mut choices = Vec::new();
            for sm in &pending.seats {
                let legal = || {
                    sm.moves
                        .iter()
                        .map(|m| pending.option_name(code, m).to_string() + &arg_text(p, &m.arg))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let Some((name, arg, at)) = st.answers.pop_front() else {
                    let e = RuntimeError::new(
                        format!("a decision for seat {} has no `answer` (legal: {})", sm.seat, legal()),
                        loc,
                    )
                    .with_help("write `answer MOVE` or `answer MOVE(ARG)` in the test before the step that decides");
                    return Err(st.with_calls(p, e));
                };
                // A set names its move by faces: `cards("23m")` holds the deck's first
                // copies, the move the lowest copies the hand holds.
                let fits = |m: &Value| match (m, &arg) {
                    (_, Value::Unit) => true,
                    (Value::Cards(a), Value::Cards(b)) => crate::model::same_faces(&p.deck, *a, *b),
                    (m, a) => m == a,
                };
                let found = sm
                    .moves
                    .iter()
                    .position(|m| pending.option_name(code, m) == name && fits(&m.arg));
                match found {
                    Some(i) => choices.push(i),
                    None => {
                        // Why, when the move is one this decision has: the cards not
                        // held, the value not offered, or the part of its guard that
                        // is false.
                        let option = match code.get(pending.at as usize) {
                            Some(Op::Decide(d)) => d.options.iter().position(|o| o.name == name),
                            _ => None,
                        };
                        let why = option
                            .and_then(|o| st.why_not(p, sm.seat, o, &arg).reason(p))
                            .map(|r| format!(": {r}"))
                            .unwrap_or_default();
                        return Err(RuntimeError::new(
                            format!(
                                "`answer {name}{}` is not a legal move for seat {} here{why} (legal: {})",
                                arg_text(p, &arg),
                                sm.seat,
                                legal()
                            ),
                            at,
                        ));
                    }
                }
            }
            st.apply(p, &choices).map_err(|e| st.with_calls(p, e))?;
        }
        if let Some((name, _, at)) = st.answers.pop_front() {
            // Every decision is counted; those beyond the ones asked were taken by
            // themselves, having a single possible outcome.
            let help = if st.decisions > asked {
                "a decision with a single legal move (in a `choose each`, one for every seat) is taken by itself and takes no answer; remove this `answer`"
            } else {
                "each decision asked takes one `answer` per seat it asks; this test has more answers than its decisions ask for"
            };
            return Err(RuntimeError::new(
                format!("`answer {name}` was never used: no decision asked for it"),
                at,
            )
            .with_help(help));
        }
        Ok(())
    }

    /// `e`, raised in the innermost frame, with the calls that led there: a failing
    /// procedure's line alone does not say which test, nor which line of it, ran into
    /// it. Each frame below the innermost stopped at its call (`Op::Call` always runs in
    /// full, leaving `pc` just past itself). A call repeated in a row (a recursion) is
    /// one note; at most [`CALLS_SHOWN`] notes for calls between procedures, the
    /// innermost, and always one for the test's own call.
    fn with_calls(&self, p: &Program, mut e: RuntimeError) -> RuntimeError {
        let Some((_, callers)) = self.frames.split_last() else {
            return e;
        };
        let call_at = |f: &super::state::Frame| {
            let locs = body(p, f.code).1;
            locs.get(f.pc.saturating_sub(1) as usize)
                .copied()
                .unwrap_or_default()
        };
        let (test, procs) = match callers.split_first() {
            Some((first, rest)) if matches!(first.code, CodeRef::Test(_)) => (Some(first), rest),
            _ => (None, callers),
        };
        // Innermost first: (where, which procedure, how many calls in a row).
        let mut runs: Vec<(Loc, u16, usize)> = Vec::new();
        for f in procs.iter().rev() {
            let CodeRef::Proc(q) = f.code else { continue };
            let at = call_at(f);
            match runs.last_mut() {
                Some(last) if last.0 == at && last.1 == q => last.2 += 1,
                _ => runs.push((at, q, 1)),
            }
        }
        for &(at, q, n) in runs.iter().take(CALLS_SHOWN) {
            let name = &p.procs[q as usize].name;
            let note = match n {
                1 => format!("called from `{name}`"),
                n => format!("called from `{name}`, {n} calls deep"),
            };
            e = e.with_call(at, note);
        }
        if let Some(f) = test {
            let CodeRef::Test(t) = f.code else { return e };
            let name = &p.tests[t as usize].name;
            let skipped: usize = runs.iter().skip(CALLS_SHOWN).map(|r| r.2).sum();
            let through = match skipped {
                0 => String::new(),
                1 => " (through 1 more call)".to_string(),
                n => format!(" (through {n} more calls)"),
            };
            e = e.with_call(call_at(f), format!("called from test `{name}`{through}"));
        }
        e
    }
}

/// A move argument as `(card-id)` for messages, or nothing.
fn arg_text(p: &Program, v: &Value) -> String {
    match v {
        Value::Unit => String::new(),
        Value::Card(c) => format!(
            "({})",
            p.deck.ids.get(*c as usize).cloned().unwrap_or_default()
        ),
        // As a test names it: `answer 副露(cards("23m"))`.
        Value::Cards(s) => format!("(cards(\"{}\"))", super::show::cards_word(p, *s)),
        other => format!("({})", super::show::value(p, other)),
    }
}
