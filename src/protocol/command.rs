//! The command grammar: one line of text to a [`Command`], with nom.
//!
//! ```text
//! line     = [id SP] name *(SP word)
//! id       = 1*DIGIT
//! name     = 1*(ALPHA / DIGIT / "_")
//! ```
//!
//! Parsing is syntax only: seat names and moves are checked by the engine
//! against the game in play.

use std::fmt;

use nom::IResult;
use nom::bytes::complete::take_while1;
use nom::character::complete::{digit1, space0, space1};
use nom::combinator::{map_res, opt};
use nom::sequence::terminated;

use crate::engine::BudgetOverride;
use crate::engine::settings::GAME_DEFAULTS;
use crate::engine::tuning::TUNING;

/// A parsed command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `protocol_version`
    ProtocolVersion,
    /// `name`
    Name,
    /// `version`
    Version,
    /// `known_command <name>`
    KnownCommand(String),
    /// `list_commands`
    ListCommands,
    /// `help [command]`
    Help(Option<String>),
    /// `quit`
    Quit,
    /// `boardsize <n>`
    BoardSize(u32),
    /// `clear_board`
    ClearBoard,
    /// `komi <value>` (accepted and ignored: no game here uses it)
    Komi(f64),
    /// `play [seat] <move>`: the words after `play`.
    Play(Vec<String>),
    /// `genmove [seat] [key=value ...]`
    Genmove {
        /// The seat to move, if named (else the seat to play).
        seat: Option<String>,
        /// Budget words overriding the settings for this move.
        budget: BudgetOverride,
        /// What to report of the search as it runs.
        shown: Shown,
    },
    /// `analyze [seat] [interval=ms] [key=value ...]`
    Analyze {
        /// The seat to analyse for, if named (else the seat to play).
        seat: Option<String>,
        /// Budget words overriding the settings for this analysis.
        budget: BudgetOverride,
        /// Milliseconds between two `info` reports.
        interval_ms: u64,
        /// What to report of the search as it runs.
        shown: Shown,
    },
    /// `undo`
    Undo,
    /// `showboard`
    ShowBoard,
    /// `final_score`
    FinalScore,
    /// `time_settings <main> <byoyomi> <stones>` (seconds)
    TimeSettings {
        /// Main time in seconds.
        main: f64,
        /// Seconds of a byo-yomi period (0: sudden death).
        byoyomi: f64,
        /// Moves to play in each period.
        stones: u32,
    },
    /// `time_left <seat> <seconds> <stones>`
    TimeLeft {
        /// The seat whose clock this is, as given.
        seat: String,
        /// Seconds left on its clock.
        seconds: f64,
        /// Moves left in the current period (0: main time).
        stones: u32,
    },
    /// `list_games`: one GTP game name per line; `verbose`: the
    /// descriptive listing with options.
    ListGames {
        /// The descriptive listing rather than the names.
        verbose: bool,
    },
    /// `set_game <name>`: the multi-game GTP convention's game selection.
    SetGame(String),
    /// `game <name> [key=value ...]`
    Game {
        /// The game's name.
        name: String,
        /// Its `key=value` options, as given.
        options: Vec<String>,
    },
    /// `legal_moves`
    LegalMoves,
    /// `setboard <position text>`
    SetBoard(String),
    /// `position` (prints the position text)
    Position,
    /// `set <name> <value>`
    Set {
        /// The setting's name.
        name: String,
        /// Its new value, as given.
        value: String,
    },
    /// `get [name]`
    Get(Option<String>),
    /// `result`
    Result,
    /// `stop`
    Stop,
    /// `deal <text>`
    Deal(String),
    /// `turn`
    Turn,
    /// `history`
    History,
}

/// What `analyze` or `genmove` asks to see of the search as it runs
/// (`multipv=N`, `output=text|json`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shown {
    /// The best root moves to report, one `info multipv` line each (0: the
    /// plain `info` line of the best move).
    pub multipv: usize,
    /// The form of the `info` lines for this command (`None`: the
    /// session's `set output`).
    pub output: Option<OutputFormat>,
}

