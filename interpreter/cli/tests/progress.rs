//! End to end: rates print as whole numbers with thousands separators, and `fuda
//! compare` labels its two progress bars A and B (drawn on a terminal only).

mod common;

use std::path::Path;

use common::{fuda, fuda_on_terminal, sangohana};

/// Whether `s` is a whole number grouped by commas: `7`, `41,151`, `1,234,567`.
fn grouped_whole(s: &str) -> bool {
    let mut groups = s.split(',');
    let first = groups.next().unwrap_or_default();
    (1..=3).contains(&first.len())
        && first.bytes().all(|b| b.is_ascii_digit())
        && groups.all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()))
}

#[test]
fn the_grouping_check_itself() {
    assert!(grouped_whole("7") && grouped_whole("41,151") && grouped_whole("1,234,567"));
    assert!(!grouped_whole("1475.3") && !grouped_whole("1475") && !grouped_whole("41,15"));
}

#[test]
fn simulate_reports_deals_per_second_as_a_grouped_whole_number() {
    let args = ["simulate", &sangohana(), "--games", "6", "--set", "deals=1"];
    let r = fuda(&args);
    assert_eq!(r.code, 0, "{}", r.all());
    let head = r.stdout.lines().next().unwrap_or_default();
    let rate = head
        .split_once(" s (")
        .and_then(|(_, rest)| rest.split_once(" deals/s)"))
        .map(|(rate, _)| rate)
        .unwrap_or_else(|| panic!("no rate in {head}"));
    assert!(grouped_whole(rate), "{head}");
    // The JSON keeps its numbers as numbers.
    let r = fuda(&[&args[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
    assert!(v["deals_per_second"].is_number(), "{v}");
}

/// On a terminal each bar of `fuda compare` starts with its side and file name, and
/// its rate is a whole number (`84/s`).
#[test]
fn compare_labels_its_bars_a_and_b() {
    let strict = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulesets/sangohana-strict.fuda");
    let screen = fuda_on_terminal(
        &[],
        &[
            "compare",
            &sangohana(),
            strict.to_str().expect("utf-8 path"),
            "--games",
            "6",
            "--set",
            "deals=1",
            "--threads",
            "1",
        ],
    )
    .expect(common::NEEDS_SCRIPT);
    // Each redraw of a bar starts after a carriage return or an erase-line sequence.
    let bars: Vec<&str> = screen
        .split(['\r', '\n'])
        .flat_map(|l| l.split("\u{1b}[2K"))
        .filter(|l| l.contains(" games  "))
        .collect();
    let a = bars
        .iter()
        .filter(|b| b.starts_with("A sangohana.fuda  "))
        .count();
    let b = bars
        .iter()
        .filter(|b| b.starts_with("B sangohana-strict.fuda  "))
        .count();
    assert!(a > 0 && b > 0, "bars A and B drawn: {bars:#?}");
    assert_eq!(a + b, bars.len(), "every bar is labelled: {bars:#?}");
    for bar in &bars {
        let rate = bar
            .split_once(" games  ")
            .and_then(|(_, rest)| rest.split_once("/s"))
            .map(|(rate, _)| rate)
            .unwrap_or_else(|| panic!("no rate in {bar:?}"));
        assert!(grouped_whole(rate), "{bar:?}");
    }
    // The report follows the bars, as on a pipe.
    assert!(screen.contains("A: 珊瑚花 Sangohana ("), "{screen}");
}
