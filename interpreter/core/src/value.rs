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
///
/// The variants that hold an `Arc` come last, together: dropping a value (a move
/// list emptied after every decision, a local overwritten) then tests its tag against
/// one bound instead of against each of them in turn. Nothing reads the order.
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
    /// A zone index.
    Zone(u16),
    /// A per-seat zone family base index.
    ZoneFamily(u16),
    /// An inclusive int range.
    Range(i64, i64),
    /// Nothing (an unset local).
    Unit,
    /// Text.
    Str(Arc<str>),
    /// A list.
    List(Arc<[Value]>),
    /// A score result.
    Score(Arc<ScoreResult>),
}

/// Makes `dst` a copy of `src` value by value, as [`Value::copy_from`] does.
pub fn copy_values(dst: &mut Vec<Value>, src: &[Value]) {
    dst.truncate(src.len());
    let kept = dst.len();
    for (d, s) in dst.iter_mut().zip(src) {
        d.copy_from(s);
    }
    dst.extend_from_slice(&src[kept..]);
}

impl Value {
    /// Makes this value a copy of `src`: `clone_from`, but a number or a card set over
    /// one of its own kind is copied in place, with no call, and a value that already
    /// shares its `Arc` with `src` is left alone. A player looking ahead resets one
    /// scratch game to the real one before every move it tries, value by value, and
    /// most values have kept their kind (and their `Arc`) since the last reset:
    /// cloning an `Arc` again would count it up and the old one down, two atomic
    /// operations each.
    #[inline]
    pub fn copy_from(&mut self, src: &Value) {
        match (&mut *self, src) {
            (Value::Int(a), Value::Int(b)) => *a = *b,
            (Value::Cards(a), Value::Cards(b)) => *a = *b,
            (Value::Seat(a), Value::Seat(b)) => *a = *b,
            (Value::Card(a), Value::Card(b)) => *a = *b,
            (Value::Bool(a), Value::Bool(b)) => *a = *b,
            (Value::Sym(a), Value::Sym(b)) => *a = *b,
            (Value::Unit, Value::Unit) => {}
            (Value::Str(a), Value::Str(b)) if Arc::ptr_eq(a, b) => {}
            (Value::List(a), Value::List(b)) if Arc::ptr_eq(a, b) => {}
            (Value::Score(a), Value::Score(b)) if Arc::ptr_eq(a, b) => {}
            (d, s) => *d = s.clone(),
        }
    }

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

/// Immutable shared text (yaku, bonus and group names): a table makes each name once,
/// and every result it builds shares it instead of copying it.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Text(Arc<str>);

impl Text {
    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Text {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text(s.into())
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text(s.into())
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

// Shown as the plain string it holds, as a `String` is.
impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&*self.0, f)
    }
}

impl serde::Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

/// A list in a score result: up to two items held in place (a usual result has one
/// yaku line and two groups), more in one shared allocation, so that building and
/// dropping a usual result allocates nothing for its lists. It reads as a slice.
#[derive(Clone)]
pub struct Short<T>(ShortRepr<T>);

/// The forms of a [`Short`] list.
#[derive(Clone)]
enum ShortRepr<T> {
    /// No item.
    Zero,
    /// One item.
    One(T),
    /// Two items.
    Two([T; 2]),
    /// More, shared.
    Many(Arc<[T]>),
}

impl<T> Short<T> {
    /// The empty list.
    pub const fn new() -> Self {
        Short(ShortRepr::Zero)
    }

    /// The items.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        match &self.0 {
            ShortRepr::Zero => &[],
            ShortRepr::One(a) => std::slice::from_ref(a),
            ShortRepr::Two(both) => both,
            ShortRepr::Many(l) => l,
        }
    }
}

impl<T> Default for Short<T> {
    fn default() -> Self {
        Short::new()
    }
}

impl<T> std::ops::Deref for Short<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T> FromIterator<T> for Short<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut it = items.into_iter();
        let Some(a) = it.next() else {
            return Short::new();
        };
        let Some(b) = it.next() else {
            return Short(ShortRepr::One(a));
        };
        let Some(c) = it.next() else {
            return Short(ShortRepr::Two([a, b]));
        };
        let all: Vec<T> = [a, b, c].into_iter().chain(it).collect();
        Short(ShortRepr::Many(all.into()))
    }
}

