//! Every statement form, separators and comments.

mod common;

use common::{show, stmt, stmts};
use fuda_grammar::ast::*;

fn lv(l: &LValue) -> String {
    match &l.index {
        Some(i) => format!("{}[{}]", l.name.node, show(i)),
        None => l.name.node.clone(),
    }
}

#[test]
fn let_and_assignments() {
    let StmtKind::Let(x, e) = stmt("let x = 1 + 2") else {
        panic!()
    };
    assert_eq!((x.node.as_str(), show(&e).as_str()), ("x", "(+ 1 2)"));
    for (src, op) in [
        ("月 = n", AssignOp::Set),
        ("巡 += 1", AssignOp::Add),
        ("chips[s] -= 2", AssignOp::Sub),
    ] {
        let StmtKind::Assign(target, got, _) = stmt(src) else {
            panic!("{src}")
        };
        assert_eq!(got, op, "{src}");
        assert_eq!(lv(&target), src.split_whitespace().next().unwrap());
    }
    let StmtKind::Assign(target, _, value) = stmt("配牌[s] = 手札[s]") else {
        panic!()
    };
    assert_eq!(
        (lv(&target).as_str(), show(&value).as_str()),
        ("配牌[s]", "([] 手札 s)")
    );
}

#[test]
fn if_else_if_else() {
    let StmtKind::If(c, then, otherwise) =
        stmt("if a { x = 1 } else if b { x = 2 } else if c { x = 3 } else { x = 4 }")
    else {
        panic!()
    };
    assert_eq!(show(&c), "a");
    assert_eq!(then.stmts.len(), 1);
    // else-if nests as an `if` alone inside the else block.
    let inner = otherwise.expect("else");
    assert_eq!(inner.stmts.len(), 1);
    let StmtKind::If(c2, _, Some(e2)) = &inner.stmts[0].node else {
        panic!("else if")
    };
    assert_eq!(show(c2), "b");
    let StmtKind::If(c3, _, Some(last)) = &e2.stmts[0].node else {
        panic!("else if")
    };
    assert_eq!(show(c3), "c");
    assert!(matches!(&last.stmts[0].node, StmtKind::Assign(_, _, v) if show(v) == "4"));

    let StmtKind::If(_, _, None) = stmt("if pot > 0 { }") else {
        panic!("no else")
    };
    let StmtKind::If(_, _, Some(e)) = stmt("if a { } else { }") else {
        panic!("else")
    };
    assert!(e.stmts.is_empty());
}

#[test]
fn loops() {
    let StmtKind::While(c, b) = stmt("while n < 3 { n += 1 }") else {
        panic!()
    };
    assert_eq!((show(&c).as_str(), b.stmts.len()), ("(< n 3)", 1));
    let StmtKind::Loop(b) = stmt("loop { break }") else {
        panic!()
    };
    assert!(matches!(b.stmts[0].node, StmtKind::Break));
    let StmtKind::For(s, over, _) = stmt("for s in seats() { continue }") else {
        panic!()
    };
    assert_eq!((s.node.as_str(), show(&over).as_str()), ("s", "(seats)"));
    let StmtKind::For(_, over, _) = stmt("for s in 0..n - 1 { }") else {
        panic!()
    };
    assert_eq!(show(&over), "(.. 0 (- n 1))");
    let StmtKind::Repeat(n, Some(i), _) = stmt("repeat deals as n { }") else {
        panic!()
    };
    assert_eq!((show(&n).as_str(), i.node.as_str()), ("deals", "n"));
    let StmtKind::Repeat(n, None, _) = stmt("repeat 3 { }") else {
        panic!()
    };
    assert_eq!(show(&n), "3");
}

#[test]
fn return_with_and_without_value() {
    assert_eq!(stmt("return"), StmtKind::Return(None));
    let StmtKind::Return(Some(e)) = stmt("return x + 1") else {
        panic!()
    };
    assert_eq!(show(&e), "(+ x 1)");
    let s = stmts("if a { return }\nreturn\nmove x to y");
    assert!(
        matches!(&s[1].node, StmtKind::Return(None)),
        "a keyword after `return` starts the next statement"
    );
    assert!(matches!(&s[2].node, StmtKind::Move(..)));
    assert_eq!(stmt("continue"), StmtKind::Continue);
}

