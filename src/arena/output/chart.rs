//! The chart of a match, as a self-contained SVG: one row per pairing,
//! a bar split into wins, draws and losses of the first engine, its score
//! with the 95% interval as a whisker, and the report's numbers written
//! beside it; for two engines, the Elo curve over the games with its 95%
//! band, and the SPRT's LLR path between its bounds when an SPRT is on.
//!
//! Drawn by hand rather than with a plotting crate: the chart is a few
//! dozen rectangles, lines and labels whose places are all known, the
//! output is small, byte-for-byte deterministic (so a merged match draws
//! the very same file as the whole one, and tests read it as text), and it
//! costs the build nothing.

use std::fmt::Write as _;

use crate::arena::output::report::{PairingStats, Summary};
use crate::arena::record::match_file::MatchRecord;
use crate::arena::stats::elo::fmt_estimate;

const WIDTH: f64 = 860.0;
const LEFT: f64 = 200.0;
const BAR: f64 = 400.0;
const ROW: f64 = 64.0;
const TOP: f64 = 70.0;

/// Escapes text for SVG.
fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The SVG document for a match.
pub fn svg(rec: &MatchRecord, summary: &Summary) -> String {
    svg_with(rec, summary, false)
}

/// Height of the Elo panel and of the LLR panel.
const PANEL: f64 = 180.0;

/// The SVG document for a match; `live` adds a script that reloads it
/// every few seconds in a browser (`--live`).
pub fn svg_with(rec: &MatchRecord, summary: &Summary, live: bool) -> String {
    let rows = summary.pairings.len().max(1);
    let bars_end = TOP + ROW * rows as f64 + 50.0;
    let curve = summary.curve.len() >= 2;
    let llr = curve && summary.sprt.is_some();
    let height =
        bars_end + if curve { PANEL + 60.0 } else { 0.0 } + if llr { PANEL + 60.0 } else { 0.0 };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="13">"##
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="white"/>"##);
    let opts = if rec.options.is_empty() {
        String::new()
    } else {
        format!(" ({})", rec.options.join(" "))
    };
    let _ = writeln!(
        s,
        r##"<text x="20" y="28" font-size="17" font-weight="bold">{}{}: {} games</text>"##,
        esc(&rec.game),
        esc(&opts),
        summary.games
    );
    let _ = writeln!(
        s,
        r##"<text x="20" y="48" fill="#555">Score of the first engine per pairing: wins (green), draws (grey), losses (red); black mark = score with 95% interval</text>"##
    );
    score_axis(&mut s, TOP + ROW * rows as f64);
    for (row, p) in summary.pairings.iter().enumerate() {
        let name = |i: usize| summary.engines.get(i).map_or("?", |e| e.name.as_str());
        pairing_row(
            &mut s,
            TOP + ROW * row as f64,
            p,
            (name(p.first), name(p.second)),
        );
    }
    if summary.pairings.is_empty() {
        let _ = writeln!(
            s,
            r##"<text x="{LEFT}" y="{}">no games</text>"##,
            TOP + 20.0
        );
    }
    if curve {
        elo_panel(&mut s, summary, bars_end + 30.0);
    }
    if llr {
        llr_panel(&mut s, summary, bars_end + PANEL + 90.0);
    }
    if live {
        let _ = writeln!(
            s,
            r##"<script>setTimeout(function () {{ location.reload(); }}, 3000);</script>"##
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Where a score (a fraction from 0 to 1) lies on the bars.
fn x_of(fraction: f64) -> f64 {
    LEFT + BAR * fraction.clamp(0.0, 1.0)
}

/// The score axis (0%, 25% ... 100%, the middle one dashed) down to
/// `bottom`, across all rows.
fn score_axis(s: &mut String, bottom: f64) {
    for (f, label) in [
        (0.0, "0%"),
        (0.25, "25%"),
        (0.5, "50%"),
        (0.75, "75%"),
        (1.0, "100%"),
    ] {
        let x = x_of(f);
        let dash = if f == 0.5 {
            r##" stroke-dasharray="4 3""##
        } else {
            ""
        };
        let _ = writeln!(
            s,
            r##"<line x1="{x}" y1="{}" x2="{x}" y2="{bottom}" stroke="#999"{dash}/>"##,
            TOP - 6.0
        );
        let _ = writeln!(
            s,
            r##"<text x="{x}" y="{}" text-anchor="middle" fill="#555">{label}</text>"##,
            bottom + 18.0
        );
    }
}

/// One pairing's row, from `y` down: its name, the W-D-L bar with the
/// score and its interval (and parity, for an uneven table), its numbers.
fn pairing_row(s: &mut String, y: f64, p: &PairingStats, names: (&str, &str)) {
    let n = p.wdl.games();
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{}" text-anchor="end" font-weight="bold">{} vs {}</text>"##,
        LEFT - 10.0,
        y + 20.0,
        esc(names.0),
        esc(names.1)
    );
    if n > 0 {
        let (w, d) = (p.wdl.wins as f64 / n as f64, p.wdl.draws as f64 / n as f64);
        let parts = [
            (0.0, w, "#4caf50"),
            (w, w + d, "#bdbdbd"),
            (w + d, 1.0, "#e57373"),
        ];
        for (from, to, colour) in parts {
            if to > from {
                let _ = writeln!(
                    s,
                    r##"<rect x="{:.2}" y="{}" width="{:.2}" height="22" fill="{colour}"/>"##,
                    x_of(from),
                    y + 6.0,
                    x_of(to) - x_of(from)
                );
            }
        }
        let score = p.wdl.score();
        let (lo, hi) = p.elo.map_or((score, score), |e| e.score_interval);
        let mid = y + 17.0;
        if let Some(share) = p.parity {
            // Where equal engines would score, for an uneven table.
            let x = x_of(share);
            let _ = writeln!(
                s,
                r##"<line x1="{x:.2}" y1="{}" x2="{x:.2}" y2="{}" stroke="#1565c0" stroke-width="2" stroke-dasharray="3 2"/><text x="{x:.2}" y="{}" text-anchor="middle" font-size="11" fill="#1565c0">parity {:.0}%</text>"##,
                y + 2.0,
                y + 32.0,
                y,
                100.0 * share
            );
        }
        let _ = writeln!(
            s,
            r##"<line x1="{:.2}" y1="{mid}" x2="{:.2}" y2="{mid}" stroke="black" stroke-width="2"/>"##,
            x_of(lo),
            x_of(hi)
        );
        for x in [x_of(lo), x_of(hi)] {
            let _ = writeln!(
                s,
                r##"<line x1="{x:.2}" y1="{}" x2="{x:.2}" y2="{}" stroke="black" stroke-width="2"/>"##,
                mid - 6.0,
                mid + 6.0
            );
        }
        let _ = writeln!(
            s,
            r##"<circle cx="{:.2}" cy="{mid}" r="4" fill="black"/>"##,
            x_of(score)
        );
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}">{:.1}% [{:.1}%, {:.1}%]</text>"##,
            LEFT + BAR + 10.0,
            y + 14.0,
            100.0 * score,
            100.0 * lo,
            100.0 * hi
        );
    }
    let elo = p
        .elo
        .map_or("Elo -".to_string(), |e| format!("Elo {}", fmt_estimate(&e)));
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{}" fill="#333">W {} D {} L {} ({} games) · {elo} · LOS {:.1}%</text>"##,
        LEFT,
        y + 46.0,
        p.wdl.wins,
        p.wdl.draws,
        p.wdl.losses,
        n,
        100.0 * p.los
    );
}

