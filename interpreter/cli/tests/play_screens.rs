//! End to end: whole games of `fuda play` as a person at the screen plays them (each
//! prompt read, then answered), on an 80-column screen. The golden transcripts under
//! `tests/golden/play/` are those games; run with `UPDATE_GOLDEN=1` to write them anew
//! after a deliberate change.

mod common;

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use common::{bundled, fuda_80, golden, rule_file, sangohana, Run, ANTE_EACH_DEAL};

/// What `fuda play` prints to wait for Enter after a deal.
const PAUSE: &str = "── press Enter to continue ──";

/// Plays a game as a person at the screen would: reads what `fuda play` shows up to
/// each prompt, then answers it. At a pause, Enter; at a move, the first move offered
/// with what it would score (a win: `2. 当たり — 素役 1`), else move 1. A pause that
/// did not wait would take the next answer for a move (and be told so), and one that
/// was not shown would leave a move unanswered: either changes the screen.
fn drive(args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(args)
        .env("COLUMNS", "80")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fuda starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let mut screen: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = stdout.read(&mut chunk).expect("read fuda's output");
        if n == 0 {
            break;
        }
        screen.extend_from_slice(&chunk[..n]);
        // fuda flushes each prompt and then waits for a line: a screen that ends with
        // one is waiting for it.
        let answer = if screen.ends_with(b"\n> ") {
            let text = String::from_utf8_lossy(&screen);
            let asked = text.rsplit("\n── deal ").next().unwrap_or_default();
            format!("{}\n", move_to_take(asked))
        } else if screen.ends_with(PAUSE.as_bytes()) {
            "\n".to_string()
        } else {
            continue;
        };
        // The game may be over already (a closed pipe): its screen says so.
        let _ = stdin.write_all(answer.as_bytes());
    }
    drop(stdin);
    let status = child.wait().expect("fuda runs");
    Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&screen).into_owned(),
        stderr: errors.join().expect("stderr read"),
    }
}

/// The number of the move to take among those listed in `asked`: the first shown with
/// a score, else 1.
fn move_to_take(asked: &str) -> usize {
    asked
        .lines()
        .filter_map(|l| {
            let (n, rest) = l.trim_start().split_once(". ")?;
            Some((n.parse::<usize>().ok()?, rest))
        })
        .find(|(_, rest)| rest.contains(" — "))
        .map_or(1, |(n, _)| n)
}

/// How many moves listed on a screen are shown with a score (`2. 当たり — 素役 1`).
fn offers(screen: &str) -> usize {
    screen
        .lines()
        .filter(|l| {
            l.trim_start()
                .split_once(". ")
                .is_some_and(|(n, m)| n.parse::<usize>().is_ok() && m.contains(" — "))
        })
        .count()
}

/// The width in columns of the widest line of a screen (a kanji takes two).
fn widest(screen: &str) -> usize {
    use unicode_width::UnicodeWidthStr;
    screen.lines().map(|l| l.width()).max().unwrap_or(0)
}

