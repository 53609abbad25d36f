//! The shipped rule files parse, and their trees hold what the text says.

mod common;

use common::{ok, show, text};
use fuda_grammar::ast::*;

fn read(rel: &str) -> String {
    let path = format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Top-level declarations counted from the text itself: every line that starts in
/// column 0 with a declaration keyword. Independent of the parser, and of edits to
/// the ruleset.
fn declarations_in(src: &str) -> usize {
    const STARTS: &[&str] = &[
        "ruleset ", "extends ", "import ", "deck ", "param ", "seats ", "zone ", "var ", "enum ",
        "cards ", "ledger ", "def ", "pattern ", "score ", "proc ", "test ",
    ];
    src.lines()
        .filter(|l| STARTS.iter().any(|s| l.starts_with(s)))
        .count()
}

/// The first statement, at any depth, that `pick` accepts.
fn find_stmt<'a>(stmts: &'a [Stmt], pick: &dyn Fn(&StmtKind) -> bool) -> Option<&'a Stmt> {
    for s in stmts {
        if pick(&s.node) {
            return Some(s);
        }
        let inner: Vec<&Block> = match &s.node {
            StmtKind::If(_, a, b) => std::iter::once(a).chain(b.as_ref()).collect(),
            StmtKind::While(_, b)
            | StmtKind::Loop(b)
            | StmtKind::For(_, _, b)
            | StmtKind::Repeat(_, _, b) => vec![b],
            StmtKind::Choose(c) => c.options.iter().map(|o| &o.body).collect(),
            StmtKind::Claim(c) => c.options.iter().map(|o| &o.body).collect(),
            _ => vec![],
        };
        if let Some(found) = inner.into_iter().find_map(|b| find_stmt(&b.stmts, pick)) {
            return Some(found);
        }
    }
    None
}

#[test]
fn sangohana_parses_with_every_item() {
    let src = read("rulesets/sangohana.fuda");
    let file = ok(&src);
    assert_eq!(file.items.len(), declarations_in(&src));
    assert!(matches!(&file.items[0], Item::Ruleset(t) if t.node == "珊瑚花 Sangohana"));
    assert!(file
        .items
        .iter()
        .any(|i| matches!(i, Item::Import(p) if p.node == "std/hanafuda")));
    // Every item's span starts with the keyword it was declared with (`ruleset`,
    // `import` and `extends` items are just their string, so their span is the string).
    for item in file
        .items
        .iter()
        .filter(|i| !matches!(i, Item::Ruleset(_) | Item::Import(_) | Item::Extends(_)))
    {
        let t = text(&src, item.span());
        assert!(
            t.split_whitespace()
                .next()
                .is_some_and(|w| declarations_in(&format!("{w} ")) == 1),
            "{t}"
        );
    }
}

#[test]
fn sangohana_param_and_seats() {
    let src = read("rulesets/sangohana.fuda");
    let file = ok(&src);
    let players = file
        .items
        .iter()
        .find_map(|i| match i {
            Item::Param(p) if p.name.node == "players" => Some(p),
            _ => None,
        })
        .expect("param players");
    assert_eq!(players.ty.node, TypeName::Int);
    assert_eq!(players.default.node, ExprKind::Int(3));
    assert_eq!(players.range.as_ref().map(|r| r.node), Some((2, 4)));
    assert!(players
        .doc
        .as_ref()
        .is_some_and(|d| d.node.starts_with("人数")));
    let seats = file
        .items
        .iter()
        .find_map(|i| {
            if let Item::Seats(s) = i {
                Some(s)
            } else {
                None
            }
        })
        .expect("seats");
    let three: Vec<&str> = seats
        .roles
        .iter()
        .find(|(n, _)| n.node == 3)
        .expect("3 seats")
        .1
        .iter()
        .map(|r| r.node.as_str())
        .collect();
    assert_eq!(three, ["親", "胴二", "ビキ"]);
}

