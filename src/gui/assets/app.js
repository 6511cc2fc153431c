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
let selected = [];       // cards chosen for a pass
let lines = [];          // every line this seat was told this game
let tricks = [];         // this hand's tricks: {cards: [[seat, card]], winner, points}
let allTricks = [];      // every trick of the game, for the move list
let current = [];        // the trick being played (from the told lines)
let roundNo = 0;         // hand or round number, from the deal lines
let bidsNow = null;      // Wizard: the bids of the round being played
let summary = null;      // the last hand's or round's summary (text lines)
let sheetRows = [];      // score sheet rows
let pendingClick = null; // [time, move] of a move sent, until shown
let replay = null;       // a record being replayed
let hover = null;        // Quoridor wall under the pointer (or tapped once)
let pointerKind = null;  // the last pointer's type: a finger previews a wall first
let tapped = false;      // the previewed wall was tapped (not merely pointed at)
let pendingPass = null;  // Hearts: a pass chosen before the turn came
let choiceCard = null;   // Ninety-Nine: the card whose value is asked
let noticeTimer = null;
let showWinChance = false;

// The games come from the server (`/api/setup`, the registry's answers):
// each game's name, title, summary, the options a page may set, its seats'
// names for each number of players, and whether it has perfect
// information. LOOK is only how this page presents the games it draws
// with a picture of their own, keyed by the view's kind (such a game's
// name): the option choices it offers, with their labels, in its order; a
// short tab label; the seat offered to you first. Any other game gets its
// options as the server describes them and the text view.
const LOOK = {
  othello: { options: [] },
  quoridor: {
    options: [
      ['players', 'Players', ['2', '4']],
      ['size', 'Size', ['9', '7', '5', '11']],
      ['walls', 'Walls', ['', '0', '1', '2', '3', '4', '5', '6', '8', '10', '12', '15', '20']],
      ['jumps', 'Jumps', ['true', 'false']],
    ],
  },
  hearts: {
    you: '2',
    options: [
      ['hands', 'Hands', ['game', 'single']],
      ['target', 'To', ['100', '50', '25']],
      ['pass', 'Pass', ['cycle', 'left', 'right', 'across', 'none']],
      ['moon', 'Moon', ['others', 'minus']],
    ],
  },
  wizard: {
    options: [
      ['players', 'Players', ['4', '3', '5', '6']],
      ['rounds', 'Rounds', ['', '1', '2', '3', '5', '10']],
      ['no_even_bids', 'No even bids', ['false', 'true']],
    ],
  },
  ninetynine: {
    short: '99',
    options: [
      ['players', 'Players', ['3', '2', '4', '5', '6']],
      ['tokens', 'Tokens', ['3', '1', '2', '4', '5']],
    ],
  },
};

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
  if (LOOK[name]) {
    return LOOK[name].options
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

const RULES = {
  othello: [
    'Two players, black and white, take turns to place a disc on the 8x8 board; black moves first.',
    'A move must outflank: the new disc and another disc of yours enclose a straight line (across, down or diagonal) of the other colour, and every enclosed disc is turned to your colour.',
    'With no such move you pass (press Pass); when neither side can move the game ends, and the side with more discs wins.',
    'Here: your legal moves are dotted; the last move has a red dot and the discs it turned a gold ring. Analysis writes each move\u2019s final disc margin (best play after it), the best ringed.',
  ],
  quoridor: [
    'Each player\u2019s pawn starts on the middle of a side and must reach the opposite side first.',
    'On your turn, move your pawn one square (not through a wall; you may jump a pawn in front of you), or place one of your walls: it covers two squares\u2019 edge.',
    'Walls may not overlap or cross each other, and may never cut a pawn off from its goal.',
    'Here: click a lit square to move; point at a groove between squares to preview a wall (green: legal, red: why not) and click to place it.',
  ],
  hearts: [
    'Four players, 13 cards each. Before each hand (except every fourth) you pass three cards: left, right, then across.',
    'The two of clubs leads the first trick. Follow the suit led if you can; the highest card of the suit led takes the trick, and its winner leads the next.',
    'Each heart taken costs a point, the queen of spades 13. Hearts cannot be led until one has been played (broken). Take all 26 points (shoot the moon) and the others get 26 each.',
    'The game ends when someone reaches the target; the lowest score wins.',
  ],
  wizard: [
    'Round n deals n cards to each player; the next card is turned for trump (a Wizard: the dealer names trump; a Jester: no trump).',
    'Everyone bids how many tricks they will take. Follow the suit led if you can; Wizards and Jesters may always be played.',
    'The first Wizard takes the trick; else the highest trump; else the highest card of the suit led. Jesters lose (all Jesters: the first one takes it).',
    'Bid right: 20 points plus 10 a trick. Bid wrong: minus 10 for each trick over or under.',
  ],
  ninetynine: [
    'Each player holds three cards. In turn you play one, adding its value to the running total, and draw a new one; the total may never pass 99.',
    'Special cards: a 4 reverses the direction (0), a 9 is worth 0, a 10 is +10 or \u221210, a king sets the total to 99, an ace is 1 or 11, a jack or queen 10.',
    'If no card keeps the total at 99 or less you lose a token (Give up a token) and a new hand is dealt. The last player with tokens wins.',
  ],
};

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
  you.value = [...you.options].some((x) => x.value === keep) ? keep : ((LOOK[game] && LOOK[game].you) || '0');
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
  st = prev = over = hover = analysisInfo = choiceCard = pendingPass = null;
  values = {};
  selected = [];
  lines = [];
  tricks = [];
  allTricks = [];
  current = [];
  roundNo = 0;
  bidsNow = summary = null;
  sheetRows = [];
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
    finishHand(true);
    render();
    return;
  }
  if (e.type !== 'state') return;
  if (e.step === 0 || (st && e.step < st.step)) {
    // A new game, or the game again after an undo: its lines come anew,
    // and a result shown before is no longer the game's.
    lines = [];
    tricks = [];
    allTricks = [];
    current = [];
    roundNo = 0;
    sheetRows = [];
    summary = null;
    over = null;
    window.tabula.over = null;
    window.tabula.lines = [];
    $('record').hidden = true;
  }
  // A new position: a wall under a resting pointer is not previewed
  // against it (the wall just placed there would read as refused).
  if (!st || e.step !== st.step) hover = null;
  prev = st;
  st = e;
  window.tabula.state = e;
  if (!myTurn()) { values = {}; analysisInfo = null; }
  if (e.view.kind === 'wizard' && e.view.phase === 'play') bidsNow = e.view.bids.slice();
  for (const line of e.told) told(line);
  window.tabula.lines = lines.slice();
  if (e.view.kind === 'ninetynine' && prev && e.view.hand_no > prev.view.hand_no) ninetyNineHand(prev.view, e.view);
  drawLog();
  render();
  if (pendingPass && myTurn() && e.view.kind === 'hearts' && e.view.phase === 'pass') {
    // The pass the person chose while the others chose theirs.
    const m = pendingPass;
    pendingPass = null;
    play(m);
  }
  if (pendingClick && e.told.some((l) => l.endsWith(' ' + pendingClick[1]))) {
    window.tabula.latencies.push(performance.now() - pendingClick[0]);
    pendingClick = null;
  }
}

