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
//! [`chart`] (SVG), [`progress`] (stderr display), [`interrupt`] (Ctrl-C,
//! SIGTERM, SIGHUP), [`output`] (the paths written), [`stdio`] (the
//! runner's own standard streams).
//!
//! Before the first game every engine is checked (started, sent its
//! set-up lines and the game); `--shard K/N` plays whole deals of one
//! seeded match, whose records `--merge` back into the whole.

pub mod adjudicate;
pub mod chart;
pub(crate) mod config;
pub mod export;
pub mod info;
pub(crate) mod interrupt;
pub mod openings;
pub mod output;
pub mod pentanomial;
pub(crate) mod play;
pub mod process;
pub(crate) mod progress;
pub mod record;
pub mod recover;
pub(crate) mod referee;
pub mod report;
pub mod schedule;
pub mod stats;
pub(crate) mod stdio;
pub(crate) mod tcscale;

use std::fmt;
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
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
Where `tabula` comes from: `cargo install --path .` in the source tree puts it on
PATH; or name the build itself, e.g. cmd=./target/release/tabula after
`cargo build --release`. The examples below assume it is on PATH.

Examples:
  # Two searches of tabula on Othello, 10 games, 2 at a time, 50 ms a move:
  tabula match --engine cmd=tabula name=mcts set.search=mcts \\
               --engine cmd=tabula name=ab set.search=alphabeta \\
               --game othello --games 10 --concurrency 2 --movetime 50 --chart match.svg

  # The same with a clock of 5 s + 0.5 s byo-yomi per game, watched live
  # (open live.svg in a browser: it reloads itself while the match runs):
  tabula match --engine cmd=tabula name=mcts set.search=mcts \\
               --engine cmd=tabula name=ab set.search=alphabeta --games 6 --tc 5+0.5 --live live.svg

  # Hearts, seat-bound engines refereed by the runner, stop early by SPRT:
  tabula match --game hearts -o hands=single --games 40 \\
               --engine cmd=tabula name=new set.iterations=400 \\
               --engine cmd=tabula name=old set.iterations=100 --each set.search=ismcts \\
               --sprt elo0=0 elo1=50

  # Wizard, one ismcts player against three rules players (ABBB, rotated):
  tabula match --game wizard --table ABBB --games 8 \\
               --engine cmd=tabula name=ismcts set.search=ismcts set.iterations=200 \\
               --engine cmd=tabula name=rules set.search=rules

  # Three engines: a round robin with a cross-table, 10 games per pairing:
  tabula match --engine cmd=tabula name=mcts set.search=mcts --engine cmd=tabula name=flat \\
               set.search=flat --engine cmd=tabula name=rules set.search=rules --games 10 --movetime 50

  # One match over four machines (or cores): each plays a quarter of the deals
  # of the same seed, then the four records merge into the report of the whole:
  for k in 1 2 3 4; do
    tabula match --engine cmd=tabula name=mcts set.search=mcts \\
                 --engine cmd=tabula name=flat set.search=flat \\
                 --games 16 --movetime 20 --seed 1 --shard $k/4 --record shard$k.txt
  done
  tabula match --merge shard1.txt shard2.txt shard3.txt shard4.txt --chart all.svg

  # A plain GTP Othello engine (if you have one, e.g. Edax) against tabula:
  tabula match --engine cmd=\"edax -gtp\" proto=gtp --engine cmd=tabula --tc 60+1

Engine keys: cmd=COMMAND (required), name=NAME, proto=tabula|gtp, set.KEY=VALUE
(sent as `set KEY VALUE` to tabula engines), init=LINE (any command sent at start),
dir=PATH, stderr=FILE, and per-engine limits movetime=MS, depth=N, iterations=N,
tc=MAIN[+BYO]. Plain GTP engines count time in whole seconds: their movetime must be
a multiple of 1000 and their clock whole seconds.

