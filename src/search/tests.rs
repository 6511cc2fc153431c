//! Tests of the searches on small games whose answers are known.

use rand::SeedableRng;

use crate::games::othello::{Othello, random_position};
use crate::model::game::{Game, MoveError, Outcome, OwnEvaluation, Rng, Seat, Turn};
use crate::model::options::{OptionError, OptionSpec, Options};
use crate::search::alphabeta::AlphaBeta;
use crate::search::mcts::{Final, Mcts, MctsConfig, RootPolicy};
use crate::search::playout::{Ended, Policy, Scratch, eval_reward, playout, playout_rewards};
use crate::search::simple::RandomMove;
use crate::search::{Budget, Control, Search, SearchResult};

/// The texts of every test game here: a move is written as its number,
/// the position as its `Debug` form.
macro_rules! numbered_moves {
    () => {
        fn render(&self) -> String {
            format!("{self:?}")
        }
        fn move_text(&self, mv: u8) -> String {
            mv.to_string()
        }
        fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
            text.parse().map_err(|_| MoveError::Syntax(text.into()))
        }
    };
}

/// Tic-tac-toe: cells 0..9 row by row, X (seat 0) first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct TicTacToe {
    cells: [u8; 9],
    to_move: u8,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl TicTacToe {
    fn from(text: &str) -> TicTacToe {
        let mut cells = [0; 9];
        for (i, c) in text.chars().enumerate() {
            cells[i] = match c {
                'X' => 1,
                'O' => 2,
                _ => 0,
            };
        }
        let placed = cells.iter().filter(|&&c| c != 0).count();
        TicTacToe {
            cells,
            to_move: (placed % 2) as u8,
        }
    }

    fn winner(&self) -> Option<u8> {
        LINES.iter().find_map(|l| {
            let c = self.cells[l[0]];
            (c != 0 && c == self.cells[l[1]] && c == self.cells[l[2]]).then(|| c - 1)
        })
    }
}

impl Game for TicTacToe {
    type Eval = crate::model::game::OwnEvaluation;
    type Move = u8;
    const NAME: &'static str = "tictactoe";
    const SUMMARY: &'static str = "test game";
    const OPTIONS: &'static [OptionSpec] = &[];
    const TWO_PLAYER_ZERO_SUM: bool = true;

