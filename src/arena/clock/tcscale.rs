//! `--tc-scale REF_NPS`: time limits scaled by this machine's speed, as
//! fishtest and OpenBench scale a time control. The build signature
//! (`tabula bench`) is counted here; a machine that searches `nps` nodes a
//! second where the reference machine searched `REF_NPS` gets every time
//! limit (movetime, clock, byo-yomi) times `REF_NPS / nps`, so that each
//! engine searches about as many nodes as on the reference machine.

use std::time::Duration;

use crate::arena::config::spec::Limits;
use crate::arena::ground::config_error::ConfigError;
use crate::engine::signature;

/// The factor every time limit is multiplied by, and the line that says so.
pub fn measure(reference_nps: f64) -> Result<(f64, String), ConfigError> {
    if !(reference_nps.is_finite() && reference_nps > 0.0) {
        return Err(ConfigError(format!(
            "--tc-scale needs the reference machine's nodes a second (from `tabula bench`), not {reference_nps}"
        )));
    }
    let s = signature::measure();
    let factor = (reference_nps / s.nps()).clamp(0.01, 100.0);
    Ok((
        factor,
        format!(
            "tc-scale: this machine {:.0} nodes/s, reference {reference_nps:.0}: time limits x{factor:.3}",
            s.nps()
        ),
    ))
}

/// `limits` with every time limit multiplied by `factor` (at least 1 ms).
pub fn scale(limits: Limits, factor: f64) -> Limits {
    let times = |d: Duration| {
        if d.is_zero() {
            d
        } else {
            Duration::from_millis(((d.as_secs_f64() * 1000.0 * factor).round() as u64).max(1))
        }
    };
    Limits {
        movetime: limits
            .movetime
            .map(|ms| ((ms as f64 * factor).round() as u64).max(1)),
        clock: limits.clock.map(|mut c| {
            c.main = times(c.main);
            c.byoyomi = times(c.byoyomi);
            c
        }),
        ..limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::config::spec::TimeControl;

    #[test]
    fn every_time_limit_scales() {
        let l = Limits {
            movetime: Some(100),
            depth: Some(5),
            clock: Some(TimeControl::parse("10+0.5").unwrap()),
            ..Limits::default()
        };
        let s = scale(l, 1.5);
        assert_eq!(s.movetime, Some(150));
        assert_eq!(s.depth, Some(5));
        let c = s.clock.unwrap();
        assert_eq!((c.main.as_millis(), c.byoyomi.as_millis()), (15_000, 750));
        assert!(measure(0.0).is_err());
    }
}
