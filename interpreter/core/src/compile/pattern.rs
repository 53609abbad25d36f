//! Compiling a pattern: its groups (sizes, shapes, `where`, wild cards), its `require`
//! constraints, and what the matcher is given ahead of time (the class-count prefilter).

use fuda_grammar::ast::{self, Shape};

use super::score::group_scope;
use super::{Compiler, Global};
use crate::diagnostic::Diagnostic;
use crate::ir::{Loc, ShapeDef, SlotDef};
use crate::model::CardSet;
use crate::value::Type;

/// Most cards a pattern may split (bounds the matcher's search).
const MAX_PATTERN_CARDS: i64 = 32;

/// Compiles pattern `p` into the program's pattern of its name.
pub(super) fn pattern(c: &mut Compiler, file: u16, p: &ast::PatternDecl) {
    let Some((Global::Pattern(ix), _)) = c.globals.get(&p.name.node).cloned() else {
        return;
    };
    let at = |span| Loc { file, span };
    let mut slots = Vec::new();
    let mut total = 0i64;
    for g in &p.groups {
        let count = g.count.as_ref().map(|c| c.node).unwrap_or(1);
        if !(1..=MAX_PATTERN_CARDS).contains(&g.size.node) {
            c.error(
                Diagnostic::error(
                    "fuda::bad-group",
                    format!(
                        "a group takes 1 to {MAX_PATTERN_CARDS} cards, not {}",
                        g.size.node
                    ),
                    at(g.size.span),
                    "group size",
                )
                .with_help("split the cards into several groups"),
            );
            continue;
        }
        if !(1..=16).contains(&count) {
            c.error(Diagnostic::error(
                "fuda::bad-group",
                format!("a group repeats 1 to 16 times, not {count}"),
                at(g.count.as_ref().map(|c| c.span).unwrap_or(g.span)),
                "repeat count",
            ));
            continue;
        }
        if let Some(first) = p
            .groups
            .iter()
            .take_while(|o| !std::ptr::eq(*o, g))
            .find(|o| o.name.node == g.name.node)
        {
            c.error(
                Diagnostic::error(
                    "fuda::duplicate-name",
                    format!("group `{}` is declared twice", g.name.node),
                    at(g.name.span),
                    "again here",
                )
                .with_label(at(first.name.span), "first declared here")
                .with_help("give each group its own name; `group NAME *2: …` repeats one"),
            );
            continue;
        }
        let mut shapes = Vec::new();
        for s in &g.shapes {
            let attr = |c: &mut Compiler, id: &ast::Ident| -> Option<u16> {
                let a = c.program.deck.attr_named(&id.node);
                if a.is_none() {
                    c.unknown_attribute(&id.node, at(id.span), "unknown attribute");
                }
                a
            };
            match &s.node {
                Shape::Same(a) => {
                    if let Some(a) = attr(c, a) {
                        shapes.push(ShapeDef::Same(a));
                    }
                }
                Shape::Distinct(a) => {
                    if let Some(a) = attr(c, a) {
                        shapes.push(ShapeDef::Distinct(a));
                    }
                }
                Shape::Run(a, by) => {
                    let a2 = attr(c, a);
                    let b2 = by.as_ref().map(|b| attr(c, b));
                    if let Some(a2) = a2 {
                        if matches!(
                            c.program.deck.attrs[a2 as usize].kind,
                            crate::model::AttrKind::Symbols(_)
                        ) {
                            let numbers: Vec<String> = c
                                .program
                                .deck
                                .attrs
                                .iter()
                                .filter(|x| matches!(x.kind, crate::model::AttrKind::Int(_)))
                                .map(|x| x.name.clone())
                                .collect();
                            c.error(
                                Diagnostic::error(
                                    "fuda::bad-shape",
                                    format!(
                                        "`run` needs a number attribute; `{}` holds symbols",
                                        a.node
                                    ),
                                    at(a.span),
                                    "not a number",
                                )
                                .with_help(format!(
                                    "number attributes: {}; for symbols use `same {}` or `distinct {}`",
                                    numbers.join(", "),
                                    a.node,
                                    a.node
                                )),
                            );
                        } else if !matches!(b2, Some(None)) {
                            shapes.push(ShapeDef::Run(a2, b2.flatten()));
                        }
                    }
                }
                Shape::Word(w) => {
                    c.error(
                        Diagnostic::error("fuda::unsupported", format!("the `word {}` group shape is not supported", w.node), at(s.span), "not a shape")
                            .with_help(format!("test the group in its `where` instead: `group G: 2 where word({}, G, ATTR)` (docs/language.md § words)", w.node)),
                    );
                }
            }
        }
        let wild = match &g.wild {
            Some(w) => wild_cards(c, file, w, &shapes, g.shapes.is_empty()),
            None => CardSet::EMPTY,
        };
        c.program.wild = c.program.wild.union(wild);
        total += g.size.node * count;
        for k in 0..count {
            slots.push(SlotDef {
                name: g.name.node.clone(),
                size: g.size.node as usize,
                shapes: shapes.clone(),
                condition: None,
                copy_of: if k > 0 {
                    Some(slots.len() - k as usize)
                } else {
                    None
                },
                allowed: c.program.deck.all(),
                wild,
            });
        }
    }
    if total > MAX_PATTERN_CARDS {
        c.error(Diagnostic::error(
            "fuda::bad-group",
            format!("a pattern takes at most {MAX_PATTERN_CARDS} cards; this one takes {total}"),
            at(p.name.span),
            format!("{total} cards"),
        ));
    }
    // Conditions: a group's `where` sees the group by its own name.
    let mut sc = group_scope(file, &slots, "a pattern");
    let mut gi = 0;
    for g in &p.groups {
        let count = g.count.as_ref().map(|c| c.node).unwrap_or(1).clamp(1, 16) as usize;
        if let Some(cond) = &g.condition {
            for k in 0..count {
                // Each copy checks its own cards: the group's name means this slot.
                let mut gsc = group_scope(file, &slots, "a pattern");
                for entry in gsc.groups.iter_mut().filter(|e| e.0 == g.name.node) {
                    *entry = (g.name.node.clone(), (gi + k) as u16, 1);
                }
                let e = c.expr_of(&mut gsc, cond, &Type::Bool);
                sc.max = sc.max.max(gsc.max);
                // Read before the rewrites, which may turn `all(…)` into set arithmetic.
                let allowed = super::allowed::allowed(&c.program, &e, (gi + k) as u16);
                if let Some(s) = slots.get_mut(gi + k) {
                    s.condition = Some(e);
                    s.allowed = allowed;
                }
            }
        }
        gi += count;
    }
    let mut requires: Vec<_> = p
        .requires
        .iter()
        .map(|r| c.expr_of(&mut sc, r, &Type::Bool))
        .collect();
    // Evaluated for every candidate and split: rewritten into loop-free forms, and the
    // requires settled by the groups' classes tabulated (score/rewrite.rs, score/plan.rs).
    let optimize = crate::score::optimizing();
    for e in slots
        .iter_mut()
        .filter_map(|s| s.condition.as_mut())
        .chain(requires.iter_mut())
        .filter(|_| optimize)
    {
        crate::score::simplify(&c.program, e, &[]);
    }
    let mut prefilter = prefilter(c, &slots);
    if let Some(pf) = prefilter.as_mut().filter(|_| optimize) {
        let conds: Vec<&crate::ir::Expr> = requires.iter().collect();
        pf.requires = crate::score::Plan::build(&c.program, &slots, &[], &conds, &[conds.len()]);
    }
    c.check_slots(
        &sc,
        Loc {
            file,
            span: p.name.span,
        },
    );
    // The rewrites may leave fewer local slots in use: a smaller frame is cheaper to
    // set up for every search.
    let used = slots
        .iter()
        .filter_map(|s| s.condition.as_ref())
        .chain(&requires)
        .map(crate::score::slots_used)
        .max()
        .filter(|_| optimize)
        .unwrap_or(sc.max as usize);
    let pd = &mut c.program.patterns[ix as usize];
    pd.prefilter = prefilter;
    pd.slots = slots;
    pd.requires = requires;
    pd.size = total.max(0) as usize;
    pd.frame = sc.max.min(used as u16);
    // The table answers from the finished pattern's own prefilter and requires.
    if optimize {
        let deck_len = c.program.deck.len();
        let pd = &mut c.program.patterns[ix as usize];
        let table = pd
            .prefilter
            .as_ref()
            .and_then(|pf| crate::pattern::FitTable::build(pd, pf, deck_len))
            .map(std::sync::Arc::new);
        if let Some(pf) = pd.prefilter.as_mut() {
            pf.table = table;
        }
    }
}

