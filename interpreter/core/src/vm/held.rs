//! The zones a run of usual turns moves cards between (every seat's hand, the stock,
//! the pile), held in a few words while the run lasts: each zone's cards as one word's
//! bits, its count and its fit table's sum, a hand's order as its cards' arrival
//! stamps, and the other zones' lists in arrays of their own. A turn is then a few
//! operations on words, where the board keeps every zone as lists, 256-card sets and a
//! table of sums; the board's copies of these zones are stale meanwhile, and are
//! written back ([`Held::flush`]) before anything reads the board: a guard's code, and
//! the run's end. A run whose board is audited at every decision makes each move on
//! the board too ([`Held::draw_top`]), so that it never needs writing back. Otherwise every
//! held zone is written back, and each card's place with it: a run moves cards in all
//! of them, and marking each move would cost more than writing back one zone it left
//! alone. Held only for decks of at most 64 cards and a board keeping one fit table's
//! sums.

use std::sync::Arc;

use crate::engine::Board;
use crate::ir::MOST_SEATS;
use crate::model::{CardIx, CardSet};
use crate::pattern::FitTable;

use super::machine::Stop;

/// The most zone instances other than the hands a usual turn touches: the stock, the
/// pile, the two draws' sources and the zone whose count offers the take, each once.
const OTHERS: usize = 4;

/// Slots: a hand per seat (slot = seat), then the others; a power of two, so that a
/// slot read masked needs no bounds check.
const SLOTS: usize = (MOST_SEATS + OTHERS).next_power_of_two();

/// The most cards a deck may have for its zones to be held in words.
const WORD_DECK: usize = 64;

/// Where a usual turn's zones are on the board (fixed when the turn is recognised).
#[derive(Clone, Debug, Default)]
pub struct Places {
    /// The hands' first instance (seat `s`'s is `hands + s`).
    pub hands: u16,
    /// The other instances, each once (`n_others` of them).
    others: [u16; OTHERS],
    /// How many of `others` there are.
    n_others: u8,
}

impl Places {
    /// The slot of instance `z`, one of the others, added when new: `None` when there
    /// is no room for it.
    pub(super) fn other(&mut self, z: u16) -> Option<u8> {
        let n = self.n_others as usize;
        if let Some(j) = self.others[..n].iter().position(|&o| o == z) {
            return Some((MOST_SEATS + j) as u8);
        }
        *self.others.get_mut(n)? = z;
        self.n_others += 1;
        Some((MOST_SEATS + n) as u8)
    }

    /// The other instances.
    fn others(&self) -> &[u16] {
        &self.others[..self.n_others as usize]
    }
}

/// A usual run's zones, held in words (see the module's documentation).
pub(super) struct Held {
    /// Each card's weight in the board's one fit table.
    weight: [u32; WORD_DECK],
    /// Each slot's cards: bit `c` for card `c`.
    set: [u64; SLOTS],
    /// How many cards each slot holds.
    count: [u32; SLOTS],
    /// Each slot's fit sum (the board's one table's).
    sum: [u32; SLOTS],
    /// The other zones' lists, bottom first (each of them is at most the deck).
    list: [[CardIx; WORD_DECK]; OTHERS],
    /// When each card came into the hand it is in: a hand's list is its cards in the
    /// order of these stamps.
    stamp: [u32; WORD_DECK],
    /// The next stamp.
    clock: u32,
    /// Slots to write back: bit per slot, every held slot unless the moves are made
    /// on the board too (see [`Held::load`]).
    dirty: u32,
    /// What `dirty` is set to whenever the board is read.
    back: u32,
    /// The other slots' instances on the board.
    others: [u16; OTHERS],
    /// Seats at the table.
    seats: usize,
}

const _: () = assert!(SLOTS <= 32, "a slot's dirty bit is in a u32");

