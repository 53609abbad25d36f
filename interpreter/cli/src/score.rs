//! `fuda score`: score one hand (or a JSON-lines batch of hands) with a score table.

use std::path::PathBuf;

use fuda_core::engine::{Cx, EVAL_BUDGET};
use fuda_core::model::{CardIx, CardSet};
use fuda_core::value::{ScoreResult, Type, Value};
use fuda_core::{Program, State};
use miette::miette;
use serde::Serialize;

use crate::outln;
use crate::params::{self, GameParams};
use crate::{render, values, view};

/// Arguments of `fuda score`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The ruleset file (`-`: standard input).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The hand: card ids (or display names) separated by spaces or commas.
    /// Required unless the table takes no cards (a score read off how the round was won,
    /// given with `--set`).
    #[arg(long, value_name = "IDS")]
    pub hand: Option<String>,
    /// Settle a described end of round instead: run this procedure of the ruleset on
    /// the cards given with `--zone` (its arguments, and the variables as the round left
    /// them, given with `--set`), and report each seat's payments and yaku.
    #[arg(long, value_name = "PROC", conflicts_with = "hand")]
    pub settle: Option<String>,
    /// With `--settle`: the cards in a zone, `NAME=IDS` or `NAME[SEAT]=IDS` (SEAT a
    /// number from 0 or a role name such as 親). Cards not named stay in the first
    /// shared zone.
    #[arg(long = "zone", value_name = "ZONE=IDS")]
    pub zones: Vec<String>,
    /// With `--settle`: the dealer's seat (default 0).
    #[arg(long, value_name = "SEAT")]
    pub dealer: Option<String>,
    /// Settle the end of round described in a JSON file: `{"settle": "清算", "dealer": 0,
    /// "zones": {"取り札[0]": "1a 1b …", "伏せ札": "9c"}, "params": {"減算": false}}`
    /// (`-`: standard input).
    #[arg(long, value_name = "FILE.json", conflicts_with_all = ["hand", "batch"])]
    pub state: Option<PathBuf>,
    /// The score table to use (default: the first one declared).
    #[arg(long, value_name = "NAME")]
    pub table: Option<String>,
    /// Set an argument of the score table (`win=tsumo`, `first_turn=true`) or a
    /// parameter of the ruleset (`players=4`); a name both declare is the table's.
    /// With `--settle`: an argument of the procedure (`how=ツモ`), a variable
    /// (`本場=2`, `立直[1]=true`) or a parameter, in that order. Booleans are `true` or
    /// `false`. Each name at most once.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Score every line of a JSON-lines file (`{"hand": "…", "win": "ron"}`), one JSON
    /// result per line, each with the `line` it answers; blank lines are skipped (`-`:
    /// standard input, answered line by line as it comes).
    #[arg(long, value_name = "FILE.jsonl", conflicts_with = "hand")]
    pub batch: Option<PathBuf>,
}

/// Scores; 0 on success, 1 when a hand (or any batch line) is malformed. With `--json`
/// an error that stops the command is also printed on stdout as `{"error": …}`, so a
/// program reading the output gets JSON either way.
pub fn run(args: &Args) -> miette::Result<u8> {
    let result = run_text(args);
    if let (true, Err(e)) = (args.json, &result) {
        outln!("{}", serde_json::json!({ "error": render::one_line(e) }));
    }
    result
}

fn run_text(args: &Args) -> miette::Result<u8> {
    let p = crate::load::program(&args.file)?;
    if args.settle.is_some() || args.state.is_some() {
        return crate::settle::run(&p, args);
    }
    let table = Table::new(&p, args.table.as_deref())?;
    let mut base = Settings::new(&table);
    for (name, text) in params::assignments(&args.set)? {
        table.set(&mut base, name, Given::Text(text))?;
    }
    if let Some(batch) = &args.batch {
        return batch_run(&table, &base, batch);
    }
    let hand = match (&args.hand, table.hand_param) {
        (Some(text), _) => values::cards(&p, text)?,
        (None, None) => Vec::new(),
        (None, Some(_)) => {
            return Err(miette!(
                code = "fuda::cli::no-hand-given",
                help = "list its cards: `--hand \"1-crane 3-curtain …\"` (or score a JSON-lines batch with `--batch`)",
                "score table `{}` scores a hand: give it with `--hand`",
                p.scores[table.index as usize].name
            ))
        }
    };
    let scored = table.score(hand, base)?;
    if args.json {
        outln!("{}", to_json(&p, &scored));
    } else {
        render::out(&human(&p, &scored, table.hand_param.is_some()));
    }
    Ok(0)
}