#[test]
fn sangohana_score_table() {
    let src = read("rulesets/sangohana.fuda");
    let file = ok(&src);
    let score = file
        .items
        .iter()
        .find_map(|i| {
            if let Item::Score(s) = i {
                Some(s)
            } else {
                None
            }
        })
        .expect("a score table");
    assert_eq!(score.name.node, "役代");
    assert_eq!(text(&src, score.name.span), "役代");
    let params: Vec<&str> = score.params.iter().map(|p| p.name.node.as_str()).collect();
    assert_eq!(params, ["hand", "win", "first_turn", "as_dealt"]);
    assert_eq!(score.params[1].ty.node, TypeName::Named("和了".into()));
    assert_eq!(
        score.params[1].default.as_ref().map(show),
        Some("上がり".into())
    );
    let over = score.over.as_ref().expect("over");
    assert_eq!(
        (
            over.pattern.node.as_str(),
            show(&over.arg).as_str(),
            over.best
        ),
        ("役形", "hand", true)
    );

    // yaku, three times stages, name, plus — in that order.
    let kinds: Vec<&str> = score
        .stages
        .iter()
        .map(|s| match s {
            Stage::Yaku(..) => "yaku",
            Stage::Times(..) => "times",
            Stage::Plus(..) => "plus",
            Stage::Name(..) => "name",
            Stage::Void(..) => "void",
        })
        .collect();
    assert_eq!(kinds, ["yaku", "times", "times", "times", "name", "plus"]);
    assert_eq!(score.stage_names.len(), score.stages.len());
    let Stage::Yaku(StageMode::First, rows, _) = &score.stages[0] else {
        panic!("yaku first")
    };
    assert_eq!(rows.len(), 10);
    assert_eq!(rows[0].name.node, "素役");
    assert_eq!(rows[0].value.node, ExprKind::Int(1));
    assert_eq!(
        show(&rows[0].when),
        "(and (in (. 三 kind) [種 短]) (== (. 五 kind) 素))"
    );
    let Stage::Times(StageMode::Largest, times, _) = &score.stages[1] else {
        panic!("times largest")
    };
    assert_eq!(times.len(), 4);
    assert_eq!(
        show(&times[2].when),
        "(and (and (== (. 五 kind) 素) (>= (対 五) 2)) (in (card 11-kasu) 五))"
    );
    let Stage::Name(names, _) = &score.stages[4] else {
        panic!("name")
    };
    assert!(
        matches!(&names[3].name, NameOrTemplate::Template(t) if t.node == "{yaku}の{factor}倍付け")
    );
    let Stage::Plus(StageMode::First, plus, _) = &score.stages[5] else {
        panic!("plus first")
    };
    assert_eq!(
        plus.iter()
            .map(|r| r.name.node.as_str())
            .collect::<Vec<_>>(),
        ["福上がり", "福当たり"]
    );
    assert_eq!(show(&plus[1].value), "(if as_dealt 12 10)");
}

#[test]
fn sangohana_claim_and_choose() {
    let src = read("rulesets/sangohana.fuda");
    let file = ok(&src);
    let deal = file
        .items
        .iter()
        .find_map(|i| match i {
            Item::Proc(p) if p.name.node == "一月" => Some(p),
            _ => None,
        })
        .expect("proc 一月");
    assert!(deal.params.is_empty());
    let claim = find_stmt(&deal.body.stmts, &|s| matches!(s, StmtKind::Claim(_))).expect("a claim");
    let StmtKind::Claim(c) = &claim.node else {
        unreachable!()
    };
    assert!(text(&src, claim.span).starts_with("claim x in others(s)"));
    assert_eq!(c.seat.node, "x");
    assert_eq!(show(&c.seats), "(others s)");
    assert_eq!(c.options.len(), 1);
    let opt = &c.options[0];
    assert_eq!(opt.name.node, "当たり");
    assert_eq!(opt.label.as_ref().map(|l| l.node.as_str()), Some("当たり"));
    assert_eq!(
        opt.guard.as_ref().map(show).as_deref(),
        Some("(> (. (役代 (+ ([] 手札 x) d)) total) 0)")
    );
    assert!(matches!(
        opt.body.stmts.last().map(|s| &s.node),
        Some(StmtKind::Return(None))
    ));

    let discard = find_stmt(
        &deal.body.stmts,
        &|s| matches!(s, StmtKind::Choose(c) if c.options.iter().any(|o| o.param.is_some())),
    )
    .expect("a choose with a move parameter");
    let StmtKind::Choose(ch) = &discard.node else {
        unreachable!()
    };
    let with_param = ch
        .options
        .iter()
        .find(|o| o.param.is_some())
        .expect("param");
    let (var, domain) = with_param.param.as_ref().expect("param");
    assert_eq!(
        (var.node.as_str(), show(domain).as_str()),
        ("d", "([] 手札 s)")
    );

    let deal_stmt = find_stmt(&deal.body.stmts, &|s| matches!(s, StmtKind::Deal(_))).expect("deal");
    let StmtKind::Deal(d) = &deal_stmt.node else {
        unreachable!()
    };
    assert_eq!(d.counts.iter().map(show).collect::<Vec<_>>(), ["4", "3"]);
    assert_eq!((show(&d.from), show(&d.to)), ("山札".into(), "手札".into()));
    assert_eq!(d.start.as_ref().map(show).as_deref(), Some("(next dealer)"));
}

