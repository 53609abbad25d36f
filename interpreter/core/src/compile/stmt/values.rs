//! Procedures that return a value (`proc 点数(x: seat) -> int { … return n }`): their
//! calls inside a statement's expressions, run before the statement in the order the
//! expression would evaluate them, and the check that every way through such a
//! procedure ends in `return VALUE`.
//!
//! An expression is evaluated in one go by the engine's evaluator, which cannot stop
//! half-way for a procedure (whose decisions wait for players). So each call met in a
//! statement's expressions stands for a fresh local slot, and the statement is preceded
//! by ops that work out, in evaluation order, every part the expression evaluates before
//! the call (into slots of their own, as a procedure may change what they read), then
//! the call itself (`Op::CallValue`, whose callee's `Op::ReturnValue` fills the slot).
//! A call on the right of `and` or `or`, or in a branch of `if … then … else`, runs only
//! when evaluation would reach it (the parts become jumps); a call inside a
//! quantifier's body would run once per item and is refused.

use std::collections::BTreeMap;

use fuda_grammar::ast::{self, StmtKind};

use super::Gen;
use crate::compile::expr::{PendingCall, Scope};
use crate::compile::Compiler;
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Loc, Op};
use crate::value::{Type, Value};

/// The calls of a statement not yet placed, by the slot that stands for each.
type Pending = BTreeMap<u16, PendingCall>;

impl Compiler {
    /// Opens a statement's expressions to calls of procedures that return a value; the
    /// window that was open before (if any) is handed back to [`Compiler::close_calls`].
    pub(super) fn open_calls(&mut self, sc: &mut Scope) -> Option<Vec<PendingCall>> {
        sc.calls.replace(Vec::new())
    }

    /// Closes the window: the calls met in `exprs` (the statement's expressions, in the
    /// order the statement evaluates them) are emitted before the statement, with the
    /// parts evaluated before each, and `exprs` rewritten to read their slots.
    pub(super) fn close_calls(
        &mut self,
        sc: &mut Scope,
        g: &mut Gen,
        saved: Option<Vec<PendingCall>>,
        exprs: &mut [&mut Expr],
    ) {
        let calls = std::mem::replace(&mut sc.calls, saved).unwrap_or_default();
        if calls.is_empty() {
            return;
        }
        let mut pending: Pending = calls.into_iter().map(|c| (c.slot, c)).collect();
        self.place_in_order(sc, g, exprs, &mut pending);
    }

    /// A call of procedure `q` (written `f`) as a value: allowed in a statement's
    /// expressions when `q` returns one; refused with the reason elsewhere.
    pub(crate) fn proc_value(
        &mut self,
        sc: &mut Scope,
        q: u16,
        f: &ast::Ident,
        args: &[ast::Arg],
        loc: Loc,
    ) -> (Expr, Type) {
        let name = &f.node;
        let Some(t) = self.proc_returns.get(q as usize).cloned().flatten() else {
            self.error(
                Diagnostic::error(
                    "fuda::proc-as-value",
                    format!("`{name}` is a procedure; it has no value"),
                    loc,
                    "used as a value",
                )
                .with_help(format!(
                    "call it as a statement, or declare the type it returns: `proc {name}(…) -> int`; a `def` computes a value from its arguments"
                )),
            );
            return (Expr::Const(Value::Unit), Type::Error);
        };
        // A def's body is pure even where it is expanded inside a statement.
        if sc.calls.is_none() || !sc.stateful {
            let (message, help) = if sc.stateful {
                (
                    format!("the value of procedure `{name}` cannot be asked here"),
                    format!("a move's guard or a decision's seats are evaluated as the decision is offered: call it in a statement before, `let v = {name}(…)`, and use `v`"),
                )
            } else {
                (
                    format!("{} cannot call procedure `{name}`", sc.context),
                    format!("a procedure may change the game, which {} may not: call it in a procedure, `let v = {name}(…)`, and pass `v`", sc.context),
                )
            };
            self.error(
                Diagnostic::error("fuda::proc-as-value", message, loc, "a procedure's value")
                    .with_help(help),
            );
            return (Expr::Const(Value::Unit), Type::Error);
        }
        self.called[q as usize] = true;
        let Some(args) = self.proc_args(sc, q, f, args, loc) else {
            return (Expr::Const(Value::Unit), Type::Error);
        };
        let slot = sc.bind("", t.clone());
        if let Some(calls) = sc.calls.as_mut() {
            calls.push(PendingCall {
                slot,
                proc: q,
                args,
                loc,
            });
        }
        (Expr::Local(slot), t)
    }

