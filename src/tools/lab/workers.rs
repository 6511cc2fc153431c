//! What every lab tool shares: the arguments it takes (its worker
//! threads and its seed), and how its report begins.

/// The arguments every lab tool takes: its workers and its seed.
#[derive(clap::Args, Debug, Clone)]
pub struct Workers {
    /// Worker threads (at most the cores).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Allow --threads above the cores this process may use (up to 256).
    #[arg(long)]
    pub force_threads: bool,
    /// Seed of the self-play games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl Workers {
    /// The threads, checked against the cores (`--force-threads` aside).
    pub fn checked_threads(&self) -> Result<usize, crate::tools::args::ArgError> {
        crate::tools::args::threads("--threads", self.threads, self.force_threads)
    }
}

/// The engine's settings for Othello on one thread with `hash` MiB of
/// table: what every lab worker's alpha-beta starts from (ProbCut as the
/// engine's default; a tool that needs it on or off says so).
pub fn othello_settings(hash: u64) -> crate::engine::settings::Settings {
    use crate::model::game::Game as _;
    let mut settings =
        crate::engine::settings::Settings::for_game(crate::games::othello::Othello::NAME, 2, &[]);
    settings.threads = 1;
    settings.hash = hash;
    settings
}

/// A tool's report begun with the line `first`, which is shown on stderr
/// at once: a long run says what it found before it sets to work.
pub fn report_begun(first: std::fmt::Arguments<'_>) -> String {
    let report = format!("{first}\n");
    eprint!("{report}");
    report
}
