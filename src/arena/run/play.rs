//! Playing one game: the runner as referee between engine processes.
//!
//! Each seat has its own engine process (card games bind every process to
//! one seat, so an engine occupying two seats runs twice). The referee
//! draws the chance steps, asks the seat to move for a move, checks it,
//! and tells every seat's engine what the game's `tell` hook gives for that
//! seat, written as protocol lines here ([`observation_line`]). Any fault ends the game with a loss for the
//! culprit; the runner itself never stops on engine output.

use std::time::{Duration, Instant};

use rand::{Rng as _, SeedableRng};

use crate::arena::clock::seat_clock::{Rounding, SeatClock};
use crate::arena::config::match_setup::MatchSetup;
use crate::arena::config::openings::Opening;
use crate::arena::config::spec::{EngineSpec, Proto, fmt_seconds};
use crate::arena::engines::process::{EngineProcess, ProcessError};
use crate::arena::ground::referee::{Referee, Told, game_command};
use crate::arena::record::match_file::{Ending, Fault, GameRecord, results_from_winners};
use crate::arena::record::note::Note;
use crate::arena::run::adjudicate::{self, ScoreWatch, Verdict};
use crate::model::game::{MoveError, Observation, Rng, Seat, Turn};

/// One game to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameJob {
    /// Game number in the match, from 1.
    pub number: usize,
    /// The two engines of the pairing.
    pub pairing: (usize, usize),
    /// The deal index (chance and opening).
    pub deal: u64,
    /// The engine at each seat.
    pub seats: Vec<usize>,
}

/// A stream of random numbers for one step of one deal: the same
/// `(seed, deal, step)` always gives the same generator, so a deal replays
/// identically whoever sits where.
pub fn deal_rng(seed: u64, deal: u64, step: u64) -> Rng {
    // SplitMix64 finaliser over the three numbers: cheap and well mixed.
    let mut z =
        seed ^ deal.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ step.wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    Rng::seed_from_u64(z ^ (z >> 31))
}

/// Engine processes kept alive between the games of one worker thread.
#[derive(Default)]
pub struct Pool {
    idle: Vec<Vec<EngineProcess>>,
    /// Engines whose process died here: the next one started is a restart.
    lost: Vec<bool>,
}

impl Pool {
    /// An idle process of `engine`, or a new one (started and
    /// initialised), and whether that new one replaces a dead one.
    fn take(
        &mut self,
        setup: &MatchSetup,
        engine: usize,
        label: &str,
    ) -> Result<(EngineProcess, bool), ProcessError> {
        if let Some(p) = self.idle.get_mut(engine).and_then(Vec::pop) {
            return Ok((p, false));
        }
        let restart = self.lost.get_mut(engine).is_some_and(std::mem::take);
        let spec = &setup.engines[engine];
        let mut p = EngineProcess::spawn(&spec.launch, label, setup.log.clone())?;
        p.set_ids(sends_ids(spec.proto));
        for line in spec.start_lines() {
            p.send(line, setup.timeout)?;
        }
        Ok((p, restart))
    }

    /// Returns a healthy process for later games (a dead one is noted).
    fn give(&mut self, engine: usize, p: EngineProcess) {
        if p.is_dead() {
            if self.lost.len() <= engine {
                self.lost.resize(engine + 1, false);
            }
            self.lost[engine] = true;
            return;
        }
        if self.idle.len() <= engine {
            self.idle.resize_with(engine + 1, Vec::new);
        }
        self.idle[engine].push(p);
    }

    /// Asks every idle engine to quit.
    pub fn close(self) {
        for p in self.idle.into_iter().flatten() {
            p.quit();
        }
    }
}

/// Whether the runner sends command ids to an engine of dialect `proto`:
/// to tabula's own engines (which echo them), never to plain GTP engines
/// (which differ in how they write one back: Edax 4.6 answers `= 7 e2`).
pub fn sends_ids(proto: Proto) -> bool {
    proto == Proto::Tabula
}

/// A fault: the engine that caused it, what it was, and the details.
struct Forfeit {
    engine: usize,
    fault: Fault,
    detail: String,
}

