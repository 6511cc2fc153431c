//! One game at one page: the referee's loop between the engine processes
//! (the arena's [`play_game_with`]), with the person's seat decided from
//! the page, and a stream of events that show only what that seat sees.

use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use super::advisor::{AdvisedPage, Advisor};
use super::error::PageError;
use super::view::{Mirror, mirror};
use crate::arena::config::match_setup::MatchSetup;
use crate::arena::config::spec::EngineSpec;
use crate::arena::ground::referee::{Referee, Told};
use crate::arena::record::note::Note;
use crate::arena::record::{Ending, GameRecord, MatchRecord};
use crate::arena::run::play::{GameJob, Outside, Pool, observation_line, play_game_with};
use crate::json::{Plain, ordered_map};
use crate::model::game::{Observation, Seat, Turn};

/// What the page asks of a session's referee thread.
///
/// A move or an undo carries the turn it was asked in
/// ([`LiveState::turn_id`]): one that arrives after that turn has passed
/// is refused, never carried out at a later turn.
pub enum PageCommand {
    /// The person's move, answered on the channel.
    Move(String, u64, Sender<Result<(), PageError>>),
    /// Take back the person's last move (and the engines' replies).
    Undo(u64, Sender<Result<(), PageError>>),
    /// The page left, or the server stops.
    Close,
}

/// The engine at one seat, as the page chose it from the server's list.
#[derive(Clone, Debug)]
pub struct SeatEngine {
    /// The engine, with the chosen search and budget applied.
    pub spec: EngineSpec,
    /// How the page describes it (`tabula mcts 1 s`).
    pub label: String,
}

/// A game as the page set it up.
pub struct GameConfig {
    /// The game's registry name.
    pub game: String,
    /// Its options, `key=value`.
    pub words: Vec<String>,
    /// The person's seat; `None` watches engines play (perfect
    /// information only).
    pub human: Option<Seat>,
    /// The engine of every other seat (`None` at the person's).
    pub seats: Vec<Option<SeatEngine>>,
    /// The engine that shows the person's moves' values, if any.
    pub advisor: Option<EngineSpec>,
    /// The person's name in the record (`you` unless the page names them).
    pub human_name: String,
    /// How long past its move time an engine is waited for before it is
    /// taken for hung (`tabula gui --timemargin`): on a busy machine an
    /// engine is late, and a casual game is not lost on time for it.
    pub grace: Duration,
}

/// What the page's stream and requests share with the referee thread.
pub struct LiveState {
    /// Every event of the session so far, oldest first.
    pub events: Vec<String>,
    /// Whether the person is to move now (a move at any other time is
    /// refused at once, without waiting for an engine).
    pub human_turn: bool,
    /// Whether the session is over (the page left or the server stops).
    pub closed: bool,
    /// Streams open now.
    pub streams: usize,
    /// When the last stream closed, or the session started.
    pub last_seen: Instant,
    /// The record of the games played so far, as `tabula match` writes it.
    pub record: String,
    /// Whether the analysis is on.
    pub analysis: bool,
    /// Whether the referee thread has ended (and its engines with it).
    pub ended: bool,
    /// Whether a page ever opened the stream.
    pub connected_once: bool,
    /// The step of the position the person is to move in (while
    /// `person_turn`): the analysis of any other position is stale.
    pub turn_step: usize,
    /// Whether the game is over (its result shown; an undo may take it
    /// back). A finished game holds no place in the server's budget.
    pub over: bool,
    /// Counts the times the person's turn opened or a game ended: a
    /// command names the one it was asked in.
    pub turn_id: u64,
    /// The engine that is thinking now, if one is.
    pub thinking: Option<Thinking>,
}

impl LiveState {
    /// A new session's: no event, no stream yet, nobody to move.
    fn new() -> LiveState {
        LiveState {
            events: Vec::new(),
            human_turn: false,
            closed: false,
            streams: 0,
            last_seen: Instant::now(),
            record: String::new(),
            analysis: false,
            ended: false,
            connected_once: false,
            turn_step: 0,
            over: false,
            turn_id: 0,
            thinking: None,
        }
    }
}

/// An engine's move under way, watched for lateness.
#[derive(Clone, Copy, Debug)]
pub struct Thinking {
    /// Its seat.
    pub seat: Seat,
    /// When it was asked.
    pub since: Instant,
    /// The move time it was given, if any.
    pub movetime: Option<Duration>,
    /// Whether the page was told it is late.
    pub told_late: bool,
}

/// How long past its move time an engine is before the page says that it
/// waits for it (the engine is never forfeited for it: see
/// [`GameConfig::grace`]).
const LATE_AFTER: Duration = Duration::from_millis(1000);

