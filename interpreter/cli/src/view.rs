//! Showing cards, seats and the table to a person: Japanese names with ids, columns
//! aligned by display width, lists of cards wrapped between cards, and only what a
//! seat is allowed to see.

mod wrap;

use fuda_core::engine::show;
use fuda_core::ir::{Order, Owner};
use fuda_core::model::{CardIx, CardSet};
use fuda_core::value::{ScoreResult, Text};
use fuda_core::{Program, State};
use unicode_width::UnicodeWidthStr;

pub use wrap::{rows, screen_width, wrap};

/// Cards as `松に鶴(1-crane) 桜に幕(3-curtain)`.
pub fn cards(p: &Program, cs: &[CardIx]) -> String {
    card_words(p, cs).join(" ")
}

/// Each card as `松に鶴(1-crane)`: the words a wrapped line keeps whole.
pub fn card_words(p: &Program, cs: &[CardIx]) -> Vec<String> {
    cs.iter().map(|c| show::card(p, *c)).collect()
}

/// Tiles in compact mahjong notation, when every card's id is a digit and a suit letter
/// (`1m`…`9m`, `1p`, `1s`, `1z`…): the digits of a run of one suit share its letter
/// (`478m 1446p`), honours (`z`) are shown by their names (`東東白`). `None` for other
/// decks.
pub fn tiles(p: &Program, cs: &[CardIx]) -> Option<String> {
    let mut out = String::new();
    let mut run: Option<char> = None;
    for c in cs {
        let id = p.deck.ids.get(*c as usize)?;
        let mut chars = id.chars();
        let (Some(digit), Some(suit), None) = (chars.next(), chars.next(), chars.next()) else {
            return None;
        };
        if !digit.is_ascii_digit() || !matches!(suit, 'm' | 'p' | 's' | 'z') {
            return None;
        }
        if suit == 'z' {
            if let Some(r) = run.take() {
                out.push(r);
                out.push(' ');
            }
            out.push_str(p.deck.names.get(*c as usize)?);
            continue;
        }
        if run.is_some_and(|r| r != suit) {
            if let Some(r) = run {
                out.push(r);
                out.push(' ');
            }
        } else if run.is_none() && !out.is_empty() {
            out.push(' ');
        }
        out.push(digit);
        run = Some(suit);
    }
    if let Some(r) = run {
        out.push(r);
    }
    Some(out)
}

/// A split's groups by name, in the pattern's order, with the copies of a repeated
/// group (`group 面子*3`, consecutive in the split) under one name, in the split's order.
pub fn group_runs(groups: &[(Text, CardSet)]) -> Vec<(&str, Vec<CardSet>)> {
    let mut out: Vec<(&str, Vec<CardSet>)> = Vec::new();
    for (name, cs) in groups {
        match out.last_mut() {
            Some((last, copies)) if *last == &**name => copies.push(*cs),
            _ => out.push((name, vec![*cs])),
        }
    }
    out
}

/// A split's groups as lines `名: cards`, a repeated group's copies as `面子[0]`,
/// `面子[1]`… (as a score table reads them).
pub fn group_lines(p: &Program, groups: &[(Text, CardSet)]) -> Vec<String> {
    let mut out = Vec::new();
    for (name, copies) in group_runs(groups) {
        for (i, cs) in copies.iter().enumerate() {
            let shown = cards(p, &cs.iter().collect::<Vec<_>>());
            out.push(if copies.len() > 1 {
                format!("{name}[{i}]: {shown}")
            } else {
                format!("{name}: {shown}")
            });
        }
    }
    out
}

/// A split's groups as rows (`名:`, its cards) for [`rows`] with a gap of 1:
/// [`group_lines`] for a screen of a given width.
pub fn group_rows(p: &Program, groups: &[(Text, CardSet)]) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for (name, copies) in group_runs(groups) {
        for (i, cs) in copies.iter().enumerate() {
            let label = if copies.len() > 1 {
                format!("{name}[{i}]:")
            } else {
                format!("{name}:")
            };
            out.push((label, card_words(p, &cs.iter().collect::<Vec<_>>())));
        }
    }
    out
}

