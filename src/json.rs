//! A small JSON writer, the one every JSON output uses: the GUI's page
//! messages, the analysis lines of `set output json`, the match runner's
//! JSON-lines export. Nothing here reads JSON.

use std::fmt::Write as _;

/// A JSON string literal of `text`.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // `<` escaped too, so that no text can close a script block.
            c if (c as u32) < 0x20 || c == '<' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON array of already written values.
pub fn array<I: IntoIterator<Item = String>>(items: I) -> String {
    let items: Vec<String> = items.into_iter().collect();
    format!("[{}]", items.join(","))
}

/// A JSON array of strings.
pub fn strings<I: IntoIterator<Item = S>, S: AsRef<str>>(items: I) -> String {
    array(items.into_iter().map(|s| string(s.as_ref())))
}

/// A JSON array of numbers (or anything that prints as one).
pub fn numbers<I: IntoIterator<Item = N>, N: std::fmt::Display>(items: I) -> String {
    array(items.into_iter().map(|n| n.to_string()))
}

/// A JSON object built field by field; values are already written JSON.
#[derive(Default)]
pub struct Object {
    fields: Vec<String>,
}

impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object::default()
    }

    /// Adds a field whose value is already JSON.
    pub fn raw(mut self, key: &str, value: String) -> Object {
        self.fields.push(format!("{}:{value}", string(key)));
        self
    }

    /// Adds a string field.
    pub fn str(self, key: &str, value: &str) -> Object {
        self.raw(key, string(value))
    }

    /// Adds a number or boolean field.
    pub fn num<N: std::fmt::Display>(self, key: &str, value: N) -> Object {
        self.raw(key, value.to_string())
    }

    /// Adds an optional field: `null` when absent.
    pub fn opt(self, key: &str, value: Option<String>) -> Object {
        self.raw(key, value.unwrap_or_else(|| "null".to_string()))
    }

    /// The object's text.
    pub fn end(self) -> String {
        format!("{{{}}}", self.fields.join(","))
    }
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

    #[test]
    fn escapes_what_json_and_html_need() {
        assert_eq!(
            string("a\"b\\c\n</script>"),
            "\"a\\\"b\\\\c\\n\\u003c/script>\""
        );
        let o = Object::new()
            .str("k", "v")
            .num("n", 3)
            .opt("x", None)
            .raw("a", strings(["1", "2"]))
            .end();
        assert_eq!(o, r#"{"k":"v","n":3,"x":null,"a":["1","2"]}"#);
    }
}
