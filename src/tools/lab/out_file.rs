//! The files the lab tools write whole (a weight file, a book): checked
//! before any work starts, and replaced only by a complete new file.
//!
//! [`OutFile::check`] refuses a target that is not a regular file (a
//! directory, a FIFO, a device, a socket, a link to one of them or a
//! dangling link) and a folder that does not exist, and proves the folder
//! writable by creating and removing a scratch file in it, all before the
//! tool generates or fits anything. [`OutFile::replace`] writes the new
//! bytes to a scratch file beside the target, flushes them to disk, checks
//! the target again and renames the scratch file over it: a run that
//! stops or fails part way leaves the old file as it was. A link is
//! followed: the file it points to is the one replaced, the link stays.

use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Why an output file cannot be written.
#[derive(Debug)]
pub enum OutError {
    /// The target exists and is not a regular file: what it is.
    NotRegular {
        /// The target as named.
        path: PathBuf,
        /// What it is instead.
        what: &'static str,
    },
    /// The folder it would go in is missing or not a folder.
    NoFolder {
        /// The target as named.
        path: PathBuf,
    },
    /// Creating, writing, flushing or renaming failed.
    Io {
        /// The file the operation was on.
        path: PathBuf,
        /// What was being done.
        doing: &'static str,
        /// The system's error.
        source: std::io::Error,
    },
}

impl fmt::Display for OutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutError::NotRegular { path, what } => write!(
                f,
                "'{}' is {what}, not a regular file: refused (nothing written)",
                path.display()
            ),
            OutError::NoFolder { path } => write!(
                f,
                "'{}': its folder does not exist (nothing written)",
                path.display()
            ),
            OutError::Io {
                path,
                doing,
                source,
            } => write!(f, "cannot {doing} '{}': {source}", path.display()),
        }
    }
}

impl std::error::Error for OutError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OutError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// What a file type is, in words (for refusals).
fn kind(ft: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if ft.is_fifo() {
            return "a FIFO";
        }
        if ft.is_char_device() || ft.is_block_device() {
            return "a device";
        }
        if ft.is_socket() {
            return "a socket";
        }
    }
    if ft.is_dir() {
        "a directory"
    } else if ft.is_symlink() {
        "a link"
    } else {
        "not a plain file"
    }
}

/// A checked output target.
#[derive(Clone, Debug)]
pub struct OutFile {
    /// The target as named.
    named: PathBuf,
    /// The file replaced: the target, or the file its link points to.
    real: PathBuf,
}

impl OutFile {
    /// Checks `path` as an output: absent or a regular file (through
    /// links), in an existing folder that takes a new file. `make_folder`
    /// creates a missing folder first (the data folder a run makes anyway).
    pub fn check(path: &Path, make_folder: bool) -> Result<OutFile, OutError> {
        let real = match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => match std::fs::metadata(path) {
                Ok(target) if target.is_file() => {
                    std::fs::canonicalize(path).map_err(|source| OutError::Io {
                        path: path.to_path_buf(),
                        doing: "follow the link",
                        source,
                    })?
                }
                Ok(target) => {
                    return Err(OutError::NotRegular {
                        path: path.to_path_buf(),
                        what: kind(target.file_type()),
                    });
                }
                Err(_) => {
                    return Err(OutError::NotRegular {
                        path: path.to_path_buf(),
                        what: "a dangling link",
                    });
                }
            },
            Ok(meta) if !meta.is_file() => {
                return Err(OutError::NotRegular {
                    path: path.to_path_buf(),
                    what: kind(meta.file_type()),
                });
            }
            _ => path.to_path_buf(),
        };
        let folder = folder_of(&real);
        if !folder.is_dir() {
            if make_folder && !folder.exists() {
                std::fs::create_dir_all(&folder).map_err(|source| OutError::Io {
                    path: folder.clone(),
                    doing: "create the folder",
                    source,
                })?;
            } else {
                return Err(OutError::NoFolder {
                    path: path.to_path_buf(),
                });
            }
        }
        let out = OutFile {
            named: path.to_path_buf(),
            real,
        };
        // Prove the folder takes a new file now, not after hours of work.
        let probe = out.scratch();
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&probe)
            .map_err(|source| OutError::Io {
                path: probe.clone(),
                doing: "create a file beside",
                source,
            })?;
        let _ = std::fs::remove_file(&probe);
        Ok(out)
    }

    /// The target as named.
    pub fn path(&self) -> &Path {
        &self.named
    }

    /// The scratch file beside the real target.
    fn scratch(&self) -> PathBuf {
        let name = self
            .real
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".into());
        folder_of(&self.real).join(format!(".{name}.tabula-new-{}", std::process::id()))
    }

    /// Writes `bytes` beside the target, flushes them and renames them
    /// over it; on any failure the scratch file is removed and the old
    /// file is left as it was.
    pub fn replace(&self, bytes: &[u8]) -> Result<(), OutError> {
        let scratch = self.scratch();
        let result = (|| {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&scratch)
                .map_err(|source| OutError::Io {
                    path: scratch.clone(),
                    doing: "create",
                    source,
                })?;
            f.write_all(bytes)
                .and_then(|()| f.sync_all())
                .map_err(|source| OutError::Io {
                    path: scratch.clone(),
                    doing: "write",
                    source,
                })?;
            drop(f);
            // The target may have been replaced by something else since
            // the check: only a regular file (or nothing) is replaced.
            if let Ok(meta) = std::fs::symlink_metadata(&self.real)
                && !meta.is_file()
            {
                return Err(OutError::NotRegular {
                    path: self.named.clone(),
                    what: kind(meta.file_type()),
                });
            }
            std::fs::rename(&scratch, &self.real).map_err(|source| OutError::Io {
                path: self.real.clone(),
                doing: "rename the new file onto",
                source,
            })
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&scratch);
        }
        result
    }
}

/// The folder a file is in (`.` for a bare name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tabula-out-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_regular_file_is_replaced_whole_and_no_scratch_file_stays() {
        let dir = scratch_dir("replace");
        let target = dir.join("w.bin");
        std::fs::write(&target, b"old").unwrap();
        let out = OutFile::check(&target, false).unwrap();
        out.replace(b"new and longer").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"new and longer");
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "{names:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn directories_fifos_devices_and_dangling_links_are_refused() {
        let dir = scratch_dir("refuse");
        assert!(matches!(
            OutFile::check(&dir, false),
            Err(OutError::NotRegular { .. })
        ));
        assert!(matches!(
            OutFile::check(Path::new("/dev/null"), false),
            Err(OutError::NotRegular {
                what: "a device",
                ..
            })
        ));
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            assert!(matches!(
                OutFile::check(&fifo, false),
                Err(OutError::NotRegular { what: "a FIFO", .. })
            ));
        }
        let dangling = dir.join("dangling");
        std::os::unix::fs::symlink(dir.join("nowhere"), &dangling).unwrap();
        assert!(OutFile::check(&dangling, false).is_err());
        assert!(matches!(
            OutFile::check(&dir.join("no/such/folder/w.bin"), false),
            Err(OutError::NoFolder { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_regular_file_replaces_the_file_and_keeps_the_link() {
        let dir = scratch_dir("link");
        let real = dir.join("real.bin");
        std::fs::write(&real, b"old").unwrap();
        let link = dir.join("link.bin");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        OutFile::check(&link, false)
            .unwrap()
            .replace(b"new")
            .unwrap();
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
