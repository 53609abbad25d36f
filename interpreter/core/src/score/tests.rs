//! Tables compiled with the rewrites and plans against the same tables compiled as
//! written: on thousands of random hands and arguments, the results (names, lines,
//! totals, splits) and the totals alone are the same.

use super::{evaluate_total, score_with, PLAIN};
use crate::engine::{Cx, EVAL_BUDGET};
use crate::loader::MemoryFiles;
use crate::model::{CardSet, GameRng};
use crate::value::{Type, Value};
use crate::Program;

const SANGOHANA: &str = include_str!("../../../../rulesets/sangohana.fuda");
const STRICT: &str = include_str!("../../../../rulesets/sangohana-strict.fuda");
const KASU3: &str = include_str!("../../../../rulesets/sangohana-strict-kasu3.fuda");

/// Stage kinds and modes the bundled rulesets above do not use: `all` and `largest` yaku, a `void`, a
/// computed factor, names reading `yaku` and `factor`, enum, bool and int parameters,
/// quantifiers over groups, several groups of one name, and a table without a pattern.
const STAGES: &str = r#"
ruleset "stages"
import "std/hanafuda"
seats 2 { 2: A B }
zone 山 shared stack hidden
proc match { shuffle 山 }

enum 風: 東 | 南

def 赤(g: cards) = count(c in g: c is 赤短)

pattern 三対 {
  group 対*3: 2 same month
  group 残: 2 same kind where all(c in 残: c.kind != 光)
  require 対[0].month != 対[1].month or 残.kind == 素
}

score 点(h: cards, 風: 風 = 東, 親: bool = false, n: int = 2) over 三対(h) best {
  yaku all {
    光入り   5 when any(c in h: c.kind == 光)
    素残     3 when 残.kind == 素
    短残     4 when 残.kind == 短 and 親
    月高     2 when all(m in 対: m.month >= 7)
    赤       赤(h) when 赤(h) >= 2
  }
  yaku largest {
    早     1 when 対[0].month <= 3
    遅     2 when 対[2].month >= 10
    中     2 when 対[1].month == 6 or 風 == 南
  }
  void {
    素残 when 風 == 南 and 残.kind == 素
    光入り when count(c in h: c.month == 12) >= 2
  }
  times all {
    2 when yaku == 光入り
    3 when 残.kind == 種 and 親
  }
  times largest {
    n when 風 == 南
    4 when 赤(h) == 3
  }
  name {
    大光 when yaku == 光入り and factor >= 6
    "{yaku}×{factor}" when factor > 1 and 親
  }
  plus all {
    親加 2 when 親
    南加 1 when 風 == 南 and not 親
    大基 3 when base >= 9
  }
}

score 素点(h: cards, 親: bool = false) {
  yaku all {
    赤揃 10 when 赤(h) == 3
    多光 5 when count(c in h: c.kind == 光) >= 2
    親点 1 when 親
  }
  times first { 2 when 親 and 赤(h) >= 1 }
  times all { 3 when base >= 10 }
}
"#;

/// The program compiled with the rewrites and plans, and as written.
fn both(name: &str, text: &str) -> (Program, Program) {
    let files = MemoryFiles(vec![
        ("sangohana.fuda".into(), SANGOHANA.into()),
        ("sangohana-strict.fuda".into(), STRICT.into()),
    ]);
    let compile = |plain: bool| {
        PLAIN.with(|p| p.set(plain));
        let r = crate::compile(name, text, &files);
        PLAIN.with(|p| p.set(false));
        match r {
            Ok(c) => c.program,
            Err(f) => panic!("{:#?}", f.diagnostics),
        }
    };
    (compile(false), compile(true))
}

/// A random value for a parameter of type `t` (the hand for `cards`).
fn arg(p: &Program, t: &Type, hand: CardSet, rng: &mut GameRng) -> Value {
    match t {
        Type::Cards => Value::Cards(hand),
        Type::Bool => Value::Bool(rng.below(2) == 1),
        Type::Int => Value::Int(rng.below(5) as i64),
        Type::Sym(crate::value::SymDomain::Enum(e)) => {
            let vals = &p.enums[*e as usize].values;
            Value::Sym(vals[rng.below(vals.len() as u32) as usize].0)
        }
        _ => Value::Unit,
    }
}

