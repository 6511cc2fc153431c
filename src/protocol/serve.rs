//! The hub every dialect is served from: the serving loop ([`serve`]),
//! the output ([`Output`]), the lines as the session takes them
//! ([`Hub`]), the rule for lines that arrive while a search runs
//! ([`Hub::run`]), and the `genmove` every dialect that plays shares
//! ([`answered_genmove`]). It knows no dialect's words but through
//! [`Protocol`]; the dialects (GTP in `session`, `nboard`, `ugi`) import
//! it, never the reverse.
//!
//! While a command runs (a search, or a human-seat move that makes the
//! engine play the other seats), every line that arrives is read at once,
//! not left behind the search: a line that changes the state the search
//! is for stops it and takes effect after it, in order; a `stop` stops
//! it; UGI's `isready` is answered at once when nothing but the running
//! command comes before it (it answers once every line before it is
//! processed: a line kept ahead of it keeps it in its turn); NBoard's
//! `ping` stops it and
//! is answered at once, on the pump's thread, ahead of the state lines
//! before it (the stopped search then says nothing more): its `pong`
//! never waits for the search's threads, nor for a core, on a busy
//! machine; the end
//! of the input stops it and every search after it, so the session ends
//! within a second. Only what the reader waited for arrives so: lines
//! sent with the command (a script's lines all at once, and the end
//! after them) wait their turn, as before, whatever the threads' timing.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::control::{Answer, Progress};
use crate::engine::{BudgetOverride, Decision, Engine, EngineError, Request, Settings};
use crate::model::game::Seat;
use crate::protocol::dialect::{During, Protocol};
use crate::protocol::input::{Input, QUEUE, Read, read_protocol_lines};

/// What the session tells its caller when it ends.
#[derive(Debug, PartialEq, Eq)]
pub enum SessionEnd {
    /// `quit` was received.
    Quit,
    /// The input ended.
    EndOfInput,
    /// The output was closed (a broken pipe): nobody listens any more.
    OutputClosed,
}

/// The output side: replies and analysis lines, flushed as they are
/// written. A failed write marks the output closed.
pub struct Output<W: Write> {
    out: Mutex<W>,
    closed: AtomicBool,
    /// A line was answered ahead of the command running
    /// ([`During::Supersedes`]): what that command still writes is
    /// dropped, up to the next input taken ([`Hub::take`]). Read and set
    /// under the lock, so that a line the command writes goes out before
    /// the answer or not at all.
    muted: AtomicBool,
}

impl<W: Write> Output<W> {
    /// An output writing to `out`.
    pub fn new(out: W) -> Output<W> {
        Output {
            out: Mutex::new(out),
            closed: AtomicBool::new(false),
            muted: AtomicBool::new(false),
        }
    }

    /// Writes `text` and flushes it (nothing while muted).
    pub fn write(&self, text: &str) {
        let Ok(mut out) = self.out.lock() else { return };
        if self.muted.load(Ordering::Relaxed) {
            return;
        }
        self.put(&mut out, text);
    }

    /// Writes `text`, ahead of what the command running still has to
    /// say, which is then dropped.
    fn write_ahead(&self, text: &str) {
        let Ok(mut out) = self.out.lock() else { return };
        self.muted.store(true, Ordering::Relaxed);
        self.put(&mut out, text);
    }

    fn unmute(&self) {
        if let Ok(_out) = self.out.lock() {
            self.muted.store(false, Ordering::Relaxed);
        }
    }

    fn put(&self, out: &mut W, text: &str) {
        if out
            .write_all(text.as_bytes())
            .and_then(|_| out.flush())
            .is_err()
        {
            self.closed.store(true, Ordering::Relaxed);
        }
    }

    /// Whether a write has failed (nobody reads any more).
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }
}

/// The least wait for a line for it to count as the client's later
/// write (see [`Pump`]): a line already in the reader's buffer takes
/// microseconds.
const ARRIVAL_WAIT: Duration = Duration::from_millis(2);

/// How often the line pump looks whether the command it watches has
/// ended, at most: what a search's end waits for the pump.
const PUMP_POLL: Duration = Duration::from_millis(1);

