//! The 対戯 yardstick: a hand-written 2-player 対戯 simulator with tile counts and a
//! direct decomposition of hands, against which the generic engine's deal rate is
//! measured.
//!
//! It plays the game of `rulesets/taigi.fuda` (a match to `目標` points, 15 by default)
//! with fuda's `random` players in both seats: every decision the rule file offers is
//! taken uniformly among the moves it lists. Those decisions are, each cycle: after the
//! draw, both at once, whether to declare a win (offered only when the 14 tiles win;
//! otherwise the one move 続ける); both discards at once, any tile of the hand; on the
//! other's discard, both at once, ロン (when it completes the hand), each 副露 the discard
//! makes a meld with (one move per pair of faces), or 見送り; and each caller's discard
//! after a 副露. It shares no code with the engine, so the engine's speed is compared with
//! what a direct program does; `tests/tests/yardstick_taigi.rs` checks that both play the
//! same game (its win check and form against the rule file's `和了点`, its redeal rule
//! against an independent reading, and the statistics of whole matches).
//!
//! Tile `t` (0..136) is copy `t % 4` of face `t / 4`: `1m`–`9m` are faces 0–8, `1p`–`9p`
//! 9–17, `1s`–`9s` 18–26, `1z`–`7z` 27–33. A hand keeps its tiles in a small array (to
//! discard a uniformly chosen one in O(1)) and its count of each face, from which a win is
//! decided suit by suit: each suit's count modulo 3 says whether it holds the pair, and a
//! suit's melds are found greedily from its lowest face. The walls are one lazily shuffled
//! pack: every tile a player draws is uniform among those not yet drawn, as from two
//! shuffled walls. Nothing is allocated while a match is played.

// The bench uses the simulator, the test also the win check, the ids and the statistics.
#![allow(dead_code)]

/// Players.
pub const PLAYERS: usize = 2;

/// Faces, and tiles (four copies of each face).
pub const FACES: usize = 34;
pub const TILES: usize = 136;

/// Tiles dealt to a hand.
const HAND: usize = 13;

/// Cycles a deal can last: each wall's 68 tiles less the 13 of the hand.
const CYCLES: usize = 68 - HAND;

/// The face ids: face `f` is `IDS[f]`.
pub const IDS: [&str; FACES] = [
    "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p", "5p", "6p", "7p",
    "8p", "9p", "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "1z", "2z", "3z", "4z", "5z",
    "6z", "7z",
];

/// The terminal and honour faces (幺九).
pub const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// Counts of each face.
pub type Counts = [u8; FACES];

/// How a hand wins, as the rule file's `和了点` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// A pair and four melds, no call: 門前和了.
    Menzen,
    /// A pair and the melds a called hand still needs: 副露和了.
    Called,
    /// Seven different pairs: 七対子.
    SevenPairs,
    /// The thirteen terminals and honours, one twice: 国士無双.
    Orphans,
}

impl Form {
    /// The name the rule file records.
    pub fn name(self) -> &'static str {
        match self {
            Form::Menzen => "門前和了",
            Form::Called => "副露和了",
            Form::SevenPairs => "七対子",
            Form::Orphans => "国士無双",
        }
    }
}

/// Whether a number suit's counts (faces `lo..lo + 9`) split into melds only: the lowest
/// face left starts a triplet (three runs from it are three triplets, so this loses no
/// split) and then as many runs as its count leaves.
#[inline]
fn suit_melds(c: &Counts, lo: usize) -> bool {
    let mut s = [0u8; 11];
    s[..9].copy_from_slice(&c[lo..lo + 9]);
    for i in 0..9 {
        let mut x = s[i];
        if x >= 3 {
            x -= 3;
        }
        if x > 0 {
            if s[i + 1] < x || s[i + 2] < x {
                return false;
            }
            s[i + 1] -= x;
            s[i + 2] -= x;
        }
    }
    true
}

/// Whether the honours split into triplets only, or (with `pair`) one pair and triplets.
#[inline]
fn honour_melds(c: &Counts, pair: bool) -> bool {
    let mut pairs = 0;
    for &x in &c[27..34] {
        match x {
            0 | 3 => {}
            2 => pairs += 1,
            _ => return false,
        }
    }
    pairs == usize::from(pair)
}

