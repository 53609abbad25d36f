//! The common card-and-tile model: card sets, decks, the seeded generator.

mod cardset;
mod deck;
mod face_sets;
mod rng;

pub use cardset::{CardIx, CardSet, CardSetIter, MAX_CARDS};
pub use deck::{AttrClasses, AttrDef, AttrKind, CardParseError, Deck};
pub use face_sets::{face_sets, face_sets_alike, same_faces, TooManySets, MAX_FACE_SETS};
pub use rng::{splitmix64, GameRng};
