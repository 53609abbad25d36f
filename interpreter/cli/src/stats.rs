//! Statistics over finished games: outcome shares, result frequencies, and per-seat,
//! per-role and per-agent win rates and chips with 95% intervals. The sums hold whole
//! numbers only and merge exactly, so the numbers do not depend on how many threads
//! played the games, nor on how their runs were cut.

use std::collections::BTreeMap;

use fuda_core::play::GameRecord;
use serde::{Deserialize, Serialize};

pub use crate::mean::Mean;
use crate::mean::{lcm_up_to, round};
use crate::seating::Seating;
use crate::tally::Tally;

/// `count` per deal, rounded (0 when no deal was played).
fn per(count: u64, deals: u64) -> f64 {
    if deals == 0 {
        0.0
    } else {
        round(count as f64 / deals as f64)
    }
}

/// The role of `seat` in a deal dealt by `dealer`: its place counted from the dealer
/// (0 is the dealer). With no seats this is 0, which no table indexes.
fn role_of(seat: u8, dealer: u8, seats: usize) -> usize {
    if seats == 0 {
        return 0;
    }
    (seat as usize % seats + seats - dealer as usize % seats) % seats
}

/// Whether there is at most one agent row: nothing to tell apart from the seats.
fn one_or_none(rows: &[AgentStat]) -> bool {
    rows.len() <= 1
}

/// A mean with its 95% interval.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Interval {
    /// The mean.
    pub mean: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Observations.
    pub n: u64,
}

/// How often one outcome label ended a deal.
#[derive(Clone, Debug, Serialize)]
pub struct OutcomeShare {
    /// The label (上がり, 当たり, 流れ…).
    pub label: String,
    /// Deals that ended this way.
    pub count: u64,
    /// Share of all deals, in percent.
    pub percent: f64,
}

/// How often a recorded result name occurred and what it was worth.
#[derive(Clone, Debug, Serialize)]
pub struct ResultStat {
    /// The result's name (素役, 赤五光…).
    pub name: String,
    /// Times recorded.
    pub count: u64,
    /// Times per deal.
    pub per_deal: f64,
    /// Mean total.
    pub mean_value: f64,
}

/// One seat's results.
#[derive(Clone, Debug, Serialize)]
pub struct SeatStat {
    /// Seat index.
    pub seat: u8,
    /// The agent that played it; `None` (null) when different agents took it in turn.
    pub agent: Option<String>,
    /// Share of deals in which this seat recorded a result (its wins).
    pub win_rate: Interval,
    /// Final chips per game.
    pub chips: Interval,
}

/// One agent's results, per seat it held: with two seats of a table it counts twice in
/// each game, so that its numbers compare with another agent's and with a seat's.
#[derive(Clone, Debug, Serialize)]
pub struct AgentStat {
    /// The agent's name.
    pub agent: String,
    /// Seats it held in each game.
    pub seats: u64,
    /// Per seat, the finished games in which it sat there (one per seat it held).
    pub seat_games: Vec<u64>,
    /// Share of the deals at its seats that it won (a seat wins at most once a deal).
    pub win_rate: Interval,
    /// Final chips per seat held: each game's mean over its seats, so `n` counts games.
    pub chips: Interval,
}

/// One yaku row of the tables: how often it was part of a scored result.
#[derive(Clone, Debug, Serialize)]
pub struct YakuStat {
    /// The yaku's name in its table.
    pub name: String,
    /// Results it was part of.
    pub count: u64,
    /// Per deal.
    pub per_deal: f64,
    /// Mean payment (result total) of the results it was part of.
    pub mean_payment: f64,
}

/// One bonus row of the tables (a row of a `plus` stage): how often it was part of a
/// scored result, and what it added.
#[derive(Clone, Debug, Serialize)]
pub struct BonusStat {
    /// The bonus's name in its table.
    pub name: String,
    /// Results it was part of.
    pub count: u64,
    /// Per deal.
    pub per_deal: f64,
    /// Its mean value in those results: what it added to their totals.
    pub mean_value: f64,
}

/// Win rate and chips of a role (親, 胴二, ビキ…), counted from each deal's dealer.
#[derive(Clone, Debug, Serialize)]
pub struct RoleStat {
    /// The role's name.
    pub role: String,
    /// Share of deals won in that role.
    pub win_rate: Interval,
    /// Chips won (negative: lost) per deal in that role; a match-end payment counts
    /// for the last deal (see `GameRecord::deal_chips`).
    pub chips_per_deal: Interval,
}

