//! `tabula bench`: the speed figures of this build, measured on the spot.
//!
//! Perft, Monte Carlo simulations per second (Othello, Quoridor 9x9,
//! Hearts information-set search), alpha-beta nodes a second and time to
//! depth, and exact endgame solves of the FFO test positions when their
//! file is at hand. Every parallel search is measured on one thread and on
//! every core (or `--threads N`), alternating, with the speed-up.
//! Times are wall-clock on whatever else the machine is doing: compare
//! figures taken in one run, not across runs.

pub mod latency;

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use rand::SeedableRng;

use crate::engine::settings::Settings;
use crate::engine::signature::othello_alpha_beta;
use crate::games::hearts::Hearts;
use crate::games::othello::endgame::solve_exact;
use crate::games::othello::{Othello, random_position};
use crate::games::quoridor::Quoridor;
use crate::model::game::{Game, Rng, Turn};
use crate::model::options::Options;
use crate::search::alphabeta::AlphaBeta;
use crate::search::ismcts::Ismcts;
use crate::search::mcts::{Mcts, MctsConfig};
use crate::search::pimc::Pimc;
use crate::search::sampling::SampledSearch as _;
use crate::search::{Budget, Control, Search};
use crate::tools::args::{self, ArgError, within};
use crate::tools::perft::perft;

/// What to measure.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// Seconds per simulation-rate figure.
    pub seconds: f64,
    /// Perft depth for Othello.
    pub perft_depth: u32,
    /// Folder of the FFO `.obf` files (positions #40-#44 are solved if found).
    pub ffo: Option<std::path::PathBuf>,
    /// How many FFO positions from #40 on to solve.
    pub ffo_count: usize,
    /// MiB for the solver's transposition table.
    pub hash_mib: usize,
    /// Runs of each figure; the report gives their median.
    pub runs: usize,
    /// Threads that alpha-beta and the FFO solves compare with one thread.
    pub threads: usize,
}

/// How long `tabula bench` measures: seconds a rate, perft depth, FFO
/// positions solved, runs of each figure.
#[derive(Clone, Copy, Debug)]
pub struct Lengths {
    /// Seconds per simulation-rate figure.
    pub seconds: f64,
    /// Othello perft depth.
    pub perft_depth: u32,
    /// FFO positions from #40 on.
    pub ffo_count: usize,
    /// Runs of each figure.
    pub runs: usize,
}

/// The full report's lengths (minutes).
pub const FULL: Lengths = Lengths {
    seconds: 3.0,
    perft_depth: 11,
    ffo_count: 5,
    runs: 3,
};

/// `--quick`: one run of each figure, short (under a minute on an idle
/// machine).
pub const QUICK: Lengths = Lengths {
    seconds: 1.0,
    perft_depth: 9,
    ffo_count: 1,
    runs: 1,
};

/// The deepest Othello perft `tabula bench` runs: depth 13 counts 18.4
/// billion leaves (minutes a run), 14 ten times as many.
pub const MAX_PERFT_DEPTH: u32 = 13;

/// The FFO positions from #40 on in `fforum-40-59.obf`.
pub const FFO_POSITIONS: usize = 20;

impl BenchConfig {
    /// The configuration if every figure is in range: seconds a figure
    /// 0.1 to 600, perft depth 1 to [`MAX_PERFT_DEPTH`], FFO positions 0
    /// to 20, hash 1 to 65536 MiB (the engine's `hash`), runs 1 to 100,
    /// threads 1 to the cores (to 256 if `force_threads`).
    pub fn validated(self, force_threads: bool) -> Result<BenchConfig, ArgError> {
        within("--seconds", self.seconds, 0.1..=600.0)?;
        within("--perft", self.perft_depth, 1..=MAX_PERFT_DEPTH)?;
        within("--ffo-count", self.ffo_count, 0..=FFO_POSITIONS)?;
        within("--hash", self.hash_mib, 1..=65536)?;
        within("--runs", self.runs, 1..=100)?;
        args::threads("--threads", self.threads, force_threads)?;
        Ok(self)
    }
}

