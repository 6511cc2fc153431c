//! Records that prove what they hold, and merges that refuse anything but
//! the whole of one match: shards of different counts, shards interrupted
//! or killed, records of other settings or other engines, and records cut
//! off or altered are refused, naming the difference or the missing deals.

use std::path::{Path, PathBuf};

use crate::common::{self, fixture, nim_match, scratch, words};
use tabula::arena::record::MatchRecord;
use tabula::arena::{self, ArenaError, MatchReport};

/// A shard (or with `shard` empty, the whole) of a 12-game Nim match of
/// seed 11, with `extra` words; its record path.
fn play(dir: &Path, name: &str, shard: &str, extra: &[&str]) -> PathBuf {
    let path = dir.join(name);
    let mut w = if extra.contains(&"--games") {
        Vec::new()
    } else {
        words(&["--games", "12"])
    };
    w.extend(words(&[
        "-j",
        "2",
        "--seed",
        "11",
        "--quiet",
        "--record",
        &path.display().to_string(),
    ]));
    if !extra.contains(&"--random-plies") {
        w.extend(words(&["--random-plies", "2"]));
    }
    if !shard.is_empty() {
        w.extend(words(&["--shard", shard]));
    }
    w.extend(words(extra));
    for (mode, name) in [("good", "good"), ("weak", "weak")] {
        w.extend(words(&[
            "--engine",
            &format!("cmd={}", fixture("nim_engine.sh", mode)),
            &format!("name={name}"),
        ]));
    }
    nim_match(&w, &["stones=9"]);
    path
}

fn merge(paths: &[&Path], extra: &[&str]) -> Result<MatchReport, ArenaError> {
    let mut a = vec!["--merge".to_string()];
    a.extend(paths.iter().map(|p| p.display().to_string()));
    a.extend(words(&["--quiet", "--no-record"]));
    a.extend(words(extra));
    arena::run(&common::parse(&a))
}

fn refused(paths: &[&Path], says: &[&str]) {
    let err = merge(paths, &[]).expect_err("refused").to_string();
    for s in says {
        assert!(err.contains(s), "'{s}' not in: {err}");
    }
}

#[test]
fn shards_of_different_counts_are_missing_deals() {
    let dir = scratch("merge-counts");
    // 12 games, 6 deals: 1/2 holds deals 0, 2, 4; 2/4 holds 1, 5.
    let a = play(&dir, "a.txt", "1/2", &[]);
    let b = play(&dir, "b.txt", "2/4", &[]);
    refused(&[&a, &b], &["deal 3 (games 7-8)", "shard 1/2", "shard 2/4"]);
    let partial = merge(&[&a, &b], &["--partial"]).unwrap();
    assert_eq!(partial.record.games.len(), 10);
    assert!(
        partial
            .text
            .contains("Missing (seed 11): deal 3 (games 7-8)"),
        "{}",
        partial.text
    );
    // The right shards make the whole match.
    let c = play(&dir, "c.txt", "2/2", &[]);
    assert_eq!(merge(&[&a, &c], &[]).unwrap().record.games.len(), 12);
}

#[test]
fn interrupted_and_empty_shards_are_missing_deals() {
    let dir = scratch("merge-interrupted");
    let a = play(&dir, "a.txt", "1/2", &[]);
    let b = play(&dir, "b.txt", "2/2", &[]);
    let text = std::fs::read_to_string(&b).unwrap();
    // Shard 2/2 as a match interrupted after its first 2 games leaves it:
    // its first games, the closing line, the report.
    let blocks: Vec<&str> = text.split("\n\n").collect();
    let header = blocks[0];
    let mut games: Vec<&str> = blocks
        .iter()
        .copied()
        .filter(|b| b.starts_with("# game "))
        .collect();
    games.sort_by_key(|b| {
        b.split_whitespace()
            .nth(2)
            .and_then(|w| w.strip_prefix("number="))
            .and_then(|n| n.parse::<usize>().ok())
    });
    let interrupted = dir.join("interrupted.txt");
    std::fs::write(
        &interrupted,
        format!(
            "{header}\n\n{}\n\n# stopped reason=interrupted games=2\n#| Interrupted after 2 of 6 games\n",
            games[..2].join("\n\n")
        ),
    )
    .unwrap();
    refused(
        &[&a, &interrupted],
        &[
            "deals 3, 5 (games 7-8, 11-12)",
            "stopped (interrupted) after 2 games",
        ],
    );
    // Killed before its first game: the header alone.
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, format!("{header}\n\n")).unwrap();
    refused(&[&a, &empty], &["deals 1, 3, 5 (games 3-4, 7-8, 11-12)"]);
    // And a single record of an interrupted match, alone.
    refused(&[&interrupted], &["deals 0, 2-5 (games 1-2, 5-12)"]);
}

