// tabula's page: plain JavaScript, no build step. The server is the
// referee; this page shows what its seat may see and sends its clicks.
'use strict';

const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';

// What the browser tests read: click-to-answer times in milliseconds,
// the lines the seat was told this game, the replay's lines.
window.tabula = { latencies: [], events: 0, state: null, over: null, lines: [], ready: false, replayLines: [] };

let setup = null;        // the server's engines and searches
let session = null;      // this page's game
let source = null;       // its event stream
let generation = 0;      // the game this page shows (a newer one wins)
let st = null;           // the last state event
let prev = null;         // the state before it
let over = null;         // the over event
let values = {};         // analysis: move -> {score, margin, exact}
let analysisInfo = null; // the last analysis event
let lines = [];          // every line this seat was told this game
let summary = null;      // the last hand's summary (text lines), from the game's page
let sheetRows = [];      // score sheet rows, from the game's page
let pendingClick = null; // [time, move] of a move sent, until shown
let replay = null;       // a record being replayed
let queuedMove = null;   // a move chosen before the seat's turn came
let noticeTimer = null;

// The games come from the server (`/api/setup`, the registry's answers):
// each game's name, title, summary, the options a page may set, its seats'
// names for each number of players, and whether it has perfect
// information. How a game is drawn comes from the game too: the page
// scripts its pictures declare, which the server serves at /games.js
// (loaded after this shell) and which register here each game's page,
// keyed by its picture's kind (a game with a page of its own names it
// after itself, so its menu and tabs find it by its name too). This
// shell names no game; a game without a page of its own (a picture of
// kind `text`) is drawn by TEXT_PAGE, and a page takes from TEXT_PAGE
// every hook it does not define.
//
// A page's data and hooks (`view` is the game's picture):
//   options: the option choices the menu offers, [[key, label,
//     choices]] in its order (none: the options as the server describes
//     them); you: the seat offered to you first; short: a short tab
//     label; rules: the rules' paragraphs; sheetCaption: the score
//     sheet's caption;
//   draw(view, board): draws the picture into the board;
//   seatScore(view, i): seat i's score in its box;
//   resultScores(scores, winners, draw): the final scores, as the result
//     line adds them;
//   yourTurn(view, seatName): the status line on your turn;
//   waiting(view): the status line while others move, where the game
//     has its own (else null);
//   legend(view, info, box): the analysis legend (`info`: its depth and
//     time);
//   moveList(add): the told lines as the move list, `add(text, head)`;
//   stateCame(e, before): a new state came (before its lines are read);
//   told(line, words): one line this seat was told;
//   ended(): the game is over;
//   forget(everything): the game's lines start anew (a new game, an
//     undo); `everything`: the page opens another game, so what the
//     person was choosing goes too (asked of every page);
//   sidePanel(view): the side panel under the analysis legend.
const PAGES = {};

function registerPage(kind, page) {
  PAGES[kind] = Object.assign({}, TEXT_PAGE, page);
}

// The page of pictures of kind `kind` (a game's name: its page), or the
// text view's.
function pageOf(kind) {
  return PAGES[kind] || TEXT_PAGE;
}

// Every page forgets what it read of the game's lines.
function forgetPages(everything) {
  for (const page of Object.values(PAGES)) if (page.forget) page.forget(everything);
}

// The text view: the position as the game writes it, its moves as
// buttons, each told line in the move list.
const TEXT_PAGE = {
  draw: textGame,
  seatScore: () => '',
  resultScores: (sc) => '. ' + sc.map((s, i) => seatLabel(i) + ': ' + s).join(', '),
  yourTurn: () => 'Your move (' + seatLabel(st.you) + '): press one of the moves below.',
  waiting: () => null,
  sheetCaption: 'Score sheet',
  legend: (view, info, lg) => {
    const p = document.createElement('div');
    p.textContent = 'Numbers on the moves: your chance to win after each; green: the best' + info + '.';
    lg.appendChild(p);
  },
  moveList: (add) => {
    // Its lines as told, each move numbered.
    let k = 0;
    for (const l of lines) {
      const w = l.split(' ');
      const seat = st.seats.indexOf(w[1]);
      if (w[0] === 'play') add(++k + '. ' + (seat >= 0 ? seatLabel(seat) : w[1]) + ': ' + w.slice(2).join(' '));
      else add(l);
    }
  },
  sidePanel: () => { $('lasttrick').hidden = true; },
};

