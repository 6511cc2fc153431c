// Hearts's page: the card table (src/games/cards/table.js) with the pass,
// its words and its score sheet. Loaded from /games.js (the registry
// serves each game's scripts) after the page's shell
// (src/gui/assets/app.js) and the card table, whose names it uses.
'use strict';

// The cards that came in the pass: the three-card deal line this seat
// was told after its hand's.
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

// Whether seat `me` has passed its cards this hand.
function hasPassed(view, me) { return !!(view.passed[me] && view.passed[me].length); }

registerPage('hearts', Object.assign({}, CARD_HOOKS, {
  rules: [
    'Four players, 13 cards each. Before each hand (except every fourth) you pass three cards: left, right, then across.',
    'The two of clubs leads the first trick. Follow the suit led if you can; the highest card of the suit led takes the trick, and its winner leads the next.',
    'Each heart taken costs a point, the queen of spades 13. Hearts cannot be led until one has been played (broken). Take all 26 points (shoot the moon) and the others get 26 each.',
    'The game ends when someone reaches the target; the lowest score wins.',
  ],
  you: '2',
  options: [
    ['hands', 'Hands', ['game', 'single']],
    ['target', 'To', ['100', '50', '25']],
    ['pass', 'Pass', ['cycle', 'left', 'right', 'across', 'none']],
    ['moon', 'Moon', ['others', 'minus']],
  ],
  seatScore: (view, i) => 'this hand ' + view.points[i] + ' \u00b7 total ' + view.totals[i],
  resultScores: (sc) => scoreList(sc, 'point', 'points'),
  yourTurn: (view) => (view.phase === 'pass' ? 'Choose three cards to pass ' + view.pass + ', then press Pass.' : 'Your turn: play a framed card.'),
  waiting: (view) => {
    if (view.phase !== 'pass' || st.you === null || hasPassed(view, st.you)) return null;
    // The others choose their passes first: the person chooses meanwhile.
    return queuedMove ? 'Your pass is ready: it goes when the others have chosen theirs.' : 'Choose three cards to pass ' + view.pass + ', then press Pass (the others are choosing theirs).';
  },
  sheetCaption: 'Score sheet: points of the hand, then the total (lowest wins)',
  legend: cardLegend('(share of the best result)'),
  takesTricks: true,
  handName: 'hand',
  // A new hand's deal tells a seat its 13 cards (then the three it
  // receives, and who holds the two of clubs).
  isNewHand: (w) => w.length > 13,
  handSummary: (p, v, won, pts) => {
    const out = [];
    const scores = over && over.scores ? null : v.last_hand;
    out.push('Hand ' + p.round + ' over.');
    const last = p.tricks[p.tricks.length - 1];
    const moon = last ? last.moon : null;
    if (moon !== null && moon !== undefined) out.push(st.seats[moon] + ' shot the moon!');
    out.push('Points taken: ' + st.seats.map((s, i) => s + ' ' + pts[i]).join(', ') + '.');
    out.push('Totals: ' + st.seats.map((s, i) => s + ' ' + v.totals[i]).join(', ') + '.');
    sheetRows.push({ label: 'hand ' + p.round, cells: st.seats.map((_, i) => [scores ? scores[i] : pts[i], v.totals[i]]) });
    return out;
  },
  tableInfo: (view) => 'Hand ' + view.hand_no + ' \u00b7 pass ' + view.pass + ' \u00b7 trick ' + Math.min(view.tricks + 1, 13) + ' of 13 \u00b7 hearts ' + (view.broken ? 'broken' : 'not broken'),
  // The pass: the person chooses while the engines choose theirs; it
  // goes when the referee asks for it.
  choosing: (view, me) => view.phase === 'pass' && !over && !hasPassed(view, me),
  handChoices: (view, me, choices) => {
    if (view.phase === 'pass' && !over && !hasPassed(view, me)) {
      const b = document.createElement('button');
      b.id = 'passbtn';
      b.className = 'primary';
      b.textContent = queuedMove ? 'Passing ' + view.pass + ' when the others have chosen\u2026' : 'Pass ' + selected.length + ' of 3 cards ' + view.pass;
      b.disabled = selected.length !== 3 || !!queuedMove;
      b.onclick = () => {
        const m = selected.join('+');
        selected = [];
        playWhenMyTurn(m);
      };
      choices.appendChild(b);
    }
    if (hasPassed(view, me) && view.phase !== 'pass') {
      const p = document.createElement('div');
      const got = receivedCards();
      p.textContent = 'You passed ' + view.passed[me].map(cardText).join(' ') + (got ? '; you received ' + got.map(cardText).join(' ') : '');
      choices.appendChild(p);
    }
  },
  // In the pass, a click chooses a card (three at most) or gives it back.
  pickCard: (card, view) => {
    if (view.phase !== 'pass' || queuedMove || over) return false;
    selected = selected.includes(card) ? selected.filter((c) => c !== card) : selected.concat([card]).slice(-3);
    render();
    return true;
  },
}));
