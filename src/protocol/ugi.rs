//! UGI, the Universal Game Interface of the cutegames runner (UCI made
//! game-neutral, with `query` and `response`), for the two-player games.
//!
//! Conventions: `p1` is the first seat (Othello's black), a pass is
//! `0000` (UCI's null move), moves are the game's own texts otherwise. A
//! `position fen` is the game's position text; for Othello also a FEN of
//! rows from row 1 (the top) down, `x` black, `o` white, `-` or digits
//! for empties, then the side `x`/`o` (the start is
//! `8/8/8/3ox3/3xo3/8/8/8 x`). The engine keeps no state between
//! `position` commands but the game they give. A bad line gets an
//! `info string error ...` line (UGI has no error reply) and changes
//! nothing.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::control::Progress;
use crate::control::ScoreKind;
use crate::engine::{BudgetOverride, Engine};
use crate::model::game::{Outcome, Turn};
use crate::protocol::error::ProtocolError;
use crate::protocol::input::Input;
use crate::protocol::kept_game::{Replay, ThinkLimit};
use crate::protocol::serve::{Dialect, Hub, SessionEnd, answered_genmove, disc_margin, win_scale};

/// UGI's null move, a pass.
const NULL_MOVE: &str = "0000";

/// Serves a UGI session from the hub until `quit` or the end.
pub(crate) fn serve<W: Write + Send>(hub: &mut Hub<W>, engine: Engine) -> SessionEnd {
    crate::protocol::serve::serve(hub, engine, UgiGame::default())
}

/// What the session keeps besides the engine: the game the last
/// `position` gave.
#[derive(Default)]
struct UgiGame {
    game: Replay,
}

impl<W: Write + Send> Dialect<W> for UgiGame {
    fn input(&mut self, hub: &mut Hub<W>, engine: &mut Engine, input: Input) -> Option<SessionEnd> {
        let game = &mut self.game;
        let send = |text: &str| hub.out().write(&format!("{text}\n"));
        let (text, cancel, at) = match input {
            Input::End => return Some(SessionEnd::EndOfInput),
            other => match other.into_line() {
                Ok(line) => line,
                Err(why) => {
                    send(&format!("info string error: {why}"));
                    return None;
                }
            },
        };
        let words: Vec<&str> = text.split_whitespace().collect();
        let (&command, args) = words.split_first()?;
        let two_seats = engine.game().num_seats() == 2;
        let reply: Result<(), ProtocolError> = match command {
            "uginewgame" | "position" | "query" if !two_seats => Err(two_seats_only(engine)),
            "ugi" => {
                send("id name tabula");
                send(&format!("id author tabula {}", env!("CARGO_PKG_VERSION")));
                send("ugiok");
                Ok(())
            }
            "isready" => {
                send("readyok");
                Ok(())
            }
            "uginewgame" => switch(engine, game, Ok(Replay::default())),
            "setoption" => set_option(engine, args),
            "position" => {
                let next = parse_position(engine, args);
                switch(engine, game, next).map_err(|e| ProtocolError::Refused {
                    context: "position refused, game unchanged",
                    why: Box::new(e),
                })
            }
            "go" => {
                // A runner waits for a best move after any `go`: an error
                // is told, then the null move says there is none.
                let bound = if two_seats {
                    parse_go(engine, args)
                } else {
                    Err(two_seats_only(engine))
                };
                match bound {
                    Ok(bound) => hub.run(&cancel, |out| {
                        let send = |text: &str| out.write(&format!("{text}\n"));
                        go(engine, game, bound, cancel.clone(), at, &send);
                    }),
                    Err(e) => {
                        send(&format!("info string error: {e}"));
                        send(&format!("bestmove {NULL_MOVE}"));
                    }
                }
                Ok(())
            }
            // A search has ended before this line is taken.
            "stop" => Ok(()),
            "query" => match query(engine, args) {
                Ok(answer) => {
                    send(&format!("response {answer}"));
                    Ok(())
                }
                Err(e) => Err(e),
            },
            "quit" => return Some(SessionEnd::Quit),
            other => Err(ProtocolError::UnknownCommand(other.to_string())),
        };
        if let Err(e) = reply {
            hub.out().write(&format!("info string error: {e}\n"));
        }
        None
    }
}

