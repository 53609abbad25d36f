//! Reading values typed by a person (`--set win=tsumo`, `--hand "1-crane …"`) or found
//! in JSON, checked against the type the ruleset declares.

use fuda_core::model::{CardIx, CardParseError, CardSet};
use fuda_core::suggest::closest;
use fuda_core::value::{SymDomain, Type, Value};
use fuda_core::Program;
use miette::miette;

/// Resolves a card list (ids, display names or compact `123m`) into cards, in order.
pub fn cards(p: &Program, text: &str) -> miette::Result<Vec<CardIx>> {
    p.deck.parse_card_list(text).map_err(|e| card_error(p, e))
}

/// Resolves a JSON array of card words, one per element.
fn cards_from_list(p: &Program, items: &[serde_json::Value]) -> miette::Result<Vec<CardIx>> {
    let mut words = Vec::with_capacity(items.len());
    for it in items {
        match it {
            serde_json::Value::String(s) => words.push(s.as_str()),
            other => {
                return Err(miette!(
                    "a card list holds card ids as strings, found {other}"
                ))
            }
        }
    }
    p.deck.parse_cards(&words).map_err(|e| card_error(p, e))
}

/// Cards from a JSON string (a space-separated list) or an array of ids.
pub fn cards_json(p: &Program, v: &serde_json::Value) -> miette::Result<Vec<CardIx>> {
    match v {
        serde_json::Value::String(s) => cards(p, s),
        serde_json::Value::Array(items) => cards_from_list(p, items),
        other => Err(miette!(
            "cards are given as a string of ids or an array of ids, found {other}"
        )),
    }
}

fn card_error(p: &Program, e: CardParseError) -> miette::Report {
    match e {
        CardParseError::Unknown(w) => {
            let help = match suggest_card(p, &w) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!(
                    "cards are named by id, e.g. `{}`",
                    p.deck.ids.first().map(String::as_str).unwrap_or("?")
                ),
            };
            miette!(
                code = "fuda::cli::unknown-card",
                help = help,
                "no card is called `{w}` in the {} deck",
                deck_name(p)
            )
        }
        CardParseError::TooMany(w, id) => {
            let copies = p.deck.copies_of(&id);
            let held = if copies == 1 {
                "once".to_string()
            } else {
                format!("{copies} copies")
            };
            let shown = crate::render::brief(&w, crate::render::QUOTED_CHARS);
            if w == id {
                miette!(
                    code = "fuda::cli::card-twice",
                    help = "each physical card can be given once",
                    "`{shown}` is given more often than the deck holds it ({held})"
                )
            } else {
                miette!(
                    code = "fuda::cli::card-twice",
                    help = "each physical card can be given once",
                    "`{shown}` gives `{id}` more often than the deck holds it ({held})"
                )
            }
        }
    }
}

/// The card a mistyped word most likely meant, for "did you mean". Tried in order: an
/// id or display name that differs only in case (`1-RIBBON`); the closest id with the
/// same number or month before its `-` (`11-kasu-a` means `11-kasu`, not `1-kasu-a`:
/// the number is rarely what was mistyped, and one digit is a small edit that would
/// otherwise win); the closest id or display name of the whole deck (`松に靏`).
/// Comparisons ignore case.
fn suggest_card(p: &Program, word: &str) -> Option<String> {
    let deck = &p.deck;
    // Each face once (copies share an id): its id, then its display name.
    let faces: Vec<(&str, &str)> = deck
        .face_cards
        .iter()
        .filter_map(|cs| cs.first())
        .map(|&c| {
            let c = c as usize;
            (
                deck.ids[c].as_str(),
                deck.names.get(c).map_or("", String::as_str),
            )
        })
        .collect();
    let lower = word.to_lowercase();
    let words = || {
        faces
            .iter()
            .flat_map(|(id, name)| [*id, *name])
            .filter(|w| !w.is_empty())
    };
    if let Some(w) = words().find(|w| w.to_lowercase() == lower) {
        return Some(w.to_string());
    }
    let number = word
        .split_once('-')
        .map(|(n, _)| n)
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    if let Some(n) = number {
        let prefix = format!("{n}-");
        let same = faces
            .iter()
            .map(|(id, _)| *id)
            .filter(|id| id.starts_with(&prefix));
        if let Some(s) = closest_ignoring_case(&lower, same) {
            return Some(s);
        }
    }
    closest_ignoring_case(&lower, words())
}

