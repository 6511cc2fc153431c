//! The runner's own standard streams.
//!
//! A runner started with stdin, stdout or stderr closed (`>&-`, a
//! scheduler that gives none) would hand those descriptor numbers to the
//! next file or pipe it opens: an engine's pipe could become "stdout", and
//! the report would be written into an engine. So before anything is
//! opened, a closed standard descriptor is pointed at `/dev/null`. Writes
//! to stdout and stderr elsewhere ignore errors (a closed pipe, as in
//! `tabula match ... | head`), so nothing the streams do ends a match.

/// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed.
pub fn ensure_open() {
    #[cfg(unix)]
    {
        use rustix::fs::{Mode, OFlags};
        use rustix::stdio::{dup2_stderr, dup2_stdin, dup2_stdout};
        use std::os::fd::{AsRawFd, IntoRawFd};
        let streams = [
            (rustix::stdio::stdin(), OFlags::RDONLY),
            (rustix::stdio::stdout(), OFlags::WRONLY),
            (rustix::stdio::stderr(), OFlags::WRONLY),
        ];
        for (stream, flags) in streams {
            // F_GETFD fails only on a closed descriptor.
            if rustix::io::fcntl_getfd(stream).is_ok() {
                continue;
            }
            // Not close-on-exec: the descriptor stands for the stream in
            // the programs the runner starts too.
            let Ok(null) = rustix::fs::open(c"/dev/null", flags, Mode::empty()) else {
                continue;
            };
            let fd = stream.as_raw_fd();
            if null.as_raw_fd() == fd {
                // open(2) took the lowest free descriptor, the stream's own
                // (the lower ones are open): it is kept, not closed.
                let _ = null.into_raw_fd();
                continue;
            }
            // Moved onto the stream's number; `null` itself closes.
            let _ = match fd {
                0 => dup2_stdin(&null),
                1 => dup2_stdout(&null),
                _ => dup2_stderr(&null),
            };
        }
    }
}
