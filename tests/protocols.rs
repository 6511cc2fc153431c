//! The other dialects over the same engine: GTP core for every game with
//! the start-up game (`boardsize` as the game has it), `--protocol nboard`
//! and `--protocol ugi`, their stops (`ping`, `stop`), and OpenSpiel's own
//! GTP client where it is installed. The exchanges themselves are golden
//! transcripts (tests/transcripts/nboard.txt, ugi.txt, gogui_rules.txt).

use std::io::Cursor;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tabula::engine::Engine;
use tabula::protocol::{Protocol, run_protocol};

/// Runs the binary with these arguments on this input: (stdout, stderr).
fn run(args: &[&str], input: &str) -> (String, String) {
    let out = crate::common::run_engine(5, args, input);
    assert!(out.status.success(), "exit status {:?}", out.status);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The replies of a GTP session, one string each (without the `=`/`?`
/// framing's empty line).
fn replies(out: &str) -> Vec<String> {
    out.split("\n\n")
        .filter(|r| !r.trim().is_empty())
        .map(|r| r.trim_start_matches('\n').trim_end().to_string())
        .collect()
}

/// A session in `protocol` on an engine in this process: its output.
fn session(protocol: Protocol, input: &str) -> String {
    let mut out = Vec::new();
    let engine = Engine::new(9).expect("engine starts");
    run_protocol(
        Cursor::new(input.as_bytes().to_vec()),
        &mut out,
        engine,
        protocol,
    );
    String::from_utf8(out).expect("UTF-8 output")
}

#[test]
fn boardsize_is_accepted_where_the_game_has_that_size_and_refused_clearly_otherwise() {
    let core = "boardsize 9\nclear_board\nplay b e2\ngenmove w\nundo\nundo\nboardsize 8\n\
                boardsize 11\nlegal_moves\nfinal_score\nshowboard\n";
    let (out, _) = run(&["--game", "quoridor"], core);
    let r = replies(&out);
    assert_eq!(r[0], "=", "boardsize 9 for Quoridor: {out}");
    assert_eq!(r[2], "=", "play b e2: {out}");
    assert!(r[3].starts_with("= "), "genmove w: {out}");
    assert_eq!(r[4], "=");
    assert_eq!(r[5], "=");
    assert!(
        r[6].starts_with("? unacceptable size: ") && r[6].contains("odd"),
        "boardsize 8 for Quoridor: {}",
        r[6]
    );
    assert_eq!(r[7], "=", "boardsize 11 (a size option Quoridor has)");
    // Eleven files: the pawn starts on f1.
    assert!(
        r[8].contains("f2") && r[8].contains("e1") && r[8].contains("g1"),
        "{}",
        r[8]
    );
    assert_eq!(r[9], "= ongoing");
    assert!(
        r[10].contains("   k") && r[10].contains(" 11 "),
        "{}",
        r[10]
    );

    let (out, _) = run(
        &["--game", "othello"],
        "boardsize 8\nboardsize 9\nplay b d3\n",
    );
    let r = replies(&out);
    assert_eq!(r[0], "=");
    assert_eq!(r[1], "? unacceptable size: othello is played on 8x8");
    assert_eq!(r[2], "=", "the refused size changed nothing: {out}");

    for game in ["hearts", "wizard", "ninetynine"] {
        let (out, _) = run(&["--game", game], "boardsize 8\nname\n");
        let r = replies(&out);
        // GoGui sets its board so: the refusal says where to play it.
        assert_eq!(
            r[0],
            format!(
                "? {game} has no board size; {game} has no board a GoGui-style GUI can draw (play it in tabula gui)"
            )
        );
        assert_eq!(r[1], "= tabula");
    }
}

#[test]
fn nboard_and_ugi_from_the_command_line_without_their_opening_line() {
    let (out, _) = run(
        &["--protocol", "nboard"],
        "set depth 2\nset game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)\nping 4\nquit\n",
    );
    assert_eq!(out, "set myname tabula2\npong 4\n");
    let (out, _) = run(
        &["--protocol", "ugi", "--game", "quoridor"],
        "isready\nposition startpos moves e2 e8\nquery p1turn\nposition startpos moves e2 e2\nquery p1turn\nquit\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "readyok");
    assert_eq!(lines[1], "response true");
    assert!(lines[2].starts_with("info string error: position refused, game unchanged: move 2"));
    assert_eq!(
        lines[3], "response true",
        "the refused position changed nothing"
    );
}

#[test]
fn ping_stops_a_running_hint_and_is_answered_after_it() {
    let started = Instant::now();
    let out = session(
        Protocol::Gtp,
        "nboard 2\nset depth 60\nset game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)\nhint 1\nping 7\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "depth 60 from the start would take for ever: the ping stopped it"
    );
    assert_eq!(lines.first(), Some(&"set myname tabula60"));
    assert_eq!(lines.last(), Some(&"pong 7"), "{out}");
    let hint = lines
        .iter()
        .position(|l| l.starts_with("search "))
        .expect("the stopped hint still reports its best line");
    let pong = lines.iter().position(|l| l.starts_with("pong")).unwrap();
    assert!(hint < pong, "the analysis ends before the pong: {out}");
}

#[test]
fn ugi_stop_ends_go_infinite_with_a_best_move() {
    let started = Instant::now();
    let out = session(
        Protocol::Ugi,
        "position startpos moves d3\ngo infinite\nstop\nquery p1turn\n",
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    let lines: Vec<&str> = out.lines().collect();
    let best = lines
        .iter()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("a best move after stop");
    assert!(
        ["c3", "c5", "e3"].contains(&best),
        "{best} is not a white reply to d3"
    );
    assert_eq!(
        lines.last(),
        Some(&"response false"),
        "the game is as it was"
    );
}

/// OpenSpiel's GTPBot drives tabula at Othello (full games against
/// OpenSpiel's bots), where open_spiel is installed (`pip install
/// open_spiel`); its Quoridor games are tests/quoridor_openspiel.rs's.
#[test]
fn openspiel_gtp_bot_plays_tabula_where_open_spiel_is_installed() {
    let present = Command::new("python3")
        .args(["-c", "import pyspiel, open_spiel.python.bots.gtp"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !present {
        eprintln!(
            "SKIPPED openspiel_gtp_bot_plays_tabula: open_spiel is not installed \
             (pip install open_spiel)"
        );
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/openspiel-gtp.py");
    let out = Command::new("python3")
        .arg(script)
        .args(["--tabula", env!("CARGO_BIN_EXE_tabula")])
        .args([
            "--games",
            "2",
            "--movetime",
            "20",
            "--mcts-simulations",
            "50",
        ])
        .stderr(Stdio::null())
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("failed 0"), "{text}");
    assert_eq!(
        text.matches(" moves\n").count(),
        2,
        "two finished games: {text}"
    );
}

#[test]
fn nboard_analyze_values_every_position_and_leaves_the_game() {
    let game = "set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6]W[F4];)";
    let out = session(
        Protocol::Nboard,
        &format!("set depth 3\n{game}\ngo\nanalyze\ngo\n"),
    );
    let lines: Vec<&str> = out.lines().collect();
    let analysed: Vec<usize> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("analysis "))
        .map(|l| {
            let (n, eval) = l.split_once(' ').expect("analysis <n> <eval>");
            assert!(eval.parse::<f64>().is_ok(), "{l}");
            n.parse().expect("a move number")
        })
        .collect();
    assert_eq!(analysed, vec![4, 3, 2, 1, 0], "{out}");
    let moves: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("=== "))
        .map(|l| l.split('/').next().unwrap_or(""))
        .collect();
    assert_eq!(moves.len(), 2, "{out}");
    assert_eq!(moves[0], moves[1], "the game is as it was after analyze");
}

/// Malformed lines of each line protocol: a clear refusal each, no panic,
/// and nothing but the protocol's own lines on the output.
#[test]
fn malformed_nboard_and_ugi_lines_are_refused_without_harm() {
    let nboard = [
        "nboard 2",
        "nboard 7",
        "set",
        "set depth",
        "set depth 0",
        "set depth 99999999999999999999",
        "set game",
        "set game (;;)",
        "set game (;BO[8 ",
        "set game (;GM[Go]BO[8 ---------------------------O*------*O--------------------------- *];)",
        "set game (;GM[Othello]TY[10]BO[10 -- *];)",
        "set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- ?];)",
        "set contempt x",
        "set frobnicate 3",
        "move",
        "move //",
        "move Z9/1/2",
        "hint",
        "hint -1",
        "hint x",
        "ping",
        "ping -3",
        "é",
        "go",
        "hint 2",
    ];
    let out = session(Protocol::Nboard, &(nboard.join("\n") + "\n"));
    for line in out.lines() {
        assert!(
            [
                "status",
                "pong",
                "===",
                "search",
                "nodestats",
                "set myname",
                "learned"
            ]
            .iter()
            .any(|w| line.starts_with(w)),
            "not an NBoard line: {line:?}"
        );
    }
    let refused = out
        .lines()
        .filter(|l| l.starts_with("status tabula: "))
        .count();
    assert_eq!(refused, nboard.len() - 3, "{out}");
    assert_eq!(
        out.matches("=== ").count(),
        1,
        "the start position still searched"
    );

    let ugi = [
        "position",
        "position fen",
        "position fen moves",
        "position startpos moves",
        "position fen 8/8/8 x",
        "position fen 8/8/8/3ox3/3xo3/8/8/9 x",
        "position fen 8/8/8/3ox3/3xo3/8/8/8 z",
        "position sideways",
        "go depth",
        "go depth x",
        "go movetime -5",
        "go wtime 100",
        "query",
        "query p1turn extra",
        "setoption name",
        "setoption name frobnicate value 3",
        "é",
        "query p1turn",
    ];
    let out = session(Protocol::Ugi, &(ugi.join("\n") + "\n"));
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines.iter().all(|l| l.starts_with("info string error: ")
            || l.starts_with("response")
            || *l == "bestmove 0000"),
        "{out}"
    );
    // Every refused `go` is still answered, with the null move: a runner
    // waits for its `bestmove`.
    let refused_go = ugi.iter().filter(|l| l.starts_with("go ")).count();
    assert_eq!(out.matches("bestmove 0000").count(), refused_go, "{out}");
    // `position startpos moves` is the start with no moves: accepted.
    assert_eq!(lines.len(), ugi.len() - 1 + refused_go, "{out}");
    assert_eq!(lines.last(), Some(&"response true"));
}

#[test]
fn nboard_hint_n_lists_the_n_best_moves_best_first() {
    // Four legal moves at the start; `hint 3` is a MultiPV search of 3.
    let out = session(
        Protocol::Nboard,
        "nboard 2\nset depth 4\nset game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)\nhint 3\nhint 1\n",
    );
    let searches: Vec<&str> = out.lines().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(
        searches.len(),
        4,
        "three lines for hint 3, one for hint 1: {out}"
    );
    let firsts: Vec<String> = searches[..3]
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap_or("")[..2].to_string())
        .collect();
    let mut distinct = firsts.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "three different moves: {out}");
    let evals: Vec<f64> = searches[..3]
        .iter()
        .map(|l| {
            l.split_whitespace()
                .nth(2)
                .and_then(|v| v.parse().ok())
                .unwrap_or(f64::NAN)
        })
        .collect();
    assert!(evals.windows(2).all(|w| w[0] >= w[1]), "best first: {out}");
    // hint 1's move is hint 3's first.
    assert!(
        searches[3]
            .split_whitespace()
            .nth(1)
            .unwrap_or("")
            .starts_with(&firsts[0]),
        "{out}"
    );
}

#[test]
fn a_pass_after_the_game_s_end_is_taken_as_nothing() {
    // A full board: the game is over. gogui-twogtp hands the last pass of
    // one program to the other, in any case; a pass changes nothing, a
    // move is still refused.
    let board = "O".repeat(40) + &"X".repeat(24) + " X";
    let input = format!(
        "setboard {board}\nplay W PASS\nplay b pass\nplay pass\nhistory\nplay w d3\nplay purple pass\nfinal_score\ngenmove b\ngenmove W\nhistory\n"
    );
    let out = session(Protocol::Gtp, &input);
    let r = replies(&out);
    assert_eq!(&r[..5], ["=", "=", "=", "=", "="], "{out}");
    assert!(r[5].starts_with("? "), "a move after the end: {out}");
    assert!(r[6].starts_with("? "), "no such seat: {out}");
    assert_eq!(r[7], "= W+16", "{out}");
    // And a genmove after the end answers the pass (twogtp asks each
    // program until both have passed), playing nothing.
    assert_eq!(&r[8..11], ["= pass", "= pass", "="], "{out}");
    // Before the end a pass is a move like any other, refused where the
    // side to move has moves.
    let out = session(Protocol::Gtp, "play b pass\n");
    assert!(out.starts_with("? "), "{out}");
}

#[test]
fn a_board_with_no_discs_is_refused_in_setboard_and_ugi_position() {
    let empty = "-".repeat(64);
    let out = session(Protocol::Gtp, &format!("setboard {empty} X\nlegal_moves\n"));
    let r = replies(&out);
    assert!(r[0].starts_with("? ") && r[0].contains("no discs"), "{out}");
    assert_eq!(r[1], "= d3 c4 f5 e6", "the game is unchanged: {out}");
    let out = session(
        Protocol::Ugi,
        "ugi\nposition fen 8/8/8/8/8/8/8/8 x\nquery gameover\ngo depth 2\n",
    );
    assert!(
        out.contains("info string error: position refused, game unchanged: ")
            && out.contains("no discs"),
        "{out}"
    );
    assert!(out.contains("response false"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("bestmove ") && l != "bestmove 0000"),
        "{out}"
    );
}

#[test]
fn ugi_go_is_answered_with_the_null_move_after_any_error() {
    // At the game's end, and with a bad parameter: `info string error`,
    // then `bestmove 0000`, which a runner waits for.
    let full = "xxxxxxxx/".repeat(7) + "xxxxxxxx x";
    let out = session(
        Protocol::Ugi,
        &format!("ugi\nposition fen {full}\ngo depth 2\nposition startpos\ngo frobs 3\ngo depth\n"),
    );
    let lines: Vec<&str> = out.lines().collect();
    let answers = lines.iter().filter(|l| **l == "bestmove 0000").count();
    assert_eq!(answers, 3, "{out}");
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .count()
            >= 3,
        "{out}"
    );
}

