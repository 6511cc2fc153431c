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
//! Files, one concern each: [`config`] (engine words, limits), [`process`]
//! (one engine process), [`referee`] (the game as text), [`play`] (one
//! game), [`schedule`] (pairings, seats, threads), [`stats`] (Elo, SPRT),
//! [`record`] (the match file, merging), [`report`] (the text report),
//! [`chart`] (SVG), [`progress`] (stderr display), [`interrupt`] (Ctrl-C).

pub mod chart;
pub mod config;
pub mod interrupt;
pub mod play;
pub mod process;
pub mod progress;
pub mod record;
pub mod referee;
pub mod report;
pub mod schedule;
pub mod stats;

use std::fmt;
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::ArgAction;

use self::config::{Clock, ConfigError, EngineSpec, Limits, Proto, settle_names};
use self::play::Setup;
use self::process::TrafficLog;
use self::record::{Ending, GameRecord, MatchRecord, RecordError};
pub use self::referee::{Referee, referee_for};
use self::report::Summary;
use self::stats::{Sprt, SprtDecision, SprtError, Wdl};
use crate::options::OptionError;

const EXAMPLES: &str = "\
Examples:
  # Two settings of tabula on Othello, 200 games, 2 at a time, 100 ms a move:
  tabula match --engine cmd=tabula name=mcts set.search=mcts \\
               --engine cmd=tabula name=ab set.search=alphabeta \\
               --game othello --games 200 --concurrency 2 --movetime 100 --chart match.svg

  # A plain GTP Othello engine against tabula, 60 s + 1 s byo-yomi per game:
  tabula match --engine cmd=\"edax -gtp\" proto=gtp --engine cmd=tabula --tc 60+1

  # Hearts, seat-bound engines refereed by the runner, stop early by SPRT:
  tabula match --game hearts --engine cmd=tabula name=new set.iterations=4000 \\
               --engine cmd=tabula name=old --each set.search=ismcts --sprt elo0=0 elo1=10

  # Wizard, one ismcts player against three rules players (ABBB, rotated):
  tabula match --game wizard --table ABBB --games 40 \\
               --engine cmd=tabula name=ismcts set.search=ismcts set.iterations=1000 \\
               --engine cmd=tabula name=rules set.search=rules

  # Three engines: a round robin with a cross-table, 50 games per pairing:
  tabula match --engine cmd=tabula name=mcts set.search=mcts --engine cmd=tabula name=flat \\
               set.search=flat --engine cmd=tabula name=rules set.search=rules --games 50

  # Merge two runs of the same match (e.g. from two machines) into one report:
  tabula match --merge run1.txt run2.txt --chart both.svg --record both.txt

Engine keys: cmd=COMMAND (required), name=NAME, proto=tabula|gtp, set.KEY=VALUE
(sent as `set KEY VALUE`), init=LINE (any command sent at start), dir=PATH,
stderr=FILE, and per-engine limits movetime=MS, depth=N, iterations=N, tc=MAIN[+BYO].

Faults (a crash, no reply in time, an illegal move, a malformed reply, a refused
command, a failed start) lose that game for the culprit and are counted in the
report; the match goes on. Ctrl-C stops starting games, lets those under way
finish and prints the report; a second Ctrl-C quits at once.";

