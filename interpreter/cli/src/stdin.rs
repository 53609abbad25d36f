//! `-` as a file argument: standard input, named `<stdin>` in messages, read whole at
//! most once (a later read gets the same text), and taken by one argument at a time.

use std::io::Read;
use std::path::Path;
use std::sync::OnceLock;

use crate::limits::MAX_STDIN_BYTES;
use crate::read::ReadError;

/// The name standard input goes by in diagnostics and reports.
pub const NAME: &str = "<stdin>";

/// Whether a file argument is `-`, standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// A file argument as messages show it: its path, or `<stdin>` for `-`. A path is
/// shown with its control characters masked (a file name may hold an escape sequence).
pub fn shown(path: &Path) -> String {
    if is_stdin(path) {
        NAME.to_string()
    } else {
        crate::render::printable(&path.display().to_string()).into_owned()
    }
}

/// What reading standard input gave: its bytes (at most one past the largest cap), or
/// the error's kind and text (an `io::Error` cannot be cloned for a second reader).
type Taken = Result<Vec<u8>, (std::io::ErrorKind, String)>;

/// Standard input as first read. A command reads it once, but may look at the text
/// twice (`fuda replay --ruleset -` hashes the ruleset, then compiles it).
static TAKEN: OnceLock<Taken> = OnceLock::new();

/// Standard input as text of at most `max` bytes, as [`crate::load`] reads a file.
/// It is read up to the largest cap any file has, so the first reader decides nothing
/// for a later one.
pub fn read(max: usize, what: &'static str) -> Result<String, ReadError> {
    let taken = TAKEN.get_or_init(|| {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .take(MAX_STDIN_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .map(|_| bytes)
            .map_err(|e| (e.kind(), e.to_string()))
    });
    let bytes = match taken {
        Ok(b) => b,
        Err((kind, text)) => {
            return Err(ReadError::Io(std::io::Error::new(*kind, text.clone())));
        }
    };
    if bytes.len() > max {
        // Past the largest cap the true size is unknown: the read stopped there.
        let size = (bytes.len() <= MAX_STDIN_BYTES).then_some(bytes.len() as u64);
        return Err(ReadError::TooLarge { size, max, what });
    }
    crate::read::text(bytes.clone())
}

/// Standard input to read piece by piece (a `--batch` of any length).
pub fn reader() -> Box<dyn Read> {
    Box::new(std::io::stdin().lock())
}

/// Two arguments that are both `-`, from `(argument name, path)` pairs in command-line
/// order: standard input can be read only once. `None` when at most one is.
pub fn clash<'a>(args: &[(&'a str, &Path)]) -> Option<(&'a str, &'a str)> {
    let mut dashes = args.iter().filter(|(_, p)| is_stdin(p)).map(|(n, _)| *n);
    Some((dashes.next()?, dashes.next()?))
}

/// The message for a [`clash`]: which arguments, and why it is refused.
pub fn clash_message(first: &str, second: &str) -> String {
    let which = if first == second {
        format!("two `{first}` arguments are `-`")
    } else {
        format!("`{first}` and `{second}` are both `-`")
    };
    format!(
        "{which}, and standard input can be read only once\n\n\
         tip: save all but one of them to a file and give its path"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_dashes_clash_and_one_does_not() {
        let (a, b, dash) = (Path::new("a.fuda"), Path::new("b.jsonl"), Path::new("-"));
        assert_eq!(clash(&[("FILE", a), ("--batch", b)]), None);
        assert_eq!(clash(&[("FILE", dash), ("--batch", b)]), None);
        assert_eq!(
            clash(&[("FILE", a), ("FILE", dash), ("--batch", dash)]),
            Some(("FILE", "--batch"))
        );
        assert!(clash_message("FILE", "FILE").starts_with("two `FILE` arguments are `-`"));
        assert!(clash_message("A", "B").starts_with("`A` and `B` are both `-`"));
    }

    #[test]
    fn only_a_lone_dash_is_standard_input() {
        assert!(is_stdin(Path::new("-")));
        assert!(!is_stdin(Path::new("./-")));
        assert!(!is_stdin(Path::new("-x")));
        assert_eq!(shown(Path::new("-")), "<stdin>");
        assert_eq!(shown(Path::new("a/b.fuda")), "a/b.fuda");
    }
}
