//! Every top-level declaration: decks, params, seats, zones, vars, enums, card sets,
//! ledgers, defs, patterns, score tables, procs and tests.

mod common;

use common::{ok, show, text};
use fuda_grammar::ast::*;

fn only(src: &str) -> Item {
    let mut file = ok(src);
    assert_eq!(file.items.len(), 1, "{src}");
    file.items.remove(0)
}

#[test]
fn ruleset_extends_import() {
    let file = ok("ruleset \"珊瑚花\"\nextends \"base.fuda\"\nimport \"std/hanafuda\"");
    assert!(matches!(&file.items[0], Item::Ruleset(s) if s.node == "珊瑚花"));
    assert!(matches!(&file.items[1], Item::Extends(s) if s.node == "base.fuda"));
    assert!(matches!(&file.items[2], Item::Import(s) if s.node == "std/hanafuda"));
}

#[test]
fn deck_with_attributes_tags_cards_and_copies() {
    let src = r#"deck hanafuda "八八花" {
  attribute month: 1..12
  attribute kind: 光 | 種 | 短 | 素
  attribute points: int = 0
  attribute 赤: int = -1
  tags 赤短, 青短
  card 1-crane  "松に鶴"   month=1 kind=光 points=20 +赤短
  card 1m       "一萬"     month=1 kind=素 -青短 x4
  card JK1      "鬼札"     x2
}"#;
    let Item::Deck(d) = only(src) else { panic!() };
    assert_eq!(d.name.node, "hanafuda");
    assert!(d.base.is_none());
    assert_eq!(d.title.as_ref().map(|t| t.node.as_str()), Some("八八花"));
    assert_eq!(d.attributes[0].ty, AttrType::Range(1, 12));
    assert!(
        matches!(&d.attributes[1].ty, AttrType::Symbols(v) if v.iter().map(|s| s.node.as_str()).collect::<Vec<_>>() == ["光", "種", "短", "素"])
    );
    assert_eq!(d.attributes[2].ty, AttrType::Int);
    assert_eq!(
        d.attributes[2].default.as_ref().map(|l| &l.node),
        Some(&Literal::Int(0))
    );
    assert_eq!(
        d.attributes[3].default.as_ref().map(|l| &l.node),
        Some(&Literal::Int(-1))
    );
    assert_eq!(
        d.tags.iter().map(|t| t.node.as_str()).collect::<Vec<_>>(),
        ["赤短", "青短"]
    );
    assert_eq!(d.cards.len(), 3);
    let crane = &d.cards[0];
    assert_eq!(
        (crane.id.node.as_str(), crane.display.node.as_str()),
        ("1-crane", "松に鶴")
    );
    assert_eq!(crane.fields.len(), 4);
    assert!(
        matches!(&crane.fields[1], CardField::Set(k, v) if k.node == "kind" && v.node == Literal::Name("光".into()))
    );
    assert!(matches!(&crane.fields[3], CardField::AddTag(t) if t.node == "赤短"));
    assert!(crane.copies.is_none());
    assert_eq!(
        text(src, crane.span),
        r#"card 1-crane  "松に鶴"   month=1 kind=光 points=20 +赤短"#
    );
    let m = &d.cards[1];
    assert!(matches!(&m.fields[2], CardField::RemoveTag(t) if t.node == "青短"));
    assert_eq!(
        m.copies.as_ref().map(|c| (c.node, text(src, c.span))),
        Some((4, "x4"))
    );
    assert_eq!(d.cards[2].copies.as_ref().map(|c| c.node), Some(2));
}

#[test]
fn derived_deck_with_edits() {
    let Item::Deck(d) = only("deck nara extends hanafuda {\n  edit 8-geese points=20 -赤短 +鹿\n  card 13-oni \"鬼\" month=13\n}") else {
        panic!()
    };
    assert_eq!(d.base.as_ref().map(|b| b.node.as_str()), Some("hanafuda"));
    assert!(d.title.is_none());
    assert_eq!(d.edits.len(), 1);
    assert_eq!(d.edits[0].id.node, "8-geese");
    assert_eq!(d.edits[0].fields.len(), 3);
    assert_eq!(d.cards[0].id.node, "13-oni");
}

#[test]
fn params() {
    let Item::Param(p) = only(r#"param players: int = 3 in 2..4 "number of players""#) else {
        panic!()
    };
    assert_eq!(
        (p.name.node.as_str(), &p.ty.node),
        ("players", &TypeName::Int)
    );
    assert_eq!(show(&p.default), "3");
    assert_eq!(p.range.as_ref().map(|r| r.node), Some((2, 4)));
    assert_eq!(
        p.doc.as_ref().map(|d| d.node.as_str()),
        Some("number of players")
    );
    let Item::Param(p) = only("param 赤: bool = false") else {
        panic!()
    };
    assert_eq!(p.ty.node, TypeName::Bool);
    assert!(p.range.is_none() && p.doc.is_none());
    let Item::Param(p) = only("param offset: int = -1 + 2") else {
        panic!()
    };
    assert_eq!(show(&p.default), "(+ -1 2)");
}

