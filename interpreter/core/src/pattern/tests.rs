//! The search against the plain reference search ([`super::reference`]): on thousands of
//! random hands, every pattern shape gives the same splits in the same order (so a score
//! table keeps the same split on a tie).

use crate::engine::{Cx, EVAL_BUDGET};
use crate::ir::Loc;
use crate::loader::NoFiles;
use crate::model::{CardSet, GameRng};
use crate::Program;

/// Random hands a comparison draws: a third of `n` in a debug build, where each search
/// is many times slower, and `n` with optimisations (`cargo test --release`).
pub(super) fn hands(n: usize) -> usize {
    if cfg!(debug_assertions) {
        n / 3
    } else {
        n
    }
}

const SANGOHANA: &str = include_str!("../../../../rulesets/sangohana.fuda");

/// Patterns over the hanafuda deck: one attribute throughout (with copies, conditions
/// and requires), mixed attributes, runs, `distinct` and shapeless groups.
const HANAFUDA_PATTERNS: &str = r#"
ruleset "patterns"
import "std/hanafuda"
seats 2 { 2: A B }
zone 山 shared stack hidden
proc match { shuffle 山 }

pattern 四対 { group 対*4: 2 same month }
pattern 二三 {
  group 三*2: 3 same kind where count(c in 三: c.month <= 6) >= 1
  group 二: 2 same kind
  require 三[0].kind != 二.kind
}
pattern 月種 {
  group 月: 4 same month
  group 種*2: 2 same kind
}
pattern 並び {
  group 並*2: 3 run month | same month
  group 他: 2
}
pattern 散 {
  group 散: 4 distinct month
  group 残: 4 same kind
}
pattern 三五 {
  group 三: 3 same kind where count(c in 三: c.month <= 6) >= 1
  group 五: 5 same kind
  require 三.kind != 五.kind
  require count(c in 五: c.month >= 6) >= 2
}
pattern 自由 { group 甲: 3  group 乙*2: 2 where count(c in 乙: c.kind == 素) <= 1 }
"#;

pub(super) const MAHJONG_PATTERNS: &str = r#"
ruleset "mahjong patterns"
import "std/mahjong"
seats 2 { 2: A B }
zone 山 shared stack hidden
proc match { shuffle 山 }

pattern 一般形 {
  group 頭: 2 same face
  group 面子*4: 3 same face | run number by suit
}
pattern 七対子 {
  group 対*7: 2 same face
  require all(a in 対: count(b in 対: b.face == a.face) == 1)
}
# Names one copy of 五萬 (and of 一萬, 九萬 as a set): those faces' copies are told apart.
pattern 赤頭 {
  group 頭: 2 same face where not any(c in 頭: c in cards("5m"))
  group 面子*4: 3 same face | run number by suit
  require count(c in 面子[0]: c in cards("19m")) <= 1
}
# Groups of other sizes than a mahjong hand's: runs of four beside fours of a kind.
pattern 四連形 {
  group 頭: 3 same face
  group 組*3: 4 same face | run number by suit
}
"#;

pub(super) fn program(text: &str) -> Program {
    match crate::compile("t.fuda", text, &NoFiles) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    }
}

pub(super) fn pattern_named(p: &Program, name: &str) -> usize {
    p.patterns
        .iter()
        .position(|x| x.name == name)
        .unwrap_or_else(|| panic!("no pattern {name}"))
}

/// Every split (groups in slot order) of `cards`, from the search or the reference.
pub(super) fn splits(p: &Program, pat: usize, cards: CardSet, plain: bool) -> Vec<Vec<CardSet>> {
    let mut out = Vec::new();
    let mut f = |_: &mut Cx<'_>, gs: &[CardSet]| {
        out.push(gs.to_vec());
        Ok(true)
    };
    let pd = &p.patterns[pat];
    with_cx(p, |cx| {
        if plain {
            super::reference::for_each_match(cx, pd, cards, &mut f).expect("search");
        } else {
            super::for_each_match(cx, pd, cards, &mut f).expect("search");
        }
    });
    out
}