/// `go`: searches without playing and answers `bestmove`, after an
/// `info` line with the search's last report. A search under a time
/// budget answers on time from its best move so far even when its
/// threads are late (as GTP's `genmove` does); the game is set again
/// after it, since the search plays the move it answers.
fn go(
    engine: &mut Engine,
    game: &Replay,
    bound: ThinkLimit,
    cancel: Arc<AtomicBool>,
    at: Instant,
    send: &(dyn Fn(&str) + Sync),
) {
    // The first `info` waits an interval too: a quick search sends only
    // the one before its answer.
    let last = Mutex::new((Instant::now(), Progress::default()));
    let units = Units::of(engine);
    // Nothing follows `bestmove`: reports of a search that runs on after
    // its answer are dropped.
    let answered = AtomicBool::new(false);
    let report = |p: &Progress| {
        // An info line names a move: a report of work alone has none.
        if p.is_work_only() {
            return;
        }
        let Ok(mut last) = last.lock() else { return };
        if answered.load(Ordering::Acquire) {
            return;
        }
        last.1 = p.clone();
        if last.0.elapsed() >= INFO_INTERVAL {
            last.0 = Instant::now();
            send(&info_line(p, at.elapsed(), units));
        }
    };
    // The decision answered (the search's, or the one the time manager
    // sends early: the same typed move and value), with the last line
    // reported where it starts with the move.
    let answer = |decided: &Progress| {
        let last = last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        answered.store(true, Ordering::Release);
        let mut p = decided.clone();
        if p.pv.first() != Some(&p.best) {
            p.pv = if last.1.pv.first() == Some(&p.best) {
                last.1.pv.clone()
            } else {
                vec![p.best.clone()]
            };
        }
        if p.iterations == 0 {
            (p.iterations, p.depth) = (last.1.iterations, last.1.depth.max(p.depth));
        }
        send(&info_line(&p, at.elapsed(), units));
        send(&format!("bestmove {}", move_out(&p.best)));
    };
    let decided = match bound {
        ThinkLimit::Infinite => game
            .think(engine, bound, cancel, at, Some(&report), 0)
            .map(Some),
        ThinkLimit::Budget(budget) => {
            let sent = answered_genmove(engine, None, budget, cancel, at, Some(&report), &answer);
            if let Err(e) = game.set(engine, game) {
                log::error!("could not set the game again after go: {e}");
            }
            sent
        }
    };
    match decided {
        Ok(Some(d)) => answer(&d.report(Vec::new())),
        Ok(None) => {}
        Err(e) => {
            // A runner waits for a best move: the null move tells it
            // there is none.
            send(&format!("info string error: {e}"));
            send(&format!("bestmove {NULL_MOVE}"));
        }
    }
}

/// The least time between two `info` lines of one search.
const INFO_INTERVAL: Duration = Duration::from_millis(100);

/// UGI's refusal of a game with other than two seats.
fn two_seats_only(engine: &Engine) -> ProtocolError {
    ProtocolError::UnsupportedGame(format!(
        "UGI plays two-player games, not {} with {} seats",
        engine.game().name(),
        engine.game().num_seats()
    ))
}

/// Sets the engine to `next` (unchanged on an error) and keeps it.
fn switch(
    engine: &mut Engine,
    game: &mut Replay,
    next: Result<Replay, ProtocolError>,
) -> Result<(), ProtocolError> {
    let next = next?;
    next.set(engine, game)?;
    *game = next;
    Ok(())
}

