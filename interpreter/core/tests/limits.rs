//! The checker's size limits: each count that a compiled form indexes in a narrow
//! integer (a parameter, tag or attribute is numbered in 16 bits) is refused one past
//! its limit, with a diagnostic naming the limit, and works at the limit itself, where
//! the last one declared is read as itself (no index has wrapped around to another).
//! Also the limits on how deep patterns and score tables may use one another, how deep
//! an expression may nest once defs are expanded, and how much text a ruleset may
//! read. Checks run on a thread with a main thread's stack, the longest chain on one
//! with a worker's small stack.

use fuda_core::loader::MemoryFiles;
use fuda_core::{Diagnostic, Program};

/// A two-seat hanafuda ruleset around extra items.
fn game(extra: &str) -> String {
    format!(
        "ruleset \"limits\"\n\
         import \"std/hanafuda\"\n\
         seats 2 {{ 2: 親 子 }}\n\
         zone 山札 shared stack hidden\n\
         zone 手札 per seat pile owner\n\
         proc match {{ }}\n\
         {extra}\n"
    )
}

/// A ruleset with its own one-card deck and no stdlib, around a deck body and items.
fn own_deck(deck: &str, extra: &str) -> String {
    format!(
        "ruleset \"limits\"\n\
         deck d {{\n{deck}\n}}\n\
         seats 2 {{ 2: a b }}\n\
         zone z shared pile public\n\
         proc match {{ }}\n\
         {extra}\n"
    )
}

/// A main thread's stack, as the command line has: a debug build's frames are large,
/// and legal expressions a few hundred levels deep need it.
const MAIN_STACK: usize = 8 << 20;
/// A worker thread's stack, as test runners and thread pools give.
const SMALL_STACK: usize = 2 << 20;

/// Runs `f` on a thread with a stack of `size` bytes.
fn on_stack<T: Send + 'static>(size: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(size)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("the check ran out of stack or panicked")
}

fn compile_on(stack: usize, text: String, files: MemoryFiles) -> Result<Program, Vec<Diagnostic>> {
    on_stack(stack, move || {
        fuda_core::compile("limits.fuda", &text, &files)
            .map(|c| c.program)
            .map_err(|f| f.diagnostics)
    })
}

fn compile_with(text: String, files: MemoryFiles) -> Result<Program, Vec<Diagnostic>> {
    compile_on(MAIN_STACK, text, files)
}

/// The program, which must compile, with every test passing.
fn compiles_and_passes(text: String) -> Program {
    let p = match compile_with(text, MemoryFiles::default()) {
        Ok(p) => p,
        Err(d) => panic!("does not compile: {d:#?}"),
    };
    for i in 0..p.tests.len() {
        if let Err(e) = fuda_core::State::run_test(&p, i) {
            panic!("test \"{}\" fails: {}", p.tests[i].name, e.message);
        }
    }
    p
}

/// The diagnostic with `code` whose message holds `message`, from a ruleset that must
/// be refused.
fn refused_with(text: String, code: &str, message: &str) -> Diagnostic {
    refused_with_files(text, MemoryFiles::default(), code, message)
}

fn refused_with_files(text: String, files: MemoryFiles, code: &str, message: &str) -> Diagnostic {
    let diags = match compile_with(text, files) {
        Ok(_) => panic!("compiled, but `{message}` was expected"),
        Err(d) => d,
    };
    diags
        .iter()
        .find(|d| d.code == code && d.message.contains(message))
        .cloned()
        .unwrap_or_else(|| panic!("no {code} saying `{message}` in {diags:#?}"))
}

/// The label texts of a diagnostic.
fn labels(d: &Diagnostic) -> Vec<&str> {
    d.labels.iter().map(|(_, l)| l.as_str()).collect()
}

#[test]
fn parameters_past_the_limit_are_refused_and_the_last_one_reads_itself() {
    let params =
        |n: usize| -> String { (0..n).map(|i| format!("param p{i}: int = {i}\n")).collect() };
    let d = refused_with(
        game(&params(257)),
        "fuda::too-large",
        "257 parameters: a ruleset may declare at most 256",
    );
    assert_eq!(labels(&d), ["parameter 257 is one too many"]);
    compiles_and_passes(game(&format!(
        "{}test \"the last\" {{ expect p255 == 255\n expect p0 == 0 }}",
        params(256)
    )));
}

