//! Reading a record's text ([`MatchRecord::parse`]) in one pass: each
//! line is looked at once, and a game's number is checked against the
//! numbers seen so far in a set, so that a record of any length is read in
//! time and memory in proportion to it.
//!
//! A record cut off at its end (a full disk, a killed runner, a copy
//! still under way) is refused, or, read with [`Reading::WholeGames`],
//! read up to its last whole game: what follows it (a game block short of
//! its lines, a line without its end) is left out and counted
//! ([`CutOff`]). Damage anywhere else is refused either way.

use std::collections::HashSet;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

use crate::arena::record::codec::{self, Fields};
use crate::arena::record::match_file::{
    ENGINE_KEYS, EngineInfo, MAGIC, MAGIC_V1, MatchRecord, RecordError, is_resign_note, parse_game,
};
use crate::arena::record::note::Note;

/// How a record's end is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Every line whole, every game whole: anything else is refused.
    Whole,
    /// Up to the last whole game: a cut-off end is left out (`--partial`).
    WholeGames,
}

/// What was left out of a record cut off at its end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CutOff {
    /// The bytes left out, from the first one after the last whole game
    /// (or header line) to the end of the file.
    pub bytes: usize,
    /// The number of the game cut off, when its header line was whole.
    pub game: Option<usize>,
}

impl CutOff {
    /// Whether nothing was left out.
    pub fn is_empty(&self) -> bool {
        self.bytes == 0
    }
}

impl fmt::Display for CutOff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} bytes at its end left out", self.bytes)?;
        if let Some(game) = self.game {
            write!(f, " (game {game}, cut off)")?;
        }
        Ok(())
    }
}

/// Reading records: from text, or from a file through the one reader of
/// named files.
impl MatchRecord {
    /// Reads a record from its text; `path` names it in errors. The whole
    /// text must be a whole record: a file cut off is refused (see
    /// [`MatchRecord::parse_whole_games`]).
    pub fn parse(text: &str, path: &Path) -> Result<MatchRecord, RecordError> {
        parse(&Arc::new(text.to_string()), path, Reading::Whole).map(|(rec, _)| rec)
    }

    /// Reads a record from its text up to its last whole game: a file cut
    /// off anywhere after its header (inside a game, inside a line) gives
    /// the games before the cut, and what was left out.
    pub fn parse_whole_games(
        text: &str,
        path: &Path,
    ) -> Result<(MatchRecord, CutOff), RecordError> {
        parse(&Arc::new(text.to_string()), path, Reading::WholeGames)
    }

    /// Reads a record file through the one reader of named files
    /// ([`crate::files::input`], [`crate::files::input::RECORD`]): a regular
    /// file of at most 1 GiB that starts as a record does, the read given
    /// up when `cancel` says so.
    pub fn read(path: &Path) -> Result<MatchRecord, RecordError> {
        MatchRecord::read_or_cancel(path, &crate::files::input::never)
    }

    /// [`MatchRecord::read`], given up when `cancel` says so.
    pub fn read_or_cancel(
        path: &Path,
        cancel: &dyn Fn() -> bool,
    ) -> Result<MatchRecord, RecordError> {
        MatchRecord::read_as(path, Reading::Whole, cancel).map(|(rec, _)| rec)
    }

    /// [`MatchRecord::read_or_cancel`], the file's end read as `reading`
    /// says (up to its last whole game, for `--partial`).
    pub fn read_as(
        path: &Path,
        reading: Reading,
        cancel: &dyn Fn() -> bool,
    ) -> Result<(MatchRecord, CutOff), RecordError> {
        use crate::files::input::{self, PeerFileError, Refusal};
        let bytes = match input::read_kind(path, &input::RECORD, cancel) {
            Ok(bytes) => bytes,
            Err(e) if matches!(e.reason, Refusal::BadMagic) => {
                return Err(RecordError::Parse {
                    path: path.to_path_buf(),
                    line: 1,
                    message: format!("not a match record (the first line must be '{MAGIC}')"),
                });
            }
            Err(e) => return Err(RecordError::File(e)),
        };
        let not_text = |at: usize| {
            RecordError::File(PeerFileError {
                path: path.to_path_buf(),
                what: input::RECORD.what,
                reason: Refusal::NotText(at),
            })
        };
        let (text, cut_char) = match String::from_utf8(bytes) {
            Ok(text) => (text, 0),
            // Cut inside a character (`error_len` none: the bytes are the
            // start of one): the rest of that line is left out anyway.
            Err(e) if reading == Reading::WholeGames && e.utf8_error().error_len().is_none() => {
                let whole = e.utf8_error().valid_up_to();
                let mut bytes = e.into_bytes();
                let cut = bytes.len() - whole;
                bytes.truncate(whole);
                (
                    String::from_utf8(bytes).map_err(|e| not_text(e.utf8_error().valid_up_to()))?,
                    cut,
                )
            }
            Err(e) => return Err(not_text(e.utf8_error().valid_up_to())),
        };
        // The games' transcripts are parts of this text, not copies.
        let (rec, mut cut) = parse(&Arc::new(text), path, reading)?;
        cut.bytes += cut_char;
        Ok((rec, cut))
    }
}

