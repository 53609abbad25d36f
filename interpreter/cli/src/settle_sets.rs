//! What a described end of round sets besides its cards: the settling procedure's
//! arguments (`--set how=ツモ`), the game's variables as the round left them
//! (`--set 本場=2`, `--set 立直[1]=true`) and the ruleset's parameters. One `--set`
//! names any of them; a name is looked up in that order, as the procedure's body sees
//! it (an argument hides a variable of its name).

use fuda_core::play::{signature, VarValue};
use fuda_core::value::{Type, Value};
use fuda_core::Program;
use miette::miette;
use serde_json::Value as Json;

use crate::params::{self, GameParams};
use crate::values;

/// A value as given: command-line text or a JSON value.
#[derive(Clone, Copy)]
pub enum Given<'a> {
    /// `--set NAME=TEXT`.
    Text(&'a str),
    /// A JSON description's value.
    Json(&'a Json),
}

/// The assignments of one description, sorted by what they set.
pub struct Sets {
    /// The ruleset's parameters.
    pub params: GameParams,
    /// The procedure's arguments, in order.
    pub args: Vec<Value>,
    /// The variables set.
    pub vars: Vec<VarValue>,
}

/// What a name set for procedure `proc` stands for.
enum Target<'n> {
    Arg(usize),
    Var(u16, Option<&'n str>),
    Param(usize),
}

/// Sorts `given` (name, value) into arguments of `proc`, variables and parameters,
/// reading each value by its type. Seats are numbers or role names (roles counted
/// from `dealer`, itself given as text and read once the seat count is known).
pub fn sort(
    p: &Program,
    proc: &str,
    given: &[(&str, Given)],
    dealer: Option<Given>,
) -> miette::Result<(Sets, u8)> {
    let q = p.proc_named(proc);
    let arity = q.map_or(0, |q| p.procs[q as usize].arity as usize);
    let mut params: GameParams = vec![None; p.params.len()];
    let mut args: Vec<Option<(&str, Given)>> = vec![None; arity];
    let mut vars = Vec::new();
    // Parameters first: the seat count, which seats and roles need, depends on them.
    for (name, v) in given {
        match target(p, q, name)? {
            Target::Param(i) => match v {
                Given::Text(t) => params::set_text(p, &mut params, i, t)?,
                Given::Json(j) => params::set_json(p, &mut params, i, j)?,
            },
            Target::Arg(i) => args[i] = Some((name, *v)),
            Target::Var(var, seat) => vars.push((var, seat, *name, *v)),
        }
    }
    let seats = params::seat_count(p, &params)?;
    let dealer = match dealer {
        None => 0,
        Some(d) => crate::settle::seat_of(p, seats, 0, &text_of(d))?,
    };
    let missing: Vec<&str> = args
        .iter()
        .enumerate()
        .filter(|(_, a)| a.is_none())
        .filter_map(|(i, _)| q.map(|q| p.procs[q as usize].params[i].as_str()))
        .collect();
    if let (Some(q), false) = (q, missing.is_empty()) {
        let example: Vec<String> = missing.iter().map(|n| format!("--set {n}=…")).collect();
        return Err(miette!(
            code = "fuda::cli::settle-args",
            help = format!(
                "`{proc}` takes {}: add {}",
                signature(p, q),
                example.join(" ")
            ),
            "`{proc}` needs {}",
            missing
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let slots = q.map(|q| &p.procs[q as usize].slots);
    let mut arg_values = Vec::with_capacity(arity);
    for (i, a) in args.iter().enumerate() {
        let (name, v) = a.expect("missing arguments were refused above");
        let ty = &slots.expect("a procedure with arguments")[i];
        arg_values.push(value(p, seats, dealer, ty, name, v)?);
    }
    let mut var_values = Vec::with_capacity(vars.len());
    for (var, seat, name, v) in vars {
        let def = &p.vars[var as usize];
        let seat = match seat {
            Some(s) => Some(crate::settle::seat_of(p, seats, dealer, s)?),
            None => None,
        };
        var_values.push(VarValue {
            var,
            seat,
            value: value(p, seats, dealer, &def.ty, name, v)?,
        });
    }
    Ok((
        Sets {
            params,
            args: arg_values,
            vars: var_values,
        },
        dealer,
    ))
}

/// Which of the three `name` (perhaps `NAME[SEAT]`) sets.
fn target<'n>(p: &Program, q: Option<u16>, name: &'n str) -> miette::Result<Target<'n>> {
    let (bare, seat) = match name.split_once('[') {
        Some((n, rest)) => {
            let inner = rest.strip_suffix(']').ok_or_else(|| {
                miette!(
                    code = "fuda::cli::bad-set",
                    help = "a per-seat variable is written `NAME[SEAT]`, e.g. `立直[1]`",
                    "`{name}`: missing `]`"
                )
            })?;
            (n.trim(), Some(inner.trim()))
        }
        None => (name, None),
    };
    if seat.is_none() {
        if let Some(i) = q.and_then(|q| p.procs[q as usize].params.iter().position(|n| n == bare)) {
            return Ok(Target::Arg(i));
        }
    }
    if let Some(v) = p.vars.iter().position(|d| d.name == bare) {
        return Ok(Target::Var(v as u16, seat));
    }
    if seat.is_none() {
        if let Some(i) = params::param_index(p, bare) {
            return Ok(Target::Param(i));
        }
    }
    let known = q
        .map(|q| p.procs[q as usize].params.iter().map(String::as_str))
        .into_iter()
        .flatten()
        .chain(p.vars.iter().map(|d| d.name.as_str()))
        .chain(p.params.iter().map(|d| d.name.as_str()));
    Err(values::unknown_name(
        "argument, variable or parameter",
        bare,
        known.collect::<Vec<_>>(),
    ))
}

/// Reads a value of type `ty`: a seat also by role name.
fn value(
    p: &Program,
    seats: u8,
    dealer: u8,
    ty: &Type,
    name: &str,
    v: Given,
) -> miette::Result<Value> {
    match (ty, v) {
        (Type::Seat, v) => Ok(Value::Seat(crate::settle::seat_of(
            p,
            seats,
            dealer,
            &text_of(v),
        )?)),
        (_, Given::Text(t)) => values::from_text(p, ty, t, name),
        (_, Given::Json(j)) => values::from_json(p, ty, j, name),
    }
}

/// A given value as text (a JSON string without its quotes).
fn text_of(v: Given) -> String {
    match v {
        Given::Text(t) => t.to_string(),
        Given::Json(Json::String(s)) => s.clone(),
        Given::Json(other) => other.to_string(),
    }
}
