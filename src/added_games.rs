//! A game defined outside the crate (a test's, a program built on the
//! library), added to the registry at run time: [`register`] reaches its
//! type through `Any` for each of the crate's visitors (the engine's
//! table, the match runner's referee, the page's mirror and searches,
//! perft, the registry's own questions), so that the engine and every
//! protocol, the match runner and the page serve it with no edit
//! elsewhere. A visitor not listed here answers for such a game as for an
//! unknown one.

use std::any::Any;

use crate::games::{self, AddError, GameEntry, GameVisitor, Listing};
use crate::model::extras::Extras;
use crate::model::game::Game;
use crate::model::options::Options;

/// Adds game type `G`, described by its [`Game`] consts and `listing`,
/// to the registry: from then on `game <name>` and every lookup find it.
/// It declares no [`Extras`]: the page shows its text.
pub fn register<G: Game>(listing: &Listing) -> Result<&'static GameEntry, AddError> {
    games::add(games::entry_of::<G>(listing), visit::<G>, None)
}

/// [`register`], with the [`Extras`] the game declares (its pictures for
/// the page and the human seat, a solver, protocol conventions), as a
/// registered game names them on its registry line.
pub fn register_with<G: Game>(
    listing: &Listing,
    extras: Extras<G>,
) -> Result<&'static GameEntry, AddError> {
    games::add(
        games::entry_of::<G>(listing),
        visit::<G>,
        Some(Box::new(extras)),
    )
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
    let tries: [Try; 10] = [
        try_visit::<G, games::ReadTraits>,
        try_visit::<G, crate::engine::OpenTable>,
        try_visit::<G, crate::engine::human::Perfect>,
        try_visit::<G, crate::engine::human::Deals>,
        try_visit::<G, crate::arena::ground::referee::OpenReferee>,
        try_visit::<G, crate::gui::view::OpenMirror>,
        try_visit::<G, crate::gui::SeatCount>,
        try_visit::<G, crate::gui::Fits>,
        try_visit::<G, crate::gui::PageScripts>,
        try_visit::<G, crate::tools::perft::PerftRun>,
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

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The names of the types that implement [`super::GameVisitor`] in
    /// the crate's source under `dir`.
    fn visitors(dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                visitors(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                for line in text.lines() {
                    let Some(rest) = line.trim_start().strip_prefix("impl GameVisitor for ") else {
                        continue;
                    };
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    out.push(name);
                }
            }
        }
    }

    #[test]
    fn every_visitor_of_the_crate_is_tried_for_a_game_added_from_outside() {
        // The list in `visit` is written by hand: a visitor added to the
        // crate and not to it would answer for an outside game as for an
        // unknown one.
        let mut names = Vec::new();
        visitors(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut names,
        );
        names.sort();
        let source = include_str!("added_games.rs");
        let listed: Vec<&str> = source
            .lines()
            .filter_map(|l| l.trim().strip_prefix("try_visit::<G, "))
            .filter_map(|l| l.strip_suffix(">,"))
            .map(|path| path.rsplit("::").next().unwrap_or(path))
            .collect();
        let mut listed: Vec<String> = listed.iter().map(|s| s.to_string()).collect();
        listed.sort();
        assert!(names.len() >= 9, "{names:?}");
        assert_eq!(listed, names, "outside.rs's visitors against the crate's");
    }
}
