//! `tabula match --merge`: records of shards or runs combined into one
//! report (the records' own merging is [`super::record`]'s).

use std::path::PathBuf;

use super::record::{MatchRecord, RecordError};
use super::report::Summary;
use super::stats::Sprt;
use super::{
    ArenaError, MatchArgs, MatchReport, export, interrupt, output, progress, publish, stdio,
};

/// `--merge`: combines record files into one report.
pub(super) fn merge(args: &MatchArgs) -> Result<MatchReport, ArenaError> {
    stdio::ensure_open();
    // A signal removes a merged record or chart being written.
    interrupt::watch();
    // The same file twice would count its games twice.
    let mut seen: Vec<(PathBuf, &PathBuf)> = Vec::new();
    for path in &args.merge {
        let canonical = std::fs::canonicalize(path).map_err(|source| {
            ArenaError::Record(RecordError::Io {
                path: path.clone(),
                source,
            })
        })?;
        if let Some((_, first)) = seen.iter().find(|(c, _)| *c == canonical) {
            return Err(ArenaError::Record(RecordError::Incompatible(format!(
                "{} and {} are the same file: its games would count twice",
                first.display(),
                path.display()
            ))));
        }
        seen.push((canonical, path));
    }
    let records = args
        .merge
        .iter()
        // The one reader of named files: a FIFO or a device is refused
        // before it is opened, a file over the size cap unread.
        .map(|p| MatchRecord::read_or_cancel(p, &|| interrupt::stopping()))
        .collect::<Result<Vec<_>, _>>()?;
    let named: Vec<(&PathBuf, MatchRecord)> = args.merge.iter().zip(records).collect();
    let record_path = args.record.clone().filter(|_| !args.no_record);
    // Every output in one check, before anything is written: none over a
    // record being merged, none over another.
    let exports = export::outputs(&args.export)?;
    let roles: Vec<(&str, &std::path::Path)> =
        [("--record", &record_path), ("--chart", &args.chart)]
            .into_iter()
            .filter_map(|(role, p)| Some((role, p.as_ref()?.as_path())))
            .chain(exports.iter().map(|(role, p)| (role.as_str(), p.as_path())))
            .collect();
    for (_, path) in &roles {
        output::check(path).map_err(ArenaError::Output)?;
    }
    let roles: Vec<(&str, &std::path::Path)> = roles
        .into_iter()
        .chain(args.merge.iter().map(|p| ("a merged record", p.as_path())))
        .collect();
    output::check_distinct(&roles).map_err(ArenaError::Output)?;
    let merged = MatchRecord::merge_files(&named, args.partial)?;
    let rec = merged.record;
    export::check(&args.export, &rec.game)?;
    let sprt = args.sprt.as_ref().map(|w| Sprt::parse(w)).transpose()?;
    let summary = Summary::compute(&rec, sprt);
    let mut text = summary.text(&rec);
    text.push_str(&format!(
        "Merged from: {}\n",
        args.merge
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    for (seed, missing) in &merged.missing {
        text.push_str(&format!("Missing (seed {seed}): {missing}\n"));
    }
    if merged.unchecked {
        text.push_str(
            "Not checked for missing games: a record that does not state its match's extent \
             (version 1, or an opening-suite run from before openings-size)\n",
        );
    }
    // The merged records, and the new one once written, are replaced by
    // nothing written after it.
    let _protected: Vec<output::Protected> =
        args.merge.iter().map(|p| output::protect(p)).collect();
    let mut _record_protected = None;
    if let Some(path) = &record_path {
        rec.write(path)?;
        _record_protected = Some(output::protect(path));
        text.push_str(&format!("Record: {}\n", path.display()));
    }
    let report = MatchReport {
        record: rec,
        summary,
        text,
        record_path,
        stopped_by_sprt: None,
        file_errors: Vec::new(),
        stopped: None,
    };
    let mut report = report;
    if let Err(e) = export::write_exports(&args.export, &report.record) {
        let e = format!("--export: {e}");
        progress::eprint_line(&format!("tabula match: {e}"));
        report.text.push_str(&format!("Export: {e}\n"));
        report.file_errors.push(e);
    }
    Ok(publish(report, args.chart.as_ref(), args.unprinted))
}
