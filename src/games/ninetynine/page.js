// Ninety-Nine's page: the card table (src/games/cards/table.js) with the
// running total, a card's value asked where it has two, its words and
// its tokens' sheet. Loaded from /games.js (the registry serves each
// game's scripts) after the page's shell (src/gui/assets/app.js) and the
// card table, whose names it uses.
'use strict';

let choiceCard = null;   // the card whose value is asked

// The moves that play `card` with a value chosen (`TS+`, `AH11`).
function valueChoices(card) { return st.legal.filter((m) => m.startsWith(card) && m.length > 2); }

registerPage('ninetynine', Object.assign({}, CARD_HOOKS, {
  rules: [
    'Each player holds three cards. In turn you play one, adding its value to the running total, and draw a new one; the total may never pass 99.',
    'Special cards: a 4 reverses the direction (0), a 9 is worth 0, a 10 is +10 or \u221210, a king sets the total to 99, an ace is 1 or 11, a jack or queen 10.',
    'If no card keeps the total at 99 or less you lose a token (Give up a token) and a new hand is dealt. The last player with tokens wins.',
  ],
  short: '99',
  options: [
    ['players', 'Players', ['3', '2', '4', '5', '6']],
    ['tokens', 'Tokens', ['3', '1', '2', '4', '5']],
  ],
  seatScore: (view, i) => plural(view.tokens[i], 'token', 'tokens') + (view.in[i] ? '' : ' (out)'),
  resultScores: (sc) => scoreList(sc, 'token', 'tokens'),
  yourTurn: (view) => (st.legal.includes('lose') && st.legal.length === 1 ? 'No card keeps the total at 99 or less: give up a token.' : 'Your turn: the total is ' + view.total + '.'),
  sheetCaption: 'Tokens left after each hand',
  // A new hand: the last one's summary, and a row of the sheet.
  stateCame: (e, before) => {
    if (!before || e.view.hand_no <= before.view.hand_no) return;
    const pv = before.view, v = e.view;
    const loser = v.last_loser;
    const gaveUp = lines.concat(e.told).reverse().find((l) => l.endsWith(' lose'));
    const out = ['Hand ' + pv.hand_no + ' over.'];
    if (loser !== null) out.push(st.seats[loser] + (gaveUp ? ' had no card to keep the total at 99 or less' : ' lost') + ' and loses a token (' + v.tokens[loser] + ' left' + (v.tokens[loser] === 0 ? ': out' : '') + ').');
    summary = out;
    sheetRows.push({ label: 'hand ' + pv.hand_no, cells: v.tokens.map((t) => [t, null]) });
  },
  forget: (everything) => {
    CARD_HOOKS.forget(everything);
    if (everything) choiceCard = null;
  },
  moveList: (add) => {
    let hand = 0;
    for (const l of lines) {
      const w = l.split(' ');
      if (w[0] === 'deal') { if (w.length > 2 || hand === 0) { hand++; add('Hand ' + hand, true); } continue; }
      if (w[0] !== 'play') continue;
      add(w[1] + (w[2] === 'lose' ? ' gives up a token' : ' plays ' + cardText(w[2].slice(0, 2)) + (w[2].length > 2 ? ' as ' + ({ '+': '+10', '-': '\u221210' }[w[2].slice(2)] || w[2].slice(2)) : '')));
    }
  },
  tableCenter: (view, center) => {
    const t = document.createElement('div');
    t.className = 'big';
    t.id = 'total';
    t.textContent = String(view.total);
    center.appendChild(t);
    const d = document.createElement('div');
    d.textContent = (view.reversed ? '\u21ba anticlockwise' : '\u21bb clockwise') + ' \u00b7 stock ' + view.stock;
    center.appendChild(d);
    if (view.top) { const w = document.createElement('div'); w.style.display = 'inline-block'; w.appendChild(cardEl(view.top)); center.appendChild(w); }
  },
  tableInfo: (view, done) => (done || view.phase === 'over' ? 'Game over after ' + plural(view.hands_played, 'hand', 'hands') + '.'
    : 'Hand ' + view.hand_no + ' \u00b7 total ' + view.total + ' \u00b7 ' + (view.reversed ? 'anticlockwise' : 'clockwise')),
  playsCard: (move, card) => move === card || (move.startsWith(card) && move.length > 2),
  // The card whose value is asked: a button for each value.
  handChoices: (view, me, choices) => {
    if (!choiceCard) return;
    const legal = myTurn() ? st.legal : [];
    for (const m of legal.filter((x) => x.startsWith(choiceCard) && x.length > 2)) {
      const b = document.createElement('button');
      const how = m.slice(2);
      b.textContent = cardText(choiceCard) + (how === '+' ? ' as +10' : how === '-' ? ' as \u221210' : ' as ' + how);
      b.dataset.move = m;
      b.onclick = () => { choiceCard = null; play(m); };
      choices.appendChild(b);
    }
  },
  // A card with two values asks which; with one, it is played with it.
  pickCard: (card) => {
    if (!myTurn()) return false;
    const options = valueChoices(card);
    if (options.length > 1) { choiceCard = card; render(); return true; }
    if (options.length === 1) { play(options[0]); return true; }
    return false;
  },
}));