impl Held {
    /// An empty holder, on the stack of the run that uses it: its words are then
    /// reached at fixed places in the frame, not through a pointer reloaded at each
    /// access (which costs more than clearing a kilobyte and a half once a run).
    #[inline(always)]
    pub(super) fn fresh() -> Held {
        Held {
            weight: [0; WORD_DECK],
            set: [0; SLOTS],
            count: [0; SLOTS],
            sum: [0; SLOTS],
            list: [[0; WORD_DECK]; OTHERS],
            stamp: [0; WORD_DECK],
            clock: 0,
            dirty: 0,
            back: 0,
            others: [0; OTHERS],
            seats: 0,
        }
    }

    /// Reads the zones at `places` off the board, if they can be held in words: a deck
    /// of at most 64 cards, `table` the board's one fit table, the other zones none of
    /// the hands. Every slot a run reads is read here (the rest keep what an earlier
    /// run left, and are never read).
    pub(super) fn load(
        &mut self,
        board: &Board,
        places: &Places,
        table: &Arc<FitTable>,
        through: bool,
    ) -> Option<()> {
        let deck = board.card_zone.len();
        let [only] = &board.layout.fit[..] else {
            return None;
        };
        let seats = board.seats as usize;
        let hands = places.hands as usize;
        if deck > WORD_DECK
            || !Arc::ptr_eq(only, table)
            || hands + seats > board.zones.instances()
            || places
                .others()
                .iter()
                .any(|&z| (hands..hands + seats).contains(&(z as usize)))
        {
            return None;
        }
        self.weight.copy_from_slice(&table.weights()[..WORD_DECK]);
        self.others = places.others;
        self.seats = seats;
        // The hands' slots, then the others'.
        let others = ((1u32 << places.n_others) - 1) << MOST_SEATS;
        self.back = match through {
            true => 0,
            false => ((1u32 << seats) - 1) | others,
        };
        self.reload(board, places)
    }

    /// Reads the zones again off the board (after a guard's code, which sees the
    /// board): `None` if the board no longer fits words.
    pub(super) fn reload(&mut self, board: &Board, places: &Places) -> Option<()> {
        self.clock = 0;
        for seat in 0..self.seats {
            let cards = self.read(board, seat, places.hands as usize + seat)?;
            for &c in cards {
                *self.stamp.get_mut(c as usize)? = self.clock;
                self.clock += 1;
            }
        }
        for (j, &z) in places.others().iter().enumerate() {
            let cards = self.read(board, MOST_SEATS + j, z as usize)?;
            self.list
                .get_mut(j)?
                .get_mut(..cards.len())?
                .copy_from_slice(cards);
        }
        self.dirty = self.back;
        Some(())
    }

