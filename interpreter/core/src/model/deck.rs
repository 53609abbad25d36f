//! A compiled deck: every physical card as a small integer with attribute and tag tables.

use std::collections::{BTreeMap, BTreeSet};

use super::{CardIx, CardSet};

/// The values an attribute may take.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrKind {
    /// Integers (optionally within a range).
    Int(Option<(i64, i64)>),
    /// Symbols (interned ids).
    Symbols(Vec<u32>),
}

/// A card attribute.
#[derive(Clone, Debug)]
pub struct AttrDef {
    /// Name.
    pub name: String,
    /// Its values.
    pub kind: AttrKind,
    /// Value per card (ints as is, symbols as their interned id).
    pub values: Vec<i64>,
    /// The value a card that does not set it takes (`attribute NAME: … = VALUE`), kept
    /// for the cards a deck that extends this one adds.
    pub default: Option<i64>,
}

/// A compiled deck.
#[derive(Clone, Debug, Default)]
pub struct Deck {
    /// Deck name.
    pub name: String,
    /// ASCII id per card (copies share it).
    pub ids: Vec<String>,
    /// Display name per card.
    pub names: Vec<String>,
    /// Face index per card: copies of one tile share a face.
    pub faces: Vec<u16>,
    /// Attributes.
    pub attrs: Vec<AttrDef>,
    /// Tag names.
    pub tag_names: Vec<String>,
    /// Cards holding each tag.
    pub tags: Vec<CardSet>,
    /// Cards sharing each face, in order.
    pub face_cards: Vec<Vec<CardIx>>,
    /// Per attribute: the cards holding each of its values (built on first use).
    pub classes: std::sync::OnceLock<Vec<AttrClasses>>,
    /// Per card, its copies before it in the deck (built on first use).
    pub lower: std::sync::OnceLock<Vec<CardSet>>,
    /// Attributes, tags, ids and display names by name, kept by [`Deck::add_attr`],
    /// [`Deck::add_tag`] and [`Deck::add_face`]: the checker looks a name up for every
    /// use of it, so a search through the lists would cost their length each time.
    pub(crate) index: DeckIndex,
}

/// A deck's names, each with its place in the deck's lists.
#[derive(Clone, Debug, Default)]
pub(crate) struct DeckIndex {
    attrs: BTreeMap<String, u16>,
    tags: BTreeMap<String, u16>,
    /// Card id → face.
    faces: BTreeMap<String, u16>,
    /// Display name → the first card bearing it.
    display: BTreeMap<String, CardIx>,
    /// Per attribute: the symbols it may take.
    values: Vec<BTreeSet<u32>>,
}

/// One attribute's classes: its values in increasing order, and the cards holding each.
#[derive(Clone, Debug, Default)]
pub struct AttrClasses {
    /// The values cards hold, increasing.
    pub values: Vec<i64>,
    /// The cards holding each value, in the same order.
    pub sets: Vec<CardSet>,
}

impl Deck {
    /// Number of physical cards.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// True for a deck with no cards.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Whether some card has copies (a face of several cards).
    pub fn has_copies(&self) -> bool {
        self.face_cards.len() < self.len()
    }

    /// How many copies of the card with id `id` the deck holds (0 for no such card).
    pub fn copies_of(&self, id: &str) -> usize {
        self.face_named(id)
            .map_or(0, |f| self.face_cards[f as usize].len())
    }

    /// The copies of card `c` that come before it in the deck.
    pub fn lower_copies(&self, c: CardIx) -> CardSet {
        let lower = self.lower.get_or_init(|| {
            (0..self.len())
                .map(|c| {
                    let mut set = self.face_set(c as CardIx);
                    set = set.inter(CardSet::first_n(c));
                    set
                })
                .collect()
        });
        lower.get(c as usize).copied().unwrap_or(CardSet::EMPTY)
    }

    /// Card `c` and its copies (the cards of its face).
    pub fn face_set(&self, c: CardIx) -> CardSet {
        let mut set = CardSet::EMPTY;
        if let Some(f) = self.faces.get(c as usize) {
            for &k in &self.face_cards[*f as usize] {
                set.insert(k);
            }
        }
        set
    }

    /// Every card.
    pub fn all(&self) -> CardSet {
        CardSet::first_n(self.len())
    }

