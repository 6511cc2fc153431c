//! Toy games for the match runner's tests (the real games live elsewhere),
//! helpers to run matches against the fake engines in `tests/fixtures/`,
//! and helpers the card games' rule tests share (new and seat-bound
//! states, card texts, a referee's moves, a seat-bound state following a
//! game through `tell`, a decision that sees only determinized worlds, and
//! the no-peeking property).
#![allow(dead_code)]

use std::path::PathBuf;

use clap::Parser;
use rand::{Rng as _, SeedableRng};
use tabula::arena::{self, MatchArgs, MatchReport, Referee, referee_for};
use tabula::games::cards::Card;
use tabula::model::game::{Game, MoveError, Observation, Outcome, Rng, Seat, Turn};
use tabula::model::options::{OptionError, OptionKind, OptionSpec, Options};
use tabula::search::playout::random_playout;

/// Nim: take 1 to 3 stones; whoever takes the last stone wins.
#[derive(Clone, Debug)]
pub struct Nim {
    pile: u32,
    to_move: Seat,
    last: Option<Seat>,
}

impl Game for Nim {
    type Eval = tabula::model::game::OwnEvaluation;
    type Move = u32;
    const NAME: &'static str = "nim";
    const SUMMARY: &'static str = "take 1-3 stones, the last one wins";
    const OPTIONS: &'static [OptionSpec] = &[OptionSpec {
        name: "stones",
        kind: OptionKind::Int { min: 1, max: 99 },
        default: "7",
        help: "stones at the start",
    }];
    const TWO_PLAYER_ZERO_SUM: bool = true;

    fn new_game(options: &Options) -> Result<Self, OptionError> {
        Ok(Nim {
            pile: options.int("stones").unwrap_or(7) as u32,
            to_move: 0,
            last: None,
        })
    }
    fn num_seats(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.pile == 0 {
            Turn::Over
        } else {
            Turn::Player(self.to_move)
        }
    }
    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.clear();
        out.extend((1..=3).filter(|&k| k <= self.pile));
    }
    fn apply(&mut self, mv: u32) {
        self.pile -= mv;
        self.last = Some(self.to_move);
        self.to_move = 1 - self.to_move;
    }
    fn reward(&self, seat: Seat) -> f64 {
        if self.last == Some(seat) { 1.0 } else { 0.0 }
    }
    fn outcome(&self) -> Outcome {
        Outcome {
            scores: (0..2).map(|s| self.reward(s)).collect(),
            winners: self.last.into_iter().collect(),
        }
    }
    fn seat_name(&self, seat: Seat) -> String {
        ["first", "second"][seat].to_string()
    }
    fn move_text(&self, mv: u32) -> String {
        mv.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<u32, MoveError> {
        text.parse()
            .map_err(|_| MoveError::Syntax(format!("'{text}' is not a number of stones")))
    }
    fn render(&self) -> String {
        format!(
            "{} stones, {} to move",
            self.pile,
            self.seat_name(self.to_move)
        )
    }
}

/// Duel: a hidden-information card game. Chance deals two of the cards
/// 1..=6 to each seat; north then south play one card per trick; the
/// higher card takes the trick; two tricks; more tricks wins.
#[derive(Clone, Debug)]
pub struct Duel {
    hands: [Vec<u8>; 2],
    dealt: bool,
    table: Vec<u8>,
    tricks: [u32; 2],
    played: u32,
}

/// A Duel move: the whole deal (north's two cards, south's two), what one
/// seat is told of it, or a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DuelMove {
    /// North's cards then south's.
    Deal([u8; 4]),
    /// One seat's own two cards, as the referee tells them (text `a,b`).
    /// This toy has no seat-bound state, so it is told, never played: it
    /// is not legal here and applying it changes nothing.
    Hand([u8; 2]),
    /// A card played.
    Card(u8),
}

