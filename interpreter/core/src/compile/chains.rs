//! Patterns and score tables that use one another: a cycle would recurse forever at
//! run time, and a long chain would nest the evaluation as deep as it is long. Both
//! are found in one pass over the graph of uses (Tarjan's strongly connected
//! components, without recursion), in time linear in the program.

use super::Compiler;
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Loc, StageDef};

/// How long a chain of patterns and score tables, each using the next (in a `where`, a
/// `require`, a row, an `over` or a default), may be: evaluating it nests one level
/// per link, each level with its own expressions. Real games use two or three.
pub const MAX_TABLE_CHAIN: usize = 32;

/// How deep the evaluation of such a chain may nest in all: each link as deep as its
/// deepest expression (and, for a pattern, its groups, which the search fills one
/// inside another). Evaluation recurses once per level; a few thousand levels fill
/// the 2 MiB stack of a worker thread, so the checker allows well under that, and far
/// above a real game (a few links, each a few dozen levels).
pub const MAX_CHAIN_NESTING: u32 = 2_000;

/// Reports every group of tables and patterns that use themselves, and every chain of
/// them longer than [`MAX_TABLE_CHAIN`].
pub(super) fn check(c: &mut Compiler) {
    let graph = Graph::of(c);
    let components = graph.components();
    let mut looped: Vec<&Vec<usize>> = components
        .iter()
        .filter(|comp| comp.len() > 1 || graph.edges[comp[0]].binary_search(&comp[0]).is_ok())
        .collect();
    // Reported in the order the groups are declared (scores first, then patterns).
    looped.sort_by_key(|comp| comp[0]);
    for comp in &looped {
        report_cycle(c, &graph, comp);
    }
    // A chain's length is only defined without cycles (which are errors already).
    if looped.is_empty() {
        check_chains(c, &graph, &components);
    }
}

/// The tables (as `i`) and patterns (as `tables + i`) each one uses, and how deep
/// each one's own evaluation nests.
struct Graph {
    tables: usize,
    edges: Vec<Vec<usize>>,
    nesting: Vec<u32>,
}

impl Graph {
    fn of(c: &Compiler) -> Graph {
        let ns = c.program.scores.len();
        let np = c.program.patterns.len();
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); ns + np];
        let mut nesting = vec![1u32; ns + np];
        for (i, t) in c.program.scores.iter().enumerate() {
            let mut exprs: Vec<&Expr> = Vec::new();
            if let Some((pat, arg, _)) = &t.over {
                edges[i].push(ns + *pat as usize);
                exprs.push(arg);
            }
            exprs.extend(&t.formed);
            exprs.extend(t.params.iter().filter_map(|(_, _, d)| d.as_ref()));
            for st in &t.stages {
                match st {
                    StageDef::Yaku(_, rows) | StageDef::Plus(_, rows) => {
                        rows.iter().for_each(|(_, v, w)| exprs.extend([v, w]))
                    }
                    StageDef::Times(_, rows) => rows.iter().for_each(|(f, w)| exprs.extend([f, w])),
                    StageDef::Name(rows) => exprs.extend(rows.iter().map(|(_, w)| w)),
                    StageDef::Void(rows) => exprs.extend(rows.iter().map(|(_, w)| w)),
                }
            }
            for e in exprs {
                refs(e, ns, &mut edges[i]);
                nesting[i] = nesting[i].max(1 + crate::ir::depth(e));
            }
        }
        for (i, pd) in c.program.patterns.iter().enumerate() {
            let exprs = pd
                .requires
                .iter()
                .chain(pd.slots.iter().filter_map(|s| s.condition.as_ref()));
            let groups = pd.slots.len() as u32;
            for e in exprs {
                refs(e, ns, &mut edges[ns + i]);
                nesting[ns + i] = nesting[ns + i].max(1 + groups + crate::ir::depth(e));
            }
        }
        // Each use counts once: a table naming another in every row is one edge.
        for out in &mut edges {
            out.sort_unstable();
            out.dedup();
        }
        Graph {
            tables: ns,
            edges,
            nesting,
        }
    }

    fn name(&self, c: &Compiler, n: usize) -> String {
        match n.checked_sub(self.tables) {
            None => format!("score `{}`", c.program.scores[n].name),
            Some(p) => format!("pattern `{}`", c.program.patterns[p].name),
        }
    }

    fn loc(&self, c: &Compiler, n: usize) -> Loc {
        match n.checked_sub(self.tables) {
            None => c.program.scores[n].loc,
            Some(p) => c.program.patterns[p].loc,
        }
    }

    /// The strongly connected components, each a node list with its smallest node
    /// first; a component comes after every component it uses.
    fn components(&self) -> Vec<Vec<usize>> {
        const NONE: usize = usize::MAX;
        let n = self.edges.len();
        let mut index = vec![NONE; n];
        let mut low = vec![0; n];
        let mut on_stack = vec![false; n];
        let mut stack: Vec<usize> = Vec::new();
        let mut out = Vec::new();
        let mut next = 0;
        // The walk's own stack: a node and how many of its edges it has followed.
        let mut walk: Vec<(usize, usize)> = Vec::new();
        for root in 0..n {
            if index[root] != NONE {
                continue;
            }
            walk.push((root, 0));
            while let Some(top) = walk.last_mut() {
                let (v, followed) = *top;
                if followed == 0 && index[v] == NONE {
                    index[v] = next;
                    low[v] = next;
                    next += 1;
                    stack.push(v);
                    on_stack[v] = true;
                }
                if let Some(&w) = self.edges[v].get(followed) {
                    top.1 += 1;
                    if index[w] == NONE {
                        walk.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                walk.pop();
                if let Some(&(parent, _)) = walk.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    comp.sort_unstable();
                    out.push(comp);
                }
            }
        }
        out
    }
}

