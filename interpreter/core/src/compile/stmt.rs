//! Compiling procedure and test bodies into flat code with jumps, so the engine can
//! stop at a decision and resume there later (the state holds the program counter).

use fuda_grammar::ast::{self, Chooser, Item, Payer, StmtKind};

mod call;
mod decide;
mod values;

use super::expr::Scope;
use super::{Compiler, Global};
use crate::diagnostic::Diagnostic;
use crate::ir::{DecideKind, Expr, Loc, Op, PayFrom, ProcDef, Target, TestDef};
use crate::value::{Type, Value};

/// Code being generated for one body.
struct Gen {
    code: Vec<Op>,
    locs: Vec<Loc>,
    /// The statement being compiled.
    cur: Loc,
    /// Per open loop: (continue target, break jumps to patch).
    loops: Vec<(u32, Vec<usize>)>,
    /// The claim windows whose bodies are being compiled, innermost last: where a
    /// `decline` hands the window on.
    claims: Vec<u32>,
    /// Whether this is a test's body.
    in_test: bool,
    /// The type of the value the procedure returns (`proc f() -> int`), if any.
    returns: Option<Type>,
}

impl Gen {
    fn here(&self) -> u32 {
        self.code.len() as u32
    }

    fn emit(&mut self, op: Op) -> usize {
        self.code.push(op);
        self.locs.push(self.cur);
        self.code.len() - 1
    }

    fn patch(&mut self, at: usize, target: u32) {
        match &mut self.code[at] {
            Op::Jump(t) | Op::JumpIfNot(_, t) => *t = target,
            Op::ForNext { exit, .. } => *exit = target,
            _ => {}
        }
    }
}

pub(super) fn compile_procs_and_tests(c: &mut Compiler, items: &[(u16, Item)]) {
    let mut tests_seen: std::collections::BTreeMap<&str, Loc> = Default::default();
    for (file, item) in items {
        match item {
            Item::Proc(p) => {
                let Some((Global::Proc(ix), _)) = c.globals.get(&p.name.node).cloned() else {
                    continue;
                };
                let mut sc = Scope::stateful(*file);
                for (q, t) in p.params.iter().zip(c.proc_sigs[ix as usize].clone()) {
                    sc.bind(&q.name.node, t);
                }
                let mut g = Gen {
                    code: Vec::new(),
                    locs: Vec::new(),
                    cur: Loc {
                        file: *file,
                        span: p.name.span,
                    },
                    loops: Vec::new(),
                    claims: Vec::new(),
                    in_test: false,
                    // `proc match` returning a value is its own error (`bad-entry`).
                    returns: c.proc_returns[ix as usize]
                        .clone()
                        .filter(|_| p.name.node != "match"),
                };
                c.block(&mut sc, &mut g, &p.body);
                if g.returns.is_some() {
                    c.check_returns(*file, p);
                    // Unreachable once `check_returns` passes; should a path it counts as
                    // returning still end here, the game stops with this message.
                    g.emit(Op::Require(
                        Expr::Const(Value::Bool(false)),
                        Some(format!(
                            "procedure `{}` ended without returning a value",
                            p.name.node
                        )),
                        g.cur,
                    ));
                }
                g.emit(Op::Return);
                c.check_slots(
                    &sc,
                    Loc {
                        file: *file,
                        span: p.name.span,
                    },
                );
                let pd = &mut c.program.procs[ix as usize];
                pd.code = g.code;
                pd.locs = g.locs;
                pd.frame = sc.max;
                pd.slots = std::mem::take(&mut sc.slot_types);
                if p.name.node == "match" {
                    c.program.entry = Some(ix);
                    if let Some(t) = &p.returns {
                        c.error(
                            Diagnostic::error(
                                "fuda::bad-entry",
                                "`proc match` returns no value: nothing would receive it",
                                Loc {
                                    file: *file,
                                    span: t.span,
                                },
                                "remove this",
                            )
                            .with_help("keep a game's results in variables, or `record` them"),
                        );
                    }
                    if let (Some(first), Some(last)) = (p.params.first(), p.params.last()) {
                        c.error(
                            Diagnostic::error(
                                "fuda::bad-entry",
                                "`proc match` takes no parameters: a game starts it with none",
                                Loc {
                                    file: *file,
                                    span: fuda_grammar::Span::new(
                                        first.span.start as usize,
                                        last.span.end as usize,
                                    ),
                                },
                                "remove these",
                            )
                            .with_help("settings a game is started with are `param`s: `param rounds: int = 12`"),
                        );
                    }
                }
            }
            Item::Test(t) => {
                if let Some(first) = tests_seen.get(t.name.node.as_str()) {
                    c.error(
                        Diagnostic::error(
                            "fuda::duplicate-name",
                            format!("two tests are named \"{}\"", t.name.node),
                            Loc {
                                file: *file,
                                span: t.name.span,
                            },
                            "again here",
                        )
                        .with_label(*first, "first here")
                        .with_help("give each test its own name, so a failure says which one"),
                    );
                } else {
                    tests_seen.insert(
                        &t.name.node,
                        Loc {
                            file: *file,
                            span: t.name.span,
                        },
                    );
                }
                test(c, *file, t)
            }
            _ => {}
        }
    }
}

