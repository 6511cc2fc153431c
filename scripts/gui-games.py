#!/usr/bin/env python3
"""Plays whole games in `tabula gui` through its HTTP API as a page does,
the person's seat choosing at random, the engines at the page's defaults
(no search or move time given), and reports how each game ended. A game
the engine loses on time or by a fault ends `forfeit (...)`.

Usage: scripts/gui-games.py TABULA [--rounds 5] [--games othello,quoridor,...]
Exit status 1 if any game did not end on the board.
"""
import argparse
import json
import random
import socket
import subprocess
import sys
import time
import urllib.parse

GAMES = {
    "othello": ("0", []),
    "quoridor": ("0", []),
    "hearts": ("2", ["hands=single"]),
    "wizard": ("0", ["players=3", "rounds=3"]),
    "ninetynine": ("0", ["players=3", "tokens=1"]),
}


def http(port, method, path):
    s = socket.create_connection(("127.0.0.1", port), timeout=60)
    s.sendall(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
              f"Content-Length: 0\r\nConnection: close\r\n\r\n".encode())
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body.decode("utf-8", "replace")


def events(port, session):
    """Yields each event's JSON of the game's stream."""
    s = socket.create_connection(("127.0.0.1", port), timeout=300)
    s.sendall(f"GET /api/events?s={session} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    f = s.makefile("r", encoding="utf-8")
    data = ""
    for line in f:
        line = line.rstrip("\r\n")
        if line.startswith("data: "):
            data += line[6:]
        elif line == "" and data:
            yield json.loads(data)
            data = ""
    s.close()


def main():
    a = argparse.ArgumentParser()
    a.add_argument("tabula")
    a.add_argument("--rounds", type=int, default=5)
    a.add_argument("--games", default=",".join(GAMES))
    args = a.parse_args()
    server = subprocess.Popen([args.tabula, "gui", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    url = server.stdout.readline().strip()
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    rng = random.Random(1)
    bad = 0
    endings = {}
    try:
        for r in range(args.rounds):
            for game in args.games.split(","):
                you, opts = GAMES[game]
                q = f"game={game}&you={you}" + "".join(f"&opt={urllib.parse.quote(o)}" for o in opts)
                status, body = http(port, "POST", f"/api/new?{q}")
                if status != 200:
                    sys.exit(f"new game {q}: {status} {body}")
                session = json.loads(body)["session"]
                started, moves = time.monotonic(), 0
                for e in events(port, session):
                    if e.get("type") == "over":
                        ending = e.get("ending", "?")
                        break
                    if (e.get("type") == "state" and e.get("to_move") == int(you)
                            and e.get("legal")):
                        mv = rng.choice(e["legal"])
                        http(port, "POST", f"/api/move?s={session}&move={urllib.parse.quote(mv)}")
                        moves += 1
                took = time.monotonic() - started
                print(f"round {r + 1} {game}: {ending} ({moves} moves of the person, {took:.0f} s)",
                      flush=True)
                endings[ending] = endings.get(ending, 0) + 1
                if ending not in ("normal", "move limit"):
                    bad += 1
                http(port, "POST", f"/api/close?s={session}")
    finally:
        server.terminate()
        server.wait(timeout=20)
    print(f"{sum(endings.values())} games: {endings}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
