//! Builds expressions: folds operator chains left-associatively, prefix chains and
//! `else if` chains into nested nodes, and recognises binder calls.

use super::build::{
    bug, first_child, ident, number_too_large, span, start_of, Builder, Kids, P, R,
};
use super::Rule;
use crate::ast::*;
use crate::error::{Problem, SyntaxErrorKind};
use crate::Span;

impl Builder {
    /// Any expression-level pair (`expr`, `add_expr`, …, or a primary).
    ///
    /// Levels with nothing to fold (`or_expr` with one operand, and so on) are stepped
    /// through in a loop, so plain operands cost no recursion.
    pub(super) fn expr(&mut self, p: P) -> R<Expr> {
        let mut p = p;
        loop {
            match p.as_rule() {
                Rule::expr | Rule::paren => p = first_child(p)?,
                Rule::or_expr
                | Rule::and_expr
                | Rule::cmp_expr
                | Rule::add_expr
                | Rule::mul_expr
                | Rule::not_expr
                | Rule::unary
                | Rule::postfix => match only_child(&p) {
                    Some(c) => p = c,
                    None => {
                        return match p.as_rule() {
                            Rule::not_expr | Rule::unary => self.prefixed(p),
                            Rule::postfix => self.postfix(p),
                            Rule::cmp_expr => self.comparison(p),
                            _ => self.chain(p),
                        }
                    }
                },
                _ => return self.primary(p),
            }
        }
    }

    /// `a op b op c`, folded to the left: `(a op b) op c`.
    fn chain(&mut self, p: P) -> R<Expr> {
        let at = span(&p);
        let kids: Vec<P> = p.into_inner().collect();
        let ops = kids.len() / 2;
        self.enter(ops, at)?;
        let mut it = kids.into_iter();
        let first = it.next().ok_or_else(|| bug(at, "an operand"))?;
        let start = span(&first).start as usize;
        let mut lhs = self.expr(first)?;
        while let (Some(op), Some(rhs)) = (it.next(), it.next()) {
            let op_at = span(&op);
            let op = binop(op.as_str()).ok_or_else(|| bug(op_at, "an operator"))?;
            let end = span(&rhs).end as usize;
            let rhs = self.expr(rhs)?;
            lhs = Spanned::new(
                ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                Span::new(start, end),
            );
        }
        self.leave(ops);
        Ok(lhs)
    }

    /// `a op b`, or `x in lo..hi`: a range may only follow `in`.
    fn comparison(&mut self, p: P) -> R<Expr> {
        let at = span(&p);
        let kids: Vec<P> = p.clone().into_inner().collect();
        let Ok([lhs, op, lo, end]) = <[P; 4]>::try_from(kids) else {
            return self.chain(p);
        };
        if op.as_str() != "in" {
            let range = Span::new(span(&lo).start as usize, span(&end).end as usize);
            return Err(Problem::new(
                SyntaxErrorKind::Unexpected,
                range,
                format!("a range `lo..hi` cannot follow `{}`", op.as_str()),
                "a range",
            )
            .help("a range says which ints a value may be: `x in 1..5` (both ends included)"));
        }
        let hi = Kids::of(end).need(Rule::add_expr)?;
        self.enter(1, at)?;
        let lhs = self.expr(lhs)?;
        let range = self.range_or(lo, Some(hi))?;
        self.leave(1);
        Ok(Spanned::new(
            ExprKind::Binary(BinOp::In, Box::new(lhs), Box::new(range)),
            at,
        ))
    }

    /// `not not e` or `- - e`: the prefixes nest, innermost last. A minus written
    /// right before a number is part of the number, so `-5` is `Int(-5)`.
    fn prefixed(&mut self, p: P) -> R<Expr> {
        let at = span(&p);
        let end = at.end as usize;
        let mut ops: Vec<P> = p.into_inner().collect();
        let operand = ops.pop().ok_or_else(|| bug(at, "an operand"))?;
        let levels = ops.len();
        self.enter(levels, at)?;
        let literal = match (ops.last(), int_operand(&operand)) {
            (Some(minus), Some(digits)) if minus.as_rule() == Rule::neg => {
                Some((start_of(minus), format!("-{}", digits.as_str())))
            }
            _ => None,
        };
        let mut e = match literal {
            Some((start, text)) => {
                ops.pop();
                let lit_at = Span::new(start, end);
                let n = text
                    .parse::<i64>()
                    .map_err(|_| number_too_large(&text, lit_at))?;
                Spanned::new(ExprKind::Int(n), lit_at)
            }
            None => self.expr(operand)?,
        };
        while let Some(op) = ops.pop() {
            let op_at = Span::new(start_of(&op), end);
            e = match op.as_rule() {
                Rule::kw_not => Spanned::new(ExprKind::Not(Box::new(e)), op_at),
                _ => Spanned::new(ExprKind::Neg(Box::new(e)), op_at),
            };
        }
        self.leave(levels);
        Ok(e)
    }

