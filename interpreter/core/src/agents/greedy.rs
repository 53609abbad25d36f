//! The greedy player: one move of lookahead on a copy of the game in which every card
//! it cannot see is reshuffled (so it never peeks). A move that wins is taken, the
//! bigger win first; otherwise the move that leaves its own cards closest to one of the
//! ruleset's patterns, by the pattern distance.

use super::Agent;
use crate::engine::{Cx, Event, Move, State, EVAL_BUDGET};
use crate::ir::{Loc, Program, ShapeDef};
use crate::model::{CardIx, CardSet, GameRng};
use crate::pattern::DistanceScratch;
use crate::value::Value;

/// Wins when it can; otherwise plays towards the patterns.
pub struct Greedy {
    rng: GameRng,
    /// Lists the pattern-distance searches reuse, move after move.
    scratch: DistanceScratch,
    /// Copies of the game kept from one decision to the next, so that looking ahead
    /// reuses their lists instead of allocating a game per decision and per move.
    world: Option<State>,
    trial: Option<State>,
    /// Where the hidden cards lie, for reshuffling them.
    hidden: Hidden,
    /// What the last decision cost.
    last: DecisionWork,
    /// Steps of work its lookahead may still do ([`Greedy::LOOKAHEAD_BUDGET`] at first).
    lookahead_left: u64,
    /// Decisions in a row whose playouts told no move apart (nothing recorded, no chips
    /// moved): past [`SILENT_PROBES`], playouts are only tried now and then (see
    /// [`Greedy::by_rollouts`]).
    silent: u32,
    /// Decisions still to take without playouts before the next probe, and the gap
    /// after the next silent probe (see [`Greedy::by_rollouts`]).
    quiet: (u32, u32),
}

/// What one decision cost the greedy player: the measure its budgets bound, so that a
/// caller (a test of a hostile ruleset, say) can check the bound without a clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DecisionWork {
    /// Moves it looked ahead on.
    pub tried: usize,
    /// Decisions its playouts took after the moves they tried (none in games with
    /// patterns, which look one move ahead only).
    pub decisions: u64,
    /// Steps of work (the engine's ops and evaluation steps) its lookahead did.
    pub steps: u64,
}

impl Greedy {
    /// A greedy player with its own seed (for tie-breaks and reshuffles).
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: GameRng::new(seed),
            scratch: DistanceScratch::default(),
            world: None,
            trial: None,
            hidden: Hidden::default(),
            last: DecisionWork::default(),
            lookahead_left: Greedy::LOOKAHEAD_BUDGET,
            silent: 0,
            quiet: (0, PROBE_EVERY),
        }
    }

    /// A greedy player whose lookahead may do at most `budget` steps of work over its
    /// life (instead of [`Greedy::LOOKAHEAD_BUDGET`]): for tests and fuzzers.
    pub fn with_lookahead_budget(seed: u64, budget: u64) -> Greedy {
        Greedy {
            lookahead_left: budget,
            ..Greedy::new(seed)
        }
    }

    /// Most moves one decision tries by playouts: a wider decision is sampled.
    pub const MOST_TRIED: usize = MAX_TRIED;
    /// Most decisions all the playouts of one decision take together.
    pub const DECISION_BUDGET: usize = DECISION_BUDGET;
    /// Most steps of work all its lookahead may do over its life (a game: the players
    /// are made for each game). Each copy it looks ahead on does its own work, which the
    /// game's budget does not see; past this, it plays at random, so that a rule file
    /// whose every move is heavy still ends its game in seconds.
    pub const LOOKAHEAD_BUDGET: u64 = LOOKAHEAD_BUDGET;

    /// Lets its lookahead do at most `budget` more steps of work over its life.
    pub(super) fn set_lookahead_budget(&mut self, budget: u64) {
        self.lookahead_left = budget;
    }

    /// What the last decision cost ([`DecisionWork::default`] before the first, and for a
    /// decision with one move or none).
    pub fn last_work(&self) -> DecisionWork {
        self.last
    }
}

impl Agent for Greedy {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn new_game(&mut self, seed: u64) -> bool {
        // The distances it remembers hold for any game of the program (the scratch
        // forgets them when the program changes); the copies are only space.
        let scratch = std::mem::take(&mut self.scratch);
        let (world, trial) = (self.world.take(), self.trial.take());
        *self = Greedy {
            scratch,
            world,
            trial,
            ..Greedy::new(seed)
        };
        true
    }

