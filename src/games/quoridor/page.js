// Quoridor's page: its board with the walls' grooves, its marks, its
// words. Loaded from /games.js (the registry serves each game's scripts)
// after the page's shell (src/gui/assets/app.js), whose names it uses:
// registerPage, st, values, myTurn, play, whyNot, notice, bestMove, pct,
// svg, plural, boardMarks, render.
'use strict';

let hover = null;        // the wall under the pointer (or tapped once)
let pointerKind = null;  // the last pointer's type: a finger previews a wall first
let tapped = false;      // the previewed wall was tapped (not merely pointed at)

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

function quoridorBoard(view) {
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
  wrap.append(root, boardMarks([
    ['k-last', 'each pawn\u2019s last move (dot: where it came from)'],
    ['k-wall', 'each player\u2019s last wall'],
    ['k-goal', 'goal side, in the pawn\u2019s colour'],
  ]));
  return wrap;
}

registerPage('quoridor', {
  rules: [
    'Each player\u2019s pawn starts on the middle of a side and must reach the opposite side first.',
    'On your turn, move your pawn one square (not through a wall; you may jump a pawn in front of you), or place one of your walls: it covers two squares\u2019 edge.',
    'Walls may not overlap or cross each other, and may never cut a pawn off from its goal.',
    'Here: click a lit square to move; point at a groove between squares to preview a wall (green: legal, red: why not) and click to place it.',
  ],
  options: [
    ['players', 'Players', ['2', '4']],
    ['size', 'Size', ['9', '7', '5', '11']],
    ['walls', 'Walls', ['', '0', '1', '2', '3', '4', '5', '6', '8', '10', '12', '15', '20']],
    ['jumps', 'Jumps', ['true', 'false']],
  ],
  draw: (view, board) => board.appendChild(quoridorBoard(view)),
  seatScore: (view, i) => { const q = qParse(view); return plural(q.left[i], 'wall', 'walls') + ' \u00b7 ' + plural(view.distance[i], 'step', 'steps') + ' to go'; },
  resultScores: () => '',
  yourTurn: (view, me) => 'Your move (' + me + '): click a lit square, or point at a groove and click to place a wall.',
  moveList: movesInRounds,
  legend: (view, info, lg) => {
    const p = document.createElement('div');
    p.textContent = 'Numbers on squares: your chance to win after moving there. Blue walls: the engine\u2019s three best walls, each with its chance. Gold: the best move' + info + '.';
    lg.appendChild(p);
  },
  // A new position: a wall under a resting pointer is not previewed
  // against it (the wall just placed there would read as refused).
  stateCame: (e, before) => { if (!before || e.step !== before.step) hover = null; },
  forget: () => { hover = null; },
});
