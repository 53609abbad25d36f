//! End to end: `fuda play` driven by piped input, on an 80-column screen: what it shows
//! and asks, move by move. Whole games as a person plays them, and their golden
//! transcripts, are in `play_screens.rs`.

mod common;

use common::{fuda_80, rule_file, sangohana, ANTE_EACH_DEAL};

#[test]
fn a_piped_session_plays_to_the_end() {
    let input = "1\n".repeat(3000);
    let r = fuda_80(
        &["play", &sangohana(), "--seed", "3", "--set", "deals=1"],
        &input,
    );
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.stdout.contains("your move"), "{}", r.stdout);
    assert!(
        r.stdout.contains("face down"),
        "hidden hands show as counts: {}",
        r.stdout
    );
    assert!(r.stdout.contains("── deal 1 ends:"), "{}", r.stdout);
    let end = r.stdout.split("game over").nth(1).expect("the game ends");
    assert!(end.contains("you (seat 0"), "final chips per seat: {end}");
    assert_eq!(
        end.lines()
            .filter(|l| l.trim_start().starts_with("seat ") || l.trim_start().starts_with("you "))
            .count(),
        3
    );
}

/// The chips shown when a deal ends name each seat with its role in that deal, not in
/// the next one: in 珊瑚花 the winner deals next, so a win by a seat other than the
/// dealer changes every role before the line is drawn.
#[test]
fn chips_after_a_deal_show_the_roles_of_that_deal() {
    let input = "1\n".repeat(3000);
    let mut checked = 0;
    for seed in 1..=40 {
        let seed = seed.to_string();
        let r = fuda_80(
            &[
                "play",
                &sangohana(),
                "--seed",
                &seed,
                "--set",
                "deals=2",
                "--agents",
                "random",
            ],
            &input,
        );
        assert_eq!(r.code, 0, "{}", r.all());
        let lines: Vec<&str> = r.stdout.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            if !l.starts_with("── deal ") || !l.contains(" ends: ") {
                continue;
            }
            // `seat 2 (ビキ) scores 素役: 1` comes just before the deal's end, and the
            // winning hand's groups, indented, after it.
            let Some(scorer) = lines[..i]
                .iter()
                .rev()
                .find(|l| !l.starts_with("  "))
                .and_then(|s| s.split_once(" scores "))
                .map(|(who, _)| who)
            else {
                continue;
            };
            if scorer.contains("親") {
                continue;
            }
            let chips = lines.get(i + 1).copied().unwrap_or_default();
            assert!(chips.contains("chips:"), "seed {seed}: {chips}");
            assert!(
                chips.contains(&format!("{scorer} ")),
                "seed {seed}: the winner keeps the role it won in ({scorer}): {chips}"
            );
            assert_eq!(chips.matches("親").count(), 1, "seed {seed}: {chips}");
            checked += 1;
        }
        if checked >= 2 {
            return;
        }
    }
    panic!("no seed in 1..=40 had a deal won by a seat other than the dealer");
}

/// The first decision's moves as listed (`  1. 捨てる 松に鶴(1-crane)` → `捨てる 松に鶴(1-crane)`).
fn first_moves() -> Vec<String> {
    let r = fuda_80(
        &["play", &sangohana(), "--seed", "3", "--set", "deals=1"],
        "",
    );
    let listed = r
        .stdout
        .lines()
        .skip_while(|l| !l.contains("your move") && !l.contains("you may claim"));
    listed
        .filter_map(|l| {
            l.trim_start()
                .split_once(". ")
                .filter(|(n, _)| n.parse::<usize>().is_ok())
                .map(|(_, m)| m.to_string())
        })
        .collect()
}

