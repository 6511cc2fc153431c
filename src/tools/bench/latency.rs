//! Time discipline measured from outside: this executable is started as an
//! engine over pipes, as a referee or GUI would start it, and every figure
//! is the wall time from writing a command to reading the end of its reply.
//!
//! Two modes. Fixed move times: for each `movetime`, the overshoot of
//! `genmove movetime=M` over `M`, and the latency of a `stop` sent while a
//! search of that length runs (after 20-80% of it, so the tree is as large
//! as in play). Clocks: whole games under a GTP clock
//! (`time_settings`), the engine playing every seat, told its time left
//! before each move in whole seconds rounded up (as generous as a GUI's
//! rounding can be), each move's wall time charged to its seat's clock; a
//! move that ends after the seat's time ran out is a loss on time. The
//! engine is spoken to through `tabula match`'s process client and the
//! clocks are its referee's ([`SeatClock`], with no grace), so the bench
//! measures what a match enforces.

use std::time::{Duration, Instant};

use crate::arena::clock::seat_clock::{Rounding, SeatClock};
use crate::arena::config::spec::{TimeControl, fmt_seconds};
use crate::arena::engines::process::{EngineProcess, Launch, ProcessError};
use crate::arena::ground::config_error::ConfigError;
use crate::tools::bench::sorted;

/// The longest wait for a reply that has no time limit of its own (a
/// busy machine may take seconds to load a game's tables).
const PATIENCE: Duration = Duration::from_secs(120);

/// Why the latency bench could not measure.
#[derive(Debug, thiserror::Error)]
pub enum LatencyError {
    /// This executable's path could not be found.
    #[error(transparent)]
    Executable(std::io::Error),
    /// This executable's path is not UTF-8.
    #[error("the executable's path is not UTF-8")]
    PathNotUtf8,
    /// The engine could not be started, or failed a command (a `?`
    /// reply, no reply in time, an exit).
    #[error(transparent)]
    Engine(#[from] ProcessError),
    /// `--clock` is not a clock a referee keeps.
    #[error("--clock: {0}")]
    Clock(ConfigError),
    /// The game waits for a chance step, which the bench does not deal.
    #[error("the game waits for a deal: use a self-dealt game")]
    WaitsForDeal,
}

/// This executable as an engine, through the match runner's process
/// client (the same pipes, ids and deadlines as `tabula match`); killed
/// when dropped.
struct BenchedEngine(EngineProcess);

impl BenchedEngine {
    fn start() -> Result<BenchedEngine, LatencyError> {
        let exe = std::env::current_exe().map_err(LatencyError::Executable)?;
        let exe = exe.to_str().ok_or(LatencyError::PathNotUtf8)?;
        // Quoted (and so run by `sh -c`) where the path would split.
        let exe = if exe
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+".contains(c))
        {
            exe.to_string()
        } else {
            format!("'{}'", exe.replace('\'', "'\\''"))
        };
        let launch = Launch {
            command: format!("{exe} --seed 1"),
            ..Launch::default()
        };
        Ok(BenchedEngine(EngineProcess::spawn(&launch, "bench", None)?))
    }

    /// Sends a command and returns the text of its `=` reply; a `?` reply,
    /// or none within `timeout`, is an error.
    fn ask_within(&mut self, line: &str, timeout: Duration) -> Result<String, LatencyError> {
        Ok(self.0.send(line, timeout)?)
    }

