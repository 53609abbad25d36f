//! Building the deck: attributes, tags, cards with copies, and derived decks that
//! add attributes or cards and edit inherited ones. The last deck declared is played.

use std::collections::BTreeMap;

use fuda_grammar::ast::{self, AttrType, CardField, Item, Literal};

use super::limits::{MAX_ATTRIBUTES, MAX_ATTRIBUTE_VALUES, MAX_TAGS};
use super::{Compiler, Global};
use crate::diagnostic::Diagnostic;
use crate::ir::Loc;
use crate::model::{AttrDef, AttrKind, Deck, MAX_CARDS};
use crate::value::{SymDomain, Type};

pub(super) fn compile_decks(c: &mut Compiler, items: &[(u16, Item)]) {
    let mut decks: BTreeMap<String, Deck> = BTreeMap::new();
    let mut last: Option<(Deck, Loc)> = None;
    let mut d_failed = false;
    for (file, item) in items {
        let Item::Deck(d) = item else { continue };
        let loc = Loc {
            file: *file,
            span: d.name.span,
        };
        if let Some(b) = d.base.as_ref().filter(|b| b.node == d.name.node) {
            extends_itself(c, *file, d, b.span, &mut decks, &mut last);
            d_failed = true;
            continue;
        }
        if !c.declare(&d.name, *file, Global::Deck) {
            d_failed = true;
            continue;
        }
        let mut deck = match &d.base {
            None => Deck {
                name: d.name.node.clone(),
                ..Deck::default()
            },
            Some(b) => match decks.get(&b.node) {
                Some(base) => Deck {
                    name: d.name.node.clone(),
                    ..base.clone()
                },
                None => {
                    let mut diag = Diagnostic::error(
                        "fuda::unknown-deck",
                        format!("no deck named `{}` to extend", b.node),
                        Loc {
                            file: *file,
                            span: b.span,
                        },
                        "unknown deck",
                    );
                    let std_name = format!("std/{}", b.node);
                    if crate::loader::STDLIB.iter().any(|(n, _)| *n == std_name) {
                        diag = diag.with_help(format!(
                            "`{}` is in the stdlib: add `import \"{std_name}\"` above",
                            b.node
                        ));
                    } else if let Some(s) =
                        crate::suggest::closest(&b.node, decks.keys().map(|k| k.as_str()))
                    {
                        diag = diag.with_help(format!("did you mean `{s}`?"));
                    } else {
                        diag =
                            diag.with_help("import the deck first, e.g. `import \"std/hanafuda\"`");
                    }
                    c.error(diag);
                    d_failed = true;
                    continue;
                }
            },
        };
        build(c, *file, d, &mut deck);
        decks.insert(d.name.node.clone(), deck.clone());
        last = Some((deck, loc));
    }
    match last {
        Some((deck, loc)) if deck.is_empty() => {
            c.error(
                Diagnostic::error(
                    "fuda::no-deck",
                    format!("deck `{}` has no cards", deck.name),
                    loc,
                    "no cards",
                )
                .with_help("add cards: `card ID \"name\" attr=value …`"),
            );
            c.program.deck = deck;
        }
        Some((deck, _)) => c.program.deck = deck,
        // A deck that failed to build has been reported already.
        None if d_failed => {}
        None => c.error(
            Diagnostic::error(
                "fuda::no-deck",
                "the ruleset declares or imports no deck",
                c.anchor,
                "no cards to play with",
            )
            .with_help("add `import \"std/hanafuda\"` (or std/kabufuda, std/mahjong, std/mahjong108), or declare a `deck`"),
        ),
    }
}

