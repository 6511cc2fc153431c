//! The GUI's replay of a `tabula match` record: every step of a game, the
//! whole table shown (a record is public once played).

use std::time::{Duration, Instant};

use crate::common::{self, scratch, words};
use crate::gui_support::{Events, Json, Server, enc, http};

#[test]
fn gui_replay_steps_through_a_recorded_hearts_hand_with_every_hand_shown() {
    let dir = scratch("gui_replay");
    let path = dir.join("hearts.txt");
    let cmd = format!("cmd={}", env!("CARGO_BIN_EXE_tabula"));
    let args = words(&[
        "--game",
        "hearts",
        "-o",
        "hands=single",
        "--engine",
        &cmd,
        "name=rules",
        "set.search=rules",
        "--engine",
        &cmd,
        "name=random",
        "set.search=random",
        "--games",
        "4",
        "--concurrency",
        "1",
        "--seed",
        "11",
        "--quiet",
        "--record",
        &path.display().to_string(),
    ]);
    let report = tabula::arena::run(&common::parse(&args)).expect("match runs");
    let text = std::fs::read_to_string(&path).expect("record");
    for number in 1..=4 {
        let game = report
            .record
            .games
            .iter()
            .find(|g| g.number == number)
            .expect("every game recorded");
        let reply = tabula::gui::replay::replay_json(&text, number).expect("replays");
        let json = Json::parse(&reply).expect("JSON");
        assert_eq!(json.get("games").arr().len(), 4);
        assert_eq!(json.get("number").num(), Some(number as f64));
        // One step for the start and one for each deal or move.
        let told = game
            .transcript
            .iter()
            .filter(|l| l.starts_with("play ") || l.starts_with("deal "))
            .count();
        let steps = json.get("steps").arr();
        assert_eq!(steps.len(), told + 1, "game {number}");
        let last = game
            .transcript
            .iter()
            .rev()
            .find(|l| l.starts_with("play ") || l.starts_with("deal "));
        assert_eq!(steps.last().and_then(|s| s.get("line").str()), last);
        // Right after the deal, the whole table is face up: all 52 cards.
        let dealt = steps
            .iter()
            .position(|s| s.get("line").text().contains("deal"))
            .expect("a deal step");
        let view = steps[dealt].get("view").text();
        for suit in ['C', 'D', 'H', 'S'] {
            for rank in [
                '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A',
            ] {
                let card = format!("{rank}{suit}");
                assert!(
                    view.contains(&card),
                    "game {number}: {card} not shown after the deal"
                );
            }
        }
    }
    // A file that is no record is refused with a reason, not replayed.
    let bad = tabula::gui::replay::replay_json("# tabula-match 2\nplay south 2C\n", 1);
    assert!(bad.is_err());
}

/// Plays a whole game through the server's API: the person plays the
/// first legal move at each turn, after an undo at `undo_at` of their
/// moves. Returns the record the page downloads.
fn play_through_api(server: &Server, query: &str, undo_at: Option<usize>) -> String {
    let id = server.new_game(query);
    let events = Events::open(server.port, &id);
    let mut played = 0;
    let mut undone = false;
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(Instant::now() < deadline, "the game did not end");
        let Some(e) = events.next(Duration::from_secs(30)) else {
            panic!("no event");
        };
        let e = Json::parse(&e).expect("an event");
        match e.get("type").str() {
            Some("over") => break,
            Some("state") if *e.get("waiting") == Json::Bool(true) => {
                if !undone && Some(played) == undo_at {
                    let (status, body) =
                        http(server.port, "POST", &format!("/api/undo?s={id}"), "");
                    assert_eq!(status, 200, "{body}");
                    undone = true;
                    continue;
                }
                let legal = e.get("legal").strings();
                let mv = &legal[0];
                let (status, body) = http(
                    server.port,
                    "POST",
                    &format!("/api/move?s={id}&move={}", enc(mv)),
                    "",
                );
                assert_eq!(status, 200, "{mv}: {body}");
                played += 1;
            }
            _ => {}
        }
    }
    let (status, record) = http(server.port, "GET", &format!("/api/record?s={id}"), "");
    assert_eq!(status, 200, "{record}");
    events.close();
    record
}

