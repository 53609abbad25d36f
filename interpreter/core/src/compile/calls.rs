//! Calls in expressions: builtins, quantifiers, score tables (with named and default
//! arguments), patterns, and `def`s expanded where they are used.

use fuda_grammar::ast::{self, ExprKind};
use fuda_grammar::Span;

use super::expr::Scope;
use super::limits::MAX_CALL_PARAMS;
use super::names::{Global, BINDERS, BUILTINS};
use super::types::coerce;
use super::Compiler;
use crate::diagnostic::Diagnostic;
use crate::ir::{BinderKind, Builtin, Expr, Loc};
use crate::value::{Type, Value};

/// The most def expansions one ruleset may need.
const MAX_INLINED: usize = 50_000;

impl Compiler {
    pub(crate) fn call(
        &mut self,
        sc: &mut Scope,
        f: &ast::Ident,
        args: &[ast::Arg],
        span: Span,
    ) -> (Expr, Type) {
        let loc = self.loc(sc, span);
        let name = f.node.as_str();
        // `word` is a reserved word: no local or declaration can take its name.
        if name == "word" {
            return self.word_call(sc, args, span);
        }
        if sc.local(name).is_none() {
            if let Some((g, _)) = self.globals.get(name).cloned() {
                match g {
                    Global::Score(s) => return self.score_call(sc, s, f, args, span),
                    Global::Def(d) => return self.inline_def(sc, d, f, args, span),
                    Global::Pattern(p) => {
                        if !(1..=2).contains(&args.len()) || args.iter().any(|a| a.name.is_some()) {
                            self.error(
                                Diagnostic::error(
                                    "fuda::arity",
                                    format!("pattern `{name}` takes the cards, and perhaps the groups already formed"),
                                    loc,
                                    "here",
                                )
                                .with_help(format!("write `{name}(hand)`, or `{name}(hand, formed)` with a list of card sets")),
                            );
                            return (Expr::Const(Value::Bool(false)), Type::Bool);
                        }
                        let x = self.expr_of(sc, &args[0].value, &Type::Cards);
                        if let Some(formed) = args.get(1) {
                            let f = self.formed_arg(sc, name, &formed.value);
                            return (Expr::Call(Builtin::Formed(p), vec![x, f], loc), Type::Bool);
                        }
                        return (Expr::PatternTest(p, Box::new(x)), Type::Bool);
                    }
                    Global::Proc(q) => return self.proc_value(sc, q, f, args, loc),
                    _ => {}
                }
            }
        }
        let Some(&(_, b, lo, hi)) = BUILTINS.iter().find(|(n, ..)| *n == name) else {
            self.unknown_name(sc, name, f.span, "function");
            return (Expr::Const(Value::Unit), Type::Error);
        };
        if args.len() < lo || args.len() > hi {
            let want = if lo == hi {
                format!("{lo}")
            } else {
                format!("{lo} to {hi}")
            };
            self.error(Diagnostic::error(
                "fuda::arity",
                format!(
                    "`{name}` takes {want} argument{}, found {}",
                    if hi == 1 { "" } else { "s" },
                    args.len()
                ),
                loc,
                "wrong number of arguments",
            ));
            return (Expr::Const(Value::Unit), Type::Error);
        }
        let state_builtin = matches!(
            b,
            Builtin::Seats
                | Builtin::Others
                | Builtin::Next
                | Builtin::Prev
                | Builtin::Players
                | Builtin::Leaders
                | Builtin::Role
                | Builtin::Person
        );
        if state_builtin {
            self.state_only(sc, "the seats with", name, f.span);
        }
        let a = |i: usize| &args[i].value;
        let (out_args, ty) = match b {
            Builtin::Count | Builtin::Len => {
                let (x, t) = self.expr(sc, a(0));
                if !matches!(
                    t,
                    Type::Cards | Type::Zone | Type::Card | Type::List(_) | Type::Error
                ) {
                    self.expect_type_at(sc, a(0).span, Some(a(0)), &t, &Type::Cards);
                }
                let x = coerce(x, &t, &Type::Cards);
                (vec![x], Type::Int)
            }
            Builtin::Top => (vec![self.expr_of(sc, a(0), &Type::Zone)], Type::Card),
            Builtin::Empty => (vec![self.expr_of(sc, a(0), &Type::Cards)], Type::Bool),
            Builtin::Next | Builtin::Prev => {
                (vec![self.expr_of(sc, a(0), &Type::Seat)], Type::Seat)
            }
            Builtin::Others => (
                vec![self.expr_of(sc, a(0), &Type::Seat)],
                Type::List(Box::new(Type::Seat)),
            ),
            Builtin::Seats => (vec![], Type::List(Box::new(Type::Seat))),
            Builtin::Players => (vec![], Type::Int),
            Builtin::Leaders => {
                let var = match &a(0).node {
                    ExprKind::Name(n) => match self.globals.get(n) {
                        Some((Global::Var(v), _))
                            if self.program.vars[*v as usize].per_seat
                                && self.program.vars[*v as usize].ty == Type::Int =>
                        {
                            Some(*v)
                        }
                        _ => None,
                    },
                    _ => None,
                };
                match var {
                    Some(v) => (
                        vec![Expr::Const(Value::Int(v as i64))],
                        Type::List(Box::new(Type::Seat)),
                    ),
                    None => {
                        self.error(Diagnostic::error(
                            "fuda::type-mismatch",
                            "`leaders` takes the name of a per-seat int variable, e.g. `leaders(chips)`",
                            self.loc(sc, a(0).span),
                            "not a per-seat int variable",
                        ));
                        return (Expr::Const(Value::Unit), Type::Error);
                    }
                }
            }
            Builtin::Role => (vec![self.expr_of(sc, a(0), &Type::Seat)], Type::Str),
            Builtin::Pairs => {
                let x = self.expr_of(sc, a(0), &Type::Cards);
                let attr = self.attr_arg(sc, a(1));
                (vec![x, attr], Type::Int)
            }
            Builtin::Min | Builtin::Max | Builtin::CeilDiv => {
                let x = self.expr_of(sc, a(0), &Type::Int);
                let y = self.expr_of(sc, a(1), &Type::Int);
                (vec![x, y], Type::Int)
            }
            Builtin::Abs => (vec![self.expr_of(sc, a(0), &Type::Int)], Type::Int),
            Builtin::Sets => {
                // `sets(h, n)` is `sets(h, n, n)`: the engine always reads both sizes.
                let x = self.expr_of(sc, a(0), &Type::Cards);
                let lo = self.expr_of(sc, a(1), &Type::Int);
                let hi = match args.get(2) {
                    Some(h) => self.expr_of(sc, &h.value, &Type::Int),
                    None => lo.clone(),
                };
                // `sets(h, lo, hi, ATTR)`: only sets whose cards share ATTR (-1: any).
                let alike = match args.get(3) {
                    Some(a) => self.attr_arg(sc, &a.value),
                    None => Expr::Const(Value::Int(-1)),
                };
                (vec![x, lo, hi, alike], Type::List(Box::new(Type::Cards)))
            }
            Builtin::Person => (vec![self.expr_of(sc, a(0), &Type::Seat)], Type::Bool),
            Builtin::Claimed => {
                // `claimed(ロン)`: a move's name, checked once every move is known.
                let e = match &a(0).node {
                    ExprKind::Name(n) => {
                        let at = self.loc(sc, a(0).span);
                        self.claimed_names.push((n.clone(), at));
                        self.state_only(sc, "the claims of", n, a(0).span);
                        Expr::Const(Value::Int(self.move_name_id(n) as i64))
                    }
                    _ => {
                        self.error(
                            Diagnostic::error(
                                "fuda::bad-argument",
                                "`claimed` takes a move's name",
                                self.loc(sc, a(0).span),
                                "not a move's name",
                            )
                            .with_help(
                                "write the move as declared in the claim window: `claimed(ロン)`",
                            ),
                        );
                        Expr::Const(Value::Unit)
                    }
                };
                (vec![e], Type::List(Box::new(Type::Seat)))
            }
            Builtin::Tagged => {
                let x = self.expr_of(sc, a(0), &Type::Cards);
                let tag = match &a(1).node {
                    ExprKind::Name(n) => self.program.deck.tag_named(n),
                    _ => None,
                };
                match tag {
                    Some(t) => (vec![x, Expr::Const(Value::Int(t as i64))], Type::Cards),
                    None => {
                        self.tag_error(sc, a(1));
                        return (Expr::Const(Value::Unit), Type::Error);
                    }
                }
            }
            Builtin::Matches | Builtin::Waits(_) => {
                let what = if b == Builtin::Matches {
                    "matches"
                } else {
                    "waits"
                };
                let p = self.pattern_arg(sc, a(0), what);
                let x = self.expr_of(sc, a(1), &Type::Cards);
                // `waits(P, hand, formed)`: with groups already formed.
                let formed = (args.len() > 2).then(|| self.expr_of(sc, a(2), &formed_type()));
                return match (p, b) {
                    (Some(p), Builtin::Matches) => (Expr::PatternTest(p, Box::new(x)), Type::Bool),
                    (Some(p), _) => (
                        Expr::Call(
                            Builtin::Waits(p),
                            [x].into_iter().chain(formed).collect(),
                            loc,
                        ),
                        Type::Cards,
                    ),
                    (None, _) => (Expr::Const(Value::Unit), Type::Error),
                };
            }
            // Not in `BUILTINS`: `word(…)` is compiled by `word_call` above, `P(h, f)`
            // where the pattern's name is called.
            Builtin::Word(_) => return self.word_call(sc, args, span),
            Builtin::Formed(_) | Builtin::Ordinal(_) => {
                return (Expr::Const(Value::Unit), Type::Error)
            }
        };
        (Expr::Call(b, out_args, loc), ty)
    }

