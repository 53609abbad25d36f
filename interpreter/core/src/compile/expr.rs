//! Lowering expressions: resolving names to slots and tables, checking types, and
//! choosing typed operators, so the engine never looks a name up at run time.

use fuda_grammar::ast::{self, BinOp, ExprKind};
use fuda_grammar::Span;

use super::names::{Global, BINDERS, BUILTINS};
use super::Compiler;
use crate::diagnostic::Diagnostic;
use crate::ir::{BinderKind, Builtin, Expr, Loc, Op2, ScoreField};
use crate::model::{AttrKind, CardSet};
use crate::value::{SymDomain, Type, Value};

/// Where an expression is being compiled: its locals and what it may see.
pub(crate) struct Scope {
    /// The file being compiled.
    pub file: u16,
    names: Vec<(String, u16, Type)>,
    marks: Vec<usize>,
    next: u16,
    /// Highest slot count used (the frame size).
    pub max: u16,
    /// Pattern groups in view: name, first group index, how many (`*N`).
    pub groups: Vec<(String, u16, u16)>,
    /// Inside a score table: the `yaku` and `factor` slots.
    pub score: Option<(u16, u16)>,
    /// Whether game state (variables, zones, the dealer) may be read.
    pub stateful: bool,
    /// What this scope is, for messages ("a score table", "a def").
    pub context: &'static str,
}

impl Scope {
    /// A scope for a proc or test (sees game state).
    pub fn stateful(file: u16) -> Scope {
        Scope {
            file,
            names: Vec::new(),
            marks: Vec::new(),
            next: 0,
            max: 0,
            groups: Vec::new(),
            score: None,
            stateful: true,
            context: "a procedure",
        }
    }

    /// A scope for a def, pattern or score (sees only its parameters).
    pub fn pure(file: u16, context: &'static str) -> Scope {
        Scope {
            stateful: false,
            context,
            ..Scope::stateful(file)
        }
    }

    /// A new local slot bound to `name`.
    pub fn bind(&mut self, name: &str, ty: Type) -> u16 {
        let slot = self.next;
        self.next += 1;
        self.max = self.max.max(self.next);
        self.names.push((name.to_string(), slot, ty));
        slot
    }

    /// A hidden slot (loop counters).
    pub fn hidden(&mut self) -> u16 {
        self.bind("", Type::Error)
    }

    /// Opens a block: names bound after this go out of view at `close`.
    pub fn open(&mut self) {
        self.marks.push(self.names.len());
    }

    /// Closes a block. Slots are not reused, so values bound in loops stay put.
    pub fn close(&mut self) {
        if let Some(m) = self.marks.pop() {
            self.names.truncate(m);
        }
    }

    /// A local by name.
    pub fn local(&self, name: &str) -> Option<(u16, Type)> {
        self.names
            .iter()
            .rev()
            .find(|(n, ..)| n == name)
            .map(|(_, s, t)| (*s, t.clone()))
    }

    /// Local names in view (for "did you mean").
    pub fn local_names(&self) -> impl Iterator<Item = &str> {
        self.names
            .iter()
            .map(|(n, ..)| n.as_str())
            .filter(|n| !n.is_empty())
    }
}

impl Compiler {
    /// A location in the current scope's file.
    pub fn loc(&self, sc: &Scope, span: Span) -> Loc {
        Loc {
            file: sc.file,
            span,
        }
    }

    /// Lowers an expression and checks it has type `want`.
    pub fn expr_of(&mut self, sc: &mut Scope, e: &ast::Expr, want: &Type) -> Expr {
        let (x, t) = self.expr(sc, e);
        self.expect_type(sc, e.span, &t, want);
        coerce(x, &t, want)
    }

    /// Reports a type mismatch.
    pub fn expect_type(&mut self, sc: &Scope, span: Span, got: &Type, want: &Type) -> bool {
        if got.fits(want) {
            return true;
        }
        let mut d = Diagnostic::error(
            "fuda::type-mismatch",
            format!("expected {}, found {}", want.describe(), got.describe()),
            self.loc(sc, span),
            format!("this is {}", got.describe()),
        );
        if *got == Type::ZoneFamily {
            d = d.with_help("a per-seat zone needs a seat: write `zone[seat]`");
        } else if *want == Type::Bool && *got == Type::Int {
            d = d.with_help("compare it: e.g. `… > 0`");
        }
        self.error(d);
        false
    }

