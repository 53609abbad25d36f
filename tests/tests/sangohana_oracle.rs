//! 珊瑚花 Sangohana 役代: an independent scorer written from `docs/games/sangohana.md`
//! (and its worked examples, the original rules' among them), compared hand by hand with
//! what fuda computes from `rulesets/sangohana.fuda`. Outside implementations of the page
//! will be checked against fuda's `score` output, so a misreading in the rule file must be
//! caught by a test that shares none of its logic: this oracle never looks at the rule
//! file's code, only at its score table's name and parameters.

use fuda_tests::oracle::{check, Rng};
use fuda_tests::sangohana::Table;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use fuda_core::model::{CardIx, CardSet};
use fuda_core::value::ScoreResult;

// ---------------------------------------------------------------------------------------
// The cards, from docs/games/README.md § Card ids (not from std/hanafuda).
// ---------------------------------------------------------------------------------------

/// The four standard (hachi-hachi) classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// 光 hikari: crane, curtain, moon, rainman, phoenix.
    Hikari,
    /// 種 tane: the nine animal/object cards.
    Tane,
    /// 短 tan: the ten ribbons.
    Tan,
    /// 素 kasu: the 24 others (11-kasu and 12-kasu-yellow included).
    Kasu,
}

impl Kind {
    fn kanji(self) -> &'static str {
        match self {
            Kind::Hikari => "光",
            Kind::Tane => "種",
            Kind::Tan => "短",
            Kind::Kasu => "素",
        }
    }
}

/// The tags the 役代 reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tag {
    None,
    /// 赤短: the ribbons of months 1, 2, 3.
    Akatan,
    /// 青短: the ribbons of months 6, 9, 10.
    Aotan,
    /// 黄桐: 12-kasu-yellow, which never makes a month-12 pair.
    Kikiri,
}

// Short names for the table below (R for ribbon, as T is taken by tane).
use Kind::{Hikari as H, Kasu as K, Tan as R, Tane as T};
use Tag::{Akatan as AKA, Aotan as AO, Kikiri as KI, None as NO};

/// The 48 cards: id, month, kind, tag.
const CARDS: [(&str, u8, Kind, Tag); 48] = [
    ("1-crane", 1, H, NO),
    ("1-ribbon", 1, R, AKA),
    ("1-kasu-a", 1, K, NO),
    ("1-kasu-b", 1, K, NO),
    ("2-warbler", 2, T, NO),
    ("2-ribbon", 2, R, AKA),
    ("2-kasu-a", 2, K, NO),
    ("2-kasu-b", 2, K, NO),
    ("3-curtain", 3, H, NO),
    ("3-ribbon", 3, R, AKA),
    ("3-kasu-a", 3, K, NO),
    ("3-kasu-b", 3, K, NO),
    ("4-cuckoo", 4, T, NO),
    ("4-ribbon", 4, R, NO),
    ("4-kasu-a", 4, K, NO),
    ("4-kasu-b", 4, K, NO),
    ("5-bridge", 5, T, NO),
    ("5-ribbon", 5, R, NO),
    ("5-kasu-a", 5, K, NO),
    ("5-kasu-b", 5, K, NO),
    ("6-butterflies", 6, T, NO),
    ("6-ribbon", 6, R, AO),
    ("6-kasu-a", 6, K, NO),
    ("6-kasu-b", 6, K, NO),
    ("7-boar", 7, T, NO),
    ("7-ribbon", 7, R, NO),
    ("7-kasu-a", 7, K, NO),
    ("7-kasu-b", 7, K, NO),
    ("8-moon", 8, H, NO),
    ("8-geese", 8, T, NO),
    ("8-kasu-a", 8, K, NO),
    ("8-kasu-b", 8, K, NO),
    ("9-cup", 9, T, NO),
    ("9-ribbon", 9, R, AO),
    ("9-kasu-a", 9, K, NO),
    ("9-kasu-b", 9, K, NO),
    ("10-deer", 10, T, NO),
    ("10-ribbon", 10, R, AO),
    ("10-kasu-a", 10, K, NO),
    ("10-kasu-b", 10, K, NO),
    ("11-rainman", 11, H, NO),
    ("11-swallow", 11, T, NO),
    ("11-ribbon", 11, R, NO),
    ("11-kasu", 11, K, NO),
    ("12-phoenix", 12, H, NO),
    ("12-kasu-a", 12, K, NO),
    ("12-kasu-b", 12, K, NO),
    ("12-kasu-yellow", 12, K, KI),
];

/// A card, as an index into [`CARDS`].
type Card = usize;

fn id(c: Card) -> &'static str {
    CARDS[c].0
}
fn month(c: Card) -> u8 {
    CARDS[c].1
}
fn kind(c: Card) -> Kind {
    CARDS[c].2
}
fn tag(c: Card) -> Tag {
    CARDS[c].3
}

fn card(name: &str) -> Card {
    CARDS
        .iter()
        .position(|(i, ..)| *i == name)
        .unwrap_or_else(|| panic!("no card `{name}` in the oracle's table"))
}

fn ids(cs: &[Card]) -> String {
    cs.iter().map(|&c| id(c)).collect::<Vec<_>>().join(" ")
}

