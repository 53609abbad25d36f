//! The checker and compiler: from merged syntax trees to a [`Program`], collecting
//! every problem as a [`Diagnostic`] instead of stopping at the first.

mod allowed;
mod alternatives;
mod arguments;
mod calls;
mod chains;
mod classes;
mod constants;
mod copies;
mod deck;
mod decls;
mod ends;
mod expr;
mod guards;
mod limits;
mod load;
mod names;
mod operators;
mod pattern;
mod quick_ops;
mod resolve;
mod score;
mod stmt;
mod types;
mod unused;
mod verify;
mod words;

use std::collections::{BTreeMap, BTreeSet};

use fuda_grammar::ast::{self, Item};

use crate::diagnostic::{Diagnostic, Severity};
use crate::ir::{Loc, Op, Program, Source};
use crate::loader::Loader;
use crate::model::{CardSet, Deck};
use crate::value::Type;
use unicode_normalization::UnicodeNormalization;

pub use names::Global;

/// A compiled program with its warnings.
#[derive(Debug)]
pub struct Compiled {
    /// The program.
    pub program: Program,
    /// Problems that do not stop it from running.
    pub warnings: Vec<Diagnostic>,
}

/// A ruleset that did not compile.
#[derive(Debug)]
pub struct Failed {
    /// The files read, for rendering.
    pub sources: Vec<Source>,
    /// Every problem kept (errors first): at most [`MAX_ERRORS`] errors.
    pub diagnostics: Vec<Diagnostic>,
    /// Errors found past [`MAX_ERRORS`]: counted, not kept, so that a report can say
    /// how many there were in all.
    pub unkept: usize,
}

impl Failed {
    /// Every error found, kept or not.
    pub fn errors(&self) -> usize {
        self.unkept + self.diagnostics.len() - self.warnings()
    }

    /// The warnings found (all are kept).
    pub fn warnings(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count()
    }
}

/// Checks and compiles a ruleset given as text; `loader` reads files it imports.
pub fn compile(name: &str, text: &str, loader: &dyn Loader) -> Result<Compiled, Failed> {
    let loaded = match load::load(name, text, loader) {
        Ok(l) => l,
        Err((sources, diagnostics)) => {
            return Err(Failed {
                sources,
                diagnostics,
                unkept: 0,
            })
        }
    };
    let mut c = Compiler::new(loaded.sources);
    c.stage_files = loaded.stage_files;
    c.data_files = loaded.data_files;
    c.base_test_calls = loaded.base_test_calls;
    c.replaced_tables = loaded.replaced_tables;
    c.diags.extend(loaded.warnings);
    c.run(&loaded.items);
    // A def is checked where it is declared and again wherever it is expanded: keep one
    // copy of each problem.
    let mut seen: Vec<Diagnostic> = Vec::new();
    let mut keys: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    for d in c.diags.drain(..) {
        // A key per diagnostic keeps this linear in the number of problems.
        if keys.insert(diagnostic_key(&d)) {
            seen.push(d);
        }
    }
    let (errors, warnings): (Vec<_>, Vec<_>) = seen
        .into_iter()
        .partition(|d| d.severity == Severity::Error);
    if errors.is_empty() {
        let mut program = c.program;
        let mut warnings = warnings;
        warnings.extend(unused::patterns(&mut program));
        classes::finish(&mut program);
        copies::mark(&mut program);
        // Which patterns a hand's counts decide (a mahjong hand's standard form).
        for i in 0..program.patterns.len() {
            let plan = crate::pattern::counts_plan(&program.deck, &program.patterns[i]);
            program.patterns[i].counts = plan.map(std::sync::Arc::new);
        }
        guards::compile_hand_guards(&mut program);
        quick_ops::compile_quick_ops(&mut program);
        Ok(Compiled { program, warnings })
    } else {
        let mut diagnostics = errors;
        diagnostics.extend(warnings);
        Err(Failed {
            sources: c.program.sources,
            diagnostics,
            unkept: c.errors_dropped,
        })
    }
}

/// The most errors one check reports: past them, a file of many mistakes would be
/// reported at a length (and a cost in memory and drawing) proportional to the file.
pub const MAX_ERRORS: usize = 1_000;

/// What makes two diagnostics the same problem (a def's is found again at each use).
fn diagnostic_key(d: &Diagnostic) -> String {
    format!(
        "{}\u{0}{}\u{0}{:?}\u{0}{:?}",
        d.code, d.message, d.labels, d.help
    )
}

