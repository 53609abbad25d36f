//! How far a set of cards is from matching a pattern: the fewest cards still missing
//! when the cards are spread over the pattern's groups as far as their shapes allow.
//! Computer players use it as a generic measure of closeness to a win.

use crate::engine::{Cx, RuntimeError};
use crate::ir::{PatternDef, Prefilter, ShapeDef, SlotDef};
use crate::model::{CardIx, CardSet};

/// The result of a distance search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Distance {
    /// Cards still missing from the best partial split.
    pub missing: usize,
}

/// The fewest cards missing for `cards` to fill the pattern (0 when a subset of the cards
/// fits every group's shape; whole-match constraints are not considered).
pub fn distance(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    cards: CardSet,
) -> Result<Distance, RuntimeError> {
    distance_in(cx, pat, cards, &mut DistanceScratch::default())
}

/// Lists a distance search works in, kept by a caller that asks many times (a computer
/// player asks once per move it weighs) so that a search allocates nothing.
#[derive(Clone, Debug, Default)]
pub struct DistanceScratch {
    /// The partial group chosen at each depth.
    groups: Vec<CardSet>,
    /// The candidates at each depth, larger first; reused by every branch there.
    lists: Vec<Vec<CardSet>>,
    /// Candidates as listed, before ordering (consumed before the search goes deeper).
    raw: Vec<CardSet>,
    /// How many candidates of each size (for the ordering).
    sizes: Vec<usize>,
    /// Cards with their values, for listing runs.
    values: Vec<(CardIx, i64, i64)>,
    /// What [`by_parts`] found for one part, for every choice of groups at once, by the
    /// pattern's address and the part's cards (as the lowest copies): a player weighing its moves asks again
    /// about the suits a move left alone (three of a mahjong hand's four parts). Kept
    /// for one program (`program`) and emptied when it grows past [`MEMO_ENTRIES`].
    memo: std::collections::HashMap<(usize, CardSet), Vec<usize>>,
    /// What a whole search found, by the pattern's address and the cards it could read
    /// (as the lowest copies).
    whole: std::collections::HashMap<(usize, CardSet), usize>,
    /// How [`by_parts`] splits each pattern asked about, by its address (`None`: it
    /// cannot).
    plans: Vec<(usize, Option<std::sync::Arc<Plan>>)>,
    /// The program the memo's patterns belong to, by address.
    program: usize,
}

/// Most entries [`DistanceScratch`] remembers before it forgets them all.
const MEMO_ENTRIES: usize = 1 << 16;

/// [`distance`] with lists kept across calls.
pub fn distance_in(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    cards: CardSet,
    scratch: &mut DistanceScratch,
) -> Result<Distance, RuntimeError> {
    if pat.is_union() {
        // The nearest of its alternatives.
        let p = cx.p;
        let mut best: Option<Distance> = None;
        for alt in &pat.alternatives {
            if let Some(q) = p.patterns.get(alt.pattern as usize) {
                let d = distance_in(cx, q, cards, scratch)?;
                if best.is_none_or(|b| d.missing < b.missing) {
                    best = Some(d);
                }
            }
        }
        return Ok(best.unwrap_or(Distance { missing: pat.size }));
    }
    // Class counts say nothing of a group that may hold only some cards of a class.
    let every = cx.p.deck.all();
    let unrestricted = pat.slots.iter().all(|s| every.is_subset(&s.allowed));
    if let Some(missing) = pat
        .prefilter
        .as_ref()
        .filter(|_| unrestricted)
        .and_then(|pf| by_class_counts(pf, &pat.slots, cards))
    {
        return Ok(Distance { missing });
    }
    if let Some(d) = by_parts(cx, pat, cards, scratch) {
        return d;
    }
    // The search reads only the cards some group may take, and cannot tell copies apart
    // outside `told_apart`: a player weighing move after move asks about the same few
    // again (a pattern of honours and terminals sees a handful of a hand's tiles).
    let within = pat
        .slots
        .iter()
        .fold(CardSet::EMPTY, |a, s| a.union(s.allowed));
    let cards = lowest_copies(&cx.p.deck, cards.inter(within), pat.told_apart);
    remember_for(scratch, cx.p);
    let key = (pat as *const PatternDef as usize, cards);
    if let Some(&missing) = scratch.whole.get(&key) {
        return Ok(Distance { missing });
    }
    let d = search(cx, pat, cards, scratch)?;
    scratch.whole.insert(key, d.missing);
    Ok(d)
}

