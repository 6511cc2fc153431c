//! Adjudication (`--adjudicate solve=N`): a game whose result is known
//! before its end is stopped and given that result.
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
//! Every adjudicated game is recorded as `ending=adjudicated` with its
//! detail (`solved: black +6 at 14 empties`) and counted apart in the report.

use super::config::ConfigError;
use super::record::{Ending, MatchRecord};
use super::referee::Referee;
use crate::game::Turn;

/// What `--adjudicate` asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// Solve exactly at this many empty squares or fewer.
    pub solve: Option<u32>,
}

/// The most empties `solve=` accepts: the exact solver's time grows about
/// threefold an empty square, and past the 20s a solve takes seconds.
pub const MAX_SOLVE: u32 = 24;

/// A game's result decided by adjudication.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The winning seats (empty: a draw).
    pub winners: Vec<usize>,
    /// What was decided, for the record.
    pub detail: String,
}

impl Adjudication {
    /// Reads `solve=N` words.
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<Adjudication, ConfigError> {
        let mut adj = Adjudication::default();
        for word in words {
            let word = word.as_ref();
            match word.split_once('=') {
                Some(("solve", n)) => {
                    adj.solve =
                        Some(n.parse().ok().filter(|&n| n <= MAX_SOLVE).ok_or_else(|| {
                            ConfigError(format!(
                                "--adjudicate solve= needs empty squares from 0 to {MAX_SOLVE}, not '{n}'"
                            ))
                        })?)
                }
                _ => {
                    return Err(ConfigError(format!(
                        "--adjudicate: bad word '{word}' (accepted: solve=N)"
                    )));
                }
            }
        }
        Ok(adj)
    }

    /// Checks the rules against the game: `solve=` needs an exact solver.
    pub fn check(&self, referee: &dyn Referee) -> Result<(), ConfigError> {
        if self.solve.is_some() && !referee.has_solver() {
            return Err(ConfigError(format!(
                "--adjudicate solve=: {} has no exact solver",
                referee.game_name()
            )));
        }
        Ok(())
    }

    /// The verdict on the position of `referee`, if a rule decides it now.
    pub fn judge(&self, referee: &dyn Referee) -> Option<Verdict> {
        let reach = self.solve?;
        let solved = referee.solve_exact(reach)?;
        Some(solver_verdict(referee, solved.seat, solved.margin, reach))
    }

    /// The settings as `key=value` words, for the record.
    pub fn words(&self) -> String {
        self.solve
            .map_or(String::new(), |n| format!("adjudicate=solve={n}"))
    }
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
        detail: format!(
            "solved: {} {:+} at {reach} or fewer empties",
            referee.seat_name(seat),
            margin
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
    let prototype = super::referee_by_name(&rec.game, &rec.options).map_err(|e| e.to_string())?;
    let mut checked = 0;
    let mut mismatches = Vec::new();
    for g in &rec.games {
        let Ending::Adjudicated(detail) = &g.ending else {
            continue;
        };
        if !detail.starts_with("solved") {
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
