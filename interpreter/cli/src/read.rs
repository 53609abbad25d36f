//! Reading the files a command names: only regular files, each up to its cap, and why
//! one was not read in words that never quote what it holds (a shared file may hold
//! anything, and a wrong path may name a secret).
//!
//! Only regular files are opened: opening a FIFO waits for a writer (or a reader)
//! forever, and a device is no file of ours. The check comes before the open, and is
//! made again on the opened file in case the path changed in between; the open itself
//! does not block (on Unix), so a path swapped for a FIFO in between is refused too.

use std::io::Read;
use std::path::Path;

use miette::miette;

use crate::limits::{MAX_FILE_BYTES, MAX_REPLAY_BYTES, MAX_SHARD_REPORT_BYTES, MAX_STATE_BYTES};
use crate::stdin;

/// A kind of file a command reads whole: its cap, its name in messages, and what to do
/// when a file passes the cap.
pub struct Cap {
    /// The most bytes the file may hold.
    pub max: usize,
    /// "a rule file": what the messages call it.
    pub what: &'static str,
    /// The help of the refusal of a file over the cap.
    pub help: &'static str,
}

/// A rule file (the ruleset a command names, or one it imports).
pub const RULE_FILE: Cap = Cap {
    max: MAX_FILE_BYTES,
    what: "a rule file",
    help: "split the ruleset: a rule file can `import` files from its own folder",
};

/// A replay written by `fuda play --record`.
pub const REPLAY: Cap = Cap {
    max: MAX_REPLAY_BYTES,
    what: "a replay file",
    help: "a replay `fuda play --record` writes takes five to ten bytes a decision: check that this is the replay you meant",
};

/// A `--state` file: one end of round as JSON.
pub const STATE: Cap = Cap {
    max: MAX_STATE_BYTES,
    what: "a state file",
    help: "a state file describes one end of round (its zones' cards and some parameters): check that this is the file you meant",
};

/// A shard report written by `fuda simulate --shard I/N --json`, for `fuda merge`.
pub const SHARD_REPORT: Cap = Cap {
    max: MAX_SHARD_REPORT_BYTES,
    what: "a shard report",
    help: "give the --json output of `fuda simulate … --shard I/N`: check that this is the file you meant",
};

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// The file system refused.
    Io(std::io::Error),
    /// The path is there but is no regular file: what it is instead.
    NotRegular(&'static str),
    /// The text is not UTF-8: the offset of its first bad byte.
    NotUtf8(usize),
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
            ReadError::NotRegular(what) => what.to_string(),
            ReadError::NotUtf8(at) => format!("it is not UTF-8 text (byte {at} is not)"),
            ReadError::TooLarge {
                size: Some(n),
                max,
                what,
            } => format!(
                "it is too large: {n} bytes, and {what} may have at most {max} ({})",
                size_words(*max)
            ),
            ReadError::TooLarge {
                size: None,
                max,
                what,
            } => format!(
                "it is too large: {what} may have at most {max} bytes ({})",
                size_words(*max)
            ),
        }
    }
}

/// A cap in words: `4 MiB`, `4 KiB`, `100 bytes`.
pub fn size_words(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// Why an existing path is not a regular file ("it is a folder"), or `None` when it
/// is one or does not exist (the read or write then says why).
pub fn not_regular(path: &Path) -> Option<&'static str> {
    let meta = std::fs::metadata(path).ok()?;
    kind_of(&meta)
}

/// Why a file with metadata `meta` is no regular file, or `None` when it is one.
fn kind_of(meta: &std::fs::Metadata) -> Option<&'static str> {
    if meta.is_file() {
        None
    } else if meta.is_dir() {
        Some("it is a folder")
    } else {
        Some("it is not a regular file (a pipe, a device or a socket)")
    }
}

/// Opens a regular file to read: anything else is refused before it is opened (see
/// the module's note), and checked again once open.
pub fn open_regular(path: &Path) -> Result<std::fs::File, ReadError> {
    if let Some(what) = not_regular(path) {
        return Err(ReadError::NotRegular(what));
    }
    open_and_recheck(path)
}

/// The open of [`open_regular`], and its check of what was opened.
fn open_and_recheck(path: &Path) -> Result<std::fs::File, ReadError> {
    let file = open_without_waiting(path).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    match kind_of(&meta) {
        Some(what) => Err(ReadError::NotRegular(what)),
        None => Ok(file),
    }
}