// The move list of a game of moves in turn: each round of the seats'
// moves numbered (`1. f5 d6`).
function movesInRounds(add) {
  const n = st.seats.length;
  let k = 0;
  let row = [];
  for (const l of lines) {
    const w = l.split(' ');
    if (w[0] !== 'play') continue;
    row.push(w[2]);
    if (row.length === n) { add(++k + '. ' + row.join(' ')); row = []; }
  }
  if (row.length) add(++k + '. ' + row.join(' '));
}

// The final scores with their unit (`. you 45 points, west 60 points`).
function scoreList(sc, one, many) {
  return '. ' + sc.map((s, i) => resultName(i) + ' ' + plural(s, one, many)).join(', ');
}

// Two sides' final scores, the winner's first (` 33-31`).
function scorePair(sc, winners, draw) {
  const first = draw || winners[0] === 0 ? 0 : 1;
  return ' ' + sc[first] + '-' + sc[1 - first];
}

// What the board's own marks mean (the analysis has its legend apart):
// each [class, words].
function boardMarks(keys) {
  const d = document.createElement('div');
  d.className = 'marks';
  d.id = 'marks';
  for (const [cls, text] of keys) { const k = document.createElement('span'); k.className = 'key ' + cls; d.append(k, text + '  '); }
  return d;
}

// What the server says of game `name` (null before it has said).
function gameInfo(name) {
  return ((setup && setup.games) || []).find((g) => g.name === name) || null;
}

function gameTitle(name) {
  const g = gameInfo(name);
  return g ? g.title : name;
}

function isPerfect(name) {
  const g = gameInfo(name);
  return !!(g && g.perfect);
}

// The seats' names of game `name` with options `o` (its number of
// players, else the default).
function seatNames(name, o) {
  const g = gameInfo(name);
  if (!g || g.players.length === 0) return [];
  const i = g.players.indexOf(+o.players);
  return g.seats[i >= 0 ? i : 0];
}

// The options the menu offers for game `name`: {key, label, choices}
// (choices null: a field to type in, with the server's spec).
function menuOptions(name) {
  const g = gameInfo(name);
  const offered = g ? g.options : [];
  const own = pageOf(name).options;
  if (own) {
    return own
      .filter(([key]) => offered.some((o) => o.name === key))
      .map(([key, label, choices]) => ({ key, label, choices }));
  }
  return offered.map((spec) => {
    const label = spec.name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
    const first = (list) => (list.includes(spec.default) ? [spec.default, ...list.filter((c) => c !== spec.default)] : ['', ...list]);
    let choices = null;
    if (spec.kind === 'choice') choices = first(spec.choices);
    else if (spec.kind === 'bool') choices = first(['true', 'false']);
    else if (spec.kind === 'int' && spec.max - spec.min <= 24) {
      choices = first(Array.from({ length: spec.max - spec.min + 1 }, (_, i) => String(spec.min + i)));
    }
    return { key: spec.name, label, choices, spec };
  });
}

// ---------------------------------------------------------------- setup

function optionValues() {
  const o = {};
  for (const { key } of menuOptions($('game').value)) {
    const el = $('opt_' + key);
    if (el) o[key] = el.value;
  }
  return o;
}

function searchesFor(game, o) {
  // The server lists a game's searches again under its name and number
  // of players where they differ with it.
  const key = o.players && setup && setup.searches[game + o.players] ? game + o.players : game;
  if (!setup || !setup.searches[key]) return { default: 'default', offered: ['default'] };
  return setup.searches[key];
}

function buildOptions() {
  const game = $('game').value;
  const span = $('options');
  span.textContent = '';
  for (const { key, label, choices, spec } of menuOptions(game)) {
    const l = document.createElement('label');
    l.textContent = label + ' ';
    let s;
    if (choices) {
      s = document.createElement('select');
      for (const c of choices) s.add(new Option(c === '' ? 'default' : c, c));
    } else {
      // A number or a text to type: empty is the game's default.
      s = document.createElement('input');
      s.type = spec.kind === 'int' ? 'number' : 'text';
      if (spec.kind === 'int') { s.min = String(spec.min); s.max = String(spec.max); s.style.width = '5em'; }
      s.value = spec.kind === 'int' && !/^-?[0-9]+$/.test(spec.default) ? '' : spec.default;
      s.placeholder = 'default';
    }
    if (spec && spec.help) l.title = spec.help;
    s.id = 'opt_' + key;
    s.onchange = buildSeats;
    l.appendChild(s);
    span.appendChild(l);
  }
  buildSeats();
  for (const b of document.querySelectorAll('#tabs button')) b.classList.toggle('on', b.dataset.game === game);
}

