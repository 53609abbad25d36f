//! The 奈良 hana-awase yardstick: a hand-written 4-player simulator of
//! `rulesets/nara-hanaawase.fuda` with bitmask piles, against which the generic engine's
//! hand rate is measured.
//!
//! It plays the rule file's game with its default parameters (4 players, 12 hands, the
//! first dealer seat 0, the deal passing to the right every hand) with fuda's `random`
//! players in every seat: every decision the rule file offers is taken uniformly among the
//! moves it lists. Those decisions are: which of one's two face-down piles becomes the
//! hand (one decision for all four seats, whose choice cannot change the game: the piles
//! are alike and unseen); in one's first turn, with no point card or four of a month in
//! hand, whether to ask for a redeal; which hand card to play; which field card 鬼 takes
//! (any); and for a card played or flipped onto a field holding its month, which one it
//! captures (one move or two). It shares no code with the engine, so the engine's speed is
//! compared with what a direct program does; `tests/tests/yardstick_nara.rs` checks that
//! both play the same game (its settlement against the rule file's `清算`, and the
//! statistics of whole matches).
//!
//! Cards are bits `0..48` of a `u64` in std/hanafuda's order, four to a month, so card
//! `c` is of month `c / 4 + 1`, and 鬼 is bit 48. The field, the piles and the hands are
//! masks (a hand also keeps its cards in a small array, to play a uniformly chosen one in
//! O(1)); the pack is shuffled lazily, each card drawn uniformly among those not yet
//! drawn. Nothing is allocated while a match is played.

// The bench uses the simulator, the test also the settlement, the ids and the statistics.
#![allow(dead_code)]

/// Players in a match (the ruleset's).
pub const PLAYERS: usize = 4;

/// Hands in a match (the `hands` parameter's default): the outcomes of a game.
pub const HANDS: u32 = 12;

/// Cards in the pack: the 48 hanafuda and 鬼.
pub const CARDS: usize = 49;

/// Cards in a hand, and in each player's own stock.
const HAND: usize = 5;

/// The 49 card ids in bit order: std/hanafuda's 48, then 鬼.
pub const IDS: [&str; CARDS] = [
    "1-crane",
    "1-ribbon",
    "1-kasu-a",
    "1-kasu-b",
    "2-warbler",
    "2-ribbon",
    "2-kasu-a",
    "2-kasu-b",
    "3-curtain",
    "3-ribbon",
    "3-kasu-a",
    "3-kasu-b",
    "4-cuckoo",
    "4-ribbon",
    "4-kasu-a",
    "4-kasu-b",
    "5-bridge",
    "5-ribbon",
    "5-kasu-a",
    "5-kasu-b",
    "6-butterflies",
    "6-ribbon",
    "6-kasu-a",
    "6-kasu-b",
    "7-boar",
    "7-ribbon",
    "7-kasu-a",
    "7-kasu-b",
    "8-moon",
    "8-geese",
    "8-kasu-a",
    "8-kasu-b",
    "9-cup",
    "9-ribbon",
    "9-kasu-a",
    "9-kasu-b",
    "10-deer",
    "10-ribbon",
    "10-kasu-a",
    "10-kasu-b",
    "11-rainman",
    "11-swallow",
    "11-ribbon",
    "11-kasu",
    "12-phoenix",
    "12-kasu-a",
    "12-kasu-b",
    "12-kasu-yellow",
    "oni",
];

/// A mask of the listed cards.
const fn bits(cs: &[u8]) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < cs.len() {
        m |= 1u64 << cs[i];
        i += 1;
    }
    m
}

/// 鬼.
pub const ONI: u64 = 1 << 48;
/// The 48 cards with a month.
pub const MONTHS: u64 = ONI - 1;
/// The 30s: each month's first card.
pub const THIRTY: u64 = 0x1111_1111_1111;
/// The 20s: the ribbons of months 1–7, 9, 10, 11, 8-geese and 12-kasu-yellow.
pub const TWENTY: u64 = bits(&[1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 42, 47]);
/// The point cards (点札): the 30s, the 20s and 鬼.
pub const POINT: u64 = THIRTY | TWENTY | ONI;
/// The 0 cards.
const ZERO: u64 = MONTHS & !POINT;

