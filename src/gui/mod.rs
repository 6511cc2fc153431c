//! `tabula gui`: a person plays any of the games against engine
//! processes, in a browser.
//!
//! A small HTTP server (loopback by default) serves one page (HTML, CSS
//! and JavaScript compiled into the binary) and a little API. Each page
//! gets its own session: a referee thread that runs the arena's game loop
//! ([`crate::arena::run::play::play_game_with`]) between engine processes, with
//! the person's seat played from the page, and a stream of server-sent
//! events that show only what the person's seat may see. The engines are
//! fixed when the server starts; the page chooses among them, their search
//! and a bounded move time.

pub mod access;
mod advisor;
mod budget;
mod error;
pub mod http;
pub mod limits;
mod page_game;
pub mod replay;
pub mod view;

use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use rand::RngCore;

pub use self::error::PageError;
use self::http::{HttpRequest, Response};
use self::page_game::{GameConfig, PageGame, SeatEngine};
use crate::arena::EngineWords;
use crate::arena::config::spec::{EngineSpec, Proto};
use crate::engine::searchers;
use crate::engine::settings::{SearchKind, Settings};
use crate::games::GameVisitor;
use crate::model::game::Game;
use crate::model::options::{OptionKind, OptionSpec, Options};

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE_CSS: &str = include_str!("assets/style.css");
const FAVICON_SVG: &str = include_str!("assets/favicon.svg");

/// The command line of `tabula gui`.
#[derive(Clone, Debug, clap::Args)]
#[command(mut_arg("engine", |a| a.help(
    "An engine the page may offer, as KEY=VALUE words: cmd=COMMAND (required), name=, \
     proto=tabula|gtp, set.KEY=VALUE, init=LINE, dir=, stderr=. Repeat for each engine \
     (default: this tabula). The page chooses the search and the time per move"
)))]
pub struct GuiArgs {
    /// The port (0: any free one). The URL is printed on stdout.
    #[arg(long, default_value_t = 8099)]
    pub port: u16,
    /// Listen on this address instead of 127.0.0.1. Anyone who can reach
    /// it can then start engine processes here: trusted networks only.
    #[arg(long, value_name = "ADDRESS")]
    pub listen: Option<IpAddr>,
    /// A host name the page may be opened by besides IP addresses and
    /// localhost (repeatable): a name that resolves to this machine on
    /// your network. Other names are refused (DNS rebinding).
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// The engines the page may choose from (`--engine cmd=... name=...`,
    /// as `tabula match` takes them; repeatable). Default: this tabula.
    #[command(flatten)]
    pub engines: EngineWords,
    /// The longest move time the page may give an engine, in ms.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub max_movetime: u64,
    /// The most games at once (each runs its own engine processes).
    #[arg(long, default_value_t = 8)]
    pub max_games: usize,
    /// The most games of one client address at once (at most
    /// --max-games). A game whose page left gives its place up to a new
    /// one when a budget is full.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub max_games_per_client: usize,
    /// How long a game is kept after its page closed, in seconds: a
    /// reload, or the game's URL in another tab, resumes it meanwhile.
    #[arg(long, value_name = "SECONDS", default_value_t = 600)]
    pub keep: u64,
    /// How long past its move time an engine is waited for before it is
    /// taken for hung and forfeited, in ms. On a busy machine an engine
    /// is late: the page waits for it (and says so).
    #[arg(long, value_name = "MS", default_value_t = 60_000)]
    pub timemargin: u64,
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct GuiError(pub String);

/// How long a new session waits for its page to connect.
const FIRST_CONNECT: Duration = Duration::from_secs(15);

/// The searches that play a game, asked of the engine: the game's
/// default player first (`default`: no search is set, so the engine plays
/// its tuned default, e.g. Othello's alpha-beta with its endgame solver),
/// then every search of the engine's registry that fits the game type and
/// its number of seats (but the exact solver, `solve`).
#[derive(serde::Serialize, PartialEq)]
struct Searches {
    /// The search the engine plays this game with when none is set.
    default: String,
    /// Every search that plays it, `default` first.
    offered: Vec<String>,
}

/// The registry's visitor that lists the searches that fit a game.
pub(crate) struct Fits;
impl GameVisitor for Fits {
    type Output = Vec<SearchKind>;
    fn visit<G: Game>(self, options: &Options) -> Vec<SearchKind> {
        let seats = G::new_game(options).map_or(2, |g| g.num_seats());
        // `solve` is the exact solver, a tool rather than a
        // player (where it cannot solve it plays the rule move).
        SearchKind::ALL
            .into_iter()
            .filter(|&k| k != SearchKind::Solve)
            .filter(|&k| {
                let settings = Settings {
                    search: k,
                    ..Settings::default()
                };
                searchers::search_fits::<G>(&settings, seats).is_ok()
            })
            .collect()
    }
}

/// The registry's visitor that counts a game's seats.
pub(crate) struct SeatCount;

impl GameVisitor for SeatCount {
    type Output = usize;
    fn visit<G: Game>(self, options: &Options) -> usize {
        G::new_game(options).map_or(0, |g| g.num_seats())
    }
}

impl Searches {
    /// The searches for game `name` with option words `words`.
    fn of(name: &str, words: &[String]) -> Result<Searches, PageError> {
        let entry =
            crate::games::find(name).ok_or_else(|| PageError::NotRegistered(name.to_string()))?;
        let seats = entry.visit(words, SeatCount)?;
        let fits = entry.visit(words, Fits)?;
        let default = Settings::for_game(entry.name, seats, &[]).search;
        let mut offered = vec!["default".to_string()];
        offered.extend(fits.iter().map(|k| k.name().to_string()));
        Ok(Searches {
            default: default.name().to_string(),
            offered,
        })
    }
}

/// A game as the page lists it ([`listed_games`]).
#[derive(serde::Serialize)]
struct ListedGame {
    name: &'static str,
    /// Its first GTP name.
    title: &'static str,
    summary: &'static str,
    /// Whether it has perfect information (a person may watch, and undo).
    perfect: bool,
    /// The options a page may set.
    options: Vec<ListedOption>,
    /// The numbers of players it allows, the default first.
    players: Vec<usize>,
    /// Its seats' names for each number of players.
    seats: Vec<Vec<String>>,
}

/// One option a page may set: `{"name", "kind": int|bool|choice|text,
/// "min", "max" (int), "choices" (choice), "default", "help"}`.
#[derive(serde::Serialize)]
struct ListedOption {
    name: &'static str,
    #[serde(flatten)]
    kind: ListedKind,
    default: &'static str,
    help: &'static str,
}

/// An option's kind, with its range or choices.
#[derive(serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum ListedKind {
    Int { min: i64, max: i64 },
    Bool,
    Choice { choices: &'static [&'static str] },
    Text,
}

