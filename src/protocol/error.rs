//! Why a dialect refuses a line ([`ProtocolError`]): one type for every
//! dialect (GTP's GoGui and KGS extensions, NBoard, UGI), each kind with
//! the message the client is shown (GTP's `? <message>`, NBoard's
//! `status tabula: <message>`, UGI's `info string error: <message>`).

use std::fmt;

use crate::engine::EngineError;

/// A line refused by a dialect, with the message the client reads.
#[derive(Clone, Debug, PartialEq)]
pub enum ProtocolError {
    /// The engine refused (a move, a position, a setting, a search).
    Engine(EngineError),
    /// A command the dialect does not know: `unknown command '<name>'`.
    UnknownCommand(String),
    /// A word that is neither a command nor a move (NBoard 1.1 sent a
    /// move as the whole line): the word and why it is no move.
    NeitherCommandNorMove {
        /// The word.
        word: String,
        /// Why it is no move.
        why: Box<ProtocolError>,
    },
    /// A setting or parameter the dialect does not know: what it is
    /// (`setting`, `go parameter`) and its name.
    Unknown {
        /// What kind of name it is.
        what: &'static str,
        /// The name given.
        name: String,
    },
    /// A command's arguments not in its form: `usage: <form>`.
    Usage(String),
    /// A command's arguments not in its form, and what came instead:
    /// `usage: <form>, not '<given>'`.
    UsageNot {
        /// The form.
        usage: &'static str,
        /// The line given.
        given: String,
    },
    /// A value a parameter cannot take: `<what> <wants>, not '<given>'`
    /// (`depth must be from 1 to 60, not '0'`).
    BadValue {
        /// The parameter.
        what: String,
        /// What it takes.
        wants: String,
        /// The value given.
        given: String,
    },
    /// A parameter given without its value: `<what> needs a value`.
    MissingValue(String),
    /// A game record or position the dialect cannot read (a GGF game, a
    /// FEN): what is wrong with it.
    BadPosition(String),
    /// The game is over: nothing to search.
    GameOver,
    /// The dialect cannot serve the game in play (UGI: two seats only;
    /// GoGui: no board it can draw): why.
    UnsupportedGame(String),
    /// NBoard's protocol version other than 1 or 2.
    Version(String),
    /// A refusal told with what it left as it was (`position refused,
    /// game unchanged: ...`).
    Refused {
        /// What was refused and what stays.
        context: &'static str,
        /// Why.
        why: Box<ProtocolError>,
    },
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::Engine(e) => write!(f, "{e}"),
            ProtocolError::UnknownCommand(name) => write!(f, "unknown command '{name}'"),
            ProtocolError::NeitherCommandNorMove { word, why } => {
                write!(f, "unknown command or bad move '{word}': {why}")
            }
            ProtocolError::Unknown { what, name } => write!(f, "unknown {what} '{name}'"),
            ProtocolError::Usage(form) => write!(f, "usage: {form}"),
            ProtocolError::UsageNot { usage, given } => write!(f, "usage: {usage}, not '{given}'"),
            ProtocolError::BadValue { what, wants, given } => {
                write!(f, "{what} {wants}, not '{given}'")
            }
            ProtocolError::MissingValue(what) => write!(f, "{what} needs a value"),
            ProtocolError::BadPosition(why) => write!(f, "{why}"),
            ProtocolError::GameOver => write!(f, "the game is over"),
            ProtocolError::UnsupportedGame(why) => write!(f, "{why}"),
            ProtocolError::Version(v) => write!(f, "tabula speaks NBoard version 2, not '{v}'"),
            ProtocolError::Refused { context, why } => write!(f, "{context}: {why}"),
        }
    }
}

impl std::error::Error for ProtocolError {}

impl From<EngineError> for ProtocolError {
    fn from(e: EngineError) -> ProtocolError {
        ProtocolError::Engine(e)
    }
}

impl ProtocolError {
    /// A value refused: `<what> <wants>, not '<given>'`.
    pub fn bad_value(what: impl Into<String>, wants: impl Into<String>, given: &str) -> Self {
        ProtocolError::BadValue {
            what: what.into(),
            wants: wants.into(),
            given: given.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_messages_are_the_ones_clients_read() {
        let cases = [
            (
                ProtocolError::UnknownCommand("frob".into()),
                "unknown command 'frob'",
            ),
            (
                ProtocolError::UsageNot {
                    usage: "ping <number>",
                    given: "ping x".into(),
                },
                "usage: ping <number>, not 'ping x'",
            ),
            (
                ProtocolError::bad_value("depth", "must be from 1 to 60", "0"),
                "depth must be from 1 to 60, not '0'",
            ),
            (
                ProtocolError::Refused {
                    context: "position refused, game unchanged",
                    why: Box::new(ProtocolError::Usage("position startpos".into())),
                },
                "position refused, game unchanged: usage: position startpos",
            ),
            (ProtocolError::GameOver, "the game is over"),
        ];
        for (e, text) in cases {
            assert_eq!(e.to_string(), text);
        }
    }
}
