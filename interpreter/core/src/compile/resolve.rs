//! Resolving names in expressions: locals, groups, variables, zones, symbols, with
//! "did you mean" and the reasons a name is not available where it is used.

use fuda_grammar::ast::{self};
use fuda_grammar::Span;

use super::expr::Scope;
use super::names::{Global, BINDERS, BUILTINS};
use super::Compiler;
use crate::diagnostic::Diagnostic;
use crate::ir::Expr;
use crate::value::{SymDomain, Type, Value};

impl Compiler {
    pub(crate) fn card_error(
        &mut self,
        sc: &Scope,
        err: crate::model::CardParseError,
        ids: Vec<(&str, Span)>,
        whole: Span,
    ) {
        use crate::model::CardParseError;
        match err {
            CardParseError::Unknown(w) => {
                let span = ids
                    .iter()
                    .find(|(i, _)| *i == w)
                    .map(|(_, s)| *s)
                    .unwrap_or(whole);
                let mut d = Diagnostic::error(
                    "fuda::unknown-card",
                    format!("no card `{w}` in deck `{}`", self.program.deck.name),
                    self.loc(sc, span),
                    "unknown card id",
                );
                if self.program.deck.is_empty() {
                    // No deck is reported once, on its own.
                    return;
                }
                if let Some(s) = self.program.deck.suggest(&w) {
                    d = d.with_help(format!("did you mean `{s}`?"));
                }
                self.error(d);
            }
            CardParseError::TooMany(w, id) => {
                let span = ids
                    .iter()
                    .rev()
                    .find(|(i, _)| *i == w)
                    .map(|(_, s)| *s)
                    .unwrap_or(whole);
                let copies = match self.program.deck.copies_of(&id) {
                    n if n > 1 => format!(" ({n} copies)"),
                    _ => String::new(),
                };
                let message = if w == id {
                    format!("`{id}` is named more times than the deck has copies of it{copies}")
                } else {
                    format!("`{w}` names `{id}` more times than the deck has copies of it{copies}")
                };
                self.error(
                    Diagnostic::error(
                        "fuda::card-twice",
                        message,
                        self.loc(sc, span),
                        "one too many",
                    )
                    .with_help("a set holds each physical card at most once"),
                );
            }
        }
    }

    pub(crate) fn state_only(&mut self, sc: &Scope, what: &str, name: &str, span: Span) {
        if !sc.stateful {
            let message = match what {
                "the dealer" => format!("{} cannot read `dealer`", sc.context),
                "the seats with" => {
                    format!("{} cannot call `{name}`: it reads the seats", sc.context)
                }
                _ => format!("{} cannot read {what} `{name}`", sc.context),
            };
            let d = Diagnostic::error(
                "fuda::state-in-pure",
                message,
                self.loc(sc, span),
                "game state",
            )
            .with_help(pure_help(sc.context));
            self.error(d);
        }
    }