fn test(c: &mut Compiler, file: u16, t: &ast::TestDecl) {
    let loc = Loc {
        file,
        span: t.name.span,
    };
    let mut with = Vec::new();
    let sc0 = Scope::pure(file, "a test");
    let mut given: std::collections::BTreeMap<&str, fuda_grammar::Span> = Default::default();
    for (n, v) in &t.with {
        // A parameter set twice would leave the test running with the last value only.
        if let Some(first) = given.get(n.node.as_str()) {
            c.error(
                Diagnostic::error(
                    "fuda::duplicate-name",
                    format!("`{}` is set twice for this test", n.node),
                    Loc { file, span: n.span },
                    "set again here",
                )
                .with_label(Loc { file, span: *first }, "first given here")
                .with_help("give each parameter once"),
            );
            continue;
        }
        given.insert(&n.node, n.span);
        match c.globals.get(&n.node).cloned() {
            Some((Global::Param(p), _)) => {
                let (val, ty) = match &v.node {
                    ast::Literal::Int(i) => (Value::Int(*i), Type::Int),
                    ast::Literal::Bool(b) => (Value::Bool(*b), Type::Bool),
                    ast::Literal::Str(s) => (Value::Str(s.as_str().into()), Type::Str),
                    ast::Literal::Name(s) => match c.sym_index.get(s) {
                        Some(x) => (
                            Value::Sym(*x),
                            c.sym_type
                                .get(x)
                                .cloned()
                                .unwrap_or(Type::Sym(crate::value::SymDomain::Yaku)),
                        ),
                        None => {
                            let want = c.program.params[p as usize].ty.clone();
                            c.unknown_value(&sc0, s, v.span, &want);
                            continue;
                        }
                    },
                };
                let want = c.program.params[p as usize].ty.clone();
                let as_expr = match &v.node {
                    ast::Literal::Int(i) => Some(ast::Expr::new(ast::ExprKind::Int(*i), v.span)),
                    _ => None,
                };
                if !c.expect_type_at(&sc0, v.span, as_expr.as_ref(), &ty, &want) {
                    continue;
                }
                if let (Some((lo, hi)), Value::Int(i)) = (c.program.params[p as usize].range, &val)
                {
                    if *i < lo || *i > hi {
                        c.error(
                            Diagnostic::error(
                                "fuda::out-of-range",
                                format!("`{}` takes {lo}..{hi}, not {i}", n.node),
                                Loc { file, span: v.span },
                                format!("outside {lo}..{hi}"),
                            )
                            .with_label(
                                c.program.params[p as usize].loc,
                                "the range is declared here",
                            ),
                        );
                    }
                }
                with.push((p, val));
            }
            _ => c.unknown_name(&sc0, &n.node, n.span, "parameter"),
        }
    }
    let mut sc = Scope::stateful(file);
    let mut g = Gen {
        code: Vec::new(),
        locs: Vec::new(),
        cur: loc,
        loops: Vec::new(),
        claims: Vec::new(),
        in_test: true,
        returns: None,
    };
    c.block(&mut sc, &mut g, &t.body);
    g.emit(Op::Return);
    c.check_slots(&sc, loc);
    let body = ProcDef {
        name: format!("test \"{}\"", t.name.node),
        arity: 0,
        params: Vec::new(),
        frame: sc.max,
        slots: std::mem::take(&mut sc.slot_types),
        code: g.code,
        locs: g.locs,
        quick: Vec::new(),
        loc,
    };
    c.program.tests.push(TestDef {
        name: t.name.node.clone(),
        with,
        body,
        loc,
    });
}

