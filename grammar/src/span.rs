//! Byte spans into a source file, clamped so diagnostics never point past its end.

/// A half-open byte range `start..end` in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The span `start..end`.
    pub fn new(start: usize, end: usize) -> Self {
        let start = start.min(u32::MAX as usize) as u32;
        let end = end.min(u32::MAX as usize) as u32;
        Span {
            start,
            end: end.max(start),
        }
    }

    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// Length in bytes.
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    /// True for an empty span.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// This span as a miette span, clamped to a source of `source_len` bytes
    /// (miette panics on labels past the end of the source).
    pub fn clamped(self, source_len: usize) -> miette::SourceSpan {
        let start = (self.start as usize).min(source_len);
        let end = (self.end as usize).clamp(start, source_len);
        miette::SourceSpan::new(start.into(), end - start)
    }
}

/// The 1-based line and column of byte `offset` in `text`, as an editor shows them: the
/// column counts characters, not bytes, so a mistake after Japanese text is reported
/// where a person sees it. An offset past the end, or inside a character, is taken back
/// to the nearest character boundary before it.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::line_column;

    #[test]
    fn columns_count_characters_not_bytes() {
        let text = "a\n捨て札 x";
        // `x` is byte 12 (3 kanji/kana of 3 bytes each after "a\n", then a space).
        assert_eq!(line_column(text, 12), (2, 5));
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 2), (2, 1));
    }

    #[test]
    fn offsets_inside_a_character_or_past_the_end_are_clamped() {
        let text = "捨\nx";
        assert_eq!(line_column(text, 1), (1, 1));
        assert_eq!(line_column(text, 99), (2, 2));
    }
}