/// The lines as the session takes them, and the output: what every
/// dialect is served from.
pub struct Hub<W: Write> {
    out: Output<W>,
    protocol: Protocol,
    /// The reader's lines; `None` once the end was taken.
    rx: Option<Receiver<Read>>,
    /// Lines read while a command ran, to be taken next, in order.
    pending: VecDeque<Read>,
    /// The number of the last line taken (the reader stamps each line
    /// with it).
    taken: Arc<AtomicU64>,
    /// The end of the input arrived while a command ran: every search
    /// from now on starts stopped.
    closing: bool,
    /// The last command run was stopped by a line that changes the state.
    superseded: bool,
}

impl<W: Write> Hub<W> {
    /// Starts the reader on its own thread (detached: at `quit` it may
    /// still be blocked on input) and takes the session's protocol: the
    /// one given, or for GTP the one its first line enters.
    pub fn start<R>(input: R, output: W, protocol: Protocol) -> Hub<W>
    where
        R: BufRead + Send + 'static,
    {
        let (tx, rx) = sync_channel(QUEUE);
        let taken = Arc::new(AtomicU64::new(0));
        let stamp = taken.clone();
        std::thread::spawn(move || {
            // It sleeps on the input almost always: short slices let it
            // take a line at once while a search keeps the cores busy.
            crate::engine::time::ask_for_short_slices();
            read_protocol_lines(input, tx, protocol, &stamp)
        });
        let mut hub = Hub {
            out: Output::new(output),
            protocol,
            rx: Some(rx),
            pending: VecDeque::new(),
            taken,
            closing: false,
            superseded: false,
        };
        if protocol == Protocol::Gtp
            && let Some(first) = hub.rx.as_ref().and_then(|rx| rx.recv().ok())
        {
            if let Input::Line { text, .. } = &first.input
                && let Some(entered) = Protocol::entered_by(text)
            {
                hub.protocol = entered;
            }
            hub.pending.push_back(first);
        }
        hub
    }

    /// The protocol the session speaks.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// The output.
    pub fn out(&self) -> &Output<W> {
        &self.out
    }

    /// The next input to run, `None` at the end of the input.
    pub fn take(&mut self) -> Option<Input> {
        let read = match self.pending.pop_front() {
            Some(read) => read,
            None => self.rx.as_ref()?.recv().ok()?,
        };
        self.taken.store(read.seq, Ordering::Release);
        // The command answered ahead of has ended: the next one speaks.
        self.out.unmute();
        if matches!(read.input, Input::End) {
            self.rx = None;
            self.pending.clear();
            return None;
        }
        Some(read.input)
    }

    /// Whether the last command run under [`Hub::run`] was stopped by a
    /// line that changes the state it was for (NBoard then answers
    /// nothing for it).
    pub fn superseded(&self) -> bool {
        self.superseded
    }

    /// Runs `work` (given the output), the command just taken, whose stop
    /// flag is `cancel`,
    /// while the lines that arrive meanwhile are read: one that changes
    /// the state ([`During::Changes`]) or stops ([`During::Stops`])
    /// raises `cancel`, as the end of the input does; UGI's `isready` is
    /// answered at once where no line is kept before it (else in its
    /// turn, once the lines before it are processed), and NBoard's `ping`
    /// at once ([`During::Supersedes`]: `work` then writes nothing more);
    /// each other line is kept to be taken after `work`, in order. Lines
    /// that came with the command (the reader did not wait for them:
    /// [`Read::waited`]) only wait.
    pub fn run<T>(&mut self, cancel: &Arc<AtomicBool>, work: impl FnOnce(&Output<W>) -> T) -> T
    where
        W: Send,
    {
        self.superseded = false;
        if self.closing {
            cancel.store(true, Ordering::Relaxed);
        }
        // Lines already kept come after this command: one the client
        // wrote later (read while the last command wound down, after its
        // answer) acts on this one as if it arrived while it ran.
        // (A ping kept so is answered in its turn, after this command.)
        for read in &self.pending {
            if let Input::Line { text, .. } = &read.input {
                let during = self.protocol.during_search(text);
                self.superseded |= stops_command(&during, arrived(read), cancel);
            }
        }
        // Lines kept right after this command that are answered where
        // they stand (UGI's `isready`) are answered now: nothing before
        // them is left to process but this command, which they do not
        // wait for.
        while let Some(read) = self.pending.front()
            && let Input::Line { text, .. } = &read.input
            && let During::Answered(answer) = self.protocol.during_search(text)
        {
            self.taken.store(read.seq, Ordering::Release);
            self.out.write(&format!("{answer}\n"));
            self.pending.pop_front();
        }
        let Some(rx) = self.rx.take() else {
            return work(&self.out);
        };
        let done = AtomicBool::new(false);
        let pump = Pump {
            protocol: self.protocol,
            cancel,
            done: &done,
            room: QUEUE.saturating_sub(self.pending.len()),
            ahead: !self.pending.is_empty(),
            out: &self.out,
        };
        let (result, (rx, kept, seen)) = std::thread::scope(|scope| {
            let pumping = scope.spawn(move || pump.pump(rx));
            let result = work(&self.out);
            done.store(true, Ordering::Release);
            match pumping.join() {
                Ok(pumped) => (result, pumped),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        });
        self.rx = Some(rx);
        self.pending.extend(kept);
        self.superseded = seen.superseded;
        self.closing |= seen.closing;
        result
    }
}

/// What the pump saw while a command ran.
#[derive(Default)]
struct Seen {
    superseded: bool,
    closing: bool,
}

/// Reads lines while a command runs (see [`Hub::run`]).
struct Pump<'a, W: Write> {
    protocol: Protocol,
    cancel: &'a Arc<AtomicBool>,
    done: &'a AtomicBool,
    /// Lines it may keep: a peer that writes without reading is held
    /// back by the pipe, not buffered.
    room: usize,
    /// Lines were kept before the command ran, to be taken after it.
    ahead: bool,
    out: &'a Output<W>,
}

