// wyrand, the yardsticks' generator: one 64-bit multiply per number. Included (not a
// module) by each yardstick, which the tests also load alone by its path.

/// wyrand: one 64-bit multiply per number, good enough for card games and much faster
/// than the engine's PCG32 with its portable bounded draws. It need not match the
/// engine's stream: only the distribution of games has to be the same.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any seed, zero included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = (self.0 as u128).wrapping_mul((self.0 ^ 0xe703_7ed1_a0b4_28db) as u128);
        (t >> 64) as u64 ^ t as u64
    }

    /// A uniform integer in `0..n` (n > 0), unbiased: Lemire's multiply-and-shift with
    /// its rejection step, which for n ≤ 48 is taken once in 2^58 draws.
    #[inline(always)]
    pub fn below(&mut self, n: u64) -> u64 {
        let mut m = self.next_u64() as u128 * n as u128;
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = self.next_u64() as u128 * n as u128;
            }
        }
        (m >> 64) as u64
    }

    /// A uniform integer in `0..n` from `v`, a uniform `bits`-bit field of a number this
    /// generator gave (bits ≤ 32, n ≤ 48): Lemire's method within the field, so one
    /// 64-bit number serves several choices of a turn. When the field must be rejected
    /// (once in 2^26 draws or fewer) a fresh number is drawn; rejection depends on this
    /// field's bits alone, so the other fields stay independent of the result.
    #[inline(always)]
    pub fn field(&mut self, v: u64, bits: u32, n: u64) -> u64 {
        let m = v * n;
        let low = m & ((1 << bits) - 1);
        if low < n && low < ((1 << bits) - n) % n {
            return self.below(n);
        }
        m >> bits
    }
}
