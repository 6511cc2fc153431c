//! The searcher factory: which search the settings name, built for one
//! game type, and the searcher kept between moves (rebuilt only when a
//! setting that shapes it changes, so that MCTS keeps its tree).

use crate::engine::error::EngineError;
use crate::engine::settings::{FinalChoice, PlayoutPolicy, SearchKind, Settings};
use crate::engine::time;
use crate::games;
use crate::model::game::Game;
use crate::search::Search;
use crate::search::alphabeta::AlphaBeta;
use crate::search::exact::SolveFirst;
use crate::search::ismcts::Ismcts;
use crate::search::mcts::{Final, Mcts, MctsConfig, RootPolicy};
use crate::search::pimc::Pimc;
use crate::search::playout::Policy;
use crate::search::sampling::SampledSearch as _;
use crate::search::simple::{RandomMove, RulesMove};

/// A search behind the engine's object-safe handle.
pub type BoxedSearch<G> = Box<dyn Search<G> + Send>;

/// Whether the search the settings name can play game `G` with `seats`
/// seats.
pub fn search_fits<G: Game>(settings: &Settings, seats: usize) -> Result<(), EngineError> {
    if settings.search == SearchKind::AlphaBeta && !G::TWO_PLAYER_ZERO_SUM {
        let why = if seats == 2 {
            format!("{} is not zero-sum", G::NAME)
        } else {
            format!("{} has {seats} players here", G::NAME)
        };
        return Err(EngineError::Unsupported(format!(
            "alphabeta needs a two-player zero-sum game: {why}"
        )));
    }
    Ok(())
}

/// The evaluation the settings name for game `G` (`set eval`).
pub fn evaluator<G: Game>(settings: &Settings) -> Result<G::Eval, EngineError> {
    G::evaluator(&settings.eval)
        .map_err(|e| EngineError::Unsupported(format!("eval {}: {e}", settings.eval)))
}

/// Alpha-beta as the settings tune it, scoring with `eval`.
pub fn alpha_beta<G: Game>(settings: &Settings, eval: G::Eval) -> AlphaBeta<G> {
    AlphaBeta::<G>::new(settings.hash)
        .with_threads(settings.threads)
        .with_eval(eval)
        .with_move_order(settings.order_from)
        .with_probcut(settings.probcut.then_some(settings.probcut_sigmas))
        .with_depth_selectivity(settings.selectivity.sigmas(settings.probcut_sigmas))
        // Nodes whose depth reaches the end go to the game's solver, if it
        // has one and `solve_reach` is not 0; a depth budget solves a
        // root within `solve_reach` that it reaches the end from.
        .with_solver(
            games::extras::<G>()
                .solver
                .filter(|_| settings.solve_reach > 0),
            (settings.hash as usize) << 20,
            settings.solve_reach,
        )
        .with_end_margin(games::extras::<G>().end_margin)
}

/// ISMCTS as the settings tune it.
pub fn ismcts(settings: &Settings) -> Ismcts {
    Ismcts::new(settings.c * settings.ismcts_c_scale)
        .with_memory((settings.memory as usize) << 20)
        .with_threads(settings.threads)
        .with_rules(settings.playout_rules)
}

/// PIMC as the settings tune it (its flat bandits keep `c` as set: a
/// smaller one gained nothing in Hearts).
pub fn pimc(settings: &Settings) -> Pimc {
    Pimc::new(settings.c)
        .with_memory((settings.memory as usize) << 20)
        .with_threads(settings.threads)
        .with_rules(settings.playout_rules)
}

