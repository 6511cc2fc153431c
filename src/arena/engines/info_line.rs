//! Reading an engine's `info` lines (protocol.md, "Analysis"): the
//! values the GUI's advisor shows and the scores the match runner's
//! adjudication counts.

/// One `info` line, as far as its readers need it.
#[derive(Clone, Debug, PartialEq)]
pub struct InfoLine {
    /// The candidate's rank, from 1 (plain `analyze`: 1).
    pub rank: usize,
    /// The move.
    pub mv: String,
    /// The mover's value in [0, 1].
    pub score: f64,
    /// Depth reached, where reported.
    pub depth: Option<u64>,
    /// Iterations, where reported.
    pub iterations: Option<u64>,
}

/// Reads an `info` line: `info [multipv K] move M score V [key value]...`.
pub fn parse_info(line: &str) -> Option<InfoLine> {
    let mut words = line.split_whitespace();
    if words.next()? != "info" {
        return None;
    }
    let mut info = InfoLine {
        rank: 1,
        mv: String::new(),
        score: f64::NAN,
        depth: None,
        iterations: None,
    };
    while let Some(key) = words.next() {
        if key == "pv" {
            break;
        }
        let value = words.next()?;
        match key {
            "multipv" => info.rank = value.parse().ok()?,
            "move" => info.mv = value.to_string(),
            "score" => info.score = value.parse().ok()?,
            "depth" => info.depth = value.parse().ok(),
            "iterations" => info.iterations = value.parse().ok(),
            _ => {}
        }
    }
    (!info.mv.is_empty() && info.score.is_finite()).then_some(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_plain_and_multipv_info_lines() {
        let plain =
            parse_info("info move d3 score 0.5021 iterations 16384 depth 9 time 101 pv d3 c5")
                .unwrap();
        assert_eq!((plain.rank, plain.mv.as_str()), (1, "d3"));
        assert_eq!(plain.depth, Some(9));
        let multi =
            parse_info("info multipv 3 move e3h score 0.25 iterations 7 depth 2 time 5 pv e3h e8")
                .unwrap();
        assert_eq!(
            (multi.rank, multi.mv.as_str(), multi.score),
            (3, "e3h", 0.25)
        );
        assert!(parse_info("info string hello").is_none());
        assert!(parse_info("= d3").is_none());
    }
}
