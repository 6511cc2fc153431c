//! The object-safe face of one game in play ([`AnyGame`]), and its generic
//! implementation ([`Table`]): the state, its history for `undo`, and the
//! search kept between moves. This is where the protocol's text meets the
//! typed game, and where a search is chosen and run, monomorphised.

use crate::control::{Budget, Control, MoveHandle, Progress, RootLine, ScoreKind};
use crate::engine::error::EngineError;
use crate::engine::human::feed::Feed;
use crate::engine::searchers::{KeptSearcher, search_fits};
use crate::engine::settings::{SearchKind, Settings};
use crate::games;
use crate::model::game::{Evaluator as _, Game, MoveError, Outcome, Rng, Seat, Turn};
use crate::model::options::Options;
use crate::model::played::Played;
use crate::search::{SearchResult, lines_text};

/// What `genmove` decided, as text.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The move played.
    pub mv: String,
    /// Its value for the mover, in `[0, 1]`: what it is, `kind` says.
    pub score: f64,
    /// What the score is, as the search set it (a win chance, an
    /// evaluation, an exact margin, or no value known): each protocol
    /// shows it in its own unit by this.
    pub kind: ScoreKind,
    /// Iterations or nodes spent.
    pub iterations: u64,
    /// Depth reached.
    pub depth: u32,
    /// The exact value when the solver decided (Othello: disc margin).
    pub exact: Option<i32>,
    /// The best root moves, best first, when the request asked for
    /// several (MultiPV); empty otherwise, or when the search had no
    /// statistics per move (`random`, `rules`, a forced move played
    /// without a value).
    pub lines: Vec<RootLine>,
}

/// What a search on the table is asked: for which seat (`None`: the
/// seat to move), with which settings, under which budget and control.
/// `genmove` and `analyze` take the same.
#[derive(Clone, Copy)]
pub struct SearchArgs<'a> {
    /// The seat to decide for; `None`: the seat to move.
    pub seat: Option<Seat>,
    /// The engine's settings (which search, its parameters).
    pub settings: &'a Settings,
    /// The budget of this search.
    pub budget: &'a Budget,
    /// Its stop flag, deadline and reporting.
    pub control: &'a Control<'a>,
    /// Whether the decision's value is shown (an analysis, a search that
    /// reports): a forced move is then searched like any other, for its
    /// value; otherwise it is played at once, with no value.
    pub valued: bool,
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
    /// About how many moves the seat to move still has, where the game
    /// declares a count ([`crate::model::extras::Extras::moves_left`]).
    fn moves_left(&self) -> Option<u32>;
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
    /// Builds the evaluation `settings` name (`set eval`) for the
    /// searches of this game; an error if the game knows no such one.
    fn prepare_eval(&mut self, settings: &Settings) -> Result<(), EngineError>;
    /// Searches and plays a move for `args.seat` (or the seat to move).
    fn genmove(&mut self, args: &SearchArgs, rng: &mut Rng) -> Result<Decision, EngineError>;
    /// How the search the settings name spends a timed budget (asked of
    /// the kept searcher, built if need be; the default where the search
    /// does not fit the game, which `genmove` then refuses).
    fn time_use(&mut self, settings: &Settings) -> crate::control::TimeUse;
    /// Checks that `analyze` may search for `seat` (or the seat to move),
    /// dealing any chance step the engine deals itself first.
    fn ready_to_analyze(
        &mut self,
        seat: Option<Seat>,
        settings: &Settings,
        rng: &mut Rng,
    ) -> Result<(), EngineError>;
    /// Searches for `args.seat` (or the seat to move) without playing.
    fn analyze(&mut self, args: &SearchArgs, rng: &mut Rng) -> Result<Decision, EngineError>;
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
    /// The game's own `final_score` text, if it declares a convention
    /// ([`crate::model::extras::Extras::final_score`]).
    fn final_score(&self) -> Option<String>;
    /// The fixed board size, for games without a size option
    /// ([`crate::model::extras::Extras::board_size`]).
    fn board_size(&self) -> Option<u32>;
    /// The game's pass as text, where it declares one
    /// ([`crate::model::extras::Extras::pass`]).
    fn pass_text(&self) -> Option<String>;
    /// What `seat` sees ([`Game::view_text`]): a human's `showboard`.
    fn view(&self, seat: Seat) -> String;
    /// Tells `seat` (a human at the terminal) what it sees of every move
    /// from now on, as lines for [`AnyGame::take_told`]; `None` stops.
    fn watch(&mut self, seat: Option<Seat>);
    /// The lines told to the watching seat since the last call.
    fn take_told(&mut self) -> Vec<String>;
}

