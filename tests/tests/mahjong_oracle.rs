//! The winning forms of `std/mahjong-shapes` (一般形, 七対子, 国士無双, and 和了形, any of
//! them), compared hand by hand with an independent oracle that counts tiles
//! (`fuda_tests::mahjong`): whether each 14-tile hand wins by each form, and which tiles
//! each 13-tile hand waits on.
//! The hands are random, built to win, one tile from a win, and of one suit (the hands
//! with the most ways to split). fuda answers through the language itself: the oracle
//! writes each hand and its answer as a `test` of a ruleset, which fuda then runs.

use std::fmt::Write as _;

use fuda_core::loader::MemoryFiles;
use fuda_core::State;
use fuda_tests::mahjong::{self as mj, Counts};
use fuda_tests::oracle::Rng;

/// A winning form as the oracle decides it.
type Form = fn(&Counts) -> bool;

/// The forms, by their pattern's name in `std/mahjong-shapes`.
const FORMS: [(&str, Form); 4] = [
    ("一般形", mj::standard),
    ("七対子", mj::seven_pairs),
    ("国士無双", mj::thirteen_orphans),
    ("和了形", any_form),
];

/// A win by any of the three forms (`pattern 和了形 = 一般形 | 七対子 | 国士無双`).
fn any_form(h: &Counts) -> bool {
    mj::standard(h) || mj::seven_pairs(h) || mj::thirteen_orphans(h)
}

/// A ruleset on the mahjong tiles with the shapes, around `tests`.
fn ruleset(tests: &str) -> String {
    format!(
        "ruleset \"oracle\"\nimport \"std/mahjong\"\nimport \"std/mahjong-shapes\"\n\
         seats 2 {{ 2: a b }}\nzone z shared pile public\nproc match {{ }}\n{tests}"
    )
}

/// Runs every test of `text`: the failures, each with its test's name and why.
fn failures(text: &str) -> Vec<String> {
    let p = match fuda_core::compile("oracle.fuda", text, &MemoryFiles::default()) {
        Ok(c) => c.program,
        Err(f) => panic!(
            "the oracle's ruleset does not compile: {:#?}",
            f.diagnostics
        ),
    };
    (0..p.tests.len())
        .filter_map(|i| {
            State::run_test(&p, i)
                .err()
                .map(|e| format!("{}: {}", p.tests[i].name, e.message))
        })
        .collect()
}

