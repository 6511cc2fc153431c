//! The record of a match: one text file holding every game, and the merging
//! of several such files into one.
//!
//! The file is a protocol transcript with `#` comment headers, so feeding it
//! to an engine replays every game (`game ...`, then `play`/`deal` lines),
//! while the headers carry what the runner needs to rebuild the report:
//!
//! ```text
//! # tabula-match 1
//! # match game=othello options="" seed=42 seats=black,white
//! # engine index=0 name=uct proto=tabula cmd="./tabula" init="set search uct"
//! # engine index=1 name=ab proto=tabula cmd="./tabula" init="set search alphabeta"
//! # game number=1 pairing=uct,ab deal=0 seats=uct,ab ending=normal scores=40,24 winners=0 results=1,0 plies=60 ms=812
//! game othello
//! play black d3
//! ...
//! ```
//!
//! Each game block is written when the game ends (so games appear in the
//! order they finished) and is followed by an empty line. Values holding
//! spaces are double-quoted with `\"`, `\\` and `\n` escapes.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The first line of every record file.
pub const MAGIC: &str = "# tabula-match 1";

/// What kind of fault forfeited a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fault {
    /// The engine could not be started.
    Spawn,
    /// The engine exited or closed its output.
    Crash,
    /// No reply in time (a hang, or the clock ran out).
    Timeout,
    /// The move was not legal (or not a move of the game at all).
    Illegal,
    /// The engine printed something that is not a protocol reply.
    Malformed,
    /// The engine answered `?` to a command it had to accept.
    Refused,
}

impl Fault {
    /// Every kind, in report order.
    pub const ALL: [Fault; 6] = [
        Fault::Spawn,
        Fault::Crash,
        Fault::Timeout,
        Fault::Illegal,
        Fault::Malformed,
        Fault::Refused,
    ];

    /// The word used in records.
    pub fn word(self) -> &'static str {
        match self {
            Fault::Spawn => "spawn",
            Fault::Crash => "crash",
            Fault::Timeout => "timeout",
            Fault::Illegal => "illegal",
            Fault::Malformed => "malformed",
            Fault::Refused => "refused",
        }
    }

    /// Reads the word used in records.
    pub fn from_word(word: &str) -> Option<Fault> {
        Fault::ALL.into_iter().find(|f| f.word() == word)
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules.
    Normal,
    /// The engine (index) resigned.
    Resign(usize),
    /// Adjudicated a draw after the move limit.
    MoveLimit,
    /// Adjudicated by `--adjudicate` (the winners say the result): what
    /// decided it.
    Adjudicated(String),
    /// The engine (index) forfeited by a fault.
    Forfeit {
        /// The culprit engine.
        engine: usize,
        /// What it did.
        fault: Fault,
        /// The details, for people.
        detail: String,
    },
    /// The runner itself failed (a bug); the game does not count.
    Error(String),
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Game number in the match, from 1.
    pub number: usize,
    /// The pairing: the engines (indices) playing, first one first.
    pub pairing: (usize, usize),
    /// The deal (and opening) index: games with equal deals replay the
    /// same chance outcomes with seats rotated.
    pub deal: u64,
    /// The engine (index) at each seat.
    pub seats: Vec<usize>,
    /// How the game ended.
    pub ending: Ending,
    /// The game's own final scores per seat (when it ended by the rules).
    pub scores: Option<Vec<f64>>,
    /// The winning seats by the rules.
    pub winners: Vec<usize>,
    /// The result of each seat: 1 win, ½ draw, 0 loss.
    pub seat_results: Vec<f64>,
    /// Moves played by engines.
    pub plies: usize,
    /// Wall-clock duration in milliseconds.
    pub millis: u64,
    /// The game as protocol commands (`game ...`, `play ...`, `deal ...`).
    pub transcript: Vec<String>,
}

impl GameRecord {
    /// The mean result of `engine` over its seats, if it played.
    pub fn engine_result(&self, engine: usize) -> Option<f64> {
        let mine: Vec<f64> = self
            .seats
            .iter()
            .zip(&self.seat_results)
            .filter(|(e, _)| **e == engine)
            .map(|(_, r)| *r)
            .collect();
        (!mine.is_empty()).then(|| mine.iter().sum::<f64>() / mine.len() as f64)
    }

