//! Running the built `fuda` binary from end-to-end tests.

#![allow(dead_code)] // each test file uses a different part of this helper

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What a run of `fuda` produced.
pub struct Run {
    /// The exit code.
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    /// Both streams, for messages that may go to either.
    pub fn all(&self) -> String {
        format!("{}\n{}", self.stdout, self.stderr)
    }
}

/// The bundled 珊瑚花 ruleset.
pub fn sangohana() -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulesets/sangohana.fuda");
    p.to_string_lossy().into_owned()
}

/// The path of a bundled ruleset, `rulesets/NAME`.
pub fn bundled(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../rulesets")
        .join(name);
    p.to_string_lossy().into_owned()
}

/// Writes rule text `text` as file `name` in folder `dir`, and gives its path.
pub fn rule_file(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write a rule file");
    path.to_string_lossy().into_owned()
}

/// A `simulate` or `compare` report read from its `--json` output, without the
/// wall-clock fields, the only ones that change between identical runs (a comparison's
/// from each side's report).
pub fn without_timing(out: &str) -> serde_json::Value {
    let mut v: serde_json::Value =
        serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"));
    let sides: &[&str] = if v.get("difference").is_some() {
        &["a", "b"]
    } else {
        &[""]
    };
    for side in sides {
        let report = if side.is_empty() {
            &mut v
        } else {
            &mut v[*side]
        };
        let obj = report.as_object_mut().expect("a report");
        for k in ["seconds", "deals_per_second", "games_per_second"] {
            assert!(obj.remove(k).is_some(), "the report has `{k}`");
        }
    }
    v
}

/// A `simulate` or `compare` text report without its wall-clock parts: the head's
/// `deals in 0.29 s (41151 deals/s)` reads `deals`.
pub fn untimed_text(out: &str) -> String {
    let mut text = String::new();
    for line in out.lines() {
        let cut = line.find(" deals in ").map(|i| i + " deals".len());
        let Some(start) = cut else {
            text.push_str(line);
            text.push('\n');
            continue;
        };
        let rest = &line[start..];
        let mut tail = rest.find(" s").map_or("", |e| &rest[e + 2..]);
        if let Some(end) = tail.find(" deals/s)").filter(|_| tail.starts_with(" (")) {
            tail = &tail[end + " deals/s)".len()..];
        }
        text.push_str(&line[..start]);
        text.push_str(tail);
        text.push('\n');
    }
    text
}

/// Runs `fuda` with arguments and no input.
pub fn fuda(args: &[&str]) -> Run {
    fuda_with_input(args, "")
}

/// Runs `fuda` with arguments, feeding `input` on stdin.
pub fn fuda_with_input(args: &[&str], input: &str) -> Run {
    fuda_in(None, args, input)
}

/// Runs `fuda` with `input` on stdin, on a screen of 80 columns (`COLUMNS=80`, whatever
/// the terminal the tests run in), as the tests of `fuda play`'s screens expect.
pub fn fuda_80(args: &[&str], input: &str) -> Run {
    fuda_env(None, &[("COLUMNS", Some("80"))], args, input.as_bytes())
}

/// Runs `fuda` in folder `dir` (this process's own when `None`), feeding `input`.
pub fn fuda_in(dir: Option<&Path>, args: &[&str], input: &str) -> Run {
    fuda_env(dir, &[], args, input.as_bytes())
}

/// As [`fuda_in`], with environment variables set (`Some`) or removed (`None`) first.
pub fn fuda_env(
    dir: Option<&Path>,
    env: &[(&str, Option<&str>)],
    args: &[&str],
    input: &[u8],
) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fuda"));
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    for (name, value) in env {
        match value {
            Some(v) => cmd.env(name, v),
            None => cmd.env_remove(name),
        };
    }
    let mut child = cmd
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fuda starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    // Write from a thread: the child may stop reading early (and a full pipe must not
    // block us while it waits for us to read its output).
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("fuda runs");
    let _ = writer.join();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// How `fuda` would wrongly open a FIFO, were it to: which end the watch looks for.
#[derive(Clone, Copy, Debug)]
pub enum FifoEnd {
    /// Read from (a ruleset or a replay): `fuda` would wait for a writer.
    Read,
    /// Written to (a record): `fuda` would wait for a reader.
    Write,
}

