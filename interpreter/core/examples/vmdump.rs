//! Prints a ruleset's register-machine code, one instruction per line, with the
//! tables the quick decisions use: for reading what `lower` made of a rule.
//!
//! `cargo run --release -p fuda-core --example vmdump -- rulesets/sangohana.fuda [SEATS]`

use fuda_core::loader::NoFiles;

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "rulesets/sangohana.fuda".into());
    let seats: u8 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let text = std::fs::read_to_string(&path).expect("a readable ruleset");
    let p = fuda_core::compile(&path, &text, &NoFiles)
        .expect("compiles")
        .program;
    let im = match p.vm.image(&p, seats) {
        Ok(im) => im,
        Err(d) => return println!("declined: {}", d.reason),
    };
    for (i, pr) in im.procs.iter().enumerate() {
        println!("proc {i} starts at {}", pr.start);
    }
    for (pc, ins) in im.code.iter().enumerate() {
        println!("{pc:4} {ins:?}");
    }
    for (i, d) in im.picks.iter().enumerate() {
        println!("pick {i}: {d:?}");
    }
    for (i, t) in im.take_picks.iter().enumerate() {
        println!("take_pick {i}: {t:?}");
    }
    for (i, o) in im.own_picks.iter().enumerate() {
        println!("own_pick {i}: {o:?}");
    }
    for (i, c) in im.claims.iter().enumerate() {
        println!("claim {i}: {c:?}");
    }
}