impl Decision {
    fn from_search<G: Game>(state: &G, r: &SearchResult<G::Move>) -> Decision {
        Decision {
            mv: state.move_text(r.best),
            score: r.score,
            kind: r.kind,
            iterations: r.iterations,
            depth: r.depth,
            exact: r.exact,
            lines: lines_text(state, &r.lines),
        }
    }

    /// The decision a report stands for (an early answer's: the move and
    /// value sent), after `iterations` of work.
    pub fn from_report(p: &Progress, iterations: u64) -> Decision {
        Decision {
            mv: p.best.clone(),
            score: p.score,
            kind: p.kind,
            iterations,
            depth: p.depth,
            exact: p.exact,
            lines: p.lines.clone(),
        }
    }

    /// The decision as a report (what an answer sends), its line `pv`.
    pub fn report(&self, pv: Vec<String>) -> Progress {
        Progress {
            iterations: self.iterations,
            depth: self.depth,
            best: self.mv.clone(),
            score: self.score,
            kind: self.kind,
            exact: self.exact,
            pv,
            lines: self.lines.clone(),
            ..Progress::default()
        }
    }
}

/// A game in play: the typed state behind [`AnyGame`].
pub struct Table<G: Game> {
    options: Options,
    game: Played<G>,
    searcher: KeptSearcher<G>,
    /// The seat told about every move (a human's), and what it was told.
    feed: Option<Feed>,
}

impl<G: Game> Table<G> {
    /// A table at the start of `game`. Chance steps at the start are
    /// resolved at the first command that needs a generator ([`AnyGame::restart`]).
    pub fn new(game: G, options: Options) -> Table<G> {
        Table {
            options,
            game: Played::new(game),
            searcher: KeptSearcher::default(),
            feed: None,
        }
    }

    /// The typed state (tests, tools).
    pub fn state(&self) -> &G {
        self.game.state()
    }

    fn apply(&mut self, mv: G::Move) {
        // The human's seat is told what a seat-bound player there would
        // be (the game's `tell` hides what it may not see), and the
        // tricks and hands that end.
        let before = self.feed.as_ref().map(|_| self.game.state().clone());
        let chance = self.game.state().turn() == Turn::Chance;
        self.game.apply(mv);
        self.searcher.follow(mv, chance);
        if let (Some(w), Some(before)) = (self.feed.as_mut(), before) {
            w.observe(&before, mv, self.game.state());
        }
    }

    /// Draws the chance steps the engine deals itself.
    fn resolve_chance(&mut self, rng: &mut Rng) {
        while dealt_by_engine(self.game.state()) {
            let outcome = self.game.state().sample_chance(rng);
            self.apply(outcome);
        }
    }

    /// The history index of the last move told or played (not a chance
    /// step the engine dealt itself).
    fn last_move(&self) -> Option<usize> {
        self.game
            .history()
            .iter()
            .rposition(|step| !dealt_by_engine(&step.before))
    }

    /// Takes the game back to step `index`, forgetting the search, if
    /// anything was played since.
    fn rewind_to(&mut self, index: usize) {
        if index < self.game.history().len() {
            self.game.rewind_to(index);
            self.searcher.reset();
        }
    }

