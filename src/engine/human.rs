//! Human-seat mode: a human at the terminal plays one seat
//! (`game hearts human=south`), the engine deals and plays every other
//! seat as its turn comes, and the human sees only what that seat may
//! see: its own view in `showboard`, the other seats' moves as the game's
//! `tell` gives them to a seat-bound player, and the boundaries of tricks,
//! hands and rounds ([`feed::Feed`], which the table keeps). Commands
//! that would show more (the history with its deals, an analysis over
//! sampled hands, the seed that deals the other hands) or that belong to
//! a referee are refused.
//!
//! Each human-seat game deals from its own seed: the one given with it
//! (`seed=N`); else, when tabula drew the session seed, one from the
//! system's entropy; else (a seed the human chose) one from the session
//! generator, so that sessions repeat ([`Secrets`]). The seed stays
//! secret while the game is on (`get seed` and `set seed` are refused,
//! `get` hides it) and is told with the result.

pub mod feed;

use rand::{RngCore, SeedableRng};

use crate::engine::error::EngineError;
use crate::engine::settings::Settings;
use crate::engine::table::AnyGame;
use crate::games::{self, GameVisitor};
use crate::model::game::{Game, Rng, Seat, Turn};
use crate::model::options::Options;

/// The game option that starts human-seat mode.
pub const OPTION: &str = "human";

/// Takes `human=SEAT` out of a game's option words: the seat text, and
/// the game's own options.
pub fn split_human(words: &[String]) -> (Option<String>, Vec<String>) {
    let mut human = None;
    let mut rest = Vec::new();
    for w in words {
        match w.split_once('=') {
            Some((k, v)) if k.eq_ignore_ascii_case(OPTION) => human = Some(v.to_string()),
            _ => rest.push(w.clone()),
        }
    }
    (human, rest)
}

/// The seat `text` names in `game`, for a human to play: the engine must
/// deal (no seat-bound `seat=` option) and it must be a seat of the game.
pub fn seat_for_human(game: &dyn AnyGame, text: &str) -> Result<Seat, EngineError> {
    if game.options().is_set("seat") {
        return Err(EngineError::Unsupported(
            "human= needs a game the engine deals: leave out seat=".into(),
        ));
    }
    game.parse_seat(text).ok_or_else(|| {
        let seats: Vec<String> = (0..game.num_seats()).map(|s| game.seat_name(s)).collect();
        EngineError::Unsupported(format!(
            "unknown seat '{text}' for human=; seats: {}",
            seats.join(", ")
        ))
    })
}

/// Whether the human (at `human`) may play for `seat` (or the seat to
/// move) now: only for their own seat, on their turn.
pub fn check_human_plays(
    game: &dyn AnyGame,
    human: Seat,
    seat: Option<Seat>,
) -> Result<(), EngineError> {
    let yours = game.seat_name(human);
    if let Some(s) = seat.filter(|&s| s != human) {
        return Err(EngineError::Unsupported(format!(
            "you play {yours}; the engine plays {} by itself",
            game.seat_name(s)
        )));
    }
    match game.turn() {
        Turn::Player(p) if p != human => Err(EngineError::NotYourTurn {
            asked: yours,
            to_move: game.seat_name(p),
        }),
        _ => Ok(()),
    }
}

/// Where the seeds of human-seat games come from, and the seed of the
/// game in play.
#[derive(Clone, Debug, Default)]
pub struct Secrets {
    /// The session seed was drawn by tabula, not chosen: each human-seat
    /// game then draws its seed from the system's entropy, so that no
    /// seed the human can learn (`get seed` before the game, a game's
    /// seed told at its end) deals a later game.
    secret: bool,
    game_seed: Option<u64>,
}

impl Secrets {
    /// The seed of the human-seat game in play, if one is.
    pub fn game_seed(&self) -> Option<u64> {
        self.game_seed
    }

    /// A seed was chosen (`set seed`, `seed=`): games repeat from it.
    pub fn chosen(&mut self) {
        self.secret = false;
    }

    /// The session seed was drawn at random, not given (`tabula` without
    /// `--seed`): each human-seat game deals from a seed of its own drawn
    /// from the system's entropy, which no reply tells before the game
    /// ends. With a seed given, games repeat from it, and whoever knows
    /// it can deal them again: that is the human's choice.
    pub fn keep_secret(&mut self) {
        self.secret = true;
    }

    /// A game starts (`game`, `clear_board`): in human-seat mode (`human`)
    /// it deals from its own seed: `chosen` (the human's `seed=N`,
    /// already in `settings` and `rng`), else one drawn from the system's
    /// entropy ([`Secrets::keep_secret`]) or from the session generator,
    /// which then seeds `rng` and becomes the setting.
    pub fn start_game(
        &mut self,
        human: Option<Seat>,
        chosen: bool,
        settings: &mut Settings,
        rng: &mut Rng,
    ) {
        if human.is_none() {
            self.game_seed = None;
            return;
        }
        if !chosen {
            let seed = if self.secret {
                rand::rngs::OsRng.next_u64()
            } else {
                rng.next_u64()
            };
            settings.seed = seed;
            *rng = Rng::seed_from_u64(seed);
        }
        self.game_seed = Some(settings.seed);
    }
}

