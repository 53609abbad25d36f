//! End to end: `fuda simulate --shard I/N` played as separate processes, and `fuda
//! merge` of the shards, print exactly what one `fuda simulate` of the whole batch
//! prints (all but the time taken); and `fuda merge` refuses, naming the file and what
//! differs, anything that is not every shard of one batch once.

mod common;

use std::path::Path;

use common::{bundled, fuda, rule_file, sangohana, untimed_text, Run};

/// A report's `--json` text without its wall-clock fields, cut out of the text itself,
/// so that the rest is compared byte for byte.
fn untimed_json(out: &str) -> String {
    let out = out.trim();
    let start = out
        .find(",\"seconds\":")
        .unwrap_or_else(|| panic!("a report with seconds: {out}"));
    let rate = out[start..]
        .find("\"games_per_second\":")
        .map(|i| start + i)
        .unwrap_or_else(|| panic!("a report with games_per_second: {out}"));
    let end = out[rate..]
        .find([',', '}'])
        .map(|i| rate + i)
        .expect("the end of the number");
    format!("{}{}", &out[..start], &out[end..])
}

/// Runs `fuda` and expects exit code `code`.
fn expect(code: i32, args: &[&str]) -> Run {
    let r = fuda(args);
    assert_eq!(r.code, code, "{args:?}: {}", r.all());
    r
}

/// Plays `args` (a `simulate` command without `--json`) as one batch and as `n` shards
/// written to `dir`, merges the shards (given in reverse order, to show the order does
/// not matter), and checks that the merged report is the batch's, text and JSON; `code`
/// is the exit code of every run. Gives the files of the shards.
fn shards_add_up(dir: &Path, name: &str, args: &[&str], n: u64, code: i32) -> Vec<String> {
    let whole_json = expect(code, &[args, &["--json"]].concat()).stdout;
    let whole_text = expect(code, args).stdout;
    let mut files = Vec::new();
    for i in 0..n {
        let spec = format!("{i}/{n}");
        let out = fuda(&[args, &["--shard", &spec, "--json"]].concat());
        // A shard fails when one of its own games does: not every shard of a batch
        // with failures has one.
        let ok = if code == 0 { [0, 0] } else { [0, 1] };
        assert!(ok.contains(&out.code), "{spec}: {}", out.all());
        let file = dir.join(format!("{name}-{i}.json"));
        std::fs::write(&file, &out.stdout).expect("write a shard report");
        files.push(file.to_string_lossy().into_owned());
    }
    let mut merge: Vec<&str> = vec!["merge"];
    merge.extend(files.iter().rev().map(String::as_str));
    let merged_json = expect(code, &[&merge[..], &["--json"]].concat()).stdout;
    assert_eq!(
        untimed_json(&merged_json),
        untimed_json(&whole_json),
        "{name}: {n} shards merged"
    );
    let merged_text = expect(code, &merge).stdout;
    assert_eq!(
        untimed_text(&merged_text),
        untimed_text(&whole_text),
        "{name}"
    );
    files
}

#[test]
fn shards_of_sangohana_add_up_to_the_whole_batch() {
    let dir = tempfile::tempdir().expect("temp dir");
    let s = sangohana();
    let args = [
        "simulate",
        &s,
        "--games",
        "25",
        "--seed",
        "7",
        "--set",
        "deals=2",
        "--agents",
        "greedy,random,random",
    ];
    let files = shards_add_up(dir.path(), "sangohana", &args, 3, 0);
    // A shard's report: its own games, and what a merge needs.
    let part: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&files[1]).expect("read")).expect("JSON");
    assert_eq!(part["games_requested"], 8, "games 1, 4, … 22");
    assert_eq!(part["games"], 8);
    let shard = &part["shard"];
    assert_eq!(
        (shard["index"].clone(), shard["count"].clone()),
        (1.into(), 3.into())
    );
    assert_eq!(shard["games"], 25);
    assert_eq!(shard["fuda"], env!("CARGO_PKG_VERSION"));
    assert!(shard["ruleset_hash"]
        .as_str()
        .is_some_and(|h| h.starts_with("fnv1a64:")));
    assert!(shard["params"]
        .as_array()
        .is_some_and(|p| p.contains(&serde_json::json!(["deals", "2"]))));
    assert_eq!(shard["sums"]["games"], 8);
    // One shard of one is the whole batch, with its sums.
    shards_add_up(dir.path(), "one", &args, 1, 0);
    // More shards than games: some play none, and still add up.
    let few = [&args[..2], &["--games", "4", "--set", "deals=1"]].concat();
    shards_add_up(dir.path(), "few", &few, 6, 0);
    // The text report of a shard says which it is.
    let r = expect(0, &[&args[..], &["--shard", "2/3"]].concat());
    assert!(
        r.stdout
            .contains("shard 2 of 3: the batch's games i with i % 3 = 2, 8 of its 25"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("8 games, 16 deals"), "{}", r.stdout);
}