/// The time limit of one timed move, as the referee enforces it.
#[derive(Clone, Debug)]
struct MoveLimit {
    /// How long the reply may take from when `genmove` is sent.
    wait: Duration,
    /// What the wait is made of, for the forfeit's message.
    parts: String,
}

impl MoveLimit {
    /// The limit of a seat's clock: its time left (in main time, and the
    /// first period it may run on into) and its grace.
    fn of_clock(clock: &SeatClock) -> MoveLimit {
        let left = match clock.stones() {
            0 => "in main time".to_string(),
            n => format!("for {n} stones"),
        };
        let period = match clock.next_period() {
            Some(byo) => format!(" + {}s of the first period", fmt_millis(byo)),
            None => String::new(),
        };
        MoveLimit {
            wait: clock.allowed(),
            parts: format!(
                "its clock: {}s left {left}{period} + {}s grace",
                fmt_millis(clock.left()),
                fmt_millis(clock.grace_for_move())
            ),
        }
    }

    /// The limit of a move time of `ms` milliseconds with `margin`.
    fn of_movetime(ms: u64, margin: Duration) -> MoveLimit {
        MoveLimit {
            wait: Duration::from_millis(ms) + margin,
            parts: format!(
                "movetime {}s + {}s grace (--timemargin)",
                fmt_millis(Duration::from_millis(ms)),
                fmt_millis(margin)
            ),
        }
    }
}

/// Seconds to the millisecond, as a forfeit's message gives them.
fn fmt_millis(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64())
}

fn fault_of(e: &ProcessError) -> Fault {
    match e {
        ProcessError::Spawn { .. } => Fault::Spawn,
        ProcessError::Crashed(_) => Fault::Crash,
        ProcessError::Timeout { .. } => Fault::Timeout,
        ProcessError::Malformed(_) => Fault::Malformed,
        ProcessError::Refused { .. } => Fault::Refused,
    }
}

/// How a game ended: what the game loop and each of its steps return
/// (as `Err`, the way out of the loop) when the game ends there.
enum GameEnd {
    /// By the rules.
    Over,
    /// Decided early by `--adjudicate`.
    Adjudicated(Verdict),
    /// The engine (index) resigned.
    Resign(usize),
    /// The move limit was reached.
    MoveLimit,
    /// The [`Outside`] left the game unfinished.
    Abandoned,
    /// The runner itself failed (a bug): the game does not count.
    Error(String),
    /// An engine's fault.
    Forfeit(Forfeit),
}

impl From<Forfeit> for GameEnd {
    fn from(f: Forfeit) -> GameEnd {
        GameEnd::Forfeit(f)
    }
}

/// Someone outside the runner who decides some turns (a person at the
/// GUI) and watches every step; the runner stays the referee. The seats
/// it plays itself ([`Outside::human`]) have no engine process.
pub trait Outside {
    /// Whether `seat` is played from outside for the whole game (no
    /// engine is started for it, and it is told nothing).
    fn human(&self, seat: Seat) -> bool;
    /// Whether this turn of `seat` is decided outside: always for a
    /// person's seat; for an engine's seat, a move replayed from outside
    /// (which its engine is then told, as an opening move).
    fn decides(&mut self, referee: &dyn Referee, seat: Seat) -> bool;
    /// Plays the move of `seat` on `referee` (which checks it) and
    /// returns what it tells; `None` leaves the game unfinished.
    fn choose(&mut self, referee: &mut dyn Referee, seat: Seat) -> Option<Told>;
    /// The engine at `seat` is about to be asked for its move.
    fn thinking(&mut self, referee: &dyn Referee, seat: Seat);
    /// A step was applied (`seat` is `None` for a chance step).
    fn applied(&mut self, referee: &dyn Referee, seat: Option<Seat>, told: &Told);
    /// Whether to stop the game now, between steps.
    fn abandoned(&self) -> bool;
}

/// One game in progress.
struct RefereedGame<'a, 'o> {
    setup: &'a MatchSetup,
    job: &'a GameJob,
    referee: Box<dyn Referee>,
    procs: Vec<Option<EngineProcess>>,
    /// Each seat's clock, when it has one.
    clocks: Vec<Option<SeatClock>>,
    transcript: Vec<String>,
    plies: usize,
    /// Engines whose process was restarted for this game.
    restarted: Vec<usize>,
    /// The engines' scores, for score adjudication.
    scores: ScoreWatch,
    outside: Option<&'o mut dyn Outside>,
}

