//! Opening suites (`--openings FILE format=moves|positions
//! order=sequential|random start=N`): every deal of a match starts from one
//! opening of a file, played once per seat rotation of the deal (so each
//! engine plays each opening from every side).
//!
//! Deal `d` plays opening `d` of the suite's order (wrapping round when
//! the match has more deals than the suite openings). `start=N` begins the
//! match at opening `N` (from 1): its deals, and with them its game numbers
//! and seeds, are those of a longer match from opening 1, so runs with
//! `start=` offsets (or `--shard`s) play disjoint slices of one match and
//! `--merge` into it. `order=random` shuffles the suite by the match seed,
//! the same shuffle for every run of that seed.
//!
//! File: one opening a line; empty lines and lines starting with `#` are
//! skipped. `format=moves`: moves separated by spaces or commas, in the
//! game's move text (`f5 d6 c3`); Othello's run-together form (`f5d6c3`,
//! as XOT lists are written) is read too. `format=positions`: a position
//! text per line, as `setboard` takes it (Othello: the FFO form of 64
//! squares and the side to move; Quoridor: its position text). Every line
//! is checked on the game before the first game.

use std::path::PathBuf;

use rand::SeedableRng;
use rand::seq::SliceRandom;

use crate::arena::config::spec::{EngineSpec, Proto};
use crate::arena::ground::config_error::ConfigError;
use crate::arena::ground::referee::Referee;
use crate::model::game::Turn;

/// How a suite's lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningFormat {
    /// Moves from the start of the game.
    Moves,
    /// A position text.
    Positions,
}

/// In which order the deals take the openings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// As in the file.
    Sequential,
    /// Shuffled by the match seed.
    Random,
}

/// One opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opening {
    /// Moves to play from the start (canonical texts).
    Moves(Vec<String>),
    /// A position to set.
    Position(String),
}

/// A checked suite of openings.
#[derive(Clone, Debug)]
pub struct OpeningSuite {
    /// The file it came from.
    pub path: PathBuf,
    /// How its lines are written.
    pub format: OpeningFormat,
    /// The order the deals take them in.
    pub order: Order,
    /// The first opening played (from 1).
    pub start: u64,
    openings: Vec<Opening>,
    /// Suite index of the opening of each position in the order.
    order_index: Vec<usize>,
}

impl OpeningSuite {
    /// Reads `FILE key=value...` words, reads the file and checks every
    /// opening on the game of `referee`; `seed` shuffles `order=random`.
    pub fn load<S: AsRef<str>>(
        words: &[S],
        referee: &dyn Referee,
        seed: u64,
    ) -> Result<OpeningSuite, ConfigError> {
        let usage = "--openings FILE [format=moves|positions] [order=sequential|random] [start=N]";
        let Some((file, rest)) = words.split_first() else {
            return Err(ConfigError(format!("{usage}: the file is missing")));
        };
        let path = PathBuf::from(file.as_ref());
        let (mut format, mut order, mut start) = (OpeningFormat::Moves, Order::Sequential, 1u64);
        for word in rest {
            let word = word.as_ref();
            match word.split_once('=') {
                Some(("format", "moves")) => format = OpeningFormat::Moves,
                Some(("format", "positions")) => format = OpeningFormat::Positions,
                Some(("order", "sequential")) => order = Order::Sequential,
                Some(("order", "random")) => order = Order::Random,
                Some(("start", n)) => {
                    start = n.parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
                        ConfigError(format!(
                            "--openings start= needs a whole number from 1, not '{n}'"
                        ))
                    })?
                }
                _ => {
                    return Err(ConfigError(format!(
                        "--openings: bad word '{word}' ({usage})"
                    )));
                }
            }
        }
        if format == OpeningFormat::Positions && referee.position_text().is_none() {
            return Err(ConfigError(format!(
                "--openings format=positions: {} has no position text",
                referee.game_name()
            )));
        }
        // The one reader of named files: a regular file (a FIFO or a
        // device is refused before it is opened), at most 64 MiB.
        // Given up when a signal ends the runner.
        let cancel = crate::arena::ground::interrupt::stopping;
        let text = crate::files::input::read_text(&path, &crate::files::input::OPENINGS, &cancel)
            .map_err(|e| ConfigError(format!("--openings: {e}")))?;
        let mut openings = Vec::new();
        for (no, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let opening = match format {
                OpeningFormat::Moves => Opening::Moves(read_moves(line, referee)),
                OpeningFormat::Positions => Opening::Position(line.to_string()),
            };
            let mut game = referee.new_game();
            apply(game.as_mut(), &opening).map_err(|e| {
                ConfigError(format!("--openings {}:{}: {e}", path.display(), no + 1))
            })?;
            if game.turn() == Turn::Over {
                return Err(ConfigError(format!(
                    "--openings {}:{}: the game is over after this opening",
                    path.display(),
                    no + 1
                )));
            }
            openings.push(opening);
        }
        if openings.is_empty() {
            return Err(ConfigError(format!(
                "--openings {}: no opening in the file",
                path.display()
            )));
        }
        let mut order_index: Vec<usize> = (0..openings.len()).collect();
        if order == Order::Random {
            let mut rng = crate::model::game::Rng::seed_from_u64(seed ^ 0x6f70_656e_696e_6773);
            order_index.shuffle(&mut rng);
        }
        Ok(OpeningSuite {
            path,
            format,
            order,
            start,
            openings,
            order_index,
        })
    }

    /// Number of openings.
    pub fn len(&self) -> usize {
        self.openings.len()
    }

    /// Whether the suite is empty (never, once loaded).
    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }

    /// The first deal a run plays: `start - 1`.
    pub fn first_deal(&self) -> u64 {
        self.start - 1
    }

    /// The opening of deal `deal` and its line number in the suite (from
    /// 1, counting openings only).
    pub fn for_deal(&self, deal: u64) -> (usize, &Opening) {
        let k = (deal % self.openings.len() as u64) as usize;
        let i = self.order_index[k];
        (i + 1, &self.openings[i])
    }

    /// The settings as `key=value` words, for the record.
    pub fn words(&self) -> String {
        format!(
            "openings={} format={} order={} start={}",
            crate::arena::record::codec::write_value(&self.path.display().to_string()),
            match self.format {
                OpeningFormat::Moves => "moves",
                OpeningFormat::Positions => "positions",
            },
            match self.order {
                Order::Sequential => "sequential",
                Order::Random => "random",
            },
            self.start
        )
    }
}