/// Opens `path` to read without waiting on it: opening a FIFO returns at once (and
/// [`open_regular`] then refuses it). On a regular file the flag changes nothing.
#[cfg(unix)]
fn open_without_waiting(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

/// Opens `path` to read (elsewhere than Unix, FIFOs are no file-system paths).
#[cfg(not(unix))]
fn open_without_waiting(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// Reads a regular file of at most `max` bytes as text, without reading a larger one
/// whole: its size is checked first, and the read itself stops one byte past the cap,
/// because a size can be wrong (a file still growing).
pub fn read_at_most(path: &Path, max: usize, what: &'static str) -> Result<String, ReadError> {
    let file = open_regular(path)?;
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
    text(bytes)
}

/// Bytes as UTF-8 text, or where they stop being it.
pub fn text(bytes: Vec<u8>) -> Result<String, ReadError> {
    String::from_utf8(bytes).map_err(|e| ReadError::NotUtf8(e.utf8_error().valid_up_to()))
}

/// Reads a rule file as text, up to [`MAX_FILE_BYTES`].
pub fn read_capped(path: &Path) -> Result<String, ReadError> {
    read_at_most(path, RULE_FILE.max, RULE_FILE.what)
}

/// Reads a rule file for a command (`-`: standard input, which is what a pipe usually
/// is); an unreadable or oversized file is a diagnostic.
pub fn read_rule_file(path: &Path) -> miette::Result<String> {
    let read = if stdin::is_stdin(path) {
        stdin::read(RULE_FILE.max, RULE_FILE.what)
    } else {
        read_capped(path)
    };
    read.map_err(|e| match e {
        ReadError::TooLarge { .. } => miette!(
            code = "fuda::cli::too-large",
            help = RULE_FILE.help,
            "cannot read `{}`: {}",
            stdin::shown(path),
            e.reason()
        ),
        _ => miette!(
            code = "fuda::cli::read",
            help = "give the path of a .fuda file",
            "cannot read `{}`: {}",
            stdin::shown(path),
            e.reason()
        ),
    })
}

/// Reads a data file a command was given whole (a replay, a state), up to its cap
/// (`-`: standard input); an unreadable or oversized one is a diagnostic.
pub fn read_data_file(path: &Path, cap: &Cap) -> miette::Result<String> {
    let read = if stdin::is_stdin(path) {
        stdin::read(cap.max, cap.what)
    } else {
        read_at_most(path, cap.max, cap.what)
    };
    read.map_err(|e| match e {
        ReadError::TooLarge { .. } => miette!(
            code = "fuda::cli::read",
            help = cap.help,
            "cannot read `{}`: {}",
            stdin::shown(path),
            e.reason()
        ),
        e => data_error(path, &e),
    })
}

/// Opens a data file to read it piece by piece (a batch; `-`: standard input); an
/// unopenable one is the same diagnostic as [`read_data_file`] gives.
pub fn open_data_file(path: &Path) -> miette::Result<Box<dyn Read>> {
    if stdin::is_stdin(path) {
        return Ok(stdin::reader());
    }
    match open_regular(path) {
        Ok(f) => Ok(Box::new(f)),
        Err(e) => Err(data_error(path, &e)),
    }
}

/// The diagnostic for a data file that could not be read.
pub fn data_error(path: &Path, e: &ReadError) -> miette::Report {
    let help = match e {
        ReadError::NotRegular(_) => "give the path of a regular file (`-` reads standard input)",
        ReadError::NotUtf8(_) => "save the file as UTF-8 text",
        _ => "check the path (a relative path starts from the current directory)",
    };
    miette!(
        code = "fuda::cli::read",
        help = help,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_are_said_in_their_unit() {
        assert_eq!(size_words(4 << 20), "4 MiB");
        assert_eq!(size_words(4 << 10), "4 KiB");
        assert_eq!(size_words(1000), "1000 bytes");
    }

    #[test]
    fn a_file_that_is_not_utf8_is_refused_at_its_first_bad_byte() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("x.toml");
        std::fs::write(&path, b"seed = 1\n\xff\xfe").expect("write");
        let e = read_at_most(&path, 100, "a replay file").unwrap_err();
        assert_eq!(e.reason(), "it is not UTF-8 text (byte 9 is not)");
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_refused_before_it_is_read() {
        match read_capped(Path::new("/dev/zero")) {
            Err(ReadError::NotRegular(what)) => assert!(what.contains("not a regular file")),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            read_capped(Path::new("/")),
            Err(ReadError::NotRegular("it is a folder"))
        ));
    }
}
