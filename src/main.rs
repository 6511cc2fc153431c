//! The `tabula` command: the engine (default), and the tools around it.

use std::io::{BufReader, Write as _};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use tabula::engine::Engine;
use tabula::engine::startup::{Startup, StartupError};
use tabula::games;
use tabula::tools::perft::PerftRun;

/// A game engine for Othello, Quoridor, Hearts, Wizard and Ninety-Nine,
/// driven over stdin/stdout in a GTP-style protocol (see protocol.md).
#[derive(Parser)]
#[command(name = "tabula", version, about, long_about = None)]
struct Cli {
    /// Seed of the engine's session generator (`tabula`, `tabula engine`;
    /// default: drawn at random, and the engine's `get seed` command tells
    /// it).
    #[arg(long, global = true)]
    seed: Option<u64>,
    #[command(flatten)]
    startup: StartupArgs,
    #[command(subcommand)]
    command: Option<Tool>,
}

/// What the engine starts with, for GUIs and referees that can only name
/// a program: `tabula --game quoridor -o size=11 --set search=alphabeta`.
#[derive(clap::Args, Clone, Default)]
struct StartupArgs {
    /// The game to start with (default othello; `list_games` names them).
    #[arg(long)]
    game: Option<String>,
    /// A game option, key=value (repeatable), e.g. -o size=11.
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// A setting, as `set KEY VALUE` would give it (repeatable), e.g.
    /// --set search=alphabeta.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    settings: Vec<String>,
    /// A settings file: one `KEY VALUE` a line (`game NAME`, `option
    /// KEY=VALUE`, or any setting), applied before the flags.
    #[arg(long, value_name = "FILE")]
    config: Option<std::path::PathBuf>,
    /// The protocol spoken from the first line: gtp (default; a first
    /// line `nboard 2` or `ugi` switches), nboard or ugi.
    #[arg(long, value_name = "NAME", value_parser = ["gtp", "nboard", "ugi"])]
    protocol: Option<String>,
}

impl StartupArgs {
    fn is_empty(&self) -> bool {
        self.game.is_none()
            && self.options.is_empty()
            && self.settings.is_empty()
            && self.config.is_none()
            && self.protocol.is_none()
    }

    /// The settings file first, then the flags.
    fn startup(&self) -> Result<Startup, StartupError> {
        let mut startup = Startup::default();
        if let Some(path) = &self.config {
            startup.read_config(path)?;
        }
        if self.game.is_some() {
            startup.game.clone_from(&self.game);
        }
        for word in &self.options {
            startup.add_option(word)?;
        }
        for word in &self.settings {
            startup.add_setting(word)?;
        }
        Ok(startup)
    }
}