impl ListedOption {
    fn of(spec: &OptionSpec) -> ListedOption {
        ListedOption {
            name: spec.name,
            kind: match spec.kind {
                OptionKind::Int { min, max } => ListedKind::Int { min, max },
                OptionKind::Bool => ListedKind::Bool,
                OptionKind::Choice(choices) => ListedKind::Choice { choices },
                OptionKind::Text => ListedKind::Text,
            },
            default: spec.default,
            help: spec.help,
        }
    }
}

/// The registry's games as the page lists them, in the registry's order:
/// each game's name, title (its first GTP name), one-line summary, whether
/// it has perfect information (a person may watch, and undo), the options
/// a page may set (each with its kind, range or choices and default), and
/// its seats' names for each number of players it allows (the default
/// first). The page draws its tabs, its option choices and its seat lists
/// from this, so a game added to the registry is offered with no edit to
/// the page.
fn listed_games() -> Vec<ListedGame> {
    crate::games::all()
        .into_iter()
        .filter_map(|entry| {
            let has_players = entry.options.iter().any(|o| o.name == "players");
            let mut players = Vec::new();
            let mut seats = Vec::new();
            for n in entry.player_counts() {
                let words = if has_players {
                    vec![format!("players={n}")]
                } else {
                    Vec::new()
                };
                if let Ok(m) = view::mirror(entry.name, &words, None, true) {
                    players.push(n);
                    seats.push(m.seat_names());
                }
            }
            // A game the registry cannot set up with its defaults is not
            // offered.
            let traits = entry.traits::<&str>(&[]).ok()?;
            Some(ListedGame {
                name: entry.name,
                title: entry.gtp_names.first().copied().unwrap_or(entry.name),
                summary: entry.summary,
                perfect: traits.perfect_information,
                options: entry
                    .options
                    .iter()
                    .filter(|o| entry.page_options.contains(&o.name))
                    .map(ListedOption::of)
                    .collect(),
                players,
                seats,
            })
        })
        .collect()
}

