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
//! move that ends after the seat's time ran out is a loss on time.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use crate::bench::sorted;
use crate::engine::clock::SeatTime;

/// An engine process and its pipes.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start() -> Result<Engine, String> {
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let mut child = Command::new(exe)
            .args(["--seed", "1"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| e.to_string())?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        Ok(Engine {
            child,
            stdin,
            stdout,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| e.to_string())
    }

    /// The next reply, whole (`=` or `?` line and the lines after it).
    fn reply(&mut self) -> Result<String, String> {
        let mut text = String::new();
        loop {
            let mut line = String::new();
            if self
                .stdout
                .read_line(&mut line)
                .map_err(|e| e.to_string())?
                == 0
            {
                return Err("engine closed its output".into());
            }
            if line.trim().is_empty() {
                return Ok(text);
            }
            text.push_str(&line);
        }
    }

    /// Sends a command and returns the text of its `=` reply; a `?` reply
    /// is an error.
    fn ask(&mut self, line: &str) -> Result<String, String> {
        self.send(line)?;
        let r = self.reply()?;
        match r.strip_prefix('=') {
            Some(text) => Ok(text.trim().to_string()),
            None => Err(format!("{line}: {}", r.trim())),
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
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

fn set_up(config: &LatencyConfig) -> Result<Engine, String> {
    let mut engine = Engine::start()?;
    engine.ask(&format!("game {}", config.game))?;
    engine.ask(&format!("set search {}", config.search))?;
    engine.ask(&format!("set threads {}", config.threads))?;
    for s in &config.settings {
        engine.ask(&format!("set {s}"))?;
    }
    Ok(engine)
}

/// Starts the game over when it has ended.
fn keep_going(engine: &mut Engine) -> Result<(), String> {
    if engine.ask("result")?.starts_with("over") {
        engine.ask("clear_board")?;
    }
    Ok(())
}

/// Runs the measurement and returns its report.
pub fn run(config: &LatencyConfig) -> Result<String, String> {
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

fn move_times(config: &LatencyConfig, name: &str) -> Result<String, String> {
    let mut engine = set_up(config)?;
    let mut report = String::new();
    for &movetime in &config.movetimes {
        let mut overshoot = Vec::new();
        let mut stop = Vec::new();
        for i in 0..config.rounds {
            keep_going(&mut engine)?;
            let t = Instant::now();
            engine.ask(&format!("genmove movetime={movetime}"))?;
            overshoot.push(t.elapsed().as_secs_f64() * 1000.0 - movetime as f64);
            keep_going(&mut engine)?;
            // Stopped after 20% to 80% of its time.
            let after = movetime * (20 + (i as u64 * 37) % 61) / 100;
            engine.send(&format!("genmove movetime={movetime}"))?;
            std::thread::sleep(Duration::from_millis(after));
            let t = Instant::now();
            engine.send("stop")?;
            let reply = engine.reply()?;
            stop.push(t.elapsed().as_secs_f64() * 1000.0);
            if !reply.starts_with('=') {
                return Err(format!("genmove: {}", reply.trim()));
            }
            engine.reply()?;
        }
        report.push_str(&format!(
            "{name} movetime={movetime}: overshoot {}; stop latency {}\n",
            quantiles(&overshoot),
            quantiles(&stop)
        ));
    }
    Ok(report)
}

fn clock_games(
    config: &LatencyConfig,
    (main, byo, per): (f64, f64, u32),
    name: &str,
) -> Result<String, String> {
    let mut engine = set_up(config)?;
    let mut moves = Vec::new();
    let mut margins = Vec::new();
    let mut losses = 0;
    let mut games = 0;
    let byo_time = Duration::from_secs_f64(byo);
    let fresh = SeatTime::fresh(Duration::from_secs_f64(main), byo_time, per);
    for _ in 0..config.rounds {
        engine.ask("clear_board")?;
        engine.ask(&format!("time_settings {main} {byo} {per}"))?;
        let mut clocks = std::collections::BTreeMap::<String, SeatTime>::new();
        loop {
            let seat = engine.ask("turn")?;
            if seat == "over" {
                break;
            }
            if seat == "chance" {
                return Err("the game waits for a deal: use a self-dealt game".into());
            }
            let clock = clocks.entry(seat.clone()).or_insert(fresh);
            // Whole seconds, rounded up: the most a GUI's rounding tells.
            engine.ask(&format!(
                "time_left {seat} {} {}",
                clock.left.as_secs_f64().ceil(),
                clock.stones
            ))?;
            let t = Instant::now();
            engine.ask(&format!("genmove {seat}"))?;
            let spent = t.elapsed();
            moves.push(spent.as_secs_f64() * 1000.0);
            let before = *clock;
            if !clock.charge(spent, byo_time, per) {
                losses += 1;
                break;
            }
            // What the move left of the time it was started with (main
            // time that ran on into a period: what the period kept).
            let margin = if before.left >= spent {
                before.left - spent
            } else {
                clock.left
            };
            margins.push(margin.as_secs_f64() * 1000.0);
        }
        games += 1;
    }
    let least_left = margins.iter().copied().fold(f64::INFINITY, f64::min);
    Ok(format!(
        "{name} clock {main} {byo} {per}: {games} games, {} moves, {losses} lost on time; \
         move time {}; least time left after a move {least_left:.0} ms\n",
        moves.len(),
        quantiles(&moves)
    ))
}
