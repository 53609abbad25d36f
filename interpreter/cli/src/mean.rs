//! A running mean and spread kept in whole numbers, so that two of them add up to
//! exactly what one would hold had it seen both series: `fuda merge` adds up the
//! shards of a batch and must print what one machine prints. Floating-point sums would
//! not do: their addition is not associative, so the last digits would depend on how
//! the games were split.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::stats::Interval;

/// A running mean with its spread. Every observation is a whole multiple of
/// 1/`den` (`den` is 1 for whole numbers such as chips or decisions, and the lcm of
/// 1..=k for an agent's chips averaged over the k seats it may hold), so the sums are
/// kept exactly as integers in units of 1/`den` and 1/`den`².
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mean {
    /// Observations.
    n: u64,
    /// The denominator of every observation.
    den: u64,
    /// Σ x·den. Written as a decimal string in JSON: a JSON reader that holds numbers
    /// as doubles (jq, JavaScript) would round it past 2^53 and corrupt a merge.
    #[serde(with = "decimal")]
    sum: i128,
    /// Σ (x·den)², which needs more than 128 bits for large values (an i64 squared
    /// alone takes 126).
    sum_sq: U256,
}

impl Default for Mean {
    fn default() -> Mean {
        Mean::over(1)
    }
}

impl Mean {
    /// No observations yet, each to be a whole multiple of 1/`den` (at least 1).
    pub fn over(den: u64) -> Mean {
        Mean {
            n: 0,
            den: den.max(1),
            sum: 0,
            sum_sq: U256::ZERO,
        }
    }

    /// Adds one whole-number observation.
    pub fn add(&mut self, x: i64) {
        self.add_ratio(x, 1);
    }

    /// Adds the observation `x / k`, where `k` divides the mean's denominator (an
    /// agent's chips summed over the `k` seats it held, per seat).
    pub fn add_ratio(&mut self, x: i64, k: u64) {
        assert!(
            k > 0 && self.den.is_multiple_of(k),
            "an observation x/{k} in a mean of multiples of 1/{}",
            self.den
        );
        // |x| < 2^63 and den/k < 2^64: the product fits in 128 bits.
        let scaled = i128::from(x) * i128::from(self.den / k);
        self.n += 1;
        self.sum = self
            .sum
            .checked_add(scaled)
            .expect("a sum of 2^44 observations of 2^83 at most stays within i128");
        self.sum_sq = self.sum_sq.plus(U256::square(scaled.unsigned_abs()));
    }

    /// A share of `hits` in `total` observations, as a mean of 0/1 (a win rate).
    pub fn share(hits: u64, total: u64) -> Mean {
        Mean {
            n: total.max(hits),
            den: 1,
            sum: i128::from(hits),
            // 1² is 1: the squares add up to the hits.
            sum_sq: U256::from(u128::from(hits)),
        }
    }

    /// Adds up `other`'s observations with these: exactly the mean of both series, in
    /// any order. Fails when the two are kept over different denominators (they
    /// cannot be the same number of two batches).
    pub fn merge(&mut self, other: &Mean) -> Result<(), String> {
        if self.den != other.den {
            return Err(format!(
                "a mean kept in 1/{} cannot take one kept in 1/{}",
                self.den, other.den
            ));
        }
        self.n += other.n;
        self.sum = self
            .sum
            .checked_add(other.sum)
            .ok_or("a sum past 2^127 (the files are not shards of one batch)")?;
        self.sum_sq = self.sum_sq.plus(other.sum_sq);
        Ok(())
    }

    /// Σx and Σx² as floating point: the sums a floating-point accumulator would hold
    /// (exactly those, for whole numbers while the sums stay below 2^53), so that the
    /// figures printed are what they were when the sums were kept so.
    fn float_sums(&self) -> (f64, f64) {
        let den = self.den as f64;
        (self.sum as f64 / den, self.sum_sq.to_f64() / (den * den))
    }

    /// The share of 1s with its 95% Wilson score interval. Unlike `interval`, it stays
    /// within 0..1 and does not shrink to nothing for a rate of 0 or 1 in few deals,
    /// where the normal approximation would print a win rate of -2% or a certain 0%.
    pub fn share_interval(&self) -> Interval {
        let p = self.mean();
        if self.n == 0 {
            return Interval {
                mean: 0.0,
                low: 0.0,
                high: 0.0,
                n: 0,
            };
        }
        let (n, z) = (self.n as f64, 1.96f64);
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
        Interval {
            mean: round(p),
            low: round((centre - half).max(0.0)),
            high: round((centre + half).min(1.0)),
            n: self.n,
        }
    }