impl Compiler {
    fn block(&mut self, sc: &mut Scope, g: &mut Gen, b: &ast::Block) {
        sc.open();
        for s in &b.stmts {
            self.stmt(sc, g, s);
        }
        sc.close();
    }

    fn target(&mut self, sc: &mut Scope, lv: &ast::LValue) -> Option<(Target, Type)> {
        let n = &lv.name.node;
        if let Some((slot, t)) = sc.local(n) {
            if lv.index.is_none() {
                return Some((Target::Local(slot), t));
            }
            // `l[0] = 3` on a `let`: only per-seat variables take an index on the left.
            self.error(
                Diagnostic::error(
                    "fuda::not-assignable",
                    format!("`{n}` is a local name (a `let` or a loop's name): one element of it cannot be assigned"),
                    self.loc(sc, lv.span),
                    "an element of a local",
                )
                .with_help(format!(
                    "values are not changed in place: assign the whole value again (`{n} = …`), or keep one value per seat in a `var … per seat` and assign `v[s] = …`"
                )),
            );
            return None;
        }
        if n == "dealer" {
            return Some((Target::Dealer, Type::Seat));
        }
        match self.globals.get(n).cloned() {
            Some((Global::Var(v), _)) => {
                let def = self.program.vars[v as usize].clone();
                match (&lv.index, def.per_seat) {
                    (Some(i), true) => {
                        let s = self.expr_of(sc, i, &Type::Seat);
                        Some((Target::SeatVar(v, Box::new(s)), def.ty))
                    }
                    (None, false) => Some((Target::Var(v), def.ty)),
                    // One item of a list: by card for a `per card` variable.
                    (Some(i), false) if matches!(def.ty, Type::List(_)) => {
                        let x = match def.per_key {
                            // By the value's place among the enum's values.
                            Some(e) => {
                                let k = self.expr_of(
                                    sc,
                                    i,
                                    &Type::Sym(crate::value::SymDomain::Enum(e)),
                                );
                                let at = self.loc(sc, i.span);
                                Expr::Call(crate::ir::Builtin::Ordinal(e), vec![k], at)
                            }
                            None => {
                                let want = if def.per_card { Type::Card } else { Type::Int };
                                self.expr_of(sc, i, &want)
                            }
                        };
                        let Type::List(elem) = def.ty else {
                            return None;
                        };
                        Some((Target::Item(v, Box::new(x)), *elem))
                    }
                    (None, true) => {
                        self.error(
                            Diagnostic::error(
                                "fuda::needs-seat",
                                format!("`{n}` is one per seat: say whose"),
                                self.loc(sc, lv.span),
                                "per-seat variable",
                            )
                            .with_help(format!("write e.g. `{n}[dealer]` or `{n}[s]`")),
                        );
                        None
                    }
                    (Some(_), false) => {
                        self.error(
                            Diagnostic::error(
                                "fuda::not-per-seat",
                                format!("`{n}` is shared, not one per seat"),
                                self.loc(sc, lv.span),
                                "not per seat",
                            )
                            .with_help(format!(
                                "drop the index: `{n}`; or declare it `var {n}: … per seat = …`"
                            )),
                        );
                        None
                    }
                }
            }
            Some((other, _)) => {
                let help = match other {
                    // A per-seat zone is named with its seat, as `move` needs it.
                    Global::Zone(z) => {
                        let whose = match self.program.zones.get(z as usize) {
                            Some(zd) if zd.owner == fuda_grammar::ast::Owner::PerSeat => "[SEAT]",
                            _ => "",
                        };
                        format!("a zone holds cards: put them in with `move CARDS to {n}{whose}`")
                    }
                    Global::Param(_) => format!(
                        "parameters are fixed for a game; to change `{n}` as it goes, copy it into a `var`"
                    ),
                    _ => "only `var`s, `let`s and `dealer` can be assigned".to_string(),
                };
                self.error(
                    Diagnostic::error(
                        "fuda::not-assignable",
                        format!("`{n}` is {} and cannot be assigned", other.describe()),
                        self.loc(sc, lv.name.span),
                        "not a variable",
                    )
                    .with_help(help),
                );
                None
            }
            None => {
                self.unknown_name(sc, n, lv.name.span, "variable");
                None
            }
        }
    }

