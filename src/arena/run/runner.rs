//! A match run as named steps ([`run_with_referee`]): the plan (engines,
//! limits, openings, schedule), the engines checked before the first game
//! (started, sent their set-up lines and the game), the games played
//! concurrently while the record, the progress and the live chart follow
//! them, and the report at the end. `--merge` is [`crate::arena::merge`]'s.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::arena::clock::tcscale;
use crate::arena::config::cli::MatchArgs;
use crate::arena::config::match_setup::MatchSetup;
use crate::arena::config::openings;
use crate::arena::config::spec::{
    self as config, EngineSpec, Limits, Proto, TimeControl, settle_names,
};
use crate::arena::engines::process::{self, TrafficLog};
use crate::arena::engines::stdio;
use crate::arena::error::ArenaError;
use crate::arena::ground::adjudication::Adjudication;
use crate::arena::ground::config_error::ConfigError;
use crate::arena::ground::pairings::pairings;
use crate::arena::ground::referee::{Referee, game_command};
use crate::arena::ground::{interrupt, progress};
use crate::arena::output::export;
use crate::arena::output::live::LiveChart;
use crate::arena::output::match_report::{MatchReport, publish};
use crate::arena::output::record_writer::RecordWriter;
use crate::arena::output::report::Summary;
use crate::arena::record::match_file::{self as record, Ending, GameRecord, MatchRecord};
use crate::arena::record::recover;
use crate::arena::run::play::{self, GameJob};
use crate::arena::run::schedule;
use crate::arena::seed;
use crate::arena::stats::elo::{self as stats, Wdl};
use crate::arena::stats::pentanomial;
use crate::arena::stats::sprt::{Sprt, SprtDecision};
use crate::files::output;

/// Runs a match of the game behind `referee` (its `--game` and `--option`
/// Registers what a signal that ends the runner must do whatever else is
/// busy (before the signals are caught): end every engine, then remove
/// the temporary files.
pub(crate) fn register_cleanups() {
    interrupt::at_stop("engines", process::end_all);
    interrupt::at_stop("temporary files", output::remove_temporaries);
}

/// arguments are ignored: the referee already is that game).
pub fn run_with_referee(
    args: &MatchArgs,
    referee: Box<dyn Referee>,
) -> Result<MatchReport, ArenaError> {
    stdio::ensure_open();
    let (plan, jobs) = Plan::new(args, referee.as_ref())?;
    // One writer per file: held until the report is out.
    let _locks = check_outputs(args, &plan.setup)?;
    // From the first engine started, the signals act on the match.
    register_cleanups();
    let ctrl_c = interrupt::Guard::install();
    check_engines(&plan.setup, referee.as_ref())?;
    let rec = MatchRecord {
        game: referee.game_name().to_string(),
        options: referee.option_words(),
        seeds: vec![plan.setup.seed],
        seat_names: (0..referee.num_seats())
            .map(|s| referee.seat_name(s))
            .collect(),
        engines: plan.setup.engines.iter().map(EngineSpec::info).collect(),
        shard: plan.shard.map(|s| s.to_string()),
        settings: match_settings(args, &plan.setup),
        stopped: None,
        games: Vec::new(),
    };
    let writer = if args.no_record {
        RecordWriter::none()
    } else {
        RecordWriter::open(
            args.record.as_ref(),
            &default_record_stem(&plan.setup, plan.shard),
            &rec,
        )?
    };
    let mut running = Running::start(args, &plan, rec, writer);
    schedule::run_jobs(
        &plan.setup,
        referee.as_ref(),
        jobs,
        plan.concurrency,
        |game| running.game_done(game),
    );
    interrupt::wait_if_stopping();
    let report = running.finish(args, &plan);
    // The signals act on the match until its record is closed.
    drop(ctrl_c);
    Ok(report)
}

/// What a run plays, checked before anything starts: the engines and the
/// rest of the set-up, the SPRT, the shard, the seating and the games.
struct Plan {
    setup: MatchSetup,
    sprt: Option<Sprt>,
    shard: Option<schedule::Shard>,
    /// Games played at the same time (never more than the games).
    concurrency: usize,
    /// Games of one deal in a pairing (the seat rotations).
    rotation: usize,
    /// Games this run plays.
    total: usize,
}

