//! Engine settings (`set <name> <value>`, `get <name>`), described by a
//! table so that parsing, listing and help never drift apart.

use std::fmt;

/// The search algorithms, by their protocol names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchKind {
    /// A uniformly random legal move.
    Random,
    /// The game's rule-based baseline player.
    Rules,
    /// Alpha-beta with iterative deepening and a transposition table.
    AlphaBeta,
    /// UCT: Monte Carlo tree search with UCB1 selection.
    Mcts,
    /// Flat Monte Carlo: playouts spread evenly over the first moves.
    Flat,
    /// Flat Monte Carlo with heuristic playouts.
    Heuristic,
    /// UCB1 over the first moves, heuristic playouts.
    Ucb1,
    /// Recursive UCB1 to a depth, then heuristic playouts.
    Rucb1,
    /// Determinized search: sample the hidden cards, search each sample, vote.
    Pimc,
    /// Information-set MCTS.
    Ismcts,
    /// Exact solver, where the game has one.
    Solve,
}

impl SearchKind {
    /// Every search, in the order `list` shows them.
    pub const ALL: [SearchKind; 11] = [
        SearchKind::Random,
        SearchKind::Rules,
        SearchKind::AlphaBeta,
        SearchKind::Mcts,
        SearchKind::Flat,
        SearchKind::Heuristic,
        SearchKind::Ucb1,
        SearchKind::Rucb1,
        SearchKind::Pimc,
        SearchKind::Ismcts,
        SearchKind::Solve,
    ];

    /// The protocol name.
    pub fn name(self) -> &'static str {
        match self {
            SearchKind::Random => "random",
            SearchKind::Rules => "rules",
            SearchKind::AlphaBeta => "alphabeta",
            SearchKind::Mcts => "mcts",
            SearchKind::Flat => "flat",
            SearchKind::Heuristic => "heuristic",
            SearchKind::Ucb1 => "ucb1",
            SearchKind::Rucb1 => "rucb1",
            SearchKind::Pimc => "pimc",
            SearchKind::Ismcts => "ismcts",
            SearchKind::Solve => "solve",
        }
    }

    fn parse(text: &str) -> Option<SearchKind> {
        let t = text.to_ascii_lowercase();
        let t = match t.as_str() {
            "uct" => "mcts",
            "ab" | "minimax" => "alphabeta",
            other => other,
        };
        SearchKind::ALL.iter().copied().find(|k| k.name() == t)
    }
}

/// How a Monte Carlo search picks its move at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinalChoice {
    /// The most visited move (robust child).
    Visits,
    /// The best mean reward (as the seeds did).
    Mean,
}

/// The policy Monte Carlo playouts follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutPolicy {
    /// Uniformly random moves.
    Random,
    /// The heuristic policy: the shallow alpha-beta move with probability
    /// `epsilon_greedy`, a random move otherwise.
    Heuristic,
    /// `playout_cutoff` random plies, then the game's evaluation as a
    /// chance to win (to the end at random where the game has none).
    Eval,
}

/// What a depth budget asks of alpha-beta (the `selectivity` setting).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Selectivity {
    /// The depth's own minimax value, the same on any number of threads:
    /// no ProbCut, and the table answers only with entries of that depth.
    Exact,
    /// A selective search as under a clock (as Othello programs' levels
    /// are), ProbCut at `probcut_sigmas`.
    Clock,
    /// A selective search with ProbCut at this many sigmas.
    Sigmas(f64),
}

impl Selectivity {
    /// The ProbCut sigmas a depth budget searches with, given the clock's
    /// (`probcut_sigmas`); `None`: exact.
    pub fn sigmas(self, clock: f64) -> Option<f64> {
        match self {
            Selectivity::Exact => None,
            Selectivity::Clock => Some(clock),
            Selectivity::Sigmas(x) => Some(x),
        }
    }
}

