//! The engine facade: the game in play, the settings, the session's
//! random generator and the clock. The protocol layer calls it with parsed
//! commands and formats what it returns; it never prints.

mod error;
pub mod human;
pub mod searchers;
pub mod settings;
pub mod signature;
pub mod startup;
pub(crate) mod table;
pub mod time;
pub mod tuning;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::SeedableRng;

use crate::control::{Answer, Budget, Control, Progress};
use crate::games::{self, GameEntry, GameVisitor};
use crate::model::game::{Game, MoveError, Outcome, Rng, Seat, Turn};
use crate::model::options::{OptionError, Options};
pub use error::EngineError;
pub use settings::{SettingError, Settings};
pub use table::{AnyGame, Decision, SearchArgs, Table};
use time::LagWatch;
pub use time::{BudgetOverride, Clock};

/// A request for a search: for which seat, under which budget, and how
/// the protocol steers it. The engine builds the budget and control.
pub struct Request<'a> {
    /// The seat to decide for (`None`: the seat to move).
    pub seat: Option<Seat>,
    /// Budgets given with the command; empty: the settings' budgets (for
    /// `analyze`: no budget, it runs until stopped).
    pub budget: BudgetOverride,
    /// Raised from outside to stop the search (`stop`, the next command).
    pub stop: Arc<AtomicBool>,
    /// When the command was read: budgets run from then.
    pub since: Instant,
    /// Where progress goes while the search runs (for `analyze`).
    pub reporter: Option<&'a (dyn Fn(&Progress) + Sync)>,
    /// Where `genmove` sends its move the moment it is decided (before it
    /// is played), and publishes its best move so far, so that the time
    /// manager's reply thread ([`time::answer_by_deadline`]) can answer at the
    /// deadline or a `stop` without waiting for the search's threads; the
    /// move answered is the one played.
    pub answer: Option<&'a Answer<'a>>,
    /// How many best root moves to report, each with its value and line
    /// (MultiPV: [`Decision::lines`], [`crate::control::Progress::lines`]);
    /// 0: the best move only.
    pub multipv: usize,
}

impl<'a> Request<'a> {
    /// A request for `seat` under `budget`, stopped by `stop`, its time
    /// running from `since`: no progress reports, no early answer, the
    /// best move only.
    pub fn new(
        seat: Option<Seat>,
        budget: BudgetOverride,
        stop: Arc<AtomicBool>,
        since: Instant,
    ) -> Request<'a> {
        Request {
            seat,
            budget,
            stop,
            since,
            reporter: None,
            answer: None,
            multipv: 0,
        }
    }

    /// The same request, reporting progress to `reporter`.
    pub fn reporting(self, reporter: Option<&'a (dyn Fn(&Progress) + Sync)>) -> Request<'a> {
        Request { reporter, ..self }
    }

    /// The same request, answering through `answer` (see [`Request::answer`]).
    pub fn answering(self, answer: &'a Answer<'a>) -> Request<'a> {
        Request {
            answer: Some(answer),
            ..self
        }
    }

    /// The same request, reporting the `multipv` best root moves.
    pub fn with_multipv(self, multipv: usize) -> Request<'a> {
        Request { multipv, ..self }
    }
}

/// Opens a game type behind the engine's object-safe handle.
pub(crate) struct OpenTable;

impl GameVisitor for OpenTable {
    type Output = Result<Box<dyn AnyGame>, OptionError>;
    fn visit<G: Game>(self, options: &Options) -> Self::Output {
        Ok(Box::new(Table::new(G::new_game(options)?, options.clone())))
    }
}

fn open(entry: &'static GameEntry, words: &[String]) -> Result<Box<dyn AnyGame>, EngineError> {
    entry
        .visit(words, OpenTable)
        .and_then(|opened| opened)
        .map_err(EngineError::Option)
}

