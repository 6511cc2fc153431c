//! The record of a match: one text file holding every game, its data and
//! its text (the merging of several such files is [`crate::arena::merge`]'s).
//!
//! The file is a protocol transcript with `#` comment headers, so feeding it
//! to an engine replays every game (`game ...`, then `play`/`deal` lines),
//! while the headers carry what the runner needs to rebuild the report:
//!
//! ```text
//! # tabula-match 2
//! # match game=othello options="" seed=42 seats=black,white
//! # settings games=100 table=alternate random-plies=4 max-moves=2000 timemargin=200 timeout=60 game-seeds=on
//! # engine index=0 name=uct proto=tabula cmd="./tabula" init="set search uct" movetime=50
//! # engine index=1 name=ab proto=tabula cmd="./tabula" init="set search alphabeta" movetime=50
//! # game number=1 pairing=uct,ab deal=0 seats=uct,ab ending=normal scores=40,24 winners=0 results=1,0 plies=60 ms=812 lines=61
//! game othello
//! play black d3
//! ...
//! # stopped reason=interrupted games=3
//! ```
//!
//! Each game block is written when the game ends (so games appear in the
//! order they finished) and is followed by an empty line. Every key,
//! value and list of names is written and read through [`codec`], so that
//! any name (spaces, quotes, `=`, commas, non-ASCII) reads back as
//! written; values that need it are double-quoted with escapes.
//!
//! The record proves what it holds: `# settings` holds every setting of
//! the runner that changes the games, and each engine line its own
//! (budgets, clock), all as `key=value` pairs that [`MatchRecord::merge`]
//! compares whole, whatever the keys (so a new setting needs no new merge
//! code); every game line is complete (`lines=` counts its transcript, so
//! a file cut inside a game is refused) and checked against itself
//! (results against the ending and winners, seats against the header) and,
//! when merged, against the schedule of its match (its deal, pairing and
//! seats); a match that stopped early says so in `# stopped`. Version 1
//! records (no settings, no `lines=`) are still read.

use std::fmt;
use std::path::PathBuf;

use crate::arena::ground::adjudication::Decision;
use crate::arena::record::codec::{self, Fields};
use crate::arena::record::transcript::Transcript;

/// The note a game's record holds where the engine at a seat answered
/// `resign` (`# black resigns`): a line of its transcript, counted in its
/// `lines=`.
pub fn resign_note(seat: &str) -> String {
    format!("# {seat} resigns")
}

/// Whether `line` is the [`resign_note`] of one of `seats`.
pub fn is_resign_note(line: &str, seats: &[String]) -> bool {
    line.strip_prefix("# ")
        .and_then(|rest| rest.strip_suffix(" resigns"))
        .is_some_and(|seat| seats.iter().any(|s| s == seat))
}

/// The first line of every record file written now.
pub const MAGIC: &str = "# tabula-match 2";

/// The first line of a record written before settings were recorded.
pub const MAGIC_V1: &str = "# tabula-match 1";

/// The setting that says how many games each pairing plays.
pub const GAMES_KEY: &str = "games";

/// The setting that says who sits where (`alternate`, or a `--table`
/// pattern such as `ABBB`).
pub const TABLE_KEY: &str = "table";

/// The setting that names an opening suite (`none` without one).
pub const OPENINGS_KEY: &str = "openings";

/// The setting that says how many openings a run's suite holds: with
/// [`OPENINGS_START_KEY`] and [`GAMES_KEY`] it states the whole match (the
/// suite played once, or further where a run wraps round) and the run's
/// slice of it, so that a merge of offset runs can name what is missing.
pub const OPENINGS_SIZE_KEY: &str = "openings-size";

/// The setting that says where a run starts in its suite (`start=N`,
/// from 1). Runs of one match differ in it.
pub const OPENINGS_START_KEY: &str = "openings-start";

/// What kind of fault forfeited a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fault {
    /// The engine could not be started.
    Spawn,
    /// The engine exited or closed its output.
    Crash,
    /// No reply in time (a hang, or the clock ran out).
    Timeout,
    /// The move was not legal (or not a move of the game at all).
    Illegal,
    /// The engine printed something that is not a protocol reply.
    Malformed,
    /// The engine answered `?` to a command it had to accept.
    Refused,
}

