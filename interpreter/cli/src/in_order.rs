//! Jobs run on worker threads, their results handed on in job order: how `fuda
//! simulate` plays runs of games in parallel and still merges their sums in game order
//! (failures are drawn in that order too) while holding only a window of finished runs
//! (a run may play millions of games).

use std::collections::BTreeMap;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::{Condvar, Mutex, MutexGuard};

/// The stack of each worker: the main thread's, since the rules run as deep on either
/// (the interpreter's own depth limits are what bound them).
const WORKER_STACK: usize = 8 << 20;

/// What the workers and the consumer share.
struct Shared<R> {
    /// The next job to hand out.
    next: u64,
    /// Jobs handed on to the consumer so far: the workers stay within `window` of it.
    consumed: u64,
    /// Finished jobs not handed on yet.
    done: BTreeMap<u64, R>,
    /// A worker's panic, to be raised again on the calling thread.
    panic: Option<Box<dyn std::any::Any + Send>>,
}

/// Runs `job(state, i)` for i in `from..to` on `threads` workers, each with its own
/// `state` from `init`, and calls `consume(i, result)` on the calling thread in the
/// order of i. At most `window` jobs are finished or running ahead of the one
/// `consume` waits for, so at most that many results are held at once. A panic in a
/// job is raised again here once the workers have stopped.
pub fn run<S, R, I, J, C>(
    from: u64,
    to: u64,
    threads: usize,
    window: u64,
    init: I,
    job: J,
    mut consume: C,
) -> std::io::Result<()>
where
    R: Send,
    I: Fn() -> S + Sync,
    J: Fn(&mut S, u64) -> R + Sync,
    C: FnMut(u64, R),
{
    let window = window.max(1);
    let shared = Mutex::new(Shared {
        next: from,
        consumed: from,
        done: BTreeMap::new(),
        panic: None,
    });
    let changed = Condvar::new();
    // A poisoned lock can only come from a panic while it is held, which no code below
    // does outside `catch_unwind`: take the data either way.
    let lock = || shared.lock().unwrap_or_else(|e| e.into_inner());
    let wait = |g| wait_on(&changed, g);
    let worker = || {
        let mut state = init();
        loop {
            let i = {
                let mut g = lock();
                while g.panic.is_none() && g.next < to && g.next >= g.consumed + window {
                    g = wait(g);
                }
                if g.panic.is_some() || g.next >= to {
                    break;
                }
                g.next += 1;
                g.next - 1
            };
            let r = catch_unwind(AssertUnwindSafe(|| job(&mut state, i)));
            let mut g = lock();
            match r {
                Ok(r) => {
                    g.done.insert(i, r);
                }
                Err(p) => {
                    g.panic.get_or_insert(p);
                }
            }
            drop(g);
            changed.notify_all();
        }
    };
    std::thread::scope(|s| -> std::io::Result<()> {
        for _ in 0..threads.max(1) {
            std::thread::Builder::new()
                .stack_size(WORKER_STACK)
                .spawn_scoped(s, worker)?;
        }
        for i in from..to {
            let r = {
                let mut g = lock();
                loop {
                    if g.panic.is_some() {
                        break None;
                    }
                    if let Some(r) = g.done.remove(&i) {
                        g.consumed = i + 1;
                        break Some(r);
                    }
                    g = wait(g);
                }
            };
            changed.notify_all();
            match r {
                Some(r) => consume(i, r),
                None => break,
            }
        }
        Ok(())
    })?;
    if let Some(p) = lock().panic.take() {
        resume_unwind(p);
    }
    Ok(())
}

/// Waits for a change on `changed`, taking the data of a poisoned lock (see [`run`]).
fn wait_on<'a, R>(changed: &Condvar, g: MutexGuard<'a, Shared<R>>) -> MutexGuard<'a, Shared<R>> {
    changed.wait(g).unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results come in job order whatever the threads, and no more than the window
    /// are ever held.
    #[test]
    fn results_come_in_order_within_the_window() {
        for threads in [1, 2, 5] {
            let held = Mutex::new((0u64, 0u64));
            let mut seen = Vec::new();
            run(
                3,
                200,
                threads,
                4,
                || 0u64,
                |count, i| {
                    *count += 1;
                    let mut h = held.lock().expect("lock");
                    h.0 += 1;
                    h.1 = h.1.max(h.0);
                    i * 2
                },
                |i, r| {
                    held.lock().expect("lock").0 -= 1;
                    assert_eq!(r, i * 2);
                    seen.push(i);
                },
            )
            .expect("threads start");
            assert_eq!(seen, (3..200).collect::<Vec<_>>(), "{threads} threads");
            // The window, and the one result the consumer is taking.
            assert!(
                held.lock().expect("lock").1 <= 5,
                "{threads} threads held more than the window"
            );
        }
    }

    /// A job's panic reaches the caller instead of leaving it waiting.
    #[test]
    fn a_panic_in_a_job_is_raised_again() {
        let r = catch_unwind(|| {
            run(
                0,
                100,
                2,
                8,
                || (),
                |_, i| {
                    assert!(i != 10, "job ten fails");
                    i
                },
                |_, _| {},
            )
        });
        assert!(r.is_err());
    }
}
