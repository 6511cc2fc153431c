//! The Othello lab: the tools that make the game's knowledge, above the
//! searches they use. `tabula train-othello` fits the pattern evaluation
//! ([`othello_train`]); `tabula calibrate-probcut` measures ProbCut's
//! regressions ([`probcut_calibration`]); `tabula book-othello` makes the
//! opening book ([`othello_book`]). The game holds only what they
//! produce (the weights, the ProbCut table), so it never knows a search.

pub mod othello_book;
pub mod othello_label;
pub mod othello_train;
pub mod probcut_calibration;
pub mod wthor;

/// The arguments every lab tool takes: its workers and its seed.
#[derive(clap::Args, Debug, Clone)]
pub struct Workers {
    /// Worker threads (at most the cores).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Allow --threads above the cores this process may use (up to 256).
    #[arg(long)]
    pub force_threads: bool,
    /// Seed of the self-play games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl Workers {
    /// The threads, checked against the cores (`--force-threads` aside).
    pub fn checked_threads(&self) -> Result<usize, crate::tools::args::ArgError> {
        crate::tools::args::threads("--threads", self.threads, self.force_threads)
    }
}

/// A training data file (`train-othello`'s `positions.bin`,
/// `label-othello`'s `labels.bin`), read through the one reader of files
/// a person names: a FIFO, a device or a link to one is refused without
/// being opened, and a file over 16 GiB without being read.
pub const TRAINING_DATA: crate::files::input::Kind = crate::files::input::Kind {
    what: "training data file",
    max_len: 16 << 30,
    magic: b"",
    within: None,
    refuse_own_streams: true,
};

/// Reads a training data file through the one reader; a file that does
/// not exist yet (a first run) reads as empty.
pub fn read_data(file: &std::path::Path) -> Result<Vec<u8>, crate::files::input::PeerFileError> {
    if let Err(e) = std::fs::symlink_metadata(file)
        && e.kind() == std::io::ErrorKind::NotFound
    {
        return Ok(Vec::new());
    }
    crate::files::input::read_kind(file, &TRAINING_DATA, &crate::files::input::never)
}
