//! `parse`: source text to syntax tree, through pest, under limits that keep untrusted input safe.

mod build;
mod expr;
mod items;
mod limits;
mod messages;
mod stmts;

use std::sync::Mutex;

use pest::Parser as _;
use pest_derive::Parser;

use crate::ast;
use crate::error::{Problem, SyntaxError};

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
    let pairs = match FudaParser::parse(Rule::file, source) {
        Ok(pairs) => pairs,
        Err(plain) => {
            let error = if source.len() <= DETAIL_LIMIT {
                match parse_with_detail(source) {
                    Err(e) => e,
                    Ok(()) => {
                        return Err(build::bug(crate::Span::default(), "the same result twice"))
                    }
                }
            } else {
                plain
            };
            return Err(messages::from_pest(&error, source, &scan));
        }
    };
    let file = pairs
        .into_iter()
        .next()
        .ok_or_else(|| build::bug(crate::Span::default(), "a file"))?;
    build::Builder::new().file(file)
}

/// Failing sources up to this size are parsed again with pest's error detail, which
/// names literal tokens (`expected \`=\``) but costs about three parses; larger ones
/// (never a hand-written rule file) get the rule-level message only.
const DETAIL_LIMIT: usize = 256 * 1024;

/// Serialises the detailed re-parse: pest's switch for recording every expected token
/// is process-wide, and only this function turns it on and off, under this lock.
static DETAIL: Mutex<()> = Mutex::new(());

/// Parses again, recording every token pest expected at the failure, so the message
/// can name literal tokens like `{` or `=`. Only failed parses pay for this.
fn parse_with_detail(source: &str) -> Result<(), pest::error::Error<Rule>> {
    let _guard = DETAIL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    pest::set_error_detail(true);
    let result = FudaParser::parse(Rule::file, source).map(|_| ());
    pest::set_error_detail(false);
    result
}