function buildSeats() {
  const game = $('game').value;
  const o = optionValues();
  const names = seatNames(game, o);
  const you = $('you');
  const keep = you.value;
  you.textContent = '';
  names.forEach((n, i) => you.add(new Option(n, String(i))));
  if (isPerfect(game)) you.add(new Option('nobody (watch)', 'none'));
  you.value = [...you.options].some((x) => x.value === keep) ? keep : (pageOf(game).you || '0');
  const seats = $('seats');
  seats.textContent = '';
  const searches = searchesFor(game, o);
  names.forEach((n, i) => {
    const d = document.createElement('span');
    d.className = 'seatrow';
    d.id = 'seat' + i;
    d.hidden = you.value === String(i);
    const e = document.createElement('select');
    e.id = 'engine' + i;
    (setup ? setup.engines : ['tabula']).forEach((name, k) => e.add(new Option(name, String(k))));
    const s = document.createElement('select');
    s.id = 'search' + i;
    searches.offered.forEach((x) => s.add(new Option(x === 'default' ? 'default (' + searches.default + ')' : x, x)));
    const t = document.createElement('input');
    t.id = 'ms' + i;
    t.type = 'number';
    t.min = '10';
    t.max = setup ? String(setup.max_movetime) : '10000';
    t.value = '1000';
    t.title = 'milliseconds per move';
    d.append(n + ': ', e, ' ', s, ' ', t, ' ms');
    seats.appendChild(d);
  });
  you.onchange = () => names.forEach((_, i) => { $('seat' + i).hidden = you.value === String(i); });
}