const CARD = /^([2-9TJQKA][CDHS]|[ZN][1-4])$/;

// One line this seat was told: kept for the move list, and read for the
// tricks and the hands' ends.
function told(line) {
  lines.push(line);
  const w = line.split(' ');
  if (!st) return;
  const kind = st.view.kind;
  if (w[0] === 'deal') {
    if (kind === 'hearts' || kind === 'wizard') {
      if (isNewHand(kind, w) && current.length === 0 && tricks.length > 0) finishHand(false);
      if (isNewHand(kind, w)) { roundNo++; tricks = []; current = []; }
    }
    return;
  }
  if (w[0] !== 'play' || (kind !== 'hearts' && kind !== 'wizard')) return;
  if (!CARD.test(w[2])) return;
  current.push([st.seats.indexOf(w[1]), w[2]]);
  if (current.length === st.seats.length) {
    // Who took it and its points: the server's view lists this hand's
    // finished tricks (the game's rules decide).
    const taken = (st.view.taken || [])[tricks.length];
    const done = taken && taken.cards.every((c, i) => c[1] === current[i][1]) ? taken : null;
    const t = { cards: current, winner: done ? done.winner : null, points: done ? done.points : null, moon: st.view.moon };
    tricks.push(t);
    allTricks.push(t);
    current = [];
  }
}

// A new hand's deal: Hearts tells a seat its 13 cards (then the three it
// receives, and who holds the two of clubs); Wizard a round's cards.
function isNewHand(kind, w) { return kind === 'wizard' || w.length > 13; }

// The end of a Hearts hand or a Wizard round: its summary and a row of
// the score sheet. At a deal line the view is still the old hand's
// (its totals are the next state's); the summary is written from the
// next view, which this marks.
function finishHand(gameOver) {
  if (!st) return;
  const kind = st.view.kind;
  if (kind !== 'hearts' && kind !== 'wizard') return;
  if (tricks.length === 0 && !gameOver) return;
  pendingSummary = { tricks: tricks.slice(), bids: bidsNow ? bidsNow.slice() : null, round: roundNo, over: gameOver };
  if (gameOver) writeSummary();
}

let pendingSummary = null;

function writeSummary() {
  const p = pendingSummary;
  if (!p || !st) return;
  pendingSummary = null;
  const v = st.view;
  const n = st.seats.length;
  const won = Array(n).fill(0), pts = Array(n).fill(0);
  for (const t of p.tricks) { won[t.winner]++; pts[t.winner] += t.points || 0; }
  const out = [];
  if (v.kind === 'hearts') {
    const scores = over && over.scores ? null : v.last_hand;
    out.push('Hand ' + p.round + ' over.');
    const last = p.tricks[p.tricks.length - 1];
    const moon = last ? last.moon : null;
    if (moon !== null && moon !== undefined) out.push(st.seats[moon] + ' shot the moon!');
    out.push('Points taken: ' + st.seats.map((s, i) => s + ' ' + pts[i]).join(', ') + '.');
    out.push('Totals: ' + st.seats.map((s, i) => s + ' ' + v.totals[i]).join(', ') + '.');
    sheetRows.push({ label: 'hand ' + p.round, cells: st.seats.map((_, i) => [scores ? scores[i] : pts[i], v.totals[i]]) });
  } else {
    out.push('Round ' + p.round + ' over.');
    const sc = v.last_round || [];
    st.seats.forEach((s, i) => {
      const bid = p.bids ? p.bids[i] : null;
      const made = bid === won[i];
      out.push(s + ': bid ' + (bid === null ? '?' : bid) + ', took ' + won[i] + (bid === null ? '' : made ? ' \u2013 made it' : ' \u2013 missed') + (sc[i] !== undefined ? ' (' + signed(sc[i]) + ')' : ''));
    });
    sheetRows.push({ label: 'round ' + p.round, cells: st.seats.map((_, i) => [signed(sc[i] || 0), v.totals[i]]) });
  }
  summary = out;
}

function ninetyNineHand(pv, v) {
  const loser = v.last_loser;
  const gaveUp = lines.slice().reverse().find((l) => l.endsWith(' lose'));
  const out = ['Hand ' + pv.hand_no + ' over.'];
  if (loser !== null) out.push(st.seats[loser] + (gaveUp ? ' had no card to keep the total at 99 or less' : ' lost') + ' and loses a token (' + v.tokens[loser] + ' left' + (v.tokens[loser] === 0 ? ': out' : '') + ').');
  summary = out;
  sheetRows.push({ label: 'hand ' + pv.hand_no, cells: v.tokens.map((t) => [t, null]) });
}

function signed(x) { return x > 0 ? '+' + x : x < 0 ? '\u2212' + (-x) : '0'; }

// ---------------------------------------------------------------- moves

