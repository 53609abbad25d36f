//! JSON-lines batches (`--batch FILE.jsonl`): one JSON answer per non-blank line, and a
//! line that fails becomes `{"error": …, "line": N}` while the run goes on.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use crate::load::{ReadError, MAX_BATCH_LINE};

use crate::{outln, render};

/// Answers each non-blank line of `path` with `answer` and prints one JSON line per
/// line; 0 when every line was answered, 1 when any failed. The file is read a line at
/// a time, so a batch of any length runs in little memory; a line that is
/// not UTF-8 is answered with an error and skipped; one longer than [`MAX_BATCH_LINE`]
/// is answered with an error and ends the run.
pub fn run(
    path: &Path,
    mut answer: impl FnMut(&str) -> miette::Result<String>,
) -> miette::Result<u8> {
    let mut reader = BufReader::new(crate::load::open_data_file(path)?);
    let mut failed = false;
    let mut buf = Vec::new();
    let mut number = 0usize;
    loop {
        buf.clear();
        let io = |e| crate::load::data_error(path, &ReadError::Io(e));
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
            // Not a batch line, and maybe no end (a device): stop here rather than
            // read on.
            outln!(
                "{}",
                error(format!(
                    "the line is too long: a batch line may have at most {MAX_BATCH_LINE} bytes, so the batch stops here"
                ))
            );
            return Ok(1);
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
            Ok(out) => outln!("{out}"),
            Err(e) => {
                failed = true;
                outln!("{}", error(render::one_line(&e)));
            }
        }
    }
    Ok(u8::from(failed))
}
