//! Property tests of the protocol: random and mutated command streams, for
//! every game. Properties: no panic; every command line gets exactly one
//! reply; a `?` reply leaves the state as it was; the moves `legal_moves`
//! lists are accepted by `play`; a finished game refuses moves.
//!
//! A short run is part of `cargo test`; a longer one:
//! `PROPTEST_CASES=2000 cargo test --release --test protocol_props` (that
//! many cases for the stream properties, and as many in proportion for the
//! slower walk through whole games: 2000 / 64 * 12 = 375).

use std::io::Cursor;

use proptest::prelude::*;
use tabula::engine::Engine;
use tabula::games::GAMES;

/// Runs a session and splits its output into replies.
fn session(lines: &[String]) -> Vec<String> {
    let mut input = lines.join("\n");
    input.push('\n');
    let mut out = Vec::new();
    let engine = Engine::new(11).expect("engine");
    tabula::protocol::run(Cursor::new(input.into_bytes()), &mut out, engine);
    let text = String::from_utf8(out).expect("utf-8 output");
    text.split("\n\n")
        .filter(|r| !r.is_empty())
        .map(str::to_string)
        .collect()
}

/// Commands a peer might send, good and bad, for the game in play.
fn command() -> impl Strategy<Value = String> {
    let words = prop::sample::select(vec![
        "play",
        "genmove",
        "undo",
        "legal_moves",
        "showboard",
        "result",
        "final_score",
        "clear_board",
        "turn",
        "set",
        "get",
        "setboard",
        "deal",
        "boardsize",
        "komi",
        "time_left",
        "time_settings",
        "known_command",
        "stop",
        "name",
        "frobnicate",
        "position",
        "history",
        "list_games",
    ]);
    let args = prop::collection::vec(
        prop_oneof![
            prop::sample::select(vec![
                "black",
                "white",
                "pass",
                "d3",
                "c4",
                "e6",
                "z9",
                "a1",
                "p1",
                "p2",
                "north",
                "e2",
                "e8",
                "e3h",
                "c3v",
                "QS",
                "2C",
                "bid",
                "1",
                "0",
                "-1",
                "search",
                "random",
                "iterations=3",
                "depth=1",
                "movetime=1",
                "iterations",
                "9",
                "8",
                "x",
                "",
                "seed",
                "99999999999999999999",
            ])
            .prop_map(str::to_string),
            "[ -~]{0,6}",
        ],
        0..3,
    );
    (prop::option::of(0u32..50), words, args).prop_map(|(id, w, a)| {
        let mut line = id.map(|i| format!("{i} ")).unwrap_or_default();
        line.push_str(w);
        for x in a {
            line.push(' ');
            line.push_str(&x);
        }
        line
    })
}

fn game_line() -> impl Strategy<Value = String> {
    let names: Vec<&'static str> = GAMES.iter().map(|g| g.name).collect();
    prop::sample::select(names).prop_map(|n| format!("game {n} seed=3"))
}

const PROBES: [&str; 3] = ["history", "turn", "get"];

