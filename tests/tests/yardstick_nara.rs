//! The 奈良 hana-awase yardstick (`interpreter/core/benches/common/yardstick_nara.rs`, the
//! hand-written simulator the engine's hand rate is measured against) plays the game of
//! `rulesets/nara-hanaawase.fuda`: a faster program that played another game would make
//! the comparison worthless. Its settlement must equal the rule file's `清算` exactly on
//! the ends of its own hands and on built piles rich in ふけ and 出来役 (chips, outcome,
//! the results recorded); its matches, played by its random players, must agree with the
//! engine's matches with `random` agents within a few standard errors (ふけ hands, each
//! 出来役, decisions, the dealer's result, chips moved); and its chips must balance in
//! every match.

#[path = "../../interpreter/core/benches/common/yardstick_nara.rs"]
mod yardstick;

use fuda_tests::estimate::Est;
use fuda_tests::oracle::Rng;
use yardstick::{Settlement, Stats, Yardstick, FUKE_NAMES, PLAYERS, YAKU_NAMES};

use fuda_core::agents::{by_name, Agent};
use fuda_core::model::CardIx;
use fuda_core::play::{
    agent_seed, game_seed, play_game, settle, Described, PlayOptions, ZoneCards,
};
use fuda_core::Program;
use fuda_tests::bundled;

/// The outcome of a hand settled with a ふけ, and of one settled on card points.
const FUKE_OUTCOME: &str = "ふけ清算";
const POINTS_OUTCOME: &str = "点数清算";

/// The rule file, and the way from yardstick cards to engine cards.
struct Engine {
    p: Program,
    /// Engine card index of each yardstick card (matched by id, not assumed).
    ix: [CardIx; yardstick::CARDS],
}

impl Engine {
    fn new() -> Engine {
        let p = bundled::compile(
            "nara-hanaawase.fuda",
            include_str!("../../rulesets/nara-hanaawase.fuda"),
        );
        let ix = bundled::card_indices(&p, &yardstick::IDS);
        Engine { p, ix }
    }

    /// The rule file's `清算` on four capture piles: chips moved, outcomes, and the
    /// names recorded for each seat (sorted).
    fn settle(&self, piles: &[u64; PLAYERS]) -> (Vec<i64>, Vec<String>, Vec<Vec<String>>) {
        let zones: Vec<ZoneCards> = piles
            .iter()
            .enumerate()
            .map(|(s, &m)| ZoneCards {
                zone: "取り札".into(),
                seat: Some(s as u8),
                cards: (0..yardstick::CARDS)
                    .filter(|c| m >> c & 1 != 0)
                    .map(|c| self.ix[c])
                    .collect(),
            })
            .collect();
        let d = Described {
            zones,
            ..Described::proc("清算")
        };
        let s = settle(&self.p, &[], &d)
            .unwrap_or_else(|err| panic!("清算 fails on {}: {err:?}", show(piles)));
        let mut names = vec![Vec::new(); PLAYERS];
        for (seat, r) in &s.records {
            names[*seat as usize].extend(r.yaku.iter().map(|y| y.name.to_string()));
        }
        for n in &mut names {
            n.sort();
        }
        let outcomes = s.outcomes.iter().map(|o| o.to_string()).collect();
        (s.chips, outcomes, names)
    }
}

fn show(piles: &[u64; PLAYERS]) -> String {
    let v: Vec<String> = piles
        .iter()
        .map(|&m| {
            let ids: Vec<&str> = (0..yardstick::CARDS)
                .filter(|c| m >> c & 1 != 0)
                .map(|c| yardstick::IDS[c])
                .collect();
            format!("[{}]", ids.join(" "))
        })
        .collect();
    format!("取り札 {}", v.join(" "))
}

