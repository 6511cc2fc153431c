//! `tabula gui` at the level of its messages: no hidden card reaches the
//! page over whole games, hostile requests change nothing, and closing
//! the page or the server leaves no engine process.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use tabula::games::cards::CardSet;
use tabula::games::hearts::Hearts;
use tabula::games::ninetynine::NinetyNine;
use tabula::games::wizard::Wizard;
use tabula::model::game::{Game, Seat};
use tabula::model::options::Options;
use tabula::model::played::Played;

use crate::gui_support::{Events, Json, Pick, Server, enc, engine_processes, http, http_host};

/// The card-like words of a message: `QS`, `TH` (also inside `AH11`,
/// `TH+`, `2C+3C+4C`), Wizards `Z1`.. and Jesters `N1`...
fn card_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        let b = word.as_bytes();
        if b.len() < 2 {
            continue;
        }
        let card = &word[..2];
        let rest = &word[2..];
        let is_card = match (b[0], b[1]) {
            (b'2'..=b'9' | b'T' | b'J' | b'Q' | b'K' | b'A', b'C' | b'D' | b'H' | b'S') => {
                rest.is_empty() || rest == "1" || rest == "11"
            }
            (b'Z' | b'N', b'1'..=b'4') => rest.is_empty(),
            _ => false,
        };
        if is_card {
            out.push(card.to_string());
        }
    }
    out
}

/// For each step of a recorded game, the cards the person at `seat` may
/// not see: every other hand (less, in Hearts, the cards it passed
/// there), computed on the full game replayed from the record.
trait Hidden: Game {
    fn hidden(&self, seat: Seat) -> CardSet;
    fn hand_count(&self) -> u32;
}

fn others<F: Fn(Seat) -> CardSet>(n: usize, seat: Seat, hand: F) -> CardSet {
    let mut all = CardSet::EMPTY;
    for s in (0..n).filter(|&s| s != seat) {
        all = CardSet(all.0 | hand(s).0);
    }
    all
}

impl Hidden for Hearts {
    fn hidden(&self, seat: Seat) -> CardSet {
        let h = others(4, seat, |s| self.hand(s));
        CardSet(h.0 & !self.passed_cards(seat).0)
    }
    fn hand_count(&self) -> u32 {
        self.hand_number() + 1
    }
}

impl Hidden for Wizard {
    fn hidden(&self, seat: Seat) -> CardSet {
        others(self.num_seats(), seat, |s| self.hand(s))
    }
    fn hand_count(&self) -> u32 {
        self.round() as u32 + 1
    }
}

impl Hidden for NinetyNine {
    fn hidden(&self, seat: Seat) -> CardSet {
        others(self.num_seats(), seat, |s| {
            let mut set = CardSet::EMPTY;
            for c in self.hand(s) {
                set.insert(c);
            }
            set
        })
    }
    fn hand_count(&self) -> u32 {
        self.hand_number() + 1
    }
}

/// The hidden cards after each step of the recorded game, the cards
/// played face up by each step (one card a move), and its hands.
fn hidden_by_step<G: Hidden>(record: &str, seat: Seat) -> (Vec<CardSet>, Vec<CardSet>, u32) {
    let mut lines = record
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty());
    let head = lines.next().expect("a game line");
    let words: Vec<String> = head
        .split_whitespace()
        .skip(2)
        .map(str::to_string)
        .collect();
    let options = Options::parse(G::OPTIONS, &words).expect("the record's options");
    let mut game = Played::new(G::new_game(&options).expect("the game"));
    let mut hidden = vec![game.state().hidden(seat)];
    let mut shown = vec![CardSet::EMPTY];
    for line in lines {
        let mut w = line.split_whitespace();
        let text = match w.next() {
            Some("play") => w.nth(1).expect("a move").to_string(),
            Some("deal") => line["deal".len()..].trim().to_string(),
            _ => continue,
        };
        game.play(&text)
            .unwrap_or_else(|e| panic!("replay '{line}': {e}"));
        hidden.push(game.state().hidden(seat));
        let mut now = *shown.last().expect("the first step");
        if line.starts_with("play")
            && let Ok(card) = text.parse()
        {
            now.insert(card);
        }
        shown.push(now);
    }
    (hidden, shown, game.state().hand_count())
}

