//! Each game's search tuning: the settings that tune a search to a game
//! (how much ISMCTS explores, rule-guided playouts, the discount of far
//! results, the evaluation's scale as a chance to win, alpha-beta's move
//! order and ProbCut), one row a game, laid under every other setting.
//!
//! These were once hooks of the `Game` trait; a game now holds only its
//! rules and knowledge, and the searches never know which game they play:
//! the engine reads the row of the game in play and hands the values to
//! the search it builds. Unlike a game's default player
//! ([`super::settings::GAME_DEFAULTS`]), a row holds whatever search is
//! chosen, and `set KEY VALUE` (or `set.KEY=VALUE` in `tabula match`)
//! overrides any of it. The settings' tests check every row against the
//! values `set` accepts.

/// One game's tuning: `(setting, value)` pairs laid over the engine-wide
/// defaults, each with the measurement that chose it.
pub struct Tuning {
    /// The game's registry name.
    pub game: &'static str,
    /// `(setting, value, why)`.
    pub settings: &'static [(&'static str, &'static str, &'static str)],
}

/// The tuning rows (a game without one plays the engine-wide values).
pub static TUNING: &[Tuning] = &[
    Tuning {
        game: crate::games::othello::NAME,
        settings: &[
            (
                "order_from",
                "3",
                "at depth 12 from four midgame positions 35.5 M nodes against 620 M with the \
                 table's move alone, 52 M from 2 plies left; sorting by 2- to 4-ply searches \
                 was no better (docs/experiments-othello.md)",
            ),
            (
                "probcut",
                "on",
                "the calibrated fit of the pattern weights (src/games/othello/probcut.rs); \
                 the square table has none, so `eval table` plays without it",
            ),
            (
                "probcut_sigmas",
                "1",
                "a cut needs 1 sigma of the fit, not the engine-wide 1.5: at 20 ms a move \
                 +117.6 and +79.9 over 1,000 games each against 1.5; 1.1 +45.1, 1.2 level \
                 with 1, 0.7 -80.3 against 1 (docs/experiments-othello.md)",
            ),
            (
                "selectivity",
                "1",
                "a depth is a level, as in Edax and NTest: the clock's search, ProbCut at 1 \
                 sigma; depth 20 from 20 midgame positions: 0.55 s of one core (median), \
                 where the exact depth took minutes; at depth 8 it scored 34% against the \
                 exact depth (docs/tools.md, \"Depth\")",
            ),
            (
                "eval_win_scale",
                "8",
                "maximum-likelihood fit of the trained evaluation (margin / 64) to 200 \
                 self-play games: 8.75; in MCTS 4 scored 27.5% against 8 and 16 was level",
            ),
        ],
    },
    Tuning {
        game: crate::games::quoridor::NAME,
        settings: &[(
            "reward_decay",
            "0.003",
            "a race: a wall placed before walking home costs MCTS about 0.003 of reward; \
             from 0.01 mcts with heuristic playouts lost a won race (tests/quoridor_race.rs)",
        )],
    },
    Tuning {
        game: crate::games::hearts::NAME,
        settings: &[
            (
                "ismcts_c_scale",
                // 0.25 / sqrt(2): ISMCTS explores at 0.25 under the default c.
                "0.17677669529663687",
                "rewards a few points of 52 apart: c 0.25 took 1.5 points a hand fewer than \
                 1.414 against three copies at 1,000 iterations (docs/experiments-cards.md)",
            ),
            (
                "playout_rules",
                "0.5",
                "half rule moves: against three random-playout copies at 1,000 iterations \
                 -1.42 ± 0.96 points a hand (ISMCTS), -1.71 ± 0.96 (PIMC)",
            ),
        ],
    },
    Tuning {
        game: crate::games::wizard::NAME,
        settings: &[(
            "playout_rules",
            "0.5",
            "half rule moves: ISMCTS at 400 iterations +26 ± 25 points a game against \
             random-playout copies, +73 ± 41 at 20 ms against the build before",
        )],
    },
];

impl Tuning {
    /// The row of `game`, if it has one.
    pub fn find(game: &str) -> Option<&'static Tuning> {
        TUNING.iter().find(|t| t.game == game)
    }

    /// The `(setting, value)` pairs of `game`'s row (none without one).
    pub fn pairs(game: &str) -> impl Iterator<Item = (&'static str, &'static str)> {
        Tuning::find(game)
            .map_or(&[][..], |t| t.settings)
            .iter()
            .map(|&(n, v, _)| (n, v))
    }
}
