//! Adjudication (`--adjudicate`): a game whose result is known before its
//! end is stopped and given that result.
//!
//! `solve=N`: once a position has at most `N` empty squares (Othello; any
//! game with an exact solver and a reach), the runner solves it exactly
//! with tabula's own endgame solver and ends the game with the result of
//! perfect play from there: the sign of the solved margin decides who
//! wins. Engines play the game out no better than perfectly, so this is
//! the result the position is worth, reached without the remaining moves;
//! [`verify`] checks a record's adjudications by playing each position
//! out with the solver on both sides.
//!
//! `resign.*` and `draw.*` (cutechess's `-resign` and `-draw`): the
//! engines' own scores decide, two-player games of perfect information
//! only. Each engine's score for its move (the mover's win value in
//! [0, 1], from the `info` lines of `genmove ... multipv=1`) is counted in
//! runs of consecutive moves per seat ([`ScoreWatch`]): a seat whose last
//! `movecount` scores are all at most `score` resigns (with `twosided`,
//! only while the other seat's last `movecount` are all at least
//! `1 - score`); the game is drawn once both seats' last `movecount`
//! scores lie within `score` of 1/2, after `movenumber` moves of each. A
//! move without a score (a forced move or a search that reports depth 0,
//! a move the runner played, an engine that reports none) neither counts
//! nor breaks a run, so an engine that reports no scores never triggers
//! either.
//!
//! Every adjudicated game is recorded as `ending=adjudicated` with its
//! detail (`solved: black +6 at 14 empties`, `resign: ...`, `draw: ...`)
//! and counted apart in the report.

use crate::arena::engines::info_line::parse_info;
use crate::arena::ground::adjudication::{Adjudication, Decided, Decision};
use crate::arena::ground::referee::Referee;
use crate::arena::record::match_file::{Ending, MatchRecord};
use crate::model::game::{Seat, Turn};

/// A game's result decided by adjudication.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The winning seats (empty: a draw).
    pub winners: Vec<usize>,
    /// What decided it and how, for the game's end and its record.
    pub decision: Decision,
}

impl Adjudication {
    /// The verdict on the position of `referee`, if a rule decides it now.
    pub fn judge(&self, referee: &dyn Referee) -> Option<Verdict> {
        let reach = self.solve?;
        let solved = referee.solve_exact(reach)?;
        Some(solver_verdict(referee, solved.seat, solved.margin, reach))
    }

    /// The verdict of the score rules on a game whose scores so far are
    /// in `watch`, if one decides it now.
    pub fn judge_scores(&self, watch: &ScoreWatch, referee: &dyn Referee) -> Option<Verdict> {
        if watch.low.len() != 2 {
            return None;
        }
        if let Some(r) = self.resign {
            let k = r.movecount;
            for loser in 0..2 {
                let winner = 1 - loser;
                if watch.low[loser] >= k && (!r.twosided || watch.high[winner] >= k) {
                    let agreed = if r.twosided {
                        format!(
                            ", {}'s at least {}",
                            referee.seat_name(winner),
                            // 1 - 0.1 said as 0.9, not 0.9000000000000001.
                            ((1.0 - r.score) * 1e9).round() / 1e9
                        )
                    } else {
                        String::new()
                    };
                    return Some(Verdict {
                        winners: vec![winner],
                        decision: Decision::new(
                            Decided::Resign,
                            format!(
                                "{}'s scores at most {}{agreed} for {k} moves",
                                referee.seat_name(loser),
                                r.score
                            ),
                        ),
                    });
                }
            }
        }
        if let Some(d) = self.draw {
            let k = d.movecount;
            let moves = u32::try_from(watch.plies / 2).unwrap_or(u32::MAX);
            if moves >= d.movenumber && watch.even.iter().all(|&run| run >= k) {
                return Some(Verdict {
                    winners: Vec::new(),
                    decision: Decision::new(
                        Decided::Draw,
                        format!(
                            "both scores within {} of 0.5 for {k} moves each, after {moves} moves",
                            d.score
                        ),
                    ),
                });
            }
        }
        None
    }
}

/// The engines' scores of one game, as runs of consecutive moves per seat
/// that meet each rule's threshold.
#[derive(Clone, Debug, Default)]
pub struct ScoreWatch {
    /// Per seat: the last scores at most the resign threshold.
    low: Vec<u32>,
    /// Per seat: the last scores at least one less the resign threshold.
    high: Vec<u32>,
    /// Per seat: the last scores within the draw threshold of 1/2.
    even: Vec<u32>,
    /// Moves played, the opening's and the runner's included.
    plies: usize,
    /// Per seat: asked for its scores (an engine's seat).
    asked: Vec<bool>,
    /// Per seat: reported a score.
    reported: Vec<bool>,
    /// Per seat: refused the score words; asked plain `genmove` since.
    refused: Vec<bool>,
}

impl ScoreWatch {
    /// A watch over a game of `seats` seats.
    pub fn new(seats: usize) -> ScoreWatch {
        ScoreWatch {
            low: vec![0; seats],
            high: vec![0; seats],
            even: vec![0; seats],
            plies: 0,
            asked: vec![false; seats],
            reported: vec![false; seats],
            refused: vec![false; seats],
        }
    }

