//! Every expression form, precedence and associativity, names and card ids.

mod common;

use common::{expr, sx};
use fuda_grammar::ast::*;

#[test]
fn multiplication_binds_tighter_than_addition() {
    assert_eq!(sx("a + b * c"), "(+ a (* b c))");
    assert_eq!(sx("a * b + c"), "(+ (* a b) c)");
    assert_eq!(sx("(a + b) * c"), "(* (+ a b) c)");
    assert_eq!(sx("a / b % c"), "(% (/ a b) c)");
}

#[test]
fn binary_operators_are_left_associative() {
    assert_eq!(sx("a - b - c"), "(- (- a b) c)");
    assert_eq!(sx("a / b / c"), "(/ (/ a b) c)");
    assert_eq!(sx("a or b or c"), "(or (or a b) c)");
    assert_eq!(sx("a and b and c"), "(and (and a b) c)");
}

#[test]
fn logic_precedence() {
    assert_eq!(sx("not a and b"), "(and (not a) b)");
    assert_eq!(sx("not a == b"), "(not (== a b))");
    assert_eq!(sx("a or b and c"), "(or a (and b c))");
    assert_eq!(sx("not not a"), "(not (not a))");
    assert_eq!(
        sx("a == 1 and b != 2 or c < 3"),
        "(or (and (== a 1) (!= b 2)) (< c 3))"
    );
}

#[test]
fn a_range_may_follow_in() {
    assert_eq!(sx("x in 1..5"), "(in x (.. 1 5))");
    assert_eq!(
        sx("x + 1 in a..b * 2 and y"),
        "(and (in (+ x 1) (.. a (* b 2))) y)"
    );
    // In a binder the range is the domain, as before.
    assert_eq!(sx("all(n in 1..5: n > 0)"), "(all n (.. 1 5) (> n 0))");
}

#[test]
fn comparisons() {
    for op in ["==", "!=", "<", "<=", ">", ">="] {
        assert_eq!(
            sx(&format!("a + 1 {op} b * 2")),
            format!("({op} (+ a 1) (* b 2))")
        );
    }
    assert_eq!(sx("x in [a, b]"), "(in x [a b])");
    assert_eq!(sx("c is 黄桐"), "(is c 黄桐)");
    assert_eq!(sx("not (c is 黄桐)"), "(not (is c 黄桐))");
    assert_eq!(sx("card(11-kasu) in 五"), "(in (card 11-kasu) 五)");
}

#[test]
fn unary_minus_and_negative_numbers() {
    assert_eq!(expr("-5").node, ExprKind::Int(-5));
    assert_eq!(expr("-9223372036854775808").node, ExprKind::Int(i64::MIN));
    assert_eq!(sx("-x"), "(neg x)");
    assert_eq!(sx("- -5"), "(neg -5)");
    assert_eq!(sx("-(5)"), "(neg 5)");
    assert_eq!(sx("-x.y"), "(neg (. x y))");
    assert_eq!(sx("a - -b"), "(- a (neg b))");
    assert_eq!(sx("-2 * 3"), "(* -2 3)");
}

