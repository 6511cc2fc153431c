//! The games, one module each, and the registry that maps names to them.

pub mod cards;
pub mod ninetynine;
pub mod wizard;
