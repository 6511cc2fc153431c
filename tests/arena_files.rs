//! The match runner's output files: links and devices are written
//! through (never replaced by a plain file), paths that cannot be written
//! are refused before the first game, the live chart is best effort, and
//! no temporary file is left behind.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::{self, fixture, nim_match, scratch, words};
use tabula::arena::{self, ArenaError, MatchReport, referee_for};
use tabula::model::game::Game;
use tabula::model::options::Options;

fn args(dir: &Path, extra: &[&str]) -> Vec<String> {
    let mut w = words(&[
        "--games",
        "4",
        "-j",
        "2",
        "--seed",
        "9",
        "--quiet",
        "--record",
        &dir.join("record.txt").display().to_string(),
    ]);
    w.extend(words(extra));
    for (mode, name) in [("good", "good"), ("weak", "weak")] {
        w.extend(words(&[
            "--engine",
            &format!("cmd={}", fixture("nim_engine.sh", mode)),
            &format!("name={name}"),
        ]));
    }
    w
}

fn try_nim(words: &[String]) -> Result<MatchReport, ArenaError> {
    let opts = Options::parse::<&str>(common::Nim::OPTIONS, &[]).unwrap();
    arena::run_with_referee(
        &common::parse(words),
        referee_for::<common::Nim>(&opts).unwrap(),
    )
}

/// The names in `dir` (and its subdirectories) that look temporary.
fn temporaries(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.contains(".tmp") {
            out.push(name);
        }
        if entry.file_type().unwrap().is_dir() {
            out.extend(temporaries(&entry.path()));
        }
    }
    out
}

fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

#[cfg(unix)]
#[test]
fn charts_through_links_stay_links() {
    let dir = scratch("files-links");
    let out = dir.join("www");
    std::fs::create_dir_all(&out).unwrap();
    // A link to an existing chart, a link to a chart not written yet, and
    // a link to a link.
    std::fs::write(out.join("old.svg"), "old").unwrap();
    let chart = dir.join("chart.svg");
    let live = dir.join("live.svg");
    let record = dir.join("rec-link.txt");
    std::os::unix::fs::symlink(out.join("old.svg"), &chart).unwrap();
    std::os::unix::fs::symlink("www/new.svg", &live).unwrap();
    std::os::unix::fs::symlink(out.join("real-record.txt"), out.join("hop.txt")).unwrap();
    std::os::unix::fs::symlink(out.join("hop.txt"), &record).unwrap();
    let mut a = args(
        &dir,
        &[
            "--chart",
            &chart.display().to_string(),
            "--live",
            &live.display().to_string(),
        ],
    );
    let at = a.iter().position(|w| w == "--record").unwrap();
    a[at + 1] = record.display().to_string();
    let report = nim_match(&a, &[]);
    for link in [&chart, &live, &record] {
        assert!(is_symlink(link), "{} is no longer a link", link.display());
    }
    assert!(
        std::fs::read_to_string(out.join("old.svg"))
            .unwrap()
            .starts_with("<svg")
    );
    assert!(
        std::fs::read_to_string(out.join("new.svg"))
            .unwrap()
            .starts_with("<svg")
    );
    assert!(
        std::fs::read_to_string(out.join("real-record.txt"))
            .unwrap()
            .contains("# game number=4")
    );
    assert_eq!(report.record.games.len(), 4);
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
}

#[cfg(unix)]
#[test]
fn a_device_is_written_through_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch("files-device");
    let before = std::fs::metadata("/dev/null").unwrap();
    assert!(before.file_type().is_char_device());
    let report = nim_match(
        &args(&dir, &["--chart", "/dev/null", "--live", "/dev/null"]),
        &[],
    );
    assert!(report.file_errors.is_empty());
    assert!(report.text.contains("Chart: /dev/null"), "{}", report.text);
    let after = std::fs::metadata("/dev/null").unwrap();
    assert!(
        after.file_type().is_char_device(),
        "/dev/null is a device still"
    );
    use std::os::unix::fs::MetadataExt;
    assert_eq!(before.ino(), after.ino());
}