/// What `--set` and a batch line's fields give: the table's arguments (the hand's slot
/// stays empty) and the ruleset's parameters, `None` for a default.
#[derive(Clone)]
struct Settings {
    args: Vec<Option<Value>>,
    params: GameParams,
}

impl Settings {
    fn new(table: &Table<'_>) -> Settings {
        Settings {
            args: vec![None; table.def_params().len()],
            params: vec![None; table.p.params.len()],
        }
    }
}

/// A value as given: command-line text or a batch line's JSON.
enum Given<'v> {
    Text(&'v str),
    Json(&'v serde_json::Value),
}

/// A score table and where its hand goes.
struct Table<'p> {
    p: &'p Program,
    index: u16,
    /// The parameter that takes the hand: the first of type `cards` (none for a table
    /// that scores only how a round was won).
    hand_param: Option<usize>,
}

impl<'p> Table<'p> {
    fn new(p: &'p Program, name: Option<&str>) -> miette::Result<Table<'p>> {
        let names = || p.scores.iter().map(|s| s.name.as_str());
        let index = match name {
            Some(n) => p
                .score_named(n)
                .ok_or_else(|| values::unknown_name("score table", n, names()))?,
            None => {
                if p.scores.is_empty() {
                    return Err(miette!(
                        code = "fuda::cli::no-score",
                        help = "`fuda score` scores with a `score` table of the ruleset (docs/language.md, section `score`)",
                        "`{}` declares no score table",
                        p.title
                    ));
                }
                0
            }
        };
        let def = &p.scores[index as usize];
        let hand_param = def.params.iter().position(|(_, ty, _)| *ty == Type::Cards);
        Ok(Table {
            p,
            index,
            hand_param,
        })
    }

    fn def_params(&self) -> &'p [(String, Type, Option<fuda_core::ir::Expr>)] {
        &self.p.scores[self.index as usize].params
    }

    /// Sets `name` to `value`: an argument of the table, else a parameter of the
    /// ruleset (which the table may read, like `桐素と対の倍`, and which gives the
    /// number of players the payment line counts). A name both declare is the table's
    /// argument: inside the table it hides the ruleset's parameter of that name.
    fn set(&self, to: &mut Settings, name: &str, value: Given<'_>) -> miette::Result<()> {
        let p = self.p;
        let ps = self.def_params();
        match ps.iter().position(|(n, ..)| n == name) {
            Some(i) if Some(i) == self.hand_param => Err(miette!(
                code = "fuda::cli::hand-set",
                help = "give the hand with `--hand` (or `hand` in a batch line)",
                "`{name}` is the hand"
            )),
            Some(i) => {
                to.args[i] = Some(match value {
                    Given::Text(t) => values::from_text(p, &ps[i].1, t, name)?,
                    Given::Json(v) => values::from_json(p, &ps[i].1, v, name)?,
                });
                Ok(())
            }
            None => match params::param_index(p, name) {
                Some(i) => match value {
                    Given::Text(t) => params::set_text(p, &mut to.params, i, t),
                    Given::Json(v) => params::set_json(p, &mut to.params, i, v),
                },
                None => Err(values::unknown_name(
                    &format!(
                        "parameter of `{}` or of the ruleset",
                        p.scores[self.index as usize].name
                    ),
                    name,
                    ps.iter()
                        .enumerate()
                        .filter(|(i, _)| Some(*i) != self.hand_param)
                        .map(|(_, (n, ..))| n.as_str())
                        .chain(p.params.iter().map(|d| d.name.as_str())),
                )),
            },
        }
    }

