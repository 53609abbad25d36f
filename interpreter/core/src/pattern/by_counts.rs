//! The distance of one part of a hand (one suit, say) worked out from how many cards it
//! holds of each value, for patterns whose groups are `same` and `run` shapes: the
//! count-vector recursion mahjong's shanten calculators use, written for any sizes.
//!
//! Only the cards' values matter to such groups, so the part is a row of counts, and
//! each card of the lowest value left is either left out or starts a group there: a
//! `same` group takes as many of that value as it holds (giving it fewer never places
//! more: the card moved from another group places as much there), a run takes one of
//! each value of its window that the part holds (the same exchange). That covers every
//! split the search in `distance.rs` weighs, so the two agree (a test compares them);
//! this one remembers the rows it has seen instead of listing subsets.

use crate::ir::{ShapeDef, SlotDef};
use crate::model::{CardSet, Deck};
use std::collections::HashMap;

/// Most distinct values a part may hold for the recursion (a row of counts is packed
/// in 64 bits, four bits a value).
const MOST_VALUES: usize = 16;
/// Most rows one part may work out: a mahjong suit takes a few hundred, and a hostile
/// pattern (hundreds of cards of a few values) is left to the search, whose every step
/// is charged to the evaluation's budget.
const MOST_ROWS: u64 = 100_000;

/// The most cards each choice of groups places in `part` (`out[code]`, choices as
/// `by_parts` numbers them: `kinds[i].1` groups of slot `kinds[i].0`, mixed radix), or
/// `false` (and `out` untouched) when the part's cards are not a row of values every
/// shape reads alike: then the search must do. `steps` counts the rows worked out.
pub(super) fn part_table(
    deck: &Deck,
    slots: &[SlotDef],
    kinds: &[(usize, usize)],
    part: CardSet,
    out: &mut Vec<usize>,
    steps: &mut u64,
) -> bool {
    let Some(row) = Row::of(deck, slots, kinds, part, false) else {
        return false;
    };
    let mut memo: HashMap<(u64, u32), u8> = HashMap::new();
    let radix: Vec<u32> = kinds.iter().map(|(_, n)| *n as u32 + 1).collect();
    let ways: u32 = radix.iter().product();
    let start = out.len();
    for code in 0..ways {
        let placed = row.most(row.counts, code, &radix, &mut memo, steps);
        if *steps > MOST_ROWS {
            out.truncate(start);
            return false;
        }
        out.push(placed as usize);
    }
    true
}

/// Whether [`part_table`] can work `part` out by its counts.
pub(super) fn applies(
    deck: &Deck,
    slots: &[SlotDef],
    kinds: &[(usize, usize)],
    part: CardSet,
) -> bool {
    Row::of(deck, slots, kinds, part, false).is_some()
}

/// A part as counts by value, and what each kind of group does with them.
#[derive(Clone, Debug)]
struct Row {
    /// The attribute whose value each card is read by.
    key: u16,
    /// The distinct values, in increasing order.
    values: Vec<i64>,
    /// How many cards of each value, four bits each (value `i` at bits `4i`).
    counts: u64,
    /// Per kind of group: its size and whether it may be a `same` and/or a run.
    kinds: Vec<Kind>,
}

/// What one kind of group (a slot and its copies) may be.
#[derive(Clone, Debug)]
struct Kind {
    size: usize,
    same: bool,
    run: bool,
}

