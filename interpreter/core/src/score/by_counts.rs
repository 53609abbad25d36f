//! A win guard's exact answer (`pays`) read off a hand's class counts. For a table whose
//! pattern has a fit table ([`FitTable`]), the hands that may fit are few count vectors
//! (for a hand of cards of four kinds: how many of each kind). For most of them the search has one split
//! only, each class dealt whole to one group ([`crate::pattern::one_way`]), and the
//! plans read that split's classes alone: so the split, which requires hold and whether
//! a yaku row holds are the same for every hand with those counts, and are worked out
//! once, when the program is built, for each count vector. A hand is then answered by
//! adding up its cards' weights and reading one entry: settled (yes or no), or the
//! classes its groups are and the keys under which the conditions the plans leave to
//! the groups' cards (a 素 five-group's same-month pair) are asked. Counts that cannot
//! fit answer no, as the search would find no split. Anything else (no single split, a
//! key the plans did not tabulate, a rest they cannot answer) is left to the search,
//! which gives the same answer the slow way.

use std::sync::Arc;

use crate::ir::{PatternDef, Prefilter, Program, ScoreDef};
use crate::model::CardSet;
use crate::pattern::FitTable;

/// The most groups a tabulated pattern has: the search's own one-split limit.
const GROUPS: usize = crate::pattern::FEW_SLOTS;

/// An entry that is not tabulated: ask the search.
const SEARCH: u16 = 0;
/// An entry whose hands never pay.
const NO: u16 = 1;
/// An entry whose hands always pay.
const YES: u16 = 2;
/// The first entry that is a [`Split`] (`SPLIT + i` for `splits[i]`).
const SPLIT: u16 = 3;

/// `pays` by count vector, for one score table (see the module documentation).
#[derive(Clone, Debug)]
pub struct ByCounts {
    /// The pattern's fit table, whose sums index the entries.
    fit: Arc<FitTable>,
    /// For each sum: [`SEARCH`], [`NO`], [`YES`] or a split.
    entries: Box<[u16]>,
    /// The splits whose answer depends on the cards.
    splits: Vec<Split>,
}

/// The one split of the hands of a count vector, and what is left to ask of it.
#[derive(Clone, Copy, Debug)]
struct Split {
    /// Each group's class (an index into the prefilter's classes), slot by slot.
    class: [u8; GROUPS],
    /// The requires' key, when some of them are left to the groups' cards (`None`:
    /// they hold).
    requires: Option<u32>,
    /// The yaku rows: settled (whether one holds), or the key they are asked under.
    yaku: Result<bool, u32>,
}

impl ByCounts {
    /// The table for `def` (its `pays` answers must be exact: [`super::sign_by_yaku`]),
    /// when its pattern has a fit table, at most [`GROUPS`] groups and plans that read
    /// the groups' classes as functions of the prefilter's classes.
    pub(crate) fn build(p: &Program, def: &ScoreDef) -> Option<ByCounts> {
        if !super::sign_by_yaku(p, def) {
            return None;
        }
        let pat = p.patterns.get(def.over.as_ref()?.0 as usize)?;
        let pf = pat.prefilter.as_ref()?;
        let fit = pf.table.clone()?;
        let plan = def.plan.as_ref()?;
        // A group lies in one class: each class input must then read one value.
        let reads = |pl: &super::Plan| pl.reads_only(&pf.classes);
        if pat.slots.len() > GROUPS
            || pf.classes.len() > u8::MAX as usize
            || !reads(plan)
            || !pf.requires.as_ref().is_none_or(reads)
        {
            return None;
        }
        // A sum whose counts cannot fit has no split at all: it never pays.
        let mut t = ByCounts {
            entries: vec![NO; fit.entries() as usize].into_boxed_slice(),
            fit,
            splits: Vec::new(),
        };
        let fitting: Vec<u32> = t.fit.fitting().collect();
        for index in fitting {
            let hand = t.fit.hand_of(pf, index);
            let entry = match entry(def, pat, pf, hand) {
                Some(Ok(yes)) => [NO, YES][usize::from(yes)],
                Some(Err(split)) => match u16::try_from(t.splits.len()) {
                    Ok(i) if i < u16::MAX - SPLIT => {
                        t.splits.push(split);
                        SPLIT + i
                    }
                    _ => SEARCH,
                },
                None => SEARCH,
            };
            if let Some(e) = t.entries.get_mut(index as usize) {
                *e = entry;
            }
        }
        Some(t)
    }