/// Plays whole games of `query` with the person choosing at random until
/// `hands` hands are done; checks every message against the record.
/// Returns (hands, messages, card words checked).
fn play_card_games<G: Hidden>(
    server: &Server,
    query: &str,
    seat: Seat,
    hands: u32,
) -> (u32, usize, usize) {
    let mut pick = Pick(0x9E37_79B9_7F4A_7C15);
    let (mut played, mut messages, mut words) = (0, 0, 0);
    while played < hands {
        let id = server.new_game(query);
        let events = Events::open(server.port, &id);
        let mut seen: Vec<(usize, String)> = Vec::new();
        let mut step = 0;
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            assert!(Instant::now() < deadline, "a game took too long");
            let Some(text) = events.next(Duration::from_secs(30)) else {
                panic!("no event for 30 s");
            };
            let e = Json::parse(&text).expect("JSON event");
            if let Some(s) = e.get("step").num() {
                step = s as usize;
            }
            seen.push((step, text.clone()));
            match e.get("type").str() {
                Some("over") => break,
                Some("state") => {
                    let legal = e.get("legal").strings();
                    if e.get("to_move").num() == Some(seat as f64) && !legal.is_empty() {
                        let mv = &legal[pick.below(legal.len())];
                        let (status, body) = http(
                            server.port,
                            "POST",
                            &format!("/api/move?s={id}&move={}", enc(mv)),
                            "",
                        );
                        // Refused only when the referee is not yet
                        // waiting for this turn; the next event repeats it.
                        assert!(
                            status == 200 || body.contains("not your turn"),
                            "move {mv}: {status} {body}"
                        );
                    }
                }
                _ => {}
            }
        }
        let (status, record) = http(server.port, "GET", &format!("/api/record?s={id}"), "");
        assert_eq!(status, 200, "record: {record}");
        let game: String = record
            .split("\n# game ")
            .nth(1)
            .map(|g| g.split_once('\n').map_or("", |(_, t)| t).to_string())
            .expect("a game in the record");
        let (hidden, shown, count) = hidden_by_step::<G>(&game, seat);
        for (step, text) in &seen {
            let hidden = hidden[(*step).min(hidden.len() - 1)];
            let shown = shown[(*step).min(shown.len() - 1)];
            let e = Json::parse(text).expect("JSON event");
            // The last plays the view repeats may be of the hand before,
            // and a card played face up then may lie in another hand now
            // (Ninety-Nine deals again): each such mention is allowed once,
            // if the record shows the card played by this step.
            let mut past: Vec<String> = e
                .get("view")
                .get("last")
                .arr()
                .iter()
                .filter_map(|m| m.get("move").str())
                // A Ninety-Nine play names its card with a sign ("TS-").
                .flat_map(card_words)
                .collect();
            // Hearts: the holder of 2C is told just before it leads it.
            let opener: HashSet<String> = e
                .get("told")
                .strings()
                .iter()
                .filter(|l| l.split_whitespace().count() == 3 && l.starts_with("deal "))
                .filter_map(|l| l.split_whitespace().nth(2).map(str::to_string))
                .collect();
            for w in card_words(text) {
                words += 1;
                let card = w.parse().expect("a card");
                if let Some(i) = past.iter().position(|p| *p == w)
                    && shown.contains(card)
                {
                    past.swap_remove(i);
                    continue;
                }
                assert!(
                    !hidden.contains(card) || opener.contains(&w),
                    "hidden card {w} at step {step} in {text}"
                );
            }
        }
        messages += seen.len();
        played += count;
        events.close();
        http(server.port, "POST", &format!("/api/close?s={id}"), "");
    }
    (played, messages, words)
}

const ENGINES: &str = "search0=random&ms0=10&search1=random&ms1=10&search2=random&ms2=10&search3=random&ms3=10&advisor=0";

#[test]
fn gui_no_hidden_card_reaches_the_page() {
    // 100 hands of each card game take a few minutes on a small machine;
    // TABULA_GUI_HANDS=100 runs them all (the figure in docs/gui.md).
    let hands: u32 = std::env::var("TABULA_GUI_HANDS")
        .ok()
        .and_then(|h| h.parse().ok())
        .unwrap_or(12);
    let server = Server::start(&["--max-movetime", "1000"]);
    let q = |game: &str, you: usize, opts: &str| {
        let e: String = ENGINES
            .split('&')
            .filter(|kv| {
                !kv.starts_with(&format!("search{you}=")) && !kv.starts_with(&format!("ms{you}="))
            })
            .collect::<Vec<_>>()
            .join("&");
        format!("game={game}&you={you}&{opts}{e}")
    };
    let hearts = play_card_games::<Hearts>(&server, &q("hearts", 2, "opt=target=40&"), 2, hands);
    let wizard = play_card_games::<Wizard>(
        &server,
        &q("wizard", 1, "opt=players=3&opt=rounds=4&"),
        1,
        hands,
    );
    let nn = play_card_games::<NinetyNine>(
        &server,
        &q("ninetynine", 0, "opt=players=3&opt=tokens=2&"),
        0,
        hands,
    );
    eprintln!(
        "hands, messages, card words checked: hearts {hearts:?}, wizard {wizard:?}, ninety-nine {nn:?}"
    );
    for (_, _, words) in [hearts, wizard, nn] {
        assert!(
            words > 100,
            "the messages show cards (the check is not vacuous)"
        );
    }
    server.stop();
}