/// `deck nara extends nara { … }`: the natural way to re-value one card of a base's
/// deck, but a deck is built from one already built, so it needs a name of its own.
/// Reported once; where a deck of that name exists (the base's, which the loader kept),
/// the edits are still applied to a copy of it, so the cards they name and the rest of
/// the ruleset are checked as if the deck had been renamed, with no follow-on errors.
fn extends_itself(
    c: &mut Compiler,
    file: u16,
    d: &ast::DeckDecl,
    base_span: fuda_grammar::Span,
    decks: &mut BTreeMap<String, Deck>,
    last: &mut Option<(Deck, Loc)>,
) {
    let n = &d.name.node;
    let loc = Loc {
        file,
        span: base_span,
    };
    let mut diag = Diagnostic::error(
        "fuda::deck-extends-itself",
        format!("a deck cannot extend itself: `deck {n} extends {n}`"),
        loc,
        "the deck it declares",
    )
    .with_help(format!(
        "give the new deck a name of its own, e.g. `deck 我が家 extends {n} {{ … }}`: the last deck declared is the one played"
    ));
    if let Some((_, at)) = c.globals.get(n).filter(|(g, _)| matches!(g, Global::Deck)) {
        diag = diag.with_label(*at, format!("the base's deck `{n}`"));
    }
    c.error(diag);
    if let Some(base) = decks.get(n) {
        let mut deck = base.clone();
        build(c, file, d, &mut deck);
        decks.insert(n.clone(), deck.clone());
        *last = Some((
            deck,
            Loc {
                file,
                span: d.name.span,
            },
        ));
    }
}