    /// Whether `def` (the table this was built for, over `p`) pays on `hand`, when the
    /// hand's count vector is tabulated; `None`: ask the search.
    #[inline]
    pub(crate) fn answer(&self, p: &Program, def: &ScoreDef, hand: CardSet) -> Option<bool> {
        self.answer_entry(p, def, hand, self.fit.index_of(hand)?)
    }

    /// [`ByCounts::answer`] for a hand whose entry in `table` is `index`: read there when
    /// `table` is the one this is indexed by, else the hand is added up.
    #[inline]
    pub(crate) fn answer_at(
        &self,
        p: &Program,
        def: &ScoreDef,
        hand: CardSet,
        table: &FitTable,
        index: u32,
    ) -> Option<bool> {
        let index = match std::ptr::eq(&*self.fit, table) {
            true => index,
            false => self.fit.index_of(hand)?,
        };
        self.answer_entry(p, def, hand, index)
    }

    /// [`ByCounts::answer`] for a hand whose entry is `index`.
    #[inline]
    fn answer_entry(&self, p: &Program, def: &ScoreDef, hand: CardSet, index: u32) -> Option<bool> {
        match *self.entries.get(index as usize)? {
            SEARCH => None,
            NO => Some(false),
            YES => Some(true),
            i => {
                let split = self.splits.get(usize::from(i - SPLIT))?;
                split.answer(p, def, hand)
            }
        }
    }
}

impl Split {
    /// The answer on `hand`, whose one split this is: the requires left to the cards,
    /// in order, then the yaku rows, as the search asks them; `None` when a rest has no
    /// answer (the search then gives up too, and the guard is evaluated in full).
    fn answer(&self, p: &Program, def: &ScoreDef, hand: CardSet) -> Option<bool> {
        let pat = p.patterns.get(def.over.as_ref()?.0 as usize)?;
        let pf = pat.prefilter.as_ref()?;
        let n = pat.slots.len().min(GROUPS);
        let mut groups = [CardSet::EMPTY; GROUPS];
        for (g, &k) in groups.iter_mut().zip(&self.class[..n]) {
            *g = hand.inter(*pf.classes.get(k as usize)?);
        }
        let gs = &groups[..n];
        if let Some(key) = self.requires {
            let st = pf.requires.as_ref()?.stage(0)?;
            for j in 0..pat.requires.len() {
                if !st.holds_on(j, key as usize, gs)? {
                    return Some(false);
                }
            }
        }
        let key = match self.yaku {
            Ok(yes) => return Some(yes),
            Err(key) => key as usize,
        };
        super::pays::rows_hold(def, def.plan.as_ref()?.stage(0)?, key, gs)
    }
}