/// The files of src/protocol/ each file imports (by `crate::protocol::`
/// paths, `super::` and groups), tests left out; the facade is `mod`.
fn protocol_imports() -> std::collections::BTreeMap<String, Vec<String>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/protocol");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("src/protocol")
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".rs").map(str::to_string)
        })
        .collect();
    files.sort();
    let mut graph = std::collections::BTreeMap::new();
    for file in &files {
        let text = std::fs::read_to_string(dir.join(format!("{file}.rs"))).expect("source");
        let text = text.split("#[cfg(test)]").next().unwrap_or("");
        // Code only: a doc link is no import.
        let text: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let mut named = Vec::new();
        for prefix in ["crate::protocol::", "super::"] {
            if prefix == "super::" && file == "mod" {
                continue;
            }
            for (i, _) in text.match_indices(prefix) {
                let rest = &text[i + prefix.len()..];
                let words: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                    group
                        .split('}')
                        .next()
                        .unwrap_or("")
                        .split(',')
                        .map(|w| w.trim().split("::").next().unwrap_or("").trim())
                        .collect()
                } else {
                    vec![
                        rest.split(|c: char| !c.is_alphanumeric() && c != '_')
                            .next()
                            .unwrap_or(""),
                    ]
                };
                for w in words.into_iter().filter(|w| !w.is_empty()) {
                    let target = if files.iter().any(|f| f == w) {
                        w
                    } else {
                        "mod"
                    };
                    if target != file && !named.iter().any(|n| n == target) {
                        named.push(target.to_string());
                    }
                }
            }
        }
        graph.insert(file.clone(), named);
    }
    graph
}

