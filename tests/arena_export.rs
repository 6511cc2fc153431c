//! Exports others can read: GGF for Othello (replayed here move by move
//! to the recorded result), the Quoridor line-per-move text, and JSON
//! lines for every game.

use crate::common;

use common::{scratch, words};
use tabula::arena::referee_by_name;
use tabula::model::game::Turn;

fn run(game: &str, exports: &[String]) -> tabula::arena::MatchReport {
    let mut w = words(&[
        "--game",
        game,
        "--games",
        "4",
        "-j",
        "2",
        "--seed",
        "2",
        "--depth",
        "1",
        "--quiet",
        "--random-plies",
        "2",
        "--no-record",
        "--export",
    ]);
    w.extend(exports.iter().cloned());
    w.extend(common::ab_against_rules());
    tabula::arena::run(&common::parse(&w)).expect("match runs")
}

/// The bracketed values of `tag` in a GGF game, in order.
fn tags<'a>(game: &'a str, tag: &str) -> Vec<&'a str> {
    let open = format!("{tag}[");
    let mut out = Vec::new();
    let mut rest = game;
    while let Some(i) = rest.find(&open) {
        // A tag starts a property: not the tail of a longer name.
        let before = rest[..i].chars().last();
        rest = &rest[i + open.len()..];
        let end = rest.find(']').unwrap();
        if !before.is_some_and(|c| c.is_ascii_uppercase()) {
            out.push(&rest[..end]);
        }
    }
    out
}

#[test]
fn ggf_games_replay_to_their_result() {
    let dir = scratch("export-ggf");
    let ggf = dir.join("games.ggf");
    let jsonl = dir.join("games.jsonl");
    let report = run(
        "othello",
        &[
            format!("ggf={}", ggf.display()),
            format!("jsonl={}", jsonl.display()),
        ],
    );
    let text = std::fs::read_to_string(&ggf).unwrap();
    let games: Vec<&str> = text.lines().collect();
    assert_eq!(games.len(), 4);
    for (line, g) in games.iter().zip(&report.record.games) {
        assert!(
            line.starts_with("(;GM[Othello]") && line.ends_with(";)"),
            "{line}"
        );
        assert_eq!(
            tags(line, "PB"),
            [report.record.engines[g.seats[0]].name.as_str()]
        );
        assert_eq!(
            tags(line, "BO"),
            ["8 ---------------------------O*------*O--------------------------- *"]
        );
        // Replay the B[..] and W[..] properties after the board, in order.
        let mut referee = referee_by_name("othello", &[]).unwrap();
        let after_board = &line[line.find("BO[").unwrap()..];
        let mut rest = &after_board[after_board.find(']').unwrap() + 1..];
        while let Some(open) = rest.find('[') {
            let tag = &rest[..open];
            let close = rest.find(']').unwrap();
            let value = &rest[open + 1..close];
            rest = &rest[close + 1..];
            let mv = if value == "PA" {
                "pass".to_string()
            } else {
                value.to_ascii_lowercase()
            };
            let seat = if tag == "B" { 0 } else { 1 };
            assert_eq!(referee.turn(), Turn::Player(seat), "{line}");
            referee.play(&mv).unwrap();
        }
        assert_eq!(referee.turn(), Turn::Over, "{line}");
        let o = referee.outcome();
        let (b, w) = (o.scores[0] as i32, o.scores[1] as i32);
        let d = b - w;
        let margin = d + d.signum() * (64 - b - w);
        assert_eq!(tags(line, "RE"), [format!("{margin:+}.000")]);
    }
    let json = std::fs::read_to_string(&jsonl).unwrap();
    assert_eq!(json.lines().count(), 4);
    for (line, g) in json.lines().zip(&report.record.games) {
        assert!(line.starts_with("{\"game\":\"othello\""), "{line}");
        assert!(
            line.contains(&format!("\"number\":{},", g.number)),
            "{line}"
        );
        assert!(line.contains(&format!("\"plies\":{},", g.plies)), "{line}");
        assert!(
            line.contains("\"transcript\":[\"game othello\",\"play black "),
            "{line}"
        );
        assert!(line.ends_with("]}"));
    }
    // GGF is for Othello only: refused before any game.
    let err = tabula::arena::run(&common::parse(&words(&[
        "--game",
        "quoridor",
        "--export",
        "ggf=x.ggf",
        "--engine",
        "cmd=tabula",
        "--engine",
        "cmd=tabula",
    ])))
    .expect_err("refused");
    assert!(err.to_string().contains("othello"), "{err}");
}