/// Runs `f` with an evaluation context of `p` and no game (what patterns need).
pub(super) fn with_cx<T>(p: &Program, f: impl FnOnce(&mut Cx<'_>) -> T) -> T {
    let mut locals = vec![crate::value::Value::Unit; 8];
    let mut cx = Cx {
        p,
        b: None,
        locals: &mut locals,
        groups: &[],
        budget: EVAL_BUDGET,
        at: Loc::default(),
    };
    f(&mut cx)
}

/// A random hand of `n` cards drawn from `pool` (biased towards few classes when the
/// pool is small, so that many hands match).
pub(super) fn hand(rng: &mut GameRng, pool: &[u16], n: usize) -> CardSet {
    let mut v = pool.to_vec();
    rng.shuffle(&mut v);
    v[..n].iter().copied().collect()
}

/// Runs both searches over `count` random hands of the pattern's size, from the whole
/// deck and from pools of `lo..=hi` random classes of `attr`; returns how many hands
/// matched.
fn compare(p: &Program, name: &str, attr: &str, (lo, hi): (u32, u32), count: usize) -> usize {
    let pat = pattern_named(p, name);
    let n = p.patterns[pat].size;
    let a = p.deck.attr_named(attr).expect("attribute");
    let classes = p.deck.classes(a).to_vec();
    let mut rng = GameRng::new(count as u64 ^ n as u64);
    let mut matched = 0;
    for i in 0..count {
        // Every third hand from the whole deck; the others from a few random classes.
        let pool: Vec<u16> = if i % 3 == 0 {
            (0..p.deck.len() as u16).collect()
        } else {
            let mut order: Vec<usize> = (0..classes.len()).collect();
            rng.shuffle(&mut order);
            let k = (lo + rng.below(hi - lo + 1)) as usize;
            let pool = order[..k.min(order.len())]
                .iter()
                .fold(CardSet::EMPTY, |s, c| s.union(classes[*c]));
            pool.iter().collect()
        };
        if pool.len() < n {
            continue;
        }
        let h = hand(&mut rng, &pool, n);
        let fast = splits(p, pat, h, false);
        let plain = splits(p, pat, h, true);
        assert_eq!(fast, plain, "pattern {name}, hand {h:?}");
        // Placing only the lowest copies left answers "is there a split" alike.
        let any = with_cx(p, |cx| {
            super::any_match(cx, &p.patterns[pat], h).expect("search")
        });
        assert_eq!(
            any,
            !plain.is_empty(),
            "any_match: pattern {name}, hand {h:?}"
        );
        matched += !fast.is_empty() as usize;
    }
    matched
}

#[test]
fn sangohana_splits_match_the_plain_search() {
    let p = program(SANGOHANA);
    let m = compare(&p, "役形", "kind", (2, 4), 4000);
    assert!(m > 200, "too few matching hands to compare: {m}");
}

#[test]
fn hanafuda_shapes_match_the_plain_search() {
    let p = program(HANAFUDA_PATTERNS);
    for (name, attr, classes) in [
        ("四対", "month", (2, 5)),
        ("二三", "kind", (2, 3)),
        ("月種", "month", (2, 4)),
        ("並び", "month", (2, 4)),
        ("散", "kind", (2, 3)),
        ("自由", "kind", (2, 4)),
    ] {
        let m = compare(&p, name, attr, classes, 1500);
        eprintln!("{name}: {m} matching hands");
        assert!(m > 20, "pattern {name}: too few matching hands: {m}");
    }
}

#[test]
fn mahjong_shapes_match_the_plain_search() {
    let p = program(MAHJONG_PATTERNS);
    let m = compare(&p, "一般形", "face", (5, 5), 1500);
    assert!(m > 0, "一般形: no matching hand");
    let m = compare(&p, "七対子", "face", (7, 7), 1500);
    assert!(m > 0, "七対子: no matching hand");
    let m = compare(&p, "赤頭", "face", (5, 5), 1500);
    assert!(m > 0, "赤頭: no matching hand");
    let told = p.patterns[pattern_named(&p, "赤頭")].told_apart;
    let five = p.deck.parse_cards(&["5m"]).expect("5m")[0];
    assert!(told.contains(five) && told.len() == 12, "{told:?}");
    // The pair must leave out the first 五萬, which the run takes: placing the lowest
    // copies of 五萬 in the pair would miss the only split.
    let pat = pattern_named(&p, "赤頭");
    let h: CardSet = p
        .deck
        .parse_cards(&["34555m123p456p789p"])
        .expect("hand")
        .into_iter()
        .collect();
    assert_eq!(splits(&p, pat, h, true).len(), 1, "one split");
    assert!(with_cx(&p, |cx| super::any_match(cx, &p.patterns[pat], h)
        .expect("search")));
}

/// The splits, the steps charged and the answer of the search for `cards`, or of the
/// full search even where the one split is known without it; `go` is what the
/// visitor answers.
fn charged(p: &Program, pat: usize, cards: CardSet, full: bool, go: bool) -> String {
    let pd = &p.patterns[pat];
    let Some(pre) = super::prepare(pd, cards) else {
        return "unprepared".into();
    };
    let mut out = Vec::new();
    let mut f = |_: &mut Cx<'_>, gs: &[CardSet]| {
        out.push(gs.to_vec());
        Ok(go)
    };
    let (stopped, budget) = with_cx(p, |cx| {
        let r = if full {
            let mut groups = vec![CardSet::EMPTY; pd.slots.len()];
            super::search_as(cx, pd, &pre, &mut f, &mut groups, false)
        } else {
            super::for_each_prepared(cx, pd, &pre, &mut f)
        };
        (r.expect("search"), cx.budget)
    });
    format!("{out:?} stopped {stopped} budget {budget}")
}

