//! A seat-bound card game refereed through the runner: every engine
//! process is bound to one seat and receives only that seat's cards.

use crate::common;

use std::collections::BTreeMap;

use common::{duel_match, fixture, scratch, words};
use tabula::arena::record::Ending;

#[test]
fn every_engine_hears_only_its_own_cards() {
    let dir = scratch("duel");
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let cmd = format!(
        "cmd={}",
        fixture("duel_engine.sh", &logs.display().to_string())
    );
    let args = words(&[
        "--engine",
        &cmd,
        "name=a",
        "--engine",
        &cmd,
        "name=b",
        "--games",
        "12",
        "--concurrency",
        "2",
        "--seed",
        "11",
        "--timeout",
        "5",
        "--quiet",
        "--record",
        &dir.join("duel.txt").display().to_string(),
    ]);
    let report = duel_match(&args);
    assert_eq!(report.record.games.len(), 12);
    assert!(
        report
            .record
            .games
            .iter()
            .all(|g| g.ending == Ending::Normal),
        "{}",
        report.text
    );

    // What the referee dealt, per seat: the first line of each transcript
    // after `game` is the full deal `n1,n2/s1,s2`.
    let mut dealt: BTreeMap<(usize, String), usize> = BTreeMap::new();
    for g in &report.record.games {
        let deal = g.transcript[1].strip_prefix("deal ").expect("deal first");
        let (north, south) = deal.split_once('/').unwrap();
        *dealt.entry((0, north.to_string())).or_default() += 1;
        *dealt.entry((1, south.to_string())).or_default() += 1;
    }
    // Games of one deal replay it with seats swapped.
    for pair in report.record.games.chunks(2) {
        assert_eq!(pair[0].deal, pair[1].deal);
        assert_eq!(pair[0].transcript[1], pair[1].transcript[1]);
        assert_eq!(pair[0].seats, vec![pair[1].seats[1], pair[1].seats[0]]);
    }

    // What each engine process received: its seat from `game duel seat=N`,
    // then exactly one `deal` line per game with its own two cards.
    let mut heard: BTreeMap<(usize, String), usize> = BTreeMap::new();
    for entry in std::fs::read_dir(&logs).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(
            !text.contains('/'),
            "a full deal leaked to an engine:\n{text}"
        );
        let mut seat = None;
        for line in text.lines() {
            let mut w = line.split_whitespace().skip(1);
            match w.next() {
                Some("game") => {
                    let bind = w
                        .find_map(|x| x.strip_prefix("seat="))
                        .expect("seat-bound game command");
                    seat = Some(bind.parse::<usize>().unwrap());
                }
                Some("deal") => {
                    let cards = w.next().unwrap().to_string();
                    *heard
                        .entry((seat.expect("game before deal"), cards))
                        .or_default() += 1;
                }
                _ => {}
            }
        }
    }
    assert_eq!(heard, dealt);
}

/// `--table BAA`: one engine against two copies of the other, the lone
/// engine moved round every seat on the same deal.
#[test]
fn a_table_seats_one_engine_against_two() {
    let dir = scratch("table");
    let cmd = format!("cmd={}", env!("CARGO_BIN_EXE_tabula"));
    let args = words(&[
        "--game",
        "ninetynine",
        "--engine",
        &cmd,
        "name=rules",
        "set.search=rules",
        "--engine",
        &cmd,
        "name=random",
        "set.search=random",
        "--table",
        "BAA",
        "--games",
        "6",
        "--concurrency",
        "2",
        "--seed",
        "5",
        "--quiet",
        "--record",
        &dir.join("table.txt").display().to_string(),
    ]);
    let report = tabula::arena::run(&common::parse(&args)).expect("match runs");
    let games = &report.record.games;
    assert_eq!(games.len(), 6);
    assert!(
        games.iter().all(|g| g.ending == Ending::Normal),
        "{}",
        report.text
    );
    for g in games {
        assert_eq!(
            g.seats.iter().filter(|&&e| e == 1).count(),
            1,
            "{:?}",
            g.seats
        );
    }
    for seat in 0..3 {
        assert_eq!(games.iter().filter(|g| g.seats[seat] == 1).count(), 2);
    }
    // The three games of a deal are dealt the same cards.
    for deal in 0..2u64 {
        let firsts: Vec<&str> = games
            .iter()
            .filter(|g| g.deal == deal)
            .map(|g| &g.transcript[1])
            .collect();
        assert_eq!(firsts.len(), 3);
        assert!(
            firsts
                .iter()
                .all(|d| d.starts_with("deal ") && *d == firsts[0])
        );
    }
    assert!(
        report.text.contains("holds 66.7% of the seats"),
        "{}",
        report.text
    );
    // A pattern that does not fit the game is refused.
    let mut bad = args.clone();
    let i = bad.iter().position(|w| w == "BAA").unwrap();
    bad[i] = "ABBB".to_string();
    assert!(tabula::arena::run(&common::parse(&bad)).is_err());
}
