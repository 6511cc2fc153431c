//! Property tests of the protocol: random and mutated command streams, for
//! every game. Properties: no panic; every command line gets exactly one
//! reply; a `?` reply leaves the state as it was; the moves `legal_moves`
//! lists are accepted by `play`; a finished game refuses moves.
//!
//! The cases come from a seeded generator (no property-testing crate: it
//! cost a first test build more than a quarter of a minute), so a failure
//! names its seed and case and is replayed exactly. A short run is part of
//! `cargo test`; a longer one, or another seed:
//! `TABULA_PROP_CASES=2000 TABULA_PROP_SEED=7 cargo test --release --test
//! integration protocol_props` (that many cases for the stream properties,
//! and as many in proportion for the slower walk through whole games:
//! 2000 / 64 * 12 = 375).

use std::io::Cursor;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
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

const WORDS: [&str; 24] = [
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
];

const ARGS: [&str; 33] = [
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
];

fn pick<'a>(rng: &mut SmallRng, from: &[&'a str]) -> &'a str {
    from[rng.gen_range(0..from.len())]
}

/// A command a peer might send, good or bad, for the game in play: an
/// optional id, a word, and up to two arguments (known words or short
/// printable junk).
fn command(rng: &mut SmallRng) -> String {
    let mut line = if rng.gen_bool(0.5) {
        format!("{} ", rng.gen_range(0u32..50))
    } else {
        String::new()
    };
    line.push_str(pick(rng, &WORDS));
    for _ in 0..rng.gen_range(0..3) {
        line.push(' ');
        if rng.gen_bool(0.5) {
            line.push_str(pick(rng, &ARGS));
        } else {
            for _ in 0..rng.gen_range(0..=6) {
                line.push(char::from(rng.gen_range(b' '..=b'~')));
            }
        }
    }
    line
}

fn game_line(rng: &mut SmallRng) -> String {
    let names: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
    format!("game {} seed=3", pick(rng, &names))
}

/// A line as a peer might mangle it: a command as is, with one byte
/// replaced, or arbitrary bytes (invalid UTF-8 included); never a newline.
fn mangled_line(rng: &mut SmallRng) -> Vec<u8> {
    let mut v = match rng.gen_range(0..3) {
        0 => command(rng).into_bytes(),
        1 => {
            let mut v = command(rng).into_bytes();
            if !v.is_empty() {
                let at = rng.gen_range(0..v.len());
                v[at] = rng.r#gen();
            }
            v
        }
        _ => (0..rng.gen_range(0..40)).map(|_| rng.r#gen()).collect(),
    };
    v.retain(|&b| b != b'\n');
    v
}

const PROBES: [&str; 3] = ["history", "turn", "get"];

/// Cases for a property that runs `short` cases in a plain `cargo test`:
/// `TABULA_PROP_CASES` scales them (64 short cases become that many).
fn cases(short: u64) -> u64 {
    match std::env::var("TABULA_PROP_CASES")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        Some(n) => (n * short / 64).max(1),
        None => short,
    }
}

/// Runs `property` on `cases(short)` generated cases; each case has its own
/// generator, seeded from the run's seed (`TABULA_PROP_SEED`, default 0)
/// and the case number, so the failure message is enough to replay it.
fn check(short: u64, property: impl Fn(&mut SmallRng) -> Result<(), String>) {
    let seed = std::env::var("TABULA_PROP_SEED")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(0);
    for case in 0..cases(short) {
        let mut rng = SmallRng::seed_from_u64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ case);
        if let Err(why) = property(&mut rng) {
            panic!("case {case} of seed {seed} (TABULA_PROP_SEED={seed}): {why}");
        }
    }
}