    /// The seat that will move for a search by `seat` (if given), and
    /// the forced pass of the other seat that must come first, if any (as
    /// Edax does). Changes nothing.
    fn turn_for(&self, seat: Option<Seat>) -> Result<(Seat, Option<G::Move>), EngineError> {
        let state = self.game.state();
        let mover = match state.turn() {
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
        state.legal_moves(&mut moves);
        if let [only] = moves[..]
            && games::extras::<G>().is_pass(only)
        {
            let mut after = state.clone();
            after.apply(only);
            if after.turn() == Turn::Player(seat) {
                return Ok((seat, Some(only)));
            }
        }
        Err(EngineError::NotYourTurn {
            asked: state.seat_name(seat),
            to_move: state.seat_name(mover),
        })
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
        search_fits::<G>(settings, state.num_seats())?;
        if settings.search == SearchKind::Solve && games::extras::<G>().solver.is_none() {
            return Err(EngineError::Unsupported(format!(
                "{} has no exact solver",
                G::NAME
            )));
        }
        Ok(())
    }

    /// The position a search for `seat` (or the seat to move) starts
    /// from, the seat, and the forced pass of the other seat that comes
    /// first, if any; checked for the search. The table itself is
    /// unchanged (but for the chance steps the engine deals itself).
    fn search_root(
        &mut self,
        seat: Option<Seat>,
        settings: &Settings,
        rng: &mut Rng,
    ) -> Result<(G, Seat, Option<G::Move>), EngineError> {
        self.resolve_chance(rng);
        let (seat, pass) = self.turn_for(seat)?;
        let mut state = self.game.state().clone();
        if let Some(pass) = pass {
            state.apply(pass);
        }
        Self::check_search(&state, seat, settings)?;
        Ok((state, seat, pass))
    }

    /// Decides a move for `seat` in `state`: the only move, or the search
    /// (the kept searcher, or a fresh one when `fresh`: `state` is not the
    /// position the kept one follows). `args.seat` is not read: `seat` is
    /// the seat the search root was found for.
    fn decide(
        &mut self,
        state: &G,
        seat: Seat,
        fresh: bool,
        args: &SearchArgs,
        rng: &mut Rng,
    ) -> Result<SearchResult<G::Move>, EngineError> {
        let SearchArgs {
            settings,
            budget,
            control,
            valued,
            ..
        } = *args;
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        // A forced move whose value nobody is shown is played at once;
        // one whose value is shown is searched (or solved) like any other.
        if let [only] = moves[..]
            && !valued
        {
            return Ok(SearchResult::unsearched(only, 0));
        }
        let seats = state.num_seats();
        Ok(if fresh {
            self.searcher
                .fresh(settings, seats)?
                .search(state, seat, budget, control, rng)
        } else {
            self.searcher
                .get(settings, seats)?
                .search(state, seat, budget, control, rng)
        })
    }
}

/// The opening book's move for `state`, where the settings play from the
/// book (`book on`), the game has one, the position is in it and a single
/// line is asked (a MultiPV analysis searches): drawn at random among the
/// book's moves within `book_margin` discs of its best, valued as the book
/// values it.
fn book_choice<G: Game>(
    state: &G,
    settings: &Settings,
    control: &Control,
    rng: &mut Rng,
) -> Option<SearchResult<G::Move>> {
    if !settings.book || control.multipv() > 1 {
        return None;
    }
    let moves = (games::extras::<G>().book?)(state);
    if moves.is_empty() {
        return None;
    }
    let best = moves.iter().map(|m| m.1).fold(f64::NEG_INFINITY, f64::max);
    let floor = best - settings.book_margin / 64.0 - 1e-9;
    let mut legal = Vec::new();
    state.legal_moves(&mut legal);
    let near: Vec<(G::Move, f64)> = moves
        .into_iter()
        .filter(|(mv, v)| *v >= floor && legal.contains(mv))
        .collect();
    if near.is_empty() {
        return None;
    }
    let (mv, value) = near[rand::Rng::gen_range(rng, 0..near.len())];
    Some(SearchResult {
        score: 0.5 + value.clamp(-1.0, 1.0) / 2.0,
        kind: ScoreKind::Eval,
        ..SearchResult::unsearched(mv, 0)
    })
}

/// Whether `state` waits for a chance step the engine draws itself.
fn dealt_by_engine<G: Game>(state: &G) -> bool {
    state.turn() == Turn::Chance && !state.chance_from_referee()
}

impl<G: Game> AnyGame for Table<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn prepare_eval(&mut self, settings: &Settings) -> Result<(), EngineError> {
        let eval = self.searcher.eval(settings)?;
        // Ready before any search asks for it: an evaluation that builds
        // itself on first use (Othello's built-in weights, decoded on a
        // helper thread: some 90 ms of CPU, seconds on a busy machine) is
        // waited for here, by a setup command, and not by the first timed
        // search, which cannot stop while it waits and so would keep the
        // engine busy long after its move was answered. One evaluation of
        // a position every seat sees whole is enough to wait.
        let state = self.game.state();
        if G::PERFECT_INFORMATION
            && let Turn::Player(seat) = state.turn()
        {
            std::hint::black_box(eval.evaluate(state, seat));
        }
        Ok(())
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn num_seats(&self) -> usize {
        self.game.state().num_seats()
    }

