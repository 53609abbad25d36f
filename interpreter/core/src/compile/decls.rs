//! Declarations: enums, parameters, seats, zones, variables, named card sets, the
//! ledger, and the names and signatures of defs, patterns, scores and procs.

use fuda_grammar::ast::{self, Item};

use super::expr::Scope;
use super::{Compiler, Global};
use crate::diagnostic::Diagnostic;
use crate::ir::{EnumDef, Expr, Loc, ParamDef, VarDef, ZoneDef};
use crate::model::CardSet;
use crate::value::{SymDomain, Type, Value};

pub(super) fn declare_all(c: &mut Compiler, items: &[(u16, Item)]) {
    for (file, item) in items {
        if let Item::Enum(e) = item {
            enum_decl(c, *file, e);
        }
    }
    for (file, item) in items {
        if let Item::Param(p) = item {
            param_decl(c, *file, p);
        }
    }
    let seats: Vec<_> = items
        .iter()
        .filter_map(|(f, i)| {
            if let Item::Seats(s) = i {
                Some((*f, s))
            } else {
                None
            }
        })
        .collect();
    match seats.as_slice() {
        [] => c.error(
            Diagnostic::error(
                "fuda::no-seats",
                "the ruleset does not say how many seats there are",
                Loc::default(),
                "",
            )
            .with_help("add e.g. `seats 3 { 3: 親 胴二 ビキ }`"),
        ),
        [(f, s), rest @ ..] => {
            for (rf, r) in rest {
                c.error(
                    Diagnostic::error(
                        "fuda::duplicate-name",
                        "`seats` is declared twice",
                        Loc {
                            file: *rf,
                            span: r.span,
                        },
                        "again here",
                    )
                    .with_label(
                        Loc {
                            file: *f,
                            span: s.span,
                        },
                        "first here",
                    ),
                );
            }
            seats_decl(c, *f, s);
        }
    }
    for (file, item) in items {
        match item {
            Item::Zone(z) => zone_decl(c, *file, z),
            Item::Var(_) | Item::Cards(_) => {}
            _ => {}
        }
    }
    for (file, item) in items {
        match item {
            Item::Var(v) => var_decl(c, *file, v),
            Item::Cards(cd) => cards_decl(c, *file, cd),
            _ => {}
        }
    }
    for (file, item) in items {
        if let Item::Ledger(names, _) = item {
            for n in names {
                match c.globals.get(&n.node) {
                    Some((Global::Var(v), _)) if c.program.vars[*v as usize].ty == Type::Int => c.program.ledger.push(*v),
                    _ => c.error(
                        Diagnostic::error("fuda::bad-ledger", format!("`{}` is not an int variable", n.node), Loc { file: *file, span: n.span }, "ledger entries are int variables")
                            .with_help("a ledger lists the variables whose sum never changes, e.g. `ledger chips, pot`"),
                    ),
                }
            }
        }
    }
    // Names and signatures of everything callable, so bodies may refer to any of them.
    for (file, item) in items {
        match item {
            Item::Def(d) => {
                let ix = c.defs.len() as u16;
                if c.declare(&d.name, *file, Global::Def(ix)) {
                    c.defs.push((*file, d.clone()));
                }
            }
            Item::Pattern(p) => {
                let ix = c.program.patterns.len() as u16;
                if c.declare(&p.name, *file, Global::Pattern(ix)) {
                    c.program.patterns.push(crate::ir::PatternDef {
                        name: p.name.node.clone(),
                        slots: Vec::new(),
                        requires: Vec::new(),
                        size: 0,
                        prefilter: None,
                        frame: 0,
                        loc: Loc {
                            file: *file,
                            span: p.name.span,
                        },
                    });
                }
            }
            Item::Score(s) => {
                let ix = c.score_sigs.len() as u16;
                if c.declare(&s.name, *file, Global::Score(ix)) {
                    let sig = s
                        .params
                        .iter()
                        .map(|p| {
                            (
                                p.name.node.clone(),
                                c.type_name(*file, &p.ty),
                                p.default.clone(),
                                *file,
                            )
                        })
                        .collect();
                    c.score_sigs.push(sig);
                }
            }
            Item::Proc(p) => {
                let ix = c.proc_sigs.len() as u16;
                if c.declare(&p.name, *file, Global::Proc(ix)) {
                    let sig = p.params.iter().map(|q| c.type_name(*file, &q.ty)).collect();
                    c.proc_sigs.push(sig);
                    c.called.push(false);
                    c.program.procs.push(crate::ir::ProcDef {
                        name: p.name.node.clone(),
                        arity: p.params.len() as u16,
                        frame: 0,
                        code: Vec::new(),
                        locs: Vec::new(),
                        loc: Loc {
                            file: *file,
                            span: p.name.span,
                        },
                    });
                }
            }
            _ => {}
        }
    }
}

fn enum_decl(c: &mut Compiler, file: u16, e: &ast::EnumDecl) {
    let ix = c.program.enums.len() as u16;
    if !c.declare(&e.name, file, Global::Enum(ix)) {
        return;
    }
    let mut values = Vec::new();
    for (v, aliases) in &e.values {
        let s = c.intern(&v.node);
        c.sym_type
            .entry(s)
            .or_insert(Type::Sym(SymDomain::Enum(ix)));
        values.push((s, aliases.iter().map(|a| a.node.clone()).collect()));
    }
    c.program.enums.push(EnumDef {
        name: e.name.node.clone(),
        values,
    });
}

