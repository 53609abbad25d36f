//! The yardstick (`interpreter/core/benches/common/yardstick.rs`, the hand-written 珊瑚花
//! simulator the engine's deal rate is measured against) plays the game of
//! `rulesets/sangohana.fuda`: a faster program that played another game would make the
//! comparison worthless. Its 役代 must equal the rule file's on every hand in every timing
//! context; its deals, played by its eager players, must end as often in 上がり, 当たり and
//! 流れ, last as many decisions and pay as much as the engine's with `eager` agents, within
//! a few standard errors; its payments must settle the engine's deals to the engine's
//! chips exactly; and its chips must balance in every match.

#[path = "../../interpreter/core/benches/common/yardstick.rs"]
mod yardstick;

use fuda_tests::estimate::Est;
use fuda_tests::oracle::Rng;
use fuda_tests::sangohana::Table;
use yardstick::{Ledger, Stats, Win, Yardstick};

use fuda_core::agents::{by_name, Agent};
use fuda_core::model::CardSet;
use fuda_core::play::{agent_seed, game_seed, play_game, PlayOptions};

/// The rule file's 役代 table, and the way from yardstick cards to engine cards.
struct Engine {
    t: Table,
    /// Engine card index of each yardstick card (matched by id, not assumed).
    ix: [u16; 48],
}

impl Engine {
    fn new() -> Engine {
        let t = Table::new();
        let ix = std::array::from_fn(|c| t.card(yardstick::IDS[c]));
        Engine { t, ix }
    }

    /// The rule file's 役代 total of the yardstick hand `mask`.
    fn total(&self, mask: u64, win: Win, first_turn: bool, as_dealt: bool) -> i64 {
        let set: CardSet = (0..48)
            .filter(|c| mask >> c & 1 != 0)
            .map(|c| self.ix[c])
            .collect();
        self.t
            .score(set, win == Win::Atari, first_turn, as_dealt)
            .unwrap_or_else(|e| panic!("役代 fails on {}: {e}", ids(mask)))
            .total
    }
}

fn ids(mask: u64) -> String {
    let v: Vec<&str> = (0..48)
        .filter(|c| mask >> c & 1 != 0)
        .map(|c| yardstick::IDS[c])
        .collect();
    format!("[{}]", v.join(" "))
}

/// `n` cards drawn at random from `pool` (a mask with at least `n` cards).
fn pick(rng: &mut Rng, pool: u64, n: usize) -> u64 {
    let cards: Vec<u32> = (0..48).filter(|c| pool >> c & 1 != 0).collect();
    rng.pick(&cards, n).into_iter().fold(0, |m, c| m | 1 << c)
}

/// Eight cards drawn from the 48.
fn random_hand(rng: &mut Rng) -> u64 {
    pick(rng, yardstick::ALL, 8)
}

/// `n` kasu, often with what the multipliers read: the three 桐 kasu (or the 黄桐
/// lookalike pair), 11-kasu, and many same-month pairs.
fn kasu_group(rng: &mut Rng, n: usize) -> u64 {
    let mut g = 0u64;
    match rng.below(4) {
        0 => g |= yardstick::KIRI,
        1 => g |= 1 << 47 | 1 << (45 + rng.below(2)),
        _ => {}
    }
    if rng.chance(3) {
        g |= yardstick::WILLOW_KASU;
    }
    if rng.chance(2) {
        // The kasu of two or three months: pairs.
        let k = 2 + rng.below(2);
        let months = rng.pick(&(0..10).collect::<Vec<u64>>(), k);
        let pool = months.iter().fold(0, |m, k| m | 0b1100 << (4 * k));
        let want = n.saturating_sub(g.count_ones() as usize);
        g |= pick(rng, pool, want.min(pool.count_ones() as usize));
    }
    let want = n.saturating_sub(g.count_ones() as usize);
    g |= pick(rng, yardstick::KASU & !g, want);
    // Too many forced cards: keep n of them.
    pick(rng, g, n)
}

/// Three cards of one kind and five of another: mostly a yaku, and every base yaku,
/// multiplier and timing bonus many times (near misses too: kasu without a pair).
fn shaped_hand(rng: &mut Rng) -> u64 {
    use yardstick::{AKATAN, AOTAN, HIKARI, KASU, TAN, TANE};
    let kinds = [HIKARI, TANE, TAN, KASU];
    let (a, mut b) = (rng.below(4), rng.below(3));
    if b >= a {
        b += 1;
    }
    let group = |rng: &mut Rng, k: usize, n: usize| match (k, n) {
        (3, _) => kasu_group(rng, n),
        (2, 3) => match rng.below(4) {
            0 => AKATAN,
            1 => AOTAN,
            _ => pick(rng, TAN, 3),
        },
        _ => pick(rng, kinds[k], n),
    };
    let three = group(rng, a, 3);
    three | group(rng, b, 5)
}

