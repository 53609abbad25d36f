//! Benchmarks for checking hostile rule files: each shape that once made the checker
//! quadratic (or worse), generated at the largest size the 4 MiB source limit allows.
//! Checking any of them should take time in proportion to its size; most are refused
//! at a limit, which is part of what is measured.
//!
//! Run with `cargo bench -p fuda-core --bench compile`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use fuda_core::loader::MemoryFiles;

/// The source limit, less room for the lines around the generated part.
const SIZE: usize = (4 << 20) - 8192;

/// A two-seat hanafuda ruleset's head.
const HEAD: &str = "ruleset \"hostile\"\nimport \"std/hanafuda\"\nseats 2 { 2: a b }\n\
    zone 山札 shared stack hidden\nzone 手札 per seat pile owner\nproc match { }\n";

/// `head`, then `line(0)`, `line(1)`, … for as long as the text stays within [`SIZE`],
/// then `tail`.
fn fill(head: &str, line: impl Fn(usize) -> String, tail: &str) -> String {
    let mut out = String::from(head);
    for i in 0.. {
        let l = line(i);
        if out.len() + l.len() + tail.len() > SIZE {
            break;
        }
        out.push_str(&l);
    }
    out.push_str(tail);
    out
}

/// Parameters whose defaults each read the one before.
fn param_chain() -> String {
    fill(
        HEAD,
        |i| match i {
            0 => "param p0: int = 0\n".to_string(),
            _ => format!("param p{i}: int = p{} + 1\n", i - 1),
        },
        "",
    )
}

/// One deck with as many tags as fit.
fn tags() -> String {
    let head = "ruleset \"hostile\"\nseats 2 { 2: a b }\nzone z shared pile public\n\
        proc match { }\ndeck d {\n  tags t0";
    let tail = "\n  card c0 \"c0\" +t0\n}\n";
    fill(head, |i| format!(", t{}", i + 1), tail)
}

/// One attribute with as many values as fit.
fn attribute_values() -> String {
    let head = "ruleset \"hostile\"\nseats 2 { 2: a b }\nzone z shared pile public\n\
        proc match { }\ndeck d {\n  attribute a: s0";
    let tail = "\n  card c0 \"c0\" a=s0\n}\n";
    fill(head, |i| format!(" | s{}", i + 1), tail)
}

/// Patterns, each testing the next in a `where`.
fn pattern_chain() -> String {
    fill(
        HEAD,
        |i| format!("pattern q{i} {{ group g: 1 where q{}(g) }}\n", i + 1),
        "pattern qend { group g: 1 }\n",
    )
}

/// One def of a single `+` chain.
fn plus_chain() -> String {
    fill(&format!("{HEAD}def f() = 1"), |_| " + 1".to_string(), "\n")
}

/// A ruleset importing as many files of dense declarations as fit in the limit on a
/// ruleset's own files (the next one is refused before it is read).
fn imports() -> (String, MemoryFiles) {
    let file = |k: usize| fill("", |i| format!("param f{k}x{i}: int = {i}\n"), "");
    let names: Vec<String> = (0..62).map(|k| format!("part{k}.fuda")).collect();
    let main = format!(
        "{HEAD}{}",
        names
            .iter()
            .map(|n| format!("import \"{n}\"\n"))
            .collect::<String>()
    );
    let files = names
        .iter()
        .enumerate()
        .map(|(k, n)| (n.clone(), file(k)))
        .collect();
    (main, MemoryFiles(files))
}

fn check(c: &mut Criterion, name: &str, text: &str, files: &MemoryFiles) {
    let mut group = c.benchmark_group("check 4 MiB");
    group.sample_size(10);
    group.bench_function(name, |b| {
        b.iter(|| black_box(fuda_core::compile("hostile.fuda", text, files).is_ok()))
    });
    group.finish();
}

fn hostile(c: &mut Criterion) {
    let none = MemoryFiles::default();
    check(c, "param chain", &param_chain(), &none);
    check(c, "tags", &tags(), &none);
    check(c, "attribute values", &attribute_values(), &none);
    check(c, "pattern chain", &pattern_chain(), &none);
    check(c, "plus chain", &plus_chain(), &none);
    let (main, files) = imports();
    check(c, "62 imports", &main, &files);
}

criterion_group!(benches, hostile);
criterion_main!(benches);
