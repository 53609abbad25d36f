//! Values the checker works out before any game: an expression over constants, the
//! parameters and the seat count (a deal's size, a variable's initial value), for each
//! seat count the ruleset allows.
//!
//! A game computes every parameter's value in order, each default from the ones above
//! it (`crate::engine::param_values`). Doing that again for every expression and seat
//! count would cost the number of parameters (and more, for defaults written over
//! each other) per expression: here it is done once per seat count, and while the
//! expressions of that seat count are evaluated the values stand in as the
//! parameters' defaults, which is all an evaluation without a board reads.

use std::collections::BTreeMap;

use super::Compiler;
use crate::engine::{const_eval_result, const_eval_with, eval_with_defaults, RuntimeError};
use crate::ir::{Builtin, Expr, Loc, Program};
use crate::value::Value;

/// The parameters' values for each seat count, once computed (`None`: they cannot be
/// computed for it, which is reported at the parameters).
pub(super) type SeatParams = BTreeMap<usize, Option<Vec<Value>>>;

impl Compiler {
    /// Runs `f` on the program with the parameters' defaults set to their values in a
    /// game with `seats` seats; `None` when those cannot be computed.
    pub(super) fn at_seats<T>(&mut self, seats: usize, f: impl FnOnce(&Program) -> T) -> Option<T> {
        if !self.seat_params.contains_key(&seats) {
            let given = crate::engine::seat_count_given(&self.program, seats);
            let values = crate::engine::param_values(&self.program, &given).ok();
            self.seat_params.insert(seats, values);
        }
        let values = self.seat_params.get(&seats)?.as_ref()?;
        // Each default takes its value for this seat count; the expressions the values
        // were computed from are set aside, so nothing computes them again.
        let saved: Vec<(Value, Option<Expr>)> = self
            .program
            .params
            .iter_mut()
            .zip(values)
            .map(|(p, v)| {
                (
                    std::mem::replace(&mut p.default, v.clone()),
                    p.default_expr.take(),
                )
            })
            .collect();
        let out = f(&self.program);
        for (p, (default, expr)) in self.program.params.iter_mut().zip(saved) {
            p.default = default;
            p.default_expr = expr;
        }
        Some(out)
    }
}

/// [`crate::engine::const_eval_result`], with the local slots in `locals` (reused from
/// one evaluation to the next: a check may work out a million deal sizes, and a fresh
/// list of slots for each cost more than the evaluation).
fn eval_bare(p: &Program, x: &Expr, locals: &mut Vec<Value>) -> Result<Value, RuntimeError> {
    let want = crate::score::slots_used(x).max(64);
    locals.clear();
    locals.resize(want, Value::Unit);
    let mut cx = crate::engine::Cx {
        p,
        b: None,
        locals,
        groups: &[],
        budget: 100_000,
        at: Loc::default(),
    };
    cx.eval(x)
}

/// [`crate::engine::const_eval_with`] for a program set up by [`Compiler::at_seats`];
/// `locals` is scratch space.
pub(super) fn const_at(
    p: &Program,
    x: &Expr,
    seats: usize,
    locals: &mut Vec<Value>,
) -> Option<Value> {
    // A number is itself, for every seat count.
    if let Expr::Const(v) = x {
        return Some(v.clone());
    }
    // Without a board only constants and parameters are read: the parameters now
    // hold this seat count's values, so a value found this way is the game's. The
    // seat count itself (`players()`, as in `deal 48 / players()`) is put in as the
    // number it is; anything else that needs the board is evaluated with one.
    let fixed;
    let x = match reads_players(x) {
        true => {
            fixed = with_players(x, seats);
            &fixed
        }
        false => x,
    };
    eval_bare(p, x, locals)
        .ok()
        .or_else(|| const_eval_with(p, x, seats))
}

/// Whether `x` reads the seat count with `players()`.
fn reads_players(x: &Expr) -> bool {
    let mut todo = vec![x];
    while let Some(e) = todo.pop() {
        if matches!(e, Expr::Call(Builtin::Players, ..)) {
            return true;
        }
        e.children(|c| todo.push(c));
    }
    false
}

/// `x` with each `players()` replaced by the number `seats`, which it reads in a game
/// with that many seats.
fn with_players(x: &Expr, seats: usize) -> Expr {
    let mut out = x.clone();
    let mut todo = vec![&mut out];
    while let Some(e) = todo.pop() {
        if matches!(e, Expr::Call(Builtin::Players, ..)) {
            *e = Expr::Const(Value::Int(seats as i64));
            continue;
        }
        e.children_mut(|c| todo.push(c));
    }
    out
}

/// [`crate::engine::eval_with_defaults`] for a program set up by [`Compiler::at_seats`].
pub(super) fn eval_at(p: &Program, x: &Expr, seats: usize, at: Loc) -> Result<Value, RuntimeError> {
    match const_eval_result(p, x) {
        Ok(v) => Ok(v),
        // The error (or a value that needs the board) comes from the evaluation a game
        // would make, under its budget and at the declaration.
        Err(_) => eval_with_defaults(p, x, seats, at),
    }
}
