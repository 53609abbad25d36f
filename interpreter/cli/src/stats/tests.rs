//! Tests of the statistics: shares, win rates, intervals, and sums that merge.
use super::*;
use crate::seating::Mode;

/// One agent at every seat.
fn one(agent: &str, seats: u8) -> Seating {
    Seating::new(&[agent.to_string()], seats, Mode::Rotate)
}

#[test]
fn shares_and_win_rates() {
    use std::sync::Arc;
    let res = |name: &str, total| {
        Arc::new(fuda_core::value::ScoreResult {
            name: name.into(),
            total,
            base_yaku: std::iter::once(fuda_core::value::YakuLine {
                name: name.into(),
                value: total,
            })
            .collect(),
            ..Default::default()
        })
    };
    let g = GameRecord {
        seats: 2,
        outcomes: vec!["上がり".into(), "流れ".into()],
        // Seat 1 wins while seat 0 deals: seat 1 is the second role.
        records: vec![(1, res("素役", 1), 0)],
        tallies: vec![
            ("浮き札".into(), "9".into()),
            ("浮き札".into(), "9".into()),
            ("浮き札".into(), "3".into()),
        ],
        chips: vec![-1, 1],
        // Seat 0 deals both deals: 親 loses 3 in the first and wins 2 in the second.
        deal_chips: vec![(0, vec![-3, 3]), (0, vec![2, -2])],
        ..Default::default()
    };
    let roles = ["親".to_string(), "子".to_string()];
    let s = summarize(&[(0, &g)], &one("greedy", 2), &roles);
    assert_eq!(s.roles[1].role, "子");
    assert_eq!(s.roles[1].win_rate.mean, 0.5);
    assert_eq!(s.roles[0].win_rate.mean, 0.0);
    assert_eq!(s.roles[0].chips_per_deal.mean, -0.5);
    assert_eq!(s.roles[1].chips_per_deal.mean, 0.5);
    assert_eq!(s.roles[0].chips_per_deal.n, 2);
    assert!(s.roles[0].chips_per_deal.low < -0.5 && s.roles[0].chips_per_deal.high > -0.5);
    assert_eq!(s.yaku[0].name, "素役");
    assert_eq!(s.tallies[0].values[0], ("9".to_string(), 2, 66.666667));
    assert_eq!(s.deals, 2);
    assert_eq!(s.outcomes[0].percent, 50.0);
    assert_eq!(s.results[0].per_deal, 0.5);
    assert_eq!(s.seats[1].win_rate.mean, 0.5);
    assert_eq!(s.seats[0].win_rate.mean, 0.0);
    assert_eq!(s.seats[1].chips.mean, 1.0);
    assert_eq!(s.seats[1].agent.as_deref(), Some("greedy"));
    assert_eq!(s.by_agent.len(), 1, "one agent name: one row, all seats");
    assert!(serde_json::to_value(&s)
        .expect("JSON")
        .get("by_agent")
        .is_none());
}

#[test]
fn game_totals_add_up_to_the_summary() {
    let line = |name: &str, value| fuda_core::value::YakuLine {
        name: name.into(),
        value,
    };
    let res = std::sync::Arc::new(fuda_core::value::ScoreResult {
        name: "素役".into(),
        total: 1,
        base_yaku: std::iter::once(line("素役", 1)).collect(),
        ..Default::default()
    });
    // The same yaku on the first turn: 福上がり added.
    let first = std::sync::Arc::new(fuda_core::value::ScoreResult {
        name: "素役".into(),
        total: 16,
        base_yaku: std::iter::once(line("素役", 1)).collect(),
        bonuses: std::iter::once(line("福上がり", 15)).collect(),
        bonus: 15,
        ..Default::default()
    });
    let g = GameRecord {
        seats: 2,
        outcomes: vec!["上がり".into(), "上がり".into(), "流れ".into()],
        records: vec![(1, res, 0), (1, first, 1)],
        tallies: vec![("浮き札".into(), "9".into()), ("浮き札".into(), "9".into())],
        chips: vec![-3, 3],
        deal_chips: vec![(0, vec![-1, 1]), (1, vec![-2, 2]), (1, vec![0, 0])],
        decisions: 9,
        ..Default::default()
    };
    let roles = ["親".to_string(), "子".to_string()];
    let s = summarize(&[(0, &g), (1, &g)], &one("greedy", 2), &roles);
    let t = game_totals(&g, vec![0, 0], &["greedy".to_string()]);
    assert_eq!(2 * t.deals, s.deals);
    assert_eq!(2 * t.outcomes["上がり"], s.outcomes[0].count);
    assert_eq!(2 * t.yaku["素役"], s.yaku[0].count);
    // A bonus row is counted by its name, at its own value (not the result's total).
    assert_eq!(t.bonuses["福上がり"], 1);
    assert_eq!(s.bonuses.len(), 1);
    assert_eq!(s.bonuses[0].name, "福上がり");
    assert_eq!(2 * t.bonuses["福上がり"], s.bonuses[0].count);
    assert_eq!(s.bonuses[0].per_deal, 0.333333, "2 in 6 deals");
    assert_eq!(s.bonuses[0].mean_value, 15.0);
    assert_eq!(2 * t.tallies["浮き札"]["9"], s.tallies[0].values[0].1);
    assert_eq!(t.seat_wins, [0, 2]);
    // Seat 1 won once as 子 (seat 0 dealing) and once as 親.
    assert_eq!(t.role_wins, [1, 1]);
    let per_deal = t.role_chips[1].0 as f64 / t.role_chips[1].1 as f64;
    assert!((per_deal - s.roles[1].chips_per_deal.mean).abs() < 1e-6);
    assert_eq!(t.decisions as f64, s.decisions.mean);
}

