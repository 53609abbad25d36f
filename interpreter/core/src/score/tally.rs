//! What a table's stages found for one split, as symbols and numbers: cheap to fill and
//! compare across splits; made into text only for the split that is kept
//! (`score/result.rs`).

use crate::ir::NameDef;

/// Lines kept inline before a list is allocated (a table rarely finds more).
const INLINE_LINES: usize = 8;

/// The (symbol, value) lines a stage found, kept inline while they are few, so scoring a
/// split allocates nothing.
pub(super) struct Lines {
    inline: [(u32, i64); INLINE_LINES],
    len: usize,
    spilled: bool,
    more: Vec<(u32, i64)>,
}

impl Lines {
    fn new() -> Self {
        Lines {
            inline: [(0, 0); INLINE_LINES],
            len: 0,
            spilled: false,
            more: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.len = 0;
        if self.spilled {
            self.spilled = false;
            self.more.clear();
        }
    }

    #[inline]
    pub(super) fn as_slice(&self) -> &[(u32, i64)] {
        if self.spilled {
            &self.more
        } else {
            &self.inline[..self.len]
        }
    }

    pub(super) fn push(&mut self, line: (u32, i64)) {
        if !self.spilled && self.len < INLINE_LINES {
            self.inline[self.len] = line;
            self.len += 1;
        } else {
            if !self.spilled {
                self.more.extend_from_slice(&self.inline[..self.len]);
                self.spilled = true;
            }
            self.more.push(line);
        }
    }

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }

    #[inline]
    pub(super) fn first(&self) -> Option<(u32, i64)> {
        self.as_slice().first().copied()
    }

    /// Drops the lines of symbol `sym`.
    pub(super) fn remove(&mut self, sym: u32) {
        if self.spilled {
            self.more.retain(|(s, _)| *s != sym);
        } else {
            let mut k = 0;
            for j in 0..self.len {
                if self.inline[j].0 != sym {
                    self.inline[k] = self.inline[j];
                    k += 1;
                }
            }
            self.len = k;
        }
    }
}

/// What the stages found for one split.
pub(super) struct Tally<'d> {
    pub(super) yaku: Lines,
    pub(super) bonus: Lines,
    pub(super) factor: i64,
    pub(super) name: Option<&'d NameDef>,
}

impl Tally<'_> {
    pub(super) fn new() -> Self {
        Tally {
            yaku: Lines::new(),
            bonus: Lines::new(),
            factor: 1,
            name: None,
        }
    }

    /// Back to nothing found, for the next split.
    pub(super) fn clear(&mut self) {
        self.yaku.clear();
        self.bonus.clear();
        self.factor = 1;
        self.name = None;
    }

    /// What the split pays: base × factor + bonus, 0 without a yaku.
    pub(super) fn total(&self) -> i64 {
        if self.yaku.is_empty() {
            return 0;
        }
        let base = saturating_sum(self.yaku.as_slice());
        let extra = saturating_sum(self.bonus.as_slice());
        base.saturating_mul(self.factor).saturating_add(extra)
    }
}

/// The sum of the values, saturating (a table's values are the rule file's, untrusted).
pub(super) fn saturating_sum(lines: &[(u32, i64)]) -> i64 {
    lines.iter().fold(0i64, |a, (_, v)| a.saturating_add(*v))
}