    /// Checks the hand's size and scores it with the other arguments, the ruleset's
    /// parameters set as given.
    fn score(&self, hand: Vec<CardIx>, set: Settings) -> miette::Result<Scored> {
        let p = self.p;
        let def = &p.scores[self.index as usize];
        // Groups already formed (`over P(hand, 副)`) hold some of the pattern's cards:
        // the hand holds the rest.
        let formed: usize = match &def.formed {
            Some(fuda_core::ir::Expr::Local(i)) => match set.args.get(*i as usize) {
                Some(Some(Value::List(items))) => items
                    .iter()
                    .map(|v| match v {
                        Value::Cards(c) => c.len(),
                        Value::Card(_) => 1,
                        _ => 0,
                    })
                    .sum(),
                _ => 0,
            },
            _ => 0,
        };
        if let Some((pat, ..)) = &def.over {
            let pat = &p.patterns[*pat as usize];
            let want = pat.size.saturating_sub(formed);
            // Alternatives of different sizes each answer for themselves.
            let one_size = pat
                .alternatives
                .iter()
                .all(|a| p.patterns.get(a.pattern as usize).map(|q| q.size) == Some(pat.size));
            if hand.len() != want && one_size {
                let game = p.title.split_whitespace().next().unwrap_or("");
                let and_formed = if formed > 0 {
                    format!(" besides the {formed} cards of its melds")
                } else {
                    String::new()
                };
                return Err(miette!(
                    code = "fuda::cli::hand-size",
                    help = format!(
                        "list every card of the hand: {want} ids, the winning card included"
                    ),
                    "a {game} hand has {want} cards{and_formed}, got {}",
                    hand.len()
                ));
            }
        }
        let Settings { mut args, params } = set;
        match self.hand_param {
            Some(h) => args[h] = Some(Value::Cards(hand.iter().copied().collect())),
            None if !hand.is_empty() => {
                return Err(miette!(
                    code = "fuda::cli::no-hand",
                    help = "leave out `--hand`: the table reads only its other arguments (`--set NAME=VALUE`)",
                    "score table `{}` takes no cards, so it scores no hand",
                    def.name
                ))
            }
            None => {}
        }
        // The melds were read apart from the hand, each from the first copies of its
        // tiles: trade a copy the hand (or an earlier meld) holds for a free one.
        if let Some(fuda_core::ir::Expr::Local(i)) = &def.formed {
            if let Some(Some(Value::List(items))) = args.get(*i as usize) {
                let mut used: CardSet = hand.iter().copied().collect();
                let items: Vec<Value> = items
                    .iter()
                    .map(|v| match v {
                        Value::Cards(cs) => {
                            let mut out = CardSet::EMPTY;
                            for c in cs.iter() {
                                let free = p.deck.face_set(c).minus(used).first().unwrap_or(c);
                                used.insert(free);
                                out.insert(free);
                            }
                            Value::Cards(out)
                        }
                        other => other.clone(),
                    })
                    .collect();
                args[*i as usize] = Some(Value::List(items.into()));
            }
        }
        let rendered = |e: fuda_core::RuntimeError| {
            miette::Report::new(e.to_diagnostic().render_with(&p.sources))
        };
        // A blank table with the parameters set: what the table reads of the ruleset
        // (a `param`, the seat count) is what a game with these parameters would read.
        let st = State::blank(p, &params, 0).map_err(rendered)?;
        let mut scratch = vec![Value::Unit; 64];
        let mut cx = Cx {
            p,
            b: Some(&st.board),
            locals: &mut scratch,
            groups: &[],
            budget: EVAL_BUDGET,
            at: def.loc,
        };
        let mut full = Vec::with_capacity(args.len());
        for ((name, _, default), given) in def.params.iter().zip(args) {
            full.push(match (given, default) {
                (Some(v), _) => v,
                (None, Some(d)) => cx.eval(d).map_err(rendered)?,
                (None, None) => {
                    return Err(miette!(
                        code = "fuda::cli::missing-argument",
                        help = format!("give it with `--set {name}=VALUE`"),
                        "score table `{}` needs `{name}`",
                        def.name
                    ))
                }
            });
        }
        let result = fuda_core::score::evaluate(&mut cx, self.index, full).map_err(rendered)?;
        Ok(Scored {
            hand,
            result,
            players: players(p, &params),
        })
    }
}