async function play(move, reason) {
  if (!session || replay) return;
  const t0 = performance.now();
  if (move.includes('+') && st) {
    // A pass: the same three cards in the order the referee writes them.
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

function myTurn() {
  return !!(st && st.waiting && st.you !== null && st.to_move === st.you && !replay && !over);
}

// ---------------------------------------------------------------- drawing

function render() {
  if (pendingSummary && st) {
    // The summary waits for the view of the next hand (its totals).
    const v = st.view;
    if (pendingSummary.over || (v.kind === 'hearts' && v.phase !== 'play') || (v.kind === 'wizard' && v.phase !== 'play') || tricks.length === 0) writeSummary();
  }
  const view = replay ? replay.steps[replay.at].view : st.view;
  const board = $('board');
  board.textContent = '';
  if (view.kind === 'othello') board.appendChild(othello(view));
  else if (view.kind === 'quoridor') board.appendChild(quoridor(view));
  else if (view.kind === 'hearts' || view.kind === 'wizard' || view.kind === 'ninetynine') cardTable(view, board);
  else textGame(view, board);
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

// What each number counts, in the result's words.
const UNITS = { othello: ['disc', 'discs'], hearts: ['point', 'points'], wizard: ['point', 'points'], ninetynine: ['token', 'tokens'] };

function seatScore(view, i) {
  if (view.kind === 'othello') return plural(view.discs[i], 'disc', 'discs');
  if (view.kind === 'quoridor') { const q = qParse(view); return plural(q.left[i], 'wall', 'walls') + ' \u00b7 ' + plural(view.distance[i], 'step', 'steps') + ' to go'; }
  if (view.kind === 'hearts') return 'this hand ' + view.points[i] + ' \u00b7 total ' + view.totals[i];
  if (view.kind === 'wizard') return 'bid ' + (view.bids[i] === null ? '\u2013' : view.bids[i]) + ' \u00b7 won ' + view.won[i] + ' \u00b7 total ' + view.totals[i];
  if (view.kind !== 'ninetynine') return '';
  return plural(view.tokens[i], 'token', 'tokens') + (view.in[i] ? '' : ' (out)');
}

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

// A seat's name as the text view writes it: a bare number is `seat N`.
function seatLabel(i) {
  const n = st.seats[i];
  return st.view.kind === 'text' && /^[0-9]+$/.test(n) ? 'seat ' + n : n;
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
  const unit = UNITS[st.view.kind];
  const sc = over.scores;
  if (sc && st.view.kind === 'text') head += '. ' + sc.map((s, i) => seatLabel(i) + ': ' + s).join(', ');
  else if (sc && unit && sc.length === 2 && st.view.kind === 'othello') {
    // Two sides: the winner's count first (`33-31`).
    const first = draw || winners[0] === 0 ? 0 : 1;
    head += ' ' + sc[first] + '-' + sc[1 - first];
  } else if (sc && unit) head += '. ' + sc.map((s, i) => resultName(i) + ' ' + plural(s, unit[0], unit[1])).join(', ');
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
    let text = 'Your move (' + me + ').';
    if (st.legal.length === 1 && st.legal[0] === 'pass') text = 'You have no move: press Pass.';
    else if (view.kind === 'othello') text = 'Your move (' + me + '): click a dotted square.';
    else if (view.kind === 'quoridor') text = 'Your move (' + me + '): click a lit square, or point at a groove and click to place a wall.';
    else if (view.kind === 'hearts' && view.phase === 'pass') text = 'Choose three cards to pass ' + view.pass + ', then press Pass.';
    else if (view.kind === 'hearts') text = 'Your turn: play a framed card.';
    else if (view.kind === 'wizard' && st.legal.some((m) => m.startsWith('bid:'))) text = 'Your bid: how many tricks will you take?';
    else if (view.kind === 'wizard' && st.legal.some((m) => m.startsWith('trump:'))) text = 'A Wizard was turned: you deal, so name trump.';
    else if (view.kind === 'wizard') text = 'Your turn: play a framed card.';
    else if (view.kind === 'text') text = 'Your move (' + seatLabel(st.you) + '): press one of the moves below.';
    else if (view.kind === 'ninetynine') text = st.legal.includes('lose') && st.legal.length === 1 ? 'No card keeps the total at 99 or less: give up a token.' : 'Your turn: the total is ' + view.total + '.';
    setStatus(text, 'yours');
    return;
  }
  if (view.kind === 'hearts' && view.phase === 'pass' && st.you !== null && !(view.passed[st.you] && view.passed[st.you].length)) {
    // The others choose their passes first: the person chooses meanwhile.
    setStatus(pendingPass ? 'Your pass is ready: it goes when the others have chosen theirs.' : 'Choose three cards to pass ' + view.pass + ', then press Pass (the others are choosing theirs).', 'yours');
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
  cap.textContent = view.kind === 'hearts' ? 'Score sheet: points of the hand, then the total (lowest wins)'
    : view.kind === 'wizard' ? 'Score sheet: points of the round, then the total'
    : 'Tokens left after each hand';
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
  const lt = $('lasttrick');
  const last = tricks.length ? tricks[tricks.length - 1] : null;
  lt.hidden = !last || !!replay;
  if (last) {
    lt.textContent = '';
    const b = document.createElement('b');
    b.textContent = 'Last trick: ' + st.seats[last.winner] + ' took it' + (last.points !== null ? ' (' + last.points + ' point' + (last.points === 1 ? '' : 's') + ')' : '');
    lt.appendChild(b);
    lt.appendChild(miniTrick(last));
    if (tricks.length > 1) {
      const d = document.createElement('details');
      const s = document.createElement('summary');
      s.textContent = 'All ' + tricks.length + ' tricks of this ' + (view.kind === 'hearts' ? 'hand' : 'round');
      d.appendChild(s);
      tricks.forEach((t, k) => { const row = document.createElement('div'); row.textContent = (k + 1) + '. '; row.appendChild(miniTrick(t)); d.appendChild(row); });
      lt.appendChild(d);
    }
  }
  const lg = $('legend');
  lg.hidden = replay || !$('analysis').checked || !myTurn();
  if (!lg.hidden) legend(view, lg);
}

function miniTrick(t) {
  const span = document.createElement('span');
  for (const [s, c] of t.cards) {
    const m = document.createElement('span');
    m.className = 'mini' + (isRed(c) ? ' red' : '') + (s === t.winner ? ' win' : '');
    m.textContent = seatName(s) + ' ' + cardText(c);
    m.dataset.card = c;
    span.appendChild(m);
  }
  return span;
}

function legend(view, lg) {
  lg.textContent = '';
  const info = analysisInfo ? ' (' + (analysisInfo.depth ? 'depth ' + analysisInfo.depth : analysisInfo.iterations ? analysisInfo.iterations + ' iterations' : '') + ', ' + (analysisInfo.ms / 1000).toFixed(1) + ' s)' : ' (thinking\u2026)';
  const p = document.createElement('div');
  if (view.kind === 'othello') {
    p.textContent = (showWinChance ? 'Numbers: your chance to win after each move.' : 'Numbers: the final disc margin for you after each move, with best play (exact where solved, marked =).') + ' The gold ring marks the best move' + info + '.';
    const t = document.createElement('button');
    t.type = 'button';
    t.id = 'valuekind';
    t.textContent = showWinChance ? 'Show disc margins' : 'Show win chances';
    t.onclick = () => { showWinChance = !showWinChance; render(); };
    lg.append(p, t);
    return;
  }
  if (view.kind === 'text') p.textContent = 'Numbers on the moves: your chance to win after each; green: the best' + info + '.';
  else if (view.kind === 'quoridor') p.textContent = 'Numbers on squares: your chance to win after moving there. Blue walls: the engine\u2019s three best walls, each with its chance. Gold: the best move' + info + '.';
  else p.textContent = 'Badges: your chance ' + (view.kind === 'hearts' ? '(share of the best result)' : 'to win') + ' after each card or bid, as the engine at your seat sees it (it knows your hand only); gold: the best' + info + '.';
  lg.appendChild(p);
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

function valueText(m) {
  const v = values[m];
  if (!v) return null;
  if (v.margin !== undefined && !showWinChance) {
    const x = Math.round(+v.margin);
    return (v.exact ? '=' : '') + (x > 0 ? '+' + x : x < 0 ? '\u2212' + (-x) : '0');
  }
  return pct(v.score);
}

function othello(view) {
  const S = 10;
  const root = svg('svg', { viewBox: '-6 -6 ' + (S * 8 + 8) + ' ' + (S * 8 + 8), id: 'othello', class: 'board', role: 'img', 'aria-label': 'Othello board' });
  const pos = view.position.split(' ')[0];
  const legal = myTurn() ? st.legal : [];
  // Each side's last move, and the discs the latest one turned.
  const lastMoves = (view.last || []).map((l) => (l ? l.move : null));
  const turned = view.turned || [];
  const best = myTurn() ? bestMove() : null;
  svg('rect', { x: 0, y: 0, width: S * 8, height: S * 8, fill: '#2e8b57' }, root);
  for (let r = 0; r < 8; r++) {
    for (let c = 0; c < 8; c++) {
      const sq = 'abcdefgh'[c] + (r + 1);
      const x = c * S, y = r * S;
      const cell = svg('rect', { x, y, width: S, height: S, fill: '#2e8b57', stroke: '#174d2e', 'stroke-width': 0.25, class: 'cell', 'data-square': sq }, root);
      cell.onclick = () => play(sq);
      const ch = pos[r * 8 + c];
      if (ch === 'X' || ch === 'O') {
        svg('circle', { cx: x + S / 2, cy: y + S / 2, r: S * 0.41, fill: ch === 'X' ? '#111' : '#f4f4f4', stroke: '#000', 'stroke-width': 0.2, 'data-disc': ch }, root);
        if (turned.includes(sq)) svg('circle', { cx: x + S / 2, cy: y + S / 2, r: S * 0.3, fill: 'none', stroke: '#e33', 'stroke-width': 0.6, 'stroke-dasharray': '1.2 0.8', 'data-turned': sq }, root);
      } else if (legal.includes(sq)) {
        const t = valueText(sq);
        if (sq === best) svg('circle', { cx: x + S / 2, cy: y + S / 2, r: S * 0.42, fill: 'none', stroke: '#ffd24a', 'stroke-width': 0.8, 'data-best': sq }, root);
        if (t === null) svg('circle', { cx: x + S / 2, cy: y + S / 2, r: 1.1, fill: 'rgba(0,0,0,.45)', 'data-legal': sq }, root);
        else {
          svg('circle', { cx: x + S / 2, cy: y + S / 2, r: 0.6, fill: 'rgba(0,0,0,.45)', 'data-legal': sq }, root);
          const tx = svg('text', { x: x + S / 2, y: y + S / 2 + 1.3, 'text-anchor': 'middle', fill: sq === best ? '#ffd24a' : '#fff', 'font-size': 3.6, 'font-weight': 'bold', stroke: '#0b3a1e', 'stroke-width': 0.5, 'paint-order': 'stroke', 'data-value': sq }, root);
          tx.textContent = t;
        }
      }
      const mover = lastMoves.indexOf(sq);
      if (mover >= 0) svg('rect', { x: x + S / 2 - 1.3, y: y + S / 2 - 1.3, width: 2.6, height: 2.6, fill: '#e33', stroke: '#fff', 'stroke-width': 0.3, 'data-last': seatName(mover) }, root);
    }
  }
  for (let i = 0; i < 8; i++) {
    svg('text', { x: i * S + S / 2, y: -1.8, 'text-anchor': 'middle', 'font-size': 3.2, fill: '#333' }, root).textContent = 'abcdefgh'[i];
    svg('text', { x: -3, y: i * S + S / 2 + 1.1, 'text-anchor': 'middle', 'font-size': 3.2, fill: '#333' }, root).textContent = String(i + 1);
  }
  const wrap = document.createElement('div');
  wrap.style.width = '100%';
  wrap.style.display = 'flex';
  wrap.style.flexDirection = 'column';
  wrap.style.alignItems = 'center';
  wrap.appendChild(root);
  const line = document.createElement('div');
  line.className = 'boardline';
  line.id = 'discs';
  const ended = replay ? false : (over || st.turn === 'over');
  const side = view.position.split(' ')[1] === 'X' ? 'black' : 'white';
  line.textContent = '\u25cf black ' + view.discs[0] + ' \u2013 \u25cb white ' + view.discs[1] + (replay || ended ? '' : ' \u00b7 ' + side + ' to move');
  const passed = (view.last || []).map((l, i) => (l && l.move === 'pass' ? seatName(i) : null)).filter((x) => x);
  if (myTurn() && legal.length === 1 && legal[0] === 'pass') {
    const b = document.createElement('button');
    b.textContent = 'Pass';
    b.id = 'pass';
    b.className = 'primary';
    b.onclick = () => play('pass');
    line.appendChild(b);
  }
  wrap.appendChild(line);
  wrap.appendChild(marksLegend('othello', passed));
  return wrap;
}

// What the board's own marks mean (the analysis has its legend apart).
function marksLegend(kind, passed) {
  const d = document.createElement('div');
  d.className = 'marks';
  d.id = 'marks';
  const key = (cls, text) => { const k = document.createElement('span'); k.className = 'key ' + cls; d.append(k, text + '  '); };
  if (kind === 'othello') {
    key('k-last', 'each side\u2019s last move');
    key('k-turned', 'discs the last move turned');
    if (passed && passed.length) d.append('(' + passed.join(' and ') + ' passed last)');
  } else {
    key('k-last', 'each pawn\u2019s last move (dot: where it came from)');
    key('k-wall', 'each player\u2019s last wall');
    key('k-goal', 'goal side, in the pawn\u2019s colour');
  }
  return d;
}

// Quoridor: squares from p1's side at the bottom, grooves between them.
function qParse(view) {
  const w = view.position.split(' ');
  const n = view.players;
  const pawns = w.slice(0, n);
  const left = w.slice(n, 2 * n).map(Number);
  const walls = w.slice(2 * n + 1);
  return { pawns, left, walls, toMove: w[2 * n] };
}

function sqName(c, r) { return String.fromCharCode(97 + c) + (r + 1); }

// Whether the person points with a finger: a tap on a groove then
// previews its wall, and a second tap on it places it.
function touchPointer() {
  return pointerKind === 'touch' || pointerKind === 'pen' || (pointerKind !== 'mouse' && matchMedia('(pointer: coarse)').matches);
}

// A tap or click on groove `wall`: with a mouse the wall under the
// pointer is already previewed, so a click places it; with a finger the
// first tap previews it (and says whether it may go there), the second
// places it.
function grooveClick(view, q, wall, legal) {
  if (touchPointer() && hover !== wall) {
    hover = wall;
    tapped = true;
    render();
    return;
  }
  hover = null;
  tapped = false;
  // An illegal wall still goes to the referee, which refuses it; the
  // page adds why.
  play(wall, legal.includes(wall) ? null : whyNot(wall));
}

function quoridor(view) {
  const n = view.size, S = 44, G = 10, P = S + G, O = 24;
  const q = qParse(view);
  const W = O + n * P + 4, H = O + n * P + 6;
  const root = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, id: 'quoridor', class: 'board' });
  root.onmouseleave = () => { if (hover && !touchPointer()) { hover = null; render(); } };
  root.onpointerdown = (e) => { pointerKind = e.pointerType || 'mouse'; };
  const legal = myTurn() ? st.legal : [];
  const best = myTurn() ? bestMove() : null;
  const Y = (r) => O + (n - 1 - r) * P; // row r (0 = row 1) from the top
  const colours = ['#c0392b', '#2c3e90', '#d4a017', '#2e8b57'];
  const at = (sq) => ({ c: sq.charCodeAt(0) - 97, r: parseInt(sq.slice(1), 10) - 1 });
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const sq = sqName(c, r);
      const cell = svg('rect', { x: O + c * P, y: Y(r), width: S, height: S, rx: 4, fill: legal.includes(sq) ? '#e6d3a8' : '#b89968', stroke: sq === best ? '#d4a017' : 'none', 'stroke-width': 3, class: 'cell', 'data-square': sq }, root);
      cell.onclick = () => play(sq);
      if (legal.includes(sq) && values[sq] !== undefined) svg('text', { x: O + c * P + S / 2, y: Y(r) + S - 5, 'text-anchor': 'middle', 'font-size': 12, 'font-weight': 'bold', fill: '#123' }, root).textContent = pct(values[sq].score);
    }
    svg('text', { x: 10, y: Y(r) + S / 2 + 4, 'text-anchor': 'middle', 'font-size': 12 }, root).textContent = String(r + 1);
  }
  for (let c = 0; c < n; c++) svg('text', { x: O + c * P + S / 2, y: 14, 'text-anchor': 'middle', 'font-size': 12 }, root).textContent = String.fromCharCode(97 + c);
  // Each pawn's goal side: a bar in its colour along the board's edge.
  (view.goals || []).forEach((goal, i) => {
    if (!goal.length) return;
    const sq = goal.map(at);
    const row = sq.every((x) => x.r === sq[0].r), top = row && sq[0].r === n - 1, left = !row && sq[0].c === 0;
    for (const { c, r } of sq) {
      const a = row ? { x: O + c * P, y: top ? Y(r) - 4 : Y(r) + S + 1, width: S, height: 3 }
        : { x: left ? O + c * P - 4 : O + c * P + S + 1, y: Y(r), width: 3, height: S };
      svg('rect', Object.assign(a, { fill: colours[i], 'pointer-events': 'none', 'data-goal': 'p' + (i + 1) }), root);
    }
  });
  const drawWall = (wall, colour, extra) => {
    const c = wall.charCodeAt(0) - 97, r = parseInt(wall.slice(1, -1), 10) - 1;
    const attrs = wall.endsWith('h')
      ? { x: O + c * P, y: Y(r) - G + 1, width: 2 * S + G, height: G - 2 }
      : { x: O + c * P + S + 1, y: Y(r + 1), width: G - 2, height: 2 * S + G };
    return [svg('rect', Object.assign(attrs, { fill: colour, rx: 2, 'data-wall': wall }, extra || {}), root), attrs];
  };
  // Each seat's last move: its last wall outlined in its colour, or
  // where its pawn came from (a dot) and went (a dashed frame).
  const lastWall = {};
  (view.last || []).forEach((l, i) => { if (l && /[hv]$/.test(l.move)) lastWall[l.move] = i; });
  for (const w of q.walls) {
    if (lastWall[w] === undefined) drawWall(w, '#5a3a1a');
    else drawWall(w, '#5a3a1a', { stroke: colours[lastWall[w]], 'stroke-width': 3, 'stroke-dasharray': '5 3', 'data-last': 'p' + (lastWall[w] + 1) });
  }
  (view.last || []).forEach((l, i) => {
    if (!l || /[hv]$/.test(l.move)) return;
    const to = at(l.move);
    svg('rect', { x: O + to.c * P + 2, y: Y(to.r) + 2, width: S - 4, height: S - 4, rx: 4, fill: 'none', stroke: colours[i], 'stroke-width': 2.5, 'stroke-dasharray': '5 3', 'pointer-events': 'none', 'data-last': 'p' + (i + 1) }, root);
    if (l.from) {
      const f = at(l.from);
      svg('circle', { cx: O + f.c * P + S / 2, cy: Y(f.r) + S / 2, r: 4, fill: colours[i], opacity: 0.7, 'pointer-events': 'none', 'data-last-from': 'p' + (i + 1) }, root);
    }
  });
  if (myTurn()) {
    // The engine's best walls, each with its value.
    Object.entries(values).filter(([m]) => /[hv]$/.test(m)).sort((a, b) => b[1].score - a[1].score).slice(0, 3)
      .forEach(([m, v]) => {
        const [, a] = drawWall(m, m === best ? 'rgba(212,160,23,.75)' : 'rgba(30,90,200,.55)', { 'pointer-events': 'none', 'data-suggested': m });
        const t = svg('text', { x: a.x + a.width / 2, y: a.y + a.height / 2 + 4, 'text-anchor': 'middle', 'font-size': 12, 'font-weight': 'bold', fill: '#fff', stroke: '#123', 'stroke-width': 3, 'paint-order': 'stroke' }, root);
        t.textContent = pct(v.score);
      });
    // Grooves: a hit area per wall anchor; hovering previews the wall.
    // For a finger the hit area is at least 26 px across (the groove
    // itself is a few pixels on a phone); the lit squares stay on top.
    const shown = Math.min($('board').clientWidth || W, Math.max(innerHeight - 150, 200));
    const T = touchPointer() || matchMedia('(pointer: coarse)').matches ? Math.max(G, Math.min(S * 0.8, 26 * W / shown)) : G;
    for (let r = 0; r < n - 1; r++) {
      for (let c = 0; c < n; c++) {
        for (const o of ['h', 'v']) {
          const ac = o === 'h' ? Math.min(c, n - 2) : r;
          const ar = o === 'h' ? r : Math.min(c, n - 2);
          const wall = o === 'h' ? sqName(ac, ar) + 'h' : sqName(r, ar) + 'v';
          const area = o === 'h'
            ? { x: O + c * P, y: Y(r) - G / 2 - T / 2, width: S, height: T }
            : { x: O + r * P + S + G / 2 - T / 2, y: Y(c), width: T, height: S };
          const a = svg('rect', Object.assign(area, { fill: 'transparent', class: 'cell groove', 'data-groove': wall }), root);
          a.onmouseenter = () => { if (!touchPointer() && hover !== wall) { hover = wall; tapped = false; render(); } };
          a.onclick = () => grooveClick(view, q, wall, legal);
        }
      }
    }
    for (const sq of legal) {
      if (/[hv]$/.test(sq) || !/^[a-z][0-9]+$/.test(sq)) continue;
      const { c, r } = at(sq);
      const top = svg('rect', { x: O + c * P, y: Y(r), width: S, height: S, fill: 'transparent', class: 'cell', 'data-square': sq }, root);
      top.onclick = () => play(sq);
    }
    // The wall under the pointer (or tapped once): green where it may
    // go, red with why not. A wall already placed there under a pointer
    // (the one just placed, the pointer resting on it) is not previewed;
    // tapped, it is, with why not.
    if (hover && (tapped || !q.walls.includes(hover))) {
      const ok = legal.includes(hover);
      drawWall(hover, ok ? 'rgba(40,160,80,.8)' : 'rgba(200,40,40,.7)', { 'pointer-events': 'none', 'data-preview': ok ? 'legal' : 'refused' });
      const v = values[hover];
      const again = touchPointer() ? (ok ? ': tap it again to place it' : '') : '';
      if (!ok) notice(whyNot(hover));
      else if (touchPointer() || $('notice').textContent.startsWith(hover.slice(0, -1)) || $('notice').textContent.includes(': it ')) notice('Wall ' + hover + (v ? ' (' + pct(v.score) + ')' : '') + again);
    }
  }
  q.pawns.forEach((p, i) => {
    const c = p.charCodeAt(0) - 97, r = parseInt(p.slice(1), 10) - 1;
    svg('circle', { cx: O + c * P + S / 2, cy: Y(r) + S / 2, r: S * 0.35, fill: colours[i], stroke: '#000', 'data-pawn': 'p' + (i + 1) }, root);
    svg('text', { x: O + c * P + S / 2, y: Y(r) + S / 2 + 5, 'text-anchor': 'middle', fill: '#fff', 'font-size': 14 }, root).textContent = String(i + 1);
  });
  const wrap = document.createElement('div');
  wrap.className = 'boardwrap';
  wrap.append(root, marksLegend('quoridor'));
  return wrap;
}