impl Game for Duel {
    type Eval = tabula::model::game::OwnEvaluation;
    type Move = DuelMove;
    const NAME: &'static str = "duel";
    const SUMMARY: &'static str = "two cards each, higher card takes the trick";
    const OPTIONS: &'static [OptionSpec] = &[OptionSpec {
        name: "seat",
        kind: OptionKind::Int { min: 0, max: 1 },
        default: "none",
        help: "bind to one seat",
    }];
    const PERFECT_INFORMATION: bool = false;

    fn new_game(_options: &Options) -> Result<Self, OptionError> {
        Ok(Duel {
            hands: [Vec::new(), Vec::new()],
            dealt: false,
            table: Vec::new(),
            tricks: [0, 0],
            played: 0,
        })
    }
    fn num_seats(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if !self.dealt {
            Turn::Chance
        } else if self.played == 4 {
            Turn::Over
        } else {
            Turn::Player(self.table.len())
        }
    }
    fn legal_moves(&self, out: &mut Vec<DuelMove>) {
        out.clear();
        match self.turn() {
            Turn::Chance => {
                for a in 1..=6u8 {
                    for b in a + 1..=6 {
                        for c in 1..=6u8 {
                            for d in c + 1..=6 {
                                if c != a && c != b && d != a && d != b {
                                    out.push(DuelMove::Deal([a, b, c, d]));
                                }
                            }
                        }
                    }
                }
            }
            Turn::Player(s) => out.extend(self.hands[s].iter().map(|&c| DuelMove::Card(c))),
            Turn::Over => {}
        }
    }
    fn apply(&mut self, mv: DuelMove) {
        match mv {
            DuelMove::Deal(cards) => {
                self.hands = [cards[..2].to_vec(), cards[2..].to_vec()];
                self.dealt = true;
            }
            DuelMove::Hand(_) => {}
            DuelMove::Card(c) => {
                let seat = self.table.len();
                self.hands[seat].retain(|&x| x != c);
                self.table.push(c);
                self.played += 1;
                if self.table.len() == 2 {
                    let winner = if self.table[0] > self.table[1] { 0 } else { 1 };
                    self.tricks[winner] += 1;
                    self.table.clear();
                }
            }
        }
    }
    fn reward(&self, seat: Seat) -> f64 {
        match self.tricks[seat].cmp(&self.tricks[1 - seat]) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        }
    }
    fn outcome(&self) -> Outcome {
        let winners = match self.tricks[0].cmp(&self.tricks[1]) {
            std::cmp::Ordering::Greater => vec![0],
            std::cmp::Ordering::Less => vec![1],
            std::cmp::Ordering::Equal => vec![],
        };
        Outcome {
            scores: self.tricks.iter().map(|&t| t as f64).collect(),
            winners,
        }
    }
    fn seat_name(&self, seat: Seat) -> String {
        ["north", "south"][seat].to_string()
    }
    fn move_text(&self, mv: DuelMove) -> String {
        match mv {
            DuelMove::Deal(c) => format!("{},{}/{},{}", c[0], c[1], c[2], c[3]),
            DuelMove::Hand(c) => format!("{},{}", c[0], c[1]),
            DuelMove::Card(c) => c.to_string(),
        }
    }
    fn parse_move(&self, text: &str) -> Result<DuelMove, MoveError> {
        let bad = || MoveError::Syntax(format!("'{text}' is not a card or a deal"));
        if let Some((n, s)) = text.split_once('/') {
            let cards: Vec<u8> = n
                .split(',')
                .chain(s.split(','))
                .map(|c| c.parse().map_err(|_| bad()))
                .collect::<Result<_, _>>()?;
            let cards: [u8; 4] = cards.try_into().map_err(|_| bad())?;
            return Ok(DuelMove::Deal(cards));
        }
        if let Some((a, b)) = text.split_once(',') {
            let card = |c: &str| c.parse::<u8>().map_err(|_| bad());
            return Ok(DuelMove::Hand([card(a)?, card(b)?]));
        }
        text.parse().map(DuelMove::Card).map_err(|_| bad())
    }
    fn render(&self) -> String {
        format!("{:?}", self)
    }
    fn tell(&self, mv: DuelMove, seat: Seat) -> Vec<Observation<DuelMove>> {
        match mv {
            // Each seat hears only its own two cards.
            DuelMove::Deal(c) => vec![Observation::Dealt(DuelMove::Hand([
                c[2 * seat],
                c[2 * seat + 1],
            ]))],
            DuelMove::Hand(_) => Vec::new(),
            DuelMove::Card(_) => match self.turn() {
                Turn::Player(p) if p != seat => vec![Observation::Played { seat: p, mv }],
                _ => Vec::new(),
            },
        }
    }
}