#[test]
fn illegal_input_gets_a_reason_and_the_moves_again() {
    let input = format!(
        "99\nnothing-like-a-move\n捨てる 11-rainman\n{}",
        "1\n".repeat(3000)
    );
    let r = fuda_80(
        &["play", &sangohana(), "--seed", "3", "--set", "deals=1"],
        &input,
    );
    assert_eq!(r.code, 0, "{}", r.all());
    let n = first_moves().len();
    assert!(
        r.stdout
            .contains(&format!("there is no move 99: choose 1 to {n}")),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("`nothing-like-a-move` is not a move you can make now"),
        "{}",
        r.stdout
    );
    // A card the move does not take: what it does take is listed (the first decision is
    // the dealer's discard, every card of the hand).
    let takes = first_moves()
        .iter()
        .map(|m| {
            let id = m
                .rsplit_once('(')
                .map_or("", |(_, id)| id.trim_end_matches(')'));
            format!("`{id}`")
        })
        .collect::<Vec<_>>()
        .join(", ");
    assert!(
        r.stdout.contains(&format!(
            "you cannot `捨てる` with `11-rainman` now: `捨てる` takes {takes}"
        )),
        "{takes}\n{}",
        r.stdout
    );
    // The moves are listed again after each refusal.
    let after = r
        .stdout
        .split("there is no move 99")
        .nth(1)
        .expect("refused");
    assert!(
        after
            .lines()
            .nth(1)
            .unwrap_or_default()
            .trim_start()
            .starts_with("1. "),
        "{after}"
    );
}

#[test]
fn moves_by_name_or_card() {
    let moves = first_moves();
    let first = moves.first().expect("a first decision");
    // `捨てる 松に鶴(1-crane)` is typed as its card id alone; a move without a card by
    // its name.
    let typed = match first.rsplit_once('(') {
        Some((_, id)) => id.trim_end_matches(')').to_string(),
        None => first.clone(),
    };
    let input = format!("{typed}\n{}", "1\n".repeat(3000));
    let r = fuda_80(
        &["play", &sangohana(), "--seed", "3", "--set", "deals=1"],
        &input,
    );
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        r.stdout.contains(&format!("you: {first}")),
        "typed `{typed}`: {}",
        r.stdout
    );
}

/// A move number typed in full-width digits (as a Japanese input method types it) is
/// the same number; a number too large for any move is "no move", not "not a move".
#[test]
fn full_width_and_huge_numbers() {
    let moves = first_moves();
    let first = moves.first().expect("a first decision");
    let input = format!("99999999999999999999\n１\n{}", "1\n".repeat(3000));
    let r = fuda_80(
        &["play", &sangohana(), "--seed", "3", "--set", "deals=1"],
        &input,
    );
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        r.stdout.contains(&format!(
            "there is no move 99999999999999999999: choose 1 to {}",
            moves.len()
        )),
        "{}",
        r.stdout
    );
    // `１` was taken, not refused (the `1`s after it would take the same move).
    assert!(
        !r.stdout.contains("not a move you can make now"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains(&format!("you: {first}")), "{}", r.stdout);
}

#[test]
fn end_of_input_leaves_with_code_2() {
    let r = fuda_80(&["play", &sangohana(), "--seed", "3"], "1\n1\n");
    assert_eq!(r.code, 2, "{}", r.all());
    assert!(
        r.stderr.contains("input ended before the game ended"),
        "{}",
        r.stderr
    );
    assert!(!r.all().contains("panicked"));

    let r = fuda_80(&["play", &sangohana(), "--seat", "5"], "");
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("there is no seat 5"), "{}", r.stderr);
}

/// A face-down pile the person owns stays unseen: in 奈良 the two piles are dealt face
/// down and chosen blind, so nothing of them is shown before the choice.
#[test]
fn face_down_piles_are_not_shown_before_the_blind_choice() {
    let nara = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../rulesets/nara-hanaawase.fuda"
    );
    let r = fuda_80(
        &[
            "play", nara, "--seed", "3", "--set", "hands=1", "--agents", "random",
        ],
        &"1\n".repeat(60),
    );
    let before_first_choice = r.stdout.split("> ").next().unwrap_or_default();
    assert!(
        !before_first_choice.contains("new to you"),
        "{before_first_choice}"
    );
    assert!(
        before_first_choice.contains("5 cards face down"),
        "{before_first_choice}"
    );
    // Per-seat zones empty at every seat are one row each; the others, one per seat.
    assert!(
        before_first_choice.contains("  手札 of every seat  ")
            && before_first_choice.contains("  取り札 of every seat  ")
            && !before_first_choice.contains("手札 of seat 1"),
        "{before_first_choice}"
    );
    assert_eq!(
        before_first_choice.matches("山一 of ").count(),
        4,
        "{before_first_choice}"
    );
}