/// Every engine setting.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Which algorithm `genmove` runs.
    pub search: SearchKind,
    /// Iterations per move (0 = no limit).
    pub iterations: u64,
    /// Milliseconds per move (0 = no limit).
    pub movetime: u64,
    /// Depth limit (0 = no limit).
    pub depth: u32,
    /// What a depth budget asks of alpha-beta (`selectivity`).
    pub selectivity: Selectivity,
    /// Seed of the session generator.
    pub seed: u64,
    /// UCB1 exploration constant.
    pub c: f64,
    /// How Monte Carlo searches choose their final move.
    pub final_choice: FinalChoice,
    /// The playout policy of `mcts` (the coursework players fix their own).
    pub playout: PlayoutPolicy,
    /// Probability that a heuristic playout takes the heuristic move.
    pub greedy: f64,
    /// Depth of the shallow alpha-beta inside heuristic playouts (1 or 2).
    pub playout_depth: u32,
    /// Random plies an `eval` playout plays before the evaluation scores it.
    pub playout_cutoff: u32,
    /// Chance that an `ismcts` or `pimc` playout move is the game's rule
    /// move (0 = uniformly random playouts).
    pub playout_rules: f64,
    /// The factor on `c` in `ismcts` (a game whose rewards crowd near 1/2
    /// wants less exploration).
    pub ismcts_c_scale: f64,
    /// The share by which Monte Carlo results move towards 1/2 per ply
    /// from the root to the playout's end (at most half the way).
    pub reward_decay: f64,
    /// The slope of the logistic that turns the evaluation into a chance
    /// to win at the cut of an `eval` playout; `None`: such playouts play
    /// to the end.
    pub eval_win_scale: Option<f64>,
    /// Alpha-beta sorts a node's moves by their evaluation from this many
    /// plies left (`None`: the game's move order).
    pub order_from: Option<u32>,
    /// Whether alpha-beta uses ProbCut (where the evaluation has a
    /// calibrated fit).
    pub probcut: bool,
    /// How many sigmas of the fit a ProbCut bound must be cleared by.
    pub probcut_sigmas: f64,
    /// Whether `genmove` plays from the game's opening book (where it has
    /// one and the position is in it) before it searches.
    pub book: bool,
    /// How far below the book's best value (in discs, the evaluation's
    /// unit times 64) a book move may be and still be drawn: matches stay
    /// varied.
    pub book_margin: f64,
    /// The evaluation the searches use: `default`, or a name or weight
    /// file the game knows (checked by the engine, which builds it).
    pub eval: String,
    /// Depth of the UCB1 tree of `rucb1`.
    pub rucb1_depth: u32,
    /// Search threads (MCTS, ISMCTS, PIMC, alpha-beta, the exact solver).
    pub threads: usize,
    /// Memory cap of Monte Carlo searches (trees, PIMC's samples), in MiB.
    pub memory: u64,
    /// Size of the alpha-beta transposition table, in MiB.
    pub hash: u64,
    /// Alpha-beta and MCTS switch to the exact solver at or below this
    /// reach (Othello: empty squares); 0 turns it off.
    pub solve_reach: u32,
    /// Milliseconds kept back from every time budget for I/O.
    pub overhead: u64,
    /// Whether a clock's moves may spend more than their share on a
    /// critical move and less on a settled one.
    pub timeman: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            search: SearchKind::Mcts,
            iterations: 0,
            movetime: 0,
            depth: 0,
            selectivity: Selectivity::Exact,
            seed: 0,
            c: std::f64::consts::SQRT_2,
            final_choice: FinalChoice::Visits,
            playout: PlayoutPolicy::Random,
            greedy: 0.9,
            playout_depth: 1,
            playout_cutoff: 0,
            playout_rules: 0.0,
            ismcts_c_scale: 1.0,
            reward_decay: 0.0,
            eval_win_scale: None,
            order_from: None,
            probcut: false,
            probcut_sigmas: 1.5,
            book: false,
            book_margin: 1.0,
            eval: "default".to_string(),
            rucb1_depth: 2,
            threads: 1,
            memory: 512,
            hash: 16,
            solve_reach: 0,
            overhead: 10,
            timeman: true,
        }
    }
}

