//! The `planner` player: the greedy player, who also plans the choices it makes before
//! play — while it holds no cards and its choices move none (a solo performance's
//! composition, a wager before the deal) — by playing the round on, in sampled deals, as
//! it would itself play it.
//!
//! Such a choice cannot be judged by the cards; only by what the round records or pays
//! in the end. The planner draws a few deals when the choices begin (the same deals for
//! every choice, so two choices are compared on the same deals), plays each round through
//! once with the greedy player, and remembers that player's moves: every later playout
//! of a deal, after another choice, replays them for the cost of the moves.
//!
//! A menu — a decision some of whose moves lead, through further choices, back to
//! itself (set a target: which item, then which value) — is planned one path at a
//! time: every path through it is judged by the rounds played after taking it and then
//! leaving the menu, against leaving at once; the best path is taken while it gains
//! clearly (its mean gain over the deals more than twice its standard error), and the
//! menu is left when none does. Paths judged once keep their gain as an estimate, and
//! the next time only the most promising are judged again (lazy greedy). A choice of a
//! number among many is tried at a dozen values spread geometrically.

use super::greedy::{copy_into, determinize, owned_cards, recorded, Hidden};
use super::{Agent, Greedy};
use crate::engine::{CodeRef, Event, Move, State};
use crate::ir::Program;
use crate::model::{CardSet, GameRng};
use crate::value::Value;
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};

/// Deals each choice is judged on.
const DEALS: usize = 16;
/// Deals every path through a menu is judged on first; the most promising (at least
/// [`KEPT`], an eighth of all) are judged on the rest.
const FIRST_DEALS: usize = 3;
/// Most promising paths judged on every deal, at least.
const KEPT: usize = 16;
/// Most paths a menu's paths are searched to (a decision, a sub-decision, its value).
const DEPTH: usize = 3;
/// Most paths through one menu.
const MOST_PATHS: usize = 600;
/// A choice among more numbers than this is tried at a geometric sample of them.
const NUMBERS_TRIED: usize = 12;
/// Paths judged again at a menu once each has an estimate.
const JUDGED_AGAIN: usize = 24;
/// Most paths taken through menus before play (then the menu is left).
const MOST_TAKEN: usize = 40;
/// Most decisions one playout takes before it is cut short.
const PLAYOUT_DECISIONS: usize = 4_000;
/// Most steps of work (the engine's ops and evaluation steps) one playout does.
const PLAYOUT_WORK: u64 = 4_000_000;
/// Most decisions the planning of one game may play out, and most moves the greedy
/// player may work out in them: past either, the planner leaves each menu at once. A
/// bundled solo performance (three compositions) takes under a quarter of each.
const PLAN_DECISIONS: u32 = 2_000_000;
const PLAN_MOVES: u32 = 24_000;
/// Remembered moves kept before the memory is emptied.
const REMEMBERED: usize = 1 << 18;

/// The greedy player that plans its choices before play (see the module's notes).
pub struct Planner {
    /// Plays the real game once cards are held.
    greedy: Greedy,
    /// Plays the sampled deals; its moves are remembered per deal.
    inner: Greedy,
    /// Draws the deals.
    rng: GameRng,
    hidden: Hidden,
    /// The planning in progress, from the first choice before play to the first move
    /// with cards.
    phase: Option<Phase>,
    /// Decisions and greedy moves left for planning ([`PLAN_DECISIONS`], [`PLAN_MOVES`] at
    /// first).
    left: (u32, u32),
}

/// What the planner keeps while it plans one stretch of choices.
struct Phase {
    /// The deals' seeds.
    deals: Vec<u64>,
    /// The greedy player's move by deal, the cards it holds and sees and the moves
    /// offered.
    remembered: HashMap<(usize, CardSet, CardSet, u64), usize>,
    /// The move that leaves each menu (the first after which cards move or someone
    /// else decides), by where it is decided.
    leave: HashMap<(CodeRef, u32), usize>,
    /// Paths through the menu already judged, with the lower bound of their gain.
    judged: Vec<(Vec<Move>, f64)>,
    /// Moves still to take on the path chosen.
    queue: VecDeque<Move>,
    /// Paths taken so far.
    taken: usize,
}

/// A path through a decision: its moves, and whether it comes back to the decision.
struct Path {
    moves: Vec<Move>,
    back: bool,
}

