//! `tabula gui` in a real browser: headless Chromium, driven through
//! chromedriver's WebDriver, plays whole games by clicking as a person
//! does. Skipped, with a message, where Chromium is not installed
//! (`.ci/run` installs it). `TABULA_GUI_SCREENSHOTS=DIR` also saves a
//! picture of each game (docs/gui-*.png).

use std::time::{Duration, Instant};

use crate::gui_support::{Browser, Json, Pick, Server};

/// Sets up a game in the page's form and presses New game.
fn start(b: &Browser, game: &str, options: &[(&str, &str)], you: &str) {
    assert!(
        b.wait_for(
            "document.getElementById('game').onchange",
            Duration::from_secs(30)
        ),
        "the page loaded"
    );
    let mut script =
        format!("const g = document.getElementById('game'); g.value = '{game}'; g.onchange();");
    for (k, v) in options {
        script.push_str(&format!(
            "const o_{k} = document.getElementById('opt_{k}'); o_{k}.value = '{v}'; o_{k}.onchange();"
        ));
    }
    script.push_str(&format!(
        "const y = document.getElementById('you'); y.value = '{you}'; y.onchange();
         for (const s of document.querySelectorAll('[id^=search]')) s.value = 'random';
         for (const t of document.querySelectorAll('[id^=ms]')) t.value = '10';
         window.tabula.latencies = []; window.tabula.over = null; window.tabula.state = null;"
    ));
    b.js(&script);
    b.click("#start");
    assert!(
        b.wait_for("window.tabula.state", Duration::from_secs(20)),
        "the game started"
    );
}

/// Waits for the person's open turn (its legal moves) or the end.
fn next_turn(b: &Browser) -> Option<Vec<String>> {
    assert!(
        b.wait_for(
            "window.tabula.over || (window.tabula.state && window.tabula.state.waiting \
             && document.querySelector('#status').className !== 'pending')",
            Duration::from_secs(60)
        ),
        "no turn and no end"
    );
    if !b.js("return window.tabula.over").is_null() {
        return None;
    }
    Some(b.js("return window.tabula.state.legal").strings())
}

fn step(b: &Browser) -> f64 {
    b.js("return window.tabula.state.step")
        .num()
        .unwrap_or(-1.0)
}

/// Clicks `css` and waits until the turn has moved on.
fn click_move(b: &Browser, css: &str) {
    let before = step(b);
    b.click(css);
    if !b.wait_for(
        &format!("window.tabula.over || window.tabula.state.step > {before}"),
        Duration::from_secs(30),
    ) {
        let status = b.js("return document.getElementById('status').textContent");
        panic!("the click on {css} was not played: {status:?}");
    }
}

/// Clicks `css`, which the page must refuse, and checks nothing changed.
fn click_refused(b: &Browser, css: &str) -> String {
    let before = b.js("return JSON.stringify(window.tabula.state.view)");
    let n = b.js("return window.tabula.latencies.length").num().unwrap();
    b.click(css);
    assert!(
        b.wait_for(
            &format!("window.tabula.latencies.length > {n}"),
            Duration::from_secs(10)
        ),
        "no answer to the click on {css}"
    );
    let status = b.js("return document.getElementById('status').textContent");
    let status = status.str().unwrap_or("").to_string();
    assert!(status.starts_with("Refused"), "{css}: {status}");
    assert_eq!(
        b.js("return JSON.stringify(window.tabula.state.view)"),
        before,
        "a refused click changed the game"
    );
    status
}

fn screenshot(b: &Browser, name: &str) {
    if let Ok(dir) = std::env::var("TABULA_GUI_SCREENSHOTS") {
        let path = std::path::Path::new(&dir).join(format!("gui-{name}.png"));
        std::fs::write(&path, b.screenshot()).expect("write the screenshot");
    }
}

/// The click times the page measured: (count, median, max) in ms.
fn latencies(b: &Browser) -> (usize, f64, f64) {
    let mut l: Vec<f64> = b
        .js("return window.tabula.latencies")
        .arr()
        .iter()
        .filter_map(Json::num)
        .collect();
    l.sort_by(f64::total_cmp);
    let max = l.last().copied().unwrap_or(0.0);
    (l.len(), l.get(l.len() / 2).copied().unwrap_or(0.0), max)
}

fn result(b: &Browser) -> String {
    b.js("return JSON.stringify(window.tabula.over)")
        .str()
        .unwrap_or("")
        .to_string()
}

fn othello(b: &Browser, url: &str) -> (usize, f64, f64) {
    b.goto(url);
    start(b, "othello", &[], "0");
    let mut pick = Pick(7);
    let mut moves = 0;
    let mut refused = false;
    while let Some(legal) = next_turn(b) {
        if !refused {
            // d4 holds a disc from the start: the referee refuses it.
            let status = click_refused(b, "[data-square=d4]");
            assert!(status.contains("d4"), "{status}");
            refused = true;
        }
        if moves == 6 {
            // The analysis on for one move (it shows each move's value),
            // then off: its engine would share the cores with the game.
            b.click("#analysis");
            assert!(
                b.wait_for(
                    "[...document.querySelectorAll('#othello text')].some(t => t.textContent.endsWith('%'))",
                    Duration::from_secs(20)
                ),
                "no analysis value on the board"
            );
            screenshot(b, "othello");
            b.click("#analysis");
        }
        let mv = &legal[pick.below(legal.len())];
        if mv == "pass" {
            click_move(b, "#pass");
        } else {
            click_move(b, &format!("[data-square={mv}]"));
        }
        moves += 1;
    }
    let over = result(b);
    assert!(over.contains("\"ending\":\"normal\""), "{over}");
    assert!(moves >= 20, "a whole game: {moves} moves");
    eprintln!("othello: {moves} moves, {over}");
    latencies(b)
}

