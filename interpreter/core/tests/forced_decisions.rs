//! Decisions with a single possible outcome are taken without asking anyone: a
//! `choose` with one legal move, and a `choose each` in which every seat has one.
//! A seat with more than one move is asked, and then so is every seat of its
//! `choose each`.

use fuda_core::loader::NoFiles;

const RULES: &str = r#"
ruleset "forced"
import "std/hanafuda"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
zone 出し per seat pile owner
zone 手 per seat pile owner
proc match { }
proc 一手 {
  choose each x in seats() { move 出す(c in 手[x]) { move c to 出し[x] } }
}
test "every seat has one card: nobody is asked" {
  move card(1-crane) to 手[0]
  move card(2-warbler) to 手[1]
  一手()
  expect 出し[0] == cards(1-crane)
  expect 出し[1] == cards(2-warbler)
}
test "one seat has two: both are asked, in seat order" {
  move cards(1-crane 3-curtain) to 手[0]
  move card(2-warbler) to 手[1]
  answer 出す(card(3-curtain))
  answer 出す(card(2-warbler))
  一手()
  expect 出し[0] == cards(3-curtain)
  expect 手[0] == cards(1-crane)
}
"#;

#[test]
fn a_choose_each_with_one_move_per_seat_is_taken_at_once() {
    let p = match fuda_core::compile("t.fuda", RULES, &NoFiles) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    };
    assert_eq!(p.tests.len(), 2);
    for i in 0..p.tests.len() {
        if let Err(e) = fuda_core::State::run_test(&p, i) {
            panic!("test \"{}\": {}", p.tests[i].name, e.message);
        }
    }
}

#[test]
fn an_answer_for_a_forced_move_is_an_error_that_says_why() {
    let text = RULES.to_string()
        + r#"
test "answers a move nobody is asked" {
  move card(1-crane) to 手[0]
  move card(2-warbler) to 手[1]
  answer 出す(card(1-crane))
  一手()
}
"#;
    let p = fuda_core::compile("t.fuda", &text, &NoFiles)
        .expect("compiles")
        .program;
    let i = p.tests.len() - 1;
    let e = fuda_core::State::run_test(&p, i).expect_err("an unused answer fails the test");
    assert!(e.message.contains("was never used"), "{}", e.message);
    assert!(
        e.help
            .as_deref()
            .is_some_and(|h| h.contains("taken by itself")),
        "{:?}",
        e.help
    );
}

#[test]
fn an_answer_too_many_is_not_blamed_on_a_forced_move() {
    let text = RULES.to_string()
        + r#"
test "one answer too many" {
  move cards(1-crane 3-curtain) to 手[0]
  move cards(2-warbler 4-cuckoo) to 手[1]
  answer 出す(card(3-curtain))
  answer 出す(card(2-warbler))
  answer 出す(card(4-cuckoo))
  一手()
}
"#;
    let p = fuda_core::compile("t.fuda", &text, &NoFiles)
        .expect("compiles")
        .program;
    let e = fuda_core::State::run_test(&p, p.tests.len() - 1).expect_err("fails");
    assert!(e.message.contains("was never used"), "{}", e.message);
    let help = e.help.as_deref().unwrap_or_default();
    assert!(help.contains("more answers"), "{help}");
    assert!(!help.contains("taken by itself"), "{help}");
}
