//! A lowered program ([`Image`]): every procedure's instructions in one array, and the
//! tables instructions point into (decisions, deals, argument lists, constants).

use crate::ir::{Expr, Loc};
use crate::model::CardSet;

use super::ins::{Arg, Cond, Ins, Num, NumKind, Reg, Seats, Set, Zr};

/// Why a program has no machine code: the first construct `lower` has no instruction
/// for. Its games run in the engine, as they always can.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declined {
    /// What was not lowered.
    pub reason: String,
}

impl Declined {
    /// A program declined for `reason`.
    pub fn new(reason: impl Into<String>) -> Declined {
        Declined {
            reason: reason.into(),
        }
    }
}

/// A program's machine code for one seat count.
#[derive(Debug, Default)]
pub struct Image {
    /// Every procedure's instructions, one after another.
    pub code: Vec<Ins>,
    /// Each procedure's frame.
    pub procs: Vec<ProcImage>,
    /// The procedure a game starts in (`match`).
    pub entry: u16,
    /// Constant card sets.
    pub sets: Vec<CardSet>,
    /// For each card attribute, the cards of each value: the smallest value and the
    /// sets from it on (made when a quantifier first asks about the attribute).
    pub attr_cards: Vec<(i64, Vec<CardSet>)>,
    /// `tally` labels.
    pub labels: Vec<std::sync::Arc<str>>,
    /// The program's symbols, shared: an outcome's event names its symbol without a
    /// new string each deal.
    pub names: Vec<std::sync::Arc<str>>,
    /// Deals.
    pub deals: Vec<DealDef>,
    /// Each `dealer by draw`'s keys, `(lowest, attribute)`, the first deciding.
    pub draws: Vec<Box<[(bool, u16)]>>,
    /// Decisions taken by one seat.
    pub picks: Vec<PickDef>,
    /// Decisions of the draw-or-take shape, resolved (see [`Ins::PickTake`]).
    pub take_picks: Vec<super::shapes::TakePick>,
    /// Decisions of the win-or-discard shape, resolved (see [`Ins::PickOwn`]).
    pub own_picks: Vec<super::shapes::OwnPick>,
    /// Claim windows.
    pub claims: Vec<ClaimDef>,
    /// Hand guards.
    pub hands: Vec<HandDef>,
    /// Argument lists of calls and score tables.
    pub arg_lists: Vec<Box<[Arg]>>,
    /// Values worked out by the engine's evaluator.
    pub cold: Vec<ColdDef>,
    /// The first instruction of each guard's code (snippet).
    pub snippets: Vec<u32>,
    /// Whether the rules read `claimed(…)`: every claim window then keeps its claims on
    /// the board, as the engine's do, and none takes a quick path that would not.
    pub reads_claims: bool,
    /// Register files of games that ended, for the next games (see [`Files`]).
    pub(super) files: Files,
}

/// Register files kept between games: a frame's files are fixed-size (10 KiB), and
/// zeroing fresh ones for every game and call cost more than some whole turns. A game
/// takes them all when it starts and gives them back when it ends, so games on other
/// threads at the same time make their own; at most [`Files::MOST_KEPT`] are kept, or
/// every time two games overlapped the pool would grow by a game's files (a million
/// games on two threads held 900 MB). Which files a game gets never changes what it
/// does: each call clears the registers its procedure uses.
#[derive(Default)]
pub(super) struct Files(std::sync::Mutex<Vec<(super::machine::Nums, super::machine::Sets)>>);

impl Files {
    /// Every kept file pair (none when another game holds them).
    pub(super) fn take(&self) -> Vec<(super::machine::Nums, super::machine::Sets)> {
        match self.0.lock() {
            Ok(mut kept) => std::mem::take(&mut *kept),
            Err(_) => Vec::new(),
        }
    }

    /// Most file pairs kept: the frames of several games' deepest calls.
    pub(super) const MOST_KEPT: usize = 64;

    /// Keeps `files` for the next game, up to [`Files::MOST_KEPT`] in all.
    pub(super) fn give(&self, mut files: Vec<(super::machine::Nums, super::machine::Sets)>) {
        if let Ok(mut kept) = self.0.lock() {
            let room = Files::MOST_KEPT.saturating_sub(kept.len());
            files.truncate(room);
            kept.append(&mut files);
        }
    }
}

impl std::fmt::Debug for Files {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Files")
    }
}

