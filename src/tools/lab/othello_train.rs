//! The training pipeline of the pattern evaluation (`tabula train-othello`).
//!
//! 1. **Generate** (resumable, `--threads` workers): self-play games from
//!    varied openings (2 to 20 random plies, then a 2-ply search with the
//!    square table and a little noise, 5% random moves). Every position
//!    with a move is kept; those with at most `--solve-empties` empty
//!    squares are labelled by the exact solver. Games are seeded by their
//!    number, written in order (`positions.bin` in the data folder), and a
//!    rerun skips the games already there: the file is the same for the
//!    same seed whatever the thread count or interruptions.
//! 2. **Fit**, from the last stage backwards as Logistello did: a stage's
//!    positions (its 4 disc counts and 2 either side) are labelled exactly
//!    where solved, else by a `--depth` search whose leaves use the weights
//!    of the later stages already fitted; the stage's weights solve the
//!    ridge least-squares problem on the disc margin (`--lambda`) by
//!    preconditioned conjugate gradients. Games numbered 0 mod 10 are held
//!    out to report the error on unseen positions. Configurations never
//!    seen keep weight 0.
//! 3. **Write** the weight file (`--out`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use super::labels::{
    EXACT, GameSplit, Labelled, NO_LABEL, OUTCOME, game_positions, mix, outcome_labels, read_labels,
};
use super::self_play::{Record, ToMove, UNLABELLED, self_play, to_move};
use super::training_data::{FolderLocked, lock_folder, open_to_resume, read_data};
use super::workers::Workers;
use crate::files::output::{OutFile, OutputError};
use crate::games::othello::bitboard::{final_margin, moves, play, squares};
use crate::games::othello::pattern::{
    self, SCALE, STAGES, Weights, feature_count, features, layout, stage_of,
};
use crate::tools::args::{ArgError, within};

/// `tabula train-othello`: generate self-play data and fit the weights.
#[derive(clap::Args, Debug, Clone)]
pub struct TrainArgs {
    /// Data folder (positions.bin is appended to; keep it out of git).
    #[arg(long, default_value = "data/othello")]
    pub data: PathBuf,
    /// Self-play games the data should hold (a rerun adds the missing ones).
    #[arg(long, default_value_t = 2000)]
    pub games: u64,
    /// Worker threads (generation and labelling, or searches) and seed.
    #[command(flatten)]
    pub workers: Workers,
    /// Positions with at most this many empties are labelled by exact solve.
    #[arg(long, default_value_t = 14)]
    pub solve_empties: u32,
    /// Depth of the labelling search above the solved positions.
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
    /// Ridge regularisation (in positions' worth).
    #[arg(long, default_value_t = 3.0)]
    pub lambda: f64,
    /// Conjugate-gradient iterations per stage.
    #[arg(long, default_value_t = 80)]
    pub iterations: usize,
    /// The weight file to write (default: DATA/weights.bin).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The fewest training positions a stage may have; a fit with fewer
    /// in any stage is refused and writes nothing.
    #[arg(long, default_value_t = 500)]
    pub min_positions: usize,
    /// Fit on the labelled positions of `tabula label-othello` in this
    /// folder (its labels.bin) instead of the self-play data; nothing is
    /// generated.
    #[arg(long)]
    pub labels: Option<PathBuf>,
    /// Shrink the fit towards the built-in weights rather than towards
    /// zero (the ridge term pulls each weight to today's value): a stage
    /// with fewer than --min-positions positions keeps today's weights.
    #[arg(long)]
    pub from_builtin: bool,
    /// With --labels: add the positions of the WTHOR games in this folder,
    /// labelled by their game's theoretical score (exact at its 24
    /// empties, the outcome of expert play before).
    #[arg(long)]
    pub wthor: Option<PathBuf>,
    /// With --wthor: keep one position in this many (by a hash).
    #[arg(long, default_value_t = 4)]
    pub wthor_sample: u64,
    /// With --wthor: the most WTHOR-outcome positions a stage is fitted on.
    #[arg(long, default_value_t = 100_000)]
    pub max_outcomes: usize,
    /// With --labels: choose each stage's lambda from 10, 30, ..., 10000
    /// by the error on a tenth of its training positions (by a hash of
    /// the position), then fit on them all with it; a stage where no fit beats the
    /// prior there keeps the prior.
    #[arg(long)]
    pub tune_lambda: bool,
    /// With --labels: each labelled position (exact or searched) counts
    /// this many times against one WTHOR outcome (whose label is noisier).
    #[arg(long, default_value_t = 1)]
    pub label_weight: usize,
    /// Only generate data.
    #[arg(long)]
    pub gen_only: bool,
    /// Only fit (on the data already there).
    #[arg(long)]
    pub fit_only: bool,
}

const RECORD_BYTES: usize = 17;

/// The most self-play games the data may hold (a game's number is kept
/// in 32 bits; ten million is days of generation).
pub const MAX_GAMES: u64 = 10_000_000;

/// The most empty squares a position may have to be solved exactly: a
/// solve of 20 empties takes about a second, and each added empty
/// multiplies that by about three, for ~20 positions of every game.
pub const MAX_SOLVE_EMPTIES: u32 = 20;

/// The deepest labelling search (it has no table: depth 8 is some 10^7
/// nodes for each of hundreds of thousands of positions).
pub const MAX_LABEL_DEPTH: u32 = 8;

