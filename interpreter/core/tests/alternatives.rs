//! `pattern NAME = A | B | …`: a split of any alternative is a split of the union; a
//! score table over it keeps the most valuable split of any shape, reads `shape`, and
//! its result names the shape and shows that shape's groups only.

use fuda_core::loader::MemoryFiles;
use fuda_core::value::Value;
use fuda_core::State;

/// A mahjong ruleset with the stdlib's shapes and a table over `和了形`.
const RULES: &str = r#"ruleset "alternatives"
import "std/mahjong"
import "std/mahjong-shapes"
seats 2 { 2: 東 西 }
zone 山 shared stack hidden
proc match { }

score 役(h: cards) over 和了形(h) best {
  yaku all {
    七対子 25 when shape == 七対子
    対々和 2 when shape == 一般形 and all(m in 面子: count(c in m: c.face == m.face) == 3)
    一般 1 when shape == "一般形"
    国士 100 when shape == 国士無双
    三元頭 1 when shape != 七対子 and 頭.face in [白, 發, 中]
  }
}

test "a win by any form" {
  expect 和了形(cards("11223344556677m"))
  expect 和了形(cards("19m19p19s1234567z1m"))
  expect 和了形(cards("123456789m11p123s"))
  expect not 和了形(cards("123456789m11p124s"))
  expect not 和了形(cards("1122334455667m"))
}

test "the most valuable shape and split" {
  # Seven pairs and also pair + four runs: seven pairs pays more.
  expect 役(cards("11223344556677m")).total == 25
  # Four of a tile are not two pairs: only 一般形 holds.
  expect 役(cards("111222333444m55p")).total == 3
  expect 役(cards("111222333m444p55z")).total == 4
  expect 役(cards("19m19p19s1234567z1m")).total == 100
  expect 役(cards("123456789m11p124s")).total == 0
}

score 待ち(h: cards, w: card) over 一般形(h) best {
  yaku all {
    嵌張 1 when any(m in 面子: 嵌張(m, w))
    辺張 2 when any(m in 面子: 辺張(m, w))
    両面 4 when any(m in 面子: 両面(m, w))
    双碰 8 when any(m in 面子: 双碰(m, w))
    単騎 16 when 単騎(頭, w)
  }
}

test "the winning tile's place: std/mahjong-shapes' waits" {
  let h = cards("123m456m789p111s99s")
  expect 待ち(h, card(5m)).total == 1
  expect 待ち(h, card(3m)).total == 2
  expect 待ち(h, card(7p)).total == 2
  expect 待ち(h, card(9p)).total == 4
  expect 待ち(h, card(1s)).total == 8
  expect 待ち(h, card(9s)).total == 16
}

test "waits over every form" {
  # One tile from seven pairs (7m) and from 一般形 (1m 4m 7m …).
  expect waits(和了形, cards("1122334455667m")) == waits(一般形, cards("1122334455667m")) + waits(七対子, cards("1122334455667m"))
  # Thirteen-sided 国士.
  expect count(waits(和了形, cards("19m19p19s1234567z"))) == 13 * 4 - 13
}
"#;

fn program() -> fuda_core::ir::Program {
    match fuda_core::compile("alternatives.fuda", RULES, &MemoryFiles::default()) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    }
}

#[test]
fn in_file_tests_pass() {
    let p = program();
    let failed: Vec<String> = (0..p.tests.len())
        .filter_map(|i| {
            State::run_test(&p, i)
                .err()
                .map(|e| format!("{}: {}", p.tests[i].name, e.message))
        })
        .collect();
    assert!(failed.is_empty(), "{failed:#?}");
    assert_eq!(p.tests.len(), 4);
}

/// The result names the shape that held and carries only its groups.
#[test]
fn the_result_names_its_shape() {
    let p = program();
    let table = p.scores.iter().position(|s| s.name == "役").unwrap() as u16;
    let score = |hand: &str| {
        let cards = p.deck.parse_card_list(hand).unwrap().into_iter().collect();
        fuda_core::score::score_with(&p, table, vec![Some(Value::Cards(cards))]).unwrap()
    };
    let pairs = score("11223344556677m");
    assert_eq!(pairs.shape.as_deref(), Some("七対子"));
    let names: Vec<&str> = pairs.groups.iter().map(|(n, _)| &**n).collect();
    assert_eq!(names, ["対子"; 7]);
    let orphans = score("19m19p19s1234567z1m");
    assert_eq!(orphans.shape.as_deref(), Some("国士無双"));
    let names: Vec<&str> = orphans.groups.iter().map(|(n, _)| &**n).collect();
    assert_eq!(names, ["頭", "他"]);
    let melds = score("111222333m444p55z");
    assert_eq!(melds.shape.as_deref(), Some("一般形"));
    assert_eq!(melds.groups.len(), 5);
    assert_eq!(score("123456789m11p124s").shape, None);
}
