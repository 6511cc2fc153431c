//! The `tabula` command: the engine (default), and the tools around it.

use std::io::{BufReader, Write as _};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use tabula::engine::Engine;
use tabula::games;
use tabula::perft::PerftRun;

/// A game engine for Othello, Quoridor, Hearts, Wizard and Ninety-Nine,
/// driven over stdin/stdout in a GTP-style protocol (see protocol.md).
#[derive(Parser)]
#[command(name = "tabula", version, about, long_about = None)]
struct Cli {
    /// Seed of the session generator (default: drawn at random; `get seed` tells it).
    #[arg(long, global = true)]
    seed: Option<u64>,
    #[command(subcommand)]
    command: Option<Tool>,
}

#[derive(Subcommand)]
enum Tool {
    /// Run the engine on stdin/stdout (the default).
    Engine,
    /// Count the leaves of the game tree to a depth (move generator test).
    /// Chance steps are not plies: a card game's deals and draws are drawn
    /// from `-o seed=N`, as `game NAME seed=N` deals them.
    Perft {
        /// The game, e.g. othello.
        game: String,
        /// Depth in plies.
        depth: u32,
        /// Start from this position text instead of the start.
        #[arg(long)]
        position: Option<String>,
        /// Game options, key=value, and seed=N for the chance steps.
        #[arg(long = "option", short = 'o')]
        options: Vec<String>,
        /// Print the count below each first move.
        #[arg(long)]
        divide: bool,
    },
    /// Measure this build: perft, simulations per second, endgame solves.
    Bench {
        /// Seconds per simulation-rate figure.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        /// Othello perft depth.
        #[arg(long, default_value_t = 11)]
        perft: u32,
        /// Folder of the FFO .obf files (default ../shared/data/ffo if present).
        #[arg(long)]
        ffo: Option<std::path::PathBuf>,
        /// How many FFO positions from #40 on to solve (0 to skip).
        #[arg(long, default_value_t = 5)]
        ffo_count: usize,
        /// MiB for the solver's transposition table (the engine's `hash`).
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Runs of each figure (the report gives the median and the range).
        #[arg(long, default_value_t = 3)]
        runs: usize,
        /// Instead: measure genmove overshoot and stop latency over pipes,
        /// for this game with options (e.g. othello, "quoridor size=11").
        #[arg(long)]
        latency: Option<String>,
        /// With --latency: the search to time.
        #[arg(long, default_value = "mcts")]
        search: String,
        /// Threads: with --latency, the search threads (default 1); else
        /// the threads every parallel search (MCTS, ISMCTS, PIMC,
        /// alpha-beta, the FFO solves) compares with one (default every
        /// core).
        #[arg(long)]
        threads: Option<usize>,
        /// With --latency: more engine settings, `name=value` (repeatable).
        #[arg(long = "set")]
        set: Vec<String>,
        /// With --latency: move times in milliseconds, comma-separated.
        #[arg(long, default_value = "100", value_delimiter = ',')]
        movetime: Vec<u64>,
        /// With --latency: moves per move time (or games with --clock).
        #[arg(long, default_value_t = 100)]
        rounds: usize,
        /// With --latency: play whole games under a GTP clock instead,
        /// `MAIN,BYOYOMI,STONES` in seconds (e.g. 60,0,0 or 0,20,10).
        #[arg(long)]
        clock: Option<String>,
    },
    /// Pit engines against each other: Elo, error bars, records, charts.
    Match(Box<tabula::arena::MatchArgs>),
    /// Play any game against engines in a browser (a server on
    /// 127.0.0.1; see docs/gui.md).
    Gui(Box<tabula::gui::GuiArgs>),
    /// Train the Othello pattern evaluation: self-play data (resumable),
    /// exact-solve and search labels, a least-squares fit per stage, and a
    /// weight file (see README, "Othello evaluation and midgame search").
    TrainOthello(Box<tabula::games::othello::train::TrainArgs>),
    /// Calibrate Othello's ProbCut: self-play positions searched at every
    /// depth, the deep value regressed on the shallow one per depth and
    /// stage; prints the table that src/games/othello/probcut.rs holds.
    CalibrateProbcut(Box<tabula::games::othello::probcut::CalibrateArgs>),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let seed = cli
        .seed
        .unwrap_or_else(|| rand::RngCore::next_u64(&mut rand::rngs::OsRng));
    match cli.command.unwrap_or(Tool::Engine) {
        Tool::Engine => {
            let engine = match Engine::new(seed) {
                Ok(e) => e,
                Err(e) => {
                    eprintln!("tabula: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let stdin = BufReader::new(std::io::stdin());
            let ending = tabula::protocol::run(stdin, std::io::stdout(), engine);
            log::debug!("session ended: {ending:?}");
            ExitCode::SUCCESS
        }
        Tool::Bench {
            latency: Some(game),
            search,
            threads,
            set,
            movetime,
            rounds,
            clock,
            ..
        } => match latency_config(
            game,
            search,
            threads.unwrap_or(1),
            set,
            movetime,
            rounds,
            clock,
        )
        .and_then(|c| tabula::bench::latency::run(&c))
        {
            Ok(report) => {
                print!("{report}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("tabula bench: {e}");
                ExitCode::FAILURE
            }
        },
        Tool::Bench {
            seconds,
            perft,
            ffo,
            ffo_count,
            hash,
            runs,
            threads,
            ..
        } => {
            let config = tabula::bench::BenchConfig {
                seconds: seconds.clamp(0.1, 600.0),
                perft_depth: perft.min(14),
                ffo: ffo.or_else(tabula::bench::default_ffo_dir),
                ffo_count,
                hash_mib: hash.clamp(1, 65536),
                runs: runs.clamp(1, 100),
                threads: threads
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
                    .clamp(1, 256),
            };
            print!("{}", tabula::bench::run(&config));
            ExitCode::SUCCESS
        }
        Tool::TrainOthello(args) => match tabula::games::othello::train::run(&args) {
            Ok(report) => {
                print!("{report}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("tabula train-othello: {e}");
                ExitCode::FAILURE
            }
        },
        Tool::CalibrateProbcut(args) => match tabula::games::othello::probcut::calibrate(&args) {
            Ok(report) => {
                print!("{report}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("tabula calibrate-probcut: {e}");
                ExitCode::FAILURE
            }
        },
        Tool::Gui(args) => match tabula::gui::run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("tabula gui: {e}");
                ExitCode::FAILURE
            }
        },
        Tool::Match(args) => match tabula::arena::run(&args) {
            Ok(report) => {
                let lost = report.forfeited_all();
                if lost.is_empty() {
                    ExitCode::SUCCESS
                } else {
                    let _ = writeln!(
                        std::io::stderr(),
                        "tabula match: {} forfeited every game it played: its results say nothing \
                         about its strength (see the faults above)",
                        lost.join(", ")
                    );
                    ExitCode::FAILURE
                }
            }
            Err(e) => {
                let _ = writeln!(std::io::stderr(), "tabula match: {e}");
                ExitCode::FAILURE
            }
        },
        Tool::Perft {
            game,
            depth,
            position,
            options,
            divide,
        } => match run_perft(&game, depth, position.as_deref(), &options, divide) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("tabula perft: {e}");
                ExitCode::FAILURE
            }
        },
    }
}

/// Checks the `--latency` arguments before any engine is started.
fn latency_config(
    game: String,
    search: String,
    threads: usize,
    set: Vec<String>,
    movetimes: Vec<u64>,
    rounds: usize,
    clock: Option<String>,
) -> Result<tabula::bench::latency::LatencyConfig, String> {
    let name = game.split_whitespace().next().unwrap_or("");
    if games::find(name).is_none() {
        return Err(format!(
            "unknown game '{name}'; games: {}",
            games::names().join(", ")
        ));
    }
    let settings = set
        .iter()
        .map(|s| match s.split_once('=') {
            Some((k, v)) => Ok(format!("{k} {v}")),
            None => Err(format!("--set takes name=value, not '{s}'")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let clock = match clock {
        None => None,
        Some(text) => {
            let parts: Vec<&str> = text.split(',').collect();
            let bad = || format!("--clock takes MAIN,BYOYOMI,STONES in seconds, not '{text}'");
            let [main, byo, stones] = parts[..] else {
                return Err(bad());
            };
            let seconds = |w: &str| {
                w.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && (0.0..=1e6).contains(v))
            };
            match (seconds(main), seconds(byo), stones.trim().parse::<u32>()) {
                (Some(m), Some(b), Ok(s)) if m > 0.0 || (b > 0.0 && s > 0) => Some((m, b, s)),
                _ => return Err(bad()),
            }
        }
    };
    if movetimes.is_empty() || movetimes.iter().any(|&m| m == 0 || m > 3_600_000) {
        return Err("--movetime takes milliseconds from 1 to 3600000".into());
    }
    Ok(tabula::bench::latency::LatencyConfig {
        game,
        search,
        threads: threads.max(1),
        settings,
        movetimes,
        rounds: rounds.max(1),
        clock,
    })
}

fn run_perft(
    game: &str,
    depth: u32,
    position: Option<&str>,
    options: &[String],
    divide: bool,
) -> Result<(), String> {
    let entry = games::find(game).ok_or_else(|| {
        format!(
            "unknown game '{game}'; games: {}",
            games::names().join(", ")
        )
    })?;
    let (seed, options) = tabula::engine::split_seed(options).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let run = PerftRun {
        position,
        depth,
        divide,
        seed,
    };
    let result = entry
        .visit(&options, run)
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())?;
    let secs = started.elapsed().as_secs_f64();
    for (mv, n) in &result.divided {
        println!("{mv} {n}");
    }
    println!("{}", result.leaves);
    eprintln!(
        "perft {depth}: {} leaves in {secs:.3} s ({:.1} M leaves/s)",
        result.leaves,
        result.leaves as f64 / secs / 1e6
    );
    Ok(())
}
