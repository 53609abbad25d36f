//! The command line's limits on what it reads and draws, in one place: every file, line
//! and list that comes from outside has a cap, so that a shared rule file, replay or
//! batch holds at most a known amount of memory and prints at most a known amount of
//! text. Each refusal names the limit it hit.

/// The most a rule file may hold (an imported one too): the parser's own cap, checked
/// before the file is read, so a huge (or endless) file is never loaded into memory.
pub const MAX_FILE_BYTES: usize = fuda_grammar::MAX_SOURCE_BYTES;

/// The most a replay file may hold. A replay is read whole and parsed as TOML, which
/// holds some 200 bytes of memory per byte of a file dense with moves: with the count of
/// lists checked before parsing (see [`MAX_REPLAY_MOVES`]), a replay at this cap holds
/// at most some 50 MB. `fuda play` writes five to ten bytes a decision.
pub const MAX_REPLAY_BYTES: usize = 512 << 10;

/// The most decisions a replay may hold. A bundled game of 12 deals takes under 600
/// decisions, and the longest bundled match (120 deals) under 6,000: this is room for
/// matches eight times as long. A replay is refused before it is parsed when it holds more TOML lists (`[`)
/// than this many decisions and a few other fields would.
pub const MAX_REPLAY_MOVES: usize = 50_000;

/// The most a `--state` file may hold: it describes one end of round (a few zones of at
/// most a deck's cards, and some parameters), a few kilobytes at most.
pub const MAX_STATE_BYTES: usize = 1 << 20;

/// The most a shard report read by `fuda merge` may hold. Its size is bounded by the
/// ruleset's names and its tallies (1,000 values a label, each twice: in the sums and
/// in the report): a few kilobytes to a few megabytes. Shard reports are read from
/// files only, never standard input, whose cap stays the other files' (see
/// [`MAX_STDIN_BYTES`]).
pub const MAX_SHARD_REPORT_BYTES: usize = 64 << 20;

/// The longest line a `--batch` file may have (a line is one hand and its context).
pub const MAX_BATCH_LINE: usize = 1 << 20;

/// The longest line `fuda play` reads as a move: a move is a number or a few words, so
/// a longer line is refused (and read past to its end without being kept).
pub const MAX_INPUT_LINE: usize = 4 << 10;

/// How far past its cap a too-long line is read (keeping nothing) to find its end;
/// past this, the input is taken to have no line ends (a device, or a stray binary
/// file) and reading stops.
pub const MAX_SKIP: usize = 64 << 20;

/// The most standard input is read for a file argument given as `-`: the largest of the
/// caps of the files it can stand for, so the first reader decides nothing for a later one.
pub const MAX_STDIN_BYTES: usize = {
    let mut m = MAX_FILE_BYTES;
    if MAX_REPLAY_BYTES > m {
        m = MAX_REPLAY_BYTES;
    }
    if MAX_STATE_BYTES > m {
        m = MAX_STATE_BYTES;
    }
    m
};

/// The most diagnostics one command draws (text or `--json`); past them, one line (or
/// a `more` count) says how many more there were, by severity.
pub const MAX_DIAGNOSTICS: usize = 100;
