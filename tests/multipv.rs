//! MultiPV analysis (`analyze multipv=N`, `genmove multipv=N`, `set output
//! json`): each search's lines agree with what a search of each move alone
//! says, the first line is the plain analysis' move, lines are ordered and
//! counted as documented, a seat's lines name only its own cards, and JSON
//! lines parse as JSON.

use std::io::{Cursor, Write};
use std::process::{Command, Stdio};

use rand::SeedableRng;
use tabula::engine::Engine;
use tabula::games::hearts::Hearts;
use tabula::games::othello::Othello;
use tabula::model::game::{Game, Rng, Seat, Turn};
use tabula::model::options::Options;
use tabula::search::alphabeta::AlphaBeta;
use tabula::search::ismcts::Ismcts;
use tabula::search::mcts::{Mcts, MctsConfig};
use tabula::search::pimc::Pimc;
use tabula::search::{Budget, Control, Search, SearchResult};

/// Runs a session in process on `input` (engine seeded with 7); its output.
fn session(input: &str) -> String {
    let mut out = Vec::new();
    let engine = Engine::new(7).expect("engine");
    tabula::protocol::run(Cursor::new(input.as_bytes().to_vec()), &mut out, engine);
    String::from_utf8(out).expect("UTF-8 output")
}

/// The replies of a session's output, each without its empty line.
fn replies(out: &str) -> Vec<&str> {
    out.split("\n\n").filter(|r| !r.is_empty()).collect()
}

/// An `info` line's value for `key` (the word after it).
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words
        .iter()
        .position(|w| *w == key)
        .and_then(|i| words.get(i + 1).copied())
}

/// The last report of an `analyze multipv=N` reply: its trailing run of
/// `info multipv` lines, `multipv 1` first.
fn last_report(reply: &str) -> Vec<&str> {
    let lines: Vec<&str> = reply
        .lines()
        .filter(|l| l.starts_with("info multipv "))
        .collect();
    let start = lines
        .iter()
        .rposition(|l| field(l, "multipv") == Some("1"))
        .expect("a multipv 1 line");
    lines[start..].to_vec()
}

fn score(line: &str) -> f64 {
    field(line, "score")
        .and_then(|s| s.parse().ok())
        .expect("a score")
}

/// An Othello midgame position with exactly `moves` legal moves (no pass),
/// reached by seeded random play, ProbCut off (so that alpha-beta's values
/// at a fixed depth are minimax values, whatever the window).
fn othello_with_moves(moves: usize) -> Othello {
    othello_positions(moves, 1)[0]
}

/// The first `count` such positions.
fn othello_positions(moves: usize, count: usize) -> Vec<Othello> {
    let mut found = Vec::new();
    let mut buf = Vec::new();
    for seed in 0..2000 {
        let mut rng = Rng::seed_from_u64(seed);
        let mut g = Othello::start();
        for _ in 0..20 {
            if g.is_over() {
                break;
            }
            let mv = g.random_move(&mut rng, &mut buf);
            g.apply(mv);
        }
        g.legal_moves(&mut buf);
        if !g.is_over() && buf.len() == moves && !g.must_pass() {
            found.push(g);
            if found.len() == count {
                return found;
            }
        }
    }
    panic!("not {count} positions with {moves} moves");
}

fn seat_to_move<G: Game>(g: &G) -> Seat {
    match g.turn() {
        Turn::Player(p) => p,
        other => panic!("no seat to move: {other:?}"),
    }
}

fn depth(d: u32) -> Budget {
    Budget {
        depth: Some(d),
        ..Budget::default()
    }
}

fn iterations(n: u64) -> Budget {
    Budget {
        iterations: Some(n),
        ..Budget::default()
    }
}

fn search<G: Game, S: Search<G>>(
    s: &mut S,
    root: &G,
    budget: &Budget,
    multipv: usize,
) -> SearchResult<G::Move> {
    let control = Control::unlimited().with_multipv(multipv);
    s.search(
        root,
        seat_to_move(root),
        budget,
        &control,
        &mut Rng::seed_from_u64(3),
    )
}

