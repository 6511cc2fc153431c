//! `tabula match --merge`: records of shards or runs combined into one
//! report (the records' own merging is [`crate::arena::record`]'s).

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use crate::arena::config::cli::MatchArgs;
use crate::arena::engines::stdio;
use crate::arena::error::ArenaError;
use crate::arena::ground::{interrupt, progress};
use crate::arena::output::export;
use crate::arena::output::match_report::{MatchReport, publish};
use crate::arena::output::report::Summary;
use crate::arena::record::codec;
use crate::arena::record::match_file::{
    Ending, EngineInfo, GAMES_KEY, GameRecord, MAGIC_V1, OPENINGS_KEY, OPENINGS_SIZE_KEY,
    OPENINGS_START_KEY, TABLE_KEY,
};
use crate::arena::record::match_file::{MatchRecord, RecordError};
use crate::arena::record::parse::{CutOff, Reading};
use crate::arena::run::schedule;
use crate::arena::stats::sprt::Sprt;
use crate::files::output;

/// `--merge`: combines record files into one report.
pub(crate) fn merge(args: &MatchArgs) -> Result<MatchReport, ArenaError> {
    stdio::ensure_open();
    // A signal removes a merged record or chart being written.
    crate::arena::run::runner::register_cleanups();
    interrupt::watch();
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
    let record_path = args.record.clone().filter(|_| !args.no_record);
    // Every output in one check, before anything is written: none over a
    // record being merged, none over another.
    let exports = export::outputs(&args.export)?;
    let roles: Vec<(&str, &std::path::Path)> =
        [("--record", &record_path), ("--chart", &args.chart)]
            .into_iter()
            .filter_map(|(role, p)| Some((role, p.as_ref()?.as_path())))
            .chain(exports.iter().map(|(role, p)| (role.as_str(), p.as_path())))
            .collect();
    for (_, path) in &roles {
        output::check(path).map_err(ArenaError::Output)?;
    }
    // One writer per file: a run or a merge writing one of these refuses
    // this merge; held until the report is out.
    let _locks = output::lock_all(&roles, &mut crate::arena::ground::progress::tell_lock)
        .map_err(ArenaError::Output)?;
    let roles: Vec<(&str, &std::path::Path)> = roles
        .into_iter()
        .chain(args.merge.iter().map(|p| ("a merged record", p.as_path())))
        .collect();
    output::check_distinct(&roles).map_err(ArenaError::Output)?;
    // With --partial a record cut off at its end (a full disk, a killed
    // runner) gives its whole games; what was left out is said.
    let reading = if args.partial {
        Reading::WholeGames
    } else {
        Reading::Whole
    };
    let mut named: Vec<(String, MatchRecord)> = Vec::new();
    let mut cut_offs: Vec<(&PathBuf, CutOff)> = Vec::new();
    for path in &args.merge {
        // The one reader of named files: a FIFO or a device is refused
        // before it is opened, a file over the size cap unread.
        let (record, cut) = MatchRecord::read_as(path, reading, &|| interrupt::stopping())?;
        if !cut.is_empty() {
            progress::eprint_line(&format!("tabula match: {}: cut off: {cut}", path.display()));
            cut_offs.push((path, cut));
        }
        named.push((path.display().to_string(), record));
    }
    let merged = MatchRecord::merge_owned(named, args.partial)?;
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
    for (path, cut) in &cut_offs {
        text.push_str(&format!("Cut off: {}: {cut}\n", path.display()));
    }
    for (seed, missing) in &merged.missing {
        text.push_str(&format!("Missing (seed {seed}): {missing}\n"));
    }
    if merged.unchecked {
        text.push_str(
            "Not checked for missing games: a record that does not state its match's extent \
             (version 1, or an opening-suite run from before openings-size)\n",
        );
    }
    // The merged records, and the new one once written, are replaced by
    // nothing written after it.
    let _protected: Vec<output::Protected> =
        args.merge.iter().map(|p| output::protect(p)).collect();
    let mut _record_protected = None;
    if let Some(path) = &record_path {
        rec.write(path)?;
        _record_protected = Some(output::protect(path));
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
        // Its message names the export already (`--export: FILE: ...`).
        let e = e.to_string();
        progress::eprint_line(&format!("tabula match: {e}"));
        report.text.push_str(&format!("Export: {e}\n"));
        report.file_errors.push(e);
    }
    Ok(publish(report, args.chart.as_ref(), args.unprinted))
}