/// `setoption name <setting> value <value>`: an engine setting (the
/// names `get` lists).
fn set_option(engine: &mut Engine, args: &[&str]) -> Result<(), ProtocolError> {
    match args {
        ["name", name, "value", value @ ..] if !value.is_empty() => {
            Ok(engine.set(name, &value.join(" "))?)
        }
        _ => Err(ProtocolError::Usage(
            "setoption name <setting> value <value>".into(),
        )),
    }
}

/// `position startpos|fen <fen> [moves <m>...]`, read into a game.
fn parse_position(engine: &Engine, args: &[&str]) -> Result<Replay, ProtocolError> {
    let usage = || ProtocolError::Usage("position startpos|fen <fen> [moves <move>...]".into());
    let split = args.iter().position(|&w| w == "moves");
    let (head, moves) = match split {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let start = match head {
        ["startpos"] => None,
        ["fen", fen @ ..] if !fen.is_empty() => Some(position_text(engine, &fen.join(" "))?),
        _ => return Err(usage()),
    };
    Ok(Replay {
        start,
        moves: moves.iter().map(|m| (None, move_in(m))).collect(),
    })
}

/// The engine's position text for a UGI FEN: Othello's rank FEN
/// converted, anything else taken as the game's own position text.
fn position_text(engine: &Engine, fen: &str) -> Result<String, ProtocolError> {
    if engine.game().name() != crate::games::othello::NAME || !fen.contains('/') {
        return Ok(fen.to_string());
    }
    let mut words = fen.split_whitespace();
    let board = words.next().unwrap_or("");
    let side = match words.next().map(str::to_ascii_lowercase).as_deref() {
        Some("x") | Some("b") => 'X',
        Some("o") | Some("w") => 'O',
        other => {
            return Err(ProtocolError::bad_value(
                "the side to move",
                "must be x or o",
                other.unwrap_or(""),
            ));
        }
    };
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(ProtocolError::BadPosition(format!(
            "an Othello FEN has 8 ranks, not {}",
            ranks.len()
        )));
    }
    // The engine's text runs from a1 to h8 row by row, as the FEN does.
    let mut cells = String::new();
    for rank in &ranks {
        let mut row = String::new();
        for c in rank.chars() {
            match c {
                'x' | 'X' => row.push('X'),
                'o' | 'O' => row.push('O'),
                '-' | '.' => row.push('-'),
                d @ '1'..='8' => row.extend(std::iter::repeat_n('-', d as usize - '0' as usize)),
                other => {
                    return Err(ProtocolError::BadPosition(format!(
                        "'{other}' is not x, o, - or a digit"
                    )));
                }
            }
        }
        if row.len() != 8 {
            return Err(ProtocolError::BadPosition(format!(
                "row '{rank}' is not 8 squares"
            )));
        }
        cells.push_str(&row);
    }
    Ok(format!("{cells} {side}"))
}

/// A move text as UGI writes it: the null move for a pass.
fn move_out(mv: &str) -> String {
    if mv.eq_ignore_ascii_case("pass") {
        NULL_MOVE.to_string()
    } else {
        mv.to_string()
    }
}

/// A UGI move text as the engine reads it.
fn move_in(mv: &str) -> String {
    if mv == NULL_MOVE {
        "pass".to_string()
    } else {
        mv.to_string()
    }
}

