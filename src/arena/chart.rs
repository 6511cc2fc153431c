//! The chart of a match, as a self-contained SVG: one row per pairing,
//! a bar split into wins, draws and losses of the first engine, its score
//! with the 95% interval as a whisker, and the report's numbers written
//! beside it.

use std::fmt::Write as _;

use super::record::MatchRecord;
use super::report::Summary;
use super::stats::fmt_estimate;

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
    let rows = summary.pairings.len().max(1);
    let height = TOP + ROW * rows as f64 + 50.0;
    let x_of = |fraction: f64| LEFT + BAR * fraction.clamp(0.0, 1.0);
    let name = |i: usize| {
        summary
            .engines
            .get(i)
            .map_or("?".to_string(), |e| e.name.clone())
    };
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
    // The axis: 0%, 50% and 100%, the middle one dashed across all rows.
    let bottom = TOP + ROW * rows as f64;
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
    for (row, p) in summary.pairings.iter().enumerate() {
        let y = TOP + ROW * row as f64;
        let n = p.wdl.games();
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" text-anchor="end" font-weight="bold">{} vs {}</text>"##,
            LEFT - 10.0,
            y + 20.0,
            esc(&name(p.first)),
            esc(&name(p.second))
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
    if summary.pairings.is_empty() {
        let _ = writeln!(
            s,
            r##"<text x="{LEFT}" y="{}">no games</text>"##,
            TOP + 20.0
        );
    }
    s.push_str("</svg>\n");
    s
}
