//! `fuda play`: a person plays one seat against computer players, reading plain lines
//! from stdin (so it works piped), and sees only what that seat may see, until each
//! deal ends: then every seat's cards are shown, and the game waits for Enter.

mod chain;
mod preview;
mod watch;

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use fuda_core::agents::{by_name, Agent};
use fuda_core::engine::{Event, Move, Pending};
use fuda_core::ir::DecideKind;
use fuda_core::model::CardSet;
use fuda_core::play::{agent_seed, chips_of};
use fuda_core::{Program, RuntimeError, State};
use miette::miette;

use crate::input::{self, Reply};
use crate::limits::MAX_INPUT_LINE;
use crate::lines::{Line, Lines};
use crate::params;
use crate::replay::{Ended, Replay};
use crate::view;
use crate::{errln, outln};
use watch::Watch;

/// Exit code when input ends (or the person quits) before the game does.
const LEFT: u8 = 2;

/// Arguments of `fuda play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The ruleset file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The seat you play (0 deals first only if the draw for dealer says so).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub seat: u8,
    /// Seed for the shuffle (default: from the clock; it is told when the game is over).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Computer players by seat, comma-separated and reused in turn (random, eager, greedy, planner).
    #[arg(long, default_value = "greedy", value_name = "A,B,C")]
    pub agents: String,
    /// Number of players (sets the ruleset's `players` parameter).
    #[arg(long, value_name = "P")]
    pub players: Option<i64>,
    /// Set a game parameter, e.g. `deals=1`.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Save the game as a replay (TOML) that `fuda replay` re-runs exactly; the file is
    /// written as the game starts, so a path that cannot be written is refused at once.
    #[arg(long, value_name = "FILE.toml")]
    pub record: Option<PathBuf>,
    /// Go on after each deal's result without waiting for Enter (for scripted play);
    /// otherwise a line is read there, piped input too (`quit` or its end leaves).
    #[arg(long)]
    pub no_pause: bool,
}

