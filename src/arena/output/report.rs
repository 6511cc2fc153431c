//! The report of a match, computed from its record alone (so a merged
//! record gives the same report as one long run): results per pairing
//! with Elo and LOS, SPRT, results per seat, a cross-table for round
//! robins, and the faults of each engine.

use std::fmt::Write as _;

use crate::arena::ground::pairings::pairings;
use crate::arena::record::match_file::{Ending, Fault, MatchRecord};
use crate::arena::stats::elo::{
    self as stats, EloEstimate, Wdl, elo_estimate, fmt_elo, fmt_estimate, los,
};
use crate::arena::stats::pentanomial::{self, DealCounts, DealEstimate, DealTally, NELO_PER_T};
use crate::arena::stats::sprt::{Sprt, SprtDecision};

/// The Elo curve of a two-engine match (see [`Summary::curve`]).
///
/// The SPRT's LLR on it is over the deals complete at each point, as the
/// running match decides.
fn elo_curve(rec: &MatchRecord, sprt: Option<Sprt>) -> Vec<CurvePoint> {
    let scores = pentanomial::pair_scores(rec, 0, 1);
    let n = scores.len() as u64;
    let step = n.div_ceil(CURVE_POINTS).max(1);
    let mut wdl = Wdl::default();
    let mut deals = DealTally::new(pentanomial::rotation_of(&scores));
    let mut curve = Vec::new();
    for (deal, score) in scores {
        wdl.add(score);
        deals.add(deal, score);
        let games = wdl.games();
        if games % step == 0 || games == n {
            curve.push(CurvePoint {
                games,
                elo: elo_estimate(&wdl),
                llr: sprt.map(|t| t.llr_deals(&deals.counts)),
            });
        }
    }
    curve
}

/// Normalised Elo of games counted alone: the t-value of the game score
/// times `800 / ln 10`, with the interval of the score.
fn trinomial_nelo(wdl: &Wdl, e: &EloEstimate) -> (f64, f64, f64) {
    let sigma = stats::variance_estimate(wdl).sqrt();
    let nelo = |s: f64| (s - 0.5) / sigma * NELO_PER_T;
    (
        nelo(wdl.score()),
        nelo(e.score_interval.0),
        nelo(e.score_interval.1),
    )
}

/// The results of one pairing, from the first engine's side.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingStats {
    /// The first engine (index).
    pub first: usize,
    /// The second engine (index).
    pub second: usize,
    /// The first engine's wins, draws and losses.
    pub wdl: Wdl,
    /// The first engine's Elo advantage, if any game counted.
    pub elo: Option<EloEstimate>,
    /// The likelihood that the first engine is stronger.
    pub los: f64,
    /// The first engine's deal scores (game pairs for two seats).
    pub deals: DealCounts,
    /// What the deals say, when one is complete.
    pub deal_estimate: Option<DealEstimate>,
    /// The first engine's mean share of the seats, when it is not one
    /// half (an uneven `--table` such as ABBB): the score of equal
    /// engines when every game has one winner. The Elo and LOS assume
    /// one half.
    pub parity: Option<f64>,
}

/// Everything the report says about one engine.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineStats {
    /// Its name.
    pub name: String,
    /// Its results against everyone.
    pub wdl: Wdl,
    /// Its results at each seat (a seat's own result: 1, ½ or 0).
    pub per_seat: Vec<Wdl>,
    /// Its mean score in the game's own unit at each seat (discs, points),
    /// over games ended by the rules.
    pub seat_points: Vec<Option<f64>>,
    /// Games it forfeited, by fault (indexed like [`Fault::ALL`]).
    pub faults: [u64; 6],
    /// Games it resigned.
    pub resigns: u64,
}

impl EngineStats {
    /// Games it forfeited by `fault`.
    pub fn fault_count(&self, fault: Fault) -> u64 {
        Fault::ALL
            .iter()
            .position(|&f| f == fault)
            .map_or(0, |i| self.faults[i])
    }
}

/// Counts of how games ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Endings {
    /// By the rules.
    pub normal: u64,
    /// By resignation.
    pub resign: u64,
    /// Drawn at the move limit.
    pub move_limit: u64,
    /// Decided by `--adjudicate`.
    pub adjudicated: u64,
    /// Forfeited by a fault.
    pub forfeit: u64,
    /// Not counted (runner errors).
    pub error: u64,
}

/// The SPRT's state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    /// The test.
    pub test: Sprt,
    /// The log-likelihood ratio now.
    pub llr: f64,
    /// The decision.
    pub decision: SprtDecision,
}

