//! 花合わせ 奈良大仏前ローカル (Nara hana-awase): an independent settlement oracle written
//! from `docs/games/nara-hanaawase.md` (the original rules' phrases are quoted where they
//! decide a case), checked against the chips fuda actually moves when it plays
//! `rulesets/nara-hanaawase.fuda`. A misreading of the page in the rule file (a card's
//! value, a 出来役, 月見て一杯 and the rain card, ふけ / 二十ふけ, who pays whom, the 鬼
//! remainder, a redeal settled by mistake…) must fail here, so the
//! oracle shares none of the rule file's code: it reads only the names of the zones,
//! variables, score tables and decisions, and follows the rule file's documented
//! "choice:" comments where the original rules are silent (listed below; each is a
//! "Reading:" on the page).
//!
//! Choices of the rule file this oracle relies on (each is a "choice:" comment there):
//! - 出来役 add up: a player holding several is paid each (上だんこ + 下だんこ = 150).
//! - 鬼 is no wild card in a 出来役: it only captures (and counts 40 points).
//! - ふけ is paid by every other player, another ふけ player included ("全員から").
//! - The first dealer is seat 0 (the deal then passes to the right every hand).
//! - The deal exceptions run in the order 四たれ, 浮く, 鬼 (鬼 last, as the original lists it).
//! - A redeal is asked at the start of one's first turn.
//!
//! How the engine is watched: a game is stepped decision by decision through the public
//! API (`State::advance`, `pending`, `apply`), so every decision (hand choice, redeal
//! request, play, capture choice, 鬼's かぶる) and every event (say, record, outcome) is
//! seen. The capture piles can only be read between decisions, and a hand's last
//! decision comes before several forced turns, the settlement and the next deal (which
//! gathers the piles back). So a hand is read where the game ends: a match of `k` hands
//! (the ruleset's `hands` parameter) plays exactly the first `k` hands of the longer
//! match of the same seed, and its final board holds hand `k`'s capture piles untouched.
//! Whole 12-hand matches are checked hand by hand that way; most hands are 1-hand
//! matches (dealer seat 0).

use fuda_tests::oracle::{check, Rng};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use fuda_core::agents::{by_name, Agent};
use fuda_core::engine::Event;
use fuda_core::loader::NoFiles;
use fuda_core::model::{CardIx, CardSet};
use fuda_core::play::{agent_seed, game_seed, settle, Described, ZoneCards};
use fuda_core::score::score_with;
use fuda_core::value::{ScoreResult, Value};
use fuda_core::{Program, State};

// ---------------------------------------------------------------------------------------
// The 49 cards, from docs/games/README.md § Card ids and docs/games/nara-hanaawase.md
// § Cards and points: "Each month has one 30, one 20 and two 0 cards", and 鬼 is 40.
// ---------------------------------------------------------------------------------------

/// id, month (0 for 鬼, which has none), points.
const CARDS: [(&str, u8, i64); 49] = [
    ("1-crane", 1, 30),
    ("1-ribbon", 1, 20),
    ("1-kasu-a", 1, 0),
    ("1-kasu-b", 1, 0),
    ("2-warbler", 2, 30),
    ("2-ribbon", 2, 20),
    ("2-kasu-a", 2, 0),
    ("2-kasu-b", 2, 0),
    ("3-curtain", 3, 30),
    ("3-ribbon", 3, 20),
    ("3-kasu-a", 3, 0),
    ("3-kasu-b", 3, 0),
    ("4-cuckoo", 4, 30),
    ("4-ribbon", 4, 20),
    ("4-kasu-a", 4, 0),
    ("4-kasu-b", 4, 0),
    ("5-bridge", 5, 30),
    ("5-ribbon", 5, 20),
    ("5-kasu-a", 5, 0),
    ("5-kasu-b", 5, 0),
    ("6-butterflies", 6, 30),
    ("6-ribbon", 6, 20),
    ("6-kasu-a", 6, 0),
    ("6-kasu-b", 6, 0),
    ("7-boar", 7, 30),
    ("7-ribbon", 7, 20),
    ("7-kasu-a", 7, 0),
    ("7-kasu-b", 7, 0),
    // 8: the geese are the 20 (no ribbon in 芒)
    ("8-moon", 8, 30),
    ("8-geese", 8, 20),
    ("8-kasu-a", 8, 0),
    ("8-kasu-b", 8, 0),
    ("9-cup", 9, 30),
    ("9-ribbon", 9, 20),
    ("9-kasu-a", 9, 0),
    ("9-kasu-b", 9, 0),
    ("10-deer", 10, 30),
    ("10-ribbon", 10, 20),
    ("10-kasu-a", 10, 0),
    ("10-kasu-b", 10, 0),
    // 11: 燕 is 0 ("派手だが0点")
    ("11-rainman", 11, 30),
    ("11-swallow", 11, 0),
    ("11-ribbon", 11, 20),
    ("11-kasu", 11, 0),
    // 12: 黄桐 is the 20 ("一番派手な奴の次に派手なのが20点")
    ("12-phoenix", 12, 30),
    ("12-kasu-a", 12, 0),
    ("12-kasu-b", 12, 0),
    ("12-kasu-yellow", 12, 20),
    // The original gives 鬼 no id; `oni` is the rule file's name for it (and the page's).
    ("oni", 0, 40),
];

/// A card, as an index into [`CARDS`].
type Card = usize;

const ONI: Card = 48;

fn id(c: Card) -> &'static str {
    CARDS[c].0
}
fn month(c: Card) -> u8 {
    CARDS[c].1
}
fn points(c: Card) -> i64 {
    CARDS[c].2
}

fn card(name: &str) -> Card {
    CARDS
        .iter()
        .position(|(i, ..)| *i == name)
        .unwrap_or_else(|| panic!("no card `{name}` in the oracle's table"))
}

fn ids(cs: &[Card]) -> String {
    let mut v = cs.to_vec();
    v.sort_unstable();
    v.iter().map(|&c| id(c)).collect::<Vec<_>>().join(" ")
}

/// The cards of month `m` (never 鬼).
fn of_month(m: u8) -> Vec<Card> {
    (0..48).filter(|&c| month(c) == m).collect()
}

// ---------------------------------------------------------------------------------------
// The oracle: docs/games/nara-hanaawase.md § Settlement (ふけ, points − 160, the yaku).
// ---------------------------------------------------------------------------------------

/// The seven 出来役 of the original's 役一覧表 (the page's yaku table), in its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Yaku {
    Kamidanko,
    Shimodanko,
    Inoshikacho,
    Aotan,
    Tsukimi,
    Fujishima,
    Kirishima,
}

impl Yaku {
    const ALL: [Yaku; 7] = [
        Yaku::Kamidanko,
        Yaku::Shimodanko,
        Yaku::Inoshikacho,
        Yaku::Aotan,
        Yaku::Tsukimi,
        Yaku::Fujishima,
        Yaku::Kirishima,
    ];

    fn name(self) -> &'static str {
        match self {
            Yaku::Kamidanko => "上だんこ",
            Yaku::Shimodanko => "下だんこ",
            Yaku::Inoshikacho => "猪鹿蝶",
            Yaku::Aotan => "青短",
            Yaku::Tsukimi => "月見て一杯",
            Yaku::Fujishima => "藤しま",
            Yaku::Kirishima => "桐しま",
        }
    }

    /// "上だんこ: 全員から100点づつ … 下だんこ: 全員から50点づつ … その他: 全員から30点づつ".
    fn value(self) -> i64 {
        match self {
            Yaku::Kamidanko => 100,
            Yaku::Shimodanko => 50,
            _ => 30,
        }
    }

    /// The cards the 出来役 needs, all of them in one player's captures.
    fn cards(self) -> Vec<Card> {
        let named = |l: &[&str]| l.iter().map(|n| card(n)).collect();
        match self {
            Yaku::Kamidanko => named(&["1-crane", "2-warbler", "3-curtain"]),
            Yaku::Shimodanko => named(&["1-ribbon", "2-ribbon", "3-ribbon"]),
            Yaku::Inoshikacho => named(&["6-butterflies", "7-boar", "10-deer"]),
            Yaku::Aotan => named(&["6-ribbon", "9-ribbon", "10-ribbon"]),
            Yaku::Tsukimi => named(&["8-moon", "9-cup"]),
            // "4枚全部"
            Yaku::Fujishima => of_month(4),
            Yaku::Kirishima => of_month(12),
        }
    }
}

