//! Game options: `key=value` pairs checked against a game's declared specs.
//!
//! A game declares its options as data ([`OptionSpec`]); the registry parses
//! the words of a `game` command into [`Options`] against those specs, so an
//! unknown key or a bad value is refused with a message naming what is
//! accepted, before the game ever sees it.

use std::collections::BTreeMap;
use std::fmt;

/// The kind and range of an option's value.
#[derive(Clone, Copy, Debug)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Int {
        /// The least value accepted.
        min: i64,
        /// The greatest value accepted.
        max: i64,
    },
    /// `true`/`false` (also `1`/`0`, `on`/`off`, `yes`/`no`).
    Bool,
    /// One of the listed words.
    Choice(&'static [&'static str]),
    /// Any text without spaces (such as a file path), kept as given.
    Text,
}

/// One option a game accepts.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// The key.
    pub name: &'static str,
    /// Its kind and range.
    pub kind: OptionKind,
    /// The default, as text (`auto` and similar words are allowed where the
    /// game documents them; they are not validated).
    pub default: &'static str,
    /// One line of help.
    pub help: &'static str,
}

impl OptionSpec {
    /// An integer option within `range`.
    pub const fn int(
        name: &'static str,
        range: std::ops::RangeInclusive<i64>,
        default: &'static str,
        help: &'static str,
    ) -> OptionSpec {
        let kind = OptionKind::Int {
            min: *range.start(),
            max: *range.end(),
        };
        OptionSpec {
            name,
            kind,
            default,
            help,
        }
    }

    /// A `true`/`false` option.
    pub const fn flag(name: &'static str, default: &'static str, help: &'static str) -> OptionSpec {
        let kind = OptionKind::Bool;
        OptionSpec {
            name,
            kind,
            default,
            help,
        }
    }

    /// An option that takes one of `words`.
    pub const fn choice(
        name: &'static str,
        words: &'static [&'static str],
        default: &'static str,
        help: &'static str,
    ) -> OptionSpec {
        let kind = OptionKind::Choice(words);
        OptionSpec {
            name,
            kind,
            default,
            help,
        }
    }

    /// A description such as `size=<3..11> (default 9)`.
    pub fn describe(&self) -> String {
        let range = match self.kind {
            OptionKind::Int { min, max } => format!("<{min}..{max}>"),
            OptionKind::Bool => "<true|false>".to_string(),
            OptionKind::Choice(words) => format!("<{}>", words.join("|")),
            OptionKind::Text => "<text>".to_string(),
        };
        format!("{}={} (default {})", self.name, range, self.default)
    }
}

/// Why options were refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// A word was not of the form `key=value`.
    Malformed(String),
    /// The key is not an option of this game; the list names the accepted ones.
    Unknown {
        /// The key as given.
        key: String,
        /// The keys this game accepts.
        accepted: Vec<String>,
    },
    /// The value is out of range or of the wrong kind.
    BadValue {
        /// The option.
        key: String,
        /// The value as given.
        value: String,
        /// What the option accepts, in words.
        expected: String,
    },
    /// The combination is refused by the game (the message says why).
    Invalid(String),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Malformed(w) => write!(f, "option '{w}' is not of the form key=value"),
            OptionError::Unknown { key, accepted } if accepted.is_empty() => {
                write!(f, "unknown option '{key}': this game takes no options")
            }
            OptionError::Unknown { key, accepted } => write!(
                f,
                "unknown option '{key}'; accepted: {}",
                accepted.join(", ")
            ),
            OptionError::BadValue {
                key,
                value,
                expected,
            } => {
                write!(
                    f,
                    "bad value '{value}' for option '{key}': expected {expected}"
                )
            }
            OptionError::Invalid(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for OptionError {}

/// Validated option values; anything not given takes the spec's default.
#[derive(Clone, Debug, Default)]
pub struct Options {
    values: BTreeMap<String, String>,
    specs: Vec<OptionSpec>,
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "1" | "on" | "yes" => Some(true),
        "false" | "0" | "off" | "no" => Some(false),
        _ => None,
    }
}