/// Plot area of a panel whose top is `top`: x from games, y from a value
/// in `[lo, hi]`.
struct Panel {
    top: f64,
    games: f64,
    lo: f64,
    hi: f64,
}

const PLOT_LEFT: f64 = 80.0;
const PLOT_WIDTH: f64 = 700.0;

impl Panel {
    fn x(&self, games: u64) -> f64 {
        PLOT_LEFT + PLOT_WIDTH * games as f64 / self.games.max(1.0)
    }
    fn y(&self, v: f64) -> f64 {
        let f = ((v - self.lo) / (self.hi - self.lo).max(1e-9)).clamp(0.0, 1.0);
        self.top + PANEL * (1.0 - f)
    }
    /// The frame, a title, and horizontal grid lines at `ticks`.
    fn frame(&self, s: &mut String, title: &str, ticks: &[f64]) {
        let _ = writeln!(
            s,
            r##"<text x="20" y="{}" font-weight="bold">{}</text>"##,
            self.top - 10.0,
            esc(title)
        );
        let _ = writeln!(
            s,
            r##"<rect x="{PLOT_LEFT}" y="{}" width="{PLOT_WIDTH}" height="{PANEL}" fill="none" stroke="#999"/>"##,
            self.top
        );
        for &t in ticks {
            let y = self.y(t);
            let _ = writeln!(
                s,
                r##"<line x1="{PLOT_LEFT}" y1="{y:.2}" x2="{}" y2="{y:.2}" stroke="#ddd"/><text x="{}" y="{:.2}" text-anchor="end" fill="#555">{}</text>"##,
                PLOT_LEFT + PLOT_WIDTH,
                PLOT_LEFT - 6.0,
                y + 4.0,
                round_label(t)
            );
        }
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" text-anchor="end" fill="#555">{} games</text>"##,
            PLOT_LEFT + PLOT_WIDTH,
            self.top + PANEL + 18.0,
            self.games
        );
    }
}

fn round_label(v: f64) -> String {
    if v.abs() >= 10.0 || v == 0.0 {
        format!("{v:+.0}")
    } else {
        format!("{v:+.1}")
    }
}

