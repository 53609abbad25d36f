//! End to end: a game played with `--record` replays to the same result.

mod common;

use std::path::Path;

use common::{fuda, fuda_beside_fifos, fuda_in, fuda_with_input, sangohana, FifoEnd, Run};

/// A copy of 珊瑚花 in folder `dir`, where a replay beside it can name it.
fn sangohana_in(dir: &Path) -> String {
    let path = dir.join("sangohana.fuda");
    std::fs::copy(sangohana(), &path).expect("copy the ruleset");
    path.to_str().expect("utf-8 path").to_string()
}

#[test]
fn a_recorded_game_replays_the_same() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("game.toml");
    let file = file.to_str().expect("utf-8 path");
    let input = "1\n".repeat(3000);
    let played = fuda_with_input(
        &[
            "play",
            &sangohana_in(dir.path()),
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
    assert!(!played.stderr.contains("warning"), "{}", played.stderr);
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
        "ruleset = \"sangohana.fuda\"\nruleset_hash = \"x\"\nseed = 1\nset = []\nmoves = [[99]]\n",
    )
    .expect("write");
    let bad = fuda(&[
        "replay",
        dir.path().join("bad.toml").to_str().expect("path"),
    ]);
    assert_ne!(bad.code, 0);
    assert!(bad.all().contains("does not fit"), "{}", bad.all());
}

/// A game of moves over sets of cards records each move by its number, and replays
/// naming each set as it was played.
#[test]
fn a_game_of_set_moves_replays_the_same() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rules = dir.path().join("sets.fuda");
    std::fs::write(
        &rules,
        r#"ruleset "sets probe"
import "std/mahjong"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
zone 場 shared pile public
zone 手 per seat pile owner
enum 結果: 終(end)
proc match {
  move cards("2m 2m 3m 4m 9p") to 手[0]
  move cards("1z 1z 5s") to 手[1]
  choose 0 { move 出す(p in sets(手[0], 2)) "出す" { move p to 場 } }
  choose 1 { move 出す(p in sets(手[1], 2)) "出す" { move p to 場 } }
  outcome 終
}
"#,
    )
    .expect("write the rules");
    let file = dir.path().join("game.toml");
    let file = file.to_str().expect("utf-8 path");
    let played = fuda_with_input(
        &[
            "play",
            rules.to_str().expect("utf-8 path"),
            "--seed",
            "4",
            "--record",
            file,
        ],
        "出す 34m\n",
    );
    assert_eq!(played.code, 0, "{}", played.all());
    let record = std::fs::read_to_string(file).expect("recorded");
    assert!(record.contains("moves = [[4], ["), "{record}");
    let replayed = fuda(&["replay", file]);
    assert_eq!(replayed.code, 0, "{}", replayed.all());
    assert!(
        replayed.stdout.contains("  seat 0 親: 出す 34m\n"),
        "{}",
        replayed.stdout
    );
    assert!(
        replayed.stdout.contains("2 decisions replayed"),
        "{}",
        replayed.stdout
    );
}

/// The most a replay file may hold, and the most decisions (`limits.rs`).
const MAX_REPLAY_BYTES: u64 = 512 << 10;
const MAX_REPLAY_MOVES: usize = 50_000;

#[test]
fn an_oversized_replay_file_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("huge.toml");
    // A sparse file: its size is over the cap, but nothing is written.
    let f = std::fs::File::create(&path).expect("create");
    f.set_len(MAX_REPLAY_BYTES + 1).expect("size");
    let r = fuda(&["replay", path.to_str().expect("utf-8 path")]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stderr.contains("fuda::cli::read"), "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "it is too large: 524289 bytes, and a replay file may have at most 524288 (512 KiB)"
        ),
        "{}",
        r.stderr
    );
    // One byte less is read (and is no replay: a sparse file is all zero bytes).
    f.set_len(MAX_REPLAY_BYTES).expect("size");
    let r = fuda(&["replay", path.to_str().expect("utf-8 path")]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stderr.contains("is not a replay"), "{}", r.stderr);
}

