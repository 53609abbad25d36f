//! Replays: a finished (or interrupted) game saved as TOML — the ruleset, a hash of its
//! text, the seed, the parameters and every choice made — that anyone can re-run with
//! `fuda replay FILE.toml` to get the very same game.

use std::path::{Path, PathBuf};

use fuda_core::engine::Event;
use fuda_core::play::chips_of;
use fuda_core::{RuntimeError, State};
use miette::miette;
use serde::{Deserialize, Serialize};

use crate::limits::MAX_REPLAY_MOVES;
use crate::load::{FolderLoader, Refusal};
use crate::{errln, outln};
use crate::{params, render, stdin};

/// What a replay file holds.
#[derive(Serialize, Deserialize, Debug)]
pub struct Replay {
    /// The ruleset: its path from the replay file's folder, which `fuda replay` reads
    /// only below that folder, by the rules of an import's path (relative, without
    /// `..`, no symbolic link out). A replay kept beside its ruleset (or in a folder
    /// above it) finds it; one kept elsewhere is replayed with `--ruleset FILE`.
    pub ruleset: String,
    /// FNV-1a 64 of the ruleset's text, to notice a changed file.
    pub ruleset_hash: String,
    /// The game's seed.
    pub seed: u64,
    /// Parameters set with `--set` / `--players`, as `NAME=VALUE`.
    pub set: Vec<String>,
    /// Each decision's choices, one index per asked seat, in order. A `choose` with a
    /// single move is not a decision here: the engine takes it as it runs. At most
    /// [`MAX_REPLAY_MOVES`] are read.
    #[serde(deserialize_with = "capped_moves")]
    pub moves: Vec<Vec<usize>>,
    /// How the game ended, checked on replay; absent in records older than it (and in
    /// the one written as the game starts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<Ended>,
    /// Each seat's chips when it ended, checked on replay; absent as `ended` is, and
    /// for a game the rules stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chips: Option<Vec<i64>>,
    /// The one-line message of the rules error a `failed` game stopped on, checked on
    /// replay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The seats a person played (the rules may ask, `person(s)`); absent in records
    /// older than it, which are replayed with none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub people: Vec<u8>,
}

/// How a recorded game ended.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Ended {
    /// Played to its end.
    Finished,
    /// The person left (quit, or input ended) with the game still going.
    Left,
    /// The rules stopped the game with an error (a round with no end, say).
    Failed,
}

impl Ended {
    /// How the end reads after "the recorded game" or "its replay".
    fn said(self) -> &'static str {
        match self {
            Ended::Finished => "played to its end",
            Ended::Left => "stopped before its end",
            Ended::Failed => "stopped on a rules error",
        }
    }
}

/// The moves of a replay, refused past [`MAX_REPLAY_MOVES`] as they are read.
fn capped_moves<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Vec<usize>>, D::Error> {
    struct Capped;
    impl<'de> serde::de::Visitor<'de> for Capped {
        type Value = Vec<Vec<usize>>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list of decisions, each a list of choices")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            let mut moves = Vec::new();
            while let Some(m) = seq.next_element::<Vec<usize>>()? {
                if moves.len() == MAX_REPLAY_MOVES {
                    return Err(serde::de::Error::custom(format!(
                        "it holds more than {MAX_REPLAY_MOVES} decisions, the most a replay may hold"
                    )));
                }
                moves.push(m);
            }
            Ok(moves)
        }
    }
    d.deserialize_seq(Capped)
}

/// Arguments of `fuda replay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The replay file written by `fuda play --record` (`-`: standard input; the
    /// ruleset it names is then looked for below the current folder).
    #[arg(value_name = "FILE.toml")]
    pub file: PathBuf,
    /// The ruleset to use instead of the one the replay names (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    pub ruleset: Option<PathBuf>,
    /// Print only the results and the final chips, not the moves.
    #[arg(long)]
    pub summary: bool,
}

/// FNV-1a, 64 bits: small, stable across machines and Rust versions.
pub fn text_hash(text: &str) -> String {
    texts_hash([text])
}