    fn new_game(_: &Options) -> Result<Self, OptionError> {
        Ok(TicTacToe {
            cells: [0; 9],
            to_move: 0,
        })
    }
    fn num_seats(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.winner().is_some() || self.cells.iter().all(|&c| c != 0) {
            Turn::Over
        } else {
            Turn::Player(self.to_move as Seat)
        }
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.turn() != Turn::Over {
            out.extend((0..9).filter(|&i| self.cells[i as usize] == 0));
        }
    }
    fn apply(&mut self, mv: u8) {
        self.cells[mv as usize] = self.to_move + 1;
        self.to_move ^= 1;
    }
    fn reward(&self, seat: Seat) -> f64 {
        match self.winner() {
            Some(w) if w as Seat == seat => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
    fn outcome(&self) -> Outcome {
        Outcome {
            scores: vec![self.reward(0), self.reward(1)],
            winners: self.winner().map(|w| vec![w as Seat]).unwrap_or_default(),
        }
    }
    numbered_moves!();
    fn hash_key(&self) -> Option<u64> {
        Some(self.cells.iter().fold(self.to_move as u64, |h, &c| {
            h.wrapping_mul(31).wrapping_add(c as u64 + 7)
        }))
    }
}

fn iterations(n: u64) -> Budget {
    Budget {
        iterations: Some(n),
        ..Budget::default()
    }
}

fn depth(n: u32) -> Budget {
    Budget {
        depth: Some(n),
        ..Budget::default()
    }
}

fn rng() -> Rng {
    Rng::seed_from_u64(7)
}

/// A search that nothing stops, from the tests' seed: what most tests
/// here ask of a search.
trait Run<G: Game>: Search<G> {
    fn run(&mut self, root: &G, seat: Seat, budget: &Budget) -> SearchResult<G::Move> {
        self.search(root, seat, budget, &Control::unlimited(), &mut rng())
    }
}

impl<G: Game, S: Search<G>> Run<G> for S {}

// X to move wins at once at 2 (top row); O threatens 6-7-8 as well.
const WIN_NOW: &str = "XX.OO....";
// X to move has no win and must block O's top row at 2.
const MUST_BLOCK: &str = "OO..X...X";

#[test]
fn alphabeta_takes_the_win_and_blocks() {
    let mut ab = AlphaBeta::<TicTacToe>::new(1);
    let r = ab.run(&TicTacToe::from(WIN_NOW), 0, &depth(9));
    assert_eq!(r.best, 2);
    assert_eq!(r.score, 1.0);
    let state = TicTacToe::from("X...O....");
    let r = ab.run(&state, 0, &depth(9));
    // Perfect play from here is a draw.
    assert_eq!(r.score, 0.5);
    let blocked = TicTacToe::from(MUST_BLOCK);
    let r = ab.run(&blocked, blocked.to_move as Seat, &depth(9));
    assert_eq!(r.best, 2);
}

#[test]
fn uct_finds_the_win() {
    let mut mcts = Mcts::<TicTacToe>::new(MctsConfig::uct(1.4));
    let r = mcts.run(&TicTacToe::from(WIN_NOW), 0, &iterations(3000));
    assert_eq!(r.best, 2);
    assert!(r.score > 0.9, "{}", r.score);
    assert_eq!(r.iterations, 3000);
}

#[test]
fn uct_is_reproducible_with_a_seed() {
    let state = TicTacToe::from("X........");
    let run = || {
        Mcts::<TicTacToe>::new(MctsConfig::uct(1.4))
            .run(&state, 1, &iterations(500))
            .best
    };
    assert_eq!(run(), run());
}

#[test]
fn flat_tries_every_first_move_evenly() {
    let config = MctsConfig {
        tree_depth: 1,
        root: RootPolicy::RoundRobin,
        final_choice: Final::Mean,
        ..MctsConfig::uct(1.4)
    };
    let mut flat = Mcts::<TicTacToe>::new(config);
    let state = TicTacToe::new_game(&Options::default()).unwrap();
    flat.run(&state, 0, &iterations(9));
    // One playout per first move: root plus nine children, each visited once.
    assert_eq!(flat.tree_size(), 10);
    let visits = flat.root_visits();
    assert_eq!(visits, vec![1; 9]);
}

#[test]
fn ucb1_concentrates_on_the_best_first_move() {
    let config = MctsConfig {
        tree_depth: 1,
        policy: Policy::Heuristic {
            greedy: 0.9,
            depth: 1,
        },
        ..MctsConfig::uct(1.4)
    };
    let mut ucb1 = Mcts::<TicTacToe>::new(config);
    let state = TicTacToe::from(WIN_NOW);
    let r = ucb1.run(&state, 0, &iterations(500));
    assert_eq!(r.best, 2);
    let visits = ucb1.root_visits();
    let best = visits[0]; // move 2 is the first legal move
    assert!(visits.iter().skip(1).all(|&v| v * 3 < best), "{visits:?}");
}

#[test]
fn rucb1_blocks_a_threat_two_plies_deep() {
    let config = MctsConfig {
        tree_depth: 2,
        policy: Policy::Heuristic {
            greedy: 0.9,
            depth: 1,
        },
        ..MctsConfig::uct(1.4)
    };
    let state = TicTacToe::from(MUST_BLOCK);
    let r = Mcts::<TicTacToe>::new(config).run(&state, 0, &iterations(3000));
    assert_eq!(r.best, 2);
}

#[test]
fn tree_reuse_keeps_the_subtree_of_the_move_played() {
    let mut mcts = Mcts::<TicTacToe>::new(MctsConfig::uct(1.4));
    let mut state = TicTacToe::new_game(&Options::default()).unwrap();
    let r = mcts.run(&state, 0, &iterations(2000));
    let kept = mcts.root_visits().iter().sum::<u32>();
    mcts.advance(r.best);
    mcts.settle();
    state.apply(r.best);
    let after = mcts.root_visits().iter().sum::<u32>();
    assert!(after > 0 && after < kept, "{after} of {kept}");
    mcts.run(&state, 1, &iterations(100));
    assert!(mcts.root_visits().iter().sum::<u32>() >= after + 100);
}

#[test]
fn tree_reuse_keeps_the_subtree_node_for_node() {
    let mut mcts = Mcts::<TicTacToe>::new(MctsConfig::uct(1.4));
    let state = TicTacToe::new_game(&Options::default()).unwrap();
    let r = mcts.run(&state, 0, &iterations(3000));
    let expected = mcts.shape(Some(r.best));
    assert!(expected.len() > 100 && expected.len() < mcts.tree_size());
    mcts.advance(r.best);
    mcts.settle();
    assert_eq!(mcts.shape(None), expected);
    assert_eq!(mcts.tree_size(), expected.len());
}

#[test]
fn a_move_reroots_at_once_and_compaction_runs_beside_the_engine() {
    let mut mcts = Mcts::<TicTacToe>::new(MctsConfig::uct(1.4));
    let mut state = TicTacToe::new_game(&Options::default()).unwrap();
    let r = mcts.run(&state, 0, &iterations(3000));
    let expected = mcts.shape(Some(r.best));
    mcts.advance(r.best);
    state.apply(r.best);
    // The opponent's move arrives while the first compaction may still
    // run: it is kept and applied when the tree comes back.
    let reply = expected
        .iter()
        .find(|&&(depth, _, visits)| depth == 1 && visits > 0)
        .and_then(|&(_, mv, _)| mv)
        .expect("a searched reply");
    let below_reply: Vec<_> = {
        // The reply's subtree, as seen from the first move's subtree.
        let mut probe = Mcts::<TicTacToe>::new(MctsConfig::uct(1.4));
        probe.run(
            &TicTacToe::new_game(&Options::default()).unwrap(),
            0,
            &iterations(3000),
        );
        probe.advance(r.best);
        probe.settle();
        probe.shape(Some(reply))
    };
    mcts.advance(reply);
    state.apply(reply);
    mcts.settle();
    assert_eq!(mcts.shape(None), below_reply);
    // A search under an iteration budget waits for any compaction, so
    // seeded results repeat; the tree holds the kept playouts and the new.
    let kept = below_reply[0].2;
    mcts.run(&state, 0, &iterations(200));
    assert_eq!(mcts.shape(None)[0].2, kept + 200);
}

#[test]
fn compaction_keeps_the_root_subtree_and_an_aborted_one_leaves_a_fresh_tree() {
    use crate::search::tree::{Claim, Tree};
    use std::sync::atomic::AtomicBool;
    let grown = || {
        let mut tree = Tree::<u8>::new(100_000);
        let mut claim = Claim::exact();
        // A root with two children, each with 200 children.
        tree.expand(tree.root(), &[1, 2], &mut claim);
        let kids: Vec<_> = tree.children(tree.root()).map(|(r, _)| r).collect();
        let moves: Vec<u8> = (0..200).collect();
        for &k in &kids {
            tree.expand(k, &moves, &mut claim);
        }
        assert!(tree.reroot(2));
        assert!(tree.has_garbage());
        assert_eq!(tree.size(), 3 + 400);
        tree
    };
    let mut tree = grown();
    assert!(tree.compact(&AtomicBool::new(false)));
    assert!(!tree.has_garbage());
    assert_eq!(tree.size(), 1 + 200);
    let moves: Vec<u8> = tree
        .children(tree.root())
        .filter_map(|(_, n)| n.mv())
        .collect();
    assert_eq!(moves, (0..200).collect::<Vec<u8>>());
    let mut tree = grown();
    assert!(!tree.compact(&AtomicBool::new(true)));
    assert!(!tree.has_garbage());
    assert_eq!(tree.size(), 1);
}

#[test]
fn the_memory_cap_bounds_the_arena_across_moves() {
    // Room for 300 nodes.
    let config = MctsConfig {
        memory: 300 * 20,
        ..MctsConfig::uct(1.4)
    };
    let mut mcts = Mcts::<TicTacToe>::new(config);
    let mut state = TicTacToe::new_game(&Options::default()).unwrap();
    let (_, cap) = mcts.capacity();
    assert!((250..=300).contains(&cap), "{cap}");
    while !state.is_over() {
        let seat = match state.turn() {
            Turn::Player(s) => s,
            _ => break,
        };
        let r = mcts.run(&state, seat, &iterations(5000));
        assert!(state.is_legal(r.best));
        let (room, cap) = mcts.capacity();
        assert!(mcts.tree_size() <= cap && room <= cap, "{room} {cap}");
        mcts.advance(r.best);
        state.apply(r.best);
    }
}

#[test]
fn a_raised_stop_flag_still_yields_a_legal_move() {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let control = Control::new(stop, &Budget::default());
    let state = TicTacToe::from("X...O....");
    let r = Mcts::<TicTacToe>::new(MctsConfig::uct(1.4)).search(
        &state,
        0,
        &Budget::default(),
        &control,
        &mut rng(),
    );
    assert!(state.is_legal(r.best));
    let r =
        AlphaBeta::<TicTacToe>::new(1).search(&state, 0, &Budget::default(), &control, &mut rng());
    assert!(state.is_legal(r.best));
}

#[test]
fn two_threads_search_and_agree_on_a_forced_win() {
    let config = MctsConfig {
        threads: 2,
        ..MctsConfig::uct(1.4)
    };
    let r = Mcts::<TicTacToe>::new(config).run(&TicTacToe::from(WIN_NOW), 0, &iterations(4000));
    assert_eq!(r.best, 2);
    assert_eq!(r.iterations, 4000);
}

#[test]
fn two_threads_grow_one_tree_and_leave_no_virtual_loss() {
    let config = MctsConfig {
        threads: 2,
        ..MctsConfig::uct(1.4)
    };
    let mut mcts = Mcts::<TicTacToe>::new(config);
    let state = TicTacToe::new_game(&Options::default()).unwrap();
    let r = mcts.run(&state, 0, &iterations(20_000));
    assert_eq!(r.iterations, 20_000);
    let shape = mcts.shape(None);
    // Both threads' playouts are in the one tree: the root counts them all,
    // and a node never counts fewer visits than its children together.
    assert_eq!(shape[0].2, 20_000);
    let visits = mcts.root_visits();
    let below_root: u32 = visits.iter().sum();
    assert!((19_990..=20_000).contains(&below_root), "{below_root}");
    assert!(mcts.tree_size() > 5_000, "{}", mcts.tree_size());
    // Perfect play draws tic-tac-toe: with every virtual loss turned back
    // into its reward, the most visited first move scores a draw or
    // better for the first player (a leftover loss would drag it down).
    assert!(r.score > 0.45 && r.score <= 1.0, "{}", r.score);
}

#[test]
fn random_move_is_legal() {
    let state = TicTacToe::from("XOXOX....");
    let mut r = RandomMove::default();
    for _ in 0..20 {
        let m = Search::<TicTacToe>::search(
            &mut r,
            &state,
            1,
            &Budget::default(),
            &Control::unlimited(),
            &mut rng(),
        )
        .best;
        assert!(state.is_legal(m));
    }
}

/// A ten-seat game of two moves: seat 8 names a seat, then seat 9 either
/// lets the named seat win or takes the win itself, which it may only
/// when seat 8 named someone else. Seat 8 wins only by naming itself, and
/// only a search that scores seats 8 and 9 with their own rewards sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Naming {
    named: Option<u8>,
    taken: Option<bool>,
}

/// Seat 9's moves.
const LET: u8 = 0;
const TAKE: u8 = 1;

impl Naming {
    fn winner(&self) -> Option<Seat> {
        match (self.named, self.taken) {
            (Some(_), Some(true)) => Some(9),
            (Some(n), Some(false)) => Some(n as Seat),
            _ => None,
        }
    }
}

impl Game for Naming {
    type Eval = crate::model::game::OwnEvaluation;
    type Move = u8;
    const NAME: &'static str = "naming";
    const SUMMARY: &'static str = "test game";
    const OPTIONS: &'static [OptionSpec] = &[];

