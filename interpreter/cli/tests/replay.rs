//! End to end: a game played with `--record` replays to the same result.

mod common;

use std::path::Path;

use common::{fuda, fuda_beside_fifos, fuda_in, fuda_with_input, sangohana, FifoEnd, Run};

#[test]
fn a_recorded_game_replays_the_same() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("game.toml");
    let file = file.to_str().expect("utf-8 path");
    let input = "1\n".repeat(3000);
    let played = fuda_with_input(
        &[
            "play",
            &sangohana(),
            "--seed",
            "11",
            "--set",
            "deals=2",
            "--agents",
            "random",
            "--record",
            file,
        ],
        &input,
    );
    assert_eq!(played.code, 0, "{}", played.all());
    let replayed = fuda(&["replay", file]);
    assert_eq!(replayed.code, 0, "{}", replayed.all());
    // The final chips printed by both agree, seat by seat.
    let chips = |text: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| l.trim().rsplit_once(' ').map(|(_, c)| c.to_string()))
            .filter(|c| c.starts_with('+') || c.starts_with('-'))
            .collect()
    };
    let a = chips(&played.stdout);
    let b = chips(&replayed.stdout);
    assert!(!b.is_empty(), "{}", replayed.all());
    assert_eq!(
        a[a.len() - b.len()..],
        b[..],
        "play:\n{}\nreplay:\n{}",
        played.stdout,
        replayed.stdout
    );
    // A replay that does not fit is refused with a reason.
    std::fs::write(
        dir.path().join("bad.toml"),
        format!(
            "ruleset = {:?}\nruleset_hash = \"x\"\nseed = 1\nset = []\nmoves = [[99]]\n",
            sangohana()
        ),
    )
    .expect("write");
    let bad = fuda(&[
        "replay",
        dir.path().join("bad.toml").to_str().expect("path"),
    ]);
    assert_ne!(bad.code, 0);
    assert!(bad.all().contains("does not fit"), "{}", bad.all());
}

#[test]
fn an_oversized_replay_file_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("huge.toml");
    // A sparse file: its size is over the cap, but nothing is written.
    let f = std::fs::File::create(&path).expect("create");
    f.set_len(65 << 20).expect("size");
    let r = fuda(&["replay", path.to_str().expect("utf-8 path")]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("fuda::cli::read"), "{}", r.stderr);
    assert!(r.stderr.contains("it is too large"), "{}", r.stderr);
    assert!(!r.all().contains("panicked"));
}

/// A `--record` path that cannot be written is refused before the game starts, not
/// after it (when the game would be lost).
#[test]
fn a_record_path_that_cannot_be_written_is_refused_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("no-such-folder").join("game.toml");
    let r = fuda_with_input(
        &[
            "play",
            &sangohana(),
            "--seed",
            "3",
            "--record",
            file.to_str().expect("utf-8 path"),
        ],
        &"1\n".repeat(3000),
    );
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stderr.contains("cannot record the game"), "{}", r.stderr);
    assert!(r.stderr.contains("no-such-folder"), "{}", r.stderr);
    assert!(!r.stdout.contains("your move"), "{}", r.stdout);
}

/// Plays 珊瑚花 (seed 11, two deals, random players) in folder `cwd`, recording to
/// `record`; the ruleset is named as `ruleset`.
fn record_game(cwd: Option<&Path>, ruleset: &str, record: &Path, input: &str) -> Run {
    fuda_in(
        cwd,
        &[
            "play",
            ruleset,
            "--seed",
            "11",
            "--set",
            "deals=2",
            "--agents",
            "random",
            "--record",
            record.to_str().expect("utf-8 path"),
        ],
        input,
    )
}