/// The kinds of `#` line that carry the record's data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Header {
    Match,
    Settings,
    Engine,
    Game,
    Stopped,
}

impl Header {
    fn from_word(word: &str) -> Option<Header> {
        Some(match word {
            "match" => Header::Match,
            "settings" => Header::Settings,
            "engine" => Header::Engine,
            "game" => Header::Game,
            "stopped" => Header::Stopped,
            _ => return None,
        })
    }

    fn word(self) -> &'static str {
        match self {
            Header::Match => "match",
            Header::Settings => "settings",
            Header::Engine => "engine",
            Header::Game => "game",
            Header::Stopped => "stopped",
        }
    }
}

/// The game block being read: the lines its header announced, where the
/// header is (line index and byte offset).
#[derive(Clone, Copy, Debug)]
struct OpenGame {
    line: usize,
    offset: usize,
    announced: Option<usize>,
}

/// A record being read, line by line.
struct Parser<'p> {
    path: &'p Path,
    /// The record's text, which the games' transcripts share.
    file: &'p Arc<String>,
    version: u8,
    rec: MatchRecord,
    seen_match: bool,
    seen_settings: bool,
    numbers: HashSet<usize>,
    open: Option<OpenGame>,
}

/// Reads a record's text (see [`MatchRecord::parse`]).
pub(crate) fn parse(
    file: &Arc<String>,
    path: &Path,
    reading: Reading,
) -> Result<(MatchRecord, CutOff), RecordError> {
    let text = file.as_str();
    let (first, _) = text.split_once('\n').unwrap_or((text, ""));
    let version = match first.trim() {
        f if f == MAGIC => 2,
        f if f == MAGIC_V1 => 1,
        _ => {
            return Err(parse_error(
                path,
                0,
                format!("not a match record (the first line must be '{MAGIC}')"),
            ));
        }
    };
    // A line without its end: the file was cut inside it.
    let whole_lines = match text.rfind('\n') {
        Some(end) if end + 1 == text.len() => text,
        cut => {
            let kept = cut.map_or(0, |end| end + 1);
            if reading == Reading::Whole || kept == 0 {
                let line = text[..kept].matches('\n').count();
                return Err(parse_error(
                    path,
                    line,
                    "the file ends inside a line: the record was cut off".to_string(),
                ));
            }
            &text[..kept]
        }
    };
    let mut parser = Parser {
        path,
        file,
        version,
        rec: MatchRecord::default(),
        seen_match: false,
        seen_settings: false,
        numbers: HashSet::new(),
        open: None,
    };
    let mut offset = first.len() + 1;
    for (index, raw) in whole_lines.split_terminator('\n').enumerate().skip(1) {
        parser.line(index, offset, raw)?;
        offset += raw.len() + 1;
    }
    let mut cut = CutOff {
        bytes: text.len() - whole_lines.len(),
        game: None,
    };
    if let Err(e) = parser.close_game() {
        let open = match (reading, parser.open) {
            (Reading::WholeGames, Some(open)) => open,
            _ => return Err(e),
        };
        // The last game is short of its lines: cut off inside it.
        let game = parser.rec.games.pop().map(|g| g.number);
        cut = CutOff {
            bytes: text.len() - open.offset,
            game,
        };
    }
    parser.finish()?;
    // The list grew by doubling: what it holds, not up to twice that,
    // stays in memory.
    parser.rec.games.shrink_to_fit();
    Ok((parser.rec, cut))
}

fn parse_error(path: &Path, index: usize, message: String) -> RecordError {
    RecordError::Parse {
        path: path.to_path_buf(),
        line: index + 1,
        message,
    }
}

