//! Procedures that return a value: calls in a statement's expressions, run in the order
//! the expression evaluates them (also after `and`, `or` and in `if` branches only when
//! reached), decisions inside them, and the checker's answers to a missing value.

use fuda_core::agents::{by_name, Agent};
use fuda_core::loader::NoFiles;
use fuda_core::play::{agent_seed, game_seed, play_game, PlayOptions};

const RULES: &str = r#"
ruleset "values"
import "std/kabufuda"
seats 2 { 2: a b }
enum 結果: 終わり
zone 山 shared stack hidden
zone 手 per seat pile owner
var chips: int per seat = 0
var 呼ばれた: int = 0

proc 点数(x: seat) -> int {
  呼ばれた += 1
  return sum(c in 手[x]: c.number)
}
proc 引く(x: seat) -> card {
  let c = top(山)
  move c to 手[x]
  return c
}
proc 大きい(n: int) -> bool {
  呼ばれた += 1
  if n > 5 { return true } else { return false }
}
proc 選ぶ(x: seat) -> int {
  choose x {
    move 一 { return 1 }
    move 二 { return 2 }
  }
}
proc 回る(n: int) -> int {
  let i = 0
  loop {
    i += 1
    if i >= n { return i }
  }
}
proc 再帰(n: int) -> int {
  if n <= 0 { return 0 }
  return n + 再帰(n - 1)
}
proc match {
  repeat 3 {
    gather 山
    shuffle 山
    deal 2 from 山 to 手
    let s = dealer
    let v = 選ぶ(s) + 点数(s)
    chips[s] += v
    if 大きい(v) and 選ぶ(next(s)) == 2 { chips[next(s)] += 1 }
    outcome 終わり
    dealer = next(dealer)
  }
}

test "a value from a procedure" {
  move cards(3a 4a) to 手[0]
  expect 点数(0) == 7
  let n = 点数(0) * 2 + 1
  expect n == 15
  expect 呼ばれた == 2
}
test "the hand is read before the call that changes it, as written" {
  move cards(3a) to 手[0]
  move cards(9a) to 山
  let before = count(手[0]) + 0 * count(引く(0))
  expect before == 1
  expect count(手[0]) == 2
  let after = 0 * count(引く(0)) + count(手[0])
  expect after == 3
}
test "the right of `and` runs only when reached" {
  let x = false and 大きい(9)
  expect not x
  expect 呼ばれた == 0
  let y = true and 大きい(9)
  expect y
  expect 呼ばれた == 1
  let z = if 大きい(1) then 大きい(2) else 点数(0) == 0
  expect z
  expect 呼ばれた == 3
}
test "a decision inside, answered" {
  answer 二
  expect 選ぶ(0) == 2
}
test "in conditions, loops, arguments and returns" {
  expect 回る(4) == 4
  expect 再帰(4) == 10
  let total = 0
  repeat 回る(3) as i { total += 回る(i) }
  expect total == 6
  while 回る(1) > 5 { total += 100 }
  expect total == 6
  chips[0] += 再帰(2)
  expect chips[0] == 3
}
"#;

fn compiled(text: &str) -> Result<fuda_core::Program, Vec<fuda_core::Diagnostic>> {
    fuda_core::compile("t.fuda", text, &NoFiles)
        .map(|c| c.program)
        .map_err(|f| f.diagnostics)
}

#[test]
fn procedures_return_values_in_order() {
    let p = compiled(RULES).unwrap_or_else(|d| panic!("{d:#?}"));
    assert_eq!(p.tests.len(), 5);
    for i in 0..p.tests.len() {
        if let Err(e) = fuda_core::State::run_test(&p, i) {
            panic!("test \"{}\": {}", p.tests[i].name, e.message);
        }
    }
}