/// Empties the memos of `scratch` when they belong to another program than `p` or have
/// grown past [`MEMO_ENTRIES`].
fn remember_for(scratch: &mut DistanceScratch, p: &crate::ir::Program) {
    let program = p as *const crate::ir::Program as usize;
    if scratch.program != program || scratch.memo.len() + scratch.whole.len() > MEMO_ENTRIES {
        scratch.memo.clear();
        scratch.whole.clear();
        scratch.plans.clear();
        scratch.program = program;
    }
}

/// The most assignments of groups to classes [`by_class_counts`] weighs; a pattern
/// with more is searched instead.
const MOST_ASSIGNMENTS: usize = 4096;

/// The distance of a pattern whose groups are all `same` on one attribute (it has a
/// [`Prefilter`]), worked out from how many cards each class holds: a group takes cards
/// of one class, and which of them it takes does not change how many the others can
/// take, so the best partial split places `min(demand, count)` cards in each class for
/// the best assignment of groups to classes. This is what the search below finds for
/// such a pattern (a test compares the two), without listing a single subset. `None`
/// when there are too many assignments to weigh.
fn by_class_counts(pf: &Prefilter, slots: &[SlotDef], cards: CardSet) -> Option<usize> {
    let mut counts = [0usize; MOST_CLASSES];
    let mut touched = 0;
    for class in &pf.classes {
        let k = cards.inter(*class).len();
        if k > 0 {
            // A class no card of the hand is in takes nothing: as good as no class.
            *counts.get_mut(touched)? = k;
            touched += 1;
        }
    }
    // Each group goes to a touched class or to none.
    let ways = (touched + 1).checked_pow(u32::try_from(slots.len()).ok()?)?;
    if ways > MOST_ASSIGNMENTS {
        return None;
    }
    let total: usize = slots.iter().map(|s| s.size).sum();
    let placed = most_placed(slots, &mut counts[..touched], total);
    Some(total - placed)
}

/// Classes [`by_class_counts`] keeps on the stack; a hand touching more is searched.
const MOST_CLASSES: usize = 16;

/// The most cards the groups `slots` can take from classes holding `left` cards, each
/// group from one class (or none); stops early once every group could be filled
/// (`want` cards).
fn most_placed(slots: &[SlotDef], left: &mut [usize], want: usize) -> usize {
    let Some((slot, rest)) = slots.split_first() else {
        return 0;
    };
    let mut best = most_placed(rest, left, want);
    for k in 0..left.len() {
        let take = slot.size.min(left[k]);
        if take == 0 {
            continue;
        }
        left[k] -= take;
        let placed = take + most_placed(rest, left, want - slot.size);
        left[k] += take;
        best = best.max(placed);
        if best == want {
            break;
        }
    }
    best
}

/// The most usage vectors [`by_parts`] weighs per part (how many copies of each kind of
/// group a part may take); a pattern with more is searched whole.
const MOST_USES: usize = 256;

