#!/usr/bin/env bash
# Soak: many games of every game with every search (in pairs) through the
# match runner, then a summary of crashes, illegal moves, time forfeits,
# malformed replies, refused commands, failed starts and memory.
# Usage: scripts/soak.sh [GAMES_PER_MATCH] [OUT_DIR]
# (e.g. scripts/soak.sh 400 for a long run; the default is a short one).
#
# Memory: the match runner keeps its engine processes alive from game to
# game, so one engine process plays many games of its pairing. While each
# match runs, the engines' resident memory is sampled every 2 s; the line
# of each pairing shows the largest engine RSS in the first and in the last
# quarter of the samples (early/late) and the peak RSS of the whole run
# (the runner or any engine, from /usr/bin/time). A leak shows as late well
# above early; the summary flags any pairing whose late figure passes early
# by more than a quarter plus 8 MiB.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-20}
out=${2:-target/soak}
mkdir -p "$out"
cargo build --release -q
bin=$PWD/target/release/tabula
fail=0
grew=0
total=0
declare -A per_game

# The largest RSS (KiB) among the engine processes below the runner.
engine_rss() { # time-pid
  local runner
  runner=$(pgrep -P "$1" | head -1) || return 0
  [ -n "$runner" ] || return 0
  { pgrep -P "$runner" || true; } | while read -r p; do
    awk '/^VmRSS:/ {print $2}' "/proc/$p/status" 2>/dev/null || true
  done | sort -n | tail -1
}

# The --engine words of a search, written SEARCH or SEARCH:THREADS.
engine() {
  local words="cmd=$bin name=$1 set.search=${1%%:*}"
  [[ $1 == *:* ]] && words+=" set.threads=${1##*:}"
  echo "$words"
}

run() { # name game-and-options... -- searches (SEARCH or SEARCH:THREADS)...
  local label=$1; shift
  local opts=(); while [ "$1" != "--" ]; do opts+=("$1"); shift; done; shift
  local searches=("$@")
  for ((i = 0; i + 1 < ${#searches[@]}; i += 2)); do
    local a=${searches[i]} b=${searches[i + 1]}
    local log="$out/$label-$a-$b.txt"
    : > "$log.rss"
    local started=$SECONDS
    /usr/bin/time -f "peak_rss_kb=%M" -o "$log.time" \
      "$bin" match --engine $(engine "$a") --engine $(engine "$b") \
      "${opts[@]}" --games "$games" --iterations 100 --movetime 200 --timemargin 2000 \
      --no-progress --record "$log.record" > "$log" 2>&1 &
    local pid=$!
    while kill -0 "$pid" 2> /dev/null; do
      local rss
      # Between games no engine may be running: no sample, and no error
      # (set -e would end the soak).
      rss=$(engine_rss "$pid" || true)
      [ -n "$rss" ] && echo "$((SECONDS - started)) $rss" >> "$log.rss"
      sleep 2
    done
    wait "$pid" || fail=1
    local faults played early late
    faults=$(grep -Eo '[0-9]+ (crashes|time forfeits|illegal moves|malformed replies|refused commands|failed starts)' "$log" | awk '{s+=$1} END {print s+0}')
    played=$(grep -c '^# game number=' "$log.record" || true)
    read -r early late < <(awk '{v[NR] = $2} END {
        q = int(NR / 4); if (q < 1) q = 1
        e = 0; l = 0
        for (i = 1; i <= q && i <= NR; i++) if (v[i] > e) e = v[i]
        for (i = NR - q + 1; i <= NR; i++) if (i >= 1 && v[i] > l) l = v[i]
        print e + 0, l + 0 }' "$log.rss")
    printf '%-11s %-10s %-10s games %-5s faults %-3s %-4ss engine_rss_kb early %-7s late %-7s %s\n' \
      "$label" "$a" "$b" "$played" "$faults" "$((SECONDS - started))" "$early" "$late" "$(cat "$log.time")"
    [ "$faults" = 0 ] || fail=1
    [ "$late" -le $((early + early / 4 + 8192)) ] || grew=1
    total=$((total + played))
    per_game[$label]=$(( ${per_game[$label]:-0} + played ))
  done
}
run othello --game othello -- random mcts alphabeta flat ucb1 rucb1 heuristic rules solve random pimc ismcts mcts:2 mcts
run quoridor --game quoridor -o size=5 -o walls=5 -- random mcts alphabeta flat ucb1 rucb1 heuristic rules pimc ismcts mcts:2 alphabeta
run quoridor9 --game quoridor -- mcts rules alphabeta random mcts:2 mcts
run hearts --game hearts -o hands=single -- random rules ismcts pimc mcts flat mcts:2 ismcts
run wizard --game wizard -o players=3 -o rounds=3 -- random rules ismcts pimc mcts flat mcts:2 ismcts
run ninetynine --game ninetynine -- random rules ismcts pimc mcts flat mcts:2 ismcts
summary=""
for g in othello quoridor quoridor9 hearts wizard ninetynine; do summary+=" $g=${per_game[$g]:-0}"; done
echo "soak: $total games:$summary"
[ "$grew" = 0 ] || echo "soak: engine memory grew over a run (late > early), see $out/*.rss"
if [ "$fail" = 0 ]; then echo "soak: no crashes, illegal moves, malformed replies, refused commands, failed starts or time forfeits"; else echo "soak: FAULTS, see $out"; exit 1; fi