/// ふけ(り): "一枚も点札をとらずにすませた場合は全員から100点ずつ", "20点が一枚だけだった
/// 場合は全員から50点ずつ".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Fuke {
    /// No point card at all: 100 from each other player.
    Hyaku,
    /// Exactly one 20 and nothing else of value: 50 from each.
    Niju,
}

impl Fuke {
    fn value(self) -> i64 {
        match self {
            Fuke::Hyaku => 100,
            Fuke::Niju => 50,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Fuke::Hyaku => "ふけ(点札なし) 100",
            Fuke::Niju => "ふけ(20点一枚) 50",
        }
    }
}

/// One seat's part of the oracle's answer.
#[derive(Clone, Debug, Default)]
struct SeatVerdict {
    points: i64,
    fuke: Option<Fuke>,
    /// 出来役 held (月見て一杯 left out when spoiled by the rain card).
    held: Vec<Yaku>,
    /// 月見て一杯 held but void: the same player took 11-rainman.
    tsukimi_spoiled: bool,
    /// 鬼 kept what would have been a 二十ふけ from being one.
    oni_spoils_fuke: bool,
    /// Whether the held 出来役 are paid (not voided by another player's ふけ).
    paid: bool,
}

impl SeatVerdict {
    fn yaku_total(&self) -> i64 {
        self.held.iter().map(|y| y.value()).sum()
    }
}

/// The oracle's answer for one hand.
#[derive(Clone, Debug)]
struct Verdict {
    seats: Vec<SeatVerdict>,
    any_fuke: bool,
    /// Each seat's change of chips.
    delta: Vec<i64>,
    /// How it got there, for failure messages.
    why: String,
}

/// Settles one hand from the four capture piles alone.
fn oracle(piles: &[Vec<Card>]) -> Verdict {
    let n = piles.len() as i64;
    let mut why = String::new();
    let mut seats = Vec::new();
    for pile in piles {
        let has = |c: Card| pile.contains(&c);
        // "点札": the 30s, the 20s and 鬼 (鬼 "counts as one too").
        let thirties = pile.iter().filter(|&&c| points(c) == 30).count();
        let twenties = pile.iter().filter(|&&c| points(c) == 20).count();
        let oni = has(ONI);
        let fuke = match (thirties, twenties, oni) {
            (0, 0, false) => Some(Fuke::Hyaku),
            (0, 1, false) => Some(Fuke::Niju),
            _ => None,
        };
        let mut held = Vec::new();
        let mut tsukimi_spoiled = false;
        for y in Yaku::ALL {
            // 鬼 is no wild card (choice): every card must be there itself.
            if y.cards().iter().all(|&c| has(c)) {
                // "注)雨の点札を取ったら不成立", read as 11-rainman (the page's reading).
                if y == Yaku::Tsukimi && has(card("11-rainman")) {
                    tsukimi_spoiled = true;
                } else {
                    held.push(y);
                }
            }
        }
        seats.push(SeatVerdict {
            points: pile.iter().map(|&c| points(c)).sum(),
            fuke,
            held,
            tsukimi_spoiled,
            oni_spoils_fuke: oni && thirties == 0 && twenties <= 1,
            paid: true,
        });
    }
    let any_fuke = seats.iter().any(|s| s.fuke.is_some());
    let mut delta = vec![0i64; piles.len()];
    // ふけ: "このときは通常の点数清算は行わない。また他の人の全ての役が無効になる。"
    for s in seats.iter_mut() {
        s.paid = !any_fuke || s.fuke.is_some();
    }
    for (i, s) in seats.iter().enumerate() {
        let _ = write!(why, "\n      seat {i}: {} points", s.points);
        if let Some(f) = s.fuke {
            let _ = write!(why, ", {}", f.name());
            // paid by every other player, a ふけ player too (choice: "全員から")
            for (j, d) in delta.iter_mut().enumerate() {
                *d += if j == i {
                    (n - 1) * f.value()
                } else {
                    -f.value()
                };
            }
        }
        if s.oni_spoils_fuke {
            let _ = write!(why, ", 鬼 is a point card: no ふけ");
        }
        for y in &s.held {
            let _ = write!(why, ", {} {}", y.name(), y.value());
        }
        if s.tsukimi_spoiled {
            let _ = write!(why, ", 月見て一杯 void (11-rainman)");
        }
        if !s.held.is_empty() && !s.paid {
            let _ = write!(why, " (void: another player's ふけ)");
        }
        if s.paid {
            // "役ができた人がいれば全員から役に応じた数の豆をもらう"; several add up (choice)
            let v = s.yaku_total();
            for (j, d) in delta.iter_mut().enumerate() {
                *d += if j == i { (n - 1) * v } else { -v };
            }
        }
    }
    if any_fuke {
        let _ = write!(why, "\n      ふけ: no card-point settlement");
    } else {
        // "160点を原点としてプラスマイナスを清算する": 4 × 160 = 640, so it balances.
        for (d, s) in delta.iter_mut().zip(&seats) {
            *d += s.points - 160;
        }
        let _ = write!(why, "\n      card points − 160 each");
    }
    let _ = write!(why, "\n      → {delta:?}");
    Verdict {
        seats,
        any_fuke,
        delta,
        why,
    }
}

/// A pile's 出来役 as the bare table sees it (no ふけ of other players involved).
fn table_yaku(pile: &[Card]) -> (i64, Vec<&'static str>) {
    let v = oracle(std::slice::from_ref(&pile.to_vec()));
    let s = &v.seats[0];
    (s.yaku_total(), s.held.iter().map(|y| y.name()).collect())
}

/// Months held in odd number. Every capture is two cards of one month, 浮く takes two of a
/// month, and 鬼's card and the month's left-over card both go to the 鬼 user, so at the
/// end of a hand every seat holds an even number of each month's cards.
fn odd_months(pile: &[Card]) -> Vec<u8> {
    (1..=12u8)
        .filter(|&m| pile.iter().filter(|&&c| month(c) == m).count() % 2 == 1)
        .collect()
}

// ---------------------------------------------------------------------------------------
// The engine: names from the rule file (zones, variables, tables, decisions) only.
// ---------------------------------------------------------------------------------------

struct Engine {
    p: Program,
    /// Engine card index of each oracle card, and back.
    ix: [CardIx; 49],
    back: Vec<Card>,
    hands_param: usize,
    field: u16,
    hand: u16,
    stock: u16,
    pile_a: u16,
    pile_b: u16,
    captures: u16,
    /// Every zone, for "nothing is left anywhere but the capture piles".
    zones: Vec<(String, u16, bool)>,
    chips: u16,
    oni_month: u16,
    oni_user: u16,
    yaku_table: u16,
    fuke_table: u16,
}

