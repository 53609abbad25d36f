//! The syntax error: one plain-words diagnostic with a label at the problem and, where a fix is known, help.

use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan};

use crate::SourceWindow;
use thiserror::Error;

use crate::Span;

/// What kind of syntax problem a [`SyntaxError`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SyntaxErrorKind {
    /// The text does not fit the grammar at the labelled place.
    Unexpected,
    /// The source is larger than the parser accepts.
    TooLarge,
    /// Brackets, braces or operator chains are nested deeper than the parser accepts.
    TooDeep,
    /// An integer literal does not fit in 64 bits.
    NumberTooLarge,
    /// A string holds an escape other than `\"`, `\\` or `\n`.
    BadEscape,
    /// A control character (an escape, a bell…) or a carriage return without a line
    /// feed: rule files are plain text.
    ControlCharacter,
    /// A call with `:` (like `count(c in h: …)`) does not start with `name in …`.
    BadBinder,
}

/// A syntax error in a rule file, with the file's text for rendering.
#[derive(Debug, Error, Diagnostic)]
#[error("{message}")]
#[diagnostic(code(fuda::syntax))]
pub struct SyntaxError {
    /// Which kind of problem this is.
    pub kind: SyntaxErrorKind,
    /// The problem in plain words, e.g. "expected an expression, found `}`".
    pub message: String,
    /// Where the problem is, clamped to the source.
    pub span: Span,
    /// What to do about it, when a likely fix is known.
    #[help]
    pub help: Option<String>,
    // Kept private so every label is built clamped (miette panics on a label past the
    // end); behind an `Arc` so the error stays small to return.
    #[source_code]
    src: Arc<SourceWindow>,
    #[label(collection)]
    labels: Vec<LabeledSpan>,
}

impl SyntaxError {
    /// The file name the error was reported for.
    pub fn file_name(&self) -> &str {
        self.src.name()
    }
}

/// A problem found while parsing, before it is tied to its file: small, so that
/// `Result`s inside the recursive parser stay cheap to move.
#[derive(Debug)]
pub(crate) struct Problem {
    pub kind: SyntaxErrorKind,
    pub message: String,
    pub span: Span,
    /// Text of the primary label.
    pub label: String,
    pub help: Option<String>,
    /// Secondary labels, e.g. the `{` that is never closed.
    pub related: Vec<(Span, String)>,
}

impl Problem {
    /// A problem of `kind` at `span`, labelled `label`.
    pub fn new(
        kind: SyntaxErrorKind,
        span: Span,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> Box<Self> {
        Box::new(Problem {
            kind,
            message: message.into(),
            span,
            label: label.into(),
            help: None,
            related: Vec::new(),
        })
    }

    /// Adds a help line.
    pub fn help(mut self: Box<Self>, help: impl Into<String>) -> Box<Self> {
        self.help = Some(help.into());
        self
    }

    /// Adds a secondary label.
    pub fn related(mut self: Box<Self>, span: Span, label: impl Into<String>) -> Box<Self> {
        self.related.push((span, label.into()));
        self
    }

    /// Ties the problem to its file. `source` may be a prefix of the real text (for a
    /// file too large to keep whole); every span is clamped to it.
    pub fn into_error(self, name: &str, source: String) -> SyntaxError {
        let len = source.len();
        let clamp = |s: Span| {
            let c = s.clamped(len);
            Span::new(c.offset(), c.offset() + c.len())
        };
        let span = clamp(self.span);
        let mut labels = vec![LabeledSpan::new_primary_with_span(
            Some(self.label),
            span.clamped(len),
        )];
        for (s, text) in self.related {
            labels.push(LabeledSpan::new_with_span(Some(text), s.clamped(len)));
        }
        SyntaxError {
            kind: self.kind,
            message: self.message,
            span,
            help: self.help,
            src: Arc::new(SourceWindow::whole(name, source)),
            labels,
        }
    }
}
