//! 浮島 Ukishima settlement: an independent oracle written from `docs/games/ukishima.md`
//! (with the original rules' worked example) scores the end of every round the engine
//! plays on `rulesets/ukishima*.fuda` — 役 with their values and voids, card points, 浮き代
//! and its subtraction, who pays whom, the next dealer — and compares that with the chips
//! the engine moved, its `点差` / `収支`, its recorded 役 and its next dealer. The oracle shares
//! no logic with the rule file (it reads only zone, variable, table and procedure names,
//! and follows the header's documented "choice:" lines), so a misreading of the page in
//! the rule file makes this test fail. Rare cases (two 五双, voids) are also built as
//! end-of-round piles directly and settled by the engine's own `清算` and `役` table.
//!
//! The rule file's "choice:" lines this oracle relies on (each a "Reading:" on the page):
//! - seats are numbered in turn order from the dealer (`next dealer` tie-breaks and the
//!   role names 親 胴二 ビキ / 親 子 count seats upward from the dealer);
//! - 役代 and the card settlement are paid in the same chips, in the same round;
//! - the next dealer is the seat with the largest whole result of the round (役代 + card
//!   settlement), ties to the earliest seat counting from the current dealer;
//! - 五双 "held by two players" counts 五双 after its own voids (four of a number, the
//!   floating pair); the 赤ピン holder's is then void;
//! - the floating cards count for nothing in any yaku for whoever holds them;
//! - the 2-player roles are 親 and 子.

use fuda_tests::oracle::{check, Rng};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use fuda_core::agents::{by_name, Agent};
use fuda_core::engine::{CodeRef, Event, Move};
use fuda_core::loader::Loader;
use fuda_core::model::{CardIx, CardSet};
use fuda_core::play::{agent_seed, game_seed};
use fuda_core::score::score_with;
use fuda_core::value::{ScoreResult, Value};
use fuda_core::{Program, State};

// ---------------------------------------------------------------------------------------
// The cards, from docs/games/README.md § Card ids and docs/games/ukishima.md § Cards and
// points.
// ---------------------------------------------------------------------------------------

/// A kabufuda card as the oracle knows it: `(number − 1) × 4 + letter`, so 0 is `1a`.
type Card = usize;

const LETTERS: [char; 4] = ['a', 'b', 'c', 'd'];
/// `1a` is 赤ピン.
const AKAPIN: Card = 0;
/// `4a` is 玉四.
const GYOKUSHI: Card = 12;

fn id(c: Card) -> String {
    format!("{}{}", c / 4 + 1, LETTERS[c % 4])
}

fn number(c: Card) -> usize {
    c / 4 + 1
}

/// The four cards of a number.
fn of_number(n: usize) -> [Card; 4] {
    let b = (n - 1) * 4;
    [b, b + 1, b + 2, b + 3]
}

/// 赤ピン 15, 玉四 10, "every other card: its number"; "240 points in all".
fn points(c: Card) -> i64 {
    match c {
        AKAPIN => 15,
        GYOKUSHI => 10,
        _ => number(c) as i64,
    }
}

fn total_points(cs: &[Card]) -> i64 {
    cs.iter().map(|&c| points(c)).sum()
}

/// 浮き代 by number, as docs/games/ukishima.md lists it (1: 18, 2: 8, … 10: 40).
const UKIDAI: [i64; 10] = [18, 8, 12, 22, 20, 24, 28, 32, 36, 40];

fn ids(cs: &[Card]) -> String {
    let mut v = cs.to_vec();
    v.sort_unstable();
    v.iter().map(|&c| id(c)).collect::<Vec<_>>().join(" ")
}

// ---------------------------------------------------------------------------------------
// The oracle: docs/games/ukishima.md § A turn (the end state), § 浮き札 and the 浮き持,
// § Cards and points, § Yaku, § Card settlement, § Next dealer and the match, § Variants.
// ---------------------------------------------------------------------------------------

/// The six 役, in the page's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Yaku {
    Goso,
    Akadama,
    Nizoro,
    Santa,
    Roppo,
    Kabushima,
}

impl Yaku {
    const ALL: [Yaku; 6] = [
        Yaku::Goso,
        Yaku::Akadama,
        Yaku::Nizoro,
        Yaku::Santa,
        Yaku::Roppo,
        Yaku::Kabushima,
    ];

    fn name(self) -> &'static str {
        match self {
            Yaku::Goso => "五双",
            Yaku::Akadama => "赤ダマ",
            Yaku::Nizoro => "二ゾロ",
            Yaku::Santa => "三太",
            Yaku::Roppo => "六法",
            Yaku::Kabushima => "株シマ",
        }
    }

    /// The page's table: 五双 80, 赤ダマ 40, 二ゾロ, 三太, 六法 and 株シマ 20 each.
    fn value(self) -> i64 {
        match self {
            Yaku::Goso => 80,
            Yaku::Akadama => 40,
            _ => 20,
        }
    }
}

/// The page's special cases (voids, and what does not spoil a yaku), counted so the test
/// can show each one was exercised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Case {
    /// 五双 shape, void: all four of one of 1–5 captured by that player.
    GosoVoidFour,
    /// 五双 only with the floating pair: void.
    GosoVoidFloat,
    /// Two players hold 五双: the 赤ピン holder's is void.
    GosoVoidTwo,
    /// 赤ダマ only with the floating pair: void.
    AkadamaVoidFloat,
    /// 赤ダマ with a second pair of 1s, 4s or 9s: still stands.
    AkadamaSecondPair,
    /// 株シマ sharing its 9s with 赤ダマ.
    AkadamaKabushima,
    /// 六法 or 株シマ together with 五双.
    ShimaWithGoso,
    /// Two or more different 役 paid in one round.
    SeveralHolders,
    /// The next dealer decided by the tie-break.
    DealerTie,
    /// ... where the earliest from the dealer is not the lowest seat number.
    DealerTieWrapped,
    /// The floating number is one of 1–5 (五双's numbers).
    FloatLow,
    /// The floating number is 1, 4 or 9 (赤ダマ's numbers).
    FloatAkadama,
}

impl Case {
    const ALL: [Case; 12] = [
        Case::GosoVoidFour,
        Case::GosoVoidFloat,
        Case::GosoVoidTwo,
        Case::AkadamaVoidFloat,
        Case::AkadamaSecondPair,
        Case::AkadamaKabushima,
        Case::ShimaWithGoso,
        Case::SeveralHolders,
        Case::DealerTie,
        Case::DealerTieWrapped,
        Case::FloatLow,
        Case::FloatAkadama,
    ];

