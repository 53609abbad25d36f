//! The 浮島 yardstick: a hand-written 3-player 浮島 simulator with bitmask piles, against
//! which the generic engine's round rate is measured.
//!
//! It plays the game of `rulesets/ukishima.fuda` with its default parameters (3 players,
//! 6 rounds, 減算 on) with fuda's `random` players in every seat: every decision the rule
//! file offers is taken uniformly among the moves it lists. Those decisions are, per turn,
//! which hand card to play (and, in one's first turn with four of a number in hand, one
//! more move: show them and ask for a redeal), and for a card played or flipped onto a
//! field holding its number, which field card to capture (one move or two). It shares no
//! code with the engine, so the engine's speed is compared with what a direct program does;
//! `tests/tests/yardstick_ukishima.rs` checks that both play the same game (its settlement
//! against the rule file's `清算` on end states, and the statistics of whole matches).
//!
//! Card `c` is bit `c` of a `u64`: `(number − 1) × 4 + letter`, so `1a` (赤ピン) is 0,
//! `4a` (玉四) is 12, and the four cards of a number are one nibble. Piles and the field are
//! masks, so a capture is a nibble test and a 役 a few nibble-wise operations. A hand also
//! keeps its cards in a small array, to play a uniformly chosen one in O(1). The pack is
//! shuffled lazily (each card drawn uniformly among those not yet drawn), so a deal costs a
//! random number only for the cards it draws. Nothing is allocated while a match is played.

// The bench uses the simulator, the test also the settlement, the ids and the statistics.
#![allow(dead_code)]

/// Players in a match (the ruleset's default).
pub const PLAYERS: usize = 3;

/// Rounds in a match (the `rounds` parameter's default): the outcomes of a game.
pub const ROUNDS: u32 = 6;

/// Cards in the pack.
pub const CARDS: usize = 40;

/// Cards dealt to each hand (手六場三).
const HAND: usize = 6;

/// The 40 card ids of std/kabufuda, in bit order: card `c` is bit `c` of a mask.
pub const IDS: [&str; CARDS] = [
    "1a", "1b", "1c", "1d", "2a", "2b", "2c", "2d", "3a", "3b", "3c", "3d", "4a", "4b", "4c", "4d",
    "5a", "5b", "5c", "5d", "6a", "6b", "6c", "6d", "7a", "7b", "7c", "7d", "8a", "8b", "8c", "8d",
    "9a", "9b", "9c", "9d", "10a", "10b", "10c", "10d",
];

/// 赤ピン, `1a`.
pub const AKAPIN: usize = 0;
/// 玉四, `4a`.
pub const GYOKUSHI: usize = 12;

/// The low bit of every number's nibble: a nibble-wise answer is read off these bits.
const LOW: u64 = 0x11_1111_1111;

/// The nibbles (low bits) of numbers 1 to 5, 五双's numbers.
const GOSO_NUMBERS: u64 = 0x1_1111;

/// 浮き代 by number − 1: the points of the number's four cards.
pub const UKIDAI: [i64; 10] = [18, 8, 12, 22, 20, 24, 28, 32, 36, 40];

/// The card-point baseline: 240 points shared by three.
const BASELINE: i64 = 80;

/// The number (1 to 10) of card `c`.
#[inline(always)]
pub const fn number(c: usize) -> usize {
    c / 4 + 1
}

/// The four cards of card `c`'s number.
#[inline(always)]
const fn same_number(c: usize) -> u64 {
    0xF << (c & !3)
}

/// Cards whose `number − 1` has bit `b`: a pile's card points are its popcounts on these
/// weighted by `1 << b`, plus one a card.
const fn plane(b: u32) -> u64 {
    let mut m = 0u64;
    let mut c = 0;
    while c < CARDS {
        if (c >> 2) >> b & 1 == 1 {
            m |= 1 << c;
        }
        c += 1;
    }
    m
}

/// [`plane`] for bits 0 to 3 of `number − 1` (0..9).
const PLANES: [u64; 4] = [plane(0), plane(1), plane(2), plane(3)];

/// The card points of a set of cards (the ruleset's `合計`): 赤ピン 15, 玉四 10, every
/// other card its number.
#[inline]
pub fn points(m: u64) -> i64 {
    let mut p = m.count_ones() as i64;
    for (b, plane) in PLANES.iter().enumerate() {
        p += ((m & plane).count_ones() as i64) << b;
    }
    // 赤ピン counts 15 instead of 1, 玉四 10 instead of 4.
    p + 14 * (m >> AKAPIN & 1) as i64 + 6 * (m >> GYOKUSHI & 1) as i64
}