/// The form of `info` lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputFormat {
    /// `info key value ...`, as GTP engines print analysis.
    #[default]
    Text,
    /// One JSON object a line (protocol.md, "Analysis").
    Json,
}

impl OutputFormat {
    /// Reads `text` or `json`.
    pub fn parse(word: &str) -> Option<OutputFormat> {
        match word.to_ascii_lowercase().as_str() {
            "text" => Some(OutputFormat::Text),
            "json" => Some(OutputFormat::Json),
            _ => None,
        }
    }

    /// The name `get output` shows.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Text => "text",
            OutputFormat::Json => "json",
        }
    }
}

/// The most lines `multipv=N` may ask for: more than any game here has moves
/// at a decision, but for the Hearts pass (hundreds of card triples).
pub const MAX_MULTIPV: usize = 256;

/// One command: its name, syntax, what it does and an example. The one
/// table `list_commands`, `known_command`, `help` and the usage in a
/// refusal are all read from, so that they cannot drift apart.
pub struct CommandSpec {
    /// The name, as `list_commands` prints it.
    pub name: &'static str,
    /// The syntax (`?` replies quote it as `usage: ...`).
    pub usage: &'static str,
    /// What it does, in one line.
    pub help: &'static str,
    /// One example line.
    pub example: &'static str,
}

const fn spec(
    name: &'static str,
    usage: &'static str,
    help: &'static str,
    example: &'static str,
) -> CommandSpec {
    CommandSpec {
        name,
        usage,
        help,
        example,
    }
}

/// Every command, in the order `list_commands` prints them.
pub const COMMANDS: &[CommandSpec] = &[
    spec(
        "protocol_version",
        "protocol_version",
        "the GTP version spoken: 2",
        "protocol_version",
    ),
    spec("name", "name", "the engine's name", "name"),
    spec("version", "version", "the engine's version", "version"),
    spec(
        "known_command",
        "known_command <name>",
        "whether a command exists: true or false",
        "known_command genmove",
    ),
    spec(
        "list_commands",
        "list_commands",
        "every command, one a line",
        "list_commands",
    ),
    spec(
        "help",
        "help [command]",
        "every command with its syntax, or one command with an example",
        "help play",
    ),
    spec("quit", "quit", "ends the session", "quit"),
    spec(
        "boardsize",
        "boardsize <n>",
        "reloads a game that has a size option at that size (Othello: 8 only)",
        "boardsize 8",
    ),
    spec(
        "clear_board",
        "clear_board",
        "restarts the game in play, same options",
        "clear_board",
    ),
    spec(
        "komi",
        "komi <value>",
        "accepted and ignored (no game here has komi)",
        "komi 0",
    ),
    spec(
        "play",
        "play [seat] <move>",
        "plays a move for a seat, or for the seat to move",
        "play black d3",
    ),
    spec(
        "genmove",
        "genmove [seat] [iterations=N] [movetime=MS] [depth=D] [multipv=N] [output=text|json]",
        "searches, plays and replies with the move",
        "genmove white movetime=1000",
    ),
    spec(
        "analyze",
        "analyze [seat] [interval=MS] [iterations=N] [movetime=MS] [depth=D] [multipv=N] [output=text|json]",
        "searches without playing, with info lines, until its budget or the next line",
        "analyze movetime=2000",
    ),
    spec("undo", "undo", "takes back the last move", "undo"),
    spec(
        "showboard",
        "showboard",
        "a picture of the game (a card game: the seat's own view)",
        "showboard",
    ),
    spec(
        "final_score",
        "final_score",
        "the score, GTP style (B+12)",
        "final_score",
    ),
    spec(
        "time_settings",
        "time_settings <main seconds> <byo-yomi seconds> <stones>",
        "a game clock for every seat",
        "time_settings 300 0 0",
    ),
    spec(
        "time_left",
        "time_left <seat> <seconds> <stones>",
        "the time a seat has left",
        "time_left black 120 0",
    ),
    spec(
        "list_games",
        "list_games [verbose]",
        "the games, one a line (verbose: with their options)",
        "list_games verbose",
    ),
    spec(
        "set_game",
        "set_game <name>",
        "selects a game by its list_games name",
        "set_game Othello",
    ),
    spec(
        "game",
        "game <name> [key=value ...]",
        "loads a game with options; human=SEAT: you play that seat, the engine the others",
        "game hearts human=south",
    ),
    spec(
        "legal_moves",
        "legal_moves",
        "the legal moves of the seat to move",
        "legal_moves",
    ),
    spec(
        "setboard",
        "setboard <position text>",
        "sets the position (the form position prints)",
        "setboard XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOOOOOO X",
    ),
    spec(
        "position",
        "position [position text]",
        "the position text; with a text, sets it",
        "position",
    ),
    spec(
        "set",
        "set <name> <value>",
        "changes a setting (value default: back to the game's)",
        "set search mcts",
    ),
    spec(
        "get",
        "get [name]",
        "one setting's value, or every setting",
        "get search",
    ),
    spec(
        "result",
        "result",
        "ongoing, or each seat's score and the winner",
        "result",
    ),
    spec("stop", "stop", "ends a running genmove or analyze", "stop"),
    spec(
        "deal",
        "deal <text>",
        "a chance outcome told by a referee (seat-bound card games)",
        "deal 2C 5C 9C JC 3D 8D KD 4H 7H TH 2S 6S AS",
    ),
    spec("turn", "turn", "the seat to move, chance or over", "turn"),
    spec(
        "history",
        "history",
        "the moves played, space-separated",
        "history",
    ),
];