/// How long a page may be away (its last stream closed) before its game
/// counts as left behind: a reload comes back within this.
pub const RELOAD_GRACE: Duration = Duration::from_secs(3);

/// One page's game.
pub struct PageGame {
    /// Whether nothing is hidden (undo is for these games only).
    perfect: bool,
    /// The game's registry name.
    game: String,
    /// The person's seat (`None`: watching).
    human: Option<Seat>,
    shared: Mutex<LiveState>,
    changed: Condvar,
    commands: Mutex<Sender<PageCommand>>,
}

impl PageGame {
    /// Locks the shared state (a poisoned lock is still usable: every
    /// writer leaves it consistent).
    pub fn lock(&self) -> MutexGuard<'_, LiveState> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until something changes or `timeout` passes.
    pub fn wait<'a>(
        &self,
        guard: MutexGuard<'a, LiveState>,
        timeout: Duration,
    ) -> MutexGuard<'a, LiveState> {
        match self.changed.wait_timeout(guard, timeout) {
            Ok((g, _)) => g,
            Err(e) => e.into_inner().0,
        }
    }

    /// Adds an event to the stream if `current` holds of the shared state,
    /// checked and added under one lock (so that no other event comes
    /// between the check and this one).
    fn publish_if(&self, event: String, current: impl FnOnce(&LiveState) -> bool) {
        let mut s = self.lock();
        if !current(&s) {
            return;
        }
        s.events.push(event);
        drop(s);
        self.changed.notify_all();
    }

    fn publish(&self, event: String) {
        self.lock().events.push(event);
        self.changed.notify_all();
    }

    /// Sends a command to the referee thread.
    pub fn command(&self, command: PageCommand) -> bool {
        let tx = self.commands.lock().unwrap_or_else(|e| e.into_inner());
        tx.send(command).is_ok()
    }

    /// Ends the session: the referee thread stops at its next step and
    /// quits its engines.
    pub fn close(&self) {
        self.lock().closed = true;
        self.changed.notify_all();
        self.command(PageCommand::Close);
    }

    /// Plays the person's move: refused at once when it is not their
    /// turn, else checked by the referee.
    pub fn play(&self, text: &str) -> Result<(), PageError> {
        let turn = {
            let s = self.lock();
            if s.closed {
                return Err(PageError::Closed);
            }
            if s.over {
                return Err(PageError::GameOver);
            }
            if !s.human_turn {
                return Err(PageError::NotYourTurn);
            }
            s.turn_id
        };
        let (tx, rx) = mpsc::channel();
        if !self.command(PageCommand::Move(text.to_string(), turn, tx)) {
            return Err(PageError::Closed);
        }
        rx.recv_timeout(Duration::from_secs(5))
            .unwrap_or(Err(PageError::NoAnswer))
    }

    /// Takes back the person's last move: refused at once unless it is
    /// their turn or the game is over (the referee then answers within a
    /// fraction of a second), and never kept for a later turn.
    pub fn undo(&self) -> Result<(), PageError> {
        let turn = {
            let s = self.lock();
            if s.closed {
                return Err(PageError::Closed);
            }
            if !self.perfect {
                return Err(PageError::CardsStayPlayed);
            }
            if !(s.human_turn || s.over) {
                return Err(PageError::UndoNotNow);
            }
            s.turn_id
        };
        let (tx, rx) = mpsc::channel();
        if !self.command(PageCommand::Undo(turn, tx)) {
            return Err(PageError::Closed);
        }
        rx.recv_timeout(Duration::from_secs(5))
            .unwrap_or(Err(PageError::NoAnswer))
    }

    /// What a page that comes back to the game (a reload, a second tab)
    /// learns before it opens the stream: `{"game", "you", "step",
    /// "over"}`. The stream then replays the game's events, the seat's
    /// own view only.
    pub fn summary_json(&self) -> String {
        let s = self.lock();
        crate::json::to_string(&Summary {
            game: &self.game,
            you: self.human,
            step: s.turn_step,
            over: s.over,
        })
    }

    /// Whether the game's page left: no stream for longer than a reload
    /// takes. A game no page has opened yet has not: it is being set up.
    pub fn left(&self) -> bool {
        let s = self.lock();
        s.connected_once && s.streams == 0 && s.last_seen.elapsed() > RELOAD_GRACE
    }

    /// Whether the game holds a place in the server's budget: its engines
    /// run (a finished game's engines are quit at its end, and started
    /// again if an undo takes the end back).
    pub fn holds_place(&self) -> bool {
        let s = self.lock();
        !(s.closed || s.ended || s.over)
    }

    /// Tells the page once when the engine it waits for is past its move
    /// time (by [`LATE_AFTER`]): the page waits and says so.
    pub fn watch_late(&self) {
        let mut s = self.lock();
        let Some(t) = s.thinking.as_mut() else {
            return;
        };
        let Some(movetime) = t.movetime else {
            return;
        };
        let waited = t.since.elapsed();
        if t.told_late || waited < movetime + LATE_AFTER {
            return;
        }
        t.told_late = true;
        let event = crate::json::to_string(&LateEvent {
            seat: t.seat,
            movetime: movetime.as_millis(),
            waited: waited.as_millis(),
        });
        s.events.push(event);
        drop(s);
        self.changed.notify_all();
    }

    /// Starts the referee thread of a new session.
    pub fn start(config: GameConfig, seed: u64) -> Result<Arc<PageGame>, PageError> {
        let prototype =
            crate::arena::referee_by_name(&config.game, &config.words).map_err(PageError::Setup)?;
        let perfect = prototype.perfect_information();
        if config.human.is_none() && !perfect {
            return Err(PageError::MustSit);
        }
        let view = mirror(&config.game, &config.words, config.human, perfect)?;
        let (tx, rx) = mpsc::channel();
        let session = Arc::new(PageGame {
            perfect,
            game: config.game.clone(),
            human: config.human,
            shared: Mutex::new(LiveState::new()),
            changed: Condvar::new(),
            commands: Mutex::new(tx),
        });
        let worker = Arc::clone(&session);
        thread::Builder::new()
            .name("gui referee".to_string())
            .spawn(move || referee_thread(worker, config, prototype, view, rx, seed))
            .map_err(PageError::Thread)?;
        Ok(session)
    }
}

