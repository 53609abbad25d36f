//! The syntax tree of a rule file: plain data with a byte span on every node.
//!
//! pest pairs never leave this crate; the checker and compiler work from these types.

use crate::Span;

/// A value together with the source span it was written at.
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned<T> {
    /// The value.
    pub node: T,
    /// Where it was written.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// Wraps `node` with `span`.
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

/// A name as written (identifiers may be Japanese).
pub type Ident = Spanned<String>;

/// A whole rule file.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct File {
    /// Items in source order.
    pub items: Vec<Item>,
}

/// One top-level item.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// `ruleset "title"`.
    Ruleset(Spanned<String>),
    /// `extends "base.fuda"`: this file holds only its differences from the base.
    Extends(Spanned<String>),
    /// `import "std/hanafuda"`.
    Import(Spanned<String>),
    /// `deck NAME [extends BASE] ["title"] { … }`.
    Deck(DeckDecl),
    /// `param NAME: TYPE = DEFAULT [in LO..HI] ["doc"]`.
    Param(ParamDecl),
    /// `seats EXPR { N: role role … }`.
    Seats(SeatsDecl),
    /// `zone NAME OWNER ORDER VISIBILITY`.
    Zone(ZoneDecl),
    /// `var NAME: TYPE [per seat] = EXPR`.
    Var(VarDecl),
    /// `enum NAME: A(alias) | B`.
    Enum(EnumDecl),
    /// `cards NAME = EXPR`.
    Cards(CardsDecl),
    /// `ledger a, b`.
    Ledger(Vec<Ident>, Span),
    /// `display a, b`: variables the play view shows.
    Display(Vec<Ident>, Span),
    /// `def NAME(params) = EXPR`.
    Def(DefDecl),
    /// `pattern NAME { … }`.
    Pattern(PatternDecl),
    /// `score NAME[(params)] [over P(expr) [best]] { stages }`.
    Score(ScoreDecl),
    /// `proc NAME[(params)] [-> TYPE] { … }`.
    Proc(ProcDecl),
    /// `test "name" [with k = v, …] { … }`.
    Test(TestDecl),
    /// `words NAME { w … }` or `words NAME from "file"`.
    Words(WordsDecl),
}

impl Item {
    /// The span of the whole item (for "defined here" labels).
    pub fn span(&self) -> Span {
        match self {
            Item::Ruleset(s) | Item::Extends(s) | Item::Import(s) => s.span,
            Item::Deck(d) => d.span,
            Item::Param(d) => d.span,
            Item::Seats(d) => d.span,
            Item::Zone(d) => d.span,
            Item::Var(d) => d.span,
            Item::Enum(d) => d.span,
            Item::Cards(d) => d.span,
            Item::Ledger(_, s) | Item::Display(_, s) => *s,
            Item::Def(d) => d.span,
            Item::Pattern(d) => d.span,
            Item::Score(d) => d.span,
            Item::Proc(d) => d.span,
            Item::Test(d) => d.span,
            Item::Words(d) => d.span,
        }
    }
}

/// A word list: `words 熟語 { 一石 二鳥 }` or `words 熟語 from "jukugo.txt"`.
#[derive(Clone, Debug, PartialEq)]
pub struct WordsDecl {
    /// The list's name.
    pub name: Ident,
    /// Where its words are.
    pub source: WordsSource,
    /// The whole declaration.
    pub span: Span,
}

/// Where a word list's words are written.
#[derive(Clone, Debug, PartialEq)]
pub enum WordsSource {
    /// In the declaration itself, between braces.
    Inline(Vec<Spanned<String>>),
    /// In a data file (a path as written, resolved like an import's).
    File(Spanned<String>),
}

