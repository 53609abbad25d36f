//! A rule only people can break (`person(s)`: a declaration offered to people whatever
//! their hand): `fuda play` marks the person's seat, and the replay it records marks it
//! too, so the game replays the same.

mod common;

use common::{fuda, fuda_with_input};

const RULES: &str = r#"ruleset "declare"
import "std/kabufuda"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
zone 手 per seat pile owner
var chips: int per seat = 10
ledger chips
enum 結果: 上がり | チョンボ | 流れ
def 役(h: cards) = count(h) == 2 and all(c in h: c.number == h.number)
proc match {
  gather 山
  shuffle 山
  deal 2 from 山 to 手
  for x in seats() {
    choose x {
      move 宣言 "上がり宣言" when 役(手[x]) or person(x) {
        if 役(手[x]) { outcome 上がり } else { pay 1 from chips[x] to chips[next(x)]; outcome チョンボ }
        return
      }
      move 見送り { }
    }
  }
  outcome 流れ
}
"#;

#[test]
fn a_person_may_declare_any_hand_and_the_replay_agrees() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rules = dir.path().join("declare.fuda");
    std::fs::write(&rules, RULES).expect("write the rules");
    let record = dir.path().join("game.toml");
    let (rules, record) = (
        rules.to_str().expect("utf-8"),
        record.to_str().expect("utf-8"),
    );
    // Seed 1 deals the person a 1 and an 8: no 役, yet 上がり宣言 is offered.
    let played = fuda_with_input(
        &[
            "play", rules, "--seed", "1", "--agents", "random", "--record", record,
        ],
        "宣言\n",
    );
    assert!(
        played.stdout.contains("── deal 1 ends: チョンボ"),
        "{}",
        played.all()
    );
    let saved = std::fs::read_to_string(record).expect("the record");
    assert!(saved.contains("people = [0]"), "{saved}");
    let replayed = fuda(&["replay", record]);
    assert_eq!(replayed.code, 0, "{}", replayed.all());
    assert!(replayed.stdout.contains("チョンボ"), "{}", replayed.all());
}
