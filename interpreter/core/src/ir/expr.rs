//! Compiled expressions: builtins, operators, binders and the expression tree, with
//! every name resolved to a slot, variable, zone or card index.

use super::Loc;
use crate::model::{CardIx, CardSet};
use crate::value::Value;

/// Builtin functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// Number of cards / elements.
    Count,
    /// Same as count, for lists.
    Len,
    /// Top card of a zone.
    Top,
    /// Whether a zone or set is empty.
    Empty,
    /// The seat after.
    Next,
    /// The seat before.
    Prev,
    /// All seats except one, from the next on.
    Others,
    /// All seats from the dealer on.
    Seats,
    /// Number of seats.
    Players,
    /// Seats with the highest value of a per-seat int variable, from the dealer on.
    Leaders,
    /// The role name of a seat.
    Role,
    /// Same-attribute pairs in a set: Σ ⌊n/2⌋ over attribute values.
    Pairs,
    /// Smaller of two ints.
    Min,
    /// Larger of two ints.
    Max,
    /// Absolute value.
    Abs,
    /// Integer division rounding up.
    CeilDiv,
    /// Whether a pattern matches a set.
    Matches,
    /// Cards of a set with a tag.
    Tagged,
    /// Whether the cards' values spell a word of [`Program::words`](crate::ir::Program::words)`[i]` in some order.
    Word(u16),
    /// The cards of the deck that, added to a set, make pattern `i` match: a hand's
    /// waits ("one card from a win"). A second argument lists groups already formed.
    Waits(u16),
    /// The position of a value of enum `i` among its values (from 0): how a `per ENUM`
    /// variable's list is indexed.
    Ordinal(u16),
    /// Whether a hand with groups already formed (`P(hand, formed)`: a list of card
    /// sets) matches pattern `i`, each formed set one group of the split.
    Formed(u16),
    /// The sets of N (or LO to HI) cards of a set, copies of one card counted once
    /// (`sets(CARDS, N)`, `sets(CARDS, LO, HI)`): a move's domain of card sets.
    Sets,
    /// The seats that chose the move named (by its index in `Program::move_names`) in
    /// the last claim window taken, in the window's order (`claimed(ロン)`).
    Claimed,
    /// Whether a person plays the seat (`person(s)`): rules that only people can break
    /// (a declaration checked after it is made).
    Person,
}

/// Quantifier/comprehension kinds (`count(x in D: P)` …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinderKind {
    /// How many elements satisfy.
    Count,
    /// Sum of the body.
    Sum,
    /// Every element satisfies.
    All,
    /// Some element satisfies.
    Any,
    /// The cards that satisfy (domain must be cards).
    Filter,
    /// Largest body value (0 when empty).
    Max,
    /// Smallest body value (0 when empty).
    Min,
}

/// Typed operators, chosen by the compiler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op2 {
    /// Integer arithmetic.
    Add,
    /// Integer arithmetic.
    Sub,
    /// Integer arithmetic.
    Mul,
    /// Floor division (error on zero).
    Div,
    /// Euclidean remainder (error on zero).
    Rem,
    /// Equality of any two values of one type.
    Eq,
    /// Inequality.
    Ne,
    /// Equality of two scalars of one kind (ints and seats, cards, bools, symbols),
    /// compared unboxed.
    EqScalar,
    /// Inequality of two scalars of one kind.
    NeScalar,
    /// Int comparison.
    Lt,
    /// Int comparison.
    Le,
    /// Int comparison.
    Gt,
    /// Int comparison.
    Ge,
    /// Card in a set, value in a list.
    In,
    /// A card in a card set (the compiler knows both types).
    InCards,
    /// Card set union (or adding a card).
    Union,
    /// Card set difference (or removing a card).
    Minus,
    /// String or symbol concatenation for `say`.
    Concat,
}