#[test]
fn records_of_other_settings_or_engines_are_refused() {
    let dir = scratch("merge-settings");
    let a = play(&dir, "a.txt", "1/2", &[]);
    for (name, extra, says) in [
        ("games.txt", &["--games", "14"][..], "games=12 where"),
        ("movetime.txt", &["--movetime", "500"][..], "movetime=500"),
        (
            "plies.txt",
            &["--random-plies", "3"][..],
            "random-plies=2 where",
        ),
        ("moves.txt", &["--max-moves", "50"][..], "max-moves=2000"),
        ("tc.txt", &["--tc", "30"][..], "tc=30"),
        ("seeds.txt", &["--no-game-seeds"][..], "game-seeds=on"),
        // A budget of the engines' own.
        (
            "budget.txt",
            &["--each", "iterations=5"][..],
            "iterations=5",
        ),
    ] {
        let b = play(&dir, name, "2/2", extra);
        refused(&[&a, &b], &[says]);
    }
}

#[test]
fn altered_or_cut_records_are_refused() {
    let dir = scratch("merge-cut");
    let whole = play(&dir, "whole.txt", "", &[]);
    let text = std::fs::read_to_string(&whole).unwrap();
    let read = |name: &str, body: &str| -> Result<MatchRecord, String> {
        let path = dir.join(name);
        std::fs::write(&path, body).unwrap();
        MatchRecord::read(&path).map_err(|e| e.to_string())
    };
    assert!(read("same.txt", &text).is_ok());
    // Cut inside the last game's header line (a draw read as a loss, a
    // missing ms=...): every cut of that line is refused.
    let last = text.rfind("# game ").unwrap();
    let end = last + text[last..].find('\n').unwrap();
    for cut in (last + 8..end).step_by(7) {
        let err = read("cut.txt", &text[..cut]).expect_err("a cut line is refused");
        assert!(err.contains("cut off"), "{err}");
    }
    // Cut after the header line, or inside the transcript.
    for cut in [end + 1, end + 12] {
        let body = format!("{}\n", text[..cut].trim_end_matches('\n'));
        let err = read("cut2.txt", &body).expect_err("a cut game is refused");
        assert!(err.contains("transcript lines"), "{err}");
    }
    let first_game = text.find("# game ").unwrap();
    let line_end = first_game + text[first_game..].find('\n').unwrap();
    let line = &text[first_game..line_end];
    let edit = |from: &str, to: &str| {
        assert!(line.contains(from), "{line}");
        text.replacen(line, &line.replacen(from, to, 1), 1)
    };
    // Results that do not follow from the winners.
    let flipped = if line.contains("results=1,0") {
        edit("results=1,0", "results=0,1")
    } else {
        edit("results=0,1", "results=1,0")
    };
    let err = read("results.txt", &flipped).unwrap_err();
    assert!(err.contains("do not follow"), "{err}");
    // Three seats in a game of a two-seat match.
    let three = edit("seats=", "seats=good,");
    let err = read("three.txt", &three).unwrap_err();
    assert!(err.contains("3 seats in a game of a 2-seat match"), "{err}");
    // A field missing.
    let no_ms = edit(" ms=", " msx=");
    let err = read("noms.txt", &no_ms).unwrap_err();
    assert!(err.contains("no ms="), "{err}");
    // Two records joined: a second header is refused.
    let err = read("joined.txt", &format!("{text}{text}")).unwrap_err();
    assert!(err.contains("second record"), "{err}");
    let err = read(
        "joined2.txt",
        &format!("{text}{}\n", text.lines().nth(1).unwrap()),
    )
    .unwrap_err();
    assert!(err.contains("second '# match'"), "{err}");
    // A game that is not the game of its number in the match: the merge
    // checks the schedule.
    let deal = line
        .split_whitespace()
        .find(|w| w.starts_with("deal="))
        .unwrap();
    let moved = edit(deal, "deal=4");
    let path = dir.join("moved.txt");
    std::fs::write(&path, &moved).unwrap();
    let err = merge(&[&path], &[]).unwrap_err().to_string();
    assert!(err.contains("schedule"), "{err}");
}