impl Engine {
    fn new() -> Engine {
        let text = include_str!("../../rulesets/nara-hanaawase.fuda");
        // `import "std/hanafuda"` is the stdlib compiled into fuda-core: no files needed.
        let c = fuda_core::compile("nara-hanaawase.fuda", text, &NoFiles).unwrap_or_else(|f| {
            panic!("nara-hanaawase.fuda does not compile: {:#?}", f.diagnostics)
        });
        let p = c.program;
        let mut ix = [0; 49];
        for (c, slot) in ix.iter_mut().enumerate() {
            *slot = p
                .deck
                .ids
                .iter()
                .position(|i| i == id(c))
                .unwrap_or_else(|| panic!("the engine's deck has no card `{}`", id(c)))
                as CardIx;
        }
        let mut back = vec![usize::MAX; p.deck.len()];
        for (c, &x) in ix.iter().enumerate() {
            back[x as usize] = c;
        }
        let zone = |n: &str| {
            p.zones
                .iter()
                .position(|z| z.name == n)
                .unwrap_or_else(|| panic!("the rule file has no zone `{n}`")) as u16
        };
        let var = |n: &str| {
            p.vars
                .iter()
                .position(|v| v.name == n)
                .unwrap_or_else(|| panic!("the rule file has no variable `{n}`")) as u16
        };
        let zones = p
            .zones
            .iter()
            .enumerate()
            .map(|(i, z)| {
                (
                    z.name.clone(),
                    i as u16,
                    z.owner == fuda_core::ir::Owner::PerSeat,
                )
            })
            .collect();
        Engine {
            ix,
            back,
            hands_param: p
                .params
                .iter()
                .position(|d| d.name == "hands")
                .expect("parameter `hands`"),
            field: zone("場"),
            hand: zone("手札"),
            stock: zone("持ち山"),
            pile_a: zone("山一"),
            pile_b: zone("山二"),
            captures: zone("取り札"),
            zones,
            chips: var("chips"),
            oni_month: var("鬼月"),
            oni_user: var("鬼使い"),
            yaku_table: p.score_named("役").expect("score table 役"),
            fuke_table: p.score_named("ふけ表").expect("score table ふけ表"),
            p,
        }
    }

    fn cards_in(&self, st: &State, z: u16, seat: Option<u8>) -> Vec<Card> {
        let inst = st.board.zone_instance(z, seat);
        st.board.zones[inst as usize]
            .iter()
            .map(|&x| self.back[x as usize])
            .collect()
    }

    fn var(&self, st: &State, v: u16, seat: Option<u8>) -> i64 {
        st.board.vars[st.board.var_slot(v, seat)].int()
    }

    fn chips(&self, st: &State) -> Vec<i64> {
        (0..st.board.seats)
            .map(|s| self.var(st, self.chips, Some(s)))
            .collect()
    }

    fn set(&self, cs: &[Card]) -> CardSet {
        cs.iter().map(|&c| self.ix[c]).collect()
    }

    fn table(&self, t: u16, pile: &[Card]) -> ScoreResult {
        score_with(&self.p, t, vec![Some(Value::Cards(self.set(pile)))])
            .unwrap_or_else(|e| panic!("table fails on [{}]: {}", ids(pile), e.message))
    }

    fn params(&self, hands: i64) -> Vec<Option<Value>> {
        let mut v = vec![None; self.p.params.len()];
        v[self.hands_param] = Some(Value::Int(hands));
        v
    }
}

fn describe(r: &ScoreResult) -> String {
    let lines: Vec<String> = r
        .yaku
        .iter()
        .map(|y| format!("{} {}", y.name, y.value))
        .collect();
    format!(
        "{} [{}] total {}",
        r.name.as_str(),
        lines.join(", "),
        r.total
    )
}

// ---------------------------------------------------------------------------------------
// Watching a game decision by decision.
// ---------------------------------------------------------------------------------------

/// Where a 鬼 that took a card came from (seen at its かぶる decision).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum OniFrom {
    /// On the field at the deal: the dealer takes a card with it.
    Deal,
    /// Played from the hand.
    Hand,
    /// Flipped from one's own stock.
    Flip,
}

#[derive(Clone, Debug)]
struct OniUse {
    user: u8,
    took: Card,
    from: OniFrom,
}

/// One deal (a hand has several when it is dealt again).
#[derive(Clone, Debug, Default)]
struct Deal {
    /// Seats offered a redeal, and whether one was asked.
    offered: [bool; 4],
    asked: bool,
    /// Round-1 turn order.
    order: Vec<u8>,
    /// The seat that took with 鬼 at the deal.
    deal_oni: Option<u8>,
    oni: Option<OniUse>,
    /// 鬼 remainders given at once during play (the rule file's say message).
    remainder_at_once: usize,
    /// Months that floated (浮く).
    uku: usize,
}

/// What was seen of one hand.
#[derive(Clone, Debug, Default)]
struct Hand {
    number: usize,
    dealer: Option<u8>,
    outcome: Option<String>,
    records: Vec<(u8, Arc<ScoreResult>)>,
    chips_before: Vec<i64>,
    chips_after: Vec<i64>,
    /// Deals that reached a decision.
    deals: usize,
    /// Redeals asked by a player (配り直しの請求).
    asked: usize,
    /// 四たれ on the field (the rule file's say message).
    yotare: usize,
    last: Deal,
    problems: Vec<String>,
}

/// A finished game: every hand seen, and the final board's capture piles.
struct Run {
    hands: Vec<Hand>,
    piles: Vec<Vec<Card>>,
    /// Cards anywhere but a capture pile at the end.
    leftover: Vec<String>,
    /// The engine's own 鬼 bookkeeping at the end (for cross-checks and counts).
    oni_month: i64,
    oni_user: i64,
}

/// 手札に点札が一枚もない / 同じ札が4枚: the hand may be given back.
fn may_redeal(hand: &[Card]) -> bool {
    let no_point = hand.iter().all(|&c| points(c) == 0);
    let four = (1..=12u8).any(|m| hand.iter().filter(|&&c| month(c) == m).count() == 4);
    no_point || four
}

