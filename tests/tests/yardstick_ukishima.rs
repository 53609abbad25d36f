//! The 浮島 yardstick (`interpreter/core/benches/common/yardstick_ukishima.rs`, the
//! hand-written simulator the engine's round rate is measured against) plays the game of
//! `rulesets/ukishima.fuda`: a faster program that played another game would make the
//! comparison worthless. Its settlement must equal the rule file's `清算` exactly on the
//! ends of its own rounds and on built ends rich in 役 (chips, next dealer, outcome, the
//! 役 recorded); its matches, played by its random players, must agree with the engine's
//! matches with `random` agents within a few standard errors (who is 浮き持, the floating
//! number, decisions, 役, the dealer's result, chips moved, who deals next); and its
//! chips must balance in every match.

#[path = "../../interpreter/core/benches/common/yardstick_ukishima.rs"]
mod yardstick;

use fuda_tests::estimate::Est;
use fuda_tests::oracle::Rng;
use yardstick::{End, Settlement, Stats, Yardstick, PLAYERS, YAKU_NAMES};

use fuda_core::agents::{by_name, Agent};
use fuda_core::model::CardIx;
use fuda_core::play::{
    agent_seed, game_seed, play_game, settle, Described, PlayOptions, ZoneCards,
};
use fuda_core::Program;
use fuda_tests::bundled;

/// The rule file, and the way from yardstick cards to engine cards.
struct Engine {
    p: Program,
    /// Engine card index of each yardstick card (matched by id, not assumed).
    ix: [CardIx; yardstick::CARDS],
}

impl Engine {
    fn new() -> Engine {
        let p = bundled::compile(
            "ukishima.fuda",
            include_str!("../../rulesets/ukishima.fuda"),
        );
        let ix = bundled::card_indices(&p, &yardstick::IDS);
        Engine { p, ix }
    }

    fn cards(&self, mask: u64) -> Vec<CardIx> {
        (0..yardstick::CARDS)
            .filter(|c| mask >> c & 1 != 0)
            .map(|c| self.ix[c])
            .collect()
    }

    /// The rule file's `清算` on an end of round: chips moved, next dealer, outcomes,
    /// and the 役 recorded for each seat (sorted names).
    fn settle(&self, e: &End) -> (Vec<i64>, usize, Vec<String>, Vec<Vec<String>>) {
        let mut zones: Vec<ZoneCards> = e
            .piles
            .iter()
            .enumerate()
            .map(|(s, &m)| ZoneCards {
                zone: "取り札".into(),
                seat: Some(s as u8),
                cards: self.cards(m),
            })
            .collect();
        zones.push(ZoneCards {
            zone: "伏せ札".into(),
            seat: None,
            cards: self.cards(1 << e.fuse),
        });
        zones.push(ZoneCards {
            zone: "場".into(),
            seat: None,
            cards: self.cards(e.field),
        });
        let d = Described {
            dealer: e.dealer as u8,
            zones,
            ..Described::proc("清算")
        };
        let s = settle(&self.p, &[], &d)
            .unwrap_or_else(|err| panic!("清算 fails on {}: {err:?}", show(e)));
        let mut yaku = vec![Vec::new(); PLAYERS];
        for (seat, r) in &s.records {
            yaku[*seat as usize].extend(r.yaku.iter().map(|y| y.name.to_string()));
        }
        for y in &mut yaku {
            y.sort();
        }
        let outcomes = s.outcomes.iter().map(|o| o.to_string()).collect();
        (s.chips, s.dealer as usize, outcomes, yaku)
    }
}

fn ids(mask: u64) -> String {
    let v: Vec<&str> = (0..yardstick::CARDS)
        .filter(|c| mask >> c & 1 != 0)
        .map(|c| yardstick::IDS[c])
        .collect();
    v.join(" ")
}

fn show(e: &End) -> String {
    let piles: Vec<String> = e.piles.iter().map(|&m| format!("[{}]", ids(m))).collect();
    format!(
        "dealer {}, 取り札 {}, 伏せ札 {}, 場 [{}]",
        e.dealer,
        piles.join(" "),
        yardstick::IDS[e.fuse],
        ids(e.field)
    )
}