/// The engine: one game in play, settings, generator, clock.
pub struct Engine {
    game: Box<dyn AnyGame>,
    /// The settings in force: the game's defaults with `chosen` laid over.
    settings: Settings,
    /// The settings set by name (not the seed), in the order they were
    /// set: they outlast a change of game, the game's defaults do not.
    chosen: Vec<(&'static str, String)>,
    rng: Rng,
    clock: Clock,
    /// What the engine has measured of the machine: the safety margin
    /// its budgets keep ([`time::LagWatch`]).
    lag: LagWatch,
    /// Human-seat mode (`game NAME human=SEAT`): the seat a human plays;
    /// the engine deals and plays every other seat as its turn comes.
    human: Option<Seat>,
    /// Human-seat mode: what the human is told besides the moves.
    notes: Vec<String>,
    /// Raised to stop the searches the engine starts on its own (the
    /// other seats' moves in human-seat mode): the stop flag of the
    /// command that made them ([`Engine::stop_with`]).
    stop: Arc<AtomicBool>,
    /// Human-seat mode: where each game's secret seed comes from.
    secrets: human::Secrets,
}

impl Engine {
    /// An engine with the default game (Othello) loaded and the generator
    /// seeded from `seed`.
    pub fn new(seed: u64) -> Result<Engine, EngineError> {
        let entry = games::GAMES
            .first()
            .ok_or_else(|| EngineError::UnknownGame(String::new()))?;
        let game = open(entry, &[])?;
        let mut engine = Engine {
            game,
            settings: Settings::default(),
            chosen: Vec::new(),
            rng: Rng::seed_from_u64(seed),
            clock: Clock::default(),
            lag: LagWatch::default(),
            human: None,
            notes: Vec::new(),
            stop: Arc::new(AtomicBool::new(false)),
            secrets: human::Secrets::default(),
        };
        engine.settings.seed = seed;
        // The evaluation is built once the start-up settings are in
        // ([`Engine::prepare_eval`]): one chosen there replaces the default.
        engine.settings = Settings::for_game(engine.game.name(), engine.game.num_seats(), &[]);
        engine.settings.seed = seed;
        engine.game.restart(&mut engine.rng);
        Ok(engine)
    }