// ---------------------------------------------------------------- cards

const SUITS = { C: '\u2663', D: '\u2666', H: '\u2665', S: '\u2660' };

function isRed(card) { return card[0] !== 'Z' && card[0] !== 'N' && (card[1] === 'H' || card[1] === 'D'); }

// A card as words: 10♥, Q♠, Wizard, Jester.
function cardText(card) {
  if (!card) return '\u2013';
  if (card[0] === 'Z') return 'Wizard';
  if (card[0] === 'N') return 'Jester';
  return (card[0] === 'T' ? '10' : card[0]) + SUITS[card[1]];
}

function cardEl(card, opts) {
  const d = document.createElement('div');
  d.className = 'card';
  d.dataset.card = card;
  const add = (cls, text) => { const s = document.createElement('span'); s.className = cls; s.textContent = text; d.appendChild(s); };
  if (card[0] === 'Z') { d.classList.add('wiz'); add('r', 'W'); add('s', '\u2605'); add('n', 'Wizard'); d.title = 'Wizard'; }
  else if (card[0] === 'N') { d.classList.add('jes'); add('r', 'J'); add('s', '\u263a'); add('n', 'Jester'); d.title = 'Jester'; }
  else {
    add('r', card[0] === 'T' ? '10' : card[0]);
    add('s', SUITS[card[1]]);
    if (isRed(card)) d.classList.add('red');
    d.title = cardText(card);
  }
  if (opts && opts.legal) d.classList.add('legal');
  if (opts && opts.dim) d.classList.add('dim');
  if (opts && opts.sel) d.classList.add('sel');
  if (opts && opts.value) { const v = document.createElement('span'); v.className = 'val' + (opts.best ? ' best' : ''); v.textContent = opts.value; d.appendChild(v); }
  return d;
}

