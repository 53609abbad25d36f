//! `fuda simulate`: play many games with computer players in parallel and report
//! statistics. Game `i` always gets seed `game_seed(S, i)`, its seating depends on `i`
//! alone and its agents are seeded from its seed, so the report is the same for any
//! thread count.

use std::path::PathBuf;
use std::time::Instant;

use fuda_core::agents::{by_name, Agent};
use fuda_core::play::{agent_seed, game_seed, GameError, GameRecord, PlayOptions, Table};
use fuda_core::Program;
use miette::miette;
use serde::{Deserialize, Serialize};

use crate::params::{self, GameParams};
use crate::render::{self, Stream};
use crate::seating::{Mode, Seating};
use crate::shard::{Shard, ShardState};
use crate::stats::{self, Interval, Summary};
use crate::view;
use crate::{errln, outln};

/// Arguments of `fuda simulate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The ruleset file (`-`: standard input).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    #[command(flatten)]
    pub run: RunArgs,
    /// Play only shard I of N of the batch: its games i with i % N = I (I from 0), each
    /// with the seed and seats it has in the whole batch. With `--json` the report
    /// carries what `fuda merge` needs to add the N shards up to the whole batch's.
    #[arg(long, value_name = "I/N", value_parser = crate::shard::parse)]
    pub shard: Option<Shard>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// How a batch of games is played: shared by `fuda simulate` and `fuda compare`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// How many games (matches) to play. When the first 16 all fail, the run stops there.
    #[arg(long, default_value_t = 1000, value_name = "N", value_parser = at_least_one::<u64>)]
    pub games: u64,
    /// The master seed: the same seed gives the same games.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// Number of players: sets the ruleset's `players` parameter (a ruleset that always
    /// seats the same number takes only that number).
    #[arg(long, value_name = "P")]
    pub players: Option<i64>,
    /// Set a game parameter, e.g. `deals=4` (each name once; booleans are `true` or
    /// `false`).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Computer players by seat, comma-separated (random, eager, greedy, planner): at most one per
    /// seat, a shorter list reused in turn. Different agents are rotated over the seats
    /// (see `--seating`).
    #[arg(long, default_value = "greedy", value_name = "A,B,C")]
    pub agents: String,
    /// Where different agents sit from game to game (with one agent it changes nothing).
    #[arg(long, value_enum, default_value_t = Mode::Rotate, value_name = "HOW")]
    pub seating: Mode,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "T", value_parser = at_least_one::<u16>)]
    pub threads: Option<u16>,
}

/// Parses a count that must be at least 1 (`--games 0` would print an empty report).
fn at_least_one<T: std::str::FromStr + PartialOrd + From<u8>>(s: &str) -> Result<T, String> {
    match s.parse::<T>() {
        Ok(n) if n >= T::from(1) => Ok(n),
        Ok(_) => Err("must be at least 1".into()),
        Err(_) => Err(format!("`{s}` is not a whole number")),
    }
}

/// A game that failed: its index, seed and the error, rendered.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Failure {
    /// Its index in the batch.
    pub game: u64,
    /// Its seed.
    pub seed: u64,
    /// What went wrong, on one line.
    pub error: String,
}

/// The whole report, as printed with `--json`.
#[derive(Serialize)]
pub struct Report {
    /// The ruleset's title.
    pub ruleset: String,
    /// The master seed.
    pub seed: u64,
    /// Seats played.
    pub players: u8,
    /// The agent of each seat in game 0; with `seating` `rotate`, game *i* moves each
    /// of them *i* seats on.
    pub agents: Vec<String>,
    /// How different agents were seated (`rotate` or `fixed`); left out when every seat
    /// has the same agent, which either way plays the very same games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seating: Option<Mode>,
    /// Games asked for (finished or failed): a shard's, in a shard report.
    pub games_requested: u64,
    /// Games that failed.
    pub failed: u64,
    /// Whether the run stopped after the batch's first games, every one of which
    /// failed (the others were not played). A shard applies the rule to the batch's
    /// first games, not its own: see [`play`].
    pub stopped: bool,
    /// The first failed games (at most [`MAX_FAILURES_LISTED`]; `failed` counts them
    /// all), each with its seed and error.
    pub failures: Vec<Failure>,
    /// What the finished games add up to.
    #[serde(flatten)]
    pub summary: Summary,
    /// Wall-clock time: the only fields that change between identical runs.
    pub seconds: f64,
    /// Deals per second of wall-clock time.
    pub deals_per_second: f64,
    /// Games per second of wall-clock time.
    pub games_per_second: f64,
    /// What a shard report carries for `fuda merge` (only with `--shard`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardState>,
    /// What each game added, in game order (`None` for a game that failed): what
    /// `fuda compare` pairs game by game. Empty unless asked for (see [`play`]).
    #[serde(skip)]
    pub games: Vec<Option<stats::GameTotals>>,
}