/// Why a `set` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingError {
    /// No such setting; the list names them all.
    Unknown(String),
    /// The value does not fit; the message says what does.
    BadValue {
        /// The setting.
        name: &'static str,
        /// The value as given.
        value: String,
        /// What the setting accepts, in words.
        expected: &'static str,
    },
    /// More search threads than the cores this process may use: they would
    /// only take turns on the cores, and a `stop` would wait for each of
    /// them to be scheduled (up to most of a second at 256 threads on 2).
    TooManyThreads {
        /// The threads asked for.
        asked: usize,
        /// The cores this process may use.
        cores: usize,
    },
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingError::Unknown(n) => write!(
                f,
                "unknown setting '{n}'; settings: {}",
                SETTINGS
                    .iter()
                    .map(|s| s.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            SettingError::BadValue {
                name,
                value,
                expected,
            } => {
                write!(f, "bad value '{value}' for {name}: expected {expected}")
            }
            SettingError::TooManyThreads { asked, cores } => write!(
                f,
                "threads {asked} is more than the {cores} cores this process may use: \
                 at most {cores}"
            ),
        }
    }
}

impl std::error::Error for SettingError {}

/// One row of the settings table.
pub struct SettingSpec {
    /// The name in `set`/`get`.
    pub name: &'static str,
    /// What values it takes.
    pub expected: &'static str,
    /// One line of help.
    pub help: &'static str,
    set: fn(&mut Settings, &str) -> bool,
    get: fn(&Settings) -> String,
}

/// The cores this process may use (its CPU affinity and quota; 1 where the
/// system does not tell), read once.
pub fn available_cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn num<T: std::str::FromStr>(v: &str) -> Option<T> {
    v.parse().ok()
}

/// Sets `field` to `None` for `off`, else as [`set_within`] does.
fn set_within_or_off<T: std::str::FromStr + PartialOrd>(
    v: &str,
    range: std::ops::RangeInclusive<T>,
    field: &mut Option<T>,
) -> bool {
    if v == "off" {
        *field = None;
        return true;
    }
    in_range(v, range).map(|n| *field = Some(n)).is_some()
}

/// `on`/`true` or `off`/`false`.
fn on_off(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "on" | "true" => Some(true),
        "off" | "false" => Some(false),
        _ => None,
    }
}

/// Sets `field` to `v` if `v` is a number within `range`; whether it was.
fn set_within<T: std::str::FromStr + PartialOrd>(
    v: &str,
    range: std::ops::RangeInclusive<T>,
    field: &mut T,
) -> bool {
    in_range(v, range).map(|n| *field = n).is_some()
}

/// `v` as a number within `range`.
fn in_range<T: std::str::FromStr + PartialOrd>(
    v: &str,
    range: std::ops::RangeInclusive<T>,
) -> Option<T> {
    num(v).filter(|n| range.contains(n))
}

/// A row of [`SETTINGS`] whose value is one field of [`Settings`],
/// named once for both directions: a number `within` a range, any
/// `number` its type reads, or `on_off`. A macro, as a row's `set` and
/// `get` are plain functions and only code can name a field.
macro_rules! field_setting {
    (
        name: $name:expr,
        expected: $expected:expr,
        help: $help:expr,
        field: $field:ident $how:ident $($range:expr)? $(,)?
    ) => {
        SettingSpec {
            name: $name,
            expected: $expected,
            help: $help,
            set: |s, v| field_setting!(@set s.$field, v, $how $($range)?),
            get: |s| field_setting!(@get s.$field, $how),
        }
    };
    (@set $place:expr, $v:ident, within $range:expr) => {
        set_within($v, $range, &mut $place)
    };
    (@set $place:expr, $v:ident, number) => {
        num($v).map(|n| $place = n).is_some()
    };
    (@set $place:expr, $v:ident, on_off) => {
        on_off($v).map(|b| $place = b).is_some()
    };
    (@get $place:expr, on_off) => {
        if $place { "on" } else { "off" }.to_string()
    };
    (@get $place:expr, $number:ident) => {
        $place.to_string()
    };
}

