//! Asking a score result about one yaku: `r.has(Y)` and `r[Y]`, for yaku and bonus
//! rows, and the checker's answer to a name no table has.

use fuda_core::loader::NoFiles;

const RULES: &str = r#"
ruleset "yaku queries"
import "std/kabufuda"
seats 2 { 2: a b }
zone 山 shared stack hidden
zone 手 per seat pile owner
var chips: int per seat = 0
proc match { }
score 役(h: cards, 倍: bool = false, 祝い: bool = false) {
  yaku all {
    二ゾロ 20 when count(c in h: c.number == 2) == 4
    三太   20 when count(c in h: c.number == 3) == 4
    ピン    1 when card(1a) in h
  }
  times all { 2 when 倍 }
  plus all { 祝儀 5 when 祝い }
}
score 別(h: cards) {
  yaku first { 四 4 when count(h) == 4 }
}
proc 払う(x: seat, h: cards) {
  let r = 役(h, 倍: true)
  if r.has(二ゾロ) and not r.has(三太) { chips[x] += 100 }
  chips[x] += r[ピン]
}
test "has: a yaku row that held, multiplied or not" {
  let r = 役(cards(2a 2b 2c 2d), 倍: true)
  expect r.has(二ゾロ)
  expect not r.has(三太)
  expect r[二ゾロ] == 20
  expect r[三太] == 0
  expect r.total == 40
}
test "several yaku and a bonus" {
  let r = 役(cards(1a 2a 2b 2c 2d 3a 3b 3c 3d), 祝い: true)
  expect r.has(二ゾロ) and r.has(三太) and r.has(ピン)
  expect r[ピン] == 1
  expect r.has(祝儀)
  expect r[祝儀] == 5
  expect r[二ゾロ] + r[三太] + r[ピン] + r[祝儀] == r.total
}
test "no yaku, no bonus" {
  let r = 役(cards(4a), 祝い: true)
  expect not r.has(祝儀)
  expect r[祝儀] == 0
  expect r.total == 0
}
test "a row of another table, asked of this one's result" {
  expect not 役(cards(1a 1b 1c 1d)).has(四)
  expect 別(cards(1a 1b 1c 1d)).has(四)
}
test "in a procedure" {
  払う(0, cards(1a 2a 2b 2c 2d))
  expect chips[0] == 101
}
"#;

#[test]
fn a_result_answers_for_each_yaku_and_bonus_row() {
    let c = match fuda_core::compile("t.fuda", RULES, &NoFiles) {
        Ok(c) => c,
        Err(f) => panic!("{:#?}", f.diagnostics),
    };
    let p = c.program;
    assert_eq!(p.tests.len(), 5);
    for i in 0..p.tests.len() {
        if let Err(e) = fuda_core::State::run_test(&p, i) {
            panic!("test \"{}\": {}", p.tests[i].name, e.message);
        }
    }
}

/// The codes, messages and help lines of compiling `RULES` with `from` replaced.
fn problems(from: &str, to: &str) -> Vec<(String, String, Option<String>)> {
    let text = RULES.replacen(from, to, 1);
    assert_ne!(text, RULES, "the replacement applies");
    match fuda_core::compile("t.fuda", &text, &NoFiles) {
        Ok(_) => panic!("compiles"),
        Err(f) => f
            .diagnostics
            .iter()
            .map(|d| (d.code.to_string(), d.message.clone(), d.help.clone()))
            .collect(),
    }
}

#[test]
fn an_unknown_yaku_is_an_error_with_a_suggestion() {
    let d = problems("r.has(三太)", "r.has(三大)");
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].0, "fuda::unknown-name");
    assert!(d[0].1.contains("`三大`"), "{d:?}");
    assert_eq!(d[0].2.as_deref(), Some("did you mean `三太`?"));
    let d = problems("r[祝儀] == 0", "r[祝義] == 0");
    assert_eq!(d[0].2.as_deref(), Some("did you mean `祝儀`?"), "{d:?}");
}

#[test]
fn has_needs_one_bare_yaku_name() {
    let d = problems("r.has(三太)", "r.has(三太, ピン)");
    assert_eq!(d[0].0, "fuda::arity", "{d:?}");
    let d = problems("r.has(三太)", "r.has(\"三太\")");
    assert_eq!(d[0].0, "fuda::type-mismatch", "{d:?}");
    let d = problems("r.has(三太)", "r.had(三太)");
    assert_eq!(d[0].0, "fuda::unknown-field", "{d:?}");
    let d = problems("r.has(三太)", "r.total()");
    assert!(
        d[0].2
            .as_deref()
            .is_some_and(|h| h.contains("without parentheses")),
        "{d:?}"
    );
    let d = problems("not r.has(三太)", "not h.has(三太)");
    assert_eq!(d[0].0, "fuda::unknown-field", "{d:?}");
}
