//! Records: written, read back, merged; the report and chart from them.

use std::path::Path;

use tabula::arena::output::chart;
use tabula::arena::output::report::Summary;
use tabula::arena::record::{Ending, EngineInfo, Fault, GameRecord, MatchRecord};

fn engine(name: &str) -> EngineInfo {
    EngineInfo {
        name: name.to_string(),
        proto: "tabula".to_string(),
        command: "./tabula --quiet".to_string(),
        init: vec![
            "set search uct".to_string(),
            "set iterations 100".to_string(),
        ],
        settings: vec![("movetime".to_string(), "50".to_string())],
    }
}

/// A game of engines `a` (index 0) and `b` (1): `a_result` is a's seat result.
fn game(number: usize, a_first: bool, a_result: f64, ending: Ending) -> GameRecord {
    let seats = if a_first { vec![0, 1] } else { vec![1, 0] };
    let a_seat = if a_first { 0 } else { 1 };
    let mut seat_results = vec![1.0 - a_result; 2];
    seat_results[a_seat] = a_result;
    // The winners the results follow from (none for a draw).
    let winners = (0..2).filter(|&s| seat_results[s] == 1.0).collect();
    GameRecord {
        number,
        pairing: (0, 1),
        deal: (number as u64 - 1) / 2,
        seats,
        ending,
        scores: Some(vec![33.0, 31.0]),
        winners,
        seat_results,
        plies: 60,
        millis: 1234,
        transcript: ["game othello", "play black d3", "play white c5"]
            .into_iter()
            .collect(),
    }
}

fn record(seed: u64, engines: Vec<EngineInfo>, games: Vec<GameRecord>) -> MatchRecord {
    MatchRecord {
        game: "othello".to_string(),
        options: vec![],
        seeds: vec![seed],
        seat_names: vec!["black".to_string(), "white".to_string()],
        engines,
        shard: None,
        settings: Vec::new(),
        stopped: None,
        games,
    }
}

#[test]
fn write_read_round_trip() {
    let forfeit = Ending::Forfeit {
        engine: 1,
        fault: Fault::Timeout,
        detail: "no reply to '7 genmove white' within \"1.2s\"".to_string(),
    };
    let rec = record(
        42,
        vec![engine("uct"), engine("ab")],
        vec![
            game(1, true, 1.0, Ending::Normal),
            game(2, false, 0.5, Ending::MoveLimit),
            game(3, true, 1.0, forfeit),
            game(4, false, 0.0, Ending::Resign(0)),
        ],
    );
    let text = rec.to_text();
    assert!(text.starts_with("# tabula-match 2\n"));
    // The body is a replayable transcript: every non-comment line is a command.
    assert!(
        text.lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .all(|l| l.starts_with("game ") || l.starts_with("play "))
    );
    let back = MatchRecord::parse(&text, Path::new("mem")).expect("parses");
    assert_eq!(back, rec);
}