/// Scores `count` random hands (half of them drawn from two or three classes of
/// `attr`, so that many match) with random arguments in both programs; returns how
/// many scored something.
fn compare(name: &str, text: &str, table: &str, attr: &str, size: usize, count: usize) -> usize {
    let (fast, plain) = both(name, text);
    let t = fast.score_named(table).expect("table");
    let a = fast.deck.attr_named(attr).expect("attribute");
    let classes = fast.deck.classes(a).to_vec();
    let mut rng = GameRng::new(count as u64 + size as u64);
    let mut scored = 0;
    for i in 0..count {
        let pool: Vec<u16> = if i % 2 == 0 {
            (0..fast.deck.len() as u16).collect()
        } else {
            let k = 2 + rng.below(2) as usize;
            (0..k)
                .fold(CardSet::EMPTY, |s, _| {
                    s.union(classes[rng.below(classes.len() as u32) as usize])
                })
                .iter()
                .collect()
        };
        if pool.len() < size {
            continue;
        }
        let mut cards = pool;
        rng.shuffle(&mut cards);
        let hand: CardSet = cards[..size].iter().copied().collect();
        let args: Vec<Value> = fast.scores[t as usize]
            .params
            .iter()
            .map(|(_, ty, _)| arg(&fast, ty, hand, &mut rng))
            .collect();
        let given: Vec<Option<Value>> = args.iter().cloned().map(Some).collect();
        let r = score_with(&fast, t, given.clone()).expect("scores");
        let want = score_with(&plain, t, given).expect("scores");
        assert_eq!(r, want, "table {table}, hand {hand:?}, arguments {args:?}");
        // The bonus rows are the lines' tail and add up to the result's bonus.
        assert!(r.yaku.ends_with(&r.bonuses), "table {table}, hand {hand:?}");
        let bonus = r
            .bonuses
            .iter()
            .fold(0i64, |a, b| a.saturating_add(b.value));
        assert_eq!(bonus, r.bonus, "table {table}, hand {hand:?}");
        // The total alone, as a guard asks for it.
        let mut locals = Vec::new();
        let mut cx = Cx {
            p: &fast,
            b: None,
            locals: &mut locals,
            groups: &[],
            budget: EVAL_BUDGET,
            at: Default::default(),
        };
        assert_eq!(evaluate_total(&mut cx, t, &args).expect("total"), r.total);
        // Whether it pays, read off the plans as a win guard asks, whatever the other
        // arguments are.
        if super::sign_by_yaku(&fast, &fast.scores[t as usize]) {
            let pays = super::pays(&fast, t, hand);
            assert_eq!(pays, Some(r.total > 0), "table {table}, hand {hand:?}");
            // And at the hand's entry in its pattern's fit table, as a running sum
            // gives it.
            let def = &fast.scores[t as usize];
            let pat = def.over.as_ref().map(|o| &fast.patterns[o.0 as usize]);
            let fit = pat.and_then(|pat| pat.prefilter.as_ref()?.table.as_ref());
            if let Some((fit, index)) = fit.and_then(|f| Some((f, f.index_of(hand)?))) {
                let at = super::pays_at(&fast, t, hand, fit, index);
                assert_eq!(at, pays, "table {table}, hand {hand:?} at {index}");
            }
        }
        scored += (r.total > 0) as usize;
    }
    scored
}

#[test]
fn sangohana_scores_as_written() {
    let n = compare("sangohana.fuda", SANGOHANA, "役代", "kind", 8, 6000);
    assert!(n > 300, "too few scoring hands: {n}");
}

#[test]
fn sangohana_variants_score_as_written() {
    for (name, text) in [
        ("sangohana-strict.fuda", STRICT),
        ("sangohana-strict-kasu3.fuda", KASU3),
    ] {
        let n = compare(name, text, "役代", "kind", 8, 3000);
        assert!(n > 100, "{name}: too few scoring hands: {n}");
    }
}

#[test]
fn other_stages_score_as_written() {
    let n = compare("stages.fuda", STAGES, "点", "month", 8, 4000);
    assert!(n > 100, "点: too few scoring hands: {n}");
    let n = compare("stages.fuda", STAGES, "素点", "kind", 6, 2000);
    assert!(n > 100, "素点: too few scoring hands: {n}");
}

