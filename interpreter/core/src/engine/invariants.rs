//! The invariants every simulated game is checked against, on a board: each card in
//! exactly one zone with the zone tables agreeing, and the ledger's sum (the engine and
//! the register machine both check them, at the same moments).

use super::state::Board;
use crate::ir::Program;
use crate::model::CardSet;

impl Board {
    /// The sum of the ledger variables (constant over a game when payments balance).
    pub fn ledger_sum(&self, p: &Program) -> i64 {
        p.ledger
            .iter()
            .map(|v| {
                let def = &p.vars[*v as usize];
                let n = if def.per_seat { self.seats as usize } else { 1 };
                let base = self.layout.var_base[*v as usize] as usize;
                (0..n).map(|i| self.vars[base + i].int()).sum::<i64>()
            })
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
        let tracks = b.layout.fit.len();
        // A deck of at most 64 cards has them all in a set's first word: the list's set
        // is then built in a register rather than a word at a time in memory, and the
        // one fit table a game mostly has is summed in the same pass.
        let narrow = b.card_zone.len() <= 64;
        let single = match &b.layout.fit[..] {
            [table] => Some(&**table),
            _ => None,
        };
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
