//! The fuzz harness: the fuzzer's bytes become a command stream for the
//! real session loop ([`tabula::protocol::run`]), in process, and the
//! replies are checked against the protocol's framing.
//!
//! Input layout: byte 0 picks the game (its low 7 bits modulo the number of
//! games; the high bit: see [`Plan::new`]), byte 1 is the seed, the rest is
//! the command stream, one command per `\n`. The harness sends
//! `game <name> seed=<byte 1>` and a small budget first (`set hash 1`,
//! `set memory 16`, `set iterations 20`, `set movetime 10`), so every
//! search ends within milliseconds and reserves little (the MCTS tree
//! reserves its whole cap at its first search, and the sanitizer and
//! libFuzzer's malloc limit see that reservation whole).
//!
//! To keep each input cheap, the harness leaves out (does not send) the
//! few lines that would only make searches long, not different: a `set` of
//! a budget, thread count, table or tree size outside small bounds, a
//! `genmove`/`analyze` whose own budget has no `movetime` of at most 10 ms,
//! and search commands past the 32nd. So every genmove has at most 10 ms
//! (and the settings keep an iteration limit too), and an `analyze`
//! without a budget ends at the next line or the end of the input.
//! Everything else goes through as the fuzzer wrote it: invalid UTF-8,
//! comments, stray `\r`, ids, garbage.
//!
//! Properties checked ([`check`]):
//! - the session does not panic (the fuzz target's panic is the finding);
//! - the output is UTF-8 and nothing but reply blocks: a line `=[id] text`
//!   or `?[id] message`, then more lines, then one empty line; `analyze`'s
//!   block holds only `info ` lines after its `=` line;
//! - exactly one reply per command line sent (not blank, not a comment,
//!   including lines that are not UTF-8), up to and including `quit`;
//! - a reply carries the id its command line started with;
//! - the session ends as it should (`quit` or the end of the input);
//! - nothing is written to the process's stdout behind the session's back
//!   (see [`stdout_guard`]).

use std::io::Cursor;

use tabula::engine::{BudgetOverride, Engine};
use tabula::games::GAMES;
use tabula::protocol::Ending;
use tabula::protocol::command::{Command, parse_line};
use tabula::protocol::input::MAX_LINE;

/// Search commands (genmove, analyze) sent per input at most.
const MAX_SEARCHES: usize = 32;

/// What one command line should get back.
#[derive(Debug)]
struct Expected {
    /// The id the reply must carry, when the line plainly starts with one.
    id: Option<u64>,
    /// Whether the reply is an `analyze` stream.
    analyze: bool,
    /// The line, for messages.
    line: String,
}

/// The command stream built from the fuzzer's bytes, and what it should
/// get back.
pub struct Plan {
    /// The bytes sent to the session.
    pub input: Vec<u8>,
    expected: Vec<Expected>,
    quits: bool,
    seed: u64,
}

/// How the reader sees one line (see `tabula::protocol::input`).
enum Seen<'a> {
    /// Blank or a comment: no reply.
    Nothing,
    /// Over the length limit or not UTF-8: one `?` reply.
    Refused,
    /// A command line, comment removed.
    Command(&'a str),
}

fn seen(raw: &[u8]) -> Seen<'_> {
    if raw.len() > MAX_LINE {
        return Seen::Refused;
    }
    let Ok(text) = std::str::from_utf8(raw) else {
        return Seen::Refused;
    };
    let text = text.trim_end_matches('\r');
    if text.trim_start().starts_with('#') {
        return Seen::Nothing;
    }
    let text = text.split('#').next().unwrap_or("").trim_end();
    if text.trim().is_empty() {
        Seen::Nothing
    } else {
        Seen::Command(text)
    }
}

/// The id a line plainly starts with: digits, a space or tab, then a
/// command name character. (Other shapes may or may not carry an id; they
/// are not checked.)
fn plain_id(text: &str) -> Option<u64> {
    let t = text.trim_start_matches([' ', '\t']);
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &t[digits..];
    let after = rest.trim_start_matches([' ', '\t']);
    if digits == 0 || after.len() == rest.len() {
        return None;
    }
    let named = after
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    if named {
        t[..digits].parse().ok()
    } else {
        None
    }
}

