//! `tabula label-othello`: labelled Othello positions at scale, resumable
//! and spread over threads, for the pattern fit (`train-othello --labels`).
//!
//! **Positions**: every position with a move in the games of a folder of
//! WTHOR files ([`super::wthor`], the expert games of the FFO's database)
//! and in `--self-play N` seeded self-play games (those of
//! `train-othello`). Repeated positions are kept once, and the list is
//! shuffled by the seed, so that a run stopped at any point has labelled
//! an even sample of the whole.
//!
//! **Labels**: a position with at most `--exact` empties is solved
//! exactly (the final margin for the side to move, empties to the
//! winner); any other is searched to `--depth` by the engine's alpha-beta
//! with ProbCut on the built-in evaluation (the deep selective search),
//! and labelled with its score in discs.
//!
//! **Output** (in `--out`): `labels.bin`, fixed 24-byte records in the
//! list's order (the position's number in the list as `u32`, the side to
//! move's and the other side's discs as `u64`, the label as `i8`, its kind
//! (0 exact, `d` a depth-`d` search, 255 none: a search that proved a
//! result), the source (0 WTHOR, 1 self-play) and a zero byte, all
//! little-endian); and `progress.txt`, the run's settings and the count
//! done, replaced after every chunk. The workers label chunks of
//! `--chunk` positions; each chunk is appended whole, in order, and
//! flushed to disk before the progress file says so. A rerun of the same
//! command continues after the last complete record, whatever the thread
//! count; a rerun with other sources or settings into the same folder is
//! refused.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

use super::labels::{EXACT, Labelled, NO_LABEL, RECORD_BYTES, read_labels};
use super::self_play;
use super::training_data::{FolderLocked, lock_folder, open_to_resume};
use super::workers::{Workers, othello_settings};
use super::wthor::{self, WthorError};
use crate::control::Control;
use crate::engine::searchers::alpha_beta;
use crate::files::output::{OutFile, OutputError};
use crate::games::othello::endgame::solve_exact;
use crate::games::othello::eval::OthelloEval;
use crate::games::othello::{BLACK, Othello};
use crate::tools::args::{ArgError, within};

/// The most positions a list may hold (a record numbers them in 32 bits).
pub const MAX_JOBS: usize = u32::MAX as usize;

/// `tabula label-othello`: label positions of expert and self-play games.
#[derive(clap::Args, Debug, Clone)]
pub struct LabelArgs {
    /// A folder of WTHOR `.wtb` files (the positions of their games).
    #[arg(long)]
    pub wthor: Option<PathBuf>,
    /// Seeded self-play games whose positions are added.
    #[arg(long, default_value_t = 0)]
    pub self_play: u64,
    /// The output folder (labels.bin, progress.txt; keep it out of git).
    #[arg(long)]
    pub out: PathBuf,
    /// Worker threads and the seed (of the shuffle and the self-play).
    #[command(flatten)]
    pub workers: Workers,
    /// Positions with at most this many empties are solved exactly.
    #[arg(long, default_value_t = 20)]
    pub exact: u32,
    /// Depth of the selective search that labels the others.
    #[arg(long, default_value_t = 10)]
    pub depth: u32,
    /// Positions a worker labels before its chunk is written.
    #[arg(long, default_value_t = 64)]
    pub chunk: usize,
    /// Transposition table per thread, MiB (search and solver).
    #[arg(long, default_value_t = 16)]
    pub hash: u64,
    /// Stop once this many positions are labelled in all (this run and
    /// earlier ones); the default is the whole list.
    #[arg(long)]
    pub limit: Option<u64>,
}

impl LabelArgs {
    /// Checks every number before anything is read: at least one source,
    /// self-play games at most 10,000,000, threads 1 to the cores (256
    /// with `--force-threads`), exact 0 to 30 empties, depth 1 to 30,
    /// chunk 1 to 100,000, hash 1 to 4096 MiB a thread.
    pub fn check(&self) -> Result<(), ArgError> {
        if self.wthor.is_none() && self.self_play == 0 {
            return Err(ArgError::Conflict(
                "no positions: give --wthor DIR and/or --self-play N".into(),
            ));
        }
        within("--self-play", self.self_play, 0..=10_000_000)?;
        self.workers.checked_threads()?;
        within("--exact", self.exact, 0..=30)?;
        within("--depth", self.depth, 1..=30)?;
        within("--chunk", self.chunk, 1..=100_000)?;
        within("--hash", self.hash, 1..=4096)?;
        Ok(())
    }
}