fn build(c: &mut Compiler, file: u16, d: &ast::DeckDecl, deck: &mut Deck) {
    let at = |span| Loc { file, span };
    // Attributes first, so cards can be checked against them.
    let base_attrs = deck.attrs.len();
    // A base deck's defaults hold for the cards this deck adds too.
    let mut defaults: Vec<Option<i64>> = deck.attrs.iter().map(|a| a.default).collect();
    // Each name's first declaration in this deck, so a repeat is found without a scan.
    let mut declared: BTreeMap<&str, fuda_grammar::Span> = BTreeMap::new();
    for a in &d.attributes {
        let first = declared.get(a.name.node.as_str()).copied();
        if first.is_some() || deck.attr_named(&a.name.node).is_some() {
            let mut diag = Diagnostic::error(
                "fuda::duplicate-name",
                format!("attribute `{}` is declared twice", a.name.node),
                at(a.name.span),
                "again here",
            );
            diag = match first {
                Some(first) => diag
                    .with_label(at(first), "first declared here")
                    .with_help("remove one of them"),
                None => diag.with_help(format!(
                    "the base deck has `{}` already; set it on cards with `edit ID {}=…`",
                    a.name.node, a.name.node
                )),
            };
            c.error(diag);
            continue;
        }
        declared.insert(&a.name.node, a.name.span);
        if deck.attrs.len() == MAX_ATTRIBUTES {
            let total = MAX_ATTRIBUTES
                + 1
                + new_names(d.attributes.iter().map(|a| &a.name), |n| {
                    declared.contains_key(n) || deck.attr_named(n).is_some()
                });
            c.list_within(
                &format!("attributes in deck `{}`", d.name.node),
                total,
                MAX_ATTRIBUTES,
                at(a.name.span),
            );
            break;
        }
        let kind = match &a.ty {
            AttrType::Int => AttrKind::Int(None),
            AttrType::Range(lo, hi) => {
                if lo > hi {
                    c.error(
                        Diagnostic::error(
                            "fuda::out-of-range",
                            format!(
                                "the range {lo}..{hi} of `{}` is empty: its low end is above its high end",
                                a.name.node
                            ),
                            at(a.name.span),
                            format!("takes {lo}..{hi}, which holds no number"),
                        )
                        .with_help(format!(
                            "write the low end first: `attribute {}: {hi}..{lo}`",
                            a.name.node
                        )),
                    );
                }
                AttrKind::Int(Some((*lo, *hi)))
            }
            AttrType::Symbols(names) => {
                AttrKind::Symbols(symbols(c, file, &a.name.node, names, deck.attrs.len()))
            }
        };
        let ix = deck.add_attr(AttrDef {
            name: a.name.node.clone(),
            kind,
            values: vec![0; deck.len()],
            default: None,
        });
        let default = a
            .default
            .as_ref()
            .and_then(|lit| attr_value(c, file, deck, ix, lit));
        let def = &mut deck.attrs[ix as usize];
        if let Some(v) = default {
            def.values.iter_mut().for_each(|x| *x = v);
        }
        def.default = default;
        defaults.push(default);
    }
    let mut tagged: BTreeMap<&str, fuda_grammar::Span> = BTreeMap::new();
    for t in &d.tags {
        if let Some(first) = tagged.get(t.node.as_str()) {
            c.error(
                Diagnostic::error(
                    "fuda::duplicate-name",
                    format!("tag `{}` is declared twice", t.node),
                    at(t.span),
                    "again here",
                )
                .with_label(at(*first), "first declared here")
                .with_help("remove one of them")
                .warning(),
            );
            continue;
        }
        tagged.insert(&t.node, t.span);
        if deck.tag_named(&t.node).is_none() {
            if deck.tags.len() == MAX_TAGS {
                let total = MAX_TAGS
                    + 1
                    + new_names(d.tags.iter(), |n| {
                        tagged.contains_key(n) || deck.tag_named(n).is_some()
                    });
                c.list_within(
                    &format!("tags in deck `{}`", d.name.node),
                    total,
                    MAX_TAGS,
                    at(t.span),
                );
                break;
            }
            deck.add_tag(&t.node);
        }
    }
    // Inherited cards keep their values for new attributes only through defaults.
    let inherited = deck.len();
    if inherited > 0 {
        // How many edits set each attribute, counted once per edit.
        let mut edits_setting: BTreeMap<&str, usize> = BTreeMap::new();
        for e in &d.edits {
            let mut names: Vec<&str> = e
                .fields
                .iter()
                .filter_map(|f| match f {
                    CardField::Set(n, _) => Some(n.node.as_str()),
                    _ => None,
                })
                .collect();
            names.sort_unstable();
            names.dedup();
            for n in names {
                *edits_setting.entry(n).or_default() += 1;
            }
        }
        for (i, def) in defaults.iter().enumerate().skip(base_attrs) {
            if def.is_some() || deck.attrs[i].values.len() != inherited {
                continue;
            }
            let Some(span) = declared.get(deck.attrs[i].name.as_str()) else {
                continue;
            };
            let name = &deck.attrs[i].name;
            if edits_setting.get(name.as_str()).copied().unwrap_or(0) < inherited {
                c.error(
                    Diagnostic::error(
                        "fuda::attribute-unset",
                        format!("new attribute `{name}` has no default, and not every inherited card is given a value"),
                        at(*span),
                        "needs a default",
                    )
                    .with_help(format!("write `attribute {name}: … = VALUE`, or `edit` every card")),
                );
            }
        }
    }
    let mut carded: BTreeMap<&str, fuda_grammar::Span> = BTreeMap::new();
    for card in &d.cards {
        let copies = card.copies.as_ref().map(|c| c.node).unwrap_or(1);
        if !(1..=16).contains(&copies) {
            c.error(
                Diagnostic::error(
                    "fuda::bad-copies",
                    format!("a card may have 1 to 16 copies, not {copies}"),
                    at(card.copies.as_ref().map(|c| c.span).unwrap_or(card.span)),
                    "1 to 16",
                )
                .with_help("for more, declare several cards"),
            );
            continue;
        }
        if deck.face_named(&card.id.node).is_some() {
            let mut diag = Diagnostic::error(
                "fuda::duplicate-card",
                format!("card `{}` is declared twice", card.id.node),
                at(card.id.span),
                "again here",
            );
            diag = match carded.get(card.id.node.as_str()) {
                Some(first) => diag
                    .with_label(at(*first), "first declared here")
                    .with_help("for several copies of one card, write `x2` (up to `x16`) after it"),
                None => diag.with_help(format!(
                    "the base deck has `{}` already: change it with `edit {} …`",
                    card.id.node, card.id.node
                )),
            };
            c.error(diag);
            continue;
        }
        if deck.len() + copies as usize > MAX_CARDS {
            c.error(
                Diagnostic::error(
                    "fuda::deck-too-large",
                    format!(
                        "a deck holds at most {MAX_CARDS} cards; with this card it would hold {}",
                        deck.len() + copies as usize
                    ),
                    at(card.id.span),
                    "past the limit",
                )
                .with_help("use fewer cards or fewer copies"),
            );
            return;
        }
        carded.insert(&card.id.node, card.id.span);
        let ixs = deck.add_face(&card.id.node, &card.display.node, copies as u16, |a| {
            defaults.get(a).copied().flatten().unwrap_or(0)
        });
        let mut set = vec![false; deck.attrs.len()];
        let clean = apply_fields(c, file, deck, &ixs, &card.fields, &mut set);
        let unset: Vec<String> = set
            .iter()
            .enumerate()
            .filter(|(a, was_set)| !**was_set && defaults.get(*a).copied().flatten().is_none())
            .map(|(a, _)| deck.attrs[a].name.clone())
            .collect();
        // A misspelt attribute leaves another unset: report the misspelling only.
        if clean && !unset.is_empty() {
            let list: Vec<String> = unset.iter().map(|n| format!("`{n}`")).collect();
            let example: Vec<String> = unset.iter().map(|n| format!("{n}=…")).collect();
            c.error(
                Diagnostic::error(
                    "fuda::attribute-unset",
                    format!("card `{}` does not set {}", card.id.node, list.join(", ")),
                    at(card.id.span),
                    format!("no {}", list.join(", ")),
                )
                .with_help(format!(
                    "add `{}` to this card, or give the attribute a default (`attribute {}: … = VALUE`)",
                    example.join(" "),
                    unset[0]
                )),
            );
        }
    }
    let mut set = vec![false; deck.attrs.len()];
    for e in &d.edits {
        match deck.face_named(&e.id.node) {
            Some(f) => {
                let ixs = deck.face_cards[f as usize].clone();
                let _ = apply_fields(c, file, deck, &ixs, &e.fields, &mut set);
            }
            None => {
                let mut diag = Diagnostic::error(
                    "fuda::unknown-card",
                    format!("no card `{}` to edit", e.id.node),
                    at(e.id.span),
                    "unknown card id",
                );
                let ids = deck
                    .face_cards
                    .iter()
                    .map(|cs| deck.ids[cs[0] as usize].as_str());
                if let Some(s) = c.closest(&e.id.node, ids) {
                    diag = diag.with_help(format!("did you mean `{s}`?"));
                }
                c.error(diag);
            }
        }
    }
}