/// Games played first, on their own: when every one of them fails, the others are not
/// played. A fixed number, so that where a run stops does not depend on the threads.
pub const FIRST_GAMES: u64 = 16;

/// The most failed games a report lists (it counts them all): a rule file that fails
/// one game in two would otherwise list half a million for a million games.
pub const MAX_FAILURES_LISTED: usize = 100;

/// Runs of games finished (or being played) ahead of the next one to be merged, per
/// thread: room enough that a slow run seldom holds the other threads up. A finished
/// run holds its sums, not its games' records (a game may keep 20,000 events), so the
/// window costs little memory.
const WINDOW_PER_THREAD: u64 = 8;

/// Runs the games; 0 when all finished cleanly, 1 when any failed.
pub fn run(args: &Args) -> miette::Result<u8> {
    let result = run_text(args);
    // With `--json`, an error that stops the command is JSON on stdout too, as with
    // `fuda score`, so a program reading the output gets JSON either way.
    if let (true, Err(e)) = (args.json, &result) {
        outln!("{}", serde_json::json!({ "error": render::one_line(e) }));
    }
    result
}

fn run_text(args: &Args) -> miette::Result<u8> {
    let batch = prepare(&args.file, &args.run)?;
    let report = play(&batch, &args.run, false, args.shard)?;
    if args.json {
        outln!("{}", serde_json::to_string(&report).unwrap_or_default());
    } else {
        render::out(&human(&report, measure(&batch.p)));
    }
    Ok(u8::from(report.failed > 0))
}

/// What the text report calls the final standings: a game without a ledger is
/// measured by the totals it records (see `GameRecord`).
fn measure(p: &Program) -> &'static str {
    if p.ledger.is_empty() {
        "points"
    } else {
        "chips"
    }
}

/// A ruleset ready to be played in a batch: compiled, its parameters and agents checked.
pub struct Batch {
    /// The compiled ruleset.
    pub p: Program,
    game_params: GameParams,
    /// The number of seats these parameters give.
    pub seats: u8,
    /// The agent names as given, reused in turn over the seats.
    pub agents: Vec<String>,
    /// Which agent sits where in each game.
    pub seating: Seating,
    /// What the progress bar is labelled with (empty: nothing), so that `fuda compare`
    /// tells its two batches apart.
    pub label: String,
}

/// Compiles the ruleset at `file` and checks the batch's parameters and agents against
/// it, before any game is played.
pub fn prepare(file: &std::path::Path, run: &RunArgs) -> miette::Result<Batch> {
    let (batch, unknown) = prepare_known(file, run)?;
    if let Some(name) = unknown.first() {
        return Err(params::unknown_param(&batch.p, name));
    }
    params::check_agent_count(&batch.p, &batch.agents, batch.seats)?;
    Ok(batch)
}

/// Like [`prepare`], but hands back the `--set` names the ruleset does not declare, and
/// leaves the number of agents to the caller: `fuda compare` checks both against the
/// two rulesets together.
pub fn prepare_known(
    file: &std::path::Path,
    run: &RunArgs,
) -> miette::Result<(Batch, Vec<String>)> {
    let p = crate::load::program(file)?;
    let (game_params, unknown) = params::game_params_known(&p, &run.set, run.players)?;
    let seats = params::seat_count(&p, &game_params)?;
    let agents = params::agent_names(&run.agents)?;
    let seating = Seating::new(&agents, seats, run.seating);
    if p.entry.is_none() {
        return Err(miette!(
            code = "fuda::cli::no-match",
            help = "declare `proc match { … }`",
            "`{}` has no `proc match` to play",
            p.title
        ));
    }
    Ok((
        Batch {
            p,
            game_params,
            seats,
            agents,
            seating,
            label: String::new(),
        },
        unknown,
    ))
}

