//! Perft: count the leaves of the game tree to a fixed depth, for testing
//! move generation and measuring its speed.
//!
//! A finished game is one leaf wherever it is reached, and a forced pass
//! is a ply like any other. The last ply is counted in bulk with
//! [`Game::move_count`], without playing the moves.
//!
//! Chance steps (deals, draws) are not plies: a deal has too many outcomes
//! to count below each. Given a dealer (a generator seeded by the user),
//! each chance step met is drawn from it, the first ones exactly as `game
//! NAME seed=N` deals them, and the count goes on below the outcome drawn;
//! without one, meeting a chance step is an error that says so.

use rand::SeedableRng;

use crate::games::GameVisitor;
use crate::model::game::{Game, PositionError, Rng, Turn};
use crate::model::options::{OptionError, Options};

/// The number of leaves `depth` plies below `state`, for a game without
/// chance steps: 0 if one is met (see [`perft_dealt`]).
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    count(state, depth, None).unwrap_or(0)
}

/// The number of leaves `depth` plies below `state`, every chance step
/// drawn from `dealer` on the way (in the order of a depth-first walk).
pub fn perft_dealt<G: Game>(state: &G, depth: u32, dealer: &mut Rng) -> u64 {
    count(state, depth, Some(dealer)).unwrap_or(0)
}

/// A chance step was met with nothing to draw it from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChanceWithoutSeed;

fn count<G: Game>(
    state: &G,
    depth: u32,
    mut dealer: Option<&mut Rng>,
) -> Result<u64, ChanceWithoutSeed> {
    let mut buffers: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::new()).collect();
    count_with(state, depth, &mut buffers, &mut dealer)
}

fn count_with<G: Game>(
    state: &G,
    depth: u32,
    buffers: &mut [Vec<G::Move>],
    dealer: &mut Option<&mut Rng>,
) -> Result<u64, ChanceWithoutSeed> {
    if state.turn() == Turn::Chance {
        let dealt = deal(state, dealer)?;
        return count_with(&dealt, depth, buffers, dealer);
    }
    if depth == 0 || state.is_over() {
        return Ok(1);
    }
    if depth == 1 {
        return Ok(state.move_count() as u64);
    }
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return Ok(1);
    };
    state.legal_moves(moves);
    let mut total = 0;
    for &mv in moves.iter() {
        let mut child = state.clone();
        child.apply(mv);
        total += count_with(&child, depth - 1, rest, dealer)?;
    }
    Ok(total)
}

/// `state` after the chance steps due now, drawn from `dealer`.
fn deal<G: Game>(state: &G, dealer: &mut Option<&mut Rng>) -> Result<G, ChanceWithoutSeed> {
    let mut state = state.clone();
    while state.turn() == Turn::Chance {
        let rng = dealer.as_deref_mut().ok_or(ChanceWithoutSeed)?;
        let outcome = state.sample_chance(rng);
        state.apply(outcome);
    }
    Ok(state)
}

/// A perft count, and the counts below each first move when divided.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerftResult {
    /// Leaves in all.
    pub leaves: u64,
    /// `(first move, leaves below it)` when asked to divide.
    pub divided: Vec<(String, u64)>,
}

/// Perft of a registered game from its start or a position, as the
/// registry's visitor (`tabula perft`).
pub struct PerftRun {
    /// The position text, or `None` for the start.
    pub position: Option<String>,
    /// Plies.
    pub depth: u32,
    /// Whether to count below each first move apart.
    pub divide: bool,
    /// Seed of the generator chance steps are drawn from (as the engine's
    /// `seed=N` game option).
    pub seed: Option<u64>,
}