impl Fault {
    /// Every kind, in report order.
    pub const ALL: [Fault; 6] = [
        Fault::Spawn,
        Fault::Crash,
        Fault::Timeout,
        Fault::Illegal,
        Fault::Malformed,
        Fault::Refused,
    ];

    /// The word used in records.
    pub fn word(self) -> &'static str {
        match self {
            Fault::Spawn => "spawn",
            Fault::Crash => "crash",
            Fault::Timeout => "timeout",
            Fault::Illegal => "illegal",
            Fault::Malformed => "malformed",
            Fault::Refused => "refused",
        }
    }

    /// Reads the word used in records.
    pub fn from_word(word: &str) -> Option<Fault> {
        Fault::ALL.into_iter().find(|f| f.word() == word)
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules.
    Normal,
    /// The engine (index) resigned.
    Resign(usize),
    /// Adjudicated a draw after the move limit.
    MoveLimit,
    /// Adjudicated by `--adjudicate` (the winners say the result): what
    /// decided it and how.
    Adjudicated(Decision),
    /// The engine (index) forfeited by a fault.
    Forfeit {
        /// The culprit engine.
        engine: usize,
        /// What it did.
        fault: Fault,
        /// The details, for people.
        detail: String,
    },
    /// The runner itself failed (a bug); the game does not count.
    Error(String),
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Game number in the match, from 1.
    pub number: usize,
    /// The pairing: the engines (indices) playing, first one first.
    pub pairing: (usize, usize),
    /// The deal (and opening) index: games with equal deals replay the
    /// same chance outcomes with seats rotated.
    pub deal: u64,
    /// The engine (index) at each seat.
    pub seats: Vec<usize>,
    /// How the game ended.
    pub ending: Ending,
    /// The game's own final scores per seat (when it ended by the rules).
    pub scores: Option<Vec<f64>>,
    /// The winning seats by the rules.
    pub winners: Vec<usize>,
    /// The result of each seat: 1 win, ½ draw, 0 loss.
    pub seat_results: Vec<f64>,
    /// Moves played by engines.
    pub plies: usize,
    /// Wall-clock duration in milliseconds.
    pub millis: u64,
    /// The game as protocol commands (`game ...`, `play ...`, `deal ...`).
    pub transcript: Transcript,
}

impl GameRecord {
    /// The mean result of `engine` over its seats, if it played.
    pub fn engine_result(&self, engine: usize) -> Option<f64> {
        let mine: Vec<f64> = self
            .seats
            .iter()
            .zip(&self.seat_results)
            .filter(|(e, _)| **e == engine)
            .map(|(_, r)| *r)
            .collect();
        (!mine.is_empty()).then(|| mine.iter().sum::<f64>() / mine.len() as f64)
    }

    /// The score of the pairing's first engine: 1 if its seats did better
    /// than the second's, ½ if equal, 0 if worse. `None` if the game does
    /// not count (a runner error).
    pub fn first_score(&self) -> Option<f64> {
        if matches!(self.ending, Ending::Error(_)) {
            return None;
        }
        let a = self.engine_result(self.pairing.0)?;
        let b = self.engine_result(self.pairing.1)?;
        Some(if a > b + 1e-9 {
            1.0
        } else if b > a + 1e-9 {
            0.0
        } else {
            0.5
        })
    }

    /// The score of `engine` in this game, if it played and the game counts.
    pub fn score_of(&self, engine: usize) -> Option<f64> {
        let first = self.first_score()?;
        if engine == self.pairing.0 {
            Some(first)
        } else if engine == self.pairing.1 {
            Some(1.0 - first)
        } else {
            None
        }
    }
}

/// Per-seat results from winners: winners get 1, others 0; nobody or
/// everybody winning is a draw (½ each).
pub fn results_from_winners(seats: usize, winners: &[usize]) -> Vec<f64> {
    let valid: Vec<usize> = winners.iter().copied().filter(|&w| w < seats).collect();
    if valid.is_empty() || (0..seats).all(|s| valid.contains(&s)) {
        return vec![0.5; seats];
    }
    (0..seats)
        .map(|s| if valid.contains(&s) { 1.0 } else { 0.0 })
        .collect()
}

