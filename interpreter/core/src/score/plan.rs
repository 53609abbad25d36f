//! Conditions answered at compile time from inputs with few possible values.
//!
//! In a split, a group whose only shape is `same A` has one value of A throughout, so
//! `GROUP.A` is fixed by the group's class; a `bool` or enum parameter of a table, and
//! the table's `yaku` (one of its yaku names, or none), take one of a few values too. A
//! condition (a score row's `when`, a pattern's `require`) often settles on such inputs
//! alone before it reads anything else (`三.kind == 素 and 五.kind == 短`;
//! `五.kind == 素 and 対(五) >= 2` when 五 is not 素; `win == 上がり and first_turn`).
//! For every combination of the inputs such conditions read, the compiler evaluates
//! those parts once and records, per condition, whether it is false, true, or must be
//! evaluated (it reaches a part that reads more). At run time the inputs' values give
//! an index into that table, and a settled condition costs one load.
//!
//! Only the parts evaluation would reach first are settled: `A and B` with `A` false
//! is false, and with `A` true it is `B`'s answer; a part that reads anything else
//! (cards, other locals, a def's result) makes the whole condition evaluated as
//! written, so nothing is skipped that evaluation would have run, and errors stay the
//! same.

use super::residual::{Residual, Rest};
use crate::engine::{Cx, RuntimeError, EVAL_BUDGET};
use crate::ir::{Expr, Loc, Program, ShapeDef, SlotDef};
use crate::model::CardSet;
use crate::value::Value;

/// Most input combinations a stage tabulates (the product of its inputs' value counts).
const MAX_KEYS: usize = 4096;

/// Most answers a stage stores (conditions × input combinations).
const MAX_ANSWERS: usize = 1 << 20;

/// The answer "false" in a table.
const NO: u8 = 0;
/// The answer "true".
const YES: u8 = 1;
/// The condition must be evaluated as written.
const ASK: u8 = 2;
/// Answers from here on name a [`Residual`] of the condition: `REST + i` is its `i`th.
const REST: u8 = 3;

/// Compile-time answers for the conditions of a table's stages (or a pattern's
/// requires, as one stage), each stage indexed by the values of the inputs its
/// conditions read (see the module documentation).
#[derive(Clone, Debug)]
pub struct Plan {
    /// The groups whose classes some stage reads: slot, and the class index of each
    /// card.
    classes: Vec<(u16, Box<[u8]>)>,
    /// Per stage, its answers (`None`: every condition is always evaluated).
    stages: Vec<Option<Stage>>,
    /// The table's names as shared text, for its results.
    names: super::Names,
}

/// The class index of each group of a split that its plan reads, worked out once per
/// split for all the stages.
pub struct SplitClasses([u8; MAX_GROUPS]);

/// The most groups a plan reads classes of (as many as a pattern has slots).
const MAX_GROUPS: usize = 32;

/// A group's class not worked out (a class index is below 255: see [`Stage::build`]).
const NO_CLASS: u8 = u8::MAX;

/// One stage's answers.
#[derive(Clone, Debug)]
pub struct Stage {
    /// The inputs, each with the weight of its value's index in a key.
    inputs: Vec<(Input, u32)>,
    /// Per condition, its answer for each key (`None`: always evaluated as written).
    answers: Vec<Option<Box<[u8]>>>,
    /// Per condition, what is left of it under the keys that leave it open.
    residuals: Vec<Box<[Residual]>>,
    /// For each key, the conditions that hold as bits, when the key settles all of
    /// them ([`UNSETTLED`] otherwise).
    masks: Option<Box<[u64]>>,
}

/// A stage mask meaning "some condition of the stage must be evaluated" (a stage of up
/// to 63 conditions never has this bit).
const UNSETTLED: u64 = 1 << 63;

/// Something a plan's key is made of.
#[derive(Clone, Debug)]
enum Input {
    /// The class of the `same` group in a slot.
    Class(u16),
    /// A local slot holding one of a few values (a parameter, `yaku`).
    Local(u16, Domain),
}

