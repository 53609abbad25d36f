//! `fuda test`: run the in-file `test` blocks of rulesets and report failures, as text
//! or (`--json`) as one JSON object.

use std::path::{Path, PathBuf};

use fuda_core::diagnostic::message_text;
use fuda_core::diagnostic::Severity;
use fuda_core::{Program, RuntimeError, State};
use serde_json::{json, Value as Json};

use crate::load;
use crate::outln;
use crate::render::{self, Stream};
use crate::{diag_json, stdin};

/// Arguments of `fuda test`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Ruleset files whose tests to run (`-` reads one from standard input).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Run only the tests whose name contains this text.
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,
    /// Print one JSON object instead of text: `{"ok", "passed", "failed", "files":
    /// [{"file", "compiled", "passed", "failed", "filtered_out", "tests": [{"name",
    /// "line", "result", "message", "diagnostic"}], "diagnostics", "more"}]}`: a file
    /// that does not compile lists its errors under `diagnostics` and counts the others
    /// in `more` (`{"errors", "warnings"}`); a failed test's `diagnostic` is null past
    /// the command's first 100 diagnostics.
    #[arg(long)]
    pub json: bool,
}

/// The tests of `p` that `filter` selects, by index, each run: `Err` for a failure. The
/// tests of one file share one budget of work (`GAME_BUDGET`), so that however many
/// heavy tests a file holds, `fuda test` ends in seconds.
fn run_tests<'p>(
    p: &'p Program,
    filter: Option<&'p str>,
) -> impl Iterator<Item = (usize, Result<(), RuntimeError>)> + 'p {
    let mut budget = fuda_core::engine::GAME_BUDGET;
    (0..p.tests.len())
        .filter(move |i| filter.is_none_or(|f| p.tests[*i].name.contains(f)))
        .map(move |i| (i, State::run_test_within(p, i, &mut budget)))
}

/// Runs the tests; 0 when all pass, 1 on any failure or a ruleset that does not compile.
pub fn run(args: &Args) -> miette::Result<u8> {
    if args.json {
        return run_json(args);
    }
    let mut passed = 0usize;
    let mut failed = 0usize;
    for path in &args.files {
        let shown = stdin::shown(path);
        let compiled = match load::compile_file(path) {
            Err(e) => {
                crate::render::err(&crate::render::report(&e));
                failed += 1;
                continue;
            }
            Ok(Err(f)) => {
                let (errors, _) = load::report_failure(&f);
                // A ruleset that does not compile counts as one failure so the closing
                // line never says "0 failed" while the command fails.
                outln!(
                    "FAIL {shown}: does not compile ({})",
                    load::plural(errors, "error")
                );
                failed += 1;
                continue;
            }
            Ok(Ok(c)) => c,
        };
        let p = &compiled.program;
        let (mut file_passed, mut file_failed) = (0, 0);
        for (i, result) in run_tests(p, args.filter.as_deref()) {
            match result {
                Ok(()) => file_passed += 1,
                Err(e) => {
                    file_failed += 1;
                    // A failing test is drawn with its diagnostic under the command's
                    // cap: a file may hold 10,000 failing tests.
                    let d = e.to_diagnostic();
                    if crate::budget::draw(d.severity) {
                        let name = render::brief(&p.tests[i].name, render::QUOTED_CHARS);
                        outln!("FAIL {shown}: {name}");
                        render::out(&render::program_diagnostic(&d, &p.sources, Stream::Out));
                    }
                }
            }
        }
        let ran = file_passed + file_failed;
        let skipped = if ran < p.tests.len() {
            format!(" ({} filtered out)", p.tests.len() - ran)
        } else {
            String::new()
        };
        outln!("{shown}: {file_passed}/{ran} ok{skipped}");
        passed += file_passed;
        failed += file_failed;
    }
    outln!("{passed} passed, {failed} failed");
    Ok(u8::from(failed > 0))
}

/// `--json`: one object on stdout, nothing drawn on stderr. The totals count a file
/// that does not compile (or cannot be read) as one failure, as the text does.
fn run_json(args: &Args) -> miette::Result<u8> {
    let files: Vec<Json> = args
        .files
        .iter()
        .map(|path| file_json(path, args.filter.as_deref()))
        .collect();
    let total = |key: &str| -> u64 { files.iter().filter_map(|f| f[key].as_u64()).sum() };
    let (passed, failed) = (total("passed"), total("failed"));
    outln!(
        "{}",
        json!({ "ok": failed == 0, "passed": passed, "failed": failed, "files": files })
    );
    Ok(u8::from(failed > 0))
}

/// One file's entry of `--json`.
fn file_json(path: &Path, filter: Option<&str>) -> Json {
    let shown = stdin::shown(path);
    let not_compiled = |diagnostics: Vec<Json>, more: Json| {
        json!({
            "file": shown, "compiled": false, "passed": 0, "failed": 1, "filtered_out": 0,
            "tests": [], "diagnostics": diagnostics, "more": more,
        })
    };
    let compiled = match load::compile_file(path) {
        Err(e) => {
            return not_compiled(
                vec![diag_json::user_error(&e, &shown)],
                diag_json::more(0, 0),
            )
        }
        Ok(Err(mut f)) => {
            // Only the errors are listed: they are why no test ran.
            f.diagnostics.retain(|d| d.severity == Severity::Error);
            let (listed, more) = diag_json::capped_failure(&f);
            return not_compiled(listed, more);
        }
        Ok(Ok(c)) => c,
    };
    let p = &compiled.program;
    let tests: Vec<Json> = run_tests(p, filter)
        .map(|(i, result)| {
            let t = &p.tests[i];
            let line = p
                .sources
                .get(t.loc.file as usize)
                .map(|s| fuda_grammar::line_column(&s.text, t.loc.span.start as usize).0);
            let (result, message, diagnostic) = match result {
                Ok(()) => ("passed", Json::Null, Json::Null),
                // Each failure has its message; the first ones, under the command's
                // cap on diagnostics, have their diagnostic too.
                Err(e) => (
                    "failed",
                    json!(message_text(&e.message)),
                    if crate::budget::admit() {
                        diag_json::diagnostic(&e.to_diagnostic(), &p.sources)
                    } else {
                        Json::Null
                    },
                ),
            };
            json!({
                "name": render::brief(&t.name, render::QUOTED_CHARS), "line": line,
                "result": result, "message": message,
                "diagnostic": diagnostic,
            })
        })
        .collect();
    let failed = tests.iter().filter(|t| t["result"] == "failed").count();
    json!({
        "file": shown, "compiled": true, "passed": tests.len() - failed, "failed": failed,
        "filtered_out": p.tests.len() - tests.len(), "tests": tests, "diagnostics": [],
        "more": diag_json::more(0, 0),
    })
}