#[test]
fn the_only_split_is_charged_as_the_search_charges_it() {
    // Hands of two classes, so that many have one class per group: the one split is
    // then placed without the search, which must find it, stop on it, and charge the
    // steps exactly as the search does (with conditions and requires that fail too).
    for (text, names) in [
        (SANGOHANA, &["役形"][..]),
        (HANAFUDA_PATTERNS, &["三五", "二三"][..]),
    ] {
        let p = program(text);
        let kind = p.deck.attr_named("kind").expect("kind");
        let classes = p.deck.classes(kind).to_vec();
        let mut rng = GameRng::new(5);
        for name in names {
            let pat = pattern_named(&p, name);
            let mut found = 0;
            for _ in 0..hands(1500) {
                let mut order: Vec<usize> = (0..classes.len()).collect();
                rng.shuffle(&mut order);
                let pool: Vec<u16> = order[..2]
                    .iter()
                    .fold(CardSet::EMPTY, |s, c| s.union(classes[*c]))
                    .iter()
                    .collect();
                if pool.len() < p.patterns[pat].size {
                    continue;
                }
                let h = hand(&mut rng, &pool, p.patterns[pat].size);
                for go in [true, false] {
                    let fast = charged(&p, pat, h, false, go);
                    assert_eq!(fast, charged(&p, pat, h, true, go), "{name}, hand {h:?}");
                    found += fast.starts_with("[[") as usize;
                }
            }
            assert!(found > 20, "{name}: too few splits: {found}");
        }
    }
}

#[test]
fn hands_refused_by_their_classes_have_no_split() {
    // 役形 requires different kinds for its two groups, 三三二 for neighbouring ones of
    // three. A hand the class assignments refuse must have no split in the plain search,
    // and such hands must occur (eight kasu; 3 + 3 + 2 of one kind).
    let three = format!(
        "{}\n{}",
        HANAFUDA_PATTERNS,
        "pattern 三三二 {\n  group 甲: 3 same kind\n  group 乙: 3 same kind\n  group 丙: 2 same kind\n  \
         require 甲.kind != 乙.kind\n  require 乙.kind != 丙.kind\n}\n"
    );
    for (text, name, attr) in [
        (SANGOHANA, "役形", "kind"),
        (three.as_str(), "三三二", "kind"),
    ] {
        let p = program(text);
        let pat = pattern_named(&p, name);
        let pd = &p.patterns[pat];
        let pf = pd.prefilter.as_ref().expect("a prefilter");
        let a = p.deck.attr_named(attr).expect("attribute");
        let classes = p.deck.classes(a).to_vec();
        let mut rng = GameRng::new(11);
        let (mut refused, mut kept) = (0, 0);
        for i in 0..hands(3000) {
            // One or two classes, so that the counts often fit.
            let k = 1 + i % 2;
            let mut order: Vec<usize> = (0..classes.len()).collect();
            rng.shuffle(&mut order);
            let pool: Vec<u16> = order[..k]
                .iter()
                .fold(CardSet::EMPTY, |s, c| s.union(classes[*c]))
                .iter()
                .collect();
            if pool.len() < pd.size {
                continue;
            }
            let h = hand(&mut rng, &pool, pd.size);
            if !super::prefilter_passes(pf, h) {
                continue;
            }
            if super::assign::classes_allow(pd, pf, h) {
                kept += 1;
            } else {
                refused += 1;
                assert!(
                    splits(&p, pat, h, true).is_empty(),
                    "{name}: refused {h:?}, which has a split"
                );
                assert!(!super::may_fit(pd, h) && super::prepare(pd, h).is_none());
            }
        }
        assert!(
            refused > 50 && kept > 50,
            "{name}: {refused} refused, {kept} kept"
        );
    }
}

