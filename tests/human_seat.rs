//! Human-seat mode (`game hearts human=south`): a whole Hearts game played
//! through the engine's stdin as a person would, with every line the
//! engine writes checked against the hidden hands.
//!
//! The hidden hands come from a twin: an in-process engine with the same
//! seed, the same settings and the same moves, which deals and searches
//! exactly as the process does (an iteration budget on one thread is
//! reproducible). Its full picture (`AnyGame::render`, which the protocol
//! never shows in this mode) gives every hand before and after each
//! command; a card that is in another seat's hand then, and that the
//! person has not been shown legitimately (played to a trick, passed to
//! them, or passed by them), must appear in no line of the reply.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use tabula::engine::Engine;

const SEED: u64 = 33;
const SEATS: [&str; 4] = ["north", "east", "south", "west"];
const HUMAN: usize = 2;

type Cards = BTreeSet<String>;

/// The tokens of a line that are cards (`2C`, `TH`, `QS`, ...): the parts
/// of the line between anything that is not a letter or digit.
fn cards_in(line: &str) -> Cards {
    line.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| {
            let b = w.as_bytes();
            b.len() == 2 && b"23456789TJQKA".contains(&b[0]) && b"CDHS".contains(&b[1])
        })
        .map(str::to_string)
        .collect()
}

/// Every seat's hand, from the twin's full picture (`north: 4C 8C ...
/// points 0 total 0`).
fn hands(twin: &Engine) -> Vec<Cards> {
    let picture = twin.game().render();
    SEATS
        .iter()
        .map(|seat| {
            let line = picture
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("{seat}:")))
                .unwrap_or_else(|| panic!("no hand of {seat} in {picture}"));
            let cards = line.split("points").next().unwrap_or("");
            cards_in(cards)
        })
        .collect()
}

/// The cards the person passed this hand (their view says where).
fn passed_by_person(twin: &Engine) -> Cards {
    twin.game()
        .view(HUMAN)
        .lines()
        .filter(|l| l.starts_with("passed to"))
        .flat_map(|l| cards_in(l.split(':').nth(1).unwrap_or("")))
        .collect()
}

/// The cards the person may not see now: in another seat's hand, and not
/// passed there by the person.
fn hidden(twin: &Engine) -> Cards {
    if twin.game().name() != "hearts" {
        return Cards::new();
    }
    let h = hands(twin);
    let passed = passed_by_person(twin);
    (0..4)
        .filter(|&s| s != HUMAN)
        .flat_map(|s| h[s].iter().cloned())
        .filter(|c| !passed.contains(c))
        .collect()
}

/// One command of the script and the cards its reply must not name.
struct Step {
    command: String,
    forbidden: Cards,
}