/// Plays one game of `hands` hands with one agent kind, watching every decision.
fn play(e: &Engine, seed: u64, hands: i64, kinds: &[&str; 4]) -> Run {
    let p = &e.p;
    let mut st = State::new(p, &e.params(hands), seed).expect("the game starts");
    st.keep_log = true;
    let seats = st.board.seats;
    assert_eq!(seats, 4, "花合わせ is for 4 players");
    let mut agents: Vec<Box<dyn Agent>> = (0..seats as usize)
        .map(|s| agent(e, kinds[s], agent_seed(seed, s)))
        .collect();
    let mut done: Vec<Hand> = Vec::new();
    let mut cur = Hand {
        number: 1,
        chips_before: e.chips(&st),
        ..Hand::default()
    };
    let mut deal = Deal::default();
    let mut scanned = 0;
    let mut chips = e.chips(&st);
    let mut prev_fresh = false;
    // A player asked for a redeal at the last decision.
    let mut given_back = false;
    loop {
        let finished = st.advance(p).unwrap_or_else(|err| {
            panic!(
                "seed {seed}: the game fails: {} at {:?}",
                err.message, err.loc
            )
        });
        let now = e.chips(&st);
        let mut ended = false;
        for ev in &st.events[scanned..] {
            match ev {
                Event::Say(m) => {
                    if m.contains("4枚") {
                        cur.yotare += 1;
                    }
                    if m.contains("鬼の残り") {
                        deal.remainder_at_once += 1;
                    }
                }
                Event::Record(s, r, _) => cur.records.push((*s, r.clone())),
                Event::Outcome(o, d) => {
                    ended = true;
                    cur.outcome = Some(o.to_string());
                    cur.dealer = Some(*d);
                    cur.chips_after = now.clone();
                    cur.last = std::mem::take(&mut deal);
                    let next = Hand {
                        number: cur.number + 1,
                        chips_before: now.clone(),
                        ..Hand::default()
                    };
                    done.push(std::mem::replace(&mut cur, next));
                    prev_fresh = false;
                }
                Event::Tally(..) => {}
            }
        }
        scanned = st.events.len();
        // Chips move at a settlement only: a redeal, a capture, 鬼 pay nothing.
        if !ended && now != chips {
            cur.problems.push(format!(
                "chips moved from {chips:?} to {now:?} with no hand settled"
            ));
        }
        chips = now;
        if finished {
            break;
        }
        let pending = st.pending().expect("a decision waits").clone();
        let code = st.pending_code(p);
        let first = &pending.seats[0];
        let kind = pending.option_name(code, &first.moves[0]).to_string();
        let s = first.seat;
        let args: Vec<Card> = first
            .moves
            .iter()
            .filter_map(|m| match m.arg {
                Value::Card(c) => Some(e.back[c as usize]),
                _ => None,
            })
            .collect();
        let field = e.cards_in(&st, e.field, None);
        let hand_of = |x: u8| e.cards_in(&st, e.hand, Some(x));
        let stock_of = |x: u8| e.cards_in(&st, e.stock, Some(x));
        // A freshly dealt table: two piles of 5 each, no hand, no stock yet.
        let fresh = (0..seats).all(|x| {
            hand_of(x).is_empty()
                && stock_of(x).is_empty()
                && e.cards_in(&st, e.pile_a, Some(x)).len() == 5
                && e.cards_in(&st, e.pile_b, Some(x)).len() == 5
        });
        if given_back && (ended || !fresh) {
            cur.problems.push(if ended {
                "a hand given back for a redeal was settled".into()
            } else {
                "a redeal was asked but play went on".into()
            });
        }
        given_back = false;
        if fresh && !prev_fresh {
            // A new deal. The one before, in the same hand, can only have been given back
            // by a player (四たれ on the field redeals before anyone decides anything).
            if cur.deals > 0 && !deal.asked {
                cur.problems
                    .push("dealt again though nobody asked for a redeal".into());
            }
            deal = Deal::default();
            cur.deals += 1;
            check_deal(e, &st, &kind, s, &mut deal, &mut cur.problems);
        }
        prev_fresh = fresh;
        match kind.as_str() {
            "続ける" | "請求" => {
                let h = hand_of(s);
                if h.len() != 5 || !may_redeal(&h) {
                    cur.problems.push(format!(
                        "seat {s} offered a redeal with hand [{}]: only a first-turn hand with no point card or four of a month may be given back",
                        ids(&h)
                    ));
                }
                deal.offered[s as usize] = true;
            }
            "出す" => {
                let h = hand_of(s);
                let mut offered = args.clone();
                offered.sort_unstable();
                let mut all = h.clone();
                all.sort_unstable();
                if offered != all {
                    cur.problems.push(format!(
                        "seat {s} may play [{}] of hand [{}]: any hand card may be played",
                        ids(&offered),
                        ids(&h)
                    ));
                }
                if h.len() == 5 {
                    deal.order.push(s);
                    if may_redeal(&h) && !deal.offered[s as usize] {
                        cur.problems.push(format!(
                            "seat {s} plays hand [{}] without being offered a redeal",
                            ids(&h)
                        ));
                    }
                }
            }
            "取る" => {
                let m = args.first().map(|&c| month(c)).unwrap_or(0);
                let mut same: Vec<Card> =
                    field.iter().copied().filter(|&c| month(c) == m).collect();
                same.sort_unstable();
                let mut offered = args.clone();
                offered.sort_unstable();
                if m == 0 || offered != same || same.len() < 2 {
                    cur.problems.push(format!(
                        "seat {s} chooses among [{}] with field [{}]: the choice is between the field cards of one month",
                        ids(&offered),
                        ids(&field)
                    ));
                }
            }
            "かぶる" => {
                let mut offered = args.clone();
                offered.sort_unstable();
                let mut all = field.clone();
                all.sort_unstable();
                if offered != all {
                    cur.problems.push(format!(
                        "seat {s}'s 鬼 may take [{}] of field [{}]: 鬼 takes any field card",
                        ids(&offered),
                        ids(&field)
                    ));
                }
                let from = if fresh {
                    OniFrom::Deal
                } else if hand_of(s).len() < stock_of(s).len() {
                    OniFrom::Hand
                } else {
                    OniFrom::Flip
                };
                if from == OniFrom::Deal {
                    deal.deal_oni = Some(s);
                }
                deal.oni = Some(OniUse {
                    user: s,
                    took: usize::MAX,
                    from,
                });
            }
            "一" | "二" => {}
            other => cur
                .problems
                .push(format!("an unknown decision `{other}` for seat {s}")),
        }
        let mut choices = Vec::new();
        for sm in &pending.seats {
            let agent = &mut agents[sm.seat as usize];
            let c = agent
                .choose(p, &st, sm.seat, &sm.moves)
                .min(sm.moves.len() - 1);
            choices.push(c);
        }
        let chosen = &first.moves[choices[0]];
        match (kind.as_str(), &chosen.arg) {
            ("続ける" | "請求", _) if pending.option_name(code, chosen) == "請求" => {
                deal.asked = true;
                cur.asked += 1;
                given_back = true;
            }
            ("かぶる", Value::Card(c)) => {
                if let Some(o) = deal.oni.as_mut() {
                    o.took = e.back[*c as usize];
                }
            }
            _ => {}
        }
        st.apply(p, &choices).expect("the choices fit");
    }
    let piles: Vec<Vec<Card>> = (0..seats)
        .map(|x| e.cards_in(&st, e.captures, Some(x)))
        .collect();
    let mut leftover = Vec::new();
    for (name, z, per_seat) in &e.zones {
        if *z == e.captures {
            continue;
        }
        let insts: Vec<Option<u8>> = if *per_seat {
            (0..seats).map(Some).collect()
        } else {
            vec![None]
        };
        for i in insts {
            let cs = e.cards_in(&st, *z, i);
            if !cs.is_empty() {
                leftover.push(format!("{name}{i:?}: [{}]", ids(&cs)));
            }
        }
    }
    if !cur.problems.is_empty() || cur.deals > 0 {
        // A hand begun and not settled: only possible if the match stopped mid-hand.
        done.push(cur);
    }
    Run {
        hands: done,
        piles,
        leftover,
        oni_month: e.var(&st, e.oni_month, None),
        oni_user: e.var(&st, e.oni_user, None),
    }
}

/// The deal, seen at its first decision (the dealer's かぶる with 鬼 on the field, or the
/// choice of hands): docs/games/nara-hanaawase.md § The deal.
fn check_deal(
    e: &Engine,
    st: &State,
    kind: &str,
    seat: u8,
    deal: &mut Deal,
    problems: &mut Vec<String>,
) {
    let seats = st.board.seats;
    let field = e.cards_in(st, e.field, None);
    // Only the dealer can hold anything yet (浮く, and 鬼 at the deal).
    let holders: Vec<u8> = (0..seats)
        .filter(|&x| !e.cards_in(st, e.captures, Some(x)).is_empty())
        .collect();
    let dealer = match (kind, holders.as_slice()) {
        ("かぶる", _) => Some(seat),
        (_, [d]) => Some(*d),
        _ => None,
    };
    if holders.iter().any(|&x| Some(x) != dealer) {
        problems.push(format!(
            "at the deal seats {holders:?} already hold captures: only the dealer may"
        ));
    }
    let taken = match dealer {
        Some(d) => e.cards_in(st, e.captures, Some(d)),
        None => Vec::new(),
    };
    if kind == "かぶる" {
        if !taken.contains(&ONI) && !field.contains(&ONI) {
            problems.push("the dealer's 鬼 at the deal is nowhere".into());
        }
    } else if taken.contains(&ONI) {
        problems
            .push("鬼 was on the field at the deal but the dealer chose no card with it".into());
    }
    let dealt: Vec<Card> = field.iter().chain(&taken).copied().collect();
    deal.uku = check_field(&dealt, &taken, kind, problems);
}