impl AdvisedPage for PageGame {
    fn wanted_step(&self) -> Option<usize> {
        let s = self.lock();
        (s.analysis && s.human_turn && !s.closed).then_some(s.turn_step)
    }

    fn show_analysis(&self, event: String, step: usize) {
        self.publish_if(event, |s| s.human_turn && s.turn_step == step);
    }
}

/// What a page that comes back to a game learns first
/// ([`PageGame::summary_json`]).
#[derive(serde::Serialize)]
struct Summary<'a> {
    game: &'a str,
    /// The person's seat; `None`: watching.
    you: Option<Seat>,
    /// The step of the position the person is to move in.
    step: usize,
    over: bool,
}

/// The event that says the engine at `seat` is late: its move time and
/// how long it has been waited for, in milliseconds.
#[derive(serde::Serialize)]
#[serde(tag = "type", rename = "late")]
struct LateEvent {
    seat: Seat,
    movetime: u128,
    waited: u128,
}

/// The state event: the seat's view, whose turn, and the person's legal
/// moves when the referee waits for them ([`Page::state_event`]).
#[derive(serde::Serialize)]
#[serde(tag = "type", rename = "state")]
struct StateEvent<'a> {
    /// Steps applied so far in this game.
    step: usize,
    game: &'a str,
    /// The game's option words.
    options: &'a [String],
    /// The seats' names.
    seats: Vec<String>,
    /// How the page describes each seat's player.
    labels: &'a [String],
    /// The person's seat; `None`: watching.
    you: Option<Seat>,
    /// The seat to move's name, `chance` or `over`.
    turn: String,
    to_move: Option<Seat>,
    /// Whether the referee waits for the person's move.
    waiting: bool,
    /// The person's legal moves while it waits.
    legal: Vec<String>,
    /// Why each move the page offers and may not play is refused.
    #[serde(serialize_with = "ordered_map")]
    refused: Vec<(String, String)>,
    /// The lines the person's seat was told since the last event.
    told: &'a [String],
    /// The last move the person may see.
    last: Option<SeatMove<'a>>,
    /// The seat whose engine is thinking.
    thinking: Option<Seat>,
    view: Box<serde_json::value::RawValue>,
}

/// A move with its seat.
#[derive(serde::Serialize)]
struct SeatMove<'a> {
    seat: Seat,
    #[serde(rename = "move")]
    mv: &'a str,
}

/// The over event: the game's result, public once it is played.
#[derive(serde::Serialize)]
#[serde(tag = "type", rename = "over")]
struct OverEvent<'a> {
    /// How the game ended, in words.
    ending: String,
    /// The game's own scores, where it has them.
    scores: Option<Vec<Plain>>,
    winners: &'a [usize],
    /// Each seat's result: 1, 0.5 or 0.
    results: Vec<Plain>,
    /// The seats' names.
    seats: &'a [String],
}