// ---------------------------------------------------------------------------------------
// The oracle: docs/games/sangohana.md § Yaku (the shape rules and the table of values),
// § Multipliers, § Timing bonuses.
// ---------------------------------------------------------------------------------------

/// The ten yaku, in the page's order (the order of their base values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Yaku {
    Suyaku,
    Shimotanzaku,
    Shimonotane,
    Shimosanko,
    Kamitanzaku,
    Kaminotane,
    Tansanko,
    Tanesanko,
    Shimogoko,
    Kamigoko,
}

impl Yaku {
    fn name(self) -> &'static str {
        match self {
            Yaku::Suyaku => "素役",
            Yaku::Shimotanzaku => "下短冊",
            Yaku::Shimonotane => "下ノ種",
            Yaku::Shimosanko => "下三光",
            Yaku::Kamitanzaku => "上短冊",
            Yaku::Kaminotane => "上ノ種",
            Yaku::Tansanko => "短三光",
            Yaku::Tanesanko => "種三光",
            Yaku::Shimogoko => "下五光",
            Yaku::Kamigoko => "上五光",
        }
    }

    fn base(self) -> i64 {
        match self {
            Yaku::Suyaku => 1,
            Yaku::Shimotanzaku => 2,
            Yaku::Shimonotane => 3,
            Yaku::Shimosanko => 5,
            Yaku::Kamitanzaku => 6,
            Yaku::Kaminotane => 7,
            Yaku::Tansanko => 10,
            Yaku::Tanesanko => 12,
            Yaku::Shimogoko => 15,
            Yaku::Kamigoko => 20,
        }
    }

    /// The page's table of yaku: the yaku of a 3-group kind and a 5-group kind.
    fn of(three: Kind, five: Kind) -> Option<Yaku> {
        use Kind::*;
        Some(match (three, five) {
            (Tane | Tan, Kasu) => Yaku::Suyaku,
            (Kasu, Tan) => Yaku::Shimotanzaku,
            (Kasu, Tane) => Yaku::Shimonotane,
            (Hikari, Kasu) => Yaku::Shimosanko,
            (Tane, Tan) => Yaku::Kamitanzaku,
            (Tan, Tane) => Yaku::Kaminotane,
            (Hikari, Tan) => Yaku::Tansanko,
            (Hikari, Tane) => Yaku::Tanesanko,
            (Kasu, Hikari) => Yaku::Shimogoko,
            (Tane | Tan, Hikari) => Yaku::Kamigoko,
            // "the two groups are of different kinds"
            _ => return None,
        })
    }

    const ALL: [Yaku; 10] = [
        Yaku::Suyaku,
        Yaku::Shimotanzaku,
        Yaku::Shimonotane,
        Yaku::Shimosanko,
        Yaku::Kamitanzaku,
        Yaku::Kaminotane,
        Yaku::Tansanko,
        Yaku::Tanesanko,
        Yaku::Shimogoko,
        Yaku::Kamigoko,
    ];
}

/// A multiplier from the cards, one per case docs/games/sangohana.md § Multipliers lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Boost {
    /// kasu 5-group: two same-month pairs ×2.
    TwoPairs,
    /// kasu 5-group: all three month-12 kasu ×3.
    KiriThree,
    /// kasu 5-group: two pairs and the fifth card is 11-kasu ×3.
    TwoPairsWillow,
    /// kasu 5-group: all three month-12 kasu plus another same-month pair ×4.
    KiriThreeAndPair,
    /// tan 3-group exactly 赤短 ×2.
    Akatan,
    /// tan 3-group exactly 青短 ×2.
    Aotan,
    /// kasu 3-group: all three month-12 kasu ×3.
    KiriThreeLow,
}

impl Boost {
    fn factor(self) -> i64 {
        match self {
            Boost::TwoPairs | Boost::Akatan | Boost::Aotan => 2,
            Boost::KiriThree | Boost::TwoPairsWillow | Boost::KiriThreeLow => 3,
            Boost::KiriThreeAndPair => 4,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Boost::TwoPairs => "素札5枚に同月2組 ×2",
            Boost::KiriThree => "素札5枚に桐のカス3枚 ×3",
            Boost::TwoPairsWillow => "素札5枚に同月2組+柳のカス ×3",
            Boost::KiriThreeAndPair => "素札5枚に桐のカス3枚+同月2枚 ×4",
            Boost::Akatan => "短札3枚が赤短 ×2",
            Boost::Aotan => "短札3枚が青短 ×2",
            Boost::KiriThreeLow => "素札3枚が桐のカス3枚 ×3",
        }
    }

    const ALL: [Boost; 7] = [
        Boost::TwoPairs,
        Boost::KiriThree,
        Boost::TwoPairsWillow,
        Boost::KiriThreeAndPair,
        Boost::Akatan,
        Boost::Aotan,
        Boost::KiriThreeLow,
    ];
}

/// How a hand was won (the table's `win`, `first_turn`, `as_dealt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Timing {
    /// 当たり (a discard) rather than 上がり (the stock).
    atari: bool,
    first_turn: bool,
    as_dealt: bool,
}

