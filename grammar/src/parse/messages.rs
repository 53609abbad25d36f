//! Turns pest's failures into plain words: "expected an expression, found `}`".
//!
//! pest reports the grammar rules it tried at the furthest position, and (with error
//! detail on) the literal tokens it tried. Rule names mean nothing to a rule author, so
//! each is translated into what it looks like ("a name", "`{`", "a statement"); operator
//! continuations ("`+`", "`.`", …) are dropped when something more telling is expected.

use std::collections::BTreeSet;

use pest::error::{Error, ErrorVariant, InputLocation};

use super::build::is_kw;
use super::limits::{pair_of, Scan};
use super::Rule;
use crate::error::{Problem, SyntaxErrorKind};
use crate::Span;

/// What one expected rule or token reads as.
#[derive(Clone, PartialEq, Eq)]
enum Want {
    /// An operator or suffix that could continue what came before.
    Continuation,
    /// Something that starts a statement, as words (`let`, or "a statement").
    Statement(String),
    /// Something that starts a top-level declaration, as words.
    Declaration(String),
    /// Anything that starts an expression.
    Expression,
    /// A description: "a name", "`{`".
    Words(String),
    /// Nothing worth saying (whitespace, comments, internal rules).
    Nothing,
}

/// Converts a pest error into a problem with a message, a label and, where a likely
/// fix is known, help.
/// `e` is pest's error for the text of `src` from `offset` on.
pub(super) fn from_pest(e: &Error<Rule>, src: &str, scan: &Scan, offset: usize) -> Box<Problem> {
    let rule_pos = offset
        + match e.location {
            InputLocation::Pos(p) => p,
            InputLocation::Span((s, _)) => s,
        };
    let positives = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => positives.clone(),
        ErrorVariant::CustomError { .. } => {
            // pest's own stack or call guard tripped: only pathological nesting gets here.
            let at = found(src, rule_pos).span;
            return Problem::new(
                SyntaxErrorKind::TooDeep,
                at,
                "this is nested too deeply for the parser",
                "too deep around here",
            )
            .help("take the inner part out into a `let` or a `def`");
        }
    };
    if let Some(problem) = unclosed_string(src, rule_pos) {
        return problem;
    }

    // Literal tokens are tracked separately and may lie further on than any rule (a
    // missing `=` fails on a literal after the rules before it succeeded). Further-on
    // tokens that say nothing (more digits after `1` in `1a`) give way to the rules.
    let attempts = e.parse_attempts();
    let token_pos = attempts.as_ref().map_or(0, |a| offset + a.max_position);
    let tokens = |only_tokens: bool| -> Vec<Want> {
        let Some(a) = attempts.as_ref() else {
            return Vec::new();
        };
        // pest does not export its token type; a case-sensitive literal prints as itself.
        a.expected_tokens()
            .iter()
            .map(|t| describe_token(&t.to_string(), only_tokens))
            .collect()
    };
    let rules = || {
        positives
            .iter()
            .map(|r| describe_rule(*r))
            .collect::<Vec<_>>()
    };
    let further = (token_pos > rule_pos)
        .then(|| summarise(tokens(true)))
        .flatten();
    let (pos, expected) = match further {
        Some(x) => (token_pos, Some(x)),
        None if token_pos == rule_pos => (
            rule_pos,
            summarise(rules().into_iter().chain(tokens(false)).collect()),
        ),
        None => (rule_pos, summarise(rules())),
    };

    let f = found(src, pos);
    let message = match &expected {
        Some(x) => format!("expected {x}, found {}", f.words),
        None => format!("unexpected {}", f.words),
    };
    // miette does not draw a label at the very end of the source, so an error at the
    // end is labelled on the last character of text before it.
    let (at, after) = match f.at_end.then(|| last_char(src)).flatten() {
        Some(last) => (last, " after this"),
        None => (f.span, ""),
    };
    let label = match &expected {
        Some(x) => format!("expected {x}{after}"),
        None => "not expected here".to_string(),
    };
    let mut problem = Problem::new(SyntaxErrorKind::Unexpected, at, message, label);
    let expects = |s: &str| expected.as_deref().is_some_and(|x| x.contains(s));

    if let Some(missing) = missing_brace(src, scan, &f, at) {
        return missing;
    }
    if f.at_end {
        if let Some(&(at, open)) = scan.unclosed.last() {
            problem = problem
                .related(
                    Span::new(at, at + 1),
                    format!("this `{open}` is never closed"),
                )
                .help(format!("add the missing `{}`", pair_of(open)));
        }
    } else if let Some(&(at, open)) = scan
        .unclosed
        .iter()
        .rev()
        .find(|(at, _)| *at < f.span.start as usize)
        .filter(|_| f.keyword && expects("`}`") && DECLARATION_WORDS.contains(&f.text.as_str()))
    {
        // A declaration keyword where a block's `}` could come: the block above was
        // most likely left open (its `}` forgotten), and the file still has a bracket
        // open at its end. The mistake is at that block, so it is reported there; the
        // keyword, where parsing failed, is the second label.
        let close = pair_of(open);
        let line = src
            .get(..f.span.start as usize)
            .map_or(0, |before| before.matches('\n').count())
            + 1;
        problem = Problem::new(
            SyntaxErrorKind::Unexpected,
            Span::new(at, at + 1),
            format!(
                "this `{open}` is never closed: `{}` comes before its `{close}`",
                f.text
            ),
            "never closed",
        )
        .related(f.span, format!("expected `{close}` before this"))
        .help(format!(
            "add the missing `{close}` before `{}` (line {line})",
            f.text
        ));
    } else if scan.stray == Some(f.span.start as usize) {
        problem = problem.help(format!(
            "this `{}` has no matching opening bracket; remove it or add the opener",
            f.text
        ));
    } else if f.keyword && expects("a name") {
        problem = problem.help(format!(
            "`{}` is a reserved word and cannot be a name; choose another name",
            f.text
        ));
    } else if looks_like_card_id(&f.text) {
        problem =
            problem.help("write card ids inside `cards(…)` or `card(…)`, e.g. `card(1-crane)`");
    } else if f.text == "=" && (expects("`{`") || expects("`then`") || expects("an operator")) {
        problem = problem.help("to compare two values, write `==`");
    } else if f.keyword && expects("a declaration") && STATEMENT_WORDS.contains(&f.text.as_str()) {
        problem = problem.help("statements belong inside a `proc` or `test` block");
    } else if let Some(digits) = half_width(&f.text) {
        problem = problem.help(format!("full-width digits are not numbers: write {digits}"));
    } else if let Some((span, word, kw)) = misspelt_keyword(src, f.span.start as usize) {
        // The word is labelled unless it is the token the failure already points at.
        if span != f.span {
            problem = problem.related(span, format!("`{word}` is not a keyword"));
        }
        problem = problem.help(format!("`{word}` is not a keyword: did you mean `{kw}`?"));
    }
    problem
}