/// The bundled 奈良 ruleset.
fn nara() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../rulesets/nara-hanaawase.fuda"
    )
    .to_string()
}

/// The seed is told at the end, not at the start: with it, the same game could be
/// played again from another seat with the hidden hands in view.
#[test]
fn the_seed_is_told_when_the_game_is_over() {
    let input = "1\n".repeat(3000);
    let r = fuda_80(
        &["play", &sangohana(), "--seed", "3", "--set", "deals=1"],
        &input,
    );
    assert_eq!(r.code, 0, "{}", r.all());
    let (during, end) = r.stdout.split_once("game over").expect("the game ends");
    assert!(!during.contains("seed"), "{during}");
    assert!(end.contains("--seed 3"), "{end}");
    // Leaving early tells it too, once the game is left.
    let r = fuda_80(&["play", &sangohana(), "--seed", "3"], "quit\n");
    assert_eq!(r.code, 2, "{}", r.all());
    let (during, after) = r.stdout.split_once("\n> ").expect("asked once");
    assert!(!during.contains("seed"), "{during}");
    assert!(after.contains("--seed 3"), "{}", r.all());
}

/// Every hand card played is shown, with its card (each ends up face up): the round
/// where each hand holds one card (a single legal move) too, the person's own
/// included, and a card that matches two field cards, whose capture is chosen before
/// the played card leaves the hand.
#[test]
fn every_public_move_is_shown_with_its_card() {
    let r = fuda_80(
        &["play", &nara(), "--seed", "4", "--set", "hands=1"],
        &"1\n".repeat(500),
    );
    assert_eq!(r.code, 0, "{}", r.all());
    let plays: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.contains(": 手札から出す"))
        .collect();
    // Four seats, five rounds.
    assert_eq!(plays.len(), 20, "{}", r.stdout);
    for l in &plays {
        assert_eq!(card_ids(l), 1, "the card is named: {l}");
    }
    assert_eq!(
        plays
            .iter()
            .filter(|l| l.trim_start_matches("> ").starts_with("you: "))
            .count(),
        5,
        "{}",
        r.stdout
    );
    assert!(
        plays.iter().any(|l| l.contains("(your only move)")),
        "{}",
        r.stdout
    );
}

/// The 珊瑚花 dealer's first draw is its only move (the discard pile is empty): it is
/// shown, and a person dealing sees the dealt hand before the drawn card comes in.
#[test]
fn a_dealers_forced_first_draw_is_shown() {
    let input = "1\n".repeat(3000);
    let mut dealt = false;
    for seed in 1..=20 {
        let seed = seed.to_string();
        let r = fuda_80(
            &[
                "play",
                &sangohana(),
                "--seed",
                &seed,
                "--set",
                "deals=2",
                "--agents",
                "random",
            ],
            &input,
        );
        assert_eq!(r.code, 0, "{}", r.all());
        for l in new_to_you(&r.stdout) {
            assert!(
                card_ids(&l) <= 7,
                "seed {seed}: at most the 7 dealt cards come in at once: {l}"
            );
        }
        // Each deal starts with the dealer's draw, shown.
        let draws = r
            .stdout
            .lines()
            .filter(|l| {
                l.contains("親): 山札をめくる") || l.contains("you: 山札をめくる (your only move)")
            })
            .count();
        assert!(draws >= 2, "seed {seed}: {}", r.stdout);
        if r.stdout.contains("you: 山札をめくる (your only move)") {
            // The drawn card comes in alone at the next decision.
            let (_, after) = r
                .stdout
                .split_once("you: 山札をめくる (your only move)")
                .unwrap_or_default();
            let drawn = new_to_you(after).into_iter().next().unwrap_or_default();
            assert_eq!(card_ids(&drawn), 1, "seed {seed}: {after}");
            dealt = true;
        }
    }
    assert!(dealt, "no seed in 1..=20 had the person deal");
}