    fn describe(self) -> &'static str {
        match self {
            Case::GosoVoidFour => "五双 void: four of one of 1–5",
            Case::GosoVoidFloat => "五双 void: built on the floating pair",
            Case::GosoVoidTwo => "五双 held by two: the 赤ピン holder's void",
            Case::AkadamaVoidFloat => "赤ダマ void: built on the floating pair",
            Case::AkadamaSecondPair => "赤ダマ with a second pair of 1/4/9 (stands)",
            Case::AkadamaKabushima => "赤ダマ + 株シマ sharing the 9s",
            Case::ShimaWithGoso => "六法/株シマ together with 五双",
            Case::SeveralHolders => "役 held by two or more seats in one round",
            Case::DealerTie => "next dealer by the tie-break",
            Case::DealerTieWrapped => "tie-break: earliest from the dealer, not lowest seat",
            Case::FloatLow => "floating number in 1–5",
            Case::FloatAkadama => "floating number 1, 4 or 9",
        }
    }
}

/// The game being settled: what the page makes the settlement depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rules {
    players: usize,
    /// マイナス点: the 浮き持 is charged 浮き代.
    subtraction: bool,
}

impl Rules {
    /// "240 points in all" over the players: 80 for three, 120 for two.
    fn baseline(self) -> i64 {
        match self.players {
            3 => 80,
            2 => 120,
            n => panic!("浮島 has 2 or 3 players, not {n}"),
        }
    }

    /// What the 浮き持 loses and what each other player gains, for 浮き代 `u`.
    /// 3 players (§ Card settlement): the 浮き持 subtracts 浮き代 and each other player adds
    /// the whole 浮き代; without subtraction each other player adds half (§ Variants). 2
    /// players: the opponent adds twice 浮き代 with subtraction, once without.
    fn float_shift(self, u: i64) -> (i64, i64) {
        match (self.players, self.subtraction) {
            (3, true) => (-u, u),
            (3, false) => (0, u / 2),
            (2, true) => (-u, 2 * u),
            (2, false) => (0, u),
            (n, _) => panic!("浮島 has 2 or 3 players, not {n}"),
        }
    }

    fn role(self, dealer: usize, seat: usize) -> &'static str {
        let k = (seat + self.players - dealer) % self.players;
        match self.players {
            3 => ["親", "胴二", "ビキ"][k],
            _ => ["親", "子"][k],
        }
    }
}

/// A round's end as it lies on the table.
#[derive(Clone, Debug)]
struct EndState {
    dealer: usize,
    /// 取り札, per seat.
    piles: Vec<Vec<Card>>,
    /// 伏せ札.
    fuse: Vec<Card>,
    /// 場.
    field: Vec<Card>,
    /// Cards anywhere else (hands, stock, the card in play): none at a round's end.
    stray: Vec<Card>,
}

impl EndState {
    fn describe(&self, r: Rules) -> String {
        let mut s = String::new();
        for (x, pile) in self.piles.iter().enumerate() {
            let _ = writeln!(
                s,
                "    seat {x} ({}): 取り札 [{}]",
                r.role(self.dealer, x),
                ids(pile)
            );
        }
        let _ = write!(
            s,
            "    伏せ札 [{}], 場 [{}], dealer {}",
            ids(&self.fuse),
            ids(&self.field),
            self.dealer
        );
        if !self.stray.is_empty() {
            let _ = write!(s, ", elsewhere [{}]", ids(&self.stray));
        }
        s
    }
}

/// The oracle's answer for one round.
#[derive(Clone, Debug, Default)]
struct Verdict {
    float: usize,
    ukimochi: usize,
    /// 役 each seat is paid for (by each other player).
    yaku: Vec<Vec<Yaku>>,
    /// What each other player pays each seat for its 役.
    yaku_value: Vec<i64>,
    /// Card settlement (点差).
    card: Vec<i64>,
    /// 役代 + card settlement (収支, the chips moved).
    total: Vec<i64>,
    next_dealer: usize,
    /// Two seats held 五双 (after their own voids).
    two_goso: bool,
    cases: Vec<Case>,
    why: String,
}

