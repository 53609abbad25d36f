//! `reveal CARDS` (さらす): chosen cards are shown to every seat where they lie, without
//! moving, until the next `gather`; the rest of their zone stays as hidden as it was.

use fuda_core::loader::MemoryFiles;

const RULES: &str = r#"ruleset "showing"
import "std/kabufuda"
seats 2 { 2: 親 子 }
zone 山 shared stack hidden
zone 手 per seat pile owner

proc match {
  gather 山
  deal 3 from 山 to 手
  choose 0 { move さらす(c in 手[0]) { reveal c } }
  choose 1 { move 見る { } move 待つ { } }
  gather 山
  deal 3 from 山 to 手
  choose 1 { move 見る { } move 待つ { } }
}
"#;

#[test]
fn a_shown_card_is_seen_by_all_until_the_next_gather() {
    let p = match fuda_core::compile("showing.fuda", RULES, &MemoryFiles::default()) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    };
    let mut st = fuda_core::State::new(&p, &[], 5).expect("starts");
    assert!(!st.advance(&p).expect("runs"));
    let hand0 = st.board.sets[st.board.zone_instance(1, Some(0)) as usize];
    assert_eq!(
        st.visible_to(&p, 1).inter(hand0),
        fuda_core::model::CardSet::EMPTY
    );
    // Seat 0 shows its first card (moves are in deck order).
    let first = hand0.first().expect("a card");
    st.apply(&p, &[0]).expect("applies");
    assert!(!st.advance(&p).expect("runs"));
    let seen = st.visible_to(&p, 1).inter(hand0);
    assert_eq!(seen, fuda_core::model::CardSet::single(first));
    // It did not move.
    assert!(st.board.sets[st.board.zone_instance(1, Some(0)) as usize].contains(first));
    st.apply(&p, &[0]).expect("applies");
    assert!(!st.advance(&p).expect("runs"));
    // After the gather, the new deal is hidden again.
    let hand0 = st.board.sets[st.board.zone_instance(1, Some(0)) as usize];
    assert_eq!(
        st.visible_to(&p, 1).inter(hand0),
        fuda_core::model::CardSet::EMPTY
    );
}