/// [`text_hash`] of several texts, each after the first preceded by a byte 0xFF, which
/// no UTF-8 text holds, so that moving text from one to the next changes the hash. One
/// text hashes as [`text_hash`] hashes it: recorded replays keep their hashes.
pub fn texts_hash<'t>(texts: impl IntoIterator<Item = &'t str>) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (k, text) in texts.into_iter().enumerate() {
        let separator = if k == 0 { None } else { Some(0xff) };
        for b in separator.into_iter().chain(text.bytes()) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("fnv1a64:{h:016x}")
}

/// Writes a replay file: a regular file (or a new one) only, as a FIFO would block the
/// write until something reads it, and a device would swallow it.
pub fn save(path: &Path, replay: &Replay) -> miette::Result<()> {
    let text = toml::to_string(replay)
        .map_err(|e| miette!(code = "fuda::cli::replay", "cannot write the replay: {e}"))?;
    let refused = |why: String| {
        miette!(
            code = "fuda::cli::write",
            help = "record to a .toml file in a folder that may be written to",
            "cannot write `{}`: {why}",
            stdin::shown(path),
        )
    };
    if let Some(what) = crate::read::not_regular(path) {
        return Err(refused(what.to_string()));
    }
    std::fs::write(path, text).map_err(|e| refused(crate::read::io_reason(&e)))
}

/// The folder a replay file is in (`.` for a bare file name), made absolute; `Err`
/// when it does not exist, so that `fuda play --record` can refuse a path it could
/// not write before the game starts.
pub fn record_folder(record: &Path) -> miette::Result<PathBuf> {
    let dir = folder_of(record);
    dir.canonicalize().map_err(|e| {
        let why = match e.kind() {
            std::io::ErrorKind::NotFound => "does not exist".to_string(),
            _ => format!("cannot be used: {}", crate::read::io_reason(&e)),
        };
        miette!(
            code = "fuda::cli::write",
            help = "create the folder first, or record to a file in a folder that exists",
            "cannot record the game to `{}`: the folder `{}` {why}",
            stdin::shown(record),
            stdin::shown(&dir),
        )
    })
}