#[test]
fn a_whole_hearts_game_against_the_engine_shows_no_hidden_card() {
    let mut twin = Engine::new(SEED).expect("engine");
    let setup = ["set iterations 30", "game hearts human=south"];
    twin.set("iterations", "30").expect("set");
    let before = hidden(&twin);
    twin.load_game("hearts", &["human=south".into()])
        .expect("human-seat game");
    let mut steps = vec![Step {
        command: setup[0].into(),
        forbidden: before.clone(),
    }];
    // What was hidden before a command or is hidden after it must not
    // show, but for the cards played to tricks meanwhile (history: one
    // card a play) and those now in the person's hand (passed to them).
    let forbid = |before: &Cards, history_before: usize, twin: &Engine| -> Cards {
        let history = twin.game().history();
        let played: Cards = history[history_before.min(history.len())..]
            .iter()
            .filter(|m| m.len() == 2)
            .cloned()
            .collect();
        let mine = &hands(twin)[HUMAN];
        before
            .iter()
            .cloned()
            .chain(hidden(twin))
            .filter(|c| !played.contains(c) && !mine.contains(c))
            .collect()
    };
    steps.push(Step {
        command: setup[1].into(),
        forbidden: forbid(&before, 0, &twin),
    });
    let mut moves = 0;
    while twin.outcome().is_none() {
        let now = hidden(&twin);
        for look in ["showboard", "legal_moves", "turn"] {
            steps.push(Step {
                command: look.into(),
                forbidden: now.clone(),
            });
        }
        let history_before = twin.game().history().len();
        let legal = twin.game().legal_moves();
        assert!(!legal.is_empty(), "the person is to move");
        // Varied but reproducible choices.
        let mv = legal[(moves * 7) % legal.len()].clone();
        twin.play(None, &mv).expect("a legal move");
        steps.push(Step {
            command: format!("play {mv}"),
            forbidden: forbid(&now, history_before, &twin),
        });
        moves += 1;
        assert!(moves < 2000, "the game ends");
    }
    let result = twin.outcome().expect("over");
    steps.push(Step {
        command: "result".into(),
        forbidden: Cards::new(),
    });

    // The same game through the engine's stdin, all at once.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["--seed", &SEED.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("engine starts");
    let script: String = steps.iter().map(|s| format!("{}\n", s.command)).collect();
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        stdin.write_all(script.as_bytes()).expect("engine reads");
    });
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut replies: Vec<Vec<String>> = vec![Vec::new()];
    for line in stdout.lines() {
        let line = line.expect("utf-8");
        if line.is_empty() {
            replies.push(Vec::new());
        } else if let Some(last) = replies.last_mut() {
            last.push(line);
        }
    }
    writer.join().expect("writer");
    assert!(child.wait().expect("exit").success());
    replies.retain(|r| !r.is_empty());
    assert_eq!(replies.len(), steps.len(), "one reply per command");

    let mut told_plays = 0;
    for (step, reply) in steps.iter().zip(&replies) {
        assert!(
            reply[0].starts_with('='),
            "{}: refused: {reply:?}",
            step.command
        );
        for line in reply {
            let shown: Cards = cards_in(line)
                .intersection(&step.forbidden)
                .cloned()
                .collect();
            assert!(
                shown.is_empty(),
                "after `{}` the engine showed {shown:?} of hidden hands: {line}",
                step.command
            );
            told_plays += usize::from(line.contains(" plays "));
        }
    }
    // The other seats' plays were told (3 of every 4 cards played), and
    // the process played the twin's game to its end.
    assert!(told_plays >= 3 * 13 * 3 / 4, "{told_plays} plays told");
    let last = replies.last().expect("result");
    let totals: Vec<String> = SEATS
        .iter()
        .zip(&result.scores)
        .map(|(s, v)| format!("{s}={v}"))
        .collect();
    for t in totals {
        assert!(last[0].contains(&t), "{last:?} lacks {t}");
    }
}

#[test]
fn human_seat_mode_refuses_what_would_show_more_or_play_for_the_engine() {
    let mut e = Engine::new(5).expect("engine");
    e.set("iterations", "20").expect("set");
    assert!(
        e.load_game("hearts", &["human=south".into(), "seat=1".into()])
            .is_err()
    );
    assert!(e.load_game("hearts", &["human=nobody".into()]).is_err());
    e.load_game("hearts", &["human=south".into()])
        .expect("game");
    assert_eq!(e.human(), Some(HUMAN));
    // The person passes first only if the others already have: the turn
    // is theirs either way.
    assert_eq!(e.game().turn(), tabula::model::game::Turn::Player(HUMAN));
    assert!(e.play(Some("west"), "2C").is_err());
    let told = e.take_told();
    assert!(
        told.iter().any(|l| l.starts_with("your hand: ")),
        "{told:?}"
    );
    // The person's view hides the other hands; the full picture does not.
    let view = e.game().view(HUMAN);
    let full = e.game().render();
    let hands_full = hands(&e);
    for s in [0, 1, 3] {
        for c in &hands_full[s] {
            assert!(!cards_in(&view).contains(c), "{c} shown in {view}");
            assert!(cards_in(&full).contains(c));
        }
    }
    // Leaving the mode: a game without human=.
    e.load_game("hearts", &[]).expect("game");
    assert_eq!(e.human(), None);

    // Over the protocol: the commands that would show the deal or play
    // for the engine's seats are refused, and change nothing.
    let script = "set iterations 20\ngame hearts human=south\nhistory\ngenmove\ngenmove west\n\
                  analyze movetime=10\nundo\ndeal 2C\nturn\n";
    let mut out = Vec::new();
    let input = std::io::Cursor::new(script.as_bytes().to_vec());
    tabula::protocol::run(input, &mut out, Engine::new(5).expect("engine"));
    let text = String::from_utf8(out).expect("utf-8");
    let replies: Vec<&str> = text.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(replies.len(), 9, "{text}");
    for r in &replies[2..8] {
        assert!(r.starts_with("? "), "{r}");
    }
    assert_eq!(replies[8], "= south");
}

