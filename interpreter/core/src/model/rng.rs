//! The one seeded, portable random generator and the shuffle fuda owns.
//!
//! Results must not depend on the machine, the thread count or a crate's internal
//! algorithm choices, so the shuffle and bounded draws are written here on top of
//! PCG's raw 32-bit output (rand_pcg's `Pcg32` is a fixed, documented algorithm).

use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg32;

/// A game's random generator.
#[derive(Clone, Debug)]
pub struct GameRng(Pcg32);

impl GameRng {
    /// A generator from a 64-bit seed.
    pub fn new(seed: u64) -> GameRng {
        GameRng(Pcg32::seed_from_u64(seed))
    }

    /// The seed of game number `index` in a run with master seed `master`, so that
    /// a batch's results do not depend on which thread plays which game.
    pub fn game_seed(master: u64, index: u64) -> u64 {
        splitmix64(master ^ splitmix64(index.wrapping_add(0x5851_f42d_4c95_7f2d)))
    }

    /// A uniform integer in `0..n` (n > 0), unbiased (Lemire's method). The common
    /// case (no rejection) is inlined into the players' and the shuffle's loops.
    #[inline(always)]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let n = n.max(1);
        let m = (self.0.next_u32() as u64) * (n as u64);
        if (m as u32) < n {
            return self.below_rejecting(n, m);
        }
        (m >> 32) as u32
    }

    /// [`GameRng::below`] when the first draw's low word is under `n`: drawn again
    /// while under `2^32 mod n` (rarely more than once).
    #[inline(never)]
    fn below_rejecting(&mut self, n: u32, mut m: u64) -> u32 {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = (self.0.next_u32() as u64) * (n as u64);
        }
        (m >> 32) as u32
    }

    /// 64 random bits (two draws), e.g. to seed another generator.
    pub fn next_u64(&mut self) -> u64 {
        let hi = self.0.next_u32() as u64;
        (hi << 32) | self.0.next_u32() as u64
    }

    /// Shuffles a slice in place (Fisher–Yates, from the back).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// SplitMix64's finaliser: spreads seeds so neighbouring indices give unrelated games.
pub fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const PINNED: [u32; 5] = [791, 779, 119, 983, 362];
    const PINNED_SHUFFLE: [u16; 10] = [4, 6, 2, 8, 1, 3, 7, 9, 0, 5];
    const PINNED_SEED: u64 = 14_042_462_481_820_308_804;

    #[test]
    fn known_sequence_is_stable() {
        // Pinned: replays and published statistics depend on this exact stream, so a
        // dependency update that changed it must be noticed.
        let mut r = GameRng::new(42);
        let v: Vec<u32> = (0..5).map(|_| r.below(1000)).collect();
        assert_eq!(v, PINNED);
        let mut deck: Vec<u16> = (0..10).collect();
        GameRng::new(7).shuffle(&mut deck);
        assert_eq!(deck, PINNED_SHUFFLE);
        assert_eq!(GameRng::game_seed(1, 0), PINNED_SEED);
    }

    proptest! {
        #[test]
        fn shuffle_is_a_permutation_and_reproducible(seed: u64, n in 0usize..200) {
            let mut a: Vec<usize> = (0..n).collect();
            let mut b = a.clone();
            GameRng::new(seed).shuffle(&mut a);
            GameRng::new(seed).shuffle(&mut b);
            prop_assert_eq!(&a, &b);
            let mut sorted = a.clone();
            sorted.sort();
            prop_assert_eq!(sorted, (0..n).collect::<Vec<_>>());
        }

        #[test]
        fn below_stays_in_range(seed: u64, n in 1u32..10_000) {
            let mut r = GameRng::new(seed);
            for _ in 0..20 { prop_assert!(r.below(n) < n); }
        }
    }
}
