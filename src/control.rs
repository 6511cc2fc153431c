//! What a search may spend and how it is steered from outside: the
//! [`Budget`], the [`Control`] a search polls (stop flag, deadline,
//! progress callback), the [`Pacer`] that polls it at a steady rate from a
//! search's loop, and the [`Progress`] it reports.
//!
//! This sits below both the game model (an exact solver is a game hook
//! that polls a `Control`) and the searches, so that neither imports the
//! other for it.

use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What a search may spend. Every limit that is set applies; the search
/// stops at the first one reached (or when stopped from outside).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Iterations (playouts, simulations, or nodes for alpha-beta).
    pub iterations: Option<u64>,
    /// Wall-clock time: a hard limit.
    pub time: Option<Duration>,
    /// The time to aim for, when a game clock sets the budget: an
    /// iterative search stops near it on a settled move and runs on
    /// towards `time` on a critical one (see [`Control::past_target`]).
    pub target: Option<Duration>,
    /// Search depth in plies (alpha-beta, recursive UCB1).
    pub depth: Option<u32>,
}

/// How a search spends a timed budget: asked of the search itself
/// ([`crate::search::Search::time_use`]) by the engine's time manager
/// (`engine/time`), which gives a search that manages its time a target
/// and a limit, and every other search the target alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeUse {
    /// It stops by itself between [`Budget::target`] and [`Budget::time`]
    /// (an iterative search that can end after any iteration: see
    /// [`Control::past_target`]).
    pub manages_time: bool,
    /// A depth budget alone ends it (it needs no time to stop).
    pub ends_at_depth: bool,
}

/// What a search's score is, set by the search, so that a protocol
/// shows it in its own unit without asking which search ran.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ScoreKind {
    /// No value is known: a move chosen without searching its value (a
    /// random or rule-based move, a fallback). The score is 1/2 and
    /// means nothing.
    #[default]
    None,
    /// A chance of winning (Monte Carlo searches): the score, in `[0, 1]`.
    WinChance,
    /// An evaluation searched to a depth, in the game's evaluation unit
    /// `e` in `[-1, 1]` (Othello: the predicted final disc margin / 64),
    /// reported as the score `1/2 + e/2` (a proven win 1, a loss 0).
    Eval,
    /// An exact final margin proven by a solver, in the game's score unit
    /// (Othello: discs): the `exact` beside the score.
    Exact,
    /// A win or a loss proven by a search that does not value the final
    /// margin (alpha-beta's mate-like scores, found where a line reaches
    /// the game's end): the score is 1 (won) or 0 (lost). The `exact`
    /// beside it, where known, is the margin the proven line ends the
    /// game with (Othello: discs counted at the end, no empties added),
    /// not the best margin; without it the value shown is the smallest
    /// win or loss, one unit.
    Proven,
}

impl ScoreKind {
    /// The value in the game's score unit of a score of this kind, where
    /// the game's evaluation unit is `unit` score units (Othello: 64
    /// discs) and a win chance maps to a margin through `from_chance`;
    /// `None` where no value is known.
    pub fn margin(
        self,
        score: f64,
        exact: Option<i32>,
        unit: f64,
        from_chance: impl Fn(f64) -> f64,
    ) -> Option<f64> {
        if let Some(m) = exact {
            return Some(f64::from(m));
        }
        match self {
            ScoreKind::None => None,
            ScoreKind::Exact => None,
            // The sign is proven, the margin is not: the least one.
            ScoreKind::Proven => Some(if score >= 0.5 { 1.0 } else { -1.0 }),
            ScoreKind::Eval => Some((score - 0.5) * 2.0 * unit),
            ScoreKind::WinChance => Some(from_chance(score)),
        }
    }
}

