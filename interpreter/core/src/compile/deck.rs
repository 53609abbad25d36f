//! Building the deck: attributes, tags, cards with copies, and derived decks that
//! add attributes or cards and edit inherited ones. The last deck declared is played.

use std::collections::BTreeMap;

use fuda_grammar::ast::{self, AttrType, CardField, Item, Literal};

use super::{Compiler, Global};
use crate::diagnostic::Diagnostic;
use crate::ir::Loc;
use crate::model::{AttrDef, AttrKind, CardSet, Deck, MAX_CARDS};
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
    for (i, a) in d.attributes.iter().enumerate() {
        if deck.attr_named(&a.name.node).is_some() {
            let mut diag = Diagnostic::error(
                "fuda::duplicate-name",
                format!("attribute `{}` is declared twice", a.name.node),
                at(a.name.span),
                "again here",
            );
            diag = match d.attributes[..i]
                .iter()
                .find(|b| b.name.node == a.name.node)
            {
                Some(first) => diag
                    .with_label(at(first.name.span), "first declared here")
                    .with_help("remove one of them"),
                None => diag.with_help(format!(
                    "the base deck has `{}` already; set it on cards with `edit ID {}=…`",
                    a.name.node, a.name.node
                )),
            };
            c.error(diag);
            continue;
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
                let attr_ix = deck.attrs.len() as u16;
                let mut syms = Vec::new();
                for (j, n) in names.iter().enumerate() {
                    // A symbol listed twice would take two class numbers for one value.
                    if let Some(first) = names[..j].iter().find(|m| m.node == n.node) {
                        c.error(
                            Diagnostic::error(
                                "fuda::duplicate-name",
                                format!(
                                    "`{}` is listed twice in attribute `{}`",
                                    n.node, a.name.node
                                ),
                                at(n.span),
                                "listed again here",
                            )
                            .with_label(at(first.span), "first given here")
                            .with_help("remove one of them"),
                        );
                        continue;
                    }
                    let s = c.intern(&n.node);
                    c.sym_type
                        .entry(s)
                        .or_insert(Type::Sym(SymDomain::Attr(attr_ix)));
                    syms.push(s);
                }
                AttrKind::Symbols(syms)
            }
        };
        let mut def = AttrDef {
            name: a.name.node.clone(),
            kind,
            values: vec![0; deck.len()],
            default: None,
        };
        let default = a
            .default
            .as_ref()
            .and_then(|lit| attr_value(c, file, &def, lit));
        if let Some(v) = default {
            def.values.iter_mut().for_each(|x| *x = v);
        }
        def.default = default;
        deck.attrs.push(def);
        defaults.push(default);
    }
    for (j, t) in d.tags.iter().enumerate() {
        if let Some(first) = d.tags[..j].iter().find(|u| u.node == t.node) {
            c.error(
                Diagnostic::error(
                    "fuda::duplicate-name",
                    format!("tag `{}` is declared twice", t.node),
                    at(t.span),
                    "again here",
                )
                .with_label(at(first.span), "first declared here")
                .with_help("remove one of them")
                .warning(),
            );
            continue;
        }
        if deck.tag_named(&t.node).is_none() {
            deck.tag_names.push(t.node.clone());
            deck.tags.push(CardSet::EMPTY);
        }
    }
    // Inherited cards keep their values for new attributes only through defaults.
    let inherited = deck.len();
    for (i, def) in defaults.iter().enumerate() {
        if i >= base_attrs
            && def.is_none()
            && inherited > 0
            && deck.attrs[i].values.len() == inherited
        {
            if let Some(a) = d
                .attributes
                .iter()
                .find(|a| a.name.node == deck.attrs[i].name)
            {
                let edited = d
                    .edits
                    .iter()
                    .filter(|e| {
                        e.fields
                            .iter()
                            .any(|f| matches!(f, CardField::Set(n, _) if n.node == a.name.node))
                    })
                    .count();
                if edited < inherited {
                    c.error(
                        Diagnostic::error(
                            "fuda::attribute-unset",
                            format!("new attribute `{}` has no default, and not every inherited card is given a value", a.name.node),
                            at(a.name.span),
                            "needs a default",
                        )
                        .with_help(format!("write `attribute {}: … = VALUE`, or `edit` every card", a.name.node)),
                    );
                }
            }
        }
    }
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
            let earlier = d
                .cards
                .iter()
                .take_while(|o| !std::ptr::eq(*o, card))
                .find(|o| o.id.node == card.id.node);
            diag = match earlier {
                Some(first) => diag
                    .with_label(at(first.id.span), "first declared here")
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
        let face = deck.face_cards.len() as u16;
        let mut ixs = Vec::new();
        for _ in 0..copies {
            let ix = deck.len() as u16;
            deck.ids.push(card.id.node.clone());
            deck.names.push(card.display.node.clone());
            deck.faces.push(face);
            for (a, def) in deck.attrs.iter_mut().enumerate() {
                def.values
                    .push(defaults.get(a).copied().flatten().unwrap_or(0));
            }
            ixs.push(ix);
        }
        deck.face_cards.push(ixs.clone());
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
    for e in &d.edits {
        match deck.face_named(&e.id.node) {
            Some(f) => {
                let ixs = deck.face_cards[f as usize].clone();
                let mut set = vec![false; deck.attrs.len()];
                let _ = apply_fields(c, file, deck, &ixs, &e.fields, &mut set);
            }
            None => {
                let mut diag = Diagnostic::error(
                    "fuda::unknown-card",
                    format!("no card `{}` to edit", e.id.node),
                    at(e.id.span),
                    "unknown card id",
                );
                if let Some(s) = deck.suggest(&e.id.node) {
                    diag = diag.with_help(format!("did you mean `{s}`?"));
                }
                c.error(diag);
            }
        }
    }
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
    for (j, f) in fields.iter().enumerate() {
        if let Some(d) = repeated_field(fields, j, f, file) {
            c.error(d);
            continue;
        }
        match f {
            CardField::Set(name, lit) => match deck.attr_named(&name.node) {
                Some(a) => {
                    set[a as usize] = true;
                    if let Some(v) = attr_value(c, file, &deck.attrs[a as usize], lit) {
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
                    let names: Vec<&str> = deck.attrs.iter().map(|a| a.name.as_str()).collect();
                    if let Some(s) = crate::suggest::closest(&name.node, names.iter().copied()) {
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
                    if let Some(s) =
                        crate::suggest::closest(&t.node, deck.tag_names.iter().map(|s| s.as_str()))
                    {
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

/// A field that repeats an earlier one on the same card: an attribute set twice or a
/// tag both added and removed (an error: only the last would count), or a tag added or
/// removed twice (a warning: it changes nothing).
fn repeated_field(fields: &[CardField], j: usize, f: &CardField, file: u16) -> Option<Diagnostic> {
    let at = |span| Loc { file, span };
    let (name, earlier) = match f {
        CardField::Set(n, _) => (
            n,
            fields[..j]
                .iter()
                .find(|g| matches!(g, CardField::Set(m, _) if m.node == n.node)),
        ),
        CardField::AddTag(n) | CardField::RemoveTag(n) => (
            n,
            fields[..j].iter().find(
                |g| matches!(g, CardField::AddTag(m) | CardField::RemoveTag(m) if m.node == n.node),
            ),
        ),
    };
    let earlier = earlier?;
    let first = match earlier {
        CardField::Set(m, _) | CardField::AddTag(m) | CardField::RemoveTag(m) => m,
    };
    Some(match (f, earlier) {
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
    })
}

/// Checks a literal against an attribute's type and returns its stored value.
fn attr_value(
    c: &mut Compiler,
    file: u16,
    def: &AttrDef,
    lit: &ast::Spanned<Literal>,
) -> Option<i64> {
    let loc = Loc {
        file,
        span: lit.span,
    };
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
            let found = syms
                .iter()
                .find(|s| c.program.symbols[**s as usize] == *n)
                .copied();
            match found {
                Some(s) => Some(s as i64),
                None => {
                    let names: Vec<String> = syms
                        .iter()
                        .map(|s| c.program.symbols[*s as usize].clone())
                        .collect();
                    let mut diag = Diagnostic::error(
                        "fuda::bad-value",
                        format!("`{}` is not a value of `{}`", n, def.name),
                        loc,
                        format!("`{}` is one of {}", def.name, names.join(" | ")),
                    );
                    if let Some(s) = crate::suggest::closest(n, names.iter().map(|s| s.as_str())) {
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
                AttrKind::Symbols(syms) => {
                    let names: Vec<&str> = syms
                        .iter()
                        .map(|s| c.program.symbols[*s as usize].as_str())
                        .collect();
                    format!("one of {}", names.join(" | "))
                }
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
