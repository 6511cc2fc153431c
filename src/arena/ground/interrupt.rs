//! Signals during a match.
//!
//! The first Ctrl-C (SIGINT) stops new games from starting and lets the
//! games under way finish, so the report and record still come out. A
//! second Ctrl-C, a SIGTERM, a SIGHUP (the terminal closed, `kill`, a
//! scheduler's stop) or a SIGQUIT (Ctrl-\\) end the match at once: every engine process group
//! the runner started is killed (an engine that does not read its input
//! would otherwise never notice that its runner is gone), the record gets
//! a closing line after its last finished game, stray temporary files are
//! removed, and the runner exits with 128 + the signal's number (130,
//! 143, 129, 131). A runner killed outright (SIGKILL) cannot act: its
//! engines get SIGKILL from the kernel instead (see [`crate::arena::engines::process`]).
//!
//! This file names no other room: what a signal does to the record, the
//! engines and the temporary files is what those rooms register here
//! ([`on_stop`] for a running match's files, [`at_stop`] for what must be
//! done whatever else is busy).
//!
//! Built on `signal-hook`: the handlers only queue the signal; a thread of
//! this module, started with the first match and kept, does the work
//! (outside a match every one of these signals ends the runner at once). Engines run in process groups of their own, so the
//! terminal's SIGINT reaches only the runner and never cuts an engine off
//! mid-game.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex, OnceLock, TryLockError};

/// Set by the first Ctrl-C (shared with the signal thread).
static INTERRUPTED: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// What to do with the match's files when a signal ends the runner: each
/// hook gets the signal's name (and may wait, briefly, for a write under
/// way).
type StopHook = Box<dyn Fn(&str) + Send + Sync>;

static STOP_HOOKS: Mutex<Vec<(u64, StopHook)>> = Mutex::new(Vec::new());

static NEXT_HOOK: AtomicU64 = AtomicU64::new(1);

/// What a signal that ends the runner does after the hooks, whatever else
/// is busy, in the order registered, each once by its name.
static LAST_HOOKS: Mutex<Vec<LastHook>> = Mutex::new(Vec::new());

/// A cleanup of [`at_stop`] with its name.
type LastHook = (&'static str, fn());

/// Registers `cleanup` (by `name`: a second registration of a name
/// changes nothing) to run on the signal thread, after the hooks of
/// [`on_stop`], whenever a signal ends the runner from now on. Unlike
/// those hooks it is never skipped for a busy lock: the engines are ended
/// and the temporary files removed this way.
pub fn at_stop(name: &'static str, cleanup: fn()) {
    let mut hooks = LAST_HOOKS.lock().unwrap_or_else(|e| e.into_inner());
    if !hooks.iter().any(|(n, _)| *n == name) {
        hooks.push((name, cleanup));
    }
}

/// Set when a signal ends the runner: nothing more is recorded or said.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// Whether a signal is ending the runner now.
pub fn stopping() -> bool {
    STOPPING.load(Ordering::SeqCst)
}

/// When a signal is ending the runner, waits (for ever: the signal thread
/// exits the process) instead of going on to print a report of a match
/// whose engines were killed.
pub fn wait_if_stopping() {
    while stopping() {
        std::thread::park();
    }
}

/// Whether Ctrl-C was pressed since [`Guard::install`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// A hook run when a signal ends the runner, removed when dropped.
pub struct StopHookGuard(u64);

/// Registers `hook` to run (on the signal thread) before the runner exits
/// on a signal.
pub fn on_stop(hook: impl Fn(&str) + Send + Sync + 'static) -> StopHookGuard {
    let id = NEXT_HOOK.fetch_add(1, Ordering::Relaxed);
    STOP_HOOKS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((id, Box::new(hook)));
    StopHookGuard(id)
}

impl Drop for StopHookGuard {
    fn drop(&mut self) {
        STOP_HOOKS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|(id, _)| *id != self.0);
    }
}

/// Ends the runner now: the hooks of [`on_stop`] (the record closed), then
/// those of [`at_stop`] (every engine ended, none may outlive the runner;
/// temporary files removed), then the exit with `128 + signal`.
pub fn stop_now(signal: i32, name: &str) -> ! {
    STOPPING.store(true, Ordering::SeqCst);
    // The files first, closed after the last game written, so that the
    // games the engines' deaths would end are not recorded as forfeits.
    // Hooks that are busy (a lock held by a thread that will never run
    // again) are skipped rather than waited for for ever.
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(300);
    loop {
        let hooks = match STOP_HOOKS.try_lock() {
            Ok(hooks) => Ok(hooks),
            Err(TryLockError::Poisoned(e)) => Ok(e.into_inner()),
            Err(TryLockError::WouldBlock) => Err(()),
        };
        match hooks {
            Ok(hooks) => {
                for (_, hook) in hooks.iter() {
                    hook(name);
                }
                break;
            }
            Err(()) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            Err(()) => break,
        }
    }
    let last: Vec<fn()> = LAST_HOOKS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .map(|&(_, cleanup)| cleanup)
        .collect();
    for cleanup in last {
        cleanup();
    }
    crate::arena::ground::progress::eprint_line(&format!(
        "tabula match: stopped by {name}; no engine is left running, and the record (if any) \
         holds every game finished"
    ));
    std::process::exit(128 + signal)
}

/// Matches running now (their [`Guard`]s alive).
static ACTIVE: AtomicUsize = AtomicUsize::new(0);

/// Whether the signal thread runs (it is started once and stays: removing
/// signal-hook's handlers would leave these signals ignored, not restore
/// their default actions).
static WATCHING: OnceLock<bool> = OnceLock::new();

/// Starts the thread that acts on SIGINT, SIGTERM and SIGHUP; whether it
/// runs.
pub fn watch() -> bool {
    *WATCHING.get_or_init(|| {
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
            let mut signals =
                match signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP, SIGQUIT]) {
                    Ok(s) => s,
                    Err(e) => {
                        log::warn!("cannot catch Ctrl-C, SIGTERM, SIGHUP and SIGQUIT: {e}");
                        return false;
                    }
                };
            let flag = Arc::clone(&INTERRUPTED);
            let thread = std::thread::Builder::new()
                .name("match signals".to_string())
                .spawn(move || {
                    for signal in signals.forever() {
                        let active = ACTIVE.load(Ordering::SeqCst) > 0;
                        match signal {
                            // The first Ctrl-C of a match: finish the games
                            // under way.
                            SIGINT if active && !flag.swap(true, Ordering::SeqCst) => {}
                            SIGINT if active => stop_now(signal, "a second Ctrl-C"),
                            SIGINT => stop_now(signal, "Ctrl-C"),
                            SIGTERM => stop_now(signal, "SIGTERM"),
                            SIGHUP => stop_now(signal, "SIGHUP"),
                            SIGQUIT => stop_now(signal, "SIGQUIT"),
                            _ => {}
                        }
                    }
                });
            match thread {
                Ok(_) => true,
                Err(e) => {
                    log::warn!("cannot watch for signals: {e}");
                    false
                }
            }
        }
        #[cfg(not(unix))]
        false
    })
}

/// Catches the signals as described above while it lives.
pub struct Guard(());

impl Guard {
    /// Makes the signals act on the match. If they cannot be caught, a
    /// warning is logged and they keep their default actions.
    pub fn install() -> Guard {
        INTERRUPTED.store(false, Ordering::SeqCst);
        watch();
        ACTIVE.fetch_add(1, Ordering::SeqCst);
        Guard(())
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        ACTIVE.fetch_sub(1, Ordering::SeqCst);
    }
}