/// Reports one cycle of a group that uses itself: the path back to the group's first
/// table or pattern, searched depth first from it within the group.
fn report_cycle(c: &mut Compiler, g: &Graph, comp: &[usize]) {
    let start = comp[0];
    let n = g.edges.len();
    let mut in_comp = vec![false; n];
    comp.iter().for_each(|&m| in_comp[m] = true);
    // Each node's predecessor on the path it was reached by.
    let mut parent = vec![usize::MAX; n];
    let mut seen = vec![false; n];
    let mut todo = vec![start];
    let mut last = None;
    'search: while let Some(v) = todo.pop() {
        for &m in &g.edges[v] {
            if m == start {
                last = Some(v);
                break 'search;
            }
            if in_comp[m] && !seen[m] {
                seen[m] = true;
                parent[m] = v;
                todo.push(m);
            }
        }
    }
    let mut path = vec![start];
    let mut at = last.unwrap_or(start);
    let mut back = Vec::new();
    while at != start {
        back.push(at);
        at = parent[at];
    }
    path.extend(back.into_iter().rev());
    path.push(start);
    let chain: Vec<String> = path.iter().map(|&x| g.name(c, x)).collect();
    c.error(
        Diagnostic::error(
            "fuda::recursive-table",
            format!("{} uses itself: {}", g.name(c, start), chain.join(" → ")),
            g.loc(c, start),
            "declared here",
        )
        .with_help("a score table or pattern may use others, but not itself: the evaluation would never end"),
    );
}

/// At most this many names of a long chain are spelt out in its message.
const SHOWN_LINKS: usize = 6;