#[derive(Subcommand)]
enum Tool {
    /// Run the engine on stdin/stdout (the default).
    Engine(StartupArgs),
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
    /// Each figure is printed as it is measured (with a progress line on a
    /// terminal). The full run takes minutes (6 on a busy 2-core machine);
    /// `--quick`, about one.
    Bench {
        /// Only the build signature: a node count fixed for this build,
        /// and nodes a second (for `tabula match --tc-scale`).
        #[arg(long)]
        signature: bool,
        /// The short form: one run of each figure, 1 s a rate, perft 9,
        /// one FFO position (flags given still win).
        #[arg(long)]
        quick: bool,
        /// Seconds per simulation-rate figure [default: 3; 1 with --quick].
        #[arg(long)]
        seconds: Option<f64>,
        /// Othello perft depth [default: 11; 9 with --quick].
        #[arg(long)]
        perft: Option<u32>,
        /// Folder of the FFO .obf files (default ../shared/data/ffo if present).
        #[arg(long)]
        ffo: Option<std::path::PathBuf>,
        /// How many FFO positions from #40 on to solve (0 to skip)
        /// [default: 5; 1 with --quick].
        #[arg(long)]
        ffo_count: Option<usize>,
        /// MiB for the solver's transposition table (the engine's `hash`).
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Runs of each figure (the report gives the median and the range)
        /// [default: 3; 1 with --quick].
        #[arg(long)]
        runs: Option<usize>,
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
        /// Allow --threads above the cores this process may use (up to 256).
        #[arg(long)]
        force_threads: bool,
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
    /// weight file (see docs/experiments-othello.md, "Othello evaluation and midgame search").
    TrainOthello(Box<tabula::tools::lab::othello_train::TrainArgs>),
    /// Label Othello positions for the fit (WTHOR expert games and
    /// self-play; exact solves and deep selective searches), resumable
    /// and threaded (see docs/experiments-othello.md, "Training data").
    LabelOthello(Box<tabula::tools::lab::othello_label::LabelArgs>),
    /// Build the Othello opening book from WTHOR's expert openings, its
    /// nodes valued by the engine's search and a negamax over the tree
    /// (see docs/experiments-othello.md, "Opening book").
    BookOthello(Box<tabula::tools::lab::othello_book::BookArgs>),
    /// Calibrate Othello's ProbCut: self-play positions searched at every
    /// depth, the deep value regressed on the shallow one per depth and
    /// stage; prints the table that src/games/othello/probcut.rs holds.
    CalibrateProbcut(Box<tabula::tools::lab::probcut_calibration::CalibrateArgs>),
}

/// `tabula bench`: each line on stdout as soon as it is measured; on a
/// terminal, a progress line on stderr says what is being measured.
fn bench_as_measured(config: &tabula::tools::bench::BenchConfig) {
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let started = Instant::now();
    let clear = || {
        if terminal {
            eprint!("\r\x1b[K");
        }
    };
    let mut emit = |line: &str| {
        clear();
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    let mut progress = |what: &str| {
        if terminal {
            eprint!(
                "\r\x1b[K[{:.0} s] measuring {what}\u{2026}",
                started.elapsed().as_secs_f64()
            );
        }
    };
    tabula::tools::bench::run_reporting(config, &mut emit, &mut progress);
    clear();
}

/// `tabula bench` (the figures): checks `config`, then measures and
/// prints as it goes.
fn run_bench(config: tabula::tools::bench::BenchConfig, force_threads: bool) -> ExitCode {
    match config.validated(force_threads) {
        Ok(config) => {
            bench_as_measured(&config);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tabula bench: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let seed = cli
        .seed
        .unwrap_or_else(|| rand::RngCore::next_u64(&mut rand::rngs::OsRng));
    let command = cli.command.unwrap_or(Tool::Engine(StartupArgs::default()));
    if !cli.startup.is_empty() && !matches!(command, Tool::Engine(_)) {
        eprintln!(
            "tabula: --game, -o, --set, --config and --protocol start the engine; give them to `tabula` or `tabula engine`"
        );
        return ExitCode::from(2);
    }
    match command {
        Tool::Engine(args) => {
            let args = if args.is_empty() { cli.startup } else { args };
            run_engine(args, seed, cli.seed.is_some())
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
        } => print_report(
            "bench",
            latency_config(
                game,
                search,
                threads.unwrap_or(1),
                set,
                movetime,
                rounds,
                clock,
            )
            .and_then(|c| {
                tabula::tools::bench::check_latency(&c)
                    .map_err(|e| e.to_string())
                    .map(|()| c)
            })
            .and_then(|c| tabula::tools::bench::latency::run(&c).map_err(|e| e.to_string())),
        ),
        Tool::Bench {
            signature: true, ..
        } => {
            println!("{}", tabula::engine::signature::measure().line());
            ExitCode::SUCCESS
        }
        Tool::Bench {
            quick,
            seconds,
            perft,
            ffo,
            ffo_count,
            hash,
            runs,
            threads,
            force_threads,
            ..
        } => {
            let lengths = if quick {
                tabula::tools::bench::QUICK
            } else {
                tabula::tools::bench::FULL
            };
            let config = tabula::tools::bench::BenchConfig {
                seconds: seconds.unwrap_or(lengths.seconds),
                perft_depth: perft.unwrap_or(lengths.perft_depth),
                ffo: ffo.or_else(tabula::tools::bench::default_ffo_dir),
                ffo_count: ffo_count.unwrap_or(lengths.ffo_count),
                hash_mib: hash,
                runs: runs.unwrap_or(lengths.runs),
                threads: threads.unwrap_or_else(tabula::engine::settings::available_cores),
            };
            run_bench(config, force_threads)
        }
        Tool::TrainOthello(args) => print_report(
            "train-othello",
            tabula::tools::lab::othello_train::run(&args),
        ),
        Tool::LabelOthello(args) => print_report(
            "label-othello",
            tabula::tools::lab::othello_label::run(&args),
        ),
        Tool::BookOthello(args) => {
            print_report("book-othello", tabula::tools::lab::othello_book::run(&args))
        }
        Tool::CalibrateProbcut(args) => print_report(
            "calibrate-probcut",
            tabula::tools::lab::probcut_calibration::calibrate(&args),
        ),
        Tool::Gui(args) => match tabula::gui::run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("tabula gui: {e}");
                ExitCode::FAILURE
            }
        },
        Tool::Match(args) => run_match(&args),
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

/// `tabula` and `tabula engine`: an engine with the start-up settings
/// `args`, speaking its protocol on stdin and stdout until the session
/// ends. `seed_given`: the seed came from `--seed` (else the deals stay
/// secret).
fn run_engine(args: StartupArgs, seed: u64, seed_given: bool) -> ExitCode {
    let mut engine = match Engine::new(seed) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("tabula: {e}");
            return ExitCode::FAILURE;
        }
    };
    if !seed_given {
        engine.keep_deals_secret();
    }
    if let Err(e) = args.startup().and_then(|s| s.apply(&mut engine)) {
        eprintln!("tabula: {e}");
        return ExitCode::from(2);
    }
    let protocol = args
        .protocol
        .as_deref()
        .and_then(tabula::protocol::Protocol::from_name)
        .unwrap_or_default();
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!("{}", tabula::protocol::banner());
    }
    let stdin = BufReader::new(std::io::stdin());
    let ending = tabula::protocol::run_protocol(stdin, std::io::stdout(), engine, protocol);
    log::debug!("session ended: {ending:?}");
    ExitCode::SUCCESS
}

/// `tabula match`: runs the match; fails where it stopped early, an
/// engine forfeited every game it played, or a file could not be written.
fn run_match(args: &tabula::arena::MatchArgs) -> ExitCode {
    match tabula::arena::run(args) {
        Ok(report) => {
            let lost = report.forfeited_all();
            if let Some(why) = &report.stopped {
                let _ = writeln!(std::io::stderr(), "tabula match: stopped: {why}");
            }
            if !lost.is_empty() {
                let _ = writeln!(
                    std::io::stderr(),
                    "tabula match: {} forfeited every game it played: its results say nothing \
                     about its strength (see the faults above)",
                    lost.join(", ")
                );
            }
            // A file that failed was said already; the report is
            // printed, the file is not.
            if lost.is_empty() && report.stopped.is_none() && report.file_errors.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "tabula match: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Prints a lab tool's report, or its error after `tabula {tool}:`.
fn print_report<R: std::fmt::Display, E: std::fmt::Display>(
    tool: &str,
    result: Result<R, E>,
) -> ExitCode {
    match result {
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tabula {tool}: {e}");
            ExitCode::FAILURE
        }
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
) -> Result<tabula::tools::bench::latency::LatencyConfig, String> {
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
    Ok(tabula::tools::bench::latency::LatencyConfig {
        game,
        search,
        threads,
        settings,
        movetimes,
        rounds,
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
        position: position.map(str::to_string),
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