    fn new_game(_: &Options) -> Result<Self, OptionError> {
        Ok(Naming {
            named: None,
            taken: None,
        })
    }
    fn num_seats(&self) -> usize {
        10
    }
    fn turn(&self) -> Turn {
        match (self.named, self.taken) {
            (None, _) => Turn::Player(8),
            (Some(_), None) => Turn::Player(9),
            _ => Turn::Over,
        }
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        match self.turn() {
            Turn::Player(8) => out.extend(0..10),
            Turn::Player(_) if self.named == Some(8) => out.push(LET),
            Turn::Player(_) => out.extend([LET, TAKE]),
            _ => {}
        }
    }
    fn apply(&mut self, mv: u8) {
        if self.named.is_none() {
            self.named = Some(mv);
        } else {
            self.taken = Some(mv == TAKE);
        }
    }
    fn reward(&self, seat: Seat) -> f64 {
        if self.winner() == Some(seat) {
            1.0
        } else {
            0.0
        }
    }
    fn outcome(&self) -> Outcome {
        Outcome {
            scores: (0..10).map(|s| self.reward(s)).collect(),
            winners: self.winner().into_iter().collect(),
        }
    }
    /// The seat named looks good, every other seat bad.
    fn evaluate(&self, seat: Seat) -> f64 {
        if self.named == Some(seat as u8) {
            0.5
        } else {
            -0.5
        }
    }
    numbered_moves!();
}

#[test]
fn seats_past_the_eighth_are_scored_with_their_own_rewards() {
    let state = Naming::new_game(&Options::default()).unwrap();
    let flat = MctsConfig {
        tree_depth: 1,
        root: RootPolicy::RoundRobin,
        final_choice: Final::Mean,
        ..MctsConfig::uct(1.4)
    };
    for (name, config) in [("uct", MctsConfig::uct(1.4)), ("flat", flat)] {
        let r = Mcts::<Naming>::new(config).run(&state, 8, &iterations(4000));
        assert_eq!(r.best, 8, "{name}");
        assert!(r.score > 0.9, "{name}: {}", r.score);
    }
    // Seat 9, asked on its own, takes the win where it may.
    let mut named = state;
    named.apply(3);
    let r = Mcts::<Naming>::new(MctsConfig::uct(1.4)).run(&named, 9, &iterations(500));
    assert_eq!(r.best, TAKE);
    let r = crate::search::ismcts::Ismcts::new(0.7).run(&state, 8, &iterations(4000));
    assert_eq!(r.best, 8, "ismcts");
}

/// A race to a far goal whose evaluation is slow: a heuristic playout of
/// it takes seconds, far longer than the move time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct SlowRace {
    at: u32,
    to_move: u8,
}