#[test]
fn sangohana_tests_and_pattern() {
    let src = read("rulesets/sangohana.fuda");
    let file = ok(&src);
    let tests: Vec<&TestDecl> = file
        .items
        .iter()
        .filter_map(|i| if let Item::Test(t) = i { Some(t) } else { None })
        .collect();
    assert!(tests.len() >= 20);
    let four = tests
        .iter()
        .find(|t| !t.with.is_empty())
        .expect("a test with `with`");
    assert_eq!(four.with[0].0.node, "players");
    assert_eq!(four.with[0].1.node, Literal::Int(4));
    let first = &tests[0];
    let StmtKind::Let(r, value) = &first.body.stmts[0].node else {
        panic!("let")
    };
    assert_eq!(r.node, "r");
    let ExprKind::Call(f, args) = &value.node else {
        panic!("call")
    };
    assert_eq!(f.node, "役代");
    let ExprKind::Cards(ids) = &args[0].value.node else {
        panic!("cards")
    };
    assert_eq!(ids.len(), 8);
    assert_eq!(ids[0].node, "1-ribbon");
    assert_eq!(text(&src, ids[0].span), "1-ribbon");
    // `r.name` reads a field even though `name` is a keyword.
    assert!(first.body.stmts.iter().any(
        |s| matches!(&s.node, StmtKind::Expect(e) if show(e) == "(== (. r name) \"赤五光\")")
    ));

    let pattern = file
        .items
        .iter()
        .find_map(|i| {
            if let Item::Pattern(p) = i {
                Some(p)
            } else {
                None
            }
        })
        .expect("pattern");
    assert_eq!(pattern.name.node, "役形");
    let groups: Vec<(&str, i64)> = pattern
        .groups
        .iter()
        .map(|g| (g.name.node.as_str(), g.size.node))
        .collect();
    assert_eq!(groups, [("三", 3), ("五", 5)]);
    assert!(matches!(&pattern.groups[0].shapes[0].node, Shape::Same(a) if a.node == "kind"));
    assert!(!pattern.requires.is_empty());
}

#[test]
fn every_ruleset_and_deck_parses() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut seen = 0;
    for dir in ["rulesets", "stdlib"] {
        let mut paths: Vec<_> = std::fs::read_dir(format!("{root}/{dir}"))
            .expect(dir)
            .flatten()
            .map(|e| e.path())
            .collect();
        paths.sort();
        for path in paths
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "fuda"))
        {
            let src = std::fs::read_to_string(&path).expect("read");
            if let Err(e) = fuda_grammar::parse(&path.display().to_string(), &src) {
                panic!("{}:\n{}", path.display(), common::render(&e));
            }
            seen += 1;
        }
    }
    assert!(seen >= 5, "found only {seen} rule files");
}

#[test]
fn stdlib_decks_parse() {
    for (file, deck, cards) in [
        ("stdlib/hanafuda.fuda", "hanafuda", 48),
        ("stdlib/kabufuda.fuda", "kabufuda", 40),
        ("stdlib/mahjong.fuda", "mahjong", 34),
        ("stdlib/mahjong108.fuda", "mahjong108", 27),
    ] {
        let src = read(file);
        let parsed = ok(&src);
        let Some(Item::Deck(d)) = parsed.items.first() else {
            panic!("{file}: no deck")
        };
        assert_eq!(d.name.node, deck);
        assert_eq!(d.cards.len(), cards, "{file}");
    }
    let mahjong = ok(&read("stdlib/mahjong.fuda"));
    let Some(Item::Deck(d)) = mahjong.items.first() else {
        panic!()
    };
    assert!(d
        .cards
        .iter()
        .all(|c| c.copies.as_ref().is_some_and(|n| n.node == 4)));
    assert!(matches!(&d.attributes[0].ty, AttrType::Symbols(v) if v.len() == 4));
    assert_eq!(d.attributes[1].ty, AttrType::Range(0, 9));
}
