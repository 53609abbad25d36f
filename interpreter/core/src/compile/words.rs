//! Word lists: `words 熟語 { 一石 二鳥 }` and `words 熟語 from "jukugo.txt"`, and the
//! predicate `word(熟語, cards, kanji)`. A list is compiled once for each attribute it
//! is spelled with, into the sorted symbol ids of every multiset of values that spells
//! one of its words (`ir::WordIndex`), so the test at run time is a sort and a search.

use std::collections::{BTreeMap, HashMap, HashSet};

use fuda_grammar::ast::{self, ExprKind, Item, WordsSource};
use fuda_grammar::Span;

use super::expr::Scope;
use super::{Compiler, Global};
use crate::diagnostic::Diagnostic;
use crate::ir::{Builtin, Expr, Loc, WordIndex, MAX_WORD_CARDS};
use crate::loader::{resolve_data, Resolved};
use crate::model::AttrKind;
use crate::value::{Type, Value};

/// Most words all the lists of one ruleset may hold together.
pub const MAX_WORDS: usize = 200_000;
/// Most characters in one word.
pub const MAX_WORD_CHARS: usize = MAX_WORD_CARDS;
/// Most list-and-attribute pairs one ruleset may spell with (each is an index).
const MAX_INDEXES: usize = 16;
/// Most different spellings kept for one word: values of several characters may spell
/// a word in several ways (`一` + `石` and `一石`).
const MAX_SPELLINGS: usize = 16;
/// Unspellable words named in a warning before "…".
const SHOWN: usize = 5;

/// A declared word list, before it is compiled for an attribute.
pub(crate) struct WordList {
    /// Its name.
    pub name: String,
    /// Its words, each once, with where each is written.
    pub words: Vec<(String, Loc)>,
}

/// Declares every word list and reads its words (from the declaration, or from the data
/// file the loader read). Runs after the deck, before every other declaration.
pub(super) fn declare_words(c: &mut Compiler, items: &[(u16, Item)]) {
    let mut limits = Limits::default();
    for (file, item) in items {
        let Item::Words(w) = item else { continue };
        let loc = Loc {
            file: *file,
            span: w.name.span,
        };
        let mut list = WordList {
            name: w.name.node.clone(),
            words: Vec::new(),
        };
        match &w.source {
            WordsSource::Inline(words) => {
                let words = words.iter().map(|x| {
                    (
                        x.node.as_str(),
                        Loc {
                            file: *file,
                            span: x.span,
                        },
                    )
                });
                add_words(c, &mut list, words, &mut limits);
            }
            WordsSource::File(path) => {
                if let Some(src) = data_source(c, &path.node) {
                    let text = c.program.sources[src as usize].text.clone();
                    let words = split_words(&text).map(|(at, word)| {
                        (
                            word,
                            Loc {
                                file: src,
                                span: Span::new(at, at + word.len()),
                            },
                        )
                    });
                    add_words(c, &mut list, words, &mut limits);
                }
            }
        }
        if list.words.is_empty() && !limits.too_many_reported {
            c.error(
                Diagnostic::error(
                    "fuda::empty-word-list",
                    format!("the word list `{}` has no words", list.name),
                    loc,
                    "empty",
                )
                .warning()
                .with_help(match &w.source {
                    WordsSource::Inline(_) => {
                        "write its words between the braces: `words 熟語 { 一石 二鳥 }`"
                    }
                    WordsSource::File(_) => {
                        "the file holds no words: one word a line; `#` starts a comment"
                    }
                }),
            );
        }
        let ix = c.word_lists.len() as u16;
        if c.declare(&w.name, *file, Global::Words(ix)) {
            c.word_lists.push(list);
        }
    }
}

/// Words read so far, against [`MAX_WORDS`].
#[derive(Default)]
struct Limits {
    total: usize,
    too_many_reported: bool,
}

