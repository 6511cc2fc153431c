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
//! conventions, its pictures for a person) and a [`Listing`] `LISTING` in
//! its module (its GTP names, the options a page may set); the engine,
//! the match runner, perft, the page and the conformance suite
//! (`tests/conformance.rs`) pick it up from there.

pub mod cards;

use std::any::Any;

use crate::model::extras::Extras;
use crate::model::game::Game;
use crate::model::options::{OptionError, OptionKind, OptionSpec, Options};

/// What the engine, the match runner or a tool builds from a game type.
/// `'static`, so that a game added at run time ([`add`]) can be handed
/// the visitor through `Any`.
pub trait GameVisitor: 'static {
    /// What it builds.
    type Output: 'static;
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

/// What a game's module declares for its registry line beyond the
/// [`Game`] trait: how GTP tools and the page name and set it up.
#[derive(Debug)]
pub struct Listing {
    /// The names GTP tools use (`list_games`, `set_game`), the first as
    /// `list_games` prints it.
    pub gtp_names: &'static [&'static str],
    /// The options a page may set (never `seat`, `seed`, nor a file path
    /// such as Othello's `weights`).
    pub page_options: &'static [&'static str],
}

/// What a game is, asked of its type with given options: the facts the
/// edges (the page, the protocols) decide by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameTraits {
    /// The number of seats.
    pub seats: usize,
    /// Two players, one's gain the other's loss (alpha-beta applies).
    pub zero_sum: bool,
    /// Every seat sees the whole state.
    pub perfect_information: bool,
    /// It has an exact solver, whose values are margins in the game's
    /// own unit (Othello's discs).
    pub solver: bool,
    /// Its fixed board size, where GTP's `boardsize` may name it.
    pub board_size: Option<u32>,
}

/// The registry's visitor that reads a game's [`GameTraits`].
pub struct ReadTraits;

impl GameVisitor for ReadTraits {
    type Output = Result<GameTraits, OptionError>;
    fn visit<G: Game>(self, options: &Options) -> Self::Output {
        let seats = G::new_game(options)?.num_seats();
        let extras = extras::<G>();
        Ok(GameTraits {
            seats,
            zero_sum: G::TWO_PLAYER_ZERO_SUM && seats == 2,
            perfect_information: G::PERFECT_INFORMATION,
            solver: extras.solver.is_some(),
            board_size: extras.board_size,
        })
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
    /// The options a page may set ([`Listing::page_options`]).
    pub page_options: &'static [&'static str],
}

impl GameEntry {
    /// What the game is with option words `words` (seats, zero-sum,
    /// perfect information, solver).
    pub fn traits<S: AsRef<str>>(&'static self, words: &[S]) -> Result<GameTraits, OptionError> {
        self.visit(words, ReadTraits)?
    }

    /// The numbers of players its `players` option allows, the default
    /// first (just the game's own number where it has no such option).
    pub fn player_counts(&'static self) -> Vec<usize> {
        let Some(spec) = self.options.iter().find(|o| o.name == "players") else {
            return self
                .traits::<&str>(&[])
                .map_or_else(|_| Vec::new(), |t| vec![t.seats]);
        };
        let mut counts: Vec<usize> = match spec.kind {
            OptionKind::Int { min, max } => (min..=max)
                .filter_map(|n| usize::try_from(n).ok())
                .collect(),
            OptionKind::Choice(words) => words.iter().filter_map(|w| w.parse().ok()).collect(),
            _ => Vec::new(),
        };
        if let Some(i) = counts.iter().position(|n| n.to_string() == spec.default) {
            let default = counts.remove(i);
            counts.insert(0, default);
        }
        counts
    }

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
    ($($module:ident :: $type:ident $(with $($extras:path),+)?);+ $(;)?) => {
        $(pub mod $module;)+

        /// Every game the engine plays, the default first.
        pub static GAMES: &[GameEntry] = &[$(GameEntry {
            name: <$module::$type as GameFamily>::NAME,
            gtp_names: $module::LISTING.gtp_names,
            summary: <$module::$type as GameFamily>::SUMMARY,
            options: <$module::$type as GameFamily>::OPTIONS,
            page_options: $module::LISTING.page_options,
        }),+];

        fn dispatch<V: GameVisitor>(name: &str, options: &Options, visitor: V) -> Option<V::Output> {
            $(if name == <$module::$type as GameFamily>::NAME {
                return Some(<$module::$type as GameFamily>::visit(options, visitor));
            })+
            dispatch_added(name, options, visitor)
        }

        /// The extras game type `G` declares on its registry line
        /// ([`Extras::NONE`] where it declares none): its exact solver and
        /// its protocol conventions. Monomorphised: for each `G` the type
        /// test is decided at compile time.
        pub fn extras<G: Game>() -> Extras<G> {
            $($($(
                let declared: &dyn Any = &$extras;
                if let Some(extras) = declared.downcast_ref::<Extras<G>>() {
                    return *extras;
                }
            )+)?)+
            added_extras::<G>().unwrap_or(Extras::NONE)
        }
    };
}