/// The page's side of the game: the person's seat, the moves replayed
/// after an undo, and the events.
struct Page {
    session: Arc<PageGame>,
    human: Option<Seat>,
    perfect: bool,
    game: String,
    words: Vec<String>,
    labels: Vec<String>,
    view: Box<dyn Mirror>,
    commands: Receiver<PageCommand>,
    /// Moves to play again, from the start, after an undo.
    replay: Vec<String>,
    /// Set when the person asked to undo: the game restarts.
    undo: Option<Vec<String>>,
    advisor: Option<Advisor>,
    /// The lines the person's seat was told since the last event.
    told: Vec<String>,
    /// Steps applied so far in this game (chance steps included).
    step: usize,
    /// The last move the person may see (perfect information), shown
    /// until the next.
    last: Option<(Seat, String)>,
    /// The move time of each seat's engine (`None` at the person's).
    movetimes: Vec<Option<Duration>>,
}

impl Page {
    /// The page of a new session, its first game not started.
    fn new(
        session: Arc<PageGame>,
        config: &GameConfig,
        perfect: bool,
        labels: Vec<String>,
        view: Box<dyn Mirror>,
        commands: Receiver<PageCommand>,
        advisor: Option<Advisor>,
    ) -> Page {
        Page {
            session,
            human: config.human,
            perfect,
            game: config.game.clone(),
            words: config.words.clone(),
            labels,
            view,
            commands,
            replay: Vec::new(),
            undo: None,
            advisor,
            told: Vec::new(),
            step: 0,
            last: None,
            movetimes: config
                .seats
                .iter()
                .map(|e| {
                    e.as_ref()
                        .and_then(|e| e.spec.limits.movetime)
                        .map(Duration::from_millis)
                })
                .collect(),
        }
    }

    fn seat_names(&self) -> Vec<String> {
        self.view.seat_names()
    }

    /// The state event: the seat's view, whose turn, and the person's
    /// legal moves when the referee waits for them (`waiting`).
    fn state_event(&self, thinking: Option<Seat>, waiting: bool) -> String {
        let turn = self.view.turn();
        let (turn_text, to_move) = match turn {
            Turn::Player(s) => (
                self.seat_names().get(s).cloned().unwrap_or_default(),
                Some(s),
            ),
            Turn::Chance => ("chance".to_string(), None),
            Turn::Over => ("over".to_string(), None),
        };
        let mine = waiting && to_move.is_some() && to_move == self.human;
        let legal = if mine { self.view.legal() } else { Vec::new() };
        // Why the moves the page offers and may not play are refused, in
        // the game's words: the page says so without asking.
        let refused = if mine {
            self.view.refused()
        } else {
            Vec::new()
        };
        crate::json::to_string(&StateEvent {
            step: self.step,
            game: &self.game,
            options: &self.words,
            seats: self.seat_names(),
            labels: &self.labels,
            you: self.human,
            turn: turn_text,
            to_move,
            waiting: mine,
            legal,
            refused,
            told: &self.told,
            last: self
                .last
                .as_ref()
                .map(|(seat, mv)| SeatMove { seat: *seat, mv }),
            thinking,
            view: self.view.view(),
        })
    }

    fn publish_state(&mut self, thinking: Option<Seat>) {
        self.publish_state_as(thinking, false);
    }

    fn publish_state_as(&mut self, thinking: Option<Seat>, waiting: bool) {
        let event = self.state_event(thinking, waiting);
        self.told.clear();
        self.session.publish(event);
    }

    fn replaying(&self, referee: &dyn Referee) -> bool {
        referee.history().len() < self.replay.len()
    }

    /// The person's moves since the start, and where the last one was:
    /// the history to replay after an undo, or `None` with nothing to undo.
    fn undo_point(&self, referee: &dyn Referee) -> Option<Vec<String>> {
        let human = self.human?;
        let history = referee.history();
        let last = history.iter().rposition(|s| s.seat == Some(human))?;
        Some(history[..last].iter().map(|s| s.text.clone()).collect())
    }
}

impl Outside for Page {
    fn human(&self, seat: Seat) -> bool {
        self.human == Some(seat)
    }

    fn decides(&mut self, referee: &dyn Referee, seat: Seat) -> bool {
        self.human == Some(seat) || self.replaying(referee)
    }

