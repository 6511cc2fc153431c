// The card table the card games share (its felt, seats, trick and hand,
// the card faces, the tricks taken and their history), which each card
// game's page (src/games/<game>/page.js) draws with, adding its own
// through its page's hooks. Loaded from /games.js (the registry serves
// it once, before the card games' own scripts) after the page's shell
// (src/gui/assets/app.js), whose names it uses: pageOf, st, over, replay,
// values, lines, summary, sheetRows, myTurn, play, bestMove, pct,
// seatName, seatScore, lastWords, resultText.
//
// A card game's page may define, besides the shell's hooks:
//   takesTricks: a trick game (its tricks are read from the told lines,
//     each hand ends with a summary and a score-sheet row);
//   handName: what a hand is called (`hand`, `round`);
//   isNewHand(words): whether a deal line deals a new hand;
//   handFacts(): what the page keeps of a hand as it ends (its bids);
//   handSummary(facts, view, won, points): a hand's summary lines (and
//     its score-sheet row);
//   tableCenter(view, center): what lies in the middle of the felt;
//   tableInfo(view, done): the line under the felt;
//   choosing(view, you): whether the hand is chosen from (a pass) rather
//     than played card by card;
//   playsCard(move, card): whether a move plays the card;
//   handChoices(view, you, box): buttons and words above the hand;
//   pickCard(card, view): a click on a card of the hand, true where the
//     page answered it.
'use strict';

const CARD = /^([2-9TJQKA][CDHS]|[ZN][1-4])$/;

let selected = [];       // the cards chosen from the hand (a pass)
let tricks = [];         // this hand's tricks: {cards: [[seat, card]], winner, points}
let allTricks = [];      // every trick of the game, for the move list
let current = [];        // the trick being played (from the told lines)
let roundNo = 0;         // the hand's number, from the deal lines
let pendingSummary = null; // a hand ended, its summary waiting for the next view

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
  settleSummary();
  const page = pageOf(view.kind);
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
  // (A view that counts the hand's tricks and has none yet is at a new
  // hand: the last hand's trick is not shown.)
  const shownTrick = trick.length === 0 && !replay && tricks.length && current.length === 0 && view.phase === 'play' && view.tricks !== 0
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
  if (page.tableCenter) page.tableCenter(view, center);
  felt.appendChild(center);
  if (done) {
    const b = document.createElement('div');
    b.className = 'banner';
    b.id = 'banner';
    b.textContent = resultText();
    felt.appendChild(b);
  } else if (!replay && summary && cards.length === 0 && page.takesTricks && (view.phase !== 'play' || view.tricks === 0)) {
    const b = document.createElement('div');
    b.className = 'banner';
    b.textContent = summary.join(' ');
    b.style.fontSize = wide ? '15px' : '12px';
    felt.appendChild(b);
  }
  board.appendChild(felt);
  const info = document.createElement('div');
  info.className = 'tableinfo';
  info.textContent = page.tableInfo ? page.tableInfo(view, done) : '';
  board.appendChild(info);
  if (page.takesTricks && !replay) {
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
  // Cards chosen from the hand (a pass) rather than played one by one.
  const passing = !!(page.choosing && page.choosing(view, me));
  const plays = page.playsCard || playsCard;
  const legalCard = (c) => legal.some((m) => plays(m, c));
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
      best: !!best && plays(best, c),
    });
    el.onclick = () => clickCard(c, view);
    slot.appendChild(el);
    row.appendChild(slot);
  }
  const choices = document.createElement('div');
  choices.className = 'choices';
  choices.id = 'choices';
  if (page.handChoices) page.handChoices(view, me, choices);
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
  mine.append(choices, row, head);
  board.appendChild(mine);
}

// Whether a move plays the card: the card itself, or a pass that holds it.
function playsCard(move, card) { return move === card || move.split('+').includes(card); }

function bestValue(card) {
  // A card's best value: its best choice (AH1 / AH11), or the best pass
  // that holds the card.
  let best;
  for (const [m, v] of Object.entries(values)) {
    const fits = m.includes('+') ? m.split('+').includes(card) : m.startsWith(card) && m.length > 2;
    if (fits && (best === undefined || v.score > best)) best = v.score;
  }
  return best;
}

