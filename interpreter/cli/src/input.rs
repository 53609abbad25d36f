//! Understanding what a person types at a decision: a move number, an option name, an
//! option name with its card or cards (`副露 2m 3m`, `副露 23m`), or a card that
//! identifies one move.

use fuda_core::engine::{show, Move, Pending, PASS};
use fuda_core::ir::{Builtin, Expr, Op};
use fuda_core::suggest::closest;
use fuda_core::value::Value;
use fuda_core::Program;

/// What a line of input asks for.
#[derive(Debug, PartialEq)]
pub enum Reply {
    /// Take the move at this index.
    Move(usize),
    /// Show the table and the moves again.
    Help,
    /// Leave the game.
    Quit,
    /// Not a legal move: why.
    Invalid(String),
}

/// The words that name a move's option: its identifier and its label.
fn option_words(pending: &Pending, p: &Program, code: &[Op], m: &Move) -> Vec<String> {
    if m.option == PASS {
        return vec!["pass".into(), "見送り".into()];
    }
    let name = pending.option_name(code, m).to_string();
    let label = pending.describe(
        p,
        code,
        &Move {
            option: m.option,
            arg: Value::Unit,
        },
    );
    if label == name {
        vec![name]
    } else {
        vec![name, label]
    }
}

/// Whether `word` names a move's argument (a card by id, display name or both; a set of
/// cards by their ids, display names or compact tiles, copies of a card alike).
fn arg_matches(p: &Program, arg: &Value, word: &str) -> bool {
    match arg {
        Value::Unit => false,
        Value::Card(c) => {
            let d = &p.deck;
            let i = *c as usize;
            d.ids.get(i).is_some_and(|id| id.eq_ignore_ascii_case(word))
                || d.names.get(i).is_some_and(|n| n == word)
                || show::card(p, *c) == word
        }
        Value::Cards(set) => p
            .deck
            .parse_card_list(word)
            .is_ok_and(|cs| fuda_core::model::same_faces(&p.deck, *set, cs.into_iter().collect())),
        v => show::value(p, v) == word,
    }
}

/// A short name for an argument, as a person would type it (a card's id; a set's
/// compact tiles or ids).
fn arg_word(p: &Program, arg: &Value) -> String {
    match arg {
        Value::Card(c) => p.deck.ids.get(*c as usize).cloned().unwrap_or_default(),
        Value::Cards(set) => show::cards_word(p, *set),
        v => show::value(p, v),
    }
}

/// Whether the moves at `fit` are one move over interchangeable cards: the same option,
/// each over a copy of one card (the same id, as a mahjong hand's two 5s), so that
/// taking the first is taking any of them.
fn interchangeable(p: &Program, moves: &[Move], fit: &[usize]) -> bool {
    let id = |i: &usize| match moves[*i].arg {
        Value::Card(c) => p.deck.ids.get(c as usize).map(|id| (moves[*i].option, id)),
        _ => None,
    };
    let Some(first) = fit.first().and_then(id) else {
        return false;
    };
    fit.iter().all(|i| id(i) == Some(first))
}

/// Whether `word` names a card of the deck (its id, in any case, or its display name),
/// or cards of it (`2m 3m`, `23m`).
fn is_card(p: &Program, word: &str) -> bool {
    let d = &p.deck;
    d.ids.iter().any(|id| id.eq_ignore_ascii_case(word))
        || d.names.iter().any(|n| n == word)
        || d.parse_card_list(word).is_ok()
}