    /// Lowers an expression, returning it with its type.
    pub fn expr(&mut self, sc: &mut Scope, e: &ast::Expr) -> (Expr, Type) {
        let loc = self.loc(sc, e.span);
        match &e.node {
            ExprKind::Int(i) => (Expr::Const(Value::Int(*i)), Type::Int),
            ExprKind::Bool(b) => (Expr::Const(Value::Bool(*b)), Type::Bool),
            ExprKind::Str(s) => (Expr::Const(Value::Str(s.as_str().into())), Type::Str),
            ExprKind::Name(n) => self.name(sc, n, e.span),
            ExprKind::Cards(ids) => {
                let words: Vec<&str> = ids.iter().map(|i| i.node.as_str()).collect();
                match self.program.deck.parse_cards(&words) {
                    Ok(cs) => (
                        Expr::Const(Value::Cards(cs.into_iter().collect())),
                        Type::Cards,
                    ),
                    Err(err) => {
                        self.card_error(
                            sc,
                            err,
                            ids.iter().map(|i| (i.node.as_str(), i.span)).collect(),
                            e.span,
                        );
                        (Expr::Const(Value::Cards(CardSet::EMPTY)), Type::Error)
                    }
                }
            }
            ExprKind::CardsStr(s) => match self.program.deck.parse_card_list(&s.node) {
                Ok(cs) => (
                    Expr::Const(Value::Cards(cs.into_iter().collect())),
                    Type::Cards,
                ),
                Err(err) => {
                    self.card_error(sc, err, vec![], s.span);
                    (Expr::Const(Value::Cards(CardSet::EMPTY)), Type::Error)
                }
            },
            ExprKind::Card(id) => match self.program.deck.parse_cards(&[id.node.as_str()]) {
                Ok(cs) if cs.len() == 1 => (Expr::Const(Value::Card(cs[0])), Type::Card),
                Ok(_) => {
                    self.error(
                        Diagnostic::error(
                            "fuda::not-one-card",
                            "`card(…)` names exactly one card",
                            loc,
                            "several cards",
                        )
                        .with_help("use `cards(…)` for a set"),
                    );
                    (Expr::Const(Value::Unit), Type::Error)
                }
                Err(err) => {
                    self.card_error(sc, err, vec![(id.node.as_str(), id.span)], id.span);
                    (Expr::Const(Value::Unit), Type::Error)
                }
            },
            ExprKind::List(items) => {
                let mut out = Vec::new();
                let mut elem = Type::Error;
                for it in items {
                    let (x, t) = self.expr(sc, it);
                    if elem == Type::Error {
                        elem = t;
                    } else {
                        self.expect_type(sc, it.span, &t, &elem.clone());
                    }
                    out.push(x);
                }
                (Expr::List(out), Type::List(Box::new(elem)))
            }
            ExprKind::Range(lo, hi) => {
                let lo = self.expr_of(sc, lo, &Type::Int);
                let hi = self.expr_of(sc, hi, &Type::Int);
                (Expr::Range(Box::new(lo), Box::new(hi)), Type::Range)
            }
            ExprKind::Neg(x) => {
                let x = self.expr_of(sc, x, &Type::Int);
                (Expr::Neg(Box::new(x)), Type::Int)
            }
            ExprKind::Not(x) => {
                let x = self.expr_of(sc, x, &Type::Bool);
                (Expr::Not(Box::new(x)), Type::Bool)
            }
            ExprKind::Binary(op, a, b) => self.binary(sc, *op, a, b, e.span),
            ExprKind::Field(x, f) => self.field(sc, x, f),
            ExprKind::Index(x, i) => self.index(sc, x, i),
            ExprKind::Call(f, args) => self.call(sc, f, args, e.span),
            ExprKind::Binder(f, x, dom, body) => self.binder(sc, f, x, dom, body),
            ExprKind::If(c, a, b) => {
                let c = self.expr_of(sc, c, &Type::Bool);
                let (a, ta) = self.expr(sc, a);
                let (b2, tb) = self.expr(sc, b);
                self.expect_type(sc, b.span, &tb, &ta);
                (
                    Expr::If(Box::new(c), Box::new(a), Box::new(b2)),
                    if ta == Type::Error { tb } else { ta },
                )
            }
        }
    }

