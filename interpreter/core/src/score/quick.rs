//! Conditions that read only the split's groups, answered on card sets without the
//! evaluator.
//!
//! After the rewrites (`score/rewrite.rs`) a row's condition that a plan leaves open is
//! usually a few set operations on groups and constants compared to a number:
//! `count(五 - 桐) == 3`, `pairs(五 - {黄桐}, month) >= 2`, `empty(三 - 赤短)`,
//! `card in 五`. Each form here is read exactly as the evaluator reads it (a missing
//! group is empty; `count` and `pairs` of a set; `pairs` sums ⌊n/2⌋ over the
//! attribute's classes), and none of them can fail, so answering one here changes
//! nothing but the time it takes.

use crate::ir::{Builtin, Expr, Op2, Program};
use crate::model::{CardIx, CardSet};
use crate::value::Value;

/// A condition on the groups.
#[derive(Clone, Debug)]
pub enum Quick {
    /// A constant.
    Const(bool),
    /// `not`.
    Not(Box<Quick>),
    /// Short-circuit `and`.
    And(Box<Quick>, Box<Quick>),
    /// Short-circuit `or`.
    Or(Box<Quick>, Box<Quick>),
    /// `empty(set)`.
    Empty(Set),
    /// `card in set`.
    Has(CardIx, Set),
    /// Two numbers compared.
    Cmp(Op2, Num, Num),
}

/// A number read off the groups.
#[derive(Clone, Debug)]
pub enum Num {
    /// A constant.
    Const(i64),
    /// `count(set)`.
    Count(Set),
    /// `pairs(set, A)`.
    Pairs(Set, Box<PairsOf>),
}

/// A card set made of groups and constants.
#[derive(Clone, Debug)]
pub enum Set {
    /// The cards of group `i` of the split that are in the given set: the group itself
    /// (every card), or the group less constant cards (`五 - {黄桐}` is one
    /// intersection, not a difference of two sets made apart).
    Group(u16, CardSet),
    /// A constant set.
    Cards(CardSet),
    /// Union.
    Union(Box<Set>, Box<Set>),
    /// Difference.
    Minus(Box<Set>, Box<Set>),
}

/// Every card: a group kept whole.
const EVERY: CardSet = CardSet([!0; 4]);

impl Quick {
    /// `e` as a quick condition, when every part of it has a form above.
    pub(crate) fn of(p: &Program, e: &Expr) -> Option<Quick> {
        Some(match e {
            Expr::Const(v) => Quick::Const(v.truthy()),
            Expr::Not(x) => Quick::Not(Box::new(Quick::of(p, x)?)),
            Expr::And(a, b) => Quick::And(Box::new(Quick::of(p, a)?), Box::new(Quick::of(p, b)?)),
            Expr::Or(a, b) => Quick::Or(Box::new(Quick::of(p, a)?), Box::new(Quick::of(p, b)?)),
            Expr::Call(Builtin::Empty, args, _) if args.len() == 1 => {
                Quick::Empty(Set::of(&args[0])?)
            }
            Expr::Bin(Op2::InCards, c, s) => match &**c {
                Expr::Const(Value::Card(c)) => Quick::Has(*c, Set::of(s)?),
                _ => return None,
            },
            Expr::Bin(
                op @ (Op2::Lt | Op2::Le | Op2::Gt | Op2::Ge | Op2::EqScalar | Op2::NeScalar),
                a,
                b,
            ) => Quick::Cmp(*op, Num::of(p, a)?, Num::of(p, b)?),
            _ => return None,
        })
    }

    /// The answer for a split's groups.
    pub(crate) fn holds(&self, groups: &[CardSet]) -> bool {
        match self {
            Quick::Const(b) => *b,
            Quick::Not(x) => !x.holds(groups),
            Quick::And(a, b) => a.holds(groups) && b.holds(groups),
            Quick::Or(a, b) => a.holds(groups) || b.holds(groups),
            Quick::Empty(s) => s.of_groups(groups).is_empty(),
            Quick::Has(c, s) => s.of_groups(groups).contains(*c),
            Quick::Cmp(op, a, b) => {
                let (x, y) = (a.of_groups(groups), b.of_groups(groups));
                match op {
                    Op2::Lt => x < y,
                    Op2::Le => x <= y,
                    Op2::Gt => x > y,
                    Op2::Ge => x >= y,
                    Op2::EqScalar => x == y,
                    _ => x != y,
                }
            }
        }
    }
}

