//! NBoard (protocol version 2), as the NBoard GUI speaks to NTest and
//! Edax: Othello only. Entered by a first line `nboard 2` (or
//! `--protocol nboard`).
//!
//! The GUI sets the whole game (`set game <GGF>`) or adds a move
//! (`move F5/0.00/1.2`), asks for the engine's move (`go`, answered
//! `=== F5/<eval>/<seconds>` without playing it: the GUI sends it back
//! with `move`) or for hints (`hint N`, `search <pv> <eval> 0 <depth>`
//! lines), and `ping N` stops what runs and is answered `pong N`. Evals
//! are discs for the side to move. `status` lines frame each search and
//! `nodestats <nodes> <seconds>` report its progress.
//!
//! NBoard has no error reply (an engine is to ignore what it does not
//! understand): a refused line is reported as a `status` line the GUI
//! shows, and on stderr, and changes nothing.

use std::io::Write;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::control::Progress;
use crate::control::ScoreKind;
use crate::engine::Settings;
use crate::engine::{BudgetOverride, Decision, Engine};
use crate::model::game::Turn;
use crate::protocol::error::ProtocolError;
use crate::protocol::input::Input;
use crate::protocol::kept_game::{Replay, ThinkLimit};
use crate::protocol::serve::{Dialect, Hub, SessionEnd, disc_margin, win_scale};

/// The midgame depth before any `set depth`.
const DEFAULT_DEPTH: u32 = 8;
/// The deepest `set depth` taken (an Othello game has 60 moves).
const MAX_DEPTH: u32 = 60;
/// The most nodes a `go`, `hint` or `analyze` search spends on its main
/// thread: NBoard's depth is a level, as Edax's and NTest's are, not a
/// promise at any cost. Depth 20 from most midgame positions takes a few
/// million nodes, from a few ten times more (one took 92.8 M, 11 s of a
/// core); an iteration that would end past this bound is not begun, one
/// that reaches it is cut short, and the lines say the depth completed.
/// About 2 s of one core of the development machine (8 M nodes a second
/// at depth 20, release build), whatever the load.
pub const LEVEL_NODES: u64 = 16_000_000;
/// The bound of a `hint N` of several lines: three quarters of
/// [`LEVEL_NODES`]. Measured, a MultiPV search spends more CPU on the same
/// nodes than a plain one: at the full bound one position of the 50 of
/// tests/protocol_level.rs took 3.16 s of CPU (plain `go`: at most
/// 2.14 s), over the 3 s that a level's answer may take.
pub const MULTIPV_LEVEL_NODES: u64 = LEVEL_NODES / 4 * 3;
/// The least time between two `nodestats` lines (the last comes with
/// the answer).
const NODESTATS_INTERVAL: Duration = Duration::from_millis(500);

/// What the session keeps besides the engine.
struct NboardGame {
    game: Replay,
    depth: u32,
    /// Discs a draw is worth to the engine (`set contempt`), kept for
    /// `get`-style reports; tabula's searches score a draw as half a win.
    contempt: f64,
}

/// Serves an NBoard session from the hub until `quit` or the end.
pub(crate) fn serve<W: Write + Send>(hub: &mut Hub<W>, mut engine: Engine) -> SessionEnd {
    if let Err(e) = enter(&mut engine) {
        refuse(
            &|text: &str| hub.out().write(&format!("{text}\n")),
            &e.to_string(),
        );
    }
    let s = NboardGame {
        game: Replay::default(),
        depth: DEFAULT_DEPTH,
        contempt: 0.0,
    };
    crate::protocol::serve::serve(hub, engine, s)
}

