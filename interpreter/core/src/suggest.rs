//! "Did you mean": the closest known name by edit distance.

/// The candidate closest to `word`, if it is close enough to be a likely typo.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let w: Vec<char> = word.chars().collect();
    let limit = (w.len() / 3).max(1) + usize::from(w.len() > 6);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c == word {
            continue;
        }
        let d = distance(&w, &c.chars().collect::<Vec<_>>());
        if d <= limit && best.map(|(bd, _)| d < bd).unwrap_or(true) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c.to_string())
}

/// Levenshtein distance over chars (Japanese names are compared per character).
fn distance(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn finds_typos() {
        assert_eq!(closest("手礼", ["手札", "山札", "捨て札"]), Some("手札".into()));
        assert_eq!(closest("chisp", ["chips", "pot"]), Some("chips".into()));
        assert_eq!(closest("zzzzzz", ["chips", "pot"]), None);
    }
}
