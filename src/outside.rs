//! A game defined outside the crate (a test's, a program built on the
//! library), added to the registry at run time: [`register`] reaches its
//! type through `Any` for each of the crate's visitors (the engine's
//! table, the match runner's referee, the page's mirror and searches,
//! perft, the registry's own questions), so that the engine and every
//! protocol, the match runner and the page serve it with no edit
//! elsewhere. A visitor not listed here answers for such a game as for an
//! unknown one.

use std::any::Any;

use crate::game::Game;
use crate::games::{self, AddError, GameEntry, GameVisitor, Listing};
use crate::options::Options;

/// Adds game type `G`, described by its [`Game`] consts and `listing`,
/// to the registry: from then on `game <name>` and every lookup find it.
pub fn register<G: Game>(listing: &Listing) -> Result<&'static GameEntry, AddError> {
    games::add(games::entry_of::<G>(listing), visit::<G>)
}

/// What one try does: the output boxed, or the visitor handed back.
type Tried = Result<Box<dyn Any>, Box<dyn Any>>;

/// One try: a visitor type's call with the game's type.
type Try = fn(Box<dyn Any>, &Options) -> Tried;

/// Calls `visitor` with `G` if it is `V`, boxing what it builds; hands the
/// visitor back otherwise.
fn try_visit<G: Game, V: GameVisitor>(visitor: Box<dyn Any>, options: &Options) -> Tried {
    visitor
        .downcast::<V>()
        .map(|v| Box::new(v.visit::<G>(options)) as Box<dyn Any>)
}

/// The crate's visitors, each called with `G` ([`games::ErasedVisit`]).
fn visit<G: Game>(options: &Options, visitor: Box<dyn Any>) -> Option<Box<dyn Any>> {
    let tries: [Try; 8] = [
        try_visit::<G, games::ReadTraits>,
        try_visit::<G, crate::engine::OpenTable>,
        try_visit::<G, crate::engine::human::Perfect>,
        try_visit::<G, crate::arena::run::referee::OpenReferee>,
        try_visit::<G, crate::gui::view::OpenMirror>,
        try_visit::<G, crate::gui::SeatCount>,
        try_visit::<G, crate::gui::Fits>,
        try_visit::<G, crate::perft::PerftRun>,
    ];
    let mut visitor = visitor;
    for t in tries {
        match t(visitor, options) {
            Ok(out) => return Some(out),
            Err(back) => visitor = back,
        }
    }
    None
}
