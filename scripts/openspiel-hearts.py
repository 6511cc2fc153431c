#!/usr/bin/env python3
"""One-hand Hearts: OpenSpiel's ISMCTSBot seats against tabula seat-bound
engines, with OpenSpiel (pyspiel, PyPI `open_spiel`) as the referee.

Each deal (pass direction drawn with it, as OpenSpiel's one-hand `hearts`
does) is played once per rotation: the single seat sits at north, east,
south and west in turn, the three others are the other side. So every
player kind holds every hand equally often. The report is the single
seat's points a hand against the mean of the three others, with a 95%
interval on the per-hand difference (single minus others' mean; lower is
better for the single seat).

Rules (both sides): OpenSpiel `hearts` defaults (pass_cards, no_pts_on_
first_trick, must_break_hearts, qs_breaks_hearts; no jd bonus, no
avoid-all-tricks bonus, moon shot: the others get 26) are tabula's defaults
with `hands=single` and the pass direction of the deal (`pass=left|right|
across|none`). README's "Outside yardstick" section lists them.

OpenSpiel 2.0.2's Hearts resampler fails during passing for a player
whose passer has already passed. Passes are simultaneous (no seat sees
another's before its own), so an OpenSpiel seat picks its pass in an
equivalent position: the same deal with the seats rotated so that it
passes first (player 0), where no pass has been made. Its three cards
are then played in the real game in seat order.

Usage:
  scripts/openspiel-hearts.py --deals 25 --single tabula \
      --tabula 'search=ismcts iterations=1000'
  scripts/openspiel-hearts.py --deals 25 --single openspiel

`--tabula` lists tabula `set` lines as name=value words. Every tabula seat
is its own `target/release/tabula` process.

OpenSpiel is not installed with tabula: `python3 -m pip install
open_spiel==2.0.2` (in a virtual environment: `python3 -m venv .venv &&
.venv/bin/pip install open_spiel==2.0.2`, then run the script with
`.venv/bin/python3`). The figures in docs/ were measured with 2.0.2.
"""

import argparse
import math
import random
import subprocess
import sys
import time

try:
    import pyspiel
except ModuleNotFoundError:
    pyspiel = None  # --help works without it; main() says how to get it

SEATS = ["north", "east", "south", "west"]
# OpenSpiel's pass-direction chance outcomes, in action order.
PASS_NAMES = ["none", "left", "across", "right"]
SUITS = "CDHS"
RANKS = "23456789TJQKA"


def card_text(action):
    """OpenSpiel's card action (rank * 4 + suit) as text (`QS`)."""
    return RANKS[action // 4] + SUITS[action % 4]


def card_action(text):
    text = text.strip().upper()
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])


def sort_key(text):
    return (SUITS.index(text[1]), RANKS.index(text[0]))