#[test]
fn alpha_beta_multipv_values_are_each_move_searched_alone() {
    // At 8 candidate moves, MultiPV at depth d gives every move the value
    // a search of the position after it gives at depth d - 1 (from the
    // other seat's view), so no line carries a sibling's bound; the first
    // line is the plain search's move and value.
    let root = othello_with_moves(8);
    let mut legal = Vec::new();
    root.legal_moves(&mut legal);
    for d in [3, 4] {
        let multi = search(&mut AlphaBeta::<Othello>::new(16), &root, &depth(d), 8);
        assert_eq!(multi.lines.len(), 8, "depth {d}");
        let plain = search(&mut AlphaBeta::<Othello>::new(16), &root, &depth(d), 0);
        assert!(plain.lines.is_empty(), "no lines unless asked");
        // On two threads (helpers on the same table) the same values.
        let two = AlphaBeta::<Othello>::new(16).with_threads(2);
        let shared = search(&mut { two }, &root, &depth(d), 8);
        let values = |r: &SearchResult<u8>| r.lines.iter().map(|c| c.score).collect::<Vec<_>>();
        assert_eq!(values(&shared), values(&multi), "depth {d}, two threads");
        assert_eq!(multi.lines[0].mv, plain.best, "depth {d}");
        assert_eq!(multi.lines[0].score, plain.score, "depth {d}");
        assert_eq!((multi.best, multi.score), (plain.best, plain.score));
        let mut seen = Vec::new();
        for (k, line) in multi.lines.iter().enumerate() {
            assert!(legal.contains(&line.mv) && !seen.contains(&line.mv));
            seen.push(line.mv);
            if k > 0 {
                assert!(line.score <= multi.lines[k - 1].score, "best first");
            }
            assert_eq!(line.pv.first(), Some(&line.mv));
            let mut child = root;
            child.apply(line.mv);
            let alone = search(&mut AlphaBeta::<Othello>::new(16), &child, &depth(d - 1), 0);
            assert!(
                (line.score - (1.0 - alone.score)).abs() < 1e-9,
                "depth {d}, move {}: multipv {} alone {}",
                root.move_text(line.mv),
                line.score,
                1.0 - alone.score
            );
        }
    }
}

#[test]
fn fewer_lines_than_moves_are_the_best_moves_with_their_own_values() {
    // multipv=2 and 3 of 8, on several positions and depths: the lines'
    // values are the best two or three of the moves' values searched
    // alone, each the value of its own move (a move that enters the best
    // few at a depth is searched again to its exact value, not left at
    // the bound that let it in).
    for (i, root) in othello_positions(8, 6).iter().enumerate() {
        let mut legal = Vec::new();
        root.legal_moves(&mut legal);
        for d in [3, 4, 5] {
            let alone: Vec<(u8, f64)> = legal
                .iter()
                .map(|&mv| {
                    let mut child = *root;
                    child.apply(mv);
                    let r = search(&mut AlphaBeta::<Othello>::new(16), &child, &depth(d - 1), 0);
                    (mv, 1.0 - r.score)
                })
                .collect();
            let mut best: Vec<f64> = alone.iter().map(|a| a.1).collect();
            best.sort_by(|a, b| b.total_cmp(a));
            for count in [2, 3] {
                let r = search(&mut AlphaBeta::<Othello>::new(16), root, &depth(d), count);
                assert_eq!(r.lines.len(), count);
                for (k, line) in r.lines.iter().enumerate() {
                    let own = alone
                        .iter()
                        .find(|a| a.0 == line.mv)
                        .expect("a legal move")
                        .1;
                    let at = format!("position {i}, depth {d}, multipv {count}, line {k}");
                    assert!(
                        (line.score - own).abs() < 1e-9,
                        "{at}: {} vs {own}",
                        line.score
                    );
                    assert!(
                        (line.score - best[k]).abs() < 1e-9,
                        "{at}: {} vs {}",
                        line.score,
                        best[k]
                    );
                }
            }
        }
    }
    let root = othello_with_moves(8);
    let one = search(&mut AlphaBeta::<Othello>::new(16), &root, &depth(4), 1);
    assert_eq!(one.lines.len(), 1);
    assert_eq!((one.lines[0].mv, one.lines[0].score), (one.best, one.score));
}