/// How many distinct names of `names` are not `known` yet: when a list passes its
/// limit, the message says how long it would have been.
fn new_names<'a>(
    names: impl Iterator<Item = &'a ast::Ident>,
    known: impl Fn(&str) -> bool,
) -> usize {
    let mut fresh: std::collections::BTreeSet<&str> = Default::default();
    for n in names {
        if !known(&n.node) {
            fresh.insert(&n.node);
        }
    }
    fresh.len()
}

/// The symbols of an attribute listed as `a | b | …` (the `attr`-th of its deck),
/// interned; a value listed twice, or past the limit, is reported and left out.
fn symbols(
    c: &mut Compiler,
    file: u16,
    attr_name: &str,
    names: &[ast::Ident],
    attr: usize,
) -> Vec<u32> {
    let at = |span| Loc { file, span };
    if let Some(past) = names.get(MAX_ATTRIBUTE_VALUES) {
        c.list_within(
            &format!("values of attribute `{attr_name}`"),
            names.len(),
            MAX_ATTRIBUTE_VALUES,
            at(past.span),
        );
    }
    let mut listed: BTreeMap<&str, fuda_grammar::Span> = BTreeMap::new();
    let mut syms = Vec::new();
    for n in names.iter().take(MAX_ATTRIBUTE_VALUES) {
        // A symbol listed twice would take two class numbers for one value.
        if let Some(first) = listed.get(n.node.as_str()) {
            c.error(
                Diagnostic::error(
                    "fuda::duplicate-name",
                    format!("`{}` is listed twice in attribute `{attr_name}`", n.node),
                    at(n.span),
                    "listed again here",
                )
                .with_label(at(*first), "first given here")
                .with_help("remove one of them"),
            );
            continue;
        }
        listed.insert(&n.node, n.span);
        let s = c.intern(&n.node);
        c.sym_type
            .entry(s)
            .or_insert(Type::Sym(SymDomain::Attr(attr as u16)));
        syms.push(s);
    }
    syms
}