/// Each `new to you: …` of a screen, with the lines it is wrapped onto (indented under
/// its first card), as one line.
fn new_to_you(screen: &str) -> Vec<String> {
    const HEAD: &str = "new to you: ";
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for l in screen.lines() {
        if l.starts_with(HEAD) {
            out.push(l.to_string());
            open = true;
        } else if open && l.starts_with(&" ".repeat(HEAD.len())) {
            if let Some(last) = out.last_mut() {
                last.push_str(l);
            }
        } else {
            open = false;
        }
    }
    out
}

/// The chips after the game name each seat with its role in the last deal played, as
/// the line after that deal does, not in a next deal that is never played.
#[test]
fn game_over_labels_seats_with_the_last_deals_roles() {
    let input = "1\n".repeat(3000);
    let mut differs = 0;
    for seed in 1..=30 {
        let seed = seed.to_string();
        let r = fuda_80(
            &[
                "play",
                &sangohana(),
                "--seed",
                &seed,
                "--set",
                "deals=1",
                "--agents",
                "random",
            ],
            &input,
        );
        assert_eq!(r.code, 0, "{}", r.all());
        let (during, end) = r.stdout.split_once("game over").expect("the game ends");
        let chips_line = during
            .lines()
            .skip_while(|l| !l.starts_with("── deal 1 ends"))
            .nth(1)
            .unwrap_or_default();
        let labels: Vec<&str> = end
            .lines()
            .filter_map(|l| l.trim_start().rsplit_once("  ").map(|(who, _)| who))
            .filter(|who| who.starts_with("you ") || who.starts_with("seat "))
            .collect();
        assert_eq!(labels.len(), 3, "{end}");
        for who in &labels {
            assert!(
                chips_line.contains(&format!("{who} ")),
                "seed {seed}: `{who}` as after the deal: {chips_line}"
            );
        }
        // A deal won by a seat that did not deal passes the deal on.
        if r.stdout.contains(" scores ")
            && !r
                .stdout
                .lines()
                .any(|l| l.contains(" scores ") && l.contains("親"))
        {
            differs += 1;
        }
    }
    assert!(differs > 0, "no deal in 1..=30 passed the deal on");
}

/// At a win the winning hand is shown with the score: its yaku and bonuses as `fuda
/// score` lists them, how the total is made, and the cards split as they were scored.
#[test]
fn a_win_shows_the_winning_hand() {
    let input = "1\n".repeat(3000);
    for seed in 1..=20 {
        let seed = seed.to_string();
        let r = fuda_80(
            &["play", &sangohana(), "--seed", &seed, "--set", "deals=1"],
            &input,
        );
        assert_eq!(r.code, 0, "{}", r.all());
        let lines: Vec<&str> = r.stdout.lines().collect();
        let Some(i) = lines.iter().position(|l| l.contains(" scores ")) else {
            continue;
        };
        // `… scores 素役: 16`, then `  素役  1` and `  福上がり  15`, then the sum.
        let total = lines[i].rsplit(": ").next().unwrap_or_default();
        let sum = lines[i + 1..]
            .iter()
            .position(|l| l.starts_with("  base ") && l.ends_with(&format!("= total {total}")))
            .unwrap_or_else(|| panic!("seed {seed}: no sum line: {}", lines[i..].join("\n")));
        assert!(
            sum >= 1,
            "seed {seed}: no yaku line: {}",
            lines[i..].join("\n")
        );
        assert!(
            lines[i + 1..i + 1 + sum].iter().all(
                |l| l.starts_with("  ") && l.trim_end().ends_with(|c: char| c.is_ascii_digit())
            ),
            "seed {seed}: {}",
            lines[i..].join("\n")
        );
        // The groups up to the deal's end hold the eight cards of the hand.
        let cards: usize = lines[i + 1..]
            .iter()
            .take_while(|l| !l.starts_with("──"))
            .map(|l| card_ids(l))
            .sum();
        assert_eq!(cards, 8, "seed {seed}: {}", lines[i..].join("\n"));
        return;
    }
    panic!("no deal in seeds 1..=20 was won");
}

/// How many cards a line names: each shows as `名(id)`, and an id starts with a digit or
/// is `oni` (a name may hold brackets of its own: `桐のカス(黄)(12-kasu-yellow)`).
fn card_ids(line: &str) -> usize {
    line.split('(')
        .skip(1)
        .filter(|rest| rest.starts_with(|c: char| c.is_ascii_digit()) || rest.starts_with("oni)"))
        .count()
}

