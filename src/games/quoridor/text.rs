//! Move text and the board picture.

use std::fmt::Write as _;

use super::board::{GOAL_EAST, GOAL_NORTH, GOAL_SOUTH, bit};
use super::{QuoridorGame, QuoridorMove, goal_side};
use crate::model::game::{Game, MoveError, PositionError, Turn};

/// The row number a text gives square `s`'s row: from 1 on p1's side, or
/// (`flip`, OpenSpiel's notation) from 1 on p2's side. A wall is named by
/// its square nearest row 1, so a wall anchored on (0-based) row `r` is
/// row `n - 1 - r` flipped.
fn row_text(n: u32, s: u32, flip: bool, wall: bool) -> u32 {
    let r = s / n;
    match (flip, wall) {
        (false, _) => r + 1,
        (true, false) => n - r,
        (true, true) => n - 1 - r,
    }
}

/// The text of a move: `e2`, `e3h`, `e3v`, `pass`; `flip`: the rows
/// numbered from p2's side (OpenSpiel's notation).
pub(super) fn move_text(n: u32, flip: bool, mv: QuoridorMove) -> String {
    let at = |s: u8, wall: bool| {
        let s = u32::from(s);
        let col = (b'a' + (s % n) as u8) as char;
        format!("{col}{}", row_text(n, s, flip, wall))
    };
    match mv {
        QuoridorMove::Pawn(s) => at(s, false),
        QuoridorMove::HWall(a) => format!("{}h", at(a, true)),
        QuoridorMove::VWall(a) => format!("{}v", at(a, true)),
        QuoridorMove::Pass => "pass".to_string(),
    }
}

/// Reads a move text on a board of side `n` (`flip`: rows numbered from
/// p2's side, OpenSpiel's notation). The square must be on the board;
/// whether a wall anchor is usable (or a pass allowed) is a matter of
/// legality, except that a flipped wall must name a row below the last
/// (it has no square on the far side otherwise).
pub(super) fn parse_move(n: u32, flip: bool, text: &str) -> Result<QuoridorMove, MoveError> {
    let t = text.trim().to_ascii_lowercase();
    if t == "pass" {
        return Ok(QuoridorMove::Pass);
    }
    let bad = |why: &str| MoveError::Syntax(format!("'{}': {why}", text.trim()));
    let bytes = t.as_bytes();
    let Some((&c, rest)) = bytes.split_first() else {
        return Err(bad(
            "empty move; expected a square (e2) or a wall (e3h, e3v)",
        ));
    };
    if !c.is_ascii_lowercase() {
        return Err(bad(
            "expected a column letter, a square (e2) or a wall (e3h, e3v)",
        ));
    }
    let col = u32::from(c - b'a');
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let (num, suffix) = rest.split_at(digits);
    if digits == 0 || digits > 2 || num[0] == b'0' {
        return Err(bad("expected a row number after the column letter"));
    }
    let row = num.iter().fold(0u32, |r, &d| r * 10 + u32::from(d - b'0'));
    let last = (b'a' + n as u8 - 1) as char;
    if col >= n || row > n {
        return Err(bad(&format!(
            "not a square of the {n}x{n} board (a1..{last}{n})"
        )));
    }
    let wall = matches!(suffix, [b'h'] | [b'v']);
    let r = match (flip, wall) {
        (false, _) => row - 1,
        (true, false) => n - row,
        (true, true) if row < n => n - 1 - row,
        (true, true) => {
            return Err(bad(&format!(
                "a wall names a row from 1 to {} (its square nearest row 1)",
                n - 1
            )));
        }
    };
    let s = (r * n + col) as u8;
    match suffix {
        [] => Ok(QuoridorMove::Pawn(s)),
        [b'h'] => Ok(QuoridorMove::HWall(s)),
        [b'v'] => Ok(QuoridorMove::VWall(s)),
        _ => Err(bad(
            "a wall ends in 'h' or 'v'; a pawn move is just a square",
        )),
    }
}

/// The square of `seat`'s pawn in `q`'s notation.
fn pawn_text<const P: usize>(q: &QuoridorGame<P>, seat: usize) -> String {
    move_text(q.size(), q.openspiel_rows, QuoridorMove::Pawn(q.pawn(seat) as u8))
}

/// The text of one cell: `.`, the pawn's number, `1&2` for two pawns on
/// one square (only without jumps), the numbers run together for three
/// (`124`) and `all` for four.
fn cell_text<const P: usize>(q: &QuoridorGame<P>, s: u32) -> String {
    let here: Vec<String> = (0..P)
        .filter(|&p| q.pawn(p) == s)
        .map(|p| (p + 1).to_string())
        .collect();
    match here.len() {
        0 => " . ".to_string(),
        1 => format!(" {} ", here[0]),
        2 => here.join("&"),
        3 => here.concat(),
        _ => "all".to_string(),
    }
}