    /// Emits the calls in `kids` (sibling expressions, in evaluation order) and what each
    /// needs before it: a sibling evaluated before a later call is worked out into a
    /// slot of its own first, unless nothing a procedure does can change it.
    fn place_in_order(
        &mut self,
        sc: &mut Scope,
        g: &mut Gen,
        kids: &mut [&mut Expr],
        pending: &mut Pending,
    ) {
        let Some(last) = kids.iter().rposition(|k| has_call(k, pending)) else {
            return;
        };
        for k in kids[..=last].iter_mut() {
            if has_call(k, pending) {
                self.place(sc, g, k, pending);
            } else if !settled(k) {
                let t = sc.bind("", Type::Error);
                let v = std::mem::replace(&mut **k, Expr::Local(t));
                g.emit(Op::Let(t, v));
            }
        }
    }

    /// Emits the calls in `e` (which holds some) and rewrites `e` to read their slots.
    fn place(&mut self, sc: &mut Scope, g: &mut Gen, e: &mut Expr, pending: &mut Pending) {
        match e {
            Expr::Local(s) if pending.contains_key(s) => {
                let Some(mut c) = pending.remove(s) else {
                    return;
                };
                let mut args: Vec<&mut Expr> = c.args.iter_mut().collect();
                self.place_in_order(sc, g, &mut args, pending);
                g.emit(Op::CallValue(c.proc, c.args, c.slot, c.loc));
            }
            Expr::And(a, b) | Expr::Or(a, b) if has_call(b, pending) => {
                // `t = a; if t (or: if not t) { t = b }`: b's calls run only when `a`
                // does not settle the answer, as evaluation would.
                let and = matches!(e, Expr::And(..));
                let (Expr::And(a, b) | Expr::Or(a, b)) = e else {
                    return;
                };
                let t = sc.bind("", Type::Bool);
                self.place_in_order(sc, g, &mut [&mut **a], pending);
                g.emit(Op::Let(t, std::mem::replace(&mut **a, Expr::Local(t))));
                let test = if and {
                    Expr::Local(t)
                } else {
                    Expr::Not(Box::new(Expr::Local(t)))
                };
                let skip = g.emit(Op::JumpIfNot(test, 0));
                self.place_in_order(sc, g, &mut [&mut **b], pending);
                g.emit(Op::Let(t, std::mem::replace(&mut **b, Expr::Local(t))));
                let h = g.here();
                g.patch(skip, h);
                *e = Expr::Local(t);
            }
            Expr::If(c, a, b) if has_call(a, pending) || has_call(b, pending) => {
                let t = sc.bind("", Type::Error);
                self.place_in_order(sc, g, &mut [&mut **c], pending);
                let cond = std::mem::replace(&mut **c, Expr::Const(Value::Unit));
                let to_else = g.emit(Op::JumpIfNot(cond, 0));
                self.place_in_order(sc, g, &mut [&mut **a], pending);
                g.emit(Op::Let(t, std::mem::replace(&mut **a, Expr::Local(t))));
                let to_end = g.emit(Op::Jump(0));
                let h = g.here();
                g.patch(to_else, h);
                self.place_in_order(sc, g, &mut [&mut **b], pending);
                g.emit(Op::Let(t, std::mem::replace(&mut **b, Expr::Local(t))));
                let h = g.here();
                g.patch(to_end, h);
                *e = Expr::Local(t);
            }
            Expr::Binder(_, _, _, body, _) if has_call(body, pending) => {
                let mut inside = Vec::new();
                calls_in(body, pending, &mut inside);
                for slot in inside {
                    if let Some(c) = pending.remove(&slot) {
                        let name = self.program.procs[c.proc as usize].name.clone();
                        self.error(
                            Diagnostic::error(
                                "fuda::proc-as-value",
                                format!("procedure `{name}` would be called once per item here"),
                                c.loc,
                                "inside a quantifier",
                            )
                            .with_help(format!(
                                "a quantifier's body is evaluated item by item: call `{name}` in a `for` loop instead"
                            )),
                        );
                    }
                }
                // What is left (the domain) is placed as usual.
                self.place(sc, g, e, pending);
            }
            Expr::LetIn(slot, v, body) => {
                // A def's argument: bound before its body, as evaluation binds it.
                let slot = *slot;
                self.place_in_order(sc, g, &mut [&mut **v], pending);
                g.emit(Op::Let(
                    slot,
                    std::mem::replace(&mut **v, Expr::Local(slot)),
                ));
                let rest = std::mem::replace(&mut **body, Expr::Const(Value::Unit));
                *e = rest;
                if has_call(e, pending) {
                    self.place(sc, g, e, pending);
                }
            }
            _ => {
                let mut kids = Vec::new();
                e.children_mut(|k| kids.push(k));
                self.place_in_order(sc, g, &mut kids, pending);
            }
        }
    }