/// A progress report, sent while a search runs (for `analyze`). One
/// whose `best` is empty tells the work done alone ([`Progress::work`]).
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Iterations (or nodes) so far.
    pub iterations: u64,
    /// Completed depth (alpha-beta) or tree depth (MCTS).
    pub depth: u32,
    /// Time spent.
    pub elapsed: Duration,
    /// The best move so far, as text.
    pub best: String,
    /// The best move itself, typed ([`MoveHandle`]): what an early
    /// answer ([`Answer`]) hands back to be played, never parsed again
    /// from its text. Every search sets it with `best`.
    pub best_move: Option<MoveHandle>,
    /// Its value for the deciding seat, in `[0, 1]`: what it is, `kind`
    /// says.
    pub score: f64,
    /// What the score is.
    pub kind: ScoreKind,
    /// The exact value where a solver proved it (kind
    /// [`ScoreKind::Exact`]), in the game's score unit.
    pub exact: Option<i32>,
    /// The principal variation, as move texts.
    pub pv: Vec<String>,
    /// The best root moves, best first, when the listener asked for
    /// several ([`Control::with_multipv`]); empty otherwise.
    pub lines: Vec<RootLine>,
}

impl Progress {
    /// A report of the work done alone, with no move: what a solve of the
    /// root, which knows no move until it ends, tells while it works.
    pub fn work(iterations: u64, elapsed: Duration) -> Progress {
        Progress {
            iterations,
            elapsed,
            ..Progress::default()
        }
    }

    /// Whether it tells the work done alone (no move, no value): a
    /// listener that shows moves skips it, one that shows work counts it.
    pub fn is_work_only(&self) -> bool {
        self.best.is_empty()
    }
}

/// A move of the game in play, typed, held where the game's type is not
/// named (a [`Progress`], an [`Answer`]): the engine's table, which
/// knows the type, takes the move back with [`MoveHandle::get`].
#[derive(Clone)]
pub struct MoveHandle(Arc<dyn Any + Send + Sync>);

impl MoveHandle {
    /// Holds `mv`.
    pub fn new<M: Any + Send + Sync>(mv: M) -> MoveHandle {
        MoveHandle(Arc::new(mv))
    }

    /// The move, if it is of type `M` (the game's move type).
    pub fn get<M: Any + Copy>(&self) -> Option<M> {
        self.0.downcast_ref::<M>().copied()
    }
}

impl std::fmt::Debug for MoveHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MoveHandle(..)")
    }
}

/// One root move of a MultiPV search: its value for the deciding seat
/// (as a search's result scores its best move) and the line it starts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Candidate<M> {
    /// The root move.
    pub mv: M,
    /// Its value for the deciding seat.
    pub score: f64,
    /// What its score is ([`ScoreKind`]).
    pub kind: ScoreKind,
    /// Playouts through it (Monte Carlo searches).
    pub visits: Option<u64>,
    /// Its exact value where a solver proved it, or the margin of its
    /// proven line ([`ScoreKind::Proven`]).
    pub exact: Option<i32>,
    /// The line, starting with `mv`.
    pub pv: Vec<M>,
}

impl<M: Copy> Candidate<M> {
    /// A candidate whose line is the move alone, with a score of `kind`.
    pub fn new(mv: M, score: f64, kind: ScoreKind) -> Candidate<M> {
        Candidate {
            mv,
            score,
            kind,
            visits: None,
            exact: None,
            pv: vec![mv],
        }
    }
}

impl<M> Candidate<M> {
    /// The same candidate with its moves as `f` makes them (as text).
    pub fn map_moves<N>(&self, f: impl Fn(&M) -> N) -> Candidate<N> {
        Candidate {
            mv: f(&self.mv),
            score: self.score,
            kind: self.kind,
            visits: self.visits,
            exact: self.exact,
            pv: self.pv.iter().map(f).collect(),
        }
    }
}

/// One root move's line of a MultiPV analysis, as text: what a GUI draws
/// on the move's square or card.
pub type RootLine = Candidate<String>;

