//! `fuda score --settle`: run a ruleset's settlement procedure on a described end of
//! round (capture piles per seat, the hidden card, the field) and report what each
//! seat pays or receives and which yaku it holds. Also reads the same description as
//! JSON (`--state`, or lines of `--batch` that carry `zones`).

use fuda_core::play::{self as core, settle, SettleError, Settlement, ZoneCards};
use fuda_core::value::YakuLine;
use fuda_core::Program;
use miette::miette;
use serde_json::{json, Value as Json};

use crate::params::{self, GameParams};
use crate::score::Args;
use crate::settle_sets::{self, Given, Sets};
use crate::{outln, render, values, view};

/// A described end of round, ready to settle, with the parameters of its game.
struct Described {
    table: core::Described,
    params: GameParams,
}

/// Runs `--settle` / `--state`; 0 on success, 1 when the description is wrong.
pub fn run(p: &Program, args: &Args) -> miette::Result<u8> {
    if let Some(path) = &args.batch {
        return batch(p, path, args.settle.as_deref());
    }
    let d = match &args.state {
        Some(path) => {
            let text = crate::read::read_data_file(path, &crate::read::STATE)?;
            let v: Json = serde_json::from_str(&text).map_err(|e| {
                miette!(
                    code = "fuda::cli::json",
                    "`{}` is not JSON: {}",
                    crate::stdin::shown(path),
                    render::json_error(&e)
                )
            })?;
            from_json(p, &v, args.settle.as_deref())?
        }
        None => from_flags(p, args)?,
    };
    let s = run_settle(p, &d)?;
    if args.json {
        outln!("{}", to_json(p, &d, &s));
    } else {
        render::out(&human(p, &d, &s));
    }
    Ok(0)
}

/// `--settle PROC --batch FILE.jsonl`: every line describes an end of round; a line
/// without its own `"settle"` uses PROC. One JSON result (or error) per line.
fn batch(p: &Program, path: &std::path::Path, settle_proc: Option<&str>) -> miette::Result<u8> {
    crate::batch::run(path, |line| {
        serde_json::from_str::<Json>(line)
            .map_err(|e| {
                miette!(
                    code = "fuda::cli::json",
                    "not JSON: {}",
                    render::json_error(&e)
                )
            })
            .and_then(|v| batch_line(p, &v, settle_proc))
    })
}

/// One `--batch` line that describes an end of round (it has `zones`).
pub fn batch_line(p: &Program, v: &Json, settle_proc: Option<&str>) -> miette::Result<String> {
    let d = from_json(p, v, settle_proc)?;
    let s = run_settle(p, &d)?;
    Ok(to_json(p, &d, &s))
}

fn run_settle(p: &Program, d: &Described) -> miette::Result<Settlement> {
    settle(p, &d.params, &d.table).map_err(|e| match e {
        SettleError::Input(m) => miette!(code = "fuda::cli::settle", "{m}"),
        SettleError::Runtime(r) => {
            // One line (with the rule's file and line), fit for a JSON batch too.
            let at = p
                .sources
                .get(r.loc.file as usize)
                .map(|s| {
                    format!(
                        " ({}:{})",
                        s.name,
                        fuda_core::diagnostic::line_of(&s.text, r.loc.span.start as usize)
                    )
                })
                .unwrap_or_default();
            match &r.help {
                Some(h) => miette!(
                    code = "fuda::cli::settle",
                    help = h.clone(),
                    "the settlement stopped: {}{at}",
                    r.message
                ),
                None => miette!(
                    code = "fuda::cli::settle",
                    "the settlement stopped: {}{at}",
                    r.message
                ),
            }
        }
    })
}

fn from_flags(p: &Program, args: &Args) -> miette::Result<Described> {
    let proc = args.settle.clone().unwrap_or_default();
    let given: Vec<(&str, Given)> = params::assignments(&args.set)?
        .into_iter()
        .map(|(n, t)| (n, Given::Text(t)))
        .collect();
    let (sets, dealer) =
        settle_sets::sort(p, &proc, &given, args.dealer.as_deref().map(Given::Text))?;
    let seats = params::seat_count(p, &sets.params)?;
    let mut zones = Vec::new();
    for spec in &args.zones {
        let (name, ids) = spec.split_once('=').ok_or_else(|| {
            miette!(
                code = "fuda::cli::zone",
                help = "write `NAME=IDS` or `NAME[SEAT]=IDS`",
                "`{spec}` is not a zone description"
            )
        })?;
        zones.push(zone(
            p,
            seats,
            dealer,
            name.trim(),
            &values::cards(p, ids)?,
        )?);
    }
    Ok(described(proc, dealer, zones, sets))
}