/// Plays the batch's games in parallel and sums them up; a failed game is drawn on
/// stderr as it is found and counted in the report. With `per_game`, the report also
/// keeps what each game added ([`Report::games`]), for `fuda compare` to pair. With a
/// `shard`, only that shard's games are played and the report is a shard report.
///
/// The batch's first [`FIRST_GAMES`] games are played on their own: when every one of
/// them fails, the rest are not played (`stopped`). A shard decides this as the whole
/// batch does, on the batch's first games, so that its shards add up to the whole
/// batch's report even then: it plays its own share of them first, and only when all
/// of those failed does it also play the others' (counting nothing of them, drawing
/// none of their errors) to see whether they all failed too. A broken ruleset costs
/// each shard at most those few games more; a working one, none.
pub fn play(
    batch: &Batch,
    run: &RunArgs,
    per_game: bool,
    shard: Option<Shard>,
) -> miette::Result<Report> {
    let Batch {
        p,
        game_params,
        seats,
        seating,
        ..
    } = batch;
    let (p, seats) = (p, *seats);
    let part = shard.unwrap_or(Shard::WHOLE);
    let threads = match run.threads {
        Some(t) => usize::from(t).max(1),
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let own = part.games_of(run.games);
    let bar = crate::progress::bar(own, &batch.label);
    let started = Instant::now();
    let roles: Vec<String> = p
        .seats
        .roles
        .iter()
        .find(|(n, _)| *n == seats as usize)
        .map(|(_, r)| r.clone())
        .unwrap_or_default();
    let mut sums = stats::Sums::new(seating);
    let mut failures = Vec::new();
    let mut failed_games = 0u64;
    let mut per_game_totals = Vec::new();
    // Each worker adds a run of games to sums of its own, which are merged in game
    // order: the sums merge exactly, so the numbers do not depend on the threads, and
    // the thread that merges does a run's worth of work per merge rather than a game's.
    // At most a window of runs' sums is held at once, never all the games.
    // Plays the shard's games `from..to` (game j of the shard is `part.game(j)` of the
    // batch); how many failed.
    let mut merged = Ok(());
    let mut games = |from: u64, to: u64| -> miette::Result<u64> {
        let mut failed = 0;
        let run_len = games_a_run(to - from, threads);
        let runs = (to - from).div_ceil(run_len);
        crate::in_order::run(
            0,
            runs,
            threads,
            WINDOW_PER_THREAD * threads as u64,
            // A table for each worker: the board every game starts from is built once a
            // worker, not once a game.
            || Worker::new(Table::new(p, game_params)),
            |worker, k| {
                let lo = from + k * run_len;
                let mut played = Played::new(seating);
                for j in lo..(lo + run_len).min(to) {
                    let i = part.game(j);
                    match one_game(worker, seating, i, game_seed(run.seed, i), seats) {
                        Ok(rec) => {
                            played.sums.add(seating, i, &rec);
                            if per_game {
                                played.totals.push(Some(stats::game_totals(
                                    &rec,
                                    seating.seated(i),
                                    seating.names(),
                                )));
                            }
                        }
                        Err(e) => {
                            played.failed.push((i, e));
                            if per_game {
                                played.totals.push(None);
                            }
                        }
                    }
                    bar.inc(1);
                }
                played
            },
            |_, played| {
                // The first failure is kept (each would say the same).
                if let (Ok(()), Err(e)) = (&merged, sums.merge(&played.sums)) {
                    merged = Err(e);
                }
                per_game_totals.extend(played.totals);
                for (i, e) in played.failed {
                    let seed = game_seed(run.seed, i);
                    // Each failure is in the report; only the first ones are drawn.
                    if crate::budget::draw(fuda_core::diagnostic::Severity::Error) {
                        errln!("game {i} (seed {seed}) failed:\n{}", rendered_error(p, &e));
                    }
                    failed_games += 1;
                    if failures.len() < MAX_FAILURES_LISTED {
                        failures.push(Failure {
                            game: i,
                            seed,
                            error: short_error(p, &e),
                        });
                    }
                    failed += 1;
                }
            },
        )
        .map_err(|e| miette!("cannot start {threads} threads: {e}"))?;
        Ok(failed)
    };
    // The first games on their own: when every one fails, the ruleset fails every game
    // (each perhaps only at a runaway limit), and the rest are not played.
    let first = run.games.min(FIRST_GAMES);
    let own_first = part.games_of(first);
    let own_first_failed = games(0, own_first)? == own_first;
    let stopped = first < run.games
        && own_first_failed
        && all_fail(batch, run, threads, (0..first).filter(|i| !part.owns(*i)))?;
    if !stopped {
        games(own_first, own)?;
    }
    bar.finish_and_clear();
    // Sums of the same batch always merge; a failure here is fuda's own error.
    merged.map_err(|e| miette!("internal error: the sums of a run of games did not merge: {e}"))?;
    let seconds = started.elapsed().as_secs_f64();
    let state = match shard {
        Some(s) => Some(ShardState {
            index: s.index,
            count: s.count,
            games: run.games,
            fuda: crate::shard::VERSION.to_string(),
            ruleset_hash: crate::shard::ruleset_hash(p),
            params: crate::shard::params(p, &params::resolved(p, game_params)?),
            measure: measure(p).to_string(),
            roles: roles.clone(),
            sums: sums.clone(),
        }),
        None => None,
    };
    let summary = sums.finish(seating, &roles);
    let report = Report {
        ruleset: p.title.clone(),
        seed: run.seed,
        players: seats,
        agents: seating.table().to_vec(),
        seating: seating.mode(),
        games_requested: own,
        failed: failed_games,
        stopped,
        failures,
        seconds: (seconds * 1000.0).round() / 1000.0,
        deals_per_second: per_second(summary.deals, seconds),
        games_per_second: per_second(summary.games, seconds),
        shard: state,
        games: per_game_totals,
        summary,
    };
    Ok(report)
}

/// `n` per second of `seconds`, to a tenth (0 when no time was measured).
pub fn per_second(n: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        (n as f64 / seconds * 10.0).round() / 10.0
    } else {
        0.0
    }
}

