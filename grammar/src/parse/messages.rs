//! Turns pest's failures into plain words.

use pest::error::{Error, ErrorVariant, InputLocation};

use super::limits::Scan;
use super::Rule;
use crate::error::{Problem, SyntaxErrorKind};
use crate::Span;

pub(super) fn from_pest(e: &Error<Rule>, _src: &str, _scan: &Scan) -> Box<Problem> {
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let msg = match &e.variant {
        ErrorVariant::ParsingError { positives, negatives } => format!("{positives:?} / {negatives:?} / {:?}", e.parse_attempts().map(|a| (a.expected_tokens(), a.call_stacks()))),
        ErrorVariant::CustomError { message } => message.clone(),
    };
    Problem::new(SyntaxErrorKind::Unexpected, Span::new(pos, pos), msg, "here")
}
