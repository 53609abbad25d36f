//! The `fuda` command: parses the command line and hands each subcommand to its module.
//! Exit codes: 0 success, 1 a problem found (or a user error, shown as a diagnostic),
//! 2 a usage error (clap, or standard input asked for twice) or a `play` session left
//! before the game ended.

mod batch;
mod budget;
mod check;
mod compare;
mod diag_json;
mod in_order;
mod input;
mod limits;
mod lines;
mod load;
mod masked;
mod mean;
mod merge;
mod params;
mod play;
mod progress;
mod read;
mod render;
mod replay;
mod score;
mod seating;
mod settle;
mod settle_sets;
mod shard;
mod simulate;
mod stats;
mod stdin;
mod tally;
mod test_cmd;
mod told;
mod values;
mod view;

use std::process::ExitCode;

use std::path::Path;

use clap::{CommandFactory, Parser, Subcommand};

/// fuda: check, test, score, simulate (and merge shards), compare, play and replay
/// traditional card and tile games written as `.fuda` rule files.
#[derive(Parser, Debug)]
#[command(
    name = "fuda",
    version,
    about,
    propagate_version = true,
    after_help = "Examples:
  fuda check rulesets/sangohana.fuda
  fuda test rulesets/sangohana.fuda
  fuda score rulesets/sangohana.fuda --hand \"1-ribbon 2-ribbon 3-ribbon 1-crane 3-curtain 8-moon 11-rainman 12-phoenix\"
  fuda simulate rulesets/sangohana.fuda --games 1000
  fuda compare rulesets/sangohana.fuda rulesets/sangohana-strict.fuda
  fuda merge part0.json part1.json part2.json
  fuda play rulesets/sangohana.fuda

A file argument given as `-` is read from standard input (`./-` names a file called `-`):
  cat house.fuda | fuda check -

