//! Finding the files a ruleset names: the embedded stdlib, or paths below the ruleset's
//! own folder. The core does no I/O itself: the caller supplies a [`Loader`].

/// Reads files below a ruleset's folder. Paths given to it are already checked to be
/// relative and without `..`; rule files end in `.fuda`, data files (word lists) may
/// have any name.
pub trait Loader {
    /// The text of `path` (relative to the ruleset's folder), or a reason it failed.
    fn load(&self, path: &str) -> Result<String, String>;

    /// The text of the data file `path` (a word list), refusing one longer than `max`
    /// bytes. The default reads the file with [`Loader::load`] and then checks its
    /// length; a loader that reads from disk should check the size before reading.
    fn load_data(&self, path: &str, max: usize) -> Result<String, DataError> {
        let text = self.load(path).map_err(DataError::Unreadable)?;
        if text.len() > max {
            return Err(DataError::TooLarge(Some(text.len() as u64)));
        }
        Ok(text)
    }

    /// The rule files (`*.fuda`) in the folder `dir` (relative to the ruleset's folder,
    /// `""` for the folder itself), as paths like those `load` takes: asked only after
    /// an `import` or `extends` is not found, for a did-you-mean. A loader that cannot
    /// list cheaply lists nothing (the default).
    fn rule_files(&self, dir: &str) -> Vec<String> {
        let _ = dir;
        Vec::new()
    }
}

/// The most names [`Loader::rule_files`] returns: a did-you-mean needs no more, and a
/// huge folder is not read whole for one.
pub const MAX_LISTED: usize = 1000;

/// Why a data file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataError {
    /// Missing, unreadable, not UTF-8, or outside the folder: the reason.
    Unreadable(String),
    /// Longer than the limit; its size in bytes when known.
    TooLarge(Option<u64>),
}

/// A loader that finds nothing: for rulesets given as text alone.
pub struct NoFiles;

impl Loader for NoFiles {
    fn load(&self, path: &str) -> Result<String, String> {
        Err(format!("no file system access here (asked for `{path}`)"))
    }
}

/// Files held in memory (tests, fuzzing, embedding).
#[derive(Default)]
pub struct MemoryFiles(pub Vec<(String, String)>);

impl Loader for MemoryFiles {
    fn load(&self, path: &str) -> Result<String, String> {
        self.0
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, t)| t.clone())
            .ok_or_else(|| format!("no file `{path}`"))
    }

    fn rule_files(&self, dir: &str) -> Vec<String> {
        self.0
            .iter()
            .map(|(p, _)| p)
            .filter(|p| p.ends_with(".fuda") && p.rsplit_once('/').map_or("", |(d, _)| d) == dir)
            .take(MAX_LISTED)
            .cloned()
            .collect()
    }
}

/// The standard library, compiled into the binary so it works from any folder.
pub const STDLIB: &[(&str, &str)] = &[
    (
        "std/hanafuda",
        include_str!("../../../stdlib/hanafuda.fuda"),
    ),
    (
        "std/kabufuda",
        include_str!("../../../stdlib/kabufuda.fuda"),
    ),
    ("std/mahjong", include_str!("../../../stdlib/mahjong.fuda")),
    (
        "std/mahjong-shapes",
        include_str!("../../../stdlib/mahjong-shapes.fuda"),
    ),
    (
        "std/mahjong108",
        include_str!("../../../stdlib/mahjong108.fuda"),
    ),
    ("std/jukugo", include_str!("../../../stdlib/jukugo.fuda")),
];

/// Data files built into the binary, named `std/…` in `words … from "std/…"`: the word
/// lists of the `std/jukugo` deck, its common words and every word of the dictionary it
/// spells (see `stdlib/jukugo/SOURCE.md`).
pub const STDLIB_DATA: &[(&str, &str)] = &[
    (
        "std/jukugo/words.txt",
        include_str!("../../../stdlib/jukugo/words.txt"),
    ),
    (
        "std/jukugo/words-all.txt",
        include_str!("../../../stdlib/jukugo/words-all.txt"),
    ),
];