/// The engine as a person at the terminal uses it: one command, then its
/// reply (the lines up to the empty line).
struct Terminal {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Terminal {
    fn start(args: &[&str]) -> Terminal {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Terminal {
            child,
            stdin,
            stdout,
        }
    }

    fn ask(&mut self, command: &str) -> Vec<String> {
        writeln!(self.stdin, "{command}").expect("the engine reads");
        let mut reply = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("utf-8");
            let line = line.trim_end_matches('\n').to_string();
            if n == 0 || line.is_empty() {
                return reply;
            }
            reply.push(line);
        }
    }

    /// The reply's first line without `= `, for one-line answers.
    fn value(&mut self, command: &str) -> String {
        let reply = self.ask(command);
        reply[0].trim_start_matches('=').trim().to_string()
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// Plays the person's first legal move until the game is over; returns
/// every reply to `play`, after checking that each one that leaves the
/// person to move ends by saying so.
fn play_out(t: &mut Terminal, you: &str) -> Vec<Vec<String>> {
    let mut replies = Vec::new();
    for _ in 0..2000 {
        let legal = t.value("legal_moves");
        let Some(mv) = legal.split_whitespace().next() else {
            break;
        };
        let reply = t.ask(&format!("play {mv}"));
        assert!(reply[0].starts_with('='), "play {mv}: {reply:?}");
        let over = reply.iter().any(|l| l.starts_with("game over"));
        if !over {
            assert_eq!(
                reply.last().map(String::as_str),
                Some(format!("{you} to move (you)").as_str()),
                "play {mv}: {reply:?}"
            );
        }
        replies.push(reply);
        if over {
            return replies;
        }
    }
    panic!("the game did not end");
}

/// The `your hand:` line of a reply (the person's cards).
fn dealt(reply: &[String]) -> String {
    reply
        .iter()
        .find(|l| l.starts_with("your hand:"))
        .cloned()
        .unwrap_or_else(|| panic!("no cards told: {reply:?}"))
}

#[test]
fn the_seed_stays_secret_while_the_game_is_on_and_then_deals_it_again() {
    let game = "game hearts human=south hands=single pass=none";
    // A session whose seed tabula drew (no --seed): the person may learn
    // it before the game, and it deals nothing they play.
    let mut t = Terminal::start(&[]);
    t.ask("set iterations 20");
    let session_seed = t.value("get seed");
    let first = t.ask(game);
    let mine = dealt(&first);
    // While the game is on: the seed is not told, nor can it be changed.
    for ask in ["get seed", "get SEED", "set seed 5"] {
        let reply = t.ask(ask);
        assert!(reply[0].starts_with('?'), "{ask}: {reply:?}");
    }
    let listing = t.ask("get").join("\n");
    assert!(
        listing.contains("seed (told when the game ends)"),
        "{listing}"
    );
    assert!(!listing.contains(&session_seed));
    let showboard = t.ask("showboard").join("\n");
    assert!(!showboard.contains(&session_seed));
    // Another tabula given the session seed deals other hands.
    let mut rebuild = Terminal::start(&["--seed", &session_seed]);
    rebuild.ask("set iterations 20");
    assert_ne!(
        dealt(&rebuild.ask(game)),
        mine,
        "the session seed dealt the game"
    );
    drop(rebuild);
    // The game to its end: tricks and the hand are told; then the seed.
    let replies = play_out(&mut t, "south");
    let lines: Vec<&String> = replies.iter().flatten().collect();
    let tricks = lines
        .iter()
        .filter(|l| l.contains(" takes the trick: "))
        .count();
    assert_eq!(tricks, 13, "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("hand 1 over")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("totals: ")));
    let last = replies.last().expect("the end");
    let told = last
        .iter()
        .find_map(|l| l.strip_prefix("seed "))
        .unwrap_or_else(|| panic!("no seed told at the end: {last:?}"));
    let seed = told
        .split_whitespace()
        .next()
        .expect("the seed")
        .to_string();
    assert!(told.contains(&format!("{game} seed={seed}")), "{told}");
    assert_eq!(t.value("get seed"), seed);
    // The seed told deals the same game again, move for move.
    let mut again = Terminal::start(&[]);
    again.ask("set iterations 20");
    assert_eq!(again.ask(&format!("{game} seed={seed}")), first);
    assert_eq!(play_out(&mut again, "south"), replies);
}

#[test]
fn the_terminal_seat_says_whose_turn_it_is_and_tells_tricks_rounds_and_codes() {
    let mut t = Terminal::start(&["--seed", "11"]);
    t.ask("set iterations 20");
    // Moving first: the reply says so (it was a bare `=`).
    assert_eq!(
        t.ask("game othello human=black"),
        ["= ", "black to move (you)"]
    );
    assert_eq!(t.ask("game quoridor human=p1"), ["= ", "p1 to move (you)"]);
    // Wizard: the bids, every trick's taker, each round's results; the
    // last trick in showboard; one card is "1 card".
    let first = t.ask("game wizard human=p1 rounds=2");
    assert!(
        first.last().is_some_and(|l| l == "p1 to move (you)"),
        "{first:?}"
    );
    let board = t.ask("showboard").join("\n");
    assert!(
        board.contains("(1 card)") && !board.contains("1 cards"),
        "{board}"
    );
    let replies = play_out(&mut t, "p1");
    let lines: Vec<&String> = replies.iter().flatten().collect();
    let count = |prefix: &str| lines.iter().filter(|l| l.starts_with(prefix)).count();
    assert_eq!(count("bids: "), 2, "{lines:?}");
    assert_eq!(count("round 1 over: "), 1, "{lines:?}");
    assert_eq!(count("round 2 over: "), 1, "{lines:?}");
    let takes = lines
        .iter()
        .filter(|l| l.ends_with(" takes the trick"))
        .count();
    assert_eq!(takes, 3, "1 trick, then 2: {lines:?}");
    let round = lines
        .iter()
        .find(|l| l.starts_with("round 2 over: "))
        .expect("round 2");
    assert!(
        round.contains(" bid ") && round.contains(" won "),
        "{round}"
    );
    let board = t.ask("showboard").join("\n");
    assert!(
        board.contains("last trick: ") && board.contains(" took it"),
        "{board}"
    );
    // help explains every code met here.
    let help = t.ask("help").join("\n");
    assert!(help.contains("help codes"), "{help}");
    let codes = t.ask("help codes").join("\n");
    for code in [
        "Z1",
        "N1",
        "bid:",
        "trump:",
        "up 7S",
        "TC+",
        "AC11",
        "lose",
        "e3h",
        "pass",
        "2C+3C+4C",
        "QS",
        "your hand:",
        "passed to you by",
        "(you)",
    ] {
        assert!(codes.contains(code), "help codes lacks {code}: {codes}");
    }
}

#[test]
fn undo_in_human_seat_othello_and_quoridor_takes_back_your_move_and_the_replies() {
    for (game, you) in [
        ("game othello human=white", "white"),
        ("game quoridor human=p2", "p2"),
    ] {
        let mut t = Terminal::start(&["--seed", "5"]);
        t.ask("set iterations 50");
        t.ask("set search mcts");
        t.ask(game);
        // The engine moved first: nothing of the person's to take back.
        let refused = t.ask("undo");
        assert!(refused[0].starts_with('?'), "{game}: {refused:?}");
        let before = t.value("position");
        let moves = t.value("legal_moves");
        let mv = moves.split_whitespace().next().expect("a move");
        let reply = t.ask(&format!("play {mv}"));
        assert!(reply[0].starts_with('='), "{reply:?}");
        assert_ne!(t.value("position"), before);
        let undone = t.ask("undo");
        assert!(undone[0].starts_with('='), "{game}: {undone:?}");
        assert!(
            undone
                .iter()
                .any(|l| l.starts_with(&format!("taken back: {mv} "))),
            "{undone:?}"
        );
        assert_eq!(undone.last().cloned(), Some(format!("{you} to move (you)")));
        assert_eq!(t.value("position"), before, "{game}");
        assert_eq!(t.value("legal_moves"), moves);
    }
}

#[test]
fn an_engine_seat_stuck_on_a_refused_search_does_not_show_its_moves() {
    let mut t = Terminal::start(&["--seed", "3"]);
    t.ask("set iterations 20");
    t.ask("game hearts human=south pass=none hands=single");
    // A search that does not play Hearts: west cannot move after south.
    t.ask("set search alphabeta");
    let legal = t.value("legal_moves");
    let mv = legal.split_whitespace().next().expect("a move").to_string();
    let reply = t.ask(&format!("play {mv}"));
    assert!(reply.iter().any(|l| l.contains("cannot move")), "{reply:?}");
    assert_eq!(reply.last().map(String::as_str), Some("west to move"));
    // west's legal moves are west's cards: not shown.
    let refused = t.ask("legal_moves");
    assert!(refused[0].starts_with('?'), "{refused:?}");
    assert!(cards_in(&refused.join(" ")).is_empty(), "{refused:?}");
    // The search fixed, west plays and the person is to move again.
    let fixed = t.ask("set search ismcts");
    assert_eq!(
        fixed.last().map(String::as_str),
        Some("south to move (you)")
    );
}

#[test]
fn the_terminal_seat_says_when_you_must_pass_and_how() {
    let mut t = Terminal::start(&["--seed", "1"]);
    t.ask("set iterations 20");
    t.ask("game othello human=white");
    // White's disc at b1 beside black's at a1: white has no move, black
    // has c1.
    let reply = t.ask(&format!("setboard XO{} O", ".".repeat(62)));
    assert_eq!(
        reply.last().map(String::as_str),
        Some("white to move (you): you have no move, so you pass: type `play pass`"),
        "{reply:?}"
    );
    let genmove = t.ask("genmove");
    assert!(
        genmove[0].starts_with('?') && genmove[0].contains("type `play pass`"),
        "{genmove:?}"
    );
    let end = t.ask("play pass");
    assert!(end.iter().any(|l| l.starts_with("game over")), "{end:?}");
    // Othello deals nothing: its result offers no seed.
    assert!(!end.iter().any(|l| l.starts_with("seed ")), "{end:?}");
}

#[test]
fn card_hand_overs_say_whose_cards_they_are() {
    let mut t = Terminal::start(&["--seed", "4"]);
    t.ask("set iterations 20");
    let first = t.ask("game hearts human=south pass=left hands=single");
    assert!(
        first.iter().any(|l| l.starts_with("your hand: ")),
        "{first:?}"
    );
    assert!(!first.iter().any(|l| l.starts_with("to you")), "{first:?}");
    // The pass: south passes left (to west) and gets east's three.
    let legal = t.value("legal_moves");
    let pass = legal.split_whitespace().next().expect("a pass").to_string();
    let reply = t.ask(&format!("play {pass}"));
    let got = reply
        .iter()
        .find(|l| l.starts_with("passed to you by "))
        .unwrap_or_else(|| panic!("no pass told: {reply:?}"));
    assert!(got.starts_with("passed to you by east: "), "{got}");
    assert!(!reply.iter().any(|l| l.starts_with("to you")), "{reply:?}");
}
