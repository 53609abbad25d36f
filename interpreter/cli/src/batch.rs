//! JSON-lines batches (`--batch FILE.jsonl`): one JSON answer per non-blank line, each
//! with the `"line"` it answers, and a line that fails becomes `{"error": …, "line": N}`
//! while the run goes on.

use std::io::BufReader;
use std::path::Path;

use crate::limits::{MAX_BATCH_LINE, MAX_SKIP};
use crate::lines::{Line, Lines};
use crate::read::{size_words, ReadError};
use crate::{outln, render};

/// Answers each non-blank line of `path` with `answer` and prints one JSON line per
/// line, carrying the `line` it answers; 0 when every line was answered, 1 when any
/// failed. The file is read a line at a time, so a batch of any length runs in little
/// memory; a line that is not UTF-8, or longer than [`MAX_BATCH_LINE`], is answered
/// with an error and the run goes on. `answer` gives a JSON object.
pub fn run(
    path: &Path,
    mut answer: impl FnMut(&str) -> miette::Result<String>,
) -> miette::Result<u8> {
    let mut lines = Lines::new(
        BufReader::new(crate::read::open_data_file(path)?),
        MAX_BATCH_LINE,
    );
    let mut failed = false;
    let mut number = 0usize;
    let io = |e| crate::read::data_error(path, &ReadError::Io(e));
    while let Some(line) = lines.next_line().map_err(io)? {
        number += 1;
        let error = |message: String| serde_json::json!({"error": message, "line": number});
        let line = match line {
            Line::Text(t) => t,
            Line::TooLong { ended } => {
                failed = true;
                outln!(
                    "{}",
                    error(format!(
                        "the line is too long: a batch line may have at most {MAX_BATCH_LINE} bytes ({})",
                        size_words(MAX_BATCH_LINE)
                    ))
                );
                if !ended {
                    // No end in sight (a device, or a huge file with no line ends).
                    outln!(
                        "{}",
                        error(format!(
                            "no line end in the next {MAX_SKIP} bytes, so the batch stops here"
                        ))
                    );
                    return Ok(1);
                }
                continue;
            }
            Line::NotUtf8(at) => {
                failed = true;
                outln!(
                    "{}",
                    error(format!("the line is not UTF-8 text (byte {at} is not)"))
                );
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        match answer(&line) {
            Ok(out) => outln!("{}", with_line(&out, number)),
            Err(e) => {
                failed = true;
                outln!("{}", error(render::one_line(&e)));
            }
        }
    }
    Ok(u8::from(failed))
}

/// A JSON object with `"line": N` added as its last field (the answers keep their own
/// documented field order, which a round trip through `serde_json::Value` would sort).
fn with_line(object: &str, number: usize) -> String {
    match object.trim_end().strip_suffix('}') {
        Some(body) if body.trim_end().ends_with('{') => format!("{body}\"line\":{number}}}"),
        Some(body) => format!("{body},\"line\":{number}}}"),
        // Not an object: wrap it rather than write invalid JSON.
        None => serde_json::json!({"result": object, "line": number}).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_number_is_the_last_field() {
        assert_eq!(with_line("{\"a\":1}", 3), "{\"a\":1,\"line\":3}");
        assert_eq!(with_line("{}", 1), "{\"line\":1}");
    }
}
