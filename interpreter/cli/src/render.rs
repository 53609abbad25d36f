//! Turning diagnostics into text and writing to the standard streams: graphical with
//! colour and box drawing on a terminal, plain ASCII otherwise so piped output is stable.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};

use fuda_core::ir::Source;
use fuda_core::Diagnostic;
use miette::{GraphicalReportHandler, GraphicalTheme, MietteHandlerOpts};

/// Wide enough that file names and did-you-mean hints are not wrapped mid-word.
const WIDTH: usize = 120;

/// Installs miette's hook for errors returned from `main`, styled for stderr.
pub fn install_hook() {
    let fancy = std::io::stderr().is_terminal();
    // A second install only happens in tests; keeping the first hook is fine.
    let _ = miette::set_hook(Box::new(move |_| {
        Box::new(
            MietteHandlerOpts::new()
                .unicode(fancy)
                .color(fancy)
                .terminal_links(false)
                .width(WIDTH)
                .wrap_lines(fancy)
                .show_related_errors_as_nested()
                .build(),
        )
    }));
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
    fn is_terminal(self) -> bool {
        match self {
            Stream::Out => std::io::stdout().is_terminal(),
            Stream::Err => std::io::stderr().is_terminal(),
        }
    }
}

/// Renders any miette diagnostic for a stream.
pub fn diagnostic(d: &dyn miette::Diagnostic, to: Stream) -> String {
    let fancy = to.is_terminal();
    let theme = if fancy {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::none()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(WIDTH)
        .with_wrap_lines(fancy)
        .with_links(false)
        // Notes (where a failing procedure was called from) hang under their error.
        .with_show_related_as_nested(true);
    let mut out = String::new();
    if handler.render_report(&mut out, d).is_err() {
        // Rendering into a String only fails on a formatter bug: fall back to the message.
        let _ = write!(out, "error: {d}");
    }
    out
}

/// Renders a program diagnostic with the sources it points into.
pub fn program_diagnostic(d: &Diagnostic, sources: &[Source], to: Stream) -> String {
    diagnostic(&d.render_with(sources), to)
}

/// A user error as one line of plain text: its message and, if any, its help.
pub fn one_line(r: &miette::Report) -> String {
    match r.help() {
        Some(h) => format!("{r} ({h})"),
        None => r.to_string(),
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