#[test]
fn roles_count_from_each_deals_dealer() {
    // Three seats; the deal is dealt by seat 2, so seat 2 is 親, seat 0 胴二 and
    // seat 1 ビキ.
    let g = GameRecord {
        seats: 3,
        outcomes: vec!["流れ".into()],
        deal_chips: vec![(2, vec![-1, -1, -2])],
        ..Default::default()
    };
    let roles = ["親", "胴二", "ビキ"].map(String::from);
    let s = summarize(&[(0, &g)], &one("random", 3), &roles);
    let per_deal: Vec<f64> = s.roles.iter().map(|r| r.chips_per_deal.mean).collect();
    assert_eq!(per_deal, [-2.0, -1.0, -1.0]);
}

/// Rotated, each game credits its seats to the agent sitting there: the agent rows
/// count a seat's wins and chips for whoever held it in that game, and
/// `GameTotals` reads the same numbers off one game for `fuda compare`.
#[test]
fn agent_rows_follow_the_seating() {
    let res = std::sync::Arc::new(fuda_core::value::ScoreResult {
        name: "素役".into(),
        total: 1,
        ..Default::default()
    });
    // Seat 0 wins both deals of every game and ends 4 chips up.
    let g = GameRecord {
        seats: 2,
        outcomes: vec!["上がり".into(), "上がり".into()],
        records: vec![(0, res.clone(), 0), (0, res, 1)],
        chips: vec![4, -4],
        ..Default::default()
    };
    let agents = ["greedy".to_string(), "random".to_string()];
    let rotated = Seating::new(&agents, 2, Mode::Rotate);
    let games = [(0, &g), (1, &g), (2, &g)];
    let s = summarize(&games, &rotated, &[]);
    // Greedy held seat 0 in games 0 and 2, random in game 1.
    let (greedy, random) = (&s.by_agent[0], &s.by_agent[1]);
    assert_eq!((greedy.agent.as_str(), greedy.seats), ("greedy", 1));
    assert_eq!(greedy.seat_games, [2, 1]);
    assert_eq!(random.seat_games, [1, 2]);
    assert_eq!((greedy.win_rate.mean, greedy.win_rate.n), (0.666667, 6));
    assert_eq!(random.win_rate.mean, 0.333333);
    assert_eq!((greedy.chips.mean, greedy.chips.n), (1.333333, 3));
    assert_eq!(s.seats[0].agent, None, "rotated: no one agent per seat");
    // The seat rows do not move with the agents.
    assert_eq!(s.seats[0].win_rate.mean, 1.0);
    let fixed = summarize(&games, &Seating::new(&agents, 2, Mode::Fixed), &[]);
    assert_eq!(fixed.by_agent[0].win_rate.mean, 1.0);
    assert_eq!(fixed.seats[0].agent.as_deref(), Some("greedy"));
    assert_eq!(fixed.seats[0].win_rate, s.seats[0].win_rate);
    // One game's totals, seated as game 1 (random at seat 0).
    let t = game_totals(&g, rotated.seated(1), rotated.names());
    assert_eq!(t.agent_wins(1), (2, 2));
    assert_eq!(t.agent_wins(0), (0, 2));
    assert_eq!(t.agent_chips(0), (-4, 1));

    // Two seats of one agent in a game: its win rate is per seat held (each seat's
    // deals count), its chips one mean a game.
    let three = GameRecord {
        seats: 3,
        chips: vec![6, -2, -4],
        ..g.clone()
    };
    let table = Seating::new(&agents, 3, Mode::Fixed);
    let s = summarize(&[(0, &three), (1, &three)], &table, &[]);
    let greedy = &s.by_agent[0];
    assert_eq!(greedy.seats, 2);
    assert_eq!(greedy.seat_games, [2, 0, 2]);
    assert_eq!((greedy.win_rate.mean, greedy.win_rate.n), (0.5, 8));
    assert_eq!((greedy.chips.mean, greedy.chips.n), (1.0, 2));
    assert_eq!(s.by_agent[1].chips.mean, -2.0);
}

