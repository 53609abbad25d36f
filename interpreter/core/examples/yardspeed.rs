//! Plays a fixed number of matches of the hand-written 珊瑚花 yardstick
//! (`benches/common/yardstick.rs`) on one thread and prints its deal rate: a fixed amount
//! of work, so callgrind's instruction counts compare runs, as `simspeed` does for the
//! engine.
//!
//! `cargo run --profile dist -p fuda-core --example yardspeed -- 100000`

#[path = "../benches/common/yardstick.rs"]
mod yardstick;

fn main() {
    let matches: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let mut y = yardstick::Yardstick::new(1);
    let mut st = yardstick::Stats::default();
    let start = std::time::Instant::now();
    let mut check = 0i64;
    for _ in 0..matches {
        check ^= y.play_match(&mut st)[0];
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "yardstick: {matches} matches, {} deals, {:.1} decisions/deal: {:.0} deals/s, {:.0} decisions/s (check {check})",
        st.deals,
        st.decisions as f64 / st.deals as f64,
        st.deals as f64 / secs,
        st.decisions as f64 / secs
    );
}