/// The contexts every hand is scored in: plain, 福上がり, and both forms of 福当たり.
const TIMINGS: [(&str, Timing); 4] = [
    (
        "上がり",
        Timing {
            atari: false,
            first_turn: false,
            as_dealt: false,
        },
    ),
    (
        "福上がり",
        Timing {
            atari: false,
            first_turn: true,
            as_dealt: false,
        },
    ),
    (
        "福当たり(配られたまま)",
        Timing {
            atari: true,
            first_turn: true,
            as_dealt: true,
        },
    ),
    (
        "福当たり(手替わり)",
        Timing {
            atari: true,
            first_turn: true,
            as_dealt: false,
        },
    ),
];

impl Timing {
    /// § Timing bonuses, "added after multiplying": 福上がり +15 (上がり on one's first
    /// turn); 福当たり +12 if the hand is still as dealt, +10 if it has changed.
    fn bonus(self) -> i64 {
        match (self.atari, self.first_turn, self.as_dealt) {
            (_, false, _) => 0,
            (false, true, _) => 15,
            (true, true, true) => 12,
            (true, true, false) => 10,
        }
    }
}

/// A winning hand, as docs/games/sangohana.md scores it.
#[derive(Clone, Debug)]
struct Win {
    three: Vec<Card>,
    five: Vec<Card>,
    yaku: Yaku,
    boosts: Vec<Boost>,
    factor: i64,
    /// base × factor (before any timing bonus).
    value: i64,
    /// The name: a named upgrade, "<yaku>の<n>倍付け", or the yaku's own.
    name: String,
}

/// The oracle's answer for one hand, with its reasoning.
#[derive(Clone, Debug)]
struct Verdict {
    win: Option<Win>,
    /// Why the hand scores what it does, for failure messages.
    why: String,
    /// The hand had the 3 + 5 kind shape of a kasu-5 yaku but its kasu held no pair.
    no_pair: bool,
    /// ... and among them, it held 12-kasu-yellow with one other month-12 kasu (a
    /// pair-lookalike the page excludes).
    yellow_lookalike: bool,
}

impl Verdict {
    fn total(&self, t: Timing) -> i64 {
        // A bonus is paid on a win only: a hand with no yaku is not a win at all.
        self.win.as_ref().map_or(0, |w| w.value + t.bonus())
    }
}

/// Months holding a same-month pair among `kasu`. "`12-kasu-yellow` (黄桐) never makes a
/// pair. Month 11 has a single kasu, so it never pairs": 黄桐 is simply left out of the
/// count.
fn pair_months(kasu: &[Card]) -> Vec<u8> {
    let mut n = [0u8; 13];
    for &c in kasu {
        if tag(c) != Tag::Kikiri {
            n[month(c) as usize] += 1;
        }
    }
    (1..=12u8).filter(|&m| n[m as usize] >= 2).collect()
}

/// All three month-12 kasu (12-kasu-a, 12-kasu-b, 12-kasu-yellow) are in `cs`.
fn kiri_three(cs: &[Card]) -> bool {
    cs.iter()
        .filter(|&&c| month(c) == 12 && kind(c) == Kind::Kasu)
        .count()
        == 3
}