const SLOW_GOAL: u32 = 6000;

impl Game for SlowRace {
    type Eval = crate::model::game::OwnEvaluation;
    type Move = u8;
    const NAME: &'static str = "slowrace";
    const SUMMARY: &'static str = "test game";
    const OPTIONS: &'static [OptionSpec] = &[];

    fn new_game(_: &Options) -> Result<Self, OptionError> {
        Ok(SlowRace { at: 0, to_move: 0 })
    }
    fn num_seats(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.at >= SLOW_GOAL {
            Turn::Over
        } else {
            Turn::Player(self.to_move as Seat)
        }
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.at < SLOW_GOAL {
            out.extend([1, 2]);
        }
    }
    fn apply(&mut self, mv: u8) {
        self.at += u32::from(mv);
        self.to_move ^= 1;
    }
    fn reward(&self, seat: Seat) -> f64 {
        // Whoever reached the goal (moved last) wins.
        if self.at >= SLOW_GOAL && self.to_move as Seat != seat {
            1.0
        } else {
            0.0
        }
    }
    fn outcome(&self) -> Outcome {
        Outcome {
            scores: vec![self.reward(0), self.reward(1)],
            winners: Vec::new(),
        }
    }
    fn evaluate(&self, _seat: Seat) -> f64 {
        std::thread::sleep(std::time::Duration::from_micros(200));
        0.0
    }
    numbered_moves!();
}

