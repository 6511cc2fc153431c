//! One engine process: spawn it, send commands (with ids where the engine
//! wants them), read replies with a deadline, notice crashes, kill it when
//! it hangs.
//!
//! Ids: a command is sent as `<id> <command>` by default (tabula's own
//! engines echo the id, which shows a reply out of step), and plainly when
//! [`EngineProcess::set_ids`] turns them off (the runner does so for every
//! `proto=gtp` engine: plain GTP programs differ in how they write an id
//! back, Edax 4.6 answering `= 7 e2`). A reply is read as `=<id> <text>`
//! or `= <id> <text>`: after a command sent with id N, a reply without an
//! id glued to `=` whose text is `N` and at least one more word is the
//! reply to N with that id taken off. A reply without any id is accepted
//! (some engines drop ids); an id other than the one sent, or an id on a
//! reply to a command sent without one, is a malformed reply.
//!
//! Replies are read by a thread of their own that turns stdout into
//! events on a channel, so that waiting for a reply is a
//! `recv_timeout` and an engine that never answers cannot wedge the runner.
//! The engine runs in a process group of its own, so killing it also kills
//! whatever it started (`sh -c` wrappers, helper processes); on Linux its
//! processes also carry a token in their environment, so that a helper
//! that left the group (`setsid`) is found and ended too, and the engine
//! gets SIGKILL from the kernel if the runner itself is killed outright.
//! Input is written with a deadline: an engine that stops reading cannot
//! block the runner. Every engine started and not yet ended is listed, so
//! that a signal that ends the runner ends them all ([`end_all`]).
//!
//! Everything read is bounded: a line is at most [`MAX_LINE`] bytes, a
//! reply at most [`MAX_REPLY_LINES`] lines and [`MAX_REPLY_BYTES`] bytes,
//! a start-up banner at most [`MAX_BANNER_LINES`] lines, and the channel
//! between the reader thread and the runner holds a few events only (the
//! reader waits, so a flooding engine fills a pipe, not the runner's
//! memory). Every wait ends by its deadline, whatever the engine prints.
//!
//! An engine's `stderr=FILE` is written by a thread of the runner that
//! reads the engine's stderr pipe and appends to the file while the file
//! is under [`STDERR_CAP`] bytes: the engine writes to a pipe that is
//! always drained, so that a full disk, or a file at its cap, never blocks
//! it; past the cap what it writes is read and dropped, and the file says
//! so once (one line per engine process that reached it).

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// The longest line accepted from an engine (as the engine itself accepts);
/// longer ones are malformed.
pub const MAX_LINE: u64 = 64 * 1024;

/// The most lines one reply may have (the first included).
pub const MAX_REPLY_LINES: usize = 4096;

/// The most bytes one reply may have.
pub const MAX_REPLY_BYTES: usize = 1 << 20;

/// The most lines ignored before an engine's first reply (a banner).
pub const MAX_BANNER_LINES: usize = 1000;

/// Events the reader thread may queue before it waits for the runner.
const QUEUE: usize = 16;

/// How often a wait looks whether the engine process has exited.
const POLL: Duration = Duration::from_millis(50);

/// How long, after the engine process exited, its reader may still deliver
/// a reply written before the exit (a helper may hold the pipe open).
const EXIT_DRAIN: Duration = Duration::from_millis(200);

/// The most bytes an engine's `stderr=FILE` grows to (the size the
/// runner reads a record up to): then one line says the file is at its
/// cap, and the engine's further stderr is dropped. The cap is on the
/// file, whatever wrote it: engines sharing one file, a restarted
/// engine, earlier runs appending to it.
pub const STDERR_CAP: u64 = 1 << 30;

/// How long a killed engine's stderr may take to reach its file (what it
/// wrote before it ended, still in the pipe).
const STDERR_DRAIN: Duration = Duration::from_millis(200);

/// The environment variable that marks every process of one engine.
pub const TOKEN_VAR: &str = "TABULA_MATCH_ENGINE";

/// Numbers the engine processes of this runner.
static SERIAL: AtomicU64 = AtomicU64::new(1);

/// How long `quit` waits for an engine to exit before killing it.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// The process groups of every engine this runner has started and not yet
/// ended, so that a signal that ends the runner ([`end_all`]) ends them
/// too: an engine that does not read its input would never notice that
/// its runner is gone.
struct Live {
    /// Set by [`end_all`]: no engine starts from then on.
    closing: bool,
    /// Serial number to process (group) id.
    groups: Vec<(u64, u32)>,
}