#[test]
fn literals() {
    assert_eq!(expr("42").node, ExprKind::Int(42));
    assert_eq!(expr("true").node, ExprKind::Bool(true));
    assert_eq!(expr("false").node, ExprKind::Bool(false));
    assert_eq!(
        expr(r#""a\"b\\c\nd""#).node,
        ExprKind::Str("a\"b\\c\nd".into())
    );
    assert_eq!(
        expr(r#""{yaku}の{factor}倍付け""#).node,
        ExprKind::Str("{yaku}の{factor}倍付け".into())
    );
    assert_eq!(sx("[]"), "[]");
    assert_eq!(sx("[1, 2, a]"), "[1 2 a]");
}

#[test]
fn fields_indexes_and_calls() {
    assert_eq!(sx("r.name"), "(. r name)");
    assert_eq!(sx("r.total.x"), "(. (. r total) x)");
    assert_eq!(sx("手札[s]"), "([] 手札 s)");
    assert_eq!(sx("手札[s].month[0]"), "([] (. ([] 手札 s) month) 0)");
    assert_eq!(sx("f()"), "(f)");
    assert_eq!(sx("next(dealer)"), "(next dealer)");
    assert_eq!(
        sx("役代(h, win: 上がり, first_turn: 巡 == 1)"),
        "(役代 h win:上がり first_turn:(== 巡 1))"
    );
    assert_eq!(sx("役代(手札[x]).total"), "(. (役代 ([] 手札 x)) total)");
    assert_eq!(sx("r.has(平和)"), "(.has r 平和)");
    assert_eq!(sx("役(h).has(平和).x"), "(. (.has (役 h) 平和) x)");
    assert_eq!(sx("r.f()"), "(.f r)");
    assert_eq!(sx("r[平和] + 1"), "(+ ([] r 平和) 1)");
    assert_eq!(
        sx("f(c in h)"),
        "(f (in c h))",
        "`in` without `:` is an ordinary argument"
    );
    assert_eq!(sx("word(熟語, g, kanji)"), "(word 熟語 g kanji)");
    assert_eq!(sx("word()"), "(word)");
    assert_eq!(
        sx("not word(二字, cards() + a + b, kanji)"),
        "(not (word 二字 (+ (+ (cards ) a) b) kanji))"
    );
}

#[test]
fn binder_calls() {
    assert_eq!(
        sx("count(c in 手札[s]: c.month == 12)"),
        "(count c ([] 手札 s) (== (. c month) 12))"
    );
    assert_eq!(sx("sum(c in 五: c.points)"), "(sum c 五 (. c points))");
    assert_eq!(sx("all(n in 1..5: n > 0)"), "(all n (.. 1 5) (> n 0))");
    assert_eq!(
        sx("any(n in a + 1..b * 2: true)"),
        "(any n (.. (+ a 1) (* b 2)) true)"
    );
    assert_eq!(
        sx("filter(c in g: not (c is 黄桐))"),
        "(filter c g (not (is c 黄桐)))"
    );
    assert_eq!(
        sx("count(c in filter(d in h: d.month > 1): c is 赤短)"),
        "(count c (filter d h (> (. d month) 1)) (is c 赤短))"
    );
    let e = expr("max(c in h: c.points)");
    let ExprKind::Binder(f, x, _, _) = &e.node else {
        panic!("binder")
    };
    assert_eq!((f.node.as_str(), x.node.as_str()), ("max", "c"));
}

#[test]
fn conditional_expressions() {
    assert_eq!(sx("if a then b else c"), "(if a b c)");
    assert_eq!(
        sx("if a then b else if c then d else e"),
        "(if a b (if c d e))"
    );
    assert_eq!(
        sx("if a then if b then 1 else 2 else 3"),
        "(if a (if b 1 2) 3)"
    );
    assert_eq!(sx("if a then 1 else 2 + 3"), "(if a 1 (+ 2 3))");
    assert_eq!(sx("1 + (if a then 1 else 2)"), "(+ 1 (if a 1 2))");
    let e = expr("if a then b else if c then d else e");
    let ExprKind::If(_, _, inner) = &e.node else {
        panic!("if")
    };
    assert_eq!(
        inner.span.start,
        "if a then b else ".len() as u32 + "def f() = ".len() as u32
    );
}

#[test]
fn card_literals() {
    assert_eq!(sx("cards(1-crane 3-curtain)"), "(cards 1-crane 3-curtain)");
    assert_eq!(sx("cards(1a, 1m, JK1)"), "(cards 1a 1m JK1)");
    assert_eq!(sx("cards(12-kasu-yellow)"), "(cards 12-kasu-yellow)");
    assert_eq!(sx("cards()"), "(cards )");
    assert_eq!(sx(r#"cards("123m456p")"#), r#"(cards "123m456p")"#);
    assert_eq!(sx("card(12-kasu-yellow)"), "(card 12-kasu-yellow)");
    assert_eq!(sx("card(x)"), "(card x)");
    assert_eq!(
        sx("手札[x] - card(5-kasu-a)"),
        "(- ([] 手札 x) (card 5-kasu-a))"
    );
}

#[test]
fn unicode_names_and_keyword_prefixes() {
    assert_eq!(sx("上がり"), "上がり");
    assert_eq!(sx("捨て札"), "捨て札");
    assert_eq!(sx("役代"), "役代");
    assert_eq!(sx("_x1"), "_x1");
    // Keywords end at a word boundary: these are all plain names.
    assert_eq!(
        sx("[format, into, island, isX, order, iffy, letter, nothing]"),
        "[format into island isX order iffy letter nothing]"
    );
    assert_eq!(sx("x in island"), "(in x island)");
    assert_eq!(sx("order or format"), "(or order format)");
    // Contextual words stay names.
    assert_eq!(
        sx("[dealer, top, all, first, seats, yaku, set, int, seat]"),
        "[dealer top all first seats yaku set int seat]"
    );
    assert_eq!(sx("seats()"), "(seats)");
}

#[test]
fn spans_cover_the_source() {
    let prefix = "def f() = ".len() as u32;
    let e = expr("a + b * c");
    assert_eq!((e.span.start - prefix, e.span.end - prefix), (0, 9));
    let ExprKind::Binary(_, _, rhs) = &e.node else {
        panic!()
    };
    assert_eq!((rhs.span.start - prefix, rhs.span.end - prefix), (4, 9));
    let e = expr("-5");
    assert_eq!((e.span.start - prefix, e.span.end - prefix), (0, 2));
    let e = expr("count(c in h: c.x)");
    let ExprKind::Binder(f, x, dom, body) = &e.node else {
        panic!()
    };
    assert_eq!(
        (
            f.span.start - prefix,
            x.span.start - prefix,
            dom.span.start - prefix,
            body.span.start - prefix
        ),
        (0, 6, 11, 14)
    );
}
