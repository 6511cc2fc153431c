//! Why a match (or a merge) could not run.

use std::fmt;
use std::path::PathBuf;

use crate::arena::engines::process;
use crate::arena::ground::config_error::ConfigError;
use crate::arena::ground::referee::RefereeError;
use crate::arena::output::record_writer::OpenError;
use crate::arena::record::match_file::RecordError;
use crate::arena::stats::sprt::SprtError;
use crate::files::output;
use crate::model::options::OptionError;

/// Why a match could not run.
#[derive(Debug)]
pub enum ArenaError {
    /// A mistake on the command line.
    Config(ConfigError),
    /// The game is not known.
    UnknownGame(String),
    /// The game's options were refused.
    Options(OptionError),
    /// Bad SPRT parameters.
    Sprt(SprtError),
    /// A record could not be read, written or merged.
    Record(RecordError),
    /// An engine failed its check before the first game.
    EngineCheck {
        /// The engine's name.
        engine: String,
        /// Its command.
        command: String,
        /// What went wrong.
        error: process::ProcessError,
    },
    /// An output path cannot be written (checked before the first game).
    Output(output::OutputError),
    /// A file (chart) could not be written.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::Config(e) => write!(f, "{e}"),
            ArenaError::UnknownGame(name) => write!(f, "unknown game '{name}'"),
            ArenaError::Options(e) => write!(f, "{e}"),
            ArenaError::Sprt(e) => write!(f, "{e}"),
            ArenaError::Record(e) => write!(f, "{e}"),
            ArenaError::Output(e) => write!(f, "cannot write {e}"),
            ArenaError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            ArenaError::EngineCheck {
                engine,
                command,
                error,
            } => {
                write!(
                    f,
                    "engine {engine} failed its check before the first game: {error}"
                )?;
                if matches!(error, process::ProcessError::Spawn { .. }) {
                    let program = command.split_whitespace().next().unwrap_or("");
                    write!(
                        f,
                        " (is '{program}' on PATH? `cargo install --locked --path .` puts tabula there; \
                         or give the path of the build, e.g. cmd=./target/release/tabula)"
                    )?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ArenaError {}

impl From<ConfigError> for ArenaError {
    fn from(e: ConfigError) -> Self {
        ArenaError::Config(e)
    }
}

impl From<OpenError> for ArenaError {
    fn from(e: OpenError) -> Self {
        match e {
            OpenError::Path(e) => ArenaError::Output(e),
            OpenError::Header(e) => ArenaError::Record(e),
        }
    }
}

impl From<RefereeError> for ArenaError {
    fn from(e: RefereeError) -> Self {
        match e {
            RefereeError::UnknownGame(name) => ArenaError::UnknownGame(name),
            RefereeError::Options(e) => ArenaError::Options(e),
        }
    }
}

impl From<OptionError> for ArenaError {
    fn from(e: OptionError) -> Self {
        ArenaError::Options(e)
    }
}

impl From<RecordError> for ArenaError {
    fn from(e: RecordError) -> Self {
        ArenaError::Record(e)
    }
}

impl From<SprtError> for ArenaError {
    fn from(e: SprtError) -> Self {
        ArenaError::Sprt(e)
    }
}