/// The roles from the dealer on, as the outcome names the 浮き持.
const ROLES: [&str; PLAYERS] = ["親", "胴二", "ビキ"];

/// Compares the yardstick's settlement of `e` with the rule file's; a difference is
/// described in `bad`.
fn compare(engine: &Engine, e: &End, bad: &mut Vec<String>) -> Settlement {
    let s = yardstick::settle(&e.piles, e.fuse, e.dealer);
    let (chips, dealer, outcomes, yaku) = engine.settle(e);
    let role = ROLES[(s.ukimochi + PLAYERS - e.dealer) % PLAYERS];
    let want_outcomes = vec![format!("{role}が浮き持")];
    let mine: Vec<Vec<String>> = s
        .yaku
        .iter()
        .map(|&y| {
            let mut v: Vec<String> = (0..6)
                .filter(|k| y >> k & 1 != 0)
                .map(|k| YAKU_NAMES[k].to_string())
                .collect();
            v.sort();
            v
        })
        .collect();
    if chips != s.chips || dealer != s.next_dealer || outcomes != want_outcomes || yaku != mine {
        bad.push(format!(
            "{}\n    rule file: chips {chips:?}, next dealer {dealer}, {outcomes:?}, 役 {yaku:?}\n    yardstick: chips {:?}, next dealer {}, {want_outcomes:?}, 役 {mine:?}",
            show(e),
            s.chips,
            s.next_dealer
        ));
    }
    s
}

/// A legal end of round built to reach what play reaches rarely: every number but the
/// floating one split into two captured pairs, the floating number's 伏せ札 and last field
/// card set apart and its pair with the 浮き持; biased toward a seat aiming at 五双 or
/// 赤ダマ, two seats splitting 1–5 (two 五双), numbers captured whole (シマ, voids), and the
/// aimed seat as 浮き持 (the floating pair's voids).
fn built(rng: &mut Rng) -> End {
    let a = rng.below(PLAYERS);
    let b = (a + 1 + rng.below(PLAYERS - 1)) % PLAYERS;
    let two_goso = rng.chance(4);
    let goso = two_goso || rng.chance(2);
    let akadama = rng.chance(2);
    let whole = rng.below(3);
    let float = match rng.below(4) {
        _ if two_goso => 6 + rng.below(5),
        0 => 1 + rng.below(5),
        1 => [1, 4, 9][rng.below(3)],
        _ => 1 + rng.below(10),
    };
    let ukimochi = if rng.chance(2) { a } else { rng.below(PLAYERS) };
    let mut e = End {
        dealer: rng.below(PLAYERS),
        piles: [0; PLAYERS],
        fuse: 0,
        field: 0,
    };
    for k in 1..=10 {
        let mut cs: Vec<usize> = (0..4).map(|i| (k - 1) * 4 + i).collect();
        rng.shuffle(&mut cs);
        if k == float {
            e.fuse = cs[0];
            e.field = 1 << cs[1];
            e.piles[ukimochi] |= 1 << cs[2] | 1 << cs[3];
            continue;
        }
        let mut owner = [rng.below(PLAYERS), rng.below(PLAYERS)];
        if whole > 0 && rng.chance(2 + whole) {
            owner[1] = owner[0];
        }
        if goso && k <= 5 {
            owner[0] = a;
            if two_goso {
                owner[1] = b;
            }
        }
        if akadama && [1, 4, 9].contains(&k) {
            // The pair holding 赤ピン (玉四) goes to the aimed seat.
            let special = [yardstick::AKAPIN, yardstick::GYOKUSHI];
            let first = !(k != 9 && cs[2..].iter().any(|c| special.contains(c)));
            owner[if first { 0 } else { 1 }] = a;
        }
        e.piles[owner[0]] |= 1 << cs[0] | 1 << cs[1];
        e.piles[owner[1]] |= 1 << cs[2] | 1 << cs[3];
    }
    e
}

/// Whether `pile` holds a pair of each of 1–5 besides the floating number's cards.
fn goso_shape(pile: u64, fuse: usize) -> bool {
    let real = pile & !(0xF << (fuse & !3));
    (0..5).all(|n| (real >> (4 * n) & 0xF).count_ones() >= 2)
}