/// Compares the yardstick's settlement of `piles` with the rule file's; a difference
/// is described in `bad`.
fn compare(engine: &Engine, piles: &[u64; PLAYERS], bad: &mut Vec<String>) -> Settlement {
    let s = yardstick::settle(piles);
    let (chips, outcomes, names) = engine.settle(piles);
    let want_outcomes = vec![if s.any_fuke {
        FUKE_OUTCOME
    } else {
        POINTS_OUTCOME
    }
    .to_string()];
    let mine: Vec<Vec<String>> = (0..PLAYERS)
        .map(|x| {
            let mut v: Vec<String> = (0..7)
                .filter(|k| s.yaku[x] >> k & 1 != 0)
                .map(|k| YAKU_NAMES[k].to_string())
                .collect();
            if s.fuke[x] != 0 {
                v.push(FUKE_NAMES[s.fuke[x] as usize - 1].to_string());
            }
            v.sort();
            v
        })
        .collect();
    if chips != s.chips || outcomes != want_outcomes || names != mine {
        bad.push(format!(
            "{}\n    rule file: chips {chips:?}, {outcomes:?}, {names:?}\n    yardstick: chips {:?}, {want_outcomes:?}, {mine:?}",
            show(piles),
            s.chips
        ));
    }
    s
}

/// Four piles holding all 49 cards, built to reach what play reaches rarely: 出来役 sets
/// given whole to a seat (several to one seat, 月見て一杯 with and without the rain man),
/// and a poor seat with no point card or one 20 alone (ふけ, 二十ふけ, two at once), or
/// one 30 alone, or 鬼 alone (no ふけ).
fn built(rng: &mut Rng) -> [u64; PLAYERS] {
    let mut owner: Vec<usize> = (0..yardstick::CARDS).map(|_| rng.below(PLAYERS)).collect();
    let sets: [&[usize]; 7] = [
        &[0, 4, 8],
        &[1, 5, 9],
        &[20, 24, 36],
        &[21, 33, 37],
        &[28, 32],
        &[12, 13, 14, 15],
        &[44, 45, 46, 47],
    ];
    let aimed = rng.below(PLAYERS);
    for set in sets {
        if rng.chance(3) {
            let to = if rng.chance(2) {
                aimed
            } else {
                rng.below(PLAYERS)
            };
            for &c in set {
                owner[c] = to;
            }
        }
    }
    if rng.chance(3) {
        owner[40] = owner[28];
    }
    // Poor seats (one, or two at once): every point card they were given goes to a
    // seat that is not poor, but perhaps one kept.
    let first = rng.below(PLAYERS);
    let second = (first + 1 + rng.below(PLAYERS - 1)) % PLAYERS;
    let poor = if rng.chance(3) {
        vec![first, second]
    } else {
        vec![first]
    };
    let rich: Vec<usize> = (0..PLAYERS).filter(|s| !poor.contains(s)).collect();
    for &seat in &poor {
        let keep = match rng.below(4) {
            0 => None,
            1 => Some([1, 5, 29, 47, 42][rng.below(5)]),
            2 => Some(4 * rng.below(12)),
            _ => Some(48),
        };
        for (c, o) in owner.iter_mut().enumerate() {
            if yardstick::POINT >> c & 1 != 0 && (*o == seat || Some(c) == keep) {
                *o = if Some(c) == keep {
                    seat
                } else {
                    rich[rng.below(rich.len())]
                };
            }
        }
    }
    let mut piles = [0u64; PLAYERS];
    for (c, &o) in owner.iter().enumerate() {
        piles[o] |= 1 << c;
    }
    piles
}

