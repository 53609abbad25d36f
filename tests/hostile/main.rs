//! `hostile`: writes the hostile inputs that `docs/limits.md` measures — rule files,
//! replays and input lines of every shape that once made fuda crash, hang, hold
//! gigabytes or print without end — each in a folder of its own, with the command that
//! runs it in `cases.tsv`. `tests/hostile/measure.sh` runs them and prints the table.
//!
//! Usage: `hostile OUT_DIR` (the folder is created; files already there are replaced).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One hostile input: its folder's files and how `fuda` is run on them.
struct Case {
    /// The folder's name, and the table's first column.
    name: &'static str,
    /// What it probes, for the table.
    about: &'static str,
    /// Files written into the folder: name and content.
    files: Vec<(String, Vec<u8>)>,
    /// A file of the folder fed to standard input, if any.
    stdin: Option<&'static str>,
    /// A shell command run in the folder before `fuda` (to make a FIFO).
    setup: Option<&'static str>,
    /// `fuda`'s arguments, separated by spaces (no argument holds a space).
    args: &'static str,
}

/// A case of one rule file, `game.fuda`, run with `args`.
fn one_file(name: &'static str, about: &'static str, game: String, args: &'static str) -> Case {
    Case {
        name,
        about,
        files: vec![("game.fuda".into(), game.into_bytes())],
        stdin: None,
        setup: None,
        args,
    }
}

/// A two-seat ruleset on the hanafuda deck around `extra` items.
fn game(extra: &str) -> String {
    format!(
        "ruleset \"hostile\"\nimport \"std/hanafuda\"\nseats 2 {{ 2: 親 子 }}\n\
         zone 山札 shared stack hidden\nzone 手札 per seat pile owner\nvar n: int = 0\n{extra}\n"
    )
}

/// A ruleset with a one-card deck of its own, no stdlib, around a deck body.
fn own_deck(deck: &str, extra: &str) -> String {
    format!(
        "ruleset \"hostile\"\ndeck d {{\n{deck}\n}}\nseats 2 {{ 2: a b }}\n\
         zone z shared pile public\nproc match {{ }}\n{extra}\n"
    )
}

/// A round of two moves that ends in an `outcome`, after `work`.
fn heavy_round(work: &str) -> String {
    format!("{work}\n choose 0 {{ move a {{ }} move b {{ }} }}\n outcome \"done\"")
}

/// Patterns `q0`…: each one's `where` tests the next.
fn pattern_chain(count: usize, use_it: &str) -> String {
    let mut items: String = (0..count - 1)
        .map(|i| format!("pattern q{i} {{ group g: 1 where q{}(g) }}\n", i + 1))
        .collect();
    let _ = writeln!(items, "pattern q{} {{ group g: 1 }}", count - 1);
    items.push_str(use_it);
    game(&items)
}

/// Lines of `line(i)` for i = 0, 1, … until the text holds `bytes`.
fn up_to(bytes: usize, line: impl Fn(usize) -> String) -> String {
    let mut s = String::new();
    let mut i = 0;
    while s.len() < bytes {
        s.push_str(&line(i));
        i += 1;
    }
    s
}

fn text(s: String) -> Vec<u8> {
    s.into_bytes()
}

/// A replay of `game.fuda` (written beside it) with `moves`.
fn replay(ruleset: &str, moves: &str) -> String {
    format!(
        "ruleset = {}\nruleset_hash = \"x\"\nseed = 1\nset = []\nmoves = [{moves}]\n",
        toml_string(ruleset)
    )
}

/// A TOML basic string: every character but a printable ASCII one escaped.
fn toml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' => out.push(c),
            c => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

const MIB: usize = 1 << 20;

/// A bundled ruleset with score tables, for `fuda score`.
const SANGOHANA: &str = include_str!("../../rulesets/sangohana.fuda");

