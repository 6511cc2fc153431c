//! The one reader of every file a person or a peer names: the engine's
//! settings file (`--config`), weight files (`set eval FILE`, `eval=`),
//! the runner's opening suites (`--openings`) and the records it merges
//! (`--merge`). A name that could hang or swamp the program is refused
//! before anything is read.
//!
//! Only a regular file is read: a FIFO, a device (`/dev/zero`), a socket
//! or a directory is refused from its metadata, without opening it (opening
//! a FIFO blocks, opening a device may act on it), and again from the
//! opened file's own metadata (the name may have changed in between: the
//! file is opened non-blocking, so a FIFO swapped in never blocks). A
//! file larger than its [`Kind`] allows is refused from its metadata
//! without being read, and a file that grows (or a `/proc` file that says
//! 0) is read no further than one byte past the limit. A file that is one
//! of the program's standard streams (`/dev/stdin` when the input is
//! redirected from a file) is refused where the kind says so: reading it
//! would eat the protocol input. A format with a magic has its first
//! bytes checked before any more is read.
//!
//! The read runs on a helper thread: the caller waits for it, gives it up
//! after the kind's time limit (a hung network file system) and whenever
//! its `cancel` check says so (the match runner's Ctrl-C), so that a
//! command always answers and a signal is acted on.
//!
//! [`read_text`] is the entry point for text files, [`read_kind`] for
//! bytes; [`read`] is the older form used by the weight files.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long an engine-side read may take before it is given up.
pub const READ_WITHIN: Duration = Duration::from_secs(5);

/// How often a waiting caller looks at its `cancel` check.
const POLL: Duration = Duration::from_millis(20);

/// A kind of file, and the bounds a file of that kind is read under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kind {
    /// What the file is, for messages (`settings file`).
    pub what: &'static str,
    /// The most bytes a file of this kind may hold.
    pub max_len: u64,
    /// The bytes it must start with (empty: any).
    pub magic: &'static [u8],
    /// How long the read may take, if bounded.
    pub within: Option<Duration>,
    /// Whether a file that is one of this process's standard streams is
    /// refused (an engine's: its protocol input).
    pub refuse_own_streams: bool,
}

/// An engine's settings file (`tabula --config FILE`): 1 MiB, far above
/// any real one.
pub const SETTINGS: Kind = Kind {
    what: "settings file",
    max_len: 1 << 20,
    magic: b"",
    within: Some(READ_WITHIN),
    refuse_own_streams: true,
};

/// An opening suite (`tabula match --openings FILE`): 64 MiB, about a
/// million openings of 60 moves.
pub const OPENINGS: Kind = Kind {
    what: "opening suite",
    max_len: 64 << 20,
    magic: b"",
    within: None,
    refuse_own_streams: false,
};

/// A file of positions (`tabula bench --ffo DIR`'s endgame test file):
/// 64 MiB.
pub const POSITIONS: Kind = Kind {
    what: "position file",
    max_len: 64 << 20,
    magic: b"",
    within: None,
    refuse_own_streams: false,
};

/// A match record (`tabula match --merge`): 1 GiB, the record of some
/// twenty million games of Othello.
pub const RECORD: Kind = Kind {
    what: "match record",
    max_len: 1 << 30,
    magic: b"# tabula-match ",
    within: None,
    refuse_own_streams: false,
};

/// A `cancel` check that never cancels.
pub fn never() -> bool {
    false
}

/// A file that could not be read, and why.
#[derive(Debug)]
pub struct PeerFileError {
    /// The file as named.
    pub path: PathBuf,
    /// What kind of file it was to be (`settings file`).
    pub what: &'static str,
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
    /// The caller gave the read up (Ctrl-C).
    Interrupted,
    /// A text file that is not UTF-8 (the byte offset of the first bad
    /// byte).
    NotText(usize),
}

/// A size in the largest whole unit that says it (`64 MiB`).
fn size_text(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

impl fmt::Display for PeerFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (path, what) = (self.path.display(), self.what);
        match &self.reason {
            Refusal::Io(e) => write!(f, "cannot read the {what} '{path}': {e}"),
            Refusal::NotRegular(kind) => {
                write!(
                    f,
                    "cannot read the {what} '{path}': {kind}, not a regular file"
                )
            }
            Refusal::StandardStream => write!(
                f,
                "cannot read the {what} '{path}': it is the engine's own input or output"
            ),
            Refusal::BadMagic => write!(
                f,
                "'{path}': not a {what} (bad magic: its first bytes are not those of one)"
            ),
            Refusal::TooLarge(max) => write!(
                f,
                "'{path}': larger than {max} bytes ({}), the limit for {what}s: not read",
                size_text(*max)
            ),
            Refusal::TimedOut(t) => write!(
                f,
                "cannot read the {what} '{path}': no answer from the file system in {} s",
                t.as_secs_f64()
            ),
            Refusal::Interrupted => write!(f, "reading the {what} '{path}': interrupted"),
            Refusal::NotText(at) => {
                write!(f, "'{path}': not a text {what} (not UTF-8 at byte {at})")
            }
        }
    }
}

impl std::error::Error for PeerFileError {}