/// A tallied label's values and how often each came.
#[derive(Clone, Debug, Serialize)]
pub struct TallyStat {
    /// The label written after `tally`.
    pub label: String,
    /// Each value with its count and share of all tallies under the label.
    pub values: Vec<(String, u64, f64)>,
}

/// Everything the statistics say about a batch of games.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Finished games.
    pub games: u64,
    /// Deals (outcomes) over all finished games.
    pub deals: u64,
    /// Outcome shares, most frequent first.
    pub outcomes: Vec<OutcomeShare>,
    /// Result names, most frequent first.
    pub results: Vec<ResultStat>,
    /// Yaku rows, most frequent first.
    pub yaku: Vec<YakuStat>,
    /// Bonus rows, most frequent first.
    pub bonuses: Vec<BonusStat>,
    /// Per seat.
    pub seats: Vec<SeatStat>,
    /// Per agent. Shown (and in `--json`) only when more than one agent name is in
    /// play, so a run with one agent reads as it always did; kept with one for `fuda
    /// compare`, whose other side may seat several.
    #[serde(skip_serializing_if = "one_or_none")]
    pub by_agent: Vec<AgentStat>,
    /// Per role of the deal.
    pub roles: Vec<RoleStat>,
    /// Values counted with `tally`.
    pub tallies: Vec<TallyStat>,
    /// Decisions per game.
    pub decisions: Interval,
}

/// What one finished game adds to the numbers of a [`Summary`], kept per game so that
/// `fuda compare` can pair game *i* of one ruleset with game *i* of the other. Each
/// field is counted as [`Sums::add`] counts it.
#[derive(Clone, Debug, Default)]
pub struct GameTotals {
    /// Deals (outcomes) in the game.
    pub deals: u64,
    /// Deals per outcome label.
    pub outcomes: BTreeMap<String, u64>,
    /// Scored results each yaku row was part of.
    pub yaku: BTreeMap<String, u64>,
    /// Scored results each bonus row was part of.
    pub bonuses: BTreeMap<String, u64>,
    /// Per `tally` label, how many times each value was counted.
    pub tallies: BTreeMap<String, BTreeMap<String, u64>>,
    /// Wins per role (by place from the dealer).
    pub role_wins: Vec<u64>,
    /// Per role: the chips it won over the game's deals, and how many deals that is.
    pub role_chips: Vec<(i64, u64)>,
    /// Deals won per seat (at most one per deal).
    pub seat_wins: Vec<u64>,
    /// Final chips per seat.
    pub chips: Vec<i64>,
    /// Per seat, its agent's index in the batch's agent names ([`Seating::names`]).
    pub seated: Vec<usize>,
    /// Decisions taken.
    pub decisions: u64,
}

impl GameTotals {
    /// What the agent `names()[agent]` won in this game: the deals won at its seats, and
    /// the deals played there (the game's deals once per seat it held).
    pub fn agent_wins(&self, agent: usize) -> (u64, u64) {
        let a = self.agent_game(agent);
        (a.wins, a.deals)
    }

    /// The agent `names()[agent]`'s final chips in this game, summed over its seats, and
    /// how many seats that is.
    pub fn agent_chips(&self, agent: usize) -> (i64, u64) {
        let a = self.agent_game(agent);
        (a.chips, a.seats)
    }

    fn agent_game(&self, agent: usize) -> AgentGame {
        AgentGame::of(
            agent,
            &self.seated,
            &self.seat_wins,
            &self.chips,
            self.deals,
        )
    }
}

/// What one agent did in one game, over the seats it held there.
struct AgentGame {
    /// Deals won at its seats.
    wins: u64,
    /// Deals played at its seats: the game's deals once per seat.
    deals: u64,
    /// Final chips summed over its seats.
    chips: i64,
    /// Its seats that have final chips (all of them, in a game with a per-seat ledger).
    seats: u64,
}

impl AgentGame {
    /// Agent `agent`'s game, from each seat's agent (`seated`), wins and final chips.
    fn of(agent: usize, seated: &[usize], won: &[u64], chips: &[i64], deals: u64) -> AgentGame {
        let mut a = AgentGame {
            wins: 0,
            deals: 0,
            chips: 0,
            seats: 0,
        };
        for (s, w) in won.iter().enumerate() {
            if seated.get(s) != Some(&agent) {
                continue;
            }
            a.wins += w;
            a.deals += deals;
            if let Some(c) = chips.get(s) {
                a.chips += c;
                a.seats += 1;
            }
        }
        a
    }

