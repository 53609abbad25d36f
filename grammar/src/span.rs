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