/// Waits until `f` holds.
fn eventually(timeout: Duration, mut f: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    f()
}

/// The first event of `events` that is the person's turn.
fn my_turn(events: &Events) -> Json {
    loop {
        let text = events
            .next(Duration::from_secs(20))
            .expect("an event before the person's turn");
        let e = Json::parse(&text).unwrap();
        if e.get("type").str() == Some("state")
            && !e.get("legal").arr().is_empty()
            && e.get("to_move") == e.get("you")
        {
            return e;
        }
    }
}

#[test]
fn gui_hostile_requests_get_an_error_and_change_nothing() {
    let server = Server::start(&[]);
    let port = server.port;
    let id = server.new_game("game=othello&you=0&search1=random&ms1=10&advisor=0");
    let events = Events::open(port, &id);
    let turn = my_turn(&events);
    let legal = turn.get("legal").strings();
    let position = turn.get("view").get("position").clone();
    let refused = [
        ("POST", format!("/api/move?s={id}&move=a1"), 409, "illegal"),
        (
            "POST",
            format!("/api/move?s={id}&move=z9"),
            409,
            "malformed",
        ),
        (
            "POST",
            format!("/api/move?s={id}&move={}", "x".repeat(100)),
            400,
            "short",
        ),
        ("POST", format!("/api/move?s={id}"), 400, "no move"),
        (
            "POST",
            "/api/move?s=0123&move=d3".to_string(),
            404,
            "no such game",
        ),
        ("GET", format!("/api/move?s={id}&move=d3"), 405, "method"),
        (
            "POST",
            "/api/new?game=othello&opt=weights=/etc/passwd".to_string(),
            400,
            "not offered",
        ),
        (
            "POST",
            "/api/new?game=hearts&opt=seat=1".to_string(),
            400,
            "not offered",
        ),
        (
            "POST",
            "/api/new?game=chess".to_string(),
            400,
            "unknown game",
        ),
        (
            "POST",
            "/api/new?game=othello&you=0&engine1=7".to_string(),
            400,
            "engine",
        ),
        (
            "POST",
            "/api/new?game=othello&you=0&ms1=999999".to_string(),
            400,
            "move time",
        ),
        (
            "POST",
            "/api/new?game=othello&you=0&search1=solve".to_string(),
            400,
            "search",
        ),
        (
            "POST",
            "/api/new?game=othello&you=9".to_string(),
            400,
            "seat",
        ),
        (
            "POST",
            "/api/new?game=hearts&you=none".to_string(),
            400,
            "one seat",
        ),
        ("GET", "/../../etc/passwd".to_string(), 404, "not found"),
        ("GET", "/api/record?s=".to_string(), 404, "no such game"),
    ];
    for (method, path, status, says) in &refused {
        let (got, body) = http(port, method, path, "");
        assert_eq!(got, *status, "{method} {path}: {body}");
        assert!(body.contains(says), "{method} {path}: {body}");
    }
    let (got, body) = http_host(port, "GET", "/api/setup", "", "evil.example:80");
    assert_eq!((got, body.contains("Host")), (403, true), "{body}");
    let (got, _) = {
        let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        use std::io::{Read, Write};
        s.write_all(b"\x00\x01garbage\r\n\r\n").unwrap();
        let mut out = String::new();
        let _ = s.read_to_string(&mut out);
        (out.split_whitespace().nth(1).unwrap_or("").to_string(), out)
    };
    assert_eq!(got, "400");
    // A cross-site page may not play for the person.
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    {
        use std::io::{Read, Write};
        let mv = &legal[0];
        write!(
            s,
            "POST /api/move?s={id}&move={mv} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://evil.example\r\nContent-Length: 0\r\n\r\n"
        )
        .unwrap();
        let mut out = String::new();
        let _ = s.read_to_string(&mut out);
        assert!(out.starts_with("HTTP/1.1 403"), "{out}");
    }
    // Nothing changed: the same position and moves, and a legal move plays.
    let (got, body) = http(
        port,
        "POST",
        &format!("/api/move?s={id}&move={}", legal[0]),
        "",
    );
    assert_eq!((got, body.as_str()), (200, "{\"ok\":true}"));
    let after = loop {
        let e = Json::parse(&events.next(Duration::from_secs(10)).expect("an event")).unwrap();
        if e.get("last").get("move").str().is_some() {
            break e;
        }
    };
    assert_eq!(after.get("last").get("move").str(), Some(legal[0].as_str()));
    assert_ne!(after.get("view").get("position"), &position);
    // Two games at once are two sessions with their own positions.
    let other = server.new_game("game=othello&you=1&search0=random&ms0=10&advisor=0");
    assert_ne!(other, id);
    let events2 = Events::open(port, &other);
    let turn2 = my_turn(&events2);
    assert_eq!(turn2.get("you").num(), Some(1.0));
    server.stop();
}