/// Two seats each play a card face down at once; the cards are revealed after the
/// moves, and the next deal may give the person the card just played. (From a review:
/// the opponent's card was named or not by where it was later.)
const FACE_DOWN_PLAYS: &str = r#"ruleset "log visibility probe"
import "std/hanafuda"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
zone 出し per seat pile owner
zone 手 per seat pile owner
enum 結果: 終(end)
proc match {
  repeat 3 {
    gather 山
    shuffle 山
    deal 2 from 山 to 手
    choose each x in seats() { move 出す(c in 手[x]) { move c to 出し[x] } }
    for x in seats() { reveal 出し[x] }
    say "shown: " + top(出し[0]) + " / " + top(出し[1])
    outcome 終
  }
}
"#;

/// A move's card is named exactly when the person could see it as the move was made:
/// a card played face down never is (whether it is revealed later, or comes to the
/// person's hand in a later deal), and one played face up always is.
#[test]
fn a_moves_card_is_named_by_what_was_seen_as_it_was_made() {
    let dir = tempfile::tempdir().expect("tempdir");
    let down = rule_file(dir.path(), "down.fuda", FACE_DOWN_PLAYS);
    let face_up = FACE_DOWN_PLAYS.replace(
        "zone 出し per seat pile owner",
        "zone 出し per seat pile public",
    );
    let up = rule_file(dir.path(), "up.fuda", &face_up);
    for (file, named) in [(&down, false), (&up, true)] {
        for seed in 1..=12 {
            let seed = seed.to_string();
            // Enter after each deal but the last.
            let r = fuda_80(&["play", file, "--seed", &seed], "1\n\n1\n\n1\n");
            assert_eq!(r.code, 0, "{}", r.all());
            let plays: Vec<&str> = r
                .stdout
                .lines()
                .filter(|l| l.starts_with("seat 1 (子): 出す"))
                .collect();
            assert_eq!(plays.len(), 3, "{}", r.stdout);
            for l in plays {
                assert_eq!(
                    card_ids(l) == 1,
                    named,
                    "{file} seed {seed}: {l}\n{}",
                    r.stdout
                );
            }
        }
    }
}

/// The ledger shown as a deal ends is the ledger at its `outcome`, not after the next
/// deal's ante.
#[test]
fn a_deals_end_shows_the_ledger_at_its_outcome() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = rule_file(dir.path(), "ante.fuda", ANTE_EACH_DEAL);
    let r = fuda_80(&["play", &file, "--seed", "1"], "1\n\n1\n");
    assert_eq!(r.code, 0, "{}", r.all());
    let ends: Vec<&str> = r
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("── deal 1 ends"))
        .collect();
    assert_eq!(
        ends.get(1).copied().unwrap_or_default(),
        "  chips: you (seat 0, 親) 5, seat 1 (子) -5   pot: 0",
        "{}",
        r.stdout
    );
    let second = r
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("── deal 2 ends"))
        .nth(1)
        .unwrap_or_default();
    assert_eq!(
        second, "  chips: you (seat 0, 親) 10, seat 1 (子) -10   pot: 0",
        "{}",
        r.stdout
    );
}

/// An unshuffled deal of mahjong tiles: the hand holds four 白(5z) and two 發(6z).
const COPIES: &str = r#"ruleset "copies probe"
import "std/mahjong"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
zone 河 shared stack public
zone 手 per seat pile owner
enum 結果: 終(end)
proc match {
  deal 6 from 山 to 手
  choose 0 { move 捨てる(d in 手[0]) "捨てる" { move d to 河 } }
  outcome 終
}
"#;

