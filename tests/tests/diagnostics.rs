//! Golden tests for diagnostics: every `tests/diagnostics/*.fuda` is a ruleset with
//! mistakes; its rendered diagnostics are compared with the stored snapshot.
//!
//! Each file starts with a `#` comment saying what it tests. A ruleset that compiles
//! is snapshotted as `compiles` followed by its warnings (`ok-*.fuda` have none), then
//! each of its `test` blocks that fails, by name, with the run-time error `fuda test`
//! shows (`test-fails-*.fuda`).
//! Sibling `*.inc` files are importable (and extendable) as `NAME.fuda`, for import,
//! cycle and variant tests; sibling `*.txt` files are word lists (`words … from
//! "NAME.txt"`). Neither is tested on its own.
//!
//! After an intended change, regenerate with `INSTA_UPDATE=always cargo test -p fuda-tests`
//! and review the diff of `tests/tests/snapshots/`.

use fuda_core::loader::MemoryFiles;
use miette::{GraphicalReportHandler, GraphicalTheme};

/// Renders every diagnostic of a failed compile as plain text (no colour, ASCII).
fn render(name: &str, text: &str, files: MemoryFiles) -> String {
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .with_show_related_as_nested(true);
    let diags = match fuda_core::compile(name, text, &files) {
        Ok(c) => {
            let mut out = String::from("compiles\n");
            for w in &c.warnings {
                let r = w.render_with(&c.program.sources);
                handler.render_report(&mut out, &r).expect("render");
            }
            let p = &c.program;
            for (i, t) in p.tests.iter().enumerate() {
                if let Err(e) = fuda_core::State::run_test(p, i) {
                    out.push_str(&format!("test `{}` fails:\n", t.name));
                    let r = e.to_diagnostic().render_with(&p.sources);
                    handler.render_report(&mut out, &r).expect("render");
                }
            }
            return out;
        }
        Err(f) => (f.sources, f.diagnostics),
    };
    let mut out = String::new();
    for d in &diags.1 {
        let r = d.render_with(&diags.0);
        handler.render_report(&mut out, &r).expect("render");
    }
    out
}

#[test]
fn diagnostics_match_their_snapshots() {
    insta::glob!("../diagnostics", "*.fuda", |path| {
        let text = std::fs::read_to_string(path).expect("read");
        // Sibling files (other than the one under test) are importable, for import tests.
        let dir = path.parent().expect("dir");
        let mut files = Vec::new();
        for e in std::fs::read_dir(dir).expect("dir").flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "txt") {
                let name = p.file_name().expect("name").to_string_lossy().to_string();
                files.push((name, std::fs::read_to_string(&p).expect("read")));
            }
            if p.extension().map(|x| x == "inc").unwrap_or(false) {
                let name = p
                    .file_name()
                    .expect("name")
                    .to_string_lossy()
                    .replace(".inc", ".fuda");
                files.push((name, std::fs::read_to_string(&p).expect("read")));
            }
        }
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .to_string();
        insta::assert_snapshot!(render(&name, &text, MemoryFiles(files)));
    });
}

/// An import chain longer than the loader allows (64 files): generated, since it
/// needs more files than are worth keeping in `tests/diagnostics/`.
#[test]
fn too_many_files() {
    let mut files = Vec::new();
    for i in 0..70 {
        files.push((
            format!("part{i}.fuda"),
            format!(
                "# part {i} of a long import chain\nimport \"part{}.fuda\"\n",
                i + 1
            ),
        ));
    }
    let text = "# Imports a chain of 70 files, one importing the next.\n\
                ruleset \"too many files\"\n\
                import \"std/hanafuda\"\n\
                import \"part0.fuda\"\n";
    insta::assert_snapshot!(render("too-many-files.fuda", text, MemoryFiles(files)));
}

/// A word list over the 4 MiB cap, and lists holding more than 200,000 words together:
/// generated, since they are too large to keep in `tests/diagnostics/`.
#[test]
fn word_lists_too_large() {
    let deck =
        "deck d { attribute kanji: 一 | 石  card a \"一\" kanji=一  card b \"石\" kanji=石 }\n\
                seats 2 { 2: A B }\nzone 山札 shared stack hidden\n";
    let big = "一石\n".repeat((4 << 20) / 7 + 1);
    let text = format!(
        "# A word list file larger than 4 MiB.\nruleset \"big list\"\n{deck}words 熟語 from \"big.txt\"\n"
    );
    insta::assert_snapshot!(
        "words-file-too-large",
        render(
            "words-file-too-large.fuda",
            &text,
            MemoryFiles(vec![("big.txt".into(), big)])
        )
    );
    let many = "一石\n".repeat(120_000);
    let text = format!(
        "# Two word lists of 120,000 words each: more than 200,000 in all.\nruleset \"many words\"\n{deck}\
         words 一 from \"a.txt\"\nwords 二 from \"b.txt\"\n"
    );
    insta::assert_snapshot!(
        "words-too-many",
        render(
            "words-too-many.fuda",
            &text,
            MemoryFiles(vec![("a.txt".into(), many.clone()), ("b.txt".into(), many)])
        )
    );
}

/// Characters a rule file may not hold, generated so that no raw control character is
/// kept in the repository: each is refused where it stands, and the snippet shows it
/// masked (`?`, one per byte), never raw. A byte-order mark at the start is accepted.
#[test]
fn control_characters_and_line_ends() {
    let head = "ruleset \"toy\"\nimport \"std/hanafuda\"\nseats 2 { 2: A B }\n\
                zone 山 shared stack hidden\n";
    let cases = [
        (
            "control-in-comment",
            format!("# A terminal escape in a comment.\n{head}# \u{1b}]0;PWNED\u{7} \u{1b}[2J\nproc match {{ }}\n"),
        ),
        (
            "control-in-string",
            format!("# A C1 control in a string.\n{head}proc match {{ require false else \"\u{9b}2Jgone\" }}\n"),
        ),
        (
            "lone-carriage-return",
            format!("# Old Mac line ends: a carriage return alone.\n{head}proc match {{\r  gather 山\r}}\n"),
        ),
        (
            "byte-order-mark",
            format!("\u{feff}# A byte-order mark first: accepted.\n{head}proc match {{ gather 山 }}\n"),
        ),
        (
            "crlf",
            format!("# CRLF line ends: accepted, and errors keep their line.\r\n{}proc match {{\r\n  gather 山x\r\n}}\r\n", head.replace('\n', "\r\n")),
        ),
    ];
    for (name, text) in cases {
        let out = render(&format!("{name}.fuda"), &text, MemoryFiles::default());
        assert!(
            !out.contains(['\u{1b}', '\u{7}', '\u{9b}', '\r']),
            "{name}: {out:?}"
        );
        insta::assert_snapshot!(name, out);
    }
    let words = format!(
        "# A word list with a terminal escape in it.\n{head}proc match {{ }}\nwords 熟語 from \"w.txt\"\n"
    );
    let out = render(
        "words-control.fuda",
        &words,
        MemoryFiles(vec![("w.txt".into(), "一石\n二\u{1b}[2J鳥\n".into())]),
    );
    assert!(!out.contains('\u{1b}'), "{out:?}");
    insta::assert_snapshot!("words-control", out);
    // A carriage return alone ends no line in a word list either.
    let out = render(
        "words-lone-cr.fuda",
        &words,
        MemoryFiles(vec![("w.txt".into(), "一石\r二鳥\n".into())]),
    );
    assert!(!out.contains('\r'), "{out:?}");
    insta::assert_snapshot!("words-lone-cr", out);
}
