//! A game defined only in test code (`tests/registry_pile.rs`), added to
//! the registry at run time, is served by every edge with no edit
//! elsewhere: the registry's answers, the engine's protocols (GTP with
//! `list_games`, UGI), the match runner and the page's server (its setup,
//! a game to the end), the engines being this same program run with
//! `--serve`.
//!
//! A test binary of its own (`harness = false` in Cargo.toml): the game is
//! added to this process's registry, which the integration tests' process
//! must not see (its transcripts list the standard games). Run with
//! `--serve`, it is the engine: Pile registered, the protocols served on
//! stdin and stdout as `tabula` serves them.
//!
//! The page itself plays Pile in headless Chromium (skipped, with a
//! message, where Chromium is not installed, as the other browser tests):
//! the game's tab and options come from the server, Pile's own page
//! script (served with the registry's games' at `/games.js`) draws the
//! text view and the pile as a row of stones, and the person plays by
//! pressing the move buttons.
//! `TABULA_GUI_SCREENSHOTS=DIR` saves its pictures, in mid-game
//! (docs/gui-outside-game.png, docs/gui-outside-game-phone.png).

#[path = "gui_support.rs"]
mod gui_support;
#[path = "registry_pile.rs"]
mod registry_pile;

use std::io::{BufReader, Cursor};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use clap::Parser;
use registry_pile::{EXTRAS, LISTING, Pile};
use tabula::arena::MatchArgs;
use tabula::engine::Engine;
use tabula::protocol::{Protocol, run_protocol};

fn main() {
    tabula::added_games::register_with::<Pile>(&LISTING, EXTRAS).expect("pile registers");
    if std::env::args().any(|a| a == "--serve") {
        let engine = Engine::new(1).expect("an engine");
        let stdin = BufReader::new(std::io::stdin());
        run_protocol(stdin, std::io::stdout(), engine, Protocol::default());
        return;
    }
    // libtest's filter: run only when no filter is given or one of ours.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let checks: [(&str, fn()); 5] = [
        (
            "registry_outside::the_registry_answers",
            the_registry_answers_for_a_game_added_from_outside,
        ),
        (
            "registry_outside::gtp_and_ugi_serve",
            gtp_and_ugi_serve_a_game_added_from_outside,
        ),
        (
            "registry_outside::the_match_runner_plays",
            the_match_runner_plays_a_game_added_from_outside,
        ),
        (
            "registry_outside::the_page_serves",
            the_page_serves_a_game_added_from_outside,
        ),
        (
            "registry_outside::the_page_plays_in_a_browser",
            the_page_plays_a_game_added_from_outside_in_a_browser,
        ),
    ];
    for (name, check) in checks {
        if filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str())) {
            check();
            println!("test {name} ... ok");
        }
    }
}

/// This program, as the engine that serves Pile.
fn engine_binary() -> PathBuf {
    std::env::current_exe().expect("this test binary")
}

/// Match arguments as `tabula match` reads them.
#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: MatchArgs,
}

fn words(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|s| s.to_string()).collect()
}

fn session(protocol: Protocol, engine: Engine, input: &str) -> String {
    let mut out = Vec::new();
    run_protocol(
        Cursor::new(input.as_bytes().to_vec()),
        &mut out,
        engine,
        protocol,
    );
    String::from_utf8(out).expect("UTF-8 output")
}

fn the_registry_answers_for_a_game_added_from_outside() {
    let entry = tabula::games::find("pile").expect("found by name");
    assert!(tabula::games::find_gtp("PILE").is_some());
    assert!(tabula::games::names().contains(&"pile"));
    let traits = entry.traits(&["stones=9"]).expect("traits");
    assert_eq!(traits.seats, 2);
    assert!(traits.zero_sum && traits.perfect_information && !traits.solver);
    assert_eq!(entry.page_options, &["stones"]);
    assert_eq!(entry.player_counts(), vec![2]);
    // The standard games are all still there, first.
    assert_eq!(tabula::games::all()[0].name, tabula::games::GAMES[0].name);
}

fn gtp_and_ugi_serve_a_game_added_from_outside() {
    let out = session(
        Protocol::Gtp,
        Engine::new(3).expect("engine"),
        "list_games\ngame pile stones=5\nplay 0 2\nlegal_moves\ngenmove 1\nquit\n",
    );
    let replies: Vec<&str> = out.split("\n\n").map(str::trim_end).collect();
    assert!(replies[0].lines().any(|l| l == "Pile"), "{out}");
    assert_eq!(replies[1], "=", "{out}");
    assert_eq!(replies[2], "=", "{out}");
    assert_eq!(replies[3], "= 1 2 3", "{out}");
    // Three stones left: taking all three wins.
    assert_eq!(replies[4], "= 3", "{out}");

    let mut engine = Engine::new(4).expect("engine");
    engine.load_game("pile", &[]).expect("pile loads");
    let out = session(
        Protocol::Ugi,
        engine,
        "ugi\nuginewgame\nposition startpos moves 1 2\nisready\ngo movetime 200\n",
    );
    assert!(out.contains("ugiok"), "{out}");
    // Four stones left: no move wins; seven taken to four, any reply.
    assert!(
        out.lines().any(|l| l.starts_with("bestmove ")),
        "UGI plays pile: {out}"
    );
}