#[cfg(unix)]
#[test]
fn paths_that_cannot_be_written_are_refused_before_the_first_game() {
    let dir = scratch("files-refused");
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let sub = dir.join("a-directory");
    std::fs::create_dir_all(&sub).unwrap();
    let missing = "/nonexistent/dir/live.svg";
    let mut cases: Vec<(&str, String, &str)> = vec![
        ("--live", missing.to_string(), "/nonexistent/dir"),
        ("--chart", missing.to_string(), "/nonexistent/dir"),
        ("--record", missing.to_string(), "/nonexistent/dir"),
        ("--chart", sub.display().to_string(), "directory"),
        ("--live", sub.display().to_string(), "directory"),
        ("--record", sub.display().to_string(), "directory"),
    ];
    if made {
        for flag in ["--record", "--chart", "--live"] {
            cases.push((flag, fifo.display().to_string(), "FIFO"));
        }
    }
    for (flag, path, says) in cases {
        let mut a = args(&dir, &[]);
        if flag == "--record" {
            let at = a.iter().position(|w| w == "--record").unwrap();
            a[at + 1] = path.clone();
        } else {
            a.extend(words(&[flag, &path]));
        }
        let _ = std::fs::remove_file(dir.join("record.txt"));
        // In a thread: a FIFO opened for writing would block for ever.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(try_nim(&a).map(|r| r.record.games.len()));
        });
        let result = rx
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("{flag} {path}: the runner hangs"));
        let err = result.expect_err(&format!("{flag} {path} is refused"));
        assert!(err.to_string().contains(says), "{flag} {path}: {err}");
        assert!(
            !dir.join("record.txt").exists(),
            "{flag} {path}: a game was started"
        );
    }
    // A FIFO is still a FIFO, the directory still a directory.
    if made {
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    }
    assert!(sub.is_dir());
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
}

/// A live chart whose directory disappears during the match: warned
/// about, tried again, and the match, its report, record and final chart
/// are whole.
#[test]
fn a_failing_live_chart_costs_nothing() {
    let dir = scratch("files-live");
    let gone = dir.join("gone");
    std::fs::create_dir_all(&gone).unwrap();
    let live = gone.join("live.svg");
    let chart = dir.join("chart.svg");
    let mut a = args(
        &dir,
        &[
            "--live",
            &live.display().to_string(),
            "--chart",
            &chart.display().to_string(),
        ],
    );
    // Slow games, so that the directory goes while the match runs.
    let at = a
        .iter()
        .position(|w| w.contains("nim_engine.sh good"))
        .unwrap();
    a[at] = format!("cmd={}", fixture("nim_engine.sh", "pace=0.1"));
    let remover = {
        let gone = gone.clone();
        std::thread::spawn(move || {
            let start = Instant::now();
            while !gone.join("live.svg").exists() && start.elapsed() < Duration::from_secs(10) {
                std::thread::sleep(Duration::from_millis(5));
            }
            std::fs::remove_dir_all(&gone).unwrap();
        })
    };
    let report = try_nim(&a).expect("the match is whole");
    remover.join().unwrap();
    assert_eq!(report.record.games.len(), 4);
    assert!(
        report.text.contains("good vs weak: 4 games"),
        "{}",
        report.text
    );
    assert!(report.file_errors.is_empty(), "{:?}", report.file_errors);
    assert!(std::fs::read_to_string(&chart).unwrap().starts_with("<svg"));
    let record = std::fs::read_to_string(dir.join("record.txt")).unwrap();
    assert!(record.contains("#| good vs weak: 4 games"), "{record}");
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
}

/// A chart that cannot be written at the end (its directory went during
/// the match): the report is printed and in the record all the same, and
/// the run says it failed.
#[test]
fn a_chart_that_fails_at_the_end_costs_no_report() {
    let dir = scratch("files-chart-end");
    let gone = dir.join("gone");
    std::fs::create_dir_all(&gone).unwrap();
    let chart = gone.join("chart.svg");
    let mut a = args(&dir, &["--chart", &chart.display().to_string()]);
    let at = a
        .iter()
        .position(|w| w.contains("nim_engine.sh good"))
        .unwrap();
    a[at] = format!("cmd={}", fixture("nim_engine.sh", "pace=0.1"));
    let remover = {
        let gone = gone.clone();
        let record = dir.join("record.txt");
        std::thread::spawn(move || {
            let start = Instant::now();
            while !record.exists() && start.elapsed() < Duration::from_secs(10) {
                std::thread::sleep(Duration::from_millis(5));
            }
            std::fs::remove_dir_all(&gone).unwrap();
        })
    };
    let report = try_nim(&a).expect("the report is not lost");
    remover.join().unwrap();
    assert_eq!(report.record.games.len(), 4);
    assert_eq!(report.file_errors.len(), 1, "{:?}", report.file_errors);
    assert!(
        report.text.contains("Chart: not written"),
        "{}",
        report.text
    );
    let record = std::fs::read_to_string(dir.join("record.txt")).unwrap();
    assert!(record.contains("#| good vs weak: 4 games"), "{record}");
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
}

