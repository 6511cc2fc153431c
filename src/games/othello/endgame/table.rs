//! The solver's transposition table: buckets of two entries that hold
//! the whole position (a hit is never a collision), guarded by a sequence
//! lock, kept from one solve to the next and cleared by a new generation.

use std::cell::RefCell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering, fence};

use crate::memory::atomic_rows::AtomicRows;
use crate::memory::zeroed::ZeroedTable;

/// One transposition table entry, as read from or written to a bucket.
/// The full position is stored, so a hit is never a collision. An entry
/// belongs to the solve whose `generation` it carries: the table is kept
/// from one solve to the next and cleared by counting up the generation,
/// not by writing it.
#[derive(Clone, Copy, Default)]
pub(super) struct PositionEntry {
    pub(super) p: u64,
    pub(super) o: u64,
    pub(super) lower: i8,
    pub(super) upper: i8,
    pub(super) best: u8,
    pub(super) empties: u8,
    pub(super) generation: u32,
}

impl PositionEntry {
    /// Whether this is the entry of position (p, o) in this `generation`.
    #[inline(always)]
    pub(super) fn holds(&self, p: u64, o: u64, generation: u32) -> bool {
        self.p == p && self.o == o && self.generation == generation
    }

    /// The empties of its position, as a replacement priority: 0 for an
    /// entry of an earlier solve, which is as good as empty.
    #[inline(always)]
    pub(super) fn priority(&self, generation: u32) -> u8 {
        if self.generation == generation {
            self.empties
        } else {
            0
        }
    }

    /// Everything but the position, in one word.
    #[inline(always)]
    fn data(&self) -> u64 {
        (self.lower as u8 as u64)
            | (self.upper as u8 as u64) << 8
            | (self.best as u64) << 16
            | (self.empties as u64) << 24
            | (self.generation as u64) << 32
    }

    #[inline(always)]
    fn from_words(p: u64, o: u64, data: u64) -> PositionEntry {
        PositionEntry {
            p,
            o,
            lower: data as u8 as i8,
            upper: (data >> 8) as u8 as i8,
            best: (data >> 16) as u8,
            empties: (data >> 24) as u8,
            generation: (data >> 32) as u32,
        }
    }
}

/// Words in a bucket: a sequence lock, two entries of three words (the
/// two bitboards and the data), and one unused word that rounds the bucket
/// to a cache line. All zero is an unlocked bucket of generation-0
/// entries, which no solve uses: empty.
pub(super) const BUCKET_WORDS: usize = 8;
pub(super) type Bucket = [u64; BUCKET_WORDS];

/// The table of the last solve, kept for the next one (a solve that runs
/// while another holds it gets a table of its own, and the larger of the
/// two is kept). Its memory stays within the `hash` setting.
static KEPT_TABLE: Mutex<Option<SolverTable>> = Mutex::new(None);

thread_local! {
    /// The table of this thread's last small solve of a search's node
    /// ([`SolverTable::take_local`]): a search hands over many, on each of
    /// its threads, which would queue on [`KEPT_TABLE`].
    static LOCAL_TABLE: RefCell<Option<SolverTable>> = const { RefCell::new(None) };
}

/// The solver's transposition table and the generation of its live entries.
pub(super) struct SolverTable {
    buckets: ZeroedTable<Bucket>,
    pub(super) generation: u32,
}

impl SolverTable {
    /// A table of at least `2^bits` buckets and at most `max_bytes`, its
    /// entries all of older generations: the kept one if it fits, else a
    /// new zeroed one (which costs no time to create).
    ///
    /// With `clear` false the kept table's entries stay (see
    /// [`SolverTable::take_local`]).
    pub(super) fn take(bits: u32, max_bytes: usize, clear: bool) -> SolverTable {
        let kept = KEPT_TABLE.lock().ok().and_then(|mut k| k.take());
        SolverTable::reuse(kept, bits, max_bytes, clear)
    }

    /// [`SolverTable::take`] from this thread's own keep, its entries
    /// kept: an entry is a bound on its position's exact value, true in
    /// any solve, and a search hands over many nodes that share
    /// positions (a null window, then the whole one; transpositions).
    pub(super) fn take_local(bits: u32, max_bytes: usize) -> SolverTable {
        let kept = LOCAL_TABLE.with(|k| k.borrow_mut().take());
        SolverTable::reuse(kept, bits, max_bytes, false)
    }

