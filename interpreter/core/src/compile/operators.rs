//! Operators, fields and indexing in expressions, typed so the engine can use one
//! operation per case (card-set union, integer addition…).

use fuda_grammar::ast::{self, BinOp, ExprKind};
use fuda_grammar::Span;

use super::expr::Scope;
use super::names::Global;
use super::types::{coerce, comparable_text};
use super::Compiler;
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Op2, ScoreField};
use crate::model::AttrKind;
use crate::value::{SymDomain, Type, Value};

impl Compiler {
    pub(crate) fn binary(
        &mut self,
        sc: &mut Scope,
        op: BinOp,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
    ) -> (Expr, Type) {
        let bx = |x| Box::new(x);
        match op {
            BinOp::And | BinOp::Or => {
                let x = self.expr_of(sc, a, &Type::Bool);
                let y = self.expr_of(sc, b, &Type::Bool);
                let e = if op == BinOp::And {
                    Expr::And(bx(x), bx(y))
                } else {
                    Expr::Or(bx(x), bx(y))
                };
                (e, Type::Bool)
            }
            BinOp::Is => {
                let (x, t) = self.expr(sc, a);
                self.expect_type(sc, a.span, &t, &Type::Card);
                let tag = match &b.node {
                    ExprKind::Name(n) => match self.program.deck.tag_named(n) {
                        Some(t) => t,
                        None => {
                            self.tag_error(sc, b);
                            return (Expr::Const(Value::Bool(false)), Type::Bool);
                        }
                    },
                    _ => {
                        let tags = self.program.deck.tag_names.join(", ");
                        self.error(
                            Diagnostic::error(
                                "fuda::expected-tag",
                                "`is` takes a tag's name: `card is TAG`",
                                self.loc(sc, b.span),
                                "not a tag name",
                            )
                            .with_help(if tags.is_empty() {
                                "the deck declares no tags; compare an attribute instead, e.g. `c.month == 1`".to_string()
                            } else {
                                format!("the deck's tags: {tags}; to compare an attribute, write e.g. `c.month == 1`")
                            }),
                        );
                        return (Expr::Const(Value::Bool(false)), Type::Bool);
                    }
                };
                (Expr::HasTag(tag, bx(x)), Type::Bool)
            }
            BinOp::Eq | BinOp::Ne => {
                // An unknown name compared with an attribute's or an enum's value is most
                // likely a misspelt value of the same attribute or enum: `三.kind == 短冊`
                // means `短`, not the yaku `上短冊` the nearest of all names would be.
                let unknown_side = |c: &mut Compiler, sc: &mut Scope, known: &Type, e| {
                    matches!(known, Type::Sym(_))
                        && c.unknown_symbol(
                            sc,
                            e,
                            match known {
                                Type::Sym(d) => Some(d),
                                _ => None,
                            },
                        )
                };
                if self.is_unknown_name(sc, a) && !self.is_unknown_name(sc, b) {
                    let (y, tb) = self.expr(sc, b);
                    if unknown_side(self, sc, &tb, a) {
                        return (Expr::Const(Value::Unit), Type::Error);
                    }
                    let (x, ta) = self.expr(sc, a);
                    return self.typed_binary(sc, op, x, ta, y, tb, a.span, b.span, span);
                }
                let (x, ta) = self.expr(sc, a);
                if unknown_side(self, sc, &ta, b) {
                    return (Expr::Const(Value::Unit), Type::Error);
                }
                let (y, tb) = self.expr(sc, b);
                self.typed_binary(sc, op, x, ta, y, tb, a.span, b.span, span)
            }
            _ => {
                let (x, ta) = self.expr(sc, a);
                let (y, tb) = self.expr(sc, b);
                self.typed_binary(sc, op, x, ta, y, tb, a.span, b.span, span)
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn typed_binary(
        &mut self,
        sc: &mut Scope,
        op: BinOp,
        x: Expr,
        ta: Type,
        y: Expr,
        tb: Type,
        sa: Span,
        sb: Span,
        span: Span,
    ) -> (Expr, Type) {
        let bx = |x| Box::new(x);
        let is_set = |t: &Type| matches!(t, Type::Cards | Type::Zone);
        let setlike = |t: &Type| matches!(t, Type::Cards | Type::Zone | Type::Card);
        match op {
            BinOp::Add | BinOp::Sub if is_set(&ta) || (ta == Type::Card && is_set(&tb)) => {
                if !setlike(&tb) && tb != Type::Error {
                    self.expect_type(sc, sb, &tb, &Type::Cards);
                }
                let o = if op == BinOp::Add {
                    Op2::Union
                } else {
                    Op2::Minus
                };
                (
                    Expr::Bin(
                        o,
                        bx(coerce(x, &ta, &Type::Cards)),
                        bx(coerce(y, &tb, &Type::Cards)),
                    ),
                    Type::Cards,
                )
            }
            // `副露[s] + [m]`: lists join, their items of one type.
            BinOp::Add if matches!(ta, Type::List(_)) || matches!(tb, Type::List(_)) => {
                let item = |t: &Type| match t {
                    Type::List(i) => Some((**i).clone()),
                    _ => None,
                };
                let elem = match (item(&ta), item(&tb)) {
                    (Some(Type::Error), Some(b)) => b,
                    (Some(a), Some(b)) => {
                        if !(self.type_fits(&b, &a) || b == Type::Error) {
                            self.expect_type(sc, sb, &tb, &ta);
                        }
                        a
                    }
                    (Some(a), None) => {
                        if tb != Type::Error {
                            self.expect_type(sc, sb, &tb, &ta);
                        }
                        a
                    }
                    (None, Some(b)) => {
                        if ta != Type::Error {
                            self.expect_type(sc, sa, &ta, &tb);
                        }
                        b
                    }
                    (None, None) => Type::Error,
                };
                (
                    Expr::Bin(Op2::Concat, bx(x), bx(y)),
                    Type::List(Box::new(elem)),
                )
            }
            BinOp::Add if ta == Type::Str || tb == Type::Str => {
                (Expr::Bin(Op2::Concat, bx(x), bx(y)), Type::Str)
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
                self.expect_type(sc, sa, &ta, &Type::Int);
                self.expect_type(sc, sb, &tb, &Type::Int);
                let o = match op {
                    BinOp::Add => Op2::Add,
                    BinOp::Sub => Op2::Sub,
                    BinOp::Mul => Op2::Mul,
                    BinOp::Div => Op2::Div,
                    _ => Op2::Rem,
                };
                (Expr::Bin(o, bx(x), bx(y)), Type::Int)
            }
            BinOp::Eq | BinOp::Ne => {
                let (x, y) = if is_set(&ta) || is_set(&tb) {
                    // Cards compare with cards, a zone or one card; anything else is
                    // a mistake (`三 == 短` for `三.kind == 短`), not a run-time error.
                    let other = if is_set(&ta) { &tb } else { &ta };
                    if !setlike(other) && *other != Type::Error {
                        self.compare_mismatch(sc, span, (sa, &ta), (sb, &tb));
                    }
                    (coerce(x, &ta, &Type::Cards), coerce(y, &tb, &Type::Cards))
                } else {
                    if !(self.type_fits(&ta, &tb)
                        || self.type_fits(&tb, &ta)
                        || comparable_text(&ta, &tb))
                    {
                        self.compare_mismatch(sc, span, (sa, &ta), (sb, &tb));
                    }
                    (x, y)
                };
                // Two scalars of one kind compare unboxed at run time.
                let scalar =
                    matches!((scalar_kind(&ta), scalar_kind(&tb)), (Some(a), Some(b)) if a == b);
                let o = match (op == BinOp::Eq, scalar) {
                    (true, true) => Op2::EqScalar,
                    (false, true) => Op2::NeScalar,
                    (true, false) => Op2::Eq,
                    (false, false) => Op2::Ne,
                };
                (Expr::Bin(o, bx(x), bx(y)), Type::Bool)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                self.expect_type(sc, sa, &ta, &Type::Int);
                self.expect_type(sc, sb, &tb, &Type::Int);
                let o = match op {
                    BinOp::Lt => Op2::Lt,
                    BinOp::Le => Op2::Le,
                    BinOp::Gt => Op2::Gt,
                    _ => Op2::Ge,
                };
                (Expr::Bin(o, bx(x), bx(y)), Type::Bool)
            }
            BinOp::In => {
                match &tb {
                    Type::Cards | Type::Zone => {
                        self.expect_type(sc, sa, &ta, &Type::Card);
                    }
                    Type::List(elem) => {
                        if !(self.type_fits(&ta, elem) || self.type_fits(elem, &ta)) {
                            self.expect_type(sc, sa, &ta, elem);
                        }
                    }
                    Type::Range => {
                        self.expect_type(sc, sa, &ta, &Type::Int);
                    }
                    Type::Error => {}
                    other => {
                        self.error(Diagnostic::error(
                            "fuda::type-mismatch",
                            format!("`in` needs cards, a zone, a list or a range on the right, found {}", self.describe(other)),
                            self.loc(sc, sb),
                            "not a collection",
                        ));
                    }
                }
                let o = if ta == Type::Card && is_set(&tb) {
                    Op2::InCards
                } else {
                    Op2::In
                };
                (
                    Expr::Bin(o, bx(x), bx(coerce(y, &tb, &Type::Cards))),
                    Type::Bool,
                )
            }
            BinOp::And | BinOp::Or | BinOp::Is => unreachable_bool(),
        }
    }

    /// `==` or `!=` between values of two types that never compare: an error, with a
    /// help line when a card or cards meet a value of an attribute (`三 == 短` for
    /// `三.kind == 短`) or cards meet a number.
    fn compare_mismatch(
        &mut self,
        sc: &Scope,
        span: Span,
        (xa, ta): (Span, &Type),
        (xb, tb): (Span, &Type),
    ) {
        let shadowed = self
            .shadowed_value(sc, xa, tb)
            .or_else(|| self.shadowed_value(sc, xb, ta));
        let (a, b) = (self.describe(ta), self.describe(tb));
        let mut d = Diagnostic::error(
            "fuda::type-mismatch",
            format!("cannot compare {a} with {b}"),
            self.loc(sc, span),
            "different types",
        );
        let carded = |t: &Type| matches!(t, Type::Card | Type::Cards | Type::Zone);
        let attr = |t: &Type| match t {
            Type::Sym(SymDomain::Attr(at)) => self.program.deck.attrs.get(*at as usize),
            _ => None,
        };
        let help = match (carded(ta), carded(tb)) {
            (true, false) | (false, true) => {
                let (mine, other) = if carded(ta) { (ta, tb) } else { (tb, ta) };
                let (whose, what) = match mine {
                    Type::Card => ("card's", "CARD"),
                    _ => ("cards'", "CARDS"),
                };
                match attr(other) {
                    Some(at) => Some(format!(
                        "to compare the {whose} `{0}`, name the attribute: `{what}.{0} == VALUE`",
                        at.name
                    )),
                    None if *other == Type::Int && (*ta == Type::Cards || *tb == Type::Cards) => {
                        Some("to compare how many cards, use `len(…)` or `count(…)`".to_string())
                    }
                    None => None,
                }
            }
            _ => None,
        };
        if let Some(h) = shadowed.or(help) {
            d = d.with_help(h);
        }
        self.error(d);
    }

    /// When the operand written at `x` is a bare name that something declared takes (a
    /// variable) and also a
    /// value of the attribute `want` is of, the help that names the value: `` `場` here
    /// is the variable; the value of `kanji` is written `kanji.場` ``.
    fn shadowed_value(&self, sc: &Scope, x: Span, want: &Type) -> Option<String> {
        let at = self.loc(sc, x);
        let src = self.program.sources.get(at.file as usize)?;
        let n = src.text.get(at.span.start as usize..at.span.end as usize)?;
        let Type::Sym(SymDomain::Attr(a)) = want else {
            return None;
        };
        let s = *self.sym_index.get(n)?;
        if !self.program.deck.attr_has_value(*a, s) {
            return None;
        }
        let (g, _) = self.globals.get(n)?;
        let attr = &self.program.deck.attrs.get(*a as usize)?.name;
        Some(format!(
            "`{n}` here is {}; the value of `{attr}` is written `{attr}.{n}`",
            g.describe()
        ))
    }

    pub(crate) fn field(&mut self, sc: &mut Scope, x: &ast::Expr, f: &ast::Ident) -> (Expr, Type) {
        if let Some(v) = self.qualified_value(sc, x, f) {
            return v;
        }
        let (xe, t) = self.expr(sc, x);
        match t {
            Type::Score => {
                let (sf, ty) = match f.node.as_str() {
                    "total" => (ScoreField::Total, Type::Int),
                    "name" => (ScoreField::Name, Type::Str),
                    "factor" => (ScoreField::Factor, Type::Int),
                    "base" => (ScoreField::Base, Type::Int),
                    "count" => (ScoreField::Count, Type::Int),
                    "shape" => (ScoreField::Shape, Type::Str),
                    _ => {
                        self.error(
                            Diagnostic::error(
                                "fuda::unknown-field",
                                format!("a score result has no field `{}`", f.node),
                                self.loc(sc, f.span),
                                "unknown field",
                            )
                            .with_help(
                                match crate::suggest::closest(
                                    &f.node,
                                    ["total", "name", "factor", "base", "count", "shape"],
                                ) {
                                    Some(s) => format!("did you mean `{s}`?"),
                                    None => {
                                        "fields: total, name, factor, base, count, shape".into()
                                    }
                                },
                            ),
                        );
                        return (Expr::Const(Value::Unit), Type::Error);
                    }
                };
                (Expr::ScoreField(sf, Box::new(xe)), ty)
            }
            Type::Card | Type::Cards | Type::Zone => match self.program.deck.attr_named(&f.node) {
                Some(a) => {
                    let ty = match &self.program.deck.attrs[a as usize].kind {
                        AttrKind::Int(_) => Type::Int,
                        AttrKind::Symbols(_) => Type::Sym(SymDomain::Attr(a)),
                    };
                    if t == Type::Card {
                        (Expr::Attr(a, Box::new(xe)), ty)
                    } else {
                        (
                            Expr::GroupAttr(a, Box::new(coerce(xe, &t, &Type::Cards))),
                            ty,
                        )
                    }
                }
                None => {
                    let mut d = Diagnostic::error(
                        "fuda::unknown-attribute",
                        format!("cards have no attribute `{}`", f.node),
                        self.loc(sc, f.span),
                        "unknown attribute",
                    );
                    let names: Vec<&str> = self
                        .program
                        .deck
                        .attrs
                        .iter()
                        .map(|a| a.name.as_str())
                        .collect();
                    if let Some(s) = super::closest_within(
                        &mut self.suggest_budget,
                        &f.node,
                        names.iter().copied(),
                    ) {
                        d = d.with_help(format!("did you mean `{s}`?"));
                    } else {
                        d = d.with_help(format!("the deck's attributes: {}", names.join(", ")));
                    }
                    self.error(d);
                    (Expr::Const(Value::Unit), Type::Error)
                }
            },
            Type::Error => (Expr::Const(Value::Unit), Type::Error),
            other => {
                self.error(Diagnostic::error(
                    "fuda::unknown-field",
                    format!("{} has no fields", self.describe(&other)),
                    self.loc(sc, f.span),
                    "no such field",
                ));
                (Expr::Const(Value::Unit), Type::Error)
            }
        }
    }

    /// `x.name(args)`: `r.has(Y)` on a score result, the only method there is.
    pub(crate) fn method(
        &mut self,
        sc: &mut Scope,
        x: &ast::Expr,
        m: &ast::Ident,
        args: &[ast::Arg],
    ) -> (Expr, Type) {
        let (xe, t) = self.expr(sc, x);
        match t {
            Type::Score if m.node == "has" => {
                let [arg] = args else {
                    self.error(
                        Diagnostic::error(
                            "fuda::arity",
                            format!("`has` takes one yaku name, given {}", args.len()),
                            self.loc(sc, m.span),
                            "one yaku name",
                        )
                        .with_help("write e.g. `r.has(平和)`"),
                    );
                    return (Expr::Const(Value::Unit), Type::Error);
                };
                if let Some(n) = &arg.name {
                    self.error(Diagnostic::error(
                        "fuda::unknown-argument",
                        "`has` takes its yaku name without a label",
                        self.loc(sc, n.span),
                        "no labels here",
                    ));
                }
                match self.row_name(sc, &arg.value) {
                    Some(y) => (
                        Expr::ScoreField(ScoreField::Has(y), Box::new(xe)),
                        Type::Bool,
                    ),
                    None => (Expr::Const(Value::Unit), Type::Error),
                }
            }
            Type::Score => {
                let help =
                    if ["total", "name", "factor", "base", "count"].contains(&m.node.as_str()) {
                        format!("`{0}` is a field: `r.{0}`, without parentheses", m.node)
                    } else {
                        "a score result's one method is `has`: `r.has(平和)`".into()
                    };
                self.error(
                    Diagnostic::error(
                        "fuda::unknown-field",
                        format!("a score result has no method `{}`", m.node),
                        self.loc(sc, m.span),
                        "unknown method",
                    )
                    .with_help(help),
                );
                (Expr::Const(Value::Unit), Type::Error)
            }
            Type::Error => (Expr::Const(Value::Unit), Type::Error),
            other => {
                self.error(Diagnostic::error(
                    "fuda::unknown-field",
                    format!("{} has no methods", self.describe(&other)),
                    self.loc(sc, m.span),
                    "no such method",
                ));
                (Expr::Const(Value::Unit), Type::Error)
            }
        }
    }

    /// The symbol of the yaku or bonus row `e` names, for `r.has(Y)` and `r[Y]`: a bare
    /// name that some score table's `yaku` or `plus` row has, checked here so that a
    /// misspelt yaku is an error rather than a question that is never true.
    fn row_name(&mut self, sc: &Scope, e: &ast::Expr) -> Option<u32> {
        let ExprKind::Name(n) = &e.node else {
            self.error(
                Diagnostic::error(
                    "fuda::type-mismatch",
                    "a score result is asked about a yaku by its name",
                    self.loc(sc, e.span),
                    "not a yaku name",
                )
                .with_help("name the yaku or bonus row itself: `r.has(平和)`, `r[平和]`"),
            );
            return None;
        };
        if let Some(y) = self.row_names.get(n) {
            return Some(*y);
        }
        let mut d = Diagnostic::error(
            "fuda::unknown-name",
            format!("no score table has a yaku or bonus named `{n}`"),
            self.loc(sc, e.span),
            "not a yaku",
        );
        let names: Vec<String> = self.row_names.keys().cloned().collect();
        let result_name = self.sym_index.get(n).and_then(|s| self.sym_type.get(s))
            == Some(&Type::Sym(SymDomain::Yaku));
        if result_name {
            // A `name` row's name: the result's name, not a row that held.
            d = d.with_help(format!(
                "`{n}` is a name a result may take: compare `r.name == {n}`"
            ));
        } else if names.is_empty() {
            d = d.with_help("the ruleset's score tables declare no yaku");
        } else if let Some(s) = super::closest_within(
            &mut self.suggest_budget,
            n,
            names.iter().map(|s| s.as_str()),
        ) {
            d = d.with_help(format!("did you mean `{s}`?"));
        }
        self.error(d);
        None
    }

    pub(crate) fn index(&mut self, sc: &mut Scope, x: &ast::Expr, i: &ast::Expr) -> (Expr, Type) {
        // `手札[s]` and `chips[s]` index per-seat things by seat.
        if let ExprKind::Name(n) = &x.node {
            if sc.local(n).is_none() {
                if let Some((g, _)) = self.globals.get(n).cloned() {
                    match g {
                        Global::Zone(z)
                            if self.program.zones[z as usize].owner == ast::Owner::PerSeat =>
                        {
                            self.state_only(sc, "zone", n, x.span);
                            let s = self.expr_of(sc, i, &Type::Seat);
                            return (Expr::SeatZone(z, Box::new(s)), Type::Zone);
                        }
                        Global::Var(v) if self.program.vars[v as usize].per_seat => {
                            self.state_only(sc, "variable", n, x.span);
                            let s = self.expr_of(sc, i, &Type::Seat);
                            return (
                                Expr::SeatVar(v, Box::new(s)),
                                self.program.vars[v as usize].ty.clone(),
                            );
                        }
                        // A `per card` variable is indexed by a card.
                        Global::Var(v) if self.program.vars[v as usize].per_card => {
                            self.state_only(sc, "variable", n, x.span);
                            let c = self.expr_of(sc, i, &Type::Card);
                            let elem = match &self.program.vars[v as usize].ty {
                                Type::List(t) => (**t).clone(),
                                _ => Type::Error,
                            };
                            return (Expr::Index(Box::new(Expr::Var(v)), Box::new(c)), elem);
                        }
                        // A `per ENUM` variable is indexed by a value of the enum.
                        Global::Var(v) if self.program.vars[v as usize].per_key.is_some() => {
                            self.state_only(sc, "variable", n, x.span);
                            let e = self.program.vars[v as usize].per_key.unwrap_or(0);
                            let k = self.expr_of(sc, i, &Type::Sym(SymDomain::Enum(e)));
                            let loc = self.loc(sc, i.span);
                            let at = Expr::Call(crate::ir::Builtin::Ordinal(e), vec![k], loc);
                            let elem = match &self.program.vars[v as usize].ty {
                                Type::List(t) => (**t).clone(),
                                _ => Type::Error,
                            };
                            return (Expr::Index(Box::new(Expr::Var(v)), Box::new(at)), elem);
                        }
                        // A shared list is indexed by position, below.
                        Global::Var(v)
                            if matches!(self.program.vars[v as usize].ty, Type::List(_)) => {}
                        Global::Zone(_) | Global::Var(_) => {
                            self.error(
                                Diagnostic::error(
                                    "fuda::not-per-seat",
                                    format!("`{n}` is shared, not one per seat"),
                                    self.loc(sc, x.span),
                                    "not per seat",
                                )
                                .with_help(format!("drop the index: `{n}`")),
                            );
                            return (Expr::Const(Value::Unit), Type::Error);
                        }
                        _ => {}
                    }
                }
            }
        }
        let (xe, t) = self.expr(sc, x);
        match t {
            Type::Score => match self.row_name(sc, i) {
                Some(y) => (
                    Expr::ScoreField(ScoreField::Held(y), Box::new(xe)),
                    Type::Int,
                ),
                None => (Expr::Const(Value::Unit), Type::Error),
            },
            Type::List(elem) => {
                let ie = self.expr_of(sc, i, &Type::Int);
                (Expr::Index(Box::new(xe), Box::new(ie)), *elem)
            }
            Type::Error => (Expr::Const(Value::Unit), Type::Error),
            other => {
                self.error(Diagnostic::error(
                    "fuda::not-indexable",
                    format!("{} cannot be indexed", self.describe(&other)),
                    self.loc(sc, x.span),
                    "not a list or per-seat name",
                ));
                (Expr::Const(Value::Unit), Type::Error)
            }
        }
    }
}

/// Which kind of scalar a type is, for unboxed comparison: ints and seats compare with
/// each other; cards, booleans and symbols each among themselves.
fn scalar_kind(t: &Type) -> Option<u8> {
    match t {
        Type::Int | Type::Seat => Some(0),
        Type::Card => Some(1),
        Type::Bool => Some(2),
        Type::Sym(_) => Some(3),
        _ => None,
    }
}

pub(super) fn unreachable_bool() -> (Expr, Type) {
    (Expr::Const(Value::Bool(false)), Type::Bool)
}

impl Compiler {
    /// `kanji.場`, `結果.流局`: a value named by its attribute or enum, which a
    /// variable, zone or parameter of the same name may hide when written alone (a
    /// deck of 52 kanji does not take 52 names from the rest of the ruleset). `None`
    /// when `x` is not an attribute's or enum's name that nothing else takes.
    fn qualified_value(
        &mut self,
        sc: &mut Scope,
        x: &ast::Expr,
        f: &ast::Ident,
    ) -> Option<(Expr, Type)> {
        let ExprKind::Name(n) = &x.node else {
            return None;
        };
        if sc.local(n).is_some() || sc.groups.iter().any(|(g, ..)| g == n) {
            return None;
        }
        let domain = match self.globals.get(n) {
            Some((Global::Enum(e), _)) => SymDomain::Enum(*e),
            Some(_) => return None,
            None => match self.program.deck.attr_named(n) {
                Some(a)
                    if matches!(
                        self.program.deck.attrs[a as usize].kind,
                        AttrKind::Symbols(_)
                    ) =>
                {
                    SymDomain::Attr(a)
                }
                _ => return None,
            },
        };
        let sym = self.sym_index.get(&f.node).copied();
        let fits = sym.is_some_and(|s| match &domain {
            SymDomain::Attr(a) => self.program.deck.attr_has_value(*a, s),
            SymDomain::Enum(e) => self
                .program
                .enums
                .get(*e as usize)
                .is_some_and(|d| d.values.iter().any(|(v, _)| *v == s)),
            _ => false,
        });
        if let (true, Some(s)) = (fits, sym) {
            return Some((Expr::Const(Value::Sym(s)), Type::Sym(domain)));
        }
        let values = self.sym_values(&domain).unwrap_or_default();
        self.error(
            Diagnostic::error(
                "fuda::unknown-value",
                format!("`{n}` has no value `{}`", f.node),
                self.loc(sc, f.span),
                "not one of its values",
            )
            .with_help(format!("its values: {values}")),
        );
        Some((Expr::Const(Value::Unit), Type::Error))
    }
}