static LIVE: Mutex<Live> = Mutex::new(Live {
    closing: false,
    groups: Vec::new(),
});

fn live() -> MutexGuard<'static, Live> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Ends every engine process group this runner started and has not ended
/// yet (and, on Linux, every process marked as one of its engines), and
/// refuses to start any more: for a runner about to exit on a signal.
pub fn end_all() {
    live().closing = true;
    end_live();
}

/// Ends every engine process group this runner started and has not ended
/// yet (a fatal error: their games end at once as crashes).
pub fn end_live() {
    let mut live = live();
    for &(_, pid) in &live.groups {
        signal_group(pid);
    }
    live.groups.clear();
    drop(live);
    #[cfg(target_os = "linux")]
    kill_marked(&format!("{}-", std::process::id()), true);
}

/// Sends SIGKILL to the process group `pid` leads.
fn signal_group(pid: u32) {
    #[cfg(unix)]
    if let Some(group) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        // The process group created at spawn, led by the engine.
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
    #[cfg(not(unix))]
    let _ = pid;
}

/// A sink for the traffic log (`--debug`): one line per message.
pub type TrafficLog = Arc<dyn Fn(&str) + Send + Sync>;

/// How to start an engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Launch {
    /// The command line. Split on whitespace, unless it contains shell
    /// syntax (quotes, `|`, `;`, `$`...), in which case it runs under `sh -c`.
    pub command: String,
    /// The working directory, if not the runner's.
    pub dir: Option<PathBuf>,
    /// Where the engine's stderr goes (appended, up to the cap); discarded
    /// if `None`.
    pub stderr: Option<PathBuf>,
    /// The most bytes the `stderr` file grows to; `None`: [`STDERR_CAP`].
    pub stderr_cap: Option<u64>,
}

/// What went wrong talking to an engine. Each kind is a fault that
/// forfeits the game for the engine that caused it.
#[derive(Debug, thiserror::Error)]
pub enum ProcessError {
    /// The program could not be started.
    #[error("cannot start '{command}': {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The engine exited or closed its output.
    #[error("engine crashed: {0}")]
    Crashed(String),
    /// No reply within the time allowed.
    #[error("no reply to '{command}' within {:.3}s", .waited.as_secs_f64())]
    Timeout {
        /// The command that got no reply.
        command: String,
        /// How long the runner waited.
        waited: Duration,
    },
    /// The engine printed something that is not a reply.
    #[error("malformed reply: {0}")]
    Malformed(String),
    /// The engine answered `?` to a command it had to accept.
    #[error("refused '{command}': {message}")]
    Refused {
        /// The command.
        command: String,
        /// The engine's message.
        message: String,
    },
}

/// One reply, framed by the reader thread.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Reply {
    ok: bool,
    id: Option<u64>,
    text: String,
}

/// What the reader thread sees on stdout.
#[derive(Debug)]
enum Event {
    Reply(Reply),
    /// A non-empty line that is neither a comment nor part of a reply.
    Garbage(String),
    /// A line or a reply over the limits; the reader stops after it.
    TooLong(String),
    /// End of output (the engine exited) or a read error.
    Closed(String),
}

/// Splits replies out of an engine's output lines: `=[id] text` or
/// `?[id] message`, continued by further lines until an empty one.
#[derive(Default)]
struct Framer {
    open: Option<Reply>,
    /// Lines of the open reply.
    lines: usize,
}

impl Framer {
    /// Feeds one line (without its newline); returns a finished event.
    /// A reply over [`MAX_REPLY_LINES`] lines or [`MAX_REPLY_BYTES`] bytes
    /// ends as [`Event::TooLong`], and what comes after is not framed.
    fn line(&mut self, line: &str) -> Option<Event> {
        let line = line.trim_end_matches(['\r', '\n']);
        if let Some(reply) = self.open.as_mut() {
            if line.trim().is_empty() {
                return self.open.take().map(Event::Reply);
            }
            self.lines += 1;
            if self.lines > MAX_REPLY_LINES || reply.text.len() + line.len() + 1 > MAX_REPLY_BYTES {
                self.open = None;
                return Some(Event::TooLong(format!(
                    "a reply of more than {MAX_REPLY_LINES} lines or {MAX_REPLY_BYTES} bytes"
                )));
            }
            if !reply.text.is_empty() {
                reply.text.push('\n');
            }
            reply.text.push_str(line);
            return None;
        }
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            return None;
        }
        let ok = match trimmed.as_bytes()[0] {
            b'=' => true,
            b'?' => false,
            _ => return Some(Event::Garbage(trimmed.to_string())),
        };
        let rest = &trimmed[1..];
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let id = rest[..digits].parse().ok();
        let text = rest[digits..].trim().to_string();
        self.open = Some(Reply { ok, id, text });
        self.lines = 1;
        None
    }
}

