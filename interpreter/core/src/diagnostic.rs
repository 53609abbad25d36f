//! Diagnostics shared by the checker and the engine: a code, a message, labels that
//! point into any source file of the program, and a help line; and the snippet of
//! source drawn with one, its long lines cut around the labels.

use std::fmt;
use std::sync::Arc;

use fuda_grammar::text::printable;
use fuda_grammar::SourceWindow;
use miette::{LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use crate::ir::{Loc, Source};

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The ruleset cannot run.
    Error,
    /// Worth a look; the ruleset still runs.
    Warning,
}

/// One problem found in a ruleset, or raised while running it.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// A stable code such as `fuda::unknown-name`.
    pub code: &'static str,
    /// What is wrong, in one sentence.
    pub message: String,
    /// Where: the first label is the primary one.
    pub labels: Vec<(Loc, String)>,
    /// What to do about it.
    pub help: Option<String>,
    /// Error or warning.
    pub severity: Severity,
    /// Notes drawn after it, each with a snippet of its own: where a procedure that
    /// failed at run time was called from. Notes are kept apart from `labels` because a
    /// call site is usually far from the failing line, often in another file, and a far
    /// label is only named, not drawn (see [`Diagnostic::render_with`]).
    pub related: Vec<Diagnostic>,
}

impl Diagnostic {
    /// An error with a primary label.
    pub fn error(
        code: &'static str,
        message: impl Into<String>,
        loc: Loc,
        label: impl Into<String>,
    ) -> Self {
        Diagnostic {
            code,
            message: message.into(),
            labels: vec![(loc, label.into())],
            help: None,
            severity: Severity::Error,
            related: Vec::new(),
        }
    }

    /// Adds a help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Adds a secondary label.
    pub fn with_label(mut self, loc: Loc, label: impl Into<String>) -> Self {
        self.labels.push((loc, label.into()));
        self
    }

    /// Adds a note drawn after it with its own snippet: `message` above the snippet,
    /// `label` at `loc`.
    pub fn with_note(
        mut self,
        message: impl Into<String>,
        loc: Loc,
        label: impl Into<String>,
    ) -> Self {
        let mut note = Diagnostic::error(self.code, message, loc, label);
        note.severity = self.severity;
        self.related.push(note);
        self
    }