/// Reads the regular weight file `path` (`set eval FILE`), which must
/// start with `magic` and hold at most `max_len` bytes, giving up after
/// `within`; the engine's own standard streams are refused.
pub fn read(
    path: &Path,
    magic: &[u8],
    max_len: u64,
    within: Duration,
) -> Result<Vec<u8>, PeerFileError> {
    read_bounded(
        path,
        "weight file",
        magic,
        max_len,
        Some(within),
        true,
        &never,
    )
}

/// Reads the regular file `path` as a file of `kind`, giving the read up
/// when `cancel` says so (checked every few milliseconds while waiting).
pub fn read_kind(
    path: &Path,
    kind: &Kind,
    cancel: &dyn Fn() -> bool,
) -> Result<Vec<u8>, PeerFileError> {
    read_bounded(
        path,
        kind.what,
        kind.magic,
        kind.max_len,
        kind.within,
        kind.refuse_own_streams,
        cancel,
    )
}

/// Reads the regular text file `path` as a file of `kind` (see
/// [`read_kind`]); it must be UTF-8.
pub fn read_text(
    path: &Path,
    kind: &Kind,
    cancel: &dyn Fn() -> bool,
) -> Result<String, PeerFileError> {
    let bytes = read_kind(path, kind, cancel)?;
    String::from_utf8(bytes).map_err(|e| PeerFileError {
        path: path.to_path_buf(),
        what: kind.what,
        reason: Refusal::NotText(e.utf8_error().valid_up_to()),
    })
}

fn read_bounded(
    path: &Path,
    what: &'static str,
    magic: &[u8],
    max_len: u64,
    within: Option<Duration>,
    refuse_own_streams: bool,
    cancel: &dyn Fn() -> bool,
) -> Result<Vec<u8>, PeerFileError> {
    let error = |reason| PeerFileError {
        path: path.to_path_buf(),
        what,
        reason,
    };
    let (tx, rx) = mpsc::channel();
    let (owned, magic) = (path.to_path_buf(), magic.to_vec());
    std::thread::Builder::new()
        .name("peer-file".into())
        .spawn(move || {
            let _ = tx.send(read_now(&owned, &magic, max_len, refuse_own_streams));
        })
        .map_err(|e| error(Refusal::Io(e)))?;
    let deadline = within.map(|w| Instant::now() + w);
    loop {
        match rx.recv_timeout(POLL) {
            Ok(result) => return result.map_err(error),
            // A read stuck in the kernel keeps its thread; the caller goes on.
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if cancel() {
                    return Err(error(Refusal::Interrupted));
                }
                if let (Some(deadline), Some(within)) = (deadline, within)
                    && Instant::now() >= deadline
                {
                    return Err(error(Refusal::TimedOut(within)));
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(error(Refusal::Io(std::io::Error::other(
                    "the reading thread failed",
                ))));
            }
        }
    }
}

fn read_now(
    path: &Path,
    magic: &[u8],
    max_len: u64,
    refuse_own_streams: bool,
) -> Result<Vec<u8>, Refusal> {
    // Follows symbolic links: what would be opened.
    check(&std::fs::metadata(path).map_err(Refusal::Io)?, max_len)?;
    let file = open_nonblocking(path).map_err(Refusal::Io)?;
    let meta = file.metadata().map_err(Refusal::Io)?;
    check(&meta, max_len)?;
    if refuse_own_streams && is_standard_stream(&meta) {
        return Err(Refusal::StandardStream);
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len().min(max_len)).unwrap_or(0));
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
        .custom_flags((rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY).bits() as i32)
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

    #[cfg(unix)]
    #[test]
    fn a_fifo_a_device_or_a_file_over_the_cap_is_refused_unread() {
        let d = std::env::temp_dir().join(format!("tabula-peer-kinds-{}", std::process::id()));
        std::fs::create_dir_all(&d).expect("dir");
        let fifo = d.join("fifo");
        let _ = std::fs::remove_file(&fifo);
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
        )
        .expect("fifo");
        let start = std::time::Instant::now();
        let e = read_text(&fifo, &SETTINGS, &never).expect_err("fifo");
        assert!(matches!(e.reason, Refusal::NotRegular("a FIFO")), "{e}");
        assert!(start.elapsed() < Duration::from_secs(1));
        let e = read_text(Path::new("/dev/zero"), &OPENINGS, &never).expect_err("device");
        assert!(
            matches!(e.reason, Refusal::NotRegular("a character device")),
            "{e}"
        );
        let big = d.join("big");
        std::fs::File::create(&big)
            .and_then(|f| f.set_len(SETTINGS.max_len + 1))
            .expect("sparse file");
        let e = read_text(&big, &SETTINGS, &never).expect_err("too large");
        assert!(matches!(e.reason, Refusal::TooLarge(_)), "{e}");
        assert!(e.to_string().contains("(1 MiB)"), "{e}");
        std::fs::write(&big, b"# tabula-match 2\n\xff").expect("write");
        let e = read_text(&big, &RECORD, &never).expect_err("not text");
        assert!(matches!(e.reason, Refusal::NotText(17)), "{e}");
        std::fs::write(&big, b"not a record").expect("write");
        let e = read_text(&big, &RECORD, &never).expect_err("magic");
        assert!(matches!(e.reason, Refusal::BadMagic), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }
}
