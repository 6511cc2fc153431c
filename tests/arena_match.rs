//! End-to-end matches of the runner against fake engines playing a toy
//! game: results, faults (crash, hang, illegal move, garbage), records.

use crate::common;

use common::{fixture, nim_match, scratch, words};
use tabula::arena::record::{Ending, Fault, MatchRecord};

fn engine(mode: &str, name: &str) -> Vec<String> {
    words(&[
        "--engine",
        &format!("cmd={}", fixture("nim_engine.sh", mode)),
        &format!("name={name}"),
    ])
}

fn base(dir: &std::path::Path, games: usize) -> Vec<String> {
    base_with(dir, games, 2)
}

/// Common arguments: `games` games, `jobs` at a time, a fixed seed, quiet.
fn base_with(dir: &std::path::Path, games: usize, jobs: usize) -> Vec<String> {
    words(&[
        "--games",
        &games.to_string(),
        "--concurrency",
        &jobs.to_string(),
        "--seed",
        "7",
        "--timeout",
        "5",
        "--record",
        &dir.join("match.txt").display().to_string(),
        "--quiet",
    ])
}

#[test]
fn the_stronger_engine_wins_and_colours_alternate() {
    let dir = scratch("strong");
    let mut args = base(&dir, 20);
    args.extend(engine("good", "good"));
    args.extend(engine("weak", "weak"));
    let report = nim_match(&args, &["stones=7"]);
    let p = &report.summary.pairings[0];
    // Perfect play wins Nim from 7 stones whoever starts.
    assert_eq!((p.wdl.wins, p.wdl.draws, p.wdl.losses), (20, 0, 0));
    let e = p.elo.expect("elo");
    assert!(e.elo.is_infinite() && e.elo > 0.0);
    // Seats alternate: each engine was first in half the games.
    let firsts = report
        .record
        .games
        .iter()
        .filter(|g| g.seats[0] == 0)
        .count();
    assert_eq!(firsts, 10);
    assert!(report.text.contains("W-D-L 20 - 0 - 0"), "{}", report.text);
    // The record file holds every game and reads back to the same report.
    let back = MatchRecord::read(&dir.join("match.txt")).expect("record reads");
    assert_eq!(back.games.len(), 20);
    assert!(
        back.games
            .iter()
            .all(|g| g.transcript.first() == Some("game nim stones=7"))
    );
    assert!(
        back.games
            .iter()
            .all(|g| g.transcript.iter().any(|l| l.starts_with("play first ")))
    );
}

#[test]
fn faults_lose_the_game_and_the_match_goes_on() {
    for (mode, fault) in [
        ("crash", Fault::Crash),
        ("hang", Fault::Timeout),
        ("illegal", Fault::Illegal),
        ("garbage", Fault::Malformed),
    ] {
        let dir = scratch(&format!("fault-{mode}"));
        let mut args = base(&dir, 4);
        // --recover: a crash or hang a game, restarted each time.
        args.extend(words(&[
            "--movetime",
            "100",
            "--timemargin",
            "300",
            "--recover",
        ]));
        // Generous for the good engine: a loaded machine must not make it
        // the culprit.
        args.extend(engine("good", "good"));
        args.extend(words(&["movetime=5000"]));
        args.extend(engine(mode, "bad"));
        let started = std::time::Instant::now();
        let report = nim_match(&args, &[]);
        assert_eq!(report.record.games.len(), 4, "{mode}: every game is played");
        let p = &report.summary.pairings[0];
        assert_eq!(
            p.wdl.wins, 4,
            "{mode}: the culprit loses every game\n{}",
            report.text
        );
        assert_eq!(
            report.summary.engines[1].fault_count(fault),
            4,
            "{mode}: faults counted\n{}",
            report.text
        );
        for g in &report.record.games {
            match &g.ending {
                Ending::Forfeit {
                    engine: 1,
                    fault: f,
                    ..
                } => assert_eq!(*f, fault),
                other => panic!("{mode}: unexpected ending {other:?}"),
            }
        }
        assert!(
            started.elapsed().as_secs() < 20,
            "{mode}: took {:?}",
            started.elapsed()
        );
    }
}

