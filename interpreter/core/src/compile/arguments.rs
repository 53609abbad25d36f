//! How an inlined def receives its arguments: bound once before the body (`let`), or
//! put where the body uses it when that changes nothing but the cost.
//!
//! Expressions have no effects, so an argument's value does not depend on when it is
//! worked out. Putting a once-used argument at its use lets `and`, `or` and `if` in the
//! def skip it: `鬼の残り(c, 鬼月, sum(x in seats(): …))` does not sum the capture
//! piles while `鬼月` is 0. An argument the body never uses is not worked out at all.

use crate::ir::Expr;

/// The def body `body` with parameter `slot` given `val`.
pub(super) fn bind_argument(slot: u16, val: Expr, mut body: Expr) -> Expr {
    let mut uses = Uses::default();
    uses.count_in(&body, slot, false);
    if uses.count == 0 {
        return body;
    }
    // Inside a quantifier's body a use runs once per element: only a value that costs
    // no more than reading a slot is repeated there.
    if (uses.count == 1 && !uses.repeated) || reads_only(&val) {
        put(&mut body, slot, &val);
        return body;
    }
    Expr::LetIn(slot, Box::new(val), Box::new(body))
}

/// How often a body uses a slot, and whether some use may run more than once.
#[derive(Default)]
struct Uses {
    count: usize,
    repeated: bool,
}

impl Uses {
    fn count_in(&mut self, e: &Expr, slot: u16, repeated: bool) {
        match e {
            Expr::Local(s) if *s == slot => {
                self.count += 1;
                self.repeated |= repeated;
            }
            // The domain is worked out once, the body once per element.
            Expr::Binder(_, _, dom, body, _) => {
                self.count_in(dom, slot, repeated);
                self.count_in(body, slot, true);
            }
            _ => e.children(|c| self.count_in(c, slot, repeated)),
        }
    }
}

/// Whether `e` is read straight from a slot, the board's names or a constant: as cheap
/// to repeat as the slot it would be bound to.
fn reads_only(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Const(_)
            | Expr::Local(_)
            | Expr::Param(_)
            | Expr::Dealer
            | Expr::Zone(_)
            | Expr::ZoneFamily(_)
            | Expr::Cards(_)
    )
}

/// Replaces each use of `slot` in `e` with `val`.
fn put(e: &mut Expr, slot: u16, val: &Expr) {
    match e {
        Expr::Local(s) if *s == slot => *e = val.clone(),
        _ => e.children_mut(|c| put(c, slot, val)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BinderKind, Op2};
    use crate::value::Value;

    fn local(s: u16) -> Box<Expr> {
        Box::new(Expr::Local(s))
    }

    fn int(k: i64) -> Box<Expr> {
        Box::new(Expr::Const(Value::Int(k)))
    }

    /// A value that is not a plain read: `v + 1` of local `v`.
    fn costly(v: u16) -> Expr {
        Expr::Bin(Op2::Add, local(v), int(1))
    }

    #[test]
    fn a_once_used_argument_goes_where_it_is_used() {
        // x > 0 and x2 == 3, with x2 the parameter
        let body = Expr::And(
            Box::new(Expr::Bin(Op2::Gt, local(1), int(0))),
            Box::new(Expr::Bin(Op2::EqScalar, local(9), int(3))),
        );
        let out = bind_argument(9, costly(5), body);
        let want = Expr::And(
            Box::new(Expr::Bin(Op2::Gt, local(1), int(0))),
            Box::new(Expr::Bin(Op2::EqScalar, Box::new(costly(5)), int(3))),
        );
        assert_eq!(format!("{out:?}"), format!("{want:?}"));
    }

    #[test]
    fn a_twice_used_argument_is_bound_once() {
        let body = Expr::Bin(Op2::Add, local(9), local(9));
        let out = bind_argument(9, costly(5), body);
        assert!(matches!(out, Expr::LetIn(9, ..)), "{out:?}");
    }

    #[test]
    fn a_use_in_a_quantifier_body_is_bound_once_unless_it_is_a_read() {
        let body = Expr::Binder(
            BinderKind::Count,
            3,
            local(4),
            Box::new(Expr::Bin(Op2::EqScalar, local(3), local(9))),
            false,
        );
        let bound = bind_argument(9, costly(5), body.clone());
        assert!(matches!(bound, Expr::LetIn(9, ..)), "{bound:?}");
        let read = bind_argument(9, Expr::Local(5), body);
        let Expr::Binder(_, _, _, b, _) = &read else {
            panic!("{read:?}")
        };
        assert_eq!(
            format!("{b:?}"),
            format!("{:?}", Expr::Bin(Op2::EqScalar, local(3), local(5)))
        );
    }

    #[test]
    fn a_quantifier_domain_is_worked_out_once() {
        let body = Expr::Binder(
            BinderKind::Count,
            3,
            local(9),
            Box::new(Expr::Const(Value::Bool(true))),
            false,
        );
        let out = bind_argument(9, costly(5), body);
        assert!(
            matches!(out, Expr::Binder(_, _, ref d, ..) if matches!(**d, Expr::Bin(..))),
            "{out:?}"
        );
    }

    #[test]
    fn an_unused_argument_is_dropped() {
        let out = bind_argument(9, costly(5), Expr::Const(Value::Bool(true)));
        assert!(matches!(out, Expr::Const(Value::Bool(true))));
    }
}