impl Planner {
    /// A planner with its own seed (its greedy player's, its deals').
    pub fn new(seed: u64) -> Planner {
        Planner {
            greedy: Greedy::new(seed),
            inner: Greedy::with_lookahead_budget(seed ^ 0x0069_6e6e_6572, u64::MAX),
            rng: GameRng::new(seed ^ 0x0070_6c61_6e6e_6572),
            hidden: Hidden::default(),
            phase: None,
            left: (PLAN_DECISIONS, PLAN_MOVES),
        }
    }
}

impl Agent for Planner {
    fn name(&self) -> &'static str {
        "planner"
    }

    fn new_game(&mut self, seed: u64) -> bool {
        if !self.greedy.new_game(seed) || !self.inner.new_game(seed ^ 0x0069_6e6e_6572) {
            return false;
        }
        // The inner player's budget is the planner's, not a game's.
        self.inner.set_lookahead_budget(u64::MAX);
        self.rng = GameRng::new(seed ^ 0x0070_6c61_6e6e_6572);
        self.phase = None;
        self.left = (PLAN_DECISIONS, PLAN_MOVES);
        true
    }

    fn choose(&mut self, p: &Program, st: &State, seat: u8, moves: &[Move]) -> usize {
        if moves.len() <= 1 {
            return 0;
        }
        let alone = st.pending().is_some_and(|pd| pd.seats.len() == 1);
        if !alone || !owned_cards(p, st, seat, false).is_empty() {
            self.phase = None;
            return self.greedy.choose(p, st, seat, moves);
        }
        let phase = self.phase_mut();
        if let Some(m) = phase.queue.pop_front() {
            if let Some(i) = moves.iter().position(|x| *x == m) {
                return i;
            }
            phase.queue.clear();
        }
        let taken = phase.taken;
        if self.spent() || taken >= MOST_TAKEN {
            return self.leave(p, st, seat);
        }
        let paths = self.paths(p, st, seat);
        if paths.iter().any(|x| x.back) {
            self.menu(p, st, seat, moves, paths)
        } else {
            self.best_single(p, st, seat, moves, paths)
        }
    }
}

impl Planner {
    /// At a menu: the first move of the path that gains most clearly, or the move
    /// that leaves it.
    fn menu(
        &mut self,
        p: &Program,
        st: &State,
        seat: u8,
        moves: &[Move],
        paths: Vec<Path>,
    ) -> usize {
        let base = self.judge(p, st, seat, &[], 0..DEALS);
        let back: Vec<Vec<Move>> = paths
            .into_iter()
            .filter(|x| x.back)
            .map(|x| x.moves)
            .collect();
        let mut judged = std::mem::take(&mut self.phase_mut().judged);
        // Paths no longer offered are dropped; new ones are judged at once.
        judged.retain(|(path, _)| back.contains(path));
        let mut best: Option<(Vec<Move>, f64, f64)> = None;
        if judged.is_empty() {
            // Successive halving: every path is judged on the first few deals, and only
            // the most promising on the rest (a path worth taking is rarely far behind
            // on a few deals, and a menu may have hundreds).
            let mut first: Vec<(Vec<Move>, Vec<i64>, f64)> = back
                .into_iter()
                .map(|path| {
                    let v = self.judge(p, st, seat, &path, 0..FIRST_DEALS);
                    let (lower, _) = gain(&base[..FIRST_DEALS.min(base.len())], &v);
                    (path, v, lower)
                })
                .collect();
            first.sort_by(|a, b| b.2.total_cmp(&a.2));
            let kept = first.len().min(KEPT.max(first.len() / 8));
            for (i, (path, mut v, lower)) in first.into_iter().enumerate() {
                if i >= kept {
                    judged.push((path, lower));
                    continue;
                }
                v.extend(self.judge(p, st, seat, &path, FIRST_DEALS..DEALS));
                let (lower, sure) = gain(&base, &v);
                if best.as_ref().is_none_or(|b| lower > b.1) {
                    best = Some((path.clone(), lower, sure));
                }
                judged.push((path, lower));
            }
        } else {
            // Lazy greedy: judge again the paths whose last estimate is highest, until
            // one judged now is at least as good as the next one's last estimate.
            judged.sort_by(|a, b| b.1.total_cmp(&a.1));
            for i in 0..judged.len().min(JUDGED_AGAIN) {
                let after = self.judge(p, st, seat, &judged[i].0, 0..DEALS);
                let (lower, sure) = gain(&base, &after);
                judged[i].1 = lower;
                if best.as_ref().is_none_or(|b| lower > b.1) {
                    best = Some((judged[i].0.clone(), lower, sure));
                }
                let next = judged.get(i + 1).map_or(f64::NEG_INFINITY, |x| x.1);
                if best.as_ref().is_some_and(|b| b.1 >= next) {
                    break;
                }
            }
        }
        self.phase_mut().judged = judged;
        match best {
            Some((path, _, sure)) if sure > 0.0 => {
                let phase = self.phase_mut();
                phase.taken += 1;
                phase.queue = path.iter().skip(1).cloned().collect();
                moves.iter().position(|m| *m == path[0]).unwrap_or(0)
            }
            _ => self.leave(p, st, seat),
        }
    }