#[test]
fn seats() {
    let Item::Seats(s) = only("seats players {\n  2: 親 胴二\n  3: 親 胴二 ビキ\n}") else {
        panic!()
    };
    assert_eq!(show(&s.count), "players");
    assert_eq!(s.roles.len(), 2);
    assert_eq!(s.roles[1].0.node, 3);
    assert_eq!(
        s.roles[1]
            .1
            .iter()
            .map(|r| r.node.as_str())
            .collect::<Vec<_>>(),
        ["親", "胴二", "ビキ"]
    );
}

#[test]
fn zones() {
    let Item::Zone(z) = only("zone 山札 shared stack hidden") else {
        panic!()
    };
    assert_eq!(
        (z.name.node.as_str(), z.owner, z.order, z.visibility),
        ("山札", Owner::Shared, Order::Stack, Visibility::Hidden)
    );
    let Item::Zone(z) = only("zone 手札 per seat pile owner") else {
        panic!()
    };
    assert_eq!(
        (z.owner, z.order, z.visibility),
        (Owner::PerSeat, Order::Pile, Visibility::Owner)
    );
    let Item::Zone(z) = only("zone 捨て札 shared stack public") else {
        panic!()
    };
    assert_eq!(z.visibility, Visibility::Public);
    let Item::Zone(z) = only("zone 場 shared pile top") else {
        panic!()
    };
    assert_eq!(z.visibility, Visibility::Top);
}

#[test]
fn vars() {
    let Item::Var(v) = only("var chips: int per seat = 0") else {
        panic!()
    };
    assert_eq!(
        (
            v.name.node.as_str(),
            &v.ty.node,
            v.per_seat,
            show(&v.init).as_str()
        ),
        ("chips", &TypeName::Int, true, "0")
    );
    let Item::Var(v) = only("var 配牌: cards per seat = cards()") else {
        panic!()
    };
    assert_eq!(
        (v.ty.node.clone(), show(&v.init)),
        (TypeName::Cards, "(cards )".into())
    );
    let Item::Var(v) = only("var last: card = card(1-crane)") else {
        panic!()
    };
    assert_eq!((v.ty.node.clone(), v.per_seat), (TypeName::Card, false));
    let Item::Var(v) = only("var who: seat = 0") else {
        panic!()
    };
    assert_eq!(v.ty.node, TypeName::Seat);
    let Item::Var(v) = only("var how: 和了 = 上がり") else {
        panic!()
    };
    assert_eq!(v.ty.node, TypeName::Named("和了".into()));
}

#[test]
fn enums_with_aliases() {
    let Item::Enum(e) = only("enum 和了: 上がり(tsumo) | 当たり(ron, rong) | 流れ")
    else {
        panic!()
    };
    assert_eq!(e.name.node, "和了");
    let values: Vec<(&str, Vec<&str>)> = e
        .values
        .iter()
        .map(|(v, a)| (v.node.as_str(), a.iter().map(|x| x.node.as_str()).collect()))
        .collect();
    assert_eq!(
        values,
        [
            ("上がり", vec!["tsumo"]),
            ("当たり", vec!["ron", "rong"]),
            ("流れ", vec![])
        ]
    );
}

#[test]
fn card_sets_ledgers_and_defs() {
    let Item::Cards(c) = only("cards 赤短 = cards(1-ribbon 2-ribbon 3-ribbon)") else {
        panic!()
    };
    assert_eq!(
        (c.name.node.as_str(), show(&c.value).as_str()),
        ("赤短", "(cards 1-ribbon 2-ribbon 3-ribbon)")
    );
    let Item::Ledger(names, span) = only("ledger chips, pot") else {
        panic!()
    };
    assert_eq!(
        names.iter().map(|n| n.node.as_str()).collect::<Vec<_>>(),
        ["chips", "pot"]
    );
    assert_eq!(span, fuda_grammar::Span::new(0, 17));
    let Item::Def(d) = only("def 対(g: cards, attr: 属性 = month) = pairs(g, attr)") else {
        panic!()
    };
    assert_eq!(d.name.node, "対");
    assert_eq!(d.params.len(), 2);
    assert_eq!(
        d.params[1].default.as_ref().map(show).as_deref(),
        Some("month")
    );
    assert_eq!(show(&d.body), "(pairs g attr)");
    let Item::Def(d) = only("def 素三の条件(g: cards) = true") else {
        panic!()
    };
    assert_eq!(show(&d.body), "true");
}

