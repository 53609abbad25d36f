//! The tree builder's core: exact spans, reading a pair's children, the depth limit,
//! and tokens (numbers, strings, literals). `items`, `stmts` and `expr` build the rest.
//!
//! The grammar fixes the shape of every pair, so a shape we do not expect is a bug in
//! the builder; it is reported as a syntax error rather than a panic.

use pest::iterators::{Pair, Pairs};

use super::Rule;
use crate::ast::*;
use crate::error::{Problem, SyntaxErrorKind};
use crate::Span;

pub(super) type P<'i> = Pair<'i, Rule>;
pub(super) type R<T> = Result<T, Box<Problem>>;

/// How deep the syntax tree may grow. Each bracket, block and operator of a chain
/// counts one level; the limit keeps every recursive walk over the tree (ours, the
/// checker's, the compiler's, and `Drop`) far from the end of the stack.
pub const MAX_DEPTH: u32 = 256;

/// The byte span of a pair, without trailing blanks or comments.
///
/// pest skips whitespace before trying an optional or repeated tail (`suffix*`,
/// `(kw_when ~ expr)?`), and keeps it when the tail is absent, so a pair's raw end
/// may lie after blanks and comments. The real end is found by walking back from the
/// raw end over that trivia, in time proportional to the trivia and the last line of
/// code before it: the builder asks for the span of nearly every pair, so a walk
/// down the pair's last children (each step counting a child list) would make deep or
/// wide trees cost far more than their text.
pub(super) fn span(p: &P) -> Span {
    let s = p.as_span();
    let base = ITEM_START.get();
    Span::new(
        base + s.start(),
        base + real_end(s.get_input(), s.start(), s.end()),
    )
}

/// Where a pair starts in its file.
pub(super) fn start_of(p: &P) -> usize {
    ITEM_START.get() + p.as_span().start()
}

thread_local! {
    /// Where the text pest was given starts in its file: the parser hands pest one
    /// declaration at a time (see `parse.rs`), and pest counts positions from there.
    static ITEM_START: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Runs `f` with pest's positions counted from `at` in the file.
pub(super) fn from_offset<T>(at: usize, f: impl FnOnce() -> T) -> T {
    let outer = ITEM_START.replace(at);
    let out = f();
    ITEM_START.set(outer);
    out
}

/// The end of the text in `input[start..end]` once trailing blanks and comments are
/// left out; `start` is where a pair begins, so never inside a string or a comment.
fn real_end(input: &str, start: usize, end: usize) -> usize {
    let mut end = end;
    // A comment runs to the end of its line, so the last character before the raw end
    // can be inside one only when the raw end is the end of the input, or when a line
    // break lies between them.
    let mut may_be_comment = end == input.len();
    loop {
        let Some(before) = input.get(start..end) else {
            return end;
        };
        let Some(c) = before.chars().next_back() else {
            return end;
        };
        if is_blank(c) {
            may_be_comment |= c == '\n';
            end -= c.len_utf8();
            continue;
        }
        if !may_be_comment {
            return end;
        }
        let line_start = before.rfind('\n').map_or(start, |i| start + i + 1);
        match comment_start(&input[line_start..end]) {
            Some(at) => {
                end = line_start + at;
                may_be_comment = false;
            }
            None => return end,
        }
    }
}

/// Where a comment starts in `line` (a line, or its part from a token's start), read
/// as the grammar reads it: a `#` outside a string.
fn comment_start(line: &str) -> Option<usize> {
    let mut in_string = false;
    let mut chars = line.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => in_string = !in_string,
            '\\' if in_string => {
                chars.next();
            }
            '#' if !in_string => return Some(i),
            _ => {}
        }
    }
    None
}

fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n' | '\u{3000}' | ';')
}

/// A name as written.
pub(super) fn ident(p: P) -> Ident {
    Spanned::new(p.as_str().to_string(), span(&p))
}

/// A pair of a shape the grammar should never produce.
pub(super) fn bug(at: Span, wanted: &str) -> Box<Problem> {
    Problem::new(
        SyntaxErrorKind::Unexpected,
        at,
        format!("the parser could not read this (it looked for {wanted}); this is a bug in fuda"),
        "here",
    )
}

