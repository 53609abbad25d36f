//! A game's parameters from `--set NAME=VALUE` and `--players P`, checked against the
//! ruleset's declarations (type and range), as the core expects them: one `Option`
//! per declared parameter, `None` for its default.

use fuda_core::ir::Expr;
use fuda_core::value::Value;
use fuda_core::Program;
use miette::miette;

use crate::values;

/// Parameter values for a game; `None` keeps a default.
pub type GameParams = Vec<Option<Value>>;

/// Builds the parameter list from `--set` assignments and an optional player count.
pub fn game_params(
    p: &Program,
    sets: &[String],
    players: Option<i64>,
) -> miette::Result<GameParams> {
    let mut out: GameParams = vec![None; p.params.len()];
    for s in sets {
        let (name, text) = values::split_assignment(s)?;
        let i = p
            .params
            .iter()
            .position(|d| d.name == name)
            .ok_or_else(|| {
                values::unknown_name("parameter", name, p.params.iter().map(|d| d.name.as_str()))
            })?;
        let v = values::from_text(p, &p.params[i].ty, text, name)?;
        check_range(p, i, &v)?;
        out[i] = Some(v);
    }
    if let Some(n) = players {
        let i = players_param(p).ok_or_else(|| {
            miette!(
                code = "fuda::cli::no-players",
                help = "this ruleset's seat count is fixed",
                "`{}` has no player-count parameter",
                p.title
            )
        })?;
        let v = Value::Int(n);
        check_range(p, i, &v)?;
        out[i] = Some(v);
    }
    Ok(out)
}

/// The parameter that sets the number of players: one named `players`, else the one
/// the `seats` declaration counts.
pub fn players_param(p: &Program) -> Option<usize> {
    p.params
        .iter()
        .position(|d| d.name == "players")
        .or(match p.seats.count {
            Expr::Param(i) => Some(i as usize),
            _ => None,
        })
}

fn check_range(p: &Program, i: usize, v: &Value) -> miette::Result<()> {
    let d = &p.params[i];
    if let (Some((lo, hi)), Value::Int(n)) = (d.range, v) {
        if !(lo..=hi).contains(n) {
            return Err(miette!(
                code = "fuda::cli::out-of-range",
                help = d.doc.clone(),
                "`{}` must be in {lo}..{hi}, got {n}",
                d.name
            ));
        }
    }
    Ok(())
}

/// Every parameter's value, defaults filled in.
pub fn resolved(p: &Program, params: &GameParams) -> Vec<Value> {
    p.params
        .iter()
        .enumerate()
        .map(|(i, d)| {
            params
                .get(i)
                .cloned()
                .flatten()
                .unwrap_or_else(|| d.default.clone())
        })
        .collect()
}

/// The number of seats for these parameters.
pub fn seat_count(p: &Program, params: &GameParams) -> miette::Result<u8> {
    fuda_core::engine::seat_count(p, &resolved(p, params))
        .map_err(|e| miette!("cannot seat the players: {e}"))
}

/// The role name of `seat` when `dealer` deals, or `None` if the ruleset names none.
pub fn role(p: &Program, seats: u8, dealer: u8, seat: u8) -> Option<&str> {
    let rel = (seat as usize + seats as usize - dealer as usize % seats.max(1) as usize)
        % seats.max(1) as usize;
    p.seats
        .roles
        .iter()
        .find(|(n, _)| *n == seats as usize)
        .and_then(|(_, r)| r.get(rel))
        .map(String::as_str)
}

/// Agent names from `--agents a,b,c`, each checked; seats reuse the list cyclically.
pub fn agent_names(list: &str) -> miette::Result<Vec<String>> {
    let names: Vec<String> = list
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if names.is_empty() {
        return Err(miette!(
            help = format!("agents: {}", fuda_core::agents::AGENT_NAMES.join(", ")),
            "`--agents` names no agent"
        ));
    }
    for n in &names {
        if fuda_core::agents::by_name(n, 0).is_none() {
            return Err(values::unknown_name(
                "agent",
                n,
                fuda_core::agents::AGENT_NAMES.iter().copied(),
            ));
        }
    }
    Ok(names)
}