/// Adds words to a list, each once, refusing those past the limits (reported once per
/// list for a word too long, once per ruleset past the total).
fn add_words<'t>(
    c: &mut Compiler,
    list: &mut WordList,
    words: impl Iterator<Item = (&'t str, Loc)>,
    limits: &mut Limits,
) {
    let mut seen: HashSet<String> = list.words.iter().map(|(w, _)| w.clone()).collect();
    let mut long_reported = false;
    for (word, at) in words {
        if limits.total >= MAX_WORDS {
            if !limits.too_many_reported {
                limits.too_many_reported = true;
                c.error(
                    Diagnostic::error(
                        "fuda::words-too-large",
                        format!("the word lists hold more than {MAX_WORDS} words"),
                        at,
                        format!("word {} is not read", MAX_WORDS + 1),
                    )
                    .with_help("keep only the words the deck can spell"),
                );
            }
            return;
        }
        let chars = word.chars().count();
        if chars > MAX_WORD_CHARS {
            if !long_reported {
                long_reported = true;
                c.error(
                    Diagnostic::error(
                        "fuda::words-too-large",
                        format!(
                            "a word of `{}` has {chars} characters: a word may have at most {MAX_WORD_CHARS}",
                            list.name
                        ),
                        at,
                        "too long",
                    )
                    .with_help(format!(
                        "a word is spelled by at most {MAX_WORD_CARDS} cards; remove it from the list"
                    )),
                );
            }
            continue;
        }
        limits.total += 1;
        if seen.insert(word.to_string()) {
            list.words.push((word.to_string(), at));
        }
    }
}

/// The source index of the data file `path` names, as the loader read it.
fn data_source(c: &Compiler, path: &str) -> Option<u16> {
    let key = match resolve_data(path).ok()? {
        Resolved::Std(n, _) => n.to_string(),
        Resolved::Local(p) => p,
    };
    c.data_files.get(&key).copied()
}

/// The words of a data file with their byte offsets: whitespace separates words (one a
/// line is usual) and `#` starts a comment that runs to the end of the line.
pub(crate) fn split_words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut offset = 0;
    text.split_inclusive('\n').flat_map(move |line| {
        let start = offset;
        offset += line.len();
        let body = match line.find('#') {
            Some(i) => &line[..i],
            None => line,
        };
        let mut words = Vec::new();
        let mut word_start = None;
        for (i, ch) in body.char_indices() {
            if ch.is_whitespace() || ch == '\u{feff}' {
                if let Some(s) = word_start.take() {
                    words.push((start + s, &body[s..i]));
                }
            } else if word_start.is_none() {
                word_start = Some(i);
            }
        }
        if let Some(s) = word_start {
            words.push((start + s, &body[s..]));
        }
        words
    })
}

impl Compiler {
    /// `word(LIST, cards, ATTR)`: whether the values of ATTR on the cards, joined in
    /// some order, spell a word of LIST.
    pub(crate) fn word_call(
        &mut self,
        sc: &mut Scope,
        args: &[ast::Arg],
        span: Span,
    ) -> (Expr, Type) {
        let loc = self.loc(sc, span);
        if args.len() != 3 {
            self.error(
                Diagnostic::error(
                    "fuda::arity",
                    format!(
                        "`word` takes 3 arguments (a word list, the cards, an attribute), found {}",
                        args.len()
                    ),
                    loc,
                    "wrong number of arguments",
                )
                .with_help(
                    "e.g. `word(熟語, g, kanji)`: whether the `kanji` values of the cards `g`, in some order, spell a word of `熟語`",
                ),
            );
            return (Expr::Const(Value::Unit), Type::Error);
        }
        let list = self.word_list_arg(sc, &args[0].value);
        let cards = self.expr_of(sc, &args[1].value, &Type::Cards);
        let attr = self.word_attr_arg(sc, &args[2].value);
        match (list, attr) {
            (Some(l), Some(a)) => match self.word_index(l, a, loc) {
                Some(ix) => (Expr::Call(Builtin::Word(ix), vec![cards], loc), Type::Bool),
                None => (Expr::Const(Value::Unit), Type::Error),
            },
            _ => (Expr::Const(Value::Unit), Type::Error),
        }
    }

