//! Crashed and hung engines (`--recover`).
//!
//! A game in which an engine crashes (exits, closes its output) or hangs
//! (no reply within `--timeout` to a command without a time limit of its
//! own) is lost by it as a forfeit, and its process is
//! killed; the next game that needs the engine starts a fresh process. The
//! first game played by such a fresh process says so in the record (a
//! `# restart engine=NAME` line in its block). With `--recover` that goes
//! on for the whole match; without it a second crash or hang of the same
//! engine stops the match (the games under way finish), since an engine
//! that keeps failing makes the results say little about its strength.

use crate::arena::record::match_file::{Ending, Fault, GameRecord};
use crate::arena::record::note::Note;

/// Whether a fault is a crash or a hang (or a failed restart). A hang
/// (no reply to a command without a time limit of its own, by
/// `--timeout`) is recorded as a crash; a late reply to a timed move
/// ([`Fault::Timeout`]) is a loss on time, not a crash: the engine is
/// alive, the machine may only be busy.
pub fn is_crash(fault: Fault) -> bool {
    matches!(fault, Fault::Crash | Fault::Spawn)
}

/// Counts each engine's crashes as games finish.
#[derive(Clone, Debug, Default)]
pub struct CrashWatch {
    recover: bool,
    /// Per engine, the games it crashed or hung in.
    crashes: Vec<Vec<usize>>,
}

impl CrashWatch {
    /// A watch over `engines` engines; `recover` keeps the match going.
    pub fn new(engines: usize, recover: bool) -> CrashWatch {
        CrashWatch {
            recover,
            crashes: vec![Vec::new(); engines],
        }
    }

    /// Notes a finished game; returns why the match must stop, if it must.
    pub fn note(&mut self, game: &GameRecord, names: &[String]) -> Option<String> {
        let Ending::Forfeit { engine, fault, .. } = &game.ending else {
            return None;
        };
        if !is_crash(*fault) {
            return None;
        }
        let games = self.crashes.get_mut(*engine)?;
        games.push(game.number);
        if self.recover || games.len() < 2 {
            return None;
        }
        let list: Vec<String> = games.iter().map(usize::to_string).collect();
        Some(format!(
            "engine {} crashed or hung in games {}: the match stops at its second crash \
             (--recover restarts it and goes on)",
            names.get(*engine).map_or("?", String::as_str),
            list.join(", ")
        ))
    }
}

/// The engines (names) a game's record marks as restarted before it.
pub fn restarted_in(game: &GameRecord) -> Vec<&str> {
    noted(game, |note| matches!(note, Note::Restarted(_)))
}

/// The engines (names) a game's record marks as having reported no scores
/// (`--adjudicate resign.`/`draw.`).
pub fn silent_in(game: &GameRecord) -> Vec<&str> {
    noted(game, |note| matches!(note, Note::NoScores(_)))
}

/// The engines (names) of a game's notes of the kind `wanted` picks.
fn noted(game: &GameRecord, wanted: impl Fn(Note) -> bool) -> Vec<&str> {
    game.transcript
        .notes()
        .filter_map(Note::read)
        .filter(|&note| wanted(note))
        .map(Note::engine)
        .collect()
}