Before the first game every engine is started once and sent its set-up lines: one
that cannot start or refuses a line stops the match with an error. During the match
faults (a crash, no reply in time, an illegal move, a malformed reply, a refused
command) lose that game for the culprit and are counted in the report; the match
goes on, but exits non-zero if an engine forfeited every game it played. A crashed or
hung engine is restarted for its next game; its second crash or hang stops the match
unless --recover is given. Ctrl-C
stops starting games, lets those under way finish and prints the report; a second
Ctrl-C, SIGTERM or SIGHUP quits at once, ending every engine, with the record whole
up to the last finished game. Every output path is checked before the first game.";

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
    /// (setup commands, moves under depth or iteration budgets; at most
    /// 1e6).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub timeout: f64,

    /// Engine moves after which a game is adjudicated a draw (0: never).
    #[arg(long, default_value_t = 2000)]
    pub max_moves: usize,

    /// Random moves played at the start of every perfect-information game
    /// (the same for both colours of a deal), for varied openings.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub random_plies: usize,

    /// Adjudicate games whose result is known: solve=N ends an Othello
    /// game at N empty squares or fewer with the exact solver's result.
    /// On the engines' own scores (two-player games of perfect
    /// information; a score is the mover's win value in [0, 1]):
    /// resign.movecount=K resign.score=S [resign.twosided=true] gives the
    /// game against a seat whose last K scores are all at most S (two-sided:
    /// while the other's last K are all at least 1-S); draw.movecount=K
    /// draw.score=S [draw.movenumber=N] draws it once both seats' last K
    /// scores lie within S of 0.5, after N moves of each. See docs/match.md.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub adjudicate: Option<Vec<String>>,

    /// Play the deals from an opening suite: FILE, then format=moves|positions
    /// order=sequential|random start=N (see docs/match.md). Each opening is
    /// played once per seat rotation; start=N begins at opening N.
    #[arg(long, value_name = "FILE [KEY=VALUE]", num_args = 1..)]
    pub openings: Option<Vec<String>>,

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

    /// Rewrite this SVG chart while the match runs (about once a second),
    /// with the Elo curve so far; open it in a browser, which reloads it.
    #[arg(long, value_name = "FILE.svg")]
    pub live: Option<PathBuf>,

    /// Play only shard K of N of the match: the deals numbered K-1 modulo
    /// N, each with all its seat rotations, of the same --seed (give one).
    /// `--merge` of the N records is the whole match.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,

    /// Merge these record files into one report instead of playing
    /// (with --record, also write the merged record). The shards of one
    /// match merge into that match, game numbers kept.
    #[arg(long, value_name = "RECORD", num_args = 1..)]
    pub merge: Vec<PathBuf>,

    /// With --merge: merge even when deals of the match are missing (the
    /// report names them); without it such a merge is refused.
    #[arg(long, requires = "merge")]
    pub partial: bool,

    /// Also write the games in other formats: ggf=FILE (Othello, GGF as
    /// NBoard and Edax read it), quoridor=FILE (Quoridor text, a line per
    /// move), jsonl=FILE (any game, one JSON object per game).
    #[arg(long, value_name = "FORMAT=FILE", num_args = 1..)]
    pub export: Vec<String>,

    /// Scale every time limit by this machine's speed: the reference
    /// machine's nodes a second from `tabula bench` (its signature line);
    /// limits are multiplied by REF_NPS / this machine's.
    #[arg(long, value_name = "REF_NPS")]
    pub tc_scale: Option<f64>,

    /// Restart an engine that crashed or hung and go on, however often
    /// (its games are lost as forfeits). Without it the match stops at
    /// an engine's second crash or hang.
    #[arg(long)]
    pub recover: bool,

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
    /// An engine failed its check before the first game.
    EngineCheck {
        /// The engine's name.
        engine: String,
        /// Its command.
        command: String,
        /// What went wrong.
        error: process::EngineError,
    },
    /// An output path cannot be written (checked before the first game).
    Output(output::OutputError),
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
            ArenaError::Output(e) => write!(f, "cannot write {e}"),
            ArenaError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            ArenaError::EngineCheck {
                engine,
                command,
                error,
            } => {
                write!(
                    f,
                    "engine {engine} failed its check before the first game: {error}"
                )?;
                if matches!(error, process::EngineError::Spawn { .. }) {
                    let program = command.split_whitespace().next().unwrap_or("");
                    write!(
                        f,
                        " (is '{program}' on PATH? `cargo install --path .` puts tabula there; \
                         or give the path of the build, e.g. cmd=./target/release/tabula)"
                    )?;
                }
                Ok(())
            }
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
    /// Output files that could not be written at the end (a chart), each
    /// said: the report is whole, but the run failed.
    pub file_errors: Vec<String>,
    /// Why the match stopped before its end, other than the SPRT or an
    /// interrupt (an engine's second crash without `--recover`).
    pub stopped: Option<String>,
}

