//! Lowering expressions: resolving names to slots and tables, checking types, and
//! choosing typed operators, so the engine never looks a name up at run time.

use fuda_grammar::ast::{self, ExprKind};
use fuda_grammar::Span;

use super::names::{self};
use super::types::coerce;
use super::Compiler;
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Loc};
use crate::model::CardSet;
use crate::value::{Type, Value};

/// The most local slots one procedure, table or pattern may use.
pub const MAX_SLOTS: u16 = 60_000;
/// How deep expressions may nest once defs are expanded (bounds the compiler's and
/// the engine's recursion).
pub const MAX_EXPR_DEPTH: u32 = 300;
/// How many expression nodes (operators and values) def bodies may expand to in all,
/// counting each use of a def, and the check of each def's body where it is declared.
pub const MAX_EXPANDED: usize = 1_000_000;

/// Where an expression is being compiled: its locals and what it may see.
pub(crate) struct Scope {
    /// The file being compiled.
    pub file: u16,
    /// The local names in view.
    pub(super) locals: Locals,
    pub(super) next: u16,
    /// Highest slot count used (the frame size).
    pub max: u16,
    /// The type each slot was bound with, by slot (a slot is never reused): what the
    /// register machine (`vm/`) keeps each local as.
    pub slot_types: Vec<Type>,
    /// Pattern groups in view: name, first group index, how many (`*N`).
    pub groups: Vec<(String, u16, u16)>,
    /// Inside a score table: the `yaku`, `factor` and `base` slots.
    pub score: Option<(u16, u16, u16)>,
    /// Inside a table over a `pattern NAME = A | B`: the alternatives' names, which read
    /// as text (`shape == 七対子`).
    pub shapes: Vec<String>,
    /// Whether game state (variables, zones, the dealer) may be read.
    pub stateful: bool,
    /// While a statement's expression is compiled: the calls of procedures that return
    /// a value met in it, each standing for the local slot its value goes to. The
    /// statement runs them first, in evaluation order (`compile/stmt.rs`). `None` where
    /// an expression cannot call a procedure (guards, decisions' domains, defs, tables).
    pub calls: Option<Vec<PendingCall>>,
    /// Whether more local slots were asked for than [`MAX_SLOTS`].
    pub overflowed: bool,
    /// What this scope is, for messages ("a score table", "a def").
    pub context: &'static str,
    /// After a root error that hides names (an unknown pattern after `over`), unknown
    /// names are not reported again.
    pub quiet_unknown: bool,
}

/// A call of a procedure that returns a value, met in an expression: the slot that
/// stands for its value there, the procedure, its arguments and where it is written.
pub(crate) struct PendingCall {
    pub slot: u16,
    pub proc: u16,
    pub args: Vec<Expr>,
    pub loc: Loc,
}

impl Scope {
    /// A scope for a proc or test (sees game state).
    pub fn stateful(file: u16) -> Scope {
        Scope {
            file,
            locals: Locals::default(),
            next: 0,
            max: 0,
            slot_types: Vec::new(),
            groups: Vec::new(),
            score: None,
            shapes: Vec::new(),
            stateful: true,
            calls: None,
            context: "a procedure",
            quiet_unknown: false,
            overflowed: false,
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
        // Past the slot limit the compiler reports the program as too large; until
        // then slots saturate instead of wrapping.
        if self.next >= MAX_SLOTS {
            self.overflowed = true;
            return MAX_SLOTS;
        }
        let slot = self.next;
        self.next += 1;
        self.max = self.max.max(self.next);
        if self.slot_types.len() <= slot as usize {
            self.slot_types.resize(slot as usize + 1, Type::Error);
        }
        self.slot_types[slot as usize] = ty.clone();
        self.locals.push(name, slot, ty);
        slot
    }

    /// A hidden slot (loop counters).
    pub fn hidden(&mut self) -> u16 {
        self.bind("", Type::Error)
    }

    /// Opens a block: names bound after this go out of view at `close`.
    pub fn open(&mut self) {
        self.locals.marks.push(self.locals.names.len());
    }

    /// Closes a block. Slots are not reused, so values bound in loops stay put.
    pub fn close(&mut self) {
        if let Some(m) = self.locals.marks.pop() {
            self.locals.truncate(m);
        }
    }

    /// A local by name.
    pub fn local(&self, name: &str) -> Option<(u16, Type)> {
        let at = *self.locals.by_name.get(name)?.last()?;
        let (_, slot, ty) = &self.locals.names[at];
        Some((*slot, ty.clone()))
    }

    /// Local names in view (for "did you mean").
    pub fn local_names(&self) -> impl Iterator<Item = &str> {
        self.locals
            .names
            .iter()
            .map(|(n, ..)| n.as_str())
            .filter(|n| !n.is_empty())
    }
}

/// The local names in view, innermost last, with an index by name: a procedure may
/// bind thousands of names, and every name in it is looked up among them.
#[derive(Default)]
pub(crate) struct Locals {
    /// Name, slot and type, in the order bound.
    names: Vec<(String, u16, Type)>,
    /// Where each open block's names start in `names`.
    marks: Vec<usize>,
    /// The places in `names` of each name, latest last.
    by_name: std::collections::HashMap<String, Vec<usize>>,
}

impl Locals {
    fn push(&mut self, name: &str, slot: u16, ty: Type) {
        self.by_name
            .entry(name.to_string())
            .or_default()
            .push(self.names.len());
        self.names.push((name.to_string(), slot, ty));
    }

    /// Forgets the names bound from place `len` on.
    fn truncate(&mut self, len: usize) {
        for (name, ..) in self.names.drain(len.min(self.names.len())..) {
            if let Some(places) = self.by_name.get_mut(&name) {
                places.pop();
                if places.is_empty() {
                    self.by_name.remove(&name);
                }
            }
        }
    }