// Where seat `s` sits: you at the bottom, the others clockwise from
// your left, around an ellipse (percent of the felt).
function seatAngle(view, s) {
  const n = view.counts.length;
  const me = replay || st.you === null ? 0 : st.you;
  const k = (s - me + n) % n;
  return Math.PI / 2 + (k * 2 * Math.PI) / n;
}

function cardTable(view, board) {
  const felt = document.createElement('div');
  felt.className = 'felt';
  felt.id = 'cardtable';
  const me = replay ? null : st.you;
  const n = view.counts.length;
  const done = !replay && over;
  const turnSeat = replay || done ? null : st.to_move;
  const wide = board.clientWidth > 700;
  for (let s = 0; s < n; s++) {
    if (s === me) continue;
    const a = seatAngle(view, s);
    const o = document.createElement('div');
    o.className = 'seat' + (turnSeat === s ? ' turn' : '');
    o.dataset.seat = String(s);
    // Anchored by the side that faces out, so that no seat leaves the
    // felt.
    const c = Math.cos(a), sn = Math.sin(a);
    o.style.left = (50 + 47 * c) + '%';
    o.style.top = (50 + 46 * sn) + '%';
    o.style.transform = 'translate(' + (-50 - 50 * c) + '%, ' + (-50 - 50 * sn) + '%)';
    const head = document.createElement('div');
    head.className = 'nm';
    head.textContent = seatName(s);
    if (view.dealer === s) { const c = document.createElement('span'); c.className = 'chip'; c.textContent = 'dealer'; head.appendChild(c); }
    o.appendChild(head);
    const lab = document.createElement('div');
    lab.className = 'lab';
    lab.textContent = replay ? '' : st.labels[s];
    if (!replay && !done && st.thinking === s) { const t = document.createElement('span'); t.className = 'think'; t.textContent = ' thinking\u2026'; lab.appendChild(t); }
    o.appendChild(lab);
    const hand = view.hands[s];
    if (hand && replay) {
      const row = document.createElement('div');
      row.style.fontSize = '12px';
      row.textContent = hand.map(cardText).join(' ');
      o.appendChild(row);
    } else {
      const backs = document.createElement('div');
      backs.className = 'backs';
      for (let k = 0; k < Math.min(view.counts[s], 13); k++) { const b = document.createElement('span'); b.className = 'back'; backs.appendChild(b); }
      const c = document.createElement('span');
      c.style.marginLeft = '10px';
      c.textContent = view.counts[s] + ' card' + (view.counts[s] === 1 ? '' : 's');
      backs.appendChild(c);
      o.appendChild(backs);
    }
    const info = document.createElement('div');
    info.className = 'sc';
    info.textContent = seatScore(view, s);
    o.appendChild(info);
    const lw = lastWords(view, s);
    if (lw) {
      // The seat's last move, in its own mark.
      const l = document.createElement('div');
      l.className = 'lastmv';
      l.dataset.last = seatName(s);
      l.textContent = '\u21b3 ' + lw;
      o.appendChild(l);
    }
    felt.appendChild(o);
  }
  // The trick: each card in front of the seat that played it.
  const trick = view.trick || [];
  const shownTrick = trick.length === 0 && !replay && tricks.length && current.length === 0 && view.phase === 'play' && !(view.tricks === 0 && view.kind === 'hearts')
    ? tricks[tricks.length - 1] : null;
  const cards = shownTrick ? shownTrick.cards : trick;
  // On a phone the trick is a row in the lower part of the felt, in the
  // order played (each card names its seat): the side seats' boxes fill
  // the middle of the edges, and the phone's own seat, below the felt,
  // leaves its lower part free.
  const narrow = board.clientWidth < 560;
  cards.forEach(([s, c], k) => {
    const a = seatAngle(view, s);
    const w = document.createElement('div');
    w.className = 'tcard' + (shownTrick && s === shownTrick.winner ? ' win' : '');
    w.style.left = narrow ? 'calc(50% + ' + ((k - (cards.length - 1) / 2) * 36) + 'px)' : (50 + 15 * Math.cos(a)) + '%';
    // On a wide felt the trick sits a little below the middle (your own
    // seat is below the felt), so that north's card clears north's box.
    w.style.top = narrow ? '76%' : (60 + 12 * Math.sin(a)) + '%';
    if (shownTrick) w.style.opacity = '.8';
    w.appendChild(cardEl(c));
    const l = document.createElement('div');
    l.className = 'who';
    l.textContent = seatName(s);
    w.appendChild(l);
    felt.appendChild(w);
  });
  const center = document.createElement('div');
  center.className = 'center';
  if (view.kind === 'ninetynine') {
    const t = document.createElement('div');
    t.className = 'big';
    t.id = 'total';
    t.textContent = String(view.total);
    center.appendChild(t);
    const d = document.createElement('div');
    d.textContent = (view.reversed ? '\u21ba anticlockwise' : '\u21bb clockwise') + ' \u00b7 stock ' + view.stock;
    center.appendChild(d);
    if (view.top) { const w = document.createElement('div'); w.style.display = 'inline-block'; w.appendChild(cardEl(view.top)); center.appendChild(w); }
  }
  felt.appendChild(center);
  if (done) {
    const b = document.createElement('div');
    b.className = 'banner';
    b.id = 'banner';
    b.textContent = resultText();
    felt.appendChild(b);
  } else if (!replay && summary && cards.length === 0 && view.kind !== 'ninetynine' && (view.phase !== 'play' || (view.kind === 'hearts' && view.tricks === 0))) {
    const b = document.createElement('div');
    b.className = 'banner';
    b.textContent = summary.join(' ');
    b.style.fontSize = wide ? '15px' : '12px';
    felt.appendChild(b);
  } else if (!replay && summary && view.kind === 'ninetynine' && view.total === 0 && view.stock > 0 && !myTurn()) {
    // nothing: the side panel keeps the summary
  }
  board.appendChild(felt);
  const info = document.createElement('div');
  info.className = 'tableinfo';
  if (view.kind === 'hearts') info.textContent = 'Hand ' + view.hand_no + ' \u00b7 pass ' + view.pass + ' \u00b7 trick ' + Math.min(view.tricks + 1, 13) + ' of 13 \u00b7 hearts ' + (view.broken ? 'broken' : 'not broken');
  if (view.kind === 'wizard' && (done || view.round > view.rounds)) info.textContent = 'All ' + view.rounds + ' rounds played.';
  else if (view.kind === 'wizard') info.textContent = 'Round ' + view.round + ' of ' + view.rounds + ' \u00b7 ' + view.round_cards + ' card' + (view.round_cards === 1 ? '' : 's') + ' each \u00b7 turned: ' + cardText(view.turned) + ' \u00b7 trump: ' + (view.trump ? SUITS[view.trump] : (view.phase === 'trump' ? 'the dealer names it' : 'none'));
  if (view.kind === 'ninetynine' && (done || view.phase === 'over')) info.textContent = 'Game over after ' + plural(view.hands_played, 'hand', 'hands') + '.';
  else if (view.kind === 'ninetynine') info.textContent = 'Hand ' + view.hand_no + ' \u00b7 total ' + view.total + ' \u00b7 ' + (view.reversed ? 'anticlockwise' : 'clockwise');
  board.appendChild(info);
  if (view.kind !== 'ninetynine' && !replay) {
    const ll = document.createElement('div');
    ll.className = 'lastline';
    ll.id = 'lastline';
    const last = tricks.length ? tricks[tricks.length - 1] : null;
    if (last) { ll.append('Last trick: ' + seatName(last.winner) + ' took it '); ll.appendChild(miniTrick(last)); }
    board.appendChild(ll);
  }
  if (replay || me === null) return;
  const mine = document.createElement('div');
  mine.className = myTurn() ? 'turn' : '';
  mine.id = 'mine';
  const head = document.createElement('div');
  head.className = 'head';
  head.textContent = 'You (' + st.seats[me] + ') \u00b7 ' + seatScore(view, me) + (view.dealer === me ? ' \u00b7 dealer' : '');
  const myLast = lastWords(view, me);
  if (myLast) {
    const l = document.createElement('span');
    l.className = 'lastmv';
    l.dataset.last = st.seats[me];
    l.textContent = ' \u00b7 you last: ' + myLast;
    head.appendChild(l);
  }
  const hand = view.hands[me] || [];
  const legal = myTurn() ? st.legal : [];
  // The pass: the person chooses while the engines choose theirs; it
  // goes when the referee asks for it.
  const passing = view.kind === 'hearts' && view.phase === 'pass' && !over && !(view.passed[me] && view.passed[me].length);
  const legalCard = (c) => legal.some((m) => m === c || (m.startsWith(c) && m.length > 2 && view.kind === 'ninetynine'));
  const best = myTurn() ? bestMove() : null;
  const row = document.createElement('div');
  row.className = 'hand';
  row.id = 'hand';
  for (const c of hand) {
    const v = values[c] ? values[c].score : bestValue(c);
    const slot = document.createElement('div');
    slot.className = 'slot';
    const el = cardEl(c, {
      legal: passing || legalCard(c),
      dim: myTurn() && !passing && !legalCard(c),
      sel: selected.includes(c),
      value: v !== undefined ? pct(v) : null,
      best: best === c || (best && best.startsWith(c) && view.kind === 'ninetynine') || (best && best.includes('+') && best.split('+').includes(c)),
    });
    el.onclick = () => clickCard(c, view);
    slot.appendChild(el);
    row.appendChild(slot);
  }
  const choices = document.createElement('div');
  choices.className = 'choices';
  choices.id = 'choices';
  if (passing) {
    const b = document.createElement('button');
    b.id = 'passbtn';
    b.className = 'primary';
    b.textContent = pendingPass ? 'Passing ' + view.pass + ' when the others have chosen\u2026' : 'Pass ' + selected.length + ' of 3 cards ' + view.pass;
    b.disabled = selected.length !== 3 || !!pendingPass;
    b.onclick = () => {
      const m = selected.join('+');
      selected = [];
      if (myTurn()) play(m);
      else { pendingPass = m; render(); }
    };
    choices.appendChild(b);
  }
  if (view.kind === 'hearts' && view.passed[me] && view.passed[me].length && view.phase !== 'pass') {
    const p = document.createElement('div');
    const got = receivedCards();
    p.textContent = 'You passed ' + view.passed[me].map(cardText).join(' ') + (got ? '; you received ' + got.map(cardText).join(' ') : '');
    choices.appendChild(p);
  }
  for (const m of legal) {
    if (!/^(bid:|trump:|lose$)/.test(m)) continue;
    const b = document.createElement('button');
    b.textContent = m === 'lose' ? 'Give up a token' : m.startsWith('trump:') ? 'Trump ' + SUITS[m.slice(6)] : 'Bid ' + m.slice(4);
    if (values[m]) { const s = document.createElement('span'); s.className = 'v'; s.textContent = pct(values[m].score); b.appendChild(s); }
    if (m === best) b.classList.add('primary');
    b.dataset.move = m;
    b.onclick = () => play(m);
    choices.appendChild(b);
  }
  if (choiceCard) {
    for (const m of legal.filter((x) => x.startsWith(choiceCard) && x.length > 2)) {
      const b = document.createElement('button');
      const how = m.slice(2);
      b.textContent = cardText(choiceCard) + (how === '+' ? ' as +10' : how === '-' ? ' as \u221210' : ' as ' + how);
      b.dataset.move = m;
      b.onclick = () => { choiceCard = null; play(m); };
      choices.appendChild(b);
    }
  }
  mine.append(choices, row, head);
  board.appendChild(mine);
}

