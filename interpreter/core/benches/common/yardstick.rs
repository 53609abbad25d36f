//! The yardstick: a hand-written 3-player 珊瑚花 simulator with bitmask tables, against
//! which the generic engine's deal rate is measured.
//!
//! It plays the game of `rulesets/sangohana.fuda` with 3 players and 12 deals (one 年),
//! with the engine's `eager` players in every seat: a win is declared whenever one is
//! offered, and every other choice (draw or take, which card to discard) is uniform among
//! the legal moves. It shares no code with the engine, so the engine's speed is compared
//! with what a direct program does, not with itself; `tests/tests/yardstick.rs` checks
//! that both play the same game (scores hand by hand, outcome shares and lengths of deals
//! statistically), and `benches/sangohana.rs` times it next to the engine.
//!
//! Cards are bits `0..48` of a `u64` in std/hanafuda's order, four to a month, so card
//! `c` is of month `c / 4 + 1`. A hand also carries its cards as a small array (to discard
//! a uniformly chosen one in O(1)), its kind counts packed in a `u32`, and its waits: the
//! cards that would complete it, refreshed from one table lookup when the hand changes, so
//! that a turn's win checks (the player's own and the claims on the discard) are bit
//! tests. The stock is shuffled lazily and one random number serves a whole turn. Nothing
//! is allocated while a match is played; the 役代 itself is computed only for a win.

// The bench uses the simulator and the scorer, the test also the card ids and statistics.
#![allow(dead_code)]

/// Players in a match (the ruleset's default).
pub const PLAYERS: usize = 3;

/// Deals in a match: one 年.
pub const DEALS: u32 = 12;

/// Cards in a hand between turns.
const HAND: usize = 7;

/// The 48 card ids in std/hanafuda's order: card `c` is bit `c` of a hand's mask.
pub const IDS: [&str; 48] = [
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
];

/// A mask of the listed cards (for the constant masks below).
const fn bits(cs: &[u8]) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < cs.len() {
        m |= 1u64 << cs[i];
        i += 1;
    }
    m
}

/// Every card.
pub const ALL: u64 = (1u64 << 48) - 1;
/// 光: crane, curtain, moon, rainman, phoenix.
pub const HIKARI: u64 = bits(&[0, 8, 28, 40, 44]);
/// 種: warbler, cuckoo, bridge, butterflies, boar, geese, cup, deer, swallow.
pub const TANE: u64 = bits(&[4, 12, 16, 20, 24, 29, 32, 36, 41]);
/// 短: the ten ribbons.
pub const TAN: u64 = bits(&[1, 5, 9, 13, 17, 21, 25, 33, 37, 42]);
/// 素: the 24 others, 11-kasu and 12-kasu-yellow included.
pub const KASU: u64 = ALL & !(HIKARI | TANE | TAN);
/// 赤短: the ribbons of months 1, 2, 3.
pub const AKATAN: u64 = bits(&[1, 5, 9]);
/// 青短: the ribbons of months 6, 9, 10.
pub const AOTAN: u64 = bits(&[21, 33, 37]);
/// The three month-12 kasu (桐素): 12-kasu-a, 12-kasu-b, 12-kasu-yellow.
pub const KIRI: u64 = bits(&[45, 46, 47]);
/// 11-kasu, the willow's single kasu.
pub const WILLOW_KASU: u64 = 1 << 43;
/// The lower card of every pair that can make a same-month kasu pair, whose partner is the
/// next bit: `x-kasu-a` of months 1–10 (partner `x-kasu-b`) and 12-kasu-a (partner
/// 12-kasu-b). 黄桐 never pairs and month 11 has one kasu, so neither appears, and the
/// months with a pair in a hand are `h & PAIR_LOW & (h >> 1)`.
const PAIR_LOW: u64 = bits(&[2, 6, 10, 14, 18, 22, 26, 30, 34, 38, 45]);

/// Kind numbers: the index of a kind in [`BASE`] and in the packed counts.
const K_HIKARI: usize = 0;
const K_TANE: usize = 1;
const K_TAN: usize = 2;
const K_KASU: usize = 3;

/// The kind number of card `c`.
const fn kind_of(c: usize) -> usize {
    let b = 1u64 << c;
    if HIKARI & b != 0 {
        K_HIKARI
    } else if TANE & b != 0 {
        K_TANE
    } else if TAN & b != 0 {
        K_TAN
    } else {
        K_KASU
    }
}