/// A reply written `= <id> <text>` (a space after `=`, as Edax 4.6 writes
/// it) to the command sent with `id`: the id is taken off the text. Only
/// when the text's first word is that id and another word follows, so
/// that an engine that drops ids and answers one word (`= 3`, a Nim move)
/// keeps it.
fn spaced_id(mut reply: Reply, id: u64) -> Reply {
    if reply.id.is_some() {
        return reply;
    }
    let Some((first, rest)) = reply.text.split_once(char::is_whitespace) else {
        return reply;
    };
    if first.bytes().all(|b| b.is_ascii_digit()) && first.parse::<u64>() == Ok(id) {
        let rest = rest.trim_start();
        if !rest.is_empty() {
            reply.text = rest.to_string();
            reply.id = Some(id);
        }
    }
    reply
}

/// Reads lines from `out` until it closes, sending framed events. Stops
/// at the first line or reply over the limits, or when nobody listens.
fn reader_loop(out: impl Read, tx: SyncSender<Event>) {
    let mut out = BufReader::new(out);
    let mut framer = Framer::default();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut out).take(MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) => {
                let _ = tx.send(Event::Closed("end of output".to_string()));
                return;
            }
            Ok(n) if n as u64 == MAX_LINE && buf.last() != Some(&b'\n') => {
                let _ = tx.send(Event::TooLong(format!(
                    "a line longer than {MAX_LINE} bytes"
                )));
                return;
            }
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                if let Some(event) = framer.line(&line) {
                    let last = matches!(event, Event::TooLong(_));
                    if tx.send(event).is_err() || last {
                        return;
                    }
                }
            }
            Err(e) => {
                let _ = tx.send(Event::Closed(format!("read error: {e}")));
                return;
            }
        }
    }
}

/// Whether a command line needs a shell to run.
fn needs_shell(command: &str) -> bool {
    command.chars().any(|c| "'\"|&;<>()$`\\*?~{}".contains(c))
}

/// The command that runs `launch`: its words, or the whole line under
/// `sh -c` when it needs a shell; in its working directory.
fn command_of(launch: &Launch) -> std::io::Result<Command> {
    let mut cmd = if needs_shell(&launch.command) {
        let mut c = Command::new("sh");
        c.arg("-c").arg(&launch.command);
        c
    } else {
        let mut words = launch.command.split_whitespace();
        let program = words.next().ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "empty command")
        })?;
        let mut c = Command::new(program);
        c.args(words);
        c
    };
    if let Some(dir) = &launch.dir {
        cmd.current_dir(dir);
    }
    Ok(cmd)
}

/// Opens an engine's `stderr=` file to append to: links followed; a FIFO
/// (which would block the open) or a directory refused.
fn open_stderr_file(path: &std::path::Path) -> std::io::Result<File> {
    use crate::files::output::{Target, resolve};
    let at = match resolve(path) {
        Ok(Target::File(at) | Target::Device(at)) => at,
        Err(e) => return Err(std::io::Error::other(e.why.to_string())),
    };
    File::options().create(true).append(true).open(at)
}

/// Puts the engine in a process group of its own: killing the group also
/// ends helpers the engine started, and a Ctrl-C in the terminal reaches
/// only the runner. On Linux, a runner killed outright (SIGKILL, the OOM
/// killer) takes its engines along: the kernel sends them SIGKILL when
/// the thread that started them ends.
fn confine(cmd: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{Pid, Signal};
        use std::os::unix::process::CommandExt;
        let runner = i32::try_from(std::process::id())
            .ok()
            .and_then(Pid::from_raw);
        // SAFETY: `pre_exec` is unsafe because its closure runs in the
        // forked child of a threaded process, between fork and exec;
        // this one makes only async-signal-safe system calls (prctl,
        // getppid), allocates nothing and touches no lock or shared
        // state. No safe way to set the parent-death signal of a child
        // exists in std.
        unsafe {
            cmd.pre_exec(move || {
                rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
                if rustix::process::getppid() != runner {
                    // The runner ended before the signal was set. std
                    // reports only an error number to the parent, so
                    // the one `io::Error::other` would have become,
                    // without its allocation.
                    return Err(rustix::io::Errno::INVAL.into());
                }
                Ok(())
            });
        }
    }
}