#[test]
fn settlement_agrees_with_the_rule_file() {
    let engine = Engine::new();
    let mut bad = Vec::new();
    let (mut yaku, mut fuke, mut fuke_hands, mut two_fuke) = ([0u64; 7], [0u64; 2], 0, 0);
    let mut tally = |s: &Settlement| {
        for x in 0..PLAYERS {
            for (k, n) in yaku.iter_mut().enumerate() {
                *n += (s.yaku[x] >> k & 1) as u64;
            }
            if s.fuke[x] != 0 {
                fuke[s.fuke[x] as usize - 1] += 1;
            }
        }
        fuke_hands += s.any_fuke as u64;
        two_fuke += (s.fuke.iter().filter(|&&f| f != 0).count() >= 2) as u64;
    };
    // The ends of the yardstick's own hands.
    let mut y = Yardstick::new(0x4E41_5241);
    let mut st = Stats::default();
    for h in 0..2_000 {
        let piles = y.play_hand(h % PLAYERS, &mut st);
        assert_eq!(
            piles.iter().fold(0u64, |a, p| {
                assert_eq!(a & p, 0, "hand {h}: a card in two piles");
                a | p
            }),
            (1 << yardstick::CARDS) - 1,
            "hand {h}: every card ends in a capture pile"
        );
        let s = compare(&engine, &piles, &mut bad);
        tally(&s);
        if bad.len() >= 5 {
            break;
        }
    }
    // Built piles, for the rare results.
    let mut rng = Rng(0x0B1D_9113);
    for _ in 0..2_000 {
        if bad.len() >= 5 {
            break;
        }
        let piles = built(&mut rng);
        let s = compare(&engine, &piles, &mut bad);
        tally(&s);
    }
    assert!(
        bad.is_empty(),
        "the yardstick settles differently from the rule file:\n{}",
        bad.join("\n")
    );
    for (k, n) in yaku.iter().enumerate() {
        assert!(*n >= 50, "{} paid only {n} times: {yaku:?}", YAKU_NAMES[k]);
    }
    for (k, n) in fuke.iter().enumerate() {
        assert!(*n >= 50, "{} paid only {n} times: {fuke:?}", FUKE_NAMES[k]);
    }
    assert!(
        fuke_hands >= 200 && two_fuke >= 20,
        "ふけ hands {fuke_hands}, with two ふけ {two_fuke}"
    );
}

/// Standard errors of a difference beyond which the two games are called different:
/// with the dozen or so comparisons below, chance alone would trip it about once in
/// 10^4 runs (and the seeds are fixed).
const Z: f64 = 4.5;

/// Matches each side plays: the engine's dominate the test's time in a debug build.
const ENGINE_GAMES: u64 = if cfg!(debug_assertions) { 600 } else { 3_000 };
const YARD_MATCHES: u64 = 20_000;