/// The settings table.
pub static SETTINGS: &[SettingSpec] = &[
    SettingSpec {
        name: "search",
        expected: "random, rules, alphabeta, mcts, flat, heuristic, ucb1, rucb1, pimc, ismcts or solve",
        help: "the algorithm genmove runs",
        set: |s, v| SearchKind::parse(v).map(|k| s.search = k).is_some(),
        get: |s| s.search.name().to_string(),
    },
    field_setting! {
        name: "iterations",
        expected: "a whole number (0 = no limit)",
        help: "iterations per move: playouts, simulations, or alpha-beta nodes",
        field: iterations number,
    },
    field_setting! {
        name: "movetime",
        expected: "milliseconds (0 = no limit)",
        help: "time per move",
        field: movetime number,
    },
    field_setting! {
        name: "depth",
        expected: "plies (0 = no limit)",
        help: "depth limit of alpha-beta",
        field: depth number,
    },
    SettingSpec {
        name: "selectivity",
        expected: "exact, probcut, or a number of sigmas from 0 to 10",
        help: "what a depth budget asks of alpha-beta: exact (the depth's own minimax value, the same on any number of threads), or a selective search as under a clock, as Othello programs' levels are, with ProbCut where it is on at probcut_sigmas (probcut) or at the sigmas given",
        set: |s, v| {
            s.selectivity = match v.to_ascii_lowercase().as_str() {
                "exact" => Selectivity::Exact,
                "probcut" => Selectivity::Clock,
                n => match in_range(n, 0.0..=10.0) {
                    Some(x) => Selectivity::Sigmas(x),
                    None => return false,
                },
            };
            true
        },
        get: |s| match s.selectivity {
            Selectivity::Exact => "exact".to_string(),
            Selectivity::Clock => "probcut".to_string(),
            Selectivity::Sigmas(x) => format!("{x}"),
        },
    },
    field_setting! {
        name: "seed",
        expected: "a whole number",
        help: "reseeds the session generator (deals, playouts, random moves)",
        field: seed number,
    },
    field_setting! {
        name: "c",
        expected: "a number from 0 to 100",
        help: "UCB1 exploration constant",
        field: c within 0.0..=100.0,
    },
    SettingSpec {
        name: "final",
        expected: "visits or mean",
        help: "how Monte Carlo searches pick the move: most visits or best mean",
        set: |s, v| {
            match v {
                "visits" => Some(FinalChoice::Visits),
                "mean" => Some(FinalChoice::Mean),
                _ => None,
            }
            .map(|f| s.final_choice = f)
            .is_some()
        },
        get: |s| match s.final_choice {
            FinalChoice::Visits => "visits".into(),
            FinalChoice::Mean => "mean".into(),
        },
    },
    SettingSpec {
        name: "playout",
        expected: "random, heuristic or eval",
        help: "the playout policy of mcts",
        set: |s, v| {
            match v {
                "random" => Some(PlayoutPolicy::Random),
                "heuristic" => Some(PlayoutPolicy::Heuristic),
                "eval" => Some(PlayoutPolicy::Eval),
                _ => None,
            }
            .map(|p| s.playout = p)
            .is_some()
        },
        get: |s| match s.playout {
            PlayoutPolicy::Random => "random".into(),
            PlayoutPolicy::Heuristic => "heuristic".into(),
            PlayoutPolicy::Eval => "eval".into(),
        },
    },
    field_setting! {
        name: "greedy",
        expected: "a probability from 0 to 1",
        help: "chance that a heuristic playout takes the heuristic move",
        field: greedy within 0.0..=1.0,
    },
    field_setting! {
        name: "playout_depth",
        expected: "1 or 2",
        help: "depth of the alpha-beta that picks heuristic playout moves",
        field: playout_depth within 1..=2,
    },
    field_setting! {
        name: "playout_cutoff",
        expected: "plies from 0 to 1000",
        help: "random plies an eval playout plays before the evaluation scores it",
        field: playout_cutoff within 0..=1000,
    },
    SettingSpec {
        name: "playout_rules",
        expected: "a probability from 0 to 1, or auto",
        help: "chance that an ismcts or pimc playout move is the game's rule move (auto: the game's default)",
        set: |s, v| {
            // `auto` keeps the value the game's tuning row gave (the
            // engine lays the row under every chosen setting).
            v == "auto" || set_within(v, 0.0..=1.0, &mut s.playout_rules)
        },
        get: |s| format!("{}", s.playout_rules),
    },
    field_setting! {
        name: "ismcts_c_scale",
        expected: "a number from 0 to 100",
        help: "the factor on c in ismcts (a game whose rewards crowd near 1/2 explores less)",
        field: ismcts_c_scale within 0.0..=100.0,
    },
    field_setting! {
        name: "reward_decay",
        expected: "a number from 0 to 0.5",
        help: "per ply to a playout's end, Monte Carlo results move this share towards 1/2 (quicker wins worth more)",
        field: reward_decay within 0.0..=0.5,
    },
    SettingSpec {
        name: "eval_win_scale",
        expected: "a number from 0 to 1000, or off",
        help: "slope of the logistic that turns the evaluation into a chance to win where an eval playout stops (off: play to the end)",
        set: |s, v| set_within_or_off(v, 0.0..=1000.0, &mut s.eval_win_scale),
        get: |s| s.eval_win_scale.map_or("off".into(), |x| format!("{x}")),
    },
    SettingSpec {
        name: "order_from",
        expected: "plies from 1 to 64, or off",
        help: "alpha-beta sorts a node's moves by their evaluation when this many plies or more are left (off: the game's order)",
        set: |s, v| set_within_or_off(v, 1..=64, &mut s.order_from),
        get: |s| s.order_from.map_or("off".into(), |d| d.to_string()),
    },
    field_setting! {
        name: "probcut",
        expected: "on or off",
        help: "alpha-beta's ProbCut, where the evaluation has a calibrated fit (Othello's pattern weights)",
        field: probcut on_off,
    },
    field_setting! {
        name: "probcut_sigmas",
        expected: "a number from 0 to 10",
        help: "how many sigmas of the fit a ProbCut bound must be cleared by",
        field: probcut_sigmas within 0.0..=10.0,
    },
    field_setting! {
        name: "book",
        expected: "on or off",
        help: "genmove plays from the game's opening book where the position is in it (Othello's, from expert games), drawing among the moves within book_margin of the best",
        field: book on_off,
    },
    field_setting! {
        name: "book_margin",
        expected: "discs from 0 to 16",
        help: "the book draws among the moves whose value is within this many discs of the best (0: only moves of the best value)",
        field: book_margin within 0.0..=16.0,
    },
    SettingSpec {
        name: "eval",
        expected: "default, or an evaluation the game knows (Othello: pattern, table or a weight file)",
        help: "the evaluation the searches use (the engine checks it against the game in play)",
        set: |s, v| {
            let ok = !v.is_empty() && !v.chars().any(char::is_whitespace);
            if ok {
                s.eval = v.to_string();
            }
            ok
        },
        get: |s| s.eval.clone(),
    },
    field_setting! {
        name: "rucb1_depth",
        expected: "a depth from 1 to 64",
        help: "depth of the UCB1 tree of rucb1",
        field: rucb1_depth within 1..=64,
    },
    field_setting! {
        name: "threads",
        expected: "a number of threads from 1 to 256 (and at most the cores available)",
        help: "search threads",
        field: threads within 1..=256,
    },
    field_setting! {
        name: "memory",
        expected: "MiB from 1 to 65536",
        help: "memory cap of Monte Carlo searches (trees, PIMC's samples)",
        field: memory within 1..=65536,
    },
    field_setting! {
        name: "hash",
        expected: "MiB from 1 to 65536",
        help: "size of the alpha-beta and endgame solver transposition tables",
        field: hash within 1..=65536,
    },
    field_setting! {
        name: "solve_reach",
        expected: "a whole number (0 = off)",
        help: "switch to the exact solver at or below this many empties (Othello)",
        field: solve_reach within 0..=64,
    },
    field_setting! {
        name: "overhead",
        expected: "milliseconds",
        help: "kept back from every time budget for I/O",
        field: overhead within 0..=60_000,
    },
    field_setting! {
        name: "timeman",
        expected: "on or off",
        help: "under a clock, spend more time on critical moves and less on settled ones",
        field: timeman on_off,
    },
];