    fn ask(&mut self, line: &str) -> Result<String, LatencyError> {
        self.ask_within(line, PATIENCE)
    }
}

/// What to measure.
#[derive(Clone, Debug)]
pub struct LatencyConfig {
    /// The game, with options (`quoridor size=11`).
    pub game: String,
    /// The search.
    pub search: String,
    /// Search threads.
    pub threads: usize,
    /// More `set` lines (`name value`).
    pub settings: Vec<String>,
    /// Fixed move times, in milliseconds.
    pub movetimes: Vec<u64>,
    /// Moves per move time, or games under the clock.
    pub rounds: usize,
    /// A GTP clock instead of fixed move times: main, byo-yomi, stones.
    pub clock: Option<(f64, f64, u32)>,
}

fn quantiles(v: &[f64]) -> String {
    let v = sorted(v);
    let at = |q: f64| {
        v.get(((v.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    format!(
        "median {:.1} ms, p99 {:.1} ms, max {:.1} ms over {}",
        at(0.5),
        at(0.99),
        at(1.0),
        v.len()
    )
}

fn set_up(config: &LatencyConfig) -> Result<BenchedEngine, LatencyError> {
    let mut engine = BenchedEngine::start()?;
    engine.ask(&format!("game {}", config.game))?;
    engine.ask(&format!("set search {}", config.search))?;
    engine.ask(&format!("set threads {}", config.threads))?;
    for s in &config.settings {
        engine.ask(&format!("set {s}"))?;
    }
    Ok(engine)
}

/// Starts the game over when it has ended.
fn keep_going(engine: &mut BenchedEngine) -> Result<(), LatencyError> {
    if engine.ask("result")?.starts_with("over") {
        engine.ask("clear_board")?;
    }
    Ok(())
}

/// Runs the measurement and returns its report.
pub fn run(config: &LatencyConfig) -> Result<String, LatencyError> {
    let name = format!(
        "{} {}{}",
        config.game,
        config.search,
        if config.threads > 1 {
            format!(" ({} threads)", config.threads)
        } else {
            String::new()
        }
    );
    match config.clock {
        Some(clock) => clock_games(config, clock, &name),
        None => move_times(config, &name),
    }
}

fn move_times(config: &LatencyConfig, name: &str) -> Result<String, LatencyError> {
    let mut engine = set_up(config)?;
    let mut report = String::new();
    for &movetime in &config.movetimes {
        let mut overshoot = Vec::new();
        let mut stop = Vec::new();
        for i in 0..config.rounds {
            let genmove = format!("genmove movetime={movetime}");
            let wait = Duration::from_millis(movetime) + PATIENCE;
            keep_going(&mut engine)?;
            let t = Instant::now();
            engine.ask_within(&genmove, wait)?;
            overshoot.push(t.elapsed().as_secs_f64() * 1000.0 - movetime as f64);
            keep_going(&mut engine)?;
            // Stopped after 20% to 80% of its time.
            let after = movetime * (20 + (i as u64 * 37) % 61) / 100;
            let p = &mut engine.0;
            let searching = p.post(&genmove, PATIENCE)?;
            std::thread::sleep(Duration::from_millis(after));
            let t = Instant::now();
            let stopping = p.post("stop", PATIENCE)?;
            p.reply_to(&genmove, searching, wait)?;
            stop.push(t.elapsed().as_secs_f64() * 1000.0);
            p.reply_to("stop", stopping, PATIENCE)?;
        }
        report.push_str(&format!(
            "{name} movetime={movetime}: overshoot {}; stop latency {}\n",
            quantiles(&overshoot),
            quantiles(&stop)
        ));
    }
    Ok(report)
}

/// The referee's clock for `--clock MAIN,BYO,STONES` (seconds, kept to
/// the millisecond).
pub(crate) fn referee_clock(
    (main, byo, stones): (f64, f64, u32),
) -> Result<TimeControl, LatencyError> {
    let seconds = |v: f64| Duration::from_millis((v * 1000.0).round() as u64);
    TimeControl::new(seconds(main), seconds(byo), stones).map_err(LatencyError::Clock)
}

fn clock_games(
    config: &LatencyConfig,
    gtp: (f64, f64, u32),
    name: &str,
) -> Result<String, LatencyError> {
    let clock = referee_clock(gtp)?;
    let mut engine = set_up(config)?;
    let mut moves = Vec::new();
    let mut margins = Vec::new();
    let mut losses = 0;
    let mut games = 0;
    // No grace: a move that ends after the seat's time ran out is lost.
    let fresh = SeatClock::new(clock, Duration::ZERO);
    for _ in 0..config.rounds {
        engine.ask("clear_board")?;
        engine.ask(&clock.time_settings_command())?;
        let mut clocks = std::collections::BTreeMap::<String, SeatClock>::new();
        loop {
            let seat = engine.ask("turn")?;
            if seat == "over" {
                break;
            }
            if seat == "chance" {
                return Err(LatencyError::WaitsForDeal);
            }
            let clock = clocks.entry(seat.clone()).or_insert(fresh);
            // Whole seconds, rounded up: the most a GUI's rounding tells.
            engine.ask(&clock.time_left_command(&seat, Rounding::Up))?;
            let before = *clock;
            let t = Instant::now();
            // Waited for past the flag, so that a late move is measured.
            engine.ask_within(&format!("genmove {seat}"), before.allowed() + PATIENCE)?;
            let spent = t.elapsed();
            moves.push(spent.as_secs_f64() * 1000.0);
            if !clock.charge(spent) {
                losses += 1;
                break;
            }
            // What the move left of the time it was started with (main
            // time that ran on into a period: what the period kept).
            let margin = if before.left() >= spent {
                before.left() - spent
            } else {
                clock.left()
            };
            margins.push(margin.as_secs_f64() * 1000.0);
        }
        games += 1;
    }
    let least_left = margins.iter().copied().fold(f64::INFINITY, f64::min);
    Ok(format!(
        "{name} clock {} {} {}: {games} games, {} moves, {losses} lost on time; \
         move time {}; least time left after a move {least_left:.0} ms\n",
        fmt_seconds(clock.main),
        fmt_seconds(clock.byoyomi),
        clock.stones,
        moves.len(),
        quantiles(&moves)
    ))
}
