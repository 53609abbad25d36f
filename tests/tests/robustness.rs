//! Untrusted rulesets: whatever a `.fuda` file says, checking it and playing it end in a
//! result (a program, diagnostics, a finished game or a run-time error) without a panic,
//! a hang, or a read outside the ruleset's folder.
//!
//! Hostile hand-written rulesets come first, then minimal reproductions of inputs that
//! would make a careless engine panic, hang or blow up memory (the `bug_` tests), then
//! property tests that mutate `rulesets/sangohana.fuda` token by token, compile the
//! result and play what compiles. `PROPTEST_CASES=N` (and `PROPTEST_RNG_SEED=S`) run a longer or other soak.

use fuda_core::loader::MemoryFiles;
use fuda_core::model::GameRng;
use fuda_core::value::Value;
use fuda_core::{Program, RuntimeError, State};
use miette::{GraphicalReportHandler, GraphicalTheme};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

// ───────────────────────── harness ─────────────────────────
//
// Every bound here is one of the engine's own deterministic budgets (ops, steps,
// decisions, sizes), asserted through the error it gives or the work it reports: no test
// reads a clock, so a slow or busy machine cannot fail one. An input that is slow in a
// debug build is made smaller, not given more time.

/// Runs `f` on its own thread with a main thread's 8 MiB stack, as the CLI has (test
/// threads get 2 MiB, and deep but legal nesting must not count as a crash), and returns
/// its result; a panic is re-raised here with the case's name and message.
fn on_big_stack<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let handle = std::thread::Builder::new()
        .name(what.chars().take(60).collect())
        .stack_size(8 << 20)
        .spawn(f)
        .expect("spawn");
    handle.join().unwrap_or_else(|e| {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        panic!("{what}: panicked: {msg}")
    })
}

/// Compiles a ruleset held in memory (imports of `std/…` work: the stdlib is embedded).
fn compile_with(text: &str, files: MemoryFiles) -> Result<Program, String> {
    match fuda_core::compile("hostile.fuda", text, &files) {
        Ok(c) => {
            render(&c.warnings, &c.program.sources);
            Ok(c.program)
        }
        Err(f) => {
            assert!(
                !f.diagnostics.is_empty(),
                "a failed compile says nothing about why"
            );
            Err(render(&f.diagnostics, &f.sources))
        }
    }
}

fn compile_text(text: &str) -> Result<Program, String> {
    compile_with(text, MemoryFiles::default())
}

/// Renders diagnostics the way the CLI does (which must not panic either). Plain text:
/// the code, the message and the labelled source.
fn render(diags: &[fuda_core::Diagnostic], sources: &[fuda_core::ir::Source]) -> String {
    let handler =
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(100);
    let mut out = String::new();
    for d in diags {
        let r = d.render_with(sources);
        handler.render_report(&mut out, &r).expect("render");
    }
    out
}

/// How a bounded game ended.
#[derive(Debug)]
enum Ended {
    /// The match ran to its end.
    Finished,
    /// The rules failed at run time (or a limit stopped them).
    Error(RuntimeError),
    /// The ledger stopped balancing: the rules' fault (they pay from outside it).
    Ledger,
}

/// The engine's deterministic limits a test game runs under.
#[derive(Clone, Copy, Debug)]
struct Budget {
    /// Most decisions in the whole game.
    decisions: u64,
    /// Work the first round may do (the engine's round budget; later rounds get the
    /// engine's own).
    round_steps: u64,
}

impl Budget {
    /// At most `decisions` decisions, with the engine's usual round budget.
    const fn decisions(decisions: u64) -> Budget {
        Budget {
            decisions,
            round_steps: fuda_core::engine::ROUND_BUDGET,
        }
    }
}

/// Plays one game with uniformly random choices within `budget`,
/// checking after each that every card is in exactly one zone (the engine's duty; a
/// failure panics) and whether the ledger still balances (the rules' duty).
fn play_random(p: &Program, params: &[Option<Value>], seed: u64, budget: Budget) -> Ended {
    let mut st = match State::new(p, params, seed) {
        Ok(s) => s,
        Err(e) => return Ended::Error(e),
    };
    st.decision_limit = budget.decisions;
    st.steps_left = budget.round_steps;
    let ledger0 = st.ledger_sum();
    let mut rng = GameRng::new(seed ^ 0x5eed);
    loop {
        match st.advance(p) {
            Ok(true) => break,
            Ok(false) => {}
            Err(e) => return Ended::Error(e),
        }
        let pending = st.pending().expect("advance stopped at a decision");
        assert!(!pending.seats.is_empty(), "a decision asks nobody");
        let choices: Vec<usize> = pending
            .seats
            .iter()
            .map(|s| {
                assert!(
                    !s.moves.is_empty(),
                    "seat {} is asked with no moves",
                    s.seat
                );
                rng.below(s.moves.len() as u32) as usize
            })
            .collect();
        if let Err(e) = st.apply(p, &choices) {
            return Ended::Error(e);
        }
        if let Err(m) = st.check_cards() {
            panic!("after decision {}: {m}", st.decisions);
        }
        if st.ledger_sum() != ledger0 {
            return Ended::Ledger;
        }
    }
    st.check_cards().expect("every card in one zone at the end");
    Ended::Finished
}

/// Plays one game with the greedy agent at every seat (it looks one move ahead and
/// measures hands against the patterns), at most `max_decisions` decisions.
fn play_greedy(p: &Program, params: &[Option<Value>], seed: u64, max_decisions: u64) {
    use fuda_core::agents::{Agent, Greedy};
    let Ok(mut st) = State::new(p, params, seed) else {
        return;
    };
    st.decision_limit = max_decisions;
    let mut agent = Greedy::new(seed);
    while let Ok(false) = st.advance(p) {
        let pending = st.pending().expect("a decision").clone();
        let choices: Vec<usize> = pending
            .seats
            .iter()
            .map(|s| agent.choose(p, &st, s.seat, &s.moves))
            .collect();
        for (c, s) in choices.iter().zip(&pending.seats) {
            assert!(
                *c < s.moves.len(),
                "greedy chose move {c} of {}",
                s.moves.len()
            );
        }
        if st.apply(p, &choices).is_err() {
            break;
        }
        st.check_cards().expect("every card in one zone");
    }
}

/// Runs every in-file test of `p`; returns the failures' messages.
fn run_tests(p: &Program) -> Vec<String> {
    (0..p.tests.len())
        .filter_map(|i| State::run_test(p, i).err().map(|e| e.message.clone()))
        .collect()
}

/// Compiles `text`, runs its in-file tests and plays a game of it (at most 20,000
/// decisions), on a big stack. Returns the rendered compile errors, or the test
/// failures and how the game ended.
fn check_and_play(what: &str, text: &str) -> Result<(Vec<String>, Ended), String> {
    check_and_play_within(what, text, Budget::decisions(20_000))
}

/// [`check_and_play`] with the game played within `budget`.
fn check_and_play_within(
    what: &str,
    text: &str,
    budget: Budget,
) -> Result<(Vec<String>, Ended), String> {
    let text = text.to_string();
    on_big_stack(what, move || {
        let p = compile_text(&text)?;
        let failures = run_tests(&p);
        let ended = play_random(&p, &[], 7, budget);
        Ok((failures, ended))
    })
}

/// The ending of a game of a ruleset that must compile.
fn game_of(what: &str, text: &str) -> Ended {
    match check_and_play(what, text) {
        Ok((_, ended)) => ended,
        Err(diags) => panic!("{what}: does not compile:\n{diags}"),
    }
}

/// The run-time error a game must end in; its message must contain `needle`.
fn expect_runtime_error(what: &str, text: &str, needle: &str) {
    match game_of(what, text) {
        Ended::Error(e) => assert!(
            e.message.contains(needle),
            "{what}: expected an error about `{needle}`, got `{}`",
            e.message
        ),
        other => panic!("{what}: expected a run-time error, got {other:?}"),
    }
}