/// A budget of `ms` milliseconds.
fn millis(ms: u64) -> Budget {
    Budget {
        time: Some(std::time::Duration::from_millis(ms)),
        ..Budget::default()
    }
}

/// UCT with greedy heuristic playouts of a depth-`depth` choice, the
/// tree `tree_depth` deep.
fn heuristic_config(tree_depth: u32, depth: u32) -> MctsConfig {
    MctsConfig {
        tree_depth,
        policy: Policy::Heuristic { greedy: 1.0, depth },
        ..MctsConfig::uct(1.4)
    }
}

#[test]
fn heuristic_playouts_keep_the_move_time() {
    // One playout evaluates at least 3000 plies of two moves, 200 us
    // each: over a second. The search must stop inside it.
    let state = SlowRace::new_game(&Options::default()).unwrap();
    let budget = millis(50);
    for (name, depth) in [("ucb1", 1), ("rucb1 depth 2", 2)] {
        let config = heuristic_config(depth, 2);
        let started = std::time::Instant::now();
        let control = Control::new(Default::default(), &budget);
        let r = Mcts::<SlowRace>::new(config).search(&state, 0, &budget, &control, &mut rng());
        let took = started.elapsed();
        assert!(state.is_legal(r.best), "{name}");
        assert!(
            took < std::time::Duration::from_millis(600),
            "{name}: {took:?}"
        );
        // The cut playout was not backed up as if it had ended.
        assert_eq!(r.iterations, 0, "{name}");
    }
    // With two threads, the visits counted on the way down (as losses)
    // are taken back when the playouts are cut.
    let config = MctsConfig {
        threads: 2,
        ..heuristic_config(1, 1)
    };
    let control = Control::new(Default::default(), &budget);
    let mut mcts = Mcts::<SlowRace>::new(config);
    let r = mcts.search(&state, 0, &budget, &control, &mut rng());
    assert_eq!(r.iterations, 0);
    assert_eq!(mcts.root_visits(), vec![0, 0]);
    assert_eq!(mcts.shape(None)[0].2, 0);
}