/// Why a record's place in its match cannot be checked: its settings do
/// not state a schedule, or a game is not on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// A setting that is not a number where one is needed.
    BadSetting {
        /// The setting's key.
        key: &'static str,
        /// Its value.
        value: String,
    },
    /// The `table=` setting is not a seat pattern of the game.
    Table(String),
    /// The match of an opening-suite run is too long to count.
    TooLong,
    /// A game whose number is past the match.
    NotInMatch {
        /// The game's number.
        number: usize,
        /// The games of the match.
        total: u64,
    },
    /// A game that is not the game of its number in the schedule.
    OffSchedule {
        /// The game's number.
        number: usize,
        /// The deal the schedule gives it.
        deal: u64,
        /// Its seats in the schedule.
        seats: usize,
        /// The deal the record gives it.
        recorded_deal: u64,
        /// The engines at its seats in the record.
        recorded_seats: Vec<usize>,
    },
    /// A merged record's own check failed.
    InRecord {
        /// The record's name.
        name: String,
        /// What failed.
        error: Box<MergeError>,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::BadSetting { key, value } => write!(f, "bad setting {key}={value}"),
            MergeError::Table(why) => f.write_str(why),
            MergeError::TooLong => f.write_str("the suite's match is too long"),
            MergeError::NotInMatch { number, total } => write!(
                f,
                "game {number} is not a game of this match (it has {total})"
            ),
            MergeError::OffSchedule {
                number,
                deal,
                seats,
                recorded_deal,
                recorded_seats,
            } => write!(
                f,
                "game {number} does not match the schedule of its match (deal {deal}, {seats} \
                 seats): it is deal {recorded_deal} with seats {recorded_seats:?} in the record"
            ),
            MergeError::InRecord { name, error } => write!(f, "{name}: {error}"),
        }
    }
}

impl std::error::Error for MergeError {}

/// The merge checks: records of one match, whole and on its schedule.
impl MatchRecord {
    /// Merges several records of the same match (same game, options,
    /// settings and engines), and refuses a merge that would not be whole:
    /// see [`MatchRecord::merge_files`].
    pub fn merge(records: &[MatchRecord]) -> Result<MatchRecord, RecordError> {
        let named: Vec<(String, MatchRecord)> = records
            .iter()
            .enumerate()
            .map(|(i, r)| (format!("record {}", i + 1), r.clone()))
            .collect();
        merge_named(named, false).map(|m| m.record)
    }

    /// Merges records read from files (named in errors). Records of one
    /// seed (the shards of a match, or copies of parts of it) keep their
    /// game numbers and must not share a game: the result is that match,
    /// and every game is checked against its schedule. Records of
    /// different seeds are runs of their own, each whole, and their games
    /// are numbered on. Every record must hold the same settings (a run of
    /// another seed may differ in its number of games) and the same
    /// engines, everything of them compared, not only their names.
    ///
    /// Deals that are missing (a shard not given, a shard interrupted or
    /// killed, shards of different counts) refuse the merge, naming them,
    /// unless `partial`; then [`Merged::missing`] names them.
    pub fn merge_files<P: AsRef<Path>>(
        records: &[(P, MatchRecord)],
        partial: bool,
    ) -> Result<Merged, RecordError> {
        let named: Vec<(String, MatchRecord)> = records
            .iter()
            .map(|(p, r)| (p.as_ref().display().to_string(), r.clone()))
            .collect();
        merge_named(named, partial)
    }