    /// Its final chips in the game over its seats that have them, `(chips, seats)`,
    /// if it has any: their mean per seat is the game's one observation.
    fn chips_per_seat(&self) -> Option<(i64, u64)> {
        (self.seats > 0).then_some((self.chips, self.seats))
    }
}

/// Deals won per seat of a game with `seats` seats: at most one a deal, whatever the
/// records say (a game that records several results for a seat in one deal).
fn seat_wins(r: &GameRecord, seats: usize) -> Vec<u64> {
    let mut won = vec![0u64; seats];
    for (s, _, _) in &r.records {
        if let Some(w) = won.get_mut(*s as usize) {
            *w += 1;
        }
    }
    let deals = r.outcomes.len() as u64;
    won.iter().map(|w| (*w).min(deals)).collect()
}

/// The values game `r` tallied, each with its label: a value tallied for a seat (`tally
/// … for SEAT`) under the label and the name of the agent in that seat (`残り (greedy)`),
/// `seated` giving each seat's agent as an index in `names`.
fn tallied<'r>(
    r: &'r GameRecord,
    seated: &'r [usize],
    names: &'r [String],
) -> impl Iterator<Item = (std::borrow::Cow<'r, str>, &'r str)> {
    let plain = r
        .tallies
        .iter()
        .map(|(l, v)| (std::borrow::Cow::Borrowed(&**l), v.as_str()));
    let by_seat = r.seat_tallies.iter().map(move |(l, v, s)| {
        let label = match seated.get(*s as usize).and_then(|&a| names.get(a)) {
            Some(agent) => std::borrow::Cow::Owned(format!("{l} ({agent})")),
            None => std::borrow::Cow::Borrowed(&**l),
        };
        (label, v.as_str())
    });
    plain.chain(by_seat)
}

/// One game's [`GameTotals`]; `seated` is the index of each seat's agent in the batch's
/// agent names `names` (see [`Seating::seated`]).
pub fn game_totals(r: &GameRecord, seated: Vec<usize>, names: &[String]) -> GameTotals {
    let seats = r.seats as usize;
    let mut t = GameTotals {
        deals: r.outcomes.len() as u64,
        role_wins: vec![0; seats],
        role_chips: vec![(0, 0); seats],
        seat_wins: seat_wins(r, seats),
        chips: r.chips.clone(),
        seated,
        decisions: r.decisions,
        ..GameTotals::default()
    };
    for o in &r.outcomes {
        *t.outcomes.entry(o.to_string()).or_default() += 1;
    }
    for (s, res, dealer) in &r.records {
        for y in res.base_yaku.iter() {
            *t.yaku.entry(y.name.to_string()).or_default() += 1;
        }
        for b in res.bonuses.iter() {
            *t.bonuses.entry(b.name.to_string()).or_default() += 1;
        }
        if let Some(w) = t.role_wins.get_mut(role_of(*s, *dealer, seats)) {
            *w += 1;
        }
    }
    // Bounded as a batch's tallies are: a value the batch keeps a row for is kept with
    // its exact count in every game that has it (see `Tally`).
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    for (label, value) in tallied(r, &t.seated, names) {
        entry(&mut tallies, &label).add(value, 1);
    }
    t.tallies = tallies
        .into_iter()
        .map(|(label, values)| (label, values.rows()))
        .collect();
    for (dealer, delta) in &r.deal_chips {
        for (s, c) in delta.iter().enumerate() {
            if let Some(m) = t.role_chips.get_mut(role_of(s as u8, *dealer, seats)) {
                m.0 += c;
                m.1 += 1;
            }
        }
    }
    t
}

/// Wins and final chips of the places that hold seats in a game: the seats
/// themselves, or the agents (one of which may hold several seats of a game).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Standings {
    /// Deals won at the place.
    wins: Vec<u64>,
    /// Deals played at the place: a seat's deals, once per seat held.
    deals: Vec<u64>,
    /// Final chips, one observation a game (an agent's: the mean of its seats').
    chips: Vec<Mean>,
}

impl Standings {
    /// Places whose chips are each a mean over `dens`' denominators: a seat's are
    /// whole numbers (1), an agent's the mean over the k seats it holds (the lcm of
    /// 1..=k, which every mean over fewer of them divides too).
    fn new(dens: impl IntoIterator<Item = u64>) -> Standings {
        let chips: Vec<Mean> = dens.into_iter().map(Mean::over).collect();
        Standings {
            wins: vec![0; chips.len()],
            deals: vec![0; chips.len()],
            chips,
        }
    }