/// The few values a local may hold, each with its index, found without comparing
/// values one by one.
#[derive(Clone, Debug)]
struct Domain {
    /// Index + 1 of `false` and of `true` (0: not one of the values).
    bools: [u8; 2],
    /// Index + 1 of "unset".
    unit: u8,
    /// Index + 1 of each symbol, by symbol id.
    syms: Box<[u8]>,
    /// Index + 1 of each integer value.
    ints: Box<[(i64, u8)]>,
}

/// The largest symbol id a [`Domain`] indexes.
const MAX_SYM: u32 = 1 << 16;

impl Domain {
    /// The domain of `values` (booleans, symbols, integers and unset only).
    fn new(values: &[Value]) -> Option<Domain> {
        if values.is_empty() || values.len() >= u8::MAX as usize {
            return None;
        }
        let mut d = Domain {
            bools: [0; 2],
            unit: 0,
            syms: Box::new([]),
            ints: Box::new([]),
        };
        let mut ints = Vec::new();
        let top = values
            .iter()
            .filter_map(|v| {
                if let Value::Sym(s) = v {
                    Some(*s)
                } else {
                    None
                }
            })
            .max();
        if let Some(top) = top {
            if top >= MAX_SYM {
                return None;
            }
            d.syms = vec![0; top as usize + 1].into_boxed_slice();
        }
        for (i, v) in values.iter().enumerate() {
            let at = match v {
                Value::Bool(b) => &mut d.bools[*b as usize],
                Value::Unit => &mut d.unit,
                Value::Sym(s) => &mut d.syms[*s as usize],
                Value::Int(n) => {
                    if !ints.iter().any(|(x, _)| x == n) {
                        ints.push((*n, i as u8 + 1));
                    }
                    continue;
                }
                _ => return None,
            };
            if *at == 0 {
                *at = i as u8 + 1;
            }
        }
        d.ints = ints.into_boxed_slice();
        Some(d)
    }

    /// The index of `v` among the values.
    #[inline]
    fn index(&self, v: &Value) -> Option<usize> {
        let i = match v {
            Value::Bool(b) => self.bools[*b as usize],
            Value::Unit => self.unit,
            Value::Sym(s) => *self.syms.get(*s as usize)?,
            Value::Int(n) => self.ints.iter().find(|(x, _)| x == n)?.1,
            _ => 0,
        };
        (i as usize).checked_sub(1)
    }
}

impl Plan {
    /// Calls `f` on every expression the plan keeps to evaluate (the residual parts of
    /// conditions), for the compiler's last pass.
    pub(crate) fn exprs_mut(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        for stage in self.stages.iter_mut().flatten() {
            for residuals in &mut stage.residuals {
                for r in residuals.iter_mut() {
                    if let super::residual::Residual::Eval(e) = r {
                        f(e);
                    }
                }
            }
        }
    }

    /// Stage `i`'s answers, if any.
    #[inline]
    pub fn stage(&self, i: usize) -> Option<&Stage> {
        self.stages.get(i)?.as_ref()
    }

    /// The table's names, shared by its results.
    pub fn names(&self) -> &super::Names {
        &self.names
    }

    /// The classes of a split's groups, as the stages' keys read them.
    #[inline]
    pub fn classes(&self, groups: &[CardSet]) -> SplitClasses {
        let mut c = [NO_CLASS; MAX_GROUPS];
        for (slot, class_of) in &self.classes {
            let found = groups
                .get(*slot as usize)
                .and_then(CardSet::first)
                .and_then(|card| class_of.get(card as usize));
            if let (Some(x), Some(at)) = (found, c.get_mut(*slot as usize)) {
                *at = *x;
            }
        }
        SplitClasses(c)
    }

    /// Whether each class the plan reads is one value on every card of each of `sets`
    /// (cards outside what it reads included): then a group inside one of the sets has
    /// the same class whichever of its cards it holds.
    pub(crate) fn reads_only(&self, sets: &[CardSet]) -> bool {
        self.classes.iter().all(|(_, class_of)| {
            sets.iter().all(|set| {
                let mut of = set.iter().map(|c| class_of.get(c as usize));
                of.next().is_none_or(|first| of.all(|x| x == first))
            })
        })
    }

