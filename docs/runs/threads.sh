#!/bin/sh
# Two MCTS threads against one at equal time (40 ms a move), Othello, 400 games
# (run from docs/runs; T = the tabula binary), then two threads on one shared
# tree (this build) against two threads with root parallelism (R = a tabula
# built at commit 8f026cb, the last before the shared tree). Both engines of a
# match think in turn, one game at a time, so the two-thread engine has both
# cores while it thinks. The reports (lines "Finished game ..." left out) are in
# othello-threads.out and threads-tree-root.out, the records in
# othello-threads.txt.gz and threads-tree-root.txt.gz (the second match was
# run with T at commit ca6cff9, which batched only nodes of 1,024 visits).
T=${T:-../../target/release/tabula}
R=${R:-$T}
$T match --game othello --games 400 --movetime 40 --concurrency 1 --random-plies 4 --seed 40 \
  --engine cmd=$T name=mcts-2threads set.search=mcts set.threads=2 \
  --engine cmd=$T name=mcts-1thread set.search=mcts set.threads=1 \
  --record othello-threads.txt --no-progress | grep -v '^Finished' > othello-threads.out
$T match --game othello --games 400 --movetime 40 --concurrency 1 --random-plies 4 --seed 41 \
  --engine cmd=$T name=2threads-tree set.search=mcts set.threads=2 \
  --engine cmd=$R name=2threads-root set.search=mcts set.threads=2 \
  --record threads-tree-root.txt --no-progress | grep -v '^Finished' > threads-tree-root.out
