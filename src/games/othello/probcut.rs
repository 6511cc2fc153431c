//! ProbCut for Othello's alpha-beta: the calibrated regressions of a
//! deep search's value on a shallow one's, and the calibration that
//! measures them (`tabula calibrate-probcut`).
//!
//! A node with `d` plies left is tested with a search of
//! `d' = 2 * floor(d / 4) + d mod 2` plies (of the parity of `d`, as
//! Othello values swing with the parity of the depth): at `d` = 3..=11
//! that is 1, 2, 3, 2, 3, 4, 5, 4, 5. For each depth and each stage of
//! the game (by empty squares) the calibration plays self-play games with
//! the pattern evaluation, searches positions sampled from them to the
//! deepest depth with ProbCut off, and fits `v_d = slope * v_d' +
//! intercept` by least squares; `sigma` is the standard deviation of the
//! residuals. Deeper nodes reuse the deepest calibrated depth of their
//! parity with the same gap between the two depths.

use std::fmt::Write as _;

use rand::rngs::SmallRng;
use rand::{Rng as _, SeedableRng};

use super::Othello;
use crate::control::Control;
use crate::game::{Game, ProbCut};
use crate::search::Search as _;
use crate::search::alphabeta::{AlphaBeta, shallow_best};
use crate::tool_args::{self, ArgError, within};

/// The shallowest depth tested.
pub const MIN_DEPTH: u32 = 3;
/// The deepest calibrated depth.
pub const MAX_DEPTH: u32 = 11;
const DEPTHS: usize = (MAX_DEPTH - MIN_DEPTH + 1) as usize;
/// Stages of the game, by empty squares: see [`stage`].
pub const STAGES: usize = 6;

/// How many sigmas a bound must be cleared by. 1.0 against 1.5 scored
/// 54.5% in 100 games at 100 ms a move (+31 Elo, 95% interval -34..+99):
/// not shown better (docs/experiments-othello.md, "Othello evaluation and midgame search").
pub const CONFIDENCE: f64 = 1.5;

/// The stage of a position with `empties` empty squares: 8 empties a
/// stage from the start (60..=53 is stage 0), the last taking 20 and fewer.
pub fn stage(empties: u32) -> usize {
    (60u32.saturating_sub(empties) / 8).min(STAGES as u32 - 1) as usize
}

/// The shallow depth tested at a node with `depth` plies left.
pub fn shallow_depth(depth: u32) -> u32 {
    2 * (depth / 4) + depth % 2
}

/// (slope, intercept in discs, sigma in discs) per stage and depth
/// `MIN_DEPTH..=MAX_DEPTH`, printed by `tabula calibrate-probcut --games 80
/// --per-game 5 --depth 11 --threads 2` (400 positions, 398 kept, about
/// 80 a stage; 625 s on the 2-core development machine under load). The
/// slopes are close to 1 and sigma grows from about 2 discs in the
/// opening to 4-5 near the endgame.
// Measured figures: a sigma of 3.14 discs is not an approximation of pi.
#[allow(clippy::approx_constant)]
#[rustfmt::skip]
const PARAMS: [[(f32, f32, f32); DEPTHS]; STAGES] = [
    [(1.010, 0.83, 2.12), (1.073, 0.18, 1.59), (1.151, 0.20, 0.99), (1.127, -0.29, 2.00), (1.089, 0.41, 1.79), (0.993, -0.25, 2.02), (0.975, 0.71, 2.11), (1.079, -0.76, 2.07), (0.975, 0.95, 2.12),],
    [(1.018, 0.51, 1.79), (1.038, -0.28, 2.09), (1.019, 0.42, 1.55), (1.050, -0.23, 2.54), (1.022, 0.61, 2.31), (1.034, -0.24, 2.08), (1.021, 0.63, 1.98), (1.053, -0.39, 2.83), (1.012, 0.64, 2.25),],
    [(1.017, 1.56, 3.58), (1.044, 0.41, 2.84), (1.044, 0.15, 2.46), (1.058, 0.34, 3.41), (1.067, 0.65, 3.16), (1.055, -0.48, 2.90), (1.055, 0.77, 2.25), (1.087, -0.72, 3.44), (1.075, 0.61, 2.89),],
    [(1.010, 1.65, 3.77), (1.034, 0.49, 3.14), (1.030, 0.64, 3.21), (1.044, 0.75, 3.60), (1.033, 1.30, 3.42), (1.021, 0.02, 2.57), (0.991, 0.87, 3.30), (1.013, -0.11, 3.26), (1.000, 0.95, 3.88),],
    [(1.015, 1.70, 3.32), (0.963, -0.11, 4.60), (0.979, 0.73, 3.71), (0.945, 0.18, 4.66), (0.976, 1.05, 4.48), (0.969, 0.50, 4.45), (0.995, 0.85, 3.90), (0.985, 0.19, 5.05), (1.001, 0.96, 4.99),],
    [(1.004, 2.02, 5.03), (0.991, 0.54, 4.34), (0.986, 0.97, 3.43), (1.000, 0.35, 5.01), (1.005, 1.19, 4.16), (1.018, -0.18, 4.28), (1.021, 0.26, 4.01), (1.010, 0.40, 4.69), (1.018, -0.02, 4.57),],
];

