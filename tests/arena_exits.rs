//! Every way a match ends leaves no engine behind: SIGTERM, SIGHUP and a
//! second Ctrl-C end every engine process group within a second (engines
//! that ignore those signals and no longer read their input included), and
//! the record is whole up to its last finished game; the first Ctrl-C
//! finishes the games under way and prints the report; an engine that
//! stops reading its input cannot block the runner.
//!
//! These run the `tabula` binary (the signals must reach a process of its
//! own), on Linux, where `/proc` shows which processes are left.
#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{fixture, scratch};
use tabula::arena::engines::process::{EngineProcess, Launch, ProcessError, TOKEN_VAR};
use tabula::arena::record::MatchRecord;

/// The processes whose environment marks them as engines of runner `pid`
/// (zombies, whose environment is gone, are dead and not counted).
fn engines_of(pid: u32) -> Vec<u32> {
    let needle = format!("{TOKEN_VAR}={pid}-");
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| {
            std::fs::read(format!("/proc/{p}/environ")).is_ok_and(|env| {
                env.split(|&b| b == 0)
                    .any(|v| v.starts_with(needle.as_bytes()))
            })
        })
        .collect()
}

/// Whether process `pid` still runs (a zombie does not).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit_once(')')
                .map(|(_, rest)| rest.trim_start().starts_with(['Z', 'X']))
        })
        .is_some_and(|zombie| !zombie)
}

/// Starts `tabula match` in a process group of its own (so that signals
/// sent to it reach it alone), with its output in `dir`.
fn start(dir: &Path, args: &[String]) -> Child {
    use std::os::unix::process::CommandExt;
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .arg("match")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(dir.join("stdout.txt")).unwrap())
        .stderr(std::fs::File::create(dir.join("stderr.txt")).unwrap())
        .process_group(0)
        .spawn()
        .expect("tabula runs")
}

/// Waits for `child` to exit, up to `limit`; its exit code (or the signal
/// number as a negative).
fn wait_for(child: &mut Child, limit: Duration) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(
                status
                    .code()
                    .unwrap_or_else(|| -status.signal().unwrap_or(0)),
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    None
}

fn signal(pid: u32, sig: i32) {
    // SAFETY: kill(2) has no memory-safety preconditions.
    unsafe {
        libc::kill(pid as i32, sig);
    }
}