    /// Makes room for `places` places.
    fn grow(&mut self, places: usize) {
        self.wins.resize(places, 0);
        self.deals.resize(places, 0);
        self.chips.resize(places, Mean::default());
    }

    /// One game of place `at`: `won` of its `deals`, and its final chips over the `k`
    /// seats it held, `(chips, k)` (none in a game without a per-seat ledger).
    fn add(&mut self, at: usize, won: u64, deals: u64, chips: Option<(i64, u64)>) {
        self.wins[at] += won;
        self.deals[at] += deals;
        if let Some((c, k)) = chips {
            self.chips[at].add_ratio(c, k);
        }
    }

    /// The place's share of its deals won, with its Wilson interval.
    fn win_rate(&self, at: usize) -> Interval {
        Mean::share(self.wins[at], self.deals[at]).share_interval()
    }

    /// Its mean final chips, with their interval.
    fn chips(&self, at: usize) -> Interval {
        self.chips[at].interval()
    }

    /// How many places these are; an error if their lists disagree.
    fn places(&self) -> Result<usize, String> {
        let n = self.chips.len();
        if self.wins.len() != n || self.deals.len() != n {
            return Err(format!(
                "{} wins and {} deals for {n} places",
                self.wins.len(),
                self.deals.len()
            ));
        }
        Ok(n)
    }

    /// Adds `other`'s places to these, place by place (`other` may have fewer).
    fn merge(&mut self, other: &Standings) -> Result<(), String> {
        if other.places()? > self.places()? {
            return Err(format!(
                "{} places added to {}",
                other.chips.len(),
                self.chips.len()
            ));
        }
        for (at, chips) in other.chips.iter().enumerate() {
            self.wins[at] += other.wins[at];
            self.deals[at] += other.deals[at];
            self.chips[at].merge(chips)?;
        }
        Ok(())
    }
}

/// Aggregates finished games, in the order given, each with its index in the batch
/// (which says, through `seating`, who sat where). `roles` are the role names from the
/// dealer on, for the seat count played.
#[cfg(test)]
pub fn summarize(records: &[(u64, &GameRecord)], seating: &Seating, roles: &[String]) -> Summary {
    let mut sums = Sums::new(seating);
    for (game, r) in records {
        sums.add(seating, *game, r);
    }
    sums.finish(seating, roles)
}

/// The entry of `key`, made when missing, without allocating a key for one that is
/// there (most are: a game adds the same names again and again).
fn entry<'m, V: Default>(map: &'m mut BTreeMap<String, V>, key: &str) -> &'m mut V {
    if !map.contains_key(key) {
        map.insert(key.to_string(), V::default());
    }
    map.get_mut(key).expect("inserted above")
}

/// The running sums of a batch's games, added one game at a time in game order: a
/// batch keeps these, not its games, so that its memory does not grow with their
/// number (a game may keep 20,000 events). Every number in them is a whole number
/// (counts, [`Mean`]'s integer sums, [`Tally`]'s smallest values), so the sums of two
/// parts of a batch [`merge`](Sums::merge) into exactly the sums of the whole, in any
/// order: `fuda simulate --shard` writes them out and `fuda merge` adds them up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sums {
    /// Seats of the games added (0 before the first).
    seats: usize,
    games: u64,
    deals: u64,
    outcomes: BTreeMap<String, u64>,
    results: BTreeMap<String, (u64, Mean)>,
    /// Wins per seat and per agent, over the deals played there: a win rate is a share
    /// of deals. An agent holding two seats of a game plays its deals twice, once a seat.
    by_seat: Standings,
    by_agent: Standings,
    seat_games: Vec<Vec<u64>>,
    decisions: Mean,
    yaku: BTreeMap<String, (u64, Mean)>,
    bonuses: BTreeMap<String, (u64, Mean)>,
    role_wins: Vec<u64>,
    role_chips: Vec<Mean>,
    tallies: BTreeMap<String, Tally>,
}