impl Plan {
    /// Reads and checks the arguments against the game; the games to
    /// play come with the plan.
    fn new(
        args: &MatchArgs,
        referee: &dyn Referee,
    ) -> Result<(Plan, impl Iterator<Item = GameJob> + Send + use<>), ArenaError> {
        let mut setup = setup_from(args, referee)?;
        if let Some(words) = &args.openings {
            setup.openings = Some(Arc::new(openings::for_match(
                words,
                referee,
                setup.seed,
                &setup.engines,
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
                "--shard needs --seed: every shard must play the deals of the same seed"
                    .to_string(),
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
            Some(0) => {
                return Err(ConfigError("--concurrency must be at least 1".to_string()).into());
            }
            Some(n) => n.min(1024),
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let seats = referee.num_seats();
        let patterns = match &args.table {
            Some(t) => {
                schedule::table_patterns(&schedule::parse_table(t, seats).map_err(ConfigError)?)
            }
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
        let games_per_deal = (pairings(setup.engines.len()).len() * rotation) as u64;
        let jobs = jobs
            .filter(move |j| shard.is_none_or(|s| s.holds(j.deal)))
            .map(move |mut j| {
                j.deal += first_deal;
                j.number += usize::try_from(first_deal * games_per_deal).unwrap_or(usize::MAX / 2);
                j
            });
        let plan = Plan {
            setup,
            sprt,
            shard,
            // No more workers than games.
            concurrency: concurrency.min(total),
            rotation,
            total,
        };
        Ok((plan, jobs))
    }
}

/// Checks every path a run writes before anything starts: each can be
/// written, and no two are the same file (the live chart's last picture
/// is the chart: they may share). The record, the charts, every export
/// and the engines' stderr files are in the one check.
///
/// Each is then locked for the run (see [`output::lock_all`]): another run
/// writing one of them refuses this one before any engine starts.
fn check_outputs(
    args: &MatchArgs,
    setup: &MatchSetup,
) -> Result<Vec<crate::files::lock::WriteLock>, ArenaError> {
    let outputs = [
        (!args.no_record).then_some(args.record.as_ref()).flatten(),
        args.chart.as_ref(),
        args.live.as_ref(),
    ];
    let stderrs = setup
        .engines
        .iter()
        .filter_map(|e| e.launch.stderr.as_ref());
    let exports = export::outputs(&args.export)?;
    let roles: Vec<(&str, &std::path::Path)> = ["--record", "--chart", "--live"]
        .into_iter()
        .zip(outputs)
        .filter_map(|(role, p)| Some((role, p?.as_path())))
        .map(|(role, p)| (if role == "--live" { "--chart" } else { role }, p))
        .chain(stderrs.map(|p| ("an engine's stderr=", p.as_path())))
        .chain(exports.iter().map(|(role, p)| (role.as_str(), p.as_path())))
        .collect();
    output::check_all(&roles).map_err(ArenaError::Output)?;
    output::lock_all(&roles, &mut crate::arena::ground::progress::tell_lock)
        .map_err(ArenaError::Output)
}

/// A match under way: the record so far, its file, the progress display,
/// the running tallies and what may stop it early.
struct Running {
    rec: MatchRecord,
    writer: RecordWriter,
    progress: progress::MatchProgress,
    sprt: Option<Sprt>,
    /// The pairings, and each one's running tally (O(1) a game).
    pairs: Vec<(usize, usize)>,
    tallies: Vec<Wdl>,
    /// The SPRT counts whole deals (game pairs), as the report does.
    deal_tally: pentanomial::DealTally,
    live: Option<LiveChart>,
    crash_watch: recover::CrashWatch,
    names: Vec<String>,
    started: Instant,
    stopped_by_sprt: Option<SprtDecision>,
    crash_stop: Option<String>,
    interrupted: bool,
}

impl Running {
    /// Prints the match's header line and draws the first live picture.
    fn start(args: &MatchArgs, plan: &Plan, rec: MatchRecord, writer: RecordWriter) -> Running {
        let setup = &plan.setup;
        let mut progress = progress::MatchProgress::new(
            if args.unprinted {
                progress::Mode::Silent
            } else {
                progress::Mode::choose(args.no_progress, args.quiet)
            },
            plan.total as u64,
        );
        let opts: String = rec.options.iter().map(|o| format!(" {o}")).collect();
        let shard_text = plan.shard.map_or(String::new(), |s| format!(", shard {s}"));
        progress.header(&format!(
            "Match: {}{opts}, {} games{shard_text}, {} engines, concurrency {}, seed {}",
            rec.game,
            plan.total,
            setup.engines.len(),
            plan.concurrency,
            setup.seed
        ));
        let pairs = pairings(setup.engines.len());
        let live = args
            .live
            .as_ref()
            .map(|path| LiveChart::start(path, &rec, plan.sprt, &mut progress));
        Running {
            tallies: vec![Wdl::default(); pairs.len()],
            pairs,
            deal_tally: pentanomial::DealTally::new(plan.rotation),
            live,
            crash_watch: recover::CrashWatch::new(setup.engines.len(), args.recover),
            names: setup.engines.iter().map(|e| e.name.clone()).collect(),
            started: Instant::now(),
            stopped_by_sprt: None,
            crash_stop: None,
            interrupted: false,
            sprt: plan.sprt,
            progress,
            writer,
            rec,
        }
    }

    /// A finished game: said, recorded, counted; returns whether to start
    /// more games (not after an SPRT decision, a crash that stops the
    /// match, or an interrupt).
    fn game_done(&mut self, game: GameRecord) -> bool {
        if interrupt::stopping() {
            // A signal is ending the runner: this game ended because its
            // engines were killed, and is neither recorded nor said.
            return false;
        }
        self.say_faults(&game);
        if let Some(e) = self.writer.write_game(&self.rec, &game) {
            self.progress.message(&e);
        }
        let line = game_line(&self.rec, &game);
        if let (Some(score), Some(i)) = (
            game.first_score(),
            self.pairs.iter().position(|&p| p == game.pairing),
        ) {
            self.tallies[i].add(score);
            if i == 0 {
                self.deal_tally.add(game.deal, score);
            }
        }
        let crash_note = self.crash_watch.note(&game, &self.names);
        self.rec.games.push(game);
        self.progress.game_done(
            &line,
            &running_status(&self.rec, &self.pairs, &self.tallies),
        );
        if let Some(live) = self.live.as_mut() {
            live.update(&self.rec, self.sprt, &mut self.progress);
        }
        self.goes_on(crash_note)
    }

    /// Says a forfeit or a game not counted as it happens.
    fn say_faults(&mut self, game: &GameRecord) {
        if let Ending::Forfeit {
            engine,
            fault,
            detail,
        } = &game.ending
        {
            let name = self
                .rec
                .engines
                .get(*engine)
                .map_or("?", |e| e.name.as_str());
            self.progress.message(&format!(
                "Game {}: {name} forfeits ({}): {detail}",
                game.number,
                fault.word()
            ));
        }
        if let Ending::Error(m) = &game.ending {
            self.progress
                .message(&format!("Game {}: not counted: {m}", game.number));
        }
    }

    /// Whether to start more games after this one: the first SPRT
    /// decision, the crash that stops the match (`crash_note`) or an
    /// interrupt stops them, said once.
    fn goes_on(&mut self, crash_note: Option<String>) -> bool {
        let sprt = self.sprt;
        match sprt.map(|s| s.decision(s.llr_deals(&self.deal_tally.counts))) {
            Some(d @ (SprtDecision::AcceptH0 | SprtDecision::AcceptH1))
                if self.stopped_by_sprt.is_none() =>
            {
                self.stopped_by_sprt = Some(d);
                self.progress.message(&format!(
                    "SPRT: {d} after {} games; finishing the games under way",
                    self.rec.games.len()
                ));
                false
            }
            _ if self.crash_stop.is_none()
                && let Some(why) = crash_note =>
            {
                self.progress
                    .message(&format!("Stopping: {why}; finishing the games under way"));
                self.crash_stop = Some(why);
                false
            }
            _ if interrupt::interrupted() && !self.interrupted => {
                self.interrupted = true;
                self.progress.message(
                    "Interrupted: finishing the games under way (Ctrl-C again to quit now)",
                );
                false
            }
            _ => self.stopped_by_sprt.is_none() && !self.interrupted && self.crash_stop.is_none(),
        }
    }

    /// The end of the match: the report (why it stopped early, its time,
    /// its files), the last live picture, the exports and the chart; then
    /// the record is closed with the report.
    fn finish(mut self, args: &MatchArgs, plan: &Plan) -> MatchReport {
        let total = plan.total;
        self.progress.finish();
        let mut rec = self.rec;
        rec.games.sort_by_key(|g| g.number);
        if rec.games.len() < total {
            rec.stopped = Some(
                if self.interrupted {
                    "interrupted"
                } else if self.crash_stop.is_some() {
                    "crash"
                } else {
                    "sprt"
                }
                .to_string(),
            );
        }
        let summary = Summary::compute(&rec, self.sprt);
        let mut text = summary.text(&rec);
        if self.interrupted {
            text.push_str(&format!(
                "Interrupted after {} of {total} games\n",
                rec.games.len()
            ));
        }
        if let Some(why) = &self.crash_stop {
            text.push_str(&format!(
                "Stopped after {} of {total} games: {why}\n",
                rec.games.len()
            ));
        }
        text.push_str(&format!(
            "Time: {}\n",
            progress::fmt_duration(self.started.elapsed().as_secs_f64())
        ));
        let record_path = self.writer.path();
        if let Some(path) = &record_path {
            text.push_str(&format!("Record: {}\n", path.display()));
        }
        let mut file_errors = Vec::new();
        if let Some(live) = &self.live {
            live.finish(&rec, &summary);
        }
        let mut report = MatchReport {
            record: rec,
            summary,
            text,
            record_path,
            stopped_by_sprt: self.stopped_by_sprt,
            file_errors: Vec::new(),
            stopped: self.crash_stop,
        };
        if let Some(e) = self.writer.failure() {
            let e = format!("the record is not complete: {e}");
            progress::eprint_line(&format!("tabula match: {e}"));
            report.text.push_str(&format!("Record: {e}\n"));
            file_errors.push(e);
        }
        if let Err(e) = export::write_exports(&args.export, &report.record) {
            // Its message names the export already (`--export: FILE: ...`).
            let e = e.to_string();
            progress::eprint_line(&format!("tabula match: {e}"));
            report.text.push_str(&format!("Export: {e}\n"));
            file_errors.push(e);
        }
        let mut report = publish(report, args.chart.as_ref(), args.unprinted);
        self.writer.finish(&report.record, &report.text);
        file_errors.append(&mut report.file_errors);
        report.file_errors = file_errors;
        report
    }
}

/// What the record's `# settings` line holds: every setting of the runner
/// that changes the games (each engine's limits are on its own line).
fn match_settings(args: &MatchArgs, setup: &MatchSetup) -> Vec<(String, String)> {
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
fn default_record_stem(setup: &MatchSetup, shard: Option<schedule::Shard>) -> String {
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

/// Starts every engine once before the first game and sends it its set-up
/// lines and the game, so that a command that cannot start, or a setting
/// an engine refuses, stops the match at once with a clear message (rather
/// than forfeiting every game). The engines are checked in parallel.
fn check_engines(setup: &MatchSetup, referee: &dyn Referee) -> Result<(), ArenaError> {
    let game = game_command(
        referee.game_name(),
        &referee.option_words(),
        (!referee.perfect_information()).then_some(0),
    );
    let check = |spec: &EngineSpec| -> Result<(), process::ProcessError> {
        let label = format!("{} check", spec.name);
        let mut p = process::EngineProcess::spawn(&spec.launch, &label, setup.log.clone())?;
        p.set_ids(play::sends_ids(spec.proto));
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
    let results: Vec<Result<(), process::ProcessError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = setup
            .engines
            .iter()
            .map(|spec| scope.spawn(move || check(spec)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(process::ProcessError::Crashed(
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

/// Engines, limits and the rest, checked against the game.
fn setup_from(args: &MatchArgs, referee: &dyn Referee) -> Result<MatchSetup, ArenaError> {
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
        clock: args.tc.as_deref().map(TimeControl::parse).transpose()?,
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
    let seed = match args.seed {
        Some(seed) => {
            if seed::guessable(seed) && !referee.perfect_information() {
                progress::eprint_line(&format!("tabula match: {}", seed::guessable_warning(seed)));
            }
            seed
        }
        None => seed::fresh().map_err(|e| {
            ConfigError(format!(
                "no seed from the system's entropy ({e}): give one with --seed"
            ))
        })?,
    };
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
    let adjudication = Adjudication::parse(args.adjudicate.as_deref().unwrap_or(&[]))?;
    adjudication.check(referee)?;
    let log: Option<TrafficLog> = args.debug.then(|| {
        let start = Instant::now();
        Arc::new(move |line: &str| {
            progress::eprint_line(&format!("{:>9.3} {line}", start.elapsed().as_secs_f64()));
        }) as TrafficLog
    });
    Ok(MatchSetup {
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
