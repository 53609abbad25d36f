//! Loading a ruleset with its `extends` bases and `import`s into one list of items,
//! each tagged with the file it came from. A variant's items replace the base's items
//! of the same kind and name; tests are not inherited. Then the data files the merged
//! word lists name (`words 熟語 from "jukugo.txt"`) are read, once each.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use fuda_grammar::ast::{File, Item, WordsSource};
use fuda_grammar::Span;

use crate::diagnostic::Diagnostic;
use crate::ir::{Loc, Source};
use crate::loader::{resolve, resolve_data, DataError, Loader, Resolved};

/// An item with the index of its source file.
pub type FileItem = (u16, Item);

/// Most files one program may pull in (guards against import bombs).
const MAX_FILES: usize = 64;

/// The largest data file (a word list) a ruleset may read, in bytes.
pub const MAX_DATA_BYTES: usize = 4 << 20;

/// The most bytes a ruleset's own files may hold in all: the file checked, its bases,
/// its imports and its word lists (the embedded stdlib is not counted). As much as
/// one file may hold: checking time and memory follow the text read, so a program of
/// many large files would cost many times what one file can.
pub const MAX_PROGRAM_BYTES: usize = fuda_grammar::MAX_SOURCE_BYTES;

/// Everything loaded for one program.
pub struct Loaded {
    /// Every source file read.
    pub sources: Vec<Source>,
    /// Merged items, imports first.
    pub items: Vec<FileItem>,
    /// Problems that do not stop loading.
    pub warnings: Vec<Diagnostic>,
    /// Score tables a variant edited: the file each stage was written in (the item's
    /// own file is the base's).
    pub stage_files: BTreeMap<String, Vec<u16>>,
    /// Data files read for word lists: the resolved path (`dict/jukugo.txt`,
    /// `std/…`) and the index of its text in `sources`.
    pub data_files: BTreeMap<String, u16>,
    /// Procedures the bases' own tests call. The tests are not inherited, but a
    /// procedure there to be tested is no leftover: it is not reported unreachable.
    pub base_test_calls: BTreeSet<String>,
    /// Score tables a variant redeclared with a parameter list, replacing the base's
    /// whole table: where the variant's declaration names it.
    pub replaced_tables: BTreeMap<String, Loc>,
}

struct LoadCtx<'a> {
    loader: &'a dyn Loader,
    sources: Vec<Source>,
    diags: Vec<Diagnostic>,
    /// Local paths or std names already imported, so each is read once.
    imported: Vec<String>,
    /// The chain of `extends` being followed, for cycle reports.
    chain: Vec<String>,
    warnings: Vec<Diagnostic>,
    stage_files: BTreeMap<String, Vec<u16>>,
    base_test_calls: BTreeSet<String>,
    replaced_tables: BTreeMap<String, Loc>,
    /// Bytes of the ruleset's own files read so far, against [`MAX_PROGRAM_BYTES`].
    own_bytes: usize,
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
        warnings: Vec::new(),
        stage_files: BTreeMap::new(),
        base_test_calls: BTreeSet::new(),
        replaced_tables: BTreeMap::new(),
        own_bytes: text.len(),
    };
    let items = ctx
        .load_file(name, text.to_string(), None)
        .unwrap_or_default();
    // Only the word lists that survived merging are read: a variant that replaces a
    // base's list does not need the base's file.
    let mut data_files = BTreeMap::new();
    for (file, item) in &items {
        if let Item::Words(w) = item {
            if let WordsSource::File(path) = &w.source {
                let loc = Loc {
                    file: *file,
                    span: path.span,
                };
                ctx.read_data(&path.node, loc, &mut data_files);
            }
        }
    }
    if ctx.diags.is_empty() {
        Ok(Loaded {
            sources: ctx.sources,
            items,
            warnings: ctx.warnings,
            stage_files: ctx.stage_files,
            data_files,
            base_test_calls: ctx.base_test_calls,
            replaced_tables: ctx.replaced_tables,
        })
    } else {
        Err((ctx.sources, ctx.diags))
    }
}