/// A `}` forgotten: the file ends with a `{` still open, and the parser failed after it.
/// Whatever the parser expected where it failed (a `move`, a `to`, a statement…), the
/// mistake is the missing `}`, so it is reported at the `{` that was never closed, with
/// where the parser noticed as the second label. Which `{` that is, the indentation
/// tells: the first `}` that closes a block indented deeper than itself was meant for an
/// outer block, so the block it closed is the one missing its `}`. Without such a sign,
/// it is the innermost `{` still open at the end before the failure.
fn missing_brace(src: &str, scan: &Scan, f: &Found, noticed: Span) -> Option<Box<Problem>> {
    let failed_at = f.span.start as usize;
    // Only braces left open, and no bracket closed by another kind's closer: otherwise
    // the `{` may be open because of a `(` or `[` (`expect (1 + 2 }`).
    if scan.unclosed.iter().any(|(_, c)| *c != '{') || scan.mismatched.is_some() {
        return None;
    }
    let open_braces = || scan.unclosed.iter();
    open_braces().next()?;
    let (open, closer) = match scan.misaligned.filter(|(open, _)| *open < failed_at) {
        Some((open, closer)) => (open, Some(closer)),
        None => (open_braces().rev().find(|(at, _)| *at < failed_at)?.0, None),
    };
    let line_of = |at: usize| src[..at.min(src.len())].matches('\n').count() + 1;
    let block = match block_word(src, open) {
        Some(word) => format!("the `{{` of `{word}` on line {}", line_of(open)),
        None => format!("the `{{` on line {}", line_of(open)),
    };
    let help = match (block_end(src, open), closer) {
        (Some(last), _) => format!(
            "add the missing `}}` after line {last}: by the indentation, the block of line {} \
             ends there",
            line_of(open)
        ),
        (None, Some(closer)) => format!(
            "add the missing `}}` before line {}: the `}}` there is indented like an outer \
             block, so it closes that one",
            line_of(closer)
        ),
        (None, None) if f.at_end => "add the missing `}` at the end of its block".to_string(),
        (None, None) => format!(
            "add the missing `}}` at the end of its block, before {} (line {})",
            f.words,
            line_of(failed_at)
        ),
    };
    let noticed_label = if f.at_end {
        "the file ends with it still open".to_string()
    } else {
        format!("the parser noticed here, at {}", f.words)
    };
    Some(
        Problem::new(
            SyntaxErrorKind::Unexpected,
            Span::new(open, open + 1),
            format!("missing `}}`: {block} is never closed"),
            "this `{` is never closed",
        )
        .related(noticed, noticed_label)
        .help(help),
    )
}

