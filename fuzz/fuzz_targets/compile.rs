//! Arbitrary UTF-8 → `fuda_core::compile` (with the embedded stdlib and two in-memory
//! files to import). Every diagnostic must render; a program that compiles has its
//! in-file tests run and a short game played with first choices, and a short game of
//! random players played both by the engine and by `play_game` (the register machine
//! where the program lowers to it), which must give the same record — all without a
//! panic.
#![no_main]

use fuda_core::agents::{by_name, Agent};
use fuda_core::loader::MemoryFiles;
use fuda_core::play::{agent_seed, play_game, PlayOptions};
use fuda_core::State;
use libfuzzer_sys::fuzz_target;
use miette::{GraphicalReportHandler, GraphicalTheme};

/// Decisions played per compiled program.
const DECISIONS: u64 = 64;

fn files() -> MemoryFiles {
    MemoryFiles(vec![
        (
            "lib.fuda".into(),
            "import \"std/hanafuda\"\nzone 山札 shared stack hidden\n".into(),
        ),
        ("cycle.fuda".into(), "import \"cycle\"\n".into()),
    ])
}

fn render(diags: &[fuda_core::Diagnostic], sources: &[fuda_core::ir::Source]) {
    let handler =
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(80);
    let mut out = String::new();
    for d in diags {
        handler
            .render_report(&mut out, &d.render_with(sources))
            .expect("renders");
    }
}

/// One game of random players, at most [`DECISIONS`] decisions, by the engine alone
/// or by whichever `play_game` picks: its record or its error, as text.
fn random_game(p: &fuda_core::Program, seats: u8, engine_only: bool) -> String {
    let mut agents: Vec<Box<dyn Agent>> = (0..seats as usize)
        .map(|s| by_name("random", agent_seed(7, s)).expect("an agent"))
        .collect();
    let opts = PlayOptions {
        decision_limit: Some(DECISIONS),
        engine_only,
        ..PlayOptions::default()
    };
    match play_game(p, &[], 7, &mut agents, &opts) {
        Ok(r) => format!("{r:?}"),
        Err(e) => format!("{e:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let p = match fuda_core::compile("fuzz.fuda", text, &files()) {
        Ok(c) => {
            render(&c.warnings, &c.program.sources);
            c.program
        }
        Err(f) => {
            assert!(!f.diagnostics.is_empty(), "failed without a diagnostic");
            render(&f.diagnostics, &f.sources);
            return;
        }
    };
    for t in 0..p.tests.len() {
        let _ = State::run_test(&p, t);
    }
    let Ok(mut st) = State::new(&p, &[], 1) else {
        return;
    };
    let seats = st.board.seats.max(1);
    assert_eq!(
        random_game(&p, seats, true),
        random_game(&p, seats, false),
        "the machine and the engine played different games"
    );
    st.decision_limit = DECISIONS;
    while let Ok(false) = st.advance(&p) {
        let n = st.pending().map(|pd| pd.seats.len()).unwrap_or(0);
        if st.apply(&p, &vec![0; n]).is_err() {
            break;
        }
        st.check_cards().expect("every card in one zone");
    }
});