#[test]
fn subsets_list_every_k_subset_in_order() {
    let mut rng = GameRng::new(5);
    for _ in 0..200 {
        let n = 1 + rng.below(12) as usize;
        let all: Vec<u16> = (0..200).collect();
        let set = hand(&mut rng, &all, n);
        for k in 0..=n + 1 {
            let fast: Vec<CardSet> = super::Subsets::new(set, k).collect();
            assert_eq!(fast, super::combos_listed(set, k), "{set:?} choose {k}");
            if k > 0 {
                assert_eq!(fast.len() as u64, super::binomial(n, k));
            }
        }
    }
}

#[test]
fn above_keeps_the_cards_past_a_card() {
    let set: CardSet = [0u16, 5, 63, 64, 65, 127, 128, 200, 255]
        .into_iter()
        .collect();
    for f in [0u16, 4, 5, 62, 63, 64, 127, 128, 254, 255] {
        let want: CardSet = set.iter().filter(|c| *c > f).collect();
        assert_eq!(super::above(set, f), want, "above {f}");
    }
}

/// The pattern distance of `cards` (the greedy player's measure).
fn distance(p: &Program, pat: usize, cards: CardSet) -> usize {
    with_cx(p, |cx| super::distance(cx, &p.patterns[pat], cards))
        .expect("distance")
        .missing
}

/// The distance's contract on random hands of every pattern: a hand the search matches
/// is 0 away and one card short of it is 1 away; no hand is further than the pattern's
/// size or nearer than the cards it lacks.
#[test]
fn distance_is_zero_on_a_match_and_one_a_card_short() {
    for (text, pats) in [
        (SANGOHANA, vec![("役形", "kind", (2, 4))]),
        (
            HANAFUDA_PATTERNS,
            vec![
                ("四対", "month", (2, 5)),
                ("二三", "kind", (2, 3)),
                ("月種", "month", (2, 4)),
                ("並び", "month", (2, 4)),
                ("散", "kind", (2, 4)),
                ("自由", "kind", (2, 4)),
            ],
        ),
        (
            MAHJONG_PATTERNS,
            vec![("一般形", "face", (5, 5)), ("七対子", "face", (7, 7))],
        ),
    ] {
        let p = program(text);
        for (name, attr, (lo, hi)) in pats {
            let pat = pattern_named(&p, name);
            let n = p.patterns[pat].size;
            let a = p.deck.attr_named(attr).expect("attribute");
            let classes = p.deck.classes(a).to_vec();
            let mut rng = GameRng::new(n as u64);
            let mut matched = 0;
            for _ in 0..600 {
                let mut order: Vec<usize> = (0..classes.len()).collect();
                rng.shuffle(&mut order);
                let k = (lo + rng.below(hi - lo + 1)) as usize;
                let pool: Vec<u16> = order[..k.min(order.len())]
                    .iter()
                    .fold(CardSet::EMPTY, |s, c| s.union(classes[*c]))
                    .iter()
                    .collect();
                if pool.len() < n {
                    continue;
                }
                let h = hand(&mut rng, &pool, n);
                let d = distance(&p, pat, h);
                assert!(d <= n, "{name} {h:?}: {d}");
                if splits(&p, pat, h, false).is_empty() {
                    continue;
                }
                matched += 1;
                assert_eq!(d, 0, "{name} {h:?} matches");
                for c in h.iter() {
                    let mut short = h;
                    short.remove(c);
                    let d1 = distance(&p, pat, short);
                    assert_eq!(d1, 1, "{name} {h:?} without {c}");
                }
            }
            assert!(matched >= 3, "{name}: too few matching hands ({matched})");
            // Smaller random hands lack at least the missing cards.
            for m in 0..n {
                let all: Vec<u16> = (0..p.deck.len() as u16).collect();
                let h = hand(&mut rng, &all, m);
                let d = distance(&p, pat, h);
                assert!(d >= n - m && d <= n, "{name} {h:?}: {d}");
            }
        }
    }
}