/// `tabula match` as a test parses it.
#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: MatchArgs,
}

/// Parses match arguments as the command line would.
pub fn parse(words: &[String]) -> MatchArgs {
    let mut all = vec!["match".to_string()];
    all.extend(words.iter().cloned());
    let mut args = Cli::try_parse_from(all).expect("test arguments parse").args;
    // The tests read the report from MatchReport; printed, it would fill
    // a passing run's output with match reports.
    args.unprinted = true;
    args
}

/// The fake engine command: `bash tests/fixtures/NAME ARGS`.
pub fn fixture(name: &str, args: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    format!("bash {} {args}", path.display())
}

/// A fresh scratch directory for one test.
pub fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-arena-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Makes a FIFO at `path` (the tests of files that are not regular).
pub fn mkfifo(path: &std::path::Path) {
    let _ = std::fs::remove_file(path);
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Runs a Nim match with these words (plus the given game options).
pub fn nim_match(words: &[String], options: &[&str]) -> MatchReport {
    let args = parse(words);
    let opts = Options::parse(Nim::OPTIONS, options).expect("nim options");
    let referee: Box<dyn Referee> = referee_for::<Nim>(&opts).expect("nim referee");
    arena::run_with_referee(&args, referee).expect("match runs")
}

/// Runs a Duel match with these words.
pub fn duel_match(words: &[String]) -> MatchReport {
    let args = parse(words);
    let opts = Options::parse::<&str>(Duel::OPTIONS, &[]).expect("duel options");
    let referee = referee_for::<Duel>(&opts).expect("duel referee");
    arena::run_with_referee(&args, referee).expect("match runs")
}

/// The `--engine` words of this build twice: `ab` (alpha-beta) and
/// `rules` (the rule player), the pairing the match-runner tests play.
pub fn ab_against_rules() -> Vec<String> {
    let bin = env!("CARGO_BIN_EXE_tabula");
    words(&[
        "--engine",
        &format!("cmd={bin}"),
        "name=ab",
        "set.search=alphabeta",
        "--engine",
        &format!("cmd={bin}"),
        "name=rules",
        "set.search=rules",
    ])
}

/// Words from a space-separated string, keeping `cmd=...` groups whole:
/// each item of `parts` is one word.
pub fn words(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|s| s.to_string()).collect()
}

/// The tests' shorthand for reading and playing a move text: the game's
/// one parse-then-check path ([`Game::check_move`]), then `apply`; the
/// state is unchanged on error.
pub trait PlayText: Game {
    /// Parses, checks and plays `text`; returns the move played.
    fn play_checked(&mut self, text: &str) -> Result<Self::Move, MoveError> {
        let mv = self.check_move(text)?;
        self.apply(mv);
        Ok(mv)
    }
}

impl<G: Game> PlayText for G {}

/// A new game with these `key=value` options.
pub fn new_game<G: Game>(options: &[&str]) -> G {
    G::new_game(&Options::parse(G::OPTIONS, options).unwrap()).unwrap()
}

