//! The text codec of a record's `key=value` lines: the one way to write
//! a value (or a key, or a list of names) so that it reads back exactly,
//! whatever it holds: spaces, quotes, `=`, commas, backslashes, line
//! breaks, control characters, any non-ASCII text.
//!
//! - A value is written bare when it is not empty and holds no
//!   whitespace, `"`, `\`, `=` or control character; otherwise it is
//!   double-quoted, with `\"`, `\\`, `\n`, `\r`, `\t` and `\u{HEX}` (any
//!   other control character) escapes ([`write_value`]).
//! - A key is written the same way ([`write_key`]), so a setting named
//!   `my key` survives too.
//! - A list (seat names, a pairing) joins its items with commas; inside an
//!   item `\` is written `\\`, a comma `\,`, and a space at either end
//!   `\ `; the list is then written as one value ([`write_list`]).
//!   [`read_list`] splits on the commas that are not escaped and trims
//!   whitespace that is not.
//!
//! Records written before this codec still read: their values used the
//! same quoting (without `\r`, `\t` and `\u{...}`, which they never
//! wrote), and a backslash in a list item that is not one of the escapes
//! above is kept as it is. Only an old item that held `\\`, `\,` or
//! `\ ` reads differently.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Whether a word must be quoted to read back as written.
fn needs_quotes(word: &str) -> bool {
    word.is_empty()
        || word
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "\"\\=".contains(c))
}

/// Writes a value of a `key=value` pair so that it reads back exactly
/// (bare, or double-quoted with escapes: see the module's text).
pub fn write_value(value: &str) -> String {
    if !needs_quotes(value) {
        return value.to_string();
    }
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Writes a key of a `key=value` pair so that it reads back exactly (as
/// [`write_value`] does; a plain key is written bare).
pub fn write_key(key: &str) -> String {
    write_value(key)
}

/// Writes one `key=value` pair (no leading space).
pub fn write_pair(key: &str, value: &str) -> String {
    format!("{}={}", write_key(key), write_value(value))
}

/// Writes `key=value` pairs as words of a header line: ` k=v k2="v 2"`.
pub fn write_pairs(pairs: &[(String, String)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!(" {}", write_pair(k, v)))
        .collect()
}

/// Writes a list of items (names) as one value: commas between items,
/// each item's backslashes, commas and end spaces escaped, the whole then
/// written by [`write_value`].
pub fn write_list<S: AsRef<str>>(items: &[S]) -> String {
    let mut joined = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            joined.push(',');
        }
        let item = item.as_ref();
        let last = item.chars().count().saturating_sub(1);
        for (j, c) in item.chars().enumerate() {
            match c {
                '\\' => joined.push_str("\\\\"),
                ',' => joined.push_str("\\,"),
                c if c.is_whitespace() && (j == 0 || j == last) => {
                    joined.push('\\');
                    joined.push(c);
                }
                c => joined.push(c),
            }
        }
    }
    write_value(&joined)
}

/// Reads a list written by [`write_list`] (a value already read by
/// [`read_pairs`]): the items between unescaped commas, unescaped
/// whitespace at their ends trimmed, empty items dropped.
pub fn read_list(value: &str) -> Vec<String> {
    // Without a backslash nothing is escaped: the items are the text
    // between commas, trimmed (a record's every game line has four
    // lists, read so without a character-by-character pass).
    if !value.contains('\\') {
        return value
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .map(str::to_string)
            .collect();
    }
    let mut items = Vec::new();
    // Each character, and whether it was escaped (kept even if a space).
    let mut item: Vec<(char, bool)> = Vec::new();
    let finish = |item: &mut Vec<(char, bool)>, items: &mut Vec<String>| {
        let start = item
            .iter()
            .position(|&(c, esc)| esc || !c.is_whitespace())
            .unwrap_or(item.len());
        let end = item
            .iter()
            .rposition(|&(c, esc)| esc || !c.is_whitespace())
            .map_or(start, |i| i + 1);
        let text: String = item[start..end.max(start)]
            .iter()
            .map(|&(c, _)| c)
            .collect();
        if !text.is_empty() {
            items.push(text);
        }
        item.clear();
    };
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ',' => finish(&mut item, &mut items),
            '\\' => match chars.peek().copied() {
                Some(e) if e == '\\' || e == ',' || e.is_whitespace() => {
                    chars.next();
                    item.push((e, true));
                }
                // Not an escape (an older record's backslash): kept.
                _ => item.push(('\\', false)),
            },
            c => item.push((c, false)),
        }
    }
    finish(&mut item, &mut items);
    items
}