/// Work a round may do in the tests of searches and loops that the engine's budgets
/// must stop: far less than the engine's own round budget, which a debug build takes
/// many seconds to spend, so that the test is quick while still showing the work is
/// counted.
const SMALL_ROUND: Budget = Budget {
    decisions: 20_000,
    round_steps: 2_000_000,
};

/// A game of `text` must stop for want of work: at the round's budget (charged for
/// every step of every search and loop, here cut to [`SMALL_ROUND`]), or at an
/// evaluation's own budget when it can tell beforehand that it would pass it.
fn expect_out_of_work(what: &str, text: &str) {
    match check_and_play_within(what, text, SMALL_ROUND) {
        Ok((_, Ended::Error(e))) => assert!(
            e.message.contains("steps of work than a round")
                || e.message.contains("too many steps to evaluate"),
            "{what}: expected a budget of work to stop it, got `{}`",
            e.message
        ),
        other => panic!("{what}: expected a budget of work to stop it, got {other:?}"),
    }
}

/// The compile errors of a ruleset that must not compile; they must contain `needle`.
fn expect_compile_error(what: &str, text: &str, files: MemoryFiles, needle: &str) {
    let text = text.to_string();
    let out = on_big_stack(what, move || compile_with(&text, files));
    match out {
        Ok(_) => panic!("{what}: compiled, but should not"),
        Err(diags) => assert!(
            diags.contains(needle),
            "{what}: expected `{needle}` in\n{diags}"
        ),
    }
}

/// A small two-seat hanafuda ruleset around a `proc match` body and extra items.
fn game(extra: &str, body: &str) -> String {
    format!(
        "ruleset \"hostile\"\n\
         import \"std/hanafuda\"\n\
         seats 2 {{ 2: 親 子 }}\n\
         zone 山札 shared stack hidden\n\
         zone 場 shared pile public\n\
         zone 手札 per seat pile owner\n\
         var chips: int per seat = 0\n\
         ledger chips\n\
         {extra}\n\
         proc match {{\n{body}\n}}\n"
    )
}

/// A deck of `n` one-copy cards with an int attribute `v`, dealt and played briefly.
fn deck_of(n: usize) -> String {
    let cards: String = (0..n)
        .map(|i| format!("  card c{i} \"c{i}\" v={i}\n"))
        .collect();
    format!(
        "ruleset \"big\"\n\
         deck big {{\n  attribute v: int\n{cards}}}\n\
         seats 2 {{ 2: a b }}\n\
         zone z shared pile public\n\
         zone h per seat pile owner\n\
         proc match {{\n  shuffle z\n  deal 3 from z to h\n  choose 0 {{ move p(c in h[0]) {{ move c to z }} }}\n}}\n"
    )
}

/// 32 hanafuda cards (months 1 to 8), as a `cards(…)` literal.
const HAND32: &str = "cards(1-crane 1-ribbon 1-kasu-a 1-kasu-b 2-warbler 2-ribbon 2-kasu-a \
    2-kasu-b 3-curtain 3-ribbon 3-kasu-a 3-kasu-b 4-cuckoo 4-ribbon 4-kasu-a 4-kasu-b 5-bridge \
    5-ribbon 5-kasu-a 5-kasu-b 6-butterflies 6-ribbon 6-kasu-a 6-kasu-b 7-boar 7-ribbon 7-kasu-a \
    7-kasu-b 8-moon 8-geese 8-kasu-a 8-kasu-b)";

// ───────────────────────── hostile rulesets: limits hold ─────────────────────────

#[test]
fn an_endless_loop_without_decisions_stops_at_the_op_limit() {
    expect_runtime_error("loop {}", &game("", "loop { }"), "without a decision");
    expect_runtime_error(
        "while true with work",
        &game("var n: int = 0", "while true { n += 1 }"),
        "without a decision",
    );
}

#[test]
fn a_game_that_never_ends_stops_at_the_round_decision_limit() {
    expect_runtime_error(
        "while true { choose }",
        &game("", "while true { choose dealer { move a { } move b { } } }"),
        "decisions without an outcome",
    );
    // Single-move decisions are taken at once, and still counted.
    expect_runtime_error(
        "loop { choose one move }",
        &game(
            "",
            "loop { choose dealer { move a { } move b when false { } } }",
        ),
        "decisions without an outcome",
    );
}

#[test]
fn runaway_recursion_stops() {
    expect_runtime_error(
        "proc r { r() }",
        &game("proc r { r() }", "r()"),
        "nest deeper",
    );
    expect_runtime_error(
        "mutual recursion with arguments",
        &game(
            "proc a(n: int) { b(n + 1) }\nproc b(n: int) { a(n * 1 + 1) }",
            "a(1)",
        ),
        "nest deeper",
    );
}

#[test]
fn a_def_that_calls_itself_is_a_diagnostic() {
    expect_compile_error(
        "def f = f",
        &game("def f(x: int) = f(x) + 1", "let y = f(1)"),
        MemoryFiles::default(),
        "calls itself",
    );
    expect_compile_error(
        "mutual defs",
        &game("def f(x: int) = g(x)\ndef g(x: int) = f(x)", "let y = f(1)"),
        MemoryFiles::default(),
        "calls itself",
    );
}

#[test]
fn huge_repeat_counts_are_refused() {
    expect_runtime_error(
        "repeat 1000000000",
        &game("", "repeat 1000000000 { }"),
        "too long",
    );
    expect_runtime_error(
        "repeat i64::MAX",
        &game("", "repeat 9223372036854775807 { }"),
        "too long",
    );
    // Nothing to repeat is fine.
    assert!(matches!(
        game_of("repeat -5", &game("", "repeat -5 { chips[0] += 1 }")),
        Ended::Finished
    ));
}

#[test]
fn dealing_more_cards_than_there_are() {
    // Known at compile time: a diagnostic.
    expect_compile_error(
        "deal 100 each",
        &game("", "deal 100 from 山札 to 手札"),
        MemoryFiles::default(),
        "fuda::deck-too-small",
    );
    // Known only at run time: an error when the zone runs dry, with the numbers (what
    // the deal needs, what the zone holds), as the checker gives them.
    expect_runtime_error(
        "deal in a loop",
        &game("", "repeat 30 { deal 1 from 山札 to 手札 }"),
        "the deal needs 2 cards (1 to `手札` of each of 2 seats), but `山札` holds 0",
    );
    expect_runtime_error(
        "deal from an empty zone",
        &game("", "deal 1 from 場 to 手札"),
        "the deal needs 2 cards (1 to `手札` of each of 2 seats), but `場` holds 0",
    );
    expect_runtime_error(
        "deal a computed count",
        &game("", "deal 2, count(山札) from 山札 to 手札[0]"),
        "the deal needs 50 cards (2 + 48 to `手札[0]`), but `山札` holds 48",
    );
    // A negative count is refused: at check when it is known, in play when computed
    // (dealing none would hide the mistake).
    expect_compile_error(
        "deal -5",
        &game("", "deal -5 from 山札 to 手札"),
        MemoryFiles::default(),
        "fuda::out-of-range",
    );
    expect_runtime_error(
        "deal a computed negative count",
        &game("", "deal count(場) - 5 from 山札 to 手札"),
        "cannot be negative",
    );
}

#[test]
fn top_of_an_empty_zone_is_an_error() {
    expect_runtime_error(
        "top(empty)",
        &game("", "move 山札 to 場\nlet c = top(山札)"),
        "empty zone",
    );
    expect_runtime_error(
        "draw from empty",
        &game("", "move top(場) to 手札[0]"),
        "empty zone",
    );
}

