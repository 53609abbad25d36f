//! `fuda check`: compile rulesets and report every problem, or a one-line summary.

use std::path::PathBuf;

use fuda_core::ir::StageDef;
use fuda_core::Program;

use crate::load::{self, plural};
use crate::render::{self, Stream};
use crate::{errln, outln, stdin};

/// Arguments of `fuda check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Ruleset files to check (`-` reads one from standard input, named `<stdin>`, its
    /// imports from the current folder).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// Checks each file; 0 when all compile, 1 otherwise.
pub fn run(args: &Args) -> miette::Result<u8> {
    let mut failed = 0;
    for path in &args.files {
        let shown = stdin::shown(path);
        match load::compile_file(path) {
            Err(e) => {
                errln!("{e:?}");
                failed += 1;
            }
            Ok(Ok(c)) => {
                for w in &c.warnings {
                    render::err(&render::program_diagnostic(
                        w,
                        &c.program.sources,
                        Stream::Err,
                    ));
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

/// `My Game (48 cards, 3 seats, 10 yaku, 28 tests)`.
pub fn summary(p: &Program) -> String {
    let seats = match crate::params::seat_count(p, &vec![None; p.params.len()]) {
        Ok(n) => n.to_string(),
        Err(_) => "?".into(),
    };
    let yaku: usize = p
        .scores
        .iter()
        .flat_map(|s| &s.stages)
        .map(|st| {
            if let StageDef::Yaku(_, rows) = st {
                rows.len()
            } else {
                0
            }
        })
        .sum();
    format!(
        "{} ({} cards, {seats} seats, {yaku} yaku, {})",
        p.title,
        p.deck.len(),
        plural(p.tests.len(), "test")
    )
}
