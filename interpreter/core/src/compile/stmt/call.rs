//! Compiling a procedure call made as a statement (`勝ち(x, ロン, s)`): the callee
//! looked up, its arguments checked against its parameters (by position or by name).

use fuda_grammar::ast;

use super::Gen;
use crate::compile::expr::Scope;
use crate::compile::{Compiler, Global};
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Loc, Op};

impl Compiler {
    /// Compiles a call of procedure `f` with `args` as a statement.
    pub(super) fn call_stmt(
        &mut self,
        sc: &mut Scope,
        g: &mut Gen,
        f: &ast::Ident,
        args: &[ast::Arg],
        loc: Loc,
    ) {
        match self.globals.get(&f.node).cloned() {
            Some((Global::Proc(p), _)) => {
                self.called[p as usize] = true;
                let saved = self.open_calls(sc);
                let Some(mut out) = self.proc_args(sc, p, f, args, loc) else {
                    sc.calls = saved;
                    return;
                };
                let mut kids: Vec<&mut Expr> = out.iter_mut().collect();
                self.close_calls(sc, g, saved, &mut kids);
                g.emit(Op::Call(p, out, loc));
            }
            Some(_) if self.duplicated.contains(&f.node) => {}
            Some((other, _)) => {
                let help = match other {
                    Global::Score(_) | Global::Def(_) | Global::Pattern(_) => {
                        format!("it computes a value: use it, e.g. `let r = {}(…)`", f.node)
                    }
                    Global::Var(_) => format!("to change it, assign it: `{} = …`", f.node),
                    _ => "only procedures are called as statements".to_string(),
                };
                for a in args {
                    let _ = self.expr(sc, &a.value);
                }
                self.error(
                    Diagnostic::error(
                        "fuda::not-a-proc",
                        format!("`{}` is {}, not a procedure", f.node, other.describe()),
                        self.loc(sc, f.span),
                        "cannot be called as a statement",
                    )
                    .with_help(help),
                );
            }
            None => self.unknown_name(sc, &f.node, f.span, "procedure"),
        }
    }

    /// The arguments of a call of procedure `p` (`f` as written), checked against its
    /// parameters; `None` when their number is wrong (reported).
    pub(super) fn proc_args(
        &mut self,
        sc: &mut Scope,
        p: u16,
        f: &ast::Ident,
        args: &[ast::Arg],
        loc: Loc,
    ) -> Option<Vec<Expr>> {
        let sig = self.proc_sigs[p as usize].clone();
        let names = self.proc_params[p as usize].clone();
        if args.len() != sig.len() {
            let decl = self.program.procs[p as usize].loc;
            let list: Vec<String> = names
                .iter()
                .zip(&sig)
                .map(|(n, t)| format!("{n}: {}", self.describe(t)))
                .collect();
            self.error(
                Diagnostic::error(
                    "fuda::arity",
                    format!(
                        "`{}` takes {} argument{}, found {}",
                        f.node,
                        sig.len(),
                        if sig.len() == 1 { "" } else { "s" },
                        args.len()
                    ),
                    loc,
                    format!("{} given", args.len()),
                )
                .with_label(
                    decl,
                    format!("declared as `{}({})`", f.node, list.join(", ")),
                ),
            );
            for a in args {
                let _ = self.expr(sc, &a.value);
            }
            return None;
        }
        let mut out = Vec::new();
        for (i, (a, t)) in args.iter().zip(sig).enumerate() {
            if let Some(n) = &a.name {
                if n.node == names[i] {
                    self.error(
                        Diagnostic::error(
                            "fuda::named-argument",
                            "procedures take their arguments in order; the name is ignored",
                            self.loc(sc, n.span),
                            "named argument",
                        )
                        .with_help("drop the name")
                        .warning(),
                    );
                } else {
                    let mut d = Diagnostic::error(
                        "fuda::named-argument",
                        format!(
                            "argument {} of `{}` is `{}`, not `{}`",
                            i + 1,
                            f.node,
                            names[i],
                            n.node
                        ),
                        self.loc(sc, n.span),
                        format!("in the place of `{}`", names[i]),
                    );
                    d = d.with_help(if names.contains(&n.node) {
                        "procedures take their arguments in order: put them in the order of the parameters, without names".to_string()
                    } else {
                        match crate::compile::closest_within(&mut self.suggest_budget, &n.node, names.iter().map(|s| s.as_str())) {
                            Some(s) => format!("did you mean `{s}`?"),
                            None => format!("the parameters are: {}", names.join(", ")),
                        }
                    });
                    self.error(d);
                }
            }
            out.push(self.expr_of(sc, &a.value, &t));
        }
        Some(out)
    }
}