    pub(crate) fn name(&mut self, sc: &mut Scope, n: &str, span: Span) -> (Expr, Type) {
        if let Some((slot, t)) = sc.local(n) {
            return (Expr::Local(slot), t);
        }
        if let Some((_, first, count)) = sc.groups.iter().find(|(g, ..)| g == n).cloned() {
            if count == 1 {
                return (Expr::Group(first), Type::Cards);
            }
            let list = (first..first + count).map(Expr::Group).collect();
            return (Expr::List(list), Type::List(Box::new(Type::Cards)));
        }
        if sc.shapes.iter().any(|s| s == n) {
            return (Expr::Const(Value::Str(n.into())), Type::Str);
        }
        if let Some((yaku, factor, base)) = sc.score {
            if n == "yaku" {
                return (Expr::Local(yaku), Type::Sym(SymDomain::Yaku));
            }
            if n == "factor" {
                return (Expr::Local(factor), Type::Int);
            }
            if n == "base" {
                return (Expr::Local(base), Type::Int);
            }
        }
        if n == "dealer" {
            self.state_only(sc, "the dealer", n, span);
            return (Expr::Dealer, Type::Seat);
        }
        if n == "deck" {
            return (Expr::Cards(self.program.deck.all()), Type::Cards);
        }
        // In a def, table or pattern, which cannot read the game's state, a variable or
        // zone named like an attribute's value leaves the name to the value.
        let state_hidden =
            |g: &Global| !sc.stateful && matches!(g, Global::Var(_) | Global::Zone(_));
        let global = self
            .globals
            .get(n)
            .filter(|(g, _)| !(state_hidden(g) && self.sym_index.contains_key(n)))
            .cloned();
        if let Some((g, _)) = global {
            match g {
                Global::Param(i) => {
                    return (Expr::Param(i), self.program.params[i as usize].ty.clone())
                }
                Global::Var(i) => {
                    self.state_only(sc, "variable", n, span);
                    let v = &self.program.vars[i as usize];
                    if v.per_seat {
                        self.error(
                            Diagnostic::error(
                                "fuda::needs-seat",
                                format!("`{n}` is one per seat: say whose"),
                                self.loc(sc, span),
                                "per-seat variable",
                            )
                            .with_help(format!("write e.g. `{n}[dealer]` or `{n}[s]`")),
                        );
                        return (Expr::Const(Value::Unit), Type::Error);
                    }
                    return (Expr::Var(i), v.ty.clone());
                }
                Global::Zone(i) => {
                    self.state_only(sc, "zone", n, span);
                    return if self.program.zones[i as usize].owner == ast::Owner::PerSeat {
                        (Expr::ZoneFamily(i), Type::ZoneFamily)
                    } else {
                        (Expr::Zone(i), Type::Zone)
                    };
                }
                Global::CardSet(s) => return (Expr::Cards(s), Type::Cards),
                // A procedure or table may share its name with a symbol (`proc 流れ` and
                // the outcome `流れ`): as a value, the name means the symbol.
                _ if self.sym_index.contains_key(n) => {}
                other => {
                    self.error(
                        Diagnostic::error(
                            "fuda::not-a-value",
                            format!("`{n}` is {}, not a value", other.describe()),
                            self.loc(sc, span),
                            "used as a value",
                        )
                        .with_help(match other {
                            Global::Score(_) | Global::Def(_) | Global::Pattern(_) => {
                                format!("call it: `{n}(…)`")
                            }
                            Global::Proc(_) => format!("call it as a statement: `{n}(…)`"),
                            Global::Words(_) => {
                                format!("test cards against it: `word({n}, cards, attribute)`")
                            }
                            Global::Enum(e) => match self.sym_values(&SymDomain::Enum(e)) {
                                Some(v) => format!("use one of its values: {v}"),
                                None => "use one of its values instead".into(),
                            },
                            _ => "name its cards with `cards(…)`, or read them from a zone".into(),
                        }),
                    );
                    return (Expr::Const(Value::Unit), Type::Error);
                }
            }
        }
        if let Some(s) = self.sym_index.get(n).copied() {
            let t = self
                .sym_type
                .get(&s)
                .cloned()
                .unwrap_or(Type::Sym(SymDomain::Yaku));
            return (Expr::Const(Value::Sym(s)), t);
        }
        self.unknown_name(sc, n, span, "name");
        (Expr::Const(Value::Unit), Type::Error)
    }

    /// Reports `name` as no attribute of the cards, with the closest one or the list.
    pub(crate) fn unknown_attribute(&mut self, name: &str, at: crate::ir::Loc, label: &str) {
        let names: Vec<String> = self
            .program
            .deck
            .attrs
            .iter()
            .map(|a| a.name.clone())
            .collect();
        let mut d = Diagnostic::error(
            "fuda::unknown-attribute",
            format!("cards have no attribute `{name}`"),
            at,
            label,
        );
        d = match super::closest_within(
            &mut self.suggest_budget,
            name,
            names.iter().map(|s| s.as_str()),
        ) {
            Some(s) => d.with_help(format!("did you mean `{s}`?")),
            None => d.with_help(format!("the deck's attributes: {}", names.join(", "))),
        };
        self.error(d);
    }

    /// Reports an unknown name with the closest known one.
    /// `what` says what was expected: "name" (any value), "variable", "procedure",
    /// "function", "pattern", "parameter" or "value" (an enum value); the "did you
    /// mean" looks among names of that kind only.
    pub fn unknown_name(&mut self, sc: &Scope, n: &str, span: Span, what: &str) {
        self.unknown_name_among(sc, n, span, what, &[], None);
    }

