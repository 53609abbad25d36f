//! Word lists and `word(LIST, cards, ATTR)` on a tiny kanji deck: two- and
//! three-character words in any order, 々, repeated values, lists read from a data file,
//! use in patterns and guards, and the warnings a list can draw.

use fuda_core::loader::MemoryFiles;

/// A deck of one card per kanji (two 人, two 日), a joker-like 々, and a word list.
const DECK: &str = r#"
ruleset "words"
deck 漢字 {
  attribute kanji: 一 | 石 | 二 | 鳥 | 人 | 々 | 日 | 本 | 音 | 意 | 用 | 後 | 半 | 生
  attribute rank: int
  card k1  "一" kanji=一 rank=1
  card k2  "石" kanji=石 rank=2
  card k3  "二" kanji=二 rank=3
  card k4  "鳥" kanji=鳥 rank=4
  card hito "人" kanji=人 rank=5 x2
  card jk  "々" kanji=々 rank=0
  card hi  "日" kanji=日 rank=6 x2
  card k8  "本" kanji=本 rank=7
  card k9  "音" kanji=音 rank=8
  card k10 "意" kanji=意 rank=9
  card k11 "用" kanji=用 rank=10
  card k12 "後" kanji=後 rank=11
  card k13 "半" kanji=半 rank=12
  card k14 "生" kanji=生 rank=13
}
seats 2 { 2: 親 子 }
zone 山札 shared stack hidden
zone 手札 per seat pile owner
"#;

fn compile(text: &str, files: Vec<(&str, &str)>) -> fuda_core::Compiled {
    let files = MemoryFiles(
        files
            .into_iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect(),
    );
    match fuda_core::compile("t.fuda", text, &files) {
        Ok(c) => c,
        Err(f) => panic!("{:#?}", f.diagnostics),
    }
}

fn run_tests(p: &fuda_core::Program) {
    assert!(!p.tests.is_empty());
    for i in 0..p.tests.len() {
        if let Err(e) = fuda_core::State::run_test(p, i) {
            panic!("test \"{}\": {}", p.tests[i].name, e.message);
        }
    }
}

#[test]
fn inline_words_in_any_order_with_repeats_and_noma() {
    let text = format!(
        "{DECK}{}",
        r#"
words 熟語 { 一石 二鳥 人々 日本 本音 用意 後半生 日日 一石二鳥 }

def 語(a: card, b: card) = word(熟語, cards() + a + b, kanji)

test "a two-character word, in either order" {
  expect word(熟語, cards(k1 k2), kanji)
  expect 語(card(k1), card(k2))
  expect 語(card(k2), card(k1))
  expect 語(card(k3), card(k4))
}
test "a three-character word, in any order" {
  expect word(熟語, cards(k12 k13 k14), kanji)
  expect word(熟語, cards() + card(k14) + card(k12) + card(k13), kanji)
  expect not word(熟語, cards(k12 k13), kanji)          # 後半 is not listed
}
test "a four-character word" {
  expect word(熟語, cards(k4 k3 k2 k1), kanji)
}
test "々 repeats the kanji before it: X々 must be listed" {
  expect word(熟語, cards(hito jk), kanji)
  expect not word(熟語, cards(hi jk), kanji)            # 日々 is not listed
}
test "non-words" {
  expect not word(熟語, cards(k1 k3), kanji)
  expect not word(熟語, cards(k1 k2 k3), kanji)         # a word plus a card
  expect not word(熟語, cards(k1), kanji)
  expect not word(熟語, cards(), kanji)
}
test "a repeated value needs as many cards" {
  expect word(熟語, cards(hi hi), kanji)                # two 日 cards: 日日
  expect not word(熟語, cards(hi), kanji)
  expect not word(熟語, cards(hito hito), kanji)        # 人人 is not listed (人々 is)
}
test "a zone and a single card read as cards" {
  move cards(k8 k9) to 手札[0]
  expect word(熟語, 手札[0], kanji)
  expect not word(熟語, card(k8), kanji)
  expect word(熟語, 手札[0] + card(hi) - card(k9), kanji)
}
"#
    );
    let c = compile(&text, vec![]);
    assert!(c.warnings.is_empty(), "{:#?}", c.warnings);
    assert_eq!(
        c.program.words.len(),
        1,
        "one list, one attribute: one index"
    );
    run_tests(&c.program);
}