/// What card `c` adds to a hand's packed kind counts: 4 bits each for 光, 種 and 短
/// (at most 8 of a kind in 8 cards); kasu are not counted, as an 8-card hand's kasu are
/// the cards the other three kinds leave. 64 entries, so that `c & 63` needs no bounds
/// check.
const KIND_INC: [u32; 64] = {
    let mut t = [0u32; 64];
    let mut c = 0;
    while c < 48 {
        let k = kind_of(c);
        t[c] = if k == K_KASU { 0 } else { 1 << (4 * k) };
        c += 1;
    }
    t
};

/// Base value of each yaku, by the 3-group's kind and the 5-group's (0: no yaku, the two
/// groups being of one kind).
const BASE: [[i32; 4]; 4] = [
    // 3-group 光: 種三光 12, 短三光 10, 下三光 5
    [0, 12, 10, 5],
    // 3-group 種: 上五光 20, 上短冊 6, 素役 1
    [20, 0, 6, 1],
    // 3-group 短: 上五光 20, 上ノ種 7, 素役 1
    [20, 7, 0, 1],
    // 3-group 素: 下五光 15, 下ノ種 3, 下短冊 2
    [15, 3, 2, 0],
];

/// In [`SHAPE`]: the hand's kinds are not three of one and five of another.
const NO_SHAPE: u8 = 0xFF;

/// An 8-card hand's shape from its packed kind counts: `three * 4 + five` (the kinds of
/// its 3-group and 5-group) when the hand is exactly three cards of one kind and five of
/// another, else [`NO_SHAPE`]. Groups are all of one kind and of two kinds, so such a
/// hand splits one way only. 4 KiB, built at compile time.
static SHAPE: [u8; 4096] = {
    let mut t = [NO_SHAPE; 4096];
    let mut i = 0;
    while i < 4096 {
        let n = [i & 15, (i >> 4) & 15, (i >> 8) & 15];
        if n[0] + n[1] + n[2] <= 8 {
            let counts = [n[0], n[1], n[2], 8 - n[0] - n[1] - n[2]];
            let (mut three, mut five, mut other) = (4, 4, false);
            let mut k = 0;
            while k < 4 {
                match counts[k] {
                    0 => {}
                    3 => three = k,
                    5 => five = k,
                    _ => other = true,
                }
                k += 1;
            }
            if !other && three < 4 && five < 4 {
                t[i] = (three * 4 + five) as u8;
            }
        }
        i += 1;
    }
    t
};

/// The kasu 5-group's multiplier (素役, 下三光; the largest that applies), indexed by
/// `two pairs | all three 桐素 << 1 | 11-kasu << 2`: two pairs ×2, three 桐素 ×3, two
/// pairs with 11-kasu ×3, three 桐素 with another pair ×4 (the three 桐素 make the
/// month-12 pair, so "another pair" is two pairs).
const FIVE_KASU_FACTOR: [i32; 8] = [1, 2, 3, 4, 1, 3, 3, 4];

/// How a hand was won: the ruleset's `和了`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Win {
    /// 上がり: with the card drawn from the stock.
    Agari,
    /// 当たり: with a discard (claimed, or taken on one's own turn).
    Atari,
}

/// The timing bonus (added after multiplying) by `win`, `first_turn` and `as_dealt`:
/// 福上がり 15; 福当たり 12 with the hand as dealt, 10 once changed.
const fn bonus(win: Win, first_turn: bool, as_dealt: bool) -> i32 {
    match (win, first_turn, as_dealt) {
        (_, false, _) => 0,
        (Win::Agari, true, _) => 15,
        (Win::Atari, true, true) => 12,
        (Win::Atari, true, false) => 10,
    }
}

/// The packed kind counts of any set of cards (the deal loop keeps them incrementally).
fn kind_counts(mask: u64) -> u32 {
    (mask & HIKARI).count_ones() | (mask & TANE).count_ones() << 4 | (mask & TAN).count_ones() << 8
}

/// Every card of each kind, by kind number.
const KIND_MASK: [u64; 4] = [HIKARI, TANE, TAN, KASU];

