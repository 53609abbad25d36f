//! `fuda compare`: plays the same batch of games (same seeds, same agents) under two
//! rulesets, a baseline A and a variant B, and reports what changed, B − A, each
//! difference with a 95% interval, so a house rule's effect can be told from noise.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::seating::Mode;
use crate::simulate::{self, Report, RunArgs};
use crate::stats::{GameTotals, Interval, Mean, Summary};
use crate::{errln, outln};
use crate::{params, render, stdin, values, view};

/// Arguments of `fuda compare`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The baseline ruleset (A; `-`: standard input).
    #[arg(value_name = "A")]
    pub a: PathBuf,
    /// The variant compared with it (B; `-`: standard input).
    #[arg(value_name = "B")]
    pub b: PathBuf,
    #[command(flatten)]
    pub run: RunArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// One compared line: A's value, B's, and B − A with its 95% interval.
#[derive(Clone, Debug, Serialize)]
pub struct Diff {
    /// What is compared (an outcome label, a yaku, a role, a seat).
    pub name: String,
    /// A's value; `None` (null) for a seat or role A does not have (it seats fewer
    /// players, or names other roles).
    pub a: Option<f64>,
    /// B's value, `None` as `a` is.
    pub b: Option<f64>,
    /// B − A, with its 95% interval; `n` is the number of games both rulesets
    /// finished, which the interval pairs. `None` (null) when one side has no such
    /// seat or role: there is nothing to subtract.
    pub difference: Option<Difference>,
}

/// B − A with its 95% interval.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Difference {
    /// B's number less A's.
    pub mean: f64,
    /// Lower end of the 95% interval; `None` (null) when no game pairs up (one side
    /// finished none): there is nothing to measure the difference's spread with.
    pub low: Option<f64>,
    /// Upper end, `None` as `low` is.
    pub high: Option<f64>,
    /// Games both rulesets finished, which the interval pairs.
    pub n: u64,
}

impl Diff {
    /// Whether the interval leaves out 0: the batches tell A and B apart (never so
    /// without an interval).
    fn clear(&self) -> bool {
        match self.difference.and_then(|d| d.low.zip(d.high)) {
            Some((low, high)) => low > 0.0 || high < 0.0,
            None => false,
        }
    }

    /// A seat or role only one side has (`a` or `b` is `None`): its value on the side
    /// that has it, and no difference.
    fn one_sided(name: &str, a: Option<f64>, b: Option<f64>) -> Diff {
        Diff {
            name: name.to_string(),
            a: a.map(round),
            b: b.map(round),
            difference: None,
        }
    }

    /// The interval cut to what the number can be: a difference of two shares lies in
    /// [−1, 1], though a normal interval from few games can run past it.
    fn within(mut self, min: f64, max: f64) -> Diff {
        if let Some(d) = &mut self.difference {
            d.low = d.low.map(|x| x.max(min));
            d.high = d.high.map(|x| x.min(max));
        }
        self
    }
}

/// Every compared section.
#[derive(Debug, Serialize)]
pub struct Differences {
    /// Share of deals ending with each outcome (0..1).
    pub outcomes: Vec<Diff>,
    /// Each yaku row's frequency per deal.
    pub yaku: Vec<Diff>,
    /// Each bonus row's frequency per deal.
    pub bonuses: Vec<Diff>,
    /// Win rate per role (0..1).
    pub role_win_rate: Vec<Diff>,
    /// Chips per deal per role.
    pub role_chips_per_deal: Vec<Diff>,
    /// Win rate per seat (0..1).
    pub seat_win_rate: Vec<Diff>,
    /// Final chips per game per seat.
    pub seat_chips: Vec<Diff>,
    /// Win rate per agent, per seat it held (0..1); only when more than one agent name
    /// is in play (left out of `--json` otherwise).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub agent_win_rate: Vec<Diff>,
    /// Final chips per game per agent, per seat it held; as `agent_win_rate`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub agent_chips: Vec<Diff>,
    /// Per `tally` label, each value's count per deal.
    pub tallies: Vec<TallyDiff>,
    /// Decisions per game.
    pub decisions: Diff,
}

