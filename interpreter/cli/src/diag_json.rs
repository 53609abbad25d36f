//! Diagnostics as JSON for `--json`: where each problem is (lines and columns from 1,
//! columns counted in characters as an editor shows them, not in bytes), its code,
//! severity, message, labels and help, so that a tool can place it without rendering.

use fuda_core::diagnostic::{message_text, Severity};
use fuda_core::ir::{Loc, Source};
use fuda_core::Diagnostic;
use serde_json::{json, Map, Value as Json};

/// A program diagnostic: `file`, `line`, `column` (where its first label starts; null
/// without a label), `code`, `severity`, `message`, `labels` (each with its `text`,
/// `file`, `line`, `column`, `end_line`, `end_column`, the end being just past its
/// last character), `help` (null without) and `notes` (runtime diagnostics: where a
/// failing procedure was called from, each in the same shape).
pub fn diagnostic(d: &Diagnostic, sources: &[Source]) -> Json {
    let labels: Vec<Json> = d
        .labels
        .iter()
        .map(|(loc, text)| {
            let mut l = place(*loc, sources);
            l.insert("text".into(), json!(message_text(text)));
            Json::Object(l)
        })
        .collect();
    let at = d.labels.first().map(|(loc, _)| place(*loc, sources));
    let field = |name: &str| {
        at.as_ref()
            .and_then(|m| m.get(name).cloned())
            .unwrap_or(Json::Null)
    };
    json!({
        "file": field("file"),
        "line": field("line"),
        "column": field("column"),
        "code": d.code,
        "severity": match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        },
        "message": message_text(&d.message),
        "labels": labels,
        "help": d.help.as_deref().map(message_text),
        "notes": d.related.iter().map(|n| diagnostic(n, sources)).collect::<Vec<_>>(),
    })
}

/// The diagnostics of one file that the command's cap lets through (see
/// [`crate::budget`]), and how many it holds back, as `more` (see [`more`]).
pub fn capped(ds: &[Diagnostic], sources: &[Source]) -> (Vec<Json>, Json) {
    capped_with(ds, sources, 0)
}

/// [`capped`] for a ruleset that did not compile: the errors its checker counted but
/// did not keep are in `more` too.
pub fn capped_failure(f: &fuda_core::Failed) -> (Vec<Json>, Json) {
    capped_with(&f.diagnostics, &f.sources, f.unkept)
}

/// [`capped`], with `unkept` errors more held back than `ds` holds.
fn capped_with(ds: &[Diagnostic], sources: &[Source], unkept: usize) -> (Vec<Json>, Json) {
    let (mut errors, mut warnings) = (unkept, 0);
    let mut listed = Vec::new();
    for d in ds {
        if crate::budget::admit() {
            listed.push(diagnostic(d, sources));
        } else {
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
            }
        }
    }
    (listed, more(errors, warnings))
}

/// `{"errors": E, "warnings": W}`: the diagnostics of a file not listed, past the cap.
pub fn more(errors: usize, warnings: usize) -> Json {
    json!({ "errors": errors, "warnings": warnings })
}

/// A user error that points at no text (a file that cannot be read), in the shape of
/// [`diagnostic`]: it names `file`, with no line, column or labels. Its text is masked
/// as a drawn error's is (JSON escapes only some control characters).
pub fn user_error(r: &miette::Report, file: &str) -> Json {
    let m = crate::masked::Masked::new(r);
    json!({
        "file": file,
        "line": null,
        "column": null,
        "code": m.code_text(),
        "severity": "error",
        "message": m.message(),
        "labels": [],
        "help": m.help_text(),
        "notes": [],
    })
}

/// Where a span is: its file's name, and the line and column of its start and end
/// (all null when the file is unknown, which a well-formed diagnostic never has).
fn place(loc: Loc, sources: &[Source]) -> Map<String, Json> {
    let mut m = Map::new();
    let Some(src) = sources.get(loc.file as usize) else {
        for k in ["file", "line", "column", "end_line", "end_column"] {
            m.insert(k.into(), Json::Null);
        }
        return m;
    };
    let (line, column) = fuda_grammar::line_column(&src.text, loc.span.start as usize);
    let (end_line, end_column) = fuda_grammar::line_column(&src.text, loc.span.end as usize);
    m.insert("file".into(), json!(src.name));
    m.insert("line".into(), json!(line));
    m.insert("column".into(), json!(column));
    m.insert("end_line".into(), json!(end_line));
    m.insert("end_column".into(), json!(end_column));
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuda_grammar::Span;
    use std::sync::Arc;

    #[test]
    fn columns_count_characters_and_labels_keep_their_ends() {
        let text = "ruleset \"x\"\nzone 山札 hiddn\n";
        let sources = vec![Source::new("x.fuda", Arc::from(text))];
        let start = text.find("hiddn").expect("in the text") as u32;
        let loc = Loc {
            file: 0,
            span: Span {
                start,
                end: start + 5,
            },
        };
        let d = Diagnostic::error("fuda::syntax", "bad", loc, "here").with_help("fix it");
        let j = diagnostic(&d, &sources);
        // `zone 山札 ` is 8 characters (12 bytes): the word starts at column 9.
        assert_eq!(
            j,
            json!({
                "file": "x.fuda", "line": 2, "column": 9, "code": "fuda::syntax",
                "severity": "error", "message": "bad", "help": "fix it", "notes": [],
                "labels": [{"text": "here", "file": "x.fuda", "line": 2, "column": 9,
                            "end_line": 2, "end_column": 14}],
            })
        );
    }
}