async function post(path, params, body) {
  const r = await fetch(withToken(path + '?' + new URLSearchParams(params)), { method: 'POST', body });
  let j = {};
  try { j = await r.json(); } catch (e) { j = { error: 'bad reply' }; }
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

// A passing message (a refusal, an error): the status line itself is
// always drawn from the game's state, so nothing clears a result.
function notice(text) {
  $('notice').textContent = text;
  if (noticeTimer) clearTimeout(noticeTimer);
  noticeTimer = text ? setTimeout(() => { $('notice').textContent = ''; }, 8000) : null;
}

function setStatus(text, kind) {
  const s = $('status');
  s.textContent = text;
  s.className = kind || '';
}

function resetGame() {
  st = prev = over = analysisInfo = queuedMove = summary = null;
  values = {};
  lines = [];
  sheetRows = [];
  forgetPages(true);
  window.tabula.lines = [];
  $('log').textContent = '';
  $('sheet').textContent = '';
  $('record').hidden = true;
  $('summary').hidden = true;
  $('lasttrick').hidden = true;
  $('legend').hidden = true;
}

async function newGame() {
  const game = $('game').value;
  const o = optionValues();
  const params = new URLSearchParams();
  params.append('game', game);
  for (const [k, v] of Object.entries(o)) if (v !== '') params.append('opt', k + '=' + v);
  params.append('you', $('you').value);
  if ($('name').value.trim()) params.append('name', $('name').value.trim());
  seatNames(game, o).forEach((_, i) => {
    if ($('you').value === String(i)) return;
    params.append('engine' + i, $('engine' + i).value);
    params.append('search' + i, $('search' + i).value);
    params.append('ms' + i, $('ms' + i).value);
  });
  const mine = ++generation;
  await closeGame();
  stopReplay();
  let id;
  try {
    id = (await post('/api/new', params)).session;
  } catch (e) {
    if (mine === generation) notice('Cannot start: ' + e.message);
    return;
  }
  if (mine !== generation) {
    // A newer game was asked for meanwhile: this one is not shown.
    post('/api/close', { s: id }).catch(() => {});
    return;
  }
  session = id;
  resetGame();
  notice('');
  setStatus('Starting ' + gameTitle(game) + '\u2026');
  $('undo').disabled = !isPerfect(game);
  $('menu').hidden = true;
  $('menubtn').setAttribute('aria-expanded', 'false');
  if ($('analysis').checked) post('/api/analysis', { s: session, on: '1' }).catch(() => {});
  followGame(session);
}

async function closeGame() {
  if (source) source.close();
  source = null;
  if (session) {
    const s = session;
    session = null;
    try { await post('/api/close', { s }); } catch (e) { /* gone already */ }
  }
}

// ------------------------------------------- the game's address, a reload
// (Kept apart from the rest of the page: the server's side of a reload,
// the token, an engine that is late.)
//
// The address names the game (`#game=ID`): the server keeps a game for a
// while after its page goes (`tabula gui --keep`), so a reload, or the
// address in a second tab, opens the same game at the same move; the
// stream replays its events, this seat's own view only. Leaving a game
// in play asks first. Beyond loopback the server's token comes in the
// page's own address (`?token=...`) and goes with every request; it is
// never a cookie, which the browser would also send to any other server
// on another port of this host.

const pageToken = new URLSearchParams(location.search).get('token');

function withToken(url) {
  if (!pageToken) return url;
  return url + (url.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(pageToken);
}

function gameInAddress() {
  const m = /^#game=([0-9a-f]{32})$/.exec(location.hash);
  return m ? m[1] : null;
}

function followGame(id) {
  history.replaceState(null, '', location.pathname + location.search + '#game=' + id);
  const es = new EventSource(withToken('/api/events?s=' + id));
  source = es;
  es.onmessage = (m) => { if (source === es) onEvent(JSON.parse(m.data)); };
  es.onerror = () => {
    if (source === es && es.readyState === EventSource.CLOSED) notice('The connection to the server is closed.');
  };
}

// Opens the game the address names; false when there is none (or the
// server no longer keeps it).
async function resumeGame() {
  const id = gameInAddress();
  if (!id) return false;
  let game;
  try {
    const r = await fetch(withToken('/api/game?s=' + id));
    if (!r.ok) throw new Error('gone');
    game = await r.json();
  } catch (e) {
    history.replaceState(null, '', location.pathname + location.search);
    notice('That game has ended; a new one starts.');
    return false;
  }
  session = id;
  resetGame();
  $('undo').disabled = !isPerfect(game.game);
  setStatus('Back to your ' + gameTitle(game.game) + ' game\u2026');
  followGame(id);
  return true;
}

function askBeforeLeaving(e) {
  const inPlay = session && st && !over && st.turn !== 'over' && !replay;
  if (!inPlay) return;
  e.preventDefault();
  e.returnValue = '';
}

function showLate(e) {
  const who = (st && st.seats[e.seat]) || 'The engine';
  notice(who + ' is taking longer than its ' + (e.movetime / 1000) + ' s (a busy machine?): waiting for its move.');
}

// ---------------------------------------------------------------- events

function onEvent(e) {
  window.tabula.events++;
  if (e.type === 'reset') return;
  if (e.type === 'late') return showLate(e);
  if (e.type === 'closed') {
    notice('The server ended this game.');
    if (source) source.close();
    return;
  }
  if (e.type === 'analysis') {
    // Only the analysis of the position on the board is shown.
    if (!st || e.step !== st.step || !myTurn()) return;
    values = {};
    for (const m of e.moves) values[m.move] = m;
    analysisInfo = e;
    render();
    return;
  }
  if (e.type === 'over') {
    over = e;
    window.tabula.over = e;
    $('record').href = withToken('/api/record?s=' + session);
    $('record').hidden = false;
    if (st && pageOf(st.view.kind).ended) pageOf(st.view.kind).ended();
    render();
    return;
  }
  if (e.type !== 'state') return;
  if (e.step === 0 || (st && e.step < st.step)) {
    // A new game, or the game again after an undo: its lines come anew,
    // and a result shown before is no longer the game's.
    lines = [];
    forgetPages(false);
    sheetRows = [];
    summary = null;
    over = null;
    window.tabula.over = null;
    window.tabula.lines = [];
    $('record').hidden = true;
  }
  prev = st;
  st = e;
  window.tabula.state = e;
  if (!myTurn()) { values = {}; analysisInfo = null; }
  const page = pageOf(e.view.kind);
  if (page.stateCame) page.stateCame(e, prev);
  for (const line of e.told) told(line, page);
  window.tabula.lines = lines.slice();
  drawLog();
  render();
  if (queuedMove && myTurn()) {
    // The move the person chose while the others chose theirs (a pass).
    const m = queuedMove;
    queuedMove = null;
    play(m);
  }
  if (pendingClick && e.told.some((l) => l.endsWith(' ' + pendingClick[1]))) {
    window.tabula.latencies.push(performance.now() - pendingClick[0]);
    pendingClick = null;
  }
}

// One line this seat was told: kept for the move list, and read by the
// game's page (the tricks, the hands' ends).
function told(line, page) {
  lines.push(line);
  if (page.told) page.told(line, line.split(' '));
}

function signed(x) { return x > 0 ? '+' + x : x < 0 ? '\u2212' + (-x) : '0'; }

// ---------------------------------------------------------------- moves

async function play(move, reason) {
  if (!session || replay) return;
  const t0 = performance.now();
  if (move.includes('+') && st) {
    // A move of several parts (a pass of three cards): the same parts in
    // the order the referee writes them.
    const key = move.split('+').sort().join('+');
    move = st.legal.find((m) => m.split('+').sort().join('+') === key) || move;
  }
  // A move the page knows to be illegal is refused here, with why (the
  // referee would refuse it too); so is a click out of turn.
  if (!myTurn() || !st.legal.includes(move)) {
    notice(over ? 'The game is over.' : !myTurn() ? 'Not your turn yet.' : 'Refused: ' + (reason || whyNot(move)));
    window.tabula.latencies.push(performance.now() - t0);
    return;
  }
  pendingClick = [t0, move];
  try {
    await post('/api/move', { s: session, move });
    notice('');
  } catch (e) {
    pendingClick = null;
    notice('Refused: ' + (reason || e.message));
  }
  window.tabula.latencies.push(performance.now() - t0);
}

// Why a move is not legal, in the game's words: the server's reason
// for each move the page offers that is refused now.
function whyNot(move) {
  return (st.refused || {})[move] || move + ' is not a legal move now';
}

// Plays `move` now, or when the seat's turn comes (a pass chosen while
// the others choose theirs).
function playWhenMyTurn(move) {
  if (myTurn()) play(move);
  else { queuedMove = move; render(); }
}

function myTurn() {
  return !!(st && st.waiting && st.you !== null && st.to_move === st.you && !replay && !over);
}

// ---------------------------------------------------------------- drawing

function render() {
  const view = replay ? replay.steps[replay.at].view : st.view;
  const board = $('board');
  board.textContent = '';
  pageOf(view.kind).draw(view, board);
  score(view);
  sheet(view);
  sidePanels(view);
  status(view);
}

function seatName(i) {
  if (replay) return replay.seat_names[i];
  return st.seats[i];
}

// `1 disc`, `2 discs`.
function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many); }