/// Three or so round ticks between `lo` and `hi`, and 0 if it is inside.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = (hi - lo).max(1e-9);
    let raw = span / 4.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|&st| st >= raw)
        .unwrap_or(raw);
    let mut out = Vec::new();
    let mut t = (lo / step).ceil() * step;
    while t <= hi + 1e-9 && out.len() < 12 {
        out.push(if t.abs() < step * 1e-6 { 0.0 } else { t });
        t += step;
    }
    out
}

/// The Elo of the first engine over the games, with its 95% band.
fn elo_panel(s: &mut String, summary: &Summary, top: f64) {
    // The range: the Elo line itself and the last interval (the early
    // intervals are huge or infinite; the band is cut at the frame).
    const CAP: f64 = 800.0;
    let finite = |v: f64| {
        if v.is_finite() {
            v.clamp(-CAP, CAP)
        } else if v > 0.0 {
            CAP
        } else {
            -CAP
        }
    };
    let mut lo = 0.0f64;
    let mut hi = 0.0f64;
    for p in &summary.curve {
        if let Some(e) = p.elo {
            lo = lo.min(finite(e.elo));
            hi = hi.max(finite(e.elo));
        }
    }
    if let Some(e) = summary.curve.last().and_then(|p| p.elo) {
        lo = lo.min(finite(e.lower));
        hi = hi.max(finite(e.upper));
    }
    let pad = ((hi - lo) * 0.1).max(10.0);
    let (lo, hi) = (lo - pad, hi + pad);
    let games = summary.curve.last().map_or(1, |p| p.games) as f64;
    let panel = Panel { top, games, lo, hi };
    let names = |i: usize| summary.engines.get(i).map_or("?", |e| e.name.as_str());
    panel.frame(
        s,
        &format!(
            "Elo of {} against {} over the games (95% band)",
            names(0),
            names(1)
        ),
        &ticks(lo, hi),
    );
    let clamp = |v: f64| v.clamp(lo, hi);
    let points: Vec<(u64, f64, f64, f64)> = summary
        .curve
        .iter()
        .filter_map(|p| {
            p.elo
                .map(|e| (p.games, clamp(e.elo), clamp(e.lower), clamp(e.upper)))
        })
        .collect();
    let upper: Vec<String> = points
        .iter()
        .map(|&(g, _, _, u)| format!("{:.2},{:.2}", panel.x(g), panel.y(u)))
        .collect();
    let lower: Vec<String> = points
        .iter()
        .rev()
        .map(|&(g, _, l, _)| format!("{:.2},{:.2}", panel.x(g), panel.y(l)))
        .collect();
    let _ = writeln!(
        s,
        r##"<polygon points="{} {}" fill="#90caf9" fill-opacity="0.5"/>"##,
        upper.join(" "),
        lower.join(" ")
    );
    let line: Vec<String> = points
        .iter()
        .map(|&(g, e, _, _)| format!("{:.2},{:.2}", panel.x(g), panel.y(e)))
        .collect();
    let _ = writeln!(
        s,
        r##"<polyline points="{}" fill="none" stroke="#0d47a1" stroke-width="2"/>"##,
        line.join(" ")
    );
}

/// The SPRT's log-likelihood ratio over the games, between its bounds.
fn llr_panel(s: &mut String, summary: &Summary, top: f64) {
    let Some(sprt) = summary.sprt else {
        return;
    };
    let (lower, upper) = sprt.test.bounds();
    let values: Vec<(u64, f64)> = summary
        .curve
        .iter()
        .filter_map(|p| p.llr.map(|l| (p.games, l)))
        .collect();
    let lo = values.iter().map(|v| v.1).fold(lower, f64::min) - 0.2;
    let hi = values.iter().map(|v| v.1).fold(upper, f64::max) + 0.2;
    let games = summary.curve.last().map_or(1, |p| p.games) as f64;
    let panel = Panel { top, games, lo, hi };
    panel.frame(
        s,
        &format!(
            "SPRT log-likelihood ratio (elo0 {}, elo1 {}): {}",
            sprt.test.elo0, sprt.test.elo1, sprt.decision
        ),
        &[lower, 0.0, upper],
    );
    for (bound, colour) in [(lower, "#c62828"), (upper, "#2e7d32")] {
        let y = panel.y(bound);
        let _ = writeln!(
            s,
            r##"<line x1="{PLOT_LEFT}" y1="{y:.2}" x2="{}" y2="{y:.2}" stroke="{colour}" stroke-dasharray="6 3"/>"##,
            PLOT_LEFT + PLOT_WIDTH
        );
    }
    let line: Vec<String> = values
        .iter()
        .map(|&(g, l)| format!("{:.2},{:.2}", panel.x(g), panel.y(l)))
        .collect();
    let _ = writeln!(
        s,
        r##"<polyline points="{}" fill="none" stroke="black" stroke-width="2"/>"##,
        line.join(" ")
    );
}
