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

/// How far a mistyped name is from a declared one, in half edits, weighing each edit by
/// how easily a person makes it: leaving out or adding a kana (okurigana such as the て
/// of 捨て札) or a `_`/`-` is half an edit; a letter in the other case, or a hiragana for
/// its katakana (か/カ), is half an edit; any other change, and a swap of neighbours, is
/// one. So `捨札` is nearer `捨て札` (half an edit) than `山札` (one).
pub fn typo_distance(a: &[char], b: &[char]) -> usize {
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in 1..=a.len() {
        d[i][0] = d[i - 1][0] + indel_cost(a[i - 1]);
    }
    for j in 1..=b.len() {
        d[0][j] = d[0][j - 1] + indel_cost(b[j - 1]);
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let mut v = (d[i - 1][j] + indel_cost(a[i - 1]))
                .min(d[i][j - 1] + indel_cost(b[j - 1]))
                .min(d[i - 1][j - 1] + substitution_cost(a[i - 1], b[j - 1]));
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 2);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// Half edits to leave out or add `c`.
fn indel_cost(c: char) -> usize {
    if is_kana(c) || matches!(c, '_' | '-' | 'ー' | '・') {
        1
    } else {
        2
    }
}

/// Half edits to type `x` for `y`.
fn substitution_cost(x: char, y: char) -> usize {
    if x == y {
        0
    } else if x.eq_ignore_ascii_case(&y) || same_kana(x, y) {
        1
    } else {
        2
    }
}

/// Hiragana and katakana, with the prolonged sound mark.
fn is_kana(c: char) -> bool {
    matches!(c, '\u{3041}'..='\u{3096}' | '\u{30A1}'..='\u{30FA}' | 'ー')
}

/// A hiragana and the katakana of the same sound (they are 0x60 apart in Unicode).
fn same_kana(x: char, y: char) -> bool {
    let hira = |c: char| matches!(c, '\u{3041}'..='\u{3096}');
    let (x, y) = (x as u32, y as u32);
    (hira(char::from_u32(x).unwrap_or(' ')) && y == x + 0x60)
        || (hira(char::from_u32(y).unwrap_or(' ')) && x == y + 0x60)
}

/// Whether every character of `short` appears in `long`, in order: a name with a
/// character left out (or one added) is such a subsequence of the other.
pub fn is_subsequence(short: &[char], long: &[char]) -> bool {
    let mut rest = long.iter();
    short.iter().all(|c| rest.any(|l| l == c))
}

#[cfg(test)]
mod tests {
    use super::{edit_distance, is_subsequence, typo_distance};

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

    fn t(a: &str, b: &str) -> usize {
        typo_distance(
            &a.chars().collect::<Vec<_>>(),
            &b.chars().collect::<Vec<_>>(),
        )
    }

    #[test]
    fn easy_slips_cost_half_an_edit() {
        assert_eq!(t("捨札", "捨て札"), 1);
        assert_eq!(t("捨札", "山札"), 2);
        assert_eq!(t("Chips", "chips"), 1);
        assert_eq!(t("あがり", "アがり"), 1);
        assert_eq!(t("chisp", "chips"), 2);
        assert_eq!(t("first_turn", "firstturn"), 1);
        assert_eq!(t("", "abc"), 6);
    }

    #[test]
    fn subsequences() {
        let c = |s: &str| s.chars().collect::<Vec<_>>();
        assert!(is_subsequence(&c("捨札"), &c("捨て札")));
        assert!(!is_subsequence(&c("捨札"), &c("山札")));
        assert!(is_subsequence(&c(""), &c("x")));
    }
}
