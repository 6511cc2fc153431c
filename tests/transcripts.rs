//! Golden transcripts: every `tests/transcripts/*.txt` file is a session.
//! Lines starting with `> ` are sent to the engine; the lines after each
//! one, up to the next `> `, are the exact output expected (replies end
//! with their empty line). Lines starting with `#` before the first
//! command are a description and are skipped.
//!
//! On a mismatch the test prints the first differing line with context.
//! `TABULA_BLESS=1 cargo test --test transcripts` rewrites the expected
//! output from what the engine says: review the diff before committing.
//!
//! The sessions in protocol.md are checked the same way: every ```` ```text ````
//! block with `> ` lines, run on engines of two different seeds (so a
//! reply that hangs on the seed needs the `set seed` that fixes it in the
//! block). A block whose replies hang on time is fenced ```` ```text nocheck ````;
//! a reply line ending in ` ...` there stands for any line that begins
//! with what comes before it; the last reply of a block may leave out its
//! closing empty line.
//!
//! A session whose first command enters a line protocol (`nboard 2`,
//! `ugi`) has no empty lines to split replies by, and many commands
//! with no reply: its whole output is compared with the expected lines
//! of all commands in order, and a line ending in `...` there stands for
//! any line that begins with what comes before it (times, node counts).

use std::fs;
use std::io::Cursor;
use std::path::Path;

use tabula::engine::Engine;

struct Transcript {
    header: Vec<String>,
    commands: Vec<String>,
    expected: Vec<Vec<String>>,
}

fn parse(text: &str) -> Transcript {
    let mut t = Transcript {
        header: Vec::new(),
        commands: Vec::new(),
        expected: Vec::new(),
    };
    for line in text.lines() {
        if let Some(cmd) = line.strip_prefix("> ") {
            t.commands.push(cmd.to_string());
            t.expected.push(Vec::new());
        } else if let Some(last) = t.expected.last_mut() {
            last.push(line.to_string());
        } else {
            t.header.push(line.to_string());
        }
    }
    t
}

/// Runs the commands through a session and splits the output by command:
/// each command's output is what the engine wrote up to its reply's
/// closing empty line.
fn run(commands: &[String]) -> Vec<Vec<String>> {
    run_seeded(commands, 0)
}

