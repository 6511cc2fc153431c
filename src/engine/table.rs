//! The object-safe face of one game in play ([`AnyGame`]), and its generic
//! implementation ([`Table`]): the state, its history for `undo`, and the
//! search kept between moves. This is where the protocol's text meets the
//! typed game, and where a search is chosen and run, monomorphised.

use std::time::Duration;

use crate::engine::settings::{PlayoutPolicy, SearchKind, Settings};
use crate::engine::{DEFAULT_MOVETIME_MS, EngineError};
use crate::game::{Game, MoveError, Outcome, Rng, Seat, Turn};
use crate::options::Options;
use crate::search::alphabeta::AlphaBeta;
use crate::search::ismcts::Ismcts;
use crate::search::mcts::{Final, Mcts, MctsConfig, RootPolicy};
use crate::search::pimc::Pimc;
use crate::search::playout::Policy;
use crate::search::simple::{RandomMove, RulesMove};
use crate::search::{Budget, Control, Search};

/// What `genmove` decided, as text.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The move played.
    pub mv: String,
    /// Its value for the mover (win rate or scaled evaluation).
    pub score: f64,
    /// Iterations or nodes spent.
    pub iterations: u64,
    /// Depth reached.
    pub depth: u32,
    /// The exact value when the solver decided (Othello: disc margin).
    pub exact: Option<i32>,
}

/// The protocol's handle on a game, whatever the game is.
pub trait AnyGame: Send {
    /// The registry name.
    fn name(&self) -> &'static str;
    /// The options given when it was opened.
    fn options(&self) -> &Options;
    /// Number of seats.
    fn num_seats(&self) -> usize;
    /// Who acts next.
    fn turn(&self) -> Turn;
    /// A seat's name.
    fn seat_name(&self, seat: Seat) -> String;
    /// Reads a seat name or number.
    fn parse_seat(&self, text: &str) -> Option<Seat>;
    /// The legal moves of the seat to move, as text.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays a move for `seat` (or the seat to move); returns its canonical
    /// text. Unchanged state on error.
    fn play(
        &mut self,
        seat: Option<Seat>,
        text: &str,
        rng: &mut Rng,
    ) -> Result<String, EngineError>;
    /// Applies a chance outcome told by a referee (seat-bound play).
    fn deal(&mut self, text: &str, rng: &mut Rng) -> Result<(), EngineError>;
    /// Searches and plays a move for `seat` (or the seat to move).
    fn genmove(
        &mut self,
        seat: Option<Seat>,
        settings: &Settings,
        budget: &Budget,
        control: &Control,
        rng: &mut Rng,
    ) -> Result<Decision, EngineError>;
    /// Checks that `analyze` may search for `seat` (or the seat to move),
    /// dealing any chance step the engine deals itself first.
    fn ready_to_analyze(
        &mut self,
        seat: Option<Seat>,
        settings: &Settings,
        rng: &mut Rng,
    ) -> Result<(), EngineError>;
    /// Searches for `seat` (or the seat to move) without playing.
    fn analyze(
        &mut self,
        seat: Option<Seat>,
        settings: &Settings,
        budget: &Budget,
        control: &Control,
        rng: &mut Rng,
    ) -> Result<Decision, EngineError>;
    /// Takes back the last move told or played.
    fn undo(&mut self) -> Result<(), EngineError>;
    /// Restarts from the beginning (same options).
    fn restart(&mut self, rng: &mut Rng);
    /// The picture for `showboard` (a seat's view in hidden-information games).
    fn render(&self) -> String;
    /// The position text, if the game has one.
    fn position_text(&self) -> Option<String>;
    /// Sets the position from text.
    fn set_position(&mut self, text: &str) -> Result<(), EngineError>;
    /// The outcome once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The moves played so far, as text.
    fn history(&self) -> Vec<String>;
    /// The game's own `final_score` text, if it has a convention.
    fn final_score(&self) -> Option<String>;
    /// The fixed board size, for games without a size option.
    fn board_size(&self) -> Option<u32>;
}

/// A decision, typed.
struct Choice<M> {
    mv: M,
    score: f64,
    iterations: u64,
    depth: u32,
    exact: Option<i32>,
}

impl<M> Choice<M> {
    fn decision(self, mv: String) -> Decision {
        Decision {
            mv,
            score: self.score,
            iterations: self.iterations,
            depth: self.depth,
            exact: self.exact,
        }
    }
}

