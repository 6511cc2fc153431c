//! GoGui's rules extension (`gogui-rules_*`) and `gogui-analyze_commands`:
//! what a GoGui-style GUI asks to draw a two-player board game it knows
//! nothing about (GoGui's manual, "Ruler programs"; Egaroucid and Kalmia
//! answer the same six). The board is drawn from the game's position
//! text: Othello's discs.
//!
//! Quoridor is refused, with a message saying why: GoGui's board has
//! points and stones only, a wall is neither, and GoGui takes a `genmove`
//! answer that is no point (`d1h`) as a malformed response and stops the
//! game. `list_commands` lists none of these commands that a game GoGui
//! cannot draw refuses ([`listed`]); asked anyway (`gogui-version` as GoGui
//! 1.6.0 attaches a program, tried under Xvfb), each refuses with the
//! reason and where the game is played (`tabula gui`). Its GTP shell
//! still reaches tabula.

use crate::engine::Engine;
use crate::model::game::Turn;
use crate::protocol::error::ProtocolError;

/// The command names, as `list_commands` adds them.
pub const COMMANDS: &[&str] = &[
    "gogui-rules_game_id",
    "gogui-rules_board",
    "gogui-rules_board_size",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
    "gogui-analyze_commands",
    "gogui-version",
];

/// Whether `list_commands` names `command` for the engine's game: no
/// command listed is refused. For a game GoGui cannot draw (Quoridor, the
/// card games) every command here but `gogui-analyze_commands` is left
/// out: the ruler commands, so that GoGui does not attach tabula as a
/// ruler (GoGui 1.6 then fails on a refused `gogui-rules_game_id` with an
/// exception of its own and quits), and the board size and version,
/// which such a game refuses. `known_command` still knows every command.
pub fn listed(engine: &Engine, command: &str) -> bool {
    !COMMANDS.contains(&command) || command == "gogui-analyze_commands" || Board::of(engine).is_ok()
}

/// Why GoGui cannot show the engine's game, and where it can be played;
/// `None` for a game it draws. GoGui, attaching a program that lists no
/// ruler commands, sets its board with `boardsize`: a refused size is
/// where it shows this.
pub fn cannot_show(engine: &Engine) -> Option<String> {
    Board::of(engine).err().map(|e| e.to_string())
}

/// Runs a `gogui-*` line: `None` when the line is not one of these
/// commands, else its id and its reply or refusal. Nothing is changed.
pub fn execute(
    line: &str,
    engine: &mut Engine,
) -> Option<(Option<u64>, Result<String, ProtocolError>)> {
    let mut words = line.split_whitespace();
    let first = words.next()?;
    let (id, name) = match first.parse::<u64>() {
        Ok(id) if first.bytes().all(|b| b.is_ascii_digit()) => (Some(id), words.next()?),
        _ => (None, first),
    };
    let name = name.to_ascii_lowercase();
    if !COMMANDS.contains(&name.as_str()) {
        return None;
    }
    if name == "gogui-version" {
        // GoGui 1.6 tells its version when it attaches a program: the
        // first point where tabula can refuse a game GoGui cannot show
        // before GoGui sets one up.
        return Some((id, Board::of(engine).map(|_| String::new())));
    }
    if words.next().is_some() {
        return Some((
            id,
            Err(ProtocolError::Usage(format!("{name} (no arguments)"))),
        ));
    }
    Some((id, reply(&name, engine)))
}

fn reply(name: &str, engine: &Engine) -> Result<String, ProtocolError> {
    if name == "gogui-analyze_commands" {
        return Ok(analyze_commands(engine));
    }
    let board = Board::of(engine)?;
    let game = engine.game();
    Ok(match name {
        "gogui-rules_game_id" => game.name().to_string(),
        "gogui-rules_board_size" => board.size.to_string(),
        "gogui-rules_board" => board.picture(),
        // Points a GUI can click, and a pass (Othello's forced one).
        "gogui-rules_legal_moves" => game
            .legal_moves()
            .into_iter()
            .filter(|m| board.is_point(m) || m.eq_ignore_ascii_case("pass"))
            .map(|m| m.to_ascii_uppercase())
            .collect::<Vec<_>>()
            .join(" "),
        "gogui-rules_side_to_move" => match game.turn() {
            Turn::Player(p) => board.colour(p).to_string(),
            _ => "none".to_string(),
        },
        "gogui-rules_final_result" => match engine.outcome() {
            None => "unknown".to_string(),
            Some(o) => match o.scores[..] {
                [a, b] if a > b => format!("{} wins", board.colour(0)),
                [a, b] if b > a => format!("{} wins", board.colour(1)),
                _ => "draw".to_string(),
            },
        },
        _ => return Err(ProtocolError::UnknownCommand(name.to_string())),
    })
}

