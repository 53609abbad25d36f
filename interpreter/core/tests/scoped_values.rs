//! A card attribute's values are scoped to it: a variable or zone may take a value's
//! name, the name alone then means the variable (or, in a def, which cannot read
//! variables, the value), and `ATTR.VALUE` always means the value.

use fuda_core::loader::NoFiles;
use fuda_core::State;

const RULES: &str = r#"
ruleset "scoped"
deck 漢字 {
  attribute kanji: 一 | 場 | 人 | 山
  attribute yomi: 場 | 人 | 一 | 山
  card k1 "一" kanji=一 yomi=場
  card k2 "場" kanji=場 yomi=人
  card k3 "人" kanji=人 yomi=一
  card k4 "山" kanji=山 yomi=山
}
enum 結果: 流局 | 和了
seats 2 { 2: a b }
zone 山 shared stack hidden
var 場: int = 0
def 場札(c: card) = c.kanji == 場
proc match {
  場 = 1
  if top(山).kanji == kanji.山 { 場 = 2 }
  outcome 結果.流局
}
test "the name alone is the variable; qualified, the value" {
  場 = 5
  expect 場 == 5
  expect card(k2).kanji == kanji.場
  expect card(k1).yomi == yomi.場
  expect not (card(k1).kanji == kanji.場)
  expect count(山) == 4
}
test "a def reads the name as the value" {
  expect 場札(card(k2)) and not 場札(card(k1))
}
test "an enum's value, qualified" {
  expect 結果.流局 == 流局 and 結果.和了 != 流局
}
"#;

#[test]
fn a_variable_and_a_zone_may_take_an_attribute_values_name() {
    let c = fuda_core::compile("scoped.fuda", RULES, &NoFiles)
        .unwrap_or_else(|f| panic!("{:#?}", f.diagnostics));
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    let p = c.program;
    for i in 0..p.tests.len() {
        if let Err(e) = State::run_test(&p, i) {
            panic!("test \"{}\": {}", p.tests[i].name, e.message);
        }
    }
}
