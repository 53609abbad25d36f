//! "Did you mean": the closest known name by edit distance.
//!
//! Names are compared in Unicode NFC: `上がり` typed with a separate voiced mark (NFD,
//! as some systems save text) looks the same as the declared name but is another
//! string, and would otherwise be many edits away.

use fuda_grammar::distance::edit_distance;
use unicode_normalization::UnicodeNormalization;

/// The candidate closest to `word`, if it is close enough to be a likely typo.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let w: Vec<char> = word.nfc().collect();
    let limit = (w.len() / 3).max(1) + usize::from(w.len() > 6);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c == word {
            continue;
        }
        let d = edit_distance(&w, &c.nfc().collect::<Vec<_>>());
        // A suggestion must keep at least one character of the word: otherwise any
        // one-letter name would "correct" to any other.
        if d <= limit && d < w.len() && best.map(|(bd, _)| d < bd).unwrap_or(true) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c.to_string())
}

/// "did you mean `S`?", saying so when `word` differs from `suggestion` only in how its
/// characters are composed, since the two look identical on screen.
pub fn did_you_mean(word: &str, suggestion: &str) -> String {
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
