//! JSON-lines batches (`--batch FILE.jsonl`): one JSON answer per non-blank line, each
//! with the `"line"` it answers, and a line that fails becomes `{"error": …, "line": N}`
//! while the run goes on.

use std::io::BufReader;
use std::path::Path;

use crate::limits::{MAX_BATCH_LINE, MAX_SKIP};
use crate::lines::{Line, Lines};
use crate::read::{size_words, ReadError};
use crate::render;

/// Answers each non-blank line of `path` with `answer` and prints one JSON line per
/// line, carrying the `line` it answers; 0 when every line was answered, 1 when any
/// failed. The file is read a line at a time, so a batch of any length runs in little
/// memory; a line that is not UTF-8, or longer than [`MAX_BATCH_LINE`], is answered
/// with an error and the run goes on. `answer` gives a JSON object. The answers are
/// written in blocks of [`OUT_BLOCK`] bytes: one write per line cost more than the
/// answer itself.
pub fn run(path: &Path, answer: impl FnMut(&str) -> miette::Result<String>) -> miette::Result<u8> {
    let mut out = String::with_capacity(OUT_BLOCK + MAX_ANSWER_GUESS);
    let r = answer_lines(path, answer, &mut out);
    render::out(&out);
    r
}

/// Bytes of answers gathered before they are written.
const OUT_BLOCK: usize = 1 << 16;

/// Room for one usual answer past [`OUT_BLOCK`], so the buffer seldom grows.
const MAX_ANSWER_GUESS: usize = 1 << 12;

/// [`run`]'s loop, gathering the answers in `out` (written whenever it holds a block).
fn answer_lines(
    path: &Path,
    mut answer: impl FnMut(&str) -> miette::Result<String>,
    out: &mut String,
) -> miette::Result<u8> {
    let mut lines = Lines::new(
        BufReader::new(crate::read::open_data_file(path)?),
        MAX_BATCH_LINE,
    );
    let mut failed = false;
    let mut number = 0usize;
    let io = |e| crate::read::data_error(path, &ReadError::Io(e));
    while let Some(line) = lines.next_line().map_err(io)? {
        if out.len() >= OUT_BLOCK {
            render::out(out);
            out.clear();
        }
        number += 1;
        let mut error = |message: String| {
            out.push_str(&serde_json::json!({"error": message, "line": number}).to_string());
            out.push('\n');
        };
        let line = match line {
            Line::Text(t) => t,
            Line::TooLong { ended } => {
                failed = true;
                error(format!(
                    "the line is too long: a batch line may have at most {MAX_BATCH_LINE} bytes ({})",
                    size_words(MAX_BATCH_LINE)
                ));
                if !ended {
                    // No end in sight (a device, or a huge file with no line ends).
                    error(format!(
                        "no line end in the next {MAX_SKIP} bytes, so the batch stops here"
                    ));
                    return Ok(1);
                }
                continue;
            }
            Line::NotUtf8(at) => {
                failed = true;
                error(format!("the line is not UTF-8 text (byte {at} is not)"));
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        match answer(&line) {
            Ok(answer) => push_with_line(out, &answer, number),
            Err(e) => {
                failed = true;
                error(render::one_line(&e));
            }
        }
    }
    Ok(u8::from(failed))
}

/// Appends a JSON object with `"line": N` added as its last field, and a line end (the
/// answers keep their own documented field order, which a round trip through
/// `serde_json::Value` would sort).
fn push_with_line(out: &mut String, object: &str, number: usize) {
    use std::fmt::Write;
    match object.trim_end().strip_suffix('}') {
        Some(body) => {
            out.push_str(body);
            if !body.trim_end().ends_with('{') {
                out.push(',');
            }
            // Writing to a String cannot fail.
            let _ = writeln!(out, "\"line\":{number}}}");
        }
        // Not an object: wrap it rather than write invalid JSON.
        None => {
            out.push_str(&serde_json::json!({"result": object, "line": number}).to_string());
            out.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_line(object: &str, number: usize) -> String {
        let mut out = String::new();
        push_with_line(&mut out, object, number);
        out
    }

    #[test]
    fn the_line_number_is_the_last_field() {
        assert_eq!(with_line("{\"a\":1}", 3), "{\"a\":1,\"line\":3}\n");
        assert_eq!(with_line("{}", 1), "{\"line\":1}\n");
    }
}