#[test]
fn card_movement() {
    let StmtKind::Move(c, z) = stmt("move top(山札) to 手札[s]") else {
        panic!()
    };
    assert_eq!(
        (show(&c).as_str(), show(&z).as_str()),
        ("(top 山札)", "([] 手札 s)")
    );
    let StmtKind::Shuffle(z) = stmt("shuffle 山札") else {
        panic!()
    };
    assert_eq!(show(&z), "山札");
    assert!(matches!(stmt("cut 山札"), StmtKind::Cut(_, None)));
    for src in ["cut 山札 set aside to 伏せ札", "cut 山札 set aside 伏せ札"] {
        let StmtKind::Cut(z, Some(to)) = stmt(src) else {
            panic!("{src}")
        };
        assert_eq!((show(&z).as_str(), show(&to).as_str()), ("山札", "伏せ札"));
    }
    let StmtKind::Gather(z) = stmt("gather 山札") else {
        panic!()
    };
    assert_eq!(show(&z), "山札");
    let StmtKind::Reveal(z) = stmt("reveal 伏せ札") else {
        panic!()
    };
    assert_eq!(show(&z), "伏せ札");
}

#[test]
fn deal() {
    let StmtKind::Deal(d) = stmt("deal 4, 3 from 山札 to 手札 from next(dealer)") else {
        panic!()
    };
    assert_eq!(d.counts.iter().map(show).collect::<Vec<_>>(), ["4", "3"]);
    assert_eq!(
        (show(&d.from).as_str(), show(&d.to).as_str()),
        ("山札", "手札")
    );
    assert_eq!(d.start.as_ref().map(show).as_deref(), Some("(next dealer)"));
    let StmtKind::Deal(d) = stmt("deal 2 from 山札 to 場") else {
        panic!()
    };
    assert_eq!((d.counts.len(), d.start.is_none()), (1, true));
}

#[test]
fn choose_and_options() {
    let src = r#"choose s {
        move 山札 "山札をめくる" { }
        move 捨てる(d in 手札[s]) "捨てる" when d != t priority 2 { move d to 捨て札 }
        move 賭ける(n in 1..5) { }
    }"#;
    let StmtKind::Choose(c) = stmt(src) else {
        panic!()
    };
    assert!(matches!(&c.who, Chooser::Seat(e) if show(e) == "s"));
    assert_eq!(c.options.len(), 3);
    let o = &c.options[0];
    assert_eq!(
        (
            o.name.node.as_str(),
            o.label.as_ref().map(|l| l.node.as_str())
        ),
        ("山札", Some("山札をめくる"))
    );
    assert!(o.param.is_none() && o.guard.is_none() && o.priority.is_none());
    let o = &c.options[1];
    let (x, dom) = o.param.as_ref().unwrap();
    assert_eq!((x.node.as_str(), show(dom).as_str()), ("d", "([] 手札 s)"));
    assert_eq!(o.guard.as_ref().map(show).as_deref(), Some("(!= d t)"));
    assert_eq!(o.priority.as_ref().map(|p| p.node), Some(2));
    assert_eq!(o.body.stmts.len(), 1);
    let (_, dom) = c.options[2].param.as_ref().unwrap();
    assert_eq!(show(dom), "(.. 1 5)");

    let StmtKind::Choose(c) = stmt("choose each x in seats() { move 捨てる(c in 手札[x]) { } }")
    else {
        panic!()
    };
    assert!(matches!(&c.who, Chooser::Each(x, e) if x.node == "x" && show(e) == "(seats)"));
}

#[test]
fn claim() {
    let StmtKind::Claim(c) =
        stmt("claim x in others(s) { move 当たり \"当たり\" when ok(x) priority 3 { return } }")
    else {
        panic!()
    };
    assert_eq!(
        (c.seat.node.as_str(), show(&c.seats).as_str()),
        ("x", "(others s)")
    );
    assert_eq!(c.options[0].priority.as_ref().map(|p| p.node), Some(3));
}