/// Where `seat` must go, for the four-player legend.
fn goal_text<const P: usize>(q: &QuoridorGame<P>, seat: usize) -> String {
    let n = q.size();
    let last = (b'a' + n as u8 - 1) as char;
    let (north, south) = if q.openspiel_rows {
        (1, n)
    } else {
        (n, 1)
    };
    match goal_side(P, seat) {
        GOAL_NORTH => format!("row {north}"),
        GOAL_SOUTH => format!("row {south}"),
        GOAL_EAST => format!("column {last}"),
        _ => "column a".to_string(),
    }
}

/// The board with row 1 at the bottom: pawns `1`..`4`, horizontal walls as
/// `---` between rows, vertical walls as `|` between columns (a wall's
/// midpoint shows as `-` or `|` too), then each player's square and walls
/// in hand (and, with four players, goal side), and whose turn it is.
pub(super) fn render<const P: usize>(q: &QuoridorGame<P>) -> String {
    let n = q.size();
    let w = &q.walls;
    let mut out = String::new();
    let letters: String = (0..n)
        .map(|c| format!("   {}", (b'a' + c as u8) as char))
        .collect();
    let border = format!("    +{}+\n", "-".repeat(4 * n as usize - 1));
    let _ = writeln!(out, "   {letters}");
    out.push_str(&border);
    for r in (0..n).rev() {
        let label = row_text(n, r * n, q.openspiel_rows, false);
        let _ = write!(out, "{label:>3} |");
        for c in 0..n {
            let s = r * n + c;
            out.push_str(&cell_text(q, s));
            let sep = if c + 1 < n && w.east_open(s) {
                ' '
            } else {
                '|'
            };
            out.push(sep);
        }
        let _ = writeln!(out, " {label}");
        if r == 0 {
            break;
        }
        // The groove between row r (above) and row r - 1 (below).
        out.push_str("    |");
        for c in 0..n {
            let below = (r - 1) * n + c;
            out.push_str(if w.north_open(below) { "   " } else { "---" });
            if c + 1 == n {
                out.push('|');
            } else if w.h & bit(below) != 0 {
                out.push('-');
            } else if w.v & bit(below) != 0 {
                out.push('|');
            } else {
                out.push(' ');
            }
        }
        out.push('\n');
    }
    out.push_str(&border);
    let _ = writeln!(out, "   {letters}");
    for seat in 0..P {
        let _ = write!(
            out,
            "{} (pawn {}) on {}, walls left {}",
            q.seat_name(seat),
            seat + 1,
            pawn_text(q, seat),
            q.walls_left(seat)
        );
        if P > 2 {
            let _ = write!(out, ", goal {}", goal_text(q, seat));
        }
        out.push('\n');
    }
    let status = match q.turn() {
        Turn::Player(s) => format!("{} to move, ply {}/{}", q.seat_name(s), q.ply, q.max_plies),
        Turn::Over => match q.winner {
            Some(s) => format!(
                "game over: {} wins after {} plies",
                q.seat_name(s.into()),
                q.ply
            ),
            None if P == 2 => format!("game over: draw at the ply cap ({})", q.max_plies),
            None => format!(
                "game over at the ply cap ({}): ranked by distance to goal",
                q.max_plies
            ),
        },
        Turn::Chance => String::new(),
    };
    out.push_str(&status);
    out.push('\n');
    out
}

/// The position text: pawns, walls in hand, side to move, then the walls.
pub(super) fn position_text<const P: usize>(q: &QuoridorGame<P>) -> String {
    let n = q.size();
    let mut words: Vec<String> = (0..P).map(|s| pawn_text(q, s)).collect();
    words.extend((0..P).map(|s| q.walls_left(s).to_string()));
    words.push(q.seat_name(q.to_move.into()));
    let mut out = words.join(" ");
    for (mut set, horizontal) in [(q.walls.h, true), (q.walls.v, false)] {
        while set != 0 {
            let a = set.trailing_zeros() as u8;
            set &= set - 1;
            let mv = if horizontal {
                QuoridorMove::HWall(a)
            } else {
                QuoridorMove::VWall(a)
            };
            out.push(' ');
            out.push_str(&move_text(n, q.openspiel_rows, mv));
        }
    }
    out
}

/// The expected shape of a position text, for error messages.
fn position_usage(players: usize) -> String {
    if players == 2 {
        "'<p1 square> <p2 square> <p1 walls> <p2 walls> <p1|p2> [walls...]'".to_string()
    } else {
        "'<p1..p4 squares> <p1..p4 walls> <p1|p2|p3|p4> [walls...]'".to_string()
    }
}