/// One point of the Elo curve: the first pairing after some games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurvePoint {
    /// Games of the pairing counted so far.
    pub games: u64,
    /// The first engine's Elo advantage after them.
    pub elo: Option<EloEstimate>,
    /// The SPRT's log-likelihood ratio after them, when an SPRT is on.
    pub llr: Option<f64>,
}

/// The most points the Elo curve keeps (evenly spread, the last included).
pub const CURVE_POINTS: u64 = 200;

/// The computed report of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Per engine, in record order.
    pub engines: Vec<EngineStats>,
    /// Per pairing (every pair of engines).
    pub pairings: Vec<PairingStats>,
    /// Each seat's results whoever sat there.
    pub seats: Vec<Wdl>,
    /// How games ended.
    pub endings: Endings,
    /// The SPRT (two engines only).
    pub sprt: Option<SprtStatus>,
    /// Games played (including uncounted ones).
    pub games: usize,
    /// The first pairing's Elo (and SPRT LLR) over its games, in the
    /// order of the game numbers, when the match has two engines.
    pub curve: Vec<CurvePoint>,
}

impl Endings {
    /// Counts a game's ending (and the resignation or the fault of the
    /// engine it names); false for a runner error, a game left out.
    fn count(&mut self, ending: &Ending, engines: &mut [EngineStats]) -> bool {
        match ending {
            Ending::Normal => self.normal += 1,
            Ending::MoveLimit => self.move_limit += 1,
            Ending::Adjudicated(_) => self.adjudicated += 1,
            Ending::Resign(e) => {
                self.resign += 1;
                if let Some(s) = engines.get_mut(*e) {
                    s.resigns += 1;
                }
            }
            Ending::Forfeit { engine, fault, .. } => {
                self.forfeit += 1;
                if let (Some(s), Some(i)) = (
                    engines.get_mut(*engine),
                    Fault::ALL.iter().position(|f| f == fault),
                ) {
                    s.faults[i] += 1;
                }
            }
            Ending::Error(_) => {
                self.error += 1;
                return false;
            }
        }
        true
    }
}

impl Summary {
    /// Computes the summary of a record, with an optional SPRT on the first
    /// pairing.
    pub fn compute(rec: &MatchRecord, sprt: Option<Sprt>) -> Summary {
        let n_seats = rec
            .games
            .iter()
            .map(|g| g.seats.len())
            .max()
            .unwrap_or(rec.seat_names.len());
        let mut engines: Vec<EngineStats> = rec
            .engines
            .iter()
            .map(|e| EngineStats {
                name: e.name.clone(),
                per_seat: vec![Wdl::default(); n_seats],
                seat_points: vec![None; n_seats],
                ..EngineStats::default()
            })
            .collect();
        let mut point_sums = vec![vec![(0.0f64, 0u64); n_seats]; engines.len()];
        let mut seats = vec![Wdl::default(); n_seats];
        let mut endings = Endings::default();
        let mut pairs: Vec<PairingStats> = pairings(engines.len())
            .into_iter()
            .map(|(first, second)| PairingStats {
                first,
                second,
                wdl: Wdl::default(),
                elo: None,
                los: 0.5,
                deals: DealCounts::default(),
                deal_estimate: None,
                parity: None,
            })
            .collect();
        let mut shares = vec![(0.0f64, 0u64); pairs.len()];
        for g in &rec.games {
            if !endings.count(&g.ending, &mut engines) {
                continue;
            }
            let Some(first) = g.first_score() else {
                continue;
            };
            let (a, b) = g.pairing;
            let share_of = |e: usize| {
                g.seats.iter().filter(|&&s| s == e).count() as f64 / g.seats.len().max(1) as f64
            };
            if let Some(i) = pairs.iter().position(|p| (p.first, p.second) == (a, b)) {
                pairs[i].wdl.add(first);
                shares[i].0 += share_of(a);
                shares[i].1 += 1;
            } else if let Some(i) = pairs.iter().position(|p| (p.first, p.second) == (b, a)) {
                pairs[i].wdl.add(1.0 - first);
                shares[i].0 += share_of(b);
                shares[i].1 += 1;
            }
            for (e, score) in [(a, first), (b, 1.0 - first)] {
                if let Some(s) = engines.get_mut(e) {
                    s.wdl.add(score);
                }
            }
            for (seat, (&e, &r)) in g.seats.iter().zip(&g.seat_results).enumerate() {
                seats[seat].add(r);
                if let Some(s) = engines.get_mut(e) {
                    s.per_seat[seat].add(r);
                }
                if let (Some(scores), Some(sums)) = (&g.scores, point_sums.get_mut(e))
                    && let Some(&v) = scores.get(seat)
                {
                    sums[seat].0 += v;
                    sums[seat].1 += 1;
                }
            }
        }
        for (s, sums) in engines.iter_mut().zip(&point_sums) {
            s.seat_points = sums
                .iter()
                .map(|&(t, n)| (n > 0).then(|| t / n as f64))
                .collect();
        }
        for (p, &(total, n)) in pairs.iter_mut().zip(&shares) {
            p.elo = elo_estimate(&p.wdl);
            p.los = los(&p.wdl);
            p.deals = pentanomial::deal_counts(rec, p.first, p.second);
            p.deal_estimate = p.deals.estimate();
            let share = total / n.max(1) as f64;
            p.parity = (n > 0 && (share - 0.5).abs() > 1e-9).then_some(share);
        }
        let curve = if engines.len() == 2 {
            elo_curve(rec, sprt)
        } else {
            Vec::new()
        };
        let sprt = sprt.filter(|_| engines.len() == 2).map(|test| {
            let deals = pairs.first().map(|p| p.deals.clone()).unwrap_or_default();
            let llr = test.llr_deals(&deals);
            SprtStatus {
                test,
                llr,
                decision: test.decision(llr),
            }
        });
        Summary {
            engines,
            pairings: pairs,
            seats,
            endings,
            sprt,
            games: rec.games.len(),
            curve,
        }
    }

