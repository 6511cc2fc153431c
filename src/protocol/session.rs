//! The session loop: lines in, replies out.
//!
//! Commands run one after another on this thread, searches included; the
//! reader runs on its own thread so a `stop` reaches a running search (see
//! [`crate::protocol::input`]). Every command gets exactly one reply:
//! `=[id] text` or `?[id] message`, then an empty line. Nothing else is
//! ever written to the output, except `analyze`'s `info` lines, which come
//! between its `=` and the empty line that ends its reply.

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::control::{Answer, Progress};
use crate::engine::human;
use crate::engine::{BudgetOverride, Engine, EngineError, Request};
use crate::game::{Outcome, Seat, Turn};
use crate::games;
use crate::protocol::command::{
    COMMANDS, Command, ParseError, find_command, help_text, parse_line,
};
use crate::protocol::input::{Input, MAX_LINE, QUEUE, read_lines};

/// What the session tells its caller when it ends.
#[derive(Debug, PartialEq, Eq)]
pub enum Ending {
    /// `quit` was received.
    Quit,
    /// The input ended.
    EndOfInput,
    /// The output was closed (a broken pipe): nobody listens any more.
    OutputClosed,
}

/// Why a command failed: a syntax error or the engine's refusal.
enum Failure {
    Parse(ParseError),
    Engine(EngineError),
    Other(String),
}

impl From<EngineError> for Failure {
    fn from(e: EngineError) -> Failure {
        Failure::Engine(e)
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Parse(e) => write!(f, "{e}"),
            Failure::Engine(e) => write!(f, "{e}"),
            Failure::Other(m) => write!(f, "{m}"),
        }
    }
}

/// The output side: replies and analysis lines, flushed as they are
/// written. A failed write marks the output closed.
struct Output<W: Write> {
    out: Mutex<W>,
    closed: AtomicBool,
}