/// Plays one game; 0 at its end, 2 if input ends first, 1 on a rules error.
pub fn run(args: &Args) -> miette::Result<u8> {
    let p = crate::load::program(&args.file)?;
    let game_params = params::game_params(&p, &args.set, args.players)?;
    let seats = params::seat_count(&p, &game_params)?;
    let me = args.seat;
    if me >= seats {
        return Err(miette!(
            code = "fuda::cli::no-such-seat",
            help = format!("seats are 0 to {}", seats - 1),
            "there is no seat {me}"
        ));
    }
    let names = params::agent_names(&args.agents)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    // Written now, so that a path it cannot be written to stops us before the game.
    let mut record = Recorder::start(args, &p, seed)?;
    let mut bots: Vec<Option<Box<dyn Agent>>> = (0..seats as usize)
        .map(|s| {
            if s == me as usize {
                None
            } else {
                by_name(&names[s % names.len()], agent_seed(seed, s))
            }
        })
        .collect();
    let mut st = State::new(&p, &game_params, seed).map_err(|e| runtime(&p, &e))?;
    st.keep_log = true;
    // The rules may ask whether a person plays a seat (`person(s)`).
    st.board.people = 1u32 << (me % 32);
    // The seed is told only when the game is over: with it, the same game could be
    // played again from another seat, every hidden hand in view.
    outln!("{} — you play seat {me} of {seats}", p.title);
    outln!("type a move's number or its name (`name card` for a card),");
    outln!("`?` for the table, `quit` to leave");
    let mut lines = Lines::new(std::io::stdin().lock(), MAX_INPUT_LINE);
    let mut session = Session {
        p: &p,
        me,
        events_seen: 0,
        last_ledger: None,
        deal: 1,
        watch: Watch::new(me),
        mine: CardSet::EMPTY,
        dealer: 0,
        columns: view::screen_width(),
        pause: !args.no_pause,
        typed_ahead: Default::default(),
    };
    let mut recorded: Vec<Vec<usize>> = Vec::new();
    // A person playing a house rule is told once when its payments stop balancing, as
    // `fuda simulate` would fail the game: the ledger's sum is checked at each decision.
    let ledger0 = st.ledger_sum();
    let mut ledger_told = false;
    loop {
        // `Moves`: a `choose` with one move waits too, so that it is shown, and each
        // move's card is seen as its body ends.
        let finished = match st.advance_with(&p, &mut session.watch) {
            Ok(f) => f,
            Err(e) => return Err(failed(&p, &e, seed, &mut record, &recorded)),
        };
        if let Err(why) = session.report(&st, finished, &mut lines) {
            return leave(&p, &st, why, seed, &mut record, &recorded);
        }
        let ledger = st.ledger_sum();
        if ledger != ledger0 && !ledger_told {
            ledger_told = true;
            errln!(
                "warning: the ledger ({}) now sums to {ledger}, not {ledger0}: the rules create or lose chips, and `fuda simulate` would stop this game",
                p.ledger_names()
            );
        }
        if finished {
            break;
        }
        let pending = st
            .pending()
            .expect("a decision waits when the game is not over")
            .clone();
        // A move nobody had a choice in is shown, asked of no one and not recorded: a
        // replay runs with `advance`, which takes it as it comes.
        if pending.is_forced() {
            if pending.seats.iter().any(|s| s.seat == me) {
                session.point_out_new(&st, true);
            }
            let choices = vec![0; pending.seats.len()];
            session.remember_moves(&st, &pending, &choices);
            if let Err(e) = st.apply(&p, &choices) {
                return Err(failed(&p, &e, seed, &mut record, &recorded));
            }
            continue;
        }
        let mut choices = Vec::with_capacity(pending.seats.len());
        for sm in &pending.seats {
            let choice = match bots[sm.seat as usize].as_mut() {
                Some(bot) => bot
                    .choose(&p, &st, sm.seat, &sm.moves)
                    .min(sm.moves.len() - 1),
                None => {
                    // Kept on disk while the person thinks (at most once a second, so
                    // fast piped input does not rewrite the file at every move): a
                    // game killed then keeps its moves so far.
                    if let Some(r) = &mut record {
                        r.checkpoint(&recorded)?;
                    }
                    match session.ask(&st, &pending, &sm.moves, &mut lines) {
                        Ok(i) => i,
                        Err(why) => return leave(&p, &st, why, seed, &mut record, &recorded),
                    }
                }
            };
            choices.push(choice);
        }
        session.remember_moves(&st, &pending, &choices);
        recorded.push(choices.clone());
        if let Err(e) = st.apply(&p, &choices) {
            return Err(failed(&p, &e, seed, &mut record, &recorded));
        }
    }
    let chips = chips_of(&p, &st);
    if let Some(r) = &mut record {
        r.finish(&recorded, Ended::Finished, Some(chips.clone()))?;
    }
    // Payments after the last deal (a pot left over, paid to the leader) are
    // shown, so that the final chips add up from what was shown.
    if let Some(last) = &session.last_ledger {
        let now = view::ledger_under(&p, &st, session.dealer, me);
        if now != *last {
            outln!("── after the last deal");
            crate::render::out(&now);
        }
    }
    outln!("\ngame over");
    // Outcome labels in order of first appearance, with how many deals ended so; the
    // last deal's dealer, whose roles label the seats below (the deal may already have
    // passed on to a next deal that is never played).
    let mut tally: Vec<(&str, usize)> = Vec::new();
    let mut last_dealer = st.board.dealer;
    for e in &st.events {
        if let Event::Outcome(o, dealer) = e {
            last_dealer = *dealer;
            match tally.iter_mut().find(|(l, _)| *l == &**o) {
                Some((_, n)) => *n += 1,
                None => tally.push((o, 1)),
            }
        }
    }
    if !tally.is_empty() {
        let parts: Vec<String> = tally.iter().map(|(l, n)| format!("{l} {n}")).collect();
        outln!("  deals: {}", parts.join(", "));
    }
    for (s, c) in chips.iter().enumerate() {
        outln!(
            "  {}  {c:+}",
            view::seat_under(&p, &st, last_dealer, s as u8, Some(me))
        );
    }
    outln!("seed {seed} (play it again with --seed {seed})");
    Ok(0)
}