/// The first few of `words`, comma-separated, saying how many there are when not all.
fn some_of(words: &[String]) -> String {
    const SHOWN: usize = 10;
    let mut out = words
        .iter()
        .take(SHOWN)
        .map(|w| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if words.len() > SHOWN {
        out += &format!(", … ({} in all)", words.len());
    }
    out
}

/// Interprets a line of input against the legal moves.
pub fn parse(p: &Program, pending: &Pending, code: &[Op], moves: &[Move], line: &str) -> Reply {
    let text = line.trim();
    match text {
        "" => {
            return Reply::Invalid(
                "type the number of a move (or `?` to see the table again)".into(),
            )
        }
        "?" | "help" => return Reply::Help,
        "quit" | "exit" => return Reply::Quit,
        _ => {}
    }
    // A number, in ASCII or full-width digits (as a Japanese input method types them).
    let digits: String = text
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
            c => c,
        })
        .collect();
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return match digits.parse::<usize>() {
            Ok(n) if n >= 1 && n <= moves.len() => Reply::Move(n - 1),
            _ => Reply::Invalid(format!(
                "there is no move {text}: choose 1 to {}",
                moves.len()
            )),
        };
    }
    if let Ok(n) = text.parse::<i64>() {
        return Reply::Invalid(format!("there is no move {n}: choose 1 to {}", moves.len()));
    }
    if let Some(i) = moves
        .iter()
        .position(|m| pending.describe(p, code, m) == text)
    {
        return Reply::Move(i);
    }
    let (head, rest) = match text.split_once(char::is_whitespace) {
        Some((h, r)) => (h, r.trim()),
        None => (text, ""),
    };
    let named: Vec<usize> = (0..moves.len())
        .filter(|i| {
            option_words(pending, p, code, &moves[*i])
                .iter()
                .any(|w| w == head)
        })
        .collect();
    if !named.is_empty() {
        if rest.is_empty() {
            return match named.as_slice() {
                [i] => Reply::Move(*i),
                [i, ..] => Reply::Invalid(format!(
                    "`{head}` needs {}: {} moves fit, e.g. `{head} {}`",
                    match moves[*i].arg {
                        Value::Cards(_) => "cards",
                        _ => "a card",
                    },
                    named.len(),
                    arg_word(p, &moves[*i].arg)
                )),
                [] => unreachable!("checked non-empty"),
            };
        }
        let fit: Vec<usize> = named
            .iter()
            .copied()
            .filter(|i| arg_matches(p, &moves[*i].arg, rest))
            .collect();
        return match fit.as_slice() {
            [i] => Reply::Move(*i),
            [i, ..] if interchangeable(p, moves, &fit) => Reply::Move(*i),
            [] => {
                let mut args: Vec<String> = Vec::new();
                for i in &named {
                    let w = arg_word(p, &moves[*i].arg);
                    if !args.contains(&w) {
                        args.push(w);
                    }
                }
                // A near miss is named, by id or display name; otherwise, and for a
                // card of the deck the moves do not take (not a typo: a nearby id such
                // as `6z` for `1z` would be another card), what the move takes is listed.
                let near = (!is_card(p, rest))
                    .then(|| {
                        let names = named.iter().filter_map(|i| match moves[*i].arg {
                            Value::Card(c) => p.deck.names.get(c as usize),
                            _ => None,
                        });
                        let words: Vec<&str> = args
                            .iter()
                            .map(String::as_str)
                            .chain(names.map(String::as_str))
                            .collect();
                        closest(rest, words)
                    })
                    .flatten()
                    .and_then(|s| {
                        // Said as the id, which is what the move list shows to type.
                        named
                            .iter()
                            .find(|i| arg_matches(p, &moves[**i].arg, &s))
                            .map(|i| arg_word(p, &moves[*i].arg))
                    });
                let hint = match near {
                    Some(s) => format!(" (did you mean `{head} {s}`?)"),
                    None => format!(": `{head}` takes {}", some_of(&args)),
                };
                Reply::Invalid(format!("you cannot `{head}` with `{rest}` now{hint}"))
            }
            _ => Reply::Invalid(format!(
                "`{text}` fits {} moves: type its number",
                fit.len()
            )),
        };
    }
    // A card alone, when it identifies one move.
    let by_card: Vec<usize> = (0..moves.len())
        .filter(|i| arg_matches(p, &moves[*i].arg, text))
        .collect();
    match by_card.as_slice() {
        [i] => Reply::Move(*i),
        [i, ..] if interchangeable(p, moves, &by_card) => Reply::Move(*i),
        [_, ..] => Reply::Invalid(format!(
            "`{text}` fits {} moves: say which, e.g. `{} {text}`",
            by_card.len(),
            pending.option_name(code, &moves[by_card[0]])
        )),
        [] => {
            let mut words: Vec<String> = moves
                .iter()
                .flat_map(|m| option_words(pending, p, code, m))
                .collect();
            words.extend(
                moves
                    .iter()
                    .filter(|m| m.arg != Value::Unit)
                    .map(|m| arg_word(p, &m.arg)),
            );
            // A card of the deck that no move takes is not a typo: a nearby id would be
            // another card.
            let hint = (!is_card(p, text))
                .then(|| closest(text, words.iter().map(String::as_str)))
                .flatten()
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            Reply::Invalid(format!("`{text}` is not a move you can make now{hint}"))
        }
    }
}

/// The move a line names, legal or not — an option of the decision by its name or label
/// and the argument typed after it (cards, or a number) — so that a refused line can be
/// told why (`State::why_not`). `None` when the line names no option.
pub fn attempted(
    p: &Program,
    pending: &Pending,
    code: &[Op],
    line: &str,
) -> Option<(usize, Value)> {
    let Some(Op::Decide(d)) = code.get(pending.at as usize) else {
        return None;
    };
    let text = line.trim();
    let (head, rest) = match text.split_once(char::is_whitespace) {
        Some((h, r)) => (h, r.trim()),
        None => (text, ""),
    };
    let option = d
        .options
        .iter()
        .position(|o| o.name == head || o.label.as_deref() == Some(head))?;
    let arg = match &d.options[option].param {
        None => Value::Unit,
        Some((_, dom)) => {
            if let Ok(n) = rest.parse::<i64>() {
                Value::Int(n)
            } else {
                let cards: fuda_core::model::CardSet =
                    p.deck.parse_card_list(rest).ok()?.into_iter().collect();
                match (dom, cards.first()) {
                    // A move over `sets(…)` takes a set; any other over cards, one card.
                    (Expr::Call(Builtin::Sets, ..), _) => Value::Cards(cards),
                    (_, Some(c)) if cards.len() == 1 => Value::Card(c),
                    _ => return None,
                }
            }
        }
    };
    Some((option, arg))
}