impl RefereedGame<'_, '_> {
    /// Whether `seat` is played from outside, without an engine.
    fn human(&self, seat: Seat) -> bool {
        self.outside.as_ref().is_some_and(|o| o.human(seat))
    }

    /// Tells the outside about an applied step.
    fn applied(&mut self, seat: Option<Seat>, told: &Told) {
        if let Some(o) = self.outside.as_mut() {
            o.applied(self.referee.as_ref(), seat, told);
        }
    }

    fn spec(&self, seat: Seat) -> &EngineSpec {
        &self.setup.engines[self.job.seats[seat]]
    }

    /// Sends one command that has no time limit of its own to the engine
    /// at `seat` (it may take up to `timeout`, `--timeout`); any failure is
    /// its fault, and no reply by then is a hang, counted with the
    /// crashes.
    fn send(&mut self, seat: Seat, command: &str, timeout: Duration) -> Result<String, Forfeit> {
        self.send_within(seat, command, timeout).map_err(|mut f| {
            if f.fault == Fault::Timeout {
                f.fault = Fault::Crash;
                f.detail = format!("hung: {} (--timeout)", f.detail);
            }
            f
        })
    }

    /// Sends one command to the engine at `seat`, waiting up to `timeout`
    /// for its reply; any failure is its fault (no reply in time:
    /// [`Fault::Timeout`]).
    fn send_within(
        &mut self,
        seat: Seat,
        command: &str,
        timeout: Duration,
    ) -> Result<String, Forfeit> {
        let engine = self.job.seats[seat];
        let Some(p) = self.procs.get_mut(seat).and_then(Option::as_mut) else {
            return Err(Forfeit {
                engine,
                fault: Fault::Crash,
                detail: "no process".to_string(),
            });
        };
        p.send(command, timeout).map_err(|e| Forfeit {
            engine,
            fault: fault_of(&e),
            detail: e.to_string(),
        })
    }

    fn start_engines(&mut self, pool: &mut Pool) -> Result<(), Forfeit> {
        for seat in 0..self.job.seats.len() {
            if self.human(seat) {
                continue;
            }
            let engine = self.job.seats[seat];
            let label = format!(
                "{} game {} {}",
                self.setup.engines[engine].name,
                self.job.number,
                self.referee.seat_name(seat)
            );
            match pool.take(self.setup, engine, &label) {
                Ok((mut p, restart)) => {
                    // A reused process plays this game at this seat now.
                    p.set_label(&label);
                    self.procs[seat] = Some(p);
                    if restart {
                        self.restarted.push(engine);
                    }
                }
                Err(e) => {
                    return Err(Forfeit {
                        engine,
                        fault: fault_of(&e),
                        detail: e.to_string(),
                    });
                }
            }
        }
        Ok(())
    }

    /// Loads the game in every engine.
    fn new_game(&mut self) -> Result<(), Forfeit> {
        let timeout = self.setup.timeout;
        let perfect = self.referee.perfect_information();
        for seat in 0..self.job.seats.len() {
            if self.human(seat) {
                continue;
            }
            let spec = self.spec(seat).clone();
            let clock = spec.limits.clock;
            match spec.proto {
                Proto::Tabula => {
                    let cmd = game_command(
                        self.referee.game_name(),
                        &self.referee.option_words(),
                        (!perfect).then_some(seat),
                    );
                    self.send(seat, &cmd, timeout)?;
                    if self.setup.game_seeds && !spec.sets_seed {
                        // One-way: no engine can recover the match seed
                        // (and the deals) from it.
                        let seed = crate::arena::seed::engine_seed(
                            self.setup.seed,
                            self.job.number as u64,
                            seat as u64,
                        );
                        // An engine without seeds may refuse: that is fine.
                        match self.send(seat, &format!("set seed {seed}"), timeout) {
                            Err(f) if f.fault != Fault::Refused => return Err(f),
                            _ => {}
                        }
                    }
                }
                Proto::Gtp => {
                    if let Some(size) = self.referee.board_size() {
                        self.send(seat, &format!("boardsize {size}"), timeout)?;
                    }
                    self.send(seat, "clear_board", timeout)?;
                }
            }
            if let Some(c) = clock {
                // Announced as enforced: to the millisecond for tabula
                // engines, and whole seconds (checked at start) for GTP.
                self.send(seat, &c.time_settings_command(), timeout)?;
            } else if let (Proto::Gtp, Some(ms)) = (spec.proto, spec.limits.movetime) {
                // Plain GTP has no per-call budget: a byo-yomi of one move
                // (a whole number of seconds, checked at start).
                self.send(
                    seat,
                    &format!(
                        "time_settings 0 {} 1",
                        fmt_seconds(Duration::from_millis(ms))
                    ),
                    timeout,
                )?;
            }
        }
        Ok(())
    }

