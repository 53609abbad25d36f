//! The values counted under one `tally` label, bounded: a rule file that tallies a
//! value unique to each deal would otherwise grow the report with every deal. Which
//! values keep a row of their own depends only on the values, never on the order they
//! came in, so that the shards of a batch add up to the very rows one run has.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Most distinct values counted under one `tally` label; the others are counted
/// together as [`OTHER_VALUES`].
pub const MAX_TALLY_VALUES: usize = 1_000;

/// The row that counts a label's values past [`MAX_TALLY_VALUES`].
pub const OTHER_VALUES: &str = "(other values)";

/// The counts of a label's values: the [`MAX_TALLY_VALUES`] smallest values seen, in
/// text (byte) order, each with its exact count, and one count for all the others.
///
/// Why the smallest and not the first seen: the smallest are kept exactly by any part
/// of a batch that saw them, so parts merge without loss. By induction over
/// [`Tally::add`], `values` holds the exact counts of the K = `cap` smallest distinct
/// values added so far (a value pushed out has K smaller ones kept, which only ever
/// give way to smaller ones still, so it never belongs again and its later counts go to
/// `other` too), and `other` the count of all the rest. Now take parts P₁…Pₘ of a
/// series S and any value v among the K smallest of S: in each part that has v, fewer
/// than K values of that part are smaller than v (they are all values of S smaller
/// than v), so that part kept v with its exact count. Merging adds each part's kept
/// pairs with [`Tally::add`], so the merged `values` are the K smallest of those pairs'
/// values, which include the K smallest of S with their full counts, hence are exactly
/// them; and since every part's counts add up to its total, `other` is the rest of the
/// total. The merge is what one `Tally` given all of S holds, whatever the parts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// The smallest values, each with its count: at most `cap` of them.
    values: BTreeMap<String, u64>,
    /// How many times a value past them was counted.
    other: u64,
    /// How many values keep a row: [`MAX_TALLY_VALUES`], but for tests.
    #[serde(skip, default = "max_values")]
    cap: usize,
}

fn max_values() -> usize {
    MAX_TALLY_VALUES
}

impl Default for Tally {
    fn default() -> Tally {
        Tally {
            values: BTreeMap::new(),
            other: 0,
            cap: MAX_TALLY_VALUES,
        }
    }
}

impl Tally {
    /// A tally that keeps `cap` values, so that tests see values pushed out.
    #[cfg(test)]
    pub fn with_cap(cap: usize) -> Tally {
        Tally {
            cap,
            ..Tally::default()
        }
    }

    /// Counts `value` `count` times.
    pub fn add(&mut self, value: &str, count: u64) {
        // Most values come again and again: found without allocating a key.
        if let Some(c) = self.values.get_mut(value) {
            *c += count;
            return;
        }
        if self.values.len() < self.cap {
            self.values.insert(value.to_string(), count);
            return;
        }
        match self.values.last_key_value() {
            Some((last, _)) if value < last.as_str() => {
                if let Some((_, pushed_out)) = self.values.pop_last() {
                    self.other += pushed_out;
                }
                self.values.insert(value.to_string(), count);
            }
            _ => self.other += count,
        }
    }

    /// Adds up `other`'s counts with these: the tally of both series (see [`Tally`]).
    pub fn merge(&mut self, other: &Tally) {
        for (v, c) in &other.values {
            self.add(v, *c);
        }
        self.other += other.other;
    }

    /// Each value with its count, the others as [`OTHER_VALUES`] when there are any (a
    /// value that reads `(other values)` itself is counted on that row too).
    pub fn rows(&self) -> BTreeMap<String, u64> {
        let mut rows = self.values.clone();
        if self.other > 0 {
            *rows.entry(OTHER_VALUES.to_string()).or_default() += self.other;
        }
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A series with repeats, out of order, over more values than a small cap.
    fn series() -> Vec<String> {
        (0..300u64)
            .map(|i| format!("v{:02}", (i * 37 + i / 7) % 41))
            .collect()
    }

    #[test]
    fn keeps_the_smallest_values_exactly() {
        let mut t = Tally::with_cap(5);
        for v in series() {
            t.add(&v, 1);
        }
        let rows = t.rows();
        assert_eq!(rows.len(), 6, "5 values and the others: {rows:?}");
        let mut exact: BTreeMap<String, u64> = BTreeMap::new();
        for v in series() {
            *exact.entry(v).or_default() += 1;
        }
        for (v, c) in exact.iter().take(5) {
            assert_eq!(rows[v], *c, "{v}");
        }
        assert_eq!(rows[OTHER_VALUES], exact.values().skip(5).sum::<u64>());
        // Any order gives the same rows.
        let mut backward = Tally::with_cap(5);
        for v in series().iter().rev() {
            backward.add(v, 1);
        }
        assert_eq!(backward, t);
    }

    /// Split any way and merged in any order, the parts give what one tally of the
    /// whole series gives.
    #[test]
    fn parts_merge_exactly() {
        let xs = series();
        for cap in [1, 3, 5, 40, 41, 100] {
            let mut whole = Tally::with_cap(cap);
            for v in &xs {
                whole.add(v, 1);
            }
            for parts in [2, 3, 7] {
                let mut shards = vec![Tally::with_cap(cap); parts];
                for (i, v) in xs.iter().enumerate() {
                    shards[i % parts].add(v, 1);
                }
                // Contiguous runs too: a part may see only large values.
                let mut runs = vec![Tally::with_cap(cap); parts];
                for (i, v) in xs.iter().enumerate() {
                    runs[i * parts / xs.len()].add(v, 1);
                }
                for split in [&shards, &runs] {
                    let mut forward = Tally::with_cap(cap);
                    split.iter().for_each(|s| forward.merge(s));
                    let mut backward = Tally::with_cap(cap);
                    split.iter().rev().for_each(|s| backward.merge(s));
                    assert_eq!(forward, whole, "cap {cap}, {parts} parts");
                    assert_eq!(backward, whole, "cap {cap}, {parts} parts, reversed");
                }
            }
        }
    }

    #[test]
    fn a_value_named_like_the_others_row_shares_it() {
        let mut t = Tally::with_cap(1);
        t.add(OTHER_VALUES, 2);
        t.add("z", 3);
        assert_eq!(t.rows()[OTHER_VALUES], 5);
        assert_eq!(t.rows().len(), 1);
    }
}