/// The control a search polls: the stop flag and deadline, where to send
/// progress, and how many threads a search reached through a game hook
/// (the exact solver) may run.
#[derive(Clone)]
pub struct Control<'a> {
    stop: Arc<AtomicBool>,
    start: Instant,
    deadline: Option<Instant>,
    target: Option<Duration>,
    report: Option<&'a (dyn Fn(&Progress) + Sync)>,
    answer: Option<&'a Answer<'a>>,
    threads: usize,
    multipv: usize,
}

impl<'a> Control<'a> {
    /// A control with a shared stop flag; the deadline is `now + budget.time`.
    pub fn new(stop: Arc<AtomicBool>, budget: &Budget) -> Control<'a> {
        Control::starting_at(stop, budget, Instant::now())
    }

    /// A control whose time started at `start` (when the command arrived,
    /// so that time spent queued counts against the budget).
    pub fn starting_at(stop: Arc<AtomicBool>, budget: &Budget, start: Instant) -> Control<'a> {
        Control {
            stop,
            start,
            deadline: budget.time.map(|t| start + t),
            target: budget.target,
            report: None,
            answer: None,
            threads: 1,
            multipv: 0,
        }
    }

    /// A control that never stops by itself (tests, tools).
    pub fn unlimited() -> Control<'a> {
        Control::new(Arc::new(AtomicBool::new(false)), &Budget::default())
    }

    /// Sends progress reports to `report`.
    pub fn with_reporter(mut self, report: &'a (dyn Fn(&Progress) + Sync)) -> Control<'a> {
        self.report = Some(report);
        self
    }

    /// Asks the search for its `count` best root moves, each with its own
    /// value and line ([`Progress::lines`], [`crate::search::SearchResult::lines`]);
    /// 0 (the default): the best move only.
    pub fn with_multipv(mut self, count: usize) -> Control<'a> {
        self.multipv = count;
        self
    }

    /// How many root lines the listener asked for (0: none).
    pub fn multipv(&self) -> usize {
        self.multipv
    }

    /// Publishes each report's best move to `answer`, which may then
    /// answer for the search (see [`Answer`]).
    pub fn with_answer(mut self, answer: &'a Answer<'a>) -> Control<'a> {
        self.answer = Some(answer);
        self
    }

    /// Where the search's decision may already have been answered.
    pub fn answer(&self) -> Option<&'a Answer<'a>> {
        self.answer
    }

    /// Lets a search run on `threads` threads (at least one).
    pub fn with_threads(mut self, threads: usize) -> Control<'a> {
        self.threads = threads.max(1);
        self
    }

    /// The threads a search may run (1 unless set).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Whether the search must stop now (stop flag or deadline). Cheap
    /// enough for every few hundred nodes, not for every node.
    pub fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether an iterative search that has just completed an iteration
    /// should not start another: more than `share` of the target time
    /// has passed. The next iteration of alpha-beta costs about as much
    /// as all before it, so a `share` of one half ends most moves near
    /// the target; a search raises it on a critical move (the best move
    /// just changed, the score fell) and lowers it on a settled one.
    /// Never without a target (a fixed move time is spent in full).
    pub fn past_target(&self, share: f64) -> bool {
        self.target
            .is_some_and(|t| self.start.elapsed().as_secs_f64() >= t.as_secs_f64() * share)
    }

    /// Whether work expected to take `more` would run past the deadline,
    /// under a target (an iteration cut off by the deadline is wasted;
    /// without a target the move time is spent in full regardless).
    pub fn would_overrun(&self, more: Duration) -> bool {
        self.target.is_some() && self.deadline.is_some_and(|d| Instant::now() + more > d)
    }

    /// Whether the stop flag (not the deadline) was raised.
    pub fn stopped_from_outside(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The shared stop flag (for helper threads).
    pub fn stop_flag(&self) -> &Arc<AtomicBool> {
        &self.stop
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Sends a progress report, if anyone listens, and publishes its best
    /// move to the answer, if any.
    pub fn report(&self, progress: &Progress) {
        if let Some(a) = self.answer {
            a.publish(progress);
        }
        if let Some(r) = self.report {
            r(progress);
        }
    }

    /// Whether anyone listens to progress (an answer does).
    pub fn has_reporter(&self) -> bool {
        self.report.is_some() || self.answer.is_some()
    }

    /// A pacer that reads the stop flag and the clock once per `every`
    /// units of work (at least one); see [`Pacer`].
    pub fn pacer(&self, every: u64) -> Pacer<'_, 'a> {
        let every = every.max(1);
        Pacer {
            control: self,
            every,
            done: 0,
            next_poll: every,
            stopped: false,
            report_due: false,
            next_report: self.elapsed() + REPORT_EVERY,
        }
    }
}

/// Time between two progress reports of a search, at most: often enough
/// for the finest analysis interval a front end may ask for (the front end
/// thins them out).
pub const REPORT_EVERY: Duration = Duration::from_millis(10);

/// The poll-and-report loop of every search, written once.
///
/// Reading the clock costs more than a cheap unit of work (an MCTS
/// iteration of a small game, an alpha-beta node), so a search counts its
/// work with [`Pacer::tick`] and the pacer reads the stop flag and the clock
/// only once per `every` units. A stop is final: once seen, every later
/// tick says stop without reading anything, so nested loops (a playout
/// inside an iteration) all unwind. Progress is sent through
/// [`Pacer::report`] at most every [`REPORT_EVERY`], and only where the
/// search can describe its state, which may be fewer places than it ticks.
pub struct Pacer<'c, 'a> {
    control: &'c Control<'a>,
    every: u64,
    /// Work done so far, in the caller's units.
    done: u64,
    next_poll: u64,
    stopped: bool,
    /// A poll found a report due; the next [`Pacer::report`] sends it.
    report_due: bool,
    next_report: Duration,
}

impl Pacer<'_, '_> {
    /// Counts one unit of work; returns whether the search must stop.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.tick_at(self.done + 1)
    }

    /// Like [`Pacer::tick`], for a search that counts its own work (nodes
    /// counted in several places): `done` is the work done so far.
    #[inline]
    pub fn tick_at(&mut self, done: u64) -> bool {
        self.done = done;
        if done >= self.next_poll && !self.stopped {
            self.poll();
        }
        self.stopped
    }

    /// Whether a poll has seen the stop flag or the deadline.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    #[inline(never)]
    fn poll(&mut self) {
        self.next_poll = self.done + self.every;
        self.stopped = self.control.should_stop();
        if !self.stopped
            && !self.report_due
            && self.control.has_reporter()
            && self.control.elapsed() >= self.next_report
        {
            self.report_due = true;
        }
    }

    /// Sends `progress(elapsed)` if a report is due (and it has something
    /// to say). Cheap when none is due: call it once per unit of work.
    #[inline]
    pub fn report(&mut self, progress: impl FnOnce(Duration) -> Option<Progress>) {
        if self.report_due {
            self.report_due = false;
            let now = self.control.elapsed();
            self.next_report = now + REPORT_EVERY;
            if let Some(p) = progress(now) {
                self.control.report(&p);
            }
        }
    }
}