/// Leaves the game before its end (input ended, or the person quit): says why and the
/// seed, and keeps the moves so far in the record; exit code 2.
fn leave(
    p: &Program,
    st: &State,
    why: &str,
    seed: u64,
    record: &mut Option<Recorder>,
    moves: &[Vec<usize>],
) -> miette::Result<u8> {
    errln!("{why} before the game ended: leaving the game");
    outln!("seed {seed} (play it again with --seed {seed})");
    if let Some(r) = record {
        r.finish(moves, Ended::Left, Some(chips_of(p, st)))?;
    }
    Ok(LEFT)
}

/// A rules error that stops the game: the record keeps the moves made so far, with the
/// error, and the seed is told (as at any end) so the game can be played again.
fn failed(
    p: &Program,
    e: &RuntimeError,
    seed: u64,
    record: &mut Option<Recorder>,
    moves: &[Vec<usize>],
) -> miette::Report {
    let report = runtime(p, e);
    errln!("the rules stopped the game");
    outln!("seed {seed} (play it again with --seed {seed})");
    if let Some(r) = record {
        r.replay.error = Some(crate::replay::first_line(&e.message));
        r.replay.chips = None;
        if let Err(save) = r.finish(moves, Ended::Failed, None) {
            // The game's own error is what the person must see; the lost record is
            // said on the side.
            crate::render::err(&crate::render::report(&save));
        }
    }
    report
}

/// The replay file of `--record`: written as the game starts (checking that it can
/// be), again before the person is asked (at most once a second), and with every
/// move when the game ends, the person leaves or the rules stop it.
struct Recorder {
    path: PathBuf,
    replay: Replay,
    /// When the file was last written.
    saved: std::time::Instant,
    /// How many moves the file holds.
    saved_moves: usize,
}

impl Recorder {
    /// Writes the record of a game not yet played; `None` without `--record`.
    fn start(args: &Args, p: &Program, seed: u64) -> miette::Result<Option<Recorder>> {
        let Some(path) = &args.record else {
            return Ok(None);
        };
        let dir = crate::replay::record_folder(path)?;
        refuse_record_path(path, &args.file, p)?;
        let text = crate::read::read_capped(&args.file).unwrap_or_default();
        let ruleset = crate::replay::ruleset_field(&args.file, &dir);
        // `fuda replay` reads a ruleset only from below the replay's folder: said now,
        // while the game can still be recorded elsewhere.
        if let Err(why) = crate::replay::can_name(&ruleset, &dir) {
            errln!(
                "warning: `fuda replay {}` will not find the ruleset: {why}",
                crate::stdin::shown(path)
            );
        }
        let mut set = args.set.clone();
        if let Some(n) = args.players {
            if let Some(i) = params::players_param(p) {
                set.push(format!("{}={n}", p.params[i].name));
            }
        }
        let r = Recorder {
            path: path.clone(),
            replay: Replay {
                ruleset,
                ruleset_hash: crate::replay::text_hash(&text),
                seed,
                set,
                moves: Vec::new(),
                ended: None,
                chips: None,
                error: None,
                people: vec![args.seat],
            },
            saved: std::time::Instant::now(),
            saved_moves: 0,
        };
        crate::replay::save(&r.path, &r.replay)?;
        Ok(Some(r))
    }

    /// Writes the moves so far of a game still going, unless nothing changed or the
    /// file was written less than a second ago.
    fn checkpoint(&mut self, moves: &[Vec<usize>]) -> miette::Result<()> {
        if moves.len() == self.saved_moves
            || self.saved.elapsed() < std::time::Duration::from_secs(1)
        {
            return Ok(());
        }
        self.replay.moves = moves.to_vec();
        crate::replay::save(&self.path, &self.replay)?;
        self.saved = std::time::Instant::now();
        self.saved_moves = moves.len();
        Ok(())
    }

