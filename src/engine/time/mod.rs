//! The time manager: how long a move may take, decided in one place.
//!
//! "How long will this move take?" is answered here, in this order:
//!
//! 1. **The budgets asked for.** The settings' `movetime`, `iterations`
//!    and `depth` (0: none), or, when a command gives any budget
//!    (`genmove movetime=MS iterations=N depth=D`, [`BudgetOverride`]),
//!    that command's budgets alone.
//! 2. **The clock.** Where a clock runs (GTP `time_settings` and
//!    `time_left`, KGS's `kgs-time_settings`), [`Clock`] (clock.rs) keeps
//!    what the seat to move is believed to have left (a told whole second
//!    may be a second too many; the engine's own moves are charged between
//!    tellings, and between told whole seconds it keeps its own count),
//!    and [`allot`] turns it into an [`Allotment`]: a *target* and a
//!    *limit*. Main time: [`MOVE_LAG`] is kept back for each move to go,
//!    and the target is a twentieth of the rest (or, in a game that bounds its moves, a share of 1/(moves left + 2)),
//!    the limit three targets and at most a quarter of what is left, plus a
//!    byo-yomi stone's share where a period follows. In byo-yomi: the
//!    period over its stones, less 5% and a second but never less than
//!    half, as target and limit alike.
//! 3. **The search.** Each search says how it spends time
//!    ([`crate::search::Search::time_use`]): one that manages its time
//!    (alpha-beta, which deepens iteratively and may stop after any
//!    iteration) gets the limit as its hard time and the target to aim
//!    for; every other search (and every search under `set timeman off`)
//!    spends the target. A move time caps the clock's time, and a target
//!    not below the time is dropped (a fixed move time is spent in full).
//! 4. **A search must end.** A budget with no time and no iterations
//!    gets [`DEFAULT_MOVETIME`], unless a depth ends the search
//!    ([`TimeUse::ends_at_depth`]).
//! 5. **Overhead.** The `overhead` setting (10 ms by default) is taken off
//!    the time and the target (at least 1 ms is left) for the pipe.
//! 6. **The learnt margin.** What the engine has measured of the machine
//!    ([`LagWatch`], lag.rs: how far past their time its recent timed
//!    moves were done, and its search thread's share of a core) replaces
//!    the overhead where it is larger (the part beyond the overhead is
//!    taken off too, never more than half of what is left): on a busy
//!    machine the engine stops early rather than late, and on a quiet one
//!    its small overruns cost no search time.
//!
//! That gives a [`Budget`] (time: the hard limit, target), which the
//! search polls through its [`crate::control::Control`]. Inside it:
//!
//! - **Alpha-beta's stop policy** (`deepen` in search/alphabeta.rs): after
//!   each iteration the main thread stops once more than `0.4 × (1 +
//!   instability) × (1.5 if the score fell)` of the target has passed
//!   ([`crate::control::Control::past_target`]; instability counts the
//!   best move's recent changes, halving each depth), or when the next
//!   iteration (this one's time times its growth, 1.2 to 4) would run past
//!   the limit ([`crate::control::Control::would_overrun`]). Without a
//!   target it runs to the time.
//! - **The solver's share** ([`solver_time_share`]): where an exact solve
//!   is within `solve_reach`, the solver may take half of the time left
//!   ([`SOLVER_SHARE`]; all of it under `search solve`) and the search the
//!   rest if it does not finish; under a budget without a time the solver
//!   gets [`DEFAULT_MOVETIME`] at most.
//!
//! Finally **the reply**: `genmove` answers the moment the search settles,
//! or, if the search is late, at the deadline (the budget's time from when
//! the command was read, plus [`reply_thread::ANSWER_GRACE`]) from the reply thread
//! thread with the best move published so far ([`reply_thread`]).

pub(crate) mod clock;
mod lag;
mod reply_thread;

use std::time::{Duration, Instant};

pub use clock::{Clock, MOVE_LAG, SeatTime};
pub use lag::{LagWatch, thread_cpu_time};
pub(crate) use reply_thread::{answer_by_deadline, ask_for_short_slices};