/// Runs `fuda` in folder `dir` with no input, beside FIFOs it must refuse without
/// opening them, and panics if it opens one. No clock is read: while `fuda` runs, each
/// FIFO is watched from the other end, non-blocking. A reader `fuda` opened lets a
/// non-blocking writer open (which fails with no reader there); a writer it opened (or
/// bytes it wrote) shows at a non-blocking read end the watch holds, which otherwise
/// reads the end of the file. Either way `fuda` would have waited forever on a real
/// FIFO with no one at the other end, so the test fails at once, saying which.
#[cfg(unix)]
pub fn fuda_beside_fifos(dir: &Path, args: &[&str], fifos: &[(&Path, FifoEnd)]) -> Run {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let nonblocking = |read: bool| {
        let mut o = std::fs::OpenOptions::new();
        o.read(read).write(!read).custom_flags(libc::O_NONBLOCK);
        o
    };
    // Read ends held for the watch of written FIFOs, opened before `fuda` starts.
    let mut readers: Vec<(&Path, std::fs::File)> = fifos
        .iter()
        .filter(|(_, end)| matches!(end, FifoEnd::Write))
        .map(|(p, _)| {
            (
                *p,
                nonblocking(true).open(p).expect("open the FIFO's read end"),
            )
        })
        .collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fuda starts");
    let opened = |child: &mut std::process::Child, what: String| -> ! {
        let _ = child.kill();
        let _ = child.wait();
        panic!(
            "`fuda {}` {what}: on a FIFO with no one at the other end it would wait forever",
            args.join(" ")
        )
    };
    while child.try_wait().expect("wait").is_none() {
        for (p, end) in fifos {
            if matches!(end, FifoEnd::Read) && nonblocking(false).open(p).is_ok() {
                opened(&mut child, format!("opened {} to read", p.display()));
            }
        }
        for (p, r) in &mut readers {
            let mut byte = [0u8; 1];
            match r.read(&mut byte) {
                Ok(0) => {}
                Ok(_) => opened(&mut child, format!("wrote to {}", p.display())),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    opened(&mut child, format!("opened {} to write", p.display()))
                }
                Err(e) => panic!("watching {}: {e}", p.display()),
            }
        }
        std::thread::yield_now();
    }
    let out = child.wait_with_output().expect("output");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Why a terminal test fails where util-linux's `script` is missing: it is part of every
/// common Linux system, so its absence is reported, not skipped.
pub const NEEDS_SCRIPT: &str =
    "the terminal tests run fuda under util-linux's `script`, which is not installed";

/// Runs `fuda` with its streams on a terminal (a pseudo-terminal 100 columns wide, made
/// by util-linux's `script`), environment variables set or removed as in [`fuda_env`]:
/// what a person at a terminal sees, stdout and stderr together, line ends as `\r\n`.
/// `None` where `script` is missing (it is part of every common Linux system).
pub fn fuda_on_terminal(env: &[(&str, Option<&str>)], args: &[&str]) -> Option<String> {
    let quote = |a: &str| format!("'{}'", a.replace('\'', "'\\''"));
    let mut line = String::from("stty cols 100 rows 40; ");
    line.push_str(&quote(env!("CARGO_BIN_EXE_fuda")));
    for a in args {
        line.push(' ');
        line.push_str(&quote(a));
    }
    let mut cmd = Command::new("script");
    cmd.args(["-qec", &line, "/dev/null"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in env {
        match value {
            Some(v) => cmd.env(name, v),
            None => cmd.env_remove(name),
        };
    }
    let out = cmd.output().ok()?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Compares `text` with the golden file `tests/golden/play/NAME`, or writes it there
/// when `UPDATE_GOLDEN` is set. A difference fails with the first line that differs.
pub fn golden(name: &str, text: &str) {
    let path = format!("{}/tests/golden/play/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(std::path::Path::new(&path).parent().expect("folder"))
            .expect("make the golden folder");
        std::fs::write(&path, text).expect("write the golden file");
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e} (UPDATE_GOLDEN=1 writes it)"));
    if want == text {
        return;
    }
    let (a, b): (Vec<&str>, Vec<&str>) = (want.lines().collect(), text.lines().collect());
    let at = (0..a.len().max(b.len()))
        .find(|i| a.get(*i) != b.get(*i))
        .unwrap_or(0);
    panic!(
        "the screen differs from {path} at line {}:\n  golden: {:?}\n  now:    {:?}\n\
         (if the change is meant, run with UPDATE_GOLDEN=1 and review the diff)",
        at + 1,
        a.get(at).copied().unwrap_or("<end>"),
        b.get(at).copied().unwrap_or("<end>"),
    );
}

/// Each deal opens with an ante to the pot, and the pot goes to seat 0 before the
/// outcome.
pub const ANTE_EACH_DEAL: &str = r#"ruleset "end-of-deal chips probe"
import "std/kabufuda"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
zone 手 per seat pile owner
enum 結果: 終(end)
var chips: int per seat = 0
var pot: int = 0
ledger chips, pot
proc match {
  repeat 2 {
    for x in seats() { pay 5 from chips[x] to pot }
    choose 0 { move a { } move b { } }
    pay pot from pot to chips[0]
    outcome 終
  }
}
"#;