#[test]
fn division_by_zero_is_an_error() {
    for (what, e) in [
        ("/", "1 / z"),
        ("%", "1 % z"),
        ("ceil_div", "ceil_div(1, z)"),
    ] {
        expect_runtime_error(
            what,
            &game("var z: int = 0", &format!("let x = {e}")),
            "division by zero",
        );
    }
}

#[test]
fn integer_overflow_is_an_error() {
    let m = "var m: int = -9223372036854775807 - 1";
    for e in [
        "m / -1",
        "m % -1",
        "abs(m)",
        "-m",
        "m - 1",
        "m * m",
        "9223372036854775807 + 1",
        "sum(c in 山札: 9223372036854775807)",
    ] {
        match game_of(e, &game(m, &format!("let x = {e}"))) {
            Ended::Error(err) if err.message.contains("overflow") => {}
            other => panic!("{e}: {other:?}"),
        }
    }
}

#[test]
fn seats_out_of_range_are_errors() {
    for (what, body) in [
        ("chips[99]", "chips[99] = 1"),
        ("chips[-1]", "chips[-1] += 1"),
        ("手札[99]", "move 山札 to 手札[99]"),
        ("next(99)", "let s = next(99)"),
        ("dealer = 99", "dealer = 99"),
        ("choose 99", "choose 99 { move a { } move b { } }"),
        ("claim 99", "claim x in [99] { move a { } }"),
        ("pay to 99", "pay 1 from chips[0] to chips[99]"),
        ("pay from each 99", "pay 1 from each [0, 99] to chips[1]"),
        ("deal from 99", "deal 1 from 山札 to 手札 from 99"),
        (
            "computed seat",
            "let r = 1\noutcome \"x\"\nchips[r * 99] = 0",
        ),
    ] {
        expect_runtime_error(what, &game("", body), "does not exist");
    }
}

#[test]
fn seat_counts_out_of_range_are_diagnostics() {
    for n in ["0", "17", "300", "-1"] {
        let text = game("", "").replace("seats 2 {", &format!("seats {n} {{"));
        let out = on_big_stack(n, move || compile_text(&text));
        assert!(out.is_err(), "seats {n} compiled");
    }
}

/// A quantifier over a huge range stops for want of work: its evaluation's own budget,
/// or the round's, which in a game is the smaller.
#[test]
fn a_quantifier_over_a_huge_range_runs_out_of_steps() {
    expect_out_of_work(
        "count 1..100000000",
        &game("", "let n = count(i in 1..100000000: i > 0)"),
    );
    // Steps are counted across nested quantifiers: the inner one's range is charged to
    // the same budget.
    expect_out_of_work(
        "nested quantifiers",
        &game(
            "",
            "let n = count(i in 1..19000000: any(j in 1..2000000: j == i))",
        ),
    );
}

#[test]
fn a_move_over_a_huge_range_is_refused() {
    expect_runtime_error(
        "move pick(n in 1..1000000000)",
        &game("", "choose dealer { move pick(n in 1..1000000000) { } }"),
        "too large",
    );
}

