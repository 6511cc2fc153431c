//! Replay of a `tabula match` record: every step of one game, with the
//! full table (a record is public once played).

use super::json::{self, Object};
use super::view::mirror;
use crate::arena::record::{Ending, MatchRecord};

/// The most steps of one game sent to the page.
const MAX_STEPS: usize = 20_000;

/// The record's games as a list, and game `number` (from 1) step by step.
pub fn replay_json(text: &str, number: usize) -> Result<String, String> {
    let record =
        MatchRecord::parse(text, std::path::Path::new("the record")).map_err(|e| e.to_string())?;
    let names = |e: usize| {
        record
            .engines
            .get(e)
            .map_or("?".to_string(), |e| e.name.clone())
    };
    let list = json::array(record.games.iter().map(|g| {
        Object::new()
            .num("number", g.number)
            .raw("seats", json::strings(g.seats.iter().map(|&e| names(e))))
            .raw("results", json::numbers(g.seat_results.iter()))
            .end()
    }));
    let game = record
        .games
        .iter()
        .find(|g| g.number == number)
        .or_else(|| record.games.first())
        .ok_or("the record holds no game")?;
    let mut view = mirror(&record.game, &record.options, None, true)?;
    let mut steps = vec![
        Object::new()
            .str("line", "start")
            .raw("view", view.view())
            .end(),
    ];
    for line in &game.transcript {
        let mut words = line.split_whitespace();
        let text = match words.next() {
            Some("play") => words.nth(1),
            Some("deal") => Some(line["deal".len()..].trim()),
            _ => None,
        };
        let Some(text) = text else { continue };
        view.play(text)
            .map_err(|e| format!("game {}: '{line}': {e}", game.number))?;
        if steps.len() >= MAX_STEPS {
            return Err(format!("game {} is too long to replay here", game.number));
        }
        steps.push(
            Object::new()
                .str("line", line)
                .raw("view", view.view())
                .end(),
        );
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
    Ok(Object::new()
        .str("type", "replay")
        .str("game", &record.game)
        .raw("options", json::strings(&record.options))
        .raw("seat_names", json::strings(&record.seat_names))
        .raw("games", list)
        .num("number", game.number)
        .raw("seats", json::strings(game.seats.iter().map(|&e| names(e))))
        .str("ending", &ending)
        .opt(
            "scores",
            game.scores.as_ref().map(|s| json::numbers(s.iter())),
        )
        .raw("steps", json::array(steps))
        .end())
}