impl<W: Write> Pump<'_, W> {
    fn pump(self, rx: Receiver<Read>) -> (Receiver<Read>, Vec<Read>, Seen) {
        // A sleeper that must act at once on a line that stops the search
        // (and end at once when the search does): short slices.
        crate::engine::time::ask_for_short_slices();
        let mut kept = Vec::new();
        let mut seen = Seen::default();
        // The client has written since the command: the lines after its
        // later write came with that write (NBoard's state, `ping` and
        // next request at once), not with the command.
        let mut later = false;
        while !self.done.load(Ordering::Acquire) {
            if kept.len() >= self.room {
                std::thread::sleep(PUMP_POLL);
                continue;
            }
            let read = match rx.recv_timeout(PUMP_POLL) {
                Ok(read) => read,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            later |= arrived(&read);
            let arrived = later;
            let during = match &read.input {
                Input::Line { text, .. } => self.protocol.during_search(text),
                Input::End => {
                    if arrived {
                        self.cancel.store(true, Ordering::Relaxed);
                        seen.closing = true;
                    }
                    kept.push(read);
                    break;
                }
                _ => During::Waits,
            };
            match during {
                // Answered at once only when no line is kept before it:
                // its answer says that every line before it is processed
                // (UCI's `isready`), and the running command is not one
                // to wait for. Otherwise it waits its turn.
                During::Answered(text) if !self.ahead && kept.is_empty() => {
                    self.out.write(&format!("{text}\n"));
                    continue;
                }
                During::Supersedes(text) if arrived => {
                    self.cancel.store(true, Ordering::Relaxed);
                    seen.superseded = true;
                    self.out.write_ahead(&format!("{text}\n"));
                    continue;
                }
                during => seen.superseded |= stops_command(&during, arrived, self.cancel),
            }
            kept.push(read);
        }
        (rx, kept, seen)
    }
}

/// Whether the client wrote `read` later, waited for (or closed the input
/// later), rather than sending it with the command before it.
fn arrived(read: &Read) -> bool {
    read.waited >= ARRIVAL_WAIT
}

/// What a line does to the command it follows, through its stop flag
/// `cancel`: written later (`arrived`), a line that changes the state
/// stops the command and supersedes it (the returned flag), a stop only
/// stops it; a line sent with the command waits its turn.
fn stops_command(during: &During, arrived: bool, cancel: &AtomicBool) -> bool {
    match during {
        During::Changes | During::Stops | During::Supersedes(_) if arrived => {
            cancel.store(true, Ordering::Relaxed);
            *during == During::Changes
        }
        _ => false,
    }
}

/// A dialect: how one input is run. The hub's [`serve`] loop takes the
/// inputs and hands them over one at a time.
pub trait Dialect<W: Write + Send> {
    /// Runs `input` (a line, or one refused as it was read); `Some` ends
    /// the session.
    fn input(&mut self, hub: &mut Hub<W>, engine: &mut Engine, input: Input) -> Option<SessionEnd>;
}

