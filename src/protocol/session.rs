//! GTP, the default dialect: lines in, replies out.
//!
//! Commands run one after another, searches included, each while the
//! hub reads the lines that arrive ([`crate::protocol::serve::Hub::run`]);
//! the reader runs on its own thread so a `stop` reaches a running search
//! (see [`crate::protocol::input`]). Every command gets exactly one reply:
//! `=[id] text` or `?[id] message`, then an empty line. Nothing else is
//! ever written to the output, except `analyze`'s `info` lines, which come
//! between its `=` and the empty line that ends its reply.

use std::io::Write;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::control::{Answer, Progress};
use crate::engine::human;
use crate::engine::{BudgetOverride, Decision, Engine, EngineError, Request};
use crate::games;
use crate::model::game::{Outcome, Seat, Turn};
use crate::protocol::command::{
    COMMANDS, Command, OutputFormat, ParseError, Shown, help_text, parse_line,
};
use crate::protocol::info::{Info, decision_lines, millis, progress_lines, render_lines};
use crate::protocol::input::{Input, MAX_LINE};
use crate::protocol::serve::{Dialect, Hub, Output, SessionEnd, answered_genmove};
use crate::protocol::{gogui, kgs};

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

fn id_text(id: Option<u64>) -> String {
    id.map(|i| i.to_string()).unwrap_or_default()
}

fn success(id: Option<u64>, text: &str) -> String {
    format!("={} {}\n\n", id_text(id), text)
}

fn failure(id: Option<u64>, text: &str) -> String {
    format!("?{} {}\n\n", id_text(id), text)
}

/// Serves a GTP session from the hub until `quit`, the end of the input,
/// or a closed output.
pub(crate) fn serve<W: Write + Send>(hub: &mut Hub<W>, engine: Engine) -> SessionEnd {
    crate::protocol::serve::serve(
        hub,
        engine,
        Gtp {
            format: OutputFormat::Text,
        },
    )
}

/// The GTP session's own state.
struct Gtp {
    /// The form of `info` lines (`set output`): the session's, not the
    /// engine's, since only the protocol shows them.
    format: OutputFormat,
}

