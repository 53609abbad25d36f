//! `fuda play` on 富戯, a climbing game: the table shows the play in force (its shape,
//! number, suit and any reversal, from the ruleset's `display`), plays are typed as
//! their move and tiles, and a play the rules refuse is told why, the game unchanged.

mod common;

use common::{bundled, fuda_with_input, golden, Run};

/// `fuda play` of 富戯 with three random players, seed 5 and a one-round game, fed `input`.
fn play_seed5(input: &str) -> Run {
    let fugi = bundled("fugi.fuda");
    let args = [
        "play",
        &fugi,
        "--seed",
        "5",
        "--players",
        "3",
        "--agents",
        "random",
        "--set",
        "降番=1",
    ];
    fuda_with_input(&args, input)
}

/// Three players, seed 5: the exchange (two tiles given back), then a 刻子 of tiles not
/// held and a 対子 of two different tiles, each refused with its reason and the same
/// moves offered again; a pass; then the person leaves.
#[test]
fn golden_fugi_refusals_say_why() {
    let r = play_seed5("1\n1\n刻子 999m\n対子 68m\n見送り\nquit\n");
    let s = &r.stdout;
    assert!(s.contains("  場: 空\n") && s.contains("  強さ: 0\n"), "{s}");
    assert!(
        s.contains("why: 999m are not among the cards it takes from, `sets(手牌[s], 3, 3, face)`"),
        "{s}"
    );
    assert!(
        s.contains("why: 68m are not among the cards it takes from, `sets(手牌[s], 2, 2, face)`"),
        "{s}"
    );
    // The refused lines changed nothing: the same fifteen moves are offered after each.
    assert_eq!(s.matches("  15. 見送り (pass)\n").count(), 3, "{s}");
    golden("fugi-seed5.txt", s);
}

/// A play that does not beat the table is refused with the rule that says so.
#[test]
fn a_play_that_does_not_beat_the_table_is_told_which_rule() {
    // Seed 5: after the exchange and a pass, 民二 leads 6s; the person holds 7m.
    let r = play_seed5("1\n1\n見送り\n単騎 1p\nquit\n");
    let s = &r.stdout;
    assert!(
        s.contains("why: `出せる(単, p, 場, 強さ, 色, 逆転)` (line "),
        "{s}"
    );
}

/// A play made in steps is typed on one line, as players write it: `999p帯77m` (or
/// `刻子 999p 帯 77m`) answers the 刻子 and then what it carries; a line whose later
/// part fits nothing is refused whole, the game unchanged.
#[test]
fn a_carrying_play_is_typed_on_one_line() {
    for line in ["999p帯77m", "刻子 999p 帯 77m", "999p 帯 77m"] {
        let r = play_seed5(&format!("1\n1\n{line}\nquit\n"));
        let s = &r.stdout;
        assert!(
            s.contains("> you: 刻子 999p\nyou: 帯 (carry) 77m\n"),
            "{line}: {s}"
        );
        assert!(
            s.contains("  流し                        77m 999p\n"),
            "{line}: {s}"
        );
    }
    let r = play_seed5("1\n1\n999p帯68m\n見送り\nquit\n");
    let s = &r.stdout;
    assert!(
        s.contains("> `999p帯68m` is not a move you can make now"),
        "{s}"
    );
    assert!(!s.contains("you: 刻子 999p"), "{s}");
    assert!(s.contains("you: 見送り (pass)"), "{s}");
}

/// In a file's own tests, an `answer` the rules refuse says why, as `fuda play` does:
/// a play that does not beat the table, tiles not held, a set of the wrong shape.
#[test]
fn a_refused_answer_in_a_test_says_why() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let dir = tmp.path();
    let fugi = std::fs::read_to_string(bundled("fugi.fuda")).expect("read fugi.fuda");
    std::fs::write(dir.join("fugi.fuda"), fugi).expect("copy fugi.fuda");
    let variant = "ruleset \"refusals\" extends \"fugi.fuda\"\n\
        test \"does not beat\" {\n  move 壁 to 流し\n  move cards(\"222m444p\") to 手牌[0]\n  場 = 刻\n  強さ = 3\n  answer 刻子(cards(\"222m\"))\n  打牌(0)\n}\n\
        test \"not held\" {\n  move 壁 to 流し\n  move cards(\"222m444p\") to 手牌[0]\n  answer 刻子(cards(\"555m\"))\n  打牌(0)\n}\n\
        test \"not a triplet\" {\n  move 壁 to 流し\n  move cards(\"234m444p\") to 手牌[0]\n  answer 刻子(cards(\"234m\"))\n  打牌(0)\n}\n";
    let file = dir.join("refusals.fuda");
    std::fs::write(&file, variant).expect("write the variant");
    let r = common::fuda(&["test", &file.to_string_lossy()]);
    let all = r.all();
    assert_eq!(r.code, 1, "{all}");
    assert!(
        all.contains(
            "is not a legal move for seat 0 here: `出せる(刻, p, 場, 強さ, 色, 逆転)` (line "
        ),
        "{all}"
    );
    assert!(
        all.contains(
            "here: 555m are not among the cards it takes from, `sets(手牌[s], 3, 3, face)`"
        ),
        "{all}"
    );
    assert!(
        all.contains("here: it is not one of those it offers, `sets(手牌[s], 3, 3, face)`"),
        "{all}"
    );
}