/// The registry's visitor that reads the page scripts a game type
/// declares in its pictures.
pub(crate) struct PageScripts;

impl GameVisitor for PageScripts {
    type Output = &'static [&'static str];
    fn visit<G: Game>(self, _options: &Options) -> &'static [&'static str] {
        crate::games::extras::<G>().pictures.scripts
    }
}

/// The page scripts of every game the registry serves (`/games.js`),
/// each once, in the registry's order, each game's in the order it lists
/// them: the code that draws each game's picture, which the page's shell
/// (app.js) calls by the picture's `kind`. A game whose type depends on
/// its number of players (Quoridor) is asked for each.
fn games_script() -> String {
    let mut scripts: Vec<&'static str> = Vec::new();
    for entry in crate::games::all() {
        let mut words = vec![Vec::new()];
        if entry.options.iter().any(|o| o.name == "players") {
            words.extend(
                entry
                    .player_counts()
                    .into_iter()
                    .map(|n| vec![format!("players={n}")]),
            );
        }
        for w in &words {
            let Ok(listed) = entry.visit(&w[..], PageScripts) else {
                continue;
            };
            for &script in listed {
                if !scripts.contains(&script) {
                    scripts.push(script);
                }
            }
        }
    }
    scripts.join("\n")
}

/// What the page sets its choices up from (`/api/setup`).
#[derive(serde::Serialize)]
struct Setup<'a> {
    games: Vec<ListedGame>,
    /// The engines a seat may be given.
    engines: Vec<&'a str>,
    /// The longest move time a page may ask for, in milliseconds.
    max_movetime: u64,
    /// The searches offered by game ([`searches_by_game`]).
    #[serde(serialize_with = "crate::json::ordered_map")]
    searches: Vec<(String, Searches)>,
}

/// The searches offered for each game, and for each number of players
/// where the searches differ with it (4-player Quoridor is not
/// zero-sum): keyed by the game's name, and by its name with the number
/// of players.
fn searches_by_game() -> Vec<(String, Searches)> {
    let mut by_game = Vec::new();
    for entry in crate::games::all() {
        let mut first: Option<usize> = None;
        for n in entry.player_counts() {
            let words = match first {
                None => vec![],
                Some(_) => vec![format!("players={n}")],
            };
            let Ok(searches) = Searches::of(entry.name, &words) else {
                continue;
            };
            match first {
                None => {
                    first = Some(by_game.len());
                    by_game.push((entry.name.to_string(), searches));
                }
                Some(f) if by_game[f].1 != searches => {
                    by_game.push((format!("{}{n}", entry.name), searches));
                }
                Some(_) => {}
            }
        }
    }
    by_game
}

/// The reply to a request that changed nothing else to say: `{"ok":
/// true}`, with the analysis toggle's new state where it was that.
#[derive(serde::Serialize)]
struct Done {
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    on: Option<bool>,
}

/// The reply to `/api/new`: the new session's id.
#[derive(serde::Serialize)]
struct NewSession<'a> {
    session: &'a str,
}

/// The most bytes of one replay reply (a long game is sent in windows of
/// steps; the page asks for the next window when it gets there).
const MAX_REPLY: usize = 256 * 1024;

/// The server: its socket, the engines it may start, the sessions.
pub struct Server {
    listener: TcpListener,
    addr: SocketAddr,
    access: access::Access,
    engines: Vec<EngineSpec>,
    max_movetime: u64,
    games: budget::GameBudget,
    /// How long a game is kept after its page closed (`--keep`).
    keep: Duration,
    /// How long past its move time an engine is waited for
    /// (`--timemargin`).
    grace: Duration,
    stop: Arc<AtomicBool>,
    limits: Arc<limits::Limits>,
    replays: limits::ReplayGate,
}

