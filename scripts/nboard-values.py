#!/usr/bin/env python3
"""Reads tabula's NBoard replies with NBoard's own parser.

    scripts/nboard-values.py CLASSES [--tabula BIN] [--games N]
                             [--depth D] [--hint K] [--analyze-depth A]

CLASSES  a folder (or jar) of NBoard's reply parser, compiled from its
         public source (github.com/weltyc/othello: the package
         com.welty.othello.protocol, with com.welty.othello.c.CReader and
         com.welty.othello.gdk's move classes). This project keeps none of
         NBoard's code and no recipe to build it: compile it where you
         like, outside the repository.

Plays N whole games (tabula's `go` at depth 4 makes the moves, from the
first N 8-ply openings of openings/othello-8ply.txt), asks `hint K` at
depth D in every position, and `analyze` at depth A after each game, and
feeds every line tabula wrote to NBoard's ResponseParser (through a small
driver written here and compiled against CLASSES). Reports how NBoard
reads them: the hints it reads as exact (`100%`) and as win-loss-draw
proofs (`100%W`), the lines it cannot parse, the `nodestats` lines, and
the `analysis` lines per position.

A hint is *solved* where its position has at most D empty squares (the
search reaches the end of the game from it). Exits 0 only when every
solved hint is read as exact (or as a proven draw), no line is refused by
the parser, no `nodestats` line of a solved search counts 0 nodes, and
`analyze` valued every position; 77 when java/javac are missing.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

DRIVER = r"""
import com.welty.othello.protocol.*;
import java.io.*;