/// The low bit of every month's nibble.
const LOW: u64 = THIRTY;

/// The origin of the card settlement: the 640 points shared by four.
const ORIGIN: i64 = 160;

/// The four cards of card `c`'s month (c < 48).
#[inline(always)]
const fn month_of(c: usize) -> u64 {
    0xF << (c & !3)
}

/// Each month's card count in its own nibble (0 to 4); 鬼 is left out.
#[inline(always)]
fn counts(m: u64) -> u64 {
    let m = m & MONTHS;
    let v = m - ((m >> 1) & 0x5555_5555_5555_5555);
    (v & 0x3333_3333_3333_3333) + ((v >> 2) & 0x3333_3333_3333_3333)
}

/// The low bit of each month's nibble of which `m` holds all four cards (四枚).
#[inline(always)]
fn fours(m: u64) -> u64 {
    m & m >> 1 & m >> 2 & m >> 3 & LOW
}

/// The card points of a set of cards: 30, 20, 0, and 鬼 40.
#[inline]
pub fn points(m: u64) -> i64 {
    30 * (m & THIRTY).count_ones() as i64
        + 20 * (m & TWENTY).count_ones() as i64
        + 40 * (m >> 48 & 1) as i64
}

/// The 出来役 in the rule file's order, as bit numbers of a seat's 役 mask.
pub const YAKU_NAMES: [&str; 7] = [
    "上だんこ",
    "下だんこ",
    "猪鹿蝶",
    "青短",
    "月見て一杯",
    "藤しま",
    "桐しま",
];

/// What each other player pays for a 出来役, by bit number.
pub const YAKU_VALUES: [i64; 7] = [100, 50, 30, 30, 30, 30, 30];

/// The cards each 出来役 needs, by bit number.
const YAKU_CARDS: [u64; 7] = [
    bits(&[0, 4, 8]),
    bits(&[1, 5, 9]),
    bits(&[20, 24, 36]),
    bits(&[21, 33, 37]),
    bits(&[28, 32]),
    0xF << 12,
    0xF << 44,
];

/// 月見て一杯's bit number, and the card that voids it (11-rainman).
const TSUKIMI: usize = 4;
const RAINMAN: u64 = 1 << 40;

/// The 出来役 of one seat's captures, as a mask of [`YAKU_NAMES`] bits.
#[inline]
fn yaku(h: u64) -> u8 {
    let mut y = 0u8;
    for (k, need) in YAKU_CARDS.iter().enumerate() {
        if h & need == *need {
            y |= 1 << k;
        }
    }
    if h & RAINMAN != 0 {
        y &= !(1 << TSUKIMI);
    }
    y
}

/// The names of the ふけ table's rows, by [`Settlement::fuke`] − 1.
pub const FUKE_NAMES: [&str; 2] = ["ふけ", "二十ふけ"];

/// What each other player pays for ふけ (no point card) and 二十ふけ (one 20 alone).
pub const FUKE_VALUES: [i64; 2] = [100, 50];

/// The ふけ row of one seat's captures: 0 none, 1 ふけ, 2 二十ふけ.
#[inline]
fn fuke(h: u64) -> u8 {
    let p = h & POINT;
    if p == 0 {
        1
    } else if p & (p - 1) == 0 && p & TWENTY != 0 {
        2
    } else {
        0
    }
}

/// What a hand's settlement (the ruleset's `清算`) gives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settlement {
    /// Each seat's ふけ row: 0 none, 1 ふけ, 2 二十ふけ.
    pub fuke: [u8; PLAYERS],
    /// Each seat's 出来役 paid, as a mask of [`YAKU_NAMES`] bits (none beside a ふけ).
    pub yaku: [u8; PLAYERS],
    /// Each seat's chips moved.
    pub chips: [i64; PLAYERS],
    /// Whether anyone had a ふけ (the outcome ふけ清算; else 点数清算).
    pub any_fuke: bool,
}

