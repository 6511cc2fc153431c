//! The server's connection bookkeeping: no client can starve the others.
//!
//! Every connection is registered with its peer's address, when it came
//! and what it is doing. Requests and event streams have separate
//! budgets:
//!
//! - **Requests**: at most [`PER_CLIENT`] connections of one address and
//!   [`TOTAL`] in all. When a budget is full, the oldest connection that
//!   is *waiting on its peer* (reading a request that has not arrived, or
//!   writing a reply the peer does not read) is closed to make room: the
//!   newest client, whose request is on its way, is served; a
//!   connection the server is working for is never closed. Only when
//!   every connection in the budget is being worked for is the newcomer
//!   refused (`503`). Besides, a request must arrive whole within its
//!   deadline ([`super::http`]), and a reply that is not read times out.
//! - **Event streams**: at most [`STREAMS_PER_SESSION`] per game (a new
//!   one closes the oldest: a reloaded page replaces its old stream) and
//!   [`STREAMS_PER_CLIENT`] per address (beyond: `503`). Streams never
//!   count against the request budget, and requests never close a stream.
//! - **Replays**: reading a record is work in proportion to its size, so
//!   at most [`REPLAYS_AT_ONCE`] are read at once, across all clients
//!   ([`ReplayGate`]); at most [`REPLAYS_WAITING`] more wait their turn,
//!   and beyond that a replay is refused (`503`) at once. The CPU and the
//!   memory of replays together stay bounded however many come.

use std::collections::HashMap;
use std::net::{IpAddr, Shutdown, TcpStream};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The most request connections of one client address at once.
pub const PER_CLIENT: usize = 64;

/// The most request connections at once.
pub const TOTAL: usize = 256;

/// The most event streams of one game at once.
pub const STREAMS_PER_SESSION: usize = 4;

/// The most event streams of one client address at once.
pub const STREAMS_PER_CLIENT: usize = 32;

/// The most replays read at once, across all clients.
pub const REPLAYS_AT_ONCE: usize = 2;

/// The most replays waiting for their turn.
pub const REPLAYS_WAITING: usize = 8;

/// The longest a replay waits for its turn.
const REPLAY_WAIT: Duration = Duration::from_secs(30);

/// The server's replays: a counting gate, at most [`REPLAYS_AT_ONCE`]
/// inside, [`REPLAYS_WAITING`] in its queue.
#[derive(Default)]
pub struct ReplayGate {
    /// (inside, waiting).
    count: Mutex<(usize, usize)>,
    freed: Condvar,
}

impl ReplayGate {
    fn lock(&self) -> MutexGuard<'_, (usize, usize)> {
        self.count.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `work` when its turn comes, or refuses at once when the queue
    /// is full (or after [`REPLAY_WAIT`] without a turn).
    pub fn run<T>(&self, work: impl FnOnce() -> T) -> Result<T, Busy> {
        let mut c = self.lock();
        if c.0 >= REPLAYS_AT_ONCE {
            if c.1 >= REPLAYS_WAITING {
                return Err(Busy(format!(
                    "too many replays at once ({REPLAYS_AT_ONCE} read, {REPLAYS_WAITING} waiting): \
                     try again in a moment"
                )));
            }
            c.1 += 1;
            let deadline = Instant::now() + REPLAY_WAIT;
            while c.0 >= REPLAYS_AT_ONCE {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    c.1 -= 1;
                    return Err(Busy("the replays before this one took too long".into()));
                }
                c = match self.freed.wait_timeout(c, left) {
                    Ok((g, _)) => g,
                    Err(e) => e.into_inner().0,
                };
            }
            c.1 -= 1;
        }
        c.0 += 1;
        drop(c);
        // The place is given back however `work` ends.
        struct Leave<'a>(&'a ReplayGate);
        impl Drop for Leave<'_> {
            fn drop(&mut self) {
                self.0.lock().0 -= 1;
                self.0.freed.notify_one();
            }
        }
        let _leave = Leave(self);
        Ok(work())
    }
}

/// What a connection is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Phase {
    /// Waiting on its peer: reading the request or writing the reply.
    Waiting,
    /// The server works for it (a route, a new game).
    Working,
    /// An event stream of a session.
    Stream(String),
}

struct Conn {
    ip: IpAddr,
    since: Instant,
    phase: Phase,
    /// A handle to close it with when it is shed.
    socket: TcpStream,
}

#[derive(Default)]
struct Table {
    next: u64,
    conns: HashMap<u64, Conn>,
}