// Any other game (the view's kind `text`): the position as the game
// writes it, whose turn it is, your legal moves as buttons, and the
// result at the end.
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

// Hearts: the cards that came in the pass: the three-card deal line
// this seat was told after its hand's.
function receivedCards() {
  let got = null;
  for (const l of lines) {
    const w = l.split(' ');
    if (w[0] !== 'deal') continue;
    if (w.length > 13) got = null;
    else if (w.length === 4 && w.slice(1).every((c) => CARD.test(c))) got = w.slice(1);
  }
  return got;
}

function bestValue(card) {
  // Ninety-Nine: a card's best choice (AH1 / AH11); a Hearts pass: the
  // best pass that holds the card.
  let best;
  for (const [m, v] of Object.entries(values)) {
    const fits = m.includes('+') ? m.split('+').includes(card) : m.startsWith(card) && m.length > 2;
    if (fits && (best === undefined || v.score > best)) best = v.score;
  }
  return best;
}

function clickCard(card, view) {
  if (view.kind === 'hearts' && view.phase === 'pass' && !pendingPass && !over) {
    selected = selected.includes(card) ? selected.filter((c) => c !== card) : selected.concat([card]).slice(-3);
    render();
    return;
  }
  if (!myTurn()) { play(card); return; }
  if (view.kind === 'ninetynine') {
    const options = st.legal.filter((m) => m.startsWith(card) && m.length > 2);
    if (options.length > 1) { choiceCard = card; render(); return; }
    if (options.length === 1) { play(options[0]); return; }
  }
  play(card);
}