/// A reply late for its move time is a loss on time, not a crash or a
/// hang: the match goes on without `--recover` (where an engine's second
/// crash would stop it), and the report says how to avoid the losses.
#[test]
fn losses_on_time_never_stop_the_match() {
    let dir = scratch("late");
    let mut args = base(&dir, 4);
    // The slow engine sleeps 0.4 s a move: always past 0.1 s and 0.2 s
    // of grace, whatever the machine's load.
    args.extend(words(&["--movetime", "100", "--timemargin", "200"]));
    // The good engine answers at once, but on a loaded machine even that
    // may take a fraction of a second: its own move time is generous.
    args.extend(engine("good", "good"));
    args.extend(words(&["movetime=5000"]));
    args.extend(engine("slow", "slow"));
    let report = nim_match(&args, &[]);
    assert_eq!(report.record.games.len(), 4, "{}", report.text);
    assert_eq!(report.stopped, None, "{}", report.text);
    assert_eq!(
        report.summary.engines[1].fault_count(Fault::Timeout),
        4,
        "{}",
        report.text
    );
    for g in &report.record.games {
        let Ending::Forfeit { detail, .. } = &g.ending else {
            panic!("game {}: {:?}", g.number, g.ending);
        };
        assert!(
            detail.contains("within 0.300s (movetime 0.100s + 0.200s grace (--timemargin))"),
            "{detail}"
        );
    }
    assert!(
        report.text.contains("4 games lost on time")
            && report.text.contains("--timemargin MS, now 200 ms")
            && report.text.contains("--concurrency"),
        "{}",
        report.text
    );
}

#[test]
fn replies_without_ids_and_start_up_banners_are_accepted() {
    for mode in ["noid", "banner"] {
        let dir = scratch(mode);
        let mut args = base(&dir, 2);
        args.extend(engine(mode, mode));
        args.extend(engine("weak", "weak"));
        let report = nim_match(&args, &[]);
        assert_eq!(
            report.summary.pairings[0].wdl.wins, 2,
            "{mode}:\n{}",
            report.text
        );
        assert_eq!(report.summary.endings.forfeit, 0);
    }
}

#[test]
fn an_engine_that_cannot_start_stops_the_match_before_the_first_game() {
    let dir = scratch("nostart");
    let mut args = base(&dir, 2);
    args.extend(engine("good", "good"));
    args.extend(words(&[
        "--engine",
        "cmd=/nonexistent/engine",
        "name=ghost",
    ]));
    let opts = tabula::model::options::Options::parse(
        <common::Nim as tabula::model::game::Game>::OPTIONS,
        &[] as &[&str],
    )
    .unwrap();
    let referee = tabula::arena::referee_for::<common::Nim>(&opts).unwrap();
    let err = tabula::arena::run_with_referee(&common::parse(&args), referee)
        .expect_err("no match without the engine");
    let text = err.to_string();
    assert!(
        text.contains("ghost") && text.contains("cannot start"),
        "{text}"
    );
    assert!(!dir.join("match.txt").exists());
}

#[test]
fn round_robin_has_a_cross_table() {
    let dir = scratch("rr");
    let mut args = base(&dir, 2);
    args.extend(engine("good", "good"));
    args.extend(engine("weak", "weak"));
    args.extend(engine("illegal", "cheat"));
    let report = nim_match(&args, &[]);
    assert_eq!(report.record.games.len(), 6);
    assert!(report.text.contains("Cross-table"), "{}", report.text);
    let good = &report.summary.engines[0];
    assert_eq!(good.wdl.wins, 4, "{}", report.text);
    let cheat = &report.summary.engines[2];
    assert_eq!(
        (cheat.wdl.losses, cheat.fault_count(Fault::Illegal)),
        (4, 4)
    );
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let dir = scratch("sprt");
    let mut args = base(&dir, 400);
    args.extend(words(&[
        "--sprt",
        "elo0=0",
        "elo1=50",
        "alpha=0.05",
        "beta=0.05",
    ]));
    args.extend(engine("good", "good"));
    args.extend(engine("weak", "weak"));
    let report = nim_match(&args, &[]);
    assert!(report.stopped_by_sprt.is_some(), "{}", report.text);
    assert!(
        report.record.games.len() < 100,
        "stopped after {} games",
        report.record.games.len()
    );
    assert!(report.text.contains("H1 accepted"), "{}", report.text);
}