impl TrainArgs {
    /// Checks every number before anything is generated or written:
    /// games 1 to [`MAX_GAMES`], threads 1 to the cores (256 with
    /// `--force-threads`), solved empties 0 to [`MAX_SOLVE_EMPTIES`],
    /// labelling depth 1 to [`MAX_LABEL_DEPTH`], lambda a finite 0.001 to
    /// 10^6 (0 would divide by the count of a configuration never seen),
    /// iterations 1 to 10000; and not both `--gen-only` and `--fit-only`.
    pub fn check(&self) -> Result<(), ArgError> {
        within("--games", self.games, 1..=MAX_GAMES)?;
        self.workers.checked_threads()?;
        within("--solve-empties", self.solve_empties, 0..=MAX_SOLVE_EMPTIES)?;
        within("--depth", self.depth, 1..=MAX_LABEL_DEPTH)?;
        within("--lambda", self.lambda, 0.001..=1e6)?;
        within("--iterations", self.iterations, 1..=10_000)?;
        within("--min-positions", self.min_positions, 1..=100_000_000)?;
        within("--wthor-sample", self.wthor_sample, 1..=1_000_000)?;
        within("--max-outcomes", self.max_outcomes, 1..=100_000_000)?;
        within("--label-weight", self.label_weight, 1..=100)?;
        if self.wthor.is_some() && self.labels.is_none() {
            return Err(ArgError::Conflict(
                "--wthor adds to the positions of --labels: give both".into(),
            ));
        }
        if self.gen_only && self.fit_only {
            return Err(ArgError::Conflict(
                "--gen-only and --fit-only together leave nothing to do".into(),
            ));
        }
        if self.gen_only && self.labels.is_some() {
            return Err(ArgError::Conflict(
                "--labels fits on labelled positions and generates nothing: not with --gen-only"
                    .into(),
            ));
        }
        Ok(())
    }
}

/// Why a training run stopped (nothing is written over `--out` then).
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// An argument out of range or arguments that conflict.
    #[error(transparent)]
    Args(#[from] ArgError),
    /// The weight file cannot be written (checked before any game).
    #[error("--out: {0}")]
    Out(#[from] OutputError),
    /// Reading or writing the data folder failed.
    #[error("cannot {doing}: {source}")]
    Data {
        /// What was being done, and on which file.
        doing: String,
        /// The system's error.
        source: std::io::Error,
    },
    /// No complete game in the data.
    #[error(
        "no positions to fit in {} (generate them first): no weight file written",
        .0.display()
    )]
    NoPositions(PathBuf),
    /// Too few positions to fit a stage.
    #[error(
        "too little data to fit: stage {stage} has {have} training positions (from {games} \
         games), at least {need} needed (--min-positions): no weight file written"
    )]
    TooLittle {
        /// The first stage short of positions.
        stage: usize,
        /// Its training positions.
        have: usize,
        /// The least a stage needs (`--min-positions`).
        need: usize,
        /// The games in the data.
        games: usize,
    },
    /// The fit came out with a weight that is no number.
    #[error("the fit gave weight {index} the value {value}: no weight file written")]
    NotFinite {
        /// Its index.
        index: usize,
        /// Its value.
        value: f32,
    },
    /// The fitted weights did not make a weight table.
    #[error("the fitted weights: {0}: no weight file written")]
    Weights(pattern::WeightsError),
    /// The labelled positions could not be read.
    #[error("--labels: {0}: no weight file written")]
    Labels(String),
    /// The data file refused by the one reader (a FIFO, a device, too
    /// large) or unreadable.
    #[error(transparent)]
    Read(crate::files::input::PeerFileError),
    /// Another run writes into the data folder.
    #[error(transparent)]
    Locked(#[from] FolderLocked),
}

fn data_error(doing: impl Into<String>) -> impl FnOnce(std::io::Error) -> TrainError {
    let doing = doing.into();
    move |source| TrainError::Data { doing, source }
}

/// Runs the pipeline; returns the report. Refuses bad arguments and an
/// `--out` that cannot be written (not a regular file, no such folder, a
/// folder that takes no new file) before touching the data or generating
/// a game; refuses a fit with too few positions in any stage
/// (`--min-positions`) or a weight that is no finite number; and replaces
/// `--out` only with a complete new file (written beside it and renamed).
pub fn run(args: &TrainArgs) -> Result<String, TrainError> {
    args.check()?;
    let file = args.data.join("positions.bin");
    let out = if args.gen_only {
        None
    } else {
        let named = args
            .out
            .clone()
            .unwrap_or_else(|| args.data.join("weights.bin"));
        // The default --out lies in the data folder, which generation
        // creates anyway; a fit-only run creates nothing.
        let make = !args.fit_only && args.labels.is_none() && args.out.is_none();
        Some(OutFile::check(&named, make)?)
    };
    let mut report = String::new();
    if let (Some(dir), Some(out)) = (&args.labels, &out) {
        let file = dir.join("labels.bin");
        let labels: Vec<Labelled> = read_labels(&file)
            .map_err(|e| TrainError::Labels(e.to_string()))?
            .0
            .into_iter()
            .filter(|r| r.kind != NO_LABEL)
            .collect();
        if labels.is_empty() {
            return Err(TrainError::NoPositions(file));
        }
        let weights = fit_labels(args, &labels, &mut report)?;
        write_weights(out, &weights, &mut report)?;
        return Ok(report);
    }
    if !args.fit_only {
        std::fs::create_dir_all(&args.data)
            .map_err(data_error(format!("create {}", args.data.display())))?;
        // One writer per data folder: a second generation into it is
        // refused at once (two seeds' games would mix).
        let _lock = lock_folder(&args.data, "train-othello")?;
        generate(args, &file, &mut report)?;
    }
    let Some(out) = out else {
        return Ok(report);
    };
    let games = read_games(&file)?.0;
    if games.iter().all(Vec::is_empty) {
        return Err(TrainError::NoPositions(file));
    }
    enough_positions(&games, args.min_positions)?;
    let weights = fit(args, &games, &mut report)?;
    write_weights(&out, &weights, &mut report)?;
    Ok(report)
}