impl Parser<'_> {
    fn error(&self, index: usize, message: impl Into<String>) -> RecordError {
        parse_error(self.path, index, message.into())
    }

    /// One line (as the file holds it, without its `\n`), at line
    /// `index` (from 0) and byte `offset`; read trimmed.
    fn line(&mut self, index: usize, offset: usize, raw: &str) -> Result<(), RecordError> {
        let line = raw.trim();
        let Some(comment) = line.strip_prefix('#') else {
            return self.command(index, offset, raw, line);
        };
        let comment = comment.trim_start();
        let (word, rest) = comment.split_once(' ').unwrap_or((comment, ""));
        match Header::from_word(word) {
            Some(kind) => self.header(index, offset, kind, rest),
            None => self.note(index, offset, raw, comment, line),
        }
    }

    /// Adds `line` (`raw` trimmed, at byte `offset`) to the open game's
    /// transcript: shared with the file's text where the file holds it as
    /// it is kept.
    fn keep(&mut self, offset: usize, raw: &str, line: &str) {
        if let Some(g) = self.rec.games.last_mut() {
            if raw.len() == line.len() {
                g.transcript.push_from_file(self.file, offset, line);
            } else {
                g.transcript.push(line);
            }
        }
    }

    /// A command of the open game's transcript (or an empty line).
    fn command(
        &mut self,
        index: usize,
        offset: usize,
        raw: &str,
        line: &str,
    ) -> Result<(), RecordError> {
        if line.is_empty() {
            return Ok(());
        }
        match self.rec.games.last() {
            Some(_) if self.rec.stopped.is_none() => {
                self.keep(offset, raw, line);
                Ok(())
            }
            _ => Err(self.error(
                index,
                "a command outside a game (before the first game header or after the closing \
                 line)",
            )),
        }
    }

    /// A comment that is not a header: a game's notes (a restarted
    /// engine, an engine that reported no scores, a seat's resignation)
    /// stay in its block; anything else is a comment (the report at the
    /// end).
    fn note(
        &mut self,
        index: usize,
        offset: usize,
        raw: &str,
        comment: &str,
        line: &str,
    ) -> Result<(), RecordError> {
        if comment.starts_with("tabula-match") {
            return Err(self.error(index, "a second record inside this one (two files joined?)"));
        }
        // A resignation is a line of the game's transcript, counted in its
        // `lines=`: dropped, it made the record unreadable.
        if Note::read(line).is_some() || is_resign_note(line, &self.rec.seat_names) {
            self.keep(offset, raw, line);
        }
        Ok(())
    }

    /// A header line: checked for its place, then read by its kind.
    fn header(
        &mut self,
        index: usize,
        offset: usize,
        kind: Header,
        rest: &str,
    ) -> Result<(), RecordError> {
        // Borrowed from the line where written bare: a game line (the
        // most of a record's headers) is read without a string a word.
        let pair_list = codec::read_pairs_in(rest).map_err(|m| self.error(index, m.0))?;
        let pairs =
            Fields::of(&pair_list).map_err(|k| self.error(index, format!("'{k}' given twice")))?;
        self.check_place(index, kind)?;
        let owned = || {
            pair_list
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        match kind {
            Header::Match => self.match_line(index, &pairs),
            Header::Settings => self.settings_line(index, owned()),
            Header::Engine => self.engine_line(index, &pairs, owned()),
            Header::Stopped => self.stopped_line(index, &pairs),
            Header::Game => self.game_line(index, offset, &pairs),
        }
    }

    /// Whether a header of this kind may stand here.
    fn check_place(&self, index: usize, kind: Header) -> Result<(), RecordError> {
        let word = kind.word();
        if kind != Header::Match && !self.seen_match {
            return Err(self.error(index, format!("a '# {word}' line before '# match'")));
        }
        if matches!(kind, Header::Settings | Header::Engine) && !self.rec.games.is_empty() {
            return Err(self.error(index, format!("a '# {word}' line after the first game")));
        }
        if self.rec.stopped.is_some() {
            return Err(self.error(index, "a line after the closing '# stopped' line"));
        }
        if !matches!(kind, Header::Settings | Header::Match)
            && self.version >= 2
            && !self.seen_settings
        {
            return Err(self.error(index, "no '# settings' line after '# match'"));
        }
        Ok(())
    }

    fn match_line(&mut self, index: usize, pairs: &Fields) -> Result<(), RecordError> {
        if self.seen_match {
            return Err(self.error(index, "a second '# match' header (two records joined?)"));
        }
        self.seen_match = true;
        self.rec.game = pairs.get("game").to_string();
        if self.rec.game.is_empty() {
            return Err(self.error(index, "'# match' names no game"));
        }
        self.rec.options = pairs
            .get("options")
            .split_whitespace()
            .map(str::to_string)
            .collect();
        self.rec.seeds = codec::read_list(pairs.get("seed"))
            .iter()
            .map(|s| {
                s.parse()
                    .map_err(|_| self.error(index, format!("bad seed '{s}'")))
            })
            .collect::<Result<_, _>>()?;
        self.rec.seat_names = codec::read_list(pairs.get("seats"));
        if self.rec.seat_names.is_empty() {
            return Err(self.error(index, "'# match' names no seats"));
        }
        self.rec.shard = pairs.find("shard").map(str::to_string);
        Ok(())
    }

    fn settings_line(
        &mut self,
        index: usize,
        pair_list: Vec<(String, String)>,
    ) -> Result<(), RecordError> {
        if self.seen_settings {
            return Err(self.error(index, "a second '# settings' line"));
        }
        if !self.rec.engines.is_empty() {
            return Err(self.error(index, "'# settings' after an engine"));
        }
        self.seen_settings = true;
        self.rec.settings = pair_list;
        Ok(())
    }

    fn engine_line(
        &mut self,
        index: usize,
        pairs: &Fields,
        pair_list: Vec<(String, String)>,
    ) -> Result<(), RecordError> {
        let name = pairs.get("name").to_string();
        if name.is_empty() {
            return Err(self.error(index, "an engine without a name"));
        }
        if self.rec.engines.iter().any(|e| e.name == name) {
            return Err(self.error(index, format!("engine '{name}' appears twice")));
        }
        let number = self.rec.engines.len();
        if self.version >= 2 && pairs.get("index") != number.to_string() {
            return Err(self.error(index, format!("engine '{name}' is not numbered {number}")));
        }
        self.rec.engines.push(EngineInfo {
            name,
            proto: pairs.get("proto").to_string(),
            command: pairs.get("cmd").to_string(),
            init: pairs
                .get("init")
                .lines()
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect(),
            settings: pair_list
                .into_iter()
                .filter(|(k, _)| !ENGINE_KEYS.contains(&k.as_str()))
                .collect(),
        });
        Ok(())
    }

    fn stopped_line(&mut self, index: usize, pairs: &Fields) -> Result<(), RecordError> {
        self.close_game()?;
        self.open = None;
        let reason = pairs.get("reason").to_string();
        if reason.is_empty() {
            return Err(self.error(index, "'# stopped' without a reason"));
        }
        let games = self.rec.games.len();
        if pairs.get("games") != games.to_string() {
            return Err(self.error(
                index,
                format!(
                    "'# stopped' counts {} games where the record holds {games}",
                    pairs.get("games")
                ),
            ));
        }
        self.rec.stopped = Some(reason);
        Ok(())
    }

    fn game_line(
        &mut self,
        index: usize,
        offset: usize,
        pairs: &Fields,
    ) -> Result<(), RecordError> {
        self.close_game()?;
        let g = parse_game(pairs, &self.rec.engines, self.rec.seat_names.len())
            .map_err(|m| self.error(index, m.to_string()))?;
        if !self.numbers.insert(g.number) {
            return Err(self.error(index, format!("game {} appears twice", g.number)));
        }
        let announced = if self.version >= 2 {
            let lines = pairs.get("lines");
            Some(
                lines
                    .parse()
                    .map_err(|_| self.error(index, format!("bad or missing lines '{lines}'")))?,
            )
        } else {
            None
        };
        self.open = Some(OpenGame {
            line: index,
            offset,
            announced,
        });
        self.rec.games.push(g);
        Ok(())
    }

    /// Checks that the open game holds the lines its header announced.
    fn close_game(&self) -> Result<(), RecordError> {
        let (Some(open), Some(g)) = (self.open, self.rec.games.last()) else {
            return Ok(());
        };
        match open.announced {
            Some(want) if g.transcript.len() != want => Err(self.error(
                open.line,
                format!(
                    "game {} announces {want} transcript lines and has {}: the record was cut \
                     off or altered",
                    g.number,
                    g.transcript.len()
                ),
            )),
            _ => Ok(()),
        }
    }

    /// The checks of the whole file, once every line is read.
    fn finish(&self) -> Result<(), RecordError> {
        if !self.seen_match {
            return Err(self.error(0, "no '# match' header"));
        }
        if self.version >= 2 && !self.seen_settings {
            return Err(self.error(0, "no '# settings' line"));
        }
        Ok(())
    }
}
