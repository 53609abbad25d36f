//! Builds the syntax tree from pest pairs: items, declarations and statements.
//!
//! The grammar fixes the shape of every pair, so a shape we do not expect is a bug in
//! this file; it is reported as a syntax error rather than a panic.

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
/// may lie after blanks and comments. Its real end is its last child's real end plus
/// any literal tokens after it (`)`, `]`, `}`); only those, blanks and comments can
/// lie between a last child and its parent's end.
pub(super) fn span(p: &P) -> Span {
    let s = p.as_span();
    let input = s.get_input();
    // A trailing skip ends in a blank, or in a comment at the very end of the input.
    if !(s.as_str().ends_with(is_blank) || (s.end() == input.len() && s.as_str().contains('#'))) {
        return Span::new(s.start(), s.end());
    }
    let mut raw_ends = vec![s.end()];
    let mut last = p.clone().into_inner().last();
    while let Some(child) = last {
        raw_ends.push(child.as_span().end());
        last = child.into_inner().last();
    }
    // The deepest pair is a token (or all literals) and ends exactly; go back up.
    let mut end = raw_ends.pop().unwrap_or(s.end());
    while let Some(raw) = raw_ends.pop() {
        end = end_of_literals(input, end, raw);
    }
    Span::new(s.start(), end)
}

fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n' | '\u{3000}' | ';')
}