/// The distance of a pattern whose every group lies within one value of an attribute —
/// a mahjong hand's melds and pair each stay in one suit (`same face`, `run number by
/// suit`) — worked out part by part: the cards are split by that attribute, each part is
/// searched alone for every way of giving it some of the groups, and the parts' bests
/// are combined. The parts do not compete for cards, so this is the whole search's
/// answer (a test compares the two); but searching 14 tiles at once multiplies the
/// choices of every suit together, where parts only add them. `None` when the pattern
/// has no such attribute, the hand lies in one part, there are too many ways, or the
/// hand is much larger than the pattern.
fn by_parts(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    cards: CardSet,
    scratch: &mut DistanceScratch,
) -> Option<Result<Distance, RuntimeError>> {
    // With many more cards than the pattern takes, a whole match is likely, and the
    // search of the whole hand stops at the first it finds; the parts would each be
    // searched in full for every choice of groups.
    if cards.len() > pat.size + pat.size / 2 {
        return None;
    }
    let deck = &cx.p.deck;
    remember_for(scratch, cx.p);
    let pattern = pat as *const PatternDef as usize;
    let plan = match scratch.plans.iter().find(|(at, _)| *at == pattern) {
        Some((_, plan)) => plan.clone(),
        None => {
            let plan = Plan::of(deck, pat).map(std::sync::Arc::new);
            scratch.plans.push((pattern, plan.clone()));
            plan
        }
    }?;
    let parts: Vec<CardSet> = deck
        .classes(plan.attr)
        .iter()
        .map(|c| c.inter(cards))
        .filter(|c| !c.is_empty())
        .collect();
    let (kinds, ways, decoded) = (&plan.kinds, plan.ways, &plan.decoded);
    // One part is searched whole, unless its counts say it all: by parts it would be
    // searched once for every choice of groups.
    if parts.len() < 2
        && !parts
            .iter()
            .all(|&part| super::by_counts::applies(deck, &pat.slots, kinds, part))
    {
        return None;
    }
    let uses_of = |code: usize| &decoded[code * kinds.len()..(code + 1) * kinds.len()];
    let mut order: Vec<Place> = Vec::new();
    // placed[code]: the most cards the groups taken so far place in the parts so far,
    // having used the groups `code` counts.
    let mut placed: Vec<Option<usize>> = vec![None; ways];
    placed[0] = Some(0);
    let mut next: Vec<Option<usize>> = Vec::with_capacity(ways);
    let mut part_best: Vec<usize> = Vec::with_capacity(ways);
    for part in &parts {
        // Copies the pattern cannot tell apart place alike: the part is remembered as the
        // lowest copies of its faces, so that a hand holding other copies finds it too.
        let part = lowest_copies(deck, *part, pat.told_apart);
        // The most this part alone places with each choice of groups, remembered for all
        // the choices at once (a part recurs as the player weighs move after move).
        part_best.clear();
        match scratch.memo.get(&(pattern, part)) {
            Some(known) => part_best.extend_from_slice(known),
            None => {
                let mut steps = 0;
                let by_counts = super::by_counts::part_table(
                    deck,
                    &pat.slots,
                    kinds,
                    part,
                    &mut part_best,
                    &mut steps,
                );
                if let Err(e) = cx.charge(steps) {
                    return Some(Err(e));
                }
                for code in (0..ways).filter(|_| !by_counts) {
                    order.clear();
                    for ((slot, _), k) in kinds.iter().zip(uses_of(code)) {
                        for j in 0..*k {
                            order.push(Place {
                                slot: *slot,
                                copy: j > 0,
                            });
                        }
                    }
                    let want: usize = order.iter().map(|p| pat.slots[p.slot].size).sum();
                    part_best.push(match search_slots(cx, &pat.slots, &order, part, scratch) {
                        Ok(missing) => want - missing,
                        Err(e) => return Some(Err(e)),
                    });
                }
                scratch.memo.insert((pattern, part), part_best.clone());
            }
        }
        // Combine: every choice so far with every choice for this part that fits.
        next.clear();
        next.resize(ways, None);
        for (code, so_far) in placed.iter().enumerate() {
            let Some(so_far) = so_far else { continue };
            let sums = &plan.sum[code * ways..(code + 1) * ways];
            for (&sum, pb) in sums.iter().zip(&part_best) {
                if sum != NO_SUM {
                    let v = so_far + pb;
                    let at = &mut next[sum as usize];
                    if at.is_none_or(|x| x < v) {
                        *at = Some(v);
                    }
                }
            }
        }
        std::mem::swap(&mut placed, &mut next);
    }
    let most = placed.iter().flatten().copied().max().unwrap_or(0);
    Some(Ok(Distance {
        missing: pat.size - most.min(pat.size),
    }))
}

/// How [`by_parts`] splits a pattern, worked out once per pattern: the attribute every
/// group keeps one value of, the kinds of group (a slot and its copies, and how many),
/// and each choice of groups (`uses`: how many of each kind, as one number in mixed
/// radix, kind 0 lowest) decoded.
#[derive(Debug)]
pub(super) struct Plan {
    attr: u16,
    kinds: Vec<(usize, usize)>,
    ways: usize,
    decoded: Vec<usize>,
    /// `sum[a * ways + b]`: the choice using the groups of choices `a` and `b` together,
    /// or [`NO_SUM`] when that is more of some kind than the pattern has. Worked out once
    /// per pattern: the parts' choices are combined for every distance asked.
    sum: Vec<u16>,
}

/// In [`Plan::sum`]: two choices that together use more groups than there are.
const NO_SUM: u16 = u16::MAX;

