#!/usr/bin/env python3
"""Writes a match record of N games from a small one, for measuring
`tabula match --merge` on a large record (docs/match-safety.md).

Usage: big-record.py TEMPLATE N > OUT

TEMPLATE is a whole record of one seed, two engines, `table=alternate`
and no opening suite, whose games are numbered from 1 as played (a
record of `tabula match --game othello --games 20 --seed 1 --record
tmpl.txt --engine cmd=$T name=a set.search=random --engine cmd=$T
name=b set.search=random`). The record written is that match with
`games=N`: game K is a copy of a template game of K's seat pattern (the
same parity: the seats alternate), numbered K, of deal (K-1)/2, so that
the merge's checks (the schedule, `lines=`) pass. The moves are the
template's: the merge does not replay them.
"""

import re
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    template, total = sys.argv[1], int(sys.argv[2])
    with open(template, encoding="utf-8") as f:
        text = f.read()
    head, _, body = text.partition("\n# game ")
    if not body:
        sys.exit(f"{template}: no game")
    head = re.sub(r"^(# settings .*?\bgames=)\d+", rf"\g<1>{total}", head, flags=re.M)
    blocks = ("# game " + body).split("\n\n")
    games = [b + "\n\n" for b in blocks if b.startswith("# game ")]
    # By seat pattern: odd numbers sit the first engine first.
    by_parity = [[g for g in games if int(re.search(r" number=(\d+)", g)[1]) % 2 == p] for p in (0, 1)]
    if not all(by_parity):
        sys.exit(f"{template}: needs games of both seat patterns")
    out = sys.stdout
    out.write(head + "\n")
    for k in range(1, total + 1):
        pool = by_parity[k % 2]
        block = pool[(k // 2) % len(pool)]
        block = re.sub(r" number=\d+", f" number={k}", block, count=1)
        block = re.sub(r" deal=\d+", f" deal={(k - 1) // 2}", block, count=1)
        out.write(block)


if __name__ == "__main__":
    main()
