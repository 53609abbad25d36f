//! "Did you mean": the known name a person most likely meant.
//!
//! Names are compared in Unicode NFKC: `上がり` typed with a separate voiced mark (NFD,
//! as some systems save text), or `ＡＢ` typed in full width, looks like the declared
//! name but is another string, and would otherwise be many edits away.

use fuda_grammar::distance::{is_subsequence, typo_distance};
use unicode_normalization::UnicodeNormalization;

/// Names longer than this get no suggestion, nor are suggested: the distance's table
/// grows with the product of the two lengths, and a slip is made in a name one types.
const LONGEST: usize = 64;

/// How near a candidate is, smallest first: half edits, then whether it does not hold
/// the word's characters in order (nor they it), then the length of their shared start,
/// longest first.
type Rank = (usize, bool, std::cmp::Reverse<usize>);

/// The candidate closest to `word`, if it is close enough to be a likely typo.
///
/// Candidates are ranked by [`typo_distance`] (half an edit for a kana left out, a
/// letter's case, a hiragana for a katakana); between equally near ones, a name that
/// holds the word's characters in order (or is held in it: a character left out or
/// added), then the one sharing the longest start with it, then the first declared.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let w: Vec<char> = word.nfkc().take(LONGEST + 1).collect();
    if w.len() > LONGEST {
        return None;
    }
    // In half edits: a third of the word's characters, at least one, one more for a
    // long word.
    let limit = 2 * ((w.len() / 3).max(1) + usize::from(w.len() > 6));
    let mut best: Option<(Rank, &str)> = None;
    for c in candidates {
        if c == word {
            continue;
        }
        let cand: Vec<char> = c.nfkc().take(LONGEST + 1).collect();
        // Each character more or fewer costs half an edit at least: a name whose length
        // is too far off is not measured (nor is one too long to be a likely slip).
        if cand.len() > LONGEST || cand.len().abs_diff(w.len()) > limit {
            continue;
        }
        let d = typo_distance(&w, &cand);
        // A suggestion must keep at least one character of the word: otherwise any
        // one-letter name would "correct" to any other.
        if d > limit || d >= 2 * w.len() {
            continue;
        }
        let nested = is_subsequence(&w, &cand) || is_subsequence(&cand, &w);
        let prefix = w.iter().zip(&cand).take_while(|(a, b)| a == b).count();
        let key = (d, !nested, std::cmp::Reverse(prefix));
        if best.as_ref().is_none_or(|(bk, _)| key < *bk) {
            best = Some((key, c));
        }
    }
    best.map(|(_, c)| c.to_string())
}

/// "did you mean `S`?", saying so when `word` differs from `suggestion` only in how its
/// characters are composed, since the two look identical on screen.
pub fn did_you_mean(word: &str, suggestion: &str) -> String {
    if !word.nfc().eq(suggestion.nfc()) && word.nfkc().eq(suggestion.nfkc()) {
        return format!(
            "did you mean `{suggestion}`? It differs only in full-width and half-width forms \
             (such as `Ａ` for `A`), so it is another name"
        );
    }
    if word.nfc().eq(suggestion.nfc()) {
        // Either side may be the decomposed one: say which.
        let here_decomposed = !word.chars().eq(word.nfc());
        let which = if here_decomposed {
            "the name here is written with decomposed characters"
        } else {
            "the declared name is written with decomposed characters"
        };
        format!(
            "did you mean `{suggestion}`? It looks the same, but {which} (a letter and a separate combining mark, such as a voiced-sound mark), so it is another name: type one of them again"
        )
    } else {
        format!("did you mean `{suggestion}`?")
    }
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn finds_typos() {
        assert_eq!(
            closest("手礼", ["手札", "山札", "捨て札"]),
            Some("手札".into())
        );
        assert_eq!(closest("chisp", ["chips", "pot"]), Some("chips".into()));
        assert_eq!(closest("zzzzzz", ["chips", "pot"]), None);
        assert_eq!(closest("n", ["光", "m"]), None);
        assert_eq!(closest("山礼", ["手札", "山札"]), Some("山札".into()));
    }

    #[test]
    fn ranks_by_what_a_person_types() {
        // A kana left out is nearer than a kanji changed, whatever the order declared.
        assert_eq!(
            closest("捨札", ["山札", "手札", "捨て札"]),
            Some("捨て札".into())
        );
        // Equally near: the one holding the word's characters in order.
        assert_eq!(closest("点数", ["点差", "点数表"]), Some("点数表".into()));
        // Full width, and hiragana for katakana.
        assert_eq!(
            closest("ｃｈｉｐｓ", ["chips", "pot"]),
            Some("chips".into())
        );
        assert_eq!(closest("カス", ["かす", "たね"]), Some("かす".into()));
        assert!(super::did_you_mean("ｃｈｉｐｓ", "chips").contains("full-width"));
    }

    #[test]
    fn very_long_names_are_not_measured() {
        let long = "a".repeat(100_000);
        let other = format!("{}b", "a".repeat(99_999));
        assert_eq!(closest(&long, [other.as_str()]), None);
        assert_eq!(closest("ab", [long.as_str()]), None);
    }

    #[test]
    fn compares_names_in_nfc() {
        // が as か and a combining voiced mark (U+3099).
        let nfd = "上か\u{3099}り";
        assert_eq!(closest(nfd, ["上がり", "流れ"]), Some("上がり".into()));
        assert!(
            super::did_you_mean(nfd, "上がり").contains("the name here is written with decomposed")
        );
        assert!(super::did_you_mean("上がり", nfd)
            .contains("the declared name is written with decomposed"));
        assert_eq!(
            super::did_you_mean("上かり", "上がり"),
            "did you mean `上がり`?"
        );
    }
}