    /// [`MatchRecord::merge_files`] of records it takes: their games are
    /// moved into the merged record, not copied.
    pub fn merge_owned(
        records: Vec<(String, MatchRecord)>,
        partial: bool,
    ) -> Result<Merged, RecordError> {
        merge_named(records, partial)
    }

    /// Whether this is a run of an opening suite.
    fn has_suite(&self) -> bool {
        self.setting(OPENINGS_KEY).is_some_and(|o| o != "none")
    }

    /// The seat rotations of a deal, as the settings seat the engines.
    fn patterns(&self) -> Result<Vec<Vec<usize>>, MergeError> {
        let seats = self.seat_names.len();
        Ok(match self.setting(TABLE_KEY) {
            None | Some("alternate") => schedule::seat_patterns(seats),
            Some(t) => schedule::table_patterns(
                &schedule::parse_table(t, seats).map_err(MergeError::Table)?,
            ),
        })
    }

    /// The games each pairing plays in this run, as its settings say.
    fn games_setting(&self) -> Option<Result<usize, MergeError>> {
        let games = self.setting(GAMES_KEY)?;
        Some(games.parse().map_err(|_| MergeError::BadSetting {
            key: GAMES_KEY,
            value: games.to_string(),
        }))
    }

    /// An opening-suite run's place in its match: the suite's size and
    /// the deals it plays, `first..end`; `None` when the record does not
    /// say (no suite, or a record written before these settings).
    pub fn suite_slice(&self) -> Option<Result<SuiteSlice, MergeError>> {
        if !self.has_suite() {
            return None;
        }
        let (size, start) = (
            self.setting(OPENINGS_SIZE_KEY)?,
            self.setting(OPENINGS_START_KEY)?,
        );
        let games = self.games_setting()?;
        Some((|| {
            let number = |key: &'static str, v: &str| -> Result<u64, MergeError> {
                v.parse()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| MergeError::BadSetting {
                        key,
                        value: v.to_string(),
                    })
            };
            let size = number(OPENINGS_SIZE_KEY, size)?;
            let first = number(OPENINGS_START_KEY, start)? - 1;
            let rotation = self.patterns()?.len().max(1) as u64;
            let deals = (games? as u64).div_ceil(rotation);
            Ok(SuiteSlice {
                size,
                first,
                end: first.saturating_add(deals),
            })
        })())
    }

    /// The games of the whole match this record belongs to (of its first
    /// seed), as its settings schedule them; `None` when the record does
    /// not say (a version 1 record, one of several seeds, or an opening
    /// suite run written before its slice was recorded).
    fn schedule(&self) -> Option<Result<Schedule, MergeError>> {
        if self.seeds.len() != 1 {
            return None;
        }
        // A run of an opening suite is a slice of the match that plays the
        // whole suite (and further, where a run wraps round).
        let slice = if self.has_suite() {
            Some(self.suite_slice()?)
        } else {
            None
        };
        let games = self.games_setting()?;
        Some((|| {
            let patterns = self.patterns()?;
            let games = match slice.transpose()? {
                Some(slice) => usize::try_from(slice.size.max(slice.end))
                    .ok()
                    .and_then(|deals| deals.checked_mul(patterns.len()))
                    .ok_or(MergeError::TooLong)?,
                None => games?,
            };
            Ok(Schedule {
                pairs: crate::arena::ground::pairings::pairings(self.engines.len()),
                patterns,
                games: games as u64,
            })
        })())
    }

    /// The deals and games of the whole match missing from this record (a
    /// record of one seed with its settings), after checking that every
    /// game it holds is the game of that number in the match's schedule
    /// (its deal, pairing and seats). `Ok(None)` when the record cannot
    /// say (no settings).
    ///
    /// The time taken grows with the games in the record, not with the
    /// match's length: each game is looked up in the schedule by its
    /// number, and what is missing is the gaps between them, as ranges (a
    /// record of a handful of games of a `games=100000000` match is
    /// checked at once).
    pub fn missing(&self) -> Result<Option<Missing>, MergeError> {
        let Some(schedule) = self.schedule() else {
            return Ok(None);
        };
        let schedule = schedule?;
        let total = schedule.total();
        let mut games: Vec<&GameRecord> = self.games.iter().collect();
        games.sort_by_key(|g| g.number);
        let mut missing = Missing::default();
        let mut next = 1u64;
        for g in games {
            let number = g.number as u64;
            let Some((deal, pairing, pattern)) = schedule.at(number) else {
                return Err(MergeError::NotInMatch {
                    number: g.number,
                    total,
                });
            };
            let (a, b) = pairing;
            let seats = pattern.iter().map(|&k| if k == 0 { a } else { b });
            if (g.deal, g.pairing) != (deal, pairing) || !g.seats.iter().copied().eq(seats) {
                return Err(MergeError::OffSchedule {
                    number: g.number,
                    deal,
                    seats: pattern.len(),
                    recorded_deal: g.deal,
                    recorded_seats: g.seats.clone(),
                });
            }
            if number > next {
                missing.add(&schedule, next, number - 1);
            }
            next = next.max(number.saturating_add(1));
        }
        if total >= next {
            missing.add(&schedule, next, total);
        }
        Ok(Some(missing))
    }
}

