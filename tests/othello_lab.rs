//! The Othello lab tools lose nothing (issue #41 item 7): `train-othello`
//! checks `--out` before it generates a game, refuses a fit from too
//! little data without writing anything, and replaces a weight file only
//! with a complete new one.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::scratch;

fn tabula(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("tabula runs")
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

fn train(data: &Path, out: &Path, more: &[&str]) -> Output {
    train_command(data, out, more)
        .stdin(Stdio::null())
        .output()
        .expect("tabula runs")
}

/// `train-othello` on `data` into `out` with the tests' small settings.
fn train_command(data: &Path, out: &Path, more: &[&str]) -> Command {
    let (d, o) = (s(data), s(out));
    let mut args = vec![
        "train-othello",
        "--data",
        &d,
        "--out",
        &o,
        "--threads",
        "1",
        "--solve-empties",
        "6",
        "--depth",
        "1",
        "--iterations",
        "5",
    ];
    args.extend_from_slice(more);
    let mut command = Command::new(env!("CARGO_BIN_EXE_tabula"));
    command.args(&args);
    command
}

const KEEP: &[u8] = b"the weights we keep";

#[test]
fn train_othello_on_too_little_data_writes_nothing() {
    let dir = scratch("lab-little");
    let (data, out) = (dir.join("data"), dir.join("weights.bin"));
    std::fs::write(&out, KEEP).expect("a weight file");
    let o = train(&data, &out, &["--games", "1"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "a fit of one game succeeded: {err}");
    assert!(err.contains("too little data"), "{err}");
    assert_eq!(std::fs::read(&out).expect("kept"), KEEP);
    let names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("dir")
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(names.len(), 2, "a scratch file stayed: {names:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn train_othello_checks_out_before_generating_any_game() {
    let dir = scratch("lab-out");
    let data = dir.join("data");
    let folder = dir.join("a-folder");
    std::fs::create_dir_all(&folder).expect("folder");
    for (out, why) in [
        (folder.clone(), "a directory"),
        (PathBuf::from("/dev/null"), "a device"),
        (dir.join("missing/weights.bin"), "folder does not exist"),
    ] {
        let o = train(&data, &out, &["--games", "3"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{}: {err}", out.display());
        assert!(err.contains(why), "{}: {err}", out.display());
        assert!(
            !data.join("positions.bin").exists(),
            "games were generated before --out {} was refused",
            out.display()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn train_othello_replaces_the_weights_with_a_complete_file() {
    let dir = scratch("lab-replace");
    let (data, out) = (dir.join("data"), dir.join("weights.bin"));
    std::fs::write(&out, KEEP).expect("a weight file");
    let o = train(&data, &out, &["--games", "20", "--min-positions", "10"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let bytes = std::fs::read(&out).expect("written");
    tabula::games::othello::pattern::Weights::decode(&bytes).expect("a complete weight file");
    // Only the data folder and the weight file: no scratch file stays.
    assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The folder of real `.wtb` files: `TABULA_WTHOR`, else `data/wthor`
/// (see scripts/othello-data.sh); the test is skipped without one.
fn wthor_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("TABULA_WTHOR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("data/wthor"));
    dir.is_dir().then_some(dir)
}

#[test]
fn real_wthor_games_all_replay_legally() {
    use tabula::tools::lab::wthor;
    let Some(dir) = wthor_dir() else {
        eprintln!("no WTHOR folder (TABULA_WTHOR or data/wthor): skipped");
        return;
    };
    let files = wthor::files_in(&dir).expect("a folder");
    let (mut games, mut finished, mut agree) = (0usize, 0usize, 0usize);
    for f in &files {
        let (header, list) = wthor::read_file(f).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(header.games as usize, list.len());
        for (i, g) in list.iter().enumerate() {
            let r = wthor::replay(i, g).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            games += 1;
            if r.finished() {
                finished += 1;
                agree += usize::from(r.black_final() == g.black_discs);
            }
        }
    }
    eprintln!(
        "{} files, {games} games, {finished} played to the end, {agree} of those with the recorded score",
        files.len()
    );
    assert!(games > 0);
    // The recorded final score matches the replay in (nearly) every
    // finished game.
    assert!(agree * 100 >= finished * 99, "{agree} of {finished}");
}

fn label(out: &Path, more: &[&str]) -> Output {
    let o = s(out);
    let given = |name: &str| more.contains(&name);
    let mut args = vec!["label-othello", "--out", &o, "--exact", "8"];
    if !given("--self-play") {
        args.extend_from_slice(&["--self-play", "3"]);
    }
    if !given("--depth") {
        args.extend_from_slice(&["--depth", "2"]);
    }
    args.extend_from_slice(&["--chunk", "8", "--hash", "1"]);
    args.extend_from_slice(more);
    tabula(&args)
}

#[test]
fn label_othello_resumes_after_a_cut_and_refuses_other_settings() {
    let dir = scratch("lab-label");
    let (a, b) = (dir.join("a"), dir.join("b"));
    // One run of 60 in one go, on two threads.
    let o = label(&a, &["--limit", "60", "--threads", "2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let whole = std::fs::read(a.join("labels.bin")).expect("labels");
    assert_eq!(whole.len(), 60 * 24);
    // Another in steps on one thread, cut in the middle of a record.
    let o = label(&b, &["--limit", "20", "--threads", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let file = b.join("labels.bin");
    let mut part = std::fs::read(&file).expect("labels");
    part.truncate(13 * 24 + 5);
    std::fs::write(&file, &part).expect("cut");
    let o = label(&b, &["--limit", "60", "--threads", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("47 positions"));
    assert_eq!(std::fs::read(&file).expect("labels"), whole);
    let progress = std::fs::read_to_string(b.join("progress.txt")).expect("progress");
    assert!(progress.contains("done 60"), "{progress}");
    // Other settings into the same folder are refused, the data kept.
    let o = label(&b, &["--limit", "70", "--depth", "3"]);
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("depth 2"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(std::fs::read(&file).expect("labels"), whole);
    // Exact labels are the solver's.
    let (recs, _) = tabula::tools::lab::labels::read_labels(&file).expect("read");
    let control = tabula::control::Control::unlimited();
    let mut exact = 0;
    for r in recs.iter().filter(|r| r.kind == 0) {
        let (_, score, _) =
            tabula::games::othello::endgame::solve_exact(r.p, r.o, &control, 1 << 20)
                .expect("solved");
        assert_eq!(i32::from(r.label), score);
        assert!(64 - (r.p | r.o).count_ones() <= 8);
        exact += 1;
    }
    assert!(exact > 0 && exact < 60, "{exact} exact of 60");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn train_othello_fits_labels_and_reports_todays_error_beside() {
    let dir = scratch("lab-fit-labels");
    let labels = dir.join("labels");
    let o = label(
        &labels,
        &["--self-play", "40", "--limit", "1500", "--threads", "2"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.join("w.bin");
    let (l, w) = (s(&labels), s(&out));
    let o = tabula(&[
        "train-othello",
        "--labels",
        &l,
        "--out",
        &w,
        "--from-builtin",
        "--tune-lambda",
        "--min-positions",
        "30",
        "--iterations",
        "5",
        "--threads",
        "1",
    ]);
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(report.contains("rmse today"), "{report}");
    let bytes = std::fs::read(&out).expect("written");
    tabula::games::othello::pattern::Weights::decode(&bytes).expect("a weight file");
    // Without the prior, stages short of positions are an error.
    std::fs::remove_file(&out).expect("rm");
    let o = tabula(&[
        "train-othello",
        "--labels",
        &l,
        "--out",
        &w,
        "--min-positions",
        "100000",
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("too little data"));
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_lab_reads_its_data_through_the_one_reader() {
    // A FIFO as positions.bin would block a plain read, a link to
    // /dev/zero would read until memory runs out: both are refused at
    // once, with the file named, and nothing is written.
    let dir = scratch("lab-data-kinds");
    let data = dir.join("data");
    std::fs::create_dir_all(&data).expect("data folder");
    let fifo = data.join("positions.bin");
    crate::common::mkfifo(&fifo);
    let started = std::time::Instant::now();
    let o = train(&data, &dir.join("w.bin"), &["--games", "2", "--fit-only"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "a FIFO was read: {err}");
    assert!(
        err.contains("positions.bin") && err.contains("FIFO"),
        "{err}"
    );
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    let labels = dir.join("labels");
    std::fs::create_dir_all(&labels).expect("labels folder");
    std::os::unix::fs::symlink("/dev/zero", labels.join("labels.bin")).expect("link");
    let o = label(&labels, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "/dev/zero was read: {err}");
    assert!(err.contains("labels.bin"), "{err}");
    assert!(!dir.join("w.bin").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_generations_into_one_data_folder_the_second_is_refused_at_once() {
    // The first run holds the folder's lock while it generates; a second
    // one, started meanwhile with another seed, is refused at once naming
    // the holder, and the first finishes whole.
    let dir = scratch("lab-two-writers");
    let data = dir.join("data");
    let mut first = train_command(
        &data,
        &dir.join("w.bin"),
        &["--games", "400", "--gen-only", "--seed", "1"],
    )
    .stdin(Stdio::null())
    // Not read: a pipe could fill and stall the first run.
    .stderr(Stdio::null())
    .spawn()
    .expect("first run");
    let lock = data.join(".tabula.lock");
    let t0 = std::time::Instant::now();
    while !lock.exists() && t0.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(lock.exists(), "the first run took no lock");
    let started = std::time::Instant::now();
    let second = train(
        &data,
        &dir.join("w.bin"),
        &["--games", "400", "--gen-only", "--seed", "2"],
    );
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "two writers ran: {err}");
    assert!(err.contains("being written by process"), "{err}");
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    assert!(first.wait().expect("first ends").success());
    assert!(!lock.exists(), "the lock stayed after a clean exit");
    let _ = std::fs::remove_dir_all(&dir);
}
