//! Builds blocks and statements, folding `else if` chains into nested `if`s.

use super::build::{bug, first_child, ident, span, start_of, Builder, Kids, P, R};
use super::Rule;
use crate::ast::*;
use crate::Span;

impl Builder {
    pub(super) fn block(&mut self, p: P) -> R<Block> {
        let at = span(&p);
        self.enter(1, at)?;
        let stmts = p
            .into_inner()
            .map(|s| self.stmt(s))
            .collect::<R<Vec<_>>>()?;
        self.leave(1);
        Ok(Block { stmts, span: at })
    }

    pub(super) fn stmt(&mut self, p: P) -> R<Stmt> {
        let at = span(&p);
        self.enter(1, at)?;
        let kind = self.stmt_kind(p)?;
        self.leave(1);
        Ok(Spanned::new(kind, at))
    }

    pub(super) fn stmt_kind(&mut self, p: P) -> R<StmtKind> {
        let at = span(&p);
        let rule = p.as_rule();
        if rule == Rule::if_stmt {
            return self.if_stmt(p).map(|s| s.node);
        }
        if rule == Rule::deal_stmt {
            return self.deal(p);
        }
        let mut k = Kids::of(p);
        Ok(match rule {
            Rule::let_stmt => {
                let name = ident(k.need(Rule::ident)?);
                StmtKind::Let(name, self.expr(k.need(Rule::expr)?)?)
            }
            Rule::assign_stmt => {
                let target = self.lvalue(k.need(Rule::lvalue)?)?;
                let op = match k.need(Rule::assign_op)?.as_str() {
                    "+=" => AssignOp::Add,
                    "-=" => AssignOp::Sub,
                    _ => AssignOp::Set,
                };
                StmtKind::Assign(target, op, self.expr(k.need(Rule::expr)?)?)
            }
            Rule::while_stmt => {
                let cond = self.expr(k.need(Rule::expr)?)?;
                StmtKind::While(cond, self.block(k.need(Rule::block)?)?)
            }
            Rule::loop_stmt => StmtKind::Loop(self.block(k.need(Rule::block)?)?),
            Rule::for_stmt => {
                let var = ident(k.need(Rule::ident)?);
                let over = self.domain(k.need(Rule::domain)?)?;
                StmtKind::For(var, over, self.block(k.need(Rule::block)?)?)
            }
            Rule::repeat_stmt => {
                let times = self.expr(k.need(Rule::expr)?)?;
                let counter = k.opt(Rule::ident).map(ident);
                StmtKind::Repeat(times, counter, self.block(k.need(Rule::block)?)?)
            }
            Rule::return_stmt => {
                StmtKind::Return(k.opt(Rule::expr).map(|e| self.expr(e)).transpose()?)
            }
            Rule::break_stmt => StmtKind::Break,
            Rule::decline_stmt => StmtKind::Decline,
            Rule::continue_stmt => StmtKind::Continue,
            Rule::move_stmt => {
                let cards = self.expr(k.need(Rule::expr)?)?;
                StmtKind::Move(cards, self.expr(k.need(Rule::expr)?)?)
            }
            Rule::shuffle_stmt => StmtKind::Shuffle(self.expr(k.need(Rule::expr)?)?),
            Rule::cut_stmt => {
                let zone = self.expr(k.need(Rule::expr)?)?;
                StmtKind::Cut(zone, k.opt(Rule::expr).map(|e| self.expr(e)).transpose()?)
            }
            Rule::gather_stmt => StmtKind::Gather(self.expr(k.need(Rule::expr)?)?),
            Rule::choose_stmt => {
                let who = match k.opt(Rule::choose_each) {
                    Some(each) => {
                        let mut ek = Kids::of(each);
                        let var = ident(ek.need(Rule::ident)?);
                        Chooser::Each(var, self.expr(ek.need(Rule::expr)?)?)
                    }
                    None => Chooser::Seat(self.expr(k.need(Rule::expr)?)?),
                };
                StmtKind::Choose(ChooseStmt {
                    who,
                    options: self.options(&mut k)?,
                })
            }
            Rule::claim_stmt => {
                let seat = ident(k.need(Rule::ident)?);
                let seats = self.expr(k.need(Rule::expr)?)?;
                StmtKind::Claim(ClaimStmt {
                    seat,
                    seats,
                    options: self.options(&mut k)?,
                })
            }
            Rule::pay_stmt => {
                let amount = self.expr(k.need(Rule::expr)?)?;
                let from = match k.opt(Rule::pay_each) {
                    Some(each) => Payer::Each(self.expr(Kids::of(each).need(Rule::expr)?)?),
                    None => Payer::One(self.lvalue(k.need(Rule::lvalue)?)?),
                };
                let to = self.lvalue(k.need(Rule::lvalue)?)?;
                StmtKind::Pay(PayStmt { amount, from, to })
            }
            Rule::outcome_stmt => StmtKind::Outcome(self.expr(k.need(Rule::expr)?)?),
            Rule::record_stmt => {
                let result = self.expr(k.need(Rule::expr)?)?;
                StmtKind::Record(result, self.expr(k.need(Rule::expr)?)?)
            }
            Rule::dealer_stmt => {
                let mut keys = Vec::new();
                for key in k.all(Rule::draw_key) {
                    let mut kk = Kids::of(key);
                    let extreme = match first_child(kk.need(Rule::extreme)?)?.as_rule() {
                        Rule::kw_lowest => Extreme::Lowest,
                        _ => Extreme::Highest,
                    };
                    keys.push((extreme, ident(kk.need(Rule::ident)?)));
                }
                let mut keys = keys.into_iter();
                match keys.next() {
                    Some((extreme, attr)) => StmtKind::DealerByDraw(extreme, attr, keys.collect()),
                    None => StmtKind::SetDealer(self.expr(k.need(Rule::expr)?)?),
                }
            }
            Rule::reveal_stmt => StmtKind::Reveal(self.expr(k.need(Rule::expr)?)?),
            Rule::say_stmt => StmtKind::Say(self.expr(k.need(Rule::expr)?)?),
            Rule::expect_stmt => StmtKind::Expect(self.expr(k.need(Rule::expr)?)?),
            Rule::require_stmt => {
                let cond = self.expr(k.need(Rule::expr)?)?;
                let message = match k.opt(Rule::string) {
                    Some(m) => Some(self.string(m)?),
                    None => None,
                };
                StmtKind::Require(cond, message)
            }
            Rule::answer_stmt => {
                let name = ident(k.need(Rule::ident)?);
                let arg = match k.opt(Rule::expr) {
                    Some(e) => Some(self.expr(e)?),
                    None => None,
                };
                StmtKind::Answer(name, arg)
            }
            Rule::tally_stmt => {
                let label = ident(k.need(Rule::ident)?);
                let value = self.expr(k.need(Rule::expr)?)?;
                let seat = match k.opt(Rule::expr) {
                    Some(e) => Some(self.expr(e)?),
                    None => None,
                };
                StmtKind::Tally(label, value, seat)
            }
            Rule::call_stmt => {
                let name = ident(k.need(Rule::ident)?);
                let args = match k.opt(Rule::args) {
                    Some(a) => Kids::of(a)
                        .all(Rule::arg)
                        .into_iter()
                        .map(|a| self.arg(a))
                        .collect::<R<_>>()?,
                    None => Vec::new(),
                };
                StmtKind::Call(name, args)
            }
            _ => return Err(bug(at, "a statement")),
        })
    }