/// Each number's card count in its own nibble (0 to 4).
#[inline(always)]
fn counts(m: u64) -> u64 {
    let v = m - ((m >> 1) & 0x5555_5555_5555_5555);
    (v & 0x3333_3333_3333_3333) + ((v >> 2) & 0x3333_3333_3333_3333)
}

/// The low bit of each number's nibble of which `m` holds two or more cards.
#[inline(always)]
fn pairs(m: u64) -> u64 {
    let v = counts(m);
    (v >> 1 | v >> 2) & LOW
}

/// The low bit of each number's nibble of which `m` holds all four cards.
#[inline(always)]
fn fours(m: u64) -> u64 {
    m & m >> 1 & m >> 2 & m >> 3 & LOW
}

/// The six 役 in the rule file's order, as bit numbers of a seat's 役 mask.
pub const GOSO: usize = 0;
/// 赤ダマ.
pub const AKADAMA: usize = 1;
/// 二ゾロ: all four 2s.
pub const NIZORO: usize = 2;
/// 三太: all four 3s.
pub const SANTA: usize = 3;
/// 六法: all four 6s.
pub const ROPPO: usize = 4;
/// 株シマ: all four 9s.
pub const KABUSHIMA: usize = 5;

/// The 役's names, by bit number (as the engine's results name them).
pub const YAKU_NAMES: [&str; 6] = ["五双", "赤ダマ", "二ゾロ", "三太", "六法", "株シマ"];

/// What each other player pays for a 役, by bit number.
pub const YAKU_VALUES: [i64; 6] = [80, 40, 20, 20, 20, 20];

/// 五双 stands on these cards before the two-holder rule: a pair of each of 1–5 and
/// all four of none of them.
#[inline]
fn goso_stands(real: u64) -> bool {
    pairs(real) & GOSO_NUMBERS == GOSO_NUMBERS && fours(real) & GOSO_NUMBERS == 0
}

/// The 役 of one seat's captures without the floating number (`real`), given whether
/// two seats hold 五双: a mask of [`YAKU_NAMES`] bits.
#[inline]
fn yaku(real: u64, two_goso: bool) -> u8 {
    let mut y = 0u8;
    if goso_stands(real) && !(two_goso && real >> AKAPIN & 1 != 0) {
        y |= 1 << GOSO;
    }
    // A pair of 1s holding 赤ピン, a pair of 4s holding 玉四, a pair of 9s.
    let p = pairs(real);
    if real >> AKAPIN & 1 != 0
        && real >> GYOKUSHI & 1 != 0
        && p & (1 | 1 << 12 | 1 << 32) == (1 | 1 << 12 | 1 << 32)
    {
        y |= 1 << AKADAMA;
    }
    let f = fours(real);
    for (k, n) in [(NIZORO, 2), (SANTA, 3), (ROPPO, 6), (KABUSHIMA, 9)] {
        if f >> (4 * (n - 1)) & 1 != 0 {
            y |= 1 << k;
        }
    }
    y
}

/// What a round's settlement (the ruleset's `清算`) gives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settlement {
    /// The floating number (1 to 10): the 伏せ札's.
    pub float: usize,
    /// The 浮き持: the seat holding the floating pair.
    pub ukimochi: usize,
    /// Each seat's 役, as a mask of [`YAKU_NAMES`] bits.
    pub yaku: [u8; PLAYERS],
    /// What each other player pays each seat for its 役.
    pub yaku_value: [i64; PLAYERS],
    /// The card settlement (`点差`).
    pub card: [i64; PLAYERS],
    /// Each seat's whole result (`収支`): 役代 received and paid, and the card settlement.
    pub chips: [i64; PLAYERS],
    /// Who deals next: the best result, ties to the earliest seat from the dealer.
    pub next_dealer: usize,
}

/// Settles a round's end: the three capture piles, the 伏せ札 and the dealer (the last
/// field card is the fourth card of the 伏せ札's number, held by nobody). The end must be
/// one play reaches: some seat holds the floating number's other two cards.
pub fn settle(piles: &[u64; PLAYERS], fuse: usize, dealer: usize) -> Settlement {
    let float = number(fuse);
    let floating = same_number(fuse);
    let u = UKIDAI[float - 1];
    let mut s = Settlement {
        float,
        ..Settlement::default()
    };
    for (x, p) in piles.iter().enumerate() {
        if p & floating != 0 {
            s.ukimochi = x;
        }
    }
    let real = piles.map(|p| p & !floating);
    let two_goso = real.iter().filter(|&&r| goso_stands(r)).count() >= 2;
    for (x, &r) in real.iter().enumerate() {
        let y = yaku(r, two_goso);
        s.yaku[x] = y;
        let mut v = 0;
        for (k, value) in YAKU_VALUES.iter().enumerate() {
            if y >> k & 1 != 0 {
                v += value;
            }
        }
        s.yaku_value[x] = v;
        if v > 0 {
            for (o, c) in s.chips.iter_mut().enumerate() {
                *c += if o == x { v * (PLAYERS as i64 - 1) } else { -v };
            }
        }
    }
    // The 浮き持 subtracts the 浮き代 (減算); each other player adds it (the subtracted
    // and the floating points, shared by two); everyone subtracts the baseline.
    for (x, &r) in real.iter().enumerate() {
        let shift = if x == s.ukimochi { -u } else { u };
        s.card[x] = points(r) - BASELINE + shift;
        s.chips[x] += s.card[x];
    }
    // The best result, the earliest from the dealer among equals.
    let mut best = dealer;
    let mut x = dealer;
    for _ in 1..PLAYERS {
        x = NEXT[x];
        if s.chips[x] > s.chips[best] {
            best = x;
        }
    }
    s.next_dealer = best;
    s
}