/// The command line of `tabula match`.
#[derive(Clone, Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct MatchArgs {
    /// The engines (`--engine KEY=VALUE...`, repeated).
    #[command(flatten)]
    pub engines: EngineWords,

    /// KEY=VALUE words applied to every engine (an engine's own words win).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub each: Vec<String>,

    /// The game to play.
    #[arg(long, default_value = "othello")]
    pub game: String,

    /// A game option (repeatable), e.g. `-o size=7`.
    #[arg(short = 'o', long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,

    /// Games per pairing. Use a multiple of the seat rotation (2 for
    /// two-seat games) so that every deal is played from every side.
    #[arg(short = 'n', long, default_value_t = 100)]
    pub games: usize,

    /// Games played at the same time (default: the number of cores).
    #[arg(short = 'j', long)]
    pub concurrency: Option<usize>,

    /// Who sits where, as one letter per seat: A for the first engine of a
    /// pairing, B for the second, e.g. ABBB (one engine against three
    /// copies of the other). Every rotation is played on each deal, so
    /// --games should be a multiple of the number of seats. Default: the
    /// engines alternate (ABAB, and BABA).
    #[arg(long, value_name = "PATTERN")]
    pub table: Option<String>,

    /// Milliseconds per move, for every engine (enforced, plus --timemargin).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,

    /// Search depth per move (sent with genmove; not enforced).
    #[arg(long)]
    pub depth: Option<u32>,

    /// Iterations per move (sent with genmove; not enforced).
    #[arg(long)]
    pub iterations: Option<u64>,

    /// A game clock per seat: MAIN seconds, optionally +BYO seconds per
    /// move once main time is spent (GTP time_settings/time_left).
    #[arg(long, value_name = "MAIN[+BYO]")]
    pub tc: Option<String>,

    /// Milliseconds of grace over every enforced time limit.
    #[arg(long, value_name = "MS", default_value_t = 200)]
    pub timemargin: u64,

    /// Seconds to wait for a reply that has no time limit of its own
    /// (setup commands, moves under depth or iteration budgets).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub timeout: f64,

    /// Engine moves after which a game is adjudicated a draw (0: never).
    #[arg(long, default_value_t = 2000)]
    pub max_moves: usize,

    /// Random moves played at the start of every perfect-information game
    /// (the same for both colours of a deal), for varied openings.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub random_plies: usize,

    /// The match seed: deals, openings and engine seeds derive from it
    /// (default: from the clock; always printed and recorded).
    #[arg(long)]
    pub seed: Option<u64>,

    /// Do not send tabula engines `set seed N` before each game.
    #[arg(long)]
    pub no_game_seeds: bool,

    /// Stop early by a sequential probability ratio test (two engines):
    /// elo0=E elo1=E alpha=A beta=B (defaults 0, 5, 0.05, 0.05).
    #[arg(long, value_name = "KEY=VALUE", num_args = 0..)]
    pub sprt: Option<Vec<String>>,

    /// The record file (default: tabula-match-SEED.txt); every game as
    /// replayable protocol commands with result headers.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,

    /// Write no record.
    #[arg(long, conflicts_with = "record")]
    pub no_record: bool,

    /// Draw the win rates per pairing, with 95% intervals, as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,

    /// Merge these record files into one report instead of playing
    /// (with --record, also write the merged record).
    #[arg(long, value_name = "RECORD", num_args = 1..)]
    pub merge: Vec<PathBuf>,

    /// No progress bar, one line per finished game instead.
    #[arg(long)]
    pub no_progress: bool,

    /// No progress at all (faults and the report are still printed).
    #[arg(short, long)]
    pub quiet: bool,

    /// Print every line sent to and received from engines on stderr.
    #[arg(long)]
    pub debug: bool,
}

/// The words of each `--engine` occurrence, kept apart per engine.
///
/// clap's derive cannot group values by occurrence (`Vec<Vec<String>>`
/// is unstable there), so this argument is implemented by hand with
/// `get_occurrences`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineWords(pub Vec<Vec<String>>);