/// The suite of `--openings` words for a match: refused with a plain GTP
/// engine when it holds positions (GTP has no `setboard`).
pub fn for_match<S: AsRef<str>>(
    words: &[S],
    referee: &dyn Referee,
    seed: u64,
    engines: &[EngineSpec],
) -> Result<OpeningSuite, ConfigError> {
    let suite = OpeningSuite::load(words, referee, seed)?;
    if suite.format == OpeningFormat::Positions
        && let Some(e) = engines.iter().find(|e| e.proto == Proto::Gtp)
    {
        return Err(ConfigError(format!(
            "--openings format=positions: engine {} speaks plain GTP, which cannot be given a \
             position (use format=moves)",
            e.name
        )));
    }
    Ok(suite)
}

/// The moves of a line: words separated by spaces or commas; a word that
/// is not a move of the game and is written as run-together two-letter
/// coordinates (`f5d6c3`) is read as those.
fn read_moves(line: &str, referee: &dyn Referee) -> Vec<String> {
    let mut out = Vec::new();
    let mut game = referee.new_game();
    for word in line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
    {
        let chunks: Vec<String> = if game.check_move(word).is_err()
            && word.len() > 2
            && word.len().is_multiple_of(2)
            && word.is_ascii()
        {
            (0..word.len() / 2)
                .map(|i| word[2 * i..2 * i + 2].to_string())
                .collect()
        } else {
            vec![word.to_string()]
        };
        for mv in chunks {
            // A move that does not play is kept as written: `apply` reports it.
            let _ = game.play(&mv);
            out.push(mv);
        }
    }
    out
}

/// Plays or sets `opening` on `referee`; the canonical move texts played
/// (nothing for a position), or why it does not apply.
pub fn apply(referee: &mut dyn Referee, opening: &Opening) -> Result<Vec<String>, String> {
    match opening {
        Opening::Position(text) => {
            referee
                .set_position(text)
                .map_err(|e| format!("bad position '{text}': {e}"))?;
            Ok(Vec::new())
        }
        Opening::Moves(moves) => moves
            .iter()
            .map(|mv| {
                referee
                    .play(mv)
                    .map(|told| told.text)
                    .map_err(|e| format!("move '{mv}': {e}"))
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn othello() -> Box<dyn Referee> {
        crate::arena::ground::referee::referee_by_name("othello", &[]).unwrap()
    }

    fn suite(text: &str, words: &[&str]) -> Result<OpeningSuite, ConfigError> {
        let dir = std::env::temp_dir().join(format!("tabula-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // One file per call: the tests run at the same time.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = dir.join(format!("suite-{n}.txt"));
        std::fs::write(&path, text).unwrap();
        let mut all = vec![path.display().to_string()];
        all.extend(words.iter().map(|w| w.to_string()));
        OpeningSuite::load(&all, othello().as_ref(), 7)
    }

    #[test]
    fn moves_in_both_spellings() {
        let s = suite("# two\nf5 d6 c3\n\nf5d6c3d3\n", &[]).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(
            s.for_deal(0).1,
            &Opening::Moves(vec!["f5".into(), "d6".into(), "c3".into()])
        );
        assert_eq!(s.for_deal(3).0, 2);
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        let e = suite("f5 d6\nf5 a1\n", &[]).unwrap_err();
        assert!(e.0.contains(":2:"), "{e}");
        assert!(suite("f5\n", &["order=sideways"]).is_err());
        assert!(suite("f5\n", &["start=0"]).is_err());
        assert!(suite("# nothing\n", &[]).is_err());
        let bad_position = suite("not a board\n", &["format=positions"]).unwrap_err();
        assert!(bad_position.0.contains("bad position"), "{bad_position}");
    }

    #[test]
    fn random_order_is_a_permutation_fixed_by_the_seed() {
        let lines: String = ["f5", "f5 d6", "f5 f6", "f5 f4", "f5 d6 c3", "f5 d6 c5"]
            .iter()
            .map(|l| format!("{l}\n"))
            .collect();
        let a = suite(&lines, &["order=random"]).unwrap();
        let mut seen: Vec<usize> = (0..6).map(|d| a.for_deal(d).0).collect();
        let first = seen.clone();
        seen.sort_unstable();
        assert_eq!(seen, vec![1, 2, 3, 4, 5, 6]);
        let b = suite(&lines, &["order=random"]).unwrap();
        assert_eq!(first, (0..6).map(|d| b.for_deal(d).0).collect::<Vec<_>>());
    }
}
