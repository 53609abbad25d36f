//! What `fuda play` tells the person of moves and of deals' ends, as things stood when
//! they happened. A move's card is named exactly when the person's seat could see it as
//! the move was made: when it was chosen (a field card taken) or as its body ended (a
//! card played face up), as the engine's visibility rules said then, never from where
//! the card went later (a reveal after the move, or the card dealt to the person in a
//! later deal). A deal's end shows the ledger once the deal's own payments are made
//! (after its `outcome`, until its procedure returns or its loop goes round), before
//! any payment of the next deal (its ante).

use fuda_core::engine::{Move, Pending, Picker, PASS};
use fuda_core::ir::{DecideKind, Op, Program};
use fuda_core::model::CardSet;
use fuda_core::value::Value;
use fuda_core::State;

use crate::view;

/// One move taken, to be told once what the person saw of it is known.
struct Taken {
    /// `seat 1 (子)` or `you`; `None` for the person's own choice, which was echoed as
    /// made but is kept here because it runs in turn with the others (`choose each`).
    who: Option<String>,
    /// The move's name, without its card.
    label: String,
    /// The cards the move is about (its card, or its set of cards): empty for none.
    cards: CardSet,
    /// Said after the move: that it was the person's only one.
    note: &'static str,
    /// Whether the person saw the card, when chosen or as the body ended.
    seen: bool,
    /// Whether the move's body has ended (or never runs: a claim another seat won).
    done: bool,
    /// Whether its line was printed.
    told: bool,
    /// Its decision: the depth of the frame it runs in, the decision's op, and the end
    /// of the code of the decision's options.
    depth: usize,
    at: usize,
    after: usize,
}

impl Taken {
    /// Whether its line can be written: a move of the person's own, one without a
    /// card, one whose card was seen, or one whose body has ended.
    fn known(&self) -> bool {
        self.who.is_none() || self.cards.is_empty() || self.seen || self.done
    }
}

/// The moves taken and not yet told, and the picker `fuda play` advances the game with:
/// it never picks, shows a `choose` with a single move, and watches each op run, so as
/// to see the board as each move's body ends and as each `outcome` is reached.
pub struct Moves {
    me: u8,
    taken: Vec<Taken>,
    /// The ledger line at each `outcome` not yet reported, in order.
    ledgers: std::collections::VecDeque<String>,
    /// The last `outcome` reached whose payments may still run: its frame's depth, its
    /// op, and the dealer of the deal it ended (see [`Picker::before_op`] below).
    open: Option<(usize, usize, u8)>,
}

impl Moves {
    /// No moves yet, for the person at seat `me`.
    pub fn new(me: u8) -> Moves {
        Moves {
            me,
            taken: Vec::new(),
            ledgers: std::collections::VecDeque::new(),
            open: None,
        }
    }

    /// Keeps the moves of a decision about to be applied with `choices` (the passes
    /// left out), in the order the engine runs them.
    pub fn keep(&mut self, p: &Program, st: &State, pending: &Pending, choices: &[usize]) {
        let code = st.pending_code(p);
        let at = pending.at as usize;
        let Some(Op::Decide(d)) = code.get(at) else {
            return;
        };
        let visible = st.visible_to(p, self.me);
        let forced = pending.is_forced();
        // A claim runs the body of its winner alone: the highest priority, the first
        // seat asked on a tie (as `State::apply` picks it).
        let winner = (pending.kind == DecideKind::Claim)
            .then(|| {
                pending
                    .seats
                    .iter()
                    .zip(choices)
                    .enumerate()
                    .filter(|(_, (sm, c))| sm.moves[**c].option != PASS)
                    .fold(None::<(usize, i64)>, |best, (i, (sm, c))| {
                        let pr = d
                            .options
                            .get(sm.moves[*c].option as usize)
                            .map_or(0, |o| o.priority);
                        match best {
                            Some((_, bp)) if bp >= pr => best,
                            _ => Some((i, pr)),
                        }
                    })
                    .map(|(i, _)| i)
            })
            .flatten();
        for (i, (sm, c)) in pending.seats.iter().zip(choices).enumerate() {
            let m = &sm.moves[*c];
            if m.option == PASS {
                continue;
            }
            let who = if sm.seat == self.me {
                forced.then(|| "you".to_string())
            } else {
                Some(view::seat(p, st, sm.seat, Some(self.me)))
            };
            let cards = match m.arg {
                Value::Card(c) => CardSet::single(c),
                Value::Cards(set) => set,
                _ => CardSet::EMPTY,
            };
            self.taken.push(Taken {
                who,
                label: pending.describe(
                    p,
                    code,
                    &Move {
                        option: m.option,
                        // Cards are told below, as far as this player may see them;
                        // any other argument (a number, a name) is public.
                        arg: match m.arg {
                            Value::Card(_) | Value::Cards(_) => Value::Unit,
                            ref v => v.clone(),
                        },
                    },
                ),
                cards,
                note: if sm.seat == self.me {
                    " (your only move)"
                } else {
                    ""
                },
                seen: seen(cards, visible),
                done: pending.kind == DecideKind::Claim && winner != Some(i),
                told: false,
                depth: st.frames.len(),
                at,
                after: d.after as usize,
            });
        }
    }