/// GoGui's analyze-command lines (`type/label/command`): what it can
/// show for any game, and the rules queries for a board game.
fn analyze_commands(engine: &Engine) -> String {
    let mut lines = vec![
        "string/Position/position",
        "string/Legal moves/legal_moves",
        "string/Result/result",
        "string/Settings/get",
    ];
    if Board::of(engine).is_ok() {
        lines.extend([
            "none/Game/gogui-rules_game_id",
            "string/Board/gogui-rules_board",
            "plist/Legal points/gogui-rules_legal_moves",
            "string/Side to move/gogui-rules_side_to_move",
            "string/Final result/gogui-rules_final_result",
        ]);
    }
    lines.join("\n")
}

/// Why Quoridor is refused: GoGui's board has points and stones only, and
/// a wall is neither (GoGui stops the game at the first wall `genmove`
/// answers, as a malformed response).
const QUORIDOR: &str = "GoGui cannot show Quoridor: its walls are not points of GoGui's board \
     (play it in tabula gui, or type GTP commands in GoGui's shell)";

/// A two-player board as GoGui draws it: the stones' squares, named as
/// the game names them (`a1` is the lower left).
struct Board {
    size: usize,
    /// `(file, rank, seat)` from 0, rank 0 the lowest.
    stones: Vec<(usize, usize, usize)>,
}

impl Board {
    fn of(engine: &Engine) -> Result<Board, ProtocolError> {
        let game = engine.game();
        let name = game.name();
        let refuse = || {
            ProtocolError::UnsupportedGame(format!(
                "{name} has no board a GoGui-style GUI can draw (play it in tabula gui)"
            ))
        };
        if game.num_seats() != 2 {
            return Err(refuse());
        }
        let text = game.position_text().ok_or_else(refuse)?;
        let size = game
            .board_size()
            .map(i64::from)
            .or_else(|| game.options().int("size"))
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(refuse)?;
        let mut stones = Vec::new();
        match name {
            // 64 squares from a1 along the ranks, `X` black and `O` white.
            n if n == crate::games::othello::NAME => {
                for (i, c) in text.chars().take(size * size).enumerate() {
                    let seat = match c {
                        'X' | 'x' | '*' => 0,
                        'O' | 'o' => 1,
                        _ => continue,
                    };
                    stones.push((i % size, i / size, seat));
                }
            }
            n if n == crate::games::quoridor::NAME => {
                return Err(ProtocolError::UnsupportedGame(QUORIDOR.to_string()));
            }
            _ => return Err(refuse()),
        }
        Ok(Board { size, stones })
    }

    /// Seat 0 plays the black stones in GoGui's picture, seat 1 white.
    fn colour(&self, seat: usize) -> &'static str {
        if seat == 0 { "black" } else { "white" }
    }

    /// Rows from the top rank down, `.` empty, `X` seat 0, `O` seat 1.
    fn picture(&self) -> String {
        let mut rows = vec![vec!['.'; self.size]; self.size];
        for &(file, rank, seat) in &self.stones {
            if let Some(cell) = rows.get_mut(rank).and_then(|r| r.get_mut(file)) {
                *cell = if seat == 0 { 'X' } else { 'O' };
            }
        }
        let lines: Vec<String> = rows
            .iter()
            .rev()
            .map(|r| r.iter().map(char::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        format!("\n{}", lines.join("\n"))
    }

    /// Whether a move text is a point of this board (a GUI can click it).
    fn is_point(&self, mv: &str) -> bool {
        square(mv).is_some_and(|(f, r)| f < self.size && r < self.size)
    }
}

/// `a1`-style square text: file and rank from 0.
fn square(text: &str) -> Option<(usize, usize)> {
    let mut chars = text.chars();
    let file = chars.next()?.to_ascii_lowercase();
    if !file.is_ascii_lowercase() {
        return None;
    }
    let rank: usize = chars.as_str().parse().ok()?;
    (rank >= 1).then(|| ((file as u8 - b'a') as usize, rank - 1))
}
