//! Turning diagnostics into text and writing to the standard streams: box drawing on a
//! terminal, plain ASCII otherwise so piped output is stable; colour as `--color` and
//! `NO_COLOR` say.

use std::borrow::Cow;
use std::ffi::OsStr;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::sync::OnceLock;

use fuda_core::ir::Source;
use fuda_core::Diagnostic;
use miette::{GraphicalReportHandler, GraphicalTheme, ThemeCharacters, ThemeStyles};

use crate::masked::Masked;

/// Wide enough that file names and did-you-mean hints are not wrapped mid-word.
const WIDTH: usize = 120;

/// When to colour what is written (`--color`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour a stream that is a terminal, unless `NO_COLOR` is set (to anything but "").
    #[default]
    Auto,
    /// Always colour, even into a pipe and whatever `NO_COLOR` says.
    Always,
    /// Never colour.
    Never,
}

/// The choice of the command line, set once at the start.
static COLOR: OnceLock<ColorChoice> = OnceLock::new();

/// Records the `--color` choice for every later rendering.
pub fn set_color(choice: ColorChoice) {
    // Set once, before anything is rendered; a second call (none is made) changes nothing.
    let _ = COLOR.set(choice);
}

/// Whether to colour a stream: the choice, whether the stream is a terminal, and the
/// value of `NO_COLOR` (which, by its convention, counts only when not empty).
pub fn color_on(choice: ColorChoice, terminal: bool, no_color: Option<&OsStr>) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => terminal && no_color.is_none_or(OsStr::is_empty),
    }
}

/// Installs miette's hook for errors returned from `main`, styled for stderr (call
/// after [`set_color`]; the hook reads the choice when an error is made).
pub fn install_hook() {
    // A second install only happens in tests; keeping the first hook is fine.
    let _ = miette::set_hook(Box::new(|_| Box::new(handler(Stream::Err))));
}

/// Which stream a rendering is meant for (decides the styling).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Out,
    /// Standard error.
    Err,
}

impl Stream {
    /// Whether the stream is a terminal (a person watching, not a pipe or a file).
    pub fn is_terminal(self) -> bool {
        match self {
            Stream::Out => std::io::stdout().is_terminal(),
            Stream::Err => std::io::stderr().is_terminal(),
        }
    }

    /// Whether what is written to the stream is coloured (see [`color_on`]).
    pub fn colored(self) -> bool {
        color_on(
            COLOR.get().copied().unwrap_or_default(),
            self.is_terminal(),
            std::env::var_os("NO_COLOR").as_deref(),
        )
    }
}

/// miette's renderer for a stream: box drawing and wrapped lines on a terminal, ASCII
/// otherwise; colour on its own terms, so `--color always` colours a pipe too.
fn handler(to: Stream) -> GraphicalReportHandler {
    let fancy = to.is_terminal();
    let theme = GraphicalTheme {
        characters: if fancy {
            ThemeCharacters::unicode()
        } else {
            ThemeCharacters::ascii()
        },
        styles: if to.colored() {
            ThemeStyles::ansi()
        } else {
            ThemeStyles::none()
        },
    };
    GraphicalReportHandler::new_themed(theme)
        .with_width(WIDTH)
        .with_wrap_lines(fancy)
        .with_links(false)
        // Notes (where a failing procedure was called from) hang under their error.
        .with_show_related_as_nested(true)
}

/// Renders any miette diagnostic for a stream.
pub fn diagnostic(d: &dyn miette::Diagnostic, to: Stream) -> String {
    let handler = handler(to);
    let mut out = String::new();
    if handler.render_report(&mut out, d).is_err() {
        // Rendering into a String only fails on a formatter bug: fall back to the message.
        let _ = write!(out, "error: {d}");
    }
    out
}

/// A user error as drawn on stderr, its text masked (see [`crate::masked`]).
pub fn report(r: &miette::Report) -> String {
    diagnostic(&Masked::new(r), Stream::Err)
}

/// `text` with its control characters shown as `?`, one per byte: what any text that
/// came from a user or a file goes through before it is printed.
pub fn printable(text: &str) -> Cow<'_, str> {
    fuda_grammar::text::printable(text)
}