/// Checks the numbers of a `--latency` run: rounds 1 to 100000, move
/// times 1 ms to an hour, threads 1 to the cores (the engine's own
/// `threads` refuses more, forced or not), and a clock's main time and
/// byo-yomi finite, 0 to a million seconds, with some time to play and
/// stones in a byo-yomi period.
pub fn check_latency(config: &latency::LatencyConfig) -> Result<(), ArgError> {
    within("--rounds", config.rounds, 1..=100_000)?;
    for &ms in &config.movetimes {
        within("--movetime", ms, 1..=3_600_000)?;
    }
    args::threads("--threads", config.threads, false)?;
    if let Some((main, byoyomi, stones)) = config.clock {
        within("--clock main time", main, 0.0..=1e6)?;
        within("--clock byo-yomi", byoyomi, 0.0..=1e6)?;
        within("--clock stones", stones, 0..=1_000_000)?;
        // The referee's clock checks the rest (a period has stones).
        latency::referee_clock((main, byoyomi, stones))
            .map_err(|e| ArgError::Conflict(e.to_string()))?;
    }
    Ok(())
}

/// Simulations per second of `search` on `root` for `seconds`.
fn rate<G: Game, S: Search<G>>(search: S, root: &G, seconds: f64) -> (u64, f64) {
    let (r, rate) = timed(search, root, seconds);
    (r.iterations, rate)
}

/// The result of `search` on `root` for `seconds`, and its iterations a
/// second.
fn timed<G: Game, S: Search<G>>(
    mut search: S,
    root: &G,
    seconds: f64,
) -> (crate::search::SearchResult<G::Move>, f64) {
    let budget = Budget {
        time: Some(Duration::from_secs_f64(seconds)),
        ..Budget::default()
    };
    searched(&mut search, root, &budget)
}

/// The result of `search` on `root` under `budget`, and its iterations a
/// second.
fn searched<G: Game, S: Search<G>>(
    search: &mut S,
    root: &G,
    budget: &Budget,
) -> (crate::search::SearchResult<G::Move>, f64) {
    let control = Control::new(
        std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
        budget,
    );
    let mut rng = Rng::seed_from_u64(1);
    let seat = match root.turn() {
        Turn::Player(p) => p,
        _ => 0,
    };
    let started = Instant::now();
    let r = search.search(root, seat, budget, &control, &mut rng);
    let rate = r.iterations as f64 / started.elapsed().as_secs_f64();
    (r, rate)
}

/// Othello middle-game positions for alpha-beta's time to depth: random
/// games from fixed seeds, stopped at 50, 48, 46... empty squares.
fn midgame_positions(count: usize) -> Vec<Othello> {
    (0..count as u32)
        .map(|i| random_position(u64::from(i), 50 - 2 * i))
        .collect()
}

/// Iterations a second of a search on one thread and on `threads`, run
/// after run alternating (so that both see the same moments of a shared
/// machine): the one-thread rates, and the report line `{label}, N
/// threads: R {unit}/s, S x one thread` with the median of each run's
/// ratio as the speed-up.
fn thread_rates(
    label: &str,
    unit: &str,
    runs: usize,
    threads: usize,
    mut rate_on: impl FnMut(usize) -> f64,
) -> (Vec<f64>, String) {
    let (mut one, mut many, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        let r1 = rate_on(1);
        let rn = rate_on(threads);
        one.push(r1);
        many.push(rn);
        ratio.push(rn / r1);
    }
    let (speedup, range) = median_and_range(&ratio, 2);
    let line = format!(
        "{label}, {threads} threads: {} {unit}/s, {speedup:.2}x one thread{range}",
        rate_text(&many)
    );
    (one, line)
}

/// Seconds `search` takes to search every one of `positions` to `depth`,
/// from an empty table each time.
/// The settings the engine plays `game` with by default (its tuning row).
fn tuned(game: &str, seats: usize) -> Settings {
    Settings::for_game(game, seats, &[])
}

fn time_to_depth(search: &mut AlphaBeta<Othello>, positions: &[Othello], depth: u32) -> f64 {
    let budget = Budget {
        depth: Some(depth),
        ..Budget::default()
    };
    let started = Instant::now();
    for p in positions {
        search.reset();
        searched(search, p, &budget);
    }
    started.elapsed().as_secs_f64()
}

/// A Hearts hand (no passing) dealt from a fixed seed, with the 2C trick
/// played: the first real decision, shared by `tabula bench` and the
/// criterion suite.
pub fn first_decision_of_a_hand() -> Option<Hearts> {
    let options = Options::parse(Hearts::OPTIONS, &["pass=none"]).ok()?;
    let mut game = Hearts::new_game(&options).ok()?;
    let mut rng = Rng::seed_from_u64(5);
    let mut buf = Vec::new();
    // Deal, then play the 2C trick so the first real decision is next.
    while game.turn() == Turn::Chance {
        let mv = game.sample_chance(&mut rng);
        game.apply(mv);
    }
    for _ in 0..4 {
        let mv = game.random_move(&mut rng, &mut buf);
        game.apply(mv);
    }
    Some(game)
}