/// Starts `cmd` and lists its process group as engine `serial`, under the
/// lock, so that `end_all` either sees the new group or has already
/// stopped every start.
fn start_listed(cmd: &mut Command, serial: u64) -> std::io::Result<Child> {
    let mut live = live();
    if live.closing {
        return Err(std::io::Error::other("the match is stopping"));
    }
    let child = cmd.spawn()?;
    live.groups.push((serial, child.id()));
    Ok(child)
}

/// Makes writes to an engine's input return at once when the pipe is
/// full: they wait by `poll` with a deadline (see `write_within`), so an
/// engine that stops reading cannot block the runner.
fn set_nonblocking(stdin: &ChildStdin) {
    #[cfg(unix)]
    {
        use rustix::fs::{OFlags, fcntl_getfl, fcntl_setfl};
        if let Ok(flags) = fcntl_getfl(stdin) {
            let _ = fcntl_setfl(stdin, flags | OFlags::NONBLOCK);
        }
    }
    #[cfg(not(unix))]
    let _ = stdin;
}

/// Starts the thread that drains engine `pid`'s stderr `pipe` into
/// `file` (up to `cap` bytes, see [`forward_stderr`]); what it returns
/// closes once the pipe is read to its end.
fn drain_stderr(
    pipe: impl Read + Send + 'static,
    file: File,
    cap: u64,
    pid: u32,
    label: &str,
) -> std::io::Result<Receiver<()>> {
    let (done, stderr_done) = mpsc::channel::<()>();
    thread::Builder::new()
        .name(format!("stderr {label}"))
        .spawn(move || {
            forward_stderr(pipe, file, cap, pid);
            drop(done);
        })?;
    Ok(stderr_done)
}

/// A running engine.
pub struct EngineProcess {
    label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    next_id: u64,
    log: Option<TrafficLog>,
    dead: bool,
    /// Whether the engine has answered anything yet: lines before its
    /// first reply are a start-up banner, not a malformed reply.
    answered: bool,
    /// Banner lines ignored so far.
    banner: usize,
    /// This engine's number in the runner (in [`LIVE`]).
    serial: u64,
    /// Whether commands carry ids (see the module's documentation).
    ids: bool,
    /// The value of [`TOKEN_VAR`] in this engine's environment.
    token: String,
    /// Closed when the thread that writes its `stderr=` file has read the
    /// pipe to its end.
    stderr_done: Option<Receiver<()>>,
}