impl<W: Write + Send> Dialect<W> for NboardGame {
    fn input(&mut self, hub: &mut Hub<W>, engine: &mut Engine, input: Input) -> Option<SessionEnd> {
        let s = self;
        let out = hub.out();
        let send = |text: &str| out.write(&format!("{text}\n"));
        let (text, cancel, at) = match input {
            Input::End => return Some(SessionEnd::EndOfInput),
            other => match other.into_line() {
                Ok(line) => line,
                Err(why) => {
                    refuse(&send, &why.to_string());
                    return None;
                }
            },
        };
        let (command, rest) = match text.trim().split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (text.trim(), ""),
        };
        let done = match command {
            "nboard" => match rest {
                "1" | "2" => Ok(()),
                v => Err(ProtocolError::Version(v.to_string())),
            },
            "set" => set(engine, s, rest, &send),
            "move" => {
                let mut next = s.game.clone();
                next.moves.push((None, move_in(rest)));
                switch(engine, &mut s.game, next)
            }
            "go" => think(engine, s, hub, cancel, at, Think::Go),
            "hint" => match rest.parse::<u32>() {
                Ok(n) if n >= 1 => think(engine, s, hub, cancel, at, Think::Hint(n)),
                _ => Err(ProtocolError::UsageNot {
                    usage: "hint <moves from 1>",
                    given: format!("hint {rest}"),
                }),
            },
            "analyze" => hub.run(&cancel, |out| {
                let send = |text: &str| out.write(&format!("{text}\n"));
                analyze(engine, s, cancel.clone(), &send)
            }),
            "ping" => match rest.parse::<u64>() {
                Ok(n) => {
                    send(&format!("pong {n}"));
                    Ok(())
                }
                Err(_) => Err(ProtocolError::UsageNot {
                    usage: "ping <number>",
                    given: format!("ping {rest}"),
                }),
            },
            "learn" => {
                // tabula keeps no opening book: nothing to add it to.
                log::info!("learn: tabula keeps no book");
                send("learned");
                Ok(())
            }
            "quit" => return Some(SessionEnd::Quit),
            // NBoard 1.1 sent a move as the whole line (`F5`).
            other if rest.is_empty() && other.len() == 2 && other.is_ascii() => {
                let mut next = s.game.clone();
                next.moves.push((None, move_in(other)));
                switch(engine, &mut s.game, next).map_err(|e| {
                    ProtocolError::NeitherCommandNorMove {
                        word: other.to_string(),
                        why: Box::new(e),
                    }
                })
            }
            other => Err(ProtocolError::UnknownCommand(other.to_string())),
        };
        if let Err(e) = done {
            refuse(
                &|text: &str| hub.out().write(&format!("{text}\n")),
                &e.to_string(),
            );
        }
        None
    }
}

/// NBoard is Othello's, and its depth a midgame alpha-beta depth: the
/// search is alpha-beta unless another than the default was set.
fn enter(engine: &mut Engine) -> Result<(), ProtocolError> {
    if engine.game().name() != crate::games::othello::NAME {
        engine.load_game(crate::games::othello::NAME, &[])?;
    }
    if engine.settings().search == Settings::default().search {
        engine.set("search", "alphabeta")?;
    }
    Ok(())
}

fn refuse(send: &impl Fn(&str), message: &str) {
    log::warn!("nboard: {message}");
    send(&format!("status tabula: {message}"));
}

/// Sets the engine to `next` (unchanged on an error) and keeps it.
fn switch(engine: &mut Engine, game: &mut Replay, next: Replay) -> Result<(), ProtocolError> {
    next.set(engine, game)?;
    *game = next;
    Ok(())
}