/// Where the block whose `{` is at `open` ends by its indentation: the 1-based number of
/// its last line with text (not a comment) before the first such line indented no
/// deeper than the line of the `{`. `None` when no line is (the block runs to the end of
/// the file) or the block has no indented line (its lines say nothing).
fn block_end(src: &str, open: usize) -> Option<usize> {
    let (indent, _) = super::limits::indentation(src, open);
    let open_line = src[..open].matches('\n').count() + 1;
    let mut last = None;
    for (i, line) in src[open..].split('\n').enumerate().skip(1) {
        let text = line.trim_start_matches([' ', '\t', '\u{3000}']);
        if text.trim().is_empty() || text.starts_with('#') {
            continue;
        }
        let (depth, _) = super::limits::indentation(line, line.len() - text.len());
        if depth <= indent {
            return last;
        }
        last = Some(open_line + i);
    }
    None
}

/// The keyword that opens the block whose `{` is at `open`: the first word of its line,
/// when that is a keyword (`if`, `choose`, `yaku`…), for saying which block it is.
fn block_word(src: &str, open: usize) -> Option<&'static str> {
    let line_start = src[..open].rfind('\n').map_or(0, |i| i + 1);
    let line = src[line_start..open].trim_start_matches([' ', '\t', '\u{3000}']);
    let word: String = line
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    BLOCK_WORDS.iter().find(|w| **w == word).copied()
}

/// Keywords that open a block with `{`.
const BLOCK_WORDS: &[&str] = &[
    "if", "else", "while", "loop", "for", "repeat", "choose", "claim", "move", "deck", "seats",
    "pattern", "score", "proc", "test", "yaku", "times", "plus", "words", "enum", "ruleset",
];

/// `１２` as `12`, when the found token is made of full-width digits (an IME's habit).
fn half_width(text: &str) -> Option<String> {
    let digits: Option<String> = text
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32),
            _ => None,
        })
        .collect();
    digits.filter(|d| !d.is_empty())
}

/// A word that starts a line, statement or block and is one slip away from a keyword
/// that could start one there (`repaet 3 { … }`, `parm n: int = 1`): the word at the
/// failure, or the one just before it on the same line. Returns its span, the word
/// and the keyword.
fn misspelt_keyword(src: &str, pos: usize) -> Option<(Span, String, &'static str)> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let pos = pos.min(src.len());
    let word_at = |start: usize| -> (usize, usize) {
        let end = src[start..]
            .char_indices()
            .find(|(_, c)| !is_word(*c))
            .map_or(src.len(), |(i, _)| start + i);
        (start, end)
    };
    let here = word_at(pos);
    let before = src[..pos].trim_end_matches([' ', '\t', '\u{3000}']);
    let prev_start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word(*c))
        .last()
        .map(|(i, _)| i);
    let candidates = [Some(here), prev_start.map(|s| (s, before.len()))];
    candidates.into_iter().flatten().find_map(|(start, end)| {
        let word = &src[start..end];
        let lead = src[..start].trim_end_matches([' ', '\t', '\u{3000}', '\r']);
        let starts = lead.is_empty() || lead.ends_with(['\n', '{', '}', ';']);
        if word.is_empty() || !starts || LEADING_WORDS.contains(&word) {
            return None;
        }
        closest_keyword(word).map(|kw| (Span::new(start, end), word.to_string(), kw))
    })
}