impl Plan {
    /// The plan for `pat`, or `None` when its groups may mix values of every attribute
    /// or it has too many choices of groups.
    fn of(deck: &crate::model::Deck, pat: &PatternDef) -> Option<Plan> {
        let attr = within_one(deck, &pat.slots)?;
        let kinds = super::by_counts::kinds_of(&pat.slots);
        let ways = kinds
            .iter()
            .try_fold(1usize, |w, (_, n)| w.checked_mul(n + 1))
            .filter(|w| *w <= MOST_USES)?;
        let mut decoded: Vec<usize> = Vec::with_capacity(ways * kinds.len());
        for mut code in 0..ways {
            for (_, n) in &kinds {
                decoded.push(code % (n + 1));
                code /= n + 1;
            }
        }
        let mut sum = Vec::with_capacity(ways * ways);
        for a in 0..ways {
            for b in 0..ways {
                let (da, db) = (&decoded[a * kinds.len()..], &decoded[b * kinds.len()..]);
                let (mut code, mut scale, mut fits) = (0, 1, true);
                for (k, (_, n)) in kinds.iter().enumerate() {
                    if da[k] + db[k] > *n {
                        fits = false;
                        break;
                    }
                    code += (da[k] + db[k]) * scale;
                    scale *= n + 1;
                }
                sum.push(if fits { code as u16 } else { NO_SUM });
            }
        }
        Some(Plan {
            attr,
            kinds,
            ways,
            decoded,
            sum,
        })
    }
}

/// `cards` with each card the pattern cannot tell from its copies (outside `told`)
/// traded for the lowest copies of its face: the same faces, as many of each, so any
/// search over the pattern's shapes finds the same (`compile/copies.rs`).
fn lowest_copies(deck: &crate::model::Deck, cards: CardSet, told: CardSet) -> CardSet {
    let mut out = cards.inter(told);
    for c in cards.minus(told).iter() {
        let copies = deck
            .faces
            .get(c as usize)
            .and_then(|f| deck.face_cards.get(*f as usize));
        // The first copy of the face not yet taken (the cards come in deck order, so the
        // face's earlier cards in `cards` took the ones before).
        match copies.and_then(|cs| cs.iter().find(|&&k| !out.contains(k))) {
            Some(&k) => out.insert(k),
            None => out.insert(c),
        }
    }
    out
}

/// An attribute every group of the pattern keeps one value of, whatever its shape:
/// `run A by S` keeps `S`, and `same A` keeps every attribute `A` decides (a tile's face
/// decides its suit). `None` when some group may mix values (no shape, `distinct`, a run
/// without `by`, wild cards, which stand in for any value).
pub(super) fn within_one(deck: &crate::model::Deck, slots: &[SlotDef]) -> Option<u16> {
    let mut candidates: Vec<u16> = Vec::new();
    for slot in slots {
        if !slot.wild.is_empty() {
            return None;
        }
        for shape in &slot.shapes {
            match shape {
                ShapeDef::Same(a) | ShapeDef::Run(_, Some(a)) => {
                    if !candidates.contains(a) {
                        candidates.push(*a)
                    }
                }
                _ => return None,
            }
        }
        if slot.shapes.is_empty() {
            return None;
        }
    }
    candidates.into_iter().find(|s| {
        slots.iter().all(|slot| {
            slot.shapes.iter().all(|shape| match shape {
                ShapeDef::Same(a) | ShapeDef::Run(_, Some(a)) => decides(deck, *a, *s),
                _ => false,
            })
        })
    })
}

/// Whether cards alike in attribute `a` are always alike in `s`.
fn decides(deck: &crate::model::Deck, a: u16, s: u16) -> bool {
    a == s
        || deck.classes(a).iter().all(|class| {
            let mut values = class.iter().map(|c| deck.attr(s, c));
            let first = values.next();
            values.all(|v| Some(v) == first)
        })
}

/// The distance by searching partial splits: each group tries the subsets of the cards
/// left that could grow into it, larger first.
pub(super) fn search(
    cx: &mut Cx<'_>,
    pat: &PatternDef,
    cards: CardSet,
    scratch: &mut DistanceScratch,
) -> Result<Distance, RuntimeError> {
    let order: Vec<Place> = pat
        .slots
        .iter()
        .enumerate()
        .map(|(i, s)| Place {
            slot: i,
            copy: s.copy_of.is_some(),
        })
        .collect();
    let missing = search_slots(cx, &pat.slots, &order, cards, scratch)?;
    Ok(Distance { missing })
}

/// One group to place in a search: which slot of the pattern it is, and whether it is a
/// further copy of the group placed just before it (copies are placed in the order of
/// their lowest cards, so that each set of them is tried once).
#[derive(Clone, Copy, Debug)]
struct Place {
    slot: usize,
    copy: bool,
}