    /// The word list named by `word`'s first argument.
    fn word_list_arg(&mut self, sc: &Scope, e: &ast::Expr) -> Option<u16> {
        let loc = self.loc(sc, e.span);
        let ExprKind::Name(n) = &e.node else {
            self.error(
                Diagnostic::error(
                    "fuda::unknown-name",
                    "`word` takes a word list's name first",
                    loc,
                    "not a word list's name",
                )
                .with_help("declare a list with `words NAME { … }` and name it here"),
            );
            return None;
        };
        match self.globals.get(n) {
            Some((Global::Words(ix), _)) => return Some(*ix),
            Some((g, _)) => {
                let what = g.describe();
                let help = self.word_lists_help(n);
                self.error(
                    Diagnostic::error(
                        "fuda::unknown-name",
                        format!("`{n}` is {what}, not a word list"),
                        loc,
                        "not a word list",
                    )
                    .with_help(help),
                );
                return None;
            }
            None => {}
        }
        if self.duplicated.contains(n) || sc.quiet_unknown {
            return None;
        }
        let help = self.word_lists_help(n);
        self.error(
            Diagnostic::error(
                "fuda::unknown-name",
                format!("unknown word list `{n}`"),
                loc,
                "not declared",
            )
            .with_help(help),
        );
        None
    }

    /// "did you mean", or the lists there are, or how to declare one.
    fn word_lists_help(&mut self, n: &str) -> String {
        let names: Vec<&str> = self.word_lists.iter().map(|l| l.name.as_str()).collect();
        if let Some(s) = super::closest_within(&mut self.suggest_budget, n, names.iter().copied()) {
            return format!("did you mean `{s}`?");
        }
        if names.is_empty() {
            "declare it: `words NAME { 一石 二鳥 }`, or `words NAME from \"words.txt\"` for a file of one word a line".to_string()
        } else {
            format!("the word lists: {}", names.join(", "))
        }
    }

    /// The symbol attribute named by `word`'s last argument.
    fn word_attr_arg(&mut self, sc: &Scope, e: &ast::Expr) -> Option<u16> {
        let named = match &e.node {
            ExprKind::Name(n) => self.program.deck.attr_named(n),
            _ => None,
        };
        let Some(a) = named else {
            // Reports the unknown attribute, with a did-you-mean.
            self.attr_arg(sc, e);
            return None;
        };
        let attr = &self.program.deck.attrs[a as usize];
        if !matches!(attr.kind, AttrKind::Symbols(_)) {
            let symbols: Vec<&str> = self
                .program
                .deck
                .attrs
                .iter()
                .filter(|a| matches!(a.kind, AttrKind::Symbols(_)))
                .map(|a| a.name.as_str())
                .collect();
            let name = attr.name.clone();
            self.error(
                Diagnostic::error(
                    "fuda::type-mismatch",
                    format!("`{name}` holds numbers: words are spelled with a symbol attribute"),
                    self.loc(sc, e.span),
                    "an int attribute",
                )
                .with_help(if symbols.is_empty() {
                    "declare an attribute of symbols, e.g. `attribute kanji: 一 | 石 | 二 | 鳥`"
                        .to_string()
                } else {
                    format!("the deck's symbol attributes: {}", symbols.join(", "))
                }),
            );
            return None;
        }
        Some(a)
    }

