//! Plays a fixed number of matches of a hand-written yardstick on one thread and prints
//! its deal rate: a fixed amount of work, so callgrind's instruction counts compare runs,
//! as `simspeed` does for the engine. The game is 珊瑚花 (`benches/common/yardstick.rs`,
//! eager players) unless named: `ukishima` (`yardstick_ukishima.rs`), `nara`
//! (`yardstick_nara.rs`) or `taigi` (`yardstick_taigi.rs`, whole matches to 15), all
//! with random players.
//!
//! `cargo run --profile dist -p fuda-core --example yardspeed -- 100000 [sangohana|ukishima|nara|taigi]`

#[path = "../benches/common/yardstick.rs"]
mod yardstick;
#[path = "../benches/common/yardstick_nara.rs"]
mod yardstick_nara;
#[path = "../benches/common/yardstick_taigi.rs"]
mod yardstick_taigi;
#[path = "../benches/common/yardstick_ukishima.rs"]
mod yardstick_ukishima;

fn main() {
    let mut args = std::env::args().skip(1);
    let matches: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let game = args.next().unwrap_or_else(|| "sangohana".into());
    let start = std::time::Instant::now();
    let mut check = 0i64;
    // Deals (rounds, hands) and decisions played.
    let (deals, decisions) = match game.as_str() {
        "sangohana" => {
            let mut y = yardstick::Yardstick::new(1);
            let mut st = yardstick::Stats::default();
            for _ in 0..matches {
                check ^= y.play_match(&mut st)[0];
            }
            (st.deals, st.decisions)
        }
        "ukishima" => {
            let mut y = yardstick_ukishima::Yardstick::new(1);
            let mut st = yardstick_ukishima::Stats::default();
            for _ in 0..matches {
                check ^= y.play_match(&mut st)[0];
            }
            (st.rounds, st.decisions)
        }
        "nara" => {
            let mut y = yardstick_nara::Yardstick::new(1);
            let mut st = yardstick_nara::Stats::default();
            for _ in 0..matches {
                check ^= y.play_match(&mut st)[0];
            }
            (st.hands, st.decisions)
        }
        "taigi" => {
            let mut y = yardstick_taigi::Yardstick::new(1);
            let mut st = yardstick_taigi::Stats::default();
            for _ in 0..matches {
                check ^= i64::from(y.play_match(&mut st)[0]);
            }
            (st.deals, st.decisions)
        }
        other => {
            eprintln!("yardspeed: no yardstick for `{other}` (sangohana, ukishima, nara, taigi)");
            std::process::exit(2);
        }
    };
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{game} yardstick: {matches} matches, {deals} deals, {:.1} decisions/deal: {:.0} deals/s, {:.0} decisions/s (check {check})",
        decisions as f64 / deals as f64,
        deals as f64 / secs,
        decisions as f64 / secs
    );
}
