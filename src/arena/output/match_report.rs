//! What a match or a merge produced ([`MatchReport`]), and its end:
//! the chart written and the report printed (`publish`).

use std::io::Write;
use std::path::PathBuf;

use crate::arena::ground::progress;
use crate::arena::output::live::write_chart;
use crate::arena::output::report::Summary;
use crate::arena::record::match_file::{Ending, GameRecord, MatchRecord};
use crate::arena::stats::sprt::SprtDecision;

/// What a match (or a merge) produced.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Every game and who played it.
    pub record: MatchRecord,
    /// The computed statistics.
    pub summary: Summary,
    /// The report as printed.
    pub text: String,
    /// Where the record was written, if it was.
    pub record_path: Option<PathBuf>,
    /// Set when the SPRT stopped the match early.
    pub stopped_by_sprt: Option<SprtDecision>,
    /// Output files that could not be written at the end (a chart), each
    /// said: the report is whole, but the run failed.
    pub file_errors: Vec<String>,
    /// Why the match stopped before its end, other than the SPRT or an
    /// interrupt (an engine's second crash without `--recover`).
    pub stopped: Option<String>,
}

impl MatchReport {
    /// The engines that forfeited every game they played (a match in which
    /// one did exits non-zero: its results say nothing about strength).
    pub fn forfeited_all(&self) -> Vec<String> {
        self.summary
            .engines
            .iter()
            .enumerate()
            .filter(|(i, _)| {
                let mine: Vec<&GameRecord> = self
                    .record
                    .games
                    .iter()
                    .filter(|g| g.seats.contains(i))
                    .collect();
                !mine.is_empty()
                    && mine
                        .iter()
                        .all(|g| matches!(&g.ending, Ending::Forfeit { engine, .. } if engine == i))
            })
            .map(|(_, e)| e.name.clone())
            .collect()
    }
}

/// The end of a run or a merge: writes the chart if one is asked for (and
/// says so in the text, or why it could not), then prints the report text
/// (a closed or broken stdout loses the text, not the match). A chart
/// that cannot be written is in [`MatchReport::file_errors`]: the report
/// is never lost for it. `unprinted`: the caller reads the text itself.
pub(crate) fn publish(
    mut report: MatchReport,
    chart: Option<&PathBuf>,
    unprinted: bool,
) -> MatchReport {
    if let Some(path) = chart {
        match write_chart(path, &report.record, &report.summary, false) {
            Ok(()) => report
                .text
                .push_str(&format!("Chart: {}\n", path.display())),
            Err(e) => {
                progress::eprint_line(&format!("tabula match: {e}"));
                report.text.push_str(&format!("Chart: not written: {e}\n"));
                report.file_errors.push(e.to_string());
            }
        }
    }
    if !unprinted {
        let mut out = std::io::stdout().lock();
        let _ = out
            .write_all(report.text.as_bytes())
            .and_then(|()| out.flush());
    }
    report
}