#[test]
fn a_pattern_over_the_wrong_number_of_cards_matches_nothing_quickly() {
    // 48 cards offered to a table whose pattern takes 32: nothing, at once.
    let items = "pattern p32 { group a *8: 4 same month }\n\
                 score s(h: cards) over p32(h) best { yaku all { x 1 when true } }";
    match game_of(
        "score on 48 cards",
        &game(items, "chips[0] += s(山札).total"),
    ) {
        Ended::Finished => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_score_table_on_40_cards() {
    // A table without a pattern, scoring 40 cards with quantifiers and patterns inside.
    let items = "pattern 月 { group a: 4 same month }\n\
                 score s(h: cards) {\n\
                   yaku all {\n\
                     多 1 when count(h) == 40\n\
                     月札 2 when count(c in h: 月(filter(d in h: d.month == c.month))) > 0\n\
                   }\n\
                   times all { 2 when sum(c in h: c.points) > 100 }\n\
                 }";
    let body = "deal 4 from 山札 to 手札\nchips[0] += s(山札).total\nchips[0] -= s(山札).total";
    match game_of("score on 40 cards", &game(items, body)) {
        Ended::Finished => {}
        other => panic!("{other:?}"),
    }
}

/// 32 single-card groups with a requirement that never holds: the search would try
/// every way to lay 32 cards into 32 groups, and is stopped by the budget of work it is
/// charged against.
#[test]
fn a_pattern_with_many_groups_is_bounded() {
    let groups: String = (0..32).map(|i| format!("group g{i}: 1 ")).collect();
    let items = format!("pattern 細 {{ {groups} require g0.month > 99 }}");
    let body = format!("if 細({HAND32}) {{ chips[0] += 0 }}");
    expect_out_of_work("32 groups", &game(&items, &body));
}

#[test]
fn a_pattern_with_too_many_cards_is_a_diagnostic() {
    for (what, items) in [
        ("33 cards", "pattern p { group a: 17 group b: 16 }"),
        ("a group of 0", "pattern p { group a: 0 }"),
        ("a group of 33", "pattern p { group a: 33 }"),
        ("17 copies", "pattern p { group a *17: 1 }"),
        ("huge group", "pattern p { group a: 9223372036854775807 }"),
        (
            "huge copies",
            "pattern p { group a *9223372036854775807: 1 }",
        ),
    ] {
        expect_compile_error(
            what,
            &game(items, ""),
            MemoryFiles::default(),
            "fuda::bad-group",
        );
    }
}

/// The most procedures a ruleset may have, each one a warning (never called): checking
/// and drawing every diagnostic stays linear in the file (a drawing that read the file
/// from the top for each diagnostic would take minutes for 10,000 in a debug build).
#[test]
fn ten_thousand_warnings_are_checked_and_drawn_in_bounded_time() {
    let procs: String = (1..10_000).map(|i| format!("proc p{i} {{ }}\n")).collect();
    let text = game(&procs, "");
    let warnings = on_big_stack("10,000 procs", move || {
        fuda_core::compile("many.fuda", &text, &MemoryFiles::default())
            .map(|c| {
                let drawn = render(&c.warnings, &c.program.sources);
                (c.warnings.len(), drawn.matches("is never called").count())
            })
            .map_err(|f| format!("{:?}", f.diagnostics.first()))
    });
    assert_eq!(warnings, Ok((9_999, 9_999)));
    // One more is refused, pointing at the one past the limit.
    let procs: String = (0..10_001).map(|i| format!("proc p{i} {{ }}\n")).collect();
    let text = game(&procs, "");
    let err =
        on_big_stack("10,001 procs", move || compile_text(&text)).expect_err("over the limit");
    assert!(err.contains("fuda::too-large"), "{err}");
    assert!(err.contains("proc p10000 { }"), "{err}");
    assert!(err.contains("procedure 10001 is one too many"), "{err}");
}

#[test]
fn decks_of_256_cards_play_and_300_are_refused() {
    match game_of("256 cards", &deck_of(256)) {
        Ended::Finished => {}
        other => panic!("{other:?}"),
    }
    expect_compile_error(
        "257 cards",
        &deck_of(257),
        MemoryFiles::default(),
        "fuda::deck-too-large",
    );
    expect_compile_error(
        "300 cards",
        &deck_of(300),
        MemoryFiles::default(),
        "fuda::deck-too-large",
    );
    // Copies count: 16 faces of 16 copies fill the deck, one more face does not fit.
    let faces = |n: usize| -> String {
        let cards: String = (0..n)
            .map(|i| format!("card f{i} \"f{i}\" x16\n"))
            .collect();
        format!(
            "ruleset \"c\"\ndeck d {{\n{cards}}}\nseats 2 {{ 2: a b }}\nzone z shared pile public\nproc match {{ }}\n"
        )
    };
    assert!(on_big_stack("16x16", move || compile_text(&faces(16))).is_ok());
    expect_compile_error(
        "17x16",
        &faces(17),
        MemoryFiles::default(),
        "fuda::deck-too-large",
    );
    expect_compile_error(
        "x17",
        &faces(1).replace("x16", "x17"),
        MemoryFiles::default(),
        "fuda::bad-copies",
    );
}

#[test]
fn unknown_cards_are_diagnostics() {
    for e in [
        "cards(\"999z\")",
        "cards(\"999\")",
        "cards(\"z\")",
        "card(13-crane)",
        "cards(1-crane 1-crane)",
        "cards(\"1-crane 1-crane\")",
    ] {
        let text = game("", &format!("let c = {e}"));
        let out = on_big_stack(e, move || compile_text(&text));
        assert!(out.is_err(), "{e} compiled");
    }
}

#[test]
fn imports_stay_inside_the_folder() {
    let files = || {
        MemoryFiles(vec![
            ("a.fuda".into(), "import \"b\"\n".into()),
            ("b.fuda".into(), "import \"a\"\n".into()),
            ("self.fuda".into(), "extends \"self\"\n".into()),
            ("bad.fuda".into(), "proc {".into()),
        ])
    };
    for (path, needle) in [
        ("../x", "`..` is not allowed"),
        ("a/../../x", "`..` is not allowed"),
        ("a\\..\\..\\x", "`..` is not allowed"),
        ("/etc/passwd", "absolute paths"),
        ("\\\\server\\share", "absolute paths"),
        ("C:/x", "absolute paths"),
        ("", "empty"),
        (".", "names no file"),
        ("./", "names no file"),
        ("nope", "fuda::import-not-found"),
        ("std/nope", "the stdlib has no"),
        ("std/../../etc/passwd", "the stdlib has no"),
        ("bad", "fuda::syntax"),
    ] {
        let text = format!(
            "import \"{}\"\n{}",
            path.replace('\\', "\\\\"),
            game("", "")
        );
        expect_compile_error(path, &text, files(), needle);
    }
    // Cycles, through imports or `extends`, are reported.
    let text = format!("import \"a\"\n{}", game("", ""));
    expect_compile_error("import cycle", &text, files(), "fuda::import-cycle");
    let text = format!("extends \"self\"\n{}", game("", ""));
    expect_compile_error("extends cycle", &text, files(), "fuda::import-cycle");
}

#[test]
fn an_import_bomb_is_stopped() {
    // Each file imports two fresh ones: far more than the limit, were it followed.
    let mut files = Vec::new();
    for i in 0..200 {
        files.push((
            format!("f{i}.fuda"),
            format!("import \"f{}\"\nimport \"f{}\"\n", 2 * i + 1, 2 * i + 2),
        ));
    }
    let text = format!("import \"f0\"\n{}", game("", ""));
    expect_compile_error(
        "import bomb",
        &text,
        MemoryFiles(files),
        "fuda::too-many-files",
    );
}

#[test]
fn missing_pieces_are_diagnostics_or_errors() {
    for (what, text) in [
        ("empty", String::new()),
        ("comment", "# nothing\n".to_string()),
        (
            "no deck",
            "ruleset \"x\"\nseats 2 { 2: a b }\nproc match { }\n".into(),
        ),
        (
            "no seats",
            "ruleset \"x\"\nimport \"std/hanafuda\"\nzone z shared pile public\nproc match { }\n"
                .into(),
        ),
        ("nul", format!("{}\0", game("", ""))),
        ("bom inside", format!("{}\u{feff}", game("", ""))),
    ] {
        let out = on_big_stack(what, move || compile_text(&text));
        assert!(out.is_err(), "{what} compiled");
    }
    // A byte-order mark at the very start is what some editors write: it is skipped.
    let text = format!("\u{feff}{}", game("", ""));
    assert!(on_big_stack("bom", move || compile_text(&text)).is_ok());
    // No `proc match`: there is nothing to play, which State::new says.
    let text = game("", "").replace("proc match", "proc other");
    let p = on_big_stack("no match", move || compile_text(&text));
    if let Ok(p) = p {
        assert!(State::new(&p, &[], 0).is_err());
    }
    // No zones at all: the deck has nowhere to be, but nothing breaks.
    let text = "ruleset \"x\"\nimport \"std/hanafuda\"\nseats 2 { 2: a b }\nproc match { }\n";
    if let Ok(p) = compile_text(text) {
        assert!(matches!(
            play_random(&p, &[], 0, Budget::decisions(10)),
            Ended::Finished
        ));
    }
}

#[test]
fn parameters_out_of_their_range() {
    // `State::new` takes any values; a seat count outside 1..16 is a run-time error.
    let text = "ruleset \"x\"\nimport \"std/hanafuda\"\nparam players: int = 2 in 1..4\n\
                seats players { 1: a\n 2: a b\n 3: a b c\n 4: a b c d }\n\
                zone z shared pile public\nzone h per seat pile owner\n\
                proc match { deal 1 from z to h }\n";
    let p = compile_text(text).expect("compiles");
    for n in [0, -1, 17, 1000, i64::MAX, i64::MIN] {
        assert!(
            State::new(&p, &[Some(Value::Int(n))], 0).is_err(),
            "{n} seats"
        );
    }
    // A value of the wrong type where an int is expected.
    let _ = State::new(&p, &[Some(Value::Bool(true))], 0);
    let _ = State::new(&p, &[Some(Value::Str("x".into()))], 0);
}

#[test]
fn choices_that_do_not_fit_are_refused() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../rulesets/sangohana.fuda"
    ))
    .expect("ruleset");
    let p = compile_text(&text).expect("compiles");
    let mut st = State::new(&p, &[], 3).expect("new");
    assert!(
        st.apply(&p, &[0]).is_err(),
        "apply before advance must be refused"
    );
    assert!(!st.advance(&p).expect("advance"));
    let n = st.pending().expect("pending").seats.len();
    let moves = st.pending().expect("pending").seats[0].moves.len();
    for bad in [vec![], vec![moves], vec![usize::MAX], vec![0; n + 1]] {
        let before = st.decisions;
        assert!(st.apply(&p, &bad).is_err(), "{bad:?} taken");
        assert!(st.pending().is_some(), "{bad:?} dropped the decision");
        assert_eq!(st.decisions, before);
    }
    st.apply(&p, &vec![0; n]).expect("a fitting choice");
    st.check_cards().expect("cards");
}

// ───────────────────────── minimal reproductions ─────────────────────────
//
// Each is the smallest input of its kind that would make a careless engine panic, hang
// or blow up memory: regression tests.

#[test]
fn bug_a_deal_count_that_reads_game_state() {
    for e in ["n", "chips[0]", "count(場)", "top(山札).month"] {
        let text = game("var n: int = 1", &format!("deal {e} from 山札 to 手札"));
        let out = on_big_stack(e, move || compile_text(&text).map(|_| ()));
        let _ = out; // compiling (then a run-time check) or a diagnostic are both fine
    }
}

#[test]
fn bug_huge_deal_counts_overflow_in_the_checker() {
    expect_compile_error(
        "deal i64::MAX to each seat",
        &game("", "deal 9223372036854775807 from 山札 to 手札"),
        MemoryFiles::default(),
        "fuda::deck-too-small",
    );
    expect_compile_error(
        "deal i64::MAX twice",
        &game(
            "",
            "deal 9223372036854775807, 9223372036854775807 from 山札 to 場",
        ),
        MemoryFiles::default(),
        "fuda::deck-too-small",
    );
}

#[test]
fn bug_a_quantifier_over_a_range_wider_than_i64() {
    expect_out_of_work(
        "count(i in -2..i64::MAX)",
        &game("", "let n = count(i in -2..9223372036854775807: i > 0)"),
    );
}

