//! Every zone instance's list of cards, bottom first, in one buffer: instance `i` owns
//! a fixed stretch of it, as long as the deck, so a list is found by a multiplication
//! rather than through a pointer of its own, grows without a capacity check, and a
//! board is copied in one piece.

use std::ops::{Index, IndexMut};

use crate::model::CardIx;

/// The stretch a short list is edited in at once (see [`Zones::take_out`]): lists
/// shorter than this are short. Every instance has room for two, so the stretch above
/// any place of a short list stays inside the instance's own room.
const WINDOW: usize = 16;

/// Boards whose buffer is at most this long are copied whole; longer ones (many
/// instances of a large deck, mostly empty) list by list.
const COPY_WHOLE: usize = 4096;

/// The cards of every zone instance, each list bottom first (its top is last).
#[derive(Debug)]
pub struct Zones {
    /// Instance `i`'s cards are `cards[i * stride..i * stride + lens[i]]`.
    cards: Vec<CardIx>,
    /// How many cards each instance holds.
    lens: Vec<u32>,
    /// The room of each instance: the deck's size, or twice [`WINDOW`] if that is more.
    stride: usize,
}

impl Zones {
    /// `instances` empty lists, each with room for every card of a deck of `deck`.
    pub fn new(instances: usize, deck: usize) -> Zones {
        let stride = deck.max(2 * WINDOW);
        Zones {
            cards: vec![0; instances * stride],
            lens: vec![0; instances],
            stride,
        }
    }

    /// How many zone instances there are.
    #[inline]
    pub fn instances(&self) -> usize {
        self.lens.len()
    }

