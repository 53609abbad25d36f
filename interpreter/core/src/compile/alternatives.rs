//! `pattern NAME = A | B | …`: a pattern that stands for several others (mahjong's
//! 一般形, 七対子 and 国士無双 as one 和了形). Its groups are the union of theirs by name:
//! a score table over it reads `頭` whichever shape held, so a group two alternatives
//! share must be the same size and count in both.

use fuda_grammar::ast;

use super::{Compiler, Global};
use crate::diagnostic::Diagnostic;
use crate::ir::{Alternative, Loc, SlotDef};
use crate::model::CardSet;

/// Compiles the union `p` once every pattern with groups is compiled.
/// `unions` names every pattern declared this way.
pub(super) fn union(c: &mut Compiler, file: u16, p: &ast::PatternDecl, unions: &[&str]) {
    let Some((Global::Pattern(ix), _)) = c.globals.get(&p.name.node).cloned() else {
        return;
    };
    let at = |span| Loc { file, span };
    let mut slots: Vec<SlotDef> = Vec::new();
    // Where each group name of the union was first laid out, for the message when an
    // alternative declares it differently.
    let mut first_seen: Vec<(String, usize, usize, &ast::Ident)> = Vec::new();
    let mut alternatives = Vec::new();
    let mut size = 0;
    for alt in &p.alternatives {
        let pat = match c.globals.get(&alt.node).cloned() {
            Some((Global::Pattern(q), _)) => q,
            _ => {
                let sc = super::expr::Scope::pure(file, "a pattern");
                c.unknown_name(&sc, &alt.node, alt.span, "pattern");
                continue;
            }
        };
        if pat == ix {
            c.error(
                Diagnostic::error(
                    "fuda::bad-alternative",
                    format!("pattern `{}` names itself as an alternative", alt.node),
                    at(alt.span),
                    "itself",
                )
                .with_help("name the patterns with groups that it stands for"),
            );
            continue;
        }
        if alternatives.iter().any(|a: &Alternative| a.pattern == pat) {
            c.error(
                Diagnostic::error(
                    "fuda::bad-alternative",
                    format!("`{}` is named twice", alt.node),
                    at(alt.span),
                    "again here",
                )
                .with_help("name each alternative once"),
            );
            continue;
        }
        let def = &c.program.patterns[pat as usize];
        if unions.contains(&alt.node.as_str()) {
            c.error(
                Diagnostic::error(
                    "fuda::bad-alternative",
                    format!("`{}` is itself a pattern of alternatives", alt.node),
                    at(alt.span),
                    "alternatives of alternatives",
                )
                .with_help(format!(
                    "name the patterns `{}` stands for here instead",
                    alt.node
                )),
            );
            continue;
        }
        size = size.max(def.size);
        let theirs = def.slots.clone();
        let mut map = Vec::with_capacity(theirs.len());
        let mut i = 0;
        let mut clash = false;
        while i < theirs.len() {
            let name = &theirs[i].name;
            let count = theirs[i..].iter().take_while(|s| &s.name == name).count();
            let size = theirs[i].size;
            match first_seen.iter().find(|(n, ..)| n == name) {
                Some((_, start, n, first)) => {
                    let (start, n, first) = (*start, *n, *first);
                    if slots[start].size != size || n != count {
                        let was = describe(slots[start].size, n);
                        let now = describe(size, count);
                        c.error(
                            Diagnostic::error(
                                "fuda::alternative-groups",
                                format!(
                                    "group `{name}` is {was} in `{}` but {now} in `{}`",
                                    first.node, alt.node
                                ),
                                at(alt.span),
                                format!("`{name}`: {now}"),
                            )
                            .with_label(at(first.span), format!("`{name}`: {was}"))
                            .with_help(
                                "a score table over this pattern reads a group by its name whichever alternative held: give the groups different names, or the same size and count",
                            ),
                        );
                        clash = true;
                    } else {
                        map.extend((start..start + n).map(|s| s as u16));
                    }
                }
                None => {
                    let start = slots.len();
                    for k in 0..count {
                        slots.push(SlotDef {
                            name: name.clone(),
                            size,
                            shapes: Vec::new(),
                            condition: None,
                            copy_of: (k > 0).then_some(start),
                            allowed: c.program.deck.all(),
                            wild: CardSet::EMPTY,
                        });
                    }
                    first_seen.push((name.clone(), start, count, alt));
                    map.extend((start..start + count).map(|s| s as u16));
                }
            }
            i += count;
        }
        if !clash {
            alternatives.push(Alternative {
                pattern: pat,
                slots: map,
            });
        }
    }
    if slots.len() > crate::pattern::MAX_SLOTS {
        c.error(
            Diagnostic::error(
                "fuda::bad-group",
                format!(
                    "the alternatives have {} groups between them; a pattern may have at most {}",
                    slots.len(),
                    crate::pattern::MAX_SLOTS
                ),
                at(p.name.span),
                "too many groups",
            )
            .with_help("give groups that play the same part in several alternatives one name"),
        );
        alternatives.clear();
        slots.clear();
    }
    let pd = &mut c.program.patterns[ix as usize];
    pd.slots = slots;
    pd.size = size;
    pd.alternatives = alternatives;
}

/// "2 cards", "4 groups of 3 cards".
fn describe(size: usize, count: usize) -> String {
    match count {
        1 => format!("{size} cards"),
        _ => format!("{count} groups of {size} cards"),
    }
}