/// `values` in increasing order (for medians and quantiles).
pub(crate) fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

/// The median of `values` (the mean of the middle two for an even count;
/// 0 for none) and, when there are several, their range as
/// ` (runs low..high)` with `decimals` digits.
fn median_and_range(values: &[f64], decimals: usize) -> (f64, String) {
    let v = sorted(values);
    match v.len() {
        0 => (0.0, String::new()),
        1 => (v[0], String::new()),
        n => (
            (v[(n - 1) / 2] + v[n / 2]) / 2.0,
            format!(" (runs {:.decimals$}..{:.decimals$})", v[0], v[n - 1]),
        ),
    }
}

/// A rate figure: the median, and the range when there are several runs.
fn rate_text(values: &[f64]) -> String {
    let (median, range) = median_and_range(values, 0);
    format!("{median:.0}{range}")
}

/// Middle-game positions of the alpha-beta time-to-depth figure.
const TTD_POSITIONS: usize = 8;

/// The report as it is written: each whole line goes to `emit` as soon
/// as it is measured (a person at a terminal sees the figures come), and
/// the whole text is kept for the caller.
struct Report<'a> {
    text: String,
    pending: String,
    emit: &'a mut dyn FnMut(&str),
}

impl std::fmt::Write for Report<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.pending.push_str(s);
        while let Some(end) = self.pending.find('\n') {
            let line: String = self.pending.drain(..=end).collect();
            (self.emit)(line.trim_end_matches('\n'));
            self.text.push_str(&line);
        }
        Ok(())
    }
}

/// What `tabula bench` is measuring now, for a progress line: called
/// before each figure with its name.
pub type Progress<'a> = &'a mut dyn FnMut(&str);

/// Runs the benchmark and returns the report.
pub fn run(config: &BenchConfig) -> String {
    run_reporting(config, &mut |_| {}, &mut |_| {})
}

/// Runs the benchmark: each line of the report goes to `emit` as soon as
/// its figure is measured, and `progress` hears what is measured next;
/// returns the whole report.
pub fn run_reporting(
    config: &BenchConfig,
    emit: &mut dyn FnMut(&str),
    progress: Progress<'_>,
) -> String {
    let runs = config.runs.max(1);
    let mut bench = Bench {
        out: Report {
            text: String::new(),
            pending: String::new(),
            emit,
        },
        progress,
        config,
        runs,
        threads: config.threads.max(1),
    };
    let _ = writeln!(
        bench.out,
        "tabula bench {} ({} cores seen; medians of {runs} run{})",
        env!("CARGO_PKG_VERSION"),
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        if runs == 1 { "" } else { "s" }
    );
    (bench.progress)("the build signature");
    let _ = writeln!(bench.out, "{}", crate::engine::signature::measure().line());
    let start = Othello::start();
    bench.perft(&start);
    bench.mcts(&start);
    bench.hearts();
    bench.alpha_beta(&start);
    if bench.threads > 1 {
        bench.lazy_smp_time_to_depth();
    }
    if let Some(dir) = &config.ffo {
        bench.ffo(dir);
    }
    bench.out.text
}

/// One run of the benchmark: where its lines go, and what each figure
/// is measured with. Each method measures one group of figures and
/// writes its lines, in the report's order.
struct Bench<'a> {
    out: Report<'a>,
    progress: Progress<'a>,
    config: &'a BenchConfig,
    /// Runs of each figure (at least 1).
    runs: usize,
    /// Threads of the many-thread figures (at least 1; 1: none).
    threads: usize,
}