    /// The score of the pairing's first engine: 1 if its seats did better
    /// than the second's, ½ if equal, 0 if worse. `None` if the game does
    /// not count (a runner error).
    pub fn first_score(&self) -> Option<f64> {
        if matches!(self.ending, Ending::Error(_)) {
            return None;
        }
        let a = self.engine_result(self.pairing.0)?;
        let b = self.engine_result(self.pairing.1)?;
        Some(if a > b + 1e-9 {
            1.0
        } else if b > a + 1e-9 {
            0.0
        } else {
            0.5
        })
    }

    /// The score of `engine` in this game, if it played and the game counts.
    pub fn score_of(&self, engine: usize) -> Option<f64> {
        let first = self.first_score()?;
        if engine == self.pairing.0 {
            Some(first)
        } else if engine == self.pairing.1 {
            Some(1.0 - first)
        } else {
            None
        }
    }
}

/// Per-seat results from winners: winners get 1, others 0; nobody or
/// everybody winning is a draw (½ each).
pub fn results_from_winners(seats: usize, winners: &[usize]) -> Vec<f64> {
    let valid: Vec<usize> = winners.iter().copied().filter(|&w| w < seats).collect();
    if valid.is_empty() || (0..seats).all(|s| valid.contains(&s)) {
        return vec![0.5; seats];
    }
    (0..seats)
        .map(|s| if valid.contains(&s) { 1.0 } else { 0.0 })
        .collect()
}

/// An engine as the record describes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineInfo {
    /// Its unique name in the match.
    pub name: String,
    /// `tabula` or `gtp`.
    pub proto: String,
    /// The command that started it.
    pub command: String,
    /// The lines sent once after start (settings).
    pub init: Vec<String>,
}

/// A whole match: what was played, by whom, and every game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchRecord {
    /// The game name.
    pub game: String,
    /// Its options as `key=value` words.
    pub options: Vec<String>,
    /// The seeds of the runs (one per merged run).
    pub seeds: Vec<u64>,
    /// The names of the seats.
    pub seat_names: Vec<String>,
    /// The engines, indexed by the games' engine numbers.
    pub engines: Vec<EngineInfo>,
    /// `K/N` when this is shard K of N of a match (`--shard`).
    pub shard: Option<String>,
    /// The games.
    pub games: Vec<GameRecord>,
}