/// Which settings a kept searcher was built from: a change rebuilds it.
#[derive(Clone, PartialEq)]
struct SearcherKey {
    kind: SearchKind,
    settings: Settings,
}

impl SearcherKey {
    fn of(settings: &Settings) -> SearcherKey {
        // Budgets and the seed do not shape a searcher.
        let mut s = settings.clone();
        s.iterations = 0;
        s.movetime = 0;
        s.depth = 0;
        s.seed = 0;
        s.overhead = 0;
        SearcherKey {
            kind: settings.search,
            settings: s,
        }
    }
}

/// A game in play: the typed state behind [`AnyGame`].
pub struct Table<G: Game> {
    options: Options,
    initial: G,
    state: G,
    /// The state before each move, with the move's text.
    history: Vec<(G, String)>,
    searcher: Option<(SearcherKey, Box<dyn Search<G> + Send>)>,
}

impl<G: Game> Table<G> {
    /// A table at the start of `game`. Chance steps at the start are
    /// resolved at the first command that needs a generator ([`AnyGame::restart`]).
    pub fn new(game: G, options: Options) -> Table<G> {
        Table {
            options,
            initial: game.clone(),
            state: game,
            history: Vec::new(),
            searcher: None,
        }
    }

    /// The typed state (tests, tools).
    pub fn state(&self) -> &G {
        &self.state
    }

    fn apply(&mut self, mv: G::Move) {
        let text = self.state.move_text(mv);
        let chance = self.state.turn() == Turn::Chance;
        self.history.push((self.state.clone(), text));
        self.state.apply(mv);
        if let Some((_, s)) = self.searcher.as_mut() {
            if chance { s.reset() } else { s.advance(mv) }
        }
    }

    /// Draws the chance steps the engine deals itself.
    fn resolve_chance(&mut self, rng: &mut Rng) {
        while dealt_by_engine(&self.state) {
            let outcome = self.state.sample_chance(rng);
            self.apply(outcome);
        }
    }

    /// The history index of the last move told or played (not a chance
    /// step the engine dealt itself).
    fn last_move(&self) -> Option<usize> {
        self.history.iter().rposition(|(g, _)| !dealt_by_engine(g))
    }

    /// Puts back the state and history saved before a refused command.
    fn roll_back(&mut self, (state, len): (G, usize)) {
        if self.history.len() != len {
            self.state = state;
            self.history.truncate(len);
            self.forget_search();
        }
    }

    fn forget_search(&mut self) {
        if let Some((_, s)) = self.searcher.as_mut() {
            s.reset();
        }
    }

    /// The seat that will move for a search by `seat` (if given), and
    /// the forced pass of the other seat that must come first, if any (as
    /// Edax does). Changes nothing.
    fn turn_for(&self, seat: Option<Seat>) -> Result<(Seat, Option<G::Move>), EngineError> {
        let mover = match self.state.turn() {
            Turn::Over => return Err(EngineError::Move(MoveError::GameOver)),
            Turn::Chance => return Err(EngineError::AwaitingDeal),
            Turn::Player(p) => p,
        };
        let Some(seat) = seat else {
            return Ok((mover, None));
        };
        if seat == mover {
            return Ok((mover, None));
        }
        let mut moves = Vec::new();
        self.state.legal_moves(&mut moves);
        if let [only] = moves[..]
            && self.state.is_pass(only)
        {
            let mut after = self.state.clone();
            after.apply(only);
            if after.turn() == Turn::Player(seat) {
                return Ok((seat, Some(only)));
            }
        }
        Err(EngineError::NotYourTurn {
            asked: self.state.seat_name(seat),
            to_move: self.state.seat_name(mover),
        })
    }

    /// Makes sure `seat` (if given) is the one to move, playing a forced
    /// pass of the other seat first.
    fn bring_turn_to(&mut self, seat: Option<Seat>) -> Result<Seat, EngineError> {
        let (seat, pass) = self.turn_for(seat)?;
        if let Some(pass) = pass {
            self.apply(pass);
        }
        Ok(seat)
    }