/// The nine field cards as dealt (`dealt`), and what the dealer took before any
/// decision (`taken`: 浮く pairs, and 鬼 if it was on the field). Returns how many
/// months floated.
fn check_field(dealt: &[Card], taken: &[Card], kind: &str, problems: &mut Vec<String>) -> usize {
    if dealt.len() != 9 {
        problems.push(format!(
            "the field was dealt {} cards [{}], not 9",
            dealt.len(),
            ids(dealt)
        ));
    }
    if dealt.contains(&ONI) != (kind == "かぶる") {
        problems.push(format!(
            "field [{}]: 鬼 on the field at the deal must be used by the dealer before anything else",
            ids(dealt)
        ));
    }
    let mut uku = 0;
    for m in 1..=12u8 {
        let here: Vec<Card> = dealt.iter().copied().filter(|&c| month(c) == m).collect();
        let took: Vec<Card> = taken.iter().copied().filter(|&c| month(c) == m).collect();
        match here.len() {
            // "同じ札が4枚出たら配り直し"
            4 => problems.push(format!(
                "four of month {m} on the field [{}] were played, not dealt again",
                ids(dealt)
            )),
            // "2枚は親がとる。このとき点札を2枚取ることはできない": the best card and a 0.
            3 => {
                uku += 1;
                let best = here.iter().map(|&c| points(c)).max().unwrap_or(0);
                let ok = took.len() == 2
                    && took.iter().any(|&c| points(c) == best)
                    && took.iter().any(|&c| points(c) == 0);
                if !ok {
                    problems.push(format!(
                        "浮く: of [{}] the dealer took [{}]; docs/games gives the best card and a 0 card",
                        ids(&here),
                        ids(&took)
                    ));
                }
            }
            _ => {
                if !took.is_empty() {
                    problems.push(format!(
                        "the dealer took [{}] at the deal with no 浮く",
                        ids(&took)
                    ));
                }
            }
        }
    }
    uku
}

// ---------------------------------------------------------------------------------------
// Comparing one hand.
// ---------------------------------------------------------------------------------------

/// Stop after this many mismatches.
const REPORT: usize = 4;

/// What the checked hands exercised.
#[derive(Default)]
struct Tally {
    games: usize,
    hands: usize,
    deals: usize,
    yaku: BTreeMap<Yaku, usize>,
    /// 出来役 held but void because of another player's ふけ.
    voided_by_fuke: usize,
    tsukimi_spoiled: usize,
    fuke: BTreeMap<Fuke, usize>,
    two_fuke: usize,
    oni_spoils_fuke: usize,
    oni: BTreeMap<OniFrom, usize>,
    /// 鬼 took a card at a forced (single-card) かぶる, or took nothing (empty field).
    oni_forced: usize,
    oni_nothing: usize,
    /// The month's last card given to the 鬼 user when it appears. In play this is the
    /// only way: 鬼's month has three more cards, the first to appear finds nothing (or
    /// is the one left on the field), the second pairs with it, the third is the
    /// remainder, and every card is played before the hand ends. (The rule file's sweep
    /// of 鬼's month at the end of a hand is a safety net that play never reaches.)
    remainder_at_once: usize,
    asked: usize,
    yotare: usize,
    uku: usize,
    dealers: [usize; 4],
}

impl Tally {
    fn report(&self, what: &str) -> String {
        let mut s = format!(
            "{what}: {} games, {} hands, {} deals reaching play\n",
            self.games, self.hands, self.deals
        );
        for y in Yaku::ALL {
            let _ = writeln!(s, "  {} {}", y.name(), self.yaku.get(&y).unwrap_or(&0));
        }
        let _ = writeln!(
            s,
            "  月見て一杯 spoiled by 11-rainman {}; 出来役 voided by a ふけ {}",
            self.tsukimi_spoiled, self.voided_by_fuke
        );
        for f in [Fuke::Hyaku, Fuke::Niju] {
            let _ = writeln!(s, "  {} {}", f.name(), self.fuke.get(&f).unwrap_or(&0));
        }
        let _ = writeln!(
            s,
            "  two ふけ in one hand {}; 鬼 keeping a pile from ふけ {}",
            self.two_fuke, self.oni_spoils_fuke
        );
        let _ = writeln!(
            s,
            "  鬼 at the deal {}, from the hand {}, flipped {}, forced single take {}, took nothing {}",
            self.oni.get(&OniFrom::Deal).unwrap_or(&0),
            self.oni.get(&OniFrom::Hand).unwrap_or(&0),
            self.oni.get(&OniFrom::Flip).unwrap_or(&0),
            self.oni_forced,
            self.oni_nothing
        );
        let _ = writeln!(
            s,
            "  鬼 remainder given at once {} (in play it always is: see `Tally::remainder_at_once`)",
            self.remainder_at_once
        );
        let _ = writeln!(
            s,
            "  redeals asked {}, 四たれ on the field {}, 浮く months {}, hands per dealer {:?}",
            self.asked, self.yotare, self.uku, self.dealers
        );
        s
    }

    fn note_verdict(&mut self, v: &Verdict) {
        for s in &v.seats {
            if s.paid {
                for y in &s.held {
                    *self.yaku.entry(*y).or_default() += 1;
                }
            } else {
                self.voided_by_fuke += s.held.len();
            }
            self.tsukimi_spoiled += s.tsukimi_spoiled as usize;
            self.oni_spoils_fuke += s.oni_spoils_fuke as usize;
            if let Some(f) = s.fuke {
                *self.fuke.entry(f).or_default() += 1;
            }
        }
        self.two_fuke += (v.seats.iter().filter(|s| s.fuke.is_some()).count() >= 2) as usize;
    }
}

