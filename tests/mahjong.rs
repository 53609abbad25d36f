//! Mahjong hands, written from the card model of `docs/games/README.md` alone (34 tiles
//! `1m`–`9m`, `1p`–`9p`, `1s`–`9s`, `1z`–`7z`, four copies each), with the three
//! winning forms decided by counting, the way a player checks a hand: a pair and four
//! melds, seven different pairs, or the thirteen terminals and honours with one of
//! them twice. It shares nothing with fuda's pattern engine: the oracle tests compare
//! the two hand by hand.

use crate::oracle::Rng;

/// Tile kinds: 9 of each suit, then 7 honours.
pub const KINDS: usize = 34;

/// A hand as the count of each kind.
pub type Counts = [u8; KINDS];

/// Whether kind `k` is a suited tile (it can be part of a run).
fn suited(k: usize) -> bool {
    k < 27
}

/// Whether kind `k` is a terminal (1 or 9 of a suit) or an honour: 幺九.
pub fn terminal_or_honour(k: usize) -> bool {
    !suited(k) || k.is_multiple_of(9) || k % 9 == 8
}

/// The hand in compact notation (`123m456p789s11z`), the form `cards("…")` reads.
pub fn notation(c: &Counts) -> String {
    let mut out = String::new();
    for (suit, letter) in ["m", "p", "s", "z"].iter().enumerate() {
        let width = if suit < 3 { 9 } else { 7 };
        let mut any = false;
        for n in 0..width {
            for _ in 0..c[suit * 9 + n] {
                out.push(char::from(b'1' + n as u8));
                any = true;
            }
        }
        if any {
            out.push_str(letter);
        }
    }
    out
}

/// How many tiles the hand holds.
pub fn size(c: &Counts) -> usize {
    c.iter().map(|&n| n as usize).sum()
}

/// Whether the tiles split into melds only (triplets and runs of one suit): the lowest
/// tile left must start a triplet or a run, so trying both there finds every split.
fn melds_only(c: &mut Counts) -> bool {
    let Some(k) = (0..KINDS).find(|&k| c[k] > 0) else {
        return true;
    };
    if c[k] >= 3 {
        c[k] -= 3;
        let ok = melds_only(c);
        c[k] += 3;
        if ok {
            return true;
        }
    }
    if suited(k) && k % 9 <= 6 && c[k + 1] > 0 && c[k + 2] > 0 {
        c[k] -= 1;
        c[k + 1] -= 1;
        c[k + 2] -= 1;
        let ok = melds_only(c);
        c[k] += 1;
        c[k + 1] += 1;
        c[k + 2] += 1;
        if ok {
            return true;
        }
    }
    false
}

/// 一般形: 14 tiles as a pair and four melds.
pub fn standard(c: &Counts) -> bool {
    standard_with_calls(c, 0)
}

/// 七対子: 14 tiles as seven pairs of seven different kinds.
pub fn seven_pairs(c: &Counts) -> bool {
    size(c) == 14 && c.iter().filter(|&&n| n == 2).count() == 7
}

/// 国士無双: every terminal and honour kind, one of them twice, and nothing else.
pub fn thirteen_orphans(c: &Counts) -> bool {
    size(c) == 14
        && (0..KINDS).all(|k| {
            if terminal_or_honour(k) {
                (1..=2).contains(&c[k])
            } else {
                c[k] == 0
            }
        })
}

/// The kinds that complete a 13-tile hand by `form`: a kind of which the hand does not
/// already hold all four copies, whose addition makes the form.
pub fn waits(c: &Counts, form: fn(&Counts) -> bool) -> Vec<usize> {
    (0..KINDS)
        .filter(|&k| {
            if c[k] >= 4 {
                return false;
            }
            let mut with = *c;
            with[k] += 1;
            form(&with)
        })
        .collect()
}

/// Adds one of kind `k` when a copy is left; whether it was.
fn add(c: &mut Counts, k: usize) -> bool {
    if c[k] >= 4 {
        return false;
    }
    c[k] += 1;
    true
}

/// `n` tiles drawn from the 136 at random.
pub fn random_hand(rng: &mut Rng, n: usize) -> Counts {
    let mut c = [0; KINDS];
    while size(&c) < n {
        add(&mut c, rng.below(KINDS));
    }
    c
}

/// `n` tiles drawn at random from one suit: the hands with most ways to split.
pub fn one_suit_hand(rng: &mut Rng, n: usize) -> Counts {
    let suit = rng.below(3) * 9;
    let mut c = [0; KINDS];
    while size(&c) < n {
        add(&mut c, suit + rng.below(9));
    }
    c
}

/// A pair and four melds at random (triplets and runs, copies permitting).
pub fn standard_win(rng: &mut Rng) -> Counts {
    loop {
        let mut c = [0; KINDS];
        let pair = rng.below(KINDS);
        let mut ok = add(&mut c, pair) && add(&mut c, pair);
        for _ in 0..4 {
            if rng.chance(3) {
                let k = rng.below(KINDS);
                ok &= add(&mut c, k) && add(&mut c, k) && add(&mut c, k);
            } else {
                let k = rng.below(3) * 9 + rng.below(7);
                ok &= add(&mut c, k) && add(&mut c, k + 1) && add(&mut c, k + 2);
            }
        }
        if ok {
            return c;
        }
    }
}