    /// Checks that a search may run for `seat` in `state`: the seat is
    /// this engine's own and the search fits the game.
    fn check_search(state: &G, seat: Seat, settings: &Settings) -> Result<(), EngineError> {
        // A seat-bound engine knows one seat's cards: it decides for that
        // seat only (the others' moves are told with play).
        if let Some(bound) = state.bound_seat().filter(|&b| b != seat) {
            return Err(EngineError::Unsupported(format!(
                "this engine plays {} only (seat={bound}); tell {}'s move with play",
                state.seat_name(bound),
                state.seat_name(seat)
            )));
        }
        search_fits::<G>(settings)?;
        if settings.search == SearchKind::Solve && !state.solvable(64) {
            return Err(EngineError::Unsupported(format!(
                "{} has no exact solver",
                G::NAME
            )));
        }
        Ok(())
    }

    /// Brings the turn to `seat` and checks that the search may run there.
    /// The caller rolls back an inserted pass if this refuses.
    fn ready_to_search(
        &mut self,
        seat: Option<Seat>,
        settings: &Settings,
    ) -> Result<Seat, EngineError> {
        let seat = self.bring_turn_to(seat)?;
        Self::check_search(&self.state, seat, settings)?;
        self.searcher(settings)?;
        Ok(seat)
    }

    /// The position an analysis for `seat` (or the seat to move) searches,
    /// the seat, and whether a forced pass of the other seat was applied
    /// to that copy; the table itself is unchanged (but for the chance
    /// steps the engine deals itself).
    fn analysis_root(
        &mut self,
        seat: Option<Seat>,
        settings: &Settings,
        rng: &mut Rng,
    ) -> Result<(G, Seat, bool), EngineError> {
        self.resolve_chance(rng);
        let (seat, pass) = self.turn_for(seat)?;
        let mut state = self.state.clone();
        if let Some(pass) = pass {
            state.apply(pass);
        }
        Self::check_search(&state, seat, settings)?;
        Ok((state, seat, pass.is_some()))
    }

    /// Decides a move for `seat` in `state`: the only move, an exact solve
    /// within reach, or the search (the kept searcher, or a fresh one when
    /// `state` is not the position the kept one follows).
    #[allow(clippy::too_many_arguments)]
    fn decide(
        &mut self,
        state: &G,
        seat: Seat,
        fresh: bool,
        settings: &Settings,
        budget: &Budget,
        control: &Control,
        rng: &mut Rng,
    ) -> Result<Choice<G::Move>, EngineError> {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        if moves.len() == 1 {
            return Ok(Choice {
                mv: moves[0],
                score: 0.5,
                iterations: 0,
                depth: 0,
                exact: None,
            });
        }
        let reach = if settings.search == SearchKind::Solve {
            64
        } else {
            settings.solve_reach
        };
        // The solver is bounded by time only: under an iteration or depth
        // budget without a time it gets the default move time (and, if it
        // does not finish, the search runs as usual), so that such a budget
        // still ends the genmove. An analysis without any budget runs until
        // it is stopped, solver included.
        let capped;
        let solver_control = if control.deadline().is_none()
            && (budget.iterations.is_some() || budget.depth.is_some())
        {
            capped = Control::new(
                control.stop_flag().clone(),
                &Budget {
                    time: Some(Duration::from_millis(DEFAULT_MOVETIME_MS)),
                    ..Budget::default()
                },
            );
            &capped
        } else {
            control
        };
        if reach > 0
            && state.solvable(reach)
            && let Some((mv, exact)) = state.solve(solver_control, (settings.hash as usize) << 20)
        {
            let score = match exact.signum() {
                1 => 1.0,
                -1 => 0.0,
                _ => 0.5,
            };
            return Ok(Choice {
                mv,
                score,
                iterations: 0,
                depth: 0,
                exact: Some(exact),
            });
        }
        let r = if fresh {
            make_searcher::<G>(settings)?.search(state, seat, budget, control, rng)
        } else {
            self.searcher(settings)?
                .search(state, seat, budget, control, rng)
        };
        Ok(Choice {
            mv: r.best,
            score: r.score,
            iterations: r.iterations,
            depth: r.depth,
            exact: None,
        })
    }

    fn searcher(
        &mut self,
        settings: &Settings,
    ) -> Result<&mut Box<dyn Search<G> + Send>, EngineError> {
        let key = SearcherKey::of(settings);
        if self.searcher.as_ref().is_none_or(|(k, _)| *k != key) {
            self.searcher = Some((key, make_searcher::<G>(settings)?));
        }
        match self.searcher.as_mut() {
            Some((_, s)) => Ok(s),
            None => Err(EngineError::Unsupported("no search".into())),
        }
    }
}