impl Table {
    /// The oldest connection among `candidates` that is waiting on its
    /// peer.
    fn oldest_waiting(&self, of: impl Fn(&Conn) -> bool) -> Option<u64> {
        self.conns
            .iter()
            .filter(|(_, c)| c.phase == Phase::Waiting && of(c))
            .min_by_key(|(id, c)| (c.since, **id))
            .map(|(id, _)| *id)
    }

    /// Closes and forgets connection `id`.
    fn shed(&mut self, id: u64) {
        if let Some(c) = self.conns.remove(&id) {
            let _ = c.socket.shutdown(Shutdown::Both);
        }
    }

    fn requests(&self, of: impl Fn(&Conn) -> bool) -> usize {
        self.conns
            .values()
            .filter(|c| !matches!(c.phase, Phase::Stream(_)) && of(c))
            .count()
    }

    /// Makes room for one request in the budget `cap` of the connections
    /// `of` selects: true if there is room (after shedding the oldest
    /// waiting one if need be).
    fn room(&mut self, cap: usize, of: impl Fn(&Conn) -> bool + Copy) -> bool {
        if self.requests(of) < cap {
            return true;
        }
        match self.oldest_waiting(of) {
            Some(id) => {
                self.shed(id);
                true
            }
            None => false,
        }
    }
}

/// Why a connection or stream was refused: answered `503` with this
/// message.
#[derive(Debug)]
pub struct Busy(pub String);

/// The connection table of a server.
#[derive(Default)]
pub struct Limits {
    table: Mutex<Table>,
}

/// One admitted connection: its entry in the table, removed when the
/// ticket is dropped.
pub struct Ticket {
    limits: Arc<Limits>,
    id: u64,
}

impl Limits {
    fn lock(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Admits a new connection from `ip`, shedding the oldest waiting one
    /// of its client, or of all, when a budget is full.
    pub fn admit(self: &Arc<Self>, stream: &TcpStream, ip: IpAddr) -> Result<Ticket, Busy> {
        let socket = stream
            .try_clone()
            .map_err(|e| Busy(format!("cannot keep the connection: {e}")))?;
        let mut table = self.lock();
        if !table.room(PER_CLIENT, |c| c.ip == ip) {
            return Err(Busy(format!(
                "too many requests from {ip} at once ({PER_CLIENT})"
            )));
        }
        if !table.room(TOTAL, |_| true) {
            return Err(Busy(format!("too many requests at once ({TOTAL})")));
        }
        table.next += 1;
        let id = table.next;
        table.conns.insert(
            id,
            Conn {
                ip,
                since: Instant::now(),
                phase: Phase::Waiting,
                socket,
            },
        );
        Ok(Ticket {
            limits: Arc::clone(self),
            id,
        })
    }

    /// How many connections are registered: requests and streams.
    pub fn counts(&self) -> (usize, usize) {
        let table = self.lock();
        let requests = table.requests(|_| true);
        (requests, table.conns.len() - requests)
    }
}

impl Ticket {
    fn set(&self, phase: Phase) {
        if let Some(c) = self.limits.lock().conns.get_mut(&self.id) {
            c.phase = phase;
        }
    }

    /// Runs `work` for the connection, which is not shed meanwhile; then
    /// it waits on its peer again (the reply is written).
    pub fn working<T>(&self, work: impl FnOnce() -> T) -> T {
        self.set(Phase::Working);
        let out = work();
        self.set(Phase::Waiting);
        out
    }

