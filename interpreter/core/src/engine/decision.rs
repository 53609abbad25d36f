//! Decisions waiting for players: who decides, and the legal moves each may make.

use crate::ir::{DecideKind, Program};
use crate::value::Value;

/// The option index that stands for "pass" in a claim window.
pub const PASS: u16 = u16::MAX;

/// Options from this index on share the last bit of [`Pending::ends`].
pub const LATE_OPTIONS: u16 = 63;

/// One legal move: which option of the decision, with which argument.
#[derive(Clone, Debug, PartialEq)]
pub struct Move {
    /// Option index in the decision ([`PASS`] to let a claim go).
    pub option: u16,
    /// The bound argument (a card, an int, a seat), or `Unit`.
    pub arg: Value,
}

/// The moves open to one seat.
#[derive(Debug)]
pub struct SeatMoves {
    /// The seat.
    pub seat: u8,
    /// Its legal moves (in a claim window the first is always pass).
    pub moves: Vec<Move>,
    /// The index of the first move that may end the round ([`Pending::ends_round`]),
    /// noted as the moves are offered so that a player looking for a declared win need
    /// not scan them (see [`Pending::first_ending`]).
    pub first_ending: Option<usize>,
}

impl Clone for SeatMoves {
    fn clone(&self) -> SeatMoves {
        SeatMoves {
            seat: self.seat,
            moves: self.moves.clone(),
            first_ending: self.first_ending,
        }
    }

    /// Reuses this list (a lookahead copies the waiting decision once per move it tries).
    fn clone_from(&mut self, src: &SeatMoves) {
        self.seat = src.seat;
        self.moves.clone_from(&src.moves);
        self.first_ending = src.first_ending;
    }
}

/// A decision waiting for one or more seats.
#[derive(Debug)]
pub struct Pending {
    /// One seat, several at once, or a claim window.
    pub kind: DecideKind,
    /// Code index of the `Decide` op in the top frame.
    pub at: u32,
    /// The seats asked, in tie-break order.
    pub seats: Vec<SeatMoves>,
    /// The decision's [`crate::ir::Decide::ends`]: bit `i` is set when option `i` may end
    /// the round, bit 63 when any option from the 63rd on may, so an agent looking for
    /// a win need not look the decision up (see [`Pending::ends_round`]).
    pub ends: u64,
}

impl Pending {
    /// Whether the decision has a single possible outcome and is taken without asking
    /// anyone: a `choose` with one legal move, or a `choose each` in which every seat
    /// has one. A claim window never is (passing is always a move).
    pub fn is_forced(&self) -> bool {
        self.kind != DecideKind::Claim && self.seats.iter().all(|s| s.moves.len() == 1)
    }
}

impl Clone for Pending {
    fn clone(&self) -> Pending {
        Pending {
            kind: self.kind,
            at: self.at,
            seats: self.seats.clone(),
            ends: self.ends,
        }
    }

    /// Reuses this decision's lists (see [`SeatMoves::clone_from`]).
    fn clone_from(&mut self, src: &Pending) {
        self.kind = src.kind;
        self.at = src.at;
        self.seats.clone_from(&src.seats);
        self.ends = src.ends;
    }
}

impl Pending {
    /// Whether move `m` may end the round (a declared win): read off [`Pending::ends`],
    /// or off the decision itself for an option past the 63rd.
    pub fn ends_round(&self, code: &[crate::ir::Op], m: &Move) -> bool {
        if m.option == PASS {
            return false;
        }
        if m.option < LATE_OPTIONS {
            return self.ends >> m.option & 1 == 1;
        }
        self.ends >> LATE_OPTIONS & 1 == 1
            && match code.get(self.at as usize) {
                Some(crate::ir::Op::Decide(d)) => d
                    .options
                    .get(m.option as usize)
                    .is_some_and(|o| o.ends_round),
                _ => false,
            }
    }

    /// The index of the first of `moves` that may end the round: the one noted when
    /// they were offered, if `moves` is one of this decision's lists (as a player is
    /// given), else found by looking at each.
    pub fn first_ending(&self, code: &[crate::ir::Op], moves: &[Move]) -> Option<usize> {
        match self
            .seats
            .iter()
            .find(|s| std::ptr::eq(s.moves.as_slice(), moves))
        {
            Some(s) => s.first_ending,
            None => moves.iter().position(|m| self.ends_round(code, m)),
        }
    }

    /// A short description of a move: the option's label or name, and its argument.
    pub fn describe(&self, p: &Program, code: &[crate::ir::Op], m: &Move) -> String {
        if m.option == PASS {
            return "見送り (pass)".into();
        }
        let Some(crate::ir::Op::Decide(d)) = code.get(self.at as usize) else {
            return "?".into();
        };
        let Some(o) = d.options.get(m.option as usize) else {
            return "?".into();
        };
        let name = o.label.clone().unwrap_or_else(|| o.name.clone());
        match &m.arg {
            Value::Unit => name,
            // A set as typed: `副露 23m`.
            Value::Cards(s) => format!("{name} {}", super::show::cards_word(p, *s)),
            v => format!("{name} {}", super::show::value(p, v)),
        }
    }

    /// The option's name (its identifier, for typed input and replays).
    pub fn option_name<'a>(&self, code: &'a [crate::ir::Op], m: &Move) -> &'a str {
        if m.option == PASS {
            return "pass";
        }
        match code.get(self.at as usize) {
            Some(crate::ir::Op::Decide(d)) => d
                .options
                .get(m.option as usize)
                .map(|o| o.name.as_str())
                .unwrap_or("?"),
            _ => "?",
        }
    }
}