/// In [`WAITS`]: no card completes the hand.
const NO_WAIT: u8 = 0xFF;
/// In [`WAITS`]: the completed hand's 5-group is kasu, so it needs a same-month pair.
const NEEDS_PAIR: u8 = 4;

/// A 7-card hand's wait from its packed kind counts: the kind number of the cards that
/// would make it three of one kind and five of another (there is at most one: the hand is
/// two kinds, 2 + 5 or 3 + 4 cards, and only the 2 or the 4 may grow), with
/// [`NEEDS_PAIR`] when the 5-group would be kasu; [`NO_WAIT`] when no card does.
static WAITS: [u8; 4096] = {
    let mut t = [NO_WAIT; 4096];
    let mut i = 0;
    while i < 4096 {
        let n = [i & 15, (i >> 4) & 15, (i >> 8) & 15];
        if n[0] + n[1] + n[2] <= 7 {
            let mut k = 0;
            while k < 4 {
                let grown = if k == K_KASU { i } else { i + (1 << (4 * k)) };
                if grown < 4096 && SHAPE[grown] != NO_SHAPE {
                    let five = SHAPE[grown] as usize & 3;
                    t[i] = k as u8 | if five == K_KASU { NEEDS_PAIR } else { 0 };
                }
                k += 1;
            }
        }
        i += 1;
    }
    t
};

/// The cards that complete a 7-card hand into a yaku (役代 total > 0 in any context),
/// from its mask and packed kind counts. Kept per hand and refreshed when the hand
/// changes, so each of a turn's win checks (the player's own, and each claim on the
/// discard) is one bit test.
#[inline(always)]
fn waits(mask: u64, kinds: u32) -> u64 {
    let w = WAITS[kinds as usize & 0xFFF];
    if w == NO_WAIT {
        return 0;
    }
    let cards = KIND_MASK[w as usize & 3] & !mask;
    if w & NEEDS_PAIR == 0 || mask & PAIR_LOW & (mask >> 1) != 0 {
        cards
    } else if w as usize & 3 == K_KASU {
        // Four unpaired kasu in hand: only a partner of one of them makes the pair.
        cards & ((mask & PAIR_LOW) << 1 | (mask >> 1 & PAIR_LOW))
    } else {
        // Five unpaired kasu: no 3-group can save them.
        0
    }
}

/// The cards that complete the 7-card hand `mask` into a yaku: what the deal loop keeps
/// for every hand (exposed for the test, which checks it against [`total`]).
pub fn wait_mask(mask: u64) -> u64 {
    debug_assert_eq!(mask.count_ones(), 7, "a 珊瑚花 hand waits with 7 cards");
    waits(mask, kind_counts(mask))
}

/// base × multipliers of an 8-card hand with the given packed kind counts (0 without a
/// yaku).
fn value(mask: u64, kinds: u32) -> i32 {
    let s = SHAPE[kinds as usize & 0xFFF];
    if s == NO_SHAPE {
        return 0;
    }
    let (three, five) = (s as usize >> 2, s as usize & 3);
    let kiri = mask & KIRI == KIRI;
    let mut factor = 1;
    if five == K_KASU {
        // Every kasu of the hand is in the 5-group.
        let pairs = (mask & PAIR_LOW & (mask >> 1)).count_ones();
        if pairs == 0 {
            return 0;
        }
        let willow = mask & WILLOW_KASU != 0;
        factor =
            FIVE_KASU_FACTOR[(pairs >= 2) as usize | (kiri as usize) << 1 | (willow as usize) << 2];
    } else if three == K_KASU && kiri {
        // A kasu 3-group of the three 桐素.
        factor = 3;
    }
    if three == K_TAN {
        // A tan 3-group that is exactly 赤短 or exactly 青短.
        let t = mask & TAN;
        if t == AKATAN || t == AOTAN {
            factor *= 2;
        }
    }
    BASE[three][five] * factor
}

/// The 役代 total of an 8-card hand (`rulesets/sangohana.fuda`'s score table with the
/// same arguments): base × multipliers, plus the timing bonus; 0 without a yaku.
pub fn total(mask: u64, win: Win, first_turn: bool, as_dealt: bool) -> i32 {
    debug_assert_eq!(mask.count_ones(), 8, "a 珊瑚花 hand scores 8 cards");
    match value(mask, kind_counts(mask)) {
        0 => 0,
        v => v + bonus(win, first_turn, as_dealt),
    }
}