    /// The game in play.
    pub fn game(&self) -> &dyn AnyGame {
        self.game.as_ref()
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Loads a game by name with `key=value` options; `seed=N` among them
    /// reseeds the session generator first, `human=SEAT` starts human-seat
    /// mode (the engine plays the other seats up to that seat's turn).
    /// Unchanged on error.
    pub fn load_game(&mut self, name: &str, words: &[String]) -> Result<(), EngineError> {
        let entry = games::find(name).ok_or_else(|| EngineError::UnknownGame(name.to_string()))?;
        let (seed, rest) = split_seed(words).map_err(EngineError::Option)?;
        let (human, rest) = human::split_human(&rest);
        let mut game = open(entry, &rest)?;
        let human = human
            .map(|text| human::seat_for_human(game.as_ref(), &text))
            .transpose()?;
        game.watch(human);
        self.game = game;
        self.human = human;
        self.apply_game_defaults();
        if let Some(seed) = seed {
            self.reseed(seed);
        }
        self.secrets.start_game(
            self.human,
            seed.is_some(),
            &mut self.settings,
            &mut self.rng,
        );
        self.clock.reset_game();
        self.game.restart(&mut self.rng);
        self.play_others();
        Ok(())
    }

    /// Selects a game by the name a GTP tool uses (`set_game Othello`,
    /// `set_game Reversi`): opened with its default options.
    pub fn set_game(&mut self, name: &str) -> Result<(), EngineError> {
        let entry =
            games::find_gtp(name).ok_or_else(|| EngineError::UnknownGame(name.to_string()))?;
        self.load_game(entry.name, &[])
    }

    fn reseed(&mut self, seed: u64) {
        self.settings.seed = seed;
        self.rng = Rng::seed_from_u64(seed);
        self.secrets.chosen();
    }

    /// Restarts the game in play (GTP `clear_board`).
    pub fn restart(&mut self) {
        self.secrets
            .start_game(self.human, false, &mut self.settings, &mut self.rng);
        self.clock.reset_game();
        self.game.restart(&mut self.rng);
        self.play_others();
    }

    /// Reloads the game with a board size option (GTP `boardsize`).
    pub fn set_board_size(&mut self, size: u32) -> Result<(), EngineError> {
        let name = self.game.name();
        let entry = games::find(name).ok_or_else(|| EngineError::UnknownGame(name.to_string()))?;
        if !entry.options.iter().any(|o| o.name == "size") {
            return match self.game.board_size() {
                Some(n) if n == size => {
                    self.restart();
                    Ok(())
                }
                Some(n) => Err(EngineError::Unsupported(format!(
                    "unacceptable size: {name} is played on {n}x{n}"
                ))),
                None => Err(EngineError::Unsupported(format!(
                    "{name} has no board size"
                ))),
            };
        }
        let mut words: Vec<String> = self
            .game
            .options()
            .given()
            .into_iter()
            .filter(|w| !w.starts_with("size="))
            .collect();
        words.push(format!("size={size}"));
        let mut game = open(entry, &words).map_err(|e| match e {
            EngineError::Option(OptionError::BadValue { expected, .. }) => {
                EngineError::Unsupported(format!("unacceptable size: {name} takes {expected}"))
            }
            // GTP's wording for any size the game refuses.
            EngineError::Option(other) => {
                EngineError::Unsupported(format!("unacceptable size: {other}"))
            }
            other => other,
        })?;
        game.watch(self.human);
        self.game = game;
        self.apply_game_defaults();
        self.restart();
        Ok(())
    }

    /// The settings for the game in play: its defaults (the per-game table
    /// in [`settings::GAME_DEFAULTS`]), then what was chosen by name.
    fn apply_game_defaults(&mut self) {
        let seed = self.settings.seed;
        self.settings = Settings::for_game(self.game.name(), self.game.num_seats(), &self.chosen);
        // The evaluation is built now, off the first search's clock (the
        // game may start decoding weights on a helper thread); one chosen
        // for another game may be none of this one's.
        if let Err(e) = self.game.prepare_eval(&self.settings) {
            log::warn!("{e}; {} plays its default evaluation", self.game.name());
            self.chosen.retain(|(n, _)| *n != "eval");
            self.settings =
                Settings::for_game(self.game.name(), self.game.num_seats(), &self.chosen);
        }
        self.settings.seed = seed;
    }

    /// Builds the evaluation the settings name for the game in play, so
    /// that no search pays for it (a start-up's last step).
    pub fn prepare_eval(&mut self) -> Result<(), EngineError> {
        self.game.prepare_eval(&self.settings)
    }

    /// Changes a setting; `seed` reseeds the generator. A chosen setting
    /// holds for the rest of the session, over every game's defaults;
    /// the value `default` gives it back to the game's default.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let canonical = Settings::canonical_name(name)
            .ok_or_else(|| EngineError::Setting(SettingError::Unknown(name.to_string())))?;
        if canonical == "seed" {
            self.settings
                .set(name, value)
                .map_err(EngineError::Setting)?;
            let seed = self.settings.seed;
            self.reseed(seed);
            return Ok(());
        }
        if canonical == "eval" && !value.eq_ignore_ascii_case("default") {
            // The game in play builds it now: a bad name or file is
            // refused here, not at the next search.
            let mut next = self.settings.clone();
            next.set(name, value).map_err(EngineError::Setting)?;
            self.game.prepare_eval(&next)?;
        }
        if value.eq_ignore_ascii_case("default") {
            self.chosen.retain(|(n, _)| *n != canonical);
        } else {
            self.settings
                .set(name, value)
                .map_err(EngineError::Setting)?;
            self.chosen.retain(|(n, _)| *n != canonical);
            self.chosen.push((canonical, value.to_string()));
        }
        self.apply_game_defaults();
        self.play_others();
        Ok(())
    }

    /// Reads a seat name.
    pub fn seat(&self, text: &str) -> Result<Seat, EngineError> {
        self.game
            .parse_seat(text)
            .ok_or_else(|| EngineError::UnknownSeat(text.to_string()))
    }

    /// Plays a move for a seat (or the seat to move). In human-seat mode
    /// only the human's seat is played so, and the engine then plays the
    /// other seats up to the human's next turn.
    pub fn play(&mut self, seat: Option<&str>, mv: &str) -> Result<String, EngineError> {
        let seat = seat.map(|s| self.seat(s)).transpose()?;
        if let Some(h) = self.human {
            human::check_human_plays(self.game.as_ref(), h, seat)?;
        }
        let mover = self.mover(seat);
        let played = self
            .game
            .play(seat, mv, &mut self.rng)
            .map_err(|e| self.with_legal_moves(e))?;
        if let Some(p) = mover {
            self.clock.moved(p, None);
        }
        self.play_others();
        Ok(played)
    }