fn the_match_runner_plays_a_game_added_from_outside() {
    let engine = engine_binary();
    let cmd = format!("cmd={} --serve", engine.display());
    let args = words(&[
        "--engine",
        &cmd,
        "name=a",
        "--engine",
        &cmd,
        "name=b",
        "--game",
        "pile",
        "-o",
        "stones=9",
        "--games",
        "2",
        "--movetime",
        "20",
        "--seed",
        "7",
        "--quiet",
        "--no-record",
    ]);
    let mut all = vec!["match".to_string()];
    all.extend(args);
    let mut args = Cli::try_parse_from(all).expect("match arguments").args;
    args.unprinted = true;
    let report = tabula::arena::run(&args).expect("the match runs");
    assert_eq!(report.record.games.len(), 2, "{}", report.text);
    for g in &report.record.games {
        assert_eq!(g.winners.len(), 1, "{}", report.text);
    }
}

/// The page's server in this process (Pile in its registry), its engine
/// this program run with `--serve`; stopped when dropped.
struct Gui {
    port: u16,
    stop: Arc<AtomicBool>,
    serving: Option<JoinHandle<()>>,
}

impl Gui {
    fn start(max_games: usize) -> Gui {
        let engine = engine_binary();
        let args = tabula::gui::GuiArgs {
            port: 0,
            listen: None,
            allow_host: Vec::new(),
            engines: tabula::arena::EngineWords(vec![vec![
                format!("cmd={} --serve", engine.display()),
                "name=pile".to_string(),
            ]]),
            max_movetime: 1000,
            max_games,
            max_games_per_client: max_games,
            keep: 600,
            timemargin: 60_000,
        };
        let server = tabula::gui::Server::bind(&args).expect("the server binds");
        let url = server.url();
        let port: u16 = url
            .rsplit(':')
            .next()
            .and_then(|p| p.trim_end_matches('/').split('/').next()?.parse().ok())
            .expect("a port in the URL");
        let stop = server.stop_flag();
        let serving = std::thread::spawn(move || server.serve());
        Gui {
            port,
            stop,
            serving: Some(serving),
        }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(s) = self.serving.take() {
            let _ = s.join();
        }
    }
}