/// Checks the last hand of a run against the oracle; a mismatch goes to `out`.
fn check_hand(run: &Run, what: &str, tally: &mut Tally, out: &mut Vec<String>) {
    let Some(h) = run.hands.last() else {
        out.push(format!("{what}: no hand was played"));
        return;
    };
    let piles = &run.piles;
    let mut bad: Vec<String> = h.problems.clone();
    let v = oracle(piles);
    let engine_delta: Vec<i64> = h
        .chips_after
        .iter()
        .zip(&h.chips_before)
        .map(|(a, b)| a - b)
        .collect();
    // The table is cleared into the capture piles: all 49 cards, 640 points.
    let count: usize = piles.iter().map(Vec::len).sum();
    let total: i64 = v.seats.iter().map(|s| s.points).sum();
    if count != 49 || total != 640 || !run.leftover.is_empty() {
        bad.push(format!(
            "the capture piles hold {count} cards, {total} points (49, 640 expected); left elsewhere: {:?}",
            run.leftover
        ));
    }
    for (i, pile) in piles.iter().enumerate() {
        let odd = odd_months(pile);
        if !odd.is_empty() {
            bad.push(format!(
                "seat {i} holds an odd number of cards of months {odd:?}: captures go by pairs and 鬼's month's last card goes to the 鬼 user"
            ));
        }
    }
    // What 鬼 did, as seen at its かぶる decision.
    if let Some(o) = &h.last.oni {
        let u = o.user as usize;
        if !piles[u].contains(&ONI) || !piles[u].contains(&o.took) {
            bad.push(format!(
                "seat {u} took {} with 鬼, but its pile is [{}]",
                id(o.took),
                ids(&piles[u])
            ));
        }
        if run.oni_month != month(o.took) as i64 || run.oni_user != u as i64 {
            bad.push(format!(
                "the engine notes 鬼月 {} 鬼使い {}, but seat {u} took {} with 鬼",
                run.oni_month,
                run.oni_user,
                id(o.took)
            ));
        }
    }
    if engine_delta.iter().sum::<i64>() != 0 {
        bad.push(format!("the chips moved do not sum to 0: {engine_delta:?}"));
    }
    if engine_delta != v.delta {
        bad.push(format!(
            "chips: docs/games {:?}, engine {engine_delta:?}",
            v.delta
        ));
    }
    // The outcome says which settlement ran; the records say what was paid for.
    let want_outcome = if v.any_fuke {
        "ふけ清算"
    } else {
        "点数清算"
    };
    if h.outcome.as_deref() != Some(want_outcome) {
        bad.push(format!(
            "outcome {:?}, the settlement docs/games gives is {want_outcome}",
            h.outcome
        ));
    }
    for (i, s) in v.seats.iter().enumerate() {
        let mine: Vec<&Arc<ScoreResult>> = h
            .records
            .iter()
            .filter(|(x, _)| *x as usize == i)
            .map(|(_, r)| r)
            .collect();
        let got: i64 = mine.iter().map(|r| r.total).sum();
        let want = s.fuke.map_or(0, Fuke::value) + if s.paid { s.yaku_total() } else { 0 };
        let mut got_names: Vec<String> = mine
            .iter()
            .flat_map(|r| r.yaku.iter().map(|y| y.name.to_string()))
            .filter(|n| !n.starts_with("ふけ") && !n.starts_with("二十ふけ"))
            .collect();
        got_names.sort();
        let mut want_names: Vec<String> = if s.paid {
            s.held.iter().map(|y| y.name().to_string()).collect()
        } else {
            Vec::new()
        };
        want_names.sort();
        if got != want || got_names != want_names {
            bad.push(format!(
                "seat {i}: recorded [{}], docs/games pays {want} for {want_names:?}",
                mine.iter()
                    .map(|r| describe(r))
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
        }
    }
    // The deal passes to the right every hand, whatever happened; the dealer plays first.
    let want_dealer = ((h.number - 1) % 4) as u8;
    if h.dealer != Some(want_dealer) {
        bad.push(format!(
            "hand {} was dealt by {:?}, expected seat {want_dealer}",
            h.number, h.dealer
        ));
    }
    let order: Vec<u8> = (0..4).map(|k| (want_dealer + k) % 4).collect();
    if h.last.order != order {
        bad.push(format!(
            "round-1 turn order {:?}, expected {order:?} (from the dealer, to the right)",
            h.last.order
        ));
    }
    if let Some(d) = h.last.deal_oni {
        if d != want_dealer {
            bad.push(format!(
                "鬼 on the field at the deal was used by seat {d}, not the dealer"
            ));
        }
    }
    if !bad.is_empty() {
        let mut m = format!(
            "{what}, hand {} (dealer {:?}, {} deal(s)):",
            h.number, h.dealer, h.deals
        );
        for (i, p) in piles.iter().enumerate() {
            let _ = write!(m, "\n    seat {i} pile: [{}]", ids(p));
        }
        if let Some(o) = &h.last.oni {
            let _ = write!(
                m,
                "\n    鬼: seat {} took {} ({:?})",
                o.user,
                id(o.took),
                o.from
            );
        }
        let _ = write!(m, "\n    oracle:{}", v.why);
        let _ = write!(
            m,
            "\n    engine chips {engine_delta:?}, outcome {:?}",
            h.outcome
        );
        for (s, r) in &h.records {
            let _ = write!(m, "\n    engine record seat {s}: {}", describe(r));
        }
        for b in &bad {
            let _ = write!(m, "\n    ✗ {b}");
        }
        out.push(m);
    }
    tally.hands += 1;
    tally.deals += h.deals;
    tally.note_verdict(&v);
    tally.asked += h.asked;
    tally.yotare += h.yotare;
    tally.uku += h.last.uku;
    tally.dealers[want_dealer as usize] += 1;
    tally.remainder_at_once += h.last.remainder_at_once;
    match &h.last.oni {
        Some(o) => *tally.oni.entry(o.from).or_default() += 1,
        None if run.oni_month > 0 => tally.oni_forced += 1,
        None => tally.oni_nothing += 1,
    }
}

// ---------------------------------------------------------------------------------------
// Constructed capture piles (for cases too rare in play).
// ---------------------------------------------------------------------------------------

/// Moves card `c` from the free cards to seat `s`'s pile (if it is still free).
fn take(piles: &mut [Vec<Card>], free: &mut Vec<Card>, s: usize, c: Card) {
    if let Some(i) = free.iter().position(|&x| x == c) {
        free.remove(i);
        piles[s].push(c);
    }
}

/// All 49 cards split among four seats, biased toward ふけ, 二十ふけ, 鬼 next to a lone
/// 20, whole 出来役 sets and 月見て一杯 with or without the rain card.
fn constructed(rng: &mut Rng) -> Vec<Vec<Card>> {
    let mut piles: Vec<Vec<Card>> = vec![Vec::new(); 4];
    let mut free: Vec<Card> = (0..49).collect();
    // Some seats get a small pile: nothing of value, one 20, one 20 with 鬼, one 30…
    for s in 0..4 {
        if rng.below(3) != 0 {
            continue;
        }
        let zeros: Vec<Card> = free.iter().copied().filter(|&c| points(c) == 0).collect();
        let n = rng.below(7);
        for _ in 0..n.min(zeros.len()) {
            let c = zeros[rng.below(zeros.len())];
            take(&mut piles, &mut free, s, c);
        }
        let twenties: Vec<Card> = free.iter().copied().filter(|&c| points(c) == 20).collect();
        let thirties: Vec<Card> = free.iter().copied().filter(|&c| points(c) == 30).collect();
        match rng.below(6) {
            0 | 1 => {}
            2 | 3 if !twenties.is_empty() => take(
                &mut piles,
                &mut free,
                s,
                twenties[rng.below(twenties.len())],
            ),
            4 if !twenties.is_empty() => {
                take(
                    &mut piles,
                    &mut free,
                    s,
                    twenties[rng.below(twenties.len())],
                );
                take(&mut piles, &mut free, s, ONI);
            }
            _ if !thirties.is_empty() => take(
                &mut piles,
                &mut free,
                s,
                thirties[rng.below(thirties.len())],
            ),
            _ => {}
        }
    }
    // Whole 出来役 sets to random seats, sometimes with the rain card next to 月見て一杯.
    for y in Yaku::ALL {
        if rng.below(3) == 0 {
            let s = rng.below(4);
            for c in y.cards() {
                take(&mut piles, &mut free, s, c);
            }
            if y == Yaku::Tsukimi && rng.below(2) == 0 {
                take(&mut piles, &mut free, s, card("11-rainman"));
            }
        }
    }
    // The rest to the seats that are not meant to stay small, or anywhere.
    rng.shuffle(&mut free);
    let open: Vec<usize> = (0..4)
        .filter(|&s| piles[s].len() > 6 || rng.below(2) == 0)
        .collect();
    for c in free {
        let s = if open.is_empty() {
            rng.below(4)
        } else {
            open[rng.below(open.len())]
        };
        piles[s].push(c);
    }
    piles
}

// ---------------------------------------------------------------------------------------
// Tests.
// ---------------------------------------------------------------------------------------

/// The oracle's card table is the engine's deck (ids and points), so a deck difference
/// shows here by name rather than as a chip difference.
#[test]
fn the_oracle_table_is_the_engine_deck() {
    let e = Engine::new();
    let d = &e.p.deck;
    assert_eq!(
        d.len(),
        49,
        "the engine's deck has {} cards, not 49",
        d.len()
    );
    let pts = d.attr_named("points").expect("attribute points");
    let mon = d.attr_named("month").expect("attribute month");
    let mut bad = Vec::new();
    for c in 0..49 {
        let x = e.ix[c];
        let (ep, em) = (d.attr(pts, x), d.attr(mon, x));
        // 鬼 has no month; the deck gives it a placeholder.
        if ep != points(c) || (c != ONI && em != month(c) as i64) {
            bad.push(format!(
                "{}: docs/games month {} points {}; engine month {em} points {ep}",
                id(c),
                month(c),
                points(c)
            ));
        }
    }
    assert!(bad.is_empty(), "deck mismatch:\n{}", bad.join("\n"));
    let total: i64 = (0..49).map(points).sum();
    assert_eq!(total, 640, "the oracle's own table must hold 640 points");
}

/// Hand-worked settlements: the oracle itself against numbers worked out by hand from
/// docs/games/nara-hanaawase.md, and the engine's 清算 on the same piles.
#[test]
fn worked_settlements() {
    let e = Engine::new();
    let split = |given: [&str; 3]| -> Vec<Vec<Card>> {
        let mut piles: Vec<Vec<Card>> = given
            .iter()
            .map(|t| t.split_whitespace().map(card).collect())
            .collect();
        let used: Vec<Card> = piles.concat();
        piles.push((0..49).filter(|c| !used.contains(c)).collect());
        piles
    };
    // (the four capture piles, each seat's change of chips, what the case shows)
    type Case = (Vec<Vec<Card>>, [i64; 4], &'static str);
    let cases: Vec<Case> = vec![
        (
            // 0: 90 + 60 + 40 = 190, 上だんこ + 下だんこ; 1: 150, 猪鹿蝶;
            // 2: 140, 月見て一杯 spoiled; 3: the rest, 160
            split([
                "1-crane 2-warbler 3-curtain 1-ribbon 2-ribbon 3-ribbon oni 1-kasu-a",
                "6-butterflies 7-boar 10-deer 4-ribbon 5-ribbon 6-ribbon 2-kasu-a",
                "8-moon 9-cup 11-rainman 12-phoenix 11-ribbon 3-kasu-a",
            ]),
            [30 + 450 - 30, -10 + 90 - 150, -20 - 150 - 30, -150 - 30],
            "plain settlement with two 出来役 on one seat",
        ),
        (
            // 2 took no point card: 100 from each; nobody's 出来役 or card points count
            split([
                "1-crane 2-warbler 3-curtain 6-butterflies 7-boar 10-deer",
                "oni 8-moon 9-cup",
                "1-kasu-a 1-kasu-b 2-kasu-a 2-kasu-b 11-swallow",
            ]),
            [-100, -100, 300, -100],
            "ふけ 100",
        ),
        (
            // 1: one 20 and nothing else of value (12-kasu-yellow is a 20 here)
            split([
                "1-crane 2-warbler 3-curtain 8-moon",
                "12-kasu-yellow 3-kasu-a 3-kasu-b",
                "1-ribbon 2-ribbon 3-ribbon",
            ]),
            [-50, 150, -50, -50],
            "二十ふけ 50",
        ),
        (
            // 0 ふけ 100 and 1 二十ふけ 50 pay each other too
            split([
                "1-kasu-a 1-kasu-b",
                "8-geese 2-kasu-a",
                "1-crane 2-warbler 3-curtain",
            ]),
            [300 - 50, 150 - 100, -150, -150],
            "two ふけ",
        ),
        (
            // one 30 alone, or a 20 with 鬼, is no ふけ. 3 holds 猪鹿蝶 青短 藤しま 桐しま
            // (月見て一杯 spoiled by 11-rainman, no 下だんこ: seat 2 has 2-ribbon)
            split(["1-crane 1-kasu-a", "8-geese oni", "2-warbler 2-ribbon"]),
            [
                30 - 160 - 120,
                60 - 160 - 120,
                50 - 160 - 120,
                500 - 160 + 360,
            ],
            "no ふけ with a 30 or with 鬼",
        ),
    ];
    let mut bad = Vec::new();
    for (piles, want, why) in &cases {
        let v = oracle(piles);
        if v.delta != want {
            bad.push(format!(
                "oracle, {why}: worked {want:?}, oracle {:?}{}",
                v.delta, v.why
            ));
        }
        let got = engine_settle(&e, piles, 0);
        if got != want {
            bad.push(format!("engine, {why}: worked {want:?}, engine {got:?}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The rule file's own settlement procedure run on described capture piles.
fn engine_settle(e: &Engine, piles: &[Vec<Card>], dealer: u8) -> Vec<i64> {
    let zones: Vec<ZoneCards> = piles
        .iter()
        .enumerate()
        .map(|(s, p)| ZoneCards {
            zone: "取り札".into(),
            seat: Some(s as u8),
            cards: p.iter().map(|&c| e.ix[c]).collect(),
        })
        .collect();
    match settle(
        &e.p,
        &[],
        &Described {
            dealer,
            zones,
            ..Described::proc("清算")
        },
    ) {
        Ok(s) => s.chips,
        Err(err) => panic!("清算 fails: {err:?}"),
    }
}

/// Constructed capture piles through the engine's 清算 and its score tables: the cases
/// play reaches rarely (several ふけ at once, 鬼 next to a lone 20) many times over.
#[test]
fn constructed_piles_agree() {
    let e = Engine::new();
    let mut rng = Rng(0x4E41_5241);
    let mut tally = Tally::default();
    let mut out = Vec::new();
    for n in 0..3000 {
        let piles = constructed(&mut rng);
        let v = oracle(&piles);
        tally.hands += 1;
        tally.note_verdict(&v);
        let dealer = (n % 4) as u8;
        let got = engine_settle(&e, &piles, dealer);
        let mut bad = Vec::new();
        if got != v.delta {
            bad.push(format!("清算 chips {got:?}, docs/games {:?}", v.delta));
        }
        for (i, pile) in piles.iter().enumerate() {
            let (want_y, mut want_names) = table_yaku(pile);
            let r = e.table(e.yaku_table, pile);
            let mut names: Vec<String> = r.yaku.iter().map(|y| y.name.to_string()).collect();
            names.sort();
            want_names.sort();
            if r.total != want_y || names != want_names {
                bad.push(format!(
                    "seat {i}: 役 gives {}, docs/games {want_y} {want_names:?}",
                    describe(&r)
                ));
            }
            let f = e.table(e.fuke_table, pile);
            let want_f = v.seats[i].fuke.map_or(0, Fuke::value);
            if f.total != want_f {
                bad.push(format!(
                    "seat {i}: ふけ表 gives {}, docs/games {want_f}",
                    describe(&f)
                ));
            }
        }
        if !bad.is_empty() {
            let mut m = format!("constructed piles #{n} (dealer {dealer}):");
            for (i, p) in piles.iter().enumerate() {
                let _ = write!(m, "\n    seat {i} pile: [{}]", ids(p));
            }
            let _ = write!(m, "\n    oracle:{}", v.why);
            for b in &bad {
                let _ = write!(m, "\n    ✗ {b}");
            }
            out.push(m);
            if out.len() >= REPORT {
                break;
            }
        }
    }
    check(&out, "constructed piles");
    eprintln!("{}", tally.report("constructed piles"));
    const AT_LEAST: usize = 30;
    let mut missing = Vec::new();
    for y in Yaku::ALL {
        if tally.yaku.get(&y).copied().unwrap_or(0) < AT_LEAST {
            missing.push(y.name());
        }
    }
    for f in [Fuke::Hyaku, Fuke::Niju] {
        if tally.fuke.get(&f).copied().unwrap_or(0) < AT_LEAST {
            missing.push(f.name());
        }
    }
    for (n, name) in [
        (tally.two_fuke, "two ふけ"),
        (tally.oni_spoils_fuke, "鬼 spoiling a ふけ"),
        (tally.tsukimi_spoiled, "月見て一杯 spoiled"),
        (tally.voided_by_fuke, "出来役 voided by ふけ"),
    ] {
        if n < AT_LEAST {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "cases exercised fewer than {AT_LEAST} times: {missing:?}\n{}",
        tally.report("constructed piles")
    );
}

// ---------------------------------------------------------------------------------------
// Players.
// ---------------------------------------------------------------------------------------

/// A player after ふけ: "取りたくなければ違う札を出す", so it plays the card after which
/// its own turn (the play and the flip that follows) takes the fewest point cards, and
/// takes the cheaper field card when it has a choice; it keeps the pile with fewer point
/// cards as its stock. It peeks at its own stock's top card (a test device, not a fair
/// player). Random play almost never ends without a point card; this one sometimes
/// does, so ふけ and 二十ふけ are reached in play, not only constructed.
struct Shy {
    rng: Rng,
    /// A grabber instead: the same reckoning, the most point cards preferred.
    grab: bool,
    field: u16,
    stock: u16,
    pile_a: u16,
    pile_b: u16,
    back: Vec<Card>,
}

impl Shy {
    fn cards(&self, st: &State, z: u16, seat: Option<u8>) -> Vec<Card> {
        st.board.zones[st.board.zone_instance(z, seat) as usize]
            .iter()
            .map(|&x| self.back[x as usize])
            .collect()
    }
}

/// How much a player after ふけ dislikes taking these cards.
fn dislike(taken: &[Card]) -> i64 {
    taken
        .iter()
        .map(|&c| if points(c) > 0 { 100 + points(c) } else { 1 })
        .sum()
}

/// Card `c` meets `field`: what it takes (the cheapest same-month card; 鬼 any card),
/// leaving the field as it would be.
fn meets(field: &mut Vec<Card>, c: Card) -> Vec<Card> {
    let pick = field
        .iter()
        .enumerate()
        .filter(|&(_, &f)| c == ONI || month(f) == month(c))
        .min_by_key(|&(_, &f)| points(f))
        .map(|(i, _)| i);
    match pick {
        Some(i) => vec![c, field.remove(i)],
        None if c == ONI => vec![c],
        None => {
            field.push(c);
            Vec::new()
        }
    }
}

impl Agent for Shy {
    fn name(&self) -> &'static str {
        "shy"
    }

    fn choose(
        &mut self,
        p: &Program,
        st: &State,
        seat: u8,
        moves: &[fuda_core::engine::Move],
    ) -> usize {
        let field = self.cards(st, self.field, None);
        // The stock's top is its last card: the next flip first.
        let mut flips = self.cards(st, self.stock, Some(seat));
        flips.reverse();
        let code = st.pending_code(p);
        let Some(pending) = st.pending() else {
            return 0;
        };
        let cost = |m: &fuda_core::engine::Move| -> i64 {
            let name = pending.option_name(code, m);
            let card = match m.arg {
                Value::Card(x) => Some(self.back[x as usize]),
                _ => None,
            };
            match (name, card) {
                ("出す", Some(c)) => {
                    let mut f = field.clone();
                    let mut taken = meets(&mut f, c);
                    if let Some(&t) = flips.first() {
                        taken.extend(meets(&mut f, t));
                    }
                    // Later flips take what is then on the field: half weight, as
                    // the others may have taken it first.
                    let later: i64 = flips
                        .iter()
                        .skip(1)
                        .map(|&t| dislike(&meets(&mut f.clone(), t)))
                        .sum();
                    2 * dislike(&taken) + later
                }
                ("取る", Some(c)) => dislike(&[c]),
                // 一: 山一 is the hand and 山二 the stock; 二 the other way round.
                ("一", _) => dislike(&self.cards(st, self.pile_b, Some(seat))),
                ("二", _) => dislike(&self.cards(st, self.pile_a, Some(seat))),
                _ => 0,
            }
        };
        let sign = if self.grab { -1 } else { 1 };
        let costs: Vec<i64> = moves.iter().map(|m| sign * cost(m)).collect();
        let best = costs.iter().copied().min().unwrap_or(0);
        let cheapest: Vec<usize> = (0..moves.len()).filter(|&i| costs[i] == best).collect();
        cheapest[self.rng.below(cheapest.len())]
    }
}

fn agent(e: &Engine, kind: &str, seed: u64) -> Box<dyn Agent> {
    match kind {
        "shy" | "grab" => Box::new(Shy {
            rng: Rng(seed),
            grab: kind == "grab",
            field: e.field,
            stock: e.stock,
            pile_a: e.pile_a,
            pile_b: e.pile_b,
            back: e.back.clone(),
        }),
        _ => by_name(kind, seed).expect("agent"),
    }
}

// ---------------------------------------------------------------------------------------
// Played hands.
// ---------------------------------------------------------------------------------------

/// Plays `games` 1-hand matches (dealer seat 0) and checks each hand.
fn one_hand_games(
    e: &Engine,
    master: u64,
    games: u64,
    kinds: impl Fn(u64) -> [&'static str; 4],
    tally: &mut Tally,
    out: &mut Vec<String>,
) {
    for i in 0..games {
        let seed = game_seed(master, i);
        let k = kinds(i);
        let run = play(e, seed, 1, &k);
        tally.games += 1;
        let what = format!("seed {seed} (agents {k:?}, a 1-hand match)");
        assert_eq!(run.hands.len(), 1, "{what}: one hand");
        check_hand(&run, &what, tally, out);
        if out.len() >= REPORT {
            return;
        }
    }
}

/// Whole 12-hand matches, checked hand by hand (a match of k hands is the first k hands
/// of the longer match of the same seed): every seat deals, and nothing of one hand
/// (鬼's month, a redeal request, chips) leaks into the next.
#[test]
fn whole_matches_agree() {
    let e = Engine::new();
    let mut tally = Tally::default();
    let mut out = Vec::new();
    const RANDOM: [&str; 4] = ["random"; 4];
    'matches: for i in 0..5 {
        let seed = game_seed(0x4E41_5241_0000, i);
        let full = play(&e, seed, 12, &RANDOM);
        tally.games += 1;
        assert_eq!(full.hands.len(), 12, "seed {seed}: 12 hands");
        for k in 1..=12usize {
            let short = (k < 12).then(|| play(&e, seed, k as i64, &RANDOM));
            let run = short.as_ref().unwrap_or(&full);
            let what = format!("seed {seed} (random, 12-hand match played to hand {k})");
            // The shorter match is the same game: the same chips and dealers so far.
            let same = run.hands.len() == k
                && run
                    .hands
                    .iter()
                    .zip(&full.hands)
                    .all(|(a, b)| a.chips_after == b.chips_after && a.dealer == b.dealer);
            assert!(same, "{what}: not the same game as the 12-hand match");
            check_hand(run, &what, &mut tally, &mut out);
            if out.len() >= REPORT {
                break 'matches;
            }
        }
    }
    check(&out, "whole matches");
    eprintln!("{}", tally.report("whole matches"));
    assert!(
        tally.dealers.iter().all(|&n| n >= 10),
        "every seat deals: {:?}",
        tally.dealers
    );
}

/// Many seeded hands played by the engine, each settled by the oracle from its capture
/// piles; every 出来役, ふけ, 二十ふけ, the 鬼 cases and redeals must actually occur.
#[test]
fn played_hands_agree() {
    let e = Engine::new();
    let mut tally = Tally::default();
    let mut out = Vec::new();
    one_hand_games(
        &e,
        0x4E41_5241_0001,
        1000,
        |_| ["random"; 4],
        &mut tally,
        &mut out,
    );
    if out.len() < REPORT {
        // A player after ふけ among grabbers, who empty the field it flips onto; not the
        // dealer, who takes 浮く pairs and 鬼 at the deal.
        let shy = |i: u64| {
            let mut k = ["grab"; 4];
            k[1 + (i % 3) as usize] = "shy";
            k
        };
        one_hand_games(&e, 0x4E41_5241_0002, 400, shy, &mut tally, &mut out);
    }
    if out.len() < REPORT {
        // The greedy player is slow here: two hands only.
        one_hand_games(
            &e,
            0x4E41_5241_0003,
            2,
            |_| ["greedy"; 4],
            &mut tally,
            &mut out,
        );
    }
    check(&out, "played hands");
    eprintln!("{}", tally.report("played hands"));
    const AT_LEAST: usize = 3;
    let mut missing: Vec<String> = Vec::new();
    for y in Yaku::ALL {
        if tally.yaku.get(&y).copied().unwrap_or(0) < AT_LEAST {
            missing.push(y.name().into());
        }
    }
    for f in [Fuke::Hyaku, Fuke::Niju] {
        if tally.fuke.get(&f).copied().unwrap_or(0) < AT_LEAST {
            missing.push(f.name().into());
        }
    }
    for o in [OniFrom::Deal, OniFrom::Hand, OniFrom::Flip] {
        if tally.oni.get(&o).copied().unwrap_or(0) < AT_LEAST {
            missing.push(format!("鬼 {o:?}"));
        }
    }
    for (n, name) in [
        (tally.tsukimi_spoiled, "月見て一杯 spoiled"),
        (tally.voided_by_fuke, "出来役 voided by ふけ"),
        (tally.oni_spoils_fuke, "鬼 keeping a pile from ふけ"),
        (tally.oni_forced, "鬼 taking the only field card"),
        (tally.oni_nothing, "鬼 on an empty field"),
        (tally.remainder_at_once, "鬼 remainder"),
        (tally.asked, "redeal asked"),
        (tally.yotare, "四たれ"),
        (tally.uku, "浮く"),
    ] {
        if n < AT_LEAST {
            missing.push(name.into());
        }
    }
    assert!(
        missing.is_empty(),
        "cases exercised fewer than {AT_LEAST} times: {missing:?}\n{}",
        tally.report("played hands")
    );
}
