//! The match's charts as files: the live chart (`--live`), rewritten
//! while the match runs, and the writing of any chart whole.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::arena::ground::progress;
use crate::arena::output::chart;
use crate::arena::output::report::Summary;
use crate::arena::record::match_file::MatchRecord;
use crate::arena::stats::sprt::Sprt;
use crate::files::output::{self, OutputError};

/// `--live`: the chart rewritten while the match runs, best effort: a
/// failed write is said (once until a write succeeds again) and tried
/// again later; it never stops the match or costs the report.
pub(crate) struct LiveChart {
    path: PathBuf,
    last: Option<Instant>,
    failing: bool,
}

impl LiveChart {
    /// How often the chart is rewritten, at most.
    const EVERY: Duration = Duration::from_secs(1);

    /// Starts the live chart at `path` with a first picture, so that a
    /// browser has something to reload.
    pub(crate) fn start(
        path: &std::path::Path,
        rec: &MatchRecord,
        sprt: Option<Sprt>,
        progress: &mut progress::MatchProgress,
    ) -> LiveChart {
        let mut live = LiveChart {
            path: path.to_path_buf(),
            last: None,
            failing: false,
        };
        live.update(rec, sprt, progress);
        live.last = None;
        live
    }

    /// The last picture, which no longer reloads itself (a failure is
    /// said, and costs nothing else).
    pub(crate) fn finish(&self, rec: &MatchRecord, summary: &Summary) {
        if let Err(e) = write_chart(&self.path, rec, summary, false) {
            progress::eprint_line(&format!("tabula match: warning: --live: {e}"));
        }
    }

    pub(crate) fn update(
        &mut self,
        rec: &MatchRecord,
        sprt: Option<Sprt>,
        progress: &mut progress::MatchProgress,
    ) {
        if self.last.is_some_and(|t| t.elapsed() < Self::EVERY) {
            return;
        }
        self.last = Some(Instant::now());
        // Games in the order of their numbers, as the final report has them.
        let mut sorted = rec.clone();
        sorted.games.sort_by_key(|g| g.number);
        let summary = Summary::compute(&sorted, sprt);
        match write_chart(&self.path, &sorted, &summary, true) {
            Err(e) if !self.failing => {
                progress.message(&format!("warning: --live: {e} (tried again every second)"));
                self.failing = true;
            }
            Err(_) => {}
            Ok(()) => {
                if self.failing {
                    progress.message(&format!("--live: {} written again", self.path.display()));
                }
                self.failing = false;
            }
        }
    }
}

/// Writes a chart whole (see [`output::write_whole`]): a browser (or
/// anyone) never reads half a chart, and a link or device stays what it is.
pub(crate) fn write_chart(
    path: &std::path::Path,
    rec: &MatchRecord,
    summary: &Summary,
    live: bool,
) -> Result<(), ChartError> {
    output::write_whole(path, chart::svg_with(rec, summary, live).as_bytes()).map_err(ChartError)
}

/// A chart that could not be written, said as a match's error says an
/// output it cannot write.
#[derive(Debug)]
pub(crate) struct ChartError(OutputError);

impl std::fmt::Display for ChartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write {}", self.0)
    }
}