/// Settles a round's end as docs/games/ukishima.md says; `Err` when the end state itself
/// could not arise under those rules.
fn oracle(r: Rules, e: &EndState) -> Result<Verdict, String> {
    let n = r.players;
    let mut why = String::new();
    // "every hand and the stock empty together"; "exactly one card is left on the field —
    // necessarily of the 伏せ札's number"
    if !e.stray.is_empty() {
        return Err(format!("cards left outside the piles: [{}]", ids(&e.stray)));
    }
    let (&[fuse], &[last]) = (e.fuse.as_slice(), e.field.as_slice()) else {
        return Err(format!(
            "expected one 伏せ札 and one field card, found [{}] and [{}]",
            ids(&e.fuse),
            ids(&e.field)
        ));
    };
    let float = number(fuse);
    if number(last) != float {
        return Err(format!(
            "the last field card {} is not of the 伏せ札 {}'s number",
            id(last),
            id(fuse)
        ));
    }
    // Captures are same-number pairs (the played card "must capture it: both go … to the
    // player's captures"), so each pile holds 0, 2 or 4
    // of each number.
    for (x, pile) in e.piles.iter().enumerate() {
        for k in 1..=10 {
            let c = pile.iter().filter(|&&c| number(c) == k).count();
            if c % 2 != 0 {
                return Err(format!(
                    "seat {x} holds {c} cards of {k}: captures are pairs"
                ));
            }
        }
    }
    // "The four cards of its number are the 浮き札 (…): the 伏せ札, the last field card, and
    // the pair one player captured. That player is the 浮き持"
    let holders: Vec<usize> = (0..n)
        .filter(|&x| e.piles[x].iter().any(|&c| number(c) == float))
        .collect();
    let [ukimochi] = holders.as_slice() else {
        return Err(format!(
            "the floating pair of {float}s is held by seats {holders:?}"
        ));
    };
    let ukimochi = *ukimochi;
    let pair: Vec<Card> = of_number(float)
        .into_iter()
        .filter(|&c| c != fuse && c != last)
        .collect();
    let u = UKIDAI[float - 1];
    assert_eq!(
        u,
        total_points(&of_number(float)),
        "the page's 浮き代 table is the four cards' points"
    );
    let _ = write!(
        why,
        "浮き札 {float}s (浮き代 {u}), 浮き持 seat {ukimochi} ({}) with [{}]",
        r.role(e.dealer, ukimochi),
        ids(&pair)
    );
    let mut cases = Vec::new();
    if float <= 5 {
        cases.push(Case::FloatLow);
    }
    if [1, 4, 9].contains(&float) {
        cases.push(Case::FloatAkadama);
    }

    // 役, seat by seat. "The floating cards count for nothing in a yaku"
    let real: Vec<Vec<Card>> = (0..n)
        .map(|x| {
            e.piles[x]
                .iter()
                .copied()
                .filter(|c| x != ukimochi || !pair.contains(c))
                .collect()
        })
        .collect();
    let count = |cs: &[Card], k: usize| cs.iter().filter(|&&c| number(c) == k).count();
    // 五双 80: "a pair of each of 1, 2, 3, 4, 5"
    let goso_shape = |cs: &[Card]| (1..=5).all(|k| count(cs, k) >= 2);
    // "五双 is void if the player captured all four of any of 1–5"
    let goso_four = |cs: &[Card]| (1..=5).any(|k| count(cs, k) == 4);
    // 赤ダマ 40: "a pair of 1s with 赤ピン, a pair of 4s with 玉四, and a pair of 9s";
    // "赤ダマ stands even if the player also holds the other pair of 1s, 4s or 9s."
    let akadama = |cs: &[Card]| {
        cs.contains(&AKAPIN)
            && count(cs, 1) >= 2
            && cs.contains(&GYOKUSHI)
            && count(cs, 4) >= 2
            && count(cs, 9) >= 2
    };
    let mut yaku: Vec<Vec<Yaku>> = vec![Vec::new(); n];
    let mut goso_own = vec![false; n];
    for x in 0..n {
        let cs = &real[x];
        if goso_shape(cs) {
            if goso_four(cs) {
                cases.push(Case::GosoVoidFour);
                let _ = write!(why, "; seat {x}: 五双 void (four of a number in 1–5)");
            } else {
                goso_own[x] = true;
            }
        } else if x == ukimochi && goso_shape(&e.piles[x]) && !goso_four(&e.piles[x]) {
            cases.push(Case::GosoVoidFloat);
            let _ = write!(why, "; seat {x}: 五双 void (built on the floating pair)");
        }
        if akadama(cs) {
            yaku[x].push(Yaku::Akadama);
            if count(cs, 1) == 4 || count(cs, 4) == 4 || count(cs, 9) == 4 {
                cases.push(Case::AkadamaSecondPair);
            }
        } else if x == ukimochi && akadama(&e.piles[x]) {
            cases.push(Case::AkadamaVoidFloat);
            let _ = write!(why, "; seat {x}: 赤ダマ void (built on the floating pair)");
        }
        // 二ゾロ, 三太, 六法, 株シマ, 20 each: all four 2s / 3s / 6s / 9s.
        for (k, y) in [
            (2, Yaku::Nizoro),
            (3, Yaku::Santa),
            (6, Yaku::Roppo),
            (9, Yaku::Kabushima),
        ] {
            if count(cs, k) == 4 {
                yaku[x].push(y);
            }
        }
    }
    // "If two players hold 五双, the one holding 赤ピン loses it."
    let goso_holders: Vec<usize> = (0..n).filter(|&x| goso_own[x]).collect();
    for &x in &goso_holders {
        if goso_holders.len() >= 2 && real[x].contains(&AKAPIN) {
            cases.push(Case::GosoVoidTwo);
            let _ = write!(
                why,
                "; 五双 held by seats {goso_holders:?}: seat {x} holds 赤ピン, its 五双 is void"
            );
        } else {
            yaku[x].push(Yaku::Goso);
        }
    }
    for ys in &mut yaku {
        ys.sort_unstable();
        if ys.contains(&Yaku::Akadama) && ys.contains(&Yaku::Kabushima) {
            cases.push(Case::AkadamaKabushima);
        }
        if ys.contains(&Yaku::Goso) && (ys.contains(&Yaku::Roppo) || ys.contains(&Yaku::Kabushima))
        {
            cases.push(Case::ShimaWithGoso);
        }
    }
    if yaku.iter().filter(|ys| !ys.is_empty()).count() >= 2 {
        cases.push(Case::SeveralHolders);
    }
    // "each yaku is paid to its holder by each other player"
    let yaku_value: Vec<i64> = yaku
        .iter()
        .map(|ys| ys.iter().map(|y| y.value()).sum())
        .collect();
    let mut yaku_pay = vec![0i64; n];
    for x in 0..n {
        for o in 0..n {
            if o != x {
                yaku_pay[x] += yaku_value[x];
                yaku_pay[o] -= yaku_value[x];
            }
        }
        if yaku_value[x] > 0 {
            let names: Vec<&str> = yaku[x].iter().map(|y| y.name()).collect();
            let _ = write!(
                why,
                "; seat {x} 役 {} = {} from each other",
                names.join("+"),
                yaku_value[x]
            );
        }
    }

    // § Card settlement: each player totals their captured points, the 浮き持 leaving the
    // floating pair out; the 浮き持 subtracts the 浮き代; each other player adds it; everyone
    // subtracts the baseline. "The results sum to zero"
    let (loss, gain) = r.float_shift(u);
    let mut card = vec![0i64; n];
    let _ = write!(why, "; cards:");
    for x in 0..n {
        let pts = total_points(&real[x]);
        let shift = if x == ukimochi { loss } else { gain };
        card[x] = pts + shift - r.baseline();
        let _ = write!(
            why,
            " seat {x} {pts}{shift:+}−{} = {:+};",
            r.baseline(),
            card[x]
        );
    }
    if card.iter().sum::<i64>() != 0 {
        return Err(format!(
            "the card settlement does not sum to zero ({card:?}): the end state is not a deal"
        ));
    }
    let total: Vec<i64> = (0..n).map(|x| yaku_pay[x] + card[x]).collect();
    // § Next dealer and the match: "the seat with the largest whole result of the round,
    // 役代 and card settlement together"; "A tie goes to the earlier seat counting from the
    // current dealer" (a reading of the original's "highest scorer").
    let best = *total.iter().max().expect("seats");
    let leaders: Vec<usize> = (0..n)
        .map(|k| (e.dealer + k) % n)
        .filter(|&x| total[x] == best)
        .collect();
    if leaders.len() > 1 {
        cases.push(Case::DealerTie);
        if leaders.iter().min() != leaders.first() {
            cases.push(Case::DealerTieWrapped);
        }
    }
    let next_dealer = leaders[0];
    let _ = write!(
        why,
        " totals {total:?}; next dealer seat {next_dealer} (of {leaders:?})"
    );
    Ok(Verdict {
        float,
        ukimochi,
        yaku,
        yaku_value,
        card,
        total,
        next_dealer,
        two_goso: goso_holders.len() >= 2,
        cases,
        why,
    })
}

// ---------------------------------------------------------------------------------------
// The engine.
// ---------------------------------------------------------------------------------------

/// A shipped rule file and what docs/games/ukishima.md says it plays.
#[derive(Clone, Copy, Debug)]
struct Variant {
    file: &'static str,
    rules: Rules,
    /// A value for the `減算` parameter, when the variant is the file with it changed.
    set_subtraction: Option<bool>,
    /// Hand size, field size, stock size after the deal.
    deal: (usize, usize, usize),
}

