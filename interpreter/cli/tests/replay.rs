//! End to end: a game played with `--record` replays to the same result.

mod common;

use common::{fuda, fuda_with_input, sangohana};

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