/// The ProbCut test of a node with `depth` plies left and `empties` empty
/// squares, in evaluation units (discs / 64).
pub fn params(empties: u32, depth: u32) -> Option<ProbCut> {
    if depth < MIN_DEPTH {
        return None;
    }
    // A deeper node borrows the deepest calibrated depth of its parity,
    // keeping that depth's gap to its shallow search.
    let (calibrated, shallow) = if depth <= MAX_DEPTH {
        (depth, shallow_depth(depth))
    } else {
        let k = if (depth - MAX_DEPTH).is_multiple_of(2) {
            MAX_DEPTH
        } else {
            MAX_DEPTH - 1
        };
        (k, depth - (k - shallow_depth(k)))
    };
    let (slope, intercept, sigma) =
        PARAMS[stage(empties)][(calibrated - MIN_DEPTH) as usize];
    Some(ProbCut {
        shallow,
        slope: f64::from(slope),
        intercept: f64::from(intercept) / 64.0,
        sigma: f64::from(sigma) / 64.0,
        confidence: CONFIDENCE,
    })
}

/// `tabula calibrate-probcut`: measure the ProbCut regressions.
#[derive(clap::Args, Debug, Clone)]
pub struct CalibrateArgs {
    /// Self-play games to sample positions from.
    #[arg(long, default_value_t = 120)]
    pub games: u64,
    /// Positions sampled per game (at evenly spread plies).
    #[arg(long, default_value_t = 5)]
    pub per_game: usize,
    /// The deepest search (at most 11, the table's last depth).
    #[arg(long, default_value_t = MAX_DEPTH)]
    pub depth: u32,
    /// Worker threads (at most the cores).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Allow --threads above the cores this process may use (up to 256).
    #[arg(long)]
    pub force_threads: bool,
    /// Seed of the self-play games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Transposition table per thread, MiB.
    #[arg(long, default_value_t = 32)]
    pub hash: u64,
}

/// Positions of one self-play game: 2 to 12 random plies, then the move a
/// 2-ply search with the pattern evaluation prefers (a random one 10% of
/// the time); `per_game` positions with 14 to 54 empties, spread over the
/// game at a random offset.
fn game_positions(seed: u64, game: u64, per_game: usize) -> Vec<Othello> {
    let mut rng = SmallRng::seed_from_u64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ game);
    let mut s = Othello::start();
    let (mut buf, mut scratch) = (Vec::new(), Vec::new());
    let control = Control::unlimited();
    let mut pacer = control.pacer(u64::MAX);
    let random_plies = rng.gen_range(2..=12);
    let mut all = Vec::new();
    let mut ply = 0;
    while !s.is_over() {
        let empties = s.empties().count_ones();
        if (14..=54).contains(&empties) && !s.must_pass() {
            all.push(s);
        }
        let mv = if ply < random_plies || rng.gen_bool(0.1) {
            s.random_move(&mut rng, &mut buf)
        } else {
            match shallow_best(&s, 2, &mut buf, &mut scratch, &mut pacer) {
                Some(mv) => mv,
                None => s.random_move(&mut rng, &mut buf),
            }
        };
        s.apply(mv);
        ply += 1;
    }
    if all.is_empty() || per_game == 0 {
        return Vec::new();
    }
    let step = (all.len() / per_game).max(1);
    let offset = rng.gen_range(0..step);
    all.into_iter()
        .skip(offset)
        .step_by(step)
        .take(per_game)
        .collect()
}

