//! Dealing from the top of a zone: `k` cards to one instance (`deal_top`), and a deal
//! to each seat's instance of a family round by round (`deal_rounds`: "4 each then 3
//! each, starting after the dealer"), each card's place, set and fit sum kept.

use super::state::Board;
use crate::ir::MOST_SEATS;
use crate::model::CardSet;

impl Board {
    /// Moves the top `k` cards of `from` onto `to` one at a time, the top card first
    /// (so they land in reverse order), or as many as `from` holds; whether it held
    /// `k`. The same as `move_card` of each top card in turn, without looking for it.
    pub fn deal_top(&mut self, from: u16, to: u16, k: usize) -> bool {
        let held = self.zones.held(from as usize);
        if from == to {
            // Each card would stay where it is.
            return k == 0 || held > 0;
        }
        let n = k.min(held);
        let dealt = &self.zones[from as usize][held - n..];
        let mut moved = CardSet::EMPTY;
        for &c in dealt {
            moved.insert(c);
            self.card_zone[c as usize] = to;
        }
        // The dealt cards' weights leave `from`'s sums and join `to`'s together.
        let tracks = self.layout.fit.len();
        for (t, table) in self.layout.fit.iter().enumerate() {
            let w = table.weight_of(dealt);
            if let Some(s) = self.fit_sums.get_mut(from as usize * tracks + t) {
                *s = s.wrapping_sub(w);
            }
            if let Some(s) = self.fit_sums.get_mut(to as usize * tracks + t) {
                *s = s.wrapping_add(w);
            }
        }
        self.zones.deal_top(from as usize, to as usize, n);
        self.sets[from as usize] = self.sets[from as usize].minus(moved);
        self.sets[to as usize] = self.sets[to as usize].union(moved);
        n == k
    }

    /// Deals round by round from the top of `from`: for each count `k` of `counts`, `k`
    /// cards to each of `seats` instances from `first` on, starting at `first + start`
    /// and going round (as `deal_top` of each in turn, the top card first). `from`
    /// must hold them all and be none of the instances (the caller checks both). With
    /// at most one fit table, every card's place, set and sum is written in one pass
    /// and each instance's set and sum once, instead of once per `deal_top`.
    pub fn deal_rounds(&mut self, from: u16, first: u16, start: u8, seats: u8, counts: &[usize]) {
        let n = seats as usize;
        if n > MOST_SEATS || self.layout.fit.len() > 1 {
            for &k in counts {
                for i in 0..n {
                    let dest = first + ((start as usize + i) % n) as u16;
                    self.deal_top(from, dest, k);
                }
            }
            return;
        }
        let Board {
            zones,
            sets,
            card_zone,
            fit_sums,
            layout,
            ..
        } = self;
        let table = layout.fit.first();
        let mut moved = [CardSet::EMPTY; MOST_SEATS];
        let mut weight = [0u32; MOST_SEATS];
        let mut top = zones.held(from as usize);
        for &k in counts {
            for i in 0..n {
                let s = (start as usize + i) % n;
                let dest = first + s as u16;
                let k = k.min(top);
                // The cards this round gives the seat, top first, and as each is
                // written: its place, set and sum.
                let (moved, weight) = (&mut moved[s], &mut weight[s]);
                zones.deal_top_each(from as usize, dest as usize, k, |c| {
                    moved.insert(c);
                    if let Some(z) = card_zone.get_mut(c as usize) {
                        *z = dest;
                    }
                    if let Some(t) = table {
                        *weight = weight.wrapping_add(t.weight(c as usize));
                    }
                });
                top -= k;
            }
        }
        let (mut all, mut total) = (CardSet::EMPTY, 0u32);
        for (s, (m, w)) in moved.iter().zip(weight).take(n).enumerate() {
            let dest = first as usize + s;
            all = all.union(*m);
            total = total.wrapping_add(w);
            if let Some(set) = sets.get_mut(dest) {
                *set = set.union(*m);
            }
            if table.is_some() {
                if let Some(sum) = fit_sums.get_mut(dest) {
                    *sum = sum.wrapping_add(w);
                }
            }
        }
        if let Some(set) = sets.get_mut(from as usize) {
            *set = set.minus(all);
        }
        if table.is_some() {
            if let Some(sum) = fit_sums.get_mut(from as usize) {
                *sum = sum.wrapping_sub(total);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::State;
    use crate::ir::Program;
    use crate::model::CardIx;
    use crate::value::Value;
    use proptest::prelude::*;

    /// What a check of the card tables compares: every list, set, sum and place.
    fn tables(b: &Board) -> (Vec<Vec<CardIx>>, Vec<CardSet>, Vec<u32>, Vec<u16>) {
        let lists = b.zones.to_lists();
        let sums = b.fit_sums.clone();
        (lists, b.sets.clone(), sums, b.card_zone.clone())
    }

    proptest! {
        /// Dealing round by round leaves every list, set, fit sum and place as one
        /// `deal_top` per seat and round does, on a 48-card board with one fit table, for 2
        /// to 4 players, from any seat, with cards already in the hands.
        #[test]
        fn dealing_in_rounds_matches_one_deal_top_each(
            seed in 0u64..1000,
            players in 2i64..=4,
            start in 0u8..4,
            before in 0usize..4,
            counts in prop::collection::vec(0usize..6, 1..4),
        ) {
            static SANGOHANA: std::sync::OnceLock<Program> = std::sync::OnceLock::new();
            let p = SANGOHANA.get_or_init(|| {
                let text = include_str!("../../../../rulesets/sangohana.fuda");
                match crate::compile("sangohana.fuda", text, &crate::loader::NoFiles) {
                    Ok(c) => c.program,
                    Err(f) => panic!("{:#?}", f.diagnostics),
                }
            });
            let params = [Some(Value::Int(players))];
            let mut b = State::blank(p, &params, seed).expect("a board").board;
            prop_assert_eq!(b.layout.fit.len(), 1);
            let seats = b.seats;
            let mut stock: Vec<CardIx> = b.zones.get(0).expect("the stock").to_vec();
            b.rng.shuffle(&mut stock);
            b.zones.set(0, &stock);
            // The stock is instance 0, the pile 1 and the hands 2 on.
            for s in 0..seats {
                b.deal_top(0, 2 + s as u16, before);
            }
            let per: usize = counts.iter().sum();
            prop_assume!(per * seats as usize <= b.zones.held(0));
            let start = start % seats;
            let mut one_by_one = b.clone();
            for &k in &counts {
                for i in 0..seats {
                    let dest = 2 + ((start + i) % seats) as u16;
                    one_by_one.deal_top(0, dest, k);
                }
            }
            b.deal_rounds(0, 2, start, seats, &counts);
            prop_assert_eq!(tables(&b), tables(&one_by_one));
        }
    }
}