    fn card_error(
        &mut self,
        sc: &Scope,
        err: crate::model::CardParseError,
        ids: Vec<(&str, Span)>,
        whole: Span,
    ) {
        use crate::model::CardParseError;
        match err {
            CardParseError::Unknown(w) => {
                let span = ids
                    .iter()
                    .find(|(i, _)| *i == w)
                    .map(|(_, s)| *s)
                    .unwrap_or(whole);
                let mut d = Diagnostic::error(
                    "fuda::unknown-card",
                    format!("no card `{w}` in deck `{}`", self.program.deck.name),
                    self.loc(sc, span),
                    "unknown card id",
                );
                if let Some(s) = self.program.deck.suggest(&w) {
                    d = d.with_help(format!("did you mean `{s}`?"));
                }
                self.error(d);
            }
            CardParseError::TooMany(w) => {
                let span = ids
                    .iter()
                    .rev()
                    .find(|(i, _)| *i == w)
                    .map(|(_, s)| *s)
                    .unwrap_or(whole);
                self.error(
                    Diagnostic::error(
                        "fuda::card-twice",
                        format!("`{w}` is named more times than the deck has copies"),
                        self.loc(sc, span),
                        "one too many",
                    )
                    .with_help("each physical card can appear once in a set"),
                );
            }
        }
    }

    fn state_only(&mut self, sc: &Scope, what: &str, name: &str, span: Span) {
        if !sc.stateful {
            self.error(
                Diagnostic::error(
                    "fuda::state-in-pure",
                    format!("{} cannot read {what} `{name}`", sc.context),
                    self.loc(sc, span),
                    "game state",
                )
                .with_help("patterns, scores and defs see only their parameters: pass the value in as an argument"),
            );
        }
    }

    fn name(&mut self, sc: &mut Scope, n: &str, span: Span) -> (Expr, Type) {
        if let Some((slot, t)) = sc.local(n) {
            return (Expr::Local(slot), t);
        }
        if let Some((_, first, count)) = sc.groups.iter().find(|(g, ..)| g == n).cloned() {
            if count == 1 {
                return (Expr::Group(first), Type::Cards);
            }
            let list = (first..first + count).map(Expr::Group).collect();
            return (Expr::List(list), Type::List(Box::new(Type::Cards)));
        }
        if let Some((yaku, factor)) = sc.score {
            if n == "yaku" {
                return (Expr::Local(yaku), Type::Sym(SymDomain::Yaku));
            }
            if n == "factor" {
                return (Expr::Local(factor), Type::Int);
            }
        }
        if n == "dealer" {
            self.state_only(sc, "the dealer", n, span);
            return (Expr::Dealer, Type::Seat);
        }
        if n == "deck" {
            return (Expr::Cards(self.program.deck.all()), Type::Cards);
        }
        if let Some((g, _)) = self.globals.get(n).cloned() {
            match g {
                Global::Param(i) => {
                    return (Expr::Param(i), self.program.params[i as usize].ty.clone())
                }
                Global::Var(i) => {
                    self.state_only(sc, "variable", n, span);
                    let v = &self.program.vars[i as usize];
                    if v.per_seat {
                        self.error(
                            Diagnostic::error(
                                "fuda::needs-seat",
                                format!("`{n}` is one per seat: say whose"),
                                self.loc(sc, span),
                                "per-seat variable",
                            )
                            .with_help(format!("write `{n}[seat]`")),
                        );
                        return (Expr::Const(Value::Unit), Type::Error);
                    }
                    return (Expr::Var(i), v.ty.clone());
                }
                Global::Zone(i) => {
                    self.state_only(sc, "zone", n, span);
                    return if self.program.zones[i as usize].owner == ast::Owner::PerSeat {
                        (Expr::ZoneFamily(i), Type::ZoneFamily)
                    } else {
                        (Expr::Zone(i), Type::Zone)
                    };
                }
                Global::CardSet(s) => return (Expr::Cards(s), Type::Cards),
                // A procedure or table may share its name with a symbol (`proc 流れ` and
                // the outcome `流れ`): as a value, the name means the symbol.
                _ if self.sym_index.contains_key(n) => {}
                other => {
                    self.error(
                        Diagnostic::error(
                            "fuda::not-a-value",
                            format!("`{n}` is {}, not a value", other.describe()),
                            self.loc(sc, span),
                            "used as a value",
                        )
                        .with_help(match other {
                            Global::Score(_) | Global::Def(_) | Global::Pattern(_) => {
                                format!("call it: `{n}(…)`")
                            }
                            Global::Proc(_) => format!("call it as a statement: `{n}(…)`"),
                            _ => "use one of its values instead".into(),
                        }),
                    );
                    return (Expr::Const(Value::Unit), Type::Error);
                }
            }
        }
        if let Some(s) = self.sym_index.get(n).copied() {
            let t = self
                .sym_type
                .get(&s)
                .cloned()
                .unwrap_or(Type::Sym(SymDomain::Yaku));
            return (Expr::Const(Value::Sym(s)), t);
        }
        self.unknown_name(sc, n, span, "name");
        (Expr::Const(Value::Unit), Type::Error)
    }

