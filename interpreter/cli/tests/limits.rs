//! End to end: the caps on what the command line reads, each refusal naming its limit:
//! a line typed to `fuda play`, a `--state` file.

mod common;

use common::{fuda_with_input, sangohana};

/// The longest line `fuda play` reads as a move (`limits.rs`).
const MAX_INPUT_LINE: usize = 4096;

const TOO_LONG: &str = "that line is too long: a move is at most 4096 bytes (4 KiB)";

#[test]
fn a_typed_line_over_the_cap_is_refused_and_the_game_goes_on() {
    let play = |input: &str| {
        fuda_with_input(
            &["play", &sangohana(), "--seed", "3", "--set", "deals=1"],
            input,
        )
    };
    let over = format!("{}\n{}", "x".repeat(MAX_INPUT_LINE + 1), "1\n".repeat(3000));
    let r = play(&over);
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(r.stdout.matches(TOO_LONG).count(), 1, "{}", r.stdout);
    // The line is not echoed.
    assert!(!r.stdout.contains(&"x".repeat(100)), "echoed");
    // A line of the cap is read, and answered as any other unknown move.
    let at = format!("{}\n{}", "x".repeat(MAX_INPUT_LINE), "1\n".repeat(3000));
    let r = play(&at);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(!r.stdout.contains(TOO_LONG), "{}", r.stdout);
    assert!(
        r.stdout.contains("is not a move you can make now"),
        "{}",
        r.stdout
    );
}

/// Input with no line end at all (a stray file piped in) is read past, never held:
/// what is printed stays the size of one screen, whatever the input's size.
#[test]
fn input_without_line_ends_prints_one_refusal_and_ends() {
    let input = "x".repeat(8 << 20);
    let r = fuda_with_input(&["play", &sangohana(), "--seed", "3"], &input);
    assert_eq!(r.code, 2, "{}", r.all());
    assert_eq!(r.stdout.matches(TOO_LONG).count(), 1, "{}", r.stdout);
    assert!(
        r.stderr.contains("input ended before the game ended"),
        "{}",
        r.stderr
    );
    assert!(r.all().len() < 8 << 10, "{} bytes printed", r.all().len());
}

/// A state file describes one end of round: past 1 MiB it is refused before it is
/// read, with the cap.
#[test]
fn a_state_file_over_the_cap_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("state.json");
    let f = std::fs::File::create(&path).expect("create");
    f.set_len((1 << 20) + 1).expect("size");
    let r = common::fuda(&[
        "score",
        &sangohana(),
        "--state",
        path.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.stderr.contains(
            "it is too large: 1048577 bytes, and a state file may have at most 1048576 (1 MiB)"
        ),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("describes one end of round"),
        "{}",
        r.stderr
    );
}