/// One `tally` label compared: each value's count per deal, named by the value.
#[derive(Clone, Debug, Serialize)]
pub struct TallyDiff {
    /// The label written after `tally`.
    pub label: String,
    /// Each value counted under it on either side: A's in A's order, then B's others.
    pub values: Vec<Diff>,
}

/// The `--json` output.
#[derive(Serialize)]
struct Comparison<'r> {
    a: &'r Report,
    b: &'r Report,
    difference: &'r Differences,
}

/// Runs both batches and reports; 0 when every game of both finished, 1 otherwise.
pub fn run(args: &Args) -> miette::Result<u8> {
    let result = run_text(args);
    // With `--json`, an error that stops the command is JSON on stdout too, as with
    // `fuda score`, so a program reading the output gets JSON either way.
    if let (true, Err(e)) = (args.json, &result) {
        outln!("{}", serde_json::json!({ "error": render::one_line(e) }));
    }
    result
}

fn run_text(args: &Args) -> miette::Result<u8> {
    // Both files are checked before either batch is played.
    let (mut batch_a, unknown_a) = simulate::prepare_known(&args.a, &args.run)?;
    let (mut batch_b, unknown_b) = simulate::prepare_known(&args.b, &args.run)?;
    batch_a.label = side_label("A", &args.a);
    batch_b.label = side_label("B", &args.b);
    // A `--set` applies to each side that declares it (a variant may add a parameter
    // its baseline lacks); a name neither declares is a mistake.
    if let Some(name) = unknown_a.iter().find(|n| unknown_b.contains(n)) {
        let known: BTreeSet<&str> = [&batch_a.p, &batch_b.p]
            .iter()
            .flat_map(|p| p.params.iter().map(|d| d.name.as_str()))
            .collect();
        return Err(values::unknown_name(
            "parameter in either ruleset",
            name,
            known.iter().copied(),
        ));
    }
    // Seats reuse the agents in turn; more names than the larger table seats is a slip.
    let larger = if batch_a.seats >= batch_b.seats {
        &batch_a
    } else {
        &batch_b
    };
    params::check_agent_count(&larger.p, &larger.agents, larger.seats)?;
    let a = simulate::play(&batch_a, &args.run, true, None)?;
    let b = simulate::play(&batch_b, &args.run, true, None)?;
    let (pa, pb) = (&batch_a.p, &batch_b.p);
    let d = differences(&a, &b);
    if args.json {
        let c = Comparison {
            a: &a,
            b: &b,
            difference: &d,
        };
        outln!("{}", serde_json::to_string(&c).unwrap_or_default());
    } else {
        let head = [
            format!(
                "A: {} ({}): {} games, {} deals in {:.2} s",
                pa.title,
                stdin::shown(&args.a),
                a.summary.games,
                a.summary.deals,
                a.seconds
            ),
            format!(
                "B: {} ({}): {} games, {} deals in {:.2} s",
                pb.title,
                stdin::shown(&args.b),
                b.summary.games,
                b.summary.deals,
                b.seconds
            ),
        ];
        render::out(&human(&head, &a, &b, &d));
    }
    if a.failed + b.failed > 0 {
        let stop = |side: &str, r: &Report| {
            if r.stopped {
                format!(
                    "; {side} stopped after its first {} games all failed",
                    r.failed
                )
            } else {
                String::new()
            }
        };
        errln!(
            "{} games of A and {} of B failed (see above){}{}",
            a.failed,
            b.failed,
            stop("A", &a),
            stop("B", &b)
        );
    }
    Ok(u8::from(a.failed + b.failed > 0))
}

/// A side's progress bar label: its letter and its file's name (`A sangohana.fuda`),
/// without the folder, which the two files most often share.
fn side_label(side: &str, file: &Path) -> String {
    let name = match file.file_name() {
        Some(n) if !stdin::is_stdin(file) => n.to_string_lossy().into_owned(),
        _ => stdin::shown(file),
    };
    format!("{side} {name}")
}