    fn choose(&mut self, p: &Program, st: &State, seat: u8, moves: &[Move]) -> usize {
        self.last = DecisionWork::default();
        if moves.len() <= 1 {
            return 0;
        }
        let Some(pending) = st.pending() else {
            return 0;
        };
        let Some(me) = pending.seats.iter().position(|s| s.seat == seat) else {
            return 0;
        };
        if self.lookahead_left == 0 {
            return self.rng.below(moves.len() as u32) as usize;
        }
        if !p.patterns.iter().any(|q| q.used) {
            return self.by_rollouts(p, st, seat, me, moves.len());
        }
        let (mut world_slot, mut trial_slot) = (self.world.take(), self.trial.take());
        let world = copy_into(&mut world_slot, st);
        determinize(p, world, seat, &mut self.rng, &mut self.hidden);
        let world = &*world;
        let mut best: Vec<usize> = Vec::new();
        let mut best_score = i64::MIN;
        // Cards the best moves leave the seat short of a pattern (0: none to draw for).
        let mut best_short = 0;
        // The seat's cards after each move, for telling equally near moves apart.
        let mut held_after = vec![CardSet::EMPTY; moves.len()];
        let mut applied_moves = 0;
        // Whether some move changes the cards the seat holds: asked only in a game
        // without chips (see below), so that the usual decision pays nothing for it.
        let judged_by_records = p.ledger.is_empty();
        let own_before = if judged_by_records {
            owned_cards(p, world, seat, false)
        } else {
            CardSet::EMPTY
        };
        let mut cards_moved = false;
        // One scratch copy, reset for each move without allocating.
        let w = copy_into(&mut trial_slot, world);
        // Other seats asked at the same time are assumed to pass or take their first move.
        let mut choices = vec![0; pending.seats.len()];
        for i in 0..moves.len() {
            if i > 0 {
                w.clone_from(world);
            }
            choices[me] = i;
            let before = 0;
            self.last.tried += 1;
            let work = self.lend_work(w, u64::MAX);
            let applied = w.apply(p, &choices).is_ok();
            if applied {
                let _ = w.advance(p);
            }
            self.charge_work(w, work);
            if !applied {
                continue;
            }
            applied_moves += 1;
            cards_moved |= judged_by_records && owned_cards(p, w, seat, false) != own_before;
            let (score, short, own) = evaluate(p, w, seat, before, &mut self.scratch);
            if let Some(h) = held_after.get_mut(i) {
                *h = own;
            }
            if score > best_score {
                best_score = score;
                best.clear();
                best_short = short;
            }
            if score == best_score {
                best.push(i);
            }
        }
        // Moves that leave the cards equally near a pattern are told apart by how many
        // unseen cards would bring them nearer (when the cards they leave differ).
        // Only where some group is a run: which cards a hand keeps then decides how many
        // draws fit it (both ends of a run against one), where for groups of alike cards
        // every missing card is one of its class alike: measured, it doubled the deals a
        // mahjong game's greedy player wins, and in a game of groups of one kind won as
        // often for fewer chips (docs/performance.md, "Tile games").
        let runs = p.patterns.iter().any(|q| {
            q.used
                && q.slots
                    .iter()
                    .any(|s| s.shapes.iter().any(|sh| matches!(sh, ShapeDef::Run(..))))
        });
        if best.len() > 1 && best_short > 0 && runs {
            best = self.widest(p, st, world, seat, best, &held_after);
        }
        self.world = world_slot;
        self.trial = trial_slot;
        if best.is_empty() {
            return 0;
        }
        // A game without chips is judged by its recorded results alone (a solo game's
        // score): when no move touches the seat's cards and so none is nearer the
        // patterns (a declaration), play them out and keep the one whose results add up
        // to most.
        if judged_by_records && !cards_moved && best.len() == applied_moves && applied_moves > 1 {
            return self.by_rollouts(p, st, seat, me, moves.len());
        }
        best[self.rng.below(best.len() as u32) as usize]
    }
}

/// Decisions in a row whose playouts told no move apart after which the greedy player
/// stops playing out every decision: in a climbing game whose rounds mostly end with
/// nobody out, playouts cost the whole lookahead budget by mid-game and say nothing.
const SILENT_PROBES: u32 = 4;
/// Once playouts have been silent that long, the next decision that plays out comes
/// after this many without, and each probe that is silent too doubles the gap, up to
/// [`MOST_QUIET`] (exponential back-off): a round near its end, where a win comes within
/// reach, speaks again and playouts resume at every decision, while a game whose
/// playouts never speak (a climbing game whose rounds end by the wall) spends little on
/// them.
const PROBE_EVERY: u32 = 8;
/// The longest gap between probes.
const MOST_QUIET: u32 = 128;

