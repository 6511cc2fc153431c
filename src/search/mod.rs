//! Searches, generic over the [`Game`] trait and monomorphised per game.
//!
//! A search never prints and never knows which game it plays. It gets the
//! root state, the seat it decides for, a [`Budget`] and a [`Control`]
//! (stop flag, deadline, progress callback), and returns a [`SearchResult`].
//! Searches for hidden-information games only look at states drawn by
//! [`Game::determinize`] for the deciding seat.

use crate::model::game::{Game, Rng, Seat, Turn};

pub use crate::control::{
    Budget, Candidate, Control, MoveHandle, Progress, RootLine, ScoreKind, TimeUse,
};

pub mod alphabeta;
pub(crate) mod exact;
pub mod ismcts;
pub mod mcts;
pub mod pimc;
pub mod playout;
pub mod sampling;
pub(crate) mod simple;
#[cfg(test)]
mod tests;
pub mod tree;

/// One thread's share of a search that splits an iteration budget
/// between threads: the control it polls, its iterations (if limited),
/// and whether it is the thread that reports progress (the first).
#[derive(Clone, Copy)]
pub(crate) struct Share<'c> {
    pub control: &'c Control<'c>,
    pub limit: Option<u64>,
    pub report: bool,
}

impl<'c> Share<'c> {
    /// Share `t` of `parts`: `limit` split exactly (the first shares take
    /// the remainder, one each), so that a seeded search repeats on any
    /// number of threads; share 0 reports.
    pub(crate) fn of(
        control: &'c Control,
        limit: Option<u64>,
        parts: usize,
        t: usize,
    ) -> Share<'c> {
        let parts = parts as u64;
        let limit = limit.map(|n| n / parts + u64::from((t as u64) < n % parts));
        Share {
            control,
            limit,
            report: t == 0,
        }
    }
}

/// The loop of the Monte Carlo searches that step without a tree of
/// their own pacing (ISMCTS's iterations, PIMC's pulls): steps `work`
/// until its share's limit of steps (if any) or the control stops it, one
/// step at least; the reporting share sends `progress` (of the steps
/// done, the deepest step and the time) whenever the pacer says a report
/// is due. `step` gets the number of steps done before it and returns its
/// depth. Returns the steps and the deepest.
pub(crate) fn paced_steps<W: ?Sized>(
    work: &mut W,
    share: Share<'_>,
    poll_every: u64,
    mut step: impl FnMut(&mut W, u64) -> u32,
    progress: impl Fn(&W, u64, u32, std::time::Duration) -> Option<Progress>,
) -> (u64, u32) {
    let mut steps = 0u64;
    let mut deepest = 0u32;
    let mut pacer = share.control.pacer(poll_every);
    while share.limit.is_none_or(|n| steps < n) {
        if steps > 0 && pacer.tick() {
            break;
        }
        if share.report {
            pacer.report(|elapsed| progress(work, steps, deepest, elapsed));
        }
        let depth = step(work, steps);
        steps += 1;
        deepest = deepest.max(depth);
    }
    (steps, deepest)
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play.
    pub best: M,
    /// Its value for the deciding seat (see [`Progress::score`]).
    pub score: f64,
    /// What the score is ([`ScoreKind`]), set by the search.
    pub kind: ScoreKind,
    /// Iterations (or nodes) spent.
    pub iterations: u64,
    /// Depth reached.
    pub depth: u32,
    /// The principal variation, starting with `best`.
    pub pv: Vec<M>,
    /// The exact value when an exact solver decided, in the game's own
    /// score unit (Othello: final disc margin).
    pub exact: Option<i32>,
    /// The best root moves, best first, each with its own value, when the
    /// control asked for them ([`Control::multipv`]); empty otherwise.
    pub lines: Vec<Candidate<M>>,
}

impl<M: Copy> SearchResult<M> {
    /// The result of a move chosen without a search of its value (the only
    /// legal move, a random one, or a fallback), after `iterations`: no
    /// value known (an even score), the move alone as the line.
    pub fn unsearched(mv: M, iterations: u64) -> SearchResult<M> {
        SearchResult {
            best: mv,
            score: 0.5,
            kind: ScoreKind::None,
            iterations,
            depth: 0,
            pv: vec![mv],
            exact: None,
            lines: Vec::new(),
        }
    }
}

/// A Monte Carlo search's report of its best move at `root` (none yet:
/// an empty one, scored 1/2) with its mean reward, a chance to win, its
/// line and its best root moves, as the protocol shows them; the work
/// done is the caller's to fill in.
pub(crate) fn win_chance_report<G: Game>(
    root: &G,
    best: Option<G::Move>,
    score: f64,
    pv: &[G::Move],
    lines: &[Candidate<G::Move>],
) -> Progress {
    Progress {
        best: best.map(|m| root.move_text(m)).unwrap_or_default(),
        best_move: best.map(MoveHandle::new),
        score,
        kind: ScoreKind::WinChance,
        exact: None,
        pv: pv.iter().map(|&m| root.move_text(m)).collect(),
        lines: lines_text(root, lines),
        ..Progress::default()
    }
}