    /// Writes the whole game: its moves, how it ended and the chips then (none for
    /// a game the rules stopped).
    fn finish(
        &mut self,
        moves: &[Vec<usize>],
        ended: Ended,
        chips: Option<Vec<i64>>,
    ) -> miette::Result<()> {
        self.replay.moves = moves.to_vec();
        self.replay.ended = Some(ended);
        self.replay.chips = chips;
        crate::replay::save(&self.path, &self.replay)?;
        errln!("replay saved to {}", crate::stdin::shown(&self.path));
        Ok(())
    }
}

/// Refuses a `--record` path that would overwrite what the game was loaded from (the
/// ruleset or a file it imports) or that is no regular file (a FIFO would block the
/// write forever, a device would swallow it).
fn refuse_record_path(record: &Path, ruleset: &Path, p: &Program) -> miette::Result<()> {
    if let Some(what) = crate::read::not_regular(record) {
        return Err(miette!(
            code = "fuda::cli::write",
            help = "record to a new .toml file, or to a replay written before",
            "cannot record the game to `{}`: {what}",
            crate::stdin::shown(record)
        ));
    }
    // A path that does not exist yet cannot be a loaded file.
    let Ok(target) = record.canonicalize() else {
        return Ok(());
    };
    // Imports are named from the ruleset's folder; the ruleset itself as given.
    let folder = match ruleset.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let loaded = std::iter::once(ruleset.to_path_buf())
        .chain(p.sources.iter().map(|s| folder.join(&s.name)));
    for file in loaded {
        if file.canonicalize().is_ok_and(|f| f == target) {
            return Err(miette!(
                code = "fuda::cli::write",
                help = "record to a .toml file of its own, e.g. `--record game.toml`",
                "cannot record the game to `{}`: it is a file this game's rules were loaded from (`{}`)",
                crate::stdin::shown(record),
                crate::stdin::shown(&file)
            ));
        }
    }
    Ok(())
}

/// What the loop keeps between decisions.
struct Session<'p> {
    p: &'p Program,
    me: u8,
    /// The ledger line shown as the last deal ended, to tell a payment after it (a pot
    /// left after the last deal paid to the leader).
    last_ledger: Option<String>,
    /// Events already shown.
    events_seen: usize,
    /// The deal in progress, from 1.
    deal: usize,
    /// Moves waiting to be shown, and the seats' cards as deals ended.
    watch: Watch,
    /// The dealer when the last decision was taken: events are reported with the
    /// roles of the deal they happened in.
    dealer: u8,
    /// The cards in the person's own zones at their last decision, to point out
    /// what came in since (a drawn card, a new deal).
    mine: CardSet,
    /// The screen's width, which lists of cards are wrapped to.
    columns: usize,
    /// Whether to wait for Enter after each deal's result.
    pause: bool,
    /// The rest of a line that answered several decisions in a row (see `chain`): the
    /// answers of the person's next decisions, checked when the line was read.
    typed_ahead: std::collections::VecDeque<String>,
}

