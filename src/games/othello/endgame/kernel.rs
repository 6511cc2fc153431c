//! The two copies of the solver's search: one on the portable move
//! generator, one compiled for AVX2, BMI2, POPCNT and LZCNT on the AVX2
//! move generator and flips (chosen at run time by
//! [`crate::games::othello::avx2::available`]).
//!
//! The search is written once, as generic functions over a [`Kernel`]
//! that inline into each other. A CPU's features must be enabled on every
//! function compiled for it, so each function where the search recurses
//! or a thread starts is an entry point of the kernel: the AVX2 kernel
//! compiles it with the features, the portable one without.

use super::shared::{Job, SolveShared};
use super::SolveThread;
use crate::games::othello::bitboard;

/// A copy of the search: its move generator and flips, and its entry
/// points, each [`SolveThread`]'s function of the same name plus `_body`,
/// compiled for this copy's CPU.
///
/// # Safety
///
/// The entry points may only be called where [`Kernel::available`] holds.
/// [`SolveThread::new`] checks it, so a solver of this kernel proves it.
pub(super) trait Kernel: Sized {
    /// Whether this CPU runs this copy.
    fn available() -> bool;
    /// The squares where the owner of `p` may play against `o`.
    fn moves(p: u64, o: u64) -> u64;
    /// The discs of `o` that a move of `p`'s owner on `sq` flips.
    fn flips(p: u64, o: u64, sq: usize) -> u64;