/// A deck declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct DeckDecl {
    /// The deck's name.
    pub name: Ident,
    /// The deck it extends, if any.
    pub base: Option<Ident>,
    /// Display title.
    pub title: Option<Spanned<String>>,
    /// Attribute declarations.
    pub attributes: Vec<AttrDecl>,
    /// Tag names.
    pub tags: Vec<Ident>,
    /// New cards.
    pub cards: Vec<CardDecl>,
    /// Edits of inherited cards.
    pub edits: Vec<CardEdit>,
    /// The whole declaration.
    pub span: Span,
}

/// `attribute NAME: TYPE [= DEFAULT]`.
#[derive(Clone, Debug, PartialEq)]
pub struct AttrDecl {
    /// Attribute name.
    pub name: Ident,
    /// Its type.
    pub ty: AttrType,
    /// Default for cards that do not set it.
    pub default: Option<Spanned<Literal>>,
    /// The whole declaration.
    pub span: Span,
}

/// The type of a card attribute.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrType {
    /// Any integer.
    Int,
    /// An integer in `lo..=hi`.
    Range(i64, i64),
    /// One of the listed symbols.
    Symbols(Vec<Ident>),
}

/// `card ID "名" attr=v +tag x4`.
#[derive(Clone, Debug, PartialEq)]
pub struct CardDecl {
    /// The ASCII id.
    pub id: Ident,
    /// Display name.
    pub display: Spanned<String>,
    /// Attribute values and tag changes.
    pub fields: Vec<CardField>,
    /// Physical copies (mahjong tiles have 4).
    pub copies: Option<Spanned<i64>>,
    /// The whole declaration.
    pub span: Span,
}

/// `edit ID attr=v -tag`.
#[derive(Clone, Debug, PartialEq)]
pub struct CardEdit {
    /// The card to change.
    pub id: Ident,
    /// The changes.
    pub fields: Vec<CardField>,
    /// The whole edit.
    pub span: Span,
}

/// One field of a card line.
#[derive(Clone, Debug, PartialEq)]
pub enum CardField {
    /// `name=value`.
    Set(Ident, Spanned<Literal>),
    /// `+tag`.
    AddTag(Ident),
    /// `-tag`.
    RemoveTag(Ident),
}

/// A literal value.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// An integer.
    Int(i64),
    /// `true` / `false`.
    Bool(bool),
    /// A string.
    Str(String),
    /// A bare name (a symbol such as 光, or a reference).
    Name(String),
}

/// `param NAME: TYPE = DEFAULT [in LO..HI] ["doc"]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamDecl {
    /// Name.
    pub name: Ident,
    /// Declared type.
    pub ty: Spanned<TypeName>,
    /// Default value.
    pub default: Expr,
    /// Allowed range, inclusive.
    pub range: Option<Spanned<(i64, i64)>>,
    /// One-line documentation.
    pub doc: Option<Spanned<String>>,
    /// Whole declaration.
    pub span: Span,
}

/// A type written in the source.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeName {
    /// `int`.
    Int,
    /// `bool`.
    Bool,
    /// `seat`.
    Seat,
    /// `card`.
    Card,
    /// `cards`.
    Cards,
    /// `list of T`.
    List(Box<TypeName>),
    /// A declared enum (or deck attribute) by name.
    Named(String),
}

/// `seats EXPR { N: roles… }`.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatsDecl {
    /// Number of seats.
    pub count: Expr,
    /// Role names, from the dealer on, per number of seats.
    pub roles: Vec<(Spanned<i64>, Vec<Ident>)>,
    /// Whole declaration.
    pub span: Span,
}

/// Who owns a zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// One zone for the table.
    Shared,
    /// One zone per seat.
    PerSeat,
}

/// Whether a zone keeps order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Ordered, top is last added.
    Stack,
    /// Unordered.
    Pile,
}

/// Who may see a zone's cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visibility {
    /// Nobody.
    Hidden,
    /// The owning seat only.
    Owner,
    /// Everyone.
    Public,
    /// Everyone sees the top card only.
    Top,
}

