//! The record file of a running match, written game by game, and a
//! record written whole (a merge's).

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::arena::ground::interrupt;
use crate::arena::record::match_file::{GameRecord, MatchRecord, RecordError};
use crate::files::output::{self, OutputError};

/// Appends games to the record file as they finish, so that an
/// interrupted match keeps what it played. The file is shared with the
/// signal thread ([`interrupt::on_stop`]): a game is written whole under
/// its lock, and a signal that ends the runner closes the record after the
/// last game written.
pub(crate) struct RecordWriter {
    shared: Option<Arc<Mutex<RecordFile>>>,
    _on_stop: Option<interrupt::StopHookGuard>,
    /// Nothing written whole (an export, a chart) replaces the record
    /// while the match runs and ends.
    _protected: Option<output::Protected>,
    /// The lock of a default record (a named one is the run's).
    _lock: Option<crate::files::lock::WriteLock>,
}

struct RecordFile {
    path: PathBuf,
    file: File,
    /// Games written.
    games: usize,
    /// The first write that failed (said once).
    failed: Option<String>,
    /// Whether the closing lines are written.
    closed: bool,
}

impl RecordWriter {
    pub(crate) fn none() -> RecordWriter {
        RecordWriter {
            shared: None,
            _on_stop: None,
            _protected: None,
            _lock: None,
        }
    }

    /// Opens `path` (checked already), or a new file named after `stem`
    /// that replaces no earlier record, and writes the header.
    pub(crate) fn open(
        path: Option<&PathBuf>,
        stem: &str,
        rec: &MatchRecord,
    ) -> Result<RecordWriter, OpenError> {
        // A named record is locked with the run's other outputs; the
        // default one, new, is locked here (one writer per file).
        let (path, mut file, lock) = match path {
            Some(path) => (
                path.clone(),
                output::create(path).map_err(OpenError::Path)?,
                None,
            ),
            None => {
                let (path, file) = output::create_new_numbered(stem).map_err(OpenError::Path)?;
                let lock = output::lock_all(
                    &[("--record", path.as_path())],
                    &mut crate::arena::ground::progress::tell_lock,
                )
                .map_err(OpenError::Path)?
                .pop();
                (path, file, lock)
            }
        };
        let io = |source| {
            OpenError::Header(RecordError::Io {
                path: path.clone(),
                source,
            })
        };
        let protected = output::protect(&path);
        file.write_all(rec.header_text().as_bytes())
            .and_then(|()| file.write_all(b"\n"))
            .map_err(io)?;
        let shared = Arc::new(Mutex::new(RecordFile {
            path,
            file,
            games: 0,
            failed: None,
            closed: false,
        }));
        let for_signals = Arc::clone(&shared);
        let on_stop = interrupt::on_stop(move |signal| {
            // A game being written is finished first (briefly waited for).
            let deadline = Instant::now() + Duration::from_millis(500);
            loop {
                match for_signals.try_lock() {
                    Ok(mut f) => {
                        let text = format!(
                            "Stopped by {signal} after {} games: the games under way were not \
                             recorded",
                            f.games
                        );
                        f.close(signal, &text);
                        return;
                    }
                    Err(_) if Instant::now() < deadline => {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    Err(_) => return,
                }
            }
        });
        Ok(RecordWriter {
            shared: Some(shared),
            _on_stop: Some(on_stop),
            _protected: Some(protected),
            _lock: lock,
        })
    }

    /// Where the record goes, if anywhere.
    pub(crate) fn path(&self) -> Option<PathBuf> {
        self.shared
            .as_ref()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).path.clone())
    }

    /// Appends a game; returns a warning the first time a write fails.
    pub(crate) fn write_game(&mut self, rec: &MatchRecord, game: &GameRecord) -> Option<String> {
        let shared = self.shared.as_ref()?;
        let mut f = shared.lock().unwrap_or_else(|e| e.into_inner());
        if f.closed {
            return None;
        }
        match f.file.write_all(rec.game_text(game).as_bytes()) {
            Ok(()) => {
                f.games += 1;
                None
            }
            Err(e) if f.failed.is_none() => {
                let said = format!("{}: {e} (at game {})", f.path.display(), game.number);
                f.failed = Some(said.clone());
                Some(format!("warning: cannot write the record {said}"))
            }
            Err(_) => None,
        }
    }

    /// The first write to the record that failed, if one did.
    pub(crate) fn failure(&self) -> Option<String> {
        let shared = self.shared.as_ref()?;
        let f = shared.lock().unwrap_or_else(|e| e.into_inner());
        f.failed.clone()
    }

    /// Closes the record: the `# stopped` line if the match stopped early,
    /// then the report as comments.
    pub(crate) fn finish(&mut self, rec: &MatchRecord, report: &str) {
        if let Some(shared) = &self.shared {
            let mut f = shared.lock().unwrap_or_else(|e| e.into_inner());
            f.close(rec.stopped.as_deref().unwrap_or(""), report);
        }
    }
}

impl RecordFile {
    /// Writes the closing lines once: `# stopped reason=...` (unless
    /// `reason` is empty) and `text` as `#| ` comments.
    fn close(&mut self, reason: &str, text: &str) {
        if self.closed {
            return;
        }
        self.closed = true;
        let mut out = String::new();
        if !reason.is_empty() {
            out.push_str(&MatchRecord::stopped_text(reason, self.games));
        }
        for line in text.lines() {
            out.push_str("#| ");
            out.push_str(line);
            out.push('\n');
        }
        let _ = self
            .file
            .write_all(out.as_bytes())
            .and_then(|()| self.file.flush());
    }
}

/// Why the record file of a match could not be opened: its path refused,
/// or its header not written.
#[derive(Debug)]
pub(crate) enum OpenError {
    /// The path cannot be written.
    Path(OutputError),
    /// The header could not be written.
    Header(RecordError),
}

/// A record written whole: its method is defined here, with the paths it
/// takes, so that the record's own room writes no file.
impl MatchRecord {
    /// Writes the whole file (at once: a reader never sees half of it; see
    /// [`output`] for the paths it takes), piece by piece.
    pub fn write(&self, path: &Path) -> Result<(), RecordError> {
        output::write_whole_with(path, &mut |w| {
            self.put_text(|piece| w.write_all(piece.as_bytes()))
        })
        .map_err(|e| RecordError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::other(e.why.to_string()),
        })
    }
}