/// Keywords that start a statement or a declaration.
const LEADING_WORDS: &[&str] = &[
    "let", "if", "while", "loop", "for", "repeat", "return", "break", "continue", "decline",
    "move", "shuffle", "cut", "deal", "gather", "choose", "claim", "pay", "outcome", "record",
    "reveal", "say", "expect", "tally", "answer", "require", "ruleset", "extends", "import",
    "deck", "param", "seats", "zone", "var", "enum", "cards", "ledger", "display", "def",
    "pattern", "score", "proc", "test", "words",
];

/// The leading keyword closest to `word`, if it is a likely slip: at most a third of
/// its letters changed (a swap of two neighbours counts as one).
fn closest_keyword(word: &str) -> Option<&'static str> {
    let w: Vec<char> = word.chars().collect();
    let limit = (w.len() / 3).max(1);
    LEADING_WORDS
        .iter()
        .map(|k| {
            (
                crate::distance::edit_distance(&w, &k.chars().collect::<Vec<_>>()),
                *k,
            )
        })
        .filter(|(d, _)| *d <= limit && *d < w.len())
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// Joins what was expected into words, or `None` when nothing useful was recorded.
fn summarise(wants: Vec<Want>) -> Option<String> {
    let count = |f: fn(&Want) -> bool| wants.iter().filter(|w| f(w)).count();
    // Three or more statement (declaration) starts mean "any statement" was possible.
    let statement = count(|w| matches!(w, Want::Statement(_))) >= 3
        || wants
            .iter()
            .any(|w| matches!(w, Want::Statement(d) if d == "a statement"));
    let declaration = count(|w| matches!(w, Want::Declaration(_))) >= 3
        || wants
            .iter()
            .any(|w| matches!(w, Want::Declaration(d) if d == "a declaration"));
    let expression = wants.contains(&Want::Expression);
    // Class 0 sorts first: categories read before single tokens ("a statement or `}`").
    let mut words: BTreeSet<(u8, String)> = BTreeSet::new();
    let add = |words: &mut BTreeSet<(u8, String)>, s: &str| {
        words.insert((u8::from(s.starts_with('`')), s.to_string()));
    };
    for w in &wants {
        match w {
            // An expression already covers its own first tokens and names.
            Want::Words(s)
                if expression && matches!(s.as_str(), "a name" | "a number" | "a string") => {}
            Want::Words(s) => add(&mut words, s),
            // `if`, `move` or `cards` also start expressions or options: said already.
            Want::Statement(s) if !statement && !expression => add(&mut words, s),
            Want::Declaration(s) if !declaration && !expression => add(&mut words, s),
            _ => {}
        }
    }
    if statement {
        add(&mut words, "a statement");
        words.remove(&(0, "a name".to_string()));
    }
    if declaration {
        words.remove(&(0, "the end of the file".to_string()));
        add(
            &mut words,
            "a declaration (`deck`, `zone`, `var`, `proc`, `score`, `test`, …)",
        );
    }
    if expression {
        add(&mut words, "an expression");
    }
    // A range's `..` may follow any comparison's right side, but is refused after all
    // but `in`: it is named only when nothing else could come.
    if words.len() > 1 {
        words.remove(&(1, "`..`".to_string()));
    }
    if words.is_empty() {
        return wants
            .contains(&Want::Continuation)
            .then(|| "an operator".to_string());
    }
    let mut list: Vec<String> = words.into_iter().map(|(_, s)| s).collect();
    if list.len() > 6 {
        list.truncate(5);
        list.push("…".to_string());
    }
    Some(match list.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    })
}

/// Keywords that start top-level declarations: one found inside a block means the
/// block was left open.
/// (`cards` is left out: it is also the builtin `cards(…)`.)
const DECLARATION_WORDS: &[&str] = &[
    "ruleset", "extends", "import", "deck", "param", "seats", "zone", "var", "enum", "ledger",
    "display", "def", "pattern", "score", "proc", "test", "words",
];

/// Keywords that start statements (for collapsing them into "a statement").
const STATEMENT_WORDS: &[&str] = &[
    "let", "if", "while", "loop", "for", "repeat", "return", "break", "continue", "decline",
    "move", "shuffle", "cut", "deal", "gather", "choose", "claim", "pay", "outcome", "record",
    "reveal", "say", "expect",
];