fn logged(mode: &str, name: &str, log: &std::path::Path, extra: &[&str]) -> Vec<String> {
    let mut w = words(&[
        "--engine",
        &format!(
            "cmd={}",
            fixture("nim_engine.sh", &format!("{mode} {}", log.display()))
        ),
        &format!("name={name}"),
    ]);
    w.extend(words(extra));
    w
}

#[test]
fn gtp_engines_get_only_the_gtp_core() {
    let dir = scratch("gtp");
    let log = dir.join("gtp.log");
    let mut args = base_with(&dir, 2, 1);
    args.extend(words(&["--movetime", "2000"]));
    args.extend(logged(
        "good",
        "gtp",
        &log,
        &["proto=gtp", "set.search=uct"],
    ));
    args.extend(engine("weak", "weak"));
    let report = nim_match(&args, &[]);
    assert_eq!(report.summary.pairings[0].wdl.wins, 2, "{}", report.text);
    let sent = std::fs::read_to_string(&log).unwrap();
    let commands: Vec<&str> = sent
        .lines()
        // Sent without ids: plain GTP engines get none.
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(
        commands
            .iter()
            .all(|c| ["clear_board", "time_settings", "play", "genmove", "quit"].contains(c)),
        "{sent}"
    );
    assert!(
        sent.contains("\ntime_settings 0 2 1\n"),
        "movetime as a one-move byo-yomi:\n{sent}"
    );
    assert!(
        sent.lines()
            .any(|l| l.ends_with("genmove first") || l.ends_with("genmove second")),
        "{sent}"
    );
}

#[test]
fn tabula_engines_get_settings_seeds_and_budgets() {
    let dir = scratch("settings");
    let (log_a, log_b) = (dir.join("a.log"), dir.join("b.log"));
    let mut args = base_with(&dir, 2, 1);
    args.extend(words(&["--iterations", "500", "--each", "set.search=uct"]));
    args.extend(logged(
        "good",
        "a",
        &log_a,
        &["set.iterations=9", "depth=3"],
    ));
    args.extend(logged("good", "b", &log_b, &["set.seed=5"]));
    let report = nim_match(&args, &["stones=9"]);
    assert_eq!(report.record.games.len(), 2);
    let a = std::fs::read_to_string(&log_a).unwrap();
    let b = std::fs::read_to_string(&log_b).unwrap();
    for (log, name) in [(&a, "a"), (&b, "b")] {
        assert!(log.contains(" set search uct\n"), "{name}:\n{log}");
        assert!(log.contains(" game nim stones=9\n"), "{name}:\n{log}");
    }
    assert!(a.contains(" set iterations 9\n"));
    // Per-game seeds differ between games, and are not sent when fixed.
    let seeds: Vec<&str> = a.lines().filter(|l| l.contains(" set seed ")).collect();
    assert_eq!(seeds.len(), 2, "{a}");
    assert_ne!(
        seeds[0].split_whitespace().last(),
        seeds[1].split_whitespace().last()
    );
    // Only its own, once per process: the check before the first game,
    // then the one process that played both games.
    assert_eq!(
        b.lines().filter(|l| l.contains(" set seed ")).count(),
        2,
        "only its own:\n{b}"
    );
    assert!(
        b.lines()
            .filter(|l| l.contains(" set seed "))
            .all(|l| l.ends_with(" set seed 5")),
        "{b}"
    );
    assert!(
        a.lines()
            .any(|l| l.contains("genmove") && l.ends_with("depth=3 iterations=500")),
        "{a}"
    );
}

#[test]
fn a_game_clock_forfeits_the_slow_engine() {
    let dir = scratch("clock");
    let log = dir.join("slow.log");
    let mut args = base(&dir, 2);
    args.extend(words(&["--tc", "1", "--timemargin", "100"]));
    // The fast engine's own clock is generous: on a loaded machine even
    // its instant replies add up.
    args.extend(engine("good", "fast"));
    args.extend(words(&["tc=60"]));
    args.extend(logged("slow", "slow", &log, &[]));
    let report = nim_match(&args, &["stones=30"]);
    assert_eq!(
        report.summary.engines[1].fault_count(Fault::Timeout),
        2,
        "{}",
        report.text
    );
    let sent = std::fs::read_to_string(&log).unwrap();
    assert!(sent.contains(" time_settings 1 0 0\n"), "{sent}");
    assert!(sent.lines().any(|l| l.contains(" time_left ")), "{sent}");
}

