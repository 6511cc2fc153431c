//! One writer per file: an exclusive lock that a run holds on what it
//! writes (a match record, a chart, an export, a trainer's data folder)
//! for as long as it runs, so that a second run given the same file is
//! refused at once instead of interleaving its writes with the first's.
//!
//! The lock is a small file of its own beside what it guards
//! ([`WriteLock::beside`]: `.NAME.lock` in the file's directory) or inside
//! it ([`WriteLock::inside`]: `.tabula.lock` in a folder), holding the
//! holder's process id, and locked with the system's `flock`. A lock file
//! of its own, not the guarded file, because outputs are replaced by
//! renaming a new file over them, which a lock on the file itself would
//! not survive.
//!
//! The system releases a `flock` when its holder ends, however it ends,
//! so a lock is never left held by a dead process. A holder that ends
//! cleanly removes its lock file; one killed (`kill -9`, a crash) leaves
//! it with its process id, and the next run takes the lock over and says
//! so ([`WriteLock::took_over`]).
//!
//! On systems without `flock` the lock is not taken (a lock that always
//! succeeds): one writer per file is then the user's care.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// The name of the lock file [`WriteLock::inside`] makes in a folder.
pub const FOLDER_LOCK: &str = ".tabula.lock";

/// Why a lock could not be taken.
#[derive(Debug)]
pub enum LockError {
    /// Another process holds it.
    Held {
        /// The lock file.
        lock: PathBuf,
        /// The holder's process id, when its lock file says.
        holder: Option<u32>,
    },
    /// The lock file could not be made or locked.
    Io {
        /// The lock file.
        lock: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
}

impl fmt::Display for LockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LockError::Held { lock, holder } => {
                match holder {
                    Some(pid) => write!(f, "is being written by process {pid}")?,
                    None => f.write_str("is being written by another process")?,
                }
                write!(
                    f,
                    " (it holds {}): a second writer would mix its writes with the first's; \
                     wait for it to end, or give another file",
                    lock.display()
                )
            }
            LockError::Io { lock, source } => {
                write!(
                    f,
                    "its lock file {} cannot be taken: {source}",
                    lock.display()
                )
            }
        }
    }
}

impl std::error::Error for LockError {}

/// An exclusive lock on a file or folder, held until dropped (and by the
/// system until the process ends).
#[derive(Debug)]
pub struct WriteLock {
    lock: PathBuf,
    file: File,
    took_over: Option<u32>,
}

impl WriteLock {
    /// Locks the file `target` (which need not exist yet) through
    /// `.NAME.lock` in its directory. Several names of one file (links)
    /// share a lock only when they are the same name in the same directory:
    /// give the path a link points to.
    pub fn beside(target: &Path) -> Result<WriteLock, LockError> {
        let name = target
            .file_name()
            .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
        let dir = match target.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        WriteLock::at(&dir.join(format!(".{name}.lock")))
    }

    /// Locks the folder `dir` (which must exist) through
    /// [`FOLDER_LOCK`] inside it.
    pub fn inside(dir: &Path) -> Result<WriteLock, LockError> {
        WriteLock::at(&dir.join(FOLDER_LOCK))
    }

    /// Locks through the lock file `lock`, made if it does not exist.
    pub fn at(lock: &Path) -> Result<WriteLock, LockError> {
        let io = |source| LockError::Io {
            lock: lock.to_path_buf(),
            source,
        };
        // A holder ending removes its lock file between our opening it and
        // locking it: the lock taken is then of a removed file, and the
        // open is tried again on the new one.
        for _ in 0..16 {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(lock)
                .map_err(io)?;
            if !try_lock(&file).map_err(io)? {
                return Err(LockError::Held {
                    lock: lock.to_path_buf(),
                    holder: read_pid(&mut file),
                });
            }
            if !same_file(&file, lock) {
                continue;
            }
            // A process id left in the file is a holder that ended without
            // removing it (killed): its lock is taken over.
            let took_over = read_pid(&mut file).filter(|&pid| pid != std::process::id());
            file.set_len(0)
                .and_then(|()| file.rewind())
                .and_then(|()| writeln!(file, "{}", std::process::id()))
                .and_then(|()| file.flush())
                .map_err(io)?;
            return Ok(WriteLock {
                lock: lock.to_path_buf(),
                file,
                took_over,
            });
        }
        Err(io(std::io::Error::other(
            "its lock file keeps being replaced",
        )))
    }