// The generator, wyrand: shared by the yardsticks (`wyrand.rs`).
include!("wyrand.rs");

/// What the played deals did, summed: enough to compare the yardstick's games with the
/// engine's statistically and to check that its chips balance.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Deals played.
    pub deals: u64,
    /// Deals won by 上がり.
    pub agari: u64,
    /// Deals won by 当たり (a claimed discard, or the top discard taken on one's turn).
    pub atari: u64,
    /// Deals ending in 流れ.
    pub nagare: u64,
    /// Decisions as the engine counts them: two per turn (draw or take, then win or
    /// discard; the dealer's forced first draw included), and one for a claim window in
    /// which someone can win (windows nobody can claim ask no one).
    pub decisions: u64,
    /// Sum of the winners' 役代 totals.
    pub value: i64,
    /// Sum of their squares.
    pub value_sq: i64,
    /// Wins with each timing bonus: 福上がり (+15), 福当たり as dealt (+12), 福当たり
    /// with the hand changed (+10).
    pub bonus_wins: [u64; 3],
    /// Wins by the deal's dealer.
    pub dealer_wins: u64,
}

/// A hand between turns: its seven cards in any order (and a slot for the eighth during
/// a turn), their mask, packed kind counts, and the cards that would complete it.
#[derive(Clone, Copy)]
struct Hand {
    cards: [u8; HAND + 1],
    mask: u64,
    waits: u64,
    kinds: u32,
}

impl Hand {
    /// Puts card `c` in slot `k`.
    #[inline(always)]
    fn add(&mut self, k: usize, c: usize) {
        self.cards[k] = c as u8;
        self.mask |= 1 << c;
        self.kinds += KIND_INC[c & 63];
    }
}

/// How a deal ended.
#[derive(Clone, Copy)]
enum End {
    /// Seat `seat` won, and every other player pays `total`.
    Won { seat: usize, total: i32 },
    /// 流れ: nobody won.
    Nagare,
}

/// The next seat counter-clockwise (the ruleset's `next`).
const NEXT: [usize; PLAYERS] = [1, 2, 0];

/// The simulator: a random generator and the deck, which stays a permutation of the 48
/// cards, so a deal draws from it with a lazy Fisher–Yates shuffle (each card is drawn
/// uniformly from those not yet drawn, as from a fully shuffled stock) and only the cards
/// a deal uses cost a random number.
pub struct Yardstick {
    rng: Rng,
    /// The 48 cards in its first 48 bytes; 64 so that `i & 63` needs no bounds check.
    deck: [u8; 64],
}

impl Yardstick {
    /// A simulator whose games are fixed by `seed`.
    pub fn new(seed: u64) -> Yardstick {
        let mut deck = [0u8; 64];
        for (i, c) in deck.iter_mut().enumerate().take(48) {
            *c = i as u8;
        }
        Yardstick {
            rng: Rng::new(seed),
            deck,
        }
    }