fn cases() -> Vec<Case> {
    let long = "a".repeat(100_000);
    let small_game = game(&format!("proc match {{ {} }}", heavy_round("n += 1")));
    let heavy_game = game(&format!(
        "proc match {{ loop {{ {} }} }}",
        heavy_round("n = count(i in 1..100000: i > 0)")
    ));
    vec![
        one_file(
            "long-names",
            "a did-you-mean between two 100,000-character names",
            game(&format!(
                    "def n{long}() = 1\nproc match {{ let x = n{}b() }}",
                    &long[1..]
                )),
            "check game.fuda",
        ),
        one_file(
            "long-names-40",
            "40 unknown names of 100,000 characters each",
            game(&format!(
                    "proc match {{\n{}}}",
                    (0..40)
                        .map(|i| format!(" let v{i} = n{i}{long}\n"))
                        .collect::<String>()
                )),
            "check game.fuda",
        ),
        one_file(
            "pattern-chain-300",
            "300 patterns, each testing the next, simulated",
            pattern_chain(
                    300,
                    "proc match { let ok = q0(cards(1-crane))\n choose 0 { move a { } move b { } } }\n",
                ),
            "simulate game.fuda --games 10",
        ),
        one_file(
            "alternatives-2000",
            "a pattern of 2,000 alternatives, none matching, asked a million times",
            game(&format!(
                    "{}pattern u = {}\nzone h shared pile public\n\
                     proc match {{ move cards(1-crane 2-warbler) to h\n repeat 1000000 {{ if u(h) {{ }} }} }}\n",
                    (0..2000)
                        .map(|i| format!("pattern p{i} {{ group g: 2 same month }}\n"))
                        .collect::<String>(),
                    (0..2000).map(|i| format!("p{i}")).collect::<Vec<_>>().join(" | ")
                )),
            "simulate game.fuda --games 1",
        ),
        one_file(
            "pattern-chain-1000",
            "1,000 patterns, each testing the next, in a test",
            pattern_chain(
                    1000,
                    "proc match { }\ntest \"the chain\" { expect q0(cards(1-crane)) }\n",
                ),
            "test game.fuda",
        ),
        one_file(
            "pattern-chain-5000",
            "5,000 patterns, each testing the next, checked",
            pattern_chain(5000, "proc match { }\n"),
            "check game.fuda",
        ),
        one_file(
            "heavy-rounds",
            "every round counts to 100,000 and ends in an `outcome`, random players",
            heavy_game.clone(),
            "simulate game.fuda --games 100",
        ),
        one_file(
            "heavy-rounds-greedy",
            "the same game with greedy players, who play out each move they weigh",
            heavy_game.clone(),
            "simulate game.fuda --games 16 --agents greedy",
        ),
        one_file(
            "heavy-test",
            "a test whose rounds each count to 100,000 and end in an `outcome`",
            game(
                    "proc match { }\nproc heavy { loop { n = count(i in 1..100000: i > 0)\n outcome \"done\" } }\n\
                     test \"t\" { heavy() }",
                ),
            "test game.fuda",
        ),
        one_file(
            "many-heavy-tests",
            "10,000 tests, each counting to 100,000",
            game(&format!(
                    "proc match {{ }}\n{}",
                    (0..10_000)
                        .map(|i| format!(
                            "test \"t{i}\" {{ let k = count(i in 1..100000: i > 0) }}\n"
                        ))
                        .collect::<String>()
                )),
            "test game.fuda",
        ),
        one_file(
            "nested-repeat-test",
            "`repeat 1000000` inside `repeat 1000000`, in a test",
            game(
                    "proc match { }\ntest \"t\" { repeat 1000000 { repeat 1000000 { n += 1 } } }",
                ),
            "test game.fuda",
        ),
        one_file(
            "nested-repeat-game",
            "`repeat 1000000` inside `repeat 1000000`, in a game",
            game(
                    "proc match { repeat 1000000 { repeat 1000000 { n += 1 } } }",
                ),
            "simulate game.fuda --games 10",
        ),
        one_file(
            "recursion",
            "a procedure that loops a million times around a call of itself",
            game(
                    "proc r { repeat 1000000 { n += 1\n r() } }\nproc match { r() }\ntest \"t\" { r() }",
                ),
            "simulate game.fuda --games 10",
        ),
        one_file(
            "unique-tally",
            "a tally of a value unique to each of 10,000 deals a game, 100 games",
            game(&format!(
                    "var k: int = 0\nproc match {{ repeat 10000 {{ k += 1\n tally 番号 k\n {} }} }}",
                    heavy_round("n += 1")
                )),
            "simulate game.fuda --games 100",
        ),
        one_file(
            "unknown-names-8000",
            "8,000 unknown card names on one 56 KB line",
            format!(
                    "ruleset \"x\"\nimport \"std/hanafuda\"\nseats 2 {{ 2: 親 子 }}\ndef big(h: cards) = count(cards({}))\n",
                    (0..8000).map(|i| format!("nm{i:04}")).collect::<Vec<_>>().join(" ")
                ),
            "check game.fuda",
        ),
        one_file(
            "params-70000",
            "70,000 parameters (an index past 65,535 once read another's value)",
            game(&format!(
                    "proc match {{ }}\n{}test \"last\" {{ expect p69999 == 69999 }}",
                    (0..70_000)
                        .map(|i| format!("param p{i}: int = {i}\n"))
                        .collect::<String>()
                )),
            "check game.fuda",
        ),
        one_file(
            "chained-defaults-50000",
            "50,000 parameters, each defaulting to the one before",
            game(&format!(
                    "proc match {{ }}\nparam p0: int = 1\n{}",
                    (1..50_000)
                        .map(|i| format!("param p{i}: int = p{}\n", i - 1))
                        .collect::<String>()
                )),
            "check game.fuda",
        ),
        one_file(
            "tags-100000",
            "100,000 tags on a deck",
            own_deck(
                    &format!(
                        "  tags {}\n  card c0 \"c0\" +t99999",
                        (0..100_000)
                            .map(|i| format!("t{i}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    "",
                ),
            "check game.fuda",
        ),
        one_file(
            "symbols-100000",
            "an attribute of 100,000 symbols",
            own_deck(
                    &format!(
                        "  attribute a: {}\n  card c0 \"c0\" a=s0",
                        (0..100_000)
                            .map(|i| format!("s{i}"))
                            .collect::<Vec<_>>()
                            .join(" | ")
                    ),
                    "",
                ),
            "check game.fuda",
        ),
        one_file(
            "plus-chain",
            "one `+` chain of 3.9 MB",
            game(&format!(
                    "proc match {{ }}\ndef f() = 1{}",
                    " + 1".repeat(3_900_000 / 4)
                )),
            "check game.fuda",
        ),
        one_file(
            "dense-4mib",
            "a legal file of 4 MiB of dense procedures",
            game(&format!(
                    "proc match {{ }}\n{}",
                    up_to(4 * MIB - 4096, |i| {
                        let term = format!(
                            "(if x > {i} then (x * 2 + 1 - x % 3) * (x + {i}) else x + {i} - (x * x) % 7)"
                        );
                        format!("proc d{i}(x: int) {{ n = {} }}\n", [term.as_str(); 5].join(" + "))
                    })
                )),
            "check game.fuda",
        ),
        Case {
            name: "imports-62x4mib",
            about: "a file importing 62 files of 4 MiB each",
            files: {
                let mut files: Vec<(String, Vec<u8>)> = (0..62)
                    .map(|f| {
                        (
                            format!("part{f}.fuda"),
                            text(up_to(4 * MIB - 64, |i| {
                                format!("def f{f}_{i}(x: int) = x * {i} + {f}\n")
                            })),
                        )
                    })
                    .collect();
                let imports: String = (0..62)
                    .map(|f| format!("import \"part{f}.fuda\"\n"))
                    .collect();
                files.push((
                    "game.fuda".into(),
                    text(game(&format!("{imports}proc match {{ }}"))),
                ));
                files
            },
            stdin: None,
            setup: None,
            args: "check game.fuda",
        },
        Case {
            name: "state-fifo",
            about: "`score --state` naming a FIFO",
            files: vec![("game.fuda".into(), text(small_game.clone()))],
            stdin: None,
            setup: Some("rm -f state.json && mkfifo state.json"),
            args: "score game.fuda --state state.json",
        },
        Case {
            name: "batch-10mb-line",
            about: "`score --batch` fed one 10 MB line with no newline",
            files: vec![
                ("sangohana.fuda".into(), text(SANGOHANA.to_string())),
                ("batch.jsonl".into(), vec![b'{'; 10_000_000]),
            ],
            stdin: None,
            setup: None,
            args: "score sangohana.fuda --batch batch.jsonl",
        },
        Case {
            name: "play-50mb-line",
            about: "`fuda play` fed one 50 MB line with no newline",
            files: vec![
                ("game.fuda".into(), text(small_game.clone())),
                ("line.txt".into(), vec![b'7'; 50_000_000]),
            ],
            stdin: Some("line.txt"),
            setup: None,
            args: "play game.fuda --seed 1",
        },
        Case {
            name: "replay-30mb",
            about: "a replay of 30 MB",
            files: vec![
                ("game.fuda".into(), text(small_game.clone())),
                (
                    "big.toml".into(),
                    text(replay("game.fuda", &"0, ".repeat(10_000_000))),
                ),
            ],
            stdin: None,
            setup: None,
            args: "replay big.toml",
        },
        Case {
            name: "replay-environ",
            about: "a replay naming `/proc/self/environ` as its ruleset",
            files: vec![("r.toml".into(), text(replay("/proc/self/environ", "")))],
            stdin: None,
            setup: None,
            args: "replay r.toml",
        },
        Case {
            name: "replay-escapes",
            about: "a replay whose ruleset name holds terminal escape sequences",
            files: vec![(
                "r.toml".into(),
                text(replay("\u{1b}]0;owned\u{7}\u{1b}[2J\u{1b}[31mred.fuda", "")),
            )],
            stdin: None,
            setup: None,
            args: "replay r.toml",
        },
    ]
}

fn write(path: &Path, bytes: &[u8]) {
    if let Err(e) = std::fs::write(path, bytes) {
        eprintln!("hostile: cannot write {}: {e}", path.display());
        std::process::exit(2);
    }
}

fn main() {
    let Some(out) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: hostile OUT_DIR");
        std::process::exit(2);
    };
    let mut tsv = String::new();
    for case in cases() {
        let dir = out.join(case.name);
        if let Err(e) = std::fs::create_dir_all(&dir) {
            eprintln!("hostile: cannot make {}: {e}", dir.display());
            std::process::exit(2);
        }
        for (name, bytes) in &case.files {
            write(&dir.join(name), bytes);
        }
        let _ = writeln!(
            tsv,
            "{}\t{}\t{}\t{}\t{}",
            case.name,
            case.stdin.unwrap_or("-"),
            case.setup.unwrap_or("-"),
            case.args,
            case.about
        );
    }
    write(&out.join("cases.tsv"), tsv.as_bytes());
}
