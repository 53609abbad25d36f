//! The sets of cards a move over `sets(CARDS, N)` offers: every way to take N cards (or
//! LO to HI) out of CARDS, copies of one card counted as one way.
//!
//! Copies of a card share every attribute and tag (see `compile/copies.rs`), so two
//! sets that differ only in which copy of a face they hold play alike: offering both
//! would show a person the same move twice and make computer players weigh it twice.
//! The enumeration therefore never sees the copies: it chooses how many cards of each
//! face to take (at most the copies held), and takes the lowest copies held. A hand of
//! 14 tiles with many pairs thus gives far fewer sets than its `C(14, k)` subsets.

use super::{CardIx, CardSet, Deck};

/// The most sets one `sets(…)` may give: as many as the moves a `lo..hi` domain may
/// offer, so that a decision never lists more.
pub const MAX_FACE_SETS: usize = 10_000;

/// Why [`face_sets`] gave no list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManySets;

/// The sets of `lo` to `hi` cards taken from `cards`, each multiset of faces once (as
/// its lowest copies in `cards`), ordered by size and then by their cards in deck
/// order (the sorted card indices compared as sequences), with the number of search
/// steps taken (each set and each face chosen on the way, for the caller's budget).
/// `Err` when there would be more than `cap` sets; the search stops there, so it never
/// takes more than about `cap` times the number of faces steps.
pub fn face_sets(
    deck: &Deck,
    cards: CardSet,
    lo: i64,
    hi: i64,
    cap: usize,
) -> Result<(Vec<CardSet>, u64), TooManySets> {
    // The copies held of each face, the faces in the order of their lowest card.
    let mut faces: Vec<Vec<CardIx>> = Vec::new();
    let mut slot_of: Vec<Option<usize>> = vec![None; deck.face_cards.len()];
    for c in cards.iter() {
        // A card outside the deck (never in a game) is a face of its own.
        let slot = deck
            .faces
            .get(c as usize)
            .and_then(|f| slot_of.get_mut(*f as usize));
        let i = match slot {
            Some(Some(i)) => *i,
            Some(s) => {
                faces.push(Vec::new());
                *s = Some(faces.len() - 1);
                faces.len() - 1
            }
            None => {
                faces.push(Vec::new());
                faces.len() - 1
            }
        };
        faces[i].push(c);
    }
    let total = cards.len() as i64;
    let (lo, hi) = (lo.max(0), hi.min(total));
    let mut search = Search {
        faces: &faces,
        rest: Vec::new(),
        lo: lo as usize,
        hi: hi.max(0) as usize,
        cap,
        out: Vec::new(),
        steps: 0,
    };
    if lo > hi {
        return Ok((Vec::new(), 0));
    }
    // rest[i]: the cards held of faces i and after.
    search.rest = vec![0; faces.len() + 1];
    for i in (0..faces.len()).rev() {
        search.rest[i] = search.rest[i + 1] + faces[i].len();
    }
    search.walk(0, 0, CardSet::EMPTY)?;
    let mut out = search.out;
    out.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.iter().cmp(b.iter())));
    Ok((out, search.steps))
}

/// [`face_sets`], keeping only the sets whose cards share one value of attribute
/// `alike` (`sets(h, 2, 4, rank)`: a climbing game's pairs to fours) when it is given.
/// Each value's cards are searched apart, so the work is that of the sets kept, not of
/// every set: a 14-tile hand's n-of-a-kinds are a few dozen steps.
pub fn face_sets_alike(
    deck: &Deck,
    cards: CardSet,
    lo: i64,
    hi: i64,
    alike: Option<u16>,
    cap: usize,
) -> Result<(Vec<CardSet>, u64), TooManySets> {
    let Some(attr) = alike else {
        return face_sets(deck, cards, lo, hi, cap);
    };
    let mut out = Vec::new();
    let mut steps = 0;
    for class in deck.classes(attr) {
        let part = cards.inter(*class);
        if part.is_empty() || (part.len() as i64) < lo {
            continue;
        }
        let (sets, s) = face_sets(deck, part, lo, hi, cap.saturating_sub(out.len()))?;
        steps += s;
        out.extend(sets);
    }
    // A card with no value of the attribute is in no class: it is in no set.
    out.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.iter().cmp(b.iter())));
    Ok((out, steps))
}

/// The state of one [`face_sets`] search.
struct Search<'a> {
    faces: &'a [Vec<CardIx>],
    rest: Vec<usize>,
    lo: usize,
    hi: usize,
    cap: usize,
    out: Vec<CardSet>,
    steps: u64,
}

impl Search<'_> {
    /// Chooses how many cards of face `i` on to take, `k` taken so far as `set`. Only
    /// counts that can still reach `lo` to `hi` cards are tried, so every branch ends in
    /// a set: the work is bounded by the sets found times the faces.
    fn walk(&mut self, i: usize, k: usize, set: CardSet) -> Result<(), TooManySets> {
        self.steps += 1;
        if i == self.faces.len() {
            if self.out.len() >= self.cap {
                return Err(TooManySets);
            }
            self.out.push(set);
            return Ok(());
        }
        let held = &self.faces[i];
        let mut s = set;
        for m in 0..=held.len() {
            if m > 0 {
                s.insert(held[m - 1]);
            }
            let taken = k + m;
            if taken > self.hi {
                break;
            }
            if taken + self.rest[i + 1] >= self.lo {
                self.walk(i + 1, taken, s)?;
            }
        }
        Ok(())
    }
}