/// Settles a hand's end from the four capture piles (which hold all 49 cards): ふけ
/// first, paid by every other player; with a ふけ nobody else's 出来役 is paid and the
/// card points are not settled; otherwise points − 160 each, and each 出来役 paid by
/// every other player.
pub fn settle(piles: &[u64; PLAYERS]) -> Settlement {
    let mut s = Settlement::default();
    for (x, &p) in piles.iter().enumerate() {
        s.fuke[x] = fuke(p);
    }
    s.any_fuke = s.fuke.iter().any(|&f| f != 0);
    let pay = |chips: &mut [i64; PLAYERS], x: usize, v: i64| {
        for (o, c) in chips.iter_mut().enumerate() {
            *c += if o == x { v * (PLAYERS as i64 - 1) } else { -v };
        }
    };
    for (x, &p) in piles.iter().enumerate() {
        if s.fuke[x] != 0 {
            pay(&mut s.chips, x, FUKE_VALUES[s.fuke[x] as usize - 1]);
        }
        if !s.any_fuke || s.fuke[x] != 0 {
            let y = yaku(p);
            s.yaku[x] = y;
            let mut v = 0;
            for (k, value) in YAKU_VALUES.iter().enumerate() {
                if y >> k & 1 != 0 {
                    v += value;
                }
            }
            if v > 0 {
                pay(&mut s.chips, x, v);
            }
        }
    }
    if !s.any_fuke {
        for (c, &p) in s.chips.iter_mut().zip(piles) {
            *c += points(p) - ORIGIN;
        }
    }
    s
}

/// The next seat, to the right (the ruleset's `next`).
const NEXT: [usize; PLAYERS] = [1, 2, 3, 0];

// The generator, wyrand: shared by the yardsticks (`wyrand.rs`).
include!("wyrand.rs");

/// What the played hands did, summed: enough to compare the yardstick's games with the
/// engine's statistically and to check that its chips balance.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Hands played (settled): the engine's outcomes.
    pub hands: u64,
    /// Deals dealt, the ones voided by a redeal included.
    pub deals: u64,
    /// Deals dealt again for 四たれ (four of a month on the field).
    pub yotare: u64,
    /// Deals voided by a player who asked for a redeal.
    pub asked_redeals: u64,
    /// Months that floated (浮く) at a deal.
    pub uki: u64,
    /// Deals with 鬼 on the field.
    pub oni_on_field: u64,
    /// Decisions as the engine counts them: the piles' choice (one for all seats), each
    /// redeal offer, each hand card, each capture with a field card to take (a single
    /// one included: a decision with one move is still counted), and each 鬼 that finds
    /// a field card.
    pub decisions: u64,
    /// Hands settled with a ふけ (the outcome ふけ清算).
    pub fuke_hands: u64,
    /// Seats paid ふけ and 二十ふけ.
    pub fuke: [u64; 2],
    /// Seats paid each 出来役 (by [`YAKU_NAMES`] bit).
    pub yaku: [u64; 7],
    /// Results recorded: one per ふけ and one per seat paid 出来役.
    pub records: u64,
    /// The dealer's result, summed over hands.
    pub dealer_chips: i64,
    /// Its squares.
    pub dealer_chips_sq: i64,
    /// Chips that changed hands (the winners' gains), summed over hands.
    pub moved: i64,
    /// Their squares.
    pub moved_sq: i64,
}

/// A hand: its cards in any order and their mask.
#[derive(Clone, Copy)]
struct Hand {
    cards: [u8; 8],
    n: usize,
    mask: u64,
}

/// The table during a hand: what the cards met so far have made.
struct Table {
    field: u64,
    piles: [u64; 4],
    /// Every pile together.
    captured: u64,
    /// The month of the card 鬼 took (its four cards; 0: none yet), and who used 鬼.
    oni_month: u64,
    oni_user: usize,
    decisions: u64,
}