    /// The mean (0 with no observations).
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.float_sums().0 / self.n as f64
        }
    }

    /// The sample standard deviation (0 with fewer than two observations).
    pub fn sd(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let (sum, sum_sq) = self.float_sums();
        let n = self.n as f64;
        let var = (sum_sq - sum * sum / n) / (n - 1.0);
        var.max(0.0).sqrt()
    }

    /// The mean with a 95% interval by the normal approximation: mean ± 1.96·sd/√n.
    pub fn interval(&self) -> Interval {
        let m = self.mean();
        let half = if self.n == 0 {
            0.0
        } else {
            1.96 * self.sd() / (self.n as f64).sqrt()
        };
        Interval {
            mean: round(m),
            low: round(m - half),
            high: round(m + half),
            n: self.n,
        }
    }
}

/// Rounds to 6 decimals so JSON stays readable and exact comparisons are stable.
pub fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// The least common multiple of 1..=k: the denominator over which every x/j with
/// j ≤ k is a whole number (720720 for the 16 seats a game has at most).
pub fn lcm_up_to(k: u64) -> u64 {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    (1..=k.max(1)).fold(1, |l, j| l / gcd(l, j) * j)
}

/// An unsigned 256-bit number: just what a sum of squares needs, adding and squaring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct U256 {
    hi: u128,
    lo: u128,
}

impl U256 {
    const ZERO: U256 = U256 { hi: 0, lo: 0 };

    fn from(lo: u128) -> U256 {
        U256 { hi: 0, lo }
    }

    /// The sum. Past 2^256 it panics: a batch would need 2^90 observations of the
    /// largest square to get there.
    fn plus(self, other: U256) -> U256 {
        let (lo, carry) = self.lo.overflowing_add(other.lo);
        let hi = self
            .hi
            .checked_add(other.hi)
            .and_then(|h| h.checked_add(u128::from(carry)))
            .expect("a sum of squares within 2^256");
        U256 { hi, lo }
    }

    /// m², by 64-bit halves: m = a·2^64 + b, m² = a²·2^128 + 2ab·2^64 + b², each term
    /// within 128 bits before it is shifted into place.
    fn square(m: u128) -> U256 {
        let (a, b) = (m >> 64, m & u128::from(u64::MAX));
        let ab = a * b;
        let middle = U256 {
            hi: ab >> 64,
            lo: ab << 64,
        };
        U256 { hi: a * a, lo: 0 }
            .plus(middle)
            .plus(middle)
            .plus(U256::from(b * b))
    }

    fn to_f64(self) -> f64 {
        self.hi as f64 * 2f64.powi(128) + self.lo as f64
    }
}

/// Written as hexadecimal text, for the reason [`Mean::sum`] is a string.
impl Serialize for U256 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let text = if self.hi == 0 {
            format!("0x{:x}", self.lo)
        } else {
            format!("0x{:x}{:032x}", self.hi, self.lo)
        };
        s.serialize_str(&text)
    }
}

impl<'de> Deserialize<'de> for U256 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<U256, D::Error> {
        let text = String::deserialize(d)?;
        let bad = || serde::de::Error::custom(format!("`{text}` is not a sum of squares"));
        let text = text.strip_prefix("0x").ok_or_else(bad)?;
        if text.is_empty() || text.len() > 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad());
        }
        let split = text.len().saturating_sub(32);
        let hi = if split == 0 {
            0
        } else {
            u128::from_str_radix(&text[..split], 16).map_err(|_| bad())?
        };
        let lo = u128::from_str_radix(&text[split..], 16).map_err(|_| bad())?;
        Ok(U256 { hi, lo })
    }
}

