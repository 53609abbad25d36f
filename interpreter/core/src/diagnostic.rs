//! Diagnostics shared by the checker and the engine: a code, a message, labels that
//! point into any source file of the program, and a help line.

use std::fmt;
use std::sync::Arc;

use miette::{LabeledSpan, NamedSource, SourceCode};

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

    /// Makes it a warning.
    pub fn warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }

    /// Attaches the program's sources so miette can render it.
    pub fn render_with(&self, sources: &[Source]) -> Rendered {
        let file = self
            .labels
            .first()
            .map(|(l, _)| l.file as usize)
            .unwrap_or(0);
        let (name, text) = sources
            .get(file)
            .map(|s| (s.name.clone(), s.text.clone()))
            .unwrap_or_else(|| ("<none>".into(), Arc::from("")));
        let len = text.len();
        let mut labels = Vec::new();
        let mut elsewhere = Vec::new();
        let primary_line = self
            .labels
            .first()
            .map(|(l, _)| line_of(&text, l.span.start as usize))
            .unwrap_or(1);
        for (i, (loc, label)) in self.labels.iter().enumerate() {
            let line = line_of(&text, loc.span.start as usize);
            // A secondary label far from the primary one becomes a note: drawn, it would
            // pull every line between the two into the snippet.
            let far = i > 0 && line.abs_diff(primary_line) > NEAR_LINES;
            if loc.file as usize == file && far {
                elsewhere.push(format!("{} ({}:{})", label, name, line));
            } else if loc.file as usize == file {
                let span = loc.span.clamped(len);
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
                let line = line_of(&s.text, loc.span.start as usize);
                elsewhere.push(format!("{} ({}:{})", label, s.name, line));
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
        Rendered {
            code: self.code,
            message: self.message.clone(),
            labels,
            help,
            severity: self.severity,
            src: NamedSource::new(name, text.to_string()),
        }
    }
}

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
    src: NamedSource<String>,
}

impl fmt::Display for Rendered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Rendered {}

impl miette::Diagnostic for Rendered {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
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
}