/// Whether a human-seat game is on (not over).
fn game_on(game: &dyn AnyGame, human: Option<Seat>) -> bool {
    human.is_some() && game.turn() != Turn::Over
}

/// Whether the human's seat is to move.
fn humans_turn(game: &dyn AnyGame, human: Option<Seat>) -> bool {
    human.is_some_and(|h| game.turn() == Turn::Player(h))
}

/// Why a command (its words, without the id) is refused in human-seat
/// mode: those that would show what the human's seat may not see, that
/// would let them rebuild it (the seed while the game is on), or that
/// belong to a referee. `None` outside the mode.
pub fn refusal<'a>(
    game: &dyn AnyGame,
    human: Option<Seat>,
    mut words: impl Iterator<Item = &'a str>,
) -> Option<String> {
    human?;
    let command = words.next()?.to_ascii_lowercase();
    let seed_named = words
        .next()
        .and_then(Settings::canonical_name)
        .is_some_and(|n| n == "seed");
    let why = match command.as_str() {
        "genmove" if humans_turn(game, human) && must_pass(game).is_some() => {
            "you have no move, so you pass: type `play pass`"
        }
        "genmove" | "analyze" => "the engine moves the other seats by itself; play your own move",
        "history" => {
            "the history holds the deal; the replies to play told you every move you may see"
        }
        "undo" if !perfect_information(game) => {
            "a card once played stays played (you have seen the cards played after it)"
        }
        "deal" => "the engine deals in human-seat mode",
        // The seat to move is another's only when its search was refused
        // (a setting that does not fit the game): its moves are its hand.
        "legal_moves"
            if !humans_turn(game, human) && game_on(game, human) && !perfect_information(game) =>
        {
            "the seat to move is the engine's, and its moves would show its cards (set search to fix its search)"
        }
        "get" if seed_named && game_on(game, human) => {
            "the seed is told when the game ends (with it the hidden cards could be dealt again)"
        }
        "set" if seed_named && game_on(game, human) => {
            "the seed is fixed for the game in play (game NAME human=SEAT seed=N chooses one)"
        }
        _ => return None,
    };
    Some(format!(
        "{command}: {why} (game NAME without human= ends the mode)"
    ))
}

/// `get`'s listing: every setting, the seed hidden while a human-seat
/// game is on.
pub fn settings_listing(
    game: &dyn AnyGame,
    human: Option<Seat>,
    settings: &Settings,
) -> Vec<String> {
    let hide = game_on(game, human);
    settings
        .listing()
        .into_iter()
        .map(|line| match line.split_once(' ') {
            Some(("seed", _)) if hide => "seed (told when the game ends)".to_string(),
            _ => line,
        })
        .collect()
}

/// The commands whose reply in human-seat mode always ends with who is
/// to move: those that change the game.
const CHANGES: &[&str] = &[
    "game",
    "play",
    "clear_board",
    "set",
    "undo",
    "setboard",
    "position",
    "boardsize",
];

/// A reply in human-seat mode, for the human at `human`: its text,
/// then the lines `told` since the last reply (the other seats' moves,
/// their own new cards, the tricks, hands and rounds that ended), then
/// who is to move, or at the end the result (`result`: the protocol's
/// `over ...` text) and the game's seed. A reply to a command that
/// changes the game always ends with that line.
pub fn reply(
    game: &dyn AnyGame,
    human: Seat,
    game_seed: Option<u64>,
    mut told: Vec<String>,
    command: &str,
    text: String,
    result: Option<String>,
) -> String {
    let changes = CHANGES.iter().any(|c| c.eq_ignore_ascii_case(command));
    if told.is_empty() && !changes {
        return text;
    }
    told.push(match (game.turn(), result) {
        (Turn::Player(p), _) if p == human && must_pass(game).is_some() => format!(
            "{} to move (you): you have no move, so you pass: type `play {}`",
            game.seat_name(p),
            must_pass(game).unwrap_or_default()
        ),
        (Turn::Player(p), _) if p == human => format!("{} to move (you)", game.seat_name(p)),
        (Turn::Player(p), _) => format!("{} to move", game.seat_name(p)),
        (Turn::Chance, _) => "a deal is next".into(),
        (Turn::Over, result) => format!("game {}", result.unwrap_or_else(|| "over".into())),
    });
    if game.turn() == Turn::Over
        && let Some(seed) = game_seed
        && deals(game)
    {
        let mut words = vec![
            game.name().to_string(),
            format!("human={}", game.seat_name(human)),
        ];
        words.extend(game.options().given());
        words.push(format!("seed={seed}"));
        told.push(format!(
            "seed {seed} (game {} deals this game again, with the same settings and moves)",
            words.join(" ")
        ));
    }
    if text.is_empty() {
        format!("\n{}", told.join("\n"))
    } else {
        format!("{text}\n{}", told.join("\n"))
    }
}