/// Without --record, a match never replaces the record of an earlier
/// match of the same seed: it takes the next free name.
#[test]
fn the_default_record_replaces_no_earlier_one() {
    let dir = scratch("files-default");
    let bin = env!("CARGO_BIN_EXE_tabula");
    let run = || {
        let status = std::process::Command::new(bin)
            .args([
                "match",
                "--game",
                "othello",
                "--engine",
                &format!("cmd={bin}"),
                "name=r1",
                "set.search=random",
                "--engine",
                &format!("cmd={bin}"),
                "name=r2",
                "set.search=random",
                "--games",
                "2",
                "--seed",
                "77",
                "--quiet",
            ])
            .current_dir(&dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
    };
    run();
    let first = std::fs::read_to_string(dir.join("tabula-match-77.txt")).unwrap();
    run();
    assert_eq!(
        std::fs::read_to_string(dir.join("tabula-match-77.txt")).unwrap(),
        first,
        "the first record is untouched"
    );
    assert!(dir.join("tabula-match-77-2.txt").exists());
}

/// Two outputs that are one file (by name, by a link or by `./`) are
/// refused before the first game: the chart would overwrite the record, an
/// engine's stderr would write into it, a merge would write over a record
/// it reads.
#[cfg(unix)]
#[test]
fn two_outputs_in_one_file_are_refused() {
    let dir = scratch("files-same");
    let record = dir.join("record.txt");
    let link = dir.join("link.txt");
    std::os::unix::fs::symlink(&record, &link).unwrap();
    let dotted = dir.join(".").join("record.txt");
    for extra in [
        vec!["--chart".to_string(), record.display().to_string()],
        vec!["--live".to_string(), link.display().to_string()],
        vec!["--chart".to_string(), dotted.display().to_string()],
        vec!["--each".to_string(), format!("stderr={}", record.display())],
    ] {
        let _ = std::fs::remove_file(&record);
        let mut a = args(&dir, &[]);
        a.extend(extra.clone());
        let err = try_nim(&a).expect_err("refused");
        assert!(err.to_string().contains("same file"), "{extra:?}: {err}");
        assert!(!record.exists(), "{extra:?}: a game was started");
    }
    // A merge that would write over a record it merges.
    let played = nim_match(&args(&dir, &[]), &[]);
    assert_eq!(played.record.games.len(), 4);
    let before = std::fs::read_to_string(&record).unwrap();
    for flag in ["--record", "--chart"] {
        let err = arena::run(&common::parse(&words(&[
            "--merge",
            &record.display().to_string(),
            flag,
            &link.display().to_string(),
            "--quiet",
        ])))
        .expect_err("refused");
        assert!(err.to_string().contains("same file"), "{flag}: {err}");
    }
    assert_eq!(std::fs::read_to_string(&record).unwrap(), before);
    // Engines may share one stderr log.
    let log = dir.join("engines.log");
    let mut a = args(&dir, &[]);
    a.extend(words(&["--each", &format!("stderr={}", log.display())]));
    assert_eq!(try_nim(&a).unwrap().record.games.len(), 4);
}

/// A device that takes no bytes (`/dev/full`): as the record it is refused
/// before the first game; as the chart the report is whole and the run
/// says the chart failed. A merge never reads a device or a FIFO (which
/// would never end, or never start).
#[cfg(target_os = "linux")]
#[test]
fn devices_that_fail_cost_no_report() {
    let dir = scratch("files-full");
    let mut a = args(&dir, &[]);
    let at = a.iter().position(|w| w == "--record").unwrap();
    a[at + 1] = "/dev/full".to_string();
    let err = try_nim(&a).expect_err("refused");
    assert!(err.to_string().contains("/dev/full"), "{err}");
    let report = try_nim(&args(&dir, &["--chart", "/dev/full"])).expect("the report");
    assert_eq!(report.record.games.len(), 4);
    assert_eq!(report.file_errors.len(), 1);
    assert!(
        report.text.contains("Chart: not written"),
        "{}",
        report.text
    );
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let r = arena::run(&common::parse(&words(&["--merge", "/dev/zero", "--quiet"])));
        let _ = tx.send(r.map(|_| ()).map_err(|e| e.to_string()));
    });
    let err = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("a merge of /dev/zero ends")
        .expect_err("refused");
    assert!(err.contains("not a regular file"), "{err}");
}

