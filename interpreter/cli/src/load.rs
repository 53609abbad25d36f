//! Compiling a ruleset from disk: the folder loader that serves its imports (never
//! reading outside the ruleset's folder, nor anything but a regular file) and the
//! shared compile step.

use std::path::{Path, PathBuf};

use fuda_core::loader::{DataError, Loader};
use fuda_core::{Compiled, Failed, Program};
use miette::miette;

use crate::read::{io_reason, read_at_most, read_capped, read_rule_file, ReadError};
use crate::render::{self, Stream};
use crate::stdin;

/// Serves `import`/`extends` paths from below one folder (and, for `fuda replay`, the
/// ruleset a replay names from below the replay's folder, by the same rules).
pub struct FolderLoader {
    /// The canonical folder; everything read must resolve inside it.
    root: PathBuf,
    /// What the folder is to the user, for messages: "the ruleset's folder".
    name: &'static str,
}

impl FolderLoader {
    /// A loader rooted at `folder` (which must exist), the folder of a ruleset.
    pub fn new(folder: &Path) -> std::io::Result<FolderLoader> {
        FolderLoader::named(folder, "the ruleset's folder")
    }

    /// A loader rooted at `folder`, called `name` in messages ("the replay's folder").
    pub fn named(folder: &Path, name: &'static str) -> std::io::Result<FolderLoader> {
        Ok(FolderLoader {
            root: folder.canonicalize()?,
            name,
        })
    }

    /// The real path of `path` below the folder, a regular file: the core's
    /// [`resolve`](fuda_core::loader::resolve) has already refused absolute paths and
    /// `..`; this check is about symbolic links, which could still point anywhere, and
    /// about FIFOs and devices, which are never opened.
    pub fn inside(&self, path: &str) -> Result<PathBuf, Refusal> {
        let candidate = self.root.join(path);
        let real = candidate.canonicalize().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Refusal::Missing,
            _ => Refusal::Unusable(io_reason(&e)),
        })?;
        if !real.starts_with(&self.root) {
            return Err(Refusal::Unusable(format!(
                "it resolves to {}, outside {} {}",
                render::printable(&real.display().to_string()),
                self.name,
                render::printable(&self.root.display().to_string())
            )));
        }
        if let Some(what) = crate::read::not_regular(&real) {
            return Err(Refusal::Unusable(what.to_string()));
        }
        Ok(real)
    }
}

/// Why [`FolderLoader::inside`] refused a path.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// There is no such file.
    Missing,
    /// It is there but may not be read: why (outside the folder, a FIFO, a folder…).
    Unusable(String),
}

impl Refusal {
    /// A short lower-case reason, to follow "cannot read `FILE`: ".
    pub fn reason(&self) -> String {
        match self {
            Refusal::Missing => "no such file".into(),
            Refusal::Unusable(why) => why.clone(),
        }
    }
}

impl Loader for FolderLoader {
    fn load(&self, path: &str) -> Result<String, String> {
        let real = self.inside(path).map_err(|r| r.reason())?;
        read_capped(&real).map_err(|e| e.reason())
    }

    /// Word lists: the same folder rules, the core's size cap (checked before reading).
    fn load_data(&self, path: &str, max: usize) -> Result<String, DataError> {
        let real = self
            .inside(path)
            .map_err(|r| DataError::Unreadable(r.reason()))?;
        read_at_most(&real, max, "a word list").map_err(|e| match e {
            ReadError::TooLarge { size, .. } => DataError::TooLarge(size),
            e => DataError::Unreadable(e.reason()),
        })
    }

    /// The `.fuda` files of a folder inside the ruleset's (one directory read, its first
    /// [`MAX_LISTED`](fuda_core::loader::MAX_LISTED) entries), for a did-you-mean on a
    /// missing import. A folder that resolves outside is not listed.
    fn rule_files(&self, dir: &str) -> Vec<String> {
        let Ok(real) = self.root.join(dir).canonicalize() else {
            return Vec::new();
        };
        if !real.starts_with(&self.root) {
            return Vec::new();
        }
        let Ok(entries) = std::fs::read_dir(&real) else {
            return Vec::new();
        };
        entries
            .take(fuda_core::loader::MAX_LISTED)
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.ends_with(".fuda"))
            .map(|n| {
                if dir.is_empty() {
                    n
                } else {
                    format!("{dir}/{n}")
                }
            })
            .collect()
    }
}

