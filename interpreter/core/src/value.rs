//! Run-time values and the static types the compiler checks them against.

use std::sync::Arc;

use crate::model::{CardIx, CardSet};

/// A static type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Type {
    /// Integer.
    Int,
    /// Boolean.
    Bool,
    /// A seat.
    Seat,
    /// One card.
    Card,
    /// A set of cards.
    Cards,
    /// A value of enum `n` (index into `Program::enums`), or of a symbol attribute.
    Sym(SymDomain),
    /// Text.
    Str,
    /// A list.
    List(Box<Type>),
    /// A shared zone or a seat's zone.
    Zone,
    /// A per-seat zone family.
    ZoneFamily,
    /// A score result.
    Score,
    /// An int range (binder domains only).
    Range,
    /// Unknown after an error: accepted everywhere to avoid cascades.
    Error,
}

/// Which symbols a symbol-typed value ranges over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SymDomain {
    /// An enum by index.
    Enum(u16),
    /// A card attribute's symbols by attribute index.
    Attr(u16),
    /// Yaku names.
    Yaku,
}

impl Type {
    /// The name shown in diagnostics.
    pub fn describe(&self) -> String {
        match self {
            Type::Int => "int".into(),
            Type::Bool => "bool".into(),
            Type::Seat => "seat".into(),
            Type::Card => "card".into(),
            Type::Cards => "cards".into(),
            Type::Sym(_) => "symbol".into(),
            Type::Str => "text".into(),
            Type::List(t) => format!("list of {}", t.describe()),
            Type::Zone => "zone".into(),
            Type::ZoneFamily => "per-seat zone (needs [seat])".into(),
            Type::Score => "score result".into(),
            Type::Range => "range".into(),
            Type::Error => "?".into(),
        }
    }

    /// Whether a value of type `self` may be used where `want` is expected.
    pub fn fits(&self, want: &Type) -> bool {
        if self == want || *self == Type::Error || *want == Type::Error {
            return true;
        }
        match (self, want) {
            (Type::Zone, Type::Cards) => true,
            (Type::ZoneFamily, Type::Cards) => true,
            (Type::Card, Type::Cards) => true,
            (Type::Int, Type::Seat) => true,
            (Type::Sym(_), Type::Sym(_)) => true,
            (Type::List(a), Type::List(b)) => a.fits(b),
            _ => false,
        }
    }
}

/// A run-time value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Integer.
    Int(i64),
    /// Boolean.
    Bool(bool),
    /// A seat index.
    Seat(u8),
    /// A card index.
    Card(CardIx),
    /// A card set.
    Cards(CardSet),
    /// An interned symbol.
    Sym(u32),
    /// Text.
    Str(Arc<str>),
    /// A list.
    List(Arc<[Value]>),
    /// A zone index.
    Zone(u16),
    /// A per-seat zone family base index.
    ZoneFamily(u16),
    /// A score result.
    Score(Arc<ScoreResult>),
    /// An inclusive int range.
    Range(i64, i64),
    /// Nothing (an unset local).
    Unit,
}

impl Value {
    /// The integer, or 0.
    #[inline]
    pub fn int(&self) -> i64 {
        match self {
            Value::Int(i) => *i,
            Value::Seat(s) => *s as i64,
            Value::Bool(b) => *b as i64,
            _ => 0,
        }
    }

    /// The boolean, or false.
    #[inline]
    pub fn truthy(&self) -> bool {
        matches!(self, Value::Bool(true))
    }
}

/// One yaku (or bonus) in a score result.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct YakuLine {
    /// Its name.
    pub name: String,
    /// Its value.
    pub value: i64,
}

/// The result of a score table.
#[derive(Clone, Debug, PartialEq, Default, serde::Serialize)]
pub struct ScoreResult {
    /// Display name: a named upgrade, a template, or the yaku's own name.
    pub name: String,
    /// What was scored, as lines that add up to `total`: the yaku (a multiplied one under
    /// its final name and value), then bonuses.
    pub yaku: Vec<YakuLine>,
    /// The yaku rows that held, at their table values.
    pub base_yaku: Vec<YakuLine>,
    /// Sum of the yaku values before factors.
    pub base: i64,
    /// The product of the factors applied.
    pub factor: i64,
    /// Bonuses added after multiplying.
    pub bonus: i64,
    /// What is paid: base × factor + bonus.
    pub total: i64,
    /// The split that gave this result: group name and its card indices.
    pub groups: Vec<(String, Vec<CardIx>)>,
}