/// A replay holds at most a fixed number of decisions: one more is refused, with the
/// limit, before the game is replayed.
#[test]
fn a_replay_with_too_many_decisions_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    sangohana_in(dir.path());
    let write = |n: usize| {
        let path = dir.path().join(format!("{n}.toml"));
        let moves = vec!["[0]"; n].join(",");
        std::fs::write(
            &path,
            format!(
                "ruleset = \"sangohana.fuda\"\nruleset_hash = \"x\"\nseed = 1\nset = []\nmoves = [{moves}]\n"
            ),
        )
        .expect("write");
        fuda(&["replay", path.to_str().expect("utf-8 path")])
    };
    let r = write(MAX_REPLAY_MOVES + 1);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr
            .contains("it holds more than 50000 decisions, the most a replay may hold"),
        "{}",
        r.stderr
    );
    // Far more lists than that many decisions have: refused before it is parsed.
    let r = write(MAX_REPLAY_MOVES + 200);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr.contains(
            "it holds 50202 lists (`[`), and a replay of at most 50000 decisions (the most a replay may hold) has at most 50100"
        ),
        "{}",
        r.stderr
    );
    // At the limit it is read, and replayed until the game ends before its moves do.
    let r = write(MAX_REPLAY_MOVES);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr.contains("but the replay has 50000"),
        "{}",
        r.stderr
    );
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

/// A replay names its ruleset from its own folder: kept in the ruleset's folder or one
/// above it, it replays from any folder; kept elsewhere, `fuda play --record` warns that
/// the ruleset will have to be given, and `fuda replay` asks for it.
#[test]
fn a_replay_finds_its_ruleset_below_its_folder_from_any_folder() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rules = dir.path().join("rulesets");
    std::fs::create_dir(&rules).expect("mkdir");
    let ruleset = sangohana_in(&rules);
    let played = record_game(
        Some(dir.path()),
        "rulesets/sangohana.fuda",
        Path::new("rel.toml"),
        &"1\n".repeat(3000),
    );
    assert_eq!(played.code, 0, "{}", played.all());
    assert!(!played.stderr.contains("warning"), "{}", played.stderr);
    let text = std::fs::read_to_string(dir.path().join("rel.toml")).expect("read");
    assert!(
        text.contains("ruleset = \"rulesets/sangohana.fuda\""),
        "{text}"
    );
    let here = fuda_in(Some(dir.path()), &["replay", "rel.toml"], "");
    assert_eq!(here.code, 0, "{}", here.all());
    let below = fuda_in(Some(&rules), &["replay", "../rel.toml"], "");
    assert_eq!(below.code, 0, "{}", below.all());
    assert_eq!(here.stdout, below.stdout);

    // Recorded in a folder beside the ruleset's: said at once, and asked for on replay.
    let games = dir.path().join("games");
    std::fs::create_dir(&games).expect("mkdir");
    let played = record_game(
        Some(dir.path()),
        "rulesets/sangohana.fuda",
        Path::new("games/away.toml"),
        &"1\n".repeat(3000),
    );
    assert_eq!(played.code, 0, "{}", played.all());
    assert!(
        played
            .stderr
            .contains("warning: `fuda replay games/away.toml` will not find the ruleset"),
        "{}",
        played.stderr
    );
    let away = fuda_in(Some(&games), &["replay", "away.toml"], "");
    assert_eq!(away.code, 1, "{}", away.all());
    assert!(
        away.stderr.contains("`..` is not allowed"),
        "{}",
        away.stderr
    );
    assert!(away.stderr.contains("--ruleset FILE"), "{}", away.stderr);
    let given = fuda_in(
        Some(&games),
        &["replay", "away.toml", "--ruleset", &ruleset],
        "",
    );
    assert_eq!(given.code, 0, "{}", given.all());
    assert_eq!(given.stdout, here.stdout);

    // `--ruleset` overrides, and a text other than the recorded one is pointed out.
    let copy = dir.path().join("copy.fuda");
    let text = std::fs::read_to_string(&ruleset).expect("read");
    std::fs::write(&copy, format!("{text}\n# changed\n")).expect("write");
    let other = fuda_in(
        Some(&rules),
        &[
            "replay",
            "../rel.toml",
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
    assert!(
        lost.stderr.contains("no file `nowhere/x.fuda`"),
        "{}",
        lost.stderr
    );
    assert!(lost.stderr.contains("--ruleset"), "{}", lost.stderr);
}

/// A shared replay cannot make `fuda replay` read a file outside its folder (by an
/// absolute path, `..`, a drive, a backslash or a symbolic link), nor anything but a
/// rule file, and no message quotes what such a file holds.
#[test]
fn a_replay_reads_no_file_outside_its_folder() {
    let outside = tempfile::tempdir().expect("tempdir");
    let secret = outside.path().join("secret.fuda");
    std::fs::write(&secret, "SECRET-TOKEN-1234\n").expect("write");
    let dir = tempfile::tempdir().expect("tempdir");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&secret, dir.path().join("link.fuda")).expect("symlink");
    std::fs::write(dir.path().join("notes.txt"), "SECRET-TOKEN-1234\n").expect("write");
    let secret = secret.to_str().expect("utf-8 path").replace('\\', "/");
    let cases: &[(&str, &str)] = &[
        (&secret, "absolute paths are not allowed"),
        ("/proc/self/environ", "absolute paths are not allowed"),
        ("../secret.fuda", "`..` is not allowed"),
        ("sub/../../secret.fuda", "`..` is not allowed"),
        ("C:secret.fuda", "absolute paths are not allowed"),
        ("\\\\host\\secret.fuda", "absolute paths are not allowed"),
        ("std/hanafuda", "a module of the standard library"),
        ("", "the path is empty"),
        // Only rule files: `.fuda` is added to a name without it.
        ("notes.txt", "no file `notes.txt.fuda`"),
        #[cfg(unix)]
        ("link.fuda", "outside the replay's folder"),
    ];
    for (named, why) in cases {
        let record = format!(
            "ruleset = {}\nruleset_hash = \"x\"\nseed = 1\nset = []\nmoves = []\n",
            toml::Value::String(named.to_string())
        );
        std::fs::write(dir.path().join("r.toml"), record).expect("write");
        let r = fuda_in(Some(dir.path()), &["replay", "r.toml"], "");
        assert_eq!(r.code, 1, "{named}: {}", r.all());
        assert!(r.stderr.contains(why), "{named}: {}", r.stderr);
        assert!(!r.all().contains("SECRET-TOKEN"), "{named}: {}", r.all());
        assert!(!r.all().contains("PATH="), "{named}: {}", r.all());
    }
}

