#!/bin/sh
# Issue 19 strength runs after the won-race evaluation (quoridor branch).
# T is this build's tabula (cargo build --profile quick: target/quick/tabula).
T=${T:-./target/quick/tabula}
# Two players, 9x9, 50 ms a move: alpha-beta, MCTS and the coursework players.
$T match --game quoridor --games 8 --concurrency 1 --seed 19201 --movetime 50 \
  --each set.memory=16 --no-record \
  --engine cmd=$T name=alphabeta set.search=alphabeta \
  --engine cmd=$T name=mcts set.search=mcts \
  --engine cmd=$T name=flat set.search=flat \
  --engine cmd=$T name=heuristic set.search=heuristic \
  --engine cmd=$T name=ucb1 set.search=ucb1 \
  --engine cmd=$T name=rucb1 set.search=rucb1 > docs/runs/quoridor19-2p.out 2>&1
# Four players: one engine against three copies of another, every seat.
$T match --game quoridor -o players=4 --table ABBB --games 8 --concurrency 1 \
  --seed 19241 --movetime 40 --no-record \
  --engine cmd=$T name=ucb1 set.search=ucb1 \
  --engine cmd=$T name=mcts set.search=mcts > docs/runs/quoridor19-4p-ucb1-mcts.out 2>&1
$T match --game quoridor -o players=4 --table ABBB --games 8 --concurrency 1 \
  --seed 19242 --movetime 40 --no-record \
  --engine cmd=$T name=mcts set.search=mcts \
  --engine cmd=$T name=ucb1 set.search=ucb1 > docs/runs/quoridor19-4p-mcts-ucb1.out 2>&1