#[test]
fn gui_closing_the_page_or_the_server_leaves_no_engine() {
    // A closed page's game is kept for --keep seconds (a reload resumes
    // it), then ends with its engines.
    let server = Server::start(&["--keep", "2"]);
    let pid = server.child.id();
    let hearts =
        "game=hearts&you=2&search0=random&ms0=50&search1=random&ms1=50&search3=random&ms3=50";
    let first = server.new_game(hearts);
    let second = server.new_game(hearts);
    let e1 = Events::open(server.port, &first);
    let e2 = Events::open(server.port, &second);
    my_turn(&e1);
    my_turn(&e2);
    // Three engines and the analysis engine per game.
    assert!(
        eventually(Duration::from_secs(10), || engine_processes(pid).len() == 8),
        "engines: {:?}",
        engine_processes(pid)
    );
    let started = Instant::now();
    e1.close();
    assert!(
        eventually(Duration::from_secs(15), || engine_processes(pid).len() == 4),
        "after the page closed: {:?}",
        engine_processes(pid)
    );
    eprintln!(
        "a closed page's engines ended within {:?}",
        started.elapsed()
    );
    let started = Instant::now();
    let status = server.stop();
    assert!(
        status.success(),
        "the server exits cleanly on SIGTERM: {status}"
    );
    assert!(
        eventually(Duration::from_secs(5), || engine_processes(pid).is_empty()),
        "after the server stopped: {:?}",
        engine_processes(pid)
    );
    eprintln!(
        "the server and its engines ended within {:?}",
        started.elapsed()
    );
    drop(e2);
}

/// Sends `request` as it is; returns the status, the head and the body.
fn raw(port: u16, request: &str) -> (u16, String, String) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).ok();
    s.write_all(request.as_bytes()).expect("write");
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let out = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = out.split_once("\r\n\r\n").unwrap_or((&out, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, head.to_string(), body.to_string())
}

/// `tabula gui` with `args`: the child and the URL line it printed.
pub(crate) fn start_with(args: &[&str]) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["gui", "--port", "0"])
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start tabula gui");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the URL line");
    (child, line.trim().to_string())
}

/// The port of a printed URL (`http://ADDRESS:PORT/...`).
pub(crate) fn port_of(url: &str) -> u16 {
    let rest = url.split("//").nth(1).expect("an address");
    let host = rest.split('/').next().expect("a host");
    host.rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {url}"))
}