    fn stmt(&mut self, sc: &mut Scope, g: &mut Gen, s: &ast::Stmt) {
        let loc = self.loc(sc, s.span);
        let outer = g.cur;
        g.cur = loc;
        self.stmt_inner(sc, g, s, loc);
        g.cur = outer;
    }

    fn stmt_inner(&mut self, sc: &mut Scope, g: &mut Gen, s: &ast::Stmt, loc: Loc) {
        match &s.node {
            StmtKind::Let(name, e) => {
                let saved = self.open_calls(sc);
                let (mut x, t) = self.expr(sc, e);
                self.close_calls(sc, g, saved, &mut [&mut x]);
                let slot = sc.bind(&name.node, t);
                g.emit(Op::Let(slot, x));
            }
            StmtKind::Assign(lv, op, e) => {
                if let Some((t, ty)) = self.target(sc, lv) {
                    if *op != ast::AssignOp::Set {
                        self.expect_type(sc, lv.span, &ty, &Type::Int);
                    }
                    let saved = self.open_calls(sc);
                    let mut x = self.expr_of(sc, e, &ty);
                    self.close_calls(sc, g, saved, &mut [&mut x]);
                    g.emit(Op::Assign(t, *op, x, loc));
                } else {
                    // The value is still checked: it may hold mistakes of its own.
                    let _ = self.expr(sc, e);
                }
            }
            StmtKind::If(cond, then, els) => {
                let saved = self.open_calls(sc);
                let mut c = self.expr_of(sc, cond, &Type::Bool);
                self.close_calls(sc, g, saved, &mut [&mut c]);
                let jf = g.emit(Op::JumpIfNot(c, 0));
                self.block(sc, g, then);
                if let Some(els) = els {
                    let je = g.emit(Op::Jump(0));
                    let h = g.here();
                    g.patch(jf, h);
                    self.block(sc, g, els);
                    let h = g.here();
                    g.patch(je, h);
                } else {
                    let h = g.here();
                    g.patch(jf, h);
                }
            }
            StmtKind::While(cond, body) => {
                let top = g.here();
                let saved = self.open_calls(sc);
                let mut c = self.expr_of(sc, cond, &Type::Bool);
                self.close_calls(sc, g, saved, &mut [&mut c]);
                let jf = g.emit(Op::JumpIfNot(c, 0));
                g.loops.push((top, vec![jf]));
                self.block(sc, g, body);
                g.emit(Op::Jump(top));
                self.end_loop(g);
            }
            StmtKind::Loop(body) => {
                let top = g.here();
                g.loops.push((top, vec![]));
                self.block(sc, g, body);
                g.emit(Op::Jump(top));
                self.end_loop(g);
            }
            StmtKind::For(x, dom, body) => {
                let saved = self.open_calls(sc);
                let (mut de, dt) = self.expr(sc, dom);
                self.close_calls(sc, g, saved, &mut [&mut de]);
                let elem = match &dt {
                    Type::List(t) => (**t).clone(),
                    Type::Cards | Type::Zone | Type::Card => Type::Card,
                    Type::Range => Type::Int,
                    Type::Error => Type::Error,
                    other => {
                        self.error(Diagnostic::error(
                            "fuda::type-mismatch",
                            format!("cannot loop over {}", self.describe(other)),
                            self.loc(sc, dom.span),
                            "needs a list, cards, a zone or `lo..hi`",
                        ));
                        Type::Error
                    }
                };
                let list = sc.hidden();
                let index = sc.hidden();
                g.emit(Op::ForStart {
                    list,
                    index,
                    domain: de,
                });
                let top = g.here();
                sc.open();
                let var = sc.bind(&x.node, elem);
                let next = g.emit(Op::ForNext {
                    list,
                    index,
                    var,
                    exit: 0,
                });
                g.loops.push((top, vec![next]));
                self.block(sc, g, body);
                sc.close();
                g.emit(Op::Jump(top));
                self.end_loop(g);
            }
            StmtKind::Repeat(n, as_name, body) => {
                // `repeat n as i` is `for i in 1..n`.
                let saved = self.open_calls(sc);
                let mut ne = self.expr_of(sc, n, &Type::Int);
                self.close_calls(sc, g, saved, &mut [&mut ne]);
                let list = sc.hidden();
                let index = sc.hidden();
                g.emit(Op::ForStart {
                    list,
                    index,
                    domain: Expr::Range(Box::new(Expr::Const(Value::Int(1))), Box::new(ne)),
                });
                let top = g.here();
                sc.open();
                let var = match as_name {
                    Some(a) => sc.bind(&a.node, Type::Int),
                    None => sc.hidden(),
                };
                let next = g.emit(Op::ForNext {
                    list,
                    index,
                    var,
                    exit: 0,
                });
                g.loops.push((top, vec![next]));
                self.block(sc, g, body);
                sc.close();
                g.emit(Op::Jump(top));
                self.end_loop(g);
            }
            StmtKind::Return(v) => match (v, g.returns.clone()) {
                (Some(v), Some(t)) => {
                    let saved = self.open_calls(sc);
                    let mut x = self.expr_of(sc, v, &t);
                    self.close_calls(sc, g, saved, &mut [&mut x]);
                    g.emit(Op::ReturnValue(x));
                }
                (None, Some(t)) => {
                    self.error(
                        Diagnostic::error(
                            "fuda::return-value",
                            format!("this procedure returns {}: say which", self.describe(&t)),
                            loc,
                            "no value",
                        )
                        .with_help("give the value: `return VALUE`"),
                    );
                }
                (Some(v), None) => {
                    let (message, help) = if g.in_test {
                        ("a test returns no value", "write `return` alone")
                    } else {
                        (
                            "this procedure returns no value",
                            "declare the type it returns after its parameters: `proc NAME(…) -> int { … }`",
                        )
                    };
                    self.error(
                        Diagnostic::error(
                            "fuda::return-value",
                            message,
                            self.loc(sc, v.span),
                            "a value",
                        )
                        .with_help(help),
                    );
                }
                (None, None) => {
                    g.emit(Op::Return);
                }
            },
            StmtKind::Decline => match g.claims.last() {
                Some(&decide) => {
                    g.emit(Op::Decline { decide });
                }
                None => self.error(
                    Diagnostic::error(
                        "fuda::outside-claim",
                        "`decline` outside a claim's body",
                        loc,
                        "not inside a move of `claim`",
                    )
                    .with_help("`decline` hands a claim window on to its next claim; write it in the body of a `claim` move"),
                ),
            },
            StmtKind::Break | StmtKind::Continue => {
                if g.loops.is_empty() {
                    let word = if matches!(s.node, StmtKind::Break) {
                        "break"
                    } else {
                        "continue"
                    };
                    self.error(
                        Diagnostic::error(
                            "fuda::outside-loop",
                            format!("`{word}` outside a loop"),
                            loc,
                            "not inside `loop`, `while`, `for` or `repeat`",
                        )
                        .with_help(if word == "break" {
                            "to leave the procedure, use `return`"
                        } else {
                            "`continue` starts the next round of a loop; remove it here"
                        }),
                    );
                    return;
                }
                if matches!(s.node, StmtKind::Break) {
                    let j = g.emit(Op::Jump(0));
                    g.loops.last_mut().expect("checked").1.push(j);
                } else {
                    let top = g.loops.last().expect("checked").0;
                    g.emit(Op::Jump(top));
                }
            }
            StmtKind::Move(what, to) => {
                let saved = self.open_calls(sc);
                let (mut w, wt) = self.expr(sc, what);
                if !matches!(wt, Type::Card | Type::Cards | Type::Zone | Type::Error) {
                    self.expect_type(sc, what.span, &wt, &Type::Cards);
                }
                let mut z = self.expr_of(sc, to, &Type::Zone);
                self.close_calls(sc, g, saved, &mut [&mut w, &mut z]);
                g.emit(Op::Move(w, z, loc));
            }
            StmtKind::Shuffle(z) => {
                let z = self.expr_of(sc, z, &Type::Zone);
                g.emit(Op::Shuffle(z, loc));
            }
            StmtKind::Cut(z, aside) => {
                let z = self.expr_of(sc, z, &Type::Zone);
                let a = aside.as_ref().map(|a| self.expr_of(sc, a, &Type::Zone));
                g.emit(Op::Cut(z, a, loc));
            }
            StmtKind::Deal(d) => {
                let counts = d
                    .counts
                    .iter()
                    .map(|n| {
                        let x = self.expr_of(sc, n, &Type::Int);
                        self.check_deal_count(sc, n, &x);
                        x
                    })
                    .collect();
                let from = self.expr_of(sc, &d.from, &Type::Zone);
                let (to, tt) = if self.unknown_zone(sc, &d.to) {
                    (Expr::Const(Value::Unit), Type::Error)
                } else {
                    self.expr(sc, &d.to)
                };
                if !matches!(tt, Type::Zone | Type::ZoneFamily | Type::Error) {
                    self.expect_type(sc, d.to.span, &tt, &Type::Zone);
                }
                let start = d.start.as_ref().map(|s| self.expr_of(sc, s, &Type::Seat));
                g.emit(Op::Deal {
                    counts,
                    from,
                    to,
                    start,
                    loc,
                });
            }
            StmtKind::Gather(z) => {
                let z = self.expr_of(sc, z, &Type::Zone);
                g.emit(Op::Gather(z, loc));
            }
            StmtKind::Choose(ch) => {
                let (kind, who, seat_name) = match &ch.who {
                    Chooser::Seat(e) => (DecideKind::One, self.expr_of(sc, e, &Type::Seat), None),
                    Chooser::Each(x, e) => (
                        DecideKind::Each,
                        self.expr_of(sc, e, &Type::List(Box::new(Type::Seat))),
                        Some(x),
                    ),
                };
                self.decide(sc, g, kind, who, seat_name, &ch.options, loc);
            }
            StmtKind::Claim(cl) => {
                let who = self.expr_of(sc, &cl.seats, &Type::List(Box::new(Type::Seat)));
                self.decide(
                    sc,
                    g,
                    DecideKind::Claim,
                    who,
                    Some(&cl.seat),
                    &cl.options,
                    loc,
                );
            }
            StmtKind::Pay(p) => {
                let saved = self.open_calls(sc);
                let mut amount = self.expr_of(sc, &p.amount, &Type::Int);
                self.close_calls(sc, g, saved, &mut [&mut amount]);
                let Some((to, tt)) = self.target(sc, &p.to) else {
                    return;
                };
                self.expect_type(sc, p.to.span, &tt, &Type::Int);
                let from = match &p.from {
                    Payer::One(lv) => {
                        let Some((t, ty)) = self.target(sc, lv) else {
                            return;
                        };
                        self.expect_type(sc, lv.span, &ty, &Type::Int);
                        PayFrom::One(t)
                    }
                    Payer::Each(seats) => {
                        let seats = self.expr_of(sc, seats, &Type::List(Box::new(Type::Seat)));
                        match &to {
                            Target::SeatVar(v, _) => PayFrom::Each(*v, seats),
                            _ => {
                                self.error(
                                    Diagnostic::error("fuda::pay-each", "`pay … from each …` needs a per-seat payee such as `chips[w]`", self.loc(sc, p.to.span), "not per seat")
                                        .with_help("the payers pay from the same per-seat variable; otherwise write a `for` loop"),
                                );
                                return;
                            }
                        }
                    }
                };
                g.emit(Op::Pay {
                    amount,
                    from,
                    to,
                    loc,
                });
            }
            StmtKind::Outcome(e) => {
                if self.unknown_symbol(sc, e, None) {
                    return;
                }
                let saved = self.open_calls(sc);
                let (mut x, t) = self.expr(sc, e);
                self.close_calls(sc, g, saved, &mut [&mut x]);
                if let Expr::Const(Value::Sym(s)) = &x {
                    self.note_outcome(*s);
                } else if let Type::Sym(crate::value::SymDomain::Enum(e)) = &t {
                    // Each enum's values are noted once, however many outcomes read it.
                    if self.outcome_enums.insert(*e) {
                        for (s, _) in self.program.enums[*e as usize].values.clone() {
                            self.note_outcome(s);
                        }
                    }
                } else if !matches!(t, Type::Sym(_) | Type::Str | Type::Error) {
                    self.expect_type(sc, e.span, &t, &Type::Str);
                }
                g.emit(Op::Outcome(x));
            }
            StmtKind::Record(r, seat) => {
                let saved = self.open_calls(sc);
                let mut r = self.expr_of(sc, r, &Type::Score);
                let mut s = self.expr_of(sc, seat, &Type::Seat);
                self.close_calls(sc, g, saved, &mut [&mut r, &mut s]);
                g.emit(Op::Record(r, s));
            }
            StmtKind::DealerByDraw(ext, attr, then) => {
                // Every key is checked, so each unknown attribute is reported.
                let keys: Vec<Option<(bool, u16)>> = std::iter::once((ext, attr))
                    .chain(then.iter().map(|(e, a)| (e, a)))
                    .map(|(e, a)| self.draw_key(sc, *e, a))
                    .collect();
                if let Some(keys) = keys.into_iter().collect::<Option<Vec<_>>>() {
                    g.emit(Op::DealerByDraw { keys: keys.into() });
                }
            }
            StmtKind::SetDealer(e) => {
                let saved = self.open_calls(sc);
                let mut x = self.expr_of(sc, e, &Type::Seat);
                self.close_calls(sc, g, saved, &mut [&mut x]);
                g.emit(Op::Assign(Target::Dealer, ast::AssignOp::Set, x, loc));
            }
            StmtKind::Reveal(z) => {
                // A zone is revealed whole; a card or cards are shown where they lie.
                let (x, t) = self.expr(sc, z);
                if matches!(t, Type::Card | Type::Cards) {
                    g.emit(Op::Show(x));
                } else {
                    self.expect_type_at(sc, z.span, Some(z), &t, &Type::Zone);
                    g.emit(Op::Reveal(x));
                }
            }
            StmtKind::Say(e) => {
                let saved = self.open_calls(sc);
                let (mut x, _) = self.expr(sc, e);
                self.close_calls(sc, g, saved, &mut [&mut x]);
                g.emit(Op::Say(x));
            }
            StmtKind::Expect(e) => {
                if !g.in_test {
                    self.error(
                        Diagnostic::error(
                            "fuda::expect-outside-test",
                            "`expect` belongs in a `test` block",
                            loc,
                            "not in a test",
                        )
                        .with_help("in a procedure, use `if` to handle the case; checks go in `test \"…\" { … }`"),
                    );
                }
                let saved = self.open_calls(sc);
                let mut x = self.expr_of(sc, e, &Type::Bool);
                self.close_calls(sc, g, saved, &mut [&mut x]);
                g.emit(Op::Expect(x, loc));
            }
            StmtKind::Require(e, message) => {
                let saved = self.open_calls(sc);
                let mut x = self.expr_of(sc, e, &Type::Bool);
                self.close_calls(sc, g, saved, &mut [&mut x]);
                g.emit(Op::Require(
                    x,
                    message.as_ref().map(|m| m.node.clone()),
                    loc,
                ));
            }
            StmtKind::Answer(name, arg) => {
                if !g.in_test {
                    self.error(
                        Diagnostic::error(
                            "fuda::answer-outside-test",
                            "`answer` belongs in a `test` block",
                            loc,
                            "here",
                        )
                        .with_help("in a game, players (or agents) make the decisions"),
                    );
                }
                let x = arg.as_ref().map(|a| self.expr(sc, a).0);
                g.emit(Op::Answer(name.node.clone(), x));
            }
            StmtKind::Tally(label, e, seat) => {
                let saved = self.open_calls(sc);
                let (mut x, _) = self.expr(sc, e);
                let mut s = seat.as_ref().map(|s| self.expr_of(sc, s, &Type::Seat));
                match &mut s {
                    Some(s) => self.close_calls(sc, g, saved, &mut [&mut x, s]),
                    None => self.close_calls(sc, g, saved, &mut [&mut x]),
                }
                g.emit(Op::Tally(label.node.clone(), x, s));
            }
            StmtKind::Call(f, args) => self.call_stmt(sc, g, f, args, loc),
        }
    }

