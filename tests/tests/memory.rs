//! Memory held by hostile rule files, measured by counting the bytes this test process
//! allocates (a global allocator that keeps the current and the peak count): bytes, not
//! time, so the bounds hold on any machine. The tests take turns (one lock), since the
//! count is the whole process's.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use fuda_core::agents::{by_name, Agent};
use fuda_core::loader::MemoryFiles;
use fuda_core::play::{play_game, PlayOptions};
use fuda_core::{Program, State};

/// The system's allocator, counting.
struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the layout is passed on unchanged.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// One measurement at a time.
static TURN: Mutex<()> = Mutex::new(());

/// Runs `f` and returns its result with the most bytes held at once while it ran, above
/// what was held when it began.
fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let _turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
    let base = CURRENT.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed).saturating_sub(base))
}

const MIB: usize = 1 << 20;

fn compile(text: &str) -> Program {
    match fuda_core::compile("memory.fuda", text, &MemoryFiles::default()) {
        Ok(c) => c.program,
        Err(f) => panic!("{:#?}", f.diagnostics),
    }
}

/// A two-seat ruleset around extra items and a `proc match` body.
fn game(extra: &str, body: &str) -> String {
    format!(
        "ruleset \"memory\"\nimport \"std/hanafuda\"\nseats 2 {{ 2: 親 子 }}\n\
         zone 山札 shared stack hidden\nvar n: int = 0\n{extra}\nproc match {{\n{body}\n}}\n"
    )
}

/// A loop over a range is walked where it lies: a recursion 200 deep, each level
/// looping over a million numbers, holds a few kilobytes (listing the ranges held
/// 7.8 GB).
#[test]
fn loops_over_ranges_hold_no_lists() {
    let p = compile(&game(
        "proc r { repeat 1000000 { n += 1\n r() } }\ntest \"deep\" { match() }",
        "r()",
    ));
    let (result, peak) = peak_during(|| State::run_test(&p, 0));
    let e = result.expect_err("the recursion is refused");
    assert!(e.message.contains("nest deeper"), "{}", e.message);
    assert!(peak < 4 * MIB, "held {peak} bytes");
}

/// A game that tallies in a loop stops at the events limit, holding a few megabytes
/// however long each tallied text is.
#[test]
fn tallies_in_a_loop_hold_bounded_memory() {
    let p = compile(&game(
        "",
        "let t = \"abcdefgh\"\n repeat 12 { t = t + t }\n loop { tally 長 t }",
    ));
    let (result, peak) = peak_during(|| {
        let mut agents: Vec<Box<dyn Agent>> = (0..2)
            .map(|s| by_name("random", s).expect("agent"))
            .collect();
        play_game(&p, &[], 1, &mut agents, &PlayOptions::default())
    });
    assert!(result.is_err(), "the loop is stopped");
    let bound = fuda_core::engine::MAX_EVENTS * (fuda_core::engine::MAX_EVENT_TEXT * 3 + 256);
    assert!(peak < bound.max(64 * MIB), "held {peak} bytes");
}