#[test]
fn gui_idle_connections_held_by_another_process_do_not_starve_a_new_game() {
    use std::io::Write;
    let server = Server::start(&[]);
    let port = server.port;
    // Another local process: 200 silent connections, 20 that trickle a
    // request head, and 10 event streams of one game.
    let mut held = Vec::new();
    for _ in 0..200 {
        held.push(std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect"));
    }
    let mut trickle = Vec::new();
    for _ in 0..20 {
        let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
        s.write_all(b"GET /api/setup HTTP/1.1\r\nHo")
            .expect("write");
        trickle.push(s);
    }
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let id = server.new_game("game=othello&you=0&search1=random&ms1=10&advisor=0");
    let events = Events::open(port, &id);
    let turn = my_turn(&events);
    let took = started.elapsed();
    eprintln!("with 220 idle connections held, a new game was the person's to play in {took:?}");
    assert!(took < crate::common::quiet_bound(1000), "{took:?}");
    assert!(!turn.get("legal").arr().is_empty());
    // The held connections were shed to make room, oldest first, or
    // still wait: none of them was answered with a page.
    let mut streams = Vec::new();
    for _ in 0..10 {
        streams.push(Events::open(port, &id));
    }
    // The page's own stream may have been replaced by the newer ones:
    // the game still plays, and a new stream shows it.
    let legal = turn.get("legal").strings();
    let (status, body) = http(
        port,
        "POST",
        &format!("/api/move?s={id}&move={}", legal[0]),
        "",
    );
    assert_eq!((status, body.as_str()), (200, "{\"ok\":true}"));
    let (status, _) = http(port, "GET", "/api/setup", "");
    assert_eq!(status, 200);
    drop((held, trickle, streams, events));
    server.stop();
}

#[test]
fn gui_duplicate_or_malformed_framing_headers_are_refused() {
    let server = Server::start(&[]);
    let port = server.port;
    let host = format!("127.0.0.1:{port}");
    let cases = [
        format!("GET /api/setup HTTP/1.1\r\nHost: {host}\r\nHost: evil.example\r\n\r\n"),
        format!("GET /api/setup HTTP/1.1\r\nHost: evil.example\r\nHost: {host}\r\n\r\n"),
        format!(
            "POST /api/replay HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\nhello"
        ),
        format!("POST /api/replay HTTP/1.1\r\nHost: {host}\r\nContent-Length: +5\r\n\r\nhello"),
        format!(
            "POST /api/replay HTTP/1.1\r\nHost: {host}\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\nhello"
        ),
    ];
    for request in &cases {
        let (status, _, body) = raw(port, request);
        assert_eq!(status, 400, "{request:?}: {body}");
    }
    let (status, _, _) = raw(
        port,
        &format!("GET /api/setup HTTP/1.1\r\nHost: {host}\r\n\r\n"),
    );
    assert_eq!(status, 200);
    server.stop();
}

#[test]
fn gui_host_and_origin_hold_on_every_address_and_beyond_loopback_a_token() {
    // Loopback other than 127.0.0.1: its own address is accepted.
    let (mut child, url) = start_with(&["--listen", "127.0.0.2"]);
    let port = port_of(&url);
    let ask = |host: &str, extra: &str| {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(("127.0.0.2", port)).expect("connect");
        write!(s, "GET /api/setup HTTP/1.1\r\nHost: {host}\r\n{extra}\r\n").unwrap();
        let mut out = String::new();
        let _ = s.read_to_string(&mut out);
        out.split_whitespace()
            .nth(1)
            .and_then(|c| c.parse::<u16>().ok())
            .unwrap_or(0)
    };
    assert_eq!(ask(&format!("127.0.0.2:{port}"), ""), 200, "{url}");
    assert_eq!(ask(&format!("localhost:{port}"), ""), 200);
    assert_eq!(ask(&format!("rebound.example:{port}"), ""), 403);
    assert_eq!(
        ask(
            &format!("127.0.0.2:{port}"),
            "Origin: http://rebound.example\r\n"
        ),
        403
    );
    let _ = child.kill();
    let _ = child.wait();

    // Every address: a token in the printed URL, and allowed names only.
    let (mut child, url) = start_with(&["--listen", "0.0.0.0", "--allow-host", "box.test"]);
    let port = port_of(&url);
    let token = url
        .split("token=")
        .nth(1)
        .unwrap_or_else(|| panic!("no token in {url}"))
        .to_string();
    assert!(token.len() >= 32, "{url}");
    let get = |path: &str, host: &str, extra: &str| {
        raw(
            port,
            &format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}\r\n"),
        )
    };
    let named = format!("box.test:{port}");
    // No token: the API refused, whatever the name (a rebinding page has
    // none); the page's files, which hold no secret, served.
    let (status, _, body) = get("/api/setup", &named, "");
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("token"), "{body}");
    let (status, _, _) = get("/api/setup", &format!("127.0.0.1:{port}"), "");
    assert_eq!(status, 403);
    let (status, head, _) = get("/", &named, "");
    assert_eq!(status, 200, "{head}");
    // With the token: the page, and no cookie (a cookie would go to every
    // port of this host); a cookie with the token opens nothing.
    let (status, head, _) = get(&format!("/?token={token}"), &named, "");
    assert_eq!(status, 200, "{head}");
    assert!(!head.to_ascii_lowercase().contains("set-cookie"), "{head}");
    let pair = format!("tabula_token_{port}={token}");
    let (status, _, _) = get("/api/setup", &named, &format!("Cookie: {pair}\r\n"));
    assert_eq!(status, 403);
    let (status, _, _) = get(&format!("/api/setup?token={token}"), &named, "");
    assert_eq!(status, 200);
    let (status, _, _) = get(
        "/api/setup",
        &format!("127.0.0.1:{port}"),
        &format!("X-Tabula-Token: {token}\r\n"),
    );
    assert_eq!(status, 200);
    // A name not allowed is refused even with the token (DNS rebinding),
    // and so is a wrong token.
    let (status, _, body) = get(
        &format!("/api/setup?token={token}"),
        &format!("rebound.example:{port}"),
        "",
    );
    assert_eq!(status, 403, "{body}");
    let (status, _, _) = get("/api/setup", &named, "Cookie: tabula_token_1=00\r\n");
    assert_eq!(status, 403);
    // A new game through the name, with the token as the page sends it.
    let (status, _, body) = raw(
        port,
        &format!(
            "POST /api/new?game=othello&you=0&search1=random&ms1=10&advisor=0&token={token} HTTP/1.1\r\nHost: {named}\r\nContent-Length: 0\r\n\r\n"
        ),
    );
    assert_eq!(status, 200, "{body}");
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn gui_a_plain_gtp_engine_s_whole_seconds_stay_within_max_movetime() {
    // GTP tells time in whole seconds: 1400 ms rounds up to 2 s, past the
    // server's --max-movetime of 1500 ms; it must come down to 1 s.
    let me = env!("CARGO_BIN_EXE_tabula");
    let cmd_self = format!("cmd={me}");
    let server = Server::start(&[
        "--max-movetime",
        "1500",
        "--engine",
        &cmd_self,
        "name=self",
        "--engine",
        &cmd_self,
        "proto=gtp",
        "name=plain",
    ]);
    let id = server.new_game("game=othello&you=0&engine1=1&ms1=1400&advisor=0");
    let events = Events::open(server.port, &id);
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut labels = Vec::new();
    while labels.is_empty() && Instant::now() < deadline {
        if let Some(e) = events.next(Duration::from_secs(2)) {
            let e = Json::parse(&e).unwrap();
            if e.get("type").str() == Some("state") {
                labels = e.get("labels").strings();
            }
        }
    }
    events.close();
    assert_eq!(labels, ["you", "plain 1 s"], "the seats' labels");
    // Under a second there is no whole second to give: refused, with why.
    server.stop();
    let server = Server::start(&["--max-movetime", "900", "--engine", &cmd_self, "proto=gtp"]);
    let (status, body) = http(
        server.port,
        "POST",
        "/api/new?game=othello&you=0&engine1=0&ms1=500&advisor=0",
        "",
    );
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("whole seconds"), "{body}");
    server.stop();
}