    /// The index of `list` spelled with `attr`, compiled on first use; `at` is the call
    /// that asked, for the warning about words the deck cannot spell.
    fn word_index(&mut self, list: u16, attr: u16, at: Loc) -> Option<u16> {
        if let Some(ix) = self.word_indexes.get(&(list, attr)) {
            return Some(*ix);
        }
        if self.program.words.len() >= MAX_INDEXES {
            self.error(
                Diagnostic::error(
                    "fuda::too-large",
                    format!(
                        "word lists are spelled with more than {MAX_INDEXES} attributes in all"
                    ),
                    at,
                    "one more",
                )
                .with_help("spell each list with one attribute"),
            );
            return None;
        }
        let deck = &self.program.deck;
        let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
        for v in &deck.attrs[attr as usize].values {
            *counts.entry(*v as u32).or_default() += 1;
        }
        let speller = Speller::new(
            counts
                .keys()
                .map(|id| (self.program.symbols[*id as usize].as_str(), *id)),
        );
        let wl = &self.word_lists[list as usize];
        let mut keys: Vec<Vec<u32>> = Vec::new();
        let mut unspellable: Vec<&(String, Loc)> = Vec::new();
        for entry in &wl.words {
            let before = keys.len();
            for mut spelling in speller.spellings(&entry.0) {
                spelling.sort_unstable();
                let fits = spelling
                    .chunk_by(|a, b| a == b)
                    .all(|run| counts.get(&run[0]).is_some_and(|n| run.len() <= *n));
                if fits {
                    keys.push(spelling);
                }
            }
            if keys.len() == before {
                unspellable.push(entry);
            }
        }
        let warning = (!unspellable.is_empty()).then(|| {
            let attr_name = &deck.attrs[attr as usize].name;
            let shown: Vec<&str> = unspellable
                .iter()
                .take(SHOWN)
                .map(|(w, _)| w.as_str())
                .collect();
            let more = if unspellable.len() > SHOWN { ", …" } else { "" };
            Diagnostic::error(
                "fuda::unspellable-words",
                format!(
                    "{} of the {} words of `{}` cannot be spelled with the cards' `{attr_name}` values: {}{more}",
                    unspellable.len(),
                    wl.words.len(),
                    wl.name,
                    shown.join(", ")
                ),
                unspellable[0].1,
                "no cards spell this",
            )
            .with_label(at, format!("spelled with `{attr_name}` here"))
            .warning()
            .with_help(format!(
                "a word is spelled by cards whose `{attr_name}` values, joined in some order, make it, each value used as often as the deck has cards with it; these words can never be found"
            ))
        });
        keys.sort_unstable();
        keys.dedup();
        let longest = keys.iter().map(Vec::len).max().unwrap_or(0);
        let mut by_len: Vec<Vec<u32>> = vec![Vec::new(); longest + 1];
        for k in keys {
            by_len[k.len()].extend(k);
        }
        let index = WordIndex {
            list: wl.name.clone(),
            attr,
            keys: by_len.into_iter().map(Vec::into_boxed_slice).collect(),
        };
        if let Some(w) = warning {
            self.error(w);
        }
        let ix = self.program.words.len() as u16;
        self.program.words.push(index);
        self.word_indexes.insert((list, attr), ix);
        Some(ix)
    }
}

/// Splits words into attribute values: every value's text, and every proper prefix of
/// one, so a walk along a word stops as soon as no value can start there.
struct Speller<'a> {
    values: HashMap<&'a str, u32>,
    prefixes: HashSet<&'a str>,
}