/// Why a line's `key=value` words could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodecError(pub String);

impl std::fmt::Display for CodecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CodecError {}

/// Reads a quoted word after its opening `"`, up to its closing one;
/// `chars` is left after it.
fn read_quoted(
    chars: &mut std::str::Chars<'_>,
    what: &dyn Fn() -> String,
) -> Result<String, CodecError> {
    let unclosed = || CodecError(format!("unclosed quote in {}", what()));
    let mut out = String::new();
    loop {
        match chars.next().ok_or_else(unclosed)? {
            '"' => return Ok(out),
            '\\' => match chars.next().ok_or_else(unclosed)? {
                'n' => out.push('\n'),
                'r' => out.push('\r'),
                't' => out.push('\t'),
                'u' if chars.as_str().starts_with('{') => {
                    chars.next();
                    let mut hex = String::new();
                    loop {
                        match chars.next().ok_or_else(unclosed)? {
                            '}' => break,
                            h if h.is_ascii_hexdigit() && hex.len() < 6 => hex.push(h),
                            _ => {
                                return Err(CodecError(format!(
                                    "bad \\u{{...}} escape in {}",
                                    what()
                                )));
                            }
                        }
                    }
                    let c = u32::from_str_radix(&hex, 16)
                        .ok()
                        .and_then(char::from_u32)
                        .ok_or_else(|| {
                            CodecError(format!("bad \\u{{{hex}}} escape in {}", what()))
                        })?;
                    out.push(c);
                }
                c => out.push(c),
            },
            c => out.push(c),
        }
    }
}

/// The word at the start of `text`: quoted (unescaped into a string of
/// its own), or bare up to `stop` (borrowed); and the text after it.
fn read_word<'t>(
    text: &'t str,
    what: &dyn Fn() -> String,
    stop: impl Fn(char) -> bool,
) -> Result<(Cow<'t, str>, &'t str), CodecError> {
    match text.strip_prefix('"') {
        Some(quoted) => {
            let mut chars = quoted.chars();
            let word = read_quoted(&mut chars, what)?;
            Ok((Cow::Owned(word), chars.as_str()))
        }
        None => {
            let end = text.find(stop).unwrap_or(text.len());
            Ok((Cow::Borrowed(&text[..end]), &text[end..]))
        }
    }
}

/// A `key=value` pair as [`read_pairs_in`] reads it: each word borrowed
/// from the line, or unescaped into a string of its own.
pub type Pair<'t> = (Cow<'t, str>, Cow<'t, str>);

/// Splits `key=value key="quoted value" "a key"=v` into pairs (see the
/// module's text for the quoting).
pub fn read_pairs(text: &str) -> Result<Vec<(String, String)>, CodecError> {
    Ok(read_pairs_in(text)?
        .into_iter()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect())
}

/// A header line's `key=value` fields by key, each key given once; a
/// missing key reads as empty.
pub struct Fields<'a>(BTreeMap<&'a str, &'a str>);

