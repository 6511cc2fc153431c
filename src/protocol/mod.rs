//! The protocol: the command grammar ([`command`]), the reader thread
//! ([`input`]) and the session loop ([`session`]). Parsing and formatting
//! only; the engine facade does the work.

pub mod command;
pub mod input;
pub(crate) mod session;

pub use session::{Ending, banner, run};