/// Whether every one of the batch's games `games` fails (true for none): played only to
/// know, nothing of them counted and none of their errors drawn (they are another
/// shard's to report).
fn all_fail(
    batch: &Batch,
    run: &RunArgs,
    threads: usize,
    games: impl Iterator<Item = u64>,
) -> miette::Result<bool> {
    let games: Vec<u64> = games.collect();
    let mut finished = 0u64;
    crate::in_order::run(
        0,
        games.len() as u64,
        threads,
        WINDOW_PER_THREAD * threads as u64,
        || Worker::new(Table::new(&batch.p, &batch.game_params)),
        |worker, j| {
            let i = games[j as usize];
            let seed = game_seed(run.seed, i);
            one_game(worker, &batch.seating, i, seed, batch.seats).is_ok()
        },
        |_, ok| finished += u64::from(ok),
    )
    .map_err(|e| miette!("cannot start {threads} threads: {e}"))?;
    Ok(finished == 0)
}

/// Games a worker plays and adds up before handing them on: enough that the thread
/// merging them in order is seldom busy (a cheap game takes microseconds), few enough
/// that every thread gets work in a short batch (a long match takes seconds).
fn games_a_run(games: u64, threads: usize) -> u64 {
    (games / (threads as u64 * 64)).clamp(1, 32)
}

/// A run of games played by one worker: their sums, each game's totals when asked for
/// (`None` for a failed game), and the failed games with their errors, in game order.
struct Played {
    sums: stats::Sums,
    totals: Vec<Option<stats::GameTotals>>,
    failed: Vec<(u64, GameError)>,
}

impl Played {
    fn new(seating: &Seating) -> Played {
        Played {
            sums: stats::Sums::new(seating),
            totals: Vec::new(),
            failed: Vec::new(),
        }
    }
}

/// What one thread keeps from game to game: the table every game starts from, and the
/// players, made once and renewed for each game ([`Agent::new_game`]: the greedy player
/// keeps the pattern distances it worked out).
struct Worker<'p> {
    table: Table<'p>,
    /// Players by name, in the order first seated.
    kept: Vec<Box<dyn Agent>>,
}

