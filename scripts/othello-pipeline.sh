#!/bin/sh
# The whole Othello pipeline from nothing, in the background of one
# session: labels (resumable), a fit held out by game, and a book made
# with the fitted weights. Nothing is copied into the repository: the
# report says how each file compares, and you install what the games say.
#
#   scripts/othello-pipeline.sh WTHOR_DIR OUT_DIR [LABELS] [THREADS]
#
# WTHOR_DIR: the WTHOR .wtb files (../shared/data/wthor here). OUT_DIR
# receives labels/ (label-othello's folder: stop and rerun at will, it
# continues after its last whole chunk), weights.bin, fit.txt, book.bin
# and book.txt. LABELS: how many positions to label in all (default
# 400000, about an hour on two quiet cores); THREADS (default 2). Every
# step runs under nice -n 19 and is deterministic from its seed (1).
set -eu
WTHOR=${1:?WTHOR_DIR}
OUT=${2:?OUT_DIR}
LABELS=${3:-400000}
THREADS=${4:-2}
cd "$(dirname "$0")/.."
cargo build --release
T=./target/release/tabula
mkdir -p "$OUT"
nice -n 19 $T label-othello --wthor "$WTHOR" --self-play 20000 \
  --out "$OUT/labels" --threads "$THREADS" --exact 18 --depth 6 --seed 1 \
  --limit "$LABELS"
nice -n 19 $T train-othello --labels "$OUT/labels" --wthor "$WTHOR" \
  --wthor-sample 1 --max-outcomes 400000 --label-weight 3 --tune-lambda \
  --iterations 60 --from-builtin --threads "$THREADS" \
  --out "$OUT/weights.bin" | tee "$OUT/fit.txt"
echo "The book is searched with the built-in weights; to make it with the new"
echo "ones, install them (cp $OUT/weights.bin src/games/othello/weights.bin),"
echo "rebuild, and run the book step again."
nice -n 19 $T book-othello --wthor "$WTHOR" --out "$OUT/book.bin" \
  --min-games 20 --plies 30 --depth 12 --threads "$THREADS" | tee "$OUT/book.txt"