#[test]
fn a_list_from_a_data_file_in_patterns_and_guards() {
    let dict = "# 二字熟語 (two-character words)\n一石\n二鳥  # a comment after a word\n\n人々\n本音\n用意\n一石\n";
    let text = format!(
        "{DECK}{}",
        r#"
words 二字 from "dict/jukugo.txt"

pattern 三語 { group 語*3: 2 where word(二字, 語, kanji) }

proc match {
  gather 山札
  move cards(k1 k2 k3 k4 hito jk) to 手札[0]
  choose 0 {
    move 上がり when 三語(手札[0]) { outcome "上がり" }
    move 待つ { }
  }
}

test "three two-character words make the hand" {
  expect 三語(cards(k1 k2 k3 k4 hito jk))
  expect 三語(cards(k8 k9 k10 k11 k1 k2))
  expect not 三語(cards(k1 k2 k3 k4 hito hi))
}
test "the guard offers the win" {
  answer 上がり
  match()
}
"#
    );
    let c = compile(&text, vec![("dict/jukugo.txt", dict)]);
    assert!(c.warnings.is_empty(), "{:#?}", c.warnings);
    let file = c
        .program
        .sources
        .iter()
        .find(|s| s.name == "dict/jukugo.txt")
        .expect("the data file is one of the program's sources");
    assert_eq!(&*file.text, dict);
    run_tests(&c.program);
}

#[test]
fn words_no_cards_can_spell_are_a_warning() {
    let text = format!(
        "{DECK}{}",
        r#"
words 熟語 { 一石 鳥獣 人人人 日日日 }
def f(g: cards) = word(熟語, g, kanji)
"#
    );
    let c = compile(&text, vec![]);
    let [w] = c.warnings.as_slice() else {
        panic!("{:#?}", c.warnings)
    };
    assert_eq!(w.code, "fuda::unspellable-words");
    assert!(
        w.message
            .starts_with("3 of the 4 words of `熟語` cannot be spelled"),
        "{}",
        w.message
    );
    assert!(w.message.ends_with("鳥獣, 人人人, 日日日"), "{}", w.message);
}

#[test]
fn one_list_may_be_spelled_with_two_attributes() {
    // Symbols are one namespace: the second attribute's values are ASCII names.
    let text = r#"
ruleset "two attributes"
deck d {
  attribute kanji: 上 | 下
  attribute kana: ue | shita
  card a "上" kanji=上 kana=ue
  card b "下" kanji=下 kana=shita
}
seats 2 { 2: A B }
zone 山 shared stack hidden
words 語 { 上下 ueshita }
test "each attribute spells its own words" {
  expect word(語, cards(a b), kanji)
  expect word(語, cards(a b), kana)
}
"#;
    let c = compile(text, vec![]);
    assert_eq!(c.program.words.len(), 2);
    assert_eq!(
        c.warnings.len(),
        2,
        "each attribute leaves one word unspelled"
    );
    run_tests(&c.program);
}

#[test]
fn the_stdlib_jukugo_deck_spells_its_shipped_word_list() {
    let text = r#"
ruleset "jukugo deck"
import "std/jukugo"
words 熟語 from "std/jukugo/words.txt"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
zone 場 shared pile public
test "words of the deck, in any order, and the joker as 々" {
  expect word(熟語, cards(2S AS), kanji)            # 中年
  expect word(熟語, cards(AS 2S), kanji)
  expect word(熟語, cards(6S JK1), kanji)           # 先々
  expect not word(熟語, cards(6S JK1 JK2), kanji)
  expect count(deck) == 54 and sum(c in deck: c.points) == 153
  expect card(KD).kanji == kanji.場 and card(AS).rank == 14
  expect count(c in deck: c is ジョーカー) == 2
}
"#;
    let c = compile(text, vec![]);
    // Every word of the list is spelled by the deck's kanji.
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    // Spellings, a word and its reversal counting once (中年, 年中): 123 + 3 + 9.
    let w = &c.program.words[0];
    let spellings: usize = (1..w.keys.len()).map(|n| w.keys[n].len() / n).sum();
    assert_eq!(spellings, 135);
    run_tests(&c.program);
}
