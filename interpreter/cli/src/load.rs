//! Reading a ruleset from disk and compiling it: the folder loader that serves its
//! imports (never reading outside the ruleset's folder) and the shared compile step.

use std::io::Read;
use std::path::{Path, PathBuf};

use fuda_core::loader::{DataError, Loader};
use fuda_core::{Compiled, Failed, Program};
use miette::miette;

use crate::render::{self, Stream};
use crate::stdin;

/// Serves `import`/`extends` paths from below one folder.
pub struct FolderLoader {
    /// The canonical folder; everything read must resolve inside it.
    root: PathBuf,
}

impl FolderLoader {
    /// A loader rooted at `folder` (which must exist).
    pub fn new(folder: &Path) -> std::io::Result<FolderLoader> {
        Ok(FolderLoader {
            root: folder.canonicalize()?,
        })
    }
}

impl FolderLoader {
    /// The real path of `path` below the folder: the core has already refused absolute
    /// paths and `..`; this check is about symbolic links, which could still point
    /// anywhere.
    fn inside(&self, path: &str) -> Result<PathBuf, String> {
        let candidate = self.root.join(path);
        let real = candidate.canonicalize().map_err(|e| io_reason(&e))?;
        if !real.starts_with(&self.root) {
            return Err(format!(
                "it resolves to {}, outside the ruleset's folder {}",
                real.display(),
                self.root.display()
            ));
        }
        if !real.is_file() {
            return Err("it is not a file".into());
        }
        Ok(real)
    }
}

impl Loader for FolderLoader {
    fn load(&self, path: &str) -> Result<String, String> {
        read_capped(&self.inside(path)?).map_err(|e| e.reason())
    }