/// Game `i` of a made-up batch of 3 seats: results, bonuses, tallies and chips
/// that vary from game to game, so that every field of the sums is exercised.
fn varied_game(i: u64) -> GameRecord {
    let line = |name: &str, value| fuda_core::value::YakuLine {
        name: name.into(),
        value,
    };
    let x = (i * 7919 % 97) as i64;
    let result = std::sync::Arc::new(fuda_core::value::ScoreResult {
        name: if x % 3 == 0 { "素役" } else { "三光" }.into(),
        total: x,
        base_yaku: std::iter::once(line("素役", x)).collect(),
        bonuses: std::iter::once(line("福上がり", x % 5)).collect(),
        ..Default::default()
    });
    let winner = (i % 3) as u8;
    let pays = [x - 40, 17 - x, 23];
    GameRecord {
        seats: 3,
        outcomes: vec![
            "上がり".into(),
            if x % 2 == 0 { "流れ" } else { "上がり" }.into(),
        ],
        records: vec![(winner, result, (i % 3) as u8)],
        tallies: vec![
            ("浮き札".into(), format!("{}", x % 13)),
            ("番号".into(), format!("{i}")),
        ],
        chips: pays.to_vec(),
        deal_chips: vec![((i % 3) as u8, pays.to_vec())],
        decisions: 30 + x as u64,
        ..Default::default()
    }
}

/// A batch split into shards (game i to shard i % n, as `--shard` splits it) adds
/// up to the sums of the whole batch: equal sums, not close ones, in any order of
/// the shards, and through JSON and back.
#[test]
fn shards_merge_into_the_sums_of_the_whole() {
    let agents = ["greedy".to_string(), "random".to_string()];
    // greedy holds two seats of three: its chips are means over two seats.
    let seating = Seating::new(&agents, 3, Mode::Rotate);
    let games: Vec<GameRecord> = (0..50).map(varied_game).collect();
    let mut whole = Sums::new(&seating);
    for (i, g) in games.iter().enumerate() {
        whole.add(&seating, i as u64, g);
    }
    for n in [1, 2, 3, 7, 60] {
        let mut shards = vec![Sums::new(&seating); n];
        for (i, g) in games.iter().enumerate() {
            shards[i % n].add(&seating, i as u64, g);
        }
        let through_json: Vec<Sums> = shards
            .iter()
            .map(|s| {
                let text = serde_json::to_string(s).expect("JSON");
                serde_json::from_str(&text).expect("read back")
            })
            .collect();
        assert_eq!(through_json, shards, "{n} shards through JSON");
        let mut forward = Sums::new(&seating);
        for s in &through_json {
            forward.merge(s).expect("shards of one batch");
        }
        let mut backward = Sums::new(&seating);
        for s in through_json.iter().rev() {
            backward.merge(s).expect("shards of one batch");
        }
        assert_eq!(forward, whole, "{n} shards");
        assert_eq!(backward, whole, "{n} shards, backwards");
        let roles = ["親".to_string(), "胴二".to_string(), "ビキ".to_string()];
        let (a, b) = (
            forward.finish(&seating, &roles),
            whole.clone().finish(&seating, &roles),
        );
        assert_eq!(
            serde_json::to_string(&a).expect("JSON"),
            serde_json::to_string(&b).expect("JSON")
        );
    }
    // Sums over another number of agents are not of this batch.
    let alone = Seating::new(&agents[..1], 3, Mode::Rotate);
    let mut other = Sums::new(&alone);
    other.add(&alone, 0, &games[0]);
    let err = whole.clone().merge(&other).expect_err("one agent, not two");
    assert!(err.contains("1 agents"), "{err}");
    // Lists that disagree with the seat count (a file edited by hand) are refused.
    let mut bent = Sums::new(&seating);
    bent.add(&seating, 0, &games[0]);
    bent.role_wins.push(1);
    assert!(whole.clone().merge(&bent).is_err());
}
