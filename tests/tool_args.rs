//! The tools refuse what they cannot do (docs/tools-safety.md): every
//! numeric argument of `tabula bench`, `train-othello` and
//! `calibrate-probcut` out of its range is refused at once with a message
//! and a failing exit status (never a panic, never a run that does not
//! end), and a fit with nothing to fit writes no weight file.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use tabula::engine::settings::available_cores;

/// Runs `tabula ARGS` (its input closed) and returns its output, failing
/// the test if it runs past `limit`.
fn tabula(args: &[&str], limit: Duration) -> Output {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabula starts");
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("tabula {args:?} still ran after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `tabula ARGS` is refused: a failing status that is not a panic's
/// (101), within a few seconds, nothing on stdout, and a message on
/// stderr that names `names` (the argument at fault).
fn refused(args: &[&str], names: &str) {
    let out = tabula(args, Duration::from_secs(20));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    assert!(
        code.is_some_and(|c| c != 0 && c != 101),
        "tabula {args:?}: exit {code:?}, stderr {stderr}"
    );
    assert!(out.stdout.is_empty(), "tabula {args:?} printed a report");
    assert!(
        stderr.contains(names),
        "tabula {args:?}: the message does not name {names}: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "tabula {args:?}: {stderr}");
}

/// A folder of its own under the system's temporary folder, empty.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-tool-args-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

#[test]
fn bench_refuses_numbers_out_of_range() {
    let too_many = (available_cores() + 1).to_string();
    for (args, name) in [
        (&["--seconds", "nan"][..], "--seconds"),
        (&["--seconds", "inf"], "--seconds"),
        (&["--seconds=-1"], "--seconds"),
        (&["--seconds", "0"], "--seconds"),
        (&["--seconds", "1e9"], "--seconds"),
        (&["--runs", "18446744073709551615"], "--runs"),
        (&["--runs", "0"], "--runs"),
        (&["--perft", "30"], "--perft"),
        (&["--perft", "0"], "--perft"),
        (&["--hash", "0"], "--hash"),
        (&["--hash", "1000000"], "--hash"),
        (&["--ffo-count", "1000"], "--ffo-count"),
        (&["--threads", "0"], "--threads"),
        (&["--threads", "1000"], "--threads"),
        (&["--threads", &too_many], "--force-threads"),
        (&["--threads", "257", "--force-threads"], "--threads"),
        // The latency run's numbers.
        (&["--latency", "othello", "--rounds", "0"], "--rounds"),
        (
            &["--latency", "othello", "--rounds", "18446744073709551615"],
            "--rounds",
        ),
        (&["--latency", "othello", "--threads", "1000"], "--threads"),
        (&["--latency", "othello", "--threads", "0"], "--threads"),
        (&["--latency", "othello", "--movetime", "0"], "--movetime"),
        (&["--latency", "othello", "--clock", "nan,0,0"], "--clock"),
    ] {
        let mut all = vec!["bench"];
        all.extend_from_slice(args);
        refused(&all, name);
    }
}

#[test]
fn train_othello_refuses_numbers_out_of_range_and_writes_nothing() {
    let dir = scratch("train-args");
    let data = dir.join("data");
    let out = dir.join("weights.bin");
    std::fs::write(&out, b"the weights we keep").expect("a weight file");
    let (data_s, out_s) = (data.to_string_lossy(), out.to_string_lossy());
    let too_many = (available_cores() + 1).to_string();
    for (args, name) in [
        (&["--lambda", "nan"][..], "--lambda"),
        (&["--lambda", "inf"], "--lambda"),
        (&["--lambda", "0"], "--lambda"),
        (&["--lambda=-3"], "--lambda"),
        (&["--threads", "100000"], "--threads"),
        (&["--threads", "0"], "--threads"),
        (&["--threads", &too_many], "--force-threads"),
        (&["--solve-empties", "64"], "--solve-empties"),
        (&["--games", "0"], "--games"),
        (&["--games", "18446744073709551615"], "--games"),
        (&["--depth", "0"], "--depth"),
        (&["--depth", "40"], "--depth"),
        (&["--iterations", "0"], "--iterations"),
        (&["--gen-only", "--fit-only"], "--gen-only"),
    ] {
        let mut all = vec!["train-othello", "--data", &data_s, "--out", &out_s];
        all.extend_from_slice(args);
        refused(&all, name);
    }
    assert!(!data.exists(), "a refused run created the data folder");
    assert_eq!(
        std::fs::read(&out).expect("still there"),
        b"the weights we keep"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fit_without_positions_writes_no_weight_file() {
    // No data at all, and a data file with no complete game.
    let dir = scratch("train-empty");
    let out = dir.join("weights.bin");
    std::fs::write(&out, b"the weights we keep").expect("a weight file");
    for data in [dir.join("none"), dir.join("cut")] {
        if data.ends_with("cut") {
            std::fs::create_dir_all(&data).expect("folder");
            std::fs::write(data.join("positions.bin"), [0u8, 0, 0, 0, 9, 1, 2]).expect("data");
        }
        let args = [
            "train-othello",
            "--fit-only",
            "--data",
            &data.to_string_lossy(),
            "--out",
            &out.to_string_lossy(),
        ];
        refused(&args, "no positions to fit");
        assert_eq!(
            std::fs::read(&out).expect("still there"),
            b"the weights we keep"
        );
        assert!(!data.join("weights.bin").exists());
        assert_eq!(data.exists(), data.ends_with("cut"), "a fit made a folder");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn calibrate_probcut_refuses_numbers_out_of_range_and_a_fit_of_nothing() {
    let too_many = (available_cores() + 1).to_string();
    for (args, name) in [
        (&["--games", "0"][..], "--games"),
        (&["--games", "18446744073709551615"], "--games"),
        (&["--per-game", "0"], "--per-game"),
        (&["--per-game", "100000"], "--per-game"),
        (&["--depth", "2"], "--depth"),
        (&["--depth", "30"], "--depth"),
        (&["--threads", "100000"], "--threads"),
        (&["--threads", "0"], "--threads"),
        (&["--threads", &too_many], "--force-threads"),
        (&["--hash", "0"], "--hash"),
        (&["--hash", "18446744073709551615"], "--hash"),
    ] {
        let mut all = vec!["calibrate-probcut"];
        all.extend_from_slice(args);
        refused(&all, name);
    }
    // One position cannot fit a regression (8 at least): no table of
    // guesses is printed.
    refused(
        &[
            "calibrate-probcut",
            "--games",
            "1",
            "--per-game",
            "1",
            "--depth",
            "3",
            "--threads",
            "1",
        ],
        "too few to fit",
    );
}