impl Bench<'_> {
    /// Othello perft from `start`.
    fn perft(&mut self, start: &Othello) {
        let depth = self.config.perft_depth;
        (self.progress)(&format!("othello perft {depth}"));
        let mut leaves = 0;
        let mut times = Vec::new();
        for _ in 0..self.runs {
            let t = Instant::now();
            leaves = perft(start, depth);
            times.push(t.elapsed().as_secs_f64());
        }
        let (secs, range) = median_and_range(&times, 3);
        let _ = writeln!(
            self.out,
            "othello perft {depth}: {leaves} leaves in {secs:.3} s{range}, {:.1} M leaves/s",
            leaves as f64 / secs / 1e6
        );
    }

    /// MCTS simulations a second: Othello from `start` on one thread (and
    /// on every thread), Quoridor 9x9 on one.
    fn mcts(&mut self, start: &Othello) {
        let (s, runs, threads) = (self.config.seconds, self.runs, self.threads);
        let mcts = |n: usize| {
            let config = MctsConfig {
                threads: n,
                ..MctsConfig::uct(1.4)
            };
            rate(Mcts::<Othello>::new(config), start, s).1
        };
        let label = "othello mcts, random playouts";
        (self.progress)(label);
        let (one, many) = if threads > 1 {
            let (one, line) = thread_rates(label, "simulations", runs, threads, mcts);
            (one, Some(line))
        } else {
            ((0..runs).map(|_| mcts(1)).collect(), None)
        };
        let _ = writeln!(
            self.out,
            "{label}, 1 thread: {} simulations/s ({s} s a run)",
            rate_text(&one)
        );
        if let Some(line) = many {
            let _ = writeln!(self.out, "{line}");
        }

        if let Ok(q) = Quoridor::new_game(&Options::default()) {
            (self.progress)("quoridor 9x9 mcts");
            let rates: Vec<f64> = (0..runs)
                .map(|_| {
                    let config = MctsConfig {
                        reward_decay: tuned(Quoridor::NAME, 2).reward_decay,
                        ..MctsConfig::uct(1.4)
                    };
                    rate(Mcts::<Quoridor>::new(config), &q, s).1
                })
                .collect();
            let _ = writeln!(
                self.out,
                "quoridor 9x9 mcts, random playouts, 1 thread: {} simulations/s",
                rate_text(&rates)
            );
        }
    }

    /// The card searches' iterations a second at Hearts' first real
    /// decision: ISMCTS on one thread, ISMCTS and PIMC on every thread.
    fn hearts(&mut self) {
        let Some(h) = first_decision_of_a_hand() else {
            return;
        };
        let (s, runs, threads) = (self.config.seconds, self.runs, self.threads);
        // Hearts' tuning as the engine plays it, at c 0.7.
        let tuning = tuned(Hearts::NAME, 4);
        let ismcts = || Ismcts::new(0.7 * tuning.ismcts_c_scale).with_rules(tuning.playout_rules);
        let pimc = || Pimc::new(0.7).with_rules(tuning.playout_rules);
        (self.progress)("hearts ismcts");
        let rates: Vec<f64> = (0..runs).map(|_| rate(ismcts(), &h, s).1).collect();
        let _ = writeln!(
            self.out,
            "hearts ismcts, first decision after the 2C trick: {} iterations/s",
            rate_text(&rates)
        );
        if threads > 1 {
            // The card searches on every core, each run against a one-thread
            // run beside it in time.
            for (name, with) in [("ismcts", true), ("pimc", false)] {
                let rate_on = |n: usize| {
                    if with {
                        rate(ismcts().with_threads(n), &h, s).1
                    } else {
                        rate(pimc().with_threads(n), &h, s).1
                    }
                };
                let label = format!("hearts {name}");
                (self.progress)(&format!("{label} on {threads} threads"));
                let (_, line) = thread_rates(&label, "iterations", runs, threads, rate_on);
                let _ = writeln!(self.out, "{line}");
            }
        }
    }

    /// Alpha-beta from `start` for the same time on one thread and on
    /// every core, alternating: nodes a second of all threads, and the
    /// depth the main thread completed.
    fn alpha_beta(&mut self, start: &Othello) {
        let (s, threads) = (self.config.seconds, self.threads);
        let counts: &[usize] = if threads > 1 { &[1, threads] } else { &[1] };
        for &n in counts {
            (self.progress)(&format!(
                "othello alphabeta on {n} thread{}",
                if n == 1 { "" } else { "s" }
            ));
            let mut rates = Vec::new();
            let mut depths = Vec::new();
            for _ in 0..self.runs {
                let search = othello_alpha_beta(self.config.hash_mib as u64).with_threads(n);
                let (result, rate) = timed(search, start, s);
                rates.push(rate);
                depths.push(result.depth as f64);
            }
            let (depth, _) = median_and_range(&depths, 0);
            let _ = writeln!(
                self.out,
                "othello alphabeta, {n} thread{}: {} nodes/s, depth {depth:.0} in {s} s",
                if n == 1 { "" } else { "s" },
                rate_text(&rates)
            );
        }
    }

    /// Time to depth, the figure lazy SMP is judged by (its helpers' nodes
    /// are partly spent again, so nodes a second overstate it): the depth
    /// is the first that one thread needs `s` seconds for over the
    /// positions (at most 24), so the runs are long enough to measure on
    /// any core count.
    fn lazy_smp_time_to_depth(&mut self) {
        let (s, threads, hash_mib) = (self.config.seconds, self.threads, self.config.hash_mib);
        (self.progress)("othello alphabeta time to depth");
        let positions = midgame_positions(TTD_POSITIONS);
        let mut one = othello_alpha_beta(hash_mib as u64);
        let mut many = othello_alpha_beta(hash_mib as u64).with_threads(threads);
        let mut depth = 6;
        while depth < 24 && time_to_depth(&mut one, &positions, depth) < s {
            depth += 1;
        }
        let (mut ones, mut manys, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..self.runs {
            let a = time_to_depth(&mut one, &positions, depth);
            let b = time_to_depth(&mut many, &positions, depth);
            ones.push(a);
            manys.push(b);
            ratios.push(a / b);
        }
        let (a, _) = median_and_range(&ones, 2);
        let (b, _) = median_and_range(&manys, 2);
        let (speedup, range) = median_and_range(&ratios, 2);
        let _ = writeln!(
            self.out,
            "othello alphabeta, depth {depth} on {TTD_POSITIONS} positions: {a:.2} s on 1 thread, {b:.2} s on {threads}: {speedup:.2}x{range}"
        );
    }

    /// The FFO endgame positions #40 on of the folder `dir`, one line
    /// each, and the whole set's speed-up on every thread.
    fn ffo(&mut self, dir: &Path) {
        let (runs, threads, count) = (self.runs, self.threads, self.config.ffo_count);
        let path = dir.join("fforum-40-59.obf");
        // The one reader of named files: a regular file, checked first.
        let text = match crate::files::input::read_text(
            &path,
            &crate::files::input::POSITIONS,
            &crate::files::input::never,
        ) {
            Ok(text) => text,
            Err(e) => {
                let _ = writeln!(self.out, "ffo: {e}");
                return;
            }
        };
        let mut totals = [Vec::new(), Vec::new()];
        for (i, line) in text.lines().take(count).enumerate() {
            (self.progress)(&format!("ffo #{}", 40 + i));
            let solved = solve_line(40 + i, line, self.config.hash_mib << 20, runs, threads);
            let _ = writeln!(self.out, "{}", solved.text);
            for (total, times) in totals.iter_mut().zip(&solved.times) {
                total.push(times.clone());
            }
        }
        if threads > 1 && count > 0 {
            // Run k of the whole set: the sum of every position's run k.
            let solved = totals[0].len();
            let sums = totals.map(|per_position| {
                (0..runs)
                    .map(|k| per_position.iter().map(|t: &Vec<f64>| t[k]).sum::<f64>())
                    .collect::<Vec<f64>>()
            });
            let ratios: Vec<f64> = sums[0].iter().zip(&sums[1]).map(|(a, b)| a / b).collect();
            let (one, _) = median_and_range(&sums[0], 2);
            let (many, _) = median_and_range(&sums[1], 2);
            let (speedup, range) = median_and_range(&ratios, 2);
            let _ = writeln!(
                self.out,
                "ffo #40-#{}: {one:.2} s on 1 thread, {many:.2} s on {threads}: {speedup:.2}x{range}",
                39 + solved
            );
        }
    }
}

