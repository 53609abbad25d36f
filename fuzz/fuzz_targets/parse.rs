//! Arbitrary bytes (read as UTF-8, lossily) → `fuda_grammar::parse`: never panics, and
//! an error's labels lie inside the source and render.
#![no_main]

use libfuzzer_sys::fuzz_target;
use miette::Diagnostic;

fuzz_target!(|data: &[u8]| {
    let src = String::from_utf8_lossy(data);
    match fuda_grammar::parse("fuzz.fuda", &src) {
        Ok(file) => {
            for item in &file.items {
                let s = item.span();
                assert!(s.start <= s.end && s.end as usize <= src.len());
            }
        }
        Err(e) => {
            for l in e.labels().into_iter().flatten() {
                assert!(
                    l.offset() + l.len() <= src.len(),
                    "label outside the source"
                );
            }
            let mut out = String::new();
            miette::NarratableReportHandler::new()
                .render_report(&mut out, &e)
                .expect("renders");
        }
    }
});