fn quoridor(b: &Browser, url: &str) -> (usize, f64, f64) {
    b.goto(url);
    start(b, "quoridor", &[("size", "5"), ("walls", "3")], "0");
    let mut pick = Pick(11);
    let (mut walls, mut moves) = (0, 0);
    let mut refused = false;
    while let Some(legal) = next_turn(b) {
        let wall_moves: Vec<&String> = legal.iter().filter(|m| m.ends_with(['h', 'v'])).collect();
        if walls == 1 && !refused {
            // A wall on the one just placed overlaps it.
            let placed = b
                .js("const w = window.tabula.state.view.position.split(' '); return w.slice(5);")
                .strings();
            let status = click_refused(b, &format!("[data-groove='{}']", placed[0]));
            assert!(status.contains("overlaps"), "{status}");
            refused = true;
        }
        if walls < 3 && !wall_moves.is_empty() {
            let w = wall_moves[pick.below(wall_moves.len())].clone();
            click_move(b, &format!("[data-groove='{w}']"));
            walls += 1;
        } else {
            // Mostly forwards (p1 goes up the rows), sometimes aside.
            let pawn: Vec<&String> = legal.iter().filter(|m| !m.ends_with(['h', 'v'])).collect();
            let best = pawn
                .iter()
                .max_by_key(|m| m[1..].parse::<u32>().unwrap_or(0))
                .expect("a pawn move");
            let mv = if pick.below(4) == 0 {
                pawn[pick.below(pawn.len())]
            } else {
                best
            };
            click_move(b, &format!("[data-square={mv}]"));
        }
        moves += 1;
        if moves == 5 {
            screenshot(b, "quoridor");
        }
    }
    let over = result(b);
    assert!(walls >= 1, "walls placed: {walls}");
    eprintln!("quoridor: {moves} moves ({walls} walls), {over}");
    latencies(b)
}

/// Plays a card game: clicks a legal card, bid, trump or choice.
fn cards(
    b: &Browser,
    url: &str,
    game: &str,
    options: &[(&str, &str)],
    you: &str,
) -> (usize, f64, f64) {
    b.goto(url);
    start(b, game, options, you);
    let mut pick = Pick(3);
    let (mut moves, mut passes) = (0, 0);
    let mut refused = false;
    let started = Instant::now();
    while let Some(legal) = next_turn(b) {
        assert!(started.elapsed() < Duration::from_secs(600), "too slow");
        let passing = legal.iter().any(|m| m.contains('+') && m.len() == 8);
        if passing {
            let hand = b
                .js("return window.tabula.state.view.hands[window.tabula.state.you]")
                .strings();
            for c in hand.iter().rev().take(3) {
                b.click(&format!("#hand .card[data-card='{c}']"));
            }
            if moves == 0 {
                screenshot(b, game);
            }
            click_move(b, "#passbtn");
            passes += 1;
            moves += 1;
            continue;
        }
        if !refused {
            let dim = b.js("return [...document.querySelectorAll('#hand .card.dim')].map(e => e.dataset.card)").strings();
            if let Some(c) = dim.first() {
                click_refused(b, &format!("#hand .card[data-card='{c}']"));
                refused = true;
            }
        }
        let mv = legal[pick.below(legal.len())].clone();
        if mv.starts_with("bid:") || mv.starts_with("trump:") || mv == "lose" {
            click_move(b, &format!("#choices [data-move='{mv}']"));
        } else if mv.len() > 2 {
            // Ninety-Nine: a card with a choice of value. The page offers
            // the choice only where there is one: a card with one legal
            // value (an ace where 11 would pass 99) plays on its click.
            let card = &mv[..2];
            let values = legal
                .iter()
                .filter(|m| m.starts_with(card) && m.len() > 2)
                .count();
            if values > 1 {
                b.click(&format!("#hand .card[data-card='{card}']"));
                click_move(b, &format!("#choices [data-move='{mv}']"));
            } else {
                click_move(b, &format!("#hand .card[data-card='{card}']"));
            }
        } else {
            click_move(b, &format!("#hand .card[data-card='{mv}']"));
        }
        moves += 1;
        if moves == 6 && game != "hearts" {
            screenshot(b, game);
        }
    }
    let over = result(b);
    assert!(over.contains("\"ending\":\"normal\""), "{over}");
    eprintln!("{game}: {moves} moves ({passes} passes), {over}");
    latencies(b)
}

#[test]
fn gui_browser_plays_whole_games_by_clicking() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = Server::start(&[]);
    let url = server.url();
    let mut all = Vec::new();
    all.push(("othello", othello(&browser, &url)));
    eprintln!("othello done");
    all.push(("quoridor", quoridor(&browser, &url)));
    eprintln!("quoridor done");
    all.push((
        "hearts",
        cards(&browser, &url, "hearts", &[("hands", "single")], "2"),
    ));
    all.push((
        "wizard",
        cards(
            &browser,
            &url,
            "wizard",
            &[("players", "3"), ("rounds", "3")],
            "0",
        ),
    ));
    all.push((
        "ninetynine",
        cards(
            &browser,
            &url,
            "ninetynine",
            &[("players", "3"), ("tokens", "1")],
            "0",
        ),
    ));
    for (game, (n, median, max)) in &all {
        eprintln!("{game}: {n} clicks answered, median {median:.1} ms, max {max:.1} ms");
        assert!(*n > 0);
        // The target is 100 ms a click. The median is held to it; the
        // slowest is only reported: on a loaded machine (eight builds on
        // two cores) the page itself can be starved for seconds.
        assert!(
            *median < 100.0,
            "{game}: median click answer {median} ms (max {max})"
        );
    }
    drop(browser);
    server.stop();
}