/// For a pattern whose groups are all `same` on one attribute the distance is worked out
/// from the class counts: it must be what the search finds, on hands of every size drawn
/// from the whole deck and from a few classes (where groups compete for a class).
#[test]
fn class_count_distance_is_the_searched_distance() {
    let mut counted = 0;
    for (text, attr) in [
        (SANGOHANA, "kind"),
        (HANAFUDA_PATTERNS, "month"),
        (HANAFUDA_PATTERNS, "kind"),
        (MAHJONG_PATTERNS, "face"),
    ] {
        let p = program(text);
        let a = p.deck.attr_named(attr).expect("attribute");
        let classes = p.deck.classes(a).to_vec();
        let all: Vec<u16> = (0..p.deck.len() as u16).collect();
        for pd in p.patterns.iter().filter(|pd| pd.prefilter.is_some()) {
            counted += 1;
            let mut rng = GameRng::new(pd.size as u64 + 17);
            let mut scratch = super::DistanceScratch::default();
            for i in 0..hands(1500) {
                let pool: Vec<u16> = if i % 2 == 0 {
                    all.clone()
                } else {
                    let mut order: Vec<usize> = (0..classes.len()).collect();
                    rng.shuffle(&mut order);
                    let k = 1 + rng.below(3) as usize;
                    order[..k.min(order.len())]
                        .iter()
                        .fold(CardSet::EMPTY, |s, c| s.union(classes[*c]))
                        .iter()
                        .collect()
                };
                let m = (rng.below(pd.size as u32 + 3) as usize).min(pool.len());
                let h = hand(&mut rng, &pool, m);
                let (fast, searched) = with_cx(&p, |cx| {
                    (
                        super::distance_in(cx, pd, h, &mut scratch).map(|d| d.missing),
                        super::distance::search(cx, pd, h, &mut scratch).map(|d| d.missing),
                    )
                });
                assert_eq!(
                    fast.expect("distance"),
                    searched.expect("search"),
                    "{} {h:?}",
                    pd.name
                );
            }
        }
    }
    // 役形, 四対, 二三, 七対子 at least.
    assert!(counted >= 4, "only {counted} patterns with class counts");
}

/// A mahjong hand's groups each stay in one suit, so the distance is worked out suit by
/// suit (each suit by its counts, `by_counts.rs`, or searched when a group names some
/// copies) and combined: it must be what the search of the whole hand finds, on hands
/// drawn from one or two suits (groups compete within a suit) and from the whole set,
/// for groups of a mahjong hand's sizes and of others.
#[test]
fn distance_by_suit_is_the_searched_distance() {
    let p = program(MAHJONG_PATTERNS);
    let suit = p.deck.attr_named("suit").expect("suit");
    let suits = p.deck.classes(suit).to_vec();
    let all: Vec<u16> = (0..p.deck.len() as u16).collect();
    let names = ["一般形", "赤頭", "四連形", "七対子"];
    let mut rng = GameRng::new(29);
    let mut scratch = super::DistanceScratch::default();
    for i in 0..600 {
        let pat = &p.patterns[pattern_named(&p, names[i % names.len()])];
        let pool: Vec<u16> = match i % 3 {
            0 => all.clone(),
            1 => suits[rng.below(suits.len() as u32) as usize]
                .iter()
                .collect(),
            _ => {
                let a = rng.below(suits.len() as u32) as usize;
                let b = (a + 1 + rng.below(suits.len() as u32 - 1) as usize) % suits.len();
                suits[a].union(suits[b]).iter().collect()
            }
        };
        let m = [14, 11, 8, 5, 13][i % 5].min(pool.len());
        let h = hand(&mut rng, &pool, m);
        let (parts, searched) = with_cx(&p, |cx| {
            (
                super::distance_in(cx, pat, h, &mut scratch).map(|d| d.missing),
                super::distance::search(cx, pat, h, &mut scratch).map(|d| d.missing),
            )
        });
        assert_eq!(parts.expect("distance"), searched.expect("search"), "{h:?}");
    }
}