impl Server {
    /// Binds the socket and reads the engines.
    pub fn bind(args: &GuiArgs) -> Result<Arc<Server>, GuiError> {
        let ip = args.listen.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
        let listener = TcpListener::bind((ip, args.port))
            .map_err(|e| GuiError(format!("cannot listen on {ip}:{}: {e}", args.port)))?;
        let addr = listener.local_addr().map_err(|e| GuiError(e.to_string()))?;
        let mut engines = Vec::new();
        if args.engines.0.is_empty() {
            let exe = std::env::current_exe()
                .map_err(|e| GuiError(format!("cannot find this program: {e}")))?;
            let words = [format!("cmd={}", exe.display()), "name=tabula".to_string()];
            engines.push(EngineSpec::parse::<String>(&[], &words).map_err(|e| GuiError(e.0))?);
        }
        for words in &args.engines.0 {
            let mut spec = EngineSpec::parse::<String>(&[], words).map_err(|e| GuiError(e.0))?;
            if spec.name.is_empty() {
                spec.name = spec.default_name();
            }
            engines.push(spec);
        }
        crate::arena::config::spec::settle_names(&mut engines);
        Ok(Arc::new(Server {
            listener,
            addr,
            access: access::Access::new(ip, addr.port(), &args.allow_host)
                .map_err(|e| GuiError(e.to_string()))?,
            engines,
            max_movetime: args.max_movetime.max(10),
            games: budget::GameBudget::new(args.max_games, args.max_games_per_client),
            keep: Duration::from_secs(args.keep),
            grace: Duration::from_millis(args.timemargin),
            stop: Arc::new(AtomicBool::new(false)),
            limits: Arc::default(),
            replays: limits::ReplayGate::default(),
        }))
    }

    /// The page's address (with the token a non-loopback server needs).
    pub fn url(&self) -> String {
        self.access.url(&self.addr.to_string())
    }