/// `zone NAME OWNER ORDER VISIBILITY`.
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneDecl {
    /// Name.
    pub name: Ident,
    /// Shared or per seat.
    pub owner: Owner,
    /// Stack or pile.
    pub order: Order,
    /// Visibility.
    pub visibility: Visibility,
    /// Whole declaration.
    pub span: Span,
}

/// `var NAME: TYPE [per seat] = EXPR`.
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    /// Name.
    pub name: Ident,
    /// Type.
    pub ty: Spanned<TypeName>,
    /// One per seat?
    pub per_seat: bool,
    /// One per card of the deck (`per card`)?
    pub per_card: bool,
    /// One per value of this enum (`per 構成`)?
    pub per_key: Option<Ident>,
    /// Initial value.
    pub init: Expr,
    /// Whole declaration.
    pub span: Span,
}

/// `enum NAME: A(alias, …) | B`.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumDecl {
    /// Name.
    pub name: Ident,
    /// Values with their aliases.
    pub values: Vec<(Ident, Vec<Ident>)>,
    /// Whole declaration.
    pub span: Span,
}

/// `cards NAME = EXPR`.
#[derive(Clone, Debug, PartialEq)]
pub struct CardsDecl {
    /// Name.
    pub name: Ident,
    /// The set.
    pub value: Expr,
    /// Whole declaration.
    pub span: Span,
}

/// `def NAME(params) = EXPR`: a pure function.
#[derive(Clone, Debug, PartialEq)]
pub struct DefDecl {
    /// Name.
    pub name: Ident,
    /// Parameters.
    pub params: Vec<Param>,
    /// Body.
    pub body: Expr,
    /// Whole declaration.
    pub span: Span,
}

/// `pattern NAME { group … require … }`, or `pattern NAME = A | B | …`.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternDecl {
    /// Name.
    pub name: Ident,
    /// The patterns it stands for, when written `= A | B | …` (then it has no groups):
    /// a split of any of them is a split of this one.
    pub alternatives: Vec<Ident>,
    /// Groups, in order.
    pub groups: Vec<GroupDecl>,
    /// Constraints over the whole match.
    pub requires: Vec<Expr>,
    /// Whole declaration.
    pub span: Span,
}

/// `group NAME[*N]: SIZE [shape | shape] [where EXPR]`.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupDecl {
    /// Name (with `*N`, names a list of N groups).
    pub name: Ident,
    /// How many such groups (default 1).
    pub count: Option<Spanned<i64>>,
    /// Cards per group.
    pub size: Spanned<i64>,
    /// Alternative shapes; empty means any cards.
    pub shapes: Vec<Spanned<Shape>>,
    /// `wild NAME`: the tag or named card set whose cards stand for any value in the
    /// group's `same` and `run` shapes.
    pub wild: Option<Ident>,
    /// Extra condition on the group.
    pub condition: Option<Expr>,
    /// Whole declaration.
    pub span: Span,
}

/// The shape a group must have.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// All cards share the attribute.
    Same(Ident),
    /// Consecutive values of the first attribute, all sharing the second.
    Run(Ident, Option<Ident>),
    /// All values of the attribute differ.
    Distinct(Ident),
    /// The cards' attribute spells a word of the named word list.
    Word(Ident),
}

/// `score NAME[(params)] [over P(expr) [best]] { stages }`.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreDecl {
    /// Name.
    pub name: Ident,
    /// Parameters (the first is usually the cards; the rest are context).
    pub params: Vec<Param>,
    /// Pattern the table reads, its argument, and whether to keep the best match.
    pub over: Option<ScoreOver>,
    /// Stages, applied in order.
    pub stages: Vec<Stage>,
    /// The name written after each stage's keyword (`times 素五 largest { … }`), one
    /// entry per stage in `stages`; `None` where the stage has no name. A variant's
    /// `score NAME { … }` (no parameter list) replaces the base's stages by these names.
    pub stage_names: Vec<Option<Ident>>,
    /// Whole declaration.
    pub span: Span,
}