    /// Builds the answers for `conds` (in the order they are numbered at run time) over
    /// a pattern's `slots`, with `locals` the local slots that hold one of a few values
    /// (and those values); `stages` cuts the conditions into runs (their lengths), each
    /// tabulated over its own inputs. `None` when no condition can be settled this way.
    pub fn build(
        p: &Program,
        slots: &[SlotDef],
        locals: &[(u16, Vec<Value>)],
        conds: &[&Expr],
        stages: &[usize],
    ) -> Option<Plan> {
        // Only locals whose values a [`Domain`] can index are inputs.
        let locals: Vec<(u16, Vec<Value>)> = locals
            .iter()
            .filter(|(_, v)| Domain::new(v).is_some())
            .cloned()
            .collect();
        let known = Known {
            slots,
            locals: &locals,
        };
        let mut out = Vec::with_capacity(stages.len());
        let mut classes = Vec::new();
        let mut first = 0;
        for &n in stages {
            let run = conds.get(first..first + n)?;
            first += n;
            out.push(Stage::build(p, &known, run, &mut classes));
        }
        out.iter().any(Option::is_some).then_some(Plan {
            classes,
            stages: out,
            names: super::Names::default(),
        })
    }
}

impl Stage {
    /// Whether no key of this stage leaves a condition to the evaluator: every answer
    /// is settled or a rest answered on the groups' card sets, so asking this stage
    /// anything (with a key it tabulated) cannot fail.
    pub(crate) fn never_evaluates(&self) -> bool {
        self.answers.iter().zip(&self.residuals).all(|(a, rests)| {
            a.as_ref().is_some_and(|a| {
                a.iter().all(|&x| match x {
                    NO | YES => true,
                    ASK => false,
                    r => matches!(rests.get((r - REST) as usize), Some(Residual::Quick(_))),
                })
            })
        })
    }

    /// Whether the stage's key reads a local (a parameter, `yaku` or `factor`), not only
    /// the groups' classes.
    pub(crate) fn reads_locals(&self) -> bool {
        self.inputs
            .iter()
            .any(|(i, _)| matches!(i, Input::Local(..)))
    }

    /// The key of a split at this stage: the combination of its inputs' values (`None`
    /// when one is outside what was tabulated, as an empty group or an unexpected value
    /// would be).
    #[inline]
    pub fn key(&self, classes: &SplitClasses, locals: &[Value]) -> Option<usize> {
        let mut k = 0usize;
        for (input, weight) in &self.inputs {
            let ix = match input {
                Input::Class(slot) => match classes.0.get(*slot as usize) {
                    Some(&c) if c != NO_CLASS => c as usize,
                    _ => return None,
                },
                Input::Local(slot, domain) => domain.index(locals.get(*slot as usize)?)?,
            };
            k += ix * *weight as usize;
        }
        Some(k)
    }

    /// Which conditions hold under `key` (bit `j` for the `j`th), when the key settles
    /// all of them.
    #[inline]
    pub fn rows(&self, key: usize) -> Option<u64> {
        match self.masks.as_ref()?.get(key) {
            Some(&m) if m != UNSETTLED => Some(m),
            _ => None,
        }
    }