/// The fewest cards missing when the groups `order` lists are filled from `cards`.
fn search_slots(
    cx: &mut Cx<'_>,
    slots: &[SlotDef],
    order: &[Place],
    cards: CardSet,
    scratch: &mut DistanceScratch,
) -> Result<usize, RuntimeError> {
    let n = order.len();
    let mut best: usize = order.iter().map(|p| slots[p.slot].size).sum();
    scratch.groups.clear();
    scratch.groups.resize(n, CardSet::EMPTY);
    if scratch.lists.len() < n {
        scratch.lists.resize_with(n, Vec::new);
    }
    go(cx, slots, order, 0, cards, 0, scratch, &mut best)?;
    Ok(best)
}

#[allow(clippy::too_many_arguments)]
fn go(
    cx: &mut Cx<'_>,
    slots: &[SlotDef],
    order: &[Place],
    i: usize,
    rest: CardSet,
    missing: usize,
    scratch: &mut DistanceScratch,
    best: &mut usize,
) -> Result<(), RuntimeError> {
    if missing >= *best {
        return Ok(());
    }
    if i == order.len() {
        *best = missing;
        return Ok(());
    }
    cx.charge(1)?;
    let slot = &slots[order[i].slot];
    let floor = order[i]
        .copy
        .then(|| scratch.groups[i - 1].first().unwrap_or(0));
    let mut subsets = std::mem::take(&mut scratch.lists[i]);
    scratch.raw.clear();
    partial_fits(cx, slot, rest, floor, &mut scratch.raw, &mut scratch.values);
    // Larger partial groups first, so good bounds come early.
    by_size_descending(&scratch.raw, &mut scratch.sizes, &mut subsets);
    let mut result = Ok(());
    for s in &subsets {
        scratch.groups[i] = *s;
        result = go(
            cx,
            slots,
            order,
            i + 1,
            rest.minus(*s),
            missing + slot.size - s.len(),
            scratch,
            best,
        );
        if result.is_err() || *best == 0 {
            break;
        }
    }
    scratch.lists[i] = subsets;
    scratch.groups[i] = CardSet::EMPTY;
    result
}

/// `raw` into `out`, larger sets first and sets of one size in their order in `raw` (a
/// counting sort: the sizes are small, and a comparison sort counted each set's cards
/// over and over).
fn by_size_descending(raw: &[CardSet], counts: &mut Vec<usize>, out: &mut Vec<CardSet>) {
    out.clear();
    let largest = raw.iter().map(|s| s.len()).max().unwrap_or(0);
    counts.clear();
    counts.resize(largest + 2, 0);
    for s in raw {
        counts[largest - s.len() + 1] += 1;
    }
    // counts[r]: where the sets of rank r (size largest - r) start.
    for r in 1..counts.len() {
        counts[r] += counts[r - 1];
    }
    out.resize(raw.len(), CardSet::EMPTY);
    for s in raw {
        let r = largest - s.len();
        out[counts[r]] = *s;
        counts[r] += 1;
    }
}