#[test]
fn a_result_lists_the_bonus_rows_that_held() {
    let (p, _) = both("sangohana.fuda", SANGOHANA);
    let t = p.score_named("役代").expect("table");
    let hand: CardSet = p
        .deck
        .parse_card_list(
            "4-cuckoo 5-bridge 6-butterflies 1-kasu-a 1-kasu-b 2-kasu-a 2-kasu-b 5-kasu-a",
        )
        .expect("cards")
        .into_iter()
        .collect();
    let win = |name: &str| {
        let e = p.enums.iter().find(|e| e.name == "和了").expect("和了");
        let s = e
            .values
            .iter()
            .find(|(s, _)| p.sym(*s) == name)
            .expect(name);
        Value::Sym(s.0)
    };
    let score = |win: Value, first: bool| {
        score_with(
            &p,
            t,
            vec![
                Some(Value::Cards(hand)),
                Some(win),
                Some(Value::Bool(first)),
            ],
        )
        .expect("scores")
    };
    let lines = |r: &crate::value::ScoreResult| -> Vec<(String, i64)> {
        r.bonuses
            .iter()
            .map(|b| (b.name.to_string(), b.value))
            .collect()
    };
    // 素役の2倍付け on the first turn: 福上がり added after multiplying, at its value.
    let r = score(win("上がり"), true);
    assert_eq!(lines(&r), [("福上がり".to_string(), 15)]);
    assert_eq!((r.bonus, r.total), (15, 17));
    // The `first` stage: 福当たり's second row, 10, as it is not 配牌 (as_dealt).
    assert_eq!(
        lines(&score(win("当たり"), true)),
        [("福当たり".to_string(), 10)]
    );
    // No bonus held: none listed, and a hand without a yaku lists none either.
    assert!(score(win("上がり"), false).bonuses.is_empty());
    let none: CardSet = p
        .deck
        .parse_card_list("1-ribbon 2-ribbon 3-ribbon 4-ribbon 1-kasu-a 2-kasu-a 3-kasu-a 5-kasu-a")
        .expect("cards")
        .into_iter()
        .collect();
    let r = score_with(
        &p,
        t,
        vec![
            Some(Value::Cards(none)),
            Some(win("上がり")),
            Some(Value::Bool(true)),
        ],
    )
    .expect("scores");
    assert_eq!((r.total, r.bonuses.len()), (0, 0));
}

#[test]
fn the_plans_settle_sangohanas_rows() {
    // The optimized program does tabulate: every yaku row of 役代 is settled by the
    // groups' kinds, and the requires of 役形 by the same.
    let (fast, plain) = both("sangohana.fuda", SANGOHANA);
    let t = &fast.scores[fast.score_named("役代").expect("table") as usize];
    let plan = t.plan.as_ref().expect("a plan");
    assert!(plan.stage(0).is_some(), "the yaku stage is tabulated");
    assert!(plain.scores[0].plan.is_none());
    let pat = fast
        .patterns
        .iter()
        .find(|p| p.name == "役形")
        .expect("役形");
    assert!(pat
        .prefilter
        .as_ref()
        .and_then(|pf| pf.requires.as_ref())
        .is_some());
    // The rewrites leave no quantifier loop in the table and fewer local slots.
    assert!(t.frame < plain.scores[0].frame);
}

#[test]
fn which_tables_pay_exactly_when_a_yaku_holds() {
    let sign = |name: &str, text: &str, table: &str| {
        let (fast, plain) = both(name, text);
        let t = fast.score_named(table).expect("table") as usize;
        // Without plans nothing is answered off them.
        assert!(!super::sign_by_yaku(&plain, &plain.scores[t]));
        super::sign_by_yaku(&fast, &fast.scores[t])
    };
    assert!(sign("sangohana.fuda", SANGOHANA, "役代"));
    // A factor read from a parameter (both strict variants' ×3 or ×4) is not a
    // constant, and the names then read a factor the plan cannot list: evaluated in full.
    assert!(!sign("sangohana-strict.fuda", STRICT, "役代"));
    assert!(!sign("sangohana-strict-kasu3.fuda", KASU3, "役代"));
    // A void stage may take the only yaku away; a table without a pattern has no split.
    assert!(!sign("stages.fuda", STAGES, "点"));
    assert!(!sign("stages.fuda", STAGES, "素点"));
    // A yaku worth 0, a factor of 0 or a negative bonus can leave a yaku paying nothing.
    for (from, to) in [
        ("素役     1  when", "素役     0  when"),
        (
            "    2 when 五.kind == 素 and 対(五) >= 2",
            "    0 when 五.kind == 素 and 対(五) >= 2",
        ),
        ("福上がり 15 when", "福上がり -15 when"),
    ] {
        assert!(SANGOHANA.contains(from), "{from}");
        let text = SANGOHANA.replace(from, to);
        assert!(!sign("sangohana.fuda", &text, "役代"), "{to}");
    }
    // A condition the plan leaves to the evaluator (an int parameter has too many
    // values to list) might fail: evaluated in full.
    let text = SANGOHANA
        .replace(
            "as_dealt: bool = false)",
            "as_dealt: bool = false, n: int = 2)",
        )
        .replace(
            "3 when 五.kind == 素 and 桐素(五) == 3\n",
            "3 when 五.kind == 素 and 桐素(五) == 3 and n > 1\n",
        );
    assert!(text.contains("and n > 1"));
    assert!(!sign("sangohana.fuda", &text, "役代"));
}

/// `pays` on a table whose sign it cannot read off the plans is a caller's mistake that
/// debug builds (the tests) stop at once, not a wrong answer passed on.
#[cfg(debug_assertions)]
#[test]
#[should_panic(expected = "`pays` asked of table 点")]
fn pays_refuses_other_tables_in_debug_builds() {
    let (fast, _) = both("stages.fuda", STAGES);
    let t = fast.score_named("点").expect("table");
    let _ = super::pays(&fast, t, CardSet::EMPTY);
}
