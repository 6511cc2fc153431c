//! Which dialect a session speaks ([`Protocol`]), and the words of each
//! that act on the command running before them. A leaf: the reader, the
//! hub and the dialects read it; it reads only the GTP grammar.

use crate::protocol::command::{Command, parse_line};

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

    /// Whether a line of this protocol stops the command before it
    /// (NBoard's `ping`, UGI's `stop`; `quit` in both), whether that
    /// command is queued, running or done.
    pub(crate) fn stops(self, line: &str) -> bool {
        let word = line.split_whitespace().next().unwrap_or("");
        match self {
            Protocol::Gtp => false,
            Protocol::Nboard => matches!(word, "ping" | "quit"),
            Protocol::Ugi => matches!(word, "stop" | "quit"),
        }
    }

    /// Whether a line is answered where it stands and leaves the command
    /// before it alone, so that a `stop` after it still stops that one
    /// (UGI's `isready`, answered at once even mid-search).
    pub(crate) fn transparent(self, line: &str) -> bool {
        self == Protocol::Ugi && line.split_whitespace().next() == Some("isready")
    }

    /// What a line that arrives while a search runs does to it (see
    /// [`During`]).
    pub(crate) fn during_search(self, line: &str) -> During {
        let word = line.split_whitespace().next().unwrap_or("");
        match self {
            Protocol::Gtp => match parse_line(line).command {
                Ok(
                    Command::Play(_)
                    | Command::SetBoard(_)
                    | Command::ClearBoard
                    | Command::Undo
                    | Command::BoardSize(_)
                    | Command::Game { .. }
                    | Command::SetGame(_)
                    | Command::Deal(_)
                    | Command::Set { .. }
                    | Command::Quit,
                ) => During::Changes,
                Ok(Command::Stop) => During::Stops,
                _ => During::Waits,
            },
            Protocol::Nboard => match word {
                "set" | "move" | "quit" => During::Changes,
                // A ping is answered ahead of the lines before it: NBoard
                // sends one after each change of state and reads what
                // the engine sends before its pong as stale, so the
                // search it stops says nothing more. Its `status` closes
                // the search's `status tabula is thinking`.
                "ping" => match line.split_whitespace().nth(1).map(str::parse::<u64>) {
                    Some(Ok(n)) if line.split_whitespace().nth(2).is_none() => {
                        During::Supersedes(format!("status\npong {n}"))
                    }
                    _ => During::Stops,
                },
                // NBoard 1.1's bare move (`F5`).
                w if w.len() == 2 && line.split_whitespace().nth(1).is_none() => During::Changes,
                _ => During::Waits,
            },
            Protocol::Ugi => match word {
                "position" | "uginewgame" | "setoption" | "quit" => During::Changes,
                "isready" => During::Answered("readyok"),
                "stop" => During::Stops,
                _ => During::Waits,
            },
        }
    }
}

/// What a line read while a search runs does to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum During {
    /// It changes the state the search is for (a new game, position,
    /// move, setting, or `quit`): it stops the search, and takes effect
    /// after it, in order.
    Changes,
    /// It stops the search, which answers as the protocol has it for a
    /// stopped search (`ping`, `stop`), and is run after it.
    Stops,
    /// It is answered at once with this line, the search running on,
    /// where no line waits before it; else it waits its turn (UGI's
    /// `isready`, whose answer says every line before it is processed).
    Answered(&'static str),
    /// It stops the search and supersedes it, and is answered at once
    /// with these lines, ahead of the lines kept before it: the search
    /// then writes nothing more (NBoard's `ping`, whose `pong` need not
    /// wait for the search's threads to wind down on a busy machine).
    Supersedes(String),
    /// It waits its turn (a request, a query).
    Waits,
}