    /// The seat a move is for: the one named, else the seat to move.
    fn mover(&self, seat: Option<Seat>) -> Option<Seat> {
        seat.or(match self.game.turn() {
            Turn::Player(p) => Some(p),
            _ => None,
        })
    }

    /// A refused move's error with what is legal: the moves where they
    /// are few, else how many, one example and how to list them.
    fn with_legal_moves(&self, e: EngineError) -> EngineError {
        let moves = self.game.legal_moves();
        let hint = match moves.len() {
            0 => return e,
            1..=16 => format!("legal: {}", moves.join(" ")),
            n => format!("{n} legal moves, e.g. {}; legal_moves lists them", moves[0]),
        };
        match e {
            EngineError::Move(MoveError::Illegal(m)) => {
                EngineError::Move(MoveError::Illegal(format!("{m}; {hint}")))
            }
            EngineError::Move(MoveError::Syntax(m)) => {
                EngineError::Move(MoveError::Syntax(format!("{m}; {hint}")))
            }
            e => e,
        }
    }

    /// The seat a human plays in human-seat mode.
    pub fn human(&self) -> Option<Seat> {
        self.human
    }

    /// The session seed was drawn at random, not given: human-seat games
    /// deal from secret seeds ([`human::Secrets::keep_secret`]).
    pub fn keep_deals_secret(&mut self) {
        self.secrets.keep_secret();
    }

    /// A reply in human-seat mode: `text`, then what the human was told
    /// and whose turn it is, or the result (`result` of this engine) and
    /// the game's seed ([`human::reply`]). Outside the mode, `text`.
    pub fn human_reply(
        &mut self,
        command: &str,
        text: String,
        result: fn(&Engine) -> String,
    ) -> String {
        let Some(h) = self.human else { return text };
        let told = self.take_told();
        let end = (self.game.turn() == Turn::Over).then(|| result(self));
        let seed = self.secrets.game_seed();
        human::reply(self.game(), h, seed, told, command, text, end)
    }

    /// What the human was told since the last call (human-seat mode):
    /// the other seats' moves and the human's own cards, in order.
    pub fn take_told(&mut self) -> Vec<String> {
        let mut told = self.game.take_told();
        told.append(&mut self.notes);
        told
    }

    /// Stops the searches the engine starts on its own from now on (the
    /// other seats' moves in human-seat mode) when `stop` is raised: the
    /// protocol gives the flag of the command that may start them, which
    /// the end of the input or a `quit` raises.
    pub fn stop_with(&mut self, stop: Arc<AtomicBool>) {
        self.stop = stop;
    }

    /// Human-seat mode: plays every seat but the human's, each with the
    /// settings' budget, until the human is to move or the game is over.
    /// A search that is refused (a setting that does not fit the game) is
    /// told as a line, and the game waits: the next `set` or `play` tries
    /// again.
    pub fn play_others(&mut self) {
        let Some(h) = self.human else { return };
        while let Turn::Player(p) = self.game.turn() {
            if p == h {
                break;
            }
            let request = Request::new(
                None,
                BudgetOverride::default(),
                self.stop.clone(),
                Instant::now(),
            );
            if let Err(e) = self.genmove(&request) {
                let seat = self.game.seat_name(p);
                self.notes
                    .push(format!("{seat} cannot move: {e} (set search to fix it)"));
                break;
            }
        }
    }

    /// Applies a chance outcome told by a referee.
    pub fn deal(&mut self, text: &str) -> Result<(), EngineError> {
        self.game.deal(text, &mut self.rng)
    }

    /// The budget of the next search for `seat`: the time manager's
    /// ([`time::budget`]), from the settings, the command's budgets, the
    /// clock and the search's own use of time.
    fn budget_for(&mut self, seat: Option<Seat>, over: &BudgetOverride) -> Budget {
        let mover = self.mover(seat);
        let allotment = mover.and_then(|p| self.clock.allot(p, self.game.moves_left()));
        let time_use = self.game.time_use(&self.settings);
        time::budget(&self.settings, over, allotment, time_use, self.lag.margin())
    }