/// 富戯 with two agents on four seats, and its tallies; shards on one and two threads.
#[test]
fn shards_of_fugi_with_tallies_add_up() {
    let dir = tempfile::tempdir().expect("temp dir");
    let f = bundled("fugi.fuda");
    let args = [
        "simulate",
        &f,
        "--games",
        "5",
        "--seed",
        "3",
        "--set",
        "降番=1",
        "--agents",
        "random,eager",
    ];
    shards_add_up(dir.path(), "fugi", &args, 3, 0);
    let two = [&args[..], &["--threads", "2"]].concat();
    let files = shards_add_up(dir.path(), "fugi2", &two, 2, 0);
    let part = std::fs::read_to_string(&files[0]).expect("read");
    assert!(part.contains("\"tallies\":[{"), "{part}");
}

/// Games that fail are counted and listed by the merge as the whole batch lists them,
/// and a shard whose share of the batch's first 16 games all failed plays the others'
/// to see whether the batch stops (here it does not).
#[test]
fn failed_games_merge_as_the_whole_batch_lists_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A random player picks the move whose rule fails one time in three.
    let file = rule_file(
        dir.path(),
        "flaky.fuda",
        "ruleset \"flaky\"\nimport \"std/hanafuda\"\nseats 2 { 2: A B }\n\
         zone 山 shared stack hidden\n\
         proc match { repeat 2 { tally 手 \"x\"\n\
         choose 0 { move a { require false } move b { } move c { } }\n\
         outcome \"done\" } }\n",
    );
    // Over 200 failures: the batch lists its first 100, and so does each of two shards
    // (over 100 each), of which the merge keeps the batch's first 100.
    let args = ["simulate", &file, "--games", "450", "--agents", "random"];
    let whole = expect(1, &[&args[..], &["--json"]].concat()).stdout;
    let whole: serde_json::Value = serde_json::from_str(&whole).expect("JSON");
    assert!(
        whole["failed"].as_u64().is_some_and(|n| n > 230),
        "{}",
        whole["failed"]
    );
    assert_eq!(whole["failures"].as_array().map(Vec::len), Some(100));
    for n in [2, 5, 20] {
        let files = shards_add_up(dir.path(), &format!("flaky{n}"), &args, n, 1);
        // Shard 17 of 20 has none of the first 16 games: it went on, as the batch did.
        if n == 20 {
            let part = std::fs::read_to_string(&files[17]).expect("read");
            assert!(part.contains("\"stopped\":false"), "{part}");
        }
    }
    // The merge draws the failures it lists, as the batch drew them: its report's
    // "(see above)" points there.
    let parts: Vec<String> = (0..5)
        .map(|i| {
            dir.path()
                .join(format!("flaky5-{i}.json"))
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let mut merge = vec!["merge"];
    merge.extend(parts.iter().map(String::as_str));
    let r = expect(1, &merge);
    assert!(r.stdout.contains("FAILED: "), "{}", r.stdout);
    assert!(
        r.stderr
            .contains("game 0 (seed 14042462481820308804) failed: a rule's `require` failed ("),
        "{}",
        r.stderr
    );
}

/// A ruleset whose every game fails stops after the batch's first 16 games: every
/// shard stops there too, and the merge says what the whole batch says.
#[test]
fn a_batch_that_stops_stops_in_every_shard() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = rule_file(
        dir.path(),
        "broken.fuda",
        "ruleset \"broken\"\nimport \"std/hanafuda\"\nseats 2 { 2: A B }\n\
         zone 山 shared stack hidden\n\
         proc match { choose 0 { move a { require false } } }\n",
    );
    let args = ["simulate", &file, "--games", "100", "--agents", "random"];
    for n in [3, 20] {
        let files = shards_add_up(dir.path(), &format!("broken{n}"), &args, n, 1);
        for f in &files {
            let part = std::fs::read_to_string(f).expect("read");
            assert!(part.contains("\"stopped\":true"), "{f}: {part}");
        }
    }
    let r = expect(0, &[&args[..], &["--shard", "19/20"]].concat());
    assert!(
        r.stdout
            .contains("(none of them this shard's), so this shard's other 5"),
        "{}",
        r.stdout
    );
    let r = expect(1, &[&args[..], &["--shard", "1/3"]].concat());
    assert!(
        r.stdout.contains(
            "FAILED: the batch's first 16 games all failed (5 of them this shard's, see above), \
             so this shard's other 28 were not played"
        ),
        "{}",
        r.stdout
    );
    let r = expect(1, &[&args[..], &["--json"]].concat());
    assert!(
        r.stdout.contains("\"failed\":16,\"stopped\":true"),
        "{}",
        r.stdout
    );
}