/// B − A for every section of the two reports (which must keep their games: see
/// [`simulate::play`]). Each difference is B's number less A's; its interval pairs game
/// *i* of A with game *i* of B (see [`paired`]), or, with fewer than two games to pair,
/// takes the two batches as independent.
pub fn differences(a: &Report, b: &Report) -> Differences {
    let (sa, sb) = (&a.summary, &b.summary);
    let games = pairs(a, b);
    let games = games.as_slice();
    let outcomes = names(
        sa.outcomes.iter().map(|o| o.label.as_str()),
        sb.outcomes.iter().map(|o| o.label.as_str()),
    )
    .into_iter()
    .map(|name| {
        let count = |s: &Summary| {
            s.outcomes
                .iter()
                .find(|o| o.label == name)
                .map_or(0, |o| o.count)
        };
        let unpaired = share_diff(
            name,
            Mean::share(count(sa), sa.deals).share_interval(),
            Mean::share(count(sb), sb.deals).share_interval(),
        );
        let f = per_deal(|t| t.outcomes.get(name).copied().unwrap_or(0));
        with_pairs(unpaired, games, &f, &f).within(-1.0, 1.0)
    })
    .collect();
    let yaku = count_diffs(
        &sa.yaku
            .iter()
            .map(|y| (y.name.as_str(), y.count))
            .collect::<Vec<_>>(),
        &sb.yaku
            .iter()
            .map(|y| (y.name.as_str(), y.count))
            .collect::<Vec<_>>(),
        (sa.deals, sb.deals),
        games,
        |t| &t.yaku,
    );
    // Bonus rows and tallied values are counts per deal, paired as yaku rows are.
    let bonuses = count_diffs(
        &sa.bonuses
            .iter()
            .map(|y| (y.name.as_str(), y.count))
            .collect::<Vec<_>>(),
        &sb.bonuses
            .iter()
            .map(|y| (y.name.as_str(), y.count))
            .collect::<Vec<_>>(),
        (sa.deals, sb.deals),
        games,
        |t| &t.bonuses,
    );
    let tallies = names(
        sa.tallies.iter().map(|t| t.label.as_str()),
        sb.tallies.iter().map(|t| t.label.as_str()),
    )
    .into_iter()
    .map(|label| {
        let (va, vb) = (tallied(sa, label), tallied(sb, label));
        let values = names(
            va.iter().map(|v| v.0.as_str()),
            vb.iter().map(|v| v.0.as_str()),
        )
        .into_iter()
        .map(|value| {
            let count =
                |vs: &[(String, u64, f64)]| vs.iter().find(|v| v.0 == value).map_or(0, |v| v.1);
            let unpaired = rate_diff(value, count(va), sa.deals, count(vb), sb.deals);
            let f = per_deal(|t| {
                t.tallies
                    .get(label)
                    .and_then(|vs| vs.get(value))
                    .copied()
                    .unwrap_or(0)
            });
            with_pairs(unpaired, games, &f, &f)
        })
        .collect();
        TallyDiff {
            label: label.to_string(),
            values,
        }
    })
    .collect();
    let roles = names(
        sa.roles.iter().map(|r| r.role.as_str()),
        sb.roles.iter().map(|r| r.role.as_str()),
    );
    let role = |s: &Summary, name: &str| {
        let i = s.roles.iter().position(|r| r.role == name)?;
        Some(Place {
            win_rate: s.roles[i].win_rate,
            chips: s.roles[i].chips_per_deal,
            wins: Box::new(move |t: &GameTotals| match t.role_wins.get(i) {
                Some(w) => (*w as f64, t.deals as f64),
                None => (0.0, 0.0),
            }),
            chips_of: Box::new(move |t: &GameTotals| match t.role_chips.get(i) {
                Some((c, n)) => (*c as f64, *n as f64),
                None => (0.0, 0.0),
            }),
        })
    };
    let (role_win_rate, role_chips_per_deal) = place_diffs(
        roles
            .iter()
            .map(|name| (name.to_string(), role(sa, name), role(sb, name))),
        games,
    );
    let seat = |s: &Summary, i: usize| {
        let x = s.seats.get(i)?;
        Some(Place {
            win_rate: x.win_rate,
            chips: x.chips,
            wins: Box::new(move |t: &GameTotals| match t.seat_wins.get(i) {
                Some(w) => (*w as f64, t.deals as f64),
                None => (0.0, 0.0),
            }),
            chips_of: Box::new(move |t: &GameTotals| match t.chips.get(i) {
                Some(c) => (*c as f64, 1.0),
                None => (0.0, 0.0),
            }),
        })
    };
    let (seat_win_rate, seat_chips) = place_diffs(
        (0..sa.seats.len().max(sb.seats.len()))
            .map(|i| (format!("seat {i}"), seat(sa, i), seat(sb, i))),
        games,
    );
    // An agent is named the same on both sides, though its index may differ (a side
    // with fewer seats may not seat every agent of the list).
    let agent = |s: &Summary, name: &str| {
        let i = s.by_agent.iter().position(|a| a.agent == name)?;
        Some(Place {
            win_rate: s.by_agent[i].win_rate,
            chips: s.by_agent[i].chips,
            wins: Box::new(move |t: &GameTotals| {
                let (w, n) = t.agent_wins(i);
                (w as f64, n as f64)
            }),
            chips_of: Box::new(move |t: &GameTotals| {
                let (c, n) = t.agent_chips(i);
                (c as f64, n as f64)
            }),
        })
    };
    // Agents are compared when either side seats more than one (a side with fewer
    // seats may seat only the first of the list, at every seat).
    let agents = if sa.by_agent.len() > 1 || sb.by_agent.len() > 1 {
        names(
            sa.by_agent.iter().map(|a| a.agent.as_str()),
            sb.by_agent.iter().map(|a| a.agent.as_str()),
        )
    } else {
        Vec::new()
    };
    let (agent_win_rate, agent_chips) = place_diffs(
        agents
            .iter()
            .map(|name| (name.to_string(), agent(sa, name), agent(sb, name))),
        games,
    );
    let decisions = |t: &GameTotals| (t.decisions as f64, 1.0);
    Differences {
        outcomes,
        yaku,
        bonuses,
        role_win_rate,
        role_chips_per_deal,
        seat_win_rate,
        seat_chips,
        agent_win_rate,
        agent_chips,
        tallies,
        decisions: with_pairs(
            mean_diff("per game", sa.decisions, sb.decisions),
            games,
            &decisions,
            &decisions,
        ),
    }
}

