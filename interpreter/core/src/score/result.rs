//! The displayed result of a table, built once from the tally of the split it kept.
//!
//! Names are the table's shared text ([`super::names`]) and a result's lists hold up to
//! two items in place ([`Short`]), so a result of one or two yaku and two groups
//! allocates nothing: it only counts references to the table's names.

use super::names::Namer;
use super::tally::{saturating_sum, Tally};
use crate::ir::{NameDef, PatternDef};
use crate::model::CardSet;
use crate::value::{ScoreResult, Short, Text, YakuLine};

/// A table's result when nothing scores.
pub(super) fn nothing() -> ScoreResult {
    ScoreResult {
        factor: 1,
        ..ScoreResult::default()
    }
}

/// The result of `t`, with the split's groups `gs` of pattern `pat` when there is one.
#[inline]
pub(super) fn build(
    names: Namer<'_>,
    t: &Tally<'_>,
    groups: Option<(&PatternDef, &[CardSet])>,
) -> ScoreResult {
    let yaku = t.yaku.as_slice();
    let factor = t.factor;
    let name = t.name.map(|n| match n {
        NameDef::Fixed(s) => names.sym(*s),
        NameDef::Template(tpl) => {
            let y = yaku.first().map(|(s, _)| names.sym(*s)).unwrap_or_default();
            Text::from(
                tpl.replace("{yaku}", &y)
                    .replace("{factor}", &factor.to_string()),
            )
        }
    });
    let (groups, shape) = match groups {
        Some((pat, gs)) => (
            gs.iter()
                .take(pat.slots.len())
                .enumerate()
                // Over alternatives, the groups of the shapes that did not hold are empty.
                .filter(|(_, g)| !(pat.is_union() && g.is_empty()))
                .map(|(i, g)| (names.group(pat, i), *g))
                .collect(),
            crate::pattern::shape_of(pat, gs).map(|k| names.shape(pat, k)),
        ),
        None => (Short::new(), None),
    };
    let mut r = finish(names, yaku, t.bonus.as_slice(), factor, name, groups);
    r.shape = shape;
    r
}

/// Builds the displayed result from what the stages found (made in one piece, in the
/// place it is returned to: a result is a few hundred bytes).
#[inline]
fn finish(
    names: Namer<'_>,
    yaku: &[(u32, i64)],
    bonus: &[(u32, i64)],
    factor: i64,
    name: Option<Text>,
    groups: Short<(Text, CardSet)>,
) -> ScoreResult {
    let base = saturating_sum(yaku);
    let extra = saturating_sum(bonus);
    let name = name.unwrap_or_else(|| match yaku {
        [(s, _)] => names.sym(*s),
        _ => Text::from(
            yaku.iter()
                .map(|(s, _)| names.sym(*s))
                .collect::<Vec<_>>()
                .join("・"),
        ),
    });
    let line = |(s, v): &(u32, i64)| YakuLine {
        name: names.sym(*s),
        value: *v,
    };
    let base_yaku: Short<YakuLine> = yaku.iter().map(line).collect();
    // Kept apart from the lines too, so statistics can count a bonus row by its name
    // (the lines mix it with yaku under their final names); the lines share its text.
    let bonuses: Short<YakuLine> = bonus.iter().map(line).collect();
    // The lines people read add up to the total: a single multiplied yaku is shown under
    // its final name and value (赤五光 40, 素役の2倍付け 2); several yaku keep their own
    // values, with the multiplication as a line of its own.
    let lines: Short<YakuLine> = if factor == 1 || yaku.is_empty() {
        if bonus.is_empty() {
            base_yaku.clone()
        } else {
            base_yaku
                .iter()
                .cloned()
                .chain(bonuses.iter().cloned())
                .collect()
        }
    } else if yaku.len() == 1 {
        std::iter::once(YakuLine {
            name: name.clone(),
            value: base.saturating_mul(factor),
        })
        .chain(bonuses.iter().cloned())
        .collect()
    } else {
        base_yaku
            .iter()
            .cloned()
            .chain(std::iter::once(YakuLine {
                name: Text::from(format!("×{factor}")),
                value: base.saturating_mul(factor.saturating_sub(1)),
            }))
            .chain(bonuses.iter().cloned())
            .collect()
    };
    let total = if yaku.is_empty() {
        0
    } else {
        base.saturating_mul(factor).saturating_add(extra)
    };
    ScoreResult {
        name,
        yaku: lines,
        base_yaku,
        bonuses,
        base,
        factor: if yaku.is_empty() { 1 } else { factor },
        bonus: extra,
        total,
        groups,
        shape: None,
    }
}
