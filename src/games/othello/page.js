// Othello's page: its board, its marks, its words. Loaded from /games.js
// (the registry serves each game's scripts) after the page's shell
// (src/gui/assets/app.js), whose names it uses: registerPage, st, over,
// replay, values, myTurn, play, bestMove, pct, svg, seatName, plural,
// boardMarks, scoreList, scorePair, render.
'use strict';

// The analysis shows each move's final disc margin, or its chance to
// win (the legend's button switches).
let othelloWinChance = false;

function othelloValueText(m) {
  const v = values[m];
  if (!v) return null;
  if (v.margin !== undefined && !othelloWinChance) {
    const x = Math.round(+v.margin);
    return (v.exact ? '=' : '') + (x > 0 ? '+' + x : x < 0 ? '\u2212' + (-x) : '0');
  }
  return pct(v.score);
}

function othelloBoard(view) {
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
        const t = othelloValueText(sq);
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
  const marks = boardMarks([['k-last', 'each side\u2019s last move'], ['k-turned', 'discs the last move turned']]);
  if (passed.length) marks.append('(' + passed.join(' and ') + ' passed last)');
  wrap.appendChild(marks);
  return wrap;
}

registerPage('othello', {
  rules: [
    'Two players, black and white, take turns to place a disc on the 8x8 board; black moves first.',
    'A move must outflank: the new disc and another disc of yours enclose a straight line (across, down or diagonal) of the other colour, and every enclosed disc is turned to your colour.',
    'With no such move you pass (press Pass); when neither side can move the game ends, and the side with more discs wins.',
    'Here: your legal moves are dotted; the last move has a red dot and the discs it turned a gold ring. Analysis writes each move\u2019s final disc margin (best play after it), the best ringed.',
  ],
  options: [],
  draw: (view, board) => board.appendChild(othelloBoard(view)),
  seatScore: (view, i) => plural(view.discs[i], 'disc', 'discs'),
  // Two sides: the winner's count first (`33-31`).
  resultScores: (sc, winners, draw) => (sc.length === 2 ? scorePair(sc, winners, draw) : scoreList(sc, 'disc', 'discs')),
  yourTurn: (view, me) => 'Your move (' + me + '): click a dotted square.',
  moveList: movesInRounds,
  legend: (view, info, lg) => {
    const p = document.createElement('div');
    p.textContent = (othelloWinChance ? 'Numbers: your chance to win after each move.' : 'Numbers: the final disc margin for you after each move, with best play (exact where solved, marked =).') + ' The gold ring marks the best move' + info + '.';
    const t = document.createElement('button');
    t.type = 'button';
    t.id = 'valuekind';
    t.textContent = othelloWinChance ? 'Show disc margins' : 'Show win chances';
    t.onclick = () => { othelloWinChance = !othelloWinChance; render(); };
    lg.append(p, t);
  },
});
