//! The whole games in `docs/language.md` do what the page says: the first example ("A
//! whole game") checks, passes its tests and records a winner every deal, so `fuda
//! simulate` has win rates to show; § The seven games summarizes seven games, each a rule
//! file that is bundled. The reference is read as a user reads it, so a change to the
//! language that breaks an example shows here.

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
fn the_seven_games_are_the_bundled_rulesets() {
    let doc = doc();
    let start = doc
        .find("## The seven games")
        .expect("a section on the seven games");
    let end = doc[start..].find("\n## ").map_or(doc.len(), |e| start + e);
    let section = &doc[start..end];
    let games = section.matches("\n### ").count();
    assert_eq!(games, 7, "seven games summarized");
    // Each summary names its rule file, and the file is bundled.
    let named: Vec<&str> = section
        .split("`rulesets/")
        .skip(1)
        .filter_map(|rest| rest.split('`').next())
        .collect();
    assert!(named.len() >= 7, "{named:?}");
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../rulesets/");
    for file in named {
        assert!(
            std::path::Path::new(&format!("{dir}{file}")).is_file(),
            "docs/language.md names rulesets/{file}, which is not bundled"
        );
    }
}