/// Every timing context the table takes: (win, first_turn, as_dealt).
const CONTEXTS: [(Win, bool, bool); 8] = [
    (Win::Agari, false, false),
    (Win::Agari, false, true),
    (Win::Agari, true, false),
    (Win::Agari, true, true),
    (Win::Atari, false, false),
    (Win::Atari, false, true),
    (Win::Atari, true, false),
    (Win::Atari, true, true),
];

/// Compares the two scorers on `hands` in every context; returns the distinct plain
/// (上がり, not first turn) totals seen, so a caller can check what was exercised.
fn compare(e: &Engine, hands: impl Iterator<Item = u64>) -> (usize, Vec<i64>) {
    let mut bad = Vec::new();
    let mut seen = Vec::new();
    let mut n = 0;
    for h in hands {
        assert_eq!(h.count_ones(), 8, "generator: {}", ids(h));
        n += 1;
        for (win, first, dealt) in CONTEXTS {
            let want = e.total(h, win, first, dealt);
            let got = yardstick::total(h, win, first, dealt) as i64;
            if got != want && bad.len() < 5 {
                bad.push(format!(
                    "{} {win:?} first_turn {first} as_dealt {dealt}: rule file {want}, yardstick {got}",
                    ids(h)
                ));
            }
            if !first && win == Win::Agari && !seen.contains(&want) {
                seen.push(want);
            }
        }
    }
    assert!(
        bad.is_empty(),
        "the yardstick's 役代 differs from the rule file's:\n{}",
        bad.join("\n")
    );
    seen.sort_unstable();
    (n, seen)
}

#[test]
fn scores_agree_with_the_rule_file() {
    let e = Engine::new();
    let mut rng = Rng(0x9A5D_57C1);
    let (n, seen) = compare(&e, (0..20_000).map(|_| random_hand(&mut rng)));
    assert!(
        n == 20_000 && seen.len() > 3,
        "random hands: totals {seen:?}"
    );
    let (_, seen) = compare(&e, (0..4_000).map(|_| shaped_hand(&mut rng)));
    // Every base value, and the multiplied ones: ×2, ×3, ×4, ×6, ×8 of 素役, 下三光's
    // ×2 … ×4, 下短冊/下ノ種 ×3, 上ノ種 ×2, the named 40s and 45.
    for want in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 15, 20, 40, 45] {
        assert!(
            seen.contains(&want),
            "no shaped hand totals {want}: the generator misses a case ({seen:?})"
        );
    }
}

/// The deal loop finds wins by keeping, for each 7-card hand, the cards that would complete
/// it ([`yardstick::wait_mask`]); they must be exactly the cards whose addition scores
/// (the scorer being checked against the rule file above).
#[test]
fn waits_are_the_cards_that_complete_a_hand() {
    let mut rng = Rng(0x3A17_5EED);
    let mut waiting = 0;
    for i in 0..10_000 {
        let eight = if i % 2 == 0 {
            random_hand(&mut rng)
        } else {
            shaped_hand(&mut rng)
        };
        let hand = eight & !pick(&mut rng, eight, 1);
        let want = (0..48)
            .filter(|c| hand >> c & 1 == 0)
            .filter(|c| yardstick::total(hand | 1 << c, Win::Agari, false, false) > 0)
            .fold(0u64, |m, c| m | 1 << c);
        let got = yardstick::wait_mask(hand);
        assert_eq!(
            got,
            want,
            "{}: waits {} but these cards complete it: {}",
            ids(hand),
            ids(got),
            ids(want)
        );
        waiting += (want != 0) as usize;
    }
    assert!(
        waiting > 2_000,
        "only {waiting} hands were one card from a yaku"
    );
}

/// Settles an engine game's deals (who won, for how much, or 流れ) with the yardstick's
/// [`Ledger`]: the dealer of every deal and the final chips must come out the same, so
/// any difference in the payments (pot, 流れ, the dealer's bonus, the final split)
/// fails here exactly, where the statistics below would need many matches to see it.
fn settle_like_the_engine(g: u64, r: &fuda_core::play::GameRecord) {
    let mut ledger = Ledger::new(r.dealers[0] as usize);
    let mut records = r.records.iter();
    for (i, o) in r.outcomes.iter().enumerate() {
        assert_eq!(
            ledger.dealer,
            r.dealers[i] as usize,
            "game {g}, deal {}: the engine's dealer differs from the yardstick's",
            i + 1
        );
        if &**o == "流れ" {
            ledger.nagare(i as u32 + 1);
        } else {
            let (seat, res, dealer) = records.next().expect("a record for each win");
            assert_eq!(
                *dealer as usize, ledger.dealer,
                "game {g}: the record's dealer"
            );
            ledger.won(*seat as usize, res.total);
        }
    }
    assert!(records.next().is_none(), "game {g}: more records than wins");
    assert_eq!(
        ledger.finish().to_vec(),
        r.chips,
        "game {g}: the yardstick settles the engine's deals to other chips"
    );
}