    /// The pattern named by a builtin's first argument (`matches(P, …)`, `waits(P, …)`),
    /// reporting anything else.
    fn pattern_arg(&mut self, sc: &Scope, a0: &ast::Expr, what: &str) -> Option<u16> {
        if let ExprKind::Name(n) = &a0.node {
            if let Some((Global::Pattern(p), _)) = self.globals.get(n) {
                return Some(*p);
            }
            self.unknown_name(sc, n, a0.span, "pattern");
        } else {
            self.error(
                Diagnostic::error(
                    "fuda::unknown-name",
                    format!("`{what}` takes a pattern's name first"),
                    self.loc(sc, a0.span),
                    "not a pattern name",
                )
                .with_help(format!(
                    "write `{what}(NAME, cards)` with a pattern declared as `pattern NAME {{ … }}`"
                )),
            );
        }
        None
    }

    pub(crate) fn tag_error(&mut self, sc: &Scope, e: &ast::Expr) {
        let tags = &self.program.deck.tag_names;
        let mut d = match &e.node {
            ExprKind::Name(n) => {
                let mut d = Diagnostic::error(
                    "fuda::unknown-tag",
                    format!("the deck has no tag `{n}`"),
                    self.loc(sc, e.span),
                    "unknown tag",
                );
                if let Some(s) = super::closest_within(
                    &mut self.suggest_budget,
                    n,
                    tags.iter().map(|s| s.as_str()),
                ) {
                    d = d.with_help(format!("did you mean `{s}`?"));
                    self.error(d);
                    return;
                }
                d
            }
            _ => Diagnostic::error(
                "fuda::expected-tag",
                "expected a tag's name",
                self.loc(sc, e.span),
                "not a tag name",
            ),
        };
        d = d.with_help(if tags.is_empty() {
            "the deck declares no tags".to_string()
        } else {
            format!("the deck's tags: {}", tags.join(", "))
        });
        self.error(d);
    }

