//! Running a ruleset's settlement procedure on a described table: the cards of a round's
//! end placed in their zones, so a person can score a capture pile or a finished round
//! without playing it (`fuda score --settle`).

use std::sync::Arc;

use crate::engine::{CodeRef, Event, RuntimeError, State};
use crate::ir::{Loc, Owner, Program};
use crate::model::{CardIx, CardSet};
use crate::value::{ScoreResult, Value};

/// Cards described for one zone: the zone's name, the seat for a per-seat zone, and
/// the cards (bottom first for a stack).
#[derive(Clone, Debug)]
pub struct ZoneCards {
    /// Declared zone name.
    pub zone: String,
    /// The seat, for a per-seat zone.
    pub seat: Option<u8>,
    /// The cards.
    pub cards: Vec<CardIx>,
}

/// What a settlement produced.
#[derive(Clone, Debug, Default)]
pub struct Settlement {
    /// Seats in the game.
    pub seats: u8,
    /// The dealer.
    pub dealer: u8,
    /// Each seat's change in the per-seat ledger variable (its chips).
    pub chips: Vec<i64>,
    /// Results recorded, by seat.
    pub records: Vec<(u8, Arc<ScoreResult>)>,
    /// Outcome labels.
    pub outcomes: Vec<Arc<str>>,
    /// Messages from `say`.
    pub log: Vec<String>,
}

/// Why a described table could not be settled.
#[derive(Clone, Debug)]
pub enum SettleError {
    /// The description itself is wrong (unknown zone, a card twice, a bad seat…).
    Input(String),
    /// The rules stopped (a `require` failed, or another run-time error).
    Runtime(RuntimeError),
}

/// Places the described cards (every other card stays where a new game puts it: the
/// first shared zone), sets the dealer, runs procedure `proc` with no arguments and
/// reports the chips and results. The procedure may not ask for decisions.
pub fn settle(
    p: &Program,
    params: &[Option<Value>],
    proc: &str,
    dealer: u8,
    zones: &[ZoneCards],
) -> Result<Settlement, SettleError> {
    let q = p.proc_named(proc).ok_or_else(|| {
        let names: Vec<&str> = p.procs.iter().map(|q| q.name.as_str()).collect();
        let mut m = format!("the ruleset has no procedure `{proc}`");
        if let Some(s) = crate::suggest::closest(proc, names.iter().copied()) {
            m.push_str(&format!(" (did you mean `{s}`?)"));
        }
        SettleError::Input(m)
    })?;
    if p.procs[q as usize].arity != 0 {
        return Err(SettleError::Input(format!(
            "procedure `{proc}` takes arguments; a settlement takes none"
        )));
    }
    let mut st = State::blank(p, params, 0).map_err(SettleError::Runtime)?;
    if dealer >= st.board.seats {
        return Err(SettleError::Input(format!(
            "dealer {dealer} does not exist: seats are 0..{}",
            st.board.seats - 1
        )));
    }
    st.board.dealer = dealer;
    let mut seen = CardSet::EMPTY;
    for zc in zones {
        let Some(z) = p.zones.iter().position(|d| d.name == zc.zone) else {
            let names: Vec<&str> = p.zones.iter().map(|d| d.name.as_str()).collect();
            let mut m = format!("the ruleset has no zone `{}`", zc.zone);
            if let Some(s) = crate::suggest::closest(&zc.zone, names.iter().copied()) {
                m.push_str(&format!(" (did you mean `{s}`?)"));
            }
            return Err(SettleError::Input(m));
        };
        let per_seat = p.zones[z].owner == Owner::PerSeat;
        match (per_seat, zc.seat) {
            (true, None) => {
                return Err(SettleError::Input(format!(
                    "`{}` is one per seat: write `{}[seat]`",
                    zc.zone, zc.zone
                )))
            }
            (false, Some(_)) => {
                return Err(SettleError::Input(format!(
                    "`{}` is shared: write it without a seat",
                    zc.zone
                )))
            }
            (true, Some(s)) if s >= st.board.seats => {
                return Err(SettleError::Input(format!(
                    "seat {s} does not exist: seats are 0..{}",
                    st.board.seats - 1
                )))
            }
            _ => {}
        }
        let inst = st.board.zone_instance(z as u16, zc.seat);
        for c in &zc.cards {
            if seen.contains(*c) {
                return Err(SettleError::Input(format!(
                    "{} is given twice",
                    crate::engine::show::card(p, *c)
                )));
            }
            seen.insert(*c);
            st.board.move_card(*c, inst);
        }
    }
    let before: Vec<i64> = crate::play::chips_of(p, &st);
    let ledger0 = st.ledger_sum(p);
    st.keep_log = true;
    st.push_frame(p, CodeRef::Proc(q), Vec::new());
    let finished = st.advance(p).map_err(SettleError::Runtime)?;
    if !finished {
        return Err(SettleError::Runtime(RuntimeError::new(
            format!("procedure `{proc}` asks for a decision; a settlement must run on its own"),
            Loc::default(),
        )));
    }
    // A settlement pays between the ledger's variables, as every game does: one that
    // creates or loses chips is a mistake in the rules, not a result to report.
    let ledger = st.ledger_sum(p);
    if ledger != ledger0 {
        return Err(SettleError::Runtime(
            RuntimeError::new(
                format!(
                    "procedure `{proc}` does not balance: the ledger ({}) sums to {ledger}, not {ledger0}",
                    p.ledger_names()
                ),
                p.procs[q as usize].loc,
            )
            .with_help("a described end that leaves cards out of every pile does not balance: place them all (a `require` in the procedure can refuse such a description); otherwise the procedure creates or loses chips: move them with `pay`"),
        ));
    }
    let after = crate::play::chips_of(p, &st);
    let mut out = Settlement {
        seats: st.board.seats,
        dealer: st.board.dealer,
        chips: after.iter().zip(&before).map(|(a, b)| a - b).collect(),
        ..Settlement::default()
    };
    for e in st.events.drain(..) {
        match e {
            Event::Record(s, r, _) => out.records.push((s, r)),
            Event::Outcome(o, _) => out.outcomes.push(o),
            Event::Say(m) => out.log.push(m),
            Event::Tally(..) => {}
        }
    }
    Ok(out)
}