/// The pass, when it is the only legal move of the seat to move (an
/// Othello player with no disc to turn): its text.
fn must_pass(game: &dyn AnyGame) -> Option<String> {
    let pass = game.pass_text()?;
    let legal = game.legal_moves();
    (legal.len() == 1 && legal[0] == pass).then_some(pass)
}

pub(crate) struct Deals;

impl GameVisitor for Deals {
    type Output = bool;
    fn visit<G: Game>(self, options: &Options) -> bool {
        G::new_game(options).is_ok_and(|g| g.turn() == Turn::Chance)
    }
}

/// Whether `game` deals (starts with a chance step): only then does its
/// seed deal anything, and a result offers it.
fn deals(game: &dyn AnyGame) -> bool {
    games::find(game.name())
        .and_then(|e| e.visit_with(game.options(), Deals).ok())
        .unwrap_or(false)
}

pub(crate) struct Perfect;

impl GameVisitor for Perfect {
    type Output = bool;
    fn visit<G: Game>(self, _: &Options) -> bool {
        G::PERFECT_INFORMATION
    }
}

/// Whether every seat of `game` sees the whole state.
fn perfect_information(game: &dyn AnyGame) -> bool {
    games::find(game.name())
        .and_then(|e| e.visit_with(game.options(), Perfect).ok())
        .unwrap_or(false)
}

/// `undo` in human-seat mode (perfect-information games): takes back the
/// last move of the human at `human` and the engine's replies after it,
/// so that the human is to move again where they moved; what was taken
/// back goes to `notes`. Changes nothing when the human has not moved
/// yet. Outside the mode, the game's own `undo`.
pub fn undo(
    game: &mut dyn AnyGame,
    human: Option<Seat>,
    rng: &mut Rng,
    notes: &mut Vec<String>,
) -> Result<(), EngineError> {
    let Some(h) = human else {
        return game.undo();
    };
    if !perfect_information(game) {
        return Err(EngineError::Unsupported(
            "undo: a card once played stays played in human-seat mode".into(),
        ));
    }
    let history = game.history();
    loop {
        if game.undo().is_err() {
            // The human has not moved: play the engine's moves again.
            let done = game.history().len();
            for text in &history[done..] {
                game.play(None, text, rng)?;
            }
            game.take_told();
            return Err(EngineError::Unsupported(
                "nothing to undo: you have not moved yet".into(),
            ));
        }
        if game.turn() == Turn::Player(h) {
            break;
        }
    }
    let done = game.history().len();
    notes.push(format!("taken back: {}", history[done..].join(" ")));
    Ok(())
}

/// `help codes` (also `help cards`, `help moves`): what every card and
/// move code a human meets at the terminal means.
pub fn help(topic: Option<&str>) -> Option<String> {
    let topic = topic?.to_ascii_lowercase();
    if !["codes", "cards", "moves", "notation"].contains(&topic.as_str()) {
        return None;
    }
    Some(
        "
Cards are rank then suit: ranks 2-9, T ten, J jack, Q queen, K king, A ace;
  suits C clubs, D diamonds, H hearts, S spades (QS: the queen of spades).
Othello: a square a1-h8 (column, then row from the top); pass when you have
  no move. In pictures X is black, O white, . empty.
Quoridor: a square (e2) moves your pawn there; a wall is the square at its
  lower-left end (rows count from p1's side) and h (horizontal) or v
  (vertical): e3h, c5v. Seats p1-p4.
Hearts: a pass is three cards joined by + (2C+3C+4C); seats north, east,
  south, west. A trick's points: 1 a heart, 13 the queen of spades.
Wizard: Z1-Z4 are the four Wizards (a Wizard wins the trick, the first one
  played), N1-N4 the four Jesters (a Jester loses it; only Jesters: the
  first wins); bid:N bids N tricks; trump:S names trump when a Wizard is
  turned up (C, D, H, S); \"up 7S\" is the card turned up for trump. A bid
  made scores 20 + 10 a trick, a missed one -10 a trick of difference.
  Seats p0-p5.
Ninety-Nine: a card adds its value to the total; TC+ / TC- a ten adding or
  taking off 10, AC1 / AC11 an ace as 1 or 11; J and Q add 10, K makes the
  total 99, 4 and 9 add nothing; lose: you cannot play without passing 99
  and lose a token. Seats p0-p9.
Replies: \"west plays 5C\" a move told to you, \"your hand: ...\" your
  cards, \"passed to you by west: ...\" the cards a pass gave you, \"west
  holds 2C and leads the first trick\", \"south to move (you)\" your turn."
            .to_string(),
    )
}
