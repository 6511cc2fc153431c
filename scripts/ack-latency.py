#!/usr/bin/env python3
"""Plays tabula against itself over GTP, keeping each seat's clock as a
referee does, and times every command sent to an engine after its
`genmove`: from writing the line to reading its `=` reply. A search that
goes on after its answer shows here as a late acknowledgement.

Usage: scripts/ack-latency.py TABULA [--game othello] [--games 20]
       [--main 1] [--inc 0.01]
Prints one line per game and a summary (count, p50, p99, max, and how
many were later than 100 ms). Run it beside `yes > /dev/null` hogs to
see the engine on a busy machine.
"""
import argparse
import subprocess
import sys
import time


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def ask(self, line):
        """Sends `line`; returns (reply text, seconds to the reply)."""
        t0 = time.monotonic()
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            l = self.p.stdout.readline()
            if not l:
                raise RuntimeError(f"engine closed after {line!r}")
            l = l.rstrip("\n")
            if l == "" and out:
                break
            if l:
                out.append(l)
        reply = "\n".join(out)
        if not reply.startswith("="):
            raise RuntimeError(f"{line!r}: {reply}")
        return reply[1:].strip(), time.monotonic() - t0

    def close(self):
        try:
            self.ask("quit")
        except (RuntimeError, BrokenPipeError):
            pass
        self.p.wait(timeout=10)


def main():
    a = argparse.ArgumentParser()
    a.add_argument("tabula")
    a.add_argument("--game", default="othello")
    a.add_argument("--games", type=int, default=20)
    a.add_argument("--main", type=float, default=1.0)
    a.add_argument("--inc", type=float, default=0.01)
    args = a.parse_args()
    acks, losses, moves = [], 0, 0
    for g in range(args.games):
        engines = [Engine([args.tabula, "--seed", str(g + 1)]) for _ in range(2)]
        for e in engines:
            e.ask(f"game {args.game}")
            e.ask(f"time_settings {args.main} 0 0")
        colors = ["black", "white"] if args.game == "othello" else ["p1", "p2"]
        left = [args.main, args.main]
        seat, worst, over = 0, 0.0, False
        while not over:
            e = engines[seat]
            mv, took = e.ask(f"genmove {colors[seat]}")
            moves += 1
            left[seat] -= took
            if left[seat] < 0:
                losses += 1
                print(f"game {g + 1}: {colors[seat]} lost on time ({took:.3f} s)")
                break
            left[seat] += args.inc
            # What a referee sends next, at once: this engine's clock
            # (acknowledged only once its search has let go), then the
            # move to the other engine.
            _, t = e.ask(f"time_left {colors[seat]} {left[seat]:.3f} 0")
            acks.append(t)
            worst = max(worst, t)
            engines[1 - seat].ask(f"play {colors[seat]} {mv}")
            over = e.ask("turn")[0].strip() == "over"
            seat = 1 - seat
        print(f"game {g + 1}: worst acknowledgement after a genmove {worst * 1000:.1f} ms")
        for e in engines:
            e.close()
    acks.sort()
    n = len(acks)
    def pct(p):
        return acks[min(n - 1, int(p * n))] * 1000
    late = sum(1 for t in acks if t > 0.1)
    print(f"{moves} moves, {losses} lost on time; {n} acknowledgements: "
          f"p50 {pct(0.5):.1f} ms, p99 {pct(0.99):.1f} ms, max {acks[-1] * 1000:.1f} ms, "
          f"{late} later than 100 ms")
    return 1 if losses else 0


if __name__ == "__main__":
    sys.exit(main())