/// Applies `attr=value`, `+tag` and `-tag` fields; `set` marks the attributes written
/// (even with a bad value, which is reported on its own). Returns false if a field
/// named an unknown attribute.
fn apply_fields(
    c: &mut Compiler,
    file: u16,
    deck: &mut Deck,
    ixs: &[u16],
    fields: &[CardField],
    set: &mut [bool],
) -> bool {
    let at = |span| Loc { file, span };
    let mut clean = true;
    // The first field naming each attribute and each tag, for repeats.
    let mut attrs_seen: BTreeMap<&str, &CardField> = BTreeMap::new();
    let mut tags_seen: BTreeMap<&str, &CardField> = BTreeMap::new();
    for f in fields {
        let (name, seen) = match f {
            CardField::Set(n, _) => (n, &mut attrs_seen),
            CardField::AddTag(n) | CardField::RemoveTag(n) => (n, &mut tags_seen),
        };
        if let Some(earlier) = seen.get(name.node.as_str()) {
            c.error(repeated_field(f, earlier, file));
            continue;
        }
        seen.insert(&name.node, f);
        match f {
            CardField::Set(name, lit) => match deck.attr_named(&name.node) {
                Some(a) => {
                    set[a as usize] = true;
                    if let Some(v) = attr_value(c, file, deck, a, lit) {
                        for ix in ixs {
                            deck.attrs[a as usize].values[*ix as usize] = v;
                        }
                    }
                }
                None => {
                    clean = false;
                    let mut diag = Diagnostic::error(
                        "fuda::unknown-attribute",
                        format!("the deck has no attribute `{}`", name.node),
                        at(name.span),
                        "unknown attribute",
                    );
                    let names = deck.attrs.iter().map(|a| a.name.as_str());
                    if let Some(s) = c.closest(&name.node, names) {
                        diag = diag.with_help(format!("did you mean `{s}`?"));
                    } else {
                        diag =
                            diag.with_help(format!("declare it: `attribute {}: int`", name.node));
                    }
                    c.error(diag);
                }
            },
            CardField::AddTag(t) | CardField::RemoveTag(t) => match deck.tag_named(&t.node) {
                Some(tag) => {
                    for ix in ixs {
                        if matches!(f, CardField::AddTag(_)) {
                            deck.tags[tag as usize].insert(*ix);
                        } else {
                            deck.tags[tag as usize].remove(*ix);
                        }
                    }
                }
                None => {
                    let mut diag = Diagnostic::error(
                        "fuda::unknown-tag",
                        format!("the deck has no tag `{}`", t.node),
                        at(t.span),
                        "unknown tag",
                    );
                    let names = deck.tag_names.iter().map(|s| s.as_str());
                    if let Some(s) = c.closest(&t.node, names) {
                        diag = diag.with_help(format!("did you mean `{s}`?"));
                    } else {
                        diag = diag.with_help(format!("declare it in the deck: `tags {}`", t.node));
                    }
                    c.error(diag);
                }
            },
        }
    }
    clean
}

