#!/usr/bin/env python3
"""Card-game figures from `tabula match` records.

    scripts/cardstats.py RECORD [RECORD...] [--tabula PATH] [--bids] [--svg FILE]

For each record: games, and per engine the seats it held, its mean game
score per seat (Hearts: points per hand, lower is better; Wizard: score
per game; Ninety-Nine: tokens left), and its win share per seat (a seat
that is among the winners counts as a win; ties are shared equally among
the tied winners, so the shares of a game add up to one). With two
engines, also the per-game difference of their mean seat scores (the
lone engine of an ABBB table first), with a 95% interval.

With --svg FILE, a chart: one row per engine and record, its win share
per seat as a bar with its 95% interval, parity (one over the number of
seats) dashed, and the score per seat written beside it.

With --bids, every Wizard game is replayed in the engine (`tabula`, the
record's own commands) to read the running totals at each round's end:
a round's score is 20 + 10*bid when the bid is met exactly and negative
otherwise, so a bid was met exactly when the seat's total went up.
"""

import math
import re
import subprocess
import sys
from collections import defaultdict


def pairs(text):
    """key=value words, values possibly double-quoted."""
    out = {}
    for m in re.finditer(r'(\w+)=("(?:[^"\\]|\\.)*"|\S*)', text):
        v = m.group(2)
        if v.startswith('"'):
            v = re.sub(r'\\(.)', lambda x: '\n' if x.group(1) == 'n' else x.group(1), v[1:-1])
        out[m.group(1)] = v
    return out


def read_record(path):
    games, cur = [], None
    for line in open(path):
        line = line.rstrip('\n')
        if line.startswith('# game '):
            cur = pairs(line[7:])
            cur['transcript'] = []
            games.append(cur)
        elif line.startswith('#') or not line.strip():
            continue
        elif cur is not None:
            cur['transcript'].append(line.strip())
    return games


def ci95(xs):
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float('nan')
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def wilson(k, n):
    if n == 0:
        return float('nan'), float('nan')
    z, p = 1.96, k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def round_totals(games, tabula):
    """Per game, the totals of every seat after each round (replayed)."""
    cmds, marks = [], []
    for gi, g in enumerate(games):
        deals = 0
        for line in g['transcript']:
            if line.startswith('deal '):
                if deals > 0:
                    marks.append((gi, len(cmds)))
                    cmds.append('showboard')
                deals += 1
            cmds.append(line)
        marks.append((gi, len(cmds)))
        cmds.append('showboard')
    out = subprocess.run([tabula], input='\n'.join(cmds) + '\nquit\n',
                         capture_output=True, text=True, check=True).stdout
    replies = out.split('\n\n')
    bad = [(c, r) for c, r in zip(cmds, replies) if r.startswith('?')]
    if bad:
        sys.exit(f'replay refused {bad[0][0]!r}: {bad[0][1]}')
    totals = defaultdict(list)
    for gi, k in marks:
        seats = re.findall(r'^\s*p(\d+):.*total\s+(-?\d+)\s*$', replies[k], re.M)
        totals[gi].append([int(t) for _, t in sorted(seats, key=lambda s: int(s[0]))])
    return totals


def main():
    args = sys.argv[1:]
    tabula = 'tabula'
    if '--tabula' in args:
        i = args.index('--tabula')
        tabula = args[i + 1]
        del args[i:i + 2]
    svg = None
    if '--svg' in args:
        i = args.index('--svg')
        svg = args[i + 1]
        del args[i:i + 2]
    rows = []
    bids = '--bids' in args
    args = [a for a in args if a != '--bids']
    for path in args:
        games = [g for g in read_record(path) if g.get('ending') == 'normal']
        wizard = bids and bool(games) and games[0]['transcript'][0].split()[1] == 'wizard'
        print(f'{path}: {len(games)} games ended by the rules')
        engines = sorted({e for g in games for e in g['seats'].split(',')},
                         key=lambda e: -sum(g['seats'].split(',').count(e) == 1 for g in games))
        score = defaultdict(list)
        wins = defaultdict(float)
        seats = defaultdict(int)
        met = defaultdict(lambda: [0, 0])
        diffs = []
        totals = round_totals(games, tabula) if wizard else {}
        for gi, g in enumerate(games):
            names = g['seats'].split(',')
            sc = [float(x) for x in g['scores'].split(',')]
            winners = [int(w) for w in g['winners'].split(',') if w != '']
            if len(engines) == 2:
                mine = [[sc[s] for s, e in enumerate(names) if e == x] for x in engines]
                if all(mine):
                    diffs.append(sum(mine[0]) / len(mine[0]) - sum(mine[1]) / len(mine[1]))
            for s, e in enumerate(names):
                seats[e] += 1
                score[e].append(sc[s])
                if s in winners:
                    wins[e] += 1 / len(winners)
            if wizard:
                prev = [0] * len(names)
                for t in totals[gi]:
                    for s, e in enumerate(names):
                        met[e][0] += t[s] > prev[s]
                        met[e][1] += 1
                    prev = t
                if prev != [int(x) for x in sc]:
                    sys.exit(f'game {g["number"]}: replayed totals {prev} differ from the record {sc}')
        for e in engines:
            m, h = ci95(score[e])
            lo, hi = wilson(wins[e], seats[e])
            line = (f'  {e:<12} seats {seats[e]:>5}  score/seat {m:8.2f} ± {h:.2f}'
                    f'  win share {100 * wins[e] / seats[e]:5.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]')
            if wizard:
                k, n = met[e]
                blo, bhi = wilson(k, n)
                line += f'  bids met {k}/{n} = {100 * k / n:.1f}% [{100 * blo:.1f}, {100 * bhi:.1f}]'
            print(line)
            rows.append(dict(record=path, game=games[0]['transcript'][0].split()[1],
                             seats=len(games[0]['seats'].split(',')), engine=e,
                             lineup=' vs '.join(f"{sum(g['seats'].split(',').count(x) for g in games[:1])}× {x}" for x in engines),
                             share=wins[e] / seats[e], lo=lo, hi=hi, n=seats[e], score=m, half=h, games=len(games),
                             bids=(met[e][0] / met[e][1]) if wizard else None))
        if diffs:
            m, h = ci95(diffs)
            print(f'  {engines[0]} minus {engines[1]} (mean of its seats), per game: {m:.2f} ± {h:.2f}')
    if svg:
        write_svg(svg, rows)