impl Row {
    /// The row of `part`, when every shape of the groups reads the part's cards by one
    /// value: cards alike in one of the attributes the shapes use are alike in all, a
    /// run's attribute tells the values apart (its `by` attribute holds one value over
    /// the part), and every group may hold every card of the part.
    ///
    /// With `exact` (whole groups only, for deciding a match), a part whose cards all
    /// share the runs' attribute (a suit of honours, all numbered 0) can hold no run of
    /// two or more: its runs are left out and its cards read by the `same` attribute.
    fn of(
        deck: &Deck,
        slots: &[SlotDef],
        kinds: &[(usize, usize)],
        part: CardSet,
        exact: bool,
    ) -> Option<Row> {
        let mut attrs: Vec<u16> = Vec::new();
        let mut run_attr: Option<u16> = None;
        let mut out_kinds = Vec::with_capacity(kinds.len());
        let no_runs = exact && runs_impossible(deck, slots, kinds, part);
        for (slot, _) in kinds {
            let slot = &slots[*slot];
            if !slot.wild.is_empty() || slot.shapes.is_empty() || !part.is_subset(&slot.allowed) {
                return None;
            }
            let (mut same, mut run) = (false, false);
            for shape in &slot.shapes {
                match shape {
                    ShapeDef::Same(a) => {
                        same = true;
                        attrs.push(*a);
                    }
                    ShapeDef::Run(..) if no_runs => {}
                    ShapeDef::Run(a, by) => {
                        run = true;
                        if run_attr.is_some_and(|r| r != *a) {
                            return None;
                        }
                        run_attr = Some(*a);
                        attrs.push(*a);
                        if let Some(b) = by {
                            let mut vs = part.iter().map(|c| deck.attr(*b, c));
                            let first = vs.next();
                            if !vs.all(|v| Some(v) == first) {
                                return None;
                            }
                        }
                    }
                    ShapeDef::Distinct(_) => return None,
                }
            }
            out_kinds.push(Kind {
                size: slot.size,
                same,
                run,
            });
        }
        let key = run_attr.or_else(|| attrs.first().copied())?;
        // Each card's value; two cards with one value must agree on every attribute the
        // shapes read, and two with different values must differ on each.
        let cards: Vec<_> = part.iter().collect();
        for (i, &c) in cards.iter().enumerate() {
            for &d in &cards[..i] {
                let alike = deck.attr(key, c) == deck.attr(key, d);
                if attrs
                    .iter()
                    .any(|&a| (deck.attr(a, c) == deck.attr(a, d)) != alike)
                {
                    return None;
                }
            }
        }
        let mut values: Vec<i64> = cards.iter().map(|&c| deck.attr(key, c)).collect();
        values.sort_unstable();
        values.dedup();
        if values.len() > MOST_VALUES {
            return None;
        }
        let mut counts = 0u64;
        for &c in &cards {
            let i = values.binary_search(&deck.attr(key, c)).ok()?;
            let n = (counts >> (4 * i)) & 15;
            if n == 15 {
                return None;
            }
            counts += 1 << (4 * i);
        }
        Some(Row {
            key,
            values,
            counts,
            kinds: out_kinds,
        })
    }

    /// The most cards groups can place from `counts` with at most the groups `left`
    /// says of each kind (mixed radix `radix`).
    fn most(
        &self,
        counts: u64,
        left: u32,
        radix: &[u32],
        memo: &mut HashMap<(u64, u32), u8>,
        steps: &mut u64,
    ) -> u8 {
        if counts == 0 || left == 0 {
            return 0;
        }
        if let Some(&m) = memo.get(&(counts, left)) {
            return m;
        }
        *steps += 1;
        // Past the limit the answer is thrown away (see `part_table`): stop at once.
        if *steps > MOST_ROWS {
            return 0;
        }
        let i = (counts.trailing_zeros() / 4) as usize;
        let n = ((counts >> (4 * i)) & 15) as usize;
        // One card of the lowest value left out.
        let mut best = self.most(counts - (1 << (4 * i)), left, radix, memo, steps);
        let mut scale = 1u32;
        for (k, kind) in self.kinds.iter().enumerate() {
            let have = (left / scale) % radix[k];
            if have > 0 {
                let rest = left - scale;
                if kind.same {
                    let t = kind.size.min(n);
                    let after = counts - ((t as u64) << (4 * i));
                    best = best.max(t as u8 + self.most(after, rest, radix, memo, steps));
                }
                if kind.run {
                    let (mut after, mut t) = (counts, 0u8);
                    let v0 = self.values[i];
                    for (j, &v) in self.values.iter().enumerate().skip(i) {
                        // Values past the window (or past the integers) end the run.
                        if v.checked_sub(v0).is_none_or(|d| d >= kind.size as i64) {
                            break;
                        }
                        if (after >> (4 * j)) & 15 > 0 {
                            after -= 1 << (4 * j);
                            t += 1;
                        }
                    }
                    best = best.max(t + self.most(after, rest, radix, memo, steps));
                }
            }
            scale *= radix[k];
        }
        memo.insert((counts, left), best);
        best
    }
}

/// Whether no run of the groups can form in `part`: every run is two or more long and
/// the part's cards all share the runs' attribute.
fn runs_impossible(
    deck: &Deck,
    slots: &[SlotDef],
    kinds: &[(usize, usize)],
    part: CardSet,
) -> bool {
    let mut any = false;
    for (slot, _) in kinds {
        let slot = &slots[*slot];
        for shape in &slot.shapes {
            if let ShapeDef::Run(a, _) = shape {
                any = true;
                let mut vs = part.iter().map(|c| deck.attr(*a, c));
                let first = vs.next();
                if slot.size < 2 || !vs.all(|v| Some(v) == first) {
                    return false;
                }
            }
        }
    }
    any
}