    /// An attribute named as an argument (`pairs(g, month)`).
    pub(crate) fn attr_arg(&mut self, sc: &Scope, e: &ast::Expr) -> Expr {
        if let ExprKind::Name(n) = &e.node {
            if let Some(a) = self.program.deck.attr_named(n) {
                return Expr::Const(Value::Int(a as i64));
            }
        }
        let at = self.loc(sc, e.span);
        match &e.node {
            ExprKind::Name(n) => self.unknown_attribute(n, at, "not an attribute"),
            _ => {
                let names: Vec<String> = self
                    .program
                    .deck
                    .attrs
                    .iter()
                    .map(|a| a.name.clone())
                    .collect();
                self.error(
                    Diagnostic::error(
                        "fuda::unknown-attribute",
                        "expected an attribute's name",
                        at,
                        "not an attribute",
                    )
                    .with_help(format!("the deck's attributes: {}", names.join(", "))),
                );
            }
        }
        Expr::Const(Value::Int(0))
    }

    pub(crate) fn binder(
        &mut self,
        sc: &mut Scope,
        f: &ast::Ident,
        x: &ast::Ident,
        dom: &ast::Expr,
        body: &ast::Expr,
    ) -> (Expr, Type) {
        let kind = match f.node.as_str() {
            "count" => BinderKind::Count,
            "sum" => BinderKind::Sum,
            "all" => BinderKind::All,
            "any" => BinderKind::Any,
            "filter" => BinderKind::Filter,
            "max" => BinderKind::Max,
            "min" => BinderKind::Min,
            other => {
                let mut d = Diagnostic::error(
                    "fuda::unknown-name",
                    format!("`{other}(x in …: …)` is not a quantifier"),
                    self.loc(sc, f.span),
                    "unknown quantifier",
                );
                if let Some(s) =
                    super::closest_within(&mut self.suggest_budget, other, BINDERS.iter().copied())
                {
                    d = d.with_help(format!("did you mean `{s}`?"));
                } else {
                    d = d.with_help(format!("quantifiers: {}", BINDERS.join(", ")));
                }
                self.error(d);
                return (Expr::Const(Value::Unit), Type::Error);
            }
        };
        let (de, dt) = self.expr(sc, dom);
        let (elem, de) = match &dt {
            Type::Cards | Type::Zone => (Type::Card, coerce(de, &dt, &Type::Cards)),
            Type::List(t) => ((**t).clone(), de),
            Type::Range => (Type::Int, de),
            Type::Error => (Type::Error, de),
            other => {
                self.error(Diagnostic::error(
                    "fuda::type-mismatch",
                    format!("cannot range over {}", self.describe(other)),
                    self.loc(sc, dom.span),
                    "needs cards, a zone, a list or `lo..hi`",
                ));
                (Type::Error, de)
            }
        };
        if kind == BinderKind::Filter && elem != Type::Card && elem != Type::Error {
            self.error(Diagnostic::error(
                "fuda::type-mismatch",
                "`filter` ranges over cards",
                self.loc(sc, dom.span),
                "not cards",
            ));
        }
        sc.open();
        let slot = sc.bind(&x.node, elem);
        let want = match kind {
            BinderKind::Sum | BinderKind::Max | BinderKind::Min => Type::Int,
            _ => Type::Bool,
        };
        let be = self.expr_of(sc, body, &want);
        sc.close();
        let ty = match kind {
            BinderKind::Count | BinderKind::Sum | BinderKind::Max | BinderKind::Min => Type::Int,
            BinderKind::All | BinderKind::Any => Type::Bool,
            BinderKind::Filter => Type::Cards,
        };
        (
            Expr::Binder(kind, slot, Box::new(de), Box::new(be), false),
            ty,
        )
    }

