//! A game as NBoard and UGI give it: a start position (or the game's own
//! start) and the moves played from it. Set on the engine as a whole, so
//! a bad position or move changes nothing, and set again after a search
//! that must not play (NBoard's `go`, UGI's `go`).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::control::Progress;
use crate::engine::{BudgetOverride, Decision, Engine, EngineError, Request};

/// A start and the moves from it, in the engine's texts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replay {
    /// The start position's text; `None`: the game's start.
    pub start: Option<String>,
    /// The moves played from the start, each with the seat said to play
    /// it (`None`: whoever is to move).
    pub moves: Vec<(Option<String>, String)>,
}

impl Replay {
    /// Sets the engine to the end of this game. On an error the engine is
    /// set back to `fallback` (what it was) and the error says which move
    /// or position was refused.
    pub fn set(&self, engine: &mut Engine, fallback: &Replay) -> Result<(), EngineError> {
        match self.apply(engine) {
            Ok(()) => Ok(()),
            Err(e) => {
                if let Err(again) = fallback.apply(engine) {
                    log::error!("could not restore the game after '{e}': {again}");
                }
                Err(e)
            }
        }
    }

    fn apply(&self, engine: &mut Engine) -> Result<(), EngineError> {
        engine.restart();
        if let Some(start) = &self.start {
            engine.set_position(start)?;
        }
        for (i, (seat, mv)) in self.moves.iter().enumerate() {
            engine
                .play(seat.as_deref(), mv)
                .map_err(|e| EngineError::Unsupported(format!("move {} ({mv}): {e}", i + 1)))?;
        }
        Ok(())
    }
}

/// How a search that must not play is bounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThinkLimit {
    /// The budgets given, or the settings' and the clock's where none is.
    Budget(BudgetOverride),
    /// Until stopped.
    Infinite,
}

impl Replay {
    /// Searches the position at the end of this game (the engine's) for
    /// the side to move, and leaves the game as it was: a move the
    /// search plays is taken back by setting the game again.
    pub fn think(
        &self,
        engine: &mut Engine,
        bound: ThinkLimit,
        stop: Arc<AtomicBool>,
        since: Instant,
        reporter: Option<&(dyn Fn(&Progress) + Sync)>,
        multipv: usize,
    ) -> Result<Decision, EngineError> {
        let budget = match bound {
            ThinkLimit::Budget(b) => b,
            ThinkLimit::Infinite => BudgetOverride::default(),
        };
        let request = Request::new(None, budget, stop, since)
            .reporting(reporter)
            .with_multipv(multipv);
        if bound == ThinkLimit::Infinite {
            engine.ready_to_analyze(None)?;
            return engine.analyze(&request);
        }
        let decided = engine.genmove(&request);
        self.apply(engine)?;
        decided
    }
}