/// A replay's fields reach no terminal raw: control characters in what a message
/// quotes of them are shown as `?`, and a long field is cut.
#[test]
fn a_replay_s_fields_are_quoted_masked_and_cut() {
    let dir = tempfile::tempdir().expect("tempdir");
    sangohana_in(dir.path());
    let esc = "\u{1b}]0;PWNED\u{7}\u{1b}[2J\u{9b}1m";
    let long = "x".repeat(5000);
    let q = |s: String| toml::Value::String(s).to_string();
    let records = [
        format!("ruleset = {}", q(format!("{esc}.fuda"))),
        format!(
            "ruleset = \"sangohana.fuda\"\nset = [{}]",
            q(format!("{esc}=1"))
        ),
        format!(
            "ruleset = \"sangohana.fuda\"\nset = [{}]",
            q(format!("deals={esc}"))
        ),
        format!("ruleset = {}", q(format!("{long}.fuda"))),
        format!(
            "ruleset = \"sangohana.fuda\"\nseed = {}",
            q(format!("{esc}{long}"))
        ),
    ];
    for head in &records {
        let mut record = format!("{head}\nruleset_hash = \"x\"\nmoves = []\n");
        for (key, line) in [("seed", "seed = 1\n"), ("set", "set = []\n")] {
            if !head.contains(key) {
                record.push_str(line);
            }
        }
        assert!(
            !record.contains('\u{1b}'),
            "TOML holds escapes, not the characters"
        );
        std::fs::write(dir.path().join("r.toml"), &record).expect("write");
        let r = fuda_in(Some(dir.path()), &["replay", "r.toml"], "");
        assert_eq!(r.code, 1, "{record:?}: {}", r.all());
        let all = r.all();
        for raw in ["\u{1b}", "\u{7}", "\u{9b}"] {
            assert!(!all.contains(raw), "{raw:?} printed: {all:?}");
        }
        assert!(all.len() < 2000, "{} bytes: {all}", all.len());
    }
}

/// A record says how its game ended: a replay whose moves were changed, so that the
/// game goes otherwise, is an error, not a game that looks honestly quit.
#[test]
fn a_replay_that_diverges_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("game.toml");
    let played = record_game(None, &sangohana_in(dir.path()), &file, &"1\n".repeat(3000));
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
    let played = record_game(None, &sangohana_in(dir.path()), &file, "1\n1\n1\n");
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

/// A ruleset the replay cannot find is named once, as found from the replay's folder.
#[test]
fn a_missing_ruleset_is_named_as_looked_for() {
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
    assert!(r.stderr.contains("--ruleset FILE"), "{}", r.stderr);
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
            &sangohana_in(dir.path()),
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

/// `fuda replay --help` says where a replay finds its ruleset, and its caps.
#[test]
fn the_help_says_where_the_ruleset_is_found_and_the_caps() {
    let r = fuda(&["replay", "--help"]);
    assert_eq!(r.code, 0, "{}", r.all());
    let text = r.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        text.contains(
            "keep the replay beside its ruleset, or in a folder above it, or give `--ruleset FILE`"
        ),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "at most {} KiB and {MAX_REPLAY_MOVES} decisions",
            MAX_REPLAY_BYTES >> 10
        )),
        "{text}"
    );
}
