//! `tabula book-othello`: the opening book ([`crate::games::othello::book`])
//! from the openings of WTHOR's expert games, deepened by the engine's own
//! search.
//!
//! 1. **The tree**: every position before one of the first `--plies` moves
//!    of a WTHOR game, counted once per game under its symmetric images;
//!    those reached in at least `--min-games` games are the book's nodes.
//! 2. **The leaves**: every node is searched to `--depth` by the engine's
//!    alpha-beta (the selective search a depth budget runs, with the
//!    built-in evaluation): its best move and value.
//! 3. **Negamax**: from the deepest nodes up, a node's moves are those
//!    that lead to another node (valued as minus that node's value) and
//!    the search's best move (valued by the search, unless it leads to a
//!    node); the node's value is its best move's. So an expert line that
//!    a deeper look refutes loses its place to the search's move, and a
//!    line whose end the search likes carries that value back to the root,
//!    as the books of Zebra and Edax are made (with their own, deeper
//!    searches).
//!
//! The same folder, arguments and binary give the same file (the searches
//! are on one thread each and seeded; the nodes are split among the
//! threads in a fixed order).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use rand::SeedableRng;

use super::workers::{Workers, othello_settings};
use super::wthor::{self, WthorError};
use crate::control::{Budget, Control};
use crate::engine::searchers::alpha_beta;
use crate::files::output::{OutFile, OutputError};
use crate::games::othello::bitboard::{moves, play, squares};
use crate::games::othello::book::{Book, BookMove, Entry, canonical};
use crate::games::othello::eval::OthelloEval;
use crate::games::othello::{BLACK, Othello};
use crate::model::game::Rng;
use crate::search::Search as _;
use crate::tools::args::{ArgError, within};

/// `tabula book-othello`: build the opening book.
#[derive(clap::Args, Debug, Clone)]
pub struct BookArgs {
    /// A folder of WTHOR `.wtb` files (the games whose openings make the
    /// book).
    #[arg(long)]
    pub wthor: PathBuf,
    /// The book file to write (`src/games/othello/book.bin` is the one the
    /// build embeds).
    #[arg(long)]
    pub out: PathBuf,
    /// A position is in the book when at least this many games reached it.
    #[arg(long, default_value_t = 30)]
    pub min_games: u32,
    /// Only the positions before the first this many moves of a game.
    #[arg(long, default_value_t = 24)]
    pub plies: u32,
    /// Depth of the search that values each node.
    #[arg(long, default_value_t = 12)]
    pub depth: u32,
    /// A node keeps the moves within this many discs of its best.
    #[arg(long, default_value_t = 6)]
    pub keep: i32,
    /// Transposition table per thread, MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: u64,
    /// Worker threads and the searches' seed.
    #[command(flatten)]
    pub workers: Workers,
}

impl BookArgs {
    /// Checks every number before anything is read: min-games 1 to
    /// 1,000,000, plies 1 to 40, depth 1 to 30, keep 0 to 64, hash 1 to
    /// 4096 MiB, threads 1 to the cores (256 with `--force-threads`).
    pub fn check(&self) -> Result<(), ArgError> {
        within("--min-games", self.min_games, 1..=1_000_000)?;
        within("--plies", self.plies, 1..=40)?;
        within("--depth", self.depth, 1..=30)?;
        within("--keep", self.keep, 0..=64)?;
        within("--hash", self.hash, 1..=4096)?;
        self.workers.checked_threads()?;
        Ok(())
    }
}