/// What one side says of a place that wins and holds chips (a role, a seat, an agent):
/// its win rate and chips in the summary, and what each game adds to each, read as a
/// ratio for the pairing.
struct Place {
    win_rate: Interval,
    chips: Interval,
    wins: PerGame,
    chips_of: PerGame,
}

/// What a game adds to a number of a place, as a [`Ratio`] reads it.
type PerGame = Box<dyn Fn(&GameTotals) -> (f64, f64)>;

/// B − A of each place's win rate and of its chips, from rows of a name and what each
/// side says of it (`None` for a side without that place: a seat or role only one
/// side has shows its value and no difference).
fn place_diffs(
    rows: impl Iterator<Item = (String, Option<Place>, Option<Place>)>,
    games: &[(&GameTotals, &GameTotals)],
) -> (Vec<Diff>, Vec<Diff>) {
    rows.map(|(name, a, b)| match (a, b) {
        (Some(x), Some(y)) => {
            let rate = share_diff(&name, x.win_rate, y.win_rate);
            let chips = mean_diff(&name, x.chips, y.chips);
            (
                with_pairs(rate, games, &*x.wins, &*y.wins).within(-1.0, 1.0),
                with_pairs(chips, games, &*x.chips_of, &*y.chips_of),
            )
        }
        (a, b) => (
            Diff::one_sided(
                &name,
                a.as_ref().map(|p| p.win_rate.mean),
                b.as_ref().map(|p| p.win_rate.mean),
            ),
            Diff::one_sided(
                &name,
                a.as_ref().map(|p| p.chips.mean),
                b.as_ref().map(|p| p.chips.mean),
            ),
        ),
    })
    .unzip()
}

/// The values counted under `label` in a summary, with their counts (none when it has
/// no such label).
fn tallied<'s>(s: &'s Summary, label: &str) -> &'s [(String, u64, f64)] {
    s.tallies
        .iter()
        .find(|t| t.label == label)
        .map_or(&[], |t| t.values.as_slice())
}