    /// Instance `i`'s cards, if there is such an instance.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&[CardIx]> {
        let n = *self.lens.get(i)? as usize;
        let base = i * self.stride;
        self.cards.get(base..base + n)
    }

    /// How many cards instance `i` holds (none when there is no such instance).
    #[inline(always)]
    pub fn held(&self, i: usize) -> usize {
        self.lens.get(i).map_or(0, |n| *n as usize)
    }

    /// Instance `i`'s top card.
    #[inline(always)]
    pub fn top(&self, i: usize) -> Option<CardIx> {
        let n = *self.lens.get(i)? as usize;
        (n > 0)
            .then(|| self.cards.get(i * self.stride + n - 1).copied())
            .flatten()
    }

    /// Every instance's cards, in instance order.
    pub fn iter(&self) -> impl Iterator<Item = &[CardIx]> {
        (0..self.instances()).map(|i| &self[i])
    }

    /// Every instance's cards as lists of their own.
    pub fn to_lists(&self) -> Vec<Vec<CardIx>> {
        self.iter().map(<[CardIx]>::to_vec).collect()
    }

    /// Puts card `c` on top of instance `i`. An instance never holds more cards than
    /// the deck has, since each card is in one zone; a push past that is dropped.
    #[inline(always)]
    pub fn push(&mut self, i: usize, c: CardIx) {
        let Some(n) = self.lens.get_mut(i) else {
            return;
        };
        if (*n as usize) < self.stride {
            if let Some(slot) = self.cards.get_mut(i * self.stride + *n as usize) {
                *slot = c;
                *n += 1;
            }
        }
    }

    /// Takes instance `i`'s top card off, if it has one.
    #[inline(always)]
    pub fn pop(&mut self, i: usize) -> Option<CardIx> {
        let n = self.lens.get_mut(i)?;
        let top = n.checked_sub(1)?;
        let c = *self.cards.get(i * self.stride + top as usize)?;
        *n = top;
        Some(c)
    }

    /// Makes `cards` instance `i`'s list (as many as it has room for).
    pub fn set(&mut self, i: usize, cards: &[CardIx]) {
        if i >= self.instances() {
            return;
        }
        let n = cards.len().min(self.stride);
        let base = i * self.stride;
        self.cards[base..base + n].copy_from_slice(&cards[..n]);
        self.lens[i] = n as u32;
    }

    /// Removes card `c` from instance `i`'s list, the cards above it each moving down
    /// one place (nothing when it is not there).
    ///
    /// Cards mostly leave from the top (draws, the discard taken), which is one look.
    /// From a short list (a hand) the card's place is read off a mask of the places
    /// that hold it and the cards are shifted over a fixed stretch, with no branch that
    /// depends on where the card was: a discard's place is as good as random, and a
    /// mispredicted exit from a search loop costs more than the whole shift. The
    /// stretch is fixed in size, so the comparisons and the shift are done on many
    /// places at once. Longer lists (a stock) are searched from the top.
    #[inline(always)]
    pub fn take_out(&mut self, i: usize, c: CardIx) {
        let Some(&n) = self.lens.get(i) else {
            return;
        };
        let (n, base) = (n as usize, i * self.stride);
        match n.checked_sub(1).and_then(|t| self.cards.get(base + t)) {
            None => return,
            Some(&top) if top == c => {
                self.lens[i] -= 1;
                return;
            }
            _ => {}
        }
        if n < WINDOW {
            let Some(Ok(w)) = self
                .cards
                .get(base..base + WINDOW)
                .map(<&[CardIx; WINDOW]>::try_from)
            else {
                return;
            };
            // Places past the list hold stale cards: the mask leaves them out.
            let places = places_of(w, c) & ((1u32 << n) - 1);
            if places == 0 {
                // Not there (the tables disagree): the list stays as it was.
                return;
            }
            // The cards above move down one place: a stretch of fixed length read
            // from the place after the card's and written over it.
            let at = base + places.trailing_zeros() as usize;
            let Some(Ok(above)) = self
                .cards
                .get(at + 1..at + 1 + WINDOW)
                .map(<[CardIx; WINDOW]>::try_from)
            else {
                return;
            };
            if let Some(to) = self.cards.get_mut(at..at + WINDOW) {
                to.copy_from_slice(&above);
            }
            self.lens[i] -= 1;
            return;
        }
        let list = &mut self.cards[base..base + n];
        let Some(at) = list.iter().rposition(|&x| x == c) else {
            return;
        };
        list.copy_within(at + 1.., at);
        self.lens[i] -= 1;
    }

    /// Moves the top `k` cards of `from` onto `to` one at a time, the top card first
    /// (so they land in reverse order). `from` must hold `k` cards and `to` have room
    /// for them; the two are different instances.
    pub fn deal_top(&mut self, from: usize, to: usize, k: usize) {
        self.deal_top_each(from, to, k, |_| {});
    }

    /// [`Zones::deal_top`], with each card moved handed to `each` as it is written, so
    /// that a caller keeping other tables of the cards does it in the same pass.
    #[inline(always)]
    pub fn deal_top_each(
        &mut self,
        from: usize,
        to: usize,
        k: usize,
        mut each: impl FnMut(CardIx),
    ) {
        let (held, dest) = (self.held(from), self.held(to));
        if from == to || k > held || dest + k > self.stride || to >= self.instances() {
            return;
        }
        let (src, dst) = (from * self.stride + held - k, to * self.stride + dest);
        for j in 0..k {
            let c = self.cards[src + k - 1 - j];
            self.cards[dst + j] = c;
            each(c);
        }
        self.lens[from] -= k as u32;
        self.lens[to] += k as u32;
    }

    /// Puts instance `from`'s cards, bottom first, on top of `to`'s, and empties
    /// `from` (nothing when `to` has no room for them).
    pub fn append(&mut self, to: usize, from: usize) {
        let (held, dest) = (self.held(from), self.held(to));
        if from == to || dest + held > self.stride || to >= self.instances() {
            return;
        }
        let src = from * self.stride;
        self.cards
            .copy_within(src..src + held, to * self.stride + dest);
        self.lens[from] = 0;
        self.lens[to] += held as u32;
    }

    /// Copies the cards `src` holds into this buffer, which has the same shape: the
    /// whole buffer when it is small, else list by list.
    fn copy_lists(&mut self, src: &Zones) {
        self.lens.copy_from_slice(&src.lens);
        if self.cards.len() <= COPY_WHOLE {
            self.cards.copy_from_slice(&src.cards);
            return;
        }
        for (i, &n) in src.lens.iter().enumerate() {
            let base = i * self.stride;
            let range = base..base + n as usize;
            self.cards[range.clone()].copy_from_slice(&src.cards[range]);
        }
    }
}

/// A mask of the places of `w` that hold `c`: bit `k` for place `k`. On x86-64 two
/// compares, a pack and a byte mask, where the compiler's own reading of the loop
/// spreads each lane to a word and ORs sixteen bits together (about 40 instructions
/// against 8, on the way of every discard).
#[inline(always)]
fn places_of(w: &[CardIx; WINDOW], c: CardIx) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi16, _mm_loadu_si128, _mm_movemask_epi8, _mm_packs_epi16,
            _mm_set1_epi16,
        };
        // Two loads of eight places each cover the window exactly.
        const _: () = assert!(WINDOW == 16);
        let p = w.as_ptr().cast::<__m128i>();
        // SAFETY: SSE2 is in the baseline of every x86-64 target, and the two unaligned
        // loads read the 32 bytes of `w` (16 places of 2 bytes), no further.
        unsafe {
            let key = _mm_set1_epi16(c as i16);
            // Each equal lane is -1, and packing to bytes keeps it -1: a bit per place.
            let eq = _mm_packs_epi16(
                _mm_cmpeq_epi16(_mm_loadu_si128(p), key),
                _mm_cmpeq_epi16(_mm_loadu_si128(p.add(1)), key),
            );
            _mm_movemask_epi8(eq) as u32
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut places = 0u32;
        for (k, &x) in w.iter().enumerate() {
            places |= u32::from(x == c) << k;
        }
        places
    }
}

