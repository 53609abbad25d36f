//! Helpers shared by the parser tests: parse-or-fail, and a compact printer for trees.
#![allow(dead_code)] // each test crate uses a different subset

use fuda_grammar::ast::*;
use fuda_grammar::{parse, SyntaxError};

/// Parses `src`, failing the test with the rendered diagnostic if it does not parse.
pub fn ok(src: &str) -> File {
    match parse("test.fuda", src) {
        Ok(f) => f,
        Err(e) => panic!("did not parse:\n{}\n--- source ---\n{src}", render(&e)),
    }
}

/// Parses `src`, which must fail, and returns the error after checking it renders.
pub fn err(src: &str) -> SyntaxError {
    match parse("test.fuda", src) {
        Ok(f) => panic!("parsed, but should not have: {f:?}"),
        Err(e) => {
            render(&e);
            e
        }
    }
}

/// Renders a diagnostic the way a terminal would (without colours); panics if miette does.
pub fn render(e: &SyntaxError) -> String {
    let mut out = String::new();
    miette::NarratableReportHandler::new()
        .render_report(&mut out, e)
        .expect("renders");
    out
}

/// The text of the primary label's span.
pub fn label_text<'a>(e: &SyntaxError, src: &'a str) -> &'a str {
    &src[e.span.start as usize..e.span.end as usize]
}

/// The statements of `proc p { BODY }`.
pub fn stmts(body: &str) -> Vec<Stmt> {
    let file = ok(&format!("proc p {{\n{body}\n}}"));
    match file.items.into_iter().next() {
        Some(Item::Proc(p)) => p.body.stmts,
        other => panic!("not a proc: {other:?}"),
    }
}

/// The one statement of `proc p { STMT }`.
pub fn stmt(body: &str) -> StmtKind {
    let mut s = stmts(body);
    assert_eq!(s.len(), 1, "expected one statement in {body:?}: {s:?}");
    s.remove(0).node
}

/// The expression `E`, parsed as the body of `def f() = E`.
pub fn expr(src: &str) -> Expr {
    let file = ok(&format!("def f() = {src}"));
    match file.items.into_iter().next() {
        Some(Item::Def(d)) => d.body,
        other => panic!("not a def: {other:?}"),
    }
}

/// `expr` printed as an s-expression, e.g. `(+ a (* b c))`.
pub fn sx(src: &str) -> String {
    show(&expr(src))
}

/// An expression as an s-expression.
pub fn show(e: &Expr) -> String {
    match &e.node {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Str(s) => format!("{s:?}"),
        ExprKind::Name(n) => n.clone(),
        ExprKind::Cards(ids) => format!(
            "(cards {})",
            ids.iter()
                .map(|i| i.node.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        ),
        ExprKind::CardsStr(s) => format!("(cards {:?})", s.node),
        ExprKind::Card(id) => format!("(card {})", id.node),
        ExprKind::List(items) => {
            format!("[{}]", items.iter().map(show).collect::<Vec<_>>().join(" "))
        }
        ExprKind::Range(a, b) => format!("(.. {} {})", show(a), show(b)),
        ExprKind::Neg(a) => format!("(neg {})", show(a)),
        ExprKind::Not(a) => format!("(not {})", show(a)),
        ExprKind::Binary(op, a, b) => format!("({} {} {})", op_str(*op), show(a), show(b)),
        ExprKind::Field(a, f) => format!("(. {} {})", show(a), f.node),
        ExprKind::Index(a, i) => format!("([] {} {})", show(a), show(i)),
        ExprKind::Method(a, m, args) => format!(
            "(.{} {}{})",
            m.node,
            show(a),
            args.iter()
                .map(|x| format!(" {}", show(&x.value)))
                .collect::<String>()
        ),
        ExprKind::Call(f, args) => {
            let args: Vec<String> = args
                .iter()
                .map(|a| match &a.name {
                    Some(n) => format!("{}:{}", n.node, show(&a.value)),
                    None => show(&a.value),
                })
                .collect();
            format!(
                "({}{}{})",
                f.node,
                if args.is_empty() { "" } else { " " },
                args.join(" ")
            )
        }
        ExprKind::Binder(f, x, dom, body) => {
            format!("({} {} {} {})", f.node, x.node, show(dom), show(body))
        }
        ExprKind::If(c, a, b) => format!("(if {} {} {})", show(c), show(a), show(b)),
    }
}

fn op_str(op: BinOp) -> &'static str {
    match op {
        BinOp::Or => "or",
        BinOp::And => "and",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::In => "in",
        BinOp::Is => "is",
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
    }
}

/// The source text a span covers.
pub fn text(src: &str, span: fuda_grammar::Span) -> &str {
    &src[span.start as usize..span.end as usize]
}
