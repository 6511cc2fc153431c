#!/usr/bin/env python3
"""Makes an Othello opening suite balanced by tabula's own search.

Draws random 8-ply lines from the start (first move f5, as the other three
first moves are its mirror images), keeps one line per position up to the
board's 8 symmetries, scores each position with `analyze depth=D` of
tabula's alpha-beta (the mover's evaluation mapped into [0, 1]), and keeps
the lines whose score is within MARGIN of one half: openings where neither
colour is ahead by the engine's judgement, so that both games of a pair are
informative. Deterministic for a seed and a build.

    scripts/make-othello-openings.py ./target/release/tabula > openings/othello-8ply.txt
    options: --count 100 --plies 8 --depth 12 --margin 0.02 --seed 1
"""

import argparse
import random
import subprocess
import sys


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, line):
        """Sends one command; returns the lines of its reply (without the
        leading '= ' and the closing empty line)."""
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            out = self.p.stdout.readline()
            if out == "":
                raise RuntimeError(f"engine closed on '{line}'")
            out = out.rstrip("\n")
            if out == "" and lines:
                break
            if out == "":
                continue
            if out.startswith("?"):
                raise RuntimeError(f"'{line}': {out}")
            lines.append(out[2:] if out.startswith("= ") else out.lstrip("="))
        return [l for l in lines if l != ""]


def symmetries(board):
    """The 8 images of a 64-square board string (a1..h8 row by row)."""
    def at(f):
        return "".join(board[f(r, c)] for r in range(8) for c in range(8))
    maps = [
        lambda r, c: 8 * r + c, lambda r, c: 8 * c + r,
        lambda r, c: 8 * r + (7 - c), lambda r, c: 8 * (7 - r) + c,
        lambda r, c: 8 * (7 - r) + (7 - c), lambda r, c: 8 * (7 - c) + (7 - r),
        lambda r, c: 8 * c + (7 - r), lambda r, c: 8 * (7 - c) + r,
    ]
    return [at(m) for m in maps]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tabula")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--plies", type=int, default=8)
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--margin", type=float, default=0.02)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tries", type=int, default=5000)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    e = Engine([a.tabula])
    e.ask("set search alphabeta")
    seen = set()
    kept = []
    tried = 0
    while len(kept) < a.count and tried < a.tries:
        tried += 1
        e.ask("game othello")
        line = ["f5"]
        e.ask("play f5")
        while len(line) < a.plies:
            moves = e.ask("legal_moves")
            moves = moves[0].split() if moves else []
            if not moves:
                break
            mv = rng.choice(moves)
            e.ask(f"play {mv}")
            line.append(mv)
        if len(line) < a.plies or "pass" in line:
            continue
        board, side = e.ask("position")[0].split()
        key = min(symmetries(board)) + side
        if key in seen:
            continue
        seen.add(key)
        info = [l for l in e.ask(f"analyze depth={a.depth}") if l.startswith("info")][-1].split()
        score = float(info[info.index("score") + 1])
        if abs(score - 0.5) <= a.margin:
            kept.append((" ".join(line), score))
    print(f"# Othello openings: {len(kept)} random {a.plies}-ply lines from f5, one per position up to symmetry,")
    print(f"# whose tabula alpha-beta score at depth {a.depth} is within {a.margin} of 0.5 (seed {a.seed},")
    print(f"# {tried} lines drawn). Made by scripts/make-othello-openings.py; format=moves.")
    for line, score in kept:
        print(f"{line}")
    e.p.stdin.write("quit\n")
    e.p.stdin.flush()
    print(f"kept {len(kept)} of {tried}", file=sys.stderr)


if __name__ == "__main__":
    main()