    /// Makes it a warning.
    pub fn warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }

    /// Attaches the program's sources so miette can render it. Only the lines around
    /// the drawn labels are handed over (a window of lines), so rendering costs the size
    /// of the snippet, not of the file.
    pub fn render_with(&self, sources: &[Source]) -> Rendered {
        let file = self
            .labels
            .first()
            .map(|(l, _)| l.file as usize)
            .unwrap_or(0);
        let empty = Source::new("<none>", Arc::from(""));
        let src = sources.get(file).unwrap_or(&empty);
        let len = src.text.len();
        let mut labels = Vec::new();
        let mut elsewhere = Vec::new();
        let primary_line = self
            .labels
            .first()
            .map(|(l, _)| src.line_index(l.span.start as usize) + 1)
            .unwrap_or(1);
        // The drawn labels' extent, in bytes.
        let (mut lo, mut hi) = (len, 0);
        for (i, (loc, label)) in self.labels.iter().enumerate() {
            let line = src.line_index(loc.span.start as usize) + 1;
            // A secondary label far from the primary one becomes a note: drawn, it would
            // pull every line between the two into the snippet.
            let far = i > 0 && line.abs_diff(primary_line) > NEAR_LINES;
            if loc.file as usize == file && far {
                let (line, column) = src.line_column(loc.span.start as usize);
                elsewhere.push(format!("{} ({}:{line}:{column})", label, src.name));
            } else if loc.file as usize == file {
                let span = loc.span.clamped(len);
                lo = lo.min(span.offset());
                hi = hi.max(span.offset() + span.len());
                let text = if label.is_empty() {
                    None
                } else {
                    Some(message_text(label).into_owned())
                };
                labels.push(if i == 0 {
                    LabeledSpan::new_primary_with_span(text, span)
                } else {
                    LabeledSpan::new_with_span(text, span)
                });
            } else if let Some(s) = sources.get(loc.file as usize) {
                let (line, column) = s.line_column(loc.span.start as usize);
                elsewhere.push(format!("{} ({}:{line}:{column})", label, s.name));
            }
        }
        let mut help = self.help.clone();
        if !elsewhere.is_empty() {
            let note = format!("see also: {}", elsewhere.join("; "));
            help = Some(match help {
                Some(h) => format!("{h}\n{note}"),
                None => note,
            });
        }
        // The labels' lines and a margin wider than miette's context (one line).
        let (first, last) = if lo <= hi {
            (src.line_index(lo), src.line_index(hi))
        } else {
            (0, 0)
        };
        let first = first.saturating_sub(WINDOW_MARGIN);
        let start = src.line_start(first);
        let end = src.line_start(last + WINDOW_MARGIN + 1);
        // Long lines cut around the labels, which are moved to where their characters
        // are in the cut text.
        let at = |o: usize| o.clamp(start, end) - start;
        let spans: Vec<(usize, usize)> = labels
            .iter()
            .map(|l| (at(l.offset()), at(l.offset() + l.len())))
            .collect();
        let cut = Cut::new(&src.text[start..end], &spans, MAX_LINE_CHARS);
        let labels = labels
            .iter()
            .map(|l| {
                let from = start + cut.map(at(l.offset()));
                let to = start + cut.map(at(l.offset() + l.len()));
                let span = SourceSpan::new(from.into(), to - from);
                if l.primary() {
                    LabeledSpan::new_primary_with_span(l.label().map(String::from), span)
                } else {
                    LabeledSpan::new_with_span(l.label().map(String::from), span)
                }
            })
            .collect();
        Rendered {
            code: self.code,
            // Rule files hold no control characters (they are refused before parsing),
            // but a message may quote a value given on the command line.
            message: message_text(&self.message).into_owned(),
            labels,
            help: help.map(|h| message_text(&h).into_owned()),
            severity: self.severity,
            note: false,
            related: self
                .related
                .iter()
                .map(|r| Rendered {
                    note: true,
                    ..r.render_with(sources)
                })
                .collect(),
            src: Snippet {
                shifts: cut.shifts(start),
                window: SourceWindow::lines(printable(&src.name), cut.text, start, first),
            },
        }
    }
}

/// The most characters of a source line a snippet shows: a longer line (a list of
/// thousands of names on one line) is cut to about this many around its labels, with
/// `…` where text was left out, so that each diagnostic drawn costs a few lines however
/// long the line.
pub const MAX_LINE_CHARS: usize = 200;

/// The most characters of a name a message quotes between backticks: names are typed,
/// so a longer one is a file's content (a name of 100,000 characters), cut with `…`.
pub const MAX_QUOTED_CHARS: usize = 64;

/// The most characters of a message, a label or a help line.
pub const MAX_MESSAGE_CHARS: usize = 1_000;

/// A message, label or help as it is shown: control characters as `?` (a message may
/// quote a value given on the command line), each quoted name cut to
/// [`MAX_QUOTED_CHARS`] and the whole to [`MAX_MESSAGE_CHARS`], so that what a
/// diagnostic prints does not grow with what a file holds.
pub fn message_text(text: &str) -> std::borrow::Cow<'_, str> {
    let long = text.len() > MAX_QUOTED_CHARS
        && (text.chars().count() > MAX_MESSAGE_CHARS
            || text
                .split('`')
                .skip(1)
                .step_by(2)
                .any(|q| q.chars().count() > MAX_QUOTED_CHARS));
    if !long {
        return printable(text);
    }
    let mut out = String::new();
    let (mut quoted, mut in_quote, mut cut) = (false, 0usize, false);
    // Characters kept: the cap is on what is shown.
    let mut kept = 0;
    for c in text.chars() {
        if kept == MAX_MESSAGE_CHARS {
            out.push('…');
            break;
        }
        kept += 1;
        if c == '`' {
            quoted = !quoted;
            in_quote = 0;
            cut = false;
            out.push(c);
            continue;
        }
        if quoted {
            in_quote += 1;
            if in_quote > MAX_QUOTED_CHARS {
                kept -= 1;
                if !cut {
                    out.push('…');
                    cut = true;
                }
                continue;
            }
        }
        out.push(c);
    }
    std::borrow::Cow::Owned(printable(&out).into_owned())
}

