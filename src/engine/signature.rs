//! The build signature: a node count that is the same on every machine
//! for a given build (its search and evaluation), and the speed it was
//! counted at, as OpenBench and fishtest use to check a build and to scale
//! a time control by a machine's speed (`tabula match --tc-scale`).
//!
//! Alpha-beta on one thread, to a fixed depth, from an empty table, over
//! fixed Othello positions (seeded random games stopped at 44..30 empty
//! squares): nothing in it depends on time or on the machine (64-bit
//! builds; the seeded generator differs on 32-bit ones).

use std::time::Instant;

use crate::engine::searchers::alpha_beta;
use crate::engine::settings::Settings;
use crate::games::othello::{Othello, random_position};
use crate::model::game::Game;
use crate::search::alphabeta::AlphaBeta;
use crate::search::{Budget, Control, Search};

/// The depth searched.
pub const DEPTH: u32 = 7;

/// How many positions.
pub const POSITIONS: u64 = 16;

/// A measured signature.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Signature {
    /// Nodes searched: the build's signature.
    pub nodes: u64,
    /// Seconds it took here.
    pub seconds: f64,
}

impl Signature {
    /// Nodes a second on this machine.
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9)
    }

    /// The report line.
    pub fn line(&self) -> String {
        format!(
            "signature: {} nodes (alpha-beta depth {DEPTH}, {POSITIONS} positions, one thread), {:.0} nodes/s",
            self.nodes,
            self.nps()
        )
    }
}

/// The fixed positions.
fn positions() -> Vec<Othello> {
    (0..POSITIONS)
        .map(|i| random_position(7_000 + i, 44 - 2 * (i as u32 % 8)))
        .collect()
}

/// Counts the signature's nodes, timed.
pub fn measure() -> Signature {
    let budget = Budget {
        depth: Some(DEPTH),
        ..Budget::default()
    };
    let mut search = othello_alpha_beta(16);
    let positions = positions();
    let started = Instant::now();
    let mut nodes = 0;
    for p in &positions {
        search.reset();
        let control = Control::new(
            std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
            &budget,
        );
        let seat = match crate::model::game::Game::turn(p) {
            crate::model::game::Turn::Player(s) => s,
            _ => 0,
        };
        let mut rng = <crate::model::game::Rng as rand::SeedableRng>::seed_from_u64(1);
        nodes += search
            .search(p, seat, &budget, &control, &mut rng)
            .iterations;
    }
    Signature {
        nodes,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// Alpha-beta on Othello as the engine tunes it, on one thread, with a
/// table of `hash_mib` MiB (the signature's search, and `tabula bench`'s).
pub fn othello_alpha_beta(hash_mib: u64) -> AlphaBeta<Othello> {
    let mut settings = Settings::for_game(Othello::NAME, 2, &[]);
    settings.hash = hash_mib;
    settings.threads = 1;
    alpha_beta::<Othello>(&settings, Default::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_repeats() {
        let a = measure();
        let b = measure();
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 10_000, "{}", a.nodes);
    }
}