    /// The Elo curve as a table of about ten rows (and the SPRT's LLR
    /// path beside it, when an SPRT is on).
    fn curve_table(&self, out: &mut String) {
        let Some(last) = self.curve.last() else {
            return;
        };
        if self.curve.len() < 2 {
            return;
        }
        let name = |i: usize| self.engines.get(i).map_or("?", |e| e.name.as_str());
        let _ = writeln!(out);
        let llr_head = match self.sprt {
            Some(s) => {
                let (lo, hi) = s.test.bounds();
                format!("  LLR (bounds {lo:.2}, {hi:.2})")
            }
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "Elo of {} over the games:\n  {:>8}  {:>8}  {:>20}{llr_head}",
            name(0),
            "games",
            "Elo",
            "95% interval"
        );
        let rows = 10usize;
        let step = self.curve.len().div_ceil(rows).max(1);
        let mut shown: Vec<&CurvePoint> = self.curve.iter().skip(step - 1).step_by(step).collect();
        if shown.last().map(|p| p.games) != Some(last.games) {
            shown.push(last);
        }
        for p in shown {
            let (elo, interval) = p.elo.map_or(("-".to_string(), String::new()), |e| {
                (
                    fmt_elo(e.elo),
                    format!("{} .. {}", fmt_elo(e.lower), fmt_elo(e.upper)),
                )
            });
            let llr = p.llr.map_or(String::new(), |l| format!("  {l:>8.2}"));
            let _ = writeln!(out, "  {:>8}  {elo:>8}  {interval:>20}{llr}", p.games);
        }
    }

    /// The report as text, for people.
    pub fn text(&self, rec: &MatchRecord) -> String {
        let mut out = String::new();
        let opts = if rec.options.is_empty() {
            String::new()
        } else {
            format!(" {}", rec.options.join(" "))
        };
        let seeds: Vec<String> = rec.seeds.iter().map(u64::to_string).collect();
        let _ = writeln!(
            out,
            "Match: {}{opts}, {} games, {} engines, seed {}",
            rec.game,
            self.games,
            self.engines.len(),
            seeds.join("+")
        );
        if self.engines.len() > 2 {
            self.rank_table(&mut out);
            self.cross_table(&mut out);
        }
        for p in &self.pairings {
            self.pairing_lines(&mut out, p);
        }
        self.sprt_line(&mut out);
        self.curve_table(&mut out);
        self.seat_table(&mut out, rec);
        self.ending_and_fault_lines(&mut out, rec);
        self.adjudication_lines(&mut out, rec);
        out
    }

