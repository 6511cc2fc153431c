//! One match over many machines: `--shard K/N` plays whole deals, and the
//! `--merge` of the shards' records is the whole match (same games, same
//! report, same chart). Also the live chart, the Elo curve of the report
//! and the `--help` examples.

use crate::common;

use common::{fixture, nim_match, scratch, words};
use tabula::arena::output::chart;
use tabula::arena::record::{GameRecord, MatchRecord};

fn engine(mode: &str, name: &str) -> Vec<String> {
    words(&[
        "--engine",
        &format!("cmd={}", fixture("nim_engine.sh", mode)),
        &format!("name={name}"),
    ])
}

fn args(record: &std::path::Path, extra: &[&str]) -> Vec<String> {
    let mut w = words(&[
        "--games",
        "14",
        "-j",
        "2",
        "--seed",
        "11",
        "--random-plies",
        "3",
        "--quiet",
        "--record",
        &record.display().to_string(),
    ]);
    w.extend(words(extra));
    w.extend(engine("good", "good"));
    w.extend(engine("weak", "weak"));
    w
}

/// A game without its wall-clock time, the one thing that differs.
fn timeless(g: &GameRecord) -> GameRecord {
    GameRecord {
        millis: 0,
        ..g.clone()
    }
}

#[test]
fn merged_shards_are_the_whole_match() {
    let dir = scratch("shards");
    let whole = nim_match(&args(&dir.join("whole.txt"), &[]), &["stones=13"]);
    let mut paths = Vec::new();
    for k in 1..=3 {
        let path = dir.join(format!("shard{k}.txt"));
        let shard = format!("{k}/3");
        let part = nim_match(&args(&path, &["--shard", &shard]), &["stones=13"]);
        // Whole deals only: both colours of every deal in one shard.
        for g in &part.record.games {
            assert_eq!(g.deal % 3, k - 1, "shard {shard} played deal {}", g.deal);
            let twins = part
                .record
                .games
                .iter()
                .filter(|o| o.deal == g.deal)
                .count();
            assert_eq!(twins, 2, "deal {} is split", g.deal);
        }
        paths.push(path.display().to_string());
    }
    let merged_path = dir.join("merged.txt");
    let mut margs = vec!["--merge".to_string()];
    // Given in any order.
    margs.extend([paths[2].clone(), paths[0].clone(), paths[1].clone()]);
    margs.extend(words(&["--record", &merged_path.display().to_string()]));
    let merged = tabula::arena::run(&common::parse(&margs)).expect("merge");

    let a: Vec<GameRecord> = whole.record.games.iter().map(timeless).collect();
    let b: Vec<GameRecord> = merged.record.games.iter().map(timeless).collect();
    assert_eq!(a.len(), 14);
    assert_eq!(
        a, b,
        "the same games, numbers, deals, seats, moves and results"
    );
    assert_eq!(merged.record.seeds, vec![11]);
    assert_eq!(whole.summary, merged.summary);
    assert_eq!(
        whole.summary.text(&whole.record),
        merged.summary.text(&merged.record)
    );
    assert_eq!(
        chart::svg(&whole.record, &whole.summary),
        chart::svg(&merged.record, &merged.summary)
    );
    // The openings differ between deals, so the test compares real games.
    let openings: std::collections::BTreeSet<_> = a
        .iter()
        .map(|g| g.transcript.to_vec()[1..4].to_vec())
        .collect();
    assert!(openings.len() > 2);
    // The merged record reads back as the whole match.
    let back = MatchRecord::read(&merged_path).unwrap();
    assert_eq!(back.games.len(), 14);
    assert_eq!(back.shard, None);

    // A missing shard refuses the merge, naming its deals (2 and 5 of
    // deals 0-6) and games; with --partial the report names them.
    let err = tabula::arena::run(&common::parse(&words(&[
        "--merge",
        &paths[0],
        &paths[1],
        "--no-record",
    ])))
    .expect_err("a merge with a shard missing is refused");
    assert!(
        err.to_string().contains("deals 2, 5 (games 5-6, 11-12)"),
        "{err}"
    );
    let two = tabula::arena::run(&common::parse(&words(&[
        "--merge",
        &paths[0],
        &paths[1],
        "--no-record",
        "--partial",
    ])))
    .unwrap();
    assert!(
        two.text
            .contains("Missing (seed 11): deals 2, 5 (games 5-6, 11-12)"),
        "{}",
        two.text
    );
    let copy = dir.join("copy.txt");
    std::fs::copy(&paths[0], &copy).unwrap();
    let err = tabula::arena::run(&common::parse(&words(&[
        "--merge",
        &paths[0],
        &copy.display().to_string(),
    ])))
    .expect_err("double counting refused");
    assert!(err.to_string().contains("twice"), "{err}");
    // A shard played by other engines under the same names is refused.
    let other = dir.join("other.txt");
    let text = std::fs::read_to_string(&paths[2]).unwrap();
    std::fs::write(
        &other,
        text.replace("nim_engine.sh weak", "nim_engine.sh good"),
    )
    .unwrap();
    let err = tabula::arena::run(&common::parse(&words(&[
        "--merge",
        &paths[0],
        &other.display().to_string(),
    ])))
    .expect_err("other engines refused");
    assert!(err.to_string().contains("same engines"), "{err}");
}