#[test]
fn enums_and_their_values_past_the_limit_are_refused() {
    let enums: String = (0..1001).map(|i| format!("enum E{i}: x{i}\n")).collect();
    let d = refused_with(
        game(&enums),
        "fuda::too-large",
        "1001 enums: a ruleset may declare at most 1000",
    );
    assert_eq!(labels(&d), ["enum 1001 is one too many"]);
    let values = |n: usize| (0..n).map(|i| format!("v{i}")).collect::<Vec<_>>();
    let d = refused_with(
        game(&format!("enum E: {}", values(1001).join(" | "))),
        "fuda::too-large",
        "1001 values of enum `E`: at most 1000 are allowed",
    );
    assert_eq!(labels(&d), ["number 1001 is one too many"]);
    compiles_and_passes(game(&format!(
        "enum E: {}\ntest \"the last\" {{ let e = v999\n expect e == v999\n expect e != v0 }}",
        values(1000).join(" | ")
    )));
}

#[test]
fn word_lists_past_the_limit_are_refused() {
    let lists: String = (0..1001)
        .map(|i| format!("words w{i} {{ 一石 }}\n"))
        .collect();
    let d = refused_with(
        game(&lists),
        "fuda::too-large",
        "1001 word lists: a ruleset may declare at most 1000",
    );
    assert_eq!(labels(&d), ["word list 1001 is one too many"]);
}

#[test]
fn attributes_past_the_limit_are_refused_and_the_last_one_reads_itself() {
    let attrs = |n: usize| -> String {
        (0..n)
            .map(|i| format!("  attribute a{i}: int = {i}\n"))
            .collect()
    };
    let d = refused_with(
        own_deck(&format!("{}  card c0 \"c0\"", attrs(257)), ""),
        "fuda::too-large",
        "257 attributes in deck `d`: at most 256 are allowed",
    );
    assert_eq!(labels(&d), ["number 257 is one too many"]);
    compiles_and_passes(own_deck(
        &format!("{}  card c0 \"c0\"", attrs(256)),
        "test \"the last\" { expect card(c0).a255 == 255\n expect card(c0).a0 == 0 }",
    ));
}

#[test]
fn tags_past_the_limit_are_refused_and_the_last_one_is_itself() {
    let tags = |n: usize| (0..n).map(|i| format!("t{i}")).collect::<Vec<_>>();
    let d = refused_with(
        own_deck(
            &format!("  tags {}\n  card c0 \"c0\"", tags(1001).join(", ")),
            "",
        ),
        "fuda::too-large",
        "1001 tags in deck `d`: at most 1000 are allowed",
    );
    assert_eq!(labels(&d), ["number 1001 is one too many"]);
    // A tag past 65,535 once read another's cards (`card(c0) is t4463` held).
    compiles_and_passes(own_deck(
        &format!(
            "  tags {}\n  card c0 \"c0\" +t999\n  card c1 \"c1\" +t463",
            tags(1000).join(", ")
        ),
        "test \"the last\" {\n expect card(c0) is t999\n expect not (card(c0) is t463)\n \
         expect card(c1) is t463\n expect not (card(c1) is t999) }",
    ));
}

#[test]
fn attribute_values_past_the_limit_are_refused() {
    let values = |n: usize| (0..n).map(|i| format!("s{i}")).collect::<Vec<_>>();
    let d = refused_with(
        own_deck(
            &format!(
                "  attribute a: {}\n  card c0 \"c0\" a=s0",
                values(1001).join(" | ")
            ),
            "",
        ),
        "fuda::too-large",
        "1001 values of attribute `a`: at most 1000 are allowed",
    );
    assert_eq!(labels(&d), ["number 1001 is one too many"]);
    compiles_and_passes(own_deck(
        &format!(
            "  attribute a: {}\n  card c0 \"c0\" a=s999\n  card c1 \"c1\" a=s0",
            values(1000).join(" | ")
        ),
        "test \"the last\" { expect card(c0).a == s999\n expect card(c1).a == s0\n \
         expect card(c0).a != card(c1).a }",
    ));
}