/// A procedure's frame: where its code starts, how many registers of each file it
/// takes, and which register each of its local slots is.
#[derive(Clone, Debug, Default)]
pub struct ProcImage {
    /// First instruction.
    pub start: u32,
    /// Number registers.
    pub nums: u16,
    /// Card-set registers.
    pub sets: u16,
    /// Other-value registers.
    pub objs: u16,
    /// Each local slot's register (parameters first), for the engine's evaluator.
    pub slots: Vec<SlotReg>,
}

/// Where a local slot lives in a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotReg {
    /// A number register holding a value of this kind.
    Num(Reg, NumKind),
    /// A card-set register.
    Set(Reg),
    /// An other-values register.
    Obj(Reg),
    /// A slot only the machine's own loops use (their counters).
    Hidden,
}

/// `deal k1, k2… from z to family from seat`, or to one zone.
#[derive(Clone, Debug)]
pub struct DealDef {
    /// Cards per pass.
    pub counts: Box<[Num]>,
    /// The zone dealt from.
    pub from: Zr,
    /// The per-seat zone dealt to (its first instance), or one zone instance.
    pub to: DealTo,
    /// The first seat dealt to; `None`: the one after the dealer.
    pub start: Option<Num>,
}

/// Where a deal's cards go.
#[derive(Clone, Copy, Debug)]
pub enum DealTo {
    /// Each seat's instance of a per-seat zone (its first instance).
    Family(u16),
    /// One zone instance.
    Zone(Zr),
}

/// A `choose` by one seat.
#[derive(Clone, Debug)]
pub struct PickDef {
    /// The deciding seat.
    pub who: Num,
    /// A register bound to the deciding seat, if the decision names one.
    pub seat_reg: Option<Reg>,
    /// Its options, in order.
    pub options: Box<[PickOption]>,
    /// The same decision resolved, when it has the usual shape (`shapes.rs`).
    pub quick: Option<super::shapes::QuickPick>,
}

/// One option of a [`PickDef`].
#[derive(Clone, Debug)]
pub struct PickOption {
    /// How its moves are counted.
    pub count: Count,
    /// Whether it may end the round (an eager player takes it).
    pub ends: bool,
    /// Its body's first instruction.
    pub body: u32,
}

/// How an option's moves are counted.
#[derive(Clone, Debug)]
pub enum Count {
    /// One move, when the guard holds (always, without one).
    One(Option<Guard>),
    /// One move per card of a zone whose guard holds for it, the card bound to `param`
    /// (a number register), in card order.
    Cards {
        /// The cards (a zone's, read as the decision is taken).
        of: Set,
        /// The register the card is bound to.
        param: Reg,
        /// Which cards the guard allows.
        guard: CardGuard,
    },
    /// One move per value of a list or a range (seats, numbers, symbols, sets of cards:
    /// `m in sets(手[s], 2)`) whose guard holds for it, the value bound to `param`, in
    /// the list's order, as the engine offers them.
    Values {
        /// The other-values register holding the domain, worked out just before the
        /// decision.
        of: Reg,
        /// Where the value is bound.
        param: SlotReg,
        /// The guard, asked value by value with the value bound.
        guard: Option<Guard>,
    },
}

/// A guard on a card option.
#[derive(Clone, Debug)]
pub enum CardGuard {
    /// Every card.
    All,
    /// Every card but the one in a number register (`d != t`).
    AllBut(Reg),
    /// The cards of a set worked out just before the decision: a guard that asks only
    /// about the card's attributes, tags and memberships (`f.number == c.number`), as
    /// the cards of the deck for which it holds, so that the option's cards are one
    /// intersection instead of the guard asked card by card.
    In(Set),
    /// The cards for which a guard holds, asked card by card with the card bound.
    Each(Guard),
}

/// A guard: a condition on numbers, a hand guard, or code that yields the answer.
#[derive(Clone, Debug)]
pub enum Guard {
    /// A comparison.
    Cond(Cond),
    /// A hand guard ([`HandDef`], by index), with the code of the whole guard (a
    /// snippet) for when its hand may fit and no plan answers.
    Hand(u16, u16),
    /// Code ending in [`super::ins::Ins::Yield`], by snippet (see [`Image::snippets`]).
    Code(u16),
}

/// `TABLE(zone[seat] (+ card)).total > 0`: read off the board's fit sums and the
/// table's plans (see `ir::HandGuard`).
#[derive(Clone, Debug)]
pub struct HandDef {
    /// The per-seat zone's first instance.
    pub first: u16,
    /// The number register holding the seat.
    pub seat: Reg,
    /// The card added to the hand: a number register (a card), or a card-set register.
    pub plus: Option<Plus>,
    /// The pattern's fit table when the board keeps its sums: the table, where the
    /// hand's sum is (`instance * tracks + track`), and `tracks` (`None` also when a
    /// set is added to the hand, which is counted card by card).
    pub fit: Option<(std::sync::Arc<crate::pattern::FitTable>, usize, usize)>,
    /// The pattern.
    pub pattern: u16,
    /// The score table.
    pub table: u16,
    /// Whether `score::pays` answers the guard exactly.
    pub exact: bool,
}

