//! `fuda merge`: adds up the shard reports of `fuda simulate … --shard I/N --json` into
//! the report of the whole batch, the very report `fuda simulate` prints for it on one
//! machine but for the time taken. The shards' running sums are whole numbers, so they
//! add up exactly (see `stats::Sums`); every shard of the batch must be there once, and
//! each must be of the same batch, or nothing is printed.

use std::collections::BTreeMap;
use std::path::PathBuf;

use miette::miette;
use serde::Deserialize;

use crate::render;
use crate::seating::{Mode, Seating};
use crate::shard::{ShardState, VERSION};
use crate::simulate::{self, Failure, Report, MAX_FAILURES_LISTED};
use crate::stats::Sums;
use crate::{errln, outln};

/// Arguments of `fuda merge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The shard reports, each written by `fuda simulate … --shard I/N --json`: every
    /// shard of the batch once, in any order.
    #[arg(value_name = "PART.json", required = true)]
    pub files: Vec<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A shard report as `fuda merge` reads it: the head of its report and its shard state
/// (the rest of the report is made again from the sums).
#[derive(Deserialize)]
struct Part {
    ruleset: String,
    seed: u64,
    players: u8,
    agents: Vec<String>,
    seating: Option<Mode>,
    games_requested: u64,
    failed: u64,
    stopped: bool,
    failures: Vec<Failure>,
    seconds: f64,
    shard: ShardState,
}

/// A part and the file it came from, as the messages name it.
struct Named {
    file: String,
    part: Part,
}

/// Merges the shard reports; 0 when every game of the batch finished cleanly, 1 when
/// any failed (as `fuda simulate`), and an error when the files are not every shard of
/// one batch.
pub fn run(args: &Args) -> miette::Result<u8> {
    let result = run_text(args);
    // With `--json`, an error is JSON on stdout too, as `fuda simulate` prints it.
    if let (true, Err(e)) = (args.json, &result) {
        outln!("{}", serde_json::json!({ "error": render::one_line(e) }));
    }
    result
}

fn run_text(args: &Args) -> miette::Result<u8> {
    let parts = args
        .files
        .iter()
        .map(|f| read_part(f))
        .collect::<miette::Result<Vec<Named>>>()?;
    same_batch(&parts)?;
    every_shard_once(&parts)?;
    let (report, measure) = merge(parts)?;
    // What `fuda simulate` drew on stderr as each game failed, shortened: its report's
    // "(see above)" points here.
    for f in &report.failures {
        errln!("game {} (seed {}) failed: {}", f.game, f.seed, f.error);
    }
    if report.failed > report.failures.len() as u64 {
        errln!(
            "… and {} more failed games",
            report.failed - report.failures.len() as u64
        );
    }
    if args.json {
        outln!("{}", serde_json::to_string(&report).unwrap_or_default());
    } else {
        render::out(&simulate::human(&report, &measure));
    }
    Ok(u8::from(report.failed > 0))
}

/// Reads one shard report, saying what else the file is when it is not one.
fn read_part(path: &std::path::Path) -> miette::Result<Named> {
    let file = crate::stdin::shown(path);
    let text = crate::read::read_data_file(path, &crate::read::SHARD_REPORT)?;
    let help = "give the --json output of `fuda simulate FILE … --shard I/N --json`, whole";
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        miette!(
            code = "fuda::cli::merge",
            help = help,
            "`{file}` is not JSON ({}): {e}",
            if e.is_eof() {
                "it ends too soon"
            } else {
                "it is malformed"
            }
        )
    })?;
    let Some(shard) = v.get("shard") else {
        let (what, help) = if let Some(error) = v.get("error").and_then(|e| e.as_str()) {
            (
                format!("the report of a run that failed: {error}"),
                "run that shard again",
            )
        } else if v.get("games_requested").is_some() {
            (
                "the report of a whole batch, not of a shard".to_string(),
                "write each shard's report with `fuda simulate FILE … --shard I/N --json`",
            )
        } else {
            ("not a report of `fuda simulate`".to_string(), help)
        };
        return Err(miette!(
            code = "fuda::cli::merge",
            help = help,
            "`{file}` is {what}"
        ));
    };
    // Another version may write other sums, or play other games: said before its
    // fields are read as this version's.
    let version = shard.get("fuda").and_then(|x| x.as_str()).unwrap_or("?");
    if version != VERSION {
        return Err(miette!(
            code = "fuda::cli::merge",
            help = "play every shard, and merge them, with one version of fuda",
            "`{file}` was written by fuda {version}, and this is fuda {VERSION}"
        ));
    }
    let part: Part = serde_json::from_str(&text).map_err(|e| {
        miette!(
            code = "fuda::cli::merge",
            help = help,
            "`{file}` is not a shard report as fuda {VERSION} writes one: {e}"
        )
    })?;
    Ok(Named { file, part })
}

