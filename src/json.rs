//! How tabula writes JSON: every message is a `serde::Serialize` type
//! (the GUI's replies and events, the analysis lines of `set output
//! json`, the match runner's JSON-lines export, the games' pictures for
//! the page), written by `serde_json` through [`to_string`]. What is here
//! keeps the bytes that tabula's JSON has always had: `<` written as
//! `\u003c` and backspace and form feed as `\u0008` and `\u000c`
//! ([`Escapes`]); results and scores as Rust prints them (`1`, `0.5`:
//! [`Plain`]); values at a fixed number of decimals (`0.5000`: [`Fixed`]);
//! objects whose keys are data in their given order ([`ordered_map`]).
//! Nothing in tabula reads JSON: the page sends query words and record
//! text.

use std::io;

use serde::ser::{Error as _, Serialize, Serializer};
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};
use serde_json::value::RawValue;

/// serde_json's compact writer with tabula's escapes: `<` as `\u003c`, so
/// that no text can close a script block it is pasted into, and
/// backspace and form feed as `\u0008` and `\u000c` as every other
/// control character.
struct Escapes;

impl Formatter for Escapes {
    fn write_string_fragment<W>(&mut self, writer: &mut W, fragment: &str) -> io::Result<()>
    where
        W: ?Sized + io::Write,
    {
        let mut pieces = fragment.split('<');
        if let Some(first) = pieces.next() {
            writer.write_all(first.as_bytes())?;
        }
        for piece in pieces {
            writer.write_all(b"\\u003c")?;
            writer.write_all(piece.as_bytes())?;
        }
        Ok(())
    }

    fn write_char_escape<W>(&mut self, writer: &mut W, escape: CharEscape) -> io::Result<()>
    where
        W: ?Sized + io::Write,
    {
        match escape {
            CharEscape::Backspace => writer.write_all(b"\\u0008"),
            CharEscape::FormFeed => writer.write_all(b"\\u000c"),
            other => CompactFormatter.write_char_escape(writer, other),
        }
    }
}

/// Why a message could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write JSON: {0}")]
pub struct JsonError(String);

/// `value` as JSON text, or why not: serde_json fails only on a map key
/// that is not a string and on a `Serialize` impl's own error, and the
/// messages here have neither (their numbers come from [`Plain`] and
/// [`Fixed`], which write valid numbers or `null`).
pub fn try_to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, JsonError> {
    let mut out = Vec::with_capacity(128);
    value
        .serialize(&mut serde_json::Serializer::with_formatter(
            &mut out, Escapes,
        ))
        .map_err(|e| JsonError(e.to_string()))?;
    String::from_utf8(out).map_err(|e| JsonError(e.to_string()))
}

/// The reply in place of a message that could not be written (which
/// [`try_to_string`] says does not happen): `{"error": why}`, so that a
/// client still reads JSON, and the log says why.
#[derive(serde::Serialize)]
struct Unwritten {
    error: String,
}

/// `value` as JSON text; where it cannot be written (see
/// [`try_to_string`]), an `{"error": ...}` object, logged.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> String {
    try_to_string(value).unwrap_or_else(|e| {
        log::error!("{e}");
        try_to_string(&Unwritten {
            error: e.to_string(),
        })
        .unwrap_or_default()
    })
}

/// `value` written once, to be carried inside other messages as it is
/// (the page's view, in its state events and in each step of a replay);
/// where it cannot be written, `null`, logged.
pub fn raw<T: Serialize + ?Sized>(value: &T) -> Box<RawValue> {
    try_to_string(value)
        .and_then(|text| RawValue::from_string(text).map_err(|e| JsonError(e.to_string())))
        .unwrap_or_else(|e| {
            log::error!("{e}");
            RawValue::NULL.to_owned()
        })
}

/// A number as Rust prints it (`1`, `0.5`, never an exponent), `null`
/// when not finite: the form of the results and scores in the export
/// and the page's events (serde_json would write `1.0`).
#[derive(Clone, Copy, Debug)]
pub struct Plain(pub f64);

impl Plain {
    /// Each of `values`.
    pub fn all(values: &[f64]) -> Vec<Plain> {
        values.iter().copied().map(Plain).collect()
    }
}

impl Serialize for Plain {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        number(self.0, || self.0.to_string(), serializer)
    }
}

/// A number at a fixed number of decimals (`0.5021`, `1.0000`), `null`
/// when not finite: an analysis score, a margin.
#[derive(Clone, Copy, Debug)]
pub struct Fixed {
    /// The value.
    pub value: f64,
    /// Its decimals.
    pub decimals: usize,
}