/// B − A for rows counted per deal (yaku rows, bonus rows): each row's count in each
/// summary (`a`, `b`: name and count), paired game by game through `of`, the same
/// row's counts in a game's totals.
fn count_diffs(
    a: &[(&str, u64)],
    b: &[(&str, u64)],
    (deals_a, deals_b): (u64, u64),
    games: &[(&GameTotals, &GameTotals)],
    of: impl Fn(&GameTotals) -> &BTreeMap<String, u64>,
) -> Vec<Diff> {
    names(a.iter().map(|r| r.0), b.iter().map(|r| r.0))
        .into_iter()
        .map(|name| {
            let count = |rows: &[(&str, u64)]| rows.iter().find(|r| r.0 == name).map_or(0, |r| r.1);
            let unpaired = rate_diff(name, count(a), deals_a, count(b), deals_b);
            let f = per_deal(|t| of(t).get(name).copied().unwrap_or(0));
            with_pairs(unpaired, games, &f, &f)
        })
        .collect()
}

/// A count per game read as a share of (or a rate per) the game's deals.
fn per_deal(count: impl Fn(&GameTotals) -> u64) -> impl Fn(&GameTotals) -> (f64, f64) {
    move |t| (count(t) as f64, t.deals as f64)
}

/// Game *i* of A with game *i* of B, for each game both finished.
fn pairs<'r>(a: &'r Report, b: &'r Report) -> Vec<(&'r GameTotals, &'r GameTotals)> {
    a.games
        .iter()
        .zip(&b.games)
        .filter_map(|(x, y)| Some((x.as_ref()?, y.as_ref()?)))
        .collect()
}

/// A number of a batch read as a ratio over its games, Σ top / Σ bottom: what one game
/// gives to the top and to the bottom. A share of deals is (deals with it, deals), a
/// count per deal (count, deals), a mean per game (value, 1).
type Ratio<'f> = &'f dyn Fn(&GameTotals) -> (f64, f64);

/// `unpaired`'s difference with its interval taken from the paired games instead, when
/// there are two or more, and none when there are none; `n` says how many games were
/// paired.
fn with_pairs(
    mut unpaired: Diff,
    games: &[(&GameTotals, &GameTotals)],
    a: Ratio<'_>,
    b: Ratio<'_>,
) -> Diff {
    let Some(diff) = &mut unpaired.difference else {
        return unpaired;
    };
    let d = diff.mean;
    if let Some(half) = paired(games, a, b) {
        diff.low = Some(round(d - half));
        diff.high = Some(round(d + half));
    }
    if games.is_empty() {
        // Nothing pairs: the batches' own intervals would measure one side's games
        // against nothing (a side that finished none reads as all zeros).
        diff.low = None;
        diff.high = None;
    }
    diff.n = games.len() as u64;
    unpaired
}

/// Half the width of the 95% interval of B − A for a ratio, from the games paired by
/// seed: game *i* has the same seed in both, so a variant that changes little plays
/// mostly the same deals, and the per-game differences vary far less than two
/// independent batches would (a ruleset against itself gives exactly 0). Each game's
/// share of a ratio R = Σc/Σn is linearised as (cᵢ − R·nᵢ)/n̄ (the delta method, so a
/// game with more deals weighs more, as in R itself); the interval is 1.96 standard
/// errors of the per-game differences B − A of those. For a mean per game (nᵢ = 1) this
/// is the plain paired interval of the games' differences. `None` with fewer than two
/// games.
fn paired(games: &[(&GameTotals, &GameTotals)], a: Ratio<'_>, b: Ratio<'_>) -> Option<f64> {
    if games.len() < 2 {
        return None;
    }
    let g = games.len() as f64;
    let linear = |xs: Vec<(f64, f64)>| -> Vec<f64> {
        let (c, n) = xs.iter().fold((0.0, 0.0), |s, x| (s.0 + x.0, s.1 + x.1));
        if n == 0.0 {
            return vec![0.0; xs.len()];
        }
        let (r, mean_n) = (c / n, n / g);
        xs.iter().map(|(ci, ni)| (ci - r * ni) / mean_n).collect()
    };
    let za = linear(games.iter().map(|(x, _)| a(x)).collect());
    let zb = linear(games.iter().map(|(_, y)| b(y)).collect());
    let d: Vec<f64> = za.iter().zip(&zb).map(|(x, y)| y - x).collect();
    Some(1.96 * sd(&d) / g.sqrt())
}