#[test]
fn mcts_lines_are_the_root_children_in_the_final_choice_s_order() {
    let root = othello_with_moves(8);
    let config = MctsConfig::uct(1.0);
    let plain = search(
        &mut Mcts::<Othello>::new(config),
        &root,
        &iterations(3000),
        0,
    );
    let multi = search(
        &mut Mcts::<Othello>::new(config),
        &root,
        &iterations(3000),
        8,
    );
    // The lines only read the tree: the same search, the same move.
    assert_eq!((multi.best, multi.score), (plain.best, plain.score));
    assert_eq!(multi.lines.len(), 8);
    assert_eq!(multi.lines[0].mv, multi.best);
    let visits: Vec<u64> = multi
        .lines
        .iter()
        .map(|c| c.visits.expect("visits"))
        .collect();
    assert!(visits.windows(2).all(|w| w[0] >= w[1]), "{visits:?}");
    assert_eq!(
        visits.iter().sum::<u64>(),
        3000,
        "every iteration passes a root child"
    );
    for c in &multi.lines {
        assert_eq!(c.pv.first(), Some(&c.mv));
        assert!((0.0..=1.0).contains(&c.score));
    }
}

#[test]
fn the_solver_gives_every_move_its_exact_margin() {
    // 12 empties: each move's margin is minus the margin of the position
    // after it, solved alone.
    let mut checked = 0;
    for seed in 0..40 {
        let mut rng = Rng::seed_from_u64(seed);
        let mut g = Othello::start();
        let mut buf = Vec::new();
        while !g.is_over() && g.empties().count_ones() > 12 {
            let mv = g.random_move(&mut rng, &mut buf);
            g.apply(mv);
        }
        g.legal_moves(&mut buf);
        if g.is_over() || g.must_pass() || buf.len() < 3 {
            continue;
        }
        let control = Control::unlimited();
        let solved = g.solve_moves(&control, 1 << 22).expect("solved");
        assert!(solved.nodes > 0, "seed {seed}: nodes counted");
        let every = solved.moves;
        assert_eq!(every.len(), buf.len(), "seed {seed}");
        let best = g.solve(&control, 1 << 22).expect("solved");
        assert_eq!(every[0].1, best.1, "seed {seed}: the best margin");
        assert!(every.windows(2).all(|w| w[0].1 >= w[1].1), "best first");
        for &(mv, margin) in &every {
            let mut child = g;
            child.apply(mv);
            if child.is_over() {
                continue;
            }
            let (_, theirs) = child.solve(&control, 1 << 22).expect("solved");
            assert_eq!(margin, -theirs, "seed {seed}, {}", g.move_text(mv));
        }
        checked += 1;
        if checked == 4 {
            break;
        }
    }
    assert_eq!(checked, 4);
}

/// A self-dealt single Hearts hand at its first trick-play decision with
/// several legal cards: the state holds every hand, as the engine's does
/// when it deals for itself.
fn hearts_decision() -> Hearts {
    let options = Options::parse(Hearts::OPTIONS, &["hands=single"]).expect("options");
    let mut g = Hearts::new_game(&options).expect("game");
    let mut rng = Rng::seed_from_u64(4);
    let mut buf = Vec::new();
    loop {
        match g.turn() {
            Turn::Chance => {
                let m = g.sample_chance(&mut rng);
                g.apply(m);
            }
            Turn::Player(_) => {
                g.legal_moves(&mut buf);
                if (4..=13).contains(&buf.len()) {
                    return g;
                }
                let m = g.random_move(&mut rng, &mut buf);
                g.apply(m);
            }
            Turn::Over => panic!("the hand ended first"),
        }
    }
}