/// A compiled expression.
#[derive(Clone, Debug)]
pub enum Expr {
    /// A constant.
    Const(Value),
    /// A local slot.
    Local(u16),
    /// A parameter's value.
    Param(u16),
    /// A global variable.
    Var(u16),
    /// A per-seat variable at a seat.
    SeatVar(u16, Box<Expr>),
    /// The dealer seat.
    Dealer,
    /// A shared zone.
    Zone(u16),
    /// A per-seat zone at a seat.
    SeatZone(u16, Box<Expr>),
    /// A per-seat zone family (for `deal … to 手札`).
    ZoneFamily(u16),
    /// A named card set.
    Cards(CardSet),
    /// A group of the pattern match being scored.
    Group(u16),
    /// A list.
    List(Vec<Expr>),
    /// `lo..hi`.
    Range(Box<Expr>, Box<Expr>),
    /// Unary minus.
    Neg(Box<Expr>),
    /// `not`.
    Not(Box<Expr>),
    /// Short-circuit `and`.
    And(Box<Expr>, Box<Expr>),
    /// Short-circuit `or`.
    Or(Box<Expr>, Box<Expr>),
    /// Binary typed op.
    Bin(Op2, Box<Expr>, Box<Expr>),
    /// `card.attr`.
    Attr(u16, Box<Expr>),
    /// The common value of `attr` over a group (for `same attr` groups).
    GroupAttr(u16, Box<Expr>),
    /// `card is tag`.
    HasTag(u16, Box<Expr>),
    /// A score result's field.
    ScoreField(ScoreField, Box<Expr>),
    /// `list[i]`.
    Index(Box<Expr>, Box<Expr>),
    /// A builtin call.
    Call(Builtin, Vec<Expr>, Loc),
    /// A pattern test: `matches(P, cards)`.
    PatternTest(u16, Box<Expr>),
    /// A score table call: table index and arguments (all params, defaults filled in).
    Score(u16, Vec<Expr>, Loc),
    /// A quantifier over a domain with the element bound to a local slot; the flag says
    /// the body only asks the card's class (attribute, tag or identity tests against
    /// values that do not depend on it), so a card-set domain is answered with set
    /// operations. It is set once the program is final (`compile/classes.rs`).
    Binder(BinderKind, u16, Box<Expr>, Box<Expr>, bool),
    /// `let slot = value in body` (from inlined `def` calls).
    LetIn(u16, Box<Expr>, Box<Expr>),
    /// `if c then a else b`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// The leaves of the expression's top `and` chain, left to right (`a and b and c`:
    /// `a`, `b`, `c`); any other expression is its one leaf.
    pub fn and_leaves(&self) -> Vec<&Expr> {
        fn walk<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
            match e {
                Expr::And(a, b) => {
                    walk(a, out);
                    walk(b, out);
                }
                _ => out.push(e),
            }
        }
        let mut out = Vec::new();
        walk(self, &mut out);
        out
    }

    /// As a move's guard on its card `d` (in `slot`): the local `t` when the guard is
    /// `d != t` (either way round), the card the guard leaves out of the move's zone.
    #[inline]
    pub fn leaves_out(&self, slot: u16) -> Option<u16> {
        let Expr::Bin(Op2::NeScalar, x, y) = self else {
            return None;
        };
        match (&**x, &**y) {
            (Expr::Local(a), Expr::Local(t)) | (Expr::Local(t), Expr::Local(a))
                if *a == slot && *t != slot =>
            {
                Some(*t)
            }
            _ => None,
        }
    }

    /// Whether `self` and `other` compute the same thing: the same tree, wherever each
    /// was written (the source locations calls keep for their errors are not compared,
    /// nor the flag [`Expr::Binder`] gets once the program is final), up to the slots
    /// quantifiers and `let`s bind: each inlined `def` binds fresh ones, so two calls
    /// `光数(h)` differ only in those.
    pub fn same_as(&self, other: &Expr) -> bool {
        self.same_under(other, &mut Vec::new())
    }

    /// [`Expr::same_as`], with `bound` the slots bound so far on each side, innermost
    /// last.
    fn same_under(&self, other: &Expr, bound: &mut Vec<(u16, u16)>) -> bool {
        use Expr as E;
        let all = |a: &[Expr], b: &[Expr], bound: &mut Vec<(u16, u16)>| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_under(y, bound))
        };
        // The body of a binder of `s` here and `t` there, with the two slots paired.
        let within = |s: u16, t: u16, x: &Expr, y: &Expr, bound: &mut Vec<(u16, u16)>| {
            bound.push((s, t));
            let same = x.same_under(y, bound);
            bound.pop();
            same
        };
        match (self, other) {
            (E::Const(a), E::Const(b)) => a == b,
            // A bound slot is the same as the one bound with it; a free one is itself.
            (E::Local(a), E::Local(b)) => {
                match bound.iter().rev().find(|(s, t)| s == a || t == b) {
                    Some((s, t)) => s == a && t == b,
                    None => a == b,
                }
            }
            (E::Param(a), E::Param(b))
            | (E::Var(a), E::Var(b))
            | (E::Zone(a), E::Zone(b))
            | (E::ZoneFamily(a), E::ZoneFamily(b))
            | (E::Group(a), E::Group(b)) => a == b,
            (E::Dealer, E::Dealer) => true,
            (E::Cards(a), E::Cards(b)) => a == b,
            (E::SeatVar(i, x), E::SeatVar(j, y))
            | (E::SeatZone(i, x), E::SeatZone(j, y))
            | (E::Attr(i, x), E::Attr(j, y))
            | (E::GroupAttr(i, x), E::GroupAttr(j, y))
            | (E::HasTag(i, x), E::HasTag(j, y))
            | (E::PatternTest(i, x), E::PatternTest(j, y)) => i == j && x.same_under(y, bound),
            (E::Neg(x), E::Neg(y)) | (E::Not(x), E::Not(y)) => x.same_under(y, bound),
            (E::ScoreField(f, x), E::ScoreField(g, y)) => f == g && x.same_under(y, bound),
            (E::Range(a, b), E::Range(c, d))
            | (E::And(a, b), E::And(c, d))
            | (E::Or(a, b), E::Or(c, d))
            | (E::Index(a, b), E::Index(c, d)) => a.same_under(c, bound) && b.same_under(d, bound),
            (E::Bin(o, a, b), E::Bin(p, c, d)) => {
                o == p && a.same_under(c, bound) && b.same_under(d, bound)
            }
            (E::LetIn(s, a, b), E::LetIn(t, c, d)) => {
                a.same_under(c, bound) && within(*s, *t, b, d, bound)
            }
            (E::Binder(k, s, a, b, _), E::Binder(l, t, c, d, _)) => {
                k == l && a.same_under(c, bound) && within(*s, *t, b, d, bound)
            }
            (E::If(a, b, c), E::If(d, e, f)) => {
                a.same_under(d, bound) && b.same_under(e, bound) && c.same_under(f, bound)
            }
            (E::List(a), E::List(b)) => all(a, b, bound),
            (E::Call(f, a, _), E::Call(g, b, _)) => f == g && all(a, b, bound),
            (E::Score(i, a, _), E::Score(j, b, _)) => i == j && all(a, b, bound),
            _ => false,
        }
    }

    /// Calls `f` on each direct child expression (every tree walk goes through here).
    pub fn children<'a>(&'a self, mut f: impl FnMut(&'a Expr)) {
        match self {
            Expr::SeatVar(_, x)
            | Expr::SeatZone(_, x)
            | Expr::Neg(x)
            | Expr::Not(x)
            | Expr::Attr(_, x)
            | Expr::GroupAttr(_, x)
            | Expr::HasTag(_, x)
            | Expr::ScoreField(_, x)
            | Expr::PatternTest(_, x) => f(x),
            Expr::Range(a, b)
            | Expr::And(a, b)
            | Expr::Or(a, b)
            | Expr::Bin(_, a, b)
            | Expr::Index(a, b)
            | Expr::Binder(_, _, a, b, _)
            | Expr::LetIn(_, a, b) => {
                f(a);
                f(b);
            }
            Expr::If(c, a, b) => {
                f(c);
                f(a);
                f(b);
            }
            Expr::List(items) | Expr::Call(_, items, _) | Expr::Score(_, items, _) => {
                items.iter().for_each(f)
            }
            Expr::Const(_)
            | Expr::Local(_)
            | Expr::Param(_)
            | Expr::Var(_)
            | Expr::Dealer
            | Expr::Zone(_)
            | Expr::ZoneFamily(_)
            | Expr::Cards(_)
            | Expr::Group(_) => {}
        }
    }

    /// Calls `f` on each direct child expression, for rewriting in place.
    pub fn children_mut<'a>(&'a mut self, mut f: impl FnMut(&'a mut Expr)) {
        match self {
            Expr::SeatVar(_, x)
            | Expr::SeatZone(_, x)
            | Expr::Neg(x)
            | Expr::Not(x)
            | Expr::Attr(_, x)
            | Expr::GroupAttr(_, x)
            | Expr::HasTag(_, x)
            | Expr::ScoreField(_, x)
            | Expr::PatternTest(_, x) => f(x),
            Expr::Range(a, b)
            | Expr::And(a, b)
            | Expr::Or(a, b)
            | Expr::Bin(_, a, b)
            | Expr::Index(a, b)
            | Expr::Binder(_, _, a, b, _)
            | Expr::LetIn(_, a, b) => {
                f(a);
                f(b);
            }
            Expr::If(c, a, b) => {
                f(c);
                f(a);
                f(b);
            }
            Expr::List(items) | Expr::Call(_, items, _) | Expr::Score(_, items, _) => {
                items.iter_mut().for_each(f)
            }
            Expr::Const(_)
            | Expr::Local(_)
            | Expr::Param(_)
            | Expr::Var(_)
            | Expr::Dealer
            | Expr::Zone(_)
            | Expr::ZoneFamily(_)
            | Expr::Cards(_)
            | Expr::Group(_) => {}
        }
    }
}

