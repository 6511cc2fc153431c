//! Every example command of the docs and of the `--help` texts, run, so
//! that none can go stale: the examples each `tabula ... --help` ends with
//! (read from the binary's own help), the shell blocks (```` ```sh ````) of
//! README.md and of the usage pages of docs/, and the console blocks
//! (```` ```console ````, `$ ` lines with their output) of protocol.md and
//! those pages. The README's and protocol.md's protocol sessions are
//! replayed by tests/transcripts.rs.
//!
//! Each page (or help text) runs as one `sh` script, its commands in order
//! (a `T=...` or `cd` of one block holds for the next, as in a reader's
//! terminal), in a fresh temporary folder laid out as the clone the docs
//! assume (`target/release/tabula` and `openings/` in it), where every
//! record, chart and export an example writes lands. `tabula` on PATH is
//! the binary cargo built for this test, `$T` names it too, and `cargo` on
//! PATH is a stand-in that runs it for `cargo run --release [-q] [--]`
//! (any other cargo command fails: it must be in [`RULES`]).
//!
//! What a command run whole must show: exit status 0; no reply refused
//! (`?`); every file it names with `--record`, `--chart`, `--live` or
//! `--export` written; what its comment claims (`20 Othello games`: its
//! `--games`; `50 ms a move`, `depth 4`, `2000 playouts`; a perft's
//! `3005288 leaves`); the commands its comment says to type (`type
//! \`genmove\``) answered; and the output the page shows for it (a console
//! block's lines, or the ```` ```text ```` block right after a one-command
//! shell block) exactly, but for search times, as the last lines of what
//! it prints (the acknowledgments before them may be left out).
//!
//! A command that takes too long as written, that needs a program CI does
//! not have, or that serves until stopped is listed in [`RULES`] with the
//! reason, and is run in a reduced form, parsed only, or not run at all. A
//! parse is the binary reading the whole command line with `--help` added
//! (every flag and value checked by clap), and for `tabula match` the
//! library's own checks of the engines, clocks, game options,
//! adjudication, SPRT and exports. A command whose text ends with `...`
//! (the rest elided) is parsed only.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use clap::Parser;

use tabula::arena::MatchArgs;
use tabula::arena::config::cli::check_game_options;
use tabula::arena::config::spec::{EngineSpec, Limits, TimeControl, check_movetime};
use tabula::arena::ground::adjudication::Adjudication;
use tabula::arena::output::export;
use tabula::arena::stats::sprt::Sprt;

const BIN: &str = env!("CARGO_BIN_EXE_tabula");