/// An i128 as decimal text (see [`Mean::sum`]).
mod decimal {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(x: &i128, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&x.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i128, D::Error> {
        let text = String::deserialize(d)?;
        text.parse()
            .map_err(|_| serde::de::Error::custom(format!("`{text}` is not a whole number")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_interval() {
        let mut m = Mean::default();
        for x in [1, 2, 3, 4] {
            m.add(x);
        }
        assert_eq!(m.mean(), 2.5);
        let sd = (5.0f64 / 3.0).sqrt();
        assert!((m.sd() - sd).abs() < 1e-12);
        let i = m.interval();
        assert!((i.high - i.mean - 1.96 * sd / 2.0).abs() < 1e-5);
        assert_eq!(Mean::default().interval().mean, 0.0);
    }

    #[test]
    fn win_rates_use_the_wilson_interval() {
        // 5 of 10: the textbook Wilson interval is [0.2366, 0.7634].
        let i = Mean::share(5, 10).share_interval();
        assert_eq!(i.mean, 0.5);
        assert!((i.low - 0.236590).abs() < 1e-6, "{i:?}");
        assert!((i.high - 0.763410).abs() < 1e-6, "{i:?}");
        // No wins in 20 deals: not "0% for certain", and never below 0.
        let none = Mean::share(0, 20).share_interval();
        assert_eq!(none.low, 0.0);
        assert!((none.high - 0.161130).abs() < 1e-6, "{none:?}");
        // One win in 36: the normal approximation went below 0 here.
        let one = Mean::share(1, 36).share_interval();
        assert!(
            one.low > 0.0 && one.low < one.mean && one.high < 1.0,
            "{one:?}"
        );
        let all = Mean::share(7, 7).share_interval();
        assert_eq!((all.mean, all.high), (1.0, 1.0));
        assert_eq!(Mean::default().share_interval().n, 0);
        // A share is the mean of its 0s and 1s.
        let mut ones = Mean::default();
        for x in [1, 0, 1, 1, 0] {
            ones.add(x);
        }
        assert_eq!(ones, Mean::share(3, 5));
    }

    /// Whatever the split and the order, merged means hold the very sums one mean that
    /// saw every observation holds: equal as values, not within a tolerance.
    #[test]
    fn merging_is_exact_in_any_order() {
        let xs: Vec<i64> = (0..200)
            .map(|i: i64| (i * 7919 % 613) - 300 + if i % 17 == 0 { 1 << 40 } else { 0 })
            .collect();
        let mut whole = Mean::over(lcm_up_to(16));
        for (i, x) in xs.iter().enumerate() {
            whole.add_ratio(*x, 1 + i as u64 % 16);
        }
        for parts in [2, 3, 7] {
            let mut shards = vec![Mean::over(lcm_up_to(16)); parts];
            for (i, x) in xs.iter().enumerate() {
                shards[i % parts].add_ratio(*x, 1 + i as u64 % 16);
            }
            let mut forward = Mean::over(lcm_up_to(16));
            for s in &shards {
                forward.merge(s).expect("same denominator");
            }
            let mut backward = Mean::over(lcm_up_to(16));
            for s in shards.iter().rev() {
                backward.merge(s).expect("same denominator");
            }
            assert_eq!(forward, whole, "{parts} parts");
            assert_eq!(backward, whole, "{parts} parts, reversed");
            assert_eq!(forward.interval(), whole.interval());
        }
        // Floating-point sums do depend on the order: the reason the sums are whole
        // numbers.
        let (a, b, c) = (0.1f64, 0.2f64, 0.3f64);
        assert_ne!((a + b) + c, a + (b + c));
        assert!(Mean::over(6).merge(&Mean::over(12)).is_err());
    }

    /// Whole-number observations give exactly what floating-point sums gave, so that
    /// reports keep their digits; an agent's thirds come within a rounding of them.
    #[test]
    fn figures_match_floating_point_sums() {
        let xs = [12i64, -40, 7, 7, 0, 91, -3];
        let mut m = Mean::default();
        let (mut sum, mut sum_sq) = (0.0f64, 0.0f64);
        for x in xs {
            m.add(x);
            sum += x as f64;
            sum_sq += (x * x) as f64;
        }
        let n = xs.len() as f64;
        assert_eq!(m.mean(), sum / n);
        let var: f64 = (sum_sq - sum * sum / n) / (n - 1.0);
        assert_eq!(m.sd(), var.sqrt());
        let mut thirds = Mean::over(lcm_up_to(3));
        let mut float = 0.0;
        for x in xs {
            thirds.add_ratio(x, 3);
            float += x as f64 / 3.0;
        }
        assert!((thirds.mean() - float / n).abs() < 1e-12);
    }

    #[test]
    fn wide_sums_of_squares_and_their_text() {
        // (2^63)² = 2^126; twice that needs 127 bits, four times 128: past a u128.
        let mut m = Mean::default();
        for _ in 0..4 {
            m.add(i64::MIN);
        }
        assert_eq!(
            m.sum_sq,
            U256 { hi: 1, lo: 0 },
            "four squares of 2^63 make 2^128"
        );
        assert_eq!(U256::square(u128::MAX).hi, u128::MAX - 1);
        assert_eq!(U256::square(u128::MAX).lo, 1);
        let json = serde_json::to_string(&m).expect("JSON");
        assert_eq!(
            json,
            r#"{"n":4,"den":1,"sum":"-36893488147419103232","sum_sq":"0x100000000000000000000000000000000"}"#
        );
        let back: Mean = serde_json::from_str(&json).expect("read back");
        assert_eq!(back, m);
        assert!(
            serde_json::from_str::<Mean>(r#"{"n":1,"den":1,"sum":"x","sum_sq":"0x1"}"#).is_err()
        );
        assert!(
            serde_json::from_str::<Mean>(r#"{"n":1,"den":1,"sum":"1","sum_sq":"0xg"}"#).is_err()
        );
        assert_eq!(lcm_up_to(16), 720_720);
        assert_eq!(lcm_up_to(1), 1);
    }
}
