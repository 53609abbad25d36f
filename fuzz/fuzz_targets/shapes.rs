//! Well-formed rule files with large repetitive shapes → `fuda_core::compile`, the
//! file's tests and a game of random players. Where `compile` feeds the checker bytes,
//! which rarely form a long chain of declarations, this target builds the shapes that
//! cost a careless checker or engine time, memory or stack: long chains (parameter
//! defaults, patterns testing the next, defs calling the next, `+` chains), many
//! declarations (tags, symbols, cards, zones, variables, procedures), deep but legal
//! nesting, rounds that work hard and end in an outcome, tallies in loops, recursion.
//! Each shape's size comes from the input, up to file sizes of a few megabytes.
//!
//! It checks what the other targets check (no panic, every diagnostic renders); the
//! command line's `-timeout` and `-rss_limit_mb` turn a hang or a memory blow-up into a
//! finding.
#![no_main]

use std::fmt::Write;

use fuda_core::agents::{by_name, Agent};
use fuda_core::loader::MemoryFiles;
use fuda_core::play::{agent_seed, play_game, PlayOptions};
use fuda_core::State;
use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use miette::{GraphicalReportHandler, GraphicalTheme};

/// One repetitive shape, with its size.
#[derive(Arbitrary, Debug)]
enum Shape {
    /// `param p1: int = p0 + 1`, …
    ParamChain(u16),
    /// A deck attribute with this many symbols.
    Symbols(u16),
    /// A deck with this many tags.
    Tags(u16),
    /// This many one-copy cards.
    Cards(u8),
    /// `pattern q1 { group g: 1 where q0(g) }`, …
    PatternChain(u16),
    /// `def d1(x: int) = d0(x) + 1`, …
    DefChain(u16),
    /// `def plus() = 1 + 1 + …`.
    PlusChain(u32),
    /// This many per-seat zones.
    Zones(u16),
    /// This many per-seat variables.
    Vars(u16),
    /// This many procedures, each calling the one before.
    Procs(u16),
    /// `if` nested this deep in a procedure.
    NestedIf(u8),
    /// `repeat N { … }` nested this deep, each over this many.
    NestedRepeat(u8, u32),
    /// Rounds that each count this far, then end in an outcome.
    HeavyRounds(u32),
    /// A tally of this many characters, in a loop.
    TallyLoop(u16),
    /// A procedure calling itself, with a loop over this many in each call.
    Recursion(u32),
    /// A score table whose rows each call a table, this many deep.
    ScoreChain(u16),
    /// This many tests, each counting this far.
    Tests(u16, u32),
}

/// A rule file: its shapes, in order.
#[derive(Arbitrary, Debug)]
struct Spec {
    shapes: Vec<Shape>,
    seed: u64,
}

/// The largest size of any one shape: chains of this length are several megabytes of
/// text, past what the parser takes (4 MiB), so the checker's limits are reached too.
const MOST: usize = 200_000;

fn n(v: impl Into<u64>) -> usize {
    (v.into() as usize).min(MOST)
}