/// A fresh state of `q`'s game (same options) set to the position `text`.
pub(super) fn parse_position<const P: usize>(
    q: &QuoridorGame<P>,
    text: &str,
) -> Result<QuoridorGame<P>, PositionError> {
    let bad = |m: String| PositionError::Invalid(m);
    let n = q.size();
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() < 2 * P + 1 {
        return Err(bad(format!(
            "expected {}, got '{}'",
            position_usage(P),
            text.trim()
        )));
    }
    let mut p = QuoridorGame::<P>::new(n, u32::from(q.walls_start), q.jumps, q.max_plies)
        .map_err(|e| bad(e.to_string()))?;
    p.openspiel_rows = q.openspiel_rows;
    p.cap_draws = q.cap_draws;
    for seat in 0..P {
        match parse_move(n, q.openspiel_rows, words[seat]) {
            Ok(QuoridorMove::Pawn(s)) => p.pawns[seat] = s,
            _ => {
                return Err(bad(format!(
                    "'{}' is not a square of the board",
                    words[seat]
                )));
            }
        }
        if p.goal(seat) & bit(p.pawn(seat)) != 0 {
            return Err(bad(format!(
                "{} is already on its goal {}",
                p.seat_name(seat),
                if P == 2 { "row" } else { "side" }
            )));
        }
        p.walls_left[seat] = words[P + seat]
            .parse::<u8>()
            .ok()
            .filter(|&w| w <= 100)
            .ok_or_else(|| {
                bad(format!(
                    "'{}' is not a wall count (0..100)",
                    words[P + seat]
                ))
            })?;
    }
    if p.jumps && (1..P).any(|i| p.pawns[..i].contains(&p.pawns[i])) {
        return Err(bad(
            "the pawns may not share a square (jumps=true)".to_string()
        ));
    }
    let seats = (1..=P)
        .map(|s| format!("p{s}"))
        .collect::<Vec<_>>()
        .join(" or ");
    p.to_move = p
        .parse_seat(words[2 * P])
        .ok_or_else(|| bad(format!("'{}' is not a player ({seats})", words[2 * P])))?
        as u8;
    let g = p.geo();
    for &word in &words[2 * P + 1..] {
        let (horizontal, a) = match parse_move(n, q.openspiel_rows, word) {
            Ok(QuoridorMove::HWall(a)) => (true, u32::from(a)),
            Ok(QuoridorMove::VWall(a)) => (false, u32::from(a)),
            _ => return Err(bad(format!("'{word}' is not a wall"))),
        };
        let free = if horizontal {
            p.walls.is_free_h(g, a)
        } else {
            p.walls.is_free_v(g, a)
        };
        if !free {
            return Err(bad(format!(
                "wall {word} is off the wall grid, overlaps or crosses another"
            )));
        }
        p.place_wall(horizontal, a as u8);
    }
    if !p.keeps_paths(&p.walls) {
        return Err(bad(format!(
            "the walls cut a pawn off from its goal {}",
            if P == 2 { "row" } else { "side" }
        )));
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_round_trip() {
        for n in [3u32, 5, 9, 11] {
            for s in 0..n * n {
                for mv in [QuoridorMove::Pawn(s as u8), QuoridorMove::HWall(s as u8)] {
                    assert_eq!(parse_move(n, false, &move_text(n, false, mv)), Ok(mv));
                    // Flipped, a wall anchor needs a row above it.
                    if matches!(mv, QuoridorMove::Pawn(_)) || s / n + 1 < n {
                        assert_eq!(parse_move(n, true, &move_text(n, true, mv)), Ok(mv));
                    }
                }
            }
        }
        assert_eq!(
            parse_move(9, false, " E3V "),
            Ok(QuoridorMove::VWall(2 * 9 + 4))
        );
    }

    #[test]
    fn syntax_errors() {
        for t in [
            "", "3e", "e", "e0", "e03", "e10", "j1", "e3x", "e3hv", "e123", "é3", "pas",
        ] {
            assert!(
                matches!(parse_move(9, false, t), Err(MoveError::Syntax(_))),
                "{t}"
            );
        }
        assert!(parse_move(11, false, "k11").is_ok());
        assert_eq!(parse_move(9, false, " PASS"), Ok(QuoridorMove::Pass));
    }

    #[test]
    fn openspiel_rows_run_the_other_way() {
        // Pawn c<r> is OpenSpiel's c<N+1-r>; wall c<r>h|v is c<N-r>h|v.
        for n in [3u32, 5, 9, 11] {
            for r in 1..=n {
                for c in 0..n {
                    let s = ((r - 1) * n + c) as u8;
                    let col = (b'a' + c as u8) as char;
                    let pawn = QuoridorMove::Pawn(s);
                    assert_eq!(move_text(n, true, pawn), format!("{col}{}", n + 1 - r));
                    if r < n {
                        for (mv, o) in [(QuoridorMove::HWall(s), 'h'), (QuoridorMove::VWall(s), 'v')] {
                            assert_eq!(move_text(n, true, mv), format!("{col}{}{o}", n - r));
                        }
                    }
                }
            }
        }
        assert_eq!(parse_move(9, true, "e9"), Ok(QuoridorMove::Pawn(4)));
        assert_eq!(parse_move(9, true, "e8h"), Ok(QuoridorMove::HWall(4)));
        assert!(matches!(parse_move(9, true, "e9h"), Err(MoveError::Syntax(_))));
        assert_eq!(parse_move(9, true, "pass"), Ok(QuoridorMove::Pass));
    }
}
