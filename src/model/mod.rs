//! What a game is, for every room above: the game trait and its checked
//! move path ([`game`]), the options a variant is chosen by
//! ([`options`]), what a game may declare beyond the trait ([`extras`]),
//! how it is shown to a person ([`pictures`]) and a game in play as text
//! ([`played`]).

pub mod extras;
pub mod game;
pub mod options;
pub mod pictures;
pub mod played;
