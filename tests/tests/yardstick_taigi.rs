//! The 対戯 yardstick (`interpreter/core/benches/common/yardstick_taigi.rs`, the
//! hand-written simulator the engine's deal rate is measured against) plays the game of
//! `rulesets/taigi.fuda`: a faster program that played another game would make the
//! comparison worthless. Its win check must give the rule file's `和了点` exactly (whether
//! a hand wins, with and without called melds, and the form it is recorded under); its
//! redeal rule (九種九牌, 天聴) must agree with the counting oracle of `tests/mahjong.rs`
//! (itself checked against the rule files' patterns); and its deals, played by its random
//! players, must agree with the engine's with `random` agents within a few standard
//! errors (outcome shares, forms, redeals, decisions a deal, the matches' ends).

#[path = "../../interpreter/core/benches/common/yardstick_taigi.rs"]
mod yardstick;

use fuda_tests::mahjong::{self as mj, Counts};
use fuda_tests::oracle::Rng;
use yardstick::{Stats, Yardstick, FACES, PLAYERS};

use fuda_core::agents::{by_name, Agent};
use fuda_core::model::{CardIx, CardSet};
use fuda_core::play::{agent_seed, game_seed, play_game, PlayOptions};
use fuda_core::score::score_with;
use fuda_core::value::Value;
use fuda_core::Program;
use fuda_tests::bundled;

/// The rule file, its `和了点` table, and the engine's four cards of each face.
struct Engine {
    p: Program,
    table: u16,
    copies: Vec<Vec<CardIx>>,
}

impl Engine {
    fn new() -> Engine {
        let p = bundled::compile("taigi.fuda", include_str!("../../rulesets/taigi.fuda"));
        let table = p
            .score_named("和了点")
            .expect("taigi.fuda has a table 和了点");
        let copies: Vec<Vec<CardIx>> = yardstick::IDS
            .iter()
            .map(|id| {
                let v: Vec<CardIx> = (0..p.deck.len())
                    .filter(|&c| p.deck.ids[c] == *id)
                    .map(|c| c as CardIx)
                    .collect();
                assert_eq!(v.len(), 4, "the engine's deck has {} of `{id}`", v.len());
                v
            })
            .collect();
        Engine { p, table, copies }
    }

    /// `c` as engine cards, the copies of each face taken after those `used` holds.
    fn cards(&self, c: &Counts, used: &mut Counts) -> CardSet {
        let mut set = CardSet::EMPTY;
        for f in 0..FACES {
            for _ in 0..c[f] {
                set.insert(self.copies[f][used[f] as usize]);
                used[f] += 1;
            }
        }
        set
    }

    /// The rule file's `和了点` on a hand beside called melds: the form's name, or `None`
    /// when the hand does not win.
    fn form(&self, hand: &Counts, melds: &[Counts]) -> Option<String> {
        let mut used = [0u8; FACES];
        let h = self.cards(hand, &mut used);
        let list: Vec<Value> = melds
            .iter()
            .map(|m| Value::Cards(self.cards(m, &mut used)))
            .collect();
        let r = score_with(
            &self.p,
            self.table,
            vec![Some(Value::Cards(h)), Some(Value::List(list.into()))],
        )
        .unwrap_or_else(|e| panic!("和了点 fails on {}: {e}", mj::notation(hand)));
        (r.total > 0).then(|| r.name.to_string())
    }
}

/// Whether `c` plus `melds` uses no face more than four times.
fn fits(c: &Counts, melds: &[Counts]) -> bool {
    (0..FACES).all(|f| c[f] as usize + melds.iter().map(|m| m[f] as usize).sum::<usize>() <= 4)
}

/// A hand beside `calls` called melds: winning (built as a pair and the melds missing,
/// or a whole winning form without calls), one tile off a win, or random.
fn hand_with_calls(rng: &mut Rng, calls: usize) -> (Counts, Vec<Counts>) {
    loop {
        let mut taken = [0u8; FACES];
        let melds: Vec<Counts> = (0..calls)
            .map(|_| mj::random_meld(rng, &mut taken))
            .collect();
        let rest = 14 - 3 * calls;
        let hand = match rng.below(4) {
            0 => mj::random_tiles(rng, &taken, rest),
            _ if calls == 0 => match rng.below(5) {
                0 => mj::seven_pairs_win(rng),
                1 => mj::thirteen_orphans_win(rng),
                2 => mj::one_suit_hand(rng, 14),
                _ => mj::standard_win(rng),
            },
            k => {
                let mut t = taken;
                let mut c = [0u8; FACES];
                let pair = rng.below(FACES);
                c[pair] = 2;
                t[pair] += 2;
                for _ in 0..(4 - calls) {
                    let m = mj::random_meld(rng, &mut t);
                    for (x, y) in c.iter_mut().zip(&m) {
                        *x += y;
                    }
                }
                if k == 1 {
                    mj::one_swapped(rng, &c)
                } else {
                    c
                }
            }
        };
        if mj::size(&hand) == rest && fits(&hand, &melds) {
            return (hand, melds);
        }
    }
}

