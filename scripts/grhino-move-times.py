#!/usr/bin/env python3
"""Seconds a move of GRhino's GTP engine at one level, for equal-time matches.

    scripts/grhino-move-times.py LEVEL [GAMES]

GRhino (`/usr/games/gtp-rhino`) has no time control, so a match at equal
time gives tabula GRhino's mean time a move: this plays GAMES games of
gtp-rhino against itself from the start (its opening book on, as in a
match), prints every move's time as it goes, and the mean, median and
largest at the end.
"""
import subprocess
import sys
import time

level = sys.argv[1]
games = int(sys.argv[2]) if len(sys.argv) > 2 else 1
engine = subprocess.Popen(['/usr/games/gtp-rhino', '-l', level],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def command(line):
    """Sends one GTP command; returns the first line of its reply."""
    engine.stdin.write(line + '\n')
    engine.stdin.flush()
    reply = []
    while True:
        text = engine.stdout.readline()
        if not text:
            raise SystemExit('gtp-rhino ended')
        if text.strip() == '':
            if reply:
                return reply[0]
            continue
        reply.append(text.strip())


times = []
for _ in range(games):
    command('clear_board')
    colour, passes = 'black', 0
    for ply in range(70):
        started = time.time()
        reply = command('genmove ' + colour)
        times.append(time.time() - started)
        print(ply, colour, reply, '%.2f' % times[-1], flush=True)
        move = reply[1:].strip().lower()
        passes = passes + 1 if move == 'pass' else 0
        if passes >= 2 or move == 'resign':
            break
        colour = 'white' if colour == 'black' else 'black'
times.sort()
print('level %s: %d moves, mean %.3f s, median %.3f s, largest %.3f s'
      % (level, len(times), sum(times) / len(times), times[len(times) // 2], times[-1]))