#[test]
fn settlement_agrees_with_the_rule_file() {
    let engine = Engine::new();
    let mut bad = Vec::new();
    let mut yaku = [0u64; 6];
    let (mut two_goso, mut ties) = (0, 0);
    let mut tally = |s: &Settlement, e: &End| {
        for y in s.yaku {
            for (k, n) in yaku.iter_mut().enumerate() {
                *n += (y >> k & 1) as u64;
            }
        }
        let goso_shapes = e.piles.iter().filter(|&&p| goso_shape(p, e.fuse)).count();
        two_goso += (goso_shapes >= 2) as u64;
        let best = *s.chips.iter().max().expect("chips");
        ties += (s.chips.iter().filter(|&&c| c == best).count() > 1) as u64;
    };
    // The ends of the yardstick's own rounds, with every dealer.
    let mut y = Yardstick::new(0x0B15_A11D);
    let mut st = Stats::default();
    for r in 0..3_000 {
        let e = y.play_round(r % PLAYERS, &mut st);
        assert_eq!(
            e.piles.iter().map(|p| p.count_ones()).sum::<u32>() + e.field.count_ones() + 1,
            40,
            "round {r}: every card is captured but the 伏せ札 and the last field card"
        );
        let s = compare(&engine, &e, &mut bad);
        tally(&s, &e);
        if bad.len() >= 5 {
            break;
        }
    }
    // Built ends, for the rare 役 and voids.
    let mut rng = Rng(0x5E77_1E00);
    for _ in 0..3_000 {
        if bad.len() >= 5 {
            break;
        }
        let e = built(&mut rng);
        let s = compare(&engine, &e, &mut bad);
        tally(&s, &e);
    }
    assert!(
        bad.is_empty(),
        "the yardstick settles differently from the rule file:\n{}",
        bad.join("\n")
    );
    // Every 役 paid many times, two 五双 shapes at once, and ties for the next deal.
    for (k, n) in yaku.iter().enumerate() {
        assert!(*n >= 50, "{} paid only {n} times: {yaku:?}", YAKU_NAMES[k]);
    }
    assert!(two_goso >= 50, "two 五双 shapes only {two_goso} times");
    assert!(ties >= 20, "ties for the best result only {ties} times");
}

/// Standard errors of a difference beyond which the two games are called different:
/// with the dozen or so comparisons below, chance alone would trip it about once in
/// 10^4 runs (and the seeds are fixed).
const Z: f64 = 4.5;

/// Matches each side plays: the engine's dominate the test's time in a debug build.
const ENGINE_GAMES: u64 = if cfg!(debug_assertions) { 1_500 } else { 6_000 };
const YARD_MATCHES: u64 = 40_000;

