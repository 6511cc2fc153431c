//! Ctrl-C during a match: the first one stops new games from starting and
//! lets the games under way finish, so the report and record still come
//! out; a second one ends the program at once.
//!
//! Engines run in process groups of their own, so the terminal's SIGINT
//! reaches only the runner and never cuts an engine off mid-game.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether Ctrl-C was pressed since [`Guard::install`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

#[cfg(unix)]
extern "C" fn on_sigint(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::Relaxed);
    // SAFETY: signal(2) is async-signal-safe; the next Ctrl-C gets the
    // default action (terminate).
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}

/// Catches Ctrl-C while it lives; restores the previous handler on drop.
pub struct Guard {
    #[cfg(unix)]
    previous: libc::sighandler_t,
}

impl Guard {
    /// Installs the handler.
    pub fn install() -> Guard {
        INTERRUPTED.store(false, Ordering::Relaxed);
        #[cfg(unix)]
        {
            let handler = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
            // SAFETY: installs a handler that only touches an atomic and
            // calls signal(2), both async-signal-safe.
            let previous = unsafe { libc::signal(libc::SIGINT, handler) };
            Guard { previous }
        }
        #[cfg(not(unix))]
        Guard {}
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        #[cfg(unix)]
        // SAFETY: puts back the handler that was there before.
        unsafe {
            libc::signal(libc::SIGINT, self.previous);
        }
    }
}
