//! Static types in the checker: fitting, describing and resolving written types, and
//! the implicit conversions the engine relies on.

use fuda_grammar::ast::{self, ExprKind};
use fuda_grammar::Span;

use super::expr::Scope;
use super::names::Global;
use super::Compiler;
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Loc, Op2};
use crate::model::{AttrKind, CardSet};
use crate::value::{SymDomain, Type};

impl Compiler {
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
    pub(crate) fn sym_values(&self, d: &SymDomain) -> Option<String> {
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

    /// Resolves a written type.
    pub fn type_name(&mut self, file: u16, t: &ast::Spanned<ast::TypeName>) -> Type {
        use ast::TypeName as T;
        match &t.node {
            T::Int => Type::Int,
            T::Bool => Type::Bool,
            T::Seat => Type::Seat,
            T::Card => Type::Card,
            T::Cards => Type::Cards,
            T::List(of) => {
                let of = ast::Spanned::new((**of).clone(), t.span);
                Type::List(Box::new(self.type_name(file, &of)))
            }
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
                if let Some(s) = alias.map(String::from).or_else(|| {
                    super::closest_within(
                        &mut self.suggest_budget,
                        n,
                        names.iter().map(|s| s.as_str()),
                    )
                }) {
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
pub(super) fn sym_domains_mix(a: &SymDomain, b: &SymDomain) -> bool {
    a == b || *a == SymDomain::Yaku || *b == SymDomain::Yaku
}

pub(super) fn comparable_text(a: &Type, b: &Type) -> bool {
    matches!(
        (a, b),
        (Type::Str, Type::Sym(_)) | (Type::Sym(_), Type::Str)
    )
}