/// The folder of a file as a path to join to (`.` for a bare file name).
fn folder_of(file: &Path) -> PathBuf {
    match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// How a replay names its ruleset: relative to the replay's folder `dir` (absolute),
/// so that the two can move together and the replay be run from any folder; absolute
/// when there is no such path (another drive), or as given when it cannot be made
/// absolute.
pub fn ruleset_field(ruleset: &Path, dir: &Path) -> String {
    let Ok(target) = ruleset.canonicalize() else {
        return ruleset.display().to_string();
    };
    match relative_to(dir, &target) {
        Some(rel) => rel,
        None => target.display().to_string(),
    }
}

/// The path from folder `dir` to `target`, both absolute, with `/` between its parts
/// (which every system reads); `None` when they have different roots.
fn relative_to(dir: &Path, target: &Path) -> Option<String> {
    use std::path::Component;
    let d: Vec<Component> = dir.components().collect();
    let t: Vec<Component> = target.components().collect();
    if d.first() != t.first()
        || !matches!(d.first(), Some(Component::RootDir | Component::Prefix(_)))
    {
        return None;
    }
    let common = d.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_string(); d.len() - common];
    parts.extend(
        t[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    Some(parts.join("/"))
}

/// Whether a replay in folder `dir` can name `ruleset` (see [`find_ruleset`]): `Err`
/// says why not, for `fuda play --record` to warn at once.
pub fn can_name(ruleset: &str, dir: &Path) -> Result<(), String> {
    find_ruleset(ruleset, dir)
        .map(|_| ())
        .map_err(|e| render::one_line(&e))
}

/// The ruleset a replay in folder `dir` names, as a path below that folder: vetted as
/// an import's path is (the core's [`resolve`](fuda_core::loader::resolve): relative,
/// no `..`, no drive or `\`, `.fuda` added when missing), then found by the
/// [`FolderLoader`] (no symbolic link out of the folder, nothing but a regular file).
/// A shared replay can thus make `fuda replay` read no file but a rule file kept with it.
fn find_ruleset(named: &str, dir: &Path) -> miette::Result<PathBuf> {
    use fuda_core::loader::{resolve, Resolved};
    let help = "keep the replay in its ruleset's folder (or a folder above it), or give the ruleset with `--ruleset FILE`";
    let shown = render::brief(named, SHOWN_CHARS);
    let not_below = |why: &str| {
        miette!(
            code = "fuda::cli::replay",
            help = help,
            "the replay names its ruleset `{shown}`, which is not a path below the replay's folder: {why}"
        )
    };
    let rel = match resolve(named) {
        Ok(Resolved::Local(rel)) => rel,
        _ if named.starts_with("std/") => {
            return Err(not_below(
                "it names a module of the standard library, not a ruleset",
            ))
        }
        Ok(Resolved::Std(..)) => unreachable!("only a `std/` path names the stdlib"),
        // The core says why as for an import ("`..` is not allowed: imports stay…"):
        // the part before the colon is the rule that was broken.
        Err(why) => return Err(not_below(why.split(": ").next().unwrap_or(&why))),
    };
    // Named as the replay's path names its folder (`games/x.fuda`; `x.fuda` beside a
    // replay named without a folder).
    let path = if dir == Path::new(".") {
        PathBuf::from(&rel)
    } else {
        dir.join(&rel)
    };
    let loader = FolderLoader::named(dir, "the replay's folder").map_err(|e| {
        miette!(
            code = "fuda::cli::replay",
            help = help,
            "cannot open the replay's folder `{}`: {}",
            stdin::shown(dir),
            crate::read::io_reason(&e)
        )
    })?;
    match loader.inside(&rel) {
        Ok(_) => Ok(path),
        Err(Refusal::Missing) => Err(miette!(
            code = "fuda::cli::replay",
            help = help,
            "cannot find the ruleset the replay names: no file `{}`",
            render::brief(&path.display().to_string(), SHOWN_CHARS)
        )),
        Err(Refusal::Unusable(why)) => Err(miette!(
            code = "fuda::cli::replay",
            help = help,
            "cannot read the ruleset the replay names, `{}`: {why}",
            render::brief(&path.display().to_string(), SHOWN_CHARS)
        )),
    }
}

/// How many characters of a replay's text field a message quotes.
const SHOWN_CHARS: usize = render::QUOTED_CHARS;

/// Re-runs a replay and prints how the game went; 0 when it plays as recorded (to its
/// end, or as far as the recorded game went). A record that says how the game ended
/// is checked: a different end or different chips is an error.
pub fn run(args: &Args) -> miette::Result<u8> {
    let text = crate::read::read_data_file(&args.file, &crate::read::REPLAY)?;
    too_many_lists(&args.file, &text)?;
    let replay: Replay = toml::from_str(&text).map_err(|e| not_a_replay(&args.file, &text, &e))?;
    let ruleset = match &args.ruleset {
        Some(r) => r.clone(),
        None => find_ruleset(&replay.ruleset, &folder_of(&args.file))?,
    };
    let rtext = crate::read::read_rule_file(&ruleset)?;
    let changed = text_hash(&rtext) != replay.ruleset_hash;
    if changed {
        errln!(
            "warning: `{}` is not the text the game was recorded with (its hash differs); the replay may differ",
            stdin::shown(&ruleset)
        );
    }
    // Why a replay may not fit, for the errors below.
    let hint = if changed {
        "the ruleset has changed since the game was recorded: replay with the one it was recorded with (`--ruleset FILE`)"
    } else {
        "the replay's moves have been changed, or it was recorded with another version of fuda"
    };
    let p = crate::load::program(&ruleset)?;
    let game_params = params::game_params(&p, &replay.set, None)?;
    let mut st = State::new(&p, &game_params, replay.seed)
        .map_err(|e| miette!(code = "fuda::cli::replay", "{}", e.message))?;
    // Who was a person matters to rules that ask (`person(s)`).
    st.board.people = replay.people.iter().fold(0, |m, s| m | 1u32 << (s % 32));
    // The game as it went: every recorded move and what the rules said, in order.
    st.keep_log = true;
    let mut log = Log {
        lines: Vec::new(),
        seen: 0,
        moves: !args.summary,
    };
    // A rules error stops the replay where it happens; the record says whether the game
    // as played stopped there too.
    let recorded_failure = replay.ended == Some(Ended::Failed);
    let mut failure: Option<RuntimeError> = None;
    let mut replayed = 0;
    for (i, choices) in replay.moves.iter().enumerate() {
        match st.advance(&p) {
            Err(e) => {
                failure = Some(e);
                break;
            }
            Ok(true) => {
                return Err(miette!(
                    code = "fuda::cli::replay",
                    help = hint,
                    "the game ended after {i} decisions, but the replay has {}",
                    replay.moves.len()
                ))
            }
            Ok(false) => {}
        }
        log.events(&p, &st);
        log.moves(&p, &st, choices);
        if let Err(e) = st.apply(&p, choices) {
            // `fuda play` records a decision before carrying it out, so a game that
            // failed carrying out its last one has it in the record.
            if recorded_failure && i + 1 == replay.moves.len() {
                replayed = i + 1;
                failure = Some(e);
                break;
            }
            return Err(miette!(
                code = "fuda::cli::replay",
                help = hint,
                "decision {}: {} (the replay does not fit this ruleset)",
                i + 1,
                e.message
            ));
        }
        replayed = i + 1;
    }
    let mut finished = false;
    if failure.is_none() {
        match st.advance(&p) {
            Ok(f) => finished = f,
            Err(e) => failure = Some(e),
        }
    }
    log.events(&p, &st);
    if let Some(e) = &failure {
        if replayed < replay.moves.len() {
            return Err(miette!(
                code = "fuda::cli::replay-differs",
                help = hint,
                "the rules stopped the game after {replayed} decisions, but the replay has {}: {}",
                replay.moves.len(),
                first_line(&e.message)
            ));
        }
    }
    outln!(
        "{} — seed {}, {} decisions replayed",
        p.title,
        replay.seed,
        replayed
    );
    for line in &log.lines {
        outln!("{line}");
    }
    let chips = chips_of(&p, &st);
    for (s, c) in chips.iter().enumerate() {
        outln!("  seat {s}: {c:+}");
    }
    let now = if failure.is_some() {
        outln!("(the game stops here on a rules error)");
        Ended::Failed
    } else if finished {
        Ended::Finished
    } else {
        outln!("(the game stops here, before its end)");
        Ended::Left
    };
    if let Some(ended) = replay.ended.filter(|e| *e != now) {
        return Err(miette!(
            code = "fuda::cli::replay-differs",
            help = hint,
            "the recorded game {}, but its replay {}",
            ended.said(),
            now.said()
        ));
    }
    if let Some(e) = failure {
        let now = first_line(&e.message);
        if let Some(recorded) = replay.error.as_deref().filter(|r| *r != now) {
            return Err(miette!(
                code = "fuda::cli::replay-differs",
                help = hint,
                "the recorded game stopped on the rules error `{}`, but its replay on `{now}`",
                render::brief(recorded, SHOWN_CHARS)
            ));
        }
        // The game as played stopped on this error: the replay shows it as `play` did,
        // and fails as `play` did.
        return Err(crate::play::runtime(&p, &e));
    }
    if let Some(recorded) = replay.chips.as_ref().filter(|c| **c != chips) {
        return Err(miette!(
            code = "fuda::cli::replay-differs",
            help = hint,
            "the recorded game ended with chips {}, but its replay with {}",
            signed(recorded),
            signed(&chips)
        ));
    }
    Ok(0)
}

/// Lists a replay may hold besides its decisions: `set`, `moves`, `chips`, and some to
/// spare for a `[` in a text field (a path, a recorded error).
const OTHER_LISTS: usize = 100;

/// Refuses a file with more TOML lists than a replay of [`MAX_REPLAY_MOVES`] decisions
/// has, before it is parsed: parsing holds memory for every list, and a file dense
/// with them would hold far more than its size.
fn too_many_lists(file: &Path, text: &str) -> miette::Result<()> {
    let lists = text.bytes().filter(|b| *b == b'[').count();
    if lists <= MAX_REPLAY_MOVES + OTHER_LISTS {
        return Ok(());
    }
    Err(miette!(
        code = "fuda::cli::replay",
        help = "a replay `fuda play --record` writes holds one list a decision: check that this is the replay you meant",
        "`{}` is not a replay fuda reads: it holds {lists} lists (`[`), and a replay of at most {MAX_REPLAY_MOVES} decisions (the most a replay may hold) has at most {}",
        stdin::shown(file),
        MAX_REPLAY_MOVES + OTHER_LISTS
    ))
}

/// The diagnostic for a file that does not parse as a replay: what is wrong and where
/// (line and column), never the file's text, which may be anything.
fn not_a_replay(file: &Path, text: &str, e: &toml::de::Error) -> miette::Report {
    let at = e
        .span()
        .map(|s| {
            let (line, column) = fuda_grammar::line_column(text, s.start);
            format!(" (line {line}, column {column})")
        })
        .unwrap_or_default();
    miette!(
        code = "fuda::cli::replay",
        help = "a replay is the TOML file `fuda play --record FILE.toml` writes",
        "`{}` is not a replay{at}: {}",
        stdin::shown(file),
        render::brief(e.message().trim(), SHOWN_CHARS)
    )
}

/// The lines a replay prints as it re-runs the game: each decision's recorded moves
/// (unless only a summary is asked for) and the rules' events as they happen.
struct Log {
    /// The lines so far.
    lines: Vec<String>,
    /// How many of the game's events are already in `lines`.
    seen: usize,
    /// Whether moves are shown.
    moves: bool,
}

impl Log {
    /// The events since the last call: results, the ends of deals, and (with moves)
    /// what the rules `say`.
    fn events(&mut self, p: &fuda_core::Program, st: &State) {
        for e in st.events.iter().skip(self.seen) {
            match e {
                // Among the moves a deal's end is marked off; a summary keeps the line
                // replay printed before it showed moves.
                Event::Outcome(o, _) if self.moves => {
                    self.lines.push(format!("  ── deal ends: {o}"))
                }
                Event::Outcome(o, _) => self.lines.push(format!("  deal ends: {o}")),
                Event::Record(s, r, d) => {
                    let role = params::role(p, st.board.seats, *d, *s)
                        .map(|r| format!(" {r}"))
                        .unwrap_or_default();
                    // The yaku and bonuses in one line after the total, as the result's
                    // rows read (`素役 1, 福上がり 15`).
                    let rows: Vec<String> = r
                        .yaku
                        .iter()
                        .map(|y| format!("{} {}", y.name, y.value))
                        .collect();
                    let rows = match rows.is_empty() {
                        true => String::new(),
                        false => format!(" ({})", rows.join(", ")),
                    };
                    self.lines.push(format!(
                        "  seat {s}{role} scores {}: {}{rows}",
                        r.name, r.total
                    ))
                }
                Event::Say(m) if self.moves => self.lines.push(format!("  » {m}")),
                _ => {}
            }
        }
        self.seen = st.events.len();
    }

    /// The moves `choices` takes in the waiting decision, seat by seat; a claim
    /// window's passes are left out.
    fn moves(&mut self, p: &fuda_core::Program, st: &State, choices: &[usize]) {
        let Some(pending) = st.pending().filter(|_| self.moves) else {
            return;
        };
        let code = st.pending_code(p);
        for (sm, &c) in pending.seats.iter().zip(choices) {
            let Some(m) = sm.moves.get(c) else { continue };
            if m.option == fuda_core::engine::PASS {
                continue;
            }
            let role = params::role(p, st.board.seats, st.board.dealer, sm.seat)
                .map(|r| format!(" {r}"))
                .unwrap_or_default();
            self.lines.push(format!(
                "  seat {}{role}: {}",
                sm.seat,
                pending.describe(p, code, m)
            ));
        }
    }
}

/// The first line of an error message, as a record keeps it.
pub fn first_line(message: &str) -> String {
    message
        .lines()
        .next()
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// Chips by seat as `+3, -1, -2`.
fn signed(chips: &[i64]) -> String {
    chips
        .iter()
        .map(|c| format!("{c:+}"))
        .collect::<Vec<_>>()
        .join(", ")
}
