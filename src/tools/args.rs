//! Range checks of the tools' numeric arguments (`tabula bench`,
//! `train-othello`, `calibrate-probcut`), as the engine checks its own
//! settings: a value out of range is refused with a message that says what
//! is accepted, never clamped, and a tool that refuses one starts nothing.
//!
//! Thread counts are held to the cores this process may use, as `set
//! threads` is, unless the tool is run with `--force-threads` (then up to
//! 256): more threads than cores only take turns on them.

use std::fmt;
use std::ops::RangeInclusive;

use crate::engine::settings::available_cores;

/// The most threads any tool starts, forced or not (the engine's limit).
pub const MAX_THREADS: usize = 256;

/// A tool argument that the tool cannot honour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgError {
    /// A number outside what the tool accepts (or not a finite number).
    OutOfRange {
        /// The argument, as the command line spells it.
        name: &'static str,
        /// The value as given.
        value: String,
        /// What the tool accepts, in words.
        expected: String,
    },
    /// More threads than the cores this process may use, not forced.
    TooManyThreads {
        /// The argument, as the command line spells it.
        name: &'static str,
        /// The threads asked for.
        asked: usize,
        /// The cores this process may use.
        cores: usize,
    },
    /// Arguments that cannot go together, or a run with nothing to do.
    Conflict(String),
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::OutOfRange {
                name,
                value,
                expected,
            } => write!(f, "{name} {value} is out of range: expected {expected}"),
            ArgError::TooManyThreads { name, asked, cores } => write!(
                f,
                "{name} {asked} is more than the {cores} cores this process may use: at most \
                 {cores} (--force-threads allows up to {MAX_THREADS})"
            ),
            ArgError::Conflict(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ArgError {}

/// `value` if it lies in `range` (a NaN lies in none), else the error
/// naming the argument `name` and the range.
pub fn within<T>(name: &'static str, value: T, range: RangeInclusive<T>) -> Result<T, ArgError>
where
    T: PartialOrd + fmt::Display + Copy,
{
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(ArgError::OutOfRange {
            name,
            value: value.to_string(),
            expected: format!("{} to {}", range.start(), range.end()),
        })
    }
}

/// A thread count: 1 to [`MAX_THREADS`], and at most the cores this
/// process may use unless `forced`.
pub fn threads(name: &'static str, asked: usize, forced: bool) -> Result<usize, ArgError> {
    within(name, asked, 1..=MAX_THREADS)?;
    let cores = available_cores();
    if asked > cores && !forced {
        return Err(ArgError::TooManyThreads { name, asked, cores });
    }
    Ok(asked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_outside_the_range_and_nan_are_refused() {
        assert_eq!(within("--runs", 3usize, 1..=100), Ok(3));
        assert!(within("--runs", 0usize, 1..=100).is_err());
        assert!(within("--runs", usize::MAX, 1..=100).is_err());
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, 601.0] {
            let e = within("--seconds", bad, 0.1..=600.0).expect_err("out of range");
            assert!(e.to_string().contains("0.1 to 600"), "{e}");
        }
    }

    #[test]
    fn threads_past_the_cores_need_forcing() {
        let cores = available_cores();
        assert_eq!(threads("--threads", cores, false), Ok(cores));
        assert!(threads("--threads", 0, true).is_err());
        assert!(threads("--threads", MAX_THREADS + 1, true).is_err());
        if cores < MAX_THREADS {
            let e = threads("--threads", cores + 1, false).expect_err("past the cores");
            assert!(e.to_string().contains("--force-threads"), "{e}");
            assert_eq!(threads("--threads", cores + 1, true), Ok(cores + 1));
        }
    }
}