// Seat `i`'s score as its box shows it (the game's page words it).
function seatScore(view, i) { return pageOf(view.kind).seatScore(view, i); }

// Seat `i`'s last move in words (`plays Q\u2660`), from the view.
function lastWords(view, i) {
  const l = view.last && view.last[i];
  return l ? l.words : null;
}

function score(view) {
  const p = $('score');
  p.textContent = '';
  const names = replay ? replay.seat_names : st.seats;
  names.forEach((n, i) => {
    const d = document.createElement('div');
    const turn = !replay && !over && st.to_move === i;
    d.className = 'p' + (turn ? ' turn' : '');
    const left = document.createElement('span');
    left.textContent = (replay ? n : seatLabel(i)) + (!replay && st.you === i ? ' (you)' : '') + ' ';
    const lab = document.createElement('span');
    lab.className = 'lab';
    lab.textContent = replay ? (replay.seats[i] || '') : (st.you === i ? '' : st.labels[i]);
    if (!replay && !over && st.thinking === i) lab.textContent += ' \u00b7 thinking\u2026';
    left.appendChild(lab);
    const right = document.createElement('b');
    right.textContent = seatScore(view, i);
    d.append(left, right);
    p.appendChild(d);
  });
}

// A seat's name as the result and the status name it: a bare number
// (as the text view writes it) is `seat N`.
function seatLabel(i) {
  const n = st.seats[i];
  return /^[0-9]+$/.test(n) ? 'seat ' + n : n;
}

