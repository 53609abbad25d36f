//! Errors raised while a game runs, each naming the rule (source location) at fault.

use crate::diagnostic::Diagnostic;
use crate::ir::Loc;

/// A run-time error: what went wrong and which rule was running. Boxed, so a
/// `Result<Value, RuntimeError>` stays as small as a value on the evaluator's hot path.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeError(Box<ErrorInfo>);

/// The contents of a [`RuntimeError`].
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorInfo {
    /// What went wrong.
    pub message: String,
    /// The rule at fault.
    pub loc: Loc,
    /// What to do about it.
    pub help: Option<String>,
    /// The calls that led to the rule at fault, innermost first: each call's location
    /// and a note on it (`called from test `NAME``). Only `fuda test` fills it in, since
    /// a test's author needs the test line that led into a failing procedure.
    pub called_from: Vec<(Loc, String)>,
}

impl std::ops::Deref for RuntimeError {
    type Target = ErrorInfo;
    fn deref(&self) -> &ErrorInfo {
        &self.0
    }
}

impl RuntimeError {
    /// An error at a location.
    #[cold]
    pub fn new(message: impl Into<String>, loc: Loc) -> Self {
        RuntimeError(Box::new(ErrorInfo {
            message: message.into(),
            loc,
            help: None,
            called_from: Vec::new(),
        }))
    }

    /// Adds a help line.
    pub fn with_help(mut self, h: impl Into<String>) -> Self {
        self.0.help = Some(h.into());
        self
    }

    /// Adds a call that led here (after the ones already added, so outermost last).
    pub fn with_call(mut self, loc: Loc, note: impl Into<String>) -> Self {
        self.0.called_from.push((loc, note.into()));
        self
    }

    /// As a diagnostic for rendering.
    pub fn to_diagnostic(&self) -> Diagnostic {
        let mut d = Diagnostic::error(
            "fuda::runtime",
            self.message.clone(),
            self.loc,
            "while running this rule",
        );
        d.help = self.help.clone();
        for (loc, note) in &self.called_from {
            d = d.with_note(note.clone(), *loc, "this call");
        }
        d
    }
}

impl std::fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RuntimeError {}
