//! The checker and compiler: from merged syntax trees to a [`Program`], collecting
//! every problem as a [`Diagnostic`] instead of stopping at the first.

mod deck;
mod decls;
mod expr;
mod load;
mod names;
mod score;
mod stmt;
mod verify;

use std::collections::BTreeMap;

use fuda_grammar::ast::{self, Item};

use crate::diagnostic::{Diagnostic, Severity};
use crate::ir::{Loc, Program, Source};
use crate::loader::Loader;
use crate::model::{CardSet, Deck};
use crate::value::Type;

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
    /// Every problem found (errors first).
    pub diagnostics: Vec<Diagnostic>,
}

/// Checks and compiles a ruleset given as text; `loader` reads files it imports.
pub fn compile(name: &str, text: &str, loader: &dyn Loader) -> Result<Compiled, Failed> {
    let loaded = match load::load(name, text, loader) {
        Ok(l) => l,
        Err((sources, diagnostics)) => {
            return Err(Failed {
                sources,
                diagnostics,
            })
        }
    };
    let mut c = Compiler::new(loaded.sources);
    c.run(&loaded.items);
    let (errors, warnings): (Vec<_>, Vec<_>) = c
        .diags
        .drain(..)
        .partition(|d| d.severity == Severity::Error);
    if errors.is_empty() {
        Ok(Compiled {
            program: c.program,
            warnings,
        })
    } else {
        let mut diagnostics = errors;
        diagnostics.extend(warnings);
        Err(Failed {
            sources: c.program.sources,
            diagnostics,
        })
    }
}

/// The compiler's tables while it works.
pub(crate) struct Compiler {
    pub program: Program,
    pub diags: Vec<Diagnostic>,
    /// Top-level names.
    pub globals: BTreeMap<String, (Global, Loc)>,
    /// Symbols by text.
    pub sym_index: BTreeMap<String, u32>,
    /// Which domain each symbol was first declared in.
    pub sym_type: BTreeMap<u32, Type>,
    /// `def` bodies by name, for inlining.
    pub defs: Vec<(u16, ast::DefDecl)>,
    /// Defs being inlined right now (to report recursion).
    pub inlining: Vec<String>,
    /// Proc signatures: parameter types.
    pub proc_sigs: Vec<Vec<Type>>,
    /// Procs called from somewhere (for unreachable warnings).
    pub called: Vec<bool>,
    /// Score signatures.
    pub score_sigs: Vec<Vec<(String, Type, Option<ast::Expr>, u16)>>,
    /// Seat counts the ruleset allows (for deck arithmetic).
    pub seat_counts: Vec<usize>,
}

impl Compiler {
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
                patterns: Vec::new(),
                scores: Vec::new(),
                procs: Vec::new(),
                entry: None,
                tests: Vec::new(),
                outcomes: Vec::new(),
            },
            diags: Vec::new(),
            globals: BTreeMap::new(),
            sym_index: BTreeMap::new(),
            sym_type: BTreeMap::new(),
            defs: Vec::new(),
            inlining: Vec::new(),
            proc_sigs: Vec::new(),
            called: Vec::new(),
            score_sigs: Vec::new(),
            seat_counts: Vec::new(),
        }
    }

    /// Reports an error.
    pub fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
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
        if names::is_builtin(&name.node) {
            self.error(
                Diagnostic::error(
                    "fuda::reserved-name",
                    format!("`{}` is a builtin name and cannot be declared", name.node),
                    loc,
                    "reserved",
                )
                .with_help("choose another name"),
            );
            return false;
        }
        self.globals.insert(name.node.clone(), (g, loc));
        true
    }

    fn run(&mut self, items: &[(u16, Item)]) {
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
        deck::compile_decks(self, items);
        decls::declare_all(self, items);
        score::compile_patterns_and_scores(self, items);
        stmt::compile_procs_and_tests(self, items);
        verify::check_program(self, items);
    }

    /// A named card set, if `name` is one.
    pub fn cards_named(&self, name: &str) -> Option<CardSet> {
        match self.globals.get(name) {
            Some((Global::CardSet(s), _)) => Some(*s),
            _ => None,
        }
    }
}
