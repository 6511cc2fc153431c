//! A game's transcript held in one piece: its lines as one text, each
//! followed by its line end, either its own or a part of the record
//! file's text that every game read from that file shares.
//!
//! A record of 160,000 Othello games holds ten million transcript lines:
//! as one `String` a line they took 7.7 times the file's size in memory
//! (each line's allocation and its 24-byte header outweigh its dozen
//! bytes of text). Read from a file, a game's lines are where the file
//! holds them, one after the other: the transcript is then that part of
//! the file's text, which the record keeps once for all its games, and
//! reading a record copies no line. A transcript built line by line (by
//! the runner) or read from lines the file does not hold as they are
//! (spaces around them, empty lines or comments between them) holds its
//! own text.

use std::fmt;
use std::ops::Index;
use std::sync::Arc;

/// A game's transcript: its lines in order (see the module's text).
#[derive(Clone, Default)]
pub struct Transcript {
    text: Text,
    /// The number of lines.
    len: usize,
}

/// Where a transcript's lines are: each is followed by `\n`.
#[derive(Clone)]
enum Text {
    /// Its own text.
    Own(String),
    /// `file[start..end]`, a part of a record file's text.
    Shared {
        file: Arc<String>,
        start: usize,
        end: usize,
    },
}

impl Default for Text {
    fn default() -> Text {
        Text::Own(String::new())
    }
}

impl Transcript {
    /// A transcript without lines.
    pub fn new() -> Transcript {
        Transcript::default()
    }

    /// The number of lines.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it has no line.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The lines with their line ends (`\n` after each): as the record
    /// file holds them.
    pub fn text(&self) -> &str {
        match &self.text {
            Text::Own(text) => text,
            Text::Shared { file, start, end } => file.get(*start..*end).unwrap_or(""),
        }
    }

    /// The lines, in order.
    pub fn lines(&self) -> Lines<'_> {
        Lines(self.text().split_terminator('\n'))
    }

    /// The lines, in order (as [`Transcript::lines`]).
    pub fn iter(&self) -> Lines<'_> {
        self.lines()
    }

    /// Line `i` (from 0), if there is one: found by reading the lines
    /// before it.
    pub fn get(&self, i: usize) -> Option<&str> {
        self.lines().nth(i)
    }

    /// The first line (the `game` command of a game's transcript).
    pub fn first(&self) -> Option<&str> {
        self.lines().next()
    }

    /// The last line.
    pub fn last(&self) -> Option<&str> {
        self.lines().next_back()
    }

    /// The lines that start with `#` (the notes of a restarted engine, of
    /// one that reported no scores), found by looking for `#` in the text
    /// rather than line by line: the report asks every game for them.
    pub fn notes(&self) -> impl Iterator<Item = &str> {
        let text = self.text();
        text.match_indices('#')
            .filter(move |&(at, _)| at == 0 || text.as_bytes().get(at - 1) == Some(&b'\n'))
            .map(move |(at, _)| {
                let line = &text[at..];
                line.find('\n').map_or(line, |end| &line[..end])
            })
    }

    /// Whether a line is `line`.
    pub fn contains(&self, line: &str) -> bool {
        self.lines().any(|l| l == line)
    }

    /// The lines as strings of their own.
    pub fn to_vec(&self) -> Vec<String> {
        self.lines().map(str::to_string).collect()
    }

    /// Adds a line at the end. A line that holds line breaks is held as
    /// the lines it is made of, as the record file would hold it (so that
    /// the file's `lines=` counts what it holds).
    pub fn push(&mut self, line: &str) {
        let mut own = match std::mem::take(&mut self.text) {
            Text::Own(text) => text,
            Text::Shared { file, start, end } => file.get(start..end).unwrap_or("").to_string(),
        };
        own.push_str(line);
        own.push('\n');
        self.text = Text::Own(own);
        self.len += 1 + line.matches('\n').count();
    }

    /// Replaces each line for which `f` gives a new one.
    pub fn replace_lines(&mut self, mut f: impl FnMut(&str) -> Option<String>) {
        let mut changed = Transcript::new();
        let mut any = false;
        for line in self.lines() {
            match f(line) {
                Some(new) => {
                    any = true;
                    changed.push(&new);
                }
                None => changed.push(line),
            }
        }
        if any {
            *self = changed;
        }
    }

    /// Adds the line that the record file holds at `file[start..]`, up to
    /// its `\n` (which the caller has checked is there, and that the line
    /// is as it is kept): shared with the file where it follows the lines
    /// already shared, copied otherwise.
    pub(crate) fn push_from_file(&mut self, file: &Arc<String>, start: usize, line: &str) {
        let end = start + line.len() + 1;
        match &mut self.text {
            Text::Own(text) if text.is_empty() => {
                self.text = Text::Shared {
                    file: Arc::clone(file),
                    start,
                    end,
                };
                self.len = 1;
            }
            Text::Shared {
                file: shared,
                end: shared_end,
                ..
            } if Arc::ptr_eq(shared, file) && *shared_end == start => {
                *shared_end = end;
                self.len += 1;
            }
            _ => self.push(line),
        }
    }
}