impl<W: Write + Send> Dialect<W> for Gtp {
    fn input(&mut self, hub: &mut Hub<W>, engine: &mut Engine, input: Input) -> Option<SessionEnd> {
        let out = hub.out();
        let (text, cancel, at) = match input {
            Input::TooLong(id) => {
                out.write(&failure(
                    id,
                    &format!("line too long (over {MAX_LINE} bytes)"),
                ));
                return None;
            }
            Input::NotUtf8 => {
                out.write(&failure(None, "input is not valid UTF-8"));
                return None;
            }
            Input::End => return Some(SessionEnd::EndOfInput),
            Input::Line { text, cancel, at } => (text, cancel, at),
        };
        let format = self.format;
        // GTP's hyphenated extensions (gogui-rules_*, kgs-*).
        if let Some((id, reply)) =
            gogui::execute(&text, engine).or_else(|| kgs::execute(&text, engine))
        {
            out.write(&match reply {
                Ok(text) => success(id, &text),
                Err(e) => failure(id, &e.to_string()),
            });
            return None;
        }
        let line = parse_line(&text);
        let quit = matches!(line.command, Ok(Command::Quit));
        let words = || text.split_whitespace().skip(line.id.map_or(0, |_| 1));
        let refused = human::refusal(engine.game(), engine.human(), words());
        let reply = match line.command {
            Ok(_) if refused.is_some() => Some(Err(Failure::Other(refused.unwrap_or_default()))),
            Ok(Command::Analyze {
                seat,
                budget,
                interval_ms,
                shown,
            }) => hub.run(&cancel, |out| {
                let stream = Stream::new(out, line.id, shown, format, interval_ms, &cancel);
                analyze(engine, &stream, Asked::new(seat, budget, &cancel, at));
                None
            }),
            Ok(Command::Genmove {
                seat,
                budget,
                shown,
            }) if shown.multipv > 0 => hub.run(&cancel, |out| {
                let interval = GENMOVE_INTERVAL_MS;
                let stream = Stream::new(out, line.id, shown, format, interval, &cancel);
                genmove_streamed(engine, &stream, Asked::new(seat, budget, &cancel, at));
                None
            }),
            Ok(Command::Genmove { seat, budget, .. }) => hub.run(&cancel, |out| {
                genmove(engine, out, line.id, Asked::new(seat, budget, &cancel, at))
            }),
            Ok(Command::Set { name, value }) if name.eq_ignore_ascii_case("output") => {
                Some(match OutputFormat::parse(&value) {
                    Some(f) => {
                        self.format = f;
                        Ok(String::new())
                    }
                    None => Err(Failure::Other(format!(
                        "output must be text or json, not '{value}'"
                    ))),
                })
            }
            Ok(Command::Get(Some(name))) if name.eq_ignore_ascii_case("output") => {
                Some(Ok(format.name().to_string()))
            }
            // Human-seat mode (or a `game` that may start it): a command
            // may make the engine play the other seats; a line that
            // arrives meanwhile stops them.
            Ok(command) if engine.human().is_some() || matches!(command, Command::Game { .. }) => {
                hub.run(&cancel, |_| {
                    engine.stop_with(cancel.clone());
                    Some(execute(engine, command).map(|text| {
                        // Human-seat mode: what the person saw happen.
                        let word = words().next().unwrap_or("");
                        engine.human_reply(word, text, result_text)
                    }))
                })
            }
            Ok(command) => Some(execute(engine, command)),
            Err(e) => Some(Err(Failure::Parse(e))),
        };
        let out = hub.out();
        match reply {
            Some(Ok(text)) => out.write(&success(line.id, &text)),
            Some(Err(e)) => out.write(&failure(line.id, &e.to_string())),
            None => {}
        }
        quit.then_some(SessionEnd::Quit)
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

/// What a searching command (`genmove`, `analyze`) asked: the seat it
/// named, its budget, its stop flag and when its line arrived.
struct Asked {
    seat: Option<String>,
    budget: BudgetOverride,
    cancel: Arc<AtomicBool>,
    at: Instant,
}

impl Asked {
    fn new(
        seat: Option<String>,
        budget: BudgetOverride,
        cancel: &Arc<AtomicBool>,
        at: Instant,
    ) -> Asked {
        let cancel = cancel.clone();
        Asked {
            seat,
            budget,
            cancel,
            at,
        }
    }

    /// The engine's request for the seat named (none: the seat to move).
    fn request<'r>(self, engine: &Engine) -> Result<Request<'r>, EngineError> {
        let seat = seat_of(engine, &self.seat)?;
        Ok(Request::new(seat, self.budget, self.cancel, self.at))
    }
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

/// Every GTP command name: the core and tabula's, then the extensions.
fn all_commands() -> impl Iterator<Item = &'static str> {
    COMMANDS
        .iter()
        .map(|c| c.name)
        .chain(gogui::COMMANDS.iter().copied())
        .chain(kgs::COMMANDS.iter().copied())
}

/// Runs one parsed command on `engine`: the reply's text, or why it
/// failed. A dispatcher with one short arm per command, it reads best
/// whole: the arms are the table of what each command does.
fn execute(engine: &mut Engine, command: Command) -> Result<String, Failure> {
    Ok(match command {
        Command::ProtocolVersion => "2".into(),
        Command::Name => "tabula".into(),
        Command::Version => env!("CARGO_PKG_VERSION").into(),
        Command::KnownCommand(name) => all_commands()
            .any(|c| c.eq_ignore_ascii_case(&name))
            .to_string(),
        // The first name on the `=` line, as GTP tools parse it (Quarry
        // calls a leading empty line a wrong response format).
        Command::ListCommands => all_commands()
            .filter(|c| gogui::listed(engine, c))
            .collect::<Vec<_>>()
            .join("\n"),
        Command::Help(None) => format!(
            "{}\nhelp codes: what the cards and moves at the terminal mean (Z1 a Wizard, N1 a Jester)\nalso (protocol.md): {}",
            help_text(None).map_err(Failure::Parse)?,
            gogui::COMMANDS
                .iter()
                .chain(kgs::COMMANDS)
                .copied()
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Command::Help(name) => match human::help(name.as_deref()) {
            Some(text) => text,
            None => help_text(name.as_deref()).map_err(Failure::Parse)?,
        },
        Command::Quit | Command::Stop | Command::Komi(_) => String::new(),
        Command::BoardSize(n) => {
            // GoGui sets its board so (`boardsize 19`): a refusal says
            // where a game GoGui cannot show is played.
            if let Err(e) = engine.set_board_size(n) {
                return Err(match gogui::cannot_show(engine) {
                    Some(why) => Failure::Other(format!("{e}; {why}")),
                    None => e.into(),
                });
            }
            String::new()
        }
        Command::ClearBoard => {
            engine.restart();
            String::new()
        }
        Command::Play(words) => {
            let game = engine.game();
            // After the game's end a pass changes nothing, and is taken
            // as such: gogui-twogtp hands one program's last pass to the
            // other (`play W PASS`).
            let pass_at_end = match &words[..] {
                [mv] => mv.eq_ignore_ascii_case("pass"),
                [seat, mv] => game.parse_seat(seat).is_some() && mv.eq_ignore_ascii_case("pass"),
                _ => false,
            };
            if pass_at_end && game.turn() == Turn::Over {
                return Ok(String::new());
            }
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
                    Err(EngineError::Move(crate::model::game::MoveError::Syntax(_))) => {
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
        Command::ListGames { verbose: false } => games::all()
            .iter()
            .filter_map(|g| g.gtp_names.first().copied())
            .collect::<Vec<_>>()
            .join("\n"),
        Command::SetGame(name) => {
            engine.set_game(&name)?;
            String::new()
        }
        Command::ListGames { verbose: true } => {
            let lines: Vec<String> = games::all()
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
        Command::Get(None) => format!(
            "\n{}",
            human::settings_listing(engine.game(), engine.human(), engine.settings()).join("\n")
        ),
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

/// `genmove`: searches and plays, and replies with the move. The reply
/// leaves when the search settles, or, if that is late (its time is up,
/// or `stop` came), from the engine's time manager, which answers with
/// the search's best move so far (`engine::time`'s reply thread). `None` when
/// the reply was written here.
fn genmove<W: Write + Send>(
    engine: &mut Engine,
    out: &Output<W>,
    id: Option<u64>,
    asked: Asked,
) -> Option<Result<String, Failure>> {
    let seat = match seat_of(engine, &asked.seat) {
        Ok(s) => s,
        Err(e) => return Some(Err(e.into())),
    };
    let Asked {
        budget, cancel, at, ..
    } = asked;
    // After the game's end, a game with a pass (Othello) answers it and
    // changes nothing: gogui-twogtp asks both programs for a move until
    // each has passed, and counts any other answer as an error.
    if engine.game().turn() == Turn::Over
        && let Some(pass) = engine.game().pass_text()
    {
        return Some(Ok(pass));
    }
    let send = |p: &Progress| out.write(&success(id, &p.best));
    match answered_genmove(engine, seat, budget, cancel, at, None, &send) {
        Ok(None) => None,
        Ok(Some(d)) => Some(Ok(d.mv)),
        Err(e) => Some(Err(e.into())),
    }
}

/// How often `genmove multipv=N` reports, in milliseconds.
const GENMOVE_INTERVAL_MS: u64 = 500;

/// The streamed reply of `analyze` (or `genmove multipv=N`): the `=` line,
/// `info` lines at most one report per interval as the search runs, in the
/// form asked for, then the reply's end.
struct Stream<'o, W: Write> {
    out: &'o Output<W>,
    id: Option<u64>,
    multipv: usize,
    format: OutputFormat,
    interval: Duration,
    /// Raised when nobody reads any more (a closed output).
    stop: Arc<AtomicBool>,
    /// When the last report was written, whether the `=` line was, and
    /// whether the reply has ended (nothing is written after it).
    state: Mutex<(Option<Instant>, bool, bool)>,
}

impl<'o, W: Write> Stream<'o, W> {
    fn new(
        out: &'o Output<W>,
        id: Option<u64>,
        shown: Shown,
        session_format: OutputFormat,
        interval_ms: u64,
        stop: &Arc<AtomicBool>,
    ) -> Stream<'o, W> {
        Stream {
            out,
            id,
            multipv: shown.multipv,
            format: shown.output.unwrap_or(session_format),
            interval: Duration::from_millis(interval_ms),
            stop: stop.clone(),
            state: Mutex::new((None, false, false)),
        }
    }

    /// Writes `text` after the `=` line, writing that first if it was not.
    fn write_opened(&self, opened: &mut bool, text: &str) {
        if !*opened {
            *opened = true;
            self.out.write(&format!("={}\n", id_text(self.id)));
        }
        self.out.write(text);
    }

    /// Opens the reply: the `=` line.
    fn open(&self) {
        if let Ok(mut state) = self.state.lock() {
            self.write_opened(&mut state.1, "");
        }
    }

    /// Whether the `=` line was written.
    fn is_open(&self) -> bool {
        self.state.lock().is_ok_and(|s| s.1)
    }

    /// A progress report: written unless the last was less than an
    /// interval ago.
    fn report(&self, p: &Progress) {
        // A line names a move: a report of work alone has none.
        if p.is_work_only() {
            return;
        }
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        if state.2 || state.0.is_some_and(|t| t.elapsed() < self.interval) {
            return;
        }
        state.0 = Some(Instant::now());
        let text = if self.multipv == 0 {
            Info::progress(p).render(self.format)
        } else {
            let lines = progress_lines(p);
            render_lines(
                &lines,
                p.iterations,
                p.depth,
                millis(p.elapsed),
                self.format,
            )
        };
        self.write_opened(&mut state.1, &text);
        if self.out.is_closed() {
            // Nobody reads the analysis any more.
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    /// The final report of `d`, reached `ms` after the command was read:
    /// its lines, or the plain `info` line of its move.
    fn decision(&self, d: &Decision, ms: u64) -> String {
        if self.multipv == 0 {
            Info::decision(d).render(self.format)
        } else {
            render_lines(&decision_lines(d), d.iterations, d.depth, ms, self.format)
        }
    }

    /// Ends the reply with `text` and the empty line, unless it has ended.
    fn finish(&self, text: &str) {
        if let Ok(mut state) = self.state.lock()
            && !state.2
        {
            state.2 = true;
            self.write_opened(&mut state.1, &format!("{text}\n"));
        }
    }
}

/// `analyze`: searches the position without playing, printing `info`
/// lines every interval, until its budget runs out (commands sent
/// meanwhile wait, as during `genmove`) or, without a budget, until the
/// next line arrives; `stop`, a bad line, the end of the input or a closed
/// output end it too. Then the last `info` line (with `multipv=N`, the
/// last N) and the empty line that end the reply. The game is left as it
/// was; the search tree is kept.
fn analyze<W: Write + Send>(engine: &mut Engine, stream: &Stream<W>, asked: Asked) {
    let at = asked.at;
    let ready = asked
        .request(engine)
        .and_then(|r| engine.ready_to_analyze(r.seat).map(|_| r));
    let request = match ready {
        Ok(r) => r,
        Err(e) => return stream.out.write(&failure(stream.id, &e.to_string())),
    };
    let report = |p: &Progress| stream.report(p);
    stream.open();
    let request = request
        .reporting(Some(&report))
        .with_multipv(stream.multipv);
    match engine.analyze(&request) {
        Ok(d) => stream.finish(&stream.decision(&d, millis(at.elapsed()))),
        Err(e) => stream.finish(&Info::error(&e.to_string()).render(stream.format)),
    }
}

/// `genmove multipv=N`: searches and plays as `genmove` does, streaming
/// the analysis as `analyze multipv=N` does: `=`, the `info multipv` lines
/// of each report and the last, then `play <move>` and the empty line. A
/// refusal before the search is a plain `?` reply. The reply leaves when
/// the search returns, or, if the search is late, at its deadline from
/// the time manager's reply thread with the lines of the search's last
/// report and `play <its best move>` (the move answered is the one
/// played, with the value sent), as plain `genmove` does.
fn genmove_streamed<W: Write + Send>(engine: &mut Engine, stream: &Stream<W>, asked: Asked) {
    let at = asked.at;
    let request = match asked.request(engine) {
        Ok(r) => r,
        Err(e) => return stream.out.write(&failure(stream.id, &e.to_string())),
    };
    let report = |p: &Progress| stream.report(p);
    // The early answer ends the reply as the search's own does: its
    // lines (the decision sent, with its value), then the move.
    let late = |p: &Progress| {
        let d = Decision::from_report(p, p.iterations);
        let lines = stream.decision(&d, millis(at.elapsed()));
        stream.finish(&format!("{lines}play {}\n", p.best));
    };
    let answer = Answer::early_only(&late);
    let request = request
        .reporting(Some(&report))
        .with_multipv(stream.multipv)
        .answering(&answer);
    match engine.genmove(&request) {
        // Answered at the deadline by the reply thread: the reply has ended.
        Ok(_) if answer.settled_early() => {}
        Err(e) if answer.settled_early() => log::error!("genmove failed after its answer: {e}"),
        Ok(d) => {
            let lines = stream.decision(&d, millis(at.elapsed()));
            stream.finish(&format!("{lines}play {}\n", d.mv));
        }
        Err(e) if !stream.is_open() => stream.out.write(&failure(stream.id, &e.to_string())),
        Err(e) => stream.finish(&Info::error(&e.to_string()).render(stream.format)),
    }
}