/// A score table's parameter: name, type, default, and the file the default is in.
pub(crate) type ScoreParam = (String, Type, Option<ast::Expr>, u16);

/// The compiler's tables while it works.
pub(crate) struct Compiler {
    pub program: Program,
    pub diags: Vec<Diagnostic>,
    /// Top-level names.
    pub globals: BTreeMap<String, (Global, Loc)>,
    /// Each declared name in its composed (NFC) form, with the name as written and where:
    /// two names that differ only in composition look identical, so the second is refused.
    pub composed_names: BTreeMap<String, (String, Loc)>,
    /// Symbols by text.
    pub sym_index: BTreeMap<String, u32>,
    /// The names `claimed(NAME)` asked about, with where: each must name some move
    /// (checked once every procedure is compiled, since a move may be declared after).
    pub claimed_names: Vec<(String, Loc)>,
    /// Which domain each symbol was first declared in.
    pub sym_type: BTreeMap<u32, Type>,
    /// `def` bodies by name, for inlining (shared: each use expands the same body).
    pub defs: Vec<(u16, std::rc::Rc<ast::DefDecl>)>,
    /// Defs being inlined right now (to report recursion).
    pub inlining: Vec<String>,
    /// Proc signatures: parameter types.
    pub proc_sigs: Vec<Vec<Type>>,
    /// Procs called from somewhere (for unreachable warnings).
    pub called: Vec<bool>,
    /// Procs the bases' own (not inherited) tests call: not reported unreachable.
    pub base_test_calls: BTreeSet<String>,
    /// Score tables a variant replaced whole (redeclared with a parameter list): where.
    pub replaced_tables: BTreeMap<String, Loc>,
    /// Score signatures.
    pub score_sigs: Vec<Vec<ScoreParam>>,
    /// Seat counts the ruleset allows (for deck arithmetic).
    pub seat_counts: Vec<usize>,
    /// How deep the expression being lowered nests (defs expanded).
    pub depth: u32,
    /// Whether the nesting limit was already reported.
    pub too_deep_reported: bool,
    /// Defs expanded so far.
    pub inlined: usize,
    /// Expression nodes lowered inside def bodies so far, against `MAX_EXPANDED`.
    pub expanded: usize,
    /// Proc parameter names, beside `proc_sigs`.
    pub proc_params: Vec<Vec<String>>,
    /// The type each proc returns (`proc f() -> int`), beside `proc_sigs`.
    pub proc_returns: Vec<Option<Type>>,
    /// Where whole-program problems are reported: the main file's `ruleset` line, or
    /// its first item.
    pub anchor: Loc,
    /// Every top-level name with what it is and where, known before any is compiled,
    /// so a name used before its declaration is processed is not called "unknown".
    pub all_decls: BTreeMap<String, (&'static str, Loc)>,
    /// Names declared more than once: uses of them are not reported again.
    pub duplicated: BTreeSet<String>,
    /// Def cycles already reported (sorted names).
    pub def_cycles: BTreeSet<Vec<String>>,
    /// For score tables edited by a variant: the file of each stage.
    pub stage_files: BTreeMap<String, Vec<u16>>,
    /// No deck was built: card ids, attributes, tags and attribute values are then not
    /// reported one by one.
    pub no_deck: bool,
    /// Data files the loader read (resolved path → source index).
    pub data_files: BTreeMap<String, u16>,
    /// Declared word lists, before they are compiled for an attribute.
    pub word_lists: Vec<words::WordList>,
    /// Word lists compiled so far: (list, attribute) → index into `program.words`.
    pub word_indexes: BTreeMap<(u16, u16), u16>,
    /// Candidates "did you mean" may still compare: see [`closest_within`].
    pub suggest_budget: usize,
    /// The names of every score table's yaku and bonus rows, with their symbols: what
    /// `r.has(NAME)` and `r[NAME]` may ask a result for.
    pub row_names: BTreeMap<String, u32>,
    /// The parameters' values for each seat count, as far as computed.
    pub seat_params: constants::SeatParams,
    /// Problems reported through [`Compiler::error`], kept or not: a stage tells
    /// whether a part it compiled had problems by this count.
    pub reported: usize,
    /// While set, problems are counted but not kept (a value worked out only in case
    /// it can be, whose problems are reported elsewhere).
    pub quiet: bool,
    /// The diagnostics kept so far, for leaving out repeats.
    pub diag_keys: BTreeSet<String>,
    /// Errors kept, and errors past [`MAX_ERRORS`] left out.
    pub errors_kept: usize,
    pub errors_dropped: usize,
    /// The outcomes noted in `program.outcomes`, for finding one again.
    pub outcome_names: BTreeSet<u32>,
    /// Enums whose every value is noted as an outcome.
    pub outcome_enums: BTreeSet<u16>,
}

/// How many candidate names all the "did you mean"s of one check may compare. Each
/// unknown name is compared with every name of its kind, so a file of many unknown
/// names and many declarations would cost their product; a handful of typos, even in
/// a large ruleset, stays far inside this.
const SUGGEST_BUDGET: usize = 200_000;

/// [`crate::suggest::closest`], charged to `budget`: once the budget cannot pay for all
/// the candidates, no suggestion is made (rather than one from part of them).
pub(crate) fn closest_within<'a>(
    budget: &mut usize,
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let room = *budget;
    let all: Vec<&str> = candidates
        .into_iter()
        .take(room.saturating_add(1))
        .collect();
    if all.len() > room {
        *budget = 0;
        return None;
    }
    *budget -= all.len();
    crate::suggest::closest(word, all)
}