/// The least a label's ends keep of the line on either side, however many labels share
/// the line.
const MIN_CONTEXT_CHARS: usize = 8;

/// Lines of source with each line over the cap cut around given points (the labels'
/// ends), and where every kept piece of the original went.
#[derive(Debug)]
struct Cut {
    /// The lines as drawn.
    text: String,
    /// Every kept run of the original, in order.
    pieces: Vec<Piece>,
}

/// A run of the original text kept in the cut text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    /// Byte range in the original, `to` exclusive.
    from: usize,
    to: usize,
    /// Byte offset of its first byte in the cut text.
    at: usize,
    /// How many more characters precede it on its line in the original than in the cut
    /// text (what was left out, less the `…` that stands for it).
    shift: usize,
}

impl Cut {
    /// Cuts each line of `text` longer than `max` characters to runs around the
    /// `spans` (byte ranges in `text`, the labels) on it, or to its start when none is.
    fn new(text: &str, spans: &[(usize, usize)], max: usize) -> Cut {
        let mut cut = Cut {
            text: String::with_capacity(text.len().min(64 * max)),
            pieces: Vec::new(),
        };
        let mut line_start = 0;
        for line in text.split_inclusive('\n') {
            let body = line.trim_end_matches(['\n', '\r']);
            let line_end = line_start + body.len();
            // Each label's part on this line: both ends, or the one end it has here.
            let on = |p: usize| (line_start..=line_end).contains(&p).then(|| p - line_start);
            let here: Vec<(usize, usize)> = spans
                .iter()
                .filter_map(|(a, b)| match (on(*a), on(*b)) {
                    (Some(a), Some(b)) => Some((a, b)),
                    (Some(p), None) | (None, Some(p)) => Some((p, p)),
                    (None, None) => None,
                })
                .collect();
            cut.line(body, line_start, &here, max);
            // The line end, kept whole.
            cut.keep(line, body.len(), line.len(), line_start, 0);
            line_start += line.len();
        }
        cut
    }

    /// Adds one line's `body` (at `offset` in the original), cut to runs around `spans`
    /// (byte ranges in `body`) when it is longer than `max` characters.
    fn line(&mut self, body: &str, offset: usize, spans: &[(usize, usize)], max: usize) {
        let chars: Vec<usize> = body.char_indices().map(|(i, _)| i).collect();
        let n = chars.len();
        if n <= max {
            self.keep(body, 0, body.len(), offset, 0);
            return;
        }
        // Each label as characters: a short one is kept whole, a long one by its two
        // ends; the rest of the line's budget is shared out around them.
        let char_of = |b: usize| chars.partition_point(|i| *i < b);
        let mut units: Vec<(usize, usize)> = Vec::new();
        for (a, b) in spans {
            let (a, b) = (char_of(*a), char_of(*b));
            if b - a <= max / 2 {
                units.push((a, b));
            } else {
                units.extend([(a, a), (b, b)]);
            }
        }
        let runs = if units.is_empty() {
            vec![(0, max)]
        } else {
            let held: usize = units.iter().map(|(a, b)| b - a).sum();
            let reach = (max.saturating_sub(held) / (2 * units.len())).max(MIN_CONTEXT_CHARS);
            let mut around: Vec<(usize, usize)> = units
                .iter()
                .map(|(a, b)| (a.saturating_sub(reach), (b + reach).min(n)))
                .collect();
            around.sort_unstable();
            // Runs that overlap, or leave a gap no wider than its `…`, become one.
            let mut runs: Vec<(usize, usize)> = Vec::new();
            for (a, b) in around {
                match runs.last_mut() {
                    Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
                    _ => runs.push((a, b)),
                }
            }
            runs
        };
        let byte = |c: usize| chars.get(c).copied().unwrap_or(body.len());
        let mut shown = 0; // characters of this line in the cut text so far
        for (a, b) in runs {
            if a > 0 && self.pieces.last().is_none_or(|p| p.to < offset + byte(a)) {
                self.text.push('…');
                shown += 1;
            }
            self.keep(body, byte(a), byte(b), offset, a - shown);
            shown += b - a;
            if b == n {
                return;
            }
        }
        self.text.push('…');
    }