    /// Condition `j`'s answer under `key`: settled, what is left of it, or `None`
    /// (evaluate it as written).
    #[inline]
    pub fn answer(&self, j: usize, key: usize) -> Option<Answer<'_>> {
        match *self.answers.get(j)?.as_ref()?.get(key)? {
            NO => Some(Answer::Is(false)),
            YES => Some(Answer::Is(true)),
            ASK => None,
            r => self
                .residuals
                .get(j)?
                .get((r - REST) as usize)
                .map(Answer::Rest),
        }
    }

    /// Whether condition `j` holds under `key` for the split `groups`, when that needs
    /// no evaluation: settled, or a rest answered on the groups' card sets (`None`: it
    /// must be evaluated).
    #[inline]
    pub fn holds_on(&self, j: usize, key: usize, groups: &[CardSet]) -> Option<bool> {
        match self.answer(j, key)? {
            Answer::Is(b) => Some(b),
            Answer::Rest(r) => r.holds_on(groups),
        }
    }

    /// Whether condition `j` holds under `key` for the split in view (`cond` is the
    /// condition as written).
    #[inline]
    pub fn holds(
        &self,
        cx: &mut Cx<'_>,
        j: usize,
        key: usize,
        cond: &Expr,
    ) -> Result<bool, RuntimeError> {
        match self.answer(j, key) {
            Some(Answer::Is(b)) => Ok(b),
            Some(Answer::Rest(r)) => r.holds(cx),
            None => cx.eval_bool(cond),
        }
    }

    /// The answers for one stage's conditions; `None` when none can be settled, or the
    /// table would be too large. The groups whose classes it reads are added to
    /// `classes` (shared by the stages).
    fn build(
        p: &Program,
        known: &Known<'_>,
        conds: &[&Expr],
        classes: &mut Vec<(u16, Box<[u8]>)>,
    ) -> Option<Stage> {
        let mut read: Vec<Read> = Vec::new();
        for c in conds {
            settled_reads(c, known, &mut read);
        }
        read.sort_unstable();
        read.dedup();
        if read.is_empty() {
            return None;
        }
        // Mixed-radix keys over the inputs read; `reps` holds each input's values as
        // evaluation sees them (a representative card of each class, or the values).
        let mut inputs = Vec::with_capacity(read.len());
        let mut reps: Vec<Vec<Value>> = Vec::with_capacity(read.len());
        let mut size = 1usize;
        for r in &read {
            let (input, values) = match *r {
                Read::Class(slot, attr) => {
                    let of_attr = p.deck.classes(attr);
                    // Class indices stay below the "not worked out" mark.
                    if of_attr.len() >= NO_CLASS as usize || slot as usize >= MAX_GROUPS {
                        return None;
                    }
                    let mut of = vec![0u8; p.deck.len()];
                    let mut firsts = Vec::with_capacity(of_attr.len());
                    for (ci, class) in of_attr.iter().enumerate() {
                        for card in class.iter() {
                            if let Some(x) = of.get_mut(card as usize) {
                                *x = ci as u8;
                            }
                        }
                        firsts.push(Value::Card(class.first()?));
                    }
                    if !classes.iter().any(|(s, _)| *s == slot) {
                        classes.push((slot, of.into_boxed_slice()));
                    }
                    (Input::Class(slot), firsts)
                }
                Read::Local(slot) => {
                    let values = known.locals.iter().find(|(s, _)| *s == slot)?.1.clone();
                    (Input::Local(slot, Domain::new(&values)?), values)
                }
            };
            if values.is_empty() {
                return None;
            }
            inputs.push((input, u32::try_from(size).ok()?));
            size = size.checked_mul(values.len())?;
            reps.push(values);
            if size > MAX_KEYS {
                return None;
            }
        }
        if size.checked_mul(conds.len())? > MAX_ANSWERS {
            return None;
        }
        let frame = known
            .locals
            .iter()
            .map(|(s, _)| *s as usize + 1)
            .max()
            .unwrap_or(0);
        let mut answers: Vec<Vec<u8>> = vec![Vec::with_capacity(size); conds.len()];
        let mut rests: Vec<Vec<Rest<'_>>> = (0..conds.len()).map(|_| Vec::new()).collect();
        let mut groups = vec![CardSet::EMPTY; known.slots.len()];
        let mut vals = vec![Value::Unit; frame.max(16)];
        for key in 0..size {
            // One card of each class stands for a group: the settled parts read nothing
            // of it but its class's value.
            let mut rest = key;
            for ((input, _), values) in inputs.iter().zip(&reps) {
                let v = values[rest % values.len()].clone();
                rest /= values.len();
                match (input, v) {
                    (Input::Class(slot), Value::Card(c)) => {
                        groups[*slot as usize] = CardSet::single(c)
                    }
                    (Input::Local(slot, _), v) => vals[*slot as usize] = v,
                    _ => return None,
                }
            }
            let mut cx = Cx {
                p,
                b: None,
                locals: &mut vals,
                groups: &groups,
                budget: EVAL_BUDGET,
                at: Loc::default(),
            };
            for ((c, out), rests) in conds.iter().zip(&mut answers).zip(&mut rests) {
                out.push(match answer(&mut cx, c, known) {
                    Found::Is(false) => NO,
                    Found::Is(true) => YES,
                    Found::Rest(r) => match rests.iter().position(|x| *x == r) {
                        Some(i) => REST.saturating_add(i as u8),
                        None if rests.len() < (u8::MAX - REST) as usize => {
                            rests.push(r);
                            REST + (rests.len() - 1) as u8
                        }
                        None => ASK,
                    },
                });
            }
        }
        // What is left under each key, made once per distinct rest: answered on card
        // sets where it can be, as written (no entry) where it is the whole condition.
        let mut residuals = Vec::with_capacity(conds.len());
        for ((c, out), rests) in conds.iter().zip(&mut answers).zip(&rests) {
            let made: Vec<Option<Residual>> = rests.iter().map(|r| Residual::of(p, c, r)).collect();
            let mut kept: Vec<Residual> = Vec::new();
            let mut index = vec![ASK; made.len()];
            for (i, m) in made.into_iter().enumerate() {
                if let Some(m) = m {
                    index[i] = REST + kept.len() as u8;
                    kept.push(m);
                }
            }
            for a in out.iter_mut().filter(|a| **a >= REST) {
                *a = index[(*a - REST) as usize];
            }
            residuals.push(kept.into_boxed_slice());
        }
        let answers: Vec<Option<Box<[u8]>>> = answers
            .into_iter()
            .map(|a| (!a.iter().all(|x| *x == ASK)).then(|| a.into_boxed_slice()))
            .collect();
        if answers.iter().all(Option::is_none) {
            return None;
        }
        let masks = if conds.len() < 64 && answers.iter().all(Option::is_some) {
            let m: Box<[u64]> = (0..size)
                .map(|key| {
                    let mut m = 0u64;
                    for (j, a) in answers.iter().enumerate() {
                        match a.as_ref().map(|a| a[key]) {
                            Some(YES) => m |= 1 << j,
                            Some(NO) => {}
                            _ => return UNSETTLED,
                        }
                    }
                    m
                })
                .collect();
            (!m.iter().all(|x| *x == UNSETTLED)).then_some(m)
        } else {
            None
        };
        Some(Stage {
            inputs,
            answers,
            residuals,
            masks,
        })
    }
}