// Evaluation cutoffs (`set playout eval`).

fn cutoff_config(plies: u32, c: f64) -> MctsConfig {
    MctsConfig {
        policy: Policy::Cutoff {
            plies,
            scale: Some(8.0),
        },
        ..MctsConfig::uct(c)
    }
}

#[test]
fn eval_rewards_are_the_logistic_of_the_evaluation() {
    // A 10-disc Othello lead (10 / 64) at slope 8: about a 0.78 chance.
    assert!((eval_reward(10.0 / 64.0, 8.0) - 0.7773).abs() < 1e-4);
    assert_eq!(eval_reward(0.0, 8.0), 0.5);
    assert!((eval_reward(0.3, 8.0) + eval_reward(-0.3, 8.0) - 1.0).abs() < 1e-12);
    assert!(eval_reward(-1.0, 8.0) < 0.001);
}

#[test]
fn cutoff_playouts_stop_after_their_plies_and_score_by_the_evaluation() {
    let control = Control::unlimited();
    let mut pacer = control.pacer(4);
    let mut scratch = Scratch::default();
    let mut play = |state: &mut Othello, policy| {
        playout(
            state,
            policy,
            &Default::default(),
            &mut rng(),
            &mut scratch,
            &mut pacer,
        )
    };
    let mut rewards = Vec::new();
    for plies in [0, 1, 5, 20] {
        let mut state = Othello::start();
        let policy = Policy::Cutoff {
            plies,
            scale: Some(8.0),
        };
        let ended = play(&mut state, policy);
        assert_eq!(ended, Some(Ended { plies, cut: true }));
        // No pass this early: every ply filled a square.
        assert_eq!(state.empties().count_ones(), 60 - plies);
        let eval = Default::default();
        playout_rewards(
            &state,
            Ended { plies, cut: true },
            policy,
            &eval,
            &mut rewards,
        );
        assert_eq!(rewards.len(), 2);
        for (seat, &r) in rewards.iter().enumerate() {
            let expected = eval_reward(state.evaluate(seat), 8.0);
            assert!((r - expected).abs() < 1e-12, "{plies} plies, seat {seat}");
        }
    }
    // A playout that ends before its cutoff is scored by the result.
    let mut state = random_position(3, 6);
    let policy = Policy::Cutoff {
        plies: 100,
        scale: Some(8.0),
    };
    let ended = play(&mut state, policy).unwrap();
    assert!(!ended.cut && state.is_over());
    playout_rewards(&state, ended, policy, &Default::default(), &mut rewards);
    assert_eq!(rewards, vec![state.reward(0), state.reward(1)]);
}