impl Options {
    /// Parses `key=value` words against `specs`.
    pub fn parse<S: AsRef<str>>(specs: &[OptionSpec], words: &[S]) -> Result<Options, OptionError> {
        let mut values = BTreeMap::new();
        for word in words {
            let word = word.as_ref();
            let (key, value) = word
                .split_once('=')
                .filter(|(k, v)| !k.is_empty() && !v.is_empty())
                .ok_or_else(|| OptionError::Malformed(word.to_string()))?;
            let key = key.to_ascii_lowercase();
            let spec =
                specs
                    .iter()
                    .find(|s| s.name == key)
                    .ok_or_else(|| OptionError::Unknown {
                        key: key.clone(),
                        accepted: specs.iter().map(OptionSpec::describe).collect(),
                    })?;
            let bad = |expected: String| OptionError::BadValue {
                key: key.clone(),
                value: value.to_string(),
                expected,
            };
            match spec.kind {
                OptionKind::Int { min, max } => match value.parse::<i64>() {
                    Ok(n) if (min..=max).contains(&n) => {}
                    _ => return Err(bad(format!("an integer from {min} to {max}"))),
                },
                OptionKind::Bool => {
                    if parse_bool(value).is_none() {
                        return Err(bad("true or false".to_string()));
                    }
                }
                OptionKind::Choice(words) => {
                    if !words.iter().any(|w| w.eq_ignore_ascii_case(value)) {
                        return Err(bad(format!("one of {}", words.join(", "))));
                    }
                }
                OptionKind::Text => {
                    values.insert(key, value.to_string());
                    continue;
                }
            }
            values.insert(key, value.to_ascii_lowercase());
        }
        Ok(Options {
            values,
            specs: specs.to_vec(),
        })
    }

    /// Whether the option was given explicitly.
    pub fn is_set(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    /// The raw text of an option (given or default); empty if undeclared.
    pub fn text(&self, name: &str) -> &str {
        if let Some(v) = self.values.get(name) {
            return v;
        }
        self.specs
            .iter()
            .find(|s| s.name == name)
            .map_or("", |s| s.default)
    }

    /// An integer option; `None` if the value is not an integer (for
    /// example an `auto` default).
    pub fn int(&self, name: &str) -> Option<i64> {
        self.text(name).parse().ok()
    }

    /// A boolean option (false if undeclared).
    pub fn flag(&self, name: &str) -> bool {
        parse_bool(self.text(name)).unwrap_or(false)
    }

    /// The options given explicitly, as `key=value` words.
    pub fn given(&self) -> Vec<String> {
        self.values
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[OptionSpec] = &[
        OptionSpec::int("size", 3..=11, "9", ""),
        OptionSpec::flag("jumps", "true", ""),
        OptionSpec::choice("pass", &["left", "none"], "left", ""),
    ];

    #[test]
    fn defaults_and_values() {
        let o = Options::parse(SPECS, &["size=5", "jumps=off"]).unwrap();
        assert_eq!(o.int("size"), Some(5));
        assert!(!o.flag("jumps"));
        assert_eq!(o.text("pass"), "left");
        assert!(o.is_set("size") && !o.is_set("pass"));
    }

    #[test]
    fn refusals_name_what_is_accepted() {
        let e = Options::parse(SPECS, &["colour=red"]).unwrap_err();
        assert!(e.to_string().contains("size=<3..11>"), "{e}");
        let e = Options::parse(SPECS, &["size=12"]).unwrap_err();
        assert!(e.to_string().contains("from 3 to 11"), "{e}");
        assert!(matches!(
            Options::parse(SPECS, &["size"]),
            Err(OptionError::Malformed(_))
        ));
        assert!(Options::parse(SPECS, &["pass=right"]).is_err());
        assert!(Options::parse(SPECS, &["jumps=maybe"]).is_err());
    }
}