    /// The process id of a holder that ended without releasing the lock
    /// (killed), whose lock this one took over.
    pub fn took_over(&self) -> Option<u32> {
        self.took_over
    }

    /// The lock file.
    pub fn lock_path(&self) -> &Path {
        &self.lock
    }

    /// The line that says a lock was taken over from `pid`, for `what`.
    pub fn took_over_note(&self, what: &Path) -> Option<String> {
        self.took_over.map(|pid| {
            format!(
                "{}: took over the lock of process {pid}, which ended without releasing it \
                 (killed?)",
                what.display()
            )
        })
    }
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        // Removed while still held, so that no one takes a lock on the
        // file in between; a waiting opener sees the file gone and opens
        // anew. Then the descriptor closes, releasing the lock.
        if same_file(&self.file, &self.lock) {
            let _ = std::fs::remove_file(&self.lock);
        }
    }
}

/// The process id written in a lock file, if any.
fn read_pid(file: &mut File) -> Option<u32> {
    let mut text = String::new();
    file.rewind().ok()?;
    file.take(32).read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

/// Whether the open `file` is the file `path` names now.
#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_file: &File, path: &Path) -> bool {
    path.exists()
}

/// Takes the exclusive lock without waiting: `Ok(false)` when another
/// holds it.
#[cfg(unix)]
fn try_lock(file: &File) -> std::io::Result<bool> {
    use rustix::fs::{FlockOperation, flock};
    use rustix::io::Errno;
    loop {
        match flock(file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => return Ok(true),
            Err(Errno::WOULDBLOCK) => return Ok(false),
            Err(Errno::INTR) => continue,
            Err(e) => return Err(e.into()),
        }
    }
}

#[cfg(not(unix))]
fn try_lock(_file: &File) -> std::io::Result<bool> {
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tabula-lock-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_second_lock_is_refused_naming_the_holder_and_freed_on_drop() {
        let d = dir("second");
        let target = d.join("record.txt");
        let first = WriteLock::beside(&target).unwrap();
        assert_eq!(first.lock_path(), d.join(".record.txt.lock"));
        assert_eq!(first.took_over(), None);
        // flock locks belong to open file descriptions: a second open in
        // the same process is refused as another process's would be.
        match WriteLock::beside(&target) {
            Err(LockError::Held { holder, .. }) => {
                assert_eq!(holder, Some(std::process::id()))
            }
            other => panic!("{other:?}"),
        }
        let message = WriteLock::beside(&target).unwrap_err().to_string();
        assert!(
            message.contains(&format!("process {}", std::process::id())),
            "{message}"
        );
        drop(first);
        assert!(!d.join(".record.txt.lock").exists());
        let again = WriteLock::beside(&target).unwrap();
        assert_eq!(again.took_over(), None);
    }

    #[test]
    fn a_dead_holders_lock_is_taken_over_and_said() {
        let d = dir("stale");
        // What a killed holder leaves: its lock file with its pid, and no
        // flock (the system released it).
        std::fs::write(d.join(FOLDER_LOCK), "4000000\n").unwrap();
        let lock = WriteLock::inside(&d).unwrap();
        assert_eq!(lock.took_over(), Some(4_000_000));
        let note = lock.took_over_note(&d).unwrap();
        assert!(note.contains("process 4000000"), "{note}");
        let text = std::fs::read_to_string(d.join(FOLDER_LOCK)).unwrap();
        assert_eq!(text.trim(), std::process::id().to_string());
    }
}