impl<'p> Worker<'p> {
    fn new(table: Table<'p>) -> Worker<'p> {
        Worker {
            table,
            kept: Vec::new(),
        }
    }
}

/// Plays game number `game`, with seed `seed`, its agents seated as `seating` says for
/// that game.
fn one_game(
    worker: &mut Worker<'_>,
    seating: &Seating,
    game: u64,
    seed: u64,
    seats: u8,
) -> Result<GameRecord, GameError> {
    // An agent's seed belongs to the seat, not to the agent: whoever sits at seat s
    // draws from `agent_seed(seed, s)`. Rotating a table of one agent then plays the
    // very games it played before there was rotation (single-agent reports keep their
    // numbers), and the seed still depends only on the game and the seat, never on
    // which thread plays it.
    let mut kept = std::mem::take(&mut worker.kept);
    let mut players: Vec<Box<dyn Agent>> = (0..seats as usize)
        .map(|s| {
            let name = seating.agent(game, s);
            let seed = agent_seed(seed, s);
            let renewed = kept.iter().position(|a| a.name() == name).and_then(|k| {
                let mut a = kept.swap_remove(k);
                a.new_game(seed).then_some(a)
            });
            renewed.unwrap_or_else(|| {
                by_name(name, seed).expect("agent names are checked before play")
            })
        })
        .collect();
    let r = worker.table.play(
        seed,
        &mut players,
        &PlayOptions {
            check_invariants: true,
            keep_moves: false,
            ..PlayOptions::default()
        },
    );
    players.append(&mut kept);
    worker.kept = players;
    r
}

/// A failed game's error drawn for stderr.
fn rendered_error(p: &Program, e: &GameError) -> String {
    match e {
        GameError::Runtime(r) => {
            render::program_diagnostic(&r.to_diagnostic(), &p.sources, Stream::Err)
        }
        GameError::Invariant(_) => short_error(p, e),
    }
}

/// A failed game's error on one line, with the rule's file and line.
fn short_error(p: &Program, e: &GameError) -> String {
    match e {
        GameError::Runtime(r) => match p.sources.get(r.loc.file as usize) {
            Some(src) => format!(
                "{} ({}:{})",
                r.message,
                src.name,
                fuda_core::diagnostic::line_of(&src.text, r.loc.span.start as usize)
            ),
            None => r.message.clone(),
        },
        GameError::Invariant(i) => format!(
            "invariant broken after {} decisions: {}",
            i.decision, i.message
        ),
    }
}

/// A section of named rows: each name's count per deal and a mean, names padded to one
/// width (results, yaku and bonuses are all written so).
fn per_deal_table(out: &mut String, header: &str, rows: &[(&str, f64, f64)]) {
    out.push_str(header);
    out.push('\n');
    let w = rows
        .iter()
        .map(|x| view::width(x.0))
        .max()
        .unwrap_or(0)
        .max(14);
    for (name, per_deal, mean) in rows {
        out.push_str(&format!(
            "  {}  {:>8.4}   {:>8.2}\n",
            view::pad(name, w),
            per_deal,
            mean
        ));
    }
}

/// A rate with its interval, in percent: ` 33.33% [ 30.10,  36.56]`.
fn percent(i: &Interval) -> String {
    format!(
        "{:>6.2}% [{:>6.2}, {:>6.2}]",
        i.mean * 100.0,
        i.low * 100.0,
        i.high * 100.0
    )
}

/// A signed mean with its interval: `   +1.25 [   -0.40,    +2.90]`.
pub fn signed(i: &Interval) -> String {
    format!("{:>+8.2} [{:>+8.2}, {:>+8.2}]", i.mean, i.low, i.high)
}

/// One row of a seat, an agent or a role: its first `cells`, then its win rate and its
/// chips, each with its interval.
fn standing(out: &mut String, cells: &str, win_rate: &Interval, chips: &Interval) {
    out.push_str(&format!(
        "  {cells} {}    {}\n",
        percent(win_rate),
        signed(chips)
    ));
}

/// How different agents were seated, for the head of a report (`None` when every seat
/// has the same agent): "agents greedy,random,greedy rotated over the seats…".
fn seating_line(r: &Report) -> Option<String> {
    let agents = r.agents.join(",");
    Some(match r.seating? {
        Mode::Rotate => {
            format!("agents {agents} rotated over the seats: game i moves each agent i seats on")
        }
        Mode::Fixed => format!(
            "agents {agents} at fixed seats: each agent's numbers include its seats' advantage"
        ),
    })
}

/// The text report; `measure` names the final standings (see [`measure`]).
pub fn human(r: &Report, measure: &str) -> String {
    let s = &r.summary;
    let mut out = format!(
        "{}: {} games, {} deals in {:.2} s ({} deals/s), seed {}, {} players\n",
        r.ruleset,
        s.games,
        s.deals,
        r.seconds,
        crate::progress::whole(r.deals_per_second),
        r.seed,
        r.players
    );
    if let Some(line) = seating_line(r) {
        out.push_str(&line);
        out.push('\n');
    }
    if let Some(sh) = &r.shard {
        out.push_str(&format!(
            "shard {} of {}: the batch's games i with i % {} = {}, {} of its {} \
             (`fuda merge` adds up the shards' --json reports)\n",
            sh.index, sh.count, sh.count, sh.index, r.games_requested, sh.games
        ));
    }
    if let (true, Some(sh)) = (r.stopped, &r.shard) {
        let mine = match r.failed {
            0 => "none of them this shard's".to_string(),
            n => format!("{n} of them this shard's, see above"),
        };
        out.push_str(&format!(
            "FAILED: the batch's first {} games all failed ({mine}), so this shard's other {} \
             were not played\n",
            sh.games.min(FIRST_GAMES),
            r.games_requested - r.failed
        ));
    } else if r.stopped {
        out.push_str(&format!(
            "FAILED: the first {} games all failed (see above), so the other {} were not played\n",
            r.failed,
            r.games_requested - r.failed
        ));
    } else if r.failed > 0 {
        out.push_str(&format!(
            "FAILED: {} of {} games (see above)\n",
            r.failed, r.games_requested
        ));
    }
    out.push_str("outcomes\n");
    let w = s
        .outcomes
        .iter()
        .map(|o| view::width(&o.label))
        .max()
        .unwrap_or(0);
    for o in &s.outcomes {
        out.push_str(&format!(
            "  {}  {:>8}  {:>6.2}%\n",
            view::pad(&o.label, w),
            o.count,
            o.percent
        ));
    }
    let results: Vec<_> = s
        .results
        .iter()
        .map(|x| (x.name.as_str(), x.per_deal, x.mean_value))
        .collect();
    per_deal_table(
        &mut out,
        "results           per deal   mean value",
        &results,
    );
    if !s.yaku.is_empty() {
        let yaku: Vec<_> = s
            .yaku
            .iter()
            .map(|x| (x.name.as_str(), x.per_deal, x.mean_payment))
            .collect();
        per_deal_table(&mut out, "yaku              per deal   mean payment", &yaku);
    }
    // Only a table with a `plus` stage that fired has bonuses to show.
    if !s.bonuses.is_empty() {
        let bonuses: Vec<_> = s
            .bonuses
            .iter()
            .map(|x| (x.name.as_str(), x.per_deal, x.mean_value))
            .collect();
        per_deal_table(
            &mut out,
            "bonuses           per deal   mean value",
            &bonuses,
        );
    }
    out.push_str(&format!(
        "seats   agent    win rate (95%)              final {measure} (95%)\n"
    ));
    for seat in &s.seats {
        // Different agents took the seat in turn: none of them is the seat's.
        let agent = seat.agent.as_deref().unwrap_or("rotated");
        let cells = format!("{:<5} {:<8}", seat.seat, agent);
        standing(&mut out, &cells, &seat.win_rate, &seat.chips);
    }
    // One agent is every seat: its row would repeat the seats'.
    if s.by_agent.len() > 1 {
        out.push_str(&format!(
            "agents     seats  win rate (95%)              final {measure} (95%)\n"
        ));
        for a in &s.by_agent {
            let cells = format!("{} {:>5}", view::pad(&a.agent, 8), a.seats);
            standing(&mut out, &cells, &a.win_rate, &a.chips);
        }
    }
    if !s.roles.is_empty() {
        let w = s
            .roles
            .iter()
            .map(|r| view::width(&r.role))
            .max()
            .unwrap_or(0)
            .max(5);
        out.push_str(&format!(
            "{}  win rate (95%)              {measure} per deal (95%)\n",
            view::pad("roles", w + 2)
        ));
        for r in &s.roles {
            let cells = format!("{} ", view::pad(&r.role, w));
            standing(&mut out, &cells, &r.win_rate, &r.chips_per_deal);
        }
    }
    for t in &s.tallies {
        out.push_str(&format!("tally {}\n", t.label));
        for (v, c, pct) in &t.values {
            out.push_str(&format!("  {:<10} {:>8} {:>6.2}%\n", v, c, pct));
        }
    }
    out.push_str(&format!("decisions per game: {:.1}\n", s.decisions.mean));
    out
}
