//! Start-up settings: the game and settings an engine process starts with,
//! from its command line (`--game`, `-o`, `--set`) and a settings file
//! (`--config FILE`), for GUIs and referees that can only name a program.
//!
//! A settings file holds one `KEY VALUE` a line; `#` starts a comment and
//! blank lines are skipped. `game NAME` chooses the game, `option KEY=VALUE`
//! gives it an option, and any other key is a setting, as `set KEY VALUE`
//! would send it. The command line is applied after the file, so a flag
//! overrides the file.

use std::fmt;
use std::path::{Path, PathBuf};

use super::Engine;
use super::error::EngineError;
use crate::files::input::{self, PeerFileError};

/// What an engine process is started with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Startup {
    /// The game to load (`None`: the default game, Othello).
    pub game: Option<String>,
    /// The game's options, `key=value`.
    pub options: Vec<String>,
    /// Settings, as `set KEY VALUE` pairs, in order.
    pub settings: Vec<(String, String)>,
}

/// Why start-up settings were refused.
#[derive(Debug)]
pub enum StartupError {
    /// The settings file could not be read: not a regular file (a FIFO,
    /// a device), larger than [`input::SETTINGS`] allows, not text,
    /// or an error of the file system.
    Read(PeerFileError),
    /// A line of the settings file is not `KEY VALUE`.
    Line {
        /// The settings file.
        path: PathBuf,
        /// The line's number, from 1.
        line: usize,
        /// The line as read.
        text: String,
    },
    /// An `-o`/`option` word is not `key=value`.
    Option(String),
    /// A `--set` word is not `KEY=VALUE`.
    Set(String),
    /// The engine refused the game, an option or a setting.
    Engine {
        /// What was refused, as the user wrote it.
        what: String,
        /// The engine's reason.
        error: EngineError,
    },
}

impl fmt::Display for StartupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartupError::Read(e) => write!(f, "{e}"),
            StartupError::Line { path, line, text } => write!(
                f,
                "{}:{line}: expected `KEY VALUE` (e.g. `search alphabeta`), not '{text}'",
                path.display()
            ),
            StartupError::Option(w) => write!(f, "-o takes key=value (e.g. size=11), not '{w}'"),
            StartupError::Set(w) => {
                write!(
                    f,
                    "--set takes KEY=VALUE (e.g. search=alphabeta), not '{w}'"
                )
            }
            StartupError::Engine { what, error } => write!(f, "{what}: {error}"),
        }
    }
}

impl std::error::Error for StartupError {}

impl Startup {
    /// Reads a settings file into these settings (its lines come before
    /// any added later), through the one reader of named files
    /// ([`peer_file`]): a regular file of at most 1 MiB, its type checked
    /// before it is opened (a FIFO or a device never blocks the start).
    pub fn read_config(&mut self, path: &Path) -> Result<(), StartupError> {
        let text =
            input::read_text(path, &input::SETTINGS, &input::never).map_err(StartupError::Read)?;
        self.parse_config(path, &text)
    }

    /// Adds the lines of a settings file's text.
    pub fn parse_config(&mut self, path: &Path, text: &str) -> Result<(), StartupError> {
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let bad = || StartupError::Line {
                path: path.to_path_buf(),
                line: i + 1,
                text: line.to_string(),
            };
            let (key, value) = line
                .split_once(char::is_whitespace)
                .map(|(k, v)| (k.trim(), v.trim()))
                .filter(|(_, v)| !v.is_empty())
                .ok_or_else(bad)?;
            match key {
                "game" => self.game = Some(value.to_string()),
                "option" => self.add_option(value)?,
                _ => self.settings.push((key.to_string(), value.to_string())),
            }
        }
        Ok(())
    }

    /// Adds a game option, `key=value`.
    pub fn add_option(&mut self, word: &str) -> Result<(), StartupError> {
        match word.split_once('=') {
            Some((k, v)) if !k.is_empty() && !v.is_empty() && !word.contains(' ') => {
                self.options.push(word.to_string());
                Ok(())
            }
            _ => Err(StartupError::Option(word.to_string())),
        }
    }

    /// Adds a setting, `KEY=VALUE`.
    pub fn add_setting(&mut self, word: &str) -> Result<(), StartupError> {
        match word.split_once('=') {
            Some((k, v)) if !k.is_empty() && !v.trim().is_empty() => {
                self.settings
                    .push((k.trim().to_string(), v.trim().to_string()));
                Ok(())
            }
            _ => Err(StartupError::Set(word.to_string())),
        }
    }

    /// Applies the settings, in order, then loads the game (with its
    /// options): settings chosen by name hold in every game, and a game
    /// that moves at once (human-seat mode) moves under them. The first
    /// refusal stops and is returned.
    pub fn apply(&self, engine: &mut Engine) -> Result<(), StartupError> {
        for (key, value) in &self.settings {
            engine
                .set(key, value)
                .map_err(|error| StartupError::Engine {
                    what: format!("set {key} {value}"),
                    error,
                })?;
        }
        if self.game.is_some() || !self.options.is_empty() {
            let name = match &self.game {
                Some(name) => name.clone(),
                None => engine.game().name().to_string(),
            };
            engine
                .load_game(&name, &self.options)
                .or_else(|e| match e {
                    // A GTP tool's name for the game (`Reversi`) works too.
                    EngineError::UnknownGame(_) if self.options.is_empty() => {
                        engine.set_game(&name)
                    }
                    e => Err(e),
                })
                .map_err(|error| StartupError::Engine {
                    what: format!("game {name}"),
                    error,
                })?;
        }
        // The evaluation, ready before the first search asks for it.
        engine.prepare_eval().map_err(|error| StartupError::Engine {
            what: "eval".to_string(),
            error,
        })
    }
}