use crate::control::{Budget, TimeUse};
use crate::engine::settings::{SearchKind, Settings};
use crate::model::game::Seat;

/// The thinking time when no budget of any kind is set, and the most an
/// exact solve may take under a budget without a time.
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(1000);

/// The share of a timed move the exact solver may take before the search
/// it stands in front of gets the rest.
pub const SOLVER_SHARE: f64 = 0.5;

/// The solver's share of a timed move under `search`: all of it where the
/// search is the solver (`solve`), else [`SOLVER_SHARE`].
pub fn solver_time_share(search: SearchKind) -> f64 {
    if search == SearchKind::Solve {
        1.0
    } else {
        SOLVER_SHARE
    }
}

/// Budgets given with one `genmove` (they replace the settings' budgets
/// for that call).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BudgetOverride {
    /// `iterations=N`.
    pub iterations: Option<u64>,
    /// `movetime=MS`.
    pub movetime: Option<u64>,
    /// `depth=D`.
    pub depth: Option<u32>,
}

impl BudgetOverride {
    /// Whether no budget was given.
    pub fn is_empty(&self) -> bool {
        self.iterations.is_none() && self.movetime.is_none() && self.depth.is_none()
    }
}

/// The time a move should take and the most it may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allotment {
    /// Its share of the time left: what a settled move spends.
    pub target: Duration,
    /// What a critical move may run on to (main time only: in byo-yomi
    /// every stone has its share and no more).
    pub limit: Duration,
}

/// How many targets a critical move in main time may spend; a quarter of
/// the time left at most ([`LIMIT_OF_LEFT`]).
const LIMIT_TARGETS: u32 = 3;
const LIMIT_OF_LEFT: u32 = 4;

/// Moves a game is assumed to last from here, when spreading main time:
/// each move spends this share of what is left, so the time left shrinks
/// geometrically and is never used up. A game that bounds the moves left
/// (Othello) spreads it over those, plus [`MOVES_KEPT`].
const MOVES_TO_GO: u32 = 20;
/// Moves added to a game's bound on the moves left: the last move still
/// leaves time over (a share of 1/(n + 2) of what is left for each of n
/// moves spends all but 2/(n + 2) of it).
const MOVES_KEPT: u32 = 2;

/// The share of a byo-yomi stone's time kept back for the pipe, the GUI's
/// own clock and the scheduler, in percent, and a second kept back on top
/// (as Leela Zero's and KataGo's lag buffers do by default: on a loaded
/// machine the engine or the GUI may wait that long for a core: `bench
/// --clock` read answers up to 1.6 s late on 2 cores at load 20), so long
/// as half the share is left.
const PERIOD_MARGIN_PERCENT: u32 = 5;
const PERIOD_LAG: Duration = Duration::from_secs(1);

/// The share of a seat's time its next move may spend: `time` is what it
/// has left (main time, or a byo-yomi period and its stones), `(byo, per)`
/// the byo-yomi period and its stones (zero without one), `moves_left` the
/// game's bound on the moves the seat can still make, if it has one.
pub fn allot(time: SeatTime, (byo, per): (Duration, u32), moves_left: Option<u32>) -> Allotment {
    let SeatTime { left, stones } = time;
    let keep = |share: Duration| {
        share
            .saturating_sub(share * PERIOD_MARGIN_PERCENT / 100 + PERIOD_LAG)
            .max(share / 2)
    };
    if stones > 0 {
        // In byo-yomi: spread the period evenly over its stones.
        let share = keep(left / stones);
        return Allotment {
            target: share,
            limit: share,
        };
    }
    // Main time: a shrinking share, plus a byo-yomi stone's time if a
    // period follows (the move may run on into it).
    let byo = if per > 0 {
        keep(byo / per)
    } else {
        Duration::ZERO
    };
    let moves_to_go = moves_left.map_or(MOVES_TO_GO, |n| MOVES_TO_GO.min(n + MOVES_KEPT));
    let left = left.saturating_sub(MOVE_LAG * moves_to_go);
    let target = left / moves_to_go;
    let limit = (target * LIMIT_TARGETS)
        .min(left / LIMIT_OF_LEFT)
        .max(target);
    Allotment {
        target: target + byo,
        limit: limit + byo,
    }
}