/// Replaces `out` with the fitted weights (whole or not at all) and says
/// so in the report.
fn write_weights(out: &OutFile, weights: &Weights, report: &mut String) -> Result<(), TrainError> {
    let bytes = weights.encode();
    out.replace(&bytes)?;
    let _ = writeln!(
        report,
        "wrote {} ({} bytes)",
        out.path().display(),
        bytes.len()
    );
    Ok(())
}

/// The training positions of stage `s`: those within 2 discs of it.
fn in_window(s: usize, discs: u32) -> bool {
    let lo = 4 + 4 * s as u32;
    (lo.saturating_sub(2)..=lo + 5).contains(&discs)
}

/// Every stage has at least `need` training positions.
fn enough_positions(games: &[Vec<Record>], need: usize) -> Result<(), TrainError> {
    let mut have = [0usize; STAGES];
    for (i, g) in games.iter().enumerate() {
        if i % 10 == 0 {
            continue;
        }
        for r in g {
            let d = (r.p | r.o).count_ones();
            for (s, h) in have.iter_mut().enumerate() {
                if in_window(s, d) {
                    *h += 1;
                }
            }
        }
    }
    match have.iter().position(|&h| h < need) {
        Some(stage) => Err(TrainError::TooLittle {
            stage,
            have: have[stage],
            need,
            games: games.len(),
        }),
        None => Ok(()),
    }
}

/// Reads the games of a data file: `(games, bytes of complete games)`.
fn read_games(file: &std::path::Path) -> Result<(Vec<Vec<Record>>, u64), TrainError> {
    let bytes = read_data(file).map_err(TrainError::Read)?;
    let mut games = Vec::new();
    let mut pos = 0usize;
    while pos + 5 <= bytes.len() {
        let index =
            u32::from_le_bytes([bytes[pos], bytes[pos + 1], bytes[pos + 2], bytes[pos + 3]]);
        let n = bytes[pos + 4] as usize;
        let end = pos + 5 + n * RECORD_BYTES;
        if end > bytes.len() || index as usize != games.len() {
            break;
        }
        let recs = bytes[pos + 5..end]
            .chunks_exact(RECORD_BYTES)
            .map(|c| {
                let mut a = [0u8; 8];
                a.copy_from_slice(&c[..8]);
                let mut b = [0u8; 8];
                b.copy_from_slice(&c[8..16]);
                Record {
                    p: u64::from_le_bytes(a),
                    o: u64::from_le_bytes(b),
                    label: c[16] as i8,
                }
            })
            .collect();
        games.push(recs);
        pos = end;
    }
    Ok((games, pos as u64))
}

fn encode_game(index: u64, recs: &[Record]) -> Vec<u8> {
    let mut out = Vec::with_capacity(5 + recs.len() * RECORD_BYTES);
    out.extend_from_slice(&(index as u32).to_le_bytes());
    out.push(recs.len() as u8);
    for r in recs {
        out.extend_from_slice(&r.p.to_le_bytes());
        out.extend_from_slice(&r.o.to_le_bytes());
        out.push(r.label as u8);
    }
    out
}