    /// Keeps `text[from..to]`, which is at `offset + from` in the original.
    fn keep(&mut self, text: &str, from: usize, to: usize, offset: usize, shift: usize) {
        if from == to {
            return;
        }
        self.pieces.push(Piece {
            from: offset + from,
            to: offset + to,
            at: self.text.len(),
            shift,
        });
        self.text.push_str(&text[from..to]);
    }

    /// Where byte `offset` of the original is in the cut text. Every label's ends are
    /// kept; any other offset goes to the end of the run before it.
    fn map(&self, offset: usize) -> usize {
        let i = self.pieces.partition_point(|p| p.from <= offset);
        match i.checked_sub(1).map(|i| self.pieces[i]) {
            Some(p) => p.at + offset.min(p.to) - p.from,
            None => 0,
        }
    }

    /// Each kept run as the byte range it takes in the cut text, given as the file's
    /// offsets (from `start`), with its [`Piece::shift`], for the heading's column.
    fn shifts(&self, start: usize) -> Vec<(usize, usize, usize)> {
        self.pieces
            .iter()
            .map(|p| (start + p.at, start + p.at + p.to - p.from, p.shift))
            .collect()
    }
}

/// The lines drawn with a diagnostic: a [`SourceWindow`] over the cut text, and the
/// correction its heading's column needs on a cut line (it counts the characters before
/// the label in the cut text; the file has those that were left out too).
#[derive(Debug)]
struct Snippet {
    window: SourceWindow,
    /// `(from, to, shift)`: each kept run's bytes in the cut text (as the file's
    /// offsets), and how many characters were left out before it on its line.
    shifts: Vec<(usize, usize, usize)>,
}

impl SourceCode for Snippet {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let c = self
            .window
            .read_span(span, context_lines_before, context_lines_after)?;
        // Only the heading is given a column (miette asks for it with no context).
        let at = span.offset();
        let shift = self
            .shifts
            .iter()
            .find(|(from, to, _)| (*from..=*to).contains(&at))
            .map_or(0, |(_, _, shift)| *shift);
        if shift == 0 || c.column() == 0 {
            return Ok(c);
        }
        Ok(Box::new(MietteSpanContents::new_named(
            self.window.name().to_string(),
            c.data(),
            *c.span(),
            c.line(),
            c.column() + shift,
            c.line_count(),
        )))
    }
}

/// Lines of the file around a diagnostic's labels handed to miette: more than miette
/// draws around a label, so the snippet is the same as with the whole file.
const WINDOW_MARGIN: usize = 4;

/// How many lines apart a secondary label may be from the primary one and still be
/// drawn in the same snippet.
const NEAR_LINES: usize = 4;

/// The 1-based line number of a byte offset.
pub fn line_of(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()[..offset]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// A diagnostic with its source attached, ready for miette to draw.
#[derive(Debug)]
pub struct Rendered {
    code: &'static str,
    message: String,
    labels: Vec<LabeledSpan>,
    help: Option<String>,
    severity: Severity,
    /// Drawn as a note under another diagnostic (miette's advice), not as a problem.
    note: bool,
    related: Vec<Rendered>,
    src: Snippet,
}

impl fmt::Display for Rendered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Rendered {}

impl miette::Diagnostic for Rendered {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        // A note belongs to the diagnostic above it, whose code is already shown.
        if self.note {
            return None;
        }
        Some(Box::new(self.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            _ if self.note => miette::Severity::Advice,
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.src)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(
            self.related.iter().map(|r| r as &dyn miette::Diagnostic),
        ))
    }
}

#[cfg(test)]
mod message_tests {
    use super::*;