/// The sample standard deviation of `xs` (0 with fewer than two). The linearised
/// differences are fractions of no common denominator, so they are summed in floating
/// point, in game order: unlike a batch's [`Mean`], these are never merged.
fn sd(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let (sum, sum_sq) = xs.iter().fold((0.0, 0.0), |s, x| (s.0 + x, s.1 + x * x));
    let n = xs.len() as f64;
    let var: f64 = (sum_sq - sum * sum / n) / (n - 1.0);
    var.max(0.0).sqrt()
}

/// The names of both lists: A's in its order, then those only B has.
fn names<'s>(a: impl Iterator<Item = &'s str>, b: impl Iterator<Item = &'s str>) -> Vec<&'s str> {
    let mut seen = BTreeSet::new();
    a.chain(b).filter(|n| seen.insert(*n)).collect()
}

/// The difference of two shares from their Wilson intervals (Newcombe's method), the
/// batches taken as independent (used when too few games pair up): it stays sound for
/// shares near 0 or 1, where a plain normal interval does not.
fn share_diff(name: &str, a: Interval, b: Interval) -> Diff {
    let d = b.mean - a.mean;
    let low = d - ((b.mean - b.low).powi(2) + (a.high - a.mean).powi(2)).sqrt();
    let high = d + ((b.high - b.mean).powi(2) + (a.mean - a.low).powi(2)).sqrt();
    diff(name, a.mean, b.mean, d, low, high)
}

/// The difference of two means from their normal intervals (mean ± 1.96 standard
/// errors): the standard errors add in quadrature. The batches are treated as
/// independent: used only when too few games pair up (see [`paired`]).
fn mean_diff(name: &str, a: Interval, b: Interval) -> Diff {
    let se = |i: &Interval| (i.high - i.mean) / 1.96;
    let d = b.mean - a.mean;
    let half = 1.96 * (se(&a).powi(2) + se(&b).powi(2)).sqrt();
    diff(name, a.mean, b.mean, d, d - half, d + half)
}

/// The difference of two per-deal frequencies (counts of a yaku, which may come more
/// than once a deal), each count taken as Poisson and the batches as independent (used
/// when too few games pair up).
fn rate_diff(name: &str, ca: u64, na: u64, cb: u64, nb: u64) -> Diff {
    let rate = |c: u64, n: u64| if n == 0 { 0.0 } else { c as f64 / n as f64 };
    let var = |c: u64, n: u64| {
        if n == 0 {
            0.0
        } else {
            c as f64 / (n as f64 * n as f64)
        }
    };
    let (a, b) = (rate(ca, na), rate(cb, nb));
    let half = 1.96 * (var(ca, na) + var(cb, nb)).sqrt();
    diff(name, a, b, b - a, b - a - half, b - a + half)
}

fn diff(name: &str, a: f64, b: f64, d: f64, low: f64, high: f64) -> Diff {
    Diff {
        name: name.to_string(),
        a: Some(round(a)),
        b: Some(round(b)),
        difference: Some(Difference {
            mean: round(d),
            low: Some(round(low)),
            high: Some(round(high)),
            n: 0,
        }),
    }
}

/// Rounds to 6 decimals, as the reports do, and makes −0 plain 0 (no `-0.00` printed
/// for a difference of nothing).
fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6 + 0.0
}

/// How many games a side finished, and whether it stopped early: "B finished 0 (it
/// stopped after its first 16 games all failed)".
fn finished(side: &str, r: &Report) -> String {
    let done = r.summary.games;
    if r.stopped {
        format!(
            "{side} finished {done} (it stopped after its first {} games all failed)",
            r.failed
        )
    } else if r.failed > 0 {
        format!("{side} finished {done} ({} failed)", r.failed)
    } else {
        format!("{side} finished {done}")
    }
}

