//! Which games are played, by whom, in which seats, and on how many
//! threads.
//!
//! Every pair of engines meets (a round robin; with two engines, one
//! pairing). Within a pairing, each deal is played once per seat pattern:
//! the engines alternate around the table and every rotation of that
//! pattern (and of its complement) is used, so each engine holds each
//! seat, and each hand of a deal, equally often. Games of a deal share
//! their chance steps, so luck cancels out. `--table` replaces the
//! alternating pattern by a given one (e.g. `ABBB`: one engine against
//! three copies of the other), whose rotations are played instead.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread;

use crate::arena::config::match_setup::MatchSetup;
use crate::arena::ground::pairings::pairings;
use crate::arena::ground::referee::Referee;
use crate::arena::record::match_file::{Ending, GameRecord};
use crate::arena::run::play::{GameJob, Pool, play_game};

/// The seat patterns of a pairing: for each game of one deal, which of the
/// two engines (0 = first, 1 = second) sits at each seat.
///
/// Two seats: `[0,1]`, `[1,0]`. Four: `[0,1,0,1]`, `[1,0,1,0]`. Three:
/// the six rotations of `[0,1,0]` and `[1,0,1]`.
pub fn seat_patterns(seats: usize) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    // The engines alternate around the table: 0, 1, 0, 1...
    let base: Vec<usize> = (0..seats).map(|s| s % 2).collect();
    for flip in [0, 1] {
        for r in 0..seats {
            let p: Vec<usize> = (0..seats).map(|s| base[(s + r) % seats] ^ flip).collect();
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// Reads a `--table` pattern: one letter per seat, `A` for the first
/// engine of a pairing and `B` for the second (case-insensitive), both
/// present. Returns the pattern as 0s and 1s.
pub fn parse_table(text: &str, seats: usize) -> Result<Vec<usize>, String> {
    let pattern: Vec<usize> = text
        .chars()
        .map(|c| match c.to_ascii_uppercase() {
            'A' => Ok(0),
            'B' => Ok(1),
            _ => Err(format!(
                "bad --table '{text}': use one letter per seat, A (first engine) or B (second), e.g. ABBB"
            )),
        })
        .collect::<Result<_, _>>()?;
    if pattern.len() != seats {
        return Err(format!(
            "bad --table '{text}': {} letters for a {seats}-seat game",
            pattern.len()
        ));
    }
    if !pattern.contains(&0) || !pattern.contains(&1) {
        return Err(format!(
            "bad --table '{text}': both engines (A and B) need a seat"
        ));
    }
    Ok(pattern)
}

/// The seat patterns of a pairing seated by `table` (see
/// [`parse_table`]): every distinct rotation of it, so that each engine
/// holds each seat equally often. `ABBB` gives `ABBB`, `BABB`, `BBAB`,
/// `BBBA`.
pub fn table_patterns(table: &[usize]) -> Vec<Vec<usize>> {
    let seats = table.len();
    let mut out: Vec<Vec<usize>> = Vec::new();
    for r in 0..seats {
        // Rotating right by r: the first engine moves one seat on each time.
        let p: Vec<usize> = (0..seats).map(|s| table[(s + seats - r) % seats]).collect();
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// The games of a match: `games` per pairing, deal by deal (one game per
/// pattern of `patterns`, see [`seat_patterns`] and [`table_patterns`]),
/// the pairings interleaved so that a match stopped early is still
/// balanced.
pub fn build_jobs(engines: usize, games: usize, patterns: &[Vec<usize>]) -> Vec<GameJob> {
    Jobs::new(engines, games, patterns.to_vec()).collect()
}

/// A shard of a match: `index` (from 0) of `count`. A shard plays the
/// deals whose number is `index` modulo `count`, each deal with all its
/// seat rotations and pairings, so that shards hold whole deals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 0.
    pub index: u64,
    /// How many shards.
    pub count: u64,
}

impl Shard {
    /// Reads `K/N` (K from 1 to N).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("bad --shard '{text}': expected K/N with 1 <= K <= N, e.g. 2/8");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let k: u64 = k.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard {
            index: k - 1,
            count: n,
        })
    }

    /// Whether this shard plays `deal`.
    pub fn holds(&self, deal: u64) -> bool {
        deal % self.count == self.index
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// The games of a match, made one at a time (a match of a hundred million
/// games needs no list of them): see [`build_jobs`] for the order.
#[derive(Clone, Debug)]
pub struct Jobs {
    pairs: Vec<(usize, usize)>,
    patterns: Vec<Vec<usize>>,
    games: u64,
    deal: u64,
    pair: usize,
    pattern: usize,
    number: usize,
}

impl Jobs {
    /// Every game of a match of `engines` engines, `games` per pairing.
    pub fn new(engines: usize, games: usize, patterns: Vec<Vec<usize>>) -> Jobs {
        Jobs {
            pairs: pairings(engines),
            patterns,
            games: games as u64,
            deal: 0,
            pair: 0,
            pattern: 0,
            number: 0,
        }
    }

    /// How many games this makes, or `None` past `usize`.
    pub fn total(&self) -> Option<usize> {
        usize::try_from(self.games)
            .ok()?
            .checked_mul(self.pairs.len())
    }

    /// How many games deal `deal` has in each pairing.
    fn games_of_deal(&self, deal: u64) -> u64 {
        let rot = self.patterns.len().max(1) as u64;
        self.games.saturating_sub(deal.saturating_mul(rot)).min(rot)
    }

    /// How many games the deals of `shard` hold, or `None` past `usize`.
    pub fn shard_total(&self, shard: Shard) -> Option<usize> {
        let rot = self.patterns.len().max(1) as u64;
        let deals = self.games.div_ceil(rot);
        if deals <= shard.index {
            return Some(0);
        }
        // Deals index, index + count, ... below `deals`.
        let mine = (deals - 1 - shard.index) / shard.count + 1;
        let last = shard.index + (mine - 1) * shard.count;
        let per_pair = (mine - 1).checked_mul(rot)? + self.games_of_deal(last);
        usize::try_from(per_pair)
            .ok()?
            .checked_mul(self.pairs.len())
    }
}

impl Iterator for Jobs {
    type Item = GameJob;

    fn next(&mut self) -> Option<GameJob> {
        loop {
            if self.pairs.is_empty() || self.patterns.is_empty() {
                return None;
            }
            let in_deal = self.games_of_deal(self.deal) as usize;
            if in_deal == 0 {
                return None;
            }
            if self.pattern >= in_deal {
                self.pattern = 0;
                self.pair += 1;
            }
            if self.pair >= self.pairs.len() {
                self.pair = 0;
                self.deal += 1;
                continue;
            }
            let (a, b) = self.pairs[self.pair];
            let seats = self.patterns[self.pattern]
                .iter()
                .map(|&k| if k == 0 { a } else { b })
                .collect();
            self.pattern += 1;
            self.number += 1;
            return Some(GameJob {
                number: self.number,
                pairing: (a, b),
                deal: self.deal,
                seats,
            });
        }
    }
}

/// Plays `jobs` on `concurrency` threads. `on_result` gets every finished
/// game on the calling thread, in the order they finish; when it returns
/// `false` no further game is started (games under way still finish and
/// are reported).
pub fn run_jobs(
    setup: &MatchSetup,
    prototype: &dyn Referee,
    jobs: impl Iterator<Item = GameJob> + Send,
    concurrency: usize,
    mut on_result: impl FnMut(GameRecord) -> bool,
) {
    let queue = Mutex::new(jobs);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<GameRecord>();
    let mut failure = None;
    thread::scope(|scope| {
        for w in 0..concurrency.max(1) {
            let tx = tx.clone();
            let (queue, stop) = (&queue, &stop);
            let worker = move || {
                let mut pool = Pool::default();
                while !stop.load(Ordering::Relaxed)
                    && !crate::arena::ground::interrupt::interrupted()
                {
                    let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                    let Some(job) = next else { break };
                    // A panic here is a bug in a game or in the runner, not
                    // an engine's doing: record it and go on.
                    let record = catch_unwind(AssertUnwindSafe(|| {
                        play_game(setup, &mut pool, prototype, &job)
                    }))
                    .unwrap_or_else(|panic| {
                        let what = panic
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_else(|| "unknown panic".to_string());
                        pool = Pool::default();
                        GameRecord {
                            number: job.number,
                            pairing: job.pairing,
                            deal: job.deal,
                            seats: job.seats.clone(),
                            ending: Ending::Error(format!("runner panic: {what}")),
                            scores: None,
                            winners: Vec::new(),
                            seat_results: vec![0.5; job.seats.len()],
                            plies: 0,
                            millis: 0,
                            transcript: Default::default(),
                        }
                    });
                    if tx.send(record).is_err() {
                        break;
                    }
                }
                pool.close();
            };
            if let Err(e) = thread::Builder::new()
                .name(format!("match worker {w}"))
                .spawn_scoped(scope, worker)
            {
                log::error!("cannot start worker thread {w}: {e}");
            }
        }
        drop(tx);
        for record in rx {
            match catch_unwind(AssertUnwindSafe(|| on_result(record))) {
                Ok(true) => {}
                Ok(false) => stop.store(true, Ordering::Relaxed),
                Err(panic) => {
                    // A bug on this thread ends the match: no game is
                    // started, the engines under way are ended at once
                    // (their games end, the workers return) and the
                    // panic goes on once they have.
                    stop.store(true, Ordering::Relaxed);
                    crate::arena::engines::process::end_live();
                    failure = Some(panic);
                    break;
                }
            }
        }
    });
    if let Some(panic) = failure {
        std::panic::resume_unwind(panic);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_balance_seats() {
        assert_eq!(seat_patterns(2), vec![vec![0, 1], vec![1, 0]]);
        assert_eq!(seat_patterns(4), vec![vec![0, 1, 0, 1], vec![1, 0, 1, 0]]);
        let three = seat_patterns(3);
        assert_eq!(three.len(), 6);
        for seat in 0..3 {
            assert_eq!(three.iter().filter(|p| p[seat] == 0).count(), 3);
        }
    }

    #[test]
    fn jobs_rotate_seats_on_shared_deals() {
        let jobs = build_jobs(2, 5, &seat_patterns(2));
        assert_eq!(jobs.len(), 5);
        assert_eq!(jobs[0].seats, vec![0, 1]);
        assert_eq!(jobs[1].seats, vec![1, 0]);
        assert_eq!((jobs[0].deal, jobs[1].deal, jobs[2].deal), (0, 0, 1));
        let rr = build_jobs(3, 4, &seat_patterns(2));
        assert_eq!(rr.len(), 12);
        for p in pairings(3) {
            assert_eq!(rr.iter().filter(|j| j.pairing == p).count(), 4);
        }
        assert!(rr.iter().enumerate().all(|(i, j)| j.number == i + 1));
    }

    #[test]
    fn jobs_are_made_lazily_and_shards_hold_whole_deals() {
        // A hundred million games cost nothing until they are played.
        let mut huge = Jobs::new(2, 100_000_000, seat_patterns(2));
        assert_eq!(huge.total(), Some(100_000_000));
        assert_eq!(huge.nth(5).map(|j| (j.number, j.deal)), Some((6, 2)));

        for (engines, games, patterns) in [
            (2, 9, seat_patterns(2)),
            (3, 7, seat_patterns(2)),
            (2, 10, table_patterns(&parse_table("ABBB", 4).unwrap())),
        ] {
            let whole = build_jobs(engines, games, &patterns);
            for count in 1..=5 {
                let mut union = Vec::new();
                for index in 0..count {
                    let shard = Shard { index, count };
                    let mine: Vec<GameJob> = Jobs::new(engines, games, patterns.clone())
                        .filter(|j| shard.holds(j.deal))
                        .collect();
                    assert_eq!(
                        Jobs::new(engines, games, patterns.clone()).shard_total(shard),
                        Some(mine.len()),
                        "{engines} engines, {games} games, shard {shard}"
                    );
                    union.extend(mine);
                }
                union.sort_by_key(|j| j.number);
                assert_eq!(union, whole, "the shards of {count} are the whole match");
            }
        }
        assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 1, count: 8 }));
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn tables_rotate_one_engine_through_every_seat() {
        let t = parse_table("abbb", 4).unwrap();
        assert_eq!(t, vec![0, 1, 1, 1]);
        let patterns = table_patterns(&t);
        assert_eq!(
            patterns,
            vec![
                vec![0, 1, 1, 1],
                vec![1, 0, 1, 1],
                vec![1, 1, 0, 1],
                vec![1, 1, 1, 0]
            ]
        );
        // ABAB has only two distinct rotations.
        assert_eq!(table_patterns(&parse_table("ABAB", 4).unwrap()).len(), 2);
        assert!(parse_table("ABB", 4).is_err());
        assert!(parse_table("AAA", 3).is_err());
        assert!(parse_table("ABX", 3).is_err());

        // Three players, engine 1 against two copies of engine 0 (BAA):
        // each deal is played three times, engine 1 once in every seat.
        let jobs = build_jobs(2, 7, &table_patterns(&parse_table("BAA", 3).unwrap()));
        assert_eq!(jobs.len(), 7);
        assert_eq!(jobs[0].seats, vec![1, 0, 0]);
        assert_eq!(jobs[1].seats, vec![0, 1, 0]);
        assert_eq!(jobs[2].seats, vec![0, 0, 1]);
        assert_eq!((jobs[2].deal, jobs[3].deal), (0, 1));
        assert!(
            jobs.iter()
                .all(|j| j.seats.iter().filter(|&&e| e == 1).count() == 1)
        );
    }
}