    /// Makes the connection an event stream of `session`, in the streams'
    /// budget: the oldest stream of the session is closed beyond
    /// [`STREAMS_PER_SESSION`]; beyond [`STREAMS_PER_CLIENT`] of one
    /// address the stream is refused.
    pub fn stream(&self, session: &str) -> Result<(), Busy> {
        let mut table = self.limits.lock();
        let Some(ip) = table.conns.get(&self.id).map(|c| c.ip) else {
            return Err(Busy("the connection was closed".into()));
        };
        let is_stream = |c: &Conn| matches!(c.phase, Phase::Stream(_));
        let of_client = table
            .conns
            .values()
            .filter(|c| c.ip == ip && is_stream(c))
            .count();
        if of_client >= STREAMS_PER_CLIENT {
            return Err(Busy(format!(
                "too many event streams from {ip} ({STREAMS_PER_CLIENT})"
            )));
        }
        let mut same: Vec<(Instant, u64)> = table
            .conns
            .iter()
            .filter(|(_, c)| c.phase == Phase::Stream(session.to_string()))
            .map(|(id, c)| (c.since, *id))
            .collect();
        same.sort();
        let excess = (same.len() + 1).saturating_sub(STREAMS_PER_SESSION);
        for &(_, id) in same.iter().take(excess) {
            table.shed(id);
        }
        if let Some(c) = table.conns.get_mut(&self.id) {
            c.phase = Phase::Stream(session.to_string());
            c.since = Instant::now();
        }
        Ok(())
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.limits.lock().conns.remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{Ipv4Addr, TcpListener};

    /// A connected pair: the server's side and the client's.
    fn pair(listener: &TcpListener) -> (TcpStream, TcpStream) {
        let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        (server, client)
    }

    /// A listener on loopback, fresh limits, and the address its clients
    /// come from.
    fn loopback_server() -> (TcpListener, Arc<Limits>, IpAddr) {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        (
            listener,
            Arc::new(Limits::default()),
            IpAddr::V4(Ipv4Addr::LOCALHOST),
        )
    }

    #[test]
    fn a_full_budget_sheds_the_oldest_waiting_connection_never_a_working_one() {
        let (listener, limits, ip) = loopback_server();
        let mut held = Vec::new();
        for _ in 0..PER_CLIENT {
            let (s, c) = pair(&listener);
            held.push((limits.admit(&s, ip).unwrap(), s, c));
        }
        assert_eq!(limits.counts(), (PER_CLIENT, 0));
        // One more: the oldest waiting one goes.
        let (s, _c) = pair(&listener);
        let newest = limits.admit(&s, ip).unwrap();
        assert_eq!(limits.counts(), (PER_CLIENT, 0));
        let mut buf = [0u8; 1];
        use std::io::Read;
        assert_eq!((&held[0].2).read(&mut buf).unwrap_or(0), 0, "shed");
        // When all are worked for, a newcomer is refused.
        for (t, _, _) in held.iter().skip(1) {
            t.set(Phase::Working);
        }
        newest.set(Phase::Working);
        let (s, _c) = pair(&listener);
        let refused = limits.admit(&s, ip).is_err();
        assert!(refused);
        drop(held);
        drop(newest);
        assert_eq!(limits.counts(), (0, 0));
    }

    #[test]
    fn replays_beyond_the_gate_wait_and_beyond_the_queue_are_refused() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let gate = Arc::new(ReplayGate::default());
        let inside = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
        let release_rx = Arc::new(Mutex::new(release_rx));
        let n = REPLAYS_AT_ONCE + REPLAYS_WAITING;
        let threads: Vec<_> = (0..n)
            .map(|_| {
                let (gate, inside, most, rx) = (
                    Arc::clone(&gate),
                    Arc::clone(&inside),
                    Arc::clone(&most),
                    Arc::clone(&release_rx),
                );
                std::thread::spawn(move || {
                    gate.run(|| {
                        let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        let _ = rx.lock().unwrap().recv();
                        inside.fetch_sub(1, Ordering::SeqCst);
                    })
                    .is_ok()
                })
            })
            .collect();
        // Wait until the gate is full and its queue too.
        let deadline = Instant::now() + Duration::from_secs(20);
        while *gate.lock() != (REPLAYS_AT_ONCE, REPLAYS_WAITING) {
            assert!(Instant::now() < deadline, "{:?}", *gate.lock());
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(gate.run(|| ()).is_err(), "one more is refused at once");
        for _ in 0..n {
            release_tx.send(()).unwrap();
        }
        assert!(threads.into_iter().all(|t| t.join().unwrap()));
        assert_eq!(most.load(Ordering::SeqCst), REPLAYS_AT_ONCE);
        assert_eq!(*gate.lock(), (0, 0));
    }

    #[test]
    fn streams_have_their_own_budget() {
        let (listener, limits, ip) = loopback_server();
        let mut streams = Vec::new();
        for _ in 0..STREAMS_PER_SESSION + 2 {
            let (s, c) = pair(&listener);
            let t = limits.admit(&s, ip).unwrap();
            t.stream("a").unwrap();
            streams.push((t, s, c));
        }
        // The oldest of the session were closed: at most the budget left.
        assert_eq!(limits.counts(), (0, STREAMS_PER_SESSION));
        // Requests do not count streams.
        let (s, _c) = pair(&listener);
        let _t = limits.admit(&s, ip).unwrap();
        assert_eq!(limits.counts(), (1, STREAMS_PER_SESSION));
        // Per client, beyond the budget (the session's streams count):
        // refused.
        let mut more = Vec::new();
        for k in 0..STREAMS_PER_CLIENT {
            let (s, c) = pair(&listener);
            let t = limits.admit(&s, ip).unwrap();
            let ok = t.stream(&format!("s{k}")).is_ok();
            more.push((t, s, c, ok));
        }
        let refused = more.iter().filter(|m| !m.3).count();
        assert_eq!(refused, STREAMS_PER_SESSION);
    }
}
