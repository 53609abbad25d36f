//! `fuda play` lists a decision of many moves by move, several to a line, and a run of
//! numbers (帝戯's 目標値 1 to 99) by its ends.

mod common;

use common::{bundled, fuda_with_input};

#[test]
fn a_run_of_numbers_is_shown_by_its_ends() {
    let teigi = bundled("teigi.fuda");
    let r = fuda_with_input(&["play", &teigi, "--seed", "1"], "2\n1\n目標値 57\nquit\n");
    let s = &r.stdout;
    assert!(s.contains("\n  目標値  1:1 … 99:99\n"), "{s}");
    assert!(s.contains("> you: 目標値 57\n"), "{s}");
}

#[test]
fn many_plays_are_grouped_by_move() {
    let fugi = bundled("fugi.fuda");
    // Seed 4: after the exchange the person leads with sixteen moves.
    let r = fuda_with_input(
        &["play", &fugi, "--seed", "4", "--agents", "random"],
        "1\n1\n1\nquit\n",
    );
    let s = &r.stdout;
    assert!(s.contains("\n  単騎   "), "{s}");
    assert!(s.contains(" 1:") && s.contains(" 2:"), "{s}");
    assert!(s.contains("見送り (pass)  "), "{s}");
}