#[test]
fn cutoff_playouts_play_on_at_random_without_a_scale() {
    // No scale (`eval_win_scale off`, the default of a game without a
    // tuned one): the same draws, the same end and the same search as
    // random playouts.
    let control = Control::unlimited();
    let mut pacer = control.pacer(4);
    let mut scratch = Scratch::default();
    let start = TicTacToe::from("X...O....");
    let cutoff = Policy::Cutoff {
        plies: 0,
        scale: None,
    };
    for seed in 0..20 {
        let (mut cut, mut random) = (start, start);
        let mut play = |state: &mut TicTacToe, policy| {
            let mut rng = Rng::seed_from_u64(seed);
            playout(
                state,
                policy,
                &Default::default(),
                &mut rng,
                &mut scratch,
                &mut pacer,
            )
        };
        let a = play(&mut cut, cutoff);
        let b = play(&mut random, Policy::Random);
        assert_eq!(a, b);
        assert!(a.is_some_and(|e| !e.cut));
        assert_eq!(cut, random);
    }
    let visits = |policy| {
        let mut mcts = Mcts::<TicTacToe>::new(MctsConfig {
            policy,
            ..MctsConfig::uct(1.4)
        });
        mcts.run(&start, 0, &iterations(400));
        mcts.root_visits()
    };
    assert_eq!(visits(cutoff), visits(Policy::Random));
}

#[test]
fn eval_mcts_is_reproducible_with_a_seed() {
    // The random plies before the cut come from the search's generator.
    let visits = |seed| {
        let mut mcts = Mcts::<Othello>::new(cutoff_config(3, 0.5));
        mcts.search(
            &Othello::start(),
            0,
            &iterations(2000),
            &Control::unlimited(),
            &mut Rng::seed_from_u64(seed),
        );
        mcts.root_visits()
    };
    assert_eq!(visits(1), visits(1));
    assert_ne!(visits(1), visits(2));
}

#[test]
fn eval_mcts_takes_a_wipeout_at_a_small_budget() {
    // Black to move has five moves; d6 alone flips every white disc (d4
    // and d5) and wins at once.
    let mut state = Othello::start();
    state
        .set_position(concat!(
            "--------", "--------", "---X----", "---OXX--", "-XXO----", "--------", "----X---",
            "--------", " X"
        ))
        .unwrap();
    let mut legal = Vec::new();
    state.legal_moves(&mut legal);
    assert_eq!(legal.len(), 5);
    let wipeout = crate::games::othello::parse_square("d6").unwrap();
    for plies in [0, 2] {
        let r = Mcts::<Othello>::new(cutoff_config(plies, 0.5)).run(&state, 0, &iterations(100));
        assert_eq!(r.best, wipeout, "cutoff {plies}");
        assert!(r.score > 0.99, "cutoff {plies}: {}", r.score);
    }
}

#[test]
fn cut_playouts_score_every_seat_by_its_own_evaluation() {
    let mut state = Naming::new_game(&Options::default()).unwrap();
    state.apply(3);
    let control = Control::unlimited();
    let policy = Policy::Cutoff {
        plies: 0,
        scale: Some(4.0),
    };
    let ended = playout(
        &mut state,
        policy,
        &Default::default(),
        &mut rng(),
        &mut Scratch::default(),
        &mut control.pacer(4),
    );
    assert_eq!(
        ended,
        Some(Ended {
            plies: 0,
            cut: true
        })
    );
    let mut rewards = Vec::new();
    playout_rewards(
        &state,
        Ended {
            plies: 0,
            cut: true,
        },
        policy,
        &OwnEvaluation,
        &mut rewards,
    );
    let expected: Vec<f64> = (0..10)
        .map(|seat| eval_reward(if seat == 3 { 0.5 } else { -0.5 }, 4.0))
        .collect();
    assert_eq!(rewards, expected);
}

