//! Records others can read (`--export FORMAT=FILE`, repeatable words):
//!
//! - `ggf=FILE`: Othello games in GGF, the Generic Game Format of GGS,
//!   read by NBoard, Edax (`load`) and WZebra: one `(;GM[Othello]...;)` a
//!   line.
//! - `quoridor=FILE`: Quoridor games as text, a line per move (described
//!   in protocol.md, "Quoridor game text").
//! - `jsonl=FILE`: every game of any game as one JSON object a line.
//!
//! All three are written from the match record, so a `--merge` exports
//! the merged match too.

use std::fmt::Write as _;
use std::path::PathBuf;

use crate::arena::ground::adjudication::{Decided, Decision};
use crate::arena::ground::config_error::ConfigError;
use crate::arena::record::match_file::{Ending, GameRecord, MatchRecord};
use crate::arena::record::transcript::Transcript;
use crate::games::{othello, quoridor};
use crate::json::Plain;

/// An export format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// GGF (Othello).
    Ggf,
    /// Quoridor game text.
    Quoridor,
    /// JSON lines, one object a game.
    Jsonl,
}

/// The exports asked for.
pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<Vec<(ExportFormat, PathBuf)>, ConfigError> {
    words
        .iter()
        .map(|w| {
            let w = w.as_ref();
            let bad = || {
                ConfigError(format!(
                    "--export: '{w}' is not FORMAT=FILE with FORMAT ggf, quoridor or jsonl"
                ))
            };
            let (format, file) = w.split_once('=').ok_or_else(bad)?;
            let format = match format {
                "ggf" => ExportFormat::Ggf,
                f if f == quoridor::NAME => ExportFormat::Quoridor,
                "jsonl" => ExportFormat::Jsonl,
                _ => return Err(bad()),
            };
            if file.is_empty() {
                return Err(bad());
            }
            Ok((format, PathBuf::from(file)))
        })
        .collect()
}

/// The exports of `words` as outputs, `(role, path)`, for the one check
/// of every output path ([`crate::files::output::check_all`]): the role is
/// `--export FORMAT=`, so that two formats on one file are refused.
pub fn outputs<S: AsRef<str>>(words: &[S]) -> Result<Vec<(String, PathBuf)>, ConfigError> {
    Ok(parse(words)?
        .into_iter()
        .map(|(format, path)| {
            let word = match format {
                ExportFormat::Ggf => "ggf",
                ExportFormat::Quoridor => quoridor::NAME,
                ExportFormat::Jsonl => "jsonl",
            };
            (format!("--export {word}="), path)
        })
        .collect())
}

/// Checks the exports of `words` against the game before any is played.
pub fn check<S: AsRef<str>>(words: &[S], game: &str) -> Result<(), ConfigError> {
    for (format, path) in parse(words)? {
        // Checked before the first game, as the record and charts are.
        crate::files::output::check(&path).map_err(|e| ConfigError(format!("--export: {e}")))?;
        let rec = MatchRecord {
            game: game.to_string(),
            ..MatchRecord::default()
        };
        match format {
            ExportFormat::Ggf => needs_game(&rec, othello::NAME, "ggf")?,
            ExportFormat::Quoridor => needs_game(&rec, quoridor::NAME, quoridor::NAME)?,
            ExportFormat::Jsonl => {}
        }
    }
    Ok(())
}

/// Writes every export of `words` for `rec`. An error's message names the
/// export (`--export: FILE: ...`, `--export ggf= is for...`).
pub fn write_exports<S: AsRef<str>>(words: &[S], rec: &MatchRecord) -> Result<(), ConfigError> {
    for (format, path) in parse(words)? {
        let text = match format {
            ExportFormat::Ggf => ggf(rec)?,
            ExportFormat::Quoridor => quoridor(rec)?,
            ExportFormat::Jsonl => jsonl(rec),
        };
        // Written whole, through a link or device, never renamed over one.
        crate::files::output::write_whole(&path, text.as_bytes())
            .map_err(|e| ConfigError(format!("--export: {e}")))?;
    }
    Ok(())
}

fn needs_game(rec: &MatchRecord, game: &str, format: &str) -> Result<(), ConfigError> {
    if rec.game != game {
        return Err(ConfigError(format!(
            "--export {format}= is for {game} games, not {}",
            rec.game
        )));
    }
    Ok(())
}

/// The engine playing `seat` in game `g`.
fn player<'a>(rec: &'a MatchRecord, g: &GameRecord, seat: usize) -> &'a str {
    g.seats
        .get(seat)
        .and_then(|&e| rec.engines.get(e))
        .map_or("?", |e| e.name.as_str())
}

