//! What `fuda simulate` holds does not grow with the number of games: it keeps running
//! sums, not the games. This file holds one test, so that the peak memory of the
//! children this process waited for is that test's alone.

mod common;

use common::{fuda, rule_file};

/// The largest resident size of the children waited for so far, in bytes.
#[cfg(target_os = "linux")]
fn children_peak() -> u64 {
    // SAFETY: `getrusage` fills the struct it is given; a zeroed `rusage` is valid.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(
        unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) },
        0
    );
    // Linux counts `ru_maxrss` in kilobytes.
    usage.ru_maxrss as u64 * 1024
}

/// Each game tallies a kilobyte of text 1,000 times (a megabyte of events a game): 200
/// games kept until the end held 200 MB; summed as they finish, a few.
#[cfg(target_os = "linux")]
#[test]
fn simulate_holds_sums_not_games() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = rule_file(
        dir.path(),
        "long.fuda",
        "ruleset \"long\"\nimport \"std/hanafuda\"\nseats 2 { 2: a b }\n\
         zone z shared pile public\nvar k: int = 0\n\
         proc match { let t = \"abcdefgh\"\n repeat 7 { t = t + t }\n\
         repeat 1000 { k += 1\n tally 長 t + k\n\
         choose 0 { move x { } move y { } }\n outcome \"x\" } }\n",
    );
    let r = fuda(&[
        "simulate",
        &file,
        "--games",
        "200",
        "--agents",
        "random",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    let json: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
    assert_eq!(json["games"], 200, "{}", r.stdout.len());
    let peak = children_peak();
    assert!(
        peak < 100 << 20,
        "`fuda simulate` held {} MB for 200 games",
        peak >> 20
    );
}