#[test]
fn plays_the_same_game_as_the_engine() {
    let engine = Engine::new();
    let p = &engine.p;
    let rounds_per_game = yardstick::ROUNDS as usize;
    // The engine, with `random` agents as in the benchmark.
    let mut ukimochi = [0u64; PLAYERS];
    let (mut float_sum, mut float_sq) = (0f64, 0f64);
    let mut yaku = [0u64; 6];
    let mut paid = 0u64;
    let (mut dealer_chips, mut moved) = (vec![], vec![]);
    let (mut kept, mut followed) = (0u64, 0u64);
    let (mut decisions, mut top_chips, mut rounds) = (vec![], vec![], 0u64);
    for g in 0..ENGINE_GAMES {
        let seed = game_seed(0x0B15, g);
        let mut agents: Vec<Box<dyn Agent>> = (0..PLAYERS)
            .map(|s| by_name("random", agent_seed(seed, s)).expect("random"))
            .collect();
        let r = play_game(p, &[], seed, &mut agents, &PlayOptions::default()).expect("a game");
        assert_eq!(r.outcomes.len(), rounds_per_game, "game {g}: rounds");
        assert_eq!(r.chips.iter().sum::<i64>(), 0, "game {g}: chips balance");
        rounds += r.outcomes.len() as u64;
        for o in &r.outcomes {
            let role = ROLES
                .iter()
                .position(|role| **o == *format!("{role}が浮き持"))
                .unwrap_or_else(|| panic!("game {g}: unknown outcome {o}"));
            ukimochi[role] += 1;
        }
        for (label, v) in &r.tallies {
            assert_eq!(&**label, "浮き札", "game {g}: an unknown tally");
            let n: f64 = v.parse().expect("a number");
            float_sum += n;
            float_sq += n * n;
        }
        for (_, res, _) in &r.records {
            paid += 1;
            for line in res.yaku.iter() {
                let k = YAKU_NAMES
                    .iter()
                    .position(|n| **n == *line.name)
                    .unwrap_or_else(|| panic!("game {g}: unknown 役 {}", line.name));
                yaku[k] += 1;
            }
        }
        for (dealer, delta) in &r.deal_chips {
            dealer_chips.push(delta[*dealer as usize] as f64);
            moved.push(delta.iter().map(|d| d.max(&0)).sum::<i64>() as f64);
        }
        for w in r.dealers.windows(2) {
            followed += 1;
            kept += (w[0] == w[1]) as u64;
        }
        decisions.push(r.decisions as f64);
        top_chips.push(*r.chips.iter().max().expect("chips") as f64);
    }

    // The yardstick.
    let mut y = Yardstick::new(0x0B15);
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
    assert_eq!(st.rounds, YARD_MATCHES * yardstick::ROUNDS as u64);
    let y_float: (f64, f64) = st
        .floats
        .iter()
        .enumerate()
        .fold((0.0, 0.0), |(s, q), (k, &n)| {
            let v = (k + 1) as f64;
            (s + v * n as f64, q + v * v * n as f64)
        });
    let y_paid_seats = st.paid;

    let mut rows = Vec::new();
    for (k, role) in ROLES.iter().enumerate() {
        rows.push((
            format!("{role}が浮き持 per round"),
            Est::share(ukimochi[k], rounds),
            Est::share(st.ukimochi[k], st.rounds),
        ));
    }
    rows.push((
        "floating number".into(),
        Est::sums(float_sum, float_sq, rounds),
        Est::sums(y_float.0, y_float.1, st.rounds),
    ));
    rows.push((
        "decisions per match".into(),
        Est::of(&decisions),
        Est::of(&y_decisions),
    ));
    rows.push((
        "seats paid 役 per round".into(),
        Est::share(paid, rounds * PLAYERS as u64),
        Est::share(y_paid_seats, st.rounds * PLAYERS as u64),
    ));
    for (k, name) in YAKU_NAMES.iter().enumerate() {
        // 五双 and 赤ダマ are rare in random play: compared only where either side saw
        // (or, for the yardstick, would have seen in the engine's rounds) enough for the
        // normal approximation.
        let y_scaled = st.yaku[k] * ENGINE_GAMES / YARD_MATCHES;
        if yaku[k] < 20 && y_scaled < 20 {
            continue;
        }
        rows.push((
            format!("{name} per seat-round"),
            Est::share(yaku[k], rounds * PLAYERS as u64),
            Est::share(st.yaku[k], st.rounds * PLAYERS as u64),
        ));
    }
    rows.push((
        "dealer's result per round".into(),
        Est::of(&dealer_chips),
        Est::sums(st.dealer_chips as f64, st.dealer_chips_sq as f64, st.rounds),
    ));
    rows.push((
        "chips moved per round".into(),
        Est::of(&moved),
        Est::sums(st.moved as f64, st.moved_sq as f64, st.rounds),
    ));
    rows.push((
        "dealer deals again".into(),
        Est::share(kept, followed),
        Est::share(st.kept_deal, st.followed),
    ));
    rows.push((
        "leader's chips".into(),
        Est::of(&top_chips),
        Est::of(&y_top),
    ));
    let mut report = format!(
        "engine: {ENGINE_GAMES} games, {rounds} rounds; yardstick: {YARD_MATCHES} matches, {} rounds ({} deals, {} field redeals, {} asked)\n",
        st.rounds, st.deals, st.field_redeals, st.asked_redeals
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