/// The schedule of a whole match as its record states it, read by game
/// number (the order of [`schedule::Jobs`]: deal by deal, within a
/// deal pairing by pairing, within a pairing one game per seat pattern;
/// every deal is whole but the last).
struct Schedule {
    pairs: Vec<(usize, usize)>,
    patterns: Vec<Vec<usize>>,
    /// Games per pairing.
    games: u64,
}

impl Schedule {
    /// The games of the match (`u64::MAX` past it).
    fn total(&self) -> u64 {
        if self.patterns.is_empty() {
            return 0;
        }
        self.games.saturating_mul(self.pairs.len() as u64)
    }

    /// The games of one whole deal.
    fn per_deal(&self) -> u64 {
        (self.patterns.len() as u64).saturating_mul(self.pairs.len() as u64)
    }

    /// The deal of game `number` (from 1; within the match).
    fn deal_of(&self, number: u64) -> u64 {
        (number - 1) / self.per_deal().max(1)
    }

    /// Game `number` (from 1): its deal, pairing and seat pattern (0 for
    /// the pairing's first engine, 1 for its second), or `None` past the
    /// match.
    fn at(&self, number: u64) -> Option<(u64, (usize, usize), &[usize])> {
        if number == 0 || number > self.total() {
            return None;
        }
        let deal = self.deal_of(number);
        let within = (number - 1) % self.per_deal().max(1);
        let rotation = self.patterns.len() as u64;
        // The last deal may hold fewer games per pairing than a rotation.
        let in_deal = self
            .games
            .saturating_sub(deal.saturating_mul(rotation))
            .min(rotation);
        if in_deal == 0 {
            return None;
        }
        let pair = usize::try_from(within / in_deal).ok()?;
        let pattern = usize::try_from(within % in_deal).ok()?;
        let &pairing = self.pairs.get(pair)?;
        Some((deal, pairing, self.patterns.get(pattern)?))
    }
}

/// Where an opening-suite run lies in its match (see
/// [`MatchRecord::suite_slice`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SuiteSlice {
    /// The openings in the suite.
    pub size: u64,
    /// The first deal the run plays (its `start=` less one).
    pub first: u64,
    /// The deal after its last.
    pub end: u64,
}

/// What a merge is missing of its match, as ranges (a match of a hundred
/// million games missing most of them says so in a few words).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Missing {
    /// The deals (from 0) with a game missing, as inclusive ranges in
    /// order.
    pub deals: Vec<(u64, u64)>,
    /// The game numbers missing, as inclusive ranges in order.
    pub games: Vec<(u64, u64)>,
}

