//! The runner's output files (record, chart, live chart, engine stderr):
//! what a path may name, and writing a file whole.
//!
//! A path may name a regular file (new or existing), a symbolic link to
//! one (the file it points to is written; the link stays a link), or a
//! character device such as `/dev/null` (written through, never
//! replaced). A directory, a FIFO (opening one for writing waits for a
//! reader, for ever), a socket or a block device is refused, as is a path
//! in a directory that does not exist. Every path is checked before the
//! first game ([`check`]), so a mistake costs nothing.
//!
//! A file written whole ([`write_whole`]) goes to a temporary file beside
//! its target and is renamed over it, so that a reader never sees half of
//! it; the temporary file is removed on every failure, and by
//! [`remove_temporaries`] when a signal ends the runner mid-write.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::file_lock::{LockError, WriteLock};

/// What an output path names, links followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A regular file that does not exist yet, or does: the path to write
    /// (a link's target).
    File(PathBuf),
    /// A character device (`/dev/null`, a terminal): written through.
    Device(PathBuf),
}

/// Why an output path cannot be used.
#[derive(Debug)]
pub struct OutputError {
    /// The path as given.
    pub path: PathBuf,
    /// Why.
    pub reason: String,
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for OutputError {}

/// The most links followed from one path (as the system's own limit).
const MAX_LINKS: usize = 40;

fn error(path: &Path, reason: impl Into<String>) -> OutputError {
    OutputError {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

/// What `path` names, with links followed (a link to a file that does not
/// exist yet names that file).
pub fn resolve(path: &Path) -> Result<Target, OutputError> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let meta = match std::fs::symlink_metadata(&at) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let dir = parent_dir(&at);
                return match std::fs::metadata(&dir) {
                    Ok(m) if m.is_dir() => Ok(Target::File(at)),
                    Ok(_) => Err(error(path, format!("{} is not a directory", dir.display()))),
                    Err(e) => Err(error(path, format!("its directory {}: {e}", dir.display()))),
                };
            }
            Err(e) => return Err(error(path, e.to_string())),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            let link = std::fs::read_link(&at).map_err(|e| error(path, e.to_string()))?;
            at = parent_dir(&at).join(link);
            continue;
        }
        if kind.is_file() {
            return Ok(Target::File(at));
        }
        if kind.is_dir() {
            return Err(error(path, "is a directory"));
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if kind.is_char_device() {
                return Ok(Target::Device(at));
            }
            let what = if kind.is_fifo() {
                "is a FIFO (writing to it would wait for a reader)"
            } else if kind.is_socket() {
                "is a socket"
            } else if kind.is_block_device() {
                "is a block device"
            } else {
                "is not a regular file"
            };
            return Err(error(
                path,
                format!("{what}: give a regular file (or a character device such as /dev/null)"),
            ));
        }
        #[cfg(not(unix))]
        return Err(error(path, "is not a regular file"));
    }
    Err(error(path, "too many levels of symbolic links"))
}

/// The directory holding `path` (`.` for a bare name).
fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Checks that `path` can be written, changing nothing that is there: its
/// kind (see [`resolve`]), that an existing file or device opens for
/// writing, or that the directory of a new file takes it.
pub fn check(path: &Path) -> Result<Target, OutputError> {
    let target = resolve(path)?;
    match &target {
        Target::Device(at) => {
            open_device(at).map_err(|e| error(path, e.to_string()))?;
        }
        // An existing file needs only to open for writing (where its
        // directory takes no new file, it is rewritten in place).
        Target::File(at) if at.exists() => {
            OpenOptions::new()
                .append(true)
                .open(at)
                .map_err(|e| error(path, e.to_string()))?;
        }
        Target::File(at) => {
            let (tmp, file) = new_temporary(at).map_err(|e| error(path, e.to_string()))?;
            drop(file);
            forget_temporary(&tmp);
        }
    }
    Ok(target)
}

