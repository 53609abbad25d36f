//! `parse`: source text to syntax tree, through pest, under limits that keep untrusted input safe.

mod build;
mod expr;
mod items;
mod limits;
mod messages;
mod stmts;

use std::num::NonZeroUsize;
use std::sync::Mutex;

use pest::Parser as _;
use pest_derive::Parser;

use crate::ast;
use crate::error::{Problem, SyntaxError, SyntaxErrorKind};

pub use build::MAX_DEPTH;
pub use limits::{MAX_NESTING, MAX_SOURCE_BYTES};

/// The pest parser generated from `grammar/fuda.pest`.
#[derive(Parser)]
#[grammar = "../fuda.pest"]
pub(crate) struct FudaParser;

/// Parses one rule file. `name` is the file's name for diagnostics; `source` its text.
///
/// Never panics, and stays linear in time and bounded in stack on any input: the size,
/// bracket nesting and tree depth are limited (see [`MAX_SOURCE_BYTES`],
/// [`MAX_NESTING`], [`MAX_DEPTH`]), and going past a limit is a [`SyntaxError`] too.
pub fn parse(name: &str, source: &str) -> Result<ast::File, SyntaxError> {
    parse_inner(source).map_err(|problem| {
        // Keep at most the part that was read, so an oversized input is not copied whole.
        let mut keep = source.len().min(MAX_SOURCE_BYTES);
        while !source.is_char_boundary(keep) {
            keep -= 1;
        }
        // The text is kept for the snippet: with its control characters masked, so a
        // hostile file cannot drive the terminal through the error message.
        problem.into_error(name, crate::text::printable(&source[..keep]).into_owned())
    })
}

fn parse_inner(source: &str) -> Result<ast::File, Box<Problem>> {
    limits::check_size(source.len())?;
    limits::check_chars(source)?;
    let scan = limits::scan(source)?;
    CALL_LIMIT.call_once(|| pest::set_call_limit(NonZeroUsize::new(MAX_PARSER_STEPS)));
    parse_by_items(source, &scan)
}

/// How many grammar rules pest may try for one declaration. The parser's memory (pest
/// keeps some forty bytes per rule matched) and time follow it; the largest bundled
/// declaration takes about 35,000. A declaration that needs more is refused.
pub const MAX_PARSER_STEPS: usize = 4_000_000;

/// pest's limit is one setting for the whole process: set once, never changed.
static CALL_LIMIT: std::sync::Once = std::sync::Once::new();

/// Reads the file one item at a time, building each item's tree as soon as pest has
/// read it, so that pest holds the tokens of one declaration at once, never of the
/// whole file. A tree builder's error is returned only once every later item has been
/// read too: a problem pest finds anywhere is reported first, as it always was.
fn parse_by_items(source: &str, scan: &limits::Scan) -> Result<ast::File, Box<Problem>> {
    let mut builder = build::Builder::new();
    let mut items = Vec::new();
    let mut failed: Option<Box<Problem>> = None;
    // Where the text given to pest starts, and where the previous item's text started.
    let mut at = 0;
    let mut previous = 0;
    loop {
        let rule = if at == 0 {
            Rule::first_item
        } else {
            Rule::next_item
        };
        let rest = source.get(at..).unwrap_or_default();
        let top = match FudaParser::parse(rule, rest) {
            Ok(mut pairs) => pairs.next(),
            Err(e) => return Err(failure(source, scan, &e, at, previous)),
        };
        let item = top.and_then(|t| t.into_inner().find(|p| p.as_rule() != Rule::EOI));
        let Some(item) = item else {
            return match failed {
                Some(problem) => Err(problem),
                None => Ok(ast::File { items }),
            };
        };
        let end = item.as_span().end();
        if failed.is_none() {
            match build::from_offset(at, || builder.item(item)) {
                Ok(i) => items.push(i),
                Err(problem) => failed = Some(problem),
            }
        }
        previous = at;
        // An item is never empty, so every round moves on.
        at += end.max(1);
    }
}

/// The problem pest reported reading the item that starts at `at` (the previous one
/// started at `previous`).
fn failure(
    source: &str,
    scan: &limits::Scan,
    e: &pest::error::Error<Rule>,
    at: usize,
    previous: usize,
) -> Box<Problem> {
    if let pest::error::ErrorVariant::CustomError { message } = &e.variant {
        if message.contains("call limit") {
            return too_large_item(source, at);
        }
    }
    // Read again from the previous item on, as one file: an attempt to continue that
    // item may have got further than this one's, and the furthest place pest reached
    // is where the message points (with every token pest expected there recorded).
    // Two items may take more steps together than one: then this one alone is read.
    let again = |from: usize| {
        let rule = if from == 0 { Rule::file } else { Rule::rest };
        parse_with_detail(rule, source.get(from..).unwrap_or_default())
            .err()
            .filter(|e| !matches!(e.variant, pest::error::ErrorVariant::CustomError { .. }))
            .map(|e| (e, from))
    };
    match again(previous).or_else(|| again(at)) {
        Some((e, from)) => messages::from_pest(&e, source, scan, from),
        None => messages::from_pest(e, source, scan, at),
    }
}

/// A declaration that takes pest more than [`MAX_PARSER_STEPS`] to read.
fn too_large_item(source: &str, at: usize) -> Box<Problem> {
    // The declaration starts at its first word after the blanks and comments.
    let rest = source.get(at..).unwrap_or_default();
    let mut start = at;
    let mut lines = rest.split_inclusive('\n');
    for line in lines.by_ref() {
        let code = line.trim_start_matches([' ', '\t', '\r', '\u{3000}', ';', '\n']);
        if code.is_empty() || code.starts_with('#') {
            start += line.len();
            continue;
        }
        start += line.len() - code.len();
        break;
    }
    let word_end = source[start..]
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(source.len(), |i| start + i);
    Problem::new(
        SyntaxErrorKind::TooLarge,
        crate::Span::new(start, word_end.max(start)),
        format!(
            "this declaration is too large to read: it takes the parser more than {MAX_PARSER_STEPS} steps"
        ),
        "this declaration",
    )
    .help("split it into several declarations (procedures, defs, score tables) of a few hundred lines each")
}

/// Serialises the detailed re-parse: pest's switch for recording every expected token
/// is process-wide, and only this function turns it on and off, under this lock.
static DETAIL: Mutex<()> = Mutex::new(());

/// Parses `text` by `rule` again, recording every token pest expected at the failure,
/// so the message can name literal tokens like `{` or `=`. Only failed parses pay for
/// this, and only for the items around the failure.
fn parse_with_detail(rule: Rule, text: &str) -> Result<(), pest::error::Error<Rule>> {
    let _guard = DETAIL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    pest::set_error_detail(true);
    let result = FudaParser::parse(rule, text).map(|_| ());
    pest::set_error_detail(false);
    result
}
