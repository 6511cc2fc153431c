//! Fuzz target: the fuzzer's bytes as a command stream for the session
//! loop of every game (see `src/lib.rs` for the layout and properties).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = tabula_fuzz::check(data) {
        panic!("protocol property failed: {e}");
    }
});