    fn choose(&mut self, referee: &mut dyn Referee, _seat: Seat) -> Option<Told> {
        if self.replaying(referee) {
            let text = self.replay[referee.history().len()].clone();
            return referee.play(&text).ok();
        }
        self.step = referee.history().len();
        // The turn is open before the page hears of it: a move sent at
        // once is not refused as early.
        let turn = {
            let mut s = self.session.lock();
            s.human_turn = true;
            s.turn_step = self.step;
            s.turn_id += 1;
            s.thinking = None;
            s.turn_id
        };
        self.publish_state_as(None, true);
        let chosen = loop {
            if self.session.lock().closed {
                break None;
            }
            match self.commands.recv_timeout(Duration::from_millis(200)) {
                Ok(PageCommand::Move(_, asked, reply)) if asked != turn => {
                    let _ = reply.send(Err(PageError::NotYourTurn));
                }
                Ok(PageCommand::Undo(asked, reply)) if asked != turn => {
                    let _ = reply.send(Err(PageError::UndoNotNow));
                }
                Ok(PageCommand::Move(text, _, reply)) => match referee.play(&text) {
                    Ok(told) => {
                        let _ = reply.send(Ok(()));
                        break Some(told);
                    }
                    Err(e) => {
                        let _ = reply.send(Err(PageError::Move(e)));
                    }
                },
                Ok(PageCommand::Undo(_, reply)) => {
                    if !self.perfect {
                        let _ = reply.send(Err(PageError::CardsStayPlayed));
                    } else if let Some(point) = self.undo_point(referee) {
                        self.undo = Some(point);
                        let _ = reply.send(Ok(()));
                        break None;
                    } else {
                        let _ = reply.send(Err(PageError::NothingToUndo));
                    }
                }
                Ok(PageCommand::Close) | Err(RecvTimeoutError::Disconnected) => break None,
                Err(RecvTimeoutError::Timeout) => {}
            }
        };
        self.session.lock().human_turn = false;
        chosen
    }

    fn thinking(&mut self, referee: &dyn Referee, seat: Seat) {
        self.step = referee.history().len();
        self.session.lock().thinking = Some(Thinking {
            seat,
            since: Instant::now(),
            movetime: self.movetimes.get(seat).copied().flatten(),
            told_late: false,
        });
        self.publish_state(Some(seat));
    }

    fn applied(&mut self, referee: &dyn Referee, seat: Option<Seat>, told: &Told) {
        // The person's own view: the whole game when nothing is hidden,
        // else their seat-bound copy, told what the referee tells the seat.
        let mut lines = Vec::new();
        if self.perfect {
            if let Err(e) = self.view.play(&told.text) {
                log::error!("the page's copy refused {}: {e}", told.text);
            }
            if let Some(s) = seat {
                lines.push(observation_line(
                    referee,
                    &Observation::Played {
                        seat: s,
                        mv: told.text.clone(),
                    },
                ));
            }
        } else if let Some(human) = self.human {
            if seat == Some(human) {
                if let Err(e) = self.view.play(&told.text) {
                    log::error!("the page's copy refused its own {}: {e}", told.text);
                }
                lines.push(format!("play {} {}", referee.seat_name(human), told.text));
            }
            for o in told.observations.get(human).into_iter().flatten() {
                let text = match o {
                    Observation::Played { mv, .. } => mv,
                    Observation::Dealt(d) => d,
                };
                if let Err(e) = self.view.play(text) {
                    log::error!("the page's copy refused {text}: {e}");
                }
                lines.push(observation_line(referee, o));
            }
        }
        if let Some(a) = self.advisor.as_mut() {
            for line in &lines {
                a.tell(line);
            }
        }
        self.told.extend(lines);
        self.step = referee.history().len();
        self.session.lock().thinking = None;
        if self.replaying(referee) {
            return;
        }
        if self.perfect {
            self.last = seat.map(|s| (s, told.text.clone()));
        }
        self.publish_state(None);
    }

    fn abandoned(&self) -> bool {
        self.session.lock().closed || self.undo.is_some()
    }
}

/// The over event: the game's result, public once it is played.
fn over_event(record: &GameRecord, names: &[String]) -> String {
    let ending = match &record.ending {
        Ending::Normal => "normal".to_string(),
        Ending::MoveLimit => "move limit".to_string(),
        Ending::Resign(_) => "resigned".to_string(),
        Ending::Forfeit { fault, detail, .. } => {
            format!("forfeit ({}): {detail}", fault.word())
        }
        Ending::Error(m) => m.clone(),
        Ending::Adjudicated(detail) => format!("adjudicated: {detail}"),
    };
    crate::json::to_string(&OverEvent {
        ending,
        scores: record.scores.as_deref().map(Plain::all),
        winners: &record.winners,
        results: Plain::all(&record.seat_results),
        seats: names,
    })
}

/// Who plays where, for the runner and for the record. Seats given the
/// same engine choice share one engine (each seat still runs its own
/// process); the person is an engine too, past the real ones, which the
/// runner never starts ([`Outside::person`]). A record's games name two
/// engines (its pairing): the person's and the engines'. Where the
/// engines' seats hold different choices, the record names them as one
/// engine, `a+b`, described by the first; watching engines play, seat
/// 0's engine is one side and the others the other.
struct Cast {
    /// The engines the runner starts, by index.
    engines: Vec<EngineSpec>,
    /// The runner's engine at each seat.
    seats: Vec<usize>,
    /// How the page describes each seat's player.
    labels: Vec<String>,
    /// The record's engines.
    record_engines: Vec<crate::arena::record::EngineInfo>,
    /// The record's engine at each seat.
    record_seats: Vec<usize>,
    /// The record's pairing: seat 0's engine first.
    pairing: (usize, usize),
}