/// Checks a hidden-information search's lines: at most `multipv`, each a
/// legal move of the seat (a card of its own hand) with the move alone as
/// its line (what follows in a world is guessed cards), the first the move
/// chosen.
fn check_card_lines(root: &Hearts, r: &SearchResult<<Hearts as Game>::Move>, multipv: usize) {
    let mut own = Vec::new();
    root.legal_moves(&mut own);
    assert_eq!(r.lines.len(), multipv.min(own.len()));
    assert_eq!(r.lines[0].mv, r.best);
    for c in &r.lines {
        assert!(
            own.contains(&c.mv),
            "{} is not the seat's",
            root.move_text(c.mv)
        );
        assert_eq!(c.pv, vec![c.mv], "no other seat's card in a line");
        assert!(c.visits.is_some_and(|v| v > 0));
    }
}

#[test]
fn card_searches_show_only_the_seat_s_own_cards() {
    let root = hearts_decision();
    let budget = iterations(2000);
    let pimc = search(&mut Pimc::new(0.7), &root, &budget, 3);
    check_card_lines(&root, &pimc, 3);
    // PIMC ranks by the value averaged over its worlds.
    assert!(pimc.lines.windows(2).all(|w| w[0].score >= w[1].score));
    let ismcts = search(&mut Ismcts::new(0.7), &root, &budget, 3);
    check_card_lines(&root, &ismcts, 3);
    // ISMCTS by visits.
    let visits: Vec<u64> = ismcts.lines.iter().filter_map(|c| c.visits).collect();
    assert!(visits.windows(2).all(|w| w[0] >= w[1]), "{visits:?}");
    let mcts = search(
        &mut Mcts::<Hearts>::new(MctsConfig::uct(0.7)),
        &root,
        &budget,
        3,
    );
    check_card_lines(&root, &mcts, 3);
    // The same searches without lines choose the same moves.
    let plain = search(&mut Pimc::new(0.7), &root, &budget, 0);
    assert_eq!((plain.best, plain.score), (pimc.best, pimc.score));
    let plain = search(&mut Ismcts::new(0.7), &root, &budget, 0);
    assert_eq!(plain.best, ismcts.best);
}

/// Sets an Othello position with 8 moves, ProbCut off, then `commands`.
fn othello_session(commands: &str) -> String {
    let root = othello_with_moves(8);
    let text = root.position_text().expect("a position text");
    session(&format!("set probcut off\nsetboard {text}\n{commands}\n"))
}

#[test]
fn the_first_line_is_plain_analyze_s_move_at_the_same_seed_and_budget() {
    for (search, budget) in [("alphabeta", "depth=4"), ("mcts", "iterations=2000")] {
        let settings = format!("set search {search}\nset seed 5");
        let plain = othello_session(&format!("{settings}\nanalyze {budget}"));
        let multi = othello_session(&format!("{settings}\nanalyze {budget} multipv=8"));
        let plain = replies(&plain);
        let multi = replies(&multi);
        let last_plain = plain[4].lines().last().expect("the final line");
        let lines = last_report(multi[4]);
        assert_eq!(lines.len(), 8, "{search}: {lines:?}");
        assert_eq!(
            field(lines[0], "move"),
            field(last_plain, "move"),
            "{search}"
        );
        assert_eq!(
            field(lines[0], "score"),
            field(last_plain, "score"),
            "{search}"
        );
        for (k, l) in lines.iter().enumerate() {
            assert_eq!(field(l, "multipv"), Some((k + 1).to_string().as_str()));
            assert!(l.contains(" time ") && l.contains(" pv "), "{l}");
            assert_eq!(
                field(l, "pv"),
                field(l, "move"),
                "the line starts with its move"
            );
            if k > 0 && search == "alphabeta" {
                assert!(score(l) <= score(lines[k - 1]));
            }
            assert_eq!(l.contains(" visits "), search == "mcts", "{l}");
        }
    }
}