/// `go` parameters: the clock (`p1time`, `p2time`, `p1inc`, `p2inc`, in
/// ms; the side to move's), `movetime`, `depth`, `nodes` (iterations),
/// `infinite`.
fn parse_go(engine: &mut Engine, args: &[&str]) -> Result<ThinkLimit, ProtocolError> {
    let mut budget = BudgetOverride::default();
    let mut times = [None::<u64>; 2];
    let mut infinite = false;
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        if key == "infinite" {
            infinite = true;
            i += 1;
            continue;
        }
        let value = args
            .get(i + 1)
            .ok_or_else(|| ProtocolError::MissingValue(format!("go {key}")))?;
        let number = value.parse::<u64>().map_err(|_| {
            ProtocolError::bad_value(format!("go {key}"), "takes a whole number", value)
        })?;
        match key {
            "p1time" => times[0] = Some(number),
            "p2time" => times[1] = Some(number),
            // The clock has no increment: a move spends its share of the
            // time left, and the increment comes on top of it.
            "p1inc" | "p2inc" => {}
            "movetime" => budget.movetime = Some(number.max(1)),
            "depth" => budget.depth = Some(u32::try_from(number).unwrap_or(u32::MAX)),
            "nodes" => budget.iterations = Some(number.max(1)),
            other => {
                return Err(ProtocolError::Unknown {
                    what: "go parameter",
                    name: other.to_string(),
                });
            }
        }
        i += 2;
    }
    if infinite {
        return Ok(ThinkLimit::Infinite);
    }
    let mover = match engine.game().turn() {
        Turn::Player(p) => p,
        _ => return Err(ProtocolError::GameOver),
    };
    let clock = engine.clock_mut();
    match times.get(mover) {
        Some(Some(ms)) => {
            let left = Duration::from_millis(*ms);
            clock.set(left, Duration::ZERO, 0);
            clock.time_left(mover, left, 0);
        }
        // No clock for this search (GTP's "no time limit").
        _ => clock.set(Duration::ZERO, Duration::from_secs(1), 0),
    }
    Ok(ThinkLimit::Budget(budget))
}

/// `query gameover|p1turn|result`.
fn query(engine: &Engine, args: &[&str]) -> Result<String, ProtocolError> {
    let game = engine.game();
    Ok(match args {
        ["gameover"] => (game.turn() == Turn::Over).to_string(),
        ["p1turn"] => (game.turn() == Turn::Player(0)).to_string(),
        ["result"] => match engine.outcome() {
            None => "none".to_string(),
            Some(Outcome { winners, .. }) => match winners[..] {
                [0] => "p1win".to_string(),
                [1] => "p2win".to_string(),
                _ => "draw".to_string(),
            },
        },
        _ => return Err(ProtocolError::Usage("query gameover|p1turn|result".into())),
    })
}

/// How the game in play's values are shown: Othello's in discs (with
/// the logistic scale that turns a win chance into discs).
#[derive(Clone, Copy)]
struct Units {
    othello: Option<f64>,
}

impl Units {
    fn of(engine: &Engine) -> Units {
        Units {
            othello: (engine.game().name() == crate::games::othello::NAME)
                .then(|| win_scale(engine)),
        }
    }
}

/// A score as UCI's centipawns, by its kind ([`ScoreKind`]): for Othello
/// the disc margin times 100 (exact where solved, an evaluation's
/// predicted margin, a win chance's margin by the logistic); for the other
/// games an exact margin times 100, an evaluation `e` as `100 e`, a win
/// chance `p` as `200 (p - 1/2)`. `None` where no value is known: the
/// line then has no `score`.
fn centipawns(kind: ScoreKind, score: f64, exact: Option<i32>, units: Units) -> Option<i64> {
    let pawns = match units.othello {
        Some(scale) => disc_margin(kind, score, exact, scale)?,
        None => kind.margin(score, exact, 1.0, |p| 2.0 * (p - 0.5))?,
    };
    Some((pawns * 100.0).round() as i64)
}

fn info_line(p: &Progress, elapsed: Duration, units: Units) -> String {
    let pv: Vec<String> = p.pv.iter().map(|m| move_out(m)).collect();
    let score = centipawns(p.kind, p.score, p.exact, units)
        .map(|cp| format!(" score cp {cp}"))
        .unwrap_or_default();
    format!(
        "info depth {}{score} nodes {} time {} pv {}",
        p.depth,
        p.iterations,
        elapsed.as_millis(),
        pv.join(" ")
    )
}