    /// Whether a move waits to be told: its card hidden when chosen and its body still
    /// running (the next decision is one inside it, such as the capture a played card
    /// makes before it leaves the hand).
    pub fn waiting(&self) -> bool {
        self.taken.iter().any(|t| !t.told && !t.known())
    }

    /// The lines of the moves that can be told, in order, up to the first that waits;
    /// with `now`, every move, those still running named by what the person sees now
    /// (their next decision has come, or the game is over, while they run).
    pub fn lines(&mut self, p: &Program, now: Option<CardSet>) -> Vec<String> {
        let mut out = Vec::new();
        for t in self.taken.iter_mut().filter(|t| !t.told) {
            if !t.known() {
                match now {
                    Some(v) => t.seen = seen(t.cards, v),
                    None => break,
                }
            }
            t.told = true;
            let Some(who) = &t.who else {
                continue;
            };
            let shown = match t.cards.first() {
                _ if !t.seen => None,
                Some(c) if t.cards.len() == 1 => Some(fuda_core::engine::show::card(p, c)),
                Some(_) => Some(fuda_core::engine::show::cards_word(p, t.cards)),
                None => None,
            };
            out.push(match shown {
                Some(cards) => format!("{who}: {} {cards}{}", t.label, t.note),
                None => format!("{who}: {}{}", t.label, t.note),
            });
        }
        // A move told while its body runs is still followed, so that the moves queued
        // after it (`choose each`) are matched with their own ends.
        self.taken.retain(|t| !(t.told && t.done));
        out
    }

    /// The ledger line as the earliest `outcome` not yet reported left it, with the
    /// roles of the deal it ended; `None` for an outcome whose payments ran up to the
    /// decision now waiting (the ledger now is the one to show). Asked once per outcome,
    /// at the decision after it.
    pub fn ledger_at_outcome(&mut self) -> Option<String> {
        match self.ledgers.pop_front() {
            Some(l) => Some(l),
            None => {
                self.open = None;
                None
            }
        }
    }

    /// Forgets every move (the game is over).
    pub fn clear(&mut self) {
        self.taken.clear();
    }
}

impl Picker for Moves {
    const PICKS: bool = false;
    const SHOWS_FORCED: bool = true;
    const WATCHES_OPS: bool = true;

    fn pick(&mut self, _seat: u8, _n: usize, _ending: Option<usize>) -> usize {
        0
    }

    fn goes_on(&mut self, _st: &State) -> bool {
        false
    }

    /// Keeps the ledger at an `outcome`, and ends the moves whose body this op is not part of: an op outside the code of
    /// their decision's options, in their frame or one below it. The end of an option
    /// body of their decision ends only the first of them still running: the moves a
    /// `choose each` queued run one after another in the same code.
    fn before_op(&mut self, p: &Program, st: &State, depth: usize, pc: usize, op: &Op) {
        // A deal's payments follow its `outcome` (a ruleset may pay the winner after saying how
        // the deal ended) until the procedure that said it returns, or its loop goes
        // round to the next deal (a jump back), whose ante is not this deal's: the ledger
        // is kept then. An outcome whose payments run up to the next decision is shown
        // from the board at that decision.
        if let Some((d, at, dealer)) = self.open {
            if depth < d || (depth == d && pc <= at) || matches!(op, Op::Outcome(_)) {
                self.ledgers
                    .push_back(view::ledger_under(p, st, dealer, self.me));
                self.open = None;
            }
        }
        if let Op::Outcome(_) = op {
            self.open = Some((depth, pc, st.board.dealer));
        }
        let mut option_done = match op {
            Op::OptionDone { decide } => Some(*decide as usize),
            _ => None,
        };
        let mut visible = None;
        for t in self.taken.iter_mut().filter(|t| !t.done) {
            let inside = depth > t.depth || (depth == t.depth && pc > t.at && pc < t.after);
            let ends = if !inside {
                true
            } else if depth == t.depth && option_done == Some(t.at) {
                option_done = None;
                true
            } else {
                false
            };
            if ends {
                t.done = true;
                let v = *visible.get_or_insert_with(|| st.visible_to(p, self.me));
                t.seen |= seen(t.cards, v);
            }
        }
    }
}

/// Whether the person saw a move's cards: every one of them (a set shown in part is
/// not named), and there are some.
fn seen(cards: CardSet, visible: CardSet) -> bool {
    !cards.is_empty() && cards.is_subset(&visible)
}
