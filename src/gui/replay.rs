//! Replay of a `tabula match` record: every step of one game, with the
//! full table (a record is public once played).

use super::error::PageError;
use super::view::mirror;
use crate::arena::record::{Ending, MatchRecord, RecordError};
use crate::model::game::MoveError;
use serde_json::value::RawValue;

use crate::json::Plain;

/// The most steps of one game replayed.
const MAX_STEPS: usize = 20_000;

/// The most games listed (a record of more lists its first ones; any game
/// is still replayed by its number).
const MAX_LISTED: usize = 1000;

/// Why a record could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The text is no record.
    #[error(transparent)]
    Record(RecordError),
    /// The record holds no game.
    #[error("the record holds no game")]
    NoGame,
    /// The record's game could not be set up.
    #[error(transparent)]
    View(PageError),
    /// A step of the game was refused.
    #[error("game {game}: '{line}': {error}")]
    Step {
        /// The game's number.
        game: usize,
        /// The record's line.
        line: String,
        /// Why.
        error: MoveError,
    },
    /// The game has more steps than a replay holds (`MAX_STEPS`).
    #[error("game {0} is too long to replay here")]
    TooLong(usize),
    /// The window asked for starts past the game's end.
    #[error("game {game} has {total} steps: no step {from}")]
    NoStep {
        /// The game's number.
        game: usize,
        /// Its steps.
        total: usize,
        /// The first step asked for.
        from: usize,
    },
}

/// The record's games as a list, and game `number` (from 1) step by step,
/// every step.
pub fn replay_json(text: &str, number: usize) -> Result<String, ReplayError> {
    replay_window(text, number, 0, usize::MAX)
}

/// The record's games as a list (the first [`MAX_LISTED`]), and game
/// `number` (from 1) from step `from`: as many steps as fit in
/// `max_bytes` (one at least), so that a reply stays bounded whatever the
/// record; `total` says how many steps the game has, and the page asks
/// for the next window when it gets there.
pub fn replay_window(
    text: &str,
    number: usize,
    from: usize,
    max_bytes: usize,
) -> Result<String, ReplayError> {
    let record = MatchRecord::parse(text, std::path::Path::new("the record"))
        .map_err(ReplayError::Record)?;
    let names = |e: usize| {
        record
            .engines
            .get(e)
            .map_or("?".to_string(), |e| e.name.clone())
    };
    let list = record
        .games
        .iter()
        .take(MAX_LISTED)
        .map(|g| ListedGame {
            number: g.number,
            seats: g.seats.iter().map(|&e| names(e)).collect(),
            results: Plain::all(&g.seat_results),
        })
        .collect();
    let game = record
        .games
        .iter()
        .find(|g| g.number == number)
        .or_else(|| record.games.first())
        .ok_or(ReplayError::NoGame)?;
    let mut view = mirror(&record.game, &record.options, None, true).map_err(ReplayError::View)?;
    let mut steps = Vec::new();
    let mut bytes = 0;
    let mut total = 0;
    let mut keep = |line: &str, view: &dyn super::view::Mirror, total: &mut usize| {
        let k = *total;
        *total += 1;
        if k < from || (bytes >= max_bytes && !steps.is_empty()) {
            return;
        }
        // The step in words for the page's step line and move list
        // (`black plays d3`), the record's line kept as it is.
        let words = if k == 0 {
            "the start".to_string()
        } else {
            view.last_step_words().unwrap_or_else(|| line.to_string())
        };
        let step = crate::json::raw(&Step {
            line,
            words: &words,
            view: &view.view(),
        });
        let size = step.get().len();
        if bytes + size > max_bytes && !steps.is_empty() {
            // The window is full: later steps are counted only.
            bytes = max_bytes;
            return;
        }
        bytes += size + 1;
        steps.push(step);
    };
    keep("start", view.as_ref(), &mut total);
    for line in &game.transcript {
        let mut words = line.split_whitespace();
        let text = match words.next() {
            Some("play") => words.nth(1),
            Some("deal") => Some(line["deal".len()..].trim()),
            _ => None,
        };
        let Some(text) = text else { continue };
        view.play(text).map_err(|error| ReplayError::Step {
            game: game.number,
            line: line.to_string(),
            error,
        })?;
        if total >= MAX_STEPS {
            return Err(ReplayError::TooLong(game.number));
        }
        keep(line, view.as_ref(), &mut total);
    }
    if from >= total {
        return Err(ReplayError::NoStep {
            game: game.number,
            total,
            from,
        });
    }
    let ending = match &game.ending {
        Ending::Normal => "normal".to_string(),
        Ending::MoveLimit => "move limit".to_string(),
        Ending::Resign(e) => format!("{} resigned", names(*e)),
        Ending::Forfeit { engine, fault, .. } => {
            format!("{} forfeited ({})", names(*engine), fault.word())
        }
        Ending::Error(m) => m.clone(),
        Ending::Adjudicated(detail) => format!("adjudicated: {detail}"),
    };
    Ok(crate::json::to_string(&Replay {
        game: &record.game,
        options: &record.options,
        seat_names: &record.seat_names,
        games: list,
        number: game.number,
        seats: game.seats.iter().map(|&e| names(e)).collect(),
        ending,
        scores: game.scores.as_deref().map(Plain::all),
        listed: record.games.len().min(MAX_LISTED),
        count: record.games.len(),
        total,
        from,
        steps,
    }))
}

/// The replay reply ([`replay_window`]).
#[derive(serde::Serialize)]
#[serde(tag = "type", rename = "replay")]
struct Replay<'a> {
    game: &'a str,
    options: &'a [String],
    seat_names: &'a [String],
    /// The record's games (the first [`MAX_LISTED`]).
    games: Vec<ListedGame>,
    /// The game replayed.
    number: usize,
    /// Its engine at each seat.
    seats: Vec<String>,
    /// How it ended, in words.
    ending: String,
    scores: Option<Vec<Plain>>,
    /// How many games are listed, of `count`.
    listed: usize,
    count: usize,
    /// The game's steps, of which the window holds those from `from`.
    total: usize,
    from: usize,
    steps: Vec<Box<RawValue>>,
}

/// A game in the record's list.
#[derive(serde::Serialize)]
struct ListedGame {
    number: usize,
    /// Its engine at each seat.
    seats: Vec<String>,
    results: Vec<Plain>,
}

/// One step of the game: the record's line, the step in words, the view
/// after it.
#[derive(serde::Serialize)]
struct Step<'a> {
    line: &'a str,
    words: &'a str,
    view: &'a RawValue,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The replay reply as the page got it before serde: the list, the
    /// game's steps with their views, a window that a byte limit cut.
    #[test]
    fn replay_replies_keep_their_bytes() {
        let record = crate::json::PIN_RECORD;
        let replies = [
            replay_json(record, 1).expect("game 1 replays"),
            replay_json(record, 2).expect("game 2 replays"),
            replay_window(record, 1, 1, 10).expect("a window of game 1"),
        ];
        crate::json::assert_pinned("replay", &replies.join("\n"));
    }
}