/// What makes a part one of its batch's, as `(what, how it reads)`: the first that
/// differs between two parts is named.
fn batch_of(p: &Part) -> Vec<(&'static str, String)> {
    let params: Vec<String> = p
        .shard
        .params
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    let seating = match p.seating {
        Some(Mode::Rotate) => "rotate",
        Some(Mode::Fixed) => "fixed",
        None => "one agent",
    };
    vec![
        ("the ruleset", format!("`{}`", p.ruleset)),
        (
            "the ruleset's text (its hash, imports included)",
            p.shard.ruleset_hash.clone(),
        ),
        ("the seed (--seed)", p.seed.to_string()),
        ("the games (--games)", p.shard.games.to_string()),
        ("the players", p.players.to_string()),
        ("the agents by seat (--agents)", p.agents.join(",")),
        ("the seating (--seating)", seating.to_string()),
        ("the parameters (--set)", params.join(" ")),
        (
            "the number of shards (N of --shard I/N)",
            p.shard.count.to_string(),
        ),
    ]
}

/// Refuses parts that are not of one batch, naming the first difference.
fn same_batch(parts: &[Named]) -> miette::Result<()> {
    let Some(first) = parts.first() else {
        return Ok(());
    };
    let want = batch_of(&first.part);
    for other in &parts[1..] {
        let got = batch_of(&other.part);
        if let Some(((what, a), (_, b))) = want.iter().zip(&got).find(|(a, b)| a.1 != b.1) {
            return Err(miette!(
                code = "fuda::cli::merge",
                help = "merge the shards of one batch: the same ruleset, --seed, --games, \
                        --players, --set, --agents and --seating, split by one N",
                "`{}` and `{}` are shards of different batches: {what} is {b} in `{}` but \
                 {a} in `{}`",
                other.file,
                first.file,
                other.file,
                first.file
            ));
        }
    }
    Ok(())
}

/// Refuses a shard given twice or missing, and a shard whose own numbers do not fit it.
fn every_shard_once(parts: &[Named]) -> miette::Result<()> {
    let Some(first) = parts.first() else {
        return Ok(());
    };
    let count = first.part.shard.count;
    let mut seen: BTreeMap<u64, &str> = BTreeMap::new();
    for Named { file, part } in parts {
        let sh = &part.shard;
        if sh.index >= sh.count {
            return Err(miette!(
                code = "fuda::cli::merge",
                "`{file}` says it is shard {} of {}, which does not exist",
                sh.index,
                sh.count
            ));
        }
        if let Some(before) = seen.insert(sh.index, file) {
            let also = if before == file {
                "given twice".to_string()
            } else {
                format!("and so is `{before}`")
            };
            return Err(miette!(
                code = "fuda::cli::merge",
                help = "give each shard's report once",
                "`{file}` is shard {}/{count}, {also}",
                sh.index
            ));
        }
        let shard = crate::shard::Shard {
            index: sh.index,
            count,
        };
        let games = shard.games_of(sh.games);
        let again = "write the shard's report again with `fuda simulate … --shard I/N --json`";
        if part.games_requested != games {
            return Err(miette!(
                code = "fuda::cli::merge",
                help = again,
                "`{file}` does not add up: shard {}/{count} of a batch of {} games has {games} \
                 of them, not {}",
                sh.index,
                sh.games,
                part.games_requested
            ));
        }
        // Every shard applies the stop rule to the batch's first games: all say the same.
        if part.stopped != first.part.stopped {
            return Err(miette!(
                code = "fuda::cli::merge",
                help = again,
                "`{file}` says the batch {} after its first games, but `{}` says it {}",
                stop_word(part.stopped),
                first.file,
                stop_word(first.part.stopped)
            ));
        }
    }
    let missing: Vec<u64> = (0..count).filter(|i| !seen.contains_key(i)).collect();
    if !missing.is_empty() {
        return Err(miette!(
            code = "fuda::cli::merge",
            help = format!(
                "run `fuda simulate … --shard I/{count} --json` for each missing I, and merge \
                 all {count} shards"
            ),
            "{} of {count} {} missing",
            listed(&missing),
            if missing.len() == 1 { "is" } else { "are" }
        ));
    }
    Ok(())
}