/// A seat-bound state at `seat`: these options plus `seat=N`.
pub fn seat_bound<G: Game>(options: &[&str], seat: Seat) -> G {
    let mut words: Vec<String> = options.iter().map(|s| s.to_string()).collect();
    words.push(format!("seat={seat}"));
    G::new_game(&Options::parse(G::OPTIONS, &words).unwrap()).unwrap()
}

/// The seeded generator of a test.
pub fn rng(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

/// A card from its text (`QS`).
pub fn card(text: &str) -> Card {
    text.parse().unwrap()
}

/// Cards from a space-separated text, in order.
pub fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace().map(card).collect()
}

/// A referee's next move in a self-dealt game, with the seat that makes it
/// (`None` for chance): a drawn chance outcome, or for a player the
/// rule-based move with probability `rules_share` (when given), else a
/// random one.
pub fn referee_move<G: Game>(
    full: &G,
    r: &mut Rng,
    buf: &mut Vec<G::Move>,
    rules_share: Option<f64>,
) -> (G::Move, Option<Seat>) {
    match full.turn() {
        Turn::Chance => (full.sample_chance(r), None),
        Turn::Player(p) => {
            let mv = if rules_share.is_some_and(|share| r.gen_bool(share)) {
                full.rules_move(r).unwrap()
            } else {
                full.random_move(r, buf)
            };
            (mv, Some(p))
        }
        Turn::Over => unreachable!(),
    }
}

/// Applies what a seat-bound state is told, as its engine reads it: the
/// move text the referee writes (in `before`, the full state the move is
/// played from), checked in the bound state, which must be at that step:
/// a chance step the referee tells, or the turn of the seat that moved.
pub fn hear<G: Game>(bound: &mut G, before: &G, observation: Observation<G::Move>) {
    let (expected, mv) = match observation {
        Observation::Dealt(mv) => {
            assert!(
                bound.chance_from_referee(),
                "a deal told out of turn\n{}",
                bound.render()
            );
            (Turn::Chance, mv)
        }
        Observation::Played { seat, mv } => (Turn::Player(seat), mv),
    };
    let text = before.move_text(mv);
    assert_eq!(
        bound.turn(),
        expected,
        "{text} told out of turn\n{}",
        bound.render()
    );
    bound
        .play_checked(&text)
        .unwrap_or_else(|e| panic!("told {text}: {e}\n{}", bound.render()));
}

/// Brings a seat-bound state at `seat` through one move of the full state
/// `before`: the seat's own move as it plays it, then what it is told.
pub fn follow<G: Game>(bound: &mut G, seat: Seat, before: &G, mv: G::Move) {
    if before.turn() == Turn::Player(seat) {
        bound
            .play_checked(&before.move_text(mv))
            .unwrap_or_else(|e| panic!("own move: {e}\n{}", bound.render()));
    }
    for observation in before.tell(mv, seat) {
        hear(bound, before, observation);
    }
}

/// A seat-bound state for `seat` that has heard everything in `history`
/// (each move with the state before it): its own moves as it played them,
/// the rest as the referee tells them.
pub fn bound_twin<G: Game>(options: &[&str], seat: Seat, history: &[(G::Move, G)]) -> G {
    let mut b: G = seat_bound(options, seat);
    for (mv, before) in history {
        follow(&mut b, seat, before, *mv);
    }
    b
}

/// The no-peeking property at a decision of `seat`: `real` and every state
/// of `twins` hold the same knowledge for `seat` (full states that differ
/// only in cards it cannot see, or its seat-bound state), so they draw the
/// same worlds for it, generator for generator, and `decide` (a search for
/// `seat`) makes the same choice from each. Generic over any game; for
/// perfect-information games it holds trivially.
pub fn assert_no_peeking<G: Game, D: PartialEq + std::fmt::Debug>(
    seat: Seat,
    real: &G,
    twins: &[&G],
    decide: impl Fn(&G) -> D,
) {
    for k in 0..3 {
        let world = real.determinize(seat, &mut rng(k)).render();
        for twin in twins {
            assert_eq!(
                world,
                twin.determinize(seat, &mut rng(k)).render(),
                "seat {seat} draws other worlds from a twin"
            );
        }
    }
    let choice = decide(real);
    for twin in twins {
        assert_eq!(choice, decide(twin), "seat {seat} decides otherwise");
    }
}

