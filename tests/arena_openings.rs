//! Opening suites: each opening is played once per seat rotation, runs
//! with `start=` offsets play disjoint slices of one match and merge into
//! it, and positions reach the engines by `setboard`.

use crate::common;

use common::{scratch, words};
use tabula::arena::record::{GameRecord, MatchRecord};

const SUITE: &str = "\
# eight Othello openings, two spellings
f5 d6 c3 d3 c4
f5 f6 e6 f4
f5d6c5f4e3
f5 f4 e3 f6 d3
f5 d6 c4 d3 c3
f5 f6 e6 d6
f5 d6 c6 f4
f5 f4 e3 d6
";

fn run(
    dir: &std::path::Path,
    name: &str,
    games: &str,
    extra: &[&str],
) -> tabula::arena::MatchReport {
    let suite = dir.join("suite.txt");
    std::fs::write(&suite, SUITE).unwrap();
    let mut w = words(&[
        "--game", "othello", "--games", games, "-j", "2", "--seed", "5", "--depth", "1", "--quiet",
        "--record",
    ]);
    w.push(dir.join(name).display().to_string());
    w.extend(words(&["--openings", &suite.display().to_string()]));
    w.extend(words(extra));
    w.extend(common::ab_against_rules());
    tabula::arena::run(&common::parse(&w)).expect("match runs")
}

fn timeless(g: &GameRecord) -> GameRecord {
    GameRecord {
        millis: 0,
        ..g.clone()
    }
}

/// The opening moves of a game: its first `play` lines, as many as the
/// suite line has.
fn opening_of(g: &GameRecord, plies: usize) -> Vec<String> {
    g.transcript.to_vec()[1..1 + plies].to_vec()
}

#[test]
fn offset_runs_play_disjoint_openings_and_merge_into_one_run() {
    let dir = scratch("openings");
    let whole = run(&dir, "whole.txt", "16", &[]);
    let first = run(&dir, "a.txt", "8", &[]);
    let second = run(&dir, "b.txt", "8", &["start=5"]);
    // Each opening once per colour: deal d plays suite line d + 1.
    for g in &whole.record.games {
        let deal = g.deal as usize;
        let twin = whole
            .record
            .games
            .iter()
            .find(|o| o.deal == g.deal && o.number != g.number)
            .expect("both colours");
        assert_eq!(opening_of(g, 4), opening_of(twin, 4));
        assert_ne!(g.seats, twin.seats);
        assert!(deal < 8);
    }
    let a: std::collections::BTreeSet<u64> = first.record.games.iter().map(|g| g.deal).collect();
    let b: std::collections::BTreeSet<u64> = second.record.games.iter().map(|g| g.deal).collect();
    assert_eq!(a, (0..4).collect());
    assert_eq!(b, (4..8).collect());
    let openings = |r: &tabula::arena::MatchReport| -> std::collections::BTreeSet<Vec<String>> {
        r.record.games.iter().map(|g| opening_of(g, 4)).collect()
    };
    assert!(openings(&first).is_disjoint(&openings(&second)));
    assert_eq!(openings(&whole).len(), 8);
    // The suite's moves are in the record, told as played moves.
    let g1 = &whole.record.games[0];
    assert_eq!(
        opening_of(g1, 5),
        [
            "play black f5",
            "play white d6",
            "play black c3",
            "play white d3",
            "play black c4"
        ]
    );

    let merged = tabula::arena::run(&common::parse(&words(&[
        "--merge",
        &dir.join("b.txt").display().to_string(),
        &dir.join("a.txt").display().to_string(),
        "--no-record",
    ])))
    .expect("merge");
    let x: Vec<GameRecord> = whole.record.games.iter().map(timeless).collect();
    let y: Vec<GameRecord> = merged.record.games.iter().map(timeless).collect();
    assert_eq!(x, y);
    assert_eq!(whole.summary, merged.summary);
    assert_eq!(
        whole.summary.text(&whole.record),
        merged.summary.text(&merged.record)
    );
    missing_openings_are_named(&dir);
}

/// Each run states its suite's size and its slice: a merge of offset runs
/// names the deals no run played, whether a shard is not given or a
/// shard's games are lost.
fn missing_openings_are_named(dir: &std::path::Path) {
    let path = |name: &str| dir.join(name).display().to_string();
    let back = MatchRecord::read(&dir.join("b.txt")).unwrap();
    assert_eq!(back.setting("openings-size"), Some("8"));
    assert_eq!(back.setting("openings-start"), Some("5"));
    let merge = |files: &[String], extra: &[&str]| {
        let mut w = words(&["--merge"]);
        w.extend(files.iter().cloned());
        w.extend(words(&["--no-record"]));
        w.extend(words(extra));
        tabula::arena::run(&common::parse(&w))
    };
    // The first shard alone: the suite's last four openings are missing.
    let e = merge(&[path("a.txt")], &[]).unwrap_err().to_string();
    assert!(e.contains("missing deals 4-7 (games 9-16)"), "{e}");
    // The second shard with the games of one deal lost (as if killed).
    let mut cut = back.clone();
    cut.games.retain(|g| g.deal != 5);
    cut.write(&dir.join("b-cut.txt")).unwrap();
    let e = merge(&[path("a.txt"), path("b-cut.txt")], &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("missing deal 5 (games 11-12)"), "{e}");
    let partial = merge(&[path("a.txt"), path("b-cut.txt")], &["--partial"]).unwrap();
    assert!(
        partial
            .text
            .contains("Missing (seed 5): deal 5 (games 11-12)"),
        "{}",
        partial.text
    );
    assert_eq!(partial.record.games.len(), 14);
    // The merged record states the slice of both: it merges again.
    assert_eq!(partial.record.setting("openings-start"), Some("1"));
    assert_eq!(partial.record.setting("games"), Some("16"));
}

