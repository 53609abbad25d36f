//! Declarations: enums, parameters, seats, zones, variables, named card sets, the
//! ledger, and the names and signatures of defs, patterns, scores and procs.

use fuda_grammar::ast::{self, Item};

use super::expr::Scope;
use super::limits::{MAX_CALL_PARAMS, MAX_ENUM_VALUES};
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
                c.anchor,
                "no `seats` declaration in this ruleset",
            )
            .with_help("add e.g. `seats 3 { 3: 親 胴二 ビキ }`: the number of seats, then the role names for that number"),
        ),
        [(f, s), rest @ ..] => {
            for (rf, r) in rest {
                c.error(
                    Diagnostic::error(
                        "fuda::duplicate-name",
                        "`seats` is declared twice",
                        Loc {
                            file: *rf,
                            span: keyword_span(r.span, "seats"),
                        },
                        "again here",
                    )
                    .with_label(
                        Loc {
                            file: *f,
                            span: keyword_span(s.span, "seats"),
                        },
                        "first here",
                    )
                    .with_help("keep one `seats`; a parameter can make the number vary: `seats players { … }`"),
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
        if let Item::Display(names, _) = item {
            display_decl(c, *file, names);
        }
        if let Item::Ledger(names, _) = item {
            for n in names {
                let loc = Loc {
                    file: *file,
                    span: n.span,
                };
                match c.globals.get(&n.node) {
                    Some((Global::Var(v), _)) if c.program.vars[*v as usize].ty == Type::Int => {
                        c.program.ledger.push(*v)
                    }
                    Some((g, _)) => {
                        let what = match g {
                            Global::Var(v) => format!(
                                "a {} variable",
                                c.describe(&c.program.vars[*v as usize].ty)
                            ),
                            other => other.describe().to_string(),
                        };
                        c.error(
                            Diagnostic::error("fuda::bad-ledger", format!("`{}` is {what}, not an int variable", n.node), loc, "not an int variable")
                                .with_help("a ledger lists the int variables whose sum never changes, e.g. `ledger chips, pot`"),
                        )
                    }
                    None => {
                        let ints: Vec<String> = c
                            .globals
                            .iter()
                            .filter(|(_, (g, _))| matches!(g, Global::Var(v) if c.program.vars[*v as usize].ty == Type::Int))
                            .map(|(k, _)| k.clone())
                            .collect();
                        let mut d = Diagnostic::error(
                            "fuda::bad-ledger",
                            format!("unknown variable `{}` in the ledger", n.node),
                            loc,
                            "not declared",
                        );
                        d = match super::closest_within(&mut c.suggest_budget, &n.node, ints.iter().map(|s| s.as_str())) {
                            Some(s) => d.with_help(format!("did you mean `{s}`?")),
                            None => d.with_help("a ledger lists the int variables whose sum never changes, e.g. `ledger chips, pot`"),
                        };
                        c.error(d)
                    }
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
                    c.defs.push((*file, std::rc::Rc::new(d.clone())));
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
                        counts: None,
                        frame: 0,
                        told_apart: crate::model::CardSet::first_n(crate::model::MAX_CARDS),
                        used: true,
                        alternatives: Vec::new(),
                        loc: Loc {
                            file: *file,
                            span: p.name.span,
                        },
                    });
                }
            }
            Item::Score(s) => {
                let ix = c.score_sigs.len() as u16;
                c.check_param_names(*file, &s.params);
                if c.declare(&s.name, *file, Global::Score(ix)) {
                    // Past the limit (reported) the rest are left out: parameters
                    // are numbered in 16 bits.
                    let sig = s.params[..s.params.len().min(MAX_CALL_PARAMS)]
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
                c.check_param_names(*file, &p.params);
                if c.declare(&p.name, *file, Global::Proc(ix)) {
                    let params = &p.params[..p.params.len().min(MAX_CALL_PARAMS)];
                    let sig = params.iter().map(|q| c.type_name(*file, &q.ty)).collect();
                    c.proc_sigs.push(sig);
                    c.proc_params
                        .push(params.iter().map(|q| q.name.node.clone()).collect());
                    let returns = p.returns.as_ref().map(|t| c.type_name(*file, t));
                    c.proc_returns.push(returns);
                    c.called.push(false);
                    c.program.procs.push(crate::ir::ProcDef {
                        name: p.name.node.clone(),
                        arity: params.len() as u16,
                        params: params.iter().map(|q| q.name.node.clone()).collect(),
                        frame: 0,
                        slots: Vec::new(),
                        code: Vec::new(),
                        locs: Vec::new(),
                        quick: Vec::new(),
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
    if let Some((past, _)) = e.values.get(MAX_ENUM_VALUES) {
        c.list_within(
            &format!("values of enum `{}`", e.name.node),
            e.values.len(),
            MAX_ENUM_VALUES,
            Loc {
                file,
                span: past.span,
            },
        );
    }
    let mut values = Vec::new();
    for (v, aliases) in e.values.iter().take(MAX_ENUM_VALUES) {
        let s = c.intern(&v.node);
        let mine = Type::Sym(SymDomain::Enum(ix));
        match c.sym_type.get(&s).cloned() {
            Some(other) if other != mine => {
                let owner = match &other {
                    Type::Sym(SymDomain::Enum(o)) => {
                        format!("enum `{}`", c.program.enums[*o as usize].name)
                    }
                    Type::Sym(SymDomain::Attr(a)) => format!(
                        "the card attribute `{}`",
                        c.program.deck.attrs[*a as usize].name
                    ),
                    _ => "something else".into(),
                };
                c.error(
                    Diagnostic::error(
                        "fuda::duplicate-name",
                        format!("`{}` is already a value of {owner}", v.node),
                        Loc { file, span: v.span },
                        "declared again here",
                    )
                    .with_help("a value belongs to one enum or attribute, so `x == A` is never ambiguous: rename one of them"),
                );
                continue;
            }
            Some(_) => {
                c.error(
                    Diagnostic::error(
                        "fuda::duplicate-name",
                        format!("`{}` is listed twice in enum `{}`", v.node, e.name.node),
                        Loc { file, span: v.span },
                        "again here",
                    )
                    .with_help("remove one of them"),
                );
                continue;
            }
            None => {
                c.sym_type.insert(s, mine);
            }
        }
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
    let before = c.reported;
    let e = c.expr_of(&mut sc, &p.default, &ty);
    let default = match crate::engine::const_eval_result(&c.program, &e) {
        Ok(v) => v,
        Err(_) if c.reported > before => Value::Unit,
        Err(why) => {
            let arithmetic =
                why.message.contains("overflow") || why.message.contains("division by zero");
            let (message, help) = if arithmetic {
                (
                    format!("this default cannot be computed: {}", why.message),
                    uncomputable_help(&why),
                )
            } else {
                (
                    "this default cannot be computed before the game starts".to_string(),
                    "write a constant such as `3` (an empty `max` also fails here)".to_string(),
                )
            };
            c.error(
                Diagnostic::error(
                    "fuda::not-constant",
                    message,
                    Loc {
                        file,
                        span: p.default.span,
                    },
                    "cannot be computed",
                )
                .with_help(help),
            );
            Value::Unit
        }
    };
    let range = p.range.as_ref().map(|r| r.node);
    if let (Some((lo, hi)), Some(r)) = (range, &p.range) {
        if lo > hi {
            c.error(
                Diagnostic::error(
                    "fuda::out-of-range",
                    format!("the range {lo}..{hi} is empty: its low end is above its high end"),
                    Loc { file, span: r.span },
                    "empty range",
                )
                .with_help(format!(
                    "write the low end first: `{hi}..{lo}` (both ends are allowed values)"
                )),
            );
        }
    }
    if let (Some((lo, hi)), Value::Int(v)) = (range, &default) {
        if lo <= hi && (*v < lo || *v > hi) {
            c.error(
                Diagnostic::error(
                    "fuda::out-of-range",
                    format!("the default {v} is outside the range {lo}..{hi}"),
                    Loc {
                        file,
                        span: p.default.span,
                    },
                    format!("outside {lo}..{hi}"),
                )
                .with_label(
                    Loc {
                        file,
                        span: p.range.as_ref().map(|r| r.span).unwrap_or(p.span),
                    },
                    "the range",
                )
                .with_help("change the default or widen the range"),
            );
        }
    }
    if c.declare(&p.name, file, Global::Param(ix)) {
        c.program.params.push(ParamDef {
            name: p.name.node.clone(),
            ty,
            default,
            default_expr: (!matches!(e, Expr::Const(_))).then_some(e),
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
    let before = c.reported;
    let count = c.expr_of(&mut sc, &s.count, &Type::Int);
    let had_errors = c.reported > before;
    // The seat counts this ruleset allows: every value of the parameters it depends on.
    let counts = crate::engine::seat_counts(&c.program, &count);
    let count_loc = Loc {
        file,
        span: s.count.span,
    };
    if counts.is_empty() && !had_errors {
        c.error(
            Diagnostic::error(
                "fuda::bad-seats",
                "the seat count must be a number or a parameter",
                count_loc,
                "cannot be computed",
            )
            .with_help("write a number (`seats 3 { … }`) or an int parameter with a range (`seats players { … }`)"),
        );
    }
    // Every seat count a game may be played with must be known here, so that each is
    // checked for its role row and its deals: a parameter needs a range (`--set` is
    // held to it), and any other count must not read parameters at all.
    let mut reads_param = false;
    visit_expr(&count, &mut |e| reads_param |= matches!(e, Expr::Param(_)));
    match &count {
        Expr::Param(i) if c.program.params[*i as usize].range.is_none() => {
            let p = &c.program.params[*i as usize];
            let default = p.default.int().clamp(1, 16);
            // Suggest the counts the role rows are written for, else the default alone.
            let rows = s.roles.iter().map(|(n, _)| n.node.clamp(1, 16));
            let lo = rows.clone().min().unwrap_or(default).min(default);
            let hi = rows.max().unwrap_or(default).max(default);
            c.error(
                Diagnostic::error(
                    "fuda::bad-seats",
                    format!(
                        "the seat count `{}` has no range, so a game could be set to any number of seats",
                        p.name
                    ),
                    count_loc,
                    "a parameter without a range",
                )
                .with_label(p.loc, "declared here")
                .with_help(format!(
                    "give it the seat counts the rules are written for, with a role row for each: `param {}: int = {} in {lo}..{hi}`",
                    p.name,
                    p.default.int(),
                )),
            );
        }
        Expr::Param(_) => {}
        _ if reads_param && !had_errors => c.error(
            Diagnostic::error(
                "fuda::bad-seats",
                "the seat count must be a number or a parameter",
                count_loc,
                "computed from parameters",
            )
            .with_help("write a number (`seats 3 { … }`) or an int parameter with a range (`seats players { … }`)"),
        ),
        _ => {}
    }
    let bad: Vec<usize> = counts
        .iter()
        .copied()
        .filter(|n| !(1..=crate::ir::MOST_SEATS).contains(n))
        .collect();
    if !bad.is_empty() {
        let list: Vec<String> = bad.iter().map(|n| n.to_string()).collect();
        c.error(
            Diagnostic::error(
                "fuda::bad-seats",
                format!(
                    "a game has 1 to {} seats, not {}",
                    crate::ir::MOST_SEATS,
                    list.join(", ")
                ),
                count_loc,
                "out of range",
            )
            .with_help(
                "if this is a parameter, narrow its range: `param players: int = 3 in 2..4`",
            ),
        );
    }
    let mut roles = Vec::new();
    let mut rows: std::collections::BTreeMap<i64, fuda_grammar::Span> = Default::default();
    for (n, names) in &s.roles {
        if names.len() as i64 != n.node {
            let end = names.last().map(|l| l.span.end).unwrap_or(n.span.end);
            c.error(
                Diagnostic::error(
                    "fuda::bad-roles",
                    format!(
                        "{} seats need {} role names, found {}",
                        n.node,
                        n.node,
                        names.len()
                    ),
                    Loc {
                        file,
                        span: fuda_grammar::Span::new(n.span.start as usize, end as usize),
                    },
                    format!("{} names", names.len()),
                )
                .with_help("list one role name per seat, from the dealer on"),
            );
        }
        if let Some(first) = rows.get(&n.node) {
            c.error(
                Diagnostic::error(
                    "fuda::bad-roles",
                    format!("two rows for {} seats", n.node),
                    Loc { file, span: n.span },
                    "again here",
                )
                .with_label(Loc { file, span: *first }, "first here"),
            );
        } else {
            rows.insert(n.node, n.span);
        }
        roles.push((
            n.node.max(0) as usize,
            names.iter().map(|i| i.node.clone()).collect(),
        ));
    }
    for n in &counts {
        if (1..=16).contains(n) && !roles.is_empty() && !roles.iter().any(|(k, _)| k == n) {
            let mut d = Diagnostic::error(
                "fuda::bad-roles",
                format!("no role names for {n} seats"),
                count_loc,
                format!("can be {n}"),
            )
            .with_help(format!("add a row `{n}: …` with {n} names"));
            // The count is a parameter whose range allows it: that range may be a
            // variant's (`param players: int = 5 in 2..5` over a base with rows for 2
            // to 4), far from the rows; point at it too, and offer to narrow it.
            if let Expr::Param(i) = &count {
                let p = &c.program.params[*i as usize];
                d = d.with_label(p.loc, format!("`{}` allows {n} seats here", p.name));
                let rows: Vec<usize> = counts
                    .iter()
                    .copied()
                    .filter(|m| roles.iter().any(|(k, _)| k == m))
                    .collect();
                if let (Some(&lo), Some(&hi)) = (rows.iter().min(), rows.iter().max()) {
                    if !(lo..=hi).contains(n) {
                        let default = p.default.int().clamp(lo as i64, hi as i64);
                        d = d.with_help(format!(
                            "narrow the range to the rows there are (`param {}: int = {default} in {lo}..{hi}`), or add a row `{n}: …` with {n} names",
                            p.name
                        ));
                    }
                }
            }
            c.error(d);
        }
    }
    // A parameter without a range can be set to anything, so every row may be used.
    let open_ended =
        matches!(&count, Expr::Param(i) if c.program.params[*i as usize].range.is_none());
    if let Some(first) = s.roles.iter().find(|(n, _)| {
        !open_ended && !counts.is_empty() && !counts.contains(&(n.node.max(0) as usize))
    }) {
        c.error(
            Diagnostic::error(
                "fuda::bad-roles",
                format!(
                    "a row for {} seats, but the seat count is never {}",
                    first.0.node, first.0.node
                ),
                Loc {
                    file,
                    span: first.0.span,
                },
                "never used",
            )
            .with_label(count_loc, "the seat count")
            .warning(),
        );
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
    if (v.per_card || v.per_key.is_some()) && matches!(ty, Type::List(_)) {
        c.error(
            Diagnostic::error(
                "fuda::bad-type",
                format!("`{}` cannot hold a list per card or per key", v.name.node),
                Loc {
                    file,
                    span: v.ty.span,
                },
                "a list per card",
            )
            .with_help(
                "keep one value per card (`var NAME: seat per card = 0`), or a list per seat",
            ),
        );
        return;
    }
    let mut sc = Scope::pure(file, "a variable's initial value");
    let before = c.reported;
    let init = c.expr_of(&mut sc, &v.init, &ty);
    // `per card`: a list with the initial value for each card of the deck.
    // `per ENUM`: the enum and how many values it has.
    let per_key = match &v.per_key {
        Some(k) => match c.globals.get(&k.node).cloned() {
            Some((Global::Enum(e), _)) => Some((e, c.program.enums[e as usize].values.len())),
            _ => {
                let enums: Vec<String> = c.program.enums.iter().map(|e| e.name.clone()).collect();
                let mut d = Diagnostic::error(
                    "fuda::unknown-type",
                    format!("`per {}` needs an enum; `{}` is not one", k.node, k.node),
                    Loc { file, span: k.span },
                    "not an enum",
                );
                d = match super::closest_within(
                    &mut c.suggest_budget,
                    &k.node,
                    enums.iter().map(|s| s.as_str()),
                ) {
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
                    None => d.with_help(
                        "declare the keys as an enum (`enum 構成: 副底点 | 刻子点`), or keep one value per seat or per card",
                    ),
                };
                c.error(d);
                return;
            }
        },
        None => None,
    };
    let (ty, init) = if v.per_card || per_key.is_some() {
        let n = per_key.map_or(c.program.deck.len(), |(_, n)| n);
        (
            Type::List(Box::new(ty)),
            crate::ir::Expr::List(vec![init; n]),
        )
    } else {
        (ty, init)
    };
    let loc = Loc {
        file,
        span: v.init.span,
    };
    // The value depends on parameters and the seat count only, so a game with the
    // defaults would fail as it starts: say so now, at the variable.
    let defaults_known = c
        .program
        .params
        .iter()
        .all(|p| !matches!(p.default, Value::Unit));
    if c.reported == before && defaults_known {
        let results: Vec<_> = c
            .seat_counts
            .clone()
            .into_iter()
            .map(|n| {
                let r = c.at_seats(n, |p| super::constants::eval_at(p, &init, n, loc));
                // Parameters that cannot be computed are reported at their own
                // declarations.
                (n, r.unwrap_or(Ok(Value::Unit)))
            })
            .collect();
        let some_ok = results.iter().any(|(_, r)| r.is_ok());
        if let Some((n, Err(e))) = results.into_iter().find(|(_, r)| r.is_err()) {
            // Name the seat count only when the value depends on it.
            let seats = if some_ok {
                format!(" with {n} seats")
            } else {
                String::new()
            };
            c.error(
                Diagnostic::error(
                    "fuda::not-constant",
                    format!(
                        "this initial value cannot be computed{seats}: {}",
                        e.message
                    ),
                    loc,
                    "fails when the game starts",
                )
                .with_help(uncomputable_help(&e)),
            );
        }
    }
    if c.declare(&v.name, file, Global::Var(ix)) {
        c.program.vars.push(VarDef {
            name: v.name.node.clone(),
            ty,
            per_seat: v.per_seat,
            per_card: v.per_card,
            per_key: per_key.map(|(e, _)| e),
            init,
            loc,
        });
    }
}

/// What to do about a constant that cannot be computed, by why it fails.
fn uncomputable_help(e: &crate::engine::RuntimeError) -> String {
    if e.message.contains("overflow") {
        format!(
            "an int holds {} to {}: keep the arithmetic within that range",
            i64::MIN,
            i64::MAX
        )
    } else if e.message.contains("division by zero") {
        "divide by a number other than 0".to_string()
    } else {
        e.help
            .clone()
            .unwrap_or_else(|| "write a constant such as `3`".to_string())
    }
}

fn cards_decl(c: &mut Compiler, file: u16, d: &ast::CardsDecl) {
    let mut sc = Scope::pure(file, "a named card set");
    let before = c.reported;
    let e = c.expr_of(&mut sc, &d.value, &Type::Cards);
    let set = match crate::engine::const_eval(&c.program, &e) {
        Some(Value::Cards(s)) => s,
        Some(Value::Card(x)) => CardSet::single(x),
        _ if c.reported > before => CardSet::EMPTY,
        _ => {
            c.error(
                Diagnostic::error(
                    "fuda::not-constant",
                    "this card set cannot be computed before the game starts",
                    Loc {
                        file,
                        span: d.value.span,
                    },
                    "cannot be computed",
                )
                .with_help("name the cards (`cards(1-crane 3-curtain)`) or filter the deck"),
            );
            CardSet::EMPTY
        }
    };
    c.declare(&d.name, file, Global::CardSet(set));
}

/// Calls `f` on `e` and every expression inside it.
fn visit_expr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    e.children(|x| visit_expr(x, f));
}

/// The span of the keyword an item starts with.
fn keyword_span(item: fuda_grammar::Span, word: &str) -> fuda_grammar::Span {
    let start = item.start as usize;
    fuda_grammar::Span::new(start, (start + word.len()).min(item.end as usize))
}

/// `display a, b`: the variables `fuda play` shows, each of any type, once each.
fn display_decl(c: &mut Compiler, file: u16, names: &[ast::Ident]) {
    for n in names {
        let loc = Loc { file, span: n.span };
        match c.globals.get(&n.node) {
            Some((Global::Var(v), _)) => {
                let v = *v;
                if !c.program.display.contains(&v) {
                    c.program.display.push(v);
                }
            }
            Some((g, _)) => {
                let what = g.describe().to_string();
                c.error(
                    Diagnostic::error(
                        "fuda::bad-display",
                        format!("`{}` is {what}, not a variable", n.node),
                        loc,
                        "not a variable",
                    )
                    .with_help("`display` lists variables for `fuda play` to show, e.g. `display 場, 強さ`"),
                )
            }
            None => {
                let vars: Vec<String> = c
                    .globals
                    .iter()
                    .filter(|(_, (g, _))| matches!(g, Global::Var(_)))
                    .map(|(k, _)| k.clone())
                    .collect();
                let mut d = Diagnostic::error(
                    "fuda::bad-display",
                    format!("unknown variable `{}` in `display`", n.node),
                    loc,
                    "not declared",
                );
                d = match super::closest_within(
                    &mut c.suggest_budget,
                    &n.node,
                    vars.iter().map(|s| s.as_str()),
                ) {
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
                    None => d.with_help("`display` lists variables for `fuda play` to show, e.g. `display 場, 強さ`"),
                };
                c.error(d)
            }
        }
    }
}