    /// At a choice that is not a menu (each move leads on): the move whose rounds
    /// record most on the mean, ties to the first.
    fn best_single(
        &mut self,
        p: &Program,
        st: &State,
        seat: u8,
        moves: &[Move],
        paths: Vec<Path>,
    ) -> usize {
        let mut best = (i64::MIN, 0);
        for path in paths {
            let total: i64 = self.judge(p, st, seat, &path.moves, 0..DEALS).iter().sum();
            let i = moves.iter().position(|m| *m == path.moves[0]).unwrap_or(0);
            if total > best.0 {
                best = (total, i);
            }
        }
        best.1
    }

    /// The planning in progress, begun (its deals drawn) if none is.
    fn phase_mut(&mut self) -> &mut Phase {
        let rng = &mut self.rng;
        self.phase.get_or_insert_with(|| Phase {
            deals: (0..DEALS).map(|_| rng.next_u64()).collect(),
            remembered: HashMap::new(),
            leave: HashMap::new(),
            judged: Vec::new(),
            queue: VecDeque::new(),
            taken: 0,
        })
    }

    /// The paths through the decision waiting in `st`: each move, and where a move
    /// opens another choice with no card moved, each path on through it (up to
    /// [`DEPTH`] moves), marked as coming back to the decision or not.
    fn paths(&mut self, p: &Program, st: &State, seat: u8) -> Vec<Path> {
        let mut root = st.clone_without_events();
        root.keep_log = false;
        let mut rng = GameRng::new(self.phase_mut().deals[0]);
        determinize(p, &mut root, seat, &mut rng, &mut self.hidden);
        let site = site_of(&root);
        let counts = zone_counts(&root);
        let mut out = Vec::new();
        self.explore(p, &root, seat, site, &counts, &mut Vec::new(), &mut out);
        out
    }

    /// Adds to `out` the paths from `w`'s decision, after the moves `prefix`.
    #[allow(clippy::too_many_arguments)]
    fn explore(
        &mut self,
        p: &Program,
        w: &State,
        seat: u8,
        site: Option<(CodeRef, u32)>,
        counts: &[usize],
        prefix: &mut Vec<Move>,
        out: &mut Vec<Path>,
    ) {
        let Some(moves) = seat_moves(w, seat) else {
            return;
        };
        for i in tried(&moves) {
            if out.len() >= MOST_PATHS || self.spent() {
                return;
            }
            let mut next = w.clone_without_events();
            next.keep_log = false;
            if !self.step(p, &mut next, &[i]) {
                continue;
            }
            prefix.push(moves[i].clone());
            let unmoved = counts == zone_counts(&next).as_slice()
                && next
                    .pending()
                    .is_some_and(|pd| pd.seats.len() == 1 && pd.seats[0].seat == seat);
            if unmoved && site_of(&next) == site {
                out.push(Path {
                    moves: prefix.clone(),
                    back: true,
                });
            } else if unmoved && prefix.len() < DEPTH {
                let before = out.len();
                self.explore(p, &next, seat, site, counts, prefix, out);
                if prefix.len() == 1 && out.len() == before {
                    out.push(Path {
                        moves: prefix.clone(),
                        back: false,
                    });
                }
            } else if prefix.len() == 1 {
                out.push(Path {
                    moves: prefix.clone(),
                    back: false,
                });
            }
            prefix.pop();
        }
    }

    /// Takes moves `choices` in copy `w` and plays to the next decision, within the
    /// planning's work; whether it could.
    fn step(&mut self, p: &Program, w: &mut State, choices: &[usize]) -> bool {
        limit(w);
        w.apply(p, choices).is_ok() && matches!(w.advance(p), Ok(false))
    }

