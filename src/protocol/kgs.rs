//! `kgs-time_settings`, the KGS clock extension Go-style controllers
//! send (`none`, `absolute`, Japanese `byoyomi`, `canadian`), mapped onto
//! the GTP clock tabula keeps (main time, then periods of so many seconds
//! for so many moves).

use crate::protocol::error::ProtocolError;
use std::time::Duration;

use crate::engine::Engine;

/// The command names, as `list_commands` adds them.
pub const COMMANDS: &[&str] = &["kgs-time_settings"];

const USAGE: &str = "usage: kgs-time_settings none | absolute <main> | \
                     byoyomi <main> <period seconds> <periods> | \
                     canadian <main> <period seconds> <stones>";

/// A clock as `kgs-time_settings` gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KgsClock {
    /// No time limit.
    None,
    /// Main time only.
    Absolute {
        /// Main time in seconds.
        main: f64,
    },
    /// Main time, then `periods` periods of `period` seconds, each for one
    /// move (a period used up is lost).
    Byoyomi {
        /// Main time in seconds.
        main: f64,
        /// Seconds of one period.
        period: f64,
        /// How many periods.
        periods: u32,
    },
    /// Main time, then periods of `period` seconds for `stones` moves.
    Canadian {
        /// Main time in seconds.
        main: f64,
        /// Seconds of one period.
        period: f64,
        /// Moves to play in each period.
        stones: u32,
    },
}

/// The command's refusal for words not in its form.
fn usage() -> ProtocolError {
    ProtocolError::Usage(USAGE.trim_start_matches("usage: ").to_string())
}

impl KgsClock {
    /// Reads the words after the command name.
    pub fn parse(words: &[&str]) -> Result<KgsClock, ProtocolError> {
        let seconds = |w: &str| {
            w.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && (0.0..=1e9).contains(v))
                .ok_or_else(|| ProtocolError::bad_value("time", "must be seconds from 0 to 1e9", w))
        };
        let count = |w: &str, what: &str| {
            w.parse::<u32>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| ProtocolError::bad_value(what, "must be a whole number from 1", w))
        };
        let Some((kind, rest)) = words.split_first() else {
            return Err(usage());
        };
        match (kind.to_ascii_lowercase().as_str(), rest) {
            ("none", []) => Ok(KgsClock::None),
            ("absolute", [main]) => Ok(KgsClock::Absolute {
                main: seconds(main)?,
            }),
            ("byoyomi", [main, period, periods]) => Ok(KgsClock::Byoyomi {
                main: seconds(main)?,
                period: seconds(period)?,
                periods: count(periods, "periods")?,
            }),
            ("canadian", [main, period, stones]) => Ok(KgsClock::Canadian {
                main: seconds(main)?,
                period: seconds(period)?,
                stones: count(stones, "stones")?,
            }),
            _ => Err(usage()),
        }
    }

    /// The GTP `time_settings` triple `(main, period, stones)`, `None`
    /// for no limit. Japanese byo-yomi is a period of one move: the spare
    /// periods are a reserve the engine does not plan to spend.
    pub fn gtp(self) -> Option<(f64, f64, u32)> {
        match self {
            KgsClock::None => None,
            KgsClock::Absolute { main } => Some((main, 0.0, 0)),
            KgsClock::Byoyomi { main, period, .. } => Some((main, period, 1)),
            KgsClock::Canadian {
                main,
                period,
                stones,
            } => Some((main, period, stones)),
        }
    }
}

/// Runs a `kgs-time_settings` line: `None` when the line is not that
/// command, else its id and its reply or refusal (the clock unchanged).
pub fn execute(
    line: &str,
    engine: &mut Engine,
) -> Option<(Option<u64>, Result<String, ProtocolError>)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (id, rest) = match words.first()?.parse::<u64>() {
        Ok(id) if words[0].bytes().all(|b| b.is_ascii_digit()) => (Some(id), &words[1..]),
        _ => (None, &words[..]),
    };
    if !rest
        .first()
        .is_some_and(|n| n.eq_ignore_ascii_case(COMMANDS[0]))
    {
        return None;
    }
    let clock = match KgsClock::parse(&rest[1..]) {
        Ok(c) => c,
        Err(e) => return Some((id, Err(e))),
    };
    let secs = Duration::from_secs_f64;
    match clock.gtp() {
        Some((main, period, stones)) => engine.clock_mut().set(secs(main), secs(period), stones),
        // GTP's "no time limit": a period with no stones.
        None => engine
            .clock_mut()
            .set(Duration::ZERO, Duration::from_secs(1), 0),
    }
    Some((id, Ok(String::new())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_maps_onto_the_gtp_clock() {
        let p = |s: &str| KgsClock::parse(&s.split_whitespace().collect::<Vec<_>>());
        assert_eq!(p("none").unwrap().gtp(), None);
        assert_eq!(p("absolute 300").unwrap().gtp(), Some((300.0, 0.0, 0)));
        assert_eq!(p("byoyomi 60 10 5").unwrap().gtp(), Some((60.0, 10.0, 1)));
        assert_eq!(p("canadian 0 30 10").unwrap().gtp(), Some((0.0, 30.0, 10)));
        assert!(p("canadian 60 30 0").is_err());
        assert!(p("byoyomi 60 10").is_err());
        assert!(p("absolute -5").is_err());
        assert!(p("fischer 60 5").is_err());
        assert!(p("").is_err());
    }

    #[test]
    fn the_command_sets_the_engine_clock_and_a_refusal_leaves_it() {
        let mut engine = Engine::new(1).unwrap();
        let mut expected = crate::engine::Clock::default();
        let secs = Duration::from_secs;
        assert_eq!(
            execute("3 kgs-time_settings canadian 60 30 10", &mut engine),
            Some((Some(3), Ok(String::new())))
        );
        expected.set(secs(60), secs(30), 10);
        assert_eq!(engine.clock_mut(), &expected);
        let refused = execute("kgs-time_settings canadian 60 30 0", &mut engine);
        assert!(matches!(refused, Some((None, Err(_)))));
        assert_eq!(engine.clock_mut(), &expected);
        execute("kgs-time_settings byoyomi 300 20 5", &mut engine);
        expected.set(secs(300), secs(20), 1);
        assert_eq!(engine.clock_mut(), &expected);
        execute("kgs-time_settings none", &mut engine);
        assert_eq!(engine.clock_mut().allot(0, None), None);
        assert_eq!(execute("time_settings 1 2 3", &mut engine), None);
    }
}
