#!/bin/sh
# Two MCTS threads against one at equal simulations, Othello, 400 games per
# match (run from docs/runs; T = the tabula binary). Iteration budgets make
# the games independent of the machine's load; with threads=2, iterations is
# the total over both threads (2 x 10,000 here).
# 1. What doubling the simulations of one thread is worth.
# 2. Two threads on one shared tree (this build) against one thread with
#    the same total: near 50% means the second thread's simulations are
#    worth as much as the first's.
# 3. The same with root parallelism (one tree per thread, root statistics
#    summed), the scheme before the shared tree: run with R = a tabula
#    built at commit 8f026cb.
# Reports (lines "Finished game ..." left out) in threads-iterations.out,
# records in threads-{double,tree,root}.txt.gz.
T=${T:-../../target/release/tabula}
R=${R:-$T}
M="match --game othello --games 400 --concurrency 2 --random-plies 4 --no-progress"
$T $M --seed 11 \
  --engine cmd=$T name=1t-20k set.search=mcts iterations=20000 \
  --engine cmd=$T name=1t-10k set.search=mcts iterations=10000 \
  --record threads-double.txt | grep -v '^Finished'
$T $M --seed 12 \
  --engine cmd=$T name=2t-tree-2x10k set.search=mcts set.threads=2 iterations=20000 \
  --engine cmd=$T name=1t-20k set.search=mcts iterations=20000 \
  --record threads-tree.txt | grep -v '^Finished'
$R $M --seed 12 \
  --engine cmd=$R name=2t-root-2x10k set.search=mcts set.threads=2 iterations=20000 \
  --engine cmd=$R name=1t-20k set.search=mcts iterations=20000 \
  --record threads-root.txt | grep -v '^Finished'