/// A score result's lines as the text reports show them, names padded to one width:
/// `赤五光     40`, then each bonus (`福上がり   15`); they add up to the total.
pub fn yaku_lines(r: &ScoreResult) -> Vec<String> {
    let w = r.yaku.iter().map(|y| width(&y.name)).max().unwrap_or(0);
    r.yaku
        .iter()
        .map(|y| format!("{}  {:>3}", pad(&y.name, w), y.value))
        .collect()
}

/// How a score result's total is made: `base 20 × factor 2 + bonus 15 = total 55`.
pub fn sum_line(r: &ScoreResult) -> String {
    format!(
        "base {} × factor {} + bonus {} = total {}",
        r.base, r.factor, r.bonus, r.total
    )
}

/// Display width (a kanji takes two columns).
pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// Pads to a display width.
pub fn pad(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(width(s))))
}

/// `seat 1 (胴二)`, or `you (seat 0, 親)` for the person's own seat.
pub fn seat(p: &Program, st: &State, s: u8, me: Option<u8>) -> String {
    seat_under(p, st, st.board.dealer, s, me)
}

/// Like [`seat`], with roles as they were when `dealer` dealt (the dealer may have
/// changed since, e.g. to the winner of the deal being reported).
pub fn seat_under(p: &Program, st: &State, dealer: u8, s: u8, me: Option<u8>) -> String {
    let role = crate::params::role(p, st.board.seats, dealer, s);
    match (me == Some(s), role) {
        (true, Some(r)) => format!("you (seat {s}, {r})"),
        (true, None) => format!("you (seat {s})"),
        (false, Some(r)) => format!("seat {s} ({r})"),
        (false, None) => format!("seat {s}"),
    }
}

/// Everything `me` may see: each zone by name with its cards (a count for what is
/// hidden), wrapped to `columns`, and the ledger variables (chips, pot), which are public.
pub fn table(p: &Program, st: &State, me: u8, columns: usize) -> String {
    let b = &st.board;
    let visible = st.visible_to(p, me);
    let mut lines: Vec<(String, Vec<String>)> = Vec::new();
    // A per-seat zone that is empty at every seat is one row, not one per seat: in a
    // four-player fishing game most of the table is such zones between deals.
    let all_empty = |z: u16| {
        b.layout
            .zone_of
            .iter()
            .zip(b.zones.iter())
            .all(|((z2, _), cs)| *z2 != z || cs.is_empty())
    };
    let mut collapsed: Vec<u16> = Vec::new();
    for (i, (z, _)) in b.layout.zone_of.iter().enumerate() {
        let def = &p.zones[*z as usize];
        if def.owner == Owner::PerSeat && b.seats > 1 && all_empty(*z) {
            if !collapsed.contains(z) {
                collapsed.push(*z);
                lines.push((format!("{} of every seat", def.name), vec!["empty".into()]));
            }
            continue;
        }
        let name = zone_label(p, st, st.board.dealer, i, me);
        let cs = in_order(p, st, i);
        let shown: Vec<CardIx> = cs
            .iter()
            .copied()
            .filter(|c| visible.contains(*c))
            .collect();
        let n = cs.len();
        // Words a line keeps whole: a lead-in (`top first:`, `3 cards, you see`),
        // then the cards.
        let words = if n == 0 {
            vec!["empty".to_string()]
        } else if shown.len() == n {
            let mut w = Vec::new();
            if def.order == Order::Stack && n > 1 {
                w.push("top first:".to_string());
            }
            // Tiles read best as mahjong players write them (`478m 1446p 東東`).
            match tiles(p, &shown) {
                Some(t) => w.extend(t.split(' ').map(str::to_string)),
                None => w.extend(card_words(p, &shown)),
            }
            w
        } else if shown.is_empty() {
            vec![format!("{} face down", count(n))]
        } else {
            let mut w = vec![format!("{}, you see", count(n))];
            w.extend(card_words(p, &shown));
            w
        };
        lines.push((name, words));
    }
    let mut out = rows(&lines, 2, 2, columns);
    out.push_str(&ledger(p, st, me));
    out
}