    /// `if … { } else if … { } else { }`: the grammar reads the chain flat; each
    /// `else if` becomes an `If` alone in the previous arm's else block.
    pub(super) fn if_stmt(&mut self, p: P) -> R<Stmt> {
        let at = span(&p);
        let arms_count = p
            .clone()
            .into_inner()
            .filter(|c| c.as_rule() == Rule::kw_if)
            .count();
        // Arm i sits i else-blocks (two levels each) below the first.
        let extra = 2 * arms_count.saturating_sub(1);
        self.enter(extra, at)?;
        let mut arms: Vec<(usize, Expr, Block)> = Vec::new();
        let mut last_else = None;
        let mut arm_start = at.start as usize;
        let mut cond = None;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::kw_if => arm_start = start_of(&c),
                Rule::expr => cond = Some(self.expr(c)?),
                Rule::block => match cond.take() {
                    Some(e) => arms.push((arm_start, e, self.block(c)?)),
                    None => last_else = Some(self.block(c)?),
                },
                _ => {}
            }
        }
        self.leave(extra);
        let mut tail = last_else;
        while let Some((start, cond, body)) = arms.pop() {
            let stmt = Spanned::new(
                StmtKind::If(cond, body, tail),
                Span::new(start, at.end as usize),
            );
            if arms.is_empty() {
                return Ok(stmt);
            }
            tail = Some(Block {
                span: stmt.span,
                stmts: vec![stmt],
            });
        }
        Err(bug(at, "an `if` arm"))
    }

    /// `deal n, m from A to B [from S]`: the keywords tell which expression is which.
    pub(super) fn deal(&mut self, p: P) -> R<StmtKind> {
        let at = span(&p);
        let mut counts = Vec::new();
        let (mut from, mut to, mut start) = (None, None, None);
        let mut froms = 0;
        let mut after_to = false;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::kw_from => froms += 1,
                Rule::kw_to => after_to = true,
                Rule::expr => {
                    let e = self.expr(c)?;
                    match (froms, after_to) {
                        (0, _) => counts.push(e),
                        (1, false) => from = Some(e),
                        (1, true) => to = Some(e),
                        _ => start = Some(e),
                    }
                }
                _ => {}
            }
        }
        match (from, to) {
            (Some(from), Some(to)) => Ok(StmtKind::Deal(DealStmt {
                counts,
                from,
                to,
                start,
            })),
            _ => Err(bug(at, "`from` and `to`")),
        }
    }

    pub(super) fn options(&mut self, k: &mut Kids) -> R<Vec<MoveOption>> {
        k.all(Rule::option)
            .into_iter()
            .map(|o| {
                let at = span(&o);
                let mut ok = Kids::of(o);
                let name = ident(ok.need(Rule::ident)?);
                let param = match ok.opt(Rule::option_param) {
                    Some(pp) => {
                        let mut pk = Kids::of(pp);
                        let var = ident(pk.need(Rule::ident)?);
                        Some((var, self.domain(pk.need(Rule::domain)?)?))
                    }
                    None => None,
                };
                let label = ok.opt(Rule::string).map(|s| self.string(s)).transpose()?;
                let guard = ok.opt(Rule::expr).map(|e| self.expr(e)).transpose()?;
                let priority = ok.opt(Rule::int).map(|i| self.int(i)).transpose()?;
                let body = self.block(ok.need(Rule::block)?)?;
                Ok(MoveOption {
                    name,
                    param,
                    label,
                    guard,
                    priority,
                    body,
                    span: at,
                })
            })
            .collect()
    }

    pub(super) fn lvalue(&mut self, p: P) -> R<LValue> {
        let at = span(&p);
        let mut k = Kids::of(p);
        let name = ident(k.need(Rule::ident)?);
        let index = match k.opt(Rule::expr) {
            Some(e) => {
                self.enter(1, at)?;
                let e = self.expr(e)?;
                self.leave(1);
                Some(Box::new(e))
            }
            None => None,
        };
        Ok(LValue {
            name,
            index,
            span: at,
        })
    }
}