/// How a documented command is replayed when it is not run as written.
#[derive(Clone, Copy, Debug)]
enum How {
    /// Run as written (every command not in [`RULES`]).
    Run,
    /// Too long as written: run with these (from, to) replacements, and
    /// the command as written parsed.
    Reduced(&'static [(&'static str, &'static str)]),
    /// A server: run with these replacements until it prints its
    /// address, then stopped (SIGTERM); the command as written parsed.
    Server(&'static [(&'static str, &'static str)]),
    /// Parsed only, never run, for the reason given.
    Parsed(&'static str),
    /// Not run at all, for the reason given.
    NotRun(&'static str),
}

/// A command the tests do not run as written: `(page, command, how)`. The
/// command is the example's text with its spaces and line breaks each
/// made one space; ending in ` ...`, it stands for every command that
/// starts so. Every rule must match a command (a rule left over when its
/// example changed fails the test).
const RULES: &[(&str, &str, How)] = &[
    // The help texts.
    (
        "tabula match --help",
        "tabula match --engine cmd=\"edax -gtp\" ...",
        How::Parsed("needs Edax (`edax` on PATH), which CI does not have"),
    ),
    // README.md.
    (
        "README.md",
        "cargo test --profile quick -q",
        How::NotRun("the test suite itself: a test cannot run the suite it is part of"),
    ),
    (
        "README.md",
        "cargo build --release",
        How::NotRun("the build: the test runs the binary cargo built for it"),
    ),
    (
        "README.md",
        "cargo build --profile dist",
        How::NotRun("the build: the test runs the binary cargo built for it"),
    ),
    (
        "README.md",
        "./target/release/tabula gui",
        // The default port may be taken on the machine that runs the
        // tests (another run of them, a GUI of the user's): the test asks
        // for any free one, and checks 8099 against `gui --help`.
        How::Server(&[("gui", "gui --port 0")]),
    ),
    (
        "README.md",
        "$T match --game othello --games 200 ...",
        // 200 games at the engines' default of 1 s a move: hours.
        How::Reduced(&[("--games 200", "--games 2 --movetime 100")]),
    ),
    (
        "README.md",
        "cargo run --release -- bench --quick",
        // About a minute; the reduction keeps every figure, shortened.
        How::Reduced(&[(
            "--quick",
            "--quick --seconds 0.1 --perft 4 --ffo-count 0 --runs 1 --threads 1",
        )]),
    ),
    (
        "README.md",
        "cargo run --release -- bench",
        // Minutes; the reduction keeps every figure, shortened.
        How::Reduced(&[(
            "bench",
            "bench --seconds 0.1 --perft 4 --ffo-count 0 --runs 1 --threads 1",
        )]),
    ),
    // docs/matches.md.
    (
        "docs/matches.md",
        "cargo build --release",
        How::NotRun("the build: the test runs the binary cargo built for it"),
    ),
    (
        "docs/matches.md",
        "$T match --game othello --games 100 ...",
        How::Reduced(&[("--games 100", "--games 4")]),
    ),
    (
        "docs/matches.md",
        "$T match --game othello --games 2000 ...",
        How::Reduced(&[("--games 2000", "--games 2")]),
    ),
    (
        "docs/matches.md",
        "$T match --merge run1.txt run2.txt --record both.txt --chart both.svg",
        How::Parsed("merges the records of two earlier runs, which the page does not make"),
    ),
    (
        "docs/matches.md",
        "parallel -S host1,host2,host3,host4 ...",
        How::NotRun("GNU parallel over ssh to four hosts"),
    ),
    (
        "docs/matches.md",
        "tabula match --merge shard*.txt --chart match.svg --record match.txt",
        How::Parsed("merges the shards that the `parallel` line writes on its hosts"),
    ),
    // docs/match.md.
    (
        "docs/match.md",
        "tabula match --merge a.txt b.txt",
        How::Parsed("merges the records of the two elided runs above it"),
    ),
    (
        "docs/match.md",
        "EDAX=/path/to/edax-reversi/bin/lEdax-x86-64 scripts/check-ggf-edax.sh 20",
        How::NotRun("needs Edax built from source, which CI does not have"),
    ),
    // docs/tools.md.
    (
        "docs/tools.md",
        "cargo run --release -- bench",
        How::Reduced(&[(
            "bench",
            "bench --seconds 0.1 --perft 4 --ffo-count 0 --runs 1 --threads 1",
        )]),
    ),
    (
        "docs/tools.md",
        "cargo bench -p tabula-benches",
        How::NotRun("the criterion suite: minutes, and its own build"),
    ),
    (
        "docs/tools.md",
        "scripts/soak.sh 400",
        How::NotRun("the soak test: minutes"),
    ),
    (
        "docs/tools.md",
        "$T match --game othello --games 200 ...",
        // An experiment's record: 200 games one at a time.
        How::Reduced(&[
            ("--games 200", "--games 2"),
            ("--movetime 40", "--movetime 10"),
        ]),
    ),
    // docs/gui.md.
    (
        "docs/gui.md",
        "cargo build --release",
        How::NotRun("the build: the test runs the binary cargo built for it"),
    ),
    (
        "docs/gui.md",
        "./target/release/tabula gui",
        How::Server(&[("gui", "gui --port 0")]),
    ),
    (
        "docs/gui.md",
        "./target/release/tabula gui --port 0",
        How::Server(&[]),
    ),
    (
        "docs/gui.md",
        "tabula gui --engine cmd=./tabula ...",
        How::Parsed("`gtp-engine --flag` stands for any GTP program"),
    ),
    // docs/clocks.md.
    (
        "docs/clocks.md",
        "tabula bench --latency othello --search mcts --clock 1,0,0 --rounds 5",
        How::Reduced(&[("--rounds 5", "--rounds 1")]),
    ),
    (
        "docs/clocks.md",
        "tabula bench --latency othello --search alphabeta --clock 0,1,1 --rounds 3",
        How::Parsed("three whole games at 1 s a move: three minutes"),
    ),
];

/// The pages whose examples run, each with what happens to a command no
/// rule names: README.md, protocol.md and the pages of docs/ that the
/// README links for using tabula. The experiment pages (docs/experiments*.md)
/// and docs/testing.md record how results were obtained, on other machines
/// and over hours; they are not replayed.
const PAGES: &[(&str, How)] = &[
    ("docs/matches.md", How::Run),
    ("docs/match.md", How::Run),
    ("docs/tools.md", How::Run),
    ("docs/gui.md", How::Run),
    ("docs/analysis.md", How::Run),
    ("docs/clocks.md", How::Run),
    (
        "docs/defaults.md",
        How::Parsed("the matches that chose the defaults: minutes to hours each"),
    ),
    (
        "docs/protocols.md",
        How::NotRun(
            "scripts that drive programs CI does not have: OpenSpiel, Edax, GoGui and GRhino, cutegames",
        ),
    ),
    (
        "docs/quarry.md",
        How::NotRun("scripts that drive Quarry, a GUI CI does not have"),
    ),
];

/// One example command.
#[derive(Clone, Debug)]
struct Example {
    /// Where it is shown: `README.md:42`, `tabula match --help`.
    place: String,
    /// The command as shown, its lines joined by line breaks.
    text: String,
    /// Its comment: after `#` on its lines, and the comment lines just
    /// above it.
    comment: String,
    /// The output shown for it, if any.
    output: Option<Vec<String>>,
}

impl Example {
    /// The text with its spaces and line breaks each made one space (and
    /// a line's closing `\` dropped): how [`RULES`] name it.
    fn normalized(&self) -> String {
        self.text
            .replace("\\\n", " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The text of `line` before a comment (`#` after a space, outside
/// quotes), and the comment.
fn split_comment(line: &str) -> (&str, &str) {
    let mut quote = None;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '#' && prev.is_whitespace() => {
                return (line[..i].trim_end(), line[i + 1..].trim());
            }
            None => {}
        }
        prev = c;
    }
    (line.trim_end(), "")
}

/// The commands of shell code: a line, with the lines its closing `\`
/// continues, or a `for`/`while` loop through its `done`. `first` is the
/// number of the first line, for the places.
fn shell_commands(lines: &[&str], first: usize, page: &str) -> Vec<Example> {
    let mut commands = Vec::new();
    let mut above = String::new();
    let mut current: Vec<String> = Vec::new();
    let mut comment = String::new();
    let mut start = 0;
    let mut depth = 0i32;
    for (k, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        if current.is_empty() {
            if trimmed.is_empty() {
                above.clear();
                continue;
            }
            if let Some(text) = trimmed.strip_prefix('#') {
                above.push_str(text.trim());
                above.push(' ');
                continue;
            }
            start = first + k;
            comment = std::mem::take(&mut above);
        }
        let (code, note) = split_comment(line);
        if !note.is_empty() {
            comment.push_str(note);
            comment.push(' ');
        }
        let code_trimmed = code.trim();
        if code_trimmed.starts_with("for ") || code_trimmed.starts_with("while ") {
            depth += 1;
        }
        if code_trimmed == "done" || code_trimmed.ends_with("; done") {
            depth -= 1;
        }
        current.push(code.to_string());
        if !code.ends_with('\\') && depth <= 0 {
            commands.push(Example {
                place: format!("{page}:{start}"),
                text: std::mem::take(&mut current).join("\n"),
                comment: comment.trim().to_string(),
                output: None,
            });
            depth = 0;
        }
    }
    assert!(
        current.is_empty(),
        "{page}: an unfinished command at its end"
    );
    commands
}

/// The commands of a console block: each `$ ` line (with the lines its
/// `\` continues), the lines up to the next `$ ` its output.
fn console_commands(lines: &[&str], first: usize, page: &str) -> Vec<Example> {
    let mut commands: Vec<Example> = Vec::new();
    let mut continued = false;
    for (k, line) in lines.iter().enumerate() {
        if let Some(command) = line.strip_prefix("$ ") {
            commands.push(Example {
                place: format!("{page}:{}", first + k),
                text: command.to_string(),
                comment: String::new(),
                output: Some(Vec::new()),
            });
            continued = command.ends_with('\\');
        } else if let Some(last) = commands.last_mut() {
            if continued {
                last.text.push('\n');
                last.text.push_str(line);
                continued = line.ends_with('\\');
            } else if let Some(output) = &mut last.output {
                output.push(line.to_string());
            }
        }
    }
    commands
}

/// A fenced block of a markdown page.
struct Fence {
    /// The word after the opening fence (`sh`, `text`).
    info: String,
    /// The number of its first line of content.
    first: usize,
    /// The number of its closing fence.
    end: usize,
    /// Its lines, without the fence's indentation.
    lines: Vec<String>,
}

fn fences(markdown: &str) -> Vec<Fence> {
    let mut fences = Vec::new();
    let mut open: Option<(usize, Fence)> = None;
    for (n, line) in markdown.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let fence = line.trim_start().strip_prefix("```");
        match (&mut open, fence) {
            (None, Some(info)) => {
                open = Some((
                    indent,
                    Fence {
                        info: info.trim().to_string(),
                        first: n + 2,
                        end: 0,
                        lines: Vec::new(),
                    },
                ));
            }
            (Some(_), Some(_)) => {
                if let Some((_, mut f)) = open.take() {
                    f.end = n + 1;
                    fences.push(f);
                }
            }
            (Some((indent, f)), None) => {
                let cut = line
                    .char_indices()
                    .take_while(|(i, c)| *i < *indent && *c == ' ')
                    .count();
                f.lines.push(line[cut..].to_string());
            }
            (None, None) => {}
        }
    }
    fences
}

/// The example commands of a markdown page: its shell and console blocks.
/// A shell block of one command followed at once (past blank lines) by a
/// ```` ```text ```` block that is no session shows that command's output.
fn page_commands(page: &str) -> Vec<Example> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(page);
    let markdown = fs::read_to_string(&path).expect("the page exists");
    let all: Vec<&str> = markdown.lines().collect();
    let fences = fences(&markdown);
    let mut commands = Vec::new();
    for (i, fence) in fences.iter().enumerate() {
        let lines: Vec<&str> = fence.lines.iter().map(String::as_str).collect();
        match fence.info.split_whitespace().next() {
            Some("sh") => {
                let mut found = shell_commands(&lines, fence.first, page);
                if let [only] = found.as_mut_slice()
                    && let Some(next) = fences.get(i + 1)
                    && next.info.starts_with("text")
                    && all[fence.end..next.first - 2]
                        .iter()
                        .all(|l| l.trim().is_empty())
                    && !next
                        .lines
                        .iter()
                        .any(|l| l.starts_with("> ") || l.starts_with("$ "))
                {
                    only.output = Some(next.lines.clone());
                }
                commands.extend(found);
            }
            Some("console") => commands.extend(console_commands(&lines, fence.first, page)),
            _ => {}
        }
    }
    commands
}

/// The help texts of the binary: `tabula --help` and every subcommand's
/// `--help` (as listed under `Commands:`), each with its command line.
fn help_texts() -> Vec<(String, String)> {
    let help = |args: &[&str]| -> String {
        let out = Command::new(BIN)
            .args(args)
            .output()
            .expect("tabula --help runs");
        assert!(out.status.success(), "tabula {args:?} failed");
        String::from_utf8(out.stdout).expect("help is UTF-8")
    };
    let top = help(&["--help"]);
    let mut texts = vec![("tabula --help".to_string(), top.clone())];
    let names: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect();
    assert!(names.len() >= 8, "subcommands found: {names:?}");
    for name in names {
        let text = help(&[&name, "--help"]);
        texts.push((format!("tabula {name} --help"), text));
    }
    texts
}

/// The example commands of a help text: the indented lines after its
/// `Examples:` line, up to the first line that is not indented.
fn help_commands(place: &str, text: &str) -> Vec<Example> {
    let lines: Vec<&str> = text
        .lines()
        .skip_while(|l| l.trim() != "Examples:")
        .skip(1)
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .collect();
    shell_commands(&lines, 1, place)
        .into_iter()
        .map(|mut e| {
            e.place = place.to_string();
            e
        })
        .collect()
}

/// The words of a command as the shell would pass them (quotes and
/// backslashes undone; `$T` and the like kept as they are).
fn shell_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None => match c {
                '\'' | '"' => {
                    quote = Some(c);
                    in_word = true;
                }
                '\\' => match chars.next() {
                    Some('\n') | None => {}
                    Some(next) => {
                        word.push(next);
                        in_word = true;
                    }
                },
                c if c.is_whitespace() => {
                    if in_word {
                        words.push(std::mem::take(&mut word));
                        in_word = false;
                    }
                }
                c => {
                    word.push(c);
                    in_word = true;
                }
            },
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// Whether `word` starts tabula: the binary by any name the docs use, or
/// the cargo that builds and runs it.
fn is_tabula(word: &str) -> bool {
    matches!(
        word,
        "tabula" | "$T" | "./target/release/tabula" | "target/release/tabula" | "cargo"
    )
}

/// Where `match` is in the words of a `tabula match` command: after the
/// program, or after cargo's `--`.
fn match_at(words: &[String]) -> Option<usize> {
    let at = words.iter().position(|w| w == "match")?;
    (at == 1 || words[at - 1] == "--").then_some(at)
}

/// Whether a word is a whole number.
fn is_number(word: &str) -> bool {
    !word.is_empty() && word.chars().all(|c| c.is_ascii_digit())
}

/// `tabula match`'s arguments, as the binary reads them.
#[derive(Parser)]
struct MatchCommand {
    #[command(flatten)]
    args: MatchArgs,
}

/// The library's checks of a `tabula match` command line that a parse by
/// clap does not make: the game and its options, each engine's words and
/// limits, the clock, the adjudication, the SPRT and the exports (the
/// checks a match makes before it starts any engine).
fn check_match_words(words: &[String]) -> Result<(), String> {
    let Some(at) = match_at(words) else {
        return Ok(());
    };
    let args = MatchCommand::try_parse_from(&words[at..])
        .map_err(|e| e.to_string())?
        .args;
    check_game_options(&args.options).map_err(|e| e.to_string())?;
    let referee =
        tabula::arena::referee_by_name(&args.game, &args.options).map_err(|e| e.to_string())?;
    if !args.merge.is_empty() {
        return Ok(());
    }
    let global = Limits {
        movetime: args
            .movetime
            .map(check_movetime)
            .transpose()
            .map_err(|e| e.to_string())?,
        depth: args.depth,
        iterations: args.iterations,
        clock: args
            .tc
            .as_deref()
            .map(TimeControl::parse)
            .transpose()
            .map_err(|e| e.to_string())?,
    };
    for words in &args.engines.0 {
        let mut spec = EngineSpec::parse(&args.each, words).map_err(|e| e.to_string())?;
        spec.limits = spec.limits.or(global);
        spec.limits
            .check_for(spec.proto, &spec.default_name())
            .map_err(|e| e.to_string())?;
    }
    if let Some(words) = &args.adjudicate {
        Adjudication::parse(words)
            .and_then(|a| a.check(referee.as_ref()))
            .map_err(|e| e.to_string())?;
    }
    if let Some(words) = &args.sprt {
        Sprt::parse(words).map_err(|e| e.to_string())?;
    }
    export::parse(&args.export).map_err(|e| e.to_string())?;
    Ok(())
}

/// What a comment claims that the command must say: `N games` (or `N
/// Othello games`) its `--games`, `N ms a move` its `--movetime` (or
/// `movetime=`), `depth N` its `depth=N` (or `--depth`), `N playouts` its
/// `iterations=N` (or `--iterations`).
fn check_claims(example: &Example) -> Result<(), String> {
    let words = shell_words(&example.text);
    let has = |flag: &str, key: &str, value: &str| {
        words.windows(2).any(|w| w[0] == flag && w[1] == value)
            || words.iter().any(|w| *w == format!("{key}={value}"))
    };
    let said: Vec<String> = example
        .comment
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| ",.:;()`".contains(c))
                .to_lowercase()
        })
        .collect();
    for (i, w) in said.iter().enumerate() {
        let next = |k: usize| said.get(i + k).map(String::as_str).unwrap_or_default();
        let claim = if is_number(w) && (next(1) == "games" || next(2) == "games") {
            Some(("--games", "games", w.as_str()))
        } else if is_number(w) && next(1) == "ms" && next(2) == "a" {
            Some(("--movetime", "movetime", w.as_str()))
        } else if w == "depth" && is_number(next(1)) {
            Some(("--depth", "depth", next(1)))
        } else if is_number(w) && next(1) == "playouts" {
            Some(("--iterations", "iterations", w.as_str()))
        } else {
            None
        };
        if let Some((flag, key, value)) = claim
            && match_at(&words).is_some()
            && !has(flag, key, value)
        {
            return Err(format!(
                "its comment says {value} ({}) but the command has no {flag} {value} or {key}={value}",
                said[i.saturating_sub(1)..(i + 3).min(said.len())].join(" ")
            ));
        }
    }
    Ok(())
}

