//! The protocols: the command grammar ([`command`]), the reader thread
//! ([`input`]), the hub every dialect is served from ([`serve`]: the
//! serving loop, the output, what the dialects share), and the dialects
//! themselves, each a leaf that imports the hub: GTP (`session`, with
//! its hyphenated extensions [`gogui`] and [`kgs`]), NBoard ([`nboard`])
//! and UGI ([`ugi`]). Parsing and formatting only; the engine facade does
//! the work.
//!
//! Imports inside this folder run one way: the entry below picks the
//! dialect; a dialect imports the hub and the shared parts; the hub
//! imports the reader and [`dialect`]; nothing imports this file.

pub mod command;
pub mod dialect;
pub mod error;
pub mod gogui;
pub mod info;
pub mod input;
mod kept_game;
pub mod kgs;
pub mod nboard;
pub mod serve;
pub(crate) mod session;
pub mod ugi;

use std::io::{BufRead, Write};

use crate::engine::Engine;

pub use dialect::Protocol;
pub use error::ProtocolError;
pub use serve::SessionEnd;
pub use session::banner;

/// Runs a session over `input` and `output` until `quit`, the end of the
/// input, or a closed output.
pub fn run<R, W>(input: R, output: W, engine: Engine) -> SessionEnd
where
    R: BufRead + Send + 'static,
    W: Write + Send,
{
    run_protocol(input, output, engine, Protocol::Gtp)
}

/// [`run`] in `protocol` from the first line (`--protocol`); a GTP
/// session whose first line enters another protocol (`nboard 2`, `ugi`)
/// is served in that one.
pub fn run_protocol<R, W>(input: R, output: W, engine: Engine, protocol: Protocol) -> SessionEnd
where
    R: BufRead + Send + 'static,
    W: Write + Send,
{
    let mut hub = serve::Hub::start(input, output, protocol);
    match hub.protocol() {
        Protocol::Nboard => nboard::serve(&mut hub, engine),
        Protocol::Ugi => ugi::serve(&mut hub, engine),
        Protocol::Gtp => session::serve(&mut hub, engine),
    }
}