UNITS = {'hearts': 'points a hand (lower is better)', 'wizard': 'points a game',
         'ninetynine': 'tokens left at the end'}


def write_svg(path, rows):
    left, bar, row_h, top = 330, 360, 30, 60
    groups = []
    for r in rows:
        if not groups or groups[-1][0] != r['record']:
            groups.append((r['record'], []))
        groups[-1][1].append(r)
    height = top + sum(22 + row_h * len(g) + 10 for _, g in groups) + 40
    width = left + bar + 460
    bottom = height - 40
    x = lambda f: left + bar * max(0.0, min(1.0, f))
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
         f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="20" y="26" font-size="17" font-weight="bold">Card games: win share per seat of each engine</text>',
         '<text x="20" y="46" fill="#555">bar = share of the games its seat won (ties shared), whisker = 95% interval, '
         'dashed blue = parity (1 / seats); right: mean score per seat ± 95%</text>']
    for f in (0, 0.25, 0.5, 0.75, 1):
        o.append(f'<line x1="{x(f):.1f}" y1="{top}" x2="{x(f):.1f}" y2="{bottom}" stroke="#ddd"/>')
        o.append(f'<text x="{x(f):.1f}" y="{bottom + 16}" text-anchor="middle" fill="#555">{int(100 * f)}%</text>')
    y = top
    for rec, g in groups:
        r0 = g[0]
        o.append(f'<text x="20" y="{y + 15}" font-weight="bold">{esc(r0["game"])}: {esc(r0["lineup"])} '
                 f'({r0["games"]} games) — {esc(rec.rsplit("/", 1)[-1])}</text>')
        y += 22
        top_of_group = y
        for r in g:
            o.append(f'<text x="{left - 10}" y="{y + 19}" text-anchor="end">{esc(r["engine"])} ({r["n"]} seats)</text>')
            o.append(f'<rect x="{left}" y="{y + 6}" width="{x(r["share"]) - left:.1f}" height="18" fill="#5c8ed6"/>')
            mid = y + 15
            o.append(f'<line x1="{x(r["lo"]):.1f}" y1="{mid}" x2="{x(r["hi"]):.1f}" y2="{mid}" stroke="black" stroke-width="2"/>')
            for v in (r['lo'], r['hi']):
                o.append(f'<line x1="{x(v):.1f}" y1="{mid - 5}" x2="{x(v):.1f}" y2="{mid + 5}" stroke="black" stroke-width="2"/>')
            text = (f'{100 * r["share"]:.1f}% · {r["score"]:.2f} ± {r["half"]:.2f} {UNITS.get(r["game"], "points")}')
            if r['bids'] is not None:
                text += f' · bids met {100 * r["bids"]:.1f}%'
            o.append(f'<text x="{left + bar + 10}" y="{y + 19}">{esc(text)}</text>')
            y += row_h
        px = x(1 / r0['seats'])
        o.append(f'<line x1="{px:.1f}" y1="{top_of_group + 2}" x2="{px:.1f}" y2="{y}" stroke="#1565c0" '
                 f'stroke-width="2" stroke-dasharray="4 3"/>')
        y += 10
    o.append('</svg>')
    with open(path, 'w') as f:
        f.write('\n'.join(o) + '\n')


def esc(t):
    return t.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')


main()
