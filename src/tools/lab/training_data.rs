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

/// Opens a data file (made if missing) to append to after its first
/// `good` bytes: a partly written last record is cut off, so that a
/// rerun continues after the last complete one. The error names the step
/// that failed (`open`, `resume`).
pub fn open_to_resume(
    file: &std::path::Path,
    good: u64,
) -> Result<std::fs::File, (&'static str, std::io::Error)> {
    use std::io::Seek as _;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(file)
        .map_err(|e| ("open", e))?;
    f.set_len(good)
        .and_then(|()| f.seek(std::io::SeekFrom::End(0)).map(|_| ()))
        .map_err(|e| ("resume", e))?;
    Ok(f)
}

/// Another run writes into a tool's folder, or it could not be locked.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct FolderLocked {
    /// The folder.
    pub path: std::path::PathBuf,
    /// Who holds it, or why it could not be locked.
    pub source: crate::files::lock::LockError,
}

/// Takes the one writer's lock of `dir` for the tool `tool`: a second
/// run into the folder is refused at once. A lock taken over from a run
/// that died is said on stderr.
pub fn lock_folder(
    dir: &std::path::Path,
    tool: &str,
) -> Result<crate::files::lock::WriteLock, FolderLocked> {
    let lock = crate::files::lock::WriteLock::inside(dir).map_err(|source| FolderLocked {
        path: dir.to_path_buf(),
        source,
    })?;
    if let Some(note) = lock.took_over_note(dir) {
        eprintln!("{tool}: {note}");
    }
    Ok(lock)
}