/// One FFO position's report line, and its solve times: run by run, on one
/// thread and on several.
struct FfoSolve {
    text: String,
    times: [Vec<f64>; 2],
}

/// Solves one `.obf` line `runs` times on one thread and, alternating with
/// those, on `threads` (if more than one), and reports the median times,
/// the speed-up (the median of each run pair's ratio), the nodes, and the
/// score against the one the file gives.
fn solve_line(
    number: usize,
    line: &str,
    table_bytes: usize,
    runs: usize,
    threads: usize,
) -> FfoSolve {
    let failed = |text: String| FfoSolve {
        text,
        times: [vec![0.0; runs], vec![0.0; runs]],
    };
    let Some(position) = line.get(..66) else {
        return failed(format!("ffo #{number}: line too short"));
    };
    let mut game = Othello::start();
    if let Err(e) = game.set_position(position) {
        return failed(format!("ffo #{number}: {e}"));
    }
    let expected: Option<i32> = line
        .get(66..)
        .and_then(|rest| rest.split(';').nth(1))
        .and_then(|m| m.split(':').nth(1))
        .and_then(|v| v.trim().trim_start_matches('+').parse().ok());
    let counts: &[usize] = if threads > 1 { &[1, threads] } else { &[1] };
    let mut results = [None, None];
    let mut times = [Vec::new(), Vec::new()];
    let mut cpu = [Vec::new(), Vec::new()];
    for _ in 0..runs.max(1) {
        for (k, &n) in counts.iter().enumerate() {
            let control = Control::unlimited().with_threads(n);
            let (t, c) = (Instant::now(), process_cpu());
            results[k] = solve_exact(game.player(), game.opponent(), &control, table_bytes);
            times[k].push(t.elapsed().as_secs_f64());
            cpu[k].push(process_cpu().zip(c).map_or(0.0, |(b, a)| b - a));
        }
    }
    let check = |r: &Option<(u8, i32, u64)>| match *r {
        Some((mv, score, _)) => {
            let verdict = match expected {
                Some(e) if e == score => "exact".to_string(),
                Some(e) => format!("WRONG, expected {e:+}"),
                None => "no reference".to_string(),
            };
            format!(
                "{} {score:+} ({verdict})",
                crate::games::othello::square_name(mv)
            )
        }
        None => "not solved".to_string(),
    };
    let (secs, range) = median_and_range(&times[0], 2);
    let nodes = results[0].map_or(0, |r| r.2);
    let mut text = format!(
        "ffo #{number}: {} empties, best {} in {secs:.2} s{range}, {nodes} nodes, {:.1} M nodes/s",
        game.empties().count_ones(),
        check(&results[0]),
        nodes as f64 / secs / 1e6
    );
    if threads > 1 {
        let ratios: Vec<f64> = times[0].iter().zip(&times[1]).map(|(a, b)| a / b).collect();
        let (secs, _) = median_and_range(&times[1], 2);
        let (speedup, range) = median_and_range(&ratios, 2);
        let (busy, _) = median_and_range(
            &cpu[1]
                .iter()
                .zip(&times[1])
                .map(|(c, t)| c / t)
                .collect::<Vec<f64>>(),
            2,
        );
        let _ = write!(
            text,
            "; {threads} threads: {} in {secs:.2} s, {speedup:.2}x{range}, {} nodes, {busy:.2} cores busy",
            check(&results[1]),
            results[1].map_or(0, |r| r.2)
        );
    }
    FfoSolve { text, times }
}

