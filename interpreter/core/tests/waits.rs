//! `waits` asks about one copy of each face when the pattern cannot tell copies apart,
//! and about each copy when it names one (`compile/copies.rs`): the answers are the same
//! as asking about every card.

use fuda_core::loader::MemoryFiles;
use fuda_core::State;

/// Compiles a mahjong ruleset around `items` and runs its tests: the failures.
fn failures(items: &str) -> Vec<String> {
    let text = format!(
        "ruleset \"waits\"\nimport \"std/mahjong\"\nseats 2 {{ 2: a b }}\n\
         zone z shared pile public\nproc match {{ }}\n{items}"
    );
    let p = match fuda_core::compile("waits.fuda", &text, &MemoryFiles::default()) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    };
    (0..p.tests.len())
        .filter_map(|i| State::run_test(&p, i).err().map(|e| e.message.clone()))
        .collect()
}

#[test]
fn copies_a_pattern_cannot_tell_apart_wait_alike() {
    let failed = failures(
        "pattern 対 { group g: 2 same face }\n\
         test \"every copy left\" {\n\
           let h = cards(\"11m\") - cards(\"1m\")\n\
           expect waits(対, h) == cards(\"1111m\") - h\n\
           expect count(waits(対, h)) == 3 }",
    );
    assert!(failed.is_empty(), "{failed:?}");
}

/// The pattern names the first copy of 1m: that copy does not complete the hand, the
/// other two left do.
#[test]
fn copies_a_pattern_names_are_asked_about_one_by_one() {
    let failed = failures(
        "pattern 対 { group g: 2 same face\n require not any(c in g: c in cards(\"1m\")) }\n\
         test \"the named copy apart\" {\n\
           let h = cards(\"11m\") - cards(\"1m\")\n\
           expect waits(対, h) == cards(\"1111m\") - cards(\"11m\") }\n\
         pattern 頭 { group g: 2 same face where 対(g) }\n\
         test \"through a pattern it calls\" {\n\
           let h = cards(\"11m\") - cards(\"1m\")\n\
           expect waits(頭, h) == cards(\"1111m\") - cards(\"11m\") }",
    );
    assert!(failed.is_empty(), "{failed:?}");
}
