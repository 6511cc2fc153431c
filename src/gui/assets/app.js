// tabula's page: plain JavaScript, no build step. The server is the
// referee; this page shows what its seat may see and sends its clicks.
'use strict';

const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';

// What the browser test reads: click-to-answer times in milliseconds.
window.tabula = { latencies: [], events: 0, state: null, over: null };

let setup = null;        // the server's engines and searches
let session = null;      // this page's game
let source = null;       // its event stream
let st = null;           // the last state event
let prev = null;         // the state before it
let over = null;         // the over event
let values = {};         // analysis: move -> value
let selected = [];       // cards chosen for a pass
let lastTrick = null;    // the last complete trick [[seat, card]...]
let received = null;     // cards received in a pass
let handBeforePass = null;
let sheetRows = [];      // score sheet rows
let pendingClick = null; // [time, move] of a move sent, until shown
let replay = null;       // a record being replayed
let hover = null;        // Quoridor wall under the pointer
let boardBefore = null;  // Othello: the board before the last move

const GAMES = {
  othello: { seats: () => ['black', 'white'], perfect: true, options: [] },
  quoridor: {
    seats: (o) => (o.players === '4' ? ['p1', 'p2', 'p3', 'p4'] : ['p1', 'p2']),
    perfect: true,
    options: [
      ['players', 'Players', ['2', '4']],
      ['size', 'Size', ['9', '7', '5', '11']],
      ['walls', 'Walls', ['', '0', '1', '2', '3', '4', '5', '6', '8', '10', '12', '15', '20']],
      ['jumps', 'Jumps', ['true', 'false']],
    ],
  },
  hearts: {
    seats: () => ['north', 'east', 'south', 'west'],
    perfect: false,
    options: [
      ['hands', 'Hands', ['game', 'single']],
      ['target', 'To', ['100', '50', '25']],
      ['pass', 'Pass', ['cycle', 'left', 'right', 'across', 'none']],
      ['moon', 'Moon', ['others', 'minus']],
    ],
  },
  wizard: {
    seats: (o) => seatNumbers(+o.players || 4),
    perfect: false,
    options: [
      ['players', 'Players', ['4', '3', '5', '6']],
      ['rounds', 'Rounds', ['', '1', '2', '3', '5', '10']],
      ['no_even_bids', 'No even bids', ['false', 'true']],
    ],
  },
  ninetynine: {
    seats: (o) => seatNumbers(+o.players || 3),
    perfect: false,
    options: [
      ['players', 'Players', ['3', '2', '4', '5', '6']],
      ['tokens', 'Tokens', ['3', '1', '2', '4', '5']],
    ],
  },
};

function seatNumbers(n) {
  return Array.from({ length: n }, (_, i) => 'p' + i);
}

// ---------------------------------------------------------------- setup

function optionValues() {
  const o = {};
  for (const [key] of GAMES[$('game').value].options) {
    const el = $('opt_' + key);
    if (el) o[key] = el.value;
  }
  return o;
}

function searchesFor(game, o) {
  if (!setup) return ['random'];
  if (game === 'othello') return setup.searches.othello;
  if (game === 'quoridor') return o.players === '4' ? setup.searches.quoridor4 : setup.searches.quoridor;
  return setup.searches.cards;
}

function buildOptions() {
  const game = $('game').value;
  const span = $('options');
  span.textContent = '';
  for (const [key, label, choices] of GAMES[game].options) {
    const l = document.createElement('label');
    l.textContent = label + ' ';
    const s = document.createElement('select');
    s.id = 'opt_' + key;
    for (const c of choices) {
      const o = document.createElement('option');
      o.value = c;
      o.textContent = c === '' ? 'default' : c;
      s.appendChild(o);
    }
    s.onchange = buildSeats;
    l.appendChild(s);
    span.appendChild(l);
  }
  buildSeats();
}