/// The table row of a command (any letter case).
pub fn find_command(name: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|c| c.name.eq_ignore_ascii_case(name))
}

/// `help`: every command's syntax, one a line; `help NAME`: the command's
/// syntax, what it does and an example.
pub fn help_text(name: Option<&str>) -> Result<String, ParseError> {
    match name {
        None => {
            let width = COMMANDS
                .iter()
                .map(|c| c.usage.len())
                .max()
                .unwrap_or(0)
                .min(36);
            let lines: Vec<String> = COMMANDS
                .iter()
                .map(|c| match c.usage.len() > width {
                    true => format!("{}\n{:<width$}  {}", c.usage, "", c.help),
                    false => format!("{:<width$}  {}", c.usage, c.help),
                })
                .collect();
            Ok(format!(
                "\n{}\n(help <command> shows an example; help defaults: each game's default player)",
                lines.join("\n")
            ))
        }
        Some(n) if n.eq_ignore_ascii_case("defaults") => Ok(format!(
            "\n{}",
            GAME_DEFAULTS
                .iter()
                .map(|d| {
                    let seats = d
                        .seats
                        .map(|n| format!(" ({n} players)"))
                        .unwrap_or_default();
                    let set: Vec<String> =
                        d.settings.iter().map(|(k, v)| format!("{k} {v}")).collect();
                    format!("{}{seats}: {}; {}", d.game, set.join(", "), d.why)
                })
                .chain(TUNING.iter().map(|t| {
                    let set: Vec<String> = t
                        .settings
                        .iter()
                        .map(|(k, v, _)| format!("{k} {v}"))
                        .collect();
                    format!("{} tuning (any search): {}", t.game, set.join(", "))
                }))
                .collect::<Vec<_>>()
                .join("\n")
        )),
        Some(n) => {
            let c = find_command(n).ok_or_else(|| ParseError::Unknown(n.to_string()))?;
            Ok(format!("\n{}\n{}\nexample: {}", c.usage, c.help, c.example))
        }
    }
}