/// The core's description of the end of round, and the parameters it is played with.
fn described(proc: String, dealer: u8, zones: Vec<ZoneCards>, sets: Sets) -> Described {
    Described {
        table: core::Described {
            proc,
            args: sets.args,
            dealer,
            zones,
            vars: sets.vars,
        },
        params: sets.params,
    }
}

/// Reads a JSON description: `settle`, `dealer`, `zones`, and the `args`, `vars` and
/// `params` it sets (one object each; a name is looked up as with `--set`, so any of
/// the three objects may hold it).
fn from_json(p: &Program, v: &Json, settle_proc: Option<&str>) -> miette::Result<Described> {
    let obj = v
        .as_object()
        .ok_or_else(|| miette!(code = "fuda::cli::json", "a settlement is a JSON object"))?;
    let proc = match (obj.get("settle").and_then(|x| x.as_str()), settle_proc) {
        (Some(s), _) => s.to_string(),
        (None, Some(s)) => s.to_string(),
        (None, None) => {
            return Err(miette!(
                code = "fuda::cli::settle",
                help = "add `\"settle\": \"PROC\"` or pass `--settle PROC`",
                "which procedure settles the round?"
            ))
        }
    };
    let mut given: Vec<(&str, Given)> = Vec::new();
    for key in ["params", "args", "vars"] {
        match obj.get(key) {
            None => {}
            Some(Json::Object(m)) => {
                for (k, val) in m {
                    if given.iter().any(|(n, _)| *n == k.as_str()) {
                        return Err(miette!(code = "fuda::cli::set-twice", "`{k}` is set twice"));
                    }
                    given.push((k.as_str(), Given::Json(val)));
                }
            }
            Some(other) => {
                return Err(miette!(
                    code = "fuda::cli::json",
                    help = format!("e.g. \"{key}\": {{\"本場\": 2}}"),
                    "`{key}` should be an object of names and values, not {other}"
                ))
            }
        }
    }
    let dealer = match obj.get("dealer") {
        None => None,
        Some(d @ (Json::Number(_) | Json::String(_))) => Some(Given::Json(d)),
        Some(other) => {
            return Err(miette!(
                code = "fuda::cli::json",
                "`dealer` should be a seat number or role, not {other}"
            ))
        }
    };
    let (sets, dealer) = settle_sets::sort(p, &proc, &given, dealer)?;
    let seats = params::seat_count(p, &sets.params)?;
    let zs = obj
        .get("zones")
        .and_then(|x| x.as_object())
        .ok_or_else(|| {
            miette!(
                code = "fuda::cli::json",
                help = "e.g. \"zones\": {\"取り札[0]\": \"1a 1b\"}",
                "the description needs `zones`"
            )
        })?;
    let mut zones = Vec::new();
    for (name, ids) in zs {
        zones.push(zone(p, seats, dealer, name, &values::cards_json(p, ids)?)?);
    }
    Ok(described(proc, dealer, zones, sets))
}

/// `NAME` or `NAME[SEAT]`.
fn zone(
    p: &Program,
    seats: u8,
    dealer: u8,
    spec: &str,
    cards: &[u16],
) -> miette::Result<ZoneCards> {
    let (name, seat) = match spec.split_once('[') {
        Some((n, rest)) => {
            let inner = rest
                .strip_suffix(']')
                .ok_or_else(|| miette!(code = "fuda::cli::zone", "`{spec}`: missing `]`"))?;
            (n.trim(), Some(seat_of(p, seats, dealer, inner.trim())?))
        }
        None => (spec.trim(), None),
    };
    Ok(ZoneCards {
        zone: name.to_string(),
        seat,
        cards: cards.to_vec(),
    })
}