/// An engine as the record describes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineInfo {
    /// Its unique name in the match.
    pub name: String,
    /// `tabula` or `gtp`.
    pub proto: String,
    /// The command that started it.
    pub command: String,
    /// The lines sent once after start (settings).
    pub init: Vec<String>,
    /// Its limits and anything else of it that changes the games, as
    /// `key=value` pairs in order (`movetime=50`, `tc=5+0.5`...).
    pub settings: Vec<(String, String)>,
}

/// A whole match: what was played, by whom, and every game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchRecord {
    /// The game name.
    pub game: String,
    /// Its options as `key=value` words.
    pub options: Vec<String>,
    /// The seeds of the runs (one per merged run).
    pub seeds: Vec<u64>,
    /// The names of the seats.
    pub seat_names: Vec<String>,
    /// The engines, indexed by the games' engine numbers.
    pub engines: Vec<EngineInfo>,
    /// `K/N` when this is shard K of N of a match (`--shard`).
    pub shard: Option<String>,
    /// The runner's settings that change the games, as `key=value` pairs
    /// in order (see [`GAMES_KEY`], [`TABLE_KEY`]).
    pub settings: Vec<(String, String)>,
    /// Why the match stopped before its last game (`interrupted`, `sprt`,
    /// `SIGTERM`...), when it did.
    pub stopped: Option<String>,
    /// The games.
    pub games: Vec<GameRecord>,
}