impl<'a> Speller<'a> {
    fn new(values: impl Iterator<Item = (&'a str, u32)>) -> Speller<'a> {
        let mut s = Speller {
            values: HashMap::new(),
            prefixes: HashSet::new(),
        };
        for (text, id) in values {
            s.values.insert(text, id);
            for (i, _) in text.char_indices().skip(1) {
                s.prefixes.insert(&text[..i]);
            }
        }
        s
    }

    /// The values that start at byte `i` of `word`, with where each ends.
    fn starting_at(&self, word: &str, i: usize) -> Vec<(usize, u32)> {
        let mut out = Vec::new();
        let rest = &word[i..];
        for (j, ch) in rest.char_indices() {
            let piece = &rest[..j + ch.len_utf8()];
            if let Some(id) = self.values.get(piece) {
                out.push((i + piece.len(), *id));
            }
            if !self.prefixes.contains(piece) {
                break;
            }
        }
        out
    }

    /// Up to [`MAX_SPELLINGS`] ways to cut `word` into values, each as the values' ids.
    /// Work is bounded: positions from which the word cannot be finished are found first,
    /// so the search never follows a dead end.
    fn spellings(&self, word: &str) -> Vec<Vec<u32>> {
        if self.prefixes.is_empty() {
            // Every value is one character (the usual kanji deck): one cut at most.
            let mut buf = [0u8; 4];
            let ids: Option<Vec<u32>> = word
                .chars()
                .map(|ch| self.values.get(&*ch.encode_utf8(&mut buf)).copied())
                .collect();
            return ids.filter(|ids| !ids.is_empty()).into_iter().collect();
        }
        let n = word.len();
        let starts: Vec<usize> = word.char_indices().map(|(i, _)| i).collect();
        let mut next: HashMap<usize, Vec<(usize, u32)>> = HashMap::new();
        let mut finishes = vec![false; n + 1];
        finishes[n] = true;
        for &i in starts.iter().rev() {
            let steps: Vec<(usize, u32)> = self
                .starting_at(word, i)
                .into_iter()
                .filter(|(end, _)| finishes[*end])
                .collect();
            finishes[i] = !steps.is_empty();
            next.insert(i, steps);
        }
        let mut out = Vec::new();
        if n == 0 || !finishes[0] {
            return out;
        }
        let mut path = Vec::new();
        self.walk(0, n, &next, &mut path, &mut out);
        out
    }

    fn walk(
        &self,
        at: usize,
        n: usize,
        next: &HashMap<usize, Vec<(usize, u32)>>,
        path: &mut Vec<u32>,
        out: &mut Vec<Vec<u32>>,
    ) {
        if out.len() >= MAX_SPELLINGS {
            return;
        }
        if at == n {
            out.push(path.clone());
            return;
        }
        for (end, id) in next.get(&at).map(Vec::as_slice).unwrap_or(&[]) {
            path.push(*id);
            self.walk(*end, n, next, path, out);
            path.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn speller(values: &[&'static str]) -> Speller<'static> {
        Speller::new(values.iter().enumerate().map(|(i, v)| (*v, i as u32)))
    }

    #[test]
    fn words_split_into_single_character_values() {
        let s = speller(&["一", "石", "人", "々"]);
        assert_eq!(s.spellings("一石"), vec![vec![0, 1]]);
        assert_eq!(s.spellings("人々"), vec![vec![2, 3]]);
        assert!(s.spellings("鳥").is_empty());
        assert!(s.spellings("").is_empty());
    }

    #[test]
    fn values_of_several_characters_give_every_cut() {
        let s = speller(&["一", "石", "一石", "鳥"]);
        let mut cuts = s.spellings("一石鳥");
        cuts.sort();
        assert_eq!(cuts, vec![vec![0, 1, 3], vec![2, 3]]);
    }

    #[test]
    fn the_search_is_bounded_on_hostile_values() {
        let values: Vec<String> = (1..=32).map(|k| "a".repeat(k)).collect();
        let refs: Vec<&str> = values.iter().map(String::as_str).collect();
        let s = Speller::new(refs.iter().enumerate().map(|(i, v)| (*v, i as u32)));
        assert_eq!(s.spellings(&"a".repeat(32)).len(), MAX_SPELLINGS);
        // A dead end at the last character is found without trying every cut.
        assert!(s.spellings(&format!("{}b", "a".repeat(31))).is_empty());
    }

    #[test]
    fn data_files_split_on_blanks_and_drop_comments() {
        let text = "# 熟語\n一石\n\n二鳥  # a comment\n\u{3000}人々 日日\r\n";
        let words: Vec<(usize, &str)> = split_words(text).collect();
        let shown: Vec<&str> = words.iter().map(|(_, w)| *w).collect();
        assert_eq!(shown, ["一石", "二鳥", "人々", "日日"]);
        for (at, w) in words {
            assert_eq!(&text[at..at + w.len()], w);
        }
    }
}