impl<W: Write> Output<W> {
    fn write(&self, text: &str) {
        let Ok(mut out) = self.out.lock() else { return };
        if out
            .write_all(text.as_bytes())
            .and_then(|_| out.flush())
            .is_err()
        {
            self.closed
                .store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }

    fn is_closed(&self) -> bool {
        self.closed.load(std::sync::atomic::Ordering::Relaxed)
    }
}

fn id_text(id: Option<u64>) -> String {
    id.map(|i| i.to_string()).unwrap_or_default()
}

fn success(id: Option<u64>, text: &str) -> String {
    format!("={} {}\n\n", id_text(id), text)
}

fn failure(id: Option<u64>, text: &str) -> String {
    format!("?{} {}\n\n", id_text(id), text)
}

/// Runs a session over `input` and `output` until `quit`, the end of the
/// input, or a closed output.
pub fn run<R, W>(input: R, output: W, mut engine: Engine) -> Ending
where
    R: BufRead + Send + 'static,
    W: Write + Send,
{
    let (tx, rx) = sync_channel(QUEUE);
    // The reader is detached: at `quit` it may still be blocked on input.
    std::thread::spawn(move || read_lines(input, tx));
    let out = Output {
        out: Mutex::new(output),
        closed: AtomicBool::new(false),
    };
    for item in rx {
        match item {
            Input::TooLong(id) => out.write(&failure(
                id,
                &format!("line too long (over {MAX_LINE} bytes)"),
            )),
            Input::NotUtf8 => out.write(&failure(None, "input is not valid UTF-8")),
            Input::Line { text, cancel, at } => {
                let line = parse_line(&text);
                let quit = matches!(line.command, Ok(Command::Quit));
                let refused = engine.human().and_then(|_| {
                    human::refusal(text.split_whitespace().nth(line.id.map_or(0, |_| 1))?)
                });
                let reply = match line.command {
                    Ok(_) if refused.is_some() => {
                        Some(Err(Failure::Other(refused.unwrap_or_default())))
                    }
                    Ok(Command::Analyze {
                        seat,
                        budget,
                        interval_ms,
                    }) => {
                        analyze(
                            &mut engine,
                            &out,
                            line.id,
                            seat,
                            budget,
                            interval_ms,
                            cancel,
                            at,
                        );
                        None
                    }
                    Ok(Command::Genmove { seat, budget }) => {
                        genmove(&mut engine, &out, line.id, seat, budget, cancel, at)
                    }
                    Ok(command) => Some(execute(&mut engine, command).map(|text| {
                        // Human-seat mode: what the person saw happen.
                        told_after(&mut engine, text)
                    })),
                    Err(e) => Some(Err(Failure::Parse(e))),
                };
                match reply {
                    Some(Ok(text)) => out.write(&success(line.id, &text)),
                    Some(Err(e)) => out.write(&failure(line.id, &e.to_string())),
                    None => {}
                }
                if quit {
                    return Ending::Quit;
                }
            }
        }
        if out.is_closed() {
            return Ending::OutputClosed;
        }
    }
    Ending::EndOfInput
}

/// A reply in human-seat mode: its text, then the lines told to the
/// person since the last reply (the other seats' moves, their own new
/// cards), then who is to move. Outside the mode, the text alone.
fn told_after(engine: &mut Engine, text: String) -> String {
    let Some(h) = engine.human() else {
        return text;
    };
    let mut lines = engine.take_told();
    if lines.is_empty() {
        return text;
    }
    let game = engine.game();
    lines.push(match game.turn() {
        Turn::Player(p) if p == h => format!("{} to move (you)", game.seat_name(p)),
        Turn::Player(p) => format!("{} to move", game.seat_name(p)),
        Turn::Chance => "a deal is next".into(),
        Turn::Over => format!("game {}", result_text(engine)),
    });
    if text.is_empty() {
        format!("\n{}", lines.join("\n"))
    } else {
        format!("{text}\n{}", lines.join("\n"))
    }
}

/// The banner and hint a person at a terminal sees on stderr (stdout
/// carries protocol replies only).
pub fn banner() -> String {
    format!(
        "tabula {}: Othello, Quoridor, Hearts, Wizard, Ninety-Nine over a GTP-style protocol\n\
         type help for the commands, game hearts human=south to play a seat against the engine, \
         quit to leave",
        env!("CARGO_PKG_VERSION")
    )
}

fn seat_of(engine: &Engine, seat: &Option<String>) -> Result<Option<Seat>, EngineError> {
    seat.as_deref().map(|s| engine.seat(s)).transpose()
}

fn format_number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x:.3}")
    }
}

/// `over black=40 white=24 winner=black`, or `ongoing`.
fn result_text(engine: &Engine) -> String {
    let game = engine.game();
    let Some(Outcome { scores, winners }) = engine.outcome() else {
        return "ongoing".to_string();
    };
    let mut parts = vec!["over".to_string()];
    for (seat, score) in scores.iter().enumerate() {
        parts.push(format!(
            "{}={}",
            game.seat_name(seat),
            format_number(*score)
        ));
    }
    let winner = if winners.is_empty() || winners.len() == game.num_seats() {
        "draw".to_string()
    } else {
        winners
            .iter()
            .map(|&s| game.seat_name(s))
            .collect::<Vec<_>>()
            .join(",")
    };
    parts.push(format!("winner={winner}"));
    parts.join(" ")
}

