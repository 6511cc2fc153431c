#!/bin/bash
# One `tabula match` as N shards run by GNU parallel, on this machine or
# over ssh hosts, then merged into the report of the whole match.
#
#   scripts/match-parallel.sh                 # 3 shards here
#   SHARDS=8 HOSTS=host1,host2 scripts/match-parallel.sh   # over ssh
#
# Every shard plays the deals K-1 modulo N of the same seeded match, each
# deal from its own opening of the suite (so shards play disjoint
# openings); `--merge` of the records is the whole match. Over ssh the
# hosts need tabula at the same path (TABULA) and a shared or copied
# working folder: the records are fetched back with --return.
set -euo pipefail
TABULA=${TABULA:-$(pwd)/target/release/tabula}
SHARDS=${SHARDS:-3}
SEED=${SEED:-42}
GAMES=${GAMES:-60}
OPENINGS=${OPENINGS:-$(pwd)/openings/othello-8ply.txt}
OUT=${OUT:-shards}
HOSTS=${HOSTS:-:}          # `:` is this machine in GNU parallel
mkdir -p "$OUT"

shard() {
    "$TABULA" match \
        --engine cmd="$TABULA" name=ab set.search=alphabeta \
        --engine cmd="$TABULA" name=mcts set.search=mcts \
        --game othello --games "$GAMES" --movetime "${MOVETIME:-20}" -j 1 \
        --seed "$SEED" --openings "$OPENINGS" --quiet \
        --shard "$1/$SHARDS" --record "$OUT/shard-$1.txt" > "$OUT/shard-$1.log"
}

if command -v parallel > /dev/null; then
    export TABULA SHARDS SEED GAMES OPENINGS OUT MOVETIME
    export -f shard
    parallel --sshlogin "$HOSTS" --return "$OUT/shard-{}.txt" --workdir . \
        shard ::: $(seq 1 "$SHARDS")
else
    echo "GNU parallel is not installed (apt-get install parallel): running the shards with xargs here" >&2
    export TABULA SHARDS SEED GAMES OPENINGS OUT MOVETIME
    export -f shard
    seq 1 "$SHARDS" | xargs -P "$SHARDS" -I{} bash -c 'shard {}'
fi
"$TABULA" match --merge "$OUT"/shard-*.txt --record "$OUT/merged.txt"