/// The text report: a section per kind of number, each line `A  B  B − A [interval]`,
/// with `*` where the interval leaves out 0.
fn human(head: &[String], a: &Report, b: &Report, d: &Differences) -> String {
    let mut out = String::new();
    for h in head {
        out.push_str(h);
        out.push('\n');
    }
    let pairs = d.decisions.difference.map_or(0, |x| x.n);
    // One list when both sides seat the same agents; each side's when their tables
    // differ (the agents are reused in turn over each side's own seats).
    let agents = if a.agents == b.agents {
        a.agents.join(",")
    } else {
        format!("A {} and B {}", a.agents.join(","), b.agents.join(","))
    };
    // Both sides seat alike (one `--seating`); a side with a single agent name has no
    // seating to tell, so either side's says it.
    let agents = match a.seating.or(b.seating) {
        Some(Mode::Rotate) => format!("{agents} rotated over the seats"),
        Some(Mode::Fixed) => format!("{agents} at fixed seats"),
        None => agents,
    };
    if a.failed + b.failed == 0 {
        out.push_str(&format!(
            "the same {} games (seed {}) for both, agents {agents}; ",
            a.games_requested, a.seed,
        ));
    } else {
        // Only the games both finished pair up: say how many each side finished, and
        // which side stopped early, lest the numbers read as the whole batch.
        out.push_str(&format!(
            "{} games (seed {}) asked of both, agents {agents}; {}, {}; {} finished by both\n",
            a.games_requested,
            a.seed,
            finished("A", a),
            finished("B", b),
            pairs
        ));
    }
    out.push_str("B − A with 95% intervals from the games\npaired by seed (shares in percentage points), * where the interval leaves out 0\n");
    if a.players != b.players {
        out.push_str(&format!(
            "note: A seats {} players and B {}\n",
            a.players, b.players
        ));
    }
    let pct = |x: f64| format!("{:>7.2}%", x * 100.0);
    // Differences of shares are in percentage points.
    let pct_diff = |i: &Difference| interval(i, |x| format!("{:>+7.2}", x * 100.0));
    section(
        &mut out,
        "outcomes (share of deals)",
        &d.outcomes,
        &pct,
        &pct_diff,
    );
    let num = |x: f64| format!("{x:>8.4}");
    let num_diff = |i: &Difference| interval(i, |x| format!("{x:>+8.4}"));
    section(&mut out, "yaku (per deal)", &d.yaku, &num, &num_diff);
    section(&mut out, "bonuses (per deal)", &d.bonuses, &num, &num_diff);
    section(
        &mut out,
        "roles: win rate",
        &d.role_win_rate,
        &pct,
        &pct_diff,
    );
    let chips = |x: f64| format!("{x:>+8.2}");
    section(
        &mut out,
        "roles: chips per deal",
        &d.role_chips_per_deal,
        &chips,
        &|i| interval(i, |x| format!("{x:>+8.2}")),
    );
    section(
        &mut out,
        "seats: win rate",
        &d.seat_win_rate,
        &pct,
        &pct_diff,
    );
    section(
        &mut out,
        "seats: final chips",
        &d.seat_chips,
        &chips,
        &|i| interval(i, |x| format!("{x:>+8.2}")),
    );
    section(
        &mut out,
        "agents: win rate (per seat held)",
        &d.agent_win_rate,
        &pct,
        &pct_diff,
    );
    section(
        &mut out,
        "agents: final chips (per seat held)",
        &d.agent_chips,
        &chips,
        &|i| interval(i, |x| format!("{x:>+8.2}")),
    );
    for t in &d.tallies {
        section(
            &mut out,
            &format!("tally {} (per deal)", t.label),
            &t.values,
            &num,
            &num_diff,
        );
    }
    section(
        &mut out,
        "decisions",
        std::slice::from_ref(&d.decisions),
        &|x| format!("{x:>8.1}"),
        &|i| interval(i, |x| format!("{x:>+8.2}")),
    );
    out
}

/// A difference as `mean [low, high]`, each number written by `num`; without an
/// interval (no game pairs up), only that there is none: a difference from one side's
/// games and nothing is no difference.
fn interval(i: &Difference, num: impl Fn(f64) -> String) -> String {
    match (i.low, i.high) {
        (Some(low), Some(high)) => format!("{} [{}, {}]", num(i.mean), num(low), num(high)),
        _ => "— (no games to pair)".to_string(),
    }
}

