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

    /// A set holding one card.
    #[inline]
    pub fn single(c: CardIx) -> CardSet {
        let mut s = CardSet::EMPTY;
        s.insert(c);
        s
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
    /// the same card as `iter().nth(k)`, found word by word (a word's count, then its
    /// low cards dropped) instead of card by card.
    #[inline]
    pub fn nth(&self, mut k: usize) -> Option<CardIx> {
        for (i, &w) in self.0.iter().enumerate() {
            let held = w.count_ones() as usize;
            if k < held {
                let mut w = w;
                for _ in 0..k {
                    w &= w - 1;
                }
                return Some((i as u16) * 64 + w.trailing_zeros() as u16);
            }
            k -= held;
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