/// A game's budget place: `POST /api/new` for one Othello game against a
/// random engine (`extra` added), its status and body.
fn try_new_game(port: u16, extra: &str) -> (u16, String) {
    http(
        port,
        "POST",
        &format!("/api/new?game=othello&you=0&search1=random&ms1=10&advisor=0{extra}"),
        "",
    )
}

fn session_of(body: &str) -> String {
    Json::parse(body)
        .unwrap()
        .get("session")
        .str()
        .unwrap_or_else(|| panic!("no session in {body}"))
        .to_string()
}

#[test]
fn gui_thirty_simultaneous_new_games_start_exactly_max_games() {
    let server = Server::start(&["--max-games", "2"]);
    let (port, pid) = (server.port, server.child.id());
    let go = std::sync::Arc::new(std::sync::Barrier::new(30));
    let asks: Vec<_> = (0..30)
        .map(|_| {
            let go = std::sync::Arc::clone(&go);
            std::thread::spawn(move || {
                go.wait();
                try_new_game(port, "")
            })
        })
        .collect();
    let answers: Vec<(u16, String)> = asks.into_iter().map(|t| t.join().unwrap()).collect();
    let started: Vec<&String> = answers
        .iter()
        .filter(|(s, _)| *s == 200)
        .map(|(_, b)| b)
        .collect();
    assert_eq!(started.len(), 2, "{answers:?}");
    for (status, body) in answers.iter().filter(|(s, _)| *s != 200) {
        assert_eq!(*status, 400, "{body}");
        assert!(body.contains("--max-games"), "{body}");
    }
    // One engine each (no analysis): never more than the two games'.
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        engine_processes(pid).len() <= 2,
        "{:?}",
        engine_processes(pid)
    );
    server.stop();
}

#[test]
fn gui_a_finished_or_left_game_gives_its_place_and_a_client_has_its_own_budget() {
    // One place: a game played to its end (two engines) frees it at once.
    let server = Server::start(&["--max-games", "1"]);
    let port = server.port;
    let watched = server
        .new_game("game=othello&you=none&search0=random&ms0=10&search1=random&ms1=10&advisor=0");
    let events = Events::open(port, &watched);
    let over = loop {
        let e = Json::parse(&events.next(Duration::from_secs(60)).expect("an event")).unwrap();
        if e.get("type").str() == Some("over") {
            break e;
        }
    };
    assert!(!over.get("winners").arr().is_empty() || over.get("scores").arr().len() == 2);
    let (status, body) = try_new_game(port, "");
    assert_eq!(status, 200, "right after the end: {body}");
    // A game whose page is open keeps its place; one whose page left
    // (past a reload's grace) gives it up to the same client's new game.
    let id = session_of(&body);
    let page = Events::open(port, &id);
    my_turn(&page);
    let (status, body) = try_new_game(port, "");
    assert_eq!(status, 400, "{body}");
    page.close();
    let left = Instant::now();
    let mut answer = (0, String::new());
    assert!(
        eventually(Duration::from_secs(10), || {
            answer = try_new_game(port, "");
            answer.0 == 200
        }),
        "the left game gave its place: {answer:?}"
    );
    // Not before a reload's grace (3 s) has passed.
    assert!(
        left.elapsed() >= Duration::from_secs(3),
        "{:?}",
        left.elapsed()
    );
    let (status, _) = http(port, "GET", &format!("/api/game?s={id}"), "");
    assert!(
        eventually(Duration::from_secs(5), || http(
            port,
            "GET",
            &format!("/api/game?s={id}"),
            ""
        )
        .0 == 404),
        "the left game ended (status was {status})"
    );
    server.stop();

    // A client's own budget: 2 of the 4 places.
    let server = Server::start(&["--max-games", "4", "--max-games-per-client", "2"]);
    for _ in 0..2 {
        let (status, body) = try_new_game(server.port, "");
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = try_new_game(server.port, "");
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("--max-games-per-client"), "{body}");
    server.stop();
}