    #[test]
    fn long_quoted_names_are_cut_and_the_rest_kept() {
        let name = "n".repeat(100_000);
        let shown = message_text(&format!("unknown name `{name}`: declare `it`")).into_owned();
        assert_eq!(
            shown,
            format!(
                "unknown name `{}…`: declare `it`",
                "n".repeat(MAX_QUOTED_CHARS)
            )
        );
        let short = "unknown name `x`";
        assert!(matches!(message_text(short), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn a_long_message_is_cut_at_its_cap() {
        let shown = message_text(&"a b ".repeat(1_000)).into_owned();
        assert_eq!(shown.chars().count(), MAX_MESSAGE_CHARS + 1);
        assert!(shown.ends_with('…'));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuda_grammar::Span;

    /// A diagnostic at `what` (its first occurrence) in `text`, ready to draw.
    fn rendered(text: &str, what: &str) -> Rendered {
        let sources = vec![Source::new("a.fuda", Arc::from(text))];
        let start = text.find(what).expect("in the text") as u32;
        let loc = Loc {
            file: 0,
            span: Span {
                start,
                end: start + what.len() as u32,
            },
        };
        Diagnostic::error("fuda::x", "bad", loc, "here").render_with(&sources)
    }

    #[test]
    fn a_short_line_is_kept_whole() {
        let cut = Cut::new("abc\ndef\n", &[(5, 6)], 10);
        assert_eq!(cut.text, "abc\ndef\n");
        assert_eq!(cut.map(5), 5);
    }

    #[test]
    fn a_long_line_is_cut_around_its_points_and_they_are_moved() {
        let line = "0123456789".repeat(10);
        let text = format!("{line}\nnext\n");
        // A label on 50..53, a cap of 30: the label and 13 characters on each side.
        let cut = Cut::new(&text, &[(50, 53)], 30);
        assert_eq!(cut.text, "…78901234567890123456789012345…\nnext\n");
        // The label keeps its characters.
        assert_eq!(&cut.text[cut.map(50)..cut.map(53)], "012");
        assert_eq!(cut.map(101), cut.text.find("next").expect("kept"));
        // Before the first kept character, 37 were left out for one `…`.
        assert_eq!(cut.pieces[0].shift, 36);
    }

    #[test]
    fn a_long_line_without_points_keeps_its_start() {
        let cut = Cut::new(&"x".repeat(30), &[], 10);
        assert_eq!(cut.text, format!("{}…", "x".repeat(10)));
    }

    #[test]
    fn points_far_apart_keep_a_run_each() {
        let line: String = ('a'..='z').cycle().take(400).collect();
        // Two labels far apart, and one too long to keep whole (kept by its ends).
        let cut = Cut::new(&line, &[(100, 101), (300, 302), (150, 250)], 40);
        assert_eq!(cut.text.matches('…').count(), 5, "{}", cut.text);
        for p in [100, 150, 250, 300, 302] {
            let at = cut.map(p);
            assert_eq!(&cut.text[at..at + 1], &line[p..p + 1], "{p}");
        }
        // Each end keeps at least a few characters on either side, whatever the cap.
        let least = 2 * MIN_CONTEXT_CHARS + 2;
        assert!(cut.text.chars().count() <= 4 * least + 5, "{}", cut.text);
    }

    #[test]
    fn a_snippet_of_a_long_line_points_at_the_right_characters() {
        // Wide characters before the mistake: the heading counts characters.
        let text = format!(
            "ruleset \"x\"\ndef 数 = {}hiddn + 1\n",
            "山札 + ".repeat(500)
        );
        let r = rendered(&text, "hiddn");
        let line = text.lines().nth(1).expect("line 2");
        let column = line[..line.find("hiddn").expect("there")].chars().count();
        let label = r.labels[0].inner();
        // The heading: line 2, at the character's column in the file.
        let heading = r.src.read_span(label, 0, 0).expect("heading");
        assert_eq!((heading.line(), heading.column()), (1, column));
        // The drawn line: cut, and the label's span on `hiddn` in it.
        let drawn = r.src.read_span(label, 1, 1).expect("lines");
        let data = std::str::from_utf8(drawn.data()).expect("text");
        let at = label.offset() - drawn.span().offset();
        assert_eq!(&data[at..at + label.len()], "hiddn", "{data}");
        let cut = data.lines().nth(1).expect("the cut line");
        assert!(cut.starts_with('…') && cut.ends_with("hiddn + 1"), "{cut}");
        assert!(cut.chars().count() <= MAX_LINE_CHARS + 2, "{cut}");
    }

    #[test]
    fn a_window_of_short_lines_is_drawn_as_it_is() {
        let text = "ruleset \"x\"\nzone 山札 shared stack hiddn\n";
        let r = rendered(text, "hiddn");
        let label = r.labels[0].inner();
        assert_eq!(label.offset(), text.find("hiddn").expect("there"));
        let heading = r.src.read_span(label, 0, 0).expect("heading");
        assert_eq!((heading.line(), heading.column()), (1, 21));
    }
}