/// Whether the hand's tiles are a pair and melds (a pair and four melds with no call;
/// with calls, the tiles left: the caller ensures there are 14 − 3 × calls).
pub fn standard(c: &Counts) -> bool {
    let mut pair_suit = 4;
    for s in 0..4 {
        let (lo, n) = if s < 3 { (9 * s, 9) } else { (27, 7) };
        let sum: u32 = c[lo..lo + n].iter().map(|&x| x as u32).sum();
        match sum % 3 {
            0 => {}
            2 if pair_suit == 4 => pair_suit = s,
            _ => return false,
        }
    }
    if pair_suit == 4 {
        return false;
    }
    for s in 0..3 {
        let lo = 9 * s;
        let ok = if s == pair_suit {
            let mut t = *c;
            (lo..lo + 9).any(|f| {
                if t[f] < 2 {
                    return false;
                }
                t[f] -= 2;
                let ok = suit_melds(&t, lo);
                t[f] += 2;
                ok
            })
        } else {
            suit_melds(c, lo)
        };
        if !ok {
            return false;
        }
    }
    honour_melds(c, pair_suit == 3)
}

/// Whether 14 tiles are seven pairs of seven different faces.
pub fn seven_pairs(c: &Counts) -> bool {
    c.iter().filter(|&&x| x == 2).count() == 7
}

/// Whether 14 tiles are the thirteen terminals and honours, one of them twice.
pub fn orphans(c: &Counts) -> bool {
    ORPHANS.iter().all(|&f| c[f] >= 1) && ORPHANS.iter().map(|&f| c[f] as u32).sum::<u32>() == 14
}

/// How the hand `c` (14 − 3 × `calls` tiles, beside `calls` called melds) wins, if it
/// does: with a call only the standard form; without, seven pairs and the thirteen
/// orphans too. A hand both standard and seven pairs is recorded as standard, as the
/// rule file records it (its first form).
pub fn wins(c: &Counts, calls: usize) -> Option<Form> {
    if calls > 0 {
        return standard(c).then_some(Form::Called);
    }
    if standard(c) {
        Some(Form::Menzen)
    } else if seven_pairs(c) {
        Some(Form::SevenPairs)
    } else if orphans(c) {
        Some(Form::Orphans)
    } else {
        None
    }
}

/// 天聴: a 13-tile hand one tile from a win by any form, that tile being one whose four
/// copies it does not all hold.
pub fn ready(c: &Counts) -> bool {
    let mut t = *c;
    (0..FACES).any(|f| {
        if t[f] >= 4 {
            return false;
        }
        t[f] += 1;
        let w = wins(&t, 0).is_some();
        t[f] -= 1;
        w
    })
}

/// 九種九牌: nine or more different terminal and honour faces.
pub fn nine_orphans(c: &Counts) -> bool {
    ORPHANS.iter().filter(|&&f| c[f] > 0).count() >= 9
}

/// The 副露 a discard of face `d` offers a hand with counts `c`: the pairs of faces
/// (lower first) that make a meld with it, each once: a triplet with two of its face, or
/// a run of its suit with two faces within two of it. Returns how many, in `out`.
#[inline]
pub fn calls(c: &Counts, d: usize, out: &mut [(usize, usize); 4]) -> usize {
    let mut n = 0;
    if c[d] >= 2 {
        out[n] = (d, d);
        n += 1;
    }
    if d < 27 {
        let k = d % 9;
        let has = |f: usize| c[f] > 0;
        if k >= 2 && has(d - 2) && has(d - 1) {
            out[n] = (d - 2, d - 1);
            n += 1;
        }
        if (1..=7).contains(&k) && has(d - 1) && has(d + 1) {
            out[n] = (d - 1, d + 1);
            n += 1;
        }
        if k <= 6 && has(d + 1) && has(d + 2) {
            out[n] = (d + 1, d + 2);
            n += 1;
        }
    }
    n
}

// The generator, wyrand: shared by the yardsticks (`wyrand.rs`).
include!("wyrand.rs");

