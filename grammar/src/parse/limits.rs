//! Limits checked before pest sees the text: input size, characters and nesting depth.
//!
//! pest recurses once per bracket level (about ten rule calls each), and its own stack
//! guard only protects pest; this scan keeps every input we hand on shallow enough for
//! pest and for our tree builder, and reports the first place that is too deep.

use crate::error::{Problem, SyntaxErrorKind};
use crate::Span;

/// The largest source accepted, in bytes: far above any real rule file.
pub const MAX_SOURCE_BYTES: usize = 4 * 1024 * 1024;

/// How deeply brackets, braces and unbracketed `if … then … else` may nest.
pub const MAX_NESTING: usize = 64;

/// What the scan learned that error messages can use.
#[derive(Debug, Default)]
pub(crate) struct Scan {
    /// Openers (`(`, `[`, `{`) never closed, outermost first, with their byte offsets.
    pub unclosed: Vec<(usize, char)>,
    /// The first closer with no opener before it, if any.
    pub stray: Option<usize>,
    /// The first `{ … }` pair, in the order they close, whose `}` starts its line at a
    /// smaller indentation than the line of its `{`: when a `}` is missing, the next `}`
    /// closes the wrong block, and its indentation shows which block that was. The
    /// byte offsets of the `{` and of the `}`.
    pub misaligned: Option<(usize, usize)>,
    /// The first closer that met an opener of another kind (`(1 + 2 }`): the brackets
    /// are then mixed up, and a `{` left open at the end may be a `(`'s fault.
    pub mismatched: Option<usize>,
}

/// Rejects a source that is too large.
pub(crate) fn check_size(len: usize) -> Result<(), Box<Problem>> {
    if len <= MAX_SOURCE_BYTES {
        return Ok(());
    }
    let at = Span::new(MAX_SOURCE_BYTES, MAX_SOURCE_BYTES);
    Err(Problem::new(
        SyntaxErrorKind::TooLarge,
        at,
        format!(
            "this file is too large: {len} bytes, and at most {MAX_SOURCE_BYTES} (4 MiB) are read"
        ),
        "the limit is reached here",
    )
    .help("split the rules into several files and `import` them"))
}

/// Rejects a control character (other than tab and line ends) or a carriage return
/// without a line feed, pointing at the first one: see [`crate::text`].
pub(crate) fn check_chars(src: &str) -> Result<(), Box<Problem>> {
    let Some((at, what)) = crate::text::first_refused(src, true) else {
        return Ok(());
    };
    let len = src[at..].chars().next().map_or(1, char::len_utf8);
    Err(Problem::new(
        SyntaxErrorKind::ControlCharacter,
        Span::new(at, at + len),
        what.message("rule files"),
        what.label(),
    )
    .help(what.help(true)))
}

/// One open bracket level.
struct Level {
    at: usize,
    open: char,
    /// Unclosed expression `if`s of the enclosing level when this one opened.
    saved_ifs: usize,
}

/// Walks the source once, skipping strings and comments, and checks nesting depth.
///
/// Depth is the number of open brackets plus the number of expression `if`s still
/// waiting for their `else`: `if a then if b then …` recurses in pest just like
/// brackets do. `else if` chains are read without recursion, so `else` closes an `if`;
/// a `{` or `}` ends any expression, so it clears the count of its level.
pub(crate) fn scan(src: &str) -> Result<Scan, Box<Problem>> {
    let mut stack: Vec<Level> = Vec::new();
    let mut stray = None;
    let mut misaligned = None;
    let mut mismatched = None;
    let mut ifs = 0usize; // unclosed `if`s at the current level
    let mut outer_ifs = 0usize; // sum of `saved_ifs` over the stack
    let mut chars = src.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '#' => while chars.next_if(|&(_, c)| c != '\n').is_some() {},
            '"' => {
                // Mirrors the grammar: a string ends at `"` and cannot span a line break.
                while let Some((_, c)) = chars.next_if(|&(_, c)| c != '\n') {
                    match c {
                        '"' => break,
                        '\\' => {
                            chars.next();
                        }
                        _ => {}
                    }
                }
            }
            '(' | '[' | '{' => {
                if c == '{' {
                    ifs = 0;
                }
                stack.push(Level {
                    at: i,
                    open: c,
                    saved_ifs: ifs,
                });
                outer_ifs += ifs;
                ifs = 0;
                check_depth(stack.len() + outer_ifs, Span::new(i, i + 1), "bracket")?;
            }
            ')' | ']' | '}' => {
                let matches = stack.last().is_some_and(|l| pair_of(l.open) == c);
                match stack.pop().filter(|_| matches) {
                    Some(level) => {
                        if c == '}' && misaligned.is_none() {
                            let (open_indent, _) = indentation(src, level.at);
                            let (close_indent, starts_line) = indentation(src, i);
                            if starts_line && close_indent < open_indent {
                                misaligned = Some((level.at, i));
                            }
                        }
                        outer_ifs -= level.saved_ifs;
                        ifs = if c == '}' { 0 } else { level.saved_ifs };
                    }
                    None if stack.is_empty() => {
                        stray.get_or_insert(i);
                    }
                    None => {
                        mismatched.get_or_insert(i);
                    }
                }
            }
            c if is_word_char(c) => {
                let mut end = i + c.len_utf8();
                while let Some((j, d)) = chars.next_if(|&(_, d)| is_word_char(d)) {
                    end = j + d.len_utf8();
                }
                match &src[i..end] {
                    "if" => {
                        ifs += 1;
                        check_depth(stack.len() + outer_ifs + ifs, Span::new(i, end), "`if`")?;
                    }
                    "else" => ifs = ifs.saturating_sub(1),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    Ok(Scan {
        unclosed: stack.into_iter().map(|l| (l.at, l.open)).collect(),
        stray,
        misaligned,
        mismatched,
    })
}

/// The indentation of the line holding byte `at` (its leading spaces and tabs, each
/// one column; a full-width space two), and whether `at` is the first thing on it.
pub(crate) fn indentation(src: &str, at: usize) -> (usize, bool) {
    let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &src[line_start..at];
    let lead: usize = before
        .chars()
        .take_while(|c| matches!(c, ' ' | '\t' | '\u{3000}'))
        .map(|c| if c == '\u{3000}' { 2 } else { 1 })
        .sum();
    let starts_line = before.chars().all(|c| matches!(c, ' ' | '\t' | '\u{3000}'));
    (lead, starts_line)
}

fn check_depth(depth: usize, at: Span, what: &str) -> Result<(), Box<Problem>> {
    if depth <= MAX_NESTING {
        return Ok(());
    }
    Err(Problem::new(
        SyntaxErrorKind::TooDeep,
        at,
        format!("this is nested too deeply: more than {MAX_NESTING} levels of brackets, braces and `if`s"),
        format!("this {what} is {depth} levels deep"),
    )
    .help("take the inner part out into a `let` or a `def`"))
}

/// The closer that matches an opener.
pub(crate) fn pair_of(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        _ => '}',
    }
}

/// Characters that continue a word, close enough to the grammar's XID_CONTINUE for
/// spotting the words `if` and `else`.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}