/// A match of two deaf engines: every game hangs at its first genmove
/// (under a depth budget, waited for up to 1000 s).
fn deaf_match(dir: &Path) -> (Child, PathBuf) {
    let pids = dir.join("pids.txt");
    let engine = fixture("deaf_engine.sh", &pids.display().to_string());
    let args: Vec<String> = [
        "--game",
        "othello",
        "--engine",
        &format!("cmd={engine}"),
        "name=a",
        "--engine",
        &format!("cmd={engine}"),
        "name=b",
        "--games",
        "6",
        "-j",
        "2",
        "--depth",
        "3",
        "--timeout",
        "1000",
        "--seed",
        "3",
        "--record",
        "record.txt",
        "--quiet",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    (start(dir, &args), pids)
}

/// Waits until `n` engines sit in their endless genmove.
fn wait_for_hung(pids: &Path, n: usize) -> Vec<u32> {
    let start = Instant::now();
    loop {
        let listed: Vec<u32> = std::fs::read_to_string(pids)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect();
        if listed.len() >= n {
            return listed;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the engines never reached genmove"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends `signals` (a pause between them) to a match of hung deaf engines
/// and checks: the runner exits with `code`, every engine is gone within
/// a second of the last signal, and the record reads back, closed by a
/// `# stopped` line.
fn ends_every_engine(test: &str, signals: &[i32], code: i32) {
    let dir = scratch(test);
    let (mut child, pids) = deaf_match(&dir);
    let runner = child.id();
    let hung = wait_for_hung(&pids, 2);
    assert!(hung.iter().all(|&p| alive(p)));
    assert!(
        engines_of(runner).len() >= 2,
        "the engines carry their mark"
    );
    for (i, &sig) in signals.iter().enumerate() {
        if i > 0 {
            std::thread::sleep(Duration::from_millis(200));
        }
        signal(runner, sig);
    }
    let sent = Instant::now();
    let status = wait_for(&mut child, Duration::from_secs(5));
    if status.is_none() {
        let _ = child.kill();
    }
    // Every engine gone within a second of the signal.
    let mut left = engines_of(runner);
    while !left.is_empty() && sent.elapsed() < Duration::from_secs(1) {
        std::thread::sleep(Duration::from_millis(10));
        left = engines_of(runner);
    }
    for &p in engines_of(runner).iter().chain(&hung) {
        if alive(p) {
            signal(p, libc::SIGKILL);
        }
    }
    let stderr = std::fs::read_to_string(dir.join("stderr.txt")).unwrap_or_default();
    assert_eq!(status, Some(code), "exit status; stderr:\n{stderr}");
    assert!(left.is_empty(), "engines left running: {left:?}");
    assert!(
        hung.iter().all(|&p| !alive(p)),
        "a hung engine outlived its runner"
    );
    // The record is whole: it reads back, says why it stopped, and holds
    // no game (none finished).
    let rec = MatchRecord::read(&dir.join("record.txt")).expect("the record reads back");
    assert!(rec.games.is_empty());
    assert!(rec.stopped.is_some(), "the record says it stopped");
    let leftovers: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn sigterm_ends_every_engine() {
    ends_every_engine("exit-term", &[libc::SIGTERM], 128 + libc::SIGTERM);
}

#[test]
fn sighup_ends_every_engine() {
    ends_every_engine("exit-hup", &[libc::SIGHUP], 128 + libc::SIGHUP);
}

#[test]
fn sigquit_ends_every_engine() {
    ends_every_engine("exit-quit", &[libc::SIGQUIT], 128 + libc::SIGQUIT);
}

/// A runner killed outright (SIGKILL, the OOM killer) cannot act: its
/// engines get SIGKILL from the kernel.
#[test]
fn a_killed_runner_takes_its_engines_along() {
    let dir = scratch("exit-kill");
    let (mut child, pids) = deaf_match(&dir);
    let hung = wait_for_hung(&pids, 2);
    signal(child.id(), libc::SIGKILL);
    let _ = child.wait();
    let killed = Instant::now();
    while hung.iter().any(|&p| alive(p)) && killed.elapsed() < Duration::from_secs(1) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let left: Vec<u32> = hung.iter().copied().filter(|&p| alive(p)).collect();
    for &p in &left {
        signal(p, libc::SIGKILL);
    }
    assert!(
        left.is_empty(),
        "engines outlived a killed runner: {left:?}"
    );
}

#[test]
fn a_second_ctrl_c_ends_every_engine() {
    ends_every_engine(
        "exit-int2",
        &[libc::SIGINT, libc::SIGINT],
        128 + libc::SIGINT,
    );
}

/// The first Ctrl-C lets the games under way finish, prints the report
/// and closes the record; no engine is left.
#[test]
fn a_first_ctrl_c_finishes_the_games_under_way() {
    let dir = scratch("exit-int1");
    let bin = env!("CARGO_BIN_EXE_tabula");
    let args: Vec<String> = [
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
        "400",
        "-j",
        "2",
        "--seed",
        "4",
        "--record",
        "record.txt",
        "--no-progress",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut child = start(&dir, &args);
    let runner = child.id();
    let record = dir.join("record.txt");
    let start_at = Instant::now();
    while !std::fs::read_to_string(&record)
        .unwrap_or_default()
        .contains("# game ")
    {
        assert!(
            start_at.elapsed() < Duration::from_secs(30),
            "no game ended"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    signal(runner, libc::SIGINT);
    let status = wait_for(&mut child, Duration::from_secs(20));
    if status.is_none() {
        let _ = child.kill();
    }
    assert_eq!(status, Some(0));
    let stdout = std::fs::read_to_string(dir.join("stdout.txt")).unwrap();
    assert!(stdout.contains("Interrupted after"), "{stdout}");
    assert!(engines_of(runner).is_empty());
    let rec = MatchRecord::read(&record).expect("the record reads back");
    assert_eq!(rec.stopped.as_deref(), Some("interrupted"));
    assert!(!rec.games.is_empty() && rec.games.len() < 400);
}

/// An engine that never reads its input: a command longer than the pipe
/// holds ends in a timeout within its time, instead of a runner blocked
/// on the write for ever.
#[test]
fn an_engine_that_does_not_read_cannot_block_the_runner() {
    let launch = Launch {
        command: "sleep 30".to_string(),
        ..Launch::default()
    };
    let mut p = EngineProcess::spawn(&launch, "sleeper", None).expect("starts");
    let pid = p.pid();
    let long = format!("set x {}", "y".repeat(300_000));
    let started = Instant::now();
    let err = p
        .send(&long, Duration::from_millis(300))
        .expect_err("no reply");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(matches!(err, ProcessError::Timeout { .. }), "{err}");
    assert!(err.to_string().contains("does not read"), "{err}");
    // And it was ended.
    assert!(!alive(pid));
}