    /// `kept` as a new solve's table if it fits (its entries of an older
    /// generation if `clear`), else a new one.
    fn reuse(kept: Option<SolverTable>, bits: u32, max_bytes: usize, clear: bool) -> SolverTable {
        let wanted = 1usize << bits;
        if let Some(mut t) = kept
            && t.buckets.len() >= wanted
            && std::mem::size_of_val(&*t.buckets)
                <= max_bytes.max(wanted * std::mem::size_of::<Bucket>())
        {
            if !clear {
                return t;
            }
            t.generation = t.generation.wrapping_add(1);
            if t.generation == 0 {
                // Every generation was used: start over from zero.
                t.buckets.renew();
                t.generation = 1;
            }
            return t;
        }
        let buckets = ZeroedTable::halving(wanted, 1)
            .unwrap_or_else(|| std::alloc::handle_alloc_error(std::alloc::Layout::new::<Bucket>()));
        SolverTable {
            buckets,
            generation: 1,
        }
    }

    /// Keeps this table for the next solve, unless a larger one is kept.
    pub(super) fn give_back(self) {
        if let Ok(mut kept) = KEPT_TABLE.lock()
            && kept
                .as_ref()
                .is_none_or(|k| k.buckets.len() <= self.buckets.len())
        {
            *kept = Some(self);
        }
    }

    /// Keeps this table for this thread's next [`SolverTable::take_local`],
    /// unless a larger one is kept.
    pub(super) fn give_back_local(self) {
        LOCAL_TABLE.with(|k| {
            let mut kept = k.borrow_mut();
            if kept
                .as_ref()
                .is_none_or(|t| t.buckets.len() <= self.buckets.len())
            {
                *kept = Some(self);
            }
        });
    }
}

/// The table as the threads of one solve share it: every bucket guarded by
/// a sequence lock, so that a read that overlaps a write is seen to and
/// counts as a miss (a torn entry never gives a score), and two writers
/// never mix their words (the second one skips its store).
pub(super) struct SeqlockTable<'t> {
    buckets: AtomicRows<'t, BUCKET_WORDS>,
    mask: usize,
    pub(super) generation: u32,
}

impl<'t> SeqlockTable<'t> {
    /// The first `2^bits` buckets of `table` (of all of them if fewer),
    /// shared for as long as the borrow lasts.
    pub(super) fn new(table: &'t mut SolverTable, bits: u32) -> SeqlockTable<'t> {
        let size = (1usize << bits).min(table.buckets.len());
        SeqlockTable {
            buckets: AtomicRows::new(&mut table.buckets[..size]),
            mask: size - 1,
            generation: table.generation,
        }
    }

    /// The bucket of a position's hash.
    #[inline(always)]
    pub(super) fn index(&self, hash: u64) -> usize {
        hash as usize & self.mask
    }

    /// The two entries of bucket `h`, or empty ones if a writer holds it.
    #[inline(always)]
    pub(super) fn read(&self, h: usize) -> [PositionEntry; 2] {
        let w = self.buckets.row(h);
        let seq = w[0].load(Ordering::Acquire);
        let e = entries(w);
        fence(Ordering::Acquire);
        if seq & 1 == 0 && w[0].load(Ordering::Relaxed) == seq {
            e
        } else {
            [PositionEntry::default(); 2]
        }
    }

    /// Rewrites bucket `h` with `update` (given its entries, it changes
    /// them) unless another thread is writing it (then nothing is stored:
    /// the table may lose entries, never mix them).
    #[inline(always)]
    pub(super) fn write(&self, h: usize, update: impl FnOnce(&mut [PositionEntry; 2])) {
        let w = self.buckets.row(h);
        let seq = w[0].load(Ordering::Relaxed);
        if seq & 1 != 0
            || w[0]
                .compare_exchange(seq, seq + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        fence(Ordering::Release);
        let mut e = entries(w);
        update(&mut e);
        for (k, e) in e.iter().enumerate() {
            w[1 + 3 * k].store(e.p, Ordering::Relaxed);
            w[2 + 3 * k].store(e.o, Ordering::Relaxed);
            w[3 + 3 * k].store(e.data(), Ordering::Relaxed);
        }
        w[0].store(seq + 2, Ordering::Release);
    }
}

/// The two entries of a bucket's words, read one word at a time (the
/// sequence lock says whether they belong together).
#[inline(always)]
fn entries(w: &[AtomicU64; BUCKET_WORDS]) -> [PositionEntry; 2] {
    [1, 4].map(|i| {
        PositionEntry::from_words(
            w[i].load(Ordering::Relaxed),
            w[i + 1].load(Ordering::Relaxed),
            w[i + 2].load(Ordering::Relaxed),
        )
    })
}

/// A position's key in the table.
#[inline]
pub(super) fn hash(p: u64, o: u64) -> u64 {
    let h = (p ^ o.rotate_left(23)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ o.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    h ^ (h >> 31)
}