    /// Word lists: the same folder rules, the core's size cap (checked before reading).
    fn load_data(&self, path: &str, max: usize) -> Result<String, DataError> {
        let real = self.inside(path).map_err(DataError::Unreadable)?;
        read_at_most(&real, max, "a word list").map_err(|e| match e {
            ReadError::TooLarge { size, .. } => DataError::TooLarge(size),
            ReadError::Io(_) => DataError::Unreadable(e.reason()),
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

/// The most a rule file may hold: the parser's own cap, checked here before the file
/// is read so a huge (or endless) file is never loaded into memory.
pub const MAX_FILE_BYTES: usize = fuda_grammar::MAX_SOURCE_BYTES;

/// The most a state or replay file may hold (they are a few kilobytes; this only keeps
/// a wrong path, such as a device or a huge log, from being read into memory).
pub const MAX_DATA_BYTES: usize = 64 << 20;

/// The longest line a `--batch` file may have (a line is one hand and its context).
pub const MAX_BATCH_LINE: usize = 1 << 20;

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// The file system refused.
    Io(std::io::Error),
    /// Larger than the cap `max`: its size when known, else `None` (it grew past the
    /// cap while being read, or reports no size, like a device).
    TooLarge {
        /// The file's size, when known.
        size: Option<u64>,
        /// The cap it passed.
        max: usize,
        /// What kind of file, for the message ("a rule file").
        what: &'static str,
    },
}

impl ReadError {
    /// A short lower-case reason, to follow "cannot read `FILE`: ".
    pub fn reason(&self) -> String {
        match self {
            ReadError::Io(e) => io_reason(e),
            ReadError::TooLarge {
                size: Some(n),
                max,
                what,
            } => format!(
                "it is too large: {n} bytes, and {what} may have at most {max} ({} MiB)",
                max >> 20
            ),
            ReadError::TooLarge {
                size: None,
                max,
                what,
            } => format!(
                "it is too large: {what} may have at most {max} bytes ({} MiB)",
                max >> 20
            ),
        }
    }
}

/// Reads a rule file as text, refusing one larger than [`MAX_FILE_BYTES`] without
/// reading it whole: the size is checked first, and the read itself stops one byte past
/// the cap, because a size can be wrong (a file still growing, a device).
pub fn read_capped(path: &Path) -> Result<String, ReadError> {
    read_at_most(path, MAX_FILE_BYTES, "a rule file")
}

/// Reads a text file of at most `max` bytes, as [`read_capped`] does.
fn read_at_most(path: &Path, max: usize, what: &'static str) -> Result<String, ReadError> {
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    let size = file.metadata().map(|m| m.len()).ok();
    if let Some(n) = size.filter(|n| *n > max as u64) {
        return Err(ReadError::TooLarge {
            size: Some(n),
            max,
            what,
        });
    }
    let mut bytes = Vec::with_capacity(size.unwrap_or(0) as usize);
    file.take(max as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() > max {
        return Err(ReadError::TooLarge {
            size: None,
            max,
            what,
        });
    }
    String::from_utf8(bytes)
        .map_err(|_| ReadError::Io(std::io::Error::from(std::io::ErrorKind::InvalidData)))
}

/// Reads a rule file for a command; an unreadable or oversized file is a diagnostic.
/// Only regular files are read, as for imports: opening a FIFO would wait for a writer
/// forever, and a device is no rule file.
/// `-` reads standard input instead (a pipe is what it usually is).
pub fn read_rule_file(path: &Path) -> miette::Result<String> {
    let shown = stdin::shown(path);
    let read = if stdin::is_stdin(path) {
        stdin::read(MAX_FILE_BYTES, "a rule file")
    } else {
        if let Some(what) = not_regular(path) {
            return Err(miette!(
                code = "fuda::cli::read",
                help = "give the path of a .fuda file",
                "cannot read `{shown}`: {what}"
            ));
        }
        read_capped(path)
    };
    read.map_err(|e| match e {
        ReadError::TooLarge { .. } => miette!(
            code = "fuda::cli::too-large",
            help = "split the ruleset: a rule file can `import` files from its own folder",
            "cannot read `{shown}`: {}",
            e.reason()
        ),
        ReadError::Io(_) => miette!(
            code = "fuda::cli::read",
            help = "give the path of a .fuda file",
            "cannot read `{shown}`: {}",
            e.reason()
        ),
    })
}

/// Why an existing path is not a regular file ("it is a folder"), or `None` when it
/// is one or does not exist (the read or write then says why). Opening a FIFO would
/// wait for a writer (or reader) forever, and a device is no file of ours.
pub fn not_regular(path: &Path) -> Option<&'static str> {
    let meta = std::fs::metadata(path).ok()?;
    if meta.is_file() {
        None
    } else if meta.is_dir() {
        Some("it is a folder")
    } else {
        Some("it is not a regular file (a pipe, a device or a socket)")
    }
}

/// Reads a state or replay file a command was given whole, up to
/// [`MAX_DATA_BYTES`] (`-`: standard input); an unreadable or oversized one is a
/// diagnostic.
pub fn read_data_file(path: &Path) -> miette::Result<String> {
    if stdin::is_stdin(path) {
        return stdin::read(MAX_DATA_BYTES, "a data file").map_err(|e| data_error(path, &e));
    }
    read_at_most(path, MAX_DATA_BYTES, "a data file").map_err(|e| data_error(path, &e))
}

/// Opens a data file to read it piece by piece (a batch; `-`: standard input); an
/// unopenable one is the same diagnostic as [`read_data_file`] gives.
pub fn open_data_file(path: &Path) -> miette::Result<Box<dyn Read>> {
    if stdin::is_stdin(path) {
        return Ok(stdin::reader());
    }
    match std::fs::File::open(path) {
        Ok(f) => Ok(Box::new(f)),
        Err(e) => Err(data_error(path, &ReadError::Io(e))),
    }
}

/// The diagnostic for a data file that could not be read.
pub fn data_error(path: &Path, e: &ReadError) -> miette::Report {
    miette!(
        code = "fuda::cli::read",
        help = "check the path (a relative path starts from the current directory)",
        "cannot read `{}`: {}",
        stdin::shown(path),
        e.reason()
    )
}

/// An I/O error as a short lower-case reason, without the OS error number.
pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::InvalidData => "it is not UTF-8 text".into(),
        _ => {
            let s = e.to_string();
            s.split(" (os error").next().unwrap_or(&s).to_string()
        }
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
            folder.display(),
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
        render::err(&render::program_diagnostic(d, &failed.sources, Stream::Err));
    }
    (errors, warnings)
}

/// Compiles a file for the commands that need a program (score, simulate, play):
/// warnings are shown, and a ruleset with errors is reported and refused.
pub fn program(path: &Path) -> miette::Result<Program> {
    match compile_file(path)? {
        Ok(c) => {
            for w in &c.warnings {
                render::err(&render::program_diagnostic(
                    w,
                    &c.program.sources,
                    Stream::Err,
                ));
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

    #[cfg(unix)]
    #[test]
    fn a_file_without_a_size_is_cut_at_the_cap() {
        // A device reports no length: the bounded read is what stops it.
        match read_capped(Path::new("/dev/zero")) {
            Err(ReadError::TooLarge { size: None, .. }) => {}
            other => panic!("{other:?}"),
        }
    }
}
