//! What several engine test files share: compiling a small ruleset and running its
//! in-file tests.

#![allow(dead_code)] // each test file uses a different part of this helper

use fuda_core::loader::NoFiles;

/// The program of rule text `text`, or a panic with its diagnostics.
pub fn program(text: &str) -> fuda_core::Program {
    match fuda_core::compile("t.fuda", text, &NoFiles) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    }
}

/// Runs every in-file test of `p` (there must be some), panicking at the first failure.
pub fn run_tests(p: &fuda_core::Program) {
    for i in 0..p.tests.len() {
        if let Err(e) = fuda_core::State::run_test(p, i) {
            panic!("test \"{}\": {}", p.tests[i].name, e.message);
        }
    }
    assert!(!p.tests.is_empty());
}