/// Playouts per move when a game has no patterns to aim at: each in its own reshuffled
/// world, the same worlds for every move.
const ROLLOUTS: usize = 2;
/// Most moves tried by playouts in one decision.
const MAX_TRIED: usize = 24;
/// Most simulated decisions all playouts of one decision take together.
const DECISION_BUDGET: usize = 4_000;
/// Most decisions a playout takes before it is cut short.
const ROLLOUT_DECISIONS: usize = 400;
/// Most work (the engine's ops and evaluation steps) a playout does before it is cut
/// short: far more than any bundled round takes whole (under 50,000), far less than a
/// round may take before the game stops as runaway, so that a rules file whose rounds
/// never end costs each decision seconds, not the round's whole limit per playout.
const ROLLOUT_WORK: u64 = 2_000_000;

/// Most steps of work all of one greedy player's lookahead may do (see
/// [`Greedy::LOOKAHEAD_BUDGET`]): over 15 times what it asks in the costliest bundled
/// match of 12 rounds (under 600,000), and under half a second of a release build's
/// engine.
const LOOKAHEAD_BUDGET: u64 = 10_000_000;

impl Greedy {
    /// Gives copy `w` at most `most` steps of work, and no more than the lookahead has
    /// left; returns what it was given, for [`Greedy::charge_work`].
    fn lend_work(&self, w: &mut State, most: u64) -> u64 {
        w.steps_left = w.steps_left.min(most).min(self.lookahead_left);
        // An outcome in the copy gives the next round nothing more.
        w.game_steps_left = 0;
        w.steps_left
    }

    /// Charges the work copy `w` did, of the `lent` steps it was given.
    fn charge_work(&mut self, w: &State, lent: u64) {
        let used = lent.saturating_sub(w.steps_left + w.game_steps_left);
        self.last.steps += used;
        self.lookahead_left = self.lookahead_left.saturating_sub(used);
    }

    /// For games without patterns (fishing games): tries each move in the same few
    /// reshuffled worlds, plays the rest of the round at random, and keeps the move
    /// with the best mean change in the seat's chips (the ruleset's own settlement
    /// is the judge).
    fn by_rollouts(&mut self, p: &Program, st: &State, seat: u8, me: usize, n: usize) -> usize {
        let Some(pending) = st.pending() else {
            return 0;
        };
        // Playouts that have told nothing for a while are tried only now and then; in
        // between, the move that sheds most is taken at once.
        if self.quiet.0 > 0 {
            self.quiet.0 -= 1;
            let all: Vec<usize> = (0..n).collect();
            return self.fewest_held(p, st, seat, me, &all);
        }
        let before = crate::play::chips_of(p, st)
            .get(seat as usize)
            .copied()
            .unwrap_or(0);
        let mut best: Vec<usize> = Vec::new();
        let mut best_score = i64::MIN;
        // Work per decision is bounded: at most MAX_TRIED moves are tried (a random
        // sample of a wider decision), and all playouts together take at most
        // DECISION_BUDGET simulated decisions.
        let mut candidates: Vec<usize> = (0..n).collect();
        if n > MAX_TRIED {
            self.rng.shuffle(&mut candidates);
            candidates.truncate(MAX_TRIED);
            candidates.sort_unstable();
        }
        let mut left = DECISION_BUDGET;
        // Every move is played out in the same worlds, with the same random moves after
        // it (common random numbers): the moves are then compared on the same deals, so
        // two playouts each tell them apart better than four independent ones would, at
        // half the work (docs/performance.md).
        let mut worlds = [0u64; ROLLOUTS];
        for w in &mut worlds {
            *w = self.rng.next_u64();
        }
        let mut tried = 0;
        // Whether any playout recorded a result or moved chips, for anyone.
        let chips0 = crate::play::chips_of(p, st);
        let mut stirred = false;
        for i in candidates {
            if left == 0 {
                break;
            }
            tried += 1;
            self.last.tried += 1;
            let mut total = 0i64;
            let choices: Vec<usize> = (0..pending.seats.len())
                .map(|k| if k == me { i } else { 0 })
                .collect();
            for world in worlds {
                let mut rng = GameRng::new(world);
                let mut w_slot = self.trial.take();
                let w = copy_into(&mut w_slot, st);
                determinize(p, w, seat, &mut rng, &mut self.hidden);
                // The playout stops as runaway once it has done ROLLOUT_WORK.
                let work = self.lend_work(w, ROLLOUT_WORK);
                if w.apply(p, &choices).is_ok() {
                    let events = w.events.len();
                    let used = play_out(p, w, left, &mut rng);
                    // `used` counts the tried move too; the budget bounds the rest.
                    self.last.decisions += used as u64 - 1;
                    left = left.saturating_sub(used);
                    let chips = crate::play::chips_of(p, w);
                    stirred |= chips != chips0
                        || w.events[events.min(w.events.len())..]
                            .iter()
                            .any(|e| matches!(e, Event::Record(..)));
                    total += chips.get(seat as usize).copied().unwrap_or(0) - before;
                    // Without chips, what the rules recorded for the seat is the score.
                    if p.ledger.is_empty() {
                        total += recorded(w, seat, events);
                    }
                }
                self.charge_work(w, work);
                self.trial = w_slot;
            }
            if total > best_score {
                best_score = total;
                best.clear();
            }
            if total == best_score {
                best.push(i);
            }
        }
        if best.is_empty() {
            return 0;
        }
        // Every move tried came out alike, and nothing was scored in any playout (a
        // climbing game's rounds end with nobody out): the move that leaves the seat's
        // hand smallest is taken, the rules' own way to shed cards fastest.
        // Only when no playout scored anything for anyone: a fishing game's playouts
        // that tie for this seat still pay others, and its moves stay as they were.
        if best.len() > 1 && best.len() == tried && !stirred {
            self.silent += 1;
            if self.silent >= SILENT_PROBES {
                self.quiet = (self.quiet.1, (self.quiet.1 * 2).min(MOST_QUIET));
            }
            return self.fewest_held(p, st, seat, me, &best);
        }
        self.silent = 0;
        self.quiet = (0, PROBE_EVERY);
        best[self.rng.below(best.len() as u32) as usize]
    }