/// A field `f` that repeats an `earlier` one on the same card: an attribute set twice
/// or a tag both added and removed (an error: only the last would count), or a tag
/// added or removed twice (a warning: it changes nothing).
fn repeated_field(f: &CardField, earlier: &CardField, file: u16) -> Diagnostic {
    let at = |span| Loc { file, span };
    let name = match f {
        CardField::Set(n, _) | CardField::AddTag(n) | CardField::RemoveTag(n) => n,
    };
    let first = match earlier {
        CardField::Set(m, _) | CardField::AddTag(m) | CardField::RemoveTag(m) => m,
    };
    match (f, earlier) {
        (CardField::Set(..), _) => Diagnostic::error(
            "fuda::duplicate-name",
            format!("`{}` is set twice on this card", name.node),
            at(name.span),
            "set again here",
        )
        .with_label(at(first.span), "first given here")
        .with_help("give each attribute one value"),
        (CardField::AddTag(_), CardField::AddTag(_))
        | (CardField::RemoveTag(_), CardField::RemoveTag(_)) => Diagnostic::error(
            "fuda::duplicate-name",
            format!("tag `{}` is given twice on this card", name.node),
            at(name.span),
            "again here",
        )
        .with_label(at(first.span), "first given here")
        .with_help("remove one of them")
        .warning(),
        _ => Diagnostic::error(
            "fuda::duplicate-name",
            format!("tag `{}` is both added and removed on this card", name.node),
            at(name.span),
            "contradicts the first",
        )
        .with_label(at(first.span), "first given here")
        .with_help(format!(
            "keep `+{0}` (the card has the tag) or `-{0}` (it has not)",
            name.node
        )),
    }
}

/// At most this many of an attribute's values are listed in a message.
const SHOWN_VALUES: usize = 12;

/// An attribute's values as a message lists them: `a | b | …`, the first few only.
fn shown_values(c: &Compiler, syms: &[u32]) -> String {
    let mut names: Vec<&str> = syms
        .iter()
        .take(SHOWN_VALUES)
        .map(|s| c.program.symbols[*s as usize].as_str())
        .collect();
    if syms.len() > SHOWN_VALUES {
        names.push("…");
    }
    names.join(" | ")
}

/// Checks a literal against attribute `attr`'s type and returns its stored value.
fn attr_value(
    c: &mut Compiler,
    file: u16,
    deck: &Deck,
    attr: u16,
    lit: &ast::Spanned<Literal>,
) -> Option<i64> {
    let loc = Loc {
        file,
        span: lit.span,
    };
    let def = &deck.attrs[attr as usize];
    match (&def.kind, &lit.node) {
        (AttrKind::Int(range), Literal::Int(v)) => {
            if let Some((lo, hi)) = range {
                // An empty range is reported once, at the attribute.
                if lo > hi {
                    return None;
                }
                if v < lo || v > hi {
                    c.error(Diagnostic::error(
                        "fuda::out-of-range",
                        format!("`{}` takes {lo}..{hi}, not {v}", def.name),
                        loc,
                        format!("outside {lo}..{hi}"),
                    ));
                    return None;
                }
            }
            Some(*v)
        }
        (AttrKind::Symbols(syms), Literal::Name(n)) => {
            let found = c
                .sym_index
                .get(n)
                .copied()
                .filter(|s| deck.attr_has_value(attr, *s));
            match found {
                Some(s) => Some(s as i64),
                None => {
                    let mut diag = Diagnostic::error(
                        "fuda::bad-value",
                        format!("`{}` is not a value of `{}`", n, def.name),
                        loc,
                        format!("`{}` is one of {}", def.name, shown_values(c, syms)),
                    );
                    let names = syms.iter().map(|s| c.program.symbols[*s as usize].as_str());
                    if let Some(s) = super::closest_within(&mut c.suggest_budget, n, names) {
                        diag = diag.with_help(format!("did you mean `{s}`?"));
                    }
                    c.error(diag);
                    None
                }
            }
        }
        (kind, other) => {
            let want = match kind {
                AttrKind::Int(_) => "a number".to_string(),
                AttrKind::Symbols(syms) => format!("one of {}", shown_values(c, syms)),
            };
            let got = match other {
                Literal::Int(v) => format!("`{v}`"),
                Literal::Bool(b) => format!("`{b}`"),
                Literal::Str(s) => format!("the text \"{s}\""),
                Literal::Name(n) => format!("`{n}`"),
            };
            c.error(Diagnostic::error(
                "fuda::type-mismatch",
                format!("`{}` takes {want}, not {got}", def.name),
                loc,
                "wrong kind of value",
            ));
            None
        }
    }
}