/// docs/games/ukishima.md § Variants: 3 players with and without subtraction (手六場三);
/// 2 players with a 120 baseline, with or without subtraction, 手八場七 and 手九場三.
const VARIANTS: [Variant; 6] = [
    Variant {
        file: "ukishima.fuda",
        rules: Rules {
            players: 3,
            subtraction: true,
        },
        set_subtraction: None,
        deal: (6, 3, 18),
    },
    Variant {
        file: "ukishima-no-subtraction.fuda",
        rules: Rules {
            players: 3,
            subtraction: false,
        },
        set_subtraction: None,
        deal: (6, 3, 18),
    },
    Variant {
        file: "ukishima-2p.fuda",
        rules: Rules {
            players: 2,
            subtraction: true,
        },
        set_subtraction: None,
        deal: (8, 7, 16),
    },
    Variant {
        file: "ukishima-2p-no-subtraction.fuda",
        rules: Rules {
            players: 2,
            subtraction: false,
        },
        set_subtraction: None,
        deal: (8, 7, 16),
    },
    Variant {
        file: "ukishima-2p-te9ba3.fuda",
        rules: Rules {
            players: 2,
            subtraction: true,
        },
        set_subtraction: None,
        deal: (9, 3, 18),
    },
    Variant {
        file: "ukishima-2p-te9ba3.fuda",
        rules: Rules {
            players: 2,
            subtraction: false,
        },
        set_subtraction: Some(false),
        deal: (9, 3, 18),
    },
];

impl Variant {
    fn label(&self) -> String {
        match self.set_subtraction {
            Some(b) => format!("{} (減算={b})", self.file),
            None => self.file.to_string(),
        }
    }
}

/// Reads rule files from `rulesets/` (for `extends "ukishima.fuda"`).
struct Folder(PathBuf);

impl Loader for Folder {
    fn load(&self, path: &str) -> Result<String, String> {
        std::fs::read_to_string(self.0.join(path)).map_err(|e| e.to_string())
    }
}

/// A compiled variant and the names the test reads from it.
struct Engine {
    v: Variant,
    p: Program,
    params: Vec<Option<Value>>,
    rounds_param: usize,
    /// Engine card of each oracle card, and back.
    ix: [CardIx; 40],
    back: Vec<Card>,
    z_stock: u16,
    z_fuse: u16,
    z_field: u16,
    z_play: u16,
    z_hand: u16,
    z_pile: u16,
    settle_proc: u16,
    round_proc: u16,
    table: u16,
}

impl Engine {
    fn new(v: Variant) -> Engine {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets");
        let path = dir.join(v.file);
        let text = std::fs::read_to_string(&path).expect("read the rule file");
        let p = match fuda_core::compile(v.file, &text, &Folder(dir)) {
            Ok(c) => c.program,
            Err(f) => panic!("{} does not compile: {:#?}", v.file, f.diagnostics),
        };
        let param = |name: &str| {
            p.params
                .iter()
                .position(|d| d.name == name)
                .unwrap_or_else(|| panic!("{} has no parameter `{name}`", v.file))
        };
        let mut params: Vec<Option<Value>> = vec![None; p.params.len()];
        let sub = param("減算");
        if let Some(b) = v.set_subtraction {
            params[sub] = Some(Value::Bool(b));
        }
        let rounds_param = param("rounds");
        let zone = |name: &str| {
            p.zones
                .iter()
                .position(|z| z.name == name)
                .unwrap_or_else(|| panic!("{} has no zone `{name}`", v.file)) as u16
        };
        let proc = |name: &str| {
            p.proc_named(name)
                .unwrap_or_else(|| panic!("{} has no procedure `{name}`", v.file))
        };
        let mut ix = [0; 40];
        let mut back = vec![usize::MAX; p.deck.len()];
        for (c, slot) in ix.iter_mut().enumerate() {
            let e = p
                .deck
                .ids
                .iter()
                .position(|i| *i == id(c))
                .unwrap_or_else(|| panic!("the engine's deck has no card `{}`", id(c)));
            *slot = e as CardIx;
            back[e] = c;
        }
        let e = Engine {
            v,
            params,
            rounds_param,
            ix,
            back,
            z_stock: zone("山札"),
            z_fuse: zone("伏せ札"),
            z_field: zone("場"),
            z_play: zone("出し札"),
            z_hand: zone("手札"),
            z_pile: zone("取り札"),
            settle_proc: proc("清算"),
            round_proc: proc("一局"),
            table: p.score_named("役").expect("a score table 役"),
            p,
        };
        // The file plays what the page says this variant is.
        let st = State::blank(&e.p, &e.params, 0).expect("a blank state");
        assert_eq!(
            st.board.seats as usize,
            v.rules.players,
            "{}: seat count",
            v.label()
        );
        assert_eq!(
            st.board.params[sub],
            Value::Bool(v.rules.subtraction),
            "{}: 減算",
            v.label()
        );
        e
    }

    fn cards(&self, st: &State, z: u16, seat: Option<u8>) -> Vec<Card> {
        let inst = st.board.zone_instance(z, seat) as usize;
        st.board.zones[inst]
            .iter()
            .map(|&c| self.back[c as usize])
            .collect()
    }

    fn end_state(&self, st: &State) -> EndState {
        let n = st.board.seats;
        let mut stray = self.cards(st, self.z_stock, None);
        stray.extend(self.cards(st, self.z_play, None));
        for s in 0..n {
            stray.extend(self.cards(st, self.z_hand, Some(s)));
        }
        EndState {
            dealer: st.board.dealer as usize,
            piles: (0..n)
                .map(|s| self.cards(st, self.z_pile, Some(s)))
                .collect(),
            fuse: self.cards(st, self.z_fuse, None),
            field: self.cards(st, self.z_field, None),
            stray,
        }
    }

    fn ints(&self, st: &State, name: &str) -> Vec<i64> {
        st.seat_ints(&self.p, name)
            .unwrap_or_else(|| panic!("{} has no per-seat variable `{name}`", self.v.file))
    }

    /// The 役 table on one seat's pile, called as the table's parameters document it.
    fn yaku_table(&self, pile: &[Card], float: usize, two_goso: bool) -> ScoreResult {
        let set: CardSet = pile.iter().map(|&c| self.ix[c]).collect();
        let params = &self.p.scores[self.table as usize].params;
        let mut args = vec![None; params.len()];
        for (i, (name, ..)) in params.iter().enumerate() {
            args[i] = match name.as_str() {
                "h" => Some(Value::Cards(set)),
                "浮き" => Some(Value::Int(float as i64)),
                "五双が二人" => Some(Value::Bool(two_goso)),
                other => panic!("役 has an unexpected parameter `{other}`"),
            };
        }
        score_with(&self.p, self.table, args)
            .unwrap_or_else(|e| panic!("役 fails on [{}]: {}", ids(pile), e.message))
    }
}