/// What a plan may read: the pattern's slots (for `same` groups) and the few-valued
/// locals.
struct Known<'a> {
    slots: &'a [SlotDef],
    locals: &'a [(u16, Vec<Value>)],
}

/// An input a settled part reads.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Read {
    /// `GROUP.A` of the group in a slot, on attribute A.
    Class(u16, u16),
    /// A few-valued local slot.
    Local(u16),
}

/// A condition's answer under one key.
pub enum Answer<'a> {
    /// Settled.
    Is(bool),
    /// Left open: this part is what evaluation would run.
    Rest(&'a Residual),
}

/// While building: settled, or what is left to evaluate.
enum Found<'e> {
    Is(bool),
    Rest(Rest<'e>),
}

/// The answer of `e` when only the settled parts evaluation reaches first are known, or
/// what is left of it to evaluate.
fn answer<'e>(cx: &mut Cx<'_>, e: &'e Expr, known: &Known<'_>) -> Found<'e> {
    // A first part left open as written leaves the whole of `e` open as written; what is
    // left of a part that was settled further in is followed by the rest of `e`.
    match e {
        Expr::Not(x) => match answer(cx, x, known) {
            Found::Is(b) => Found::Is(!b),
            Found::Rest(Rest::Whole(w)) if std::ptr::eq(w, &**x) => Found::Rest(Rest::Whole(e)),
            Found::Rest(r) => Found::Rest(Rest::Not(Box::new(r))),
        },
        Expr::And(a, b) => match answer(cx, a, known) {
            Found::Is(false) => Found::Is(false),
            Found::Is(true) => answer(cx, b, known),
            Found::Rest(Rest::Whole(w)) if std::ptr::eq(w, &**a) => Found::Rest(Rest::Whole(e)),
            Found::Rest(r) => Found::Rest(Rest::And(Box::new(r), b)),
        },
        Expr::Or(a, b) => match answer(cx, a, known) {
            Found::Is(true) => Found::Is(true),
            Found::Is(false) => answer(cx, b, known),
            Found::Rest(Rest::Whole(w)) if std::ptr::eq(w, &**a) => Found::Rest(Rest::Whole(e)),
            Found::Rest(r) => Found::Rest(Rest::Or(Box::new(r), b)),
        },
        Expr::If(c, a, b) => match answer(cx, c, known) {
            Found::Is(true) => answer(cx, a, known),
            Found::Is(false) => answer(cx, b, known),
            Found::Rest(Rest::Whole(w)) if std::ptr::eq(w, &**c) => Found::Rest(Rest::Whole(e)),
            Found::Rest(r) => Found::Rest(Rest::If(Box::new(r), a, b)),
        },
        _ if settled_only(e, known) => match cx.eval_bool(e) {
            Ok(b) => Found::Is(b),
            // Left to run time, where it fails as written.
            Err(_) => Found::Rest(Rest::Whole(e)),
        },
        _ => Found::Rest(Rest::Whole(e)),
    }
}