impl MatchReport {
    /// The engines that forfeited every game they played (a match in which
    /// one did exits non-zero: its results say nothing about strength).
    pub fn forfeited_all(&self) -> Vec<String> {
        self.summary
            .engines
            .iter()
            .enumerate()
            .filter(|(i, _)| {
                let mine: Vec<&GameRecord> = self
                    .record
                    .games
                    .iter()
                    .filter(|g| g.seats.contains(i))
                    .collect();
                !mine.is_empty()
                    && mine
                        .iter()
                        .all(|g| matches!(&g.ending, Ending::Forfeit { engine, .. } if engine == i))
            })
            .map(|(_, e)| e.name.clone())
            .collect()
    }
}

/// The referee of a game by registry name, with its options as
/// `key=value` words.
pub fn referee_by_name(name: &str, words: &[String]) -> Result<Box<dyn Referee>, ArenaError> {
    let entry =
        crate::games::find(name).ok_or_else(|| ArenaError::UnknownGame(name.to_string()))?;
    Ok(entry.visit(words, referee::OpenReferee)??)
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
    stdio::ensure_open();
    let mut setup = setup_from(args, referee.as_ref())?;
    if let Some(words) = &args.openings {
        setup.openings = Some(Arc::new(openings::for_match(
            words,
            referee.as_ref(),
            &setup,
        )?));
    }
    let sprt = args.sprt.as_ref().map(|w| Sprt::parse(w)).transpose()?;
    if sprt.is_some() && setup.engines.len() != 2 {
        return Err(ConfigError("--sprt needs exactly two engines".to_string()).into());
    }
    if args.games == 0 {
        return Err(ConfigError("--games must be at least 1".to_string()).into());
    }
    let shard = args
        .shard
        .as_deref()
        .map(schedule::Shard::parse)
        .transpose()
        .map_err(ConfigError)?;
    if shard.is_some() && args.seed.is_none() {
        return Err(ConfigError(
            "--shard needs --seed: every shard must play the deals of the same seed".to_string(),
        )
        .into());
    }
    if shard.is_some() && sprt.is_some() {
        return Err(ConfigError(
            "--sprt cannot stop one shard early: give --sprt to the --merge of the shards"
                .to_string(),
        )
        .into());
    }
    let concurrency = match args.concurrency {
        Some(0) => return Err(ConfigError("--concurrency must be at least 1".to_string()).into()),
        Some(n) => n.min(1024),
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
    let jobs = schedule::Jobs::new(setup.engines.len(), args.games, patterns);
    let total = match shard {
        Some(s) => jobs.shard_total(s),
        None => jobs.total(),
    }
    .ok_or_else(|| ConfigError(format!("--games {} is too many", args.games)))?;
    if total == 0 {
        return Err(ConfigError(format!(
            "shard {} holds no game of this match (fewer deals than shards)",
            shard.map_or(String::new(), |s| s.to_string())
        ))
        .into());
    }
    // `--openings ... start=N`: the deals (and game numbers) of a longer
    // match from its first opening, so that offset runs merge into it.
    let first_deal = setup.openings.as_ref().map_or(0, |s| s.first_deal());
    let games_per_deal = (schedule::pairings(setup.engines.len()).len() * rotation) as u64;
    let jobs = jobs
        .filter(move |j| shard.is_none_or(|s| s.holds(j.deal)))
        .map(move |mut j| {
            j.deal += first_deal;
            j.number += usize::try_from(first_deal * games_per_deal).unwrap_or(usize::MAX / 2);
            j
        });
    // No more workers than games.
    let concurrency = concurrency.min(total);

    // Every path written is checked before anything starts.
    let outputs = [
        (!args.no_record).then_some(args.record.as_ref()).flatten(),
        args.chart.as_ref(),
        args.live.as_ref(),
    ];
    let stderrs = setup
        .engines
        .iter()
        .filter_map(|e| e.launch.stderr.as_ref());
    for path in outputs.into_iter().flatten().chain(stderrs.clone()) {
        output::check(path).map_err(ArenaError::Output)?;
    }
    let roles: Vec<(&str, &std::path::Path)> = ["--record", "--chart", "--live"]
        .into_iter()
        .zip(outputs)
        .filter_map(|(role, p)| Some((role, p?.as_path())))
        // The live chart's last picture is the chart: they may share.
        .map(|(role, p)| (if role == "--live" { "--chart" } else { role }, p))
        .chain(stderrs.map(|p| ("an engine's stderr=", p.as_path())))
        .collect();
    output::check_distinct(&roles).map_err(ArenaError::Output)?;

    // From the first engine started, the signals act on the match.
    let ctrl_c = interrupt::Guard::install();
    check_engines(&setup, referee.as_ref())?;

    let mut rec = MatchRecord {
        game: referee.game_name().to_string(),
        options: referee.option_words(),
        seeds: vec![setup.seed],
        seat_names: (0..seats).map(|s| referee.seat_name(s)).collect(),
        engines: setup.engines.iter().map(EngineSpec::info).collect(),
        shard: shard.map(|s| s.to_string()),
        settings: match_settings(args, &setup),
        stopped: None,
        games: Vec::new(),
    };
    let mut writer = if args.no_record {
        RecordWriter::none()
    } else {
        RecordWriter::open(
            args.record.as_ref(),
            &default_record_stem(&setup, shard),
            &rec,
        )?
    };
    let record_path = writer.path();

    let mut progress = progress::Progress::new(
        progress::Mode::choose(args.no_progress, args.quiet),
        total as u64,
    );
    let opts: String = rec.options.iter().map(|o| format!(" {o}")).collect();
    let shard_text = shard.map_or(String::new(), |s| format!(", shard {s}"));
    progress.header(&format!(
        "Match: {}{opts}, {} games{shard_text}, {} engines, concurrency {concurrency}, seed {}",
        rec.game,
        total,
        setup.engines.len(),
        setup.seed
    ));
    let mut stopped_by_sprt = None;
    // Running tallies per pairing, so that each game costs O(1) here.
    let pairs = schedule::pairings(setup.engines.len());
    let mut running = vec![Wdl::default(); pairs.len()];
    // The SPRT counts whole deals (game pairs), as the report does.
    let mut deal_tally = pentanomial::DealTally::new(rotation);
    let started = Instant::now();
    let mut interrupted = false;
    let mut live = args.live.as_ref().map(|path| LiveChart {
        path: path.clone(),
        last: None,
        failing: false,
    });
    if let Some(live) = live.as_mut() {
        // A first picture, so that a browser has something to reload.
        live.update(&rec, sprt, &mut progress);
        live.last = None;
    }
    let mut crash_watch = recover::CrashWatch::new(setup.engines.len(), args.recover);
    let names: Vec<String> = setup.engines.iter().map(|e| e.name.clone()).collect();
    let mut crash_stop: Option<String> = None;
    schedule::run_jobs(&setup, referee.as_ref(), jobs, concurrency, |game| {
        if interrupt::stopping() {
            // A signal is ending the runner: this game ended because its
            // engines were killed, and is neither recorded nor said.
            return false;
        }
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
        if let Some(e) = writer.write_game(&rec, &game) {
            progress.message(&e);
        }
        let line = game_line(&rec, &game);
        if let (Some(score), Some(i)) = (
            game.first_score(),
            pairs.iter().position(|&p| p == game.pairing),
        ) {
            running[i].add(score);
            if i == 0 {
                deal_tally.add(game.deal, score);
            }
        }
        let crash_note = crash_watch.note(&game, &names);
        rec.games.push(game);
        progress.game_done(&line, &running_status(&rec, &pairs, &running));
        if let Some(live) = live.as_mut() {
            live.update(&rec, sprt, &mut progress);
        }
        match sprt.map(|s| s.decision(s.llr_deals(&deal_tally.counts))) {
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
            _ if crash_stop.is_none()
                && let Some(why) = crash_note =>
            {
                progress.message(&format!("Stopping: {why}; finishing the games under way"));
                crash_stop = Some(why);
                false
            }
            _ if interrupt::interrupted() && !interrupted => {
                interrupted = true;
                progress.message(
                    "Interrupted: finishing the games under way (Ctrl-C again to quit now)",
                );
                false
            }
            _ => stopped_by_sprt.is_none() && !interrupted && crash_stop.is_none(),
        }
    });
    interrupt::wait_if_stopping();
    progress.finish();
    rec.games.sort_by_key(|g| g.number);
    if rec.games.len() < total {
        rec.stopped = Some(
            if interrupted {
                "interrupted"
            } else if crash_stop.is_some() {
                "crash"
            } else {
                "sprt"
            }
            .to_string(),
        );
    }
    let summary = Summary::compute(&rec, sprt);
    let mut text = summary.text(&rec);
    if interrupted {
        text.push_str(&format!(
            "Interrupted after {} of {total} games\n",
            rec.games.len()
        ));
    }
    if let Some(why) = &crash_stop {
        text.push_str(&format!(
            "Stopped after {} of {total} games: {why}\n",
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
    let mut file_errors = Vec::new();
    if let Some(live) = &live
        // The last picture, which no longer reloads itself.
        && let Err(e) = write_chart(&live.path, &rec, &summary, false)
    {
        progress::eprint_line(&format!("tabula match: warning: --live: {e}"));
    }
    let mut report = MatchReport {
        record: rec,
        summary,
        text,
        record_path,
        stopped_by_sprt,
        file_errors: Vec::new(),
        stopped: crash_stop,
    };
    if let Some(e) = writer.failure() {
        let e = format!("the record is not complete: {e}");
        progress::eprint_line(&format!("tabula match: {e}"));
        report.text.push_str(&format!("Record: {e}\n"));
        file_errors.push(e);
    }
    if let Err(e) = export::write_exports(&args.export, &report.record) {
        let e = format!("--export: {e}");
        progress::eprint_line(&format!("tabula match: {e}"));
        report.text.push_str(&format!("Export: {e}\n"));
        file_errors.push(e);
    }
    let mut report = publish(report, args.chart.as_ref());
    writer.finish(&report.record, &report.text);
    // The signals act on the match until its record is closed.
    drop(ctrl_c);
    file_errors.append(&mut report.file_errors);
    report.file_errors = file_errors;
    Ok(report)
}

/// What the record's `# settings` line holds: every setting of the runner
/// that changes the games (each engine's limits are on its own line).
fn match_settings(args: &MatchArgs, setup: &Setup) -> Vec<(String, String)> {
    let table = args
        .table
        .as_ref()
        .map_or("alternate".to_string(), |t| t.to_ascii_uppercase());
    [
        (record::GAMES_KEY, args.games.to_string()),
        (record::TABLE_KEY, table),
        ("random-plies", setup.random_plies.to_string()),
        ("max-moves", setup.max_moves.to_string()),
        ("timemargin", args.timemargin.to_string()),
        ("timeout", args.timeout.to_string()),
        (
            "game-seeds",
            if setup.game_seeds { "on" } else { "off" }.to_string(),
        ),
        // The suite and how it is read, not where a shard starts in it
        // (start=N): shards of one suite merge.
        (
            record::OPENINGS_KEY,
            words_setting(
                args.openings
                    .iter()
                    .flatten()
                    .filter(|w| !w.starts_with("start=")),
            ),
        ),
        (
            "adjudicate",
            words_setting(args.adjudicate.iter().flatten()),
        ),
        (
            "tc-scale",
            args.tc_scale.map_or("none".to_string(), |n| n.to_string()),
        ),
    ]
    .into_iter()
    .chain(setup.openings.iter().flat_map(|suite| {
        // The suite's extent and this run's place in it: a merge of
        // offset runs names the openings no run played.
        [
            (record::OPENINGS_SIZE_KEY, suite.len().to_string()),
            (record::OPENINGS_START_KEY, suite.start.to_string()),
        ]
    }))
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// A list of words as one `key=value` setting: comma-joined, `none` when
/// empty.
fn words_setting<'a>(words: impl Iterator<Item = &'a String>) -> String {
    let joined: Vec<&str> = words.map(String::as_str).collect();
    if joined.is_empty() {
        "none".to_string()
    } else {
        joined.join(",")
    }
}

/// The default record name, without its `.txt`.
fn default_record_stem(setup: &Setup, shard: Option<schedule::Shard>) -> String {
    match shard {
        Some(s) => format!(
            "tabula-match-{}-shard{}of{}",
            setup.seed,
            s.index + 1,
            s.count
        ),
        None => format!("tabula-match-{}", setup.seed),
    }
}

/// `--live`: the chart rewritten while the match runs, best effort: a
/// failed write is said (once until a write succeeds again) and tried
/// again later; it never stops the match or costs the report.
struct LiveChart {
    path: PathBuf,
    last: Option<Instant>,
    failing: bool,
}

impl LiveChart {
    /// How often the chart is rewritten, at most.
    const EVERY: Duration = Duration::from_secs(1);

    fn update(&mut self, rec: &MatchRecord, sprt: Option<Sprt>, progress: &mut progress::Progress) {
        if self.last.is_some_and(|t| t.elapsed() < Self::EVERY) {
            return;
        }
        self.last = Some(Instant::now());
        // Games in the order of their numbers, as the final report has them.
        let mut sorted = rec.clone();
        sorted.games.sort_by_key(|g| g.number);
        let summary = Summary::compute(&sorted, sprt);
        match write_chart(&self.path, &sorted, &summary, true) {
            Err(e) if !self.failing => {
                progress.message(&format!("warning: --live: {e} (tried again every second)"));
                self.failing = true;
            }
            Err(_) => {}
            Ok(()) => {
                if self.failing {
                    progress.message(&format!("--live: {} written again", self.path.display()));
                }
                self.failing = false;
            }
        }
    }
}

/// Starts every engine once before the first game and sends it its set-up
/// lines and the game, so that a command that cannot start, or a setting
/// an engine refuses, stops the match at once with a clear message (rather
/// than forfeiting every game). The engines are checked in parallel.
fn check_engines(setup: &Setup, referee: &dyn Referee) -> Result<(), ArenaError> {
    let mut game = format!("game {}", referee.game_name());
    for w in referee.option_words() {
        game.push(' ');
        game.push_str(&w);
    }
    if !referee.perfect_information() {
        game.push_str(" seat=0");
    }
    let check = |spec: &EngineSpec| -> Result<(), process::EngineError> {
        let label = format!("{} check", spec.name);
        let mut p = process::EngineProcess::spawn(&spec.launch, &label, setup.log.clone())?;
        for line in spec.start_lines() {
            p.send(line, setup.timeout)?;
        }
        match spec.proto {
            Proto::Tabula => {
                p.send(&game, setup.timeout)?;
            }
            Proto::Gtp => {
                if let Some(size) = referee.board_size() {
                    p.send(&format!("boardsize {size}"), setup.timeout)?;
                }
                p.send("clear_board", setup.timeout)?;
            }
        }
        p.quit();
        Ok(())
    };
    let results: Vec<Result<(), process::EngineError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = setup
            .engines
            .iter()
            .map(|spec| scope.spawn(move || check(spec)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(process::EngineError::Crashed(
                        "the check panicked".to_string(),
                    ))
                })
            })
            .collect()
    });
    for (spec, result) in setup.engines.iter().zip(results) {
        if let Err(error) = result {
            return Err(ArenaError::EngineCheck {
                engine: spec.name.clone(),
                command: spec.launch.command.clone(),
                error,
            });
        }
    }
    Ok(())
}

