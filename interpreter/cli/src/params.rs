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

/// Builds the parameter list from `--set` assignments and an optional player count;
/// a name the ruleset does not declare is an error.
pub fn game_params(
    p: &Program,
    sets: &[String],
    players: Option<i64>,
) -> miette::Result<GameParams> {
    let (out, unknown) = game_params_known(p, sets, players)?;
    match unknown.first() {
        Some(name) => Err(unknown_param(p, name)),
        None => Ok(out),
    }
}

/// Like [`game_params`], but a name the ruleset does not declare is handed back instead
/// of refused: `fuda compare` sets a parameter on each side that has it.
pub fn game_params_known(
    p: &Program,
    sets: &[String],
    players: Option<i64>,
) -> miette::Result<(GameParams, Vec<String>)> {
    let mut out: GameParams = vec![None; p.params.len()];
    let mut unknown = Vec::new();
    for (name, text) in assignments(sets)? {
        match param_index(p, name) {
            Some(i) => set_text(p, &mut out, i, text)?,
            None => unknown.push(name.to_string()),
        }
    }
    if let Some(n) = players {
        set_players(p, &mut out, sets, n)?;
    }
    Ok((out, unknown))
}

/// Applies `--players N`: to the player-count parameter, or, for a ruleset whose seat
/// count is fixed, only as a check that N is that count.
fn set_players(p: &Program, out: &mut GameParams, sets: &[String], n: i64) -> miette::Result<()> {
    let Some(i) = players_param(p) else {
        let fixed = seat_count(p, out)?;
        if n == i64::from(fixed) {
            return Ok(());
        }
        return Err(miette!(
            code = "fuda::cli::no-players",
            help = format!("leave out `--players`: `{}` always seats {fixed}", p.title),
            "`{}` is played by {fixed} players, not {n}",
            p.title
        ));
    };
    // Two ways of giving one number: refuse rather than pick one silently.
    let name = &p.params[i].name;
    if assignments(sets)?.iter().any(|(s, _)| s == name) {
        return Err(miette!(
            code = "fuda::cli::players-twice",
            help =
                format!("give the number of players once: `--players {n}` or `--set {name}={n}`"),
            "`--players` and `--set {name}=…` both set the number of players"
        ));
    }
    let v = Value::Int(n);
    check_range(p, i, &v)?;
    out[i] = Some(v);
    Ok(())
}

/// Splits every `NAME=VALUE`, refusing a name given twice (which value was meant?).
pub fn assignments(sets: &[String]) -> miette::Result<Vec<(&str, &str)>> {
    let mut out: Vec<(&str, &str)> = Vec::with_capacity(sets.len());
    for s in sets {
        let (name, text) = values::split_assignment(s)?;
        if let Some((_, first)) = out.iter().find(|(n, _)| *n == name) {
            return Err(miette!(
                code = "fuda::cli::set-twice",
                help = format!("give `--set {name}=…` once (it was `{first}`, then `{text}`)"),
                "`{name}` is set twice"
            ));
        }
        out.push((name, text));
    }
    Ok(out)
}

/// The index of the ruleset parameter called `name`.
pub fn param_index(p: &Program, name: &str) -> Option<usize> {
    p.params.iter().position(|d| d.name == name)
}

/// The error for a name that is no parameter of the ruleset, with a did-you-mean.
pub fn unknown_param(p: &Program, name: &str) -> miette::Report {
    values::unknown_name("parameter", name, p.params.iter().map(|d| d.name.as_str()))
}

/// Sets ruleset parameter `i` from command-line text, checked for type and range.
pub fn set_text(p: &Program, out: &mut GameParams, i: usize, text: &str) -> miette::Result<()> {
    let d = &p.params[i];
    let v = values::from_text(p, &d.ty, text, &d.name)?;
    check_range(p, i, &v)?;
    out[i] = Some(v);
    Ok(())
}

/// Sets ruleset parameter `i` from a JSON value (a batch line), checked as [`set_text`].
pub fn set_json(
    p: &Program,
    out: &mut GameParams,
    i: usize,
    v: &serde_json::Value,
) -> miette::Result<()> {
    let d = &p.params[i];
    let v = values::from_json(p, &d.ty, v, &d.name)?;
    check_range(p, i, &v)?;
    out[i] = Some(v);
    Ok(())
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
            // The parameter's doc says what it means; without one, what the range is.
            let help = match d.doc.trim() {
                "" => format!(
                    "give a value from {lo} to {hi}, or widen the range of `{}` in the ruleset",
                    d.name
                ),
                doc => format!("`{}`: {doc}", d.name),
            };
            return Err(miette!(
                code = "fuda::cli::out-of-range",
                help = help,
                "`{}` must be in {lo}..{hi}, got {n}",
                d.name
            ));
        }
    }
    Ok(())
}

/// Every parameter's value, defaults filled in (a default written over other
/// parameters computed from their values, as a game computes it).
pub fn resolved(p: &Program, params: &GameParams) -> miette::Result<Vec<Value>> {
    fuda_core::engine::param_values(p, params)
        .map_err(|e| miette::Report::new(e.to_diagnostic().render_with(&p.sources)))
}

/// The number of seats for these parameters.
pub fn seat_count(p: &Program, params: &GameParams) -> miette::Result<u8> {
    fuda_core::engine::seat_count(p, &resolved(p, params)?)
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
/// An empty name (`greedy,,random`) is refused: it is a slip, and skipping it would
/// move every later agent to another seat.
pub fn agent_names(list: &str) -> miette::Result<Vec<String>> {
    let names: Vec<String> = list.split(',').map(|s| s.trim().to_string()).collect();
    let help = || format!("agents: {}", fuda_core::agents::AGENT_NAMES.join(", "));
    if names.iter().all(String::is_empty) {
        return Err(miette!(
            code = "fuda::cli::no-agent",
            help = help(),
            "`--agents` names no agent"
        ));
    }
    if let Some(i) = names.iter().position(String::is_empty) {
        return Err(miette!(
            code = "fuda::cli::no-agent",
            help = format!(
                "write one agent per seat, separated by single commas ({})",
                help()
            ),
            "`--agents {list}` has an empty name (at place {})",
            i + 1
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

/// Refuses more agents than seats: the extra names would be ignored silently.
pub fn check_agent_count(p: &Program, names: &[String], seats: u8) -> miette::Result<()> {
    if names.len() <= seats as usize {
        return Ok(());
    }
    let more = if players_param(p).is_some() {
        ", or seat more players with `--players`"
    } else {
        ""
    };
    Err(miette!(
        code = "fuda::cli::too-many-agents",
        help =
            format!("give at most {seats} (one per seat; a shorter list is reused in turn){more}"),
        "`--agents` names {} agents, but `{}` has {seats} seats",
        names.len(),
        p.title
    ))
}
