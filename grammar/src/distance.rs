//! How far apart two words are, for "did you mean": the parser's keyword hints and the
//! checker's name suggestions rank candidates by the same measure.

/// Edit distance over chars with adjacent transpositions counted as one edit (optimal
/// string alignment), since swapped letters are the commonest typo; Japanese names are
/// compared per character.
pub fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
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
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::edit_distance;

    fn d(a: &str, b: &str) -> usize {
        edit_distance(
            &a.chars().collect::<Vec<_>>(),
            &b.chars().collect::<Vec<_>>(),
        )
    }

    #[test]
    fn counts_edits_and_swaps() {
        assert_eq!(d("repeat", "repeat"), 0);
        assert_eq!(d("repaet", "repeat"), 1);
        assert_eq!(d("上がり", "上り"), 1);
        assert_eq!(d("", "abc"), 3);
    }
}