/// A hand whose `distinct` group must leave certain cards to the other group: taking
/// the first card of each month steals a card the `same kind` group needs.
#[test]
fn distance_tries_which_card_stands_for_a_distinct_value() {
    let p = program(HANAFUDA_PATTERNS);
    let pat = pattern_named(&p, "散");
    let h: CardSet = [0u16, 4, 8, 12, 31, 32, 35, 36].into_iter().collect();
    assert!(!splits(&p, pat, h, false).is_empty(), "the hand matches 散");
    assert_eq!(distance(&p, pat, h), 0);
}

/// A small tile deck with two jokers (`JK1`, `JK2`, tag 鬼): two suits of 1–9 and two
/// honours (number 0), four copies each; and patterns whose groups take wild cards.
fn wild_rules() -> String {
    let mut cards = String::new();
    for (suit, letter, base) in [("萬子", "m", 0), ("筒子", "p", 10)] {
        for n in 1..=9 {
            cards += &format!(
                "  card {n}{letter} \"{n}{letter}\" suit={suit} number={n} face={} x4\n",
                base + n
            );
        }
    }
    cards += "  card 1z \"東\" suit=字牌 number=0 face=21 x4\n";
    cards += "  card 2z \"南\" suit=字牌 number=0 face=22 x4\n";
    cards += "  card JK1 \"鬼一\" suit=無 number=0 face=0 +鬼\n";
    cards += "  card JK2 \"鬼二\" suit=無 number=0 face=0 +鬼\n";
    format!(
        r#"ruleset "wild"
seats 2 {{ 2: A B }}
zone 山 shared stack hidden
proc match {{ shuffle 山 }}
deck 鬼牌 {{
  attribute suit: 萬子 | 筒子 | 字牌 | 無
  attribute number: 0..9
  attribute face: int
  tags 鬼
{cards}}}
cards 赤五 = cards("5m")

pattern 小形 {{
  group 頭: 2 same face wild 鬼
  group 面子*2: 3 same face | run number by suit wild 鬼
}}
pattern 一般形 {{
  group 頭: 2 same face wild 鬼
  group 面子*4: 3 same face | run number by suit wild 鬼
}}
pattern 混形 {{
  group 刻: 3 same face wild 鬼
  group 散: 3 distinct face
  group 順: 4 run number by suit wild 鬼 where count(c in 順: c is 鬼) <= 1
  require 刻.face != 順.face
}}
pattern 半端 {{
  group 頭: 2 same face
  group 面子*2: 3 run number by suit wild 鬼
}}
pattern 長 {{
  group 順: 5 run number wild 鬼
  group 他: 3 same suit wild 鬼
}}
pattern 赤形 {{
  group 頭: 2 same face wild 赤五
  group 面子*2: 3 same face | run number by suit wild 赤五
}}
"#
    )
}

/// The wild patterns of [`wild_rules`].
const WILD_PATTERNS: [&str; 6] = ["小形", "一般形", "混形", "半端", "長", "赤形"];

/// A random hand for a wild pattern: from a few faces (so that many hands match) with
/// the jokers and the named 5m, or from the whole deck.
fn wild_hand(p: &Program, rng: &mut GameRng, n: usize, i: usize) -> Option<CardSet> {
    let face = p.deck.attr_named("face").expect("face");
    let faces = p.deck.classes(face).to_vec();
    let wild = p
        .wild
        .union(p.deck.parse_cards(&["5m"]).ok()?.into_iter().collect());
    let k = 2 + rng.below(4) as usize;
    let mut order: Vec<usize> = (0..faces.len()).collect();
    if i.is_multiple_of(2) {
        rng.shuffle(&mut order);
    } else {
        // Neighbouring faces (in value order: a suit's numbers), for runs.
        order.rotate_left(rng.below(faces.len() as u32) as usize);
    }
    let pool: Vec<u16> = if i.is_multiple_of(5) {
        (0..p.deck.len() as u16).collect()
    } else {
        order[..k]
            .iter()
            .fold(wild, |s, c| s.union(faces[*c]))
            .iter()
            .collect()
    };
    (pool.len() >= n).then(|| hand(rng, &pool, n))
}