impl Session<'_> {
    /// Shows what happened since the last decision: the moves taken, then events.
    /// While the next decision is another computer's, a move whose card was hidden when
    /// chosen and whose body still runs (the next decision is one inside it) waits,
    /// with everything after it, until its body ends and what the person saw of it is
    /// known. After each deal's result, every seat's cards are shown and the person is
    /// asked to press Enter (not after the last deal: the game's end follows); `Err`
    /// says why the person left there.
    fn report(
        &mut self,
        st: &State,
        finished: bool,
        lines: &mut Lines<impl BufRead>,
    ) -> Result<(), &'static str> {
        let mine_next = st
            .pending()
            .is_some_and(|d| d.seats.iter().any(|s| s.seat == self.me));
        let now = finished || mine_next;
        if !now && self.watch.moves.waiting() {
            return Ok(());
        }
        let visible = now.then(|| st.visible_to(self.p, self.me));
        for line in self.watch.moves.lines(self.p, visible) {
            outln!("{line}");
        }
        if finished {
            self.watch.moves.clear();
        }
        let new = &st.events[self.events_seen..];
        // The last deal of a game that is over: nothing follows it but the game's end.
        let last_outcome = new
            .iter()
            .rposition(|e| matches!(e, Event::Outcome(..)))
            .filter(|_| finished);
        for (k, e) in new.iter().enumerate() {
            match e {
                Event::Outcome(o, dealer) => {
                    outln!("── deal {} ends: {o}", self.deal);
                    self.deal += 1;
                    // The next deal's hand is new whole, a card dealt again included.
                    self.mine = CardSet::EMPTY;
                    // As it stood at the outcome, with the roles of the deal that ended
                    // (the winner may deal next, and the next deal's ante may be paid).
                    let ledger = self
                        .watch
                        .moves
                        .ledger_at_outcome()
                        .unwrap_or_else(|| view::ledger_under(self.p, st, *dealer, self.me));
                    crate::render::out(&ledger);
                    self.last_ledger = Some(ledger);
                    self.show_hands();
                    if self.pause && last_outcome != Some(k) {
                        pause(lines)?;
                    }
                }
                Event::Record(s, r, _) => {
                    outln!(
                        "{} scores {}: {}",
                        view::seat_under(self.p, st, self.dealer, *s, Some(self.me)),
                        r.name,
                        r.total
                    );
                    // What it is made of, as `fuda score` shows it, then the cards scored,
                    // as split: a winner's hand is shown to the table.
                    for line in view::yaku_lines(r) {
                        outln!("  {line}");
                    }
                    if !r.yaku.is_empty() {
                        outln!("  {}", view::sum_line(r));
                    }
                    let groups = view::group_rows(self.p, &r.groups);
                    crate::render::out(&view::rows(&groups, 2, 1, self.columns));
                }
                Event::Say(m) => outln!("{m}"),
                Event::Tally(..) => {}
            }
        }
        self.events_seen = st.events.len();
        Ok(())
    }

    /// Every seat's cards as the deal that just ended left them: the deal is over, so
    /// the hands hidden during it are shown too.
    fn show_hands(&mut self) {
        let hands = self.watch.hands_at_outcome();
        if hands.is_empty() {
            return;
        }
        outln!("  every seat's cards as the deal ended:");
        let rows: Vec<(String, Vec<String>)> = hands
            .iter()
            .map(|(label, cs)| (label.clone(), view::card_words(self.p, cs)))
            .collect();
        crate::render::out(&view::rows(&rows, 4, 2, self.columns));
    }

    /// Keeps the moves taken (not the passes) to announce after they run; the
    /// person's own choices were echoed as made.
    fn remember_moves(&mut self, st: &State, pending: &Pending, choices: &[usize]) {
        self.dealer = st.board.dealer;
        self.watch.moves.keep(self.p, st, pending, choices);
    }

    /// Says which of the person's cards are new since their last decision. Before a
    /// move they have no choice in, only those no other seat sees: a dealer's first
    /// draw follows the deal at once, and the dealt hand is told before it; cards just
    /// captured face up wait for the person's next real decision.
    fn point_out_new(&mut self, st: &State, only_private: bool) {
        // Only the seat's cards it can see: a face-down pile it owns stays unseen.
        let held = own_cards(st, self.me).inter(st.visible_to(self.p, self.me));
        let mut mine = held;
        if only_private {
            let mut private = held;
            for s in (0..st.board.seats).filter(|s| *s != self.me) {
                private = private.minus(st.visible_to(self.p, s));
            }
            // The cards told before that are still here, and the private ones: public
            // newcomers stay new for the next decision.
            mine = self.mine.inter(held).union(private);
        }
        let new: Vec<u16> = mine.minus(self.mine).iter().collect();
        if !new.is_empty() {
            let head = "new to you: ";
            let indent = view::width(head);
            for line in view::wrap(head, &view::card_words(self.p, &new), indent, self.columns) {
                outln!("{line}");
            }
        }
        self.mine = mine;
    }

    /// Asks the person for a move until the input names a legal one; `Err` says why
    /// the person left (end of input or `quit`).
    fn ask(
        &mut self,
        st: &State,
        pending: &Pending,
        moves: &[Move],
        lines: &mut Lines<impl BufRead>,
    ) -> Result<usize, &'static str> {
        let p = self.p;
        let code = st.pending_code(p);
        // A part of a line typed at an earlier decision answers this one.
        if let Some(text) = self.typed_ahead.pop_front() {
            if let Reply::Move(i) = input::parse(p, pending, code, moves, &text) {
                outln!("you: {}", pending.describe(p, code, &moves[i]));
                return Ok(i);
            }
            // Checked when typed, so not expected: the person is asked instead.
            self.typed_ahead.clear();
        }
        let what = if pending.kind == DecideKind::Claim {
            "you may claim"
        } else {
            "your move"
        };
        outln!("\n── deal {}, {what} ──", self.deal);
        self.point_out_new(st, false);
        crate::render::out(&view::table(p, st, self.me, self.columns));
        let scores = preview::scores(p, st, self.me, moves);
        show_moves(p, pending, code, moves, &scores);
        loop {
            crate::render::out("> ");
            let _ = std::io::stdout().flush();
            let line = match lines.next_line() {
                Ok(Some(Line::Text(l))) => l,
                Ok(Some(Line::NotUtf8(_))) => {
                    outln!("that line is not UTF-8 text");
                    continue;
                }
                Ok(Some(Line::TooLong { ended })) => {
                    outln!("{}", too_long(ended));
                    continue;
                }
                Ok(None) | Err(_) => return Err("input ended"),
            };
            match input::parse(p, pending, code, moves, &line) {
                Reply::Move(i) => {
                    outln!("you: {}", pending.describe(p, code, &moves[i]));
                    return Ok(i);
                }
                Reply::Help => {
                    crate::render::out(&view::table(p, st, self.me, self.columns));
                    show_moves(p, pending, code, moves, &scores);
                }
                Reply::Quit => return Err("you quit"),
                Reply::Invalid(_) if self.chained(st, &line) => {
                    let first = self.typed_ahead.pop_front().unwrap_or_default();
                    if let Reply::Move(i) = input::parse(p, pending, code, moves, &first) {
                        outln!("you: {}", pending.describe(p, code, &moves[i]));
                        return Ok(i);
                    }
                    self.typed_ahead.clear();
                }
                Reply::Invalid(why) => {
                    // What the rules say against the move, when the line names one of
                    // this decision's options: asked of a copy, which it may write to.
                    let reason = input::attempted(p, pending, code, &line)
                        .and_then(|(o, arg)| st.clone().why_not(p, self.me, o, &arg).reason(p))
                        .map(|r| format!("\n  why: {r}"))
                        .unwrap_or_default();
                    // It quotes what was typed.
                    outln!("{}{reason}", crate::render::printable(&why));
                    show_moves(p, pending, code, moves, &scores);
                }
            }
        }
    }
}