/// The default record's name is chosen when the match starts: an export
/// that names that file (not there before the match) is found out when
/// it is written, and refused; the record is whole and the run says why.
#[test]
fn nothing_written_after_the_match_replaces_the_default_record() {
    let dir = scratch("files-default-export");
    let _ = std::fs::remove_file(dir.join("tabula-match-78.txt"));
    let bin = env!("CARGO_BIN_EXE_tabula");
    let out = std::process::Command::new(bin)
        .args([
            "match",
            "--game",
            "othello",
            "--engine",
            &format!("cmd={bin}"),
            "name=r1",
            "set.search=random",
            "--engine",
            &format!("cmd={bin}"),
            "name=r2",
            "set.search=random",
            "--games",
            "2",
            "--seed",
            "78",
            "--quiet",
            "--export",
            "jsonl=tabula-match-78.txt",
        ])
        .current_dir(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is the match record"), "{stdout}\n{stderr}");
    // Said once: `--export: FILE: ...`, not `--export: --export: ...`.
    assert!(
        stderr.contains("tabula match: --export: tabula-match-78.txt: is the match record")
            && !stderr.contains("--export: --export"),
        "{stderr}"
    );
    assert!(
        stdout.contains("Export: --export: tabula-match-78.txt: is the match record")
            && !stdout.contains("--export: --export"),
        "{stdout}"
    );
    let rec = tabula::arena::record::MatchRecord::read(&dir.join("tabula-match-78.txt"))
        .expect("the record is whole");
    assert_eq!(rec.games.len(), 2);
}

/// `tabula match` on two random Othello engines (this binary), writing
/// `record` in `dir`, with `extra` arguments.
fn othello_run(dir: &Path, record: &str, games: &str, seed: &str) -> std::process::Command {
    let bin = env!("CARGO_BIN_EXE_tabula");
    let mut cmd = std::process::Command::new(bin);
    cmd.args(["match", "--game", "othello"])
        .args([
            "--engine",
            &format!("cmd={bin}"),
            "name=r1",
            "set.search=random",
        ])
        .args([
            "--engine",
            &format!("cmd={bin}"),
            "name=r2",
            "set.search=random",
        ])
        .args(["--games", games, "-j", "1", "--seed", seed, "--quiet"])
        .args(["--record", record])
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    cmd
}

/// One writer per file: a second match given the record of a match under
/// way is refused at once, naming the first's process, and the first's
/// record is whole (it reads and merges with nothing missing).
#[cfg(unix)]
#[test]
fn a_second_match_on_one_record_is_refused_at_once() {
    let dir = scratch("files-two-writers");
    let first = othello_run(&dir, "same.txt", "40", "20").spawn().unwrap();
    // The first holds its lock from before its engines start.
    let lock = dir.join(".same.txt.lock");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !lock.exists() {
        assert!(Instant::now() < deadline, "the first run took no lock");
        std::thread::sleep(Duration::from_millis(10));
    }
    let started = Instant::now();
    let second = othello_run(&dir, "same.txt", "40", "21").output().unwrap();
    let took = started.elapsed();
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "{said}");
    assert!(took < common::quiet_bound(1000), "refused after {took:?}");
    assert!(
        said.contains(&format!("is being written by process {}", first.id())),
        "{said}"
    );
    let out = first.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!lock.exists(), "the lock file is removed at the end");
    let rec = tabula::arena::record::MatchRecord::read(&dir.join("same.txt")).unwrap();
    assert_eq!(rec.games.len(), 40);
    assert_eq!(rec.seeds, vec![20]);
    let merged = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["match", "--merge", "same.txt", "--quiet"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        merged.status.success(),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
}

/// A lock left by a killed run (its file holds a process id, the system
/// released its lock) is taken over, and the run says so.
#[cfg(unix)]
#[test]
fn a_dead_runs_lock_is_taken_over_and_said() {
    let dir = scratch("files-stale-lock");
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let pid = gone.id();
    gone.wait().unwrap();
    std::fs::write(dir.join(".stale.txt.lock"), format!("{pid}\n")).unwrap();
    let out = othello_run(&dir, "stale.txt", "2", "5").output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains(&format!("took over the lock of process {pid}")),
        "{said}"
    );
    assert!(!dir.join(".stale.txt.lock").exists());
}