/// Builds the searcher the settings name, for game `G`, scoring with
/// `eval`: the search itself, behind the exact solver where one is within
/// reach.
pub fn make_searcher<G: Game>(
    settings: &Settings,
    seats: usize,
    eval: &G::Eval,
) -> Result<BoxedSearch<G>, EngineError> {
    search_fits::<G>(settings, seats)?;
    let heuristic = Policy::Heuristic {
        greedy: settings.greedy,
        depth: settings.playout_depth,
    };
    let base = MctsConfig {
        c: settings.c,
        tree_depth: u32::MAX,
        root: RootPolicy::Ucb1,
        policy: match settings.playout {
            PlayoutPolicy::Random => Policy::Random,
            PlayoutPolicy::Heuristic => heuristic,
            PlayoutPolicy::Eval => Policy::Cutoff {
                plies: settings.playout_cutoff,
                scale: settings.eval_win_scale,
            },
        },
        final_choice: match settings.final_choice {
            FinalChoice::Visits => Final::Visits,
            FinalChoice::Mean => Final::Mean,
        },
        memory: (settings.memory as usize) << 20,
        threads: settings.threads,
        reward_decay: settings.reward_decay,
    };
    let flat = MctsConfig {
        tree_depth: 1,
        root: RootPolicy::RoundRobin,
        final_choice: Final::Mean,
        threads: 1,
        ..base
    };
    let mcts = |config| Box::new(Mcts::<G>::new(config).with_eval(eval.clone()));
    let search: BoxedSearch<G> = match settings.search {
        SearchKind::Random => Box::new(RandomMove::default()),
        SearchKind::Rules | SearchKind::Solve => Box::new(RulesMove::default()),
        SearchKind::AlphaBeta => Box::new(alpha_beta::<G>(settings, eval.clone())),
        SearchKind::Mcts => mcts(base),
        SearchKind::Flat => mcts(MctsConfig {
            policy: Policy::Random,
            ..flat
        }),
        SearchKind::Heuristic => mcts(MctsConfig {
            policy: heuristic,
            ..flat
        }),
        SearchKind::Ucb1 => mcts(MctsConfig {
            tree_depth: 1,
            policy: heuristic,
            threads: 1,
            ..base
        }),
        SearchKind::Rucb1 => mcts(MctsConfig {
            tree_depth: settings.rucb1_depth,
            policy: heuristic,
            threads: 1,
            ..base
        }),
        SearchKind::Pimc => Box::new(pimc(settings)),
        SearchKind::Ismcts => Box::new(ismcts(settings)),
    };
    // `solve` solves whatever the game can (and plays the rule move if
    // stopped first); the others solve within `solve_reach`.
    let reach = if settings.search == SearchKind::Solve {
        64
    } else {
        settings.solve_reach
    };
    // The game's solver, if its registry line declares one.
    let solver = games::extras::<G>().solver.filter(|_| reach > 0);
    Ok(if let Some(solver) = solver {
        Box::new(
            SolveFirst::new(
                search,
                solver,
                reach,
                (settings.hash as usize) << 20,
                time::DEFAULT_MOVETIME,
            )
            .with_threads(settings.threads)
            .with_time_share(time::solver_time_share(settings.search)),
        )
    } else {
        search
    })
}

/// The settings that shape a searcher (not the budgets, the seed or the
/// overhead): a change of any of them rebuilds the kept searcher.
#[derive(Clone, PartialEq)]
struct SearcherKey {
    search: SearchKind,
    c: f64,
    final_choice: FinalChoice,
    playout: PlayoutPolicy,
    greedy: f64,
    playout_depth: u32,
    playout_cutoff: u32,
    playout_rules: f64,
    ismcts_c_scale: f64,
    reward_decay: f64,
    eval_win_scale: Option<f64>,
    order_from: Option<u32>,
    probcut: bool,
    probcut_sigmas: f64,
    selectivity: Option<f64>,
    eval: String,
    rucb1_depth: u32,
    threads: usize,
    memory: u64,
    hash: u64,
    solve_reach: u32,
}

impl SearcherKey {
    fn of(s: &Settings) -> SearcherKey {
        SearcherKey {
            search: s.search,
            c: s.c,
            final_choice: s.final_choice,
            playout: s.playout,
            greedy: s.greedy,
            playout_depth: s.playout_depth,
            playout_cutoff: s.playout_cutoff,
            playout_rules: s.playout_rules,
            ismcts_c_scale: s.ismcts_c_scale,
            reward_decay: s.reward_decay,
            eval_win_scale: s.eval_win_scale,
            order_from: s.order_from,
            probcut: s.probcut,
            probcut_sigmas: s.probcut_sigmas,
            selectivity: s.selectivity.sigmas(s.probcut_sigmas),
            eval: s.eval.clone(),
            rucb1_depth: s.rucb1_depth,
            threads: s.threads,
            memory: s.memory,
            hash: s.hash,
            solve_reach: s.solve_reach,
        }
    }
}

/// The searcher kept between moves of one game, and the evaluation it
/// was built with (kept by name: a weight file is read once).
pub struct KeptSearcher<G: Game> {
    kept: Option<(SearcherKey, BoxedSearch<G>)>,
    eval: Option<(String, G::Eval)>,
}

impl<G: Game> Default for KeptSearcher<G> {
    fn default() -> Self {
        KeptSearcher {
            kept: None,
            eval: None,
        }
    }
}

impl<G: Game> KeptSearcher<G> {
    /// The evaluation the settings name (built once per name).
    pub fn eval(&mut self, settings: &Settings) -> Result<&G::Eval, EngineError> {
        if self
            .eval
            .as_ref()
            .is_none_or(|(name, _)| *name != settings.eval)
        {
            self.eval = Some((settings.eval.clone(), evaluator::<G>(settings)?));
        }
        match self.eval.as_ref() {
            Some((_, e)) => Ok(e),
            None => Err(EngineError::Unsupported("no evaluation".into())),
        }
    }

