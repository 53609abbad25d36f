//! The text of the names a table's results carry (its yaku, bonuses and fixed names, its
//! pattern's groups), made once per table and shared by every result after, so building
//! a result copies no strings.

use std::sync::OnceLock;

use crate::ir::{PatternDef, Program};
use crate::value::Text;

/// A table's shared names, made at its first result (the program is complete by then).
#[derive(Clone, Debug, Default)]
pub struct Names(OnceLock<Made>);

/// The names once made.
#[derive(Clone, Debug)]
struct Made {
    /// Every symbol of the program, by id (a table's yaku are a few of them; the list
    /// is short and made once).
    syms: Box<[Text]>,
    /// The group names of the table's pattern, in slot order.
    groups: Box<[Text]>,
}

/// Names to build a result with: the table's shared ones, or (a table without a plan,
/// or a test of the plain forms) each made as it is asked for.
#[derive(Clone, Copy)]
pub(crate) struct Namer<'a> {
    p: &'a Program,
    made: Option<&'a Made>,
}

impl Names {
    /// A namer for program `p` and the table's pattern `pat` (if any).
    pub(crate) fn namer<'a>(
        names: Option<&'a Names>,
        p: &'a Program,
        pat: Option<&PatternDef>,
    ) -> Namer<'a> {
        let made = names.map(|n| {
            n.0.get_or_init(|| Made {
                syms: p.symbols.iter().map(|s| Text::from(s.as_str())).collect(),
                groups: pat
                    .map(|pat| {
                        pat.slots
                            .iter()
                            .map(|s| Text::from(s.name.as_str()))
                            .collect()
                    })
                    .unwrap_or_default(),
            })
        });
        Namer { p, made }
    }
}

impl Namer<'_> {
    /// Symbol `s` as text.
    #[inline]
    pub(crate) fn sym(&self, s: u32) -> Text {
        match self.made.and_then(|m| m.syms.get(s as usize)) {
            Some(t) => t.clone(),
            None => Text::from(self.p.sym(s)),
        }
    }

    /// The name of group `i` of `pat`.
    #[inline]
    pub(crate) fn group(&self, pat: &PatternDef, i: usize) -> Text {
        match self.made.and_then(|m| m.groups.get(i)) {
            Some(t) => t.clone(),
            None => Text::from(pat.slots[i].name.as_str()),
        }
    }

    /// The name of alternative `k` of the union `pat` (made per result: a table over
    /// alternatives has no plan, so nothing is shared yet).
    pub(crate) fn shape(&self, pat: &PatternDef, k: usize) -> Text {
        let name = pat
            .alternatives
            .get(k)
            .and_then(|a| self.p.patterns.get(a.pattern as usize))
            .map_or("", |q| q.name.as_str());
        Text::from(name)
    }
}
