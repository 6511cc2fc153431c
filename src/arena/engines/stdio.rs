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
    for fd in 0..=2 {
        // SAFETY: fcntl(F_GETFD) only asks whether `fd` is open.
        let closed = unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1;
        if !closed {
            continue;
        }
        let flags = if fd == 0 {
            libc::O_RDONLY
        } else {
            libc::O_WRONLY
        };
        // SAFETY: a NUL-terminated path; open(2) returns the lowest free
        // descriptor, which is `fd` itself when the lower ones are open;
        // otherwise dup2 moves it there.
        unsafe {
            let null = libc::open(c"/dev/null".as_ptr(), flags);
            if null >= 0 && null != fd {
                libc::dup2(null, fd);
                libc::close(null);
            }
        }
    }
}
