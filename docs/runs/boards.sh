#!/bin/sh
# The Othello and Quoridor matches of the README (run from docs/runs; T = the tabula binary).
T=${T:-../../target/release/tabula}
$T match --game othello --games 100 --concurrency 1 --seed 20261121 \
  --engine cmd=$T name=random set.search=random \
  --engine cmd=$T name=ab-d4 set.search=alphabeta set.memory=16 depth=4 \
  --engine cmd=$T name=mcts-2k set.search=mcts iterations=2000 \
  --engine cmd=$T name=mcts-10k set.search=mcts iterations=10000 \
  --record othello.txt --chart ../othello.svg --no-progress > othello.out 2> othello.err
$T match --game quoridor -o size=5 -o walls=5 -o jumps=false --games 100 --concurrency 1 \
  --seed 20261122 --each iterations=300 \
  --engine cmd=$T name=random set.search=random \
  --engine cmd=$T name=flat set.search=flat \
  --engine cmd=$T name=heuristic set.search=heuristic \
  --engine cmd=$T name=ucb1 set.search=ucb1 \
  --engine cmd=$T name=rucb1 set.search=rucb1 \
  --record quoridor.txt --chart ../quoridor.svg --no-progress > quoridor.out 2> quoridor.err
