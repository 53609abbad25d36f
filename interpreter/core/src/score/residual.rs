//! What is left of a condition once a plan's key settles the parts evaluation reaches
//! first, and how it is then answered.
//!
//! `五.kind == 素 and pairs(五 - {黄桐}, month) >= 2` under a key where 五 is 素 is
//! `pairs(…) >= 2`: evaluating `A and B` with `A` known true is evaluating `B`, and `A`
//! (a settled part: it reads only classes and few-valued locals, and did not fail when
//! tabulated) has no effect to miss. The rest is answered on card sets when it reads
//! only the groups (`score/quick.rs`), and evaluated otherwise.

use super::quick::Quick;
use crate::engine::{Cx, RuntimeError};
use crate::ir::{Expr, Program};

/// What evaluation does with a condition under one key: a part of it, its sub-trees
/// borrowed from the condition.
pub(super) enum Rest<'e> {
    /// Evaluate this expression as written.
    Whole(&'e Expr),
    /// `not` of what is left.
    Not(Box<Rest<'e>>),
    /// What is left of the left side, `and` the right side.
    And(Box<Rest<'e>>, &'e Expr),
    /// What is left of the left side, `or` the right side.
    Or(Box<Rest<'e>>, &'e Expr),
    /// What is left of the condition, then one of the branches.
    If(Box<Rest<'e>>, &'e Expr, &'e Expr),
}

// The same parts of the same condition: the sub-trees are compared by address.
impl PartialEq for Rest<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Rest::Whole(a), Rest::Whole(b)) => std::ptr::eq(*a, *b),
            (Rest::Not(a), Rest::Not(b)) => a == b,
            (Rest::And(a, x), Rest::And(b, y)) | (Rest::Or(a, x), Rest::Or(b, y)) => {
                a == b && std::ptr::eq(*x, *y)
            }
            (Rest::If(a, x1, x2), Rest::If(b, y1, y2)) => {
                a == b && std::ptr::eq(*x1, *y1) && std::ptr::eq(*x2, *y2)
            }
            _ => false,
        }
    }
}

impl Rest<'_> {
    /// The rest as an expression of its own.
    fn to_expr(&self) -> Expr {
        match self {
            Rest::Whole(e) => (*e).clone(),
            Rest::Not(r) => Expr::Not(Box::new(r.to_expr())),
            Rest::And(r, b) => Expr::And(Box::new(r.to_expr()), Box::new((*b).clone())),
            Rest::Or(r, b) => Expr::Or(Box::new(r.to_expr()), Box::new((*b).clone())),
            Rest::If(r, a, b) => Expr::If(
                Box::new(r.to_expr()),
                Box::new((*a).clone()),
                Box::new((*b).clone()),
            ),
        }
    }
}

/// How a condition left open under a key is answered.
#[derive(Clone, Debug)]
pub enum Residual {
    /// On the groups' card sets.
    Quick(Quick),
    /// By evaluating this part of the condition.
    Eval(Expr),
}

impl Residual {
    /// The residual for `rest` of condition `cond`; `None` when it is the whole
    /// condition and has no quick form (evaluated as written, nothing to store).
    pub(super) fn of(p: &Program, cond: &Expr, rest: &Rest<'_>) -> Option<Residual> {
        let whole = matches!(rest, Rest::Whole(e) if std::ptr::eq(*e, cond));
        let expr = match rest {
            Rest::Whole(e) => e,
            _ => &rest.to_expr(),
        };
        match Quick::of(p, expr) {
            Some(q) => Some(Residual::Quick(q)),
            None if whole => None,
            None => Some(Residual::Eval(expr.clone())),
        }
    }

    /// Whether it holds for the split `groups`, when that needs no evaluation (`None`:
    /// it must be evaluated, with a frame).
    #[inline]
    pub fn holds_on(&self, groups: &[crate::model::CardSet]) -> Option<bool> {
        match self {
            Residual::Quick(q) => Some(q.holds(groups)),
            Residual::Eval(_) => None,
        }
    }

    /// Whether it holds for the split in view.
    #[inline]
    pub fn holds(&self, cx: &mut Cx<'_>) -> Result<bool, RuntimeError> {
        match self {
            Residual::Quick(q) => Ok(q.holds(cx.groups)),
            Residual::Eval(e) => cx.eval_bool(e),
        }
    }
}