/// Cases for a property that runs `short` cases in a plain `cargo test`:
/// `PROPTEST_CASES` scales them (64 short cases become `PROPTEST_CASES`).
/// An explicit `cases` in a config would ignore the variable.
fn cases(short: u32) -> u32 {
    match std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        Some(n) => (n * u64::from(short) / 64).clamp(1, u64::from(u32::MAX)) as u32,
        None => short,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(64), failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn every_line_gets_one_reply_and_errors_change_nothing(
        game in game_line(),
        commands in prop::collection::vec(command(), 1..25),
    ) {
        // Budgets small enough that every genmove is quick.
        let mut lines = vec![game, "set iterations 20".to_string(), "set movetime 50".to_string()];
        for c in &commands {
            lines.push(c.clone());
            lines.extend(PROBES.iter().map(|p| p.to_string()));
        }
        let replies = session(&lines);
        prop_assert_eq!(replies.len(), lines.len(), "replies: {:?}", replies);
        for r in &replies {
            prop_assert!(r.starts_with('=') || r.starts_with('?'), "reply {:?}", r);
        }
        // Each command's reply is followed by the probes' replies; after a
        // `?`, the probes must read as they did before the command.
        let stride = 1 + PROBES.len();
        for (i, c) in commands.iter().enumerate() {
            let at = 3 + i * stride;
            if replies[at].starts_with('?') && i > 0 {
                let before = &replies[at - PROBES.len()..at];
                let after = &replies[at + 1..at + 1 + PROBES.len()];
                prop_assert_eq!(before, after, "`{}` failed but changed the state", c);
            }
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(12), failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn listed_moves_are_playable_until_the_game_ends(game in game_line(), picks in prop::collection::vec(0usize..1000, 1..90)) {
        let mut lines = vec![game.clone()];
        let mut engine_lines: Vec<String> = Vec::new();
        // Walk a game: ask for the legal moves, play the picked one.
        for &p in &picks {
            let replies = session(&[lines.clone(), vec!["legal_moves".to_string()]].concat());
            let moves_reply = replies.last().cloned().unwrap_or_default();
            let moves: Vec<&str> = moves_reply.trim_start_matches("= ").split(' ').filter(|m| !m.is_empty()).collect();
            if moves.is_empty() {
                break;
            }
            let mv = moves[p % moves.len()].to_string();
            lines.push(format!("play {mv}"));
            engine_lines.push(mv);
        }
        let mut check = lines.clone();
        check.push("result".to_string());
        let replies = session(&check);
        for (i, r) in replies.iter().enumerate().skip(1).take(engine_lines.len()) {
            prop_assert_eq!(r.as_str(), "= ", "play {} refused: {}", engine_lines[i - 1], r);
        }
        let result = replies.last().cloned().unwrap_or_default();
        if result.starts_with("= over") {
            // A finished game refuses every move.
            let mut after = lines.clone();
            after.push("genmove".to_string());
            let r = session(&after);
            prop_assert!(r.last().is_some_and(|x| x.starts_with('?')), "{:?}", r.last());
        }
    }
}

/// Lines as a peer might mangle them: valid commands with bytes flipped,
/// cut, doubled, or replaced by arbitrary bytes (invalid UTF-8 included).
fn mangled_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        command().prop_map(String::into_bytes),
        (command(), any::<prop::sample::Index>(), any::<u8>()).prop_map(|(c, i, b)| {
            let mut v = c.into_bytes();
            if !v.is_empty() {
                let at = i.index(v.len());
                v[at] = b;
            }
            v
        }),
        prop::collection::vec(any::<u8>(), 0..40),
    ]
    .prop_map(|mut v| {
        // One line each: a newline inside would make two.
        v.retain(|&b| b != b'\n');
        v
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(64), failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn mangled_bytes_never_break_the_framing(game in game_line(), lines in prop::collection::vec(mangled_line(), 1..30)) {
        let mut input = format!("{game}\nset iterations 10\n").into_bytes();
        let mut expected = 2;
        for l in &lines {
            input.extend_from_slice(l);
            input.push(b'\n');
            // Bytes that are not UTF-8 get one `?`; otherwise blank lines
            // and comments get no reply, and everything else one.
            match std::str::from_utf8(l) {
                Err(_) => expected += 1,
                Ok(text) => {
                    if !text.split('#').next().unwrap_or("").trim().is_empty() {
                        expected += 1;
                    }
                }
            }
        }
        input.extend_from_slice(b"name\n");
        expected += 1;
        let mut out = Vec::new();
        let engine = Engine::new(5).expect("engine");
        tabula::protocol::run(Cursor::new(input), &mut out, engine);
        let text = String::from_utf8(out).expect("replies are UTF-8");
        let replies: Vec<&str> = text.split("\n\n").filter(|r| !r.is_empty()).collect();
        for r in &replies {
            prop_assert!(r.starts_with('=') || r.starts_with('?'), "reply {:?}", r);
        }
        prop_assert_eq!(replies.len(), expected, "replies: {:?}", replies);
        prop_assert_eq!(replies.last().copied(), Some("= tabula"));
    }
}