impl Session<'_> {
    /// Whether `line` answers this decision and the person's next ones in a row
    /// (`刻子 222m 帯 99m`): its parts are then waiting in `typed_ahead`, this one first.
    fn chained(&mut self, st: &State, line: &str) -> bool {
        match chain::split(self.p, st, self.me, line) {
            Some(parts) => {
                self.typed_ahead = parts.into();
                true
            }
            None => false,
        }
    }
}

/// The cards in the zones `me` owns.
fn own_cards(st: &State, me: u8) -> CardSet {
    let b = &st.board;
    b.layout
        .zone_of
        .iter()
        .enumerate()
        .filter(|(_, (_, owner))| *owner == Some(me))
        .fold(CardSet::EMPTY, |acc, (i, _)| acc.union(b.sets[i]))
}

/// Past this many moves, a decision's moves are listed by move, several to a line.
const GROUPED_PAST: usize = 15;

/// The moves, numbered, each win offered with what it would score (`scores`, one per
/// move: see [`preview::scores`]).
fn show_moves(
    p: &Program,
    pending: &Pending,
    code: &[fuda_core::ir::Op],
    moves: &[Move],
    scores: &[Option<String>],
) {
    // A long list (a climbing game's plays) is shown by move, several to a line, each
    // with its number: `単騎   1:6m 2:8m 3:2p …`. A list that offers a score stays long.
    if moves.len() > GROUPED_PAST && scores.iter().all(Option::is_none) {
        let mut rows: Vec<(String, Vec<String>)> = Vec::new();
        // Per row, the moves' numbers when each is a number argument one more than the
        // last (`目標値 1..99`): such a row is shown by its ends.
        let mut counting: Vec<Option<(usize, i64, usize, i64)>> = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            let label = pending.describe(
                p,
                code,
                &Move {
                    option: m.option,
                    arg: fuda_core::value::Value::Unit,
                },
            );
            let full = pending.describe(p, code, m);
            let arg = full.strip_prefix(label.as_str()).unwrap_or("").trim();
            let item = match arg {
                "" => format!("{}", i + 1),
                a => format!("{}:{a}", i + 1),
            };
            let n = match m.arg {
                fuda_core::value::Value::Int(n) => Some(n),
                _ => None,
            };
            match (rows.last_mut(), counting.last_mut()) {
                (Some((l, items)), Some(run)) if *l == label => {
                    items.push(item);
                    *run = match (*run, n) {
                        (Some((i0, a0, _, b)), Some(n)) if n == b + 1 => Some((i0, a0, i + 1, n)),
                        _ => None,
                    };
                }
                _ => {
                    rows.push((label, vec![item]));
                    counting.push(n.map(|n| (i + 1, n, i + 1, n)));
                }
            }
        }
        for ((_, items), run) in rows.iter_mut().zip(&counting) {
            if let (Some((i0, a0, i1, a1)), true) = (run, items.len() > 4) {
                *items = vec![format!("{i0}:{a0}"), "…".to_string(), format!("{i1}:{a1}")];
            }
        }
        crate::render::out(&view::rows(&rows, 2, 2, view::screen_width()));
        return;
    }
    for (i, m) in moves.iter().enumerate() {
        match scores.get(i).and_then(Option::as_ref) {
            Some(s) => outln!("  {:>2}. {} — {s}", i + 1, pending.describe(p, code, m)),
            None => outln!("  {:>2}. {}", i + 1, pending.describe(p, code, m)),
        }
    }
}