/// Maximal-ish subsets of `rest` that could grow into the slot: within one class for
/// `same`, distinct and close for `run`, distinct for `distinct`. Includes the empty set.
fn partial_fits(
    cx: &Cx<'_>,
    slot: &SlotDef,
    rest: CardSet,
    floor: Option<CardIx>,
    out: &mut Vec<CardSet>,
    values: &mut Vec<(CardIx, i64, i64)>,
) {
    let deck = &cx.p.deck;
    // The cards the slot may take (above the floor, and as its condition allows card by
    // card), in card order.
    let pool = match floor {
        Some(f) => super::above(rest, f),
        None => rest,
    }
    .inter(slot.allowed);
    out.push(CardSet::EMPTY);
    let k = slot.size;
    if slot.shapes.is_empty() {
        out.push(pool.iter().take(k).collect());
        return;
    }
    if !slot.wild.is_empty() {
        // Wild cards alone: the start of a group its natural cards are yet to join.
        out.push(pool.inter(slot.wild).iter().take(k - 1).collect());
    }
    for shape in &slot.shapes {
        match shape {
            ShapeDef::Same(_) | ShapeDef::Run(..) if !slot.wild.is_empty() => {
                super::wild::partials(deck, slot, shape, pool, out);
            }
            ShapeDef::Same(a) => {
                // The pool's classes, found from its own cards: a hand touches a few of
                // the deck's classes (14 tiles, 34 faces).
                values.clear();
                values.extend(pool.iter().map(|c| (c, deck.attr(*a, c), 0)));
                for (j, &(_, v0, _)) in values.iter().enumerate() {
                    if values[..j].iter().any(|&(_, v, _)| v == v0) {
                        continue;
                    }
                    let cs: CardSet = values
                        .iter()
                        .filter(|&&(_, v, _)| v == v0)
                        .map(|&(c, ..)| c)
                        .collect();
                    // Any k of a class serve alike for the bound; when the class is larger,
                    // which ones stay out matters for the other groups, so try each choice.
                    if cs.len() <= k {
                        if !cs.is_empty() {
                            out.push(cs);
                        }
                    } else if super::binomial(cs.len(), k) <= 256 {
                        super::combos(cs, k, out);
                    } else {
                        // Too many choices to try each: any k of the class bound the
                        // distance equally well for this group.
                        out.push(cs.iter().take(k).collect());
                    }
                }
            }
            ShapeDef::Distinct(a) => {
                // The pool's cards by value, values in order of their first card.
                let mut by_value: Vec<(i64, CardSet)> = Vec::new();
                for c in pool.iter() {
                    let v = deck.attr(*a, c);
                    match by_value.iter_mut().find(|(x, _)| *x == v) {
                        Some((_, set)) => set.insert(c),
                        None => by_value.push((v, CardSet::single(c))),
                    }
                }
                let m = k.min(by_value.len());
                if distinct_choices(&by_value, m) <= 256 {
                    // Which card stands for a value matters to the other groups: try
                    // every choice of m values and one card of each.
                    pick_distinct(&by_value, m, CardSet::EMPTY, out);
                } else {
                    // Too many to try: the first card of each of the first m values.
                    out.push(
                        by_value[..m]
                            .iter()
                            .map(|(_, set)| set.first().unwrap_or(0))
                            .collect(),
                    );
                }
            }
            ShapeDef::Run(a, by) => {
                // Each card's value and `by` value, read once (a hand of 14 tiles asked
                // the deck a thousand times otherwise).
                values.clear();
                values.extend(
                    pool.iter()
                        .map(|c| (c, deck.attr(*a, c), by.map_or(0, |b| deck.attr(b, c)))),
                );
                for (j, &(_, v0, suit)) in values.iter().enumerate() {
                    // A copy of an earlier start (same value and suit) makes the same run.
                    if values[..j].iter().any(|&(_, v, s)| v == v0 && s == suit) {
                        continue;
                    }
                    let mut s = CardSet::EMPTY;
                    for d in 0..k as i64 {
                        let want = v0.checked_add(d);
                        if let Some(&(c, ..)) = values
                            .iter()
                            .find(|&&(_, v, s2)| Some(v) == want && s2 == suit)
                        {
                            s.insert(c);
                        }
                    }
                    out.push(s);
                }
            }
        }
    }
}

/// How many ways there are to take `m` cards of distinct values from `by_value`
/// (saturating).
fn distinct_choices(by_value: &[(i64, CardSet)], m: usize) -> u64 {
    // ways[j]: ways to take j cards from the values seen so far.
    let mut ways = vec![0u64; m + 1];
    ways[0] = 1;
    for (_, set) in by_value {
        let n = set.len() as u64;
        for j in (1..=m).rev() {
            ways[j] = ways[j].saturating_add(ways[j - 1].saturating_mul(n));
        }
    }
    ways[m]
}

/// Every set of `m` cards of distinct values from `by_value`, added to `acc`.
fn pick_distinct(by_value: &[(i64, CardSet)], m: usize, acc: CardSet, out: &mut Vec<CardSet>) {
    if m == 0 {
        out.push(acc);
        return;
    }
    for i in 0..by_value.len().saturating_sub(m - 1) {
        for c in by_value[i].1.iter() {
            let mut next = acc;
            next.insert(c);
            pick_distinct(&by_value[i + 1..], m - 1, next, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_are_ordered_by_size_and_stably() {
        let mut rng = crate::model::GameRng::new(3);
        let (mut counts, mut out) = (Vec::new(), Vec::new());
        for _ in 0..200 {
            let n = rng.below(40) as usize;
            let raw: Vec<CardSet> = (0..n)
                .map(|_| {
                    let k = rng.below(6) as usize;
                    (0..k).map(|_| rng.below(48) as CardIx).collect()
                })
                .collect();
            let mut want = raw.clone();
            want.sort_by_key(|s| std::cmp::Reverse(s.len()));
            by_size_descending(&raw, &mut counts, &mut out);
            assert_eq!(out, want);
        }
    }
}
