//! `tabula gui` in headless Chromium, the page's side of a reload: the
//! address names the game, a reload opens the same game at the same move
//! with the same view, leaving a game in play asks first, and beyond
//! loopback the token travels in the page's address and its requests
//! (never a cookie). Skipped, with a message, where Chromium is missing.

use std::time::Duration;

use crate::gui_server::{port_of, start_with};
use crate::gui_support::{Browser, Json, http};

/// The page's game id (`#game=ID`), its step and its view, as JSON text.
fn shown(b: &Browser) -> (String, f64, String) {
    let v = b.js("const s = window.tabula.state;
         return [location.hash, s ? s.step : -1, s ? JSON.stringify(s.view) : ''];");
    let a = v.arr();
    (
        a[0].str().unwrap_or("").to_string(),
        a[1].num().unwrap_or(-1.0),
        a[2].str().unwrap_or("").to_string(),
    )
}

/// The URL of the server's first line (`tabula gui: open URL`).
fn address(line: &str) -> String {
    line.rsplit(' ').next().unwrap_or(line).to_string()
}

#[test]
fn gui_a_reloaded_page_resumes_its_game_and_leaving_mid_game_asks_first() {
    let Some(b) = Browser::start() else {
        return;
    };
    let (mut child, line) = start_with(&[]);
    let url = address(&line);
    let port = port_of(&url);
    b.goto(&url);
    let waiting = "window.tabula.ready && window.tabula.state && window.tabula.state.waiting";
    assert!(b.wait_for(waiting, Duration::from_secs(60)), "a first game");
    let (hash, _, _) = shown(&b);
    let id = hash
        .strip_prefix("#game=")
        .unwrap_or_else(|| panic!("the address names no game: '{hash}'"))
        .to_string();
    // A move (through the API, as another tab would), then the engine's.
    let legal = b.js("return window.tabula.state.legal;").strings();
    let (status, body) = http(
        port,
        "POST",
        &format!("/api/move?s={id}&move={}", legal[0]),
        "",
    );
    assert_eq!(status, 200, "{body}");
    assert!(
        b.wait_for(
            "window.tabula.state.step >= 2 && window.tabula.state.waiting",
            Duration::from_secs(60)
        ),
        "the engine's reply"
    );
    let before = shown(&b);
    // Leaving now asks first.
    let asks = b.js("const e = new Event('beforeunload', {cancelable: true});
         window.dispatchEvent(e);
         return e.defaultPrevented;");
    assert_eq!(asks, Json::Bool(true), "leaving mid-game asks first");
    // A reload: the same game, at the same move, with the same view.
    b.js("location.reload(); return true;");
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        b.wait_for(waiting, Duration::from_secs(60)),
        "the reloaded page"
    );
    let after = shown(&b);
    assert_eq!(after, before, "the reload resumed the game");
    // No second game was started for it.
    let (status, _) = http(port, "GET", &format!("/api/game?s={id}"), "");
    assert_eq!(status, 200);
    let _ = child.kill();
    let _ = child.wait();

    // Beyond loopback: the token in the page's address reaches the API.
    let (mut child, line) = start_with(&["--listen", "0.0.0.0"]);
    let local = address(&line).replacen("0.0.0.0", "127.0.0.1", 1);
    assert!(local.contains("?token="), "{local}");
    b.goto(&local);
    assert!(
        b.wait_for(waiting, Duration::from_secs(60)),
        "a game through the token"
    );
    let (hash, _, _) = shown(&b);
    assert!(hash.starts_with("#game="), "{hash}");
    let _ = child.kill();
    let _ = child.wait();
}