    /// Searches and plays a move for the request's seat (or the seat to
    /// move) under its budget, or the settings' and the clock's.
    pub fn genmove(&mut self, request: &Request) -> Result<Decision, EngineError> {
        let budget = self.budget_for(request.seat, &request.budget);
        let control = self.control(request, &budget);
        let mover = self.mover(request.seat);
        let args = SearchArgs {
            seat: request.seat,
            settings: &self.settings,
            budget: &budget,
            control: &control,
            valued: request.reporter.is_some() || request.multipv > 0,
        };
        let (game, rng) = (&mut self.game, &mut self.rng);
        let mut search = || game.genmove(&args, rng);
        let cpu_before = time::thread_cpu_time();
        let search_start = Instant::now();
        let decision = match request.answer {
            Some(answer) => time::answer_by_deadline(
                time::reply_deadline(&budget, request.since),
                &request.stop,
                answer,
                search,
            ),
            None => search(),
        };
        // The search's own thread ran it: what it got of a core while it
        // searched (not while the command waited to be read), and how far
        // past its time the engine was free again, teach the margin.
        let took = request.since.elapsed();
        if let Some(time) = budget.time {
            let searched = search_start.elapsed();
            let cpu = cpu_before
                .zip(time::thread_cpu_time())
                .map(|(before, after)| after.saturating_sub(before));
            self.lag.observe(time, took, cpu.map(|cpu| (cpu, searched)));
            log::debug!(
                "timed move: {took:?} for {time:?}; margin now {:?}, CPU share {:.2}",
                self.lag.margin(),
                self.lag.share()
            );
        }
        let decision = decision?;
        if let Some(p) = mover {
            self.clock.moved(p, Some(took));
        }
        Ok(decision)
    }

    /// The budget the time manager gives the request's search now (a
    /// `genmove` without an early answer ends by its time, if it has one).
    pub fn budget(&mut self, request: &Request) -> Budget {
        self.budget_for(request.seat, &request.budget)
    }

    fn control<'a>(&self, request: &Request<'a>, budget: &Budget) -> Control<'a> {
        let mut control = Control::starting_at(request.stop.clone(), budget, request.since);
        if let Some(r) = request.reporter {
            control = control.with_reporter(r);
        }
        if let Some(a) = request.answer {
            control = control.with_answer(a);
        }
        control.with_multipv(request.multipv)
    }

    /// Checks that [`Engine::analyze`] may search for a seat (or the seat
    /// to move): it is that seat's turn (after a forced pass of the other)
    /// and the search fits the game.
    pub fn ready_to_analyze(&mut self, seat: Option<Seat>) -> Result<(), EngineError> {
        self.game
            .ready_to_analyze(seat, &self.settings, &mut self.rng)
    }

    /// Searches the position for the request's seat (or the seat to move)
    /// without playing: the game is left as it was, and what the search
    /// learned is kept for the next `genmove`. Without a budget in the
    /// request it runs until stopped.
    pub fn analyze(&mut self, request: &Request) -> Result<Decision, EngineError> {
        let budget = if request.budget.is_empty() {
            Budget::default()
        } else {
            self.budget_for(request.seat, &request.budget)
        };
        let control = self.control(request, &budget);
        let args = SearchArgs {
            seat: request.seat,
            settings: &self.settings,
            budget: &budget,
            control: &control,
            valued: true,
        };
        self.game.analyze(&args, &mut self.rng)
    }

    /// Takes back the last move; in human-seat mode, the human's last
    /// move and the engine's replies ([`human::undo`]).
    pub fn undo(&mut self) -> Result<(), EngineError> {
        human::undo(
            self.game.as_mut(),
            self.human,
            &mut self.rng,
            &mut self.notes,
        )
    }

    /// Sets the position from text.
    pub fn set_position(&mut self, text: &str) -> Result<(), EngineError> {
        self.game.set_position(text)?;
        self.play_others();
        Ok(())
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    /// The clock.
    pub fn clock_mut(&mut self) -> &mut Clock {
        &mut self.clock
    }
}

