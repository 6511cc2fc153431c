//! `set eval PATH` names a file on a peer's word: only a
//! regular file is read, its magic first, no more than a weight file can
//! hold; the command always answers, and `stop` and the end of the input
//! work after it. Each case runs the engine as a process with a deadline.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tabula::games::othello::pattern;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tabula-weight-files-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Waits for `child` to exit within `within`, killing it if it does not;
/// its output, or `None` if it had to be killed.
fn finish(mut child: Child, within: Duration) -> Option<String> {
    let end = Instant::now() + within;
    while Instant::now() < end {
        if child.try_wait().expect("wait").is_some() {
            let out = child.wait_with_output().expect("output");
            return Some(String::from_utf8_lossy(&out.stdout).into_owned());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// Runs the engine on `input` (written whole, then the input closed).
fn session(input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start tabula");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("write");
    drop(stdin);
    finish(child, Duration::from_secs(30))
        .unwrap_or_else(|| panic!("the engine did not end on {input:?}"))
}

fn replies(out: &str) -> Vec<&str> {
    out.split("\n\n").filter(|r| !r.is_empty()).collect()
}

/// `set eval PATH`, then `stop` and `name`: the three replies.
fn load(path: &Path) -> Vec<String> {
    let out = session(&format!("set eval {}\nstop\nname\n", path.display()));
    let r: Vec<String> = replies(&out).into_iter().map(str::to_string).collect();
    assert_eq!(r.len(), 3, "{path:?}: {out:?}");
    assert_eq!(r[1], "= ", "{path:?}");
    assert_eq!(r[2], "= tabula", "{path:?}");
    r
}

#[test]
fn files_that_are_not_regular_are_refused_at_once() {
    let d = temp_dir("special");
    let fifo = d.join("fifo");
    crate::common::mkfifo(&fifo);
    let link = d.join("link-to-fifo");
    std::os::unix::fs::symlink(&fifo, &link).expect("symlink");
    for (path, what) in [
        (fifo.as_path(), "a FIFO"),
        (link.as_path(), "a FIFO"),
        (Path::new("/dev/zero"), "a character device"),
        (Path::new("/dev/null"), "a character device"),
        (Path::new("/dev/stdout"), "a FIFO"),
        (Path::new("/dev/stdin"), "a FIFO"),
        (Path::new("/proc/self/fd/0"), "a FIFO"),
        (d.as_path(), "a directory"),
    ] {
        let t = Instant::now();
        let r = load(path);
        assert!(
            r[0].starts_with("? ") && r[0].contains(&format!("{what}, not a regular file")),
            "{path:?}: {}",
            r[0]
        );
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "{path:?}: {:?}",
            t.elapsed()
        );
    }
    // The engine still plays Othello with its own weights after each.
    let _ = std::fs::remove_dir_all(&d);
}

/// Was: `/dev/stdin` redirected from a file ate the rest of the input.
#[test]
fn the_engines_own_input_is_not_read_as_a_weight_file() {
    let d = temp_dir("stdin");
    let commands = d.join("commands.txt");
    std::fs::write(&commands, "set eval /dev/stdin\nname\n").expect("write");
    let child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .stdin(std::fs::File::open(&commands).expect("open"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start tabula");
    let out = finish(child, Duration::from_secs(30)).expect("the engine ends");
    let r = replies(&out);
    assert_eq!(r.len(), 2, "{out:?}");
    assert!(
        r[0].contains("the engine's own input or output"),
        "{}",
        r[0]
    );
    assert_eq!(r[1], "= tabula");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_magic_is_checked_first_and_the_read_is_capped() {
    let d = temp_dir("content");
    let max = pattern::max_file_len();
    // Zeros: no magic (was read whole before its magic was checked).
    let zeros = d.join("zeros.bin");
    std::fs::write(&zeros, vec![0u8; 4096]).expect("write");
    let r = load(&zeros);
    assert!(r[0].contains("bad magic"), "{}", r[0]);
    // The magic, then more than any weight file holds.
    let large = d.join("large.bin");
    let mut bytes = pattern::MAGIC.to_vec();
    bytes.resize(max as usize + 1, 7);
    std::fs::write(&large, &bytes).expect("write");
    let r = load(&large);
    assert!(
        r[0].contains(&format!("larger than {max} bytes")),
        "{}",
        r[0]
    );
    // The built-in weights, written out, are within the limit and load.
    let good = d.join("good.bin");
    let encoded = pattern::builtin().encode();
    assert!((encoded.len() as u64) < max);
    std::fs::write(&good, &encoded).expect("write");
    assert_eq!(load(&good)[0], "= ");
    let _ = std::fs::remove_dir_all(&d);
}

/// Was: a FIFO hung the engine, which ignored `stop` and outlived its
/// input; now it is refused and the engine ends with its input.
#[test]
fn stop_and_the_end_of_the_input_work_after_a_fifo() {
    let d = temp_dir("eof");
    let fifo = d.join("fifo");
    crate::common::mkfifo(&fifo);
    let out = session(&format!("set eval {}\nstop\n", fifo.display()));
    let r = replies(&out);
    assert_eq!(r.len(), 2, "{out:?}");
    assert!(r[0].starts_with("? "), "{out:?}");
    assert_eq!(r[1], "= ");
    let _ = std::fs::remove_dir_all(&d);
}
