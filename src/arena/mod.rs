//! `tabula match`: pits engines against each other and says which is
//! stronger.
//!
//! The runner starts every engine as a process speaking the protocol,
//! plays the games as their referee (holding the full state, telling each
//! seat only what it may see, checking every reply), runs games
//! concurrently, records every game in one replayable file, and reports
//! wins/draws/losses, the Elo difference with a 95% interval, an optional
//! SPRT, per-seat results, a cross-table for three or more engines, and a
//! chart.
//!
//! Rooms, one concern each, as fastchess keeps them, on floors (each
//! names only its own floor and those below, and no two name each other;
//! tests/layers.rs): [`ground`] (the referee, the stop flag with its
//! hooks, the adjudication settings, progress), then [`record`] (the
//! match file) and [`stats`] (Elo, pentanomial, SPRT), then [`output`]
//! (paths, report, chart, live chart, exports, the record's writer), then
//! [`engines`] (the engine process), then [`config`] (the command line,
//! engine words, openings, what every game shares), [`clock`] (seat
//! clocks, `--tc-scale`) and [`error`] (why a match could not run), then
//! [`run`](mod@run) (the run, schedule, one game, adjudication) beside
//! [`merge`] (`--merge` and its checks). The names below are for users
//! outside the arena.
//!
//! Before the first game every engine is checked (started, sent its
//! set-up lines and the game); `--shard K/N` plays whole deals of one
//! seeded match, whose records `--merge` back into the whole.

pub mod clock;
pub mod config;
pub mod engines;
pub mod error;
pub mod ground;
pub mod merge;
pub mod output;
pub mod record;
pub mod run;
pub mod seed;
pub mod stats;

pub use self::config::cli::{EngineWords, MatchArgs};
pub use self::error::ArenaError;
pub use self::ground::referee::{Referee, referee_for};
pub use self::output::match_report::MatchReport;
pub use self::run::runner::run_with_referee;

/// Runs `tabula match`: plays the match (or merges records with
/// `--merge`), prints the report on stdout and returns it. The choice
/// is made here, above both, so that the run and the merge stand beside
/// each other.
pub fn run(args: &MatchArgs) -> Result<MatchReport, ArenaError> {
    if !args.merge.is_empty() {
        return merge::merge(args);
    }
    config::cli::check_game_options(&args.options)?;
    run_with_referee(args, referee_by_name(&args.game, &args.options)?)
}

/// The referee of a game by registry name, with its options as
/// `key=value` words ([`ground::referee::referee_by_name`], its error
/// said as a match's).
pub fn referee_by_name(name: &str, words: &[String]) -> Result<Box<dyn Referee>, ArenaError> {
    Ok(ground::referee::referee_by_name(name, words)?)
}