/// The candidates as the protocol shows them, move texts of `root`.
pub fn lines_text<G: Game>(root: &G, lines: &[Candidate<G::Move>]) -> Vec<RootLine> {
    lines
        .iter()
        .map(|c| c.map_moves(|&m| root.move_text(m)))
        .collect()
}

/// The margin for the seat to move at `root` with which `line` (played
/// from `root`) ends the game, in the game's score unit: by `end_margin`
/// where the game's solver gives its rule for a finished game (Othello:
/// empties to the winner, so a wipeout is worth 64 as the solver counts
/// it), else its score less the best other seat's, as [`Game::outcome`]
/// counts them; `None` where the line does not reach the end. A proven win's line
/// ([`ScoreKind::Proven`]) gives the margin it shows; a margin whose sign
/// is not the proven one's (a line cut short or mixed up by a table
/// entry) is not given.
pub fn line_margin<G: Game>(
    root: &G,
    line: &[G::Move],
    won: bool,
    end_margin: Option<fn(&G, Seat) -> i32>,
) -> Option<i32> {
    let Turn::Player(seat) = root.turn() else {
        return None;
    };
    let mut state = root.clone();
    let mut legal = Vec::new();
    for &mv in line {
        if !matches!(state.turn(), Turn::Player(_)) {
            break;
        }
        state.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            return None;
        }
        state.apply(mv);
    }
    if state.turn() != Turn::Over {
        return None;
    }
    let margin = match end_margin {
        Some(rule) => f64::from(rule(&state, seat)),
        None => {
            let scores = state.outcome().scores;
            let own = *scores.get(seat)?;
            let other = scores
                .iter()
                .enumerate()
                .filter(|&(s, _)| s != seat)
                .map(|(_, &v)| v)
                .fold(f64::NEG_INFINITY, f64::max);
            (own - other).round()
        }
    };
    (margin.is_finite() && (margin > 0.0) == won && margin != 0.0).then_some(margin as i32)
}

/// What a search is asked to decide: the position, the seat to move in
/// it, the budget, the control it polls (stop flag, deadline, progress)
/// and the generator of its random draws.
pub struct Ask<'a, G> {
    /// The position; it has at least one legal move.
    pub root: &'a G,
    /// The seat to move in `root`, for whom the search decides.
    pub seat: Seat,
    /// How much it may spend.
    pub budget: &'a Budget,
    /// What it polls while it runs.
    pub control: &'a Control<'a>,
    /// The generator of its draws (a seeded one repeats the search).
    pub rng: &'a mut Rng,
}

impl<'a, G> Ask<'a, G> {
    /// The position, the seat, the budget, the control and the generator.
    pub fn parts(self) -> (&'a G, Seat, &'a Budget, &'a Control<'a>, &'a mut Rng) {
        (self.root, self.seat, self.budget, self.control, self.rng)
    }
}

/// A search algorithm for game `G`.
pub trait Search<G: Game> {
    /// Chooses a move for the seat to move in the position asked about:
    /// the one method a search implements.
    fn choose(&mut self, ask: Ask<'_, G>) -> SearchResult<G::Move>;

    /// [`Search::choose`] for `seat`, who is to move in `root` (which has
    /// at least one legal move).
    fn search(
        &mut self,
        root: &G,
        seat: Seat,
        budget: &Budget,
        control: &Control,
        rng: &mut Rng,
    ) -> SearchResult<G::Move> {
        self.choose(Ask {
            root,
            seat,
            budget,
            control,
            rng,
        })
    }

    /// Called after a move is played on the engine's board, so a search can
    /// keep what it learned (tree reuse). The default forgets everything.
    fn advance(&mut self, _played: G::Move) {}

    /// Forgets everything (new game, position set, undo).
    fn reset(&mut self) {}

    /// How it spends a timed budget (the default: all of the time it is
    /// given, and a depth does not end it).
    fn time_use(&self) -> TimeUse {
        TimeUse::default()
    }
}

/// `ln(x)` for `x >= 1` within 1e-5: the exponent plus a quintic for the
/// mantissa. The exploration term is computed for every available edge at
/// every visit, and libm's `ln` was a visible share of the search time (here and in MCTS).
pub(crate) fn fast_ln(x: f64) -> f64 {
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let t = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000) - 1.0;
    let ln_mantissa = t
        * (0.999_495_56
            + t * (-0.491_908_96 + t * (0.289_474_78 + t * (-0.136_062_75 + t * 0.032_158_45))));
    exponent as f64 * std::f64::consts::LN_2 + ln_mantissa
}

#[cfg(test)]
mod fast_ln_tests {
    use super::fast_ln;

    #[test]
    fn fast_ln_is_close() {
        for x in (1..200_000)
            .step_by(7)
            .chain([1 << 20, 1 << 30, u32::MAX as usize])
        {
            let x = x as f64;
            assert!((fast_ln(x) - x.ln()).abs() < 2e-5, "{x}");
        }
    }
}