#[test]
fn bug_a_move_over_a_range_wider_than_i64() {
    expect_runtime_error(
        "move pick(n in -2..i64::MAX)",
        &game(
            "",
            "choose dealer { move pick(n in -2..9223372036854775807) { } }",
        ),
        "too large",
    );
}

#[test]
fn bug_repeat_of_i64_min() {
    match game_of(
        "repeat i64::MIN",
        &game("", "repeat -9223372036854775807 - 1 { }"),
    ) {
        Ended::Finished | Ended::Error(_) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn bug_ceil_div_of_i64_min_by_minus_one() {
    match game_of(
        "ceil_div(MIN, -1)",
        &game(
            "var m: int = -9223372036854775807 - 1",
            "let x = ceil_div(m, -1)",
        ),
    ) {
        Ended::Finished | Ended::Error(_) => {}
        other => panic!("{other:?}"),
    }
}

/// `def f1(x) = f0(x) + f0(x)`, …, up to `f{n}`: each level doubles the inlined copies.
fn doubling_defs(n: usize, param: &str, arg: &str) -> String {
    let mut defs = format!("def f0({param}) = 1\n");
    for i in 1..=n {
        defs.push_str(&format!(
            "def f{i}({param}) = f{}({arg}) + f{}({arg})\n",
            i - 1,
            i - 1
        ));
    }
    game(&defs, &format!("chips[0] += f{n}({arg})"))
}

#[test]
fn bug_local_slots_overflow() {
    let text = doubling_defs(17, "x: int", "1");
    let out = on_big_stack("2^17 def parameters", move || {
        compile_text(&text).map(|_| ())
    });
    assert!(out.is_err(), "a program this size should be refused");
}

#[test]
fn bug_exponential_def_inlining() {
    let text = doubling_defs(30, "", "");
    let out = on_big_stack("2^30 inlined defs", move || compile_text(&text).map(|_| ()));
    assert!(out.is_err(), "a program this size should be refused");
}

#[test]
fn bug_deeply_nested_defs_overflow_the_stack() {
    let mut defs = String::from("def d0(x: int) = x\n");
    for i in 1..=31 {
        defs.push_str(&format!(
            "def d{i}(x: int) = d{}(x){}\n",
            i - 1,
            " + 1".repeat(240)
        ));
    }
    let text = game(&defs, "chips[0] += d31(1)");
    let _ = on_big_stack("deep defs", move || compile_text(&text).map(|_| ()));
}

#[test]
fn bug_a_score_table_that_calls_itself() {
    expect_compile_error(
        "recursive score",
        &game(
            "score s(h: cards) { yaku all { x 1 when s(h).total > 0 } }",
            "chips[0] += s(山札).total",
        ),
        MemoryFiles::default(),
        "fuda::recursive-table",
    );
}

#[test]
fn bug_a_pattern_that_requires_itself() {
    expect_compile_error(
        "recursive pattern",
        &game(
            "pattern p { group a: 2 require p(a) }",
            "if p(cards(1-crane 1-ribbon)) { chips[0] += 0 }",
        ),
        MemoryFiles::default(),
        "fuda::recursive-table",
    );
}

/// Two groups of 16 over 32 cards: C(32,16) candidate splits, each charged as work.
#[test]
fn bug_pattern_candidates_are_not_budgeted() {
    let items = "pattern 半々 { group a: 16  group b: 16 }";
    let body = format!("if 半々({HAND32}) {{ chips[0] += 0 }}");
    expect_out_of_work("16 + 16 over 32 cards", &game(items, &body));
}

#[test]
fn bug_score_table_values_overflow() {
    for (what, stages) in [
        (
            "yaku sum",
            "yaku all { a 9223372036854775807 when true  b 1 when true }",
        ),
        (
            "times product",
            "yaku all { a 2 when true } times all { 9223372036854775807 when true  2 when true }",
        ),
        (
            "plus sum",
            "yaku all { a 1 when true } plus all { p 9223372036854775807 when true  q 1 when true }",
        ),
    ] {
        let items = format!("score s(h: cards) {{ {stages} }}");
        let text = game(&items, "chips[0] += s(山札).total\nchips[0] -= s(山札).total");
        let total = on_big_stack(what, move || {
            let p = compile_text(&text).expect("compiles");
            let none = Value::Cards(fuda_core::model::CardSet::EMPTY);
            fuda_core::score::score_with(&p, 0, vec![Some(none)]).map(|r| r.total)
        });
        // Saturating (or an error) would be right; a wrapped negative total is not.
        if let Ok(t) = total {
            assert!(t > 0, "{what}: total {t}");
        }
    }
}

#[test]
fn bug_text_that_doubles_in_a_loop() {
    expect_runtime_error(
        "string doubling",
        &game("", "let s = \"ab\"\nloop { s = s + s }"),
        "",
    );
}

#[test]
fn bug_the_greedy_agent_on_a_big_hand() {
    use fuda_core::agents::{Agent, Greedy};
    let cards: String = (0..64)
        .map(|i| format!("  card c{i} \"c{i}\" v=1\n"))
        .collect();
    let text = format!(
        "ruleset \"g\"\ndeck big {{\n  attribute v: int\n{cards}}}\n\
         seats 2 {{ 2: a b }}\nzone z shared pile public\nzone h per seat pile owner\n\
         pattern p {{ group a: 16 same v  group b: 16 same v }}\n\
         proc match {{\n  move z to h[0]\n  choose 0 {{ move x {{ }} move y {{ }} }}\n}}\n"
    );
    on_big_stack("greedy on 64 like cards", move || {
        let p = compile_text(&text).expect("compiles");
        let mut st = State::new(&p, &[], 1).expect("new");
        assert!(!st.advance(&p).expect("advance"));
        let moves = st.pending().expect("pending").seats[0].moves.clone();
        Greedy::new(1).choose(&p, &st, 0, &moves)
    });
}

/// A loop of heavy evaluations stops at the round's budget of work, whatever each
/// evaluation costs alone (20 loops of 100,000 steps at [`SMALL_ROUND`]).
#[test]
fn bug_heavy_evaluations_in_a_loop_are_not_bounded() {
    expect_out_of_work(
        "loop of 100k-step evaluations",
        &game("", "loop { let n = count(i in 1..100000: i > 0) }"),
    );
}

/// A deck of three cards whose `v` values sit at the ends of i64.
fn extreme_deck(body: &str) -> String {
    format!(
        "ruleset \"r\"\n\
         deck d {{ attribute v: int\n card a \"a\" v=9223372036854775807\n\
           card b \"b\" v=9223372036854775806\n card c \"c\" v=-9223372036854775807 }}\n\
         seats 2 {{ 2: x y }}\nzone z shared pile public\nzone h per seat pile owner\n\
         pattern p {{ group g: 2 run v }}\n{body}\nproc match {{ }}\n"
    )
}

#[test]
fn bug_a_run_at_the_end_of_i64() {
    let text = extreme_deck(
        "test \"no run\" { expect not p(cards(a c)) }\n\
         test \"a run\" { expect p(cards(b a)) }",
    );
    let failures = on_big_stack("run at i64::MAX", move || {
        let p = compile_text(&text).expect("compiles");
        run_tests(&p)
    });
    assert!(failures.is_empty(), "{failures:?}");
}

/// `n` per-seat declarations of `kind` (`zone` or `var`) for 16 seats.
fn many_per_seat(kind: &str, n: usize, body: &str) -> String {
    let decls: String = (0..n)
        .map(|i| match kind {
            "zone" => format!("zone q{i} per seat pile owner\n"),
            _ => format!("var v{i}: int per seat = 0\n"),
        })
        .collect();
    format!(
        "ruleset \"r\"\nimport \"std/hanafuda\"\n\
         seats 16 {{ 16: a b c d e f g h i j k l m n o p }}\n\
         zone z shared pile public\n{decls}{body}\nproc match {{ }}\n"
    )
}

#[test]
fn bug_zone_instances_wrap_past_65535() {
    let text = many_per_seat(
        "zone",
        4100,
        "test \"apart\" { move z to q4099[15]\n expect count(q4099[15]) == 48\n expect count(q3[15]) == 0 }",
    );
    // Refusing that many (the compiled forms number them in 16 bits) is fine too;
    // aliasing or a panic is not.
    let failures = on_big_stack("4,100 per-seat zones", move || match compile_text(&text) {
        Ok(p) => run_tests(&p),
        Err(_) => vec![],
    });
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn bug_variable_slots_wrap_past_65535() {
    let text = many_per_seat(
        "var",
        4100,
        "test \"apart\" { v4099[15] = 1\n expect v4099[15] == 1\n expect v3[15] == 0 }",
    );
    // Refusing that many (the compiled forms number them in 16 bits) is fine too;
    // aliasing or a panic is not.
    let failures = on_big_stack("4,100 per-seat variables", move || {
        match compile_text(&text) {
            Ok(p) => run_tests(&p),
            Err(_) => vec![],
        }
    });
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn bug_more_than_65535_tests_wrap() {
    // Tests are numbered in 16 bits. More than 10,000 tests are refused, so the
    // numbers cannot wrap: 10,001 tests show the refusal (the first version of this
    // test wrote 65,601, which took a minute to parse in a debug build and was left
    // out of the default run).
    let tests: String = (0..10_001)
        .map(|i| {
            if i == 64 {
                "test \"t64\" { expect false }\n".to_string()
            } else {
                format!("test \"t{i}\" {{ expect true }}\n")
            }
        })
        .collect();
    let text = game(&tests, "");
    let refused = on_big_stack("10,001 tests", move || match compile_text(&text) {
        Ok(p) => Err(run_tests(&p)),
        Err(e) => Ok(e),
    });
    match refused {
        Ok(diags) => assert!(diags.contains("at most 10000"), "{diags}"),
        Err(failures) => panic!("10,001 tests were accepted; failures: {failures:?}"),
    }
}

/// Greedy's work on one decision is bounded by its own budgets, not by how many moves
/// it is offered: it tries at most [`Greedy::MOST_TRIED`] of 300 moves and plays at most
/// [`Greedy::DECISION_BUDGET`] decisions in all its playouts.
///
/// [`Greedy::MOST_TRIED`]: fuda_core::agents::Greedy::MOST_TRIED
/// [`Greedy::DECISION_BUDGET`]: fuda_core::agents::Greedy::DECISION_BUDGET
#[test]
fn bug_the_greedy_agent_on_a_wide_decision() {
    use fuda_core::agents::{Agent, Greedy};
    let text = game("", "loop { choose 0 { move pick(n in 1..300) { } } }");
    let (pick, offered, work) = on_big_stack("greedy on 300 moves", move || {
        let p = compile_text(&text).expect("compiles");
        let mut st = State::new(&p, &[], 1).expect("new");
        assert!(!st.advance(&p).expect("advance"));
        let moves = st.pending().expect("pending").seats[0].moves.clone();
        let mut greedy = Greedy::new(1);
        let pick = greedy.choose(&p, &st, 0, &moves);
        (pick, moves.len(), greedy.last_work())
    });
    assert!(offered >= 299, "the decision offers {offered} moves");
    assert!(pick < offered, "greedy chose move {pick} of {offered}");
    assert!(work.tried > 0, "greedy tried no move: {work:?}");
    assert!(work.tried <= Greedy::MOST_TRIED, "{work:?}");
    assert!(work.decisions <= Greedy::DECISION_BUDGET as u64, "{work:?}");
}

/// Greedy's lookahead works on copies of the game, whose work the game's own budget does
/// not see: its own budget bounds it over a whole game, after which it plays at random.
#[test]
fn greedy_lookahead_is_bounded_over_a_game() {
    use fuda_core::agents::{Agent, Greedy};
    let text = game(
        "var n: int = 0",
        "repeat 40 { choose dealer { move pick(k in 1..6) { n = count(i in 1..2000: i > k) } }\n\
         choose next(dealer) { move a { } move b { } }\n outcome \"x\" }",
    );
    let budget = 300_000;
    let (spent, decisions) = on_big_stack("greedy's budget", move || {
        let p = compile_text(&text).expect("compiles");
        let mut st = State::new(&p, &[], 3).expect("new");
        let mut agent = Greedy::with_lookahead_budget(3, budget);
        let (mut spent, mut decisions) = (0u64, 0u64);
        while !st.advance(&p).expect("plays") {
            let pending = st.pending().expect("a decision").clone();
            let choices: Vec<usize> = pending
                .seats
                .iter()
                .map(|s| {
                    let c = agent.choose(&p, &st, s.seat, &s.moves);
                    spent += agent.last_work().steps;
                    c
                })
                .collect();
            decisions += 1;
            st.apply(&p, &choices).expect("a legal move");
        }
        (spent, decisions)
    });
    assert_eq!(decisions, 80, "the game played to its end");
    assert!(spent > budget / 2, "the lookahead did {spent} steps");
    assert!(
        spent <= budget,
        "the lookahead did {spent} steps, over {budget}"
    );
}

// ───────────────────────── mutations of 珊瑚花 ─────────────────────────

fn sangohana() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../rulesets/sangohana.fuda"
    ))
    .expect("ruleset")
}

/// What a piece of source text is, for token-level mutations.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Space,
    Comment,
    Str,
    Number,
    Word,
    Punct,
}