    /// One key of `dealer by draw`: whether the lowest value wins, and the attribute,
    /// which may hold numbers or symbols (ordered as declared).
    fn draw_key(&mut self, sc: &Scope, e: ast::Extreme, attr: &ast::Ident) -> Option<(bool, u16)> {
        if let Some(a) = self.program.deck.attr_named(&attr.node) {
            return Some((e == ast::Extreme::Lowest, a));
        }
        if self.no_deck {
            return None;
        }
        let at = self.loc(sc, attr.span);
        self.unknown_attribute(&attr.node, at, "needs an attribute of the cards");
        None
    }

    /// A deal count known before the game starts (a number, or arithmetic over
    /// parameters' defaults) must not be negative: the engine would refuse it at run
    /// time, and a sum of counts like `deal 30, -30` would pass the deck arithmetic.
    fn check_deal_count(&mut self, sc: &Scope, n: &ast::Expr, x: &Expr) {
        if matches!(x, Expr::Local(_)) {
            return;
        }
        let Some(Value::Int(v)) = crate::engine::const_eval(&self.program, x) else {
            return;
        };
        if v < 0 {
            let loc = self.loc(sc, n.span);
            self.error(
                Diagnostic::error(
                    "fuda::out-of-range",
                    format!("a deal count cannot be negative, and this one is {v}"),
                    loc,
                    format!("deals {v} cards"),
                )
                .with_help("deal 0 cards or more; to take cards back, `gather` or `move` them"),
            );
        }
    }

    fn end_loop(&mut self, g: &mut Gen) {
        let (_, breaks) = g.loops.pop().expect("loop pushed");
        let h = g.here();
        for b in breaks {
            g.patch(b, h);
        }
    }
}