#[test]
fn protocol_has_one_hub_and_no_import_circle() {
    let graph = protocol_imports();
    // Depth-first: a file met again on the path is a circle.
    fn visit(
        file: &str,
        graph: &std::collections::BTreeMap<String, Vec<String>>,
        path: &mut Vec<String>,
        done: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == file) {
            let mut circle = path[i..].to_vec();
            circle.push(file.to_string());
            return Some(circle);
        }
        if done.iter().any(|d| d == file) {
            return None;
        }
        path.push(file.to_string());
        for next in graph.get(file).into_iter().flatten() {
            if let Some(c) = visit(next, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.push(file.to_string());
        None
    }
    let mut done = Vec::new();
    for file in graph.keys() {
        if let Some(circle) = visit(file, &graph, &mut Vec::new(), &mut done) {
            panic!("an import circle in src/protocol: {}", circle.join(" -> "));
        }
    }
    // The dialects are leaves on the hub: none imports another, and the
    // hub none of them.
    let dialects = ["session", "nboard", "ugi"];
    for d in dialects {
        let imports = &graph[d];
        assert!(imports.iter().any(|i| i == "serve"), "{d}: {imports:?}");
        assert!(
            !imports.iter().any(|i| dialects.contains(&i.as_str())),
            "{d}: {imports:?}"
        );
    }
    assert!(
        !graph["serve"]
            .iter()
            .any(|i| dialects.contains(&i.as_str()) || i == "mod"),
        "{:?}",
        graph["serve"]
    );
}
