//! `tabula calibrate-probcut`: self-play positions searched at every
//! depth, the deep value regressed on the shallow one per depth and stage;
//! prints the table that `games/othello/probcut.rs` holds. A tool above
//! the searches, so that the game never knows one.

use std::fmt::Write as _;

use rand::rngs::SmallRng;
use rand::{Rng as _, SeedableRng};

use super::workers::{Workers, othello_settings};
use crate::control::Control;
use crate::engine::searchers::alpha_beta;
use crate::games::othello::Othello;
use crate::games::othello::eval::OthelloEval;
use crate::games::othello::probcut::{DEPTHS, MAX_DEPTH, MIN_DEPTH, STAGES, shallow_depth, stage};
use crate::model::game::Game;
use crate::search::Search as _;
use crate::search::playout::shallow_best_within;
use crate::tools::args::{ArgError, within};

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
    /// Worker threads (generation and labelling, or searches) and seed.
    #[command(flatten)]
    pub workers: Workers,
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
            match shallow_best_within(
                &s,
                &OthelloEval::default(),
                2,
                &mut buf,
                &mut scratch,
                &mut pacer,
                u64::MAX,
            )
            .0
            {
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
        let threads = self.workers.checked_threads()?;
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
        .flat_map(|g| game_positions(args.workers.seed, g, args.per_game))
        .collect();
    let mut values = depth_values(args, &positions, started);
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
    let rows = fit_rows(&values, args.depth, &mut report);
    if rows.iter().flatten().all(Option::is_none) {
        return Err(format!(
            "{} positions kept of {}: too few to fit any stage and depth (at least 8 each)",
            values.len(),
            positions.len()
        ));
    }
    report.push_str(&params_table(&rows));
    Ok(report)
}

/// Each position's empties and its values at every depth to `--depth`
/// (`None` where a search proved a result), in the positions' order.
/// The engine's alpha-beta for Othello on the built-in pattern
/// evaluation, ProbCut off: the plain search measured. Each thread takes
/// every `threads`th position with its own table, cleared before each
/// position: the values do not depend on the thread count.
fn depth_values(
    args: &CalibrateArgs,
    positions: &[Othello],
    started: std::time::Instant,
) -> Vec<(u32, Option<Vec<f64>>)> {
    let mut settings = othello_settings(args.hash);
    settings.probcut = false;
    let settings = &settings;
    let threads = args.workers.threads.max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut search = alpha_beta::<Othello>(settings, OthelloEval::Builtin);
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
    })
}

/// Per stage and depth, the fit of the deep value on the shallow one
/// (slope, intercept, sigma in discs), where there were the positions.
type Fits = [[Option<(f64, f64, f64)>; DEPTHS]; STAGES];

/// A fit of each stage's and depth's (to `depth`) deep value on its
/// shallow one, from the positions' `values`, with a report line each;
/// `None` where too few positions fell in.
fn fit_rows(values: &[(u32, Option<Vec<f64>>)], depth: u32, report: &mut String) -> Fits {
    let _ = writeln!(
        report,
        "stage empties  depth shallow  n  slope  intercept  sigma (discs)"
    );
    let mut rows = [[None; DEPTHS]; STAGES];
    for (st, row) in rows.iter_mut().enumerate() {
        for d in MIN_DEPTH..=depth {
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
                    let _ = writeln!(
                        report,
                        "{st:5} {:>7}  {d:5} too few positions",
                        stage_range(st)
                    );
                }
            }
            row[(d - MIN_DEPTH) as usize] = fit;
        }
    }
    rows
}

/// The table to paste into [`PARAMS`]. What was not measured (a stage
/// too few positions fall in, depths beyond --depth) is taken from the
/// nearest stage measured, then from the deepest depth measured of the
/// same parity.
fn params_table(rows: &Fits) -> String {
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
    table
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
