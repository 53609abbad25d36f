//! JSON-lines batches (`--batch FILE.jsonl`): one JSON answer per non-blank line, each
//! with the `"line"` it answers, and a line that fails becomes `{"error": …, "line": N}`
//! while the run goes on.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use crate::load::{ReadError, MAX_BATCH_LINE};

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
    let mut reader = BufReader::new(crate::load::open_data_file(path)?);
    let mut failed = false;
    let mut buf = Vec::new();
    let mut number = 0usize;
    let io = |e| crate::load::data_error(path, &ReadError::Io(e));
    loop {
        buf.clear();
        let n = (&mut reader)
            .take(MAX_BATCH_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(io)?;
        if n == 0 {
            break;
        }
        number += 1;
        let error = |message: String| serde_json::json!({"error": message, "line": number});
        if buf.len() > MAX_BATCH_LINE && buf.last() != Some(&b'\n') {
            failed = true;
            outln!(
                "{}",
                error(format!(
                    "the line is too long: a batch line may have at most {MAX_BATCH_LINE} bytes"
                ))
            );
            if !skip_line(&mut reader).map_err(io)? {
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
        let Ok(line) = std::str::from_utf8(&buf) else {
            failed = true;
            outln!("{}", error("the line is not UTF-8 text".into()));
            continue;
        };
        let line = line.trim_end_matches('\n').trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        match answer(line) {
            Ok(out) => outln!("{}", with_line(&out, number)),
            Err(e) => {
                failed = true;
                outln!("{}", error(render::one_line(&e)));
            }
        }
    }
    Ok(u8::from(failed))
}

/// The most a too-long line is read past its cap to find its end.
const MAX_SKIP: usize = crate::load::MAX_DATA_BYTES;

/// Reads on to the end of the line, in pieces, keeping nothing: true when the line (or
/// the file) ended within [`MAX_SKIP`] bytes.
fn skip_line(reader: &mut impl BufRead) -> std::io::Result<bool> {
    let mut skipped = 0usize;
    loop {
        let piece = reader.fill_buf()?;
        if piece.is_empty() {
            return Ok(true);
        }
        match piece.iter().position(|b| *b == b'\n') {
            Some(i) => {
                reader.consume(i + 1);
                return Ok(true);
            }
            None => {
                let n = piece.len();
                reader.consume(n);
                skipped += n;
                if skipped > MAX_SKIP {
                    return Ok(false);
                }
            }
        }
    }
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

    #[test]
    fn a_long_line_is_skipped_to_its_end() {
        let mut r = std::io::Cursor::new(b"xxxx\nnext\n".to_vec());
        assert!(skip_line(&mut r).expect("read"));
        let mut rest = String::new();
        r.read_to_string(&mut rest).expect("read");
        assert_eq!(rest, "next\n");
    }
}
