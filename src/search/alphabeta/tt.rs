//! Alpha-beta's transposition table: one slot of two words per position
//! key, written by the threads of a search without a lock (a torn slot
//! fails its key check and reads as a miss), cleared by drawing a new salt.

use std::sync::atomic::Ordering;

use super::BOARD_WIN;
use crate::memory::atomic_rows::AtomicRows;

/// What a stored score says of the true value. `Exact` is zero, so a zeroed
/// slot reads as a valid [`Entry`].
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum Bound {
    Exact = 0,
    Lower,
    Upper,
}

impl Bound {
    /// What a fail-soft `score` searched in the window `(alpha, beta)`
    /// says of the true value.
    pub(super) fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score <= alpha {
            Bound::Upper
        } else if score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }
}

/// One slot of the transposition table, as read or written. All-zero words
/// are an empty slot: the key stored is the position's key XOR the table's
/// salt, and a zero matches only the one key equal to the salt (as likely
/// as any collision of two 64-bit keys, which the table already lives
/// with); a zero entry has depth 0, which cuts nothing off, and no best
/// move. The best move is kept as its place in the position's list of
/// legal moves (as generated), so that an entry is two plain words for any
/// game's moves.
#[derive(Clone, Copy)]
pub(super) struct Entry {
    pub(super) salted_key: u64,
    pub(super) score: i32,
    pub(super) depth: u8,
    pub(super) bound: Bound,
    /// The best move's index in the generated move list, plus one; 0 for
    /// none.
    pub(super) best: u16,
}

impl Entry {
    /// Everything but the key, in one word.
    pub(super) fn data(&self) -> u64 {
        (self.score as u32 as u64)
            | (self.depth as u64) << 32
            | (self.bound as u64) << 40
            | (self.best as u64) << 48
    }

    pub(super) fn from_data(salted_key: u64, data: u64) -> Entry {
        Entry {
            salted_key,
            score: data as u32 as i32,
            depth: (data >> 32) as u8,
            bound: match (data >> 40) as u8 {
                1 => Bound::Lower,
                2 => Bound::Upper,
                _ => Bound::Exact,
            },
            best: (data >> 48) as u16,
        }
    }

    /// The best move among `moves`, the position's legal moves as
    /// generated.
    pub(super) fn best<M: Copy>(&self, moves: &[M]) -> Option<M> {
        self.best_index(moves.len()).map(|i| moves[i])
    }

    /// The best move's index in a generated list of `len` moves.
    pub(super) fn best_index(&self, len: usize) -> Option<usize> {
        (self.best as usize).checked_sub(1).filter(|&i| i < len)
    }
}

/// A slot's words: the key XOR the data, and the data. The threads of a
/// search write them one at a time without a lock; a read that catches
/// half of one write and half of another does not give back its key (the
/// XOR of its words), so it counts as a miss.
pub(super) type Slot = [u64; 2];

/// The smallest transposition table, in entries.
pub(super) const MIN_SLOTS: usize = 1024;

/// The salt of the `n`th clearing of a table: a clearing draws a new salt
/// instead of writing every slot, so old entries no longer match.
pub(super) fn salt(n: u64) -> u64 {
    let z = (n + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z ^ (z >> 31)
}

/// The table as the threads of one search share it.
pub(super) struct SharedTable<'t> {
    slots: AtomicRows<'t, 2>,
    pub(super) salt: u64,
}

impl<'t> SharedTable<'t> {
    pub(super) fn new(slots: &'t mut [Slot], salt: u64) -> SharedTable<'t> {
        SharedTable {
            slots: AtomicRows::new(slots),
            salt,
        }
    }

    pub(super) fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    /// The entry in the slot of `key`, whatever position it holds (a
    /// torn one comes back with a key that matches nothing).
    pub(super) fn read(&self, key: u64) -> Entry {
        let [mixed, data] = self.slots.row(self.slot(key));
        let mixed = mixed.load(Ordering::Relaxed);
        let data = data.load(Ordering::Relaxed);
        Entry::from_data(mixed ^ data, data)
    }

    pub(super) fn write(&self, key: u64, e: &Entry) {
        let [mixed, data_word] = self.slots.row(self.slot(key));
        let data = e.data();
        mixed.store(e.salted_key ^ data, Ordering::Relaxed);
        data_word.store(data, Ordering::Relaxed);
    }
}

/// A game won or lost on the board as the table keeps it: counted from
/// the node `ply` plies from the root (the search counts from the root),
/// so that an entry found at another ply gives the same distance to the
/// end. A solver's exact score has no distance: kept as it is.
pub(super) fn to_table(score: i32, ply: u32) -> i32 {
    if score > BOARD_WIN {
        score + ply as i32
    } else if score < -BOARD_WIN {
        score - ply as i32
    } else {
        score
    }
}

/// A table score as the search counts it at a node `ply` plies from the
/// root: the inverse of [`to_table`].
pub(super) fn from_table(score: i32, ply: u32) -> i32 {
    if score > BOARD_WIN {
        score - ply as i32
    } else if score < -BOARD_WIN {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::zeroed::ZeroedTable;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn a_slot_written_by_two_threads_at_once_never_reads_as_a_mixed_entry() {
        // Two writers fill one slot with entries of two keys, each with its
        // own data; a reader that accepts an entry for a key must see that
        // key's data, never the other's half.
        let mut slots = ZeroedTable::<Slot>::try_new(MIN_SLOTS).expect("a small table");
        let table = SharedTable::new(&mut slots, salt(0));
        let keys = [5u64, 5 + MIN_SLOTS as u64];
        assert_eq!(table.slot(keys[0]), table.slot(keys[1]));
        let entry = |k: usize, n: i32| Entry {
            salted_key: keys[k] ^ table.salt,
            score: if k == 0 { n } else { -n - 1 },
            depth: k as u8 + 1,
            bound: if k == 0 { Bound::Lower } else { Bound::Upper },
            best: k as u16,
        };
        let stop = AtomicBool::new(false);
        let (mut hits, mut wrong) = (0u64, 0u64);
        std::thread::scope(|scope| {
            for (k, &key) in keys.iter().enumerate() {
                let (table, stop) = (&table, &stop);
                scope.spawn(move || {
                    let mut n = 0;
                    while !stop.load(Ordering::Relaxed) {
                        table.write(key, &entry(k, n));
                        n = (n + 1) % 1000;
                    }
                });
            }
            // At least two million reads, and on until the writers (which a
            // busy machine may start late) have been seen a thousand times,
            // for ten seconds at most.
            let started = std::time::Instant::now();
            let mut i = 0usize;
            while i < 2_000_000
                || (hits < 1000 && started.elapsed() < std::time::Duration::from_secs(10))
            {
                let k = i % 2;
                i += 1;
                let e = table.read(keys[k]);
                if e.salted_key == keys[k] ^ table.salt {
                    hits += 1;
                    let own = if k == 0 { e.score >= 0 } else { e.score < 0 };
                    if !own || e.depth != k as u8 + 1 || e.best != k as u16 {
                        wrong += 1;
                    }
                }
            }
            stop.store(true, Ordering::Relaxed);
        });
        assert!(hits > 0);
        assert_eq!(wrong, 0, "{wrong} mixed entries in {hits} hits");
    }
}
