#!/bin/sh
# Two MCTS threads against one at equal time (40 ms a move), Othello, 200 games
# (run from docs/runs; T = the tabula binary). The output is in
# othello-threads.out (lines "Finished game ..." left out), the record in
# othello-threads.txt.gz.
T=${T:-../../target/release/tabula}
$T match --game othello --games 200 --movetime 40 --concurrency 1 --random-plies 4 \
  --engine cmd=$T name=mcts-2threads set.search=mcts set.threads=2 \
  --engine cmd=$T name=mcts-1thread set.search=mcts set.threads=1 \
  --record othello-threads.txt --no-progress | grep -v '^Finished' > othello-threads.out