public class NboardRead {
    public static void main(String[] args) throws IOException {
        ResponseParser parser = new ResponseParser(new ResponseHandler() {
            public void handle(NBoardResponse r) {
                if (r instanceof HintResponse) {
                    HintResponse h = (HintResponse) r;
                    System.out.println("HINT " + h.depth.isExact() + " " + h.depth.isWldProven()
                        + " " + h.depth + " " + h.eval + " " + h.pv);
                } else if (r instanceof NodeStatsResponse) {
                    System.out.println("NODES " + ((NodeStatsResponse) r).nNodes);
                } else if (r instanceof AnalysisResponse) {
                    AnalysisResponse a = (AnalysisResponse) r;
                    System.out.println("ANALYSIS " + a.moveNumber + " " + a.eval);
                } else if (r instanceof MoveResponse) {
                    System.out.println("MOVE " + ((MoveResponse) r).mli);
                } else if (r instanceof ErrorResponse) {
                    System.out.println("ERROR " + r);
                }
            }
        }, "tabula");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.startsWith("#")) {
                System.out.println(line);
            } else {
                parser.handle(line);
            }
        }
    }
}
"""

START = "---------------------------O*------*O---------------------------"


class Engine:
    def __init__(self, exe):
        self.p = subprocess.Popen(
            [exe, "--seed", "1", "--protocol", "nboard"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.ping = 0
        self.send("nboard 2")

    def send(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def synced(self, lines):
        """Sends `lines` then a ping; returns what came before the pong."""
        for l in lines:
            self.send(l)
        self.ping += 1
        self.send("ping %d" % self.ping)
        got = []
        while True:
            l = self.p.stdout.readline()
            if not l:
                raise SystemExit("tabula ended")
            l = l.rstrip("\n")
            if l == "pong %d" % self.ping:
                return got
            got.append(l)

    def request(self, text):
        """Sends a request; returns its lines up to the closing status."""
        self.send(text)
        got = []
        started = False
        while True:
            l = self.p.stdout.readline()
            if not l:
                raise SystemExit("tabula ended")
            l = l.rstrip("\n")
            got.append(l)
            if l.startswith("status tabula is"):
                started = True
            elif l == "status" and started:
                return got
            elif l.startswith("status tabula:") and not started:
                return got

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=30)


def ggf(moves):
    text = "(;GM[Othello]BO[8 %s *]" % START
    for colour, mv in moves:
        text += "%s[%s]" % (colour, mv)
    return text + ";)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("classes")
    ap.add_argument("--tabula", default="target/release/tabula")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--hint", type=int, default=2)
    ap.add_argument("--analyze-depth", type=int, default=6)
    args = ap.parse_args()
    if not shutil.which("java") or not shutil.which("javac"):
        print("java and javac are needed", file=sys.stderr)
        return 77
    here = os.path.dirname(os.path.abspath(__file__))
    openings = [l.split() for l in open(os.path.join(here, "..", "openings", "othello-8ply.txt"))
                if l.strip() and not l.startswith("#")]
    transcript = []
    # (game, position, empties) of each hint block, in order.
    solved_blocks = 0
    for g in range(args.games):
        e = Engine(args.tabula)
        e.synced(["set depth 4"])
        moves = []
        # The opening, as GGF moves (no passes in 8 plies).
        for i, mv in enumerate(openings[g]):
            moves.append(("B" if i % 2 == 0 else "W", mv.upper()))
        positions = 0
        while True:
            print("position %d of game %d" % (len(moves), g), file=sys.stderr, flush=True)
            e.synced(["set game " + ggf(moves), "set depth %d" % args.depth])
            hint = e.request("hint %d" % args.hint)
            if any(l.startswith("status tabula:") for l in hint):
                break  # the game is over
            empties = 60 - sum(1 for _, m in moves if m != "PA")
            solved = empties <= args.depth
            solved_blocks += solved
            transcript.append("# BLOCK %d %d %d %s" % (g, len(moves), empties, solved))
            transcript.extend(hint)
            positions += 1
            e.synced(["set depth 4"])
            go = e.request("go")
            answer = [l for l in go if l.startswith("=== ")]
            if not answer:
                break
            mv = answer[0][4:].split("/")[0]
            # Black and white alternate: a pass is a move (`PA`).
            colour = "B" if len(moves) % 2 == 0 else "W"
            moves.append((colour, mv.upper()))
        e.synced(["set game " + ggf(moves), "set depth %d" % args.analyze_depth])
        transcript.append("# ANALYZE %d %d" % (g, len(moves)))
        transcript.extend(e.request("analyze"))
        e.quit()
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "NboardRead.java")
        with open(src, "w") as f:
            f.write(DRIVER)
        cp = args.classes
        subprocess.run(["javac", "-cp", cp, "-d", tmp, src], check=True)
        read = subprocess.run(["java", "-cp", cp + os.pathsep + tmp, "NboardRead"],
                              input="\n".join(transcript) + "\n", text=True,
                              capture_output=True, check=True).stdout
    hints = solved_hints = exact = wld = errors = zero_nodes = 0
    unsolved_exact = 0
    analysis = {}
    block_solved = False
    expect_analysis = None
    bad = []
    for line in read.splitlines():
        words = line.split()
        if line.startswith("# BLOCK"):
            block_solved = words[5] == "True"
            expect_analysis = None
        elif line.startswith("# ANALYZE"):
            expect_analysis = (int(words[2]), int(words[3]))
            analysis[expect_analysis] = set()
        elif words[0] == "HINT":
            hints += 1
            is_exact = words[1] == "true" or (words[2] == "true" and float(words[4].split(",")[0]) == 0)
            exact += words[1] == "true"
            wld += words[2] == "true"
            if block_solved:
                solved_hints += 1
                if not is_exact:
                    bad.append(line)
            elif is_exact:
                unsolved_exact += 1
        elif words[0] == "NODES":
            if block_solved and int(words[1]) == 0:
                zero_nodes += 1
        elif words[0] == "ANALYSIS" and expect_analysis:
            analysis[expect_analysis].add(int(words[1]))
        elif words[0] == "ERROR":
            errors += 1
            bad.append(line)
    unvalued = sum(moves + 1 - len(seen) for (g, moves), seen in analysis.items())
    print("%d games, %d hint blocks (%d solved): %d hint lines, %d read as exact (100%%), "
          "%d as win-loss-draw proofs (100%%W); solved hints read as exact: %d of %d; "
          "exact hints before the solver's reach: %d; parser errors: %d; "
          "nodestats 0 in solved searches: %d; positions analyze left without a value: %d"
          % (args.games, len([l for l in transcript if l.startswith("# BLOCK")]), solved_blocks,
             hints, exact, wld, solved_hints - len([b for b in bad if b.startswith("HINT")]),
             solved_hints, unsolved_exact, errors, zero_nodes, unvalued))
    for b in bad[:10]:
        print("  " + b)
    ok = not bad and zero_nodes == 0 and unvalued == 0 and solved_hints > 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