    /// Reports an unknown name with the closest known one.
    pub fn unknown_name(&mut self, sc: &Scope, n: &str, span: Span, what: &str) {
        let mut candidates: Vec<String> = sc.local_names().map(String::from).collect();
        candidates.extend(self.globals.keys().cloned());
        candidates.extend(self.sym_index.keys().cloned());
        candidates.extend(sc.groups.iter().map(|g| g.0.clone()));
        candidates.extend(BUILTINS.iter().map(|b| b.0.to_string()));
        let mut d = Diagnostic::error(
            "fuda::unknown-name",
            format!("unknown {what} `{n}`"),
            self.loc(sc, span),
            "not declared",
        );
        if let Some(s) = crate::suggest::closest(n, candidates.iter().map(|s| s.as_str())) {
            d = d.with_help(format!("did you mean `{s}`?"));
        } else {
            d = d.with_help("declare it (`var`, `param`, `zone`, `let`…) before use");
        }
        self.error(d);
    }

    fn binary(
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
                            let mut d = Diagnostic::error(
                                "fuda::unknown-tag",
                                format!("no tag `{n}` in the deck"),
                                self.loc(sc, b.span),
                                "unknown tag",
                            );
                            if let Some(s) = crate::suggest::closest(
                                n,
                                self.program.deck.tag_names.iter().map(|s| s.as_str()),
                            ) {
                                d = d.with_help(format!("did you mean `{s}`?"));
                            }
                            self.error(d);
                            return (Expr::Const(Value::Bool(false)), Type::Bool);
                        }
                    },
                    _ => {
                        self.error(Diagnostic::error(
                            "fuda::expected-tag",
                            "`is` takes a tag name",
                            self.loc(sc, b.span),
                            "not a tag",
                        ));
                        return (Expr::Const(Value::Bool(false)), Type::Bool);
                    }
                };
                (Expr::HasTag(tag, bx(x)), Type::Bool)
            }
            _ => {
                let (x, ta) = self.expr(sc, a);
                let (y, tb) = self.expr(sc, b);
                self.typed_binary(sc, op, x, ta, y, tb, a.span, b.span, span)
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn typed_binary(
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
                    (coerce(x, &ta, &Type::Cards), coerce(y, &tb, &Type::Cards))
                } else {
                    if !(ta.fits(&tb) || tb.fits(&ta) || comparable_text(&ta, &tb)) {
                        self.error(Diagnostic::error(
                            "fuda::type-mismatch",
                            format!("cannot compare {} with {}", ta.describe(), tb.describe()),
                            self.loc(sc, span),
                            "different types",
                        ));
                    }
                    (x, y)
                };
                (
                    Expr::Bin(
                        if op == BinOp::Eq { Op2::Eq } else { Op2::Ne },
                        bx(x),
                        bx(y),
                    ),
                    Type::Bool,
                )
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
                        if !(ta.fits(elem) || elem.fits(&ta)) {
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
                            format!("`in` needs cards, a zone, a list or a range on the right, found {}", other.describe()),
                            self.loc(sc, sb),
                            "not a collection",
                        ));
                    }
                }
                (
                    Expr::Bin(Op2::In, bx(x), bx(coerce(y, &tb, &Type::Cards))),
                    Type::Bool,
                )
            }
            BinOp::And | BinOp::Or | BinOp::Is => unreachable_bool(),
        }
    }

    fn field(&mut self, sc: &mut Scope, x: &ast::Expr, f: &ast::Ident) -> (Expr, Type) {
        let (xe, t) = self.expr(sc, x);
        match t {
            Type::Score => {
                let (sf, ty) = match f.node.as_str() {
                    "total" => (ScoreField::Total, Type::Int),
                    "name" => (ScoreField::Name, Type::Str),
                    "factor" => (ScoreField::Factor, Type::Int),
                    "base" => (ScoreField::Base, Type::Int),
                    "count" => (ScoreField::Count, Type::Int),
                    _ => {
                        self.error(
                            Diagnostic::error(
                                "fuda::unknown-field",
                                format!("a score result has no field `{}`", f.node),
                                self.loc(sc, f.span),
                                "unknown field",
                            )
                            .with_help("fields: total, name, factor, base, count"),
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
                    if let Some(s) = crate::suggest::closest(&f.node, names.iter().copied()) {
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
                    format!("{} has no fields", other.describe()),
                    self.loc(sc, f.span),
                    "no such field",
                ));
                (Expr::Const(Value::Unit), Type::Error)
            }
        }
    }

    fn index(&mut self, sc: &mut Scope, x: &ast::Expr, i: &ast::Expr) -> (Expr, Type) {
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
            Type::List(elem) => {
                let ie = self.expr_of(sc, i, &Type::Int);
                (Expr::Index(Box::new(xe), Box::new(ie)), *elem)
            }
            Type::Error => (Expr::Const(Value::Unit), Type::Error),
            other => {
                self.error(Diagnostic::error(
                    "fuda::not-indexable",
                    format!("{} cannot be indexed", other.describe()),
                    self.loc(sc, x.span),
                    "not a list or per-seat name",
                ));
                (Expr::Const(Value::Unit), Type::Error)
            }
        }
    }

    fn call(
        &mut self,
        sc: &mut Scope,
        f: &ast::Ident,
        args: &[ast::Arg],
        span: Span,
    ) -> (Expr, Type) {
        let loc = self.loc(sc, span);
        let name = f.node.as_str();
        if sc.local(name).is_none() {
            if let Some((g, _)) = self.globals.get(name).cloned() {
                match g {
                    Global::Score(s) => return self.score_call(sc, s, f, args, span),
                    Global::Def(d) => return self.inline_def(sc, d, f, args, span),
                    Global::Pattern(p) => {
                        if args.len() != 1 || args[0].name.is_some() {
                            self.error(Diagnostic::error(
                                "fuda::arity",
                                format!("pattern `{name}` takes one argument: the cards"),
                                loc,
                                "here",
                            ));
                            return (Expr::Const(Value::Bool(false)), Type::Bool);
                        }
                        let x = self.expr_of(sc, &args[0].value, &Type::Cards);
                        return (Expr::PatternTest(p, Box::new(x)), Type::Bool);
                    }
                    Global::Proc(_) => {
                        self.error(
                            Diagnostic::error(
                                "fuda::proc-as-value",
                                format!("`{name}` is a procedure; it has no value"),
                                loc,
                                "used as a value",
                            )
                            .with_help("call procedures as statements; use `def` for a value"),
                        );
                        return (Expr::Const(Value::Unit), Type::Error);
                    }
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
                    self.expect_type(sc, a(0).span, &t, &Type::Cards);
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
            Builtin::Tagged => {
                let x = self.expr_of(sc, a(0), &Type::Cards);
                let tag = match &a(1).node {
                    ExprKind::Name(n) => self.program.deck.tag_named(n),
                    _ => None,
                };
                match tag {
                    Some(t) => (vec![x, Expr::Const(Value::Int(t as i64))], Type::Cards),
                    None => {
                        self.error(Diagnostic::error(
                            "fuda::unknown-tag",
                            "`tagged` takes a tag name second",
                            self.loc(sc, a(1).span),
                            "not a tag",
                        ));
                        return (Expr::Const(Value::Unit), Type::Error);
                    }
                }
            }
            Builtin::Matches => {
                let p = match &a(0).node {
                    ExprKind::Name(n) => match self.globals.get(n) {
                        Some((Global::Pattern(p), _)) => Some(*p),
                        _ => None,
                    },
                    _ => None,
                };
                let x = self.expr_of(sc, a(1), &Type::Cards);
                match p {
                    Some(p) => return (Expr::PatternTest(p, Box::new(x)), Type::Bool),
                    None => {
                        self.error(Diagnostic::error(
                            "fuda::unknown-name",
                            "`matches` takes a pattern name first",
                            self.loc(sc, a(0).span),
                            "not a pattern",
                        ));
                        return (Expr::Const(Value::Unit), Type::Error);
                    }
                }
            }
        };
        (Expr::Call(b, out_args, loc), ty)
    }

    /// An attribute named as an argument (`pairs(g, month)`).
    fn attr_arg(&mut self, sc: &Scope, e: &ast::Expr) -> Expr {
        if let ExprKind::Name(n) = &e.node {
            if let Some(a) = self.program.deck.attr_named(n) {
                return Expr::Const(Value::Int(a as i64));
            }
        }
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
                "expected an attribute name",
                self.loc(sc, e.span),
                "not an attribute",
            )
            .with_help(format!("the deck's attributes: {}", names.join(", "))),
        );
        Expr::Const(Value::Int(0))
    }

    fn binder(
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
                if let Some(s) = crate::suggest::closest(other, BINDERS.iter().copied()) {
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
                    format!("cannot range over {}", other.describe()),
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
        (Expr::Binder(kind, slot, Box::new(de), Box::new(be)), ty)
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
                        if let Some(s) =
                            crate::suggest::closest(&n.node, params.iter().map(|p| p.0.as_str()))
                        {
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

    fn score_call(
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
        let Some(bound) = self.bind_args(sc, &format!("score `{}`", f.node), &params, args, span)
        else {
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
        (Expr::Score(s, out, self.loc(sc, span)), Type::Score)
    }

    fn inline_def(
        &mut self,
        sc: &mut Scope,
        d: u16,
        f: &ast::Ident,
        args: &[ast::Arg],
        span: Span,
    ) -> (Expr, Type) {
        let (file, decl) = self.defs[d as usize].clone();
        if self.inlining.contains(&decl.name.node) || self.inlining.len() > 32 {
            self.error(
                Diagnostic::error(
                    "fuda::recursive-def",
                    format!("`{}` calls itself", decl.name.node),
                    self.loc(sc, span),
                    "recursive call",
                )
                .with_help("defs are expanded where they are used, so they cannot recurse"),
            );
            return (Expr::Const(Value::Unit), Type::Error);
        }
        let params: Vec<(String, Type, bool)> = decl
            .params
            .iter()
            .map(|p| (p.name.node.clone(), self.type_name(file, &p.ty), false))
            .collect();
        let Some(bound) = self.bind_args(sc, &format!("`{}`", f.node), &params, args, span) else {
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
        let saved_names = std::mem::take(&mut sc.names);
        let saved_marks = std::mem::take(&mut sc.marks);
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
        sc.names = saved_names;
        sc.marks = saved_marks;
        sc.groups = saved_groups;
        sc.score = saved_score;
        sc.file = saved_file;
        sc.stateful = saved_stateful;
        sc.context = saved_context;
        let mut out = body;
        for (slot, val) in slots.into_iter().zip(lets).rev() {
            out = Expr::LetIn(slot, Box::new(val), Box::new(out));
        }
        (out, ty)
    }

    /// Resolves a written type.
    pub fn type_name(&mut self, file: u16, t: &ast::Spanned<ast::TypeName>) -> Type {
        use ast::TypeName as T;
        match &t.node {
            T::Int => Type::Int,
            T::Bool => Type::Bool,
            T::Seat => Type::Seat,
            T::Card => Type::Card,
            T::Cards => Type::Cards,
            T::Named(n) => {
                if let Some((Global::Enum(e), _)) = self.globals.get(n) {
                    return Type::Sym(SymDomain::Enum(*e));
                }
                if let Some(a) = self.program.deck.attr_named(n) {
                    if matches!(
                        self.program.deck.attrs[a as usize].kind,
                        AttrKind::Symbols(_)
                    ) {
                        return Type::Sym(SymDomain::Attr(a));
                    }
                }
                let mut d = Diagnostic::error(
                    "fuda::unknown-type",
                    format!("unknown type `{n}`"),
                    Loc { file, span: t.span },
                    "not a type",
                );
                let mut names: Vec<String> = ["int", "bool", "seat", "card", "cards"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                names.extend(
                    self.globals
                        .iter()
                        .filter(|(_, (g, _))| matches!(g, Global::Enum(_)))
                        .map(|(k, _)| k.clone()),
                );
                if let Some(s) = crate::suggest::closest(n, names.iter().map(|s| s.as_str())) {
                    d = d.with_help(format!("did you mean `{s}`?"));
                } else {
                    d = d.with_help(format!("types: {}", names.join(", ")));
                }
                self.error(d);
                Type::Error
            }
        }
    }
}

/// Inserts the implicit conversions the engine relies on (a zone or a card read as a set).
pub fn coerce(x: Expr, have: &Type, want: &Type) -> Expr {
    match (have, want) {
        (Type::Card, Type::Cards) => Expr::Bin(
            Op2::Union,
            Box::new(Expr::Cards(CardSet::EMPTY)),
            Box::new(x),
        ),
        _ => x,
    }
}

fn comparable_text(a: &Type, b: &Type) -> bool {
    matches!(
        (a, b),
        (Type::Str, Type::Sym(_)) | (Type::Sym(_), Type::Str)
    )
}

fn unreachable_bool() -> (Expr, Type) {
    (Expr::Const(Value::Bool(false)), Type::Bool)
}
