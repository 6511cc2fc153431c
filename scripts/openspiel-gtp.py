#!/usr/bin/env python3
"""tabula driven by OpenSpiel's own GTP client, `open_spiel.python.bots.gtp.
GTPBot` (PyPI `open_spiel`), unchanged, against OpenSpiel's bots, with
OpenSpiel (pyspiel) as the referee.

GTPBot starts the engine with `boardsize N` where the game has a board size,
then speaks GTP core only: `play <colour> <move>`, `genmove <colour>`,
`clear_board`, `name`, `quit`, with OpenSpiel's move texts. tabula is
started with the game (`--game NAME`), so no extension command is needed.

Othello: full games against OpenSpiel's MCTSBot (random rollouts) and
UniformRandomBot, tabula taking each colour in turn.

Quoridor: GTPBot's `boardsize 9` is accepted with `--game quoridor`; a game
is played only if OpenSpiel's move texts are tabula's. They are not (in
open_spiel 2.0.2): OpenSpiel's first player starts on e9 and its rows run
the other way (its first move e8 is tabula's e2), so the script shows the
two first-move lists and says so.

Exit status 0 when every game played was finished with no refused move.

Usage:
  scripts/openspiel-gtp.py [--tabula target/release/tabula] [--games 4]
      [--movetime 100] [--mcts-simulations 200] [--seed 1]
"""

import argparse
import sys

import numpy
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.bots import gtp, uniform_random


def play(game, bots):
    """Plays one game; every bot is told every move but its own."""
    state = game.new_initial_state()
    for bot in bots:
        bot.restart()
    while not state.is_terminal():
        player = state.current_player()
        action = bots[player].step(state)
        if action not in state.legal_actions():
            raise RuntimeError(f"player {player} chose an illegal action {action}")
        for other, bot in enumerate(bots):
            if other != player:
                bot.inform_action(state, player, action)
        state.apply_action(action)
    return state


def othello(args, rng):
    game = pyspiel.load_game("othello")
    failures = 0
    wins = {"tabula": 0, "openspiel": 0, "draw": 0}
    for i in range(args.games):
        seat = i % 2
        tabula = gtp.GTPBot(
            game,
            [args.tabula, "--game", "othello", "--seed", str(args.seed + i),
             "--set", f"movetime={args.movetime}"],
        )
        if i % 4 < 2:
            other = mcts.MCTSBot(
                game, 2, args.mcts_simulations,
                mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
            kind = f"MCTSBot({args.mcts_simulations})"
        else:
            other = uniform_random.UniformRandomBot(1 - seat, rng)
            kind = "UniformRandomBot"
        bots = [tabula, other] if seat == 0 else [other, tabula]
        try:
            state = play(game, bots)
        except (gtp.CommandError, RuntimeError, IOError) as e:
            print(f"game {i + 1}: failed: {e}")
            failures += 1
            continue
        finally:
            tabula.close()
        returns = state.returns()
        mine = returns[seat]
        result = "draw" if mine == 0 else ("tabula" if mine > 0 else "openspiel")
        wins[result] += 1
        colour = "black" if seat == 0 else "white"
        print(f"game {i + 1}: tabula ({colour}) vs {kind}: "
              f"{'win' if mine > 0 else 'loss' if mine < 0 else 'draw'}, "
              f"{len(state.history())} moves")
    print(f"othello: tabula {wins['tabula']}, OpenSpiel {wins['openspiel']}, "
          f"draws {wins['draw']}, failed {failures}")
    return failures == 0


def quoridor(args):
    game = pyspiel.load_game("quoridor")
    # The constructor sends `boardsize 9`: refused, this raises.
    tabula = gtp.GTPBot(game, [args.tabula, "--game", "quoridor", "--seed",
                               str(args.seed)])
    try:
        theirs = sorted(
            s for s in (game.new_initial_state().action_to_string(a)
                        for a in game.new_initial_state().legal_actions())
            if len(s) == 2)
        ours = sorted(m for m in tabula.gtp_cmd("legal_moves").split()
                      if len(m) == 2)
        print(f"quoridor: boardsize 9 accepted; first pawn moves: "
              f"OpenSpiel {' '.join(theirs)}, tabula {' '.join(ours)}")
        if theirs != ours:
            print("quoridor: move texts do not match (OpenSpiel's first "
                  "player starts on e9, its rows run the other way): no game")
            return True
    finally:
        tabula.close()
    rng = numpy.random.RandomState(args.seed)
    bots = [gtp.GTPBot(game, [args.tabula, "--game", "quoridor"]),
            uniform_random.UniformRandomBot(1, rng)]
    try:
        state = play(game, bots)
    finally:
        bots[0].close()
    print(f"quoridor: finished in {len(state.history())} moves, "
          f"returns {state.returns()}")
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tabula", default="target/release/tabula")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--movetime", type=int, default=100)
    parser.add_argument("--mcts-simulations", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = numpy.random.RandomState(args.seed)
    ok = othello(args, rng)
    ok = quoridor(args) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