/// Where an import or `extends` path points.
#[derive(Debug, PartialEq)]
pub enum Resolved {
    /// A stdlib module: its name and text.
    Std(&'static str, &'static str),
    /// A file below the ruleset's folder (normalised path).
    Local(String),
}

/// Checks and resolves an import path; `Err` says why it is refused.
pub fn resolve(path: &str) -> Result<Resolved, String> {
    if let Some(rest) = path.strip_prefix("std/") {
        let key = format!("std/{}", rest.trim_end_matches(".fuda"));
        return STDLIB
            .iter()
            .find(|(n, _)| *n == key)
            .map(|(n, t)| Resolved::Std(n, t))
            .ok_or_else(|| {
                let names: Vec<&str> = STDLIB.iter().map(|(n, _)| *n).collect();
                format!("the stdlib has no `{key}` (it has {})", names.join(", "))
            });
    }
    let mut norm = below_folder(path, "imports")?;
    if !norm.ends_with(".fuda") {
        norm.push_str(".fuda");
    }
    Ok(Resolved::Local(norm))
}

/// Checks and resolves the path of a data file (`words … from "PATH"`): a `std/…` name
/// from [`STDLIB_DATA`], or a file below the ruleset's folder, by the same rules as an
/// import's but with no extension added.
pub fn resolve_data(path: &str) -> Result<Resolved, String> {
    if path.starts_with("std/") {
        return STDLIB_DATA
            .iter()
            .find(|(n, _)| *n == path)
            .map(|(n, t)| Resolved::Std(n, t))
            .ok_or_else(|| {
                let names: Vec<&str> = STDLIB_DATA.iter().map(|(n, _)| *n).collect();
                if names.is_empty() {
                    format!("the stdlib has no data file `{path}` (it has none)")
                } else {
                    format!(
                        "the stdlib has no data file `{path}` (it has {})",
                        names.join(", ")
                    )
                }
            });
    }
    below_folder(path, "word lists").map(Resolved::Local)
}

/// A relative path with no `..`, normalised to `/` separators; `what` names the files
/// the rule is about, for the message.
fn below_folder(path: &str, what: &str) -> Result<String, String> {
    if path.is_empty() {
        return Err("the path is empty".into());
    }
    if path.starts_with('/') || path.starts_with('\\') || path.contains(':') {
        return Err(format!(
            "absolute paths are not allowed: {what} stay inside the ruleset's folder"
        ));
    }
    let mut parts = Vec::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                return Err(format!(
                    "`..` is not allowed: {what} stay inside the ruleset's folder"
                ))
            }
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        return Err("the path names no file".into());
    }
    Ok(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_escapes() {
        assert!(resolve("../x.fuda").is_err());
        assert!(resolve("a/../../x").is_err());
        assert!(resolve("/etc/passwd").is_err());
        assert!(resolve("C:/x").is_err());
        assert_eq!(resolve("./v/a"), Ok(Resolved::Local("v/a.fuda".into())));
        assert!(matches!(resolve("std/hanafuda"), Ok(Resolved::Std(..))));
        assert!(resolve("std/nothing").is_err());
    }

    #[test]
    fn data_paths_keep_their_names() {
        assert_eq!(
            resolve_data("./dict//jukugo.txt"),
            Ok(Resolved::Local("dict/jukugo.txt".into()))
        );
        assert_eq!(resolve_data("w"), Ok(Resolved::Local("w".into())));
        assert!(resolve_data("../jukugo.txt")
            .unwrap_err()
            .contains("word lists"));
        assert!(resolve_data("/etc/words").is_err());
        assert!(resolve_data("").is_err());
        assert!(resolve_data("std/jukugo.txt")
            .unwrap_err()
            .contains("stdlib"));
    }

    #[test]
    fn data_is_refused_past_its_size() {
        let files = MemoryFiles(vec![("w.txt".into(), "一石\n二鳥\n".into())]);
        assert_eq!(files.load_data("w.txt", 100).as_deref(), Ok("一石\n二鳥\n"));
        assert_eq!(
            files.load_data("w.txt", 4),
            Err(DataError::TooLarge(Some(14)))
        );
        assert!(matches!(
            files.load_data("x.txt", 100),
            Err(DataError::Unreadable(_))
        ));
    }
}