/// What the engine did in one round.
#[derive(Clone, Debug, Default)]
struct Observed {
    chips: Vec<i64>,
    tensa: Vec<i64>,
    shushi: Vec<i64>,
    /// Recorded 役 per seat: names and total.
    records: BTreeMap<usize, (Vec<String>, i64)>,
    outcomes: Vec<String>,
    tallies: Vec<(String, String)>,
    next_dealer: usize,
}

impl Observed {
    fn from_events(events: &[Event]) -> Observed {
        let mut o = Observed::default();
        for ev in events {
            match ev {
                Event::Record(s, r, _) => {
                    let mut names: Vec<String> =
                        r.yaku.iter().map(|y| y.name.to_string()).collect();
                    names.sort_unstable();
                    o.records.insert(*s as usize, (names, r.total));
                }
                Event::Outcome(t, _) => o.outcomes.push(t.to_string()),
                Event::Tally(l, v, _) => o.tallies.push((l.to_string(), v.clone())),
                Event::Say(_) => {}
            }
        }
        o
    }

    fn describe(&self) -> String {
        let recs: Vec<String> = self
            .records
            .iter()
            .map(|(s, (n, t))| format!("seat {s}: {} = {t}", n.join("+")))
            .collect();
        format!(
            "chips {:?}, 点差 {:?}, 収支 {:?}, 役 records [{}], outcome {:?}, tallies {:?}, next dealer {}",
            self.chips,
            self.tensa,
            self.shushi,
            recs.join("; "),
            self.outcomes,
            self.tallies,
            self.next_dealer
        )
    }
}

/// Compares the engine's round with the oracle's; the differences, if any.
fn differences(r: Rules, e: &EndState, v: &Verdict, o: &Observed) -> Vec<String> {
    let mut d = Vec::new();
    if o.chips != v.total {
        d.push(format!(
            "chips moved {:?}, docs/games {:?}",
            o.chips, v.total
        ));
    }
    if o.tensa != v.card {
        d.push(format!(
            "点差 {:?}, docs/games card settlement {:?}",
            o.tensa, v.card
        ));
    }
    if o.shushi != v.total {
        d.push(format!("収支 {:?}, docs/games {:?}", o.shushi, v.total));
    }
    if o.chips.iter().sum::<i64>() != 0 {
        d.push(format!(
            "chips moved sum to {}, not 0",
            o.chips.iter().sum::<i64>()
        ));
    }
    for x in 0..r.players {
        let mut want: Vec<String> = v.yaku[x].iter().map(|y| y.name().to_string()).collect();
        want.sort_unstable();
        let got = o.records.get(&x).cloned().unwrap_or_default();
        if got.0 != want || got.1 != v.yaku_value[x] {
            d.push(format!(
                "seat {x}: 役 recorded {:?} = {}, docs/games {:?} = {}",
                got.0, got.1, want, v.yaku_value[x]
            ));
        }
    }
    if o.next_dealer != v.next_dealer {
        d.push(format!(
            "next dealer seat {}, docs/games seat {}",
            o.next_dealer, v.next_dealer
        ));
    }
    let want_outcome = format!("{}が浮き持", r.role(e.dealer, v.ukimochi));
    if o.outcomes != [want_outcome.clone()] {
        d.push(format!(
            "outcomes {:?}, expected [{want_outcome:?}]",
            o.outcomes
        ));
    }
    let want_tally = vec![("浮き札".to_string(), v.float.to_string())];
    if o.tallies != want_tally {
        d.push(format!("tallies {:?}, expected {want_tally:?}", o.tallies));
    }
    d
}

// ---------------------------------------------------------------------------------------
// What was exercised.
// ---------------------------------------------------------------------------------------

/// Mismatches are reported, at most this many, after which a run stops.
const REPORT: usize = 5;

#[derive(Default)]
struct Tally {
    rounds: usize,
    games: usize,
    yaku: BTreeMap<Yaku, usize>,
    cases: BTreeMap<Case, usize>,
    floats: BTreeMap<usize, usize>,
}

impl Tally {
    fn note(&mut self, v: &Verdict) {
        self.rounds += 1;
        for ys in &v.yaku {
            for y in ys {
                *self.yaku.entry(*y).or_default() += 1;
            }
        }
        for c in &v.cases {
            *self.cases.entry(*c).or_default() += 1;
        }
        *self.floats.entry(v.float).or_default() += 1;
    }

    fn absorb(&mut self, o: &Tally) {
        self.rounds += o.rounds;
        self.games += o.games;
        for (k, n) in &o.yaku {
            *self.yaku.entry(*k).or_default() += n;
        }
        for (k, n) in &o.cases {
            *self.cases.entry(*k).or_default() += n;
        }
        for (k, n) in &o.floats {
            *self.floats.entry(*k).or_default() += n;
        }
    }

    fn yaku(&self, y: Yaku) -> usize {
        self.yaku.get(&y).copied().unwrap_or(0)
    }

    fn case(&self, c: Case) -> usize {
        self.cases.get(&c).copied().unwrap_or(0)
    }

    fn report(&self, what: &str) -> String {
        let mut s = format!("{what}: {} rounds in {} games\n", self.rounds, self.games);
        for y in Yaku::ALL {
            let _ = writeln!(s, "  {} {}", y.name(), self.yaku(y));
        }
        for c in Case::ALL {
            let _ = writeln!(s, "  {} {}", c.describe(), self.case(c));
        }
        let _ = writeln!(s, "  floating numbers {:?}", self.floats);
        s
    }
}

// ---------------------------------------------------------------------------------------
// Playing: every round is followed by a copy of the game that ends with it.
// ---------------------------------------------------------------------------------------

/// A round in progress, watched through a copy of the game whose `match` frame is
/// dropped: the copy takes the same choices as the game and stops right after the round's
/// `清算`, with the capture piles, 伏せ札 and last field card still on the table (the game
/// itself goes on to gather them for the next deal before anyone can look).
struct Watch {
    st: State,
    /// The round's dealer, taken before the copy's `清算` names the next one.
    dealer: usize,
    chips0: Vec<i64>,
    events0: usize,
    round: usize,
}

