//! Ctrl-C during a match: the first one stops new games from starting and
//! lets the games under way finish, so the report and record still come
//! out; a second one ends the program at once (exit code 130).
//!
//! Built on `signal-hook`: the handlers only set atomic flags (or exit),
//! and are removed again when the match ends. Engines run in process
//! groups of their own, so the terminal's SIGINT reaches only the runner
//! and never cuts an engine off mid-game.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};

/// Set by the first Ctrl-C (shared with the signal handlers).
static INTERRUPTED: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// Whether Ctrl-C was pressed since [`Guard::install`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Catches Ctrl-C while it lives; removes its handlers on drop.
pub struct Guard {
    #[cfg(unix)]
    ids: Vec<signal_hook::SigId>,
}

impl Guard {
    /// Installs the handlers. If they cannot be installed, a warning is
    /// logged and Ctrl-C keeps its default action.
    pub fn install() -> Guard {
        INTERRUPTED.store(false, Ordering::Relaxed);
        #[cfg(unix)]
        {
            use signal_hook::consts::SIGINT;
            use signal_hook::flag;
            let flag = Arc::clone(&INTERRUPTED);
            // Order matters: the conditional exit looks at the flag
            // before the second handler sets it, so only a second
            // Ctrl-C exits.
            let ids = match flag::register_conditional_shutdown(SIGINT, 130, Arc::clone(&flag))
                .and_then(|a| flag::register(SIGINT, flag).map(|b| vec![a, b]))
            {
                Ok(ids) => ids,
                Err(e) => {
                    log::warn!("cannot catch Ctrl-C: {e}");
                    Vec::new()
                }
            };
            Guard { ids }
        }
        #[cfg(not(unix))]
        Guard {}
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        #[cfg(unix)]
        for id in self.ids.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}
