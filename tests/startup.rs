//! Start-up settings: `tabula --game NAME -o KEY=VALUE --set KEY=VALUE
//! --config FILE`, as a GUI that can only name a program starts it.

use crate::common::{self, scratch};

/// Runs the engine with these arguments on this input; (exit code,
/// stdout, stderr).
fn run(args: &[&str], input: &str) -> (i32, String, String) {
    let out = common::run_engine(3, args, input);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn game_options_and_settings_from_the_command_line() {
    let (code, out, _) = run(
        &[
            "--game",
            "quoridor",
            "-o",
            "size=5",
            "-o",
            "walls=2",
            "--set",
            "search=alphabeta",
            "--set",
            "movetime=250",
        ],
        "position\nget search\nget movetime\nclear_board\nposition\n",
    );
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "= c1 c5 2 2 p1\n\n= alphabeta\n\n= 250\n\n= \n\n= c1 c5 2 2 p1\n\n"
    );
}

#[test]
fn gtp_core_alone_plays_the_start_up_game() {
    // A GTP controller sends boardsize and clear_board, never `game`.
    let (code, out, _) = run(
        &["engine", "--game", "quoridor"],
        "boardsize 9\nclear_board\nplay p1 e2\ngenmove p2 iterations=50\nboardsize 8\n",
    );
    assert_eq!(code, 0);
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(&replies[..3], ["= ", "= ", "= "]);
    assert!(replies[3].starts_with("= "), "{out}");
    assert!(
        replies[4].starts_with("? "),
        "boardsize 8 is not a quoridor size: {out}"
    );
}

#[test]
fn a_settings_file_comes_before_the_flags() {
    let dir = scratch("startup_config");
    let path = dir.join("tabula.cfg");
    std::fs::write(
        &path,
        "# for a GUI that takes only a command line\ngame quoridor\noption size=7\n\nsearch ucb1\nmovetime 400 # ms\n",
    )
    .expect("write");
    let path = path.to_str().expect("utf-8 path");
    let (code, out, _) = run(
        &["--config", path, "--set", "movetime=90"],
        "get search\nget movetime\nposition\n",
    );
    assert_eq!(code, 0);
    assert_eq!(out, "= ucb1\n\n= 90\n\n= d1 d7 6 6 p1\n\n");
}

#[test]
fn refusals_say_what_is_wrong_and_print_nothing_on_stdout() {
    let dir = scratch("startup_refusals");
    let bad = dir.join("bad.cfg");
    std::fs::write(&bad, "search alphabeta\nthreads\n").expect("write");
    let bad = bad.to_str().expect("utf-8 path").to_string();
    let cases: [(&[&str], &str); 7] = [
        (&["--game", "chess"], "unknown game 'chess'"),
        (&["--set", "search"], "--set takes KEY=VALUE"),
        (
            &["--set", "search=deepest"],
            "bad value 'deepest' for search",
        ),
        (&["-o", "size"], "-o takes key=value"),
        (&["--game", "othello", "-o", "size=9"], "game othello"),
        (&["--config", "/dev/null"], "not a regular file"),
        (&["--config", &bad], "bad.cfg:2: expected `KEY VALUE`"),
    ];
    for (args, said) in cases {
        let (code, out, err) = run(args, "name\n");
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(out, "", "{args:?}");
        assert!(err.contains(said), "{args:?}: {err}");
    }
}

#[test]
fn start_up_flags_belong_to_the_engine_only() {
    let (code, out, err) = run(&["--game", "quoridor", "perft", "othello", "1"], "");
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert!(err.contains("start the engine"), "{err}");
}

/// Runs the engine with these arguments, killed after `within`; (exit
/// code, stderr, how long it ran), or `None` if it had to be killed.
#[cfg(unix)]
fn run_within(args: &[&str], within: std::time::Duration) -> Option<(i32, String, f64)> {
    use std::io::Read as _;
    use std::process::{Command, Stdio};
    let start = std::time::Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("engine starts");
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            let mut err = String::new();
            let _ = child
                .stderr
                .take()
                .expect("stderr")
                .read_to_string(&mut err);
            return Some((
                status.code().unwrap_or(-1),
                err,
                start.elapsed().as_secs_f64(),
            ));
        }
        if start.elapsed() > within {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Was: `tabula --config FIFO` opened the FIFO before looking at it and
/// waited for a writer for ever; a device or a huge file was read (1 MiB
/// of it) before being refused. Now each is refused from its metadata,
/// before it is opened, with a clear message, within a second.
#[cfg(unix)]
#[test]
fn a_fifo_a_device_or_a_huge_file_as_settings_is_refused_at_once() {
    let dir = scratch("startup_fifo");
    let fifo = dir.join("settings.fifo");
    common::mkfifo(&fifo);
    // Sparse: 2 MiB said, nothing written.
    let big = dir.join("big.cfg");
    std::fs::File::create(&big)
        .expect("create")
        .set_len(2 << 20)
        .expect("set_len");
    let cases = [
        (fifo.display().to_string(), "a FIFO, not a regular file"),
        (
            "/dev/zero".to_string(),
            "a character device, not a regular file",
        ),
        (
            big.display().to_string(),
            "larger than 1048576 bytes (1 MiB)",
        ),
    ];
    for (path, said) in cases {
        let (code, err, secs) = run_within(
            &["--config", &path, "--game", "othello"],
            std::time::Duration::from_secs(5),
        )
        .unwrap_or_else(|| panic!("--config {path}: the engine hangs"));
        assert_eq!(code, 2, "--config {path}: {err}");
        assert!(err.contains(said), "--config {path}: {err}");
        assert!(err.contains("settings file"), "--config {path}: {err}");
        assert!(secs < 1.0, "--config {path}: {secs} s");
    }
}

/// Was: `komi nan` (and `inf`) was accepted as a number. Now each is
/// refused with a clear `?`; a finite komi is accepted (and ignored).
#[test]
fn komi_takes_finite_numbers_only() {
    let (code, out, _) = run(
        &[],
        "komi nan\nkomi inf\nkomi -infinity\nkomi NaN\nkomi 6.5\n",
    );
    assert_eq!(code, 0);
    let replies: Vec<&str> = out.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(replies.len(), 5, "{out}");
    for r in &replies[..4] {
        assert!(
            r.starts_with("? ") && r.contains("komi must be a finite number"),
            "{out}"
        );
    }
    assert_eq!(replies[4], "= ");
}