/// The rule file `spec` describes. Shapes that need a place in the match body add to it.
fn render(spec: &Spec) -> String {
    let mut items = String::new();
    let mut body = String::new();
    let mut deck = String::from("deck d \"d\" {\n  attribute v: int = 0\n");
    let mut cards = 2;
    for shape in spec.shapes.iter().take(8) {
        match shape {
            Shape::ParamChain(k) => {
                items.push_str("param p0: int = 0\n");
                for i in 1..n(*k) {
                    let _ = writeln!(items, "param p{i}: int = p{} + 1", i - 1);
                }
            }
            Shape::Symbols(k) => {
                let syms: Vec<String> = (0..n(*k).max(2)).map(|i| format!("s{i}")).collect();
                let _ = writeln!(deck, "  attribute sym: {} = s0", syms.join(" | "));
            }
            Shape::Tags(k) => {
                let tags: Vec<String> = (0..n(*k).max(1)).map(|i| format!("t{i}")).collect();
                let _ = writeln!(deck, "  tags {}", tags.join(", "));
            }
            Shape::Cards(k) => cards = (*k as usize).max(2),
            Shape::PatternChain(k) => {
                items.push_str("pattern q0 { group g: 1 }\n");
                for i in 1..n(*k) {
                    let _ = writeln!(items, "pattern q{i} {{ group g: 1 where q{}(g) }}", i - 1);
                }
                let _ = writeln!(body, "  if q{}(cards(c0)) {{ n += 1 }}", n(*k).max(1) - 1);
            }
            Shape::DefChain(k) => {
                items.push_str("def d0(x: int) = x\n");
                for i in 1..n(*k) {
                    let _ = writeln!(items, "def d{i}(x: int) = d{}(x) + 1", i - 1);
                }
                let _ = writeln!(body, "  n += d{}(1)", n(*k).max(1) - 1);
            }
            Shape::PlusChain(k) => {
                items.push_str("def plus() = 1");
                for _ in 0..n(*k) {
                    items.push_str(" + 1");
                }
                items.push('\n');
                body.push_str("  n += plus()\n");
            }
            Shape::Zones(k) => {
                for i in 0..n(*k) {
                    let _ = writeln!(items, "zone z{i} per seat pile owner");
                }
            }
            Shape::Vars(k) => {
                for i in 0..n(*k) {
                    let _ = writeln!(items, "var v{i}: int per seat = 0");
                }
            }
            Shape::Procs(k) => {
                items.push_str("proc f0 { n += 1 }\n");
                for i in 1..n(*k) {
                    let _ = writeln!(items, "proc f{i} {{ f{}() }}", i - 1);
                }
                let _ = writeln!(body, "  f{}()", n(*k).max(1) - 1);
            }
            Shape::NestedIf(k) => {
                let depth = *k as usize;
                body.push_str(&"  if n >= 0 {\n".repeat(depth));
                body.push_str("  n += 1\n");
                body.push_str(&"  }\n".repeat(depth));
            }
            Shape::NestedRepeat(k, m) => {
                let depth = (*k as usize).min(64);
                let _ = write!(body, "{}", format!("  repeat {m} {{\n").repeat(depth));
                body.push_str("  n += 1\n");
                body.push_str(&"  }\n".repeat(depth));
            }
            Shape::HeavyRounds(m) => {
                let _ = writeln!(
                    body,
                    "  loop {{ n = count(i in 1..{m}: i > 0)\n  choose 0 {{ move a {{ }} move b {{ }} }}\n  outcome \"x\" }}"
                );
            }
            Shape::TallyLoop(k) => {
                let text = "a".repeat(n(*k));
                let _ = writeln!(body, "  loop {{ tally 長 \"{text}\" }}");
            }
            Shape::Recursion(m) => {
                let _ = writeln!(items, "proc r {{ repeat {m} {{ n += 1\n r() }} }}");
                body.push_str("  r()\n");
            }
            Shape::ScoreChain(k) => {
                items.push_str("score t0(h: cards) { yaku all { y 1 when count(h) > 0 } }\n");
                for i in 1..n(*k) {
                    let _ = writeln!(
                        items,
                        "score t{i}(h: cards) {{ yaku all {{ y 1 when t{}(h).total > 0 }} }}",
                        i - 1
                    );
                }
                let _ = writeln!(body, "  n += t{}(z).total", n(*k).max(1) - 1);
            }
            Shape::Tests(k, m) => {
                for i in 0..n(*k) {
                    let _ = writeln!(items, "test \"t{i}\" {{ n = count(i in 1..{m}: i > 0) }}");
                }
            }
        }
    }
    for i in 0..cards {
        let _ = writeln!(deck, "  card c{i} \"c{i}\" v={i}");
    }
    deck.push_str("}\n");
    format!(
        "ruleset \"shapes\"\n{deck}seats 2 {{ 2: a b }}\nzone z shared pile public\n\
         var n: int = 0\n{items}proc match {{\n{body}  choose 0 {{ move a {{ }} move b {{ }} }}\n  outcome \"end\"\n}}\n"
    )
}

fn render_diagnostics(diags: &[fuda_core::Diagnostic], sources: &[fuda_core::ir::Source]) {
    let handler =
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(80);
    let mut out = String::new();
    for d in diags.iter().take(100) {
        handler
            .render_report(&mut out, &d.render_with(sources))
            .expect("renders");
    }
}

fuzz_target!(|spec: Spec| {
    let text = render(&spec);
    let p = match fuda_core::compile("shapes.fuda", &text, &MemoryFiles::default()) {
        Ok(c) => {
            render_diagnostics(&c.warnings, &c.program.sources);
            c.program
        }
        Err(f) => {
            assert!(!f.diagnostics.is_empty(), "failed without a diagnostic");
            render_diagnostics(&f.diagnostics, &f.sources);
            return;
        }
    };
    // The tests of a file share one budget, as `fuda test` runs them.
    let mut budget = fuda_core::engine::GAME_BUDGET;
    for t in 0..p.tests.len() {
        let _ = State::run_test_within(&p, t, &mut budget);
    }
    let mut agents: Vec<Box<dyn Agent>> = (0..2)
        .map(|s| by_name("random", agent_seed(spec.seed, s)).expect("an agent"))
        .collect();
    let _ = play_game(&p, &[], spec.seed, &mut agents, &PlayOptions::default());
});