#[test]
fn wild_groups_match_the_plain_search() {
    let p = program(&wild_rules());
    for name in WILD_PATTERNS {
        let pat = pattern_named(&p, name);
        let pd = &p.patterns[pat];
        assert!(
            pd.prefilter.is_none(),
            "{name}: wild cards need the full search"
        );
        let mut rng = GameRng::new(pd.size as u64 + 3);
        let (mut matched, mut with_wild) = (0, 0);
        for i in 0..hands(600) {
            let Some(h) = wild_hand(&p, &mut rng, pd.size, i) else {
                continue;
            };
            let fast = splits(&p, pat, h, false);
            let plain = splits(&p, pat, h, true);
            assert_eq!(fast, plain, "pattern {name}, hand {h:?}");
            let any = with_cx(&p, |cx| super::any_match(cx, pd, h).expect("search"));
            assert_eq!(any, !plain.is_empty(), "any_match: {name}, hand {h:?}");
            matched += !fast.is_empty() as usize;
            with_wild += (!fast.is_empty() && !h.inter(p.wild).is_empty()) as usize;
        }
        eprintln!("{name}: {matched} matched, {with_wild} with jokers");
        assert!(
            with_wild >= 5,
            "{name}: {matched} matched, {with_wild} with jokers"
        );
    }
}

/// Whether `g` fits `shape` with wild cards `wild`, written from the definition alone
/// (values and windows looked up card by card in the deck), for the brute force.
fn brute_fits(p: &Program, shape: &crate::ir::ShapeDef, wild: CardSet, g: CardSet) -> bool {
    use crate::ir::ShapeDef;
    let deck = &p.deck;
    let natural: Vec<u16> = g.iter().filter(|c| !wild.contains(*c)).collect();
    if natural.is_empty() && !wild.is_empty() {
        return matches!(shape, ShapeDef::Distinct(_)) && brute_fits(p, shape, CardSet::EMPTY, g);
    }
    let all = || 0..deck.len() as u16;
    match shape {
        ShapeDef::Same(a) => all().any(|v| {
            natural
                .iter()
                .all(|c| deck.attr(*a, *c) == deck.attr(*a, v))
        }),
        ShapeDef::Distinct(a) => g.iter().all(|c| {
            g.iter()
                .filter(|d| deck.attr(*a, *d) == deck.attr(*a, c))
                .count()
                == 1
        }),
        ShapeDef::Run(a, by) => {
            let k = g.len() as i64;
            // The (`by` value, value) pairs the deck's cards hold.
            let held: std::collections::BTreeSet<(i64, i64)> = all()
                .map(|c| (by.map_or(0, |b| deck.attr(b, c)), deck.attr(*a, c)))
                .collect();
            let by_of = |c: u16| by.map_or(0, |b| deck.attr(b, c));
            // A `by` value and a first value the deck holds, making a whole window
            // that holds every natural card once.
            held.iter().any(|&(line, v)| {
                (0..k).all(|d| held.contains(&(line, v + d)))
                    && natural.iter().all(|c| by_of(*c) == line)
                    && (0..k).all(|d| {
                        natural
                            .iter()
                            .filter(|c| deck.attr(*a, **c) == v + d)
                            .count()
                            <= 1
                    })
                    && natural
                        .iter()
                        .all(|c| (v..v + k).contains(&deck.attr(*a, *c)))
            })
        }
    }
}