/// `--merge`: combines record files into one report.
fn merge(args: &MatchArgs) -> Result<MatchReport, ArenaError> {
    stdio::ensure_open();
    // A signal removes a merged record or chart being written.
    interrupt::watch();
    for path in &args.merge {
        // A FIFO would block the read, a device never end it.
        match std::fs::metadata(path) {
            Ok(m) if !m.is_file() => {
                return Err(ArenaError::Record(RecordError::Io {
                    path: path.clone(),
                    source: std::io::Error::other("not a regular file"),
                }));
            }
            _ => {}
        }
    }
    // The same file twice would count its games twice.
    let mut seen: Vec<(PathBuf, &PathBuf)> = Vec::new();
    for path in &args.merge {
        let canonical = std::fs::canonicalize(path).map_err(|source| {
            ArenaError::Record(RecordError::Io {
                path: path.clone(),
                source,
            })
        })?;
        if let Some((_, first)) = seen.iter().find(|(c, _)| *c == canonical) {
            return Err(ArenaError::Record(RecordError::Incompatible(format!(
                "{} and {} are the same file: its games would count twice",
                first.display(),
                path.display()
            ))));
        }
        seen.push((canonical, path));
    }
    let records = args
        .merge
        .iter()
        .map(|p| MatchRecord::read(p))
        .collect::<Result<Vec<_>, _>>()?;
    let named: Vec<(&PathBuf, MatchRecord)> = args.merge.iter().zip(records).collect();
    let record_path = args.record.clone().filter(|_| !args.no_record);
    for path in [record_path.as_ref(), args.chart.as_ref()]
        .into_iter()
        .flatten()
    {
        output::check(path).map_err(ArenaError::Output)?;
    }
    // Nothing written over a record being merged, or over each other.
    let roles: Vec<(&str, &std::path::Path)> =
        [("--record", &record_path), ("--chart", &args.chart)]
            .into_iter()
            .filter_map(|(role, p)| Some((role, p.as_ref()?.as_path())))
            .chain(args.merge.iter().map(|p| ("a merged record", p.as_path())))
            .collect();
    output::check_distinct(&roles).map_err(ArenaError::Output)?;
    let merged = MatchRecord::merge_files(&named, args.partial)?;
    let rec = merged.record;
    export::check(&args.export, &rec.game)?;
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
    for (seed, missing) in &merged.missing {
        text.push_str(&format!("Missing (seed {seed}): {missing}\n"));
    }
    if merged.unchecked {
        text.push_str(
            "Not checked for missing games: a record that does not state its match's extent \
             (version 1, or an opening-suite run from before openings-size)\n",
        );
    }
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
        file_errors: Vec::new(),
        stopped: None,
    };
    let mut report = report;
    if let Err(e) = export::write_exports(&args.export, &report.record) {
        let e = format!("--export: {e}");
        progress::eprint_line(&format!("tabula match: {e}"));
        report.text.push_str(&format!("Export: {e}\n"));
        report.file_errors.push(e);
    }
    Ok(publish(report, args.chart.as_ref()))
}