    /// Every way through the body of `p` (which returns a value) must end in
    /// `return VALUE`; reported at the end of the body otherwise.
    pub(super) fn check_returns(&mut self, file: u16, p: &ast::ProcDecl) {
        if block_returns(&p.body) {
            return;
        }
        let end = p.span.end as usize;
        let at = fuda_grammar::Span::new(end.saturating_sub(1), end);
        let t = p
            .returns
            .as_ref()
            .map(|t| self.type_name(file, t))
            .unwrap_or(Type::Error);
        self.error(
            Diagnostic::error(
                "fuda::missing-return",
                format!(
                    "procedure `{}` may end without returning {}",
                    p.name.node,
                    self.describe(&t)
                ),
                Loc { file, span: at },
                "may be reached",
            )
            .with_help(
                "end every way through it with `return VALUE` (an `if` needs an `else` that returns too, a `while` may stop: add a `return` after it)",
            ),
        );
    }
}

/// Whether `e` reads a pending call's slot.
fn has_call(e: &Expr, pending: &Pending) -> bool {
    if let Expr::Local(s) = e {
        return pending.contains_key(s);
    }
    let mut found = false;
    e.children(|k| found = found || has_call(k, pending));
    found
}

/// The pending calls' slots read in `e`.
fn calls_in(e: &Expr, pending: &Pending, out: &mut Vec<u16>) {
    if let Expr::Local(s) = e {
        if pending.contains_key(s) {
            out.push(*s);
        }
    }
    e.children(|k| calls_in(k, pending, out));
}

/// Whether `e` has the same value before and after a procedure runs: constants,
/// locals (a callee has its own), parameters, and zones named by such values (a zone
/// is read where it is used, as it would have been).
fn settled(e: &Expr) -> bool {
    match e {
        Expr::Const(_)
        | Expr::Local(_)
        | Expr::Param(_)
        | Expr::Cards(_)
        | Expr::Zone(_)
        | Expr::ZoneFamily(_) => true,
        Expr::SeatZone(_, s) => settled(s),
        _ => false,
    }
}

/// Whether running `b` always ends in a `return` (or never finishes): a conservative
/// answer, as a compiler gives for a missing return.
fn block_returns(b: &ast::Block) -> bool {
    b.stmts.iter().any(stmt_returns)
}

fn stmt_returns(s: &ast::Stmt) -> bool {
    match &s.node {
        StmtKind::Return(_) => true,
        StmtKind::If(_, then, Some(els)) => block_returns(then) && block_returns(els),
        // Only a `break` leaves a `loop`.
        StmtKind::Loop(body) => !breaks(body),
        // Every move of a decision returns: whichever is taken, the procedure returns.
        StmtKind::Choose(ch) => {
            !ch.options.is_empty() && ch.options.iter().all(|o| block_returns(&o.body))
        }
        _ => false,
    }
}

/// Whether a `break` in `b` leaves the loop `b` is the body of (not an inner loop).
fn breaks(b: &ast::Block) -> bool {
    b.stmts.iter().any(|s| match &s.node {
        StmtKind::Break => true,
        StmtKind::If(_, then, els) => breaks(then) || els.as_ref().is_some_and(breaks),
        StmtKind::Choose(ch) => ch.options.iter().any(|o| breaks(&o.body)),
        StmtKind::Claim(cl) => cl.options.iter().any(|o| breaks(&o.body)),
        _ => false,
    })
}