impl Clone for Zones {
    fn clone(&self) -> Zones {
        let mut z = Zones {
            cards: vec![0; self.cards.len()],
            lens: vec![0; self.lens.len()],
            stride: self.stride,
        };
        z.copy_lists(self);
        z
    }

    /// Copies `src` into this buffer without allocating when the two have one shape
    /// (a player looking ahead resets one scratch board per move).
    fn clone_from(&mut self, src: &Zones) {
        if self.stride == src.stride && self.lens.len() == src.lens.len() {
            self.copy_lists(src);
        } else {
            *self = src.clone();
        }
    }
}

impl Index<usize> for Zones {
    type Output = [CardIx];

    /// Instance `i`'s cards (panics when there is no such instance, as a `Vec` does).
    #[inline(always)]
    fn index(&self, i: usize) -> &[CardIx] {
        let base = i * self.stride;
        &self.cards[base..base + self.lens[i] as usize]
    }
}

impl IndexMut<usize> for Zones {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut [CardIx] {
        let base = i * self.stride;
        &mut self.cards[base..base + self.lens[i] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Zones holding `lists` (a deck of `deck` cards).
    fn zones_of(lists: &[Vec<CardIx>], deck: usize) -> Zones {
        let mut z = Zones::new(lists.len(), deck);
        for (i, l) in lists.iter().enumerate() {
            z.set(i, l);
        }
        z
    }

    proptest! {
        /// Taking a card out of a list of any length leaves what `Vec::remove` of its
        /// place leaves, stale cards past the list notwithstanding.
        #[test]
        fn taking_out_matches_a_plain_list(
            n in 0usize..40, pick in 0usize..50, stale in proptest::collection::vec(0u16..40, 40),
        ) {
            let mut z = Zones::new(2, 40);
            // Stale cards first, then the list over them.
            z.set(0, &stale);
            let list: Vec<CardIx> = (0..n as CardIx).rev().collect();
            z.set(0, &list);
            let c = pick as CardIx;
            let mut want = list.clone();
            if let Some(at) = want.iter().position(|x| *x == c) {
                want.remove(at);
            }
            z.take_out(0, c);
            prop_assert_eq!(&z[0], &want[..]);
            prop_assert_eq!(z.held(1), 0);
        }

        /// The mask of a card's places is the one a plain loop builds, card values
        /// with the high bit set (negative as lanes) and repeated cards included.
        #[test]
        fn places_match_a_plain_loop(w in proptest::array::uniform16(prop_oneof![0u16..8, 0xfff8u16..=0xffff]), c in prop_oneof![0u16..8, 0xfff8u16..=0xffff]) {
            let mut want = 0u32;
            for (k, &x) in w.iter().enumerate() {
                want |= u32::from(x == c) << k;
            }
            prop_assert_eq!(places_of(&w, c), want);
        }

        /// A copy, a reused copy and the lists agree.
        #[test]
        fn copies_keep_every_list(lists in proptest::collection::vec(proptest::collection::vec(0u16..60, 0..20), 1..6)) {
            let z = zones_of(&lists, 60);
            prop_assert_eq!(z.to_lists(), lists.clone());
            prop_assert_eq!(z.clone().to_lists(), lists.clone());
            let mut other = Zones::new(lists.len(), 60);
            other.clone_from(&z);
            prop_assert_eq!(other.to_lists(), lists);
        }
    }

    #[test]
    fn dealing_and_appending_keep_the_order_of_single_moves() {
        let mut z = zones_of(&[vec![1, 2, 3, 4], vec![9]], 10);
        z.deal_top(0, 1, 2);
        assert_eq!(z.to_lists(), vec![vec![1, 2], vec![9, 4, 3]]);
        z.append(0, 1);
        assert_eq!(z.to_lists(), vec![vec![1, 2, 9, 4, 3], vec![]]);
        assert_eq!(z.top(0), Some(3));
        z.take_out(0, 3);
        assert_eq!(z.top(0), Some(4));
        assert_eq!(z.top(1), None);
    }

    #[test]
    fn a_list_never_spills_into_the_next() {
        let mut z = Zones::new(2, 3);
        for c in 0..40 {
            z.push(0, c);
        }
        assert_eq!(z.held(0), 2 * WINDOW);
        assert_eq!(z.held(1), 0);
        z.set(1, &[7; 40]);
        assert_eq!(z.held(1), 2 * WINDOW);
    }
}
