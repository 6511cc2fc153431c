#!/bin/sh
# Builds the Othello training data outside the repository from a folder of
# WTHOR files you already have (this script downloads nothing).
#
#   scripts/othello-data.sh WTHOR_DIR OUT_DIR [THREADS] [EXACT] [DEPTH]
#
# WTHOR_DIR holds the .wtb files of the French Othello federation's WTHOR
# database (https://www.ffothello.org/informatique/la-base-wthor/; see
# docs/experiments-othello.md, "Training data", for where ours came from
# and on what terms). OUT_DIR receives labels.bin and progress.txt; the run
# is resumable: stop it at any time (Ctrl-C, kill, a crash) and run the
# same command again, it continues after the last complete chunk. Runs
# under nice -n 19. A bigger machine: raise THREADS; the file is the same
# whatever the thread count.
set -eu
WTHOR=${1:?WTHOR_DIR}
OUT=${2:?OUT_DIR}
THREADS=${3:-1}
EXACT=${4:-20}
DEPTH=${5:-10}
cd "$(dirname "$0")/.."
cargo build --release
exec nice -n 19 ./target/release/tabula label-othello --wthor "$WTHOR" \
  --self-play 20000 --out "$OUT" --threads "$THREADS" --exact "$EXACT" \
  --depth "$DEPTH" --seed 1
