//! Groups already formed (副露): `P(hand, formed)`, `waits(P, hand, formed)` and a score
//! table `over P(hand, formed)` split the hand and the formed sets together, each formed
//! set one whole group; `list of cards` variables hold them and `+` adds one.

use fuda_core::loader::MemoryFiles;
use fuda_core::State;

const RULES: &str = r#"ruleset "formed"
import "std/mahjong"
import "std/mahjong-shapes"
seats 2 { 2: 東 西 }
zone 山 shared stack hidden
zone 手牌 per seat pile owner
zone 晒し per seat pile public
var 副露: list of cards per seat = []

score 役(h: cards, 副: list of cards) over 和了形(h, 副) best {
  yaku all {
    門前 1 when count(副) == 0
    対々和 2 when shape == 一般形 and all(m in 面子: count(c in m: c.face == m.face) == 3)
    鳴き対々 1 when shape == 一般形 and any(m in 面子: m in 副 and count(c in m: c.face == m.face) == 3)
  }
}

proc match { }

test "formed groups" {
  let pon = cards("111m")
  let chi = cards("234p")
  expect 和了形(cards("123456m789s11z"), [chi])
  expect 和了形(cards("123m789s11z"), [chi, cards("456s")])
  expect not 和了形(cards("123456m789s11z"), [cards("23p")])
  expect 一般形(cards("22m"), [pon, chi, cards("567s"), cards("999s")])
  # A formed set is never split: 111m + 123m in the hand does not make 11m + 1123m.
  expect not 和了形(cards("1123m456p789s"), [cards("1111m") - cards("11m")])
  # Seven pairs cannot have a formed triplet.
  expect not 七対子(cards("11223344556m"), [cards("777z")])
  expect waits(和了形, cards("1123456m789s"), [chi]) == cards("1111m4444m7777m") - cards("1123456m789s")
  expect 役(cards("222m333m11z"), [pon, cards("999s")]).total == 3
  expect 役(cards("123m456m789s111p11z"), []).total == 1
  expect 役(cards("123m456m789s111p11z"), []).name == "門前"
}
"#;

/// Runs a ruleset's in-file tests: the failures, by name.
fn failures(text: &str) -> Vec<String> {
    let p = match fuda_core::compile("formed.fuda", text, &MemoryFiles::default()) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    };
    assert!(!p.tests.is_empty());
    (0..p.tests.len())
        .filter_map(|i| {
            State::run_test(&p, i)
                .err()
                .map(|e| format!("{}: {}", p.tests[i].name, e.message))
        })
        .collect()
}

#[test]
fn formed_groups_are_whole_groups_of_the_split() {
    let failed = failures(RULES);
    assert!(failed.is_empty(), "{failed:#?}");
}

/// A list variable per seat, grown by `+` in a game: the called melds of each seat.
#[test]
fn a_list_of_cards_grows_in_a_game() {
    let text = RULES.replace(
        "proc match { }",
        "proc match { }\n\
         proc 鳴く(s: seat, m: cards) { move m to 晒し[s]; 副露[s] = 副露[s] + [m] }\n\
         test \"two calls\" {\n\
           鳴く(0, cards(\"111m\"))\n\
           鳴く(0, cards(\"234p\"))\n\
           expect count(副露[0]) == 2 and count(副露[1]) == 0\n\
           expect 副露[0][1] == cards(\"234p\")\n\
           expect cards(\"111m\") in 副露[0]\n\
           expect 和了形(cards(\"22m\") + cards(\"567s999s\"), 副露[0])\n\
         }",
    );
    let failed = failures(&text);
    assert!(failed.is_empty(), "{failed:#?}");
}