/// Plays one seeded game, comparing every round; mismatches are described in `out`.
fn play(e: &Engine, seed: u64, agent: &str, rounds: i64, tally: &mut Tally, out: &mut Vec<String>) {
    let p = &e.p;
    let r = e.v.rules;
    let mut params = e.params.clone();
    params[e.rounds_param] = Some(Value::Int(rounds));
    let mut st = State::new(p, &params, seed).expect("a new game");
    let mut agents: Vec<Box<dyn Agent>> = (0..r.players)
        .map(|s| by_name(agent, agent_seed(seed, s)).expect("agent"))
        .collect();
    let mut watch: Option<Watch> = None;
    let mut ended: Option<(Vec<i64>, usize)> = None;
    let (mut round, mut compared, mut in_round) = (0, 0, false);
    let mut choices = Vec::new();
    let head = |round: usize| format!("{} seed {seed} ({agent}) round {round}", e.v.label());
    loop {
        let finished = st
            .advance(p)
            .unwrap_or_else(|err| panic!("{}: {}", head(round), err.message));
        // The watched copy ended the round: the game, now at its next decision (or its
        // end), must have moved the same chips and named the same dealer.
        if let Some((chips, dealer)) = ended.take() {
            let now = e.ints(&st, "chips");
            if now != chips || st.board.dealer as usize != dealer {
                out.push(format!(
                    "{}: the game has chips {now:?} and dealer {} after the round; its copy {chips:?} and {dealer}",
                    head(round),
                    st.board.dealer
                ));
            }
        }
        if finished {
            break;
        }
        if !in_round {
            round += 1;
            in_round = true;
            check_deal(e, &st, &head(round), out);
        }
        // The copy starts in the second-to-last go-round (each hand at 2 cards or fewer):
        // the last one may take no decision at all (one card left is played at once).
        let in_hands: usize = (0..st.board.seats)
            .map(|s| e.cards(&st, e.z_hand, Some(s)).len())
            .sum();
        if watch.is_none() && in_hands <= 2 * r.players {
            watch = Some(start_watch(e, &st, round, &head(round)));
        }
        let pending = st.pending().expect("a decision waits");
        if let Some(w) = &watch {
            let same = w.st.pending().is_some_and(|q| {
                q.seats.len() == pending.seats.len()
                    && q.seats
                        .iter()
                        .zip(&pending.seats)
                        .all(|(a, b)| a.seat == b.seat && a.moves == b.moves)
            });
            assert!(
                same,
                "{}: the watched copy left the game's path",
                head(round)
            );
        }
        choices.clear();
        for sm in &pending.seats {
            let moves: &[Move] = &sm.moves;
            let c = agents[sm.seat as usize].choose(p, &st, sm.seat, moves);
            choices.push(c.min(moves.len() - 1));
        }
        st.apply(p, &choices)
            .unwrap_or_else(|err| panic!("{}: {}", head(round), err.message));
        let Some(w) = watch.as_mut() else { continue };
        w.st.apply(p, &choices)
            .unwrap_or_else(|err| panic!("{}: {}", head(round), err.message));
        let done =
            w.st.advance(p)
                .unwrap_or_else(|err| panic!("{}: {}", head(round), err.message));
        if done {
            let w = watch.take().expect("watching");
            ended = Some((e.ints(&w.st, "chips"), w.st.board.dealer as usize));
            compare_round(e, &w, &head(w.round), tally, out);
            compared += 1;
            in_round = false;
            if out.len() >= REPORT {
                return;
            }
        }
    }
    tally.games += 1;
    let outcomes = st
        .events
        .iter()
        .filter(|ev| matches!(ev, Event::Outcome(..)))
        .count();
    assert!(
        outcomes == compared && compared == round,
        "{}: the game ended {outcomes} rounds, {round} were dealt, {compared} compared",
        head(round)
    );
    assert_eq!(round as i64, rounds, "{}: rounds played", head(round));
}

/// Checks a round's deal at its first decision, from the page's § The deal: hands, field
/// and stock of the variant's sizes, one 伏せ札, no three of a number on the field (a
/// mandatory redeal), nothing captured yet; the dealer plays first.
fn check_deal(e: &Engine, st: &State, head: &str, out: &mut Vec<String>) {
    let (hand, field, stock) = e.v.deal;
    let counts = |z: u16, s: Option<u8>| e.cards(st, z, s).len();
    let hands: Vec<usize> = (0..st.board.seats)
        .map(|s| counts(e.z_hand, Some(s)))
        .collect();
    let piles: Vec<usize> = (0..st.board.seats)
        .map(|s| counts(e.z_pile, Some(s)))
        .collect();
    let f = e.cards(st, e.z_field, None);
    let three = (1..=10).any(|k| f.iter().filter(|&&c| number(c) == k).count() >= 3);
    let first = st.pending().map(|pd| pd.seats[0].seat);
    if hands.iter().any(|&h| h != hand)
        || piles.iter().any(|&h| h != 0)
        || f.len() != field
        || three
        || counts(e.z_stock, None) != stock
        || counts(e.z_fuse, None) != 1
        || first != Some(st.board.dealer)
    {
        out.push(format!(
            "{head}: the deal: hands {hands:?} (want {hand} each), captures {piles:?}, field [{}] (want {field}, no three of a number), stock {} (want {stock}), 伏せ札 {}, first to play {first:?}, dealer {}",
            ids(&f),
            counts(e.z_stock, None),
            counts(e.z_fuse, None),
            st.board.dealer
        ));
    }
}

/// Copies the game for the rest of a round, with the `match` frame dropped.
fn start_watch(e: &Engine, st: &State, round: usize, head: &str) -> Watch {
    let p = &e.p;
    let mut w = st.clone();
    // frames: `match`, then the round `一局` it repeats, then whatever the round runs.
    let frame_is = |k: usize, code: CodeRef| w.frames.get(k).map(|f| f.code) == Some(code);
    assert!(
        p.entry.is_some_and(|m| frame_is(0, CodeRef::Proc(m)))
            && frame_is(1, CodeRef::Proc(e.round_proc)),
        "{head}: expected `match` then `一局` at the bottom of the call stack"
    );
    w.frames.remove(0);
    Watch {
        dealer: w.board.dealer as usize,
        chips0: e.ints(&w, "chips"),
        events0: w.events.len(),
        st: w,
        round,
    }
}

fn compare_round(e: &Engine, w: &Watch, head: &str, tally: &mut Tally, out: &mut Vec<String>) {
    let r = e.v.rules;
    let end = EndState {
        dealer: w.dealer,
        ..e.end_state(&w.st)
    };
    let mut o = Observed::from_events(&w.st.events[w.events0..]);
    o.chips = e
        .ints(&w.st, "chips")
        .iter()
        .zip(&w.chips0)
        .map(|(a, b)| a - b)
        .collect();
    o.tensa = e.ints(&w.st, "点差");
    o.shushi = e.ints(&w.st, "収支");
    o.next_dealer = w.st.board.dealer as usize;
    report(e, head, r, &end, &o, tally, out);
}

