//! A mean with the variance of what it averages: what the yardstick tests compare the
//! engine's games with a hand-written simulator's by, in standard errors.

/// A mean and the variance of the values it averages, over `n` samples.
pub struct Est {
    /// The mean.
    pub mean: f64,
    /// The variance of one value.
    pub var: f64,
    /// How many values.
    pub n: f64,
}

impl Est {
    /// Of the values `xs`.
    pub fn of(xs: &[f64]) -> Est {
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
        Est { mean, var, n }
    }

    /// A share: `k` in `n`.
    pub fn share(k: u64, n: u64) -> Est {
        let p = k as f64 / n as f64;
        Est {
            mean: p,
            var: p * (1.0 - p),
            n: n as f64,
        }
    }

    /// From sums of the values and of their squares.
    pub fn sums(sum: f64, sq: f64, n: u64) -> Est {
        let n = n as f64;
        let mean = sum / n;
        Est {
            mean,
            var: (sq - n * mean * mean) / (n - 1.0),
            n,
        }
    }
}