/// The property of the first test, on a given game and command list.
fn one_reply_each_and_errors_change_nothing(game: &str, commands: &[String]) -> Result<(), String> {
    // Budgets small enough that every genmove is quick.
    let mut lines = vec![
        game.to_string(),
        "set iterations 20".to_string(),
        "set movetime 50".to_string(),
    ];
    for c in commands {
        lines.push(c.clone());
        lines.extend(PROBES.iter().map(|p| p.to_string()));
    }
    let replies = session(&lines);
    if replies.len() != lines.len() {
        return Err(format!(
            "{lines:?}: {} replies to {} lines: {replies:?}",
            replies.len(),
            lines.len()
        ));
    }
    if let Some(r) = replies
        .iter()
        .find(|r| !r.starts_with('=') && !r.starts_with('?'))
    {
        return Err(format!("{lines:?}: reply {r:?}"));
    }
    // Each command's reply is followed by the probes' replies; after a
    // `?`, the probes must read as they did before the command.
    let stride = 1 + PROBES.len();
    for (i, c) in commands.iter().enumerate() {
        let at = 3 + i * stride;
        if replies[at].starts_with('?') && i > 0 {
            let before = &replies[at - PROBES.len()..at];
            let after = &replies[at + 1..at + 1 + PROBES.len()];
            if before != after {
                return Err(format!(
                    "{lines:?}: `{c}` failed but changed the state: {before:?} then {after:?}"
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn every_line_gets_one_reply_and_errors_change_nothing() {
    check(64, |rng| {
        let game = game_line(rng);
        let commands: Vec<String> = (0..rng.gen_range(1..25)).map(|_| command(rng)).collect();
        one_reply_each_and_errors_change_nothing(&game, &commands)
    });
}

/// A case that once failed (an `undo` then a bad `play` in a dealt game).
#[test]
fn a_refused_play_after_undo_in_hearts_changes_nothing() {
    let commands = ["undo".to_string(), "play black".to_string()];
    one_reply_each_and_errors_change_nothing("game hearts seed=3", &commands)
        .unwrap_or_else(|why| panic!("{why}"));
}

#[test]
fn listed_moves_are_playable_until_the_game_ends() {
    check(12, |rng| {
        let game = game_line(rng);
        let mut lines = vec![game];
        let mut played: Vec<String> = Vec::new();
        // Walk a game: ask for the legal moves, play a random one.
        for _ in 0..rng.gen_range(1..90) {
            let replies = session(&[lines.clone(), vec!["legal_moves".to_string()]].concat());
            let moves_reply = replies.last().cloned().unwrap_or_default();
            let moves: Vec<&str> = moves_reply
                .trim_start_matches("= ")
                .split(' ')
                .filter(|m| !m.is_empty())
                .collect();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())].to_string();
            lines.push(format!("play {mv}"));
            played.push(mv);
        }
        let mut check = lines.clone();
        check.push("result".to_string());
        let replies = session(&check);
        for (i, r) in replies.iter().enumerate().skip(1).take(played.len()) {
            if r != "= " {
                return Err(format!("{lines:?}: play {} refused: {r}", played[i - 1]));
            }
        }
        let result = replies.last().cloned().unwrap_or_default();
        if result.starts_with("= over") {
            // A finished game refuses every move.
            let mut after = lines.clone();
            after.push("genmove".to_string());
            let r = session(&after);
            if !r.last().is_some_and(|x| x.starts_with('?')) {
                return Err(format!("{lines:?}: genmove after the end: {:?}", r.last()));
            }
        }
        Ok(())
    });
}

#[test]
fn mangled_bytes_never_break_the_framing() {
    check(64, |rng| {
        let game = game_line(rng);
        let lines: Vec<Vec<u8>> = (0..rng.gen_range(1..30))
            .map(|_| mangled_line(rng))
            .collect();
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
        let text = String::from_utf8(out).map_err(|e| format!("replies not UTF-8: {e}"))?;
        let replies: Vec<&str> = text.split("\n\n").filter(|r| !r.is_empty()).collect();
        if let Some(r) = replies
            .iter()
            .find(|r| !r.starts_with('=') && !r.starts_with('?'))
        {
            return Err(format!("{game} {lines:?}: reply {r:?}"));
        }
        if replies.len() != expected {
            return Err(format!(
                "{game} {lines:?}: {} replies, {expected} expected: {replies:?}",
                replies.len()
            ));
        }
        if replies.last().copied() != Some("= tabula") {
            return Err(format!("{game} {lines:?}: last reply {:?}", replies.last()));
        }
        Ok(())
    });
}