    fn turn(&self) -> Turn {
        self.game.state().turn()
    }

    fn moves_left(&self) -> Option<u32> {
        let count = games::extras::<G>().moves_left?;
        Some(count(self.game.state()))
    }

    fn seat_name(&self, seat: Seat) -> String {
        self.game.state().seat_name(seat)
    }

    fn parse_seat(&self, text: &str) -> Option<Seat> {
        self.game.state().parse_seat(text)
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.game.state().turn() == Turn::Chance {
            return Vec::new();
        }
        self.game.legal_texts()
    }

    fn play(
        &mut self,
        seat: Option<Seat>,
        text: &str,
        rng: &mut Rng,
    ) -> Result<String, EngineError> {
        self.resolve_chance(rng);
        let (_, pass) = self.turn_for(seat)?;
        let mv = match pass {
            None => self.game.check(text),
            Some(pass) => {
                // The move is checked after the other seat's forced pass,
                // which is played only if the move is legal.
                let mut after = Played::new(self.game.state().clone());
                after.apply(pass);
                after.check(text)
            }
        }
        .map_err(EngineError::Move)?;
        if let Some(pass) = pass {
            self.apply(pass);
        }
        let canonical = self.game.state().move_text(mv);
        self.apply(mv);
        self.resolve_chance(rng);
        Ok(canonical)
    }

    fn deal(&mut self, text: &str, rng: &mut Rng) -> Result<(), EngineError> {
        let state = self.game.state();
        let told = state.turn() == Turn::Chance && state.chance_from_referee();
        // A self-dealt game takes a told deal in place of the one the
        // engine has just drawn itself (the chance steps since the last
        // move), so that a match record, which holds the referee's deals,
        // replays.
        let redeal = if told {
            None
        } else {
            match self.last_move() {
                Some(last) if last + 1 < self.game.history().len() => Some(last + 1),
                None if !self.game.history().is_empty() => Some(0),
                _ => return Err(EngineError::NoDealPending),
            }
        };
        let mv = match redeal {
            None => self.game.check(text),
            Some(k) => Played::new(self.game.history()[k].before.clone()).check(text),
        }
        .map_err(EngineError::Move)?;
        if let Some(k) = redeal {
            self.rewind_to(k);
        }
        self.apply(mv);
        self.resolve_chance(rng);
        Ok(())
    }