#[test]
fn a_shard_needs_a_seed() {
    let dir = scratch("shard-seed");
    let mut a = args(&dir.join("x.txt"), &["--shard", "1/2"]);
    let at = a.iter().position(|w| w == "--seed").unwrap();
    a.drain(at..at + 2);
    let opts = tabula::model::options::Options::parse(
        <common::Nim as tabula::model::game::Game>::OPTIONS,
        &[] as &[&str],
    )
    .unwrap();
    let referee = tabula::arena::referee_for::<common::Nim>(&opts).unwrap();
    let err = tabula::arena::run_with_referee(&common::parse(&a), referee).expect_err("refused");
    assert!(err.to_string().contains("--seed"), "{err}");
}

#[test]
fn the_live_chart_and_the_report_show_the_elo_curve() {
    let dir = scratch("live");
    let live = dir.join("live.svg");
    let report = nim_match(
        &args(
            &dir.join("m.txt"),
            &[
                "--live",
                &live.display().to_string(),
                "--sprt",
                "elo0=0",
                "elo1=400",
            ],
        ),
        &["stones=13"],
    );
    let n = report.record.games.len();
    assert!(n >= 2);
    let curve = &report.summary.curve;
    assert_eq!(curve.last().map(|p| p.games), Some(n as u64));
    assert!(curve.iter().all(|p| p.llr.is_some()));
    assert!(
        report.text.contains("Elo of good over the games"),
        "{}",
        report.text
    );
    assert!(report.text.contains("LLR (bounds"), "{}", report.text);
    let svg = std::fs::read_to_string(&live).unwrap();
    assert!(svg.contains("Elo of good against weak"), "{svg}");
    assert!(svg.contains("SPRT log-likelihood ratio"), "{svg}");
    // The final picture does not reload itself; a live one does.
    assert!(!svg.contains("location.reload"));
    assert!(chart::svg_with(&report.record, &report.summary, true).contains("location.reload"));
}

#[test]
fn help_examples_parse_as_written() {
    use clap::CommandFactory;
    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: tabula::arena::MatchArgs,
    }
    let help = Cli::command().render_long_help().to_string();
    assert!(help.contains("cargo install --locked --path ."), "{help}");
    // Join continued lines, then parse every `tabula match` command.
    let joined = help.replace("\\\n", " ");
    let mut checked = 0;
    for line in joined.lines().map(str::trim) {
        let Some(rest) = line.strip_prefix("tabula match ") else {
            continue;
        };
        let rest = rest.replace("$k", "1").replace("\\\"", "\"");
        // Split like a shell for these simple lines: "..." keeps spaces.
        let mut argv = vec!["match".to_string()];
        let mut word = String::new();
        let mut quoted = false;
        for c in rest.chars() {
            match c {
                '"' => quoted = !quoted,
                ' ' if !quoted => {
                    if !word.is_empty() {
                        argv.push(std::mem::take(&mut word));
                    }
                }
                c => word.push(c),
            }
        }
        if !word.is_empty() {
            argv.push(word);
        }
        use clap::Parser;
        if let Err(e) = Cli::try_parse_from(&argv) {
            panic!("example does not parse: {line}\n{e}");
        }
        checked += 1;
    }
    assert!(checked >= 7, "{checked} examples found in:\n{help}");
}