/// GTP's `final_score`: `B+12`-style for two seats (the first letter of
/// the leading seat and the margin; the whole seat name when both names
/// start with the same letter, as Quoridor's `p1` and `p2` do), `0` for a
/// tie; scores otherwise.
fn final_score(engine: &Engine) -> String {
    let game = engine.game();
    if let Some(text) = game.final_score() {
        return text;
    }
    let Some(Outcome { scores, .. }) = engine.outcome() else {
        return "ongoing".to_string();
    };
    if let [a, b] = scores[..] {
        let margin = a - b;
        if margin == 0.0 {
            return "0".to_string();
        }
        let leader = if margin > 0.0 { 0 } else { 1 };
        let initial = |s: Seat| game.seat_name(s).chars().next().unwrap_or('?');
        let name = if initial(0).eq_ignore_ascii_case(&initial(1)) {
            game.seat_name(leader)
        } else {
            initial(leader).to_ascii_uppercase().to_string()
        };
        return format!("{name}+{}", format_number(margin.abs()));
    }
    scores
        .iter()
        .enumerate()
        .map(|(s, v)| format!("{}={}", game.seat_name(s), format_number(*v)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn execute(engine: &mut Engine, command: Command) -> Result<String, Failure> {
    Ok(match command {
        Command::ProtocolVersion => "2".into(),
        Command::Name => "tabula".into(),
        Command::Version => env!("CARGO_PKG_VERSION").into(),
        Command::KnownCommand(name) => find_command(&name).is_some().to_string(),
        // The first name on the `=` line, as GTP tools parse it (Quarry
        // calls a leading empty line a wrong response format).
        Command::ListCommands => COMMANDS
            .iter()
            .map(|c| c.name)
            .collect::<Vec<_>>()
            .join("\n"),
        Command::Help(name) => help_text(name.as_deref()).map_err(Failure::Parse)?,
        Command::Quit | Command::Stop | Command::Komi(_) => String::new(),
        Command::BoardSize(n) => {
            engine.set_board_size(n)?;
            String::new()
        }
        Command::ClearBoard => {
            engine.restart();
            String::new()
        }
        Command::Play(words) => {
            let game = engine.game();
            let (seat, mv) = if words.len() >= 2 && game.parse_seat(&words[0]).is_some() {
                (Some(words[0].as_str()), words[1..].join(" "))
            } else {
                (None, words.join(" "))
            };
            // `play purple d3`: a first word that is no seat, and no move
            // with it either, is most likely a misspelt seat.
            if seat.is_none() && words.len() == 2 && game.parse_seat(&words[0]).is_none() {
                return match engine.play(None, &mv) {
                    Ok(_) => Ok(String::new()),
                    Err(EngineError::Move(crate::game::MoveError::Syntax(_))) => {
                        Err(EngineError::UnknownSeat(words[0].clone()).into())
                    }
                    Err(e) => Err(e.into()),
                };
            }
            engine.play(seat, &mv)?;
            String::new()
        }
        Command::Genmove { .. } => return Err(Failure::Other("genmove has its own path".into())),
        Command::Analyze { .. } => return Err(Failure::Other("analyze streams its reply".into())),
        Command::Undo => {
            engine.undo()?;
            String::new()
        }
        Command::ShowBoard => {
            let game = engine.game();
            let picture = match engine.human() {
                Some(h) => game.view(h),
                None => game.render(),
            };
            format!("\n{}", picture.trim_end())
        }
        Command::FinalScore => final_score(engine),
        Command::TimeSettings {
            main,
            byoyomi,
            stones,
        } => {
            engine.clock_mut().set(
                Duration::from_secs_f64(main),
                Duration::from_secs_f64(byoyomi),
                stones,
            );
            String::new()
        }
        Command::TimeLeft {
            seat,
            seconds,
            stones,
        } => {
            let seat = engine.seat(&seat)?;
            engine
                .clock_mut()
                .time_left(seat, Duration::from_secs_f64(seconds), stones);
            String::new()
        }
        Command::ListGames { verbose: false } => games::GAMES
            .iter()
            .filter_map(|g| g.gtp_names.first().copied())
            .collect::<Vec<_>>()
            .join("\n"),
        Command::SetGame(name) => {
            engine.set_game(&name)?;
            String::new()
        }
        Command::ListGames { verbose: true } => {
            let lines: Vec<String> = games::GAMES
                .iter()
                .map(|g| {
                    let opts: Vec<String> = g.options.iter().map(|o| o.describe()).collect();
                    if opts.is_empty() {
                        format!("{} - {}", g.name, g.summary)
                    } else {
                        format!("{} - {} Options: {}", g.name, g.summary, opts.join(", "))
                    }
                })
                .collect();
            format!("\n{}", lines.join("\n"))
        }
        Command::Game { name, options } => {
            engine.load_game(&name, &options)?;
            String::new()
        }
        Command::LegalMoves => engine.game().legal_moves().join(" "),
        Command::SetBoard(text) => {
            engine.set_position(&text)?;
            String::new()
        }
        Command::Position => match engine.game().position_text() {
            Some(p) => p,
            None => {
                return Err(Failure::Other(format!(
                    "{} has no position text",
                    engine.game().name()
                )));
            }
        },
        Command::Set { name, value } => {
            engine.set(&name, &value)?;
            String::new()
        }
        Command::Get(Some(name)) => engine.settings().get(&name).map_err(EngineError::Setting)?,
        Command::Get(None) => format!("\n{}", engine.settings().listing().join("\n")),
        Command::Result => result_text(engine),
        Command::Deal(text) => {
            engine.deal(&text)?;
            String::new()
        }
        Command::Turn => match engine.game().turn() {
            Turn::Player(p) => engine.game().seat_name(p),
            Turn::Chance => "chance".into(),
            Turn::Over => "over".into(),
        },
        Command::History => engine.game().history().join(" "),
    })
}

/// How long after its deadline a search that has not answered is answered
/// for (from its best move so far): the search's own end comes first on
/// an idle machine, and the overhead setting (10 ms by default) keeps
/// both before the move time.
const ANSWER_GRACE: Duration = Duration::from_millis(2);
/// How often the answering thread looks at the stop flag.
const ANSWER_POLL: Duration = Duration::from_millis(1);

/// `genmove`: searches and plays, and replies with the move. The reply
/// leaves when the search returns, or, if that is late (its time is up, or
/// `stop` came) and the search has published a move, from a thread that
/// watches the clock: on a loaded machine the search's threads may wait
/// milliseconds for a core, the watcher (a sleeper) does not. `None` when
/// the reply was written here.
fn genmove<W: Write + Send>(
    engine: &mut Engine,
    out: &Output<W>,
    id: Option<u64>,
    seat: Option<String>,
    budget: BudgetOverride,
    cancel: Arc<AtomicBool>,
    at: Instant,
) -> Option<Result<String, Failure>> {
    let seat = match seat_of(engine, &seat) {
        Ok(s) => s,
        Err(e) => return Some(Err(e.into())),
    };
    let send = |mv: &str| out.write(&success(id, mv));
    let answer = Answer::new(&send);
    // The time runs from when the line was read, not from when its turn
    // came: a command queued behind others is still on time.
    let request = Request {
        seat,
        budget,
        stop: cancel.clone(),
        since: at,
        reporter: None,
        answer: Some(&answer),
    };
    let deadline = engine.deadline(&request).map(|d| d + ANSWER_GRACE);
    let done = AtomicBool::new(false);
    let started = Instant::now();
    let decided = std::thread::scope(|scope| {
        scope.spawn(|| {
            ask_for_short_slices();
            while !done.load(Ordering::Acquire) {
                let now = Instant::now();
                let due = cancel.load(Ordering::Relaxed) || deadline.is_some_and(|d| now >= d);
                if due && answer.answer_early() {
                    return;
                }
                let nap = match deadline {
                    Some(d) if d > now => ANSWER_POLL.min(d - now),
                    _ => ANSWER_POLL,
                };
                std::thread::park_timeout(nap);
            }
        });
        let decided = engine.genmove(&request);
        done.store(true, Ordering::Release);
        decided
    });
    let d = match decided {
        Ok(d) => d,
        // Refused (before any search: nothing was answered).
        Err(e) if !answer.is_settled() => return Some(Err(e.into())),
        Err(e) => {
            log::error!("genmove failed after its answer: {e}");
            return None;
        }
    };
    log::info!(
        "genmove {} score {:.3} iterations {} depth {} in {:?}{}{}",
        d.mv,
        d.score,
        d.iterations,
        d.depth,
        started.elapsed(),
        d.exact.map(|e| format!(" exact {e:+}")).unwrap_or_default(),
        if answer.settled_early() {
            " (answered early)"
        } else {
            ""
        }
    );
    if answer.is_settled() {
        None
    } else {
        // Decided without a search (a forced or only move is settled too):
        // replied here.
        Some(Ok(d.mv))
    }
}

/// Asks the scheduler to give the calling thread short time slices. A
/// thread that sleeps almost always and wakes for a few microseconds (the
/// `genmove` watcher) then preempts a busy thread at once when it wakes,
/// instead of waiting out the busy thread's slice (Linux 6.12 and later:
/// EEVDF's custom slices, which any thread may ask for itself; elsewhere
/// the request fails and nothing changes).
fn ask_for_short_slices() {
    #[cfg(target_os = "linux")]
    {
        let attr = libc::sched_attr {
            size: std::mem::size_of::<libc::sched_attr>() as u32,
            sched_policy: libc::SCHED_OTHER as u32,
            sched_flags: 0,
            sched_nice: 0,
            sched_priority: 0,
            // The shortest slice the kernel grants: 0.1 ms.
            sched_runtime: 100_000,
            sched_deadline: 0,
            sched_period: 0,
        };
        // SAFETY: `attr` is a valid, fully initialised `sched_attr` that
        // outlives the call; pid 0 is the calling thread; a refusal (an
        // older kernel) is an error code, ignored.
        let refused = unsafe {
            libc::syscall(
                libc::SYS_sched_setattr,
                0,
                &attr as *const libc::sched_attr,
                0,
            )
        };
        if refused != 0 {
            log::debug!(
                "short time slices refused: {}",
                std::io::Error::last_os_error()
            );
        }
    }
}

/// `analyze`: searches the position without playing, printing `info`
/// lines every `interval_ms`, until its budget runs out (commands sent
/// meanwhile wait, as during `genmove`) or, without a budget, until the
/// next line arrives; `stop`, a bad line, the end of the input or a closed
/// output end it too. Then the last `info` line and the empty line that
/// end the reply. The game is left as it was; the search tree is kept.
#[allow(clippy::too_many_arguments)]
fn analyze<W: Write + Send>(
    engine: &mut Engine,
    out: &Output<W>,
    id: Option<u64>,
    seat: Option<String>,
    budget: BudgetOverride,
    interval_ms: u64,
    cancel: Arc<AtomicBool>,
    at: Instant,
) {
    let seat = match seat_of(engine, &seat).and_then(|s| engine.ready_to_analyze(s).map(|_| s)) {
        Ok(s) => s,
        Err(e) => return out.write(&failure(id, &e.to_string())),
    };
    let last = Mutex::new(None::<Instant>);
    let interval = Duration::from_millis(interval_ms);
    let stop = cancel.clone();
    let report = |p: &Progress| {
        let Ok(mut last) = last.lock() else { return };
        if last.is_some_and(|t| t.elapsed() < interval) {
            return;
        }
        *last = Some(Instant::now());
        out.write(&format!(
            "info move {} score {:.4} iterations {} depth {} time {} pv {}\n",
            p.best,
            p.score,
            p.iterations,
            p.depth,
            p.elapsed.as_millis(),
            p.pv.join(" ")
        ));
        if out.is_closed() {
            // Nobody reads the analysis any more.
            stop.store(true, Ordering::Relaxed);
        }
    };
    out.write(&format!("={}\n", id_text(id)));
    let request = Request {
        seat,
        budget,
        stop: cancel,
        since: at,
        reporter: Some(&report),
        answer: None,
    };
    match engine.analyze(&request) {
        Ok(d) => {
            let exact = d.exact.map(|e| format!(" exact {e:+}")).unwrap_or_default();
            out.write(&format!(
                "info move {} score {:.4} iterations {} depth {}{}\n\n",
                d.mv, d.score, d.iterations, d.depth, exact
            ));
        }
        Err(e) => out.write(&format!("info error {e}\n\n")),
    }
}