/// Why a book was not made.
#[derive(Debug, thiserror::Error)]
pub enum BookBuildError {
    /// An argument out of its range.
    #[error(transparent)]
    Args(#[from] ArgError),
    /// A WTHOR file could not be read.
    #[error(transparent)]
    Wthor(#[from] WthorError),
    /// The book file could not be written.
    #[error(transparent)]
    Out(#[from] OutputError),
    /// No position was reached often enough.
    #[error("no position was reached in {min_games} games: lower --min-games")]
    Empty {
        /// The `--min-games` asked.
        min_games: u32,
    },
}

/// A position as the book keys it: the side to move's and the other
/// side's discs in the canonical image.
type Key = (u64, u64);

/// The canonical key of a position.
fn key(p: u64, o: u64) -> Key {
    let (_, cp, co) = canonical(p, o);
    (cp, co)
}

/// How many games reached each position of their first `plies` moves
/// (once per game).
pub fn opening_counts(
    dir: &std::path::Path,
    plies: u32,
) -> Result<(HashMap<Key, u32>, usize), WthorError> {
    let mut counts: HashMap<Key, u32> = HashMap::new();
    let mut games = 0;
    for f in wthor::files_in(dir)? {
        let (_, list) = wthor::read_file(&f)?;
        for (i, g) in list.iter().enumerate() {
            let Ok(r) = wthor::replay(i, g) else {
                continue;
            };
            games += 1;
            let mut seen: Vec<Key> = r
                .positions
                .iter()
                .take(plies as usize)
                .map(|pos| key(pos.p, pos.o))
                .collect();
            seen.sort_unstable();
            seen.dedup();
            for k in seen {
                *counts.entry(k).or_insert(0) += 1;
            }
        }
    }
    Ok((counts, games))
}

/// The book's node for a key: its best move by search and its value.
#[derive(Clone, Copy, Debug)]
struct Leaf {
    square: u8,
    value: i32,
}

/// Searches every node to `depth` (threads take nodes in turn).
fn search_nodes(nodes: &[Key], args: &BookArgs) -> Vec<Option<Leaf>> {
    let settings = &othello_settings(args.hash);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let t0 = std::time::Instant::now();
    let mut out: Vec<Option<Leaf>> = vec![None; nodes.len()];
    let parts: Vec<Vec<(usize, Option<Leaf>)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..args.workers.threads.max(1))
            .map(|_| {
                let (next, done) = (&next, &done);
                s.spawn(move || {
                    let mut search = alpha_beta::<Othello>(settings, OthelloEval::Builtin);
                    let mut got = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(p, o)) = nodes.get(i) else {
                            break;
                        };
                        let leaf = Othello::from_bitboards(p, o, BLACK).ok().and_then(|state| {
                            if moves(p, o) == 0 {
                                return None;
                            }
                            crate::search::Search::reset(&mut search);
                            let mut rng =
                                Rng::seed_from_u64(args.workers.seed ^ p ^ o.rotate_left(17));
                            let budget = Budget {
                                depth: Some(args.depth),
                                ..Budget::default()
                            };
                            let r = search.search(
                                &state,
                                BLACK,
                                &budget,
                                &Control::unlimited(),
                                &mut rng,
                            );
                            let value = match r.exact {
                                Some(m) => m,
                                None => ((r.score * 2.0 - 1.0) * 64.0).round() as i32,
                            };
                            Some(Leaf {
                                square: r.best,
                                value: value.clamp(-64, 64),
                            })
                        });
                        got.push((i, leaf));
                        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                        if n % 200 == 0 {
                            eprintln!(
                                "book-othello: {n}/{} nodes searched ({:.1}/s)",
                                nodes.len(),
                                n as f64 / t0.elapsed().as_secs_f64().max(1e-9)
                            );
                        }
                    }
                    got
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    for part in parts {
        for (i, leaf) in part {
            out[i] = leaf;
        }
    }
    out
}

/// Builds the book and writes it; the report says what it holds.
pub fn run(args: &BookArgs) -> Result<String, BookBuildError> {
    args.check()?;
    let out = OutFile::check(&args.out, false)?;
    let t0 = std::time::Instant::now();
    let (counts, games) = opening_counts(&args.wthor, args.plies)?;
    let mut nodes: Vec<Key> = counts
        .iter()
        .filter(|(_, c)| **c >= args.min_games)
        .map(|(k, _)| *k)
        .collect();
    if nodes.is_empty() {
        return Err(BookBuildError::Empty {
            min_games: args.min_games,
        });
    }
    // Deepest first (a move adds a disc), for the negamax; then by key,
    // so that the order is the same every time.
    nodes.sort_unstable_by_key(|&(p, o)| (std::cmp::Reverse((p | o).count_ones()), p, o));
    let mut report = super::workers::report_begun(format_args!(
        "book-othello: {games} games, {} positions in their first {} moves, {} reached in at least {} games ({:.1} s)",
        counts.len(),
        args.plies,
        nodes.len(),
        args.min_games,
        t0.elapsed().as_secs_f64()
    ));
    let t1 = std::time::Instant::now();
    let leaves = search_nodes(&nodes, args);
    let searched = t1.elapsed().as_secs_f64();
    let index: HashMap<Key, usize> = nodes.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    let mut value: Vec<Option<i32>> = vec![None; nodes.len()];
    let mut entries = Vec::with_capacity(nodes.len());
    for (i, &(p, o)) in nodes.iter().enumerate() {
        let mut cands: Vec<(u8, i32)> = Vec::new();
        for sq in squares(moves(p, o)) {
            let (np, no) = play(p, o, sq);
            if let Some(&j) = index.get(&key(np, no))
                && let Some(v) = value[j]
            {
                cands.push((sq as u8, -v));
            }
        }
        if let Some(leaf) = leaves[i]
            && !cands.iter().any(|c| c.0 == leaf.square)
        {
            cands.push((leaf.square, leaf.value));
        }
        cands.sort_by_key(|c| (std::cmp::Reverse(c.1), c.0));
        let Some(&(_, best)) = cands.first() else {
            continue;
        };
        value[i] = Some(best);
        entries.push(Entry {
            player: p,
            opponent: o,
            moves: cands
                .iter()
                .filter(|c| c.1 >= best - args.keep)
                .map(|&(square, v)| BookMove {
                    square,
                    value: v.clamp(-64, 64) as i8,
                })
                .collect(),
        });
    }
    let book = Book::new(entries);
    let bytes = book.encode();
    out.replace(&bytes)?;
    let start = Othello::start();
    let root = book.moves(start.player(), start.opponent());
    let _ = writeln!(
        report,
        "searched {} nodes to depth {} in {searched:.0} s ({:.1}/s); wrote {} entries, {} moves, {} bytes to {}",
        nodes.len(),
        args.depth,
        nodes.len() as f64 / searched.max(1e-9),
        book.entries().len(),
        book.entries().iter().map(|e| e.moves.len()).sum::<usize>(),
        bytes.len(),
        args.out.display()
    );
    let _ = writeln!(
        report,
        "the start position's value: {:+} discs for black",
        root.first().map_or(0, |m| i32::from(m.1))
    );
    Ok(report)
}