/// True for the keyword tokens, which mark constructs but carry no data of their own
/// except where a caller asks for one by rule.
pub(super) fn is_kw(r: Rule) -> bool {
    use Rule::*;
    matches!(
        r,
        kw_all
            | kw_and
            | kw_answer
            | kw_as
            | kw_aside
            | kw_attribute
            | kw_best
            | kw_bool
            | kw_break
            | kw_decline
            | kw_by
            | kw_card
            | kw_cards
            | kw_choose
            | kw_claim
            | kw_continue
            | kw_cut
            | kw_deal
            | kw_display
            | kw_dealer
            | kw_deck
            | kw_def
            | kw_distinct
            | kw_draw
            | kw_each
            | kw_edit
            | kw_else
            | kw_enum
            | kw_expect
            | kw_extends
            | kw_false
            | kw_first
            | kw_for
            | kw_from
            | kw_gather
            | kw_group
            | kw_hidden
            | kw_highest
            | kw_if
            | kw_import
            | kw_in
            | kw_int
            | kw_is
            | kw_largest
            | kw_ledger
            | kw_let
            | kw_loop
            | kw_lowest
            | kw_move
            | kw_name
            | kw_not
            | kw_or
            | kw_outcome
            | kw_over
            | kw_owner
            | kw_param
            | kw_pattern
            | kw_pay
            | kw_per_seat
            | kw_per_card
            | kw_pile
            | kw_plus
            | kw_priority
            | kw_proc
            | kw_public
            | kw_record
            | kw_repeat
            | kw_require
            | kw_return
            | kw_reveal
            | kw_ruleset
            | kw_run
            | kw_same
            | kw_say
            | kw_tally
            | kw_score
            | kw_seat
            | kw_seats
            | kw_set
            | kw_shared
            | kw_shuffle
            | kw_stack
            | kw_tags
            | kw_test
            | kw_then
            | kw_times
            | kw_to
            | kw_top
            | kw_true
            | kw_var
            | kw_void
            | kw_when
            | kw_where
            | kw_while
            | kw_with
            | kw_word
            | kw_words
            // Not reserved, but a keyword where it stands (`wild 鬼`).
            | wild_word
            | kw_yaku
            | kw_zone
    )
}

/// The children of a pair, taken in order by rule.
pub(super) struct Kids<'i> {
    it: Pairs<'i, Rule>,
    parent: Span,
}

impl<'i> Kids<'i> {
    pub(super) fn of(p: P<'i>) -> Self {
        let parent = span(&p);
        Kids {
            it: p.into_inner(),
            parent,
        }
    }

    /// The next child if it is `rule`, skipping keyword tokens before it.
    pub(super) fn opt(&mut self, rule: Rule) -> Option<P<'i>> {
        let mut look = self.it.clone();
        for p in look.by_ref() {
            if p.as_rule() == rule {
                self.it = look;
                return Some(p);
            }
            if !is_kw(p.as_rule()) {
                return None;
            }
        }
        None
    }

    /// The next child, which the grammar guarantees is `rule`.
    pub(super) fn need(&mut self, rule: Rule) -> R<P<'i>> {
        self.opt(rule)
            .ok_or_else(|| bug(self.parent, &format!("{rule:?}")))
    }

    /// Every following child that is `rule`.
    pub(super) fn all(&mut self, rule: Rule) -> Vec<P<'i>> {
        std::iter::from_fn(|| self.opt(rule)).collect()
    }

    /// The next child that is not a keyword token.
    pub(super) fn next(&mut self) -> Option<P<'i>> {
        self.it.by_ref().find(|p| !is_kw(p.as_rule()))
    }
}

/// Builds the tree; tracks how deep the node being built sits.
pub(super) struct Builder {
    depth: u32,
}

impl Builder {
    pub(super) fn new() -> Self {
        Builder { depth: 0 }
    }