/// A report line with its search time left out: the word after `time`,
/// and JSON's `"time":N`.
fn untimed(line: &str) -> String {
    let mut out = Vec::new();
    let mut after_time = false;
    for word in line.split(' ') {
        if after_time && is_number(word) {
            out.push("#".to_string());
        } else {
            out.push(word.to_string());
        }
        after_time = word == "time";
    }
    let mut line = out.join(" ");
    while let Some(at) = line.find("\"time\":") {
        let start = at + "\"time\":".len();
        let digits = line[start..]
            .chars()
            .take_while(char::is_ascii_digit)
            .count();
        if digits == 0 {
            break;
        }
        line.replace_range(at..start + digits, "\"time\"=#");
    }
    line
}

/// Whether `got` ends with the `shown` lines (search times aside), every
/// line before them an acknowledgment (`=` or an empty line).
fn check_shown(shown: &[String], got: &str) -> Result<(), String> {
    let got: Vec<&str> = got.lines().collect();
    let mut shown: Vec<&str> = shown.iter().map(String::as_str).collect();
    while shown.last() == Some(&"") && got.last() != Some(&"") {
        shown.pop();
    }
    let same = got.len() >= shown.len() && {
        let (before, tail) = got.split_at(got.len() - shown.len());
        before.iter().all(|l| l.trim() == "=" || l.is_empty())
            && tail
                .iter()
                .zip(&shown)
                .all(|(g, s)| untimed(g) == untimed(s))
    };
    if same {
        Ok(())
    } else {
        Err(format!(
            "the page shows\n{}\n--- but it prints\n{}",
            shown.join("\n"),
            got.join("\n")
        ))
    }
}