    /// A searcher built afresh for `settings` (not kept).
    pub fn fresh(
        &mut self,
        settings: &Settings,
        seats: usize,
    ) -> Result<BoxedSearch<G>, EngineError> {
        let eval = self.eval(settings)?.clone();
        make_searcher::<G>(settings, seats, &eval)
    }

    /// The searcher for `settings`: the kept one, or a new one if the
    /// settings that shape it changed.
    pub fn get(
        &mut self,
        settings: &Settings,
        seats: usize,
    ) -> Result<&mut BoxedSearch<G>, EngineError> {
        let key = SearcherKey::of(settings);
        if self.kept.as_ref().is_none_or(|(k, _)| *k != key) {
            self.kept = None;
            let eval = self.eval(settings)?.clone();
            self.kept = Some((key, make_searcher::<G>(settings, seats, &eval)?));
        }
        match self.kept.as_mut() {
            Some((_, s)) => Ok(s),
            None => Err(EngineError::Unsupported("no search".into())),
        }
    }

    /// Tells the kept searcher a move was played (a chance step resets it).
    pub fn follow(&mut self, mv: G::Move, chance: bool) {
        if let Some((_, s)) = self.kept.as_mut() {
            if chance { s.reset() } else { s.advance(mv) }
        }
    }

    /// Forgets what the kept searcher learned.
    pub fn reset(&mut self) {
        if let Some((_, s)) = self.kept.as_mut() {
            s.reset();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::{Budget, Control};
    use crate::games::othello::Othello;
    use crate::model::game::Rng;
    use rand::SeedableRng;
    use std::time::Duration;

    #[test]
    fn a_reset_alpha_beta_table_searches_as_a_new_one_node_for_node() {
        // A table cleared by a new salt, not by writing it: what the first
        // search stored must be gone after `reset`, and a large table must
        // be ready at once.
        let started = std::time::Instant::now();
        let mut search = AlphaBeta::<Othello>::new(1024);
        assert!(started.elapsed() < Duration::from_millis(100));
        let budget = Budget {
            depth: Some(6),
            ..Budget::default()
        };
        let root = Othello::start();
        let run = |s: &mut AlphaBeta<Othello>| {
            let r = s.search(
                &root,
                0,
                &budget,
                &Control::unlimited(),
                &mut Rng::seed_from_u64(1),
            );
            (r.best, r.iterations)
        };
        let first = run(&mut search);
        let warm = run(&mut search);
        assert!(
            warm.1 < first.1,
            "a warm table saves nodes: {warm:?} {first:?}"
        );
        search.reset();
        assert_eq!(run(&mut search), first);
    }

    #[test]
    fn alpha_beta_on_two_threads_proves_what_the_exact_solver_finds() {
        // Endgames searched to the end: the main thread's proven outcome,
        // with helpers writing the same table, is the exact one.
        let mut buf = Vec::new();
        let mut checked = 0;
        for seed in 0..10 {
            let mut rng = Rng::seed_from_u64(seed);
            let mut s = Othello::start();
            while !s.is_over() && s.empties().count_ones() > 9 {
                let mv = s.random_move(&mut rng, &mut buf);
                s.apply(mv);
            }
            if s.is_over() {
                continue;
            }
            let Some((_, exact)) = s.solve(&Control::unlimited(), 1 << 20) else {
                continue;
            };
            let seat = match s.turn() {
                crate::model::game::Turn::Player(p) => p,
                _ => continue,
            };
            let budget = Budget {
                depth: Some(24),
                ..Budget::default()
            };
            let mut search = AlphaBeta::<Othello>::new(4).with_threads(2);
            let r = search.search(&s, seat, &budget, &Control::unlimited(), &mut rng);
            let outcome = match exact.signum() {
                1 => 1.0,
                -1 => 0.0,
                _ => 0.5,
            };
            assert_eq!(r.score, outcome, "seed {seed}");
            assert!(s.is_legal(r.best));
            let mut child = s;
            child.apply(r.best);
            let after = match child.turn() {
                crate::model::game::Turn::Player(p) if p == seat => {
                    child.solve(&Control::unlimited(), 1 << 20).map(|(_, v)| v)
                }
                crate::model::game::Turn::Over => Some(exact),
                _ => child.solve(&Control::unlimited(), 1 << 20).map(|(_, v)| -v),
            };
            if let Some(v) = after {
                assert_eq!(
                    v.signum(),
                    exact.signum(),
                    "seed {seed}: the move keeps the outcome"
                );
            }
            checked += 1;
        }
        assert!(checked >= 6);
    }
}
