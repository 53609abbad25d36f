//! Loading a ruleset with its `extends` bases and `import`s into one list of items,
//! each tagged with the file it came from. A variant's items replace the base's items
//! of the same kind and name; tests are not inherited.

use std::sync::Arc;

use fuda_grammar::ast::{File, Item};
use fuda_grammar::Span;

use crate::diagnostic::Diagnostic;
use crate::ir::{Loc, Source};
use crate::loader::{resolve, Loader, Resolved};

/// An item with the index of its source file.
pub type FileItem = (u16, Item);

/// Most files one program may pull in (guards against import bombs).
const MAX_FILES: usize = 64;

/// Everything loaded for one program.
pub struct Loaded {
    /// Every source file read.
    pub sources: Vec<Source>,
    /// Merged items, imports first.
    pub items: Vec<FileItem>,
}

struct LoadCtx<'a> {
    loader: &'a dyn Loader,
    sources: Vec<Source>,
    diags: Vec<Diagnostic>,
    /// Local paths or std names already imported, so each is read once.
    imported: Vec<String>,
    /// The chain of `extends` being followed, for cycle reports.
    chain: Vec<String>,
}

/// Parses `text` (named `name`) and everything it extends or imports.
pub fn load(
    name: &str,
    text: &str,
    loader: &dyn Loader,
) -> Result<Loaded, (Vec<Source>, Vec<Diagnostic>)> {
    let mut ctx = LoadCtx {
        loader,
        sources: Vec::new(),
        diags: Vec::new(),
        imported: Vec::new(),
        chain: Vec::new(),
    };
    let items = ctx
        .load_file(name, text.to_string(), None)
        .unwrap_or_default();
    if ctx.diags.is_empty() {
        Ok(Loaded {
            sources: ctx.sources,
            items,
        })
    } else {
        Err((ctx.sources, ctx.diags))
    }
}

impl LoadCtx<'_> {
    fn add_source(&mut self, name: &str, text: String) -> u16 {
        self.sources.push(Source {
            name: name.to_string(),
            text: Arc::from(text),
        });
        (self.sources.len() - 1) as u16
    }

    /// Loads one file; returns its merged items (bases and imports resolved).
    fn load_file(&mut self, name: &str, text: String, from: Option<Loc>) -> Option<Vec<FileItem>> {
        if self.sources.len() >= MAX_FILES {
            let loc = from.unwrap_or_default();
            self.diags.push(
                Diagnostic::error(
                    "fuda::too-many-files",
                    format!("more than {MAX_FILES} files are pulled in"),
                    loc,
                    "here",
                )
                .with_help("check for imports that pull in each other"),
            );
            return None;
        }
        let file = self.add_source(name, text.clone());
        let ast = match fuda_grammar::parse(name, &text) {
            Ok(f) => f,
            Err(e) => {
                self.diags.push(syntax_diagnostic(file, &e));
                return None;
            }
        };
        self.chain.push(name.to_string());
        let result = self.merge_file(file, ast);
        self.chain.pop();
        Some(result)
    }

    fn merge_file(&mut self, file: u16, ast: File) -> Vec<FileItem> {
        let mut base: Vec<FileItem> = Vec::new();
        let mut own: Vec<FileItem> = Vec::new();
        let mut imports: Vec<FileItem> = Vec::new();
        let mut extends_seen: Option<Span> = None;
        for item in ast.items {
            match &item {
                Item::Extends(path) => {
                    let loc = Loc {
                        file,
                        span: path.span,
                    };
                    if let Some(first) = extends_seen {
                        self.diags.push(
                            Diagnostic::error(
                                "fuda::extends-twice",
                                "a ruleset can extend only one base",
                                loc,
                                "second `extends`",
                            )
                            .with_label(Loc { file, span: first }, "first here"),
                        );
                        continue;
                    }
                    extends_seen = Some(path.span);
                    if let Some(items) = self.follow(&path.node, loc, true) {
                        base = items;
                    }
                }
                Item::Import(path) => {
                    let loc = Loc {
                        file,
                        span: path.span,
                    };
                    if let Some(items) = self.follow(&path.node, loc, false) {
                        imports.extend(items);
                    }
                }
                _ => own.push((file, item)),
            }
        }
        // Base items (without their tests) are replaced by this file's items of the same
        // kind and name, in place; new items follow.
        let mut merged: Vec<FileItem> = imports;
        merged.extend(
            base.into_iter()
                .filter(|(_, i)| !matches!(i, Item::Test(_))),
        );
        for (f, item) in own {
            // `score NAME { … }` without a parameter list edits the base's table.
            if let Item::Score(edit) = &item {
                if edit.params.is_empty() && edit.over.is_none() {
                    if let Some((_, Item::Score(base))) = merged.iter_mut().find(|(bf, m)| {
                        *bf != f && matches!(m, Item::Score(b) if b.name.node == edit.name.node)
                    }) {
                        merge_stages(base, edit);
                        continue;
                    }
                }
            }
            let key = item_key(&item);
            let pos = key.as_ref().and_then(|k| {
                merged
                    .iter()
                    .position(|(_, m)| item_key(m).as_ref() == Some(k))
            });
            match pos {
                Some(p) if merged[p].0 != f => merged[p] = (f, item),
                _ => merged.push((f, item)),
            }
        }
        merged
    }

    /// Follows an `extends` or `import` path.
    fn follow(&mut self, path: &str, loc: Loc, is_extends: bool) -> Option<Vec<FileItem>> {
        let what = if is_extends { "extends" } else { "import" };
        let resolved = match resolve(path) {
            Ok(r) => r,
            Err(why) => {
                self.diags.push(
                    Diagnostic::error(
                        "fuda::bad-import",
                        format!("cannot {what} `{path}`: {why}"),
                        loc,
                        "this path",
                    )
                    .with_help(
                        "name a stdlib module (`std/hanafuda`) or a file in the ruleset's folder",
                    ),
                );
                return None;
            }
        };
        let (key, text) = match resolved {
            Resolved::Std(n, t) => (n.to_string(), t.to_string()),
            Resolved::Local(p) => {
                if self.chain.contains(&p) {
                    let cycle = format!("{} → {}", self.chain.join(" → "), p);
                    self.diags.push(Diagnostic::error(
                        "fuda::import-cycle",
                        format!("`{path}` leads back to itself: {cycle}"),
                        loc,
                        "cycle starts here",
                    ));
                    return None;
                }
                match self.loader.load(&p) {
                    Ok(t) => (p, t),
                    Err(why) => {
                        self.diags.push(Diagnostic::error(
                            "fuda::import-not-found",
                            format!("cannot read `{p}`: {why}"),
                            loc,
                            "this file",
                        ));
                        return None;
                    }
                }
            }
        };
        if !is_extends {
            if self.imported.contains(&key) {
                return Some(Vec::new());
            }
            self.imported.push(key.clone());
        } else if self.chain.contains(&key) {
            self.diags.push(Diagnostic::error(
                "fuda::import-cycle",
                format!(
                    "`{path}` extends itself: {} → {key}",
                    self.chain.join(" → ")
                ),
                loc,
                "cycle",
            ));
            return None;
        }
        self.load_file(&key, text, Some(loc))
    }
}

