//! Showing values to people: cards by their Japanese names, seats by role.

use super::state::Board;
use crate::ir::Program;
use crate::value::Value;

/// A value as text, a zone as the cards it holds on board `b` (a zone reads as its
/// cards, in text as everywhere else); without a board, as [`value`].
pub fn value_on(p: &Program, b: Option<&Board>, v: &Value) -> String {
    match (v, b) {
        (Value::Zone(z), Some(b)) => match b.sets.get(*z as usize) {
            Some(s) => value(p, &Value::Cards(*s)),
            None => value(p, v),
        },
        (Value::List(l), Some(_)) => format!(
            "[{}]",
            l.iter()
                .map(|x| value_on(p, b, x))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => value(p, v),
    }
}

/// A value as text: cards by display name and id, symbols by name.
pub fn value(p: &Program, v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Seat(s) => format!("seat {s}"),
        Value::Card(c) => card(p, *c),
        Value::Cards(s) => s.iter().map(|c| card(p, c)).collect::<Vec<_>>().join(" "),
        Value::Sym(s) => p.sym(*s).to_string(),
        Value::Str(s) => s.to_string(),
        Value::List(l) => format!(
            "[{}]",
            l.iter().map(|x| value(p, x)).collect::<Vec<_>>().join(", ")
        ),
        Value::Zone(z) => format!("zone {z}"),
        Value::ZoneFamily(z) => p
            .zones
            .get(*z as usize)
            .map(|z| z.name.clone())
            .unwrap_or_default(),
        Value::Score(r) => format!("{} {}", r.name, r.total),
        Value::Range(a, b) => format!("{a}..{b}"),
        Value::Unit => "()".into(),
    }
}

/// A set of cards as a person types it: compact tile notation (`23m`, `11z5p`) when
/// every id of the deck is a digit and a letter, as a mahjong deck's are, otherwise
/// the ids joined by spaces (`3a 3b`). Either form is read back by
/// [`Deck::parse_card_list`](crate::model::Deck::parse_card_list) and `cards("…")`.
pub fn cards_word(p: &Program, set: crate::model::CardSet) -> String {
    let d = &p.deck;
    let tile =
        |id: &str| matches!(id.as_bytes(), [n, s] if n.is_ascii_digit() && s.is_ascii_alphabetic());
    let ids = set
        .iter()
        .map(|c| d.ids.get(c as usize).map_or("?", String::as_str));
    if !d.ids.iter().all(|id| tile(id)) {
        return ids.collect::<Vec<_>>().join(" ");
    }
    // A run of tiles of one suit is written as its numbers, then the suit once.
    let mut out = String::new();
    let mut suit: Option<char> = None;
    for id in ids {
        let mut chars = id.chars();
        let (n, s) = (chars.next().unwrap_or('?'), chars.next().unwrap_or('?'));
        if let Some(prev) = suit.filter(|prev| *prev != s) {
            out.push(prev);
        }
        out.push(n);
        suit = Some(s);
    }
    if let Some(s) = suit {
        out.push(s);
    }
    out
}

/// A card as `名 (id)`.
pub fn card(p: &Program, c: crate::model::CardIx) -> String {
    let d = &p.deck;
    match (d.names.get(c as usize), d.ids.get(c as usize)) {
        (Some(n), Some(i)) => format!("{n}({i})"),
        _ => format!("#{c}"),
    }
}
