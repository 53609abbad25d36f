//! The greedy player's choices that move no cards in a game judged by what it records (a
//! solo performance's composition before play, a declaration): each move is judged by
//! playing the round on as the greedy player itself would, in a few reshuffled worlds.
//!
//! A move that opens another such choice (an item, then its target) is worth the best of
//! what it opens; any choice after that takes its first move (a composition's "submit"
//! comes first, and a choice left alone keeps what was chosen). Once cards move, the
//! player's own decisions are the greedy player's, remembered per world and per what it
//! holds and sees: the worlds are the same for every decision of a game (drawn when it
//! starts), so the first playout in a world works the play out and every later one,
//! after another composition, replays it for the cost of the moves.

use super::{copy_into, determinize, owned_cards, recorded, Greedy, ROLLOUT_DECISIONS};
use crate::engine::{Event, Move, State};
use crate::ir::Program;
use crate::model::{CardSet, GameRng};
use crate::value::Value;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// Worlds each move is judged in.
pub(super) const WORLDS: usize = 4;
/// Most moves of a decision judged (a wider one is sampled).
const TRIED: usize = 24;
/// Most moves of an opened choice judged for each move that opens it.
const OPENED: usize = 8;
/// Most playouts (a move, maybe an opened move, a world) one decision takes.
const PLAYOUTS: usize = 128;
/// Most decisions a playout takes before play starts (past them, it plays at random).
const BEFORE_PLAY: usize = 64;
/// Most steps of work the planner may do in one game: its playouts replay whole rounds.
/// A bundled solo task's composition takes far less; a rules file whose rounds are heavy
/// plays its choices at random once this is spent, and ends its game in seconds.
pub(super) const PLAN_WORK: u64 = 400_000_000;
/// Choices remembered before the memory is emptied.
const REMEMBERED: usize = 1 << 16;
/// Most choices planned while no card moves (a composition's items): past them, the
/// first move is taken (a composition's "submit"). Each planned choice looked better
/// than the first in the worlds weighed, but a sample of a wide choice may undo a
/// better one, so a menu that can be changed forever would never be left.
const PHASE: usize = 40;

/// What the planner keeps through a game.
pub(super) struct Planner {
    /// The worlds' seeds, drawn when the game starts.
    pub(super) seeds: [u64; WORLDS],
    /// The player's choice at a decision of a playout, by world, the cards it holds, the
    /// cards it sees and the moves offered.
    policy: HashMap<(u64, CardSet, CardSet, u64), usize>,
    /// Steps of work left ([`PLAN_WORK`] at first).
    pub(super) work_left: u64,
    /// Whether a playout is in progress: its no-card choices are played out at random
    /// instead of planned again.
    pub(super) busy: bool,
    /// How many cards each zone held at the last planned choice, and how many choices
    /// have been planned since a card last moved.
    phase: (Vec<usize>, usize),
}

impl Planner {
    /// A planner whose worlds come from `seed` (apart from the player's own draws, so
    /// that planning changes none of them).
    pub(super) fn new(seed: u64) -> Planner {
        let mut rng = GameRng::new(seed ^ 0x0070_6c61_6e6e_6572);
        let mut seeds = [0; WORLDS];
        for s in &mut seeds {
            *s = rng.next_u64();
        }
        Planner {
            seeds,
            policy: HashMap::new(),
            work_left: PLAN_WORK,
            busy: false,
            phase: (Vec::new(), 0),
        }
    }
}

