//! End to end: `fuda check` and `fuda test` with a word list file beside the ruleset,
//! and the files a word list may not name (missing, outside the folder, not UTF-8).

mod common;

use std::path::Path;

use common::fuda;

const RULESET: &str = r#"ruleset "熟語 (words test)"
deck 漢字 {
  attribute kanji: 一 | 石 | 二 | 鳥 | 人 | 々
  card k1 "一" kanji=一
  card k2 "石" kanji=石
  card k3 "二" kanji=二
  card k4 "鳥" kanji=鳥
  card k5 "人" kanji=人
  card jk "々" kanji=々
}
seats 2 { 2: 親 子 }
zone 山札 shared stack hidden
words 熟語 from "dict/jukugo.txt"
test "一石 in either order" { expect word(熟語, cards(k2 k1), kanji) }
test "人々" { expect word(熟語, cards(k5 jk), kanji) }
test "not a word" { expect not word(熟語, cards(k1 k3), kanji) }
"#;

/// A folder with the ruleset and `dict/jukugo.txt` holding `words`.
fn folder(words: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("dict")).expect("mkdir");
    std::fs::write(dir.path().join("jukugo.fuda"), RULESET).expect("write");
    std::fs::write(dir.path().join("dict/jukugo.txt"), words).expect("write");
    dir
}

fn ruleset(dir: &Path) -> String {
    dir.join("jukugo.fuda").to_string_lossy().into_owned()
}

#[test]
fn check_and_test_read_the_word_list_beside_the_ruleset() {
    let dir = folder("# 熟語\n一石\n二鳥\n人々\n".as_bytes());
    let r = fuda(&["check", &ruleset(dir.path())]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.stdout.contains("ok — 熟語 (words test)"), "{}", r.stdout);
    let r = fuda(&["test", &ruleset(dir.path())]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.stdout.contains("3 passed, 0 failed"), "{}", r.stdout);
}

#[test]
fn a_test_fails_when_the_word_is_not_listed() {
    let dir = folder("一石\n二鳥\n".as_bytes());
    let r = fuda(&["test", &ruleset(dir.path())]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.all().contains("人々"), "{}", r.all());
    assert!(r.stdout.contains("2 passed, 1 failed"), "{}", r.stdout);
}

#[test]
fn a_missing_or_unreadable_word_list_is_a_diagnostic() {
    let dir = folder(b"");
    std::fs::remove_file(dir.path().join("dict/jukugo.txt")).expect("rm");
    let r = fuda(&["check", &ruleset(dir.path())]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stderr.contains("fuda::words-not-found"), "{}", r.stderr);
    assert!(r.stderr.contains("no such file"), "{}", r.stderr);

    std::fs::write(dir.path().join("dict/jukugo.txt"), b"\xff\xfe not text\n").expect("write");
    let r = fuda(&["check", &ruleset(dir.path())]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stderr.contains("not UTF-8"), "{}", r.stderr);
    assert!(!r.all().contains("panicked"), "{}", r.all());
}

#[cfg(unix)]
#[test]
fn a_word_list_linked_from_outside_the_folder_is_refused() {
    let outside = tempfile::tempdir().expect("temp dir");
    std::fs::write(outside.path().join("words"), "一石\n").expect("write");
    let dir = folder(b"");
    std::fs::remove_file(dir.path().join("dict/jukugo.txt")).expect("rm");
    std::os::unix::fs::symlink(
        outside.path().join("words"),
        dir.path().join("dict/jukugo.txt"),
    )
    .expect("symlink");
    let r = fuda(&["check", &ruleset(dir.path())]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr.contains("outside the ruleset's folder"),
        "{}",
        r.stderr
    );
}