impl EngineProcess {
    /// Starts an engine. `label` names it in the traffic log (where its
    /// process id follows it).
    pub fn spawn(
        launch: &Launch,
        label: &str,
        log: Option<TrafficLog>,
    ) -> Result<EngineProcess, ProcessError> {
        let spawn_err = |source| ProcessError::Spawn {
            command: launch.command.clone(),
            source,
        };
        let mut cmd = command_of(launch).map_err(spawn_err)?;
        let stderr_file = match &launch.stderr {
            Some(path) => Some(open_stderr_file(path).map_err(spawn_err)?),
            None => None,
        };
        // Through a pipe the runner drains (see the module's text).
        let stderr = if stderr_file.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        };
        let serial = SERIAL.fetch_add(1, Ordering::Relaxed);
        let token = format!("{}-{serial}", std::process::id());
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .env(TOKEN_VAR, &token);
        confine(&mut cmd);
        let mut child = start_listed(&mut cmd, serial).map_err(spawn_err)?;
        let stdin = child.stdin.take();
        if let Some(stdin) = &stdin {
            set_nonblocking(stdin);
        }
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| spawn_err(std::io::Error::other("no stdout pipe")))?;
        let (tx, events) = mpsc::sync_channel(QUEUE);
        if let Err(e) = thread::Builder::new()
            .name(format!("read {label}"))
            .spawn(move || reader_loop(stdout, tx))
        {
            kill_tree(&mut child, serial, &token);
            return Err(spawn_err(e));
        }
        let stderr_done = match (child.stderr.take(), stderr_file) {
            (Some(pipe), Some(file)) => {
                let cap = launch.stderr_cap.unwrap_or(STDERR_CAP);
                match drain_stderr(pipe, file, cap, child.id(), label) {
                    Ok(done) => Some(done),
                    Err(e) => {
                        kill_tree(&mut child, serial, &token);
                        return Err(spawn_err(e));
                    }
                }
            }
            _ => None,
        };
        Ok(EngineProcess {
            label: label.to_string(),
            child,
            stdin,
            events,
            next_id: 1,
            log,
            dead: false,
            answered: false,
            banner: 0,
            serial,
            ids: true,
            token,
            stderr_done,
        })
    }

    /// Whether commands are sent with ids (`<id> <command>`, the default)
    /// or plainly: plain GTP engines get none (see the module's
    /// documentation).
    pub fn set_ids(&mut self, ids: bool) {
        self.ids = ids;
    }

    /// Whether commands are sent with ids.
    pub fn sends_ids(&self) -> bool {
        self.ids
    }

    /// The label in the traffic log.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Renames the process in the traffic log (a reused process plays
    /// another game, maybe at another seat).
    pub fn set_label(&mut self, label: &str) {
        self.label = label.to_string();
    }

    /// The operating system's id of the engine process.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the process was found dead or killed.
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    fn log(&self, dir: &str, text: &str) {
        if let Some(log) = &self.log {
            for line in text.lines() {
                log(&format!(
                    "[{} pid {}] {dir} {line}",
                    self.label,
                    self.child.id()
                ));
            }
        }
    }

    /// How the process ended, if it did (for crash messages).
    fn exit_status(&mut self) -> String {
        // Give a dying process a moment to be reaped.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.to_string();
            }
            thread::sleep(Duration::from_millis(5));
        }
        "still running".to_string()
    }

    /// Sends one command (without id) and waits up to `timeout` for its
    /// reply. Returns the reply text on `=`.
    ///
    /// On a timeout, crash or malformed reply the engine is killed (its
    /// state is unknown from then on); a `?` reply leaves it running.
    pub fn send(&mut self, command: &str, timeout: Duration) -> Result<String, ProcessError> {
        let started = Instant::now();
        let id = self.post(command, timeout)?;
        self.reply_to(command, id, timeout.saturating_sub(started.elapsed()))
    }

    /// Sends one command (with an id, unless ids are off) without waiting
    /// for its reply, and returns the command's number for
    /// [`reply_to`](Self::reply_to): a command sent while another runs
    /// (`stop` during `genmove`). Writing waits up to `timeout`; an engine
    /// that does not read is killed.
    pub fn post(&mut self, command: &str, timeout: Duration) -> Result<u64, ProcessError> {
        if self.dead {
            return Err(ProcessError::Crashed(
                "the engine was stopped earlier".to_string(),
            ));
        }
        let id = self.next_id;
        self.next_id += 1;
        let line = if self.ids {
            format!("{id} {command}\n")
        } else {
            format!("{command}\n")
        };
        self.log(">", line.trim_end());
        let written = match self.stdin.as_mut() {
            Some(stdin) => write_within(stdin, line.as_bytes(), timeout),
            None => Err(std::io::Error::other("stdin closed")),
        };
        if let Err(e) = written {
            if e.kind() == std::io::ErrorKind::TimedOut {
                self.kill();
                return Err(ProcessError::Timeout {
                    command: format!("{command} (the engine does not read its input)"),
                    waited: timeout,
                });
            }
            let status = self.exit_status();
            self.kill();
            return Err(ProcessError::Crashed(format!(
                "cannot write '{command}' ({e}); {status}"
            )));
        }
        Ok(id)
    }

    /// Waits up to `timeout` for the reply to `command`, posted as `id`;
    /// replies come in the order the commands were sent. As
    /// [`send`](Self::send) for what kills the engine.
    pub fn reply_to(
        &mut self,
        command: &str,
        id: u64,
        timeout: Duration,
    ) -> Result<String, ProcessError> {
        let result = self.wait_reply(command, id, timeout);
        if !matches!(
            result,
            Ok(_) | Err(ProcessError::Refused { .. } | ProcessError::Spawn { .. })
        ) {
            self.kill();
        }
        result
    }

    /// Waits for the reply to command `id`. Every event ends the wait (a
    /// reply, ours or a stray one that means the engine is out of step;
    /// garbage; the end of output; the engine's exit; the deadline),
    /// except a start-up banner line.
    fn wait_reply(
        &mut self,
        command: &str,
        id: u64,
        timeout: Duration,
    ) -> Result<String, ProcessError> {
        let started = Instant::now();
        let timed_out = || ProcessError::Timeout {
            command: command.to_string(),
            waited: timeout,
        };
        let mut exited: Option<(Instant, String)> = None;
        loop {
            // A reply already read is taken even past the deadline: the
            // runner's own thread may have waited for a core meanwhile,
            // which is not the engine's time.
            let slice = timeout.saturating_sub(started.elapsed()).min(POLL);
            let event = match self.events.recv_timeout(slice) {
                Ok(event) => event,
                Err(RecvTimeoutError::Timeout) if started.elapsed() >= timeout => {
                    return Err(timed_out());
                }
                Err(RecvTimeoutError::Timeout) => {
                    // The engine may be gone while a process it started
                    // still holds its output open: no end of output comes.
                    match &exited {
                        None => {
                            if let Ok(Some(status)) = self.child.try_wait() {
                                exited = Some((Instant::now(), status.to_string()));
                            }
                        }
                        Some((at, status)) if at.elapsed() >= EXIT_DRAIN => {
                            return Err(ProcessError::Crashed(format!(
                                "the engine exited ({status}) while waiting for '{command}' \
                                 (a process it started still holds its output)"
                            )));
                        }
                        Some(_) => {}
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(ProcessError::Crashed("output reader stopped".to_string()));
                }
            };
            match event {
                Event::Garbage(text) if !self.answered => {
                    self.banner += 1;
                    if self.banner > MAX_BANNER_LINES {
                        return Err(ProcessError::Malformed(format!(
                            "more than {MAX_BANNER_LINES} lines before its first reply"
                        )));
                    }
                    self.log("<", &format!("{text} (ignored: before the first reply)"));
                }
                Event::Reply(reply) => {
                    self.answered = true;
                    let head = if reply.ok { "=" } else { "?" };
                    let id_text = reply.id.map_or(String::new(), |i| i.to_string());
                    self.log("<", &format!("{head}{id_text} {}", reply.text));
                    let reply = if self.ids {
                        spaced_id(reply, id)
                    } else {
                        reply
                    };
                    return match reply.id {
                        Some(got) if !self.ids => Err(ProcessError::Malformed(format!(
                            "a reply with id {got} to a command sent without an id"
                        ))),
                        // Lenient: some GTP engines drop the id.
                        Some(got) if got != id => Err(ProcessError::Malformed(format!(
                            "reply to command {got} when {id} was sent"
                        ))),
                        _ if reply.ok => Ok(reply.text),
                        _ => Err(ProcessError::Refused {
                            command: command.to_string(),
                            message: reply.text,
                        }),
                    };
                }
                Event::Garbage(text) => {
                    self.log("<", &text);
                    return Err(ProcessError::Malformed(format!("'{}'", clip(&text, 80))));
                }
                Event::TooLong(what) => {
                    self.log("<", &format!("({what})"));
                    return Err(ProcessError::Malformed(what));
                }
                Event::Closed(why) => {
                    let status = self.exit_status();
                    return Err(ProcessError::Crashed(format!(
                        "{why} while waiting for '{command}' ({status})"
                    )));
                }
            }
        }
    }

    /// Kills the engine and every process it started: its process group,
    /// and (on Linux) any process carrying its token, such as a helper
    /// that left the group with `setsid`.
    pub fn kill(&mut self) {
        if self.dead {
            return;
        }
        self.dead = true;
        self.stdin = None;
        kill_tree(&mut self.child, self.serial, &self.token);
        // What it wrote before it ended reaches its file before the
        // runner goes on (and maybe exits); a helper that keeps the pipe
        // open is not waited for.
        if let Some(done) = self.stderr_done.take() {
            let _ = done.recv_timeout(STDERR_DRAIN);
        }
    }

    /// Asks the engine to quit, and kills it if it does not exit promptly.
    pub fn quit(mut self) {
        if self.dead {
            return;
        }
        self.log(">", "quit");
        if let Some(stdin) = self.stdin.as_mut() {
            let _ = write_within(stdin, b"quit\n", QUIT_GRACE);
        }
        self.stdin = None;
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
        // Also reaps it, and ends any helpers it left behind.
        self.kill();
    }
}