/// A zone instance's name as a row of the table shows it: `手札 of you (seat 0, 親)`
/// for a seat's zone (with the roles of the deal `dealer` deals), the zone's name for
/// a shared one.
pub fn zone_label(p: &Program, st: &State, dealer: u8, instance: usize, me: u8) -> String {
    let (z, owner) = st.board.layout.zone_of[instance];
    let def = &p.zones[z as usize];
    match (def.owner, owner) {
        (Owner::PerSeat, Some(s)) => {
            format!("{} of {}", def.name, seat_under(p, st, dealer, s, Some(me)))
        }
        _ => def.name.clone(),
    }
}

/// A zone instance's cards in the order a person reads them: a stack top first (the
/// top is what is taken), a pile in deck order.
pub fn in_order(p: &Program, st: &State, instance: usize) -> Vec<CardIx> {
    let (z, _) = st.board.layout.zone_of[instance];
    let mut cs = st.board.zones[instance].to_vec();
    match p.zones[z as usize].order {
        Order::Stack => cs.reverse(),
        Order::Pile => cs.sort_unstable(),
    }
    cs
}

fn count(n: usize) -> String {
    if n == 1 {
        "1 card".into()
    } else {
        format!("{n} cards")
    }
}

/// The ledger variables and those the ruleset displays, on one line: `chips: you 3,
/// seat 1 (胴二) -2 …  pot: 0`.
pub fn ledger(p: &Program, st: &State, me: u8) -> String {
    ledger_under(p, st, st.board.dealer, me)
}

/// Like [`ledger`], with the roles of the deal `dealer` dealt: a deal that just ended
/// may already have passed the deal on. On a screen too narrow for one line (see
/// [`screen_width`]), each variable has lines of its own, broken after a seat's count.
pub fn ledger_under(p: &Program, st: &State, dealer: u8, me: u8) -> String {
    let b = &st.board;
    // Each variable's words, kept whole on a line: `chips: you (seat 0, 親) 3,`.
    let mut parts: Vec<Vec<String>> = Vec::new();
    // The ledger first, then what the ruleset asks to `display` (the play in force, say).
    for v in p.ledger.iter().chain(&p.display) {
        let def = &p.vars[*v as usize];
        let base = b.layout.var_base[*v as usize] as usize;
        if def.per_seat {
            let n = b.seats as usize;
            let per: Vec<String> = (0..b.seats)
                .map(|s| {
                    let head = if s == 0 {
                        format!("{}: ", def.name)
                    } else {
                        String::new()
                    };
                    let comma = if (s as usize) + 1 < n { "," } else { "" };
                    format!(
                        "{head}{} {}{comma}",
                        seat_under(p, st, dealer, s, Some(me)),
                        show::value(p, &b.vars[base + s as usize])
                    )
                })
                .collect();
            parts.push(per);
        } else {
            parts.push(vec![format!(
                "{}: {}",
                def.name,
                show::value(p, &b.vars[base])
            )]);
        }
    }
    if parts.is_empty() {
        return String::new();
    }
    let one = format!(
        "  {}\n",
        parts
            .iter()
            .map(|w| w.join(" "))
            .collect::<Vec<_>>()
            .join("   ")
    );
    let columns = screen_width();
    if width(one.trim_end()) <= columns {
        return one;
    }
    let mut out = String::new();
    for words in &parts {
        for line in wrap("  ", words, 4, columns) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(text: &str) -> Program {
        fuda_core::compile("t.fuda", text, &fuda_core::loader::MemoryFiles::default())
            .expect("compiles")
            .program
    }

    #[test]
    fn tiles_are_written_as_players_write_them() {
        let p = program(
            "ruleset \"t\"\nimport \"std/mahjong\"\nseats 1 { 1: a }\nzone z shared pile hidden\n",
        );
        let hand = p
            .deck
            .parse_card_list("4m 7m 8m 1p 4p 4p 1s 1z 1z 5z 9s")
            .unwrap();
        assert_eq!(tiles(&p, &hand).as_deref(), Some("478m 144p 1s 東東白 9s"));
        assert_eq!(tiles(&p, &[]).as_deref(), Some(""));
    }

    #[test]
    fn other_decks_are_not_tiles() {
        let p = program(
            "ruleset \"t\"\nimport \"std/hanafuda\"\nseats 1 { 1: a }\nzone z shared pile hidden\n",
        );
        let hand = p.deck.parse_card_list("1-crane 3-curtain").unwrap();
        assert_eq!(tiles(&p, &hand), None);
    }
}
