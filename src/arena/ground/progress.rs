//! Progress on stderr: an `indicatif` bar (games done, rate, ETA and the
//! running score) when stderr is a terminal, or one plain line per
//! finished game otherwise (logs, CI, a pipe).
//!
//! Nothing here fails: a closed or broken stderr only loses the display.

use std::io::{IsTerminal, Write};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A bar redrawn in place.
    Bar,
    /// One line per game.
    Lines,
    /// Nothing but faults.
    Quiet,
    /// Nothing at all: a library caller (`MatchArgs::unprinted`) reads
    /// the faults from the report and the record.
    Silent,
}

impl Mode {
    /// The bar on a terminal (unless under CI), lines elsewhere; `quiet`
    /// or `no_bar` turn them off.
    pub fn choose(no_bar: bool, quiet: bool) -> Mode {
        let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0");
        if quiet {
            Mode::Quiet
        } else if !no_bar && !ci && std::io::stderr().is_terminal() {
            Mode::Bar
        } else {
            Mode::Lines
        }
    }
}

/// Writes one line on stderr, ignoring a closed or broken stderr.
pub fn eprint_line(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{line}");
}

/// Tells the user what locking the outputs found (a lock taken over from
/// a killed run, a file left unlocked), as the runner says everything.
pub fn tell_lock(note: String) {
    eprint_line(&format!("tabula match: {note}"));
}

/// The progress display of one match.
pub struct MatchProgress {
    mode: Mode,
    bar: Option<ProgressBar>,
}

impl MatchProgress {
    /// A display for `total` games.
    pub fn new(mode: Mode, total: u64) -> MatchProgress {
        let bar = (mode == Mode::Bar).then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let style =
                ProgressStyle::with_template("[{bar:30}] {pos}/{len} {rate} ETA {eta}  {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .with_key(
                        "rate",
                        |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                            let _ = write!(w, "{:.2} games/s", state.per_sec());
                        },
                    )
                    .progress_chars("#>-");
            bar.set_style(style);
            bar.enable_steady_tick(Duration::from_millis(500));
            bar
        });
        MatchProgress { mode, bar }
    }

    /// A game finished: `line` describes it, `status` is the running score.
    pub fn game_done(&mut self, line: &str, status: &str) {
        match (&self.bar, self.mode) {
            (Some(bar), _) => {
                bar.set_message(status.to_string());
                bar.inc(1);
            }
            (None, Mode::Lines) => eprint_line(line),
            _ => {}
        }
    }

    /// An opening line, not shown when quiet.
    pub fn header(&mut self, line: &str) {
        if !matches!(self.mode, Mode::Quiet | Mode::Silent) {
            self.message(line);
        }
    }

    /// A message that must be seen (a fault): printed above the bar.
    pub fn message(&mut self, line: &str) {
        if self.mode == Mode::Silent {
            return;
        }
        match &self.bar {
            Some(bar) => bar.suspend(|| eprint_line(line)),
            None => eprint_line(line),
        }
    }

    /// Ends the display (leaves the bar's last state on its line).
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.abandon();
        }
    }
}

/// `1h02m`, `3m05s` or `12s`.
pub fn fmt_duration(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}