    /// `e.field[i].other`: suffixes apply left to right.
    fn postfix(&mut self, p: P) -> R<Expr> {
        let at = span(&p);
        let start = at.start as usize;
        let mut kids = p.into_inner();
        let primary = kids.next().ok_or_else(|| bug(at, "an operand"))?;
        let suffixes: Vec<P> = kids.collect();
        let levels = suffixes.len();
        self.enter(levels, at)?;
        let mut e = self.expr(primary)?;
        for s in suffixes {
            let sp = Span::new(start, span(&s).end as usize);
            let kind = match s.as_rule() {
                Rule::field => {
                    let mut k = Kids::of(s);
                    let name = ident(k.need(Rule::field_name)?);
                    match k.opt(Rule::method_args) {
                        Some(m) => {
                            let args = match Kids::of(m).opt(Rule::args) {
                                Some(a) => a.into_inner().map(|a| self.arg(a)).collect::<R<_>>()?,
                                None => Vec::new(),
                            };
                            ExprKind::Method(Box::new(e), name, args)
                        }
                        None => ExprKind::Field(Box::new(e), name),
                    }
                }
                _ => ExprKind::Index(Box::new(e), Box::new(self.expr(first_child(s)?)?)),
            };
            e = Spanned::new(kind, sp);
        }
        self.leave(levels);
        Ok(e)
    }

    fn primary(&mut self, p: P) -> R<Expr> {
        let at = span(&p);
        let kind = match p.as_rule() {
            Rule::int => ExprKind::Int(self.int(p)?.node),
            Rule::bool_lit => ExprKind::Bool(first_child(p)?.as_rule() == Rule::kw_true),
            Rule::string => ExprKind::Str(self.string(p)?.node),
            Rule::name => ExprKind::Name(p.as_str().to_string()),
            Rule::deck_value => ExprKind::Name("deck".to_string()),
            Rule::name_or_call => return self.name_or_call(p),
            Rule::word_call => return self.word_call(p),
            Rule::cond_expr => return self.cond(p),
            Rule::cards_lit => {
                let mut k = Kids::of(p);
                match k.opt(Rule::string) {
                    Some(s) => ExprKind::CardsStr(self.string(s)?),
                    None => ExprKind::Cards(k.all(Rule::card_id).into_iter().map(ident).collect()),
                }
            }
            Rule::card_lit => ExprKind::Card(ident(Kids::of(p).need(Rule::card_id)?)),
            Rule::list => {
                self.enter(1, at)?;
                let items = p
                    .into_inner()
                    .map(|e| self.expr(e))
                    .collect::<R<Vec<_>>>()?;
                self.leave(1);
                ExprKind::List(items)
            }
            _ => return Err(bug(at, "an expression")),
        };
        Ok(Spanned::new(kind, at))
    }