// ---------------------------------------------------------------- move list

// The lines told, in the game's own notation: Othello and Quoridor
// numbered by move pairs (`1. f5 d6`), cards grouped by trick with the
// trick's winner, Ninety-Nine's plays with the total.
function drawLog() {
  const log = $('log');
  log.textContent = '';
  if (!st) return;
  const kind = st.view.kind;
  const add = (text, head) => { const li = document.createElement('li'); li.textContent = text; if (head) li.className = 'head'; log.appendChild(li); };
  if (kind === 'othello' || kind === 'quoridor') {
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
  } else if (kind === 'hearts' || kind === 'wizard') {
    let round = 0, trick = [], k = 0, done = 0;
    const n = st.seats.length;
    let trump = null;
    for (const l of lines) {
      const w = l.split(' ');
      if (w[0] === 'deal') {
        if (isNewHand(kind, w)) { round++; k = 0; add((kind === 'hearts' ? 'Hand ' : 'Round ') + round, true); }
        continue;
      }
      if (w[0] !== 'play') continue;
      const mv = w[2];
      if (mv.includes('+')) { add(w[1] + ' passes ' + mv.split('+').map(cardText).join(' ')); continue; }
      if (mv.startsWith('bid:')) { add(w[1] + ' bids ' + mv.slice(4)); continue; }
      if (mv.startsWith('trump:')) { trump = mv.slice(6); add(w[1] + ' names trump ' + SUITS[trump]); continue; }
      if (!CARD.test(mv)) { add(w[1] + ' ' + mv); continue; }
      trick.push([st.seats.indexOf(w[1]), mv]);
      if (trick.length === n) {
        k++;
        const t = allTricks[done++];
        const winner = t ? t.winner : null;
        add('Trick ' + k + ': ' + trick.map(([s, c]) => st.seats[s] + ' ' + cardText(c)).join(', ') + (winner !== null ? ' \u2192 ' + st.seats[winner] + (t.points ? ' (' + t.points + ')' : '') : ''));
        trick = [];
      }
    }
    if (trick.length) add('Trick ' + (k + 1) + ': ' + trick.map(([s, c]) => st.seats[s] + ' ' + cardText(c)).join(', ') + ' \u2026');
    void trump;
  } else if (kind === 'ninetynine') {
    let hand = 0;
    for (const l of lines) {
      const w = l.split(' ');
      if (w[0] === 'deal') { if (w.length > 2 || hand === 0) { hand++; add('Hand ' + hand, true); } continue; }
      if (w[0] !== 'play') continue;
      add(w[1] + (w[2] === 'lose' ? ' gives up a token' : ' plays ' + cardText(w[2].slice(0, 2)) + (w[2].length > 2 ? ' as ' + ({ '+': '+10', '-': '\u221210' }[w[2].slice(2)] || w[2].slice(2)) : '')));
    }
  } else {
    // Any other game: its lines as told, each move numbered.
    let k = 0;
    for (const l of lines) {
      const w = l.split(' ');
      const seat = st.seats.indexOf(w[1]);
      if (w[0] === 'play') add(++k + '. ' + (seat >= 0 ? seatLabel(seat) : w[1]) + ': ' + w.slice(2).join(' '));
      else add(l);
    }
  }
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
  const text = RULES[g] || [info ? info.summary : g, 'Here: the game\u2019s position as it writes it, and your legal moves as buttons below it; press one to play it.'];
  for (const p of text) { const e = document.createElement('p'); e.textContent = p; t.appendChild(e); }
  $('rules').showModal();
}

function pickGame(game) {
  $('game').value = game;
  $('you').textContent = ''; // the game's own seat for you (Hearts: south)
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
    const short = LOOK[g.name] && LOOK[g.name].short;
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
  // board at first sight: Othello against the engine's default player,
  // you black; the tabs start the other games.
  if (!(await resumeGame())) await newGame();
  window.tabula.ready = true;
});
