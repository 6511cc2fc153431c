//! Rows of words that the threads of a search share without a lock.
//!
//! A transposition table is a table of plain `[u64; N]` rows (so that it
//! can be taken zeroed from the system, see `zeroed`); while the threads
//! of one search use it, each of them reads and writes its words as
//! atomics. [`AtomicRows`] is that shared view, the one place where the
//! plain words are reinterpreted: what the words mean, and how a reader
//! tells a torn row from a whole one, is the table's own design.

use std::sync::atomic::AtomicU64;

// The rows are shared as atomics of the same layout.
const _: () = assert!(
    std::mem::align_of::<u64>() == std::mem::align_of::<AtomicU64>()
        && std::mem::size_of::<u64>() == std::mem::size_of::<AtomicU64>()
);

/// Rows of `N` words, borrowed from a table of plain words and shared
/// between threads as atomics for as long as the borrow lasts.
pub struct AtomicRows<'t, const N: usize> {
    rows: &'t [[AtomicU64; N]],
}

impl<'t, const N: usize> AtomicRows<'t, N> {
    /// Shares `rows`: until the borrow ends, their words are only read and
    /// written atomically, through the view.
    pub fn new(rows: &'t mut [[u64; N]]) -> AtomicRows<'t, N> {
        let len = rows.len();
        // SAFETY: the rows are `len` arrays of initialised u64s, borrowed
        // mutably for 't, so nothing else reads or writes them meanwhile;
        // AtomicU64 has the size and alignment of u64 (asserted above), so
        // an array of them has the layout of an array of u64s, and from
        // here on the words are only accessed atomically.
        let rows = unsafe { std::slice::from_raw_parts(rows.as_mut_ptr().cast(), len) };
        AtomicRows { rows }
    }

    /// Row `i`.
    #[inline(always)]
    pub fn row(&self, i: usize) -> &'t [AtomicU64; N] {
        &self.rows[i]
    }

    /// The number of rows.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.rows.len()
    }
}

#[cfg(test)]
mod tests {
    use super::AtomicRows;
    use std::sync::atomic::Ordering;

    #[test]
    fn the_shared_rows_are_the_plain_words() {
        let mut plain = vec![[0u64; 3]; 4];
        plain[2][1] = 7;
        {
            let rows = AtomicRows::new(&mut plain);
            assert_eq!(rows.len(), 4);
            assert_eq!(rows.row(2)[1].load(Ordering::Relaxed), 7);
            rows.row(3)[2].store(9, Ordering::Relaxed);
        }
        assert_eq!(plain[3][2], 9);
        assert_eq!(plain.iter().flatten().sum::<u64>(), 16);
    }
}