    /// `if c then a else if d then b else e`, read flat, nested from the right.
    fn cond(&mut self, p: P) -> R<Expr> {
        let at = span(&p);
        let end = at.end as usize;
        let arms_count = p
            .clone()
            .into_inner()
            .filter(|c| c.as_rule() == Rule::kw_if)
            .count();
        self.enter(arms_count, at)?;
        let mut arms: Vec<(usize, Expr, Expr)> = Vec::new();
        let mut arm_start = at.start as usize;
        let mut pending: Vec<Expr> = Vec::new();
        let mut otherwise = None;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::kw_if => arm_start = start_of(&c),
                Rule::expr => {
                    pending.push(self.expr(c)?);
                    if pending.len() == 2 {
                        let then = pending.pop();
                        let cond = pending.pop();
                        if let (Some(cond), Some(then)) = (cond, then) {
                            arms.push((arm_start, cond, then));
                        }
                    }
                }
                _ => {}
            }
        }
        // The last `else` branch is left over once the arms have taken their pairs.
        if let Some(e) = pending.pop() {
            otherwise = Some(e);
        }
        self.leave(arms_count);
        let mut tail = otherwise.ok_or_else(|| bug(at, "an `else` branch"))?;
        while let Some((start, cond, then)) = arms.pop() {
            tail = Spanned::new(
                ExprKind::If(Box::new(cond), Box::new(then), Box::new(tail)),
                Span::new(start, end),
            );
        }
        Ok(tail)
    }

    /// A name, a call, or a binder call `f(x in domain: body)`.
    fn name_or_call(&mut self, p: P) -> R<Expr> {
        let at = span(&p);
        let mut k = Kids::of(p);
        let name = ident(k.need(Rule::ident)?);
        let Some(call) = k.opt(Rule::call_args) else {
            return Ok(Spanned::new(ExprKind::Name(name.node), at));
        };
        self.enter(1, at)?;
        let kids: Vec<P> = call.into_inner().collect();
        let kind = match kids.iter().position(|c| c.as_rule() == Rule::binder) {
            Some(b) => self.binder(name, &kids, b)?,
            None => ExprKind::Call(
                name,
                kids.into_iter().map(|a| self.arg(a)).collect::<R<_>>()?,
            ),
        };
        self.leave(1);
        Ok(Spanned::new(kind, at))
    }

    /// `word(LIST, cards, ATTR)`: an ordinary call of the reserved word `word`.
    fn word_call(&mut self, p: P) -> R<Expr> {
        let at = span(&p);
        let mut k = Kids::of(p);
        // The keyword itself is skipped by `Kids`: the name spans its four letters.
        let name = Spanned::new(
            "word".to_string(),
            Span::new(at.start as usize, at.start as usize + 4),
        );
        let args = match k.opt(Rule::args) {
            Some(a) => {
                self.enter(1, at)?;
                let args = a.into_inner().map(|a| self.arg(a)).collect::<R<Vec<_>>>()?;
                self.leave(1);
                args
            }
            None => Vec::new(),
        };
        Ok(Spanned::new(ExprKind::Call(name, args), at))
    }

    /// A binder call: its first argument must read `x in domain`.
    fn binder(&mut self, func: Ident, kids: &[P], binder_at: usize) -> R<ExprKind> {
        let first = kids.first().ok_or_else(|| bug(func.span, "an argument"))?;
        let Some((var, lo, head_hi)) = binder_head(first) else {
            return Err(Problem::new(
                SyntaxErrorKind::BadBinder,
                span(first),
                "a call with `:` must start with `name in …`",
                "expected `name in …` here",
            )
            .help(
                "write a binder like `count(c in 手札[s]: c.month == 12)` or `all(n in 1..5: …)`",
            ));
        };
        let mut bk = Kids::of(kids[binder_at].clone());
        let hi = head_hi.or_else(|| bk.opt(Rule::add_expr));
        let body = bk.need(Rule::expr)?;
        let domain = self.range_or(lo, hi)?;
        let body = self.expr(body)?;
        Ok(ExprKind::Binder(
            func,
            ident(var),
            Box::new(domain),
            Box::new(body),
        ))
    }

    /// A move parameter's domain: `手札[s]` or `1..5`.
    pub(super) fn domain(&mut self, p: P) -> R<Expr> {
        let mut k = Kids::of(p);
        let lo = k.need(Rule::add_expr)?;
        let hi = k.opt(Rule::add_expr);
        self.range_or(lo, hi)
    }

    /// `lo..hi` when `hi` is there, else `lo` alone.
    fn range_or(&mut self, lo: P, hi: Option<P>) -> R<Expr> {
        let Some(hi) = hi else { return self.expr(lo) };
        let sp = Span::new(span(&lo).start as usize, span(&hi).end as usize);
        self.enter(1, sp)?;
        let lo = self.expr(lo)?;
        let hi = self.expr(hi)?;
        self.leave(1);
        Ok(Spanned::new(
            ExprKind::Range(Box::new(lo), Box::new(hi)),
            sp,
        ))
    }

    /// `value` or `name: value`.
    pub(super) fn arg(&mut self, p: P) -> R<Arg> {
        let mut k = Kids::of(p);
        let name = k.opt(Rule::ident).map(ident);
        let value = self.expr(k.need(Rule::expr)?)?;
        Ok(Arg { name, value })
    }
}

/// The only child of a pair, if it has exactly one.
fn only_child<'i>(p: &P<'i>) -> Option<P<'i>> {
    let mut it = p.clone().into_inner();
    let first = it.next()?;
    it.next().is_none().then_some(first)
}

/// The `int` token of an operand that is a bare number (no field or index after it).
fn int_operand<'i>(postfix: &P<'i>) -> Option<P<'i>> {
    let p = only_child(postfix)?;
    (p.as_rule() == Rule::int).then_some(p)
}

/// For an unnamed argument that reads exactly `x in domain` (no brackets, no other
/// operator), the name `x`, the domain's `add_expr` and, for `x in lo..hi`, the `hi`.
fn binder_head<'i>(arg: &P<'i>) -> Option<(P<'i>, P<'i>, Option<P<'i>>)> {
    let expr = only_child(arg)?; // a named argument has two children
    let or = only_child(&expr)?;
    let and = only_child(&or)?;
    let not = only_child(&and)?;
    let cmp = only_child(&not)?;
    if cmp.as_rule() != Rule::cmp_expr {
        return None;
    }
    let mut parts = cmp.into_inner();
    let (lhs, op, domain) = (parts.next()?, parts.next()?, parts.next()?);
    let hi = parts.next().and_then(|end| end.into_inner().next());
    if op.as_str() != "in" {
        return None;
    }
    let mut p = lhs;
    for rule in [
        Rule::mul_expr,
        Rule::unary,
        Rule::postfix,
        Rule::name_or_call,
        Rule::ident,
    ] {
        p = only_child(&p)?;
        if p.as_rule() != rule {
            return None;
        }
    }
    Some((p, domain, hi))
}

fn binop(op: &str) -> Option<BinOp> {
    Some(match op {
        "or" => BinOp::Or,
        "and" => BinOp::And,
        "==" => BinOp::Eq,
        "!=" => BinOp::Ne,
        "<" => BinOp::Lt,
        "<=" => BinOp::Le,
        ">" => BinOp::Gt,
        ">=" => BinOp::Ge,
        "in" => BinOp::In,
        "is" => BinOp::Is,
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "*" => BinOp::Mul,
        "/" => BinOp::Div,
        "%" => BinOp::Rem,
        _ => return None,
    })
}