/// Checks one settled round against the oracle; a mismatch is described in `out`.
fn report(
    e: &Engine,
    head: &str,
    r: Rules,
    end: &EndState,
    o: &Observed,
    tally: &mut Tally,
    out: &mut Vec<String>,
) {
    let verdict = match oracle(r, end) {
        Ok(v) => v,
        Err(m) => {
            out.push(format!(
                "{head}: the end of the round could not arise under docs/games: {m}\n{}\n    engine: {}",
                end.describe(r),
                o.describe()
            ));
            return;
        }
    };
    tally.note(&verdict);
    let mut d = differences(r, end, &verdict, o);
    // The score table itself, called as the settlement calls it, must agree with the
    // oracle seat by seat.
    for (x, pile) in end.piles.iter().enumerate() {
        let t = e.yaku_table(pile, verdict.float, verdict.two_goso);
        let mut names: Vec<String> = t.yaku.iter().map(|y| y.name.to_string()).collect();
        names.sort_unstable();
        let mut want: Vec<String> = verdict.yaku[x]
            .iter()
            .map(|y| y.name().to_string())
            .collect();
        want.sort_unstable();
        if t.total != verdict.yaku_value[x] || (t.total > 0 && names != want) {
            d.push(format!(
                "seat {x}: the 役 table gives {names:?} = {}, docs/games {want:?} = {}",
                t.total, verdict.yaku_value[x]
            ));
        }
    }
    if !d.is_empty() {
        out.push(format!(
            "{head} ({} players, subtraction {}):\n{}\n    docs/games: {}\n    engine:     {}\n    differences: {}",
            r.players,
            r.subtraction,
            end.describe(r),
            verdict.why,
            o.describe(),
            d.join("; ")
        ));
    }
}

/// One batch of seeded games: a variant, an agent, how many games of how many rounds.
#[derive(Clone, Copy)]
struct Job {
    v: Variant,
    agent: &'static str,
    master: u64,
    games: u64,
    rounds: i64,
}

/// Plays a batch of games, comparing every round; the tally and the mismatches.
fn play_job(j: Job) -> (Tally, Vec<String>) {
    let e = Engine::new(j.v);
    let mut tally = Tally::default();
    let mut out = Vec::new();
    for g in 0..j.games {
        play(
            &e,
            game_seed(j.master, g),
            j.agent,
            j.rounds,
            &mut tally,
            &mut out,
        );
        if out.len() >= REPORT {
            break;
        }
    }
    eprintln!(
        "{}",
        tally.report(&format!("{} played by {}", j.v.label(), j.agent))
    );
    (tally, out)
}

/// Runs each batch on its own thread (each compiles its own program) and merges them.
fn run_jobs<J: Send + 'static>(
    jobs: Vec<J>,
    f: fn(J) -> (Tally, Vec<String>),
) -> (Tally, Vec<String>) {
    let handles: Vec<_> = jobs
        .into_iter()
        .map(|j| std::thread::spawn(move || f(j)))
        .collect();
    let mut tally = Tally::default();
    let mut out = Vec::new();
    for h in handles {
        let (t, o) = h.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        tally.absorb(&t);
        out.extend(o);
    }
    out.truncate(REPORT);
    (tally, out)
}

// ---------------------------------------------------------------------------------------
// Built end states: the cases play rarely reaches.
// ---------------------------------------------------------------------------------------

/// A legal end of round: every number but the floating one split into two captured
/// pairs, the floating number's 伏せ札 and last field card set apart and its pair with
/// the 浮き持. Biased toward what the 役 and their voids read: a seat aimed at 五双 or
/// 赤ダマ, two seats splitting 1–5 (two 五双), numbers kept whole (シマ, four of a number),
/// the floating number among 1–5 or 1/4/9 with the aimed seat its 浮き持.
fn built(rng: &mut Rng, players: usize) -> EndState {
    let a = rng.below(players);
    let b = (a + 1 + rng.below(players - 1)) % players;
    let two_goso = rng.chance(4);
    let goso = two_goso || rng.chance(2);
    let akadama = rng.chance(2);
    let whole = rng.below(3);
    let float = match rng.below(4) {
        _ if two_goso => 6 + rng.below(5),
        0 => 1 + rng.below(5),
        1 => [1, 4, 9][rng.below(3)],
        _ => 1 + rng.below(10),
    };
    let ukimochi = if rng.chance(2) { a } else { rng.below(players) };
    let mut piles = vec![Vec::new(); players];
    let mut fuse = Vec::new();
    let mut field = Vec::new();
    for k in 1..=10 {
        let mut cs = of_number(k).to_vec();
        rng.shuffle(&mut cs);
        if k == float {
            fuse.push(cs[0]);
            field.push(cs[1]);
            piles[ukimochi].extend([cs[2], cs[3]]);
            continue;
        }
        let mut owner = [rng.below(players), rng.below(players)];
        if whole > 0 && rng.chance(2 + whole) {
            owner[1] = owner[0];
        }
        if goso && k <= 5 {
            owner[0] = a;
            if two_goso {
                owner[1] = b;
            }
        }
        if akadama && [1, 4, 9].contains(&k) {
            // the pair holding 赤ピン (玉四) is cs[0..2] or cs[2..4]
            let first = !(k != 9 && cs[2..].iter().any(|&c| c == AKAPIN || c == GYOKUSHI));
            owner[if first { 0 } else { 1 }] = a;
        }
        piles[owner[0]].extend([cs[0], cs[1]]);
        piles[owner[1]].extend([cs[2], cs[3]]);
    }
    EndState {
        dealer: rng.below(players),
        piles,
        fuse,
        field,
        stray: Vec::new(),
    }
}

/// Runs the engine's own `清算` on a built end state (the way `fuda score --settle` does).
fn settle_built(e: &Engine, end: &EndState) -> Result<Observed, String> {
    let p = &e.p;
    let mut st = State::blank(p, &e.params, 0).map_err(|x| x.message.clone())?;
    st.board.dealer = end.dealer as u8;
    let mut place = |cs: &[Card], z: u16, seat: Option<u8>| {
        let inst = st.board.zone_instance(z, seat);
        for &c in cs {
            st.board.move_card(e.ix[c], inst);
        }
    };
    for (x, pile) in end.piles.iter().enumerate() {
        place(pile, e.z_pile, Some(x as u8));
    }
    place(&end.fuse, e.z_fuse, None);
    place(&end.field, e.z_field, None);
    st.push_frame(p, CodeRef::Proc(e.settle_proc), Vec::new());
    match st.advance(p) {
        Ok(true) => {}
        Ok(false) => return Err("清算 asks for a decision".into()),
        Err(x) => return Err(x.message.clone()),
    }
    let mut o = Observed::from_events(&st.events);
    o.chips = e.ints(&st, "chips");
    o.tensa = e.ints(&st, "点差");
    o.shushi = e.ints(&st, "収支");
    o.next_dealer = st.board.dealer as usize;
    Ok(o)
}