/// What deciding a whole match by counts needs of a pattern, worked out when the
/// program is compiled (`plan`): the attribute that splits a hand into parts no group
/// crosses (a suit), and how the kinds of group (a slot and its copies) are coded.
#[derive(Clone, Debug)]
pub struct CountsPlan {
    attr: u16,
    radix: Vec<u32>,
    /// The code of every group used.
    full: u32,
    /// Per class of `attr` (in the deck's order), its cards read as a row of values
    /// (`Row::of` of the whole class, whose checks then hold for any part of it), or
    /// `None` when they cannot be.
    rows: Vec<Option<Row>>,
    /// Each card's place among its class's values (`u8::MAX`: none).
    index: Vec<u8>,
    /// For each slot `from` (and one past the last), the code of the groups its slots
    /// from `from` on make: what the split search asks at every node.
    left_from: Vec<u32>,
}

/// The pattern's kinds of group: each slot that is no copy, and how many slots it and
/// its copies (`*N`) make.
pub(super) fn kinds_of(slots: &[SlotDef]) -> Vec<(usize, usize)> {
    slots
        .iter()
        .enumerate()
        .filter(|(_, s)| s.copy_of.is_none())
        .map(|(i, _)| (i, 1 + slots.iter().filter(|s| s.copy_of == Some(i)).count()))
        .collect()
}

/// Most choices of groups a counts plan may have (codes are bits of a `u128`).
const MOST_CODES: u32 = 128;

/// The counts plan of `pat`, when whether a hand matches it is decided by the hand's
/// counts alone: groups of `same` and `run` shapes within one class of some attribute,
/// and nothing else asked of them (no `where`, no `require`, no wildcards).
pub(crate) fn plan(deck: &Deck, pat: &crate::ir::PatternDef) -> Option<CountsPlan> {
    if pat.is_union()
        || !pat.requires.is_empty()
        || pat.slots.is_empty()
        || pat
            .slots
            .iter()
            .any(|s| s.condition.is_some() || !s.wild.is_empty() || s.shapes.is_empty())
    {
        return None;
    }
    let attr = super::distance::within_one(deck, &pat.slots)?;
    let kinds = kinds_of(&pat.slots);
    let radix: Vec<u32> = kinds.iter().map(|(_, n)| *n as u32 + 1).collect();
    let ways = radix
        .iter()
        .try_fold(1u32, |w, r| w.checked_mul(*r))
        .filter(|w| *w <= MOST_CODES)?;
    let full = ways - 1;
    let mut index = vec![u8::MAX; deck.len()];
    let rows = deck
        .classes(attr)
        .iter()
        .map(|class| {
            // A row holds at most 15 cards of each of its values: a larger class is
            // never one (and is not compared card with card).
            if class.len() > MOST_VALUES * 15 {
                return None;
            }
            let row = Row::of(deck, &pat.slots, &kinds, *class, true)?;
            for c in class.iter() {
                let at = row.values.binary_search(&deck.attr(row.key, c)).ok()?;
                index[c as usize] = at as u8;
            }
            Some(row)
        })
        .collect();
    let left_from = (0..=pat.slots.len())
        .map(|from| {
            let mut code = 0u32;
            let mut scale = 1u32;
            for ((slot, _), r) in kinds.iter().zip(&radix) {
                let left = pat
                    .slots
                    .iter()
                    .enumerate()
                    .skip(from)
                    .filter(|(i, s)| *i == *slot || s.copy_of == Some(*slot))
                    .count() as u32;
                code += left * scale;
                scale *= r;
            }
            code
        })
        .collect();
    Some(CountsPlan {
        attr,
        radix,
        full,
        rows,
        index,
        left_from,
    })
}

/// Whether `hand`, with the `formed` sets each a whole group, splits into `pat`'s
/// groups, decided part by part from the counts (the recursion of [`Row::exact`]) and
/// the parts' choices of groups combined; `None` when some part cannot be read by its
/// counts, or it would take more than [`MOST_ROWS`] steps (the search must do).
/// `steps` counts the rows worked out.
pub(crate) fn matches(
    deck: &Deck,
    plan: &CountsPlan,
    hand: CardSet,
    formed: &[CardSet],
    steps: &mut u64,
) -> Option<bool> {
    let classes = deck.classes(plan.attr);
    let mut reach = parts_reach(plan, classes, hand, steps)?;
    for f in formed {
        // A group lies within one class: a formed set across classes is no group.
        if classes.iter().filter(|c| !c.inter(*f).is_empty()).count() != 1 {
            return Some(false);
        }
        let k = classes.iter().position(|c| !c.inter(*f).is_empty())?;
        let one_group = exact_codes(plan, k, *f, steps)? & single_groups(&plan.radix);
        reach = combine(reach, one_group, &plan.radix);
        if reach == 0 {
            return Some(false);
        }
    }
    Some(reach >> plan.full & 1 == 1)
}