/// The moves of a transcript as (seat name, move), after any `setboard`,
/// and the position text that `setboard` set.
fn moves(g: &GameRecord) -> (Option<String>, Vec<(String, String)>) {
    let mut start = None;
    let mut out = Vec::new();
    for line in &g.transcript {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("setboard") => {
                start = Some(line["setboard".len()..].trim().to_string());
                out.clear();
            }
            Some("play") => {
                if let (Some(seat), Some(mv)) = (words.next(), words.next()) {
                    out.push((seat.to_string(), mv.to_string()));
                }
            }
            _ => {}
        }
    }
    (start, out)
}

/// The solved margin of an Othello game the solver adjudicated, for
/// black, read from how it was decided (`white +6 ...`).
fn solved_margin_for_black(how: &str) -> Option<i32> {
    let mut words = how.split_whitespace();
    let seat = words.next()?;
    let margin: i32 = words.next()?.parse().ok()?;
    Some(if seat == "black" { margin } else { -margin })
}

/// Othello games as GGF, one a line.
pub fn ggf(rec: &MatchRecord) -> Result<String, ConfigError> {
    needs_game(rec, othello::NAME, "ggf")?;
    let mut out = String::new();
    for g in &rec.games {
        let (start, moves) = moves(g);
        // The board as GGF writes it: `*` black, `O` white, `-` empty,
        // a1..h8 row by row, then the side to move.
        let start = start.unwrap_or_else(|| {
            format!(
                "{}OX{}XO{} X",
                "-".repeat(27),
                "-".repeat(6),
                "-".repeat(27)
            )
        });
        let (board, side) = start.split_once(' ').unwrap_or((&start, "X"));
        let board: String = board
            .chars()
            .map(|c| match c {
                'X' => '*',
                'O' => 'O',
                _ => '-',
            })
            .collect();
        let side = if side.trim() == "O" { 'O' } else { '*' };
        // GGS: a game lost by resignation (on the board or on the engines'
        // scores) or on time is won by 64, with its reason.
        let lost_by = match &g.ending {
            Ending::Resign(_) => Some('r'),
            Ending::Adjudicated(d) if d.decided() == Some(Decided::Resign) => Some('r'),
            Ending::Forfeit { .. } => Some('t'),
            _ => None,
        };
        let black_won = g.seat_results.first().is_some_and(|&r| r > 0.5);
        let result = match (&g.ending, &g.scores, lost_by) {
            (_, _, Some(reason)) => {
                format!("{}64.000:{reason}", if black_won { "+" } else { "-" })
            }
            (Ending::Normal, Some(s), _) if s.len() == 2 => {
                // Empty squares go to the winner, as Othello scores.
                let (b, w) = (s[0] as i32, s[1] as i32);
                let empties = 64 - b - w;
                let d = b - w;
                format!("{:+}.000", d + d.signum() * empties)
            }
            (Ending::Adjudicated(d), _, _) if d.decided() == Some(Decided::Draw) => {
                "0.000".to_string()
            }
            (
                Ending::Adjudicated(Decision::Known {
                    decided: Decided::Solver,
                    how,
                }),
                _,
                _,
            ) => solved_margin_for_black(how).map_or("?".to_string(), |m| format!("{m:+}.000")),
            _ => "?".to_string(),
        };
        let _ = write!(
            out,
            "(;GM[Othello]PC[tabula match]PB[{}]PW[{}]RE[{result}]TI[0]TY[8]BO[8 {board} {side}]",
            player(rec, g, 0),
            player(rec, g, 1)
        );
        for (seat, mv) in moves {
            let colour = if seat == "black" { 'B' } else { 'W' };
            let mv = if mv.eq_ignore_ascii_case("pass") {
                "PA".to_string()
            } else {
                mv.to_ascii_uppercase()
            };
            let _ = write!(out, "{colour}[{mv}]");
        }
        out.push_str(";)\n");
    }
    Ok(out)
}

/// The result of a game in words: the winning seats, or `draw`.
fn result_words(rec: &MatchRecord, g: &GameRecord) -> String {
    let seat = |s: usize| {
        rec.seat_names
            .get(s)
            .cloned()
            .unwrap_or_else(|| s.to_string())
    };
    let winners: Vec<usize> = (0..g.seat_results.len())
        .filter(|&s| g.seat_results[s] > 0.75)
        .collect();
    if winners.is_empty() {
        "draw".to_string()
    } else {
        winners.into_iter().map(seat).collect::<Vec<_>>().join(",")
    }
}

fn ending_word(g: &GameRecord) -> &'static str {
    match g.ending {
        Ending::Normal => "normal",
        Ending::MoveLimit => "movelimit",
        Ending::Adjudicated(_) => "adjudicated",
        Ending::Resign(_) => "resign",
        Ending::Forfeit { .. } => "forfeit",
        Ending::Error(_) => "error",
    }
}