/// [`closest`] over lower-cased candidates, answering with the candidate as written.
fn closest_ignoring_case<'a>(
    lower: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<String> {
    let pairs: Vec<(String, &str)> = candidates.map(|c| (c.to_lowercase(), c)).collect();
    let best = closest(lower, pairs.iter().map(|(l, _)| l.as_str()))?;
    pairs
        .iter()
        .find(|(l, _)| *l == best)
        .map(|(_, c)| c.to_string())
}

fn deck_name(p: &Program) -> &str {
    if p.deck.name.is_empty() {
        "ruleset's"
    } else {
        &p.deck.name
    }
}

/// The cards' ids, in order.
pub fn ids(p: &Program, cs: &[CardIx]) -> Vec<String> {
    cs.iter()
        .map(|c| {
            p.deck
                .ids
                .get(*c as usize)
                .cloned()
                .unwrap_or_else(|| format!("#{c}"))
        })
        .collect()
}

/// Reads a value of type `ty` from command-line text; `what` names it in errors.
pub fn from_text(p: &Program, ty: &Type, text: &str, what: &str) -> miette::Result<Value> {
    let t = text.trim();
    match ty {
        Type::Int => t
            .parse::<i64>()
            .map(Value::Int)
            .map_err(|_| miette!("`{what}` is a whole number, got `{t}`")),
        // One rule on the command line and in JSON alike: `true` or `false`, in any
        // case. Other words (yes, on, 1) are refused rather than guessed at, since a
        // guess would need a list that every user remembers the same way.
        Type::Bool => match t.to_ascii_lowercase().as_str() {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(not_bool(what, &format!("`{t}`"))),
        },
        Type::Seat => t
            .parse::<u8>()
            .map(Value::Seat)
            .map_err(|_| miette!("`{what}` is a seat number, got `{t}`")),
        Type::Cards => Ok(Value::Cards(cards(p, t)?.into_iter().collect::<CardSet>())),
        Type::Card => match cards(p, t)?.as_slice() {
            [c] => Ok(Value::Card(*c)),
            cs => Err(miette!("`{what}` is one card, got {}", cs.len())),
        },
        Type::Sym(dom) => symbol(p, dom, t, what),
        Type::Str => Ok(Value::Str(t.into())),
        // A list: items split by `/` for card sets (whose cards a comma or space may
        // part: `副=123m/999s`), by `,` otherwise; nothing is the empty list.
        Type::List(item) if !matches!(**item, Type::List(_)) => {
            let sep = if matches!(**item, Type::Cards) {
                '/'
            } else {
                ','
            };
            let items: miette::Result<Vec<Value>> = t
                .split(sep)
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(|x| from_text(p, item, x, what))
                .collect();
            Ok(Value::List(items?.into()))
        }
        other => Err(miette!(
            "`{what}` is a {} and cannot be given on the command line",
            other.describe()
        )),
    }
}

/// The error for a boolean given as anything but true or false.
fn not_bool(what: &str, got: &str) -> miette::Report {
    miette!(
        code = "fuda::cli::bad-value",
        help = "write `true` or `false`, in any case; JSON also takes bare true and false",
        "`{what}` is true or false, got {got}"
    )
}