/// Copies of a card (the same id) are interchangeable: typing the id takes the first,
/// rather than answering "fits 2 moves". A card of the deck the hand does not hold gets
/// the list of what the move takes, not another card with a nearby id (`1z` is not
/// "did you mean `6z`?"); a typo gets the nearest card by id or name.
#[test]
fn copies_of_a_card_are_one_move_to_type() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = rule_file(dir.path(), "copies.fuda", COPIES);
    let play = |input: &str| {
        let r = fuda_80(&["play", &file, "--seed", "1"], &format!("{input}\n"));
        assert_eq!(r.code, 0, "{input}: {}", r.all());
        r.stdout
    };
    assert!(play("捨てる 6z").contains("> you: 捨てる 發(6z)\n"));
    assert!(play("5z").contains("> you: 捨てる 白(5z)\n"));
    let out = play("捨てる 1z\n1");
    assert!(
        out.contains("you cannot `捨てる` with `1z` now: `捨てる` takes `5z`, `6z`\n"),
        "{out}"
    );
    let out = play("1z\n1");
    assert!(
        out.contains("> `1z` is not a move you can make now\n"),
        "{out}"
    );
    for typo in ["6x", "發x"] {
        let out = play(&format!("捨てる {typo}\n1"));
        assert!(
            out.contains(&format!(
                "you cannot `捨てる` with `{typo}` now (did you mean `捨てる 6z`?)"
            )),
            "{out}"
        );
    }
}

/// A move over sets of tiles: seat 0 holds 2m 2m 3m 4m 9p and plays two of them, seat 1
/// plays one tile or a pair of one face.
const SETS: &str = r#"ruleset "sets probe"
import "std/mahjong"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
zone 場 shared pile public
zone 手 per seat pile owner
enum 結果: 終(end)
def 同じ(p: cards) = all(c in p: c.face == p.face)
proc match {
  move cards("2m 2m 3m 4m 9p") to 手[0]
  move cards("1z 1z 5s") to 手[1]
  choose 0 { move 出す(p in sets(手[0], 2)) "出す" { move p to 場 } }
  choose 1 { move 出す(p in sets(手[1], 1, 2)) "出す" when 同じ(p) { move p to 場 } }
  outcome 終
}
"#;

/// Set moves are listed in compact tile notation, one per pair of faces (the two 2m make
/// one `22m`, and 23m is offered once), and typed by number, by ids or compactly; a set
/// the move does not take, or cards that are not tiles, get the list of what it takes.
#[test]
fn set_moves_are_listed_compactly_and_typed_by_tiles() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = rule_file(dir.path(), "sets.fuda", SETS);
    let play = |input: &str| {
        let r = fuda_80(&["play", &file, "--seed", "1"], &format!("{input}\n"));
        assert_eq!(r.code, 0, "{input}: {}", r.all());
        r.stdout
    };
    let out = play("2");
    let listed: Vec<&str> = out
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(
        listed,
        [
            "   1. 出す 22m",
            "   2. 出す 23m",
            "   3. 出す 24m",
            "   4. 出す 2m9p",
            "   5. 出す 34m",
            "   6. 出す 3m9p",
            "   7. 出す 4m9p"
        ],
        "{out}"
    );
    assert!(out.contains("> you: 出す 23m\n"), "{out}");
    for typed in [
        "出す 2m 3m",
        "出す 23m",
        "出す 3m,2m",
        "出す 二萬 三萬",
        "23m",
    ] {
        let out = play(typed);
        assert!(out.contains("> you: 出す 23m\n"), "{typed}: {out}");
    }
    // The other seat's play is named once it lies face up.
    assert!(out.contains("seat 1 (子): 出す "), "{out}");
    let takes = "`出す` takes `22m`, `23m`, `24m`, `2m9p`, `34m`, `3m9p`, `4m9p`";
    for wrong in ["25m", "2m 2m 2m", "9x", "2m"] {
        let out = play(&format!("出す {wrong}\n1"));
        assert!(
            out.contains(&format!(
                "> you cannot `出す` with `{wrong}` now: {takes}\n"
            )),
            "{wrong}: {out}"
        );
        assert!(out.contains("> you: 出す 22m\n"), "{wrong}: {out}");
    }
    let out = play("出す\n1");
    assert!(
        out.contains("> `出す` needs cards: 7 moves fit, e.g. `出す 22m`\n"),
        "{out}"
    );
}

/// Rules whose payments do not balance: one move makes a chip from nothing.
const MAKES_A_CHIP: &str = r#"
ruleset "makes a chip"
import "std/kabufuda"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
enum 結果: 終(end)
var chips: int per seat = 0
ledger chips
proc match {
  repeat 3 {
    choose dealer { move 作る { chips[dealer] += 1 } move 何も { } }
    outcome 終
  }
}
"#;

