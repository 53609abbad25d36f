//! The invariants every simulated game is checked against, on a board: each card in
//! exactly one zone with the zone tables agreeing, and the ledger's sum (the engine and
//! the register machine both check them, at the same moments).

use super::state::Board;
use crate::model::CardSet;

impl Board {
    /// The sum of the ledger variables (constant over a game when payments balance).
    pub fn ledger_sum(&self) -> i64 {
        // The slots are listed once a layout (a table's seat count), so that an audit
        // at every decision adds a few integers rather than walking the declarations.
        self.layout
            .ledger_slots
            .iter()
            .map(|&i| self.vars[i as usize].int())
            .sum()
    }

    /// Checks that every card is in exactly one zone and the zone tables agree.
    ///
    /// Runs after every decision of a simulated game, so the usual answer (all is well)
    /// is found in one pass over the cards, a few instructions each; only a board that
    /// fails it is looked at again, card by card, to say what is wrong.
    pub fn check_cards(&self) -> Result<(), String> {
        if self.cards_consistent() {
            return Ok(());
        }
        self.cards_fault()
    }

    /// Whether [`Board::check_cards`] finds nothing wrong: each zone's list holds its
    /// cards in the zone `card_zone` names and makes its set, the sets are disjoint, the
    /// fit sums are the lists' weights, and the lists hold as many cards as the deck
    /// and the sets all of them. (The last two mean no list holds a card twice: the sets
    /// then have as many cards as the lists.)
    pub(super) fn cards_consistent(&self) -> bool {
        let b = self;
        // A deck of at most 64 cards has them all in a set's first word: the list's set
        // is then built in a register rather than a word at a time in memory, and the
        // one fit table a game mostly has is summed in the same pass.
        let narrow = b.card_zone.len() <= 64;
        let single = match &b.layout.fit[..] {
            [table] => Some(&**table),
            _ => None,
        };
        match (narrow, &b.layout.fit[..]) {
            (true, []) => self.narrow_cards_consistent(None),
            (true, [table]) => self.narrow_cards_consistent(Some(table)),
            _ => self.wide_cards_consistent(narrow, single),
        }
    }

    /// [`Board::cards_consistent`] on any board (see there).
    #[inline(never)]
    fn wide_cards_consistent(
        &self,
        narrow: bool,
        single: Option<&crate::pattern::FitTable>,
    ) -> bool {
        let b = self;
        let tracks = b.layout.fit.len();
        let mut all = CardSet::EMPTY;
        let mut listed = 0;
        for (i, z) in b.zones.iter().enumerate() {
            let mut set = CardSet::EMPTY;
            let mut sum = 0u32;
            for &c in z {
                match b.card_zone.get(c as usize) {
                    Some(&at) if at as usize == i => {}
                    _ => return false,
                }
                match narrow {
                    // `c` is below the deck's size, so below 64.
                    true => set.0[0] |= 1u64 << (c & 63),
                    // A card of the deck: `c < 256`, one of the set's four words.
                    false => set.0[(c as usize >> 6) & 3] |= 1u64 << (c & 63),
                }
                if let Some(table) = single {
                    sum = sum.wrapping_add(table.weight(c as usize));
                }
            }
            listed += z.len();
            if b.sets.get(i) != Some(&set) || !all.inter(set).is_empty() {
                return false;
            }
            all = all.union(set);
            let stale =
                match single {
                    Some(_) => b.fit_sums.get(i) != Some(&sum),
                    None => b.layout.fit.iter().enumerate().any(|(t, table)| {
                        b.fit_sums.get(i * tracks + t) != Some(&table.weight_of(z))
                    }),
                };
            if stale {
                return false;
            }
        }
        listed == b.card_zone.len() && all.len() == listed
    }

    /// [`Board::cards_consistent`] on the usual board, a deck of at most 64 cards and
    /// one fit table or none: each list's set built in a word and its sum in the same
    /// pass. A function of its own, so that how it is compiled does not depend on its
    /// callers.
    #[inline(never)]
    fn narrow_cards_consistent(&self, table: Option<&crate::pattern::FitTable>) -> bool {
        let b = self;
        let (mut all, mut listed) = (0u64, 0usize);
        for (i, z) in b.zones.iter().enumerate() {
            let (mut set, mut sum) = (0u64, 0u32);
            for &c in z {
                if b.card_zone.get(c as usize).map(|&at| at as usize) != Some(i) {
                    return false;
                }
                // `c` is below the deck's size, so below 64.
                set |= 1u64 << (c & 63);
                if let Some(table) = table {
                    sum = sum.wrapping_add(table.weight(c as usize));
                }
            }
            listed += z.len();
            let word = CardSet([set, 0, 0, 0]);
            let stale = table.is_some() && b.fit_sums.get(i) != Some(&sum);
            if b.sets.get(i) != Some(&word) || all & set != 0 || stale {
                return false;
            }
            all |= set;
        }
        listed == b.card_zone.len() && all.count_ones() as usize == listed
    }

