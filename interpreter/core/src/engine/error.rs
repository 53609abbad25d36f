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
        }))
    }

    /// Adds a help line.
    pub fn with_help(mut self, h: impl Into<String>) -> Self {
        self.0.help = Some(h.into());
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
        d
    }
}

impl std::fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RuntimeError {}
