//! Game-pair (pentanomial) statistics against the published reference
//! implementations: fishtest's `server/fishtest/stats/LLRcalc.py` and
//! `stat_util.py` (run unchanged, with scipy, on the counts below to get the
//! six-decimal figures) and fastchess's `app/tests/sprt_test.cpp` and
//! `elo_test.cpp` (whose own expectations are given to two decimals).
//! Counts are fishtest's order: LL, LD, WL+DD, WD, WW (pairs) or L, D, W.

use tabula::arena::stats::pentanomial::DealCounts;
use tabula::arena::stats::sprt::{EloModel, Sprt};

fn sprt(elo0: f64, elo1: f64, model: EloModel) -> Sprt {
    Sprt::new(elo0, elo1, 0.05, 0.05).unwrap().with_model(model)
}

fn close(got: f64, want: f64, tol: f64, what: &str) {
    assert!((got - want).abs() <= tol, "{what}: got {got}, want {want}");
}

#[test]
fn pentanomial_llr_equals_fishtest_to_four_digits() {
    use EloModel::{Logistic, Normalized};
    // (model, elo0, elo1, counts, fishtest's LLR). The first four are the
    // counts of fastchess's pentanomial SPRT tests (LLR -3.07, -4.98, 2.25,
    // 3.01 there).
    let cases: [(EloModel, f64, f64, [u64; 5], f64); 7] = [
        (
            Logistic,
            0.5,
            2.5,
            [223, 9863, 21279, 10037, 246],
            -3.074126,
        ),
        (
            Logistic,
            0.0,
            2.0,
            [871, 26175, 55983, 26678, 821],
            -4.978673,
        ),
        (
            Normalized,
            0.0,
            2.0,
            [365, 16618, 36229, 16974, 390],
            2.250368,
        ),
        (
            Normalized,
            -1.75,
            0.25,
            [127, 4883, 10712, 5150, 104],
            3.010154,
        ),
        (Normalized, 0.0, 5.0, [0, 0, 0, 0, 5550], 111.797555),
        (Logistic, 0.0, 5.0, [3, 10, 30, 12, 5], 0.165139),
        (Normalized, 0.0, 5.0, [3, 10, 30, 12, 5], 0.116546),
    ];
    for (model, e0, e1, bins, want) in cases {
        let got = sprt(e0, e1, model).llr_deals(&DealCounts::from_bins(&bins));
        close(got, want, 5e-5, &format!("{model:?} {e0}..{e1} {bins:?}"));
    }
}

#[test]
fn trinomial_llr_equals_fishtest() {
    use EloModel::{Logistic, Normalized};
    // fastchess's trinomial tests: logistic 0.5..2.5 on W 21404, L 21184,
    // D 40708 gives -1.57; normalized 0..2 on W 36433 L 36027 D 68692 0.92.
    let cases: [(EloModel, f64, f64, [u64; 3], f64); 3] = [
        (Logistic, 0.5, 2.5, [21184, 40708, 21404], -1.571889),
        (Normalized, 0.0, 2.0, [36027, 68692, 36433], 0.923293),
        (Normalized, 0.0, 2.0, [57030, 106593, 57433], -0.438639),
    ];
    for (model, e0, e1, bins, want) in cases {
        let got = sprt(e0, e1, model).llr_deals(&DealCounts::from_bins(&bins));
        close(got, want, 5e-5, &format!("{model:?} {bins:?}"));
    }
}

#[test]
fn pentanomial_elo_equals_fishtest_and_fastchess() {
    // fishtest get_elo: (elo, ±, LOS); fastchess: nElo ± (2 decimals).
    type Case = ([u64; 5], f64, f64, f64, Option<(f64, f64)>);
    let cases: [Case; 3] = [
        (
            [34, 54, 63, 64, 75],
            55.579780,
            27.653430,
            0.99997039,
            Some((57.94, 28.28)),
        ),
        (
            [332, 433, 498, 333, 334],
            -8.642667,
            10.334194,
            0.05047007,
            Some((-9.17, 10.96)),
        ),
        ([3, 10, 30, 12, 5], 17.386278, 41.773450, 0.79419704, None),
    ];
    for (bins, elo, margin, los, nelo) in cases {
        let e = DealCounts::from_bins(&bins).estimate().unwrap();
        close(e.elo, elo, 5e-5, "elo");
        close(
            (e.elo_upper - e.elo_lower) / 2.0,
            margin,
            5e-5,
            "elo margin",
        );
        close(e.los, los, 5e-7, "los");
        if let Some((n, m)) = nelo {
            close(e.nelo, n, 0.005, "nelo");
            close((e.nelo_upper - e.nelo_lower) / 2.0, m, 0.005, "nelo margin");
        }
    }
}

#[test]
fn deals_of_more_games_score_by_their_mean() {
    // A four-seat deal of two rotations and a three-seat deal of six are
    // scored like pairs: the mean of their games, 2R+1 bins.
    let mut four = DealCounts::new(2);
    four.add_deal(&[1.0, 0.0]);
    assert_eq!(four.bins, vec![0, 0, 1, 0, 0]);
    let mut three = DealCounts::new(6);
    for _ in 0..20 {
        three.add_deal(&[1.0, 1.0, 1.0, 0.5, 0.5, 0.0]);
        three.add_deal(&[0.0, 0.5, 0.5, 0.5, 0.5, 0.0]);
    }
    assert_eq!(three.bins.len(), 13);
    assert_eq!((three.bins[8], three.bins[4]), (20, 20));
    let e = three.estimate().unwrap();
    close(e.score, 0.5, 1e-12, "score");
    // The LLR of an even match leans to H0 under both models.
    for model in [EloModel::Logistic, EloModel::Normalized] {
        assert!(sprt(0.0, 20.0, model).llr_deals(&three) < 0.0);
    }
}

#[test]
fn sprt_model_words() {
    let s = Sprt::parse(&["elo0=0", "elo1=3", "model=logistic"]).unwrap();
    assert_eq!(s.model, EloModel::Logistic);
    assert_eq!(
        Sprt::parse(&s.words().split(' ').collect::<Vec<_>>()).unwrap(),
        s
    );
    assert_eq!(
        Sprt::parse::<&str>(&[]).unwrap().model,
        EloModel::Normalized
    );
    assert!(Sprt::parse(&["model=bayes"]).is_err());
}