fn describe_rule(r: Rule) -> Want {
    use Rule::*;
    use Want::*;
    match r {
        EOI => Words("the end of the file".into()),
        file | rest | first_item | next_item | ruleset_decl | extends_decl | import_decl
        | deck_decl | param_decl | seats_decl | zone_decl | var_decl | enum_decl | cards_decl
        | ledger_decl | display_decl | def_decl | pattern_decl | score_decl | proc_decl
        | test_decl | words_decl => Declaration("a declaration".into()),
        kw_ruleset | kw_extends | kw_import | kw_deck | kw_param | kw_zone | kw_var | kw_enum
        | kw_ledger | kw_display | kw_def | kw_pattern | kw_score | kw_proc | kw_test
        | kw_seats | kw_cards | kw_words => Declaration(keyword_text(r)),
        let_stmt | assign_stmt | if_stmt | while_stmt | loop_stmt | for_stmt | repeat_stmt
        | return_stmt | break_stmt | continue_stmt | decline_stmt | move_stmt | shuffle_stmt
        | cut_stmt | deal_stmt | gather_stmt | choose_stmt | claim_stmt | pay_stmt
        | outcome_stmt | record_stmt | dealer_stmt | reveal_stmt | say_stmt | expect_stmt
        | require_stmt | tally_stmt | call_stmt => Statement("a statement".into()),
        // Keyword-led statements hide behind `&keyword`, so at a statement start that
        // is not a keyword pest reports only `dealer` and a name: still "a statement".
        kw_dealer => Statement("a statement".into()),
        kw_let | kw_if | kw_while | kw_loop | kw_for | kw_repeat | kw_return | kw_break
        | kw_decline | kw_continue | kw_move | kw_shuffle | kw_cut | kw_deal | kw_gather
        | kw_choose | kw_claim | kw_pay | kw_outcome | kw_record | kw_reveal | kw_say
        | kw_expect | kw_tally => Statement(keyword_text(r)),
        expr | or_expr | and_expr | not_expr | cmp_expr | add_expr | mul_expr | unary | neg
        | postfix | paren | cond_expr | name_or_call | cards_lit | card_lit | list | arg | args
        | domain | word_call => Expression,
        cmp_op | add_op | mul_op | field | method_args | index | call_args | binder | kw_and
        | kw_or => Continuation,
        ident | name | lvalue | enum_value => Words("a name".into()),
        field_name => Words("a field name".into()),
        int | neg_int => Words("a number".into()),
        string => Words("a string".into()),
        word_text => Words("a word".into()),
        card_id => Words("a card id".into()),
        bool_lit => Words("`true` or `false`".into()),
        int_range | param_range => Words("a range such as `1..12`".into()),
        block => Words("`{`".into()),
        deck_base => Words("`extends`".into()),
        attr_decl => Words("`attribute`".into()),
        tags_decl => Words("`tags`".into()),
        card_decl => Words("`card`".into()),
        card_edit => Words("`edit`".into()),
        attr_type => Words("an attribute type (`int`, `1..12` or `a | b`)".into()),
        symbol_list => Words("values such as `光 | 種`".into()),
        attr_set => Words("a field such as `month=1`".into()),
        tag_add => Words("`+tag`".into()),
        tag_remove => Words("`-tag`".into()),
        copies => Words("a count such as `x4`".into()),
        roles_row => Words("a row such as `3: 親 胴二 ビキ`".into()),
        owner => Words("`shared` or `per seat`".into()),
        order => Words("`stack` or `pile`".into()),
        visibility => Words("`hidden`, `owner`, `public` or `top`".into()),
        type_name | item_type => {
            Words("a type (`int`, `bool`, `seat`, `card`, `cards` or a declared name)".into())
        }
        group_decl => Words("`group`".into()),
        list_type | list_word => Words("`list of …`".into()),
        per_key | per_word => Words("`per` and an enum's name".into()),
        of_word => Words("`of`".into()),
        pattern_alts => Words("pattern names such as `一般形 | 七対子`".into()),
        require_decl => Words("`require`".into()),
        group_count => Words("`*`".into()),
        group_wild | wild_word => Words("`wild`".into()),
        shapes | shape | shape_same | shape_run | shape_distinct | shape_word => {
            Words("a shape (`same`, `run`, `distinct` or `word`)".into())
        }
        score_over => Words("`over`".into()),
        yaku_stage | times_stage | plus_stage | name_stage | void_stage => {
            Words("a stage (`yaku`, `times`, `plus`, `name` or `void`)".into())
        }
        yaku_row => Words("a row such as `素役 1 when …`".into()),
        times_row => Words("a row such as `2 when …`".into()),
        name_row | void_row => Words("a row such as `赤五光 when …`".into()),
        stage_mode => Words("`first`, `all` or `largest`".into()),
        params | param => Words("a parameter such as `s: seat`".into()),
        // Optional before a body's `{`: "expected `{`" says what is missing.
        proc_returns => Nothing,
        // The tokens name `+=` and `-=` as well, when they were recorded.
        assign_op => Words("`=`".into()),
        choose_each | pay_each => Words("`each`".into()),
        option => Words("`move`".into()),
        option_param => Words("`(`".into()),
        extreme | draw_key => Words("`lowest` or `highest`".into()),
        test_set => Words("a setting such as `players = 4`".into()),
        _ if is_kw(r) => Words(keyword_text(r)),
        _ => Nothing,
    }
}