    /// [`Compiler::unknown_name`], trying the `preferred` names first for the "did you
    /// mean": those of the kind the place expects (an outcome's enum values), so a
    /// near name of another kind does not win over them. `expected`, when known, is the
    /// type a value was wanted of: the help then names its enum, never a made-up one.
    pub fn unknown_name_among(
        &mut self,
        sc: &Scope,
        n: &str,
        span: Span,
        what: &str,
        preferred: &[String],
        expected: Option<&Type>,
    ) {
        if sc.quiet_unknown || self.duplicated.contains(n) {
            return;
        }
        // Without a deck, every attribute value (`光`, `短`) is unknown: the missing deck
        // is reported instead.
        if self.no_deck && matches!(what, "name" | "value") {
            return;
        }
        let loc = self.loc(sc, span);
        if let Some((g, _)) = self.globals.get(n) {
            // Declared, but as something else.
            let d = Diagnostic::error(
                "fuda::unknown-name",
                format!("`{n}` is {}, not a {what}", g.describe()),
                loc,
                format!("not a {what}"),
            );
            self.error(d);
            return;
        }
        if let Some((kind, at)) = self.all_decls.get(n).cloned() {
            // Declared, but not yet when this was compiled: a variable in a parameter's
            // default, a parameter used above its declaration, a def in a variable's
            // initial value.
            let kind_word = kind.trim_start_matches("an ").trim_start_matches("a ");
            let d = if matches!(kind, "a variable" | "a zone") && !sc.stateful {
                Diagnostic::error(
                    "fuda::state-in-pure",
                    format!("{} cannot read {kind_word} `{n}`", sc.context),
                    loc,
                    "game state",
                )
                .with_help(pure_help(sc.context))
            } else if decl_phase(kind) > context_phase(sc.context) {
                Diagnostic::error(
                    "fuda::declared-later",
                    format!("{} cannot use {kind_word} `{n}`", sc.context),
                    loc,
                    "not available here",
                )
                .with_label(at, "declared here")
                .with_help(format!(
                    "{} is computed before any {kind_word} exists: {}",
                    sc.context,
                    available_in(sc.context)
                ))
            } else {
                Diagnostic::error(
                    "fuda::declared-later",
                    format!("{kind_word} `{n}` is used before its declaration"),
                    loc,
                    "used here",
                )
                .with_label(at, "declared here")
                .with_help(format!("move the declaration of `{n}` above this line"))
            };
            self.error(d);
            return;
        }
        // The candidates for "did you mean" are every name of the kind: their search is
        // paid for from the check's budget, and skipped once it runs out.
        let pool = self.globals.len()
            + sc.locals.len()
            + sc.groups.len()
            + match what {
                "value" | "name" => self.sym_index.len(),
                _ => 0,
            };
        let searched = self.charge_suggestion(pool);
        let mut candidates: Vec<String> = Vec::new();
        let globals = |f: &dyn Fn(&Global) -> bool| -> Vec<String> {
            self.globals
                .iter()
                .filter(|(_, (g, _))| f(g))
                .map(|(k, _)| k.clone())
                .collect()
        };
        match what {
            _ if !searched => {}
            "variable" => {
                candidates.extend(sc.local_names().map(String::from));
                candidates.extend(globals(&|g| matches!(g, Global::Var(_))));
            }
            "procedure" => candidates.extend(globals(&|g| matches!(g, Global::Proc(_)))),
            "pattern" => candidates.extend(globals(&|g| matches!(g, Global::Pattern(_)))),
            "zone" => candidates.extend(globals(&|g| matches!(g, Global::Zone(_)))),
            "parameter" => candidates.extend(globals(&|g| matches!(g, Global::Param(_)))),
            "value" => candidates.extend(self.sym_index.keys().cloned()),
            "function" => {
                candidates.extend(globals(&|g| {
                    matches!(g, Global::Def(_) | Global::Score(_) | Global::Pattern(_))
                }));
                candidates.extend(BUILTINS.iter().map(|b| b.0.to_string()));
                candidates.extend(BINDERS.iter().map(|b| b.to_string()));
            }
            _ => {
                candidates.extend(sc.local_names().map(String::from));
                candidates.extend(sc.groups.iter().map(|g| g.0.clone()));
                candidates.extend(globals(&|g| {
                    matches!(
                        g,
                        Global::Param(_) | Global::Var(_) | Global::Zone(_) | Global::CardSet(_)
                    )
                }));
                candidates.extend(self.sym_index.keys().cloned());
                candidates.extend(["dealer".to_string()]);
            }
        }
        let mut d = Diagnostic::error(
            "fuda::unknown-name",
            format!("unknown {what} `{n}`"),
            loc,
            "not declared",
        );
        let in_expr = matches!(what, "value" | "name");
        let cards = match in_expr && searched {
            true => self.program.deck.cards_like(n, 4),
            false => Vec::new(),
        };
        if in_expr && self.program.deck.tag_named(n).is_some() {
            d = d.with_help(format!(
                "`{n}` is a tag of the deck's cards: test a card with `c is {n}`"
            ));
        } else if let [id] = cards[..] {
            d = d.with_help(format!(
                "`{n}` is the card `{id}`: write `card({id})` (a set: `cards({id} …)`)"
            ));
        } else if !cards.is_empty() {
            let shown: Vec<String> = cards.iter().take(3).map(|c| format!("`{c}`")).collect();
            let more = if cards.len() > 3 { ", …" } else { "" };
            d = d.with_help(format!(
                "several cards are called `{n}` ({}{more}): name one with `card(ID)`, or use a tag or attribute",
                shown.join(", ")
            ));
        } else if let Some(s) = crate::suggest::closest(n, preferred.iter().map(|s| s.as_str()))
            .or_else(|| crate::suggest::closest(n, candidates.iter().map(|s| s.as_str())))
            .filter(|_| searched)
        {
            d = d.with_help(crate::suggest::did_you_mean(n, &s));
        } else {
            // The declaration to write, with the name as used (a reader copied
            // `param NAME: int = 0` literally). Where a value of a known type was
            // expected, the help says what that type takes (the enum to add it to,
            // written out): a placeholder enum reads as one the ruleset has.
            let for_type = match what {
                "value" | "name" => expected.and_then(|t| self.missing_value_help(n, t)),
                _ => None,
            };
            let declare = match for_type {
                Some(h) => h,
                None => match what {
                    "procedure" => format!("declare it: `proc {n} {{ … }}`"),
                    "function" => format!("declare it: `def {n}(x: int) = …`, or call a builtin"),
                    "pattern" => format!("declare it: `pattern {n} {{ group … }}`"),
                    "zone" => format!("declare it: `zone {n} shared stack hidden`"),
                    "parameter" => format!("declare it: `param {n}: int = 0`"),
                    "value" => format!("no enum has the value `{n}`: add it to one (`… | {n}`)"),
                    _ => "declare it (`var`, `param`, `zone`, `let`…) before use".to_string(),
                },
            };
            // A test's `with` names a parameter: when none is near by spelling (`役バイ`
            // for `役倍`), the few there are are the likeliest help.
            d = d.with_help(match what {
                "parameter" if !candidates.is_empty() && candidates.len() <= 12 => format!(
                    "the ruleset's parameters: {}; or {declare}",
                    candidates.join(", ")
                ),
                _ => declare,
            });
        }
        self.error(d);
    }