#[test]
fn engines_are_compared_whole_not_by_name() {
    let dir = scratch("merge-engines");
    let a = play(&dir, "a.txt", "1/2", &[]);
    let b = play(&dir, "b.txt", "2/2", &[]);
    let text = std::fs::read_to_string(&b).unwrap();
    // The same name, another set-up line.
    let other = dir.join("other.txt");
    std::fs::write(
        &other,
        text.replacen("name=weak proto=tabula", "name=weak proto=gtp", 1),
    )
    .unwrap();
    refused(&[&a, &other], &["engine weak", "proto"]);
    // The engines in another order (their numbers would mean others).
    let swapped = text
        .replacen("index=0 name=good", "index=0 name=TMP", 1)
        .replacen("index=1 name=weak", "index=1 name=good", 1)
        .replacen("index=0 name=TMP", "index=0 name=weak", 1);
    let path = dir.join("swapped.txt");
    std::fs::write(&path, swapped).unwrap();
    refused(&[&a, &path], &["same engines"]);
}

#[test]
fn the_record_holds_the_settings() {
    let dir = scratch("merge-header");
    let path = play(
        &dir,
        "r.txt",
        "",
        &["--each", "movetime=300", "--table", "ba"],
    );
    let rec = MatchRecord::read(&path).unwrap();
    for (k, v) in [
        ("games", "12"),
        ("table", "BA"),
        ("random-plies", "2"),
        ("max-moves", "2000"),
        ("game-seeds", "on"),
    ] {
        assert_eq!(rec.setting(k), Some(v), "{k}");
    }
    for e in &rec.engines {
        assert!(
            e.settings
                .contains(&("movetime".to_string(), "300".to_string())),
            "{e:?}"
        );
    }
    assert_eq!(rec.stopped, None);
    assert!(rec.missing().unwrap().unwrap().is_empty());
}

/// Was: the missing-deals walk went through every game of `games=` (and
/// looked each deal up in a list: quadratic), so the record of a match of
/// `--games 100000000` stopped after a handful of games took hours to
/// merge. Now the time grows with the games present: the merge names the
/// missing range at once, whole or `--partial`, and an SPRT-stopped run
/// merges.
#[test]
fn a_huge_games_setting_with_a_handful_of_games_merges_at_once() {
    let dir = scratch("merge-huge");
    let played = play(&dir, "played.txt", "", &["--games", "4"]);
    let text = std::fs::read_to_string(&played).unwrap();
    assert!(text.contains(" games=4 "), "{text}");
    let huge = dir.join("huge.txt");
    std::fs::write(&huge, text.replacen(" games=4 ", " games=100000000 ", 1)).unwrap();
    let start = std::time::Instant::now();
    let err = merge(&[&huge], &[]).expect_err("missing games").to_string();
    assert!(
        err.contains("deals 2-49999999 (games 5-100000000)"),
        "{err}"
    );
    let partial = merge(&[&huge], &["--partial"]).expect("partial merge");
    assert_eq!(partial.record.games.len(), 4);
    assert!(
        partial
            .text
            .contains("Missing (seed 11): deals 2-49999999 (games 5-100000000)"),
        "{}",
        partial.text
    );
    // Two shards' worth, one missing in the middle too.
    let mut rec = MatchRecord::read(&huge).unwrap();
    rec.games.retain(|g| g.number != 2);
    let missing = rec.missing().unwrap().unwrap();
    assert_eq!(missing.games, vec![(2, 2), (5, 100_000_000)]);
    assert_eq!(missing.deals, vec![(0, 0), (2, 49_999_999)]);
    assert_eq!(missing.game_count(), 99_999_997);
    let secs = start.elapsed().as_secs_f64();
    assert!(secs < 1.0, "{secs} s");
}