impl Table {
    /// Card `c` (not 鬼) of seat `s` meets the field: it captures a card of its month
    /// (`bit` picks between two), or is the 鬼 remainder, or stays.
    #[inline(always)]
    fn meet(&mut self, s: usize, c: usize, bit: u64) {
        let same = self.field & month_of(c);
        if same != 0 {
            self.decisions += 1;
            // At most two of a month lie on the field: the deal leaves at most two (three
            // float, four are dealt again) and a card stays only on a month not there.
            let two = same & (same - 1);
            let take = if two != 0 && bit != 0 {
                two
            } else {
                same ^ two
            };
            self.field ^= take;
            self.piles[s & 3] |= take | 1 << c;
            self.captured |= take | 1 << c;
        } else if self.oni_month >> c & 1 != 0 && (self.captured & self.oni_month).count_ones() == 3
        {
            // The one card of 鬼's month left over goes to whoever used 鬼.
            self.piles[self.oni_user & 3] |= 1 << c;
            self.captured |= 1 << c;
        } else {
            self.field |= 1 << c;
        }
    }

    /// 鬼 with seat `s`: taken, and with it any field card the player picks.
    #[inline(never)]
    fn oni(&mut self, s: usize, rng: &mut Rng) {
        self.piles[s & 3] |= ONI;
        self.captured |= ONI;
        if self.field == 0 {
            return;
        }
        self.decisions += 1;
        let mut f = self.field;
        for _ in 0..rng.below(f.count_ones() as u64) {
            f &= f - 1;
        }
        let c = f.trailing_zeros() as usize;
        self.field ^= 1 << c;
        self.piles[s & 3] |= 1 << c;
        self.captured |= 1 << c;
        self.oni_month = month_of(c);
        self.oni_user = s;
    }
}

/// The simulator: a random generator and the pack, which stays a permutation of the 49
/// cards, so a deal draws from it with a lazy Fisher–Yates shuffle.
pub struct Yardstick {
    rng: Rng,
    /// The 49 cards in its first 49 bytes; 64 so that `i & 63` needs no bounds check.
    deck: [u8; 64],
}

impl Yardstick {
    /// A simulator whose games are fixed by `seed`.
    pub fn new(seed: u64) -> Yardstick {
        let mut deck = [0u8; 64];
        for (i, c) in deck.iter_mut().enumerate().take(CARDS) {
            *c = i as u8;
        }
        Yardstick {
            rng: Rng::new(seed),
            deck,
        }
    }

    /// Puts a uniform pick among `deck[i..49]` at `i`, from the `bits`-bit random field
    /// `v`, and returns it (i < 49).
    #[inline(always)]
    fn shuffle_in(&mut self, i: usize, v: u64, bits: u32) -> usize {
        let j = i + self.rng.field(v, bits, (CARDS - i) as u64) as usize;
        // By hand: `swap` keeps bounds checks.
        #[allow(clippy::manual_swap)]
        {
            let c = self.deck[j & 63];
            self.deck[j & 63] = self.deck[i & 63];
            self.deck[i & 63] = c;
            c as usize
        }
    }

    /// Card number `next` of the shuffle, which moves on by one.
    #[inline(always)]
    fn draw(&mut self, next: &mut usize) -> usize {
        let v = self.rng.next_u64();
        let c = self.shuffle_in(*next, v >> 32, 32);
        *next += 1;
        c
    }

