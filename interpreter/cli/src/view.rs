//! Showing cards, seats and the table to a person: Japanese names with ids, columns
//! aligned by display width, and only what a seat is allowed to see.

use fuda_core::engine::show;
use fuda_core::ir::{Order, Owner};
use fuda_core::model::{CardIx, CardSet};
use fuda_core::value::{ScoreResult, Text};
use fuda_core::{Program, State};
use unicode_width::UnicodeWidthStr;

/// Cards as `松に鶴(1-crane) 桜に幕(3-curtain)`.
pub fn cards(p: &Program, cs: &[CardIx]) -> String {
    cs.iter()
        .map(|c| show::card(p, *c))
        .collect::<Vec<_>>()
        .join(" ")
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
/// hidden), and the ledger variables (chips, pot), which are public.
pub fn table(p: &Program, st: &State, me: u8) -> String {
    let b = &st.board;
    let visible = st.visible_to(p, me);
    let mut rows: Vec<(String, String)> = Vec::new();
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
    for (i, (z, owner)) in b.layout.zone_of.iter().enumerate() {
        let def = &p.zones[*z as usize];
        if def.owner == Owner::PerSeat && b.seats > 1 && all_empty(*z) {
            if !collapsed.contains(z) {
                collapsed.push(*z);
                rows.push((format!("{} of every seat", def.name), "empty".to_string()));
            }
            continue;
        }
        let name = match (def.owner, owner) {
            (Owner::PerSeat, Some(s)) => format!("{} of {}", def.name, seat(p, st, *s, Some(me))),
            _ => def.name.clone(),
        };
        let mut cs = b.zones[i].to_vec();
        // Stacks read top first (the top is what is taken); piles in deck order.
        match def.order {
            Order::Stack => cs.reverse(),
            Order::Pile => cs.sort_unstable(),
        }
        let shown: Vec<CardIx> = cs
            .iter()
            .copied()
            .filter(|c| visible.contains(*c))
            .collect();
        let n = cs.len();
        let text = if n == 0 {
            "empty".to_string()
        } else if shown.len() == n {
            let top = if def.order == Order::Stack && n > 1 {
                "top first: "
            } else {
                ""
            };
            format!("{top}{}", cards(p, &shown))
        } else if shown.is_empty() {
            format!("{} face down", count(n))
        } else {
            format!("{}, you see {}", count(n), cards(p, &shown))
        };
        rows.push((name, text));
    }
    let w = rows.iter().map(|(n, _)| width(n)).max().unwrap_or(0);
    let mut out = String::new();
    for (n, t) in rows {
        out.push_str(&format!("  {}  {t}\n", pad(&n, w)));
    }
    out.push_str(&ledger(p, st, me));
    out
}

fn count(n: usize) -> String {
    if n == 1 {
        "1 card".into()
    } else {
        format!("{n} cards")
    }
}

/// The ledger variables on one line: `chips: you 3, seat 1 (胴二) -2 …  pot: 0`.
pub fn ledger(p: &Program, st: &State, me: u8) -> String {
    ledger_under(p, st, st.board.dealer, me)
}

/// Like [`ledger`], with the roles of the deal `dealer` dealt: a deal that just ended
/// may already have passed the deal on.
pub fn ledger_under(p: &Program, st: &State, dealer: u8, me: u8) -> String {
    let b = &st.board;
    let mut parts = Vec::new();
    for v in &p.ledger {
        let def = &p.vars[*v as usize];
        let base = b.layout.var_base[*v as usize] as usize;
        if def.per_seat {
            let per: Vec<String> = (0..b.seats)
                .map(|s| {
                    format!(
                        "{} {}",
                        seat_under(p, st, dealer, s, Some(me)),
                        b.vars[base + s as usize].int()
                    )
                })
                .collect();
            parts.push(format!("{}: {}", def.name, per.join(", ")));
        } else {
            parts.push(format!("{}: {}", def.name, show::value(p, &b.vars[base])));
        }
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("  {}\n", parts.join("   "))
    }
}
