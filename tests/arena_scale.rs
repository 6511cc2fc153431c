//! Records read and merged in work and memory in proportion to their
//! games, not to their transcripts' lines: counted, not timed (the
//! allocations this test's own thread makes), so that a loaded machine
//! changes nothing. And a game an engine resigned reads back.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::Path;

use crate::common::{self, fixture, scratch, words};
use tabula::arena::record::{Ending, EngineInfo, GameRecord, MatchRecord, Transcript};

/// The system's allocator, counting the allocations of each thread.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count_one() {
    // `try_with`: a thread being torn down has no counter left.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is passed on to the system allocator unchanged; the
// count is a thread-local cell with no destructor, which allocates
// nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` has it.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: as `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: a block of this allocator, as `GlobalAlloc::realloc` has it.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: a block of this allocator, as `GlobalAlloc::dealloc` has it.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The allocations `work` makes on this thread, and what it gives.
fn allocations<T>(work: impl FnOnce() -> T) -> (u64, T) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = work();
    (ALLOCATIONS.with(Cell::get) - before, out)
}

/// The lines of each game's transcript: more than any count of
/// allocations a game may take, so that one a line shows.
const LINES: usize = 100;

/// A whole record of `games` games of one seed (two engines, the seats
/// alternating, every game on its schedule), each with a transcript of
/// [`LINES`] lines.
fn record(games: usize) -> MatchRecord {
    let engine = |name: &str| EngineInfo {
        name: name.to_string(),
        proto: "tabula".to_string(),
        command: "./tabula".to_string(),
        init: vec!["set search random".to_string()],
        settings: Vec::new(),
    };
    let moves = ["d3", "c5", "f6", "f5", "e6", "e3", "c3", "d6"];
    MatchRecord {
        game: "othello".to_string(),
        options: Vec::new(),
        seeds: vec![7],
        seat_names: vec!["black".to_string(), "white".to_string()],
        engines: vec![engine("a"), engine("b")],
        shard: None,
        settings: vec![
            ("games".to_string(), games.to_string()),
            ("table".to_string(), "alternate".to_string()),
        ],
        stopped: None,
        games: (1..=games)
            .map(|number| {
                let mut transcript: Transcript = ["game othello"].into_iter().collect();
                for ply in 1..LINES {
                    let seat = if ply % 2 == 1 { "black" } else { "white" };
                    transcript.push(&format!("play {seat} {}", moves[(number + ply) % 8]));
                }
                GameRecord {
                    number,
                    pairing: (0, 1),
                    deal: (number as u64 - 1) / 2,
                    seats: if number % 2 == 1 {
                        vec![0, 1]
                    } else {
                        vec![1, 0]
                    },
                    ending: Ending::Normal,
                    scores: Some(vec![40.0, 24.0]),
                    winners: vec![0],
                    seat_results: vec![1.0, 0.0],
                    plies: LINES - 1,
                    millis: 100,
                    transcript,
                }
            })
            .collect(),
    }
}

/// Allocations to read a record of `games` games, and to merge it.
fn read_and_merge(games: usize) -> (u64, u64) {
    let text = record(games).to_text();
    let (read, rec) = allocations(|| MatchRecord::parse(&text, Path::new("scale")));
    let rec = rec.expect("the record reads");
    assert_eq!(rec.games.len(), games);
    let (merged, out) =
        allocations(|| MatchRecord::merge_owned(vec![("scale".to_string(), rec)], false));
    let out = out.expect("the record merges whole");
    assert!(out.missing.is_empty());
    // Nothing lost: the merged record is the file it was read from.
    assert_eq!(out.record.to_text(), text);
    (read, merged)
}

#[test]
fn a_record_is_read_and_merged_in_allocations_per_game_not_per_line() {
    let (read_1, merge_1) = read_and_merge(1000);
    let (read_2, merge_2) = read_and_merge(2000);
    eprintln!(
        "allocations: read {read_1} / {read_2}, merge {merge_1} / {merge_2} for 1000 / 2000 \
         games of {LINES} lines"
    );
    // A string a line would be 100 allocations a game at least.
    let per_game = read_2 as f64 / 2000.0;
    assert!(
        per_game < LINES as f64 / 2.0,
        "{per_game} allocations a game read"
    );
    // The merge moves the games: no copy of a game, nor of a line (what
    // it allocates is its lists, grown by doubling).
    assert!(merge_2 < 200, "{merge_2} allocations to merge 2000 games");
    // In proportion: twice the games, twice the work (a margin for the
    // lists that grow by doubling), not four times.
    assert!(read_2 <= read_1 * 2 + read_1 / 4, "{read_1} then {read_2}");
    assert!(merge_2 <= merge_1 * 2, "{merge_1} then {merge_2}");
}

#[test]
fn a_game_an_engine_resigned_reads_back_and_merges() {
    let dir = scratch("resigned");
    let path = dir.join("r.txt");
    let bin = env!("CARGO_BIN_EXE_tabula");
    let mut args = words(&[
        "--game",
        "othello",
        "--games",
        "2",
        "--seed",
        "5",
        "--quiet",
        "--record",
        &path.display().to_string(),
        "--engine",
        &format!("cmd={bin}"),
        "name=rand",
        "set.search=random",
        "--engine",
    ]);
    args.push(format!("cmd={}", fixture("resign_engine.sh", "")));
    args.push("name=quitter".to_string());
    let report = tabula::arena::run(&common::parse(&args)).expect("the match runs");
    assert!(
        report
            .record
            .games
            .iter()
            .all(|g| matches!(g.ending, Ending::Resign(1))),
        "{}",
        report.text
    );
    let text = std::fs::read_to_string(&path).expect("the record");
    assert!(
        text.contains("\n# black resigns\n") && text.contains("\n# white resigns\n"),
        "{text}"
    );
    // The note is a line of the game's transcript, as `lines=` counts it.
    let mut back = MatchRecord::read(&path).unwrap_or_else(|e| panic!("{e}\n{text}"));
    // The file holds the games in the order they ended.
    back.games.sort_by_key(|g| g.number);
    let mut played = report.record.games.clone();
    played.sort_by_key(|g| g.number);
    assert_eq!(back.games, played);
    let merged = tabula::arena::run(&common::parse(&words(&[
        "--merge",
        &path.display().to_string(),
        "--quiet",
        "--no-record",
    ])))
    .expect("the record merges");
    assert_eq!(merged.record.games.len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}