impl<'a> Fields<'a> {
    /// The fields of `pairs` (as [`read_pairs_in`] reads them); `Err`
    /// with the key given twice, where one is.
    pub fn of(pairs: &'a [Pair<'_>]) -> Result<Fields<'a>, &'a str> {
        let mut fields = BTreeMap::new();
        for (k, v) in pairs {
            if fields.insert(k.as_ref(), v.as_ref()).is_some() {
                return Err(k.as_ref());
            }
        }
        Ok(Fields(fields))
    }

    /// The value of `key`: empty where it is missing.
    pub fn get(&self, key: &str) -> &'a str {
        self.find(key).unwrap_or("")
    }

    /// The value of `key`, if the line gives it.
    pub fn find(&self, key: &str) -> Option<&'a str> {
        self.0.get(key).copied()
    }
}

/// [`read_pairs`], a bare key or value borrowed from `text` (a quoted
/// one is unescaped into a string of its own): a record's game lines are
/// read without a string a word.
pub fn read_pairs_in(text: &str) -> Result<Vec<Pair<'_>>, CodecError> {
    let mut pairs = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Ok(pairs);
        }
        let (key, after) = read_word(rest, &|| "a key".to_string(), |c: char| {
            c == '=' || c.is_whitespace()
        })?;
        let Some(after) = after.strip_prefix('=') else {
            return Err(CodecError(format!("'{key}' is not key=value")));
        };
        let (value, after) = read_word(
            after,
            &|| format!("the value of '{key}'"),
            char::is_whitespace,
        )?;
        rest = after;
        pairs.push((key, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_read_each_key_once_and_a_missing_one_as_empty() {
        let pairs = read_pairs_in(r#"game=othello "a key"="x y" empty="#).expect("pairs");
        let fields = Fields::of(&pairs).expect("no key twice");
        assert_eq!(fields.get("game"), "othello");
        assert_eq!(fields.get("a key"), "x y");
        assert_eq!(fields.find("empty"), Some(""));
        assert_eq!(fields.find("missing"), None);
        assert_eq!(fields.get("missing"), "");
        let twice = read_pairs_in("a=1 b=2 a=3").expect("pairs");
        assert_eq!(Fields::of(&twice).err(), Some("a"));
    }

    const NAMES: [&str; 12] = [
        "plain",
        "",
        "two words",
        "a \"q\" \\ b",
        "x=y",
        "l1\nl2\r\n",
        "a,b",
        " lead and trail ",
        "\\,\\",
        "élève 名前 ✓",
        "tab\there\u{1}\u{7f}",
        "\\u{41}",
    ];

    #[test]
    fn values_and_keys_round_trip() {
        for v in NAMES {
            let text = format!("{} z=1", write_pair(v, v));
            let pairs = read_pairs(&text).expect(v);
            assert_eq!(
                pairs,
                vec![
                    (v.to_string(), v.to_string()),
                    ("z".to_string(), "1".to_string())
                ],
                "{text}"
            );
            assert!(!write_value(v).contains('\n'), "{v:?}");
        }
        assert!(read_pairs("k=\"open").is_err());
        assert!(read_pairs("novalue").is_err());
        assert!(read_pairs("k=\"\\u{zz}\"").is_err());
    }

    #[test]
    fn lists_round_trip() {
        let items: Vec<&str> = NAMES
            .iter()
            .copied()
            .filter(|n| !n.trim().is_empty())
            .collect();
        let text = format!("seats={}", write_list(&items));
        let pairs = read_pairs(&text).unwrap();
        assert_eq!(read_list(&pairs[0].1), items, "{text}");
        assert_eq!(read_list("a,b"), ["a", "b"]);
    }

    #[test]
    fn old_lists_still_read() {
        // What records before this codec held.
        assert_eq!(read_list("uct,ab"), ["uct", "ab"]);
        assert_eq!(read_list(" a , b ,"), ["a", "b"]);
        assert_eq!(read_list("c:\\engines\\x,y"), ["c:\\engines\\x", "y"]);
        assert_eq!(read_list("0,1"), ["0", "1"]);
    }
}