/// Scores 8 cards as docs/games/sangohana.md § Yaku and § Multipliers say.
fn oracle(hand: &[Card]) -> Verdict {
    assert_eq!(hand.len(), 8, "a 珊瑚花 hand has 8 cards");
    let mut why = String::new();
    let mut by_kind: BTreeMap<Kind, Vec<Card>> = BTreeMap::new();
    for &c in hand {
        by_kind.entry(kind(c)).or_default().push(c);
    }
    let shape: Vec<String> = by_kind
        .iter()
        .map(|(k, cs)| format!("{}{}", k.kanji(), cs.len()))
        .collect();
    let _ = write!(why, "kinds {}", shape.join(" "));
    let none = |why: String| Verdict {
        win: None,
        why,
        no_pair: false,
        yellow_lookalike: false,
    };
    // "The eight cards must split into a 3-group (三) and a 5-group (五)", each group "of
    // one kind only", "the two groups are of different kinds". So the hand holds exactly
    // two kinds, three cards of one and five of the other, and the split is the hand's
    // kinds themselves. (So, as the page's reading says, a hand that admits several splits
    // never arises with the standard kinds: the split is unique, and so is the yaku and its
    // name.)
    let groups: Vec<(&Kind, &Vec<Card>)> = by_kind.iter().collect();
    let (three, five) = match groups.as_slice() {
        [(_, a), (_, b)] if a.len() == 3 && b.len() == 5 => ((*a).clone(), (*b).clone()),
        [(_, a), (_, b)] if a.len() == 5 && b.len() == 3 => ((*b).clone(), (*a).clone()),
        _ => return none(why + ": not one kind ×3 + another kind ×5, no yaku"),
    };
    let yaku = Yaku::of(kind(three[0]), kind(five[0])).expect("two different kinds");
    let _ = write!(
        why,
        "; 3-group [{}], 5-group [{}]; {} {}",
        ids(&three),
        ids(&five),
        yaku.name(),
        yaku.base()
    );
    let mut boosts = Vec::new();
    match kind(five[0]) {
        Kind::Kasu => {
            // "a kasu 5-group holds at least one same-month pair of kasu"
            let pairs = pair_months(&five);
            let _ = write!(why, "; 5-group pairs in months {pairs:?}");
            if pairs.is_empty() {
                let twelves: Vec<Card> = five.iter().copied().filter(|&c| month(c) == 12).collect();
                // Two month-12 kasu and still no pair: one of them is 黄桐.
                return Verdict {
                    win: None,
                    why: why + ": a kasu 5-group without a same-month pair, no yaku",
                    no_pair: true,
                    yellow_lookalike: twelves.len() == 2,
                };
            }
            // "Within a group only the largest multiplier that applies counts"
            let kiri = kiri_three(&five);
            let willow = five.iter().any(|&c| id(c) == "11-kasu");
            let other_pair = pairs.iter().any(|&m| m != 12);
            let b = if kiri && other_pair {
                Some(Boost::KiriThreeAndPair)
            } else if kiri {
                Some(Boost::KiriThree)
            } else if pairs.len() >= 2 && willow {
                Some(Boost::TwoPairsWillow)
            } else if pairs.len() >= 2 {
                Some(Boost::TwoPairs)
            } else {
                None
            };
            boosts.extend(b);
        }
        Kind::Tan | Kind::Tane | Kind::Hikari => {
            // "Ribbons in a 5-group never count."
        }
    }
    match kind(three[0]) {
        Kind::Tan => {
            // "the three ribbons are exactly 赤短 (months 1, 2, 3): ×2; exactly 青短 (months
            // 6, 9, 10): ×2"
            if three.iter().all(|&c| tag(c) == Tag::Akatan) {
                boosts.push(Boost::Akatan);
            } else if three.iter().all(|&c| tag(c) == Tag::Aotan) {
                boosts.push(Boost::Aotan);
            }
        }
        Kind::Kasu => {
            if kiri_three(&three) {
                boosts.push(Boost::KiriThreeLow);
            }
        }
        Kind::Tane | Kind::Hikari => {}
    }
    // "multipliers from different groups multiply"
    let factor: i64 = boosts.iter().map(|b| b.factor()).product();
    let value = yaku.base() * factor;
    for b in &boosts {
        let _ = write!(why, "; {}", b.describe());
    }
    let name = match (yaku, boosts.as_slice()) {
        (Yaku::Kamigoko, [Boost::Akatan]) => "赤五光".to_string(),
        (Yaku::Kamigoko, [Boost::Aotan]) => "青五光".to_string(),
        (Yaku::Shimogoko, [Boost::KiriThreeLow]) => "桐五光".to_string(),
        (y, _) if factor > 1 => format!("{}の{}倍付け", y.name(), factor),
        (y, _) => y.name().to_string(),
    };
    let _ = write!(why, "; factor {factor}, {name} {value}");
    Verdict {
        win: Some(Win {
            three,
            five,
            yaku,
            boosts,
            factor,
            value,
            name,
        }),
        why,
        no_pair: false,
        yellow_lookalike: false,
    }
}

// ---------------------------------------------------------------------------------------
// The engine.
// ---------------------------------------------------------------------------------------

/// The rule file's 役代 table, and the way from oracle cards to engine cards.
struct Engine {
    t: Table,
    /// Engine card index of each oracle card.
    ix: [CardIx; 48],
}

impl Engine {
    fn new() -> Engine {
        let t = Table::new();
        let ix = std::array::from_fn(|c| t.card(id(c)));
        Engine { t, ix }
    }

    fn set(&self, hand: &[Card]) -> CardSet {
        hand.iter().map(|&c| self.ix[c]).collect()
    }

    fn score(&self, hand: &[Card], t: Timing) -> ScoreResult {
        self.t
            .score(self.set(hand), t.atari, t.first_turn, t.as_dealt)
            .unwrap_or_else(|e| panic!("役代 fails on [{}]: {e}", ids(hand)))
    }

    /// Every field of a result, on one line, with card ids.
    fn describe(&self, r: &ScoreResult) -> String {
        let lines = |ls: &[fuda_core::value::YakuLine]| {
            ls.iter()
                .map(|y| format!("{} {}", y.name, y.value))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let groups: Vec<String> = r
            .groups
            .iter()
            .map(|(g, cs)| {
                let cs: Vec<&str> = cs
                    .iter()
                    .map(|c| self.t.p.deck.ids[c as usize].as_str())
                    .collect();
                format!("{g}=[{}]", cs.join(" "))
            })
            .collect();
        format!(
            "name {:?}, total {} (base {} × factor {} + bonus {}), yaku [{}], base yaku [{}], groups {}",
            r.name.to_string(),
            r.total,
            r.base,
            r.factor,
            r.bonus,
            lines(&r.yaku),
            lines(&r.base_yaku),
            groups.join(" ")
        )
    }
}

// ---------------------------------------------------------------------------------------
// Comparing.
// ---------------------------------------------------------------------------------------

/// Mismatches are reported, at most this many, after which the run stops.
const REPORT: usize = 5;

/// What the compared hands exercised.
#[derive(Default)]
struct Tally {
    hands: usize,
    wins: usize,
    yaku: BTreeMap<Yaku, usize>,
    boosts: BTreeMap<Boost, usize>,
    names: BTreeMap<String, usize>,
    no_pair: usize,
    yellow_lookalike: usize,
}

impl Tally {
    fn note(&mut self, v: &Verdict) {
        self.hands += 1;
        self.no_pair += v.no_pair as usize;
        self.yellow_lookalike += v.yellow_lookalike as usize;
        if let Some(w) = &v.win {
            self.wins += 1;
            *self.yaku.entry(w.yaku).or_default() += 1;
            for b in &w.boosts {
                *self.boosts.entry(*b).or_default() += 1;
            }
            *self.names.entry(w.name.clone()).or_default() += 1;
        }
    }