/// Whether the ruleset pays a scored result's total from each other player (`pay
/// r.total from each others(x) to chips[x]`): only then does a scored hand's report say
/// what each other player pays. A game whose wins are paid otherwise (a dealer's share,
/// splits by how the win was made) says where to look instead.
fn pays_each_other(p: &Program) -> bool {
    use fuda_core::ir::{Expr, Op, PayFrom, ScoreField};
    p.procs.iter().any(|q| {
        q.code.iter().any(|op| {
            matches!(
                op,
                Op::Pay {
                    amount: Expr::ScoreField(ScoreField::Total, _),
                    from: PayFrom::Each(..),
                    ..
                }
            )
        })
    })
}

/// The number of players payments are shown for: the `players` parameter as set, else
/// the seat count.
fn players(p: &Program, params: &GameParams) -> i64 {
    match params::param_index(p, "players") {
        Some(i) => params::resolved(p, params).map_or(0, |v| v[i].int()),
        None => params::seat_count(p, params).map(i64::from).unwrap_or(2),
    }
}

/// A scored hand.
struct Scored {
    hand: Vec<CardIx>,
    result: ScoreResult,
    players: i64,
}

/// The JSON shape of a result (field order as documented).
#[derive(Serialize)]
struct JsonOut<'a> {
    hand: Vec<String>,
    name: &'a str,
    /// Over a pattern of alternatives: the one that held.
    #[serde(skip_serializing_if = "Option::is_none")]
    shape: Option<&'a str>,
    yaku: &'a [fuda_core::value::YakuLine],
    base_yaku: &'a [fuda_core::value::YakuLine],
    bonuses: &'a [fuda_core::value::YakuLine],
    base: i64,
    factor: i64,
    bonus: i64,
    total: i64,
    groups: Groups,
    /// Null for a ruleset that pays its wins otherwise (see [`pays_each_other`]).
    payments: Option<Payments>,
}

/// Group name → card ids, kept in the pattern's order; a name appears once (a JSON
/// parser keeps one value per key), a repeated group's copies under it together.
struct Groups(Vec<(String, GroupValue)>);

/// A group's cards: a list of ids, or for a repeated group (`group 面子*3`) a list of
/// such lists, one per copy in the split's order.
#[derive(Serialize)]
#[serde(untagged)]
enum GroupValue {
    One(Vec<String>),
    Copies(Vec<Vec<String>>),
}

