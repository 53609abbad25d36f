//! Wild cards (`group G: 3 same face | run number by suit wild 鬼`): jokers fill a
//! `same` group or a run's gaps and ends, never alone, never past a suit's values; a
//! group's `.attr` reads its natural cards; `waits`, formed groups and score tables
//! see them; misuse is a diagnostic with a did-you-mean.

use fuda_core::loader::MemoryFiles;
use fuda_core::State;

const RULES: &str = r#"ruleset "jokers"
import "std/mahjong"
seats 2 { 2: 東家 西家 }
zone 山 shared stack hidden

deck 鬼麻雀 extends mahjong {
  tags 鬼
  card JK1 "鬼一" suit=字牌 number=0 face=白 +鬼
  card JK2 "鬼二" suit=字牌 number=0 face=白 +鬼
}
cards 一鬼 = cards(JK1)

pattern 鬼和了 {
  group 頭: 2 same face wild 鬼
  group 面子*4: 3 same face | run number by suit wild 鬼
}
pattern 一鬼形 {
  group 頭: 2 same face
  group 面子: 3 same face | run number by suit wild 一鬼
}
pattern 対 { group 対: 2 same face wild 鬼 }
pattern 国士もどき {
  group 頭: 2 same face wild 鬼
  group 他: 3 distinct face
}

score 役(h: cards) over 鬼和了(h) best {
  yaku all {
    鬼なし 2 when count(c in h: c is 鬼) == 0
    頭白   1 when 頭.face == 白
    萬頭   1 when 頭.suit == 萬子
    刻子   1 when any(m in 面子: m.face == 五索 and count(c in m: c.number == 5) >= 1)
  }
}

proc match { shuffle 山 }

test "jokers fill in" {
  expect 鬼和了(cards("123m 456p 789s 11z 2m 3m JK1"))
  expect 鬼和了(cards("123m 456p 789s 1z JK1 55s JK2"))
  expect not 鬼和了(cards("123m 456p 789s 55z 1z 2z JK1"))
}

test "a run: a gap, either end, never past the suit" {
  let base = cards("123p 456p 789p 22s")
  expect 鬼和了(base + cards("1m 3m JK1"))            # the gap: 1-2-3
  expect 鬼和了(base + cards("8m 9m JK1"))            # 7-8-9, not 8-9-10
  expect 鬼和了(base + cards("1m 2m JK1"))            # 1-2-3, not 0-1-2
  expect 鬼和了(base + cards("9m JK1 JK2"))           # 7-8-9
  expect not 鬼和了(base + cards("1m 4m JK1"))        # too far apart
  expect not 鬼和了(base + cards("1m 1p JK1"))        # two suits
}

test "at least one natural card" {
  expect not 対(cards(JK1 JK2))
  expect 対(cards("5m") + cards(JK2))
}

test "a card set as the wild cards, and groups that name none" {
  expect 一鬼形(cards("11m 4m 6m") + cards(JK1))
  expect not 一鬼形(cards("11m 4m 6m") + cards(JK2))
  expect not 一鬼形(cards("4m 6m 7p") + cards(JK1 JK2))   # the pair names no wild card
  # In a `distinct` group a joker is just a card: its face is 白.
  expect 国士もどき(cards("11m 9m 7z") + cards(JK1))
  expect not 国士もどき(cards("11m 5z") + cards(JK1 JK2))
}

test "a group's attribute is its natural cards' value" {
  let r = 役(cards("123p 456p 789p 1m") + cards(JK1) + cards("5s 5s JK2"))
  expect r.has(萬頭)
  expect not r.has(頭白)
  expect r.has(刻子)
  expect not r.has(鬼なし)
  expect 役(cards("123p 456p 789p 55m 555s")).has(鬼なし)
}

test "waits: the jokers complete any hand one short" {
  let w = waits(鬼和了, cards("123m 456p 789s 11z 46m"))
  expect card(JK1) in w and card(JK2) in w
  expect card(5m) in w
  expect not (card(7m) in w)
}

test "formed groups with a joker" {
  expect 鬼和了(cards("123m 456p 11z 23m") + cards(JK2), [cards("78s") + cards(JK1)])
  expect not 鬼和了(cards("123m 456p 11z 23m") + cards(JK2), [cards("7p 9s") + cards(JK1)])
}
"#;

fn program(text: &str) -> fuda_core::Program {
    match fuda_core::compile("jokers.fuda", text, &MemoryFiles::default()) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    }
}

#[test]
fn jokers_stand_in_for_values() {
    let p = program(RULES);
    let failed: Vec<String> = (0..p.tests.len())
        .filter_map(|i| {
            State::run_test(&p, i)
                .err()
                .map(|e| format!("{}: {}", p.tests[i].name, e.message))
        })
        .collect();
    assert!(failed.is_empty(), "{failed:#?}");
}

/// The codes and help lines of a text's error diagnostics.
fn errors(text: &str) -> Vec<(String, String, String)> {
    match fuda_core::compile("bad.fuda", text, &MemoryFiles::default()) {
        Ok(_) => Vec::new(),
        Err(f) => f
            .diagnostics
            .iter()
            .map(|d| {
                (
                    d.code.to_string(),
                    d.message.clone(),
                    d.help.clone().unwrap_or_default(),
                )
            })
            .collect(),
    }
}

#[test]
fn a_misspelt_wild_name_gets_a_did_you_mean() {
    let text = RULES.replace(
        "group 頭: 2 same face wild 鬼\n  group 面子*4",
        "group 頭: 2 same face wild 鬼札\n  group 面子*4",
    );
    let errs = errors(&text);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert_eq!(errs[0].0, "fuda::unknown-wild");
    assert!(errs[0].2.contains("did you mean `鬼`"), "{errs:#?}");
}

#[test]
fn wild_on_a_group_with_nothing_to_stand_in_for_is_an_error() {
    for group in ["3 distinct face wild 鬼", "3 wild 鬼"] {
        let text = RULES.replace("group 他: 3 distinct face", &format!("group 他: {group}"));
        let errs = errors(&text);
        assert_eq!(errs.len(), 1, "{group}: {errs:#?}");
        assert_eq!(errs[0].0, "fuda::bad-wild", "{group}");
    }
}

#[test]
fn wild_is_no_reserved_word() {
    // An attribute, a zone and a group may still be called `wild`.
    let text = RULES
        .replace(
            "zone 山 shared stack hidden",
            "zone 山 shared stack hidden\nzone wild shared pile public",
        )
        .replace("group 他: 3 distinct face", "group wild: 3 distinct face");
    let p = program(&text);
    assert!(p
        .patterns
        .iter()
        .any(|pd| pd.slots.iter().any(|s| s.name == "wild")));
}