/// Reads and compiles a ruleset file. `Err` is a user error (unreadable file);
/// `Ok(Err(_))` is a ruleset with problems, for the caller to render. A ruleset read
/// from standard input (`-`) is named `<stdin>` and imports from the current folder,
/// as a file there would: the same confinement, with the current folder as its root.
pub fn compile_file(path: &Path) -> miette::Result<Result<Compiled, Failed>> {
    let text = read_rule_file(path)?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let loader = FolderLoader::new(&folder).map_err(|e| {
        miette!(
            "cannot open the folder `{}`: {}",
            stdin::shown(&folder),
            io_reason(&e)
        )
    })?;
    Ok(fuda_core::compile(&stdin::shown(path), &text, &loader))
}

/// Renders every diagnostic of a failed compile to stderr and returns the counts
/// (errors, warnings).
pub fn report_failure(failed: &Failed) -> (usize, usize) {
    let mut errors = 0;
    let mut warnings = 0;
    for d in &failed.diagnostics {
        match d.severity {
            fuda_core::diagnostic::Severity::Error => errors += 1,
            fuda_core::diagnostic::Severity::Warning => warnings += 1,
        }
        render::draw_program(d, &failed.sources, Stream::Err);
    }
    crate::budget::not_kept(failed.unkept);
    (errors + failed.unkept, warnings)
}

/// Compiles a file for the commands that need a program (score, simulate, play):
/// warnings are shown, and a ruleset with errors is reported and refused.
pub fn program(path: &Path) -> miette::Result<Program> {
    match compile_file(path)? {
        Ok(c) => {
            for w in &c.warnings {
                render::draw_program(w, &c.program.sources, Stream::Err);
            }
            Ok(c.program)
        }
        Err(failed) => {
            let (errors, _) = report_failure(&failed);
            Err(miette!(
                code = "fuda::cli::does-not-compile",
                help = format!(
                    "run `fuda check {}` and fix what it reports",
                    path.display()
                ),
                "`{}` does not compile ({})",
                stdin::shown(path),
                plural(errors, "error")
            ))
        }
    }
}

/// "1 error", "3 errors".
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::MAX_FILE_BYTES;

    #[test]
    fn refuses_symlinks_out_of_the_folder() {
        let outside = tempfile::tempdir().expect("temp dir");
        let secret = outside.path().join("secret.fuda");
        std::fs::write(&secret, "ruleset \"x\"").expect("write");
        let root = tempfile::tempdir().expect("temp dir");
        std::fs::write(root.path().join("ok.fuda"), "ruleset \"ok\"").expect("write");
        #[cfg(unix)]
        std::os::unix::fs::symlink(&secret, root.path().join("link.fuda")).expect("symlink");
        let l = FolderLoader::new(root.path()).expect("loader");
        assert_eq!(l.load("ok.fuda").as_deref(), Ok("ruleset \"ok\""));
        #[cfg(unix)]
        assert!(l.load("link.fuda").unwrap_err().contains("outside"));
        assert!(l.load("missing.fuda").unwrap_err().contains("no such file"));
    }

    #[test]
    fn an_import_over_the_cap_is_refused() {
        let root = tempfile::tempdir().expect("temp dir");
        let big = vec![b' '; MAX_FILE_BYTES + 1];
        std::fs::write(root.path().join("big.fuda"), &big).expect("write");
        std::fs::write(root.path().join("full.fuda"), &big[1..]).expect("write");
        let l = FolderLoader::new(root.path()).expect("loader");
        let why = l.load("big.fuda").unwrap_err();
        assert!(
            why.contains("too large") && why.contains("4194305 bytes"),
            "{why}"
        );
        assert_eq!(l.load("full.fuda").map(|t| t.len()), Ok(MAX_FILE_BYTES));
    }

    #[test]
    fn word_lists_are_read_below_the_folder_with_the_core_s_cap() {
        let root = tempfile::tempdir().expect("temp dir");
        std::fs::write(root.path().join("jukugo.txt"), "一石\n二鳥\n").expect("write");
        let l = FolderLoader::new(root.path()).expect("loader");
        assert_eq!(
            l.load_data("jukugo.txt", 100).as_deref(),
            Ok("一石\n二鳥\n")
        );
        assert_eq!(
            l.load_data("jukugo.txt", 4),
            Err(DataError::TooLarge(Some(14)))
        );
        assert!(matches!(
            l.load_data("missing.txt", 100),
            Err(DataError::Unreadable(why)) if why.contains("no such file")
        ));
    }
}