/// Why a labelling run stopped.
#[derive(Debug, thiserror::Error)]
pub enum LabelError {
    /// An argument out of range, or no source.
    #[error(transparent)]
    Args(#[from] ArgError),
    /// A WTHOR file that could not be read or replayed.
    #[error(transparent)]
    Wthor(#[from] WthorError),
    /// The output folder's files.
    #[error(transparent)]
    Out(#[from] OutputError),
    /// Reading or writing `labels.bin`.
    #[error("cannot {doing}: {source}")]
    Io {
        /// What was being done, on which file.
        doing: String,
        /// The system's error.
        source: std::io::Error,
    },
    /// The folder holds a run with other sources or settings.
    #[error(
        "'{}' belongs to a run with {what}: continue it with the same command, or use \
         another --out",
        path.display()
    )]
    Mismatch {
        /// The progress file.
        path: PathBuf,
        /// What differs.
        what: String,
    },
    /// `labels.bin` refused by the one reader (a FIFO, a device, too
    /// large) or unreadable.
    #[error(transparent)]
    Read(crate::files::input::PeerFileError),
    /// Another run writes into the output folder.
    #[error(transparent)]
    Locked(#[from] FolderLocked),
    /// No position to label.
    #[error("no positions to label")]
    Empty,
}
/// A position to label and where it came from (0 WTHOR, 1 self-play).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Job {
    /// Discs of the side to move.
    pub p: u64,
    /// Discs of the other side.
    pub o: u64,
    /// 0 WTHOR, 1 self-play.
    pub source: u8,
}

/// The positions of the sources, repeated ones once, shuffled by `seed`.
pub fn jobs(wthor_dir: Option<&Path>, self_play: u64, seed: u64) -> Result<Vec<Job>, LabelError> {
    let mut all = Vec::new();
    if let Some(dir) = wthor_dir {
        for f in wthor::files_in(dir)? {
            let (_, games) = wthor::read_file(&f)?;
            for (i, g) in games.iter().enumerate() {
                for pos in wthor::replay(i, g)?.positions {
                    all.push(Job {
                        p: pos.p,
                        o: pos.o,
                        source: 0,
                    });
                }
            }
        }
    }
    for i in 0..self_play {
        for r in self_play::self_play(seed, i, 0) {
            all.push(Job {
                p: r.p,
                o: r.o,
                source: 1,
            });
        }
    }
    all.sort_unstable();
    all.dedup_by_key(|j| (j.p, j.o));
    all.truncate(MAX_JOBS);
    all.shuffle(&mut SmallRng::seed_from_u64(seed ^ 0x6c61_6265_6c73));
    Ok(all)
}

/// A fingerprint of a list (FNV-1a of its positions).
fn fingerprint(jobs: &[Job]) -> u64 {
    jobs.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, j| {
        let h = (h ^ j.p).wrapping_mul(0x0000_0100_0000_01b3);
        (h ^ j.o).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Labels one position.
fn label_one(
    job: &Job,
    args: &LabelArgs,
    search: &mut crate::search::alphabeta::AlphaBeta<Othello>,
) -> (i8, u8) {
    let empties = 64 - (job.p | job.o).count_ones();
    if empties <= args.exact {
        let control = Control::unlimited();
        if let Some((_, score, _)) = solve_exact(job.p, job.o, &control, (args.hash as usize) << 20)
        {
            return (score.clamp(-64, 64) as i8, EXACT);
        }
        return (0, NO_LABEL);
    }
    let Ok(s) = Othello::from_bitboards(job.p, job.o, BLACK) else {
        return (0, NO_LABEL);
    };
    crate::search::Search::reset(search);
    match search.depth_values(&s, args.depth) {
        Some(v) => {
            let last = v.last().copied().unwrap_or(0.0);
            (
                (last * 64.0).round().clamp(-64.0, 64.0) as i8,
                args.depth as u8,
            )
        }
        None => (0, NO_LABEL),
    }
}

/// The progress file's text.
fn progress_text(
    args: &LabelArgs,
    total: usize,
    print: u64,
    done: u64,
    counts: &[u64; 3],
) -> String {
    format!(
        "# tabula label-othello progress (replaced after every chunk)\n\
         jobs {total}\nfingerprint {print:016x}\nexact {}\ndepth {}\nseed {}\n\
         done {done}\nexact_labels {}\nsearch_labels {}\nno_label {}\n",
        args.exact, args.depth, args.workers.seed, counts[0], counts[1], counts[2]
    )
}

/// The settings of a progress file that a rerun must share.
fn settings_of(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|l| l.split_once(' '))
        .filter(|(k, _)| matches!(*k, "jobs" | "fingerprint" | "exact" | "depth" | "seed"))
        .map(|(k, v)| (k.to_string(), v.trim().to_string()))
        .collect()
}

/// Runs the labelling; returns the report.
pub fn run(args: &LabelArgs) -> Result<String, LabelError> {
    args.check()?;
    std::fs::create_dir_all(&args.out).map_err(|source| LabelError::Io {
        doing: format!("create {}", args.out.display()),
        source,
    })?;
    // One writer per folder: a second run into it is refused at once.
    let _lock = lock_folder(&args.out, "label-othello")?;
    let data = args.out.join("labels.bin");
    let progress = OutFile::check(&args.out.join("progress.txt"), false)?;
    let t0 = std::time::Instant::now();
    let jobs = jobs(args.wthor.as_deref(), args.self_play, args.workers.seed)?;
    if jobs.is_empty() {
        return Err(LabelError::Empty);
    }
    let print = fingerprint(&jobs);
    let (done_records, good) = read_labels(&data).map_err(LabelError::Read)?;
    same_run(
        args,
        &progress,
        (jobs.len(), print),
        !done_records.is_empty(),
    )?;
    let mut counts = [0u64; 3];
    for r in &done_records {
        counts[count_slot(r.kind)] += 1;
    }
    let start = done_records.len() as u64;
    drop(done_records);
    let end = args
        .limit
        .map_or(jobs.len() as u64, |l| l.min(jobs.len() as u64));
    let mut report = super::workers::report_begun(format_args!(
        "label-othello: {} positions listed in {:.1} s; {start} already labelled",
        jobs.len(),
        t0.elapsed().as_secs_f64()
    ));
    let file = open_to_resume(&data, good).map_err(|(doing, source)| LabelError::Io {
        doing: format!("{doing} {}", data.display()),
        source,
    })?;
    let mut sink = Sink {
        args,
        file,
        data,
        progress: &progress,
        total: jobs.len(),
        print,
        counts,
        written: start,
    };
    progress.replace(sink.progress_text().as_bytes())?;
    if start >= end {
        let _ = writeln!(report, "nothing left to label (limit {end})");
        return Ok(report);
    }
    let t1 = std::time::Instant::now();
    label_all(args, &jobs, start..end, &mut sink, t1)?;
    let secs = t1.elapsed().as_secs_f64();
    let (written, counts) = (sink.written, sink.counts);
    let _ = writeln!(
        report,
        "labelled {} positions in {secs:.0} s ({:.2}/s); {written} of {} done: {} exact, {} searched, {} without a label",
        written - start,
        (written - start) as f64 / secs.max(1e-9),
        jobs.len(),
        counts[0],
        counts[1],
        counts[2]
    );
    Ok(report)
}

/// Refuses a rerun into a folder whose progress file names other
/// sources or settings than this run's, or labels with no progress file
/// beside them (`labelled`: `labels.bin` holds records); `list` is this
/// run's list's length and fingerprint.
fn same_run(
    args: &LabelArgs,
    progress: &OutFile,
    (total, print): (usize, u64),
    labelled: bool,
) -> Result<(), LabelError> {
    let mine = settings_of(&progress_text(args, total, print, 0, &[0; 3]));
    if let Ok(text) = std::fs::read_to_string(progress.path()) {
        let theirs = settings_of(&text);
        if theirs != mine {
            let what = theirs
                .iter()
                .filter(|t| !mine.contains(t))
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ");
            return Err(LabelError::Mismatch {
                path: progress.path().to_path_buf(),
                what,
            });
        }
    } else if labelled {
        return Err(LabelError::Mismatch {
            path: progress.path().to_path_buf(),
            what: "no progress file beside its labels.bin".into(),
        });
    }
    Ok(())
}

/// Where the labels go: `labels.bin`, appended chunk by chunk, each
/// flushed to disk before the progress file says it is there.
struct Sink<'a> {
    args: &'a LabelArgs,
    file: std::fs::File,
    /// `labels.bin`'s path, for errors.
    data: PathBuf,
    progress: &'a OutFile,
    /// The positions in the list.
    total: usize,
    /// The list's fingerprint.
    print: u64,
    /// The labels written by kind (exact, searched, none).
    counts: [u64; 3],
    /// The records in `labels.bin`.
    written: u64,
}

impl Sink<'_> {
    /// The progress file's text for what is written.
    fn progress_text(&self) -> String {
        progress_text(
            self.args,
            self.total,
            self.print,
            self.written,
            &self.counts,
        )
    }