    /// Of the moves `best` (equally near a pattern in `world`), those after which most
    /// unseen cards would bring the seat's cards (`held_after[i]` after move `i`) nearer
    /// (see [`acceptance`]); all of them when they leave the same cards.
    fn widest(
        &mut self,
        p: &Program,
        st: &State,
        world: &State,
        seat: u8,
        best: Vec<usize>,
        held_after: &[CardSet],
    ) -> Vec<usize> {
        let after: Vec<(usize, CardSet)> = best.iter().map(|&i| (i, held_after[i])).collect();
        if after.windows(2).all(|x| x[0].1 == x[1].1) {
            return best;
        }
        let unseen = p.deck.all().minus(st.visible_to(p, seat));
        let mut widest = Vec::new();
        let mut most = 0;
        let mut known: Vec<(CardSet, usize)> = Vec::new();
        for (i, own) in after {
            let n = match known.iter().find(|k| k.0 == own) {
                Some(k) => k.1,
                None => {
                    let n = acceptance(p, world, own, unseen, &mut self.scratch);
                    known.push((own, n));
                    n
                }
            };
            if n > most {
                most = n;
                widest.clear();
            }
            if n == most {
                widest.push(i);
            }
        }
        widest
    }

    /// Among moves `among` of the waiting decision, one after which the seat holds the
    /// fewest cards in its own hand (played to the next decision; ties at random).
    fn fewest_held(
        &mut self,
        p: &Program,
        st: &State,
        seat: u8,
        me: usize,
        among: &[usize],
    ) -> usize {
        let Some(pending) = st.pending() else {
            return among[0];
        };
        let mut best: Vec<usize> = Vec::new();
        let mut fewest = usize::MAX;
        let mut slot = self.trial.take();
        for &i in among {
            let w = copy_into(&mut slot, st);
            let choices: Vec<usize> = (0..pending.seats.len())
                .map(|k| if k == me { i } else { 0 })
                .collect();
            let work = self.lend_work(w, u64::MAX);
            let held = match w.apply(p, &choices) {
                Ok(()) => {
                    let _ = w.advance(p);
                    owned_cards(p, w, seat, false).len()
                }
                Err(_) => usize::MAX,
            };
            self.charge_work(w, work);
            if held < fewest {
                fewest = held;
                best.clear();
            }
            if held == fewest {
                best.push(i);
            }
        }
        self.trial = slot;
        match best.len() {
            0 => among[0],
            n => best[self.rng.below(n as u32) as usize],
        }
    }
}