#[test]
fn patterns_with_groups_shapes_and_requires() {
    let src = "pattern 和了形 {
  group 雀頭: 2 same face
  group 面子*4: 3 same face | run number by suit where not (c is 幺九)
  group 語*3: 2 word 熟語
  group 端: 5 distinct month | run month
  group 余り: 1
  require 雀頭.face != 面子[0].face
}";
    let Item::Pattern(p) = only(src) else {
        panic!()
    };
    assert_eq!(p.groups.len(), 5);
    let g = &p.groups[1];
    assert_eq!(
        (
            g.name.node.as_str(),
            g.count.as_ref().map(|c| c.node),
            g.size.node
        ),
        ("面子", Some(4), 3)
    );
    assert!(matches!(&g.shapes[0].node, Shape::Same(a) if a.node == "face"));
    assert!(
        matches!(&g.shapes[1].node, Shape::Run(a, Some(b)) if a.node == "number" && b.node == "suit")
    );
    assert_eq!(
        g.condition.as_ref().map(show).as_deref(),
        Some("(not (is c 幺九))")
    );
    assert!(matches!(&p.groups[2].shapes[0].node, Shape::Word(w) if w.node == "熟語"));
    assert!(matches!(&p.groups[3].shapes[0].node, Shape::Distinct(a) if a.node == "month"));
    assert!(matches!(&p.groups[3].shapes[1].node, Shape::Run(_, None)));
    assert!(p.groups[4].shapes.is_empty() && p.groups[4].count.is_none());
    assert_eq!(
        p.requires.iter().map(show).collect::<Vec<_>>(),
        ["(!= (. 雀頭 face) (. ([] 面子 0) face))"]
    );
}

#[test]
fn score_with_every_stage_kind() {
    let src = r#"score 得点(hand: cards, win: 和了 = 上がり) over 和了形(hand) {
  yaku all { 平和 1 when true  断么 1 when all(c in hand: not (c is 幺九)) }
  void { 平和 when win == 当たり }
  times first { 2 when 親 }
  times 役満 largest { 13 when 国士 }
  plus all { 本場 300 when 本場数 > 0 }
  name { 役満 when factor >= 13 ; "{yaku}" when true }
}"#;
    let Item::Score(s) = only(src) else { panic!() };
    assert_eq!(s.params.len(), 2);
    let over = s.over.as_ref().unwrap();
    assert_eq!((over.pattern.node.as_str(), over.best), ("和了形", false));
    assert_eq!(s.stages.len(), 6);
    let Stage::Yaku(StageMode::All, rows, _) = &s.stages[0] else {
        panic!("yaku")
    };
    assert_eq!(
        rows.iter()
            .map(|r| r.name.node.as_str())
            .collect::<Vec<_>>(),
        ["平和", "断么"]
    );
    let Stage::Void(rows, _) = &s.stages[1] else {
        panic!("void")
    };
    assert_eq!(
        (rows[0].name.node.as_str(), show(&rows[0].when).as_str()),
        ("平和", "(== win 当たり)")
    );
    let Stage::Times(StageMode::First, rows, _) = &s.stages[2] else {
        panic!("times")
    };
    assert_eq!(
        (show(&rows[0].factor).as_str(), show(&rows[0].when).as_str()),
        ("2", "親")
    );
    assert!(matches!(
        &s.stages[3],
        Stage::Times(StageMode::Largest, _, _)
    ));
    let names: Vec<Option<&str>> = s
        .stage_names
        .iter()
        .map(|n| n.as_ref().map(|n| n.node.as_str()))
        .collect();
    assert_eq!(names, [None, None, None, Some("役満"), None, None]);
    let Stage::Plus(StageMode::All, rows, _) = &s.stages[4] else {
        panic!("plus")
    };
    assert_eq!(show(&rows[0].value), "300");
    let Stage::Name(rows, _) = &s.stages[5] else {
        panic!("name")
    };
    assert!(matches!(&rows[0].name, NameOrTemplate::Name(n) if n.node == "役満"));
    assert!(matches!(&rows[1].name, NameOrTemplate::Template(t) if t.node == "{yaku}"));
    // A stage mode word may also be a stage's name.
    let Item::Score(s) = only("score s() { times first largest { 2 when a } }") else {
        panic!()
    };
    assert!(matches!(
        &s.stages[0],
        Stage::Times(StageMode::Largest, _, _)
    ));
    assert_eq!(
        s.stage_names[0].as_ref().map(|n| n.node.as_str()),
        Some("first")
    );
    assert!(s.over.is_none() && s.params.is_empty());
}

