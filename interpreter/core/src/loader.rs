//! Finding the files a ruleset names: the embedded stdlib, or paths below the ruleset's
//! own folder. The core does no I/O itself: the caller supplies a [`Loader`].

/// Reads files below a ruleset's folder. Paths given to it are already checked to be
/// relative, without `..`, and to end in `.fuda`.
pub trait Loader {
    /// The text of `path` (relative to the ruleset's folder), or a reason it failed.
    fn load(&self, path: &str) -> Result<String, String>;
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
        "std/mahjong108",
        include_str!("../../../stdlib/mahjong108.fuda"),
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
    if path.is_empty() {
        return Err("the path is empty".into());
    }
    if path.starts_with('/') || path.starts_with('\\') || path.contains(':') {
        return Err(
            "absolute paths are not allowed: imports stay inside the ruleset's folder".into(),
        );
    }
    let mut parts = Vec::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                return Err("`..` is not allowed: imports stay inside the ruleset's folder".into())
            }
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        return Err("the path names no file".into());
    }
    let mut norm = parts.join("/");
    if !norm.ends_with(".fuda") {
        norm.push_str(".fuda");
    }
    Ok(Resolved::Local(norm))
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
}