#[test]
fn analyze_multipv_shows_the_solver_s_margins() {
    // Near the end `solve` gives every move its margin, best first.
    let mut rng = Rng::seed_from_u64(2);
    let mut g = Othello::start();
    let mut buf = Vec::new();
    while g.empties().count_ones() > 10 || g.must_pass() || g.is_over() {
        if g.is_over() {
            g = Othello::start();
        }
        let mv = g.random_move(&mut rng, &mut buf);
        g.apply(mv);
    }
    g.legal_moves(&mut buf);
    let text = g.position_text().expect("text");
    let out = session(&format!(
        "setboard {text}\nset search solve\nanalyze movetime=20000\nanalyze multipv=30 movetime=20000\n"
    ));
    let r = replies(&out);
    let plain = r[2].lines().last().expect("final");
    let lines = last_report(r[3]);
    assert_eq!(lines.len(), buf.len(), "{out}");
    assert_eq!(field(lines[0], "exact"), field(plain, "exact"));
    let margins: Vec<i32> = lines
        .iter()
        .map(|l| {
            field(l, "exact")
                .and_then(|e| e.parse().ok())
                .expect("exact")
        })
        .collect();
    assert!(margins.windows(2).all(|w| w[0] >= w[1]), "{margins:?}");
}

#[test]
fn a_self_dealt_hearts_analysis_names_only_the_seat_s_cards() {
    for search in ["pimc", "ismcts"] {
        let out = session(&format!(
            "game hearts hands=single seed=3\nset search {search}\nlegal_moves\n\
             analyze multipv=4 iterations=400 interval=10\n"
        ));
        let r = replies(&out);
        let legal: Vec<&str> = r[2].trim_start_matches("= ").lines().collect();
        let legal: Vec<&str> = legal.iter().flat_map(|l| l.split(' ')).collect();
        let lines: Vec<&str> = r[3].lines().filter(|l| l.starts_with("info")).collect();
        assert!(lines.len() >= 4, "{search}: {out}");
        for l in lines {
            let pv = &l[l.find(" pv ").expect("pv") + 4..];
            let mv = field(l, "move").expect("move");
            assert_eq!(pv, mv, "{search}: the move alone: {l}");
            // A pass is three cards: TC+JC+4D.
            for card in mv.split('+') {
                assert!(
                    legal.iter().any(|m| m.split('+').any(|c| c == card)),
                    "{search}: {card} is not in the seat's hand: {l}"
                );
            }
        }
    }
}

#[test]
fn genmove_multipv_streams_lines_then_plays() {
    let out = session("set seed 2\ngenmove multipv=3 iterations=1500\nhistory\n");
    let r = replies(&out);
    let reply: Vec<&str> = r[1].lines().collect();
    assert_eq!(reply[0], "=");
    let played = reply
        .last()
        .and_then(|l| l.strip_prefix("play "))
        .expect("play <move> last");
    let lines = last_report(r[1]);
    assert_eq!(lines.len(), 3);
    assert_eq!(field(lines[0], "move"), Some(played));
    assert_eq!(r[2], format!("= {played}"));
    // Refused before the search: a plain `?` reply, nothing played.
    let out = session("genmove white multipv=2\nhistory\n");
    let r = replies(&out);
    assert!(r[0].starts_with("? it is black's turn"), "{out}");
    assert_eq!(r[1], "= ");
}