/// Fields of a score result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreField {
    /// The amount.
    Total,
    /// The display name.
    Name,
    /// The factor applied.
    Factor,
    /// The base value before factors.
    Base,
    /// Number of yaku.
    Count,
    /// Over a pattern of alternatives: the one whose split was scored ("" otherwise).
    Shape,
    /// `r.has(Y)`: whether a yaku or bonus row of this name (a symbol) held.
    Has(u32),
    /// `r[Y]`: the value the rows of this name held at (0 when none did).
    Held(u32),
}

/// A card id resolved to a card index, kept for messages.
pub type CardRef = (CardIx, String);

/// Whether `e` nests more than `max` levels deep (a leaf is one level). Walks with its
/// own stack, so an expression of any depth is measured safely.
pub fn depth_exceeds(e: &Expr, max: u32) -> bool {
    let mut todo: Vec<(&Expr, u32)> = vec![(e, 1)];
    while let Some((e, d)) = todo.pop() {
        if d > max {
            return true;
        }
        e.children(|c| todo.push((c, d + 1)));
    }
    false
}

/// How many levels `e` nests (a leaf is one level), measured with its own stack.
pub fn depth(e: &Expr) -> u32 {
    let mut deepest = 0;
    let mut todo: Vec<(&Expr, u32)> = vec![(e, 1)];
    while let Some((e, d)) = todo.pop() {
        deepest = deepest.max(d);
        e.children(|c| todo.push((c, d + 1)));
    }
    deepest
}