impl Num {
    fn of(p: &Program, e: &Expr) -> Option<Num> {
        Some(match e {
            Expr::Const(Value::Int(n)) => Num::Const(*n),
            Expr::Call(Builtin::Count, args, _) if args.len() == 1 => {
                Num::Count(Set::of(&args[0])?)
            }
            Expr::Call(Builtin::Pairs, args, _) if args.len() == 2 => match &args[1] {
                Expr::Const(Value::Int(a)) => {
                    let a = u16::try_from(*a)
                        .ok()
                        .filter(|a| (*a as usize) < p.deck.attrs.len())?;
                    Num::Pairs(
                        Set::of(&args[0])?,
                        Box::new(PairsOf::new(p.deck.classes(a))),
                    )
                }
                _ => return None,
            },
            _ => return None,
        })
    }

    fn of_groups(&self, groups: &[CardSet]) -> i64 {
        match self {
            Num::Const(n) => *n,
            Num::Count(s) => count(s.of_groups(groups)) as i64,
            Num::Pairs(s, of) => of.pairs(s.of_groups(groups)) as i64,
        }
    }
}

/// The classes of the attribute `pairs` reads, ready to count pairs in a set.
#[derive(Clone, Debug)]
pub struct PairsOf {
    classes: Box<[CardSet]>,
    /// When the classes are at most 64 and do not overlap: each card's class (or
    /// [`NO_CLASS`]), and the cards in some class.
    by_card: Option<(Box<[u8]>, CardSet)>,
}

/// A card in none of the classes.
const NO_CLASS: u8 = u8::MAX;

impl PairsOf {
    fn new(classes: &[CardSet]) -> PairsOf {
        let mut covered = CardSet::EMPTY;
        let mut of = vec![NO_CLASS; crate::model::MAX_CARDS];
        let mut disjoint = classes.len() <= 64;
        for (i, class) in classes.iter().enumerate() {
            disjoint &= class.inter(covered).is_empty();
            covered = covered.union(*class);
            for c in class.iter() {
                of[c as usize] = i as u8;
            }
        }
        PairsOf {
            classes: classes.into(),
            by_card: disjoint.then(|| (of.into_boxed_slice(), covered)),
        }
    }

    /// Σ ⌊n/2⌋ over the classes, n the cards of `set` in each. With disjoint classes that
    /// is (the cards in some class − the classes holding an odd number of them) / 2:
    /// one pass over the set's few cards instead of one intersection per class.
    #[inline]
    fn pairs(&self, set: CardSet) -> usize {
        let Some((of, covered)) = &self.by_card else {
            return self
                .classes
                .iter()
                .map(|class| count(set.inter(*class)) / 2)
                .sum();
        };
        let set = set.inter(*covered);
        let mut odd = 0u64;
        let mut n = 0;
        for (w, word) in set.0.iter().enumerate() {
            let mut x = *word;
            while x != 0 {
                let c = w * 64 + x.trailing_zeros() as usize;
                odd ^= 1 << of[c];
                n += 1;
                x &= x - 1;
            }
        }
        (n - odd.count_ones() as usize) / 2
    }
}

impl Set {
    /// `e` as a set; constants are folded in (into each other, and into a group they
    /// are taken from), which reads the same cards.
    fn of(e: &Expr) -> Option<Set> {
        Some(match e {
            Expr::Group(g) => Set::Group(*g, EVERY),
            Expr::Cards(s) => Set::Cards(*s),
            Expr::Bin(Op2::Union, a, b) => match (Set::of(a)?, Set::of(b)?) {
                (Set::Cards(x), Set::Cards(y)) => Set::Cards(x.union(y)),
                (a, b) => Set::Union(Box::new(a), Box::new(b)),
            },
            Expr::Bin(Op2::Minus, a, b) => match (Set::of(a)?, Set::of(b)?) {
                (Set::Cards(x), Set::Cards(y)) => Set::Cards(x.minus(y)),
                (Set::Group(g, keep), Set::Cards(y)) => Set::Group(g, keep.minus(y)),
                (a, b) => Set::Minus(Box::new(a), Box::new(b)),
            },
            _ => return None,
        })
    }

    #[inline]
    fn of_groups(&self, groups: &[CardSet]) -> CardSet {
        match self {
            Set::Group(g, keep) => groups
                .get(*g as usize)
                .map_or(CardSet::EMPTY, |s| s.inter(*keep)),
            Set::Cards(s) => *s,
            Set::Union(a, b) => a.of_groups(groups).union(b.of_groups(groups)),
            Set::Minus(a, b) => a.of_groups(groups).minus(b.of_groups(groups)),
        }
    }
}

/// The number of cards in `s`, skipping empty words (most decks use one word of four).
#[inline]
fn count(s: CardSet) -> usize {
    s.0.iter()
        .map(|w| if *w == 0 { 0 } else { w.count_ones() as usize })
        .sum()
}