/// Whether a `set` keeps searches cheap.
fn cheap_setting(name: &str, value: &str) -> bool {
    let v = value.parse::<u64>();
    match name.to_ascii_lowercase().as_str() {
        "iterations" => v.is_ok_and(|n| (1..=200).contains(&n)),
        "movetime" => v.is_ok_and(|n| (1..=10).contains(&n)),
        "threads" => v.is_ok_and(|n| n <= 2),
        "hash" => v.is_ok_and(|n| n <= 4),
        "memory" => v.is_ok_and(|n| n <= 64),
        _ => true,
    }
}

/// Whether a budget given with a search command keeps it cheap.
fn cheap_budget(b: &BudgetOverride) -> bool {
    *b == BudgetOverride::default() || b.movetime.is_some_and(|ms| ms <= 10)
}

impl Plan {
    /// Builds the stream from the fuzzer's bytes.
    pub fn new(data: &[u8]) -> Plan {
        let first = data.first().copied().unwrap_or(0);
        let game = GAMES
            .get((first & 0x7f) as usize % GAMES.len().max(1))
            .map_or("othello", |g| g.name);
        // With the high bit of byte 0 set, the stream ends as the fuzzer
        // wrote it (an `analyze` may be the last line); otherwise a last
        // `name` checks that the session still answers.
        let open_end = first & 0x80 != 0;
        let seed = data.get(1).copied().unwrap_or(0) as u64;
        let body = data.get(2..).unwrap_or(&[]);
        let mut plan = Plan {
            input: Vec::new(),
            expected: Vec::new(),
            quits: false,
            seed,
        };
        for line in [
            format!("game {game} seed={seed}"),
            "set hash 1".into(),
            "set memory 16".into(),
            "set iterations 20".into(),
            "set movetime 10".into(),
        ] {
            plan.send(line.as_bytes());
        }
        let mut searches = 0;
        for raw in body.split(|&b| b == b'\n') {
            if plan.quits {
                // Sent, but never read: the session has ended.
                plan.input.extend_from_slice(raw);
                plan.input.push(b'\n');
                continue;
            }
            if let Seen::Command(text) = seen(raw) {
                match parse_line(text).command {
                    Ok(Command::Set { name, value }) if !cheap_setting(&name, &value) => continue,
                    Ok(Command::Genmove { budget, .. } | Command::Analyze { budget, .. }) => {
                        searches += 1;
                        if searches > MAX_SEARCHES || !cheap_budget(&budget) {
                            continue;
                        }
                    }
                    _ => {}
                }
            }
            plan.send(raw);
        }
        if !plan.quits && !open_end {
            plan.send(b"4242 name");
        }
        plan
    }

    fn send(&mut self, raw: &[u8]) {
        self.input.extend_from_slice(raw);
        self.input.push(b'\n');
        match seen(raw) {
            Seen::Nothing => {}
            Seen::Refused => self.expected.push(Expected {
                id: None,
                analyze: false,
                line: String::from_utf8_lossy(raw).into_owned(),
            }),
            Seen::Command(text) => {
                let command = parse_line(text).command;
                self.quits = matches!(command, Ok(Command::Quit));
                self.expected.push(Expected {
                    id: plain_id(text),
                    analyze: matches!(command, Ok(Command::Analyze { .. })),
                    line: text.to_string(),
                });
            }
        }
    }

    /// Runs the session on the stream and checks its output.
    pub fn run(&self) -> Result<(), String> {
        let engine = Engine::new(self.seed).map_err(|e| format!("engine: {e}"))?;
        let mut out = Vec::new();
        let ending = tabula::protocol::run(Cursor::new(self.input.clone()), &mut out, engine);
        let want = if self.quits {
            Ending::Quit
        } else {
            Ending::EndOfInput
        };
        if ending != want {
            return Err(format!("session ended with {ending:?}, expected {want:?}"));
        }
        let text = String::from_utf8(out).map_err(|e| format!("output is not UTF-8: {e}"))?;
        let replies = blocks(&text)?;
        if replies.len() != self.expected.len() {
            return Err(format!(
                "{} replies to {} command lines\ncommands: {:#?}\nreplies: {replies:#?}",
                replies.len(),
                self.expected.len(),
                self.expected.iter().map(|e| &e.line).collect::<Vec<_>>()
            ));
        }
        for (reply, want) in replies.iter().zip(&self.expected) {
            check_reply(reply, want)?;
        }
        Ok(())
    }
}

