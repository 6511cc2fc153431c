//! GTP clocks told in whole seconds, rounded up as Quarry and `bench
//! --clock` do: a told time is believed exact only where it can be (the
//! seat's first move, a fresh byo-yomi period, a fraction), so whole games
//! at a second a side are not lost on time.

use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tabula::engine::{BudgetOverride, Engine, Request};

/// The time budget the engine would give a `genmove` now.
fn budget(engine: &mut Engine) -> Duration {
    let request = Request {
        seat: None,
        budget: BudgetOverride::default(),
        stop: Arc::new(AtomicBool::new(false)),
        since: Instant::now(),
        reporter: None,
        answer: None,
        multipv: 0,
    };
    engine
        .budget(&request)
        .time
        .expect("a clock gives a time budget")
}

/// An Othello engine under sudden death of `main` seconds, black to move
/// after `black_moves` moves of its own (and white's replies).
fn othello_under(main: f64, black_moves: usize) -> Engine {
    let mut engine = Engine::new(1).expect("engine");
    engine.load_game("othello", &[]).expect("othello");
    engine
        .clock_mut()
        .set(Duration::from_secs_f64(main), Duration::ZERO, 0);
    for (b, w) in [("d3", "c5"), ("f6", "f5"), ("e6", "e3")]
        .into_iter()
        .take(black_moves)
    {
        engine.play(Some("black"), b).expect("legal");
        engine.play(Some("white"), w).expect("legal");
    }
    engine
}

fn tell(engine: &mut Engine, seconds: f64) {
    let black = engine.seat("black").expect("seat");
    engine
        .clock_mut()
        .time_left(black, Duration::from_secs_f64(seconds), 0);
}

#[test]
fn a_whole_time_equal_to_the_main_time_is_exact_only_at_the_first_move() {
    for main in [1.0, 2.0, 5.0, 30.0, 1.5] {
        // At the first move the clock has not run: the main time as set,
        // told as it is or rounded up.
        let untold = budget(&mut othello_under(main, 0));
        let mut first = othello_under(main, 0);
        tell(&mut first, main.ceil());
        assert_eq!(budget(&mut first), untold, "main {main}");
        // After the seat has moved, the same whole number may be rounded
        // up from anything above one second less: less than a told
        // fraction half a second under it.
        for moves in 1..=3 {
            let mut later = othello_under(main, moves);
            tell(&mut later, main.ceil());
            let rounded = budget(&mut later);
            tell(&mut later, main.ceil() - 0.5);
            let half_less = budget(&mut later);
            assert!(
                rounded < half_less,
                "main {main}, after {moves} moves: told {} gives {rounded:?}, \
                 {} gives {half_less:?}",
                main.ceil(),
                main.ceil() - 0.5
            );
        }
    }
}

/// `tabula bench --latency othello --clock MAIN,BYO,STONES`: its report line.
fn bench_clock(search: &str, clock: &str, games: u32) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args([
            "bench",
            "--latency",
            "othello",
            "--search",
            search,
            "--clock",
            clock,
            "--rounds",
            &games.to_string(),
        ])
        .output()
        .expect("run tabula bench");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The games lost on time in a bench report line.
fn lost_on_time(report: &str) -> u32 {
    let (head, _) = report
        .split_once(" lost on time")
        .unwrap_or_else(|| panic!("no loss count in {report:?}"));
    let n = head.rsplit(' ').next().unwrap_or("");
    n.parse()
        .unwrap_or_else(|_| panic!("no loss count in {report:?}"))
}

/// Was 10 of 10 games lost (mcts and alpha-beta) at one second.
#[test]
fn whole_games_at_one_second_are_not_lost_on_time() {
    for search in ["mcts", "alphabeta"] {
        let report = bench_clock(search, "1,0,0", 1);
        assert_eq!(lost_on_time(&report), 0, "{report}");
    }
}