/// Appends what an engine (process `pid`) writes to its stderr (`pipe`)
/// to its `stderr=` file while the file is under `cap` bytes, then says
/// once that the file is at its cap, and reads the pipe to its end
/// whatever happens (a file at its cap, a full disk), so that the engine
/// never blocks on its stderr. A file that is not a regular file (a
/// terminal, `/dev/null`) has no size to cap.
pub fn forward_stderr(mut pipe: impl Read, mut file: File, cap: u64, pid: u32) {
    let mut buf = vec![0u8; 64 * 1024];
    // Whether to write on: no once the cap is reached or a write failed.
    let mut writing = true;
    let mut last = b'\n';
    loop {
        let n = match pipe.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        if !writing {
            continue;
        }
        let chunk = &buf[..n];
        // The file's size now: whatever else appends to it counts.
        let room = match file.metadata() {
            Ok(meta) if meta.is_file() => cap.saturating_sub(meta.len()),
            _ => u64::MAX,
        };
        let kept = usize::try_from(room).map_or(n, |room| room.min(n));
        if file.write_all(&chunk[..kept]).is_err() {
            writing = false;
            continue;
        }
        if let Some(&b) = chunk[..kept].last() {
            last = b;
        }
        if kept < n {
            writing = false;
            let note = format!(
                "{}[tabula match: this stderr= file is at its cap of {cap} bytes: the rest of \
                 the stderr of engine process {pid} is dropped]\n",
                if last == b'\n' { "" } else { "\n" }
            );
            let _ = file.write_all(note.as_bytes());
        }
    }
}