/// Why a record could not be read, written or merged.
#[derive(Debug)]
pub enum RecordError {
    /// A file could not be opened, read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// A line could not be understood.
    Parse {
        /// The file.
        path: PathBuf,
        /// The line number (from 1).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The records are of different matches.
    Incompatible(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            RecordError::Parse {
                path,
                line,
                message,
            } => {
                write!(f, "{}:{line}: {message}", path.display())
            }
            RecordError::Incompatible(m) => write!(f, "cannot merge: {m}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// Quotes a value if it needs it.
pub fn quote(value: &str) -> String {
    if !value.is_empty()
        && !value
            .chars()
            .any(|c| c.is_whitespace() || "\"\\=".contains(c))
    {
        return value.to_string();
    }
    let mut out = String::from("\"");
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Splits `key=value key="quoted value"` into pairs.
pub fn parse_pairs(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.peek().is_none() {
            return Ok(pairs);
        }
        let mut key = String::new();
        while let Some(c) = chars.next_if(|&c| c != '=' && !c.is_whitespace()) {
            key.push(c);
        }
        if chars.next() != Some('=') {
            return Err(format!("'{key}' is not key=value"));
        }
        let mut value = String::new();
        if chars.next_if_eq(&'"').is_some() {
            loop {
                match chars.next() {
                    None => return Err(format!("unclosed quote in the value of '{key}'")),
                    Some('"') => break,
                    Some('\\') => match chars.next() {
                        Some('n') => value.push('\n'),
                        Some(c) => value.push(c),
                        None => return Err(format!("unclosed quote in the value of '{key}'")),
                    },
                    Some(c) => value.push(c),
                }
            }
        } else {
            while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
                value.push(c);
            }
        }
        pairs.push((key, value));
    }
}

fn join_nums(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| format!("{v}"))
        .collect::<Vec<_>>()
        .join(",")
}

impl MatchRecord {
    /// The header lines (magic, match, engines).
    pub fn header_text(&self) -> String {
        let mut out = format!("{MAGIC}\n");
        let seeds: Vec<String> = self.seeds.iter().map(u64::to_string).collect();
        out.push_str(&format!(
            "# match game={} options={} seed={} seats={}{}\n",
            quote(&self.game),
            quote(&self.options.join(" ")),
            quote(&seeds.join(",")),
            quote(&self.seat_names.join(",")),
            self.shard
                .as_ref()
                .map_or(String::new(), |s| format!(" shard={}", quote(s))),
        ));
        for (i, e) in self.engines.iter().enumerate() {
            out.push_str(&format!(
                "# engine index={i} name={} proto={} cmd={} init={}\n",
                quote(&e.name),
                quote(&e.proto),
                quote(&e.command),
                quote(&e.init.join("\n")),
            ));
        }
        out
    }

    /// The block of one game: its header line, its transcript, an empty line.
    pub fn game_text(&self, g: &GameRecord) -> String {
        let name = |e: usize| {
            self.engines
                .get(e)
                .map_or("?", |e| e.name.as_str())
                .to_string()
        };
        let seats: Vec<String> = g.seats.iter().map(|&e| name(e)).collect();
        let mut line = format!(
            "# game number={} pairing={},{} deal={} seats={}",
            g.number,
            quote(&name(g.pairing.0)),
            quote(&name(g.pairing.1)),
            g.deal,
            quote(&seats.join(",")),
        );
        match &g.ending {
            Ending::Normal => line.push_str(" ending=normal"),
            Ending::MoveLimit => line.push_str(" ending=movelimit"),
            Ending::Adjudicated(d) => {
                line.push_str(&format!(" ending=adjudicated detail={}", quote(d)))
            }
            Ending::Resign(e) => {
                line.push_str(&format!(" ending=resign culprit={}", quote(&name(*e))))
            }
            Ending::Forfeit {
                engine,
                fault,
                detail,
            } => line.push_str(&format!(
                " ending=forfeit culprit={} fault={} detail={}",
                quote(&name(*engine)),
                fault.word(),
                quote(detail)
            )),
            Ending::Error(m) => line.push_str(&format!(" ending=error detail={}", quote(m))),
        }
        if let Some(scores) = &g.scores {
            line.push_str(&format!(" scores={}", join_nums(scores)));
        }
        let winners: Vec<String> = g.winners.iter().map(usize::to_string).collect();
        line.push_str(&format!(
            " winners={} results={} plies={} ms={}\n",
            quote(&winners.join(",")),
            join_nums(&g.seat_results),
            g.plies,
            g.millis
        ));
        for cmd in &g.transcript {
            line.push_str(cmd);
            line.push('\n');
        }
        line.push('\n');
        line
    }

    /// The whole file.
    pub fn to_text(&self) -> String {
        let mut out = self.header_text();
        out.push('\n');
        for g in &self.games {
            out.push_str(&self.game_text(g));
        }
        out
    }

    /// Writes the whole file.
    pub fn write(&self, path: &Path) -> Result<(), RecordError> {
        let io = |source| RecordError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut f = BufWriter::new(File::create(path).map_err(io)?);
        f.write_all(self.to_text().as_bytes()).map_err(io)?;
        f.flush().map_err(io)
    }

    /// Reads a record from its text; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<MatchRecord, RecordError> {
        let mut lines = text.lines().enumerate();
        let err = |line: usize, message: String| RecordError::Parse {
            path: path.to_path_buf(),
            line: line + 1,
            message,
        };
        match lines.next() {
            Some((_, first)) if first.trim() == MAGIC => {}
            _ => {
                return Err(err(
                    0,
                    format!("not a match record (the first line must be '{MAGIC}')"),
                ));
            }
        }
        let mut rec = MatchRecord::default();
        let mut seen_match = false;
        for (no, raw) in lines {
            let line = raw.trim();
            let Some(comment) = line.strip_prefix('#') else {
                if line.is_empty() {
                    continue;
                }
                match rec.games.last_mut() {
                    Some(g) => g.transcript.push(line.to_string()),
                    None => {
                        return Err(err(
                            no,
                            "a command before the first game header".to_string(),
                        ));
                    }
                }
                continue;
            };
            let comment = comment.trim_start();
            let (kind, rest) = comment.split_once(' ').unwrap_or((comment, ""));
            if !matches!(kind, "match" | "engine" | "game") {
                // A game's notes (a restarted engine) stay in its block.
                if line.starts_with(super::recover::RESTART_MARK)
                    && let Some(g) = rec.games.last_mut()
                {
                    g.transcript.push(line.to_string());
                }
                continue;
            }
            let pairs: BTreeMap<String, String> = parse_pairs(rest)
                .map_err(|m| err(no, m))?
                .into_iter()
                .collect();
            let get = |key: &str| pairs.get(key).cloned().unwrap_or_default();
            match kind {
                "match" => {
                    seen_match = true;
                    rec.game = get("game");
                    rec.options = get("options")
                        .split_whitespace()
                        .map(str::to_string)
                        .collect();
                    rec.seeds = split_list(&get("seed"))
                        .iter()
                        .map(|s| s.parse().map_err(|_| err(no, format!("bad seed '{s}'"))))
                        .collect::<Result<_, _>>()?;
                    rec.seat_names = split_list(&get("seats"));
                    rec.shard = pairs.get("shard").cloned();
                }
                "engine" => {
                    let name = get("name");
                    if name.is_empty() {
                        return Err(err(no, "an engine without a name".to_string()));
                    }
                    if rec.engines.iter().any(|e| e.name == name) {
                        return Err(err(no, format!("engine '{name}' appears twice")));
                    }
                    let init = get("init");
                    rec.engines.push(EngineInfo {
                        name,
                        proto: get("proto"),
                        command: get("cmd"),
                        init: init
                            .lines()
                            .map(str::to_string)
                            .filter(|l| !l.is_empty())
                            .collect(),
                    });
                }
                _ => {
                    let g = parse_game(&pairs, &rec.engines).map_err(|m| err(no, m))?;
                    if rec.games.iter().any(|o| o.number == g.number) {
                        return Err(err(no, format!("game {} appears twice", g.number)));
                    }
                    rec.games.push(g);
                }
            }
        }
        if !seen_match {
            return Err(err(1, "no '# match' header".to_string()));
        }
        Ok(rec)
    }

    /// Reads a record file.
    pub fn read(path: &Path) -> Result<MatchRecord, RecordError> {
        let text = std::fs::read_to_string(path).map_err(|source| RecordError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        MatchRecord::parse(&text, path)
    }

    /// Merges several records of the same match (same game and options):
    /// engines are matched by name. Records of one seed (the shards of a
    /// match) keep their game numbers, in order, and must not share a
    /// game: the result is that match. Records of different seeds are
    /// runs of their own, and their games are numbered on.
    pub fn merge(records: &[MatchRecord]) -> Result<MatchRecord, RecordError> {
        let named: Vec<(String, &MatchRecord)> = records
            .iter()
            .enumerate()
            .map(|(i, r)| (format!("record {}", i + 1), r))
            .collect();
        merge_named(&named)
    }

    /// [`MatchRecord::merge`] of records read from files (named in errors).
    pub fn merge_files<P: AsRef<Path>>(
        records: &[(P, MatchRecord)],
    ) -> Result<MatchRecord, RecordError> {
        let named: Vec<(String, &MatchRecord)> = records
            .iter()
            .map(|(p, r)| (p.as_ref().display().to_string(), r))
            .collect();
        merge_named(&named)
    }
}

fn merge_named(records: &[(String, &MatchRecord)]) -> Result<MatchRecord, RecordError> {
    let Some((_, first)) = records.first() else {
        return Err(RecordError::Incompatible("no records given".to_string()));
    };
    let mut out = MatchRecord {
        game: first.game.clone(),
        options: first.options.clone(),
        seat_names: first.seat_names.clone(),
        ..MatchRecord::default()
    };
    // One seed throughout: the shards (or copies) of one match.
    let one_seed = records
        .iter()
        .all(|(_, r)| r.seeds.len() == 1 && r.seeds == first.seeds);
    // Which record brought each seed, and each game of a one-seed merge.
    let mut seed_from: Vec<(u64, &str)> = Vec::new();
    let mut number_from: BTreeMap<usize, &str> = BTreeMap::new();
    for (name, rec) in records {
        if rec.game != out.game || rec.options != out.options {
            return Err(RecordError::Incompatible(format!(
                "'{} {}' and '{} {}' ({name}) are different games",
                out.game,
                out.options.join(" "),
                rec.game,
                rec.options.join(" ")
            )));
        }
        if !one_seed {
            for &seed in &rec.seeds {
                if let Some((_, other)) = seed_from.iter().find(|(s, _)| *s == seed) {
                    return Err(RecordError::Incompatible(format!(
                        "{other} and {name} both hold games of seed {seed}, mixed with other seeds: \
                         merge the records of one seed first"
                    )));
                }
                seed_from.push((seed, name));
            }
            out.seeds.extend(&rec.seeds);
        }
        if one_seed
            && let Some((e, o)) = rec.engines.iter().find_map(|e| {
                out.engines
                    .iter()
                    .find(|o| o.name == e.name && (o.command != e.command || o.init != e.init))
                    .map(|o| (e, o))
            })
        {
            return Err(RecordError::Incompatible(format!(
                "engine {} is '{}' with {:?} in one record and '{}' with {:?} in {name}: \
                 shards of one match must run the same engines",
                e.name, o.command, o.init, e.command, e.init
            )));
        }
        let map: Vec<usize> = rec
            .engines
            .iter()
            .map(
                |e| match out.engines.iter().position(|o| o.name == e.name) {
                    Some(i) => i,
                    None => {
                        out.engines.push(e.clone());
                        out.engines.len() - 1
                    }
                },
            )
            .collect();
        for g in &rec.games {
            let remap = |e: usize| map.get(e).copied().unwrap_or(e);
            let mut g = g.clone();
            if one_seed {
                if let Some(other) = number_from.insert(g.number, name) {
                    return Err(RecordError::Incompatible(format!(
                        "game {} of seed {} is in both {other} and {name}: the same games would \
                         count twice",
                        g.number, first.seeds[0]
                    )));
                }
            } else {
                g.number = out.games.len() + 1;
            }
            g.pairing = (remap(g.pairing.0), remap(g.pairing.1));
            g.seats = g.seats.iter().map(|&e| remap(e)).collect();
            g.ending = match g.ending {
                Ending::Resign(e) => Ending::Resign(remap(e)),
                Ending::Forfeit {
                    engine,
                    fault,
                    detail,
                } => Ending::Forfeit {
                    engine: remap(engine),
                    fault,
                    detail,
                },
                other => other,
            };
            out.games.push(g);
        }
    }
    if one_seed {
        out.seeds = first.seeds.clone();
        out.games.sort_by_key(|g| g.number);
    }
    Ok(out)
}

/// When `records` are shards of one match (`shard=K/N` headers, one seed,
/// one N), the shards not among them, as `2/4, 3/4`; `None` when none is
/// missing or they are not shards.
pub fn missing_shards<'a>(records: impl Iterator<Item = &'a MatchRecord>) -> Option<String> {
    let mut count = None;
    let mut have = Vec::new();
    for rec in records {
        let (k, n) = rec.shard.as_deref()?.split_once('/')?;
        let (k, n): (u64, u64) = (k.parse().ok()?, n.parse().ok()?);
        if count.is_some_and(|c| c != n) {
            return None;
        }
        count = Some(n);
        have.push(k);
    }
    let n = count?;
    let missing: Vec<String> = (1..=n)
        .filter(|k| !have.contains(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    (!missing.is_empty()).then(|| missing.join(", "))
}

fn split_list(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// Finite numbers, separated by commas.
fn parse_nums(text: &str, what: &str) -> Result<Vec<f64>, String> {
    split_list(text)
        .iter()
        .map(|s| match s.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(format!("bad number '{s}' in {what}")),
        })
        .collect()
}

fn parse_game(
    pairs: &BTreeMap<String, String>,
    engines: &[EngineInfo],
) -> Result<GameRecord, String> {
    let get = |key: &str| pairs.get(key).map(String::as_str).unwrap_or("");
    let engine = |name: &str| {
        engines
            .iter()
            .position(|e| e.name == name)
            .ok_or_else(|| format!("unknown engine '{name}' (not in an '# engine' header)"))
    };
    let int = |key: &str| -> Result<u64, String> {
        get(key)
            .parse()
            .map_err(|_| format!("bad or missing {key} '{}'", get(key)))
    };
    let pairing = split_list(get("pairing"));
    let [a, b] = pairing.as_slice() else {
        return Err("pairing must name two engines".to_string());
    };
    let seats = split_list(get("seats"))
        .iter()
        .map(|n| engine(n))
        .collect::<Result<Vec<_>, _>>()?;
    let seat_results = parse_nums(get("results"), "results")?;
    if seat_results.len() != seats.len() {
        return Err("results and seats differ in length".to_string());
    }
    if let Some(r) = seat_results.iter().find(|r| !(0.0..=1.0).contains(*r)) {
        return Err(format!("result {r} is not a seat result (between 0 and 1)"));
    }
    let ending = match get("ending") {
        "normal" => Ending::Normal,
        "movelimit" => Ending::MoveLimit,
        "adjudicated" => Ending::Adjudicated(get("detail").to_string()),
        "resign" => Ending::Resign(engine(get("culprit"))?),
        "forfeit" => Ending::Forfeit {
            engine: engine(get("culprit"))?,
            fault: Fault::from_word(get("fault"))
                .ok_or_else(|| format!("unknown fault '{}'", get("fault")))?,
            detail: get("detail").to_string(),
        },
        "error" => Ending::Error(get("detail").to_string()),
        other => return Err(format!("unknown ending '{other}'")),
    };
    let winners: Vec<usize> = split_list(get("winners"))
        .iter()
        .map(|s| match s.parse() {
            Ok(w) if w < seats.len() => Ok(w),
            _ => Err(format!("bad seat '{s}' in winners")),
        })
        .collect::<Result<_, _>>()?;
    let (pa, pb) = (engine(a)?, engine(b)?);
    if pa == pb || !seats.contains(&pa) || !seats.contains(&pb) {
        return Err("the pairing's engines must be two engines at its seats".to_string());
    }
    Ok(GameRecord {
        number: int("number")? as usize,
        pairing: (pa, pb),
        deal: int("deal")?,
        seats,
        ending,
        scores: pairs
            .get("scores")
            .map(|s| parse_nums(s, "scores"))
            .transpose()?,
        winners,
        seat_results,
        plies: int("plies").unwrap_or(0) as usize,
        millis: int("ms").unwrap_or(0),
        transcript: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_round_trips() {
        for v in ["plain", "", "two words", "a \"q\" \\ b", "x=y", "l1\nl2"] {
            let text = format!("k={} z=1", quote(v));
            let pairs = parse_pairs(&text).unwrap();
            assert_eq!(
                pairs,
                vec![
                    ("k".to_string(), v.to_string()),
                    ("z".to_string(), "1".to_string())
                ]
            );
        }
        assert!(parse_pairs("k=\"open").is_err());
        assert!(parse_pairs("novalue").is_err());
    }

    #[test]
    fn engines_with_several_seats_score_by_their_mean() {
        let mut g = GameRecord {
            number: 1,
            pairing: (0, 1),
            deal: 0,
            seats: vec![0, 1, 0, 1],
            ending: Ending::Normal,
            scores: None,
            winners: vec![0],
            seat_results: vec![1.0, 0.0, 0.0, 0.0],
            plies: 0,
            millis: 0,
            transcript: Vec::new(),
        };
        assert_eq!(g.engine_result(0), Some(0.5));
        assert_eq!((g.first_score(), g.score_of(1)), (Some(1.0), Some(0.0)));
        g.seat_results = vec![1.0, 1.0, 0.0, 0.0];
        assert_eq!(g.first_score(), Some(0.5));
        g.ending = Ending::Error("bug".into());
        assert_eq!(g.first_score(), None);
    }

    #[test]
    fn winners_to_results() {
        assert_eq!(results_from_winners(2, &[0]), vec![1.0, 0.0]);
        assert_eq!(results_from_winners(2, &[]), vec![0.5, 0.5]);
        assert_eq!(results_from_winners(3, &[0, 1, 2]), vec![0.5; 3]);
        assert_eq!(results_from_winners(4, &[1, 3]), vec![0.0, 1.0, 0.0, 1.0]);
    }
}