    /// Slot `slot`'s set, count and sum read off instance `z` of the board: its list.
    fn read<'b>(&mut self, board: &'b Board, slot: usize, z: usize) -> Option<&'b [CardIx]> {
        let cards = board.zones.get(z)?;
        let set = board.sets.get(z)?;
        if set.0[1] | set.0[2] | set.0[3] != 0 || cards.len() > WORD_DECK {
            return None;
        }
        let slot = slot % SLOTS;
        self.set[slot] = set.0[0];
        self.count[slot] = cards.len() as u32;
        self.sum[slot] = *board.fit_sums.get(z)?;
        Some(cards)
    }

    /// Writes the held zones back to the board (none when the moves were made on it
    /// too), which then holds what a run played on the board itself would have left:
    /// the same lists, sets, counts, sums and places.
    pub(super) fn flush(&mut self, board: &mut Board, places: &Places) {
        let mut dirty = self.dirty;
        while dirty != 0 {
            let slot = dirty.trailing_zeros() as usize % SLOTS;
            dirty &= dirty - 1;
            let n = self.count[slot] as usize % (WORD_DECK + 1);
            let z = match slot.checked_sub(MOST_SEATS) {
                Some(j) => {
                    let (j, z) = (j % OTHERS, places.others[j % OTHERS] as usize);
                    // Written whole: keeping count of the cards that stayed in place
                    // cost a store at every draw, at an index the player's choice
                    // picked, for less than a copy of a few dozen cards saves.
                    board.zones.set(z, &self.list[j][..n]);
                    z
                }
                None => {
                    let z = places.hands as usize + slot;
                    let mut cards = [0; WORD_DECK];
                    board.zones.set(z, self.in_order(slot, n, &mut cards));
                    z
                }
            };
            let mut bits = self.set[slot];
            while bits != 0 {
                let c = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let Some(at) = board.card_zone.get_mut(c) {
                    *at = z as u16;
                }
            }
            if let Some(s) = board.sets.get_mut(z) {
                *s = CardSet([self.set[slot], 0, 0, 0]);
            }
            if let Some(s) = board.fit_sums.get_mut(z) {
                *s = self.sum[slot];
            }
        }
        self.dirty = 0;
    }

    /// Hand `slot`'s `n` cards in the order they came, into `cards`. While the stamps
    /// are few (a deal's run of usual turns gives out about a hundred), each card is
    /// put at its stamp's place in a table and the stamps read back in order off a
    /// bitmap: a handful of predictable branches, where comparing stamps branches on
    /// every card, one way or the other at random.
    fn in_order<'c>(
        &self,
        slot: usize,
        n: usize,
        cards: &'c mut [CardIx; WORD_DECK],
    ) -> &'c [CardIx] {
        const STAMPS: usize = 128;
        let n = n.min(WORD_DECK);
        let mut bits = self.set[slot % SLOTS];
        if self.clock as usize > STAMPS {
            return self.sorted_by_stamp(bits, n, cards);
        }
        // A card of a deck held in words fits a byte.
        let mut at = [0u8; STAMPS];
        let mut stamps = [0u64; STAMPS / 64];
        while bits != 0 {
            let c = bits.trailing_zeros() as CardIx;
            bits &= bits - 1;
            let s = self.stamp[c as usize % WORD_DECK] as usize % STAMPS;
            at[s] = c as u8;
            stamps[s / 64] |= 1 << (s % 64);
        }
        let mut i = 0;
        for (k, mut w) in stamps.into_iter().enumerate() {
            while w != 0 && i < n {
                cards[i] = at[(k * 64 + w.trailing_zeros() as usize) % STAMPS] as CardIx;
                w &= w - 1;
                i += 1;
            }
        }
        &cards[..i]
    }

    /// [`Held::in_order`] for any stamps: each card put in its place among those
    /// before it (a hand is a few cards).
    fn sorted_by_stamp<'c>(
        &self,
        mut bits: u64,
        n: usize,
        cards: &'c mut [CardIx; WORD_DECK],
    ) -> &'c [CardIx] {
        let mut stamps = [0u32; WORD_DECK];
        for i in 0..n {
            let c = bits.trailing_zeros() as CardIx;
            bits &= bits.wrapping_sub(1);
            let stamp = self.stamp[c as usize % WORD_DECK];
            let mut j = i;
            while j > 0 && stamps[j - 1] > stamp {
                stamps[j] = stamps[j - 1];
                cards[j] = cards[j - 1];
                j -= 1;
            }
            stamps[j] = stamp;
            cards[j] = c;
        }
        &cards[..n]
    }

    /// Seat `seat`'s hand.
    #[inline(always)]
    pub(super) fn hand(&self, seat: u8) -> u64 {
        self.set[seat as usize % SLOTS]
    }

    /// How many cards slot `slot` holds (a seat's hand, or one of the others).
    #[inline(always)]
    pub(super) fn count(&self, slot: u8) -> usize {
        self.count[slot as usize % SLOTS] as usize
    }

    /// Slot `slot`'s fit sum.
    #[inline(always)]
    pub(super) fn sum(&self, slot: u8) -> u32 {
        self.sum[slot as usize % SLOTS]
    }

    /// Card `c`'s weight in the fit table.
    #[inline(always)]
    pub(super) fn weight(&self, c: CardIx) -> u32 {
        self.weight[c as usize % WORD_DECK]
    }

    /// The top card of `from` (one of the others), without taking it, and how many
    /// cards `from` holds: what [`Held::draw_top`] is then given (an empty or unheld
    /// source reads a card of no meaning, which `draw_top` never takes).
    #[inline(always)]
    pub(super) fn top(&self, from: u8) -> (CardIx, u32) {
        let f = from as usize % SLOTS;
        let held = self.count[f];
        let n = held.wrapping_sub(1) as usize % WORD_DECK;
        (self.list[f.wrapping_sub(MOST_SEATS) % OTHERS][n], held)
    }

    /// [`Held::top`] of `from`, then [`Held::draw_top`] of it, as a turn does (the
    /// tests' one call).
    #[cfg(test)]
    pub(super) fn draw<const THROUGH: bool>(
        &mut self,
        board: &mut Board,
        from: u8,
        seat: u8,
        to: usize,
    ) -> Result<CardIx, Stop> {
        let top = self.top(from);
        self.draw_top::<THROUGH>(board, from, seat, to, top)
    }

    /// The top card of `from` (one of the others) into `seat`'s hand, instance `to`
    /// on the board: `c`, which [`Held::top`] read off `from` with its count `held`
    /// since nothing moved, or [`Stop::Empty`] when `from` has none. `THROUGH`: the
    /// move is made on the board too, at once (for a run whose board is audited at
    /// every decision), so that nothing needs writing back.
    #[inline(always)]
    pub(super) fn draw_top<const THROUGH: bool>(
        &mut self,
        board: &mut Board,
        from: u8,
        seat: u8,
        to: usize,
        (c, held): (CardIx, u32),
    ) -> Result<CardIx, Stop> {
        let (f, h) = (from as usize % SLOTS, seat as usize % SLOTS);
        let j = f.checked_sub(MOST_SEATS).ok_or(Stop::Internal)?;
        let n = held.checked_sub(1).ok_or(Stop::Empty)?;
        let j = j % OTHERS;
        debug_assert_eq!((c, held), self.top(from), "a stale top");
        let (bit, w) = (1u64 << (c % 64), self.weight(c));
        self.count[f] = n;
        self.set[f] &= !bit;
        self.sum[f] = self.sum[f].wrapping_sub(w);
        self.count[h] += 1;
        self.set[h] |= bit;
        self.sum[h] = self.sum[h].wrapping_add(w);
        self.stamp[c as usize % WORD_DECK] = self.clock;
        self.clock += 1;
        // Written back, places and all, by `flush` (see the module's documentation).
        if THROUGH {
            let drawn = board.draw_top(self.others[j], to as u16);
            if drawn != Some(c) {
                return Err(Stop::Internal);
            }
        }
        Ok(c)
    }

    /// Card `c`, in `seat`'s hand, onto the top of `to` (one of the others), instance
    /// `at` on the board; on the board too when `THROUGH` (see [`Held::draw_top`]).
    #[inline(always)]
    pub(super) fn discard<const THROUGH: bool>(
        &mut self,
        board: &mut Board,
        seat: u8,
        c: CardIx,
        to: u8,
        at: usize,
    ) -> Result<(), Stop> {
        let (h, t) = (seat as usize % SLOTS, to as usize % SLOTS);
        let j = t.checked_sub(MOST_SEATS).ok_or(Stop::Internal)?;
        let (bit, w) = (1u64 << (c % 64), self.weight(c));
        if self.set[h] & bit == 0 {
            return Err(Stop::Internal);
        }
        self.count[h] -= 1;
        self.set[h] &= !bit;
        self.sum[h] = self.sum[h].wrapping_sub(w);
        let n = self.count[t];
        *self.list[j % OTHERS]
            .get_mut(n as usize)
            .ok_or(Stop::Internal)? = c;
        self.count[t] = n + 1;
        self.set[t] |= bit;
        self.sum[t] = self.sum[t].wrapping_add(w);
        if THROUGH {
            board.move_card_from(c, at as u16);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::State;
    use proptest::prelude::*;

    /// The bundled draw-and-discard ruleset's board with every card in the stock
    /// (instance 0); the pile is instance 1 and the hands 2, 3 and 4.
    fn board() -> Board {
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
        BLANK.with(Board::clone)
    }

    /// What a check of the card tables compares: every list, set, sum and place.
    fn tables(b: &Board) -> (Vec<Vec<CardIx>>, Vec<CardSet>, Vec<u32>, Vec<u16>) {
        let lists = b.zones.to_lists();
        (
            lists,
            b.sets.clone(),
            b.fit_sums.clone(),
            b.card_zone.clone(),
        )
    }

    proptest! {
        /// Draws and discards on zones held in words, written back at any point, leave
        /// the board the moves made on the board itself leave: the same lists (a
        /// hand's in the order its cards came), sets, sums and places.
        #[test]
        fn held_moves_leave_the_boards_tables(
            shuffle in 0u64..1000,
            through in any::<bool>(),
            moves in proptest::collection::vec((0u8..3, any::<bool>(), 0usize..64, any::<bool>()), 0..120),
        ) {
            let mut b = board();
            b.rng = crate::model::GameRng::new(shuffle);
            let mut stock: Vec<CardIx> = b.zones.get(0).expect("the stock").to_vec();
            b.rng.shuffle(&mut stock);
            b.zones.set(0, &stock);
            for s in 0..3u16 {
                for _ in 0..7 {
                    b.draw_top(0, 2 + s);
                }
            }
            let mut places = Places { hands: 2, ..Places::default() };
            let (stock, pile) = (places.other(0).expect("room"), places.other(1).expect("room"));
            let mut plain = b.clone();
            let table = b.layout.fit[0].clone();
            let mut held = Held::fresh();
            held.load(&b, &places, &table, through).expect("a 48-card deck fits words");
            for (seat, take, k, flush) in moves {
                // Draw (from the pile when asked and it has a card), then discard
                // the hand's `k`-th card, as a turn does.
                let from: u16 = if take && plain.zones.held(1) > 0 { 1 } else { 0 };
                if plain.zones.held(from as usize) == 0 {
                    break;
                }
                let c = plain.draw_top(from, 2 + seat as u16).expect("a card");
                let slot = if from == 1 { pile } else { stock };
                let drawn = match through {
                    true => held.draw::<true>(&mut b, slot, seat, 2 + seat as usize),
                    false => held.draw::<false>(&mut b, slot, seat, 2 + seat as usize),
                };
                prop_assert_eq!(drawn, Ok(c));
                let hand = plain.sets[2 + seat as usize];
                let d = hand.nth(k % hand.len()).expect("a card");
                plain.move_card_from(d, 1);
                let discarded = match through {
                    true => held.discard::<true>(&mut b, seat, d, pile, 1),
                    false => held.discard::<false>(&mut b, seat, d, pile, 1),
                };
                prop_assert_eq!(discarded, Ok(()));
                if flush {
                    held.flush(&mut b, &places);
                    prop_assert_eq!(tables(&b), tables(&plain));
                    // Read again, the words go on as before.
                    held.reload(&b, &places).expect("still fits");
                }
            }
            held.flush(&mut b, &places);
            prop_assert_eq!(tables(&b), tables(&plain));
        }
    }

    proptest! {
        /// A hand's order read off the stamps' bitmap is the order sorting the stamps
        /// gives (which the bitmap leaves to stamps past its room).
        #[test]
        fn the_stamps_bitmap_orders_a_hand_as_sorting_does(
            cards in proptest::collection::btree_map(0u16..64, 0u32..128, 0..20),
        ) {
            let mut held = Held::fresh();
            held.clock = 128;
            for (&c, &stamp) in &cards {
                held.set[0] |= 1 << c;
                held.stamp[c as usize] = stamp;
            }
            // Stamps are distinct: a card is stamped as it comes, one tick each.
            let distinct: std::collections::BTreeSet<u32> = cards.values().copied().collect();
            prop_assume!(distinct.len() == cards.len());
            let n = cards.len();
            let (mut a, mut b) = ([0; WORD_DECK], [0; WORD_DECK]);
            let by_bitmap = held.in_order(0, n, &mut a).to_vec();
            let sorted = held.sorted_by_stamp(held.set[0], n, &mut b).to_vec();
            prop_assert_eq!(by_bitmap, sorted);
        }
    }

    /// A deck of more than 64 cards is not held in words.
    #[test]
    fn a_wide_deck_is_not_held() {
        let mut b = board();
        b.card_zone.resize(65, 0);
        let places = Places {
            hands: 2,
            ..Places::default()
        };
        let table = b.layout.fit[0].clone();
        assert!(Held::fresh().load(&b, &places, &table, false).is_none());
    }
}