/// A seat number, or a role name (relative to `dealer`).
pub fn seat_of(p: &Program, seats: u8, dealer: u8, text: &str) -> miette::Result<u8> {
    if let Ok(n) = text.parse::<i64>() {
        if n < 0 || n >= seats as i64 {
            return Err(miette!(
                code = "fuda::cli::seat",
                "seat {n} does not exist: seats are 0..{}",
                seats - 1
            ));
        }
        return Ok(n as u8);
    }
    for s in 0..seats {
        if params::role(p, seats, dealer, s) == Some(text) {
            return Ok(s);
        }
    }
    let roles: Vec<&str> = (0..seats)
        .filter_map(|s| params::role(p, seats, dealer, s))
        .collect();
    let help = match fuda_core::suggest::closest(text, roles.iter().copied()) {
        Some(r) => format!(
            "did you mean `{r}`? Seats are 0..{} or the roles {}",
            seats - 1,
            roles.join(", ")
        ),
        None if roles.is_empty() => format!("give a seat number, 0..{}", seats - 1),
        None => format!(
            "give a seat number, 0..{}, or a role: {}",
            seats - 1,
            roles.join(", ")
        ),
    };
    Err(miette!(
        code = "fuda::cli::seat",
        help = help,
        "no seat `{text}`"
    ))
}

fn human(p: &Program, d: &Described, s: &Settlement) -> String {
    let mut out = format!("{} — {}\n", p.title, d.table.proc);
    for seat in 0..s.seats {
        let role = params::role(p, s.seats, d.table.dealer, seat)
            .map(|r| format!(" {r}"))
            .unwrap_or_default();
        out.push_str(&format!(
            "  seat {seat}{role}: {:+}\n",
            s.chips.get(seat as usize).copied().unwrap_or(0)
        ));
        for (_, r) in s.records.iter().filter(|(x, _)| *x == seat) {
            for line in view::yaku_lines(r) {
                out.push_str(&format!("      {line}\n"));
            }
            // As `fuda score` shows a hand: a bonus line (a `plus` stage's row) or a
            // multiplied yaku is told apart by how the total is made. A plain sum of
            // yaku (every bundled fishing game's) says nothing more, and is not shown.
            if r.factor != 1 || !r.bonuses.is_empty() {
                out.push_str(&format!("      {}\n", view::sum_line(r)));
            }
        }
    }
    for m in &s.log {
        out.push_str(&format!("  {m}\n"));
    }
    if s.dealer != d.table.dealer {
        let role = params::role(p, s.seats, d.table.dealer, s.dealer)
            .map(|r| format!(" ({r})"))
            .unwrap_or_default();
        out.push_str(&format!("next dealer: seat {}{role}\n", s.dealer));
    }
    out
}

fn to_json(p: &Program, d: &Described, s: &Settlement) -> String {
    let seats: Vec<Json> = (0..s.seats)
        .map(|seat| {
            let records = || s.records.iter().filter(|(x, _)| *x == seat);
            // As in `fuda score --json`: `yaku` are the lines that add up to the
            // totals (bonus lines included), `bonuses` the `plus` stages' rows that held.
            let yaku: Vec<&YakuLine> = records().flat_map(|(_, r)| r.yaku.iter()).collect();
            let bonuses: Vec<&YakuLine> = records().flat_map(|(_, r)| r.bonuses.iter()).collect();
            let total: i64 = records().map(|(_, r)| r.total).sum();
            json!({
                "seat": seat,
                "role": params::role(p, s.seats, d.table.dealer, seat),
                "chips": s.chips.get(seat as usize).copied().unwrap_or(0),
                "yaku": yaku,
                "bonuses": bonuses,
                "yaku_total": total,
            })
        })
        .collect();
    json!({
        "settle": d.table.proc,
        "dealer": d.table.dealer,
        "next_dealer": s.dealer,
        "seats": seats,
        "outcomes": s.outcomes.iter().map(|o| o.to_string()).collect::<Vec<_>>(),
        "log": s.log,
    })
    .to_string()
}

/// Whether a batch line describes an end of round.
pub fn is_settlement(v: &Json) -> bool {
    v.get("zones").is_some()
}