#[test]
fn gui_an_undo_that_cannot_be_done_is_refused_at_once_and_never_done_later() {
    let server = Server::start(&[]);
    let port = server.port;
    // The engine thinks 2 s a move: the undo comes while it thinks (a
    // search chosen, not the default player, whose book would answer at
    // once).
    let id = server.new_game("game=othello&you=0&search1=alphabeta&ms1=2000&advisor=0");
    let events = Events::open(port, &id);
    let turn = my_turn(&events);
    let mv = turn.get("legal").strings()[0].clone();
    let (status, body) = http(port, "POST", &format!("/api/move?s={id}&move={mv}"), "");
    assert_eq!(status, 200, "{body}");
    for _ in 0..3 {
        let asked = Instant::now();
        let (status, body) = http(port, "POST", &format!("/api/undo?s={id}"), "");
        assert_eq!(status, 409, "{body}");
        assert!(body.contains("your turn only"), "{body}");
        assert!(
            asked.elapsed() < crate::common::quiet_bound(500),
            "{:?}",
            asked.elapsed()
        );
    }
    // The person's turn comes after the engine's move, and stays: the
    // refused undos are not carried out then.
    let next = my_turn(&events);
    let step = next.get("step").num().unwrap();
    assert_eq!(step, 2.0, "my move and the engine's");
    std::thread::sleep(Duration::from_millis(1500));
    while let Some(text) = events.next(Duration::from_millis(100)) {
        let e = Json::parse(&text).unwrap();
        if e.get("type").str() == Some("state") {
            assert!(e.get("step").num().unwrap() >= step, "taken back: {text}");
        }
    }
    // On the person's turn an undo is done at once.
    let (status, body) = http(port, "POST", &format!("/api/undo?s={id}"), "");
    assert_eq!(status, 200, "{body}");
    let back = my_turn(&events);
    assert_eq!(back.get("step").num(), Some(0.0));
    server.stop();
}

#[test]
fn gui_a_reload_or_a_second_tab_resumes_the_game_with_the_same_hand() {
    let server = Server::start(&[]);
    let port = server.port;
    let hearts = "game=hearts&you=2&search0=random&ms0=50&search1=random&ms1=50&search3=random&ms3=50&advisor=0";
    let id = server.new_game(hearts);
    let first = Events::open(port, &id);
    let turn = my_turn(&first);
    // A second tab of the same address: the same game, the same view.
    let second = Events::open(port, &id);
    let twin = my_turn(&second);
    assert_eq!(twin.get("view"), turn.get("view"));
    first.close();
    second.close();
    // Gone longer than a reload takes: the game is kept.
    std::thread::sleep(Duration::from_millis(4000));
    let (status, body) = http(port, "GET", &format!("/api/game?s={id}"), "");
    assert_eq!(status, 200, "{body}");
    let summary = Json::parse(&body).unwrap();
    assert_eq!(summary.get("game").str(), Some("hearts"));
    assert_eq!(summary.get("you").num(), Some(2.0));
    let reloaded = Events::open(port, &id);
    let again = my_turn(&reloaded);
    assert_eq!(again.get("view"), turn.get("view"), "the same hand");
    assert_eq!(again.get("step"), turn.get("step"), "the same move");
    let pass = again.get("legal").strings();
    let (status, body) = http(
        port,
        "POST",
        &format!("/api/move?s={id}&move={}", enc(&pass[0])),
        "",
    );
    assert_eq!(status, 200, "the resumed game plays on: {body}");
    server.stop();

    // Past --keep, a left game ends with its engines.
    let server = Server::start(&["--keep", "1"]);
    let pid = server.child.id();
    let id = server.new_game(hearts);
    let page = Events::open(server.port, &id);
    my_turn(&page);
    page.close();
    assert!(
        eventually(Duration::from_secs(10), || {
            http(server.port, "GET", &format!("/api/game?s={id}"), "").0 == 404
                && engine_processes(pid).is_empty()
        }),
        "{:?}",
        engine_processes(pid)
    );
    server.stop();
}

/// An engine `seconds` late with every move: tabula behind a shell that
/// waits before it passes each `genmove` on.
fn slow_engine(seconds: &str) -> String {
    let path = std::env::temp_dir().join(format!(
        "tabula-gui-slow-{}-{seconds}.sh",
        std::process::id()
    ));
    let script = format!(
        "#!/bin/bash\ncoproc ENGINE {{ exec {}; }}\nwhile IFS= read -r line; do\n  case \"$line\" in *genmove*) sleep {seconds};; esac\n  printf '%s\\n' \"$line\" >&\"${{ENGINE[1]}}\"\n  while IFS= read -r out <&\"${{ENGINE[0]}}\"; do\n    printf '%s\\n' \"$out\"\n    [ -z \"$out\" ] && break\n  done\ndone\n",
        env!("CARGO_BIN_EXE_tabula")
    );
    std::fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("cmd={} name=slow", path.display())
}