/// Why a record could not be read, written or merged.
#[derive(Debug)]
pub enum RecordError {
    /// A file could not be opened, read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// A line could not be understood.
    Parse {
        /// The file.
        path: PathBuf,
        /// The line number (from 1).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The records are of different matches.
    Incompatible(String),
    /// A record file refused by the reader of named files (not a regular
    /// file, too large, not text, interrupted).
    File(crate::files::input::PeerFileError),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            RecordError::Parse {
                path,
                line,
                message,
            } => {
                write!(f, "{}:{line}: {message}", path.display())
            }
            RecordError::Incompatible(m) => write!(f, "cannot merge: {m}"),
            RecordError::File(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// What is wrong with a game's header line (said in a
/// [`RecordError::Parse`] with its file and line).
#[derive(Clone, Debug, PartialEq)]
pub enum GameLineError {
    /// A list item that is not a finite number.
    BadNumber {
        /// The item.
        text: String,
        /// The field (`results`, `scores`).
        field: &'static str,
    },
    /// A whole-number field missing or unreadable.
    BadCount {
        /// The field.
        key: String,
        /// Its text.
        text: String,
    },
    /// An engine name not in an `# engine` header.
    UnknownEngine(String),
    /// `pairing=` does not name two engines.
    PairingNotTwo,
    /// A field every game line has is missing.
    Missing(&'static str),
    /// A number of seats other than the match's.
    SeatCount {
        /// The seats of the game.
        seats: usize,
        /// The seats of the match.
        of_match: usize,
    },
    /// `results=` and `seats=` differ in length.
    ResultsLength,
    /// A result outside 0..=1.
    NotASeatResult(f64),
    /// A fault word not known.
    UnknownFault(String),
    /// An ending word not known.
    UnknownEnding(String),
    /// A winner that is not a seat of the game.
    BadWinner(String),
    /// The pairing's engines are not two engines at the game's seats.
    PairingNotSeated,
    /// An engine outside the pairing sits in the game.
    Outsider {
        /// The engine.
        engine: String,
        /// The pairing's names.
        pairing: (String, String),
    },
    /// The culprit of a resignation or forfeit does not sit in the game.
    CulpritNotSeated,
    /// The results are not those of the ending and winners.
    ResultsDisagree {
        /// The results given.
        results: Vec<f64>,
        /// The ending's word.
        ending: String,
        /// The winners given.
        winners: Vec<usize>,
        /// The results they give.
        expected: Vec<f64>,
    },
}

impl fmt::Display for GameLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameLineError::BadNumber { text, field } => {
                write!(f, "bad number '{text}' in {field}")
            }
            GameLineError::BadCount { key, text } => write!(f, "bad or missing {key} '{text}'"),
            GameLineError::UnknownEngine(name) => {
                write!(f, "unknown engine '{name}' (not in an '# engine' header)")
            }
            GameLineError::PairingNotTwo => f.write_str("pairing must name two engines"),
            GameLineError::Missing(key) => write!(
                f,
                "the game line has no {key}=: the record was cut off or altered"
            ),
            GameLineError::SeatCount { seats, of_match } => {
                write!(f, "{seats} seats in a game of a {of_match}-seat match")
            }
            GameLineError::ResultsLength => f.write_str("results and seats differ in length"),
            GameLineError::NotASeatResult(r) => {
                write!(f, "result {r} is not a seat result (between 0 and 1)")
            }
            GameLineError::UnknownFault(w) => write!(f, "unknown fault '{w}'"),
            GameLineError::UnknownEnding(w) => write!(f, "unknown ending '{w}'"),
            GameLineError::BadWinner(s) => write!(f, "bad seat '{s}' in winners"),
            GameLineError::PairingNotSeated => {
                f.write_str("the pairing's engines must be two engines at its seats")
            }
            GameLineError::Outsider {
                engine,
                pairing: (a, b),
            } => write!(f, "engine {engine} sits in a game of the pairing {a},{b}"),
            GameLineError::CulpritNotSeated => f.write_str("the culprit does not sit in the game"),
            GameLineError::ResultsDisagree {
                results,
                ending,
                winners,
                expected,
            } => write!(
                f,
                "results {} do not follow from the ending {ending} and winners {winners:?} (they \
                 give {})",
                join_nums(results),
                join_nums(expected)
            ),
        }
    }
}

impl std::error::Error for GameLineError {}

fn join_nums(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| format!("{v}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// The words of an `# engine` line that are not the engine's settings.
pub(crate) const ENGINE_KEYS: [&str; 5] = ["index", "name", "proto", "cmd", "init"];

impl MatchRecord {
    /// A setting's value, if the record holds it.
    pub fn setting(&self, key: &str) -> Option<&str> {
        self.settings
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The header lines (magic, match, settings, engines).
    pub fn header_text(&self) -> String {
        let mut out = format!("{MAGIC}\n");
        let seeds: Vec<String> = self.seeds.iter().map(u64::to_string).collect();
        out.push_str(&format!(
            "# match game={} options={} seed={} seats={}{}\n",
            codec::write_value(&self.game),
            codec::write_value(&self.options.join(" ")),
            codec::write_list(&seeds),
            codec::write_list(&self.seat_names),
            self.shard.as_ref().map_or(String::new(), |s| format!(
                " shard={}",
                codec::write_value(s)
            )),
        ));
        out.push_str(&format!(
            "# settings{}\n",
            codec::write_pairs(&self.settings)
        ));
        for (i, e) in self.engines.iter().enumerate() {
            out.push_str(&format!(
                "# engine index={i} name={} proto={} cmd={} init={}{}\n",
                codec::write_value(&e.name),
                codec::write_value(&e.proto),
                codec::write_value(&e.command),
                codec::write_value(&e.init.join("\n")),
                codec::write_pairs(&e.settings),
            ));
        }
        out
    }

    /// The line that closes a record whose match stopped before its last
    /// game.
    pub fn stopped_text(reason: &str, games: usize) -> String {
        format!(
            "# stopped reason={} games={games}\n",
            codec::write_value(reason)
        )
    }

    /// The block of one game: its header line, its transcript, an empty line.
    pub fn game_text(&self, g: &GameRecord) -> String {
        let mut text = self.game_line(g);
        text.push_str(g.transcript.text());
        text.push('\n');
        text
    }

    /// The header line of a game's block, with its line end.
    fn game_line(&self, g: &GameRecord) -> String {
        let name = |e: usize| {
            self.engines
                .get(e)
                .map_or("?", |e| e.name.as_str())
                .to_string()
        };
        let seats: Vec<String> = g.seats.iter().map(|&e| name(e)).collect();
        let mut line = format!(
            "# game number={} pairing={} deal={} seats={}",
            g.number,
            codec::write_list(&[name(g.pairing.0), name(g.pairing.1)]),
            g.deal,
            codec::write_list(&seats),
        );
        match &g.ending {
            Ending::Normal => line.push_str(" ending=normal"),
            Ending::MoveLimit => line.push_str(" ending=movelimit"),
            Ending::Adjudicated(d) => line.push_str(&format!(
                " ending=adjudicated detail={}",
                codec::write_value(&d.to_string())
            )),
            Ending::Resign(e) => line.push_str(&format!(
                " ending=resign culprit={}",
                codec::write_value(&name(*e))
            )),
            Ending::Forfeit {
                engine,
                fault,
                detail,
            } => line.push_str(&format!(
                " ending=forfeit culprit={} fault={} detail={}",
                codec::write_value(&name(*engine)),
                fault.word(),
                codec::write_value(detail)
            )),
            Ending::Error(m) => {
                line.push_str(&format!(" ending=error detail={}", codec::write_value(m)))
            }
        }
        if let Some(scores) = &g.scores {
            line.push_str(&format!(" scores={}", join_nums(scores)));
        }
        let winners: Vec<String> = g.winners.iter().map(usize::to_string).collect();
        line.push_str(&format!(
            " winners={} results={} plies={} ms={} lines={}\n",
            codec::write_list(&winners),
            join_nums(&g.seat_results),
            g.plies,
            g.millis,
            g.transcript.len()
        ));
        line
    }

    /// The whole file, piece by piece through `put`: a merged record of
    /// many games is written without its whole text in memory at once.
    pub(crate) fn put_text<E>(&self, mut put: impl FnMut(&str) -> Result<(), E>) -> Result<(), E> {
        put(&self.header_text())?;
        put("\n")?;
        for g in &self.games {
            put(&self.game_line(g))?;
            put(g.transcript.text())?;
            put("\n")?;
        }
        if let Some(reason) = &self.stopped {
            put(&MatchRecord::stopped_text(reason, self.games.len()))?;
        }
        Ok(())
    }

    /// The whole file.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = self.put_text(|piece| {
            out.push_str(piece);
            Ok::<(), std::convert::Infallible>(())
        });
        out
    }
}

/// Finite numbers, separated by commas.
fn parse_nums(text: &str, what: &'static str) -> Result<Vec<f64>, GameLineError> {
    codec::read_list(text)
        .iter()
        .map(|s| match s.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(GameLineError::BadNumber {
                text: s.clone(),
                field: what,
            }),
        })
        .collect()
}