#[test]
fn wins_agree_with_the_rule_file() {
    let e = Engine::new();
    let mut rng = Rng(0x7A16_0001);
    let mut bad = Vec::new();
    let mut seen = std::collections::BTreeMap::new();
    for i in 0..4_000 {
        let calls = [0, 0, 0, 1, 2, 3, 4][rng.below(7)];
        let (hand, melds) = hand_with_calls(&mut rng, calls);
        let want = e.form(&hand, &melds);
        let got = yardstick::wins(&hand, calls).map(|f| f.name().to_string());
        if want != got && bad.len() < 5 {
            let m: Vec<String> = melds.iter().map(mj::notation).collect();
            bad.push(format!(
                "hand {i}: {} beside {m:?}: rule file {want:?}, yardstick {got:?}",
                mj::notation(&hand)
            ));
        }
        *seen
            .entry(want.unwrap_or_else(|| "none".into()))
            .or_insert(0) += 1;
    }
    assert!(
        bad.is_empty(),
        "the yardstick's wins differ from the rule file's:\n{}",
        bad.join("\n")
    );
    for name in ["門前和了", "副露和了", "七対子", "国士無双", "none"] {
        assert!(
            seen.get(name).copied().unwrap_or(0) >= 100,
            "few hands of {name}: {seen:?}"
        );
    }
}

/// Hands both seven pairs and a pair with four melds: recorded under one form.
#[test]
fn a_hand_of_two_forms_is_recorded_as_the_rule_file_records_it() {
    let e = Engine::new();
    for text in [
        "1122m3344p5566s77z",
        "112233m445566p77s",
        "11223344m556677p",
    ] {
        let mut c = [0u8; FACES];
        let mut digits = Vec::new();
        for ch in text.chars() {
            match ch {
                '1'..='9' => digits.push(ch as usize - '1' as usize),
                _ => {
                    let base = 9 * "mpsz".find(ch).expect("a suit");
                    for d in digits.drain(..) {
                        c[base + d] += 1;
                    }
                }
            }
        }
        let want = e.form(&c, &[]);
        let got = yardstick::wins(&c, 0).map(|f| f.name().to_string());
        assert_eq!(got, want, "{text}");
    }
}

/// The redeal rule on 13-tile hands: random ones, and ones a tile from each form.
#[test]
fn the_redeal_rule_agrees_with_the_counting_oracle() {
    fn any_form(c: &Counts) -> bool {
        mj::standard(c) || mj::seven_pairs(c) || mj::thirteen_orphans(c)
    }
    let mut rng = Rng(0x7A16_0002);
    let (mut ready, mut nine) = (0, 0);
    for i in 0..6_000 {
        let whole = match i % 4 {
            0 => mj::random_hand(&mut rng, 14),
            1 => mj::standard_win(&mut rng),
            2 => mj::seven_pairs_win(&mut rng),
            _ => mj::thirteen_orphans_win(&mut rng),
        };
        let c = mj::without_one(&mut rng, &whole);
        let want_ready = !mj::waits(&c, any_form).is_empty();
        let kinds = (0..mj::KINDS)
            .filter(|&k| mj::terminal_or_honour(k) && c[k] > 0)
            .count();
        let want_nine = kinds >= 9;
        assert_eq!(
            yardstick::ready(&c),
            want_ready,
            "{}: 天聴",
            mj::notation(&c)
        );
        assert_eq!(
            yardstick::nine_orphans(&c),
            want_nine,
            "{}: 九種九牌",
            mj::notation(&c)
        );
        ready += usize::from(want_ready);
        nine += usize::from(want_nine);
    }
    assert!(ready > 2_000 && nine > 1_000, "ready {ready}, nine {nine}");
}

/// Standard errors of a difference beyond which the two games are called different.
const Z: f64 = 4.5;

/// Games the engine plays (slow for this game, above all in a debug build) and matches
/// the yardstick plays. Both play to 1 point, back to 0 when both win at once, so that a
/// game is a dozen deals or so: a deal's statistics do not depend on the target.
const ENGINE_GAMES: u64 = if cfg!(debug_assertions) { 4 } else { 400 };
const YARD_MATCHES: u64 = if cfg!(debug_assertions) {
    1_000
} else {
    20_000
};
const TARGET: u32 = 1;
const BACK: u32 = 0;

/// One comparison: the engine's mean over `n` units, and the yardstick's over its many.
/// Both are held to the yardstick's variance of a unit (the two games being the same is
/// what is tested), so that the engine's few units in a debug build need no variance of
/// their own.
struct Row {
    what: String,
    engine: f64,
    n: f64,
    yard: f64,
    var: f64,
    yard_n: f64,
}

impl Row {
    /// A share: `k` in `n` against `yk` in `yn`.
    fn share(what: &str, k: u64, n: u64, yk: u64, yn: u64) -> Row {
        let p = yk as f64 / yn as f64;
        Row {
            what: what.into(),
            engine: k as f64 / n as f64,
            n: n as f64,
            yard: p,
            var: p * (1.0 - p),
            yard_n: yn as f64,
        }
    }