/// Which file an output path writes: its absolute name (links followed,
/// its directory canonicalised) and, for a file that exists, its device
/// and inode (so that a hard link or a name through another mount is
/// the same file too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The absolute name of the file written.
    pub name: PathBuf,
    /// `(device, inode)` of an existing file.
    pub node: Option<(u64, u64)>,
}

impl Identity {
    /// Whether two outputs write the same file.
    pub fn same(&self, other: &Identity) -> bool {
        self.name == other.name || (self.node.is_some() && self.node == other.node)
    }
}

/// The `(device, inode)` of a file, where the system has them.
fn node_of(meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
    }
}

/// The file `path` writes (see [`Identity`]); `None` for a device
/// (`/dev/null` may take them all) or a path that cannot be written.
pub fn identity(path: &Path) -> Option<Identity> {
    match resolve(path).ok()? {
        Target::Device(_) => None,
        Target::File(at) => {
            let dir = std::fs::canonicalize(parent_dir(&at)).ok()?;
            let name = dir.join(at.file_name()?);
            let node = std::fs::metadata(&name).ok().as_ref().and_then(node_of);
            Some(Identity { name, node })
        }
    }
}

/// Refuses two outputs of different roles that are one file (a chart or
/// an export written over the record, an engine's stderr into it):
/// `outputs` are `(role, path)`; paths of one role may share a file
/// (engines sharing one stderr log, a chart and the live chart's last
/// picture). Files are compared by [`identity`]: through links, relative
/// names and hard links.
pub fn check_distinct(outputs: &[(&str, &Path)]) -> Result<(), OutputError> {
    let ids: Vec<Option<Identity>> = outputs.iter().map(|(_, p)| identity(p)).collect();
    for (i, (role, path)) in outputs.iter().enumerate() {
        for (j, (other, other_path)) in outputs.iter().enumerate().take(i) {
            if let (Some(a), Some(b)) = (&ids[i], &ids[j])
                && role != other
                && a.same(b)
            {
                return Err(error(
                    path,
                    format!(
                        "{role} and {other} ({}) name the same file: one would overwrite the \
                         other; give each output a file of its own",
                        other_path.display()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Checks every output path of a run or a merge at once, before anything
/// is written: each can be written ([`check`]) and no two of different
/// roles are one file ([`check_distinct`]).
pub fn check_all(outputs: &[(&str, &Path)]) -> Result<(), OutputError> {
    for (_, path) in outputs {
        check(path)?;
    }
    check_distinct(outputs)
}

/// Locks every output file of a run or a merge for as long as the locks
/// live (one writer per file, see [`crate::file_lock`]): a file that
/// another run is writing is refused, naming its process. A lock left by
/// a killed run is taken over, and said on stderr. A device is not locked
/// (it takes every output), nor a file whose directory takes no lock file
/// (said on stderr).
pub fn lock_all(outputs: &[(&str, &Path)]) -> Result<Vec<WriteLock>, OutputError> {
    let mut locks: Vec<(PathBuf, WriteLock)> = Vec::new();
    for (role, path) in outputs {
        let Some(id) = identity(path) else {
            continue;
        };
        // Paths of one role may share a file (checked already): locked
        // once.
        if locks.iter().any(|(name, _)| *name == id.name) {
            continue;
        }
        match WriteLock::beside(&id.name) {
            Ok(lock) => {
                if let Some(note) = lock.took_over_note(path) {
                    crate::arena::ground::progress::eprint_line(&format!("tabula match: {note}"));
                }
                locks.push((id.name, lock));
            }
            // Held by this run already (an export named as the default
            // record, found out when written).
            Err(LockError::Held {
                holder: Some(pid), ..
            }) if pid == std::process::id() => {}
            Err(e @ LockError::Held { .. }) => {
                return Err(error(path, format!("({role}) {e}")));
            }
            Err(e @ LockError::Io { .. }) => {
                crate::arena::ground::progress::eprint_line(&format!(
                    "tabula match: {} ({role}): not locked against a second writer: {e}",
                    path.display()
                ));
            }
        }
    }
    Ok(locks.into_iter().map(|(_, lock)| lock).collect())
}

/// Files that nothing written whole may replace while they are listed:
/// the record of the match under way (an export, a chart or the live
/// chart that names it is refused at the time of writing too, whatever
/// the checks before the first game could know).
static PROTECTED: Mutex<Vec<(u64, Identity)>> = Mutex::new(Vec::new());

/// Keeps a file from being replaced by [`write_whole`] while it lives.
#[derive(Debug)]
pub struct Protected(Option<u64>);

/// Protects the file `path` writes (a record) from [`write_whole`] until
/// the guard is dropped; a device is not protected (it takes every
/// output).
pub fn protect(path: &Path) -> Protected {
    let Some(id) = identity(path) else {
        return Protected(None);
    };
    let key = SERIAL.fetch_add(1, Ordering::Relaxed);
    PROTECTED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((key, id));
    Protected(Some(key))
}

impl Drop for Protected {
    fn drop(&mut self) {
        if let Some(key) = self.0 {
            PROTECTED
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .retain(|(k, _)| *k != key);
        }
    }
}

/// Refuses to write `path` whole when it is a protected file.
fn refuse_protected(path: &Path) -> Result<(), OutputError> {
    let Some(id) = identity(path) else {
        return Ok(());
    };
    let list = PROTECTED.lock().unwrap_or_else(|e| e.into_inner());
    match list.iter().find(|(_, p)| p.same(&id)) {
        Some((_, p)) => Err(error(
            path,
            format!(
                "is the match record {}: not replaced (give the output a file of its own)",
                p.name.display()
            ),
        )),
        None => Ok(()),
    }
}

/// Opens a character device for writing, without waiting on it.
fn open_device(at: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(at)
}

/// Opens `path` to be written from its start (a record): the file a link
/// points to, truncated, or a device written through.
pub fn create(path: &Path) -> Result<File, OutputError> {
    match resolve(path)? {
        Target::Device(at) => open_device(&at),
        Target::File(at) => File::create(at),
    }
    .map_err(|e| error(path, e.to_string()))
}

/// Temporary files being written now (removed if a signal ends the runner).
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

static SERIAL: AtomicU64 = AtomicU64::new(1);

/// A new temporary file beside `target` (hidden, named after it, this
/// process and a serial number, so that two runners writing one chart do
/// not share one), listed in [`TEMPORARIES`].
fn new_temporary(target: &Path) -> std::io::Result<(PathBuf, File)> {
    let name = target
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let tmp = parent_dir(target).join(format!(
        ".{name}.{}-{}.tmp",
        std::process::id(),
        SERIAL.fetch_add(1, Ordering::Relaxed)
    ));
    let file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
    TEMPORARIES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(tmp.clone());
    Ok((tmp, file))
}

/// Removes a temporary file and takes it off the list.
fn forget_temporary(tmp: &Path) {
    let _ = std::fs::remove_file(tmp);
    TEMPORARIES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|t| t != tmp);
}

/// Removes every temporary file being written (the runner is ending).
pub fn remove_temporaries() {
    if let Ok(list) = TEMPORARIES.try_lock() {
        for tmp in list.iter() {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// Writes `bytes` as the whole of `path`: a regular file is replaced at
/// once (a temporary file renamed over it, keeping its permissions; a file
/// with other hard links, or in a directory that takes no new file, is
/// rewritten in place), a device is written through. A file protected by
/// [`protect`] (the match record) is refused.
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    write_whole_with(path, &mut |w| w.write_all(bytes))
}

/// [`write_whole`] of what `fill` writes, through a buffer (a merged
/// record is written piece by piece, never whole in memory).
pub fn write_whole_with(
    path: &Path,
    fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), OutputError> {
    // Buffered, then flushed: every failure is the write's.
    let mut fill_file = |file: &mut File| -> std::io::Result<()> {
        let mut buffered = std::io::BufWriter::new(file);
        fill(&mut buffered)?;
        buffered.flush()
    };
    refuse_protected(path)?;
    let at = match resolve(path)? {
        Target::Device(at) => {
            return open_device(&at)
                .and_then(|mut f| fill_file(&mut f))
                .map_err(|e| error(path, e.to_string()));
        }
        Target::File(at) => at,
    };
    let existing = std::fs::metadata(&at).ok();
    #[cfg(unix)]
    if let Some(meta) = &existing {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return File::create(&at)
                .and_then(|mut f| fill_file(&mut f))
                .map_err(|e| error(path, e.to_string()));
        }
    }
    let (tmp, mut file) = match new_temporary(&at) {
        Ok(made) => made,
        // A directory that takes no new file: an existing file is
        // rewritten in place instead.
        Err(_) if existing.is_some() => {
            return File::create(&at)
                .and_then(|mut f| fill_file(&mut f))
                .map_err(|e| error(path, e.to_string()));
        }
        Err(e) => return Err(error(path, e.to_string())),
    };
    let written = fill_file(&mut file)
        .and_then(|()| match &existing {
            Some(meta) => file.set_permissions(meta.permissions()),
            None => Ok(()),
        })
        .and_then(|()| {
            drop(file);
            std::fs::rename(&tmp, &at)
        });
    match written {
        Ok(()) => {
            TEMPORARIES
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .retain(|t| t != &tmp);
            Ok(())
        }
        Err(e) => {
            forget_temporary(&tmp);
            Err(error(path, e.to_string()))
        }
    }
}

/// A record path not taken yet: `stem.txt`, else `stem-2.txt`,
/// `stem-3.txt`... (the default record name never replaces an earlier
/// record of the same seed), created empty.
pub fn create_new_numbered(stem: &str) -> Result<(PathBuf, File), OutputError> {
    let mut n = 1u32;
    loop {
        let path = if n == 1 {
            PathBuf::from(format!("{stem}.txt"))
        } else {
            PathBuf::from(format!("{stem}-{n}.txt"))
        };
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((path, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 10_000 => n += 1,
            Err(e) => return Err(error(&path, e.to_string())),
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tabula-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn links_are_followed_and_loops_refused() {
        let dir = scratch("links");
        let (a, b) = (dir.join("a"), dir.join("b"));
        std::os::unix::fs::symlink("b", &a).unwrap();
        std::os::unix::fs::symlink("target.svg", &b).unwrap();
        // A chain ending at a file not written yet names that file.
        assert_eq!(resolve(&a).unwrap(), Target::File(dir.join("target.svg")));
        write_whole(&a, b"one").unwrap();
        write_whole(&a, b"two").unwrap();
        assert_eq!(std::fs::read(dir.join("target.svg")).unwrap(), b"two");
        assert!(
            std::fs::symlink_metadata(&a)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        let (x, y) = (dir.join("x"), dir.join("y"));
        std::os::unix::fs::symlink("y", &x).unwrap();
        std::os::unix::fs::symlink("x", &y).unwrap();
        assert!(resolve(&x).unwrap_err().reason.contains("symbolic links"));
        assert_eq!(
            resolve(Path::new("/dev/null")).unwrap(),
            Target::Device("/dev/null".into())
        );
        assert!(check(&dir.join("no/such/dir/f.svg")).is_err());
        // Nothing temporary is left.
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.contains(".tmp")), "{names:?}");
    }

    #[test]
    fn hard_links_see_the_new_content() {
        let dir = scratch("hard");
        let (a, b) = (dir.join("a.svg"), dir.join("b.svg"));
        std::fs::write(&a, "old").unwrap();
        std::fs::hard_link(&a, &b).unwrap();
        write_whole(&a, b"new").unwrap();
        assert_eq!(std::fs::read(&b).unwrap(), b"new");
    }
}