#[test]
fn parse_errors_name_the_line() {
    let err = MatchRecord::parse("hello\n", Path::new("x.txt"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("x.txt:1"), "{err}");
    let bad = "# tabula-match 1\n# match game=othello seats=black,white\n# engine name=a\n# game number=1 pairing=a,zz seats=a,zz results=1,0 deal=0 ending=normal\n";
    let err = MatchRecord::parse(bad, Path::new("x.txt"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("x.txt:4") && err.contains("zz"), "{err}");
}

#[test]
fn merging_two_runs_gives_one_report() {
    let one = record(
        1,
        vec![engine("uct"), engine("ab")],
        (1..=10)
            .map(|i| game(i, i % 2 == 1, 1.0, Ending::Normal))
            .collect(),
    );
    // The second run lists the engines the other way round: merged by name.
    let two_games = (1..=10)
        .map(|i| {
            let mut g = game(
                i,
                i % 2 == 1,
                if i <= 4 { 0.0 } else { 0.5 },
                Ending::Normal,
            );
            // Engine 0 here is "ab"; the pairing still lists uct first.
            g.pairing = (1, 0);
            g
        })
        .collect();
    let two = record(2, vec![engine("ab"), engine("uct")], two_games);
    let dir = std::env::temp_dir().join(format!("tabula-arena-merge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (p1, p2) = (dir.join("one.txt"), dir.join("two.txt"));
    one.write(&p1).unwrap();
    two.write(&p2).unwrap();
    let merged = MatchRecord::merge(&[
        MatchRecord::read(&p1).unwrap(),
        MatchRecord::read(&p2).unwrap(),
    ])
    .unwrap();
    assert_eq!(merged.games.len(), 20);
    assert_eq!(merged.seeds, vec![1, 2]);
    assert_eq!(
        merged
            .engines
            .iter()
            .map(|e| e.name.as_str())
            .collect::<Vec<_>>(),
        ["uct", "ab"]
    );
    assert!(
        merged
            .games
            .iter()
            .enumerate()
            .all(|(i, g)| g.number == i + 1)
    );
    let summary = Summary::compute(&merged, None);
    let uct = &summary.engines[0];
    // Run one: uct wins 10. Run two: in games 1-4 "ab" (the first there)
    // scored 0, i.e. uct won; in 5-10 draws.
    assert_eq!((uct.wdl.wins, uct.wdl.draws, uct.wdl.losses), (14, 6, 0));
    let p = &summary.pairings[0];
    assert_eq!((p.wdl.wins, p.wdl.draws, p.wdl.losses), (14, 6, 0));
    // A record of another game refuses to merge.
    let mut other = one.clone();
    other.game = "quoridor".to_string();
    assert!(MatchRecord::merge(&[one, other]).is_err());
}

#[test]
fn report_and_chart_show_the_numbers() {
    let mut games: Vec<GameRecord> = (1..=30)
        .map(|i| game(i, i % 2 == 1, 1.0, Ending::Normal))
        .collect();
    games.extend((31..=40).map(|i| game(i, i % 2 == 1, 0.5, Ending::Normal)));
    games.extend((41..=50).map(|i| game(i, i % 2 == 1, 0.0, Ending::Normal)));
    let rec = record(3, vec![engine("uct"), engine("ab")], games);
    let summary = Summary::compute(&rec, None);
    let text = summary.text(&rec);
    assert!(
        text.contains("uct vs ab: 50 games, W-D-L 30 - 10 - 10"),
        "{text}"
    );
    let e = summary.pairings[0].elo.unwrap();
    let elo = format!("{:+.1}", e.elo);
    let margin = format!("{:.1}", e.margin());
    assert!(
        text.contains(&format!("Elo difference: {elo} ± {margin}")),
        "{text}"
    );
    let svg = chart::svg(&rec, &summary);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("uct vs ab"));
    assert!(svg.contains("W 30 D 10 L 10 (50 games)"), "{svg}");
    assert!(svg.contains(&format!("Elo {elo} ± {margin}")), "{svg}");
    assert!(svg.contains("70.0%"), "{svg}");
}

/// Was: an engine named `my engine` (or `a,b`) wrote `pairing="my
/// engine",ab`, a line the record's own reader refused, and a comma in a
/// name split it in two. Now every key, value and list goes through the
/// record codec: any name, seat name, setting key or value reads back as
/// written, and the record merges.
#[test]
fn any_name_round_trips_through_the_record() {
    let names = [
        "my engine",
        "say \"hi\"",
        "k=v",
        "a,b",
        " edges ",
        "élève 名前",
        "back\\slash,\\",
    ];
    for (i, a) in names.iter().enumerate() {
        let b = names[(i + 1) % names.len()];
        let mut ea = engine(a);
        ea.settings = vec![
            ("my key".to_string(), "a = b, \"c\"".to_string()),
            ("k=x".to_string(), String::new()),
        ];
        ea.init = vec!["set name \"x y\"".to_string()];
        let mut rec = record(
            7,
            vec![ea, engine(b)],
            vec![
                game(1, true, 1.0, Ending::Resign(1)),
                game(2, false, 0.5, Ending::MoveLimit),
            ],
        );
        rec.seat_names = vec!["black, first".to_string(), "white \"second\"".to_string()];
        rec.settings = vec![("games".to_string(), "2".to_string())];
        let text = rec.to_text();
        let back =
            MatchRecord::parse(&text, Path::new("mem")).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, rec, "{text}");
        let mut other = rec.clone();
        other.seeds = vec![8];
        let merged = MatchRecord::merge(&[back, other]).expect("merges");
        assert_eq!(merged.games.len(), 4);
        assert_eq!(merged.engines[0].name, *a);
    }
}

/// What each engine is told (`set seed N`) is SHA-256 of the match seed,
/// the game and the seat (`tabula::arena::seed::engine_seed`), not a
/// number of the deal stream; a seat-bound card match with a small
/// explicit seed is warned about, others are not.
#[test]
fn engine_seeds_are_one_way_and_small_seeds_are_warned_about() {
    use crate::common::{fixture, nim_match, scratch, words};
    use tabula::arena::seed::engine_seed;
    let dir = scratch("record-seeds");
    let log = dir.join("first.log");
    let mut args = words(&[
        "--games",
        "2",
        "-j",
        "1",
        "--seed",
        "11",
        "--quiet",
        "--no-record",
    ]);
    args.extend(words(&[
        "--engine",
        &format!(
            "cmd={}",
            fixture("nim_engine.sh", &format!("good {}", log.display()))
        ),
        "name=first",
        "--engine",
        &format!("cmd={}", fixture("nim_engine.sh", "weak")),
        "name=second",
    ]));
    let report = nim_match(&args, &["stones=9"]);
    assert_eq!(report.record.games.len(), 2);
    let sent = std::fs::read_to_string(&log).unwrap();
    let mut told: Vec<u32> = sent
        .lines()
        .filter_map(|l| l.split(" set seed ").nth(1))
        .map(|n| n.trim().parse().unwrap())
        .collect();
    told.sort_unstable();
    // The first engine sits at seat 0 in game 1 and seat 1 in game 2.
    let mut expected = vec![engine_seed(11, 1, 0), engine_seed(11, 2, 1)];
    expected.sort_unstable();
    assert_eq!(told, expected, "{sent}");
    // The warning: said before any engine starts (these cannot start).
    let warned = |game: &str, seed: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args([
                "match",
                "--game",
                game,
                "--seed",
                seed,
                "--no-record",
                "--quiet",
            ])
            .args(["--engine", "cmd=/nonexistent/engine", "name=a"])
            .args(["--engine", "cmd=/nonexistent/engine", "name=b"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stderr).contains("small enough for a seat-bound engine")
    };
    assert!(warned("hearts", "7"));
    assert!(warned("wizard", "281474976710655"));
    assert!(!warned("hearts", "281474976710656"));
    assert!(!warned("othello", "7"));
}