/// Splits fuda source into tokens that concatenate back to it.
fn tokens(src: &str) -> Vec<(Kind, &str)> {
    let mut out = Vec::new();
    let b = src.as_bytes();
    let mut i = 0;
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    while i < src.len() {
        let c = src[i..].chars().next().expect("char");
        let start = i;
        let kind = if c.is_whitespace() {
            while let Some(c) = src[i..].chars().next().filter(|c| c.is_whitespace()) {
                i += c.len_utf8();
            }
            Kind::Space
        } else if c == '#' {
            i += src[i..].find('\n').unwrap_or(src.len() - i);
            Kind::Comment
        } else if c == '"' {
            i += 1;
            while i < src.len() && b[i] != b'"' && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(src.len());
            while !src.is_char_boundary(i) {
                i += 1;
            }
            Kind::Str
        } else if word(c) && c != '-' {
            while let Some(c) = src[i..].chars().next().filter(|c| word(*c)) {
                i += c.len_utf8();
            }
            if src[start..i].bytes().all(|b| b.is_ascii_digit()) {
                Kind::Number
            } else {
                Kind::Word
            }
        } else {
            let two = src.get(i..i + 2).unwrap_or("");
            i += if ["..", "==", "!=", "<=", ">=", "+=", "-="].contains(&two) {
                2
            } else {
                c.len_utf8()
            };
            Kind::Punct
        };
        out.push((kind, &src[start..i]));
    }
    out
}

/// Numbers worth trying where the ruleset has one.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "16",
    "17",
    "48",
    "99",
    "256",
    "1000000000",
    "-1",
    "-9223372036854775807",
];

/// Bits of rules worth inserting anywhere.
const SNIPPETS: &[&str] = &[
    "loop { }",
    "return",
    "break",
    "continue",
    "chips[99] = 1",
    "move 山札 to 捨て札",
    "move 手札[s] to 山札",
    "gather 山札",
    "gather 手札[0]",
    "shuffle 手札[0]",
    "cut 捨て札 set aside to 手札[0]",
    "deal 7 from 捨て札 to 手札",
    "deal 1 from 山札 to 捨て札",
    "dealer = next(dealer)",
    "let z = top(捨て札)",
    "reveal 手札[0]",
    "outcome 流れ",
    "pay 1 from chips[0] to pot",
    "pay pot from pot to chips[1]",
    "repeat 3 { }",
    "一月()",
    "流れ()",
    "choose s { move a { } }",
    "claim x in seats() { move a { } }",
    "claim x in [] { move a { } }",
    "choose each x in seats() { move a { } move b { } }",
    "if count(山札) > 0 { }",
    "s = next(s)",
    " / 0",
    " + 1",
    " - ",
    "not ",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ",",
    "x",
    "\"",
];