/// The usage refusal of command `name` (a name of the table).
fn usage_of(name: &str) -> ParseError {
    ParseError::Usage(find_command(name).map_or("", |c| c.usage))
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Nothing that looks like a command name.
    Empty,
    /// A first word that is a signed number: no id (ids are digits only)
    /// and no command.
    SignedId(String),
    /// No such command.
    Unknown(String),
    /// The arguments do not fit; the message shows the usage.
    Usage(&'static str),
    /// One argument is malformed.
    BadArgument(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => write!(f, "empty command"),
            ParseError::SignedId(w) => write!(
                f,
                "'{w}' is not an id (an id is digits only, with no sign) nor a command"
            ),
            ParseError::Unknown(n) => {
                write!(f, "unknown command '{n}'")?;
                let near = nearest_commands(n);
                if !near.is_empty() {
                    write!(f, "; did you mean {}?", near.join(", "))?;
                }
                write!(f, " (help lists the commands)")
            }
            ParseError::Usage(u) => write!(f, "usage: {u}"),
            ParseError::BadArgument(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// The edit distance between two words (insertions, deletions and
/// substitutions of one character each), case aside.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (
        a.to_ascii_lowercase().chars().collect(),
        b.to_ascii_lowercase().chars().collect(),
    );
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (diag + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// The commands nearest to a mistyped name (at most three, within two
/// edits, or the ones it begins), nearest first.
pub fn nearest_commands(name: &str) -> Vec<&'static str> {
    let lower = name.to_ascii_lowercase();
    let mut near: Vec<(usize, &'static str)> = COMMANDS
        .iter()
        .map(|c| {
            let d = edit_distance(&lower, c.name);
            let prefix = lower.len() >= 3 && c.name.starts_with(&lower);
            (if prefix { d.min(1) } else { d }, c.name)
        })
        .filter(|&(d, _)| d <= 2.min(lower.len().saturating_sub(1)))
        .collect();
    near.sort();
    near.dedup_by_key(|n| n.1);
    near.into_iter().take(3).map(|n| n.1).collect()
}

/// A line split into its id, and the command or why it is not one.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The numeric id, echoed in the reply.
    pub id: Option<u64>,
    /// The command.
    pub command: Result<Command, ParseError>,
}

fn id(input: &str) -> IResult<&str, u64> {
    map_res(terminated(digit1, space1), str::parse)(input)
}

fn name(input: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_')(input)
}

fn head(input: &str) -> IResult<&str, (Option<u64>, &str)> {
    let (input, _) = space0(input)?;
    let (input, id) = opt(id)(input)?;
    let (input, name) = name(input)?;
    Ok((input, (id, name)))
}

/// The id a line starts with, if its first word is one: digits only
/// (`+5` and `-5` are not ids), kept for the reply even when the rest is
/// not a command.
pub fn leading_id(line: &str) -> Option<u64> {
    let word = line.split_whitespace().next()?;
    if word.bytes().all(|b| b.is_ascii_digit()) {
        word.parse().ok()
    } else {
        None
    }
}

/// Parses one line (without its newline; comments already removed).
pub fn parse_line(line: &str) -> Line {
    let Ok((rest, (id, name))) = head(line) else {
        // Keep a leading id if there is one, so the error can carry it.
        let id = leading_id(line);
        let word = line.split_whitespace().nth(id.map_or(0, |_| 1));
        let command = match word {
            None => ParseError::Empty,
            Some(w) if id.is_none() && is_signed_number(w) => ParseError::SignedId(w.to_string()),
            Some(w) => ParseError::Unknown(w.to_string()),
        };
        return Line {
            id,
            command: Err(command),
        };
    };
    if !rest.is_empty() && !rest.starts_with([' ', '\t']) {
        return Line {
            id,
            command: Err(ParseError::Unknown(
                line.split_whitespace()
                    .nth(id.map_or(0, |_| 1))
                    .unwrap_or("")
                    .to_string(),
            )),
        };
    }
    let words: Vec<String> = rest.split_whitespace().map(str::to_string).collect();
    Line {
        id,
        command: command(&name.to_ascii_lowercase(), words),
    }
}

/// `+5`, `-5`, `-0`: a sign and digits.
fn is_signed_number(word: &str) -> bool {
    word.strip_prefix(['+', '-'])
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

fn number<T: std::str::FromStr>(word: &str, what: &str) -> Result<T, ParseError> {
    // Negative zero (`-0`, `-0.0`) is zero, which every number here takes.
    let zero = word
        .strip_prefix('-')
        .is_some_and(|d| d.bytes().any(|b| b == b'0') && d.bytes().all(|b| b == b'0' || b == b'.'))
        && word.bytes().filter(|&b| b == b'.').count() <= 1;
    let word = if zero { "0" } else { word };
    word.parse()
        .map_err(|_| ParseError::BadArgument(format!("{what} must be a number, not '{word}'")))
}

/// The words of genmove and analyze: `[seat] key=value...`.
struct SearchWords {
    seat: Option<String>,
    budget: BudgetOverride,
    interval: Option<u64>,
    shown: Shown,
}

/// Splits `[seat] key=value...` words of genmove and analyze.
fn seat_and_budget(words: Vec<String>, command: &str) -> Result<SearchWords, ParseError> {
    let mut seat = None;
    let mut budget = BudgetOverride::default();
    let mut interval = None;
    let mut shown = Shown::default();
    for w in words {
        match w.split_once('=') {
            Some((k, v)) => match k.to_ascii_lowercase().as_str() {
                "iterations" => budget.iterations = Some(number(v, "iterations")?),
                "movetime" => budget.movetime = Some(number(v, "movetime")?),
                "depth" => budget.depth = Some(number(v, "depth")?),
                "interval" => interval = Some(number(v, "interval")?),
                "multipv" => {
                    shown.multipv = number(v, "multipv")?;
                    if !(1..=MAX_MULTIPV).contains(&shown.multipv) {
                        return Err(ParseError::BadArgument(format!(
                            "multipv must be 1 to {MAX_MULTIPV}, not '{v}'"
                        )));
                    }
                }
                "output" => {
                    shown.output = Some(OutputFormat::parse(v).ok_or_else(|| {
                        ParseError::BadArgument(format!("output must be text or json, not '{v}'"))
                    })?);
                }
                _ => {
                    return Err(ParseError::BadArgument(format!(
                        "unknown budget '{k}'; budgets: iterations=N, movetime=MS, depth=D"
                    )));
                }
            },
            None if seat.is_none() => seat = Some(w),
            None => return Err(usage_of(command)),
        }
    }
    Ok(SearchWords {
        seat,
        budget,
        interval,
        shown,
    })
}

fn command(name: &str, words: Vec<String>) -> Result<Command, ParseError> {
    let n = words.len();
    let none = |c: Command| if n == 0 { Ok(c) } else { Err(usage_of(name)) };
    match name {
        "protocol_version" => none(Command::ProtocolVersion),
        "name" => none(Command::Name),
        "version" => none(Command::Version),
        "known_command" if n == 1 => Ok(Command::KnownCommand(words[0].clone())),
        "known_command" => Err(usage_of(name)),
        "list_commands" => none(Command::ListCommands),
        "help" if n <= 1 => Ok(Command::Help(words.first().cloned())),
        "help" => Err(usage_of(name)),
        "quit" => none(Command::Quit),
        "boardsize" if n == 1 => Ok(Command::BoardSize(number(&words[0], "the board size")?)),
        "boardsize" => Err(usage_of(name)),
        "clear_board" => none(Command::ClearBoard),
        // A komi is a finite number: `nan` and `inf` parse as f64 but are none.
        "komi" if n == 1 => match number::<f64>(&words[0], "komi")? {
            k if k.is_finite() => Ok(Command::Komi(k)),
            _ => Err(ParseError::BadArgument(format!(
                "komi must be a finite number, not '{}'",
                words[0]
            ))),
        },
        "komi" => Err(usage_of(name)),
        "play" if n >= 1 => Ok(Command::Play(words)),
        "play" => Err(usage_of(name)),
        "genmove" => {
            let w = seat_and_budget(words, name)?;
            if w.interval.is_some() {
                return Err(ParseError::BadArgument(
                    "interval= belongs to analyze".into(),
                ));
            }
            Ok(Command::Genmove {
                seat: w.seat,
                budget: w.budget,
                shown: w.shown,
            })
        }
        "analyze" => {
            let w = seat_and_budget(words, name)?;
            Ok(Command::Analyze {
                seat: w.seat,
                budget: w.budget,
                interval_ms: w.interval.unwrap_or(500).max(10),
                shown: w.shown,
            })
        }
        "undo" => none(Command::Undo),
        "showboard" => none(Command::ShowBoard),
        "final_score" => none(Command::FinalScore),
        "time_settings" if n == 3 => Ok(Command::TimeSettings {
            main: seconds(&words[0])?,
            byoyomi: seconds(&words[1])?,
            stones: number(&words[2], "stones")?,
        }),
        "time_settings" => Err(usage_of(name)),
        "time_left" if n == 3 => Ok(Command::TimeLeft {
            seat: words[0].clone(),
            seconds: seconds(&words[1])?,
            stones: number(&words[2], "stones")?,
        }),
        "time_left" => Err(usage_of(name)),
        "list_games" if n == 0 => Ok(Command::ListGames { verbose: false }),
        "list_games" if n == 1 && words[0].eq_ignore_ascii_case("verbose") => {
            Ok(Command::ListGames { verbose: true })
        }
        "list_games" => Err(usage_of(name)),
        "set_game" if n >= 1 => Ok(Command::SetGame(words.join(" "))),
        "set_game" => Err(usage_of(name)),
        "game" if n >= 1 => {
            let mut words = words;
            let name = words.remove(0);
            Ok(Command::Game {
                name,
                options: words,
            })
        }
        "game" => Err(usage_of(name)),
        "legal_moves" => none(Command::LegalMoves),
        "setboard" if n >= 1 => Ok(Command::SetBoard(words.join(" "))),
        "setboard" => Err(usage_of(name)),
        "position" if n == 0 => Ok(Command::Position),
        "position" => Ok(Command::SetBoard(words.join(" "))),
        "set" if n == 2 => Ok(Command::Set {
            name: words[0].clone(),
            value: words[1].clone(),
        }),
        "set" => Err(usage_of(name)),
        "get" if n <= 1 => Ok(Command::Get(words.first().cloned())),
        "get" => Err(usage_of(name)),
        "result" => none(Command::Result),
        "stop" => none(Command::Stop),
        "deal" if n >= 1 => Ok(Command::Deal(words.join(" "))),
        "deal" => Err(usage_of(name)),
        "turn" => none(Command::Turn),
        "history" => none(Command::History),
        other => Err(ParseError::Unknown(other.to_string())),
    }
}

fn seconds(word: &str) -> Result<f64, ParseError> {
    let v: f64 = number(word, "time")?;
    if v.is_finite() && (0.0..=1e9).contains(&v) {
        Ok(v)
    } else {
        Err(ParseError::BadArgument(format!(
            "time must be between 0 and 1e9 seconds, not '{word}'"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_command_names_help_and_the_nearest_commands() {
        let text = |n: &str| ParseError::Unknown(n.into()).to_string();
        assert_eq!(
            text("genmov"),
            "unknown command 'genmov'; did you mean genmove? (help lists the commands)"
        );
        assert!(
            text("showbaord").contains("did you mean showboard?"),
            "{}",
            text("showbaord")
        );
        assert!(text("legal").contains("legal_moves"), "{}", text("legal"));
        assert_eq!(
            text("frobnicate"),
            "unknown command 'frobnicate' (help lists the commands)"
        );
        assert!(!text("x").contains("did you mean"), "{}", text("x"));
    }

    #[test]
    fn ids_names_and_arguments() {
        let l = parse_line("12 play black d3");
        assert_eq!(l.id, Some(12));
        assert_eq!(
            l.command,
            Ok(Command::Play(vec!["black".into(), "d3".into()]))
        );
        let l = parse_line("  genmove white movetime=100");
        assert_eq!(l.id, None);
        assert_eq!(
            l.command,
            Ok(Command::Genmove {
                seat: Some("white".into()),
                budget: BudgetOverride {
                    movetime: Some(100),
                    ..Default::default()
                },
                shown: Shown::default(),
            })
        );
        assert_eq!(
            parse_line("analyze black multipv=8 output=JSON depth=4").command,
            Ok(Command::Analyze {
                seat: Some("black".into()),
                budget: BudgetOverride {
                    depth: Some(4),
                    ..Default::default()
                },
                interval_ms: 500,
                shown: Shown {
                    multipv: 8,
                    output: Some(OutputFormat::Json),
                },
            })
        );
        for bad in ["multipv=0", "multipv=257", "multipv=x", "output=xml"] {
            assert!(
                matches!(
                    parse_line(&format!("analyze {bad}")).command,
                    Err(ParseError::BadArgument(_))
                ),
                "{bad}"
            );
        }
        assert_eq!(
            parse_line("GAME quoridor size=5").command,
            Ok(Command::Game {
                name: "quoridor".into(),
                options: vec!["size=5".into()]
            })
        );
    }

    #[test]
    fn every_listed_command_parses_or_asks_for_arguments() {
        for c in COMMANDS {
            let name = c.name;
            match parse_line(name).command {
                Ok(_) | Err(ParseError::Usage(_)) => {}
                other => panic!("{name}: {other:?}"),
            }
        }
    }

    #[test]
    fn help_comes_from_the_table_and_every_example_parses() {
        let all = help_text(None).unwrap();
        for c in COMMANDS {
            assert!(all.contains(c.usage), "{}", c.name);
            let one = help_text(Some(&c.name.to_ascii_uppercase())).unwrap();
            assert!(
                one.contains(c.example) && one.contains(c.help),
                "{}",
                c.name
            );
            let parsed = parse_line(c.example).command;
            assert!(parsed.is_ok(), "{}: {parsed:?}", c.example);
            // A refusal quotes the table's usage.
            if let Err(ParseError::Usage(u)) = parse_line(&format!("{} a b c d e", c.name)).command
            {
                assert_eq!(u, c.usage);
            }
        }
        assert_eq!(
            help_text(Some("frob")),
            Err(ParseError::Unknown("frob".into()))
        );
        assert!(
            help_text(Some("defaults"))
                .unwrap()
                .contains("othello: search alphabeta")
        );
    }

    #[test]
    fn errors() {
        assert_eq!(
            parse_line("7 frobnicate").command,
            Err(ParseError::Unknown("frobnicate".into()))
        );
        assert_eq!(parse_line("7 frobnicate").id, Some(7));
        // Each line's error by its kind (the message is the variant's own).
        let kind = |line: &str| match parse_line(line).command {
            Err(ParseError::BadArgument(_)) => "bad argument",
            Err(ParseError::Usage(_)) => "usage",
            Err(ParseError::Unknown(_)) => "unknown",
            Err(ParseError::Empty) => "empty",
            Err(ParseError::SignedId(_)) => "signed id",
            Ok(_) => "parsed",
        };
        for (line, want) in [
            ("boardsize x", "bad argument"),
            ("name extra", "usage"),
            ("genmove black white", "usage"),
            ("genmove nodes=5", "bad argument"),
            ("time_settings -1 0 0", "bad argument"),
            ("", "empty"),
            ("play-now", "unknown"),
        ] {
            assert_eq!(kind(line), want, "{line:?}");
        }
    }
}