impl PartialEq for Transcript {
    fn eq(&self, other: &Transcript) -> bool {
        self.len == other.len && self.text() == other.text()
    }
}

impl Eq for Transcript {}

impl fmt::Debug for Transcript {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.lines()).finish()
    }
}

impl Index<usize> for Transcript {
    type Output = str;

    /// Line `i`; panics where there is none, as a `Vec` does (see
    /// [`Transcript::get`]).
    fn index(&self, i: usize) -> &str {
        match self.get(i) {
            Some(line) => line,
            None => panic!("line {i} of a transcript of {} lines asked for", self.len),
        }
    }
}

impl<S: AsRef<str>> FromIterator<S> for Transcript {
    fn from_iter<I: IntoIterator<Item = S>>(lines: I) -> Transcript {
        let mut t = Transcript::new();
        t.extend(lines);
        t
    }
}

impl<S: AsRef<str>> Extend<S> for Transcript {
    fn extend<I: IntoIterator<Item = S>>(&mut self, lines: I) {
        for line in lines {
            self.push(line.as_ref());
        }
    }
}

impl From<Vec<String>> for Transcript {
    fn from(lines: Vec<String>) -> Transcript {
        lines.into_iter().collect()
    }
}

impl<'a> IntoIterator for &'a Transcript {
    type Item = &'a str;
    type IntoIter = Lines<'a>;

    fn into_iter(self) -> Lines<'a> {
        self.lines()
    }
}

/// The lines of a [`Transcript`].
#[derive(Clone, Debug)]
pub struct Lines<'a>(std::str::SplitTerminator<'a, char>);

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        self.0.next()
    }
}

impl DoubleEndedIterator for Lines<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_pushed_read_back() {
        let mut t = Transcript::new();
        assert!(t.is_empty());
        t.push("game othello");
        t.push("play black d3");
        assert_eq!(t.len(), 2);
        assert_eq!(t.to_vec(), ["game othello", "play black d3"]);
        assert_eq!(t.text(), "game othello\nplay black d3\n");
        assert_eq!(
            (&t[1], t.first(), t.last()),
            ("play black d3", Some("game othello"), Some("play black d3"))
        );
        assert!(t.contains("game othello") && !t.contains("game"));
        assert_eq!(t.notes().count(), 0);
        t.push("# restart engine=a#b");
        t.push("play white #");
        t.push("#");
        assert_eq!(t.notes().collect::<Vec<_>>(), ["# restart engine=a#b", "#"]);
        // A line break makes two lines, as the file would hold them.
        t.push("a\nb");
        assert_eq!(t.len(), 7);
        assert_eq!(t.lines().count(), 7);
        // An empty line is a line.
        t.push("");
        assert_eq!((t.len(), t.lines().count()), (8, 8));
    }

    #[test]
    fn lines_of_a_file_are_shared_while_they_follow_each_other() {
        let file = Arc::new("head\ngame x\nplay a 1\n\nplay b 2\n".to_string());
        let mut t = Transcript::new();
        t.push_from_file(&file, 5, "game x");
        t.push_from_file(&file, 12, "play a 1");
        assert!(matches!(
            t.text,
            Text::Shared {
                start: 5,
                end: 21,
                ..
            }
        ));
        assert_eq!(t.to_vec(), ["game x", "play a 1"]);
        // After an empty line: copied.
        t.push_from_file(&file, 22, "play b 2");
        assert!(matches!(t.text, Text::Own(_)));
        assert_eq!(t.to_vec(), ["game x", "play a 1", "play b 2"]);
        let same: Transcript = ["game x", "play a 1", "play b 2"].into_iter().collect();
        assert_eq!(t, same);
        let mut shared = Transcript::new();
        shared.push_from_file(&file, 5, "game x");
        shared.push("play a 1");
        assert_eq!(shared.to_vec(), ["game x", "play a 1"]);
        shared.replace_lines(|l| (l == "game x").then(|| "game y".to_string()));
        assert_eq!(shared.to_vec(), ["game y", "play a 1"]);
    }
}