/// What the played deals and matches did, summed: enough to compare the yardstick's
/// games with the engine's statistically.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Deals played to an outcome: the engine's outcomes.
    pub deals: u64,
    /// Deals dealt again for 九種九牌 or 天聴 (the tally 配り直し).
    pub redeals: u64,
    /// Deals by outcome: ツモ和了, ロン和了, 両者和了, 荒牌.
    pub outcomes: [u64; 4],
    /// Wins by form, as [`Form`]'s order: 門前和了, 副露和了, 七対子, 国士無双.
    pub forms: [u64; 4],
    /// Cycles played.
    pub cycles: u64,
    /// 副露 made.
    pub calls: u64,
    /// The squares of each deal's decisions.
    pub decisions_sq: u64,
    /// Decisions as the engine counts them: three a cycle (the declaration after the
    /// draw, the discards, the 副露判定; a decision with one move each is still
    /// counted), one for each caller's discard; a deal won on the draw stops after the
    /// first, one won on a discard after the third.
    pub decisions: u64,
    /// Matches played.
    pub matches: u64,
    /// Matches won by 東 (seat 0).
    pub east_wins: u64,
    /// Times both reached the target in one deal (the tally 同時到達).
    pub both_reached: u64,
    /// The winner's margin, summed over matches.
    pub margin: u64,
    /// Its squares.
    pub margin_sq: u64,
    /// Deals a match, summed over matches, and their squares.
    pub match_deals_sq: u64,
}

/// A hand: its tiles in any order, and its count of each face.
#[derive(Clone, Copy)]
struct Hand {
    tiles: [u8; 16],
    n: usize,
    counts: Counts,
    /// Melds laid out by 副露.
    calls: usize,
}

impl Hand {
    #[inline(always)]
    fn add(&mut self, t: usize) {
        self.tiles[self.n & 15] = t as u8;
        self.n += 1;
        self.counts[t >> 2] += 1;
    }

    /// Takes out the tile in slot `k`; returns its face.
    #[inline(always)]
    fn remove_at(&mut self, k: usize) -> usize {
        let f = self.tiles[k & 15] as usize >> 2;
        self.n -= 1;
        self.tiles[k & 15] = self.tiles[self.n & 15];
        self.counts[f] -= 1;
        f
    }

    /// Takes out a tile of face `f` (any copy: they play alike).
    #[inline(always)]
    fn remove_face(&mut self, f: usize) {
        let k = self.tiles[..self.n]
            .iter()
            .position(|&t| t as usize >> 2 == f)
            .expect("the hand holds the face");
        self.remove_at(k);
    }
}

/// How a deal ended: who won (a bit per seat; none for 荒牌), and how.
#[derive(Clone, Copy, Debug)]
pub struct End {
    /// Seats that won, as bits.
    pub winners: u8,
    /// Won on the draw (ツモ) rather than on a discard (ロン).
    pub tsumo: bool,
}

/// The simulator: a random generator, the pack (kept a permutation of the 136 tiles, so a
/// deal draws from it with a lazy Fisher–Yates shuffle) and the match's rules.
pub struct Yardstick {
    rng: Rng,
    pack: [u8; TILES],
    /// 目標: the points that win the match.
    pub target: u32,
    /// 戻り: where both go back to when they reach the target in one deal.
    pub back: u32,
}

impl Yardstick {
    /// A simulator whose games are fixed by `seed`, with the rule file's default target
    /// (15) and return (13).
    pub fn new(seed: u64) -> Yardstick {
        let mut pack = [0u8; TILES];
        for (i, t) in pack.iter_mut().enumerate() {
            *t = i as u8;
        }
        Yardstick {
            rng: Rng::new(seed),
            pack,
            target: 15,
            back: 13,
        }
    }

    /// Tile number `next` of the shuffle, which moves on by one.
    #[inline(always)]
    fn draw(&mut self, next: &mut usize) -> usize {
        let i = *next;
        let j = i + self.rng.below((TILES - i) as u64) as usize;
        self.pack.swap(i, j);
        *next += 1;
        self.pack[i] as usize
    }

