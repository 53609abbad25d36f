//! 珊瑚花 hands for the scoring benchmark and `examples/scorespeed.rs`: random 8-card
//! hands, and hands drawn towards the winning shape (three of one kind, five of another)
//! so that many of them form a yaku.

use fuda_core::model::{CardSet, GameRng};
use fuda_core::value::Value;
use fuda_core::Program;

/// Eight cards drawn at random from the 48.
pub fn random_hand(rng: &mut GameRng) -> CardSet {
    let mut cards: Vec<u16> = (0..48).collect();
    rng.shuffle(&mut cards);
    cards[..8].iter().copied().collect()
}

/// Three cards of one random kind and five of another (`None` when the two kinds drawn
/// are the same one, or one has too few cards: fewer than eight cards in all).
pub fn shaped_hand(p: &Program, rng: &mut GameRng) -> Option<CardSet> {
    let kinds = p.deck.classes(p.deck.attr_named("kind").expect("kind"));
    let (a, b) = (kinds[rng.below(4) as usize], kinds[rng.below(4) as usize]);
    let pick = |set: CardSet, n: usize, rng: &mut GameRng| -> Vec<u16> {
        let mut v: Vec<u16> = set.iter().collect();
        rng.shuffle(&mut v);
        v.into_iter().take(n).collect()
    };
    let h: CardSet = pick(a, 3, rng)
        .into_iter()
        .chain(pick(b.minus(a), 5, rng))
        .collect();
    (h.len() == 8).then_some(h)
}

/// The arguments a table's total is asked with when only the hand is given: each
/// parameter's constant default (unset otherwise), the hand to be put first.
pub fn default_args(p: &Program, table: u16) -> Vec<Value> {
    p.scores[table as usize]
        .params
        .iter()
        .map(|(_, _, d)| match d {
            Some(fuda_core::ir::Expr::Const(v)) => v.clone(),
            _ => Value::Unit,
        })
        .collect()
}