/// Settles `n` built end states of a variant with the engine and the oracle. One state
/// in ten is drawn again until the oracle sees a tie for the next deal (ties are rare
/// and the tie-break is a rule of its own).
fn built_job((v, seed, n): (Variant, u64, usize)) -> (Tally, Vec<String>) {
    let e = Engine::new(v);
    let r = v.rules;
    let mut rng = Rng(seed);
    let mut tally = Tally::default();
    let mut out = Vec::new();
    for i in 0..n {
        let mut end = built(&mut rng, r.players);
        if i % 40 == 0 {
            for _ in 0..10_000 {
                let tie = oracle(r, &end).is_ok_and(|v| v.cases.contains(&Case::DealerTie));
                if tie {
                    break;
                }
                end = built(&mut rng, r.players);
            }
        }
        let head = format!("{} built end state {i} (seed {seed:#x})", v.label());
        match settle_built(&e, &end) {
            Ok(o) => report(&e, &head, r, &end, &o, &mut tally, &mut out),
            Err(m) => out.push(format!("{head}: 清算 fails: {m}\n{}", end.describe(r))),
        }
        if out.len() >= REPORT {
            break;
        }
    }
    eprintln!(
        "{}",
        tally.report(&format!("{} built end states", v.label()))
    );
    (tally, out)
}

fn assert_covered(t: &Tally, at_least: usize, what: &str) {
    let mut missing: Vec<&str> = Yaku::ALL
        .iter()
        .filter(|&&y| t.yaku(y) < at_least)
        .map(|y| y.name())
        .collect();
    missing.extend(
        Case::ALL
            .iter()
            .filter(|&&c| t.case(c) < at_least)
            .map(|c| c.describe()),
    );
    assert!(
        missing.is_empty(),
        "{what}: cases exercised fewer than {at_least} times: {missing:?}\n{}",
        t.report(what)
    );
}

// ---------------------------------------------------------------------------------------
// Tests.
// ---------------------------------------------------------------------------------------

/// The oracle's cards are the engine's deck: numbers, 赤ピン and 玉四.
#[test]
fn the_oracle_cards_are_the_engine_deck() {
    let e = Engine::new(VARIANTS[0]);
    let d = &e.p.deck;
    assert_eq!(
        d.len(),
        40,
        "the engine's deck has {} cards, not 40",
        d.len()
    );
    let num = d.attr_named("number").expect("attribute number");
    let tag = |name: &str| d.tag_named(name).map(|t| d.tags[t as usize]);
    let (aka, gyoku) = (
        tag("赤ピン").expect("tag 赤ピン"),
        tag("玉四").expect("tag 玉四"),
    );
    let mut bad = Vec::new();
    for c in 0..40 {
        let x = e.ix[c];
        let (m, a, g) = (d.attr(num, x), aka.contains(x), gyoku.contains(x));
        if m != number(c) as i64 || a != (c == AKAPIN) || g != (c == GYOKUSHI) {
            bad.push(format!(
                "{}: engine number {m}, 赤ピン {a}, 玉四 {g}",
                id(c)
            ));
        }
    }
    assert!(bad.is_empty(), "deck mismatch:\n{}", bad.join("\n"));
    assert_eq!(
        total_points(&(0..40).collect::<Vec<_>>()),
        240,
        "240 in all"
    );
    // "A match is any number of rounds (parameter `rounds`, 1..120, default 6)"
    assert_eq!(
        e.p.params[e.rounds_param].default,
        Value::Int(6),
        "the default number of rounds"
    );
}

/// The original rules' worked example (docs/games/ukishima.md § Worked examples: 甲 64,
/// 乙 46, 丙 94, 丙 the 浮き持 of 9s: +20, +2, −22), as
/// piles of real captures; 丙's pile also shows two voids: its 五双 has four 1s and its
/// 赤ダマ stands on the floating 9s. Without subtraction (3 players): each other adds 18.
#[test]
fn the_original_worked_example() {
    let cards = |t: &str| -> Vec<Card> {
        t.split_whitespace()
            .map(|w| (0..40).find(|&c| id(c) == w).expect("a card id"))
            .collect()
    };
    let end = EndState {
        dealer: 0,
        piles: vec![
            cards("10a 10b 10c 10d 8a 8b 4c 4d"),
            cards("7a 7b 6a 6b 5a 5b 3a 3b 2a 2b"),
            cards("1a 1b 1c 1d 2c 2d 3c 3d 4a 4b 5c 5d 6c 6d 7c 7d 8c 8d 9a 9b"),
        ],
        fuse: cards("9c"),
        field: cards("9d"),
        stray: Vec::new(),
    };
    for (v, want) in [(VARIANTS[0], [20, 2, -22]), (VARIANTS[1], [2, -16, 14])] {
        let r = v.rules;
        let verdict = oracle(r, &end).expect("a legal end state");
        assert_eq!(verdict.total, want, "the oracle: {}", verdict.why);
        assert!(verdict.yaku.iter().all(|y| y.is_empty()), "{}", verdict.why);
        assert!(
            verdict.cases.contains(&Case::GosoVoidFour)
                && verdict.cases.contains(&Case::AkadamaVoidFloat),
            "{}",
            verdict.why
        );
        let e = Engine::new(v);
        let o = settle_built(&e, &end).expect("清算 runs");
        let d = differences(r, &end, &verdict, &o);
        assert!(
            d.is_empty(),
            "{}: {}\n    engine: {}",
            v.label(),
            d.join("; "),
            o.describe()
        );
    }
}

/// Seeded games of every variant, every round compared with the oracle: random agents
/// on all, and greedy ones (which steer toward 役 by looking ahead, slowly in a debug
/// build) for a few games. Every 役 and every void must come up in play.
#[test]
fn played_rounds_agree() {
    let job = |k: usize, agent, master, games, rounds| Job {
        v: VARIANTS[k],
        agent,
        master,
        games,
        rounds,
    };
    let jobs = vec![
        job(0, "random", 0x0B15_0001, 40, 6),
        job(0, "greedy", 0x0B15_0002, 2, 4),
        job(1, "random", 0x0B15_0003, 20, 6),
        job(2, "random", 0x0B15_0004, 20, 6),
        job(2, "greedy", 0x0B15_0005, 1, 4),
        job(3, "random", 0x0B15_0006, 20, 6),
        job(4, "random", 0x0B15_0007, 20, 6),
        job(5, "random", 0x0B15_0008, 20, 6),
    ];
    let want: u64 = jobs.iter().map(|j| j.games * j.rounds as u64).sum();
    let (t, out) = run_jobs(jobs, play_job);
    check(&out, "played rounds");
    eprintln!("{}", t.report("all played rounds"));
    assert_eq!(
        t.rounds as u64, want,
        "every round of every game was compared"
    );
    assert!(t.rounds >= 300);
    assert_covered(&t, 3, "played rounds");
}

/// Built end states for each settlement the page gives (3 or 2 players, with or without
/// subtraction; 手九場三 settles like 手八場七): every 役 and every void many times.
#[test]
fn built_end_states_agree() {
    let jobs: Vec<(Variant, u64, usize)> = (0..4)
        .map(|k| (VARIANTS[k], 0x5E77_1E00 + k as u64, 600))
        .collect();
    let (t, out) = run_jobs(jobs, built_job);
    check(&out, "built end states");
    eprintln!("{}", t.report("all built end states"));
    assert_covered(&t, 20, "built end states");
}
