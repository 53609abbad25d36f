//! The picker `fuda play` advances the game with: the moves' watcher of `told`, which
//! also keeps every seat's cards as each deal ends, to show them all once it is over.

use std::collections::VecDeque;

use fuda_core::engine::Picker;
use fuda_core::ir::{Op, Owner, Program};
use fuda_core::model::CardIx;
use fuda_core::State;

use crate::told::Moves;
use crate::view;

/// The cards of each seat's zones as a deal ended: `手札 of seat 1 (ビキ)` and its cards,
/// the zones that held none left out.
pub type Hands = Vec<(String, Vec<CardIx>)>;

/// [`Moves`], and the seats' cards at each `outcome` not yet shown.
pub struct Watch {
    /// The moves taken and not yet told.
    pub moves: Moves,
    me: u8,
    /// The seats' cards at each `outcome` reached and not yet shown, in order.
    hands: VecDeque<Hands>,
}

impl Watch {
    /// Nothing seen yet, for the person at seat `me`.
    pub fn new(me: u8) -> Watch {
        Watch {
            moves: Moves::new(me),
            me,
            hands: VecDeque::new(),
        }
    }

    /// The seats' cards as the earliest deal not yet shown ended (one per `outcome`,
    /// asked once each, in order).
    pub fn hands_at_outcome(&mut self) -> Hands {
        self.hands.pop_front().unwrap_or_default()
    }
}

/// Every seat's zones that hold cards, in the table's order and labels (with the roles
/// of the deal being played): the cards as they lie now, hidden ones included.
fn every_hand(p: &Program, st: &State, me: u8) -> Hands {
    let layout = &st.board.layout;
    (0..layout.zone_of.len())
        .filter(|i| p.zones[layout.zone_of[*i].0 as usize].owner == Owner::PerSeat)
        .filter(|i| !st.board.zones[*i].is_empty())
        .map(|i| {
            (
                view::zone_label(p, st, st.board.dealer, i, me),
                view::in_order(p, st, i),
            )
        })
        .collect()
}

impl Picker for Watch {
    const PICKS: bool = <Moves as Picker>::PICKS;
    const SHOWS_FORCED: bool = <Moves as Picker>::SHOWS_FORCED;
    const WATCHES_OPS: bool = true;

    fn pick(&mut self, seat: u8, n: usize, ending: Option<usize>) -> usize {
        self.moves.pick(seat, n, ending)
    }

    fn goes_on(&mut self, st: &State) -> bool {
        self.moves.goes_on(st)
    }

    /// The moves' watch, and at an `outcome` the seats' cards: the deal is over, the
    /// next one gathers them.
    fn before_op(&mut self, p: &Program, st: &State, depth: usize, pc: usize, op: &Op) {
        self.moves.before_op(p, st, depth, pc, op);
        if let Op::Outcome(_) = op {
            self.hands.push_back(every_hand(p, st, self.me));
        }
    }
}