/// One row of the per-game defaults: the settings a game plays with
/// where nobody chose them (no `set`, no start-up setting), its strongest
/// player at the budgets a GUI gives (100 ms to a few seconds a move),
/// decided by matches (docs/defaults.md gives them).
pub struct GameDefault {
    /// The game's registry name.
    pub game: &'static str,
    /// Only with this many seats (`None`: any number).
    pub seats: Option<usize>,
    /// `(setting, value)` pairs laid over [`Settings::default`].
    pub settings: &'static [(&'static str, &'static str)],
    /// Why, in one line (`help defaults` prints it).
    pub why: &'static str,
}

/// Each game's default player. The first row that fits the game and its
/// number of seats applies; a game without a row plays the engine-wide
/// defaults (MCTS with random playouts).
pub static GAME_DEFAULTS: &[GameDefault] = &[
    GameDefault {
        game: crate::games::othello::NAME,
        seats: None,
        settings: &[
            ("search", "alphabeta"),
            ("solve_reach", "24"),
            ("book", "on"),
        ],
        why: "alpha-beta on the pattern evaluation, exact solver from 24 empties: \
              beats MCTS and GRhino at every budget measured; the opening book from \
              WTHOR's expert games: +81.7 and -10.8 at 20 ms in two matches of 1,000 \
              games against the same player without it (the suite's 100 openings \
              repeat; docs/experiments-othello.md)",
    },
    GameDefault {
        game: crate::games::quoridor::NAME,
        seats: Some(2),
        settings: &[("search", "alphabeta")],
        why: "alpha-beta on the race evaluation: won 119 of 120 against the Monte Carlo \
              searches at 50 ms",
    },
    GameDefault {
        game: crate::games::quoridor::NAME,
        seats: None,
        settings: &[("search", "ucb1")],
        why: "four players (alpha-beta is two-player): UCB1 with heuristic playouts, \
              level with the rule players at 100 ms and ahead at 1 s, ahead of mcts",
    },
    GameDefault {
        game: crate::games::hearts::NAME,
        seats: None,
        settings: &[("search", "ismcts")],
        why: "information-set MCTS, tuned for Hearts (exploration, half rule-guided \
              playouts): the outside yardstick, OpenSpiel's ISMCTS, loses to it",
    },
    GameDefault {
        game: crate::games::wizard::NAME,
        seats: None,
        settings: &[("search", "ismcts")],
        why: "information-set MCTS with half rule-guided playouts: 79% of games \
              against the rule players",
    },
    GameDefault {
        game: crate::games::ninetynine::NAME,
        seats: None,
        settings: &[("search", "ismcts")],
        why: "information-set MCTS: beats the rule players from 400 iterations a move",
    },
];

