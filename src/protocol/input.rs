//! The reader: turns the input stream into lines, on its own thread, so
//! that `stop` reaches a running search.
//!
//! Lines longer than [`MAX_LINE`] are refused without being kept whole,
//! lines that are not UTF-8 are refused, comments (`#` to the end of the
//! line) and blank lines are dropped. Every line carries a cancel flag:
//! `stop` (or GoGui's `# interrupt`) raises the flag of the command read
//! before it, whether that command is queued, running or done, so a stop
//! can never be lost to a race with the start of a search. A command read
//! after an `analyze` raises that analysis' flag too, ending the stream, and
//! so does the end of the input.
//!
//! Each line is numbered, and stamped with how long the reader waited
//! for it ([`Read::waited`]): a line (or the end of the input) the reader
//! had to wait for is the client's later write, and the hub
//! ([`crate::protocol::serve`]) lets it stop a search; a line that came
//! with the one before it (a script's lines sent at once) waits its turn,
//! whatever the threads' timing.

use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::SyncSender;
use std::time::Instant;

use crate::protocol::command::{Command, leading_id, parse_line};
use crate::protocol::dialect::Protocol;

/// The longest line accepted, in bytes.
pub const MAX_LINE: usize = 64 * 1024;

/// What the reader hands to the session.
#[derive(Debug)]
pub enum Input {
    /// A line (comments removed, not blank).
    Line {
        /// The line's text.
        text: String,
        /// Raised by the `stop` read after this line (or, after an
        /// `analyze`, by any later line or the end of input).
        cancel: Arc<AtomicBool>,
        /// When the line was read: a budget's time runs from here.
        at: Instant,
    },
    /// A line over [`MAX_LINE`] bytes; its id if it started with one.
    TooLong(Option<u64>),
    /// A line that is not UTF-8.
    NotUtf8,
    /// The end of the input (or a read error): nothing follows.
    End,
}

/// What the reader sends: an input, its number and when, in the
/// session's count, it was read.
#[derive(Debug)]
pub struct Read {
    /// The input.
    pub input: Input,
    /// Its number, from 1, in the order read.
    pub seq: u64,
    /// How many lines before this one the session had not yet taken to
    /// run when it was read: 0, it arrived while the last one taken ran
    /// (or while the session waited).
    pub behind: u64,
    /// How long the reader waited for it, blocked on the input: nothing
    /// for a line that came with the one before it (a script's lines
    /// sent at once, and the end after them); a client's later write, or
    /// its closing the input, was waited for.
    pub waited: std::time::Duration,
}

impl Input {
    /// The line's text, its cancel flag and when it was read; or why it
    /// was refused as it was read, for the dialects without line ids
    /// (NBoard, UGI) to report in their own form.
    pub fn into_line(self) -> Result<(String, Arc<AtomicBool>, Instant), String> {
        match self {
            Input::Line { text, cancel, at } => Ok((text, cancel, at)),
            Input::TooLong(_) => Err(format!("line too long (over {MAX_LINE} bytes)")),
            Input::NotUtf8 => Err("input is not valid UTF-8".to_string()),
            Input::End => Err("the input has ended".to_string()),
        }
    }
}

