//! The games, one module each, and the registry that names them.
//!
//! The registry is a pure descriptor (name, GTP names, summary, options)
//! plus a generic visitor: [`visit`] finds a game by name, checks its
//! options, and calls [`GameVisitor::visit`] with the game's type, so the
//! engine, the match runner and perft each build what they need from it,
//! monomorphised, and the registry imports nothing above the game model.
//!
//! Adding a game is its file plus one line in the [`registry!`] list at
//! the bottom of this file (the line declares the module too, and names
//! the game's [`Extras`] if it has any: an exact solver, protocol
//! conventions); the engine, the match runner, perft and the conformance
//! suite (`tests/conformance.rs`) pick it up from there.

pub mod cards;

use std::any::Any;

use crate::extras::Extras;
use crate::game::Game;
use crate::options::{OptionError, OptionSpec, Options};

/// What the engine, the match runner or a tool builds from a game type.
pub trait GameVisitor {
    /// What it builds.
    type Output;
    /// Builds it for game `G`, opened with the validated `options`.
    fn visit<G: Game>(self, options: &Options) -> Self::Output;
}

/// A registered game as the registry sees it: its descriptor, and how to
/// reach its type. Most games are one type (every [`Game`] is its own
/// family); a family such as Quoridor picks its type from the options.
pub trait GameFamily {
    /// The name used by `game <name>`.
    const NAME: &'static str;
    /// One line for `list_games verbose`.
    const SUMMARY: &'static str;
    /// The options it accepts.
    const OPTIONS: &'static [OptionSpec];
    /// Calls `visitor` with the game type that `options` select.
    fn visit<V: GameVisitor>(options: &Options, visitor: V) -> V::Output;
}

impl<G: Game> GameFamily for G {
    const NAME: &'static str = G::NAME;
    const SUMMARY: &'static str = G::SUMMARY;
    const OPTIONS: &'static [OptionSpec] = G::OPTIONS;
    fn visit<V: GameVisitor>(options: &Options, visitor: V) -> V::Output {
        visitor.visit::<G>(options)
    }
}

/// One registered game, described.
#[derive(Debug)]
pub struct GameEntry {
    /// The name used by `game <name>`.
    pub name: &'static str,
    /// The names GTP tools use (`list_games`, `set_game`), the first as
    /// `list_games` prints it; matched case-insensitively, `-` ignored.
    pub gtp_names: &'static [&'static str],
    /// One line for `list_games verbose`.
    pub summary: &'static str,
    /// The options it accepts.
    pub options: &'static [OptionSpec],
}

impl GameEntry {
    /// Parses `key=value` words against this game's options and calls
    /// `visitor` with the game type they select.
    pub fn visit<S: AsRef<str>, V: GameVisitor>(
        &'static self,
        words: &[S],
        visitor: V,
    ) -> Result<V::Output, OptionError> {
        let options = Options::parse(self.options, words)?;
        self.visit_with(&options, visitor)
    }

    /// Calls `visitor` with the game type that validated `options` select.
    pub fn visit_with<V: GameVisitor>(
        &'static self,
        options: &Options,
        visitor: V,
    ) -> Result<V::Output, OptionError> {
        dispatch(self.name, options, visitor)
            .ok_or_else(|| OptionError::Invalid(format!("{} is not registered", self.name)))
    }
}

/// Declares the registered games once: each game's module (`module::Type`
/// names the file and the type), the [`Extras`] it declares if any (`with
/// module::CONST`), the descriptor list [`GAMES`], the name-to-type
/// dispatch behind [`GameEntry::visit`] and the lookup [`extras`].
macro_rules! registry {
    ($($module:ident :: $type:ident $(with $extras:path)? => $gtp_names:expr),+ $(,)?) => {
        $(pub mod $module;)+

        /// Every game the engine plays, the default first.
        pub static GAMES: &[GameEntry] = &[$(GameEntry {
            name: <$module::$type as GameFamily>::NAME,
            gtp_names: $gtp_names,
            summary: <$module::$type as GameFamily>::SUMMARY,
            options: <$module::$type as GameFamily>::OPTIONS,
        }),+];

        fn dispatch<V: GameVisitor>(name: &str, options: &Options, visitor: V) -> Option<V::Output> {
            $(if name == <$module::$type as GameFamily>::NAME {
                return Some(<$module::$type as GameFamily>::visit(options, visitor));
            })+
            None
        }

        /// The extras game type `G` declares on its registry line
        /// ([`Extras::NONE`] where it declares none): its exact solver and
        /// its protocol conventions. Monomorphised: for each `G` the type
        /// test is decided at compile time.
        pub fn extras<G: Game>() -> Extras<G> {
            $($(
                let declared: &dyn Any = &$extras;
                if let Some(extras) = declared.downcast_ref::<Extras<G>>() {
                    return *extras;
                }
            )?)+
            Extras::NONE
        }
    };
}

registry! {
    othello::Othello with othello::EXTRAS => &["Othello", "Reversi"],
    quoridor::QuoridorFamily => &["Quoridor"],
    hearts::Hearts => &["Hearts"],
    wizard::Wizard => &["Wizard"],
    ninetynine::NinetyNine => &["Ninety-Nine"],
}

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
