//! The fit table: for a pattern whose groups are all `same` on one attribute, whether a
//! hand may fit depends only on how many cards it holds of each class (each value of
//! the attribute). When the classes are few, every such count vector is tried once,
//! when the program is built, and a hand is then answered by adding up one number per
//! card and reading one bit: the question every score guard asks, every turn.

use super::may_fit_by_classes;
use crate::ir::{PatternDef, Prefilter};
use crate::model::CardSet;

/// The most count vectors a table holds (8 KiB of bits).
const MAX_ENTRIES: usize = 1 << 16;

/// `pattern::may_fit`'s answers for a pattern with a [`Prefilter`], by class counts.
/// A hand's entry is the sum of its cards' weights: a card of class `k` weighs
/// `radixᵏ`, where the radix is one more than the pattern's size (no class of a
/// fitting hand holds more), so the sum spells the count vector in that radix. A card
/// in no class weighs more than every entry: such a hand never fits.
#[derive(Clone, Debug)]
pub struct FitTable {
    /// Each card's weight, for every index a [`CardSet`] can hold.
    weight: Box<[u32; 256]>,
    /// Bit `i` set when the counts spelled by `i` may fit.
    bits: Vec<u64>,
    /// The number of entries (bits that mean something).
    entries: u32,
    /// The pattern's size.
    size: usize,
}

impl FitTable {
    /// The table for `pat` over a deck of `deck_len` cards, or `None` when its classes
    /// are too many for one (every answer is then worked out per hand). Each entry is
    /// `may_fit_by_classes` on a hand with those counts, so the table answers what
    /// the function would.
    pub fn build(pat: &PatternDef, pf: &Prefilter, deck_len: usize) -> Option<FitTable> {
        let radix = pat.size.checked_add(1)?;
        let mut entries: usize = 1;
        for _ in &pf.classes {
            entries = entries.checked_mul(radix).filter(|e| *e <= MAX_ENTRIES)?;
        }
        // A card past the deck weighs like a card in no class.
        let mut weight = Box::new([entries as u32; 256]);
        let mut place = 1u32;
        for class in &pf.classes {
            for c in class.iter().filter(|c| (*c as usize) < deck_len) {
                weight[c as usize & 255] = place;
            }
            place *= radix as u32;
        }
        let mut table = FitTable {
            weight,
            bits: vec![0; entries.div_ceil(64)],
            entries: entries as u32,
            size: pat.size,
        };
        let mut counts = vec![0usize; pf.classes.len()];
        table.fill(pat, pf, &mut counts, 0, pat.size);
        Some(table)
    }

    /// Tries every way to give the classes from `k` on `left` cards between them (no
    /// more than a class has), setting the entries that may fit.
    fn fill(
        &mut self,
        pat: &PatternDef,
        pf: &Prefilter,
        counts: &mut [usize],
        k: usize,
        left: usize,
    ) {
        if k == counts.len() {
            if left > 0 {
                return;
            }
            // A hand with these counts: the first cards of each class.
            let mut hand = CardSet::EMPTY;
            let mut index = 0u32;
            let mut place = 1u32;
            for (class, n) in pf.classes.iter().zip(counts.iter()) {
                class.iter().take(*n).for_each(|c| hand.insert(c));
                index += place * *n as u32;
                place *= self.size as u32 + 1;
            }
            if may_fit_by_classes(pat, pf, hand) {
                self.bits[index as usize / 64] |= 1 << (index % 64);
            }
            return;
        }
        for n in 0..=left.min(pf.classes[k].len()) {
            counts[k] = n;
            self.fill(pat, pf, counts, k + 1, left - n);
        }
        counts[k] = 0;
    }

    /// The weight of card `c`: what it adds to a hand's entry.
    #[inline(always)]
    pub fn weight(&self, c: usize) -> u32 {
        self.weight[c & 255]
    }

    /// Every card's weight, by card (entries past the deck are never read).
    pub fn weights(&self) -> &[u32; 256] {
        &self.weight
    }

    /// The sum of the weights of `cards` (wrapping, as the board's running sums do).
    pub fn weight_of(&self, cards: &[crate::model::CardIx]) -> u32 {
        cards
            .iter()
            .fold(0u32, |s, &c| s.wrapping_add(self.weight(c as usize)))
    }

