//! Reading input a line at a time with a cap on each line, so that input with no line
//! ends (a huge file, a device, a stray binary) never holds more than the cap: a longer
//! line is reported and read past to its end, keeping nothing of it. `fuda play` reads
//! typed moves this way, and `--batch` its JSON lines.

use std::io::{BufRead, Read};

use crate::limits::MAX_SKIP;

/// What one line of input was.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// Its text, without its line end (`\n` or `\r\n`).
    Text(String),
    /// Longer than the cap: skipped. `ended` is false when no line end came within
    /// [`MAX_SKIP`] bytes past the cap either; reading then stops there, and the next
    /// line is the end of input.
    TooLong {
        /// Whether the line's end was found (or the input ended) while skipping.
        ended: bool,
    },
    /// Not UTF-8 text: the offset in the line of its first bad byte.
    NotUtf8(usize),
}

/// Lines of at most `max` bytes (not counting the line end) from a reader.
pub struct Lines<R> {
    reader: R,
    max: usize,
    buf: Vec<u8>,
    /// How far past the cap a too-long line is read to find its end: [`MAX_SKIP`].
    skip: usize,
    /// Set once reading has stopped (see [`Line::TooLong`]).
    stopped: bool,
}

impl<R: BufRead> Lines<R> {
    /// Reads `reader` a line at a time, each of at most `max` bytes.
    pub fn new(reader: R, max: usize) -> Lines<R> {
        Lines {
            reader,
            max,
            buf: Vec::new(),
            skip: MAX_SKIP,
            stopped: false,
        }
    }

    /// The next line, or `None` at the end of the input.
    pub fn next_line(&mut self) -> std::io::Result<Option<Line>> {
        if self.stopped {
            return Ok(None);
        }
        self.buf.clear();
        // One byte more than a full line with its line end: enough to tell a line that
        // is too long from one that just fits.
        let n = (&mut self.reader)
            .take(self.max as u64 + 2)
            .read_until(b'\n', &mut self.buf)?;
        if n == 0 {
            return Ok(None);
        }
        let had_end = self.buf.last() == Some(&b'\n');
        if had_end {
            self.buf.pop();
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
        }
        if self.buf.len() > self.max {
            // Read on past what was kept: the rest of the line, with its end.
            let ended = had_end || skip_line(&mut self.reader, self.skip)?;
            self.buf = Vec::new();
            self.stopped = !ended;
            return Ok(Some(Line::TooLong { ended }));
        }
        let bytes = std::mem::take(&mut self.buf);
        Ok(Some(match String::from_utf8(bytes) {
            Ok(text) => Line::Text(text),
            Err(e) => Line::NotUtf8(e.utf8_error().valid_up_to()),
        }))
    }
}

/// Reads on to the end of the line, in pieces, keeping nothing: true when the line (or
/// the input) ended within `most` bytes.
fn skip_line(reader: &mut impl BufRead, most: usize) -> std::io::Result<bool> {
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
                if skipped > most {
                    return Ok(false);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<Line> {
        let mut lines = Lines::new(std::io::Cursor::new(input.to_vec()), max);
        let mut out = Vec::new();
        while let Some(l) = lines.next_line().expect("read") {
            out.push(l);
        }
        out
    }

    fn text(t: &str) -> Line {
        Line::Text(t.to_string())
    }

    #[test]
    fn lines_up_to_the_cap_are_read_and_longer_ones_skipped() {
        assert_eq!(
            all(b"abcd\nabcde\r\nab\n\nxyz", 4),
            vec![
                text("abcd"),
                Line::TooLong { ended: true },
                text("ab"),
                text(""),
                text("xyz"),
            ]
        );
        // A line of exactly the cap, with `\r\n`, fits; one byte more does not, with
        // its line end or without.
        assert_eq!(all(b"abcd\r\nz", 4), vec![text("abcd"), text("z")]);
        assert_eq!(
            all(b"abcde\nz\nabcde\r\nz", 4),
            vec![
                Line::TooLong { ended: true },
                text("z"),
                Line::TooLong { ended: true },
                text("z")
            ]
        );
        assert_eq!(all(b"abcdefgh", 4), vec![Line::TooLong { ended: true }]);
        assert_eq!(all(b"a\xffb\nok\n", 4), vec![Line::NotUtf8(1), text("ok")]);
    }

    #[test]
    fn a_long_line_is_read_past_without_being_kept() {
        let mut input = vec![b'x'; 100_000];
        input.extend_from_slice(b"\nnext\n");
        let mut lines = Lines::new(std::io::BufReader::new(&input[..]), 16);
        assert_eq!(
            lines.next_line().expect("read"),
            Some(Line::TooLong { ended: true })
        );
        // Nothing of the skipped line is held.
        assert!(lines.buf.capacity() <= 18, "{}", lines.buf.capacity());
        assert_eq!(lines.next_line().expect("read"), Some(text("next")));
        assert_eq!(lines.next_line().expect("read"), None);
    }

    #[test]
    fn input_with_no_line_end_in_sight_stops() {
        let input = vec![b'x'; 100_000];
        let mut lines = Lines::new(std::io::BufReader::new(&input[..]), 16);
        lines.skip = 50_000;
        assert_eq!(
            lines.next_line().expect("read"),
            Some(Line::TooLong { ended: false })
        );
        assert_eq!(lines.next_line().expect("read"), None);
    }
}