#[test]
fn plays_the_same_game_as_the_engine() {
    let engine = Engine::new();
    let p = &engine.p;
    let hands_per_game = yardstick::HANDS as usize;
    // The engine, with `random` agents as in the benchmark.
    let (mut fuke_hands, mut hands) = (0u64, 0u64);
    let (mut yaku, mut fuke, mut records) = ([0u64; 7], [0u64; 2], 0u64);
    let (mut dealer_chips, mut moved) = (vec![], vec![]);
    let (mut decisions, mut top_chips) = (vec![], vec![]);
    for g in 0..ENGINE_GAMES {
        let seed = game_seed(0x4A4A, g);
        let mut agents: Vec<Box<dyn Agent>> = (0..PLAYERS)
            .map(|s| by_name("random", agent_seed(seed, s)).expect("random"))
            .collect();
        let r = play_game(p, &[], seed, &mut agents, &PlayOptions::default()).expect("a game");
        assert_eq!(r.outcomes.len(), hands_per_game, "game {g}: hands");
        assert_eq!(r.chips.iter().sum::<i64>(), 0, "game {g}: chips balance");
        hands += r.outcomes.len() as u64;
        for o in &r.outcomes {
            match &**o {
                FUKE_OUTCOME => fuke_hands += 1,
                POINTS_OUTCOME => {}
                other => panic!("game {g}: unknown outcome {other}"),
            }
        }
        for (_, res, _) in &r.records {
            records += 1;
            for line in res.yaku.iter() {
                if let Some(k) = YAKU_NAMES.iter().position(|n| **n == *line.name) {
                    yaku[k] += 1;
                } else if let Some(k) = FUKE_NAMES.iter().position(|n| **n == *line.name) {
                    fuke[k] += 1;
                } else {
                    panic!("game {g}: unknown result {}", line.name);
                }
            }
        }
        for (dealer, delta) in &r.deal_chips {
            dealer_chips.push(delta[*dealer as usize] as f64);
            moved.push(delta.iter().map(|d| d.max(&0)).sum::<i64>() as f64);
        }
        decisions.push(r.decisions as f64);
        top_chips.push(*r.chips.iter().max().expect("chips") as f64);
    }

    // The yardstick.
    let mut y = Yardstick::new(0x4A4A);
    let mut st = Stats::default();
    let (mut y_decisions, mut y_top) = (vec![], vec![]);
    for m in 0..YARD_MATCHES {
        let before = st.decisions;
        let chips = y.play_match(&mut st);
        assert_eq!(
            chips.iter().sum::<i64>(),
            0,
            "match {m}: the yardstick's chips do not balance: {chips:?}"
        );
        y_decisions.push((st.decisions - before) as f64);
        y_top.push(*chips.iter().max().expect("chips") as f64);
    }
    assert_eq!(st.hands, YARD_MATCHES * yardstick::HANDS as u64);

    let seat_hands = hands * PLAYERS as u64;
    let y_seat_hands = st.hands * PLAYERS as u64;
    let mut rows = vec![
        (
            "ふけ清算 per hand".to_string(),
            Est::share(fuke_hands, hands),
            Est::share(st.fuke_hands, st.hands),
        ),
        (
            "results recorded per hand".into(),
            Est::share(records, seat_hands),
            Est::share(st.records, y_seat_hands),
        ),
        (
            "decisions per match".into(),
            Est::of(&decisions),
            Est::of(&y_decisions),
        ),
    ];
    for (k, name) in FUKE_NAMES.iter().enumerate() {
        rows.push((
            format!("{name} per seat-hand"),
            Est::share(fuke[k], seat_hands),
            Est::share(st.fuke[k], y_seat_hands),
        ));
    }
    for (k, name) in YAKU_NAMES.iter().enumerate() {
        rows.push((
            format!("{name} per seat-hand"),
            Est::share(yaku[k], seat_hands),
            Est::share(st.yaku[k], y_seat_hands),
        ));
    }
    rows.push((
        "dealer's result per hand".into(),
        Est::of(&dealer_chips),
        Est::sums(st.dealer_chips as f64, st.dealer_chips_sq as f64, st.hands),
    ));
    rows.push((
        "chips moved per hand".into(),
        Est::of(&moved),
        Est::sums(st.moved as f64, st.moved_sq as f64, st.hands),
    ));
    rows.push((
        "leader's chips".into(),
        Est::of(&top_chips),
        Est::of(&y_top),
    ));
    let mut report = format!(
        "engine: {ENGINE_GAMES} games, {hands} hands; yardstick: {YARD_MATCHES} matches, {} hands ({} deals: {} 四たれ, {} asked; {} 浮く, {} 鬼 on the field)\n",
        st.hands, st.deals, st.yotare, st.asked_redeals, st.uki, st.oni_on_field
    );
    let mut bad = false;
    for (what, a, b) in &rows {
        let se = (a.var / a.n + b.var / b.n).sqrt();
        let z = (a.mean - b.mean).abs() / se;
        bad |= z.is_nan() || z > Z;
        report += &format!(
            "  {what:<26} engine {:>9.4}  yardstick {:>9.4}  ({:.1} SE)\n",
            a.mean, b.mean, z
        );
    }
    eprintln!("{report}");
    assert!(
        !bad,
        "the yardstick plays another game (beyond {Z} standard errors):\n{report}"
    );
}