/// Replaces the base table's stages that share a name with the edit's; appends the rest.
fn merge_stages(base: &mut fuda_grammar::ast::ScoreDecl, edit: &fuda_grammar::ast::ScoreDecl) {
    for (stage, name) in edit.stages.iter().zip(&edit.stage_names) {
        let at = name.as_ref().and_then(|n| {
            base.stage_names
                .iter()
                .position(|b| b.as_ref().map(|b| b.node == n.node).unwrap_or(false))
        });
        match at {
            Some(i) => base.stages[i] = stage.clone(),
            None => {
                base.stages.push(stage.clone());
                base.stage_names.push(name.clone());
            }
        }
    }
}

/// The kind and name that identify an item for overriding.
fn item_key(item: &Item) -> Option<(&'static str, String)> {
    Some(match item {
        Item::Ruleset(_) => ("ruleset", String::new()),
        Item::Deck(d) => ("deck", d.name.node.clone()),
        Item::Param(d) => ("param", d.name.node.clone()),
        Item::Seats(_) => ("seats", String::new()),
        Item::Zone(d) => ("zone", d.name.node.clone()),
        Item::Var(d) => ("var", d.name.node.clone()),
        Item::Enum(d) => ("enum", d.name.node.clone()),
        Item::Cards(d) => ("cards", d.name.node.clone()),
        Item::Ledger(..) => ("ledger", String::new()),
        Item::Def(d) => ("def", d.name.node.clone()),
        Item::Pattern(d) => ("pattern", d.name.node.clone()),
        Item::Score(d) => ("score", d.name.node.clone()),
        Item::Proc(d) => ("proc", d.name.node.clone()),
        Item::Test(_) | Item::Extends(_) | Item::Import(_) => return None,
    })
}

/// Converts the parser's error into a program diagnostic.
fn syntax_diagnostic(file: u16, e: &fuda_grammar::SyntaxError) -> Diagnostic {
    use miette::Diagnostic as _;
    let mut labels = Vec::new();
    if let Some(ls) = e.labels() {
        for l in ls {
            let span = Span::new(l.offset(), l.offset() + l.len());
            labels.push((Loc { file, span }, l.label().unwrap_or("").to_string()));
        }
    }
    if labels.is_empty() {
        labels.push((
            Loc {
                file,
                span: Span::default(),
            },
            String::new(),
        ));
    }
    Diagnostic {
        code: "fuda::syntax",
        message: e.to_string(),
        labels,
        help: e.help().map(|h| h.to_string()),
        severity: crate::diagnostic::Severity::Error,
    }
}