/// A decision answered the moment it is known, from inside or outside
/// the search.
///
/// The reply is sent as soon as the search settles on its move, before
/// the move is played and its tree is moved on. On a loaded machine, the
/// threads of a search can also wait several milliseconds for a core after
/// its time is up or a `stop` came, and more to be joined: the search
/// publishes its report with each report (every [`REPORT_EVERY`] at
/// most), and a thread that sleeps until the deadline or the stop (a
/// sleeper gets a core at once when it wakes) may send that report
/// instead; the search then plays the move that was sent. Whoever
/// settles first sends: the reply goes out exactly once.
///
/// What is sent, either way, is a typed decision: a [`Progress`] with
/// the move (its text and the move itself, [`Progress::best_move`]), its
/// value and the value's kind, so that an early answer shows its value
/// as the search's own answer does, and the move played is the one sent.
pub struct Answer<'a> {
    state: Mutex<AnswerState>,
    send: &'a (dyn Fn(&Progress) + Sync),
    /// Sends only an answer given from outside the search: a search that
    /// settles in time leaves the reply to its caller.
    early_only: bool,
}

#[derive(Debug, Default)]
struct AnswerState {
    /// The search's latest report with a move.
    latest: Option<Progress>,
    /// The decision sent, once settled.
    settled: Option<Progress>,
    /// Settled from outside the search.
    early: bool,
}