/// `--shard` takes I/N with 0 ≤ I < N, and says so.
#[test]
fn bad_shard_specs_are_usage_errors() {
    let s = sangohana();
    for (spec, says) in [
        ("3/3", "shards are numbered from 0, so the last of 3 is 2/3"),
        ("0/0", "there is at least one shard"),
        ("x", "`x` is not I/N"),
        ("1/two", "`two` is not a whole number (the count N)"),
    ] {
        let r = expect(2, &["simulate", &s, "--games", "1", "--shard", spec]);
        assert!(r.stderr.contains(says), "{spec}: {}", r.stderr);
        assert!(r.stderr.contains("--shard <I/N>"), "{spec}: {}", r.stderr);
    }
}

/// Writes the `--json` report of `simulate` `args` with `--shard spec` as `dir/name`.
fn shard_file(dir: &Path, name: &str, args: &[&str], spec: &str) -> String {
    let r = fuda(&[args, &["--shard", spec, "--json"]].concat());
    assert_eq!(r.code, 0, "{args:?} {spec}: {}", r.all());
    let path = dir.join(name);
    std::fs::write(&path, r.stdout).expect("write");
    path.to_string_lossy().into_owned()
}

/// `fuda merge` of `files`: it fails, and its message has each of `says`, the same in
/// text and in `--json`'s `{"error": …}`.
fn refused(files: &[&str], says: &[&str]) {
    let mut args = vec!["merge"];
    args.extend(files);
    let r = expect(1, &args);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    for s in says {
        assert!(
            r.stderr.contains(s),
            "{files:?}: want {s:?} in {}",
            r.stderr
        );
    }
    args.push("--json");
    let r = expect(1, &args);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
    let error = v["error"].as_str().expect("an error");
    for s in says {
        assert!(error.contains(s), "{files:?}: want {s:?} in {error}");
    }
}

/// The batch the refusals are measured against, with `over`'s options set instead of
/// (or beside) its own: `simulate FILE --games 4 --seed 5 --set deals=1 --agents
/// greedy,random`, where FILE is the option `""`.
fn batch_args(over: &[(&str, &str)]) -> Vec<String> {
    let s = sangohana();
    let mut opts = vec![
        ("", s.as_str()),
        ("--games", "4"),
        ("--seed", "5"),
        ("--set", "deals=1"),
        ("--agents", "greedy,random"),
    ];
    for (k, v) in over {
        match opts.iter_mut().find(|o| o.0 == *k) {
            Some(o) => o.1 = v,
            None => opts.push((k, v)),
        }
    }
    let mut args = vec!["simulate".to_string()];
    for (k, v) in opts {
        if !k.is_empty() {
            args.push(k.to_string());
        }
        args.push(v.to_string());
    }
    args
}