/// Whether `state` waits for a chance step the engine draws itself.
fn dealt_by_engine<G: Game>(state: &G) -> bool {
    state.turn() == Turn::Chance && !state.chance_from_referee()
}

/// Whether the search the settings name can play game `G`.
fn search_fits<G: Game>(settings: &Settings) -> Result<(), EngineError> {
    if settings.search == SearchKind::AlphaBeta && !G::TWO_PLAYER_ZERO_SUM {
        return Err(EngineError::Unsupported(format!(
            "alphabeta needs a two-player zero-sum game, and {} is not one",
            G::NAME
        )));
    }
    Ok(())
}

/// Builds the searcher the settings name, for game `G`.
fn make_searcher<G: Game>(settings: &Settings) -> Result<Box<dyn Search<G> + Send>, EngineError> {
    search_fits::<G>(settings)?;
    let heuristic = Policy::Heuristic {
        greedy: settings.greedy,
        depth: settings.playout_depth,
    };
    let final_choice = match settings.final_choice {
        crate::engine::settings::FinalChoice::Visits => Final::Visits,
        crate::engine::settings::FinalChoice::Mean => Final::Mean,
    };
    let base = MctsConfig {
        c: settings.c,
        tree_depth: u32::MAX,
        root: RootPolicy::Ucb1,
        policy: match settings.playout {
            PlayoutPolicy::Random => Policy::Random,
            PlayoutPolicy::Heuristic => heuristic,
        },
        final_choice,
        memory: (settings.memory as usize) << 20,
        threads: settings.threads,
    };
    let flat = MctsConfig {
        tree_depth: 1,
        root: RootPolicy::RoundRobin,
        final_choice: Final::Mean,
        threads: 1,
        ..base
    };
    Ok(match settings.search {
        SearchKind::Random => Box::new(RandomMove::default()),
        SearchKind::Rules => Box::new(RulesMove::default()),
        SearchKind::AlphaBeta => Box::new(AlphaBeta::<G>::new(settings.hash)),
        SearchKind::Mcts => Box::new(Mcts::<G>::new(base)),
        SearchKind::Flat => Box::new(Mcts::<G>::new(MctsConfig {
            policy: Policy::Random,
            ..flat
        })),
        SearchKind::Heuristic => Box::new(Mcts::<G>::new(MctsConfig {
            policy: heuristic,
            ..flat
        })),
        SearchKind::Ucb1 => Box::new(Mcts::<G>::new(MctsConfig {
            tree_depth: 1,
            policy: heuristic,
            threads: 1,
            ..base
        })),
        SearchKind::Rucb1 => Box::new(Mcts::<G>::new(MctsConfig {
            tree_depth: settings.rucb1_depth,
            policy: heuristic,
            threads: 1,
            ..base
        })),
        SearchKind::Pimc => {
            Box::new(Pimc::new(settings.c).with_memory((settings.memory as usize) << 20))
        }
        SearchKind::Ismcts => {
            Box::new(Ismcts::new(settings.c).with_memory((settings.memory as usize) << 20))
        }
        SearchKind::Solve => Box::new(RulesMove::default()),
    })
}