/// The parts of a hand guard whose table's sums the board keeps that the quick
/// decisions read every time (copied from the [`HandDef`] into the quick forms that
/// ask it, so that they read them without a lookup).
#[derive(Clone, Debug)]
pub struct HandFit {
    /// The per-seat zone's first instance.
    pub first: u16,
    /// The pattern's fit table.
    pub table: std::sync::Arc<crate::pattern::FitTable>,
    /// Where a hand's sum is among an instance's sums (`instance * tracks + track`).
    pub track: usize,
    /// How many sums the board keeps per instance.
    pub tracks: usize,
}

impl HandDef {
    /// The guard's [`HandFit`], when the board keeps its table's sums.
    pub fn hand_fit(&self) -> Option<HandFit> {
        let (table, track, tracks) = self.fit.as_ref()?;
        Some(HandFit {
            first: self.first,
            table: table.clone(),
            track: *track,
            tracks: *tracks,
        })
    }
}

/// What a hand guard adds to the hand.
#[derive(Clone, Copy, Debug)]
pub enum Plus {
    /// The card in a number register.
    Card(Reg),
    /// The cards in a card-set register.
    Set(Reg),
}

/// A claim window.
#[derive(Clone, Debug)]
pub struct ClaimDef {
    /// The seats asked, in order.
    pub who: Seats,
    /// The number register bound to the asked seat.
    pub seat_reg: Reg,
    /// Its options (none takes an argument).
    pub options: Box<[ClaimOption]>,
    /// Where the rules go on when nobody claims.
    pub after: u32,
    /// Whether a claim's body may `decline`: the claims after the one taken are then
    /// kept, in the order they win, for it.
    pub declines: bool,
    /// The same window resolved, when it has the usual shape (`shapes.rs`).
    pub quick: Option<super::shapes::QuickClaim>,
}

/// One option of a claim window.
#[derive(Clone, Debug)]
pub struct ClaimOption {
    /// Its guard, if any.
    pub guard: Option<Guard>,
    /// Its argument, for a move over values (`ポン(m in sets(手札[x], 2))`).
    pub arg: Option<ClaimArg>,
    /// Its move's name ([`crate::ir::Program::move_names`]), kept on the board for
    /// `claimed(…)`.
    pub name: u32,
    /// Whether it may end the round.
    pub ends: bool,
    /// Its priority (the highest claim wins; the first asked among equals).
    pub priority: i64,
    /// Its body's first instruction.
    pub body: u32,
}

/// A claim's argument: its domain, worked out for each asked seat (it may read the
/// seat), and where each value is bound while its guard is asked.
#[derive(Clone, Copy, Debug)]
pub struct ClaimArg {
    /// The cold expression ([`Image::cold`]) that puts the domain in `of`.
    pub dom: u16,
    /// The other-values register the domain goes to.
    pub of: Reg,
    /// Where a value is bound.
    pub param: SlotReg,
}

/// A value the engine's evaluator works out.
#[derive(Clone, Debug)]
pub struct ColdDef {
    /// The expression (its locals are the running frame's slots).
    pub expr: Expr,
    /// Slots the expression around it bound to registers of their own (see
    /// `Lower::slot`), given to the evaluator over the frame's.
    pub overlay: Vec<(u16, SlotReg)>,
    /// Where the value goes.
    pub dst: SlotReg,
    /// Where written, for the evaluator's messages.
    pub at: Loc,
    /// The frame's slots the expression reads, each once: only these are handed to
    /// the evaluator (the others stay empty), since a procedure may have dozens of
    /// slots and a guard asked for each of a hundred moves reads two or three.
    pub reads: Box<[u16]>,
}

#[cfg(test)]
mod tests {
    use super::Files;

    #[test]
    fn the_kept_files_stay_few_however_often_games_overlap() {
        let files = Files::default();
        // Two games at once, many times over: each takes what is kept (the other then
        // finds none and makes its own) and gives back all it used.
        for _ in 0..200 {
            let a = files.take();
            let b = files.take();
            let made = |n| (0..n).map(|_| crate::vm::machine::new_files());
            files.give(a.into_iter().chain(made(3)).collect());
            files.give(b.into_iter().chain(made(3)).collect());
        }
        assert_eq!(files.take().len(), Files::MOST_KEPT);
    }
}
