//! The `info` lines of an analysis (`analyze`, and `genmove multipv=N`):
//! the same fields as text (`info key value ...`, as GTP engines print
//! analysis) or as one JSON object a line (`set output json`), written by
//! serde from the one list of fields that the text shows too.

use std::fmt::Write as _;

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::control::{Progress, RootLine, ScoreKind};
use crate::engine::Decision;
use crate::json::Fixed;
use crate::protocol::command::OutputFormat;

/// One field's value.
enum Value<'a> {
    Count(u64),
    /// A value in `[0, 1]`, shown to four decimals.
    Score(f64),
    /// A margin, shown with its sign in text (`+4`), as a number in JSON.
    Margin(i32),
    Text(&'a str),
    Moves(&'a [String]),
}

/// A score as the `score` field shows it: the value in `[0, 1]` for the
/// mover (a win chance; `1/2 + e/2` of an evaluation `e`; 1, 1/2 or 0 of
/// a solved position, whose margin is the `exact` field); none where no
/// value is known.
fn known<'a>(kind: ScoreKind, score: f64) -> Option<Value<'a>> {
    (kind != ScoreKind::None).then_some(Value::Score(score))
}

/// The `exact` field: a solved margin; a proven line's margin
/// ([`ScoreKind::Proven`]) is no exact value, and is not shown (its score
/// 1 or 0 says won or lost).
fn exact<'a>(kind: ScoreKind, exact: Option<i32>) -> Option<Value<'a>> {
    exact
        .filter(|_| kind != ScoreKind::Proven)
        .map(Value::Margin)
}

/// An `info` line: its fields in order.
#[derive(Default)]
pub struct Info<'a> {
    fields: Vec<(&'static str, Value<'a>)>,
}

impl<'a> Info<'a> {
    fn with(mut self, key: &'static str, value: Value<'a>) -> Info<'a> {
        self.fields.push((key, value));
        self
    }

    fn with_some(self, key: &'static str, value: Option<Value<'a>>) -> Info<'a> {
        match value {
            Some(v) => self.with(key, v),
            None => self,
        }
    }

    /// The fields every report of a move starts with, after `self`'s:
    /// `move M score V iterations N depth D`.
    fn searched(
        self,
        mv: &'a str,
        kind: ScoreKind,
        score: f64,
        iterations: u64,
        depth: u32,
    ) -> Info<'a> {
        self.with("move", Value::Text(mv))
            .with_some("score", known(kind, score))
            .with("iterations", Value::Count(iterations))
            .with("depth", Value::Count(u64::from(depth)))
    }

    /// A progress report's best move:
    /// `info move M score V iterations N depth D time MS pv ...`.
    pub fn progress(p: &'a Progress) -> Info<'a> {
        Info::default()
            .searched(&p.best, p.kind, p.score, p.iterations, p.depth)
            .with("time", Value::Count(millis(p.elapsed)))
            .with("pv", Value::Moves(&p.pv))
    }

    /// The final answer: `info move M score V iterations N depth D
    /// [exact E]`.
    pub fn decision(d: &'a Decision) -> Info<'a> {
        Info::default()
            .searched(&d.mv, d.kind, d.score, d.iterations, d.depth)
            .with_some("exact", exact(d.kind, d.exact))
    }

    /// One line of a MultiPV report, `k` from 1 (the best): `info multipv K
    /// move M score V iterations N depth D time MS [visits N] [exact E] pv ...`.
    pub fn line(k: usize, line: &'a RootLine, iterations: u64, depth: u32, ms: u64) -> Info<'a> {
        Info::default()
            .with("multipv", Value::Count(k as u64))
            .searched(&line.mv, line.kind, line.score, iterations, depth)
            .with("time", Value::Count(ms))
            .with_some("visits", line.visits.map(Value::Count))
            .with_some("exact", exact(line.kind, line.exact))
            .with("pv", Value::Moves(&line.pv))
    }

    /// `info error MESSAGE`: the analysis failed.
    pub fn error(message: &'a str) -> Info<'a> {
        Info::default().with("error", Value::Text(message))
    }

    /// The line, with its newline.
    pub fn render(&self, format: OutputFormat) -> String {
        match format {
            OutputFormat::Text => self.text(),
            OutputFormat::Json => self.json(),
        }
    }

    fn text(&self) -> String {
        let mut s = String::from("info");
        for (key, value) in &self.fields {
            let _ = match value {
                Value::Count(n) => write!(s, " {key} {n}"),
                Value::Score(v) => write!(s, " {key} {v:.4}"),
                Value::Margin(m) => write!(s, " {key} {m:+}"),
                Value::Text(t) => write!(s, " {key} {t}"),
                Value::Moves(moves) => write!(s, " {key} {}", moves.join(" ")),
            };
        }
        s.push('\n');
        s
    }

    fn json(&self) -> String {
        let mut line = crate::json::to_string(self);
        line.push('\n');
        line
    }
}

/// A line's JSON: `{"type":"info"}` then its fields in order. The fields
/// differ by the kind of line and are shared with the text form, so the
/// object is written from the list rather than derived from a struct per
/// kind.
impl Serialize for Info<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.fields.len() + 1))?;
        map.serialize_entry("type", "info")?;
        for (key, value) in &self.fields {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Serialize for Value<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            Value::Count(n) => serializer.serialize_u64(n),
            // Four decimals as the text shows it; `null` if not finite.
            Value::Score(v) => Fixed {
                value: v,
                decimals: 4,
            }
            .serialize(serializer),
            Value::Margin(m) => serializer.serialize_i32(m),
            Value::Text(t) => serializer.serialize_str(t),
            Value::Moves(moves) => moves.serialize(serializer),
        }
    }
}

