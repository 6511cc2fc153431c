// Pile's page (tests/registry_pile.rs, a game added from outside): the
// text view, with the pile drawn as a row of stones. Served at /games.js
// with the registry's other games' pages, after the page's shell
// (src/gui/assets/app.js), whose names it uses: registerPage, textGame.
'use strict';

registerPage('pile', {
  draw: (view, board) => {
    textGame(view, board);
    const row = document.createElement('div');
    row.id = 'pile';
    row.setAttribute('role', 'img');
    row.setAttribute('aria-label', view.stones + ' stones');
    row.style.fontSize = '28px';
    row.style.letterSpacing = '4px';
    row.style.color = '#6b5a45';
    row.style.margin = '8px 0';
    for (let k = 0; k < view.stones; k++) {
      const stone = document.createElement('span');
      stone.className = 'stone';
      stone.textContent = '\u25cf';
      row.appendChild(stone);
    }
    board.appendChild(row);
  },
});
