//! The cap on diagnostics one command draws: the first [`MAX_DIAGNOSTICS`] are drawn,
//! the rest only counted, by severity, and told in one line at the end. A ruleset with
//! thousands of mistakes (a long list of unknown names) would otherwise print as many
//! snippets; the first ones are what a person fixes first anyway.

use std::sync::atomic::{AtomicUsize, Ordering};

use fuda_core::diagnostic::Severity;

use crate::limits::MAX_DIAGNOSTICS;
use crate::load::plural;

/// Diagnostics drawn so far.
static DRAWN: AtomicUsize = AtomicUsize::new(0);
/// Errors and warnings not drawn, past the cap.
static MORE_ERRORS: AtomicUsize = AtomicUsize::new(0);
static MORE_WARNINGS: AtomicUsize = AtomicUsize::new(0);

/// Whether one more diagnostic may be drawn; counts it either way (a diagnostic not
/// drawn is told in [`more`]).
pub fn draw(severity: Severity) -> bool {
    if admit() {
        return true;
    }
    let more = match severity {
        Severity::Error => &MORE_ERRORS,
        Severity::Warning => &MORE_WARNINGS,
    };
    more.fetch_add(1, Ordering::Relaxed);
    false
}

/// Counts errors that were never drawn because the checker did not keep them (past
/// its own cap, `fuda_core::compile::MAX_ERRORS`): told in [`more`] with the rest.
pub fn not_kept(errors: usize) {
    MORE_ERRORS.fetch_add(errors, Ordering::Relaxed);
}

/// Whether one more diagnostic may be drawn, for a caller that says itself how many
/// were not (`--json`'s `more`).
pub fn admit() -> bool {
    DRAWN
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
            (n < MAX_DIAGNOSTICS).then_some(n + 1)
        })
        .is_ok()
}

/// The line that tells the diagnostics [`draw`] turned away, if any.
pub fn more() -> Option<String> {
    let errors = MORE_ERRORS.load(Ordering::Relaxed);
    let warnings = MORE_WARNINGS.load(Ordering::Relaxed);
    (errors + warnings > 0).then(|| more_line(errors, warnings))
}

/// `… and 7900 more not shown (7899 errors, 1 warning): …`.
fn more_line(errors: usize, warnings: usize) -> String {
    format!(
        "… and {} not shown ({}, {}): at most {MAX_DIAGNOSTICS} are drawn per command; fix the first ones and run it again",
        plural(errors + warnings, "more diagnostic"),
        plural(errors, "error"),
        plural(warnings, "warning"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_counts_by_severity() {
        assert_eq!(
            more_line(7899, 1),
            "… and 7900 more diagnostics not shown (7899 errors, 1 warning): at most 100 are drawn per command; fix the first ones and run it again"
        );
    }
}
