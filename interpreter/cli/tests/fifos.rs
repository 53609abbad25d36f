//! End to end: every path the command line reads or writes refuses a FIFO without
//! opening it (opening one waits for its other end forever): a ruleset, a file it
//! imports, a word list, `--state`, `--batch`, a replay, the ruleset a replay names,
//! `--ruleset` and `--record`.

#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};

use common::{fuda_beside_fifos, sangohana, FifoEnd};

fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

#[test]
fn each_file_argument_and_each_file_it_leads_to_refuses_a_fifo() {
    let dir = tempfile::tempdir().expect("temp dir");
    let at = |name: &str| -> PathBuf { dir.path().join(name) };
    std::fs::copy(sangohana(), at("sangohana.fuda")).expect("copy");
    for f in [
        "rules.fuda",
        "sub.fuda",
        "words.txt",
        "state.json",
        "batch.jsonl",
        "game.toml",
        "named.fuda",
        "record.toml",
    ] {
        mkfifo(&at(f));
    }
    std::fs::write(
        at("imports.fuda"),
        "ruleset \"x\"\nimport \"std/hanafuda\"\nimport \"sub\"\n",
    )
    .expect("write");
    std::fs::write(
        at("words.fuda"),
        "ruleset \"x\"\nimport \"std/hanafuda\"\nwords 熟語 from \"words.txt\"\n",
    )
    .expect("write");
    std::fs::write(
        at("names.toml"),
        "ruleset = \"named.fuda\"\nruleset_hash = \"x\"\nseed = 1\nset = []\nmoves = []\n",
    )
    .expect("write");
    std::fs::write(
        at("plain.toml"),
        "ruleset = \"sangohana.fuda\"\nruleset_hash = \"x\"\nseed = 1\nset = []\nmoves = []\n",
    )
    .expect("write");
    let cases: &[(&[&str], &str, FifoEnd)] = &[
        (&["check", "rules.fuda"], "rules.fuda", FifoEnd::Read),
        (&["check", "imports.fuda"], "sub.fuda", FifoEnd::Read),
        (&["test", "words.fuda"], "words.txt", FifoEnd::Read),
        (
            &["score", "sangohana.fuda", "--state", "state.json"],
            "state.json",
            FifoEnd::Read,
        ),
        (
            &["score", "sangohana.fuda", "--batch", "batch.jsonl"],
            "batch.jsonl",
            FifoEnd::Read,
        ),
        (&["replay", "game.toml"], "game.toml", FifoEnd::Read),
        (&["replay", "names.toml"], "named.fuda", FifoEnd::Read),
        (
            &["replay", "plain.toml", "--ruleset", "rules.fuda"],
            "rules.fuda",
            FifoEnd::Read,
        ),
        (
            &[
                "play",
                "sangohana.fuda",
                "--seed",
                "1",
                "--record",
                "record.toml",
            ],
            "record.toml",
            FifoEnd::Write,
        ),
    ];
    for (args, fifo, end) in cases {
        let fifo = at(fifo);
        let r = fuda_beside_fifos(dir.path(), args, &[(&fifo, *end)]);
        assert_eq!(r.code, 1, "{args:?}: {}", r.all());
        assert!(
            r.all()
                .contains("not a regular file (a pipe, a device or a socket)"),
            "{args:?}: {}",
            r.all()
        );
    }
}