    /// The cards sharing each value of attribute `attr`, in increasing value order.
    pub fn classes(&self, attr: u16) -> &[CardSet] {
        self.attr_classes(attr).map_or(&[], |c| c.sets.as_slice())
    }

    /// Attribute `attr`'s values and classes, built for every attribute on first use.
    pub fn attr_classes(&self, attr: u16) -> Option<&AttrClasses> {
        let all = self.classes.get_or_init(|| {
            self.attrs
                .iter()
                .map(|a| {
                    let mut values: Vec<i64> = a.values.clone();
                    values.sort_unstable();
                    values.dedup();
                    let sets = values
                        .iter()
                        .map(|v| {
                            a.values
                                .iter()
                                .enumerate()
                                .filter(|(_, x)| *x == v)
                                .map(|(c, _)| c as CardIx)
                                .collect()
                        })
                        .collect();
                    AttrClasses { values, sets }
                })
                .collect()
        });
        all.get(attr as usize)
    }

    /// The cards whose attribute `attr` has value `v` (empty when none has).
    pub fn class_of(&self, attr: u16, v: i64) -> CardSet {
        // A search over the values themselves: a class's value is not read off its
        // cards (finding a set's first card is a scan of its words).
        self.attr_classes(attr)
            .and_then(|c| c.values.binary_search(&v).ok().map(|i| c.sets[i]))
            .unwrap_or(CardSet::EMPTY)
    }

    /// The attribute value of a card.
    #[inline]
    pub fn attr(&self, attr: u16, card: CardIx) -> i64 {
        self.attrs[attr as usize].values[card as usize]
    }

    /// The attribute index by name.
    pub fn attr_named(&self, name: &str) -> Option<u16> {
        self.index.attrs.get(name).copied()
    }

    /// The tag index by name.
    pub fn tag_named(&self, name: &str) -> Option<u16> {
        self.index.tags.get(name).copied()
    }

    /// The face index for an id.
    pub fn face_named(&self, id: &str) -> Option<u16> {
        self.index.faces.get(id).copied()
    }

    /// Whether symbol attribute `attr` may take the symbol `sym`.
    pub fn attr_has_value(&self, attr: u16, sym: u32) -> bool {
        self.index
            .values
            .get(attr as usize)
            .is_some_and(|v| v.contains(&sym))
    }

    /// Adds an attribute (indexes are the caller's to keep below [`u16::MAX`]); returns
    /// its index.
    pub fn add_attr(&mut self, def: AttrDef) -> u16 {
        let ix = self.attrs.len() as u16;
        let values = match &def.kind {
            AttrKind::Symbols(syms) => syms.iter().copied().collect(),
            AttrKind::Int(_) => BTreeSet::new(),
        };
        self.index.attrs.entry(def.name.clone()).or_insert(ix);
        self.index.values.push(values);
        self.attrs.push(def);
        ix
    }

    /// Adds a tag held by no card yet; returns its index.
    pub fn add_tag(&mut self, name: &str) -> u16 {
        let ix = self.tags.len() as u16;
        self.index.tags.entry(name.to_string()).or_insert(ix);
        self.tag_names.push(name.to_string());
        self.tags.push(CardSet::EMPTY);
        ix
    }

    /// Adds a face of `copies` cards with the given id and display name, each card
    /// taking `value(a)` for attribute `a`; returns the new cards. The caller keeps the
    /// deck within [`super::MAX_CARDS`].
    pub fn add_face(
        &mut self,
        id: &str,
        display: &str,
        copies: u16,
        value: impl Fn(usize) -> i64,
    ) -> Vec<CardIx> {
        // A derived deck starts as a copy of its base: what was worked out for the
        // base's cards is worked out again.
        self.lower = std::sync::OnceLock::new();
        let face = self.face_cards.len() as u16;
        let mut ixs = Vec::new();
        for _ in 0..copies {
            let ix = self.len() as CardIx;
            self.ids.push(id.to_string());
            self.names.push(display.to_string());
            self.faces.push(face);
            for (a, def) in self.attrs.iter_mut().enumerate() {
                def.values.push(value(a));
            }
            ixs.push(ix);
        }
        self.index.faces.entry(id.to_string()).or_insert(face);
        if let Some(&first) = ixs.first() {
            self.index
                .display
                .entry(display.to_string())
                .or_insert(first);
        }
        self.face_cards.push(ixs.clone());
        ixs
    }

