//! The server's games and their budget: how many run at once, in all
//! (`--max-games`) and per client address (`--max-games-per-client`).
//!
//! A new game's place is reserved under the table's lock *before* any
//! engine starts, and the reservation counts until the game is in the
//! table or its start failed: simultaneous requests cannot all pass one
//! check and then all start. A game holds a place while its engines play
//! ([`PageGame::holds_place`]): a finished game (its engines quit at its
//! end) or a closed one holds none. When a budget is full, a game that
//! was left (its page gone for longer than a reload takes, kept so that
//! the page can come back) gives its place up to the new one: the
//! client's own first, then the oldest of anyone's. A game a page is
//! watching is never taken.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rand::RngCore;

use super::error::PageError;
use super::page_game::PageGame;

/// The most games kept in the table for each place of `--max-games`
/// (running, finished, or left and kept for a reload).
const KEPT_PER_PLACE: usize = 8;

/// One game in the table.
struct Held {
    game: Arc<PageGame>,
    client: IpAddr,
    since: Instant,
}

#[derive(Default)]
struct Table {
    games: HashMap<String, Held>,
    /// The places reserved by games being set up: their clients.
    reserved: Vec<(u64, IpAddr)>,
    next: u64,
}

impl Table {
    /// Places taken in all and by `client`.
    fn taken(&self, client: IpAddr) -> (usize, usize) {
        let mut all = self.reserved.len();
        let mut mine = self.reserved.iter().filter(|(_, c)| *c == client).count();
        for h in self.games.values() {
            if h.game.holds_place() {
                all += 1;
                mine += usize::from(h.client == client);
            }
        }
        (all, mine)
    }

    /// Closes the oldest game that may give its place up and that `of`
    /// selects; false if there is none.
    fn give_up_one(&mut self, of: impl Fn(&Held) -> bool) -> bool {
        let oldest = self
            .games
            .values()
            .filter(|h| of(h) && h.game.holds_place() && h.game.left())
            .min_by_key(|h| h.since);
        match oldest {
            Some(h) => {
                h.game.close();
                true
            }
            None => false,
        }
    }
}

/// The games of a server.
pub struct GameBudget {
    total: usize,
    per_client: usize,
    table: Mutex<Table>,
}

/// A place reserved for a game being set up: given back when dropped
/// unless the game took it ([`GameBudget::admit`]).
pub struct Reservation<'a> {
    budget: &'a GameBudget,
    id: u64,
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        self.budget.lock().reserved.retain(|(id, _)| *id != self.id);
    }
}

impl GameBudget {
    /// A budget of `total` games at once, `per_client` of one address.
    pub fn new(total: usize, per_client: usize) -> GameBudget {
        GameBudget {
            total: total.max(1),
            per_client: per_client.clamp(1, total.max(1)),
            table: Mutex::default(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reserves a place for a new game of `client`, or says which budget
    /// is full. Checked and taken under one lock.
    pub fn reserve(&self, client: IpAddr) -> Result<Reservation<'_>, PageError> {
        let mut table = self.lock();
        let (_, mine) = table.taken(client);
        if mine >= self.per_client && !table.give_up_one(|h| h.client == client) {
            return Err(PageError::TooManyGamesOfClient(self.per_client));
        }
        let (all, _) = table.taken(client);
        if all >= self.total
            && !table.give_up_one(|h| h.client == client)
            && !table.give_up_one(|_| true)
        {
            return Err(PageError::TooManyGames(self.total));
        }
        table.next += 1;
        let id = table.next;
        table.reserved.push((id, client));
        Ok(Reservation { budget: self, id })
    }

    /// Puts a started game in the place `reservation` held; returns its
    /// id, 128 random bits (whoever knows it plays the game: the page's
    /// URL carries it).
    pub fn admit(
        &self,
        reservation: Reservation<'_>,
        client: IpAddr,
        game: Arc<PageGame>,
    ) -> String {
        let mut bytes = [0u8; 16];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        let id: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let mut table = self.lock();
        table.games.insert(
            id.clone(),
            Held {
                game,
                client,
                since: Instant::now(),
            },
        );
        table.reserved.retain(|(r, _)| *r != reservation.id);
        drop(table);
        // Its place is the game's now: nothing left to give back.
        std::mem::forget(reservation);
        id
    }

    /// The game with id `id`.
    pub fn get(&self, id: &str) -> Option<Arc<PageGame>> {
        self.lock().games.get(id).map(|h| Arc::clone(&h.game))
    }

    /// Takes out the games that are done with: closed, ended, never
    /// opened within `first_connect`, or left for longer than `keep`;
    /// and beyond [`KEPT_PER_PLACE`] games a place, the oldest that no
    /// page watches (finished games hold no place, but their events and
    /// record take memory). Returns them to be closed.
    pub fn sweep(&self, first_connect: Duration, keep: Duration) -> Vec<Arc<PageGame>> {
        let mut gone = Vec::new();
        let mut table = self.lock();
        table.games.retain(|_, h| {
            let s = h.game.lock();
            let away = s.streams == 0
                && s.last_seen.elapsed()
                    > if s.connected_once {
                        keep
                    } else {
                        first_connect
                    };
            let done = s.closed || s.ended || away;
            drop(s);
            if done {
                gone.push(Arc::clone(&h.game));
            }
            !done
        });
        let most = self.total * KEPT_PER_PLACE;
        if table.games.len() > most {
            let mut unwatched: Vec<(Instant, String)> = table
                .games
                .iter()
                .filter(|(_, h)| h.game.lock().streams == 0)
                .map(|(id, h)| (h.since, id.clone()))
                .collect();
            unwatched.sort();
            let excess = table.games.len() - most;
            for (_, id) in unwatched.into_iter().take(excess) {
                if let Some(h) = table.games.remove(&id) {
                    gone.push(h.game);
                }
            }
        }
        gone
    }

    /// Every game in the table.
    pub fn all(&self) -> Vec<Arc<PageGame>> {
        self.lock()
            .games
            .values()
            .map(|h| Arc::clone(&h.game))
            .collect()
    }

    /// Takes out every game (the server stops).
    pub fn drain(&self) -> Vec<Arc<PageGame>> {
        self.lock().games.drain().map(|(_, h)| h.game).collect()
    }
}