impl Cast {
    fn new(config: &GameConfig) -> Cast {
        let mut engines: Vec<EngineSpec> = Vec::new();
        let mut keys: Vec<String> = Vec::new();
        let mut seats = Vec::new();
        let mut labels = Vec::new();
        for (s, seat) in config.seats.iter().enumerate() {
            match seat {
                Some(e) => {
                    // Watching engines play, seat 0 is a side of its own.
                    let key = if config.human.is_none() && s == 0 {
                        format!("{}\n0", e.label)
                    } else {
                        e.label.clone()
                    };
                    let index = keys.iter().position(|k| *k == key).unwrap_or_else(|| {
                        keys.push(key);
                        let mut spec = e.spec.clone();
                        spec.name = e.label.replace(" ms", "ms").replace(' ', "-");
                        engines.push(spec);
                        engines.len() - 1
                    });
                    seats.push(index);
                    labels.push(e.label.clone());
                }
                None => {
                    seats.push(usize::MAX);
                    labels.push("you".to_string());
                }
            }
        }
        let human = engines.len();
        engines.push(EngineSpec {
            name: config.human_name.clone(),
            ..EngineSpec::default()
        });
        for s in &mut seats {
            if *s == usize::MAX {
                *s = human;
            }
        }
        // Names a record reads back: no spaces, commas, quotes or `=`,
        // each one different.
        crate::arena::config::spec::settle_names(&mut engines);
        // The record's two sides: seat 0's player, and everyone else's.
        let first = seats.first().copied().unwrap_or(0);
        let others: Vec<usize> = {
            let mut o: Vec<usize> = seats.iter().copied().filter(|&e| e != first).collect();
            o.dedup();
            o.sort_unstable();
            o.dedup();
            o
        };
        let mut record_engines = vec![engines[first].info()];
        let other = match others.as_slice() {
            [] => {
                // One engine at every seat (no person): a second name for
                // the seats after the first.
                let mut info = engines[first].info();
                info.name = format!("{}-2", info.name);
                info
            }
            [one] => engines[*one].info(),
            many => {
                let mut info = engines[many[0]].info();
                info.name = many
                    .iter()
                    .map(|&e| engines[e].name.as_str())
                    .collect::<Vec<_>>()
                    .join("+");
                info
            }
        };
        record_engines.push(other);
        let record_seats = seats.iter().map(|&e| usize::from(e != first)).collect();
        Cast {
            engines,
            seats,
            labels,
            record_engines,
            record_seats,
            pairing: (0, 1),
        }
    }

    /// The runner's setup for the page's games: no move limit, no
    /// random opening, a casual game's patience with a late engine.
    fn match_setup(&self, config: &GameConfig, seed: u64) -> MatchSetup {
        MatchSetup {
            engines: self.engines.clone(),
            seed,
            margin: config.grace,
            timeout: Duration::from_secs(30),
            max_moves: 0,
            random_plies: 0,
            game_seeds: true,
            log: None,
            openings: None,
            adjudication: Default::default(),
        }
    }

    /// The record of the games played so far, as `tabula match` writes
    /// it.
    fn match_record(
        &self,
        config: &GameConfig,
        seed: u64,
        seat_names: Vec<String>,
        games: &VecDeque<GameRecord>,
    ) -> MatchRecord {
        MatchRecord {
            game: config.game.clone(),
            options: config.words.clone(),
            seeds: vec![seed],
            seat_names,
            engines: self.record_engines.clone(),
            shard: None,
            settings: Vec::new(),
            stopped: None,
            games: games.iter().cloned().collect(),
        }
    }

    /// The record's engine for the runner's `engine`.
    fn record_engine(&self, engine: usize) -> usize {
        self.seats
            .iter()
            .position(|&e| e == engine)
            .map_or(1, |s| self.record_seats[s])
    }

