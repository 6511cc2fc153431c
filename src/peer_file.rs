//! Reading a file the engine opens on a peer's word (`set eval PATH`): a name that could hang or swamp the engine is refused
//! before anything is read.
//!
//! Only a regular file is read: a FIFO, a device (`/dev/zero`), a socket
//! or a directory is refused from its metadata, without opening it (opening
//! a FIFO blocks, opening a device may act on it), and again from the
//! opened file's own metadata (the name may have changed in between). A
//! file that is one of the engine's standard streams (`/dev/stdin` when
//! the input is redirected from a file) is refused: reading it would eat
//! the protocol input. The file is opened non-blocking, its first bytes
//! must be the format's magic before any more is read, and the read stops
//! at the largest size the format allows. The whole read runs on a helper
//! thread and is given up after [`READ_WITHIN`] (a hung network file
//! system), so the command always answers and `stop` and the end of the
//! input are acted on after it.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// How long a read may take before it is given up.
pub const READ_WITHIN: Duration = Duration::from_secs(5);

/// A file that could not be read, and why.
#[derive(Debug)]
pub struct PeerFileError {
    /// The file as named.
    pub path: PathBuf,
    /// Why it was refused.
    pub reason: Refusal,
}

/// Why a file was refused.
#[derive(Debug)]
pub enum Refusal {
    /// Opening, reading or its metadata failed.
    Io(std::io::Error),
    /// Not a regular file: what it is instead.
    NotRegular(&'static str),
    /// One of the engine's own standard streams.
    StandardStream,
    /// Its first bytes are not the format's magic.
    BadMagic,
    /// Larger than the format allows (the most it allows).
    TooLarge(u64),
    /// No answer from the file system in time.
    TimedOut(Duration),
}

impl fmt::Display for PeerFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.reason {
            Refusal::Io(e) => write!(f, "cannot read '{path}': {e}"),
            Refusal::NotRegular(what) => {
                write!(f, "cannot read '{path}': {what}, not a regular file")
            }
            Refusal::StandardStream => {
                write!(
                    f,
                    "cannot read '{path}': it is the engine's own input or output"
                )
            }
            Refusal::BadMagic => write!(f, "'{path}': not a file of the expected kind (bad magic)"),
            Refusal::TooLarge(max) => write!(
                f,
                "'{path}': larger than {max} bytes, the most a file of this kind holds"
            ),
            Refusal::TimedOut(t) => write!(
                f,
                "cannot read '{path}': no answer from the file system in {} s",
                t.as_secs_f64()
            ),
        }
    }
}

impl std::error::Error for PeerFileError {}

/// Reads the regular file `path`, which must start with `magic` and hold
/// at most `max_len` bytes, giving up after `within`.
pub fn read(
    path: &Path,
    magic: &[u8],
    max_len: u64,
    within: Duration,
) -> Result<Vec<u8>, PeerFileError> {
    let error = |reason| PeerFileError {
        path: path.to_path_buf(),
        reason,
    };
    let (tx, rx) = mpsc::channel();
    let (owned, magic) = (path.to_path_buf(), magic.to_vec());
    std::thread::Builder::new()
        .name("peer-file".into())
        .spawn(move || {
            let _ = tx.send(read_now(&owned, &magic, max_len));
        })
        .map_err(|e| error(Refusal::Io(e)))?;
    match rx.recv_timeout(within) {
        Ok(result) => result.map_err(error),
        // A read stuck in the kernel keeps its thread; the engine goes on.
        Err(mpsc::RecvTimeoutError::Timeout) => Err(error(Refusal::TimedOut(within))),
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(error(Refusal::Io(
            std::io::Error::other("the reading thread failed"),
        ))),
    }
}

fn read_now(path: &Path, magic: &[u8], max_len: u64) -> Result<Vec<u8>, Refusal> {
    // Follows symbolic links: what would be opened.
    check(&std::fs::metadata(path).map_err(Refusal::Io)?, max_len)?;
    let file = open_nonblocking(path).map_err(Refusal::Io)?;
    let meta = file.metadata().map_err(Refusal::Io)?;
    check(&meta, max_len)?;
    if is_standard_stream(&meta) {
        return Err(Refusal::StandardStream);
    }
    let mut bytes = Vec::new();
    (&file)
        .take(magic.len() as u64)
        .read_to_end(&mut bytes)
        .map_err(Refusal::Io)?;
    if bytes != magic {
        return Err(Refusal::BadMagic);
    }
    // One byte past the most allowed tells a file that grew too large.
    (&file)
        .take(max_len + 1 - bytes.len() as u64)
        .read_to_end(&mut bytes)
        .map_err(Refusal::Io)?;
    if bytes.len() as u64 > max_len {
        return Err(Refusal::TooLarge(max_len));
    }
    Ok(bytes)
}

/// A regular file of at most `max_len` bytes (by its metadata: files
/// under `/proc` say 0 and are held to the limit by the read).
fn check(meta: &std::fs::Metadata, max_len: u64) -> Result<(), Refusal> {
    let kind = meta.file_type();
    if !kind.is_file() {
        return Err(Refusal::NotRegular(kind_name(&kind)));
    }
    if meta.len() > max_len {
        return Err(Refusal::TooLarge(max_len));
    }
    Ok(())
}

fn kind_name(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// Whether `meta` is the file behind the engine's stdin, stdout or stderr.
#[cfg(unix)]
fn is_standard_stream(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (0..3).any(|fd| {
        std::fs::metadata(format!("/dev/fd/{fd}"))
            .is_ok_and(|s| s.dev() == meta.dev() && s.ino() == meta.ino())
    })
}

#[cfg(not(unix))]
fn is_standard_stream(_meta: &std::fs::Metadata) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> PathBuf {
        let d = std::env::temp_dir().join(format!("tabula-peer-file-{}", std::process::id()));
        std::fs::create_dir_all(&d).expect("temp dir");
        d
    }

    #[test]
    fn a_regular_file_with_its_magic_is_read_whole() {
        let d = dir();
        let p = d.join("ok.bin");
        std::fs::write(&p, b"MAGIC...rest").expect("write");
        assert_eq!(
            read(&p, b"MAGIC", 12, READ_WITHIN).expect("read"),
            b"MAGIC...rest"
        );
        let e = read(&p, b"MAGIC", 11, READ_WITHIN).expect_err("too large");
        assert!(matches!(e.reason, Refusal::TooLarge(11)), "{e}");
        let e = read(&p, b"OTHER", 100, READ_WITHIN).expect_err("magic");
        assert!(matches!(e.reason, Refusal::BadMagic), "{e}");
        std::fs::write(&p, b"MAG").expect("write");
        let e = read(&p, b"MAGIC", 100, READ_WITHIN).expect_err("short");
        assert!(matches!(e.reason, Refusal::BadMagic), "{e}");
        let e = read(&d, b"MAGIC", 100, READ_WITHIN).expect_err("directory");
        assert!(
            matches!(e.reason, Refusal::NotRegular("a directory")),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&d);
    }
}