impl Missing {
    /// Whether nothing is missing.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// How many games are missing.
    pub fn game_count(&self) -> u64 {
        count(&self.games)
    }

    /// How many deals have a game missing.
    pub fn deal_count(&self) -> u64 {
        count(&self.deals)
    }

    /// Adds the games `first..=last` (after every range added so far).
    fn add(&mut self, schedule: &Schedule, first: u64, last: u64) {
        push_range(&mut self.games, first, last);
        push_range(
            &mut self.deals,
            schedule.deal_of(first),
            schedule.deal_of(last),
        );
    }
}

/// Adds `first..=last` to ranges in order, joining it to the last range
/// where they meet.
fn push_range(ranges: &mut Vec<(u64, u64)>, first: u64, last: u64) {
    match ranges.last_mut() {
        Some((_, end)) if first <= end.saturating_add(1) => *end = (*end).max(last),
        _ => ranges.push((first, last)),
    }
}

/// The numbers in ranges.
fn count(ranges: &[(u64, u64)]) -> u64 {
    ranges
        .iter()
        .map(|(a, b)| b - a + 1)
        .fold(0, u64::saturating_add)
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "deal{} {} (game{} {})",
            if self.deal_count() == 1 { "" } else { "s" },
            ranges(&self.deals),
            if self.game_count() == 1 { "" } else { "s" },
            ranges(&self.games)
        )
    }
}

/// Ranges as text: `1-3, 7, 9-10` (at most 20 ranges, then a count).
fn ranges(ranges: &[(u64, u64)]) -> String {
    let mut parts: Vec<String> = ranges
        .iter()
        .take(20)
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    if ranges.len() > 20 {
        parts.push(format!("and {} more ranges", ranges.len() - 20));
    }
    parts.join(", ")
}

/// A merge: the record, and what it is missing of its match (when
/// merged with `partial`).
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The merged record.
    pub record: MatchRecord,
    /// Per seed, the deals and games missing, if any.
    pub missing: Vec<(u64, Missing)>,
    /// Whether a record could not say what it misses (version 1).
    pub unchecked: bool,
}

/// The first setting that differs between two lists of `key=value`
/// pairs, ignoring the keys in `except`: `(key, here, there)`.
fn first_difference<'a>(
    a: &'a [(String, String)],
    b: &'a [(String, String)],
    except: &[&str],
) -> Option<(&'a str, Option<&'a str>, Option<&'a str>)> {
    let map = |pairs: &'a [(String, String)]| -> BTreeMap<&'a str, &'a str> {
        pairs
            .iter()
            .filter(|(k, _)| !except.contains(&k.as_str()))
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect()
    };
    let (ma, mb) = (map(a), map(b));
    ma.keys()
        .chain(mb.keys())
        .find(|k| ma.get(*k) != mb.get(*k))
        .map(|k| (*k, ma.get(k).copied(), mb.get(k).copied()))
}

fn show_setting(key: &str, value: Option<&str>) -> String {
    match value {
        Some(v) => format!("{key}={}", codec::write_value(v)),
        None => format!("no {key}"),
    }
}

/// The first difference between two engines of the same name, said.
fn engine_difference(a: &EngineInfo, b: &EngineInfo) -> Option<String> {
    if a.proto != b.proto {
        return Some(format!("proto {} against {}", a.proto, b.proto));
    }
    if a.command != b.command || a.init != b.init {
        return Some(format!(
            "'{}' with {:?} against '{}' with {:?}",
            a.command, a.init, b.command, b.init
        ));
    }
    first_difference(&a.settings, &b.settings, &[])
        .map(|(k, x, y)| format!("{} against {}", show_setting(k, x), show_setting(k, y)))
}