/// One section: its title with the column heads, then a line per compared name; a
/// seat or role one side lacks shows `—` for that side, and nothing after.
fn section(
    out: &mut String,
    title: &str,
    rows: &[Diff],
    value: &dyn Fn(f64) -> String,
    difference: &dyn Fn(&Difference) -> String,
) {
    if rows.is_empty() {
        return;
    }
    let w = rows
        .iter()
        .map(|r| view::width(&r.name))
        .max()
        .unwrap_or(0)
        .max(view::width(title).saturating_sub(2));
    let a_w = view::width(&value(0.0));
    out.push_str(&format!(
        "{}  {:>a_w$}  {:>a_w$}  B − A (95%)\n",
        view::pad(title, w + 2),
        "A",
        "B"
    ));
    let side = |x: Option<f64>| match x {
        Some(x) => value(x),
        None => format!("{}—", " ".repeat(a_w.saturating_sub(1))),
    };
    for r in rows {
        let line = format!(
            "  {}  {}  {}  {}{}",
            view::pad(&r.name, w),
            side(r.a),
            side(r.b),
            r.difference.as_ref().map(difference).unwrap_or_default(),
            if r.clear() { " *" } else { "" }
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_is_labelled_with_its_letter_and_file_name() {
        let a = side_label("A", Path::new("rulesets/sangohana.fuda"));
        assert_eq!(a, "A sangohana.fuda");
        assert_eq!(side_label("B", Path::new("-")), "B <stdin>");
    }

    #[test]
    fn share_differences_follow_newcombe() {
        // Newcombe (1998), example (a): 56/70 against 48/80 gives 0.2000 with the
        // interval [0.0524, 0.3339] (method 10).
        let a = Mean::share(48, 80).share_interval();
        let b = Mean::share(56, 70).share_interval();
        let d = share_diff("x", a, b);
        let dd = d.difference.expect("a difference");
        assert!((dd.mean - 0.2).abs() < 1e-6, "{d:?}");
        assert!(
            (dd.low.expect("an interval") - 0.0524).abs() < 1e-4,
            "{d:?}"
        );
        assert!(
            (dd.high.expect("an interval") - 0.3339).abs() < 1e-4,
            "{d:?}"
        );
        assert!(d.clear());
        let same = share_diff("x", a, a);
        assert!(!same.clear() && same.difference.expect("a difference").mean == 0.0);
    }

    #[test]
    fn mean_and_rate_differences() {
        let a = Interval {
            mean: 1.0,
            low: 1.0 - 1.96 * 3.0,
            high: 1.0 + 1.96 * 3.0,
            n: 10,
        };
        let b = Interval {
            mean: 2.0,
            low: 2.0 - 1.96 * 4.0,
            high: 2.0 + 1.96 * 4.0,
            n: 10,
        };
        // Standard errors 3 and 4 add to 5.
        let d = mean_diff("x", a, b);
        assert!(
            (d.difference.and_then(|x| x.high).expect("an interval") - (1.0 + 1.96 * 5.0)).abs()
                < 1e-6,
            "{d:?}"
        );
        // 100 in 100 deals against 150 in 100: 0.5 ± 1.96·√(0.01 + 0.015).
        let r = rate_diff("y", 100, 100, 150, 100);
        let half = 1.96 * 0.025f64.sqrt();
        assert!(
            (r.difference.and_then(|x| x.low).expect("an interval") - (0.5 - half)).abs() < 1e-6,
            "{r:?}"
        );
        assert!(r.clear());
        // Nothing at all on either side is no difference, not a failure.
        assert!(!rate_diff("z", 0, 0, 0, 0).clear());
    }

    #[test]
    fn a_share_difference_stays_within_its_range() {
        let d = diff("x", 0.0, 0.8, 0.8, 0.5, 1.2).within(-1.0, 1.0);
        let dd = d.difference.expect("a difference");
        assert_eq!((dd.low, dd.high), (Some(0.5), Some(1.0)));
        let none = with_pairs(
            diff("y", 0.6, 0.0, -0.6, -0.7, -0.5),
            &[],
            &|_| (0.0, 0.0),
            &|_| (0.0, 0.0),
        );
        let nd = none.difference.expect("a difference");
        assert_eq!((nd.low, nd.high), (None, None));
        assert!(!none.clear());
    }

    #[test]
    fn names_keep_a_s_order_then_b_only() {
        let n = names(
            ["流れ", "当たり"].into_iter(),
            ["上がり", "流れ"].into_iter(),
        );
        assert_eq!(n, ["流れ", "当たり", "上がり"]);
    }
}