    /// Matches call arguments (positional then named) to parameters; fills defaults.
    pub fn bind_args<'e>(
        &mut self,
        sc: &Scope,
        what: &str,
        params: &[(String, Type, bool)],
        args: &'e [ast::Arg],
        span: Span,
    ) -> Option<Vec<Option<&'e ast::Expr>>> {
        let mut out: Vec<Option<&ast::Expr>> = vec![None; params.len()];
        let mut ok = true;
        let mut positional = 0;
        for a in args {
            let idx = match &a.name {
                None => {
                    let i = positional;
                    positional += 1;
                    if i >= params.len() {
                        self.error(Diagnostic::error(
                            "fuda::arity",
                            format!(
                                "{what} takes {} argument{}",
                                params.len(),
                                if params.len() == 1 { "" } else { "s" }
                            ),
                            self.loc(sc, a.value.span),
                            "one too many",
                        ));
                        ok = false;
                        continue;
                    }
                    i
                }
                Some(n) => match params.iter().position(|(p, ..)| *p == n.node) {
                    Some(i) => i,
                    None => {
                        let mut d = Diagnostic::error(
                            "fuda::unknown-argument",
                            format!("{what} has no parameter `{}`", n.node),
                            self.loc(sc, n.span),
                            "unknown parameter",
                        );
                        if let Some(s) = super::closest_within(
                            &mut self.suggest_budget,
                            &n.node,
                            params.iter().map(|p| p.0.as_str()),
                        ) {
                            d = d.with_help(format!("did you mean `{s}`?"));
                        } else {
                            let names: Vec<&str> = params.iter().map(|p| p.0.as_str()).collect();
                            d = d.with_help(format!("parameters: {}", names.join(", ")));
                        }
                        self.error(d);
                        ok = false;
                        continue;
                    }
                },
            };
            if out[idx].is_some() {
                self.error(Diagnostic::error(
                    "fuda::arity",
                    format!("parameter `{}` is given twice", params[idx].0),
                    self.loc(sc, a.value.span),
                    "again here",
                ));
                ok = false;
            }
            out[idx] = Some(&a.value);
        }
        for (i, (p, _, has_default)) in params.iter().enumerate() {
            if out[i].is_none() && !has_default {
                self.error(Diagnostic::error(
                    "fuda::arity",
                    format!("{what} needs `{p}`"),
                    self.loc(sc, span),
                    format!("`{p}` missing"),
                ));
                ok = false;
            }
        }
        ok.then_some(out)
    }

    pub(crate) fn score_call(
        &mut self,
        sc: &mut Scope,
        s: u16,
        f: &ast::Ident,
        args: &[ast::Arg],
        span: Span,
    ) -> (Expr, Type) {
        let sig = self.score_sigs[s as usize].clone();
        let params: Vec<(String, Type, bool)> = sig
            .iter()
            .map(|(n, t, d, _)| (n.clone(), t.clone(), d.is_some()))
            .collect();
        let before = self.diags.len();
        let Some(bound) = self.bind_args(sc, &format!("score `{}`", f.node), &params, args, span)
        else {
            self.note_replaced_table(sc, &f.node, before);
            return (Expr::Const(Value::Unit), Type::Score);
        };
        let mut out = Vec::new();
        for (i, b) in bound.iter().enumerate() {
            match b {
                Some(e) => out.push(self.expr_of(sc, e, &sig[i].1.clone())),
                None => {
                    // Defaults are compiled in the score's own file, with no state.
                    let (_, t, d, file) = &sig[i];
                    let mut dsc = Scope::pure(*file, "a default value");
                    let d = d.clone().expect("bind_args checked defaults");
                    out.push(self.expr_of(&mut dsc, &d, &t.clone()));
                }
            }
        }
        self.note_replaced_table(sc, &f.node, before);
        (Expr::Score(s, out, self.loc(sc, span)), Type::Score)
    }

    /// A call of a table that a variant replaced whole, written in another file (the
    /// base's), was written for the base's table: its errors (`win` is no parameter any
    /// more) point at the variant's declaration too, and say how to edit stages instead.
    fn note_replaced_table(&mut self, sc: &Scope, name: &str, from: usize) {
        let Some(&at) = self.replaced_tables.get(name) else {
            return;
        };
        if at.file == sc.file {
            return;
        }
        let Some(new) = self.diags.get_mut(from..) else {
            return;
        };
        for d in new {
            if d.severity != crate::diagnostic::Severity::Error {
                continue;
            }
            d.labels.push((
                at,
                format!("the variant's `score {name}(…)` replaced the base's table"),
            ));
            d.help = Some(format!(
                "{}a table declared with a parameter list replaces the base's whole table; to edit the base's stages instead, write `score {name} {{ … }}` without one",
                d.help.as_ref().map(|h| format!("{h}; ")).unwrap_or_default()
            ));
        }
    }

    /// A variant's table that replaced the base's whole and has no `yaku` stage was most
    /// likely meant as an edit of some of the base's stages.
    pub(crate) fn explain_replaced_tables(&mut self) {
        for d in &mut self.diags {
            let replaced = self
                .replaced_tables
                .iter()
                .find(|(_, at)| d.labels.first().is_some_and(|(l, _)| l == *at));
            if let (Some((name, _)), "fuda::no-yaku") = (replaced, d.code) {
                d.help = Some(format!(
                    "declared with a parameter list, it replaces the base's whole table, stages and all; to edit the base's stages instead, write `score {name} {{ … }}` without one"
                ));
            }
        }
    }

    pub(crate) fn inline_def(
        &mut self,
        sc: &mut Scope,
        d: u16,
        f: &ast::Ident,
        args: &[ast::Arg],
        span: Span,
    ) -> (Expr, Type) {
        let (file, decl) = self.defs[d as usize].clone();
        let decl = &*decl;
        if let Some(at) = self.inlining.iter().position(|n| *n == decl.name.node) {
            let mut chain: Vec<String> = self.inlining[at..].to_vec();
            let mut key = chain.clone();
            key.sort();
            if self.def_cycles.insert(key) {
                chain.push(decl.name.node.clone());
                let message = if chain.len() == 2 {
                    format!("`{}` calls itself", decl.name.node)
                } else {
                    format!(
                        "`{}` calls itself through {}",
                        decl.name.node,
                        chain[1..chain.len() - 1]
                            .iter()
                            .map(|n| format!("`{n}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                self.error(
                    Diagnostic::error(
                        "fuda::recursive-def",
                        message,
                        self.loc(sc, span),
                        format!("calls `{}` again", decl.name.node),
                    )
                    .with_label(
                        Loc {
                            file,
                            span: decl.name.span,
                        },
                        "declared here",
                    )
                    .with_help(format!(
                        "defs are expanded where they are used, so they cannot recurse ({}); compute it with a quantifier such as `sum(i in 1..n: …)`, or in a procedure",
                        chain.join(" → ")
                    )),
                );
            }
            return (Expr::Const(Value::Unit), Type::Error);
        }
        // Every expanded def adds code: past a limit the program is refused rather
        // than grown without bound (defs that call each other twice double it).
        self.inlined += 1;
        if self.inlined > MAX_INLINED {
            if self.inlined == MAX_INLINED + 1 {
                self.error(
                    Diagnostic::error(
                        "fuda::too-large",
                        format!("defs expand to more than {MAX_INLINED} copies"),
                        self.loc(sc, span),
                        "expanded here",
                    )
                    .with_help("a def that uses another def several times multiplies the code: compute the value once with `let` in a procedure"),
                );
            }
            return (Expr::Const(Value::Unit), Type::Error);
        }
        if self.inlining.len() > 32 {
            self.error(Diagnostic::error(
                "fuda::recursive-def",
                "defs nest more than 32 deep here",
                self.loc(sc, span),
                "too deep",
            ));
            return (Expr::Const(Value::Unit), Type::Error);
        }
        let params: Vec<(String, Type, bool)> = decl
            .params
            .iter()
            .map(|p| (p.name.node.clone(), self.type_name(file, &p.ty), false))
            .collect();
        let before = self.diags.len();
        let Some(bound) = self.bind_args(sc, &format!("`{}`", f.node), &params, args, span) else {
            self.point_at_def_elsewhere(sc, before, file, decl);
            return (Expr::Const(Value::Unit), Type::Error);
        };
        // Arguments are evaluated in the caller's scope into fresh slots; the body sees
        // only those slots (and the ruleset's top-level names).
        let mut lets = Vec::new();
        for (i, b) in bound.iter().enumerate() {
            let e = b.expect("all params required");
            let x = self.expr_of(sc, e, &params[i].1.clone());
            lets.push(x);
        }
        self.point_at_def_elsewhere(sc, before, file, decl);
        let saved_locals = std::mem::take(&mut sc.locals);
        let saved_groups = std::mem::take(&mut sc.groups);
        let saved_score = sc.score.take();
        let saved_file = sc.file;
        let saved_stateful = sc.stateful;
        let saved_context = sc.context;
        sc.file = file;
        sc.stateful = false;
        sc.context = "a def";
        let slots: Vec<u16> = params
            .iter()
            .map(|(n, t, _)| sc.bind(n, t.clone()))
            .collect();
        self.inlining.push(decl.name.node.clone());
        let (body, ty) = self.expr(sc, &decl.body);
        self.inlining.pop();
        sc.locals = saved_locals;
        sc.groups = saved_groups;
        sc.score = saved_score;
        sc.file = saved_file;
        sc.stateful = saved_stateful;
        sc.context = saved_context;
        let mut out = body;
        for (slot, val) in slots.into_iter().zip(lets).rev() {
            out = super::arguments::bind_argument(slot, val, out);
        }
        // An argument put where the body uses it nests the two: measured at once, so a
        // use of this one inside another def's argument never walks an expansion
        // deeper than twice the limit (the whole expression is measured again at its top).
        if crate::ir::depth_exceeds(&out, super::expr::MAX_EXPR_DEPTH) {
            self.too_deep(sc, span);
            return (Expr::Const(Value::Unit), Type::Error);
        }
        (out, ty)
    }

    /// A call's arguments that do not fit a def declared in another file — a variant
    /// that redefined the base's def with other parameters — are reported at the call,
    /// in the base: each such problem (from `before` on) also points at the def.
    fn point_at_def_elsewhere(
        &mut self,
        sc: &Scope,
        before: usize,
        file: u16,
        decl: &ast::DefDecl,
    ) {
        if file == sc.file {
            return;
        }
        let at = Loc {
            file,
            span: decl.name.span,
        };
        for d in &mut self.diags[before..] {
            if d.labels.first().is_some_and(|(l, _)| l.file == sc.file) {
                d.labels
                    .push((at, format!("`{}` is declared here", decl.name.node)));
            }
        }
    }

    /// Checks every def's body once where it is declared, so a def that is never used
    /// is checked too. (Uses expand the body again; the same problems are merged.)
    pub fn check_defs(&mut self) {
        for i in 0..self.defs.len() {
            let (file, decl) = self.defs[i].clone();
            let mut sc = Scope::pure(file, "a def");
            self.check_param_names(file, &decl.params);
            for p in &decl.params {
                let t = self.type_name(file, &p.ty);
                sc.bind(&p.name.node, t);
            }
            self.inlining.push(decl.name.node.clone());
            let _ = self.expr(&mut sc, &decl.body);
            self.inlining.pop();
        }
    }

    /// Reports a parameter name used twice in one list, and a list longer than
    /// [`MAX_CALL_PARAMS`]; returns whether the list is within that limit.
    pub fn check_param_names(&mut self, file: u16, params: &[ast::Param]) -> bool {
        let within = match params.get(MAX_CALL_PARAMS) {
            Some(past) => self.list_within(
                "parameters in one list",
                params.len(),
                MAX_CALL_PARAMS,
                Loc {
                    file,
                    span: past.name.span,
                },
            ),
            None => true,
        };
        let mut named: std::collections::BTreeMap<&str, Span> = Default::default();
        for p in params {
            if let Some(first) = named.get(p.name.node.as_str()) {
                self.error(
                    Diagnostic::error(
                        "fuda::duplicate-name",
                        format!("parameter `{}` is declared twice", p.name.node),
                        Loc {
                            file,
                            span: p.name.span,
                        },
                        "again here",
                    )
                    .with_label(Loc { file, span: *first }, "first declared here")
                    .with_help("give each parameter its own name"),
                );
                continue;
            }
            named.insert(&p.name.node, p.name.span);
        }
        within
    }
}

impl Compiler {
    /// A pattern's second argument, the groups already formed: a list of card sets,
    /// with a message that says so when it is something else (two hands, say).
    pub(super) fn formed_arg(&mut self, sc: &mut Scope, pattern: &str, e: &ast::Expr) -> Expr {
        let (x, t) = self.expr(sc, e);
        if !self.type_fits(&t, &formed_type()) {
            self.error(
                Diagnostic::error(
                    "fuda::type-mismatch",
                    format!(
                        "the second argument of pattern `{pattern}` lists the groups already formed: a list of card sets, not {}",
                        self.describe(&t)
                    ),
                    self.loc(sc, e.span),
                    format!("this is {}", self.describe(&t)),
                )
                .with_help(format!(
                    "write `{pattern}(hand)` for the cards alone, or `{pattern}(hand, [meld1, meld2])` with the melds already laid out (a `list of cards` variable holds them)"
                )),
            );
            return Expr::Const(Value::Unit);
        }
        x
    }
}

/// The type of a pattern's groups already formed: a list of card sets.
pub(super) fn formed_type() -> Type {
    Type::List(Box::new(Type::Cards))
}