    /// Resolves card ids (copies are taken in order: `1m 1m` is two different tiles),
    /// also accepting display names and compact mahjong notation (`123m`).
    /// Returns the unknown word on failure.
    pub fn parse_cards(&self, words: &[&str]) -> Result<Vec<CardIx>, CardParseError> {
        let mut used = CardSet::EMPTY;
        let mut out = Vec::new();
        for w in words {
            let faces = self.faces_for_word(w)?;
            for f in faces {
                let pick = self.face_cards[f as usize]
                    .iter()
                    .find(|c| !used.contains(**c))
                    .copied();
                match pick {
                    Some(c) => {
                        used.insert(c);
                        out.push(c);
                    }
                    None => {
                        let id = self.face_cards[f as usize]
                            .first()
                            .and_then(|c| self.ids.get(*c as usize))
                            .cloned()
                            .unwrap_or_else(|| (*w).to_string());
                        return Err(CardParseError::TooMany((*w).to_string(), id));
                    }
                }
            }
        }
        Ok(out)
    }

    /// Splits a string of ids on spaces and commas and resolves them.
    pub fn parse_card_list(&self, text: &str) -> Result<Vec<CardIx>, CardParseError> {
        let words: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        self.parse_cards(&words)
    }

    fn faces_for_word(&self, w: &str) -> Result<Vec<u16>, CardParseError> {
        if let Some(f) = self.face_named(w) {
            return Ok(vec![f]);
        }
        if let Some(&c) = self.index.display.get(w) {
            return Ok(vec![self.faces[c as usize]]);
        }
        // Compact notation: runs of digits each followed by a suit letter, e.g.
        // `123m456p11z` = 1m 2m 3m 4p 5p 6p 1z 1z.
        let bytes = w.as_bytes();
        if bytes.len() >= 2
            && bytes[0].is_ascii_digit()
            && bytes.iter().all(|b| b.is_ascii_alphanumeric())
        {
            let mut faces = Vec::new();
            let mut digits = Vec::new();
            for ch in w.chars() {
                if ch.is_ascii_digit() {
                    digits.push(ch);
                } else if digits.is_empty() {
                    return Err(CardParseError::Unknown(w.to_string()));
                } else {
                    for d in digits.drain(..) {
                        match self.face_named(&format!("{d}{ch}")) {
                            Some(f) => faces.push(f),
                            None => return Err(CardParseError::Unknown(w.to_string())),
                        }
                    }
                }
            }
            if digits.is_empty() && !faces.is_empty() {
                return Ok(faces);
            }
        }
        Err(CardParseError::Unknown(w.to_string()))
    }

    /// The ids of the cards a bare word in an expression most likely meant: a card's id
    /// or display name, or the part of an id after its month or number (`boar` for
    /// `7-boar`). Users write `c == boar` for `c == card(7-boar)`; this lets the
    /// diagnostic say so. At most `limit` ids, in deck order; empty for any other word.
    pub fn cards_like(&self, word: &str, limit: usize) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for cs in &self.face_cards {
            let Some(&c) = cs.first() else { continue };
            let id = self.ids[c as usize].as_str();
            let tail = id.split_once('-').map(|(_, t)| t);
            let hit = id == word
                || self.names[c as usize] == word
                || tail == Some(word)
                || tail.and_then(|t| t.split_once('-')).map(|(t, _)| t) == Some(word);
            if hit && out.len() < limit {
                out.push(id);
            }
        }
        out
    }

    /// Ids closest to an unknown word, for "did you mean".
    pub fn suggest(&self, word: &str) -> Option<String> {
        crate::suggest::closest(
            word,
            self.face_cards
                .iter()
                .map(|cs| self.ids[cs[0] as usize].as_str()),
        )
    }
}

/// Why a card list did not resolve.
#[derive(Clone, Debug, PartialEq)]
pub enum CardParseError {
    /// No card has this id or name.
    Unknown(String),
    /// More copies asked for than the deck holds: the word as written, and the id of
    /// the card that ran out (they differ in compact notation: `11111m` runs out of
    /// `1m`).
    TooMany(String, String),
}