fn merge_named(
    mut records: Vec<(String, MatchRecord)>,
    partial: bool,
) -> Result<Merged, RecordError> {
    let incompatible = |m: String| Err(RecordError::Incompatible(m));
    // Each record's games are moved into the merged one as it is read:
    // what is said of a record after that takes its game count from here.
    let counts: Vec<usize> = records.iter().map(|(_, r)| r.games.len()).collect();
    let Some((first_name, first)) = records.first() else {
        return incompatible("no records given".to_string());
    };
    let first_name = first_name.clone();
    // Its games are not copied: they are moved into the merge below.
    let first = MatchRecord {
        game: first.game.clone(),
        options: first.options.clone(),
        seeds: first.seeds.clone(),
        seat_names: first.seat_names.clone(),
        engines: first.engines.clone(),
        shard: first.shard.clone(),
        settings: first.settings.clone(),
        stopped: first.stopped.clone(),
        games: Vec::new(),
    };
    let first = &first;
    let first_name = &first_name;
    let mut out = MatchRecord {
        game: first.game.clone(),
        options: first.options.clone(),
        seat_names: first.seat_names.clone(),
        settings: first.settings.clone(),
        ..MatchRecord::default()
    };
    // One seed throughout: the shards (or copies) of one match.
    let one_seed = records
        .iter()
        .all(|(_, r)| r.seeds.len() == 1 && r.seeds == first.seeds);
    // A run of another seed may be longer or shorter, and so may an
    // opening-suite run (its slice is stated); runs start anywhere in
    // their suite.
    let except: &[&str] = if one_seed && !first.has_suite() {
        &[OPENINGS_START_KEY]
    } else {
        &[GAMES_KEY, OPENINGS_START_KEY]
    };
    // Which record brought each seed, and each game of a one-seed merge.
    let mut seed_from: Vec<(u64, usize)> = Vec::new();
    let mut number_from: HashMap<usize, usize> = HashMap::new();
    let mut merged = Merged {
        record: MatchRecord::default(),
        missing: Vec::new(),
        unchecked: false,
    };
    for at in 0..records.len() {
        let (name, rec) = (&records[at].0, &records[at].1);
        same_match(first_name, first, name, rec, &out, except, one_seed)?;
        if !one_seed {
            for &seed in &rec.seeds {
                if let Some((_, other)) = seed_from.iter().find(|(s, _)| *s == seed) {
                    let other = &records[*other].0;
                    return incompatible(format!(
                        "{other} and {name} both hold games of seed {seed}, mixed with other \
                         seeds: merge the records of one seed first"
                    ));
                }
                seed_from.push((seed, at));
            }
            out.seeds.extend(&rec.seeds);
            // Each run must be whole by itself.
            match rec.missing() {
                Err(m) => return incompatible(format!("{name}: {m}")),
                Ok(None) => merged.unchecked = true,
                Ok(Some(m)) if m.is_empty() || rec.stopped.as_deref() == Some("sprt") => {}
                Ok(Some(m)) => {
                    if !partial {
                        return incompatible(format!(
                            "{name} (seed {}) is missing {m}{}: merge only whole runs, or give \
                             --partial",
                            rec.seeds[0],
                            stopped_note(rec, counts[at])
                        ));
                    }
                    merged.missing.push((rec.seeds[0], m));
                }
            }
        }
        take_games(
            &mut out,
            &mut records,
            at,
            first.seeds.first().copied().filter(|_| one_seed),
            &mut number_from,
        )?;
    }
    if one_seed {
        merge_one_seed(&mut out, first, &records, &counts, partial, &mut merged)?;
    } else {
        // Runs of different lengths: the merged record keeps no count.
        out.settings.retain(|(k, _)| k != GAMES_KEY);
    }
    merged.record = out;
    Ok(merged)
}

