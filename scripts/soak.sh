#!/usr/bin/env bash
# Soak: many games of every game with every search through the match
# runner, then a summary of crashes, illegal moves, time forfeits and peak
# memory. Usage: scripts/soak.sh [GAMES_PER_MATCH] [OUT_DIR]
# (e.g. scripts/soak.sh 400 for a long run; the default is a short one).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-20}
out=${2:-target/soak}
mkdir -p "$out"
cargo build --release -q
bin=$PWD/target/release/tabula
fail=0
run() { # name game-and-options... -- searches...
  local label=$1; shift
  local opts=(); while [ "$1" != "--" ]; do opts+=("$1"); shift; done; shift
  local searches=("$@")
  for ((i = 0; i + 1 < ${#searches[@]}; i += 2)); do
    local a=${searches[i]} b=${searches[i + 1]}
    local log="$out/$label-$a-$b.txt"
    /usr/bin/time -f "peak_rss_kb=%M" -o "$log.time" \
      "$bin" match --engine cmd="$bin" name="$a" set.search="$a" --engine cmd="$bin" name="$b" set.search="$b" \
      "${opts[@]}" --games "$games" --iterations 100 --movetime 2000 --timemargin 2000 \
      --no-progress --record "$log.record" > "$log" 2>&1 || fail=1
    local faults
    faults=$(grep -Eo '[0-9]+ (crashes|time forfeits|illegal moves|malformed replies)' "$log" | awk '{s+=$1} END {print s+0}')
    printf '%-24s %-10s %-10s faults %-4s %s\n' "$label" "$a" "$b" "$faults" "$(cat "$log.time")"
    [ "$faults" = 0 ] || fail=1
  done
}
run othello --game othello -- random mcts alphabeta flat ucb1 rucb1 heuristic rules solve random pimc ismcts
run quoridor --game quoridor -o size=5 -o walls=5 -- random mcts alphabeta flat ucb1 rucb1 heuristic rules pimc ismcts
run quoridor9 --game quoridor -- mcts rules alphabeta random
run hearts --game hearts -o hands=single -- random rules ismcts pimc mcts flat
run wizard --game wizard -o players=3 -o rounds=3 -- random rules ismcts pimc mcts flat
run ninetynine --game ninetynine -- random rules ismcts pimc mcts flat
if [ "$fail" = 0 ]; then echo "soak: no crashes, illegal moves, malformed replies or time forfeits"; else echo "soak: FAULTS, see $out"; exit 1; fi
