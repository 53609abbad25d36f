//! The rule file `rulesets/sangohana.fuda` as the tests that check it from outside see
//! it: compiled, its 役代 table found by name, and its arguments (hand, 和了, first_turn,
//! as_dealt) placed by parameter name, so the oracle and the yardstick ask the engine
//! exactly the same question.

use fuda_core::loader::NoFiles;
use fuda_core::model::{CardIx, CardSet};
use fuda_core::score::score_with;
use fuda_core::value::{ScoreResult, SymDomain, Type, Value};
use fuda_core::Program;

/// The bundled 珊瑚花 ruleset's text.
pub const RULESET: &str = include_str!("../rulesets/sangohana.fuda");

/// The compiled rule file and its 役代 table.
pub struct Table {
    /// The compiled rule file.
    pub p: Program,
    /// The 役代 table's index.
    pub table: u16,
    /// The `win` parameter's values: 上がり and 当たり.
    agari: Value,
    atari: Value,
    /// Parameter positions of hand, win, first_turn, as_dealt.
    at: [usize; 4],
}

impl Table {
    /// Compiles the rule file (its `import "std/hanafuda"` is the stdlib compiled into
    /// fuda-core, so no files are needed) and finds 役代 and its parameters.
    pub fn new() -> Table {
        let p = fuda_core::compile("sangohana.fuda", RULESET, &NoFiles)
            .unwrap_or_else(|f| panic!("sangohana.fuda does not compile: {:#?}", f.diagnostics))
            .program;
        let table = p
            .score_named("役代")
            .expect("sangohana.fuda has a score table 役代");
        let params = &p.scores[table as usize].params;
        let pos = |name: &str| {
            params
                .iter()
                .position(|(n, ..)| n == name)
                .unwrap_or_else(|| panic!("役代 has no parameter `{name}`"))
        };
        let at = [pos("hand"), pos("win"), pos("first_turn"), pos("as_dealt")];
        let sym = |want: &str| -> Value {
            let Type::Sym(SymDomain::Enum(e)) = &params[at[1]].1 else {
                panic!("役代's `win` is not an enum: {:?}", params[at[1]].1)
            };
            let s = p.enums[*e as usize]
                .values
                .iter()
                .map(|(s, _)| *s)
                .find(|&s| p.sym(s) == want)
                .unwrap_or_else(|| panic!("`win` has no value {want}"));
            Value::Sym(s)
        };
        let (agari, atari) = (sym("上がり"), sym("当たり"));
        Table {
            p,
            table,
            agari,
            atari,
            at,
        }
    }

    /// The engine's card with id `id` (matched by id, not assumed from an order).
    pub fn card(&self, id: &str) -> CardIx {
        self.p
            .deck
            .ids
            .iter()
            .position(|i| i == id)
            .unwrap_or_else(|| panic!("the engine's deck has no card `{id}`")) as CardIx
    }

    /// 役代 of `hand` won by 当たり (`atari`) or 上がり, in the given timing context.
    pub fn score(
        &self,
        hand: CardSet,
        atari: bool,
        first_turn: bool,
        as_dealt: bool,
    ) -> Result<ScoreResult, String> {
        let mut args = vec![None; self.p.scores[self.table as usize].params.len()];
        args[self.at[0]] = Some(Value::Cards(hand));
        args[self.at[1]] = Some(if atari {
            self.atari.clone()
        } else {
            self.agari.clone()
        });
        args[self.at[2]] = Some(Value::Bool(first_turn));
        args[self.at[3]] = Some(Value::Bool(as_dealt));
        score_with(&self.p, self.table, args).map_err(|e| e.message.clone())
    }
}

impl Default for Table {
    fn default() -> Self {
        Table::new()
    }
}