impl<'a> Answer<'a> {
    /// An answer that `send` delivers.
    pub fn new(send: &'a (dyn Fn(&Progress) + Sync)) -> Answer<'a> {
        Answer {
            state: Mutex::new(AnswerState::default()),
            send,
            early_only: false,
        }
    }

    /// An answer that `send` delivers only when it is given from outside
    /// the search ([`Answer::answer_early`]); when the search settles in
    /// time, its caller replies (a streamed `genmove`, whose reply ends
    /// with the search's last lines).
    pub fn early_only(send: &'a (dyn Fn(&Progress) + Sync)) -> Answer<'a> {
        Answer {
            early_only: true,
            ..Answer::new(send)
        }
    }

    /// Records the search's report as its decision so far (ignored once
    /// settled, or without a move).
    pub fn publish(&self, report: &Progress) {
        if report.best.is_empty() {
            return;
        }
        if let Ok(mut s) = self.state.lock()
            && s.settled.is_none()
        {
            match &mut s.latest {
                Some(latest) => latest.clone_from(report),
                None => s.latest = Some(report.clone()),
            }
        }
    }

    /// From outside the search: sends the latest published decision and
    /// settles on it, unless the answer is settled already or nothing was
    /// published. True when it sent.
    pub fn answer_early(&self) -> bool {
        let Ok(mut s) = self.state.lock() else {
            return false;
        };
        if s.settled.is_some() {
            return false;
        }
        let Some(latest) = s.latest.take() else {
            return false;
        };
        // Sent under the lock: the search cannot settle between the
        // choice and the reply.
        (self.send)(&latest);
        s.settled = Some(latest);
        s.early = true;
        true
    }

    /// From the search, with its own decision: sends it and returns
    /// `None` when nobody answered before, or returns the decision
    /// already sent, whose move must be played instead.
    pub fn settle(&self, own: &Progress) -> Option<Progress> {
        let Ok(mut s) = self.state.lock() else {
            return None;
        };
        match &s.settled {
            Some(sent) => Some(sent.clone()),
            None => {
                if !self.early_only {
                    (self.send)(own);
                }
                s.settled = Some(own.clone());
                None
            }
        }
    }

    /// True once a reply was sent.
    pub fn is_settled(&self) -> bool {
        self.state.lock().is_ok_and(|s| s.settled.is_some())
    }

    /// True when the reply was sent from outside the search.
    pub fn settled_early(&self) -> bool {
        self.state.lock().is_ok_and(|s| s.early)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A report of the move `mv` alone (the reply thread's tests use it too).
    pub(crate) fn said(mv: &str) -> Progress {
        Progress {
            best: mv.into(),
            ..Progress::default()
        }
    }

    #[test]
    fn a_pacer_reads_the_flag_once_per_period_and_a_stop_is_final() {
        let stop = Arc::new(AtomicBool::new(false));
        let control = Control::new(stop.clone(), &Budget::default());
        let mut pacer = control.pacer(4);
        assert!(!(0..3).any(|_| pacer.tick()));
        stop.store(true, Ordering::Relaxed);
        // Raised between polls: seen at the fourth tick, not before.
        assert!(pacer.tick());
        stop.store(false, Ordering::Relaxed);
        assert!(pacer.stopped() && pacer.tick() && pacer.tick_at(1000));
        // A caller that counts its own work: polled once it passed a period.
        let mut pacer = control.pacer(100);
        assert!(!pacer.tick_at(99));
        stop.store(true, Ordering::Relaxed);
        assert!(!pacer.tick_at(99));
        assert!(pacer.tick_at(250));
    }

    #[test]
    fn a_pacer_stops_at_the_deadline() {
        let budget = Budget {
            time: Some(Duration::from_millis(20)),
            ..Budget::default()
        };
        let control = Control::new(Arc::new(AtomicBool::new(false)), &budget);
        let mut pacer = control.pacer(1);
        let started = Instant::now();
        while !pacer.tick() {
            assert!(started.elapsed() < Duration::from_secs(5));
        }
        assert!(started.elapsed() >= Duration::from_millis(15));
    }

    #[test]
    fn a_pacer_reports_only_when_due_and_at_most_once_per_period() {
        let sent = std::sync::Mutex::new(Vec::new());
        let listen = |p: &Progress| sent.lock().unwrap().push(p.iterations);
        let control = Control::unlimited().with_reporter(&listen);
        let mut pacer = control.pacer(1);
        let mut asked = 0;
        let started = Instant::now();
        let mut n = 0;
        while started.elapsed() < REPORT_EVERY * 5 {
            n += 1;
            assert!(!pacer.tick());
            pacer.report(|_| {
                asked += 1;
                Some(Progress {
                    iterations: n,
                    ..Progress::default()
                })
            });
        }
        let elapsed = started.elapsed();
        let sent = sent.lock().unwrap().clone();
        assert_eq!(sent.len(), asked);
        // At most one report a period (and the first at once), never one
        // per tick; at least one. (A loaded machine may stall the loop for
        // a period or two, so fewer than five is no fault.)
        let periods = (elapsed.as_micros() / REPORT_EVERY.as_micros()) as usize;
        assert!(
            (1..=periods + 1).contains(&sent.len()),
            "{sent:?} in {elapsed:?}"
        );
        assert!(
            sent.len() * 100 < n as usize,
            "{} reports in {n} ticks",
            sent.len()
        );
        // Without a listener nothing is even asked for.
        let quiet = Control::unlimited();
        let mut pacer = quiet.pacer(1);
        let started = Instant::now();
        while started.elapsed() < REPORT_EVERY * 2 {
            pacer.tick();
            pacer.report(|_| panic!("nobody listens"));
        }
    }

    #[test]
    fn an_answer_is_sent_once_by_whoever_settles_first() {
        let sent = Mutex::new(Vec::new());
        let send = |p: &Progress| sent.lock().unwrap().push(p.best.clone());
        // The search settles first: its own move goes out, the reply thread's
        // later try sends nothing.
        let answer = Answer::new(&send);
        answer.publish(&said("d3"));
        assert_eq!(answer.settle(&said("f5")).map(|p| p.best), None);
        assert!(!answer.answer_early());
        assert!(answer.is_settled() && !answer.settled_early());
        assert_eq!(*sent.lock().unwrap(), ["f5"]);
        // The reply thread first: the latest published move goes out, and the
        // search is told to play it instead of its own.
        sent.lock().unwrap().clear();
        let answer = Answer::new(&send);
        assert!(!answer.answer_early(), "nothing published yet");
        assert!(!answer.is_settled());
        answer.publish(&said("d3"));
        answer.publish(&said(""));
        answer.publish(&said("c4"));
        assert!(answer.answer_early());
        answer.publish(&said("e6"));
        assert!(!answer.answer_early());
        assert_eq!(
            answer.settle(&said("f5")).map(|p| p.best).as_deref(),
            Some("c4")
        );
        assert!(answer.settled_early());
        assert_eq!(*sent.lock().unwrap(), ["c4"]);
    }

    #[test]
    fn a_control_with_an_answer_publishes_each_report() {
        let sent = Mutex::new(Vec::new());
        let send = |p: &Progress| sent.lock().unwrap().push(p.best.clone());
        let answer = Answer::new(&send);
        let control = Control::unlimited().with_answer(&answer);
        assert!(control.has_reporter(), "the searches must report");
        control.report(&Progress {
            best: "e6".into(),
            ..Progress::default()
        });
        assert!(answer.answer_early());
        assert_eq!(*sent.lock().unwrap(), ["e6"]);
    }
}