/// Whether two card sets hold the same faces the same number of times: one set of
/// [`face_sets`] and the same cards as a person or a test names them (`cards("23m")`
/// takes the deck's first copies, the hand may hold others).
pub fn same_faces(deck: &Deck, a: CardSet, b: CardSet) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let faces = |s: CardSet| {
        let mut v: Vec<u16> = s
            .iter()
            .map(|c| deck.faces.get(c as usize).copied().unwrap_or(u16::MAX))
            .collect();
        v.sort_unstable();
        v
    };
    faces(a) == faces(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deck of `faces` faces of `copies` cards each, faces in deck order.
    fn deck(faces: usize, copies: u16) -> Deck {
        let mut d = Deck::default();
        for f in 0..faces {
            d.add_face(&format!("{f}x"), &format!("{f}x"), copies, |_| 0);
        }
        d
    }

    fn ixs(s: &CardSet) -> Vec<CardIx> {
        s.iter().collect()
    }

    #[test]
    fn copies_are_one_way_and_the_lowest_held_are_taken() {
        let d = deck(3, 4);
        // Two copies of face 0 (cards 1 and 3), one of face 1 (card 5).
        let hand: CardSet = [1, 3, 5].into_iter().collect();
        let (sets, _) = face_sets(&d, hand, 2, 2, 100).unwrap();
        let got: Vec<Vec<CardIx>> = sets.iter().map(ixs).collect();
        assert_eq!(got, vec![vec![1, 3], vec![1, 5]]);
    }

    #[test]
    fn sizes_then_cards_order_the_sets() {
        let d = deck(3, 1);
        let (sets, _) = face_sets(&d, CardSet::first_n(3), 1, 3, 100).unwrap();
        let got: Vec<Vec<CardIx>> = sets.iter().map(ixs).collect();
        assert_eq!(
            got,
            vec![
                vec![0],
                vec![1],
                vec![2],
                vec![0, 1],
                vec![0, 2],
                vec![1, 2],
                vec![0, 1, 2]
            ]
        );
    }

    #[test]
    fn the_count_is_that_of_multisets() {
        // 14 different cards, 7 at a time: C(14, 7).
        let d = deck(14, 1);
        let (sets, steps) = face_sets(&d, CardSet::first_n(14), 7, 7, 10_000).unwrap();
        assert_eq!(sets.len(), 3432);
        assert!(steps <= 3432 * 15, "{steps} steps");
        // Seven pairs, 7 at a time: Σ over pairs taken twice.
        let d = deck(7, 2);
        let (sets, _) = face_sets(&d, CardSet::first_n(14), 7, 7, 10_000).unwrap();
        let by_count: usize = (0..=3)
            .map(|two| binom(7, two) * binom(7 - two, 7 - 2 * two))
            .sum();
        assert_eq!(sets.len(), by_count);
    }

    fn binom(n: usize, k: usize) -> usize {
        if k > n {
            return 0;
        }
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }

    #[test]
    fn past_the_cap_is_an_error_and_stops_early() {
        let d = deck(200, 1);
        assert_eq!(
            face_sets(&d, CardSet::first_n(200), 0, 200, 10_000),
            Err(TooManySets)
        );
        // Exactly the cap is fine: 2^14 subsets of 14 different cards.
        let d = deck(14, 1);
        assert_eq!(
            face_sets(&d, CardSet::first_n(14), 0, 14, 1 << 14)
                .unwrap()
                .0
                .len(),
            1 << 14
        );
    }

    #[test]
    fn sizes_out_of_range_give_nothing_or_clamp() {
        let d = deck(3, 1);
        let all = CardSet::first_n(3);
        assert!(face_sets(&d, all, 4, 9, 100).unwrap().0.is_empty());
        assert!(face_sets(&d, all, 2, 1, 100).unwrap().0.is_empty());
        assert!(face_sets(&d, all, -3, -1, 100).unwrap().0.is_empty());
        assert_eq!(
            face_sets(&d, all, -3, 0, 100).unwrap().0,
            vec![CardSet::EMPTY]
        );
        assert_eq!(face_sets(&d, CardSet::EMPTY, 1, 2, 100).unwrap().0.len(), 0);
    }

    #[test]
    fn alike_keeps_the_sets_of_one_value() {
        // Faces 0 and 1 share value 0 of attribute 0, face 2 has value 1.
        let mut d = Deck::default();
        d.add_attr(crate::model::AttrDef {
            name: "rank".into(),
            kind: crate::model::AttrKind::Int(None),
            values: Vec::new(),
            default: None,
        });
        for (f, v) in [(0, 0), (1, 0), (2, 1)] {
            d.add_face(&format!("{f}x"), &format!("{f}x"), 2, |_| v as i64);
        }
        let all = CardSet::first_n(6);
        let (sets, _) = face_sets_alike(&d, all, 2, 2, Some(0), 100).unwrap();
        let got: Vec<Vec<CardIx>> = sets.iter().map(ixs).collect();
        // Within value 0: 00, 01, 11 (as faces); within value 1: 22.
        assert_eq!(got, vec![vec![0, 1], vec![0, 2], vec![2, 3], vec![4, 5]]);
        let (none, _) = face_sets_alike(&d, all, 3, 3, Some(0), 100).unwrap();
        assert_eq!(none.len(), 2);
    }

    #[test]
    fn same_faces_ignores_which_copies() {
        let d = deck(2, 2);
        let a: CardSet = [0, 2].into_iter().collect();
        let b: CardSet = [1, 3].into_iter().collect();
        let c: CardSet = [0, 1].into_iter().collect();
        assert!(same_faces(&d, a, b));
        assert!(!same_faces(&d, a, c));
    }
}