    /// Puts a uniform pick among `deck[i..48]` at `i`, from the `bits`-bit random field
    /// `v`, and returns it (i < 48).
    #[inline(always)]
    fn shuffle_in(&mut self, i: usize, v: u64, bits: u32) -> usize {
        let j = i + self.rng.field(v, bits, (48 - i) as u64) as usize;
        // By hand: `swap` keeps bounds checks (2% more instructions per deal).
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

    /// `dealer by draw lowest month`: each player draws a card from a shuffled deck, the
    /// earliest month deals, and the tied redraw (from the same deck) until one is left.
    fn first_dealer(&mut self) -> usize {
        let mut next = 0;
        let mut seats = [0usize, 1, 2];
        let mut n = PLAYERS;
        while n > 1 && next + n <= 48 {
            let mut months = [0usize; PLAYERS];
            for m in months.iter_mut().take(n) {
                *m = self.draw(&mut next) / 4;
            }
            let low = *months[..n].iter().min().expect("contenders");
            let mut kept = 0;
            for k in 0..n {
                if months[k] == low {
                    seats[kept] = seats[k];
                    kept += 1;
                }
            }
            n = kept;
        }
        seats[0]
    }

    /// Plays one deal with `dealer` dealing; returns how it ended.
    fn deal(&mut self, dealer: usize, st: &mut Stats) -> End {
        // Hands are indexed `& 3` (no bounds checks); the fourth is never used.
        let mut hands = [Hand {
            cards: [0; HAND + 1],
            mask: 0,
            waits: 0,
            kinds: 0,
        }; 4];
        // Gather, shuffle, cut and deal 4 then 3 from 胴二 on: with a uniformly shuffled
        // stock, which seat gets which drawn card does not change the distribution, so
        // each hand is simply seven cards drawn in turn (mostly two per random number).
        let mut next = 0;
        for h in &mut hands[..PLAYERS] {
            for k in (0..HAND).step_by(2) {
                let v = self.rng.next_u64();
                h.add(k, self.shuffle_in(next, v & 0xFFFF_FFFF, 32));
                next += 1;
                if k + 1 < HAND {
                    h.add(k + 1, self.shuffle_in(next, v >> 32, 32));
                    next += 1;
                }
            }
        }
        for h in &mut hands[..PLAYERS] {
            h.waits = waits(h.mask, h.kinds);
        }
        let dealt = [hands[0].mask, hands[1].mask, hands[2].mask, 0];
        let mut s = dealer;
        let mut turns = 0;
        // Decisions besides the two of every turn: a claim window in which someone wins.
        let mut claims = 0;
        // The discard pile's top (only it can be taken); the pile is empty only before
        // the deal's first discard, so at every turn but the dealer's first.
        let mut top = 0;
        let end = loop {
            turns += 1;
            // 巡 == 1, the first go-round: the dealer's second turn would be the fourth.
            let first_turn = turns <= PLAYERS as u64;
            // One random number per turn: bit 63 for the first choice, bits 32..63 for
            // the discard, bits 0..32 for the stock's next card.
            let x = self.rng.next_u64();
            // The first decision: 山札をめくる, or 捨て札を取る when the pile is non-empty,
            // each half the time (neither ends the round, so eager picks at random).
            let take = turns > 1 && x >> 63 != 0;
            // The stock's next card is shuffled into place whether or not it is drawn: a
            // swap among the cards not yet drawn leaves them uniformly shuffled, and doing
            // it either way spares a branch that cannot be predicted.
            let drawn = self.shuffle_in(next, x & 0xFFFF_FFFF, 32);
            let c = if take { top } else { drawn };
            next += !take as usize;
            let h = &mut hands[s & 3];
            // The second decision: eager declares a win whenever it may (上がり with the
            // drawn card, 当たり with the taken one).
            if h.waits >> c & 1 != 0 {
                let how = if take { Win::Atari } else { Win::Agari };
                let (mask, kinds) = (h.mask | 1 << c, h.kinds + KIND_INC[c & 63]);
                let as_dealt = h.mask == dealt[s & 3];
                break self.won(st, s, mask, kinds, how, first_turn, as_dealt);
            }
            // Otherwise discard uniformly among the legal cards: the seven in hand, and
            // after drawing the drawn card too (slot 7); a taken card must be kept.
            h.cards[HAND] = c as u8;
            let k = self.rng.field(x >> 32 & 0x7FFF_FFFF, 31, 8 - take as u64) as usize & 7;
            let d = h.cards[k] as usize;
            h.cards[k] = c as u8;
            h.mask ^= 1 << c ^ 1 << d;
            h.kinds = h.kinds + KIND_INC[c & 63] - KIND_INC[d & 63];
            h.waits = waits(h.mask, h.kinds);
            top = d;
            // The claim window: the others in turn order after the discarder; every one
            // who can win claims (eager), and the first of them wins alone.
            let (n1, n2) = (NEXT[s], NEXT[NEXT[s]]);
            if (hands[n1 & 3].waits | hands[n2 & 3].waits) >> d & 1 != 0 {
                let w = if hands[n1 & 3].waits >> d & 1 != 0 {
                    n1
                } else {
                    n2
                };
                let h = &hands[w & 3];
                let (mask, kinds) = (h.mask | 1 << d, h.kinds + KIND_INC[d & 63]);
                let as_dealt = h.mask == dealt[w & 3];
                claims = 1;
                break self.won(st, w, mask, kinds, Win::Atari, first_turn, as_dealt);
            }
            // Whoever drew the last stock card has played their turn: 流れ.
            if next == 48 {
                st.nagare += 1;
                break End::Nagare;
            }
            s = n1;
        };
        st.deals += 1;
        st.decisions += 2 * turns + claims;
        if let End::Won { seat, .. } = end {
            st.dealer_wins += (seat == dealer) as u64;
        }
        end
    }
    /// A win by `seat` with the 8 cards `mask`: scores it and counts it.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn won(
        &mut self,
        st: &mut Stats,
        seat: usize,
        mask: u64,
        kinds: u32,
        win: Win,
        first_turn: bool,
        as_dealt: bool,
    ) -> End {
        let b = bonus(win, first_turn, as_dealt);
        let total = value(mask, kinds) + b;
        match win {
            Win::Agari => st.agari += 1,
            Win::Atari => st.atari += 1,
        }
        st.value += total as i64;
        st.value_sq += (total * total) as i64;
        match b {
            15 => st.bonus_wins[0] += 1,
            12 => st.bonus_wins[1] += 1,
            10 => st.bonus_wins[2] += 1,
            _ => {}
        }
        End::Won { seat, total }
    }