/// Was: merging a version-1 record with a version-2 one said "records of
/// different matches" (of a setting missing from one): now it says that
/// one is version 1, which states no settings, and what to do.
#[test]
fn a_version_1_record_with_a_version_2_one_says_so() {
    let dir = scratch("merge-versions");
    let played = play(&dir, "v2.txt", "", &["--games", "4"]);
    let text = std::fs::read_to_string(&played).unwrap();
    let v1: String = text
        .replacen("# tabula-match 2", "# tabula-match 1", 1)
        .lines()
        .filter(|l| !l.starts_with("# settings"))
        .map(|l| format!("{l}\n"))
        .collect();
    let old = dir.join("v1.txt");
    std::fs::write(&old, v1).unwrap();
    assert!(MatchRecord::read(&old).unwrap().settings.is_empty());
    for pair in [[&old, &played], [&played, &old]] {
        let err = merge(&[pair[0], pair[1]], &[])
            .expect_err("refused")
            .to_string();
        assert!(err.contains("v1.txt is a version-1 record"), "{err}");
        assert!(err.contains("v2.txt a version-2 record"), "{err}");
        assert!(!err.contains("different matches"), "{err}");
    }
}

/// `--partial` keeps every whole game of a record cut anywhere after its
/// header (inside a line, between lines, inside a game's transcript or
/// header), and says how many bytes it left out; the part kept is itself a
/// whole record of those games.
#[test]
fn a_record_cut_anywhere_keeps_its_whole_games() {
    let dir = scratch("merge-cut-partial");
    let whole = play(&dir, "whole.txt", "", &[]);
    let text = std::fs::read_to_string(&whole).unwrap();
    let full = MatchRecord::parse(&text, Path::new("whole")).unwrap();
    assert_eq!(full.games.len(), 12);
    // Where each game's block ends (after its last transcript line).
    let mut ends = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        at += line.len();
        // A game's header starts its block; each transcript line (or
        // note) after it moves the block's end.
        if line.starts_with("# game ") {
            ends.push(at);
        } else if !line.trim().is_empty()
            && (!line.starts_with('#') || line.starts_with("# restart"))
            && let Some(end) = ends.last_mut()
        {
            *end = at;
        }
    }
    assert_eq!(ends.len(), 12);
    let header_end = text.find("\n\n").unwrap() + 2;
    for cut in header_end..=text.len() {
        let (rec, dropped) = MatchRecord::parse_whole_games(&text[..cut], Path::new("cut"))
            .unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
        let whole_games = ends.iter().filter(|&&e| e <= cut).count();
        assert_eq!(rec.games.len(), whole_games, "cut at {cut}");
        assert_eq!(rec.games[..], full.games[..whole_games], "cut at {cut}");
        let kept = &text[..cut - dropped.bytes];
        let again = MatchRecord::parse(kept, Path::new("kept"))
            .unwrap_or_else(|e| panic!("cut at {cut}, kept {}: {e}", kept.len()));
        assert_eq!(again.games, rec.games, "cut at {cut}");
        // Nothing whole is left out: the dropped bytes hold no game's end.
        assert!(
            !ends.iter().any(|&e| e > cut - dropped.bytes && e <= cut),
            "cut at {cut}: {dropped:?}"
        );
    }
    // Through the runner: cut inside the last line, merged with --partial,
    // the whole games counted and the bytes said; refused without it.
    let last = text.rfind("play ").unwrap() + 3;
    let cut = dir.join("cut.txt");
    std::fs::write(&cut, &text[..last]).unwrap();
    let err = merge(&[&cut], &[]).unwrap_err().to_string();
    assert!(err.contains("cut off"), "{err}");
    let report = merge(&[&cut], &["--partial"]).expect("--partial merges the whole games");
    assert_eq!(report.record.games.len(), 11);
    let game_start = text[..last].rfind("# game ").unwrap();
    assert!(
        report.text.contains(&format!(
            "Cut off: {}: {} bytes at its end left out (game {}, cut off)",
            cut.display(),
            last - game_start,
            full.games[11].number
        )),
        "{}",
        report.text
    );
    assert!(report.text.contains("Missing (seed 11)"), "{}", report.text);
    // Cut inside a character of a name (UTF-8): the same.
    let accented = text.replace("weak", "wéak");
    let in_char = accented.rfind("wéak").unwrap() + 2;
    std::fs::write(&cut, &accented.as_bytes()[..in_char]).unwrap();
    let report = merge(&[&cut], &["--partial"]).expect("a cut character is a cut line");
    assert!(report.record.games.len() >= 10, "{}", report.text);
    assert!(report.text.contains("Cut off:"), "{}", report.text);
}
