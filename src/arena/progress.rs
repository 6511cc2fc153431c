//! Progress on stderr: a one-line bar redrawn in place when stderr is a
//! terminal, or one line per finished game otherwise (logs, CI).

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A bar redrawn in place.
    Bar,
    /// One line per game.
    Lines,
    /// Nothing but faults.
    Quiet,
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

/// The progress display of one match.
pub struct Progress {
    mode: Mode,
    total: usize,
    done: usize,
    start: Instant,
    last_draw: Option<Instant>,
    status: String,
}

impl Progress {
    /// A display for `total` games.
    pub fn new(mode: Mode, total: usize) -> Progress {
        Progress {
            mode,
            total,
            done: 0,
            start: Instant::now(),
            last_draw: None,
            status: String::new(),
        }
    }

    fn clear(&self) {
        if self.mode == Mode::Bar && self.last_draw.is_some() {
            eprint!("\r\x1b[2K");
        }
    }

    fn draw(&mut self, force: bool) {
        if self.mode != Mode::Bar {
            return;
        }
        let now = Instant::now();
        if !force
            && self
                .last_draw
                .is_some_and(|t| now - t < Duration::from_millis(100))
        {
            return;
        }
        self.last_draw = Some(now);
        const WIDTH: usize = 30;
        let filled = (self.done * WIDTH)
            .checked_div(self.total)
            .unwrap_or(WIDTH)
            .min(WIDTH);
        let eta = if self.done > 0 && self.done < self.total {
            let per = self.start.elapsed().as_secs_f64() / self.done as f64;
            format!(
                " ETA {}",
                fmt_duration(per * (self.total - self.done) as f64)
            )
        } else {
            String::new()
        };
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r\x1b[2K[{}{}] {}/{} {}{}",
            "#".repeat(filled),
            "-".repeat(WIDTH - filled),
            self.done,
            self.total,
            self.status,
            eta
        );
        let _ = err.flush();
    }

    /// A game finished: `line` describes it, `status` is the running score.
    pub fn game_done(&mut self, line: &str, status: &str) {
        self.done += 1;
        self.status = status.to_string();
        match self.mode {
            Mode::Bar => self.draw(self.done == self.total),
            Mode::Lines => eprintln!("{line}"),
            Mode::Quiet => {}
        }
    }

    /// An opening line, not shown when quiet.
    pub fn header(&mut self, line: &str) {
        if self.mode != Mode::Quiet {
            self.message(line);
        }
    }

    /// A message that must be seen (a fault): printed above the bar.
    pub fn message(&mut self, line: &str) {
        self.clear();
        eprintln!("{line}");
        self.draw(true);
    }

    /// Ends the display (leaves the bar's last state on its line).
    pub fn finish(&mut self) {
        if self.mode == Mode::Bar && self.last_draw.is_some() {
            if self.done != self.total {
                self.draw(true);
            }
            eprintln!();
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
