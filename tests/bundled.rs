//! A bundled ruleset compiled for a test, and the way from a hand-written simulator's card
//! numbers to the engine's.

use fuda_core::loader::NoFiles;
use fuda_core::model::CardIx;
use fuda_core::Program;

/// Compiles bundled rule file `name` (its text `text`), panicking with the diagnostics
/// when it does not compile.
pub fn compile(name: &str, text: &str) -> Program {
    fuda_core::compile(name, text, &NoFiles)
        .unwrap_or_else(|f| panic!("{name} does not compile: {:#?}", f.diagnostics))
        .program
}

/// The engine's card index of each of `ids` (a simulator's cards, in its order), matched
/// by id rather than assumed; panics on an id the deck lacks.
pub fn card_indices<const N: usize>(p: &Program, ids: &[&str; N]) -> [CardIx; N] {
    std::array::from_fn(|c| {
        let id = ids[c];
        p.deck
            .ids
            .iter()
            .position(|i| i == id)
            .unwrap_or_else(|| panic!("the engine's deck has no card `{id}`")) as CardIx
    })
}
