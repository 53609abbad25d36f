//! Characters a rule file may not hold, and a copy of a text that is safe to print.
//!
//! Rule files are untrusted: a control character in a comment or a string would reach
//! the terminal through a diagnostic's snippet or a printed message, and an escape
//! sequence can retitle the window, clear the screen or hide text. So control characters
//! other than tab, line feed and carriage return are refused before parsing, and every
//! text shown in a snippet goes through [`printable`] first.

use std::borrow::Cow;

/// The byte-order mark some editors put at the start of a UTF-8 file.
pub const BOM: char = '\u{feff}';

/// What is wrong with a character [`first_refused`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// A C0 or C1 control character, or DEL.
    Control(char),
    /// A carriage return not followed by a line feed: a line end in old Mac files, which
    /// the rest of the tools would not count as one.
    LoneCarriageReturn,
}

impl Refused {
    /// The problem in plain words, for a diagnostic's message; `kind` names the kind of
    /// file in the plural ("rule files", "word lists").
    pub fn message(self, kind: &str) -> String {
        match self {
            Refused::Control(c) => format!(
                "this file holds a control character, {}: {kind} are plain text",
                describe(c)
            ),
            Refused::LoneCarriageReturn => {
                "this file ends a line with a carriage return alone (U+000D without a line feed)"
                    .to_string()
            }
        }
    }

    /// A short label for the character.
    pub fn label(self) -> String {
        match self {
            Refused::Control(c) => format!("{} here", describe(c)),
            Refused::LoneCarriageReturn => "carriage return without a line feed".to_string(),
        }
    }

    /// What to do about it; `in_rules` for a rule file, where strings may hold escapes.
    pub fn help(self, in_rules: bool) -> &'static str {
        match self {
            Refused::Control(_) if in_rules => {
                "delete it (it is shown here as `?`, one for each of its bytes); a string writes a line break as `\\n`"
            }
            Refused::Control(_) => "delete it (it is shown here as `?`, one for each of its bytes)",
            Refused::LoneCarriageReturn => {
                "save the file with LF (or CRLF) line endings; the character is shown here as `?`"
            }
        }
    }
}

/// Whether a character is refused anywhere in a file: control characters (C0, DEL,
/// C1) other than tab, line feed and carriage return, and the bidirectional embedding,
/// override and isolate controls, which make a line show in an order other than the
/// one it is read in (a comment can seem to hide code that runs).
fn is_refused(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// The first character of `text` a file may not hold, with its byte offset. With
/// `lone_cr`, a carriage return not followed by a line feed counts too (rule files and
/// word lists both ask: a file saved with old Mac line ends would show its lines
/// differently from how they are read).
pub fn first_refused(text: &str, lone_cr: bool) -> Option<(usize, Refused)> {
    let bytes = text.as_bytes();
    text.char_indices().find_map(|(i, c)| {
        if is_refused(c) {
            Some((i, Refused::Control(c)))
        } else if lone_cr && c == '\r' && bytes.get(i + 1) != Some(&b'\n') {
            Some((i, Refused::LoneCarriageReturn))
        } else {
            None
        }
    })
}

/// `text` with every refused character (and every carriage return not followed by a
/// line feed) replaced by `?` — one `?` per byte, so byte offsets and spans into the
/// text stay right. Borrowed when there is nothing to replace, which is the usual case.
pub fn printable(text: &str) -> Cow<'_, str> {
    if first_refused(text, true).is_none() {
        return Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        let lone_cr = c == '\r' && bytes.get(i + 1) != Some(&b'\n');
        if is_refused(c) || lone_cr {
            out.extend(std::iter::repeat_n('?', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `U+001B (escape)`: a control character by its code and, for the common ones, name.
fn describe(c: char) -> String {
    let name = match c {
        '\0' => " (null)",
        '\u{7}' => " (bell)",
        '\u{8}' => " (backspace)",
        '\u{b}' => " (vertical tab)",
        '\u{c}' => " (form feed)",
        '\u{1b}' => " (escape)",
        '\u{7f}' => " (delete)",
        '\u{85}' => " (next line)",
        '\u{9b}' => " (control sequence introducer)",
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => " (bidirectional text control)",
        _ => "",
    };
    format!("U+{:04X}{name}", c as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_control_characters_and_lone_carriage_returns() {
        assert_eq!(first_refused("a\tb\r\nc\n", true), None);
        assert_eq!(
            first_refused("ab\u{1b}]0;x\u{7}", true),
            Some((2, Refused::Control('\u{1b}')))
        );
        assert_eq!(
            first_refused("一\u{9b}", true),
            Some((3, Refused::Control('\u{9b}')))
        );
        assert_eq!(
            first_refused("a\rb", true),
            Some((1, Refused::LoneCarriageReturn))
        );
        assert_eq!(first_refused("a\rb", false), None);
        assert_eq!(
            first_refused("# x \u{202e}y", true),
            Some((4, Refused::Control('\u{202e}')))
        );
        assert_eq!(printable("a\u{2066}b"), "a???b");
        assert_eq!(
            first_refused("a\r", true),
            Some((1, Refused::LoneCarriageReturn))
        );
    }

    #[test]
    fn printable_keeps_every_offset() {
        let text = "# \u{1b}]0;PWNED\u{7} \u{9b}2J\r\nx\ry";
        let shown = printable(text);
        assert_eq!(shown.len(), text.len());
        assert_eq!(shown, "# ?]0;PWNED? ??2J\r\nx?y");
        assert!(matches!(printable("plain\r\n"), Cow::Borrowed(_)));
    }
}
