//! The whole games in `docs/language.md` do what the page says: the first example ("A
//! whole game") checks, passes its tests and records a winner every deal, so `fuda
//! simulate` has win rates to show; the one sketch (§ Sketches), 熟語麻雀, checks with the
//! stdlib's deck and word list and plays whole games. The reference is read as a user reads it, so
//! a change to the language that breaks an example, or closes one of its gaps, shows here.

use fuda_core::agents::{by_name, Agent};
use fuda_core::loader::MemoryFiles;
use fuda_core::play::{agent_seed, game_seed, play_game, PlayOptions};

/// The language reference, as a reader has it.
fn doc() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/language.md");
    std::fs::read_to_string(path).expect("docs/language.md")
}

/// The first code block of § "A whole game": the toy game a reader meets first.
fn whole_game() -> String {
    let doc = doc();
    let start = doc
        .find("## A whole game")
        .expect("an \"A whole game\" section");
    let block = doc[start..]
        .split("```fuda\n")
        .nth(1)
        .expect("a fuda code block in \"A whole game\"");
    block.split("```").next().unwrap_or_default().to_string()
}

/// The complete rulesets among the reference's sketches (code blocks that start with
/// `ruleset "…"`), by the first word of their title.
fn sketches() -> Vec<(String, String)> {
    let doc = doc();
    let start = doc.find("## Sketches").expect("a Sketches section");
    let mut out = Vec::new();
    for block in doc[start..].split("```fuda\n").skip(1) {
        let code = block.split("```").next().unwrap_or_default();
        if let Some(title) = code
            .strip_prefix("ruleset \"")
            .and_then(|t| t.split('"').next())
        {
            let name = title.split_whitespace().next().unwrap_or_default();
            out.push((name.to_string(), code.to_string()));
        }
    }
    out
}

fn sketch(name: &str) -> String {
    sketches()
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, code)| code)
        .unwrap_or_else(|| panic!("no sketch of {name} in docs/language.md"))
}

fn compile(name: &str) -> Result<fuda_core::Program, Vec<String>> {
    fuda_core::compile(name, &sketch(name), &MemoryFiles::default())
        .map(|c| c.program)
        .map_err(|f| {
            f.diagnostics
                .iter()
                .map(|d| format!("{}: {}", d.code, d.message))
                .collect()
        })
}

/// The toy game compiles without warnings and passes its own tests, and every deal it
/// plays records the winner's result — which is where `fuda simulate`'s win rates and
/// yaku counts come from — and pays exactly what it records.
#[test]
fn the_whole_game_records_a_winner_every_deal() {
    let c = fuda_core::compile("whole-game", &whole_game(), &MemoryFiles::default())
        .unwrap_or_else(|f| {
            let d: Vec<String> = f
                .diagnostics
                .iter()
                .map(|d| format!("{}: {}", d.code, d.message))
                .collect();
            panic!("\"A whole game\" does not compile: {d:#?}")
        });
    assert!(c.warnings.is_empty(), "warnings: {:?}", c.warnings);
    let p = c.program;
    assert!(!p.tests.is_empty(), "the example keeps its tests");
    for t in 0..p.tests.len() {
        if let Err(e) = fuda_core::State::run_test(&p, t) {
            panic!("the example's test {t} fails: {}", e.message);
        }
    }
    for (g, pair) in [
        ["random", "random"],
        ["greedy", "random"],
        ["eager", "greedy"],
    ]
    .iter()
    .enumerate()
    {
        let seed = game_seed(11, g as u64);
        let mut agents: Vec<Box<dyn Agent>> = pair
            .iter()
            .enumerate()
            .map(|(s, a)| by_name(a, agent_seed(seed, s)).expect("agent"))
            .collect();
        let opts = PlayOptions {
            check_invariants: true,
            ..PlayOptions::default()
        };
        let rec = play_game(&p, &[], seed, &mut agents, &opts)
            .unwrap_or_else(|e| panic!("game {g} ({pair:?}): {e:?}"));
        assert!(!rec.outcomes.is_empty(), "game {g} played no deal");
        assert_eq!(
            rec.records.len(),
            rec.outcomes.len(),
            "game {g}: one recorded result per deal, or the win rates read 0%"
        );
        // The loser pays the winner the recorded total: the chips are the records' sum.
        let mut chips = vec![0i64; rec.seats as usize];
        for (s, r, _) in &rec.records {
            assert!(r.total > 0, "game {g}: a recorded win is worth something");
            for (x, c) in chips.iter_mut().enumerate() {
                *c += if x == *s as usize { r.total } else { -r.total };
            }
        }
        assert_eq!(rec.chips, chips, "game {g}: chips and recorded results");
    }
}

#[test]
fn the_unbundled_game_is_sketched() {
    let names: Vec<String> = sketches().into_iter().map(|(n, _)| n).collect();
    assert!(
        names.iter().any(|n| n == "熟語麻雀"),
        "熟語麻雀 in {names:?}"
    );
}

#[test]
fn jukugo_checks_and_plays_whole_games() {
    let p = compile("熟語麻雀").unwrap_or_else(|e| panic!("the 熟語麻雀 sketch: {e:#?}"));
    for g in 0..2 {
        let seed = game_seed(3, g);
        let mut agents: Vec<Box<dyn Agent>> = (0..4)
            .map(|s| by_name("random", agent_seed(seed, s)).expect("agent"))
            .collect();
        let opts = PlayOptions {
            check_invariants: true,
            ..PlayOptions::default()
        };
        let rec = play_game(&p, &[], seed, &mut agents, &opts)
            .unwrap_or_else(|e| panic!("熟語麻雀 game {g}: {e:?}"));
        assert!(!rec.outcomes.is_empty(), "熟語麻雀 game {g} played no deal");
    }
}
