//! Diagnostics shared by the checker and the engine: a code, a message, labels that
//! point into any source file of the program, and a help line.

use std::fmt;
use std::sync::Arc;

use fuda_grammar::SourceWindow;
use miette::{LabeledSpan, SourceCode};

use crate::ir::{Loc, Source};

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The ruleset cannot run.
    Error,
    /// Worth a look; the ruleset still runs.
    Warning,
}

/// One problem found in a ruleset, or raised while running it.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// A stable code such as `fuda::unknown-name`.
    pub code: &'static str,
    /// What is wrong, in one sentence.
    pub message: String,
    /// Where: the first label is the primary one.
    pub labels: Vec<(Loc, String)>,
    /// What to do about it.
    pub help: Option<String>,
    /// Error or warning.
    pub severity: Severity,
    /// Notes drawn after it, each with a snippet of its own: where a procedure that
    /// failed at run time was called from. Notes are kept apart from `labels` because a
    /// call site is usually far from the failing line, often in another file, and a far
    /// label is only named, not drawn (see [`Diagnostic::render_with`]).
    pub related: Vec<Diagnostic>,
}

impl Diagnostic {
    /// An error with a primary label.
    pub fn error(
        code: &'static str,
        message: impl Into<String>,
        loc: Loc,
        label: impl Into<String>,
    ) -> Self {
        Diagnostic {
            code,
            message: message.into(),
            labels: vec![(loc, label.into())],
            help: None,
            severity: Severity::Error,
            related: Vec::new(),
        }
    }

    /// Adds a help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Adds a secondary label.
    pub fn with_label(mut self, loc: Loc, label: impl Into<String>) -> Self {
        self.labels.push((loc, label.into()));
        self
    }

    /// Adds a note drawn after it with its own snippet: `message` above the snippet,
    /// `label` at `loc`.
    pub fn with_note(
        mut self,
        message: impl Into<String>,
        loc: Loc,
        label: impl Into<String>,
    ) -> Self {
        let mut note = Diagnostic::error(self.code, message, loc, label);
        note.severity = self.severity;
        self.related.push(note);
        self
    }

    /// Makes it a warning.
    pub fn warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }

    /// Attaches the program's sources so miette can render it. Only the lines around
    /// the drawn labels are handed over (a window of lines), so rendering costs the size
    /// of the snippet, not of the file.
    pub fn render_with(&self, sources: &[Source]) -> Rendered {
        let file = self
            .labels
            .first()
            .map(|(l, _)| l.file as usize)
            .unwrap_or(0);
        let empty = Source::new("<none>", Arc::from(""));
        let src = sources.get(file).unwrap_or(&empty);
        let len = src.text.len();
        let mut labels = Vec::new();
        let mut elsewhere = Vec::new();
        let primary_line = self
            .labels
            .first()
            .map(|(l, _)| src.line_index(l.span.start as usize) + 1)
            .unwrap_or(1);
        // The drawn labels' extent, in bytes.
        let (mut lo, mut hi) = (len, 0);
        for (i, (loc, label)) in self.labels.iter().enumerate() {
            let line = src.line_index(loc.span.start as usize) + 1;
            // A secondary label far from the primary one becomes a note: drawn, it would
            // pull every line between the two into the snippet.
            let far = i > 0 && line.abs_diff(primary_line) > NEAR_LINES;
            if loc.file as usize == file && far {
                let (line, column) = src.line_column(loc.span.start as usize);
                elsewhere.push(format!("{} ({}:{line}:{column})", label, src.name));
            } else if loc.file as usize == file {
                let span = loc.span.clamped(len);
                lo = lo.min(span.offset());
                hi = hi.max(span.offset() + span.len());
                let text = if label.is_empty() {
                    None
                } else {
                    Some(label.clone())
                };
                labels.push(if i == 0 {
                    LabeledSpan::new_primary_with_span(text, span)
                } else {
                    LabeledSpan::new_with_span(text, span)
                });
            } else if let Some(s) = sources.get(loc.file as usize) {
                let (line, column) = s.line_column(loc.span.start as usize);
                elsewhere.push(format!("{} ({}:{line}:{column})", label, s.name));
            }
        }
        let mut help = self.help.clone();
        if !elsewhere.is_empty() {
            let note = format!("see also: {}", elsewhere.join("; "));
            help = Some(match help {
                Some(h) => format!("{h}\n{note}"),
                None => note,
            });
        }
        // The labels' lines and a margin wider than miette's context (one line).
        let (first, last) = if lo <= hi {
            (src.line_index(lo), src.line_index(hi))
        } else {
            (0, 0)
        };
        let first = first.saturating_sub(WINDOW_MARGIN);
        let start = src.line_start(first);
        let end = src.line_start(last + WINDOW_MARGIN + 1);
        Rendered {
            code: self.code,
            message: self.message.clone(),
            labels,
            help,
            severity: self.severity,
            note: false,
            related: self
                .related
                .iter()
                .map(|r| Rendered {
                    note: true,
                    ..r.render_with(sources)
                })
                .collect(),
            src: SourceWindow::lines(src.name.clone(), &src.text[start..end], start, first),
        }
    }
}

/// Lines of the file around a diagnostic's labels handed to miette: more than miette
/// draws around a label, so the snippet is the same as with the whole file.
const WINDOW_MARGIN: usize = 4;

/// How many lines apart a secondary label may be from the primary one and still be
/// drawn in the same snippet.
const NEAR_LINES: usize = 4;

/// The 1-based line number of a byte offset.
pub fn line_of(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()[..offset]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// A diagnostic with its source attached, ready for miette to draw.
#[derive(Debug)]
pub struct Rendered {
    code: &'static str,
    message: String,
    labels: Vec<LabeledSpan>,
    help: Option<String>,
    severity: Severity,
    /// Drawn as a note under another diagnostic (miette's advice), not as a problem.
    note: bool,
    related: Vec<Rendered>,
    src: SourceWindow,
}

impl fmt::Display for Rendered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Rendered {}

impl miette::Diagnostic for Rendered {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        // A note belongs to the diagnostic above it, whose code is already shown.
        if self.note {
            return None;
        }
        Some(Box::new(self.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            _ if self.note => miette::Severity::Advice,
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.src)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(
            self.related.iter().map(|r| r as &dyn miette::Diagnostic),
        ))
    }
}