    /// Whether `seat`'s engine is asked for its scores (it has not refused
    /// them in this game).
    pub fn asks(&self, seat: Seat) -> bool {
        !self.refused.get(seat).copied().unwrap_or(true)
    }

    /// `seat`'s engine refused the score words: asked plainly from now on.
    pub fn refused(&mut self, seat: Seat) {
        if let Some(r) = self.refused.get_mut(seat) {
            *r = true;
        }
    }

    /// A move of `seat` with its engine's score for it (`None`: no score;
    /// `asked`: the engine was asked for one).
    pub fn moved(&mut self, seat: Seat, score: Option<f64>, asked: bool, adj: &Adjudication) {
        self.plies += 1;
        if seat >= self.low.len() {
            return;
        }
        self.asked[seat] |= asked;
        let Some(s) = score else {
            return;
        };
        self.reported[seat] = true;
        let run = |cond: bool, n: &mut u32| *n = if cond { n.saturating_add(1) } else { 0 };
        let r = adj.resign.map_or(f64::NAN, |r| r.score);
        run(s <= r, &mut self.low[seat]);
        run(s >= 1.0 - r, &mut self.high[seat]);
        let d = adj.draw.map_or(f64::NAN, |d| d.score);
        run((s - 0.5).abs() <= d, &mut self.even[seat]);
    }

    /// The seats whose engine was asked for scores and reported none.
    pub fn silent(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..self.asked.len()).filter(|&s| self.asked[s] && !self.reported[s])
    }
}

/// The move and the score of a `genmove` reply: a plain reply is the move
/// alone; a reply to the score words is `info` lines, then `play <move>`.
/// The score is the last best-line (`multipv 1`) value of a search that
/// reports a depth above 0 (or none); a forced move (depth 0) has none.
pub fn read_genmove_reply(reply: &str) -> (String, Option<f64>) {
    let first = reply.lines().next().unwrap_or("").trim();
    let last = reply.lines().last().unwrap_or("").trim();
    // No move text starts with `info` or `play `.
    let streamed = first.is_empty() || first.starts_with("info") || last.starts_with("play ");
    if !streamed {
        return (first.to_string(), None);
    }
    let mv = last.strip_prefix("play ").unwrap_or("").trim().to_string();
    let score = reply
        .lines()
        .rev()
        .filter_map(parse_info)
        .find(|i| i.rank == 1 && i.depth != Some(0) && (0.0..=1.0).contains(&i.score))
        .map(|i| i.score);
    (mv, score)
}

fn solver_verdict(referee: &dyn Referee, seat: usize, margin: i32, reach: u32) -> Verdict {
    let seats = referee.num_seats();
    let winners = match margin.signum() {
        1 => vec![seat],
        -1 => (0..seats).filter(|&s| s != seat).collect(),
        _ => Vec::new(),
    };
    Verdict {
        winners,
        decision: Decision::new(
            Decided::Solver,
            format!(
                "{} {:+} at {reach} or fewer empties",
                referee.seat_name(seat),
                margin
            ),
        ),
    }
}

/// The winners of playing the position out with the exact solver on
/// both sides (`None` if the solver cannot finish it).
pub fn play_out_with_solver(referee: &mut dyn Referee) -> Option<Vec<usize>> {
    loop {
        match referee.turn() {
            Turn::Over => {
                let o = referee.outcome();
                let seats = referee.num_seats();
                // Everybody or nobody winning is a draw.
                return Some(if o.winners.len() == seats {
                    Vec::new()
                } else {
                    o.winners
                });
            }
            Turn::Player(_) => {
                let solved = referee.solve_exact(64)?;
                referee.play(&solved.mv).ok()?;
            }
            Turn::Chance => return None,
        }
    }
}

/// Replays every game of `rec` adjudicated by the solver and plays its
/// last position out with the solver on both sides: `(checked,
/// mismatches)`, the mismatches as game numbers.
pub fn verify(rec: &MatchRecord) -> Result<(usize, Vec<usize>), String> {
    let prototype = crate::arena::ground::referee::referee_by_name(&rec.game, &rec.options)
        .map_err(|e| e.to_string())?;
    let mut checked = 0;
    let mut mismatches = Vec::new();
    for g in &rec.games {
        let Ending::Adjudicated(decision) = &g.ending else {
            continue;
        };
        if decision.decided() != Some(Decided::Solver) {
            continue;
        }
        let mut referee = prototype.new_game();
        for line in g.transcript.iter().skip(1) {
            let mut words = line.split_whitespace();
            match words.next() {
                Some("play") => {
                    let mv = words
                        .nth(1)
                        .ok_or_else(|| format!("game {}: '{line}'", g.number))?;
                    referee
                        .play(mv)
                        .map_err(|e| format!("game {}: '{line}': {e}", g.number))?;
                }
                Some("setboard") => {
                    let text = line.trim_start_matches("setboard").trim();
                    referee
                        .set_position(text)
                        .map_err(|e| format!("game {}: {e}", g.number))?;
                }
                _ => {}
            }
        }
        let played = play_out_with_solver(referee.as_mut())
            .ok_or_else(|| format!("game {}: the solver could not play it out", g.number))?;
        checked += 1;
        let mut recorded = g.winners.clone();
        recorded.sort_unstable();
        let mut out = played;
        out.sort_unstable();
        if recorded != out {
            mismatches.push(g.number);
        }
    }
    Ok((checked, mismatches))
}