impl Serialize for Groups {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

#[derive(Serialize)]
struct Payments {
    each_other_pays: i64,
    players: i64,
    winner_receives: i64,
}

/// The documented JSON object, on one line (fields in the documented order).
fn to_json(p: &Program, s: &Scored) -> String {
    let r = &s.result;
    let out = JsonOut {
        hand: values::ids(p, &s.hand),
        name: &r.name,
        shape: r.shape.as_deref(),
        yaku: &r.yaku,
        base_yaku: &r.base_yaku,
        bonuses: &r.bonuses,
        base: r.base,
        factor: r.factor,
        bonus: r.bonus,
        total: r.total,
        groups: Groups(
            view::group_runs(&r.groups)
                .into_iter()
                .map(|(g, copies)| {
                    let ids = |cs: &fuda_core::model::CardSet| {
                        values::ids(p, &cs.iter().collect::<Vec<_>>())
                    };
                    let value = match copies.as_slice() {
                        [one] => GroupValue::One(ids(one)),
                        _ => GroupValue::Copies(copies.iter().map(ids).collect()),
                    };
                    (g.to_string(), value)
                })
                .collect(),
        ),
        payments: pays_each_other(p).then(|| Payments {
            each_other_pays: r.total,
            players: s.players,
            winner_receives: r.total * (s.players - 1),
        }),
    };
    serde_json::to_string(&out).unwrap_or_default()
}

/// The text report of a scored hand.
fn human(p: &Program, s: &Scored, has_hand: bool) -> String {
    let r = &s.result;
    let mut out = match has_hand {
        true => format!("hand: {}\n", view::cards(p, &s.hand)),
        false => String::new(),
    };
    if r.yaku.is_empty() {
        out.push_str("no yaku: total 0\n");
        return out;
    }
    out.push_str(&format!("{}: {}\n", r.name, r.total));
    for line in view::yaku_lines(r) {
        out.push_str(&format!("  {line}\n"));
    }
    out.push_str(&format!("  {}\n", view::sum_line(r)));
    if let Some(shape) = &r.shape {
        out.push_str(&format!("  shape: {shape}\n"));
    }
    for line in view::group_lines(p, &r.groups) {
        out.push_str(&format!("  {line}\n"));
    }
    // A game without a ledger records its points and pays nothing.
    if p.ledger.is_empty() {
        out.push_str(&format!(
            "the winner scores {} (recorded, not paid: the ruleset keeps no ledger)\n",
            r.total
        ));
        return out;
    }
    if !pays_each_other(p) {
        out.push_str(
            "paid as the ruleset's procedures say: `--settle PROC` runs one on a described win\n",
        );
        return out;
    }
    let others = s.players - 1;
    out.push_str(&format!(
        "each other player pays {} (the winner receives {}×{others} = {} with {} players)\n",
        r.total,
        r.total,
        r.total * others,
        s.players
    ));
    out
}

/// Scores each line of a JSON-lines file (a line with `zones` is settled instead); a
/// bad line gives an error object and the run goes on.
fn batch_run(table: &Table<'_>, base: &Settings, path: &std::path::Path) -> miette::Result<u8> {
    crate::batch::run(path, |line| {
        // The usual line, `{"hand": "…"}`, is read straight into its one field: what
        // the general reading below would do with it, without building a JSON tree.
        if let Ok(h) = serde_json::from_str::<HandOnly<'_>>(line) {
            let hand = values::cards(table.p, &h.hand)?;
            return table
                .score(hand, base.clone())
                .map(|s| to_json(table.p, &s));
        }
        let v = json_line(line)?;
        // A line with `zones` describes an end of round to settle.
        if crate::settle::is_settlement(&v) {
            return crate::settle::batch_line(table.p, &v, None);
        }
        batch_line(table, base, v).map(|s| to_json(table.p, &s))
    })
}

/// A batch line with its hand, as a string, and no other field.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct HandOnly<'a> {
    /// The cards; borrowed from the line unless it escapes a character.
    #[serde(borrow)]
    hand: std::borrow::Cow<'a, str>,
}

/// A batch line read as JSON.
fn json_line(line: &str) -> miette::Result<serde_json::Value> {
    serde_json::from_str(line).map_err(|e| {
        miette!(
            code = "fuda::cli::json",
            help = "each line is a JSON object like {\"hand\": \"…\"}",
            "not JSON: {}",
            render::json_error(&e)
        )
    })
}

/// One hand of a batch: `hand`, and any argument of the table or parameter of the
/// ruleset, each taking the place of a `--set` of the same name.
fn batch_line(table: &Table<'_>, base: &Settings, v: serde_json::Value) -> miette::Result<Scored> {
    let serde_json::Value::Object(obj) = v else {
        return Err(miette!(
            code = "fuda::cli::json",
            "each line is a JSON object like {{\"hand\": \"…\"}}"
        ));
    };
    let mut set = base.clone();
    let mut hand = None;
    for (k, v) in &obj {
        if k == "hand" {
            hand = Some(values::cards_json(table.p, v)?);
            continue;
        }
        table.set(&mut set, k, Given::Json(v))?;
    }
    let hand = hand.ok_or_else(|| {
        miette!(
            code = "fuda::cli::json",
            help = "add the hand's cards: {\"hand\": \"1-crane …\"}",
            "the line has no `hand`"
        )
    })?;
    table.score(hand, set)
}