    /// How many names are bound.
    pub fn len(&self) -> usize {
        self.names.len()
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
        if let Type::Sym(d) = want {
            if self.unknown_symbol(sc, e, Some(d)) {
                return Expr::Const(Value::Unit);
            }
        }
        let (x, t) = self.expr(sc, e);
        self.expect_type_at(sc, e.span, Some(e), &t, want);
        coerce(x, &t, want)
    }

    /// Where a symbol is expected (a value of `domain`, or of any enum), an undeclared
    /// name is reported with the closest of those values first, so `outcome 流れx`
    /// suggests the value `流れ` over the variable `流れ数`. Returns whether it did.
    pub fn unknown_symbol(
        &mut self,
        sc: &Scope,
        e: &ast::Expr,
        domain: Option<&crate::value::SymDomain>,
    ) -> bool {
        let ExprKind::Name(n) = &e.node else {
            return false;
        };
        if !self.is_unknown_name(sc, e) {
            return false;
        }
        let preferred = self.symbols_of(domain);
        let expected = domain.map(|d| Type::Sym(d.clone()));
        self.unknown_name_among(sc, n, e.span, "name", &preferred, expected.as_ref());
        true
    }

    /// A value nothing declares where a value of type `want` is expected (a test's
    /// `with NAME = VALUE`): reported with the closest of that type's values first, and
    /// a help that names the type's own enum.
    pub fn unknown_value(&mut self, sc: &Scope, n: &str, span: Span, want: &Type) {
        let preferred = match want {
            Type::Sym(d) => self.symbols_of(Some(d)),
            _ => Vec::new(),
        };
        self.unknown_name_among(sc, n, span, "value", &preferred, Some(want));
    }

    /// The names of the values of `domain`, or of every enum's values, to suggest from
    /// (none once the check's budget for suggestions is spent).
    fn symbols_of(&mut self, domain: Option<&crate::value::SymDomain>) -> Vec<String> {
        if !self.charge_suggestion(self.sym_type.len()) {
            return Vec::new();
        }
        self.sym_type
            .iter()
            .filter(|(_, t)| match (domain, t) {
                (Some(d), Type::Sym(u)) => d == u,
                (None, Type::Sym(u)) => matches!(u, crate::value::SymDomain::Enum(_)),
                _ => false,
            })
            .map(|(s, _)| self.program.symbols[*s as usize].clone())
            .collect()
    }

    /// Whether `e` is a bare name that nothing declares (nor a local, group, symbol or
    /// constant): about to be reported as unknown.
    pub fn is_unknown_name(&self, sc: &Scope, e: &ast::Expr) -> bool {
        let ExprKind::Name(n) = &e.node else {
            return false;
        };
        !(sc.local(n).is_some()
            || sc.groups.iter().any(|g| g.0 == *n)
            || self.globals.contains_key(n)
            || self.sym_index.contains_key(n)
            || names::CONSTANTS.contains(&n.as_str())
            || matches!(n.as_str(), "dealer" | "deck" | "yaku" | "factor"))
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

    /// Lowers an expression, returning it with its type.
    pub fn expr(&mut self, sc: &mut Scope, e: &ast::Expr) -> (Expr, Type) {
        if self.depth >= MAX_EXPR_DEPTH {
            self.too_deep(sc, e.span);
            return (Expr::Const(Value::Unit), Type::Error);
        }
        // Every use of a def lowers its body again: past a total the program is refused,
        // as a def with a huge body used many times would otherwise multiply the work
        // and the compiled code (`MAX_INLINED` counts the uses, this their size).
        if !self.inlining.is_empty() {
            self.expanded += 1;
            if self.expanded > MAX_EXPANDED {
                if self.expanded == MAX_EXPANDED + 1 {
                    self.error(
                        Diagnostic::error(
                            "fuda::too-large",
                            format!("defs expand to more than {MAX_EXPANDED} operators and values in all"),
                            self.loc(sc, e.span),
                            "the limit is reached here",
                        )
                        .with_help("a large def used in many places is copied into each: compute the value once with `let` in a procedure, or split the def"),
                    );
                }
                return (Expr::Const(Value::Unit), Type::Error);
            }
        }
        let root = self.depth == 0;
        self.depth += 1;
        let out = self.expr_inner(sc, e);
        self.depth -= 1;
        // Expanding defs puts an argument where the body uses it, so the lowered form
        // can nest deeper than the levels counted on the way down: the whole is measured
        // once, at the top, since every walk over it (and its evaluation) recurses.
        if root && crate::ir::depth_exceeds(&out.0, MAX_EXPR_DEPTH) {
            self.too_deep(sc, e.span);
            return (Expr::Const(Value::Unit), Type::Error);
        }
        out
    }

    /// Reports (once in a check) an expression nested deeper than [`MAX_EXPR_DEPTH`].
    pub(super) fn too_deep(&mut self, sc: &Scope, span: Span) {
        if self.too_deep_reported {
            return;
        }
        self.too_deep_reported = true;
        self.error(
            Diagnostic::error(
                "fuda::too-deep",
                format!(
                    "this expression nests more than {MAX_EXPR_DEPTH} deep once defs are expanded"
                ),
                self.loc(sc, span),
                "too deep",
            )
            .with_help("split it with `let` in a procedure, or use fewer nested defs"),
        );
    }

    fn expr_inner(&mut self, sc: &mut Scope, e: &ast::Expr) -> (Expr, Type) {
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
            ExprKind::Method(x, m, args) => self.method(sc, x, m, args),
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
}