/// One edit of the source.
#[derive(Clone, Debug)]
enum Mutation {
    DeleteLine(prop::sample::Index),
    DuplicateLine(prop::sample::Index),
    SwapLines(prop::sample::Index, prop::sample::Index),
    ReplaceNumber(prop::sample::Index, prop::sample::Index),
    ReplaceWord(prop::sample::Index, prop::sample::Index),
    DeleteBracket(prop::sample::Index),
    DeleteToken(prop::sample::Index),
    DuplicateToken(prop::sample::Index),
    Insert(prop::sample::Index, prop::sample::Index),
    InsertLine(prop::sample::Index, prop::sample::Index),
    NumberToWord(prop::sample::Index, prop::sample::Index),
}

/// Mutations that keep the syntax (numbers, names, statements at line starts) are
/// weighted up, so that more mutants compile and reach the engine.
fn mutation() -> impl Strategy<Value = Mutation> {
    use prop::sample::Index;
    prop_oneof![
        1 => any::<Index>().prop_map(Mutation::DeleteLine),
        1 => any::<Index>().prop_map(Mutation::DuplicateLine),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        5 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::ReplaceNumber(a, b)),
        2 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::ReplaceWord(a, b)),
        1 => any::<Index>().prop_map(Mutation::DeleteBracket),
        1 => any::<Index>().prop_map(Mutation::DeleteToken),
        1 => any::<Index>().prop_map(Mutation::DuplicateToken),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::Insert(a, b)),
        3 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::InsertLine(a, b)),
        2 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::NumberToWord(a, b)),
    ]
}

/// Applies one mutation; the source is re-read into lines or tokens each time.
fn mutate(src: &str, m: &Mutation) -> String {
    let lines: Vec<&str> = src.split_inclusive('\n').collect();
    let toks = tokens(src);
    let join = |t: &[(Kind, &str)]| t.iter().map(|(_, s)| *s).collect::<String>();
    // Token positions of one kind (or any non-space token).
    let of = |k: Option<Kind>, pred: &dyn Fn(&str) -> bool| -> Vec<usize> {
        toks.iter()
            .enumerate()
            .filter(|(_, (kind, s))| {
                k.map(|k| *kind == k).unwrap_or(*kind != Kind::Space) && pred(s)
            })
            .map(|(i, _)| i)
            .collect()
    };
    let mut t = toks.clone();
    match m {
        Mutation::DeleteLine(i) if !lines.is_empty() => {
            let mut l = lines.clone();
            l.remove(i.index(l.len()));
            return l.concat();
        }
        Mutation::DuplicateLine(i) if !lines.is_empty() => {
            let mut l = lines.clone();
            let k = i.index(l.len());
            l.insert(k, lines[k]);
            return l.concat();
        }
        Mutation::InsertLine(i, st) if !lines.is_empty() => {
            let mut l: Vec<String> = lines.iter().map(|x| x.to_string()).collect();
            let k = i.index(l.len());
            // Statements are the first few snippets (up to the bare operators).
            let statements = SNIPPETS.iter().take_while(|s| !s.starts_with(' ')).count();
            l.insert(k, format!("{}\n", SNIPPETS[st.index(statements)]));
            return l.concat();
        }
        Mutation::SwapLines(a, b) if !lines.is_empty() => {
            let mut l = lines.clone();
            let (a, b) = (a.index(l.len()), b.index(l.len()));
            l.swap(a, b);
            return l.concat();
        }
        Mutation::ReplaceNumber(i, v) => {
            let at = of(Some(Kind::Number), &|_| true);
            if !at.is_empty() {
                t[at[i.index(at.len())]].1 = NUMBERS[v.index(NUMBERS.len())];
            }
        }
        Mutation::ReplaceWord(i, w) => {
            let at = of(Some(Kind::Word), &|_| true);
            if !at.is_empty() {
                let with = toks[at[w.index(at.len())]].1;
                t[at[i.index(at.len())]].1 = with;
            }
        }
        Mutation::NumberToWord(i, w) => {
            let nums = of(Some(Kind::Number), &|_| true);
            let words = of(Some(Kind::Word), &|_| true);
            if !nums.is_empty() && !words.is_empty() {
                t[nums[i.index(nums.len())]].1 = toks[words[w.index(words.len())]].1;
            }
        }
        Mutation::DeleteBracket(i) => {
            let at = of(Some(Kind::Punct), &|s| "{}()[]".contains(s));
            if !at.is_empty() {
                t.remove(at[i.index(at.len())]);
            }
        }
        Mutation::DeleteToken(i) => {
            let at = of(None, &|_| true);
            if !at.is_empty() {
                t.remove(at[i.index(at.len())]);
            }
        }
        Mutation::DuplicateToken(i) => {
            let at = of(None, &|_| true);
            if !at.is_empty() {
                let k = at[i.index(at.len())];
                t.insert(k, (Kind::Space, " "));
                t.insert(k, toks[k]);
            }
        }
        Mutation::Insert(i, s) => {
            let at = of(Some(Kind::Space), &|_| true);
            if !at.is_empty() {
                let k = at[i.index(at.len())];
                t.insert(k + 1, (Kind::Word, SNIPPETS[s.index(SNIPPETS.len())]));
                t.insert(k + 1, (Kind::Space, " "));
            }
        }
        _ => {}
    }
    join(&t)
}

/// Default parameters, but one deal per match (if the mutant still has `deals`), so a
/// game reaches its end within the decision cap.
fn short_match(p: &Program) -> Vec<Option<Value>> {
    p.params
        .iter()
        .map(|d| match (d.name.as_str(), d.range) {
            ("deals", Some((lo, hi))) if lo <= 1 && 1 <= hi => Some(Value::Int(1)),
            _ => None,
        })
        .collect()
}

/// Compiles a mutant, runs its tests and plays two short games: no panic, no hang.
fn check_mutant(src: String) {
    let shown = src.clone();
    let result = std::panic::catch_unwind(|| {
        on_big_stack("mutant", move || {
            let Ok(p) = compile_text(&src) else { return };
            run_tests(&p);
            let params = short_match(&p);
            for seed in 0..2 {
                play_random(&p, &params, seed, Budget::decisions(2_000));
            }
            play_greedy(&p, &params, 2, 200);
        })
    });
    if let Err(e) = result {
        // Keep the offending source where it can be read in full.
        let path = std::env::temp_dir().join("fuda-robustness-mutant.fuda");
        let _ = std::fs::write(&path, &shown);
        eprintln!("the failing mutant is in {}", path.display());
        std::panic::resume_unwind(e);
    }
}

/// The proptest configuration: `cases` by default (or `PROPTEST_CASES`), a fixed seed
/// unless `PROPTEST_RNG_SEED` is set, so a plain `cargo test` is reproducible.
fn config(cases: u32) -> ProptestConfig {
    let env = ProptestConfig::default();
    ProptestConfig {
        cases: if std::env::var("PROPTEST_CASES").is_ok() {
            env.cases
        } else {
            cases
        },
        rng_seed: if std::env::var("PROPTEST_RNG_SEED").is_ok() {
            env.rng_seed
        } else {
            RngSeed::Fixed(0xF0DA)
        },
        failure_persistence: None,
        max_shrink_iters: 256,
        ..env
    }
}