    unsafe fn root(s: &mut SolveThread<'_, '_, Self>, p: u64, o: u64) -> Option<(u8, i32)>;
    unsafe fn root_every(s: &mut SolveThread<'_, '_, Self>, p: u64, o: u64) -> Option<Vec<(u8, i32)>>;
    unsafe fn search(s: &mut SolveThread<'_, '_, Self>, p: u64, o: u64, mob: u64, alpha: i32, beta: i32, n: u32) -> i32;
    #[allow(clippy::too_many_arguments)]
    unsafe fn shallow(s: &mut SolveThread<'_, '_, Self>, p: u64, o: u64, mob: u64, alpha: i32, beta: i32, n: u32, parity: u8) -> i32;
    unsafe fn eval_search(s: &SolveThread<'_, '_, Self>, p: u64, o: u64, mob: u64, depth: u32, alpha: i32, beta: i32) -> i32;
    unsafe fn last_n(s: &mut SolveThread<'_, '_, Self>, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32;
    #[allow(clippy::too_many_arguments)]
    unsafe fn last2(s: &mut SolveThread<'_, '_, Self>, p: u64, o: u64, alpha: i32, beta: i32, a: u8, b: u8, passed: bool) -> i32;
    unsafe fn last3(s: &mut SolveThread<'_, '_, Self>, p: u64, o: u64, alpha: i32, beta: i32, sq: [u8; 3], passed: bool) -> i32;
    unsafe fn last4(s: &mut SolveThread<'_, '_, Self>, p: u64, o: u64, alpha: i32, beta: i32, sq: [u8; 4], passed: bool) -> i32;
    unsafe fn helper(shared: &SolveShared);
    /// Also: `job` as [`SolveThread::join`] asks.
    unsafe fn join(shared: &SolveShared, job: *const Job);
}

/// The portable copy.
pub(super) struct Portable;

/// The copy for AVX2 CPUs.
#[cfg(target_arch = "x86_64")]
pub(super) struct Avx2;

/// Each entry point of a kernel: its solver's function of that name plus
/// `_body`, compiled with the kernel's `$features`, if any.
macro_rules! entry_points {
    ($(#[$features:meta])*) => {
        $(#[$features])*
        unsafe fn root(s: &mut SolveThread<'_, '_, Self>, p: u64, o: u64) -> Option<(u8, i32)> {
            s.root_body(p, o)
        }

        $(#[$features])*
        unsafe fn root_every(
            s: &mut SolveThread<'_, '_, Self>,
            p: u64,
            o: u64,
        ) -> Option<Vec<(u8, i32)>> {
            s.root_every_body(p, o)
        }

        $(#[$features])*
        unsafe fn search(
            s: &mut SolveThread<'_, '_, Self>,
            p: u64,
            o: u64,
            mob: u64,
            alpha: i32,
            beta: i32,
            n: u32,
        ) -> i32 {
            s.search_body(p, o, mob, alpha, beta, n)
        }

        $(#[$features])*
        unsafe fn shallow(
            s: &mut SolveThread<'_, '_, Self>,
            p: u64,
            o: u64,
            mob: u64,
            alpha: i32,
            beta: i32,
            n: u32,
            parity: u8,
        ) -> i32 {
            s.shallow_body(p, o, mob, alpha, beta, n, parity)
        }

        $(#[$features])*
        unsafe fn eval_search(
            s: &SolveThread<'_, '_, Self>,
            p: u64,
            o: u64,
            mob: u64,
            depth: u32,
            alpha: i32,
            beta: i32,
        ) -> i32 {
            s.eval_search_body(p, o, mob, depth, alpha, beta)
        }

        $(#[$features])*
        unsafe fn last_n(
            s: &mut SolveThread<'_, '_, Self>,
            p: u64,
            o: u64,
            alpha: i32,
            beta: i32,
            n: u32,
        ) -> i32 {
            s.last_n_body(p, o, alpha, beta, n)
        }

        #[allow(clippy::too_many_arguments)]
        $(#[$features])*
        unsafe fn last2(
            s: &mut SolveThread<'_, '_, Self>,
            p: u64,
            o: u64,
            alpha: i32,
            beta: i32,
            a: u8,
            b: u8,
            passed: bool,
        ) -> i32 {
            s.last2_body(p, o, alpha, beta, a, b, passed)
        }

        $(#[$features])*
        unsafe fn last3(
            s: &mut SolveThread<'_, '_, Self>,
            p: u64,
            o: u64,
            alpha: i32,
            beta: i32,
            sq: [u8; 3],
            passed: bool,
        ) -> i32 {
            s.last3_body(p, o, alpha, beta, sq, passed)
        }

        $(#[$features])*
        unsafe fn last4(
            s: &mut SolveThread<'_, '_, Self>,
            p: u64,
            o: u64,
            alpha: i32,
            beta: i32,
            sq: [u8; 4],
            passed: bool,
        ) -> i32 {
            s.last4_body(p, o, alpha, beta, sq, passed)
        }

        $(#[$features])*
        unsafe fn helper(shared: &SolveShared) {
            SolveThread::<Self>::helper_body(shared)
        }

        $(#[$features])*
        unsafe fn join(shared: &SolveShared, job: *const Job) {
            // SAFETY: the caller's promise, passed on.
            unsafe { SolveThread::<Self>::join_body(shared, job) }
        }
    };
}

impl Kernel for Portable {
    fn available() -> bool {
        true
    }

    #[inline(always)]
    fn moves(p: u64, o: u64) -> u64 {
        bitboard::moves(p, o)
    }

    #[inline(always)]
    fn flips(p: u64, o: u64, sq: usize) -> u64 {
        bitboard::flips(p, o, sq)
    }

    entry_points!();
}

#[cfg(target_arch = "x86_64")]
impl Kernel for Avx2 {
    fn available() -> bool {
        crate::games::othello::avx2::available()
    }

    #[inline(always)]
    fn moves(p: u64, o: u64) -> u64 {
        // SAFETY: called only from the entry points, compiled for the
        // features it needs (and inlined there).
        unsafe { crate::games::othello::avx2::moves(p, o) }
    }

    #[inline(always)]
    fn flips(p: u64, o: u64, sq: usize) -> u64 {
        // SAFETY: as for `moves`.
        unsafe { crate::games::othello::avx2::flips(p, o, sq) }
    }

    entry_points!(#[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]);
}

/// The entry points as the search calls them.
// SAFETY (every block below): `self` is a solver of kernel `K`, which
// `SolveThread::new` makes only where `K::available()` holds.
impl<K: Kernel> SolveThread<'_, '_, K> {
    /// The best move and exact score at the root, `None` if stopped.
    #[inline(always)]
    pub(super) fn root(&mut self, p: u64, o: u64) -> Option<(u8, i32)> {
        unsafe { K::root(self, p, o) }
    }

    /// See [`SolveThread::root_every_body`].
    #[inline(always)]
    pub(super) fn root_every(&mut self, p: u64, o: u64) -> Option<Vec<(u8, i32)>> {
        unsafe { K::root_every(self, p, o) }
    }

    /// See [`SolveThread::search_body`].
    #[inline(always)]
    pub(super) fn search(&mut self, p: u64, o: u64, mob: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        unsafe { K::search(self, p, o, mob, alpha, beta, n) }
    }

    /// See [`SolveThread::shallow_body`].
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn shallow(&mut self, p: u64, o: u64, mob: u64, alpha: i32, beta: i32, n: u32, parity: u8) -> i32 {
        unsafe { K::shallow(self, p, o, mob, alpha, beta, n, parity) }
    }

    /// See [`SolveThread::eval_search_body`].
    #[inline(always)]
    pub(super) fn eval_search(&self, p: u64, o: u64, mob: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        unsafe { K::eval_search(self, p, o, mob, depth, alpha, beta) }
    }

    /// See [`SolveThread::last_n_body`].
    #[inline(always)]
    pub(super) fn last_n(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        unsafe { K::last_n(self, p, o, alpha, beta, n) }
    }

    /// See [`SolveThread::last2_body`].
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn last2(&mut self, p: u64, o: u64, alpha: i32, beta: i32, a: u8, b: u8, passed: bool) -> i32 {
        unsafe { K::last2(self, p, o, alpha, beta, a, b, passed) }
    }

    /// See [`SolveThread::last3_body`].
    #[inline(always)]
    pub(super) fn last3(&mut self, p: u64, o: u64, alpha: i32, beta: i32, sq: [u8; 3], passed: bool) -> i32 {
        unsafe { K::last3(self, p, o, alpha, beta, sq, passed) }
    }

    /// See [`SolveThread::last4_body`].
    #[inline(always)]
    pub(super) fn last4(&mut self, p: u64, o: u64, alpha: i32, beta: i32, sq: [u8; 4], passed: bool) -> i32 {
        unsafe { K::last4(self, p, o, alpha, beta, sq, passed) }
    }
}
