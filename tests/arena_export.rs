//! Exports others can read: GGF for Othello (replayed here move by move
//! to the recorded result), the Quoridor line-per-move text, and JSON
//! lines for every game.

use crate::common;

use common::{scratch, words};
use tabula::arena::referee_by_name;
use tabula::game::Turn;

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