fn generate(
    args: &TrainArgs,
    file: &std::path::Path,
    report: &mut String,
) -> Result<(), TrainError> {
    let (done, good_bytes) = read_games(file)?;
    let start = done.len() as u64;
    drop(done);
    // A partly written last game is dropped.
    let mut f = open_to_resume(file, good_bytes)
        .map_err(|(doing, source)| data_error(format!("{doing} {}", file.display()))(source))?;
    if start >= args.games {
        let _ = writeln!(report, "data: {start} games already there");
        return Ok(());
    }
    let next = AtomicU64::new(start);
    let (tx, rx) = mpsc::channel::<(u64, Vec<Record>)>();
    let t0 = std::time::Instant::now();
    let mut written = start;
    let mut io_error: Option<std::io::Error> = None;
    std::thread::scope(|s| {
        for _ in 0..args.workers.threads.max(1) {
            let tx = tx.clone();
            let next = &next;
            s.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= args.games {
                        break;
                    }
                    let recs = self_play(args.workers.seed, i, args.solve_empties);
                    if tx.send((i, recs)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        for (i, recs) in rx {
            pending.insert(i, recs);
            while let Some(recs) = pending.remove(&written) {
                if io_error.is_none()
                    && let Err(e) = f.write_all(&encode_game(written, &recs))
                {
                    io_error = Some(e);
                }
                written += 1;
                if written.is_multiple_of(200) {
                    eprintln!(
                        "train-othello: {written}/{} games, {:.0} s",
                        args.games,
                        t0.elapsed().as_secs_f64()
                    );
                }
            }
        }
    });
    if let Some(e) = io_error {
        return Err(TrainError::Data {
            doing: format!("write {}", file.display()),
            source: e,
        });
    }
    let _ = writeln!(
        report,
        "data: games {start}..{written} generated in {:.1} s",
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Float weights of every stage in canonical form, for fitting.
struct FloatWeights {
    w: Vec<f32>,
}

impl FloatWeights {
    fn eval(&self, p: u64, o: u64, stage: usize, buf: &mut Vec<u32>) -> f32 {
        let (pm, om) = (moves(p, o).count_ones(), moves(o, p).count_ones());
        features(p, o, pm, om, buf);
        let base = stage * layout().size;
        buf.iter().map(|&f| self.w[base + f as usize]).sum()
    }

    /// Negamax to `depth`; leaves use the weights of their stage, or of
    /// `min_stage` if earlier.
    fn search(
        &self,
        (p, o): (u64, u64),
        depth: u32,
        (mut alpha, beta): (f32, f32),
        min_stage: usize,
        buf: &mut Vec<u32>,
    ) -> f32 {
        let pm = match to_move(p, o) {
            ToMove::Moves(pm) => pm,
            ToMove::Pass => return -self.search((o, p), depth, (-beta, -alpha), min_stage, buf),
            ToMove::Over => return final_margin(p, o) as f32,
        };
        if depth == 0 {
            let stage = stage_of((p | o).count_ones()).max(min_stage);
            return self.eval(p, o, stage, buf);
        }
        let mut best = f32::NEG_INFINITY;
        for sq in squares(pm) {
            let (np, no) = play(p, o, sq);
            let v = -self.search((np, no), depth - 1, (-beta, -alpha), min_stage, buf);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// Fits one stage's weights (canonical indices within a stage) to the
/// positions and labels by ridge least squares (preconditioned conjugate
/// gradients). Returns the weights and the root-mean-square error before
/// (all weights zero) and after.
pub fn fit_stage(
    positions: &[(u64, u64)],
    labels: &[f32],
    lambda: f64,
    iterations: usize,
) -> (Vec<f32>, f64, f64) {
    let size = layout().size;
    let nf = feature_count();
    let mut feats = Vec::with_capacity(positions.len() * nf);
    let mut buf = Vec::new();
    for &(p, o) in positions {
        features(
            p,
            o,
            moves(p, o).count_ones(),
            moves(o, p).count_ones(),
            &mut buf,
        );
        feats.extend_from_slice(&buf);
    }
    let n = positions.len();
    let apply = |v: &[f64], out: &mut Vec<f64>| {
        // out = A^T A v + lambda v
        out.clear();
        out.extend(v.iter().map(|x| lambda * x));
        for i in 0..n {
            let row = &feats[i * nf..(i + 1) * nf];
            let s: f64 = row.iter().map(|&f| v[f as usize]).sum();
            for &f in row {
                out[f as usize] += s;
            }
        }
    };
    let mut count = vec![0f64; size];
    let mut b = vec![0f64; size];
    for i in 0..n {
        for &f in &feats[i * nf..(i + 1) * nf] {
            count[f as usize] += 1.0;
            b[f as usize] += f64::from(labels[i]);
        }
    }
    let rmse = |w: &[f64]| {
        if n == 0 {
            return 0.0;
        }
        let se: f64 = (0..n)
            .map(|i| {
                let s: f64 = feats[i * nf..(i + 1) * nf]
                    .iter()
                    .map(|&f| w[f as usize])
                    .sum();
                (s - f64::from(labels[i])).powi(2)
            })
            .sum();
        (se / n as f64).sqrt()
    };
    let mut w = vec![0f64; size];
    let before = rmse(&w);
    let minv: Vec<f64> = count.iter().map(|c| 1.0 / (c + lambda)).collect();
    let mut r = b;
    let mut z: Vec<f64> = r.iter().zip(&minv).map(|(r, m)| r * m).collect();
    let mut d = z.clone();
    let mut rz: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
    let mut q = Vec::with_capacity(size);
    for _ in 0..iterations {
        if rz <= 1e-12 {
            break;
        }
        apply(&d, &mut q);
        let dq: f64 = d.iter().zip(&q).map(|(a, b)| a * b).sum();
        if dq <= 0.0 {
            break;
        }
        let alpha = rz / dq;
        for j in 0..size {
            w[j] += alpha * d[j];
            r[j] -= alpha * q[j];
        }
        for j in 0..size {
            z[j] = r[j] * minv[j];
        }
        let rz_new: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
        let beta = rz_new / rz;
        rz = rz_new;
        for j in 0..size {
            d[j] = z[j] + beta * d[j];
        }
    }
    let after = rmse(&w);
    (w.iter().map(|&x| x as f32).collect(), before, after)
}

/// Fits every stage, backwards; writes a line per stage to `report`. An
/// error if a weight came out as no finite number.
fn fit(
    args: &TrainArgs,
    games: &[Vec<Record>],
    report: &mut String,
) -> Result<Weights, TrainError> {
    let size = layout().size;
    let mut fw = FloatWeights {
        w: vec![0f32; STAGES * size],
    };
    let _ = writeln!(
        report,
        "fit: {} games, {} positions; solved at <= {} empties, searched to depth {} above; lambda {}",
        games.len(),
        games.iter().map(Vec::len).sum::<usize>(),
        args.solve_empties,
        args.depth,
        args.lambda
    );
    let _ = writeln!(
        report,
        "stage discs   train  rmse(0)  rmse  | held-out  mae(solved)"
    );
    for s in (0..STAGES).rev() {
        let lo = 4 + 4 * s as u32;
        let (wlo, whi) = (lo.saturating_sub(2), lo + 5);
        let pick = |held: bool| -> Vec<Record> {
            games
                .iter()
                .enumerate()
                .filter(|(i, _)| (i % 10 == 0) == held)
                .flat_map(|(_, g)| g.iter().copied())
                .filter(|r| {
                    let d = (r.p | r.o).count_ones();
                    if held {
                        stage_of(d) == s && r.label != UNLABELLED
                    } else {
                        (wlo..=whi).contains(&d)
                    }
                })
                .collect()
        };
        let train = pick(false);
        if train.is_empty() {
            continue;
        }
        // Label: exact, or a search with the later stages' weights.
        let labels: Vec<f32> = {
            let chunk = train.len().div_ceil(args.workers.threads.max(1));
            let fw = &fw;
            let depth = args.depth;
            std::thread::scope(|sc| {
                let handles: Vec<_> = train
                    .chunks(chunk.max(1))
                    .map(|part| {
                        sc.spawn(move || {
                            let mut buf = Vec::new();
                            part.iter()
                                .map(|r| {
                                    if r.label != UNLABELLED {
                                        f32::from(r.label)
                                    } else {
                                        let min_stage = (s + 1).min(STAGES - 1);
                                        fw.search(
                                            (r.p, r.o),
                                            depth,
                                            (-1e9, 1e9),
                                            min_stage,
                                            &mut buf,
                                        )
                                    }
                                })
                                .collect::<Vec<f32>>()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .flat_map(|h| h.join().unwrap_or_default())
                    .collect()
            })
        };
        let positions: Vec<(u64, u64)> = train.iter().map(|r| (r.p, r.o)).collect();
        let (w, before, after) = fit_stage(&positions, &labels, args.lambda, args.iterations);
        fw.w[s * size..(s + 1) * size].copy_from_slice(&w);
        let held = pick(true);
        let mut buf = Vec::new();
        let mae = if held.is_empty() {
            f64::NAN
        } else {
            held.iter()
                .map(|r| f64::from((fw.eval(r.p, r.o, s, &mut buf) - f32::from(r.label)).abs()))
                .sum::<f64>()
                / held.len() as f64
        };
        let _ = writeln!(
            report,
            "{s:>5} {:>2}-{:<2} {:>7} {before:>7.2} {after:>6.2} | {:>8} {mae:>6.2}",
            lo,
            lo + 3,
            train.len(),
            held.len()
        );
        eprint!("{}", report.lines().last().unwrap_or_default());
        eprintln!();
    }
    quantized(&fw.w)
}

/// The weight table of fitted float weights (every stage, canonical), in
/// the table's fixed point; an error if a weight is no finite number.
fn quantized(w: &[f32]) -> Result<Weights, TrainError> {
    if let Some(bad) = w.iter().position(|x| !x.is_finite()) {
        return Err(TrainError::NotFinite {
            index: bad,
            value: w[bad],
        });
    }
    let q: Vec<i16> = w
        .iter()
        .map(|&x| (x * SCALE as f32).round().clamp(-32767.0, 32767.0) as i16)
        .collect();
    Weights::from_canonical(&q).map_err(TrainError::Weights)
}

/// The error of `weights` on positions, in discs: (root mean square,
/// mean absolute).
fn errors(weights: &Weights, set: &[&Labelled]) -> (f64, f64) {
    if set.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let (mut se, mut ae) = (0f64, 0f64);
    for r in set {
        let (pm, om) = (moves(r.p, r.o).count_ones(), moves(r.o, r.p).count_ones());
        let v = f64::from(weights.score(r.p, r.o, pm, om)) / f64::from(SCALE);
        let d = v - f64::from(r.label);
        se += d * d;
        ae += d.abs();
    }
    let n = set.len() as f64;
    ((se / n).sqrt(), ae / n)
}

/// The ridge term, from 10 to 10000, whose fit on nine tenths of the
/// positions (by a hash) has the least error on the other tenth; infinite
/// (keep the prior) if none does better than no change.
fn tune_lambda(
    part: &[&Labelled],
    positions: &[(u64, u64)],
    residual: &[f32],
    iterations: usize,
) -> f64 {
    // A tenth of the stage's positions by a hash of the position, labels
    // and WTHOR outcomes alike: validated on labels alone (searches with
    // today's weights), a fit never beat today's in the midgame.
    let val: Vec<bool> = part.iter().map(|r| mix(r.p, r.o) % 10 == 1).collect();
    let pick = |want: bool| -> (Vec<(u64, u64)>, Vec<f32>) {
        positions
            .iter()
            .zip(residual)
            .zip(&val)
            .filter(|(_, v)| **v == want)
            .map(|((p, r), _)| (*p, *r))
            .unzip()
    };
    let (fit_p, fit_r) = pick(false);
    let (val_p, val_r) = pick(true);
    if val_p.is_empty() || fit_p.is_empty() {
        // No evidence for any change: keep the prior.
        return f64::INFINITY;
    }
    let mut buf = Vec::new();
    // No change at all (the prior kept) is a candidate too.
    let keep: f64 = val_r.iter().map(|&y| f64::from(y).powi(2)).sum();
    let mut best = (keep, f64::INFINITY);
    for lambda in [10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0, 10000.0] {
        let (w, _, _) = fit_stage(&fit_p, &fit_r, lambda, iterations);
        let se: f64 = val_p
            .iter()
            .zip(&val_r)
            .map(|(&(p, o), &y)| {
                features(
                    p,
                    o,
                    moves(p, o).count_ones(),
                    moves(o, p).count_ones(),
                    &mut buf,
                );
                let v: f32 = buf.iter().map(|&f| w[f as usize]).sum();
                f64::from(v - y).powi(2)
            })
            .sum();
        if se < best.0 {
            best = (se, lambda);
        }
    }
    best.1
}

/// The positions of `set` in stage `s`.
fn in_stage<'l>(set: &[&'l Labelled], s: usize) -> Vec<&'l Labelled> {
    set.iter()
        .copied()
        .filter(|r| stage_of((r.p | r.o).count_ones()) == s)
        .collect()
}

/// The end of [`fit_labels`]'s report: per stage, the errors of today's
/// weights and the `new` ones on the exact labels of the WTHOR games no
/// fit saw (`unseen_exact`, if any), then on every held-out label, with
/// each stage's training positions and the fit's word on its lambda
/// (`stage_fit`).
fn report_held_out(
    report: &mut String,
    builtin: &Weights,
    new: &Weights,
    unseen_exact: &[&Labelled],
    held: &[&Labelled],
    stage_fit: impl Fn(usize) -> (usize, String),
) {
    if !unseen_exact.is_empty() {
        let _ = writeln!(
            report,
            "held-out EXACT labels of unseen WTHOR games ({} positions):\n\
             stage discs  count | rmse today  new | mae today  new  (discs)",
            unseen_exact.len()
        );
        for s in 0..STAGES {
            let set = in_stage(unseen_exact, s);
            if set.is_empty() {
                continue;
            }
            let (stage, errs) = stage_columns(s, builtin, new, &set);
            let _ = writeln!(report, "{stage} {:>6} {errs}", set.len());
        }
    }
    let _ = writeln!(
        report,
        "all held-out labels (exact and searched):\n\
         stage discs   train  held | rmse today  new | mae today  new  (discs) | lambda"
    );
    for s in 0..STAGES {
        let (train_n, lambda) = stage_fit(s);
        let set = in_stage(held, s);
        let (stage, errs) = stage_columns(s, builtin, new, &set);
        let _ = writeln!(
            report,
            "{stage} {train_n:>7} {:>5} {errs}         | {lambda}",
            set.len()
        );
    }
}

/// The columns every row of [`report_held_out`]'s tables has, either side
/// of the table's own counts: stage `s` and its discs, and the errors of
/// today's and the `new` weights on `set` (rmse, then mae, in discs).
fn stage_columns(
    s: usize,
    builtin: &Weights,
    new: &Weights,
    set: &[&Labelled],
) -> (String, String) {
    let lo = 4 + 4 * s as u32;
    let (rt, at) = errors(builtin, set);
    let (rn, an) = errors(new, set);
    (
        format!("{s:>5} {lo:>2}-{:<2}", lo + 3),
        format!("| {rt:>10.2} {rn:>4.2} | {at:>9.2} {an:>4.2}"),
    )
}

/// The positions a fit on labels holds out: those numbered 0 mod 10,
/// and with `--wthor` every position of the WTHOR games held out of every
/// fit (a tenth of the games: their solved positions measure the error
/// on games the fit never saw). Returns those games' positions, the
/// held-out labels and the training ones.
fn hold_out<'l>(args: &TrainArgs, labels: &'l [Labelled]) -> Result<HeldOut<'l>, TrainError> {
    let held_games = match &args.wthor {
        Some(dir) => game_positions(dir, GameSplit::HeldOut).map_err(labels_error)?,
        None => std::collections::HashSet::new(),
    };
    let (held, train): (Vec<&Labelled>, Vec<&Labelled>) = labels
        .iter()
        .partition(|r| r.index % 10 == 0 || held_games.contains(&(r.p, r.o)));
    Ok(HeldOut {
        held_games,
        held,
        train,
    })
}

/// A fit's labels split by [`hold_out`].
struct HeldOut<'l> {
    /// Every position of the WTHOR games held out of every fit.
    held_games: std::collections::HashSet<(u64, u64)>,
    /// The labels the fit never sees.
    held: Vec<&'l Labelled>,
    /// The labels it fits.
    train: Vec<&'l Labelled>,
}

/// Why the WTHOR folder could not give its positions, as a fit's error.
fn labels_error(e: super::wthor::WthorError) -> TrainError {
    TrainError::Labels(e.to_string())
}

/// With `--wthor`: the WTHOR outcome positions the fit trains on, and
/// the exact ones of the games held out of every fit. The held-out and
/// validation positions never come in again as outcomes (an opening
/// position of a held-out game still does, from the games it is also
/// in, above 26 empties).
fn wthor_outcomes(
    args: &TrainArgs,
    labels: &[Labelled],
    held_games: &std::collections::HashSet<(u64, u64)>,
) -> Result<(Vec<Labelled>, Vec<Labelled>), TrainError> {
    let Some(dir) = &args.wthor else {
        return Ok((Vec::new(), Vec::new()));
    };
    let mut exclude: std::collections::HashSet<(u64, u64)> = labels
        .iter()
        .filter(|r| r.index % 10 <= 1)
        .map(|r| (r.p, r.o))
        .collect();
    exclude.extend(
        held_games
            .iter()
            .filter(|(p, o)| (p | o).count_ones() >= 38)
            .copied(),
    );
    let none = std::collections::HashSet::new();
    Ok((
        outcome_labels(dir, args.wthor_sample, &exclude, GameSplit::Training)
            .map_err(labels_error)?,
        outcome_labels(dir, 1, &none, GameSplit::HeldOut)
            .map_err(labels_error)?
            .into_iter()
            .filter(|r| r.kind == EXACT)
            .collect(),
    ))
}

/// How stage `s` of a fit on labels came out.
enum StageFit {
    /// Fitted with this lambda.
    Fitted(f64),
    /// No lambda beat the prior on validation: the prior kept.
    NoneBetter,
    /// Too few positions (under `--from-builtin`): the prior kept.
    TooFew,
}

/// Fits stage `s` on `part` (its window's positions), as the change to
/// `prior` that the ridge term shrinks towards zero; writes the stage's
/// weights into `w`.
fn fit_label_stage(
    args: &TrainArgs,
    s: usize,
    part: &[&Labelled],
    prior: &[f32],
    w: &mut [f32],
) -> StageFit {
    let base = s * layout().size;
    let mut buf = Vec::new();
    let positions: Vec<(u64, u64)> = part.iter().map(|r| (r.p, r.o)).collect();
    // The residual of the prior is what the stage's change fits.
    let residual: Vec<f32> = part
        .iter()
        .map(|r| {
            let (pm, om) = (moves(r.p, r.o).count_ones(), moves(r.o, r.p).count_ones());
            features(r.p, r.o, pm, om, &mut buf);
            let v: f32 = buf.iter().map(|&f| prior[base + f as usize]).sum();
            f32::from(r.label) - v
        })
        .collect();
    let lambda = if args.tune_lambda {
        tune_lambda(part, &positions, &residual, args.iterations)
    } else {
        args.lambda
    };
    if !lambda.is_finite() {
        return StageFit::NoneBetter;
    }
    let (delta, _, _) = fit_stage(&positions, &residual, lambda, args.iterations);
    for (j, d) in delta.iter().enumerate() {
        w[base + j] = prior[base + j] + d;
    }
    StageFit::Fitted(lambda)
}

/// Fits every stage on labelled positions (`label-othello`'s): each
/// stage's weights solve the ridge least-squares problem on the positions
/// within 2 discs of it, shrunk towards today's weights with
/// `--from-builtin` (else towards zero). Positions numbered 0 mod 10 are
/// held out; the report gives, per stage, their error under the new
/// weights and under today's built-in ones.
fn fit_labels(
    args: &TrainArgs,
    labels: &[Labelled],
    report: &mut String,
) -> Result<Weights, TrainError> {
    let builtin = pattern::builtin();
    let prior: Vec<f32> = if args.from_builtin {
        builtin
            .canonical()
            .iter()
            .map(|&x| f32::from(x) / SCALE as f32)
            .collect()
    } else {
        vec![0f32; STAGES * layout().size]
    };
    let mut w = prior.clone();
    let HeldOut {
        held_games,
        held,
        train,
    } = hold_out(args, labels)?;
    let (outcomes, held_theoretical) = wthor_outcomes(args, labels, &held_games)?;
    let _ = writeln!(
        report,
        "WTHOR outcome positions: {} ({} exact at 24 empties), one in {}, at most {} a stage",
        outcomes.len(),
        outcomes.iter().filter(|r| r.kind != OUTCOME).count(),
        args.wthor_sample,
        args.max_outcomes
    );
    // At most --max-outcomes a stage: every k-th of those in its window.
    let mut per_window = [0usize; STAGES];
    for r in &outcomes {
        let d = (r.p | r.o).count_ones();
        for (s, n) in per_window.iter_mut().enumerate() {
            *n += usize::from(in_window(s, d));
        }
    }
    let stride: Vec<usize> = per_window
        .iter()
        .map(|&n| n.div_ceil(args.max_outcomes).max(1))
        .collect();
    let _ = writeln!(
        report,
        "fit on labels: {} positions ({} exact), {} held out; lambda {}, prior {}",
        labels.len(),
        labels.iter().filter(|r| r.kind == EXACT).count(),
        held.len(),
        args.lambda,
        if args.from_builtin {
            "today's weights"
        } else {
            "zero"
        }
    );
    let mut fits = Vec::with_capacity(STAGES);
    let mut sizes = [0usize; STAGES];
    for s in 0..STAGES {
        let mut part: Vec<&Labelled> = train
            .iter()
            .copied()
            .filter(|r| in_window(s, (r.p | r.o).count_ones()))
            .flat_map(|r| std::iter::repeat_n(r, args.label_weight))
            .collect();
        part.extend(
            outcomes
                .iter()
                .enumerate()
                .filter(|(k, r)| in_window(s, (r.p | r.o).count_ones()) && k % stride[s] == 0)
                .map(|(_, r)| r),
        );
        sizes[s] = part.len();
        if part.len() >= args.min_positions {
            fits.push(fit_label_stage(args, s, &part, &prior, &mut w));
        } else if args.from_builtin {
            fits.push(StageFit::TooFew);
        } else {
            return Err(TrainError::TooLittle {
                stage: s,
                have: part.len(),
                need: args.min_positions,
                games: labels.len(),
            });
        }
    }
    if fits.iter().all(|f| matches!(f, StageFit::TooFew)) {
        return Err(TrainError::TooLittle {
            stage: 0,
            have: 0,
            need: args.min_positions,
            games: labels.len(),
        });
    }
    let new = quantized(&w)?;
    // The solved positions of the WTHOR games no fit saw: exact labels
    // (the solver's to --exact empties, the FFO's at its 24).
    let unseen_exact: Vec<&Labelled> = held
        .iter()
        .copied()
        .filter(|r| r.kind == EXACT && held_games.contains(&(r.p, r.o)))
        .chain(held_theoretical.iter())
        .collect();
    report_held_out(report, builtin, &new, &unseen_exact, &held, |s| {
        let lambda = match fits[s] {
            StageFit::Fitted(lambda) => format!("{lambda}"),
            StageFit::NoneBetter => "none better than today's on validation: kept".to_string(),
            StageFit::TooFew => "too few positions: kept today's".to_string(),
        };
        (sizes[s], lambda)
    });
    Ok(new)
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{Rng as _, SeedableRng as _};

    use super::*;

    /// The held-out tables' rows, column for column: the report is read
    /// by eye and compared between runs.
    #[test]
    fn the_held_out_report_keeps_its_columns() {
        let start = Labelled {
            index: 0,
            p: (1 << 28) | (1 << 35),
            o: (1 << 27) | (1 << 36),
            label: 2,
            kind: EXACT,
            source: 0,
        };
        let zero = Weights::zero();
        let mut report = String::new();
        report_held_out(&mut report, &zero, &zero, &[&start], &[&start], |s| {
            (10 + s, format!("lambda {s}"))
        });
        let rows: Vec<&str> = report.lines().collect();
        assert_eq!(
            rows[2],
            "    0  4-7       1 |       2.00 2.00 |      2.00 2.00"
        );
        assert_eq!(
            rows[5],
            "    0  4-7       10     1 |       2.00 2.00 |      2.00 2.00         | lambda 0"
        );
        assert_eq!(
            rows[6],
            "    1  8-11      11     0 |        NaN  NaN |       NaN  NaN         | lambda 1"
        );
    }

    #[test]
    fn fitting_a_tiny_synthetic_set_reduces_the_error() {
        // Labels from a hidden rule the features can express: corners owned.
        let mut rng = SmallRng::seed_from_u64(9);
        let mut positions = Vec::new();
        let mut labels = Vec::new();
        for _ in 0..400 {
            let a: u64 = rng.r#gen::<u64>() & rng.r#gen::<u64>();
            let b: u64 = rng.r#gen::<u64>() & !a;
            let corners = 0x8100_0000_0000_0081u64;
            let v = 4.0 * ((a & corners).count_ones() as f32 - (b & corners).count_ones() as f32);
            positions.push((a, b));
            labels.push(v);
        }
        let (_, before, after) = fit_stage(&positions, &labels, 1.0, 50);
        assert!(before > 3.0, "{before}");
        assert!(after < before * 0.5, "{before} -> {after}");
    }

    #[test]
    fn a_fit_with_a_weight_that_is_no_number_is_refused() {
        // The arguments' check refuses --lambda nan; the fit itself still
        // refuses to hand back weights that are not finite.
        let games: Vec<Vec<Record>> = (0..3).map(|i| self_play(2, i, 0)).collect();
        let mut args = TrainArgs {
            data: PathBuf::from("unused"),
            games: 3,
            workers: Workers {
                threads: 1,
                force_threads: false,
                seed: 2,
            },
            solve_empties: 0,
            depth: 1,
            lambda: f64::NAN,
            iterations: 5,
            out: None,
            min_positions: 1,
            labels: None,
            wthor: None,
            wthor_sample: 4,
            max_outcomes: 100_000,
            from_builtin: false,
            tune_lambda: false,
            label_weight: 1,
            gen_only: false,
            fit_only: true,
        };
        assert!(args.check().is_err());
        let mut report = String::new();
        let e = fit(&args, &games, &mut report).expect_err("NaN weights");
        assert!(e.to_string().contains("no weight file written"), "{e}");
        args.lambda = 3.0;
        assert!(args.check().is_ok());
        assert!(fit(&args, &games, &mut report).is_ok());
    }

    #[test]
    fn games_round_trip_through_the_file_format() {
        let dir = std::env::temp_dir().join(format!("tabula-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("positions.bin");
        let g0 = self_play(1, 0, 0);
        let g1 = self_play(1, 1, 0);
        let mut bytes = encode_game(0, &g0);
        bytes.extend(encode_game(1, &g1));
        let full = bytes.len() as u64;
        bytes.extend_from_slice(&[2, 0, 0, 0, 9, 1, 2]); // a cut-off third game
        std::fs::write(&file, &bytes).unwrap();
        let (games, good) = read_games(&file).unwrap();
        assert_eq!(games, vec![g0, g1]);
        assert_eq!(good, full);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