/// Every split of `h` into the pattern's groups (copies of a `*N` group in order of
/// their lowest card), by dealing each card to every group in turn, and keeping the
/// deals whose groups fit: an exhaustive search sharing no code with the pattern's.
fn brute_splits(p: &Program, pat: usize, h: CardSet) -> Vec<Vec<CardSet>> {
    let pd = &p.patterns[pat];
    let cards: Vec<u16> = h.iter().collect();
    let n = pd.slots.len();
    let mut out = Vec::new();
    let mut groups = vec![CardSet::EMPTY; n];
    fn deal(
        p: &Program,
        pd: &crate::ir::PatternDef,
        cards: &[u16],
        groups: &mut Vec<CardSet>,
        out: &mut Vec<Vec<CardSet>>,
    ) {
        let Some((&c, rest)) = cards.split_first() else {
            let ok = pd
                .slots
                .iter()
                .zip(groups.iter())
                .enumerate()
                .all(|(i, (s, g))| {
                    g.len() == s.size
                        && (s.shapes.is_empty()
                            || s.shapes.iter().any(|sh| brute_fits(p, sh, s.wild, *g)))
                        && s.copy_of.is_none_or(|_| groups[i - 1].first() < g.first())
                });
            if ok {
                out.push(groups.clone());
            }
            return;
        };
        for i in 0..groups.len() {
            if groups[i].len() < pd.slots[i].size {
                groups[i].insert(c);
                deal(p, pd, rest, groups, out);
                groups[i].remove(c);
            }
        }
    }
    deal(p, pd, &cards, &mut groups, &mut out);
    out
}

/// Random hands against the exhaustive deal ([`brute_splits`]): the search finds every
/// split of the groups' shapes with wild cards standing in, and nothing else (the
/// patterns here have no `where` or `require`).
#[test]
fn wild_splits_are_every_deal_that_fits() {
    let p = program(&wild_rules());
    for name in ["小形", "半端", "長", "赤形"] {
        let pat = pattern_named(&p, name);
        let pd = &p.patterns[pat];
        let mut rng = GameRng::new(pd.size as u64 + 41);
        let mut matched = 0;
        for i in 0..hands(450) {
            let Some(h) = wild_hand(&p, &mut rng, pd.size, i) else {
                continue;
            };
            let mut fast = splits(&p, pat, h, false);
            let mut brute = brute_splits(&p, pat, h);
            fast.sort();
            brute.sort();
            assert_eq!(fast, brute, "pattern {name}, hand {h:?}");
            matched += !fast.is_empty() as usize;
        }
        assert!(matched >= 10, "{name}: too few matching hands ({matched})");
    }
}

/// A run without `by` whose value has cards of two suits: the run must take the 5 of the
/// other suit for the rest to make a group of one suit, and the distance finds it.
#[test]
fn a_wild_run_tries_each_kind_of_a_value() {
    let p = program(&wild_rules());
    let pat = pattern_named(&p, "長");
    // 1m 4m 5m 5m 6m 7m 5p 鬼: 3(鬼)-4-5p-6-7 and 1m 5m 5m.
    let h: CardSet = [0u16, 14, 16, 17, 20, 25, 53, 81].into_iter().collect();
    assert!(!splits(&p, pat, h, false).is_empty());
    assert_eq!(distance(&p, pat, h), 0);
}

/// The distance's contract with wild cards: a matching hand is 0 away, one card short
/// of it 1 away, and no hand further than the pattern's size.
#[test]
fn wild_distance_is_zero_on_a_match_and_one_a_card_short() {
    let p = program(&wild_rules());
    for name in ["小形", "一般形", "半端", "長", "赤形"] {
        let pat = pattern_named(&p, name);
        let n = p.patterns[pat].size;
        let mut rng = GameRng::new(n as u64 + 7);
        let mut matched = 0;
        for i in 0..hands(600) {
            let Some(h) = wild_hand(&p, &mut rng, n, i) else {
                continue;
            };
            let d = distance(&p, pat, h);
            assert!(d <= n, "{name} {h:?}: {d}");
            if splits(&p, pat, h, false).is_empty() {
                assert!(d > 0, "{name} {h:?} has no split but distance 0");
                continue;
            }
            matched += 1;
            assert_eq!(d, 0, "{name} {h:?} matches");
            for c in h.iter() {
                let mut short = h;
                short.remove(c);
                assert_eq!(distance(&p, pat, short), 1, "{name} {h:?} without {c}");
            }
        }
        assert!(matched >= 10, "{name}: too few matching hands ({matched})");
    }
}