    /// Makes a game's record the record's: its engines, its pairing, and
    /// its plies, every move counted (the runner counts the engines'
    /// alone).
    fn settle(&self, record: &mut GameRecord) {
        record.pairing = self.pairing;
        record.seats = self.record_seats.clone();
        match &mut record.ending {
            Ending::Resign(e) => *e = self.record_engine(*e),
            Ending::Forfeit { engine, .. } => *engine = self.record_engine(*engine),
            _ => {}
        }
        // A resignation or a forfeit is won by every other seat: the
        // record and the page name them (the runner leaves them out).
        if record.winners.is_empty()
            && matches!(record.ending, Ending::Resign(_) | Ending::Forfeit { .. })
        {
            record.winners = (0..record.seat_results.len())
                .filter(|&s| record.seat_results[s] == 1.0)
                .collect();
        }
        record.plies = record
            .transcript
            .iter()
            .filter(|l| l.starts_with("play "))
            .count();
        // The runner's notes name its engines; the record's are named
        // here.
        record.transcript.replace_lines(|line| {
            let note = Note::read(line)?;
            let e = self.engines.iter().position(|s| s.name == note.engine())?;
            let k = self.record_engine(e);
            Some(note.naming(&self.record_engines[k].name).to_string())
        });
    }
}

/// What the page asks once a game is over.
enum AfterOver {
    /// Take back the person's last move: the game again, up to the moves
    /// before it.
    Undo(Vec<String>),
    /// Nothing more: the page left or the server stops.
    End,
}

/// Answers the page's commands after a game is over (`over_turn`, its
/// turn id) until it asks to take back the person's last move of
/// `record` (perfect information only) or leaves: a move is refused, an
/// undo of another turn too.
fn wait_after_over(
    page: &Page,
    over_turn: u64,
    record: Option<&GameRecord>,
    seat: Option<&str>,
    perfect: bool,
) -> AfterOver {
    loop {
        match page.commands.recv_timeout(Duration::from_millis(200)) {
            Ok(PageCommand::Move(_, _, reply)) => {
                let _ = reply.send(Err(PageError::GameOver));
            }
            Ok(PageCommand::Undo(asked, reply)) if asked != over_turn => {
                let _ = reply.send(Err(PageError::UndoNotNow));
            }
            Ok(PageCommand::Undo(_, reply)) => {
                match record
                    .zip(seat)
                    .and_then(|(r, seat)| moves_before_last(r, seat))
                {
                    Some(point) if perfect => {
                        let _ = reply.send(Ok(()));
                        return AfterOver::Undo(point);
                    }
                    _ => {
                        let _ = reply.send(Err(PageError::NothingToUndo));
                    }
                }
            }
            Ok(PageCommand::Close) | Err(RecvTimeoutError::Disconnected) => return AfterOver::End,
            Err(RecvTimeoutError::Timeout) => {
                if page.session.lock().closed {
                    return AfterOver::End;
                }
            }
        }
    }
}

/// The moves of `record` before the last one of the seat named `seat`,
/// from its `play <seat> <move>` lines.
fn moves_before_last(record: &GameRecord, seat: &str) -> Option<Vec<String>> {
    let plays: Vec<(&str, &str)> = record
        .transcript
        .iter()
        .filter_map(|l| {
            let mut w = l.strip_prefix("play ")?.split_whitespace();
            Some((w.next()?, w.next()?))
        })
        .collect();
    let k = plays.iter().rposition(|(s, _)| *s == seat)?;
    Some(plays[..k].iter().map(|(_, m)| m.to_string()).collect())
}

/// The analysis engine at the person's seat, where the page asked for
/// one.
fn start_advisor(
    config: &GameConfig,
    prototype: &dyn Referee,
    perfect: bool,
    session: &Arc<PageGame>,
) -> Option<Advisor> {
    let (spec, human) = config.advisor.as_ref().zip(config.human)?;
    Advisor::start(
        spec,
        &config.game,
        &config.words,
        human,
        &prototype.seat_name(human),
        perfect,
        Arc::clone(session) as Arc<dyn AdvisedPage>,
    )
}