/// Takes the engine-level option `seed=N`, which every game accepts, out
/// of a game's option words: the seed, and the game's own options.
pub fn split_seed(words: &[String]) -> Result<(Option<u64>, Vec<String>), OptionError> {
    let mut seed = None;
    let mut rest = Vec::new();
    for w in words {
        match w.split_once('=') {
            Some((k, v)) if k.eq_ignore_ascii_case("seed") => {
                seed = Some(v.parse::<u64>().map_err(|_| OptionError::BadValue {
                    key: "seed".into(),
                    value: v.into(),
                    expected: "a whole number".into(),
                })?);
            }
            _ => rest.push(w.clone()),
        }
    }
    Ok((seed, rest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn every_budget_ends_the_search() {
        let mut e = Engine::new(1).expect("engine");
        e.set("search", "mcts").expect("set");
        let depth_only = BudgetOverride {
            depth: Some(3),
            ..BudgetOverride::default()
        };
        // Monte Carlo searches have no use for a depth: they get a time.
        assert!(e.budget_for(None, &depth_only).time.is_some());
        e.set("search", "alphabeta").expect("set");
        assert_eq!(e.budget_for(None, &depth_only).time, None);
        e.set("search", "mcts").expect("set");
        e.set("iterations", "500").expect("set");
        assert_eq!(
            e.budget_for(None, &BudgetOverride::default()),
            Budget {
                iterations: Some(500),
                time: None,
                target: None,
                depth: None
            }
        );
        e.set("movetime", "100").expect("set");
        let b = e.budget_for(None, &BudgetOverride::default());
        assert_eq!(
            b.time,
            Some(Duration::from_millis(90)),
            "overhead is kept back"
        );
    }

    #[test]
    fn game_defaults_follow_the_game_and_chosen_settings_outlast_it() {
        let mut e = Engine::new(1).expect("engine");
        assert_eq!(e.settings().search, settings::SearchKind::AlphaBeta);
        assert_eq!(e.settings().solve_reach, 24);
        e.load_game("hearts", &[]).expect("hearts");
        assert_eq!(e.settings().search, settings::SearchKind::Ismcts);
        assert_eq!(e.settings().solve_reach, 0);
        e.load_game("quoridor", &["players=4".into()])
            .expect("quoridor");
        assert_ne!(e.settings().search, settings::SearchKind::AlphaBeta);
        e.set("search", "MCTS").expect("set");
        e.set("c", "0.5").expect("set");
        e.load_game("othello", &[]).expect("othello");
        assert_eq!(e.settings().search, settings::SearchKind::Mcts);
        // The search chosen by name leaves the game's whole player behind.
        assert_eq!((e.settings().c, e.settings().solve_reach), (0.5, 0));
        // `default` gives a setting back to the game; the seed is no
        // game's business and stays.
        e.set("seed", "77").expect("set");
        e.set("search", "default").expect("set");
        assert_eq!(e.settings().search, settings::SearchKind::AlphaBeta);
        assert_eq!(e.settings().solve_reach, 24);
        e.load_game("wizard", &[]).expect("wizard");
        assert_eq!(e.settings().seed, 77);
        assert_eq!(e.settings().c, 0.5);
        assert!(e.set("search", "magic").is_err());
        assert!(e.set("colour", "default").is_err());
        assert_eq!(e.settings().search, settings::SearchKind::Ismcts);
    }

    #[test]
    fn under_a_clock_alpha_beta_gets_a_target_and_the_others_spend_it() {
        let mut e = Engine::new(1).expect("engine");
        e.set("overhead", "0").expect("set");
        e.set("search", "mcts").expect("set");
        // 64.2 s, the start of Othello: 30 moves a side, a twentieth of
        // 64 s (10 ms kept back for each of 20 moves to go).
        e.clock_mut()
            .set(Duration::from_millis(64_200), Duration::ZERO, 0);
        let none = BudgetOverride::default();
        let ms = Duration::from_millis;
        let b = e.budget_for(None, &none);
        assert_eq!((b.time, b.target), (Some(ms(3200)), None), "mcts");
        e.set("search", "alphabeta").expect("set");
        let b = e.budget_for(None, &none);
        assert_eq!((b.time, b.target), (Some(ms(9600)), Some(ms(3200))));
        // A move time caps it all; under the target, no target is left.
        e.set("movetime", "5000").expect("set");
        let b = e.budget_for(None, &none);
        assert_eq!((b.time, b.target), (Some(ms(5000)), Some(ms(3200))));
        e.set("movetime", "2000").expect("set");
        let b = e.budget_for(None, &none);
        assert_eq!((b.time, b.target), (Some(ms(2000)), None));
        e.set("movetime", "0").expect("set");
        e.set("timeman", "off").expect("set");
        let b = e.budget_for(None, &none);
        assert_eq!((b.time, b.target), (Some(ms(3200)), None));
    }
}