/// A keyword rule as shown: `kw_per_seat` reads "`per seat`".
fn keyword_text(r: Rule) -> String {
    let name = format!("{r:?}");
    format!("`{}`", name.trim_start_matches("kw_").replace('_', " "))
}

/// A literal token pest tried. Words (keywords) and expression starts are covered by
/// the rules when rules were tried at the same place, so they count only when
/// `only_tokens` says the tokens alone tell what was expected.
fn describe_token(token: &str, only_tokens: bool) -> Want {
    let s = token;
    if matches!(
        s,
        " " | "\t" | "\r" | "\n" | "\u{3000}" | ";" | "#" | "_" | "\""
    ) {
        return Want::Nothing;
    }
    if let Some(word) = TOKENS.iter().find(|w| w[1..w.len() - 1] == *s) {
        let continuation = matches!(
            s,
            "==" | "!=" | "<=" | ">=" | "<" | ">" | "+" | "-" | "*" | "/" | "%" | "." | "[" | "("
        );
        return if continuation && !only_tokens {
            Want::Continuation
        } else {
            Want::Words(word.to_string())
        };
    }
    if only_tokens && s.chars().all(|c| c.is_ascii_alphabetic()) {
        return KEYWORDS
            .iter()
            .find(|w| w[1..w.len() - 1] == *s)
            .map_or(Want::Nothing, |w| Want::Words(w.to_string()));
    }
    Want::Nothing
}

/// Punctuation as shown in messages.
const TOKENS: &[&str] = &[
    "`{`", "`}`", "`(`", "`)`", "`[`", "`]`", "`:`", "`=`", "`,`", "`..`", "`|`", "`+=`", "`-=`",
    "`==`", "`!=`", "`<=`", "`>=`", "`<`", "`>`", "`+`", "`-`", "`*`", "`/`", "`%`", "`.`", "`x`",
];

/// Words pest may expect as bare literals, as shown in messages.
const KEYWORDS: &[&str] = &[
    "`to`",
    "`from`",
    "`in`",
    "`then`",
    "`else`",
    "`when`",
    "`each`",
    "`by`",
    "`draw`",
    "`as`",
    "`with`",
    "`aside`",
    "`set`",
    "`priority`",
    "`where`",
    "`best`",
    "`over`",
    "`per`",
    "`seat`",
];

/// What stands at the error position.
struct Found {
    /// For the message: "`}`", "the end of the file", "the keyword `to`".
    words: String,
    /// The token's text.
    text: String,
    span: Span,
    at_end: bool,
    keyword: bool,
}