fn set(
    engine: &mut Engine,
    s: &mut NboardGame,
    rest: &str,
    send: &impl Fn(&str),
) -> Result<(), ProtocolError> {
    let (what, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let value = value.trim();
    match what {
        "depth" => {
            let depth = value
                .parse::<u32>()
                .ok()
                .filter(|d| (1..=MAX_DEPTH).contains(d))
                .ok_or_else(|| {
                    ProtocolError::bad_value(
                        "depth",
                        format!("must be from 1 to {MAX_DEPTH}"),
                        value,
                    )
                })?;
            s.depth = depth;
            send(&format!("set myname tabula{depth}"));
            Ok(())
        }
        "game" => {
            let next = parse_ggf(value)?;
            switch(engine, &mut s.game, next)
        }
        "contempt" => {
            s.contempt = value
                .parse::<f64>()
                .ok()
                .filter(|c| c.is_finite())
                .ok_or_else(|| ProtocolError::bad_value("contempt", "must be a number", value))?;
            log::info!(
                "contempt {} discs: tabula scores a draw as half a win",
                s.contempt
            );
            Ok(())
        }
        other => Err(ProtocolError::Unknown {
            what: "setting",
            name: other.to_string(),
        }),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Think {
    /// `go`: the move, answered with `===`.
    Go,
    /// `hint N`: the N best moves' lines (a MultiPV search), best
    /// first, one `search` line each.
    Hint(u32),
}

/// `go` or `hint`: searches the position to the set depth, without
/// playing, between two `status` lines. A line that changes the state
/// while it runs (`set game`, `move`, `set depth`: NBoard sends them
/// before its `ping` and next request) stops it, and it answers nothing
/// but the closing `status`: its answer was for a position or depth
/// that no longer holds. A `ping` that arrives while it runs stops it
/// and is answered at once (`status`, `pong N`) by the hub's pump, and the
/// search then answers nothing: NBoard reads every line sent before the
/// pong of its last ping as stale, and a move sent after it would be
/// taken for an answer to the new state.
fn think<W: Write + Send>(
    engine: &mut Engine,
    s: &NboardGame,
    hub: &mut Hub<W>,
    cancel: Arc<AtomicBool>,
    at: Instant,
    think: Think,
) -> Result<(), ProtocolError> {
    if engine.game().turn() == Turn::Over {
        return Err(ProtocolError::GameOver);
    }
    let decided = hub.run(&cancel, |out| {
        let send = |text: &str| out.write(&format!("{text}\n"));
        let last = Mutex::new((Instant::now(), Vec::<String>::new()));
        let report = |p: &Progress| {
            let Ok(mut last) = last.lock() else { return };
            // A solve of the root reports its nodes with no move yet.
            if !p.is_work_only() {
                last.1 = if p.pv.is_empty() {
                    vec![p.best.clone()]
                } else {
                    p.pv.clone()
                };
            }
            if last.0.elapsed() >= NODESTATS_INTERVAL {
                last.0 = Instant::now();
                send(&nodestats(p.iterations, p.elapsed));
            }
        };
        send("status tabula is thinking");
        let multipv = match think {
            Think::Hint(n) if n > 1 => n as usize,
            _ => 0,
        };
        let bound = level(s.depth, multipv > 1);
        let decided = s
            .game
            .think(engine, bound, cancel.clone(), at, Some(&report), multipv);
        let pv = last.lock().map(|l| l.1.clone()).unwrap_or_default();
        (decided, pv)
    });
    let send = |text: &str| hub.out().write(&format!("{text}\n"));
    let (decided, pv) = decided;
    if hub.superseded() {
        send("status");
        return Ok(());
    }
    let result = decided.map_err(ProtocolError::from).map(|d| {
        let seconds = at.elapsed();
        send(&nodestats(d.iterations, seconds));
        match think {
            // No value known: the move alone, as NBoard reads it.
            Think::Go => send(&match eval(engine, &d) {
                Some(v) => format!(
                    "=== {}/{v:.2}/{:.1}",
                    move_out(&d.mv, true),
                    seconds.as_secs_f64()
                ),
                None => format!("=== {}", move_out(&d.mv, true)),
            }),
            Think::Hint(_) if !d.lines.is_empty() => {
                for line in &d.lines {
                    if let Some(v) = value(engine, line.kind, line.score, line.exact) {
                        send(&format!(
                            "search {} {v:.2} 0 {}",
                            pv_text(engine, &line.mv, &line.pv),
                            depth_text(line.kind, d.depth)
                        ));
                    }
                }
            }
            // A hint is a value: none is sent where none is known.
            Think::Hint(_) => {
                if let Some(v) = eval(engine, &d) {
                    send(&format!(
                        "search {} {v:.2} 0 {}",
                        pv_text(engine, &d.mv, &pv),
                        depth_text(d.kind, d.depth)
                    ));
                }
            }
        }
    });
    send("status");
    result
}

/// What a search at NBoard's depth `depth` may spend: that depth, and
/// [`LEVEL_NODES`] nodes ([`MULTIPV_LEVEL_NODES`] for several lines).
fn level(depth: u32, lines: bool) -> ThinkLimit {
    ThinkLimit::Budget(BudgetOverride {
        depth: Some(depth),
        iterations: Some(if lines {
            MULTIPV_LEVEL_NODES
        } else {
            LEVEL_NODES
        }),
        ..Default::default()
    })
}

/// `analyze`: the value of every position of the game, from the last to
/// the first, as `analysis <moves played> <eval>` lines (the side to
/// move's discs); `ping` stops it. The game is left as it was.
fn analyze(
    engine: &mut Engine,
    s: &NboardGame,
    cancel: Arc<AtomicBool>,
    send: &impl Fn(&str),
) -> Result<(), ProtocolError> {
    send("status tabula is analysing");
    let mut outcome = Ok(());
    for played in (0..=s.game.moves.len()).rev() {
        if cancel.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let position = Replay {
            start: s.game.start.clone(),
            moves: s.game.moves[..played].to_vec(),
        };
        if let Err(e) = position.set(engine, &s.game) {
            outcome = Err(e.into());
            break;
        }
        let value = match engine.outcome() {
            // A finished game's value is its margin for the side that
            // would move.
            Some(o) => Some(final_margin(engine, &o.scores)),
            None => {
                let bound = level(s.depth, false);
                // One line asked for (MultiPV 1): its value is wanted, so a
                // forced move is searched for it like any other, not
                // played unvalued.
                match position.think(engine, bound, cancel.clone(), Instant::now(), None, 1) {
                    Ok(d) => eval(engine, &d),
                    Err(e) => {
                        outcome = Err(e.into());
                        break;
                    }
                }
            }
        };
        // A position whose value is not known gets no line.
        if let Some(value) = value {
            send(&format!("analysis {played} {value:.2}"));
        }
    }
    if let Err(e) = s.game.set(engine, &s.game) {
        outcome = Err(e.into());
    }
    send("status");
    outcome
}

/// The margin of a finished game for black (seat 0) when black would
/// move next, as NBoard's evals are the mover's: the discs' margin with
/// the empty squares to the winner, as the solver values every end (a
/// wipeout is worth 64).
fn final_margin(engine: &Engine, scores: &[f64]) -> f64 {
    let (black, white) = (
        scores.first().copied().unwrap_or(0.0),
        scores.get(1).copied().unwrap_or(0.0),
    );
    let empties = (64.0 - black - white).max(0.0);
    let black = match black - white {
        d if d > 0.0 => d + empties,
        d if d < 0.0 => d - empties,
        _ => 0.0,
    };
    // After the last move the side "to move" alternates with the moves
    // played; the engine's turn is over, so take the mover by parity.
    let black_to_move = engine.game().history().len().is_multiple_of(2);
    if black_to_move { black } else { -black }
}

/// The decision's value for the side to move, in discs, by its kind
/// (see [`disc_margin`]); `None` where no value is known.
fn eval(engine: &Engine, d: &Decision) -> Option<f64> {
    disc_margin(d.kind, d.score, d.exact, win_scale(engine))
}

/// [`eval`] of a score of `kind` and an exact margin (a decision's, or
/// one of its MultiPV lines').
fn value(engine: &Engine, kind: ScoreKind, score: f64, exact: Option<i32>) -> Option<f64> {
    disc_margin(kind, score, exact, win_scale(engine))
}

/// A value's depth as NBoard reads it: `100%` for an exact solve (what
/// NBoard shows as exact), `100%W` for a win or loss proven without its
/// best margin (NBoard's mark for a win-loss-draw solve), else the
/// search's depth in plies.
fn depth_text(kind: ScoreKind, depth: u32) -> String {
    match kind {
        ScoreKind::Exact => "100%".to_string(),
        ScoreKind::Proven => "100%W".to_string(),
        _ => depth.to_string(),
    }
}

fn nodestats(nodes: u64, elapsed: Duration) -> String {
    format!("nodestats {nodes} {:.2}", elapsed.as_secs_f64())
}

/// A pv as NBoard wants it, one word: black's moves in capitals, white's
/// in small letters (`F5d6C3`), a pass `PA`/`pa`.
fn pv_text(engine: &Engine, mv: &String, pv: &[String]) -> String {
    let line: Vec<&String> = if pv.first() == Some(mv) {
        pv.iter().collect()
    } else {
        vec![mv]
    };
    let mut black = engine.game().turn() == Turn::Player(0);
    let mut text = String::new();
    for mv in line {
        text.push_str(&move_out(mv, black));
        black = !black;
    }
    text
}

/// An engine move as NBoard writes it.
fn move_out(mv: &str, capitals: bool) -> String {
    let text = if mv.eq_ignore_ascii_case("pass") {
        "pa"
    } else {
        mv
    };
    if capitals {
        text.to_ascii_uppercase()
    } else {
        text.to_ascii_lowercase()
    }
}

/// An NBoard move (`F5`, `F5/1.00/2.5`, `PA`) as the engine reads it.
fn move_in(text: &str) -> String {
    let mv = text.split('/').next().unwrap_or("").trim();
    if mv.eq_ignore_ascii_case("pa") {
        "pass".to_string()
    } else {
        mv.to_ascii_lowercase()
    }
}

/// Reads a GGF Othello game: the start board (`BO[8 <64 squares> <side>]`,
/// `*` black, `O` white, `-` empty) and the moves (`B[F5]`, `W[PA]`,
/// evals and times after a `/` ignored).
pub fn parse_ggf(text: &str) -> Result<Replay, ProtocolError> {
    let body = text
        .trim()
        .strip_prefix("(;")
        .and_then(|t| t.strip_suffix(";)"))
        .ok_or_else(|| ProtocolError::BadPosition("a GGF game is written (;...;)".into()))?;
    let mut game = Replay::default();
    let mut rest = body;
    while !rest.trim().is_empty() {
        let open = rest.find('[').ok_or_else(|| {
            ProtocolError::BadPosition(format!("GGF property without a value: '{}'", rest.trim()))
        })?;
        let close = rest[open..]
            .find(']')
            .map(|i| open + i)
            .ok_or_else(|| ProtocolError::BadPosition("GGF value without its ']'".into()))?;
        let key = rest[..open].trim();
        let value = &rest[open + 1..close];
        rest = &rest[close + 1..];
        match key {
            "GM" if !value.eq_ignore_ascii_case(crate::games::othello::NAME) => {
                return Err(ProtocolError::BadPosition(format!(
                    "tabula plays Othello, not '{value}'"
                )));
            }
            "TY" if value.trim() != "8" && !value.trim().is_empty() => {
                return Err(ProtocolError::BadPosition(format!(
                    "tabula plays Othello on 8x8, not type '{value}'"
                )));
            }
            "BO" => game.start = Some(ggf_board(value)?),
            "B" | "W" => {
                let seat = if key == "B" { "black" } else { "white" };
                game.moves.push((Some(seat.to_string()), move_in(value)));
            }
            _ => {}
        }
    }
    if game.start.is_none() {
        return Err(ProtocolError::BadPosition(
            "a GGF game needs its start board, BO[...]".into(),
        ));
    }
    Ok(game)
}

/// A GGF board (`8 <64 squares> <side>`) as the engine's position text.
fn ggf_board(value: &str) -> Result<String, ProtocolError> {
    let words: Vec<&str> = value.split_whitespace().collect();
    let [size, squares, side] = words[..] else {
        return Err(ProtocolError::BadPosition(format!(
            "GGF board '{value}' is not '8 <64 squares> <side>'"
        )));
    };
    if size != "8" {
        return Err(ProtocolError::BadPosition(format!(
            "tabula plays Othello on 8x8, not '{size}'"
        )));
    }
    if squares.chars().count() != 64 {
        return Err(ProtocolError::BadPosition(format!(
            "a GGF board has 64 squares, not {}",
            squares.chars().count()
        )));
    }
    // GGF's squares run from a1 to h8 row by row, as the engine's do.
    let mut text: String = squares
        .chars()
        .map(|c| match c {
            '*' | 'X' | 'x' | 'B' | 'b' => Ok('X'),
            'O' | 'o' | 'W' | 'w' => Ok('O'),
            '-' | '.' => Ok('-'),
            other => Err(ProtocolError::BadPosition(format!(
                "'{other}' is not a GGF square (*, O or -)"
            ))),
        })
        .collect::<Result<_, _>>()?;
    let side = match side {
        "*" | "B" | "b" | "X" | "x" => 'X',
        "O" | "o" | "W" | "w" => 'O',
        other => {
            return Err(ProtocolError::BadPosition(format!(
                "'{other}' is not a GGF side to move (* or O)"
            )));
        }
    };
    text.push(' ');
    text.push(side);
    Ok(text)
}