impl<G: Game> AnyGame for Table<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn num_seats(&self) -> usize {
        self.state.num_seats()
    }

    fn turn(&self) -> Turn {
        self.state.turn()
    }

    fn seat_name(&self, seat: Seat) -> String {
        self.state.seat_name(seat)
    }

    fn parse_seat(&self, text: &str) -> Option<Seat> {
        self.state.parse_seat(text)
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.state.turn() == Turn::Chance {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.state.legal_moves(&mut moves);
        moves.into_iter().map(|m| self.state.move_text(m)).collect()
    }

    fn play(
        &mut self,
        seat: Option<Seat>,
        text: &str,
        rng: &mut Rng,
    ) -> Result<String, EngineError> {
        self.resolve_chance(rng);
        let before = (self.state.clone(), self.history.len());
        self.bring_turn_to(seat)?;
        let parsed = self.state.parse_move(text).and_then(|mv| {
            if self.state.is_legal(mv) {
                Ok(mv)
            } else {
                Err(MoveError::Illegal(format!("{text} is not legal here")))
            }
        });
        match parsed {
            Ok(mv) => {
                let canonical = self.state.move_text(mv);
                self.apply(mv);
                self.resolve_chance(rng);
                Ok(canonical)
            }
            Err(e) => {
                // An inserted pass is taken back with the refused move.
                self.roll_back(before);
                Err(EngineError::Move(e))
            }
        }
    }

    fn deal(&mut self, text: &str, rng: &mut Rng) -> Result<(), EngineError> {
        let told = self.state.turn() == Turn::Chance && self.state.chance_from_referee();
        // A self-dealt game takes a told deal in place of the one the
        // engine has just drawn itself (the chance steps since the last
        // move), so that a match record, which holds the referee's deals,
        // replays.
        let redeal = if told {
            None
        } else {
            match self.last_move() {
                Some(last) if last + 1 < self.history.len() => Some(last + 1),
                None if !self.history.is_empty() => Some(0),
                _ => return Err(EngineError::NoDealPending),
            }
        };
        let before = redeal.map(|k| self.history[k].0.clone());
        let position = before.as_ref().unwrap_or(&self.state);
        let mv = position.parse_move(text).map_err(EngineError::Move)?;
        if !position.is_legal(mv) {
            return Err(EngineError::Move(MoveError::Illegal(format!(
                "{text} is not a possible deal here"
            ))));
        }
        if let (Some(k), Some(state)) = (redeal, before) {
            self.state = state;
            self.history.truncate(k);
            self.forget_search();
        }
        self.apply(mv);
        self.resolve_chance(rng);
        Ok(())
    }

    fn genmove(
        &mut self,
        seat: Option<Seat>,
        settings: &Settings,
        budget: &Budget,
        control: &Control,
        rng: &mut Rng,
    ) -> Result<Decision, EngineError> {
        self.resolve_chance(rng);
        let before = (self.state.clone(), self.history.len());
        let seat = match self.ready_to_search(seat, settings) {
            Ok(seat) => seat,
            Err(e) => {
                self.roll_back(before);
                return Err(e);
            }
        };
        let state = self.state.clone();
        let choice = self.decide(&state, seat, false, settings, budget, control, rng)?;
        let text = self.state.move_text(choice.mv);
        self.apply(choice.mv);
        self.resolve_chance(rng);
        Ok(choice.decision(text))
    }

    fn ready_to_analyze(
        &mut self,
        seat: Option<Seat>,
        settings: &Settings,
        rng: &mut Rng,
    ) -> Result<(), EngineError> {
        self.analysis_root(seat, settings, rng).map(|_| ())
    }

    fn analyze(
        &mut self,
        seat: Option<Seat>,
        settings: &Settings,
        budget: &Budget,
        control: &Control,
        rng: &mut Rng,
    ) -> Result<Decision, EngineError> {
        let (state, seat, passed) = self.analysis_root(seat, settings, rng)?;
        // After a forced pass the kept searcher does not follow `state`: a
        // fresh one searches it, and the kept one stays as it was.
        let choice = self.decide(&state, seat, passed, settings, budget, control, rng)?;
        let text = state.move_text(choice.mv);
        Ok(choice.decision(text))
    }

    fn undo(&mut self) -> Result<(), EngineError> {
        // Take back the last move told or played, with the chance steps the
        // engine dealt itself after it; dealt steps alone are not undone.
        let Some(last) = self.last_move() else {
            return Err(EngineError::NothingToUndo);
        };
        self.state = self.history[last].0.clone();
        self.history.truncate(last);
        self.forget_search();
        Ok(())
    }

    fn restart(&mut self, rng: &mut Rng) {
        self.state = self.initial.clone();
        self.history.clear();
        self.forget_search();
        self.resolve_chance(rng);
    }

    fn render(&self) -> String {
        self.state.render()
    }

    fn position_text(&self) -> Option<String> {
        self.state.position_text()
    }

    fn set_position(&mut self, text: &str) -> Result<(), EngineError> {
        let mut next = self.state.clone();
        next.set_position(text).map_err(EngineError::Position)?;
        self.state = next;
        self.history.clear();
        self.forget_search();
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.is_over().then(|| self.state.outcome())
    }

    fn history(&self) -> Vec<String> {
        self.history.iter().map(|(_, t)| t.clone()).collect()
    }

    fn final_score(&self) -> Option<String> {
        self.state.final_score()
    }

    fn board_size(&self) -> Option<u32> {
        self.state.board_size()
    }
}