/// Reads the token at `pos` (after any spaces or comments) to say what was found.
fn found(src: &str, pos: usize) -> Found {
    let mut start = pos.min(src.len());
    while !src.is_char_boundary(start) {
        start -= 1;
    }
    // Step over spaces and comments so the label sits on the token itself.
    let rest = &src[start..];
    let mut skip = 0;
    let mut chars = rest.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        if matches!(c, ' ' | '\t' | '\r' | '\n' | '\u{3000}') {
            chars.next();
            skip = i + c.len_utf8();
        } else if c == '#' {
            while chars.next_if(|&(_, c)| c != '\n').is_some() {}
            skip = chars.peek().map_or(rest.len(), |&(i, _)| i);
        } else {
            break;
        }
    }
    let start = start + skip;
    let rest = &src[start..];
    let Some(first) = rest.chars().next() else {
        return Found {
            words: "the end of the file".into(),
            text: String::new(),
            span: Span::new(src.len(), src.len()),
            at_end: true,
            keyword: false,
        };
    };
    let len = if first.is_alphanumeric() || first == '_' {
        // Words and numbers, with `-` inside card-id-like tokens such as `1-crane`.
        let id_like = first.is_ascii_digit();
        rest.char_indices()
            .find(|&(_, c)| !(c.is_alphanumeric() || c == '_' || (id_like && c == '-')))
            .map_or(rest.len(), |(i, _)| i)
    } else if first == '"' {
        rest[1..]
            .find(['"', '\n'])
            .map_or(rest.len(), |i| i + 2)
            .min(rest.len())
    } else {
        let two = ["==", "!=", "<=", ">=", "+=", "-=", ".."];
        if two.iter().any(|t| rest.starts_with(t)) {
            2
        } else {
            first.len_utf8()
        }
    };
    let text: String = rest[..len].to_string();
    let keyword = is_reserved(&text);
    let shown = if text.chars().count() > 24 {
        format!("{}…", text.chars().take(20).collect::<String>())
    } else {
        text.clone()
    };
    let words = if first == '"' {
        "a string".to_string()
    } else if keyword {
        format!("the keyword `{shown}`")
    } else {
        format!("`{shown}`")
    };
    Found {
        words,
        text,
        span: Span::new(start, start + len),
        at_end: false,
        keyword,
    }
}

/// The span of the last character of the source that is neither blank nor in a comment.
fn last_char(src: &str) -> Option<Span> {
    let mut last = None;
    let mut chars = src.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '#' => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            ' ' | '\t' | '\r' | '\n' | '\u{3000}' | ';' => {}
            '"' => {
                // A string's characters are text, `#` included, up to its end or the line's.
                let mut end = i + 1;
                for (j, c) in chars.by_ref() {
                    end = j + c.len_utf8();
                    if c == '"' || c == '\n' {
                        break;
                    }
                }
                let end_char = src[..end].chars().next_back().map_or(1, char::len_utf8);
                last = Some(Span::new(end - end_char, end));
            }
            _ => last = Some(Span::new(i, i + c.len_utf8())),
        }
    }
    last
}

/// True for the reserved words (the grammar's `keyword` rule).
fn is_reserved(word: &str) -> bool {
    const RESERVED: &[&str] = &[
        "and",
        "answer",
        "as",
        "attribute",
        "break",
        "by",
        "card",
        "cards",
        "choose",
        "claim",
        "continue",
        "cut",
        "deal",
        "deck",
        "decline",
        "def",
        "display",
        "distinct",
        "each",
        "edit",
        "else",
        "enum",
        "expect",
        "extends",
        "false",
        "for",
        "from",
        "gather",
        "group",
        "if",
        "import",
        "in",
        "is",
        "ledger",
        "let",
        "loop",
        "move",
        "name",
        "not",
        "or",
        "outcome",
        "over",
        "param",
        "pattern",
        "pay",
        "plus",
        "priority",
        "proc",
        "record",
        "repeat",
        "require",
        "return",
        "reveal",
        "ruleset",
        "run",
        "same",
        "say",
        "score",
        "shuffle",
        "tags",
        "test",
        "then",
        "times",
        "to",
        "true",
        "var",
        "void",
        "when",
        "while",
        "with",
        "word",
        "zone",
    ];
    RESERVED.contains(&word)
}

/// A token like `1a`, `12m` or `1-crane`: a card id written where an expression goes.
fn looks_like_card_id(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_digit())
        && text.contains(|c: char| c.is_ascii_alphabetic())
}

/// A string that starts at `pos` and never ends on its line.
fn unclosed_string(src: &str, pos: usize) -> Option<Box<Problem>> {
    let rest = src.get(pos..)?;
    if !rest.starts_with('"') {
        return None;
    }
    let mut chars = rest.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return None,
            '\\' => {
                chars.next();
            }
            '\n' => return Some(unclosed(pos, pos + i)),
            _ => {}
        }
    }
    Some(unclosed(pos, src.len()))
}

fn unclosed(start: usize, end: usize) -> Box<Problem> {
    Problem::new(
        SyntaxErrorKind::Unexpected,
        Span::new(start, end),
        "this string is never closed",
        "the string starts here",
    )
    .help("end the string with `\"` on the same line; write a line break inside it as `\\n`")
}