/// The cards a group's `wild NAME` names: a deck tag's cards, or a named card set.
/// Empty (with a diagnostic) when NAME is neither, or the group has no `same` or `run`
/// shape for them to stand in (in `distinct`, or with no shape, a card is just itself).
fn wild_cards(
    c: &mut Compiler,
    file: u16,
    w: &ast::Ident,
    shapes: &[ShapeDef],
    shapeless: bool,
) -> CardSet {
    let at = Loc { file, span: w.span };
    let named = match c.program.deck.tag_named(&w.node) {
        Some(t) => Some(c.program.deck.tags[t as usize]),
        None => match c.globals.get(&w.node) {
            Some((Global::CardSet(s), _)) => Some(*s),
            _ => None,
        },
    };
    let Some(set) = named else {
        let mut names: Vec<String> = c.program.deck.tag_names.clone();
        names.extend(
            c.globals
                .iter()
                .filter(|(_, (g, _))| matches!(g, Global::CardSet(_)))
                .map(|(n, _)| n.clone()),
        );
        let mut d = Diagnostic::error(
            "fuda::unknown-wild",
            format!("no tag or card set is called `{}`", w.node),
            at,
            "not a tag or card set",
        );
        d = match super::closest_within(
            &mut c.suggest_budget,
            &w.node,
            names.iter().map(|s| s.as_str()),
        ) {
            Some(s) => d.with_help(format!("did you mean `{s}`?")),
            None if names.is_empty() => d.with_help(
                "declare a tag in the deck (`tags 鬼`, `+鬼` on the jokers) or a card set (`cards 鬼札 = …`)",
            ),
            None => d.with_help(format!("the tags and card sets: {}", names.join(", "))),
        };
        c.error(d);
        return CardSet::EMPTY;
    };
    let stands_in = shapes
        .iter()
        .any(|s| matches!(s, ShapeDef::Same(_) | ShapeDef::Run(..)));
    // A shape that failed to compile was reported already.
    if !stands_in && (shapeless || !shapes.is_empty()) {
        c.error(
            Diagnostic::error(
                "fuda::bad-wild",
                "a wild card stands in for a value of a `same` or `run` shape; this group has none",
                at,
                "nothing to stand in for",
            )
            .with_help(
                "give the group a `same A` or `run A by B` shape, or drop `wild`: in a `distinct` group or one with no shape, a wild card is just a card",
            ),
        );
        return CardSet::EMPTY;
    }
    set
}

