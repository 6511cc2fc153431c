//! Large tables that cost nothing to create or to throw away.
//!
//! A table of `len` entries is taken from the system already zeroed
//! ([`std::alloc::alloc_zeroed`]): for a large table the system maps pages
//! that are zeroed on first touch, so creating a 1 GiB table takes
//! microseconds instead of the second that writing every entry takes, and
//! a search only pays for the pages it reaches. Giving a large table back
//! is handed to a helper thread, so that the thread that drops it (the
//! one about to answer a move) does not wait for the system to unmap it.
//!
//! Entry types say with [`Zeroable`] that all-zero bytes are a valid value
//! meaning "empty".

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// A type for which every byte zero is a valid value, and that value
/// means "empty" to the table holding it.
///
/// # Safety
///
/// All-zero bytes must be a valid value of the type: integers, `bool`,
/// `MaybeUninit`, fieldless enums whose zero discriminant exists, and
/// arrays and structs of such, but no references, `NonZero*`, `Box`,
/// `Vec` or `Option` of those (whose zero is not a valid value).
pub unsafe trait Zeroable: Copy {}

macro_rules! zeroable {
    ($($t:ty),*) => {
        // SAFETY: zero is a valid integer, and `false`.
        $(unsafe impl Zeroable for $t {})*
    };
}
zeroable!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, bool);

// SAFETY: an array of zeroable values, zeroed, is an array of valid values.
unsafe impl<T: Zeroable, const N: usize> Zeroable for [T; N] {}

/// Tables from this size on are given back on a helper thread.
const FREE_ON_HELPER_BYTES: usize = 4 << 20;

/// A fixed-length table of [`Zeroable`] entries, all zero when created.
pub struct ZeroedTable<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
}

// SAFETY: the table owns its entries as a `Vec` would.
unsafe impl<T: Zeroable + Send> Send for ZeroedTable<T> {}
// SAFETY: shared access is only through `&[T]`.
unsafe impl<T: Zeroable + Sync> Sync for ZeroedTable<T> {}

impl<T: Zeroable> ZeroedTable<T> {
    /// A table of `len` zeroed entries, or `None` if the system does not
    /// grant the memory (or its size overflows).
    pub fn try_new(len: usize) -> Option<ZeroedTable<T>> {
        let layout = Layout::array::<T>(len).ok()?;
        let ptr = if layout.size() == 0 {
            NonNull::dangling()
        } else {
            // SAFETY: the layout's size is not zero.
            NonNull::new(unsafe { alloc_zeroed(layout) })?.cast::<T>()
        };
        Some(ZeroedTable { ptr, len })
    }

    /// A table of `len` entries, or of the largest half, quarter... of it
    /// that the system grants, down to `min` entries; `None` if not even
    /// `min` entries can be had.
    pub fn halving(len: usize, min: usize) -> Option<ZeroedTable<T>> {
        let mut len = len.max(min);
        loop {
            if let Some(table) = ZeroedTable::try_new(len) {
                return Some(table);
            }
            if len <= min {
                return None;
            }
            len = (len / 2).max(min);
        }
    }

    /// A fresh zeroed table of the same length in place of this one (the
    /// old memory is given back as on drop); if the system will not grant
    /// it, this one's entries are zeroed in place instead.
    pub fn renew(&mut self) {
        match ZeroedTable::try_new(self.len) {
            Some(fresh) => *self = fresh,
            None => {
                // SAFETY: the entries are `len` valid `T`s in one
                // allocation, and all-zero bytes are a valid `T`.
                unsafe { std::ptr::write_bytes(self.ptr.as_ptr(), 0, self.len) }
            }
        }
    }
}

impl<T: Zeroable> Deref for ZeroedTable<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised entries (zeroed, then only
        // written through `&mut [T]`) for as long as `self` lives.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> DerefMut for ZeroedTable<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

/// An allocation on its way back to the system.
struct Allocation {
    ptr: NonNull<u8>,
    layout: Layout,
}

// SAFETY: the allocation is owned by this value alone once its table is
// gone; any thread may give it back.
unsafe impl Send for Allocation {}

impl<T: Zeroable> Drop for ZeroedTable<T> {
    fn drop(&mut self) {
        let Ok(layout) = Layout::array::<T>(self.len) else {
            return;
        };
        if layout.size() == 0 {
            return;
        }
        let allocation = Allocation {
            ptr: self.ptr.cast::<u8>(),
            layout,
        };
        if layout.size() < FREE_ON_HELPER_BYTES {
            drop(allocation);
            return;
        }
        // Unmapping a large table takes milliseconds per hundred MiB
        // touched: not in the time of the move or reply that dropped it.
        crate::memory::dispose::dispose(allocation);
    }
}

impl Drop for Allocation {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from `alloc_zeroed` with this `layout`, and
        // nothing else refers to it any more (dropped once).
        unsafe { dealloc(self.ptr.as_ptr(), self.layout) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy)]
    struct Slot {
        key: u64,
        value: i32,
    }
    // SAFETY: integers only.
    unsafe impl Zeroable for Slot {}

    #[test]
    fn a_new_table_is_all_empty_and_keeps_what_is_written() {
        let mut t = ZeroedTable::<[Slot; 2]>::try_new(1 << 12).expect("64 KiB");
        assert_eq!(t.len(), 1 << 12);
        assert!(t.iter().flatten().all(|s| s.key == 0 && s.value == 0));
        t[7][1] = Slot { key: 9, value: -3 };
        assert_eq!((t[7][1].key, t[7][1].value), (9, -3));
        t.renew();
        assert_eq!(t.len(), 1 << 12);
        assert!(t.iter().flatten().all(|s| s.key == 0));
    }

    #[test]
    fn a_large_table_is_created_and_dropped_without_touching_its_pages() {
        // 4 GiB of address space: writing it would take seconds (or fail on
        // a small machine); mapping it zeroed and giving it back is quick.
        let started = std::time::Instant::now();
        let t = ZeroedTable::<u64>::halving(1 << 29, 1 << 10).expect("some table");
        assert!(t.len() >= 1 << 10);
        assert_eq!(t[t.len() - 1], 0);
        drop(t);
        assert!(started.elapsed() < std::time::Duration::from_millis(500));
    }

    #[test]
    fn an_impossible_size_is_refused_not_a_crash() {
        assert!(ZeroedTable::<u64>::try_new(usize::MAX / 4).is_none());
        let t = ZeroedTable::<u64>::halving(usize::MAX / 4, 1 << 10).expect("halved");
        assert!(t.len() >= 1 << 10);
    }
}