/// CPU time of this process so far, in seconds (all its threads).
#[cfg(not(unix))]
fn process_cpu() -> Option<f64> {
    None
}

/// CPU time of this process so far, in seconds (all its threads).
#[cfg(unix)]
fn process_cpu() -> Option<f64> {
    let ts = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    std::time::Duration::try_from(ts)
        .ok()
        .map(|t| t.as_secs_f64())
}

/// The default folder of the FFO files: `../shared/data/ffo` beside the
/// project, if it exists.
pub fn default_ffo_dir() -> Option<std::path::PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/ffo");
    p.is_dir().then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each line reaches the caller as soon as its figure is measured:
    /// the progress of a figure is told before its line, and every line
    /// comes before the next figure starts, in the report's order.
    #[test]
    fn each_figure_is_reported_as_it_is_measured() {
        let config = BenchConfig {
            seconds: 0.1,
            perft_depth: 1,
            ffo: None,
            ffo_count: 0,
            hash_mib: 1,
            runs: 1,
            threads: 1,
        };
        let events = std::cell::RefCell::new(Vec::new());
        let report = run_reporting(
            &config,
            &mut |line| events.borrow_mut().push(format!("line {line}")),
            &mut |what| events.borrow_mut().push(format!("measuring {what}")),
        );
        let events = events.into_inner();
        let lines: Vec<String> = events
            .iter()
            .filter_map(|e| e.strip_prefix("line ").map(str::to_string))
            .collect();
        assert_eq!(lines, report.lines().collect::<Vec<_>>());
        // The header before anything is measured, the signature's line
        // before perft starts, perft's line before the Monte Carlo rate.
        assert!(events[0].starts_with("line tabula bench"), "{events:?}");
        let at = |prefix: &str| {
            events
                .iter()
                .position(|e| e.starts_with(prefix))
                .unwrap_or_else(|| panic!("no {prefix}: {events:?}"))
        };
        assert!(at("measuring the build signature") < at("line signature"));
        assert!(at("line signature") < at("measuring othello perft"));
        assert!(at("line othello perft") < at("measuring othello mcts"));
        assert!(at("measuring othello alphabeta") < at("line othello alphabeta"));
    }
}