    /// Sends every seat its lines for an applied step.
    fn tell(&mut self, told: &Told) -> Result<(), Forfeit> {
        let timeout = self.setup.timeout;
        for (seat, observations) in told.observations.iter().enumerate() {
            if self.human(seat) {
                continue;
            }
            for observation in observations {
                let line = observation_line(self.referee.as_ref(), observation);
                match self.send(seat, &line, timeout) {
                    // GTP Othello engines (GRhino; Quarry never sends one)
                    // keep passes implicit: the same colour simply moves
                    // again. A refused pass is not a fault.
                    Err(f)
                        if f.fault == Fault::Refused
                            && self.spec(seat).proto == Proto::Gtp
                            && matches!(observation,
                                Observation::Played { mv, .. } if mv.eq_ignore_ascii_case("pass")) =>
                        {}
                    other => {
                        other?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The line of a player's move, as engines are told it and as the
    /// transcript records it.
    fn played_line(&self, seat: Seat, text: &str) -> String {
        observation_line(
            self.referee.as_ref(),
            &Observation::Played {
                seat,
                mv: text.to_string(),
            },
        )
    }

    fn runner_error(e: MoveError) -> String {
        format!("the referee refused its own step: {e}")
    }

    /// The deal's opening from the suite, then the random opening moves:
    /// told to everyone including the mover.
    fn opening(&mut self) -> Result<(), GameEnd> {
        if !self.referee.perfect_information() {
            return Ok(());
        }
        if let Some(suite) = &self.setup.openings {
            match suite.for_deal(self.job.deal).1 {
                Opening::Position(text) => {
                    if let Err(e) = self.referee.set_position(text) {
                        return Err(GameEnd::Error(format!("the opening's position: {e}")));
                    }
                    let line = format!("setboard {text}");
                    self.transcript.push(line.clone());
                    for seat in 0..self.job.seats.len() {
                        self.send(seat, &line, self.setup.timeout)?;
                    }
                }
                Opening::Moves(moves) => {
                    for mv in moves.clone() {
                        self.opening_move(&mv)?;
                    }
                }
            }
        }
        for k in 0..self.setup.random_plies {
            let Turn::Player(_) = self.referee.turn() else {
                break;
            };
            let moves = self.referee.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut rng = deal_rng(self.setup.seed, self.job.deal, 1_000_000 + k as u64);
            let pick = moves[rng.gen_range(0..moves.len())].clone();
            self.opening_move(&pick)?;
        }
        Ok(())
    }

    /// One move of the opening, played by the runner for the seat to move.
    fn opening_move(&mut self, mv: &str) -> Result<(), GameEnd> {
        let Turn::Player(seat) = self.referee.turn() else {
            return Err(GameEnd::Error(format!(
                "the opening move {mv} comes after the game's end"
            )));
        };
        let told = match self.referee.play(mv) {
            Ok(t) => t,
            Err(e) => return Err(GameEnd::Error(Self::runner_error(e))),
        };
        self.scores
            .moved(seat, None, false, &self.setup.adjudication);
        let line = self.played_line(seat, &told.text);
        self.transcript.push(line.clone());
        self.applied(Some(seat), &told);
        self.tell(&told)?;
        if !self.human(seat) {
            self.send(seat, &line, self.setup.timeout)?;
        }
        Ok(())
    }

    /// Asks the seat to move for a move, under its limits.
    fn genmove(&mut self, seat: Seat) -> Result<Told, GameEnd> {
        let engine = self.job.seats[seat];
        let spec = self.spec(seat).clone();
        let name = self.referee.seat_name(seat);
        let margin = self.setup.margin;
        // The time limit of the move, if it has one: the time the engine
        // was told it has plus the grace, and what that is made of.
        let mut limit: Option<MoveLimit> = None;
        // Told no more than it has: to the millisecond for tabula engines,
        // whole seconds rounded down for GTP.
        let rounding = match spec.proto {
            Proto::Tabula => Rounding::Millis,
            Proto::Gtp => Rounding::Down,
        };
        if let Some(clock) = self.clocks[seat] {
            let announce = clock.time_left_command(&name, rounding);
            self.send(seat, &announce, self.setup.timeout)?;
            limit = Some(MoveLimit::of_clock(&clock));
        }
        let mut cmd = format!("genmove {name}");
        if let Some(ms) = spec.limits.movetime {
            let per_move = MoveLimit::of_movetime(ms, margin);
            if limit.as_ref().is_none_or(|l| per_move.wait < l.wait) {
                limit = Some(per_move);
            }
            if spec.proto == Proto::Tabula {
                cmd.push_str(&format!(" movetime={ms}"));
            }
        }
        if spec.proto == Proto::Tabula {
            if let Some(d) = spec.limits.depth {
                cmd.push_str(&format!(" depth={d}"));
            }
            if let Some(n) = spec.limits.iterations {
                cmd.push_str(&format!(" iterations={n}"));
            }
        }
        let started = Instant::now();
        // The deadline: a timed move must be answered by its limit (from
        // when it was asked, whatever happens on the way); an untimed one
        // within --timeout, or it hangs.
        let deadline = started + limit.as_ref().map_or(self.setup.timeout, |l| l.wait);
        let ask = |game: &mut Self, line: &str| {
            let left = deadline.saturating_duration_since(Instant::now());
            match limit {
                Some(_) => game.send_within(seat, line, left),
                None => game.send(seat, line, left),
            }
        };
        // Score adjudication: the search's value before the move; an
        // engine that refuses the words is asked plainly from then on.
        let asked = self.setup.adjudication.wants_scores()
            && spec.proto == Proto::Tabula
            && self.scores.asks(seat);
        let reply = if asked {
            match ask(
                self,
                &format!("{cmd} {}", crate::arena::ground::adjudication::SCORE_WORDS),
            ) {
                Err(f) if f.fault == Fault::Refused => {
                    self.scores.refused(seat);
                    ask(self, &cmd)
                }
                other => other,
            }
        } else {
            ask(self, &cmd)
        };
        let reply = reply.map_err(|mut f| {
            if f.fault == Fault::Timeout
                && let Some(l) = &limit
            {
                // A late reply to a timed move is a loss on time, not a
                // hang: the engine is alive, the machine may be busy.
                f.detail = format!(
                    "no reply to '{cmd}' within {}s ({}): lost on time",
                    fmt_millis(l.wait),
                    l.parts
                );
            }
            f
        })?;
        let spent = started.elapsed();
        if let Some(clock) = self.clocks[seat].as_mut() {
            // Within what was allowed, so the flag stands.
            clock.charge(spent);
        }
        let (text, score) = adjudicate::read_genmove_reply(&reply);
        if text.eq_ignore_ascii_case("resign") {
            self.transcript
                .push(crate::arena::record::match_file::resign_note(&name));
            return Err(GameEnd::Resign(engine));
        }
        let forfeit = |fault, e: MoveError| Forfeit {
            engine,
            fault,
            detail: format!("answered '{text}': {e}"),
        };
        match self.referee.play(&text) {
            Ok(told) => {
                // Asked, refused or not (a GTP engine cannot be asked).
                let asked = self.setup.adjudication.wants_scores();
                self.scores
                    .moved(seat, score, asked, &self.setup.adjudication);
                Ok(told)
            }
            // A reply that is not a move at all is malformed; a move the
            // rules refuse is illegal.
            Err(e @ MoveError::Syntax(_)) => Err(forfeit(Fault::Malformed, e).into()),
            Err(e @ (MoveError::Illegal(_) | MoveError::GameOver)) => {
                Err(forfeit(Fault::Illegal, e).into())
            }
        }
    }

    /// The game loop, from the first step to the end (never `Ok`).
    fn run(&mut self) -> Result<std::convert::Infallible, GameEnd> {
        self.opening()?;
        let mut chance_steps = 0u64;
        loop {
            if self.outside.as_ref().is_some_and(|o| o.abandoned()) {
                return Err(GameEnd::Abandoned);
            }
            match self.referee.turn() {
                Turn::Over => return Err(GameEnd::Over),
                Turn::Chance => {
                    let mut rng = deal_rng(self.setup.seed, self.job.deal, chance_steps);
                    chance_steps += 1;
                    let told = match self.referee.sample_and_apply_chance(&mut rng) {
                        Ok(t) => t,
                        Err(e) => return Err(GameEnd::Error(Self::runner_error(e))),
                    };
                    let line = observation_line(
                        self.referee.as_ref(),
                        &Observation::Dealt(told.text.clone()),
                    );
                    self.transcript.push(line);
                    self.applied(None, &told);
                    self.tell(&told)?;
                }
                Turn::Player(seat) => {
                    if self.setup.max_moves > 0 && self.plies >= self.setup.max_moves {
                        return Err(GameEnd::MoveLimit);
                    }
                    let adjudication = &self.setup.adjudication;
                    if let Some(v) = adjudication
                        .judge(self.referee.as_ref())
                        .or_else(|| adjudication.judge_scores(&self.scores, self.referee.as_ref()))
                    {
                        return Err(GameEnd::Adjudicated(v));
                    }
                    let referee = self.referee.as_ref();
                    let outside = match self.outside.as_mut() {
                        Some(o) => {
                            if o.decides(referee, seat) {
                                Some(o)
                            } else {
                                o.thinking(referee, seat);
                                None
                            }
                        }
                        None => None,
                    };
                    let told_outside = outside.is_some();
                    let told = if let Some(o) = outside {
                        match o.choose(self.referee.as_mut(), seat) {
                            Some(t) => {
                                self.scores
                                    .moved(seat, None, false, &self.setup.adjudication);
                                t
                            }
                            None => return Err(GameEnd::Abandoned),
                        }
                    } else {
                        let told = self.genmove(seat)?;
                        self.plies += 1;
                        told
                    };
                    let line = self.played_line(seat, &told.text);
                    self.transcript.push(line.clone());
                    self.applied(Some(seat), &told);
                    self.tell(&told)?;
                    // A move decided outside for an engine's seat: its
                    // engine did not choose it, so it is told it.
                    if told_outside && self.procs[seat].is_some() {
                        self.send(seat, &line, self.setup.timeout)?;
                    }
                }
            }
        }
    }
}

/// The protocol command (without id) that tells an engine one observation:
/// `play <seat> <move>` or `deal <outcome>`.
pub fn observation_line(referee: &dyn Referee, observation: &Observation<String>) -> String {
    match observation {
        Observation::Played { seat, mv } => format!("play {} {mv}", referee.seat_name(*seat)),
        Observation::Dealt(outcome) => format!("deal {outcome}"),
    }
}

/// Plays one game with engines from `pool`, and returns its record.
/// Engines that caused a fault are killed; the others go back to the pool.
pub fn play_game(
    setup: &MatchSetup,
    pool: &mut Pool,
    prototype: &dyn Referee,
    job: &GameJob,
) -> GameRecord {
    play_game_with(setup, pool, prototype, job, None)
}

/// [`play_game`] with some turns decided outside (a person's seat, or
/// moves replayed after an undo): the same referee, engines and record.
pub fn play_game_with(
    setup: &MatchSetup,
    pool: &mut Pool,
    prototype: &dyn Referee,
    job: &GameJob,
    outside: Option<&mut dyn Outside>,
) -> GameRecord {
    let started = Instant::now();
    let referee = prototype.new_game();
    let seats = referee.num_seats();
    let seat_clock = |s: usize| {
        setup
            .engines
            .get(job.seats.get(s).copied().unwrap_or(0))
            .and_then(|e| e.limits.clock)
            .map(|c| SeatClock::new(c, setup.margin))
    };
    let head = game_command(referee.game_name(), &referee.option_words(), None);
    let mut table = RefereedGame {
        setup,
        job,
        procs: (0..seats).map(|_| None).collect(),
        clocks: (0..seats).map(seat_clock).collect(),
        referee,
        transcript: vec![head],
        plies: 0,
        restarted: Vec::new(),
        scores: ScoreWatch::new(seats),
        outside,
    };
    let end = if job.seats.len() != seats {
        GameEnd::Error(format!(
            "{} seats given for a {seats}-seat game",
            job.seats.len()
        ))
    } else {
        let played = table
            .start_engines(pool)
            .and_then(|()| table.new_game())
            .map_err(GameEnd::from)
            .and_then(|()| table.run());
        match played {
            Err(end) => end,
        }
    };
    let (ending, seat_results, scores, winners) = table.settle(end);
    for (seat, p) in table.procs.into_iter().enumerate() {
        if let (Some(p), Some(&engine)) = (p, job.seats.get(seat)) {
            pool.give(engine, p);
        }
    }
    for e in table.restarted {
        table
            .transcript
            .push(Note::Restarted(&setup.engines[e].name).to_string());
    }
    for seat in table.scores.silent() {
        if let Some(spec) = job.seats.get(seat).and_then(|&e| setup.engines.get(e)) {
            let note = Note::NoScores(&spec.name).to_string();
            if !table.transcript.contains(&note) {
                table.transcript.push(note);
            }
        }
    }
    GameRecord {
        number: job.number,
        pairing: job.pairing,
        deal: job.deal,
        seats: job.seats.clone(),
        ending,
        scores,
        winners,
        seat_results,
        plies: table.plies,
        millis: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        transcript: table.transcript.into(),
    }
}

/// A game's ending as the record keeps it: the ending, each seat's
/// result, the game's scores (by the rules only) and the winners.
type Settled = (Ending, Vec<f64>, Option<Vec<f64>>, Vec<usize>);

impl RefereedGame<'_, '_> {
    /// How the game ended, as the record keeps it; a forfeiting engine's
    /// processes are killed (their state is unknown from here).
    fn settle(&mut self, end: GameEnd) -> Settled {
        let (job, seats) = (self.job, self.referee.num_seats());
        match end {
            GameEnd::Over => {
                let o = self.referee.outcome();
                (
                    Ending::Normal,
                    results_from_winners(seats, &o.winners),
                    Some(o.scores),
                    o.winners,
                )
            }
            GameEnd::MoveLimit => (Ending::MoveLimit, vec![0.5; seats], None, Vec::new()),
            GameEnd::Adjudicated(v) => (
                Ending::Adjudicated(v.decision),
                results_from_winners(seats, &v.winners),
                None,
                v.winners,
            ),
            GameEnd::Abandoned => (
                Ending::Error("left unfinished".to_string()),
                vec![0.5; seats],
                None,
                Vec::new(),
            ),
            GameEnd::Resign(e) => (Ending::Resign(e), lose(job, e), None, others(job, e)),
            GameEnd::Error(message) => (Ending::Error(message), vec![0.5; seats], None, Vec::new()),
            GameEnd::Forfeit(f) => {
                // The culprit's state is unknown from here: start it afresh.
                for (seat, p) in self.procs.iter_mut().enumerate() {
                    if job.seats.get(seat) == Some(&f.engine)
                        && let Some(p) = p.as_mut()
                    {
                        p.kill();
                    }
                }
                let results = lose(job, f.engine);
                (
                    Ending::Forfeit {
                        engine: f.engine,
                        fault: f.fault,
                        detail: f.detail,
                    },
                    results,
                    None,
                    others(job, f.engine),
                )
            }
        }
    }
}

/// The seats of the engines other than `engine`: who wins when it
/// resigns or forfeits.
fn others(job: &GameJob, engine: usize) -> Vec<Seat> {
    (0..job.seats.len())
        .filter(|&s| job.seats[s] != engine)
        .collect()
}

/// Seat results where `engine` loses: its seats 0, the others 1.
fn lose(job: &GameJob, engine: usize) -> Vec<f64> {
    job.seats
        .iter()
        .map(|&e| if e == engine { 0.0 } else { 1.0 })
        .collect()
}