    /// Plays a match of [`DEALS`] deals and returns each seat's chips at the end (they
    /// sum to zero: every payment moves chips between seats and the pot, and the pot is
    /// shared out at the end).
    pub fn play_match(&mut self, st: &mut Stats) -> [i64; PLAYERS] {
        let mut m = Ledger::new(self.first_dealer());
        for month in 1..=DEALS {
            match self.deal(m.dealer, st) {
                End::Won { seat, total } => m.won(seat, total as i64),
                End::Nagare => m.nagare(month),
            }
        }
        m.finish()
    }
}

/// A match's money and dealer: the ruleset's `勝ち`, `流れ` and the end of `match`, kept
/// apart from the play so the test can also settle the engine's deals with it.
#[derive(Clone, Debug)]
pub struct Ledger {
    /// Each seat's chips.
    pub chips: [i64; PLAYERS],
    /// 場: chips put in by 流れ, taken whole by the next winner.
    pub pot: i64,
    /// 流れ数: consecutive 流れ under the present dealer.
    pub nagare: i64,
    /// Who deals.
    pub dealer: usize,
}

impl Ledger {
    /// A match starting with `dealer` dealing and no chips moved.
    pub fn new(dealer: usize) -> Ledger {
        Ledger {
            chips: [0; PLAYERS],
            pot: 0,
            nagare: 0,
            dealer,
        }
    }

    /// Seat `seat` won with 役代 `total`: everyone else pays it, the pot goes to the
    /// winner, a dealer who kept the deal through 流れ collects 1 per 流れ from each, and
    /// the winner deals next.
    #[inline]
    pub fn won(&mut self, seat: usize, total: i64) {
        let each = total + if seat == self.dealer { self.nagare } else { 0 };
        for (o, c) in self.chips.iter_mut().enumerate() {
            if o != seat {
                *c -= each;
            }
        }
        self.chips[seat] += each * (PLAYERS as i64 - 1) + self.pot;
        self.pot = 0;
        self.nagare = 0;
        self.dealer = seat;
    }

    /// Deal number `month` (from 1) ended in 流れ: the dealer puts 2 into the pot and the
    /// others 1, except in the last deal, and the dealer deals again.
    #[inline]
    pub fn nagare(&mut self, month: u32) {
        if month < DEALS {
            for (o, c) in self.chips.iter_mut().enumerate() {
                *c -= if o == self.dealer { 2 } else { 1 };
            }
            self.pot += PLAYERS as i64 + 1;
        }
        self.nagare += 1;
    }

    /// The end of the match: a pot left after the last deal goes to the chip leaders,
    /// split evenly, the remainder to the first of them from the dealer on. Returns the
    /// final chips.
    pub fn finish(mut self) -> [i64; PLAYERS] {
        if self.pot > 0 {
            let top = *self.chips.iter().max().expect("players");
            let mut leaders = [0usize; PLAYERS];
            let mut n = 0;
            let mut s = self.dealer;
            for _ in 0..PLAYERS {
                if self.chips[s] == top {
                    leaders[n] = s;
                    n += 1;
                }
                s = NEXT[s];
            }
            let share = self.pot / n as i64;
            for &l in &leaders[..n] {
                self.chips[l] += share;
            }
            self.chips[leaders[0]] += self.pot - share * n as i64;
        }
        self.chips
    }
}
