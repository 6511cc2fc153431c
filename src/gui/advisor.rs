//! The analysis toggle: an engine process at the person's own seat, told
//! exactly what that seat is told, that analyses the person's turn and
//! reports each move's value to the page.
//!
//! It asks `analyze ... multipv=N` (a value for each of N moves); an engine
//! that refuses `multipv` is asked plain `analyze`, which values its best
//! move only. Only moves and values reach the page, never a principal
//! variation: in a card game that would be the engine's guesses about
//! other hands.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use crate::arena::config::spec::EngineSpec;
use crate::arena::engines::info_line::{InfoLine, parse_info};
use crate::arena::engines::process::EngineProcess;
use crate::json::Fixed;
use crate::model::game::Seat;

/// One analysis call: short, so that a move of the person or a new
/// position never waits long for the engine.
const SLICE_MS: u64 = 300;

/// The longest the advisor analyses one position.
const MAX_THINK: Duration = Duration::from_secs(30);

/// The most moves valued at once.
const MAX_MULTIPV: usize = 64;

enum Note {
    Tell(String),
    NewGame,
    Quit,
}

/// The page the advisor works for: it reads whether an analysis is
/// wanted and shows the analyses. The page's game implements it, so that
/// the advisor knows no more of the page than this.
pub trait AdvisedPage: Send + Sync + 'static {
    /// The step of the position the person is to move in, while the
    /// analysis is on and the page open; `None` while no analysis is
    /// wanted.
    fn wanted_step(&self) -> Option<usize>;
    /// Shows the analysis `event` of the position at `step`, unless the
    /// person has left that position.
    fn show_analysis(&self, event: String, step: usize);
}