#[test]
fn a_wide_depth_2_choice_is_capped_and_a_narrow_one_is_whole() {
    use crate::games::quoridor::Quoridor;
    use crate::search::playout::DECISION_LOOKS;
    use crate::search::playout::shallow_best_within;
    let control = Control::unlimited();
    let mut pacer = control.pacer(4);
    let (mut buf, mut scratch) = (Vec::new(), Vec::new());
    // Quoridor 11x11 with 100 walls: some 200 moves of 200 replies, 80,000
    // looks whole; capped, the best ranked moves' replies only.
    let options = Options::parse(Quoridor::OPTIONS, &["size=11", "walls=100"]).unwrap();
    let wide = Quoridor::new_game(&options).unwrap();
    let (mv, looks) = shallow_best_within(
        &wide,
        &Default::default(),
        2,
        &mut buf,
        &mut scratch,
        &mut pacer,
        DECISION_LOOKS,
    );
    let moves = buf.len() as u64;
    assert!(moves > 150, "{moves} moves");
    assert!(mv.is_some_and(|m| wide.is_legal(m)));
    // The cap, and at most one more move's replies (listed and looked at).
    assert!(looks <= DECISION_LOOKS + 2 * (moves + 8), "{looks} looks");
    // Othello's depth 2 is whole: the same move as the uncapped search.
    let (mut buf, mut scratch) = (Vec::new(), Vec::new());
    for seed in 0..20 {
        let s = random_position(seed, 40);
        if s.is_over() {
            continue;
        }
        let (whole, _) = shallow_best_within(
            &s,
            &Default::default(),
            2,
            &mut buf,
            &mut scratch,
            &mut pacer,
            u64::MAX,
        );
        let (capped, _) = shallow_best_within(
            &s,
            &Default::default(),
            2,
            &mut buf,
            &mut scratch,
            &mut pacer,
            DECISION_LOOKS,
        );
        assert_eq!(capped, whole, "seed {seed}");
    }
    // With no room beyond the ranking, the one move looked at deeper is
    // the one depth 1 ranks first: depth 1's choice.
    let (mut buf, mut scratch) = (Vec::new(), Vec::new());
    let (narrowest, _) = shallow_best_within(
        &wide,
        &Default::default(),
        2,
        &mut buf,
        &mut scratch,
        &mut pacer,
        1,
    );
    let (depth_1, _) = shallow_best_within(
        &wide,
        &Default::default(),
        1,
        &mut buf,
        &mut scratch,
        &mut pacer,
        u64::MAX,
    );
    assert!(narrowest.is_some() && narrowest == depth_1);
}

#[test]
fn a_heuristic_playout_on_the_widest_board_ends_within_its_work() {
    // Every move by depth-2 look-ahead on Quoridor 11x11, 100 walls each,
    // 100,000 plies allowed: the playout still ends, at the horizon, past
    // its looks on random moves.
    use crate::games::quoridor::Quoridor;
    let options = Options::parse(
        Quoridor::OPTIONS,
        &["size=11", "walls=100", "max_plies=100000"],
    )
    .unwrap();
    let control = Control::unlimited();
    let mut pacer = control.pacer(4);
    let mut scratch = Scratch::default();
    let started = std::time::Instant::now();
    for seed in 0..3 {
        let mut state = Quoridor::new_game(&options).unwrap();
        let policy = Policy::Heuristic {
            greedy: 1.0,
            depth: 2,
        };
        let ended = playout(
            &mut state,
            policy,
            &Default::default(),
            &mut Rng::seed_from_u64(seed),
            &mut scratch,
            &mut pacer,
        );
        assert!(ended.is_some_and(|e| !e.cut) && state.at_horizon());
    }
    // Some tenths of a second each on an idle machine (uncapped: minutes).
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn the_shallow_choice_compares_positions_by_the_evaluation_it_is_given() {
    use crate::games::othello::eval::OthelloEval;
    use crate::search::playout::shallow_best_within;
    let control = Control::unlimited();
    let mut pacer = control.pacer(4);
    let (mut buf, mut scratch) = (Vec::new(), Vec::new());
    let (mut compared, mut differ) = (0, 0);
    for seed in 0..30 {
        let s = random_position(seed, 30);
        if s.is_over() {
            continue;
        }
        let mut choice = |eval: &OthelloEval| {
            shallow_best_within(&s, eval, 1, &mut buf, &mut scratch, &mut pacer, u64::MAX).0
        };
        let table = choice(&OthelloEval::Table);
        let pattern = choice(&OthelloEval::Builtin);
        compared += 1;
        differ += usize::from(table != pattern);
    }
    // The square table and the trained patterns disagree on some
    // positions: a choice that ignored its evaluation never would.
    assert!(
        compared >= 20 && differ > 0,
        "{differ} of {compared} differ"
    );
}