/// The end of a run or a merge: writes the chart if one is asked for (and
/// says so in the text, or why it could not), then prints the report text
/// (a closed or broken stdout loses the text, not the match). A chart
/// that cannot be written is in [`MatchReport::file_errors`]: the report
/// is never lost for it.
fn publish(mut report: MatchReport, chart: Option<&PathBuf>) -> MatchReport {
    if let Some(path) = chart {
        match write_chart(path, &report.record, &report.summary, false) {
            Ok(()) => report
                .text
                .push_str(&format!("Chart: {}\n", path.display())),
            Err(e) => {
                progress::eprint_line(&format!("tabula match: {e}"));
                report.text.push_str(&format!("Chart: not written: {e}\n"));
                report.file_errors.push(e.to_string());
            }
        }
    }
    let mut out = std::io::stdout().lock();
    let _ = out
        .write_all(report.text.as_bytes())
        .and_then(|()| out.flush());
    report
}

/// Writes a chart whole (see [`output::write_whole`]): a browser (or
/// anyone) never reads half a chart, and a link or device stays what it is.
fn write_chart(
    path: &std::path::Path,
    rec: &MatchRecord,
    summary: &Summary,
    live: bool,
) -> Result<(), ArenaError> {
    output::write_whole(path, chart::svg_with(rec, summary, live).as_bytes())
        .map_err(ArenaError::Output)
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
        movetime: args.movetime.map(config::check_movetime).transpose()?,
        depth: args.depth,
        iterations: args.iterations,
        clock: args.tc.as_deref().map(Clock::parse).transpose()?,
    };
    let mut engines = Vec::new();
    for words in &args.engines.0 {
        let mut spec = EngineSpec::parse(&args.each, words)?;
        spec.limits = spec.limits.or(global);
        let label = if spec.name.is_empty() {
            spec.default_name()
        } else {
            spec.name.clone()
        };
        spec.limits.check_for(spec.proto, &label)?;
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
    if let Some(reference) = args.tc_scale {
        let (factor, line) = tcscale::measure(reference)?;
        eprintln!("{line}");
        for e in &mut engines {
            e.limits = tcscale::scale(e.limits, factor);
            e.limits.check_for(e.proto, &e.name)?;
        }
    }
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            % 1_000_000_000
    });
    if !(args.timeout.is_finite() && args.timeout > 0.0 && args.timeout <= config::MAX_SECONDS) {
        return Err(ConfigError(format!(
            "--timeout must be a positive number of seconds, at most {}, not {:?}",
            config::MAX_SECONDS,
            args.timeout
        ))
        .into());
    }
    if args.timemargin as f64 > config::MAX_SECONDS * 1000.0 {
        return Err(ConfigError(format!(
            "--timemargin must be at most {} ms",
            config::MAX_SECONDS * 1000.0
        ))
        .into());
    }
    export::check(&args.export, referee.game_name())?;
    let adjudication = adjudicate::Adjudication::parse(args.adjudicate.as_deref().unwrap_or(&[]))?;
    adjudication.check(referee)?;
    let log: Option<TrafficLog> = args.debug.then(|| {
        let start = Instant::now();
        Arc::new(move |line: &str| {
            progress::eprint_line(&format!("{:>9.3} {line}", start.elapsed().as_secs_f64()));
        }) as TrafficLog
    });
    Ok(Setup {
        engines,
        seed,
        margin: Duration::from_millis(args.timemargin),
        timeout: Duration::from_millis((args.timeout * 1000.0).ceil() as u64),
        max_moves: args.max_moves,
        random_plies: args.random_plies,
        game_seeds: !args.no_game_seeds,
        log,
        openings: None,
        adjudication,
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
        Ending::Adjudicated(d) => format!("adjudicated, {d}"),
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
/// interrupted match keeps what it played. The file is shared with the
/// signal thread ([`interrupt::on_stop`]): a game is written whole under
/// its lock, and a signal that ends the runner closes the record after the
/// last game written.
struct RecordWriter {
    shared: Option<Arc<Mutex<RecordFile>>>,
    _on_stop: Option<interrupt::StopHookGuard>,
}

struct RecordFile {
    path: PathBuf,
    file: File,
    /// Games written.
    games: usize,
    /// The first write that failed (said once).
    failed: Option<String>,
    /// Whether the closing lines are written.
    closed: bool,
}

impl RecordWriter {
    fn none() -> RecordWriter {
        RecordWriter {
            shared: None,
            _on_stop: None,
        }
    }

    /// Opens `path` (checked already), or a new file named after `stem`
    /// that replaces no earlier record, and writes the header.
    fn open(
        path: Option<&PathBuf>,
        stem: &str,
        rec: &MatchRecord,
    ) -> Result<RecordWriter, ArenaError> {
        let (path, mut file) = match path {
            Some(path) => (
                path.clone(),
                output::create(path).map_err(ArenaError::Output)?,
            ),
            None => output::create_new_numbered(stem).map_err(ArenaError::Output)?,
        };
        let io = |source| {
            ArenaError::Record(RecordError::Io {
                path: path.clone(),
                source,
            })
        };
        file.write_all(rec.header_text().as_bytes())
            .and_then(|()| file.write_all(b"\n"))
            .map_err(io)?;
        let shared = Arc::new(Mutex::new(RecordFile {
            path,
            file,
            games: 0,
            failed: None,
            closed: false,
        }));
        let for_signals = Arc::clone(&shared);
        let on_stop = interrupt::on_stop(move |signal| {
            // A game being written is finished first (briefly waited for).
            let deadline = Instant::now() + Duration::from_millis(500);
            loop {
                match for_signals.try_lock() {
                    Ok(mut f) => {
                        let text = format!(
                            "Stopped by {signal} after {} games: the games under way were not \
                             recorded",
                            f.games
                        );
                        f.close(signal, &text);
                        return;
                    }
                    Err(_) if Instant::now() < deadline => {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    Err(_) => return,
                }
            }
        });
        Ok(RecordWriter {
            shared: Some(shared),
            _on_stop: Some(on_stop),
        })
    }

    /// Where the record goes, if anywhere.
    fn path(&self) -> Option<PathBuf> {
        self.shared
            .as_ref()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).path.clone())
    }

    /// Appends a game; returns a warning the first time a write fails.
    fn write_game(&mut self, rec: &MatchRecord, game: &GameRecord) -> Option<String> {
        let shared = self.shared.as_ref()?;
        let mut f = shared.lock().unwrap_or_else(|e| e.into_inner());
        if f.closed {
            return None;
        }
        match f.file.write_all(rec.game_text(game).as_bytes()) {
            Ok(()) => {
                f.games += 1;
                None
            }
            Err(e) if f.failed.is_none() => {
                let said = format!("{}: {e} (at game {})", f.path.display(), game.number);
                f.failed = Some(said.clone());
                Some(format!("warning: cannot write the record {said}"))
            }
            Err(_) => None,
        }
    }

    /// The first write to the record that failed, if one did.
    fn failure(&self) -> Option<String> {
        let shared = self.shared.as_ref()?;
        let f = shared.lock().unwrap_or_else(|e| e.into_inner());
        f.failed.clone()
    }

    /// Closes the record: the `# stopped` line if the match stopped early,
    /// then the report as comments.
    fn finish(&mut self, rec: &MatchRecord, report: &str) {
        if let Some(shared) = &self.shared {
            let mut f = shared.lock().unwrap_or_else(|e| e.into_inner());
            f.close(rec.stopped.as_deref().unwrap_or(""), report);
        }
    }
}

impl RecordFile {
    /// Writes the closing lines once: `# stopped reason=...` (unless
    /// `reason` is empty) and `text` as `#| ` comments.
    fn close(&mut self, reason: &str, text: &str) {
        if self.closed {
            return;
        }
        self.closed = true;
        let mut out = String::new();
        if !reason.is_empty() {
            out.push_str(&MatchRecord::stopped_text(reason, self.games));
        }
        for line in text.lines() {
            out.push_str("#| ");
            out.push_str(line);
            out.push('\n');
        }
        let _ = self
            .file
            .write_all(out.as_bytes())
            .and_then(|()| self.file.flush());
    }
}
