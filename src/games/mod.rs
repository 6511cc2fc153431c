//! The games, one module each, and the registry that maps names to them.
//!
//! Adding a game is its module plus one line in [`GAMES`].

pub mod cards;
pub mod hearts;
pub mod ninetynine;
pub mod othello;
pub mod quoridor;
pub mod wizard;

use crate::arena::{Referee, referee_for};
use crate::engine::{AnyGame, EngineError, Table};
use crate::game::Game;
use crate::options::{OptionError, OptionSpec, Options};
use crate::perft::{PerftResult, perft_game};

/// Perft of a game: options, position text, depth, divide.
pub type PerftFn = fn(&[String], Option<&str>, u32, bool) -> Result<PerftResult, EngineError>;

/// One registered game: its name, options, and the monomorphised entry
/// points the engine and the match runner reach it through.
pub struct GameEntry {
    /// The name used by `game <name>`.
    pub name: &'static str,
    /// The names GTP tools use (`list_games`, `set_game`), the first as
    /// `list_games` prints it; matched case-insensitively, `-` ignored.
    pub gtp_names: &'static [&'static str],
    /// One line for `list_games`.
    pub summary: &'static str,
    /// The options it accepts.
    pub options: &'static [OptionSpec],
    /// Opens a fresh game behind the engine's object-safe wrapper.
    pub open: fn(&Options) -> Result<Box<dyn AnyGame>, OptionError>,
    /// Perft from the start or a position, with game options.
    pub perft: PerftFn,
    /// The match runner's referee for this game.
    pub referee: fn(&Options) -> Result<Box<dyn Referee>, OptionError>,
}

impl GameEntry {
    /// Parses `key=value` words against this game's options and opens it.
    pub fn open_with<S: AsRef<str>>(&self, words: &[S]) -> Result<Box<dyn AnyGame>, OptionError> {
        let options = Options::parse(self.options, words)?;
        (self.open)(&options)
    }
}

fn open_table<G: Game>(options: &Options) -> Result<Box<dyn AnyGame>, OptionError> {
    Ok(Box::new(Table::new(G::new_game(options)?, options.clone())))
}

/// The registry entry of game `G`, known to GTP tools as `gtp_names`.
pub const fn entry<G: Game>(gtp_names: &'static [&'static str]) -> GameEntry {
    GameEntry {
        name: G::NAME,
        gtp_names,
        summary: G::SUMMARY,
        options: G::OPTIONS,
        open: open_table::<G>,
        perft: perft_game::<G>,
        referee: referee_for::<G>,
    }
}

/// Every game the engine plays, the default first.
pub static GAMES: &[GameEntry] = &[
    entry::<othello::Othello>(&["Othello", "Reversi"]),
    quoridor::ENTRY,
    entry::<hearts::Hearts>(&["Hearts"]),
    entry::<wizard::Wizard>(&["Wizard"]),
    entry::<ninetynine::NinetyNine>(&["Ninety-Nine"]),
];

/// The game registered under `name` (case-insensitive).
pub fn find(name: &str) -> Option<&'static GameEntry> {
    GAMES.iter().find(|g| g.name.eq_ignore_ascii_case(name))
}

/// The game a GTP tool names with `set_game`: its registry name or any of
/// its GTP names, case-insensitive, hyphens ignored (`Ninety-Nine`,
/// `ninetynine`, `reversi`).
pub fn find_gtp(name: &str) -> Option<&'static GameEntry> {
    let plain = |s: &str| s.replace('-', "").to_ascii_lowercase();
    let wanted = plain(name);
    GAMES
        .iter()
        .find(|g| plain(g.name) == wanted || g.gtp_names.iter().any(|n| plain(n) == wanted))
}

/// The names of all games, for error messages.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name).collect()
}
