//! The output room: what a match leaves behind (every path it writes is
//! checked and written whole by `crate::files::output`): [`report`] (the
//! text report), [`match_report`] (what a run returns, published), [`chart`]
//! (SVG), [`live`] (the chart kept up to date while a match runs),
//! [`record_writer`] (the record file of a running match, written game by
//! game, and a merged record written whole) and [`export`] (the games in formats other programs read).

pub mod chart;
pub mod export;
pub mod live;
pub mod match_report;
pub mod record_writer;
pub mod report;