/// The next seat in turn order (the ruleset's `next`).
const NEXT: [usize; PLAYERS] = [1, 2, 0];

// The generator, wyrand: shared by the yardsticks (`wyrand.rs`).
include!("wyrand.rs");

/// What the played rounds did, summed: enough to compare the yardstick's games with the
/// engine's statistically and to check that its chips balance.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Rounds played (settled): the engine's outcomes.
    pub rounds: u64,
    /// Deals dealt, the ones voided by a redeal included.
    pub deals: u64,
    /// Deals dealt again because the field held three of a number.
    pub field_redeals: u64,
    /// Deals voided by a player who showed four of a number.
    pub asked_redeals: u64,
    /// Decisions as the engine counts them: one a turn for the hand card (or the redeal),
    /// and one for each card played or flipped that has a field card to capture (a
    /// single capture included: a decision with one move is still counted).
    pub decisions: u64,
    /// Rounds by the 浮き持's role: 親, 胴二, ビキ.
    pub ukimochi: [u64; PLAYERS],
    /// Rounds by floating number − 1.
    pub floats: [u64; 10],
    /// Seats paid for each 役 (by [`YAKU_NAMES`] bit).
    pub yaku: [u64; 6],
    /// Seats paid for at least one 役 (the engine's recorded results).
    pub paid: u64,
    /// The dealer's result, summed over rounds.
    pub dealer_chips: i64,
    /// Its squares.
    pub dealer_chips_sq: i64,
    /// Chips that changed hands (the winners' gains), summed over rounds.
    pub moved: i64,
    /// Their squares.
    pub moved_sq: i64,
    /// Rounds after which the dealer deals again (the last round of a match not counted).
    pub kept_deal: u64,
    /// Rounds followed by another in the same match.
    pub followed: u64,
}

/// A round's end as it lies on the table: what the settlement reads.
#[derive(Clone, Copy, Debug)]
pub struct End {
    /// The round's dealer.
    pub dealer: usize,
    /// Each seat's captures.
    pub piles: [u64; PLAYERS],
    /// The 伏せ札.
    pub fuse: usize,
    /// The field: the last card, of the 伏せ札's number.
    pub field: u64,
}

/// A hand: its cards in any order and their mask.
#[derive(Clone, Copy)]
struct Hand {
    cards: [u8; 8],
    n: usize,
    mask: u64,
}

/// The simulator: a random generator and the pack, which stays a permutation of the 40
/// cards, so a deal draws from it with a lazy Fisher–Yates shuffle.
pub struct Yardstick {
    rng: Rng,
    /// The 40 cards in its first 40 bytes; 64 so that `i & 63` needs no bounds check.
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

    /// Puts a uniform pick among `deck[i..40]` at `i`, from the `bits`-bit random field
    /// `v`, and returns it (i < 40).
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

    /// Cards number `next` and `next + 1` of the shuffle, from one random number.
    #[inline(always)]
    fn draw2(&mut self, next: &mut usize) -> (usize, usize) {
        let v = self.rng.next_u64();
        let a = self.shuffle_in(*next, v & 0xFFFF_FFFF, 32);
        let b = self.shuffle_in(*next + 1, v >> 32, 32);
        *next += 2;
        (a, b)
    }

    /// `dealer by draw highest number`: each player draws a card from a shuffled pack,
    /// the highest number deals, and the tied draw again (from the same pack) until one
    /// is left.
    fn first_dealer(&mut self) -> usize {
        let mut next = 0;
        let mut seats = [0usize, 1, 2];
        let mut n = PLAYERS;
        while n > 1 && next + n <= CARDS {
            let mut numbers = [0usize; PLAYERS];
            for m in numbers.iter_mut().take(n) {
                *m = number(self.draw(&mut next));
            }
            let high = *numbers[..n].iter().max().expect("contenders");
            let mut kept = 0;
            for k in 0..n {
                if numbers[k] == high {
                    seats[kept] = seats[k];
                    kept += 1;
                }
            }
            n = kept;
        }
        seats[0]
    }