    /// A mean: `sum` over `n` against the yardstick's sums of values and squares.
    fn mean(what: &str, sum: f64, n: u64, ysum: f64, ysq: f64, yn: u64) -> Row {
        let m = ysum / yn as f64;
        Row {
            what: what.into(),
            engine: sum / n as f64,
            n: n as f64,
            yard: m,
            var: (ysq - yn as f64 * m * m) / (yn as f64 - 1.0),
            yard_n: yn as f64,
        }
    }

    /// How many standard errors apart; 0 when both agree exactly with no variance.
    fn z(&self) -> f64 {
        let se = (self.var * (1.0 / self.n + 1.0 / self.yard_n)).sqrt();
        let d = (self.engine - self.yard).abs();
        if d == 0.0 {
            0.0
        } else {
            d / se
        }
    }
}

#[test]
fn plays_the_same_game_as_the_engine() {
    let e = Engine::new();
    let p = &e.p;
    let mut params: Vec<Option<Value>> = vec![None; p.params.len()];
    for (i, d) in p.params.iter().enumerate() {
        match d.name.as_str() {
            "目標" => params[i] = Some(Value::Int(TARGET as i64)),
            "戻り" => params[i] = Some(Value::Int(BACK as i64)),
            other => panic!("an unknown parameter {other}"),
        }
    }
    let labels = ["ツモ和了", "ロン和了", "両者和了", "荒牌"];
    let names = ["門前和了", "副露和了", "七対子", "国士無双"];
    let (mut outcomes, mut forms, mut redeals, mut deals) = ([0u64; 4], [0u64; 4], 0u64, 0u64);
    let (mut decisions, mut east) = (0u64, 0u64);
    for g in 0..ENGINE_GAMES {
        let seed = game_seed(0x7A16, g);
        let mut agents: Vec<Box<dyn Agent>> = (0..PLAYERS)
            .map(|s| by_name("random", agent_seed(seed, s)).expect("random"))
            .collect();
        let r = play_game(p, &params, seed, &mut agents, &PlayOptions::default())
            .unwrap_or_else(|err| panic!("game {g}: {err:?}"));
        deals += r.outcomes.len() as u64;
        for o in &r.outcomes {
            let k = labels
                .iter()
                .position(|l| **o == **l)
                .unwrap_or_else(|| panic!("game {g}: unknown outcome {o}"));
            outcomes[k] += 1;
        }
        for (_, res, _) in &r.records {
            let k = names
                .iter()
                .position(|n| *res.name == **n)
                .unwrap_or_else(|| panic!("game {g}: unknown form {}", res.name));
            forms[k] += 1;
        }
        for (label, v) in &r.tallies {
            match &**label {
                "配り直し" => redeals += 1,
                "勝者" => east += u64::from(v == "東"),
                "点差" | "同時到達" => {}
                other => panic!("game {g}: an unknown tally {other}"),
            }
        }
        decisions += r.decisions;
    }
    let wins: u64 = forms.iter().sum();

    // The yardstick.
    let mut y = Yardstick::new(0x7A16);
    y.target = TARGET;
    y.back = BACK;
    let mut st = Stats::default();
    for _ in 0..YARD_MATCHES {
        y.play_match(&mut st);
    }
    let y_wins: u64 = st.forms.iter().sum();

    let mut rows = Vec::new();
    for (k, label) in labels.iter().enumerate() {
        rows.push(Row::share(
            &format!("{label} per deal"),
            outcomes[k],
            deals,
            st.outcomes[k],
            st.deals,
        ));
    }
    rows.push(Row::share(
        "副露和了 per win",
        forms[1],
        wins,
        st.forms[1],
        y_wins,
    ));
    rows.push(Row::share(
        "redeals per dealing",
        redeals,
        redeals + deals,
        st.redeals,
        st.redeals + st.deals,
    ));
    rows.push(Row::mean(
        "decisions per deal",
        decisions as f64,
        deals,
        st.decisions as f64,
        st.decisions_sq as f64,
        st.deals,
    ));
    rows.push(Row::mean(
        "deals per match",
        deals as f64,
        ENGINE_GAMES,
        st.deals as f64,
        st.match_deals_sq as f64,
        st.matches,
    ));
    rows.push(Row::share(
        "東 wins the match",
        east,
        ENGINE_GAMES,
        st.east_wins,
        st.matches,
    ));
    let mut report = format!(
        "engine: {ENGINE_GAMES} games, {deals} deals, {wins} wins; yardstick: {YARD_MATCHES} matches, {} deals, {y_wins} wins, {} cycles, {} calls\n",
        st.deals, st.cycles, st.calls
    );
    let mut bad = false;
    for r in &rows {
        let z = r.z();
        bad |= z.is_nan() || z > Z;
        report += &format!(
            "  {:<26} engine {:>9.4}  yardstick {:>9.4}  ({z:.1} SE)\n",
            r.what, r.engine, r.yard
        );
    }
    eprintln!("{report}");
    assert!(
        !bad,
        "the yardstick plays another game (beyond {Z} standard errors):\n{report}"
    );
}