registry! {
    othello::Othello with othello::EXTRAS;
    quoridor::QuoridorFamily with quoridor::EXTRAS_TWO, quoridor::EXTRAS_FOUR;
    hearts::Hearts with hearts::EXTRAS;
    wizard::Wizard with wizard::EXTRAS;
    ninetynine::NinetyNine with ninetynine::EXTRAS;
}

/// The default game (the first registered): what `tabula match` plays
/// when no game is named.
pub fn default_game() -> &'static GameEntry {
    &GAMES[0]
}

/// A game added at run time, its type reached through `Any`: it calls
/// the visitor in the box (one of the crate's, which it downcasts) with
/// the game's type and boxes what it builds; `None` for a visitor it does
/// not serve. `crate::added_games::register` builds one for a game type.
pub type ErasedVisit = fn(&Options, Box<dyn Any>) -> Option<Box<dyn Any>>;

/// A game added at run time: its entry, how to reach its type, and the
/// [`Extras`] it declares (an `Extras<G>` of its type), if any.
struct Added {
    entry: &'static GameEntry,
    visit: ErasedVisit,
    extras: Option<&'static (dyn Any + Send + Sync)>,
}

/// The extras a game added at run time declared for type `G`.
fn added_extras<G: Game>() -> Option<Extras<G>> {
    added()
        .iter()
        .find_map(|a| a.extras?.downcast_ref::<Extras<G>>().copied())
}

/// The games added at run time ([`add`]), after [`GAMES`].
static ADDED: std::sync::RwLock<Vec<Added>> = std::sync::RwLock::new(Vec::new());

fn added() -> std::sync::RwLockReadGuard<'static, Vec<Added>> {
    ADDED.read().unwrap_or_else(|e| e.into_inner())
}

/// Why a game could not be added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddError(pub String);

impl std::fmt::Display for AddError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a game named '{}' is registered already", self.0)
    }
}

impl std::error::Error for AddError {}

/// Adds a game at run time (a game defined outside the crate, e.g. in a
/// test): `entry` describes it, `visit` reaches its type, `extras` (an
/// `Extras<G>` of that type) is what [`extras`] answers for it. Every
/// edge that asks the registry (the engine and its protocols, the match
/// runner, the page) serves it from then on.
pub fn add(
    entry: GameEntry,
    visit: ErasedVisit,
    extras: Option<Box<dyn Any + Send + Sync>>,
) -> Result<&'static GameEntry, AddError> {
    let mut list = ADDED.write().unwrap_or_else(|e| e.into_inner());
    if GAMES
        .iter()
        .chain(list.iter().map(|a| a.entry))
        .any(|g| g.name.eq_ignore_ascii_case(entry.name))
    {
        return Err(AddError(entry.name.to_string()));
    }
    let entry: &'static GameEntry = Box::leak(Box::new(entry));
    let extras = extras.map(|e| &*Box::leak(e));
    list.push(Added {
        entry,
        visit,
        extras,
    });
    Ok(entry)
}

/// Every game: the registered ones ([`GAMES`], the default first), then
/// those added at run time.
pub fn all() -> Vec<&'static GameEntry> {
    GAMES
        .iter()
        .chain(added().iter().map(|a| a.entry))
        .collect()
}

/// The entry of game type `G`, described by its [`Game`] consts and its
/// `listing` (for [`add`]).
pub fn entry_of<G: Game>(listing: &Listing) -> GameEntry {
    GameEntry {
        name: G::NAME,
        gtp_names: listing.gtp_names,
        summary: G::SUMMARY,
        options: G::OPTIONS,
        page_options: listing.page_options,
    }
}

/// Calls `visitor` with the type of the game added under `name`.
fn dispatch_added<V: GameVisitor>(name: &str, options: &Options, visitor: V) -> Option<V::Output> {
    let visit = added().iter().find(|a| a.entry.name == name)?.visit;
    let out = visit(options, Box::new(visitor))?;
    out.downcast::<V::Output>().ok().map(|b| *b)
}

/// The game registered under `name` (case-insensitive).
pub fn find(name: &str) -> Option<&'static GameEntry> {
    all()
        .into_iter()
        .find(|g| g.name.eq_ignore_ascii_case(name))
}

/// The game a GTP tool names with `set_game`: its registry name or any of
/// its GTP names, case-insensitive, hyphens ignored (`Ninety-Nine`,
/// `ninetynine`, `reversi`).
pub fn find_gtp(name: &str) -> Option<&'static GameEntry> {
    let plain = |s: &str| s.replace('-', "").to_ascii_lowercase();
    let wanted = plain(name);
    all()
        .into_iter()
        .find(|g| plain(g.name) == wanted || g.gtp_names.iter().any(|n| plain(n) == wanted))
}

/// The names of all games, for error messages.
pub fn names() -> Vec<&'static str> {
    all().iter().map(|g| g.name).collect()
}