impl clap::FromArgMatches for EngineWords {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let groups = matches
            .get_occurrences::<String>("engine")
            .map(|occurrences| occurrences.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineWords(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for EngineWords {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            clap::Arg::new("engine")
                .long("engine")
                .value_name("KEY=VALUE")
                .num_args(1..)
                .action(ArgAction::Append)
                .help(
                    "An engine, as KEY=VALUE words: cmd=COMMAND (required), name=, proto=tabula|gtp, \
                     set.KEY=VALUE, init=LINE, dir=, stderr=, movetime=, depth=, iterations=, tc=. \
                     Repeat for each engine (two for a match, more for a round robin)",
                ),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// Why a match could not run.
#[derive(Debug)]
pub enum ArenaError {
    /// A mistake on the command line.
    Config(ConfigError),
    /// The game is not known.
    UnknownGame(String),
    /// The game's options were refused.
    Options(OptionError),
    /// Bad SPRT parameters.
    Sprt(SprtError),
    /// A record could not be read, written or merged.
    Record(RecordError),
    /// A file (chart) could not be written.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::Config(e) => write!(f, "{e}"),
            ArenaError::UnknownGame(name) => write!(f, "unknown game '{name}'"),
            ArenaError::Options(e) => write!(f, "{e}"),
            ArenaError::Sprt(e) => write!(f, "{e}"),
            ArenaError::Record(e) => write!(f, "{e}"),
            ArenaError::Io { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for ArenaError {}

impl From<ConfigError> for ArenaError {
    fn from(e: ConfigError) -> Self {
        ArenaError::Config(e)
    }
}

impl From<OptionError> for ArenaError {
    fn from(e: OptionError) -> Self {
        ArenaError::Options(e)
    }
}

impl From<RecordError> for ArenaError {
    fn from(e: RecordError) -> Self {
        ArenaError::Record(e)
    }
}

impl From<SprtError> for ArenaError {
    fn from(e: SprtError) -> Self {
        ArenaError::Sprt(e)
    }
}

/// What a match (or a merge) produced.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Every game and who played it.
    pub record: MatchRecord,
    /// The computed statistics.
    pub summary: Summary,
    /// The report as printed.
    pub text: String,
    /// Where the record was written, if it was.
    pub record_path: Option<PathBuf>,
    /// Set when the SPRT stopped the match early.
    pub stopped_by_sprt: Option<SprtDecision>,
}

/// The referee of a game by registry name, with its options as
/// `key=value` words.
pub fn referee_by_name(name: &str, words: &[String]) -> Result<Box<dyn Referee>, ArenaError> {
    let entry =
        crate::games::find(name).ok_or_else(|| ArenaError::UnknownGame(name.to_string()))?;
    let options = crate::options::Options::parse(entry.options, words)?;
    Ok((entry.referee)(&options)?)
}

/// Runs `tabula match`: plays the match (or merges records with
/// `--merge`), prints the report on stdout and returns it.
pub fn run(args: &MatchArgs) -> Result<MatchReport, ArenaError> {
    if !args.merge.is_empty() {
        return merge(args);
    }
    let referee = referee_by_name(&args.game, &args.options)?;
    run_with_referee(args, referee)
}

/// Runs a match of the game behind `referee` (its `--game` and `--option`
/// arguments are ignored: the referee already is that game).
pub fn run_with_referee(
    args: &MatchArgs,
    referee: Box<dyn Referee>,
) -> Result<MatchReport, ArenaError> {
    let setup = setup_from(args, referee.as_ref())?;
    let sprt = args.sprt.as_ref().map(|w| Sprt::parse(w)).transpose()?;
    if sprt.is_some() && setup.engines.len() != 2 {
        return Err(ConfigError("--sprt needs exactly two engines".to_string()).into());
    }
    if args.games == 0 {
        return Err(ConfigError("--games must be at least 1".to_string()).into());
    }
    let concurrency = match args.concurrency {
        Some(0) => return Err(ConfigError("--concurrency must be at least 1".to_string()).into()),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let seats = referee.num_seats();
    let patterns = match &args.table {
        Some(t) => schedule::table_patterns(&schedule::parse_table(t, seats).map_err(ConfigError)?),
        None => schedule::seat_patterns(seats),
    };
    let rotation = patterns.len();
    if !args.games.is_multiple_of(rotation) {
        log::warn!(
            "--games {} is not a multiple of the seat rotation ({rotation}): seats will not be balanced",
            args.games
        );
    }
    let jobs = schedule::build_jobs(setup.engines.len(), args.games, &patterns);
    let total = jobs.len();

    let mut rec = MatchRecord {
        game: referee.game_name().to_string(),
        options: referee.option_words(),
        seeds: vec![setup.seed],
        seat_names: (0..seats).map(|s| referee.seat_name(s)).collect(),
        engines: setup.engines.iter().map(EngineSpec::info).collect(),
        games: Vec::new(),
    };
    let record_path = (!args.no_record).then(|| {
        args.record
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("tabula-match-{}.txt", setup.seed)))
    });
    let mut writer = RecordWriter::open(record_path.as_ref(), &rec)?;

    let mut progress =
        progress::Progress::new(progress::Mode::choose(args.no_progress, args.quiet), total);
    let opts: String = rec.options.iter().map(|o| format!(" {o}")).collect();
    progress.header(&format!(
        "Match: {}{opts}, {} games, {} engines, concurrency {concurrency}, seed {}",
        rec.game,
        total,
        setup.engines.len(),
        setup.seed
    ));
    let mut stopped_by_sprt = None;
    // Running tallies per pairing, so that each game costs O(1) here.
    let pairs = schedule::pairings(setup.engines.len());
    let mut running = vec![Wdl::default(); pairs.len()];
    let started = Instant::now();
    let mut interrupted = false;
    let ctrl_c = interrupt::Guard::install();
    schedule::run_jobs(&setup, referee.as_ref(), jobs, concurrency, |game| {
        if let Ending::Forfeit {
            engine,
            fault,
            detail,
        } = &game.ending
        {
            let name = rec.engines.get(*engine).map_or("?", |e| e.name.as_str());
            progress.message(&format!(
                "Game {}: {name} forfeits ({}): {detail}",
                game.number,
                fault.word()
            ));
        }
        if let Ending::Error(m) = &game.ending {
            progress.message(&format!("Game {}: not counted: {m}", game.number));
        }
        writer.write_game(&rec, &game, &mut progress);
        let line = game_line(&rec, &game);
        if let (Some(score), Some(i)) = (
            game.first_score(),
            pairs.iter().position(|&p| p == game.pairing),
        ) {
            running[i].add(score);
        }
        rec.games.push(game);
        progress.game_done(&line, &running_status(&rec, &pairs, &running));
        match sprt.map(|s| s.decide(&running[0])) {
            Some(d @ (SprtDecision::AcceptH0 | SprtDecision::AcceptH1))
                if stopped_by_sprt.is_none() =>
            {
                stopped_by_sprt = Some(d);
                progress.message(&format!(
                    "SPRT: {d} after {} games; finishing the games under way",
                    rec.games.len()
                ));
                false
            }
            _ if interrupt::interrupted() && !interrupted => {
                interrupted = true;
                progress.message(
                    "Interrupted: finishing the games under way (Ctrl-C again to quit now)",
                );
                false
            }
            _ => stopped_by_sprt.is_none() && !interrupted,
        }
    });
    drop(ctrl_c);
    progress.finish();
    rec.games.sort_by_key(|g| g.number);
    let summary = Summary::compute(&rec, sprt);
    let mut text = summary.text(&rec);
    if interrupted {
        text.push_str(&format!(
            "Interrupted after {} of {total} games\n",
            rec.games.len()
        ));
    }
    text.push_str(&format!(
        "Time: {}\n",
        progress::fmt_duration(started.elapsed().as_secs_f64())
    ));
    if let Some(path) = &record_path {
        text.push_str(&format!("Record: {}\n", path.display()));
    }
    writer.finish(&text);
    let report = MatchReport {
        record: rec,
        summary,
        text,
        record_path,
        stopped_by_sprt,
    };
    publish(report, args.chart.as_ref())
}

/// `--merge`: combines record files into one report.
fn merge(args: &MatchArgs) -> Result<MatchReport, ArenaError> {
    let records = args
        .merge
        .iter()
        .map(|p| MatchRecord::read(p))
        .collect::<Result<Vec<_>, _>>()?;
    let rec = MatchRecord::merge(&records)?;
    let sprt = args.sprt.as_ref().map(|w| Sprt::parse(w)).transpose()?;
    let summary = Summary::compute(&rec, sprt);
    let mut text = summary.text(&rec);
    text.push_str(&format!(
        "Merged from: {}\n",
        args.merge
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let record_path = args.record.clone().filter(|_| !args.no_record);
    if let Some(path) = &record_path {
        rec.write(path)?;
        text.push_str(&format!("Record: {}\n", path.display()));
    }
    let report = MatchReport {
        record: rec,
        summary,
        text,
        record_path,
        stopped_by_sprt: None,
    };
    publish(report, args.chart.as_ref())
}

/// The end of a run or a merge: writes the chart if one is asked for (and
/// says so in the text), then prints the report text.
fn publish(mut report: MatchReport, chart: Option<&PathBuf>) -> Result<MatchReport, ArenaError> {
    if let Some(path) = chart {
        write_chart(path, &report.record, &report.summary)?;
        report
            .text
            .push_str(&format!("Chart: {}\n", path.display()));
    }
    print!("{}", report.text);
    let _ = std::io::stdout().flush();
    Ok(report)
}

fn write_chart(path: &PathBuf, rec: &MatchRecord, summary: &Summary) -> Result<(), ArenaError> {
    std::fs::write(path, chart::svg(rec, summary)).map_err(|source| ArenaError::Io {
        path: path.clone(),
        source,
    })
}

/// Engines, limits and the rest, checked against the game.
fn setup_from(args: &MatchArgs, referee: &dyn Referee) -> Result<Setup, ArenaError> {
    if args.engines.0.len() < 2 {
        return Err(ConfigError(
            "a match needs at least two engines (--engine cmd=... twice)".to_string(),
        )
        .into());
    }
    let global = Limits {
        movetime: args.movetime,
        depth: args.depth,
        iterations: args.iterations,
        clock: args.tc.as_deref().map(Clock::parse).transpose()?,
    };
    let mut engines = Vec::new();
    for words in &args.engines.0 {
        let mut spec = EngineSpec::parse(&args.each, words)?;
        spec.limits = spec.limits.or(global);
        if spec.proto == Proto::Gtp && !referee.perfect_information() {
            return Err(ConfigError(format!(
                "{} is a hidden-information game: plain GTP engines (proto=gtp) cannot be bound to a seat",
                referee.game_name()
            ))
            .into());
        }
        engines.push(spec);
    }
    settle_names(&mut engines);
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            % 1_000_000_000
    });
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        return Err(
            ConfigError("--timeout must be a positive number of seconds".to_string()).into(),
        );
    }
    let log: Option<TrafficLog> = args.debug.then(|| {
        let start = Instant::now();
        Arc::new(move |line: &str| eprintln!("{:>9.3} {line}", start.elapsed().as_secs_f64()))
            as TrafficLog
    });
    Ok(Setup {
        engines,
        seed,
        margin: Duration::from_millis(args.timemargin),
        timeout: Duration::from_secs_f64(args.timeout),
        max_moves: args.max_moves,
        random_plies: args.random_plies,
        game_seeds: !args.no_game_seeds,
        log,
    })
}

/// The running score for the progress display.
fn running_status(rec: &MatchRecord, pairs: &[(usize, usize)], running: &[Wdl]) -> String {
    let name = |e: usize| rec.engines.get(e).map_or("?", |e| e.name.as_str());
    if let ([(a, b)], [wdl]) = (pairs, running) {
        let elo = stats::elo_estimate(wdl).map_or(String::new(), |e| {
            format!("  Elo {}", stats::fmt_estimate(&e))
        });
        return format!("{} vs {}: {wdl}{elo}", name(*a), name(*b));
    }
    let mut points = vec![0.0; rec.engines.len()];
    for (&(a, b), w) in pairs.iter().zip(running) {
        points[a] += w.points();
        points[b] += w.flipped().points();
    }
    points
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{} {p:.1}", name(i)))
        .collect::<Vec<_>>()
        .join("  ")
}

/// One line about a finished game, cutechess style.
fn game_line(rec: &MatchRecord, g: &GameRecord) -> String {
    let name = |e: usize| rec.engines.get(e).map_or("?", |e| e.name.as_str());
    let seats: Vec<String> = g
        .seats
        .iter()
        .enumerate()
        .map(|(s, &e)| {
            format!(
                "{}={}",
                rec.seat_names.get(s).map_or("?", String::as_str),
                name(e)
            )
        })
        .collect();
    let result = match g.first_score() {
        Some(1.0) => format!("{} wins", name(g.pairing.0)),
        Some(0.0) => format!("{} wins", name(g.pairing.1)),
        Some(_) => "draw".to_string(),
        None => "not counted".to_string(),
    };
    let how = match &g.ending {
        Ending::Normal => "by the rules".to_string(),
        Ending::MoveLimit => "move limit".to_string(),
        Ending::Resign(e) => format!("{} resigns", name(*e)),
        Ending::Forfeit { engine, fault, .. } => {
            format!("{} forfeits: {}", name(*engine), fault.word())
        }
        Ending::Error(m) => m.clone(),
    };
    format!(
        "Finished game {} ({}): {result} ({how}, {} moves)",
        g.number,
        seats.join(" "),
        g.plies
    )
}

/// Appends games to the record file as they finish, so that an
/// interrupted match keeps what it played.
struct RecordWriter {
    file: Option<(PathBuf, File)>,
    failed: bool,
}

impl RecordWriter {
    fn open(path: Option<&PathBuf>, rec: &MatchRecord) -> Result<RecordWriter, ArenaError> {
        let Some(path) = path else {
            return Ok(RecordWriter {
                file: None,
                failed: false,
            });
        };
        let io = |source| {
            ArenaError::Record(RecordError::Io {
                path: path.clone(),
                source,
            })
        };
        let mut file = File::create(path).map_err(io)?;
        file.write_all(rec.header_text().as_bytes())
            .and_then(|()| file.write_all(b"\n"))
            .map_err(io)?;
        Ok(RecordWriter {
            file: Some((path.clone(), file)),
            failed: false,
        })
    }

    fn write_game(
        &mut self,
        rec: &MatchRecord,
        game: &GameRecord,
        progress: &mut progress::Progress,
    ) {
        if let Some((path, file)) = &mut self.file
            && let Err(e) = file.write_all(rec.game_text(game).as_bytes())
        {
            if !self.failed {
                progress.message(&format!(
                    "warning: cannot write the record {}: {e}",
                    path.display()
                ));
            }
            self.failed = true;
        }
    }

    /// Appends the report as comments.
    fn finish(&mut self, report: &str) {
        if let Some((_, file)) = &mut self.file {
            let mut text = String::new();
            for line in report.lines() {
                text.push_str("#| ");
                text.push_str(line);
                text.push('\n');
            }
            let _ = file.write_all(text.as_bytes()).and_then(|()| file.flush());
        }
    }
}