/// Whether `rest` can split into the groups of the plan's pattern's slots from `from` on (a search
/// that has placed the groups before `from`): `false` only when it certainly cannot, so
/// the search may leave the branch. `None` when the counts cannot tell.
pub(crate) fn splits_into(
    deck: &Deck,
    plan: &CountsPlan,
    rest: CardSet,
    from: usize,
    steps: &mut u64,
) -> Option<bool> {
    // The code of the groups left (their slots from `from` on).
    let want = *plan.left_from.get(from)?;
    let reach = parts_reach(plan, deck.classes(plan.attr), rest, steps)?;
    Some(reach >> want & 1 == 1)
}

/// The choices of groups (codes) that take exactly the cards of `cards`, its parts in
/// `classes` (the classes of `plan.attr`) each taking some of the groups; `None` when
/// some part cannot be read by its counts.
fn parts_reach(
    plan: &CountsPlan,
    classes: &[CardSet],
    cards: CardSet,
    steps: &mut u64,
) -> Option<u128> {
    let mut reach: u128 = 1;
    for (k, class) in classes.iter().enumerate() {
        let part = class.inter(cards);
        if part.is_empty() {
            continue;
        }
        reach = combine(reach, exact_codes(plan, k, part, steps)?, &plan.radix);
        if reach == 0 {
            break;
        }
    }
    Some(reach)
}

/// The choices of groups (codes) that take exactly the cards of `part`, which lies in
/// class `k`.
fn exact_codes(plan: &CountsPlan, k: usize, part: CardSet, steps: &mut u64) -> Option<u128> {
    let row = plan.rows.get(k)?.as_ref()?;
    let mut counts = 0u64;
    for c in part.iter() {
        let at = *plan.index.get(c as usize)?;
        if at == u8::MAX || (counts >> (4 * at)) & 15 == 15 {
            return None;
        }
        counts += 1 << (4 * at);
    }
    let mut out = 0u128;
    row.exact(counts, 0, &plan.radix, &mut out, steps);
    (*steps <= MOST_ROWS).then_some(out)
}

/// The codes that use exactly one group.
fn single_groups(radix: &[u32]) -> u128 {
    let mut out = 0u128;
    let mut scale = 1u32;
    for r in radix {
        out |= 1 << scale;
        scale *= r;
    }
    out
}

/// Every sum of a code in `a` and one in `b` that uses no kind of group more often than
/// it has.
fn combine(a: u128, b: u128, radix: &[u32]) -> u128 {
    let mut out = 0u128;
    for x in bits(a) {
        for y in bits(b) {
            let (mut sx, mut sy, mut fits) = (x, y, true);
            for r in radix {
                if sx % r + sy % r >= *r {
                    fits = false;
                    break;
                }
                sx /= r;
                sy /= r;
            }
            if fits {
                out |= 1 << (x + y);
            }
        }
    }
    out
}

/// The positions of the bits set in `set`.
fn bits(mut set: u128) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros();
            set &= set - 1;
            i
        })
    })
}

impl Row {
    /// Adds to `out` each code, from `used` on, whose groups take exactly `counts`: the
    /// lowest value left starts a `same` group of it or a run from it (whole groups
    /// only, so no card is left out).
    fn exact(&self, counts: u64, used: u32, radix: &[u32], out: &mut u128, steps: &mut u64) {
        if counts == 0 {
            *out |= 1 << used;
            return;
        }
        *steps += 1;
        if *steps > MOST_ROWS {
            return;
        }
        let i = (counts.trailing_zeros() / 4) as usize;
        let n = ((counts >> (4 * i)) & 15) as usize;
        let mut scale = 1u32;
        for (k, kind) in self.kinds.iter().enumerate() {
            if (used / scale) % radix[k] + 1 < radix[k] {
                if kind.same && n >= kind.size {
                    let after = counts - ((kind.size as u64) << (4 * i));
                    self.exact(after, used + scale, radix, out, steps);
                }
                if kind.run {
                    let v0 = self.values[i];
                    let mut after = counts;
                    let whole = (0..kind.size).all(|j| {
                        let at = i + j;
                        let here = self.values.get(at).copied();
                        let present =
                            here == v0.checked_add(j as i64) && (after >> (4 * at)) & 15 > 0;
                        if present {
                            after -= 1 << (4 * at);
                        }
                        present
                    });
                    if whole {
                        self.exact(after, used + scale, radix, out, steps);
                    }
                }
            }
            scale *= radix[k];
        }
    }
}
