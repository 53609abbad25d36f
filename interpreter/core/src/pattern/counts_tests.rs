//! Whether a hand splits into a pattern, decided by counts (`by_counts::matches`),
//! against the search: on built winning hands, near ones and random ones.

use super::tests::{hand, hands, pattern_named, program, splits, with_cx, MAHJONG_PATTERNS};
use crate::model::{CardSet, GameRng};

/// A winning hand of pair + four melds (`四連形`: a triplet and three groups of four) in
/// tile notation, drawn at random, each tile at most four times; and its groups.
fn built_hand(rng: &mut GameRng, fours: bool) -> (Vec<String>, Vec<String>) {
    let (head, size, melds) = if fours { (3, 4, 3) } else { (2, 3, 4) };
    loop {
        let mut groups: Vec<String> = Vec::new();
        let suits = ["m", "p", "s", "z"];
        let face = |rng: &mut GameRng| {
            let s = suits[rng.below(4) as usize];
            let n = 1 + rng.below(if s == "z" { 7 } else { 9 });
            (n, s)
        };
        let (n, s) = face(rng);
        groups.push(format!("{}{s}", n.to_string().repeat(head)));
        for _ in 0..melds {
            let (n, s) = face(rng);
            if s != "z" && n + size as u32 - 1 <= 9 && rng.below(2) == 0 {
                let run: String = (n..n + size as u32).map(|k| k.to_string()).collect();
                groups.push(format!("{run}{s}"));
            } else {
                groups.push(format!("{}{s}", n.to_string().repeat(size)));
            }
        }
        let mut counts = std::collections::HashMap::new();
        for g in &groups {
            let s = &g[g.len() - 1..];
            for d in g[..g.len() - 1].chars() {
                *counts.entry(format!("{d}{s}")).or_insert(0) += 1;
            }
        }
        if counts.values().all(|&c| c <= 4) {
            let tiles: Vec<String> = counts
                .iter()
                .flat_map(|(t, &c)| std::iter::repeat_n(t.clone(), c))
                .collect();
            return (tiles, groups);
        }
    }
}

/// Whether a hand splits into a pattern (with formed sets as whole groups) by the counts
/// (`by_counts::matches`, through `any_match`) must be what the search finds, on built
/// winning hands, on the same with one tile changed, and on random hands of one or two
/// suits; for the standard form, for groups of other sizes, and for alternatives.
#[test]
fn match_by_counts_is_the_searched_match() {
    let rules = format!("{MAHJONG_PATTERNS}\npattern 和了 = 一般形 | 七対子\n");
    let p = program(&rules);
    for name in ["一般形", "四連形"] {
        assert!(
            p.patterns[pattern_named(&p, name)].counts.is_some(),
            "{name}"
        );
    }
    for name in ["七対子", "赤頭", "和了"] {
        assert!(
            p.patterns[pattern_named(&p, name)].counts.is_none(),
            "{name}"
        );
    }
    // Hands of pairs, of one suit, of honours: pairs are no melds, honours no runs.
    for (text, wins) in [
        ("1122m3344p5566s77z", false),
        ("11223344556677m", true),
        ("11122233344455m", true),
        ("123z456z777z11m22m", false),
        ("111z222z333z44z555z", true),
    ] {
        let pat = &p.patterns[pattern_named(&p, "一般形")];
        let h: CardSet = p
            .deck
            .parse_cards(&[text])
            .expect("tiles")
            .into_iter()
            .collect();
        let searched = !splits(&p, pattern_named(&p, "一般形"), h, false).is_empty();
        let counted = with_cx(&p, |cx| super::any_match(cx, pat, h).expect("match"));
        assert_eq!((counted, searched), (wins, wins), "{text}");
    }
    let suit = p.deck.attr_named("suit").expect("suit");
    let suits = p.deck.classes(suit).to_vec();
    let all: Vec<u16> = (0..p.deck.len() as u16).collect();
    let mut rng = GameRng::new(41);
    let (mut wins, mut formed_wins) = (0, 0);
    for i in 0..hands(1200) {
        let fours = i % 4 == 3;
        let name = if fours {
            "四連形"
        } else if i % 2 == 0 {
            "一般形"
        } else {
            "和了"
        };
        let pat = pattern_named(&p, name);
        let pd = &p.patterns[pat];
        let (tiles, groups) = built_hand(&mut rng, fours);
        let refs: Vec<&str> = tiles.iter().map(|s| s.as_str()).collect();
        let mut h: CardSet = p
            .deck
            .parse_cards(&refs)
            .expect("tiles")
            .into_iter()
            .collect();
        match i % 3 {
            // As built: a win.
            0 => {}
            // One tile changed.
            1 => {
                let out = h
                    .iter()
                    .nth(rng.below(h.len() as u32) as usize)
                    .expect("a tile");
                let others: Vec<u16> = all.iter().copied().filter(|c| !h.contains(*c)).collect();
                h = h.minus(CardSet::single(out)).union(CardSet::single(
                    others[rng.below(others.len() as u32) as usize],
                ));
            }
            // Random, from one or two suits.
            _ => {
                let a = rng.below(suits.len() as u32) as usize;
                let b = rng.below(suits.len() as u32) as usize;
                let pool: Vec<u16> = suits[a].union(suits[b]).iter().collect();
                if pool.len() >= pd.size {
                    h = hand(&mut rng, &pool, pd.size);
                }
            }
        }
        let searched = !splits(&p, pat, h, false).is_empty();
        let counted = with_cx(&p, |cx| super::any_match(cx, pd, h).expect("match"));
        assert_eq!(counted, searched, "{name} {h:?}");
        wins += usize::from(searched);
        // The first meld laid out (formed), when the hand as built holds it.
        if i % 3 == 0 {
            let meld: CardSet = {
                let g = &groups[1];
                let s = &g[g.len() - 1..];
                let faces: Vec<String> = g[..g.len() - 1]
                    .chars()
                    .map(|d| format!("{d}{s}"))
                    .collect();
                let mut out = CardSet::EMPTY;
                for f in faces {
                    let c = p.deck.parse_cards(&[f.as_str()]).expect("tile")[0];
                    let face = p.deck.face_set(c);
                    let pick = face.inter(h).minus(out).iter().next().expect("held");
                    out = out.union(CardSet::single(pick));
                }
                out
            };
            let rest = h.minus(meld);
            let mut searched = false;
            with_cx(&p, |cx| {
                super::for_each_match_formed(cx, pd, rest, &[meld], &mut |_, _| {
                    searched = true;
                    Ok(false)
                })
                .expect("search")
            });
            let counted = with_cx(&p, |cx| {
                super::any_match_formed(cx, pd, rest, &[meld]).expect("match")
            });
            assert_eq!(counted, searched, "{name} {rest:?} + {meld:?}");
            formed_wins += usize::from(searched);
        }
    }
    assert!(
        wins > hands(300) && formed_wins > hands(300),
        "{wins} {formed_wins}"
    );
}
