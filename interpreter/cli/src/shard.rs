//! Shards of a batch: `fuda simulate --shard I/N` plays the games i of the batch with
//! i % N = I, and with `--json` writes, beside its report, what `fuda merge` needs to
//! add the shards up to the report of the whole batch: the running sums, and what
//! makes two reports parts of one batch (the ruleset's text, the seed, the games…).

use fuda_core::Program;
use serde::{Deserialize, Serialize};

use crate::stats::Sums;

/// Which games of a batch a run plays: game i when i % `count` = `index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// I, from 0.
    pub index: u64,
    /// N, at least 1.
    pub count: u64,
}

impl Shard {
    /// Every game: a run without `--shard`.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// How many of a batch's first `games` games are this shard's.
    pub fn games_of(&self, games: u64) -> u64 {
        games.saturating_sub(self.index).div_ceil(self.count)
    }

    /// The index in the batch of the shard's `j`-th game (from 0).
    pub fn game(&self, j: u64) -> u64 {
        self.index + j * self.count
    }

    /// Whether game `i` of the batch is this shard's.
    pub fn owns(&self, i: u64) -> bool {
        i % self.count == self.index
    }
}

/// Reads `--shard I/N`: 0 ≤ I < N. A clap value parser, so a bad one is a usage
/// error that says what was wrong.
pub fn parse(s: &str) -> Result<Shard, String> {
    let form = "give it as I/N, the shard I (from 0) of N: `--shard 0/4` … `--shard 3/4`";
    let Some((i, n)) = s.split_once('/') else {
        return Err(format!("`{s}` is not I/N; {form}"));
    };
    let number = |t: &str, what: &str| {
        t.trim()
            .parse::<u64>()
            .map_err(|_| format!("`{t}` is not a whole number ({what}); {form}"))
    };
    let (index, count) = (number(i, "the shard I")?, number(n, "the count N")?);
    if count == 0 {
        return Err(format!("`{s}`: there is at least one shard; {form}"));
    }
    if index >= count {
        return Err(format!(
            "`{s}`: shards are numbered from 0, so the last of {count} is {}/{count}",
            count - 1
        ));
    }
    Ok(Shard { index, count })
}

/// What a shard report carries beside the report of its games (`"shard"` in its
/// `--json`): which shard it is, what its batch is, and its running sums.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShardState {
    /// I: the shard plays games i with i % N = I.
    pub index: u64,
    /// N: how many shards the batch is split into.
    pub count: u64,
    /// Games of the whole batch (`--games`): this shard's are some of them.
    pub games: u64,
    /// The fuda version that played the games: another may play them otherwise.
    pub fuda: String,
    /// A hash of the ruleset's source texts, the files it imports included, so that
    /// shards of another text of the same name are not added up.
    pub ruleset_hash: String,
    /// Every parameter of the ruleset with its value in the games, defaults included,
    /// as `[name, value]`: `--set deals=2` and a default of 2 play the same games.
    pub params: Vec<(String, String)>,
    /// How the text report names the final standings: `chips`, or `points` for a game
    /// without a ledger.
    pub measure: String,
    /// The roles' names for the seat count played, from the dealer on.
    pub roles: Vec<String>,
    /// The shard's running sums, to be merged with the other shards'.
    pub sums: Sums,
}

/// The fuda version, written into every shard report.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The ruleset's source texts, hashed: the file and everything it imports, in the
/// order they were loaded (not their paths, which may differ between machines).
pub fn ruleset_hash(p: &Program) -> String {
    crate::replay::texts_hash(p.sources.iter().map(|s| &*s.text))
}

/// Every parameter's value in the games, `[name, value]`, in declaration order.
pub fn params(p: &Program, values: &[fuda_core::value::Value]) -> Vec<(String, String)> {
    p.params
        .iter()
        .zip(values)
        .map(|(d, v)| (d.name.clone(), fuda_core::engine::show::value(p, v)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_specs() {
        assert_eq!(parse("2/3"), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(parse("0/1"), Ok(Shard::WHOLE));
        for (bad, says) in [
            ("3/3", "the last of 3 is 2/3"),
            ("0/0", "at least one shard"),
            ("x", "`x` is not I/N"),
            ("1/x", "`x` is not a whole number (the count N)"),
            ("-1/3", "`-1` is not a whole number (the shard I)"),
        ] {
            let e = parse(bad).expect_err(bad);
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn shards_split_the_games() {
        let games = 10;
        let mut seen = vec![0; games as usize];
        for index in 0..4 {
            let s = Shard { index, count: 4 };
            let mine: Vec<u64> = (0..s.games_of(games)).map(|j| s.game(j)).collect();
            assert!(mine.iter().all(|i| s.owns(*i) && *i < games), "{mine:?}");
            for i in mine {
                seen[i as usize] += 1;
            }
        }
        assert_eq!(seen, vec![1; games as usize], "each game in one shard");
        assert_eq!(Shard { index: 5, count: 7 }.games_of(3), 0);
        assert_eq!(Shard::WHOLE.games_of(16), 16);
    }

    #[test]
    fn texts_are_hashed_apart() {
        use crate::replay::{text_hash, texts_hash};
        assert_eq!(texts_hash(["ruleset"]), text_hash("ruleset"));
        assert_eq!(text_hash(""), "fnv1a64:cbf29ce484222325");
        assert_ne!(texts_hash(["rule", "set"]), texts_hash(["rules", "et"]));
        assert_ne!(texts_hash(["rule", "set"]), texts_hash(["ruleset"]));
    }
}