impl Compiler {
    /// The text of `span` in source `file`, its runs of spaces made one, for quoting an
    /// expression in a message; `None` when the span is not in the file.
    pub fn source_text(&self, file: u16, span: fuda_grammar::Span) -> Option<String> {
        let text = self.program.sources.get(file as usize)?.text.as_ref();
        let raw = text.get(span.start as usize..span.end as usize)?;
        Some(raw.split_whitespace().collect::<Vec<_>>().join(" "))
    }

    fn new(sources: Vec<Source>) -> Compiler {
        Compiler {
            program: Program {
                title: String::new(),
                sources,
                deck: Deck::default(),
                symbols: Vec::new(),
                enums: Vec::new(),
                params: Vec::new(),
                seats: crate::ir::SeatsDef {
                    count: crate::ir::Expr::Const(crate::value::Value::Int(2)),
                    roles: Vec::new(),
                },
                zones: Vec::new(),
                vars: Vec::new(),
                ledger: Vec::new(),
                display: Vec::new(),
                move_names: Vec::new(),
                patterns: Vec::new(),
                scores: Vec::new(),
                procs: Vec::new(),
                entry: None,
                tests: Vec::new(),
                outcomes: Vec::new(),
                words: Vec::new(),
                fit_tracks: Vec::new(),
                vm: Default::default(),
                wild: CardSet::EMPTY,
            },
            diags: Vec::new(),
            globals: BTreeMap::new(),
            composed_names: BTreeMap::new(),
            sym_index: BTreeMap::new(),
            claimed_names: Vec::new(),
            sym_type: BTreeMap::new(),
            defs: Vec::new(),
            inlining: Vec::new(),
            proc_sigs: Vec::new(),
            called: Vec::new(),
            base_test_calls: BTreeSet::new(),
            replaced_tables: BTreeMap::new(),
            score_sigs: Vec::new(),
            seat_counts: Vec::new(),
            depth: 0,
            too_deep_reported: false,
            inlined: 0,
            expanded: 0,
            proc_params: Vec::new(),
            proc_returns: Vec::new(),
            anchor: Loc::default(),
            all_decls: BTreeMap::new(),
            duplicated: BTreeSet::new(),
            def_cycles: BTreeSet::new(),
            stage_files: BTreeMap::new(),
            no_deck: false,
            data_files: BTreeMap::new(),
            word_lists: Vec::new(),
            word_indexes: BTreeMap::new(),
            suggest_budget: SUGGEST_BUDGET,
            row_names: BTreeMap::new(),
            seat_params: Default::default(),
            reported: 0,
            quiet: false,
            diag_keys: BTreeSet::new(),
            errors_kept: 0,
            errors_dropped: 0,
            outcome_names: BTreeSet::new(),
            outcome_enums: BTreeSet::new(),
        }
    }

    /// Pays for searching `pool` candidate names for a suggestion, if the budget
    /// allows; once it cannot, it is spent, and no more suggestions are searched.
    pub fn charge_suggestion(&mut self, pool: usize) -> bool {
        match self.suggest_budget.checked_sub(pool) {
            Some(left) => {
                self.suggest_budget = left;
                true
            }
            None => {
                self.suggest_budget = 0;
                false
            }
        }
    }

