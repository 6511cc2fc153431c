//! The protocols: the command grammar ([`command`]), the reader thread
//! ([`input`]) and the GTP session loop ([`session`]), and the other
//! dialects a GUI or runner may speak over the same engine facade: NBoard
//! ([`nboard`]), UGI ([`ugi`]) and GTP's hyphenated extensions
//! ([`gogui`], [`kgs`]). Parsing and formatting only; the engine facade
//! does the work.

pub mod command;
pub mod gogui;
pub mod info;
pub mod input;
pub mod kgs;
pub mod nboard;
mod replay;
pub(crate) mod session;
pub mod ugi;

pub use session::{SessionEnd, banner, run, run_protocol};

/// The dialect a session speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Protocol {
    /// GTP and tabula's extensions (the default); a first line `nboard 2`
    /// or `ugi` switches to that protocol.
    #[default]
    Gtp,
    /// NBoard (version 2), as the NBoard GUI speaks to Edax and NTest.
    Nboard,
    /// UGI, as the cutegames runner speaks it.
    Ugi,
}

impl Protocol {
    /// The protocol named on the command line (`--protocol NAME`).
    pub fn from_name(name: &str) -> Option<Protocol> {
        match name.to_ascii_lowercase().as_str() {
            "gtp" => Some(Protocol::Gtp),
            "nboard" => Some(Protocol::Nboard),
            "ugi" => Some(Protocol::Ugi),
            _ => None,
        }
    }

    /// The protocol a session's first line enters, if it is one's opening
    /// (`nboard 2`, `ugi`).
    pub fn entered_by(line: &str) -> Option<Protocol> {
        match line.split_whitespace().next()? {
            "nboard" => Some(Protocol::Nboard),
            "ugi" => Some(Protocol::Ugi),
            _ => None,
        }
    }

    /// Whether a line of this protocol stops the command running before
    /// it (NBoard's `ping`, UGI's `stop`; `quit` in both).
    pub(crate) fn stops(self, line: &str) -> bool {
        let word = line.split_whitespace().next().unwrap_or("");
        match self {
            Protocol::Gtp => false,
            Protocol::Nboard => matches!(word, "ping" | "quit"),
            Protocol::Ugi => matches!(word, "stop" | "quit"),
        }
    }
}