/// The session's referee thread: the page's games one after another (a
/// game again after an undo), each played by the arena's runner with the
/// page as its outside seat, then its record and result published.
fn referee_thread(
    session: Arc<PageGame>,
    config: GameConfig,
    prototype: Box<dyn Referee>,
    view: Box<dyn Mirror>,
    commands: Receiver<PageCommand>,
    seed: u64,
) {
    let perfect = prototype.perfect_information();
    let cast = Cast::new(&config);
    let labels = cast.labels.clone();
    let job_seats = cast.seats.clone();
    let setup = cast.match_setup(&config, seed);
    let advisor = start_advisor(&config, prototype.as_ref(), perfect, &session);
    let mut page = Page::new(
        Arc::clone(&session),
        &config,
        perfect,
        labels,
        view,
        commands,
        advisor,
    );
    let mut pool = Pool::default();
    let mut records: VecDeque<GameRecord> = VecDeque::new();
    let mut number = 1;
    let mut first = true;
    loop {
        // Each game, and each game again after an undo, starts from a
        // fresh view.
        if !std::mem::take(&mut first) {
            match mirror(&config.game, &config.words, config.human, perfect) {
                Ok(v) => page.view = v,
                Err(e) => {
                    log::error!("cannot rebuild the page's view: {e}");
                    break;
                }
            }
            if let Some(a) = page.advisor.as_mut() {
                a.new_game();
            }
        }
        page.step = 0;
        page.last = None;
        page.publish_state(None);
        let job = GameJob {
            number,
            pairing: cast.pairing,
            deal: number as u64,
            seats: job_seats.clone(),
        };
        let mut record =
            play_game_with(&setup, &mut pool, prototype.as_ref(), &job, Some(&mut page));
        if session.lock().closed {
            break;
        }
        if let Some(point) = page.undo.take() {
            // The same game again, up to the move taken back: its number
            // and deal stay.
            page.replay = point;
            continue;
        }
        number += 1;
        page.replay.clear();
        cast.settle(&mut record);
        let over = over_event(&record, &page.seat_names());
        records.push_back(record);
        let rec = cast.match_record(&config, seed, page.seat_names(), &records);
        // The record is there before the page hears of the result; the
        // game's place in the budget is free, and an undo names this
        // point.
        let over_turn = {
            let mut s = session.lock();
            s.record = rec.to_text();
            s.over = true;
            s.thinking = None;
            s.turn_id += 1;
            s.turn_id
        };
        session.publish(over);
        // A finished game runs no engine: its place is another's at once.
        // An undo starts them again (the pool starts what it lacks).
        std::mem::take(&mut pool).close();
        if let Some(a) = page.advisor.take() {
            a.quit();
        }
        // The game is over: undo (perfect information), or the end.
        let seat = config.human.map(|h| prototype.seat_name(h));
        match wait_after_over(&page, over_turn, records.back(), seat.as_deref(), perfect) {
            AfterOver::Undo(point) => {
                session.lock().over = false;
                page.advisor = start_advisor(&config, prototype.as_ref(), perfect, &session);
                records.pop_back();
                page.replay = point;
                // The game taken back is played on under its own number.
                number -= 1;
            }
            AfterOver::End => break,
        }
    }
    pool.close();
    if let Some(a) = page.advisor.take() {
        a.quit();
    }
    let mut s = session.lock();
    s.ended = true;
    s.human_turn = false;
    drop(s);
    session.changed.notify_all();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page at `game`'s start with the person at `human`, its session
    /// not started (no referee thread: the events are built directly).
    fn page(game: &str, human: Option<Seat>) -> Page {
        let (tx, rx) = mpsc::channel();
        let session = Arc::new(PageGame {
            perfect: true,
            game: game.to_string(),
            human,
            shared: Mutex::new(LiveState {
                turn_step: 3,
                thinking: Some(Thinking {
                    seat: 1,
                    since: Instant::now() - Duration::from_secs(5),
                    movetime: Some(Duration::from_millis(250)),
                    told_late: false,
                }),
                ..LiveState::new()
            }),
            changed: Condvar::new(),
            commands: Mutex::new(tx),
        });
        Page {
            session,
            human,
            perfect: true,
            game: game.to_string(),
            words: vec!["size=7".to_string()],
            labels: vec!["you".to_string(), "tabula <mcts> 1 s".to_string()],
            view: mirror(game, &[], human, true).expect("a view"),
            commands: rx,
            replay: Vec::new(),
            undo: None,
            advisor: None,
            told: vec!["black plays \"d3\"".to_string()],
            step: 2,
            last: Some((1, "c5".to_string())),
            movetimes: Vec::new(),
        }
    }

    /// The page's stream events and the summary as the page got them
    /// before serde: a state event waiting for the person (legal moves
    /// and refusals) and one not, the over events of a forfeit and a
    /// draw, the summary, the late event.
    #[test]
    fn page_events_keep_their_bytes() {
        use crate::games::{othello::Othello, quoridor::Quoridor};
        use crate::model::game::Game;
        let othello = page(Othello::NAME, Some(0));
        let watched = page(Quoridor::NAME, None);
        let record = MatchRecord::parse(crate::json::PIN_RECORD, std::path::Path::new("pins"))
            .expect("reads");
        othello.session.watch_late();
        let late = othello.session.lock().events.clone();
        let events = [
            othello.state_event(None, true),
            othello.state_event(Some(1), false),
            watched.state_event(Some(0), false),
            over_event(&record.games[0], &othello.seat_names()),
            over_event(&record.games[1], &othello.seat_names()),
            othello.session.summary_json(),
            watched.session.summary_json(),
        ]
        .into_iter()
        // The wait itself is the clock's: the event up to it is pinned.
        .chain(
            late.iter()
                .filter_map(|e| e.split("\"waited\"").next().map(str::to_string)),
        )
        .collect::<Vec<_>>();
        crate::json::assert_pinned("events", &events.join("\n"));
    }
}