function buildSeats() {
  const game = $('game').value;
  const o = optionValues();
  const names = GAMES[game].seats(o);
  const you = $('you');
  const keep = you.value;
  you.textContent = '';
  names.forEach((n, i) => you.add(new Option(n, String(i))));
  if (GAMES[game].perfect) you.add(new Option('nobody (watch)', 'none'));
  you.value = [...you.options].some((x) => x.value === keep) ? keep : (game === 'hearts' ? '2' : '0');
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
    searches.forEach((x) => s.add(new Option(x, x)));
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
  const r = await fetch(path + '?' + new URLSearchParams(params), { method: 'POST', body });
  let j = {};
  try { j = await r.json(); } catch (e) { j = { error: 'bad reply' }; }
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

function say(text, error) {
  const s = $('status');
  s.textContent = text;
  s.className = error ? 'error' : '';
}

async function newGame() {
  const game = $('game').value;
  const o = optionValues();
  const params = new URLSearchParams();
  params.append('game', game);
  for (const [k, v] of Object.entries(o)) if (v !== '') params.append('opt', k + '=' + v);
  params.append('you', $('you').value);
  GAMES[game].seats(o).forEach((_, i) => {
    if ($('you').value === String(i)) return;
    params.append('engine' + i, $('engine' + i).value);
    params.append('search' + i, $('search' + i).value);
    params.append('ms' + i, $('ms' + i).value);
  });
  await closeGame();
  stopReplay();
  try {
    const j = await post('/api/new', params);
    session = j.session;
  } catch (e) {
    say('Cannot start: ' + e.message, true);
    return;
  }
  st = prev = over = boardBefore = hover = null;
  say('');
  values = {};
  selected = [];
  lastTrick = received = handBeforePass = null;
  sheetRows = [];
  $('log').textContent = '';
  $('sheet').textContent = '';
  $('record').hidden = true;
  $('undo').disabled = !GAMES[game].perfect;
  if ($('analysis').checked) post('/api/analysis', { s: session, on: '1' }).catch(() => {});
  source = new EventSource('/api/events?s=' + session);
  source.onmessage = (m) => onEvent(JSON.parse(m.data));
  source.onerror = () => {
    if (source && source.readyState === EventSource.CLOSED) say('The connection to the server is closed.', true);
  };
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

// ---------------------------------------------------------------- events

function onEvent(e) {
  window.tabula.events++;
  if (e.type === 'reset') {
    $('log').textContent = '';
    return;
  }
  if (e.type === 'closed') {
    say('The server ended this game.', true);
    if (source) source.close();
    return;
  }
  if (e.type === 'analysis') {
    values = {};
    for (const m of e.moves) values[m.move] = m.score;
    if (st) render();
    return;
  }
  if (e.type === 'over') {
    over = e;
    window.tabula.over = e;
    $('record').href = '/api/record?s=' + session;
    $('record').hidden = false;
    render();
    return;
  }
  if (e.type !== 'state') return;
  if (st && e.view.position !== undefined && st.view.position !== e.view.position) boardBefore = st.view.position;
  prev = st;
  st = e;
  window.tabula.state = e;
  if (e.to_move !== e.you) values = {};
  for (const line of e.told) {
    const li = document.createElement('li');
    li.textContent = line;
    $('log').appendChild(li);
  }
  $('log').scrollTop = $('log').scrollHeight;
  trackCards();
  render();
  if (pendingClick && e.told.some((l) => l.endsWith(' ' + pendingClick[1]))) {
    window.tabula.latencies.push(performance.now() - pendingClick[0]);
    pendingClick = null;
  }
}

// Card bookkeeping the view does not carry: the last trick, the cards
// received in a pass, the score sheet.
function trackCards() {
  const v = st.view;
  const pv = prev && prev.view;
  if (!pv || !v.trick) return;
  const plays = st.told.map((l) => l.split(' ')).filter((w) => w[0] === 'play' && /^[2-9TJQKAZN][CDHS1-4]$/.test(w[2]));
  if (pv.trick.length > 0 && v.trick.length < pv.trick.length + plays.length && plays.length > 0) {
    const done = pv.trick.slice();
    for (const w of plays) {
      const seat = st.seats.indexOf(w[1]);
      if (done.length < st.seats.length) done.push([seat, w[2]]);
    }
    lastTrick = done;
  }
  if (v.kind === 'hearts') {
    const mine = v.hands[st.you];
    if (v.phase === 'pass') { handBeforePass = mine.slice(); received = null; }
    if (handBeforePass && pv.phase !== 'play' && v.phase !== 'pass' && mine.length === 13) {
      const kept = handBeforePass.filter((c) => !v.passed[st.you].includes(c));
      received = mine.filter((c) => !kept.includes(c));
      if (received.length === 3) handBeforePass = null;
    }
    if (v.hand_no > pv.hand_no) sheetRows.push(['hand ' + pv.hand_no, ...v.last_hand, '|', ...v.totals]);
  }
  if (v.kind === 'wizard' && v.round > pv.round) sheetRows.push(['round ' + pv.round, ...v.last_round, '|', ...v.totals]);
  if (v.kind === 'ninetynine' && v.hand_no > pv.hand_no) {
    sheetRows.push(['hand ' + pv.hand_no, ...v.tokens.map(String), '|', v.last_loser === null ? '' : st.seats[v.last_loser] + ' lost a token']);
  }
}

// ---------------------------------------------------------------- moves

async function play(move, reason) {
  if (!session || replay) return;
  const t0 = performance.now();
  pendingClick = [t0, move];
  try {
    await post('/api/move', { s: session, move });
    say('');
  } catch (e) {
    pendingClick = null;
    say('Refused: ' + (reason || e.message), true);
  }
  window.tabula.latencies.push(performance.now() - t0);
}

function myTurn() {
  return st && st.waiting && st.you !== null && st.to_move === st.you && !replay;
}

// ---------------------------------------------------------------- drawing

function render() {
  const view = replay ? replay.steps[replay.at].view : st.view;
  const board = $('board');
  board.textContent = '';
  if (view.kind === 'othello') board.appendChild(othello(view));
  else if (view.kind === 'quoridor') board.appendChild(quoridor(view));
  else if (view.kind === 'hearts' || view.kind === 'wizard' || view.kind === 'ninetynine') board.appendChild(cardTable(view));
  else { const pre = document.createElement('pre'); pre.textContent = view.text; board.appendChild(pre); }
  if (!replay) players();
  sheet(view);
  if (!replay) status(view);
}

function seatName(i) {
  if (replay) return replay.seat_names[i];
  return st.seats[i];
}

function players() {
  const p = $('players');
  p.textContent = '';
  st.seats.forEach((n, i) => {
    const d = document.createElement('div');
    d.className = 'p' + (st.to_move === i ? ' turn' : '') + (st.thinking === i ? ' thinking' : '');
    d.textContent = n + ': ' + st.labels[i];
    p.appendChild(d);
  });
}

function status(view) {
  if (over) {
    const names = over.winners.map((w) => st.seats[w]);
    const mine = st.you !== null && over.winners.includes(st.you);
    const text = over.ending !== 'normal' ? 'Game over (' + over.ending + ').'
      : names.length === 0 || names.length === st.seats.length ? 'Game over: a draw.'
      : 'Game over: ' + names.join(' and ') + (names.length > 1 ? ' win' : ' wins') + (mine ? ' (you!).' : '.');
    say(text + (over.scores ? ' Scores: ' + over.scores.map((s, i) => st.seats[i] + ' ' + s).join(', ') : ''));
    return;
  }
  if (st.thinking !== null) say(st.seats[st.thinking] + ' (' + st.labels[st.thinking] + ') is thinking\u2026');
  else if (myTurn()) {
    if (st.legal.length === 1 && st.legal[0] === 'pass') say('You have no move: press Pass.');
    else if ($('status').className !== 'error') say('Your move.');
  }
}

function sheet(view) {
  const t = $('sheet');
  t.textContent = '';
  if (!view.totals && !view.tokens) return;
  const head = t.insertRow();
  const names = replay ? replay.seat_names : st.seats;
  ['', ...names, '', ...(view.totals ? names : [])].forEach((n) => { const th = document.createElement('th'); th.textContent = n; head.appendChild(th); });
  for (const r of sheetRows) { const tr = t.insertRow(); r.forEach((x) => { tr.insertCell().textContent = x; }); }
  const now = t.insertRow();
  const cells = view.kind === 'ninetynine' ? ['now', ...view.tokens, '', 'total ' + view.total]
    : ['now', ...(view.points || view.won), '|', ...view.totals];
  cells.forEach((x) => { now.insertCell().textContent = x; });
}

function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

function pct(v) { return Math.round(v * 100) + '%'; }

function othello(view) {
  const S = 52;
  const root = svg('svg', { width: S * 8 + 30, height: S * 8 + 60, id: 'othello' });
  const pos = view.position.split(' ')[0];
  const before = boardBefore && !replay ? boardBefore.split(' ')[0] : null;
  const legal = myTurn() ? st.legal : [];
  const last = !replay && st.last ? st.last.move : null;
  for (let r = 0; r < 8; r++) {
    for (let c = 0; c < 8; c++) {
      const sq = 'abcdefgh'[c] + (r + 1);
      const x = 24 + c * S, y = 20 + r * S;
      const cell = svg('rect', { x, y, width: S, height: S, fill: '#2e8b57', stroke: '#174d2e', class: 'cell', 'data-square': sq }, root);
      cell.onclick = () => play(sq);
      const ch = pos[r * 8 + c];
      if (ch === 'X' || ch === 'O') {
        const flipped = before && before[r * 8 + c] !== ch && before[r * 8 + c] !== '-' && before[r * 8 + c] !== '.';
        svg('circle', { cx: x + S / 2, cy: y + S / 2, r: S * 0.4, fill: ch === 'X' ? '#111' : '#f4f4f4', stroke: flipped ? '#ffd24a' : '#000', 'stroke-width': flipped ? 3 : 1, 'data-disc': ch }, root);
      } else if (legal.includes(sq)) {
        const v = values[sq];
        svg('circle', { cx: x + S / 2, cy: y + S / 2, r: 5, fill: 'rgba(0,0,0,.35)', 'data-legal': sq }, root);
        if (v !== undefined) { const t = svg('text', { x: x + S / 2, y: y + S / 2 + 18, 'text-anchor': 'middle', fill: '#fff', 'font-size': 12 }, root); t.textContent = pct(v); }
      }
      if (sq === last) svg('circle', { cx: x + S / 2, cy: y + S / 2, r: 4, fill: '#e33' }, root);
    }
  }
  for (let i = 0; i < 8; i++) {
    svg('text', { x: 24 + i * S + S / 2, y: 14, 'text-anchor': 'middle', 'font-size': 12 }, root).textContent = 'abcdefgh'[i];
    svg('text', { x: 10, y: 20 + i * S + S / 2 + 4, 'text-anchor': 'middle', 'font-size': 12 }, root).textContent = String(i + 1);
  }
  const t = svg('text', { x: 24, y: S * 8 + 44, 'font-size': 16 }, root);
  const side = view.position.split(' ')[1] === 'X' ? 'black' : 'white';
  t.textContent = 'black ' + view.discs[0] + ' \u2013 white ' + view.discs[1] + (replay ? '' : '   ' + side + ' to move');
  if (!replay && st.last && st.last.move === 'pass') say(st.seats[st.last.seat] + ' passes.');
  if (myTurn() && legal.length === 1 && legal[0] === 'pass') {
    const fo = svg('foreignObject', { x: 24 + S * 6, y: S * 8 + 26, width: 120, height: 30 }, root);
    const b = document.createElement('button');
    b.textContent = 'Pass';
    b.id = 'pass';
    b.onclick = () => play('pass');
    fo.appendChild(b);
  }
  return root;
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

function wallReason(view, q, wall) {
  const me = st.you;
  if (q.left[me] === 0) return 'you have no walls left';
  const c = wall.charCodeAt(0) - 97, r = parseInt(wall.slice(1, -1), 10) - 1, o = wall.slice(-1);
  const has = (cc, rr, oo) => q.walls.includes(sqName(cc, rr) + oo);
  if (o === 'h' && (has(c, r, 'h') || has(c - 1, r, 'h') || has(c + 1, r, 'h'))) return 'it overlaps a wall';
  if (o === 'v' && (has(c, r, 'v') || has(c, r - 1, 'v') || has(c, r + 1, 'v'))) return 'it overlaps a wall';
  if (has(c, r, o === 'h' ? 'v' : 'h')) return 'it crosses a wall';
  return 'it would leave a pawn no path to its goal';
}

function quoridor(view) {
  const n = view.size, S = 44, G = 10, P = S + G, O = 24;
  const q = qParse(view);
  const root = svg('svg', { width: Math.max(O + n * P + 10, 560), height: O + n * P + 50, id: 'quoridor' });
  const legal = myTurn() ? st.legal : [];
  const Y = (r) => O + (n - 1 - r) * P; // row r (0 = row 1) from the top
  const colours = ['#c0392b', '#2c3e90', '#d4a017', '#2e8b57'];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const sq = sqName(c, r);
      const cell = svg('rect', { x: O + c * P, y: Y(r), width: S, height: S, rx: 4, fill: legal.includes(sq) ? '#d9c7a0' : '#b89968', class: 'cell', 'data-square': sq }, root);
      cell.onclick = () => play(sq);
      if (legal.includes(sq) && values[sq] !== undefined) svg('text', { x: O + c * P + S / 2, y: Y(r) + S - 4, 'text-anchor': 'middle', 'font-size': 11 }, root).textContent = pct(values[sq]);
    }
    svg('text', { x: 10, y: Y(r) + S / 2 + 4, 'text-anchor': 'middle', 'font-size': 12 }, root).textContent = String(r + 1);
  }
  for (let c = 0; c < n; c++) svg('text', { x: O + c * P + S / 2, y: O + n * P + 6, 'text-anchor': 'middle', 'font-size': 12 }, root).textContent = String.fromCharCode(97 + c);
  const drawWall = (wall, colour, extra) => {
    const c = wall.charCodeAt(0) - 97, r = parseInt(wall.slice(1, -1), 10) - 1;
    const attrs = wall.endsWith('h')
      ? { x: O + c * P, y: Y(r) - G + 1, width: 2 * S + G, height: G - 2 }
      : { x: O + c * P + S + 1, y: Y(r + 1), width: G - 2, height: 2 * S + G };
    return svg('rect', Object.assign(attrs, { fill: colour, rx: 2, 'data-wall': wall }, extra || {}), root);
  };
  for (const w of q.walls) drawWall(w, '#5a3a1a');
  // Grooves: a hit area per wall anchor; hovering previews the wall.
  if (myTurn()) {
    for (let r = 0; r < n - 1; r++) {
      for (let c = 0; c < n; c++) {
        for (const o of ['h', 'v']) {
          const ac = o === 'h' ? Math.min(c, n - 2) : r;
          const ar = o === 'h' ? r : Math.min(c, n - 2);
          const wall = o === 'h' ? sqName(ac, ar) + 'h' : sqName(r, ar) + 'v';
          const area = o === 'h'
            ? { x: O + c * P, y: Y(r) - G, width: S, height: G }
            : { x: O + r * P + S, y: Y(c), width: G, height: S };
          const a = svg('rect', Object.assign(area, { fill: 'transparent', class: 'cell groove', 'data-groove': wall }), root);
          a.onmouseenter = () => { if (hover !== wall) { hover = wall; render(); } };
          // An illegal wall still goes to the referee, which refuses it;
          // the page adds why.
          a.onclick = () => play(wall, legal.includes(wall) ? null : wall + ': ' + wallReason(view, q, wall));
        }
      }
    }
    if (hover) {
      const ok = legal.includes(hover);
      drawWall(hover, ok ? 'rgba(40,160,80,.7)' : 'rgba(200,40,40,.6)', { 'pointer-events': 'none' });
      const v = values[hover];
      if (!ok) say(hover + ': ' + wallReason(view, q, hover), true);
      else say('Wall ' + hover + (v !== undefined ? ' (' + pct(v) + ')' : ''));
    }
    // The engine's best walls, with their values.
    Object.entries(values).filter(([m]) => /[hv]$/.test(m)).sort((a, b) => b[1] - a[1]).slice(0, 3)
      .forEach(([m, v]) => { drawWall(m, 'rgba(30,90,200,.35)', { 'pointer-events': 'none' }); });
  }
  q.pawns.forEach((p, i) => {
    const c = p.charCodeAt(0) - 97, r = parseInt(p.slice(1), 10) - 1;
    svg('circle', { cx: O + c * P + S / 2, cy: Y(r) + S / 2, r: S * 0.35, fill: colours[i], stroke: '#000', 'data-pawn': 'p' + (i + 1) }, root);
    svg('text', { x: O + c * P + S / 2, y: Y(r) + S / 2 + 5, 'text-anchor': 'middle', fill: '#fff', 'font-size': 14 }, root).textContent = String(i + 1);
  });
  const info = svg('text', { x: O, y: O + n * P + 30, 'font-size': 14 }, root);
  info.textContent = q.left.map((l, i) => 'p' + (i + 1) + ' walls ' + l + ', distance ' + view.distance[i]).join('   ');
  return root;
}

// ---------------------------------------------------------------- cards

const SUITS = { C: '\u2663', D: '\u2666', H: '\u2665', S: '\u2660' };

function cardEl(card, opts) {
  const d = document.createElement('div');
  d.className = 'card';
  d.dataset.card = card;
  if (card[0] === 'Z') d.textContent = 'W' + card[1];
  else if (card[0] === 'N') d.textContent = 'J' + card[1];
  else {
    d.textContent = (card[0] === 'T' ? '10' : card[0]) + SUITS[card[1]];
    if (card[1] === 'H' || card[1] === 'D') d.classList.add('red');
  }
  if (card[0] === 'Z') d.title = 'Wizard';
  if (card[0] === 'N') d.title = 'Jester';
  if (opts && opts.legal) d.classList.add('legal');
  if (opts && opts.dim) d.classList.add('dim');
  if (opts && opts.sel) d.classList.add('sel');
  if (opts && opts.value !== undefined) { const v = document.createElement('span'); v.className = 'val'; v.textContent = pct(opts.value); d.appendChild(v); }
  return d;
}

function cardsRow(cards, opts) {
  const row = document.createElement('div');
  row.className = 'cards';
  for (const c of cards) row.appendChild(cardEl(c, opts ? opts(c) : null));
  return row;
}

function seatInfo(view, i) {
  if (view.kind === 'hearts') return 'points ' + view.points[i] + ', total ' + view.totals[i];
  if (view.kind === 'wizard') return 'bid ' + (view.bids[i] === null ? '\u2013' : view.bids[i]) + ', won ' + view.won[i] + ', total ' + view.totals[i];
  return 'tokens ' + view.tokens[i] + (view.in[i] ? '' : ' (out)');
}

function cardTable(view) {
  const felt = document.createElement('div');
  felt.className = 'felt';
  felt.id = 'cardtable';
  const me = replay ? null : st.you;
  const n = view.counts.length;
  const turnSeat = replay ? null : st.to_move;
  // The others, clockwise from the person's left.
  const opps = document.createElement('div');
  opps.className = 'opps';
  const order = [];
  for (let k = 1; k <= n; k++) { const s = ((me === null ? 0 : me) + k) % n; if (s !== me) order.push(s); }
  for (const s of order) {
    const o = document.createElement('div');
    o.className = 'opp' + (turnSeat === s ? ' turn' : '');
    o.dataset.seat = String(s);
    const head = document.createElement('div');
    head.textContent = seatName(s) + (replay ? '' : ' \u00b7 ' + st.labels[s]) + (view.dealer === s ? ' (dealer)' : '') + (!replay && st.thinking === s ? ' \u2026thinking' : '');
    o.appendChild(head);
    const hand = view.hands[s];
    if (hand) o.appendChild(cardsRow(hand));
    else { const backs = document.createElement('div'); for (let k = 0; k < view.counts[s]; k++) { const b = document.createElement('span'); b.className = 'back'; backs.appendChild(b); } const c = document.createElement('span'); c.textContent = '  ' + view.counts[s]; c.style.marginLeft = '16px'; backs.appendChild(c); o.appendChild(backs); }
    const info = document.createElement('div'); info.className = 'info'; info.textContent = seatInfo(view, s); o.appendChild(info);
    opps.appendChild(o);
  }
  felt.appendChild(opps);
  // The middle: the trick, or the running total.
  const mid = document.createElement('div');
  mid.className = 'trick';
  mid.id = 'trick';
  if (view.kind === 'ninetynine') {
    const t = document.createElement('div');
    t.innerHTML = '';
    t.textContent = 'total ' + view.total + ' \u00b7 ' + (view.reversed ? 'anticlockwise \u21ba' : 'clockwise \u21bb') + ' \u00b7 stock ' + view.stock + ' \u00b7 hand ' + view.hand_no;
    mid.appendChild(t);
    if (view.top) mid.appendChild(cardEl(view.top));
  } else {
    for (const [s, c] of view.trick) { const w = document.createElement('div'); w.appendChild(cardEl(c)); const l = document.createElement('div'); l.className = 'who'; l.textContent = seatName(s); w.appendChild(l); mid.appendChild(w); }
    if (view.trick.length === 0 && lastTrick && !replay) {
      const l = document.createElement('div'); l.className = 'who'; l.textContent = 'last trick: ' + lastTrick.map(([s, c]) => seatName(s) + ' ' + c).join(', '); mid.appendChild(l);
    }
  }
  felt.appendChild(mid);
  const info = document.createElement('div');
  info.className = 'info';
  if (view.kind === 'hearts') info.textContent = 'hand ' + view.hand_no + ' \u00b7 pass ' + view.pass + ' \u00b7 trick ' + Math.min(view.tricks + 1, 13) + ' \u00b7 hearts ' + (view.broken ? 'broken' : 'not broken');
  if (view.kind === 'wizard') info.textContent = 'round ' + view.round + ' of ' + view.rounds + ' \u00b7 ' + view.round_cards + ' cards \u00b7 turned ' + (view.turned || '\u2013') + ' \u00b7 trump ' + (view.trump ? SUITS[view.trump] : (view.phase === 'trump' ? 'the dealer names it' : 'none'));
  felt.appendChild(info);
  if (replay) {
    return felt;
  }
  const mine = document.createElement('div');
  mine.className = 'mine' + (myTurn() ? ' turn' : '');
  mine.id = 'hand';
  const head = document.createElement('div');
  head.textContent = 'You (' + st.seats[me] + ') \u00b7 ' + seatInfo(view, me);
  mine.appendChild(head);
  const hand = view.hands[me] || [];
  const legal = myTurn() ? st.legal : [];
  const passing = view.kind === 'hearts' && view.phase === 'pass' && myTurn();
  const legalCard = (c) => legal.some((m) => m === c || (m.startsWith(c) && m.length > 2 && view.kind === 'ninetynine'));
  mine.appendChild(cardsRow(hand, (c) => ({
    legal: passing || legalCard(c),
    dim: myTurn() && !passing && !legalCard(c),
    sel: selected.includes(c),
    value: values[c] !== undefined ? values[c] : bestValue(c),
  })));
  mine.querySelectorAll('.card').forEach((el) => { el.onclick = () => clickCard(el.dataset.card, view); });
  const choices = document.createElement('div');
  choices.className = 'choices';
  choices.id = 'choices';
  if (passing) {
    const b = document.createElement('button');
    b.id = 'passbtn';
    b.textContent = 'Pass ' + selected.length + '/3 cards ' + view.pass;
    b.disabled = selected.length !== 3;
    b.onclick = () => { const m = selected.join('+'); selected = []; play(m); };
    choices.appendChild(b);
  }
  if (view.kind === 'hearts' && view.passed[me] && view.passed[me].length && view.phase !== 'pass') {
    const p = document.createElement('div'); p.textContent = 'you passed ' + view.passed[me].join(' ') + (received ? ', received ' + received.join(' ') : ''); choices.appendChild(p);
  }
  for (const m of legal) {
    if (!/^(bid:|trump:|lose$)/.test(m)) continue;
    const b = document.createElement('button');
    b.textContent = m === 'lose' ? 'Give up a token' : m.startsWith('trump:') ? 'trump ' + SUITS[m.slice(6)] : 'bid ' + m.slice(4);
    if (values[m] !== undefined) b.textContent += ' (' + pct(values[m]) + ')';
    b.dataset.move = m;
    b.onclick = () => play(m);
    choices.appendChild(b);
  }
  if (choiceCard) {
    for (const m of legal.filter((x) => x.startsWith(choiceCard) && x.length > 2)) {
      const b = document.createElement('button');
      const how = m.slice(2);
      b.textContent = choiceCard + (how === '+' ? ' as +10' : how === '-' ? ' as \u221210' : ' as ' + how);
      b.dataset.move = m;
      b.onclick = () => { choiceCard = null; play(m); };
      choices.appendChild(b);
    }
  }
  mine.appendChild(choices);
  felt.appendChild(mine);
  if (over) { const b = document.createElement('div'); b.className = 'banner'; b.textContent = $('status').textContent; felt.appendChild(b); }
  return felt;
}

let choiceCard = null;

function bestValue(card) {
  // Ninety-Nine: a card's best choice (AH1 / AH11).
  let best;
  for (const [m, v] of Object.entries(values)) if (m.startsWith(card) && m.length > 2 && (best === undefined || v > best)) best = v;
  return best;
}

function clickCard(card, view) {
  if (!myTurn()) { play(card); return; }
  if (view.kind === 'hearts' && view.phase === 'pass') {
    selected = selected.includes(card) ? selected.filter((c) => c !== card) : selected.concat([card]).slice(-3);
    render();
    return;
  }
  if (view.kind === 'ninetynine') {
    const options = st.legal.filter((m) => m.startsWith(card) && m.length > 2);
    if (options.length > 1) { choiceCard = card; render(); return; }
    if (options.length === 1) { play(options[0]); return; }
  }
  play(card);
}

// ---------------------------------------------------------------- replay

async function openReplay(text, number) {
  try {
    const j = await post('/api/replay', { game: String(number) }, text);
    await closeGame();
    replay = j;
    replay.text = text;
    replay.at = 0;
    $('replay').hidden = false;
    const sel = $('replaygame');
    sel.textContent = '';
    for (const g of j.games) sel.add(new Option('game ' + g.number + ': ' + g.seats.join(' v ') + ' (' + g.results.join('-') + ')', String(g.number)));
    sel.value = String(j.number);
    $('rstep').max = String(j.steps.length - 1);
    $('rstep').value = '0';
    $('players').textContent = j.seat_names.map((s, i) => s + ': ' + j.seats[i]).join(' \u00b7 ');
    say('Replay of ' + j.game + ' game ' + j.number + ' (' + j.ending + ')' + (j.scores ? ', scores ' + j.scores.join(' ') : ''));
    showStep(0);
  } catch (e) {
    say('Cannot replay: ' + e.message, true);
  }
}

function showStep(k) {
  replay.at = Math.max(0, Math.min(replay.steps.length - 1, k));
  $('rstep').value = String(replay.at);
  $('rline').textContent = replay.at + '/' + (replay.steps.length - 1) + ': ' + replay.steps[replay.at].line;
  render();
}

function stopReplay() {
  replay = null;
  $('replay').hidden = true;
}

// ---------------------------------------------------------------- start

window.addEventListener('DOMContentLoaded', async () => {
  try { setup = await (await fetch('/api/setup')).json(); } catch (e) { say('No server.', true); }
  $('game').onchange = buildOptions;
  buildOptions();
  $('start').onclick = newGame;
  $('undo').onclick = async () => {
    try { await post('/api/undo', { s: session }); over = null; say('Move taken back.'); } catch (e) { say('Refused: ' + e.message, true); }
  };
  $('analysis').onchange = () => { if (session) post('/api/analysis', { s: session, on: $('analysis').checked ? '1' : '0' }).catch(() => {}); values = {}; if (st) render(); };
  $('replayfile').onchange = async () => { const f = $('replayfile').files[0]; if (f) openReplay(await f.text(), 1); };
  $('replaygame').onchange = () => openReplay(replay.text, +$('replaygame').value);
  $('rfirst').onclick = () => showStep(0);
  $('rprev').onclick = () => showStep(replay.at - 1);
  $('rnext').onclick = () => showStep(replay.at + 1);
  $('rlast').onclick = () => showStep(replay.steps.length - 1);
  $('rstep').oninput = () => showStep(+$('rstep').value);
  document.addEventListener('keydown', (e) => { if (!replay) return; if (e.key === 'ArrowRight') showStep(replay.at + 1); if (e.key === 'ArrowLeft') showStep(replay.at - 1); });
  window.addEventListener('pagehide', () => { if (session) navigator.sendBeacon('/api/close?s=' + session); });
});