    /// Appends a chunk, flushes it and says so in the progress file.
    fn write(&mut self, recs: &[Labelled]) -> Result<(), LabelError> {
        let mut bytes = Vec::with_capacity(recs.len() * RECORD_BYTES);
        for r in recs {
            bytes.extend_from_slice(&r.encode());
            self.counts[count_slot(r.kind)] += 1;
        }
        self.file
            .write_all(&bytes)
            .and_then(|()| self.file.sync_data())
            .map_err(|source| LabelError::Io {
                doing: format!("write {}", self.data.display()),
                source,
            })?;
        self.written += recs.len() as u64;
        self.progress.replace(self.progress_text().as_bytes())?;
        Ok(())
    }
}

/// Labels the positions numbered `range` of `jobs` on the workers, in
/// chunks of `--chunk`, and writes them to `sink` in order as they come
/// (a chunk waits for those before it). The first write that fails
/// stops the workers and is the error.
fn label_all(
    args: &LabelArgs,
    jobs: &[Job],
    range: std::ops::Range<u64>,
    sink: &mut Sink,
    t1: std::time::Instant,
) -> Result<(), LabelError> {
    let (start, end) = (range.start, range.end);
    let chunk = args.chunk as u64;
    let next = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(u64, Vec<Labelled>)>();
    let mut settings = othello_settings(args.hash);
    settings.probcut = true;
    let settings = &settings;
    let mut io_error = None;
    std::thread::scope(|s| {
        for _ in 0..args.workers.threads.max(1) {
            let (tx, next, failed) = (tx.clone(), &next, &failed);
            s.spawn(move || {
                let mut search = alpha_beta::<Othello>(settings, OthelloEval::Builtin);
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let lo = start + k * chunk;
                    if lo >= end || failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let hi = (lo + chunk).min(end);
                    let out: Vec<Labelled> = (lo..hi)
                        .map(|i| {
                            let job = &jobs[i as usize];
                            let (label, kind) = label_one(job, args, &mut search);
                            Labelled {
                                index: i as u32,
                                p: job.p,
                                o: job.o,
                                label,
                                kind,
                                source: job.source,
                            }
                        })
                        .collect();
                    if tx.send((k, out)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut k_next = 0u64;
        for (k, recs) in rx {
            pending.insert(k, recs);
            while let Some(recs) = pending.remove(&k_next) {
                k_next += 1;
                if io_error.is_some() {
                    continue;
                }
                if let Err(e) = sink.write(&recs) {
                    io_error = Some(e);
                    failed.store(true, Ordering::Relaxed);
                    continue;
                }
                let secs = t1.elapsed().as_secs_f64();
                eprintln!(
                    "label-othello: {}/{end} ({:.2} positions/s this run)",
                    sink.written,
                    (sink.written - start) as f64 / secs.max(1e-9)
                );
            }
        }
    });
    io_error.map_or(Ok(()), Err)
}

fn count_slot(kind: u8) -> usize {
    match kind {
        EXACT => 0,
        NO_LABEL => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_the_same_for_the_same_seed_and_repeats_go() {
        let a = jobs(None, 6, 3).unwrap();
        let b = jobs(None, 6, 3).unwrap();
        assert_eq!(a, b);
        let mut keys: Vec<_> = a.iter().map(|j| (j.p, j.o)).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), a.len());
        // The start position is in every game: once in the list.
        let start = ((1u64 << 28) | (1 << 35), (1u64 << 27) | (1 << 36));
        assert_eq!(keys.iter().filter(|&&k| k == start).count(), 1);
        assert_ne!(fingerprint(&a), fingerprint(&jobs(None, 6, 4).unwrap()));
    }
}