// Seat `i` as the result names it: `you`, or the seat with its player
// (`p2 (tabula)`).
function resultName(i) {
  if (i === st.you) return 'you';
  return seatLabel(i) + (st.labels[i] ? ' (' + st.labels[i] + ')' : '');
}

// The result in words: who won, and the score where the game keeps one:
// `Game over: You win 33-31.`, `Game over: p2 (tabula) wins.`,
// `Game over: north (tabula) wins. north 45 points, ...`.
function resultText() {
  const winners = over.winners;
  const mine = st.you !== null && winners.includes(st.you);
  const draw = winners.length === 0 || winners.length === st.seats.length;
  let head;
  if (over.ending !== 'normal') head = 'Game over (' + over.ending + ')';
  else if (draw) head = 'Game over: a draw';
  else {
    const names = winners.map(resultName);
    const text = names.join(' and ');
    // `You win`; a seat keeps its name as the game writes it (`white`).
    head = 'Game over: ' + (text.startsWith('you') ? 'Y' + text.slice(1) : text) + (names.length > 1 || text === 'you' ? ' win' : ' wins');
  }
  if (over.scores) head += pageOf(st.view.kind).resultScores(over.scores, winners, draw);
  return head + (mine && !draw ? ' \u2013 well played!' : '.');
}

function status(view) {
  if (replay) {
    const step = replay.steps[replay.at];
    setStatus('Replay of ' + gameTitle(replay.game) + ' game ' + replay.number + (replay.ending === 'normal' ? '' : ' (' + replay.ending + ')') + (replay.scores ? ', final score ' + replay.scores.join('-') : '') + '. Step ' + replay.at + ' of ' + (replay.total - 1) + ': ' + (step ? step.words : '') + '.');
    return;
  }
  if (over) { setStatus(resultText(), 'over'); return; }
  if (myTurn()) {
    const me = st.seats[st.you];
    const noMove = st.legal.length === 1 && st.legal[0] === 'pass';
    setStatus(noMove ? 'You have no move: press Pass.' : pageOf(view.kind).yourTurn(view, me), 'yours');
    return;
  }
  const waiting = pageOf(view.kind).waiting(view);
  if (waiting) {
    setStatus(waiting, 'yours');
    return;
  }
  if (st.thinking !== null && st.thinking !== undefined) {
    setStatus(st.seats[st.thinking] + ' (' + st.labels[st.thinking] + ') is thinking\u2026');
    return;
  }
  if (st.turn === 'chance') { setStatus('Dealing\u2026'); return; }
  if (st.last && st.last.move === 'pass') { setStatus(st.seats[st.last.seat] + ' passes.'); return; }
  setStatus(st.you === null ? 'Watching.' : 'Waiting\u2026');
}

function sheet(view) {
  const t = $('sheet');
  t.textContent = '';
  if (replay || (!view.totals && !view.tokens)) return;
  const cap = t.createCaption();
  cap.textContent = pageOf(view.kind).sheetCaption;
  const head = t.insertRow();
  ['', ...st.seats].forEach((n, i) => { const th = document.createElement('th'); th.textContent = n + (i - 1 === st.you ? ' (you)' : ''); head.appendChild(th); });
  for (const r of sheetRows) {
    const tr = t.insertRow();
    tr.insertCell().textContent = r.label;
    for (const [a, b] of r.cells) {
      const c = tr.insertCell();
      c.textContent = String(a);
      if (b !== null && b !== undefined) { const s = document.createElement('small'); s.textContent = b; c.appendChild(s); }
    }
  }
}

function sidePanels(view) {
  const sum = $('summary');
  sum.hidden = !summary || !!replay;
  if (summary) { sum.textContent = ''; summary.forEach((l, i) => { const d = document.createElement(i === 0 ? 'b' : 'div'); d.textContent = l; sum.appendChild(d); }); }
  pageOf(view.kind).sidePanel(view);
  const lg = $('legend');
  lg.hidden = replay || !$('analysis').checked || !myTurn();
  if (!lg.hidden) legend(view, lg);
}