#[test]
fn variant_score_without_parameters_and_named_stages() {
    let src = "score 役代 {
  yaku 基本 first { a 1 when true }
  times 素五 largest { 2 when x }
  plus 時 all { b 1 when true }
  name 名 { c when true }
  void 消 { a when false }
}";
    let Item::Score(s) = only(src) else { panic!() };
    assert!(s.params.is_empty() && s.over.is_none());
    let names: Vec<&str> = s
        .stage_names
        .iter()
        .map(|n| n.as_ref().map_or("-", |n| n.node.as_str()))
        .collect();
    assert_eq!(names, ["基本", "素五", "時", "名", "消"]);
    assert_eq!(text(src, s.stage_names[1].as_ref().unwrap().span), "素五");
    let Item::Score(s) = only("score 役代 over 役形(hand) best { name { a when true } }")
    else {
        panic!()
    };
    assert!(s.over.as_ref().is_some_and(|o| o.best));
    assert_eq!(s.stage_names, [None]);
}

#[test]
fn procs() {
    let Item::Proc(p) = only("proc match {\n  一月()\n}") else {
        panic!()
    };
    assert_eq!(
        (p.name.node.as_str(), p.params.len(), p.body.stmts.len()),
        ("match", 0, 1)
    );
    let Item::Proc(p) = only("proc 勝ち(x: seat, how: 和了, c: card) { }") else {
        panic!()
    };
    assert_eq!(
        p.params
            .iter()
            .map(|p| p.name.node.as_str())
            .collect::<Vec<_>>(),
        ["x", "how", "c"]
    );
    assert_eq!(p.params[0].ty.node, TypeName::Seat);
    let Item::Proc(p) = only("proc f() { }") else {
        panic!()
    };
    assert!(p.params.is_empty());
    assert!(p.returns.is_none());
    let Item::Proc(p) = only("proc 点数(x: seat) -> int { return 3 }") else {
        panic!()
    };
    assert_eq!(p.returns.map(|t| t.node), Some(TypeName::Int));
    let Item::Proc(p) = only("proc 役 -> 和了 { return ロン }") else {
        panic!()
    };
    assert_eq!(
        p.returns.map(|t| t.node),
        Some(TypeName::Named("和了".into()))
    );
}

#[test]
fn tests_with_settings() {
    let Item::Test(t) = only("test \"4 players\" with players = 4, 赤 = true, name_ = \"x\", k = 光, m = -2 {\n  dealer = 0\n}") else {
        panic!()
    };
    assert_eq!(t.name.node, "4 players");
    let with: Vec<(&str, &Literal)> = t
        .with
        .iter()
        .map(|(k, v)| (k.node.as_str(), &v.node))
        .collect();
    assert_eq!(
        with,
        [
            ("players", &Literal::Int(4)),
            ("赤", &Literal::Bool(true)),
            ("name_", &Literal::Str("x".into())),
            ("k", &Literal::Name("光".into())),
            ("m", &Literal::Int(-2)),
        ]
    );
    assert_eq!(t.body.stmts.len(), 1);
    let Item::Test(t) = only("test \"plain\" { }") else {
        panic!()
    };
    assert!(t.with.is_empty());
}

#[test]
fn empty_and_comment_only_files() {
    assert!(ok("").items.is_empty());
    assert!(ok("# nothing here\n\n　\n# at all").items.is_empty());
    assert_eq!(
        ok("var x: int = 1 # trailing comment at the end")
            .items
            .len(),
        1
    );
    let src = "var x: int = 1 # trailing comment at the end";
    assert_eq!(text(src, ok(src).items[0].span()), "var x: int = 1");
}

#[test]
fn word_lists_inline_and_from_a_file() {
    let Item::Words(w) = only("words 熟語 { 一石 二鳥 人々 # a comment\n 3D in }") else {
        panic!()
    };
    assert_eq!(w.name.node, "熟語");
    let WordsSource::Inline(words) = &w.source else {
        panic!("{w:?}")
    };
    assert_eq!(
        words.iter().map(|w| w.node.as_str()).collect::<Vec<_>>(),
        ["一石", "二鳥", "人々", "3D", "in"],
        "any run of non-blank characters is a word, reserved words too"
    );
    assert_eq!(words[0].span, fuda_grammar::Span::new(15, 21));
    let Item::Words(w) = only("words 熟語 from \"dict/jukugo.txt\"") else {
        panic!()
    };
    assert!(matches!(&w.source, WordsSource::File(p) if p.node == "dict/jukugo.txt"));
    let Item::Words(w) = only("words 空 {}") else {
        panic!()
    };
    assert_eq!(w.source, WordsSource::Inline(Vec::new()));
    // `words` is contextual: still a name elsewhere.
    let Item::Var(v) = only("var words: int = 0") else {
        panic!()
    };
    assert_eq!(v.name.node, "words");
}