    /// Whether the planning of this game has spent its playouts or greedy moves.
    fn spent(&self) -> bool {
        self.left.0 == 0 || self.left.1 == 0
    }

    /// What the round records for `seat` (and the chips it wins) in each deal, after the
    /// moves `path` from `st`'s decision and then leaving every menu.
    fn judge(
        &mut self,
        p: &Program,
        st: &State,
        seat: u8,
        path: &[Move],
        which: std::ops::Range<usize>,
    ) -> Vec<i64> {
        let deals = self.phase_mut().deals.clone();
        let mut out = Vec::with_capacity(deals.len());
        let mut slot = None;
        for (k, &seed) in deals.iter().enumerate() {
            if !which.contains(&k) {
                continue;
            }
            let w = copy_into(&mut slot, st);
            determinize(p, w, seat, &mut GameRng::new(seed), &mut self.hidden);
            let from = w.events.len();
            let chips0 = crate::play::chips_of(p, w).get(seat as usize).copied();
            let mut ok = true;
            for (j, m) in path.iter().enumerate() {
                let Some(i) = seat_moves(w, seat).and_then(|ms| ms.iter().position(|x| x == m))
                else {
                    ok = false;
                    break;
                };
                // Each move but the last is played on to the decision it opens (the last,
                // by the playout).
                limit(w);
                ok = w.apply(p, &[i]).is_ok()
                    && (j + 1 == path.len() || matches!(w.advance(p), Ok(false)));
                if !ok {
                    break;
                }
            }
            if !ok {
                out.push(i64::MIN / 4);
                continue;
            }
            self.play_on(p, w, seat, k, seed);
            let mut value = recorded(w, seat, from);
            if let (Some(c0), Some(&c1)) = (chips0, crate::play::chips_of(p, w).get(seat as usize))
            {
                value += c1 - c0;
            }
            out.push(value);
        }
        out
    }

    /// Plays deal `k`'s copy `w` to the end of the round: the seat leaves every menu it
    /// meets before play and plays the greedy player's remembered moves after; any
    /// other seat plays at random.
    fn play_on(&mut self, p: &Program, w: &mut State, seat: u8, k: usize, seed: u64) {
        let mut rng = GameRng::new(seed ^ 0x9e37_79b9_7f4a_7c15);
        let from = w.events.len();
        limit(w);
        for _ in 0..PLAYOUT_DECISIONS {
            if self.left.0 == 0 {
                break;
            }
            self.left.0 -= 1;
            if !matches!(w.advance(p), Ok(false)) {
                break;
            }
            if w.events[from.min(w.events.len())..]
                .iter()
                .any(|e| matches!(e, Event::Outcome(..)))
            {
                break;
            }
            let Some(pd) = w.pending() else { break };
            let asked: Vec<(u8, usize)> =
                pd.seats.iter().map(|s| (s.seat, s.moves.len())).collect();
            let mut choices = Vec::with_capacity(asked.len());
            for (s, n) in asked {
                let c = if s != seat {
                    rng.below(n.max(1) as u32) as usize
                } else if n <= 1 {
                    0
                } else if pd_alone(w) && owned_cards(p, w, seat, false).is_empty() {
                    self.leave(p, w, seat)
                } else {
                    self.remembered(p, w, seat, k)
                };
                choices.push(c);
            }
            if w.apply(p, &choices).is_err() {
                break;
            }
        }
    }

    /// The greedy player's move at `w`'s decision in deal `k`, remembered by what the
    /// seat holds and sees and the moves offered.
    fn remembered(&mut self, p: &Program, w: &State, seat: u8, k: usize) -> usize {
        let Some(moves) = seat_moves(w, seat) else {
            return 0;
        };
        let key = (
            k,
            owned_cards(p, w, seat, false),
            w.visible_to(p, seat),
            fingerprint(&moves),
        );
        if let Some(&c) = self.phase_mut().remembered.get(&key) {
            return c.min(moves.len() - 1);
        }
        let c = if self.left.1 == 0 {
            0
        } else {
            self.left.1 -= 1;
            self.inner.choose(p, w, seat, &moves)
        };
        let memo = &mut self.phase_mut().remembered;
        if memo.len() >= REMEMBERED {
            memo.clear();
        }
        memo.insert(key, c);
        c
    }