impl Serialize for Fixed {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        number(
            self.value,
            || format!("{:.*}", self.decimals, self.value),
            serializer,
        )
    }
}

/// Writes `text`, the number `value` printed, as it is; `null` where
/// `value` is not finite (JSON has no NaN or infinity).
fn number<S: Serializer>(
    value: f64,
    text: impl FnOnce() -> String,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    if !value.is_finite() {
        return serializer.serialize_none();
    }
    RawValue::from_string(text())
        .map_err(S::Error::custom)?
        .serialize(serializer)
}

/// Writes `(key, value)` pairs as one object, keys in the given order
/// (for `#[serde(serialize_with)]`): objects whose keys are data (a
/// move's refusal by move, the searches by game).
pub fn ordered_map<S, K, V>(pairs: &[(K, V)], serializer: S) -> Result<S::Ok, S::Error>
where
    S: Serializer,
    K: Serialize,
    V: Serialize,
{
    serializer.collect_map(pairs.iter().map(|(k, v)| (k, v)))
}

/// Test support: `actual` must equal the bytes pinned in
/// `tests/pins/NAME.json` (written from the JSON tabula printed before its
/// writer moved to serde). A mismatch leaves the actual bytes in the
/// system's temporary folder, `tabula-pins/NAME.json`, to compare.
#[cfg(test)]
pub(crate) fn assert_pinned(name: &str, actual: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/pins")
        .join(format!("{name}.json"));
    let pinned = std::fs::read_to_string(&path).unwrap_or_default();
    if pinned != actual {
        let dir = std::env::temp_dir().join("tabula-pins");
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(dir.join(format!("{name}.json")), actual);
        panic!(
            "{name}: the JSON differs from {} (actual bytes in {})",
            path.display(),
            dir.display()
        );
    }
}

/// Test support: a record of two short Othello games whose names,
/// ending and results show every escape and number form the exports and
/// the page's replies write (a forfeit whose detail holds quotes, `<` and
/// a tab; a drawn game's halves).
#[cfg(test)]
pub(crate) const PIN_RECORD: &str = "# tabula-match 2
# match game=othello options=\"\" seed=7 seats=black,white
# settings games=2 table=alternate random-plies=0 max-moves=2000 timemargin=1000 timeout=60 game-seeds=on openings=none adjudicate=none tc-scale=none
# engine index=0 name=a<b proto=tabula cmd=x
# engine index=1 name=c/d proto=tabula cmd=y

# game number=1 pairing=a<b,c/d deal=0 seats=a<b,c/d ending=forfeit culprit=c/d fault=illegal detail=\"played \\\"z9\\\" <here>\\tthere\" winners=0 results=1,0 plies=2 ms=15 lines=3
game othello
play black d3
play white c5

# game number=2 pairing=a<b,c/d deal=0 seats=c/d,a<b ending=normal scores=32,32 winners=\"\" results=0.5,0.5 plies=1 ms=9 lines=2
game othello
play black f5

";

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize)]
    struct Sample<'a> {
        k: &'a str,
        n: u32,
        x: Option<u32>,
        a: [&'a str; 2],
        half: Plain,
        whole: Plain,
        nan: Plain,
        score: Fixed,
        #[serde(serialize_with = "ordered_map")]
        by: Vec<(&'a str, u32)>,
    }

    #[test]
    fn escapes_and_numbers_are_tabula_s() {
        assert_eq!(
            to_string("a\"b\\c\n</script>\u{8}\u{c}\u{1}"),
            "\"a\\\"b\\\\c\\n\\u003c/script>\\u0008\\u000c\\u0001\""
        );
        let sample = Sample {
            k: "v",
            n: 3,
            x: None,
            a: ["1", "2"],
            half: Plain(0.5),
            whole: Plain(1.0),
            nan: Plain(f64::NAN),
            score: Fixed {
                value: 1.0,
                decimals: 4,
            },
            by: vec![("z", 1), ("a", 2)],
        };
        assert_eq!(
            to_string(&sample),
            r#"{"k":"v","n":3,"x":null,"a":["1","2"],"half":0.5,"whole":1,"nan":null,"score":1.0000,"by":{"z":1,"a":2}}"#
        );
        assert_eq!(raw(&sample).get(), to_string(&sample));
    }

    /// A message that fails to write is still JSON, saying why.
    #[test]
    fn a_message_that_cannot_be_written_says_why() {
        struct Failing;
        impl Serialize for Failing {
            fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
                Err(S::Error::custom("no"))
            }
        }
        assert!(try_to_string(&Failing).is_err());
        assert_eq!(to_string(&Failing), r#"{"error":"cannot write JSON: no"}"#);
        assert_eq!(raw(&Failing).get(), "null");
    }
}
