//! The fuda rule language's syntax: the pest grammar, the syntax tree and syntax diagnostics.
//!
//! [`parse`] turns source text into an [`ast::File`]; nothing downstream sees pest.

pub mod ast;
pub mod distance;
mod error;
mod parse;
mod source;
mod span;
pub mod text;

pub use error::{SyntaxError, SyntaxErrorKind};
pub use parse::{parse, MAX_DEPTH, MAX_NESTING, MAX_PARSER_STEPS, MAX_SOURCE_BYTES};
pub use source::SourceWindow;
pub use span::{line_column, Span};