    /// Plays one hand with `dealer` dealing, redeals included, to its end; returns the
    /// four capture piles, which then hold every card.
    pub fn play_hand(&mut self, dealer: usize, st: &mut Stats) -> [u64; PLAYERS] {
        'deal: loop {
            st.deals += 1;
            // Which positions of a uniformly shuffled pack go where does not change the
            // distribution, so the field's nine are drawn first: 四たれ voids the deal
            // before anything else is drawn.
            let mut next = 0;
            let mut field = 0u64;
            for _ in 0..9 {
                field |= 1 << self.draw(&mut next);
            }
            if fours(field) != 0 {
                st.yotare += 1;
                continue;
            }
            let mut t = Table {
                field,
                piles: [0; 4],
                captured: 0,
                oni_month: 0,
                oni_user: 0,
                decisions: 0,
            };
            // 浮く: three of a month on the field; the dealer takes the best of them and
            // the first 0 card.
            let mut threes = counts(t.field);
            threes &= threes & (threes >> 1) & LOW;
            while threes != 0 {
                let m = 0xF << threes.trailing_zeros();
                let g = t.field & m;
                let best = if g & THIRTY != 0 {
                    g & THIRTY
                } else {
                    g & TWENTY
                };
                let zero = g & ZERO & (g & ZERO).wrapping_neg();
                t.field ^= best | zero;
                t.piles[dealer & 3] |= best | zero;
                t.captured |= best | zero;
                threes &= threes - 1;
                st.uki += 1;
            }
            if t.field & ONI != 0 {
                st.oni_on_field += 1;
                t.field ^= ONI;
                t.oni(dealer, &mut self.rng);
            }
            // Each player takes one of two face-down piles of five as the hand, the
            // other as their own stock: one decision, whose answer changes nothing
            // here, since the piles are dealt alike from a shuffled pack. So a hand is
            // five cards drawn, and each flip draws the next card of the pack.
            t.decisions += 1;
            let mut hands = [Hand {
                cards: [0; 8],
                n: HAND,
                mask: 0,
            }; PLAYERS];
            for h in &mut hands {
                for k in 0..HAND {
                    let c = self.draw(&mut next);
                    h.cards[k] = c as u8;
                    h.mask |= 1 << c;
                }
            }
            let mut s = dealer;
            for round in 0..HAND {
                for _ in 0..PLAYERS {
                    // One random number a turn: bit 63 for the redeal offer, bits 40..63
                    // for the hand card, 8..40 for the flipped card, bits 0 and 1 for
                    // the two captures' picks.
                    let x = self.rng.next_u64();
                    let h = &mut hands[s & 3];
                    if round == 0 && (h.mask & POINT == 0 || fours(h.mask) != 0) {
                        // 配り直し可: no point card (鬼 is one), or four of a month.
                        t.decisions += 1;
                        if x >> 63 != 0 {
                            st.asked_redeals += 1;
                            st.decisions += t.decisions;
                            continue 'deal;
                        }
                    }
                    let n = h.n;
                    let k = self.rng.field(x >> 40 & 0x7F_FFFF, 23, n as u64) as usize;
                    t.decisions += 1;
                    let c = h.cards[k & 7] as usize;
                    h.n -= 1;
                    h.cards[k & 7] = h.cards[h.n & 7];
                    h.mask ^= 1 << c;
                    if c == 48 {
                        t.oni(s, &mut self.rng);
                    } else {
                        t.meet(s, c, x & 1);
                    }
                    let f = self.shuffle_in(next, x >> 8 & 0xFFFF_FFFF, 32);
                    next += 1;
                    if f == 48 {
                        t.oni(s, &mut self.rng);
                    } else {
                        t.meet(s, f, x >> 1 & 1);
                    }
                    s = NEXT[s];
                }
            }
            // Anything of 鬼's month still on the field goes to the 鬼 user.
            let left = t.field & t.oni_month;
            t.piles[t.oni_user & 3] |= left;
            t.field ^= left;
            debug_assert_eq!(t.field, 0, "a hand ends with the field empty");
            st.decisions += t.decisions;
            return t.piles;
        }
    }

    /// Plays a match of [`HANDS`] hands and returns each seat's chips at the end (they
    /// sum to zero: every settlement does).
    pub fn play_match(&mut self, st: &mut Stats) -> [i64; PLAYERS] {
        let mut chips = [0i64; PLAYERS];
        let mut dealer = 0;
        for _ in 0..HANDS {
            let piles = self.play_hand(dealer, st);
            let s = settle(&piles);
            st.hands += 1;
            st.fuke_hands += s.any_fuke as u64;
            let mut moved = 0;
            for (x, c) in chips.iter_mut().enumerate() {
                *c += s.chips[x];
                moved += s.chips[x].max(0);
                if s.fuke[x] != 0 {
                    st.fuke[s.fuke[x] as usize - 1] += 1;
                    st.records += 1;
                }
                st.records += (s.yaku[x] != 0) as u64;
                for (k, n) in st.yaku.iter_mut().enumerate() {
                    *n += (s.yaku[x] >> k & 1) as u64;
                }
            }
            st.moved += moved;
            st.moved_sq += moved * moved;
            st.dealer_chips += s.chips[dealer];
            st.dealer_chips_sq += s.chips[dealer] * s.chips[dealer];
            dealer = NEXT[dealer];
        }
        chips
    }
}