    fn report(&self, what: &str) -> String {
        let mut s = format!("{what}: {} hands, {} wins\n", self.hands, self.wins);
        for y in Yaku::ALL {
            let _ = writeln!(s, "  {} {}", y.name(), self.yaku.get(&y).unwrap_or(&0));
        }
        for b in Boost::ALL {
            let _ = writeln!(
                s,
                "  {} {}",
                b.describe(),
                self.boosts.get(&b).unwrap_or(&0)
            );
        }
        for (n, k) in &self.names {
            let _ = writeln!(s, "  name {n}: {k}");
        }
        let _ = writeln!(
            s,
            "  素札5枚 without a pair: {} (12-kasu-yellow pair-lookalikes {})",
            self.no_pair, self.yellow_lookalike
        );
        s
    }
}

/// Compares one hand in every timing context; a mismatch is described in `out`.
fn compare(e: &Engine, hand: &[Card], tally: &mut Tally, out: &mut Vec<String>) {
    let v = oracle(hand);
    tally.note(&v);
    for (label, t) in TIMINGS {
        let r = e.score(hand, t);
        let want = v.total(t);
        // Names are compared in the plain context only: the page names the yaku
        // ("赤五光", "素役の2倍付け") but say nothing about naming a hand that also earns a
        // timing bonus, nor about naming a hand with no yaku, so there totals alone count.
        let name_bad = match (&v.win, t.first_turn) {
            (Some(w), false) => r.name != w.name.as_str(),
            _ => false,
        };
        if r.total != want || name_bad {
            let said = match &v.win {
                Some(w) => format!(
                    "{}: 3-group [{}] + 5-group [{}], {} {} × factor {} + bonus {} = {want}",
                    w.name,
                    ids(&w.three),
                    ids(&w.five),
                    w.yaku.name(),
                    w.yaku.base(),
                    w.factor,
                    t.bonus()
                ),
                None => format!("no yaku, {want}"),
            };
            out.push(format!(
                "hand [{}], {label}:\n    docs/games: {said}\n         because {}\n    engine:     {}",
                ids(hand),
                v.why,
                e.describe(&r)
            ));
            return;
        }
    }
}

// ---------------------------------------------------------------------------------------
// Hands.
// ---------------------------------------------------------------------------------------

fn of_kind(k: Kind) -> Vec<Card> {
    (0..48).filter(|&c| kind(c) == k).collect()
}

/// `n` kasu, biased toward what the multipliers read: same-month pairs, the three
/// month-12 kasu (with the yellow one), the single 11-kasu.
fn kasu_group(rng: &mut Rng, n: usize) -> Vec<Card> {
    let all = of_kind(Kind::Kasu);
    let mut g: Vec<Card> = Vec::new();
    if rng.chance(3) {
        g.extend(["12-kasu-a", "12-kasu-b", "12-kasu-yellow"].map(card));
    } else if rng.chance(4) {
        // a pair-lookalike: yellow with one plain month-12 kasu
        g.extend(["12-kasu-yellow", ["12-kasu-a", "12-kasu-b"][rng.below(2)]].map(card));
    }
    if rng.chance(3) {
        g.push(card("11-kasu"));
    }
    match rng.below(3) {
        // from all 24
        0 => {}
        // from the kasu of a few months: many pairs
        _ => {
            let k = 2 + rng.below(2);
            let months = rng.pick(&(1..=12).collect::<Vec<Card>>(), k);
            let pool: Vec<Card> = all
                .iter()
                .copied()
                .filter(|&c| months.contains(&(month(c) as usize)) && !g.contains(&c))
                .collect();
            let want = n.saturating_sub(g.len());
            g.extend(rng.pick(&pool, want));
        }
    }
    let rest: Vec<Card> = all.iter().copied().filter(|c| !g.contains(c)).collect();
    let want = n.saturating_sub(g.len());
    g.extend(rng.pick(&rest, want));
    rng.pick(&g, n)
}

/// 3 ribbons, often exactly 赤短 or 青短 (or two of one set and another ribbon).
fn tan_three(rng: &mut Rng) -> Vec<Card> {
    let aka = ["1-ribbon", "2-ribbon", "3-ribbon"].map(card);
    let ao = ["6-ribbon", "9-ribbon", "10-ribbon"].map(card);
    match rng.below(4) {
        0 => aka.to_vec(),
        1 => ao.to_vec(),
        _ => rng.pick(&of_kind(Kind::Tan), 3),
    }
}

fn group(rng: &mut Rng, k: Kind, n: usize) -> Vec<Card> {
    match (k, n) {
        (Kind::Kasu, _) => kasu_group(rng, n),
        (Kind::Tan, 3) => tan_three(rng),
        _ => rng.pick(&of_kind(k), n),
    }
}

/// A hand shaped like a win: a 3-group of one kind and a 5-group of another; sometimes
/// all kasu, tane mixed with tan, or one card swapped for a random one (near misses).
fn winning_shape(rng: &mut Rng) -> Vec<Card> {
    const KINDS: [Kind; 4] = [Kind::Hikari, Kind::Tane, Kind::Tan, Kind::Kasu];
    let mut hand = match rng.below(12) {
        // 8 kasu: "eight kasu split 3 + 5 are no yaku"
        0 => kasu_group(rng, 8),
        // tane and tan mixed in the 3-group: never a yaku
        1 => {
            let mut h = rng.pick(&of_kind(Kind::Tane), 2);
            h.extend(rng.pick(&of_kind(Kind::Tan), 1));
            let five = KINDS[[0, 3][rng.below(2)]];
            h.extend(group(rng, five, 5));
            h
        }
        _ => {
            let a = KINDS[rng.below(4)];
            let b = KINDS[(KINDS.iter().position(|&k| k == a).unwrap() + 1 + rng.below(3)) % 4];
            let mut h = group(rng, a, 3);
            h.extend(group(rng, b, 5));
            h
        }
    };
    if rng.chance(10) {
        let out = rng.below(8);
        let free: Vec<Card> = (0..48).filter(|c| !hand.contains(c)).collect();
        hand[out] = free[rng.below(free.len())];
    }
    hand
}

fn random_hand(rng: &mut Rng) -> Vec<Card> {
    rng.pick(&(0..48).collect::<Vec<Card>>(), 8)
}

fn hand(text: &str) -> Vec<Card> {
    text.split_whitespace().map(card).collect()
}

// ---------------------------------------------------------------------------------------
// Tests.
// ---------------------------------------------------------------------------------------

/// The oracle's card table is the engine's deck: a deck mismatch shows here, not as a
/// scoring difference.
#[test]
fn the_oracle_table_is_the_engine_deck() {
    let e = Engine::new();
    let d = &e.t.p.deck;
    assert_eq!(
        d.len(),
        48,
        "the engine's deck has {} cards, not 48",
        d.len()
    );
    let mut ours: Vec<&str> = CARDS.iter().map(|c| c.0).collect();
    let mut theirs: Vec<&str> = d.ids.iter().map(String::as_str).collect();
    ours.sort_unstable();
    theirs.sort_unstable();
    assert_eq!(ours, theirs, "card ids differ");
    let month_attr = d.attr_named("month").expect("attribute month");
    let kind_attr = d.attr_named("kind").expect("attribute kind");
    let mut bad = Vec::new();
    for c in 0..48 {
        let x = e.ix[c];
        let m = d.attr(month_attr, x);
        let k = e.t.p.sym(d.attr(kind_attr, x) as u32).to_string();
        let mut tags: Vec<&str> = d
            .tag_names
            .iter()
            .zip(&d.tags)
            .filter(|(_, set)| set.contains(x))
            .map(|(n, _)| n.as_str())
            .collect();
        tags.sort_unstable();
        let want_tags: Vec<&str> = match tag(c) {
            Tag::None => vec![],
            Tag::Akatan => vec!["赤短"],
            Tag::Aotan => vec!["青短"],
            Tag::Kikiri => vec!["黄桐"],
        };
        if m != month(c) as i64 || k != kind(c).kanji() || tags != want_tags {
            bad.push(format!(
                "{}: docs/games month {} kind {} tags {:?}; engine month {m} kind {k} tags {tags:?}",
                id(c),
                month(c),
                kind(c).kanji(),
                want_tags
            ));
        }
    }
    assert!(bad.is_empty(), "deck mismatch:\n{}", bad.join("\n"));
}

/// Worked examples — the original rules' own (docs/games/sangohana.md § Worked examples)
/// and a hand for each yaku, multiplier and pair rule — each with the total the page gives
/// in each context: (hand, name when it wins, 上がり, 福上がり, 福当たり as dealt, 福当たり
/// changed).
#[test]
fn worked_examples() {
    let cases: &[(&str, Option<&str>, [i64; 4], &str)] = &[
        (
            "1-ribbon 2-ribbon 3-ribbon 1-crane 3-curtain 8-moon 11-rainman 12-phoenix",
            Some("赤五光"),
            [40, 55, 52, 50],
            "赤五光 40文: 赤短の3枚入りの上五光",
        ),
        (
            "6-ribbon 9-ribbon 10-ribbon 1-crane 3-curtain 8-moon 11-rainman 12-phoenix",
            Some("青五光"),
            [40, 55, 52, 50],
            "青五光 40文: 青短の3枚入りの上五光",
        ),
        (
            "12-kasu-a 12-kasu-b 12-kasu-yellow 1-crane 3-curtain 8-moon 11-rainman 12-phoenix",
            Some("桐五光"),
            [45, 60, 57, 55],
            "桐五光 45文: 桐のカス3枚入りの下五光",
        ),
        (
            "1-kasu-a 2-kasu-a 3-kasu-a 1-crane 3-curtain 8-moon 11-rainman 12-phoenix",
            Some("下五光"),
            [15, 30, 27, 25],
            "下五光 15",
        ),
        (
            "2-warbler 4-cuckoo 9-cup 1-crane 3-curtain 8-moon 11-rainman 12-phoenix",
            Some("上五光"),
            [20, 35, 32, 30],
            "上五光 20 (種札3枚)",
        ),
        (
            "1-ribbon 2-ribbon 6-ribbon 1-crane 3-curtain 8-moon 11-rainman 12-phoenix",
            Some("上五光"),
            [20, 35, 32, 30],
            "上五光 20: two 赤短 and a 青短 is neither set",
        ),
        (
            "1-ribbon 2-ribbon 3-ribbon 1-kasu-a 1-kasu-b 4-kasu-a 4-kasu-b 5-kasu-a",
            Some("素役の4倍付け"),
            [4, 19, 16, 14],
            "素役: 赤短 ×2 and two pairs ×2 = 4文",
        ),
        (
            "1-ribbon 2-ribbon 3-ribbon 1-kasu-a 1-kasu-b 4-kasu-a 4-kasu-b 11-kasu",
            Some("素役の6倍付け"),
            [6, 21, 18, 16],
            "素役: 赤短 ×2 and two pairs + 柳のカス ×3 = 6文",
        ),
        (
            "6-ribbon 9-ribbon 10-ribbon 12-kasu-a 12-kasu-b 12-kasu-yellow 4-kasu-a 5-kasu-a",
            Some("素役の6倍付け"),
            [6, 21, 18, 16],
            "素役: 青短 ×2 and 桐のカス3枚 ×3 = 6文",
        ),
        (
            "1-ribbon 2-ribbon 3-ribbon 12-kasu-a 12-kasu-b 12-kasu-yellow 4-kasu-a 4-kasu-b",
            Some("素役の8倍付け"),
            [8, 23, 20, 18],
            "素役: 赤短 ×2 and 桐のカス3枚 + 同月2枚 ×4 = 8文",
        ),
        (
            "2-warbler 4-cuckoo 5-bridge 1-kasu-a 1-kasu-b 4-kasu-a 4-kasu-b 5-kasu-a",
            Some("素役の2倍付け"),
            [2, 17, 14, 12],
            "素役の倍付けを福上がり: 1×2 + 15 = 17文, not (1+15)×2",
        ),
        (
            "2-warbler 4-cuckoo 5-bridge 1-kasu-a 1-kasu-b 4-kasu-a 6-kasu-a 5-kasu-a",
            Some("素役"),
            [1, 16, 13, 11],
            "素役 1, 福当たり +12 as dealt, +10 changed",
        ),
        (
            "1-crane 3-curtain 8-moon 12-kasu-a 12-kasu-b 12-kasu-yellow 4-kasu-a 4-kasu-b",
            Some("下三光の4倍付け"),
            [20, 35, 32, 30],
            "下三光の4倍付けで上五光と同額",
        ),
        (
            "1-crane 3-curtain 8-moon 12-kasu-a 12-kasu-b 1-kasu-a 1-kasu-b 11-kasu",
            Some("下三光の3倍付け"),
            [15, 30, 27, 25],
            "下三光: two pairs (12 and 1) and 柳のカス ×3",
        ),
        (
            "12-kasu-a 12-kasu-b 12-kasu-yellow 1-ribbon 2-ribbon 3-ribbon 4-ribbon 5-ribbon",
            Some("下短冊の3倍付け"),
            [6, 21, 18, 16],
            "下短冊 ×3 for 桐のカス3枚; 赤短 in the 5-group is no boost",
        ),
        (
            "12-kasu-a 12-kasu-yellow 11-kasu 2-warbler 4-cuckoo 5-bridge 6-butterflies 7-boar",
            Some("下ノ種"),
            [3, 18, 15, 13],
            "下ノ種 3: a kasu 3-group needs no pair",
        ),
        (
            "1-ribbon 2-ribbon 3-ribbon 2-warbler 4-cuckoo 5-bridge 6-butterflies 7-boar",
            Some("上ノ種の2倍付け"),
            [14, 29, 26, 24],
            "上ノ種 7 ×2 for 赤短",
        ),
        (
            "2-warbler 4-cuckoo 5-bridge 1-ribbon 2-ribbon 3-ribbon 6-ribbon 9-ribbon",
            Some("上短冊"),
            [6, 21, 18, 16],
            "上短冊 6: ribbons in the 5-group are no boost",
        ),
        (
            "1-crane 3-curtain 8-moon 1-ribbon 2-ribbon 3-ribbon 6-ribbon 9-ribbon",
            Some("短三光"),
            [10, 25, 22, 20],
            "短三光 10",
        ),
        (
            "1-crane 3-curtain 8-moon 2-warbler 4-cuckoo 5-bridge 6-butterflies 7-boar",
            Some("種三光"),
            [12, 27, 24, 22],
            "種三光 12",
        ),
        (
            "1-kasu-a 2-kasu-a 3-kasu-a 1-ribbon 4-ribbon 5-ribbon 7-ribbon 11-ribbon",
            Some("下短冊"),
            [2, 17, 14, 12],
            "下短冊 2",
        ),
        (
            "2-warbler 4-cuckoo 5-bridge 1-kasu-a 2-kasu-a 3-kasu-a 4-kasu-a 5-kasu-a",
            None,
            [0; 4],
            "素札5枚 with no same-month pair: no yaku",
        ),
        (
            "2-warbler 4-cuckoo 5-bridge 12-kasu-a 12-kasu-yellow 3-kasu-a 4-kasu-a 11-kasu",
            None,
            [0; 4],
            "12-kasu-a with 黄桐 is no pair: no yaku",
        ),
        (
            "1-kasu-a 1-kasu-b 2-kasu-a 2-kasu-b 3-kasu-a 3-kasu-b 4-kasu-a 4-kasu-b",
            None,
            [0; 4],
            "素札8枚 is not a yaku",
        ),
        (
            "2-warbler 4-cuckoo 1-ribbon 1-kasu-a 1-kasu-b 4-kasu-a 4-kasu-b 5-kasu-a",
            None,
            [0; 4],
            "種札と短札を混ぜては使用できません",
        ),
    ];
    let e = Engine::new();
    let mut oracle_bad = Vec::new();
    let mut engine_bad = Vec::new();
    for (text, name, totals, why) in cases {
        let h = hand(text);
        let v = oracle(&h);
        let got_name = v.win.as_ref().map(|w| w.name.as_str());
        let got: Vec<i64> = TIMINGS.iter().map(|(_, t)| v.total(*t)).collect();
        if got_name != *name || got != totals {
            oracle_bad.push(format!(
                "[{text}] ({why}): expected {name:?} {totals:?}, oracle {got_name:?} {got:?}; {}",
                v.why
            ));
        }
        for ((label, t), want) in TIMINGS.iter().zip(totals) {
            let r = e.score(&h, *t);
            let name_bad = !t.first_turn && name.is_some_and(|n| r.name != n);
            if r.total != *want || name_bad {
                engine_bad.push(format!(
                    "[{text}] {label} ({why}): expected {name:?} {want}; engine {}",
                    e.describe(&r)
                ));
            }
        }
        // Outside the first go-round a 当たり earns nothing extra, whatever the hand.
        let later = Timing {
            atari: true,
            first_turn: false,
            as_dealt: true,
        };
        let r = e.score(&h, later);
        if r.total != totals[0] {
            engine_bad.push(format!(
                "[{text}] 当たり, not first turn ({why}): expected {}; engine {}",
                totals[0],
                e.describe(&r)
            ));
        }
    }
    assert!(
        oracle_bad.is_empty(),
        "the oracle misreads the worked examples:\n{}",
        oracle_bad.join("\n")
    );
    assert!(
        engine_bad.is_empty(),
        "the rule file misreads the worked examples:\n{}",
        engine_bad.join("\n")
    );
}

/// Runs `n` hands from `deal` through both scorers; returns what they exercised.
fn run(what: &str, seed: u64, n: usize, deal: fn(&mut Rng) -> Vec<Card>) -> Tally {
    let e = Engine::new();
    let mut rng = Rng(seed);
    let mut tally = Tally::default();
    let mut out = Vec::new();
    for _ in 0..n {
        let h = deal(&mut rng);
        compare(&e, &h, &mut tally, &mut out);
        if out.len() >= REPORT {
            break;
        }
    }
    check(&out, what);
    eprintln!("{}", tally.report(what));
    tally
}

/// Uniform 8-card hands: mostly no yaku, which must score 0 in every context.
#[test]
fn random_hands_agree() {
    let t = run("random hands", 0x5A46_04A4, 20_000, random_hand);
    assert!(t.wins > 0, "no random hand won: the generator is broken");
}

/// Hands biased toward winning shapes: every yaku, multiplier and named upgrade must
/// occur many times, so the comparison cannot pass by never reaching a case.
#[test]
fn winning_shapes_agree() {
    let t = run("winning shapes", 0x00C0_4A1F, 20_000, winning_shape);
    const AT_LEAST: usize = 20;
    let mut missing = Vec::new();
    for y in Yaku::ALL {
        if t.yaku.get(&y).copied().unwrap_or(0) < AT_LEAST {
            missing.push(y.name().to_string());
        }
    }
    for b in Boost::ALL {
        if t.boosts.get(&b).copied().unwrap_or(0) < AT_LEAST {
            missing.push(b.describe().to_string());
        }
    }
    for n in [
        "赤五光",
        "青五光",
        "桐五光",
        "素役の2倍付け",
        "素役の3倍付け",
        "素役の4倍付け",
        "素役の6倍付け",
        "素役の8倍付け",
        "下三光の2倍付け",
        "下三光の3倍付け",
        "下三光の4倍付け",
        "下短冊の3倍付け",
        "下ノ種の3倍付け",
        "上ノ種の2倍付け",
    ] {
        if t.names.get(n).copied().unwrap_or(0) < AT_LEAST {
            missing.push(n.to_string());
        }
    }
    if t.no_pair < AT_LEAST || t.yellow_lookalike < AT_LEAST {
        missing.push("素札5枚 without a pair / 黄桐 lookalike".into());
    }
    assert!(
        missing.is_empty(),
        "cases exercised fewer than {AT_LEAST} times: {missing:?}\n{}",
        t.report("winning shapes")
    );
}