    /// The move that leaves the menu waiting in `w`: the first after which a card moves
    /// or the seat is not the one asked; the first move when none does.
    fn leave(&mut self, p: &Program, w: &State, seat: u8) -> usize {
        let Some(site) = site_of(w) else { return 0 };
        let n = seat_moves(w, seat).map_or(0, |m| m.len());
        // Remembered by where it is decided; a decision there offering fewer moves (an
        // option whose guard now fails) is worked out again.
        if let Some(&i) = self.phase_mut().leave.get(&site).filter(|&&i| i < n) {
            return i;
        }
        let counts = zone_counts(w);
        let mut found = 0;
        for i in 0..n {
            let mut next = w.clone_without_events();
            next.keep_log = false;
            if !self.step(p, &mut next, &[i]) {
                found = i;
                break;
            }
            let unmoved = counts == zone_counts(&next)
                && next
                    .pending()
                    .is_some_and(|pd| pd.seats.len() == 1 && pd.seats[0].seat == seat);
            if !unmoved {
                found = i;
                break;
            }
        }
        self.phase_mut().leave.insert(site, found);
        found
    }
}

/// Gives copy `w` at most [`PLAYOUT_WORK`] steps of work, none for a next round.
fn limit(w: &mut State) {
    w.steps_left = w.steps_left.min(PLAYOUT_WORK);
    w.game_steps_left = 0;
}

/// The lower bound (mean less one standard error) and the sure part (mean less two) of
/// the gains per deal of `after` over `base`.
fn gain(base: &[i64], after: &[i64]) -> (f64, f64) {
    let n = base.len().min(after.len());
    if n == 0 {
        return (f64::NEG_INFINITY, f64::NEG_INFINITY);
    }
    let d: Vec<f64> = base
        .iter()
        .zip(after)
        .map(|(a, b)| (*b - *a) as f64)
        .collect();
    let mean = d.iter().sum::<f64>() / n as f64;
    let var = d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n.max(2) - 1) as f64;
    let se = (var / n as f64).sqrt();
    (mean - se, mean - 2.0 * se)
}

/// The moves tried of a decision: all of them, or, for a choice of a number among
/// more than [`NUMBERS_TRIED`], a geometric sample from the smallest to the largest.
fn tried(moves: &[Move]) -> Vec<usize> {
    let numbers = moves.iter().all(|m| matches!(m.arg, Value::Int(_)));
    if !numbers || moves.len() <= NUMBERS_TRIED {
        return (0..moves.len()).collect();
    }
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by_key(|&i| match moves[i].arg {
        Value::Int(v) => v,
        _ => 0,
    });
    let last = (moves.len() - 1) as f64;
    let mut picked: Vec<usize> = (0..NUMBERS_TRIED)
        .map(|j| {
            let x = (last + 1.0).powf(j as f64 / (NUMBERS_TRIED - 1) as f64) - 1.0;
            order[(x.round() as usize).min(moves.len() - 1)]
        })
        .collect();
    picked.dedup();
    picked
}

/// Where the decision waiting in `w` is taken: its body and op.
fn site_of(w: &State) -> Option<(CodeRef, u32)> {
    let pd = w.pending()?;
    Some((w.frames.last()?.code, pd.at))
}

/// How many cards each zone holds.
fn zone_counts(w: &State) -> Vec<usize> {
    w.board.sets.iter().map(|s| s.len()).collect()
}

/// Whether the decision waiting in `w` asks one seat.
fn pd_alone(w: &State) -> bool {
    w.pending().is_some_and(|pd| pd.seats.len() == 1)
}

/// The moves `seat` is offered in `w`.
fn seat_moves(w: &State, seat: u8) -> Option<Vec<Move>> {
    w.pending()?
        .seats
        .iter()
        .find(|s| s.seat == seat)
        .map(|s| s.moves.clone())
}

/// A hash of the moves offered (options and arguments).
fn fingerprint(moves: &[Move]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for m in moves {
        m.option.hash(&mut h);
        match &m.arg {
            Value::Int(i) => i.hash(&mut h),
            Value::Bool(b) => b.hash(&mut h),
            Value::Seat(s) => s.hash(&mut h),
            Value::Card(c) => c.hash(&mut h),
            Value::Cards(c) => c.hash(&mut h),
            Value::Sym(s) => s.hash(&mut h),
            other => std::mem::discriminant(other).hash(&mut h),
        }
    }
    h.finish()
}
