//! A set of physical cards as a fixed 256-bit bitset: cheap to copy, union and count.

/// The largest deck fuda supports (every card id is below this).
pub const MAX_CARDS: usize = 256;

/// A physical card: its index in the compiled deck.
pub type CardIx = u16;

/// A set of cards (by deck index), at most [`MAX_CARDS`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct CardSet(pub [u64; 4]);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet([0; 4]);

    /// A set holding one card. Each word is chosen, not written at a computed place:
    /// a set built by a store at a computed place and then read whole (as `minus` and
    /// `union` read it) waits for the store to reach memory, which costs more than the
    /// rest of a move.
    #[inline]
    pub fn single(c: CardIx) -> CardSet {
        let (w, bit) = ((c >> 6) & 3, 1u64 << (c & 63));
        CardSet([
            if w == 0 { bit } else { 0 },
            if w == 1 { bit } else { 0 },
            if w == 2 { bit } else { 0 },
            if w == 3 { bit } else { 0 },
        ])
    }

    /// The set of cards `0..n`, built a word at a time (class quantifiers ask for the
    /// whole deck at every evaluation).
    #[inline]
    pub fn first_n(n: usize) -> CardSet {
        let n = n.min(MAX_CARDS);
        let mut s = CardSet::EMPTY;
        for (i, w) in s.0.iter_mut().enumerate() {
            let below = n.saturating_sub(i * 64);
            *w = if below >= 64 {
                u64::MAX
            } else {
                (1u64 << below) - 1
            };
        }
        s
    }

    /// Adds a card.
    #[inline]
    pub fn insert(&mut self, c: CardIx) {
        self.0[(c >> 6) as usize & 3] |= 1u64 << (c & 63);
    }

    /// Removes a card.
    #[inline]
    pub fn remove(&mut self, c: CardIx) {
        self.0[(c >> 6) as usize & 3] &= !(1u64 << (c & 63));
    }

    /// Whether the card is in the set.
    #[inline]
    pub fn contains(&self, c: CardIx) -> bool {
        self.0[(c >> 6) as usize & 3] & (1u64 << (c & 63)) != 0
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        // Decks of up to 64 cards use the first word only: one count instead of four
        // (a count is a dozen instructions without a hardware popcount).
        if self.0[1] | self.0[2] | self.0[3] == 0 {
            return self.0[0].count_ones() as usize;
        }
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// Union.
    #[inline]
    pub fn union(self, o: CardSet) -> CardSet {
        CardSet([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }

    /// Intersection.
    #[inline]
    pub fn inter(self, o: CardSet) -> CardSet {
        CardSet([
            self.0[0] & o.0[0],
            self.0[1] & o.0[1],
            self.0[2] & o.0[2],
            self.0[3] & o.0[3],
        ])
    }

    /// Difference `self − o`.
    #[inline]
    pub fn minus(self, o: CardSet) -> CardSet {
        CardSet([
            self.0[0] & !o.0[0],
            self.0[1] & !o.0[1],
            self.0[2] & !o.0[2],
            self.0[3] & !o.0[3],
        ])
    }

    /// Whether every card of `self` is in `o`.
    #[inline]
    pub fn is_subset(&self, o: &CardSet) -> bool {
        self.minus(*o).is_empty()
    }

    /// The lowest card, if any.
    #[inline]
    pub fn first(&self) -> Option<CardIx> {
        for (i, w) in self.0.iter().enumerate() {
            if *w != 0 {
                return Some((i as u16) * 64 + w.trailing_zeros() as u16);
            }
        }
        None
    }

    /// The `k`-th card in increasing order (from 0), if the set holds more than `k`:
    /// the same card as `iter().nth(k)`, found word by word, then in the word by
    /// `select` without a loop over its cards (a random player's `k` is random, so a
    /// loop's exit would be mispredicted half the time). A word's count comes out of
    /// the same sums that find the bit. A set within the first word (every set of a
    /// deck of up to 64 cards) is read in place, where it is asked, without a call or
    /// a walk over the other words; a wider one by `CardSet::nth_wide`.
    #[inline(always)]
    pub fn nth(&self, k: usize) -> Option<CardIx> {
        if self.0[1] | self.0[2] | self.0[3] != 0 {
            return self.nth_wide(k);
        }
        let k = u32::try_from(k).ok()?;
        select_in_word(self.0[0], k).map(|place| place as CardIx)
    }

    /// [`CardSet::nth`] word by word.
    #[inline(never)]
    fn nth_wide(&self, k: usize) -> Option<CardIx> {
        let mut k = u32::try_from(k).ok()?;
        for (i, &w) in self.0.iter().enumerate() {
            match select(w, k) {
                Ok(place) => return Some((i as u16) * 64 + place as u16),
                Err(held) => k -= held,
            }
        }
        None
    }

    /// The cards in increasing order.
    #[inline]
    pub fn iter(&self) -> CardSetIter {
        CardSetIter {
            words: self.0,
            i: 0,
        }
    }
}

/// A one in every byte of a word: multiplying by it spreads a byte to all eight (or
/// sums each byte with those below it).
const BYTES_ONE: u64 = 0x0101_0101_0101_0101;

/// The high bit of every byte of a word.
const BYTES_HIGH: u64 = 0x8080_8080_8080_8080;

/// `IN_BYTE[b][k]`: the place of the `k`-th set bit (from 0) of byte `b`, 8 where it
/// has no such bit.
static IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[8u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if b & (1 << bit) != 0 {
                t[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// The place of the `k`-th set bit (from 0) of `w`, or `Err` with how many bits it has
/// when they are no more than `k`: each byte's count, their running sums in one
/// multiplication (the last is the word's count), the byte holding the bit found by
/// comparing all eight sums with `k` at once, then a table for the byte (broadword
/// selection, as in Vigna's rank/select structures). No branch depends on the bits or
/// on `k`, but the one on whether the word holds the bit at all.
#[inline(always)]
fn select(w: u64, k: u32) -> Result<u32, u32> {
    // Each byte's count of set bits.
    let mut s = w - ((w >> 1) & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // Byte i: the bits set in bytes 0..=i (at most 64, so no byte overflows).
    let sums = s.wrapping_mul(BYTES_ONE);
    let held = (sums >> 56) as u32;
    if k >= held {
        return Err(held);
    }
    // The high bit of byte i is set where sums[i] <= k: those bytes come before the
    // one holding the bit, so their number is its index (each a 1 once shifted down,
    // added up by one more multiplication).
    let kk = (k as u64 & 0x7f).wrapping_mul(BYTES_ONE);
    let under = ((kk | BYTES_HIGH).wrapping_sub(sums) & BYTES_HIGH) >> 7;
    let before = ((under.wrapping_mul(BYTES_ONE) >> 56) * 8) as u32;
    // The bits set below that byte: the previous byte's running sum.
    let below = ((sums << 8) >> (before & 63)) & 0xff;
    let byte = ((w >> (before & 63)) & 0xff) as usize;
    let rank = (k as u64).wrapping_sub(below) as usize & 7;
    Ok(before + IN_BYTE[byte][rank] as u32)
}

/// [`select`]'s place of bit `k` of `w`, by one parallel deposit where the processor
/// has BMI2 (three instructions instead of some fifty: the one `nth` every discard of a
/// random player asks); the same answer either way.
#[inline(always)]
fn select_in_word(w: u64, k: u32) -> Option<u32> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: the processor has just been found to have BMI2.
        return unsafe { select_bmi2(w, k) };
    }
    select(w, k).ok()
}

/// [`select_in_word`] with BMI2: bit `k` of `w` deposited alone, and its place.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn select_bmi2(w: u64, k: u32) -> Option<u32> {
    use std::arch::x86_64::_pdep_u64;
    let bit = 1u64.checked_shl(k)?;
    // The `k`-th set bit of `w` alone, or none when `w` holds `k` or fewer.
    let found = _pdep_u64(bit, w);
    (found != 0).then(|| found.trailing_zeros())
}

impl std::fmt::Debug for CardSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<CardIx> for CardSet {
    fn from_iter<I: IntoIterator<Item = CardIx>>(iter: I) -> Self {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

/// Iterator over a [`CardSet`] in increasing order.
pub struct CardSetIter {
    words: [u64; 4],
    i: usize,
}

impl Iterator for CardSetIter {
    type Item = CardIx;
    #[inline]
    fn next(&mut self) -> Option<CardIx> {
        while self.i < 4 {
            let w = self.words[self.i];
            if w != 0 {
                let b = w.trailing_zeros();
                self.words[self.i] = w & (w - 1);
                return Some((self.i as u16) * 64 + b as u16);
            }
            self.i += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let a: CardSet = [1, 70, 200].into_iter().collect();
        let b: CardSet = [70, 3].into_iter().collect();
        assert_eq!(a.len(), 3);
        assert!(a.contains(200) && !a.contains(2));
        assert_eq!(a.union(b).len(), 4);
        assert_eq!(a.inter(b).iter().collect::<Vec<_>>(), vec![70]);
        assert_eq!(a.minus(b).iter().collect::<Vec<_>>(), vec![1, 200]);
        assert_eq!(a.first(), Some(1));
        assert!(CardSet::single(70).is_subset(&a));
    }

    proptest::proptest! {
        #[test]
        fn nth_is_the_iterators_nth(words: [u64; 4], k in 0usize..260) {
            let s = CardSet(words);
            proptest::prop_assert_eq!(s.nth(k), s.iter().nth(k));
        }

        /// The same for sets within the first word, which `nth` reads in place.
        #[test]
        fn nth_of_a_one_word_set_is_the_iterators_nth(word: u64, k in 0usize..70) {
            let s = CardSet([word, 0, 0, 0]);
            proptest::prop_assert_eq!(s.nth(k), s.iter().nth(k));
        }

        /// The deposit (where the processor has BMI2) and the portable sums agree,
        /// sparse words and `k` past the word's bits included.
        #[test]
        fn select_in_word_is_the_portable_select(word: u64, sparse: u64, k in 0u32..70) {
            for w in [word, word & sparse] {
                proptest::prop_assert_eq!(select_in_word(w, k), select(w, k).ok());
            }
        }
    }

    /// Every `k` of words whose bits crowd one byte, spread one per byte, or fill the
    /// word: the shapes where a running byte sum is 0, 8 or 64.
    #[test]
    fn select_finds_every_set_bit_of_dense_and_sparse_words() {
        let words = [
            1,
            1 << 63,
            u64::MAX,
            0xff,
            0xff << 56,
            0x0101_0101_0101_0101,
            0x8000_0000_0000_0001,
            0xaaaa_aaaa_aaaa_aaaa,
            0x00ff_00ff_0000_ff00,
        ];
        for w in words {
            let places: Vec<u32> = (0..64).filter(|b| w & (1 << b) != 0).collect();
            assert_eq!(select(w, places.len() as u32), Err(places.len() as u32));
            for (k, &b) in places.iter().enumerate() {
                assert_eq!(select(w, k as u32), Ok(b), "word {w:#x}, k {k}");
            }
        }
    }

    #[test]
    fn first_n_holds_exactly_the_first_cards() {
        for n in [0, 1, 47, 48, 63, 64, 65, 127, 128, 136, 255, 256, 300] {
            let s = CardSet::first_n(n);
            let want = n.min(MAX_CARDS);
            assert_eq!(s.len(), want, "first_n({n})");
            assert!((0..want).all(|c| s.contains(c as CardIx)), "first_n({n})");
        }
    }
}