#[test]
fn merge_refuses_what_is_not_every_shard_of_one_batch() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    let shard = |over: &[(&str, &str)], name: &str, spec: &str| {
        let args = batch_args(over);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        shard_file(d, name, &args, spec)
    };
    let a0 = shard(&[], "a0.json", "0/2");
    let a1 = shard(&[], "a1.json", "1/2");
    let ok = expect(0, &["merge", &a0, &a1]);
    assert!(ok.stdout.contains("4 games, 4 deals"), "{}", ok.stdout);

    // Another batch in each of the ways a batch is told apart.
    let differs = |over: &[(&str, &str)], says: &[&str]| {
        let b1 = shard(over, "b1.json", "1/2");
        let mut want = vec!["`", "are shards of different batches"];
        want.extend(says);
        refused(&[&a0, &b1], &want);
    };
    differs(
        &[("--seed", "6")],
        &["the seed (--seed) is 6 in", "but 5 in"],
    );
    differs(
        &[("--games", "5")],
        &["the games (--games) is 5 in", "but 4 in"],
    );
    differs(&[("--players", "4")], &["the players is 4 in", "but 3 in"]);
    differs(
        &[("--agents", "random")],
        &["the agents by seat (--agents) is random,random,random in"],
    );
    differs(
        &[("--seating", "fixed")],
        &["the seating (--seating) is fixed in", "but rotate in"],
    );
    differs(
        &[("--set", "deals=2")],
        &[
            "the parameters (--set) is players=3 deals=2 in",
            "players=3 deals=1 in",
        ],
    );
    // The same games however the parameters are given: `players` at its default.
    let same = shard(&[("--players", "3")], "same.json", "1/2");
    expect(0, &["merge", &a0, &same]);
    // Another ruleset, and another text of the same ruleset (its title unchanged).
    let b1 = shard(
        &[("", &bundled("sangohana-strict.fuda"))],
        "strict.json",
        "1/2",
    );
    refused(&[&a0, &b1], &["the ruleset is `"]);
    let copy_dir = tempfile::tempdir_in(d).expect("a folder for the copy");
    let text = std::fs::read_to_string(sangohana()).expect("read the ruleset");
    let copy = rule_file(
        copy_dir.path(),
        "sangohana.fuda",
        &format!("{text}\n# edited\n"),
    );
    let b1 = shard(&[("", &copy)], "edited.json", "1/2");
    refused(
        &[&a0, &b1],
        &["the ruleset's text (its hash, imports included) is fnv1a64:"],
    );
    // Another number of shards.
    let c1 = shard(&[], "c1.json", "1/3");
    refused(
        &[&a0, &c1],
        &["the number of shards (N of --shard I/N) is 3 in"],
    );

    // A shard twice, or missing.
    let again = d.join("again.json");
    std::fs::copy(&a0, &again).expect("copy");
    let again = again.to_string_lossy().into_owned();
    refused(&[&a0, &again], &["is shard 0/2, and so is `", "a0.json`"]);
    refused(&[&a0, &a1, &a0], &["a0.json` is shard 0/2, given twice"]);
    refused(&[&a1], &["shard 0 of 2 is missing", "--shard I/2"]);
    let t = [shard(&[], "t1.json", "1/5"), shard(&[], "t3.json", "3/5")];
    refused(&[&t[0], &t[1]], &["shards 0, 2 and 4 of 5 are missing"]);

    // Another version of fuda.
    let old = std::fs::read_to_string(&a1).expect("read").replace(
        &format!("\"fuda\":\"{}\"", env!("CARGO_PKG_VERSION")),
        "\"fuda\":\"0.0.1\"",
    );
    let old_file = rule_file(d, "old.json", &old);
    refused(
        &[&a0, &old_file],
        &[
            "`",
            "old.json` was written by fuda 0.0.1, and this is fuda ",
        ],
    );

    // Files that are not shard reports.
    let text = std::fs::read_to_string(&a1).expect("read");
    let cut = rule_file(d, "cut.json", &text[..text.len() / 2]);
    refused(
        &[&a0, &cut],
        &[
            "cut.json` is not JSON (it ends too soon)",
            "at line 1 column",
        ],
    );
    let junk = rule_file(d, "junk.json", "{\"games\": 3,,}");
    refused(
        &[&junk],
        &[
            "junk.json` is not JSON (it is malformed)",
            "key must be a string at line 1 column 13",
        ],
    );
    let mut whole = batch_args(&[]);
    whole.push("--json".into());
    let whole: Vec<&str> = whole.iter().map(String::as_str).collect();
    let whole = expect(0, &whole).stdout;
    let whole = rule_file(d, "whole.json", &whole);
    refused(
        &[&whole],
        &["whole.json` is the report of a whole batch, not of a shard"],
    );
    let failed = expect(1, &["simulate", "no-such.fuda", "--json"]).stdout;
    let failed = rule_file(d, "failed.json", &failed);
    refused(
        &[&failed],
        &[
            "failed.json` is the report of a run that failed",
            "no-such.fuda",
        ],
    );
    let other = rule_file(d, "other.json", "[1, 2]");
    refused(
        &[&other],
        &["other.json` is not a report of `fuda simulate`"],
    );
    // A shard report whose fields are not what this version writes.
    let bent = text.replace("\"sums\":{\"seats\":3", "\"sums\":{\"seats\":\"three\"");
    assert_ne!(bent, text);
    let bent = rule_file(d, "bent.json", &bent);
    refused(
        &[&a0, &bent],
        &[
            "bent.json` is not a shard report as fuda",
            "invalid type: string \"three\"",
            "line 1 column",
        ],
    );
    refused(
        &[&a0, "no-such.json"],
        &["cannot read `no-such.json`: no such file"],
    );
}

#[test]
fn merge_has_help_with_examples() {
    let r = expect(0, &["merge", "--help"]);
    assert!(r.stdout.contains("fuda merge part0.json"), "{}", r.stdout);
    assert!(r.stdout.contains("scripts/shards/"), "{}", r.stdout);
    let r = expect(0, &["simulate", "--help"]);
    assert!(r.stdout.contains("--shard <I/N>"), "{}", r.stdout);
    assert!(r.stdout.contains("--shard 0/4 --json"), "{}", r.stdout);
    let r = expect(2, &["merge"]);
    assert!(r.stderr.contains("PART.json"), "{}", r.stderr);
}