/// Waits for Enter after a deal's result; `Err` when the person leaves instead (`quit`,
/// or the end of input). Any other line goes on: it was typed to go on.
fn pause(lines: &mut Lines<impl BufRead>) -> Result<(), &'static str> {
    crate::render::out("── press Enter to continue ──");
    let line = match lines.next_line() {
        Ok(Some(Line::Text(l))) => l,
        // Not text, or too long, but a line all the same.
        Ok(Some(Line::NotUtf8(_) | Line::TooLong { ended: true })) => String::new(),
        Ok(Some(Line::TooLong { ended: false })) => {
            outln!("\n{}", too_long(false));
            return Err("input ended");
        }
        Ok(None) | Err(_) => {
            outln!();
            return Err("input ended");
        }
    };
    // A terminal echoes the Enter; piped input is not echoed, and the transcript would
    // run on after the prompt.
    if !std::io::stdin().is_terminal() {
        outln!();
    }
    match line.trim() {
        "quit" | "exit" => Err("you quit"),
        _ => Ok(()),
    }
}

/// What is said of a typed line longer than [`MAX_INPUT_LINE`]; `ended` is false when
/// no line end followed at all, and reading stops.
fn too_long(ended: bool) -> String {
    let head = format!(
        "that line is too long: a move is at most {MAX_INPUT_LINE} bytes ({}); type its number or name",
        crate::read::size_words(MAX_INPUT_LINE)
    );
    if ended {
        head
    } else {
        format!(
            "{head}\nno line end follows in the next {}: input stops here",
            crate::read::size_words(crate::limits::MAX_SKIP)
        )
    }
}

/// A run-time error of the rules, as a diagnostic pointing at the rule.
pub(crate) fn runtime(p: &Program, e: &RuntimeError) -> miette::Report {
    miette::Report::new(e.to_diagnostic().render_with(&p.sources))
}

/// A seed from the clock, for games nobody asked to replay.
fn clock_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    t ^ (std::process::id() as u64).rotate_left(32)
}
