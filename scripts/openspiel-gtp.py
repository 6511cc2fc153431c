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

Quoridor: tabula is started with `-o notation=openspiel -o length=openspiel`
(OpenSpiel's row numbering and its draw at 4*N*N plies) and plays whole
games at each `--quoridor SIZE:GAMES` against MCTSBot and UniformRandomBot,
each colour in turn (`--self-play`: against a second tabula, both through
GTPBot, for long games with walls from both sides). After every game tabula's own result (`final_score`)
must be OpenSpiel's; with `--check-legal`, tabula's `legal_moves` must be
OpenSpiel's legal moves at every ply as well.

A game fails when a move is refused or unreadable, a bot errs or the
results differ. Exit status 0 when no game failed.

Usage:
  scripts/openspiel-gtp.py [--tabula target/release/tabula] [--games 4]
      [--quoridor 9:10 --quoridor 5:5] [--check-legal] [--self-play]
      [--movetime 100] [--mcts-simulations 200] [--seed 1]
"""

import argparse
import sys

import numpy
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.bots import gtp, uniform_random


def play(game, bots, checked=None):
    """Plays one game; every bot is told every move but its own. With
    `checked` (a GTPBot of tabula), its `legal_moves` must be OpenSpiel's
    at every ply. Returns the final state and the moves' texts."""
    state = game.new_initial_state()
    texts = []
    for bot in bots:
        bot.restart()
    while not state.is_terminal():
        if checked is not None:
            theirs = sorted(state.action_to_string(a)
                            for a in state.legal_actions())
            ours = sorted(checked.gtp_cmd("legal_moves").split())
            if ours != theirs:
                raise RuntimeError(
                    f"legal moves differ at ply {len(state.history())}: "
                    f"only tabula {sorted(set(ours) - set(theirs))}, "
                    f"only OpenSpiel {sorted(set(theirs) - set(ours))}")
        player = state.current_player()
        action = bots[player].step(state)
        if action not in state.legal_actions():
            raise RuntimeError(f"player {player} chose an illegal action {action}")
        for other, bot in enumerate(bots):
            if other != player:
                bot.inform_action(state, player, action)
        texts.append(state.action_to_string(action))
        state.apply_action(action)
    return state, texts


def sparring(game, i, seat, args, rng):
    """OpenSpiel's bot for game i and its name: MCTS in two games of
    four, uniform random in the other two."""
    if i % 4 < 2:
        bot = mcts.MCTSBot(
            game, 2, args.mcts_simulations,
            mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        return bot, f"MCTSBot({args.mcts_simulations})"
    return uniform_random.UniformRandomBot(1 - seat, rng), "UniformRandomBot"


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
        other, kind = sparring(game, i, seat, args, rng)
        bots = [tabula, other] if seat == 0 else [other, tabula]
        try:
            state, _ = play(game, bots)
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


def tabula_result(bot, state):
    """tabula's result of its own game and OpenSpiel's: 'B+' (the first
    player won), 'W+' or '0' (a draw)."""
    score = bot.gtp_cmd("final_score").strip()
    returns = state.returns()
    theirs = "B+" if returns[0] > 0 else "W+" if returns[1] > 0 else "0"
    # tabula writes Quoridor's winner as p1+ or p2+ (GTPBot lower-cases).
    if score.startswith(("b+", "p1+")):
        ours = "B+"
    elif score.startswith(("w+", "p2+")):
        ours = "W+"
    else:
        ours = score.upper()
    return ours, theirs


def quoridor(args, size, games, rng):
    game = pyspiel.load_game("quoridor", {"board_size": size})
    failures = 0
    wins = {"tabula": 0, "openspiel": 0, "draw": 0}
    plies = []
    for i in range(games):
        seat = i % 2
        tabula = gtp.GTPBot(
            game,
            [args.tabula, "--game", "quoridor", "-o", "notation=openspiel",
             "-o", "length=openspiel", "--seed", str(args.seed + i),
             "--set", f"movetime={args.movetime}"],
        )
        if args.self_play:
            # tabula on both sides, each through its own GTPBot: long
            # games, walls from both, OpenSpiel as the referee.
            other = gtp.GTPBot(
                game,
                [args.tabula, "--game", "quoridor", "-o", "notation=openspiel",
                 "-o", "length=openspiel", "--seed", str(1000 + args.seed + i),
                 "--set", f"movetime={args.movetime}"],
            )
            kind = "tabula"
        else:
            other, kind = sparring(game, i, seat, args, rng)
        bots = [tabula, other] if seat == 0 else [other, tabula]
        try:
            state, texts = play(game, bots, tabula if args.check_legal else None)
            ours, theirs = tabula_result(tabula, state)
            if ours != theirs:
                raise RuntimeError(
                    f"results differ: tabula {ours}, OpenSpiel {theirs}")
        except Exception as e:  # pylint: disable=broad-except
            print(f"quoridor {size}x{size} game {i + 1}: failed: "
                  f"{type(e).__name__}: {e}")
            failures += 1
            continue
        finally:
            tabula.close()
            if args.self_play:
                other.close()
        mine = state.returns()[seat]
        result = "draw" if mine == 0 else ("tabula" if mine > 0 else "openspiel")
        wins[result] += 1
        plies.append(len(state.history()))
        colour = "first" if seat == 0 else "second"
        print(f"quoridor {size}x{size} game {i + 1}: tabula ({colour}) vs {kind}: "
              f"{'win' if mine > 0 else 'loss' if mine < 0 else 'draw'}, "
              f"{len(texts)} moves, "
              f"{sum(1 for t in texts if t[-1] in 'hv')} walls")
    other_name = "the other tabula" if args.self_play else "OpenSpiel"
    print(f"quoridor {size}x{size}: tabula {wins['tabula']}, {other_name} "
          f"{wins['openspiel']}, draws {wins['draw']}, failed {failures}")
    return failures == 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tabula", default="target/release/tabula")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--movetime", type=int, default=100)
    parser.add_argument("--mcts-simulations", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quoridor", action="append", default=[],
                        metavar="SIZE:GAMES",
                        help="Quoridor games at this board size (repeatable)")
    parser.add_argument("--self-play", action="store_true",
                        help="Quoridor: tabula against tabula, both through "
                        "GTPBot, OpenSpiel the referee")
    parser.add_argument("--check-legal", action="store_true",
                        help="compare the legal moves at every Quoridor ply")
    args = parser.parse_args()
    rng = numpy.random.RandomState(args.seed)
    ok = True
    if args.games > 0:
        ok = othello(args, rng)
    for spec in args.quoridor:
        size, games = (int(x) for x in spec.split(":"))
        ok = quoridor(args, size, games, rng) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
