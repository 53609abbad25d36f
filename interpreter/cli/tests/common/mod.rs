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

/// Runs `fuda` in folder `dir` with no input, killing it after `secs` seconds: for
/// paths (FIFOs) that would make it wait forever. `None` when it had to be killed.
pub fn fuda_within(secs: u64, dir: &Path, args: &[&str]) -> Option<Run> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fuda starts");
    let started = std::time::Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > std::time::Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    Some(Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    })
}

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
