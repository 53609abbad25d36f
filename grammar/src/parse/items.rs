//! Builds declarations: decks, params, zones, patterns, score tables, procs and tests.

use super::build::{bug, first_child, ident, span, Builder, Kids, P, R};
use super::Rule;
use crate::ast::*;
use crate::Span;

impl Builder {
    pub(super) fn item(&mut self, p: P) -> R<Item> {
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
                let range = match k.opt(Rule::param_range) {
                    Some(r) => {
                        let at = span(&r);
                        let mut ends = Kids::of(r);
                        let lo = self.int(ends.next().ok_or_else(|| bug(at, "a number"))?)?;
                        let hi = self.int(ends.next().ok_or_else(|| bug(at, "a number"))?)?;
                        Some(Spanned::new((lo.node, hi.node), at))
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
                let per_card = k.opt(Rule::kw_per_card).is_some();
                let per_key = match k.opt(Rule::per_key) {
                    // After the word `per`.
                    Some(pk) => Some(ident(
                        pk.into_inner()
                            .find(|p| p.as_rule() == Rule::ident)
                            .ok_or_else(|| bug(sp, "an enum's name"))?,
                    )),
                    None => None,
                };
                let init = self.expr(k.need(Rule::expr)?)?;
                Item::Var(VarDecl {
                    name,
                    ty,
                    per_seat,
                    per_card,
                    per_key,
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
            Rule::display_decl => {
                Item::Display(k.all(Rule::ident).into_iter().map(ident).collect(), sp)
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
                let returns = match k.opt(Rule::proc_returns) {
                    Some(r) => Some(self.type_name(Kids::of(r).need(Rule::type_name)?)?),
                    None => None,
                };
                let body = self.block(k.need(Rule::block)?)?;
                Item::Proc(ProcDecl {
                    name,
                    params,
                    returns,
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
            Rule::words_decl => {
                let name = ident(k.need(Rule::ident)?);
                let source = match k.opt(Rule::string) {
                    Some(path) => WordsSource::File(self.string(path)?),
                    None => WordsSource::Inline(
                        k.all(Rule::word_text)
                            .into_iter()
                            .map(|w| Spanned::new(w.as_str().to_string(), span(&w)))
                            .collect(),
                    ),
                };
                Item::Words(WordsDecl {
                    name,
                    source,
                    span: sp,
                })
            }
            _ => return Err(bug(sp, "an item")),
        })
    }

    pub(super) fn deck(&mut self, mut k: Kids, sp: Span) -> R<DeckDecl> {
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

    pub(super) fn attr_type(&mut self, p: P) -> R<AttrType> {
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

    pub(super) fn card_fields(&mut self, k: &mut Kids) -> R<Vec<CardField>> {
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

    pub(super) fn int_range(&mut self, p: P) -> R<(i64, i64)> {
        let mut k = Kids::of(p);
        let lo = self.int(k.need(Rule::int)?)?.node;
        let hi = self.int(k.need(Rule::int)?)?.node;
        Ok((lo, hi))
    }

    pub(super) fn type_name(&mut self, p: P) -> R<Spanned<TypeName>> {
        let at = span(&p);
        let inner = first_child(p)?;
        let ty = match inner.as_rule() {
            Rule::list_type => {
                // After the words `list` and `of`.
                let of = inner
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::item_type)
                    .ok_or_else(|| bug(at, "a type"))?;
                let of = self.type_name(of)?;
                TypeName::List(Box::new(of.node))
            }
            Rule::kw_int => TypeName::Int,
            Rule::kw_bool => TypeName::Bool,
            Rule::kw_seat => TypeName::Seat,
            Rule::kw_card => TypeName::Card,
            Rule::kw_cards => TypeName::Cards,
            _ => TypeName::Named(inner.as_str().to_string()),
        };
        Ok(Spanned::new(ty, at))
    }

    pub(super) fn params(&mut self, p: Option<P>) -> R<Vec<Param>> {
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

    pub(super) fn pattern(&mut self, mut k: Kids, sp: Span) -> R<PatternDecl> {
        let name = ident(k.need(Rule::ident)?);
        let mut decl = PatternDecl {
            name,
            alternatives: Vec::new(),
            groups: Vec::new(),
            requires: Vec::new(),
            span: sp,
        };
        while let Some(p) = k.next() {
            let at = span(&p);
            match p.as_rule() {
                Rule::pattern_alts => {
                    decl.alternatives = Kids::of(p)
                        .all(Rule::ident)
                        .into_iter()
                        .map(ident)
                        .collect()
                }
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
                    let wild = match g.opt(Rule::group_wild) {
                        Some(w) => Some(ident(Kids::of(w).need(Rule::ident)?)),
                        None => None,
                    };
                    let condition = g.opt(Rule::expr).map(|e| self.expr(e)).transpose()?;
                    decl.groups.push(GroupDecl {
                        name,
                        count,
                        size,
                        shapes,
                        wild,
                        condition,
                        span: at,
                    });
                }
                _ => return Err(bug(at, "`group` or `require`")),
            }
        }
        Ok(decl)
    }

    pub(super) fn score(&mut self, mut k: Kids, sp: Span) -> R<ScoreDecl> {
        let name = ident(k.need(Rule::ident)?);
        let params = self.params(k.opt(Rule::params))?;
        let over = match k.opt(Rule::score_over) {
            Some(o) => {
                let at = span(&o);
                let mut ok = Kids::of(o);
                let pattern = ident(ok.need(Rule::ident)?);
                let arg = self.expr(ok.need(Rule::expr)?)?;
                let exposed = ok.opt(Rule::expr).map(|e| self.expr(e)).transpose()?;
                let best = ok.opt(Rule::kw_best).is_some();
                Some(ScoreOver {
                    pattern,
                    arg,
                    exposed,
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
    pub(super) fn stage(&mut self, p: P) -> R<(Stage, Option<Ident>)> {
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

    pub(super) fn yaku_rows(&mut self, k: &mut Kids) -> R<Vec<YakuRow>> {
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
