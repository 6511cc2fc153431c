//! Move text and the board picture.

use std::fmt::Write as _;

use super::board::bit;
use super::{Quoridor, QuoridorMove};
use crate::game::{Game, MoveError, PositionError, Turn};

/// The name of square `s` (`e2`) on a board of side `n`.
pub(super) fn square_text(n: u32, s: u32) -> String {
    let col = (b'a' + (s % n) as u8) as char;
    format!("{col}{}", s / n + 1)
}

/// The text of a move: `e2`, `e3h`, `e3v`.
pub(super) fn move_text(n: u32, mv: QuoridorMove) -> String {
    match mv {
        QuoridorMove::Pawn(s) => square_text(n, u32::from(s)),
        QuoridorMove::HWall(a) => format!("{}h", square_text(n, u32::from(a))),
        QuoridorMove::VWall(a) => format!("{}v", square_text(n, u32::from(a))),
    }
}

/// Reads a move text on a board of side `n`. The square must be on the
/// board; whether a wall anchor is usable is a matter of legality.
pub(super) fn parse_move(n: u32, text: &str) -> Result<QuoridorMove, MoveError> {
    let t = text.trim().to_ascii_lowercase();
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
    let s = ((row - 1) * n + col) as u8;
    match suffix {
        [] => Ok(QuoridorMove::Pawn(s)),
        [b'h'] => Ok(QuoridorMove::HWall(s)),
        [b'v'] => Ok(QuoridorMove::VWall(s)),
        _ => Err(bad(
            "a wall ends in 'h' or 'v'; a pawn move is just a square",
        )),
    }
}

/// The board from player 2's side at the top: pawns `1` and `2`,
/// horizontal walls as `---` between rows, vertical walls as `|` between
/// columns (a wall's midpoint shows as `-` or `|` too), then each player's
/// square and walls in hand, and whose turn it is.
pub(super) fn render(q: &Quoridor) -> String {
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
        let _ = write!(out, "{:>3} |", r + 1);
        for c in 0..n {
            let s = r * n + c;
            let cell = match (q.pawn(0) == s, q.pawn(1) == s) {
                (true, true) => "1&2",
                (true, false) => " 1 ",
                (false, true) => " 2 ",
                (false, false) => " . ",
            };
            out.push_str(cell);
            let sep = if c + 1 < n && w.east_open(s) {
                ' '
            } else {
                '|'
            };
            out.push(sep);
        }
        let _ = writeln!(out, " {}", r + 1);
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
    for seat in 0..2 {
        let _ = writeln!(
            out,
            "{} (pawn {}) on {}, walls left {}",
            q.seat_name(seat),
            seat + 1,
            square_text(n, q.pawn(seat)),
            q.walls_left(seat)
        );
    }
    let status = match q.turn() {
        Turn::Player(s) => format!("{} to move, ply {}/{}", q.seat_name(s), q.ply, q.max_plies),
        Turn::Over => match q.winner {
            Some(s) => format!(
                "game over: {} wins after {} plies",
                q.seat_name(s.into()),
                q.ply
            ),
            None => format!("game over: draw at the ply cap ({})", q.max_plies),
        },
        Turn::Chance => String::new(),
    };
    out.push_str(&status);
    out.push('\n');
    out
}

/// The position text: pawns, walls in hand, side to move, then the walls.
pub(super) fn position_text(q: &Quoridor) -> String {
    let n = q.size();
    let mut out = format!(
        "{} {} {} {} {}",
        square_text(n, q.pawn(0)),
        square_text(n, q.pawn(1)),
        q.walls_left(0),
        q.walls_left(1),
        q.seat_name(q.to_move.into())
    );
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
            out.push_str(&move_text(n, mv));
        }
    }
    out
}

/// A fresh state of `q`'s game (same options) set to the position `text`.
pub(super) fn parse_position(q: &Quoridor, text: &str) -> Result<Quoridor, PositionError> {
    let bad = |m: String| PositionError::Invalid(m);
    let n = q.size();
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() < 5 {
        return Err(bad(format!(
            "expected '<p1 square> <p2 square> <p1 walls> <p2 walls> <p1|p2> [walls...]', got '{}'",
            text.trim()
        )));
    }
    let mut p = Quoridor::new(n, u32::from(q.walls_start), q.jumps, q.max_plies)
        .map_err(|e| bad(e.to_string()))?;
    for seat in 0..2 {
        match parse_move(n, words[seat]) {
            Ok(QuoridorMove::Pawn(s)) => p.pawns[seat] = s,
            _ => {
                return Err(bad(format!(
                    "'{}' is not a square of the board",
                    words[seat]
                )));
            }
        }
        let goal = if seat == 0 { n - 1 } else { 0 };
        if p.pawn(seat) / n == goal {
            return Err(bad(format!(
                "{} is already on its goal row",
                p.seat_name(seat)
            )));
        }
        p.walls_left[seat] = words[2 + seat]
            .parse::<u8>()
            .ok()
            .filter(|&w| w <= 100)
            .ok_or_else(|| {
                bad(format!(
                    "'{}' is not a wall count (0..100)",
                    words[2 + seat]
                ))
            })?;
    }
    if p.jumps && p.pawns[0] == p.pawns[1] {
        return Err(bad(
            "the pawns may not share a square (jumps=true)".to_string()
        ));
    }
    p.to_move = p
        .parse_seat(words[4])
        .ok_or_else(|| bad(format!("'{}' is not a player (p1 or p2)", words[4])))?
        as u8;
    let g = p.geo();
    for &word in &words[5..] {
        let (horizontal, a) = match parse_move(n, word) {
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
        return Err(bad("the walls cut a pawn off from its goal row".to_string()));
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
                    assert_eq!(parse_move(n, &move_text(n, mv)), Ok(mv));
                }
            }
        }
        assert_eq!(parse_move(9, " E3V "), Ok(QuoridorMove::VWall(2 * 9 + 4)));
    }

    #[test]
    fn syntax_errors() {
        for t in [
            "", "3e", "e", "e0", "e03", "e10", "j1", "e3x", "e3hv", "e123", "é3", "pass",
        ] {
            assert!(matches!(parse_move(9, t), Err(MoveError::Syntax(_))), "{t}");
        }
        assert!(parse_move(11, "k11").is_ok());
    }
}