#[test]
fn gui_an_engine_late_for_its_move_time_still_moves_and_the_page_is_told() {
    let engine = slow_engine("1.6");
    let server = Server::start(&["--engine", &engine]);
    let port = server.port;
    let id = server.new_game("game=othello&you=0&search1=random&ms1=100&advisor=0");
    let events = Events::open(port, &id);
    let mut late = 0;
    for _ in 0..2 {
        let turn = my_turn(&events);
        let mv = turn.get("legal").strings()[0].clone();
        let (status, body) = http(port, "POST", &format!("/api/move?s={id}&move={mv}"), "");
        assert_eq!(status, 200, "{body}");
        // Until the engine's move: a `late` event, no result.
        loop {
            let text = events.next(Duration::from_secs(30)).expect("an event");
            let e = Json::parse(&text).unwrap();
            match e.get("type").str() {
                Some("late") => {
                    assert_eq!(e.get("seat").num(), Some(1.0));
                    assert_eq!(e.get("movetime").num(), Some(100.0));
                    late += 1;
                }
                Some("over") => panic!("the late engine was forfeited: {text}"),
                Some("state") if e.get("last").get("seat").num() == Some(1.0) => break,
                _ => {}
            }
        }
    }
    assert_eq!(late, 2, "each late move was told");
    server.stop();

    // With a margin shorter than its lateness it forfeits, and the result
    // names the winner (the page and the record).
    let server = Server::start(&["--engine", &engine, "--timemargin", "200"]);
    let port = server.port;
    let id = server.new_game("game=othello&you=0&search1=random&ms1=100&advisor=0");
    let events = Events::open(port, &id);
    let turn = my_turn(&events);
    let mv = turn.get("legal").strings()[0].clone();
    http(port, "POST", &format!("/api/move?s={id}&move={mv}"), "");
    let over = loop {
        let e = Json::parse(&events.next(Duration::from_secs(30)).expect("an event")).unwrap();
        if e.get("type").str() == Some("over") {
            break e;
        }
    };
    assert!(over.get("ending").str().unwrap_or("").contains("forfeit"));
    assert_eq!(over.get("winners").arr().len(), 1);
    assert_eq!(over.get("winners").arr()[0].num(), Some(0.0));
    let (status, record) = http(port, "GET", &format!("/api/record?s={id}"), "");
    assert_eq!(status, 200);
    assert!(record.contains(" winners=0 "), "{record}");
    server.stop();
}

/// The registry's visitor that reads a game type's page scripts.
struct ScriptsOf;

impl tabula::games::GameVisitor for ScriptsOf {
    type Output = &'static [&'static str];
    fn visit<G: Game>(self, _options: &Options) -> &'static [&'static str] {
        tabula::games::extras::<G>().pictures.scripts
    }
}

/// A game's name or title as the page's shell must not hold it: lower
/// case, without `-` (`Ninety-Nine` is `ninetynine`).
fn bare(text: &str) -> String {
    text.to_lowercase().replace('-', "")
}

/// The page's shell (app.js) names no game: each registered game's name
/// and titles come from the registry's answers, and its page code from
/// the scripts its pictures declare, which the server serves at
/// `/games.js`, each once and in full.
#[test]
fn gui_the_page_s_shell_names_no_game_and_games_js_holds_every_game_s_page() {
    let shell = bare(include_str!("../src/gui/assets/app.js"));
    let index = include_str!("../src/gui/assets/index.html");
    let server = Server::start(&[]);
    let (status, games_js) = http(server.port, "GET", "/games.js", "");
    assert_eq!(status, 200, "{games_js}");
    assert!(
        index.find("/app.js") < index.find("/games.js") && index.contains("/games.js"),
        "the page loads the games' scripts after the shell that they register with"
    );
    for entry in tabula::games::all() {
        for word in std::iter::once(entry.name).chain(entry.gtp_names.iter().copied()) {
            let word = bare(word);
            assert!(
                !shell.contains(&word),
                "app.js names the game {word} (line {:?})",
                shell.lines().position(|l| l.contains(&word)).map(|i| i + 1)
            );
        }
        let scripts = entry.visit::<&str, _>(&[], ScriptsOf).expect("defaults");
        assert!(!scripts.is_empty(), "{} has no page script", entry.name);
        for script in scripts {
            assert_eq!(
                games_js.matches(script.trim()).count(),
                1,
                "{}: a script of its pictures is not in /games.js once",
                entry.name
            );
        }
        assert!(
            scripts
                .iter()
                .any(|s| s.contains(&format!("registerPage('{}',", entry.name))),
            "{}: no script registers its page",
            entry.name
        );
    }
}