/// Reads a game header line and checks it against itself: every field
/// there, as many seats as the match has, the results those of its ending
/// (the winners' for a game played out, a loss for a resigning or
/// forfeiting engine's seats, a draw for a move limit or a runner error).
pub(crate) fn parse_game(
    pairs: &Fields,
    engines: &[EngineInfo],
    seat_count: usize,
) -> Result<GameRecord, GameLineError> {
    let engine = |name: &str| {
        engines
            .iter()
            .position(|e| e.name == name)
            .ok_or_else(|| GameLineError::UnknownEngine(name.to_string()))
    };
    let int = |key: &str| -> Result<u64, GameLineError> {
        pairs.get(key).parse().map_err(|_| GameLineError::BadCount {
            key: key.to_string(),
            text: pairs.get(key).to_string(),
        })
    };
    let pairing = codec::read_list(pairs.get("pairing"));
    let [a, b] = pairing.as_slice() else {
        return Err(GameLineError::PairingNotTwo);
    };
    let seats = codec::read_list(pairs.get("seats"))
        .iter()
        .map(|n| engine(n))
        .collect::<Result<Vec<_>, _>>()?;
    let required: &[&str] = &[
        "number", "pairing", "deal", "seats", "ending", "winners", "results", "plies", "ms",
    ];
    if let Some(key) = required.iter().find(|k| pairs.find(k).is_none()) {
        return Err(GameLineError::Missing(key));
    }
    if seats.len() != seat_count {
        return Err(GameLineError::SeatCount {
            seats: seats.len(),
            of_match: seat_count,
        });
    }
    let seat_results = parse_nums(pairs.get("results"), "results")?;
    if seat_results.len() != seats.len() {
        return Err(GameLineError::ResultsLength);
    }
    if let Some(r) = seat_results.iter().find(|r| !(0.0..=1.0).contains(*r)) {
        return Err(GameLineError::NotASeatResult(*r));
    }
    let ending = match pairs.get("ending") {
        "normal" => Ending::Normal,
        "movelimit" => Ending::MoveLimit,
        "adjudicated" => Ending::Adjudicated(Decision::read(pairs.get("detail"))),
        "resign" => Ending::Resign(engine(pairs.get("culprit"))?),
        "forfeit" => Ending::Forfeit {
            engine: engine(pairs.get("culprit"))?,
            fault: Fault::from_word(pairs.get("fault"))
                .ok_or_else(|| GameLineError::UnknownFault(pairs.get("fault").to_string()))?,
            detail: pairs.get("detail").to_string(),
        },
        "error" => Ending::Error(pairs.get("detail").to_string()),
        other => return Err(GameLineError::UnknownEnding(other.to_string())),
    };
    let winners: Vec<usize> = codec::read_list(pairs.get("winners"))
        .iter()
        .map(|s| match s.parse() {
            Ok(w) if w < seats.len() => Ok(w),
            _ => Err(GameLineError::BadWinner(s.clone())),
        })
        .collect::<Result<_, _>>()?;
    let (pa, pb) = (engine(a)?, engine(b)?);
    if pa == pb || !seats.contains(&pa) || !seats.contains(&pb) {
        return Err(GameLineError::PairingNotSeated);
    }
    if let Some(e) = seats.iter().find(|e| **e != pa && **e != pb) {
        return Err(GameLineError::Outsider {
            engine: engines[*e].name.clone(),
            pairing: (a.clone(), b.clone()),
        });
    }
    let scores = pairs
        .find("scores")
        .map(|s| parse_nums(s, "scores"))
        .transpose()?;
    let expected = match &ending {
        // An adjudicated game's winners are those of perfect play.
        Ending::Normal | Ending::Adjudicated(_) => results_from_winners(seats.len(), &winners),
        Ending::Resign(e) | Ending::Forfeit { engine: e, .. } => {
            if !seats.contains(e) {
                return Err(GameLineError::CulpritNotSeated);
            }
            seats
                .iter()
                .map(|s| if s == e { 0.0 } else { 1.0 })
                .collect()
        }
        Ending::MoveLimit | Ending::Error(_) => vec![0.5; seats.len()],
    };
    if seat_results != expected {
        return Err(GameLineError::ResultsDisagree {
            results: seat_results,
            ending: pairs.get("ending").to_string(),
            winners,
            expected,
        });
    }
    Ok(GameRecord {
        number: int("number")? as usize,
        pairing: (pa, pb),
        deal: int("deal")?,
        seats,
        ending,
        scores,
        winners,
        seat_results,
        plies: int("plies")? as usize,
        millis: int("ms")?,
        transcript: Transcript::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_with_several_seats_score_by_their_mean() {
        let mut g = GameRecord {
            number: 1,
            pairing: (0, 1),
            deal: 0,
            seats: vec![0, 1, 0, 1],
            ending: Ending::Normal,
            scores: None,
            winners: vec![0],
            seat_results: vec![1.0, 0.0, 0.0, 0.0],
            plies: 0,
            millis: 0,
            transcript: Transcript::new(),
        };
        assert_eq!(g.engine_result(0), Some(0.5));
        assert_eq!((g.first_score(), g.score_of(1)), (Some(1.0), Some(0.0)));
        g.seat_results = vec![1.0, 1.0, 0.0, 0.0];
        assert_eq!(g.first_score(), Some(0.5));
        g.ending = Ending::Error("bug".into());
        assert_eq!(g.first_score(), None);
    }

    #[test]
    fn winners_to_results() {
        assert_eq!(results_from_winners(2, &[0]), vec![1.0, 0.0]);
        assert_eq!(results_from_winners(2, &[]), vec![0.5, 0.5]);
        assert_eq!(results_from_winners(3, &[0, 1, 2]), vec![0.5; 3]);
        assert_eq!(results_from_winners(4, &[1, 3]), vec![0.0, 1.0, 0.0, 1.0]);
    }
}
