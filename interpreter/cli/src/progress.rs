//! The progress bars of `simulate` and `compare`, and how they and the reports write a
//! rate: a whole number with thousands separators (`1,475/s`), as a person reads it.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::render::Stream;

/// A count with a comma between each group of three digits: `1,234,567`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A rate as a whole number, grouped: `1475.3` gives `1,475`. A rate that is not a
/// positive number (no time measured yet) is `0`.
pub fn whole(rate: f64) -> String {
    // `as` saturates, so a huge rate cannot wrap; NaN becomes 0.
    grouped(rate.max(0.0).round() as u64)
}

/// A rate per second for a progress bar: `1,475/s`.
pub fn per_second(rate: f64) -> String {
    format!("{}/s", whole(rate))
}

/// A bar counting `games` on stderr, drawn only when stderr is a terminal (a bar in a
/// pipe or a log is noise); `label` (say `A sangohana.fuda`) is written before it when
/// not empty. The bar has no colour, so `--color` and `NO_COLOR` leave it as it is.
pub fn bar(games: u64, label: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::hidden());
    if !Stream::Err.is_terminal() {
        return bar;
    }
    bar.set_draw_target(ProgressDrawTarget::stderr());
    // A labelled bar takes what width the label leaves, so that the line never wraps
    // (a wrapped bar is redrawn as two lines, and the terminal scrolls).
    let template = if label.is_empty() {
        "{bar:40} {pos}/{len} games  {rate}  eta {eta}"
    } else {
        "{prefix}  {wide_bar} {pos}/{len} games  {rate}  eta {eta}"
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.with_key(
            "rate",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&per_second(state.per_sec()));
            },
        ));
    }
    bar.set_prefix(label.to_string());
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_whole_numbers_in_groups_of_three() {
        assert_eq!(per_second(1475.3), "1,475/s");
        assert_eq!(per_second(1475.5), "1,476/s");
        assert_eq!(per_second(999.4), "999/s");
        assert_eq!(per_second(0.0), "0/s");
        assert_eq!(per_second(f64::NAN), "0/s");
        assert_eq!(per_second(-3.0), "0/s");
        assert_eq!(whole(41151.04), "41,151");
        assert_eq!(grouped(1_234_567), "1,234,567");
        assert_eq!(grouped(100_000), "100,000");
        assert_eq!(grouped(12), "12");
    }
}