    /// Goes `n` levels deeper (children of a node, or the operands of an `n`-operator
    /// chain), failing past [`MAX_DEPTH`]. Every recursive call into a child goes
    /// through here, so the builder's own recursion is bounded too. An error ends the
    /// whole build, so only the success path needs [`Builder::leave`].
    pub(super) fn enter(&mut self, n: usize, at: Span) -> R<()> {
        self.depth = self
            .depth
            .saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
        if self.depth <= MAX_DEPTH {
            return Ok(());
        }
        Err(Problem::new(
            SyntaxErrorKind::TooDeep,
            at,
            format!("this is nested too deeply: more than {MAX_DEPTH} levels"),
            "too deep here",
        )
        .help("nesting counts brackets, blocks and every operator of a chain; take part of it out into a `let` or a `def`"))
    }

    pub(super) fn leave(&mut self, n: usize) {
        self.depth = self
            .depth
            .saturating_sub(u32::try_from(n).unwrap_or(u32::MAX));
    }

    // ───────────────────────── tokens ─────────────────────────

    /// A literal in a declaration: `3`, `-1`, `true`, `"text"`, `光`.
    pub(super) fn literal(&mut self, p: P) -> R<Spanned<Literal>> {
        let at = span(&p);
        let lit = match p.as_rule() {
            Rule::int | Rule::neg_int => Literal::Int(self.int(p)?.node),
            Rule::bool_lit => Literal::Bool(first_child(p)?.as_rule() == Rule::kw_true),
            Rule::string => Literal::Str(self.string(p)?.node),
            Rule::name => Literal::Name(p.as_str().to_string()),
            _ => return Err(bug(at, "a literal")),
        };
        Ok(Spanned::new(lit, at))
    }

    /// An integer token (`int` or `neg_int`); too large a number is a syntax error.
    pub(super) fn int(&mut self, p: P) -> R<Spanned<i64>> {
        let at = span(&p);
        let text = p.as_str();
        text.parse::<i64>()
            .map(|n| Spanned::new(n, at))
            .map_err(|_| number_too_large(text, at))
    }

    /// A string token, unescaped; its span includes the quotes.
    pub(super) fn string(&mut self, p: P) -> R<Spanned<String>> {
        let at = span(&p);
        let inner = first_child(p)?;
        let start = start_of(&inner);
        Ok(Spanned::new(unescape(inner.as_str(), start)?, at))
    }
}

/// The only (or first) child of a pair.
pub(super) fn first_child(p: P) -> R<P> {
    let at = span(&p);
    p.into_inner().next().ok_or_else(|| bug(at, "a child"))
}

pub(super) fn number_too_large(text: &str, at: Span) -> Box<Problem> {
    let shown: String = if text.chars().count() > 24 {
        text.chars().take(20).chain("…".chars()).collect()
    } else {
        text.into()
    };
    Problem::new(
        SyntaxErrorKind::NumberTooLarge,
        at,
        format!("the number `{shown}` is too large"),
        "does not fit in 64 bits",
    )
    .help(format!(
        "numbers must lie between {} and {}",
        i64::MIN,
        i64::MAX
    ))
}

/// Resolves `\"`, `\\` and `\n`; any other escape is an error at its position.
fn unescape(raw: &str, start: usize) -> R<String> {
    if !raw.contains('\\') {
        return Ok(raw.to_string());
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.char_indices();
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some((_, '"')) => out.push('"'),
            Some((_, '\\')) => out.push('\\'),
            Some((_, 'n')) => out.push('\n'),
            other => {
                let end = other.map_or(i + 1, |(j, c)| j + c.len_utf8());
                let shown = match other {
                    Some((_, '\n' | '\r')) | None => "\\ at the end of a line".to_string(),
                    Some((_, c)) => format!("`\\{c}`"),
                };
                return Err(Problem::new(
                    SyntaxErrorKind::BadEscape,
                    Span::new(start + i, start + end),
                    format!("unknown escape {shown} in a string"),
                    "not an escape fuda knows",
                )
                .help(
                    "a string may use `\\\"`, `\\\\` and `\\n`; write any other character as it is",
                ));
            }
        }
    }
    Ok(out)
}
