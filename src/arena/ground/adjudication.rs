//! What `--adjudicate` asks for (the settings every game of a match
//! shares, read from the command line) and what decided an adjudicated
//! game. The trackers that apply the settings during a game are
//! [`crate::arena::run::adjudicate`]'s.

use std::fmt;

use crate::arena::ground::config_error::ConfigError;
use crate::arena::ground::referee::Referee;

/// What `--adjudicate` asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Adjudication {
    /// Solve exactly at this many empty squares or fewer.
    pub solve: Option<u32>,
    /// Resign on the engines' scores (`resign.*`).
    pub resign: Option<Resign>,
    /// Draw on the engines' scores (`draw.*`).
    pub draw: Option<Draw>,
}

/// `resign.movecount=K resign.score=S [resign.twosided=true]`: a seat
/// resigns when its last `K` scores are all at most `S`, and (two-sided)
/// the other seat's last `K` all at least `1 - S`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Resign {
    /// The consecutive moves of a seat that must agree.
    pub movecount: u32,
    /// The loser's win value at most this (the winner's at least `1 - score`).
    pub score: f64,
    /// Whether the winner's scores must agree too.
    pub twosided: bool,
}

/// `draw.movenumber=N draw.movecount=K draw.score=S`: drawn when each
/// seat's last `K` scores all lie within `S` of 1/2, after `N` moves of
/// each seat (the opening's included).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Draw {
    /// The moves of each seat before a draw may be adjudicated.
    pub movenumber: u32,
    /// The consecutive moves of each seat that must agree.
    pub movecount: u32,
    /// How far from 1/2 a score may be.
    pub score: f64,
}

/// The most consecutive moves a score rule may ask for.
pub const MAX_MOVECOUNT: u32 = 1000;

/// The words a tabula engine's `genmove` gets when scores are counted:
/// the search's final value in one text `info` line before the move.
pub const SCORE_WORDS: &str = "multipv=1 output=text";

/// The most empties `solve=` accepts: the exact solver's time grows about
/// threefold an empty square, and past the 20s a solve takes seconds.
pub const MAX_SOLVE: u32 = 24;

impl Adjudication {
    /// Reads `solve=N`, `resign.KEY=VALUE` and `draw.KEY=VALUE` words.
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<Adjudication, ConfigError> {
        const ACCEPTED: &str = "solve=N, resign.movecount=K resign.score=S \
                                [resign.twosided=true], draw.movecount=K draw.score=S \
                                [draw.movenumber=N]";
        let mut adj = Adjudication::default();
        let (mut resign, mut draw) = (Vec::new(), Vec::new());
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
                Some((key, value)) if key.starts_with("resign.") => resign.push((key, value)),
                Some((key, value)) if key.starts_with("draw.") => draw.push((key, value)),
                _ => {
                    return Err(ConfigError(format!(
                        "--adjudicate: bad word '{word}' (accepted: {ACCEPTED})"
                    )));
                }
            }
        }
        if !resign.is_empty() {
            let mut r = Resign {
                movecount: 0,
                score: f64::NAN,
                twosided: false,
            };
            for (key, value) in resign {
                match key {
                    "resign.movecount" => r.movecount = movecount(key, value)?,
                    "resign.score" => r.score = score(key, value)?,
                    "resign.twosided" => {
                        r.twosided = match value {
                            "true" => true,
                            "false" => false,
                            _ => {
                                return Err(ConfigError(format!(
                                    "--adjudicate resign.twosided= is true or false, not '{value}'"
                                )));
                            }
                        }
                    }
                    _ => return Err(unknown(key, ACCEPTED)),
                }
            }
            if r.movecount == 0 || r.score.is_nan() {
                return Err(ConfigError(
                    "--adjudicate resign. needs both resign.movecount=K and resign.score=S"
                        .to_string(),
                ));
            }
            adj.resign = Some(r);
        }
        if !draw.is_empty() {
            let mut d = Draw {
                movenumber: 0,
                movecount: 0,
                score: f64::NAN,
            };
            for (key, value) in draw {
                match key {
                    "draw.movenumber" => {
                        d.movenumber = value.parse().map_err(|_| {
                            ConfigError(format!(
                                "--adjudicate draw.movenumber= needs a whole number, not '{value}'"
                            ))
                        })?
                    }
                    "draw.movecount" => d.movecount = movecount(key, value)?,
                    "draw.score" => d.score = score(key, value)?,
                    _ => return Err(unknown(key, ACCEPTED)),
                }
            }
            if d.movecount == 0 || d.score.is_nan() {
                return Err(ConfigError(
                    "--adjudicate draw. needs both draw.movecount=K and draw.score=S".to_string(),
                ));
            }
            adj.draw = Some(d);
        }
        Ok(adj)
    }

    /// Whether the engines' scores are counted (`resign.` or `draw.`).
    pub fn wants_scores(&self) -> bool {
        self.resign.is_some() || self.draw.is_some()
    }

    /// Checks the rules against the game: `solve=` needs an exact solver;
    /// the score rules a two-player game of perfect information, where a
    /// seat's score is its judgement of the whole game (in a card game it
    /// is one seat's estimate over sampled deals of the hidden cards).
    pub fn check(&self, referee: &dyn Referee) -> Result<(), ConfigError> {
        if self.solve.is_some() && !referee.has_solver() {
            return Err(ConfigError(format!(
                "--adjudicate solve=: {} has no exact solver",
                referee.game_name()
            )));
        }
        if self.wants_scores() && (referee.num_seats() != 2 || !referee.perfect_information()) {
            return Err(ConfigError(format!(
                "--adjudicate resign./draw.: score adjudication needs a two-player game of \
                 perfect information; {} has {} seats{}",
                referee.game_name(),
                referee.num_seats(),
                if referee.perfect_information() {
                    ""
                } else {
                    " and hidden cards, where each seat's score is its own Monte Carlo \
                     estimate over sampled deals"
                }
            )));
        }
        Ok(())
    }
}