/// "stopped" or "went on".
fn stop_word(stopped: bool) -> &'static str {
    if stopped {
        "stopped"
    } else {
        "went on"
    }
}

/// The missing shards, by index: "shard 1", "shards 0, 2 and 5", the first twenty of a
/// longer list and how many more.
fn listed(missing: &[u64]) -> String {
    const SHOWN: usize = 20;
    let shown: Vec<String> = missing.iter().take(SHOWN).map(u64::to_string).collect();
    match (missing.len(), shown.split_last()) {
        (1, _) => format!("shard {}", shown[0]),
        (n, Some((last, rest))) if n <= SHOWN => {
            format!("shards {} and {last}", rest.join(", "))
        }
        (n, _) => format!("shards {} and {} more", shown.join(", "), n - SHOWN),
    }
}

/// Adds the parts up: the whole batch's report, and what it calls its final standings.
fn merge(parts: Vec<Named>) -> miette::Result<(Report, String)> {
    let first = &parts.first().expect("clap asks for one file at least").part;
    let mode = first.seating.unwrap_or(Mode::Rotate);
    let seating = Seating::new(&first.agents, first.players, mode);
    let mut sums = Sums::new(&seating);
    let (mut failed, mut seconds, mut failures) = (0u64, 0.0f64, Vec::new());
    for Named { file, part } in &parts {
        sums.merge(&part.shard.sums).map_err(|e| {
            miette!(
                code = "fuda::cli::merge",
                help = "write the shard's report again with `fuda simulate … --shard I/N --json`",
                "`{file}`'s sums do not fit its batch: {e}"
            )
        })?;
        failed += part.failed;
        seconds += part.seconds;
        failures.extend(part.failures.iter().cloned());
    }
    // Each shard lists its first failures by game; the batch's first are among them
    // (a shard lists every one of its own that is among the batch's first).
    failures.sort_by_key(|f| f.game);
    failures.truncate(MAX_FAILURES_LISTED);
    let first = parts.into_iter().next().expect("one part at least").part;
    let summary = sums.finish(&seating, &first.shard.roles);
    let report = Report {
        ruleset: first.ruleset,
        seed: first.seed,
        players: first.players,
        agents: seating.table().to_vec(),
        seating: seating.mode(),
        games_requested: first.shard.games,
        failed,
        stopped: first.stopped,
        failures,
        // The time the shards took together (on however many machines).
        seconds: (seconds * 1000.0).round() / 1000.0,
        deals_per_second: simulate::per_second(summary.deals, seconds),
        games_per_second: simulate::per_second(summary.games, seconds),
        shard: None,
        games: Vec::new(),
        summary,
    };
    Ok((report, first.shard.measure))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_shards_are_listed() {
        assert_eq!(listed(&[3]), "shard 3");
        assert_eq!(listed(&[0, 2]), "shards 0 and 2");
        assert_eq!(listed(&[0, 2, 5]), "shards 0, 2 and 5");
        let many: Vec<u64> = (0..25).collect();
        assert!(
            listed(&many).ends_with("19 and 5 more"),
            "{}",
            listed(&many)
        );
    }
}