impl Greedy {
    /// Judges each of the `n` moves of `seat` (at `me` among the seats asked) by playouts
    /// (see the module's notes) and returns the best, ties to the first.
    pub(super) fn plan(&mut self, p: &Program, st: &State, seat: u8, me: usize, n: usize) -> usize {
        let Some(pending) = st.pending() else {
            return 0;
        };
        let asked = pending.seats.len();
        let counts: Vec<usize> = st.board.sets.iter().map(|s| s.len()).collect();
        if self.planner.phase.0 == counts {
            self.planner.phase.1 += 1;
            if self.planner.phase.1 > PHASE {
                return 0;
            }
        } else {
            self.planner.phase = (counts.clone(), 1);
        }
        let mut candidates: Vec<usize> = (0..n).collect();
        if n > TRIED {
            self.rng.shuffle(&mut candidates);
            candidates.truncate(TRIED);
            candidates.sort_unstable();
        }
        // The planner's work is its own budget, not the lookahead's.
        let saved = std::mem::replace(&mut self.lookahead_left, self.planner.work_left);
        self.planner.busy = true;
        let mut left = PLAYOUTS;
        let mut best = (i64::MIN, 0);
        for i in candidates {
            if left == 0 || self.lookahead_left == 0 {
                break;
            }
            // The move taken in each world.
            let mut after: Vec<State> = Vec::with_capacity(WORLDS);
            for k in 0..WORLDS {
                let mut slot = None;
                let w = copy_into(&mut slot, st);
                let mut rng = GameRng::new(self.planner.seeds[k]);
                determinize(p, w, seat, &mut rng, &mut self.hidden);
                let mut choices = vec![0; asked];
                choices[me] = i;
                let work = self.lend_work(w, u64::MAX);
                let ok = w.apply(p, &choices).is_ok() && w.advance(p).is_ok();
                self.charge_work(w, work);
                if ok {
                    after.extend(slot);
                }
            }
            if after.len() < WORLDS {
                continue;
            }
            // A choice it opens: the seat's alone, and no card moved.
            let opened = after[0]
                .pending()
                .filter(|pd| pd.seats.len() == 1 && pd.seats[0].seat == seat)
                .map(|pd| pd.seats[0].moves.len())
                .filter(|&m| m > 1 && same_counts(&after[0], &counts));
            let value = match opened {
                Some(m) if left >= WORLDS * 2 => {
                    let mut subs: Vec<usize> = (0..m).collect();
                    let most = OPENED.min(left / WORLDS);
                    if m > most {
                        self.rng.shuffle(&mut subs);
                        subs.truncate(most);
                        subs.sort_unstable();
                    }
                    let mut top = i64::MIN;
                    for j in subs {
                        let mut total = 0;
                        for (k, w) in after.iter().enumerate() {
                            let mut w = w.clone_without_events();
                            w.keep_log = false;
                            let events = w.events.len();
                            if w.apply(p, &[j]).is_err() {
                                total = i64::MIN;
                                break;
                            }
                            total += self.play_on(p, &mut w, seat, k, &counts, events);
                            left = left.saturating_sub(1);
                        }
                        top = top.max(total);
                    }
                    top
                }
                _ => {
                    let mut total = 0;
                    for (k, w) in after.iter_mut().enumerate() {
                        let events = w.events.len();
                        total += self.play_on(p, w, seat, k, &counts, events);
                        left = left.saturating_sub(1);
                    }
                    total
                }
            };
            if value > best.0 {
                best = (value, i);
            }
        }
        self.planner.busy = false;
        self.planner.work_left = std::mem::replace(&mut self.lookahead_left, saved);
        best.1
    }

    /// Plays world `k`'s copy `w` to the end of the round: first moves while no card has
    /// moved since the decision (whose zones held `counts` cards), then the greedy
    /// player's remembered choices for `seat` and random ones for any other; returns
    /// what the round recorded for `seat` since event `from` and the chips it won.
    fn play_on(
        &mut self,
        p: &Program,
        w: &mut State,
        seat: u8,
        k: usize,
        counts: &[usize],
        from: usize,
    ) -> i64 {
        let seed = self.planner.seeds[k];
        let mut rng = GameRng::new(seed ^ 0x9e37_79b9_7f4a_7c15);
        let chips0 = crate::play::chips_of(p, w).get(seat as usize).copied();
        let work = self.lend_work(w, super::ROLLOUT_WORK);
        let mut before_play = 0;
        for _ in 0..ROLLOUT_DECISIONS + BEFORE_PLAY {
            match w.advance(p) {
                Ok(false) => {}
                _ => break,
            }
            if w.events[from.min(w.events.len())..]
                .iter()
                .any(|e| matches!(e, Event::Outcome(..)))
            {
                break;
            }
            let Some(pd) = w.pending() else { break };
            let planning = before_play < BEFORE_PLAY && same_counts(w, counts);
            let seats: Vec<(u8, usize)> =
                pd.seats.iter().map(|s| (s.seat, s.moves.len())).collect();
            let mut choices = Vec::with_capacity(seats.len());
            for (s, m) in seats {
                let c = if planning {
                    0
                } else if s == seat && m > 1 {
                    self.remembered(p, w, seat, seed)
                } else {
                    rng.below(m.max(1) as u32) as usize
                };
                choices.push(c);
            }
            if planning {
                before_play += 1;
            }
            if w.apply(p, &choices).is_err() {
                break;
            }
        }
        self.charge_work(w, work);
        let mut value = recorded(w, seat, from);
        if let (Some(c0), Some(c1)) = (chips0, crate::play::chips_of(p, w).get(seat as usize)) {
            value += c1 - c0;
        }
        value
    }

    /// The greedy player's choice at `w`'s decision in the world drawn from `seed`,
    /// remembered by what the seat holds and sees and the moves offered.
    fn remembered(&mut self, p: &Program, w: &State, seat: u8, seed: u64) -> usize {
        let Some(moves) = w
            .pending()
            .and_then(|pd| pd.seats.iter().find(|s| s.seat == seat))
            .map(|s| s.moves.clone())
        else {
            return 0;
        };
        let key = (
            seed,
            owned_cards(p, w, seat, false),
            w.visible_to(p, seat),
            fingerprint(&moves),
        );
        if let Some(&c) = self.planner.policy.get(&key) {
            return c.min(moves.len() - 1);
        }
        use super::super::Agent;
        let c = self.choose(p, w, seat, &moves);
        if self.planner.policy.len() >= REMEMBERED {
            self.planner.policy.clear();
        }
        self.planner.policy.insert(key, c);
        c
    }
}

/// Whether every zone of `w` holds as many cards as `counts` says: no card has moved.
fn same_counts(w: &State, counts: &[usize]) -> bool {
    w.board.sets.len() == counts.len()
        && w.board.sets.iter().zip(counts).all(|(s, &n)| s.len() == n)
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
