//! User errors with every control character of their text masked before they are drawn.
//!
//! A message often echoes what a user or a shared file gave (a path, a typed move, a
//! `--set` value, a replay's field, a batch line's JSON); an escape sequence in it would
//! reach the terminal and could retitle the window, clear the screen or hide text. Each
//! error is masked once, where it is written, rather than at each of the many places
//! that build one.

use std::fmt;

use miette::{Diagnostic, LabeledSpan, Report, SourceCode};

use crate::render::printable;

/// A report's text with control characters shown as `?` (see
/// [`fuda_grammar::text::printable`]); its source and related diagnostics are the
/// report's own (sources are rule files, whose control characters are refused before
/// they are parsed).
pub struct Masked<'r> {
    inner: &'r dyn Diagnostic,
    message: String,
    code: Option<String>,
    help: Option<String>,
    labels: Option<Vec<LabeledSpan>>,
}

impl<'r> Masked<'r> {
    /// The masked view of a report.
    pub fn new(report: &'r Report) -> Masked<'r> {
        let inner: &dyn Diagnostic = report.as_ref();
        Masked {
            inner,
            message: printable(&report.to_string()).into_owned(),
            code: inner.code().map(|c| printable(&c.to_string()).into_owned()),
            help: inner.help().map(|h| printable(&h.to_string()).into_owned()),
            labels: inner.labels().map(|ls| {
                ls.map(|l| {
                    let text = l.label().map(|t| printable(t).into_owned());
                    if l.primary() {
                        LabeledSpan::new_primary_with_span(text, *l.inner())
                    } else {
                        LabeledSpan::new_with_span(text, *l.inner())
                    }
                })
                .collect()
            }),
        }
    }

    /// The message, masked.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The help, masked.
    pub fn help_text(&self) -> Option<&str> {
        self.help.as_deref()
    }

    /// The code, masked.
    pub fn code_text(&self) -> Option<&str> {
        self.code.as_deref()
    }
}

impl fmt::Debug for Masked<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for Masked<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Masked<'_> {}

impl Diagnostic for Masked<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.code
            .as_ref()
            .map(|c| Box::new(c) as Box<dyn fmt::Display>)
    }
    fn severity(&self) -> Option<miette::Severity> {
        self.inner.severity()
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.inner.source_code()
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.labels
            .as_ref()
            .map(|ls| Box::new(ls.iter().cloned()) as Box<dyn Iterator<Item = LabeledSpan>>)
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        self.inner.related()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use miette::miette;

    #[test]
    fn the_message_help_and_code_are_masked() {
        let r = miette!(
            code = "fuda::cli::x",
            help = "try `\u{1b}]0;t\u{7}`",
            "no card `\u{1b}[2J\u{9b}1m` here"
        );
        let m = Masked::new(&r);
        assert_eq!(m.message(), "no card `?[2J??1m` here");
        assert_eq!(m.help_text(), Some("try `?]0;t?`"));
        assert_eq!(m.code_text(), Some("fuda::cli::x"));
    }
}