    /// Plays one round with `dealer` dealing, redeals included, to its end.
    pub fn play_round(&mut self, dealer: usize, st: &mut Stats) -> End {
        'deal: loop {
            st.deals += 1;
            // Which positions of a uniformly shuffled pack go where does not change the
            // distribution, so the field is drawn first: three of a number there voids
            // the deal before anything else is drawn.
            let mut next = 0;
            let (a, b) = self.draw2(&mut next);
            let c = self.draw(&mut next);
            if number(a) == number(b) && number(b) == number(c) {
                st.field_redeals += 1;
                continue;
            }
            let mut field = 1u64 << a | 1 << b | 1 << c;
            let fuse = self.draw(&mut next);
            let mut hands = [Hand {
                cards: [0; 8],
                n: HAND,
                mask: 0,
            }; 4];
            for h in &mut hands[..PLAYERS] {
                for k in (0..HAND).step_by(2) {
                    let (c, d) = self.draw2(&mut next);
                    h.cards[k] = c as u8;
                    h.cards[k + 1] = d as u8;
                    h.mask |= 1 << c | 1 << d;
                }
            }
            let mut piles = [0u64; 4];
            let mut decisions = 0;
            let mut s = dealer;
            // Six turns each from the dealer on; the stock's 18 cards are one flip a turn.
            for t in 0..HAND * PLAYERS {
                // One random number a turn: bits 40..64 for the hand card, 8..40 for the
                // flipped card, bits 0 and 1 for the two captures' picks.
                let x = self.rng.next_u64();
                let h = &mut hands[s & 3];
                let n = h.n;
                // In one's first turn, four of a number in hand adds the redeal move.
                let ask = (t < PLAYERS && fours(h.mask) != 0) as usize;
                let k = self.rng.field(x >> 40, 24, (n + ask) as u64) as usize;
                decisions += 1;
                if k == n {
                    st.asked_redeals += 1;
                    st.decisions += decisions;
                    continue 'deal;
                }
                let c = h.cards[k & 7] as usize;
                h.n -= 1;
                h.cards[k & 7] = h.cards[h.n & 7];
                h.mask ^= 1 << c;
                let f = self.shuffle_in(next, x >> 8 & 0xFFFF_FFFF, 32);
                next += 1;
                for (card, bit) in [(c, x & 1), (f, x >> 1 & 1)] {
                    let same = field & same_number(card);
                    if same != 0 {
                        // The card must capture; with two of its number on the field
                        // (dealt so), the player picks one.
                        decisions += 1;
                        let two = same & (same - 1);
                        let take = if two != 0 && bit != 0 {
                            two
                        } else {
                            same ^ two
                        };
                        field ^= take;
                        piles[s & 3] |= take | 1 << card;
                    } else {
                        field |= 1 << card;
                    }
                }
                s = NEXT[s];
            }
            st.decisions += decisions;
            return End {
                dealer,
                piles: [piles[0], piles[1], piles[2]],
                fuse,
                field,
            };
        }
    }

    /// Plays a match of [`ROUNDS`] rounds and returns each seat's chips at the end (they
    /// sum to zero: every settlement does).
    pub fn play_match(&mut self, st: &mut Stats) -> [i64; PLAYERS] {
        let mut chips = [0i64; PLAYERS];
        let mut dealer = self.first_dealer();
        for r in 0..ROUNDS {
            let end = self.play_round(dealer, st);
            let s = settle(&end.piles, end.fuse, dealer);
            st.rounds += 1;
            st.ukimochi[(s.ukimochi + PLAYERS - dealer) % PLAYERS] += 1;
            st.floats[s.float - 1] += 1;
            let mut moved = 0;
            for (x, c) in chips.iter_mut().enumerate() {
                *c += s.chips[x];
                moved += s.chips[x].max(0);
                st.paid += (s.yaku[x] != 0) as u64;
                for (k, n) in st.yaku.iter_mut().enumerate() {
                    *n += (s.yaku[x] >> k & 1) as u64;
                }
            }
            st.moved += moved;
            st.moved_sq += moved * moved;
            st.dealer_chips += s.chips[dealer];
            st.dealer_chips_sq += s.chips[dealer] * s.chips[dealer];
            if r + 1 < ROUNDS {
                st.followed += 1;
                st.kept_deal += (s.next_dealer == dealer) as u64;
            }
            dealer = s.next_dealer;
        }
        chips
    }
}
