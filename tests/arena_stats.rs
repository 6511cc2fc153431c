//! The statistics of the match runner: Elo with its interval, LOS, SPRT.

use tabula::arena::stats::elo::{Wdl, elo_estimate, elo_from_score, los};
use tabula::arena::stats::sprt::{Sprt, SprtDecision};

#[test]
fn elo_of_known_results() {
    // 60 wins, 20 draws, 20 losses: score 0.7, Elo -400 log10(1/0.7 - 1).
    let e = elo_estimate(&Wdl::new(60, 20, 20)).unwrap();
    assert!((e.elo - 147.19).abs() < 0.01, "{}", e.elo);
    // Per-game variance: (60*0.09 + 20*0.04 + 20*0.49)/100 = 0.16; se 0.04.
    let (lo, hi) = e.score_interval;
    assert!((lo - (0.7 - 1.96 * 0.04)).abs() < 1e-3 && (hi - (0.7 + 1.96 * 0.04)).abs() < 1e-3);
    assert!(
        (e.lower - elo_from_score(lo)).abs() < 1e-9 && (e.upper - elo_from_score(hi)).abs() < 1e-9
    );
    assert!(e.lower < e.elo && e.elo < e.upper);
    // Even results: zero, symmetric interval.
    let even = elo_estimate(&Wdl::new(30, 40, 30)).unwrap();
    assert!(even.elo.abs() < 1e-9 && (even.upper + even.lower).abs() < 1e-9);
    // The other side sees the negative.
    let flipped = elo_estimate(&Wdl::new(20, 20, 60)).unwrap();
    assert!((flipped.elo + e.elo).abs() < 1e-9);
    assert!(elo_estimate(&Wdl::default()).is_none());
}

#[test]
fn interval_shrinks_with_more_games() {
    let small = elo_estimate(&Wdl::new(6, 2, 2)).unwrap().margin();
    let large = elo_estimate(&Wdl::new(600, 200, 200)).unwrap().margin();
    assert!(large < small / 5.0, "{small} vs {large}");
}

#[test]
fn likelihood_of_superiority() {
    assert!((los(&Wdl::new(10, 5, 10)) - 0.5).abs() < 1e-9);
    assert!(los(&Wdl::new(60, 0, 40)) > 0.97);
    assert!(los(&Wdl::new(40, 0, 60)) < 0.03);
}

#[test]
fn sprt_accepts_h1_on_a_lopsided_stream_and_h0_on_an_even_one() {
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    let (lower, upper) = sprt.bounds();
    assert!((upper - (0.95f64 / 0.05).ln()).abs() < 1e-12 && (lower + upper).abs() < 1e-12);

    // A stream scoring about 75%: H1 accepted, and not at once.
    let mut wdl = Wdl::default();
    let mut decided = None;
    for i in 0..10_000u32 {
        wdl.add(if i % 4 == 3 { 0.0 } else { 1.0 });
        match sprt.decide(&wdl) {
            SprtDecision::Continue => {}
            d => {
                decided = Some((d, i + 1));
                break;
            }
        }
    }
    let (d, n) = decided.expect("decided");
    assert_eq!(d, SprtDecision::AcceptH1);
    assert!(n > 5, "decided after {n} games");

    // An even stream (win, loss, draw, ...): H0 accepted.
    let mut wdl = Wdl::default();
    let mut decision = SprtDecision::Continue;
    for i in 0..100_000u32 {
        wdl.add([1.0, 0.0, 0.5][i as usize % 3]);
        decision = sprt.decide(&wdl);
        if decision != SprtDecision::Continue {
            break;
        }
    }
    assert_eq!(decision, SprtDecision::AcceptH0);
}

#[test]
fn sprt_parameters_are_checked() {
    assert!(Sprt::parse(&["elo0=5", "elo1=0"]).is_err());
    assert!(Sprt::parse(&["alpha=0.7"]).is_err());
    assert!(Sprt::parse(&["gamma=1"]).is_err());
    let s = Sprt::parse(&["elo1=20", "beta=0.1"]).unwrap();
    assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 20.0, 0.05, 0.1));
}