/// Fails with every disagreement listed (the first 20).
fn agree(failed: &[String], what: &str) {
    assert!(
        failed.is_empty(),
        "{} of the {what} disagree with the oracle:\n{}",
        failed.len(),
        failed
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// 14-tile hands: for each, whether each form holds.
#[test]
fn wins_agree() {
    let mut rng = Rng(0x4D4A_0001);
    let mut hands: Vec<Counts> = Vec::new();
    for _ in 0..400 {
        hands.push(mj::random_hand(&mut rng, 14));
        hands.push(mj::one_suit_hand(&mut rng, 14));
    }
    for _ in 0..300 {
        let win = mj::standard_win(&mut rng);
        hands.push(win);
        hands.push(mj::one_swapped(&mut rng, &win));
    }
    for _ in 0..100 {
        let pairs = mj::seven_pairs_win(&mut rng);
        let orphans = mj::thirteen_orphans_win(&mut rng);
        hands.extend([pairs, orphans]);
        hands.push(mj::one_swapped(&mut rng, &pairs));
        hands.push(mj::one_swapped(&mut rng, &orphans));
    }
    let mut tests = String::new();
    let mut wins = [0usize; 4];
    for (i, h) in hands.iter().enumerate() {
        let text = mj::notation(h);
        let _ = writeln!(tests, "test \"{i} {text}\" {{\n  let h = cards(\"{text}\")");
        for (f, (name, form)) in FORMS.iter().enumerate() {
            let win = form(h);
            wins[f] += usize::from(win);
            let not = if win { "" } else { "not " };
            let _ = writeln!(tests, "  expect {not}{name}(h)");
        }
        tests.push_str("}\n");
    }
    // The oracle found wins of every form, and many hands that are not.
    assert!(wins.iter().all(|&w| w >= 100), "wins by form: {wins:?}");
    assert!(wins[0] < hands.len() / 2, "wins by form: {wins:?}");
    agree(&failures(&ruleset(&tests)), "14-tile hands");
}

/// 13-tile hands: for each form, the tiles that complete them (every copy left).
#[test]
fn waits_agree() {
    let mut rng = Rng(0x4D4A_0002);
    let mut hands: Vec<Counts> = Vec::new();
    for _ in 0..60 {
        let win = mj::standard_win(&mut rng);
        hands.push(mj::without_one(&mut rng, &win));
        hands.push(mj::one_suit_hand(&mut rng, 13));
    }
    for _ in 0..20 {
        let pairs = mj::seven_pairs_win(&mut rng);
        let orphans = mj::thirteen_orphans_win(&mut rng);
        hands.push(mj::without_one(&mut rng, &pairs));
        hands.push(mj::without_one(&mut rng, &orphans));
        hands.push(mj::random_hand(&mut rng, 13));
    }
    let mut tests = String::new();
    let mut waiting = [0usize; 4];
    for (i, h) in hands.iter().enumerate() {
        let text = mj::notation(h);
        let _ = writeln!(tests, "test \"{i} {text}\" {{\n  let h = cards(\"{text}\")");
        for (f, (name, form)) in FORMS.iter().enumerate() {
            let kinds = mj::waits(h, *form);
            waiting[f] += usize::from(!kinds.is_empty());
            // Every copy of a waiting tile, less those the hand holds.
            let mut all = [0u8; mj::KINDS];
            for k in kinds {
                all[k] = 4;
            }
            let _ = writeln!(
                tests,
                "  expect waits({name}, h) == cards(\"{}\") - h",
                mj::notation(&all)
            );
        }
        tests.push_str("}\n");
    }
    assert!(
        waiting.iter().all(|&w| w >= 15),
        "hands waiting, by form: {waiting:?}"
    );
    agree(&failures(&ruleset(&tests)), "13-tile hands");
}

/// Hands with 1 to 4 melds laid out (副露): `和了形(concealed, [melds])` against the
/// oracle's count of the concealed tiles. The melds' tiles and the hand's are distinct
/// copies: each is written as "the tiles so far, less the tiles before".
#[test]
fn called_melds_agree() {
    let mut rng = Rng(0x4D4A_0003);
    let mut tests = String::new();
    let mut wins = 0;
    let n = 400;
    for i in 0..n {
        let mut called = 1 + rng.below(4);
        let mut taken = [0u8; mj::KINDS];
        let mut melds: Vec<Counts> = Vec::new();
        // A third: melds taken out of a winning hand, which may or may not leave a
        // pair and melds (the hand might only win split another way).
        if rng.chance(3) {
            let mut whole = mj::standard_win(&mut rng);
            for _ in 0..called {
                let found = mj::melds_in(&whole);
                if found.is_empty() {
                    break;
                }
                let m = found[rng.below(found.len())];
                for ((w, t), x) in whole.iter_mut().zip(taken.iter_mut()).zip(&m) {
                    *w -= x;
                    *t += x;
                }
                melds.push(m);
            }
            called = melds.len();
            if called == 0 {
                continue;
            }
            let win = mj::standard_with_calls(&whole, called);
            wins += usize::from(win);
            write_case(&mut tests, i, &melds, &whole, win);
            continue;
        }
        let melds: Vec<Counts> = (0..called)
            .map(|_| mj::random_meld(&mut rng, &mut taken))
            .collect();
        let rest = 14 - 3 * called;
        // Half built to win (a pair and the melds missing), half random, some one off.
        let concealed = if rng.chance(2) {
            let mut c = mj::random_tiles(&mut rng, &taken, 2);
            // A pair: the first tile twice, if copies allow.
            let k = (0..mj::KINDS).find(|&k| c[k] > 0).unwrap_or(0);
            c = [0; mj::KINDS];
            if taken[k] + 2 <= 4 {
                c[k] = 2;
            }
            let mut t = taken;
            for (x, y) in t.iter_mut().zip(&c) {
                *x += y;
            }
            for _ in 0..(4 - called) {
                let m = mj::random_meld(&mut rng, &mut t);
                for (x, y) in c.iter_mut().zip(&m) {
                    *x += y;
                }
            }
            if mj::size(&c) == rest && rng.chance(3) {
                mj::one_swapped(&mut rng, &c)
            } else {
                c
            }
        } else {
            mj::random_tiles(&mut rng, &taken, rest)
        };
        if mj::size(&concealed) != rest {
            continue;
        }
        let win = mj::standard_with_calls(&concealed, called);
        wins += usize::from(win);
        write_case(&mut tests, i, &melds, &concealed, win);
    }
    assert!(wins >= 60 && wins < n - 60, "wins: {wins} of {n}");
    agree(&failures(&ruleset(&tests)), "hands with called melds");
}

/// One hand with melds laid out as an in-file test: `和了形` and `一般形` hold or not.
/// Cumulative notations give distinct copies to each part.
fn write_case(tests: &mut String, i: usize, melds: &[Counts], concealed: &Counts, win: bool) {
    let mut so_far = [0u8; mj::KINDS];
    let mut parts = Vec::new();
    for m in melds {
        let before = mj::notation(&so_far);
        for (x, y) in so_far.iter_mut().zip(m) {
            *x += y;
        }
        parts.push(format!(
            "(cards(\"{}\") - cards(\"{before}\"))",
            mj::notation(&so_far)
        ));
    }
    let melds_text = mj::notation(&so_far);
    for (x, y) in so_far.iter_mut().zip(concealed) {
        *x += y;
    }
    let not = if win { "" } else { "not " };
    let _ = writeln!(
        tests,
        "test \"{i} {} + {melds_text}\" {{\n  let h = cards(\"{}\") - cards(\"{melds_text}\")\n  \
         expect {not}和了形(h, [{}])\n  expect {not}一般形(h, [{}])\n}}",
        mj::notation(concealed),
        mj::notation(&so_far),
        parts.join(", "),
        parts.join(", "),
    );
}