impl Clock {
    /// The time `seat` should and may spend on its next move, if a clock
    /// runs; `moves_left` is the game's bound on the moves the seat can
    /// still make, if it has one. The clock tells what the seat has left;
    /// its share is the time manager's ([`allot`]).
    pub fn allot(&self, seat: Seat, moves_left: Option<u32>) -> Option<Allotment> {
        let time = self.seat_time(seat)?;
        Some(allot(time, self.period(), moves_left))
    }
}

/// The budget of one search: the settings' budgets or the command's
/// (`over`, where it gives any), the clock's allotment for the seat to
/// move (if a clock runs), how the search spends time and the learnt
/// margin `lag` ([`LagWatch::margin`]) (steps 1 to 6 of the module's
/// notes).
pub fn budget(
    settings: &Settings,
    over: &BudgetOverride,
    clock: Option<Allotment>,
    search: TimeUse,
    lag: Duration,
) -> Budget {
    let s = settings;
    let nonzero = |v: u64| (v > 0).then_some(v);
    let (iterations, movetime, depth) = if over.is_empty() {
        (
            nonzero(s.iterations),
            nonzero(s.movetime),
            (s.depth > 0).then_some(s.depth),
        )
    } else {
        (over.iterations, over.movetime, over.depth)
    };
    let manages = s.timeman && search.manages_time;
    let clock_time = clock.map(|a| if manages { a.limit } else { a.target });
    let mut time = match (movetime.map(Duration::from_millis), clock_time) {
        (Some(movetime), Some(clock)) => Some(movetime.min(clock)),
        (movetime, clock) => movetime.or(clock),
    };
    let target = clock
        .filter(|_| manages)
        .map(|a| a.target)
        .filter(|&t| time.is_some_and(|time| t < time));
    let depth_bounded = depth.is_some() && search.ends_at_depth;
    if time.is_none() && iterations.is_none() && !depth_bounded {
        time = Some(DEFAULT_MOVETIME);
    }
    let overhead = Duration::from_millis(s.overhead);
    // The overhead is the margin a quiet machine needs; the learnt one
    // takes more only where it is larger (a quiet machine's 1-2 ms of
    // overrun must not cut a 20 ms move's search by a third).
    let beyond = lag.saturating_sub(overhead);
    let less_overhead = |t: Duration| {
        let kept = t.saturating_sub(overhead).max(Duration::from_millis(1));
        kept - beyond.min(kept / 2)
    };
    Budget {
        iterations,
        time: time.map(less_overhead),
        target: target.map(less_overhead),
        depth,
    }
}

/// When the reply to a search started at `since` under `budget` is due
/// from the reply thread, if the search has not answered by then (`None`:
/// the budget has no time).
pub fn reply_deadline(budget: &Budget, since: Instant) -> Option<Instant> {
    budget.time.map(|t| since + t + reply_thread::ANSWER_GRACE)
}

