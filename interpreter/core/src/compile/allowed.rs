//! The cards a pattern's group may hold at all, read off its `where`: a condition that
//! asks something of every card of the group (`where all(c in 対: c is 幺九)`) names
//! a set of cards, worked out once by asking each card of the deck. The distance the
//! computer players aim by (`pattern/distance.rs`) draws a group's cards from that set
//! only, so a pattern of terminals and honours (国士無双) no longer looks close to any
//! hand of twelve different tiles.

use crate::engine::Cx;
use crate::ir::{BinderKind, Expr, Loc, Program};
use crate::model::CardSet;
use crate::value::Value;

/// The cards group `slot` may hold by its condition `cond` (compiled, not yet
/// rewritten): the intersection of what each `all(c in GROUP: …)` among its `and`ed
/// parts allows, the whole deck when none says. A part that reads anything but the
/// card is left aside, so the set is never smaller than the condition allows.
pub(super) fn allowed(p: &Program, cond: &Expr, slot: u16) -> CardSet {
    let all = p.deck.all();
    match cond {
        Expr::And(a, b) => allowed(p, a, slot).inter(allowed(p, b, slot)),
        Expr::Binder(BinderKind::All, var, dom, body, _)
            if matches!(**dom, Expr::Group(g) if g == slot) && reads_only(body, *var) =>
        {
            let mut locals = vec![Value::Unit; *var as usize + 1];
            let mut out = CardSet::EMPTY;
            for c in all.iter() {
                locals[*var as usize] = Value::Card(c);
                let mut cx = Cx {
                    p,
                    b: None,
                    locals: &mut locals,
                    groups: &[],
                    budget: 10_000,
                    at: Loc::default(),
                };
                // A card the condition cannot be asked about stays allowed.
                if cx.eval_bool(body).unwrap_or(true) {
                    out.insert(c);
                }
            }
            out
        }
        _ => all,
    }
}

/// Whether `e` reads nothing but local `var` (a card) and constants: its value is then a
/// function of the card alone.
fn reads_only(e: &Expr, var: u16) -> bool {
    let here = match e {
        Expr::Local(l) => *l == var,
        Expr::Group(_)
        | Expr::GroupAttr(..)
        | Expr::Var(_)
        | Expr::SeatVar(..)
        | Expr::Param(_)
        | Expr::Zone(_)
        | Expr::SeatZone(..)
        | Expr::ZoneFamily(_)
        | Expr::Dealer
        | Expr::Score(..)
        | Expr::PatternTest(..)
        | Expr::Binder(..)
        | Expr::LetIn(..)
        | Expr::Call(..) => false,
        _ => true,
    };
    let mut ok = here;
    e.children(|x| ok = ok && reads_only(x, var));
    ok
}