/// A replay names its ruleset from its own folder: it replays from any folder, the
/// ruleset having been named relative to the folder `fuda play` ran in.
#[test]
fn a_replay_finds_its_ruleset_from_any_folder() {
    let dir = tempfile::tempdir().expect("tempdir");
    let games = dir.path().join("games");
    std::fs::create_dir(&games).expect("mkdir");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let played = record_game(
        Some(&repo),
        "rulesets/sangohana.fuda",
        &games.join("rel.toml"),
        &"1\n".repeat(3000),
    );
    assert_eq!(played.code, 0, "{}", played.all());
    let here = fuda_in(Some(&games), &["replay", "rel.toml"], "");
    assert_eq!(here.code, 0, "{}", here.all());
    let above = fuda_in(Some(dir.path()), &["replay", "games/rel.toml"], "");
    assert_eq!(above.code, 0, "{}", above.all());
    assert_eq!(here.stdout, above.stdout);
    // `--ruleset` still overrides, and a text other than the recorded one is pointed out.
    let copy = dir.path().join("copy.fuda");
    let text = std::fs::read_to_string(repo.join("rulesets/sangohana.fuda")).expect("read");
    std::fs::write(&copy, format!("{text}\n# changed\n")).expect("write");
    let other = fuda_in(
        Some(&games),
        &[
            "replay",
            "rel.toml",
            "--ruleset",
            copy.to_str().expect("path"),
        ],
        "",
    );
    assert_eq!(other.code, 0, "{}", other.all());
    assert!(other.stderr.contains("copy.fuda"), "{}", other.stderr);
    assert!(other.stderr.contains("not the text"), "{}", other.stderr);
    // A ruleset found nowhere is named with where it was looked for.
    std::fs::write(
        games.join("lost.toml"),
        "ruleset = \"nowhere/x.fuda\"\nruleset_hash = \"x\"\nseed = 1\nset = []\nmoves = []\n",
    )
    .expect("write");
    let lost = fuda_in(Some(&games), &["replay", "lost.toml"], "");
    assert_eq!(lost.code, 1, "{}", lost.all());
    assert!(lost.stderr.contains("--ruleset"), "{}", lost.stderr);
}

/// A record says how its game ended: a replay whose moves were changed, so that the
/// game goes otherwise, is an error, not a game that looks honestly quit.
#[test]
fn a_replay_that_diverges_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("game.toml");
    let played = record_game(None, &sangohana(), &file, &"1\n".repeat(3000));
    assert_eq!(played.code, 0, "{}", played.all());
    let text = std::fs::read_to_string(&file).expect("read");
    assert!(text.contains("ended = \"finished\""), "{text}");
    let mut replay: toml::Table = toml::from_str(&text).expect("toml");
    let moves = replay["moves"].as_array().expect("moves").clone();
    // One recorded choice changed (the first move made the second, any other the
    // first), from the last on, until the game goes otherwise.
    let changed = dir.path().join("changed.toml");
    for (i, m) in moves.iter().enumerate().rev() {
        let was = m.as_array().expect("choices")[0]
            .as_integer()
            .expect("index");
        let mut edited = moves.clone();
        edited[i] = toml::Value::Array(vec![toml::Value::Integer(i64::from(was == 0))]);
        replay.insert("moves".into(), toml::Value::Array(edited));
        std::fs::write(&changed, toml::to_string(&replay).expect("toml")).expect("write");
        let r = fuda(&["replay", changed.to_str().expect("path")]);
        if r.code == 0 {
            continue; // this change led to the same end
        }
        // Or it did not fit at all (a move that is not there), as before.
        assert_eq!(r.code, 1, "{}", r.all());
        assert!(!r.all().contains("panicked"), "{}", r.all());
        if r.stderr.contains("fuda::cli::replay-differs") {
            assert!(r.stderr.contains("recorded game"), "{}", r.stderr);
            // A record from before ends were kept replays without the check.
            replay.remove("ended");
            replay.remove("chips");
            std::fs::write(&changed, toml::to_string(&replay).expect("toml")).expect("write");
            let old = fuda(&["replay", changed.to_str().expect("path")]);
            assert_eq!(old.code, 0, "{}", old.all());
            return;
        }
    }
    panic!("no changed move made the game end otherwise");
}

/// A game left before its end is recorded so, and replays as such.
#[test]
fn a_left_game_replays_as_left() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("part.toml");
    let played = record_game(None, &sangohana(), &file, "1\n1\n1\n");
    assert_eq!(played.code, 2, "{}", played.all());
    let text = std::fs::read_to_string(&file).expect("read");
    assert!(text.contains("ended = \"left\""), "{text}");
    let r = fuda(&["replay", file.to_str().expect("path")]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        r.stdout.contains("stops here, before its end"),
        "{}",
        r.stdout
    );
}