/// A step of a page's script: one command, run or parsed.
struct Step {
    /// The example it is for (its index).
    example: usize,
    /// Its shell code.
    code: String,
    /// What it is: a run, a server, or a parse.
    kind: StepKind,
    /// Lines typed into it, if any.
    input: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum StepKind {
    Run,
    Server,
    Parse,
}

/// What ran of a step: exit status, output, and the folder it ended in.
struct Ran {
    rc: Option<i32>,
    out: String,
    err: String,
    dir: PathBuf,
}

/// A fresh folder for one page's examples, laid out as the clone the
/// docs assume.
struct Sandbox {
    root: PathBuf,
}

impl Sandbox {
    fn new(name: &str) -> Sandbox {
        let root =
            std::env::temp_dir().join(format!("tabula-examples-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        for dir in ["bin", "work/target/release", "tmp", "log"] {
            fs::create_dir_all(root.join(dir)).expect("sandbox folders");
        }
        let link = |to: &Path, at: PathBuf| {
            std::os::unix::fs::symlink(to, &at).expect("sandbox link");
        };
        link(Path::new(BIN), root.join("bin/tabula"));
        link(Path::new(BIN), root.join("work/target/release/tabula"));
        link(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("openings"),
            root.join("work/openings"),
        );
        // The docs' first commands are cargo's: `cargo run --release` runs
        // the binary this test was built with; any other is no example
        // this test replays (it must be in RULES).
        let cargo = root.join("bin/cargo");
        fs::write(
            &cargo,
            "#!/bin/sh\n\
             if [ \"$1\" = run ] && [ \"$2\" = --release ]; then\n\
             \x20 shift 2\n\
             \x20 if [ \"$1\" = -q ]; then shift; fi\n\
             \x20 if [ \"$1\" = -- ]; then shift; fi\n\
             \x20 exec tabula \"$@\"\n\
             fi\n\
             echo \"cargo $*: not replayed by tests/examples.rs\" >&2\n\
             exit 97\n",
        )
        .expect("cargo stand-in");
        use std::os::unix::fs::PermissionsExt as _;
        fs::set_permissions(&cargo, fs::Permissions::from_mode(0o755)).expect("chmod");
        Sandbox { root }
    }

    /// Runs the steps as one script; what each did.
    fn run(&self, steps: &[Step], examples: &[Example]) -> Vec<Ran> {
        let log = self.root.join("log");
        let mut script = String::from("cd \"$WORK\" || exit 99\n");
        for (i, step) in steps.iter().enumerate() {
            let input = match &step.input {
                Some(text) => {
                    let path = log.join(format!("{i}.in"));
                    fs::write(&path, text).expect("input file");
                    format!("\"$LOG/{i}.in\"")
                }
                None => "/dev/null".to_string(),
            };
            script.push_str(&format!("# {}\n", examples[step.example].place));
            match step.kind {
                StepKind::Run | StepKind::Parse => {
                    script.push_str(&format!("{{ {}\n}}", step.code));
                }
                StepKind::Server => script.push_str(&format!(
                    "{{ {} &\n\
                     server=$!\n\
                     n=0\n\
                     while [ $n -lt 300 ] && ! grep -q 'open http' \"$LOG/{i}.out\"; do sleep 0.1; n=$((n+1)); done\n\
                     kill -TERM $server; wait $server\n}}",
                    step.code
                )),
            }
            script.push_str(&format!(
                " <{input} >\"$LOG/{i}.out\" 2>\"$LOG/{i}.err\"\n\
                 echo $? >\"$LOG/{i}.rc\"; pwd >\"$LOG/{i}.pwd\"\n"
            ));
        }
        let path = self.root.join("script.sh");
        fs::write(&path, &script).expect("script");
        let bin = self.root.join("bin");
        let paths = std::env::var_os("PATH").unwrap_or_default();
        let mut all = vec![bin.clone()];
        all.extend(std::env::split_paths(&paths));
        use std::os::unix::process::CommandExt as _;
        let mut child = Command::new("sh")
            .arg(&path)
            .env("PATH", std::env::join_paths(all).expect("PATH"))
            .env("TMPDIR", self.root.join("tmp"))
            .env("WORK", self.root.join("work"))
            .env("LOG", &log)
            // The docs call the build `$T` ("T=./target/release/tabula");
            // a page that uses it without setting it finds it here.
            .env("T", bin.join("tabula"))
            .current_dir(self.root.join("work"))
            .process_group(0)
            .spawn()
            .expect("sh starts");
        let started = Instant::now();
        loop {
            if child.try_wait().expect("wait").is_some() {
                break;
            }
            if started.elapsed() > Duration::from_secs(300) {
                let pid = i32::try_from(child.id()).expect("pid");
                // SAFETY: kill has no memory effects; the group is the
                // script's own, made by process_group(0) above.
                unsafe { libc::kill(-pid, libc::SIGKILL) };
                let _ = child.wait();
                panic!("the examples did not end within 300 s: {}", path.display());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let read = |i: usize, ext: &str| fs::read_to_string(log.join(format!("{i}.{ext}")));
        (0..steps.len())
            .map(|i| Ran {
                rc: read(i, "rc").ok().and_then(|s| s.trim().parse().ok()),
                out: read(i, "out").unwrap_or_default(),
                err: read(i, "err").unwrap_or_default(),
                dir: PathBuf::from(read(i, "pwd").unwrap_or_default().trim()),
            })
            .collect()
    }
}

/// The rule for an example of `page`, if any (at most one may match).
fn rule_for(page: &str, example: &Example) -> Option<usize> {
    let text = example.normalized();
    let found: Vec<usize> = RULES
        .iter()
        .enumerate()
        .filter(|(_, (p, command, _))| {
            *p == page
                && match command.strip_suffix(" ...") {
                    Some(start) => text.starts_with(start),
                    None => text == *command,
                }
        })
        .map(|(i, _)| i)
        .collect();
    assert!(
        found.len() <= 1,
        "{}: more than one rule: {found:?}",
        example.place
    );
    found.first().copied()
}

/// `text` with the replacements made; an error names one that is not in it.
fn reduce(text: &str, replacements: &[(&str, &str)]) -> Result<String, String> {
    let mut text = text.to_string();
    for (from, to) in replacements {
        if !text.contains(from) {
            return Err(format!("the rule's `{from}` is not in the command"));
        }
        text = text.replacen(from, to, 1);
    }
    Ok(text)
}

/// The lines a comment says to type: the `quoted` words after `type`.
fn typed(comment: &str) -> Option<String> {
    let (_, rest) = comment.split_once("type ")?;
    let lines: Vec<&str> = rest.split('`').skip(1).step_by(2).collect();
    (!lines.is_empty()).then(|| lines.iter().map(|l| format!("{l}\n")).collect())
}

/// The files a command names as outputs.
fn outputs_named(words: &[String]) -> Vec<String> {
    let mut files = Vec::new();
    let mut exporting = false;
    for (i, word) in words.iter().enumerate() {
        if word.starts_with("--") {
            exporting = word == "--export";
            if matches!(word.as_str(), "--record" | "--chart" | "--live")
                && let Some(file) = words.get(i + 1)
            {
                files.push(file.clone());
            }
        } else if exporting && let Some((_, file)) = word.split_once('=') {
            files.push(file.to_string());
        }
    }
    // A name the shell makes (`shard$k.txt`) is not a file's name here.
    files.retain(|f| !f.contains(['$', '{', '*']));
    files
}

/// The port `tabula gui` serves on by default, from its help.
fn gui_default_port() -> String {
    let out = Command::new(BIN)
        .args(["gui", "--help"])
        .output()
        .expect("gui --help");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("--port"))
        .expect("gui --help names --port");
    line.rsplit_once("[default: ")
        .and_then(|(_, d)| d.strip_suffix(']'))
        .expect("--port has a default")
        .to_string()
}

/// Runs the examples of one page (or help text) and returns what is
/// wrong with them, one message each, and how many were run whole,
/// reduced, parsed, served and left out.
fn replay(name: &str, page: &str, default: How, examples: &[Example]) -> (Vec<String>, [usize; 5]) {
    let mut failures = Vec::new();
    let mut counts = [0; 5];
    let mut steps = Vec::new();
    for (i, example) in examples.iter().enumerate() {
        let how = match rule_for(page, example) {
            Some(rule) => RULES[rule].2,
            None if example.normalized().ends_with(" ...") => {
                How::Parsed("elided (`...`): the rest of the command is left out")
            }
            None => default,
        };
        if let Err(e) = check_claims(example) {
            failures.push(format!("{}: `{}`: {e}", example.place, example.text));
        }
        let parse = |code: &str| -> Step {
            let code = code.strip_suffix(" ...").unwrap_or(code);
            Step {
                example: i,
                code: format!("{code} --help"),
                kind: StepKind::Parse,
                input: None,
            }
        };
        let run = |code: String, kind| Step {
            example: i,
            code,
            kind,
            input: typed(&example.comment),
        };
        match how {
            How::Run => {
                counts[0] += 1;
                steps.push(run(example.text.clone(), StepKind::Run));
            }
            How::Reduced(replacements) | How::Server(replacements) => {
                counts[if matches!(how, How::Reduced(_)) { 1 } else { 3 }] += 1;
                match reduce(&example.text, replacements) {
                    Ok(code) => {
                        let kind = match how {
                            How::Server(_) => StepKind::Server,
                            _ => StepKind::Run,
                        };
                        steps.push(run(code, kind));
                    }
                    Err(e) => failures.push(format!("{}: {e}", example.place)),
                }
                steps.push(parse(&example.text));
            }
            How::Parsed(why) => {
                counts[2] += 1;
                println!(
                    "{}: parsed only ({why}): {}",
                    example.place,
                    example.normalized()
                );
                steps.push(parse(&example.text));
            }
            How::NotRun(why) => {
                counts[4] += 1;
                println!(
                    "{}: not run ({why}): {}",
                    example.place,
                    example.normalized()
                );
            }
        }
        if matches!(how, How::Reduced(_) | How::Server(_) | How::Parsed(_))
            && !shell_words(&example.text)
                .first()
                .is_some_and(|w| is_tabula(w))
        {
            failures.push(format!(
                "{}: only a tabula command can be parsed: `{}`",
                example.place, example.text
            ));
        }
    }
    let sandbox = Sandbox::new(name);
    // The files an example reads that the page describes but does not
    // make: `--config FILE` with the lines its comment quotes.
    for example in examples {
        let words = shell_words(&example.text);
        if let Some(at) = words.iter().position(|w| w == "--config")
            && let Some(file) = words.get(at + 1)
        {
            let lines: Vec<&str> = example.comment.split('"').skip(1).step_by(2).collect();
            let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
            fs::write(sandbox.root.join("work").join(file), text).expect("settings file");
        }
    }
    let ran = sandbox.run(&steps, examples);
    for (step, ran) in steps.iter().zip(&ran) {
        let example = &examples[step.example];
        let what = format!("{}: `{}`", example.place, step.code);
        let mut fail = |why: String| {
            failures.push(format!(
                "{what}: {why}\n--- stdout\n{}\n--- stderr\n{}",
                ran.out.trim_end(),
                ran.err.trim_end()
            ));
        };
        if ran.rc != Some(0) {
            fail(format!("exit status {:?}", ran.rc));
            continue;
        }
        match step.kind {
            StepKind::Parse => {
                if !ran.out.contains("Usage: tabula") {
                    fail("the binary did not read it (no usage printed)".to_string());
                }
                let mut words = shell_words(&example.text);
                if words.last().is_some_and(|w| w == "...") {
                    words.pop();
                }
                if let Err(e) = check_match_words(&words) {
                    fail(format!("tabula match refuses it: {e}"));
                }
            }
            StepKind::Server => {
                let printed = ran
                    .out
                    .lines()
                    .find_map(|l| l.strip_prefix("tabula gui: open "))
                    .map(str::to_string);
                let Some(printed) = printed else {
                    fail("it printed no address".to_string());
                    continue;
                };
                if let Some(said) = example
                    .comment
                    .split_whitespace()
                    .find(|w| w.starts_with("http://"))
                {
                    let port = |url: &str| -> String {
                        url.trim_start_matches("http://")
                            .split(['/', ':'])
                            .nth(1)
                            .unwrap_or_default()
                            .to_string()
                    };
                    let default = gui_default_port();
                    let expected = said.replacen(&port(said), &port(&printed), 1);
                    if expected != printed || port(said) != default {
                        fail(format!(
                            "the page says {said}, the default port is {default}, and it printed {printed}"
                        ));
                    }
                }
            }
            StepKind::Run => {
                if let Some(line) = ran.out.lines().find(|l| l.starts_with('?')) {
                    fail(format!("a command was refused: {line}"));
                }
                let words = shell_words(&step.code);
                for file in outputs_named(&words) {
                    if !ran.dir.join(&file).exists() {
                        fail(format!("it wrote no {file} in {}", ran.dir.display()));
                    }
                }
                if let Some(input) = &step.input {
                    let replies = ran.out.lines().filter(|l| l.starts_with('=')).count();
                    if replies < input.lines().count() {
                        fail(format!("{replies} replies to the lines typed:\n{input}"));
                    }
                }
                if words.iter().any(|w| w == "perft") {
                    let said: Vec<&str> = example.comment.split_whitespace().collect();
                    if let Some(at) = said.iter().position(|w| *w == "leaves")
                        && at > 0
                        && !ran.out.split_whitespace().any(|w| w == said[at - 1])
                    {
                        fail(format!("its comment says {} leaves", said[at - 1]));
                    }
                }
                if let Some(shown) = &example.output
                    && let Err(e) = check_shown(shown, &ran.out)
                {
                    fail(e);
                }
            }
        }
    }
    // Kept when something failed, to look at what the examples wrote.
    if failures.is_empty() {
        let _ = fs::remove_dir_all(&sandbox.root);
    }
    (failures, counts)
}

/// Replays the examples of these sources (page or help text, what a
/// command no rule names gets, its commands) and fails with every
/// problem found; `at_least` guards against a parser that finds nothing.
fn assert_replayed(sources: &[(String, How, Vec<Example>)], at_least: usize) {
    let mut failures = Vec::new();
    let mut counts = [0; 5];
    for (page, default, examples) in sources {
        let name: String = page
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let (found, n) = replay(&name, page, *default, examples);
        failures.extend(found);
        for (total, n) in counts.iter_mut().zip(n) {
            *total += n;
        }
    }
    let total: usize = counts.iter().sum();
    assert!(total >= at_least, "only {total} examples found");
    assert!(
        failures.is_empty(),
        "{} of {total} examples differ from what the binary does:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    // Shown with --nocapture: what was covered, and how.
    println!(
        "{total} examples: {} run, {} reduced, {} parsed, {} served, {} not run",
        counts[0], counts[1], counts[2], counts[3], counts[4]
    );
}

/// The examples of every help text, with what a command no rule names
/// gets (run).
fn help_sources() -> Vec<(String, How, Vec<Example>)> {
    help_texts()
        .into_iter()
        .map(|(place, text)| {
            let commands = help_commands(&place, &text);
            (place, How::Run, commands)
        })
        .collect()
}

/// README.md's and protocol.md's commands.
fn readme_sources() -> Vec<(String, How, Vec<Example>)> {
    ["README.md", "protocol.md"]
        .iter()
        .map(|page| (page.to_string(), How::Run, page_commands(page)))
        .collect()
}

/// The usage pages' commands.
fn docs_sources() -> Vec<(String, How, Vec<Example>)> {
    PAGES
        .iter()
        .map(|(page, default)| (page.to_string(), *default, page_commands(page)))
        .collect()
}

/// The examples the help texts end with (`tabula match --help`'s), run
/// as printed, in a fresh folder where their records and charts land.
#[test]
fn help_examples_run_as_printed() {
    let sources = help_sources();
    let shown: usize = sources.iter().map(|(_, _, e)| e.len()).sum();
    assert_replayed(&sources, shown.max(8));
}

/// README.md's shell commands and protocol.md's console session.
#[test]
fn readme_commands_run_as_shown() {
    assert_replayed(&readme_sources(), 15);
}

/// The shell and console commands of the usage pages of docs/.
#[test]
fn docs_commands_run_or_parse() {
    assert_replayed(&docs_sources(), 30);
}

/// Every rule names an example that exists: a rule whose example changed
/// would otherwise leave the new text run as written, or not at all.
#[test]
fn every_rule_names_an_example() {
    let mut sources = help_sources();
    sources.extend(readme_sources());
    sources.extend(docs_sources());
    for (i, (page, command, _)) in RULES.iter().enumerate() {
        let used = sources
            .iter()
            .filter(|(p, _, _)| p == page)
            .flat_map(|(_, _, examples)| examples)
            .any(|e| rule_for(page, e) == Some(i));
        assert!(used, "no example of {page} is `{command}`");
    }
}