function clickCard(card, view) {
  const page = pageOf(view.kind);
  if (page.pickCard && page.pickCard(card, view)) return;
  play(card);
}

// The card games' hooks for the shell (each card game's page takes them).
const CARD_HOOKS = {
  draw: cardTable,
  // The tricks' history and the hand's summary start anew.
  forget: (everything) => {
    tricks = [];
    allTricks = [];
    current = [];
    roundNo = 0;
    if (everything) selected = [];
  },
  told: trickTold,
  ended: () => finishHand(true),
  sidePanel: lastTrickPanel,
  moveList: trickMoveList,
  legend: cardLegend('to win'),
};

// The analysis legend of a card game: `chance` says what the badges'
// chance is.
function cardLegend(chance) {
  return (view, info, lg) => {
    const p = document.createElement('div');
    p.textContent = 'Badges: your chance ' + chance + ' after each card or bid, as the engine at your seat sees it (it knows your hand only); gold: the best' + info + '.';
    lg.appendChild(p);
  };
}

// One line this seat was told, read for the tricks and the hands' ends.
function trickTold(line, w) {
  const page = pageOf(st.view.kind);
  if (!page.takesTricks) return;
  if (w[0] === 'deal') {
    const fresh = page.isNewHand(w);
    if (fresh && current.length === 0 && tricks.length > 0) finishHand(false);
    if (fresh) { roundNo++; tricks = []; current = []; }
    return;
  }
  if (w[0] !== 'play') return;
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

// The end of a hand: its summary and a row of the score sheet. At a
// deal line the view is still the old hand's (its totals are the next
// state's); the summary is written from the next view, which this marks.
function finishHand(gameOver) {
  if (!st) return;
  const page = pageOf(st.view.kind);
  if (!page.takesTricks) return;
  if (tricks.length === 0 && !gameOver) return;
  pendingSummary = { tricks: tricks.slice(), facts: page.handFacts ? page.handFacts() : null, round: roundNo, over: gameOver };
  if (gameOver) writeSummary();
}

// Writes the summary that waits for the view of the next hand (its
// totals).
function settleSummary() {
  if (!pendingSummary || !st) return;
  if (pendingSummary.over || st.view.phase !== 'play' || tricks.length === 0) writeSummary();
}

function writeSummary() {
  const p = pendingSummary;
  if (!p || !st) return;
  pendingSummary = null;
  const v = st.view;
  const n = st.seats.length;
  const won = Array(n).fill(0), pts = Array(n).fill(0);
  for (const t of p.tricks) { won[t.winner]++; pts[t.winner] += t.points || 0; }
  summary = pageOf(v.kind).handSummary(p, v, won, pts);
}

// The side panel: the last trick, who took it, and the hand's tricks.
function lastTrickPanel(view) {
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
      s.textContent = 'All ' + tricks.length + ' tricks of this ' + pageOf(view.kind).handName;
      d.appendChild(s);
      tricks.forEach((t, k) => { const row = document.createElement('div'); row.textContent = (k + 1) + '. '; row.appendChild(miniTrick(t)); d.appendChild(row); });
      lt.appendChild(d);
    }
  }
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

// The move list of a trick game: cards grouped by trick with the
// trick's winner, each hand headed.
function trickMoveList(add) {
  const page = pageOf(st.view.kind);
  const head = page.handName.replace(/^./, (c) => c.toUpperCase()) + ' ';
  let round = 0, trick = [], k = 0, done = 0;
  const n = st.seats.length;
  for (const l of lines) {
    const w = l.split(' ');
    if (w[0] === 'deal') {
      if (page.isNewHand(w)) { round++; k = 0; add(head + round, true); }
      continue;
    }
    if (w[0] !== 'play') continue;
    const mv = w[2];
    if (mv.includes('+')) { add(w[1] + ' passes ' + mv.split('+').map(cardText).join(' ')); continue; }
    if (mv.startsWith('bid:')) { add(w[1] + ' bids ' + mv.slice(4)); continue; }
    if (mv.startsWith('trump:')) { add(w[1] + ' names trump ' + SUITS[mv.slice(6)]); continue; }
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
}