function legend(view, lg) {
  lg.textContent = '';
  const info = analysisInfo ? ' (' + (analysisInfo.depth ? 'depth ' + analysisInfo.depth : analysisInfo.iterations ? analysisInfo.iterations + ' iterations' : '') + ', ' + (analysisInfo.ms / 1000).toFixed(1) + ' s)' : ' (thinking\u2026)';
  pageOf(view.kind).legend(view, info, lg);
}

function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

function pct(v) { return Math.round(v * 100) + '%'; }

function bestMove() {
  let best = null;
  for (const [m, v] of Object.entries(values)) if (best === null || v.score > values[best].score) best = m;
  return best;
}

// The text view (a picture of kind `text`, and any page's that draws
// it): the position as the game writes it, whose turn it is, your legal
// moves as buttons, and the result at the end.
function textGame(view, board) {
  const box = document.createElement('div');
  box.className = 'textgame';
  box.id = 'textgame';
  const pre = document.createElement('pre');
  pre.id = 'gametext';
  pre.textContent = view.text;
  box.appendChild(pre);
  const turn = document.createElement('div');
  turn.className = 'turnline';
  turn.id = 'turnline';
  if (over && !replay) {
    turn.textContent = resultText();
    turn.classList.add('over');
  } else if (!replay && st.turn === 'chance') {
    turn.textContent = 'Chance moves next.';
  } else if (!replay && st.to_move !== null && st.to_move !== undefined) {
    turn.textContent = 'To move: ' + seatLabel(st.to_move) + (st.you === st.to_move ? ' (you)' : '') + '.';
  }
  box.appendChild(turn);
  if (myTurn()) {
    const row = document.createElement('div');
    row.className = 'moves';
    row.id = 'moves';
    const best = bestMove();
    for (const m of st.legal) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = m;
      if (values[m]) { const v = document.createElement('span'); v.className = 'v'; v.textContent = pct(values[m].score); b.appendChild(v); }
      if (m === best) b.classList.add('primary');
      b.dataset.move = m;
      b.onclick = () => play(m);
      row.appendChild(b);
    }
    box.appendChild(row);
  }
  board.appendChild(box);
}

// ---------------------------------------------------------------- move list

// The lines told, in the game's own notation (its page writes them).
function drawLog() {
  const log = $('log');
  log.textContent = '';
  if (!st) return;
  const add = (text, head) => { const li = document.createElement('li'); li.textContent = text; if (head) li.className = 'head'; log.appendChild(li); };
  pageOf(st.view.kind).moveList(add);
  log.scrollTop = log.scrollHeight;
}

// ---------------------------------------------------------------- replay

async function openReplay(text, number, from) {
  try {
    const j = await post('/api/replay', { game: String(number), from: String(from || 0) }, text);
    const steps = j.steps;
    if (!from) {
      ++generation;
      await closeGame();
      replay = j;
      replay.text = text;
      replay.at = 0;
      replay.steps = [];
      $('replay').hidden = false;
      const sel = $('replaygame');
      sel.textContent = '';
      for (const g of j.games) sel.add(new Option('game ' + g.number + ': ' + g.seats.join(' v ') + ' (' + g.results.join('-') + ')', String(g.number)));
      sel.value = String(j.number);
      $('rstep').max = String(j.total - 1);
      $('record').hidden = true;
      $('undo').disabled = true;
      for (const b of document.querySelectorAll('#tabs button')) b.classList.toggle('on', b.dataset.game === j.game);
    }
    // A long game comes in windows of steps.
    steps.forEach((s, i) => { replay.steps[j.from + i] = s; });
    window.tabula.replayLines = replay.steps.map((s) => s.line);
    showStep(from || 0);
  } catch (e) {
    notice('Cannot replay: ' + e.message);
  }
}

function showStep(k) {
  replay.at = Math.max(0, Math.min(replay.total - 1, k));
  if (!replay.steps[replay.at]) {
    // Not yet here: the window of steps from this one.
    if (replay.at > 0) openReplay(replay.text, replay.number, replay.at);
    return;
  }
  $('rstep').value = String(replay.at);
  $('rline').textContent = 'Step ' + replay.at + ' of ' + (replay.total - 1) + ': ' + replay.steps[replay.at].words;
  render();
  drawReplayLog();
}