#[test]
fn quoridor_text_replays_to_its_result() {
    let dir = scratch("export-quoridor");
    let path = dir.join("games.txt");
    let report = run("quoridor", &[format!("quoridor={}", path.display())]);
    let text = std::fs::read_to_string(&path).unwrap();
    let blocks: Vec<&str> = text
        .split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .collect();
    assert_eq!(blocks.len(), 4);
    for (block, g) in blocks.iter().zip(&report.record.games) {
        let mut referee = referee_by_name("quoridor", &[]).unwrap();
        let mut ply = 0;
        let mut result = "";
        for line in block.lines() {
            if let Some(r) = line.strip_prefix("[Result ") {
                result = r.trim_end_matches(']');
                continue;
            }
            if line.starts_with('[') {
                continue;
            }
            let w: Vec<&str> = line.split_whitespace().collect();
            ply += 1;
            assert_eq!(w[0], ply.to_string(), "{line}");
            assert_eq!(
                Turn::Player(if w[1] == "p1" { 0 } else { 1 }),
                referee.turn()
            );
            referee.play(w[2]).unwrap();
        }
        let winners = referee.outcome().winners;
        if g.ending == tabula::arena::record::Ending::Normal {
            let named: Vec<String> = winners.iter().map(|&s| referee.seat_name(s)).collect();
            assert_eq!(
                result,
                if named.len() == 1 {
                    named[0].clone()
                } else {
                    "draw".to_string()
                }
            );
        }
    }
}

/// Was: `--record R --export ggf=R` (or `jsonl=./R`) played the match,
/// then wrote the export over the record, exited 0 and still said
/// "Record: R". Now every output is in one check before the first game:
/// an export naming the record (by name, by `./`, by a link or a hard
/// link), the chart or another export is refused, and R is untouched.
#[cfg(unix)]
#[test]
fn an_export_on_the_record_or_another_output_is_refused_up_front() {
    let dir = scratch("export-same-file");
    let record = dir.join("R");
    let link = dir.join("link-to-R");
    let hard = dir.join("hard-R");
    let other = dir.join("other.jsonl");
    let record_text = record.display().to_string();
    let dotted = format!("{}/./R", dir.display());
    let cases: Vec<Vec<String>> = vec![
        vec![format!("ggf={record_text}")],
        vec![format!("jsonl={dotted}")],
        vec![format!("jsonl={}", link.display())],
        vec![format!("jsonl={}", hard.display())],
        vec![
            format!("ggf={}", other.display()),
            format!("jsonl={}", other.display()),
        ],
    ];
    for exports in cases {
        for p in [&record, &link, &hard, &other] {
            let _ = std::fs::remove_file(p);
        }
        std::fs::write(&record, "an earlier record\n").unwrap();
        std::os::unix::fs::symlink(&record, &link).unwrap();
        std::fs::hard_link(&record, &hard).unwrap();
        let mut w = words(&[
            "--game", "othello", "--games", "2", "--seed", "2", "--depth", "1", "--quiet",
            "--record",
        ]);
        w.push(record_text.clone());
        w.push("--export".to_string());
        w.extend(exports.iter().cloned());
        w.extend(common::ab_against_rules());
        let err = tabula::arena::run(&common::parse(&w)).expect_err("refused");
        assert!(err.to_string().contains("same file"), "{exports:?}: {err}");
        assert_eq!(
            std::fs::read_to_string(&record).unwrap(),
            "an earlier record\n",
            "{exports:?}: the record was touched"
        );
        assert!(!other.exists(), "{exports:?}");
    }
    // A merge: an export over a record it merges, or over its own record.
    let played = dir.join("played.txt");
    let mut w = words(&[
        "--game", "othello", "--games", "2", "--seed", "2", "--depth", "1", "--quiet", "--record",
    ]);
    w.push(played.display().to_string());
    w.extend(common::ab_against_rules());
    tabula::arena::run(&common::parse(&w)).expect("match runs");
    let before = std::fs::read_to_string(&played).unwrap();
    let merged = dir.join("merged.txt");
    for (record_flag, export) in [
        (None, format!("jsonl={}", played.display())),
        (Some(&merged), format!("ggf={}", merged.display())),
    ] {
        let mut w = words(&["--merge", &played.display().to_string(), "--quiet"]);
        if let Some(r) = record_flag {
            w.extend(words(&["--record", &r.display().to_string()]));
        }
        w.extend(words(&["--export", &export]));
        let err = tabula::arena::run(&common::parse(&w)).expect_err("refused");
        assert!(err.to_string().contains("same file"), "{export}: {err}");
        assert_eq!(std::fs::read_to_string(&played).unwrap(), before);
        assert!(!merged.exists());
    }
}