/// Quoridor games as text, a line per move (protocol.md, "Quoridor game
/// text").
pub fn quoridor(rec: &MatchRecord) -> Result<String, ConfigError> {
    needs_game(rec, quoridor::NAME, quoridor::NAME)?;
    let mut out = String::new();
    for g in &rec.games {
        let (start, moves) = moves(g);
        let _ = writeln!(out, "[Game {}]", g.number);
        let _ = writeln!(out, "[Options {}]", rec.options.join(" "));
        for s in 0..g.seats.len() {
            let _ = writeln!(
                out,
                "[{} {}]",
                rec.seat_names.get(s).map_or("?", String::as_str),
                player(rec, g, s)
            );
        }
        if let Some(start) = start {
            let _ = writeln!(out, "[Start {start}]");
        }
        let _ = writeln!(out, "[Result {}]", result_words(rec, g));
        let _ = writeln!(out, "[Ending {}]", ending_word(g));
        for (ply, (seat, mv)) in moves.iter().enumerate() {
            let _ = writeln!(out, "{} {seat} {mv}", ply + 1);
        }
        out.push('\n');
    }
    Ok(out)
}

/// One game of the JSON-lines export: see docs/match.md for the keys.
#[derive(serde::Serialize)]
struct JsonGame<'a> {
    game: &'a str,
    options: &'a [String],
    seed: &'a [u64],
    number: usize,
    deal: u64,
    pairing: [&'a str; 2],
    seats: Vec<&'a str>,
    seat_names: &'a [String],
    ending: &'static str,
    culprit: Option<&'a str>,
    fault: Option<&'static str>,
    detail: Option<&'a str>,
    scores: Option<Vec<Plain>>,
    winners: &'a [usize],
    results: Vec<Plain>,
    first_score: Option<Plain>,
    plies: usize,
    ms: u64,
    #[serde(serialize_with = "lines")]
    transcript: &'a Transcript,
}

/// A transcript as a list of its lines.
fn lines<S: serde::Serializer>(transcript: &&Transcript, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(*transcript)
}

/// Every game as one JSON object a line: see docs/match.md for the keys.
pub fn jsonl(rec: &MatchRecord) -> String {
    let mut out = String::new();
    let name = |e: usize| rec.engines.get(e).map_or("?", |e| e.name.as_str());
    for g in &rec.games {
        let decision = match &g.ending {
            Ending::Adjudicated(d) => Some(d.to_string()),
            _ => None,
        };
        let (culprit, fault, detail) = match &g.ending {
            Ending::Resign(e) => (Some(*e), None, None),
            Ending::Forfeit {
                engine,
                fault,
                detail,
            } => (Some(*engine), Some(fault.word()), Some(detail.as_str())),
            Ending::Adjudicated(_) => (None, None, decision.as_deref()),
            Ending::Error(d) => (None, None, Some(d.as_str())),
            _ => (None, None, None),
        };
        let line = JsonGame {
            game: &rec.game,
            options: &rec.options,
            seed: &rec.seeds,
            number: g.number,
            deal: g.deal,
            pairing: [name(g.pairing.0), name(g.pairing.1)],
            seats: g.seats.iter().map(|&e| name(e)).collect(),
            seat_names: &rec.seat_names,
            ending: ending_word(g),
            culprit: culprit.map(name),
            fault,
            detail,
            scores: g.scores.as_deref().map(Plain::all),
            winners: &g.winners,
            results: Plain::all(&g.seat_results),
            first_score: g.first_score().map(Plain),
            plies: g.plies,
            ms: g.millis,
            transcript: &g.transcript,
        };
        out.push_str(&crate::json::to_string(&line));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON-lines export as it was written before serde: every key
    /// in its order, a forfeit's culprit, fault and detail with escapes,
    /// `null`s, whole results as `1`, halves as `0.5`.
    #[test]
    fn jsonl_keeps_its_bytes() {
        let rec = MatchRecord::parse(crate::json::PIN_RECORD, std::path::Path::new("pins"))
            .expect("the pinned record reads");
        crate::json::assert_pinned("export", &jsonl(&rec));
    }

    #[test]
    fn export_words() {
        assert_eq!(parse(&["ggf=a.ggf"]).unwrap()[0].0, ExportFormat::Ggf);
        assert!(parse(&["pgn=a.pgn"]).is_err());
        assert!(parse(&["ggf="]).is_err());
        assert!(parse(&["a.ggf"]).is_err());
    }

    #[test]
    fn solved_margins_read_for_black() {
        assert_eq!(solved_margin_for_black("white +6 at 14"), Some(-6));
        assert_eq!(solved_margin_for_black("black -2 at 14"), Some(-2));
        assert_eq!(solved_margin_for_black("black"), None);
        assert_eq!(solved_margin_for_black("white six"), None);
    }
}