#[test]
fn games_with_valued_procedures_play_alike_in_the_machine_and_the_engine() {
    let p = compiled(RULES).unwrap_or_else(|d| panic!("{d:#?}"));
    // The register machine carries a procedure's value back to its caller.
    assert!(p.vm.image(&p, 2).is_ok(), "{:?}", p.vm.image(&p, 2).err());
    for g in 0..20 {
        let seed = game_seed(3, g);
        let game = |engine_only: bool| {
            let mut agents: Vec<Box<dyn Agent>> = (0..2)
                .map(|s| by_name("random", agent_seed(seed, s)).expect("agent"))
                .collect();
            let opts = PlayOptions {
                engine_only,
                ..PlayOptions::default()
            };
            play_game(&p, &[], seed, &mut agents, &opts)
                .unwrap_or_else(|e| panic!("game {g}: {e:?}"))
        };
        let (engine, either) = (game(true), game(false));
        assert_eq!(engine.outcomes.len(), 3, "game {g}");
        assert_eq!(format!("{engine:?}"), format!("{either:?}"), "game {g}");
    }
}

/// The codes and messages of compiling `RULES` with `from` replaced by `to`.
fn problems(from: &str, to: &str) -> Vec<(String, String)> {
    let text = RULES.replacen(from, to, 1);
    assert_ne!(text, RULES, "the replacement applies");
    match compiled(&text) {
        Ok(_) => panic!("compiles"),
        Err(d) => d
            .iter()
            .map(|d| (d.code.to_string(), d.message.clone()))
            .collect(),
    }
}

#[test]
fn a_missing_value_is_an_error() {
    let d = problems("return sum(c in 手[x]: c.number)", "return");
    assert_eq!(d[0].0, "fuda::return-value", "{d:?}");
    let d = problems(
        "if n > 5 { return true } else { return false }",
        "if n > 5 { return true }",
    );
    assert_eq!(d[0].0, "fuda::missing-return", "{d:?}");
    assert!(d[0].1.contains("`大きい`"), "{d:?}");
    let d = problems("    if i >= n { return i }\n", "    if i >= n { break }\n");
    assert_eq!(d[0].0, "fuda::missing-return", "{d:?}");
    let d = problems("    move 二 { return 2 }", "    move 二 { }");
    assert_eq!(d[0].0, "fuda::missing-return", "{d:?}");
    let d = problems("proc match {", "proc match -> int {");
    assert_eq!(d[0].0, "fuda::bad-entry", "{d:?}");
}

#[test]
fn a_value_where_a_procedure_cannot_run_is_an_error() {
    let d = problems("  return c\n", "  return 1\n");
    assert_eq!(d[0].0, "fuda::type-mismatch", "{d:?}");
    // A quantifier's body, a move's guard, a def.
    let d = problems(
        "let v = 選ぶ(s) + 点数(s)",
        "let v = count(c in 手[s]: 大きい(c.number))",
    );
    assert_eq!(d[0].0, "fuda::proc-as-value", "{d:?}");
    let d = problems(
        "    move 一 { return 1 }",
        "    move 一 when 大きい(3) { return 1 }",
    );
    assert_eq!(d[0].0, "fuda::proc-as-value", "{d:?}");
    let text = RULES.replacen(
        "proc match {",
        "def 倍(x: seat) = 点数(x) * 2\nproc match {",
        1,
    );
    let Err(d) = compiled(&text) else {
        panic!("compiles")
    };
    assert_eq!(d[0].code, "fuda::proc-as-value", "{d:?}");
    // Also where the def is expanded inside a statement.
    let text = text.replacen("let v = 選ぶ(s) + 点数(s)", "let v = 倍(s)", 1);
    let Err(d) = compiled(&text) else {
        panic!("compiles")
    };
    assert!(d.iter().all(|d| d.code == "fuda::proc-as-value"), "{d:?}");
    // A procedure without `-> TYPE` has no value, and returns none.
    let d = problems("proc 大きい(n: int) -> bool {", "proc 大きい(n: int) {");
    assert!(d.iter().any(|x| x.0 == "fuda::return-value"), "{d:?}");
    assert!(d.iter().any(|x| x.0 == "fuda::proc-as-value"), "{d:?}");
}