impl<T> From<Vec<T>> for Short<T> {
    fn from(v: Vec<T>) -> Self {
        if v.len() > 2 {
            Short(ShortRepr::Many(v.into()))
        } else {
            v.into_iter().collect()
        }
    }
}

impl<'a, T> IntoIterator for &'a Short<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

// Equal when the items are, however they are held.
impl<T: PartialEq> PartialEq for Short<T> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

// Shown as the list it holds, as an `Arc<[T]>` is.
impl<T: std::fmt::Debug> std::fmt::Debug for Short<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_slice(), f)
    }
}

impl<T: serde::Serialize> serde::Serialize for Short<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(self.as_slice(), s)
    }
}

/// One yaku (or bonus) in a score result.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct YakuLine {
    /// Its name.
    pub name: Text,
    /// Its value.
    pub value: i64,
}

/// The result of a score table. Its lists are [`Short`]: a usual result (a yaku or two,
/// two groups) holds them in place.
#[derive(Clone, Debug, PartialEq, Default, serde::Serialize)]
pub struct ScoreResult {
    /// Display name: a named upgrade, a template, or the yaku's own name.
    pub name: Text,
    /// What was scored, as lines that add up to `total`: the yaku (a multiplied one under
    /// its final name and value), then bonuses.
    pub yaku: Short<YakuLine>,
    /// The yaku rows that held, at their table values.
    pub base_yaku: Short<YakuLine>,
    /// The bonus rows (`plus` stages) that held, at their values: added after
    /// multiplying, so these are also the bonus lines of `yaku`. Empty when no yaku
    /// holds, as the stages skip bonuses then.
    pub bonuses: Short<YakuLine>,
    /// Sum of the yaku values before factors.
    pub base: i64,
    /// The product of the factors applied.
    pub factor: i64,
    /// Bonuses added after multiplying.
    pub bonus: i64,
    /// What is paid: base × factor + bonus.
    pub total: i64,
    /// The split that gave this result: each group's name and cards (over a pattern
    /// of alternatives, the groups of the shape that held).
    #[serde(serialize_with = "groups")]
    pub groups: Short<(Text, CardSet)>,
    /// Over a `pattern NAME = A | B | …`: the alternative whose split gave this result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<Text>,
}

/// Groups serialized as a list of (name, card indices) pairs.
fn groups<S: serde::Serializer>(g: &Short<(Text, CardSet)>, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(g.len()))?;
    for (name, cards) in g {
        seq.serialize_element(&(name, cards.iter().collect::<Vec<CardIx>>()))?;
    }
    seq.end()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values of every kind, some sharing an `Arc`.
    fn values(list: &Arc<[Value]>, text: &Arc<str>) -> Vec<Value> {
        vec![
            Value::Int(3),
            Value::Bool(true),
            Value::Seat(2),
            Value::Card(7),
            Value::Cards([1u16, 70, 200].into_iter().collect()),
            Value::Sym(4),
            Value::Zone(1),
            Value::ZoneFamily(2),
            Value::Range(1, 5),
            Value::Unit,
            Value::Str(text.clone()),
            Value::List(list.clone()),
        ]
    }

    #[test]
    fn copying_values_gives_the_source_whatever_was_there() {
        let list: Arc<[Value]> = Arc::from(vec![Value::Int(1)]);
        let text: Arc<str> = Arc::from("x");
        let src = values(&list, &text);
        // Over the same kinds, over other kinds, over a longer and a shorter list.
        let mut rotated = src.clone();
        rotated.rotate_left(5);
        for mut dst in [
            src.clone(),
            rotated,
            vec![Value::Unit; 20],
            vec![Value::Int(9)],
        ] {
            copy_values(&mut dst, &src);
            assert_eq!(dst, src);
        }
        // A value replaced lets go of its `Arc`.
        let other: Arc<[Value]> = Arc::from(vec![Value::Int(2)]);
        let mut changed = values(&other, &text);
        copy_values(&mut changed, &src);
        assert_eq!(changed, src);
        assert_eq!(Arc::strong_count(&other), 1);
    }
}