fn the_page_serves_a_game_added_from_outside() {
    use std::io::{Read, Write};
    let gui = Gui::start(2);
    let port = gui.port;
    let request = |method: &str, path: &str| -> (u16, String) {
        let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(20))).ok();
        let text = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n\
             Content-Length: 0\r\nConnection: close\r\n\r\n"
        );
        s.write_all(text.as_bytes()).expect("write");
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let out = String::from_utf8_lossy(&out).into_owned();
        let (head, body) = out.split_once("\r\n\r\n").unwrap_or((&out, ""));
        let status = head.split_whitespace().nth(1).and_then(|c| c.parse().ok());
        (status.unwrap_or(0), body.to_string())
    };
    let (status, setup) = request("GET", "/api/setup");
    assert_eq!(status, 200, "{setup}");
    assert!(setup.contains("\"pile\":{\"default\":"), "{setup}");
    // The page's list of games: Pile's title, options and seats.
    let games = gui_support::Json::parse(&setup).expect("JSON");
    let games = games.get("games").arr();
    let pile = games
        .iter()
        .find(|g| g.get("name").str() == Some("pile"))
        .unwrap_or_else(|| panic!("pile in the page's games: {setup}"));
    assert_eq!(pile.get("title").str(), Some("Pile"), "{setup}");
    assert_eq!(pile.get("perfect"), &gui_support::Json::Bool(true));
    let options = pile.get("options").arr();
    assert_eq!(options.len(), 1, "{setup}");
    assert_eq!(options[0].get("name").str(), Some("stones"));
    assert_eq!(options[0].get("kind").str(), Some("int"));
    assert_eq!(options[0].get("default").str(), Some("7"));
    assert_eq!(pile.get("players").arr(), &[gui_support::Json::Num(2.0)]);
    assert_eq!(pile.get("seats").arr()[0].strings().len(), 2, "{setup}");
    assert_eq!(
        games[0].get("name").str(),
        Some(tabula::games::GAMES[0].name)
    );
    // An option the page may not set is refused; the listed one is taken.
    let (status, body) = request("POST", "/api/new?game=pile&opt=seed=3&you=none");
    assert_eq!(status, 400, "{body}");
    let (status, body) = request(
        "POST",
        "/api/new?game=pile&opt=stones=6&you=none&ms0=50&ms1=50&advisor=0",
    );
    assert_eq!(status, 200, "{body}");
    let id = body.split('"').nth(3).expect("a session id").to_string();
    // The engines play it to the end: the record is kept when it ends.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut events = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    events
        .write_all(
            format!(
                "GET /api/events?s={id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
            )
            .as_bytes(),
        )
        .expect("write");
    events
        .set_read_timeout(Some(Duration::from_millis(500)))
        .ok();
    let mut seen = String::new();
    while Instant::now() < deadline && !seen.contains("\"type\":\"over\"") {
        let mut buf = [0u8; 4096];
        if let Ok(n) = events.read(&mut buf) {
            if n == 0 {
                break;
            }
            seen.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    }
    assert!(seen.contains("\"type\":\"over\""), "{seen}");
    assert!(seen.contains("\"kind\":\"pile\""), "{seen}");
    // Its own picture data, from the view it declares, and its moves in
    // its own words.
    assert!(seen.contains("\"stones\":6,"), "{seen}");
    assert!(seen.contains("\"stones\":0,"), "{seen}");
    assert!(seen.contains("\"words\":\"takes "), "{seen}");
    let (status, record) = request("GET", &format!("/api/record?s={id}"));
    assert_eq!(status, 200, "{record}");
    assert!(record.contains("pile"), "{record}");
    drop(events);
    // The page's scripts: Pile's own, which draws its picture's kind,
    // with the standard games' (the card table once for the three card
    // games).
    let (status, games_js) = request("GET", "/games.js");
    assert_eq!(status, 200, "{games_js}");
    let own = EXTRAS.pictures.scripts;
    assert_eq!(own.len(), 1);
    assert!(own[0].contains("registerPage('pile',"), "{}", own[0]);
    assert_eq!(games_js.matches(own[0].trim()).count(), 1, "{games_js}");
    for entry in tabula::games::GAMES {
        assert!(
            games_js.contains(&format!("registerPage('{}',", entry.name)),
            "{}: {games_js}",
            entry.name
        );
    }
    assert_eq!(games_js.matches("const CARD_HOOKS").count(), 1);
}

/// With `TABULA_GUI_SCREENSHOTS=DIR`, saves the page as `DIR/gui-NAME.png`.
fn screenshot(b: &gui_support::Browser, name: &str) {
    if let Ok(dir) = std::env::var("TABULA_GUI_SCREENSHOTS") {
        let path = std::path::Path::new(&dir).join(format!("gui-{name}.png"));
        std::fs::write(&path, b.screenshot()).expect("write the screenshot");
    }
}

