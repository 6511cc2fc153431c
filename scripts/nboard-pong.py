#!/usr/bin/env python3
"""NBoard's real sequence while a deep search runs, timed: `set game`,
`set depth D` (D from 20 to 30), `go`; once tabula says it is thinking,
the new state, `set depth 4`, `ping k` and `hint 2` all at once, as NBoard
sends them when the person steps through the game. Prints the time from
writing those lines to reading `pong k`: p50, p99 and max over the tries.

Usage: scripts/nboard-pong.py TABULA [--tries 300]
"""
import argparse
import random
import subprocess
import sys
import time

START = "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]"
LINES = ["B[F5]W[D6]B[C3]W[D3]B[C4]", "B[F5]W[F6]B[E6]W[F4]B[E3]W[C5]",
         "B[F5]W[F4]B[E3]W[F6]B[D3]", "B[F5]W[D6]B[C5]W[F4]B[E3]W[F6]B[D3]"]


def main():
    a = argparse.ArgumentParser()
    a.add_argument("tabula")
    a.add_argument("--tries", type=int, default=300)
    args = a.parse_args()
    p = subprocess.Popen([args.tabula, "--protocol", "nboard"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(text):
        p.stdin.write(text)
        p.stdin.flush()
        return time.monotonic()

    def until(pred):
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit("tabula closed its output")
            line = line.rstrip("\n")
            if pred(line):
                return time.monotonic()

    rng = random.Random(1)
    send("nboard 2\n")
    waits = []
    for k in range(1, args.tries + 1):
        depth = 20 + (k % 11)
        game = START + rng.choice(LINES) + ";)"
        send(f"set game {game}\nset depth {depth}\ngo\n")
        until(lambda l: l == "status tabula is thinking")
        time.sleep(rng.uniform(0.02, 0.2))
        later = START + rng.choice(LINES) + ";)"
        sent = send(f"set game {later}\nset depth 4\nping {k}\nhint 2\n")
        got = until(lambda l: l == f"pong {k}")
        waits.append(got - sent)
        until(lambda l: l == "status")  # the hint's end
    send("quit\n")
    p.wait(timeout=10)
    waits.sort()
    n = len(waits)
    ms = lambda q: waits[min(n - 1, int(q * n))] * 1000
    print(f"{n} tries at depths 20-30: p50 {ms(0.5):.1f} ms, p99 {ms(0.99):.1f} ms, "
          f"max {waits[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