/// Reports each table or pattern that starts a chain longer than [`MAX_TABLE_CHAIN`],
/// or whose evaluation nests deeper than [`MAX_CHAIN_NESTING`], and is not itself used
/// by one: the graph has no cycle, so each component is one node, callees first.
fn check_chains(c: &mut Compiler, g: &Graph, components: &[Vec<usize>]) {
    let n = g.edges.len();
    // The longest chain starting at each node, in nodes, and the next node on it; and
    // the deepest nesting of an evaluation starting there, and the next node on that.
    let mut length = vec![1usize; n];
    let mut next = vec![usize::MAX; n];
    let mut nesting = g.nesting.clone();
    let mut next_deep = vec![usize::MAX; n];
    for comp in components {
        let v = comp[0];
        for &w in &g.edges[v] {
            if length[w] + 1 > length[v] {
                length[v] = length[w] + 1;
                next[v] = w;
            }
            let through = g.nesting[v].saturating_add(nesting[w]);
            if through > nesting[v] {
                nesting[v] = through;
                next_deep[v] = w;
            }
        }
    }
    let too_long = |len: usize| len > MAX_TABLE_CHAIN;
    report_long(c, g, &length, &next, too_long, |c, v, links| {
        Diagnostic::error(
            "fuda::too-deep",
            format!(
                "{} starts a chain of {} patterns and score tables, each using the next: at most {MAX_TABLE_CHAIN} may nest",
                g.name(c, v),
                length[v]
            ),
            g.loc(c, v),
            format!("{} links long", length[v]),
        )
        .with_label(g.loc(c, next[v]), "uses this, which uses the next…")
        .with_help(format!(
            "the chain: {links}; evaluating it nests one level per link: test the cards in fewer steps"
        ))
    });
    // A chain too long is reported as such; otherwise, one nesting too deep.
    if length.iter().any(|&l| too_long(l)) {
        return;
    }
    let too_deep = |d: u32| d > MAX_CHAIN_NESTING;
    report_long(c, g, &nesting, &next_deep, too_deep, |c, v, links| {
        Diagnostic::error(
            "fuda::too-deep",
            format!(
                "evaluating {} nests {} levels deep through the patterns and score tables it uses: at most {MAX_CHAIN_NESTING}",
                g.name(c, v),
                nesting[v]
            ),
            g.loc(c, v),
            format!("{} levels deep", nesting[v]),
        )
        .with_help(format!(
            "the chain: {links}; each one nests as deep as its deepest expression: make the conditions shallower (a `def` does not help: it is expanded where used), or use fewer links"
        ))
    });
}

/// Reports each node whose `size` is `too_big` and that no such node uses, with the
/// chain it starts (following `next`) spelt out for the diagnostic `say` writes.
fn report_long<T: Copy>(
    c: &mut Compiler,
    g: &Graph,
    size: &[T],
    next: &[usize],
    too_big: impl Fn(T) -> bool,
    say: impl Fn(&Compiler, usize, String) -> Diagnostic,
) {
    let n = g.edges.len();
    let mut used_by_big = vec![false; n];
    for (out, _) in g.edges.iter().zip(size).filter(|(_, &s)| too_big(s)) {
        out.iter().for_each(|&w| used_by_big[w] = true);
    }
    for v in 0..n {
        if !too_big(size[v]) || used_by_big[v] {
            continue;
        }
        // The first few links, and the last.
        let mut links = Vec::new();
        let mut at = v;
        let mut count = 0;
        while at != usize::MAX {
            if count < SHOWN_LINKS {
                links.push(g.name(c, at));
            } else if next[at] == usize::MAX {
                links.push(format!("… → {}", g.name(c, at)));
            }
            count += 1;
            at = next[at];
        }
        let d = say(c, v, links.join(" → "));
        c.error(d);
    }
}

/// The score tables (as `i`) and patterns (as `tables + i`) an expression uses. Walks
/// with its own stack: an expression may nest hundreds of levels deep.
fn refs(e: &Expr, tables: usize, out: &mut Vec<usize>) {
    let mut todo = vec![e];
    while let Some(e) = todo.pop() {
        match e {
            Expr::Score(s, ..) => out.push(*s as usize),
            Expr::PatternTest(p, _)
            | Expr::Call(crate::ir::Builtin::Waits(p) | crate::ir::Builtin::Formed(p), ..) => {
                out.push(tables + *p as usize)
            }
            _ => {}
        }
        e.children(|c| todo.push(c));
    }
}
