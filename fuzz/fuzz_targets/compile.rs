//! Arbitrary UTF-8 → `fuda_core::compile` (with the embedded stdlib and two in-memory
//! files to import). Every diagnostic must render; a program that compiles has its
//! in-file tests run and a short game played with first choices — all without a panic.
#![no_main]

use fuda_core::loader::MemoryFiles;
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
    st.decision_limit = DECISIONS;
    while let Ok(false) = st.advance(&p) {
        let n = st.pending().map(|pd| pd.seats.len()).unwrap_or(0);
        if st.apply(&p, &vec![0; n]).is_err() {
            break;
        }
        st.check_cards().expect("every card in one zone");
    }
});