/// Pile in the page, in headless Chromium at a phone's size and a
/// laptop's: the tab from the server's list, the text view, a whole game
/// played by pressing the move buttons, the result shown at the end.
fn the_page_plays_a_game_added_from_outside_in_a_browser() {
    use gui_support::{Browser, Json};
    let Some(b) = Browser::start() else {
        return;
    };
    let gui = Gui::start(4);
    let url = gui.url();
    for (width, height) in [(390, 844), (1280, 800)] {
        let what = format!("pile at {width}x{height}");
        b.set_size(width, height);
        b.goto(&url);
        assert!(
            b.wait_for("window.tabula.ready", Duration::from_secs(60)),
            "{what}: the page loaded"
        );
        assert!(
            b.wait_for(
                "document.querySelector('#tabs button[data-game=pile]')",
                Duration::from_secs(5)
            ),
            "{what}: no tab for pile"
        );
        let stones = if width == 390 {
            // The tab starts it with its defaults (7 stones).
            b.click("#tabs button[data-game=pile]");
            7
        } else {
            // The menu: the option the server describes, the engine's
            // time; the analysis on.
            b.js(
                "const g = document.getElementById('game'); g.value = 'pile'; g.onchange();
                  const o = document.getElementById('opt_stones'); o.value = '9'; o.onchange();
                  for (const t of document.querySelectorAll('[id^=ms]')) t.value = '50';
                  document.getElementById('analysis').checked = true;",
            );
            b.click("#menubtn");
            b.click("#start");
            9
        };
        assert!(
            b.wait_for(
                "window.tabula.state && window.tabula.state.game === 'pile' && window.tabula.state.view.kind === 'pile'",
                Duration::from_secs(30)
            ),
            "{what}: the game started"
        );
        assert!(
            b.wait_for(
                "document.getElementById('gametext')",
                Duration::from_secs(5)
            ),
            "{what}: the text view"
        );
        let text = b.js("return document.getElementById('gametext').textContent;");
        assert!(
            text.str()
                .is_some_and(|t| t.starts_with(&format!("{stones} stones"))),
            "{what}: {text:?}"
        );
        // Pile's own page script draws the pile: a stone for each.
        let drawn = b.js(
            "const p = document.getElementById('pile'); return p ? [p.querySelectorAll('.stone').length, p.getAttribute('aria-label')] : null;",
        );
        assert_eq!(
            drawn.arr().first().and_then(|n| n.num()),
            Some(f64::from(stones)),
            "{what}: the pile drawn {drawn:?}"
        );
        assert_eq!(
            drawn.arr().get(1).and_then(|l| l.str()),
            Some(format!("{stones} stones").as_str()),
            "{what}: the pile's label {drawn:?}"
        );
        b.console();
        // Press a move button at each turn until the game is over.
        let deadline = Instant::now() + Duration::from_secs(120);
        let mut pressed = 0;
        loop {
            assert!(Instant::now() < deadline, "{what}: the game did not end");
            assert!(
                b.wait_for(
                    "window.tabula.over || document.querySelector('#moves button')",
                    Duration::from_secs(60)
                ),
                "{what}: neither a move to press nor a result"
            );
            if b.js("return !!window.tabula.over;") == Json::Bool(true) {
                break;
            }
            let step = b.js("return window.tabula.state.step;");
            let buttons = b.js(
                "return [...document.querySelectorAll('#moves button')].map((b) => b.dataset.move);",
            );
            assert_eq!(
                buttons.strings(),
                b.js("return window.tabula.state.legal;").strings(),
                "{what}: one button a legal move"
            );
            // With the analysis on, each move's chance on its button and
            // the best one marked (9 stones: taking 1 wins).
            if width == 1280 && pressed == 0 {
                assert!(
                    b.wait_for(
                        "document.querySelectorAll('#moves button .v').length === window.tabula.state.legal.length && document.querySelector('#moves button.primary')",
                        Duration::from_secs(30)
                    ),
                    "{what}: no analysis on the move buttons"
                );
                let best =
                    b.js("return document.querySelector('#moves button.primary').dataset.move;");
                assert_eq!(best.str(), Some("1"), "{what}: the best move");
                let legend = b.js("return document.getElementById('legend').textContent;");
                assert!(
                    legend
                        .str()
                        .is_some_and(|t| t.starts_with("Numbers on the moves")),
                    "{what}: legend {legend:?}"
                );
            }
            // The page's picture: the pile, the moves so far, the buttons
            // (with the analysis, once it has come).
            if pressed == 1 {
                if width == 1280 {
                    b.wait_for(
                        "document.querySelector('#moves button .v')",
                        Duration::from_secs(10),
                    );
                }
                screenshot(
                    &b,
                    if width == 1280 {
                        "outside-game"
                    } else {
                        "outside-game-phone"
                    },
                );
            }
            // The largest take, or a smaller one now and then.
            let k = if pressed % 2 == 0 {
                "last-child"
            } else {
                "first-child"
            };
            b.click(&format!("#moves button:{k}"));
            pressed += 1;
            assert!(
                b.wait_for(
                    &format!(
                        "window.tabula.over || window.tabula.state.step > {}",
                        step.num().unwrap_or(0.0)
                    ),
                    Duration::from_secs(30)
                ),
                "{what}: the move was not played"
            );
        }
        assert!(pressed > 0, "{what}: no move pressed");
        // The result: in the status line and in the text view, the pile
        // empty, no move button left.
        assert!(
            b.wait_for(
                "document.getElementById('turnline').textContent.startsWith('Game over')",
                Duration::from_secs(10)
            ),
            "{what}: no result in the text view"
        );
        let status = b.js("return document.getElementById('status').textContent;");
        assert!(
            status.str().is_some_and(|s| s.starts_with("Game over")),
            "{what}: status {status:?}"
        );
        let end = b.js("return [document.getElementById('gametext').textContent, !!document.querySelector('#moves button'), document.documentElement.scrollWidth <= innerWidth, document.querySelectorAll('#pile .stone').length, !!document.getElementById('pile')];");
        assert_eq!(
            end.arr()[0].str().map(|t| t.starts_with("0 stones")),
            Some(true),
            "{what}: {end:?}"
        );
        assert_eq!(
            end.arr()[1],
            Json::Bool(false),
            "{what}: buttons after the end"
        );
        assert_eq!(end.arr()[2], Json::Bool(true), "{what}: no sideways scroll");
        assert_eq!(
            (end.arr()[3].num(), &end.arr()[4]),
            (Some(0.0), &Json::Bool(true)),
            "{what}: the empty pile drawn: {end:?}"
        );
        let errors: Vec<_> = b
            .console()
            .into_iter()
            .filter(|(level, _)| level == "SEVERE" || level == "WARNING")
            .collect();
        assert!(errors.is_empty(), "{what}: console: {errors:?}");
        println!("{what}: {pressed} moves pressed, the result shown");
    }
}