/// `text` as a message quotes it: [`printable`], and cut after `max` characters with
/// `…` (a field of a shared file may be as long as the file).
pub fn brief(text: &str, max: usize) -> String {
    let shown = printable(text);
    match shown.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &shown[..cut]),
        None => shown.into_owned(),
    }
}

/// A JSON parse error as a message says it: what is wrong, a quoted value cut as
/// [`brief`] cuts it (a string in a file may be as long as the file), then where.
pub fn json_error(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rsplit_once(" at line ") {
        Some((what, at)) => format!("{} at line {at}", brief(what, QUOTED_CHARS)),
        None => brief(&text, QUOTED_CHARS),
    }
}

/// How many characters of a value from a file an error message quotes.
pub const QUOTED_CHARS: usize = 200;

/// Renders a program diagnostic with the sources it points into.
pub fn program_diagnostic(d: &Diagnostic, sources: &[Source], to: Stream) -> String {
    diagnostic(&d.render_with(sources), to)
}

/// Draws a program diagnostic on stream `to`, if the command's cap allows one more (see
/// [`crate::budget`]); otherwise it is only counted.
pub fn draw_program(d: &Diagnostic, sources: &[Source], to: Stream) {
    if !crate::budget::draw(d.severity) {
        return;
    }
    let text = program_diagnostic(d, sources, to);
    match to {
        Stream::Out => out(&text),
        Stream::Err => err(&text),
    }
}

/// A user error as one line of plain text: its message and, if any, its help, masked
/// as [`report`] masks them.
pub fn one_line(r: &miette::Report) -> String {
    let m = Masked::new(r);
    match m.help_text() {
        Some(h) => format!("{} ({h})", m.message()),
        None => m.message().to_string(),
    }
}

/// Writes text to stdout; a closed pipe (`fuda … | head`) ends the program quietly
/// instead of panicking like `println!` would.
pub fn out(text: &str) {
    let mut o = std::io::stdout().lock();
    if o.write_all(text.as_bytes())
        .and_then(|_| o.flush())
        .is_err()
    {
        std::process::exit(0);
    }
}

/// Writes text to stderr, ignoring a closed stream.
pub fn err(text: &str) {
    let mut e = std::io::stderr().lock();
    let _ = e.write_all(text.as_bytes());
    let _ = e.flush();
}

/// `println!` that survives a closed pipe.
#[macro_export]
macro_rules! outln {
    () => { $crate::render::out("\n") };
    ($($t:tt)*) => { $crate::render::out(&format!("{}\n", format_args!($($t)*))) };
}

/// `eprintln!` that survives a closed pipe.
#[macro_export]
macro_rules! errln {
    ($($t:tt)*) => { $crate::render::err(&format!("{}\n", format_args!($($t)*))) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_error_quotes_a_long_value_cut_and_keeps_where() {
        let long = format!("{{\"a\": 1, \"b\" \"{}\"}}", "x".repeat(1000));
        let e = serde_json::from_str::<serde_json::Value>(&long).unwrap_err();
        assert_eq!(json_error(&e), "expected `:` at line 1 column 14");
        let v = format!("\"{}\\u001b\"", "y".repeat(1000));
        let e = serde_json::from_str::<u32>(&v).unwrap_err();
        let said = json_error(&e);
        assert!(said.starts_with("invalid type: string \"yyy"), "{said}");
        assert!(said.ends_with("… at line 1 column 1008"), "{said}");
        assert!(said.len() < 300, "{said}");
    }

    #[test]
    fn a_quoted_text_is_masked_and_cut() {
        assert_eq!(brief("a\u{1b}[2Jb", 10), "a?[2Jb");
        assert_eq!(brief("一二三四", 2), "一二…");
        assert_eq!(brief("abc", 3), "abc");
    }

    #[test]
    fn auto_colours_a_terminal_unless_no_color_is_set() {
        let set = Some(OsStr::new("1"));
        let empty = Some(OsStr::new(""));
        assert!(color_on(ColorChoice::Auto, true, None));
        assert!(!color_on(ColorChoice::Auto, true, set));
        // NO_COLOR counts only with a value, by its convention.
        assert!(color_on(ColorChoice::Auto, true, empty));
        assert!(!color_on(ColorChoice::Auto, false, None));
        assert!(color_on(ColorChoice::Always, false, set));
        assert!(!color_on(ColorChoice::Never, true, None));
    }
}