/// The inputs read by the parts of `e` that [`answer`] may settle.
fn settled_reads(e: &Expr, known: &Known<'_>, out: &mut Vec<Read>) {
    match e {
        Expr::Not(x) => settled_reads(x, known, out),
        Expr::And(a, b) | Expr::Or(a, b) => {
            settled_reads(a, known, out);
            settled_reads(b, known, out);
        }
        Expr::If(c, a, b) => {
            settled_reads(c, known, out);
            settled_reads(a, known, out);
            settled_reads(b, known, out);
        }
        _ if settled_only(e, known) => inputs_read(e, out),
        _ => {}
    }
}

/// Whether `e` reads nothing but constants, `GROUP.A` of groups whose only shape is
/// `same A` without wild cards (fixed by the group's class, which is its first card's:
/// a wild card may come first) and few-valued locals.
fn settled_only(e: &Expr, k: &Known<'_>) -> bool {
    match e {
        Expr::Const(_) | Expr::Cards(_) => true,
        Expr::GroupAttr(a, g) => match &**g {
            Expr::Group(s) => k.slots.get(*s as usize).is_some_and(|slot| {
                slot.shapes.as_slice() == [ShapeDef::Same(*a)] && slot.wild.is_empty()
            }),
            _ => false,
        },
        Expr::Local(s) => k.locals.iter().any(|(x, _)| x == s),
        Expr::Not(x) | Expr::Neg(x) | Expr::Attr(_, x) | Expr::HasTag(_, x) => settled_only(x, k),
        Expr::And(a, b) | Expr::Or(a, b) | Expr::Bin(_, a, b) | Expr::Range(a, b) => {
            settled_only(a, k) && settled_only(b, k)
        }
        Expr::If(c, a, b) => settled_only(c, k) && settled_only(a, k) && settled_only(b, k),
        Expr::List(items) => items.iter().all(|i| settled_only(i, k)),
        _ => false,
    }
}

/// The inputs a [`settled_only`] expression reads.
fn inputs_read(e: &Expr, out: &mut Vec<Read>) {
    match e {
        Expr::GroupAttr(a, g) => {
            if let Expr::Group(s) = &**g {
                out.push(Read::Class(*s, *a));
            }
        }
        Expr::Local(s) => out.push(Read::Local(*s)),
        Expr::Not(x) | Expr::Neg(x) | Expr::Attr(_, x) | Expr::HasTag(_, x) => inputs_read(x, out),
        Expr::And(a, b) | Expr::Or(a, b) | Expr::Bin(_, a, b) | Expr::Range(a, b) => {
            inputs_read(a, out);
            inputs_read(b, out);
        }
        Expr::If(c, a, b) => {
            inputs_read(c, out);
            inputs_read(a, out);
            inputs_read(b, out);
        }
        Expr::List(items) => items.iter().for_each(|i| inputs_read(i, out)),
        _ => {}
    }
}
