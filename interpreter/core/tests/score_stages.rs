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