#[test]
fn json_lines_are_json_objects_with_the_text_lines_fields() {
    let out = session(
        "get output\nset output json\nget output\nanalyze multipv=3 iterations=800 interval=10\n\
         set search alphabeta\nanalyze depth=3\nset output xml\n\
         set output text\nanalyze iterations=10 output=json\n",
    );
    let r = replies(&out);
    assert_eq!(&r[..3], ["= text", "= ", "= json"]);
    assert!(r[6].starts_with("? output must be text or json"), "{out}");
    let json: Vec<&str> = out.lines().filter(|l| l.starts_with('{')).collect();
    assert!(json.len() >= 6, "{out}");
    assert!(!out.lines().any(|l| l.starts_with("info")), "{out}");
    for l in &json {
        assert!(
            l.starts_with("{\"type\":\"info\",") && l.ends_with('}'),
            "{l}"
        );
    }
    assert!(json.iter().any(|l| l.contains("\"multipv\":3")));
    assert!(
        json.iter().any(|l| !l.contains("\"multipv\"")),
        "plain lines too"
    );
    for l in &json {
        assert_eq!(
            json_value(l.as_bytes()),
            Some(l.len()),
            "not one JSON value: {l}"
        );
    }
    // The validator refuses what is not JSON.
    for bad in [
        "{\"a\":}",
        "{\"a\":1,}",
        "[1 2]",
        "{\"a\":01}",
        "\"\\q\"",
        "{\"a\":1",
    ] {
        assert_ne!(json_value(bad.as_bytes()), Some(bad.len()), "{bad}");
    }
    // Parsed by a real JSON parser where there is one.
    let Ok(mut python) = Command::new("python3")
        .args([
            "-c",
            "import json, sys\n\
             for line in sys.stdin:\n    \
                 o = json.loads(line)\n    \
                 assert o['type'] == 'info', o\n    \
                 assert 'error' in o or isinstance(o['score'], float), o\n    \
                 assert 'pv' not in o or isinstance(o['pv'], list), o\n\
             print('ok')",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    else {
        eprintln!("python3 not found: JSON checked by shape only");
        return;
    };
    let mut stdin = python.stdin.take().expect("stdin");
    stdin
        .write_all((json.join("\n") + "\n").as_bytes())
        .expect("write");
    drop(stdin);
    let done = python.wait_with_output().expect("python3 ran");
    assert!(
        done.status.success() && done.stdout.starts_with(b"ok"),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
}

/// The length of the JSON value (RFC 8259) at the start of `s`, with the
/// white space after it; `None` if none starts there. A small validator, so
/// that the JSON lines are checked without a JSON library or python3.
fn json_value(s: &[u8]) -> Option<usize> {
    let ws = |mut i: usize| {
        while s.get(i).is_some_and(|c| b" \t\r\n".contains(c)) {
            i += 1;
        }
        i
    };
    let i = ws(0);
    let end = match s.get(i)? {
        b'{' | b'[' => {
            let (close, object) = if s[i] == b'{' {
                (b'}', true)
            } else {
                (b']', false)
            };
            let mut j = ws(i + 1);
            if s.get(j) == Some(&close) {
                return Some(ws(j + 1));
            }
            loop {
                if object {
                    j = ws(j);
                    if s.get(j) != Some(&b'"') {
                        return None;
                    }
                    j += json_value(&s[j..])?;
                    if s.get(j) != Some(&b':') {
                        return None;
                    }
                    j += 1;
                }
                j += json_value(&s[j..])?;
                match s.get(j) {
                    Some(b',') => j += 1,
                    Some(&c) if c == close => break j + 1,
                    _ => return None,
                }
            }
        }
        b'"' => {
            let mut j = i + 1;
            loop {
                match s.get(j)? {
                    b'"' => break j + 1,
                    b'\\' => match s.get(j + 1)? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => j += 2,
                        b'u' if s.get(j + 2..j + 6)?.iter().all(u8::is_ascii_hexdigit) => j += 6,
                        _ => return None,
                    },
                    c if *c < 0x20 => return None,
                    _ => j += 1,
                }
            }
        }
        b't' if s[i..].starts_with(b"true") => i + 4,
        b'f' if s[i..].starts_with(b"false") => i + 5,
        b'n' if s[i..].starts_with(b"null") => i + 4,
        _ => {
            let digits = |j: usize| s[j..].iter().take_while(|c| c.is_ascii_digit()).count();
            let mut j = i + usize::from(s[i] == b'-');
            let int = digits(j);
            if int == 0 || (int > 1 && s[j] == b'0') {
                return None;
            }
            j += int;
            if s.get(j) == Some(&b'.') {
                let frac = digits(j + 1);
                if frac == 0 {
                    return None;
                }
                j += 1 + frac;
            }
            if s.get(j).is_some_and(|c| *c == b'e' || *c == b'E') {
                j += 1;
                if s.get(j).is_some_and(|c| *c == b'+' || *c == b'-') {
                    j += 1;
                }
                let exp = digits(j);
                if exp == 0 {
                    return None;
                }
                j += exp;
            }
            j
        }
    };
    Some(ws(end))
}