/// The lines of a MultiPV report: the progress's lines, or, from a search
/// that reports none, its best move as the one line.
pub fn progress_lines(p: &Progress) -> Vec<RootLine> {
    if p.lines.is_empty() {
        vec![RootLine {
            mv: p.best.clone(),
            score: p.score,
            kind: p.kind,
            exact: p.exact,
            pv: p.pv.clone(),
            ..RootLine::default()
        }]
    } else {
        p.lines.clone()
    }
}

/// The lines of a decision: the search's, or, where it had none (a forced
/// move, a search without statistics per move), the move played as the
/// one line.
pub fn decision_lines(d: &Decision) -> Vec<RootLine> {
    if d.lines.is_empty() {
        vec![RootLine {
            mv: d.mv.clone(),
            score: d.score,
            kind: d.kind,
            exact: d.exact,
            pv: vec![d.mv.clone()],
            ..RootLine::default()
        }]
    } else {
        d.lines.clone()
    }
}

/// Renders MultiPV lines, numbered from 1.
pub fn render_lines(
    lines: &[RootLine],
    iterations: u64,
    depth: u32,
    ms: u64,
    format: OutputFormat,
) -> String {
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| Info::line(i + 1, l, iterations, depth, ms).render(format))
        .collect()
}

/// Whole milliseconds, as the `time` field shows them.
pub fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn text_lines_are_the_protocol_s_lines() {
        let p = Progress {
            iterations: 16384,
            depth: 9,
            elapsed: Duration::from_millis(101),
            best: "d3".into(),
            score: 0.50213,
            kind: crate::control::ScoreKind::WinChance,
            exact: None,
            pv: vec!["d3".into(), "c5".into()],
            lines: Vec::new(),
            ..Progress::default()
        };
        assert_eq!(
            Info::progress(&p).render(OutputFormat::Text),
            "info move d3 score 0.5021 iterations 16384 depth 9 time 101 pv d3 c5\n"
        );
        let line = RootLine {
            mv: "c4".into(),
            score: 1.0,
            kind: ScoreKind::Exact,
            visits: Some(7),
            exact: Some(-2),
            pv: vec!["c4".into()],
        };
        assert_eq!(
            Info::line(2, &line, 10, 3, 5).render(OutputFormat::Text),
            "info multipv 2 move c4 score 1.0000 iterations 10 depth 3 time 5 visits 7 exact -2 pv c4\n"
        );
        assert_eq!(
            Info::line(2, &line, 10, 3, 5).render(OutputFormat::Json),
            "{\"type\":\"info\",\"multipv\":2,\"move\":\"c4\",\"score\":1.0000,\"iterations\":10,\
             \"depth\":3,\"time\":5,\"visits\":7,\"exact\":-2,\"pv\":[\"c4\"]}\n"
        );
    }

    #[test]
    fn json_strings_are_escaped() {
        let message = "bad \"x\" \\ \n\u{1}";
        assert_eq!(
            Info::error(message).render(OutputFormat::Json),
            "{\"type\":\"info\",\"error\":\"bad \\\"x\\\" \\\\ \\n\\u0001\"}\n"
        );
        let mut p = Progress {
            score: f64::NAN,
            kind: ScoreKind::WinChance,
            ..Progress::default()
        };
        p.pv.clear();
        assert!(
            Info::progress(&p)
                .render(OutputFormat::Json)
                .contains("\"score\":null")
        );
        assert!(
            Info::progress(&p)
                .render(OutputFormat::Json)
                .contains("\"pv\":[]")
        );
    }

    /// The analysis JSON as `set output json` printed it before serde:
    /// every kind of line, a score at four decimals (`1.0000`), a NaN
    /// score as `null`, a solved margin, escapes.
    #[test]
    fn analysis_json_keeps_its_bytes() {
        let progress = Progress {
            iterations: 16384,
            depth: 9,
            elapsed: Duration::from_millis(101),
            best: "d3".into(),
            score: 0.50213,
            kind: ScoreKind::WinChance,
            exact: None,
            pv: vec!["d3".into(), "c5".into()],
            lines: Vec::new(),
            ..Progress::default()
        };
        let unknown = Progress {
            score: f64::NAN,
            kind: ScoreKind::WinChance,
            ..Progress::default()
        };
        let decision = Decision {
            mv: "a1".into(),
            score: 1.0,
            kind: ScoreKind::Exact,
            iterations: 7,
            depth: 60,
            exact: Some(12),
            lines: Vec::new(),
        };
        let line = RootLine {
            mv: "c4".into(),
            score: 0.0,
            kind: ScoreKind::Eval,
            visits: Some(7),
            exact: None,
            pv: vec!["c4".into(), "e3".into()],
        };
        let json = [
            Info::progress(&progress).render(OutputFormat::Json),
            Info::progress(&unknown).render(OutputFormat::Json),
            Info::decision(&decision).render(OutputFormat::Json),
            render_lines(&[line], 10, 3, 5, OutputFormat::Json),
            Info::error("a <b> \"c\" \u{8}\u{c}\t\u{1f} \u{e9}").render(OutputFormat::Json),
        ]
        .concat();
        crate::json::assert_pinned("analysis", &json);
    }
}
