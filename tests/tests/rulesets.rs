//! Every shipped ruleset compiles cleanly, passes its own in-file tests, and plays seeded
//! games to the end with the invariants checked after every decision.

use std::path::{Path, PathBuf};

use fuda_core::agents::{by_name, Agent};
use fuda_core::loader::Loader;
use fuda_core::play::{agent_seed, game_seed, play_game, PlayOptions};
use fuda_core::value::Value;

/// Reads files below one folder (the test's own loader; the CLI has the hardened one).
struct Folder(PathBuf);

impl Loader for Folder {
    fn load(&self, path: &str) -> Result<String, String> {
        std::fs::read_to_string(self.0.join(path)).map_err(|e| e.to_string())
    }
}

fn rulesets() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets");
    let mut out: Vec<PathBuf> = walk(&dir);
    out.sort();
    assert!(!out.is_empty(), "no rulesets found in {}", dir.display());
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("rulesets dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.extension().map(|x| x == "fuda").unwrap_or(false) {
            out.push(p);
        }
    }
    out
}

fn compile(path: &Path) -> fuda_core::Program {
    let text = std::fs::read_to_string(path).expect("read");
    let loader = Folder(path.parent().expect("folder").to_path_buf());
    match fuda_core::compile(&path.display().to_string(), &text, &loader) {
        Ok(c) => {
            assert!(
                c.warnings.is_empty(),
                "{}: warnings: {:?}",
                path.display(),
                c.warnings
            );
            c.program
        }
        Err(f) => panic!("{} does not compile: {:#?}", path.display(), f.diagnostics),
    }
}

#[test]
fn every_ruleset_compiles_and_passes_its_tests() {
    for path in rulesets() {
        let p = compile(&path);
        let mut failures = Vec::new();
        for i in 0..p.tests.len() {
            if let Err(e) = fuda_core::State::run_test(&p, i) {
                failures.push(format!(
                    "{}: test \"{}\": {} ({:?})",
                    path.display(),
                    p.tests[i].name,
                    e.message,
                    e.loc
                ));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

/// Matches shortened for these games (the same rules, fewer deals): 対戯's match to 15
/// points takes hundreds of deals between random players, and 帝戯's three tasks and
/// 富戯's eight or more rounds a greedy player's playouts, minutes in a debug build.
const SHORTER: &[(&str, &str, i64)] = &[
    ("taigi.fuda", "目標", 2),
    ("teigi.fuda", "課題数", 1),
    ("fugi.fuda", "降番", 1),
];

#[test]
fn seeded_games_keep_the_invariants() {
    for path in rulesets() {
        let p = compile(&path);
        let players = p.params.iter().position(|d| d.name == "players");
        let counts: Vec<Option<i64>> = match players.and_then(|i| p.params[i].range) {
            Some((lo, hi)) => (lo..=hi).map(Some).collect(),
            None => vec![None],
        };
        for n in counts {
            let mut params: Vec<Option<Value>> = vec![None; p.params.len()];
            if let (Some(i), Some(n)) = (players, n) {
                params[i] = Some(Value::Int(n));
            }
            for (file, name, value) in SHORTER {
                let i = p.params.iter().position(|d| d.name == *name);
                if let (true, Some(i)) = (path.ends_with(file), i) {
                    params[i] = Some(Value::Int(*value));
                }
            }
            for g in 0..3u64 {
                let seed = game_seed(99, g);
                // Greedy looks ahead (slow in a debug build): one game is enough to
                // exercise it; random plays the rest.
                let kinds: &[&str] = if g == 0 {
                    &["random", "greedy"]
                } else {
                    &["random"]
                };
                for agent in kinds.iter().copied() {
                    let mut agents: Vec<Box<dyn Agent>> = (0..4)
                        .map(|s| by_name(agent, agent_seed(seed, s)).expect("agent"))
                        .collect();
                    let opts = PlayOptions {
                        check_invariants: true,
                        keep_moves: false,
                        ..PlayOptions::default()
                    };
                    let rec =
                        play_game(&p, &params, seed, &mut agents, &opts).unwrap_or_else(|e| {
                            panic!(
                                "{} ({n:?} players, seed {seed}, {agent}): {e:?}",
                                path.display()
                            )
                        });
                    assert!(!rec.outcomes.is_empty(), "a game plays at least one deal");
                }
            }
        }
    }
}

#[test]
fn same_seed_same_game() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/sangohana.fuda");
    let p = compile(&path);
    let run = || {
        let seed = game_seed(5, 3);
        let mut agents: Vec<Box<dyn Agent>> = (0..3)
            .map(|s| by_name("random", agent_seed(seed, s)).expect("agent"))
            .collect();
        let opts = PlayOptions {
            check_invariants: false,
            keep_moves: true,
            ..PlayOptions::default()
        };
        play_game(&p, &[], seed, &mut agents, &opts).expect("game")
    };
    let (a, b) = (run(), run());
    assert_eq!(a.moves, b.moves);
    assert_eq!(a.chips, b.chips);
    assert_eq!(a.outcomes, b.outcomes);
}

/// After every decision of a few games of each ruleset: a seat sees a card only if it is
/// in a public zone, a revealed zone, a zone of its own, or on top of a top-visible
/// stack; in particular cards set aside face down (浮島's 伏せ札) stay unseen until the
/// rules reveal them.
#[test]
fn hidden_cards_stay_hidden() {
    use fuda_core::ir::Visibility;
    for path in rulesets() {
        let p = compile(&path);
        for g in 0..2u64 {
            let seed = game_seed(123, g);
            let mut st = fuda_core::State::new(&p, &[], seed).expect("state");
            let mut agents: Vec<Box<dyn Agent>> = (0..4)
                .map(|s| by_name("random", agent_seed(seed, s)).expect("agent"))
                .collect();
            let mut steps = 0;
            while !st.advance(&p).expect("runs") && steps < 5_000 {
                steps += 1;
                let b = &st.board;
                for seat in 0..b.seats {
                    let seen = st.visible_to(&p, seat);
                    for (i, (z, owner)) in b.layout.zone_of.iter().enumerate() {
                        let allowed = b.revealed[i]
                            || match p.zones[*z as usize].visibility {
                                Visibility::Public => true,
                                Visibility::Owner => *owner == Some(seat),
                                Visibility::Hidden => false,
                                Visibility::Top => false,
                            };
                        for (k, c) in b.zones[i].iter().enumerate() {
                            let top_card = p.zones[*z as usize].visibility == Visibility::Top
                                && k + 1 == b.zones[i].len();
                            if !allowed && !top_card {
                                assert!(
                                    !seen.contains(*c),
                                    "{}: seat {seat} sees card {c} in {}",
                                    path.display(),
                                    p.zones[*z as usize].name
                                );
                            }
                        }
                    }
                }
                let pending = st.pending().expect("pending");
                let choices: Vec<usize> = pending
                    .seats
                    .iter()
                    .map(|sm| agents[sm.seat as usize].choose(&p, &st, sm.seat, &sm.moves))
                    .collect();
                st.apply(&p, &choices).expect("apply");
            }
        }
    }
}