fn param_decl(c: &mut Compiler, file: u16, p: &ast::ParamDecl) {
    let ix = c.program.params.len() as u16;
    let ty = c.type_name(file, &p.ty);
    let mut sc = Scope::pure(file, "a parameter's default");
    let e = c.expr_of(&mut sc, &p.default, &ty);
    let default = match crate::engine::const_eval(&c.program, &e) {
        Some(v) => v,
        None => {
            c.error(Diagnostic::error(
                "fuda::not-constant",
                "a parameter's default must be a constant",
                Loc {
                    file,
                    span: p.default.span,
                },
                "not a constant",
            ));
            Value::Unit
        }
    };
    let range = p.range.as_ref().map(|r| r.node);
    if let (Some((lo, hi)), Value::Int(v)) = (range, &default) {
        if *v < lo || *v > hi {
            c.error(Diagnostic::error(
                "fuda::out-of-range",
                format!("default {v} is outside {lo}..{hi}"),
                Loc {
                    file,
                    span: p.default.span,
                },
                "out of range",
            ));
        }
    }
    if c.declare(&p.name, file, Global::Param(ix)) {
        c.program.params.push(ParamDef {
            name: p.name.node.clone(),
            ty,
            default,
            range,
            doc: p.doc.as_ref().map(|d| d.node.clone()).unwrap_or_default(),
            loc: Loc {
                file,
                span: p.name.span,
            },
        });
    }
}

fn seats_decl(c: &mut Compiler, file: u16, s: &ast::SeatsDecl) {
    let mut sc = Scope::pure(file, "the seat count");
    let count = c.expr_of(&mut sc, &s.count, &Type::Int);
    // The seat counts this ruleset allows: every value of the parameters it depends on.
    let counts = crate::engine::seat_counts(&c.program, &count);
    if counts.is_empty() {
        c.error(Diagnostic::error(
            "fuda::bad-seats",
            "the seat count must be a constant or a parameter",
            Loc {
                file,
                span: s.count.span,
            },
            "cannot evaluate",
        ));
    }
    for n in &counts {
        if !(1..=16).contains(n) {
            c.error(Diagnostic::error(
                "fuda::bad-seats",
                format!("{n} seats: a game has 1 to 16"),
                Loc {
                    file,
                    span: s.count.span,
                },
                "out of range",
            ));
        }
    }
    let mut roles = Vec::new();
    for (n, names) in &s.roles {
        if names.len() as i64 != n.node {
            c.error(
                Diagnostic::error(
                    "fuda::bad-roles",
                    format!(
                        "{} seats need {} role names, found {}",
                        n.node,
                        n.node,
                        names.len()
                    ),
                    Loc { file, span: n.span },
                    "this row",
                )
                .with_help("list one role name per seat, from the dealer on"),
            );
        }
        roles.push((
            n.node.max(0) as usize,
            names.iter().map(|i| i.node.clone()).collect(),
        ));
    }
    for n in &counts {
        if !roles.is_empty() && !roles.iter().any(|(k, _)| k == n) {
            c.error(
                Diagnostic::error(
                    "fuda::bad-roles",
                    format!("no role names for {n} seats"),
                    Loc { file, span: s.span },
                    "missing a row",
                )
                .with_help(format!("add a row `{n}: …` with {n} names")),
            );
        }
    }
    c.seat_counts = counts
        .into_iter()
        .filter(|n| (1..=16).contains(n))
        .collect();
    c.program.seats = crate::ir::SeatsDef { count, roles };
}

fn zone_decl(c: &mut Compiler, file: u16, z: &ast::ZoneDecl) {
    let ix = c.program.zones.len() as u16;
    if c.declare(&z.name, file, Global::Zone(ix)) {
        c.program.zones.push(ZoneDef {
            name: z.name.node.clone(),
            owner: z.owner,
            order: z.order,
            visibility: z.visibility,
        });
    }
}

fn var_decl(c: &mut Compiler, file: u16, v: &ast::VarDecl) {
    let ix = c.program.vars.len() as u16;
    let ty = c.type_name(file, &v.ty);
    let mut sc = Scope::pure(file, "a variable's initial value");
    let init = c.expr_of(&mut sc, &v.init, &ty);
    if c.declare(&v.name, file, Global::Var(ix)) {
        c.program.vars.push(VarDef {
            name: v.name.node.clone(),
            ty,
            per_seat: v.per_seat,
            init,
        });
    }
}

fn cards_decl(c: &mut Compiler, file: u16, d: &ast::CardsDecl) {
    let mut sc = Scope::pure(file, "a named card set");
    let e = c.expr_of(&mut sc, &d.value, &Type::Cards);
    let set = match crate::engine::const_eval(&c.program, &e) {
        Some(Value::Cards(s)) => s,
        Some(Value::Card(x)) => CardSet::single(x),
        _ => {
            c.error(Diagnostic::error(
                "fuda::not-constant",
                "a named card set must be a constant",
                Loc {
                    file,
                    span: d.value.span,
                },
                "not a constant",
            ));
            CardSet::EMPTY
        }
    };
    c.declare(&d.name, file, Global::CardSet(set));
    let _ = Expr::Cards(set);
}