#[test]
fn gui_records_read_back_merge_and_replay_whatever_the_names() {
    let server = Server::start(&[]);
    let dir = scratch("gui_records");
    let name = "Zoë \"Z\" O'Neil, 1=2";
    let games = [
        ("othello", "game=othello&you=1", Some(3)),
        (
            "quoridor",
            "game=quoridor&opt=size%3D5&opt=walls%3D2&you=0",
            Some(2),
        ),
        ("hearts", "game=hearts&opt=hands%3Dsingle&you=2", None),
        (
            "wizard",
            "game=wizard&opt=players%3D3&opt=rounds%3D2&you=0",
            None,
        ),
        (
            "ninetynine",
            "game=ninetynine&opt=players%3D3&opt=tokens%3D1&you=1",
            None,
        ),
    ];
    for (game, query, undo) in games {
        // Every engine seat plays `random` fast; one seat a different
        // budget, so that the engines' seats differ.
        let mut q = format!("{query}&name={}", enc(name));
        for s in 0..6 {
            q.push_str(&format!("&search{s}=random&ms{s}=10"));
        }
        q.push_str("&ms3=20");
        let text = play_through_api(&server, &q, undo);
        let path = dir.join(format!("{game}.txt"));
        std::fs::write(&path, &text).expect("write");
        let record = tabula::arena::record::MatchRecord::parse(&text, &path)
            .unwrap_or_else(|e| panic!("{game}: the page's record reads back: {e}\n{text}"));
        assert_eq!(record.games.len(), 1, "{game}");
        let g = &record.games[0];
        // One game, number 1 even after an undo, with every move counted.
        assert_eq!(g.number, 1, "{game}");
        let plays = g
            .transcript
            .iter()
            .filter(|l| l.starts_with("play "))
            .count();
        assert_eq!(g.plies, plays, "{game}: plies");
        // The person sits in the record under their name (made safe).
        let person = record
            .engines
            .iter()
            .position(|e| e.name.starts_with("Zo"))
            .unwrap_or_else(|| panic!("{game}: the person is not named: {text}"));
        assert!(g.seats.contains(&person), "{game}");
        assert_ne!(g.pairing.0, g.pairing.1, "{game}");
        // The page replays it, and the match runner merges it.
        let reply = tabula::gui::replay::replay_json(&text, 1).expect("replays");
        let steps = Json::parse(&reply).expect("JSON").get("steps").arr().len();
        let told = g
            .transcript
            .iter()
            .filter(|l| l.starts_with("play ") || l.starts_with("deal "))
            .count();
        assert_eq!(steps, told + 1, "{game}");
        let args = words(&[
            "--merge",
            &path.display().to_string(),
            "--quiet",
            "--no-record",
        ]);
        let merged = tabula::arena::run(&common::parse(&args))
            .unwrap_or_else(|e| panic!("{game}: merge: {e}\n{text}"));
        assert_eq!(merged.record.games.len(), 1, "{game}");
    }
    server.stop();
}

#[test]
fn gui_replay_replies_are_bounded_whatever_the_record() {
    // A long record: many Quoridor games of random play.
    let dir = scratch("gui_replay_bound");
    let path = dir.join("q.txt");
    let cmd = format!("cmd={}", env!("CARGO_BIN_EXE_tabula"));
    let args = words(&[
        "--game",
        "quoridor",
        "--engine",
        &cmd,
        "name=a",
        "set.search=random",
        "--engine",
        &cmd,
        "name=b",
        "set.search=random",
        "--games",
        "40",
        "--seed",
        "5",
        "--quiet",
        "--record",
        &path.display().to_string(),
    ]);
    tabula::arena::run(&common::parse(&args)).expect("match runs");
    let text = std::fs::read_to_string(&path).expect("record");
    let limit = 64 * 1024;
    let whole = tabula::gui::replay::replay_json(&text, 1).expect("replays");
    let total = Json::parse(&whole).unwrap().get("total").num().unwrap() as usize;
    // Window after window, each bounded, together every step once.
    let mut from = 0;
    let mut lines = Vec::new();
    while from < total {
        let reply = tabula::gui::replay::replay_window(&text, 1, from, limit).expect("a window");
        assert!(reply.len() <= limit + 16 * 1024, "{} bytes", reply.len());
        let j = Json::parse(&reply).unwrap();
        assert_eq!(j.get("from").num(), Some(from as f64));
        let steps = j.get("steps").arr();
        assert!(!steps.is_empty());
        lines.extend(steps.iter().map(|s| s.get("line").text()));
        from += steps.len();
    }
    let all: Vec<String> = Json::parse(&whole)
        .unwrap()
        .get("steps")
        .arr()
        .iter()
        .map(|s| s.get("line").text())
        .collect();
    assert_eq!(lines, all);
    assert!(tabula::gui::replay::replay_window(&text, 1, total, limit).is_err());
}

#[test]
fn gui_analysis_events_name_their_position_and_come_only_while_it_is_on_the_board() {
    let server = Server::start(&[]);
    let id = server.new_game("game=othello&you=0&search1=random&ms1=10");
    let (status, body) = http(
        server.port,
        "POST",
        &format!("/api/analysis?s={id}&on=1"),
        "",
    );
    assert_eq!(status, 200, "{body}");
    let events = Events::open(server.port, &id);
    let (mut analyses, mut moves) = (0, 0);
    let mut last_state: Option<(f64, bool)> = None;
    let mut waiting_since: Option<Instant> = None;
    let mut legal = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while moves < 8 {
        assert!(Instant::now() < deadline, "too slow");
        let e = events.next(Duration::from_millis(100));
        if let Some(e) = e {
            let e = Json::parse(&e).expect("an event");
            match e.get("type").str() {
                Some("state") => {
                    let waiting = *e.get("waiting") == Json::Bool(true);
                    last_state = Some((e.get("step").num().unwrap(), waiting));
                    if waiting {
                        legal = e.get("legal").strings();
                        waiting_since = Some(Instant::now());
                    }
                }
                Some("analysis") => {
                    // Its position is the one on the board: the last
                    // state's, no other state between.
                    let step = e.get("step").num().expect("an analysis names its step");
                    assert_eq!(Some(step), last_state.map(|s| s.0), "a stale analysis");
                    analyses += 1;
                }
                Some("over") => break,
                _ => {}
            }
        }
        // The person moves some time after the turn opened (sometimes at
        // once, sometimes after an analysis or two).
        if let Some(t) = waiting_since
            && t.elapsed() > Duration::from_millis(150 * (moves % 4))
        {
            waiting_since = None;
            let (status, body) = http(
                server.port,
                "POST",
                &format!("/api/move?s={id}&move={}", enc(&legal[0])),
                "",
            );
            assert_eq!(status, 200, "{body}");
            moves += 1;
        }
    }
    assert!(analyses > 0, "no analysis came");
    events.close();
    server.stop();
}