/// Least squares of `y` on `x`: (slope, intercept, residual sigma).
fn regress(pairs: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n = pairs.len() as f64;
    if pairs.len() < 8 {
        return None;
    }
    let (sx, sy) = pairs
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x, b + y));
    let (mx, my) = (sx / n, sy / n);
    let (sxx, sxy) = pairs.iter().fold((0.0, 0.0), |(a, b), &(x, y)| {
        (a + (x - mx) * (x - mx), b + (x - mx) * (y - my))
    });
    if sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let ssr: f64 = pairs
        .iter()
        .map(|&(x, y)| (y - slope * x - intercept).powi(2))
        .sum();
    Some((slope, intercept, (ssr / (n - 2.0)).sqrt()))
}

/// The most memory the threads' tables may take together, MiB (the
/// engine's `hash` limit).
const MAX_TABLES_MIB: u64 = 65536;

impl CalibrateArgs {
    /// Checks every number before anything is searched: games 1 to
    /// 100000, positions a game 1 to 60, depth [`MIN_DEPTH`] to
    /// [`MAX_DEPTH`], threads 1 to the cores (256 with `--force-threads`),
    /// hash 1 MiB a thread to 65536 MiB for all threads together.
    pub fn check(&self) -> Result<(), ArgError> {
        within("--games", self.games, 1..=100_000)?;
        within("--per-game", self.per_game, 1..=60)?;
        within("--depth", self.depth, MIN_DEPTH..=MAX_DEPTH)?;
        let threads = tool_args::threads("--threads", self.threads, self.force_threads)?;
        within("--hash", self.hash, 1..=MAX_TABLES_MIB / threads as u64)?;
        Ok(())
    }
}

/// Runs the calibration; returns the report, ending with the table to
/// paste into [`PARAMS`]. An error for bad arguments, or when no stage
/// and depth had the positions to fit (the table would be guesses).
pub fn calibrate(args: &CalibrateArgs) -> Result<String, String> {
    args.check().map_err(|e| e.to_string())?;
    let started = std::time::Instant::now();
    let positions: Vec<Othello> = (0..args.games)
        .flat_map(|g| game_positions(args.seed, g, args.per_game))
        // The pattern evaluation, ProbCut off: the plain search measured.
        .map(|s| s.with_eval_slot(super::eval::EVAL_BUILTIN).with_probcut(false))
        .collect();
    let threads = args.threads.max(1);
    // Each thread takes every `threads`th position with its own table,
    // cleared before each position: the values do not depend on the
    // thread count.
    let mut values: Vec<(u32, Option<Vec<f64>>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let positions = &positions;
                scope.spawn(move || {
                    let mut search = AlphaBeta::<Othello>::new(args.hash);
                    let mut out = Vec::new();
                    for (i, s) in positions.iter().enumerate().skip(t).step_by(threads) {
                        search.reset();
                        let v = search.depth_values(s, args.depth);
                        out.push((i, s.empties().count_ones(), v));
                        if t == 0 && out.len() % 50 == 0 {
                            eprintln!(
                                "calibrate-probcut: {}/{} positions, {:.0} s",
                                out.len() * threads,
                                positions.len(),
                                started.elapsed().as_secs_f64()
                            );
                        }
                    }
                    out
                })
            })
            .collect();
        let mut all: Vec<(usize, u32, Option<Vec<f64>>)> = handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect();
        all.sort_by_key(|&(i, _, _)| i);
        all.into_iter().map(|(_, e, v)| (e, v)).collect()
    });
    values.retain(|(_, v)| v.is_some());
    let mut report = String::new();
    let _ = writeln!(
        report,
        "{} positions searched to depth {} ({} kept, the others proved a result), {:.0} s",
        positions.len(),
        args.depth,
        values.len(),
        started.elapsed().as_secs_f64()
    );
    let _ = writeln!(
        report,
        "stage empties  depth shallow  n  slope  intercept  sigma (discs)"
    );
    let mut rows = [[None; DEPTHS]; STAGES];
    for (st, row) in rows.iter_mut().enumerate() {
        for d in MIN_DEPTH..=args.depth {
            let shallow = shallow_depth(d);
            let pairs: Vec<(f64, f64)> = values
                .iter()
                .filter(|(e, _)| stage(*e) == st)
                .filter_map(|(_, v)| {
                    let v = v.as_ref()?;
                    let x = *v.get(shallow as usize - 1)?;
                    let y = *v.get(d as usize - 1)?;
                    Some((x * 64.0, y * 64.0))
                })
                .collect();
            let fit = regress(&pairs);
            match fit {
                Some((slope, intercept, sigma)) => {
                    let _ = writeln!(
                        report,
                        "{st:5} {:>7}  {d:5} {shallow:7} {:4} {slope:6.3} {intercept:9.2} {sigma:7.2}",
                        stage_range(st),
                        pairs.len()
                    );
                }
                None => {
                    let _ = writeln!(report, "{st:5} {:>7}  {d:5} too few positions", stage_range(st));
                }
            }
            row[(d - MIN_DEPTH) as usize] = fit;
        }
    }
    if rows.iter().flatten().all(Option::is_none) {
        return Err(format!(
            "{} positions kept of {}: too few to fit any stage and depth (at least 8 each)",
            values.len(),
            positions.len()
        ));
    }
    // What was not measured (a stage too few positions fall in, depths
    // beyond --depth) is taken from the nearest stage measured, then from
    // the deepest depth measured of the same parity.
    let mut table = String::from("const PARAMS: [[(f32, f32, f32); DEPTHS]; STAGES] = [\n");
    for st in 0..STAGES {
        table.push_str("    [");
        for k in 0..DEPTHS {
            let near = (0..STAGES)
                .filter_map(|o| rows[o][k].map(|r| (o.abs_diff(st), r)))
                .min_by_key(|&(dist, _)| dist)
                .map(|(_, r)| r);
            let deeper = || {
                (0..=k)
                    .rev()
                    .filter(|j| (k - j) % 2 == 0)
                    .find_map(|j| rows[st][j])
            };
            let (slope, intercept, sigma) = near.or_else(deeper).unwrap_or((1.0, 0.0, 4.0));
            let _ = write!(table, "({slope:.3}, {intercept:.2}, {sigma:.2}), ");
        }
        table.truncate(table.trim_end().len());
        table.push_str("],\n");
    }
    table.push_str("];\n");
    report.push_str(&table);
    Ok(report)
}