/// A flat Monte Carlo decision that sees only determinized worlds.
pub fn flat_monte_carlo<G: Game>(g: &G, seat: Seat, seed: u64) -> G::Move {
    let mut r = rng(seed);
    let mut buf = Vec::new();
    let mut best: Option<(G::Move, f64)> = None;
    let mut moves = Vec::new();
    g.determinize(seat, &mut r).legal_moves(&mut moves);
    for &m in &moves {
        let mut sum = 0.0;
        for _ in 0..20 {
            let mut w = g.determinize(seat, &mut r);
            w.apply(m);
            random_playout(&mut w, &mut r, &mut buf);
            sum += w.reward(seat);
        }
        if best.is_none_or(|(_, v)| sum > v) {
            best = Some((m, sum));
        }
    }
    best.unwrap().0
}

/// [`assert_no_peeking`] at a random position of a self-dealt game with
/// `options`: after `plies` random moves (fewer if it ends), when a player
/// is to move, against another world it cannot tell apart (a
/// determinization of the real one) and its seat-bound state, deciding by
/// [`flat_monte_carlo`]. `None` when no player is to move; else whether
/// the other world's hidden cards differ from the real ones.
pub fn no_peeking_after<G: Game>(options: &[&str], seed: u64, plies: usize) -> Option<bool> {
    let mut real: G = new_game(options);
    let mut r = rng(seed);
    let mut buf = Vec::new();
    let mut history = Vec::new();
    for _ in 0..plies {
        if real.is_over() {
            break;
        }
        let mv = real.random_move(&mut r, &mut buf);
        history.push((mv, real.clone()));
        real.apply(mv);
    }
    let Turn::Player(seat) = real.turn() else {
        return None;
    };
    let other = real.determinize(seat, &mut rng(seed + 1000));
    let bound = bound_twin(options, seat, &history);
    assert_no_peeking(seat, &real, &[&other, &bound], |g| {
        flat_monte_carlo(g, seat, seed)
    });
    Some(other.render() != real.render())
}

/// Runs the engine binary with `--seed SEED`, these arguments and this
/// input, and waits for it to end. An engine that refuses its start-up
/// settings exits without reading: a failed write is no error here.
pub fn run_engine(seed: u64, args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["--seed", &seed.to_string()])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("engine starts");
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes());
    child.wait_with_output().expect("engine ends")
}

/// The machine's crowding: its load (one-minute average) over its cores,
/// at least 1. On a machine where more runs than there are cores (a build,
/// CPU hogs: the suite is run under two a core), every thread waits for a
/// core in turn, so a wall-clock bound that holds on a quiet machine is
/// stretched by this much.
pub fn crowding() -> f64 {
    let load: f64 = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().and_then(|v| v.parse().ok()))
        .unwrap_or(0.0);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (load / cores as f64).max(1.0)
}

/// A wall-clock bound of `millis` on a quiet machine, stretched by the
/// machine's [`crowding`]: what a test that bounds a reply's time asserts,
/// so that its verdict is the engine's, not the machine's. (The faults
/// such bounds guard against cost many times the bound on any machine.)
pub fn quiet_bound(millis: u64) -> std::time::Duration {
    std::time::Duration::from_millis(millis).mul_f64(crowding())
}

/// The CPU time process `pid` has used, user and system, every thread
/// (Linux: `/proc/<pid>/stat`); `None` where it cannot be read.
pub fn process_cpu(pid: u32) -> Option<std::time::Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's closing parenthesis; utime and stime
    // are the 14th and 15th of the whole line.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf reads a constant of the system.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Some(std::time::Duration::from_millis(ticks * 1000 / per_second))
}
