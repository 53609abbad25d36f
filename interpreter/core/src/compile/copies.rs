//! Which cards a pattern can tell from their copies.
//!
//! Copies of a card (`x4` in a deck) share every attribute and tag, so a pattern can
//! only tell one from another by naming a card: a card constant, or a card set that
//! holds some copies of a face and not others (`cards("1m")` is one tile of four).
//! Everything else a pattern does — attributes, tags, counts, set arithmetic on its
//! groups, comparing two of its cards — gives the same answer when two copies trade
//! places. So for `waits`, two copies outside the hand complete it alike unless the
//! pattern names one of them, and one question per face is enough (`engine::typed`).
//! This pass marks, per pattern, the cards it can tell apart: those of every face one
//! of its constants splits, through the patterns it calls; a pattern that calls a
//! score table is taken to tell every card apart (a table's rows are not read here).
//!
//! The same holds inside one search (`pattern::any_match`), which places only the
//! lowest copies left of each face the pattern cannot tell apart. Take any split the
//! full search finds, and build another group by group: the same faces as the found
//! group, each taken as the lowest copies left. Trading copies within faces maps one
//! split onto the other, so every `where` and `require` answers alike. The copies of a
//! `*N` group stay in order: a group whose lowest face is above the last one's has all
//! its cards above it, and one whose lowest face is the same takes copies left after
//! the last one took the lower ones. So whenever a split exists, the search that places
//! lowest copies finds one.

use crate::ir::{Builtin, Expr, Program};
use crate::model::{CardSet, Deck};
use crate::value::Value;

/// Sets [`crate::ir::PatternDef::told_apart`] for every pattern of the program.
pub fn mark(program: &mut Program) {
    let deck = &program.deck;
    // What each pattern names itself, and the patterns it calls.
    let mut own: Vec<CardSet> = Vec::with_capacity(program.patterns.len());
    let mut calls: Vec<Vec<u16>> = Vec::with_capacity(program.patterns.len());
    for pat in &program.patterns {
        let mut seen = Seen {
            deck,
            told: CardSet::EMPTY,
            calls: Vec::new(),
        };
        // Wild cards are named by a set, which may hold some copies of a face only; and
        // `.attr` of any set skips them, so every pattern may tell their copies apart.
        seen.set(program.wild);
        for slot in &pat.slots {
            if let Some(c) = &slot.condition {
                seen.expr(c);
            }
        }
        for r in &pat.requires {
            seen.expr(r);
        }
        // A pattern of alternatives tells apart what any of them does.
        seen.calls
            .extend(pat.alternatives.iter().map(|a| a.pattern));
        own.push(seen.told);
        calls.push(seen.calls);
    }
    // Through the patterns each calls: chains are at most a few dozen long (the checker
    // refuses longer ones and cycles), so this settles in as many rounds.
    let mut told = own;
    loop {
        let mut changed = false;
        for i in 0..told.len() {
            let mut t = told[i];
            for &q in &calls[i] {
                if let Some(u) = told.get(q as usize) {
                    t = t.union(*u);
                }
            }
            if t != told[i] {
                told[i] = t;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for (pat, t) in program.patterns.iter_mut().zip(told) {
        pat.told_apart = t;
    }
}

/// What a walk over a pattern's expressions found.
struct Seen<'d> {
    deck: &'d Deck,
    /// Cards told apart from their copies so far.
    told: CardSet,
    /// Patterns called.
    calls: Vec<u16>,
}

impl Seen<'_> {
    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Const(v) => self.value(v),
            Expr::Cards(s) => self.set(*s),
            Expr::PatternTest(q, _) | Expr::Call(Builtin::Waits(q) | Builtin::Formed(q), _, _) => {
                self.calls.push(*q)
            }
            // A table's rows are not walked: every card counts as named.
            Expr::Score(..) => self.told = self.deck.all(),
            _ => {}
        }
        e.children(|c| self.expr(c));
    }

    fn value(&mut self, v: &Value) {
        match v {
            Value::Card(c) => self.set(CardSet::single(*c)),
            Value::Cards(s) => self.set(*s),
            Value::List(items) => items.iter().for_each(|v| self.value(v)),
            _ => {}
        }
    }

    /// A named set: the faces it holds only some copies of are told apart.
    fn set(&mut self, s: CardSet) {
        for c in s.minus(self.told).iter() {
            let face = self.deck.face_set(c);
            if !face.is_subset(&s) {
                self.told = self.told.union(face);
            }
        }
    }
}