    /// Plays one deal (redeals included) to its outcome.
    pub fn play_deal(&mut self, st: &mut Stats) -> End {
        let empty = Hand {
            tiles: [0; 16],
            n: 0,
            counts: [0; FACES],
            calls: 0,
        };
        let (mut hands, mut next) = loop {
            let mut hands = [empty; PLAYERS];
            let mut next = 0;
            for h in &mut hands {
                for _ in 0..HAND {
                    let t = self.draw(&mut next);
                    h.add(t);
                }
            }
            let redeal = hands
                .iter()
                .any(|h| nine_orphans(&h.counts) || ready(&h.counts));
            if !redeal {
                break (hands, next);
            }
            st.redeals += 1;
        };
        st.deals += 1;
        let mut decisions = 0;
        let mut end = End {
            winners: 0,
            tsumo: false,
        };
        let mut forms = [None; PLAYERS];
        'cycles: for _ in 0..CYCLES {
            st.cycles += 1;
            // 自摸: both draw; each whose tiles win may declare (one move in two).
            decisions += 1;
            for (x, h) in hands.iter_mut().enumerate() {
                let t = self.draw(&mut next);
                h.add(t);
                if let Some(f) = wins(&h.counts, h.calls) {
                    if self.rng.next_u64() >> 63 != 0 {
                        forms[x] = Some(f);
                        end.winners |= 1 << x;
                    }
                }
            }
            if end.winners != 0 {
                end.tsumo = true;
                break 'cycles;
            }
            // 打牌: both discard any tile.
            decisions += 1;
            let mut discards = [0usize; PLAYERS];
            for (d, h) in discards.iter_mut().zip(&mut hands) {
                let k = self.rng.below(h.n as u64) as usize;
                *d = h.remove_at(k);
            }
            // 副露判定: ロン if the other's discard completes the hand, each 副露 it
            // makes, or 見送り, uniformly.
            decisions += 1;
            let mut called = [None; PLAYERS];
            for (x, h) in hands.iter_mut().enumerate() {
                let d = discards[1 - x];
                h.counts[d] += 1;
                let ron = wins(&h.counts, h.calls);
                h.counts[d] -= 1;
                let mut options = [(0, 0); 4];
                let n = calls(&h.counts, d, &mut options);
                let r = usize::from(ron.is_some());
                let k = self.rng.below((r + n + 1) as u64) as usize;
                if k < r {
                    forms[x] = ron;
                    end.winners |= 1 << x;
                } else if k < r + n {
                    called[x] = Some(options[k - r]);
                }
            }
            if end.winners != 0 {
                break 'cycles;
            }
            // 副露: the two tiles laid out, then one more discard; in seat order.
            for (h, c) in hands.iter_mut().zip(called) {
                if let Some((a, b)) = c {
                    h.remove_face(a);
                    h.remove_face(b);
                    h.calls += 1;
                    st.calls += 1;
                    decisions += 1;
                    let k = self.rng.below(h.n as u64) as usize;
                    h.remove_at(k);
                }
            }
        }
        st.decisions += decisions;
        st.decisions_sq += decisions * decisions;
        let k = match (end.winners, end.tsumo) {
            (0, _) => 3,
            (3, _) => 2,
            (_, true) => 0,
            (_, false) => 1,
        };
        st.outcomes[k] += 1;
        for f in forms.iter().flatten() {
            st.forms[*f as usize] += 1;
        }
        end
    }

    /// Plays a match: deals until a player has the target, both going back to `back`
    /// when they reach it in one deal. Returns the points.
    pub fn play_match(&mut self, st: &mut Stats) -> [u32; PLAYERS] {
        let mut points = [0u32; PLAYERS];
        let deals = st.deals;
        loop {
            let end = self.play_deal(st);
            for (x, p) in points.iter_mut().enumerate() {
                *p += u32::from(end.winners >> x & 1);
            }
            if points.iter().all(|&p| p >= self.target) {
                points = [self.back; PLAYERS];
                st.both_reached += 1;
                continue;
            }
            if let Some(w) = (0..PLAYERS).find(|&x| points[x] >= self.target) {
                st.matches += 1;
                st.east_wins += u64::from(w == 0);
                let m = u64::from(points[w] - points[1 - w]);
                st.margin += m;
                st.margin_sq += m * m;
                st.match_deals_sq += (st.deals - deals) * (st.deals - deals);
                return points;
            }
        }
    }
}
