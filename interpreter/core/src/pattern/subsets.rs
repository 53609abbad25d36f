//! Choosing k cards of a set: the k-subsets one by one, in the order a sorted listing
//! gives them, without building the list (a search tries them as it makes them), and
//! how many there are (charged to the step budget before any is made).

use crate::model::{CardIx, CardSet};

/// n choose k, saturating (a size to charge before making subsets).
pub(crate) fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k) as u64;
    let mut r: u64 = 1;
    for i in 0..k {
        r = r.saturating_mul(n as u64 - i) / (i + 1);
        if r == u64::MAX {
            return u64::MAX;
        }
    }
    r
}

/// All k-subsets of `items`, in increasing order of their bitsets' lowest differing card.
pub(crate) fn combos(items: CardSet, k: usize, out: &mut Vec<CardSet>) {
    for s in Subsets::new(items, k) {
        out.push(s);
    }
}

/// The most cards [`Subsets`] picks from (a pattern splits at most 32 cards).
const MAX_ITEMS: usize = 64;

/// The k-subsets of a set one by one, in the order [`combos`] lists them (by the
/// sorted cards, lexicographically), without building a list.
pub(super) struct Subsets {
    items: [CardIx; MAX_ITEMS],
    /// Positions in `items` of the current subset's cards, increasing.
    idx: [u8; MAX_ITEMS],
    n: usize,
    k: usize,
    /// The subset to give next; `None` when done.
    next: Option<CardSet>,
    /// More than [`MAX_ITEMS`] cards: the subsets were listed up front.
    listed: Option<std::vec::IntoIter<CardSet>>,
}

impl Subsets {
    pub(super) fn new(set: CardSet, k: usize) -> Subsets {
        let n = set.len();
        let mut s = Subsets {
            items: [0; MAX_ITEMS],
            idx: [0; MAX_ITEMS],
            n,
            k,
            next: None,
            listed: None,
        };
        if k == 0 || k > n {
            return s;
        }
        if k == n {
            // The whole set (the usual case for a class that is exactly one group).
            s.next = Some(set);
            s.k = 0;
            return s;
        }
        if n > MAX_ITEMS {
            s.listed = Some(combos_listed(set, k).into_iter());
            return s;
        }
        for (i, c) in set.iter().enumerate() {
            s.items[i] = c;
        }
        let mut first = CardSet::EMPTY;
        for j in 0..k {
            s.idx[j] = j as u8;
            first.insert(s.items[j]);
        }
        s.next = Some(first);
        s
    }
}

impl Iterator for Subsets {
    type Item = CardSet;

    #[inline]
    fn next(&mut self) -> Option<CardSet> {
        if let Some(l) = &mut self.listed {
            return l.next();
        }
        let out = self.next.take()?;
        let (n, k) = (self.n, self.k);
        // `k == 0` marks a single whole-set subset.
        if k > 0 {
            // The rightmost position that can still move right, then the ones after it
            // packed behind it.
            let mut j = k;
            while j > 0 {
                j -= 1;
                if (self.idx[j] as usize) < n - k + j {
                    self.idx[j] += 1;
                    for t in j + 1..k {
                        self.idx[t] = self.idx[t - 1] + 1;
                    }
                    let mut s = CardSet::EMPTY;
                    for t in 0..k {
                        s.insert(self.items[self.idx[t] as usize]);
                    }
                    self.next = Some(s);
                    break;
                }
            }
        }
        Some(out)
    }
}

/// All k-subsets of a large set, listed by recursion (in [`Subsets`]' order).
pub(super) fn combos_listed(items: CardSet, k: usize) -> Vec<CardSet> {
    fn go(items: &[CardIx], start: usize, cur: CardSet, left: usize, out: &mut Vec<CardSet>) {
        if left == 0 {
            out.push(cur);
            return;
        }
        for i in start..=items.len() - left {
            let mut next = cur;
            next.insert(items[i]);
            go(items, i + 1, next, left - 1, out);
        }
    }
    let mut out = Vec::new();
    let mut buf = [0 as CardIx; crate::model::MAX_CARDS];
    let mut n = 0;
    for c in items.iter() {
        buf[n] = c;
        n += 1;
    }
    if k > 0 && k <= n {
        go(&buf[..n], 0, CardSet::EMPTY, k, &mut out);
    }
    out
}
