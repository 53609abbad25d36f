//! Breaking lists of cards into lines no wider than the screen, measured in display
//! columns (a kanji takes two): lines break between cards, never inside one, and
//! continue under an indent.

use super::width;

/// The narrowest screen laid out for: below it, `COLUMNS` is taken for a mistake.
const NARROWEST: usize = 20;

/// The screen width `fuda play` lays its text out for: `COLUMNS` when it is set to a
/// number (shells set it for the terminal they run in), else 80.
pub fn screen_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|s| s.trim().parse::<usize>().ok())
        .filter(|w| *w >= NARROWEST)
        .unwrap_or(80)
}

/// `head` then `items` (each kept whole) separated by spaces, in lines of at most
/// `columns` display columns, each line after the first starting with `indent` spaces.
/// An item too wide for any line still has a line of its own, whole: a card's text is
/// never split.
pub fn wrap(head: &str, items: &[String], indent: usize, columns: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = head.to_string();
    let mut used = width(head);
    // Whether the line holds an item yet (the head alone takes the first item always).
    let mut any = false;
    for item in items {
        let w = width(item);
        if any && used + 1 + w > columns {
            lines.push(std::mem::replace(&mut line, " ".repeat(indent)));
            used = indent;
            any = false;
        }
        if any {
            line.push(' ');
            used += 1;
        }
        line.push_str(item);
        used += w;
        any = true;
    }
    lines.push(line);
    lines
}

/// The indent for lines continuing a row whose items start at column `start`: under
/// the first item when that leaves room for two cards or so, else a small indent (a
/// long label would leave a column too narrow to read).
pub fn hanging(start: usize, columns: usize) -> usize {
    const ROOM: usize = 40;
    if columns.saturating_sub(start) >= ROOM {
        start
    } else {
        6
    }
}

/// Rows `label  items…` with the labels padded to one width and `gap` spaces after
/// them, each row wrapped (see [`wrap`]) with its continuation under its items; every
/// line is indented by `margin` spaces and ends with a newline.
pub fn rows(rows: &[(String, Vec<String>)], margin: usize, gap: usize, columns: usize) -> String {
    let w = rows.iter().map(|(n, _)| width(n)).max().unwrap_or(0);
    let mut out = String::new();
    for (label, items) in rows {
        let head = format!(
            "{}{}{}",
            " ".repeat(margin),
            super::pad(label, w),
            " ".repeat(gap)
        );
        let indent = hanging(width(&head), columns);
        for line in wrap(&head, items, indent, columns) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every card of a bundled 48-card deck, as play shows them (`松に鶴(1-crane)`).
    fn all_cards() -> Vec<String> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets/sangohana.fuda");
        let p = crate::load::program(std::path::Path::new(path)).expect("the ruleset loads");
        (0..p.deck.len() as u16)
            .map(|c| fuda_core::engine::show::card(&p, c))
            .collect()
    }

    /// Checks that `lines` hold `cards` whole, in order, once each, after `head`, and
    /// that no line is wider than `columns`.
    fn holds_whole(lines: &[String], head: &str, cards: &[String], columns: usize) {
        for l in lines {
            assert!(width(l) <= columns, "{} columns: {l}", width(l));
        }
        let first = lines[0]
            .strip_prefix(head)
            .expect("the head opens the first line");
        let words: Vec<&str> = std::iter::once(first)
            .chain(lines[1..].iter().map(String::as_str))
            .flat_map(str::split_whitespace)
            .collect();
        assert_eq!(words, cards.iter().map(String::as_str).collect::<Vec<_>>());
    }

    /// A whole deck of double-width names as one hand at 80 columns: no line is wider
    /// than 80 and each card is on one line, whole, in order.
    #[test]
    fn a_hand_at_80_columns_breaks_between_cards() {
        let cards = all_cards();
        assert!(cards.iter().any(|c| width(c) > c.chars().count()), "kanji");
        let head = "  手札 of you (seat 0, 胴二)  ";
        let indent = hanging(width(head), 80);
        let lines = wrap(head, &cards, indent, 80);
        assert!(lines.len() > 10, "{lines:#?}");
        holds_whole(&lines, head, &cards, 80);
        for l in &lines[1..] {
            assert!(l.starts_with(&" ".repeat(indent)), "{l}");
            assert!(!l[indent..].starts_with(' '), "{l}");
        }
        // Lines are filled: the next card would not have fitted on the line before.
        for pair in lines.windows(2) {
            let next = pair[1].split_whitespace().next().expect("a card");
            assert!(width(&pair[0]) + 1 + width(next) > 80, "{pair:#?}");
        }
    }

    /// Every width from the narrowest up: the same holds, and with a long label the
    /// continuation moves left rather than leave a column too narrow for two cards.
    #[test]
    fn every_width_keeps_cards_whole() {
        let cards = all_cards();
        let head = "  取り札 of seat 2 (ビキ)  ";
        for columns in NARROWEST..=140 {
            let lines = wrap(head, &cards, hanging(width(head), columns), columns);
            let widest = cards.iter().map(|c| width(c)).max().unwrap_or(0);
            if columns >= width(head) + widest {
                holds_whole(&lines, head, &cards, columns);
            }
        }
        assert_eq!(hanging(30, 80), 30);
        assert_eq!(hanging(50, 80), 6);
    }

    /// A lone item wider than the line is not cut.
    #[test]
    fn an_item_wider_than_the_line_stays_whole() {
        let long = "桐のカス(黄)(12-kasu-yellow)".to_string();
        let lines = wrap("> ", &[long.clone(), long.clone()], 2, 20);
        assert_eq!(lines, vec![format!("> {long}"), format!("  {long}")]);
    }
}