fn stage_range(st: usize) -> String {
    let hi = 60 - 8 * st as u32;
    if st + 1 == STAGES {
        format!("<={hi}")
    } else {
        format!("{}-{hi}", hi - 7)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_depths_keep_the_parity_and_deep_nodes_the_calibrated_gap() {
        for d in MIN_DEPTH..=30 {
            let p = params(40, d).expect("tested from MIN_DEPTH");
            assert_eq!(p.shallow % 2, d % 2, "depth {d}");
            assert!(p.shallow >= 1 && p.shallow < d, "depth {d}");
        }
        assert!(params(40, MIN_DEPTH - 1).is_none());
        assert_eq!(stage(60), 0);
        assert_eq!(stage(53), 0);
        assert_eq!(stage(52), 1);
        assert_eq!(stage(10), STAGES - 1);
    }

    #[test]
    fn the_game_option_and_the_table_evaluation_turn_probcut_off() {
        use crate::options::Options;
        let game = |words: &[&str]| {
            let options = Options::parse(Othello::OPTIONS, words).expect("valid options");
            Othello::new_game(&options).expect("a game")
        };
        assert!(game(&["eval=pattern"]).probcut(6).is_some());
        assert!(game(&["eval=pattern", "probcut=off"]).probcut(6).is_none());
        assert!(game(&["eval=table"]).probcut(6).is_none());
        // A position text keeps the setting.
        let mut g = game(&["eval=pattern", "probcut=off"]);
        let text = g.position_text().expect("othello has one");
        g.set_position(&text).expect("its own text");
        assert!(g.probcut(6).is_none());
    }

    #[test]
    fn the_regression_recovers_a_line() {
        let pairs: Vec<(f64, f64)> = (0..100)
            .map(|i| {
                let x = f64::from(i) - 50.0;
                (x, 0.9 * x + 2.0 + if i % 2 == 0 { 1.0 } else { -1.0 })
            })
            .collect();
        let (slope, intercept, sigma) = regress(&pairs).expect("enough pairs");
        assert!((slope - 0.9).abs() < 0.01, "{slope}");
        assert!((intercept - 2.0).abs() < 0.05, "{intercept}");
        assert!((sigma - 1.0).abs() < 0.05, "{sigma}");
    }
}