/// 珊瑚花, two deals: the person is offered 当たり on the first turn with the hand as
/// dealt, shown with its score (`素役 1 + 福当たり 12 = 13`), takes it and scores that;
/// each deal's end shows every hand and waits for Enter (not after the last).
#[test]
fn golden_sangohana() {
    let r = drive(&["play", &sangohana(), "--seed", "17", "--set", "deals=2"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(r.stderr, "");
    let s = &r.stdout;
    assert!(
        s.contains(" 2. 当たり — 素役 1 + 福当たり 12 = 13\n"),
        "{s}"
    );
    assert_eq!(offers(s), 1, "{s}");
    assert!(s.contains("you (seat 0, 胴二) scores 素役: 13\n"), "{s}");
    assert_eq!(s.matches(PAUSE).count(), 1, "{s}");
    assert_eq!(
        s.matches("every seat's cards as the deal ended:").count(),
        2
    );
    assert!(widest(s) <= 80, "{s}");
    golden("sangohana-seed17.txt", s);
}

/// 浮島, two deals: a fishing game offers no win, so no move shows a score; each
/// deal's end shows the capture piles.
#[test]
fn golden_ukishima() {
    let ukishima = concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets/ukishima.fuda");
    let r = drive(&["play", ukishima, "--seed", "7", "--set", "rounds=2"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(r.stderr, "");
    let s = &r.stdout;
    assert_eq!(s.matches(PAUSE).count(), 1, "{s}");
    assert!(s.contains("    取り札 of seat 1 (胴二)  "), "{s}");
    assert_eq!(offers(s), 0, "{s}");
    assert!(widest(s) <= 80, "{s}");
    golden("ukishima-seed7.txt", s);
}

/// 奈良, two hands of four players: no move shows a score; each hand's end shows every
/// seat's captures, and the four seats' chips are wrapped to 80 columns.
#[test]
fn golden_nara() {
    let r = drive(&[
        "play",
        &bundled("nara-hanaawase.fuda"),
        "--seed",
        "7",
        "--set",
        "hands=2",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(r.stderr, "");
    let s = &r.stdout;
    assert_eq!(s.matches(PAUSE).count(), 1, "{s}");
    assert_eq!(offers(s), 0, "{s}");
    assert!(widest(s) <= 80, "{s}");
    golden("nara-seed7.txt", s);
}

/// A win offered is shown with what it scores, and taking it scores exactly that: the
/// yaku and bonus lines as the `scores` lines after it list them, and the total. Both of
/// 珊瑚花's wins: 上がり on a drawn card and 当たり on a discard.
#[test]
fn a_win_offered_scores_what_it_said() {
    let mut seen: Vec<String> = Vec::new();
    for seed in 1..=40 {
        let seed = seed.to_string();
        let r = drive(&[
            "play",
            &sangohana(),
            "--seed",
            &seed,
            "--set",
            "deals=2",
            "--no-pause",
        ]);
        assert_eq!(r.code, 0, "{}", r.all());
        let lines: Vec<&str> = r.stdout.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            let Some((_, said)) = l.split_once(" — ").filter(|_| l.starts_with("   ")) else {
                continue;
            };
            let name = l.trim_start().split_once(". ").map_or("", |(_, m)| m);
            let name = name.split(" — ").next().unwrap_or_default();
            // The driver takes it: `> you: 当たり`, then the score.
            let took = lines[i..].iter().position(|l| l.starts_with("> you: "));
            let took = took.map(|k| i + k).expect("a move taken");
            assert_eq!(lines[took], format!("> you: {name}"), "seed {seed}");
            let scored = lines[took + 1];
            assert!(scored.contains(") scores "), "seed {seed}: {scored}");
            let total = scored.rsplit(": ").next().unwrap_or_default();
            // `素役 1 + 福当たり 12 = 13` or `素役 1`, as the yaku lines below it say.
            let (parts, sum) = match said.rsplit_once(" = ") {
                Some((parts, sum)) => (parts.split(" + ").collect::<Vec<_>>(), sum),
                None => (vec![said], said.rsplit(' ').next().unwrap_or_default()),
            };
            assert_eq!(sum, total, "seed {seed}: {l} / {scored}");
            let yaku: Vec<String> = lines[took + 2..took + 2 + parts.len()]
                .iter()
                .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
                .collect();
            assert_eq!(yaku, parts, "seed {seed}: {}", lines[took..].join("\n"));
            if !seen.contains(&name.to_string()) {
                seen.push(name.to_string());
            }
        }
        if seen.len() == 2 {
            return;
        }
    }
    panic!("seeds 1..=40 offered the person only {seen:?}");
}

/// A two-seat game won at once, whose score reads one hand: with `OTHERS` the winner's
/// bonus counts the months of the other seat's hidden cards; with `MINE`, of its own.
const HIDDEN_BONUS: &str = r#"ruleset "hidden bonus probe"
import "std/hanafuda"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
zone 手 per seat pile owner
enum 結果: 終(end)
score 点(h: cards, extra: int = 0) {
  yaku all {
    和了 1 when true
    月数 extra when extra > 0
  }
}
proc match {
  gather 山
  shuffle 山
  deal 3 from 山 to 手
  choose 0 {
    move 上がり "上がり" {
      record 点(手[0], extra: sum(c in 手[WHOSE]: c.month)) for 0
      outcome 終
    }
    move 流す "流す" { outcome 終 }
  }
}
"#;

/// A score that depends on cards the person cannot see is not given (it would tell
/// them): the move says so instead. One read off the person's own cards is given
/// exactly. A move that ends the deal with no score for the person shows nothing.
#[test]
fn a_win_whose_score_reads_hidden_cards_is_not_told() {
    let dir = tempfile::tempdir().expect("tempdir");
    let others = rule_file(
        dir.path(),
        "others.fuda",
        &HIDDEN_BONUS.replace("WHOSE", "1"),
    );
    let mine = rule_file(dir.path(), "mine.fuda", &HIDDEN_BONUS.replace("WHOSE", "0"));
    for seed in 1..=5 {
        let seed = seed.to_string();
        let r = fuda_80(&["play", &others, "--seed", &seed], "1\n");
        assert_eq!(r.code, 0, "{}", r.all());
        assert!(
            r.stdout
                .contains("   1. 上がり — its score depends on cards you cannot see\n   2. 流す\n"),
            "seed {seed}: {}",
            r.stdout
        );
        let r = fuda_80(&["play", &mine, "--seed", &seed], "1\n");
        assert_eq!(r.code, 0, "{}", r.all());
        let said = r
            .stdout
            .lines()
            .find_map(|l| l.strip_prefix("   1. 上がり — "))
            .unwrap_or_else(|| panic!("seed {seed}: {}", r.stdout));
        let total = said.rsplit(' ').next().unwrap_or_default();
        assert!(said.starts_with("和了 1 + 月数 "), "seed {seed}: {said}");
        assert!(
            r.stdout
                .contains(&format!("you (seat 0, 親) scores 和了・月数: {total}\n")),
            "seed {seed}: {}",
            r.stdout
        );
        assert!(
            r.stdout.contains("   2. 流す\n"),
            "seed {seed}: {}",
            r.stdout
        );
    }
}

/// The pause after a deal reads a line: Enter (or anything else) goes on, `quit` or the
/// end of input leaves the game as at a move (exit code 2, the seed told, the record
/// kept as left). `--no-pause` reads nothing there, for scripts.
#[test]
fn the_pause_after_a_deal_reads_a_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = rule_file(dir.path(), "ante.fuda", ANTE_EACH_DEAL);
    let play = |extra: &[&str], input: &str| {
        let mut args = vec!["play", file.as_str(), "--seed", "1"];
        args.extend_from_slice(extra);
        fuda_80(&args, input)
    };
    let r = play(&[], "1\n\n1\n");
    assert_eq!(r.code, 0, "{}", r.all());
    // One pause: after the first deal, not after the last.
    assert_eq!(r.stdout.matches(PAUSE).count(), 1, "{}", r.stdout);
    let (before, after) = r.stdout.split_once(PAUSE).expect("a pause");
    assert!(before.contains("── deal 1 ends"), "{before}");
    assert!(after.starts_with("\n\n── deal 2, your move ──"), "{after}");

    let rec = dir.path().join("left.toml");
    let rec = rec.to_str().expect("utf-8 path");
    for (input, why) in [("1\n", "input ended"), ("1\nquit\n", "you quit")] {
        let r = play(&["--record", rec], input);
        assert_eq!(r.code, 2, "{input:?}: {}", r.all());
        assert!(
            r.stderr
                .contains(&format!("{why} before the game ended: leaving the game")),
            "{}",
            r.stderr
        );
        assert!(r.stdout.contains("--seed 1"), "{}", r.stdout);
        assert!(!r.stdout.contains("── deal 2"), "{}", r.stdout);
        let text = std::fs::read_to_string(rec).expect("the record");
        assert!(text.contains("ended = \"left\""), "{text}");
    }

    let r = play(&["--no-pause"], "1\n1\n");
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(!r.stdout.contains(PAUSE), "{}", r.stdout);
    let help = common::fuda(&["play", "--help"]);
    assert!(help.stdout.contains("--no-pause"), "{}", help.stdout);
}
