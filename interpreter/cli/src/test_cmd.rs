//! `fuda test`: run the in-file `test` blocks of rulesets and report failures.

use std::path::PathBuf;

use fuda_core::State;

use crate::load;
use crate::outln;
use crate::render::{self, Stream};
use crate::stdin;

/// Arguments of `fuda test`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Ruleset files whose tests to run (`-` reads one from standard input).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Run only the tests whose name contains this text.
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,
}

/// Runs the tests; 0 when all pass, 1 on any failure or a ruleset that does not compile.
pub fn run(args: &Args) -> miette::Result<u8> {
    let mut passed = 0usize;
    let mut failed = 0usize;
    for path in &args.files {
        let shown = stdin::shown(path);
        let compiled = match load::compile_file(path) {
            Err(e) => {
                crate::errln!("{e:?}");
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
        for (i, t) in p.tests.iter().enumerate() {
            if args.filter.as_deref().is_some_and(|f| !t.name.contains(f)) {
                continue;
            }
            match State::run_test(p, i) {
                Ok(()) => file_passed += 1,
                Err(e) => {
                    file_failed += 1;
                    outln!("FAIL {shown}: {}", t.name);
                    render::out(&render::program_diagnostic(
                        &e.to_diagnostic(),
                        &p.sources,
                        Stream::Out,
                    ));
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