/// The totals of the results recorded for `seat` since event `from`.
pub(super) fn recorded(w: &State, seat: u8, from: usize) -> i64 {
    w.events[from.min(w.events.len())..]
        .iter()
        .map(|e| match e {
            Event::Record(s, r, _) if *s == seat => r.total,
            _ => 0,
        })
        .sum()
}

/// Plays random moves until the round in progress ends (a new outcome is recorded),
/// taking at most `left` decisions; returns how many it took.
fn play_out(p: &Program, w: &mut State, left: usize, rng: &mut GameRng) -> usize {
    let start = w.decisions;
    play_out_inner(p, w, left.min(ROLLOUT_DECISIONS), rng);
    (w.decisions - start) as usize + 1
}

fn play_out_inner(p: &Program, w: &mut State, limit: usize, rng: &mut GameRng) {
    for _ in 0..limit {
        match w.advance(p) {
            Ok(false) => {}
            _ => return,
        }
        if w.events.iter().any(|e| matches!(e, Event::Outcome(..))) {
            return;
        }
        let Some(pd) = w.pending() else { return };
        let choices: Vec<usize> = pd
            .seats
            .iter()
            .map(|s| rng.below(s.moves.len().max(1) as u32) as usize)
            .collect();
        if w.apply(p, &choices).is_err() {
            return;
        }
    }
}

/// How good a position is for `seat`: a win recorded since `from` beats everything.
/// Otherwise, from the ruleset itself: fewer cards missing towards the nearest pattern
/// (rummy-like games), plus what the score tables give the seat's own face-up cards
/// (fishing games: captures scored by the tables the settlement uses).
/// Also says how many cards the seat is short of the nearest pattern (0 after a win,
/// or in a game without patterns to measure), and the cards it holds (none after a win).
fn evaluate(
    p: &Program,
    st: &State,
    seat: u8,
    from: usize,
    scratch: &mut DistanceScratch,
) -> (i64, usize, CardSet) {
    for e in &st.events[from.min(st.events.len())..] {
        if let Event::Record(s, r, _) = e {
            let value = if *s == seat {
                1_000_000 + r.total
            } else {
                -1_000_000
            };
            return (value, 0, CardSet::EMPTY);
        }
    }
    let own = owned_cards(p, st, seat, false);
    let short = missing(p, st, own, own.len(), scratch).unwrap_or(0);
    let mut value = -(short as i64) * 100;
    let shown = owned_cards(p, st, seat, true);
    if !shown.is_empty() {
        for (t, def) in p.scores.iter().enumerate() {
            let takes_cards = matches!(def.params.first(), Some((_, crate::value::Type::Cards, _)));
            let rest_default = def.params.iter().skip(1).all(|(_, _, d)| d.is_some());
            if takes_cards && rest_default && def.over.is_none() {
                let mut args = vec![Some(Value::Cards(shown))];
                args.resize(def.params.len(), None);
                if let Ok(r) = crate::score::score_with(p, t as u16, args) {
                    value += r.total;
                }
            }
        }
    }
    (value, short, own)
}

/// The fewest cards `cards` still miss towards the nearest of the ruleset's patterns
/// (`None` when the game has none to measure): a hand of `held` cards is measured
/// against the patterns at least that large.
fn missing(
    p: &Program,
    st: &State,
    cards: CardSet,
    held: usize,
    scratch: &mut DistanceScratch,
) -> Option<usize> {
    let mut locals = vec![Value::Unit; 8];
    let mut cx = Cx {
        p,
        b: Some(&st.board),
        locals: &mut locals,
        groups: &[],
        budget: EVAL_BUDGET / 100,
        at: Loc::default(),
    };
    let mut nearest: Option<usize> = None;
    // A pattern smaller than the cards the seat holds cannot be what they are meant to
    // form (a helper pattern, one for a hand after calls): aiming at it would make every
    // hand look complete. Such patterns count only when no pattern is large enough.
    let fits = p.patterns.iter().any(|pat| pat.used && pat.size >= held);
    for pat in &p.patterns {
        // A pattern of alternatives is measured through them (they are used too).
        if !pat.used || pat.is_union() || pat.size == 0 || (fits && pat.size < held) {
            continue;
        }
        if let Ok(d) = crate::pattern::distance_in(&mut cx, pat, cards, scratch) {
            nearest = Some(nearest.map_or(d.missing, |n| n.min(d.missing)));
        }
    }
    nearest
}