/// Reads a value of type `ty` from JSON: booleans, numbers, and strings read as on the
/// command line.
pub fn from_json(
    p: &Program,
    ty: &Type,
    v: &serde_json::Value,
    what: &str,
) -> miette::Result<Value> {
    match (ty, v) {
        (Type::Bool, serde_json::Value::Bool(b)) => Ok(Value::Bool(*b)),
        (Type::Bool, serde_json::Value::String(s)) => from_text(p, ty, s, what),
        (Type::Bool, other) => Err(not_bool(what, &other.to_string())),
        (Type::Int, serde_json::Value::Number(n)) => n
            .as_i64()
            .map(Value::Int)
            .ok_or_else(|| miette!("`{what}` is a whole number, got {n}")),
        (Type::Seat, serde_json::Value::Number(n)) => n
            .as_u64()
            .filter(|s| *s < 256)
            .map(|s| Value::Seat(s as u8))
            .ok_or_else(|| miette!("`{what}` is a seat number, got {n}")),
        (Type::Cards, v) => Ok(Value::Cards(
            cards_json(p, v)?.into_iter().collect::<CardSet>(),
        )),
        // A list is a JSON array of its items (`"副": ["123m", "999s"]`).
        (Type::List(item), serde_json::Value::Array(xs)) => {
            let items: miette::Result<Vec<Value>> =
                xs.iter().map(|x| from_json(p, item, x, what)).collect();
            Ok(Value::List(items?.into()))
        }
        (_, serde_json::Value::String(s)) => from_text(p, ty, s, what),
        (_, other) => Err(miette!("`{what}` is a {}, got {other}", ty.describe())),
    }
}

/// A symbol by name or (case-insensitive) ASCII alias.
fn symbol(p: &Program, dom: &SymDomain, t: &str, what: &str) -> miette::Result<Value> {
    // Each candidate: the symbol, and the words that name it.
    let candidates: Vec<(u32, Vec<String>)> = match dom {
        SymDomain::Enum(e) => p
            .enums
            .get(*e as usize)
            .map(|e| {
                e.values
                    .iter()
                    .map(|(s, aliases)| {
                        (
                            *s,
                            std::iter::once(p.sym(*s).to_string())
                                .chain(aliases.iter().cloned())
                                .collect(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default(),
        SymDomain::Attr(a) => match p.deck.attrs.get(*a as usize).map(|a| &a.kind) {
            Some(fuda_core::model::AttrKind::Symbols(syms)) => syms
                .iter()
                .map(|s| (*s, vec![p.sym(*s).to_string()]))
                .collect(),
            _ => Vec::new(),
        },
        SymDomain::Yaku => (0..p.symbols.len() as u32)
            .map(|s| (s, vec![p.sym(s).to_string()]))
            .collect(),
    };
    for (sym, words) in &candidates {
        if words
            .iter()
            .any(|w| w == t || (w.is_ascii() && w.eq_ignore_ascii_case(t)))
        {
            return Ok(Value::Sym(*sym));
        }
    }
    let all: Vec<&str> = candidates
        .iter()
        .flat_map(|(_, w)| w.iter().map(String::as_str))
        .collect();
    let listed = candidates
        .iter()
        .map(|(_, w)| display_words(w))
        .collect::<Vec<_>>()
        .join(", ");
    let help = match closest(t, all.iter().copied()) {
        Some(s) => format!("did you mean `{s}`? (one of {listed})"),
        None => format!("one of {listed}"),
    };
    Err(miette!(
        code = "fuda::cli::bad-value",
        help = help,
        "`{t}` is not a value of `{what}`"
    ))
}

/// `上がり (tsumo)`.
fn display_words(w: &[String]) -> String {
    match w {
        [name] => name.clone(),
        [name, aliases @ ..] => format!("{name} ({})", aliases.join(", ")),
        [] => String::new(),
    }
}

/// Splits `NAME=VALUE`.
pub fn split_assignment(s: &str) -> miette::Result<(&str, &str)> {
    match s.split_once('=') {
        Some((n, v)) if !n.trim().is_empty() => Ok((n.trim(), v.trim())),
        _ => Err(miette!(
            code = "fuda::cli::bad-set",
            help = "write it as NAME=VALUE, e.g. `--set win=tsumo`",
            "`{s}` is not NAME=VALUE"
        )),
    }
}

/// An unknown-name error with a did-you-mean among `known`.
pub fn unknown_name<'a>(
    kind: &str,
    name: &str,
    known: impl IntoIterator<Item = &'a str> + Clone,
) -> miette::Report {
    let list: Vec<&str> = known.clone().into_iter().collect();
    let help = match closest(name, known) {
        Some(s) => format!("did you mean `{s}`?"),
        None if list.is_empty() => format!("there is no {kind} to set"),
        None => format!("known: {}", list.join(", ")),
    };
    miette!(
        code = "fuda::cli::unknown-name",
        help = help,
        "there is no {kind} called `{name}`"
    )
}