/// Moves the games of record `at` into the merge `out`, their engines
/// renumbered as `out` numbers them (an engine new to it added): in a
/// merge of one seed's shards (`one_seed`) each keeps its number, which
/// no other record may hold; otherwise they are numbered on from `out`'s.
fn take_games(
    out: &mut MatchRecord,
    records: &mut [(String, MatchRecord)],
    at: usize,
    one_seed: Option<u64>,
    number_from: &mut HashMap<usize, usize>,
) -> Result<(), RecordError> {
    let incompatible = |m: String| Err(RecordError::Incompatible(m));
    let map: Vec<usize> = records[at]
        .1
        .engines
        .iter()
        .map(
            |e| match out.engines.iter().position(|o| o.name == e.name) {
                Some(i) => i,
                None => {
                    out.engines.push(e.clone());
                    out.engines.len() - 1
                }
            },
        )
        .collect();
    let mut games = std::mem::take(&mut records[at].1.games);
    let name = &records[at].0;
    let before = out.games.len();
    for (i, g) in games.iter_mut().enumerate() {
        let remap = |e: usize| map.get(e).copied().unwrap_or(e);
        if let Some(seed) = one_seed {
            if let Some(other) = number_from.insert(g.number, at) {
                let other = &records[other].0;
                return incompatible(format!(
                    "game {} of seed {} is in both {other} and {name}: the same games would \
                     count twice",
                    g.number, seed
                ));
            }
        } else {
            g.number = before + i + 1;
        }
        g.pairing = (remap(g.pairing.0), remap(g.pairing.1));
        for e in &mut g.seats {
            *e = remap(*e);
        }
        match &mut g.ending {
            Ending::Resign(e) | Ending::Forfeit { engine: e, .. } => *e = remap(*e),
            _ => {}
        }
    }
    // The first record's games become the merged record's as they
    // are, the list not copied (a one-record merge holds its games
    // once).
    if out.games.is_empty() {
        out.games = games;
    } else {
        out.games.append(&mut games);
    }
    Ok(())
}

/// Checks that record `rec` (`name`) is of the same match as the first
/// (`first_name`) and as the merge `out` so far: the game, the settings
/// (but the keys `except`), the engines.
fn same_match(
    first_name: &str,
    first: &MatchRecord,
    name: &str,
    rec: &MatchRecord,
    out: &MatchRecord,
    except: &[&str],
    one_seed: bool,
) -> Result<(), RecordError> {
    let incompatible = |m: String| Err(RecordError::Incompatible(m));
    if rec.game != out.game || rec.options != out.options || rec.seat_names != out.seat_names {
        return incompatible(format!(
            "'{} {}' ({first_name}) and '{} {}' ({name}) are different games",
            out.game,
            out.options.join(" "),
            rec.game,
            rec.options.join(" ")
        ));
    }
    // A version-1 record states no settings: it differs from a newer
    // one in having none, not in what they say.
    if first.settings.is_empty() != rec.settings.is_empty() {
        let (old, new, newer) = if first.settings.is_empty() {
            (first_name, name, rec)
        } else {
            (name, first_name, first)
        };
        return incompatible(format!(
            "{old} is a version-1 record ('{MAGIC_V1}', which states no settings) and {new} \
             a version-2 record (which states them: {}): a record that states no settings \
             cannot be checked to be of the same match; merge records of one version (play \
             the version-1 match again with this tabula to merge it with newer records)",
            codec::write_pairs(&newer.settings).trim()
        ));
    }
    if let Some((key, a, b)) = first_difference(&first.settings, &rec.settings, except) {
        return incompatible(format!(
            "{first_name} has {} where {name} has {}: records of different matches",
            show_setting(key, a),
            show_setting(key, b)
        ));
    }
    if one_seed {
        // The same engines, in the same order: the games' engine
        // numbers mean the same in every shard.
        let names = |r: &MatchRecord| r.engines.iter().map(|e| e.name.clone()).collect::<Vec<_>>();
        if names(rec) != names(first) {
            return incompatible(format!(
                "{first_name} has the engines {:?} and {name} {:?}: shards of one match must \
                 run the same engines",
                names(first),
                names(rec)
            ));
        }
    }
    for e in &rec.engines {
        if let Some(o) = out.engines.iter().find(|o| o.name == e.name)
            && let Some(diff) = engine_difference(o, e)
        {
            return incompatible(format!(
                "engine {} is {diff} ({first_name} against {name}): records of one match \
                 must run the same engines",
                e.name
            ));
        }
    }
    Ok(())
}