/// Reads one raw line into `buf` (without its newline, or its CRLF),
/// keeping at most `MAX_LINE + 2` bytes. Returns `None` at end of input,
/// otherwise whether the line was over [`MAX_LINE`] bytes: the limit is
/// on the line's text, whichever line ending it has.
/// The time spent waiting for the line's first byte (or the end) is
/// added to `waited`: nothing for a line already read into the buffer.
fn read_raw<R: BufRead>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    waited: &mut std::time::Duration,
) -> std::io::Result<Option<bool>> {
    buf.clear();
    let mut cut = false;
    let mut any = false;
    loop {
        let asked = Instant::now();
        let chunk = reader.fill_buf()?;
        if !any {
            *waited += asked.elapsed();
        }
        if chunk.is_empty() {
            // A last line with no newline is held to the same limit.
            return Ok(any.then(|| over_limit(buf, cut)));
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        // Room for a line one byte too long, and its CR.
        let room = (MAX_LINE + 2).saturating_sub(buf.len());
        if part.len() > room {
            cut = true;
        }
        buf.extend_from_slice(&part[..part.len().min(room)]);
        let used = done.unwrap_or(chunk.len());
        reader.consume(used);
        if done.is_some() {
            return Ok(Some(over_limit(buf, cut)));
        }
    }
}

/// Drops the CR of a CRLF ending from `buf`, and tells whether the line
/// is over [`MAX_LINE`] bytes (`cut`: more was read than kept).
fn over_limit(buf: &mut Vec<u8>, cut: bool) -> bool {
    if !cut && buf.last() == Some(&b'\r') {
        buf.pop();
    }
    cut || buf.len() > MAX_LINE
}

/// Lines read ahead of the command running, at most: a peer that writes
/// without reading replies is held back by the pipe, not buffered.
pub const QUEUE: usize = 256;

/// How a line acts on the command before it.
enum Kind {
    /// `stop`, exactly (a refused `stop x` stops nothing).
    Stop,
    /// An `analyze` with no budget: any later line ends it.
    Streaming,
    /// Answered where it stands (UGI's `isready`): the command before it
    /// stays the one a `stop` stops.
    Transparent,
    /// Anything else.
    Plain,
}

fn kind(protocol: Protocol, text: &str) -> Kind {
    if protocol != Protocol::Gtp {
        return if protocol.stops(text) {
            Kind::Stop
        } else if protocol.transparent(text) {
            Kind::Transparent
        } else {
            Kind::Plain
        };
    }
    match parse_line(text).command {
        Ok(Command::Stop) => Kind::Stop,
        Ok(Command::Analyze { budget, .. }) if budget.is_empty() => Kind::Streaming,
        _ => Kind::Plain,
    }
}

/// Reads `reader` to its end, sending lines to `out`, then
/// [`Input::End`]. Runs on its own thread.
pub fn read_lines<R: BufRead>(reader: R, out: SyncSender<Read>) {
    read_protocol_lines(reader, out, Protocol::Gtp, &AtomicU64::new(0));
}

/// [`read_lines`] for a session that starts in `protocol`; a GTP session
/// whose first line enters another protocol (`nboard 2`, `ugi`) is read as
/// that protocol from there on. `taken` is the number of the last line
/// the session has taken to run, which each line read is stamped with.
pub fn read_protocol_lines<R: BufRead>(
    mut reader: R,
    out: SyncSender<Read>,
    mut protocol: Protocol,
    taken: &AtomicU64,
) {
    let mut seq: u64 = 0;
    // The time the reader waited for input since the last item it sent.
    let mut waited = std::time::Duration::ZERO;
    let send = |input: Input, seq: &mut u64, waited: &mut std::time::Duration| {
        *seq += 1;
        let behind = (*seq - 1).saturating_sub(taken.load(Ordering::Acquire));
        let read = Read {
            input,
            seq: *seq,
            behind,
            waited: std::mem::take(waited),
        };
        out.send(read).is_ok()
    };
    let mut first = true;
    let mut buf = Vec::new();
    // The cancel flag of the last command read, and whether it streams.
    let mut last: Option<(Arc<AtomicBool>, bool)> = None;
    let end_stream = |last: &Option<(Arc<AtomicBool>, bool)>| {
        if let Some((flag, true)) = last {
            flag.store(true, Ordering::Relaxed);
        }
    };
    loop {
        let cut = match read_raw(&mut reader, &mut buf, &mut waited) {
            Ok(Some(cut)) => cut,
            Ok(None) | Err(_) => {
                // No command will ever come to end a running analysis:
                // the end of the input ends it.
                end_stream(&last);
                send(Input::End, &mut seq, &mut waited);
                return;
            }
        };
        if cut {
            // A bad line ends a running analysis, as any line does.
            end_stream(&last);
            let head = String::from_utf8_lossy(&buf[..buf.len().min(32)]).into_owned();
            if !send(Input::TooLong(leading_id(&head)), &mut seq, &mut waited) {
                return;
            }
            continue;
        }
        let Ok(text) = std::str::from_utf8(&buf) else {
            end_stream(&last);
            if !send(Input::NotUtf8, &mut seq, &mut waited) {
                return;
            }
            continue;
        };
        let text = text.trim_end_matches('\r');
        if std::mem::take(&mut first)
            && protocol == Protocol::Gtp
            && let Some(entered) = Protocol::entered_by(text)
        {
            protocol = entered;
        }
        // `#` comments are GTP's (a GGF game may hold a `#`).
        if protocol == Protocol::Gtp && text.trim_start().starts_with('#') {
            if text.trim().eq_ignore_ascii_case("# interrupt")
                && let Some((flag, _)) = &last
            {
                flag.store(true, Ordering::Relaxed);
            }
            continue;
        }
        let text = if protocol == Protocol::Gtp {
            text.split('#').next().unwrap_or("").trim_end()
        } else {
            text.trim_end()
        };
        if text.trim().is_empty() {
            continue;
        }
        let at = Instant::now();
        let kind = kind(protocol, text);
        if let Some((flag, streaming)) = &last
            && (*streaming || matches!(kind, Kind::Stop))
        {
            flag.store(true, Ordering::Relaxed);
        }
        let cancel = Arc::new(AtomicBool::new(false));
        if !matches!(kind, Kind::Stop | Kind::Transparent) {
            last = Some((cancel.clone(), matches!(kind, Kind::Streaming)));
        }
        if !send(
            Input::Line {
                text: text.to_string(),
                cancel,
                at,
            },
            &mut seq,
            &mut waited,
        ) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::sync_channel;

    fn lines(input: &[u8]) -> Vec<Input> {
        let (tx, rx) = sync_channel(1024);
        read_lines(input, tx);
        let mut got: Vec<Input> = rx.into_iter().map(|r| r.input).collect();
        assert!(
            matches!(got.pop(), Some(Input::End)),
            "the end is sent last"
        );
        got
    }

    /// Each input's text (a line's own, else its `Debug` form) and
    /// whether its stop flag is raised (never for a non-line).
    fn texts_and_flags(got: &[Input]) -> (Vec<String>, Vec<bool>) {
        got.iter()
            .map(|i| match i {
                Input::Line { text, cancel, .. } => (text.clone(), cancel.load(Ordering::Relaxed)),
                other => (format!("{other:?}"), false),
            })
            .unzip()
    }

    #[test]
    fn comments_blank_lines_and_crlf() {
        let got = lines(b"# hello\n\nname # trailing\r\n  \n1 version");
        assert_eq!(texts_and_flags(&got).0, vec!["name", "1 version"]);
    }

    #[test]
    fn overlong_and_bad_utf8_lines_are_flagged_and_reading_goes_on() {
        let mut input = b"5 play ".to_vec();
        input.extend(std::iter::repeat_n(b'x', 3 * MAX_LINE));
        input.extend_from_slice(b"\n\xff\xfe\nname\n");
        let got = lines(&input);
        assert!(matches!(got[0], Input::TooLong(Some(5))));
        assert!(matches!(got[1], Input::NotUtf8));
        assert!(matches!(&got[2], Input::Line { text, .. } if text == "name"));
    }

    #[test]
    fn the_limit_is_on_the_text_whatever_the_line_ending() {
        for ending in ["\n", "\r\n", ""] {
            let mut input = b"name ".to_vec();
            input.extend(std::iter::repeat_n(b' ', MAX_LINE - 5));
            input.extend_from_slice(ending.as_bytes());
            let got = lines(&input);
            assert!(
                matches!(&got[..], [Input::Line { text, .. }] if text == "name"),
                "{ending:?}: {got:?}"
            );
            let mut input = b"7 name ".to_vec();
            input.extend(std::iter::repeat_n(b' ', MAX_LINE - 6));
            input.extend_from_slice(ending.as_bytes());
            let got = lines(&input);
            assert!(
                matches!(&got[..], [Input::TooLong(Some(7))]),
                "{ending:?}: {got:?}"
            );
        }
    }

    #[test]
    fn stop_raises_the_flag_of_the_command_before_it() {
        let got = lines(b"genmove\nstop\nname\n");
        assert_eq!(texts_and_flags(&got).1, vec![true, false, false]);
    }

    #[test]
    fn the_end_of_the_input_ends_an_analysis_but_not_a_genmove() {
        let got = lines(b"analyze");
        assert!(matches!(&got[0], Input::Line { cancel, .. } if cancel.load(Ordering::Relaxed)));
        let got = lines(b"genmove\n");
        assert!(matches!(&got[0], Input::Line { cancel, .. } if !cancel.load(Ordering::Relaxed)));
    }

    #[test]
    fn a_line_protocol_keeps_its_hashes_and_stops_on_its_own_words() {
        let got = lines(b"nboard 2\ngo\nset game (;C[#1];)\nhint 1\nping 1\n");
        let (texts, stopped) = texts_and_flags(&got);
        assert_eq!(texts[2], "set game (;C[#1];)");
        // `ping` stops the hint before it, nothing else.
        assert_eq!(stopped, vec![false, false, false, true, false]);
        let got = lines(b"ugi\ngo infinite\nstop\n");
        assert!(matches!(&got[1], Input::Line { cancel, .. } if cancel.load(Ordering::Relaxed)));
    }

    #[test]
    fn any_command_ends_an_analysis() {
        let got = lines(b"analyze\nname\n");
        assert!(matches!(&got[0], Input::Line { cancel, .. } if cancel.load(Ordering::Relaxed)));
    }
}
