//! What the oracles (`tests/tests/*_oracle.rs`, each written from a game's page in
//! `docs/games/`) share: a small generator for the hands and piles they build, and how
//! they report disagreements.

/// splitmix64: deterministic, without a dependency, and independent of the engine's own
/// generator (the oracles build their inputs without the code they check).
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True one time in `one_in`.
    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    /// Shuffles `v` in place (Fisher–Yates from the end).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }

    /// `n` distinct items of `pool` (as many as it has, if fewer).
    pub fn pick<T: Clone>(&mut self, pool: &[T], n: usize) -> Vec<T> {
        let mut v = pool.to_vec();
        for i in 0..n.min(v.len()) {
            let j = i + self.below(v.len() - i);
            v.swap(i, j);
        }
        v.truncate(n);
        v
    }
}

/// Fails, showing the first reports, when an oracle found the rule file disagreeing
/// with the game's page in `docs/games/`.
pub fn check(out: &[String], what: &str) {
    assert!(
        out.is_empty(),
        "{what}: the rule file disagrees with the oracle written from docs/games ({} report(s), first ones):\n{}",
        out.len(),
        out.join("\n\n")
    );
}