// The replay's move list: every step in the game's words (the server
// writes them), the one shown marked; a click goes to it.
function drawReplayLog() {
  const log = $('log');
  log.textContent = '';
  replay.steps.forEach((step, k) => {
    if (!step || k === 0) return;
    const li = document.createElement('li');
    li.textContent = k + '. ' + step.words;
    li.dataset.step = String(k);
    if (k === replay.at) li.className = 'now';
    li.onclick = () => showStep(k);
    log.appendChild(li);
  });
  const now = log.querySelector('li.now');
  if (now) log.scrollTop = now.offsetTop - log.offsetTop - log.clientHeight / 2;
}

function stopReplay() {
  replay = null;
  $('replay').hidden = true;
}

// ---------------------------------------------------------------- start

function showRules() {
  const g = replay ? replay.game : st ? st.game : $('game').value;
  $('rulestitle').textContent = 'How to play ' + gameTitle(g);
  const t = $('rulestext');
  t.textContent = '';
  const info = gameInfo(g);
  const text = pageOf(g).rules || [info ? info.summary : g, 'Here: the game\u2019s position as it writes it, and your legal moves as buttons below it; press one to play it.'];
  for (const p of text) { const e = document.createElement('p'); e.textContent = p; t.appendChild(e); }
  $('rules').showModal();
}

function pickGame(game) {
  $('game').value = game;
  $('you').textContent = ''; // the game's own seat for you (its page's `you`)
  buildOptions();
  newGame();
}

// The tabs and the menu's list of games, from the server's.
function buildGames() {
  const tabs = $('tabs');
  const sel = $('game');
  tabs.textContent = '';
  sel.textContent = '';
  for (const g of (setup && setup.games) || []) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.game = g.name;
    const short = pageOf(g.name).short;
    if (short) {
      const l = document.createElement('span');
      l.className = 'long';
      l.textContent = g.title;
      const s = document.createElement('span');
      s.className = 'short';
      s.textContent = short;
      b.append(l, s);
    } else {
      b.textContent = g.title;
    }
    b.title = g.summary;
    b.onclick = () => pickGame(g.name);
    tabs.appendChild(b);
    sel.add(new Option(g.title, g.name));
  }
}

window.addEventListener('DOMContentLoaded', async () => {
  try { setup = await (await fetch(withToken('/api/setup'))).json(); } catch (e) { notice('No server.'); }
  buildGames();
  $('game').onchange = buildOptions;
  buildOptions();
  $('start').onclick = newGame;
  $('again').onclick = newGame;
  $('menubtn').onclick = () => {
    const open = $('menu').hidden;
    $('menu').hidden = !open;
    $('menubtn').setAttribute('aria-expanded', String(open));
  };
  $('rulesbtn').onclick = showRules;
  $('setup').onsubmit = (e) => { e.preventDefault(); newGame(); };
  $('undo').onclick = async () => {
    try { await post('/api/undo', { s: session }); notice(''); } catch (e) { notice('Refused: ' + e.message); }
  };
  $('analysis').onchange = () => { if (session) post('/api/analysis', { s: session, on: $('analysis').checked ? '1' : '0' }).catch(() => {}); values = {}; analysisInfo = null; if (st) render(); };
  $('replayfile').onchange = async () => { const f = $('replayfile').files[0]; if (f) { $('menu').hidden = true; openReplay(await f.text(), 1); } };
  $('replaygame').onchange = () => openReplay(replay.text, +$('replaygame').value);
  $('rfirst').onclick = () => showStep(0);
  $('rprev').onclick = () => showStep(replay.at - 1);
  $('rnext').onclick = () => showStep(replay.at + 1);
  $('rlast').onclick = () => showStep(replay.total - 1);
  $('rclose').onclick = () => { stopReplay(); newGame(); };
  $('rstep').oninput = () => showStep(+$('rstep').value);
  document.addEventListener('keydown', (e) => { if (!replay) return; if (e.key === 'ArrowRight') showStep(replay.at + 1); if (e.key === 'ArrowLeft') showStep(replay.at - 1); });
  window.addEventListener('beforeunload', askBeforeLeaving);
  window.addEventListener('resize', () => { if (st || replay) render(); });
  // The game the address names, if the server still keeps it; else a
  // board at first sight: the first game of the menu (the registry's
  // default) against the engine's default player; the tabs start the
  // other games.
  if (!(await resumeGame())) await newGame();
  window.tabula.ready = true;
});
