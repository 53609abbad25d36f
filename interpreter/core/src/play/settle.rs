//! Running a ruleset's settlement procedure on a described table: the cards of a round's
//! end placed in their zones, so a person can score a capture pile or a finished round
//! without playing it (`fuda score --settle`).

use std::sync::Arc;

use crate::engine::{CodeRef, Event, RuntimeError, State};
use crate::ir::{Loc, Owner, Program};
use crate::model::{CardIx, CardSet};
use crate::value::{ScoreResult, SymDomain, Type, Value};

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

/// A variable's value set for a settlement (`本場 = 2`, `立直[1] = true`): the table
/// as the round left it, where the procedure reads it.
#[derive(Clone, Debug)]
pub struct VarValue {
    /// The variable (an index into `Program::vars`).
    pub var: u16,
    /// The seat, for a per-seat variable.
    pub seat: Option<u8>,
    /// Its value.
    pub value: Value,
}

/// A described end of round: the procedure that settles it and its arguments, the
/// dealer, the cards in their zones and the variables that differ from a new game's.
#[derive(Clone, Debug, Default)]
pub struct Described {
    /// The settling procedure's name.
    pub proc: String,
    /// Its arguments, in order.
    pub args: Vec<Value>,
    /// The dealer's seat.
    pub dealer: u8,
    /// Cards placed by zone.
    pub zones: Vec<ZoneCards>,
    /// Variables set.
    pub vars: Vec<VarValue>,
}

impl Described {
    /// Procedure `proc` with no arguments, dealer 0, nothing placed or set.
    pub fn proc(proc: &str) -> Described {
        Described {
            proc: proc.to_string(),
            ..Described::default()
        }
    }
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
/// first shared zone), sets the dealer and the variables, runs the procedure with its
/// arguments and reports the chips and results. The procedure may not ask for decisions.
pub fn settle(
    p: &Program,
    params: &[Option<Value>],
    d: &Described,
) -> Result<Settlement, SettleError> {
    let (proc, dealer, zones) = (d.proc.as_str(), d.dealer, d.zones.as_slice());
    let q = p.proc_named(proc).ok_or_else(|| {
        let names: Vec<&str> = p.procs.iter().map(|q| q.name.as_str()).collect();
        let mut m = format!("the ruleset has no procedure `{proc}`");
        if let Some(s) = crate::suggest::closest(proc, names.iter().copied()) {
            m.push_str(&format!(" (did you mean `{s}`?)"));
        }
        SettleError::Input(m)
    })?;
    let def = &p.procs[q as usize];
    if d.args.len() != def.arity as usize {
        return Err(SettleError::Input(format!(
            "procedure `{proc}` takes {} argument{} ({}), not {}",
            def.arity,
            if def.arity == 1 { "" } else { "s" },
            signature(p, q),
            d.args.len()
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
    for (i, a) in d.args.iter().enumerate() {
        let ty = &def.slots[i];
        if !fits(p, st.board.seats, a, ty) {
            return Err(SettleError::Input(format!(
                "argument `{}` of `{proc}` is a {}",
                def.params[i],
                type_name(p, ty)
            )));
        }
    }
    for v in &d.vars {
        set_var(p, &mut st, v)?;
    }
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
    let ledger0 = st.ledger_sum();
    st.keep_log = true;
    st.push_frame(p, CodeRef::Proc(q), d.args.clone());
    let finished = st.advance(p).map_err(SettleError::Runtime)?;
    if !finished {
        return Err(SettleError::Runtime(RuntimeError::new(
            format!("procedure `{proc}` asks for a decision; a settlement must run on its own"),
            Loc::default(),
        )));
    }
    // A settlement pays between the ledger's variables, as every game does: one that
    // creates or loses chips is a mistake in the rules, not a result to report.
    let ledger = st.ledger_sum();
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

/// `name: type, …`: procedure `q`'s parameters, for an error that asks for them.
pub fn signature(p: &Program, q: u16) -> String {
    let def = &p.procs[q as usize];
    def.params
        .iter()
        .zip(&def.slots)
        .map(|(n, t)| format!("{n}: {}", type_name(p, t)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Sets one described variable, checking its seat and the value's type.
fn set_var(p: &Program, st: &mut State, v: &VarValue) -> Result<(), SettleError> {
    let def = p
        .vars
        .get(v.var as usize)
        .ok_or_else(|| SettleError::Input(format!("no variable number {}", v.var)))?;
    if def.per_card || def.per_key.is_some() {
        return Err(SettleError::Input(format!(
            "`{}` is kept per card or per value and cannot be described",
            def.name
        )));
    }
    let seats = st.board.seats;
    match (def.per_seat, v.seat) {
        (true, None) => {
            return Err(SettleError::Input(format!(
                "`{}` is one per seat: write `{}[seat]`",
                def.name, def.name
            )))
        }
        (false, Some(_)) => {
            return Err(SettleError::Input(format!(
                "`{}` is shared: write it without a seat",
                def.name
            )))
        }
        (true, Some(s)) if s >= seats => {
            return Err(SettleError::Input(format!(
                "seat {s} does not exist: seats are 0..{}",
                seats - 1
            )))
        }
        _ => {}
    }
    if !fits(p, seats, &v.value, &def.ty) {
        return Err(SettleError::Input(format!(
            "`{}` is a {}",
            def.name,
            type_name(p, &def.ty)
        )));
    }
    let slot = st.board.var_slot(v.var, v.seat);
    st.board.vars[slot] = v.value.clone();
    Ok(())
}

/// Whether `v` is a value of type `ty` at a table of `seats` seats: what the rules may
/// take for granted of an argument or a variable.
fn fits(p: &Program, seats: u8, v: &Value, ty: &Type) -> bool {
    match (ty, v) {
        (Type::Int, Value::Int(_)) | (Type::Bool, Value::Bool(_)) => true,
        (Type::Str, Value::Str(_)) | (Type::Cards, Value::Cards(_)) => true,
        (Type::Seat, Value::Seat(s)) => *s < seats,
        (Type::Card, Value::Card(c)) => (*c as usize) < p.deck.len(),
        (Type::Sym(SymDomain::Enum(e)), Value::Sym(x)) => p
            .enums
            .get(*e as usize)
            .is_some_and(|d| d.values.iter().any(|(y, _)| y == x)),
        (Type::Sym(_), Value::Sym(_)) => true,
        (Type::List(item), Value::List(xs)) => xs.iter().all(|x| fits(p, seats, x, item)),
        _ => false,
    }
}

/// A type as the rules write it: an enum by its name (`和了`), others as described.
fn type_name(p: &Program, ty: &Type) -> String {
    match ty {
        Type::Sym(SymDomain::Enum(e)) => p
            .enums
            .get(*e as usize)
            .map_or_else(|| ty.describe(), |d| d.name.clone()),
        Type::List(item) => format!("list of {}", type_name(p, item)),
        other => other.describe(),
    }
}