#[test]
fn the_tokenizer_round_trips() {
    let src = sangohana();
    let toks = tokens(&src);
    assert_eq!(toks.iter().map(|(_, s)| *s).collect::<String>(), src);
    assert!(toks.iter().filter(|(k, _)| *k == Kind::Number).count() > 50);
    assert!(toks.iter().any(|(k, s)| *k == Kind::Word && *s == "手札"));
    assert!(toks.iter().any(|(k, s)| *k == Kind::Punct && *s == ".."));
}

proptest! {
    #![proptest_config(config(48))]

    /// Compiling a mutated 珊瑚花 never panics or hangs; what compiles runs its tests and
    /// plays to an end or an error, every card always in exactly one zone.
    #[test]
    fn mutated_sangohana_compiles_and_plays_without_panics(
        ms in prop::collection::vec(mutation(), 1..4)
    ) {
        let mut src = sangohana();
        for m in &ms {
            src = mutate(&src, m);
        }
        check_mutant(src);
    }
}

proptest! {
    #![proptest_config(config(16))]

    /// Games of the real 珊瑚花 with random (sometimes unfitting) choices: an unfitting
    /// choice is refused and changes nothing; the cards and the ledger stay consistent.
    #[test]
    fn unfitting_choices_are_refused(seed in any::<u64>(), players in 2i64..=4, picks in prop::collection::vec(any::<u16>(), 1..200)) {
        thread_local! {
            static P: Program = compile_text(&sangohana()).expect("compiles");
        }
        P.with(|p| {
            let params: Vec<Option<Value>> = p
                .params
                .iter()
                .map(|d| (d.name == "players").then_some(Value::Int(players)))
                .collect();
            let mut st = State::new(p, &params, seed).expect("new");
            let ledger0 = st.ledger_sum();
            for pick in picks {
                if st.advance(p).expect("sangohana runs") {
                    break;
                }
                let pending = st.pending().expect("pending").clone();
                let choices: Vec<usize> = pending
                    .seats
                    .iter()
                    .map(|s| pick as usize % (s.moves.len() + 1))
                    .collect();
                let fits = choices.iter().zip(&pending.seats).all(|(c, s)| *c < s.moves.len());
                let before = st.decisions;
                let print = st.fingerprint();
                match st.apply(p, &choices) {
                    Ok(()) => prop_assert!(fits, "an unfitting choice {choices:?} was taken"),
                    Err(_) => {
                        prop_assert!(!fits, "a fitting choice was refused");
                        prop_assert!(st.pending().is_some());
                        prop_assert_eq!(st.decisions, before);
                        prop_assert!(st.fingerprint() == print, "a refused choice changed the game");
                        let ok: Vec<usize> = choices
                            .iter()
                            .zip(&pending.seats)
                            .map(|(c, s)| c % s.moves.len())
                            .collect();
                        st.apply(p, &ok).expect("fitting choices");
                    }
                }
                st.check_cards().map_err(TestCaseError::fail)?;
                prop_assert_eq!(st.ledger_sum(), ledger0);
            }
            Ok(())
        })?;
    }
}

/// A small game whose moves can fail: `b` is refused by a `require` once `a` was taken
/// five times, `c` divides by zero when `a` was taken four; a decision limit may stop it.
const FAILING_MOVES: &str = "ruleset \"failing\"\nimport \"std/hanafuda\"\n\
    seats 2 { 2: 親 子 }\nzone 山札 shared stack hidden\nzone 場 shared pile public\n\
    var n: int = 0\nvar chips: int per seat = 0\nledger chips\n\
    proc match {\n  shuffle 山札\n  repeat 30 {\n    move top(山札) to 場\n\
    choose dealer {\n      move a { n += 1 }\n\
          move b { require n < 5 else \"b after five a's\"\n pay 1 from chips[0] to chips[1] }\n\
          move c when n > 2 { n = n + 1 / (n - 4) }\n    }\n    outcome \"x\"\n  }\n}\n";

/// Each way a move can fail, in turn, leaves the game as it was: the `require`, the
/// division by zero, the decision limit, an unfitting choice.
#[test]
fn each_way_a_move_fails_leaves_the_game_as_it_was() {
    let p = compile_text(FAILING_MOVES).expect("compiles");
    let mut st = State::new(&p, &[], 1).expect("new");
    st.decision_limit = 8;
    assert!(!st.advance(&p).expect("starts"));
    let refused = |st: &mut State, pick: usize, needle: &str| {
        let print = st.fingerprint();
        let e = st.take_move(&p, &[pick]).expect_err(needle);
        assert!(e.message.contains(needle), "{}", e.message);
        assert!(st.pending().is_some());
        assert!(st.fingerprint() == print, "`{needle}` changed the game");
    };
    let a = |st: &mut State| assert!(!st.take_move(&p, &[0]).expect("a"));
    refused(&mut st, 7, "do not fit");
    for _ in 0..4 {
        a(&mut st);
    }
    // n == 4: `c` (offered once n > 2, the third move) divides by zero.
    refused(&mut st, 2, "division by zero");
    a(&mut st);
    // n == 5: `b` is refused by its `require`.
    refused(&mut st, 1, "b after five a's");
    a(&mut st);
    a(&mut st);
    a(&mut st);
    // Eight decisions taken: the ninth is past the limit, by either way of taking it.
    refused(&mut st, 0, "decisions without ending");
    let print = st.fingerprint();
    let e = st.apply(&p, &[0]).expect_err("past the limit");
    assert!(
        e.message.contains("decisions without ending"),
        "{}",
        e.message
    );
    assert!(
        st.fingerprint() == print,
        "a refused `apply` changed the game"
    );
}

proptest! {
    #![proptest_config(config(64))]

    /// Taking a move either plays on to the next decision or changes nothing: an
    /// unfitting choice, a rule's `require`, an error on the way or a limit leaves the
    /// game exactly as it was, the decision still waiting.
    #[test]
    fn a_failed_move_leaves_the_game_as_it_was(
        seed in any::<u64>(),
        limit in 1u64..40,
        picks in prop::collection::vec(0usize..4, 1..60),
    ) {
        thread_local! {
            static P: Program = compile_text(FAILING_MOVES).expect("compiles");
        }
        P.with(|p| {
            let mut st = State::new(p, &[], seed).expect("new");
            st.decision_limit = limit;
            if st.advance(p).expect("starts") {
                return Ok(());
            }
            for pick in picks {
                let print = st.fingerprint();
                match st.take_move(p, &[pick]) {
                    Ok(true) => break,
                    Ok(false) => prop_assert!(st.pending().is_some()),
                    Err(_) => {
                        prop_assert!(st.pending().is_some(), "the decision no longer waits");
                        prop_assert!(st.fingerprint() == print, "a failed move changed the game");
                    }
                }
            }
            Ok(())
        })?;
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// Whatever an import path says, what reaches a loader is relative, has no `..` or
    /// empty part, no drive or `\`, and names a `.fuda` file.
    #[test]
    fn import_paths_resolve_inside_the_folder(
        path in r#"(std/|\.\./|\.\.|/|\\|[a-zA-Z]:|~|\./|[a-z]{1,3}|/|\.|\.fuda|\x00|…)*"#
    ) {
        use fuda_core::loader::{resolve, Resolved};
        match resolve(&path) {
            Ok(Resolved::Local(p)) => {
                prop_assert!(p.ends_with(".fuda"), "{p}");
                prop_assert!(!p.starts_with('/') && !p.contains('\\') && !p.contains(':'), "{p}");
                prop_assert!(p.split('/').all(|part| !part.is_empty() && part != ".." && part != "."), "{p}");
            }
            Ok(Resolved::Std(name, _)) => prop_assert!(name.starts_with("std/")),
            Err(why) => prop_assert!(!why.is_empty()),
        }
    }
}