/// Kills `child`'s process group and every process whose environment
/// holds `token`, then reaps `child`.
fn kill_tree(child: &mut Child, serial: u64, token: &str) {
    {
        // Signalled before it is reaped (its id cannot be reused yet) and
        // taken off the list under one lock, so `end_all` never signals a
        // group that is gone.
        let mut live = live();
        signal_group(child.id());
        live.groups.retain(|&(s, _)| s != serial);
    }
    let _ = child.kill();
    let _ = child.wait();
    #[cfg(target_os = "linux")]
    kill_marked(token, false);
    #[cfg(not(target_os = "linux"))]
    let _ = token;
}

/// Writes all of `bytes` to an engine's input within `timeout`: a pipe
/// that stays full (the engine does not read) ends in a `TimedOut` error
/// instead of a runner blocked for ever.
fn write_within(stdin: &mut ChildStdin, bytes: &[u8], timeout: Duration) -> std::io::Result<()> {
    let deadline = Instant::now() + timeout;
    let mut rest = bytes;
    while !rest.is_empty() {
        match stdin.write(rest) {
            Ok(0) => return Err(std::io::Error::from(std::io::ErrorKind::WriteZero)),
            Ok(n) => rest = &rest[n..],
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(std::io::Error::from(std::io::ErrorKind::TimedOut));
                }
                wait_writable(stdin, left);
            }
            Err(e) => return Err(e),
        }
    }
    stdin.flush()
}

/// Waits until the pipe takes more bytes, or `left` has passed.
fn wait_writable(stdin: &ChildStdin, left: Duration) {
    #[cfg(unix)]
    {
        use rustix::event::{PollFd, PollFlags, Timespec, poll};
        // Whole milliseconds, as poll(2) counts them, 1 to 1000.
        let ms = left.as_millis().clamp(1, 1000) as u64;
        let timeout = Timespec::try_from(Duration::from_millis(ms)).unwrap_or(Timespec {
            tv_sec: 1,
            tv_nsec: 0,
        });
        let _ = poll(&mut [PollFd::new(stdin, PollFlags::OUT)], Some(&timeout));
    }
    #[cfg(not(unix))]
    {
        let _ = stdin;
        thread::sleep(left.min(POLL));
    }
}