/// The entry of the count vector `hand` stands for (a hand with those counts): the
/// answer for every such hand (`Ok`), the split and what is left to ask (`Err`), or
/// `None` (ask the search), as `pays`'s search would find them.
fn entry(
    def: &ScoreDef,
    pat: &PatternDef,
    pf: &Prefilter,
    hand: CardSet,
) -> Option<Result<bool, Split>> {
    let groups = crate::pattern::one_way(pat, hand)?;
    let mut class = [0u8; GROUPS];
    for (c, g) in class.iter_mut().zip(&groups) {
        if g.is_empty() {
            return None;
        }
        let k = pf.classes.iter().position(|k| g.minus(*k).is_empty())?;
        *c = u8::try_from(k).ok()?;
    }
    // The requires: settled by the classes, or asked of the cards under a key.
    let mut requires = None;
    if !pat.requires.is_empty() {
        let pl = pf.requires.as_ref()?;
        let st = pl.stage(0)?;
        let key = st.key(&pl.classes(&groups), &[])?;
        match st.rows(key) {
            Some(m) if m.count_ones() as usize != pat.requires.len() => return Some(Ok(false)),
            Some(_) => {}
            None => requires = Some(u32::try_from(key).ok()?),
        }
    }
    // The yaku rows, keyed by the classes alone (`sign_by_yaku` checked that).
    let plan = def.plan.as_ref()?;
    let st = plan.stage(0)?;
    let key = st.key(&plan.classes(&groups), &[])?;
    let yaku = match st.rows(key) {
        Some(m) => Ok(m != 0),
        None => Err(u32::try_from(key).ok()?),
    };
    Some(match (requires, yaku) {
        (None, Ok(yes)) => Ok(yes),
        _ => Err(Split {
            class,
            requires,
            yaku,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::GameRng;

    /// A compiled ruleset of the repository.
    fn program(name: &str, text: &str) -> Program {
        let files = crate::loader::MemoryFiles(vec![
            (
                "sangohana.fuda".into(),
                include_str!("../../../../rulesets/sangohana.fuda").into(),
            ),
            (
                "sangohana-strict.fuda".into(),
                include_str!("../../../../rulesets/sangohana-strict.fuda").into(),
            ),
        ]);
        match crate::compile(name, text, &files) {
            Ok(c) => c.program,
            Err(f) => panic!("{:#?}", f.diagnostics),
        }
    }

    /// On hands of two or three kinds (many of which may fit), the counts answer as
    /// the search does whenever they answer, and they answer most: settled both ways
    /// (no: counts that cannot fit), and by the cards (a 素 five-group with and without
    /// a same-month pair) both ways.
    #[test]
    fn the_counts_answer_as_the_search_does() {
        let p = program(
            "sangohana.fuda",
            include_str!("../../../../rulesets/sangohana.fuda"),
        );
        let t = p.score_named("役代").expect("役代");
        let def = &p.scores[t as usize];
        let table = def
            .by_counts
            .as_ref()
            .expect("built for the win guards' table");
        let pat = &p.patterns[def.over.as_ref().expect("over").0 as usize];
        let classes = &pat.prefilter.as_ref().expect("prefilter").classes;
        let mut rng = GameRng::new(11);
        // Eight-card hands: [settled no, settled yes, by the cards no, by the cards
        // yes, left to the search].
        let mut seen = [0usize; 5];
        for _ in 0..40_000 {
            let mut pool = CardSet::EMPTY;
            for _ in 0..2 + rng.below(2) {
                pool = pool.union(classes[rng.below(classes.len() as u32) as usize]);
            }
            let pool: Vec<u16> = pool.iter().collect();
            let mut hand = CardSet::EMPTY;
            while hand.len() < 8.min(pool.len()) {
                hand.insert(pool[rng.below(pool.len() as u32) as usize]);
            }
            // Fewer than eight cards (a pool of one small kind) are left to the search.
            let Some(index) = table.fit.index_of(hand) else {
                continue;
            };
            let searched = super::super::pays::searched(&p, def, hand);
            let Some(answer) = table.answer(&p, def, hand) else {
                seen[4] += 1;
                continue;
            };
            assert_eq!(Some(answer), searched, "{hand:?}");
            let by_cards = table.entries[index as usize] >= SPLIT;
            seen[usize::from(by_cards) * 2 + usize::from(answer)] += 1;
        }
        assert!(seen[..4].iter().all(|n| *n > 100), "{seen:?}");
        // Every count vector of the bundled ruleset's hands is tabulated.
        assert_eq!(seen[4], 0, "{seen:?}");
    }

    /// Tables a guard does not ask exactly (the strict variants' factors read a
    /// parameter) keep no counts: the full evaluation answers them.
    #[test]
    fn only_exact_tables_are_tabulated() {
        for (name, text) in [
            (
                "strict.fuda",
                include_str!("../../../../rulesets/sangohana-strict.fuda"),
            ),
            (
                "kasu3.fuda",
                include_str!("../../../../rulesets/sangohana-strict-kasu3.fuda"),
            ),
        ] {
            let p = program(name, text);
            let t = p.score_named("役代").expect("役代");
            assert!(p.scores[t as usize].by_counts.is_none(), "{name}");
        }
    }
}
