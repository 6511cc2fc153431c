//! The match seed, and the seeds an engine is told.
//!
//! A match has one seed (`--seed N`, else 64 bits from the system's
//! entropy, printed with the match so that it can be played again). Two
//! things come from it:
//!
//! - the deals (every chance outcome and random opening ply), through
//!   [`crate::arena::run::play::deal_rng`], a fast statistical generator;
//! - the seed each engine is told before a game (`set seed N`), through
//!   [`engine_seed`]: SHA-256 over the match seed, the game and the seat,
//!   cut to 32 bits. A hash is one-way: the seeds an engine sees do not
//!   narrow the match seed, so that an engine bound to one seat of a card
//!   game cannot recover the seed and from it every hand of the match.
//!
//! What stays: an engine can try match seeds against its own `set seed`
//! (or its own hand). Against a seed drawn from the system's 64 bits that
//! search is out of reach; against a small explicit one (`--seed 7`) it
//! takes moments, so the runner warns when a seat-bound match runs with a
//! seed below [`GUESSABLE_BELOW`] ([`guessable`]).

use rand::RngCore;
use sha2::{Digest, Sha256};

/// Explicit seeds below this (2^48) are within reach of a search that
/// tries every seed against what one engine sees: about 2.8 * 10^14
/// hashes, days for a few cores or hours for a GPU; below 2^32 it is
/// minutes on one core.
pub const GUESSABLE_BELOW: u64 = 1 << 48;

/// What names the engine seeds in the hash, so that no other use of the
/// match seed ever hashes to the same value.
const ENGINE_SEED_DOMAIN: &[u8] = b"tabula match: engine seed v1\0";

/// A match seed drawn from the system's entropy (64 bits).
pub fn fresh() -> Result<u64, rand::Error> {
    let mut bytes = [0u8; 8];
    rand::rngs::OsRng.try_fill_bytes(&mut bytes)?;
    Ok(u64::from_le_bytes(bytes))
}

/// The seed the engine at `seat` is told before game `game` (numbered
/// from 1) of the match of `match_seed`: a one-way function of the three.
pub fn engine_seed(match_seed: u64, game: u64, seat: u64) -> u32 {
    let digest = Sha256::new()
        .chain_update(ENGINE_SEED_DOMAIN)
        .chain_update(match_seed.to_le_bytes())
        .chain_update(game.to_le_bytes())
        .chain_update(seat.to_le_bytes())
        .finalize();
    u32::from_le_bytes([digest[0], digest[1], digest[2], digest[3]])
}

/// Whether an explicit seed is small enough for an engine to find by
/// trying seeds (see [`GUESSABLE_BELOW`]).
pub fn guessable(seed: u64) -> bool {
    seed < GUESSABLE_BELOW
}

/// The warning for a match whose engines are bound to seats of a game of
/// hidden cards, played with a guessable explicit seed.
pub fn guessable_warning(seed: u64) -> String {
    format!(
        "warning: --seed {seed} is small enough for a seat-bound engine to find by trying \
         seeds against its own 'set seed' or hand, and with it every other hand of the match; \
         leave --seed out (64 bits from the system) or give one of 15 or more digits for a \
         match whose players should not see each other's cards"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_seeds_are_sha256_of_the_match_game_and_seat() {
        // SHA-256("tabula match: engine seed v1\0" ++ le64(42) ++ le64(1)
        // ++ le64(0)), its first four bytes little-endian: computed with
        // an independent SHA-256 (Python's hashlib).
        assert_eq!(engine_seed(42, 1, 0), EXPECTED_42_1_0);
        // Every input changes it.
        let base = engine_seed(42, 1, 0);
        assert_ne!(engine_seed(43, 1, 0), base);
        assert_ne!(engine_seed(42, 2, 0), base);
        assert_ne!(engine_seed(42, 1, 1), base);
    }

    const EXPECTED_42_1_0: u32 = 2_987_356_732;

    #[test]
    fn fresh_seeds_use_the_high_bits() {
        // Eight draws all below 2^48 would happen once in 2^128 runs.
        let seeds: Vec<u64> = (0..8).map(|_| fresh().unwrap()).collect();
        assert!(seeds.iter().any(|&s| !guessable(s)), "{seeds:?}");
        assert!(guessable(77) && guessable((1 << 48) - 1) && !guessable(1 << 48));
    }
}