    /// The name among `candidates` that `word` most likely meant, within the check's
    /// budget for suggestions.
    pub fn closest<'a>(
        &mut self,
        word: &str,
        candidates: impl IntoIterator<Item = &'a str>,
    ) -> Option<String> {
        closest_within(&mut self.suggest_budget, word, candidates)
    }

    /// Reports an error.
    pub fn error(&mut self, d: Diagnostic) {
        let needs_deck = matches!(
            d.code,
            "fuda::unknown-attribute" | "fuda::unknown-tag" | "fuda::unknown-card"
        );
        if self.no_deck && needs_deck {
            return;
        }
        self.reported += 1;
        if self.quiet || !self.diag_keys.insert(diagnostic_key(&d)) {
            return;
        }
        if d.severity == Severity::Error {
            if self.errors_kept >= MAX_ERRORS {
                self.errors_dropped += 1;
                return;
            }
            self.errors_kept += 1;
        }
        self.diags.push(d);
    }

    /// Reports a scope that ran out of local slots.
    pub fn check_slots(&mut self, sc: &expr::Scope, loc: Loc) {
        if sc.overflowed {
            self.error(
                Diagnostic::error(
                    "fuda::too-large",
                    format!(
                        "this needs more than {} local names and values",
                        expr::MAX_SLOTS
                    ),
                    loc,
                    "too large",
                )
                .with_help("split it into smaller procedures, or use fewer nested defs"),
            );
        }
    }

    /// Notes symbol `s` as an outcome a game may end in (once, in the order first met).
    pub fn note_outcome(&mut self, s: u32) {
        if self.outcome_names.insert(s) {
            let name = self.program.symbols[s as usize].clone();
            self.program.outcomes.push(name);
        }
    }

    /// The index of a move's name in `Program::move_names`, added when new.
    pub fn move_name_id(&mut self, name: &str) -> u32 {
        match self.program.move_names.iter().position(|n| n == name) {
            Some(i) => i as u32,
            None => {
                self.program.move_names.push(name.to_string());
                (self.program.move_names.len() - 1) as u32
            }
        }
    }

    /// Reports each name `claimed(…)` asked about that no move has.
    fn check_claimed_names(&mut self) {
        let declared: std::collections::BTreeSet<String> = self
            .program
            .procs
            .iter()
            .chain(self.program.tests.iter().map(|t| &t.body))
            .flat_map(|d| d.code.iter())
            .filter_map(|op| match op {
                Op::Decide(d) => Some(d.options.iter().map(|o| o.name.clone())),
                _ => None,
            })
            .flatten()
            .collect();
        for (name, at) in std::mem::take(&mut self.claimed_names) {
            if declared.contains(&name) {
                continue;
            }
            let mut d = Diagnostic::error(
                "fuda::unknown-move",
                format!("no move is named `{name}`"),
                at,
                "not a move",
            );
            d = match closest_within(
                &mut self.suggest_budget,
                &name,
                declared.iter().map(|s| s.as_str()),
            ) {
                Some(s) => d.with_help(format!("did you mean `{s}`?")),
                None => {
                    d.with_help("`claimed(NAME)` names a move of a claim window: `claimed(ロン)`")
                }
            };
            self.error(d);
        }
    }

    /// Interns a symbol.
    pub fn intern(&mut self, s: &str) -> u32 {
        if let Some(i) = self.sym_index.get(s) {
            return *i;
        }
        let i = self.program.symbols.len() as u32;
        self.program.symbols.push(s.to_string());
        self.sym_index.insert(s.to_string(), i);
        i
    }

    /// Declares a top-level name, reporting a duplicate.
    pub fn declare(&mut self, name: &ast::Ident, file: u16, g: Global) -> bool {
        let loc = Loc {
            file,
            span: name.span,
        };
        if let Some((prev, prev_loc)) = self.globals.get(&name.node) {
            self.duplicated.insert(name.node.clone());
            self.error(
                Diagnostic::error(
                    "fuda::duplicate-name",
                    format!("`{}` is already declared as {}", name.node, prev.describe()),
                    loc,
                    "declared again here",
                )
                .with_label(*prev_loc, "first declared here")
                .with_help("rename one of them"),
            );
            return false;
        }
        let composed: String = name.node.nfc().collect();
        match self.composed_names.get(&composed) {
            Some((written, prev_loc)) if *written != name.node => {
                let prev_loc = *prev_loc;
                self.error(
                    Diagnostic::error(
                        "fuda::duplicate-name",
                        format!(
                            "`{}` looks the same as the name declared here, but its characters are composed differently",
                            name.node
                        ),
                        loc,
                        "declared again here",
                    )
                    .with_label(prev_loc, "first declared here")
                    .with_help(
                        "one is written with decomposed characters (a letter and a separate combining mark): type it again, or rename one",
                    ),
                );
                return false;
            }
            Some(_) => {}
            None => {
                self.composed_names
                    .insert(composed, (name.node.clone(), loc));
            }
        }
        // A value-like name that is also an enum value would hide that value in every
        // expression (`outcome 流れ` would read the variable). An attribute's values are
        // scoped to it: a variable may take one's name (`var 場` beside a kanji 場), and
        // the value is then written `kanji.場`.
        if matches!(
            g,
            Global::Param(_) | Global::Var(_) | Global::Zone(_) | Global::CardSet(_)
        ) {
            let owner = self
                .sym_index
                .get(&name.node)
                .and_then(|s| self.sym_type.get(s))
                .and_then(|t| match t {
                    Type::Sym(crate::value::SymDomain::Enum(e)) => self
                        .program
                        .enums
                        .get(*e as usize)
                        .map(|d| format!("enum `{}`", d.name)),
                    _ => None,
                });
            if let Some(owner) = owner {
                self.error(
                    Diagnostic::error(
                        "fuda::duplicate-name",
                        format!("`{}` is already a value of {owner}", name.node),
                        loc,
                        format!("{} named like a value", g.describe()),
                    )
                    .with_help("rename it: in expressions the name would hide the value"),
                );
                return false;
            }
        }
        if names::is_builtin(&name.node) {
            self.error(
                Diagnostic::error(
                    "fuda::reserved-name",
                    format!("`{}` is a builtin name and cannot be declared", name.node),
                    loc,
                    "reserved",
                )
                .with_help(format!(
                    "`{}` always means {}; choose another name",
                    name.node,
                    if name.node == "dealer" {
                        "the dealer's seat"
                    } else {
                        "every card of the deck"
                    }
                )),
            );
            return false;
        }
        self.globals.insert(name.node.clone(), (g, loc));
        true
    }

    fn run(&mut self, items: &[(u16, Item)]) {
        if !self.within_limits(items) {
            return;
        }
        // Order matters: the deck and enums give symbols; declarations give names;
        // signatures let bodies call procs and scores declared later.
        self.program.title = items
            .iter()
            .rev()
            .find_map(|(_, i)| {
                if let Item::Ruleset(t) = i {
                    Some(t.node.clone())
                } else {
                    None
                }
            })
            .unwrap_or_else(|| "untitled ruleset".into());
        self.anchor = items
            .iter()
            .find(|(f, i)| *f == 0 && matches!(i, Item::Ruleset(_)))
            .or_else(|| items.iter().find(|(f, _)| *f == 0))
            .map(|(f, i)| Loc {
                file: *f,
                span: match i {
                    Item::Ruleset(t) => t.span,
                    other => head_span(other),
                },
            })
            .unwrap_or_default();
        for (f, i) in items {
            if let Some((kind, name)) = decl_name(i) {
                self.all_decls.entry(name.node.clone()).or_insert((
                    kind,
                    Loc {
                        file: *f,
                        span: name.span,
                    },
                ));
            }
        }
        deck::compile_decks(self, items);
        self.no_deck = self.program.deck.is_empty();
        words::declare_words(self, items);
        decls::declare_all(self, items);
        score::compile_patterns_and_scores(self, items);
        self.explain_replaced_tables();
        self.check_defs();
        stmt::compile_procs_and_tests(self, items);
        self.check_claimed_names();
        verify::check_program(self, items);
        ends::mark_round_enders(&mut self.program);
    }
}

/// The name an item declares, with what kind of thing it is.
fn decl_name(i: &Item) -> Option<(&'static str, &ast::Ident)> {
    Some(match i {
        Item::Deck(d) => ("a deck", &d.name),
        Item::Param(d) => ("a parameter", &d.name),
        Item::Zone(d) => ("a zone", &d.name),
        Item::Var(d) => ("a variable", &d.name),
        Item::Enum(d) => ("an enum", &d.name),
        Item::Cards(d) => ("a card set", &d.name),
        Item::Def(d) => ("a def", &d.name),
        Item::Pattern(d) => ("a pattern", &d.name),
        Item::Score(d) => ("a score table", &d.name),
        Item::Proc(d) => ("a procedure", &d.name),
        Item::Words(d) => ("a word list", &d.name),
        _ => return None,
    })
}

/// The first line of an item: its name where it has one, else its whole span.
fn head_span(i: &Item) -> fuda_grammar::Span {
    decl_name(i)
        .map(|(_, n)| n.span)
        .unwrap_or_else(|| i.span())
}