#[test]
fn positions_are_set_on_every_engine() {
    let dir = scratch("openings-positions");
    let positions = dir.join("positions.txt");
    // Two positions 14 plies from the end, reached by playing the first
    // legal move (then the last) over and over.
    let mut text = String::from("# comment\n");
    for pick_last in [false, true] {
        let mut g = tabula::arena::referee_by_name("othello", &[]).unwrap();
        for _ in 0..46 {
            let moves = g.legal_moves();
            let mv = if pick_last {
                moves.last()
            } else {
                moves.first()
            };
            g.play(&mv.unwrap().clone()).unwrap();
        }
        text.push_str(&g.position_text().unwrap());
        text.push('\n');
    }
    std::fs::write(&positions, text).unwrap();
    let bin = env!("CARGO_BIN_EXE_tabula");
    let mut w = words(&[
        "--game",
        "othello",
        "--games",
        "4",
        "-j",
        "1",
        "--seed",
        "3",
        "--depth",
        "2",
        "--quiet",
        "--no-record",
    ]);
    w.extend(words(&[
        "--openings",
        &positions.display().to_string(),
        "format=positions",
    ]));
    w.extend(words(&[
        "--engine",
        &format!("cmd={bin}"),
        "name=a",
        "set.search=alphabeta",
        "--engine",
        &format!("cmd={bin}"),
        "name=b",
        "set.search=alphabeta",
    ]));
    let r = tabula::arena::run(&common::parse(&w)).expect("match runs");
    assert_eq!(r.summary.endings.normal, 4, "{}", r.text);
    for g in &r.record.games {
        assert!(
            g.transcript[1].starts_with("setboard "),
            "{:?}",
            g.transcript
        );
        // From 14 empties a game has at most about 14 moves (and passes).
        assert!(g.plies <= 20, "{}", g.plies);
    }
    // A GTP engine cannot be given a position.
    let mut gtp = w.clone();
    gtp.extend(words(&["proto=gtp"]));
    let err = tabula::arena::run(&common::parse(&gtp)).expect_err("refused");
    assert!(err.to_string().contains("plain GTP"), "{err}");
}

/// Was: `--openings FIFO` opened the FIFO and waited for a writer for
/// ever (Ctrl-C ignored), `/dev/zero` was read until memory ran out and a
/// file of gigabytes aborted the runner. Now each is refused from its
/// metadata before it is opened or read, within a second, with a clear
/// message, and no game starts.
#[cfg(unix)]
#[test]
fn a_fifo_a_device_or_a_huge_suite_is_refused_before_it_is_read() {
    let dir = scratch("openings-files");
    let fifo = dir.join("suite.fifo");
    common::mkfifo(&fifo);
    // Sparse: one byte over the cap said, nothing written.
    let big = dir.join("big.txt");
    std::fs::File::create(&big)
        .expect("create")
        .set_len((64 << 20) + 1)
        .expect("set_len");
    let cases = [
        (fifo.display().to_string(), "a FIFO, not a regular file"),
        (
            "/dev/zero".to_string(),
            "a character device, not a regular file",
        ),
        (
            big.display().to_string(),
            "larger than 67108864 bytes (64 MiB)",
        ),
    ];
    for (path, said) in cases {
        let record = dir.join("record.txt");
        let _ = std::fs::remove_file(&record);
        let mut w = words(&[
            "--game", "othello", "--games", "2", "--seed", "5", "--depth", "1", "--quiet",
            "--record",
        ]);
        w.push(record.display().to_string());
        w.extend(words(&["--openings", &path]));
        w.extend(common::ab_against_rules());
        let start = std::time::Instant::now();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let r = tabula::arena::run(&common::parse(&w));
            let _ = tx.send(r.map(|_| ()).map_err(|e| e.to_string()));
        });
        let err = rx
            .recv_timeout(std::time::Duration::from_secs(5))
            .unwrap_or_else(|_| panic!("--openings {path}: the runner hangs"))
            .expect_err("refused");
        assert!(err.contains(said), "--openings {path}: {err}");
        assert!(err.contains("opening suite"), "--openings {path}: {err}");
        // Refused before any engine starts or game is played (the record
        // says none was): seconds only on a machine too busy to run the
        // parse, so the bound is generous.
        assert!(start.elapsed().as_secs_f64() < 4.0, "--openings {path}");
        assert!(!record.exists(), "--openings {path}: a game was started");
    }
}