    /// Whether a hand of `n` cards whose weights sum to `index` may fit: the answer
    /// [`FitTable::may_fit`] gives once it has added the hand up (the board keeps such
    /// sums zone by zone, see `Board::fit_sums`). An entry past the table is in no word, or in the last word's bits past the
    /// entries, which are never set: either way, no fit.
    #[inline(always)]
    pub fn answer(&self, index: u32, n: usize) -> bool {
        n == self.size
            && self
                .bits
                .get(index as usize / 64)
                .is_some_and(|w| w >> (index % 64) & 1 != 0)
    }

    /// Whether `cards` may fit the pattern, as `may_fit_by_classes` says, after the
    /// size check.
    #[inline]
    pub fn may_fit(&self, cards: CardSet) -> bool {
        self.index_of(cards)
            .is_some_and(|index| self.bits[index as usize / 64] & (1 << (index % 64)) != 0)
    }

    /// The entry of `cards`: the sum of their weights, when they are as many as the
    /// pattern's size and every one is in a class (`None` otherwise). Stops at the
    /// first card past the pattern's size, so the sum stays below (size + 1) × 2¹⁶ and
    /// cannot overflow.
    #[inline]
    pub fn index_of(&self, cards: CardSet) -> Option<u32> {
        let mut index = 0u32;
        let mut n = 0;
        for (w, word) in cards.0.iter().enumerate() {
            let mut bits = *word;
            while bits != 0 {
                n += 1;
                if n > self.size {
                    return None;
                }
                let c = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                index += self.weight[c & 255];
            }
        }
        (n == self.size && index < self.entries).then_some(index)
    }

    /// The number of entries (sums that spell a count vector of at most the size).
    pub(crate) fn entries(&self) -> u32 {
        self.entries
    }

    /// The entries that may fit, in increasing order.
    pub(crate) fn fitting(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.entries).filter(|&i| self.bits[i as usize / 64] >> (i % 64) & 1 != 0)
    }

    /// A hand whose sum is entry `index` of the table built for `pf`: the first cards
    /// of each class, as many as the entry spells (as the table was filled).
    pub(crate) fn hand_of(&self, pf: &Prefilter, index: u32) -> CardSet {
        let radix = self.size as u32 + 1;
        let mut hand = CardSet::EMPTY;
        let mut rest = index;
        for class in &pf.classes {
            let n = (rest % radix) as usize;
            rest /= radix;
            class.iter().take(n).for_each(|c| hand.insert(c));
        }
        hand
    }
}

#[cfg(test)]
mod tests {
    use super::super::size;
    use super::*;
    use crate::model::GameRng;

    /// The table answers what the per-hand test does, on random hands of every size
    /// near the pattern's: 3 + 5 cards by kind (with requires the classes settle),
    /// and groups by suit on the 136 tiles (a deck past one word of the set).
    #[test]
    fn the_table_answers_as_the_per_hand_test_does() {
        let tiles = "ruleset \"t\"\nimport \"std/mahjong\"\nseats 2 { 2: 親 子 }\n\
            zone 山 shared stack hidden\nproc match { }\n\
            pattern 清 { group a: 3 same suit  group b: 11 same suit }\n";
        let sources = [include_str!("../../../../rulesets/sangohana.fuda"), tiles];
        for text in sources {
            let p = crate::compile("t.fuda", text, &crate::loader::NoFiles)
                .expect("compiles")
                .program;
            let mut tables = 0;
            for pat in &p.patterns {
                let Some(pf) = &pat.prefilter else { continue };
                let t = pf.table.as_ref().expect("few classes: a table");
                tables += 1;
                let mut rng = GameRng::new(7);
                let mut fits = 0;
                for i in 0..20_000 {
                    // Hands near the pattern's classes, so that many fit.
                    let n = pat.size - 1 + (i % 3);
                    let mut hand = CardSet::EMPTY;
                    let pool = pf.classes[rng.below(pf.classes.len() as u32) as usize]
                        .union(pf.classes[rng.below(pf.classes.len() as u32) as usize]);
                    let pool: Vec<u16> = pool.iter().collect();
                    while hand.len() < n.min(pool.len()) {
                        hand.insert(pool[rng.below(pool.len() as u32) as usize]);
                    }
                    let want = size(hand) == pat.size && may_fit_by_classes(pat, pf, hand);
                    assert_eq!(t.may_fit(hand), want, "{hand:?}");
                    fits += usize::from(want);
                }
                // Not a table of nothing but "no".
                assert!(fits > 100, "{fits}");
            }
            assert!(tables >= 1);
        }
    }
}