#[test]
fn parameter_lists_past_the_limit_are_refused() {
    let list = (0..257)
        .map(|i| format!("x{i}: int"))
        .collect::<Vec<_>>()
        .join(", ");
    for item in [
        format!("def f({list}) = 1"),
        format!("proc p({list}) {{ }}"),
        format!("score s({list}) {{ yaku all {{ y 1 when true }} }}"),
    ] {
        let d = refused_with(
            game(&item),
            "fuda::too-large",
            "257 parameters in one list: at most 256 are allowed",
        );
        assert_eq!(labels(&d), ["number 257 is one too many"], "{item}");
    }
}

/// `count` patterns, each testing the next in a `where`, the last testing nothing, and
/// a test that asks the first.
fn pattern_chain(count: usize) -> String {
    let mut items: String = (0..count - 1)
        .map(|i| format!("pattern q{i} {{ group g: 1 where q{}(g) }}\n", i + 1))
        .collect();
    items.push_str(&format!("pattern q{} {{ group g: 1 }}\n", count - 1));
    items.push_str("test \"the chain\" { expect q0(cards(1-crane)) }\n");
    game(&items)
}

#[test]
fn a_chain_of_two_thousand_patterns_is_refused_without_deep_recursion() {
    // Evaluating it nested once per link: a few hundred overflowed `fuda simulate`. The
    // check itself walks the chain without recursion, on a small stack.
    let diags = compile_on(SMALL_STACK, pattern_chain(2000), MemoryFiles::default())
        .expect_err("too long a chain");
    let d = diags
        .iter()
        .find(|d| {
            d.message
                == "pattern `q0` starts a chain of 2000 patterns and score tables, each using the next: at most 32 may nest"
        })
        .unwrap_or_else(|| panic!("{diags:#?}"));
    assert_eq!(d.code, "fuda::too-deep");
    assert_eq!(
        labels(d),
        ["2000 links long", "uses this, which uses the next…"]
    );
    assert!(
        d.help
            .as_deref()
            .is_some_and(|h| h.contains("→ … → pattern `q1999`")),
        "{d:#?}"
    );
}

#[test]
fn a_chain_at_the_limit_is_evaluated_and_one_more_is_refused() {
    compiles_and_passes(pattern_chain(32));
    refused_with(
        pattern_chain(33),
        "fuda::too-deep",
        "starts a chain of 33 patterns",
    );
    // A score table counts as a link too, through its `over`.
    let table = "score s(h: cards) over q0(h) { yaku all { y 1 when true } }";
    refused_with(
        format!("{}{table}\n", pattern_chain(32)),
        "fuda::too-deep",
        "score `s` starts a chain of 33 patterns",
    );
}

/// `count` patterns, each testing the next at the bottom of `depth` `and`s.
fn deep_chain(count: usize, depth: usize) -> String {
    let mut items: String = (0..count - 1)
        .map(|i| {
            format!(
                "pattern q{i} {{ group g: 1 where q{}(g){} }}\n",
                i + 1,
                " and true".repeat(depth)
            )
        })
        .collect();
    items.push_str(&format!("pattern q{} {{ group g: 1 }}\n", count - 1));
    game(&items)
}

#[test]
fn a_short_chain_of_deep_conditions_is_refused_by_its_whole_nesting() {
    // Each link nests 254 levels (its 250 `and`s, the call, its group and itself):
    // eight links stay within the 2,000 levels, nine do not. Thirty links of these
    // overflowed the 2 MiB stack of a `fuda simulate` worker.
    assert!(compile_with(deep_chain(8, 250), MemoryFiles::default()).is_ok());
    let d = refused_with(
        deep_chain(9, 250),
        "fuda::too-deep",
        "evaluating pattern `q0` nests 2033 levels deep through the patterns and score tables it uses: at most 2000",
    );
    assert_eq!(labels(&d), ["2033 levels deep"]);
}