/// `over PATTERN(EXPR) [best]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreOver {
    /// The pattern.
    pub pattern: Ident,
    /// The cards it splits.
    pub arg: Expr,
    /// Groups already formed (`over P(hand, exposed)`): a list of card sets, each one
    /// group of every split.
    pub exposed: Option<Expr>,
    /// Keep the most valuable of several matches.
    pub best: bool,
    /// Where written.
    pub span: Span,
}

/// How a stage combines its rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageMode {
    /// The first row that holds.
    First,
    /// Every row that holds.
    All,
    /// The row with the largest value that holds.
    Largest,
}

/// One stage of a score table.
#[derive(Clone, Debug, PartialEq)]
pub enum Stage {
    /// `yaku MODE { NAME VALUE when COND }`.
    Yaku(StageMode, Vec<YakuRow>, Span),
    /// `times MODE { FACTOR when COND }`.
    Times(StageMode, Vec<TimesRow>, Span),
    /// `plus MODE { NAME VALUE when COND }`.
    Plus(StageMode, Vec<YakuRow>, Span),
    /// `name { NAME|"template" when COND }`.
    Name(Vec<NameRow>, Span),
    /// `void { NAME when COND }`.
    Void(Vec<VoidRow>, Span),
}

/// `NAME VALUE when COND`.
#[derive(Clone, Debug, PartialEq)]
pub struct YakuRow {
    /// The yaku's name.
    pub name: Ident,
    /// Its value.
    pub value: Expr,
    /// When it holds.
    pub when: Expr,
    /// Whole row.
    pub span: Span,
}

/// `FACTOR when COND`.
#[derive(Clone, Debug, PartialEq)]
pub struct TimesRow {
    /// The factor.
    pub factor: Expr,
    /// When it applies.
    pub when: Expr,
    /// Whole row.
    pub span: Span,
}

/// `NAME when COND` or `"template {yaku} {factor}" when COND`.
#[derive(Clone, Debug, PartialEq)]
pub struct NameRow {
    /// A fixed name, or a template.
    pub name: NameOrTemplate,
    /// When it applies.
    pub when: Expr,
    /// Whole row.
    pub span: Span,
}

/// A result's display name.
#[derive(Clone, Debug, PartialEq)]
pub enum NameOrTemplate {
    /// A fixed name.
    Name(Ident),
    /// A template with `{yaku}` and `{factor}` holes.
    Template(Spanned<String>),
}

/// `NAME when COND` in a `void` stage.
#[derive(Clone, Debug, PartialEq)]
pub struct VoidRow {
    /// The yaku cancelled.
    pub name: Ident,
    /// When.
    pub when: Expr,
    /// Whole row.
    pub span: Span,
}

/// `NAME: TYPE [= DEFAULT]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Name.
    pub name: Ident,
    /// Type.
    pub ty: Spanned<TypeName>,
    /// Default, for context parameters.
    pub default: Option<Expr>,
    /// Whole parameter.
    pub span: Span,
}

/// `proc NAME[(params)] [-> TYPE] { … }`.
#[derive(Clone, Debug, PartialEq)]
pub struct ProcDecl {
    /// Name.
    pub name: Ident,
    /// Parameters.
    pub params: Vec<Param>,
    /// `-> TYPE`: the type of the value it returns, if it returns one.
    pub returns: Option<Spanned<TypeName>>,
    /// Body.
    pub body: Block,
    /// Whole declaration.
    pub span: Span,
}

/// `test "name" [with k = v, …] { … }`.
#[derive(Clone, Debug, PartialEq)]
pub struct TestDecl {
    /// The test's name.
    pub name: Spanned<String>,
    /// Parameter overrides for this test.
    pub with: Vec<(Ident, Spanned<Literal>)>,
    /// Body.
    pub body: Block,
    /// Whole declaration.
    pub span: Span,
}