    /// One pairing's lines: its W-D-L and Elo over games, over deals, and
    /// the seats' share when it is not even.
    fn pairing_lines(&self, out: &mut String, p: &PairingStats) {
        let name = |i: usize| self.engines.get(i).map_or("?", |e| e.name.as_str());
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "{} vs {}: {} games, W-D-L {} ({} wins for {}), score {:.1}%",
            name(p.first),
            name(p.second),
            p.wdl.games(),
            p.wdl,
            p.wdl.wins,
            name(p.first),
            100.0 * p.wdl.score()
        );
        if let Some(e) = p.elo {
            let interval = if e.margin().is_finite() {
                format!(
                    " (95% interval {} .. {})",
                    fmt_elo(e.lower),
                    fmt_elo(e.upper)
                )
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "Elo difference: {}{interval}, LOS {:.1}%",
                fmt_estimate(&e),
                100.0 * p.los
            );
        }
        if let Some(d) = p.deal_estimate {
            let unit = if p.deals.rotation == 2 {
                "Game pairs (pentanomial)".to_string()
            } else {
                format!("Deals of {} games", p.deals.rotation)
            };
            let _ = writeln!(
                out,
                "{unit}: {} deals, {}{}",
                d.deals,
                p.deals.text(),
                if p.deals.loose_games > 0 {
                    format!(
                        " ({} games of incomplete deals left out)",
                        p.deals.loose_games
                    )
                } else {
                    String::new()
                }
            );
            let _ = writeln!(
                out,
                "  Elo {} (95% interval {} .. {}), nElo {} ({} .. {}), LOS {:.1}%",
                fmt_elo(d.elo),
                fmt_elo(d.elo_lower),
                fmt_elo(d.elo_upper),
                fmt_elo(d.nelo),
                fmt_elo(d.nelo_lower),
                fmt_elo(d.nelo_upper),
                100.0 * d.los
            );
            if let Some(e) = p.elo {
                let (n, lo, hi) = trinomial_nelo(&p.wdl, &e);
                let _ = writeln!(
                    out,
                    "  beside it, games alone (trinomial): Elo {} ({} .. {}), nElo {} ({} .. {})",
                    fmt_elo(e.elo),
                    fmt_elo(e.lower),
                    fmt_elo(e.upper),
                    fmt_elo(n),
                    fmt_elo(lo),
                    fmt_elo(hi)
                );
            }
        }
        if let Some(share) = p.parity {
            let _ = writeln!(
                out,
                "{} holds {:.1}% of the seats: equal engines would score about {:.1}% (one winner a game); Elo and LOS above assume 50%",
                name(p.first),
                100.0 * share,
                100.0 * share
            );
        }
    }

    /// The SPRT's line, if the match ran one.
    fn sprt_line(&self, out: &mut String) {
        if let Some(s) = self.sprt {
            let (lo, hi) = s.test.bounds();
            let _ = writeln!(
                out,
                "SPRT ({} Elo, elo0 {}, elo1 {}, alpha {}, beta {}, over deals): LLR {:.2} in [{:.2}, {:.2}]: {}",
                s.test.model.word(),
                s.test.elo0,
                s.test.elo1,
                s.test.alpha,
                s.test.beta,
                s.llr,
                lo,
                hi,
                s.decision
            );
        }
    }

    /// How the games ended and each engine's faults, with what a loss on
    /// time and a restart mean.
    fn ending_and_fault_lines(&self, out: &mut String, rec: &MatchRecord) {
        let e = self.endings;
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "Endings: {} by the rules, {} adjudicated, {} forfeits, {} resignations, {} drawn at the move limit{}",
            e.normal,
            e.adjudicated,
            e.forfeit,
            e.resign,
            e.move_limit,
            if e.error > 0 {
                format!(", {} not counted (runner errors)", e.error)
            } else {
                String::new()
            }
        );
        let _ = writeln!(out, "Faults by engine:");
        for s in &self.engines {
            let _ = writeln!(
                out,
                "  {}: {} crashes or hangs, {} time forfeits, {} illegal moves, {} malformed replies, {} refused commands, {} failed starts",
                s.name,
                s.fault_count(Fault::Crash),
                s.fault_count(Fault::Timeout),
                s.fault_count(Fault::Illegal),
                s.fault_count(Fault::Malformed),
                s.fault_count(Fault::Refused),
                s.fault_count(Fault::Spawn),
            );
        }
        let late: u64 = self
            .engines
            .iter()
            .map(|s| s.fault_count(Fault::Timeout))
            .sum();
        if late > 0 {
            let margin = rec
                .settings
                .iter()
                .find(|(k, _)| k == "timemargin")
                .map_or(String::new(), |(_, v)| format!(", now {v} ms"));
            let _ = writeln!(
                out,
                "  {late} {} lost on time: a reply came after its time and grace. On a busy \
                 machine (load over its cores) an engine may wait for a core: give more grace \
                 (--timemargin MS{margin}) or play fewer games at once (lower --concurrency).",
                if late == 1 { "game" } else { "games" }
            );
        }
        let mut after_restart: Vec<(String, Vec<String>)> = Vec::new();
        for g in &rec.games {
            for name in crate::arena::record::recover::restarted_in(g) {
                match after_restart.iter_mut().find(|(n, _)| n == name) {
                    Some((_, games)) => games.push(g.number.to_string()),
                    None => after_restart.push((name.to_string(), vec![g.number.to_string()])),
                }
            }
        }
        for (name, games) in after_restart {
            let _ = writeln!(
                out,
                "  {name} was restarted after a crash or hang before games {}",
                games.join(", ")
            );
        }
    }

    /// How the adjudicated games were decided, and the engines whose
    /// scores score adjudication could not count (none reported).
    fn adjudication_lines(&self, out: &mut String, rec: &MatchRecord) {
        let mut kinds = [0u64; 3];
        let mut silent: Vec<(&str, u64)> = Vec::new();
        for g in &rec.games {
            if let Ending::Adjudicated(decision) = &g.ending
                && let Some(decided) = decision.decided()
            {
                kinds[decided as usize] += 1;
            }
            for name in crate::arena::record::recover::silent_in(g) {
                match silent.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, n)) => *n += 1,
                    None => silent.push((name, 1)),
                }
            }
        }
        if kinds[1] + kinds[2] > 0 || !silent.is_empty() {
            let _ = writeln!(
                out,
                "Adjudicated: {} by the solver, {} resigned and {} drawn on the engines' scores",
                kinds[0], kinds[1], kinds[2]
            );
        }
        for (name, games) in silent {
            let _ = writeln!(
                out,
                "  {name} reported no scores in {games} games: score adjudication never counted \
                 its moves there"
            );
        }
    }

    /// The width of a column of engine names: the longest name, and at
    /// least `min`.
    fn name_width(&self, min: usize) -> usize {
        self.engines
            .iter()
            .map(|e| e.name.len())
            .fold(min, usize::max)
    }

    fn seat_table(&self, out: &mut String, rec: &MatchRecord) {
        let seat_name = |s: usize| {
            rec.seat_names
                .get(s)
                .cloned()
                .unwrap_or_else(|| format!("seat {s}"))
        };
        let width = self.name_width(6);
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "Per seat (W-D-L of the seat's own result, score, mean game points):"
        );
        for (seat, total) in self.seats.iter().enumerate() {
            let _ = writeln!(
                out,
                "  {:<8} all engines: {} ({:.1}%)",
                seat_name(seat),
                total,
                100.0 * total.score()
            );
            for e in &self.engines {
                let w = e.per_seat.get(seat).copied().unwrap_or_default();
                if w.games() == 0 {
                    continue;
                }
                let pts = e
                    .seat_points
                    .get(seat)
                    .copied()
                    .flatten()
                    .map_or(String::new(), |p| format!(", {p:.2} points"));
                let _ = writeln!(
                    out,
                    "  {:<8} {:<width$} {} ({:.1}%{pts})",
                    "",
                    e.name,
                    w,
                    100.0 * w.score()
                );
            }
        }
    }

    fn rank_table(&self, out: &mut String) {
        let width = self.name_width(6);
        let mut order: Vec<usize> = (0..self.engines.len()).collect();
        order.sort_by(|&a, &b| {
            self.engines[b]
                .wdl
                .score()
                .total_cmp(&self.engines[a].wdl.score())
        });
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "Rank {:<width$}  Games  Points  Score   Elo vs field",
            "Engine"
        );
        for (rank, &i) in order.iter().enumerate() {
            let e = &self.engines[i];
            let elo = elo_estimate(&e.wdl).map_or("-".to_string(), |x| fmt_estimate(&x));
            let _ = writeln!(
                out,
                "{:>4} {:<width$}  {:>5}  {:>6.1}  {:>5.1}%  {}",
                rank + 1,
                e.name,
                e.wdl.games(),
                e.wdl.points(),
                100.0 * e.wdl.score(),
                elo
            );
        }
    }

    fn cross_table(&self, out: &mut String) {
        let width = self.name_width(10);
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "Cross-table (points of the row engine against the column engine / games):"
        );
        let _ = write!(out, "{:<width$}", "");
        for e in &self.engines {
            let _ = write!(out, " {:>width$}", e.name);
        }
        let _ = writeln!(out);
        for (i, row) in self.engines.iter().enumerate() {
            let _ = write!(out, "{:<width$}", row.name);
            for j in 0..self.engines.len() {
                let cell = self
                    .pairings
                    .iter()
                    .find_map(|p| match (p.first, p.second) {
                        (a, b) if (a, b) == (i, j) => Some(p.wdl),
                        (a, b) if (a, b) == (j, i) => Some(p.wdl.flipped()),
                        _ => None,
                    })
                    .map_or("-".to_string(), |w| format!("{}/{}", w.points(), w.games()));
                let _ = write!(out, " {cell:>width$}");
            }
            let _ = writeln!(out);
        }
    }
}