#[test]
fn defs_nested_in_each_others_arguments_are_measured_as_they_expand() {
    // Twenty uses, each inside the last one's argument, of a def of twenty levels:
    // counted on the way down they are forty levels; expanded, four hundred.
    let def = format!("def f(x: int) = x{}", " + 1".repeat(20));
    let uses = format!("{}1{}", "f(".repeat(20), ")".repeat(20));
    refused_with(
        game(&format!("{def}\ntest \"t\" {{ expect {uses} > 0 }}")),
        "fuda::too-deep",
        "nests more than 300 deep once defs are expanded",
    );
}

#[test]
fn a_table_that_uses_itself_is_still_reported_as_a_cycle() {
    let d = refused_with(
        game(
            "pattern a { group g: 1 where b(g) }\npattern b { group g: 1 where c(g) }\n\
             pattern c { group g: 1 where a(g) }",
        ),
        "fuda::recursive-table",
        "pattern `a` uses itself: pattern `a` → pattern `b` → pattern `c` → pattern `a`",
    );
    assert_eq!(labels(&d), ["declared here"]);
}

#[test]
fn defs_expanded_into_each_other_are_measured_whole() {
    // Each use of `f` puts its argument at the bottom of 100 additions: three nested
    // uses nest 301 deep, more than the 300 levels an expression may have (each level
    // of the source, counted on the way down, stays far below).
    let def = format!("def f(x: int) = x{}", " + 1".repeat(100));
    let d = refused_with(
        game(&format!("{def}\ntest \"t\" {{ expect f(f(f(1))) > 0 }}")),
        "fuda::too-deep",
        "nests more than 300 deep once defs are expanded",
    );
    assert_eq!(labels(&d), ["too deep"]);
    compiles_and_passes(game(&format!(
        "{def}\ntest \"t\" {{ expect f(f(1)) == 201 }}"
    )));
}

#[test]
fn large_defs_expanded_many_times_are_refused() {
    // 1,001 elements used 1,000 times pass a million lowered values.
    let list = vec!["1"; 1000].join(", ");
    let uses: String = (0..1000)
        .map(|i| format!(" let x{i} = count(f())\n"))
        .collect();
    let d = refused_with(
        game(&format!("def f() = [{list}]\nproc p {{\n{uses}}}")),
        "fuda::too-large",
        "defs expand to more than 1000000 operators and values in all",
    );
    assert_eq!(labels(&d), ["the limit is reached here"]);
}

#[test]
fn a_ruleset_reads_at_most_four_mebibytes_of_its_own_files() {
    // Comments only: the parser skips them quickly even in a debug build.
    let big = |n: usize| format!("#{}\nenum Z{n}: z{n}\n", "x".repeat(1 << 21));
    let files = MemoryFiles(vec![
        ("a.fuda".to_string(), big(1)),
        ("b.fuda".to_string(), big(2)),
    ]);
    let text = game("import \"a.fuda\"\nimport \"b.fuda\"");
    let d = refused_with_files(
        text,
        files,
        "fuda::too-large",
        "at most 4194304 (4 MiB) are read, the file checked, its bases, imports and word lists together",
    );
    assert!(labels(&d)[0].starts_with("this file ("), "{d:#?}");
    // The stdlib is not counted, and one large import is fine.
    let files = MemoryFiles(vec![("a.fuda".to_string(), big(1))]);
    if let Err(d) = compile_with(game("import \"a.fuda\""), files) {
        panic!("{d:#?}");
    }
}

#[test]
fn a_thousand_errors_are_reported_and_the_rest_counted() {
    let uses: String = (0..1200)
        .map(|i| format!(" let x{i} = nothing{i}\n"))
        .collect();
    let text = game(&format!("proc p {{\n{uses}}}"));
    let failed = on_stack(MAIN_STACK, move || {
        fuda_core::compile("limits.fuda", &text, &MemoryFiles::default())
            .expect_err("unknown names")
    });
    let unknown = failed
        .diagnostics
        .iter()
        .filter(|d| d.code == "fuda::unknown-name")
        .count();
    assert_eq!(unknown, 1000);
    assert_eq!(failed.unkept, 200, "the errors past the cap are counted");
    assert_eq!(failed.errors(), 1200);
}