impl Sums {
    /// No games yet, seated as `seating` says.
    pub fn new(seating: &Seating) -> Sums {
        let agents = seating.names().len();
        Sums {
            seats: 0,
            games: 0,
            deals: 0,
            outcomes: BTreeMap::new(),
            results: BTreeMap::new(),
            by_seat: Standings::new([]),
            by_agent: Standings::new((0..agents).map(|a| lcm_up_to(seating.seats_held(a) as u64))),
            seat_games: vec![Vec::new(); agents],
            decisions: Mean::default(),
            yaku: BTreeMap::new(),
            bonuses: BTreeMap::new(),
            role_wins: Vec::new(),
            role_chips: Vec::new(),
            tallies: BTreeMap::new(),
        }
    }

    /// Makes room for games of `seats` seats.
    fn grow(&mut self, seats: usize) {
        if seats <= self.seats {
            return;
        }
        self.seats = seats;
        self.by_seat.grow(seats);
        for g in &mut self.seat_games {
            g.resize(seats, 0);
        }
        self.role_wins.resize(seats, 0);
        self.role_chips.resize(seats, Mean::default());
    }

    /// Adds game number `game` (its index in the batch), seated as `seating` says.
    pub fn add(&mut self, seating: &Seating, game: u64, r: &GameRecord) {
        self.grow(r.seats as usize);
        let seats = self.seats;
        self.games += 1;
        for (s, res, dealer) in &r.records {
            for y in res.base_yaku.iter() {
                let e = entry(&mut self.yaku, &y.name);
                e.0 += 1;
                e.1.add(res.total);
            }
            for b in res.bonuses.iter() {
                let e = entry(&mut self.bonuses, &b.name);
                e.0 += 1;
                e.1.add(b.value);
            }
            if let Some(w) = self.role_wins.get_mut(role_of(*s, *dealer, seats)) {
                *w += 1;
            }
        }
        for (dealer, delta) in &r.deal_chips {
            for (s, c) in delta.iter().enumerate() {
                if let Some(m) = self.role_chips.get_mut(role_of(s as u8, *dealer, seats)) {
                    m.add(*c);
                }
            }
        }
        let seated = seating.seated(game);
        for (label, value) in tallied(r, &seated, seating.names()) {
            entry(&mut self.tallies, &label).add(value, 1);
        }
        let n = r.outcomes.len() as u64;
        self.deals += n;
        for o in &r.outcomes {
            *entry(&mut self.outcomes, o) += 1;
        }
        for (_, res, _) in &r.records {
            let e = entry(&mut self.results, &res.name);
            e.0 += 1;
            e.1.add(res.total);
        }
        let won = seat_wins(r, seats);
        for (s, w) in won.iter().enumerate() {
            self.by_seat.add(s, *w, n, r.chips.get(s).map(|c| (*c, 1)));
        }
        let seated = seating.seated(game);
        for (a, games) in self.seat_games.iter_mut().enumerate() {
            // One observation of chips a game, the mean of the agent's seats: two seats
            // of one agent in one game are not independent (they play the same deals),
            // so each game counts once, whatever the agent's seats.
            let g = AgentGame::of(a, &seated, &won, &r.chips, n);
            self.by_agent.add(a, g.wins, g.deals, g.chips_per_seat());
            for (s, _) in seated.iter().enumerate().filter(|x| *x.1 == a) {
                if let Some(x) = games.get_mut(s) {
                    *x += 1;
                }
            }
        }
        self.decisions
            .add(i64::try_from(r.decisions).unwrap_or(i64::MAX));
    }

    /// Adds up the sums of other games of the same batch with these: exactly the sums
    /// of all of them, whatever the order of the parts. Fails when `other` cannot be
    /// sums of the same batch (another number of agents, lists of mismatched lengths,
    /// means over other denominators), leaving these half added up: the caller drops
    /// them.
    pub fn merge(&mut self, other: &Sums) -> Result<(), String> {
        let agents = self.seat_games.len();
        if other.seat_games.len() != agents || other.by_agent.places()? != agents {
            return Err(format!(
                "sums over {} agents cannot be added to sums over {agents}",
                other.seat_games.len()
            ));
        }
        let seats = other.seats;
        let lists = [
            other.by_seat.places()?,
            other.role_wins.len(),
            other.role_chips.len(),
        ];
        if lists.iter().any(|n| *n != seats) || other.seat_games.iter().any(|g| g.len() != seats) {
            return Err(format!("sums of {seats} seats with lists of other lengths"));
        }
        self.grow(seats);
        self.games += other.games;
        self.deals += other.deals;
        for (k, c) in &other.outcomes {
            *entry(&mut self.outcomes, k) += c;
        }
        for (mine, theirs) in [
            (&mut self.results, &other.results),
            (&mut self.yaku, &other.yaku),
            (&mut self.bonuses, &other.bonuses),
        ] {
            for (k, (c, m)) in theirs {
                let e = entry(mine, k);
                e.0 += c;
                e.1.merge(m)?;
            }
        }
        self.by_seat.merge(&other.by_seat)?;
        self.by_agent.merge(&other.by_agent)?;
        for (mine, theirs) in self.seat_games.iter_mut().zip(&other.seat_games) {
            for (x, y) in mine.iter_mut().zip(theirs) {
                *x += y;
            }
        }
        self.decisions.merge(&other.decisions)?;
        for (x, y) in self.role_wins.iter_mut().zip(&other.role_wins) {
            *x += y;
        }
        for (x, y) in self.role_chips.iter_mut().zip(&other.role_chips) {
            x.merge(y)?;
        }
        for (label, t) in &other.tallies {
            entry(&mut self.tallies, label).merge(t);
        }
        Ok(())
    }

