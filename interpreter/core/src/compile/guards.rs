//! Hand guards: a move guard that asks whether a score table pays on a seat's hand
//! (`役代(手札[s]).total > 0`, or with the discard added, `役代(手札[x] + d)`) is compiled
//! to where that hand lies ([`HandGuard`]), so the engine can answer "no" from the
//! board and the table's pattern alone, as every such guard's full evaluation would
//! first do. Runs on the finished program, after the rewrites.

use crate::ir::{Expr, HandGuard, Op, Op2, Program, ScoreField, MAX_FIT_TRACKS};
use crate::value::Value;

/// Sets [`HandGuard`]s on every decision option of `p` whose guard has that form, and
/// has the board keep running sums for their patterns' fit tables
/// ([`Program::fit_tracks`]), as many as [`MAX_FIT_TRACKS`] allows.
pub fn compile_hand_guards(p: &mut Program) {
    let mut tracks = std::mem::take(&mut p.fit_tracks);
    super::classes::each_op(p, |p, op| {
        if let Op::Decide(d) = op {
            for o in &mut d.options {
                o.hand_guard = o.guard.as_ref().and_then(|g| hand_guard(p, g));
                if let Some(h) = o.hand_guard.as_mut() {
                    h.track = track(p, &mut tracks, h.pattern);
                }
            }
        }
    });
    p.fit_tracks = tracks;
    // The tables a guard asks exactly answer by class counts where they can.
    let mut exact = Vec::new();
    super::classes::each_op(p, |_, op| {
        if let Op::Decide(d) = op {
            let guards = d.options.iter().filter_map(|o| o.hand_guard.as_ref());
            exact.extend(guards.filter(|h| h.exact).map(|h| h.table));
        }
    });
    exact.sort_unstable();
    exact.dedup();
    for t in exact {
        let by_counts = p
            .scores
            .get(t as usize)
            .and_then(|def| crate::score::ByCounts::build(p, def));
        if let Some(def) = p.scores.get_mut(t as usize) {
            def.by_counts = by_counts.map(std::sync::Arc::new);
        }
    }
}

/// The place of `pattern` among the tracked fit tables, added if there is room; `None`
/// when it has no table or there is no room.
fn track(p: &Program, tracks: &mut Vec<u16>, pattern: u16) -> Option<u8> {
    let pf = p.patterns.get(pattern as usize)?.prefilter.as_ref()?;
    pf.table.as_ref()?;
    if let Some(i) = tracks.iter().position(|t| *t == pattern) {
        return Some(i as u8);
    }
    if tracks.len() >= MAX_FIT_TRACKS {
        return None;
    }
    tracks.push(pattern);
    Some(tracks.len() as u8 - 1)
}

/// The hand guard `g` amounts to, if it has the form.
fn hand_guard(p: &Program, g: &Expr) -> Option<HandGuard> {
    // `total > k` with k >= 0, or `total >= k` with k >= 1: false when the total is 0.
    let Expr::Bin(op, total, bound) = g else {
        return None;
    };
    // `total > 0` and `total >= 1` ask only whether the table pays.
    let pays = match (op, &**bound) {
        (Op2::Gt, Expr::Const(Value::Int(k))) if *k >= 0 => *k == 0,
        (Op2::Ge, Expr::Const(Value::Int(k))) if *k >= 1 => *k == 1,
        _ => return None,
    };
    let Expr::ScoreField(ScoreField::Total, call) = &**total else {
        return None;
    };
    let Expr::Score(table, args, _) = &**call else {
        return None;
    };
    let def = p.scores.get(*table as usize)?;
    let (pattern, Expr::Local(i), _) = def.over.as_ref()? else {
        return None;
    };
    // Beyond this many arguments the engine evaluates every one before the hand, so
    // testing the hand first would skip their errors.
    if args.len() > crate::engine::STACK_ARGS {
        return None;
    }
    let (seat_zone, plus) = match args.get(*i as usize)? {
        Expr::Bin(Op2::Union, a, b) => (&**a, Some(added(b)?)),
        e => (e, None),
    };
    let Expr::SeatZone(zone, seat) = seat_zone else {
        return None;
    };
    // The engine finds a seat's hand as a per-seat zone's instance.
    if p.zones.get(*zone as usize)?.owner != crate::ir::Owner::PerSeat {
        return None;
    }
    let Expr::Local(seat) = &**seat else {
        return None;
    };
    // The other arguments constant: nothing of theirs is evaluated (or can fail) when
    // the table is answered off its plans.
    let constant = args.iter().enumerate().all(|(k, a)| {
        k == *i as usize || matches!(a, Expr::Const(v) if !matches!(v, Value::Zone(_)))
    });
    Some(HandGuard {
        pattern: *pattern,
        zone: *zone,
        seat: *seat,
        plus,
        track: None,
        table: *table,
        exact: pays && constant && crate::score::sign_by_yaku(p, def),
    })
}

/// The local slot of what `手札[x] + d` adds: a local, or a local card made a set
/// (`cards() + d`).
fn added(e: &Expr) -> Option<u16> {
    match e {
        Expr::Local(c) => Some(*c),
        Expr::Bin(Op2::Union, a, b) => match (&**a, &**b) {
            (Expr::Cards(s), x) | (x, Expr::Cards(s)) if s.is_empty() => added(x),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::{HandGuard, Op};

    #[test]
    fn sangohanas_win_guards_are_hand_guards() {
        let text = include_str!("../../../../rulesets/sangohana.fuda");
        let p = crate::compile("sangohana.fuda", text, &crate::loader::NoFiles)
            .expect("compiles")
            .program;
        let mut found: Vec<(String, HandGuard)> = Vec::new();
        for proc in &p.procs {
            for op in &proc.code {
                if let Op::Decide(d) = op {
                    for o in &d.options {
                        if let Some(h) = o.hand_guard {
                            found.push((o.name.clone(), h));
                        }
                        // Only score guards are compiled.
                        if o.name == "捨て札" || o.name == "捨てる" {
                            assert!(o.hand_guard.is_none(), "{}", o.name);
                        }
                    }
                }
            }
        }
        let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
        // 上がり and 当たり after drawing, and 当たり on another's discard (`手札[x] + d`).
        assert_eq!(names, ["上がり", "当たり", "当たり"]);
        assert!(found[..2].iter().all(|(_, h)| h.plus.is_none()));
        assert!(found[2].1.plus.is_some());
        // All three read the board's running sums for 役形's fit table.
        assert_eq!(p.fit_tracks, [found[0].1.pattern]);
        assert!(found.iter().all(|(_, h)| h.track == Some(0)));
        // 役代 pays exactly when a split holds a yaku, all off its plans.
        assert!(found.iter().all(|(_, h)| h.exact));
    }
}