    /// What a value nothing declares should be, where a value of type `want` is
    /// expected: for an enum, the enum with the name added to its values (as its
    /// declaration would read); for a card attribute, its values.
    fn missing_value_help(&self, n: &str, want: &Type) -> Option<String> {
        match want {
            Type::Sym(SymDomain::Enum(e)) => {
                let def = self.program.enums.get(*e as usize)?;
                let mut values: Vec<String> = def
                    .values
                    .iter()
                    .map(|(s, aliases)| {
                        let name = &self.program.symbols[*s as usize];
                        match aliases.is_empty() {
                            true => name.clone(),
                            false => format!("{name}({})", aliases.join(", ")),
                        }
                    })
                    .collect();
                if values.len() > 8 {
                    values.truncate(7);
                    values.push("…".into());
                }
                values.push(n.to_string());
                Some(format!(
                    "add it to enum `{0}`: `enum {0}: {1}`",
                    def.name,
                    values.join(" | ")
                ))
            }
            Type::Sym(d) => self
                .sym_values(d)
                .map(|v| format!("expected {}: one of {v}", self.describe(want))),
            Type::Bool => Some("expected bool: write `true` or `false`".into()),
            Type::Int => Some("expected int: write a number".into()),
            _ => None,
        }
    }
}

/// When a kind of declaration is read: enums, parameters, seats, zones, variables and
/// card sets, then everything callable.
pub(super) fn decl_phase(kind: &str) -> u8 {
    match kind {
        "a deck" => 0,
        "an enum" => 1,
        "a parameter" => 2,
        "a zone" => 4,
        "a variable" | "a card set" => 5,
        _ => 6,
    }
}

/// When an expression of a declaration is compiled, on the scale of [`decl_phase`].
pub(super) fn context_phase(context: &str) -> u8 {
    match context {
        "a parameter's default" => 2,
        "the seat count" => 3,
        "a variable's initial value" | "a named card set" => 5,
        _ => 6,
    }
}

/// What an early declaration's expression may use.
pub(super) fn available_in(context: &str) -> &'static str {
    match context {
        "a parameter's default" => "use constants and the parameters declared above it",
        "the seat count" => "use a number or a parameter",
        _ => "use constants, parameters and the card sets declared above it",
    }
}

/// What a scope without game state may use instead.
pub(super) fn pure_help(context: &str) -> &'static str {
    match context {
        "a def" | "a pattern" | "a score table" | "a default value" => {
            "patterns, score tables and defs see only their parameters: pass the value in as an argument"
        }
        _ => "this is fixed before the game starts: use constants and parameters only",
    }
}