#[test]
fn a_ledger_that_stops_balancing_is_told_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = &rule_file(dir.path(), "chip.fuda", MAKES_A_CHIP);
    let r = fuda_80(
        &["play", file, "--seed", "1", "--no-pause"],
        "作る\n作る\n何も\n",
    );
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(r.stderr.matches("now sums to").count(), 1, "{}", r.all());
    assert!(
        r.stderr.contains("the ledger (chips) now sums to 1, not 0"),
        "{}",
        r.stderr
    );
    // Balanced play says nothing.
    let quiet = fuda_80(&["play", file, "--seed", "1"], "何も\n\n何も\n\n何も\n");
    assert_eq!(quiet.code, 0, "{}", quiet.all());
    assert!(!quiet.stderr.contains("now sums to"), "{}", quiet.stderr);
}

/// Each seat plays its only card at once, then the dealer chooses: the first
/// decision has one outcome and is taken without asking.
const ONE_CARD_EACH: &str = r#"
ruleset "one card each"
import "std/hanafuda"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
zone 出し per seat pile public
zone 手 per seat pile owner
enum 結果: 終(end)
var chips: int per seat = 0
ledger chips
proc match {
  repeat 2 {
    gather 山
    shuffle 山
    deal 1 from 山 to 手
    choose each x in seats() { move 出す(c in 手[x]) { move c to 出し[x] } }
    choose dealer {
      move 取る { pay 1 from chips[next(dealer)] to chips[dealer] }
      move 渡す { pay 1 from chips[dealer] to chips[next(dealer)] }
    }
    outcome 終
  }
}
"#;

#[test]
fn a_forced_choose_each_is_shown_not_asked_and_its_replay_fits() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = &rule_file(dir.path(), "one.fuda", ONE_CARD_EACH);
    let rec = dir.path().join("one.toml");
    let rec = rec.to_str().expect("utf-8 path");
    let played = fuda_80(
        &["play", file, "--seed", "2", "--record", rec],
        "取る\n\n取る\n",
    );
    assert_eq!(played.code, 0, "{}", played.all());
    // Only the dealer's choices were asked and recorded: two answers were enough.
    let text = std::fs::read_to_string(rec).expect("the record");
    assert!(text.contains("ended = \"finished\""), "{text}");
    let replayed = common::fuda(&["replay", rec]);
    assert_eq!(replayed.code, 0, "{}", replayed.all());
}

/// 珊瑚花 pays the winner after its `outcome`: a deal's end shows the ledger with the
/// win paid (review: it showed the chips before the payment), as the final chips do.
#[test]
fn a_deals_end_shows_the_payments_made_after_its_outcome() {
    let r = fuda_80(
        &[
            "play",
            &sangohana(),
            "--seat",
            "0",
            "--seed",
            "7",
            "--set",
            "deals=1",
        ],
        &"1\n".repeat(2000),
    );
    assert_eq!(r.code, 0, "{}", r.all());
    let line = r
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("── deal 1 ends"))
        .nth(1)
        .unwrap_or_default();
    assert_eq!(
        line, "  chips: you (seat 0, 胴二) -1, seat 1 (ビキ) -1, seat 2 (親) 2   pot: 0",
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("seat 2 (親)  +2"), "{}", r.stdout);
    // Nothing was paid after the deal: no line for it.
    assert!(!r.stdout.contains("after the last deal"), "{}", r.stdout);
}

/// A pot left after 珊瑚花's last deal goes to the leader: shown before the final chips,
/// which otherwise did not add up from the lines shown (second code review).
#[test]
fn a_payment_after_the_last_deal_is_shown() {
    let r = fuda_80(
        &[
            "play",
            &sangohana(),
            "--seat",
            "0",
            "--seed",
            "44",
            "--agents",
            "random",
        ],
        &"1\n".repeat(5000),
    );
    assert_eq!(r.code, 0, "{}", r.all());
    let after: Vec<&str> = r
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("── after the last deal"))
        .take(2)
        .collect();
    assert_eq!(after.len(), 2, "{}", r.stdout);
    assert!(after[1].ends_with("pot: 0"), "{}", after[1]);
}