/// [`run`] on an engine whose session generator starts from `seed`.
fn run_seeded(commands: &[String], seed: u64) -> Vec<Vec<String>> {
    let mut input = commands.join("\n");
    input.push('\n');
    let mut output = Vec::new();
    let engine = Engine::new(seed).expect("engine starts");
    tabula::protocol::run(Cursor::new(input.into_bytes()), &mut output, engine);
    let text = String::from_utf8(output).expect("output is UTF-8");
    if is_stream(commands) {
        // One block: the whole output (see the module's note).
        return vec![text.lines().map(str::to_string).collect()];
    }
    let mut replies = Vec::new();
    let mut current = Vec::new();
    for line in text.lines() {
        let empty = line.is_empty();
        current.push(line.to_string());
        if empty {
            replies.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        replies.push(current);
    }
    replies
}

/// Whether a session speaks a line protocol from its first command.
fn is_stream(commands: &[String]) -> bool {
    commands
        .first()
        .is_some_and(|c| tabula::protocol::Protocol::entered_by(c).is_some())
}

/// A line protocol's output against the expected lines of all commands.
fn compare_stream(t: &Transcript, got: &[Vec<String>]) -> Result<(), String> {
    let want: Vec<&String> = t
        .expected
        .iter()
        .flatten()
        .filter(|l| !l.is_empty())
        .collect();
    let got: Vec<&String> = got.iter().flatten().collect();
    let same = |w: &String, g: &String| match w.strip_suffix("...") {
        Some(start) => g.starts_with(start),
        None => w == g,
    };
    for i in 0..want.len().max(got.len()) {
        match (want.get(i), got.get(i)) {
            (Some(w), Some(g)) if same(w, g) => {}
            (w, g) => {
                return Err(format!(
                    "output line {}: expected {:?}, got {:?}; whole output:\n{}",
                    i + 1,
                    w,
                    g,
                    got.iter()
                        .map(|l| l.as_str())
                        .collect::<Vec<_>>()
                        .join("\n")
                ));
            }
        }
    }
    Ok(())
}

/// Where the replies `got` differ from those `t` expects; `loose` lets a
/// line ending in ` ...` stand for any line that begins the same.
fn compare(t: &Transcript, got: &[Vec<String>], loose: bool) -> Result<(), String> {
    if is_stream(&t.commands) {
        return compare_stream(t, got);
    }
    if got.len() != t.commands.len() {
        return Err(format!(
            "{} commands but {} replies; replies:\n{}",
            t.commands.len(),
            got.len(),
            got.iter().flatten().cloned().collect::<Vec<_>>().join("\n")
        ));
    }
    let same = |want: &String, line: &String| match want.strip_suffix(" ...") {
        Some(start) if loose => line.starts_with(start),
        _ => want == line,
    };
    for (i, cmd) in t.commands.iter().enumerate() {
        let want = &t.expected[i];
        if want.len() != got[i].len() || !want.iter().zip(&got[i]).all(|(w, g)| same(w, g)) {
            return Err(format!(
                "after `{cmd}` (command {}):\n--- expected\n{}\n--- got\n{}",
                i + 1,
                want.join("\n"),
                got[i].join("\n")
            ));
        }
    }
    Ok(())
}

fn check(path: &Path) -> Result<(), String> {
    let text = fs::read_to_string(path).map_err(|e| e.to_string())?;
    let t = parse(&text);
    // Commands that produce no reply (blank or comment lines) are not
    // allowed in transcripts: every `> ` line must be answered.
    let got = run(&t.commands);
    if std::env::var_os("TABULA_BLESS").is_some() && !is_stream(&t.commands) {
        let mut out = t.header.join("\n");
        if !out.is_empty() {
            out.push('\n');
        }
        for (i, cmd) in t.commands.iter().enumerate() {
            out.push_str(&format!("> {cmd}\n"));
            for line in got.get(i).into_iter().flatten() {
                out.push_str(line);
                out.push('\n');
            }
        }
        fs::write(path, out).map_err(|e| e.to_string())?;
        return Ok(());
    }
    compare(&t, &got, false)
}

#[test]
fn golden_transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("tests/transcripts exists")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no transcripts in {}", dir.display());
    let mut failures = Vec::new();
    for f in &files {
        if let Err(e) = check(f) {
            failures.push(format!("{}: {e}", f.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} transcripts failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

/// The ```` ```text ```` blocks of a markdown text that are sessions (have
/// `> ` lines), with the line each starts on; `nocheck` blocks left out.
fn doc_sessions(markdown: &str) -> Vec<(usize, Transcript)> {
    doc_sessions_where(markdown, |checked| checked)
}

/// The sessions of a markdown text whose block is `wanted` by whether it
/// is checked (`nocheck` blocks are not).
fn doc_sessions_where(markdown: &str, wanted: impl Fn(bool) -> bool) -> Vec<(usize, Transcript)> {
    let mut sessions = Vec::new();
    let mut block: Option<(usize, bool, Vec<&str>)> = None;
    for (n, line) in markdown.lines().enumerate() {
        match (&mut block, line.strip_prefix("```")) {
            (None, Some(info)) if info.starts_with("text") => {
                let checked = !info.split_whitespace().any(|w| w == "nocheck");
                block = Some((n + 1, checked, Vec::new()));
            }
            (Some(_), Some(_)) => {
                if let Some((start, checked, lines)) = block.take()
                    && wanted(checked)
                {
                    let mut t = parse(&lines.join("\n"));
                    if let Some(last) = t.expected.last_mut()
                        && last.last().is_some_and(|l| !l.is_empty())
                    {
                        last.push(String::new());
                    }
                    if !t.commands.is_empty() {
                        sessions.push((start, t));
                    }
                }
            }
            (Some((_, _, lines)), None) => lines.push(line),
            _ => {}
        }
    }
    sessions
}

#[test]
fn protocol_doc_sessions_reproduce_when_pasted() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol.md");
    let text = fs::read_to_string(&path).expect("protocol.md");
    let sessions = doc_sessions(&text);
    assert!(sessions.len() >= 10, "{} sessions found", sessions.len());
    let mut failures = Vec::new();
    for (line, t) in &sessions {
        for seed in [0, 0x5eed] {
            if let Err(e) = compare(t, &run_seeded(&t.commands, seed), true) {
                failures.push(format!("protocol.md line {line}, engine seed {seed}: {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} checks failed:\n\n{}",
        failures.len(),
        2 * sessions.len(),
        failures.join("\n\n")
    );
}

/// A reply line's shape: every word holding a digit (a number, a square,
/// a card, a time) stands as `#`, a run of them as one. Two runs of a
/// session whose replies hang on the seed or the clock have the same
/// shapes: the same reply kinds and keys (`info multipv # move # score #
/// depth # ... pv #`), whatever the moves and figures.
fn shape(line: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for word in line.split_whitespace() {
        let word = if word.chars().any(|c| c.is_ascii_digit()) || word == "..." {
            "#"
        } else {
            word
        };
        if !(word == "#" && out.last() == Some(&"#")) {
            out.push(word);
        }
    }
    out.join(" ")
}

/// Whether `got` has the shapes `t` expects: every line shape the
/// example shows is one the engine writes in the session (a streamed
/// analysis may send more reports, or reports of other shapes, than it
/// shows, and a line typed during a stream may come before its last
/// report).
fn compare_shapes(t: &Transcript, got: &[Vec<String>]) -> Result<(), String> {
    let shapes = |lines: &mut dyn Iterator<Item = &String>| {
        let mut s: Vec<String> = lines.filter(|l| !l.is_empty()).map(|l| shape(l)).collect();
        s.sort();
        s.dedup();
        s
    };
    let want = shapes(&mut t.expected.iter().flatten());
    let have = shapes(&mut got.iter().flatten());
    let missing: Vec<&String> = want.iter().filter(|w| !have.contains(w)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(format!(
        "the engine writes no line like {missing:?}\n--- expected\n{}\n--- got\n{}",
        t.expected
            .iter()
            .flatten()
            .cloned()
            .collect::<Vec<_>>()
            .join("\n"),
        got.iter().flatten().cloned().collect::<Vec<_>>().join("\n")
    ))
}

/// The `nocheck` blocks of protocol.md (their replies hang on the time
/// or the machine) still show what the engine writes: each command's
/// reply has the shapes the example shows.
#[test]
fn protocol_doc_timed_sessions_show_the_replies_shapes() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol.md");
    let text = fs::read_to_string(&path).expect("protocol.md");
    let mut failures = Vec::new();
    let mut checked = 0;
    for (line, t) in doc_sessions_where(&text, |checked| !checked) {
        checked += 1;
        if let Err(e) = compare_shapes(&t, &run_seeded(&t.commands, 0)) {
            failures.push(format!("protocol.md line {line}: {e}"));
        }
    }
    assert!(checked >= 3, "{checked} nocheck sessions found");
    assert!(
        failures.is_empty(),
        "{} of {checked} sessions differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The README's terminal sessions: a ```` ```text ```` block whose first
/// line is the command that starts the engine (`$ tabula --seed 3`, `$
/// cargo run --release -q`); each command is the line after it or after
/// a reply's empty line, its reply the lines up to the next empty line.
/// With the seed the `$` line names, returned with the session.
fn readme_sessions(markdown: &str) -> Vec<(usize, Option<u64>, Transcript)> {
    let mut sessions = Vec::new();
    let mut block: Option<(usize, Vec<&str>)> = None;
    for (n, line) in markdown.lines().enumerate() {
        match (&mut block, line.strip_prefix("```")) {
            (None, Some(info)) if info.starts_with("text") => block = Some((n + 1, Vec::new())),
            (Some(_), Some(_)) => {
                let Some((start, lines)) = block.take() else {
                    continue;
                };
                let Some(dollar) = lines.first().and_then(|l| l.strip_prefix("$ ")) else {
                    continue;
                };
                let words: Vec<&str> = dollar.split_whitespace().collect();
                let seed = words
                    .iter()
                    .position(|w| *w == "--seed")
                    .and_then(|i| words.get(i + 1))
                    .and_then(|s| s.parse().ok());
                let mut t = Transcript {
                    header: Vec::new(),
                    commands: Vec::new(),
                    expected: Vec::new(),
                };
                let mut at_command = true;
                for l in &lines[1..] {
                    if at_command {
                        t.commands.push(l.to_string());
                        t.expected.push(Vec::new());
                        at_command = false;
                    } else if let Some(reply) = t.expected.last_mut() {
                        reply.push(l.to_string());
                        at_command = l.is_empty();
                    }
                }
                if let Some(last) = t.expected.last_mut()
                    && last.last().is_some_and(|l| !l.is_empty())
                {
                    last.push(String::new());
                }
                sessions.push((start, seed, t));
            }
            (Some((_, lines)), None) => lines.push(line),
            _ => {}
        }
    }
    sessions
}

/// The README's sessions, pasted into the engine: with the seed their
/// `$` line gives, every reply exactly; without one (the engine draws
/// its seed) every reply in its shapes.
#[test]
fn readme_sessions_reproduce_when_pasted() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let text = fs::read_to_string(&path).expect("README.md");
    let sessions = readme_sessions(&text);
    assert!(sessions.len() >= 2, "{} sessions found", sessions.len());
    let mut failures = Vec::new();
    for (line, seed, t) in &sessions {
        let result = match seed {
            Some(seed) => compare(t, &run_seeded(&t.commands, *seed), false),
            None => compare_shapes(t, &run_seeded(&t.commands, 0x5eed)),
        };
        if let Err(e) = result {
            failures.push(format!("README.md line {line}: {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} sessions differ:\n\n{}",
        failures.len(),
        sessions.len(),
        failures.join("\n\n")
    );
}