    fn genmove(&mut self, args: &SearchArgs, rng: &mut Rng) -> Result<Decision, EngineError> {
        let SearchArgs {
            settings, control, ..
        } = *args;
        let (state, seat, pass) = self.search_root(args.seat, settings, rng)?;
        // Build (or keep) the searcher before the forced pass is played,
        // so that a refused search leaves the game as it was.
        self.searcher.get(settings, state.num_seats())?;
        if let Some(pass) = pass {
            self.apply(pass);
        }
        // A legal move to answer with should the search publish none
        // before its deadline (a solve that overruns its share of the
        // move): a move the search finds replaces it.
        if let Some(answer) = control.answer() {
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            if let Some(&mv) = moves.first() {
                answer.publish(&Progress {
                    best: state.move_text(mv),
                    best_move: Some(MoveHandle::new(mv)),
                    ..Progress::default()
                });
            }
        }
        let r = match book_choice(&state, settings, control, rng) {
            Some(r) => r,
            None => self.decide(&state, seat, false, args, rng)?,
        };
        let mut best = r.best;
        let mut decision = Decision::from_search(&state, &r);
        // A decision already answered from outside the search is the one
        // played, the move itself that was sent (typed, not its text read
        // again), and the one told: the value sent with it.
        if let Some(answer) = control.answer() {
            let own = Progress {
                best_move: Some(MoveHandle::new(r.best)),
                ..decision.report(r.pv.iter().map(|&m| state.move_text(m)).collect())
            };
            if let Some(sent) = answer.settle(&own) {
                let mut moves = Vec::new();
                state.legal_moves(&mut moves);
                match sent
                    .best_move
                    .as_ref()
                    .and_then(MoveHandle::get::<G::Move>)
                    .filter(|mv| moves.contains(mv))
                {
                    Some(mv) => {
                        best = mv;
                        decision = Decision::from_report(&sent, r.iterations);
                    }
                    None => {
                        log::error!("the early answer {} is no move of this position", sent.best)
                    }
                }
            }
        }
        self.apply(best);
        self.resolve_chance(rng);
        Ok(decision)
    }

    fn time_use(&mut self, settings: &Settings) -> crate::control::TimeUse {
        let seats = self.game.state().num_seats();
        self.searcher
            .get(settings, seats)
            .map(|s| s.time_use())
            .unwrap_or_default()
    }

    fn ready_to_analyze(
        &mut self,
        seat: Option<Seat>,
        settings: &Settings,
        rng: &mut Rng,
    ) -> Result<(), EngineError> {
        self.search_root(seat, settings, rng).map(|_| ())
    }

    fn analyze(&mut self, args: &SearchArgs, rng: &mut Rng) -> Result<Decision, EngineError> {
        let (state, seat, pass) = self.search_root(args.seat, args.settings, rng)?;
        // After a forced pass the kept searcher does not follow `state`: a
        // fresh one searches it, and the kept one stays as it was.
        let r = self.decide(&state, seat, pass.is_some(), args, rng)?;
        Ok(Decision::from_search(&state, &r))
    }

    fn undo(&mut self) -> Result<(), EngineError> {
        // Take back the last move told or played, with the chance steps the
        // engine dealt itself after it; dealt steps alone are not undone.
        let Some(last) = self.last_move() else {
            return Err(EngineError::NothingToUndo);
        };
        self.rewind_to(last);
        Ok(())
    }

    fn restart(&mut self, rng: &mut Rng) {
        if let Some(w) = self.feed.as_mut() {
            w.reset();
        }
        self.game.restart();
        self.searcher.reset();
        self.resolve_chance(rng);
    }

    fn render(&self) -> String {
        self.game.state().render()
    }

    fn position_text(&self) -> Option<String> {
        self.game.state().position_text()
    }

    fn set_position(&mut self, text: &str) -> Result<(), EngineError> {
        self.game
            .set_position(text)
            .map_err(EngineError::Position)?;
        self.searcher.reset();
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn history(&self) -> Vec<String> {
        self.game
            .history()
            .iter()
            .map(|step| step.text.clone())
            .collect()
    }

    fn final_score(&self) -> Option<String> {
        let text = games::extras::<G>().final_score?;
        Some(text(self.game.state()))
    }

    fn board_size(&self) -> Option<u32> {
        games::extras::<G>().board_size
    }

    fn pass_text(&self) -> Option<String> {
        let pass = games::extras::<G>().pass?;
        Some(self.game.state().move_text(pass))
    }

    fn view(&self, seat: Seat) -> String {
        let view = self.game.state().view_text(seat);
        match &self.feed {
            Some(w) if w.seat() == seat => w.decorate_view(self.game.state(), view),
            _ => view,
        }
    }

    fn watch(&mut self, seat: Option<Seat>) {
        self.feed = seat.map(Feed::new);
    }

    fn take_told(&mut self) -> Vec<String> {
        self.feed.as_mut().map(Feed::take).unwrap_or_default()
    }
}