/// A ruleset whose round never ends: the engine stops it at its decision limit.
const NO_OUTCOME: &str = r#"ruleset "no outcome"
import "std/hanafuda"
seats 2 { 2: 親 子 }
zone 山札 shared stack hidden
zone 手札 per seat pile owner
enum 結果: 終(done)
proc match {
  loop {
    for s in seats() {
      choose s { move 引く "引く" { move top(山札) to 手札[s] } move 戻す "戻す" when count(手札[s]) > 0 { move top(手札[s]) to 山札 } }
    }
    if count(山札) == 0 { gather 山札 }
  }
}
"#;

/// A game the rules stop keeps its moves, its seed and the error in the record, and
/// its replay stops on the same error and fails as the game did.
#[test]
fn a_game_stopped_by_the_rules_replays_to_the_same_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rules = dir.path().join("noout.fuda");
    std::fs::write(&rules, NO_OUTCOME).expect("write");
    let record = dir.path().join("game.toml");
    let played = fuda_with_input(
        &[
            "play",
            rules.to_str().expect("utf-8 path"),
            "--seed",
            "5",
            "--agents",
            "random",
            "--record",
            record.to_str().expect("utf-8 path"),
        ],
        &"1\n".repeat(30_000),
    );
    assert_eq!(played.code, 1, "{}", played.stderr);
    assert!(
        played.stderr.contains("without an outcome"),
        "{}",
        played.stderr
    );
    assert!(
        played.stdout.contains("seed 5 (play it again"),
        "{}",
        played.stdout
    );
    let text = std::fs::read_to_string(&record).expect("record");
    assert!(!text.contains("moves = []"), "{text}");
    assert!(text.contains("ended = \"failed\""), "{text}");
    assert!(text.contains("error = \"the round passed"), "{text}");
    let replayed = fuda(&["replay", record.to_str().expect("utf-8 path")]);
    assert_eq!(replayed.code, 1, "{}", replayed.all());
    assert!(
        replayed.stderr.contains("without an outcome"),
        "{}",
        replayed.stderr
    );
    assert!(
        replayed.stdout.contains("on a rules error"),
        "{}",
        replayed.stdout
    );
    assert!(
        !replayed.stdout.contains(" 0 decisions"),
        "{}",
        replayed.stdout
    );
}

/// `--record` never overwrites what the game was loaded from: the ruleset itself, or a
/// file it extends, however the path is spelled.
#[test]
fn a_record_path_that_is_a_loaded_rule_file_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = std::fs::read_to_string(sangohana()).expect("ruleset");
    std::fs::write(dir.path().join("s.fuda"), &text).expect("write");
    std::fs::write(dir.path().join("b.fuda"), "ruleset \"b\"\nextends \"s\"\n").expect("write");
    let base = dir.path().join("s.fuda");
    for (ruleset, record) in [
        ("s.fuda", "s.fuda"),
        ("s.fuda", "./s.fuda"),
        ("b.fuda", base.to_str().expect("utf-8 path")),
    ] {
        let r = fuda_in(
            Some(dir.path()),
            &["play", ruleset, "--seed", "3", "--record", record],
            &"1\n".repeat(3000),
        );
        assert_eq!(r.code, 1, "{ruleset} {record}: {}", r.all());
        assert!(r.stderr.contains("rules were loaded from"), "{}", r.stderr);
        assert!(!r.stdout.contains("your move"), "{}", r.stdout);
        let now = std::fs::read_to_string(&base).expect("ruleset");
        assert!(
            now == text,
            "{ruleset} {record}: the ruleset was overwritten"
        );
    }
}

/// A FIFO is neither read as a replay nor written as a record, nor taken for a missing
/// ruleset: each is refused at once, saying it is no regular file.
#[cfg(unix)]
#[test]
fn fifos_are_refused_by_play_and_replay_without_blocking() {
    let dir = tempfile::tempdir().expect("tempdir");
    for f in ["r.toml", "sub.fuda"] {
        let made = std::process::Command::new("mkfifo")
            .arg(dir.path().join(f))
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
    }
    std::fs::write(
        dir.path().join("x.toml"),
        "ruleset = \"sub.fuda\"\nruleset_hash = \"x\"\nseed = 1\nset = []\nmoves = []\n",
    )
    .expect("write");
    let s = sangohana();
    let runs: [&[&str]; 3] = [
        &["replay", "r.toml"],
        &["play", &s, "--seed", "3", "--record", "r.toml"],
        &["replay", "x.toml"],
    ];
    let (record, sub) = (dir.path().join("r.toml"), dir.path().join("sub.fuda"));
    let ends: [&[(&std::path::Path, FifoEnd)]; 3] = [
        &[(&record, FifoEnd::Read)],
        &[(&record, FifoEnd::Write)],
        &[(&sub, FifoEnd::Read)],
    ];
    for (args, fifos) in runs.into_iter().zip(ends) {
        let r = fuda_beside_fifos(dir.path(), args, fifos);
        assert_eq!(r.code, 1, "{}", r.all());
        assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
        assert!(!r.stderr.contains("cannot find"), "{}", r.stderr);
    }
}