/// A consecutive-move count, 1 to [`MAX_MOVECOUNT`].
fn movecount(key: &str, value: &str) -> Result<u32, ConfigError> {
    value
        .parse()
        .ok()
        .filter(|n| (1..=MAX_MOVECOUNT).contains(n))
        .ok_or_else(|| {
            ConfigError(format!(
                "--adjudicate {key}= needs a number of moves from 1 to {MAX_MOVECOUNT}, not '{value}'"
            ))
        })
}

/// A score threshold on tabula's scale: a win value from 0 to below 1/2.
fn score(key: &str, value: &str) -> Result<f64, ConfigError> {
    value
        .parse()
        .ok()
        .filter(|s: &f64| (0.0..0.5).contains(s))
        .ok_or_else(|| {
            ConfigError(format!(
                "--adjudicate {key}= needs a win value from 0 to below 0.5 (scores are the \
                 mover's win value in [0, 1]), not '{value}'"
            ))
        })
}

fn unknown(key: &str, accepted: &str) -> ConfigError {
    ConfigError(format!(
        "--adjudicate: unknown key '{key}' (accepted: {accepted})"
    ))
}

/// What decided an adjudicated game: the first word of the detail its
/// record keeps (`solved: ...`, `resign: ...`, `draw: ...`), written and
/// read back by [`Decision`] from one table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decided {
    /// The exact solver (`solve=N`).
    Solver,
    /// A resignation on the engines' scores.
    Resign,
    /// A draw on the engines' scores.
    Draw,
}

impl Decided {
    /// Each kind with the word its record detail starts with.
    const WORDS: [(Decided, &'static str); 3] = [
        (Decided::Solver, "solved"),
        (Decided::Resign, "resign"),
        (Decided::Draw, "draw"),
    ];

    /// The word a record's detail of this kind starts with.
    pub fn word(self) -> &'static str {
        Self::WORDS
            .iter()
            .find_map(|&(d, word)| (d == self).then_some(word))
            .unwrap_or("")
    }
}

/// What decided an adjudicated game and how: carried in the game's end
/// (`Ending::Adjudicated`), written to its record's `detail=` as
/// `word: how` (its `Display`) and read back by the record's parser
/// ([`Decision::read`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Decided by `decided`; `how` says it for people (`black +6 at 14
    /// empties`).
    Known {
        /// What decided it.
        decided: Decided,
        /// How, in words.
        how: String,
    },
    /// A detail of none of the known forms (a record written by hand or
    /// by another program), kept as read so that it is written back the
    /// same.
    Other(String),
}

impl Decision {
    /// The decision of `decided`, said `how`.
    pub fn new(decided: Decided, how: impl Into<String>) -> Decision {
        Decision::Known {
            decided,
            how: how.into(),
        }
    }

    /// The decision a record's `detail=` holds: `word: how` of a known
    /// kind, or else the text as it is.
    pub fn read(detail: &str) -> Decision {
        Decided::WORDS
            .into_iter()
            .find_map(|(decided, word)| {
                let how = detail.strip_prefix(word)?.strip_prefix(": ")?;
                Some(Decision::new(decided, how))
            })
            .unwrap_or_else(|| Decision::Other(detail.to_string()))
    }

    /// What decided the game; `None` for a detail of no known form.
    pub fn decided(&self) -> Option<Decided> {
        match self {
            Decision::Known { decided, .. } => Some(*decided),
            Decision::Other(_) => None,
        }
    }
}

impl fmt::Display for Decision {
    /// The record's detail: `word: how`, or the unknown text as read.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decision::Known { decided, how } => write!(f, "{}: {how}", decided.word()),
            Decision::Other(text) => f.write_str(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decision_reads_back_from_its_detail_and_an_unknown_one_stays_whole() {
        for decided in [Decided::Solver, Decided::Resign, Decided::Draw] {
            let decision = Decision::new(decided, "black +6 at 14 empties");
            let detail = decision.to_string();
            assert!(detail.starts_with(&format!("{}: ", decided.word())));
            assert_eq!(Decision::read(&detail), decision);
            assert_eq!(Decision::read(&detail).decided(), Some(decided));
        }
        // Not of the form `word: how`: kept as read, decided by nothing.
        for odd in ["resigned early", "draw", "solved:6", "", "by hand: draw"] {
            let decision = Decision::read(odd);
            assert_eq!(decision, Decision::Other(odd.to_string()));
            assert_eq!(decision.decided(), None);
            assert_eq!(decision.to_string(), odd);
        }
        assert_eq!(
            Decision::read("draw: "),
            Decision::new(Decided::Draw, ""),
            "an empty how"
        );
    }
}