class Tabula:
    """A seat-bound tabula engine over the text protocol."""

    def __init__(self, binary, seat, direction, settings, seed):
        self.seat = seat
        self.proc = subprocess.Popen(
            [binary],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        for name, value in settings:
            self.send(f"set {name} {value}")
        self.send(f"game hearts hands=single pass={direction} seat={seat}")
        self.send(f"set seed {seed}")
        self.think = 0.0

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            out = self.proc.stdout.readline()
            if out == "":
                raise RuntimeError(f"tabula ended after {line!r}")
            out = out.rstrip("\n")
            if out == "" and lines:
                break
            if out == "" and not lines:
                continue
            lines.append(out)
        reply = "\n".join(lines)
        if reply.startswith("?"):
            raise RuntimeError(f"tabula {SEATS[self.seat]}: {line!r} -> {reply}")
        return reply[1:].strip()

    def genmove(self):
        start = time.perf_counter()
        reply = self.send(f"genmove {SEATS[self.seat]}")
        self.think += time.perf_counter() - start
        return reply

    def close(self):
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
        except OSError:
            pass
        self.proc.wait(timeout=10)


def os_bot(game, seed, sims, uct_c):
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.ISMCTSBot(
        seed,
        evaluator,
        uct_c,
        sims,
        -1,
        pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        False,
        False,
    )


def deal_state(game, direction, hands, rotate=0):
    """A state after the pass-direction and deal chance steps, player j
    holding hands[(j + rotate) % 4]. OpenSpiel deals card k of the deal
    to player k % 4."""
    state = game.new_initial_state()
    state.apply_action(direction)
    for i in range(13):
        for j in range(4):
            state.apply_action(card_action(hands[(j + rotate) % 4][i]))
    return state


def play_hand(game, direction, hands, kinds, args, rng, stats):
    """Plays one hand; kinds[s] is 'tabula' or 'openspiel'. Returns each
    seat's points."""
    dname = PASS_NAMES[direction]
    engines = {}
    for s in range(4):
        if kinds[s] == "tabula":
            engines[s] = Tabula(args.binary, s, dname, args.settings, rng.randrange(2**31))
    bot = os_bot(game, rng.randrange(2**31), args.sims, args.uct_c)
    state = deal_state(game, direction, hands)
    try:
        for s, e in engines.items():
            e.send("deal " + " ".join(sorted(hands[s], key=sort_key)))
        # Passing: every seat picks its three cards, then they are played in
        # OpenSpiel's order (seat 0 first).
        passes = {}
        if direction != 0:
            for s in range(4):
                if kinds[s] == "tabula":
                    reply = engines[s].genmove()
                    passes[s] = [card_action(c) for c in reply.replace("+", " ").split()]
                else:
                    start = time.perf_counter()
                    rotated = deal_state(game, direction, hands, rotate=s)
                    chosen = []
                    for _ in range(3):
                        a = bot.step(rotated)
                        chosen.append(a)
                        rotated.apply_action(a)
                    stats["os_think"] += time.perf_counter() - start
                    stats["os_moves"] += 1
                    passes[s] = chosen
            for s in range(4):
                for a in passes[s]:
                    assert state.current_player() == s
                    state.apply_action(a)
            offset = {"left": 1, "right": 3, "across": 2}[dname]
            for s, e in engines.items():
                received = passes[(s - offset) % 4]
                e.send("deal " + " ".join(card_text(a) for a in received))
        # Who holds 2C after the pass (each seat's hand is in the state).
        after = {s: set(hands[s]) for s in range(4)}
        if direction != 0:
            offset = {"left": 1, "right": 3, "across": 2}[dname]
            for s in range(4):
                after[s] -= {card_text(a) for a in passes[s]}
            for s in range(4):
                after[(s + offset) % 4] |= {card_text(a) for a in passes[s]}
        opener = next(s for s in range(4) if "2C" in after[s])
        first = True
        while not state.is_terminal():
            p = state.current_player()
            if kinds[p] == "tabula":
                card = engines[p].genmove()
                action = card_action(card)
                if action not in state.legal_actions():
                    raise RuntimeError(f"tabula {SEATS[p]} played illegal {card}")
            else:
                start = time.perf_counter()
                action = bot.step(state)
                stats["os_think"] += time.perf_counter() - start
                stats["os_moves"] += 1
                card = card_text(action)
            if first:
                assert p == opener and card == "2C"
                for s, e in engines.items():
                    # A seat that neither holds 2C nor passed it is told who
                    # leads it.
                    knows = s == p or (direction != 0 and card_action("2C") in passes[s])
                    if not knows:
                        e.send(f"deal {SEATS[p]} 2C")
                first = False
            for s, e in engines.items():
                if s != p:
                    e.send(f"play {SEATS[p]} {card}")
            state.apply_action(action)
        for e in engines.values():
            stats["tabula_think"] += e.think
            stats["tabula_moves"] += 13 + (1 if direction != 0 else 0)
    finally:
        for e in engines.values():
            e.close()
    # OpenSpiel's return is 26 minus the points taken (no bonuses here).
    return [26 - r for r in state.returns()]


def interval(xs):
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=25, help="deals; each is played 4 times (rotations)")
    ap.add_argument("--single", choices=["tabula", "openspiel"], default="tabula",
                    help="which side has the single seat")
    ap.add_argument("--tabula", default="search=ismcts iterations=1000",
                    help="tabula settings, name=value words")
    ap.add_argument("--sims", type=int, default=1000, help="OpenSpiel ISMCTS simulations")
    ap.add_argument("--uct-c", type=float, default=2.0, help="OpenSpiel ISMCTS UCT constant")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--binary", default="target/release/tabula")
    args = ap.parse_args()
    if pyspiel is None:
        sys.exit("openspiel-hearts.py needs OpenSpiel's Python module pyspiel: "
                 "python3 -m pip install open_spiel==2.0.2 (see --help)")
    args.settings = [w.split("=", 1) for w in args.tabula.split()]
    game = pyspiel.load_game("hearts")
    rng = random.Random(args.seed)
    diffs, single_pts, other_pts = [], [], []
    moons = [0, 0]  # by the single seat, by the others
    stats = {"os_think": 0.0, "os_moves": 0, "tabula_think": 0.0, "tabula_moves": 0}
    for d in range(args.deals):
        cards = [card_text(a) for a in range(52)]
        rng.shuffle(cards)
        hands = [cards[13 * s: 13 * s + 13] for s in range(4)]
        direction = rng.randrange(4)
        for single in range(4):
            other = "openspiel" if args.single == "tabula" else "tabula"
            kinds = [args.single if s == single else other for s in range(4)]
            pts = play_hand(game, direction, hands, kinds, args, rng, stats)
            if max(pts) == 26 and pts.count(26) == 3:
                moons[0 if pts[single] == 0 else 1] += 1
            mine = pts[single]
            others = sum(pts[s] for s in range(4) if s != single) / 3
            single_pts.append(mine)
            other_pts.append(others)
            diffs.append(mine - others)
        m, h = interval(diffs)
        print(f"deal {d + 1}/{args.deals}: single {sum(single_pts) / len(single_pts):.2f}"
              f" others {sum(other_pts) / len(other_pts):.2f} diff {m:+.2f} ± {h:.2f}",
              file=sys.stderr, flush=True)
    m, h = interval(diffs)
    hands_played = len(diffs)
    print(f"single={args.single} tabula='{args.tabula}' openspiel=ismcts sims={args.sims} "
          f"uct_c={args.uct_c} seed={args.seed}")
    print(f"hands {hands_played} ({args.deals} deals x 4 rotations), moon shots: "
          f"{moons[0]} by the single seat, {moons[1]} by the others")
    print(f"single seat points/hand {sum(single_pts) / hands_played:.2f}, "
          f"others {sum(other_pts) / hands_played:.2f}, difference {m:+.2f} ± {h:.2f} (95%)")
    if stats["os_moves"]:
        print(f"openspiel ms/decision {1000 * stats['os_think'] / stats['os_moves']:.1f}", end="")
    if stats["tabula_moves"]:
        print(f", tabula ms/decision {1000 * stats['tabula_think'] / stats['tabula_moves']:.1f}", end="")
    print()


if __name__ == "__main__":
    main()