/// Completes the merge of one seed's shards: their games in the order of
/// their numbers, the suite's slice, and the check that no deal is missing
/// (said with the shards given, unless `partial`).
fn merge_one_seed(
    out: &mut MatchRecord,
    first: &MatchRecord,
    records: &[(String, MatchRecord)],
    counts: &[usize],
    partial: bool,
    merged: &mut Merged,
) -> Result<(), RecordError> {
    let incompatible = |m: String| Err(RecordError::Incompatible(m));
    out.seeds = first.seeds.clone();
    // The numbers differ (checked above): an unstable sort gives the
    // one order, without a stable sort's buffer of half the games.
    out.games.sort_unstable_by_key(|g| g.number);
    if first.has_suite() {
        merge_slices(out, records).map_err(|e| RecordError::Incompatible(e.to_string()))?;
    }
    let sprt = records
        .iter()
        .any(|(_, r)| r.stopped.as_deref() == Some("sprt"));
    match out.missing() {
        Err(m) => return incompatible(m.to_string()),
        Ok(None) => merged.unchecked = true,
        Ok(Some(m)) if m.is_empty() || sprt => {}
        Ok(Some(m)) => {
            if !partial {
                let shards: Vec<String> = records
                    .iter()
                    .zip(counts)
                    .map(|((name, r), &games)| match &r.shard {
                        Some(s) => format!("{name} (shard {s}{})", stopped_note(r, games)),
                        None => format!("{name}{}", stopped_note(r, games)),
                    })
                    .collect();
                return incompatible(format!(
                    "seed {} is missing {m}; given: {} (give the missing shards, or \
                     --partial to merge what there is)",
                    out.seeds[0],
                    shards.join(", ")
                ));
            }
            merged.missing.push((out.seeds[0], m));
        }
    }
    Ok(())
}

/// The merged record of opening-suite runs of one seed states the slice
/// they cover together, from the first run's start to the last run's
/// end, so that it merges again and names what is missing of the suite.
fn merge_slices(
    out: &mut MatchRecord,
    records: &[(String, MatchRecord)],
) -> Result<(), MergeError> {
    let mut slices = Vec::new();
    for (name, rec) in records {
        match rec.suite_slice() {
            Some(Ok(s)) => slices.push(s),
            Some(Err(m)) => {
                return Err(MergeError::InRecord {
                    name: name.clone(),
                    error: Box::new(m),
                });
            }
            // A run written before slices were recorded: unchecked.
            None => return Ok(()),
        }
    }
    let (Some(first), Some(end)) = (
        slices.iter().map(|s| s.first).min(),
        slices.iter().map(|s| s.end).max(),
    ) else {
        return Ok(());
    };
    let rotation = out.patterns()?.len().max(1) as u64;
    let set = |out: &mut MatchRecord, key: &str, value: String| {
        if let Some(slot) = out.settings.iter_mut().find(|(k, _)| k == key) {
            slot.1 = value;
        }
    };
    set(out, OPENINGS_START_KEY, (first + 1).to_string());
    set(out, GAMES_KEY, ((end - first) * rotation).to_string());
    Ok(())
}

/// `, stopped (interrupted) after 3 games` for a record of `games` games
/// that says so.
fn stopped_note(rec: &MatchRecord, games: usize) -> String {
    rec.stopped.as_ref().map_or(String::new(), |r| {
        format!(", stopped ({r}) after {games} games")
    })
}