/// The serving loop: every input in order through `dialect`, until it
/// ends the session, the input ends or the output is closed.
pub fn serve<W: Write + Send>(
    hub: &mut Hub<W>,
    mut engine: Engine,
    mut dialect: impl Dialect<W>,
) -> SessionEnd {
    while let Some(input) = hub.take() {
        if let Some(end) = dialect.input(hub, &mut engine, input) {
            return end;
        }
        if hub.out().is_closed() {
            return SessionEnd::OutputClosed;
        }
    }
    SessionEnd::EndOfInput
}

/// `genmove`'s search, for any protocol: searches and plays, and sends
/// the move through `send` when the search settles or, if that is late,
/// from the time manager's reply thread (its time is up, or `stop` came),
/// which answers with the search's best move so far (`engine::time`).
/// What is sent is the typed decision (the move, its value and kind),
/// the same whoever answers. `Ok(None)`: sent; `Ok(Some(decision))`:
/// decided without a search, for the caller to send; `Err`: refused
/// before anything was sent.
pub fn answered_genmove(
    engine: &mut Engine,
    seat: Option<Seat>,
    budget: BudgetOverride,
    cancel: Arc<AtomicBool>,
    at: Instant,
    reporter: Option<&(dyn Fn(&Progress) + Sync)>,
    send: &(dyn Fn(&Progress) + Sync),
) -> Result<Option<Decision>, EngineError> {
    let answer = Answer::new(send);
    // The time runs from when the line was read, not from when its turn
    // came: a command queued behind others is still on time.
    let request = Request::new(seat, budget, cancel, at)
        .reporting(reporter)
        .answering(&answer);
    let started = Instant::now();
    let decided = engine.genmove(&request);
    let d = match decided {
        Ok(d) => d,
        // Refused (before any search: nothing was answered).
        Err(e) if !answer.is_settled() => return Err(e),
        Err(e) => {
            log::error!("genmove failed after its answer: {e}");
            return Ok(None);
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
        Ok(None)
    } else {
        // Decided without a search (a forced or only move is settled too):
        // replied by the caller.
        Ok(Some(d))
    }
}

/// A score as an Othello disc margin: the game's own scale, which the
/// dialects that show discs (NBoard, UGI's Othello values) ask for here.
pub use crate::games::othello::discs::disc_margin;

/// The logistic scale that turns a win chance into a margin: the
/// engine's `eval_win_scale`, or where it is off, the default of the
/// game in play (its tuning row).
pub fn win_scale(engine: &Engine) -> f64 {
    let game = engine.game();
    engine
        .settings()
        .eval_win_scale
        .or_else(|| Settings::for_game(game.name(), game.num_seats(), &[]).eval_win_scale)
        .unwrap_or(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(text: &str, waited: Duration) -> Read {
        Read {
            input: Input::Line {
                text: text.to_string(),
                cancel: Arc::new(AtomicBool::new(false)),
                at: std::time::Instant::now(),
            },
            seq: 2,
            behind: 0,
            waited,
        }
    }

    /// What a command run under [`Hub::run`] sees of its stop flag, with
    /// `pending` kept before it starts (read while the last one wound
    /// down), and whether it counts as superseded.
    fn run_with(pending: Read) -> (bool, bool) {
        let input = std::io::Cursor::new(Vec::<u8>::new());
        let mut hub = Hub::start(input, Vec::<u8>::new(), Protocol::Ugi);
        // The reader's end of input is not this test's subject.
        hub.rx = None;
        hub.pending.push_back(pending);
        let cancel = Arc::new(AtomicBool::new(false));
        let stopped = hub.run(&cancel, |_| cancel.load(Ordering::Relaxed));
        (stopped, hub.superseded())
    }

    #[test]
    fn a_later_line_kept_before_a_command_runs_stops_it_as_if_it_came_during_it() {
        // The client wrote `position` after the `go` (it waited for it):
        // the go stops at once and is superseded, as UGI and NBoard
        // clients expect when they change the state mid-search.
        let later = Duration::from_millis(50);
        assert_eq!(run_with(kept("position startpos", later)), (true, true));
        assert_eq!(run_with(kept("stop", later)), (true, false));
        // Sent with the command (a script's lines at once): it waits.
        assert_eq!(
            run_with(kept("position startpos", Duration::ZERO)),
            (false, false)
        );
        // A line that does not act on a search never stops one.
        assert_eq!(run_with(kept("query p1turn", later)), (false, false));
    }
}