/// Standard errors of a difference beyond which the two games are called different:
/// with the dozen comparisons below, chance alone would trip it once in ~10^5 runs.
const Z: f64 = 4.5;

/// Deals the engine plays (in a debug build it dominates the test's time) and matches
/// the yardstick plays (12 deals each).
const ENGINE_GAMES: u64 = 300;
const YARD_MATCHES: u64 = 5_000;

#[test]
fn plays_the_same_game_as_the_engine() {
    let e = Engine::new();
    let p = &e.t.p;
    // The engine, with `eager` agents as in the benchmark.
    let (mut outcomes, mut totals, mut bonus, mut dealer_wins) =
        ([0u64; 3], vec![], [0u64; 3], 0u64);
    let (mut decisions, mut top_chips, mut deals) = (vec![], vec![], 0u64);
    for g in 0..ENGINE_GAMES {
        let seed = game_seed(0x5A9D, g);
        let mut agents: Vec<Box<dyn Agent>> = (0..yardstick::PLAYERS)
            .map(|s| by_name("eager", agent_seed(seed, s)).expect("eager"))
            .collect();
        let r = play_game(p, &[], seed, &mut agents, &PlayOptions::default()).expect("a game");
        assert_eq!(r.outcomes.len(), yardstick::DEALS as usize);
        deals += r.outcomes.len() as u64;
        for o in &r.outcomes {
            match &**o {
                "上がり" => outcomes[0] += 1,
                "当たり" => outcomes[1] += 1,
                "流れ" => outcomes[2] += 1,
                other => panic!("unknown outcome {other}"),
            }
        }
        for (seat, res, dealer) in &r.records {
            totals.push(res.total as f64);
            match res.bonus {
                0 => {}
                15 => bonus[0] += 1,
                12 => bonus[1] += 1,
                10 => bonus[2] += 1,
                b => panic!("game {g}: a timing bonus of {b}"),
            }
            dealer_wins += (seat == dealer) as u64;
        }
        settle_like_the_engine(g, &r);
        decisions.push(r.decisions as f64);
        top_chips.push(*r.chips.iter().max().expect("chips") as f64);
    }
    let wins = totals.len() as u64;

    // The yardstick.
    let mut y = Yardstick::new(0x5A9D);
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
    assert_eq!(st.deals, YARD_MATCHES * yardstick::DEALS as u64);
    assert_eq!(st.agari + st.atari + st.nagare, st.deals);
    let y_wins = st.agari + st.atari;

    let rows = [
        (
            "上がり per deal",
            Est::share(outcomes[0], deals),
            Est::share(st.agari, st.deals),
        ),
        (
            "当たり per deal",
            Est::share(outcomes[1], deals),
            Est::share(st.atari, st.deals),
        ),
        (
            "流れ per deal",
            Est::share(outcomes[2], deals),
            Est::share(st.nagare, st.deals),
        ),
        (
            "decisions per match",
            Est::of(&decisions),
            Est::of(&y_decisions),
        ),
        (
            "役代 per win",
            Est::of(&totals),
            Est::sums(st.value as f64, st.value_sq as f64, y_wins),
        ),
        (
            "福上がり per win",
            Est::share(bonus[0], wins),
            Est::share(st.bonus_wins[0], y_wins),
        ),
        (
            "福当たり (dealt) per win",
            Est::share(bonus[1], wins),
            Est::share(st.bonus_wins[1], y_wins),
        ),
        (
            "福当たり (changed) per win",
            Est::share(bonus[2], wins),
            Est::share(st.bonus_wins[2], y_wins),
        ),
        (
            "dealer's wins per win",
            Est::share(dealer_wins, wins),
            Est::share(st.dealer_wins, y_wins),
        ),
        ("leader's chips", Est::of(&top_chips), Est::of(&y_top)),
    ];
    let mut report = format!(
        "engine: {ENGINE_GAMES} games, {deals} deals; yardstick: {YARD_MATCHES} matches, {} deals\n",
        st.deals
    );
    let mut bad = false;
    for (what, a, b) in &rows {
        let se = (a.var / a.n + b.var / b.n).sqrt();
        let z = (a.mean - b.mean).abs() / se;
        bad |= z.is_nan() || z > Z;
        report += &format!(
            "  {what:<22} engine {:>9.4}  yardstick {:>9.4}  ({:.1} SE)\n",
            a.mean, b.mean, z
        );
    }
    eprintln!("{report}");
    assert!(
        !bad,
        "the yardstick plays another game (beyond {Z} standard errors):\n{report}"
    );
}