/// Seven different pairs at random.
pub fn seven_pairs_win(rng: &mut Rng) -> Counts {
    let mut kinds: Vec<usize> = (0..KINDS).collect();
    rng.shuffle(&mut kinds);
    let mut c = [0; KINDS];
    for &k in &kinds[..7] {
        c[k] = 2;
    }
    c
}

/// The thirteen terminals and honours, one of them twice.
pub fn thirteen_orphans_win(rng: &mut Rng) -> Counts {
    let orphans: Vec<usize> = (0..KINDS).filter(|&k| terminal_or_honour(k)).collect();
    let mut c = [0; KINDS];
    for &k in &orphans {
        c[k] = 1;
    }
    c[orphans[rng.below(orphans.len())]] += 1;
    c
}

/// One tile of the hand, at random, taken out.
pub fn without_one(rng: &mut Rng, c: &Counts) -> Counts {
    let held: Vec<usize> = (0..KINDS)
        .flat_map(|k| std::iter::repeat_n(k, c[k] as usize))
        .collect();
    let mut out = *c;
    out[held[rng.below(held.len())]] -= 1;
    out
}

/// Whether the concealed tiles `c`, beside `called` melds laid out (each a triplet or a
/// run), win in the standard form: the concealed tiles are then a pair and the melds
/// still missing.
pub fn standard_with_calls(c: &Counts, called: usize) -> bool {
    if called > 4 || size(c) + 3 * called != 14 {
        return false;
    }
    let mut c = *c;
    (0..KINDS).any(|k| {
        if c[k] < 2 {
            return false;
        }
        c[k] -= 2;
        let ok = melds_only(&mut c);
        c[k] += 2;
        ok
    })
}

/// A random meld that `taken` (the tiles already used) leaves copies for: a triplet or
/// a run of one suit; its tiles are added to `taken`.
pub fn random_meld(rng: &mut Rng, taken: &mut Counts) -> Counts {
    loop {
        let mut m = [0; KINDS];
        let mut t = *taken;
        let ok = if rng.chance(3) {
            let k = rng.below(KINDS);
            m[k] = 3;
            add(&mut t, k) && add(&mut t, k) && add(&mut t, k)
        } else {
            let k = rng.below(3) * 9 + rng.below(7);
            m[k] = 1;
            m[k + 1] = 1;
            m[k + 2] = 1;
            add(&mut t, k) && add(&mut t, k + 1) && add(&mut t, k + 2)
        };
        if ok {
            *taken = t;
            return m;
        }
    }
}

/// The melds a hand holds the tiles of (triplets and runs, each once by its lowest kind).
pub fn melds_in(c: &Counts) -> Vec<Counts> {
    let mut out = Vec::new();
    for k in 0..KINDS {
        if c[k] >= 3 {
            let mut m = [0; KINDS];
            m[k] = 3;
            out.push(m);
        }
        if suited(k) && k % 9 <= 6 && c[k] > 0 && c[k + 1] > 0 && c[k + 2] > 0 {
            let mut m = [0; KINDS];
            m[k] = 1;
            m[k + 1] = 1;
            m[k + 2] = 1;
            out.push(m);
        }
    }
    out
}

/// `n` random tiles that `taken` leaves copies for.
pub fn random_tiles(rng: &mut Rng, taken: &Counts, n: usize) -> Counts {
    loop {
        let mut c = [0; KINDS];
        let mut t = *taken;
        let mut ok = true;
        for _ in 0..n {
            let k = rng.below(KINDS);
            ok &= add(&mut t, k);
            if ok {
                c[k] += 1;
            }
        }
        if ok {
            return c;
        }
    }
}

/// One tile of the hand swapped for a random other (copies permitting).
pub fn one_swapped(rng: &mut Rng, c: &Counts) -> Counts {
    loop {
        let mut out = without_one(rng, c);
        if add(&mut out, rng.below(KINDS)) && out != *c {
            return out;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(text: &str) -> Counts {
        let mut c = [0; KINDS];
        let mut digits = Vec::new();
        for ch in text.chars() {
            match ch {
                '1'..='9' => digits.push(ch as usize - '1' as usize),
                'm' | 'p' | 's' | 'z' => {
                    let base = 9 * "mpsz".find(ch).expect("suit");
                    for d in digits.drain(..) {
                        c[base + d] += 1;
                    }
                }
                _ => panic!("{ch}"),
            }
        }
        c
    }

    /// The oracle's own worked examples, from how players read these hands.
    #[test]
    fn worked_examples() {
        assert!(standard(&hand("123m456p789s11z222m")));
        assert!(standard(&hand("11122233344455m")));
        assert!(!standard(&hand("1122334455667m1z")));
        assert!(seven_pairs(&hand("1122334455667m7m")));
        assert!(!seven_pairs(&hand("1111223344556m6m")));
        assert!(thirteen_orphans(&hand("19m19p19s12345677z")));
        assert!(thirteen_orphans(&hand("119m19p19s1234567z")));
        assert!(!thirteen_orphans(&hand("159m19p19s1234567z")));
        assert_eq!(notation(&hand("19m19p19s1234567z")), "19m19p19s1234567z");
        // 1112345678999m waits on every 萬子 tile (九蓮宝燈).
        assert_eq!(
            waits(&hand("1112345678999m"), standard),
            (0..9).collect::<Vec<_>>()
        );
        // Holding all four 1m, 1m is no wait.
        assert!(!waits(&hand("1111234567899m"), standard).contains(&0));
    }
}