    /// The summary of the games added, seated as `seating` says; `roles` are the role
    /// names from the dealer on.
    pub fn finish(self, seating: &Seating, roles: &[String]) -> Summary {
        let Sums {
            seats,
            games,
            deals,
            outcomes,
            results,
            by_seat,
            by_agent,
            seat_games,
            decisions,
            yaku,
            bonuses,
            role_wins,
            role_chips,
            tallies,
        } = self;
        let pct = |c: u64| per(100 * c, deals);
        let mut outcomes: Vec<OutcomeShare> = outcomes
            .into_iter()
            .map(|(l, c)| OutcomeShare {
                label: l.to_string(),
                count: c,
                percent: pct(c),
            })
            .collect();
        outcomes.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.label.cmp(&b.label)));
        let mut results: Vec<ResultStat> = results
            .into_iter()
            .map(|(name, (count, m))| ResultStat {
                name: name.to_string(),
                count,
                per_deal: per(count, deals),
                mean_value: round(m.mean()),
            })
            .collect();
        results.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.name.cmp(&b.name)));
        let by_agent = if seats > 0 {
            seating
                .names()
                .iter()
                .enumerate()
                .map(|(a, name)| AgentStat {
                    agent: name.clone(),
                    seats: seating.seats_held(a) as u64,
                    seat_games: seat_games[a].clone(),
                    win_rate: by_agent.win_rate(a),
                    chips: by_agent.chips(a),
                })
                .collect()
        } else {
            Vec::new()
        };
        let seats = (0..seats)
            .map(|s| SeatStat {
                seat: s as u8,
                agent: seating.fixed_agent(s).map(String::from),
                win_rate: by_seat.win_rate(s),
                chips: by_seat.chips(s),
            })
            .collect();
        let mut yaku: Vec<YakuStat> = yaku
            .into_iter()
            .map(|(name, (count, m))| YakuStat {
                name: name.to_string(),
                count,
                per_deal: per(count, deals),
                mean_payment: round(m.mean()),
            })
            .collect();
        yaku.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.name.cmp(&b.name)));
        let mut bonuses: Vec<BonusStat> = bonuses
            .into_iter()
            .map(|(name, (count, m))| BonusStat {
                name: name.to_string(),
                count,
                per_deal: per(count, deals),
                mean_value: round(m.mean()),
            })
            .collect();
        bonuses.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.name.cmp(&b.name)));
        // Each deal has every role once: a role's win rate is its wins over all deals.
        let roles = role_wins
            .iter()
            .enumerate()
            .map(|(i, w)| RoleStat {
                role: roles
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| format!("seat {i} from the dealer")),
                win_rate: Mean::share(*w, deals.max(*w)).share_interval(),
                chips_per_deal: role_chips[i].interval(),
            })
            .collect();
        let tallies = tallies
            .into_iter()
            .map(|(label, values)| {
                let values = values.rows();
                let total: u64 = values.values().sum();
                let mut values: Vec<(String, u64, f64)> = values
                    .into_iter()
                    .map(|(v, c)| {
                        (
                            v.to_string(),
                            c,
                            round(100.0 * c as f64 / total.max(1) as f64),
                        )
                    })
                    .collect();
                values.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
                TallyStat {
                    label: label.to_string(),
                    values,
                }
            })
            .collect();
        Summary {
            games,
            deals,
            outcomes,
            results,
            yaku,
            bonuses,
            seats,
            by_agent,
            roles,
            tallies,
            decisions: decisions.interval(),
        }
    }
}

#[cfg(test)]
mod tests;
