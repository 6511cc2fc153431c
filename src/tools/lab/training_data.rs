//! The lab's data files (`train-othello`'s `positions.bin`,
//! `label-othello`'s `labels.bin`), read through the one reader of files
//! a person names.

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