impl GameVisitor for PerftRun {
    type Output = Result<PerftResult, PerftError>;
    fn visit<G: Game>(self, options: &Options) -> Self::Output {
        let mut state = G::new_game(options).map_err(PerftError::Option)?;
        if let Some(p) = &self.position {
            state.set_position(p).map_err(PerftError::Position)?;
        }
        let mut rng = self.seed.map(Rng::seed_from_u64);
        let mut dealer = rng.as_mut();
        let chance = |_| PerftError::ChanceWithoutSeed {
            game: G::NAME,
            at_start: state.turn() == Turn::Chance,
        };
        let mut result = PerftResult::default();
        let root = deal(&state, &mut dealer).map_err(chance)?;
        if self.divide && self.depth > 0 && !root.is_over() {
            let mut moves = Vec::new();
            root.legal_moves(&mut moves);
            for mv in moves {
                let mut child = root.clone();
                child.apply(mv);
                let n = count(&child, self.depth - 1, dealer.as_deref_mut()).map_err(chance)?;
                result.divided.push((root.move_text(mv), n));
                result.leaves += n;
            }
        } else {
            result.leaves = count(&root, self.depth, dealer).map_err(chance)?;
        }
        Ok(result)
    }
}

/// Why a perft could not run.
#[derive(Clone, Debug, PartialEq)]
pub enum PerftError {
    /// The game's options were refused.
    Option(OptionError),
    /// The position text was refused.
    Position(PositionError),
    /// A chance step (a deal, a draw) was met and no seed was given to
    /// draw it from.
    ChanceWithoutSeed {
        /// The game.
        game: &'static str,
        /// Whether the start position itself waits for a chance step.
        at_start: bool,
    },
}

impl std::fmt::Display for PerftError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PerftError::Option(e) => write!(f, "{e}"),
            PerftError::Position(e) => write!(f, "{e}"),
            PerftError::ChanceWithoutSeed { game, at_start } => write!(
                f,
                "{game} {}: perft counts moves, not deals; give a seed (seed=N) \
                 to draw the chance steps from it, as `game {game} seed=N` deals",
                if *at_start {
                    "starts with a chance step (the deal)"
                } else {
                    "has a chance step (a deal or a draw) within that depth"
                }
            ),
        }
    }
}

impl std::error::Error for PerftError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::games;

    fn run(
        game: &str,
        depth: u32,
        seed: Option<u64>,
        divide: bool,
    ) -> Result<PerftResult, PerftError> {
        let entry = games::find(game).expect("registered");
        let run = PerftRun {
            position: None,
            depth,
            divide,
            seed,
        };
        entry.visit::<&str, _>(&[], run).expect("default options")
    }

    #[test]
    fn a_game_that_deals_first_says_so_without_a_seed() {
        for game in ["hearts", "wizard", "ninetynine"] {
            assert_eq!(
                run(game, 2, None, false),
                Err(PerftError::ChanceWithoutSeed {
                    game: games::find(game).expect("registered").name,
                    at_start: true
                }),
                "{game}"
            );
        }
        let e = run("hearts", 2, None, false).expect_err("no seed");
        assert!(e.to_string().contains("seed=N"), "{e}");
    }

    #[test]
    fn a_seed_deals_as_the_engine_deals_then_counts() {
        // The first hand's pass: any 3 of 13 cards, C(13, 3) = 286 ways.
        assert_eq!(run("hearts", 1, Some(1), false).map(|r| r.leaves), Ok(286));
        assert_eq!(
            run("hearts", 2, Some(1), false).map(|r| r.leaves),
            Ok(286 * 286)
        );
        // The same seed, the same deals and counts; the first moves are
        // those the engine lists after `game hearts seed=1`.
        let divided = run("hearts", 2, Some(1), true).expect("seeded");
        assert_eq!(divided.leaves, 286 * 286);
        let mut engine = Engine::new(9).expect("engine");
        engine
            .load_game("hearts", &["seed=1".to_string()])
            .expect("hearts");
        let listed = engine.game().legal_moves();
        let firsts: Vec<String> = divided.divided.iter().map(|(m, _)| m.clone()).collect();
        assert_eq!(firsts, listed);
        // Wizard and Ninety-Nine deal again inside the tree: still counted.
        for game in ["wizard", "ninetynine"] {
            let a = run(game, 4, Some(3), false).expect("seeded");
            assert!(a.leaves > 1, "{game}: {a:?}");
            assert_eq!(run(game, 4, Some(3), false), Ok(a));
        }
    }
}