impl GameDefault {
    /// The row for `game` with `seats` seats, if it has one.
    pub fn find(game: &str, seats: usize) -> Option<&'static GameDefault> {
        GAME_DEFAULTS
            .iter()
            .find(|d| d.game == game && d.seats.is_none_or(|n| n == seats))
    }
}

impl Settings {
    /// The settings `game` with `seats` seats starts with: the engine-wide
    /// defaults with the game's tuning ([`super::tuning::TUNING`]) and its
    /// row laid over them, then `chosen` (the
    /// settings set by name, in the order they were set). The row is one
    /// player: where the search was chosen by name, none of it applies
    /// (`set search mcts` in Othello plays MCTS as it always did, without
    /// the solver that goes with the default alpha-beta).
    pub fn for_game(game: &str, seats: usize, chosen: &[(&'static str, String)]) -> Settings {
        let mut s = Settings::default();
        let search_chosen = chosen.iter().any(|(n, _)| *n == "search");
        let rows = GameDefault::find(game, seats)
            .filter(|_| !search_chosen)
            .map_or(&[][..], |d| d.settings);
        // The game's search tuning holds whatever the search
        // (super::tuning); its default player only where none was chosen.
        let mut pairs: Vec<(&str, &str)> = super::tuning::Tuning::pairs(game).collect();
        pairs.extend(rows.iter().map(|&(n, v)| (n, v)));
        pairs.extend(chosen.iter().map(|(n, v)| (*n, v.as_str())));
        for (name, value) in pairs {
            // Every value here was accepted before (chosen) or is checked
            // by a test (the table): a refusal is a bug, not input.
            if let Err(e) = s.set(name, value) {
                log::error!("default {name} {value} refused: {e}");
            }
        }
        s
    }

    /// The table's name of a setting (any letter case given).
    pub fn canonical_name(name: &str) -> Option<&'static str> {
        SETTINGS
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .map(|s| s.name)
    }

    /// Sets one setting; unchanged on error.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), SettingError> {
        let spec = SETTINGS
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| SettingError::Unknown(name.to_string()))?;
        let mut next = self.clone();
        // File names keep their case; every other value is read in any.
        let value_read = if spec.name == "eval" {
            value.to_string()
        } else {
            value.to_ascii_lowercase()
        };
        if !(spec.set)(&mut next, &value_read) {
            return Err(SettingError::BadValue {
                name: spec.name,
                value: value.to_string(),
                expected: spec.expected,
            });
        }
        next.fits_this_machine()?;
        *self = next;
        Ok(())
    }

    /// What a value in range may still ask too much of this machine.
    fn fits_this_machine(&self) -> Result<(), SettingError> {
        let cores = available_cores();
        if self.threads > cores {
            return Err(SettingError::TooManyThreads {
                asked: self.threads,
                cores,
            });
        }
        Ok(())
    }

    /// The current value of one setting.
    pub fn get(&self, name: &str) -> Result<String, SettingError> {
        SETTINGS
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .map(|s| (s.get)(self))
            .ok_or_else(|| SettingError::Unknown(name.to_string()))
    }

    /// Every setting with its value, one `name value` line each.
    pub fn listing(&self) -> Vec<String> {
        SETTINGS
            .iter()
            .map(|s| format!("{} {}", s.name, (s.get)(self)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every search, as `set search`'s error and protocol.md list them:
    /// `a, b, ... or z`.
    fn search_list() -> String {
        let names: Vec<&str> = SearchKind::ALL.iter().map(|k| k.name()).collect();
        match names.split_last() {
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }

    #[test]
    fn all_holds_every_search() {
        // A search added to the enum stops this match from compiling
        // until it is named here, and then fails it until it is in ALL.
        fn listed(k: SearchKind) -> bool {
            match k {
                SearchKind::Random
                | SearchKind::Rules
                | SearchKind::AlphaBeta
                | SearchKind::Mcts
                | SearchKind::Flat
                | SearchKind::Heuristic
                | SearchKind::Ucb1
                | SearchKind::Rucb1
                | SearchKind::Pimc
                | SearchKind::Ismcts
                | SearchKind::Solve => SearchKind::ALL.contains(&k),
            }
        }
        for k in SearchKind::ALL {
            assert!(listed(k), "{k:?}");
            assert_eq!(SearchKind::parse(k.name()), Some(k));
        }
    }

    #[test]
    fn the_search_lists_written_by_hand_are_every_search() {
        let spec = SETTINGS.iter().find(|s| s.name == "search");
        assert_eq!(spec.map(|s| s.expected), Some(search_list().as_str()));
        // protocol.md's table row and its error example.
        let doc = include_str!("../../protocol.md");
        let quoted: Vec<String> = SearchKind::ALL
            .iter()
            .map(|k| format!("`{}`", k.name()))
            .collect();
        let row = format!("| `search` | {} |", quoted.join(", "));
        assert!(doc.contains(&row), "protocol.md lacks: {row}");
        let error = format!("for search: expected {}", search_list());
        assert!(doc.contains(&error), "protocol.md lacks: {error}");
    }

    #[test]
    fn set_get_round_trip_for_every_setting() {
        let mut s = Settings::default();
        for spec in SETTINGS {
            let v = (spec.get)(&s);
            s.set(spec.name, &v).unwrap();
            assert_eq!(s.get(spec.name).unwrap(), v);
        }
        s.set("search", "UCT").unwrap();
        assert_eq!(s.search, SearchKind::Mcts);
    }

    #[test]
    fn every_game_default_is_a_game_and_an_accepted_value() {
        for d in GAME_DEFAULTS {
            assert!(crate::games::find(d.game).is_some(), "{}", d.game);
            let mut s = Settings::default();
            for (name, value) in super::super::tuning::Tuning::pairs(d.game) {
                s.set(name, value).unwrap();
            }
            for (name, value) in d.settings {
                s.set(name, value)
                    .unwrap_or_else(|e| panic!("{}: {e}", d.game));
                assert_eq!(s.get(name).unwrap(), *value);
            }
            assert_eq!(Settings::for_game(d.game, d.seats.unwrap_or(4), &[]), s);
        }
        // A chosen setting wins over the game's default; a game without a
        // row keeps the engine-wide defaults.
        let chosen = [("search", "mcts".to_string())];
        assert_eq!(
            Settings::for_game("othello", 2, &chosen).search,
            SearchKind::Mcts
        );
        assert_eq!(Settings::for_game("othello", 2, &chosen).solve_reach, 0);
        let hash = [("hash", "64".to_string())];
        assert_eq!(Settings::for_game("othello", 2, &hash).solve_reach, 24);
        assert_eq!(Settings::for_game("othello", 2, &hash).hash, 64);
        assert_eq!(
            Settings::for_game("nosuchgame", 2, &[]),
            Settings::default()
        );
        assert_eq!(
            Settings::for_game("ninetynine", 3, &[]).search,
            SearchKind::Ismcts
        );
        assert_eq!(
            Settings::for_game("quoridor", 2, &[]).search,
            SearchKind::AlphaBeta
        );
        assert_ne!(
            Settings::for_game("quoridor", 4, &[]).search,
            SearchKind::AlphaBeta
        );
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut s = Settings::default();
        let before = s.clone();
        assert!(s.set("c", "-1").is_err());
        assert!(s.set("threads", "0").is_err());
        let cores = available_cores();
        assert_eq!(
            s.set("threads", &(cores + 1).to_string()),
            Err(SettingError::TooManyThreads {
                asked: cores + 1,
                cores
            })
        );
        assert!(s.set("threads", &cores.min(256).to_string()).is_ok());
        s.threads = before.threads;
        assert!(
            s.set("search", "magic")
                .unwrap_err()
                .to_string()
                .contains("alphabeta")
        );
        assert!(matches!(
            s.set("colour", "1"),
            Err(SettingError::Unknown(_))
        ));
        assert_eq!(s, before);
    }

    /// The tuning rows (tuning.rs) as the settings read them.
    #[test]
    fn every_tuning_row_is_a_game_and_accepted_values() {
        use super::super::tuning::{TUNING, Tuning};
        for t in TUNING {
            assert!(crate::games::find(t.game).is_some(), "{}", t.game);
            let mut s = Settings::default();
            for (name, value) in Tuning::pairs(t.game) {
                s.set(name, value)
                    .unwrap_or_else(|e| panic!("{}: {e}", t.game));
                assert_eq!(s.get(name).unwrap(), value, "{}", t.game);
            }
        }
        // Hearts' factor is the one the game once returned, to the bit.
        let hearts = Settings::for_game("hearts", 4, &[]);
        assert_eq!(hearts.ismcts_c_scale, 0.25 / std::f64::consts::SQRT_2);
        // The row holds under a search chosen by name, and a chosen value
        // wins over it.
        let chosen = [("search", "mcts".to_string())];
        assert_eq!(
            Settings::for_game("othello", 2, &chosen).order_from,
            Some(3)
        );
        let chosen = [("playout_rules", "0".to_string())];
        assert_eq!(Settings::for_game("hearts", 4, &chosen).playout_rules, 0.0);
        let auto = [("playout_rules", "auto".to_string())];
        assert_eq!(Settings::for_game("hearts", 4, &auto).playout_rules, 0.5);
        assert_eq!(
            Settings::for_game("ninetynine", 3, &auto).playout_rules,
            0.0
        );
    }
}