/// A braced list of statements.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The statements.
    pub stmts: Vec<Stmt>,
    /// From `{` to `}`.
    pub span: Span,
}

/// A statement with its span.
pub type Stmt = Spanned<StmtKind>;

/// Statement forms.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `let x = e`.
    Let(Ident, Expr),
    /// `x[i] op= e`.
    Assign(LValue, AssignOp, Expr),
    /// `if c { } else { }` (else-if is an `If` inside the else block).
    If(Expr, Block, Option<Block>),
    /// `while c { }`.
    While(Expr, Block),
    /// `loop { }`.
    Loop(Block),
    /// `for x in e { }`.
    For(Ident, Expr, Block),
    /// `repeat n [as i] { }` (i counts from 1).
    Repeat(Expr, Option<Ident>, Block),
    /// `return [e]`.
    Return(Option<Expr>),
    /// `break`.
    Break,
    /// `decline`: the claim being taken gives the window to the next claim.
    Decline,
    /// `continue`.
    Continue,
    /// `move CARDS to ZONE`.
    Move(Expr, Expr),
    /// `shuffle ZONE`.
    Shuffle(Expr),
    /// `cut ZONE [set aside to ZONE]`.
    Cut(Expr, Option<Expr>),
    /// `deal n, m… from ZONE to ZONE [from SEAT]`.
    Deal(DealStmt),
    /// `gather ZONE`.
    Gather(Expr),
    /// `choose SEAT { options }` or `choose each x in SEATS { options }`.
    Choose(ChooseStmt),
    /// `claim x in SEATS { options }`.
    Claim(ClaimStmt),
    /// `pay AMOUNT from (each SEATS | LVALUE) to LVALUE`.
    Pay(PayStmt),
    /// `outcome EXPR`.
    Outcome(Expr),
    /// `record RESULT for SEAT`.
    Record(Expr, Expr),
    /// `dealer by draw lowest|highest ATTR [then lowest|highest ATTR …]`: the first
    /// key, then the tie-breaks in order.
    DealerByDraw(Extreme, Ident, Vec<(Extreme, Ident)>),
    /// `dealer = SEAT`.
    SetDealer(Expr),
    /// `reveal ZONE`.
    Reveal(Expr),
    /// `say EXPR`.
    Say(Expr),
    /// `expect EXPR`.
    Expect(Expr),
    /// `require EXPR [else "message"]`: stop with an error when it fails.
    Require(Expr, Option<Spanned<String>>),
    /// `tally LABEL EXPR [for SEAT]`: count a value under a label in statistics (for a
    /// seat: under the label and the agent in that seat).
    Tally(Ident, Expr, Option<Expr>),
    /// `answer MOVE[(ARG)]`: in a test, the move the next decision takes.
    Answer(Ident, Option<Expr>),
    /// `name(args)`.
    Call(Ident, Vec<Arg>),
}

/// Assignment operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    /// `=`.
    Set,
    /// `+=`.
    Add,
    /// `-=`.
    Sub,
}

/// `name` or `name[index]`.
#[derive(Clone, Debug, PartialEq)]
pub struct LValue {
    /// Variable name.
    pub name: Ident,
    /// Seat index for per-seat variables.
    pub index: Option<Box<Expr>>,
    /// Whole lvalue.
    pub span: Span,
}

/// `deal n, m… from ZONE to ZONE [from SEAT]`.
#[derive(Clone, Debug, PartialEq)]
pub struct DealStmt {
    /// Cards per seat in each pass.
    pub counts: Vec<Expr>,
    /// Source zone.
    pub from: Expr,
    /// Destination zone (a per-seat zone family or a shared zone).
    pub to: Expr,
    /// The first seat served (default: the seat after the dealer).
    pub start: Option<Expr>,
}

/// A decision.
#[derive(Clone, Debug, PartialEq)]
pub struct ChooseStmt {
    /// Who decides.
    pub who: Chooser,
    /// The moves on offer.
    pub options: Vec<MoveOption>,
}