Colour follows `--color` (auto by default: on a terminal, unless NO_COLOR is set)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// When to colour diagnostics.
    #[arg(long, global = true, value_enum, default_value_t, value_name = "WHEN")]
    color: render::ColorChoice,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check rulesets for errors and print a one-line summary of each.
    #[command(after_help = "Examples:
  fuda check rulesets/sangohana.fuda
  fuda check rulesets/*.fuda
  fuda check rulesets/sangohana.fuda --json      # diagnostics as JSON, for editors and tools
  cat house.fuda | fuda check -                  # from standard input, shown as <stdin>

Exit code 0 when every file compiles, 1 otherwise (with or without --json).")]
    Check(check::Args),
    /// Run the `test` blocks written in rulesets.
    #[command(after_help = "Examples:
  fuda test rulesets/sangohana.fuda
  fuda test rulesets/sangohana.fuda --filter 五光
  fuda test rulesets/*.fuda --json               # each test's name, result and failure message

The last line is `N passed, N failed`; exit code 1 on any failure.")]
    Test(test_cmd::Args),
    /// Score a hand with one of the ruleset's score tables.
    #[command(after_help = "Examples:
  fuda score rulesets/sangohana.fuda --hand \"1-ribbon 2-ribbon 3-ribbon 1-crane 3-curtain 8-moon 11-rainman 12-phoenix\"
  fuda score rulesets/sangohana.fuda --set win=tsumo --set first_turn=true \\
      --hand \"4-cuckoo 5-bridge 6-butterflies 1-kasu-a 1-kasu-b 2-kasu-a 2-kasu-b 5-kasu-a\" --json
  fuda score rulesets/sangohana.fuda --batch hands.jsonl
  zcat hands.jsonl.gz | fuda score rulesets/sangohana.fuda --batch -

`--set` takes the table's arguments and the ruleset's parameters alike:
  fuda score rulesets/sangohana-strict.fuda --set 桐素と対の倍=4 --set players=4 --hand \"…\"

With --settle PROC it runs a procedure on a described end of round; `--set` then gives
the procedure's arguments and the variables as the round left them:
  fuda score rulesets/jukugo-mahjong.fuda --settle 勝ち --zone \"手札[1]=6S 4S 3S 10S 7D 5H\" \\
      --set w=1 --set how=ツモ --set 放銃=1 --set 立直[1]=true --set 本場=2

A batch line is a JSON object: {\"hand\": \"1-crane …\", \"win\": \"ron\", \"first_turn\": true}; its
fields take the place of `--set`s of the same names. Each answer (a result, or
{\"error\": …} for a line that fails) carries the \"line\" number it answers; blank
lines are skipped, and the run goes on past a bad line (exit code 1 at the end).
With --json, an error that stops the command is also printed as {\"error\": …}.")]
    Score(score::Args),
    /// Play many games with computer players and report statistics.
    #[command(after_help = "Examples:
  fuda simulate rulesets/sangohana.fuda
  fuda simulate rulesets/sangohana.fuda --games 300 --agents greedy,random,random
  fuda simulate rulesets/sangohana.fuda --games 200 --seed 7 --players 4 --agents greedy,random --json
  fuda simulate rulesets/sangohana.fuda --agents greedy,random,random --seating fixed
  fuda simulate rulesets/sangohana.fuda --set deals=1 --threads 1
  fuda simulate rulesets/sangohana.fuda --games 100000 --shard 0/4 --json > part0.json

With different agents, game i moves each of them i seats on, so that each sits at each
seat equally often and the seats' advantages do not pass for the agents' (`--seating
fixed` keeps them where `--agents` puts them), and the report adds a row per agent: its
win rate and final chips per seat it held. The same seed gives the same report for any
number of threads.

`--shard I/N` plays only the games i with i % N = I of the batch (each with the seed
and seats it has in the whole batch), on this machine; `fuda merge` adds up the N
shards' --json reports into the whole batch's report. When the batch's first 16 games
all fail, every shard stops, as the whole batch would.")]
    Simulate(simulate::Args),
    /// Add up the shard reports of `fuda simulate --shard I/N --json` into the report of
    /// the whole batch.
    #[command(after_help = "Examples:
  for i in 0 1 2 3; do
    fuda simulate rulesets/sangohana.fuda --games 100000 --seed 7 --shard $i/4 --json > part$i.json &
  done; wait
  fuda merge part0.json part1.json part2.json part3.json
  fuda merge part*.json --json

The merged report is the one `fuda simulate` prints for the whole batch on one machine,
number for number: only the time differs (the shards' seconds added up). Every shard of
the batch must be given once, each played with the same ruleset text, --seed, --games,
--players, --set, --agents, --seating and fuda version; anything else is an error that
names the file and what differs, and nothing is merged. Exit code 1 when a game of the
batch failed (as `fuda simulate`), or on an error.
Scripts for a Slurm job array, a Kubernetes indexed Job and GNU parallel are in
scripts/shards/.")]
    Merge(merge::Args),
    /// Simulate two rulesets with the same games and report what changed, B − A.
    #[command(after_help = "Examples:
  fuda compare rulesets/sangohana.fuda rulesets/sangohana-strict.fuda
  fuda compare rulesets/ukishima.fuda rulesets/ukishima-no-subtraction.fuda --games 300 --agents random --json
  fuda compare rulesets/sangohana.fuda rulesets/sangohana-strict.fuda --agents greedy,random,random

Game i gets the same seed under both rulesets and seats the same agents in the same
places (different agents rotate over the seats, as in `fuda simulate`, and are compared
agent by agent as well as seat by seat). Every difference comes with a 95% interval from
the games paired by seed (a ruleset against itself gives 0 [0, 0]); a `*` marks those
that leave out 0, where the batches tell the two rulesets apart.

`--set NAME=VALUE` applies to each ruleset that declares NAME (a variant may add a
parameter its baseline lacks); a name neither declares is an error.")]
    Compare(compare::Args),
    /// Play a game in the terminal against computer players.
    #[command(after_help = "Examples:
  fuda play rulesets/sangohana.fuda
  fuda play rulesets/sangohana.fuda --seat 1 --seed 42 --agents random --set deals=1

At each decision type a move's number, its name, or `name card-id` (e.g. `捨てる 1-crane`).
A move that would win shows what it scores. At each deal's end every hand is shown and
fuda waits for Enter (`--no-pause` goes on at once).
If the rules make or lose chips (the `ledger` stops balancing), a warning says so once.
Exit code 2 when input ends before the game does.")]
    Play(play::Args),
    /// Re-run a game recorded with `fuda play --record`.
    #[command(after_help = "Examples:
  fuda play rulesets/sangohana.fuda --seed 7 --record game.toml
  fuda replay game.toml             # every recorded move, what the rules said, results, chips
  fuda replay game.toml --summary   # results and final chips only

A replay holds the ruleset's path (from the replay's folder) and a hash of its text, the
seed, the parameters, every choice made and how the game ended, so the same game plays
out on any machine; a replay that ends otherwise than recorded exits with code 1. A move
with no alternative is not recorded, and not shown.

The ruleset is read only from below the replay's folder (relative, no `..`, no symbolic
link out, as an import): keep the replay beside its ruleset, or in a folder above it, or
give `--ruleset FILE`. A replay may hold at most 512 KiB and 50000 decisions.")]
    Replay(replay::Args),
}

fn main() -> ExitCode {
    let cli = Cli::try_parse().unwrap_or_else(|e| usage_error(e));
    render::set_color(cli.color);
    render::install_hook();
    if let Err(e) = check_stdin(&cli.command) {
        e.exit();
    }
    let result = match &cli.command {
        Command::Check(a) => check::run(a),
        Command::Test(a) => test_cmd::run(a),
        Command::Score(a) => score::run(a),
        Command::Simulate(a) => simulate::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Play(a) => play::run(a),
        Command::Replay(a) => replay::run(a),
    };
    // Diagnostics past the cap were counted, not drawn: said before any last error.
    if let Some(line) = budget::more() {
        errln!("{line}");
    }
    match result {
        Ok(code) => ExitCode::from(code),
        Err(report) => {
            render::err(&render::report(&report));
            ExitCode::from(1)
        }
    }
}

/// Ends with clap's usage error (or its help or version). clap quotes a bad value as
/// given, and on a terminal an escape sequence in it would reach the screen: when an
/// argument holds control characters, the error is made again from the arguments with
/// them masked, so that it quotes them masked.
fn usage_error(e: clap::Error) -> ! {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let masked: Vec<std::ffi::OsString> = args
        .iter()
        .map(|a| match a.to_str() {
            Some(s) => render::printable(s).into_owned().into(),
            None => a.clone(),
        })
        .collect();
    if masked == args {
        e.exit();
    }
    if let Err(again) = Cli::try_parse_from(&masked) {
        again.exit();
    }
    // Masked, the arguments parse: clap's text, without its styles and masked.
    render::err(&render::printable(&e.render().to_string()));
    std::process::exit(e.exit_code());
}

/// The file arguments a command reads, by name, in command-line order: at most one of
/// them may be `-`, as standard input can be read once.
fn file_args(command: &Command) -> (&'static str, Vec<(&'static str, &Path)>) {
    fn each<'a>(
        name: &'static str,
        files: &'a [std::path::PathBuf],
    ) -> Vec<(&'static str, &'a Path)> {
        files.iter().map(|f| (name, f.as_path())).collect()
    }
    match command {
        Command::Check(a) => ("check", each("FILE", &a.files)),
        Command::Test(a) => ("test", each("FILE", &a.files)),
        Command::Score(a) => {
            let mut files = vec![("FILE", a.file.as_path())];
            files.extend(a.state.as_deref().map(|p| ("--state", p)));
            files.extend(a.batch.as_deref().map(|p| ("--batch", p)));
            ("score", files)
        }
        Command::Simulate(a) => ("simulate", vec![("FILE", a.file.as_path())]),
        Command::Merge(a) => ("merge", each("PART.json", &a.files)),
        Command::Compare(a) => ("compare", vec![("A", a.a.as_path()), ("B", a.b.as_path())]),
        Command::Play(a) => ("play", vec![("FILE", a.file.as_path())]),
        Command::Replay(a) => {
            let mut files = vec![("FILE.toml", a.file.as_path())];
            files.extend(a.ruleset.as_deref().map(|p| ("--ruleset", p)));
            ("replay", files)
        }
    }
}

/// Refuses, as a usage error, two file arguments that are both `-`, and `-` where
/// standard input is taken already: `fuda play` reads the moves typed there, and shows
/// the game on standard output, so `--record -` has no stream to write to. `fuda merge`
/// reads files only: a shard report may be larger than standard input is read for.
fn check_stdin(command: &Command) -> Result<(), clap::Error> {
    let (name, files) = file_args(command);
    let message = if let Some((a, b)) = stdin::clash(&files) {
        Some(stdin::clash_message(a, b))
    } else if let Command::Merge(a) = command {
        a.files.iter().any(|f| stdin::is_stdin(f)).then(|| {
            "a `PART.json` is `-`, but `fuda merge` reads shard reports from files\n\n\
             tip: write each shard's report to a file (`… --shard I/N --json > partI.json`)"
                .to_string()
        })
    } else if let Command::Play(a) = command {
        if stdin::is_stdin(&a.file) {
            Some(
                "`FILE` is `-`, but `fuda play` reads your moves from standard input\n\n\
                 tip: give the ruleset's path"
                    .to_string(),
            )
        } else if a.record.as_deref().is_some_and(stdin::is_stdin) {
            Some(
                "`--record` is `-`, but `fuda play` shows the game on standard output\n\n\
                 tip: record to a file such as `--record game.toml`"
                    .to_string(),
            )
        } else {
            None
        }
    } else {
        None
    };
    let Some(message) = message else {
        return Ok(());
    };
    let mut cli = Cli::command();
    cli.build();
    let command = cli.find_subcommand_mut(name).map(|c| c.clone());
    let kind = clap::error::ErrorKind::ArgumentConflict;
    Err(match command {
        Some(mut c) => c.error(kind, message),
        None => cli.error(kind, message),
    })
}
