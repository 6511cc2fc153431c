//! A mistake on the command line: every room that reads a word of it
//! (the configuration, the clock's scale, the adjudication settings, the
//! exports) says its mistakes with this one type.

use std::fmt;

/// A configuration mistake, with a message for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}
