// Wizard's page: the card table (src/games/cards/table.js) with the bids
// and the trump, its words and its score sheet. Loaded from /games.js
// (the registry serves each game's scripts) after the page's shell
// (src/gui/assets/app.js) and the card table, whose names it uses.
'use strict';

let bidsNow = null;      // the bids of the round being played

registerPage('wizard', Object.assign({}, CARD_HOOKS, {
  rules: [
    'Round n deals n cards to each player; the next card is turned for trump (a Wizard: the dealer names trump; a Jester: no trump).',
    'Everyone bids how many tricks they will take. Follow the suit led if you can; Wizards and Jesters may always be played.',
    'The first Wizard takes the trick; else the highest trump; else the highest card of the suit led. Jesters lose (all Jesters: the first one takes it).',
    'Bid right: 20 points plus 10 a trick. Bid wrong: minus 10 for each trick over or under.',
  ],
  options: [
    ['players', 'Players', ['4', '3', '5', '6']],
    ['rounds', 'Rounds', ['', '1', '2', '3', '5', '10']],
    ['no_even_bids', 'No even bids', ['false', 'true']],
  ],
  seatScore: (view, i) => 'bid ' + (view.bids[i] === null ? '\u2013' : view.bids[i]) + ' \u00b7 won ' + view.won[i] + ' \u00b7 total ' + view.totals[i],
  resultScores: (sc) => scoreList(sc, 'point', 'points'),
  yourTurn: () => (st.legal.some((m) => m.startsWith('bid:')) ? 'Your bid: how many tricks will you take?'
    : st.legal.some((m) => m.startsWith('trump:')) ? 'A Wizard was turned: you deal, so name trump.'
    : 'Your turn: play a framed card.'),
  sheetCaption: 'Score sheet: points of the round, then the total',
  stateCame: (e) => { if (e.view.phase === 'play') bidsNow = e.view.bids.slice(); },
  forget: (everything) => {
    CARD_HOOKS.forget(everything);
    if (everything) bidsNow = null;
  },
  takesTricks: true,
  handName: 'round',
  // Every deal line deals a round's cards.
  isNewHand: () => true,
  handFacts: () => (bidsNow ? bidsNow.slice() : null),
  handSummary: (p, v, won) => {
    const out = ['Round ' + p.round + ' over.'];
    const sc = v.last_round || [];
    st.seats.forEach((s, i) => {
      const bid = p.facts ? p.facts[i] : null;
      const made = bid === won[i];
      out.push(s + ': bid ' + (bid === null ? '?' : bid) + ', took ' + won[i] + (bid === null ? '' : made ? ' \u2013 made it' : ' \u2013 missed') + (sc[i] !== undefined ? ' (' + signed(sc[i]) + ')' : ''));
    });
    sheetRows.push({ label: 'round ' + p.round, cells: st.seats.map((_, i) => [signed(sc[i] || 0), v.totals[i]]) });
    return out;
  },
  tableInfo: (view, done) => (done || view.round > view.rounds ? 'All ' + view.rounds + ' rounds played.'
    : 'Round ' + view.round + ' of ' + view.rounds + ' \u00b7 ' + view.round_cards + ' card' + (view.round_cards === 1 ? '' : 's') + ' each \u00b7 turned: ' + cardText(view.turned) + ' \u00b7 trump: ' + (view.trump ? SUITS[view.trump] : (view.phase === 'trump' ? 'the dealer names it' : 'none'))),
}));
