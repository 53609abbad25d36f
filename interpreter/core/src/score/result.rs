//! The displayed result of a table, built once from the tally of the split it kept.
//!
//! Names are the table's shared text ([`super::names`]), so a result with one yaku and
//! no factor or bonus costs two allocations: its lines (shared by `yaku` and
//! `base_yaku`) and its groups.

use std::sync::Arc;

use super::names::Namer;
use super::tally::{saturating_sum, Tally};
use crate::ir::{NameDef, PatternDef};
use crate::model::CardSet;
use crate::value::{ScoreResult, Text, YakuLine};

/// A table's result when nothing scores.
pub(super) fn nothing() -> ScoreResult {
    ScoreResult {
        factor: 1,
        ..ScoreResult::default()
    }
}

/// The result of `t`, with the split's groups `gs` of pattern `pat` when there is one.
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
    let mut r = finish(names, yaku, t.bonus.as_slice(), factor, name);
    if let Some((pat, gs)) = groups {
        r.groups = pat
            .slots
            .iter()
            .zip(gs)
            .enumerate()
            .map(|(i, (_, g))| (names.group(pat, i), *g))
            .collect();
    }
    r
}

/// Builds the displayed result from what the stages found.
fn finish(
    names: Namer<'_>,
    yaku: &[(u32, i64)],
    bonus: &[(u32, i64)],
    factor: i64,
    name: Option<Text>,
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
    let base_yaku: Arc<[YakuLine]> = yaku.iter().map(line).collect();
    // The lines people read add up to the total: a single multiplied yaku is shown under
    // its final name and value (赤五光 40, 素役の2倍付け 2); several yaku keep their own
    // values, with the multiplication as a line of its own.
    let lines: Arc<[YakuLine]> = if factor == 1 || yaku.is_empty() {
        if bonus.is_empty() {
            base_yaku.clone()
        } else {
            base_yaku
                .iter()
                .cloned()
                .chain(bonus.iter().map(line))
                .collect()
        }
    } else if yaku.len() == 1 {
        std::iter::once(YakuLine {
            name: name.clone(),
            value: base.saturating_mul(factor),
        })
        .chain(bonus.iter().map(line))
        .collect()
    } else {
        base_yaku
            .iter()
            .cloned()
            .chain(std::iter::once(YakuLine {
                name: Text::from(format!("×{factor}")),
                value: base.saturating_mul(factor.saturating_sub(1)),
            }))
            .chain(bonus.iter().map(line))
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
        base,
        factor: if yaku.is_empty() { 1 } else { factor },
        bonus: extra,
        total,
        groups: Vec::new(),
    }
}
