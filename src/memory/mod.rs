//! Memory for the searches' large tables: taken zeroed from the system
//! ([`zeroed`]), shared between threads as atomics ([`atomic_rows`]) and
//! freed off the clock ([`dispose`]).

pub(crate) mod atomic_rows;
pub(crate) mod dispose;
pub(crate) mod zeroed;
