//! JSON-lines batches (`--batch FILE.jsonl`): one JSON answer per non-blank line, and a
//! line that fails becomes `{"error": …, "line": N}` while the run goes on.

use std::path::Path;

use crate::{outln, render};

/// Answers each non-blank line of `path` with `answer` and prints one JSON line per
/// line; 0 when every line was answered, 1 when any failed.
pub fn run(
    path: &Path,
    mut answer: impl FnMut(&str) -> miette::Result<String>,
) -> miette::Result<u8> {
    let text = crate::load::read_data_file(path)?;
    let mut failed = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match answer(line) {
            Ok(out) => outln!("{out}"),
            Err(e) => {
                failed = true;
                outln!(
                    "{}",
                    serde_json::json!({"error": render::one_line(&e), "line": i + 1})
                );
            }
        }
    }
    Ok(u8::from(failed))
}