#[test]
fn random_openings_are_shared_by_the_games_of_a_deal() {
    let dir = scratch("openings");
    let mut args = base(&dir, 8);
    args.extend(words(&["--random-plies", "2"]));
    args.extend(engine("good", "a"));
    args.extend(engine("good", "b"));
    let report = nim_match(&args, &["stones=30"]);
    let games = &report.record.games;
    assert_eq!(games.len(), 8);
    for pair in games.chunks(2) {
        assert_eq!(pair[0].deal, pair[1].deal);
        assert_eq!(
            pair[0].transcript.to_vec()[1..3],
            pair[1].transcript.to_vec()[1..3]
        );
    }
    assert!(
        games.iter().all(|g| g.ending == Ending::Normal),
        "{}",
        report.text
    );
    // Different deals open differently (with 4 deals, almost surely).
    let openings: std::collections::BTreeSet<_> = games
        .iter()
        .map(|g| g.transcript.to_vec()[1..3].to_vec())
        .collect();
    assert!(openings.len() > 1);
}

#[test]
fn two_runs_merge_into_one_report() {
    let dir = scratch("merge-run");
    let mut paths = Vec::new();
    for seed in ["1", "2"] {
        let path = dir.join(format!("run{seed}.txt"));
        let mut args = words(&[
            "--games",
            "4",
            "-j",
            "2",
            "--seed",
            seed,
            "--quiet",
            "--record",
            &path.display().to_string(),
        ]);
        args.extend(engine("good", "good"));
        args.extend(engine("weak", "weak"));
        nim_match(&args, &[]);
        paths.push(path.display().to_string());
    }
    let chart = dir.join("merged.svg");
    let merged_path = dir.join("merged.txt");
    let mut args = words(&[
        "--merge",
        &paths[0],
        &paths[1],
        "--chart",
        &chart.display().to_string(),
    ]);
    args.extend(words(&["--record", &merged_path.display().to_string()]));
    let report = tabula::arena::run(&common::parse(&args)).expect("merge");
    assert_eq!(report.record.games.len(), 8);
    assert_eq!(report.summary.pairings[0].wdl.wins, 8);
    assert!(report.text.contains("8 games"), "{}", report.text);
    let svg = std::fs::read_to_string(&chart).unwrap();
    assert!(svg.contains("W 8 D 0 L 0 (8 games)"));
    assert_eq!(MatchRecord::read(&merged_path).unwrap().games.len(), 8);
}

#[test]
fn help_lists_the_flags_and_examples() {
    use clap::CommandFactory;
    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: tabula::arena::MatchArgs,
    }
    let help = Cli::command().render_long_help().to_string();
    for flag in [
        "--engine",
        "--each",
        "--game",
        "--games",
        "--concurrency",
        "--movetime",
        "--tc",
        "--sprt",
        "--record",
        "--chart",
        "--merge",
        "--random-plies",
        "Examples:",
    ] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
}

/// GTP Othello engines such as GRhino refuse `play <colour> pass` (the
/// same colour simply moves again): a refused pass is not a forfeit, and
/// the games play out by the rules.
#[test]
fn a_gtp_engine_that_refuses_passes_plays_on() {
    let dir = scratch("nopass");
    let log = dir.join("passes.log");
    let bin = env!("CARGO_BIN_EXE_tabula");
    let mut args = base_with(&dir, 16, 2);
    args.extend(words(&[
        "--game",
        "othello",
        "--engine",
        &format!(
            "cmd={}",
            fixture("gtp_nopass.sh", &format!("{bin} {}", log.display()))
        ),
        "name=nopass",
        "proto=gtp",
        "--engine",
        &format!("cmd={bin}"),
        "name=random",
        "set.search=random",
    ]));
    let report = tabula::arena::run(&common::parse(&args)).expect("match runs");
    let refused = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        refused.lines().any(|l| l.ends_with(" pass")),
        "some game had a pass for the filter to refuse:\n{}",
        report.text
    );
    assert_eq!(report.summary.endings.forfeit, 0, "{}", report.text);
    assert_eq!(report.record.games.len(), 16);
    for g in &report.record.games {
        assert_eq!(g.ending, Ending::Normal, "{}", report.text);
    }
}