/// The advisor's handle, held by the session's referee thread.
pub struct Advisor {
    notes: Sender<Note>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Advisor {
    /// Starts the engine and its thread; `None` (logged) if it cannot start.
    pub fn start(
        spec: &EngineSpec,
        game: &str,
        words: &[String],
        human: Seat,
        seat_name: &str,
        perfect: bool,
        session: Arc<dyn AdvisedPage>,
    ) -> Option<Advisor> {
        let mut process = match EngineProcess::spawn(&spec.launch, "advisor", None) {
            Ok(p) => p,
            Err(e) => {
                log::warn!("no analysis: {e}");
                return None;
            }
        };
        let timeout = Duration::from_secs(10);
        for line in spec.start_lines() {
            if let Err(e) = process.send(line, timeout) {
                log::warn!("no analysis: {e}");
                return None;
            }
        }
        let game_line =
            crate::arena::ground::referee::game_command(game, words, (!perfect).then_some(human));
        let (notes, rx) = mpsc::channel();
        let seat_name = seat_name.to_string();
        // A solved game's values read as margins in its own unit
        // (Othello's discs), as its programs show them.
        let margins = crate::games::find(game)
            .and_then(|e| e.traits(words).ok())
            .is_some_and(|t| t.solver);
        let thread = thread::Builder::new()
            .name("gui advisor".to_string())
            .spawn(move || advise(process, game_line, seat_name, rx, session, margins))
            .ok()?;
        Some(Advisor {
            notes,
            thread: Some(thread),
        })
    }

    /// A line the person's seat was told (or its own move).
    pub fn tell(&mut self, line: &str) {
        let _ = self.notes.send(Note::Tell(line.to_string()));
    }

    /// A new game starts.
    pub fn new_game(&mut self) {
        let _ = self.notes.send(Note::NewGame);
    }

    /// Quits the engine and waits for the thread.
    pub fn quit(mut self) {
        let _ = self.notes.send(Note::Quit);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Advisor {
    fn drop(&mut self) {
        let _ = self.notes.send(Note::Quit);
    }
}

fn advise(
    mut process: EngineProcess,
    game_line: String,
    seat: String,
    notes: Receiver<Note>,
    session: Arc<dyn AdvisedPage>,
    margins: bool,
) {
    let timeout = Duration::from_secs(10);
    let mut ok = process.send(&game_line, timeout).is_ok();
    let mut multipv = true;
    // When the position to analyse came, and whether it is worth more.
    let mut since = Instant::now();
    let mut done = false;
    let mut best: Vec<(InfoLine, Option<i32>)> = Vec::new();
    let mut analysed = usize::MAX;
    while ok {
        // Whether to analyse, and the position's step, are read before
        // the notes are drained: a turn that began before this read had
        // its moves told before it. An analysis is labelled with its
        // step; the page shows it at that step only.
        let (wanted, step) = match session.wanted_step() {
            Some(step) => (true, step),
            None => (false, usize::MAX),
        };
        let mut changed = wanted && step != analysed;
        analysed = if wanted { step } else { usize::MAX };
        loop {
            let note = if wanted && !done {
                match notes.try_recv() {
                    Ok(n) => n,
                    Err(mpsc::TryRecvError::Empty) => break,
                    Err(mpsc::TryRecvError::Disconnected) => Note::Quit,
                }
            } else {
                match notes.recv_timeout(Duration::from_millis(100)) {
                    Ok(n) => n,
                    Err(RecvTimeoutError::Timeout) => break,
                    Err(RecvTimeoutError::Disconnected) => Note::Quit,
                }
            };
            match note {
                Note::Tell(line) => {
                    ok &= process.send(&line, timeout).is_ok();
                    changed = true;
                }
                Note::NewGame => {
                    ok &= process.send(&game_line, timeout).is_ok();
                    changed = true;
                }
                Note::Quit => {
                    process.quit();
                    return;
                }
            }
        }
        if changed {
            since = Instant::now();
            done = false;
            best.clear();
        }
        if !wanted || done || !ok {
            if !wanted {
                done = false;
            }
            continue;
        }
        let command = if multipv {
            format!("analyze {seat} movetime={SLICE_MS} interval=100 multipv={MAX_MULTIPV}")
        } else {
            format!("analyze {seat} movetime={SLICE_MS} interval=100")
        };
        let reply = match process.send(&command, Duration::from_millis(SLICE_MS + 5000)) {
            Ok(r) => r,
            Err(crate::arena::engines::process::ProcessError::Refused { message, .. })
                if multipv =>
            {
                log::info!("the advisor has no multipv ({message}): best move only");
                multipv = false;
                continue;
            }
            Err(e) => {
                log::warn!("analysis stopped: {e}");
                done = true;
                continue;
            }
        };
        merge_lines(&mut best, &reply);
        let event = analysis_event(step, &best, margins, multipv, since.elapsed());
        // A position left while it was analysed is not shown.
        session.show_analysis(event, step);
        if since.elapsed() >= MAX_THINK {
            done = true;
        }
    }
    process.kill();
}

/// Merges the info lines of one reply into the values found so far,
/// best first. The last line of each move is the freshest; across slices
/// a move keeps its deepest value (a slice's search may end with only its
/// first moves searched deeper).
fn merge_lines(best: &mut Vec<(InfoLine, Option<i32>)>, reply: &str) {
    for (info, line) in reply.lines().filter_map(|l| parse_info(l).map(|i| (i, l))) {
        let exact = exact_margin(line);
        match best.iter_mut().find(|(i, _)| i.mv == info.mv) {
            Some(old) => {
                let deeper = info.depth.unwrap_or(0) >= old.0.depth.unwrap_or(0);
                if deeper || exact.is_some() {
                    *old = (info, exact);
                }
            }
            None => best.push((info, exact)),
        }
    }
    best.sort_by(|a, b| b.0.score.total_cmp(&a.0.score));
}

/// The analysis event: the values of the moves at `step`, best first.
#[derive(serde::Serialize)]
#[serde(tag = "type", rename = "analysis")]
struct AnalysisEvent {
    step: usize,
    moves: Vec<MoveValue>,
    /// Whether the engine values many moves (else its best only).
    multipv: bool,
    depth: Option<u64>,
    iterations: Option<u64>,
    /// How long the position has been analysed.
    ms: u128,
}

/// One move's value.
#[derive(serde::Serialize)]
struct MoveValue {
    rank: usize,
    #[serde(rename = "move")]
    mv: String,
    /// The mover's value in [0, 1], at four decimals.
    score: Fixed,
    /// In a solved game, the margin in its own unit: exact where the
    /// solver decided, else estimated at one decimal.
    margin: Option<Margin>,
    /// Whether the margin is exact.
    exact: bool,
}

/// A margin: the solver's, or one estimated from a score.
#[derive(serde::Serialize)]
#[serde(untagged)]
enum Margin {
    Exact(i32),
    Estimate(Fixed),
}

/// The page's event for the values found so far at `step`, analysed for
/// `elapsed`.
fn analysis_event(
    step: usize,
    best: &[(InfoLine, Option<i32>)],
    margins: bool,
    multipv: bool,
    elapsed: Duration,
) -> String {
    let moves = best
        .iter()
        .map(|(i, exact)| MoveValue {
            rank: i.rank,
            mv: i.mv.clone(),
            score: Fixed {
                value: i.score.clamp(0.0, 1.0),
                decimals: 4,
            },
            // Alpha-beta reports `1/2 + margin / 128` (protocol.md); the
            // solver its exact margin.
            margin: margins.then(|| match exact {
                Some(m) => Margin::Exact(*m),
                None => Margin::Estimate(Fixed {
                    value: ((i.score - 0.5) * 128.0).clamp(-64.0, 64.0),
                    decimals: 1,
                }),
            }),
            exact: exact.is_some(),
        })
        .collect();
    crate::json::to_string(&AnalysisEvent {
        step,
        moves,
        multipv,
        depth: best.iter().filter_map(|(i, _)| i.depth).max(),
        iterations: best.iter().filter_map(|(i, _)| i.iterations).max(),
        ms: elapsed.as_millis(),
    })
}

/// The `exact <margin>` of an info line, where the solver decided.
fn exact_margin(line: &str) -> Option<i32> {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        match w {
            "pv" => return None,
            "exact" => return words.next()?.parse().ok(),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The analysis event as the page got it before serde: scores at four
    /// decimals, an estimated margin at one, a solver's margin whole, the
    /// deepest reply kept, `null` for what no line reported.
    #[test]
    fn the_analysis_event_keeps_its_bytes() {
        let mut best = Vec::new();
        merge_lines(
            &mut best,
            "info multipv 1 move d3 score 0.75 depth 5 pv d3\n\
             info multipv 2 move c4 score 0.5 depth 4 exact -2 pv c4\n\
             info multipv 1 move d3 score 0.8 depth 3 pv d3\n",
        );
        assert_eq!(
            analysis_event(3, &best, true, true, Duration::from_millis(12)),
            r#"{"type":"analysis","step":3,"moves":[{"rank":1,"move":"d3","score":0.7500,"margin":32.0,"exact":false},{"rank":2,"move":"c4","score":0.5000,"margin":-2,"exact":true}],"multipv":true,"depth":5,"iterations":null,"ms":12}"#
        );
        assert_eq!(
            analysis_event(0, &best[..1], false, false, Duration::ZERO),
            r#"{"type":"analysis","step":0,"moves":[{"rank":1,"move":"d3","score":0.7500,"margin":null,"exact":false}],"multipv":false,"depth":5,"iterations":null,"ms":0}"#
        );
    }
}
