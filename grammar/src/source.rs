//! Source text for miette to draw, with columns an editor would show.

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// Some lines of a source file, for miette to draw a diagnostic from. Spans stay offsets
/// into the whole file; `start` and `first_line` say where the lines sit in it, so
/// miette is told the real line numbers. The column miette prints in a snippet's heading
/// (`file.fuda:12:7`) counts characters: miette itself counts bytes, which puts a
/// mistake after Japanese text two columns further right for each kanji or kana.
#[derive(Debug, Clone)]
pub struct SourceWindow {
    name: String,
    text: String,
    /// Byte offset of `text` in the file.
    start: usize,
    /// 0-based line of the file where `text` starts.
    first_line: usize,
}

impl SourceWindow {
    /// A whole file.
    pub fn whole(name: impl Into<String>, text: impl Into<String>) -> SourceWindow {
        SourceWindow::lines(name, text, 0, 0)
    }

    /// `text`, the lines of a file from byte `start`, which is the start of 0-based line
    /// `first_line`.
    pub fn lines(
        name: impl Into<String>,
        text: impl Into<String>,
        start: usize,
        first_line: usize,
    ) -> SourceWindow {
        SourceWindow {
            name: name.into(),
            text: text.into(),
            start,
            first_line,
        }
    }

    /// The file's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl SourceCode for SourceWindow {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let offset = span
            .offset()
            .checked_sub(self.start)
            .ok_or(MietteError::OutOfBounds)?;
        let local = SourceSpan::new(offset.into(), span.len());
        let c =
            self.text
                .as_bytes()
                .read_span(&local, context_lines_before, context_lines_after)?;
        // miette gives a column only without context lines (for the heading), counted
        // in bytes from the line's start; it is recounted here in characters.
        let column = if c.column() == 0 {
            0
        } else {
            let at = offset.min(self.text.len());
            let line_start = self.text.as_bytes()[..at]
                .iter()
                .rposition(|b| *b == b'\n')
                .map_or(0, |i| i + 1);
            String::from_utf8_lossy(&self.text.as_bytes()[line_start..at])
                .chars()
                .count()
        };
        let whole = SourceSpan::new((c.span().offset() + self.start).into(), c.span().len());
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            c.data(),
            whole,
            c.line() + self.first_line,
            column,
            c.line_count(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::SourceWindow;
    use miette::{SourceCode, SourceSpan};

    #[test]
    fn the_heading_column_counts_characters() {
        let w = SourceWindow::whole("a.fuda", "x\n  if 山札 {\n");
        // `{` is byte 14 (line 2 starts at byte 2; `  if ` is 5 bytes, 山札 6, a space 1).
        let c = w
            .read_span(&SourceSpan::new(14.into(), 1), 0, 0)
            .expect("span");
        assert_eq!((c.line(), c.column()), (1, 8));
    }

    #[test]
    fn a_window_reports_the_files_lines_and_offsets() {
        let w = SourceWindow::lines("a.fuda", "札 x\n", 10, 3);
        let c = w
            .read_span(&SourceSpan::new(14.into(), 1), 0, 0)
            .expect("span");
        assert_eq!((c.line(), c.column(), c.span().offset()), (3, 2, 14));
        assert!(w.read_span(&SourceSpan::new(2.into(), 1), 0, 0).is_err());
    }
}
