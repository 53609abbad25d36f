//! Replays: a finished (or interrupted) game saved as TOML — the ruleset, a hash of its
//! text, the seed, the parameters and every choice made — that anyone can re-run with
//! `fuda replay FILE.toml` to get the very same game.

use std::path::{Path, PathBuf};

use fuda_core::engine::Event;
use fuda_core::play::chips_of;
use fuda_core::State;
use miette::miette;
use serde::{Deserialize, Serialize};

use crate::params;
use crate::{errln, outln};

/// What a replay file holds.
#[derive(Serialize, Deserialize, Debug)]
pub struct Replay {
    /// The ruleset, as given to `fuda play` (relative to the replay file when re-run).
    pub ruleset: String,
    /// FNV-1a 64 of the ruleset's text, to notice a changed file.
    pub ruleset_hash: String,
    /// The game's seed.
    pub seed: u64,
    /// Parameters set with `--set` / `--players`, as `NAME=VALUE`.
    pub set: Vec<String>,
    /// Each decision's choices, one index per asked seat, in order.
    pub moves: Vec<Vec<usize>>,
}

/// Arguments of `fuda replay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The replay file written by `fuda play --record`.
    #[arg(value_name = "FILE.toml")]
    pub file: PathBuf,
    /// The ruleset to use instead of the one the replay names.
    #[arg(long, value_name = "FILE")]
    pub ruleset: Option<PathBuf>,
}

/// FNV-1a, 64 bits: small, stable across machines and Rust versions.
pub fn text_hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.as_bytes() {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("fnv1a64:{h:016x}")
}

/// Writes a replay file.
pub fn save(path: &Path, replay: &Replay) -> miette::Result<()> {
    let text = toml::to_string(replay)
        .map_err(|e| miette!(code = "fuda::cli::replay", "cannot write the replay: {e}"))?;
    std::fs::write(path, text).map_err(|e| {
        miette!(
            code = "fuda::cli::write",
            help = "check that the folder exists and may be written to",
            "cannot write `{}`: {}",
            path.display(),
            crate::load::io_reason(&e)
        )
    })
}

/// Re-runs a replay and prints how the game went; 0 when it plays to its end.
pub fn run(args: &Args) -> miette::Result<u8> {
    let text = crate::load::read_data_file(&args.file)?;
    let replay: Replay = toml::from_str(&text).map_err(|e| {
        miette!(
            code = "fuda::cli::replay",
            help = "a replay is the TOML file `fuda play --record FILE.toml` writes",
            "`{}` is not a replay: {e}",
            args.file.display()
        )
    })?;
    let ruleset = match &args.ruleset {
        Some(r) => r.clone(),
        None => {
            let named = PathBuf::from(&replay.ruleset);
            let beside = args.file.parent().map(|d| d.join(&named));
            match beside {
                Some(b) if !named.is_absolute() && b.exists() => b,
                _ => named,
            }
        }
    };
    let rtext = crate::load::read_rule_file(&ruleset)?;
    if text_hash(&rtext) != replay.ruleset_hash {
        errln!(
            "warning: `{}` has changed since the game was recorded; the replay may differ",
            ruleset.display()
        );
    }
    let p = crate::load::program(&ruleset)?;
    let game_params = params::game_params(&p, &replay.set, None)?;
    let mut st = State::new(&p, &game_params, replay.seed)
        .map_err(|e| miette!(code = "fuda::cli::replay", "{}", e.message))?;
    for (i, choices) in replay.moves.iter().enumerate() {
        if st
            .advance(&p)
            .map_err(|e| miette!(code = "fuda::cli::replay", "{}", e.message))?
        {
            return Err(miette!(
                code = "fuda::cli::replay",
                help = "replay with the ruleset and `--set` values it was recorded with",
                "the game ended after {i} decisions, but the replay has {}",
                replay.moves.len()
            ));
        }
        st.apply(&p, choices).map_err(|e| {
            miette!(
                code = "fuda::cli::replay",
                help = "replay with the ruleset and `--set` values it was recorded with",
                "decision {}: {} (the replay does not fit this ruleset)",
                i + 1,
                e.message
            )
        })?;
    }
    let finished = st
        .advance(&p)
        .map_err(|e| miette!(code = "fuda::cli::replay", "{}", e.message))?;
    outln!(
        "{} — seed {}, {} decisions replayed",
        p.title,
        replay.seed,
        replay.moves.len()
    );
    for e in &st.events {
        match e {
            Event::Outcome(o, _) => outln!("  deal ends: {o}"),
            Event::Record(s, r, d) => {
                let role = params::role(&p, st.board.seats, *d, *s)
                    .map(|r| format!(" {r}"))
                    .unwrap_or_default();
                outln!("  seat {s}{role} scores {}: {}", r.name, r.total)
            }
            _ => {}
        }
    }
    for (s, c) in chips_of(&p, &st).iter().enumerate() {
        outln!("  seat {s}: {c:+}");
    }
    if !finished {
        outln!("(the recorded game stopped before its end)");
    }
    Ok(0)
}