/// A ruleset the replay cannot find is looked for in each place once.
#[test]
fn a_missing_ruleset_lists_each_path_tried_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("x.toml"),
        "ruleset = \"gone.fuda\"\nruleset_hash = \"x\"\nseed = 1\nset = []\nmoves = []\n",
    )
    .expect("write");
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).expect("mkdir");
    std::fs::rename(dir.path().join("x.toml"), sub.join("x.toml")).expect("move");
    let r = fuda_in(Some(dir.path()), &["replay", "sub/x.toml"], "");
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stderr.contains("cannot find"), "{}", r.stderr);
    assert_eq!(
        r.stderr.matches("`sub/gone.fuda`").count(),
        1,
        "{}",
        r.stderr
    );
}

#[test]
fn a_replay_shows_every_recorded_move_and_a_summary_on_request() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("game.toml");
    let file = file.to_str().expect("utf-8 path");
    let played = fuda_with_input(
        &[
            "play",
            &sangohana(),
            "--seed",
            "3",
            "--set",
            "deals=1",
            "--record",
            file,
        ],
        &"1\n".repeat(400),
    );
    assert_eq!(played.code, 0, "{}", played.all());
    let full = fuda(&["replay", file]);
    assert_eq!(full.code, 0, "{}", full.all());
    // Each recorded decision is a line naming the seat, its role and the move.
    let moves = full
        .stdout
        .lines()
        .filter(|l| l.contains(": 捨てる "))
        .count();
    assert!(moves >= 10, "{}", full.stdout);
    assert!(full.stdout.contains("seat 0 親: 捨てる"), "{}", full.stdout);
    assert!(
        full.stdout
            .lines()
            .any(|l| l.starts_with("  ── deal ends: ")),
        "{}",
        full.stdout
    );
    let summary = fuda(&["replay", file, "--summary"]);
    assert_eq!(summary.code, 0, "{}", summary.all());
    assert!(!summary.stdout.contains(": 捨てる "), "{}", summary.stdout);
    // The summary is the output replay had before it showed moves: after the title,
    // only deal ends (`  deal ends: X`, unmarked), results and the final chips.
    assert!(
        summary
            .stdout
            .lines()
            .any(|l| l.starts_with("  deal ends: ")),
        "{}",
        summary.stdout
    );
    for line in summary.stdout.lines().skip(1) {
        let chips = line
            .strip_prefix("  seat ")
            .and_then(|r| r.split_once(": "))
            .is_some_and(|(seat, c)| seat.parse::<usize>().is_ok() && c.parse::<i64>().is_ok());
        let old_form = line.starts_with("  deal ends: ")
            || (line.starts_with("  seat ") && line.contains(" scores "))
            || chips;
        assert!(
            old_form && !line.contains("──"),
            "not a summary line: {line:?}\n{}",
            summary.stdout
        );
        // A score lists its rows after the total: `scores 素役: 16 (素役 1, 福上がり 15)`.
        if let Some((_, result)) = line.split_once(" scores ") {
            let rows = result
                .split_once(" (")
                .and_then(|(_, rows)| rows.strip_suffix(')'))
                .unwrap_or_else(|| panic!("no rows: {line:?}"));
            assert!(
                rows.split(", ").all(|r| r
                    .rsplit_once(' ')
                    .is_some_and(|(_, v)| v.parse::<i64>().is_ok())),
                "{line:?}"
            );
        }
    }
    // Both end on the same final chips.
    let tail = |t: &str| {
        t.lines()
            .rev()
            .take(3)
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(tail(&full.stdout), tail(&summary.stdout));
}