    /// The flag that stops [`Server::serve`].
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Serves until the stop flag is set, then closes every session and
    /// waits (a few seconds at most) for their engines to end.
    pub fn serve(self: &Arc<Self>) {
        if let Err(e) = self.listener.set_nonblocking(true) {
            log::error!("cannot poll the socket: {e}");
        }
        let reaper = {
            let server = Arc::clone(self);
            thread::spawn(move || server.reap())
        };
        while !self.stop.load(Ordering::Relaxed) {
            match self.listener.accept() {
                Ok((mut stream, peer)) => {
                    // The connection table sheds idle clients first.
                    let ticket = match self.limits.admit(&stream, peer.ip()) {
                        Ok(t) => t,
                        Err(busy) => {
                            let _ = stream.set_nonblocking(true);
                            let _ = Response::error(503, &busy.0).send(&mut stream);
                            continue;
                        }
                    };
                    let server = Arc::clone(self);
                    let _ = thread::Builder::new()
                        .name("gui connection".to_string())
                        .spawn(move || server.connection(stream, ticket, peer.ip()));
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    thread::sleep(Duration::from_millis(20));
                }
                Err(e) => {
                    log::warn!("accept: {e}");
                    thread::sleep(Duration::from_millis(50));
                }
            }
        }
        let _ = reaper.join();
        let all = self.games.drain();
        for s in &all {
            s.close();
        }
        // The referee threads end after the step under way (an engine's
        // move is bounded by --max-movetime) and quit their engines.
        let deadline =
            Instant::now() + Duration::from_millis(self.max_movetime) + Duration::from_secs(3);
        while Instant::now() < deadline && !all.iter().all(|s| s.lock().ended) {
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Ends the games that are done with (closed, or left for longer
    /// than `--keep`), and tells pages whose engine is late.
    fn reap(&self) {
        while !self.stop.load(Ordering::Relaxed) {
            thread::sleep(Duration::from_millis(200));
            for s in self.games.sweep(FIRST_CONNECT, self.keep) {
                s.close();
            }
            for s in self.games.all() {
                s.watch_late();
            }
        }
    }

    fn connection(&self, mut stream: TcpStream, ticket: limits::Ticket, client: IpAddr) {
        let request = match http::read_request(&stream) {
            Ok(r) => r,
            Err(e) => {
                let _ = Response::error(400, &e.0).send(&mut stream);
                return;
            }
        };
        match self.access.check(&request) {
            Ok(()) => {}
            Err(refused) => {
                let _ = Response::error(403, &refused.to_string()).send(&mut stream);
                return;
            }
        };
        if request.path == "/api/events" {
            // Streams have their own budget (limits.rs).
            if let Err(busy) = ticket.stream(request.param("s").unwrap_or("")) {
                let _ = Response::error(503, &busy.0).send(&mut stream);
                return;
            }
            self.events(&request, stream);
            return;
        }
        let response = ticket.working(|| self.route(&request, client));
        let _ = response.send(&mut stream);
    }

    fn session(&self, request: &HttpRequest) -> Result<Arc<PageGame>, Response> {
        let id = request
            .param("s")
            .ok_or_else(|| Response::error(400, "no session given"))?;
        self.games
            .get(id)
            .ok_or_else(|| Response::error(404, "no such game (it may have ended)"))
    }

    fn route(&self, request: &HttpRequest, client: IpAddr) -> Response {
        let post = request.method == "POST";
        match (request.method.as_str(), request.path.as_str()) {
            ("GET", "/") | ("GET", "/index.html") => {
                Response::new(200, "text/html; charset=utf-8", INDEX_HTML)
            }
            ("GET", "/app.js") => Response::new(200, "text/javascript; charset=utf-8", APP_JS),
            ("GET", "/games.js") => {
                Response::new(200, "text/javascript; charset=utf-8", games_script())
            }
            ("GET", "/style.css") => Response::new(200, "text/css; charset=utf-8", STYLE_CSS),
            ("GET", "/favicon.ico") | ("GET", "/favicon.svg") => {
                Response::new(200, "image/svg+xml", FAVICON_SVG)
            }
            ("GET", "/api/setup") => Response::json(self.setup_json()),
            (_, "/api/new") if post => match self.new_session(request, client) {
                Ok(id) => Response::json(crate::json::to_string(&NewSession { session: &id })),
                Err(e) => Response::error(400, &e.to_string()),
            },
            ("GET", "/api/game") => match self.session(request) {
                Ok(s) => Response::json(s.summary_json()),
                Err(r) => r,
            },
            (_, "/api/move") if post => {
                let session = match self.session(request) {
                    Ok(s) => s,
                    Err(r) => return r,
                };
                let Some(mv) = request.param("move") else {
                    return Response::error(400, "no move given");
                };
                if mv.len() > 64 {
                    return Response::error(400, "a move is one short word");
                }
                match session.play(mv) {
                    Ok(()) => Response::json(crate::json::to_string(&Done { ok: true, on: None })),
                    Err(e) => Response::error(409, &e.to_string()),
                }
            }
            (_, "/api/undo") if post => match self.session(request) {
                Ok(s) => match s.undo() {
                    Ok(()) => Response::json(crate::json::to_string(&Done { ok: true, on: None })),
                    Err(e) => Response::error(409, &e.to_string()),
                },
                Err(r) => r,
            },
            (_, "/api/analysis") if post => match self.session(request) {
                Ok(s) => {
                    let on = request.param("on") == Some("1");
                    s.lock().analysis = on;
                    Response::json(crate::json::to_string(&Done {
                        ok: true,
                        on: Some(on),
                    }))
                }
                Err(r) => r,
            },
            (_, "/api/close") if post => match self.session(request) {
                Ok(s) => {
                    s.close();
                    Response::json(crate::json::to_string(&Done { ok: true, on: None }))
                }
                Err(r) => r,
            },
            ("GET", "/api/record") => match self.session(request) {
                Ok(s) => {
                    let text = s.lock().record.clone();
                    if text.is_empty() {
                        return Response::error(404, "no game has ended yet");
                    }
                    let mut r = Response::new(200, "text/plain; charset=utf-8", text);
                    r.headers.push(
                        "Content-Disposition: attachment; filename=\"tabula-game.txt\"".to_string(),
                    );
                    r
                }
                Err(r) => r,
            },
            (_, "/api/replay") if post => {
                let text = String::from_utf8_lossy(&request.body);
                let game = request
                    .param("game")
                    .and_then(|g| g.parse::<usize>().ok())
                    .unwrap_or(1);
                let from = request
                    .param("from")
                    .and_then(|g| g.parse::<usize>().ok())
                    .unwrap_or(0);
                match self
                    .replays
                    .run(|| replay::replay_window(&text, game, from, MAX_REPLY))
                {
                    Ok(Ok(j)) => Response::json(j),
                    Ok(Err(e)) => Response::error(400, &e.to_string()),
                    Err(busy) => Response::error(503, &busy.0),
                }
            }
            (_, p) if p.starts_with("/api/") => {
                Response::error(405, "unknown request or wrong method")
            }
            _ => Response::error(404, "not found"),
        }
    }

    fn setup_json(&self) -> String {
        crate::json::to_string(&Setup {
            games: listed_games(),
            engines: self.engines.iter().map(|e| e.name.as_str()).collect(),
            max_movetime: self.max_movetime,
            searches: searches_by_game(),
        })
    }

    /// Reads the page's choices and starts a session for `client`, in a
    /// place of the budget reserved before anything starts.
    fn new_session(&self, request: &HttpRequest, client: IpAddr) -> Result<String, PageError> {
        let place = self.games.reserve(client)?;
        let game = request.param("game").unwrap_or("").to_ascii_lowercase();
        let entry = crate::games::find(&game).ok_or(PageError::UnknownGame(game))?;
        let game = entry.name.to_string();
        let allowed = entry.page_options;
        let mut words = Vec::new();
        for (k, v) in &request.query {
            if k != "opt" || v.is_empty() {
                continue;
            }
            let key = v.split('=').next().unwrap_or("");
            if !v.contains('=') || !allowed.contains(&key) {
                return Err(PageError::OptionNotOffered {
                    word: v.clone(),
                    offered: allowed,
                });
            }
            words.push(v.clone());
        }
        let prototype = crate::arena::referee_by_name(&game, &words).map_err(PageError::Setup)?;
        let seats = prototype.num_seats();
        let human = match request.param("you").unwrap_or("0") {
            "none" => None,
            s => Some(
                s.parse::<usize>()
                    .ok()
                    .filter(|&s| s < seats)
                    .ok_or(PageError::BadSeat { seats })?,
            ),
        };
        let searches = Searches::of(&game, &words)?;
        let mut seat_engines = Vec::new();
        for s in 0..seats {
            if Some(s) == human {
                seat_engines.push(None);
                continue;
            }
            seat_engines.push(Some(self.seat_engine(request, s, &game, &searches)?));
        }
        // The analysis plays the engine's own player for the game: its
        // default search (Othello's alpha-beta with the endgame solver).
        let advisor = (request.param("advisor") != Some("0"))
            .then(|| {
                self.engines
                    .iter()
                    .find(|e| e.proto == Proto::Tabula)
                    .cloned()
            })
            .flatten();
        // The person's name in the record: a short line of text.
        let human_name: String = request
            .param("name")
            .unwrap_or("")
            .chars()
            .filter(|c| !c.is_control())
            .take(40)
            .collect();
        let human_name = match human_name.trim() {
            "" => "you".to_string(),
            n => n.to_string(),
        };
        let config = GameConfig {
            game,
            words,
            human,
            seats: seat_engines,
            advisor,
            human_name,
            grace: self.grace,
        };
        // 64 bits of the system's entropy: the engines' seeds are derived
        // from it one way by the runner, so none of them tells the deals.
        let session = PageGame::start(config, rand::rngs::OsRng.next_u64())?;
        Ok(self.games.admit(place, client, session))
    }

    /// The engine the page chose for seat `s` of `game`: the server's
    /// engine `engine{s}` with search `search{s}` and move time `ms{s}`
    /// (GTP engines: whole seconds).
    fn seat_engine(
        &self,
        request: &HttpRequest,
        s: usize,
        game: &str,
        searches: &Searches,
    ) -> Result<SeatEngine, PageError> {
        let engine = request
            .param(&format!("engine{s}"))
            .unwrap_or("0")
            .parse::<usize>()
            .ok()
            .filter(|&e| e < self.engines.len())
            .ok_or(PageError::BadEngine {
                seat: s,
                engines: self.engines.len(),
            })?;
        let search = request.param(&format!("search{s}")).unwrap_or("default");
        if !searches.offered.iter().any(|o| o == search) {
            return Err(PageError::SearchNotOffered {
                search: search.to_string(),
                game: game.to_string(),
                offered: searches.offered.clone(),
            });
        }
        let ms = request
            .param(&format!("ms{s}"))
            .unwrap_or("1000")
            .parse::<u64>()
            .ok()
            .filter(|&ms| (10..=self.max_movetime).contains(&ms))
            .ok_or(PageError::BadMoveTime {
                most: self.max_movetime,
            })?;
        let mut spec = self.engines[engine].clone();
        let label = match spec.proto {
            Proto::Tabula => {
                // `default` sets nothing: the engine's own player for
                // the game (its search and what goes with it).
                let shown = if search == "default" {
                    searches.default.as_str()
                } else {
                    spec.init.push(format!("set search {search}"));
                    search
                };
                spec.limits.movetime = Some(ms);
                format!("{} {shown} {ms} ms", spec.name)
            }
            Proto::Gtp => {
                // GTP time is in whole seconds: rounded up, but never
                // past the server's --max-movetime (rounded down).
                let most = self.max_movetime / 1000 * 1000;
                if most == 0 {
                    return Err(PageError::WholeSeconds {
                        engine: spec.name.clone(),
                        most: self.max_movetime,
                    });
                }
                let ms = (ms.div_ceil(1000) * 1000).min(most);
                spec.limits.movetime = Some(ms);
                format!("{} {} s", spec.name, ms / 1000)
            }
        };
        Ok(SeatEngine { spec, label })
    }

    /// The event stream of a session: every event so far, then each new
    /// one; a ping every second finds out when the page is gone.
    fn events(&self, request: &HttpRequest, mut stream: TcpStream) {
        let session = match self.session(request) {
            Ok(s) => s,
            Err(r) => {
                let _ = r.send(&mut stream);
                return;
            }
        };
        if http::start_events(&mut stream).is_err() || http::watch_for_close(&stream).is_err() {
            return;
        }
        let _ = http::send_event(&mut stream, "{\"type\":\"reset\"}");
        {
            let mut s = session.lock();
            s.streams += 1;
            s.connected_once = true;
        }
        let mut sent = 0;
        let mut last_ping = Instant::now();
        loop {
            let (new, closed) = {
                let mut s = session.lock();
                if s.events.len() <= sent && !s.ended && !self.stop.load(Ordering::Relaxed) {
                    s = session.wait(s, Duration::from_millis(500));
                }
                (
                    s.events[sent.min(s.events.len())..].to_vec(),
                    s.ended || self.stop.load(Ordering::Relaxed),
                )
            };
            sent += new.len();
            let mut ok = true;
            for e in &new {
                ok &= http::send_event(&mut stream, e).is_ok();
            }
            // A page that left is seen at once (its keep time starts),
            // not at the next write that fails.
            ok &= !http::peer_closed(&stream);
            if ok && last_ping.elapsed() >= Duration::from_millis(900) {
                ok = http::send_ping(&mut stream).is_ok();
                last_ping = Instant::now();
            }
            if !ok || closed {
                if closed && ok {
                    let _ = http::send_event(&mut stream, "{\"type\":\"closed\"}");
                }
                break;
            }
        }
        let mut s = session.lock();
        s.streams = s.streams.saturating_sub(1);
        s.last_seen = Instant::now();
    }
}

/// Runs `tabula gui`: serves until Ctrl-C or SIGTERM, then ends every
/// game and its engines.
pub fn run(args: &GuiArgs) -> Result<(), GuiError> {
    crate::arena::engines::stdio::ensure_open();
    let server = Server::bind(args)?;
    let stop = server.stop_flag();
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGINT, SIGTERM};
        for sig in [SIGINT, SIGTERM] {
            signal_hook::flag::register(sig, Arc::clone(&stop))
                .map_err(|e| GuiError(format!("cannot catch signals: {e}")))?;
        }
    }
    println!("tabula gui: open {}", server.url());
    let _ = std::io::Write::flush(&mut std::io::stdout());
    server.serve();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's setup data as it got it before serde: the games with
    /// their options and seats, and the searches offered for a game.
    #[test]
    fn setup_data_keeps_its_bytes() {
        let searches = ["othello", "quoridor", "hearts"]
            .map(|g| crate::json::to_string(&Searches::of(g, &[]).expect("searches")))
            .join("\n");
        crate::json::assert_pinned(
            "setup",
            &format!("{}\n{searches}", crate::json::to_string(&listed_games())),
        );
        assert_eq!(
            Response::error(409, "not \"now\" <x>").body,
            b"{\"error\":\"not \\\"now\\\" \\u003cx>\"}"
        );
    }
}
