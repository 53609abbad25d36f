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
        // A suggestion must keep at least one character of the word: otherwise any
        // one-letter name would "correct" to any other.
        if d <= limit && d < w.len() && best.map(|(bd, _)| d < bd).unwrap_or(true) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c.to_string())
}

/// Edit distance over chars with adjacent transpositions counted as one edit (optimal
/// string alignment), since swapped letters are the commonest typo. Japanese names are
/// compared per character.
fn distance(a: &[char], b: &[char]) -> usize {
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[n][m]
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
}
