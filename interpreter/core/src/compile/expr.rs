//! Lowering expressions: resolving names to slots and tables, checking types, and
//! choosing typed operators, so the engine never looks a name up at run time.

use fuda_grammar::ast::{self, BinOp, ExprKind};
use fuda_grammar::Span;

use super::names::{self, Global, BINDERS, BUILTINS};
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
    /// After a root error that hides names (an unknown pattern after `over`), unknown
    /// names are not reported again.
    pub quiet_unknown: bool,
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
            quiet_unknown: false,
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
        if *want == Type::Zone && self.unknown_zone(sc, e) {
            return Expr::Const(Value::Unit);
        }
        let (x, t) = self.expr(sc, e);
        self.expect_type_at(sc, e.span, Some(e), &t, want);
        coerce(x, &t, want)
    }

    /// Where a zone is expected, an undeclared name is reported as an unknown zone, with
    /// the closest zone's name. Returns whether it did.
    pub fn unknown_zone(&mut self, sc: &Scope, e: &ast::Expr) -> bool {
        let ExprKind::Name(n) = &e.node else {
            return false;
        };
        let known = sc.local(n).is_some()
            || sc.groups.iter().any(|g| g.0 == *n)
            || self.globals.contains_key(n)
            || self.sym_index.contains_key(n)
            || names::CONSTANTS.contains(&n.as_str());
        if known {
            return false;
        }
        self.unknown_name(sc, n, e.span, "zone");
        true
    }

    /// Reports a type mismatch.
    pub fn expect_type(&mut self, sc: &Scope, span: Span, got: &Type, want: &Type) -> bool {
        self.expect_type_at(sc, span, None, got, want)
    }

    /// Whether `got` may stand where `want` is expected. Stricter than [`Type::fits`]:
    /// the values of two different enums (or attributes) do not mix.
    pub fn type_fits(&self, got: &Type, want: &Type) -> bool {
        match (got, want) {
            (Type::Sym(a), Type::Sym(b)) => sym_domains_mix(a, b),
            (Type::List(a), Type::List(b)) => self.type_fits(a, b),
            _ => got.fits(want),
        }
    }

    /// A type for messages, naming enums and attributes.
    pub fn describe(&self, t: &Type) -> String {
        match t {
            Type::Sym(SymDomain::Enum(e)) => self
                .program
                .enums
                .get(*e as usize)
                .map(|d| format!("`{}`", d.name))
                .unwrap_or_else(|| t.describe()),
            Type::Sym(SymDomain::Attr(a)) => self
                .program
                .deck
                .attrs
                .get(*a as usize)
                .map(|d| format!("a `{}` value", d.name))
                .unwrap_or_else(|| t.describe()),
            Type::Sym(SymDomain::Yaku) => "a yaku name".into(),
            // The types a ruleset can write keep their names (int, bool, seat, card,
            // cards); the others read as English.
            Type::List(x) => match **x {
                Type::Seat => "a list of seats".into(),
                Type::Int => "a list of ints".into(),
                Type::Cards => "a list of card sets".into(),
                _ => format!("a list of {}", self.describe(x)),
            },
            Type::Score => "a score result".into(),
            Type::Zone => "a zone".into(),
            Type::ZoneFamily => "a per-seat zone".into(),
            Type::Range => "a range".into(),
            other => other.describe(),
        }
    }

    /// The values of a symbol type, for help lines: `上がり | 当たり`.
    fn sym_values(&self, d: &SymDomain) -> Option<String> {
        let syms: Vec<u32> = match d {
            SymDomain::Enum(e) => self
                .program
                .enums
                .get(*e as usize)?
                .values
                .iter()
                .map(|v| v.0)
                .collect(),
            SymDomain::Attr(a) => match &self.program.deck.attrs.get(*a as usize)?.kind {
                AttrKind::Symbols(s) => s.clone(),
                AttrKind::Int(_) => return None,
            },
            SymDomain::Yaku => return None,
        };
        let names: Vec<&str> = syms
            .iter()
            .map(|s| self.program.symbols[*s as usize].as_str())
            .collect();
        Some(names.join(" | "))
    }

    /// Reports a type mismatch; `e`, when given, is the expression, for a better help.
    pub fn expect_type_at(
        &mut self,
        sc: &Scope,
        span: Span,
        e: Option<&ast::Expr>,
        got: &Type,
        want: &Type,
    ) -> bool {
        if self.type_fits(got, want) {
            return true;
        }
        let (g, w) = (self.describe(got), self.describe(want));
        let mut d = Diagnostic::error(
            "fuda::type-mismatch",
            format!("expected {w}, found {g}"),
            self.loc(sc, span),
            format!("this is {g}"),
        );
        let name = match e.map(|e| &e.node) {
            Some(ExprKind::Name(n)) => Some(n.as_str()),
            _ => None,
        };
        let literal_int = matches!(e.map(|e| &e.node), Some(ExprKind::Int(_)));
        let help = match (got, want) {
            (Type::ZoneFamily, _) => Some(match name {
                Some(n) => format!("`{n}` is one zone per seat: say whose, e.g. `{n}[dealer]`"),
                None => "a per-seat zone needs a seat: write `zone[seat]`".to_string(),
            }),
            (Type::Int, Type::Bool) if literal_int => Some("write `true` or `false`".into()),
            (Type::Int, Type::Bool) => Some("compare it: e.g. `… > 0`".into()),
            (Type::Score, Type::Int) => {
                Some("read a number from the result, e.g. `….total`".into())
            }
            (Type::Zone, Type::Card) => Some("`top(zone)` is the zone's top card".into()),
            (Type::Seat | Type::Int, Type::List(x)) if **x == Type::Seat => {
                Some("give a list of seats, e.g. `seats()` or `others(dealer)`".into())
            }
            (Type::Cards | Type::Card, Type::Zone) => {
                Some("this needs a zone (`zone NAME …`), not cards".into())
            }
            (Type::Cards | Type::Zone, Type::Int) => {
                Some("`count(…)` is the number of cards".into())
            }
            (_, Type::Sym(dom)) => self.sym_values(dom).map(|v| format!("{w} is one of {v}")),
            _ => None,
        };
        if let Some(h) = help {
            d = d.with_help(h);
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
                        // Report every unknown id, not only the first.
                        let mut unknown = 0;
                        for id in ids {
                            if let Err(e1 @ crate::model::CardParseError::Unknown(_)) =
                                self.program.deck.parse_cards(&[id.node.as_str()])
                            {
                                unknown += 1;
                                self.card_error(sc, e1, vec![(id.node.as_str(), id.span)], id.span);
                            }
                        }
                        if unknown == 0 {
                            self.card_error(
                                sc,
                                err,
                                ids.iter().map(|i| (i.node.as_str(), i.span)).collect(),
                                e.span,
                            );
                        }
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
                    } else if !self.type_fits(&t, &elem) {
                        let (a, b) = (self.describe(&elem), self.describe(&t));
                        self.error(
                            Diagnostic::error(
                                "fuda::type-mismatch",
                                format!(
                                    "a list holds one type: its first item is {a}, this one {b}"
                                ),
                                self.loc(sc, it.span),
                                format!("this is {b}"),
                            )
                            .with_label(self.loc(sc, items[0].span), format!("this is {a}")),
                        );
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
                let (a2, ta) = self.expr(sc, a);
                let (b2, tb) = self.expr(sc, b);
                if !self.type_fits(&tb, &ta) {
                    let (x, y) = (self.describe(&ta), self.describe(&tb));
                    self.error(
                        Diagnostic::error(
                            "fuda::type-mismatch",
                            format!("the two branches of `if … then … else` differ: {x} and {y}"),
                            self.loc(sc, b.span),
                            format!("this is {y}"),
                        )
                        .with_label(self.loc(sc, a.span), format!("this is {x}")),
                    );
                }
                let a = a2;
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
                if self.program.deck.is_empty() {
                    // No deck is reported once, on its own.
                    return;
                }
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
                        format!("`{w}` is named more times than the deck has copies of it"),
                        self.loc(sc, span),
                        "one too many",
                    )
                    .with_help("a set holds each physical card at most once"),
                );
            }
        }
    }

    fn state_only(&mut self, sc: &Scope, what: &str, name: &str, span: Span) {
        if !sc.stateful {
            let message = match what {
                "the dealer" => format!("{} cannot read `dealer`", sc.context),
                "the seats with" => {
                    format!("{} cannot call `{name}`: it reads the seats", sc.context)
                }
                _ => format!("{} cannot read {what} `{name}`", sc.context),
            };
            let d = Diagnostic::error(
                "fuda::state-in-pure",
                message,
                self.loc(sc, span),
                "game state",
            )
            .with_help(pure_help(sc.context));
            self.error(d);
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
                            .with_help(format!("write e.g. `{n}[dealer]` or `{n}[s]`")),
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
                            Global::Enum(e) => match self.sym_values(&SymDomain::Enum(e)) {
                                Some(v) => format!("use one of its values: {v}"),
                                None => "use one of its values instead".into(),
                            },
                            _ => "name its cards with `cards(…)`, or read them from a zone".into(),
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
    /// `what` says what was expected: "name" (any value), "variable", "procedure",
    /// "function", "pattern", "parameter" or "value" (an enum value); the "did you
    /// mean" looks among names of that kind only.
    pub fn unknown_name(&mut self, sc: &Scope, n: &str, span: Span, what: &str) {
        if sc.quiet_unknown || self.duplicated.contains(n) {
            return;
        }
        // Without a deck, every attribute value (`光`, `短`) is unknown: the missing deck
        // is reported instead.
        if self.no_deck && matches!(what, "name" | "value") {
            return;
        }
        let loc = self.loc(sc, span);
        if let Some((g, _)) = self.globals.get(n) {
            // Declared, but as something else.
            let d = Diagnostic::error(
                "fuda::unknown-name",
                format!("`{n}` is {}, not a {what}", g.describe()),
                loc,
                format!("not a {what}"),
            );
            self.error(d);
            return;
        }
        if let Some((kind, at)) = self.all_decls.get(n).cloned() {
            // Declared, but not yet when this was compiled: a variable in a parameter's
            // default, a parameter used above its declaration, a def in a variable's
            // initial value.
            let kind_word = kind.trim_start_matches("an ").trim_start_matches("a ");
            let d = if matches!(kind, "a variable" | "a zone") && !sc.stateful {
                Diagnostic::error(
                    "fuda::state-in-pure",
                    format!("{} cannot read {kind_word} `{n}`", sc.context),
                    loc,
                    "game state",
                )
                .with_help(pure_help(sc.context))
            } else if decl_phase(kind) > context_phase(sc.context) {
                Diagnostic::error(
                    "fuda::declared-later",
                    format!("{} cannot use {kind_word} `{n}`", sc.context),
                    loc,
                    "not available here",
                )
                .with_label(at, "declared here")
                .with_help(format!(
                    "{} is computed before any {kind_word} exists: {}",
                    sc.context,
                    available_in(sc.context)
                ))
            } else {
                Diagnostic::error(
                    "fuda::declared-later",
                    format!("{kind_word} `{n}` is used before its declaration"),
                    loc,
                    "used here",
                )
                .with_label(at, "declared here")
                .with_help(format!("move the declaration of `{n}` above this line"))
            };
            self.error(d);
            return;
        }
        let mut candidates: Vec<String> = Vec::new();
        let globals = |f: &dyn Fn(&Global) -> bool| -> Vec<String> {
            self.globals
                .iter()
                .filter(|(_, (g, _))| f(g))
                .map(|(k, _)| k.clone())
                .collect()
        };
        match what {
            "variable" => {
                candidates.extend(sc.local_names().map(String::from));
                candidates.extend(globals(&|g| matches!(g, Global::Var(_))));
            }
            "procedure" => candidates.extend(globals(&|g| matches!(g, Global::Proc(_)))),
            "pattern" => candidates.extend(globals(&|g| matches!(g, Global::Pattern(_)))),
            "zone" => candidates.extend(globals(&|g| matches!(g, Global::Zone(_)))),
            "parameter" => candidates.extend(globals(&|g| matches!(g, Global::Param(_)))),
            "value" => candidates.extend(self.sym_index.keys().cloned()),
            "function" => {
                candidates.extend(globals(&|g| {
                    matches!(g, Global::Def(_) | Global::Score(_) | Global::Pattern(_))
                }));
                candidates.extend(BUILTINS.iter().map(|b| b.0.to_string()));
                candidates.extend(BINDERS.iter().map(|b| b.to_string()));
            }
            _ => {
                candidates.extend(sc.local_names().map(String::from));
                candidates.extend(sc.groups.iter().map(|g| g.0.clone()));
                candidates.extend(globals(&|g| {
                    matches!(
                        g,
                        Global::Param(_) | Global::Var(_) | Global::Zone(_) | Global::CardSet(_)
                    )
                }));
                candidates.extend(self.sym_index.keys().cloned());
                candidates.extend(["dealer".to_string()]);
            }
        }
        let mut d = Diagnostic::error(
            "fuda::unknown-name",
            format!("unknown {what} `{n}`"),
            loc,
            "not declared",
        );
        if let Some(s) = crate::suggest::closest(n, candidates.iter().map(|s| s.as_str())) {
            d = d.with_help(format!("did you mean `{s}`?"));
        } else {
            d = d.with_help(match what {
                "procedure" => "declare it: `proc NAME { … }`",
                "function" => "declare it: `def NAME(x: int) = …`, or call a builtin",
                "pattern" => "declare it: `pattern NAME { group … }`",
                "zone" => "declare it: `zone NAME shared stack hidden`",
                "parameter" => "declare it: `param NAME: int = 0`",
                "value" => "declare it in an enum: `enum NAME: A | B`",
                _ => "declare it (`var`, `param`, `zone`, `let`…) before use",
            });
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
                    if !(self.type_fits(&ta, &tb)
                        || self.type_fits(&tb, &ta)
                        || comparable_text(&ta, &tb))
                    {
                        let (a, b) = (self.describe(&ta), self.describe(&tb));
                        self.error(Diagnostic::error(
                            "fuda::type-mismatch",
                            format!("cannot compare {a} with {b}"),
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
                            .with_help(
                                match crate::suggest::closest(
                                    &f.node,
                                    ["total", "name", "factor", "base", "count"],
                                ) {
                                    Some(s) => format!("did you mean `{s}`?"),
                                    None => "fields: total, name, factor, base, count".into(),
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
                    format!("{} has no fields", self.describe(&other)),
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
                    format!("{} cannot be indexed", self.describe(&other)),
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
                        match &a(0).node {
                            ExprKind::Name(n) => self.unknown_name(sc, n, a(0).span, "pattern"),
                            _ => self.error(Diagnostic::error(
                                "fuda::unknown-name",
                                "`matches` takes a pattern's name first",
                                self.loc(sc, a(0).span),
                                "not a pattern name",
                            )),
                        }
                        return (Expr::Const(Value::Unit), Type::Error);
                    }
                }
            }
        };
        (Expr::Call(b, out_args, loc), ty)
    }

    /// Reports a name that should be one of the deck's tags.
    fn tag_error(&mut self, sc: &Scope, e: &ast::Expr) {
        let tags = &self.program.deck.tag_names;
        let mut d = match &e.node {
            ExprKind::Name(n) => {
                let mut d = Diagnostic::error(
                    "fuda::unknown-tag",
                    format!("the deck has no tag `{n}`"),
                    self.loc(sc, e.span),
                    "unknown tag",
                );
                if let Some(s) = crate::suggest::closest(n, tags.iter().map(|s| s.as_str())) {
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
        let (message, suggestion) = match &e.node {
            ExprKind::Name(n) => (
                format!("cards have no attribute `{n}`"),
                crate::suggest::closest(n, names.iter().map(|s| s.as_str())),
            ),
            _ => ("expected an attribute's name".to_string(), None),
        };
        self.error(
            Diagnostic::error(
                "fuda::unknown-attribute",
                message,
                self.loc(sc, e.span),
                "not an attribute",
            )
            .with_help(match suggestion {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!("the deck's attributes: {}", names.join(", ")),
            }),
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

    /// Reports a parameter name used twice in one list.
    pub fn check_param_names(&mut self, file: u16, params: &[ast::Param]) {
        for (i, p) in params.iter().enumerate() {
            if let Some(first) = params[..i].iter().find(|q| q.name.node == p.name.node) {
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
                    .with_label(
                        Loc {
                            file,
                            span: first.name.span,
                        },
                        "first declared here",
                    )
                    .with_help("give each parameter its own name"),
                );
            }
        }
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
                let alias = match n.as_str() {
                    "integer" | "number" | "i64" | "Int" => Some("int"),
                    "boolean" | "Bool" => Some("bool"),
                    "player" | "Seat" => Some("seat"),
                    "Card" => Some("card"),
                    "Cards" | "hand" | "set" => Some("cards"),
                    _ => None,
                };
                if let Some(s) = alias
                    .map(String::from)
                    .or_else(|| crate::suggest::closest(n, names.iter().map(|s| s.as_str())))
                {
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

/// Whether values of two symbol domains may meet: yaku names mix with anything (a
/// yaku may share its name with an enum value); enums and attributes only with
/// themselves.
fn sym_domains_mix(a: &SymDomain, b: &SymDomain) -> bool {
    a == b || *a == SymDomain::Yaku || *b == SymDomain::Yaku
}

/// When a kind of declaration is read: enums, parameters, seats, zones, variables and
/// card sets, then everything callable.
fn decl_phase(kind: &str) -> u8 {
    match kind {
        "a deck" => 0,
        "an enum" => 1,
        "a parameter" => 2,
        "a zone" => 4,
        "a variable" | "a card set" => 5,
        _ => 6,
    }
}

/// When an expression of a declaration is compiled, on the scale of [`decl_phase`].
fn context_phase(context: &str) -> u8 {
    match context {
        "a parameter's default" => 2,
        "the seat count" => 3,
        "a variable's initial value" | "a named card set" => 5,
        _ => 6,
    }
}

/// What an early declaration's expression may use.
fn available_in(context: &str) -> &'static str {
    match context {
        "a parameter's default" => "use constants and the parameters declared above it",
        "the seat count" => "use a number or a parameter",
        _ => "use constants, parameters and the card sets declared above it",
    }
}

/// What a scope without game state may use instead.
fn pure_help(context: &str) -> &'static str {
    match context {
        "a def" | "a pattern" | "a score table" | "a default value" => {
            "patterns, score tables and defs see only their parameters: pass the value in as an argument"
        }
        _ => "this is fixed before the game starts: use constants and parameters only",
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
