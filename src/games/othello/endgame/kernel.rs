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

/// Every entry point that takes a solver, written once for the trait,
/// the kernels and the solver's calls: its name, its body's name, `[mut]`
/// where it takes the solver mutably, its arguments and its result.
/// Hands the list to `$then`, after `$extra`.
macro_rules! with_solver_entry_points {
    ($then:ident $extra:tt) => {
        $then! { $extra
            root / root_body [mut] (p: u64, o: u64) -> Option<(u8, i32)>;
            root_every / root_every_body [mut] (p: u64, o: u64) -> Option<Vec<(u8, i32)>>;
            search / search_body [mut] (p: u64, o: u64, mob: u64, alpha: i32, beta: i32, n: u32) -> i32;
            shallow / shallow_body [mut]
                (p: u64, o: u64, mob: u64, alpha: i32, beta: i32, n: u32, parity: u8) -> i32;
            eval_search / eval_search_body []
                (p: u64, o: u64, mob: u64, depth: u32, alpha: i32, beta: i32) -> i32;
            last_n / last_n_body [mut] (p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32;
            last2 / last2_body [mut]
                (p: u64, o: u64, alpha: i32, beta: i32, a: u8, b: u8, passed: bool) -> i32;
            last3 / last3_body [mut]
                (p: u64, o: u64, alpha: i32, beta: i32, sq: [u8; 3], passed: bool) -> i32;
            last4 / last4_body [mut]
                (p: u64, o: u64, alpha: i32, beta: i32, sq: [u8; 4], passed: bool) -> i32;
        }
    };
}

/// The trait's declarations of the entry points that take a solver.
macro_rules! declare_entry_points {
    ({} $($name:ident / $body:ident [$($mutable:tt)?] ($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        $(
            #[allow(clippy::too_many_arguments)]
            unsafe fn $name(s: &$($mutable)? SolveThread<'_, '_, Self>, $($arg: $ty),*) -> $ret;
        )*
    };
}

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

    with_solver_entry_points!(declare_entry_points {});
    unsafe fn helper(shared: &SolveShared);
    /// Also: `job` as [`SolveThread::join`] asks.
    unsafe fn join(shared: &SolveShared, job: *const Job);
}

/// The portable copy.
pub(super) struct Portable;

/// The copy for AVX2 CPUs.
#[cfg(target_arch = "x86_64")]
pub(super) struct Avx2;

/// A kernel's entry points that take a solver, each compiled with the
/// kernel's features (`{}`: none).
macro_rules! solver_entry_points {
    ($features:tt $($name:ident / $body:ident [$($mutable:tt)?] ($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        $(solver_entry_point! { $features $name / $body [$($mutable)?] ($($arg: $ty),*) -> $ret })*
    };
}

/// One of [`solver_entry_points`]: the solver's body, compiled with the
/// features.
macro_rules! solver_entry_point {
    (
        {$(#[$features:meta])*}
        $name:ident / $body:ident [$($mutable:tt)?] ($($arg:ident: $ty:ty),*) -> $ret:ty
    ) => {
        #[allow(clippy::too_many_arguments)]
        $(#[$features])*
        unsafe fn $name(s: &$($mutable)? SolveThread<'_, '_, Self>, $($arg: $ty),*) -> $ret {
            s.$body($($arg),*)
        }
    };
}

/// Each entry point of a kernel: its solver's function of that name plus
/// `_body`, compiled with the kernel's `$features`, if any.
macro_rules! entry_points {
    ($(#[$features:meta])*) => {
        with_solver_entry_points!(solver_entry_points { $(#[$features])* });

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

/// The solver's calls of its kernel's entry points, each as the body's
/// name without `_body` (see the body).
macro_rules! solver_calls {
    ({} $($name:ident / $body:ident [$($mutable:tt)?] ($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        $(
            #[doc = concat!("See [`SolveThread::", stringify!($body), "`].")]
            #[allow(clippy::too_many_arguments)]
            #[inline(always)]
            pub(super) fn $name(&$($mutable)? self, $($arg: $ty),*) -> $ret {
                unsafe { K::$name(self, $($arg),*) }
            }
        )*
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
    with_solver_entry_points!(solver_calls {});
}