/// Kills every process whose environment holds `TOKEN_VAR=token` (or, with
/// `prefix`, a value starting with `token`), until none is left (a process
/// may fork while we look), a few rounds at most.
#[cfg(target_os = "linux")]
fn kill_marked(token: &str, prefix: bool) {
    let needle = format!("{TOKEN_VAR}={token}");
    let me = std::process::id();
    for _ in 0..8 {
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return;
        };
        let mut found = false;
        for entry in dir.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<u32>().ok())
            else {
                continue;
            };
            if pid == me {
                continue;
            }
            let Ok(environ) = std::fs::read(entry.path().join("environ")) else {
                continue;
            };
            if environ.split(|&b| b == 0).any(|var| {
                if prefix {
                    var.starts_with(needle.as_bytes())
                } else {
                    var == needle.as_bytes()
                }
            }) && let Some(pid) = i32::try_from(pid)
                .ok()
                .and_then(rustix::process::Pid::from_raw)
            {
                found = true;
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
            }
        }
        if !found {
            return;
        }
        thread::sleep(Duration::from_millis(10));
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The first `n` characters of `text`, with an ellipsis if cut.
pub(crate) fn clip(text: &str, n: usize) -> String {
    match text.char_indices().nth(n) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_stops_at_the_cap_of_its_file_and_says_so_once() {
        let path = std::env::temp_dir().join(format!("tabula-stderr-cap-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let open = || {
            File::options()
                .create(true)
                .append(true)
                .open(&path)
                .unwrap()
        };
        forward_stderr(&b"hello world\nmore"[..], open(), 10, 7);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            "hello worl\n[tabula match: this stderr= file is at its cap of 10 bytes: the rest of \
             the stderr of engine process 7 is dropped]\n"
        );
        // A file already at its cap takes the note only; under it, the
        // rest up to the cap.
        forward_stderr(&b"x"[..], open(), 10, 8);
        assert_eq!(
            std::fs::read_to_string(&path)
                .unwrap()
                .matches("at its cap")
                .count(),
            2
        );
        std::fs::write(&path, "ab\n").unwrap();
        forward_stderr(&b"cd\n"[..], open(), 10, 9);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "ab\ncd\n");
        let _ = std::fs::remove_file(&path);
        // A device has no size to cap.
        if let Ok(null) = File::options().append(true).open("/dev/null") {
            forward_stderr(&[b'x'; 100][..], null, 10, 10);
        }
    }

    fn frame(lines: &[&str]) -> Vec<String> {
        let mut f = Framer::default();
        lines
            .iter()
            .filter_map(|l| f.line(l))
            .map(|e| match e {
                Event::Reply(r) => format!("{} {:?} {}", r.ok, r.id, r.text),
                Event::Garbage(g) => format!("garbage {g}"),
                Event::TooLong(t) => format!("too long {t}"),
                Event::Closed(c) => format!("closed {c}"),
            })
            .collect()
    }

    #[test]
    fn frames_replies_comments_and_garbage() {
        let got = frame(&[
            "# hello",
            "=3 d3",
            "",
            "?4 no such move",
            "",
            "=5 line1",
            "line2",
            "\r",
            "junk",
        ]);
        assert_eq!(
            got,
            vec![
                "true Some(3) d3",
                "false Some(4) no such move",
                "true Some(5) line1\nline2",
                "garbage junk"
            ]
        );
        assert_eq!(frame(&["=", ""]), vec!["true None "]);
    }

    #[test]
    fn a_space_between_the_sign_and_the_id_is_read_as_the_id() {
        let reply = |id: Option<u64>, text: &str| Reply {
            ok: true,
            id,
            text: text.to_string(),
        };
        // Edax 4.6: `= 7 e2` to `7 genmove black`.
        assert_eq!(spaced_id(reply(None, "7 e2"), 7), reply(Some(7), "e2"));
        assert_eq!(
            spaced_id(reply(None, "7 line1\nline2"), 7),
            reply(Some(7), "line1\nline2")
        );
        // One word is a reply without id (`= 3`, a Nim move), and another
        // number is the text, as is an id glued to `=`.
        assert_eq!(spaced_id(reply(None, "7"), 7), reply(None, "7"));
        assert_eq!(spaced_id(reply(None, "3 e2"), 7), reply(None, "3 e2"));
        assert_eq!(spaced_id(reply(Some(7), "7 e2"), 7), reply(Some(7), "7 e2"));
        assert_eq!(spaced_id(reply(None, "+7 e2"), 7), reply(None, "+7 e2"));
    }

    #[test]
    fn replies_are_bounded() {
        let mut f = Framer::default();
        assert!(f.line("=1 d3").is_none());
        let mut ended = None;
        for k in 0..MAX_REPLY_LINES + 10 {
            if let Some(e) = f.line("x") {
                ended = Some((k, e));
                break;
            }
        }
        match ended {
            Some((k, Event::TooLong(_))) => assert_eq!(k + 1, MAX_REPLY_LINES),
            other => panic!("an endless reply must end: {other:?}"),
        }
        // Long lines reach the byte limit long before the line limit.
        let mut f = Framer::default();
        let long = "y".repeat(60_000);
        assert!(f.line("=2").is_none());
        let n = (0..100).position(|_| f.line(&long).is_some());
        assert_eq!(n, Some(MAX_REPLY_BYTES / 60_001));
    }

    #[test]
    fn shell_detection() {
        assert!(!needs_shell("./tabula --flag"));
        assert!(needs_shell("cd x && ./tabula"));
        assert!(needs_shell("tabula 2>/dev/null"));
    }
}