/// Milliseconds: the unit the time tests (here, clock.rs, lag.rs) write
/// their cases in.
#[cfg(test)]
fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEEPENING: TimeUse = TimeUse {
        manages_time: true,
        ends_at_depth: true,
    };
    const SPENDING: TimeUse = TimeUse {
        manages_time: false,
        ends_at_depth: false,
    };

    /// Settings with the given budgets, overhead and time management.
    fn settings(
        movetime: u64,
        iterations: u64,
        depth: u32,
        overhead: u64,
        timeman: bool,
    ) -> Settings {
        Settings {
            movetime,
            iterations,
            depth,
            overhead,
            timeman,
            ..Settings::default()
        }
    }

    #[test]
    fn the_budget_table() {
        let none = BudgetOverride::default();
        let main = Some(Allotment {
            target: ms(3200),
            limit: ms(9600),
        });
        let stone = Some(Allotment {
            target: ms(950),
            limit: ms(950),
        });
        let given = |movetime, iterations, depth| BudgetOverride {
            movetime,
            iterations,
            depth,
        };
        // (settings, command's budgets, clock, search) -> (time, target, iterations, depth)
        #[allow(clippy::type_complexity)]
        let table: [(
            Settings,
            BudgetOverride,
            Option<Allotment>,
            TimeUse,
            (Option<u64>, Option<u64>, Option<u64>, Option<u32>),
        ); 16] = [
            // Nothing set: the default move time, less the overhead.
            (
                settings(0, 0, 0, 10, true),
                none,
                None,
                SPENDING,
                (Some(990), None, None, None),
            ),
            (
                settings(0, 0, 0, 0, true),
                none,
                None,
                DEEPENING,
                (Some(1000), None, None, None),
            ),
            // A depth ends a deepening search, not the others.
            (
                settings(0, 0, 5, 10, true),
                none,
                None,
                DEEPENING,
                (None, None, None, Some(5)),
            ),
            (
                settings(0, 0, 5, 10, true),
                none,
                None,
                SPENDING,
                (Some(990), None, None, Some(5)),
            ),
            // Iterations alone end any search.
            (
                settings(0, 500, 0, 10, true),
                none,
                None,
                SPENDING,
                (None, None, Some(500), None),
            ),
            // A move time, less the overhead; never below a millisecond.
            (
                settings(100, 0, 0, 10, true),
                none,
                None,
                SPENDING,
                (Some(90), None, None, None),
            ),
            (
                settings(5, 0, 0, 10, true),
                none,
                None,
                SPENDING,
                (Some(1), None, None, None),
            ),
            // The command's budgets replace the settings' wholly.
            (
                settings(100, 500, 0, 0, true),
                given(Some(40), None, None),
                None,
                SPENDING,
                (Some(40), None, None, None),
            ),
            (
                settings(100, 0, 0, 0, true),
                given(None, None, Some(3)),
                None,
                DEEPENING,
                (None, None, None, Some(3)),
            ),
            // Main time: a deepening search gets the limit and the
            // target, the others the target.
            (
                settings(0, 0, 0, 0, true),
                none,
                main,
                DEEPENING,
                (Some(9600), Some(3200), None, None),
            ),
            (
                settings(0, 0, 0, 0, true),
                none,
                main,
                SPENDING,
                (Some(3200), None, None, None),
            ),
            (
                settings(0, 0, 0, 0, false),
                none,
                main,
                DEEPENING,
                (Some(3200), None, None, None),
            ),
            // A move time caps the clock; a target not under it goes.
            (
                settings(5000, 0, 0, 0, true),
                none,
                main,
                DEEPENING,
                (Some(5000), Some(3200), None, None),
            ),
            (
                settings(2000, 0, 0, 10, true),
                none,
                main,
                DEEPENING,
                (Some(1990), None, None, None),
            ),
            // Byo-yomi: a stone's share and no more, target dropped.
            (
                settings(0, 0, 0, 10, true),
                none,
                stone,
                DEEPENING,
                (Some(940), None, None, None),
            ),
            // A clock and a depth: the clock's time bounds it all the same.
            (
                settings(0, 0, 6, 10, true),
                none,
                main,
                DEEPENING,
                (Some(9590), Some(3190), None, Some(6)),
            ),
        ];
        for (i, (s, over, clock, search, (time, target, iterations, depth))) in
            table.into_iter().enumerate()
        {
            let b = budget(&s, &over, clock, search, Duration::ZERO);
            assert_eq!(
                b,
                Budget {
                    iterations,
                    time: time.map(ms),
                    target: target.map(ms),
                    depth,
                },
                "row {i}"
            );
        }
    }

    #[test]
    fn a_learnt_margin_beyond_the_overhead_is_taken_off_up_to_half() {
        let none = BudgetOverride::default();
        let main = Some(Allotment {
            target: ms(300),
            limit: ms(900),
        });
        let s = settings(0, 0, 0, 10, true);
        let b = budget(&s, &none, main, DEEPENING, ms(100));
        assert_eq!((b.time, b.target), (Some(ms(800)), Some(ms(200))));
        // A margin the overhead already covers costs nothing.
        let b = budget(&s, &none, main, DEEPENING, ms(8));
        assert_eq!((b.time, b.target), (Some(ms(890)), Some(ms(290))));
        // Never more than half: a slow machine still searches.
        let b = budget(&s, &none, main, DEEPENING, ms(600));
        assert_eq!((b.time, b.target), (Some(ms(445)), Some(ms(145))));
        // A move time too.
        let b = budget(&settings(50, 0, 0, 10, true), &none, None, SPENDING, ms(15));
        assert_eq!(b.time, Some(ms(35)));
        // No time, no margin: a depth ends the search.
        let b = budget(&settings(0, 0, 5, 10, true), &none, None, DEEPENING, ms(15));
        assert_eq!(b.time, None);
    }

    #[test]
    fn the_allotment_table() {
        let s = Duration::from_secs;
        let main = |left| SeatTime { left, stones: 0 };
        let period = |left, stones| SeatTime { left, stones };
        // (time left, period, moves left) -> (target, limit)
        let table = [
            // 60 s of sudden death: a twentieth, three of them at most,
            // after 10 ms kept for each move to go (the pipe's lag).
            (main(s(60)), (s(0), 0), None, (ms(2990), ms(8970))),
            // Little left: a quarter of it bounds the limit.
            (main(s(4)), (s(0), 0), None, (ms(190), ms(570))),
            (main(ms(2500)), (s(0), 0), None, (ms(115), ms(345))),
            // A game that bounds its moves: over them and two more.
            (main(s(60)), (s(0), 0), Some(30), (ms(2990), ms(8970))),
            (main(s(60)), (s(0), 0), Some(10), (ms(4990), ms(14970))),
            (main(s(60)), (s(0), 0), Some(1), (ms(19990), ms(19990))),
            // A second of Othello: 30 moves to go.
            (main(s(1)), (s(0), 0), Some(30), (ms(40), ms(120))),
            (main(ms(300)), (s(0), 0), Some(10), (ms(15), ms(45))),
            // The lag kept for the moves to go takes what is left.
            (main(ms(100)), (s(0), 0), Some(10), (s(0), s(0))),
            // Main time before byo-yomi: a stone's share on top.
            (main(s(40)), (s(10), 5), None, (ms(2990), ms(6970))),
            // Byo-yomi: less 5% and a second, never under half.
            (period(s(10), 1), (s(10), 1), None, (ms(8500), ms(8500))),
            (period(s(2), 1), (s(2), 1), None, (ms(1000), ms(1000))),
            (period(s(2), 5), (s(2), 5), None, (ms(200), ms(200))),
            (
                period(s(17), 9),
                (s(20), 10),
                None,
                (s(17) / 18, s(17) / 18),
            ),
            (period(s(0), 1), (s(1), 1), None, (s(0), s(0))),
        ];
        for (i, (time, byo, moves_left, (target, limit))) in table.into_iter().enumerate() {
            assert_eq!(
                allot(time, byo, moves_left),
                Allotment { target, limit },
                "row {i}"
            );
        }
    }

    #[test]
    fn the_solver_shares_a_move_unless_it_is_the_search() {
        assert_eq!(solver_time_share(SearchKind::Solve), 1.0);
        assert_eq!(solver_time_share(SearchKind::AlphaBeta), SOLVER_SHARE);
        assert_eq!(solver_time_share(SearchKind::Mcts), SOLVER_SHARE);
    }

    #[test]
    fn the_reply_is_due_after_the_time_and_a_grace() {
        let since = Instant::now();
        let timed = Budget {
            time: Some(ms(500)),
            ..Budget::default()
        };
        assert_eq!(
            reply_deadline(&timed, since),
            Some(since + ms(500) + reply_thread::ANSWER_GRACE)
        );
        assert_eq!(reply_deadline(&Budget::default(), since), None);
    }
}