    /// What [`Board::check_cards`] reports wrong, looked at card by card.
    pub(super) fn cards_fault(&self) -> Result<(), String> {
        let b = self;
        let mut seen = CardSet::EMPTY;
        for (i, z) in b.zones.iter().enumerate() {
            let mut set = CardSet::EMPTY;
            for c in z {
                if seen.contains(*c) || set.contains(*c) {
                    return Err(format!("card {c} is in two places"));
                }
                set.insert(*c);
                if b.card_zone[*c as usize] as usize != i {
                    return Err(format!(
                        "card {c} is in zone {i} but recorded in zone {}",
                        b.card_zone[*c as usize]
                    ));
                }
            }
            if set != b.sets[i] {
                return Err(format!("zone {i}'s set and list disagree"));
            }
            let n = b.layout.fit.len();
            for (t, table) in b.layout.fit.iter().enumerate() {
                if b.fit_sums.get(i * n + t) != Some(&table.weight_of(z)) {
                    return Err(format!("zone {i}'s fit sum for table {t} is stale"));
                }
            }
            seen = seen.union(set);
        }
        if seen.len() != b.card_zone.len() {
            return Err(format!(
                "{} cards are in zones, the deck has {}",
                seen.len(),
                b.card_zone.len()
            ));
        }
        Ok(())
    }
}

/// Breaks `b`'s card tables one way (for the checks' tests), with the card at place
/// `k` of instance `z` (taken modulo its count), if it holds one, and instance `other`:
/// 1 the card listed in `other` too, 2 listed twice in `z`, 3 recorded in `other`, 4 in
/// `other`'s set too, 5 lost (off `z`'s list and set), 6 `z`'s fit sum stale (where the
/// board keeps sums); anything else breaks nothing. The card, if `z` had one and the
/// tables were broken: listing a card once more breaks nothing when the list is full.
#[cfg(test)]
pub(super) fn break_cards(
    b: &mut Board,
    fault: u8,
    z: usize,
    other: usize,
    k: usize,
) -> Option<crate::model::CardIx> {
    let held = b.zones[z].len();
    let c = b.zones[z].get(k % held.max(1)).copied();
    // A card listed once more, when the list has room for it.
    let listed = |b: &mut Board, i: usize, c| {
        let before = b.zones[i].len();
        b.zones.push(i, c);
        b.zones[i].len() > before
    };
    let listing = match fault {
        1 => Some(other),
        2 => Some(z),
        _ => None,
    };
    if let (Some(i), Some(c)) = (listing, c) {
        return listed(b, i, c).then_some(c);
    }
    match (fault, c) {
        (3, Some(c)) => b.card_zone[c as usize] = other as u16,
        (4, Some(c)) => b.sets[other].insert(c),
        (5, Some(c)) => {
            let kept: Vec<_> = b.zones[z].iter().copied().filter(|x| *x != c).collect();
            b.zones.set(z, &kept);
            b.sets[z] = b.sets[z].minus(CardSet::single(c));
        }
        (6, Some(_)) => {
            if let Some(s) = b.fit_sums.get_mut(z) {
                *s = s.wrapping_add(1);
            }
        }
        _ => {}
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::State;
    use crate::model::CardIx;
    use proptest::prelude::*;

    /// The bundled hanafuda draw-and-discard ruleset's board (48 cards, one fit table: the
    /// narrow check's board), with the stock's cards dealt out to its instances by `to`.
    fn dealt(to: &[usize]) -> Board {
        // Compiled once per test thread: compiling in every case was most of the
        // test's time in a debug build.
        thread_local! {
            static BLANK: Board = {
                let text = include_str!("../../../../rulesets/sangohana.fuda");
                let p = match crate::compile("sangohana.fuda", text, &crate::loader::NoFiles) {
                    Ok(c) => c.program,
                    Err(f) => panic!("{:#?}", f.diagnostics),
                };
                State::blank(&p, &[], 1).expect("a board").board
            };
        }
        let mut b = BLANK.with(Board::clone);
        let n = b.zones.instances();
        for (i, &z) in to.iter().enumerate() {
            b.move_card(i as CardIx, (z % n) as u16);
        }
        b
    }

    proptest! {
        /// On the usual board (at most 64 cards, one fit table) the one-pass check
        /// finds the board wrong exactly when the card-by-card one does: a card listed
        /// twice, a card recorded in another zone, a set that is not its list, a lost
        /// card, a stale fit sum.
        #[test]
        fn the_narrow_check_agrees_with_the_card_by_card_one(
            to in proptest::collection::vec(0usize..8, 0..48),
            fault in 0u8..7,
            a in any::<usize>(),
            k in any::<usize>(),
        ) {
            let mut b = dealt(&to);
            prop_assert!(b.layout.fit.len() == 1 && b.card_zone.len() <= 64);
            let n = b.zones.instances();
            let z = a % n;
            let other = (z + 1 + k % (n - 1)) % n;
            let c = break_cards(&mut b, fault, z, other, k);
            prop_assert_eq!(b.cards_consistent(), b.cards_fault().is_ok());
            prop_assert_eq!(b.check_cards().is_ok(), fault == 0 || c.is_none());
        }
    }
}
