//! The order a score table's stages run in: yaku and void stages first, then factors,
//! names and bonuses, each kind in the order written, so a factor multiplies every
//! yaku wherever its stage stands (as a variant's added `yaku` stage is).

use fuda_core::loader::NoFiles;

const TABLE: &str = r#"
ruleset "stage order"
import "std/kabufuda"
seats 2 { 2: a b }
zone 山 shared stack hidden
proc match { }
score T(h: cards) {
  yaku A all { a 1 when count(h) == 1 or count(h) == 3 }
  times X all { 2 when true }
  yaku B all { b 5 when count(h) >= 2 }
  name { "{yaku}×{factor}" when factor > 1 }
  plus P all { p 100 when count(h) == 2 }
}
test "a yaku written after a factor is multiplied, alone too" {
  let r = T(cards(1a 1b))
  expect r.total == 5 * 2 + 100
  expect r.name == "b×2"
}
test "and with a yaku written before it" {
  expect T(cards(1a 1b 1c)).total == (1 + 5) * 2
}
test "the earlier yaku alone" {
  expect T(cards(1a)).total == 2
}
"#;

#[test]
fn a_factor_multiplies_every_yaku_wherever_it_is_written() {
    let p = match fuda_core::compile("t.fuda", TABLE, &NoFiles) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    };
    assert_eq!(p.tests.len(), 3);
    for i in 0..p.tests.len() {
        if let Err(e) = fuda_core::State::run_test(&p, i) {
            panic!("test \"{}\": {}", p.tests[i].name, e.message);
        }
    }
}

#[test]
fn factor_read_in_a_yaku_stage_is_a_warning() {
    let text = TABLE.replace(
        "yaku B all { b 5 when count(h) >= 2 }",
        "yaku B all { b 5 when count(h) >= 2 and factor == 2 }",
    );
    let c = fuda_core::compile("t.fuda", &text, &NoFiles).expect("a warning, not an error");
    let codes: Vec<&str> = c.warnings.iter().map(|d| d.code).collect();
    assert!(codes.contains(&"fuda::factor-in-yaku"), "{codes:?}");
}

/// `base` in later stages: the sum of the yaku values, in a table without a pattern
/// and in one over a pattern (whose rows the compiler tabulates by the groups'
/// classes: a condition on `base` is left to evaluation).
const BASE: &str = r#"
ruleset "base"
import "std/kabufuda"
seats 2 { 2: a b }
zone 山 shared stack hidden
proc match { }
score 小(h: cards) {
  yaku all {
    二 2 when count(c in h: c.number == 2) >= 1
    五 5 when count(c in h: c.number == 5) >= 1
  }
  times all { 2 when base >= 7 }
}
pattern 二対 {
  group 甲: 2 same number
  group 乙: 2 same number
}
score 対(h: cards, 祝い: bool = false) over 二対(h) best {
  yaku all {
    低 3 when 甲.number <= 5
    高 5 when 乙.number >= 6
    同 4 when 甲.number == 乙.number
  }
  times all { 2 when base >= 7 }
  name { 大 when base >= 8 }
  plus all { 祝儀 1 when 祝い and base >= 8 }
}
test "small: 7 or more doubles" {
  let r = 小(cards(2a 5a))
  expect r.base == 7
  expect r.total == 14
  expect 小(cards(5a)).total == 5
  expect 小(cards(2a)).total == 2
}
test "over a pattern: the best split, doubled at 7 or more" {
  let r = 対(cards(2a 2b 9a 9b))
  expect r.total == 16
  expect r.name == "大"
  expect 対(cards(2a 2b 9a 9b), 祝い: true).total == 17
  expect 対(cards(5a 5b 5c 5d)).total == 14
  expect 対(cards(5a 5b 5c 5d), 祝い: true).total == 14
  expect 対(cards(2a 2b 3a 3b)).total == 3
  expect 対(cards(7a 7b 9a 9b)).total == 5
}
"#;

#[test]
fn base_reads_the_sum_of_the_yaku_in_later_stages() {
    let c = match fuda_core::compile("t.fuda", BASE, &NoFiles) {
        Ok(c) => c,
        Err(f) => panic!("{:#?}", f.diagnostics),
    };
    assert!(c.warnings.is_empty(), "{:#?}", c.warnings);
    let p = c.program;
    assert_eq!(p.tests.len(), 2);
    for i in 0..p.tests.len() {
        if let Err(e) = fuda_core::State::run_test(&p, i) {
            panic!("test \"{}\": {}", p.tests[i].name, e.message);
        }
    }
    // The same totals outside a game, as `fuda score` computes them.
    let t = p.scores.iter().position(|s| s.name == "対").expect("table") as u16;
    let hand: fuda_core::model::CardSet = p
        .deck
        .parse_cards(&["2a", "2b", "9a", "9b"])
        .expect("cards")
        .into_iter()
        .collect();
    let args = vec![Some(fuda_core::value::Value::Cards(hand)), None];
    let r = fuda_core::score::score_with(&p, t, args).expect("scores");
    assert_eq!((r.base, r.factor, r.total), (8, 2, 16));
}

#[test]
fn base_read_in_a_yaku_stage_is_a_warning() {
    let text = BASE.replace(
        "同 4 when 甲.number == 乙.number",
        "同 4 when 甲.number == 乙.number and base == 0",
    );
    let c = fuda_core::compile("t.fuda", &text, &NoFiles).expect("a warning, not an error");
    let codes: Vec<&str> = c.warnings.iter().map(|d| d.code).collect();
    assert!(codes.contains(&"fuda::base-in-yaku"), "{codes:?}");
}