/// Splits the output into reply blocks: a head line, body lines, an empty
/// line. Anything else is output that is not the protocol's.
fn blocks(text: &str) -> Result<Vec<Vec<&str>>, String> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let Some(body) = text.strip_suffix("\n\n") else {
        return Err(format!("output does not end with an empty line: {text:?}"));
    };
    body.split("\n\n")
        .map(|block| {
            let lines: Vec<&str> = block.split('\n').collect();
            if lines.iter().skip(1).any(|l| l.is_empty()) {
                return Err(format!("empty line inside a reply: {block:?}"));
            }
            Ok(lines)
        })
        .collect()
}

fn check_reply(reply: &[&str], want: &Expected) -> Result<(), String> {
    let head = reply.first().copied().unwrap_or("");
    let mark = head.chars().next();
    if !matches!(mark, Some('=' | '?')) {
        return Err(format!("not a reply: {reply:?} (to `{}`)", want.line));
    }
    let rest = &head[1..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let after = &rest[digits..];
    if !(after.is_empty() || after.starts_with(' ')) {
        return Err(format!(
            "malformed reply head {head:?} (to `{}`)",
            want.line
        ));
    }
    let id = rest[..digits].parse::<u64>().ok();
    if want.id.is_some() && id != want.id {
        return Err(format!(
            "reply {head:?} does not carry id {:?} of `{}`",
            want.id, want.line
        ));
    }
    if want.analyze && mark == Some('=') {
        if !after.is_empty() {
            return Err(format!("analyze head with text: {head:?}"));
        }
        if let Some(bad) = reply.iter().skip(1).find(|l| !l.starts_with("info ")) {
            return Err(format!("analyze line {bad:?} is not an info line"));
        }
    }
    Ok(())
}

/// Redirects the process's stdout into a pipe (once) so that whatever a
/// session writes there behind the protocol's back can be read back, and
/// returns what was written since the last call.
pub fn stdout_guard() -> Vec<u8> {
    use std::io::Write;
    use std::sync::OnceLock;
    static READ_END: OnceLock<i32> = OnceLock::new();
    let fd = *READ_END.get_or_init(|| {
        let mut fds = [0i32; 2];
        // SAFETY: pipe writes two descriptors into the array we pass;
        // dup2 and fcntl act on descriptors this process owns.
        unsafe {
            if libc::pipe(fds.as_mut_ptr()) != 0 {
                return -1;
            }
            libc::dup2(fds[1], 1);
            libc::fcntl(fds[0], libc::F_SETFL, libc::O_NONBLOCK);
        }
        fds[0]
    });
    let _ = std::io::stdout().flush();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        // SAFETY: reads into a buffer we own, at most its length.
        let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        if n <= 0 {
            return got;
        }
        got.extend_from_slice(&buf[..n as usize]);
    }
}

/// Runs one input; the error says which property failed.
pub fn check(data: &[u8]) -> Result<(), String> {
    stdout_guard();
    let result = Plan::new(data).run();
    let stray = stdout_guard();
    if !stray.is_empty() {
        return Err(format!(
            "wrote to stdout outside the session: {:?}",
            String::from_utf8_lossy(&stray)
        ));
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_ids() {
        assert_eq!(plain_id("12 name"), Some(12));
        assert_eq!(plain_id(" 7\tplay d3"), Some(7));
        assert_eq!(plain_id("12"), None);
        assert_eq!(plain_id("12 #"), None);
        assert_eq!(plain_id("name"), None);
    }

    #[test]
    fn blocks_and_heads() {
        assert_eq!(blocks("= a\n\n?3 b\n\n").map(|b| b.len()), Ok(2));
        assert!(blocks("= a\n").is_err());
        let e = Expected {
            id: Some(3),
            analyze: false,
            line: "3 name".into(),
        };
        assert!(check_reply(&["=3 tabula"], &e).is_ok());
        assert!(check_reply(&["= tabula"], &e).is_err());
        assert!(check_reply(&["tabula"], &e).is_err());
    }

    #[test]
    fn a_plain_stream_passes_and_counts_its_lines() {
        let mut data = vec![0u8, 1];
        data.extend_from_slice(b"# c\n\nname\ngenmove\n\xff\nlegal_moves\n");
        let plan = Plan::new(&data);
        // 5 prelude lines, name, genmove, the bad bytes, legal_moves, the last name.
        assert_eq!(plan.expected.len(), 10);
        assert_eq!(plan.run(), Ok(()));
    }

    #[test]
    fn expensive_lines_are_left_out() {
        let plan = Plan::new(
            b"\x00\x00set movetime 100000\nset memory 4096\ngenmove iterations=99999\nquit\nname",
        );
        // The prelude and quit.
        assert_eq!(plan.expected.len(), 6);
        assert!(plan.quits);
    }
}
