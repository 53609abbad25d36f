//! Compiling a decision — `choose`, `choose each`, `claim` — into one `Decide` op: each
//! move's name, domain, guard (kept part by part for telling why a move is refused),
//! priority and body.

use fuda_grammar::ast;

use super::Gen;
use crate::compile::expr::Scope;
use crate::compile::Compiler;
use crate::diagnostic::Diagnostic;
use crate::ir::{Decide, DecideKind, Expr, Loc, Op, OptionDef};
use crate::value::{Type, Value};

impl Compiler {
    /// Compiles a decision of `kind` asked of `who` (a seat, or the seats of `choose
    /// each` and `claim`, bound to `seat_name`): the `Decide` op, then each move's body
    /// ending in `OptionDone`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn decide(
        &mut self,
        sc: &mut Scope,
        g: &mut Gen,
        kind: DecideKind,
        who: Expr,
        seat_name: Option<&ast::Ident>,
        options: &[ast::MoveOption],
        loc: Loc,
    ) {
        sc.open();
        let seat_slot = seat_name.map(|n| sc.bind(&n.node, Type::Seat));
        let at = g.emit(Op::Jump(0));
        let mut opts = Vec::new();
        let mut names: std::collections::BTreeMap<&str, &ast::Ident> = Default::default();
        for o in options {
            if let Some(first) = names.get(o.name.node.as_str()) {
                self.error(
                    Diagnostic::error(
                        "fuda::duplicate-name",
                        format!("move `{}` is offered twice here", o.name.node),
                        self.loc(sc, o.name.span),
                        "again here",
                    )
                    .with_label(self.loc(sc, first.span), "first offered here")
                    .with_help(
                        "give each move its own name: agents and logs tell them apart by it",
                    ),
                );
            }
            names.entry(&o.name.node).or_insert(&o.name);
            sc.open();
            let param = o.param.as_ref().map(|(x, dom)| {
                let (de, dt) = self.expr(sc, dom);
                let elem = match &dt {
                    Type::Cards | Type::Zone | Type::Card => Type::Card,
                    Type::List(t) => (**t).clone(),
                    Type::Range => Type::Int,
                    Type::Error => Type::Error,
                    other => {
                        self.error(Diagnostic::error(
                            "fuda::type-mismatch",
                            format!(
                                "a move ranges over cards, a zone, a list or `lo..hi`, not {}",
                                self.describe(other)
                            ),
                            self.loc(sc, dom.span),
                            "bad domain",
                        ));
                        Type::Error
                    }
                };
                (sc.bind(&x.node, elem), de)
            });
            let mut written = crate::ir::Written {
                domain: o.param.as_ref().map(|(_, dom)| self.loc(sc, dom.span)),
                guard: Vec::new(),
            };
            // A guard `a and b and c` is compiled part by part, into the same `and`
            // chain, so that a refused move can be told which part failed.
            let guard = o.guard.as_ref().map(|gd| {
                let mut parts = Vec::new();
                and_parts(gd, &mut parts);
                let mut compiled = parts.iter().map(|x| {
                    written.guard.push(self.loc(sc, x.span));
                    self.expr_of(sc, x, &Type::Bool)
                });
                let first = compiled.next().unwrap_or(Expr::Const(Value::Bool(true)));
                compiled.fold(first, |a, b| Expr::And(Box::new(a), Box::new(b)))
            });
            if kind != DecideKind::Claim {
                if let Some(p) = &o.priority {
                    self.error(
                        Diagnostic::error(
                            "fuda::priority-outside-claim",
                            "`priority` only orders claims",
                            self.loc(sc, p.span),
                            "ignored in `choose`",
                        )
                        .with_help("remove it: in `choose` the seat picks the move; in `claim` the highest priority wins")
                        .warning(),
                    );
                }
            }
            let body = g.here();
            if kind == DecideKind::Claim {
                g.claims.push(at as u32);
            }
            self.block(sc, g, &o.body);
            if kind == DecideKind::Claim {
                g.claims.pop();
            }
            g.emit(Op::OptionDone { decide: at as u32 });
            sc.close();
            let name_id = self.move_name_id(&o.name.node);
            opts.push(OptionDef {
                name: o.name.node.clone(),
                name_id,
                label: o.label.as_ref().map(|l| l.node.clone()),
                param,
                guard,
                written,
                priority: o.priority.as_ref().map(|p| p.node).unwrap_or(0),
                body,
                ends_round: false,
                hand_guard: None,
                quick_guard: None,
                left_out: None,
            });
        }
        sc.close();
        // The decision sits at `at`; its option bodies follow and end by returning to
        // the code after them.
        let after = g.here();
        g.code[at] = Op::Decide(Box::new(Decide {
            kind,
            who,
            seat_slot,
            options: opts,
            after,
            loc,
            ends: 0,
            pick: None,
            declines: g.code[at + 1..]
                .iter()
                .any(|op| matches!(op, Op::Decline { decide } if *decide == at as u32)),
        }));
    }
}

/// The parts of `e`'s top `and` chain, left to right: `a and b and c` (read as `(a and
/// b) and c`) gives `a`, `b`, `c`; any other expression is one part.
fn and_parts<'e>(e: &'e ast::Expr, out: &mut Vec<&'e ast::Expr>) {
    match &e.node {
        ast::ExprKind::Binary(ast::BinOp::And, a, b) => {
            and_parts(a, out);
            and_parts(b, out);
        }
        _ => out.push(e),
    }
}
