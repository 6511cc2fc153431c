//! The runner's notes about an engine in a game's transcript: `#` lines
//! that the record keeps among the game's lines (counted in its
//! `lines=`), written from [`Note`] and read back into it.

use std::fmt;

/// A note about an engine in a game's transcript, naming the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note<'a> {
    /// The engine was restarted before this game (it crashed or hung in
    /// an earlier one: [`crate::arena::record::recover`]):
    /// `# restart engine=NAME`.
    Restarted(&'a str),
    /// The engine was asked for its scores (`--adjudicate resign.` or
    /// `draw.`) and reported none in this game: `# no scores engine=NAME`.
    NoScores(&'a str),
}

/// The text before the engine's name in each kind of note.
const RESTART_MARK: &str = "# restart engine=";
const NO_SCORES_MARK: &str = "# no scores engine=";

impl<'a> Note<'a> {
    /// The note that `line` is, if it is one.
    pub fn read(line: &'a str) -> Option<Note<'a>> {
        if let Some(engine) = line.strip_prefix(RESTART_MARK) {
            Some(Note::Restarted(engine))
        } else {
            line.strip_prefix(NO_SCORES_MARK).map(Note::NoScores)
        }
    }

    /// The engine it names.
    pub fn engine(self) -> &'a str {
        match self {
            Note::Restarted(engine) | Note::NoScores(engine) => engine,
        }
    }

    /// The same note, naming `engine` instead (the record's name for the
    /// runner's engine).
    pub fn naming(self, engine: &str) -> Note<'_> {
        match self {
            Note::Restarted(_) => Note::Restarted(engine),
            Note::NoScores(_) => Note::NoScores(engine),
        }
    }
}

impl fmt::Display for Note<'_> {
    /// The line the transcript holds.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::Restarted(engine) => write!(f, "{RESTART_MARK}{engine}"),
            Note::NoScores(engine) => write!(f, "{NO_SCORES_MARK}{engine}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_is_written_as_its_line_and_read_back() {
        let restart = Note::Restarted("a#b c");
        assert_eq!(restart.to_string(), "# restart engine=a#b c");
        assert_eq!(Note::read("# restart engine=a#b c"), Some(restart));
        let silent = Note::NoScores("edax");
        assert_eq!(silent.to_string(), "# no scores engine=edax");
        assert_eq!(Note::read(&silent.to_string()), Some(silent));
        assert_eq!(silent.engine(), "edax");
        assert_eq!(silent.naming("edax-2"), Note::NoScores("edax-2"));
        assert_eq!(restart.naming("x").to_string(), "# restart engine=x");
        for other in [
            "# black resigns",
            "#",
            "# restart",
            "play black d3",
            " # restart engine=a",
        ] {
            assert_eq!(Note::read(other), None, "{other}");
        }
    }
}