/// How many of the cards `unseen` would each bring the seat's cards `own` nearer to a
/// pattern if it drew them next (mahjong's 受け入れ, "acceptance"): of two moves that
/// leave the hand equally far from a win, the one that more draws improve is better.
/// Cards with the same face are interchangeable, so each face is weighed once.
fn acceptance(
    p: &Program,
    st: &State,
    own: CardSet,
    unseen: CardSet,
    scratch: &mut DistanceScratch,
) -> usize {
    let held = own.len() + 1;
    let Some(now) = missing(p, st, own, held, scratch) else {
        return 0;
    };
    if now == 0 {
        return 0;
    }
    let faces = &p.deck.faces;
    let mut weighed: Vec<u16> = Vec::new();
    let mut total = 0;
    for c in unseen.minus(own).iter() {
        let face = faces.get(c as usize).copied().unwrap_or(u16::MAX);
        if weighed.contains(&face) {
            continue;
        }
        weighed.push(face);
        let mut with = own;
        with.insert(c);
        if missing(p, st, with, held, scratch).is_some_and(|m| m < now) {
            total += unseen
                .iter()
                .filter(|&d| faces.get(d as usize).copied().unwrap_or(u16::MAX) == face)
                .count();
        }
    }
    total
}

/// The cards the seat holds: in the piles it owns and sees (its hand, its exposed sets,
/// its captures); with `shown`, only those in zones everyone sees (its captures). A
/// seat's own stacks are left out: a stack is a wall to draw from or a river of
/// discards, and neither is part of a hand (counting them made every pattern look
/// nearly complete in a game with a wall and a river per player).
pub(super) fn owned_cards(p: &Program, st: &State, seat: u8, shown: bool) -> CardSet {
    use crate::ir::{Order, Visibility};
    let b = &st.board;
    let mut out = CardSet::EMPTY;
    for (i, (z, owner)) in b.layout.zone_of.iter().enumerate() {
        if *owner != Some(seat) {
            continue;
        }
        if shown && !st.zone_public(*z) {
            continue;
        }
        if let Some(def) = p.zones.get(*z as usize) {
            if def.order == Order::Stack || def.visibility == Visibility::Hidden {
                continue;
            }
        }
        out = out.union(b.sets[i]);
    }
    out
}

/// Makes the copy kept in `slot` (a new one the first time) a copy of `st` for looking
/// ahead: without the game's history of events, which the lookahead does not need and
/// which grows with the game, and without messages.
pub(super) fn copy_into<'s>(slot: &'s mut Option<State>, st: &State) -> &'s mut State {
    let w = match slot {
        Some(w) => {
            w.copy_without_events(st);
            w
        }
        None => slot.insert(st.clone_without_events()),
    };
    w.keep_log = false;
    w
}

/// Where the cards a seat cannot see lie, kept from one reshuffle to the next.
#[derive(Default)]
pub(super) struct Hidden {
    /// Zone instance and position of each hidden card, zone by zone.
    places: Vec<(usize, usize)>,
    /// The hidden cards, in the same order.
    cards: Vec<CardIx>,
}

/// Reshuffles every card `seat` cannot see among the places such cards occupy.
pub(super) fn determinize(
    p: &Program,
    st: &mut State,
    seat: u8,
    rng: &mut GameRng,
    hidden: &mut Hidden,
) {
    let visible = st.visible_to(p, seat);
    let b = &mut st.board;
    hidden.places.clear();
    hidden.cards.clear();
    for (zi, z) in b.zones.iter().enumerate() {
        // A zone whose cards are all in sight keeps them (most zones, most turns).
        if b.sets[zi].minus(visible).is_empty() {
            continue;
        }
        for (k, c) in z.iter().enumerate() {
            if !visible.contains(*c) {
                hidden.places.push((zi, k));
                hidden.cards.push(*c);
            }
        }
    }
    rng.shuffle(&mut hidden.cards);
    // The game's generator decides what the rules draw later (the next shuffle): the
    // copy gets one of its own, or its future would be the real one.
    b.rng = GameRng::new(rng.clone().next_u64() ^ 0x5eed_0fc0_ffee_0001);
    for (&(zi, k), &c) in hidden.places.iter().zip(&hidden.cards) {
        b.zones[zi][k] = c;
        b.card_zone[c as usize] = zi as u16;
    }
    // Only the zones that held hidden cards changed: their sets follow their lists.
    let mut last = usize::MAX;
    for &(zi, _) in &hidden.places {
        if zi != last {
            b.sets[zi] = b.zones[zi].iter().copied().collect();
            last = zi;
        }
    }
    if !hidden.places.is_empty() {
        b.recount_fit();
    }
}