/// Who makes a decision.
#[derive(Clone, Debug, PartialEq)]
pub enum Chooser {
    /// One seat.
    Seat(Expr),
    /// Every seat of a list, at once; the binder names the deciding seat.
    Each(Ident, Expr),
}

/// `claim x in SEATS { options }`.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimStmt {
    /// Binder for the claiming seat.
    pub seat: Ident,
    /// Seats that may claim, in tie-break order.
    pub seats: Expr,
    /// Claim moves.
    pub options: Vec<MoveOption>,
}

/// `move NAME[(x in DOMAIN)] ["label"] [when COND] [priority N] { … }`.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveOption {
    /// Move name.
    pub name: Ident,
    /// Parameter binder and its domain (cards of a zone, or a range of ints).
    pub param: Option<(Ident, Expr)>,
    /// Display label.
    pub label: Option<Spanned<String>>,
    /// Guard.
    pub guard: Option<Expr>,
    /// Claim priority (higher wins).
    pub priority: Option<Spanned<i64>>,
    /// What the move does.
    pub body: Block,
    /// Whole option.
    pub span: Span,
}

/// `pay AMOUNT from (each SEATS | LVALUE) to LVALUE`.
#[derive(Clone, Debug, PartialEq)]
pub struct PayStmt {
    /// Amount.
    pub amount: Expr,
    /// Payer.
    pub from: Payer,
    /// Payee.
    pub to: LValue,
}

/// Who pays.
#[derive(Clone, Debug, PartialEq)]
pub enum Payer {
    /// Each listed seat pays from the payee variable's family (e.g. `chips`).
    Each(Expr),
    /// One variable.
    One(LValue),
}

/// `lowest` / `highest`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extreme {
    /// Lowest value wins.
    Lowest,
    /// Highest value wins.
    Highest,
}

/// An expression with its span.
pub type Expr = Spanned<ExprKind>;

/// A call argument, optionally named (`win: 上がり`).
#[derive(Clone, Debug, PartialEq)]
pub struct Arg {
    /// Parameter name, if given.
    pub name: Option<Ident>,
    /// Value.
    pub value: Expr,
}

/// Expression forms.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// Integer literal.
    Int(i64),
    /// Boolean literal.
    Bool(bool),
    /// String literal.
    Str(String),
    /// A name: variable, parameter, zone, symbol, named set, builtin.
    Name(String),
    /// `cards(ID …)` — the ids as written, each with its span.
    Cards(Vec<Ident>),
    /// `cards("123m456p")` — a compact string of ids.
    CardsStr(Spanned<String>),
    /// `card(ID)`.
    Card(Ident),
    /// `[a, b, c]`.
    List(Vec<Expr>),
    /// `lo..hi` (inclusive), only as a binder domain.
    Range(Box<Expr>, Box<Expr>),
    /// Unary minus.
    Neg(Box<Expr>),
    /// `not e`.
    Not(Box<Expr>),
    /// Binary operator.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `e.field`.
    Field(Box<Expr>, Ident),
    /// `e[i]`.
    Index(Box<Expr>, Box<Expr>),
    /// `e.name(args)`: a method of a value (`r.has(平和)`).
    Method(Box<Expr>, Ident, Vec<Arg>),
    /// `f(args)`.
    Call(Ident, Vec<Arg>),
    /// `f(x in DOMAIN: BODY)` — count, sum, all, any, filter, max, min.
    Binder(Ident, Ident, Box<Expr>, Box<Expr>),
    /// `if c then a else b`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `or`.
    Or,
    /// `and`.
    And,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `in` (membership).
    In,
    /// `is` (tag test).
    Is,
    /// `+` (also card-set union / adding a card).
    Add,
    /// `-` (also card-set difference).
    Sub,
    /// `*`.
    Mul,
    /// `/` (integer division, towards negative infinity).
    Div,
    /// `%`.
    Rem,
}
