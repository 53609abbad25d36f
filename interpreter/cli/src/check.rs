//! `fuda check`: compile rulesets and report every problem, or a one-line summary.

use std::path::{Path, PathBuf};

use fuda_core::ir::StageDef;
use fuda_core::{Compiled, Program};
use serde_json::{json, Value as Json};

use crate::load::{self, plural};
use crate::render::{self, Stream};
use crate::{diag_json, outln, stdin};

/// Arguments of `fuda check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Ruleset files to check (`-` reads one from standard input, named `<stdin>`, its
    /// imports from the current folder).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Print one JSON object instead of text: `{"ok", "files": [{"file", "ok",
    /// "summary", "errors", "warnings", "diagnostics": […], "more"}]}`, each diagnostic
    /// with its file, line and column (from 1, in characters), code, severity, message,
    /// labels and help; at most 100 are listed per command, and `more` counts a file's
    /// others: `{"errors", "warnings"}`.
    #[arg(long)]
    pub json: bool,
}

/// Checks each file; 0 when all compile, 1 otherwise.
pub fn run(args: &Args) -> miette::Result<u8> {
    if args.json {
        return run_json(args);
    }
    let mut failed = 0;
    for path in &args.files {
        let shown = stdin::shown(path);
        match load::compile_file(path) {
            Err(e) => {
                crate::render::err(&crate::render::report(&e));
                failed += 1;
            }
            Ok(Ok(c)) => {
                for w in &c.warnings {
                    render::draw_program(w, &c.program.sources, Stream::Err);
                }
                let warn = if c.warnings.is_empty() {
                    String::new()
                } else {
                    format!(", {}", plural(c.warnings.len(), "warning"))
                };
                outln!("{shown}: ok — {}{warn}", summary(&c.program));
            }
            Ok(Err(f)) => {
                let (errors, warnings) = load::report_failure(&f);
                let warn = if warnings == 0 {
                    String::new()
                } else {
                    format!(", {}", plural(warnings, "warning"))
                };
                outln!("{shown}: {}{warn}", plural(errors, "error"));
                failed += 1;
            }
        }
    }
    Ok(u8::from(failed > 0))
}

/// `--json`: one object for all the files on stdout, nothing drawn on stderr; the
/// exit code is the text mode's.
fn run_json(args: &Args) -> miette::Result<u8> {
    let files: Vec<Json> = args.files.iter().map(|p| file_json(p)).collect();
    let ok = files.iter().all(|f| f["ok"] == json!(true));
    outln!("{}", json!({ "ok": ok, "files": files }));
    Ok(u8::from(!ok))
}

/// One file's entry of `--json`.
fn file_json(path: &Path) -> Json {
    let shown = stdin::shown(path);
    match load::compile_file(path) {
        Err(e) => json!({
            "file": shown, "ok": false, "summary": null, "errors": 1, "warnings": 0,
            "diagnostics": [diag_json::user_error(&e, &shown)],
            "more": diag_json::more(0, 0),
        }),
        Ok(Ok(Compiled { program, warnings })) => {
            let (listed, more) = diag_json::capped(&warnings, &program.sources);
            json!({
                "file": shown, "ok": true, "summary": summary(&program), "errors": 0,
                "warnings": warnings.len(), "diagnostics": listed, "more": more,
            })
        }
        Ok(Err(f)) => {
            let (listed, more) = diag_json::capped_failure(&f);
            json!({
                "file": shown, "ok": false, "summary": null, "errors": f.errors(),
                "warnings": f.warnings(), "diagnostics": listed, "more": more,
            })
        }
    }
}

/// `My Game (48 cards, 3 seats, 10 yaku, 28 tests)`.
pub fn summary(p: &Program) -> String {
    let seats = match crate::params::seat_count(p, &vec![None; p.params.len()]) {
        Ok(n) => plural(n as usize, "seat"),
        Err(_) => "? seats".into(),
    };
    // Yaku by name: a row whose value depends on the case is compiled into several.
    let mut names: Vec<u32> = p
        .scores
        .iter()
        .flat_map(|s| &s.stages)
        .flat_map(|st| match st {
            StageDef::Yaku(_, rows) => rows.iter().map(|r| r.0).collect::<Vec<_>>(),
            _ => Vec::new(),
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    let yaku = names.len();
    format!(
        "{} ({} cards, {seats}, {yaku} yaku, {})",
        p.title,
        p.deck.len(),
        plural(p.tests.len(), "test")
    )
}