/// Derives the class-count prefilter when every group is `same` on one attribute.
/// A group with wild cards may mix classes: no prefilter then.
fn prefilter(c: &Compiler, slots: &[SlotDef]) -> Option<crate::ir::Prefilter> {
    if slots.iter().any(|s| !s.wild.is_empty()) {
        return None;
    }
    let attr = match slots.first()?.shapes.as_slice() {
        [ShapeDef::Same(a)] => *a,
        _ => return None,
    };
    if !slots
        .iter()
        .all(|s| s.shapes.as_slice() == [ShapeDef::Same(attr)])
    {
        return None;
    }
    let deck = &c.program.deck;
    let mut values: Vec<i64> = deck.attrs[attr as usize].values.clone();
    values.sort_unstable();
    values.dedup();
    let classes = values
        .iter()
        .map(|v| {
            (0..deck.len() as u16)
                .filter(|card| deck.attr(attr, *card) == *v)
                .collect()
        })
        .collect();
    let mut sizes: Vec<usize> = slots.iter().map(|s| s.size).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let suffix = (0..slots.len())
        .map(|i| {
            let mut s: Vec<usize> = slots[i..].iter().map(|s| s.size).collect();
            s.sort_unstable_by(|a, b| b.cmp(a));
            s
        })
        .collect();
    Some(crate::ir::Prefilter {
        classes,
        sizes,
        suffix,
        requires: None,
        table: None,
    })
}