impl LoadCtx<'_> {
    /// Keeps a file's text for diagnostics. A control character in it is refused (by
    /// the parser, or by [`LoadCtx::read_data`]) and never shown: the kept copy has it
    /// masked, byte for byte, so spans still point at the right place.
    fn add_source(&mut self, name: &str, text: String) -> u16 {
        let text = match fuda_grammar::text::printable(&text) {
            std::borrow::Cow::Borrowed(_) => text,
            std::borrow::Cow::Owned(masked) => masked,
        };
        self.sources.push(Source::new(name, Arc::from(text)));
        (self.sources.len() - 1) as u16
    }

    /// Reads the data file of a word list (once per resolved path) into `sources`.
    fn read_data(&mut self, path: &str, loc: Loc, read: &mut BTreeMap<String, u16>) {
        let shown = if path.is_empty() {
            "\"\"".to_string()
        } else {
            format!("`{path}`")
        };
        let resolved = match resolve_data(path) {
            Ok(r) => r,
            Err(why) => {
                self.diags.push(
                    Diagnostic::error(
                        "fuda::bad-words-path",
                        format!("cannot read words from {shown}: {why}"),
                        loc,
                        "this path",
                    )
                    .with_help(
                        "name a file in the ruleset's folder or below it, e.g. `words 熟語 from \"jukugo.txt\"`",
                    ),
                );
                return;
            }
        };
        let (key, text) = match resolved {
            Resolved::Std(n, t) => (n.to_string(), t.to_string()),
            Resolved::Local(p) => {
                if read.contains_key(&p) {
                    return;
                }
                match self.loader.load_data(&p, MAX_DATA_BYTES) {
                    Ok(t) => {
                        if !self.within_program_bytes(t.len(), loc, "word list") {
                            return;
                        }
                        (p, t)
                    }
                    Err(DataError::Unreadable(why)) => {
                        self.diags.push(
                            Diagnostic::error(
                                "fuda::words-not-found",
                                format!("cannot read words from `{p}`: {why}"),
                                loc,
                                "not found",
                            )
                            .with_help(
                                "paths are relative to the folder of the ruleset being checked; a word list is a UTF-8 text file, one word a line",
                            ),
                        );
                        return;
                    }
                    Err(DataError::TooLarge(size)) => {
                        let size = match size {
                            Some(n) => format!("{n} bytes"),
                            None => format!("larger than {MAX_DATA_BYTES} bytes"),
                        };
                        self.diags.push(
                            Diagnostic::error(
                                "fuda::words-too-large",
                                format!(
                                    "the word list `{p}` is {size}: a word list may have at most {MAX_DATA_BYTES} bytes ({} MiB)",
                                    MAX_DATA_BYTES >> 20
                                ),
                                loc,
                                "too large",
                            )
                            .with_help(
                                "keep only the words the deck can spell, or split the list",
                            ),
                        );
                        return;
                    }
                }
            }
        };
        if read.contains_key(&key) {
            return;
        }
        if self.sources.len() >= MAX_FILES {
            self.diags.push(
                Diagnostic::error(
                    "fuda::too-many-files",
                    format!(
                        "a ruleset may read at most {MAX_FILES} files (itself, its bases and imports, word lists and the stdlib included)"
                    ),
                    loc,
                    format!("file {} is not read", MAX_FILES + 1),
                )
                .with_help("merge small files, or read fewer of them"),
            );
            return;
        }
        let refused = fuda_grammar::text::first_refused(&text, true).map(|(at, what)| {
            (
                at,
                text[at..].chars().next().map_or(1, char::len_utf8),
                what,
            )
        });
        let ix = self.add_source(&key, text);
        read.insert(key, ix);
        if let Some((at, len, what)) = refused {
            self.diags.push(
                Diagnostic::error(
                    "fuda::control-character",
                    what.message("word lists"),
                    Loc {
                        file: ix,
                        span: Span::new(at, at + len),
                    },
                    what.label(),
                )
                .with_label(loc, "read here")
                .with_help(what.help(false)),
            );
        }
    }

    /// Counts `len` more bytes of the ruleset's own files (a file or word list read for
    /// the path at `loc`), reporting the total past [`MAX_PROGRAM_BYTES`].
    fn within_program_bytes(&mut self, len: usize, loc: Loc, what: &str) -> bool {
        let total = self.own_bytes.saturating_add(len);
        if total <= MAX_PROGRAM_BYTES {
            self.own_bytes = total;
            return true;
        }
        self.diags.push(
            Diagnostic::error(
                "fuda::too-large",
                format!(
                    "the ruleset's files would hold {total} bytes in all: at most {MAX_PROGRAM_BYTES} ({} MiB) are read, the file checked, its bases, imports and word lists together",
                    MAX_PROGRAM_BYTES >> 20
                ),
                loc,
                format!("this {what} ({len} bytes) passes the limit"),
            )
            .with_help("keep the rules and word lists of one game smaller; the stdlib is not counted"),
        );
        false
    }

    /// Loads one file; returns its merged items (bases and imports resolved).
    fn load_file(&mut self, name: &str, text: String, from: Option<Loc>) -> Option<Vec<FileItem>> {
        if self.sources.len() >= MAX_FILES {
            let loc = from.unwrap_or_default();
            self.diags.push(
                Diagnostic::error(
                    "fuda::too-many-files",
                    format!(
                        "a ruleset may read at most {MAX_FILES} files (itself, its bases and imports, the stdlib included)"
                    ),
                    loc,
                    format!("file {} is not read", MAX_FILES + 1),
                )
                .with_help("merge small files, or import fewer of them"),
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
        for (_, i) in &base {
            if let Item::Test(t) = i {
                calls_in(&t.body, &mut self.base_test_calls);
            }
        }
        merged.extend(
            base.into_iter()
                .filter(|(_, i)| !matches!(i, Item::Test(_))),
        );
        // Where each kind-and-name first stands, so replacing is not a scan per item.
        let mut index: std::collections::BTreeMap<(&'static str, String), usize> =
            std::collections::BTreeMap::new();
        for (i, (_, m)) in merged.iter().enumerate() {
            if let Some(k) = item_key(m) {
                index.entry(k).or_insert(i);
            }
        }
        for (f, item) in own {
            // `score NAME { … }` without a parameter list edits the base's table.
            if let Item::Score(edit) = &item {
                if edit.params.is_empty() && edit.over.is_none() {
                    let key = ("score", edit.name.node.clone());
                    let base_at = match index.get(&key) {
                        Some(&p) if merged[p].0 != f => Some(p),
                        // Rare: the first table of that name is this file's own.
                        Some(_) => merged.iter().position(|(bf, m)| {
                            *bf != f && matches!(m, Item::Score(b) if b.name.node == edit.name.node)
                        }),
                        None => None,
                    };
                    if let Some((bf, Item::Score(base))) = base_at.map(|p| &mut merged[p]) {
                        let files = self
                            .stage_files
                            .entry(edit.name.node.clone())
                            .or_insert_with(|| vec![*bf; base.stages.len()]);
                        let warnings = merge_stages(base, edit, files, f);
                        self.warnings.extend(warnings);
                        continue;
                    }
                }
            }
            let key = item_key(&item);
            let pos = key.as_ref().and_then(|k| index.get(k).copied());
            // `deck nara extends nara { … }` extends itself, which the checker refuses;
            // kept beside the base's deck instead of replacing it, it can be reported
            // alone, and the base's cards stay for the rest of the check.
            let pos = pos.filter(|_| {
                !matches!(&item, Item::Deck(d) if d.base.as_ref().is_some_and(|b| b.node == d.name.node))
            });
            match pos {
                Some(p) if merged[p].0 != f => {
                    // A whole new table replaces any earlier edits of the base's.
                    if let Item::Score(sd) = &item {
                        self.stage_files.remove(&sd.name.node);
                        let at = Loc {
                            file: f,
                            span: sd.name.span,
                        };
                        self.replaced_tables.insert(sd.name.node.clone(), at);
                    }
                    merged[p] = (f, item)
                }
                _ => {
                    if let Some(k) = key {
                        index.entry(k).or_insert(merged.len());
                    }
                    merged.push((f, item))
                }
            }
        }
        merged
    }

    /// Follows an `extends` or `import` path.
    fn follow(&mut self, path: &str, loc: Loc, is_extends: bool) -> Option<Vec<FileItem>> {
        let what = if is_extends { "extends" } else { "import" };
        let verb = if is_extends { "extend" } else { "import" };
        let resolved = match resolve(path) {
            Ok(r) => r,
            Err(why) => {
                let shown = if path.is_empty() {
                    "\"\"".to_string()
                } else {
                    format!("`{path}`")
                };
                let std_names = crate::loader::STDLIB.iter().map(|(n, _)| *n);
                let help = match path.strip_prefix("std/") {
                    Some(_) => match crate::suggest::closest(path.trim_end_matches(".fuda"), std_names) {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => "the stdlib modules are listed above".to_string(),
                    },
                    None => "name a stdlib module (`std/hanafuda`) or a file in the ruleset's folder or below it".to_string(),
                };
                self.diags.push(
                    Diagnostic::error(
                        "fuda::bad-import",
                        format!("cannot {verb} {shown}: {why}"),
                        loc,
                        "this path",
                    )
                    .with_help(help),
                );
                return None;
            }
        };
        let local = matches!(resolved, Resolved::Local(_));
        let (key, text) = match resolved {
            Resolved::Std(n, t) => (n.to_string(), t.to_string()),
            Resolved::Local(p) => {
                if self.chain.contains(&p) {
                    let cycle = format!("{} → {}", self.chain.join(" → "), p);
                    self.diags.push(
                        Diagnostic::error(
                            "fuda::import-cycle",
                            format!("{what} cycle: {cycle}"),
                            loc,
                            format!("`{p}` is already being read"),
                        )
                        .with_help(if is_extends {
                            "a ruleset cannot extend itself, directly or through its base"
                        } else {
                            "remove one of the imports; declarations both files need can go in a third file that both import"
                        }),
                    );
                    return None;
                }
                match self.loader.load(&p) {
                    Ok(t) => (p, t),
                    Err(why) => {
                        // A misspelt name (`sangohanna.fuda`): the nearest rule file of
                        // that folder, if the loader can list it.
                        let dir = p.rsplit_once('/').map_or("", |(d, _)| d);
                        let files = self.loader.rule_files(dir);
                        let stem = |f: &str| f.strip_suffix(".fuda").unwrap_or(f).to_string();
                        let stems: Vec<String> = files.iter().map(|f| stem(f)).collect();
                        let help = match crate::suggest::closest(&stem(&p), stems.iter().map(|f| f.as_str())) {
                            Some(s) => format!("did you mean `{s}.fuda`? Paths are relative to the folder of the ruleset being checked"),
                            None => "paths are relative to the folder of the ruleset being checked".to_string(),
                        };
                        self.diags.push(
                            Diagnostic::error(
                                "fuda::import-not-found",
                                format!("cannot {verb} `{p}`: {why}"),
                                loc,
                                "not found",
                            )
                            .with_help(help),
                        );
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
            self.diags.push(
                Diagnostic::error(
                    "fuda::import-cycle",
                    format!("extends cycle: {} → {key}", self.chain.join(" → ")),
                    loc,
                    format!("`{key}` is already being read"),
                )
                .with_help("a ruleset cannot extend itself, directly or through its base"),
            );
            return None;
        }
        if local && !self.within_program_bytes(text.len(), loc, "file") {
            return None;
        }
        self.load_file(&key, text, Some(loc))
    }
}

/// The names of the procedures a block calls, in its nested blocks and moves too.
fn calls_in(block: &fuda_grammar::ast::Block, out: &mut BTreeSet<String>) {
    use fuda_grammar::ast::StmtKind;
    for s in &block.stmts {
        match &s.node {
            StmtKind::Call(f, _) => {
                out.insert(f.node.clone());
            }
            StmtKind::If(_, a, b) => {
                calls_in(a, out);
                if let Some(b) = b {
                    calls_in(b, out);
                }
            }
            StmtKind::While(_, b)
            | StmtKind::Loop(b)
            | StmtKind::For(_, _, b)
            | StmtKind::Repeat(_, _, b) => calls_in(b, out),
            StmtKind::Choose(c) => c.options.iter().for_each(|o| calls_in(&o.body, out)),
            StmtKind::Claim(c) => c.options.iter().for_each(|o| calls_in(&o.body, out)),
            _ => {}
        }
    }
}

/// Replaces the base table's stages that share a name with the edit's; appends the rest.
/// `files` holds the file of each of the base's stages and is kept in step; `file` is the
/// edit's. Returns warnings for stages that were likely meant to replace one.
fn merge_stages(
    base: &mut fuda_grammar::ast::ScoreDecl,
    edit: &fuda_grammar::ast::ScoreDecl,
    files: &mut Vec<u16>,
    file: u16,
) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    files.resize(base.stages.len(), files.last().copied().unwrap_or(file));
    // Where each named stage of the base first stands.
    let mut named: BTreeMap<String, usize> = BTreeMap::new();
    for (i, n) in base.stage_names.iter().enumerate() {
        if let Some(n) = n {
            named.entry(n.node.clone()).or_insert(i);
        }
    }
    for (stage, name) in edit.stages.iter().zip(&edit.stage_names) {
        let at = name.as_ref().and_then(|n| named.get(&n.node).copied());
        if let (None, Some(n)) = (at, name) {
            named.entry(n.node.clone()).or_insert(base.stages.len());
        }
        match at {
            Some(i) => {
                base.stages[i] = stage.clone();
                files[i] = file;
            }
            // A stage named anew, with no base stage of its kind named like it, is a
            // deliberate addition (`plus 月見 first { … }`): added without a word. An
            // unnamed stage, or a name close to a base stage's (`times 短参` for `短三`),
            // was likely meant to replace one: added with a warning that says how.
            None if name.as_ref().is_some_and(|n| !near_stage(base, &n.node)) => {
                base.stages.push(stage.clone());
                base.stage_names.push(name.clone());
                files.push(file);
            }
            None => {
                let (span, what) = match name {
                    Some(n) => (n.span, format!("stage `{}`", n.node)),
                    None => (stage_span(stage), "this unnamed stage".to_string()),
                };
                let w = Diagnostic::error(
                    "fuda::new-stage",
                    format!(
                        "{what} replaces nothing in score `{}`: it is added after the base's stages",
                        edit.name.node
                    ),
                    Loc { file, span },
                    "added, not replaced",
                )
                .warning()
                .with_help(new_stage_help(base, stage, name.as_ref().map(|n| n.node.as_str())));
                warnings.push(w);
                base.stages.push(stage.clone());
                base.stage_names.push(name.clone());
                files.push(file);
            }
        }
    }
    warnings
}

/// Tables with more stages than this get no did-you-mean among them: each added stage
/// would be compared with every stage.
const MAX_STAGES_COMPARED: usize = 64;

/// Whether the base has a stage, of any kind, named close to `name`: a likely typo
/// (the help then offers the stages of the edit's own kind).
fn near_stage(base: &fuda_grammar::ast::ScoreDecl, name: &str) -> bool {
    if base.stage_names.len() > MAX_STAGES_COMPARED {
        return false;
    }
    let named = base
        .stage_names
        .iter()
        .filter_map(|n| n.as_ref().map(|n| n.node.as_str()));
    crate::suggest::closest(name, named).is_some()
}

/// What to do about a variant's stage that replaces none of the base's. Only a stage of
/// the same kind can be replaced (a `name` stage by a `name` stage), so only those are
/// offered: listing the base's `times` stages for a `name` edit sent readers to rename
/// it into something it cannot replace.
fn new_stage_help(
    base: &fuda_grammar::ast::ScoreDecl,
    stage: &fuda_grammar::ast::Stage,
    name: Option<&str>,
) -> String {
    let kind = stage_kind(stage);
    if base.stage_names.len() > MAX_STAGES_COMPARED {
        return format!(
            "to replace a `{kind}` stage, give it the name of the base's stage; or redeclare the whole table with its parameter list"
        );
    }
    let same_kind = || {
        base.stages
            .iter()
            .zip(&base.stage_names)
            .filter(|(s, _)| stage_kind(s) == kind)
    };
    let named: Vec<&str> = same_kind()
        .filter_map(|(_, n)| n.as_ref().map(|n| n.node.as_str()))
        .collect();
    let unnamed = same_kind().filter(|(_, n)| n.is_none()).count();
    let table = &base.name.node;
    if let Some(s) = name.and_then(|n| crate::suggest::closest(n, named.iter().copied())) {
        return format!("did you mean `{s}`?");
    }
    let whole = format!(
        "to change it, redeclare the whole table with its parameter list (`score {table}(…) {{ … }}`, every stage written out), or keep this stage as a new one"
    );
    match (named.is_empty(), unnamed) {
        (false, 0) => format!(
            "to replace a `{kind}` stage, name it as the base does: {}",
            named.join(", ")
        ),
        (false, _) => format!(
            "to replace a `{kind}` stage, name it as the base does: {}; the base's other `{kind}` stage is unnamed, so it cannot be replaced by name: {whole}",
            named.join(", ")
        ),
        (true, 0) => format!(
            "the base's `{table}` has no `{kind}` stage, so there is none to replace: if adding one is what you meant, this warning can be ignored"
        ),
        (true, _) => format!(
            "the base's `{kind}` stage is unnamed, so a variant cannot replace it stage by stage: {whole}"
        ),
    }
}

/// The keyword of a stage: only stages of one kind replace each other.
fn stage_kind(stage: &fuda_grammar::ast::Stage) -> &'static str {
    use fuda_grammar::ast::Stage;
    match stage {
        Stage::Yaku(..) => "yaku",
        Stage::Times(..) => "times",
        Stage::Plus(..) => "plus",
        Stage::Name(..) => "name",
        Stage::Void(..) => "void",
    }
}

/// The span of a stage's first word (`yaku`, `times`…), for labels.
fn stage_span(stage: &fuda_grammar::ast::Stage) -> Span {
    use fuda_grammar::ast::Stage;
    let (s, word) = match stage {
        Stage::Yaku(_, _, s) => (s, "yaku"),
        Stage::Times(_, _, s) => (s, "times"),
        Stage::Plus(_, _, s) => (s, "plus"),
        Stage::Name(_, s) => (s, "name"),
        Stage::Void(_, s) => (s, "void"),
    };
    let start = s.start as usize;
    Span::new(start, (start + word.len()).min(s.end as usize))
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
        Item::Display(..) => ("display", String::new()),
        Item::Def(d) => ("def", d.name.node.clone()),
        Item::Pattern(d) => ("pattern", d.name.node.clone()),
        Item::Score(d) => ("score", d.name.node.clone()),
        Item::Proc(d) => ("proc", d.name.node.clone()),
        Item::Words(d) => ("words", d.name.node.clone()),
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
        related: Vec::new(),
    }
}