#[test]
fn pay() {
    let StmtKind::Pay(p) = stmt("pay 3 from chips[a] to chips[b]") else {
        panic!()
    };
    assert_eq!(show(&p.amount), "3");
    assert!(matches!(&p.from, Payer::One(l) if lv(l) == "chips[a]"));
    assert_eq!(lv(&p.to), "chips[b]");
    let StmtKind::Pay(p) = stmt("pay r.total from each others(x) to chips[x]") else {
        panic!()
    };
    assert!(matches!(&p.from, Payer::Each(e) if show(e) == "(others x)"));
    let StmtKind::Pay(p) = stmt("pay pot from pot to chips[top[0]]") else {
        panic!()
    };
    assert_eq!(lv(&p.to), "chips[([] top 0)]");
}

#[test]
fn bookkeeping_statements() {
    let StmtKind::Outcome(e) = stmt("outcome 流れ") else {
        panic!()
    };
    assert_eq!(show(&e), "流れ");
    let StmtKind::Record(r, w) = stmt("record r for x") else {
        panic!()
    };
    assert_eq!((show(&r).as_str(), show(&w).as_str()), ("r", "x"));
    let StmtKind::Say(e) = stmt(r#"say "hello""#) else {
        panic!()
    };
    assert_eq!(show(&e), "\"hello\"");
    let StmtKind::Expect(e) = stmt("expect r.total == 40") else {
        panic!()
    };
    assert_eq!(show(&e), "(== (. r total) 40)");
}

#[test]
fn dealer() {
    assert!(
        matches!(stmt("dealer by draw lowest month"), StmtKind::DealerByDraw(Extreme::Lowest, a, t) if a.node == "month" && t.is_empty())
    );
    assert!(matches!(
        stmt("dealer by draw highest number"),
        StmtKind::DealerByDraw(Extreme::Highest, _, _)
    ));
    let StmtKind::DealerByDraw(Extreme::Highest, a, t) =
        stmt("dealer by draw highest rank then lowest suit then highest month")
    else {
        panic!()
    };
    assert_eq!(a.node, "rank");
    let t: Vec<(Extreme, &str)> = t.iter().map(|(e, i)| (*e, i.node.as_str())).collect();
    assert_eq!(t, [(Extreme::Lowest, "suit"), (Extreme::Highest, "month")]);
    let StmtKind::SetDealer(e) = stmt("dealer = next(dealer)") else {
        panic!()
    };
    assert_eq!(show(&e), "(next dealer)");
    // `dealer` is still an ordinary name elsewhere.
    assert!(
        matches!(stmt("dealer += 1"), StmtKind::Assign(l, AssignOp::Add, _) if l.name.node == "dealer")
    );
    assert!(matches!(stmt("x = dealer"), StmtKind::Assign(_, _, e) if show(&e) == "dealer"));
}

#[test]
fn calls_as_statements() {
    let StmtKind::Call(f, args) = stmt("勝ち(s, 上がり, c)") else {
        panic!()
    };
    assert_eq!((f.node.as_str(), args.len()), ("勝ち", 3));
    let StmtKind::Call(f, args) = stmt("流れ()") else {
        panic!()
    };
    assert_eq!((f.node.as_str(), args.len()), ("流れ", 0));
}

#[test]
fn keywords_do_not_swallow_longer_names() {
    let s = stmts(
        "letter = 1\nbreakfast = 2\nreturned = 3\nsayings()\nexpected(1)\nformat = 4\nmoved = 5",
    );
    let names: Vec<String> = s
        .iter()
        .map(|s| match &s.node {
            StmtKind::Assign(l, _, _) => l.name.node.clone(),
            StmtKind::Call(f, _) => f.node.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        names,
        [
            "letter",
            "breakfast",
            "returned",
            "sayings",
            "expected",
            "format",
            "moved"
        ]
    );
}

#[test]
fn separators_and_comments() {
    let s = stmts(
        "let a = 1; let b = 2;; a += b # a comment; not a statement\n# whole line\n　let c = 3",
    );
    assert_eq!(s.len(), 4);
    assert!(
        matches!(&s[3].node, StmtKind::Let(x, _) if x.node == "c"),
        "full-width space is whitespace"
    );
}

#[test]
fn statement_spans() {
    let src = "proc p {\n  move c to 手札[s]\n}";
    let file = common::ok(src);
    let Item::Proc(p) = &file.items[0] else {
        panic!()
    };
    assert_eq!(common::text(src, p.body.stmts[0].span), "move c to 手札[s]");
    assert_eq!(common::text(src, p.body.span), "{\n  move c to 手札[s]\n}");
    assert_eq!(common::text(src, p.name.span), "p");
}