/// The end of the last literal token in `input[from..to]`, which holds only literal
/// tokens, blanks and comments; `from` when there is none.
fn end_of_literals(input: &str, from: usize, to: usize) -> usize {
    let Some(region) = input.get(from..to) else {
        return from;
    };
    let mut end = from;
    let mut chars = region.char_indices();
    while let Some((i, c)) = chars.next() {
        if c == '#' {
            for (_, c) in chars.by_ref() {
                if c == '\n' {
                    break;
                }
            }
        } else if !is_blank(c) {
            end = from + i + c.len_utf8();
        }
    }
    end
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
            | kw_as
            | kw_aside
            | kw_attribute
            | kw_best
            | kw_bool
            | kw_break
            | kw_by
            | kw_card
            | kw_cards
            | kw_choose
            | kw_claim
            | kw_continue
            | kw_cut
            | kw_deal
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

    // ───────────────────────── file and items ─────────────────────────

    pub(super) fn file(&mut self, file: P) -> R<File> {
        let mut items = Vec::new();
        for p in file.into_inner() {
            if p.as_rule() != Rule::EOI {
                items.push(self.item(p)?);
            }
        }
        Ok(File { items })
    }

    fn item(&mut self, p: P) -> R<Item> {
        let sp = span(&p);
        let rule = p.as_rule();
        let mut k = Kids::of(p);
        Ok(match rule {
            Rule::ruleset_decl => Item::Ruleset(self.string(k.need(Rule::string)?)?),
            Rule::extends_decl => Item::Extends(self.string(k.need(Rule::string)?)?),
            Rule::import_decl => Item::Import(self.string(k.need(Rule::string)?)?),
            Rule::deck_decl => Item::Deck(self.deck(k, sp)?),
            Rule::param_decl => {
                let name = ident(k.need(Rule::ident)?);
                let ty = self.type_name(k.need(Rule::type_name)?)?;
                let default = self.expr(k.need(Rule::add_expr)?)?;
                let range = match k.opt(Rule::int_range) {
                    Some(r) => {
                        let at = span(&r);
                        Some(Spanned::new(self.int_range(r)?, at))
                    }
                    None => None,
                };
                let doc = k.opt(Rule::string).map(|s| self.string(s)).transpose()?;
                Item::Param(ParamDecl {
                    name,
                    ty,
                    default,
                    range,
                    doc,
                    span: sp,
                })
            }
            Rule::seats_decl => {
                let count = self.expr(k.need(Rule::expr)?)?;
                let mut roles = Vec::new();
                for row in k.all(Rule::roles_row) {
                    let mut r = Kids::of(row);
                    let n = self.int(r.need(Rule::int)?)?;
                    roles.push((n, r.all(Rule::ident).into_iter().map(ident).collect()));
                }
                Item::Seats(SeatsDecl {
                    count,
                    roles,
                    span: sp,
                })
            }
            Rule::zone_decl => {
                let name = ident(k.need(Rule::ident)?);
                let owner = match first_child(k.need(Rule::owner)?)?.as_rule() {
                    Rule::kw_shared => Owner::Shared,
                    _ => Owner::PerSeat,
                };
                let order = match first_child(k.need(Rule::order)?)?.as_rule() {
                    Rule::kw_stack => Order::Stack,
                    _ => Order::Pile,
                };
                let visibility = match first_child(k.need(Rule::visibility)?)?.as_rule() {
                    Rule::kw_hidden => Visibility::Hidden,
                    Rule::kw_owner => Visibility::Owner,
                    Rule::kw_public => Visibility::Public,
                    _ => Visibility::Top,
                };
                Item::Zone(ZoneDecl {
                    name,
                    owner,
                    order,
                    visibility,
                    span: sp,
                })
            }
            Rule::var_decl => {
                let name = ident(k.need(Rule::ident)?);
                let ty = self.type_name(k.need(Rule::type_name)?)?;
                let per_seat = k.opt(Rule::kw_per_seat).is_some();
                let init = self.expr(k.need(Rule::expr)?)?;
                Item::Var(VarDecl {
                    name,
                    ty,
                    per_seat,
                    init,
                    span: sp,
                })
            }
            Rule::enum_decl => {
                let name = ident(k.need(Rule::ident)?);
                let values = k
                    .all(Rule::enum_value)
                    .into_iter()
                    .map(|v| {
                        let mut vk = Kids::of(v);
                        let first = vk.need(Rule::ident).map(ident);
                        first.map(|f| (f, vk.all(Rule::ident).into_iter().map(ident).collect()))
                    })
                    .collect::<R<Vec<_>>>()?;
                Item::Enum(EnumDecl {
                    name,
                    values,
                    span: sp,
                })
            }
            Rule::cards_decl => {
                let name = ident(k.need(Rule::ident)?);
                let value = self.expr(k.need(Rule::expr)?)?;
                Item::Cards(CardsDecl {
                    name,
                    value,
                    span: sp,
                })
            }
            Rule::ledger_decl => {
                Item::Ledger(k.all(Rule::ident).into_iter().map(ident).collect(), sp)
            }
            Rule::def_decl => {
                let name = ident(k.need(Rule::ident)?);
                let params = self.params(k.opt(Rule::params))?;
                let body = self.expr(k.need(Rule::expr)?)?;
                Item::Def(DefDecl {
                    name,
                    params,
                    body,
                    span: sp,
                })
            }
            Rule::pattern_decl => Item::Pattern(self.pattern(k, sp)?),
            Rule::score_decl => Item::Score(self.score(k, sp)?),
            Rule::proc_decl => {
                let name = ident(k.need(Rule::ident)?);
                let params = self.params(k.opt(Rule::params))?;
                let body = self.block(k.need(Rule::block)?)?;
                Item::Proc(ProcDecl {
                    name,
                    params,
                    body,
                    span: sp,
                })
            }
            Rule::test_decl => {
                let name = self.string(k.need(Rule::string)?)?;
                let mut with = Vec::new();
                for set in k.all(Rule::test_set) {
                    let mut sk = Kids::of(set);
                    let key = ident(sk.need(Rule::ident)?);
                    let value =
                        self.literal(sk.next().ok_or_else(|| bug(key.span, "a literal"))?)?;
                    with.push((key, value));
                }
                let body = self.block(k.need(Rule::block)?)?;
                Item::Test(TestDecl {
                    name,
                    with,
                    body,
                    span: sp,
                })
            }
            _ => return Err(bug(sp, "an item")),
        })
    }

    fn deck(&mut self, mut k: Kids, sp: Span) -> R<DeckDecl> {
        let name = ident(k.need(Rule::ident)?);
        let base = match k.opt(Rule::deck_base) {
            Some(b) => Some(ident(Kids::of(b).need(Rule::ident)?)),
            None => None,
        };
        let title = k.opt(Rule::string).map(|s| self.string(s)).transpose()?;
        let mut deck = DeckDecl {
            name,
            base,
            title,
            attributes: Vec::new(),
            tags: Vec::new(),
            cards: Vec::new(),
            edits: Vec::new(),
            span: sp,
        };
        while let Some(p) = k.next() {
            let at = span(&p);
            let rule = p.as_rule();
            let mut dk = Kids::of(p);
            match rule {
                Rule::attr_decl => {
                    let name = ident(dk.need(Rule::ident)?);
                    let ty = self.attr_type(dk.need(Rule::attr_type)?)?;
                    let default = dk.next().map(|l| self.literal(l)).transpose()?;
                    deck.attributes.push(AttrDecl {
                        name,
                        ty,
                        default,
                        span: at,
                    });
                }
                Rule::tags_decl => deck.tags.extend(dk.all(Rule::ident).into_iter().map(ident)),
                Rule::card_decl => {
                    let id = ident(dk.need(Rule::card_id)?);
                    let display = self.string(dk.need(Rule::string)?)?;
                    let fields = self.card_fields(&mut dk)?;
                    let copies = match dk.opt(Rule::copies) {
                        Some(c) => {
                            let at = span(&c);
                            Some(Spanned::new(
                                self.int(Kids::of(c).need(Rule::int)?)?.node,
                                at,
                            ))
                        }
                        None => None,
                    };
                    deck.cards.push(CardDecl {
                        id,
                        display,
                        fields,
                        copies,
                        span: at,
                    });
                }
                Rule::card_edit => {
                    let id = ident(dk.need(Rule::card_id)?);
                    let fields = self.card_fields(&mut dk)?;
                    deck.edits.push(CardEdit {
                        id,
                        fields,
                        span: at,
                    });
                }
                _ => return Err(bug(at, "a deck line")),
            }
        }
        Ok(deck)
    }

    fn attr_type(&mut self, p: P) -> R<AttrType> {
        let inner = first_child(p)?;
        Ok(match inner.as_rule() {
            Rule::int_range => {
                let (lo, hi) = self.int_range(inner)?;
                AttrType::Range(lo, hi)
            }
            Rule::symbol_list => AttrType::Symbols(
                Kids::of(inner)
                    .all(Rule::ident)
                    .into_iter()
                    .map(ident)
                    .collect(),
            ),
            _ => AttrType::Int,
        })
    }

    fn card_fields(&mut self, k: &mut Kids) -> R<Vec<CardField>> {
        let mut fields = Vec::new();
        loop {
            if let Some(set) = k.opt(Rule::attr_set) {
                let mut sk = Kids::of(set);
                let name = ident(sk.need(Rule::ident)?);
                let value = self.literal(sk.next().ok_or_else(|| bug(name.span, "a literal"))?)?;
                fields.push(CardField::Set(name, value));
            } else if let Some(t) = k.opt(Rule::tag_add) {
                fields.push(CardField::AddTag(ident(Kids::of(t).need(Rule::ident)?)));
            } else if let Some(t) = k.opt(Rule::tag_remove) {
                fields.push(CardField::RemoveTag(ident(Kids::of(t).need(Rule::ident)?)));
            } else {
                return Ok(fields);
            }
        }
    }

    fn int_range(&mut self, p: P) -> R<(i64, i64)> {
        let mut k = Kids::of(p);
        let lo = self.int(k.need(Rule::int)?)?.node;
        let hi = self.int(k.need(Rule::int)?)?.node;
        Ok((lo, hi))
    }

    fn type_name(&mut self, p: P) -> R<Spanned<TypeName>> {
        let at = span(&p);
        let inner = first_child(p)?;
        let ty = match inner.as_rule() {
            Rule::kw_int => TypeName::Int,
            Rule::kw_bool => TypeName::Bool,
            Rule::kw_seat => TypeName::Seat,
            Rule::kw_card => TypeName::Card,
            Rule::kw_cards => TypeName::Cards,
            _ => TypeName::Named(inner.as_str().to_string()),
        };
        Ok(Spanned::new(ty, at))
    }

    fn params(&mut self, p: Option<P>) -> R<Vec<Param>> {
        let Some(p) = p else { return Ok(Vec::new()) };
        Kids::of(p)
            .all(Rule::param)
            .into_iter()
            .map(|param| {
                let at = span(&param);
                let mut k = Kids::of(param);
                let name = ident(k.need(Rule::ident)?);
                let ty = self.type_name(k.need(Rule::type_name)?)?;
                let default = k.opt(Rule::expr).map(|e| self.expr(e)).transpose()?;
                Ok(Param {
                    name,
                    ty,
                    default,
                    span: at,
                })
            })
            .collect()
    }

    fn pattern(&mut self, mut k: Kids, sp: Span) -> R<PatternDecl> {
        let name = ident(k.need(Rule::ident)?);
        let mut decl = PatternDecl {
            name,
            groups: Vec::new(),
            requires: Vec::new(),
            span: sp,
        };
        while let Some(p) = k.next() {
            let at = span(&p);
            match p.as_rule() {
                Rule::require_decl => decl
                    .requires
                    .push(self.expr(Kids::of(p).need(Rule::expr)?)?),
                Rule::group_decl => {
                    let mut g = Kids::of(p);
                    let name = ident(g.need(Rule::ident)?);
                    let count = match g.opt(Rule::group_count) {
                        Some(c) => Some(self.int(Kids::of(c).need(Rule::int)?)?),
                        None => None,
                    };
                    let size = self.int(g.need(Rule::int)?)?;
                    let shapes = match g.opt(Rule::shapes) {
                        Some(s) => Kids::of(s)
                            .all(Rule::shape)
                            .into_iter()
                            .map(shape)
                            .collect::<R<_>>()?,
                        None => Vec::new(),
                    };
                    let condition = g.opt(Rule::expr).map(|e| self.expr(e)).transpose()?;
                    decl.groups.push(GroupDecl {
                        name,
                        count,
                        size,
                        shapes,
                        condition,
                        span: at,
                    });
                }
                _ => return Err(bug(at, "`group` or `require`")),
            }
        }
        Ok(decl)
    }

    fn score(&mut self, mut k: Kids, sp: Span) -> R<ScoreDecl> {
        let name = ident(k.need(Rule::ident)?);
        let params = self.params(k.opt(Rule::params))?;
        let over = match k.opt(Rule::score_over) {
            Some(o) => {
                let at = span(&o);
                let mut ok = Kids::of(o);
                let pattern = ident(ok.need(Rule::ident)?);
                let arg = self.expr(ok.need(Rule::expr)?)?;
                let best = ok.opt(Rule::kw_best).is_some();
                Some(ScoreOver {
                    pattern,
                    arg,
                    best,
                    span: at,
                })
            }
            None => None,
        };
        let mut stages = Vec::new();
        let mut stage_names = Vec::new();
        while let Some(p) = k.next() {
            let (stage, name) = self.stage(p)?;
            stages.push(stage);
            stage_names.push(name);
        }
        Ok(ScoreDecl {
            name,
            params,
            over,
            stages,
            stage_names,
            span: sp,
        })
    }

    /// One stage, with the name written after its keyword, if any.
    fn stage(&mut self, p: P) -> R<(Stage, Option<Ident>)> {
        let at = span(&p);
        let rule = p.as_rule();
        let mut k = Kids::of(p);
        let name = k.opt(Rule::ident).map(ident);
        let mode = match k.opt(Rule::stage_mode) {
            Some(m) => Some(match first_child(m)?.as_rule() {
                Rule::kw_first => StageMode::First,
                Rule::kw_all => StageMode::All,
                _ => StageMode::Largest,
            }),
            None => None,
        };
        let mode_or_bug = |m: Option<StageMode>| m.ok_or_else(|| bug(at, "a stage mode"));
        let stage = match rule {
            Rule::yaku_stage => Stage::Yaku(mode_or_bug(mode)?, self.yaku_rows(&mut k)?, at),
            Rule::plus_stage => Stage::Plus(mode_or_bug(mode)?, self.yaku_rows(&mut k)?, at),
            Rule::times_stage => {
                let mut rows = Vec::new();
                for row in k.all(Rule::times_row) {
                    let at = span(&row);
                    let mut r = Kids::of(row);
                    let factor = self.expr(r.need(Rule::expr)?)?;
                    let when = self.expr(r.need(Rule::expr)?)?;
                    rows.push(TimesRow {
                        factor,
                        when,
                        span: at,
                    });
                }
                Stage::Times(mode_or_bug(mode)?, rows, at)
            }
            Rule::name_stage => {
                let mut rows = Vec::new();
                for row in k.all(Rule::name_row) {
                    let at = span(&row);
                    let mut r = Kids::of(row);
                    let name = match r.opt(Rule::ident) {
                        Some(i) => NameOrTemplate::Name(ident(i)),
                        None => NameOrTemplate::Template(self.string(r.need(Rule::string)?)?),
                    };
                    let when = self.expr(r.need(Rule::expr)?)?;
                    rows.push(NameRow {
                        name,
                        when,
                        span: at,
                    });
                }
                Stage::Name(rows, at)
            }
            Rule::void_stage => {
                let mut rows = Vec::new();
                for row in k.all(Rule::void_row) {
                    let at = span(&row);
                    let mut r = Kids::of(row);
                    let name = ident(r.need(Rule::ident)?);
                    let when = self.expr(r.need(Rule::expr)?)?;
                    rows.push(VoidRow {
                        name,
                        when,
                        span: at,
                    });
                }
                Stage::Void(rows, at)
            }
            _ => return Err(bug(at, "a score stage")),
        };
        Ok((stage, name))
    }

    fn yaku_rows(&mut self, k: &mut Kids) -> R<Vec<YakuRow>> {
        k.all(Rule::yaku_row)
            .into_iter()
            .map(|row| {
                let at = span(&row);
                let mut r = Kids::of(row);
                let name = ident(r.need(Rule::ident)?);
                let value = self.expr(r.need(Rule::expr)?)?;
                let when = self.expr(r.need(Rule::expr)?)?;
                Ok(YakuRow {
                    name,
                    value,
                    when,
                    span: at,
                })
            })
            .collect()
    }

    // ───────────────────────── statements ─────────────────────────

    pub(super) fn block(&mut self, p: P) -> R<Block> {
        let at = span(&p);
        self.enter(1, at)?;
        let stmts = p
            .into_inner()
            .map(|s| self.stmt(s))
            .collect::<R<Vec<_>>>()?;
        self.leave(1);
        Ok(Block { stmts, span: at })
    }

    fn stmt(&mut self, p: P) -> R<Stmt> {
        let at = span(&p);
        self.enter(1, at)?;
        let kind = self.stmt_kind(p)?;
        self.leave(1);
        Ok(Spanned::new(kind, at))
    }

    fn stmt_kind(&mut self, p: P) -> R<StmtKind> {
        let at = span(&p);
        let rule = p.as_rule();
        if rule == Rule::if_stmt {
            return self.if_stmt(p).map(|s| s.node);
        }
        if rule == Rule::deal_stmt {
            return self.deal(p);
        }
        let mut k = Kids::of(p);
        Ok(match rule {
            Rule::let_stmt => {
                let name = ident(k.need(Rule::ident)?);
                StmtKind::Let(name, self.expr(k.need(Rule::expr)?)?)
            }
            Rule::assign_stmt => {
                let target = self.lvalue(k.need(Rule::lvalue)?)?;
                let op = match k.need(Rule::assign_op)?.as_str() {
                    "+=" => AssignOp::Add,
                    "-=" => AssignOp::Sub,
                    _ => AssignOp::Set,
                };
                StmtKind::Assign(target, op, self.expr(k.need(Rule::expr)?)?)
            }
            Rule::while_stmt => {
                let cond = self.expr(k.need(Rule::expr)?)?;
                StmtKind::While(cond, self.block(k.need(Rule::block)?)?)
            }
            Rule::loop_stmt => StmtKind::Loop(self.block(k.need(Rule::block)?)?),
            Rule::for_stmt => {
                let var = ident(k.need(Rule::ident)?);
                let over = self.expr(k.need(Rule::expr)?)?;
                StmtKind::For(var, over, self.block(k.need(Rule::block)?)?)
            }
            Rule::repeat_stmt => {
                let times = self.expr(k.need(Rule::expr)?)?;
                let counter = k.opt(Rule::ident).map(ident);
                StmtKind::Repeat(times, counter, self.block(k.need(Rule::block)?)?)
            }
            Rule::return_stmt => {
                StmtKind::Return(k.opt(Rule::expr).map(|e| self.expr(e)).transpose()?)
            }
            Rule::break_stmt => StmtKind::Break,
            Rule::continue_stmt => StmtKind::Continue,
            Rule::move_stmt => {
                let cards = self.expr(k.need(Rule::expr)?)?;
                StmtKind::Move(cards, self.expr(k.need(Rule::expr)?)?)
            }
            Rule::shuffle_stmt => StmtKind::Shuffle(self.expr(k.need(Rule::expr)?)?),
            Rule::cut_stmt => {
                let zone = self.expr(k.need(Rule::expr)?)?;
                StmtKind::Cut(zone, k.opt(Rule::expr).map(|e| self.expr(e)).transpose()?)
            }
            Rule::gather_stmt => StmtKind::Gather(self.expr(k.need(Rule::expr)?)?),
            Rule::choose_stmt => {
                let who = match k.opt(Rule::choose_each) {
                    Some(each) => {
                        let mut ek = Kids::of(each);
                        let var = ident(ek.need(Rule::ident)?);
                        Chooser::Each(var, self.expr(ek.need(Rule::expr)?)?)
                    }
                    None => Chooser::Seat(self.expr(k.need(Rule::expr)?)?),
                };
                StmtKind::Choose(ChooseStmt {
                    who,
                    options: self.options(&mut k)?,
                })
            }
            Rule::claim_stmt => {
                let seat = ident(k.need(Rule::ident)?);
                let seats = self.expr(k.need(Rule::expr)?)?;
                StmtKind::Claim(ClaimStmt {
                    seat,
                    seats,
                    options: self.options(&mut k)?,
                })
            }
            Rule::pay_stmt => {
                let amount = self.expr(k.need(Rule::expr)?)?;
                let from = match k.opt(Rule::pay_each) {
                    Some(each) => Payer::Each(self.expr(Kids::of(each).need(Rule::expr)?)?),
                    None => Payer::One(self.lvalue(k.need(Rule::lvalue)?)?),
                };
                let to = self.lvalue(k.need(Rule::lvalue)?)?;
                StmtKind::Pay(PayStmt { amount, from, to })
            }
            Rule::outcome_stmt => StmtKind::Outcome(self.expr(k.need(Rule::expr)?)?),
            Rule::record_stmt => {
                let result = self.expr(k.need(Rule::expr)?)?;
                StmtKind::Record(result, self.expr(k.need(Rule::expr)?)?)
            }
            Rule::dealer_stmt => match k.opt(Rule::extreme) {
                Some(e) => {
                    let extreme = match first_child(e)?.as_rule() {
                        Rule::kw_lowest => Extreme::Lowest,
                        _ => Extreme::Highest,
                    };
                    StmtKind::DealerByDraw(extreme, ident(k.need(Rule::ident)?))
                }
                None => StmtKind::SetDealer(self.expr(k.need(Rule::expr)?)?),
            },
            Rule::reveal_stmt => StmtKind::Reveal(self.expr(k.need(Rule::expr)?)?),
            Rule::say_stmt => StmtKind::Say(self.expr(k.need(Rule::expr)?)?),
            Rule::expect_stmt => StmtKind::Expect(self.expr(k.need(Rule::expr)?)?),
            Rule::call_stmt => {
                let name = ident(k.need(Rule::ident)?);
                let args = match k.opt(Rule::args) {
                    Some(a) => Kids::of(a)
                        .all(Rule::arg)
                        .into_iter()
                        .map(|a| self.arg(a))
                        .collect::<R<_>>()?,
                    None => Vec::new(),
                };
                StmtKind::Call(name, args)
            }
            _ => return Err(bug(at, "a statement")),
        })
    }

    /// `if … { } else if … { } else { }`: the grammar reads the chain flat; each
    /// `else if` becomes an `If` alone in the previous arm's else block.
    fn if_stmt(&mut self, p: P) -> R<Stmt> {
        let at = span(&p);
        let arms_count = p
            .clone()
            .into_inner()
            .filter(|c| c.as_rule() == Rule::kw_if)
            .count();
        // Arm i sits i else-blocks (two levels each) below the first.
        let extra = 2 * arms_count.saturating_sub(1);
        self.enter(extra, at)?;
        let mut arms: Vec<(usize, Expr, Block)> = Vec::new();
        let mut last_else = None;
        let mut arm_start = at.start as usize;
        let mut cond = None;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::kw_if => arm_start = c.as_span().start(),
                Rule::expr => cond = Some(self.expr(c)?),
                Rule::block => match cond.take() {
                    Some(e) => arms.push((arm_start, e, self.block(c)?)),
                    None => last_else = Some(self.block(c)?),
                },
                _ => {}
            }
        }
        self.leave(extra);
        let mut tail = last_else;
        while let Some((start, cond, body)) = arms.pop() {
            let stmt = Spanned::new(
                StmtKind::If(cond, body, tail),
                Span::new(start, at.end as usize),
            );
            if arms.is_empty() {
                return Ok(stmt);
            }
            tail = Some(Block {
                span: stmt.span,
                stmts: vec![stmt],
            });
        }
        Err(bug(at, "an `if` arm"))
    }

    /// `deal n, m from A to B [from S]`: the keywords tell which expression is which.
    fn deal(&mut self, p: P) -> R<StmtKind> {
        let at = span(&p);
        let mut counts = Vec::new();
        let (mut from, mut to, mut start) = (None, None, None);
        let mut froms = 0;
        let mut after_to = false;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::kw_from => froms += 1,
                Rule::kw_to => after_to = true,
                Rule::expr => {
                    let e = self.expr(c)?;
                    match (froms, after_to) {
                        (0, _) => counts.push(e),
                        (1, false) => from = Some(e),
                        (1, true) => to = Some(e),
                        _ => start = Some(e),
                    }
                }
                _ => {}
            }
        }
        match (from, to) {
            (Some(from), Some(to)) => Ok(StmtKind::Deal(DealStmt {
                counts,
                from,
                to,
                start,
            })),
            _ => Err(bug(at, "`from` and `to`")),
        }
    }

    fn options(&mut self, k: &mut Kids) -> R<Vec<MoveOption>> {
        k.all(Rule::option)
            .into_iter()
            .map(|o| {
                let at = span(&o);
                let mut ok = Kids::of(o);
                let name = ident(ok.need(Rule::ident)?);
                let param = match ok.opt(Rule::option_param) {
                    Some(pp) => {
                        let mut pk = Kids::of(pp);
                        let var = ident(pk.need(Rule::ident)?);
                        Some((var, self.domain(pk.need(Rule::domain)?)?))
                    }
                    None => None,
                };
                let label = ok.opt(Rule::string).map(|s| self.string(s)).transpose()?;
                let guard = ok.opt(Rule::expr).map(|e| self.expr(e)).transpose()?;
                let priority = ok.opt(Rule::int).map(|i| self.int(i)).transpose()?;
                let body = self.block(ok.need(Rule::block)?)?;
                Ok(MoveOption {
                    name,
                    param,
                    label,
                    guard,
                    priority,
                    body,
                    span: at,
                })
            })
            .collect()
    }

    fn lvalue(&mut self, p: P) -> R<LValue> {
        let at = span(&p);
        let mut k = Kids::of(p);
        let name = ident(k.need(Rule::ident)?);
        let index = match k.opt(Rule::expr) {
            Some(e) => {
                self.enter(1, at)?;
                let e = self.expr(e)?;
                self.leave(1);
                Some(Box::new(e))
            }
            None => None,
        };
        Ok(LValue {
            name,
            index,
            span: at,
        })
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
        let start = inner.as_span().start();
        Ok(Spanned::new(unescape(inner.as_str(), start)?, at))
    }
}

/// The only (or first) child of a pair.
pub(super) fn first_child(p: P) -> R<P> {
    let at = span(&p);
    p.into_inner().next().ok_or_else(|| bug(at, "a child"))
}

fn shape(p: P) -> R<Spanned<Shape>> {
    let at = span(&p);
    let inner = first_child(p)?;
    let rule = inner.as_rule();
    let mut k = Kids::of(inner);
    let attr = ident(k.need(Rule::ident)?);
    let shape = match rule {
        Rule::shape_same => Shape::Same(attr),
        Rule::shape_run => Shape::Run(attr, k.opt(Rule::ident).map(ident)),
        Rule::shape_distinct => Shape::Distinct(attr),
        _ => Shape::Word(attr),
    };
    Ok(Spanned::new(shape, at))
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
