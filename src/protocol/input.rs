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

use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;

use crate::protocol::command::peek_name;

/// The longest line accepted, in bytes.
pub const MAX_LINE: usize = 64 * 1024;

/// What the reader hands to the session.
#[derive(Debug)]
pub enum Input {
    /// A line (comments removed, not blank).
    Line {
        text: String,
        cancel: Arc<AtomicBool>,
    },
    /// A line over [`MAX_LINE`] bytes; its id if it started with one.
    TooLong(Option<u64>),
    /// A line that is not UTF-8.
    NotUtf8,
}

/// Reads one raw line into `buf`, keeping at most `MAX_LINE + 1` bytes.
/// Returns `None` at end of input, otherwise whether the line was cut.
fn read_raw<R: BufRead>(reader: &mut R, buf: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    buf.clear();
    let mut cut = false;
    let mut any = false;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(if any { Some(cut) } else { None });
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        let room = (MAX_LINE + 1).saturating_sub(buf.len());
        if part.len() > room {
            cut = true;
        }
        buf.extend_from_slice(&part[..part.len().min(room)]);
        let used = done.unwrap_or(chunk.len());
        reader.consume(used);
        if done.is_some() {
            return Ok(Some(cut || buf.len() > MAX_LINE));
        }
    }
}

/// Reads `reader` to its end, sending lines to `out`. Runs on its own thread.
pub fn read_lines<R: BufRead>(mut reader: R, out: Sender<Input>) {
    let mut buf = Vec::new();
    // The cancel flag of the last command read, and whether it streams.
    let mut last: Option<(Arc<AtomicBool>, bool)> = None;
    loop {
        let cut = match read_raw(&mut reader, &mut buf) {
            Ok(Some(cut)) => cut,
            Ok(None) | Err(_) => {
                // No command will ever come to end a running analysis:
                // the end of the input ends it.
                if let Some((flag, true)) = &last {
                    flag.store(true, Ordering::Relaxed);
                }
                return;
            }
        };
        if cut {
            let head = String::from_utf8_lossy(&buf[..buf.len().min(32)]).into_owned();
            let id = head.split_whitespace().next().and_then(|w| w.parse().ok());
            if out.send(Input::TooLong(id)).is_err() {
                return;
            }
            continue;
        }
        let Ok(text) = std::str::from_utf8(&buf) else {
            if out.send(Input::NotUtf8).is_err() {
                return;
            }
            continue;
        };
        let text = text.trim_end_matches('\r');
        if text.trim_start().starts_with('#') {
            if text.trim().eq_ignore_ascii_case("# interrupt")
                && let Some((flag, _)) = &last
            {
                flag.store(true, Ordering::Relaxed);
            }
            continue;
        }
        let text = text.split('#').next().unwrap_or("").trim_end();
        if text.trim().is_empty() {
            continue;
        }
        let name = peek_name(text).map(|(_, n)| n).unwrap_or_default();
        if let Some((flag, streaming)) = &last
            && (*streaming || name == "stop")
        {
            flag.store(true, Ordering::Relaxed);
        }
        let cancel = Arc::new(AtomicBool::new(false));
        if name != "stop" {
            last = Some((cancel.clone(), name == "analyze"));
        }
        if out
            .send(Input::Line {
                text: text.to_string(),
                cancel,
            })
            .is_err()
        {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    fn lines(input: &[u8]) -> Vec<Input> {
        let (tx, rx) = channel();
        read_lines(input, tx);
        rx.into_iter().collect()
    }

    #[test]
    fn comments_blank_lines_and_crlf() {
        let got = lines(b"# hello\n\nname # trailing\r\n  \n1 version");
        let texts: Vec<_> = got
            .iter()
            .map(|i| match i {
                Input::Line { text, .. } => text.clone(),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(texts, vec!["name", "1 version"]);
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
    fn stop_raises_the_flag_of_the_command_before_it() {
        let got = lines(b"genmove\nstop\nname\n");
        let flags: Vec<bool> = got
            .iter()
            .map(|i| match i {
                Input::Line { cancel, .. } => cancel.load(Ordering::Relaxed),
                _ => false,
            })
            .collect();
        assert_eq!(flags, vec![true, false, false]);
    }

    #[test]
    fn the_end_of_the_input_ends_an_analysis_but_not_a_genmove() {
        let got = lines(b"analyze");
        assert!(matches!(&got[0], Input::Line { cancel, .. } if cancel.load(Ordering::Relaxed)));
        let got = lines(b"genmove\n");
        assert!(matches!(&got[0], Input::Line { cancel, .. } if !cancel.load(Ordering::Relaxed)));
    }

    #[test]
    fn any_command_ends_an_analysis() {
        let got = lines(b"analyze\nname\n");
        assert!(matches!(&got[0], Input::Line { cancel, .. } if cancel.load(Ordering::Relaxed)));
    }
}
